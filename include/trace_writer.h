/* trace_writer: a job's message activity recorded as an OTF2 trace that trace_read replays
 * (and other tools read): each rank's sends as MPI_Isend at the cycle the message was made,
 * completed by a wait at the cycle it left the NIC, and its receives as MPI_Recv ending at the
 * cycle the message arrived, or at the end of the compute phase it arrived in; the time
 * between a rank's calls is compute. Timestamps are cycles
 * (the timer resolution is 1e9 / cycle_ns ticks per second). Layer: writes files. */
#ifndef DFSIM_TRACE_WRITER_H
#define DFSIM_TRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct trace_writer;

/* A recorder for nranks ranks starting at cycle start. NULL when memory runs out. */
struct trace_writer *trace_writer_create(int nranks, double cycle_ns, uint64_t start);
void trace_writer_destroy(struct trace_writer *w);

/* src made a message of bytes to dst at cycle (one made before the start is not recorded,
 * nor its departure and arrival). 0 or -1 (memory). */
int trace_writer_send(struct trace_writer *w, int32_t src, int32_t dst, uint64_t bytes,
                      uint64_t cycle);
/* src's oldest message not yet left has left its NIC (a rank's messages leave in the order it
 * made them). 0 or -1. */
int trace_writer_left(struct trace_writer *w, int32_t src, uint64_t cycle);
/* A message of bytes from src, made at cycle made, arrived at dst. 0 or -1. */
int trace_writer_received(struct trace_writer *w, int32_t src, int32_t dst, uint64_t bytes,
                          uint64_t made, uint64_t cycle);
/* rank computed from cycle `from` to `to` (a motif's compute phase; phases come in time
 * order): a receive is written to begin no earlier than the end of the last phase begun before
 * its arrival, so the time between calls is the compute the rank did. 0 or -1 (memory). */
int trace_writer_compute(struct trace_writer *w, int32_t rank, uint64_t from, uint64_t to);
/* Writes the archive DIR/traces.otf2 (with DIR/traces.def and DIR/traces/); ranks end at
 * cycle end. 0, or -1 with err naming the directory and what failed. */
int trace_writer_write(struct trace_writer *w, const char *dir, uint64_t end, char *err,
                       size_t err_len);

#endif
