/* settings: what a setting is (name, type, default, range, one-line doc), declared as a table
 * next to the code that reads it, and the schema that collects those tables into the groups
 * of a config file. The core declares its own groups' settings; a plug-in (a topology kind, a
 * routing mechanism, a traffic pattern) points to its table from its ops, so adding it to its
 * registry adds its settings. config.c reads files and --set overrides through this schema;
 * the result document, sweep hashes and the README's settings table are generated from it. */
#ifndef DFSIM_SETTINGS_H
#define DFSIM_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_config.h"

enum setting_type {
    SETTING_INT,
    SETTING_INT64,
    SETTING_DOUBLE,
    SETTING_BOOL,
    SETTING_CHOICE,  /* one of the names of `choices` or `names()`, stored as its index (int);
                      * a registry's plug-ins are chosen this way (routing_registry[index]).
                      * A choice offering "true" and "false" (with "auto") takes them as
                      * booleans too, and writes them as booleans. */
    SETTING_STRING,  /* free text: char[SETTING_STRING_LEN] */
    SETTING_INT_LIST /* [a, b, ...]: struct setting_int_list */
};

/* Room for one setting's value, whatever its type (a scratch copy, a default). */
union setting_value {
    int i;
    int64_t i64;
    double d;
    bool b;
    char s[SETTING_STRING_LEN];
    struct setting_int_list l;
};

struct setting {
    const char *name;
    enum setting_type type;
    size_t offset;                     /* of the value in its table's storage */
    double def;                        /* default of numeric and bool settings */
    const char *def_text;              /* default of CHOICE and STRING settings */
    double min, max;                   /* range of numbers (of each element of an INT_LIST) */
    const char *const *choices;        /* CHOICE: the allowed names, NULL-terminated ... */
    const char *const *(*names)(void); /* ... or a registry's names */
    const char *doc;                   /* one line for the README */
    bool is_path; /* STRING: a file, absolute or relative to the folder of the config file it
                     is written in (one written in an included file is stored made absolute) */
    /* Left out of the document's config echo and of the sweep hash while at its default: a
     * setting added after documents and sweeps exist that leaves their runs unchanged. */
    bool quiet_default;
    /* Optional, for a path: a digest of what the file holds (value as stored), so that the sweep
     * hash of a config that sets it changes when the file is edited in place. 0, or -1 when it
     * cannot be read. */
    int (*digest)(const struct sim_config *cfg, const char *value, uint64_t *out);
};

#define SETTING_UNBOUNDED_INT 2147483647.0
#define SETTING_UNBOUNDED_INT64 9223372036854775807.0

/* Rows of a table whose storage is STRUCT. */
#define SETTING_NUMBER(STRUCT, TYPE, NAME, FIELD, DEF, LO, HI, DOC)                                \
    {                                                                                              \
        .name = NAME, .type = TYPE, .offset = offsetof(STRUCT, FIELD), .def = DEF, .min = LO,      \
        .max = HI, .doc = DOC                                                                      \
    }
#define SETTING_INT_ROW(STRUCT, NAME, FIELD, DEF, LO, HI, DOC)                                     \
    SETTING_NUMBER(STRUCT, SETTING_INT, NAME, FIELD, DEF, LO, HI, DOC)
#define SETTING_BOOL_ROW(STRUCT, NAME, FIELD, DEF, DOC)                                            \
    SETTING_NUMBER(STRUCT, SETTING_BOOL, NAME, FIELD, DEF, 0, 1, DOC)
#define SETTING_CHOICE_ROW(STRUCT, NAME, FIELD, DEF, CHOICES, DOC)                                 \
    {                                                                                              \
        .name = NAME, .type = SETTING_CHOICE, .offset = offsetof(STRUCT, FIELD), .def_text = DEF,  \
        .choices = CHOICES, .doc = DOC                                                             \
    }
#define SETTING_PLUGIN_ROW(STRUCT, NAME, FIELD, DEF, NAMES, DOC)                                   \
    {                                                                                              \
        .name = NAME, .type = SETTING_CHOICE, .offset = offsetof(STRUCT, FIELD), .def_text = DEF,  \
        .names = NAMES, .doc = DOC                                                                 \
    }
