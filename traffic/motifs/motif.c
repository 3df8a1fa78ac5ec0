/* motif: the engine of closed-loop jobs. Each rank walks its iterations: a compute phase,
 * then the motif's steps; at a step it issues its sends and waits until they have left and
 * its receives have arrived. Ranks waiting for a compute phase to end wait in a heap by its
 * end, ranks whose step completed in a FIFO queue (cycles only grow), so advance touches only
 * ranks with something to do. Arrivals are kept per (receiver, sender, tag) until the receiver's
 * step that expects them completes: early messages of later steps are matched, and memory follows
 * the messages in flight, not ranks squared. */
#include "motif.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motif_arrivals.h"
#include "registry.h"

const struct motif_ops *const motif_registry[] = {
    &motif_pingpong,         &motif_alltoall,
    &motif_allreduce,        &motif_barrier,
    &motif_broadcast,        &motif_broadcast_flat,
    &motif_halo3d,           &motif_sweep3d,
    &motif_uniform_exchange, &motif_reduce, NULL,
};

REGISTRY_DEFINE(motif, struct motif_ops, motif_registry)

#define MOTIF_STATS_MAX_BYTES (1ULL << 31) /* per-rank iteration ends of one job */

/* A table shared by several motifs (broadcast's, read by broadcast_flat) belongs to the
 * first that points to it: the schema lists its settings once. */
const struct setting_table *motif_settings_at(int i)
{
    for (int j = 0; j < i; j++)
        if (motif_registry[j]->settings == motif_registry[i]->settings)
            return NULL;
    return motif_registry[i]->settings;
}

static const struct setting motif_grid_rows[] = {
    {.name = "dims",
     .type = SETTING_INT_LIST,
     .offset = offsetof(struct motif_grid_settings, dims),
     .min = 1,
     .max = SETTING_UNBOUNDED_INT,
     .doc = "halo3d (3), sweep3d (2): process grid, product = nodes ([]: balanced)"},
};

const struct setting_table motif_grid_table = {
    "jobs", "halo3d, sweep3d", motif_grid_rows, 1, sizeof(struct motif_grid_settings), NULL};

void motif_params_default(struct motif_params *p)
{
    *p = (struct motif_params){
        .message_bytes = 4096,
        .iterations = 1,
        .intensity = 1,
    };
}

void *motif_setting(struct motif_params *p, const struct motif_ops *ops, const char *name)
{
    const struct setting_table *t = ops->settings;
    if (!t || t->params_size > sizeof p->settings)
        return NULL;
    if (p->settings_of != t) {
        memset(p->settings, 0, sizeof p->settings);
        settings_table_defaults(t, p->settings);
        p->settings_of = t;
    }
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->rows[i].name, name) == 0)
            return p->settings + t->rows[i].offset;
    return NULL;
}

const void *motif_settings_of(const struct motif_instance *mi)
{
    return mi->params.settings_of ? mi->params.settings : NULL;
}

enum motif_rank_state {
    MOTIF_COMPUTE, /* in the computing queue until its compute phase ends */
    MOTIF_READY,   /* in the ready queue: issues its step's sends at the next advance */
    MOTIF_WAIT,    /* sends issued: waits for them to leave and for its receives */
    MOTIF_SYNC,    /* finished an iteration of a synchronised motif: waits for the others */
    MOTIF_DONE,
};

struct motif_rank {
    uint32_t iteration, step;
    uint32_t pending_sends, pending_recvs;
    uint8_t state;
    bool issuing;         /* inside advance's send calls: completion is checked after them */
    uint64_t step_start;  /* when it issued its current step's sends */
    uint64_t send_cycles; /* this step: cycles from issuing its sends to their leaving */
    uint64_t gap;         /* intensity < 1: extra compute before its next step */
    uint64_t sent, received, bytes_sent;
};

/* A FIFO of (cycle, rank) with cycles in nondecreasing order; each rank is in at most one
 * queue at a time, so nranks entries suffice. */
struct motif_queue {
    struct motif_timed {
        uint64_t cycle;
        int32_t rank;
    } * items;
    uint32_t head, count, capacity;
};

