/* sweep_run: one job in this process: simulate, summarize, write the point document(s). */
#include "sweep_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_version.h"
#include "point.h"
#include "result_json.h"
#include "saturation.h"
#include "stats.h"
#include "sweep_doc.h"

/* What a saturation step needs from a run. */
struct sweep_run_outcome {
    double offered, accepted;
};

/* State of the probes of one saturation search. */
struct sweep_run_probe {
    const struct sweep *sw;
    const struct sweep_grid *grid;
    int j;
    const char *dir;
    bool may_run; /* false: only read the documents already there */
    int status;   /* of the simulation that failed */
};

static int sweep_run_write(const struct sim_config *cfg, const struct result *res,
                           const cJSON *meta, const char *dir, const char *file,
                           struct sweep_run_outcome *out)
{
    char *doc = result_json_render(cfg, res, true);
    char *text = doc ? sweep_doc_attach(doc, meta) : NULL;
    char err[SWEEP_PATH_LEN + 256];
    int rc = SWEEP_RUN_FAILED;
    if (!text)
        fprintf(stderr, "dfsim: cannot render the result document (out of memory)\n");
    else if (sweep_doc_write(dir, file, text, err, sizeof err) != 0)
        fprintf(stderr, "dfsim: %s\n", err);
    else
        rc = SWEEP_RUN_OK;
    if (rc == SWEEP_RUN_OK && out)
        *out = (struct sweep_run_outcome){res->offered, res->accepted};
    free(text);
    free(doc);
    return rc;
}

static int sweep_run_simulate(const struct sim_config *cfg, const cJSON *meta, const char *dir,
                              const char *file, struct sweep_run_outcome *out)
{
    const struct point_options opt = {.progress = false};
    struct result res;
    struct point_outcome outcome;
    /* A copy: stats.extend_warmup may lengthen its warm-up, and the document says so. */
    struct sim_config *run = malloc(sizeof *run);
    if (!run) {
        fprintf(stderr, "dfsim: out of memory\n");
        return SWEEP_RUN_FAILED;
    }
    *run = *cfg;
    cfg = run;
    enum sim_status status = point_run_steady(run, &opt, &res, &outcome);
    int rc;
    if (status == SIM_DEADLOCK || status == SIM_INVARIANT) {
        fprintf(stderr, "dfsim: %s\n", outcome.message);
        rc = SWEEP_RUN_SIM_FAILED;
    } else if (status != SIM_OK) {
        fprintf(stderr, "dfsim: simulation failed: %s\n", outcome.message);
        rc = SWEEP_RUN_FAILED;
    } else {
        rc = sweep_run_write(cfg, &res, meta, dir, file, out);
    }
    result_free(&res);
    free(run);
    return rc;
}

static int sweep_run_point(const struct sweep *sw, const struct sweep_grid *grid, int j,
                           const char *dir)
{
    struct sim_config cfg;
    char err[SWEEP_ERROR_LEN];
    if (sweep_job_config(sw, &grid->jobs[j], NULL, &cfg, err) != 0) {
        fprintf(stderr, "%s\n", err);
        return SWEEP_RUN_FAILED;
    }
    cJSON *meta = sweep_doc_meta(sw, grid, j, grid->jobs[j].hash, NULL);
    if (!meta) {
        fprintf(stderr, "dfsim: out of memory\n");
        return SWEEP_RUN_FAILED;
    }
    int rc = sweep_run_simulate(&cfg, meta, dir, grid->jobs[j].file, NULL);
    cJSON_Delete(meta);
    return rc;
}

/* ---- saturation searches ---- */

/* The outcome of a step already in dir; false if missing, stale or unreadable. `legacy`: an
 * old document that has `hash` as its legacy hash. */
static bool sweep_run_read_step(const char *dir, const char *file, const char *hash, bool legacy,
                                struct sweep_run_outcome *out)
{
    cJSON *doc = sweep_doc_load(dir, file);
    bool ok = doc && (legacy ? sweep_doc_is_legacy(doc, hash) : sweep_doc_has_hash(doc, hash));
    if (ok) {
        out->offered = sweep_doc_number(doc, "load.offered");
        out->accepted = sweep_doc_number(doc, "load.accepted");
        ok = !isnan(out->offered) && !isnan(out->accepted);
    }
    cJSON_Delete(doc);
    return ok;
}

