/* test_motif: the closed-loop engine and every motif against a fake network that delivers a
 * message latency + bytes/bandwidth cycles after it is issued (one NIC per rank, messages of a
 * rank leave one after the other), optionally with random extra delay so that messages
 * arrive in any order. Exact times where they can be computed by hand (ping-pong, barrier,
 * alltoall), byte counts (allreduce), completion and exactly-once delivery under jitter for
 * every motif and several n, determinism, the watchdog's text, and the arrivals table. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motif.h"
#include "motif_arrivals.h"
#include "rng.h"
#include "fake_events.h"
#include "test_util.h"

static char err[512];

/* ---- the fake network ------------------------------------------------------------------- */

struct fake_net {
    struct motif_run *m;
    int nranks;
    uint64_t latency, bandwidth, jitter; /* cycles, bytes per cycle, most extra cycles */
    struct rng rng;
    uint64_t *nic_free; /* [nranks]: when a rank's NIC has sent everything queued */
    struct fake_events events;
    uint64_t now;
    uint64_t messages, delivered, bytes, hash;
    uint32_t *pair;             /* [nranks * nranks] deliveries per (src, dst), NULL when large */
    int32_t drop_src, drop_dst; /* messages from drop_src to drop_dst never arrive */
    uint64_t peak_unmatched;
};

static void fake_push(struct fake_net *net, struct fake_event ev)
{
    fake_events_push(&net->events, ev);
}

static void fake_hash(struct fake_net *net, uint64_t value)
{
    net->hash = (net->hash ^ value) * 0x100000001b3ULL;
}

static void fake_send(void *ctx, int32_t src, int32_t dst, uint64_t bytes, uint32_t tag)
{
    struct fake_net *net = ctx;
    CU_ASSERT_FATAL(src >= 0 && src < net->nranks && dst >= 0 && dst < net->nranks);
    CU_ASSERT(src != dst);
    uint64_t start = net->nic_free[src] > net->now ? net->nic_free[src] : net->now;
    uint64_t left = start + bytes / net->bandwidth;
    net->nic_free[src] = left;
    fake_push(net, (struct fake_event){left, 0, FAKE_SENT, src, dst, tag, bytes});
    uint64_t extra = net->jitter ? rng_below(&net->rng, (uint32_t)net->jitter + 1) : 0;
    if (src != net->drop_src || dst != net->drop_dst)
        fake_push(net, (struct fake_event){left + net->latency + extra, 0, FAKE_DELIVERED, src, dst,
                                           tag, bytes});
    net->messages++;
    net->bytes += bytes;
    fake_hash(net, net->now);
    fake_hash(net, (uint64_t)src << 32 | (uint32_t)dst);
    fake_hash(net, bytes ^ (uint64_t)tag << 40);
}

static void fake_init(struct fake_net *net, struct motif_run *m, int nranks, uint64_t latency,
                      uint64_t bandwidth, uint64_t jitter, uint64_t seed)
{
    *net = (struct fake_net){.m = m,
                             .nranks = nranks,
                             .latency = latency,
                             .bandwidth = bandwidth,
                             .jitter = jitter,
                             .drop_src = -1,
                             .drop_dst = -1,
                             .hash = 0xcbf29ce484222325ULL};
    rng_seed(&net->rng, seed, 99);
    net->nic_free = calloc((size_t)nranks, sizeof *net->nic_free);
    if (nranks <= 256)
        net->pair = calloc((size_t)nranks * nranks, sizeof *net->pair);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net->nic_free);
}

static void fake_free(struct fake_net *net)
{
    free(net->nic_free);
    free(net->events.heap);
    free(net->pair);
}

static void fake_deliver(struct fake_net *net, const struct fake_event *ev)
{
    if (ev->kind == FAKE_SENT) {
        motif_run_sent(net->m, ev->src, ev->tag, ev->time);
        return;
    }
    net->delivered++;
    if (net->pair)
        net->pair[(size_t)ev->src * net->nranks + ev->dst]++;
    motif_run_delivered(net->m, ev->src, ev->dst, ev->tag, ev->time);
    if (motif_run_unmatched(net->m) > net->peak_unmatched)
        net->peak_unmatched = motif_run_unmatched(net->m);
}

/* Runs the motif from cycle 0 until it is done or nothing more can happen (a deadlock);
 * returns whether it finished. */
static bool fake_run(struct fake_net *net)
{
    motif_run_start(net->m, 0);
    for (;;) {
        CU_ASSERT_EQUAL_FATAL(motif_run_advance(net->m, net->now, fake_send, net), 0);
        uint64_t wake = motif_run_next_wake(net->m);
        uint64_t event = net->events.count ? net->events.heap[0].time : UINT64_MAX;
        uint64_t next = wake < event ? wake : event;
        if (next == UINT64_MAX)
            break;
        CU_ASSERT_FATAL(next >= net->now);
        net->now = next;
        while (net->events.count && net->events.heap[0].time == net->now) {
            struct fake_event ev = fake_events_pop(&net->events);
            fake_deliver(net, &ev);
        }
    }
    return motif_run_done(net->m);
}

