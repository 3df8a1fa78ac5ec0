/* model_version: the version of what dfsim simulates, as far as results are concerned. A sweep
 * point's identity is its non-default settings plus this number (src/sweep/sweep_grid.c), and
 * every sweep document carries it in its "sweep" object ("model_version").
 *
 * Bump it when a result can change for the same settings: a setting's default changes (the
 * hash, which skips settings at their default, cannot see that), or the model's behaviour
 * changes -- in short, whenever tests/reference/ is re-recorded (make refcheck-record). Every
 * stored sweep point then becomes stale and a resumed sweep reruns it. Do not bump it for a new
 * setting whose default keeps the old behaviour, for a refactor that leaves refcheck identical,
 * or for a change of the document's layout (that is DFSIM_SCHEMA, version.h). */
#ifndef DFSIM_MODEL_VERSION_H
#define DFSIM_MODEL_VERSION_H

#define DFSIM_MODEL_VERSION 6

#endif
