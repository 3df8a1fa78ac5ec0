/* sweep_grid: expands a sweep into jobs, resolves and hashes their configs, names their files. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_version.h"
#include "sweep.h"

#define SWEEP_FNV_OFFSET 0xcbf29ce484222325ULL
#define SWEEP_FNV_PRIME 0x100000001b3ULL
#define SWEEP_STEM_LEN 160 /* readable part of a file name */

/* The overrides of one job, in the order config_load applies them: set, variant, axes, load. */
struct sweep_overrides {
    const char **items;
    int *lines;
    char **owned; /* the texts built here (axes, load) */
    int n, n_owned;
};

static bool sweep_axis_applies(const struct sweep *sw, int variant, int axis)
{
    return !(sw->variants[variant].saturation && strcmp(sw->axes[axis].key, "traffic.load") == 0);
}

bool sweep_job_is_search(const struct sweep *sw, const struct sweep_job *job)
{
    return sw->variants[job->variant].saturation;
}

/* ---- overrides ---- */

static void sweep_overrides_free(struct sweep_overrides *o)
{
    for (int i = 0; i < o->n_owned; i++)
        free(o->owned[i]);
    free(o->owned);
    free(o->items);
    free(o->lines);
    memset(o, 0, sizeof *o);
}

static int sweep_overrides_add(struct sweep_overrides *o, const char *text, int line, bool own)
{
    char *copy = own ? strdup(text) : NULL;
    if (own && !copy)
        return -1;
    if (own)
        o->owned[o->n_owned++] = copy;
    o->items[o->n] = own ? copy : text;
    o->lines[o->n++] = line;
    return 0;
}

static int sweep_overrides_build(const struct sweep *sw, const struct sweep_job *job,
                                 const double *load, struct sweep_overrides *o)
{
    const struct sweep_variant *var = &sw->variants[job->variant];
    size_t cap = (size_t)(sw->n_set + var->n_settings + sw->n_axes + 1);
    memset(o, 0, sizeof *o);
    o->items = malloc(cap * sizeof *o->items);
    o->lines = malloc(cap * sizeof *o->lines);
    o->owned = malloc(cap * sizeof *o->owned);
    if (!o->items || !o->lines || !o->owned)
        return -1;
    for (int i = 0; i < sw->n_set; i++)
        sweep_overrides_add(o, sw->set[i].override, sw->set[i].line, false);
    for (int i = 0; i < var->n_settings; i++)
        sweep_overrides_add(o, var->settings[i].override, var->settings[i].line, false);
    char text[SWEEP_KEY_LEN + 1100];
    for (int a = 0; a < sw->n_axes; a++) {
        if (job->choice[a] < 0)
            continue;
        int n = snprintf(text, sizeof text, "%s=", sw->axes[a].key);
        sweep_value_literal(&sw->axes[a].values[job->choice[a]], text + n, sizeof text - (size_t)n);
        if (sweep_overrides_add(o, text, sw->axes[a].line, true) != 0)
            return -1;
    }
    if (load) {
        struct sweep_value v = {.type = SWEEP_FLOAT, .f = *load};
        int n = snprintf(text, sizeof text, "traffic.load=");
        sweep_value_literal(&v, text + n, sizeof text - (size_t)n);
        if (sweep_overrides_add(o, text, 0, true) != 0)
            return -1;
    }
    return 0;
}

/* ---- config of a job ---- */

void sweep_job_describe(const struct sweep *sw, const struct sweep_job *job, char *out, size_t len)
{
    out[0] = '\0';
    for (int a = 0; a < sw->n_axes; a++) {
        if (job->choice[a] < 0)
            continue;
        const struct sweep_value *v = &sw->axes[a].values[job->choice[a]];
        char literal[1100];
        if (v->type == SWEEP_STRING)
            snprintf(literal, sizeof literal, "%.1000s", v->s);
        else
            sweep_value_literal(v, literal, sizeof literal);
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", sw->axes[a].key, literal);
    }
}

/* A --set error of config_load becomes "SWEEP:LINE: rest" when the override came from the
 * sweep file; the point is named on a second line. */
