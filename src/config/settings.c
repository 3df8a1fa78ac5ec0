/* settings: walking the schema that the core's and the plug-ins' tables make up, where each
 * setting lives in struct sim_config, defaults, and the text of a value. */
#include "settings.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_config.h"

/* ---- walking the schema ---- */

static size_t settings_align(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Calls fn for every table of group g in canonical order with the offset of its storage in
 * the group's struct; stops at the first non-zero return. */
static int settings_group_tables(const struct settings_group *g,
                                 int (*fn)(void *ctx, const struct setting_table *t, size_t offset),
                                 void *ctx)
{
    size_t arena = 0;
    int rc = 0;
    for (int i = 0; g->tables && g->tables[i] && !rc; i++) {
        const struct setting_table *t = g->tables[i];
        size_t offset = t->params_size ? g->arena_offset + arena : 0;
        arena += settings_align(t->params_size);
        rc = fn(ctx, t, offset);
    }
    for (const struct setting_plugins *p = g->plugins; p && p->count && !rc; p++)
        for (int i = 0, n = p->count(); i < n && !rc; i++) {
            const struct setting_table *t = p->table(i);
            if (!t)
                continue;
            size_t offset = t->params_size ? g->arena_offset + arena : 0;
            arena += settings_align(t->params_size);
            rc = fn(ctx, t, offset);
        }
    return rc;
}

struct settings_walk {
    const struct settings_group *group;
    int (*fn)(void *ctx, const struct setting_ref *ref);
    void *ctx;
};

static int settings_walk_table(void *ctx, const struct setting_table *t, size_t offset)
{
    struct settings_walk *w = ctx;
    for (int i = 0; i < t->count; i++) {
        struct setting_ref ref = {.group = w->group,
                                  .element = -1,
                                  .table = t,
                                  .row = &t->rows[i],
                                  .offset = w->group->offset + offset + t->rows[i].offset};
        int rc = w->fn(w->ctx, &ref);
        if (rc)
            return rc;
    }
    return 0;
}

static int settings_each_group(int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx)
{
    for (int g = 0; settings_groups[g]; g++) {
        struct settings_walk w = {settings_groups[g], fn, ctx};
        int rc = settings_group_tables(settings_groups[g], settings_walk_table, &w);
        if (rc)
            return rc;
    }
    return 0;
}

/* Calls fn for every table of list l in canonical order (its own tables, then its plug-ins'
 * in registry order) with the offset of its storage in the element: the element's struct, or
 * the table's slice of the element's arena. */
static int settings_list_tables(const struct settings_list *l,
                                int (*fn)(void *ctx, const struct setting_table *t, size_t offset),
                                void *ctx)
{
    size_t arena = 0;
    int rc = 0;
    for (int k = 0; l->tables[k] && !rc; k++) {
        const struct setting_table *t = l->tables[k];
        size_t offset = t->params_size ? l->arena_offset + arena : 0;
        arena += settings_align(t->params_size);
        rc = fn(ctx, t, offset);
    }
    for (const struct setting_plugins *p = l->plugins; p && p->count && !rc; p++)
        for (int i = 0, n = p->count(); i < n && !rc; i++) {
            const struct setting_table *t = p->table(i);
            if (!t)
                continue;
            size_t offset = t->params_size ? l->arena_offset + arena : 0;
            arena += settings_align(t->params_size);
            rc = fn(ctx, t, offset);
        }
    return rc;
}

struct settings_element_walk {
    const struct settings_list *list;
    int element;
    size_t base;
    int (*fn)(void *ctx, const struct setting_ref *ref);
    void *ctx;
};

static int settings_element_table(void *ctx, const struct setting_table *t, size_t offset)
{
    struct settings_element_walk *w = ctx;
    for (int r = 0; r < t->count; r++) {
        struct setting_ref ref = {.list = w->list,
                                  .element = w->element,
                                  .table = t,
                                  .row = &t->rows[r],
                                  .offset = w->base + offset + t->rows[r].offset};
        int rc = w->fn(w->ctx, &ref);
        if (rc)
            return rc;
    }
    return 0;
}

/* The settings of element i of a list (-1: the schema's, at element 0's offsets). */
static int settings_each_element(const struct settings_list *l, int i,
                                 int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx)
{
    struct settings_element_walk w = {l, i, l->offset + (size_t)(i < 0 ? 0 : i) * l->element_size,
                                      fn, ctx};
    return settings_list_tables(l, settings_element_table, &w);
}

int settings_each_in_element(const struct settings_list *list, int i,
                             int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx)
{
    return settings_each_element(list, i, fn, ctx);
}

struct settings_slice_lookup {
    const struct setting_table *t;
    size_t offset;
};

static int settings_match_slice(void *ctx, const struct setting_table *t, size_t offset)
{
    struct settings_slice_lookup *l = ctx;
    if (t != l->t)
        return 0;
    l->offset = offset;
    return 1;
}

const void *settings_element_params(const struct settings_list *list, const void *element,
                                    const struct setting_table *t)
{
    struct settings_slice_lookup l = {t, 0};
    if (!t || !settings_list_tables(list, settings_match_slice, &l))
        return NULL;
    return (const char *)element + l.offset;
}

int settings_each(int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx)
{
    int rc = settings_each_group(fn, ctx);
    for (int l = 0; settings_lists[l] && !rc; l++)
        rc = settings_each_element(settings_lists[l], -1, fn, ctx);
    return rc;
}

int settings_list_count(const struct sim_config *cfg, const struct settings_list *list)
{
    return *(const int *)((const char *)cfg + list->count_offset);
}

void *settings_element(struct sim_config *cfg, const struct settings_list *list, int i)
{
    return (char *)cfg + list->offset + (size_t)i * list->element_size;
}

int settings_each_in(const struct sim_config *cfg,
                     int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx)
{
    int rc = settings_each_group(fn, ctx);
    for (int l = 0; settings_lists[l] && !rc; l++)
        for (int i = 0; i < settings_list_count(cfg, settings_lists[l]) && !rc; i++)
            rc = settings_each_element(settings_lists[l], i, fn, ctx);
    return rc;
}

const struct settings_list *settings_list_named(const char *name)
{
    for (int l = 0; settings_lists[l]; l++)
        if (strcmp(settings_lists[l]->name, name) == 0)
            return settings_lists[l];
    return NULL;
}

struct settings_key_lookup {
    const char *key;
    struct setting_ref *out;
};

static int settings_match_key(void *ctx, const struct setting_ref *ref)
{
    struct settings_key_lookup *l = ctx;
    if (strcmp(ref->row->name, l->key) != 0)
        return 0;
    *l->out = *ref;
    return 1;
}

int settings_find_element(const struct settings_list *list, int i, const char *key,
                          struct setting_ref *out)
{
    struct settings_key_lookup l = {key, out};
    return settings_each_element(list, i, settings_match_key, &l) ? 0 : -1;
}

int settings_element_named(const struct sim_config *cfg, const struct settings_list *list,
                           const char *name)
{
    struct setting_ref r;
    if (settings_find_element(list, 0, list->name_key, &r) != 0)
        return -1;
    for (int i = 0; i < settings_list_count(cfg, list); i++) {
        const char *field =
            (const char *)cfg + list->offset + (size_t)i * list->element_size + r.row->offset;
        if (strcmp(field, name) == 0)
            return i;
    }
    return -1;
}

int settings_find_in(const struct sim_config *cfg, const char *full, struct setting_ref *out)
{
    const char *dot = strchr(full, '.');
    const char *last = strrchr(full, '.');
    if (!dot || dot == last || (size_t)(dot - full) >= 64)
        return settings_find_full(full, out);
    char name[64], element[SETTING_STRING_LEN];
    memcpy(name, full, (size_t)(dot - full));
    name[dot - full] = '\0';
    const struct settings_list *list = settings_list_named(name);
    if (!list || (size_t)(last - dot - 1) >= sizeof element)
        return settings_find_full(full, out);
    memcpy(element, dot + 1, (size_t)(last - dot - 1));
    element[last - dot - 1] = '\0';
    int i = settings_element_named(cfg, list, element);
    return i < 0 ? -1 : settings_find_element(list, i, last + 1, out);
}

struct settings_lookup {
    const char *group, *name;
    struct setting_ref *out;
};

static int settings_match(void *ctx, const struct setting_ref *ref)
{
    struct settings_lookup *l = ctx;
    if (!ref->group || strcmp(ref->group->name, l->group) != 0 ||
        strcmp(ref->row->name, l->name) != 0)
        return 0;
    *l->out = *ref;
    return 1;
}

int settings_find(const char *group, const char *name, struct setting_ref *out)
{
    struct settings_lookup l = {group, name, out};
    return settings_each(settings_match, &l) ? 0 : -1;
}

int settings_find_full(const char *full, struct setting_ref *out)
{
    const char *dot = strchr(full, '.');
    if (!dot || (size_t)(dot - full) >= 64)
        return -1;
    char group[64];
    memcpy(group, full, (size_t)(dot - full));
    group[dot - full] = '\0';
    return settings_find(group, dot + 1, out);
}

const struct settings_group *settings_group_named(const char *name)
{
    for (int g = 0; settings_groups[g]; g++)
        if (strcmp(settings_groups[g]->name, name) == 0)
            return settings_groups[g];
    return NULL;
}

bool settings_is_group(const char *name)
{
    return settings_group_named(name) != NULL;
}

struct settings_slice {
    const struct setting_table *table;
    size_t offset;
};

static int settings_match_table(void *ctx, const struct setting_table *t, size_t offset)
{
    struct settings_slice *s = ctx;
    if (t != s->table)
        return 0;
    s->offset = offset;
    return 1;
}

void *settings_params_mut(struct sim_config *cfg, const struct setting_table *table)
{
    if (!table)
        return NULL;
    const struct settings_group *g = settings_group_named(table->group);
    struct settings_slice s = {table, 0};
    if (!g || !settings_group_tables(g, settings_match_table, &s))
        return NULL;
    return (char *)cfg + g->offset + s.offset;
}

const void *settings_params(const struct sim_config *cfg, const struct setting_table *table)
{
    return settings_params_mut((struct sim_config *)cfg, table);
}

const char *const *settings_choices(const struct setting *row)
{
    return row->choices ? row->choices : row->names();
}

int settings_choice_index(const struct setting *row, const char *name)
{
    const char *const *names = settings_choices(row);
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* ---- the literature's names for values ---- */

const struct setting_alias setting_aliases[] = {
    /* traffic patterns */
    {"UN", "uniform", NULL, NULL},
    {"ADV", "adversarial", NULL, NULL},
    {"ADV+", "adversarial", "offset", NULL},
    {"ADVc", "adversarial_consecutive", NULL, NULL},
    /* routing mechanisms, alone and with their global misrouting policy */
    {"VAL", "valiant", NULL, NULL},
    {"VAL-any", "valiant", "valiant_target", "router"},
    {"Obl", "oblivious", NULL, NULL},
    {"Obl-CRG", "oblivious", "global_policy", "crg"},
    {"Obl-RRG", "oblivious", "global_policy", "rrg"},
    {"PB", "piggyback", NULL, NULL},
    {"PB-CRG", "piggyback", "global_policy", "crg"},
    {"PB-RRG", "piggyback", "global_policy", "rrg"},
    {"OLM", "in_transit", NULL, NULL},
    {"OLM-CRG", "in_transit", "global_policy", "crg"},
    {"OLM-RRG", "in_transit", "global_policy", "rrg"},
    {"OLM-NRG", "in_transit", "global_policy", "nrg"},
    {"OLM-MM", "in_transit", "global_policy", "mm"},
    {"IT", "in_transit", NULL, NULL},
    {"IT-CRG", "in_transit", "global_policy", "crg"},
    {"IT-RRG", "in_transit", "global_policy", "rrg"},
    {"IT-NRG", "in_transit", "global_policy", "nrg"},
    {"IT-MM", "in_transit", "global_policy", "mm"},
    {"UGAL-L", "ugal", NULL, NULL},
    {"UGAL-G", "ugal_g", NULL, NULL},
    /* arbiters */
    {"RR", "round_robin", NULL, NULL},
    /* topology kinds */
    {"Dragonfly+", "dragonfly_plus", NULL, NULL},
    {NULL, NULL, NULL, NULL},
};

/* A character as compared: case ignored, '-' and ' ' read as '_' ("In-Transit" = in_transit). */
static int settings_fold(char c)
{
    if (c == '-' || c == ' ')
        return '_';
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : (unsigned char)c;
}

/* The length of the prefix of s that equals t folded (t wholly), or 0. */
static size_t settings_folded_prefix(const char *s, const char *t)
{
    size_t n = 0;
    for (; t[n]; n++)
        if (!s[n] || settings_fold(s[n]) != settings_fold(t[n]))
            return 0;
    return n;
}

static bool settings_folded_equal(const char *s, const char *t)
{
    size_t n = settings_folded_prefix(s, t);
    return (n > 0 || !t[0]) && s[n] == '\0';
}

/* Whether `name` is alias a, with the number written after an alias that takes one. */
static bool settings_alias_matches(const struct setting_alias *a, const char *name, long *number)
{
    size_t n = strlen(a->alias);
    if (!a->also || a->also_value)
        return settings_folded_equal(name, a->alias);
    if (settings_folded_prefix(name, a->alias) != n)
        return false;
    const char *digits = name + n;
    size_t count = strspn(digits, "0123456789");
    if (count == 0 || count > 9 || digits[count] != '\0')
        return false;
    *number = strtol(digits, NULL, 10);
    return true;
}

int settings_choice_lookup(const struct setting *row, const char *name,
                           struct setting_choice_match *match)
{
    match->index = settings_choice_index(row, name);
    match->alias = NULL;
    match->number = 0;
    const char *const *names = settings_choices(row);
    for (int i = 0; names[i] && match->index < 0; i++)
        if (settings_folded_equal(name, names[i]))
            match->index = i;
    for (const struct setting_alias *a = setting_aliases; a->alias && match->index < 0; a++)
        if (settings_alias_matches(a, name, &match->number)) {
            match->index = settings_choice_index(row, a->value);
            match->alias = match->index >= 0 ? a : NULL;
        }
    return match->index;
}

void settings_aliases_text(const struct setting *row, bool with_also, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const struct setting_alias *a = setting_aliases; a->alias && used < len; a++) {
        if (settings_choice_index(row, a->value) < 0 || (a->also && !with_also))
            continue;
        bool number = a->also && !a->also_value;
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s", used ? ", " : "", a->alias,
                                 number ? "i" : "");
    }
}

