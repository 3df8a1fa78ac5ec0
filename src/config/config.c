/* config: the core's settings, libconfig parsing, --set overrides and validation against the
 * schema (include/settings.h) that the core's and the plug-ins' tables make up. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_doc.h"
#include "config_include.h"
#include "link_rate.h"
#include "text_file.h"

#define CONFIG_PROBLEM_LEN 700
/* Room for every setting written: a result document writes them all, of every job. */
#define CONFIG_MAX_ORIGINS 2048

#if defined(DFSIM_TEST) || defined(DFSIM_FUZZ)
/* libconfig 1.5 (Debian 12) leaks the text of a string token that a syntax error discards
 * (its grammar has no %destructor): a few bytes, once, before dfsim exits with status 2.
 * Only the scanner's allocations of token text are silenced in the sanitizer builds
 * (tools/valgrind.supp does the same for valgrind); any other leak is still reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    /* libotf2 3.0 keeps what it allocated when an anchor file is cut short (otf2_archive_open
     * returns an error without freeing): a few KiB per refused trace. Its frames carry no
     * frame pointers, so it is matched by the library's file name. */
    return "leak:strbuf_append\nleak:libconfig_yylex\nleak:libopen-trace-format2.so\n";
}
#endif

/* Where a setting got its value, for messages about it. */
struct config_origin {
    size_t offset;    /* the setting's place in struct sim_config */
    const char *file; /* NULL: not from a file */
    int line;
    const char *set; /* the --set argument, or NULL */
    bool echo;       /* from a result document's config, which echoes every setting */
};

/* A group or list written at the top level of a file: once per reading of the file. */
struct config_top {
    const char *name; /* the schema's */
    int reading, line;
};

/* A value read by libconfig (from the file or a --set). */
struct config_value {
    int type; /* CONFIG_TYPE_* */
    long long i;
    double f;
    int b;
    const char *s;
    const config_setting_t *elements; /* CONFIG_TYPE_ARRAY or LIST */
};

/* A setting being stored, with the name messages give it ("traffic.load", "jobs.app.load"). */
struct config_target {
    struct setting_ref ref;
    char key[192];
};

/* State of one config_load. */
struct config_loader {
    struct sim_config *cfg;
    const char *path; /* the file being read */
    const char *text; /* the layer being read (to re-read integer literals) */
    int line_base;    /* lines of the expanded text before that layer */
    int reading;      /* the reading of a file it belongs to (config_include_layer) */
    bool document;    /* the file is a result document (config_doc.h) */
    config_t file;
    struct config_include_text expanded; /* kept until the end: origins point to its files */
    struct config_origin origin[CONFIG_MAX_ORIGINS];
    int n_origins;
    struct config_top *tops; /* the groups and lists each reading wrote */
    int n_tops, tops_cap;
    char *err;
    bool lenient;                     /* every setting not in force is a warning (a sweep) */
    struct config_warnings *warnings; /* NULL: warnings dropped */
};

/* ---- small helpers ---- */