/* The ranks computing, by the cycle their compute phase ends and then by the order they began
 * it: a min-heap on (cycle, seq). With one compute time for all (no duty cycle) that is the
 * order a FIFO gives; with per-rank gaps the ends come out of order. */
struct motif_heap {
    struct motif_heaped {
        uint64_t cycle, seq;
        int32_t rank;
    } * items;
    uint32_t count, capacity;
    uint64_t next_seq;
};

struct motif_run {
    const struct motif_ops *ops;
    struct motif_instance mi;
    struct motif_rank *ranks;
    struct motif_queue ready;
    struct motif_heap computing;
    struct motif_arrivals arrivals;
    struct motif_send *send_buf;
    struct motif_recv *recv_buf;
    uint64_t *iteration_end; /* [rank * iterations + iteration] */
    uint32_t *finished;      /* [iteration]: ranks that have finished it */
    uint64_t start, last_end;
    int done_ranks, synced;
    motif_compute_fn on_compute; /* NULL: nobody asked */
    void *on_compute_ctx;
    char error[256];
};

/* ---- queues ----------------------------------------------------------------------------- */

static int motif_queue_init(struct motif_queue *q, uint32_t capacity)
{
    q->items = malloc(capacity * sizeof *q->items);
    q->head = q->count = 0;
    q->capacity = capacity;
    return q->items ? 0 : -1;
}

static void motif_queue_push(struct motif_queue *q, uint64_t cycle, int32_t rank)
{
    assert(q->count < q->capacity);
    uint32_t tail = (q->head + q->count) % q->capacity;
    assert(q->count == 0 || q->items[(q->head + q->count - 1) % q->capacity].cycle <= cycle);
    q->items[tail] = (struct motif_timed){cycle, rank};
    q->count++;
}

static uint64_t motif_queue_head_cycle(const struct motif_queue *q)
{
    return q->count ? q->items[q->head].cycle : UINT64_MAX;
}

static int32_t motif_queue_pop(struct motif_queue *q)
{
    int32_t rank = q->items[q->head].rank;
    q->head = (q->head + 1) % q->capacity;
    q->count--;
    return rank;
}

static int motif_heap_init(struct motif_heap *h, uint32_t capacity)
{
    h->items = malloc(capacity * sizeof *h->items);
    h->count = 0;
    h->capacity = capacity;
    h->next_seq = 0;
    return h->items ? 0 : -1;
}

