/* sweep_sync: brings an output directory in line with the sweep before a run: documents of
 * points no longer in the sweep (their resolved config changed) move to DIR/.stale/, points
 * found there come back, kept documents get the current "sweep" object, and documents of an
 * earlier dfsim that carry the legacy hash of their point are migrated: renamed after the
 * current hash, with the current "sweep" object. */
#ifndef DFSIM_SWEEP_SYNC_H
#define DFSIM_SWEEP_SYNC_H

#include <stddef.h>

#include "sweep.h"

struct sweep_sync_report {
    int stale, restored, updated; /* documents moved away, brought back, metadata rewritten */
    int migrated;                 /* old documents given their current hash (restored ones too) */
};

/* Returns 0, or -1 with a message (a document that cannot be moved or updated). */
int sweep_sync(const struct sweep *sw, const struct sweep_grid *grid, const char *dir,
               struct sweep_sync_report *rep, char *err, size_t len);

#endif
