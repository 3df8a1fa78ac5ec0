/* sweep_merge: builds DIR/sweep.json from the point documents found in DIR. */
#include "sweep_merge.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_schema.h"
#include "saturation.h"
#include "sweep_doc.h"

/* One point document found in DIR. */
struct sweep_merge_entry {
    char *file;
    cJSON *doc;
    const cJSON *meta; /* doc's "sweep" object */
    double index;
    double load; /* saturation steps: the load tried; NAN otherwise */
};

struct sweep_merge {
    const char *dir;
    struct sweep_merge_entry *entries;
    int n, cap;
};

/* ---- statistics ---- */

double sweep_merge_t975(int df)
{
    static const double t[] = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    };
    if (df < 1)
        return 0;
    return df <= 30 ? t[df - 1] : 1.96;
}

void sweep_merge_stats(const double *values, int n, double *mean, double *ci95)
{
    double sum = 0, squares = 0;
    for (int i = 0; i < n; i++)
        sum += values[i];
    *mean = n > 0 ? sum / n : 0;
    for (int i = 0; i < n; i++)
        squares += (values[i] - *mean) * (values[i] - *mean);
    *ci95 = n > 1 ? sweep_merge_t975(n - 1) * sqrt(squares / (n - 1)) / sqrt(n) : 0;
}

/* ---- collecting the documents ---- */