/* ---- defaults ---- */

static void settings_store_default(char *field, const struct setting *row)
{
    switch (row->type) {
    case SETTING_INT:
        *(int *)field = (int)row->def;
        break;
    case SETTING_INT64:
        *(int64_t *)field = (int64_t)row->def;
        break;
    case SETTING_DOUBLE:
        *(double *)field = row->def;
        break;
    case SETTING_BOOL:
        *(bool *)field = row->def != 0;
        break;
    case SETTING_CHOICE:
        *(int *)field = settings_choice_index(row, row->def_text);
        break;
    case SETTING_STRING:
        snprintf(field, SETTING_STRING_LEN, "%s", row->def_text ? row->def_text : "");
        break;
    case SETTING_INT_LIST:
        ((struct setting_int_list *)field)->count = 0;
        break;
    }
}

void settings_table_defaults(const struct setting_table *t, void *storage)
{
    for (int r = 0; t && r < t->count; r++)
        settings_store_default((char *)storage + t->rows[r].offset, &t->rows[r]);
}

static int settings_default_one(void *ctx, const struct setting_ref *ref)
{
    settings_store_default((char *)ctx + ref->offset, ref->row);
    return 0;
}

void settings_fill_defaults(struct sim_config *cfg)
{
    settings_each_group(settings_default_one, cfg); /* lists start empty */
}