static bool motif_heap_before(const struct motif_heaped *a, const struct motif_heaped *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

static void motif_heap_push(struct motif_heap *h, uint64_t cycle, int32_t rank)
{
    assert(h->count < h->capacity);
    uint32_t i = h->count++;
    struct motif_heaped item = {cycle, h->next_seq++, rank};
    while (i > 0 && motif_heap_before(&item, &h->items[(i - 1) / 2])) {
        h->items[i] = h->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->items[i] = item;
}

static uint64_t motif_heap_head_cycle(const struct motif_heap *h)
{
    return h->count ? h->items[0].cycle : UINT64_MAX;
}

static int32_t motif_heap_pop(struct motif_heap *h)
{
    int32_t rank = h->items[0].rank;
    struct motif_heaped last = h->items[--h->count];
    uint32_t i = 0;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= h->count)
            break;
        if (child + 1 < h->count && motif_heap_before(&h->items[child + 1], &h->items[child]))
            child++;
        if (!motif_heap_before(&h->items[child], &last))
            break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (h->count)
        h->items[i] = last;
    return rank;
}

/* ---- creation --------------------------------------------------------------------------- */

static int motif_run_check(const struct motif_ops *ops, const struct motif_params *p, int nranks,
                           char *err, size_t err_len, const char **fault_key)
{
    *fault_key = "nodes";
    if (nranks < 2) {
        snprintf(err, err_len, "%s needs at least 2 ranks (the job has %d)", ops->name, nranks);
        return -1;
    }
    if (p->iterations < 1) {
        *fault_key = "iterations";
        snprintf(err, err_len, "%s: iterations 0 (expected at least 1)", ops->name);
        return -1;
    }
    return 0;
}

/* Tags are iteration * steps + step in 32 bits; statistics keep one end per rank and
 * iteration. */
static int motif_run_check_sizes(const struct motif_run *m, char *err, size_t err_len,
                                 const char **fault_key)
{
    *fault_key = "iterations";
    const struct motif_instance *mi = &m->mi;
    uint64_t tags = (uint64_t)mi->params.iterations * mi->steps;
    if (tags > (uint64_t)UINT32_MAX + 1) {
        snprintf(err, err_len,
                 "%s: %u iterations of %u steps exceed the 32-bit message tags (expected at "
                 "most %llu iterations)",
                 m->ops->name, mi->params.iterations, mi->steps,
                 (unsigned long long)(((uint64_t)UINT32_MAX + 1) / mi->steps));
        return -1;
    }
    uint64_t bytes = (uint64_t)mi->nranks * mi->params.iterations * sizeof *m->iteration_end;
    if (bytes > MOTIF_STATS_MAX_BYTES) {
        snprintf(err, err_len,
                 "%s: %d ranks x %u iterations need %.1f GiB of per-iteration statistics "
                 "(expected at most 2 GiB: fewer iterations)",
                 m->ops->name, mi->nranks, mi->params.iterations, (double)bytes / (1 << 30));
        return -1;
    }
    return 0;
}

static int motif_run_alloc(struct motif_run *m)
{
    size_t n = (size_t)m->mi.nranks, iterations = m->mi.params.iterations;
    m->ranks = calloc(n, sizeof *m->ranks);
    m->send_buf = malloc((size_t)(m->mi.max_sends > 0 ? m->mi.max_sends : 1) * sizeof *m->send_buf);
    m->recv_buf = malloc((size_t)(m->mi.max_recvs > 0 ? m->mi.max_recvs : 1) * sizeof *m->recv_buf);
    m->iteration_end = malloc(n * iterations * sizeof *m->iteration_end);
    m->finished = calloc(iterations, sizeof *m->finished);
    if (!m->ranks || !m->send_buf || !m->recv_buf || !m->iteration_end || !m->finished)
        return -1;
    if (motif_heap_init(&m->computing, (uint32_t)n) != 0 ||
        motif_queue_init(&m->ready, (uint32_t)n) != 0)
        return -1;
    if (motif_arrivals_init(&m->arrivals, (uint32_t)n) != 0)
        return -1;
    for (size_t i = 0; i < n * iterations; i++)
        m->iteration_end[i] = UINT64_MAX;
    return 0;
}

struct motif_run *motif_run_create(const struct motif_ops *ops, const struct motif_params *p,
                                   int nranks, uint64_t seed, char *err, size_t err_len,
                                   const char **fault_key)
{
    const char *unused;
    if (!fault_key)
        fault_key = &unused;
    if (motif_run_check(ops, p, nranks, err, err_len, fault_key) != 0)
        return NULL;
    struct motif_run *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, err_len, "%s: out of memory", ops->name);
        return NULL;
    }
    m->ops = ops;
    m->mi = (struct motif_instance){.params = *p, .nranks = nranks, .seed = seed};
    if (ops->settings && m->mi.params.settings_of != ops->settings)
        motif_setting(&m->mi.params, ops, ""); /* its own settings at their defaults */
    if (ops->init(&m->mi, err, err_len) != 0) {
        *fault_key = m->mi.fault_key ? m->mi.fault_key : "nodes";
        free(m);
        return NULL;
    }
    assert(m->mi.steps >= 1);
    if (motif_run_check_sizes(m, err, err_len, fault_key) != 0) {
        motif_run_destroy(m);
        return NULL;
    }
    if (motif_run_alloc(m) != 0) {
        *fault_key = "nodes";
        snprintf(err, err_len, "%s: out of memory for %d ranks", ops->name, nranks);
        motif_run_destroy(m);
        return NULL;
    }
    return m;
}

