/* progress: the one updating status line on stderr while a run simulates (terminal only). */
#ifndef DFSIM_PROGRESS_H
#define DFSIM_PROGRESS_H

#include <stdbool.h>

struct sim;

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
void progress_update(const struct sim *sim, void *ctx);
/* Clears the line. */
void progress_finish(struct progress *pr);

#endif
