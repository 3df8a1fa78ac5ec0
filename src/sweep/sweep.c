/* sweep: reads and checks a sweep file (libconfig): name, base, set, axes, variants. */
#include "sweep.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text_file.h"

/* State of one sweep_load. */
struct sweep_loader {
    struct sweep *sw;
    const char *path;
    char *text; /* the file, to check integer literals */
    char *err;
};

/* Sweep files take no @include: their line numbers locate every setting in the one file, and
 * libconfig 1.5 would end the process on an include naming a directory. Resolved against
 * this include directory, no include can be opened, so libconfig reports each one cleanly. */
#define SWEEP_NO_INCLUDE_DIR "/dev/null"

static const char sweep_top_keys[] = "name, base, set, axes, variants";
static const char sweep_variant_keys[] =
    "name, saturation, tolerance, resolution, or a config group such as routing = { ... }";

static int sweep_fail(struct sweep_loader *ld, int line, const char *key, const char *fmt, ...)
{
    char problem[SWEEP_ERROR_LEN / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    snprintf(ld->err, SWEEP_ERROR_LEN, "%s:%d: %s: %s", ld->path, line, key, problem);
    return -1;
}

static int sweep_line(const config_setting_t *s)
{
    return (int)config_setting_source_line(s);
}

/* An array of n items of `size` bytes grown by one zeroed item (NULL: out of memory, the old
 * array is intact). */
static void *sweep_grow(void *array, int n, size_t size)
{
    char *bigger = realloc(array, ((size_t)n + 1) * size);
    if (bigger)
        memset(bigger + (size_t)n * size, 0, size);
    return bigger;
}

/* ---- names and keys ---- */

/* Names become directory and file names: letters, digits, '.', '_', '+', '-'. */
static bool sweep_name_ok(const char *name)
{
    if (!name[0] || name[0] == '.' || strlen(name) >= SWEEP_NAME_LEN)
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("._+-", *p))
            return false;
    return true;
}

/* A config group (traffic, routing, ...) or a list of named elements (jobs). */
static bool sweep_is_config_group(const char *name)
{
    return settings_is_group(name) || settings_list_named(name) != NULL;
}

static bool sweep_schema_has(const char *group, const char *name)
{
    struct setting_ref r;
    return settings_find(group, name, &r) == 0;
}

static int sweep_unknown_group(struct sweep_loader *ld, const config_setting_t *g)
{
    char groups[256] = "";
    for (int i = 0; settings_groups[i]; i++)
        snprintf(groups + strlen(groups), sizeof groups - strlen(groups), "%s%s", i ? ", " : "",
                 settings_groups[i]->name);
    for (int i = 0; settings_lists[i]; i++)
        snprintf(groups + strlen(groups), sizeof groups - strlen(groups), ", %s",
                 settings_lists[i]->name);
    return sweep_fail(ld, sweep_line(g), config_setting_name(g),
                      "unknown config group (expected one of: %s)", groups);
}

struct sweep_group_names {
    const char *group;
    char *names;
    size_t len;
};

static int sweep_list_setting(void *ctx, const struct setting_ref *r)
{
    struct sweep_group_names *l = ctx;
    const char *owner = r->group ? r->group->name : r->list->name;
    bool is_name = r->list && strcmp(r->row->name, r->list->name_key) == 0;
    if (strcmp(owner, l->group) == 0 && !is_name && !strstr(l->names, r->row->name))
        snprintf(l->names + strlen(l->names), l->len - strlen(l->names), "%s%s",
                 l->names[0] ? ", " : "", r->row->name);
    return 0;
}

static int sweep_unknown_setting(struct sweep_loader *ld, const char *group,
                                 const config_setting_t *s)
{
    char names[768] = "", key[SWEEP_KEY_LEN];
    struct sweep_group_names l = {group, names, sizeof names};
    settings_each(sweep_list_setting, &l);
    snprintf(key, sizeof key, "%s.%.40s", group, config_setting_name(s));
    return sweep_fail(ld, sweep_line(s), key, "unknown setting (expected one of: %s)", names);
}

/* ---- values ---- */

/* libconfig 1.5 silently wraps integer literals beyond 32 bits written without the L suffix:
 * refuse them rather than sweep over wrong values. */