void motif_run_destroy(struct motif_run *m)
{
    if (!m)
        return;
    if (m->ops->destroy)
        m->ops->destroy(&m->mi);
    free(m->ranks);
    free(m->send_buf);
    free(m->recv_buf);
    free(m->iteration_end);
    free(m->finished);
    free(m->computing.items);
    free(m->ready.items);
    motif_arrivals_free(&m->arrivals);
    free(m);
}

/* ---- the life of a rank ----------------------------------------------------------------- */

static uint32_t motif_tag(const struct motif_run *m, uint32_t iteration, uint32_t step)
{
    return iteration * m->mi.steps + step;
}

void motif_run_tag_decode(const struct motif_run *m, uint32_t tag, uint32_t *iteration,
                          uint32_t *step)
{
    *iteration = tag / m->mi.steps;
    *step = tag % m->mi.steps;
}

static uint32_t motif_rank_tag(const struct motif_run *m, int32_t rank)
{
    const struct motif_rank *r = &m->ranks[rank];
    return motif_tag(m, r->iteration, r->step);
}

static void motif_fail(struct motif_run *m, const char *what, int32_t rank)
{
    if (!m->error[0])
        snprintf(m->error, sizeof m->error, "%s: %s (rank %d)", m->ops->name, what, rank);
}

static void motif_rank_ready(struct motif_run *m, int32_t rank, uint64_t now)
{
    m->ranks[rank].state = MOTIF_READY;
    motif_queue_push(&m->ready, now, rank);
}

/* The rank computes for `cycles` (0: none), then is ready for its current step. */
static void motif_rank_compute(struct motif_run *m, int32_t rank, uint64_t now, uint64_t cycles)
{
    if (cycles == 0) {
        motif_rank_ready(m, rank, now);
        return;
    }
    m->ranks[rank].state = MOTIF_COMPUTE;
    uint64_t wake = now + cycles < now ? UINT64_MAX : now + cycles;
    if (m->on_compute && m->on_compute(m->on_compute_ctx, rank, now, wake) != 0)
        motif_fail(m, "cannot record a compute phase (out of memory)", rank);
    motif_heap_push(&m->computing, wake, rank);
}

/* Step 0 of the rank's current iteration, after its compute phase (compute_cycles, plus the
 * intensity gap its last step left). */
static void motif_rank_begin_iteration(struct motif_run *m, int32_t rank, uint64_t now)
{
    struct motif_rank *r = &m->ranks[rank];
    r->step = 0;
    uint64_t compute = m->mi.params.compute_cycles + r->gap;
    if (compute < r->gap)
        compute = UINT64_MAX;
    r->gap = 0;
    motif_rank_compute(m, rank, now, compute);
}

/* Intensity i < 1: the step just completed kept the rank's sends in its NIC for S cycles
 * (from issuing them to the last one leaving); the rank computes S (1 - i) / i before its
 * next step (the last step's gap before its next iteration, on top of compute_cycles), so
 * that its node is sending a fraction i of its time. Per step, not per iteration: a long
 * iteration (an alltoall over 144 ranks outlasts a short application) is dialled too. The
 * sending time, not the time the step took: that includes waits for other ranks, themselves
 * in such gaps, and would feed on itself; the sending time grows only with the network's
 * back-pressure. Rounded to the nearest cycle. */
static void motif_rank_intensity_gap(struct motif_run *m, struct motif_rank *r)
{
    double i = m->mi.params.intensity;
    double gap = i < 1 && i > 0 ? (double)r->send_cycles * (1 - i) / i + 0.5 : 0;
    r->gap = gap >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)gap;
    r->send_cycles = 0;
}

/* The rank goes on to its next step of the iteration: at once, or after its intensity gap. */
static void motif_rank_next_step(struct motif_run *m, int32_t rank, uint64_t now)
{
    struct motif_rank *r = &m->ranks[rank];
    uint64_t gap = r->gap;
    r->gap = 0;
    motif_rank_compute(m, rank, now, gap);
}

void motif_run_carry_gaps(struct motif_run *next, const struct motif_run *done)
{
    assert(next->mi.nranks == done->mi.nranks);
    for (int32_t rank = 0; rank < next->mi.nranks; rank++)
        next->ranks[rank].gap = done->ranks[rank].gap;
}