static const cJSON *sweep_merge_get(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static const char *sweep_merge_string(const cJSON *obj, const char *key)
{
    const cJSON *item = sweep_merge_get(obj, key);
    return cJSON_IsString(item) ? item->valuestring : "";
}

static bool sweep_merge_is_point(const cJSON *meta)
{
    return cJSON_IsObject(meta) && cJSON_IsString(sweep_merge_get(meta, "name")) &&
           cJSON_IsString(sweep_merge_get(meta, "variant")) &&
           cJSON_IsObject(sweep_merge_get(meta, "point")) &&
           cJSON_IsString(sweep_merge_get(meta, "hash")) &&
           cJSON_IsNumber(sweep_merge_get(meta, "index"));
}

static int sweep_merge_add(struct sweep_merge *m, const char *file, cJSON *doc)
{
    if (m->n == m->cap) {
        int cap = m->cap * 2 + 64;
        struct sweep_merge_entry *bigger = realloc(m->entries, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return -1;
        m->entries = bigger;
        m->cap = cap;
    }
    struct sweep_merge_entry *e = &m->entries[m->n];
    e->doc = doc;
    e->meta = sweep_merge_get(doc, "sweep");
    e->index = sweep_merge_get(e->meta, "index")->valuedouble;
    e->load = sweep_doc_number(e->meta, "saturation.load");
    e->file = strdup(file);
    if (!e->file)
        return -1;
    m->n++;
    return 0;
}

static int sweep_merge_visit(void *ctx, const char *file)
{
    struct sweep_merge *m = ctx;
    cJSON *doc = sweep_doc_load(m->dir, file);
    if (!doc || !sweep_merge_is_point(sweep_merge_get(doc, "sweep"))) {
        fprintf(stderr, "dfsim: merge: skipping %s/%s: %s\n", m->dir, file,
                doc ? "not a sweep point document (no \"sweep\" object)" : "not valid JSON");
        cJSON_Delete(doc);
        return 0;
    }
    if (sweep_merge_add(m, file, doc) != 0) {
        cJSON_Delete(doc);
        return -1;
    }
    return 0;
}

/* Points by index (variant order, then the axes), steps by load; file names break ties. */
static int sweep_merge_compare(const void *pa, const void *pb)
{
    const struct sweep_merge_entry *a = pa, *b = pb;
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    if (!isnan(a->load) && !isnan(b->load) && a->load != b->load)
        return a->load < b->load ? -1 : 1;
    return strcmp(a->file, b->file);
}

static void sweep_merge_free(struct sweep_merge *m)
{
    for (int i = 0; i < m->n; i++) {
        free(m->entries[i].file);
        cJSON_Delete(m->entries[i].doc);
    }
    free(m->entries);
}

/* ---- summaries of points and steps ---- */

static cJSON *sweep_merge_number_or_null(double x)
{
    return isnan(x) || isinf(x) ? cJSON_CreateNull() : cJSON_CreateNumber(x);
}

static bool sweep_merge_add_item(cJSON *obj, const char *key, cJSON *item)
{
    if (item && cJSON_AddItemToObject(obj, key, item))
        return true;
    cJSON_Delete(item);
    return false;
}

static bool sweep_merge_append(cJSON *array, cJSON *item)
{
    if (item && cJSON_AddItemToArray(array, item))
        return true;
    cJSON_Delete(item);
    return false;
}

static bool sweep_merge_add_copy(cJSON *obj, const char *key, const cJSON *item)
{
    return sweep_merge_add_item(obj, key, cJSON_Duplicate(item, true));
}

static bool sweep_merge_add_number(cJSON *obj, const char *key, double x)
{
    return sweep_merge_add_item(obj, key, sweep_merge_number_or_null(x));
}

/* {"NAME": {job figures...}, ...} of a document with jobs (NULL: none, or out of memory with
 * *ok false). */
static cJSON *sweep_merge_job_summaries(const cJSON *doc, bool *ok)
{
    const cJSON *jobs = sweep_merge_get(doc, "jobs");
    if (!cJSON_IsArray(jobs))
        return NULL;
    struct result_figures figures;
    result_schema_job_figures(&figures);
    cJSON *out = cJSON_CreateObject();
    *ok = out != NULL;
    const cJSON *job;
    cJSON_ArrayForEach(job, jobs)
    {
        cJSON *summary = *ok ? cJSON_CreateObject() : NULL;
        *ok = summary && sweep_merge_add_item(out, sweep_merge_string(job, "name"), summary);
        for (int f = 0; *ok && f < figures.n; f++)
            if (sweep_doc_has(job, figures.items[f].path)) /* closed-loop figures: not open */
                *ok = sweep_merge_add_number(summary, figures.items[f].figure->name,
                                             sweep_doc_number(job, figures.items[f].path));
    }
    if (!*ok) {
        cJSON_Delete(out);
        return NULL;
    }
    return out;
}

/* ---- every scalar metric ---- */

/* The parts of a point document that are not its metrics: the program, the run's timing, the
 * config echo, the sweep's metadata, the jobs (their figures go under "jobs"). */
static bool sweep_merge_not_metric(const char *key)
{
    static const char *const skipped[] = {"dfsim", "timing", "config", "sweep", "jobs", NULL};
    for (int i = 0; skipped[i]; i++)
        if (strcmp(key, skipped[i]) == 0)
            return true;
    return false;
}

/* Adds every number (or null) under obj to out as "path.to.leaf": value; arrays (per-router,
 * per-group, series) are not scalars and are left out. */
static bool sweep_merge_flatten(const cJSON *obj, const char *prefix, cJSON *out)
{
    const cJSON *item;
    bool ok = true;
    cJSON_ArrayForEach(item, obj)
    {
        if (!ok || !item->string || (!prefix[0] && sweep_merge_not_metric(item->string)))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", item->string);
        if (cJSON_IsObject(item))
            ok = sweep_merge_flatten(item, path, out);
        else if (cJSON_IsNumber(item))
            ok = cJSON_AddNumberToObject(out, path, item->valuedouble) != NULL;
        else if (cJSON_IsNull(item))
            ok = cJSON_AddNullToObject(out, path) != NULL;
    }
    return ok;
}

/* {"latency.p99": 123, ...}: every scalar metric of a point document. */
static cJSON *sweep_merge_metrics(const cJSON *doc)
{
    cJSON *out = cJSON_CreateObject();
    if (out && !sweep_merge_flatten(doc, "", out)) {
        cJSON_Delete(out);
        return NULL;
    }
    return out;
}

/* {"file", "variant", "point", "hash", "index", key figures..., "jobs"} of a point document
 * (the figures with a sweep_rank in the result schema, in rank order; with jobs, each job's
 * figures under its name); a saturation step also gets "load", "tolerance", "resolution"
 * (used to build its search). */
static cJSON *sweep_merge_summary(const struct sweep_merge_entry *e)
{
    cJSON *p = cJSON_CreateObject();
    bool ok = p && cJSON_AddStringToObject(p, "file", e->file) &&
              sweep_merge_add_copy(p, "variant", sweep_merge_get(e->meta, "variant")) &&
              sweep_merge_add_copy(p, "point", sweep_merge_get(e->meta, "point")) &&
              sweep_merge_add_copy(p, "hash", sweep_merge_get(e->meta, "hash")) &&
              sweep_merge_add_copy(p, "index", sweep_merge_get(e->meta, "index"));
    struct result_figures figures;
    result_schema_figures(&figures);
    for (int f = 0; ok && f < figures.n; f++)
        if (figures.items[f].figure->sweep_rank)
            ok = sweep_merge_add_number(p, figures.items[f].figure->name,
                                        sweep_doc_number(e->doc, figures.items[f].path));
    cJSON *jobs = ok ? sweep_merge_job_summaries(e->doc, &ok) : NULL;
    if (jobs)
        ok = ok && sweep_merge_add_item(p, "jobs", jobs);
    if (ok)
        ok = sweep_merge_add_item(p, "metrics", sweep_merge_metrics(e->doc));
    if (ok && !isnan(e->load))
        ok = sweep_merge_add_number(p, "load", e->load) &&
             sweep_merge_add_number(p, "tolerance",
                                    sweep_doc_number(e->meta, "saturation.tolerance")) &&
             sweep_merge_add_number(p, "resolution",
                                    sweep_doc_number(e->meta, "saturation.resolution"));
    if (!ok) {
        cJSON_Delete(p);
        return NULL;
    }
    return p;
}

/* ---- groups ---- */

/* The group key of a summary: its variant and its point without sim.seed, or (by_index) its
 * variant and index (the steps of one search). Caller frees. */
static char *sweep_merge_key(const cJSON *summary, bool by_index)
{
    const char *variant = sweep_merge_string(summary, "variant");
    cJSON *point = cJSON_Duplicate(sweep_merge_get(summary, "point"), true);
    char *text = NULL, *key = NULL;
    if (point) {
        cJSON_DeleteItemFromObjectCaseSensitive(point, "sim.seed");
        text = cJSON_PrintUnformatted(point);
    }
    size_t len = strlen(variant) + (text ? strlen(text) : 0) + 48;
    if (text && (key = malloc(len))) {
        if (by_index)
            snprintf(key, len, "%s\x1f%020.0f", variant,
                     sweep_merge_get(summary, "index")->valuedouble);
        else
            snprintf(key, len, "%s\x1f%s", variant, text);
    }
    free(text);
    cJSON_Delete(point);
    return key;
}

/* {"mean", "ci95"} over the members' non-null values of a figure; a figure with a nulls_key
 * (max_min: null when a router starved) also counts the null values under that key. */
static cJSON *sweep_merge_figure_stats(const cJSON *const *members, int n, const char *figure,
                                       const char *nulls_key)
{
    double *values = calloc((size_t)(n > 0 ? n : 1), sizeof *values), mean, ci95;
    if (!values)
        return NULL;
    int used = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *v = sweep_merge_get(members[i], figure);
        if (cJSON_IsNumber(v))
            values[used++] = v->valuedouble;
    }
    sweep_merge_stats(values, used, &mean, &ci95);
    free(values);
    cJSON *s = cJSON_CreateObject();
    bool ok = s && sweep_merge_add_number(s, "mean", used ? mean : NAN) &&
              sweep_merge_add_number(s, "ci95", used ? ci95 : NAN);
    if (ok && nulls_key)
        ok = cJSON_AddNumberToObject(s, nulls_key, n - used) != NULL;
    if (!ok) {
        cJSON_Delete(s);
        return NULL;
    }
    return s;
}

/* The common head of a group: "variant", "point" without sim.seed, "seeds". */
static cJSON *sweep_merge_group_head(const cJSON *first, int n)
{
    cJSON *g = cJSON_CreateObject();
    cJSON *point = cJSON_Duplicate(sweep_merge_get(first, "point"), true);
    if (point)
        cJSON_DeleteItemFromObjectCaseSensitive(point, "sim.seed");
    bool ok = g && sweep_merge_add_copy(g, "variant", sweep_merge_get(first, "variant"));
    if (!ok)
        cJSON_Delete(point);
    ok = ok && sweep_merge_add_item(g, "point", point) && cJSON_AddNumberToObject(g, "seeds", n);
    if (!ok) {
        cJSON_Delete(g);
        return NULL;
    }
    return g;
}

/* {"NAME": {figure: {"mean", "ci95"}}} over the members' job summaries (the jobs of the first
 * member; a member without one of them counts as null). NULL without jobs or memory. */
static cJSON *sweep_merge_job_groups(const cJSON *const *members, int n, bool *ok)
{
    const cJSON *first = sweep_merge_get(members[0], "jobs");
    if (!cJSON_IsObject(first))
        return NULL;
    struct result_figures figures;
    result_schema_job_figures(&figures);
    const cJSON **jobs = calloc((size_t)n, sizeof *jobs);
    cJSON *out = jobs ? cJSON_CreateObject() : NULL;
    *ok = out != NULL;
    const cJSON *job;
    cJSON_ArrayForEach(job, first)
    {
        for (int i = 0; *ok && i < n; i++)
            jobs[i] = sweep_merge_get(sweep_merge_get(members[i], "jobs"), job->string);
        cJSON *g = *ok ? cJSON_CreateObject() : NULL;
        *ok = g && sweep_merge_add_item(out, job->string, g);
        for (int f = 0; *ok && f < figures.n; f++)
            if (sweep_merge_get(job, figures.items[f].figure->name))
                *ok = sweep_merge_add_item(g, figures.items[f].figure->name,
                                       sweep_merge_figure_stats(jobs, n,
                                                                figures.items[f].figure->name,
                                                                figures.items[f].figure->nulls_key));
    }
    free(jobs);
    if (!*ok) {
        cJSON_Delete(out);
        return NULL;
    }
    return out;
}

/* {"latency.p99": {"mean", "ci95"}, ...} over the members' metrics (every metric any member
 * has, in order of first appearance; a member without one counts as null), as the figures. */
static cJSON *sweep_merge_metric_groups(const cJSON *const *members, int n)
{
    const cJSON **metrics = calloc((size_t)(n > 0 ? n : 1), sizeof *metrics);
    cJSON *out = metrics ? cJSON_CreateObject() : NULL;
    bool ok = out != NULL;
    for (int i = 0; ok && i < n; i++)
        metrics[i] = sweep_merge_get(members[i], "metrics");
    for (int i = 0; ok && i < n; i++) {
        const cJSON *m;
        cJSON_ArrayForEach(m, metrics[i])
        {
            if (!ok || sweep_merge_get(out, m->string))
                continue;
            ok = sweep_merge_add_item(out, m->string,
                                      sweep_merge_figure_stats(metrics, n, m->string, NULL));
        }
    }
    free(metrics);
    if (!ok) {
        cJSON_Delete(out);
        return NULL;
    }
    return out;
}

static cJSON *sweep_merge_point_group(const cJSON *const *members, int n)
{
    struct result_figures figures;
    result_schema_figures(&figures);
    cJSON *g = sweep_merge_group_head(members[0], n);
    bool ok = g != NULL;
    for (int f = 0; ok && f < figures.n; f++) {
        const struct result_figure *figure = figures.items[f].figure;
        if (figure->averaged)
            ok = sweep_merge_add_item(
                g, figure->name,
                sweep_merge_figure_stats(members, n, figure->name, figure->nulls_key));
    }
    cJSON *jobs = ok ? sweep_merge_job_groups(members, n, &ok) : NULL;
    if (jobs)
        ok = ok && sweep_merge_add_item(g, "jobs", jobs);
    if (ok)
        ok = sweep_merge_add_item(g, "metrics", sweep_merge_metric_groups(members, n));
    if (!ok) {
        cJSON_Delete(g);
        return NULL;
    }
    return g;
}

/* Orders members by group key, then position, so that each group is a run. */
struct sweep_merge_order {
    const char *key;
    int position;
};

static int sweep_merge_order_compare(const void *pa, const void *pb)
{
    const struct sweep_merge_order *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : a->position - b->position;
}

/* Runs as (position of the first member, start in the order): sorted by first member. */
static int sweep_merge_run_compare(const void *pa, const void *pb)
{
    return ((const int *)pa)[0] - ((const int *)pb)[0];
}

/* Appends make(members, count) to `out` for each group of items (grouped by keys[i]), in the
 * order of their first member. Returns 0 or -1. */
static int sweep_merge_groups(const cJSON *const *items, char *const *keys, int n, cJSON *out,
                              cJSON *(*make)(const cJSON *const *, int))
{
    size_t size = (size_t)(n > 0 ? n : 1);
    struct sweep_merge_order *order = malloc(size * sizeof *order);
    int *runs = malloc(size * 2 * sizeof *runs);
    const cJSON **members = malloc(size * sizeof *members);
    int n_runs = 0, rc = order && runs && members ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; i++)
        order[i] = (struct sweep_merge_order){keys[i], i};
    if (rc == 0)
        qsort(order, (size_t)n, sizeof *order, sweep_merge_order_compare);
    for (int i = 0; rc == 0 && i < n; i++)
        if (i == 0 || strcmp(order[i].key, order[i - 1].key) != 0) {
            runs[2 * n_runs] = order[i].position;
            runs[2 * n_runs++ + 1] = i;
        }
    if (rc == 0)
        qsort(runs, (size_t)n_runs, 2 * sizeof *runs, sweep_merge_run_compare);
    for (int r = 0; rc == 0 && r < n_runs; r++) {
        int start = runs[2 * r + 1], count = 0;
        while (start + count < n && strcmp(order[start + count].key, order[start].key) == 0) {
            members[count] = items[order[start + count].position];
            count++;
        }
        rc = sweep_merge_append(out, make(members, count)) ? 0 : -1;
    }
    free(order);
    free(runs);
    free(members);
    return rc;
}

