/* progress: the one updating status line on stderr while a run simulates (terminal only).
 * Layer: an observer: it reads a progress_view the cycle loop fills (and the workload's
 * progress through a const pointer) and changes nothing of the run. */
#ifndef DFSIM_PROGRESS_H
#define DFSIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct workload;

/* What the progress line reads of a running simulation (sim_run fills it). */
struct progress_view {
    uint64_t cycle, total_cycles, measured_cycles;
    bool measuring;
    const struct workload *workload; /* the jobs (NULL: none) */
};

struct progress {
    bool enabled;
    bool shown;        /* a line is on the screen (to clear at the end) */
    double start;      /* monotonic seconds at the start of the run */
    double last_print; /* monotonic seconds of the last update */
    const char *label; /* NULL, or what the line is about ("job 'app' alone") */
};

/* Monotonic clock in seconds. */
double progress_now(void);

/* Enabled only when `wanted` (not --quiet) and stderr is a terminal. */
void progress_init(struct progress *pr, bool wanted);
/* sim_run's progress callback (ctx = struct progress *): prints at most ~4 times a second.
 * A run with closed-loop jobs ends when they finish: its ETA comes from their iterations. */
void progress_update(const struct progress_view *run, void *ctx);
/* Clears the line. */
void progress_finish(struct progress *pr);

#endif