static int sweep_check_wide_ints(struct sweep_loader *ld, int line, const char *key)
{
    const char *p = ld->text;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    for (; p && *p && *p != '\n'; p++) {
        if (!isdigit((unsigned char)*p) ||
            (p > ld->text && (isalnum((unsigned char)p[-1]) || strchr("._\"", p[-1]))))
            continue;
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if ((errno == ERANGE || v > INT_MAX) && *end != 'L' && *end != '.' && *end != 'e' &&
            *end != 'E' && *end != 'x')
            return sweep_fail(ld, line, key,
                              "integer %.*s needs the L suffix to be read exactly (expected "
                              "e.g. %.*sL)",
                              (int)(end - p), p, (int)(end - p), p);
        p = end - 1;
    }
    return 0;
}

/* Reads a scalar; returns 0, or -1 if s is a group, array or list. */
static int sweep_value_read(struct sweep_loader *ld, const config_setting_t *s, const char *key,
                            struct sweep_value *v)
{
    memset(v, 0, sizeof *v);
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
        v->type = SWEEP_INT;
        v->i = config_setting_get_int64(s);
        return sweep_check_wide_ints(ld, sweep_line(s), key);
    case CONFIG_TYPE_INT64:
        v->type = SWEEP_INT;
        v->i = config_setting_get_int64(s);
        return 0;
    case CONFIG_TYPE_FLOAT:
        v->type = SWEEP_FLOAT;
        v->f = config_setting_get_float(s);
        return 0;
    case CONFIG_TYPE_BOOL:
        v->type = SWEEP_BOOL;
        v->b = config_setting_get_bool(s) != 0;
        return 0;
    case CONFIG_TYPE_STRING:
        v->type = SWEEP_STRING;
        v->s = strdup(config_setting_get_string(s));
        return v->s ? 0 : sweep_fail(ld, sweep_line(s), key, "out of memory");
    default:
        return sweep_fail(ld, sweep_line(s), key,
                          "expected a single value (a number, a string or true/false)");
    }
}

void sweep_value_literal(const struct sweep_value *v, char *out, size_t len)
{
    switch (v->type) {
    case SWEEP_INT:
        snprintf(out, len, "%lld", v->i);
        break;
    case SWEEP_FLOAT:
        snprintf(out, len, "%.15g", v->f);
        if (strtod(out, NULL) != v->f)
            snprintf(out, len, "%.17g", v->f);
        if (!strpbrk(out, ".eEn")) /* keep it a float for config_load's type checks */
            snprintf(out + strlen(out), len - strlen(out), ".0");
        break;
    case SWEEP_BOOL:
        snprintf(out, len, "%s", v->b ? "true" : "false");
        break;
    case SWEEP_STRING: {
        size_t o = 0;
        if (len < 3)
            break;
        out[o++] = '"';
        for (const char *p = v->s; *p && o + 3 < len; p++) {
            if (*p == '"' || *p == '\\')
                out[o++] = '\\';
            out[o++] = *p;
        }
        out[o++] = '"';
        out[o] = '\0';
        break;
    }
    }
}

static void sweep_value_free(struct sweep_value *v)
{
    free(v->s);
    v->s = NULL;
}

/* ---- fixed settings: set = { group = { name = value; }; }; and the variants' groups ---- */

static int sweep_add_setting(struct sweep_loader *ld, const char *key, const config_setting_t *s,
                             struct sweep_setting **list, int *n)
{
    struct sweep_value v;
    if (sweep_value_read(ld, s, key, &v) != 0)
        return -1;
    char literal[1024];
    sweep_value_literal(&v, literal, sizeof literal);
    sweep_value_free(&v);
    size_t len = strlen(key) + strlen(literal) + 2;
    struct sweep_setting *bigger = sweep_grow(*list, *n, sizeof **list);
    if (bigger)
        *list = bigger;
    char *text = bigger ? malloc(len) : NULL;
    if (!text)
        return sweep_fail(ld, sweep_line(s), key, "out of memory");
    snprintf(text, len, "%s=%s", key, literal);
    bigger[*n].override = text;
    bigger[(*n)++].line = sweep_line(s);
    return 0;
}

/* What to do with one setting under set, axes or a variant (key "group.name" or
 * "list.element.name"). */
