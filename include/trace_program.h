/* trace_program: an MPI application as the replayer runs it, one program per rank: compute
 * intervals, sends and receives that open requests, and waits on them. Collectives are already
 * decomposed into sends and receives (trace_program_collective); the reader (trace_reader.h)
 * builds programs from an OTF2 archive, the tests build them by hand. Layer: data only. */
#ifndef DFSIM_TRACE_PROGRAM_H
#define DFSIM_TRACE_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum trace_op_kind {
    TRACE_OP_COMPUTE, /* value: trace timer ticks outside MPI calls */
    TRACE_OP_SEND,    /* value: bytes; opens request */
    TRACE_OP_RECV,    /* value: bytes expected (the sender's size is what travels) */
    TRACE_OP_WAIT,    /* blocks until request completes */
};

#define TRACE_ALLREDUCE_THRESHOLD 2048 /* bytes: MPICH's short-message allreduce limit */

/* Matching contexts: a communicator's point-to-point messages use its index, its collectives'
 * messages the index plus TRACE_COLLECTIVE_CONTEXT, so that the two never match each other
 * (as MPI's separate contexts). */
#define TRACE_COLLECTIVE_CONTEXT 0x80000000u

struct trace_op {
    uint8_t kind;    /* enum trace_op_kind */
    bool collective; /* part of a collective's decomposition */
    int32_t peer;    /* SEND, RECV: the other rank (a rank of the whole job) */
    uint32_t context;
    uint32_t tag;
    uint32_t request; /* SEND, RECV: the request it opens; WAIT: the one it waits for */
    uint64_t value;
    uint64_t event; /* the trace event it comes from (its index on its location), for errors */
};

struct trace_rank_program {
    struct trace_op *ops;
    uint32_t n_ops, capacity;
    uint32_t n_requests;
};

/* What the replayer skips, counted by kind for the result document. */
enum trace_skip_kind {
    TRACE_SKIP_ONE_SIDED,  /* RMA_* */
    TRACE_SKIP_IO,         /* IO_* */
    TRACE_SKIP_THREADS,    /* THREAD_*, OMP_*, events of locations that are not ranks */
    TRACE_SKIP_REQUEST,    /* MPI_REQUEST_TEST, MPI_REQUEST_CANCELLED (and the cancelled receive) */
    TRACE_SKIP_METRIC,     /* METRIC, PARAMETER_* */
    TRACE_SKIP_OTHER,      /* anything else the reader does not model */
    TRACE_SKIP_COUNT,
};
extern const char *const trace_skip_names[TRACE_SKIP_COUNT];

/* Every event record read, by the names otf2-print gives them. */
enum trace_event_kind {
    TRACE_EV_ENTER,
    TRACE_EV_LEAVE,
    TRACE_EV_MPI_SEND,
    TRACE_EV_MPI_ISEND,
    TRACE_EV_MPI_ISEND_COMPLETE,
    TRACE_EV_MPI_IRECV_REQUEST,
    TRACE_EV_MPI_RECV,
    TRACE_EV_MPI_IRECV,
    TRACE_EV_MPI_COLLECTIVE_BEGIN,
    TRACE_EV_MPI_COLLECTIVE_END,
    TRACE_EV_NON_BLOCKING_COLLECTIVE_COMPLETE,
    TRACE_EV_SKIPPED, /* every other record (counted by kind in skipped[]) */
    TRACE_EV_COUNT,
};
extern const char *const trace_event_names[TRACE_EV_COUNT];

struct trace_program {
    int nranks;
    struct trace_rank_program *ranks;
    uint64_t ticks_per_second; /* the trace's timer */
    uint64_t events[TRACE_EV_COUNT];
    uint64_t skipped[TRACE_SKIP_COUNT];
    uint64_t collectives; /* collective operations decomposed (one per rank and call) */
};

/* An empty program of nranks ranks; 0 or -1 (memory). */
int trace_program_init(struct trace_program *p, int nranks, uint64_t ticks_per_second);
void trace_program_free(struct trace_program *p);

/* Appends an op to rank's program; returns its index, or -1 (memory). */
int64_t trace_program_append(struct trace_program *p, int32_t rank, struct trace_op op);
/* A new request of rank. */
uint32_t trace_program_request(struct trace_program *p, int32_t rank);
/* Compute of ticks on rank (merged into a compute op just before it). 0 or -1. */
int trace_program_compute(struct trace_program *p, int32_t rank, uint64_t ticks);
/* A blocking send or receive: the op and a wait on its request. 0 or -1. */
int trace_program_blocking(struct trace_program *p, int32_t rank, uint8_t kind, int32_t peer,
                           uint32_t context, uint32_t tag, uint64_t bytes, uint64_t event);

/* The collectives the replayer decomposes (the OTF2 operation codes are mapped by the reader). */
enum trace_collective {
    TRACE_COLL_BARRIER,
    TRACE_COLL_BCAST,
    TRACE_COLL_GATHER,
    TRACE_COLL_GATHERV,
    TRACE_COLL_SCATTER,
    TRACE_COLL_SCATTERV,
    TRACE_COLL_ALLGATHER,
    TRACE_COLL_ALLGATHERV,
    TRACE_COLL_ALLTOALL,
    TRACE_COLL_ALLTOALLV,
    TRACE_COLL_ALLTOALLW,
    TRACE_COLL_REDUCE,
    TRACE_COLL_ALLREDUCE,
    TRACE_COLL_REDUCE_SCATTER,
    TRACE_COLL_REDUCE_SCATTER_BLOCK,
    TRACE_COLL_SCAN,
    TRACE_COLL_EXSCAN,
    TRACE_COLL_COUNT,
};
extern const char *const trace_collective_names[TRACE_COLL_COUNT];

/* One rank's part of a collective over a communicator of size members (world ranks, in
 * communicator rank order; me is this rank's position), as the trace records it: root (a
 * communicator rank; ignored where the operation has none) and the bytes this rank sent and
 * received. Appends its sends, receives and waits (see traffic/MODEL.md, "Trace jobs", for the
 * algorithms and how the recorded byte counts become message sizes). allreduce_threshold:
 * recursive doubling below, ring from it on. 0 or -1 (memory). */
int trace_program_collective(struct trace_program *p, int32_t rank, enum trace_collective op,
                             uint32_t context, const int32_t *members, int size, int me, int root,
                             uint64_t sent, uint64_t received, uint64_t allreduce_threshold,
                             uint64_t event);

/* Every receive has its send: the k-th receive of an envelope (source, destination,
 * communicator, tag) needs a k-th send. 0, or -1 with err naming the first receive without
 * one ("rank 1, event 7: receive from rank 0 (communicator 0, tag 9) never matches a send"). */
int trace_program_check_matching(const struct trace_program *p, char *err, size_t err_len);

#endif
