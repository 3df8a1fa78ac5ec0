/* sweep_pool: runs jobs of a sweep in a pool of forked worker processes, one process per job,
 * with progress on stderr; a failing job is reported and does not stop the others. */
#ifndef DFSIM_SWEEP_POOL_H
#define DFSIM_SWEEP_POOL_H

#include <stdbool.h>

#include "sweep.h"

struct sweep_pool_options {
    int workers; /* processes at once, >= 1 */
    bool quiet;  /* no progress line (it is shown only on a terminal anyway) */
};

struct sweep_pool_report {
    int ran, failed; /* jobs run (failed ones included) and failed */
    double seconds;  /* wall time */
};

/* Runs the n jobs listed (indices into grid) writing into dir. A worker's stderr goes to the
 * job's log file (DIR/<file without .json>.log), removed when the job succeeds; a failure is
 * reported on stderr with the first line of its log. Returns 0 (failures are counted in rep). */
int sweep_pool_run(const struct sweep *sw, const struct sweep_grid *grid, const int *jobs, int n,
                   const char *dir, const struct sweep_pool_options *opt,
                   struct sweep_pool_report *rep);

/* The log file of job j: "DIR/VARIANT/STEM.log". */
void sweep_pool_log_path(const struct sweep_grid *grid, int j, const char *dir, char *out,
                         size_t len);

#endif