typedef int (*sweep_setting_fn)(struct sweep_loader *ld, const char *key,
                                const config_setting_t *s, void *ctx);

/* The settings of a list's elements: LIST = { ELEMENT = { name = ...; }; ... } (the element's
 * name is the one in the base config: jobs = { app = { placement = ...; }; }). */
static int sweep_walk_list(struct sweep_loader *ld, const config_setting_t *g,
                           const struct settings_list *list, sweep_setting_fn fn, void *ctx)
{
    for (int e = 0; e < config_setting_length(g); e++) {
        const config_setting_t *element = config_setting_get_elem(g, (unsigned)e);
        const char *name = config_setting_name(element);
        char key[SWEEP_KEY_LEN];
        snprintf(key, sizeof key, "%.16s.%.60s", list->name, name);
        if (!config_setting_is_group(element))
            return sweep_fail(ld, sweep_line(element), key,
                              "expected the settings of %s element '%s' as a group: %s = { %s = "
                              "{ key = value; }; }",
                              list->name, name, list->name, name);
        for (int i = 0; i < config_setting_length(element); i++) {
            const config_setting_t *s = config_setting_get_elem(element, (unsigned)i);
            struct setting_ref r;
            snprintf(key, sizeof key, "%.16s.%.60s.%.40s", list->name, name, config_setting_name(s));
            if (strcmp(config_setting_name(s), list->name_key) == 0)
                return sweep_fail(ld, sweep_line(s), key,
                                  "an element's %s names it and cannot be changed here",
                                  list->name_key);
            if (settings_find_element(list, 0, config_setting_name(s), &r) != 0) {
                char names[768] = "";
                struct sweep_group_names l = {list->name, names, sizeof names};
                settings_each(sweep_list_setting, &l);
                return sweep_fail(ld, sweep_line(s), key,
                                  "unknown setting of a %s element (expected one of: %s)",
                                  list->name, names);
            }
            if (fn(ld, key, s, ctx) != 0)
                return -1;
        }
    }
    return 0;
}

/* The settings under GROUP = { name = ...; } (or a list, above); `shape` shows the expected
 * syntax in the message for something else. */
static int sweep_walk_group(struct sweep_loader *ld, const config_setting_t *g, const char *shape,
                            sweep_setting_fn fn, void *ctx)
{
    const char *group = config_setting_name(g);
    if (!sweep_is_config_group(group))
        return sweep_unknown_group(ld, g);
    if (!config_setting_is_group(g))
        return sweep_fail(ld, sweep_line(g), group, "expected a group %s = { %s; }", group,
                          shape);
    const struct settings_list *list = settings_list_named(group);
    if (list)
        return sweep_walk_list(ld, g, list, fn, ctx);
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        char key[SWEEP_KEY_LEN];
        if (!sweep_schema_has(group, config_setting_name(s)))
            return sweep_unknown_setting(ld, group, s);
        snprintf(key, sizeof key, "%s.%s", group, config_setting_name(s));
        if (fn(ld, key, s, ctx) != 0)
            return -1;
    }
    return 0;
}

/* Fixed settings (set, variants): a list of overrides. */
struct sweep_setting_list {
    struct sweep_setting **list;
    int *n;
};

static int sweep_add_fixed(struct sweep_loader *ld, const char *key, const config_setting_t *s,
                           void *ctx)
{
    struct sweep_setting_list *l = ctx;
    return sweep_add_setting(ld, key, s, l->list, l->n);
}

/* A config group of fixed settings: GROUP = { name = value; ... }. */
static int sweep_parse_group(struct sweep_loader *ld, const config_setting_t *g,
                             struct sweep_setting **list, int *n)
{
    struct sweep_setting_list l = {list, n};
    return sweep_walk_group(ld, g, "name = value", sweep_add_fixed, &l);
}

static int sweep_parse_set(struct sweep_loader *ld, const config_setting_t *set)
{
    if (!config_setting_is_group(set))
        return sweep_fail(ld, sweep_line(set), "set",
                          "expected a group (e.g. set = { sim = { measure_cycles = 5000; }; };)");
    for (int i = 0; i < config_setting_length(set); i++)
        if (sweep_parse_group(ld, config_setting_get_elem(set, (unsigned)i), &ld->sw->set,
                              &ld->sw->n_set) != 0)
            return -1;
    return 0;
}