static int sweep_run_step(struct sweep_run_probe *p, double load, const struct sim_config *cfg,
                          const char *hash, const char *file, struct sweep_run_outcome *out)
{
    cJSON *meta = sweep_doc_meta(p->sw, p->grid, p->j, hash, &load);
    if (!meta) {
        fprintf(stderr, "dfsim: out of memory\n");
        p->status = SWEEP_RUN_FAILED;
        return -1;
    }
    p->status = sweep_run_simulate(cfg, meta, p->dir, file, out);
    cJSON_Delete(meta);
    return p->status == SWEEP_RUN_OK ? 0 : -1;
}

/* A step of an earlier dfsim, under its legacy name (sweep_sync migrates it on resume). */
static bool sweep_run_read_legacy_step(const char *dir, const struct sweep_job *job, double load,
                                       const struct sim_config *cfg, struct sweep_run_outcome *out)
{
    char hash[SWEEP_HASH_LEN], file[SWEEP_PATH_LEN];
    if (sweep_config_hash_legacy(cfg, DFSIM_MODEL_VERSION, hash) != 0)
        return false;
    sweep_step_file(job, load, hash, file, sizeof file);
    return sweep_run_read_step(dir, file, hash, true, out);
}

static int sweep_run_probe(void *ctx, double load, bool *accepts)
{
    struct sweep_run_probe *p = ctx;
    const struct sweep_job *job = &p->grid->jobs[p->j];
    struct sim_config cfg;
    char err[SWEEP_ERROR_LEN], hash[SWEEP_HASH_LEN], file[SWEEP_PATH_LEN];
    if (sweep_job_config(p->sw, job, &load, &cfg, err) != 0) {
        fprintf(stderr, "%s\n", err);
        p->status = SWEEP_RUN_FAILED;
        return -1;
    }
    if (sweep_config_hash(&cfg, hash) != 0) {
        fprintf(stderr, "dfsim: out of memory\n");
        p->status = SWEEP_RUN_FAILED;
        return -1;
    }
    sweep_step_file(job, load, hash, file, sizeof file);
    struct sweep_run_outcome out;
    if (!sweep_run_read_step(p->dir, file, hash, false, &out) &&
        !sweep_run_read_legacy_step(p->dir, job, load, &cfg, &out)) {
        if (!p->may_run)
            return 1;
        if (sweep_run_step(p, load, &cfg, hash, file, &out) != 0)
            return -1;
    }
    *accepts =
        saturation_accepts(out.offered, out.accepted, p->sw->variants[job->variant].tolerance);
    return 0;
}

int sweep_run_search_result(const struct sweep *sw, const struct sweep_grid *grid, int j,
                            const char *dir, double *load, int *probes)
{
    struct sweep_run_probe p = {sw, grid, j, dir, false, SWEEP_RUN_OK};
    double resolution = sw->variants[grid->jobs[j].variant].resolution;
    return saturation_search(resolution, sweep_run_probe, &p, load, probes);
}

static int sweep_run_search(const struct sweep *sw, const struct sweep_grid *grid, int j,
                            const char *dir)
{
    struct sweep_run_probe p = {sw, grid, j, dir, true, SWEEP_RUN_OK};
    double resolution = sw->variants[grid->jobs[j].variant].resolution, load;
    int probes;
    if (saturation_search(resolution, sweep_run_probe, &p, &load, &probes) != 0)
        return p.status != SWEEP_RUN_OK ? p.status : SWEEP_RUN_FAILED;
    return SWEEP_RUN_OK;
}

/* ---- jobs ---- */

int sweep_run_job(const struct sweep *sw, const struct sweep_grid *grid, int j, const char *dir)
{
    if (sweep_job_is_search(sw, &grid->jobs[j]))
        return sweep_run_search(sw, grid, j, dir);
    return sweep_run_point(sw, grid, j, dir);
}

bool sweep_run_done(const struct sweep *sw, const struct sweep_grid *grid, int j, const char *dir)
{
    const struct sweep_job *job = &grid->jobs[j];
    if (sweep_job_is_search(sw, job)) {
        double load;
        int probes;
        return sweep_run_search_result(sw, grid, j, dir, &load, &probes) == 0;
    }
    cJSON *doc = sweep_doc_load(dir, job->file);
    bool done = doc && sweep_doc_has_hash(doc, job->hash);
    cJSON_Delete(doc);
    char legacy[SWEEP_PATH_LEN];
    if (!done && sweep_job_legacy_file(job, legacy, sizeof legacy)) {
        doc = sweep_doc_load(dir, legacy); /* not migrated yet: sweep_sync will */
        done = doc && sweep_doc_is_legacy(doc, job->legacy_hash);
        cJSON_Delete(doc);
    }
    return done;
}
