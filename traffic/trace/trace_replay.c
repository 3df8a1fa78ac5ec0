/* trace_replay: the engine of trace jobs (see trace_replay.h). Each rank runs its program: a
 * compute op parks it in a heap until its end, a wait on an incomplete request blocks it until
 * a send left or a receive arrived; everything else runs at once. A send takes the next
 * sequence number of its envelope (source, destination, context, tag) and a receive the next
 * of the same envelope at the receiver, and the two with equal numbers match: MPI's in-order
 * matching, whatever order the network delivers in. Protocol messages a delivery calls for
 * (clear-to-send, rendezvous data) wait in an outbox for the next advance, which the caller
 * runs at the next cycle (next_wake says so). */
#include "trace_replay.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_match.h"

#define RECV_POSTED 0x80000000u /* a match-table value naming a posted receive's request */

enum replay_state { RANK_READY, RANK_COMPUTE, RANK_BLOCKED, RANK_DONE };

enum replay_kind { MSG_EAGER, MSG_RTS, MSG_CTS, MSG_DATA, MSG_FREE };

struct replay_rank {
    uint32_t pc;
    uint8_t state;
    bool queued; /* in the ready queue */
    uint32_t blocked_on;
    uint64_t blocked_since;
    uint32_t request_base;
    struct trace_rank_times times;
    uint64_t sent, bytes_sent, received;
};

struct replay_request {
    bool open, done;
    uint32_t op;
    uint64_t posted;
};

struct replay_msg {
    uint8_t kind;
    int32_t src, dst;     /* of this network message */
    struct trace_key key; /* the application message's envelope */
    uint32_t send_req, recv_req;
    uint64_t bytes;
    uint64_t send_posted, recv_posted;
    uint32_t next_free;
};

struct replay_heap_item {
    uint64_t cycle, seq;
    int32_t rank;
};

struct trace_replay {
    const struct trace_program *prog;
    struct trace_replay_params params;
    double cycles_per_tick;
    int nranks;
    struct replay_rank *ranks;
    struct replay_request *requests;
    uint32_t n_requests;
    struct replay_msg *msgs;
    uint32_t n_msgs, cap_msgs, free_msg; /* free_msg: index + 1 of the first free, 0: none */
    struct trace_match matched, sends, recvs;
    int32_t *ready; /* FIFO of ranks, nranks slots */
    uint32_t ready_head, ready_count;
    struct replay_heap_item *heap;
    uint32_t heap_count;
    uint64_t heap_seq;
    uint32_t *outbox;
    uint32_t out_head, out_count, out_cap;
    uint64_t start, last_end;
    uint64_t due; /* the earliest cycle a rank became ready or a message was queued since the
                   * last advance; UINT64_MAX: none */
    int done_ranks;
    uint64_t control, local, unmatched, requests_opened, requests_done, ops_done, ops_total;
    char error[512];
};

void trace_replay_params_default(struct trace_replay_params *p)
{
    *p = (struct trace_replay_params){
        .eager_bytes = TRACE_EAGER_BYTES, .control_bytes = 0, .cycle_ns = 1, .compute_scale = 1};
}

/* ---- creation ----------------------------------------------------------------------------- */