static void sweep_locate_error(const struct sweep *sw, const struct sweep_job *job,
                               const struct sweep_overrides *o, const char *cerr, char *err)
{
    const char *rest = NULL;
    int line = 0;
    for (int i = 0; i < o->n && !rest; i++) {
        size_t n = strlen(o->items[i]);
        if (o->lines[i] > 0 && strncmp(cerr, "--set ", 6) == 0 &&
            strncmp(cerr + 6, o->items[i], n) == 0 && strncmp(cerr + 6 + n, ": ", 2) == 0) {
            rest = cerr + 6 + n + 2;
            line = o->lines[i];
        }
    }
    char where[1200];
    if (rest)
        snprintf(where, sizeof where, "%.400s:%d: %.700s", sw->path, line, rest);
    else
        snprintf(where, sizeof where, "%.1100s", cerr);
    char point[256];
    sweep_job_describe(sw, job, point, sizeof point);
    const char *variant = sw->variants[job->variant].name;
    if (!variant[0] && !point[0])
        snprintf(err, SWEEP_ERROR_LEN, "%s", where);
    else
        snprintf(err, SWEEP_ERROR_LEN, "%.1150s\n  in the point%s%.63s%s%.250s", where,
                 variant[0] ? " of variant " : "", variant, point[0] ? " " : "", point);
}

/* The warnings from `before` on that name a --set the sweep file wrote say "SWEEP:LINE"
 * instead, as errors do; one that then says what an earlier one says is dropped. */
static void sweep_locate_warnings(const struct sweep *sw, const struct sweep_overrides *o,
                                  struct config_warnings *w, int before)
{
    static const char prefix[] = "warning: --set ";
    for (int k = before; k < w->count; k++) {
        char *line = w->lines[k];
        for (int i = 0; i < o->n && strncmp(line, prefix, sizeof prefix - 1) == 0; i++) {
            size_t n = strlen(o->items[i]);
            const char *rest = line + sizeof prefix - 1;
            if (o->lines[i] <= 0 || strncmp(rest, o->items[i], n) != 0 ||
                strncmp(rest + n, ": ", 2) != 0)
                continue;
            size_t len = strlen(sw->path) + strlen(rest + n) + 48;
            char *located = malloc(len);
            if (!located)
                return;
            snprintf(located, len, "warning: %s:%d%s", sw->path, o->lines[i], rest + n);
            free(line);
            line = w->lines[k] = located;
        }
        for (int j = 0; j < k; j++)
            if (strcmp(w->lines[j], line) == 0) {
                free(line);
                memmove(&w->lines[k], &w->lines[k + 1],
                        (size_t)(w->count - k - 1) * sizeof *w->lines);
                w->count--;
                k--;
                break;
            }
    }
}

/* sweep_job_config that collects the warnings of settings not in force (NULL: dropped). */
static int sweep_job_config_warn(const struct sweep *sw, const struct sweep_job *job,
                                 const double *load, struct sim_config *cfg,
                                 struct config_warnings *warnings, char err[SWEEP_ERROR_LEN])
{
    struct sweep_overrides o;
    char cerr[CONFIG_ERROR_LEN];
    int rc = -1, before = warnings ? warnings->count : 0;
    if (sweep_overrides_build(sw, job, load, &o) != 0)
        snprintf(err, SWEEP_ERROR_LEN, "out of memory");
    else if (config_load_warn(sw->base, o.items, o.n, cfg, NULL, true, warnings, cerr) != 0)
        sweep_locate_error(sw, job, &o, cerr, err);
    else
        rc = 0;
    if (warnings)
        sweep_locate_warnings(sw, &o, warnings, before);
    sweep_overrides_free(&o);
    return rc;
}

int sweep_job_config(const struct sweep *sw, const struct sweep_job *job, const double *load,
                     struct sim_config *cfg, char err[SWEEP_ERROR_LEN])
{
    return sweep_job_config_warn(sw, job, load, cfg, NULL, err);
}

/* ---- hash ---- */

static uint64_t sweep_fnv(uint64_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= SWEEP_FNV_PRIME;
    }
    return h;
}

/* One more byte: the NUL after a line, which no value can contain, so that lines cannot run
 * into each other whatever a string holds. */
static uint64_t sweep_fnv_end(uint64_t h)
{
    return h * SWEEP_FNV_PRIME; /* h ^= 0 */
}

static void sweep_hash_text(uint64_t h, char out[SWEEP_HASH_LEN])
{
    snprintf(out, SWEEP_HASH_LEN, "%016" PRIx64, h);
}

/* The identity lines being collected. */
struct sweep_lines {
    const struct sim_config *cfg;
    const char **items;
    int n, cap;
    bool failed;
};