/* A run of `motif` over n ranks; asserts creation succeeds. */
static struct motif_run *make_run(const char *motif, const struct motif_params *p, int n,
                                  uint64_t seed)
{
    const struct motif_ops *ops = motif_find(motif);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ops);
    struct motif_run *m = motif_run_create(ops, p, n, seed, err, sizeof err, NULL);
    if (!m)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

static struct motif_params params_of(uint64_t bytes, uint32_t iterations, uint64_t compute)
{
    struct motif_params p;
    motif_params_default(&p);
    p.message_bytes = bytes;
    p.iterations = iterations;
    p.compute_cycles = compute;
    return p;
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_registry(void)
{
    const char *const names[] = {"pingpong", "alltoall",  "allreduce",        "barrier",
                                 "broadcast", "broadcast_flat", "halo3d", "sweep3d",
                                 "uniform_exchange", "reduce"};
    CU_ASSERT_EQUAL(motif_count(), 10);
    for (int i = 0; i < 10; i++)
        CU_ASSERT_STRING_EQUAL(motif_names()[i], names[i]);
    CU_ASSERT_PTR_NULL(motif_find("alltoallv"));
    /* a motif's own settings fit the room motif_params keeps for them */
    for (int i = 0; i < motif_count(); i++) {
        const struct setting_table *t = motif_registry[i]->settings;
        CU_ASSERT(!t || (t->params_size <= MOTIF_SETTINGS_BYTES && strcmp(t->group, "jobs") == 0));
    }
}

/* Even rank: compute 50, ping leaves after 1024/16 = 64 cycles, arrives 100 later; the pong
 * likewise: an iteration of 50 + 2 (64 + 100) = 378 cycles, for every pair. */
static void test_pingpong_round_trip(void)
{
    for (int n = 2; n <= 6; n += 4) {
        struct motif_params p = params_of(1024, 3, 50);
        struct motif_run *m = make_run("pingpong", &p, n, 1);
        struct fake_net net;
        fake_init(&net, m, n, 100, 16, 0, 1);
        CU_ASSERT_FATAL(fake_run(&net));
        for (int32_t r = 0; r < n; r += 2)
            for (uint32_t it = 0; it < 3; it++)
                CU_ASSERT_EQUAL(motif_run_iteration_end(m, r, it), (it + 1) * 378);
        /* the odd rank's first iteration ends when its pong has left: 50 + 64 + 100 + 64 */
        CU_ASSERT_EQUAL(motif_run_iteration_end(m, 1, 0), 278);
        CU_ASSERT_EQUAL(motif_run_runtime(m), 3 * 378);
        CU_ASSERT_EQUAL(net.messages, (uint64_t)n * 3);
        fake_free(&net);
        motif_run_destroy(m);
    }
}

/* Zero compute, zero-byte messages: every round takes exactly one latency, an iteration
 * ceil(log2 n) of them. */
static void test_barrier_latencies(void)
{
    const int sizes[] = {2, 3, 5, 8, 13, 64};
    const uint64_t rounds[] = {1, 2, 3, 3, 4, 6};
    for (int k = 0; k < 6; k++) {
        int n = sizes[k];
        struct motif_params p = params_of(4096, 3, 0);
        struct motif_run *m = make_run("barrier", &p, n, 1);
        struct fake_net net;
        fake_init(&net, m, n, 7, 16, 0, 1);
        CU_ASSERT_FATAL(fake_run(&net));
        for (int32_t r = 0; r < n; r++)
            for (uint32_t it = 0; it < 3; it++)
                CU_ASSERT_EQUAL(motif_run_iteration_end(m, r, it), (it + 1) * rounds[k] * 7);
        CU_ASSERT_EQUAL(net.bytes, 0);
        CU_ASSERT_EQUAL(net.messages, 3 * rounds[k] * n);
        fake_free(&net);
        motif_run_destroy(m);
    }
}

/* Each rank must inject (n-1) M bytes: never done before (n-1) M / bandwidth; without jitter
 * every step takes M/bandwidth + latency exactly. Every ordered pair exchanges exactly one
 * message per iteration. */
static void test_alltoall_bound(void)
{
    const int sizes[] = {2, 5, 16};
    for (int k = 0; k < 3; k++)
        for (uint64_t jitter = 0; jitter <= 300; jitter += 300) {
            int n = sizes[k];
            struct motif_params p = params_of(4096, 2, 0);
            struct motif_run *m = make_run("alltoall", &p, n, 1);
            struct fake_net net;
            fake_init(&net, m, n, 50, 16, jitter, 3);
            CU_ASSERT_FATAL(fake_run(&net));
            uint64_t bound = (uint64_t)(n - 1) * 4096 / 16;
            for (int32_t r = 0; r < n; r++) {
                CU_ASSERT(motif_run_iteration_end(m, r, 0) >= bound);
                CU_ASSERT(motif_run_iteration_end(m, r, 1) >= 2 * bound);
                CU_ASSERT_EQUAL(motif_run_messages_received(m, r), 2 * (uint64_t)(n - 1));
                if (jitter == 0)
                    CU_ASSERT_EQUAL(motif_run_iteration_end(m, r, 0), (uint64_t)(n - 1) * 306);
                for (int32_t d = 0; d < n; d++)
                    CU_ASSERT_EQUAL(net.pair[(size_t)r * n + d], d == r ? 0 : 2);
            }
            CU_ASSERT_EQUAL(net.delivered, 2 * (uint64_t)n * (n - 1));
            CU_ASSERT_EQUAL(motif_run_unmatched(m), 0);
            fake_free(&net);
            motif_run_destroy(m);
        }
}

/* Ring: 2(n-1) messages per rank carrying 2(n-1)/n M bytes when n divides M, and 2(n-1) M in
 * all otherwise. Recursive doubling below the threshold: MPICH's message counts. */
static void test_allreduce_bytes(void)
{
    const int sizes[] = {2, 3, 4, 7};
    for (int k = 0; k < 4; k++) {
        int n = sizes[k];
        for (int exact = 0; exact < 2; exact++) {
            uint64_t bytes = exact ? (uint64_t)n * 4096 : 100003;
            struct motif_params p = params_of(bytes, 1, 0);
            struct motif_run *m = make_run("allreduce", &p, n, 1);
            struct fake_net net;
            fake_init(&net, m, n, 20, 64, 40, 5);
            CU_ASSERT_FATAL(fake_run(&net));
            for (int32_t r = 0; r < n; r++) {
                CU_ASSERT_EQUAL(motif_run_messages_sent(m, r), 2 * (uint64_t)(n - 1));
                if (exact)
                    CU_ASSERT_EQUAL(motif_run_bytes_sent(m, r), 2 * (uint64_t)(n - 1) * 4096);
            }
            CU_ASSERT_EQUAL(net.bytes, 2 * (uint64_t)(n - 1) * bytes);
            fake_free(&net);
            motif_run_destroy(m);
        }
    }
    /* n = 6: p2 = 4, rem = 2. Ranks 0, 2 send once (pre-step); 1, 3 send twice in the doubling
     * steps and once after; 4, 5 send twice. */
    const uint64_t sends6[] = {1, 3, 1, 3, 2, 2};
    struct motif_params p = params_of(1024, 1, 0);
    struct motif_run *m = make_run("allreduce", &p, 6, 1);
    struct fake_net net;
    fake_init(&net, m, 6, 20, 64, 40, 5);
    CU_ASSERT_FATAL(fake_run(&net));
    for (int32_t r = 0; r < 6; r++) {
        CU_ASSERT_EQUAL(motif_run_messages_sent(m, r), sends6[r]);
        CU_ASSERT_EQUAL(motif_run_bytes_sent(m, r), sends6[r] * 1024);
    }
    fake_free(&net);
    motif_run_destroy(m);
    p = params_of(2048, 1, 0); /* at the threshold: the ring */
    m = make_run("allreduce", &p, 8, 1);
    fake_init(&net, m, 8, 20, 64, 0, 5);
    CU_ASSERT_FATAL(fake_run(&net));
    CU_ASSERT_EQUAL(motif_run_messages_sent(m, 0), 14);
    fake_free(&net);
    motif_run_destroy(m);
    p = params_of(2047, 1, 0); /* below: log2(8) = 3 exchanges */
    m = make_run("allreduce", &p, 8, 1);
    fake_init(&net, m, 8, 20, 64, 0, 5);
    CU_ASSERT_FATAL(fake_run(&net));
    CU_ASSERT_EQUAL(motif_run_messages_sent(m, 0), 3);
    fake_free(&net);
    motif_run_destroy(m);
}

/* The messages each motif sends per iteration over n ranks (with default params). */
static uint64_t expected_messages(const char *motif, int n)
{
    int rounds = 0;
    while ((1 << rounds) < n)
        rounds++;
    if (strcmp(motif, "pingpong") == 0)
        return (uint64_t)n;
    if (strcmp(motif, "alltoall") == 0)
        return (uint64_t)n * (n - 1);
    if (strcmp(motif, "barrier") == 0)
        return (uint64_t)n * rounds;
    if (strcmp(motif, "broadcast") == 0 || strcmp(motif, "broadcast_flat") == 0 ||
        strcmp(motif, "uniform_exchange") == 0)
        return (uint64_t)n - (strcmp(motif, "uniform_exchange") != 0);
    return 0; /* not checked */
}

/* Every motif finishes under random delivery order, for n = 2 and non-powers of two; every
 * message is delivered once and consumed (nothing left unmatched). */
static void test_all_motifs_complete(void)
{
    const int sizes[] = {2, 3, 5, 8, 12, 17, 30};
    for (int i = 0; i < motif_count(); i++) {
        const struct motif_ops *ops = motif_registry[i];
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int n = sizes[k];
            if (ops == &motif_pingpong && n % 2)
                continue;
            struct motif_params p = params_of(512, 4, 25);
            int *root = motif_setting(&p, ops, "root");
            bool *periodic = motif_setting(&p, ops, "periodic");
            if (root)
                *root = n - 1;
            if (periodic)
                *periodic = k % 2;
            struct motif_run *m = make_run(ops->name, &p, n, 42);
            struct fake_net net;
            fake_init(&net, m, n, 10, 8, 500, k + 1);
            bool done = fake_run(&net);
            CU_ASSERT(done);
            if (!done) {
                char text[512];
                motif_run_describe_waiting(m, text, sizeof text);
                fprintf(stderr, "\n  %s n=%d stuck: %s\n", ops->name, n, text);
            }
            CU_ASSERT_EQUAL(net.delivered, net.messages);
            CU_ASSERT_EQUAL(motif_run_unmatched(m), 0);
            CU_ASSERT_EQUAL(motif_run_iterations_completed(m), 4);
            uint64_t expected = expected_messages(ops->name, n);
            if (expected)
                CU_ASSERT_EQUAL(net.messages, 4 * expected);
            uint64_t received = 0;
            for (int32_t r = 0; r < n; r++)
                received += motif_run_messages_received(m, r);
            CU_ASSERT_EQUAL(received, net.messages);
            CU_ASSERT(motif_run_runtime(m) >= 4 * 25);
            fake_free(&net);
            motif_run_destroy(m);
        }
    }
}

