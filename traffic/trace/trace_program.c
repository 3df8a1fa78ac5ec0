/* trace_program: per-rank programs of a trace job, and the decomposition of collectives into
 * the messages of the algorithms the motifs use (traffic/MODEL.md, "Trace jobs"). */
#include "trace_program.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_match.h"

const char *const trace_skip_names[TRACE_SKIP_COUNT] = {
    "one_sided", "io", "threads", "request_test_cancel", "metric_parameter", "other",
};

const char *const trace_event_names[TRACE_EV_COUNT] = {
    "ENTER",
    "LEAVE",
    "MPI_SEND",
    "MPI_ISEND",
    "MPI_ISEND_COMPLETE",
    "MPI_IRECV_REQUEST",
    "MPI_RECV",
    "MPI_IRECV",
    "MPI_COLLECTIVE_BEGIN",
    "MPI_COLLECTIVE_END",
    "NON_BLOCKING_COLLECTIVE_COMPLETE",
    "skipped",
};

const char *const trace_collective_names[TRACE_COLL_COUNT] = {
    "BARRIER",   "BCAST",     "GATHER",         "GATHERV",
    "SCATTER",   "SCATTERV",  "ALLGATHER",      "ALLGATHERV",
    "ALLTOALL",  "ALLTOALLV", "ALLTOALLW",      "REDUCE",
    "ALLREDUCE", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "SCAN",
    "EXSCAN",
};

int trace_program_init(struct trace_program *p, int nranks, uint64_t ticks_per_second)
{
    memset(p, 0, sizeof *p);
    p->nranks = nranks;
    p->ticks_per_second = ticks_per_second;
    p->ranks = calloc(nranks > 0 ? (size_t)nranks : 1, sizeof *p->ranks);
    return p->ranks ? 0 : -1;
}

void trace_program_free(struct trace_program *p)
{
    if (p->ranks)
        for (int r = 0; r < p->nranks; r++)
            free(p->ranks[r].ops);
    free(p->ranks);
    p->ranks = NULL;
}

int64_t trace_program_append(struct trace_program *p, int32_t rank, struct trace_op op)
{
    struct trace_rank_program *rp = &p->ranks[rank];
    if (rp->n_ops == rp->capacity) {
        uint32_t capacity = rp->capacity ? 2 * rp->capacity : 64;
        struct trace_op *ops = realloc(rp->ops, (size_t)capacity * sizeof *ops);
        if (!ops)
            return -1;
        rp->ops = ops;
        rp->capacity = capacity;
    }
    rp->ops[rp->n_ops] = op;
    return rp->n_ops++;
}

uint32_t trace_program_request(struct trace_program *p, int32_t rank)
{
    return p->ranks[rank].n_requests++;
}

int trace_program_compute(struct trace_program *p, int32_t rank, uint64_t ticks)
{
    if (ticks == 0)
        return 0;
    struct trace_rank_program *rp = &p->ranks[rank];
    if (rp->n_ops && rp->ops[rp->n_ops - 1].kind == TRACE_OP_COMPUTE) {
        rp->ops[rp->n_ops - 1].value += ticks;
        return 0;
    }
    return trace_program_append(p, rank, (struct trace_op){.kind = TRACE_OP_COMPUTE, .value = ticks}) < 0
               ? -1
               : 0;
}

int trace_program_blocking(struct trace_program *p, int32_t rank, uint8_t kind, int32_t peer,
                           uint32_t context, uint32_t tag, uint64_t bytes, uint64_t event)
{
    uint32_t request = trace_program_request(p, rank);
    struct trace_op op = {.kind = kind, .peer = peer, .context = context, .tag = tag,
                          .request = request, .value = bytes, .event = event};
    if (trace_program_append(p, rank, op) < 0)
        return -1;
    struct trace_op wait = {.kind = TRACE_OP_WAIT, .request = request, .event = event};
    return trace_program_append(p, rank, wait) < 0 ? -1 : 0;
}

/* ---- collectives -------------------------------------------------------------------------- */

/* A step of a collective: its sends and receives go out at once, then it waits for them all. */
struct trace_step {
    struct trace_program *p;
    int32_t rank;
    uint32_t context, tag;
    const int32_t *members;
    uint64_t event;
    uint32_t first_request, requests;
    int failed;
};

static void step_op(struct trace_step *s, uint8_t kind, int peer, uint64_t bytes)
{
    uint32_t request = trace_program_request(s->p, s->rank);
    if (s->requests == 0)
        s->first_request = request;
    s->requests++;
    struct trace_op op = {.kind = kind, .collective = true, .peer = s->members[peer],
                          .context = s->context, .tag = s->tag, .request = request,
                          .value = bytes, .event = s->event};
    if (trace_program_append(s->p, s->rank, op) < 0)
        s->failed = -1;
}

static void step_send(struct trace_step *s, int peer, uint64_t bytes)
{
    step_op(s, TRACE_OP_SEND, peer, bytes);
}

static void step_recv(struct trace_step *s, int peer, uint64_t bytes)
{
    step_op(s, TRACE_OP_RECV, peer, bytes);
}