void motif_run_observe_compute(struct motif_run *m, motif_compute_fn fn, void *ctx)
{
    m->on_compute = fn;
    m->on_compute_ctx = ctx;
}

void motif_run_start(struct motif_run *m, uint64_t now)
{
    m->start = m->last_end = now;
    for (int32_t rank = 0; rank < m->mi.nranks; rank++)
        motif_rank_begin_iteration(m, rank, now);
}

/* Synchronised motifs: once every rank has finished, all begin the next iteration together. */
static void motif_rank_sync(struct motif_run *m, int32_t rank, uint64_t now)
{
    m->ranks[rank].state = MOTIF_SYNC;
    if (++m->synced < m->mi.nranks)
        return;
    m->synced = 0;
    for (int32_t q = 0; q < m->mi.nranks; q++)
        motif_rank_begin_iteration(m, q, now);
}

static void motif_rank_end_iteration(struct motif_run *m, int32_t rank, uint64_t now)
{
    struct motif_rank *r = &m->ranks[rank];
    uint32_t iterations = m->mi.params.iterations;
    m->iteration_end[(size_t)rank * iterations + r->iteration] = now;
    if (now > m->last_end)
        m->last_end = now;
    if (++m->finished[r->iteration] == (uint32_t)m->mi.nranks && m->ops->iteration_done)
        m->ops->iteration_done(&m->mi, r->iteration);
    r->step = 0;
    if (++r->iteration == iterations) {
        r->state = MOTIF_DONE;
        m->done_ranks++;
    } else if (m->ops->global_sync) {
        motif_rank_sync(m, rank, now);
    } else {
        motif_rank_begin_iteration(m, rank, now);
    }
}

/* The step's sends have left and its receives arrived: forget them, go on. */
static void motif_rank_complete_step(struct motif_run *m, int32_t rank, uint64_t now)
{
    struct motif_rank *r = &m->ranks[rank];
    int count = m->ops->recvs(&m->mi, rank, r->iteration, r->step, m->recv_buf);
    if (count < 0) {
        motif_fail(m, "cannot list the receives of a step (out of memory)", rank);
        return;
    }
    uint32_t tag = motif_rank_tag(m, rank);
    for (int i = 0; i < count; i++) {
        uint32_t got = motif_arrivals_take(&m->arrivals, rank, m->recv_buf[i].src, tag);
        assert(got == m->recv_buf[i].count); /* a motif whose sends and receives disagree */
        (void)got;
    }
    motif_rank_intensity_gap(m, r);
    if (++r->step < m->mi.steps)
        motif_rank_next_step(m, rank, now);
    else
        motif_rank_end_iteration(m, rank, now);
}

static void motif_rank_check_complete(struct motif_run *m, int32_t rank, uint64_t now)
{
    const struct motif_rank *r = &m->ranks[rank];
    if (r->state == MOTIF_WAIT && !r->issuing && r->pending_sends == 0 && r->pending_recvs == 0)
        motif_rank_complete_step(m, rank, now);
}

/* How many of the step's receives are still to come, given those that arrived early. */
static int motif_rank_expect(struct motif_run *m, int32_t rank)
{
    struct motif_rank *r = &m->ranks[rank];
    int count = m->ops->recvs(&m->mi, rank, r->iteration, r->step, m->recv_buf);
    if (count < 0)
        return -1;
    assert(count <= m->mi.max_recvs);
    uint32_t tag = motif_rank_tag(m, rank);
    r->pending_recvs = 0;
    for (int i = 0; i < count; i++) {
        uint32_t early = motif_arrivals_count(&m->arrivals, rank, m->recv_buf[i].src, tag);
        assert(early <= m->recv_buf[i].count);
        r->pending_recvs += m->recv_buf[i].count - early;
    }
    return 0;
}

