/* sweep_run: runs one job of a sweep in the calling process (a pool worker or a Slurm task):
 * a point, or a whole saturation search, each simulation writing its point document. */
#ifndef DFSIM_SWEEP_RUN_H
#define DFSIM_SWEEP_RUN_H

#include <stdbool.h>

#include "sweep.h"

enum sweep_run_status { SWEEP_RUN_OK = 0, SWEEP_RUN_FAILED = 1, SWEEP_RUN_SIM_FAILED = 3 };

/* Runs job j of the grid, writing into dir; diagnostics on stderr. Returns the status (the
 * worker's exit status). Saturation steps already in dir are read, not simulated again. */
int sweep_run_job(const struct sweep *sw, const struct sweep_grid *grid, int j, const char *dir);

/* Whether every result of job j is in dir (a point: its document with the same hash; a search:
 * the documents of its whole bisection); a document of an earlier dfsim with the legacy hash,
 * under its old name, counts until sweep_sync migrates it. */
bool sweep_run_done(const struct sweep *sw, const struct sweep_grid *grid, int j, const char *dir);

/* The saturation load of search j from the documents in dir. Returns 0 with *load and *probes,
 * 1 if the search is incomplete, -1 on error. */
int sweep_run_search_result(const struct sweep *sw, const struct sweep_grid *grid, int j,
                            const char *dir, double *load, int *probes);

#endif
