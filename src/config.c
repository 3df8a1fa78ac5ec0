/* config: the schema of every setting, libconfig parsing, --set overrides and validation. */
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

#include "arbiter.h"
#include "config_include.h"
#include "routing.h"
#include "text_file.h"
#include "topology.h"
#include "traffic.h"

#define CONFIG_UNBOUNDED_INT ((double)INT_MAX)
#define CONFIG_UNBOUNDED_INT64 9223372036854775807.0
#define CONFIG_PROBLEM_LEN 640

#if defined(DFSIM_TEST) || defined(DFSIM_FUZZ)
/* libconfig 1.5 (Debian 12) leaks the text of a string token that a syntax error discards
 * (its grammar has no %destructor): a few bytes, once, before dfsim exits with status 2.
 * Only the scanner's allocations of token text are silenced in the sanitizer builds
 * (tools/valgrind.supp does the same for valgrind); any other leak is still reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:strbuf_append\nleak:libconfig_yylex\n";
}
#endif

static const char *const *config_arrangement_names(void)
{
    static const char *const names[] = {"palmtree", "consecutive", NULL};
    return names;
}

static const char *const *config_valiant_target_names(void)
{
    static const char *const names[] = {"group", "router", NULL};
    return names;
}

static const char *const *config_global_policy_names(void)
{
    static const char *const names[] = {"crg", "rrg", "nrg", "mm", NULL};
    return names;
}

#define CONFIG_NUM(grp, key, type, field, def, lo, hi, doc)                                        \
    {                                                                                              \
        grp, key, type, offsetof(struct sim_config, field), def, NULL, lo, hi, NULL, doc           \
    }
#define CONFIG_INT_ROW(grp, key, field, def, lo, hi, doc)                                          \
    CONFIG_NUM(grp, key, CONFIG_INT, field, def, lo, hi, doc)
#define CONFIG_INT64_ROW(grp, key, field, def, lo, hi, doc)                                        \
    CONFIG_NUM(grp, key, CONFIG_INT64, field, def, lo, hi, doc)
#define CONFIG_NAME_ROW(grp, key, field, def, names, doc)                                          \
    {                                                                                              \
        grp, key, CONFIG_NAME, offsetof(struct sim_config, field), 0, def, 0, 0, names, doc        \
    }

const struct config_setting_desc config_schema[] = {
    CONFIG_INT64_ROW("sim", "warmup_cycles", sim.warmup_cycles, 10000, 0, INT_MAX,
                     "cycles simulated before the measurement window opens"),
    CONFIG_INT64_ROW("sim", "measure_cycles", sim.measure_cycles, 15000, 1, INT_MAX,
                     "cycles of the measurement window"),
    CONFIG_INT64_ROW("sim", "seed", sim.seed, 1, 0, CONFIG_UNBOUNDED_INT64,
                     "seed of every random stream: same seed and config, same results"),
    CONFIG_INT64_ROW("sim", "deadlock_cycles", sim.deadlock_cycles, 10000, 1,
                     CONFIG_UNBOUNDED_INT64,
                     "watchdog: stop (exit 3) if packets are in flight and none moved this long"),
    CONFIG_INT_ROW("topology", "p", topology.p, 6, 1, CONFIG_UNBOUNDED_INT, "nodes per router"),
    CONFIG_INT_ROW("topology", "a", topology.a, 12, 1, CONFIG_UNBOUNDED_INT,
                   "routers per group (fully connected by local links)"),
    CONFIG_INT_ROW("topology", "h", topology.h, 6, 1, CONFIG_UNBOUNDED_INT,
                   "global links per router; groups = a*h + 1"),
    CONFIG_NAME_ROW("topology", "arrangement", topology.arrangement, "palmtree",
                    config_arrangement_names, "global link arrangement"),
    CONFIG_INT_ROW("links", "local_latency", links.local_latency, 10, 1, 1000000,
                   "cycles of a local (intra-group) link"),
    CONFIG_INT_ROW("links", "global_latency", links.global_latency, 100, 1, 1000000,
                   "cycles of a global (inter-group) link"),
    CONFIG_INT_ROW("links", "injection_latency", links.injection_latency, 1, 1, 1000000,
                   "cycles of the node-router links (injection and ejection)"),
    CONFIG_INT_ROW("buffers", "local", buffers.local, 32, 1, 65535,
                   "input buffer per local VC, phits"),
    CONFIG_INT_ROW("buffers", "global", buffers.global, 256, 1, 65535,
                   "input buffer per global VC, phits"),
    CONFIG_INT_ROW("buffers", "injection", buffers.injection, 1000, 1, 65535,
                   "injection queue per injection VC of a node, phits"),
    CONFIG_INT_ROW("buffers", "output", buffers.output, 32, 1, 65535,
                   "output buffer per port (shared by its VCs), phits"),
    CONFIG_INT_ROW("router", "speedup", router.speedup, 2, 1, 64,
                   "crossbar speedup: a transfer takes packet_size/speedup cycles"),
    CONFIG_INT_ROW("router", "latency", router.latency, 5, 1, 1000000,
                   "cycles from head arrival to the earliest departure on the next link"),
    CONFIG_INT_ROW("router", "allocator_iterations", router.allocator_iterations, 2, 1, 64,
                   "iterations of the separable input-first allocator"),
    CONFIG_NAME_ROW("router", "arbiter", router.arbiter, "round_robin", arbiter_names,
                    "arbitration policy of the allocator"),
    CONFIG_NUM("router", "transit_priority", CONFIG_BOOL, router.transit_priority, 0, 0, 1,
               "output arbiters prefer transit (local/global) inputs over node inputs"),
    CONFIG_INT_ROW("vcs", "local", vcs.local, 0, 0, 16,
                   "VCs per local port; 0 = what the routing's ladder needs"),
    CONFIG_INT_ROW("vcs", "global", vcs.global, 0, 0, 16,
                   "VCs per global port; 0 = what the routing's ladder needs"),
    CONFIG_INT_ROW("vcs", "injection", vcs.injection, 3, 1, 16,
                   "injection queues per node (chosen by destination)"),
    CONFIG_NAME_ROW("routing", "mechanism", routing.mechanism, "min", routing_names,
                    "routing mechanism"),
    CONFIG_NAME_ROW("routing", "valiant_target", routing.valiant_target, "group",
                    config_valiant_target_names,
                    "Valiant intermediate: a group, or a router of it (VAL-any)"),
    CONFIG_NAME_ROW("routing", "global_policy", routing.global_policy, "rrg",
                    config_global_policy_names, "global misrouting policy"),
    CONFIG_INT_ROW("routing", "pb_coef", routing.pb_coef, 200, 0, CONFIG_UNBOUNDED_INT,
                   "piggyback: saturated if occupancy > pb_coef % of the mean global one"),
    CONFIG_INT_ROW("routing", "pb_local_threshold", routing.pb_local_threshold, 5, 0,
                   CONFIG_UNBOUNDED_INT, "piggyback: UGAL-L threshold T_local, packets"),
    CONFIG_INT_ROW("routing", "pb_global_threshold", routing.pb_global_threshold, 3, 0,
                   CONFIG_UNBOUNDED_INT, "piggyback: saturation threshold T_global, packets"),
    CONFIG_INT_ROW("routing", "misroute_threshold", routing.misroute_threshold, 55, 0, 100,
                   "in-transit: misroute if candidate occupancy <= this % of the minimal one"),
    CONFIG_INT_ROW("routing", "th_min", routing.th_min, 0, 0, 100,
                   "in-transit: occupancy % of the minimal output needed to consider misrouting"),
    CONFIG_INT_ROW("routing", "global_congestion_coef", routing.global_congestion_coef, 150, 0,
                   CONFIG_UNBOUNDED_INT,
                   "in-transit: a global port is congested above this % of the mean"),
    CONFIG_INT_ROW("routing", "global_congestion_threshold", routing.global_congestion_threshold, 5,
                   0, CONFIG_UNBOUNDED_INT,
                   "in-transit: congestion threshold added to that, packets"),
    CONFIG_NAME_ROW("traffic", "pattern", traffic.pattern, "uniform", pattern_names,
                    "destination pattern"),
    CONFIG_NUM("traffic", "load", CONFIG_DOUBLE, traffic.load, 0.4, 0, 1,
               "offered load, phits/(node*cycle)"),
    CONFIG_INT_ROW("traffic", "offset", traffic.offset, 1, 1, CONFIG_UNBOUNDED_INT,
                   "adversarial: destination group offset i (ADV+i)"),
    CONFIG_INT_ROW("traffic", "packet_size", traffic.packet_size, 8, 1, 4096, "packet size, phits"),
};

#define CONFIG_SCHEMA_N (sizeof config_schema / sizeof config_schema[0])
const size_t config_schema_count = CONFIG_SCHEMA_N;

/* Where a setting got its value, for messages about it. */
struct config_origin {
    const char *file; /* NULL: not from a file */
    int line;
    const char *set; /* the --set argument, or NULL */
};