/* With jitter much larger than a step, messages of later steps overtake earlier ones and must
 * wait in the table until their step; sweep3d's corner, which waits for nobody, sends all its
 * waves at once, so its neighbours get messages of many later iterations early. */
static void test_early_arrivals(void)
{
    const char *const motifs[] = {"alltoall", "sweep3d"};
    const uint64_t least[] = {1, 10};
    for (int k = 0; k < 2; k++) {
        struct motif_params p = params_of(0, 20, 0);
        struct motif_run *m = make_run(motifs[k], &p, 9, 1);
        struct fake_net net;
        fake_init(&net, m, 9, 1, 16, 2000, 8);
        CU_ASSERT_FATAL(fake_run(&net));
        CU_ASSERT(net.peak_unmatched >= least[k]);
        CU_ASSERT_EQUAL(motif_run_unmatched(m), 0);
        CU_ASSERT_EQUAL(motif_run_iterations_completed(m), 20);
        fake_free(&net);
        motif_run_destroy(m);
    }
}

/* The same seeds give the same message sequence (times, peers, sizes, tags); another motif
 * seed another one for the random motif. */
static void test_determinism(void)
{
    uint64_t hash[3];
    const uint64_t seeds[3] = {5, 5, 6};
    for (int k = 0; k < 3; k++) {
        struct motif_params p = params_of(300, 6, 13);
        struct motif_run *m = make_run("uniform_exchange", &p, 23, seeds[k]);
        struct fake_net net;
        fake_init(&net, m, 23, 10, 8, 90, 4);
        CU_ASSERT_FATAL(fake_run(&net));
        hash[k] = net.hash;
        fake_free(&net);
        motif_run_destroy(m);
    }
    CU_ASSERT_EQUAL(hash[0], hash[1]);
    CU_ASSERT(hash[0] != hash[2]);
}