/* ---- axes = { group = { name = [v1, v2, ...]; }; }; ---- */

static int sweep_parse_axis_values(struct sweep_loader *ld, const config_setting_t *s,
                                   struct sweep_axis *axis)
{
    int n = config_setting_length(s);
    if (n == 0)
        return sweep_fail(ld, axis->line, axis->key, "empty list (expected at least one value)");
    axis->values = calloc((size_t)n, sizeof *axis->values);
    if (!axis->values)
        return sweep_fail(ld, axis->line, axis->key, "out of memory");
    char a[1024], b[1024];
    for (int i = 0; i < n; i++) {
        if (sweep_value_read(ld, config_setting_get_elem(s, (unsigned)i), axis->key,
                             &axis->values[i]) != 0)
            return -1;
        axis->n_values++;
        sweep_value_literal(&axis->values[i], a, sizeof a);
        for (int j = 0; j < i; j++) {
            sweep_value_literal(&axis->values[j], b, sizeof b);
            if (strcmp(a, b) == 0)
                return sweep_fail(ld, axis->line, axis->key,
                                  "value %s appears twice (expected distinct values)", a);
        }
    }
    return 0;
}

static int sweep_add_axis(struct sweep_loader *ld, const char *key, const config_setting_t *s,
                          void *ctx)
{
    (void)ctx;
    struct sweep_axis *axes = sweep_grow(ld->sw->axes, ld->sw->n_axes, sizeof *axes);
    if (!axes)
        return sweep_fail(ld, sweep_line(s), key, "out of memory");
    ld->sw->axes = axes;
    struct sweep_axis *axis = &axes[ld->sw->n_axes++];
    snprintf(axis->key, sizeof axis->key, "%s", key);
    axis->line = sweep_line(s);
    if (!config_setting_is_array(s) && !config_setting_is_list(s))
        return sweep_fail(ld, axis->line, axis->key,
                          "expected a list of values such as [0.1, 0.2] (every setting "
                          "under axes is an axis; a fixed value belongs in set)");
    return sweep_parse_axis_values(ld, s, axis);
}

static int sweep_parse_axis_group(struct sweep_loader *ld, const config_setting_t *g)
{
    return sweep_walk_group(ld, g, "name = [value, ...]", sweep_add_axis, NULL);
}

static int sweep_parse_axes(struct sweep_loader *ld, const config_setting_t *axes)
{
    if (!config_setting_is_group(axes))
        return sweep_fail(ld, sweep_line(axes), "axes",
                          "expected a group (e.g. axes = { traffic = { load = [0.1, 0.2]; }; };)");
    for (int i = 0; i < config_setting_length(axes); i++)
        if (sweep_parse_axis_group(ld, config_setting_get_elem(axes, (unsigned)i)) != 0)
            return -1;
    return 0;
}

/* ---- variants = ( { name = "..."; group = { ... }; }, ... ); ---- */

static int sweep_parse_fraction(struct sweep_loader *ld, const config_setting_t *s, const char *key,
                                double max, double *out)
{
    int type = config_setting_type(s);
    if (type == CONFIG_TYPE_FLOAT)
        *out = config_setting_get_float(s);
    else if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64)
        *out = (double)config_setting_get_int64(s);
    else
        *out = -1;
    if (!(*out > 0 && *out <= max))
        return sweep_fail(ld, sweep_line(s), key, "expected a number in (0, %g]", max);
    return 0;
}

static int sweep_parse_variant_item(struct sweep_loader *ld, struct sweep_variant *v,
                                    const config_setting_t *s)
{
    const char *key = config_setting_name(s);
    if (strcmp(key, "name") == 0) {
        const char *name = config_setting_get_string(s);
        if (!name || !sweep_name_ok(name))
            return sweep_fail(ld, sweep_line(s), "name",
                              "expected a string of letters, digits, '.', '_', '+', '-' (it "
                              "names a directory), e.g. name = \"Obl-RRG\";");
        snprintf(v->name, sizeof v->name, "%s", name);
        return 0;
    }
    if (strcmp(key, "saturation") == 0) {
        if (config_setting_type(s) != CONFIG_TYPE_BOOL)
            return sweep_fail(ld, sweep_line(s), key, "expected true or false");
        v->saturation = config_setting_get_bool(s) != 0;
        return 0;
    }
    if (strcmp(key, "tolerance") == 0)
        return sweep_parse_fraction(ld, s, key, 0.5, &v->tolerance);
    if (strcmp(key, "resolution") == 0)
        return sweep_parse_fraction(ld, s, key, 0.5, &v->resolution);
    if (config_setting_is_group(s) || sweep_is_config_group(key))
        return sweep_parse_group(ld, s, &v->settings, &v->n_settings);
    return sweep_fail(ld, sweep_line(s), key, "unknown variant setting (expected %s)",
                      sweep_variant_keys);
}

