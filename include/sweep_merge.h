/* sweep_merge: DIR/sweep.json, rebuilt from the point documents of DIR alone: every point's key
 * figures, the mean and 95% confidence interval over seeds of each point of the grid without
 * the seed, and the saturation searches. */
#ifndef DFSIM_SWEEP_MERGE_H
#define DFSIM_SWEEP_MERGE_H

#include <stddef.h>

/* Writes DIR/sweep.json atomically. `name` (may be NULL) names the sweep when DIR holds no
 * point document. Returns 0 with *n_points (documents merged), or -1 with a message. */
int sweep_merge(const char *dir, const char *name, int *n_points, char *err, size_t len);

/* Mean and half-width of the 95% confidence interval t(0.975, n-1) * s / sqrt(n), s the sample
 * standard deviation; ci95 = 0 when n == 1. */
void sweep_merge_stats(const double *values, int n, double *mean, double *ci95);

/* Student's t quantile t(0.975, df): a table for df = 1..30, 1.96 above. */
double sweep_merge_t975(int df);

#endif