/* A value read by libconfig (from the file or a --set). */
struct config_value {
    int type; /* CONFIG_TYPE_* */
    long long i;
    double f;
    int b;
    const char *s;
};

/* State of one config_load. */
struct config_loader {
    struct sim_config *cfg;
    const char *path; /* the file being read */
    const char *text; /* its contents (to re-read integer literals) */
    config_t file;    /* kept until the end: origins point to its file names */
    struct config_origin origin[CONFIG_SCHEMA_N];
    char *err;
};

/* ---- small helpers ---- */

static void *config_field(struct sim_config *cfg, const struct config_setting_desc *d)
{
    return (char *)cfg + d->offset;
}

static const void *config_cfield(const struct sim_config *cfg, const struct config_setting_desc *d)
{
    return (const char *)cfg + d->offset;
}

static void config_full_name(const struct config_setting_desc *d, char *buf, size_t len)
{
    snprintf(buf, len, "%s.%s", d->group, d->name);
}

static const struct config_setting_desc *config_find(const char *group, const char *name)
{
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++)
        if (strcmp(config_schema[i].group, group) == 0 && strcmp(config_schema[i].name, name) == 0)
            return &config_schema[i];
    return NULL;
}

static const struct config_setting_desc *config_find_full(const char *full)
{
    const char *dot = strchr(full, '.');
    if (!dot || (size_t)(dot - full) >= 64)
        return NULL;
    char group[64];
    memcpy(group, full, (size_t)(dot - full));
    group[dot - full] = '\0';
    return config_find(group, dot + 1);
}