static int sweep_check_variant(struct sweep_loader *ld, const struct sweep_variant *v, int index)
{
    if (!v->name[0])
        return sweep_fail(ld, v->line, "variants",
                          "variant %d has no name (expected name = "
                          "\"...\"; in every variant)",
                          index + 1);
    for (int i = 0; i < index; i++)
        if (strcmp(ld->sw->variants[i].name, v->name) == 0)
            return sweep_fail(ld, v->line, "name",
                              "variant '%s' is defined twice (expected "
                              "distinct names)",
                              v->name);
    if (!v->saturation && (v->tolerance > 0 || v->resolution > 0))
        return sweep_fail(ld, v->line, v->name,
                          "tolerance and resolution apply to saturation variants only "
                          "(expected saturation = true; or neither)");
    return 0;
}

static int sweep_parse_variants(struct sweep_loader *ld, const config_setting_t *list)
{
    if (!config_setting_is_list(list) || config_setting_length(list) == 0)
        return sweep_fail(ld, sweep_line(list), "variants",
                          "expected a non-empty list ( { name = \"A\"; routing = { ... }; }, "
                          "... )");
    for (int i = 0; i < config_setting_length(list); i++) {
        const config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        struct sweep_variant *vars = sweep_grow(ld->sw->variants, ld->sw->n_variants, sizeof *vars);
        if (!vars)
            return sweep_fail(ld, sweep_line(g), "variants", "out of memory");
        ld->sw->variants = vars;
        struct sweep_variant *v = &vars[ld->sw->n_variants++];
        v->line = sweep_line(g);
        if (!config_setting_is_group(g))
            return sweep_fail(ld, v->line, "variants",
                              "variant %d: expected a group { name = "
                              "\"...\"; ... }",
                              i + 1);
        for (int k = 0; k < config_setting_length(g); k++)
            if (sweep_parse_variant_item(ld, v, config_setting_get_elem(g, (unsigned)k)) != 0)
                return -1;
        if (sweep_check_variant(ld, v, i) != 0)
            return -1;
    }
    return 0;
}

/* ---- the file ---- */

static int sweep_parse_string(struct sweep_loader *ld, const config_setting_t *s, char *out,
                              size_t len, const char *example)
{
    const char *value = config_setting_get_string(s);
    if (!value || !value[0] || strlen(value) >= len)
        return sweep_fail(ld, sweep_line(s), config_setting_name(s), "expected a string, e.g. %s",
                          example);
    snprintf(out, len, "%s", value);
    return 0;
}

/* base is relative to the sweep file's directory. */
static int sweep_parse_base(struct sweep_loader *ld, const config_setting_t *s)
{
    char base[SWEEP_PATH_LEN];
    if (sweep_parse_string(ld, s, base, sizeof base, "base = \"../default.cfg\";") != 0)
        return -1;
    const char *slash = strrchr(ld->path, '/');
    size_t dir = base[0] == '/' || !slash ? 0 : (size_t)(slash - ld->path) + 1;
    if (dir + strlen(base) >= sizeof ld->sw->base)
        return sweep_fail(ld, sweep_line(s), "base", "path too long (expected at most %d bytes)",
                          SWEEP_PATH_LEN - 1);
    memcpy(ld->sw->base, ld->path, dir);
    memcpy(ld->sw->base + dir, base, strlen(base) + 1);
    ld->sw->base_line = sweep_line(s);
    if (access(ld->sw->base, R_OK) != 0)
        return sweep_fail(ld, sweep_line(s), "base",
                          "cannot read %s: %s (expected a config file, "
                          "relative to the sweep file)",
                          ld->sw->base, strerror(errno));
    return 0;
}

