/* sweep_sync: stale documents to DIR/.stale/ and back, current metadata in kept documents. */
#include "sweep_sync.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_doc.h"
#include "sweep_run.h"

#define SWEEP_SYNC_STALE ".stale"

/* A job by file name (points) or stem (searches). */
struct sweep_sync_name {
    const char *name;
    int job;
};

struct sweep_sync {
    const struct sweep *sw;
    const struct sweep_grid *grid;
    const char *dir;
    struct sweep_sync_name *names;
    int n_names;
    struct sweep_sync_report *rep;
    char *err;
    size_t len;
};

static int sweep_sync_compare(const void *pa, const void *pb)
{
    return strcmp(((const struct sweep_sync_name *)pa)->name,
                  ((const struct sweep_sync_name *)pb)->name);
}

static int sweep_sync_find(const struct sweep_sync *s, const char *name)
{
    struct sweep_sync_name key = {name, 0};
    const struct sweep_sync_name *hit =
        bsearch(&key, s->names, (size_t)s->n_names, sizeof key, sweep_sync_compare);
    return hit ? hit->job : -1;
}

/* Moves DIR/FROM_PREFIX/FILE to DIR/TO_PREFIX/FILE ("" = DIR itself). */
static int sweep_sync_move(const struct sweep_sync *s, const char *from, const char *to,
                           const char *file)
{
    char a[SWEEP_PATH_LEN], b[SWEEP_PATH_LEN];
    snprintf(a, sizeof a, "%.2000s%s%s/%.1000s", s->dir, from[0] ? "/" : "", from, file);
    snprintf(b, sizeof b, "%.2000s%s%s/%.1000s", s->dir, to[0] ? "/" : "", to, file);
    char *slash = strrchr(b, '/');
    *slash = '\0';
    int rc = sweep_doc_mkdirs(b);
    *slash = '/';
    if (rc == 0 && rename(a, b) == 0)
        return 0;
    snprintf(s->err, s->len, "cannot move %s to %s: %s", a, b, strerror(errno));
    return -1;
}

/* The job a saturation step belongs to, if its file is STEM_load<L>_<HASH>.json. */
static int sweep_sync_search_of(const struct sweep_sync *s, const char *file, const cJSON *meta)
{
    double load = sweep_doc_number(meta, "saturation.load");
    const cJSON *hash = cJSON_GetObjectItemCaseSensitive(meta, "hash");
    char suffix[128], stem[SWEEP_PATH_LEN];
    if (isnan(load) || !cJSON_IsString(hash))
        return -1;
    snprintf(suffix, sizeof suffix, "_load%.15g_%.20s.json", load, hash->valuestring);
    size_t n = strlen(file), k = strlen(suffix);
    if (n <= k || strcmp(file + n - k, suffix) != 0)
        return -1;
    snprintf(stem, sizeof stem, "%.*s", (int)(n - k), file);
    return sweep_sync_find(s, stem);
}

/* The hash a document at `file` must have to belong to job j; false if none fits. */
static bool sweep_sync_expected(const struct sweep_sync *s, int j, const cJSON *meta,
                                char hash[SWEEP_HASH_LEN])
{
    const struct sweep_job *job = &s->grid->jobs[j];
    if (!sweep_job_is_search(s->sw, job)) {
        snprintf(hash, SWEEP_HASH_LEN, "%s", job->hash);
        return true;
    }
    double load = sweep_doc_number(meta, "saturation.load");
    struct sim_config cfg;
    char err[SWEEP_ERROR_LEN];
    if (sweep_job_config(s->sw, job, &load, &cfg, err) != 0)
        return false;
    sweep_config_hash(&cfg, hash);
    return true;
}

/* Same JSON text (integers of the point are raw items when built, numbers when parsed). */
static bool sweep_sync_same(const cJSON *a, const cJSON *b)
{
    char *ta = cJSON_PrintUnformatted(a), *tb = cJSON_PrintUnformatted(b);
    bool same = ta && tb && strcmp(ta, tb) == 0;
    free(ta);
    free(tb);
    return same;
}