struct trace_replay *trace_replay_create(const struct trace_program *program,
                                         const struct trace_replay_params *params, char *err,
                                         size_t err_len)
{
    if (program->nranks < 1) {
        snprintf(err, err_len, "the trace has no rank");
        return NULL;
    }
    if (!(params->cycle_ns > 0) || !(params->compute_scale >= 0) || !isfinite(params->cycle_ns) ||
        !isfinite(params->compute_scale)) {
        snprintf(err, err_len, "cycle_ns %g and compute_scale %g (expected > 0 and >= 0)",
                 params->cycle_ns, params->compute_scale);
        return NULL;
    }
    struct trace_replay *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    t->prog = program;
    t->params = *params;
    t->nranks = program->nranks;
    t->cycles_per_tick = params->compute_scale * 1e9 /
                         ((double)program->ticks_per_second * params->cycle_ns);
    t->ranks = calloc((size_t)t->nranks, sizeof *t->ranks);
    t->ready = malloc((size_t)t->nranks * sizeof *t->ready);
    t->heap = malloc((size_t)t->nranks * sizeof *t->heap);
    uint64_t requests = 0;
    for (int r = 0; t->ranks && r < t->nranks; r++) {
        t->ranks[r].request_base = (uint32_t)requests;
        requests += program->ranks[r].n_requests;
        t->ops_total += program->ranks[r].n_ops;
    }
    if (requests >= RECV_POSTED) {
        snprintf(err, err_len, "%" PRIu64 " requests (at most %u)", requests, RECV_POSTED - 1);
        trace_replay_destroy(t);
        return NULL;
    }
    t->n_requests = (uint32_t)requests;
    t->due = UINT64_MAX;
    t->requests = calloc(requests ? requests : 1, sizeof *t->requests);
    if (!t->ranks || !t->ready || !t->heap || !t->requests) {
        snprintf(err, err_len, "out of memory");
        trace_replay_destroy(t);
        return NULL;
    }
    return t;
}

void trace_replay_destroy(struct trace_replay *t)
{
    if (!t)
        return;
    free(t->ranks);
    free(t->requests);
    free(t->msgs);
    trace_match_free(&t->matched);
    trace_match_free(&t->sends);
    trace_match_free(&t->recvs);
    free(t->ready);
    free(t->heap);
    free(t->outbox);
    free(t);
}

/* ---- queues ------------------------------------------------------------------------------- */

static void ready_push(struct trace_replay *t, int32_t rank, uint64_t now)
{
    if (now < t->due)
        t->due = now;
    if (t->ranks[rank].queued)
        return;
    t->ranks[rank].queued = true;
    t->ready[(t->ready_head + t->ready_count++) % (uint32_t)t->nranks] = rank;
}

static int32_t ready_pop(struct trace_replay *t)
{
    int32_t rank = t->ready[t->ready_head];
    t->ready_head = (t->ready_head + 1) % (uint32_t)t->nranks;
    t->ready_count--;
    t->ranks[rank].queued = false;
    return rank;
}

static bool heap_before(const struct replay_heap_item *a, const struct replay_heap_item *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

static void heap_push(struct trace_replay *t, uint64_t cycle, int32_t rank)
{
    uint32_t i = t->heap_count++;
    struct replay_heap_item item = {cycle, t->heap_seq++, rank};
    while (i > 0 && heap_before(&item, &t->heap[(i - 1) / 2])) {
        t->heap[i] = t->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    t->heap[i] = item;
}

static int32_t heap_pop(struct trace_replay *t)
{
    int32_t rank = t->heap[0].rank;
    struct replay_heap_item last = t->heap[--t->heap_count];
    uint32_t i = 0;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= t->heap_count)
            break;
        if (child + 1 < t->heap_count && heap_before(&t->heap[child + 1], &t->heap[child]))
            child++;
        if (!heap_before(&t->heap[child], &last))
            break;
        t->heap[i] = t->heap[child];
        i = child;
    }
    if (t->heap_count)
        t->heap[i] = last;
    return rank;
}

static int outbox_push(struct trace_replay *t, uint32_t msg, uint64_t now)
{
    if (t->out_count == t->out_cap) {
        uint32_t cap = t->out_cap ? 2 * t->out_cap : 64;
        uint32_t *grown = malloc(cap * sizeof *grown);
        if (!grown)
            return -1;
        for (uint32_t i = 0; i < t->out_count; i++)
            grown[i] = t->outbox[(t->out_head + i) % t->out_cap];
        free(t->outbox);
        t->outbox = grown;
        t->out_head = 0;
        t->out_cap = cap;
    }
    if (now < t->due)
        t->due = now;
    t->outbox[(t->out_head + t->out_count++) % t->out_cap] = msg;
    return 0;
}

/* ---- messages ----------------------------------------------------------------------------- */

