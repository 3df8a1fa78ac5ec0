/* saturation: the bisection over offered load for the highest load whose accepted load stays
 * within a tolerance of the offered one. */
#ifndef DFSIM_SATURATION_H
#define DFSIM_SATURATION_H

#include <stdbool.h>

/* Evaluates one load: returns 0 and sets *accepts, 1 if the result is not available (replaying
 * a search from files), -1 on failure. */
typedef int (*saturation_probe_fn)(void *ctx, double load, bool *accepts);

/* The network accepts a load when accepted >= (1 - tolerance) * offered. */
bool saturation_accepts(double offered, double accepted, double tolerance);

/* Number of load steps: loads tried are k / n for k in 1..n, n = round(1 / resolution). */
int saturation_steps(double resolution);

/* Bisection over k / n: first load 1, then between the highest load known accepted (0 at the
 * start) and the lowest known refused. Returns 0 with *load, 1 if a probe returned 1 (*load
 * unset), -1 if a probe failed; *probes counts the loads evaluated. */
int saturation_search(double resolution, saturation_probe_fn probe, void *ctx, double *load,
                      int *probes);

#endif
