/* point: simulating one point of a config, as `dfsim run` and every sweep point do: the run,
 * its summary, and with sim.isolate each closed-loop job run again alone (same placement and
 * seeds) for its slowdown. */
#ifndef DFSIM_POINT_H
#define DFSIM_POINT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "sim.h"
#include "stats.h"

struct point_options {
    bool progress;               /* a progress line on stderr (only on a terminal) */
    bool check_invariants;       /* --check */
    uint32_t check_every;        /* --check-every (0: every cycle) */
    volatile sig_atomic_t *stop; /* set by a signal: stop at the next cycle */
    const char *trace_out;       /* record the jobs' messages as OTF2 traces there (NULL: no) */
};

/* How a point ended; on SIM_OK the result is filled (timing included). */
struct point_outcome {
    enum sim_status status;
    char message[1400];           /* why, when status != SIM_OK */
    uint64_t cycle, total_cycles; /* where the run that stopped was */
};

/* Simulates cfg (validated) into res. Runs that cannot even be built report SIM_NOMEM with
 * the reason. res must be released with result_free whatever the outcome. */
enum sim_status point_run(const struct sim_config *cfg, const struct point_options *opt,
                          struct result *res, struct point_outcome *out);

/* The same, and while the run is not steady (stats.sample_cycles > 0, the verdict of
 * src/METRICS.md) and stats.extend_warmup allows, again with a longer warm-up: cfg's
 * sim.warmup_cycles is left at the warm-up of the run whose result res holds (its document
 * then reruns it). */
enum sim_status point_run_steady(struct sim_config *cfg, const struct point_options *opt,
                                 struct result *res, struct point_outcome *out);

#endif
