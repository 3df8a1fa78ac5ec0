/* trace_reader: an OTF2 archive (as Score-P writes it) read into per-rank programs
 * (trace_program.h) with the OTF2 library. Each location of the trace's MPI world is a rank;
 * compute is the time a rank spends outside MPI regions; point-to-point records become sends,
 * receives and waits on requests; collectives (MPI_COLLECTIVE_END, and the completion of a
 * non-blocking one) are decomposed where they end; what is not modelled is counted by kind.
 * Layer: reads files, knows no network. */
#ifndef DFSIM_TRACE_READER_H
#define DFSIM_TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "trace_program.h"

/* Reads the archive whose anchor file is path ("DIR/traces.otf2"). allreduce_threshold as in
 * trace_program_collective. Returns 0, or -1 with err naming the file and what is wrong
 * ("trace.otf2: no such file", "...: location 3: events end early (...)",
 * "...: rank 2, event 17: unknown collective operation 42"). */
int trace_read(const char *path, uint64_t allreduce_threshold, struct trace_program *out,
               char *err, size_t err_len);

/* The reader's table of records it skips (trace_reader_skip.c): registers a callback for
 * each, which counts it through trace_reader_skip (one of kind on the location). */
struct OTF2_GlobalEvtReaderCallbacks_struct;
void trace_reader_register_skips(struct OTF2_GlobalEvtReaderCallbacks_struct *cb);
void trace_reader_skip(void *reader, uint64_t location, enum trace_skip_kind kind);

#endif