static bool config_is_group(const char *name)
{
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++)
        if (strcmp(config_schema[i].group, name) == 0)
            return true;
    return false;
}

static size_t config_row_index(const struct config_setting_desc *d)
{
    return (size_t)(d - config_schema);
}

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

static void config_join_names(const char *const *names, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; names && names[i]; i++)
        config_append(buf, len, "%s%s", i ? ", " : "", names[i]);
}

static bool config_name_allowed(const char *const *names, const char *value)
{
    for (int i = 0; names && names[i]; i++)
        if (strcmp(names[i], value) == 0)
            return true;
    return false;
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

/* The schema setting closest to a misspelt full name (distance <= 2), or else one with the
 * same key in another group; NULL if none. */
static const struct config_setting_desc *config_suggest(const char *full)
{
    const struct config_setting_desc *best = NULL;
    int best_distance = 3;
    char name[96];
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++) {
        config_full_name(&config_schema[i], name, sizeof name);
        int d = config_distance(full, name);
        if (d < best_distance) {
            best_distance = d;
            best = &config_schema[i];
        }
    }
    if (best)
        return best;
    const char *dot = strrchr(full, '.');
    const char *key = dot ? dot + 1 : full;
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++)
        if (strcmp(config_schema[i].name, key) == 0)
            return &config_schema[i];
    return NULL;
}

static const char *config_suggest_group(const char *group)
{
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++)
        if (config_distance(group, config_schema[i].group) <= 2)
            return config_schema[i].group;
    return NULL;
}

static void config_group_names(char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++)
        if (i == 0 || strcmp(config_schema[i].group, config_schema[i - 1].group) != 0)
            config_append(buf, len, "%s%s", i ? ", " : "", config_schema[i].group);
}