static void sweep_lines_add(struct sweep_lines *l, const char *text)
{
    if (l->failed)
        return;
    if (l->n == l->cap) {
        int cap = l->cap * 2 + 64;
        const char **bigger = realloc(l->items, (size_t)cap * sizeof *bigger);
        if (!bigger) {
            l->failed = true;
            return;
        }
        l->items = bigger;
        l->cap = cap;
    }
    char *copy = strdup(text);
    if (!copy)
        l->failed = true;
    else
        l->items[l->n++] = copy;
}

static int sweep_lines_setting(void *ctx, const struct setting_ref *r)
{
    struct sweep_lines *l = ctx;
    if (settings_at_default(l->cfg, r))
        return 0;
    /* A list element by its index ("jobs[1].load"), not its name: the order of the elements
     * is part of the config. */
    char name[96], value[SETTING_LIST_MAX * 12], text[sizeof name + sizeof value + 2];
    settings_full_name(r, name, sizeof name);
    settings_format(l->cfg, r, false, value, sizeof value);
    snprintf(text, sizeof text, "%s=%s", name, value);
    sweep_lines_add(l, text);
    /* A file's content, where its setting says how to digest it (a trace's files): a line of
     * its own, so that configs that set no such file keep their hash. */
    uint64_t digest;
    if (r->row->digest) {
        if (r->row->digest(l->cfg, settings_value(l->cfg, r), &digest) == 0)
            snprintf(text, sizeof text, "%s#content=%016" PRIx64, name, digest);
        else
            snprintf(text, sizeof text, "%s#content=unreadable", name);
        sweep_lines_add(l, text);
    }
    return 0;
}

int sweep_identity_lines(const struct sim_config *cfg, const char ***lines)
{
    struct sweep_lines l = {.cfg = cfg};
    settings_each_in(cfg, sweep_lines_setting, &l);
    /* The number of elements of each list that has some: an element cannot vanish even if
     * all its settings were at their defaults. */
    for (int i = 0; settings_lists[i]; i++) {
        int count = settings_list_count(cfg, settings_lists[i]);
        char text[96];
        snprintf(text, sizeof text, "%s.count=%d", settings_lists[i]->name, count);
        if (count > 0)
            sweep_lines_add(&l, text);
    }
    if (l.failed) {
        sweep_identity_free(l.items, l.n);
        *lines = NULL;
        return -1;
    }
    *lines = l.items;
    return l.n;
}

void sweep_identity_free(const char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free((void *)lines[i]);
    free(lines);
}