/* A ready rank enters its step: counts what it still expects and issues its sends. */
static int motif_rank_issue(struct motif_run *m, int32_t rank, uint64_t now, motif_send_fn send,
                            void *ctx)
{
    struct motif_rank *r = &m->ranks[rank];
    int count = motif_rank_expect(m, rank) == 0
                    ? m->ops->sends(&m->mi, rank, r->iteration, r->step, m->send_buf)
                    : -1;
    if (count < 0) {
        motif_fail(m, "cannot build a step (out of memory)", rank);
        return -1;
    }
    assert(count <= m->mi.max_sends);
    r->state = MOTIF_WAIT;
    r->pending_sends = (uint32_t)count;
    r->step_start = now;
    r->issuing = true;
    for (int i = 0; i < count; i++) {
        const struct motif_send *s = &m->send_buf[i];
        assert(s->dst >= 0 && s->dst < m->mi.nranks && s->dst != rank && s->step < m->mi.steps);
        r->sent++;
        r->bytes_sent += s->bytes;
        send(ctx, rank, s->dst, s->bytes, motif_tag(m, r->iteration, s->step));
    }
    r->issuing = false;
    motif_rank_check_complete(m, rank, now);
    return 0;
}

/* The next rank with something to do now: ready ranks first (in the order they became
 * ready), then ranks whose compute phase has ended. -1 if none. */
static int32_t motif_next_rank(struct motif_run *m, uint64_t now)
{
    if (m->ready.count)
        return motif_queue_pop(&m->ready);
    if (motif_heap_head_cycle(&m->computing) <= now)
        return motif_heap_pop(&m->computing);
    return -1;
}

int motif_run_advance(struct motif_run *m, uint64_t now, motif_send_fn send, void *ctx)
{
    for (int32_t rank; !m->error[0] && (rank = motif_next_rank(m, now)) >= 0;)
        if (motif_rank_issue(m, rank, now, send, ctx) != 0)
            break;
    return m->error[0] ? -1 : 0;
}

uint64_t motif_run_next_wake(const struct motif_run *m)
{
    uint64_t ready = motif_queue_head_cycle(&m->ready);
    uint64_t computing = motif_heap_head_cycle(&m->computing);
    return ready < computing ? ready : computing;
}

void motif_run_sent(struct motif_run *m, int32_t src_rank, uint32_t tag, uint64_t now)
{
    struct motif_rank *r = &m->ranks[src_rank];
    (void)tag;
    assert(r->state == MOTIF_WAIT && r->pending_sends > 0);
    if (--r->pending_sends == 0)
        r->send_cycles += now - r->step_start;
    motif_rank_check_complete(m, src_rank, now);
}

void motif_run_delivered(struct motif_run *m, int32_t src_rank, int32_t dst_rank, uint32_t tag,
                         uint64_t now)
{
    struct motif_rank *r = &m->ranks[dst_rank];
    assert(r->state != MOTIF_DONE && tag >= motif_rank_tag(m, dst_rank));
    r->received++;
    if (motif_arrivals_add(&m->arrivals, dst_rank, src_rank, tag) != 0) {
        motif_fail(m, "out of memory for early messages", dst_rank);
        return;
    }
    if (r->state == MOTIF_WAIT && tag == motif_rank_tag(m, dst_rank)) {
        assert(r->pending_recvs > 0);
        r->pending_recvs--;
        motif_rank_check_complete(m, dst_rank, now);
    }
}

bool motif_run_done(const struct motif_run *m)
{
    return m->done_ranks == m->mi.nranks;
}

const char *motif_run_error(const struct motif_run *m)
{
    return m->error[0] ? m->error : NULL;
}

/* ---- the watchdog's view ---------------------------------------------------------------- */

/* Appends text to buf (len bytes, used so far) if it fits whole; false if it does not. */
static bool motif_append(char *buf, size_t len, size_t *used, const char *text)
{
    size_t n = strlen(text);
    if (*used + n + 1 > len)
        return false;
    memcpy(buf + *used, text, n + 1);
    *used += n;
    return true;
}

/* "rank 5 (iteration 3, step 1): from rank 4 (0 of 1), rank 6 (1 of 2); 2 sends not left"
 * (out: MOTIF_DESCRIBE_ITEM bytes; a rank waiting for very many sources is cut short). */