/* Appends to buf (always NUL-terminated). */
static void config_append(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

static void config_remember(struct config_loader *ld, const struct setting_ref *r,
                            struct config_origin origin)
{
    origin.offset = r->offset;
    for (int i = 0; i < ld->n_origins; i++)
        if (ld->origin[i].offset == r->offset) {
            ld->origin[i] = origin;
            return;
        }
    if (ld->n_origins < CONFIG_MAX_ORIGINS)
        ld->origin[ld->n_origins++] = origin;
}

/* ---- suggestions for misspelt names ---- */

/* Levenshtein distance, capped: strings longer than 63 characters count as far apart. */
static int config_distance(const char *s, const char *t)
{
    size_t n = strlen(s), m = strlen(t);
    if (n > 63 || m > 63)
        return INT_MAX;
    int row[64];
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int best = diag + (s[i - 1] != t[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* The closest setting to a misspelt full name (distance <= 2), or else one with the same key
 * in another group. */
struct config_suggestion {
    const char *full, *key;
    int best_distance;
    struct setting_ref best;
    bool found;
};

static int config_suggest_close(void *ctx, const struct setting_ref *r)
{
    struct config_suggestion *s = ctx;
    char name[160];
    settings_full_name(r, name, sizeof name);
    int d = config_distance(s->full, name);
    if (d < s->best_distance) {
        s->best_distance = d;
        s->best = *r;
        s->found = true;
    }
    return 0;
}

static int config_suggest_same_key(void *ctx, const struct setting_ref *r)
{
    struct config_suggestion *s = ctx;
    if (strcmp(r->row->name, s->key) != 0)
        return 0;
    s->best = *r;
    s->found = true;
    return 1;
}

static bool config_suggest(const char *full, struct setting_ref *out)
{
    const char *dot = strrchr(full, '.');
    struct config_suggestion s = {full, dot ? dot + 1 : full, 3, {0}, false};
    settings_each(config_suggest_close, &s);
    if (!s.found)
        settings_each(config_suggest_same_key, &s);
    *out = s.best;
    return s.found;
}

static const char *config_suggest_group(const char *group)
{
    for (int g = 0; settings_groups[g]; g++)
        if (config_distance(group, settings_groups[g]->name) <= 2)
            return settings_groups[g]->name;
    return NULL;
}

static void config_group_names(char *buf, size_t len)
{
    buf[0] = '\0';
    for (int g = 0; settings_groups[g]; g++)
        config_append(buf, len, "%s%s", g ? ", " : "", settings_groups[g]->name);
}

struct config_group_listing {
    const char *group;
    size_t group_len;
    char *buf;
    size_t len;
    int listed;
};

static int config_list_group(void *ctx, const struct setting_ref *r)
{
    struct config_group_listing *l = ctx;
    if (r->group && strlen(r->group->name) == l->group_len &&
        strncmp(r->group->name, l->group, l->group_len) == 0)
        config_append(l->buf, l->len, "%s %s.%s", l->listed++ ? "," : "", r->group->name,
                      r->row->name);
    return 0;
}

void config_unknown_setting(const char *full, char *problem, size_t len)
{
    struct setting_ref near;
    if (config_suggest(full, &near)) {
        char name[160];
        settings_full_name(&near, name, sizeof name);
        snprintf(problem, len, "%s: unknown setting (did you mean '%s'?)", full, name);
        return;
    }
    const char *dot = strchr(full, '.');
    snprintf(problem, len, "%s: unknown setting (expected one of:", full);
    struct config_group_listing l = {full, dot ? (size_t)(dot - full) : 0, problem, len, 0};
    if (l.group_len)
        settings_each(config_list_group, &l);
    if (!l.listed) {
        char groups[256];
        config_group_names(groups, sizeof groups);
        snprintf(problem, len, "%s: unknown setting (expected GROUP.KEY with GROUP one of: %s)",
                 full, groups);
        return;
    }
    config_append(problem, len, ")");
}

static void config_unknown_group(const char *group, char *problem, size_t len)
{
    const char *near = config_suggest_group(group);
    if (near) {
        snprintf(problem, len, "%s: unknown group (did you mean '%s'?)", group, near);
        return;
    }
    char groups[256];
    config_group_names(groups, sizeof groups);
    snprintf(problem, len, "%s: unknown group (expected one of: %s)", group, groups);
}

/* ---- values: reading, checking, storing ---- */

static void config_value_of(const config_setting_t *s, struct config_value *v)
{
    memset(v, 0, sizeof *v);
    v->type = config_setting_type(s);
    if (v->type == CONFIG_TYPE_INT || v->type == CONFIG_TYPE_INT64)
        v->i = config_setting_get_int64(s);
    else if (v->type == CONFIG_TYPE_FLOAT)
        v->f = config_setting_get_float(s);
    else if (v->type == CONFIG_TYPE_BOOL)
        v->b = config_setting_get_bool(s);
    else if (v->type == CONFIG_TYPE_STRING)
        v->s = config_setting_get_string(s);
    else if (v->type == CONFIG_TYPE_ARRAY || v->type == CONFIG_TYPE_LIST)
        v->elements = s;
}

static void config_describe(const struct config_value *v, char *buf, size_t len)
{
    switch (v->type) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        snprintf(buf, len, "an integer (%lld)", v->i);
        break;
    case CONFIG_TYPE_FLOAT:
        snprintf(buf, len, "a number (%.15g)", v->f);
        break;
    case CONFIG_TYPE_BOOL:
        snprintf(buf, len, "a boolean (%s)", v->b ? "true" : "false");
        break;
    case CONFIG_TYPE_STRING:
        snprintf(buf, len, "a string ('%.64s')", v->s);
        break;
    case CONFIG_TYPE_GROUP:
        snprintf(buf, len, "a group { ... }");
        break;
    case CONFIG_TYPE_ARRAY:
        snprintf(buf, len, "an array [ ... ]");
        break;
    default:
        snprintf(buf, len, "a list ( ... )");
        break;
    }
}

static int config_type_error(const struct config_target *t, const struct config_value *v,
                             char *problem, size_t len)
{
    static const char *const expected[] = {[SETTING_INT] = "an integer",
                                           [SETTING_INT64] = "an integer",
                                           [SETTING_DOUBLE] = "a number",
                                           [SETTING_BOOL] = "true or false",
                                           [SETTING_CHOICE] = "a string",
                                           [SETTING_STRING] = "a string",
                                           [SETTING_INT_LIST] = "an array of integers"};
    char got[128], names[256] = "", list[224];
    const char *what = expected[t->ref.row->type];
    config_describe(v, got, sizeof got);
    if (t->ref.row->type == SETTING_CHOICE) {
        settings_names_text(t->ref.row, list, sizeof list);
        snprintf(names, sizeof names, " (one of: %s)", list);
        if (settings_choice_index(t->ref.row, "true") >= 0)
            what = "true, false or a string";
    }
    snprintf(problem, len, "%s: expected %s%s, got %s", t->key, what, names, got);
    return -1;
}

static void config_range_text(const struct setting *row, bool too_big, char *buf, size_t len)
{
    bool unbounded = ((row->type == SETTING_INT || row->type == SETTING_INT_LIST) &&
                      row->max >= SETTING_UNBOUNDED_INT && !too_big) ||
                     (row->type == SETTING_INT64 && row->max >= SETTING_UNBOUNDED_INT64);
    if (row->type == SETTING_DOUBLE)
        snprintf(buf, len, "a number in [%.15g, %.15g]", row->min, row->max);
    else if (unbounded)
        snprintf(buf, len, "an integer >= %lld", (long long)row->min);
    else
        snprintf(buf, len, "an integer in [%lld, %lld]", (long long)row->min, (long long)row->max);
}

static int config_range_error(const struct config_target *t, const char *value, bool too_big,
                              char *problem, size_t len)
{
    char expected[96];
    config_range_text(t->ref.row, too_big, expected, sizeof expected);
    snprintf(problem, len, "%s: %s is out of range (expected %s)", t->key, value, expected);
    return -1;
}

static bool config_is_int(const struct config_value *v)
{
    return v->type == CONFIG_TYPE_INT || v->type == CONFIG_TYPE_INT64;
}

/* An integer within the row's range, or the problem. */
static int config_check_int(const struct config_target *t, long long i, char *problem, size_t len)
{
    if ((double)i >= t->ref.row->min && (double)i <= t->ref.row->max)
        return 0;
    char value[32];
    snprintf(value, sizeof value, "%lld", i);
    return config_range_error(t, value, (double)i > t->ref.row->max, problem, len);
}

static int config_store_int(const struct config_target *t, const struct config_value *v,
                            char *field, char *problem, size_t len)
{
    if (!config_is_int(v))
        return config_type_error(t, v, problem, len);
    if (config_check_int(t, v->i, problem, len))
        return -1;
    if (t->ref.row->type == SETTING_INT)
        *(int *)field = (int)v->i;
    else
        *(int64_t *)field = (int64_t)v->i;
    return 0;
}

static int config_store_double(const struct config_target *t, const struct config_value *v,
                               char *field, char *problem, size_t len)
{
    double x;
    char value[40];
    if (v->type == CONFIG_TYPE_FLOAT) {
        x = v->f;
        snprintf(value, sizeof value, "%.15g", x);
    } else if (config_is_int(v)) {
        x = (double)v->i;
        snprintf(value, sizeof value, "%lld", v->i);
    } else {
        return config_type_error(t, v, problem, len);
    }
    if (!isfinite(x) || x < t->ref.row->min || x > t->ref.row->max)
        return config_range_error(t, value, !(x < t->ref.row->min), problem, len);
    *(double *)field = x;
    return 0;
}

/* A value a CHOICE setting does not offer: the values, and the literature's names it accepts. */
static int config_unknown_choice(const struct config_target *t, const char *name, char *problem,
                                 size_t len)
{
    char list[256], aliases[160];
    settings_names_text(t->ref.row, list, sizeof list);
    settings_aliases_text(t->ref.row, true, aliases, sizeof aliases);
    snprintf(problem, len, "%s: unknown value '%.64s' (expected one of: %s", t->key, name, list);
    if (aliases[0])
        config_append(problem, len, "; or the shorthand %s", aliases);
    config_append(problem, len, ")");
    return -1;
}

static int config_store_choice(const struct config_target *t, const struct config_value *v,
                               char *field, char *problem, size_t len)
{
    if (v->type == CONFIG_TYPE_BOOL) { /* a choice offering true and false takes booleans */
        int index = settings_choice_index(t->ref.row, v->b ? "true" : "false");
        if (index < 0)
            return config_type_error(t, v, problem, len);
        *(int *)field = index;
        return 0;
    }
    if (v->type != CONFIG_TYPE_STRING)
        return config_type_error(t, v, problem, len);
    struct setting_choice_match m;
    if (settings_choice_lookup(t->ref.row, v->s, &m) < 0 || (m.alias && m.alias->also))
        return config_unknown_choice(t, v->s, problem, len);
    *(int *)field = m.index;
    return 0;
}

static int config_store_string(const struct config_target *t, const struct config_value *v,
                               char *field, char *problem, size_t len)
{
    if (v->type != CONFIG_TYPE_STRING)
        return config_type_error(t, v, problem, len);
    if (strlen(v->s) >= SETTING_STRING_LEN) {
        snprintf(problem, len, "%s: '%.40s...' is too long (expected at most %d characters)",
                 t->key, v->s, SETTING_STRING_LEN - 1);
        return -1;
    }
    snprintf(field, SETTING_STRING_LEN, "%s", v->s);
    return 0;
}

static int config_store_list(const struct config_target *t, const struct config_value *v,
                             char *field, char *problem, size_t len)
{
    if (!v->elements)
        return config_type_error(t, v, problem, len);
    int n = config_setting_length(v->elements);
    if (n > SETTING_LIST_MAX) {
        snprintf(problem, len, "%s: %d elements (expected at most %d)", t->key, n,
                 SETTING_LIST_MAX);
        return -1;
    }
    struct setting_int_list *list = (struct setting_int_list *)field;
    for (int i = 0; i < n; i++) {
        struct config_value e;
        config_value_of(config_setting_get_elem(v->elements, i), &e);
        if (!config_is_int(&e))
            return config_type_error(t, v, problem, len);
        if (config_check_int(t, e.i, problem, len))
            return -1;
        list->values[i] = (int)e.i;
    }
    list->count = n;
    return 0;
}

/* Checks a value against its row and stores it at field; returns 0 or -1 with the problem. */
static int config_store_at(const struct config_target *t, const struct config_value *v, char *field,
                           char *problem, size_t len)
{
    switch (t->ref.row->type) {
    case SETTING_INT:
    case SETTING_INT64:
        return config_store_int(t, v, field, problem, len);
    case SETTING_DOUBLE:
        return config_store_double(t, v, field, problem, len);
    case SETTING_BOOL:
        if (v->type != CONFIG_TYPE_BOOL)
            return config_type_error(t, v, problem, len);
        *(bool *)field = v->b != 0;
        return 0;
    case SETTING_CHOICE:
        return config_store_choice(t, v, field, problem, len);
    case SETTING_STRING:
        return config_store_string(t, v, field, problem, len);
    case SETTING_INT_LIST:
        return config_store_list(t, v, field, problem, len);
    }
    return -1;
}

static void config_target_of(const struct sim_config *cfg, const struct setting_ref *r,
                             struct config_target *t)
{
    t->ref = *r;
    settings_full_name_in(cfg, r, t->key, sizeof t->key);
}

/* An alias that stands for two settings of a group or list element (ADV+2: pattern
 * "adversarial" and offset 2, VAL-any: mechanism "valiant" and valiant_target "router"): both
 * are stored, as if both were written where the alias is, or neither; *also is the second
 * one's place. */
static int config_store_alias(const struct config_target *t, const struct config_value *v,
                              const struct setting_choice_match *m, struct sim_config *cfg,
                              struct setting_ref *also, char *problem, size_t len)
{
    const struct setting_alias *a = m->alias;
    const char *value = settings_choices(t->ref.row)[m->index];
    char text[48];
    struct config_value second = {.type = CONFIG_TYPE_STRING, .s = a->also_value};
    if (a->also_value) {
        snprintf(text, sizeof text, "\"%s\"", a->also_value);
    } else {
        second.type = CONFIG_TYPE_INT;
        second.i = m->number;
        snprintf(text, sizeof text, "%ld", m->number);
    }
    int found = t->ref.group  ? settings_find(t->ref.group->name, a->also, also)
                : t->ref.list ? settings_find_element(t->ref.list, t->ref.element, a->also, also)
                              : -1;
    if (found != 0) {
        char list[256];
        settings_names_text(t->ref.row, list, sizeof list);
        snprintf(problem, len,
                 "%s: '%.64s' stands for \"%s\" with %s = %s, and %s is not a setting here "
                 "(expected one of: %s)",
                 t->key, v->s, value, a->also, text, a->also, list);
        return -1;
    }
    struct config_target at;
    config_target_of(cfg, also, &at);
    union setting_value scratch;
    char why[CONFIG_PROBLEM_LEN];
    if (config_store_at(&at, &second, (char *)&scratch, why, sizeof why) != 0) {
        snprintf(problem, len, "%s: '%.64s' is \"%s\" with %.400s", t->key, v->s, value, why);
        return -1;
    }
    *(int *)((char *)cfg + t->ref.offset) = m->index;
    return config_store_at(&at, &second, (char *)cfg + also->offset, problem, len);
}

/* The same into the setting's place in cfg; *also: the place of a second setting an alias
 * wrote too (also->row NULL if none). */
static int config_store(const struct config_target *t, const struct config_value *v,
                        struct sim_config *cfg, struct setting_ref *also, char *problem, size_t len)
{
    struct setting_choice_match m;
    also->row = NULL;
    if (t->ref.row->type == SETTING_CHOICE && v->type == CONFIG_TYPE_STRING &&
        settings_choice_lookup(t->ref.row, v->s, &m) >= 0 && m.alias && m.alias->also) {
        int rc = config_store_alias(t, v, &m, cfg, also, problem, len);
        if (rc != 0)
            also->row = NULL;
        return rc;
    }
    return config_store_at(t, v, (char *)cfg + t->ref.offset, problem, len);
}

/* ---- 64-bit integers ---- */

/* libconfig 1.5 silently wraps integers that need more than 32 bits unless they carry an L
 * suffix; re-reading the literal recovers the value as written. Returns 0 and sets *out, 1 if
 * the text is not a plain integer literal, -1 if it does not fit 64 bits. */
static int config_reparse_int(const char *text, long long *out)
{
    while (*text == ' ' || *text == '\t')
        text++;
    const char *digits = text + (*text == '-' || *text == '+');
    int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10;
    if (!isdigit((unsigned char)digits[0]))
        return 1;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, base);
    if (*end == '.' || *end == 'e' || *end == 'E')
        return 1;
    if (errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

/* Corrects an integer value read by libconfig from its literal (NULL: leave it). */
static int config_fix_int(const struct config_target *t, const char *literal,
                          struct config_value *v, char *problem, size_t len)
{
    long long exact;
    if (!literal || !config_is_int(v))
        return 0;
    int rc = config_reparse_int(literal, &exact);
    if (rc < 0) {
        char value[48];
        size_t n = strspn(literal, " \t");
        snprintf(value, sizeof value, "%.*s",
                 (int)strspn(literal + n, "+-0123456789abcdefxABCDEFX"), literal + n);
        return config_range_error(t, value, true, problem, len);
    }
    /* Only a value libconfig wrapped to 32 bits is corrected: a line may hold the same name
     * twice (two jobs on one line), and the literal found may be the other one's. */
    if (rc == 0 && exact != v->i && (long long)(int32_t)(uint32_t)(uint64_t)exact == v->i) {
        v->i = exact;
        v->type = CONFIG_TYPE_INT64;
    }
    return 0;
}

/* The text right after "NAME =" on line `line` of a file, or NULL. */
static const char *config_file_literal(const char *text, int line, const char *name)
{
    const char *p = text;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    size_t n = strlen(name);
    for (; p && *p && *p != '\n'; p++) {
        if (strncmp(p, name, n) != 0 ||
            (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            continue;
        const char *q = p + n;
        q += strspn(q, " \t");
        if (*q == '=' || *q == ':')
            return q + 1;
    }
    return NULL;
}

/* ---- the file ---- */

#define CONFIG_NO_INCLUDE_DIR "/dev/null" /* no file can be opened below it */

/* Where setting s was written: libconfig's line is one of the expanded text. */
static void config_source_of(const struct config_loader *ld, const config_setting_t *s,
                             const char **file, int *line)
{
    config_include_where(&ld->expanded, ld->line_base + (int)config_setting_source_line(s), file,
                         line);
    if (!*file)
        *file = ld->path;
}

static int config_fail_at(struct config_loader *ld, const config_setting_t *s, const char *problem)
{
    const char *file;
    int line;
    config_source_of(ld, s, &file, &line);
    snprintf(ld->err, CONFIG_ERROR_LEN, "%s:%d: %s", file, line, problem);
    return -1;
}

/* A path setting written in an included file in another folder than the config's: stored
 * made absolute, since paths are otherwise resolved from the config's folder (placement.h). */
static int config_resolve_path(const struct config_loader *ld, const struct setting_ref *r,
                               const char *file, char *problem, size_t len)
{
    char *value = (char *)settings_value(ld->cfg, r), dir[4096], top[4096], real[4096];
    if (!value[0] || value[0] == '/' || strcmp(file, ld->path) == 0)
        return 0;
    text_file_folder(file, dir, sizeof dir);
    text_file_folder(ld->path, top, sizeof top);
    if (strcmp(dir, top) == 0)
        return 0;
    if (!realpath(dir, real) || strlen(real) + 1 + strlen(value) >= SETTING_STRING_LEN) {
        snprintf(problem, len,
                 "%s: '%.60s' relative to %.200s: the path is too long (expected at "
                 "most %d characters)",
                 r->row->name, value, dir, SETTING_STRING_LEN - 1);
        return -1;
    }
    size_t n = strlen(real);
    memmove(value + n + 1, value, strlen(value) + 1); /* fits: checked above */
    memcpy(value, real, n);
    value[n] = '/';
    return 0;
}

/* Reads setting s (found as r) into the config. */
static int config_read_setting(struct config_loader *ld, const struct setting_ref *r,
                               config_setting_t *s)
{
    char problem[CONFIG_PROBLEM_LEN];
    struct config_target t;
    config_target_of(ld->cfg, r, &t);
    struct config_value v;
    struct setting_ref also;
    config_value_of(s, &v);
    const char *literal =
        config_file_literal(ld->text, (int)config_setting_source_line(s), config_setting_name(s));
    if (config_fix_int(&t, literal, &v, problem, sizeof problem) ||
        config_store(&t, &v, ld->cfg, &also, problem, sizeof problem))
        return config_fail_at(ld, s, problem);
    const char *file;
    int line;
    config_source_of(ld, s, &file, &line);
    if (r->row->is_path && config_resolve_path(ld, r, file, problem, sizeof problem) != 0)
        return config_fail_at(ld, s, problem);
    config_remember(ld, r, (struct config_origin){0, file, line, NULL, ld->document});
    if (also.row)
        config_remember(ld, &also, (struct config_origin){0, file, line, NULL, ld->document});
    return 0;
}

static int config_walk_setting(struct config_loader *ld, const char *group, config_setting_t *s)
{
    char problem[CONFIG_PROBLEM_LEN], full[160];
    const char *name = config_setting_name(s);
    struct setting_ref r;
    if (settings_find(group, name, &r)) {
        snprintf(full, sizeof full, "%s.%.64s", group, name);
        config_unknown_setting(full, problem, sizeof problem);
        return config_fail_at(ld, s, problem);
    }
    return config_read_setting(ld, &r, s);
}

/* ---- lists of groups: jobs = ( { ... }, ... ) ---- */

struct config_list_walk {
    char *buf;
    size_t len;
    const char *key, *near;
    int best;
};

static int config_list_key(void *ctx, const struct setting_ref *r)
{
    struct config_list_walk *w = ctx;
    config_append(w->buf, w->len, "%s%s", w->buf[0] ? ", " : "", r->row->name);
    return 0;
}

static void config_list_keys(const struct settings_list *list, char *buf, size_t len)
{
    buf[0] = '\0';
    struct config_list_walk w = {.buf = buf, .len = len};
    settings_each_in_element(list, -1, config_list_key, &w);
}

static int config_list_nearest(void *ctx, const struct setting_ref *r)
{
    struct config_list_walk *w = ctx;
    int d = config_distance(w->key, r->row->name);
    if (d < w->best) {
        w->best = d;
        w->near = r->row->name;
    }
    return 0;
}

/* "KEY: unknown setting (did you mean 'LIST.NAME.NEAR'?)" or "(expected one of: keys)" for a
 * key no element of the list has; `element` is how the message names the element. */
static void config_unknown_list_key(const struct settings_list *list, const char *element,
                                    const char *key, char *problem, size_t len)
{
    struct config_list_walk w = {.key = key, .best = 3};
    settings_each_in_element(list, -1, config_list_nearest, &w);
    const char *near = w.near;
    if (near) {
        snprintf(problem, len, "%s.%.64s: unknown setting (did you mean '%s.%s'?)", element, key,
                 element, near);
        return;
    }
    char keys[600];
    config_list_keys(list, keys, sizeof keys);
    snprintf(problem, len, "%s.%.64s: unknown setting (expected one of: %s)", element, key, keys);
}

/* The name of element i of list, or "" when it has none. */
static const char *config_element_name(const struct sim_config *cfg,
                                       const struct settings_list *list, int i)
{
    struct setting_ref r;
    if (i < 0 || i >= settings_list_count(cfg, list) ||
        settings_find_element(list, i, list->name_key, &r) != 0)
        return "";
    return (const char *)cfg + r.offset;
}

/* Element i of a list from its group in the file; its name first, so messages about its
 * other settings name it ("jobs.app.load"). */
static int config_walk_element(struct config_loader *ld, const struct settings_list *list, int i,
                               config_setting_t *g)
{
    char problem[CONFIG_PROBLEM_LEN], got[128];
    if (!config_setting_is_group(g)) {
        struct config_value v;
        config_value_of(g, &v);
        config_describe(&v, got, sizeof got);
        snprintf(problem, sizeof problem,
                 "%s[%d]: expected a group { name = \"...\"; ... }, got %s", list->name, i, got);
        return config_fail_at(ld, g, problem);
    }
    settings_fill_element(ld->cfg, list, i);
    *(int *)((char *)ld->cfg + list->count_offset) = i + 1;
    config_setting_t *name = config_setting_get_member(g, list->name_key);
    if (!name) { /* elements are named (jobs.NAME.KEY): say so at the element's line */
        snprintf(problem, sizeof problem,
                 "%s[%d]: an element of %s needs a %s (expected e.g. %s = \"app\";)", list->name, i,
                 list->name, list->name_key, list->name_key);
        return config_fail_at(ld, g, problem);
    }
    struct setting_ref r;
    if (settings_find_element(list, i, list->name_key, &r) == 0 &&
        config_read_setting(ld, &r, name))
        return -1;
    if (!config_element_name(ld->cfg, list, i)[0]) {
        snprintf(problem, sizeof problem,
                 "%s[%d].%s: an empty %s names nothing (expected e.g. "
                 "%s = \"app\";)",
                 list->name, i, list->name_key, list->name_key, list->name_key);
        return config_fail_at(ld, name, problem);
    }
    for (int k = 0; k < config_setting_length(g); k++) {
        config_setting_t *s = config_setting_get_elem(g, (unsigned)k);
        if (s == name)
            continue;
        if (settings_find_element(list, i, config_setting_name(s), &r) != 0) {
            const char *own = config_element_name(ld->cfg, list, i);
            char element[SETTING_STRING_LEN + 64];
            if (own[0])
                snprintf(element, sizeof element, "%s.%s", list->name, own);
            else
                snprintf(element, sizeof element, "%s[%d]", list->name, i);
            config_unknown_list_key(list, element, config_setting_name(s), problem, sizeof problem);
            return config_fail_at(ld, s, problem);
        }
        if (config_read_setting(ld, &r, s))
            return -1;
    }
    return 0;
}

/* A list written again replaces the earlier one whole (its elements are not merged by name:
 * an element's settings are read together), and with it where its settings were written. */
static void config_clear_list(struct config_loader *ld, const struct settings_list *list)
{
    size_t size = (size_t)list->max * list->element_size;
    memset((char *)ld->cfg + list->offset, 0, size);
    *(int *)((char *)ld->cfg + list->count_offset) = 0;
    int kept = 0;
    for (int i = 0; i < ld->n_origins; i++)
        if (ld->origin[i].offset < list->offset || ld->origin[i].offset >= list->offset + size)
            ld->origin[kept++] = ld->origin[i];
    ld->n_origins = kept;
}

static int config_walk_list(struct config_loader *ld, const struct settings_list *list,
                            config_setting_t *l)
{
    char problem[CONFIG_PROBLEM_LEN], got[128];
    if (!config_setting_is_list(l) &&
        !(config_setting_is_array(l) && config_setting_length(l) == 0)) {
        struct config_value v;
        config_value_of(l, &v);
        config_describe(&v, got, sizeof got);
        snprintf(problem, sizeof problem, "%s: expected a list %s = ( { ... }, ... ), got %s",
                 list->name, list->name, got);
        return config_fail_at(ld, l, problem);
    }
    int n = config_setting_length(l);
    if (n > list->max) {
        snprintf(problem, sizeof problem, "%s: %d elements (expected at most %d)", list->name, n,
                 list->max);
        return config_fail_at(ld, l, problem);
    }
    config_clear_list(ld, list);
    for (int i = 0; i < n; i++)
        if (config_walk_element(ld, list, i, config_setting_get_elem(l, (unsigned)i)))
            return -1;
    return 0;
}

/* A group or list written a second time in one reading of a file is a mistake, as libconfig
 * says of one written twice in one layer: settings are written again after an @include. */
static int config_once_per_file(struct config_loader *ld, const char *name, config_setting_t *g)
{
    const char *file;
    int line;
    config_source_of(ld, g, &file, &line);
    for (int i = 0; i < ld->n_tops; i++)
        if (ld->tops[i].reading == ld->reading && ld->tops[i].name == name) {
            char problem[CONFIG_PROBLEM_LEN];
            snprintf(problem, sizeof problem,
                     "%s: written a second time in this file (first at line %d; expected each "
                     "group once per file: settings written after an @include set the "
                     "included file's again)",
                     name, ld->tops[i].line);
            return config_fail_at(ld, g, problem);
        }
    struct config_top *tops = ld->tops;
    if (ld->n_tops == ld->tops_cap) {
        int cap = ld->tops_cap ? 2 * ld->tops_cap : 16;
        tops = realloc(ld->tops, (size_t)cap * sizeof *tops);
        if (!tops)
            return config_fail_at(ld, g, "out of memory");
        ld->tops = tops;
        ld->tops_cap = cap;
    }
    tops[ld->n_tops++] = (struct config_top){name, ld->reading, line};
    return 0;
}

static int config_walk_group(struct config_loader *ld, config_setting_t *g)
{
    char problem[CONFIG_PROBLEM_LEN], got[128];
    const char *name = config_setting_name(g);
    const struct settings_list *list = settings_list_named(name);
    if (ld->document && strcmp(name, "name") == 0)
        return 0; /* the config's name: config_doc_read gave it */
    if (list)
        return config_once_per_file(ld, list->name, g) ? -1 : config_walk_list(ld, list, g);
    if (!settings_is_group(name)) {
        if (config_setting_is_group(g))
            config_unknown_group(name, problem, sizeof problem);
        else
            config_unknown_setting(name, problem, sizeof problem);
        return config_fail_at(ld, g, problem);
    }
    if (!config_setting_is_group(g)) {
        struct config_value v;
        config_value_of(g, &v);
        config_describe(&v, got, sizeof got);
        snprintf(problem, sizeof problem, "%s: expected a group %s = { ... }, got %s", name, name,
                 got);
        return config_fail_at(ld, g, problem);
    }
    if (config_once_per_file(ld, settings_group_named(name)->name, g))
        return -1;
    for (int i = 0; i < config_setting_length(g); i++)
        if (config_walk_setting(ld, name, config_setting_get_elem(g, i)))
            return -1;
    return 0;
}

void config_name_from_path(const char *path, char *name, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".cfg") == 0)
        n -= 4;
    if (n >= len)
        n = len - 1;
    memcpy(name, base, n);
    name[n] = '\0';
}

static void config_set_name(struct sim_config *cfg, const char *path)
{
    config_name_from_path(path, cfg->name, sizeof cfg->name);
    snprintf(cfg->path, sizeof cfg->path, "%s", path);
}

/* A syntax error, located in the file and line it was written at. */
static void config_syntax_error(struct config_loader *ld)
{
    const char *file;
    int line;
    config_include_where(&ld->expanded, ld->line_base + config_error_line(&ld->file), &file, &line);
    snprintf(ld->err, CONFIG_ERROR_LEN,
             "%s:%d: %s (expected libconfig syntax, e.g. traffic = { load = 0.4; };)",
             file ? file : ld->path, line, config_error_text(&ld->file));
}

/* A result document's config as the text to read: one layer, on the document's lines. */
static int config_expand_document(struct config_loader *ld, const char *path, const char *text)
{
    struct config_include_text *x = &ld->expanded;
    if (config_doc_read(path, text, &x->text, ld->cfg->name, sizeof ld->cfg->name, ld->err,
                        CONFIG_ERROR_LEN) != 0)
        return -1;
    x->len = strlen(x->text);
    x->layers = calloc(1, sizeof *x->layers);
    if (!x->layers) {
        snprintf(ld->err, CONFIG_ERROR_LEN, "%.300s: out of memory", path);
        return -1;
    }
    x->layers[0].line = 1;
    x->n_layers = 1;
    ld->document = true;
    return 0;
}

/* Layer i of the expanded text, read by libconfig on its own (it refuses a name written
 * twice in one text), then walked: its settings set again those of the layers before. */
static int config_read_layer(struct config_loader *ld, int i)
{
    struct config_include_text *x = &ld->expanded;
    size_t end = i + 1 < x->n_layers ? x->layers[i + 1].offset : x->len;
    char cut = x->text[end];
    x->text[end] = '\0';
    ld->text = x->text + x->layers[i].offset;
    ld->line_base = x->layers[i].line - 1;
    ld->reading = x->layers[i].reading;
    int rc = 0;
    if (!config_read_string(&ld->file, ld->text)) {
        config_syntax_error(ld);
        rc = -1;
    } else {
        config_setting_t *root = config_root_setting(&ld->file);
        for (int k = 0; rc == 0 && k < config_setting_length(root); k++)
            rc = config_walk_group(ld, config_setting_get_elem(root, k));
    }
    x->text[end] = cut;
    ld->text = NULL;
    return rc;
}

static int config_load_file(struct config_loader *ld, const char *path)
{
    if (strlen(path) >= sizeof ld->cfg->path) {
        snprintf(ld->err, CONFIG_ERROR_LEN, "%.64s...: cannot read: path too long", path);
        return -1;
    }
    size_t len;
    char *text = path[0] ? text_file_read(path, &len, ld->err, CONFIG_ERROR_LEN) : NULL;
    if (!path[0])
        snprintf(ld->err, CONFIG_ERROR_LEN,
                 "'': cannot read: empty file name (expected a config file such as "
                 "conf/default.cfg)");
    config_set_name(ld->cfg, path);
    int rc = !text ? -1
             : config_doc_is_json(path, text)
                 ? config_expand_document(ld, path, text)
                 : config_include_expand(text, path, &ld->expanded, ld->err, CONFIG_ERROR_LEN);
    free(text);
    if (rc != 0)
        return -1;
    ld->path = path;
    /* Every directive is expanded: should libconfig see one all the same, it opens nothing. */
    config_set_include_dir(&ld->file, CONFIG_NO_INCLUDE_DIR);
    for (int i = 0; rc == 0 && i < ld->expanded.n_layers; i++)
        rc = config_read_layer(ld, i);
    return rc;
}

/* ---- --set overrides ---- */

/* Parses VALUE as libconfig would (v = VALUE;); anything else is a bare-word string, copied
 * without surrounding blanks into `bare`. A value with a newline is never a libconfig value
 * (and could hold an @include line: see config_include.h), so libconfig does not see it. */
static void config_parse_value(config_t *scratch, const char *value, struct config_value *v,
                               char *bare, size_t bare_len)
{
    size_t len = strlen(value);
    while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t'))
        len--;
    snprintf(bare, bare_len, "%.*s", (int)(len < bare_len ? len : bare_len - 1), value);
    memset(v, 0, sizeof *v);
    v->type = CONFIG_TYPE_STRING;
    v->s = bare;
    char *doc = memchr(value, '\n', len) ? NULL : malloc(len + 8);
    if (!doc)
        return;
    snprintf(doc, len + 8, "v = %.*s;", (int)len, value);
    if (config_read_string(scratch, doc) &&
        config_setting_length(config_root_setting(scratch)) == 1)
        config_value_of(config_setting_get_elem(config_root_setting(scratch), 0), v);
    free(doc);
}

/* Copies KEY of "KEY=VALUE" without surrounding blanks; returns 0, or -1 if malformed. */
static int config_override_key(const char *arg, const char *eq, char *key, size_t len)
{
    while (arg < eq && (*arg == ' ' || *arg == '\t'))
        arg++;
    size_t n = (size_t)(eq - arg);
    while (n > 0 && (arg[n - 1] == ' ' || arg[n - 1] == '\t'))
        n--;
    if (n == 0 || n >= len)
        return -1;
    memcpy(key, arg, n);
    key[n] = '\0';
    return 0;
}

/* A --set KEY of a list that settings_find_in does not know: "jobs[0].nodes" (elements are
 * named, not numbered), "jobs.NAME.KEY" for a NAME no element has, or a KEY elements lack.
 * Writes the problem and returns 1 if it was one of those. */
static int config_unknown_element(const struct sim_config *cfg, const char *key, char *problem,
                                  size_t len)
{
    size_t head = strcspn(key, ".[");
    if (head >= 64)
        return 0;
    char name[64];
    memcpy(name, key, head);
    name[head] = '\0';
    const struct settings_list *list = settings_list_named(name);
    if (!list)
        return 0;
    const char *last = strrchr(key, '.');
    if (key[head] == '[') {
        const char *inner = last ? last + 1 : "KEY";
        char index_text[16] = "";
        size_t digits = strspn(key + head + 1, "0123456789");
        snprintf(index_text, sizeof index_text, "%.*s", (int)(digits < 9 ? digits : 9),
                 key + head + 1);
        const char *element = config_element_name(cfg, list, digits ? atoi(index_text) : -1);
        snprintf(problem, len, "%.*s: %s elements are named, not numbered (expected %s.%s.%.64s)",
                 (int)strcspn(key, "="), key, list->name, list->name, element[0] ? element : "NAME",
                 inner);
        return 1;
    }
    const char *dot = key + head;
    if (*dot != '.' || !last || last == dot)
        return 0;
    char element[SETTING_STRING_LEN];
    snprintf(element, sizeof element, "%.*s", (int)(last - dot - 1), dot + 1);
    if (settings_element_named(cfg, list, element) >= 0) {
        char prefix[SETTING_STRING_LEN + 64];
        snprintf(prefix, sizeof prefix, "%s.%s", list->name, element);
        config_unknown_list_key(list, prefix, last + 1, problem, len);
        return 1;
    }
    snprintf(problem, len,
             "%.*s: no %s element is named '%.*s' (expected one of:", (int)(last - key), key,
             list->name, (int)(last - dot - 1), dot + 1);
    for (int i = 0; i < settings_list_count(cfg, list); i++)
        config_append(problem, len, "%s %s", i ? "," : "", config_element_name(cfg, list, i));
    config_append(problem, len, ")");
    return 1;
}

/* Stores VALUE into setting r; returns 0 or -1 with the problem. */
static int config_override_value(struct config_loader *ld, const struct setting_ref *r,
                                 const char *value, struct setting_ref *also, char *problem,
                                 size_t len)
{
    config_t scratch;
    char bare[256];
    struct config_value v;
    config_init(&scratch);
    value += strspn(value, " \t");
    config_parse_value(&scratch, value, &v, bare, sizeof bare);
    struct config_target t;
    config_target_of(ld->cfg, r, &t);
    int rc = config_fix_int(&t, value, &v, problem, len) ||
                     config_store(&t, &v, ld->cfg, also, problem, len)
                 ? -1
                 : 0;
    config_destroy(&scratch);
    return rc;
}

static int config_apply_override(struct config_loader *ld, const char *arg)
{
    char key[320], problem[CONFIG_PROBLEM_LEN];
    const char *eq = strchr(arg, '=');
    if (!eq || config_override_key(arg, eq, key, sizeof key) != 0) {
        snprintf(ld->err, CONFIG_ERROR_LEN,
                 "--set %.200s: expected KEY=VALUE with KEY like traffic.load", arg);
        return -1;
    }
    struct setting_ref r, also = {0};
    int rc = -1;
    if (settings_find_in(ld->cfg, key, &r) == 0)
        rc = config_override_value(ld, &r, eq + 1, &also, problem, sizeof problem);
    else if (!config_unknown_element(ld->cfg, key, problem, sizeof problem))
        config_unknown_setting(key, problem, sizeof problem);
    if (rc == 0)
        config_remember(ld, &r, (struct config_origin){0, NULL, 0, arg, false});
    if (rc == 0 && also.row)
        config_remember(ld, &also, (struct config_origin){0, NULL, 0, arg, false});
    if (rc != 0)
        snprintf(ld->err, CONFIG_ERROR_LEN, "--set %.200s: %s", arg, problem);
    return rc;
}

/* ---- defaults and validation ---- */

static void config_fill_defaults(struct sim_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->name, sizeof cfg->name, "default");
    settings_fill_defaults(cfg);
}

/* vcs.local/global = 0 become what the chosen routing needs (settings_needs). */
static void config_resolve_vcs(struct sim_config *cfg)
{
    struct setting_needs needs;
    struct setting_ref chooser;
    if (settings_needs(cfg, &needs, &chooser) != 0)
        return;
    if (cfg->vcs.local == 0)
        cfg->vcs.local = needs.local_vcs;
    if (cfg->vcs.global == 0)
        cfg->vcs.global = needs.global_vcs;
}

void config_set_defaults(struct sim_config *cfg)
{
    config_fill_defaults(cfg);
    config_resolve_vcs(cfg);
}

/* "LIST[i].KEY", the name a check gives an element without a usable name: 0 with the
 * setting, or -1. */
static int config_find_indexed(const char *key, struct setting_ref *out)
{
    size_t head = strcspn(key, "[");
    char list_name[64], inner[64];
    int index, used = 0;
    if (head >= sizeof list_name || key[head] != '[')
        return -1;
    snprintf(list_name, sizeof list_name, "%.*s", (int)head, key);
    const struct settings_list *list = settings_list_named(list_name);
    if (!list || sscanf(key + head, "[%d].%63[a-z_]%n", &index, inner, &used) != 2 ||
        key[head + (size_t)used] != '\0' || index < 0 || index >= list->max)
        return -1;
    return settings_find_element(list, index, inner, out);
}

/* The place a setting was written, or NULL. */
static const struct config_origin *config_origin_of(const struct sim_config *cfg,
                                                    const struct config_origin *origin,
                                                    int n_origins, const char *key)
{
    struct setting_ref r;
    if (!key || (settings_find_in(cfg, key, &r) && config_find_indexed(key, &r)))
        return NULL;
    for (int i = 0; i < n_origins; i++)
        if (origin[i].offset == r.offset)
            return &origin[i];
    return NULL;
}

/* Reports a problem of setting `key`, located where `key` (or else `alt`) was set. */
/* For "LIST.NAME.KEY" where KEY was not written (a job lacking a motif): where the element
 * was, by the origin of its name. */
static const struct config_origin *config_element_origin(const struct sim_config *cfg,
                                                         const struct config_origin *origin,
                                                         int n_origins, const char *key)
{
    const char *dot = strchr(key, '.'), *last = strrchr(key, '.');
    const struct settings_list *list = NULL;
    if (dot && last > dot && (size_t)(dot - key) < 32) {
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(dot - key), key);
        list = settings_list_named(name);
    }
    if (!list)
        return NULL;
    char name_key[256];
    snprintf(name_key, sizeof name_key, "%.*s.%s", (int)(last - key), key, list->name_key);
    return config_origin_of(cfg, origin, n_origins, name_key);
}

static int config_report(const struct sim_config *cfg, const struct config_origin *origin,
                         int n_origins, const char *key, const char *alt, char *err,
                         const char *fmt, ...)
{
    const struct config_origin *o = config_origin_of(cfg, origin, n_origins, key);
    if (!o)
        o = config_origin_of(cfg, origin, n_origins, alt);
    if (!o)
        o = config_element_origin(cfg, origin, n_origins, key);
    char where[360];
    if (o && o->set)
        snprintf(where, sizeof where, "--set %.300s", o->set);
    else if (o)
        snprintf(where, sizeof where, "%.300s:%d", o->file, o->line);
    else
        snprintf(where, sizeof where, "%.300s", cfg->path[0] ? cfg->path : "defaults");
    char problem[CONFIG_PROBLEM_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    snprintf(err, CONFIG_ERROR_LEN, "%.300s: %.100s: %.600s", where, key, problem);
    return -1;
}

/* What the checks below see: the config and where its settings were written. */
struct config_checker {
    const struct sim_config *cfg;
    const struct config_origin *origin;
    int n_origins;
    char *err;
};

/* A value stored in the config, as libconfig would have read it. */
static void config_value_stored(const struct sim_config *cfg, const struct setting_ref *r,
                                struct config_value *v)
{
    const char *field = (const char *)settings_value(cfg, r);
    memset(v, 0, sizeof *v);
    v->type = CONFIG_TYPE_INT64;
    switch (r->row->type) {
    case SETTING_INT:
    case SETTING_CHOICE:
        v->i = *(const int *)field;
        break;
    case SETTING_INT64:
        v->i = *(const int64_t *)field;
        break;
    case SETTING_DOUBLE:
        v->type = CONFIG_TYPE_FLOAT;
        v->f = *(const double *)field;
        break;
    case SETTING_BOOL:
        v->type = CONFIG_TYPE_BOOL;
        v->b = *(const bool *)field;
        break;
    case SETTING_STRING:
        v->type = CONFIG_TYPE_STRING;
        v->s = memchr(field, '\0', SETTING_STRING_LEN) ? field : "(unterminated)";
        break;
    case SETTING_INT_LIST:
        break;
    }
}

/* One setting within its own range (configs filled by hand may not be). */
static int config_check_row(void *ctx, const struct setting_ref *r)
{
    struct config_checker *c = ctx;
    char problem[CONFIG_PROBLEM_LEN];
    struct config_target t;
    config_target_of(c->cfg, r, &t);
    const char *key = t.key;
    if (r->row->type == SETTING_CHOICE) {
        int index = *(const int *)settings_value(c->cfg, r), n = 0;
        for (const char *const *names = settings_choices(r->row); names[n]; n++)
            ;
        if (index >= 0 && index < n)
            return 0;
        char list[256];
        settings_names_text(r->row, list, sizeof list);
        return config_report(c->cfg, c->origin, c->n_origins, key, key, c->err,
                             "value %d is not one of the %d names (expected one of: %s)", index, n,
                             list);
    }
    if (r->row->type == SETTING_INT_LIST) {
        const struct setting_int_list *l = settings_value(c->cfg, r);
        for (int i = 0; i < l->count && i < SETTING_LIST_MAX; i++)
            if (config_check_int(&t, l->values[i], problem, sizeof problem))
                return config_report(c->cfg, c->origin, c->n_origins, key, key, c->err, "%s",
                                     problem + strlen(key) + 2);
        if (l->count >= 0 && l->count <= SETTING_LIST_MAX)
            return 0;
        return config_report(c->cfg, c->origin, c->n_origins, key, key, c->err,
                             "%d elements (expected 0 to %d)", l->count, SETTING_LIST_MAX);
    }
    struct config_value v;
    union setting_value scratch;
    config_value_stored(c->cfg, r, &v);
    if (config_store_at(&t, &v, (char *)&scratch, problem, sizeof problem) == 0)
        return 0;
    /* the problem starts with the key already */
    return config_report(c->cfg, c->origin, c->n_origins, key, key, c->err, "%s",
                         problem + strlen(key) + 2);
}

/* The checks that tables declare (a topology's radix, a pattern's parameters, ...). */
static int config_check_table(void *ctx, const struct setting_ref *r)
{
    struct config_checker *c = ctx;
    if (r->row != &r->table->rows[0] || !r->table->check)
        return 0; /* once per table */
    struct setting_issue issue = {0};
    const void *params = r->list ? (const char *)c->cfg + r->list->offset +
                                       (size_t)r->element * r->list->element_size
                                 : settings_params(c->cfg, r->table);
    if (r->table->check(c->cfg, params, &issue) == 0)
        return 0;
    return config_report(c->cfg, c->origin, c->n_origins, issue.key, issue.alt, c->err, "%s",
                         issue.text);
}

static int config_check_buffers(const struct config_checker *c)
{
    const struct sim_config *cfg = c->cfg;
    static const char *const keys[] = {"buffers.local", "buffers.global", "buffers.injection",
                                       "buffers.output"};
    const int sizes[] = {cfg->buffers.local, cfg->buffers.global, cfg->buffers.injection,
                         cfg->buffers.output};
    for (int i = 0; i < 4; i++)
        if (sizes[i] < cfg->traffic.packet_size)
            return config_report(cfg, c->origin, c->n_origins, keys[i], "traffic.packet_size",
                                 c->err,
                                 "%d phits cannot hold one packet of traffic.packet_size = %d "
                                 "phits (expected %s >= traffic.packet_size)",
                                 sizes[i], cfg->traffic.packet_size, keys[i]);
    return 0;
}

static int config_check_vcs(const struct config_checker *c)
{
    const struct sim_config *cfg = c->cfg;
    struct setting_needs needs;
    struct setting_ref chooser;
    if (settings_needs(cfg, &needs, &chooser) != 0)
        return 0;
    char by[96];
    settings_full_name(&chooser, by, sizeof by);
    const char *group = chooser.group->name;
    if (cfg->vcs.local < needs.local_vcs)
        return config_report(cfg, c->origin, c->n_origins, "vcs.local", by, c->err,
                             "%s '%s' needs at least %d local VCs (got %d)", group, needs.who,
                             needs.local_vcs, cfg->vcs.local);
    if (cfg->vcs.global < needs.global_vcs)
        return config_report(cfg, c->origin, c->n_origins, "vcs.global", by, c->err,
                             "%s '%s' needs at least %d global VCs (got %d)", group, needs.who,
                             needs.global_vcs, cfg->vcs.global);
    return 0;
}

/* In a healthy network nothing moves for at most a router pipeline plus two packet times
 * while no event is pending; a shorter watchdog would report deadlocks that are not. */
static int config_check_watchdog(const struct config_checker *c)
{
    const struct sim_config *cfg = c->cfg;
    double bandwidth[3];
    config_link_bandwidths(cfg, bandwidth);
    long long slowest = 0; /* cycles a packet takes on the slowest link */
    for (int i = 0; i < 3; i++) {
        struct link_rate rate;
        if (link_rate_from_bandwidth(bandwidth[i], &rate) == 0 &&
            link_rate_cycles(rate, (uint32_t)cfg->traffic.packet_size) > slowest)
            slowest = link_rate_cycles(rate, (uint32_t)cfg->traffic.packet_size);
    }
    long long minimum = (long long)cfg->router.latency + 2LL * slowest + 1;
    if (cfg->sim.deadlock_cycles >= minimum)
        return 0;
    return config_report(cfg, c->origin, c->n_origins, "sim.deadlock_cycles", "router.latency",
                         c->err,
                         "%lld cycles is shorter than a healthy pause (expected at least "
                         "router.latency + 2 * the cycles of a packet on the slowest link + 1 = "
                         "%lld)",
                         (long long)cfg->sim.deadlock_cycles, minimum);
}

struct config_unread_walk {
    size_t offset; /* of the setting written, in struct sim_config */
    struct setting_ref ref;
};

static int config_unread_match(void *ctx, const struct setting_ref *r)
{
    struct config_unread_walk *w = ctx;
    if (r->offset != w->offset)
        return 0;
    w->ref = *r;
    return 1;
}

/* A setting written for a list element that does not read it (a motif's dims on a job that
 * runs alltoall) is an error: a typo or a misunderstanding either way. */
static int config_check_unread(const struct config_checker *c)
{
    char why[512], key[192];
    for (int i = 0; i < c->n_origins; i++) {
        if (c->origin[i].echo)
            continue; /* a result document echoes every setting of every job */
        for (int l = 0; settings_lists[l]; l++) {
            const struct settings_list *list = settings_lists[l];
            size_t offset = c->origin[i].offset;
            if (!list->reads || offset < list->offset ||
                offset >= list->offset + (size_t)list->max * list->element_size)
                continue;
            int element = (int)((offset - list->offset) / list->element_size);
            const char *base =
                (const char *)c->cfg + list->offset + (size_t)element * list->element_size;
            struct config_unread_walk w = {.offset = offset};
            if (!settings_each_in_element(list, element, config_unread_match, &w) ||
                list->reads(base, w.ref.row->name, why, sizeof why))
                continue;
            settings_full_name_in(c->cfg, &w.ref, key, sizeof key);
            return config_report(c->cfg, c->origin, c->n_origins, key, key, c->err,
                                 "this job does not read it (expected only what it reads: %s)",
                                 why);
        }
    }
    return 0;
}

/* The checks a list declares across its elements (jobs: unique names, placements, motifs). */
static int config_check_lists(const struct config_checker *c)
{
    for (int l = 0; settings_lists[l]; l++) {
        struct setting_issue issue = {0};
        if (settings_lists[l]->check && settings_lists[l]->check(c->cfg, &issue) != 0)
            return config_report(c->cfg, c->origin, c->n_origins, issue.key, issue.alt, c->err,
                                 "%s", issue.text);
    }
    return 0;
}

static int config_check(const struct sim_config *cfg, const struct config_origin *origin,
                        int n_origins, char *err)
{
    struct config_checker c = {cfg, origin, n_origins, err};
    err[0] = '\0';
    if (settings_each_in(cfg, config_check_row, &c) || config_check_buffers(&c) ||
        settings_each_in(cfg, config_check_table, &c) || config_check_vcs(&c) ||
        config_check_watchdog(&c) || config_check_unread(&c) || config_check_lists(&c))
        return -1;
    return 0;
}

int config_validate(const struct sim_config *cfg, char err[CONFIG_ERROR_LEN])
{
    int rc = config_check(cfg, NULL, 0, err);
    text_one_line(err, CONFIG_ERROR_LEN);
    return rc;
}

/* The origin of the setting at offset forgotten: it holds no written value any more. */
static void config_forget(struct config_loader *ld, size_t offset)
{
    for (int i = 0; i < ld->n_origins; i++)
        if (ld->origin[i].offset == offset) {
            ld->origin[i] = ld->origin[--ld->n_origins];
            return;
        }
}

/* A result document echoes vcs.local and vcs.global resolved: a count that is what its
 * routing's ladder needs reads as 0 (what the routing needs), so that a rerun with another
 * routing (--set routing.mechanism=...) gets that routing's needs, not the old one's. */
static void config_document_vcs(struct config_loader *ld)
{
    struct sim_config *cfg = ld->cfg;
    struct setting_needs needs;
    struct setting_ref chooser;
    if (settings_needs(cfg, &needs, &chooser) != 0)
        return;
    if (cfg->vcs.local == needs.local_vcs) {
        cfg->vcs.local = 0;
        config_forget(ld, offsetof(struct sim_config, vcs.local));
    }
    if (cfg->vcs.global == needs.global_vcs) {
        cfg->vcs.global = 0;
        config_forget(ld, offsetof(struct sim_config, vcs.global));
    }
}

/* ---- where values came from ---- */

/* A value as a config writes it, a number in its shortest exact form (0.2, not 17 digits). */
static void config_format_short(const struct sim_config *cfg, const struct setting_ref *r,
                                char *buf, size_t len)
{
    settings_format(cfg, r, true, buf, len);
    if (r->row->type != SETTING_DOUBLE)
        return;
    double value = *(const double *)settings_value(cfg, r);
    char shorter[32];
    snprintf(shorter, sizeof shorter, "%.15g", value);
    if (strtod(shorter, NULL) == value)
        snprintf(buf, len, "%s", shorter);
}

struct config_listing {
    const struct config_loader *ld;
    struct config_sources *sources;
};

static int config_list_source(void *ctx, const struct setting_ref *r)
{
    struct config_listing *l = ctx;
    const struct config_origin *o = NULL;
    for (int i = 0; i < l->ld->n_origins && !o; i++)
        if (l->ld->origin[i].offset == r->offset)
            o = &l->ld->origin[i];
    if (!o)
        return 0;
    struct config_source *item = &l->sources->items[l->sources->count];
    settings_full_name_in(l->ld->cfg, r, item->key, sizeof item->key);
    char value[SETTING_LIST_MAX * 13 + 16];
    config_format_short(l->ld->cfg, r, value, sizeof value);
    size_t where_len = (o->set ? strlen(o->set) : strlen(o->file)) + 16;
    item->value = strdup(value);
    item->where = malloc(where_len);
    if (!item->value || !item->where) {
        free(item->value);
        free(item->where);
        return -1;
    }
    if (o->set)
        snprintf(item->where, where_len, "--set %s", o->set);
    else
        snprintf(item->where, where_len, "%s:%d", o->file, o->line);
    l->sources->count++;
    return 0;
}

/* The written settings, in the schema's order, with where each was written. */
static int config_list_sources(const struct config_loader *ld, struct config_sources *sources)
{
    sources->items = calloc((size_t)ld->n_origins + 1, sizeof *sources->items);
    struct config_listing l = {ld, sources};
    if (sources->items && settings_each_in(ld->cfg, config_list_source, &l) == 0)
        return 0;
    snprintf(ld->err, CONFIG_ERROR_LEN, "out of memory");
    config_sources_free(sources);
    return -1;
}

void config_sources_free(struct config_sources *sources)
{
    for (int i = 0; sources->items && i < sources->count; i++) {
        free(sources->items[i].value);
        free(sources->items[i].where);
    }
    free(sources->items);
    memset(sources, 0, sizeof *sources);
}

/* ---- settings not in force ---- */

static const struct config_origin *config_origin_at(const struct config_loader *ld, size_t offset)
{
    for (int i = 0; i < ld->n_origins; i++)
        if (ld->origin[i].offset == offset)
            return &ld->origin[i];
    return NULL;
}

static void config_where(const struct config_origin *o, char *buf, size_t len)
{
    if (o->set)
        snprintf(buf, len, "--set %.300s", o->set);
    else
        snprintf(buf, len, "%.300s:%d", o->file, o->line);
}

/* Appends "KIND: TEXT" (kind "warning" or "note") unless already there. */
static void config_warn(struct config_loader *ld, const char *kind, const char *text)
{
    struct config_warnings *w = ld->warnings;
    if (!w)
        return;
    char line[1200];
    snprintf(line, sizeof line, "%s: %.1000s", kind, text);
    for (int i = 0; i < w->count; i++)
        if (strcmp(w->lines[i], line) == 0)
            return;
    char **bigger = realloc(w->lines, (size_t)(w->count + 1) * sizeof *bigger);
    char *copy = strdup(line);
    if (bigger)
        w->lines = bigger;
    if (!bigger || !copy) {
        free(copy);
        return; /* out of memory: a warning lost, the run unchanged */
    }
    w->lines[w->count++] = copy;
}

/* A setting written that no chosen plug-in reads, with what chooses the plug-in. */
struct config_unread {
    struct setting_ref ref, chooser;
    const struct config_origin *origin, *chosen; /* chosen: NULL when left at its default */
    bool error;
};

struct config_unread_scan {
    struct config_loader *ld;
    struct config_unread items[64];
    int n;
};

/* The rule (conf/README.md): an error where the user cannot have meant it, else a warning.
 * Typed on the command line, a setting that changes nothing is a mistake. A topology kind's
 * settings are the network's shape (settings_group.plugins_shape_network): one of another kind
 * written (not at its default) in the file that chose the kind, or with no kind chosen at all,
 * describes another network than the one that would run. A routing mechanism's or a pattern's
 * settings written in a file are often a base's, spelled out for the variants that switch to them:
 * a warning. */
static bool config_unread_is_error(const struct config_loader *ld, const struct setting_ref *r,
                                   const struct config_origin *o,
                                   const struct config_origin *chosen)
{
    if (ld->lenient)
        return false; /* a sweep's point: its variants share a base */
    if (o->set)
        return true;
    if (!r->group->plugins_shape_network || settings_at_default(ld->cfg, r))
        return false;
    return !chosen || (!chosen->set && strcmp(o->file, chosen->file) == 0);
}

static int config_unread_setting(void *ctx, const struct setting_ref *r)
{
    struct config_unread_scan *scan = ctx;
    const struct config_origin *o = config_origin_at(scan->ld, r->offset);
    if (!o || o->echo || settings_in_force(scan->ld->cfg, r) || scan->n == 64)
        return 0;
    if (!o->set && settings_at_default(scan->ld->cfg, r))
        return 0; /* a file spelling out a default (a complete config; a sweep's base) */
    struct config_unread *u = &scan->items[scan->n];
    if (settings_chooser(r->group, &u->chooser) != 0)
        return 0;
    u->ref = *r;
    u->origin = o;
    u->chosen = config_origin_at(scan->ld, u->chooser.offset);
    u->error = config_unread_is_error(scan->ld, r, o, u->chosen);
    scan->n++;
    return 0;
}

/* "routing.mechanism \"ugal\"" */
static void config_chooser_text(const struct sim_config *cfg, const struct config_unread *u,
                                char *buf, size_t len)
{
    char name[96], value[128];
    settings_full_name(&u->chooser, name, sizeof name);
    settings_format(cfg, &u->chooser, true, value, sizeof value);
    snprintf(buf, len, "%s %s", name, value);
}

static int config_report_unread(struct config_loader *ld, const struct config_unread_scan *scan,
                                const struct config_unread *u)
{
    const struct sim_config *cfg = ld->cfg;
    char where[360], key[96], value[160], chooser[256], also[640] = "", chooser_key[96];
    settings_full_name(&u->chooser, chooser_key, sizeof chooser_key);
    config_where(u->origin, where, sizeof where);
    settings_full_name(&u->ref, key, sizeof key);
    config_format_short(cfg, &u->ref, value, sizeof value);
    config_chooser_text(cfg, u, chooser, sizeof chooser);
    /* The settings of the same group dropped from elsewhere (a base's shape): said too. */
    for (int i = 0; i < scan->n; i++) {
        const struct config_unread *v = &scan->items[i];
        if (v == u || v->error || v->ref.group != u->ref.group || v->origin->set ||
            (!u->origin->set && strcmp(v->origin->file, u->origin->file) == 0))
            continue;
        char vkey[96], vvalue[160], vwhere[360];
        settings_full_name(&v->ref, vkey, sizeof vkey);
        config_format_short(cfg, &v->ref, vvalue, sizeof vvalue);
        config_where(v->origin, vwhere, sizeof vwhere);
        config_append(also, sizeof also, ", nor is %s = %s from %s", vkey, vvalue, vwhere);
    }
    char text[2048];
    snprintf(text, sizeof text,
             "%.300s: %.90s: %.100s is not read by %.180s%.600s (expected a %.90s that reads it: "
             "%.100s; or no %.90s)",
             where, key, value, chooser, also, chooser_key, u->ref.table->owner, key);
    snprintf(ld->err, CONFIG_ERROR_LEN, "%.1023s", text);
    return -1;
}

/* A config without a topology group runs the default network: says which. */
static void config_note_topology(struct config_loader *ld)
{
    const struct settings_group *g = settings_group_named("topology");
    for (int i = 0; i < ld->n_origins; i++)
        if (ld->origin[i].echo || (ld->origin[i].offset >= g->offset &&
                                   ld->origin[i].offset < g->offset + sizeof ld->cfg->topology))
            return;
    char text[512] = "", kind[64] = "";
    struct setting_ref r;
    if (settings_chooser(g, &r) == 0)
        settings_format(ld->cfg, &r, false, kind, sizeof kind);
    config_append(text, sizeof text, "%s: no topology group: the default %s", ld->path, kind);
    for (int t = 0; g->tables[t]; t++)
        for (int k = 0; k < g->tables[t]->count; k++) {
            const struct setting *row = &g->tables[t]->rows[k];
            if (row->type != SETTING_INT || settings_find("topology", row->name, &r) != 0)
                continue;
            config_append(text, sizeof text, " %s=%d", row->name,
                          *(const int *)settings_value(ld->cfg, &r));
        }
    for (const struct setting_plugins *p = g->plugins; p && p->count; p++)
        for (int i = 0; i < p->count(); i++) {
            const struct setting_table *t = p->table(i);
            if (!t || !p->reads(ld->cfg, t))
                continue;
            for (int k = 0; k < t->count; k++)
                if (t->rows[k].type == SETTING_INT &&
                    settings_find("topology", t->rows[k].name, &r) == 0)
                    config_append(text, sizeof text, " %s=%d", t->rows[k].name,
                                  *(const int *)settings_value(ld->cfg, &r));
        }
    config_warn(ld, "note", text);
}

/* Settings written that the chosen plug-ins do not read: the first error, else warnings. */
static int config_check_in_force(struct config_loader *ld)
{
    struct config_unread_scan *scan = calloc(1, sizeof *scan);
    if (!scan) {
        snprintf(ld->err, CONFIG_ERROR_LEN, "out of memory");
        return -1;
    }
    scan->ld = ld;
    settings_each_in(ld->cfg, config_unread_setting, scan);
    int rc = 0;
    for (int i = 0; i < scan->n && rc == 0; i++)
        if (scan->items[i].error)
            rc = config_report_unread(ld, scan, &scan->items[i]);
    for (int i = 0; i < scan->n && rc == 0; i++) {
        const struct config_unread *u = &scan->items[i];
        char where[360], key[96], value[160], chooser[256], line[1024];
        config_where(u->origin, where, sizeof where);
        settings_full_name(&u->ref, key, sizeof key);
        config_format_short(ld->cfg, &u->ref, value, sizeof value);
        config_chooser_text(ld->cfg, u, chooser, sizeof chooser);
        snprintf(line, sizeof line, "%.300s: %.90s = %.150s: not read by %.200s (read by %.200s)",
                 where, key, value, chooser, u->ref.table->owner);
        config_warn(ld, "warning", line);
    }
    if (rc == 0 && ld->path && !ld->document)
        config_note_topology(ld);
    free(scan);
    return rc;
}

void config_warnings_free(struct config_warnings *w)
{
    for (int i = 0; w && i < w->count; i++)
        free(w->lines[i]);
    if (w) {
        free(w->lines);
        memset(w, 0, sizeof *w);
    }
}

/* ---- loading ---- */

/* The file, then the overrides, then the checks. */
static int config_load_all(struct config_loader *ld, const char *path, const char *const *overrides,
                           int n_overrides)
{
    int rc = path ? config_load_file(ld, path) : 0;
    if (rc == 0 && ld->document)
        config_document_vcs(ld);
    ld->reading = -1;
    for (int i = 0; rc == 0 && i < n_overrides; i++)
        rc = config_apply_override(ld, overrides[i]);
    if (rc == 0) {
        config_resolve_vcs(ld->cfg);
        rc = config_check(ld->cfg, ld->origin, ld->n_origins, ld->err);
    }
    if (rc == 0)
        rc = config_check_in_force(ld);
    return rc;
}

int config_load_sources(const char *path, const char *const *overrides, int n_overrides,
                        struct sim_config *cfg, struct config_sources *sources,
                        char err[CONFIG_ERROR_LEN])
{
    return config_load_warn(path, overrides, n_overrides, cfg, sources, false, NULL, err);
}

int config_load_warn(const char *path, const char *const *overrides, int n_overrides,
                     struct sim_config *cfg, struct config_sources *sources, bool lenient,
                     struct config_warnings *warnings, char err[CONFIG_ERROR_LEN])
{
    struct config_loader *ld = calloc(1, sizeof *ld);
    if (sources)
        memset(sources, 0, sizeof *sources);
    if (!ld) {
        snprintf(err, CONFIG_ERROR_LEN, "out of memory");
        return -1;
    }
    ld->cfg = cfg;
    ld->err = err;
    ld->lenient = lenient;
    ld->warnings = warnings;
    err[0] = '\0';
    config_fill_defaults(cfg);
    config_init(&ld->file);
    int rc = config_load_all(ld, path, overrides, n_overrides);
    if (rc == 0 && sources) {
        sources->document = ld->document;
        rc = config_list_sources(ld, sources);
    }
    config_destroy(&ld->file);
    config_include_free(&ld->expanded);
    free(ld->tops);
    free(ld);
    text_one_line(err, CONFIG_ERROR_LEN);
    return rc;
}

int config_load(const char *path, const char *const *overrides, int n_overrides,
                struct sim_config *cfg, char err[CONFIG_ERROR_LEN])
{
    return config_load_warn(path, overrides, n_overrides, cfg, NULL, true, NULL, err);
}