/* Groups the items of `array` by key (by_index: the steps of a search) into `out`. */
static int sweep_merge_group_array(const cJSON *array, bool by_index, cJSON *out,
                                   cJSON *(*make)(const cJSON *const *, int))
{
    int n = cJSON_GetArraySize(array), made = 0, rc = -1;
    const cJSON **items = malloc((size_t)(n > 0 ? n : 1) * sizeof *items);
    char **keys = calloc((size_t)(n > 0 ? n : 1), sizeof *keys);
    const cJSON *item;
    if (items && keys) {
        cJSON_ArrayForEach(item, array)
        {
            items[made] = item;
            if (!(keys[made++] = sweep_merge_key(item, by_index)))
                break;
        }
        if (made == n && (n == 0 || keys[n - 1]))
            rc = sweep_merge_groups(items, keys, n, out, make);
    }
    for (int i = 0; keys && i < made; i++)
        free(keys[i]);
    free(keys);
    free(items);
    return rc;
}

/* ---- saturation searches ---- */

/* Probes answered from the steps of one search. */
struct sweep_merge_replay {
    const cJSON *const *steps;
    int n;
    double tolerance;
};

static int sweep_merge_replay_probe(void *ctx, double load, bool *accepts)
{
    const struct sweep_merge_replay *r = ctx;
    for (int i = 0; i < r->n; i++) {
        if (fabs(sweep_doc_number(r->steps[i], "load") - load) > 1e-12)
            continue;
        double offered = sweep_doc_number(r->steps[i], "offered");
        double accepted = sweep_doc_number(r->steps[i], "accepted");
        if (isnan(offered) || isnan(accepted))
            return 1;
        *accepts = saturation_accepts(offered, accepted, r->tolerance);
        return 0;
    }
    return 1;
}