/* A uniform_exchange iteration is a random function without fixed points: every rank sends
 * one message; in-degrees vary. */
static void test_uniform_exchange_matrix(void)
{
    struct motif_params p = params_of(64, 1, 0);
    struct motif_run *m = make_run("uniform_exchange", &p, 40, 3);
    struct fake_net net;
    fake_init(&net, m, 40, 10, 8, 0, 4);
    CU_ASSERT_FATAL(fake_run(&net));
    int zero_in = 0, multi_in = 0;
    for (int32_t d = 0; d < 40; d++) {
        int in = 0, out = 0;
        for (int32_t s = 0; s < 40; s++) {
            in += net.pair[(size_t)s * 40 + d];
            out += net.pair[(size_t)d * 40 + s];
        }
        CU_ASSERT_EQUAL(out, 1);
        CU_ASSERT_EQUAL(net.pair[(size_t)d * 40 + d], 0);
        CU_ASSERT_EQUAL((uint64_t)in, motif_run_messages_received(m, d));
        zero_in += in == 0;
        multi_in += in > 1;
    }
    CU_ASSERT(zero_in > 0 && multi_in > 0);
    fake_free(&net);
    motif_run_destroy(m);
}

/* halo3d: 6 distinct neighbours on a 3x4x5 torus; a ring of 2 gives the same neighbour twice;
 * without wrap-around a corner has 3. */