/* Requests of one step are consecutive: wait for each. */
static void step_wait(struct trace_step *s)
{
    for (uint32_t i = 0; i < s->requests; i++) {
        struct trace_op op = {.kind = TRACE_OP_WAIT, .collective = true,
                              .request = s->first_request + i, .event = s->event};
        if (trace_program_append(s->p, s->rank, op) < 0)
            s->failed = -1;
    }
    s->requests = 0;
}

/* Chunk c of n of a vector of bytes: bytes / n, plus one for the first bytes mod n chunks. */
static uint64_t chunk(uint64_t bytes, int n, int c)
{
    return bytes / (uint64_t)n + ((uint64_t)c < bytes % (uint64_t)n);
}

static int mod(int a, int n)
{
    return ((a % n) + n) % n;
}

static void coll_barrier(struct trace_step *s, int n, int me)
{
    for (int d = 1; d < n; d *= 2) {
        step_send(s, mod(me + d, n), 0);
        step_recv(s, mod(me - d, n), 0);
        step_wait(s);
    }
}

/* Binomial tree from root (v = rank relative to root): v receives from v - 2^k in the round
 * k of its highest bit, then sends to v + 2^j in each later round j, one after the other. */
static void coll_bcast(struct trace_step *s, int n, int me, int root, uint64_t bytes)
{
    int v = mod(me - root, n), k = 0;
    if (v > 0) {
        while ((2 << k) <= v)
            k++;
        step_recv(s, mod(v - (1 << k) + root, n), bytes);
        step_wait(s);
        k++;
    }
    for (; (1 << k) < n; k++) {
        if (v < (1 << k) && v + (1 << k) < n) {
            step_send(s, mod(v + (1 << k) + root, n), bytes);
            step_wait(s);
        }
    }
}

/* The broadcast's tree the other way: children first (the latest round first), then the
 * parent. */
static void coll_reduce(struct trace_step *s, int n, int me, int root, uint64_t bytes)
{
    int v = mod(me - root, n), rounds = 0;
    while ((1 << rounds) < n)
        rounds++;
    for (int k = rounds - 1; k >= 0; k--) {
        if (v < (1 << k)) {
            if (v + (1 << k) < n) {
                step_recv(s, mod(v + (1 << k) + root, n), bytes);
                step_wait(s);
            }
        } else if (v < (2 << k)) {
            step_send(s, mod(v - (1 << k) + root, n), bytes);
            step_wait(s);
            return;
        }
    }
}

/* Every other rank sends straight to root, which receives them all at once. */
static void coll_gather(struct trace_step *s, int n, int me, int root, uint64_t sent,
                        uint64_t received)
{
    if (me != root) {
        step_send(s, root, sent);
    } else {
        for (int i = 1; i < n; i++)
            step_recv(s, mod(root + i, n), chunk(received, n, mod(root + i, n)));
    }
    step_wait(s);
}

static void coll_scatter(struct trace_step *s, int n, int me, int root, uint64_t sent,
                         uint64_t received)
{
    if (me != root) {
        step_recv(s, root, received);
    } else {
        for (int i = 1; i < n; i++)
            step_send(s, mod(root + i, n), chunk(sent, n, mod(root + i, n)));
    }
    step_wait(s);
}

/* Ring: n - 1 steps, each sending one block to me + 1 and receiving one from me - 1. */
static void coll_ring(struct trace_step *s, int n, int me, uint64_t vector, int steps)
{
    for (int k = 0; k < steps; k++) {
        step_send(s, mod(me + 1, n), chunk(vector, n, mod(me - k, n)));
        step_recv(s, mod(me - 1, n), chunk(vector, n, mod(me - k - 1, n)));
        step_wait(s);
    }
}

/* Pairwise exchange: at step k rank me sends to me + k and receives from me - k. */
static void coll_alltoall(struct trace_step *s, int n, int me, uint64_t sent, uint64_t received)
{
    for (int k = 1; k < n; k++) {
        step_send(s, mod(me + k, n), chunk(sent, n, mod(me + k, n)));
        step_recv(s, mod(me - k, n), chunk(received, n, mod(me - k, n)));
        step_wait(s);
    }
}

/* MPICH's recursive doubling for any n (as the allreduce motif). */
static void coll_recursive_doubling(struct trace_step *s, int n, int me, uint64_t bytes)
{
    int p2 = 1;
    while (2 * p2 <= n)
        p2 *= 2;
    int rem = n - p2, newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            step_send(s, me + 1, bytes);
            newrank = -1;
        } else {
            step_recv(s, me - 1, bytes);
            newrank = me / 2;
        }
        step_wait(s);
    } else {
        newrank = me - rem;
    }
    if (newrank >= 0) {
        for (int mask = 1; mask < p2; mask *= 2) {
            int newdst = newrank ^ mask;
            int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
            step_send(s, dst, bytes);
            step_recv(s, dst, bytes);
            step_wait(s);
        }
    }
    if (me < 2 * rem) {
        if (me % 2 == 1)
            step_send(s, me - 1, bytes);
        else
            step_recv(s, me + 1, bytes);
        step_wait(s);
    }
}