/* Rows of settings added after documents and sweeps exist, quiet_default (above). */
#define SETTING_QUIET_NUMBER(STRUCT, TYPE, NAME, FIELD, DEF, LO, HI, DOC)                          \
    {                                                                                              \
        .name = NAME, .type = TYPE, .offset = offsetof(STRUCT, FIELD), .def = DEF, .min = LO,      \
        .max = HI, .doc = DOC, .quiet_default = true                                               \
    }
#define SETTING_QUIET_CHOICE(STRUCT, NAME, FIELD, DEF, CHOICES, DOC)                               \
    {                                                                                              \
        .name = NAME, .type = SETTING_CHOICE, .offset = offsetof(STRUCT, FIELD), .def_text = DEF,  \
        .choices = CHOICES, .doc = DOC, .quiet_default = true                                      \
    }

struct setting_issue;

/* A table of settings of one config group. */
struct setting_table {
    const char *group; /* the config group: "routing" */
    const char *owner; /* NULL: the group's own settings; else who reads them ("piggyback") */
    const struct setting *rows;
    int count;
    /* 0: offsets are into the group's struct (core settings); > 0: the size of the owner's
     * params struct, which lives in a slice of the group's arena (plug-in settings). */
    size_t params_size;
    /* Optional checks across settings, once everything is read: returns 0, or -1 with the
     * issue filled (cfg is the whole config, params this table's storage). */
    int (*check)(const struct sim_config *cfg, const void *params, struct setting_issue *issue);
};

/* A problem found by a table's check: the settings it concerns (the one whose place is
 * reported, and an alternative when that one was not written anywhere) and what is wrong
 * ("... (expected ...)"). */
struct setting_issue {
    const char *key, *alt; /* full names: "traffic.offset" (may point to names[]) */
    char text[640];
    char names[2][192]; /* room for names built by the check ("jobs.app.nodes") */
};

/* What the chosen plug-in of a group needs of the router: VCs per local and global port
 * (vcs.local and vcs.global = 0 resolve to them; fewer is an error naming `who`). */
struct setting_needs {
    int local_vcs, global_vcs;
    const char *who; /* the plug-in's name: "ugal" */
};

/* Plug-ins of a group: a registry whose plug-in i has the settings table table(i) (NULL when
 * it has none), for i below count(). */
struct setting_plugins {
    int (*count)(void);
    const struct setting_table *(*table)(int i);
    /* Whether the plug-in that cfg chose reads table t (a table with an owner: its own, or one
     * of the group's tables that several plug-ins read); a setting of a table no plug-in of
     * the config reads is not in force (settings_in_force). */
    bool (*reads)(const struct sim_config *cfg, const struct setting_table *t);
    /* Optional: fills what the chosen plug-in needs; 0, or -1 when cfg chose none. */
    int (*needs)(const struct sim_config *cfg, struct setting_needs *out);
};

/* A group of the config file, e.g. routing = { ... }; */
struct settings_group {
    const char *name;
    size_t offset;       /* of the group's struct in struct sim_config */
    size_t arena_offset; /* of its struct setting_arena in the group's struct (if has_arena) */
    bool has_arena;
    const struct setting_table *const *tables; /* its own and shared tables, NULL-terminated */
    const struct setting_plugins *plugins;     /* registries, ends with a NULL count */
    /* Its plug-ins' settings say what the network is (a topology kind's shape): one of another
     * plug-in, written where the plug-in was chosen, describes a network that would not run,
     * an error; not a warning as a routing mechanism's (config_load_warn). */
    bool plugins_shape_network;
};

/* The groups of a config, in file order; NULL-terminated. */
extern const struct settings_group *const settings_groups[];

/* A list of groups in a config file, e.g. jobs = ( { name = "a"; ... }, { ... } ); every
 * element has the settings of `tables` (offsets into the element's struct) and is named by its
 * `name_key` setting, so that "jobs.a.load" names a setting of the element called a. */