static cJSON *sweep_merge_step(const cJSON *s, double tolerance)
{
    cJSON *step = cJSON_CreateObject();
    double offered = sweep_doc_number(s, "offered"), accepted = sweep_doc_number(s, "accepted");
    bool ok =
        step && sweep_merge_add_copy(step, "file", sweep_merge_get(s, "file")) &&
        sweep_merge_add_copy(step, "load", sweep_merge_get(s, "load")) &&
        sweep_merge_add_number(step, "offered", offered) &&
        sweep_merge_add_number(step, "accepted", accepted) &&
        cJSON_AddBoolToObject(step, "accepts", saturation_accepts(offered, accepted, tolerance));
    if (!ok) {
        cJSON_Delete(step);
        return NULL;
    }
    return step;
}

/* One search: {"variant", "point", "index", "tolerance", "resolution", "load" (null while
 * incomplete), "complete", "steps": [{"file", "load", "offered", "accepted", "accepts"}]}. */
static cJSON *sweep_merge_search(const cJSON *const *steps, int n)
{
    struct sweep_merge_replay replay = {steps, n, sweep_doc_number(steps[0], "tolerance")};
    double resolution = sweep_doc_number(steps[0], "resolution"), load = NAN;
    int probes;
    bool complete = resolution > 0 && saturation_search(resolution, sweep_merge_replay_probe,
                                                        &replay, &load, &probes) == 0;
    cJSON *g = cJSON_CreateObject(), *list = cJSON_CreateArray();
    bool ok = g && list &&
              sweep_merge_add_copy(g, "variant", sweep_merge_get(steps[0], "variant")) &&
              sweep_merge_add_copy(g, "point", sweep_merge_get(steps[0], "point")) &&
              sweep_merge_add_copy(g, "index", sweep_merge_get(steps[0], "index")) &&
              sweep_merge_add_number(g, "tolerance", replay.tolerance) &&
              sweep_merge_add_number(g, "resolution", resolution) &&
              sweep_merge_add_number(g, "load", complete ? load : NAN) &&
              cJSON_AddBoolToObject(g, "complete", complete);
    for (int i = 0; ok && i < n; i++)
        ok = sweep_merge_append(list, sweep_merge_step(steps[i], replay.tolerance));
    ok = ok && sweep_merge_add_item(g, "steps", list);
    if (!ok) {
        if (g && !cJSON_GetObjectItemCaseSensitive(g, "steps"))
            cJSON_Delete(list);
        cJSON_Delete(g);
        return NULL;
    }
    return g;
}