static void coll_scan(struct trace_step *s, int n, int me, uint64_t bytes)
{
    if (me > 0) {
        step_recv(s, me - 1, bytes);
        step_wait(s);
    }
    if (me + 1 < n) {
        step_send(s, me + 1, bytes);
        step_wait(s);
    }
}

int trace_program_collective(struct trace_program *p, int32_t rank, enum trace_collective op,
                             uint32_t context, const int32_t *members, int size, int me, int root,
                             uint64_t sent, uint64_t received, uint64_t allreduce_threshold,
                             uint64_t event)
{
    p->collectives++;
    if (size < 2)
        return 0; /* a communicator of one: nothing crosses the network */
    struct trace_step s = {.p = p, .rank = rank, .context = context | TRACE_COLLECTIVE_CONTEXT,
                           .tag = (uint32_t)op, .members = members, .event = event};
    int n = size;
    if (root < 0 || root >= n)
        root = 0;
    switch (op) {
    case TRACE_COLL_BARRIER:
        coll_barrier(&s, n, me);
        break;
    case TRACE_COLL_BCAST: /* Score-P counts the root's vector once per rank */
        coll_bcast(&s, n, me, root, me == root ? sent / (uint64_t)n : received);
        break;
    case TRACE_COLL_REDUCE:
        coll_reduce(&s, n, me, root, sent);
        break;
    case TRACE_COLL_GATHER:
    case TRACE_COLL_GATHERV:
        coll_gather(&s, n, me, root, sent, received);
        break;
    case TRACE_COLL_SCATTER:
    case TRACE_COLL_SCATTERV:
        coll_scatter(&s, n, me, root, sent, received);
        break;
    case TRACE_COLL_ALLGATHER:
    case TRACE_COLL_ALLGATHERV:
        coll_ring(&s, n, me, sent, n - 1);
        break;
    case TRACE_COLL_ALLTOALL:
    case TRACE_COLL_ALLTOALLV:
    case TRACE_COLL_ALLTOALLW:
        coll_alltoall(&s, n, me, sent, received);
        break;
    case TRACE_COLL_ALLREDUCE: {
        uint64_t vector = sent / (uint64_t)n; /* Score-P counts the vector once per rank */
        if (vector < allreduce_threshold)
            coll_recursive_doubling(&s, n, me, vector);
        else
            coll_ring(&s, n, me, vector, 2 * (n - 1));
        break;
    }
    case TRACE_COLL_REDUCE_SCATTER:
    case TRACE_COLL_REDUCE_SCATTER_BLOCK:
        coll_ring(&s, n, me, sent, n - 1);
        break;
    case TRACE_COLL_SCAN:
    case TRACE_COLL_EXSCAN:
        coll_scan(&s, n, me, sent);
        break;
    case TRACE_COLL_COUNT:
        break;
    }
    return s.failed;
}

/* ---- matching ----------------------------------------------------------------------------- */

int trace_program_check_matching(const struct trace_program *p, char *err, size_t err_len)
{
    struct trace_match sends, recvs;
    trace_match_init(&sends);
    trace_match_init(&recvs);
    int rc = 0;
    for (int32_t r = 0; r < p->nranks && rc == 0; r++)
        for (uint32_t i = 0; i < p->ranks[r].n_ops && rc == 0; i++) {
            const struct trace_op *op = &p->ranks[r].ops[i];
            if (op->kind != TRACE_OP_SEND)
                continue;
            struct trace_key key = {r, op->peer, op->context, op->tag, 0};
            uint32_t *count = trace_match_get(&sends, &key);
            rc = trace_match_put(&sends, &key, count ? *count + 1 : 1);
        }
    for (int32_t r = 0; r < p->nranks && rc == 0; r++)
        for (uint32_t i = 0; i < p->ranks[r].n_ops && rc == 0; i++) {
            const struct trace_op *op = &p->ranks[r].ops[i];
            if (op->kind != TRACE_OP_RECV)
                continue;
            struct trace_key key = {op->peer, r, op->context, op->tag, 0};
            uint32_t *seen = trace_match_get(&recvs, &key);
            uint32_t k = seen ? *seen : 0;
            if (trace_match_put(&recvs, &key, k + 1) != 0) {
                rc = -1;
                break;
            }
            const uint32_t *sent = trace_match_get(&sends, &key);
            if (k < (sent ? *sent : 0))
                continue;
            snprintf(err, err_len,
                     "rank %d, event %" PRIu64 ": %sreceive from rank %d (communicator %" PRIu32
                     ", tag %" PRIu32 ") never matches a send (rank %d sends %" PRIu32
                     " such messages, and this is receive %" PRIu32 ")",
                     r, op->event, op->collective ? "a collective's " : "", op->peer,
                     op->context & ~TRACE_COLLECTIVE_CONTEXT, op->tag, op->peer,
                     sent ? *sent : 0, k + 1);
            rc = 1;
        }
    trace_match_free(&sends);
    trace_match_free(&recvs);
    if (rc < 0)
        snprintf(err, err_len, "out of memory");
    return rc ? -1 : 0;
}