static int sweep_line_compare(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static uint64_t sweep_identity_fnv(const char **lines, int n, int model_version)
{
    char model[48];
    snprintf(model, sizeof model, "model_version=%d", model_version);
    qsort(lines, (size_t)n, sizeof *lines, sweep_line_compare);
    uint64_t h = sweep_fnv_end(sweep_fnv(SWEEP_FNV_OFFSET, model));
    for (int i = 0; i < n; i++)
        h = sweep_fnv_end(sweep_fnv(h, lines[i]));
    return h;
}

void sweep_identity_hash(const char **lines, int n, int model_version, char out[SWEEP_HASH_LEN])
{
    sweep_hash_text(sweep_identity_fnv(lines, n, model_version), out);
}

static int sweep_config_fnv_at(const struct sim_config *cfg, int model_version, uint64_t *h)
{
    const char **lines;
    int n = sweep_identity_lines(cfg, &lines);
    if (n < 0)
        return -1;
    *h = sweep_identity_fnv(lines, n, model_version);
    sweep_identity_free(lines, n);
    return 0;
}

int sweep_config_hash_at(const struct sim_config *cfg, int model_version, char out[SWEEP_HASH_LEN])
{
    uint64_t h;
    out[0] = '\0';
    if (sweep_config_fnv_at(cfg, model_version, &h) != 0)
        return -1;
    sweep_hash_text(h, out);
    return 0;
}

int sweep_config_hash(const struct sim_config *cfg, char out[SWEEP_HASH_LEN])
{
    return sweep_config_hash_at(cfg, DFSIM_MODEL_VERSION, out);
}

/* A search is its config at load 0 plus its tolerance and resolution. */
static uint64_t sweep_search_fnv(uint64_t h, const struct sweep_variant *var)
{
    char text[128];
    snprintf(text, sizeof text, "saturation.tolerance=%.17g\nsaturation.resolution=%.17g\n",
             var->tolerance, var->resolution);
    return sweep_fnv(h, text);
}

/* ---- legacy hash ---- */

/* The settings of the release whose documents carry the legacy hash, sorted: settings added
 * since are left out of it, so that those documents keep their hash (until a setting of this
 * list is renamed or removed, or the model version moves on). Never edit this list. */
static const char *const sweep_legacy_settings[] = {
    "buffers.global",
    "buffers.injection",
    "buffers.local",
    "buffers.output",
    "jobs[].allocation_file",
    "jobs[].allreduce_threshold",
    "jobs[].compute_cycles",
    "jobs[].delay_sensitivity",
    "jobs[].dims",
    "jobs[].first_node",
    "jobs[].groups",
    "jobs[].interval_cycles",
    "jobs[].iterations",
    "jobs[].load",
    "jobs[].message_bytes",
    "jobs[].motif",
    "jobs[].name",
    "jobs[].nic_window",
    "jobs[].nodes",
    "jobs[].off_cycles",
    "jobs[].offset",
    "jobs[].on_cycles",
    "jobs[].pattern",
    "jobs[].per_router",
    "jobs[].periodic",
    "jobs[].placement",
    "jobs[].process",
    "jobs[].response_bytes",
    "jobs[].root",
    "jobs[].selector",
    "jobs[].selector_lambda",
    "jobs[].selector_min_bytes",
    "jobs[].selector_sigma",
    "jobs[].targets",
    "jobs[].throttle",
    "jobs[].throttle_bucket_packets",
    "jobs[].throttle_gain",
    "jobs[].throttle_min_rate",
    "jobs[].throttle_rate",
    "jobs[].throttle_step",
    "jobs[].throttle_window_cycles",
    "jobs[].ugal_preset",
    "links.bandwidth_global",
    "links.bandwidth_local",
    "links.bandwidth_node",
    "links.global_latency",
    "links.injection_latency",
    "links.local_latency",
    "router.allocator_iterations",
    "router.arbiter",
    "router.latency",
    "router.speedup",
    "router.transit_priority",
    "routing.fpar_threshold",
    "routing.global_congestion_coef",
    "routing.global_congestion_threshold",
    "routing.global_policy",
    "routing.mechanism",
    "routing.misroute_threshold",
    "routing.pb_coef",
    "routing.pb_global_threshold",
    "routing.pb_local_threshold",
    "routing.th_min",
    "routing.ugal_bias",
    "routing.ugal_bias_mode",
    "routing.ugal_min_candidates",
    "routing.ugal_nonmin_candidates",
    "routing.ugal_preset",
    "routing.ugal_progressive",
    "routing.ugal_weight",
    "routing.valiant_target",
    "sim.deadlock_cycles",
    "sim.isolate",
    "sim.max_cycles",
    "sim.measure_cycles",
    "sim.seed",
    "sim.warmup_cycles",
    "topology.a",
    "topology.arrangement",
    "topology.cascade_groups",
    "topology.col_links",
    "topology.cols",
    "topology.groups",
    "topology.h",
    "topology.kind",
    "topology.leaves",
    "topology.p",
    "topology.row_links",
    "topology.rows",
    "topology.spines",
    "traffic.load",
    "traffic.offset",
    "traffic.packet_size",
    "traffic.pattern",
    "traffic.phit_bytes",
    "vcs.global",
    "vcs.injection",
    "vcs.local",
};

static bool sweep_legacy_has(const struct setting_ref *r)
{
    char name[96];
    settings_full_name(r, name, sizeof name); /* "jobs[2].load" */
    if (r->list)
        snprintf(name, sizeof name, "%s[].%s", r->list->name, r->row->name);
    const char *key = name;
    size_t n = sizeof sweep_legacy_settings / sizeof sweep_legacy_settings[0];
    return bsearch(&key, sweep_legacy_settings, n, sizeof key, sweep_line_compare) != NULL;
}

struct sweep_legacy {
    const struct sim_config *cfg;
    uint64_t h;
};

/* The hash before model versions: "group.name=value\n" of every setting in schema order,
 * quiet_default ones skipped at their default. */
static int sweep_legacy_setting(void *ctx, const struct setting_ref *r)
{
    struct sweep_legacy *hs = ctx;
    if (settings_quiet(hs->cfg, r) || !sweep_legacy_has(r))
        return 0;
    char name[96], value[SETTING_LIST_MAX * 12], text[sizeof name + sizeof value + 2];
    settings_full_name_in(hs->cfg, r, name, sizeof name);
    settings_format(hs->cfg, r, false, value, sizeof value);
    snprintf(text, sizeof text, "%s=%s\n", name, value);
    hs->h = sweep_fnv(hs->h, text);
    return 0;
}

static uint64_t sweep_legacy_fnv(const struct sim_config *cfg)
{
    struct sweep_legacy hs = {cfg, SWEEP_FNV_OFFSET};
    settings_each_in(cfg, sweep_legacy_setting, &hs);
    return hs.h;
}

int sweep_config_hash_legacy(const struct sim_config *cfg, int model_version,
                             char out[SWEEP_HASH_LEN])
{
    out[0] = '\0';
    if (model_version != SWEEP_LEGACY_MODEL_VERSION)
        return -1;
    sweep_hash_text(sweep_legacy_fnv(cfg), out);
    return 0;
}

/* Both hashes of a job (legacy "" when old documents are no longer accepted). */
static int sweep_job_hashes(const struct sweep *sw, struct sweep_job *job,
                            const struct sim_config *cfg)
{
    uint64_t h;
    if (sweep_config_fnv_at(cfg, DFSIM_MODEL_VERSION, &h) != 0)
        return -1;
    if (sweep_job_is_search(sw, job)) {
        const struct sweep_variant *var = &sw->variants[job->variant];
        sweep_hash_text(sweep_search_fnv(h, var), job->hash);
        job->legacy_hash[0] = '\0';
        if (DFSIM_MODEL_VERSION == SWEEP_LEGACY_MODEL_VERSION)
            sweep_hash_text(sweep_search_fnv(sweep_legacy_fnv(cfg), var), job->legacy_hash);
    } else {
        sweep_hash_text(h, job->hash);
        sweep_config_hash_legacy(cfg, DFSIM_MODEL_VERSION, job->legacy_hash);
    }
    return 0;
}

/* ---- file names ---- */

static void sweep_sanitize(char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("._+-", *s))
            *s = '-';
}