static cJSON *sweep_merge_search_group(const cJSON *const *members, int n)
{
    cJSON *g = sweep_merge_group_head(members[0], n);
    if (g && !sweep_merge_add_item(g, "load", sweep_merge_figure_stats(members, n, "load", NULL))) {
        cJSON_Delete(g);
        return NULL;
    }
    return g;
}

/* ---- the document ---- */

/* Splits the entries into the summaries of points and of saturation steps. */
static int sweep_merge_summaries(const struct sweep_merge *m, cJSON *points, cJSON *steps)
{
    for (int i = 0; i < m->n; i++) {
        const struct sweep_merge_entry *e = &m->entries[i];
        if (!sweep_merge_append(isnan(e->load) ? points : steps, sweep_merge_summary(e)))
            return -1;
    }
    return 0;
}

static int sweep_merge_saturation(cJSON *doc, const cJSON *steps)
{
    if (cJSON_GetArraySize(steps) == 0)
        return 0;
    cJSON *searches = cJSON_AddArrayToObject(doc, "saturation");
    cJSON *groups = cJSON_AddArrayToObject(doc, "saturation_groups");
    if (!searches || !groups ||
        sweep_merge_group_array(steps, true, searches, sweep_merge_search) != 0)
        return -1;
    return sweep_merge_group_array(searches, false, groups, sweep_merge_search_group);
}

