/* sim: one simulation run, the top of the core: it owns the network (network.h), the
 * network-wide traffic or the jobs (workload.h) and the statistics, and runs the cycle loop:
 * generation, link events, routers, deadlock watchdog, invariant checks. Everything a run
 * needs hangs off struct sim, so several runs can live in one process. See src/README.md. */
#ifndef DFSIM_SIM_H
#define DFSIM_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "network.h"
#include "packet_log.h"
#include "progress.h"
#include "rng.h"
#include "sim_status.h"
#include "stats.h"
#include "traffic.h"

struct sim {
    struct network net; /* first: the routers get &sim->net, the same address */
    const struct sim_config *cfg; /* net.cfg: read once, immutable during the run */
    const struct pattern_ops *pattern;
    struct pattern_run pattern_run; /* what the network-wide pattern sees */
    /* The sources: every node creates a packet with probability load / packet_size in every
     * cycle. Over the trials in order (cycle by cycle, node by node) the gaps between packets
     * are geometric, so a gap is drawn per packet: next_source is the trial
     * of the next packet, counted from node 0 of the current cycle (UINT64_MAX: never). */
    struct rng_geometric source_gap;
    uint64_t next_source;
    struct rng traffic_rng;
    uint64_t total_cycles;
    bool check_invariants;       /* verify the invariants every cycle (tests, --check) */
    uint32_t check_every;        /* > 1: check only cycles that are multiples of it */
    volatile sig_atomic_t *stop; /* if set and non-zero, sim_run stops (SIM_STOPPED): signals */

    struct stats stats;
    uint64_t next_sample;  /* stats.sample_cycles: the end of the sample in progress */
    bool window_seen;      /* the window's start was recorded for the series */
    struct packet_log *packet_log; /* stats.packet_log (the run itself, not --isolate's) */
    struct workload *workload; /* the jobs, when the config has `jobs` (else NULL) */
    int isolate;               /* >= 0: only this job runs (dfsim run --isolate) */
    bool capped;               /* closed-loop jobs were still running at sim.max_cycles */
};

/* Builds a run from a validated config; returns NULL with a message in err. */
struct sim *sim_create(const struct sim_config *cfg, char *err, int err_len);
/* The same where only job `isolate` of the config's jobs runs (same placements and seeds):
 * what that job does alone. */
struct sim *sim_create_isolated(const struct sim_config *cfg, int isolate, char *err, int err_len);
void sim_destroy(struct sim *sim);
/* Simulates one cycle; returns the status (SIM_OK to continue). */
enum sim_status sim_step(struct sim *sim);
/* Runs warm-up and measurement; progress(view, ctx) is called every so often if non-NULL
 * (progress.h: progress_update). */
enum sim_status sim_run(struct sim *sim, void (*progress)(const struct progress_view *, void *),
                        void *ctx);

/* Finishes the packet log of a run (if it has one): with ok, writes it under its name (0, or
 * -1 with err); without, removes its temporary file. */
int sim_close_packet_log(struct sim *sim, bool ok, char *err, int err_len);

/* Fills a result from a finished run (everything but timing): the network-wide figures and,
 * with jobs, each job's. Returns 0 or -1 (memory). */
int sim_summarize(const struct sim *sim, struct result *res);
/* Each job's figures and the run's length, from a finished run with jobs (job_result.h). */
int sim_job_results(const struct sim *sim, struct job_result *out, struct job_result_run *run);

/* Independent recount of every packet, credit and link event, with the VC-ladder rules;
 * returns 0 or -1 with sim->net.message set (and status SIM_INVARIANT). With check_every = K > 1
 * only cycles that are multiples of K are checked (the others return 0 at once). */
int sim_check_invariants(struct sim *sim);

/* Cycles of the measurement window so far: from the warm-up's end to now (measure_cycles at
 * the end of a run without closed-loop jobs; they end theirs earlier or later). */
static inline uint64_t sim_measured_cycles(const struct sim *sim)
{
    uint64_t warmup = (uint64_t)sim->cfg->sim.warmup_cycles;
    return sim->net.cycle > warmup ? sim->net.cycle - warmup : 0;
}

#endif