struct settings_list {
    const char *name;    /* "jobs" */
    size_t offset;       /* of the element array in struct sim_config */
    size_t count_offset; /* of the int number of elements in struct sim_config */
    size_t element_size;
    int max; /* elements the array holds */
    const char *name_key;
    const struct setting_table *const *tables; /* NULL-terminated */
    /* Optional: whether an element reads setting key (a key written for an element that does
     * not read it is an error: say why); and the checks across elements. */
    bool (*reads)(const void *element, const char *key, char *why, size_t len);
    int (*check)(const struct sim_config *cfg, struct setting_issue *issue);
    /* Registries whose plug-ins' tables (and those of `tables` with params_size > 0) live in
     * slices of each element's arena, at arena_offset, arena_size bytes; NULL count ends it. */
    const struct setting_plugins *plugins;
    size_t arena_offset, arena_size;
};

/* The lists of a config, after the groups; NULL-terminated. */
extern const struct settings_list *const settings_lists[];

/* One setting of the schema, located in struct sim_config. A setting of a list element has
 * `list` set and `element` its index (-1 when the schema is walked without a config: then
 * offset is that of element 0). */
struct setting_ref {
    const struct settings_group *group; /* NULL for a list element's setting */
    const struct settings_list *list;
    int element;
    const struct setting_table *table;
    const struct setting *row;
    size_t offset; /* of the value in struct sim_config */
};

/* Visits every setting of the schema in canonical order (group order; in a group its own
 * tables, then the plug-ins' in registry order; then each list's settings once, element -1):
 * fn returns 0 to go on, anything else stops the walk and is returned. */
int settings_each(int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx);
/* The same over a config: the groups, then every element of every list. */
int settings_each_in(const struct sim_config *cfg,
                     int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx);
/* The group setting "group.name", or -1. */
int settings_find(const char *group, const char *name, struct setting_ref *out);
int settings_find_full(const char *full, struct setting_ref *out);
/* Like settings_find_full, and also "LIST.NAME.KEY" for the element of cfg called NAME. */
int settings_find_in(const struct sim_config *cfg, const char *full, struct setting_ref *out);
const struct settings_list *settings_list_named(const char *name);
/* The setting `key` of element i of a list, or -1. */
int settings_find_element(const struct settings_list *list, int i, const char *key,
                          struct setting_ref *out);
/* Element i's struct in cfg, and the number of elements. */
void *settings_element(struct sim_config *cfg, const struct settings_list *list, int i);
int settings_list_count(const struct sim_config *cfg, const struct settings_list *list);
/* The element of list called `name` in cfg, or -1. */
int settings_element_named(const struct sim_config *cfg, const struct settings_list *list,
                           const char *name);
/* Visits every setting of element i of a list (-1: the schema's, at element 0's offsets). */
int settings_each_in_element(const struct settings_list *list, int i,
                             int (*fn)(void *ctx, const struct setting_ref *ref), void *ctx);
/* Where table t's settings live in an element of list (its slice of the arena), or NULL. */
const void *settings_element_params(const struct settings_list *list, const void *element,
                                    const struct setting_table *t);
/* Writes the defaults of table t's rows into its storage. */
void settings_table_defaults(const struct setting_table *t, void *storage);

/* Writes the defaults of every setting of element i. */
void settings_fill_element(struct sim_config *cfg, const struct settings_list *list, int i);
bool settings_is_group(const char *name);
const struct settings_group *settings_group_named(const char *name);

/* Where a table's settings live in a config: the group's struct, or the table's slice of the
 * group's arena (NULL for a NULL table: a plug-in without settings). */
const void *settings_params(const struct sim_config *cfg, const struct setting_table *table);
void *settings_params_mut(struct sim_config *cfg, const struct setting_table *table);

static inline const void *settings_value(const struct sim_config *cfg, const struct setting_ref *r)
{
    return (const char *)cfg + r->offset;
}

/* Whether the setting is read by the config: a group's own setting (a table without owner), a
 * list element's, or one of a table that the chosen plug-in reads (struct setting_plugins).
 * The document's config echo holds only these; a setting written that is not in force is
 * reported by config_load (conf/README.md). */