#define MOTIF_DESCRIBE_ITEM 512
static void motif_describe_rank(struct motif_run *m, int32_t rank, char *out)
{
    const struct motif_rank *r = &m->ranks[rank];
    char part[96];
    size_t used = 0;
    out[0] = '\0';
    snprintf(part, sizeof part, "rank %d (iteration %u, step %u)", rank, r->iteration, r->step);
    motif_append(out, MOTIF_DESCRIBE_ITEM, &used, part);
    if (r->state == MOTIF_SYNC) {
        snprintf(part, sizeof part, ": waits for every rank to finish iteration %u",
                 r->iteration - 1);
        motif_append(out, MOTIF_DESCRIBE_ITEM, &used, part);
        return;
    }
    int count = m->ops->recvs(&m->mi, rank, r->iteration, r->step, m->recv_buf);
    uint32_t tag = motif_rank_tag(m, rank);
    const char *sep = ": from ";
    for (int i = 0; i < count; i++) {
        const struct motif_recv *rv = &m->recv_buf[i];
        uint32_t got = motif_arrivals_count(&m->arrivals, rank, rv->src, tag);
        if (got == rv->count)
            continue;
        snprintf(part, sizeof part, "%srank %d (%u of %u)", sep, rv->src, got, rv->count);
        if (!motif_append(out, MOTIF_DESCRIBE_ITEM - 32, &used, part))
            break;
        sep = ", ";
    }
    if (r->pending_sends) {
        snprintf(part, sizeof part, "; %u send%s not left", r->pending_sends,
                 r->pending_sends == 1 ? "" : "s");
        motif_append(out, MOTIF_DESCRIBE_ITEM, &used, part);
    }
}

int motif_run_describe_waiting(struct motif_run *m, char *buf, size_t len)
{
    int waiting = 0, shown = 0;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int32_t rank = 0; rank < m->mi.nranks; rank++) {
        uint8_t state = m->ranks[rank].state;
        if (state != MOTIF_WAIT && state != MOTIF_SYNC)
            continue;
        waiting++;
        char item[MOTIF_DESCRIBE_ITEM];
        motif_describe_rank(m, rank, item);
        if (shown == waiting - 1 && motif_append(buf, len, &used, shown ? "; " : "") &&
            motif_append(buf, len, &used, item))
            shown++;
    }
    if (shown < waiting) {
        char more[64];
        snprintf(more, sizeof more, " ... and %d more", waiting - shown);
        if (!motif_append(buf, len, &used, more) && len > 4)
            snprintf(buf + len - 5, 5, "...");
    }
    return waiting;
}

/* ---- statistics ------------------------------------------------------------------------- */

uint64_t motif_run_runtime(const struct motif_run *m)
{
    return motif_run_done(m) ? m->last_end - m->start : 0;
}

uint64_t motif_run_iteration_end(const struct motif_run *m, int32_t rank, uint32_t iteration)
{
    return m->iteration_end[(size_t)rank * m->mi.params.iterations + iteration];
}

uint32_t motif_run_iterations_completed(const struct motif_run *m)
{
    uint32_t done = 0;
    while (done < m->mi.params.iterations && m->finished[done] == (uint32_t)m->mi.nranks)
        done++;
    return done;
}

uint32_t motif_run_job_iteration_cycles(const struct motif_run *m, uint64_t *out)
{
    uint32_t done = motif_run_iterations_completed(m);
    uint64_t previous = m->start;
    for (uint32_t it = 0; it < done; it++) {
        uint64_t end = 0;
        for (int32_t rank = 0; rank < m->mi.nranks; rank++) {
            uint64_t e = motif_run_iteration_end(m, rank, it);
            end = e > end ? e : end;
        }
        out[it] = end - previous;
        previous = end;
    }
    return done;
}

static int motif_compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The smallest sample with at least num/den of the samples at or below it. */
static double motif_quantile(const uint64_t *sorted, uint64_t count, uint64_t num, uint64_t den)
{
    uint64_t rank = (num * count + den - 1) / den;
    return (double)sorted[rank ? rank - 1 : 0];
}