static int sweep_parse_top(struct sweep_loader *ld, const config_setting_t *s)
{
    const char *key = config_setting_name(s);
    if (strcmp(key, "name") == 0) {
        if (sweep_parse_string(ld, s, ld->sw->name, sizeof ld->sw->name, "name = \"h6-un\";"))
            return -1;
        if (!sweep_name_ok(ld->sw->name))
            return sweep_fail(ld, sweep_line(s), key,
                              "expected letters, digits, '.', '_', '+', "
                              "'-' (it names the output directory)");
        return 0;
    }
    if (strcmp(key, "base") == 0)
        return sweep_parse_base(ld, s);
    if (strcmp(key, "set") == 0)
        return sweep_parse_set(ld, s);
    if (strcmp(key, "axes") == 0)
        return sweep_parse_axes(ld, s);
    if (strcmp(key, "variants") == 0)
        return sweep_parse_variants(ld, s);
    return sweep_fail(ld, sweep_line(s), key, "unknown sweep setting (expected one of: %s)",
                      sweep_top_keys);
}

/* The key of an override "group.name=literal" is equal to `key`. */
static bool sweep_override_is(const char *override, const char *key)
{
    size_t n = strlen(key);
    return strncmp(override, key, n) == 0 && override[n] == '=';
}

/* An axis cannot also be fixed by set or a variant; a saturation variant owns traffic.load. */
static int sweep_check_conflicts(struct sweep_loader *ld)
{
    const struct sweep *sw = ld->sw;
    for (int a = 0; a < sw->n_axes; a++)
        for (int i = 0; i < sw->n_set; i++)
            if (sweep_override_is(sw->set[i].override, sw->axes[a].key))
                return sweep_fail(ld, sw->set[i].line, sw->axes[a].key,
                                  "also an axis (line %d) (expected it in set or in axes, not "
                                  "both)",
                                  sw->axes[a].line);
    for (int v = 0; v < sw->n_variants; v++) {
        const struct sweep_variant *var = &sw->variants[v];
        for (int i = 0; i < var->n_settings; i++) {
            for (int a = 0; a < sw->n_axes; a++)
                if (sweep_override_is(var->settings[i].override, sw->axes[a].key))
                    return sweep_fail(ld, var->settings[i].line, sw->axes[a].key,
                                      "set by variant '%s' and also an axis (line %d) (expected "
                                      "one or the other)",
                                      var->name, sw->axes[a].line);
            if (var->saturation && sweep_override_is(var->settings[i].override, "traffic.load"))
                return sweep_fail(ld, var->settings[i].line, "traffic.load",
                                  "variant '%s' searches the saturation load itself (expected no "
                                  "traffic.load in a saturation variant)",
                                  var->name);
        }
    }
    return 0;
}

static void sweep_default_name(struct sweep *sw, const char *path)
{
    config_name_from_path(path, sw->name, sizeof sw->name);
    for (char *p = sw->name; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("._+-", *p))
            *p = '-';
}

/* Without variants, one implicit variant of no settings; saturation defaults filled in. */
static int sweep_finish(struct sweep_loader *ld)
{
    struct sweep *sw = ld->sw;
    if (!sw->base[0])
        return sweep_fail(ld, 1, "base",
                          "missing (expected base = \"path/to/config.cfg\"; "
                          "relative to the sweep file)");
    if (sw->n_variants == 0) {
        sw->variants = sweep_grow(NULL, 0, sizeof *sw->variants);
        if (!sw->variants)
            return sweep_fail(ld, 1, "variants", "out of memory");
        sw->n_variants = 1;
    }
    for (int v = 0; v < sw->n_variants; v++) {
        if (sw->variants[v].tolerance <= 0)
            sw->variants[v].tolerance = SWEEP_DEFAULT_TOLERANCE;
        if (sw->variants[v].resolution <= 0)
            sw->variants[v].resolution = SWEEP_DEFAULT_RESOLUTION;
    }
    if (!sw->name[0])
        sweep_default_name(sw, ld->path);
    return sweep_check_conflicts(ld);
}