bool settings_in_force(const struct sim_config *cfg, const struct setting_ref *r);
/* The setting of group g that chooses its plug-in ("routing.mechanism"); -1 if none. */
int settings_chooser(const struct settings_group *g, struct setting_ref *out);

/* What the chosen plug-ins need (the first registry with `needs`), and in `chooser` the
 * setting that chose the plug-in: 0, or -1 when none says. */
int settings_needs(const struct sim_config *cfg, struct setting_needs *out,
                   struct setting_ref *chooser);

/* Writes every setting's default into cfg (name and path untouched). */
void settings_fill_defaults(struct sim_config *cfg);

/* The value as written in a config ("0.4", "\"min\"", "true", "[1, 2]") or, with quote false,
 * strings bare; numbers exactly (doubles with 17 digits). */
/* Whether the setting is quiet_default and holds its default (echo and hash skip it). */
bool settings_quiet(const struct sim_config *cfg, const struct setting_ref *r);
/* Whether the setting holds exactly its default (doubles compared to the last bit), whatever
 * quiet_default says: what a sweep point's identity leaves out. */
bool settings_at_default(const struct sim_config *cfg, const struct setting_ref *r);
void settings_format(const struct sim_config *cfg, const struct setting_ref *r, bool quote,
                     char *buf, size_t len);
/* What a setting takes: "0 .. 100", ">= 1", "crg, rrg, nrg, mm", "true, false", "text". */
void settings_allowed_text(const struct setting *row, char *buf, size_t len);
/* The default as written in a config file. */
void settings_format_default(const struct setting *row, char *buf, size_t len);
/* "group.name"; for a list element "list.NAME.key" (its name) or "list[i].key" (unnamed),
 * with a config, and "list[].key" in the schema. */
void settings_full_name(const struct setting_ref *r, char *buf, size_t len);
void settings_full_name_in(const struct sim_config *cfg, const struct setting_ref *r, char *buf,
                           size_t len);

/* Whether value `index` of a CHOICE row is "true" or "false" (read and written as a boolean). */
bool settings_choice_is_bool(const struct setting *row, int index);

/* The allowed names of a CHOICE setting (NULL-terminated), ", "-separated, index of one. */
const char *const *settings_choices(const struct setting *row);
void settings_names_text(const struct setting *row, char *buf, size_t len);
int settings_choice_index(const struct setting *row, const char *name);

/* The literature's names for values (conf/GLOSSARY.md), accepted by config files and --set
 * wherever a CHOICE setting offers the value an alias stands for; the config keeps the dfsim
 * value (documents and sweep hashes never see an alias). An alias may also set a second
 * setting of the same group: "VAL-any" is valiant with valiant_target = "router"; an alias
 * whose second value is NULL takes a number, written after it: "ADV+2" is adversarial with
 * offset = 2. */
struct setting_alias {
    const char *alias;      /* as the literature writes it, matched ignoring case: "ADVc" */
    const char *value;      /* the dfsim value it stands for: "adversarial_consecutive" */
    const char *also;       /* NULL, or the setting of the same group it sets too: "offset" */
    const char *also_value; /* that setting's value; NULL: the number written after the alias */
};

/* NULL-terminated (alias NULL). */
extern const struct setting_alias setting_aliases[];

/* Where a CHOICE setting's value was found by settings_choice_lookup. */
struct setting_choice_match {
    int index;                         /* among settings_choices(row); -1: none */
    const struct setting_alias *alias; /* NULL: the value itself (in any case) */
    long number;                       /* an alias that takes a number: the number */
};

/* The index of `name` among the row's values: the value exactly, or ignoring case, or an alias
 * of one of them. Returns the index, or -1 (match->index -1) if none. */
int settings_choice_lookup(const struct setting *row, const char *name,
                           struct setting_choice_match *match);
/* The aliases of the row's values, ", "-separated ("UN, ADV, ADV+i, ADVc"; "" if none);
 * with_also false leaves out those that set a second setting. */
void settings_aliases_text(const struct setting *row, bool with_also, char *buf, size_t len);

/* The README's settings table (Markdown), one row per setting. Returns a malloc'd text. */
char *settings_markdown(void);

#endif