void settings_fill_element(struct sim_config *cfg, const struct settings_list *list, int i)
{
    memset(settings_element(cfg, list, i), 0, list->element_size);
    settings_each_element(list, i, settings_default_one, cfg);
}

/* ---- text ---- */

bool settings_choice_is_bool(const struct setting *row, int index)
{
    if (row->type != SETTING_CHOICE || index < 0)
        return false;
    const char *name = settings_choices(row)[index];
    return strcmp(name, "true") == 0 || strcmp(name, "false") == 0;
}

static void settings_format_field(const struct setting *row, const char *field, bool quote,
                                  char *buf, size_t len)
{
    const char *q = quote ? "\"" : "";
    switch (row->type) {
    case SETTING_INT:
        snprintf(buf, len, "%d", *(const int *)field);
        break;
    case SETTING_INT64:
        snprintf(buf, len, "%" PRId64, *(const int64_t *)field);
        break;
    case SETTING_DOUBLE:
        snprintf(buf, len, "%.17g", *(const double *)field);
        break;
    case SETTING_BOOL:
        snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
        break;
    case SETTING_CHOICE: {
        int i = *(const int *)field;
        if (settings_choice_is_bool(row, i)) /* written as a boolean, as the file may */
            q = "";
        snprintf(buf, len, "%s%s%s", q, i >= 0 ? settings_choices(row)[i] : "?", q);
        break;
    }
    case SETTING_STRING:
        snprintf(buf, len, "%s%.*s%s", q, SETTING_STRING_LEN, field, q);
        break;
    case SETTING_INT_LIST: {
        const struct setting_int_list *l = (const struct setting_int_list *)field;
        size_t used = (size_t)snprintf(buf, len, "[");
        for (int i = 0; i < l->count && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? ", " : "", l->values[i]);
        if (used < len)
            snprintf(buf + used, len - used, "]");
        break;
    }
    }
}

