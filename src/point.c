/* point: one simulation point (see point.h). */
#include "point.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "job_config.h"
#include "progress.h"
#include "workload.h"

/* Builds and runs one simulation (isolate >= 0: only that job); returns the finished sim (its
 * status says how it ended) or NULL with out filled when it could not be built. */
static struct sim *point_simulate(const struct sim_config *cfg, int isolate,
                                  const struct point_options *opt, const char *label, double *wall,
                                  struct point_outcome *out)
{
    char err[1024];
    struct sim *sim = sim_create_isolated(cfg, isolate, err, sizeof err);
    if (!sim) {
        out->status = SIM_NOMEM;
        snprintf(out->message, sizeof out->message, "%s", err);
        return NULL;
    }
    if (isolate < 0 && opt->trace_out && sim->workload &&
        workload_record(sim->workload, &sim->net) != 0) {
        sim_destroy(sim);
        out->status = SIM_NOMEM;
        snprintf(out->message, sizeof out->message, "out of memory (--trace-out)");
        return NULL;
    }
    sim->stop = opt->stop;
    sim->check_invariants = opt->check_invariants;
    sim->check_every = opt->check_every;
    struct progress pr;
    progress_init(&pr, opt->progress);
    pr.label = label;
    double start = progress_now();
    sim_run(sim, progress_update, &pr);
    *wall = progress_now() - start;
    progress_finish(&pr);
    return sim;
}

/* Copies a finished sim's status into out; returns it. */
static enum sim_status point_status(const struct sim *sim, const char *label,
                                    struct point_outcome *out)
{
    out->status = sim->net.status;
    out->cycle = sim->net.cycle;
    out->total_cycles = sim->total_cycles;
    if (sim->net.status != SIM_OK)
        snprintf(out->message, sizeof out->message, "%s%s%s", label ? label : "", label ? ": " : "",
                 sim->net.message[0] ? sim->net.message : "out of memory");
    return sim->net.status;
}

static void point_warn_capped(const struct sim *sim, const char *label)
{
    if (!sim->capped)
        return;
    fprintf(stderr,
            "dfsim: %s%sclosed-loop jobs were still running at sim.max_cycles = %lld: the run "
            "was cut there (the document says \"capped\": true)\n",
            label ? label : "", label ? ": " : "", (long long)sim->cfg->sim.max_cycles);
}

/* Runs closed-loop job j alone and records it in res->jobs[j]. */
static enum sim_status point_alone(const struct sim_config *cfg, int j,
                                   const struct point_options *opt, struct result *res,
                                   struct point_outcome *out)
{
    char label[160];
    snprintf(label, sizeof label, "job '%s' alone", cfg->jobs[j].name);
    double wall;
    struct sim *sim = point_simulate(cfg, j, opt, label, &wall, out);
    if (!sim)
        return out->status;
    enum sim_status status = point_status(sim, label, out);
    struct job_result alone[CONFIG_MAX_JOBS];
    struct job_result_run run;
    memset(alone, 0, sizeof alone);
    if (status == SIM_OK) {
        point_warn_capped(sim, label);
        if (sim_job_results(sim, alone, &run) != 0) {
            out->status = status = SIM_NOMEM;
            snprintf(out->message, sizeof out->message, "%s: out of memory", label);
        } else {
            job_result_set_alone(&res->jobs[j], &alone[j]);
        }
    }
    job_results_free(alone, cfg->n_jobs);
    sim_destroy(sim);
    return status;
}

static bool point_may_extend(const struct sim_config *cfg, const struct result *res, int done);

/* point_run; extensions >= 0: point_run_steady's run after that many extensions of the
 * warm-up, whose recording (--trace-out) is written only when no other run follows it, so
 * that the recording is the final measurement's. */
