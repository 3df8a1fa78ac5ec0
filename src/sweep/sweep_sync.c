/* sweep_sync: stale documents to DIR/.stale/ and back, current metadata in kept documents,
 * documents of an earlier dfsim migrated to the current hash. */
#include "sweep_sync.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_version.h"
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
    struct sweep_sync_name *legacy; /* the points' legacy file names (owned) */
    int n_legacy;
    struct sweep_sync_report *rep;
    char *err;
    size_t len;
};

static int sweep_sync_compare(const void *pa, const void *pb)
{
    return strcmp(((const struct sweep_sync_name *)pa)->name,
                  ((const struct sweep_sync_name *)pb)->name);
}

static int sweep_sync_lookup(const struct sweep_sync_name *names, int n, const char *name)
{
    struct sweep_sync_name key = {name, 0};
    const struct sweep_sync_name *hit =
        bsearch(&key, names, (size_t)n, sizeof key, sweep_sync_compare);
    return hit ? hit->job : -1;
}

static int sweep_sync_find(const struct sweep_sync *s, const char *name)
{
    return sweep_sync_lookup(s->names, s->n_names, name);
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

/* What a document of job j must be: its hash, the legacy hash an old one may carry instead
 * ("" if none), and the file it belongs in. */
struct sweep_sync_want {
    char hash[SWEEP_HASH_LEN], legacy[SWEEP_HASH_LEN], file[SWEEP_PATH_LEN];
};

/* What a document with this meta must be to belong to job j; false if nothing fits. */
static bool sweep_sync_expected(const struct sweep_sync *s, int j, const cJSON *meta,
                                struct sweep_sync_want *w)
{
    const struct sweep_job *job = &s->grid->jobs[j];
    if (!sweep_job_is_search(s->sw, job)) {
        snprintf(w->hash, SWEEP_HASH_LEN, "%s", job->hash);
        snprintf(w->legacy, SWEEP_HASH_LEN, "%s", job->legacy_hash);
        snprintf(w->file, SWEEP_PATH_LEN, "%s", job->file);
        return true;
    }
    double load = sweep_doc_number(meta, "saturation.load");
    struct sim_config cfg;
    char err[SWEEP_ERROR_LEN];
    if (sweep_job_config(s->sw, job, &load, &cfg, err) != 0 || sweep_config_hash(&cfg, w->hash))
        return false;
    sweep_config_hash_legacy(&cfg, DFSIM_MODEL_VERSION, w->legacy);
    sweep_step_file(job, load, w->hash, w->file, SWEEP_PATH_LEN);
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

/* An old document of job j at DIR/FROM/FILE ("" = DIR) goes to its current name with the
 * current "sweep" object, the rest byte for byte. If a current document of the point is
 * already there (a migration cut short, the point rerun), the old one is set aside. */
static int sweep_sync_migrate(struct sweep_sync *s, const char *from, const char *file, int j,
                              const cJSON *meta, const struct sweep_sync_want *w)
{
    cJSON *there = sweep_doc_load(s->dir, w->file);
    bool current = there && sweep_doc_has_hash(there, w->hash);
    cJSON_Delete(there);
    if (current && strcmp(file, w->file) != 0) {
        int rc = from[0] ? 0 : sweep_sync_move(s, "", SWEEP_SYNC_STALE, file);
        s->rep->stale += !from[0] && rc == 0;
        return rc;
    }
    double load = sweep_doc_number(meta, "saturation.load");
    cJSON *want = sweep_doc_meta(s->sw, s->grid, j, w->hash, isnan(load) ? NULL : &load);
    if (!want) {
        snprintf(s->err, s->len, "out of memory");
        return -1;
    }
    char from_dir[SWEEP_PATH_LEN];
    snprintf(from_dir, sizeof from_dir, "%.4000s%s%s", s->dir, from[0] ? "/" : "", from);
    int rc = sweep_doc_rewrite(from_dir, file, s->dir, w->file, want, s->err, s->len);
    s->rep->migrated += rc == 0;
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
    bool old_name = false; /* a point's file named after its legacy hash */
    if (j < 0 && !step)
        old_name = (j = sweep_sync_lookup(s->legacy, s->n_legacy, file)) >= 0;
    struct sweep_sync_want w;
    int rc;
    bool known = j >= 0 && sweep_sync_expected(s, j, meta, &w);
    if (known && !old_name && sweep_doc_has_hash(doc, w.hash)) {
        rc = sweep_sync_update(s, file, j, meta, w.hash);
    } else if (known && sweep_doc_is_legacy(doc, w.legacy)) {
        rc = sweep_sync_migrate(s, "", file, j, meta, &w);
    } else {
        rc = sweep_sync_move(s, "", SWEEP_SYNC_STALE, file);
        s->rep->stale += rc == 0;
    }
    cJSON_Delete(doc);
    return rc == 0 ? 0 : 1; /* sweep_doc_scan's -1 means "no directory" */
}

/* An old document of point j set aside in DIR/.stale/ comes back migrated. */
static int sweep_sync_restore_legacy(struct sweep_sync *s, const char *stale, int j)
{
    const struct sweep_job *job = &s->grid->jobs[j];
    char file[SWEEP_PATH_LEN];
    if (!sweep_job_legacy_file(job, file, sizeof file))
        return 0;
    cJSON *doc = sweep_doc_load(stale, file);
    int rc = 0;
    if (doc && sweep_doc_is_legacy(doc, job->legacy_hash)) {
        struct sweep_sync_want w;
        sweep_sync_expected(s, j, NULL, &w);
        int before = s->rep->migrated;
        rc = sweep_sync_migrate(s, SWEEP_SYNC_STALE, file, j,
                                cJSON_GetObjectItemCaseSensitive(doc, "sweep"), &w);
        s->rep->restored += s->rep->migrated - before;
    }
    cJSON_Delete(doc);
    return rc;
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
        if (!back && sweep_sync_restore_legacy(s, stale, j) != 0)
            return -1;
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
    s->legacy = malloc((size_t)(s->grid->n_jobs > 0 ? s->grid->n_jobs : 1) * sizeof *s->legacy);
    if (!s->legacy) {
        snprintf(s->err, s->len, "out of memory");
        return -1;
    }
    char file[SWEEP_PATH_LEN];
    for (int j = 0; j < s->grid->n_jobs; j++) {
        if (!sweep_job_legacy_file(&s->grid->jobs[j], file, sizeof file))
            continue;
        char *copy = strdup(file);
        if (!copy) {
            snprintf(s->err, s->len, "out of memory");
            return -1;
        }
        s->legacy[s->n_legacy++] = (struct sweep_sync_name){copy, j};
    }
    qsort(s->legacy, (size_t)s->n_legacy, sizeof *s->legacy, sweep_sync_compare);
    return 0;
}

int sweep_sync(const struct sweep *sw, const struct sweep_grid *grid, const char *dir,
               struct sweep_sync_report *rep, char *err, size_t len)
{
    struct sweep_sync s = {sw, grid, dir, NULL, 0, NULL, 0, rep, err, len};
    memset(rep, 0, sizeof *rep);
    int rc = sweep_sync_index(&s);
    if (rc == 0)
        rc = sweep_sync_restore(&s);
    if (rc == 0 && sweep_doc_scan(dir, sweep_sync_visit, &s) > 0)
        rc = -1;
    free(s.names);
    for (int i = 0; i < s.n_legacy; i++)
        free((void *)s.legacy[i].name);
    free(s.legacy);
    return rc;
}
