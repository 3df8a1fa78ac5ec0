/* trace_replay: the engine of trace jobs. It runs per-rank programs (trace_program.h) against
 * an abstract network with the shape of the motif engine (motif.h): it says which messages to
 * send and when; the caller says when each left its NIC and when it fully arrived. Sends and
 * receives match by (source, context, tag) in the order each side issues them, as MPI's
 * non-overtaking rule; a message below the eager threshold goes at once, a larger one as a
 * rendezvous (request, clear-to-send, data). The semantics are in traffic/MODEL.md,
 * "Trace jobs". */
#ifndef DFSIM_TRACE_REPLAY_H
#define DFSIM_TRACE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "motif.h"
#include "trace_program.h"

struct trace_replay_params {
    uint64_t eager_bytes;   /* messages of fewer bytes go eagerly; from it on, rendezvous */
    uint64_t control_bytes; /* size of a rendezvous request and clear-to-send */
    double cycle_ns;        /* the length of a cycle, to convert the trace's timer */
    double compute_scale;   /* multiplies compute; 0: communication only */
};

#define TRACE_EAGER_BYTES 65536 /* a typical eager limit of MPI over a fast network */

/* eager_bytes TRACE_EAGER_BYTES, control_bytes 0 (one packet), cycle_ns 1, compute_scale 1. */
void trace_replay_params_default(struct trace_replay_params *p);

struct trace_replay;

/* A run of program (borrowed: it must outlive the run). NULL with err on failure. */
struct trace_replay *trace_replay_create(const struct trace_program *program,
                                         const struct trace_replay_params *params, char *err,
                                         size_t err_len);
void trace_replay_destroy(struct trace_replay *t);

/* Every rank begins its program at cycle now. */
void trace_replay_start(struct trace_replay *t, uint64_t now);
/* As motif_run_next_wake. */
uint64_t trace_replay_next_wake(const struct trace_replay *t);
/* Ranks whose compute ended by now, or whose wait completed, run on, issuing their sends (and
 * the protocol messages deliveries asked for) through send, in a deterministic order.
 * Returns 0, or -1 when the program cannot go on (trace_replay_error says why: a receive whose
 * send never comes, named by rank and event). */
int trace_replay_advance(struct trace_replay *t, uint64_t now, motif_send_fn send, void *ctx);
/* The message tag of src_rank left its NIC. */
void trace_replay_sent(struct trace_replay *t, int32_t src_rank, uint32_t tag, uint64_t now);
/* The message fully arrived at dst_rank. */
void trace_replay_delivered(struct trace_replay *t, int32_t src_rank, int32_t dst_rank,
                            uint32_t tag, uint64_t now);
bool trace_replay_done(const struct trace_replay *t);
const char *trace_replay_error(const struct trace_replay *t);
/* For the watchdog: how many ranks are blocked, and into buf as many as fit ("rank 3 waits
 * at event 17 (receive from rank 2, tag 5, 4096 bytes): no matching send yet; ..."). */
int trace_replay_describe_waiting(const struct trace_replay *t, char *buf, size_t len);
/* When nothing is in flight and nothing is due: the run cannot finish. Sets the error to the
 * first blocked rank's event ("rank 1, event 12: receive from rank 0 (context 0, tag 3) never
 * matches a send") and returns -1; 0 when done. */
int trace_replay_check_stuck(struct trace_replay *t);

/* ---- statistics --------------------------------------------------------------------------- */

struct trace_rank_times {
    uint64_t compute;       /* cycles computing */
    uint64_t communication; /* cycles blocked after the peer reached the matching call */
    uint64_t waiting;       /* cycles blocked before it did */
    uint64_t end;           /* when the rank finished its program (relative to start) */
};

/* Cycles from start to the end of the last rank (0 until done). */
uint64_t trace_replay_runtime(const struct trace_replay *t);
void trace_replay_rank_times(const struct trace_replay *t, int32_t rank,
                             struct trace_rank_times *out);
int trace_replay_nranks(const struct trace_replay *t);
/* Application messages (not the rendezvous' control messages) by rank. */
uint64_t trace_replay_messages_sent(const struct trace_replay *t, int32_t rank);
uint64_t trace_replay_bytes_sent(const struct trace_replay *t, int32_t rank);
uint64_t trace_replay_messages_received(const struct trace_replay *t, int32_t rank);
/* Protocol messages sent (requests-to-send and clear-to-sends). */
uint64_t trace_replay_control_messages(const struct trace_replay *t);
/* Messages a rank sent to itself (they do not enter the network). */
uint64_t trace_replay_local_messages(const struct trace_replay *t);
/* Requests opened (a cancelled one never is) and completed, over all ranks. */
uint64_t trace_replay_requests(const struct trace_replay *t);
uint64_t trace_replay_requests_completed(const struct trace_replay *t);
/* Ops run over all ranks, and in the whole program: progress. */
uint64_t trace_replay_ops_done(const struct trace_replay *t);
uint64_t trace_replay_ops_total(const struct trace_replay *t);
/* Messages that arrived and no receive has taken (0 once done). */
uint64_t trace_replay_unmatched(const struct trace_replay *t);

#endif