static cJSON *sweep_merge_document(const struct sweep_merge *m, const char *name)
{
    cJSON *doc = cJSON_CreateObject(), *steps = cJSON_CreateArray();
    if (m->n > 0)
        name = sweep_merge_string(m->entries[0].meta, "name");
    cJSON *points = doc && cJSON_AddStringToObject(doc, "sweep", name)
                        ? cJSON_AddArrayToObject(doc, "points")
                        : NULL;
    cJSON *groups = points ? cJSON_AddArrayToObject(doc, "groups") : NULL;
    bool ok = groups && steps && sweep_merge_summaries(m, points, steps) == 0 &&
              sweep_merge_group_array(points, false, groups, sweep_merge_point_group) == 0 &&
              sweep_merge_saturation(doc, steps) == 0;
    cJSON_Delete(steps);
    if (!ok) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

static const char *sweep_merge_basename(const char *dir, char *buf, size_t len)
{
    snprintf(buf, len, "%s", dir);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    const char *slash = strrchr(buf, '/');
    return slash ? slash + 1 : buf;
}

static int sweep_merge_write(const struct sweep_merge *m, const char *name, char *err, size_t len)
{
    char base[SWEEP_PATH_LEN];
    cJSON *doc =
        sweep_merge_document(m, name ? name : sweep_merge_basename(m->dir, base, sizeof base));
    char *text = doc ? cJSON_Print(doc) : NULL;
    size_t n = text ? strlen(text) : 0;
    char *line = text ? malloc(n + 2) : NULL;
    int rc = -1;
    if (!line) {
        snprintf(err, len, "cannot build %s/sweep.json: out of memory", m->dir);
    } else {
        memcpy(line, text, n);
        memcpy(line + n, "\n", 2);
        rc = sweep_doc_write(m->dir, "sweep.json", line, err, len);
    }
    free(line);
    free(text);
    cJSON_Delete(doc);
    return rc;
}

int sweep_merge(const char *dir, const char *name, int *n_points, char *err, size_t len)
{
    struct sweep_merge m = {.dir = dir};
    int rc = sweep_doc_scan(dir, sweep_merge_visit, &m);
    if (rc != 0)
        snprintf(err, len, rc < 0 && m.n == 0 ? "cannot read %s" : "out of memory reading %s", dir);
    if (rc == 0) {
        qsort(m.entries, (size_t)m.n, sizeof *m.entries, sweep_merge_compare);
        rc = sweep_merge_write(&m, name, err, len);
    }
    *n_points = m.n;
    sweep_merge_free(&m);
    return rc;
}