static enum sim_status point_run_extended(const struct sim_config *cfg,
                                          const struct point_options *opt, struct result *res,
                                          struct point_outcome *out, int extensions)
{
    memset(res, 0, sizeof *res);
    memset(out, 0, sizeof *out);
    double wall;
    struct sim *sim = point_simulate(cfg, -1, opt, NULL, &wall, out);
    if (!sim)
        return out->status;
    enum sim_status status = point_status(sim, NULL, out);
    char err[600];
    if (sim_close_packet_log(sim, status == SIM_OK, err, sizeof err) != 0 && status == SIM_OK) {
        out->status = status = SIM_NOMEM;
        snprintf(out->message, sizeof out->message, "%s", err);
    }
    if (status == SIM_OK && sim_summarize(sim, res) != 0) {
        out->status = status = SIM_NOMEM;
        snprintf(out->message, sizeof out->message, "cannot summarize the run (out of memory)");
    }
    if (status == SIM_OK && opt->trace_out && sim->workload &&
        (extensions < 0 || !point_may_extend(cfg, res, extensions)) &&
        workload_write_traces(sim->workload, opt->trace_out, sim->net.cycle, err, sizeof err) !=
            0) {
        out->status = status = SIM_NOMEM;
        snprintf(out->message, sizeof out->message, "--trace-out: %s", err);
    }
    if (status == SIM_OK) {
        point_warn_capped(sim, NULL);
        res->wall_seconds = wall;
        res->cycles_per_second = wall > 0 ? (double)sim->net.cycle / wall : 0;
        res->router_cycles_per_second = res->cycles_per_second * sim->net.topo.routers;
    }
    sim_destroy(sim);
    for (int j = 0; status == SIM_OK && cfg->sim.isolate && j < cfg->n_jobs; j++)
        if (job_is_closed_loop(&cfg->jobs[j]))
            status = point_alone(cfg, j, opt, res, out);
    if (status == SIM_OK && cfg->sim.isolate && res->n_jobs)
        job_results_node_cycles_alone(res->jobs, res->n_jobs, &res->run);
    return status;
}

enum sim_status point_run(const struct sim_config *cfg, const struct point_options *opt,
                          struct result *res, struct point_outcome *out)
{
    return point_run_extended(cfg, opt, res, out, -1);
}

/* Whether another run with a longer warm-up may make the point steady: the verdict was
 * judged, said not steady, and extensions are left (never with closed-loop jobs: they start
 * after the warm-up whatever its length). */
static bool point_may_extend(const struct sim_config *cfg, const struct result *res, int done)
{
    if (!res->has_steady_state || res->steady_state.steady || res->steady_state.batches < 4 ||
        done >= cfg->stats.extend_warmup)
        return false;
    for (int j = 0; j < cfg->n_jobs; j++)
        if (job_is_closed_loop(&cfg->jobs[j]))
            return false;
    return cfg->sim.warmup_cycles < INT_MAX;
}

enum sim_status point_run_steady(struct sim_config *cfg, const struct point_options *opt,
                                 struct result *res, struct point_outcome *out)
{
    int done = 0;
    enum sim_status status;
    for (;;) {
        status = point_run_extended(cfg, opt, res, out, done);
        if (status != SIM_OK || !point_may_extend(cfg, res, done))
            break;
        /* The transient MSER-5 found, and at least the warm-up again and a batch of samples:
         * a warm-up that was far too short gets there in a few runs. */
        int64_t add = (int64_t)res->steady_state.truncation_cycles;
        if (add < cfg->sim.warmup_cycles)
            add = cfg->sim.warmup_cycles;
        if (add < 5 * cfg->stats.sample_cycles)
            add = 5 * cfg->stats.sample_cycles;
        int64_t warmup = cfg->sim.warmup_cycles + add;
        cfg->sim.warmup_cycles = warmup < INT_MAX ? warmup : INT_MAX;
        done++;
        result_free(res);
    }
    if (status == SIM_OK)
        res->steady_state.warmup_extensions = done;
    return status;
}
