/* steady_state: the arithmetic behind the steady-state verdict and the link-load summary
 * (src/METRICS.md, "The time series and the steady-state verdict"): MSER's truncation point of
 * a series of batch means, and Jain's fairness index. Plain functions on arrays, below the
 * core: they know nothing of a run. */
#ifndef DFSIM_STEADY_STATE_H
#define DFSIM_STEADY_STATE_H

#include <stdint.h>

/* MSER (White, 1997) on n batch means y[0..n): the truncation point d in [0, n/2] that
 * minimises sum_{j >= d} (y_j - mean_d)^2 / (n - d)^2, mean_d the mean of y[d..n); the first
 * such d (0 when n < 2). With batches of 5 observations this is MSER-5. */
int steady_state_mser(const double *y, int n);

/* Jain's index (sum x)^2 / (n * sum x^2) of n values: 1 when all are equal (also when all are
 * 0), 1/n when one value carries everything. */
double steady_state_jain(const uint64_t *x, int n);

#endif