static int64_t msg_new(struct trace_replay *t)
{
    if (t->free_msg) {
        uint32_t index = t->free_msg - 1;
        t->free_msg = t->msgs[index].next_free;
        return index;
    }
    if (t->n_msgs == t->cap_msgs) {
        if (t->cap_msgs >= (1u << 31))
            return -1;
        uint32_t cap = t->cap_msgs ? 2 * t->cap_msgs : 256;
        struct replay_msg *grown = realloc(t->msgs, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        t->msgs = grown;
        t->cap_msgs = cap;
    }
    return t->n_msgs++;
}

static void msg_free(struct trace_replay *t, uint32_t index)
{
    t->msgs[index].kind = MSG_FREE;
    t->msgs[index].next_free = t->free_msg;
    t->free_msg = index + 1;
}

static uint64_t msg_wire_bytes(const struct trace_replay *t, const struct replay_msg *m)
{
    return m->kind == MSG_EAGER || m->kind == MSG_DATA ? m->bytes : t->params.control_bytes;
}

/* The next sequence number of an envelope in counters. */
static int next_seq(struct trace_match *counters, struct trace_key key, uint32_t *seq)
{
    key.seq = 0;
    uint32_t *count = trace_match_get(counters, &key);
    *seq = count ? *count : 0;
    return trace_match_put(counters, &key, *seq + 1);
}

static void replay_fail(struct trace_replay *t, const char *what)
{
    if (!t->error[0])
        snprintf(t->error, sizeof t->error, "%s", what);
}

/* ---- requests and ranks ------------------------------------------------------------------- */

/* A request of rank completed at now; partner_ready: when the other side reached the matching
 * call (the blocked time before it is waiting, after it communication). */
static void request_done(struct trace_replay *t, int32_t rank, uint32_t req, uint64_t now,
                         uint64_t partner_ready)
{
    struct replay_request *q = &t->requests[req];
    q->done = true;
    t->requests_done++;
    struct replay_rank *rk = &t->ranks[rank];
    if (rk->state != RANK_BLOCKED || rk->blocked_on != req)
        return;
    uint64_t blocked = now - rk->blocked_since;
    uint64_t waiting = partner_ready > rk->blocked_since ? partner_ready - rk->blocked_since : 0;
    if (waiting > blocked)
        waiting = blocked;
    rk->times.waiting += waiting;
    rk->times.communication += blocked - waiting;
    rk->state = RANK_READY;
    rk->pc++;
    ready_push(t, rank, now);
}

/* A posted receive req meets the arrived eager message or rendezvous request msg. */
static int consume(struct trace_replay *t, uint32_t index, uint32_t req, uint64_t now,
                   motif_send_fn send, void *ctx)
{
    struct replay_msg *m = &t->msgs[index];
    if (m->kind == MSG_EAGER) {
        t->ranks[m->key.dst].received++;
        int32_t dst = m->key.dst;
        uint64_t posted = m->send_posted;
        msg_free(t, index);
        request_done(t, dst, req, now, posted);
        return 0;
    }
    /* A rendezvous request: the receiver answers clear-to-send. */
    m->kind = MSG_CTS;
    m->src = m->key.dst;
    m->dst = m->key.src;
    m->recv_req = req;
    m->recv_posted = t->requests[req].posted;
    t->control++;
    if (send) {
        send(ctx, m->src, m->dst, t->params.control_bytes, index);
        return 0;
    }
    return outbox_push(t, index, now);
}

/* An eager message or a rendezvous request reached its receiver. */
static int arrival(struct trace_replay *t, uint32_t index, uint64_t now, motif_send_fn send,
                   void *ctx)
{
    struct trace_key key = t->msgs[index].key;
    uint32_t *value = trace_match_get(&t->matched, &key);
    if (value && (*value & RECV_POSTED)) {
        uint32_t req = *value & ~RECV_POSTED;
        trace_match_remove(&t->matched, &key);
        return consume(t, index, req, now, send, ctx);
    }
    t->unmatched++;
    return trace_match_put(&t->matched, &key, index);
}

static int post_send(struct trace_replay *t, int32_t rank, const struct trace_op *op,
                     uint64_t now, motif_send_fn send, void *ctx)
{
    struct trace_key key = {rank, op->peer, op->context, op->tag, 0};
    uint32_t req = t->ranks[rank].request_base + op->request;
    int64_t index = msg_new(t);
    if (index < 0 || next_seq(&t->sends, key, &key.seq) != 0)
        return -1;
    struct replay_request *q = &t->requests[req];
    q->open = true;
    q->posted = now;
    t->requests_opened++;
    t->ranks[rank].sent++;
    t->ranks[rank].bytes_sent += op->value;
    struct replay_msg *m = &t->msgs[index];
    *m = (struct replay_msg){.kind = op->value < t->params.eager_bytes || op->peer == rank
                                         ? MSG_EAGER
                                         : MSG_RTS,
                             .src = rank,
                             .dst = op->peer,
                             .key = key,
                             .send_req = req,
                             .bytes = op->value,
                             .send_posted = now};
    if (op->peer == rank) { /* to itself: no network; the send's buffer is free at once */
        t->local++;
        request_done(t, rank, req, now, now);
        return arrival(t, (uint32_t)index, now, send, ctx);
    }
    if (m->kind == MSG_RTS)
        t->control++;
    send(ctx, rank, op->peer, msg_wire_bytes(t, m), (uint32_t)index);
    return 0;
}

static int post_recv(struct trace_replay *t, int32_t rank, const struct trace_op *op,
                     uint64_t now, motif_send_fn send, void *ctx)
{
    struct trace_key key = {op->peer, rank, op->context, op->tag, 0};
    uint32_t req = t->ranks[rank].request_base + op->request;
    if (next_seq(&t->recvs, key, &key.seq) != 0)
        return -1;
    t->requests[req].open = true;
    t->requests[req].posted = now;
    t->requests_opened++;
    uint32_t *value = trace_match_get(&t->matched, &key);
    if (value && !(*value & RECV_POSTED)) {
        uint32_t index = *value;
        trace_match_remove(&t->matched, &key);
        t->unmatched--;
        return consume(t, index, req, now, send, ctx);
    }
    return trace_match_put(&t->matched, &key, RECV_POSTED | req);
}

static void rank_finish(struct trace_replay *t, int32_t rank, uint64_t now)
{
    struct replay_rank *rk = &t->ranks[rank];
    rk->state = RANK_DONE;
    rk->times.end = now - t->start;
    t->done_ranks++;
    if (now > t->last_end)
        t->last_end = now;
}

/* Runs rank's program from its pc until it computes, blocks or ends. */
static int rank_run(struct trace_replay *t, int32_t rank, uint64_t now, motif_send_fn send,
                    void *ctx)
{
    struct replay_rank *rk = &t->ranks[rank];
    const struct trace_rank_program *p = &t->prog->ranks[rank];
    while (rk->pc < p->n_ops) {
        const struct trace_op *op = &p->ops[rk->pc];
        switch (op->kind) {
        case TRACE_OP_COMPUTE: {
            uint64_t cycles = (uint64_t)llround((double)op->value * t->cycles_per_tick);
            rk->pc++;
            t->ops_done++;
            if (cycles == 0)
                continue;
            rk->times.compute += cycles;
            rk->state = RANK_COMPUTE;
            heap_push(t, now + cycles, rank);
            return 0;
        }
        case TRACE_OP_SEND:
        case TRACE_OP_RECV:
            if (op->peer < 0 || op->peer >= t->nranks) {
                snprintf(t->error, sizeof t->error,
                         "rank %d, event %" PRIu64 ": %s rank %d, which the job does not have "
                         "(%d ranks)",
                         rank, op->event, op->kind == TRACE_OP_SEND ? "send to" : "receive from",
                         op->peer, t->nranks);
                return -1;
            }
            if ((op->kind == TRACE_OP_SEND ? post_send : post_recv)(t, rank, op, now, send, ctx))
                return -1;
            t->requests[rk->request_base + op->request].op = rk->pc;
            rk->pc++;
            t->ops_done++;
            continue;
        case TRACE_OP_WAIT: {
            uint32_t req = rk->request_base + op->request;
            if (!t->requests[req].open) {
                snprintf(t->error, sizeof t->error,
                         "rank %d, event %" PRIu64 ": waits for a request it never opened", rank,
                         op->event);
                return -1;
            }
            t->ops_done++;
            if (t->requests[req].done) {
                rk->pc++;
                continue;
            }
            rk->state = RANK_BLOCKED;
            rk->blocked_on = req;
            rk->blocked_since = now;
            return 0;
        }
        }
    }
    rank_finish(t, rank, now);
    return 0;
}

/* ---- the engine --------------------------------------------------------------------------- */

void trace_replay_start(struct trace_replay *t, uint64_t now)
{
    t->start = t->last_end = now;
    for (int32_t r = 0; r < t->nranks; r++)
        ready_push(t, r, now);
}

uint64_t trace_replay_next_wake(const struct trace_replay *t)
{
    uint64_t computed = t->heap_count ? t->heap[0].cycle : UINT64_MAX;
    return t->due < computed ? t->due : computed;
}

int trace_replay_advance(struct trace_replay *t, uint64_t now, motif_send_fn send, void *ctx)
{
    if (t->error[0])
        return -1;
    while (t->out_count) {
        uint32_t index = t->outbox[t->out_head];
        t->out_head = (t->out_head + 1) % t->out_cap;
        t->out_count--;
        struct replay_msg *m = &t->msgs[index];
        send(ctx, m->src, m->dst, msg_wire_bytes(t, m), index);
    }
    while (t->heap_count && t->heap[0].cycle <= now) {
        int32_t rank = heap_pop(t);
        t->ranks[rank].state = RANK_READY;
        ready_push(t, rank, now);
    }
    while (t->ready_count) {
        int32_t rank = ready_pop(t);
        if (rank_run(t, rank, now, send, ctx) != 0) {
            replay_fail(t, "out of memory");
            return -1;
        }
    }
    if (!t->out_count) /* a delivery during the sends may have queued one */
        t->due = UINT64_MAX;
    return 0;
}

void trace_replay_sent(struct trace_replay *t, int32_t src_rank, uint32_t tag, uint64_t now)
{
    if (tag >= t->n_msgs || t->msgs[tag].src != src_rank) {
        replay_fail(t, "a message left that the replayer did not send");
        return;
    }
    struct replay_msg *m = &t->msgs[tag];
    if (m->kind == MSG_EAGER)
        request_done(t, m->key.src, m->send_req, now, m->send_posted);
    else if (m->kind == MSG_DATA)
        request_done(t, m->key.src, m->send_req, now, m->recv_posted);
}

void trace_replay_delivered(struct trace_replay *t, int32_t src_rank, int32_t dst_rank,
                            uint32_t tag, uint64_t now)
{
    if (tag >= t->n_msgs || t->msgs[tag].src != src_rank || t->msgs[tag].dst != dst_rank) {
        replay_fail(t, "a message arrived that the replayer did not send");
        return;
    }
    struct replay_msg *m = &t->msgs[tag];
    int rc = 0;
    switch (m->kind) {
    case MSG_EAGER:
    case MSG_RTS:
        rc = arrival(t, tag, now, NULL, NULL);
        break;
    case MSG_CTS: /* the sender may send the data now */
        m->kind = MSG_DATA;
        m->src = m->key.src;
        m->dst = m->key.dst;
        rc = outbox_push(t, tag, now);
        break;
    case MSG_DATA: {
        int32_t dst = m->key.dst;
        uint32_t req = m->recv_req;
        uint64_t posted = m->send_posted;
        t->ranks[dst].received++;
        msg_free(t, tag);
        request_done(t, dst, req, now, posted);
        break;
    }
    default:
        replay_fail(t, "a message arrived twice");
    }
    if (rc)
        replay_fail(t, "out of memory");
}

bool trace_replay_done(const struct trace_replay *t)
{
    return t->done_ranks == t->nranks;
}

const char *trace_replay_error(const struct trace_replay *t)
{
    return t->error[0] ? t->error : NULL;
}

/* What a blocked rank waits for: "rank 1, event 12: receive from rank 0 (context 0, tag 3,
 * 64 bytes)". */
static int describe_rank(const struct trace_replay *t, int32_t rank, char *buf, size_t len)
{
    const struct replay_rank *rk = &t->ranks[rank];
    const struct trace_op *op = &t->prog->ranks[rank].ops[t->requests[rk->blocked_on].op];
    bool recv = op->kind == TRACE_OP_RECV;
    bool collective = op->context & TRACE_COLLECTIVE_CONTEXT;
    return snprintf(buf, len,
                    "rank %d, event %" PRIu64 ": %s%s rank %d (communicator %" PRIu32
                    ", tag %" PRIu32 ", %" PRIu64 " bytes%s)",
                    rank, op->event, collective ? "a collective's " : "",
                    recv ? "receive from" : "send to", op->peer,
                    op->context & ~TRACE_COLLECTIVE_CONTEXT, op->tag, op->value,
                    recv || op->value < t->params.eager_bytes ? "" : ", rendezvous");
}

int trace_replay_describe_waiting(const struct trace_replay *t, char *buf, size_t len)
{
    int count = 0;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int32_t r = 0; r < t->nranks; r++) {
        if (t->ranks[r].state != RANK_BLOCKED)
            continue;
        if (count++ && used + 2 < len)
            used += (size_t)snprintf(buf + used, len - used, "; ");
        if (used + 1 < len) {
            int n = describe_rank(t, r, buf + used, len - used);
            used += n > 0 ? (size_t)n : 0;
            if (used >= len)
                used = len - 1;
        }
    }
    return count;
}