static int sweep_parse_file(struct sweep_loader *ld, config_t *file)
{
    if (!config_read_string(file, ld->text)) {
        if (strcmp(config_error_text(file), "cannot open include file") == 0)
            return sweep_fail(ld, config_error_line(file), "@include",
                              "not supported in a sweep file (expected the shared settings in "
                              "the base config, or in set = [...])");
        return sweep_fail(ld, config_error_line(file), "syntax",
                          "%s (expected libconfig syntax, e.g. axes = { traffic = { load = "
                          "[0.1, 0.2]; }; };)",
                          config_error_text(file));
    }
    const config_setting_t *root = config_root_setting(file);
    for (int i = 0; i < config_setting_length(root); i++)
        if (sweep_parse_top(ld, config_setting_get_elem(root, (unsigned)i)) != 0)
            return -1;
    return sweep_finish(ld);
}

static int sweep_load_file(struct sweep_loader *ld)
{
    struct sweep *sw = ld->sw;
    if (strlen(ld->path) >= sizeof sw->path) {
        snprintf(ld->err, SWEEP_ERROR_LEN, "%.64s...: cannot read: path too long", ld->path);
        return -1;
    }
    snprintf(sw->path, sizeof sw->path, "%s", ld->path);
    size_t len;
    ld->text = text_file_read(ld->path, &len, ld->err, SWEEP_ERROR_LEN);
    if (!ld->text)
        return -1;
    config_t file;
    config_init(&file);
    config_set_include_dir(&file, SWEEP_NO_INCLUDE_DIR);
    int rc = sweep_parse_file(ld, &file);
    config_destroy(&file);
    free(ld->text);
    return rc;
}

int sweep_load(const char *path, struct sweep *sw, char err[SWEEP_ERROR_LEN])
{
    memset(sw, 0, sizeof *sw);
    struct sweep_loader ld = {sw, path, NULL, err};
    err[0] = '\0';
    int rc = sweep_load_file(&ld);
    if (rc != 0) {
        sweep_free(sw);
        text_one_line(err, SWEEP_ERROR_LEN); /* it may quote a value holding a newline */
    }
    return rc;
}

int sweep_init_single(struct sweep *sw, const char *name, const char *config,
                      const char *const *overrides, int n, char err[SWEEP_ERROR_LEN])
{
    memset(sw, 0, sizeof *sw);
    snprintf(sw->name, sizeof sw->name, "%s", name);
    snprintf(sw->base, sizeof sw->base, "%s", config);
    sw->variants = calloc(1, sizeof *sw->variants);
    sw->set = n > 0 ? calloc((size_t)n, sizeof *sw->set) : NULL;
    if (!sw->variants || (n > 0 && !sw->set)) {
        snprintf(err, SWEEP_ERROR_LEN, "out of memory");
        sweep_free(sw);
        return -1;
    }
    sw->n_variants = 1;
    sw->variants[0].tolerance = SWEEP_DEFAULT_TOLERANCE;
    sw->variants[0].resolution = SWEEP_DEFAULT_RESOLUTION;
    for (; sw->n_set < n; sw->n_set++) {
        sw->set[sw->n_set].override = strdup(overrides[sw->n_set]);
        if (!sw->set[sw->n_set].override) {
            snprintf(err, SWEEP_ERROR_LEN, "out of memory");
            sweep_free(sw);
            return -1;
        }
    }
    return 0;
}

int sweep_add_override(struct sweep *sw, const char *override)
{
    struct sweep_setting *set = realloc(sw->set, (size_t)(sw->n_set + 1) * sizeof *set);
    if (!set)
        return -1;
    sw->set = set;
    set[sw->n_set] = (struct sweep_setting){.override = strdup(override), .line = 0};
    if (!set[sw->n_set].override)
        return -1;
    sw->n_set++;
    return 0;
}

static void sweep_free_settings(struct sweep_setting *list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i].override);
    free(list);
}

void sweep_free(struct sweep *sw)
{
    sweep_free_settings(sw->set, sw->n_set);
    for (int a = 0; a < sw->n_axes; a++) {
        for (int i = 0; i < sw->axes[a].n_values; i++)
            sweep_value_free(&sw->axes[a].values[i]);
        free(sw->axes[a].values);
    }
    free(sw->axes);
    for (int v = 0; v < sw->n_variants; v++)
        sweep_free_settings(sw->variants[v].settings, sw->variants[v].n_settings);
    free(sw->variants);
    memset(sw, 0, sizeof *sw);
}