static void config_unknown_setting(const char *full, char *problem, size_t len)
{
    const struct config_setting_desc *near = config_suggest(full);
    if (near) {
        snprintf(problem, len, "%s: unknown setting (did you mean '%s.%s'?)", full, near->group,
                 near->name);
        return;
    }
    const char *dot = strchr(full, '.');
    size_t glen = dot ? (size_t)(dot - full) : 0;
    snprintf(problem, len, "%s: unknown setting (expected one of:", full);
    int listed = 0;
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++) {
        const struct config_setting_desc *d = &config_schema[i];
        if (glen && strlen(d->group) == glen && strncmp(d->group, full, glen) == 0)
            config_append(problem, len, "%s %s.%s", listed++ ? "," : "", d->group, d->name);
    }
    if (!listed) {
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

static int config_type_error(const struct config_setting_desc *d, const struct config_value *v,
                             char *problem, size_t len)
{
    static const char *const expected[] = {[CONFIG_INT] = "an integer",
                                           [CONFIG_INT64] = "an integer",
                                           [CONFIG_DOUBLE] = "a number",
                                           [CONFIG_BOOL] = "true or false",
                                           [CONFIG_NAME] = "a string"};
    char got[128], names[256] = "", list[224];
    config_describe(v, got, sizeof got);
    if (d->type == CONFIG_NAME) {
        config_join_names(d->names ? d->names() : NULL, list, sizeof list);
        snprintf(names, sizeof names, " (one of: %s)", list);
    }
    snprintf(problem, len, "%s.%s: expected %s%s, got %s", d->group, d->name, expected[d->type],
             names, got);
    return -1;
}

static void config_range_text(const struct config_setting_desc *d, bool too_big, char *buf,
                              size_t len)
{
    bool unbounded = (d->type == CONFIG_INT && d->max >= CONFIG_UNBOUNDED_INT && !too_big) ||
                     (d->type == CONFIG_INT64 && d->max >= CONFIG_UNBOUNDED_INT64);
    if (d->type == CONFIG_DOUBLE)
        snprintf(buf, len, "a number in [%.15g, %.15g]", d->min, d->max);
    else if (unbounded)
        snprintf(buf, len, "an integer >= %lld", (long long)d->min);
    else
        snprintf(buf, len, "an integer in [%lld, %lld]", (long long)d->min, (long long)d->max);
}

static int config_range_error(const struct config_setting_desc *d, const char *value, bool too_big,
                              char *problem, size_t len)
{
    char expected[96];
    config_range_text(d, too_big, expected, sizeof expected);
    snprintf(problem, len, "%s.%s: %s is out of range (expected %s)", d->group, d->name, value,
             expected);
    return -1;
}

static int config_store_int(const struct config_setting_desc *d, const struct config_value *v,
                            struct sim_config *cfg, char *problem, size_t len)
{
    if (v->type != CONFIG_TYPE_INT && v->type != CONFIG_TYPE_INT64)
        return config_type_error(d, v, problem, len);
    if ((double)v->i < d->min || (double)v->i > d->max) {
        char value[32];
        snprintf(value, sizeof value, "%lld", v->i);
        return config_range_error(d, value, (double)v->i > d->max, problem, len);
    }
    if (d->type == CONFIG_INT)
        *(int *)config_field(cfg, d) = (int)v->i;
    else
        *(int64_t *)config_field(cfg, d) = (int64_t)v->i;
    return 0;
}

static int config_store_double(const struct config_setting_desc *d, const struct config_value *v,
                               struct sim_config *cfg, char *problem, size_t len)
{
    double x;
    char value[40];
    if (v->type == CONFIG_TYPE_FLOAT) {
        x = v->f;
        snprintf(value, sizeof value, "%.15g", x);
    } else if (v->type == CONFIG_TYPE_INT || v->type == CONFIG_TYPE_INT64) {
        x = (double)v->i;
        snprintf(value, sizeof value, "%lld", v->i);
    } else {
        return config_type_error(d, v, problem, len);
    }
    if (!isfinite(x) || x < d->min || x > d->max)
        return config_range_error(d, value, !(x < d->min), problem, len);
    *(double *)config_field(cfg, d) = x;
    return 0;
}

static int config_store_name(const struct config_setting_desc *d, const struct config_value *v,
                             struct sim_config *cfg, char *problem, size_t len)
{
    if (v->type != CONFIG_TYPE_STRING)
        return config_type_error(d, v, problem, len);
    const char *const *names = d->names ? d->names() : NULL;
    if (!config_name_allowed(names, v->s) || strlen(v->s) >= CONFIG_NAME_LEN) {
        char list[256];
        config_join_names(names, list, sizeof list);
        snprintf(problem, len, "%s.%s: unknown value '%.64s' (expected one of: %s)", d->group,
                 d->name, v->s, list);
        return -1;
    }
    snprintf((char *)config_field(cfg, d), CONFIG_NAME_LEN, "%s", v->s);
    return 0;
}

/* Checks a value against its schema row and stores it; returns 0 or -1 with the problem. */
static int config_store(const struct config_setting_desc *d, const struct config_value *v,
                        struct sim_config *cfg, char *problem, size_t len)
{
    switch (d->type) {
    case CONFIG_INT:
    case CONFIG_INT64:
        return config_store_int(d, v, cfg, problem, len);
    case CONFIG_DOUBLE:
        return config_store_double(d, v, cfg, problem, len);
    case CONFIG_BOOL:
        if (v->type != CONFIG_TYPE_BOOL)
            return config_type_error(d, v, problem, len);
        *(bool *)config_field(cfg, d) = v->b != 0;
        return 0;
    case CONFIG_NAME:
        return config_store_name(d, v, cfg, problem, len);
    }
    return -1;
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
static int config_fix_int(const struct config_setting_desc *d, const char *literal,
                          struct config_value *v, char *problem, size_t len)
{
    long long exact;
    if (!literal || (v->type != CONFIG_TYPE_INT && v->type != CONFIG_TYPE_INT64))
        return 0;
    int rc = config_reparse_int(literal, &exact);
    if (rc < 0) {
        char value[48];
        size_t n = strspn(literal, " \t");
        snprintf(value, sizeof value, "%.*s",
                 (int)strspn(literal + n, "+-0123456789abcdefxABCDEFX"), literal + n);
        return config_range_error(d, value, true, problem, len);
    }
    if (rc == 0 && exact != v->i) {
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

static int config_fail_at(struct config_loader *ld, const config_setting_t *s, const char *problem)
{
    const char *file = config_setting_source_file(s);
    snprintf(ld->err, CONFIG_ERROR_LEN, "%s:%d: %s", file ? file : ld->path,
             (int)config_setting_source_line(s), problem);
    return -1;
}

static int config_walk_setting(struct config_loader *ld, const char *group, config_setting_t *s)
{
    char problem[CONFIG_PROBLEM_LEN], full[160];
    const char *name = config_setting_name(s);
    const struct config_setting_desc *d = config_find(group, name);
    if (!d) {
        snprintf(full, sizeof full, "%s.%.64s", group, name);
        config_unknown_setting(full, problem, sizeof problem);
        return config_fail_at(ld, s, problem);
    }
    struct config_value v;
    config_value_of(s, &v);
    const char *file = config_setting_source_file(s);
    int line = (int)config_setting_source_line(s);
    const char *literal = file ? NULL : config_file_literal(ld->text, line, name);
    if (config_fix_int(d, literal, &v, problem, sizeof problem) ||
        config_store(d, &v, ld->cfg, problem, sizeof problem))
        return config_fail_at(ld, s, problem);
    ld->origin[config_row_index(d)] = (struct config_origin){file ? file : ld->path, line, NULL};
    return 0;
}

static int config_walk_group(struct config_loader *ld, config_setting_t *g)
{
    char problem[CONFIG_PROBLEM_LEN], got[128];
    const char *name = config_setting_name(g);
    if (!config_is_group(name)) {
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
    char include_dir[sizeof ld->cfg->path];
    config_include_dir_of(path, include_dir, sizeof include_dir);
    if (!text || config_include_check(text, path, include_dir, ld->err, CONFIG_ERROR_LEN) != 0) {
        free(text);
        return -1;
    }
    ld->path = path;
    ld->text = text;
    config_set_name(ld->cfg, path);
    config_set_include_dir(&ld->file, include_dir);
    int rc = -1;
    if (!config_read_string(&ld->file, text)) {
        const char *file = config_error_file(&ld->file);
        const char *what = config_error_text(&ld->file);
        /* libconfig 1.5's two include errors say neither what to do nor the limit */
        if (strcmp(what, "cannot open include file") == 0)
            snprintf(ld->err, CONFIG_ERROR_LEN,
                     "%s:%d: @include: cannot open the file (expected a file name relative to "
                     "%.200s)",
                     file ? file : path, config_error_line(&ld->file), include_dir);
        else if (strcmp(what, "include file nesting too deep") == 0)
            snprintf(ld->err, CONFIG_ERROR_LEN,
                     "%s:%d: @include: nested too deep (expected at most 10 levels, and no file "
                     "including itself)",
                     file ? file : path, config_error_line(&ld->file));
        else
            snprintf(ld->err, CONFIG_ERROR_LEN,
                     "%s:%d: %s (expected libconfig syntax, e.g. traffic = { load = 0.4; };)",
                     file ? file : path, config_error_line(&ld->file), what);
    } else {
        config_setting_t *root = config_root_setting(&ld->file);
        rc = 0;
        for (int i = 0; rc == 0 && i < config_setting_length(root); i++)
            rc = config_walk_group(ld, config_setting_get_elem(root, i));
    }
    free(text);
    ld->text = NULL;
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

/* Stores VALUE into setting d; returns 0 or -1 with the problem. */
static int config_override_value(struct config_loader *ld, const struct config_setting_desc *d,
                                 const char *value, char *problem, size_t len)
{
    config_t scratch;
    char bare[256];
    struct config_value v;
    config_init(&scratch);
    value += strspn(value, " \t");
    config_parse_value(&scratch, value, &v, bare, sizeof bare);
    int rc =
        config_fix_int(d, value, &v, problem, len) || config_store(d, &v, ld->cfg, problem, len)
            ? -1
            : 0;
    config_destroy(&scratch);
    return rc;
}

static int config_apply_override(struct config_loader *ld, const char *arg)
{
    char key[96], problem[CONFIG_PROBLEM_LEN];
    const char *eq = strchr(arg, '=');
    if (!eq || config_override_key(arg, eq, key, sizeof key) != 0) {
        snprintf(ld->err, CONFIG_ERROR_LEN,
                 "--set %.200s: expected KEY=VALUE with KEY like traffic.load", arg);
        return -1;
    }
    const struct config_setting_desc *d = config_find_full(key);
    int rc = -1;
    if (!d)
        config_unknown_setting(key, problem, sizeof problem);
    else
        rc = config_override_value(ld, d, eq + 1, problem, sizeof problem);
    if (rc == 0)
        ld->origin[config_row_index(d)] = (struct config_origin){NULL, 0, arg};
    else
        snprintf(ld->err, CONFIG_ERROR_LEN, "--set %.200s: %s", arg, problem);
    return rc;
}

/* ---- defaults and validation ---- */

static void config_fill_defaults(struct sim_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->name, sizeof cfg->name, "default");
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++) {
        const struct config_setting_desc *d = &config_schema[i];
        void *field = config_field(cfg, d);
        switch (d->type) {
        case CONFIG_INT:
            *(int *)field = (int)d->def;
            break;
        case CONFIG_INT64:
            *(int64_t *)field = (int64_t)d->def;
            break;
        case CONFIG_DOUBLE:
            *(double *)field = d->def;
            break;
        case CONFIG_BOOL:
            *(bool *)field = d->def != 0;
            break;
        case CONFIG_NAME:
            snprintf((char *)field, CONFIG_NAME_LEN, "%s", d->def_name);
            break;
        }
    }
}

/* vcs.local/global = 0 become what the routing's ladder needs. */
static void config_resolve_vcs(struct sim_config *cfg)
{
    const struct routing_ops *ops = routing_find(cfg->routing.mechanism);
    if (!ops)
        return;
    struct vc_ladder ladder;
    memset(&ladder, 0, sizeof ladder);
    ops->ladder(cfg, &ladder);
    if (cfg->vcs.local == 0)
        cfg->vcs.local = ladder.local_vcs;
    if (cfg->vcs.global == 0)
        cfg->vcs.global = ladder.global_vcs;
}

void config_set_defaults(struct sim_config *cfg)
{
    config_fill_defaults(cfg);
    config_resolve_vcs(cfg);
}

/* Reports a problem of setting `key`, located where `key` (or else `alt`) was set. */
static int config_report(const struct sim_config *cfg, const struct config_origin *origin,
                         const char *key, const char *alt, char *err, const char *fmt, ...)
{
    const struct config_origin *o = NULL;
    for (int k = 0; k < 2 && origin && !o; k++) {
        const struct config_setting_desc *d = config_find_full(k ? alt : key);
        if (d && (origin[config_row_index(d)].set || origin[config_row_index(d)].file))
            o = &origin[config_row_index(d)];
    }
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
    snprintf(err, CONFIG_ERROR_LEN, "%s: %s: %s", where, key, problem);
    return -1;
}

/* Every setting within its own range (configs filled by hand may not be). */
static int config_check_rows(const struct sim_config *cfg, const struct config_origin *origin,
                             char *err)
{
    struct sim_config scratch;
    char problem[CONFIG_PROBLEM_LEN], key[96];
    for (size_t i = 0; i < CONFIG_SCHEMA_N; i++) {
        const struct config_setting_desc *d = &config_schema[i];
        const void *field = config_cfield(cfg, d);
        struct config_value v = {.type = CONFIG_TYPE_INT64};
        if (d->type == CONFIG_INT)
            v.i = *(const int *)field;
        else if (d->type == CONFIG_INT64)
            v.i = *(const int64_t *)field;
        else if (d->type == CONFIG_DOUBLE)
            v = (struct config_value){.type = CONFIG_TYPE_FLOAT, .f = *(const double *)field};
        else if (d->type == CONFIG_BOOL)
            continue;
        else if (!memchr(field, '\0', CONFIG_NAME_LEN))
            v = (struct config_value){.type = CONFIG_TYPE_STRING, .s = "(unterminated)"};
        else
            v = (struct config_value){.type = CONFIG_TYPE_STRING, .s = field};
        if (config_store(d, &v, &scratch, problem, sizeof problem)) {
            config_full_name(d, key, sizeof key);
            /* the problem starts with the key already */
            return config_report(cfg, origin, key, key, err, "%s", problem + strlen(key) + 2);
        }
    }
    return 0;
}

static int config_check_radix(const struct sim_config *cfg, const struct config_origin *origin,
                              char *err)
{
    /* In 64 bits: each term may be as large as INT_MAX. */
    long long radix = (long long)cfg->topology.p + cfg->topology.a - 1 + cfg->topology.h;
    if (radix <= TOPOLOGY_MAX_RADIX)
        return 0;
    return config_report(cfg, origin, "topology.h", "topology.a", err,
                         "router radix p + a - 1 + h = %lld is too large (expected p + a - 1 + "
                         "h <= %d)",
                         radix, TOPOLOGY_MAX_RADIX);
}

static int config_check_buffers(const struct sim_config *cfg, const struct config_origin *origin,
                                char *err)
{
    static const char *const keys[] = {"buffers.local", "buffers.global", "buffers.injection",
                                       "buffers.output"};
    const int sizes[] = {cfg->buffers.local, cfg->buffers.global, cfg->buffers.injection,
                         cfg->buffers.output};
    for (int i = 0; i < 4; i++)
        if (sizes[i] < cfg->traffic.packet_size)
            return config_report(cfg, origin, keys[i], "traffic.packet_size", err,
                                 "%d phits cannot hold one packet of traffic.packet_size = %d "
                                 "phits (expected %s >= traffic.packet_size)",
                                 sizes[i], cfg->traffic.packet_size, keys[i]);
    return 0;
}

static int config_check_vcs(const struct sim_config *cfg, const struct config_origin *origin,
                            char *err)
{
    const struct routing_ops *ops = routing_find(cfg->routing.mechanism);
    struct vc_ladder ladder;
    if (!ops)
        return 0; /* config_check_rows reported it */
    memset(&ladder, 0, sizeof ladder);
    ops->ladder(cfg, &ladder);
    if (cfg->vcs.local < ladder.local_vcs)
        return config_report(cfg, origin, "vcs.local", "routing.mechanism", err,
                             "routing '%s' needs at least %d local VCs (got %d)", ops->name,
                             ladder.local_vcs, cfg->vcs.local);
    if (cfg->vcs.global < ladder.global_vcs)
        return config_report(cfg, origin, "vcs.global", "routing.mechanism", err,
                             "routing '%s' needs at least %d global VCs (got %d)", ops->name,
                             ladder.global_vcs, cfg->vcs.global);
    return 0;
}

/* ADV+i with i a multiple of the group count would send every packet to its own group. */
static int config_check_offset(const struct sim_config *cfg, const struct config_origin *origin,
                               char *err)
{
    long long groups = (long long)cfg->topology.a * cfg->topology.h + 1;
    if (strcmp(cfg->traffic.pattern, "adversarial") != 0 || cfg->traffic.offset % groups != 0)
        return 0;
    return config_report(cfg, origin, "traffic.offset", "traffic.pattern", err,
                         "%d is a multiple of the %lld groups, so adversarial traffic would "
                         "stay in its own group (expected an offset that is not a multiple of "
                         "a*h + 1)",
                         cfg->traffic.offset, groups);
}

/* A mechanism that reads routing.global_policy accepts only the policies it implements. */
static int config_check_policy(const struct sim_config *cfg, const struct config_origin *origin,
                               char *err)
{
    const struct routing_ops *ops = routing_find(cfg->routing.mechanism);
    if (!ops || !ops->global_policies ||
        config_name_allowed(ops->global_policies, cfg->routing.global_policy))
        return 0;
    char allowed[256] = "";
    config_join_names(ops->global_policies, allowed, sizeof allowed);
    return config_report(cfg, origin, "routing.global_policy", "routing.mechanism", err,
                         "routing '%s' has no global policy '%s' (expected one of: %s)", ops->name,
                         cfg->routing.global_policy, allowed);
}

/* In a healthy network nothing moves for at most a router pipeline plus two packet times
 * while no event is pending; a shorter watchdog would report deadlocks that are not. */
static int config_check_watchdog(const struct sim_config *cfg, const struct config_origin *origin,
                                 char *err)
{
    long long minimum = (long long)cfg->router.latency + 2LL * cfg->traffic.packet_size + 1;
    if (cfg->sim.deadlock_cycles >= minimum)
        return 0;
    return config_report(cfg, origin, "sim.deadlock_cycles", "router.latency", err,
                         "%lld cycles is shorter than a healthy pause (expected at least "
                         "router.latency + 2 * traffic.packet_size + 1 = %lld)",
                         (long long)cfg->sim.deadlock_cycles, minimum);
}

static int config_check(const struct sim_config *cfg, const struct config_origin *origin, char *err)
{
    err[0] = '\0';
    if (config_check_rows(cfg, origin, err) || config_check_radix(cfg, origin, err) ||
        config_check_buffers(cfg, origin, err) || config_check_vcs(cfg, origin, err) ||
        config_check_policy(cfg, origin, err) || config_check_watchdog(cfg, origin, err) ||
        config_check_offset(cfg, origin, err))
        return -1;
    return 0;
}

int config_validate(const struct sim_config *cfg, char err[CONFIG_ERROR_LEN])
{
    int rc = config_check(cfg, NULL, err);
    text_one_line(err, CONFIG_ERROR_LEN);
    return rc;
}

int config_load(const char *path, const char *const *overrides, int n_overrides,
                struct sim_config *cfg, char err[CONFIG_ERROR_LEN])
{
    struct config_loader ld;
    memset(&ld, 0, sizeof ld);
    ld.cfg = cfg;
    ld.err = err;
    err[0] = '\0';
    config_fill_defaults(cfg);
    config_init(&ld.file);
    int rc = path ? config_load_file(&ld, path) : 0;
    for (int i = 0; rc == 0 && i < n_overrides; i++)
        rc = config_apply_override(&ld, overrides[i]);
    if (rc == 0) {
        config_resolve_vcs(cfg);
        rc = config_check(cfg, ld.origin, err);
    }
    config_destroy(&ld.file);
    text_one_line(err, CONFIG_ERROR_LEN);
    return rc;
}