int trace_replay_check_stuck(struct trace_replay *t)
{
    if (trace_replay_done(t))
        return 0;
    for (int32_t r = 0; r < t->nranks; r++) {
        if (t->ranks[r].state != RANK_BLOCKED)
            continue;
        char what[400];
        describe_rank(t, r, what, sizeof what);
        const struct trace_op *op =
            &t->prog->ranks[r].ops[t->requests[t->ranks[r].blocked_on].op];
        snprintf(t->error, sizeof t->error, "%s %s (%d of %d ranks blocked)", what,
                 op->kind == TRACE_OP_RECV ? "never matches a send"
                                           : "never meets a matching receive",
                 trace_replay_describe_waiting(t, NULL, 0), t->nranks);
        return -1;
    }
    replay_fail(t, "no rank can go on");
    return -1;
}

/* ---- statistics --------------------------------------------------------------------------- */

uint64_t trace_replay_runtime(const struct trace_replay *t)
{
    return trace_replay_done(t) ? t->last_end - t->start : 0;
}

void trace_replay_rank_times(const struct trace_replay *t, int32_t rank,
                             struct trace_rank_times *out)
{
    *out = t->ranks[rank].times;
}

int trace_replay_nranks(const struct trace_replay *t)
{
    return t->nranks;
}

uint64_t trace_replay_messages_sent(const struct trace_replay *t, int32_t rank)
{
    return t->ranks[rank].sent;
}

uint64_t trace_replay_bytes_sent(const struct trace_replay *t, int32_t rank)
{
    return t->ranks[rank].bytes_sent;
}

uint64_t trace_replay_messages_received(const struct trace_replay *t, int32_t rank)
{
    return t->ranks[rank].received;
}

uint64_t trace_replay_control_messages(const struct trace_replay *t)
{
    return t->control;
}

uint64_t trace_replay_local_messages(const struct trace_replay *t)
{
    return t->local;
}

uint64_t trace_replay_requests(const struct trace_replay *t)
{
    return t->requests_opened;
}

uint64_t trace_replay_requests_completed(const struct trace_replay *t)
{
    return t->requests_done;
}

uint64_t trace_replay_ops_done(const struct trace_replay *t)
{
    return t->ops_done;
}

uint64_t trace_replay_ops_total(const struct trace_replay *t)
{
    return t->ops_total;
}

uint64_t trace_replay_unmatched(const struct trace_replay *t)
{
    return t->unmatched;
}