void settings_format(const struct sim_config *cfg, const struct setting_ref *r, bool quote,
                     char *buf, size_t len)
{
    settings_format_field(r->row, settings_value(cfg, r), quote, buf, len);
}

bool settings_quiet(const struct sim_config *cfg, const struct setting_ref *r)
{
    if (!r->row->quiet_default)
        return false;
    char value[SETTING_STRING_LEN + 2], def[SETTING_STRING_LEN + 2];
    settings_format(cfg, r, true, value, sizeof value);
    settings_format_default(r->row, def, sizeof def);
    return strcmp(value, def) == 0;
}

bool settings_at_default(const struct sim_config *cfg, const struct setting_ref *r)
{
    union setting_value def;
    /* Both sides printed the same way: %.17g for doubles, names for choices (not indexes,
     * which move when a registry grows). */
    char value[SETTING_LIST_MAX * 12 + 8], text[SETTING_LIST_MAX * 12 + 8];
    memset(&def, 0, sizeof def);
    settings_store_default((char *)&def, r->row);
    settings_format(cfg, r, true, value, sizeof value);
    settings_format_field(r->row, (const char *)&def, true, text, sizeof text);
    return strcmp(value, text) == 0;
}

void settings_format_default(const struct setting *row, char *buf, size_t len)
{
    /* Room for any type: a list default is empty. */
    union setting_value value;
    memset(&value, 0, sizeof value);
    settings_store_default((char *)&value, row);
    if (row->type == SETTING_DOUBLE) /* as written in a file: 0.4, not its 17 digits */
        snprintf(buf, len, "%.15g", value.d);
    else
        settings_format_field(row, (const char *)&value, true, buf, len);
}