int motif_run_iteration_summary(const struct motif_run *m, struct motif_summary *out)
{
    uint32_t iterations = m->mi.params.iterations;
    size_t n = (size_t)m->mi.nranks * iterations, count = 0;
    *out = (struct motif_summary){0};
    uint64_t *durations = malloc((n ? n : 1) * sizeof *durations);
    if (!durations)
        return -1;
    for (int32_t rank = 0; rank < m->mi.nranks; rank++) {
        uint64_t begin = m->start;
        for (uint32_t it = 0; it < iterations; it++) {
            uint64_t end = motif_run_iteration_end(m, rank, it);
            if (end == UINT64_MAX)
                break;
            durations[count++] = end - begin;
            begin = end;
        }
    }
    if (count) {
        qsort(durations, count, sizeof *durations, motif_compare_u64);
        double sum = 0;
        for (size_t i = 0; i < count; i++)
            sum += (double)durations[i];
        *out = (struct motif_summary){count,
                                      (double)durations[0],
                                      motif_quantile(durations, count, 1, 4),
                                      motif_quantile(durations, count, 1, 2),
                                      motif_quantile(durations, count, 3, 4),
                                      (double)durations[count - 1],
                                      sum / (double)count};
    }
    free(durations);
    return 0;
}

uint64_t motif_run_messages_sent(const struct motif_run *m, int32_t rank)
{
    return m->ranks[rank].sent;
}

uint64_t motif_run_messages_received(const struct motif_run *m, int32_t rank)
{
    return m->ranks[rank].received;
}

uint64_t motif_run_bytes_sent(const struct motif_run *m, int32_t rank)
{
    return m->ranks[rank].bytes_sent;
}

uint64_t motif_run_unmatched(const struct motif_run *m)
{
    return m->arrivals.total;
}

/* ---- process grids ---------------------------------------------------------------------- */

/* The factorisation of n into `want` (2 or 3) factors, largest first, whose largest and
 * smallest factors are closest (ties: the smaller largest factor). */
static void motif_grid_balanced(int n, int want, int *dims)
{
    int best_spread = n + 1;
    for (int c = 1; want == 2 ? c == 1 : (long)c * c * c <= n; c++) {
        if (n % c)
            continue;
        int rest = n / c;
        for (int b = c; (long)b * b <= rest; b++) {
            if (rest % b)
                continue;
            int a = rest / b, low = want == 2 ? b : c;
            if (a - low < best_spread) {
                best_spread = a - low;
                dims[0] = a;
                dims[1] = b;
                if (want == 3)
                    dims[2] = c;
            }
        }
    }
}

int motif_grid(struct motif_instance *mi, const char *motif, int want, int *dims, char *err,
               size_t err_len)
{
    mi->fault_key = "dims";
    const struct motif_params *p = &mi->params;
    if (p->dims_count == 0) {
        motif_grid_balanced(mi->nranks, want, dims);
        mi->fault_key = NULL;
        return 0;
    }
    if (p->dims_count != want) {
        snprintf(err, err_len, "%s: dims has %d values (expected %d: the process grid)", motif,
                 p->dims_count, want);
        return -1;
    }
    int64_t product = 1;
    char text[96];
    size_t used = 0;
    for (int k = 0; k < want; k++) {
        if (p->dims[k] < 1) {
            snprintf(err, err_len, "%s: dims[%d] is %d (expected at least 1)", motif, k,
                     p->dims[k]);
            return -1;
        }
        if (product <= INT32_MAX) /* stays below 2^62: no overflow, and still too large */
            product *= p->dims[k];
        dims[k] = p->dims[k];
        used +=
            (size_t)snprintf(text + used, sizeof text - used, "%s%d", k ? " x " : "", p->dims[k]);
    }
    if (product != mi->nranks) {
        snprintf(err, err_len,
                 "%s: dims %s = %lld is not the job's %d ranks (expected a product equal to "
                 "nodes)",
                 motif, text, (long long)product, mi->nranks);
        return -1;
    }
    mi->fault_key = NULL;
    return 0;
}