/* The readable part: string values as they are, numbers after the setting's short name. */
static void sweep_job_stem(const struct sweep *sw, const struct sweep_job *job, char *out,
                           size_t len)
{
    char part[SWEEP_STEM_LEN];
    out[0] = '\0';
    for (int a = 0; a < sw->n_axes; a++) {
        if (job->choice[a] < 0)
            continue;
        const struct sweep_value *v = &sw->axes[a].values[job->choice[a]];
        const char *name = strchr(sw->axes[a].key, '.') + 1;
        char literal[64];
        sweep_value_literal(v, literal, sizeof literal);
        if (v->type == SWEEP_STRING)
            snprintf(part, sizeof part, "%.60s", v->s);
        else if (v->type == SWEEP_BOOL)
            snprintf(part, sizeof part, "%s%s", v->b ? "" : "no-", name);
        else
            snprintf(part, sizeof part, "%s%s", name, literal);
        sweep_sanitize(part);
        size_t used = strlen(out);
        if (used + strlen(part) + 2 < len && used + strlen(part) < SWEEP_STEM_LEN)
            snprintf(out + used, len - used, "%s%s", used ? "_" : "", part);
    }
    if (!out[0])
        snprintf(out, len, "%s", sweep_job_is_search(sw, job) ? "saturation" : "point");
}

static char *sweep_job_file(const struct sweep *sw, const struct sweep_job *job)
{
    char stem[SWEEP_STEM_LEN + 8], file[SWEEP_NAME_LEN + SWEEP_STEM_LEN + 40];
    const char *variant = sw->variants[job->variant].name;
    sweep_job_stem(sw, job, stem, sizeof stem);
    if (sweep_job_is_search(sw, job))
        snprintf(file, sizeof file, "%s%s%s", variant, variant[0] ? "/" : "", stem);
    else
        snprintf(file, sizeof file, "%s%s%s_%s.json", variant, variant[0] ? "/" : "", stem,
                 job->hash);
    return strdup(file);
}

void sweep_step_file(const struct sweep_job *job, double load, const char *hash, char *out,
                     size_t len)
{
    snprintf(out, len, "%s_load%.15g_%s.json", job->file, load, hash);
}

