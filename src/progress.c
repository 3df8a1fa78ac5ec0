/* progress: one status line on stderr, rewritten in place with '\r' (see progress.h; an
 * observer: it reads a progress_view). */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

#define PROGRESS_INTERVAL 0.25 /* seconds between updates */
#define PROGRESS_WIDTH 79

double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(struct progress *pr, bool wanted)
{
    pr->enabled = wanted && isatty(STDERR_FILENO);
    pr->shown = false;
    pr->start = progress_now();
    pr->last_print = pr->start;
    pr->label = NULL;
}

static void progress_format_eta(double seconds, char *buf, size_t len)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(buf, len, "%lds", s);
}

void progress_update(const struct progress_view *run, void *ctx)
{
    struct progress *pr = ctx;
    double now = progress_now();
    if (!pr->enabled || now - pr->last_print < PROGRESS_INTERVAL)
        return;
    pr->last_print = now;
    double elapsed = now - pr->start;
    double rate = elapsed > 0 ? (double)run->cycle / elapsed : 0;
    char eta[32] = "?", where[64], line[160];
    double remaining = rate > 0 ? (double)(run->total_cycles - run->cycle) / rate : -1;
    double fraction = run->workload ? workload_progress(run->workload) : -1;
    if (fraction >= 0) {
        /* The closed-loop jobs end the run: extrapolate their iterations since they started. */
        double measured = rate > 0 ? (double)run->measured_cycles / rate : 0;
        remaining = fraction > 0 ? measured * (1 - fraction) / fraction : -1;
        snprintf(where, sizeof where, "cycle %llu  iterations %.0f%%",
                 (unsigned long long)run->cycle, 100 * fraction);
    } else {
        snprintf(where, sizeof where, "cycle %llu/%llu", (unsigned long long)run->cycle,
                 (unsigned long long)run->total_cycles);
    }
    if (remaining >= 0)
        progress_format_eta(remaining, eta, sizeof eta);
    snprintf(line, sizeof line, "%s%s%s  %s  %.0f cycles/s  ETA %s", pr->label ? pr->label : "",
             pr->label ? ": " : "", where, run->measuring ? "measure" : "warm-up", rate, eta);
    fprintf(stderr, "\r%-*s", PROGRESS_WIDTH, line);
    fflush(stderr);
    pr->shown = true;
}

void progress_finish(struct progress *pr)
{
    if (!pr->shown)
        return;
    fprintf(stderr, "\r%-*s\r", PROGRESS_WIDTH, "");
    fflush(stderr);
    pr->shown = false;
}