static void test_halo3d_neighbours(void)
{
    struct motif_params p = params_of(100, 1, 0);
    p.dims_count = 3;
    p.dims[0] = 3, p.dims[1] = 4, p.dims[2] = 5;
    struct motif_run *m = make_run("halo3d", &p, 60, 1);
    struct fake_net net;
    fake_init(&net, m, 60, 10, 8, 0, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    for (int32_t r = 0; r < 60; r++)
        CU_ASSERT_EQUAL(motif_run_messages_sent(m, r), 6);
    /* rank 0 = (0,0,0): -x is (2,0,0) = 2, -y is (0,3,0) = 9, -z is (0,0,4) = 48 */
    CU_ASSERT_EQUAL(net.pair[0 * 60 + 2], 1);
    CU_ASSERT_EQUAL(net.pair[0 * 60 + 9], 1);
    CU_ASSERT_EQUAL(net.pair[0 * 60 + 48], 1);
    CU_ASSERT_EQUAL(net.pair[0 * 60 + 12], 1);
    fake_free(&net);
    motif_run_destroy(m);
    p.dims[0] = 2, p.dims[1] = 3, p.dims[2] = 1;
    m = make_run("halo3d", &p, 6, 1);
    fake_init(&net, m, 6, 10, 8, 50, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    CU_ASSERT_EQUAL(net.pair[0 * 6 + 1], 2); /* +x and -x of a ring of 2 */
    CU_ASSERT_EQUAL(motif_run_messages_sent(m, 0), 4);
    fake_free(&net);
    motif_run_destroy(m);
    *(bool *)motif_setting(&p, &motif_halo3d, "periodic") = false;
    p.dims[0] = 3, p.dims[1] = 4, p.dims[2] = 5;
    m = make_run("halo3d", &p, 60, 1);
    fake_init(&net, m, 60, 10, 8, 50, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    CU_ASSERT_EQUAL(motif_run_messages_sent(m, 0), 3);
    CU_ASSERT_EQUAL(motif_run_messages_sent(m, 1 + 3 * 1 + 12 * 1), 6);
    fake_free(&net);
    motif_run_destroy(m);
}

/* sweep3d on 4 x 3 without compute or jitter, 10 cycles per message on the NIC and 10 of
 * latency: a rank sends +x first, then +y, so the wave reaches (i, j) at 20 i + 30 j, and the
 * rank is done when its own sends (10 cycles each) have left. */
static void test_sweep3d_wavefront(void)
{
    struct motif_params p = params_of(80, 1, 0);
    p.dims_count = 2;
    p.dims[0] = 4, p.dims[1] = 3;
    struct motif_run *m = make_run("sweep3d", &p, 12, 1);
    struct fake_net net;
    fake_init(&net, m, 12, 10, 8, 0, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    for (int32_t r = 0; r < 12; r++) {
        int i = r % 4, j = r / 4, sends = (i < 3) + (j < 2);
        uint64_t end = (uint64_t)(20 * i + 30 * j + 10 * sends);
        CU_ASSERT_EQUAL(motif_run_iteration_end(m, r, 0), end);
    }
    fake_free(&net);
    motif_run_destroy(m);
}

/* broadcast: the binomial tree reaches every rank in ceil(log2 n) rounds from any root; the
 * flat one: the next round only once all have received. */
static void test_broadcasts(void)
{
    struct motif_params p = params_of(160, 2, 0);
    *(int *)motif_setting(&p, &motif_broadcast, "root") = 3;
    struct motif_run *m = make_run("broadcast", &p, 11, 1);
    struct fake_net net;
    fake_init(&net, m, 11, 30, 16, 0, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    uint64_t last = 0;
    for (int32_t r = 0; r < 11; r++) {
        CU_ASSERT_EQUAL(motif_run_messages_received(m, r), r == 3 ? 0 : 2);
        uint64_t end = motif_run_iteration_end(m, r, 0);
        last = end > last ? end : last;
    }
    CU_ASSERT(last <= 4 * (10 + 30) + 10 * 4); /* 4 rounds, a rank's sends 10 cycles each */
    fake_free(&net);
    motif_run_destroy(m);
    p.compute_cycles = 5;
    m = make_run("broadcast_flat", &p, 7, 1);
    fake_init(&net, m, 7, 30, 16, 0, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    /* The root's 6 messages leave at 15, 25, ..., 65; the last arrives at 95; round 2 starts
     * there with 5 cycles of compute. */
    CU_ASSERT_EQUAL(motif_run_iteration_end(m, 3, 0), 65);
    CU_ASSERT_EQUAL(motif_run_iteration_end(m, 2, 0), 95);
    CU_ASSERT_EQUAL(motif_run_iteration_end(m, 4, 0), 45);
    CU_ASSERT_EQUAL(motif_run_iteration_end(m, 4, 1), 95 + 45);
    CU_ASSERT_EQUAL(motif_run_runtime(m), 2 * 95);
    fake_free(&net);
    motif_run_destroy(m);
}

/* reduce to rank 3 of 11: v = (r - 3) mod 11 sends once, to v - 2^k in round k = its lowest
 * set bit; the root receives from v = 1, 2, 4, 8 (ceil(log2 11) = 4 rounds). A message takes 10
 * cycles on its NIC and 30 more to arrive: the root's last message, from v = 4 (which waited
 * for v = 6's at 40 + 40), arrives at 3 x 40 = 120 (v = 8's, sent at 40, came at 80). */
static void test_reduce(void)
{
    struct motif_params p = params_of(160, 1, 0);
    *(int *)motif_setting(&p, &motif_reduce, "reduce_root") = 3;
    struct motif_run *m = make_run("reduce", &p, 11, 1);
    struct fake_net net;
    fake_init(&net, m, 11, 30, 16, 0, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    uint64_t received = 0;
    for (int32_t r = 0; r < 11; r++) {
        CU_ASSERT_EQUAL(motif_run_messages_sent(m, r), r == 3 ? 0 : 1);
        CU_ASSERT_EQUAL(motif_run_bytes_sent(m, r), r == 3 ? 0 : 160);
        received += motif_run_messages_received(m, r);
    }
    CU_ASSERT_EQUAL(received, 10);
    CU_ASSERT_EQUAL(motif_run_messages_received(m, 3), 4);
    CU_ASSERT_EQUAL(net.pair[8 * 11 + 7], 1); /* v = 5 -> v = 4 */
    CU_ASSERT_EQUAL(net.pair[0 * 11 + 3], 1); /* v = 8 -> the root */
    CU_ASSERT_EQUAL(motif_run_iteration_end(m, 3, 0), 120);
    fake_free(&net);
    motif_run_destroy(m);
    *(int *)motif_setting(&p, &motif_reduce, "reduce_root") = 11;
    CU_ASSERT_PTR_NULL(motif_run_create(&motif_reduce, &p, 11, 1, err, sizeof err, NULL));
    CU_ASSERT_STRING_EQUAL(err,
                           "reduce: reduce_root 11 is not a rank of the job (expected 0 .. 10)");
}

/* Iteration statistics of 2 ranks x 4 ping-pongs: the even rank's iterations last 378, the odd
 * rank's first one 278 (it ends when its pong has left) and the others 378. */
static void test_iteration_summary(void)
{
    struct motif_params p = params_of(1024, 4, 50);
    struct motif_run *m = make_run("pingpong", &p, 2, 1);
    struct fake_net net;
    fake_init(&net, m, 2, 100, 16, 0, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    struct motif_summary s;
    CU_ASSERT_EQUAL_FATAL(motif_run_iteration_summary(m, &s), 0);
    CU_ASSERT_EQUAL(s.count, 8);
    CU_ASSERT_DOUBLE_EQUAL(s.min, 278, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.q1, 378, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.median, 378, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.max, 378, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, (278 + 7 * 378) / 8.0, 1e-9);
    CU_ASSERT_EQUAL(motif_run_runtime(m), 4 * 378);
    CU_ASSERT_EQUAL(motif_run_iterations_completed(m), 4);
    fake_free(&net);
    motif_run_destroy(m);
}

/* A network without delay that reports sent and delivered from inside the send callback. */
struct instant_net {
    struct motif_run *m;
    uint64_t now, messages;
};

static void instant_send(void *ctx, int32_t src, int32_t dst, uint64_t bytes, uint32_t tag)
{
    struct instant_net *net = ctx;
    (void)bytes;
    net->messages++;
    motif_run_sent(net->m, src, tag, net->now);
    motif_run_delivered(net->m, src, dst, tag, net->now);
}

/* send may call motif_run_sent/delivered itself: every motif still completes, in one advance
 * per compute phase. */
static void test_reentrant_send(void)
{
    for (int i = 0; i < motif_count(); i++) {
        struct motif_params p = params_of(64, 3, 0);
        struct motif_run *m = make_run(motif_registry[i]->name, &p, 12, 1);
        struct instant_net net = {m, 0, 0};
        motif_run_start(m, 0);
        CU_ASSERT_EQUAL(motif_run_advance(m, 0, instant_send, &net), 0);
        CU_ASSERT(motif_run_done(m));
        CU_ASSERT_EQUAL(motif_run_unmatched(m), 0);
        CU_ASSERT_EQUAL(motif_run_runtime(m), 0);
        CU_ASSERT(net.messages > 0);
        motif_run_destroy(m);
    }
}

/* next_wake tells the caller when a compute phase ends; advance does nothing before. */
static void test_next_wake(void)
{
    struct motif_params p = params_of(64, 2, 50);
    struct motif_run *m = make_run("barrier", &p, 4, 1);
    struct instant_net net = {m, 100, 0};
    motif_run_start(m, 100);
    CU_ASSERT_EQUAL(motif_run_next_wake(m), 150);
    CU_ASSERT_EQUAL(motif_run_advance(m, 149, instant_send, &net), 0);
    CU_ASSERT_EQUAL(net.messages, 0);
    net.now = 150;
    CU_ASSERT_EQUAL(motif_run_advance(m, 150, instant_send, &net), 0);
    CU_ASSERT_EQUAL(net.messages, 8); /* 2 rounds x 4 ranks, then the next compute phase */
    CU_ASSERT_EQUAL(motif_run_next_wake(m), 200);
    CU_ASSERT_EQUAL(motif_run_iteration_end(m, 0, 0), 150);
    CU_ASSERT_EQUAL(motif_run_iteration_end(m, 0, 1), UINT64_MAX);
    CU_ASSERT_EQUAL(motif_run_iterations_completed(m), 1);
    CU_ASSERT(!motif_run_done(m));
    CU_ASSERT_EQUAL(motif_run_runtime(m), 0);
    motif_run_destroy(m);
}

/* A lost message: the watchdog names who waits for whom. */
static void test_describe_waiting(void)
{
    struct motif_params p = params_of(64, 2, 0);
    struct motif_run *m = make_run("alltoall", &p, 4, 1);
    struct fake_net net;
    fake_init(&net, m, 4, 10, 8, 0, 1);
    net.drop_src = 1, net.drop_dst = 2;
    CU_ASSERT(!fake_run(&net));
    char text[1024];
    int waiting = motif_run_describe_waiting(m, text, sizeof text);
    CU_ASSERT(waiting >= 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "rank 2 (iteration 0, step 0): from rank 1 (0 of 1)"));
    uint32_t iteration, step; /* alltoall of 4: 3 steps per iteration */
    motif_run_tag_decode(m, 7, &iteration, &step);
    CU_ASSERT(iteration == 2 && step == 1);
    char small[60];
    CU_ASSERT_EQUAL(motif_run_describe_waiting(m, small, sizeof small), waiting);
    CU_ASSERT(strlen(small) < sizeof small);
    fake_free(&net);
    motif_run_destroy(m);
    /* broadcast_flat: the others wait at the synchronised round. */
    m = make_run("broadcast_flat", &p, 4, 1);
    fake_init(&net, m, 4, 10, 8, 0, 1);
    net.drop_src = 0, net.drop_dst = 2;
    CU_ASSERT(!fake_run(&net));
    CU_ASSERT_EQUAL(motif_run_describe_waiting(m, text, sizeof text), 4);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "rank 0 (iteration 1, step 0): waits for every rank to finish iteration 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "rank 2 (iteration 0, step 0): from rank 0 (0 of 1)"));
    fake_free(&net);
    motif_run_destroy(m);
}

static const struct motif_ops *create_fails(const char *motif, struct motif_params p, int n)
{
    const struct motif_ops *ops = motif_find(motif);
    struct motif_run *m = motif_run_create(ops, &p, n, 1, err, sizeof err, NULL);
    CU_ASSERT_PTR_NULL(m);
    motif_run_destroy(m);
    return ops;
}

static void test_errors(void)
{
    struct motif_params p = params_of(64, 1, 0);
    p.dims_count = 3;
    p.dims[0] = 12, p.dims[1] = 9, p.dims[2] = 5;
    create_fails("halo3d", p, 648);
    CU_ASSERT_STRING_EQUAL(err, "halo3d: dims 12 x 9 x 5 = 540 is not the job's 648 ranks "
                                "(expected a product equal to nodes)");
    create_fails("sweep3d", p, 540);
    CU_ASSERT_STRING_EQUAL(err, "sweep3d: dims has 3 values (expected 2: the process grid)");
    p.dims[1] = 0;
    create_fails("halo3d", p, 648);
    CU_ASSERT_STRING_EQUAL(err, "halo3d: dims[1] is 0 (expected at least 1)");
    p = params_of(64, 1, 0);
    create_fails("pingpong", p, 7);
    CU_ASSERT_STRING_EQUAL(
        err, "pingpong needs an even number of ranks (pairs 2i, 2i+1; the job has 7)");
    create_fails("barrier", p, 1);
    CU_ASSERT_STRING_EQUAL(err, "barrier needs at least 2 ranks (the job has 1)");
    *(int *)motif_setting(&p, &motif_broadcast, "root") = 8;
    create_fails("broadcast", p, 8);
    CU_ASSERT_STRING_EQUAL(err, "broadcast: root 8 is not a rank of the job (expected 0 .. 7)");
    create_fails("broadcast_flat", p, 8);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "broadcast_flat: root 8"));
    p = params_of(64, 0, 0);
    create_fails("alltoall", p, 8);
    CU_ASSERT_STRING_EQUAL(err, "alltoall: iterations 0 (expected at least 1)");
    p = params_of(64, 2000000, 0);
    create_fails("alltoall", p, 2304);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "exceed the 32-bit message tags (expected at most 1864"));
}

/* Without dims the grid is the most balanced one: 2304 = 16 x 12 x 12 (the study's example). */
static void test_balanced_grid(void)
{
    struct motif_instance mi = {.nranks = 2304};
    motif_params_default(&mi.params);
    int dims[3];
    CU_ASSERT_EQUAL(motif_grid(&mi, "halo3d", 3, dims, err, sizeof err), 0);
    CU_ASSERT(dims[0] == 16 && dims[1] == 12 && dims[2] == 12);
    CU_ASSERT_EQUAL(motif_grid(&mi, "sweep3d", 2, dims, err, sizeof err), 0);
    CU_ASSERT(dims[0] == 48 && dims[1] == 48);
    mi.nranks = 648;
    CU_ASSERT_EQUAL(motif_grid(&mi, "halo3d", 3, dims, err, sizeof err), 0);
    CU_ASSERT(dims[0] == 9 && dims[1] == 9 && dims[2] == 8);
    mi.nranks = 7;
    CU_ASSERT_EQUAL(motif_grid(&mi, "halo3d", 3, dims, err, sizeof err), 0);
    CU_ASSERT(dims[0] == 7 && dims[1] == 1 && dims[2] == 1);
}

/* The study's alltoall of 2,304 ranks: the table of arrivals holds what is in flight, about
 * one message per rank, never n^2. */
static void test_alltoall_large(void)
{
    const int n = 2304;
    struct motif_params p = params_of(16, 1, 0);
    struct motif_run *m = make_run("alltoall", &p, n, 1);
    struct fake_net net;
    fake_init(&net, m, n, 5, 16, 3, 1);
    CU_ASSERT_FATAL(fake_run(&net));
    CU_ASSERT_EQUAL(net.delivered, (uint64_t)n * (n - 1));
    CU_ASSERT(net.peak_unmatched <= 4 * (uint64_t)n);
    CU_ASSERT(motif_run_iteration_end(m, 0, 0) >= (uint64_t)(n - 1));
    fake_free(&net);
    motif_run_destroy(m);
}

/* The hash table against a plain array model, through growth and backward-shift deletes. */
static void test_arrivals_table(void)
{
    enum { KEYS = 500 };
    struct motif_arrivals a;
    CU_ASSERT_EQUAL_FATAL(motif_arrivals_init(&a, 4), 0);
    uint32_t model[KEYS] = {0};
    struct rng rng;
    rng_seed(&rng, 1, 0);
    uint64_t total = 0;
    for (int op = 0; op < 20000; op++) {
        uint32_t k = rng_below(&rng, KEYS);
        int32_t dst = (int32_t)(k % 23), src = (int32_t)(k / 23);
        uint32_t tag = k * 7;
        if (rng_below(&rng, 3)) {
            CU_ASSERT_EQUAL_FATAL(motif_arrivals_add(&a, dst, src, tag), 0);
            model[k]++;
            total++;
        } else {
            CU_ASSERT_EQUAL(motif_arrivals_take(&a, dst, src, tag), model[k]);
            total -= model[k];
            model[k] = 0;
        }
        if (op % 1000 == 0)
            for (uint32_t j = 0; j < KEYS; j++)
                CU_ASSERT_EQUAL(
                    motif_arrivals_count(&a, (int32_t)(j % 23), (int32_t)(j / 23), j * 7),
                    model[j]);
        CU_ASSERT_EQUAL(a.total, total);
    }
    motif_arrivals_free(&a);
}

static const struct test_case test_motif_cases[] = {
    {"registry", test_registry},
    {"pingpong: the hand-computed round trip", test_pingpong_round_trip},
    {"barrier: ceil(log2 n) latencies per iteration", test_barrier_latencies},
    {"alltoall: injection bound, exactly once", test_alltoall_bound},
    {"allreduce: ring bytes, recursive doubling counts", test_allreduce_bytes},
    {"every motif completes under jitter", test_all_motifs_complete},
    {"early messages of later steps are matched", test_early_arrivals},
    {"same seed, same message sequence", test_determinism},
    {"uniform_exchange: one send each, in-degrees vary", test_uniform_exchange_matrix},
    {"halo3d: neighbours, rings of 2, no wrap", test_halo3d_neighbours},
    {"sweep3d: the wavefront's timing", test_sweep3d_wavefront},
    {"broadcast: binomial and flat rounds", test_broadcasts},
    {"reduce: a binomial tree to its root", test_reduce},
    {"iteration statistics", test_iteration_summary},
    {"send may report sent and delivered at once", test_reentrant_send},
    {"next_wake and compute phases", test_next_wake},
    {"watchdog names the waiting ranks", test_describe_waiting},
    {"parameter errors", test_errors},
    {"balanced process grids", test_balanced_grid},
    {"alltoall of 2304 ranks in O(n) memory", test_alltoall_large},
    {"arrivals table against a model", test_arrivals_table},
};

int test_motif_register(void)
{
    return test_add_suite("motif", NULL, NULL, test_motif_cases,
                          sizeof test_motif_cases / sizeof test_motif_cases[0]);
}
