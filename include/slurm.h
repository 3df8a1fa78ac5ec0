/* slurm: a sweep as one Slurm job array: the sbatch script, submission, waiting by polling
 * squeue, the report of failed tasks; and the task side, which runs its share of the points. */
#ifndef DFSIM_SLURM_H
#define DFSIM_SLURM_H

#include <stdbool.h>

#include "sweep.h"

#define SLURM_MAX_TASKS 1000 /* Slurm's default MaxArraySize is 1001 */
#define SLURM_POLL_SECONDS 2 /* squeue polling period (starting at 0.25 s, doubling) */

struct slurm_options {
    const char *partition; /* NULL: the cluster's default */
    const char *time;      /* NULL: the partition's default limit */
    int points_per_task;   /* 0: 1, or more to stay within SLURM_MAX_TASKS tasks */
    bool dry_run;          /* only write DIR/slurm.sbatch */
    bool quiet;
    const char *self; /* how this program was invoked (argv[0]) */
    int extend_warmup; /* > 0: the tasks get --extend-warmup N too (the points' settings) */
};

/* Submits the n missing jobs listed as one array job, waits for it, reports failed tasks and
 * merges DIR/sweep.json. Returns the exit status: 0 all done, 1 failures, 2 bad input. */
int slurm_sweep(const struct sweep *sw, const struct sweep_grid *grid, const int *missing, int n,
                const char *dir, const struct slurm_options *opt);

/* Inside array task `task`: runs the jobs on lines task*K .. task*K+K-1 of
 * DIR/slurm-points.txt (K = per_task) that are not done yet. Returns the exit status. */
int slurm_task(const struct sweep *sw, const struct sweep_grid *grid, const char *dir, int task,
               int per_task);

#endif
