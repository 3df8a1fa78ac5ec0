/* trace_digest: a digest of an OTF2 archive's files (the anchor, its global definitions and
 * every file of its folder of local definitions and events), so that a trace edited in place
 * is told from the one it was: the sweep hash of a trace job includes it, and the programs
 * read once per process are keyed by it. Layer: reads files, knows no OTF2. */
#ifndef DFSIM_TRACE_DIGEST_H
#define DFSIM_TRACE_DIGEST_H

#include <stdint.h>

/* The digest (64-bit FNV-1a over each file's name and bytes, in name order) of the archive
 * whose anchor file is path ("DIR/traces.otf2": DIR/traces.def and the files of DIR/traces/).
 * 0, or -1 when the anchor cannot be read (a missing definitions file or folder is hashed as
 * absent: the reader reports it). */
int trace_digest(const char *path, uint64_t *out);

#endif