void settings_full_name(const struct setting_ref *r, char *buf, size_t len)
{
    if (r->list && r->element >= 0)
        snprintf(buf, len, "%s[%d].%s", r->list->name, r->element, r->row->name);
    else if (r->list)
        snprintf(buf, len, "%s[].%s", r->list->name, r->row->name);
    else
        snprintf(buf, len, "%s.%s", r->group->name, r->row->name);
}

void settings_full_name_in(const struct sim_config *cfg, const struct setting_ref *r, char *buf,
                           size_t len)
{
    struct setting_ref name;
    if (!r->list || r->element < 0 ||
        settings_find_element(r->list, r->element, r->list->name_key, &name) != 0 ||
        !((const char *)cfg + name.offset)[0]) {
        settings_full_name(r, buf, len);
        return;
    }
    snprintf(buf, len, "%s.%s.%s", r->list->name, (const char *)cfg + name.offset, r->row->name);
}

void settings_names_text(const struct setting *row, char *buf, size_t len)
{
    const char *const *names = settings_choices(row);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; names[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
}

/* ---- the settings reference table (conf/SETTINGS.md) ---- */

struct settings_text {
    char *buf;
    size_t len, used;
    bool failed;
};

static void settings_append(struct settings_text *t, const char *text)
{
    size_t n = strlen(text);
    if (t->failed)
        return;
    if (t->used + n + 1 > t->len) {
        size_t len = (t->len ? t->len * 2 : 4096) + n;
        char *bigger = realloc(t->buf, len);
        if (!bigger) {
            t->failed = true;
            return;
        }
        t->buf = bigger;
        t->len = len;
    }
    memcpy(t->buf + t->used, text, n + 1);
    t->used += n;
}

/* What a value may be, for the table: "min, valiant, ..." or a range. */
void settings_allowed_text(const struct setting *row, char *buf, size_t len)
{
    switch (row->type) {
    case SETTING_CHOICE:
        settings_names_text(row, buf, len);
        break;
    case SETTING_INT:
    case SETTING_INT64:
    case SETTING_INT_LIST:
        if (row->max >= SETTING_UNBOUNDED_INT)
            snprintf(buf, len, ">= %.0f", row->min);
        else
            snprintf(buf, len, "%.0f .. %.0f", row->min, row->max);
        break;
    case SETTING_DOUBLE:
        snprintf(buf, len, "%g .. %g", row->min, row->max);
        break;
    case SETTING_BOOL:
        snprintf(buf, len, "true, false");
        break;
    case SETTING_STRING:
        snprintf(buf, len, "text");
        break;
    }
}

static int settings_markdown_row(void *ctx, const struct setting_ref *ref)
{
    char def[SETTING_STRING_LEN + 8], allowed[512], line[2048];
    settings_format_default(ref->row, def, sizeof def);
    settings_allowed_text(ref->row, allowed, sizeof allowed);
    if (ref->row->type == SETTING_CHOICE) {
        char aliases[160];
        settings_aliases_text(ref->row, true, aliases, sizeof aliases);
        size_t used = strlen(allowed);
        if (aliases[0] && used < sizeof allowed)
            snprintf(allowed + used, sizeof allowed - used, "; shorthand: %s", aliases);
    }
    char name[160];
    settings_full_name(ref, name, sizeof name);
    snprintf(line, sizeof line, "| `%s` | `%s` | %s | %s | %s |\n", name, def, allowed,
             ref->table->owner ? ref->table->owner : "all", ref->row->doc);
    settings_append(ctx, line);
    return 0;
}

char *settings_markdown(void)
{
    struct settings_text t = {0};
    settings_append(&t, "| setting | default | allowed | read by | meaning |\n"
                        "|---|---|---|---|---|\n");
    settings_each(settings_markdown_row, &t);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}

/* ---- settings in force ---- */

bool settings_in_force(const struct sim_config *cfg, const struct setting_ref *r)
{
    if (r->list || !r->group || !r->table->owner)
        return true;
    for (const struct setting_plugins *p = r->group->plugins; p && p->count; p++)
        if (p->reads && p->reads(cfg, r->table))
            return true;
    return false;
}

int settings_chooser(const struct settings_group *g, struct setting_ref *out)
{
    for (int i = 0; g->plugins && g->tables && g->tables[i]; i++)
        for (int k = 0; k < g->tables[i]->count; k++)
            if (g->tables[i]->rows[k].names && !g->tables[i]->owner)
                return settings_find(g->name, g->tables[i]->rows[k].name, out);
    return -1;
}

int settings_needs(const struct sim_config *cfg, struct setting_needs *out,
                   struct setting_ref *chooser)
{
    for (int g = 0; settings_groups[g]; g++)
        for (const struct setting_plugins *p = settings_groups[g]->plugins; p && p->count; p++)
            if (p->needs) {
                memset(out, 0, sizeof *out);
                if (p->needs(cfg, out) != 0 || settings_chooser(settings_groups[g], chooser) != 0)
                    return -1;
                return 0;
            }
    return -1;
}