bool sweep_job_legacy_file(const struct sweep_job *job, char *out, size_t len)
{
    char tail[SWEEP_HASH_LEN + 8];
    snprintf(tail, sizeof tail, "%s.json", job->hash);
    size_t n = strlen(job->file), k = strlen(tail);
    if (!job->legacy_hash[0] || n < k || strcmp(job->file + n - k, tail) != 0)
        return false; /* a search: its steps are named after their own configs' hashes */
    snprintf(out, len, "%.*s%s.json", (int)(n - k), job->file, job->legacy_hash);
    return true;
}

/* ---- expansion ---- */

static long long sweep_variant_points(const struct sweep *sw, int v)
{
    long long n = 1;
    for (int a = 0; a < sw->n_axes && n <= SWEEP_MAX_JOBS; a++)
        if (sweep_axis_applies(sw, v, a))
            n *= sw->axes[a].n_values;
    return n;
}

/* Next combination of variant v after `choice` (the last applicable axis fastest); returns
 * false after the last one. */
static bool sweep_next_choice(const struct sweep *sw, int v, int *choice)
{
    for (int a = sw->n_axes - 1; a >= 0; a--) {
        if (!sweep_axis_applies(sw, v, a))
            continue;
        if (++choice[a] < sw->axes[a].n_values)
            return true;
        choice[a] = 0;
    }
    return false;
}

/* Resolves the config of a job (validating it) and fills its hash and file. */
static int sweep_job_resolve(const struct sweep *sw, struct sweep_job *job,
                             struct config_warnings *warnings, char *err)
{
    struct sim_config cfg;
    const double zero = 0;
    bool search = sweep_job_is_search(sw, job);
    if (sweep_job_config_warn(sw, job, search ? &zero : NULL, &cfg, warnings, err) != 0)
        return -1;
    if (sweep_job_hashes(sw, job, &cfg) == 0)
        job->file = sweep_job_file(sw, job);
    if (!job->file) {
        snprintf(err, SWEEP_ERROR_LEN, "out of memory");
        return -1;
    }
    return 0;
}

static int sweep_grid_alloc(const struct sweep *sw, struct sweep_grid *grid, char *err)
{
    long long total = 0;
    for (int v = 0; v < sw->n_variants; v++)
        total += sweep_variant_points(sw, v);
    if (total > SWEEP_MAX_JOBS) {
        snprintf(err, SWEEP_ERROR_LEN,
                 "%.400s: the grid has more than %d points (expected fewer "
                 "values on the axes)",
                 sw->path, SWEEP_MAX_JOBS);
        return -1;
    }
    size_t axes = sw->n_axes > 0 ? (size_t)sw->n_axes : 1;
    grid->jobs = calloc((size_t)total, sizeof *grid->jobs);
    grid->choices = calloc((size_t)total * axes, sizeof *grid->choices);
    if (!grid->jobs || !grid->choices) {
        snprintf(err, SWEEP_ERROR_LEN, "out of memory");
        return -1;
    }
    grid->n_jobs = (int)total;
    return 0;
}

int sweep_expand(const struct sweep *sw, struct sweep_grid *grid, char err[SWEEP_ERROR_LEN])
{
    memset(grid, 0, sizeof *grid);
    if (sweep_grid_alloc(sw, grid, err) != 0) {
        sweep_grid_free(grid);
        return -1;
    }
    size_t axes = sw->n_axes > 0 ? (size_t)sw->n_axes : 1;
    int j = 0;
    for (int v = 0; v < sw->n_variants; v++) {
        int *choice = &grid->choices[(size_t)j * axes];
        for (int a = 0; a < sw->n_axes; a++)
            choice[a] = sweep_axis_applies(sw, v, a) ? 0 : -1;
        for (;;) {
            struct sweep_job *job = &grid->jobs[j++];
            job->variant = v;
            job->choice = choice;
            if (sweep_job_resolve(sw, job, &grid->warnings, err) != 0) {
                sweep_grid_free(grid);
                return -1;
            }
            if (j == grid->n_jobs)
                break;
            int *next = &grid->choices[(size_t)j * axes];
            memcpy(next, choice, (size_t)sw->n_axes * sizeof *choice);
            if (!sweep_next_choice(sw, v, next))
                break;
            choice = next;
        }
    }
    return 0;
}

void sweep_grid_free(struct sweep_grid *grid)
{
    for (int j = 0; j < grid->n_jobs; j++)
        free(grid->jobs[j].file);
    free(grid->jobs);
    free(grid->choices);
    config_warnings_free(&grid->warnings);
    memset(grid, 0, sizeof *grid);
}