/* A kept document whose "sweep" object differs from the current one is updated. */
static int sweep_sync_update(struct sweep_sync *s, const char *file, int j, const cJSON *meta,
                             const char *hash)
{
    double load = sweep_doc_number(meta, "saturation.load");
    cJSON *want = sweep_doc_meta(s->sw, s->grid, j, hash, isnan(load) ? NULL : &load);
    int rc = want ? 0 : -1;
    if (want && !sweep_sync_same(want, meta)) {
        rc = sweep_doc_replace_meta(s->dir, file, want, s->err, s->len);
        s->rep->updated += rc == 0;
    }
    if (!want)
        snprintf(s->err, s->len, "out of memory");
    cJSON_Delete(want);
    return rc;
}

static int sweep_sync_visit(void *ctx, const char *file)
{
    struct sweep_sync *s = ctx;
    cJSON *doc = sweep_doc_load(s->dir, file);
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(doc, "sweep");
    if (!cJSON_IsObject(meta)) { /* not a point document: leave it alone */
        cJSON_Delete(doc);
        return 0;
    }
    bool step = cJSON_GetObjectItemCaseSensitive(meta, "saturation") != NULL;
    int j = step ? sweep_sync_search_of(s, file, meta) : sweep_sync_find(s, file);
    char hash[SWEEP_HASH_LEN];
    int rc;
    if (j >= 0 && sweep_sync_expected(s, j, meta, hash) && sweep_doc_has_hash(doc, hash)) {
        rc = sweep_sync_update(s, file, j, meta, hash);
    } else {
        rc = sweep_sync_move(s, "", SWEEP_SYNC_STALE, file);
        s->rep->stale += rc == 0;
    }
    cJSON_Delete(doc);
    return rc == 0 ? 0 : 1; /* sweep_doc_scan's -1 means "no directory" */
}

/* Points missing from DIR but kept in DIR/.stale/ with the right hash come back. */
static int sweep_sync_restore(struct sweep_sync *s)
{
    char stale[SWEEP_PATH_LEN];
    snprintf(stale, sizeof stale, "%.4000s/%s", s->dir, SWEEP_SYNC_STALE);
    for (int j = 0; j < s->grid->n_jobs; j++) {
        const struct sweep_job *job = &s->grid->jobs[j];
        if (sweep_job_is_search(s->sw, job) || sweep_run_done(s->sw, s->grid, j, s->dir))
            continue;
        cJSON *doc = sweep_doc_load(stale, job->file);
        bool back = doc && sweep_doc_has_hash(doc, job->hash);
        cJSON_Delete(doc);
        if (back && sweep_sync_move(s, SWEEP_SYNC_STALE, "", job->file) != 0)
            return -1;
        s->rep->restored += back;
    }
    return 0;
}

static int sweep_sync_index(struct sweep_sync *s)
{
    s->names = malloc((size_t)(s->grid->n_jobs > 0 ? s->grid->n_jobs : 1) * sizeof *s->names);
    if (!s->names) {
        snprintf(s->err, s->len, "out of memory");
        return -1;
    }
    for (int j = 0; j < s->grid->n_jobs; j++)
        s->names[j] = (struct sweep_sync_name){s->grid->jobs[j].file, j};
    s->n_names = s->grid->n_jobs;
    qsort(s->names, (size_t)s->n_names, sizeof *s->names, sweep_sync_compare);
    return 0;
}

int sweep_sync(const struct sweep *sw, const struct sweep_grid *grid, const char *dir,
               struct sweep_sync_report *rep, char *err, size_t len)
{
    struct sweep_sync s = {sw, grid, dir, NULL, 0, rep, err, len};
    memset(rep, 0, sizeof *rep);
    int rc = sweep_sync_index(&s);
    if (rc == 0)
        rc = sweep_sync_restore(&s);
    if (rc == 0 && sweep_doc_scan(dir, sweep_sync_visit, &s) > 0)
        rc = -1;
    free(s.names);
    return rc;
}
