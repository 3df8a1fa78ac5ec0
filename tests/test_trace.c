/* test_trace: trace jobs without the network. The reader on traces of known content that
 * tests/trace_fixtures.py writes with python3-otf2 and on a real Score-P trace
 * (tests/data/otf2_mpi_coverage_10ranks, whose event counts are otf2-print's); the replay
 * engine against a fake network that delivers a message latency + bytes/bandwidth cycles after
 * it is issued (as tests/test_motif.c's): a ping-pong's runtime and per-rank times computed by
 * hand, eager and rendezvous; every message delivered exactly once and every request completed,
 * with messages reordered by random delays; the bytes of each collective's algorithm per pair;
 * bad traces' messages; a trace written by trace_writer read back; and a motif's compute kept
 * in its recording when messages arrive during it. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "rng.h"
#include "sweep.h"
#include "fake_events.h"
#include "test_util.h"
#include "trace_job.h"
#include "trace_match.h"
#include "trace_reader.h"
#include "trace_replay.h"
#include "trace_writer.h"

#define COVERAGE "tests/data/otf2_mpi_coverage_10ranks/traces.otf2"

static char err[512];

/* ---- the fake network --------------------------------------------------------------------- */

struct fake_net {
    struct trace_replay *t;
    int nranks;
    uint64_t latency, bandwidth, jitter;
    struct rng rng;
    uint64_t *nic_free;
    struct fake_events events;
    uint64_t now;
    uint64_t messages, delivered;
    uint64_t *pair_bytes; /* [src * nranks + dst]: bytes delivered */
};

static void fake_push(struct fake_net *net, struct fake_event ev)
{
    fake_events_push(&net->events, ev);
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
    fake_push(net, (struct fake_event){left + net->latency + extra, 0, FAKE_DELIVERED, src, dst,
                                       tag, bytes});
    net->messages++;
}

static void fake_init(struct fake_net *net, struct trace_replay *t, int nranks, uint64_t latency,
                      uint64_t bandwidth, uint64_t jitter)
{
    *net = (struct fake_net){.t = t, .nranks = nranks, .latency = latency,
                             .bandwidth = bandwidth, .jitter = jitter};
    rng_seed(&net->rng, 7, 99);
    net->nic_free = calloc((size_t)nranks, sizeof *net->nic_free);
    net->pair_bytes = calloc((size_t)nranks * nranks, sizeof *net->pair_bytes);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net->nic_free);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net->pair_bytes);
}

static void fake_free(struct fake_net *net)
{
    free(net->nic_free);
    free(net->events.heap);
    free(net->pair_bytes);
}

/* Runs from cycle 0 until done or nothing more can happen; returns whether it finished. */
static bool fake_run(struct fake_net *net)
{
    trace_replay_start(net->t, 0);
    for (;;) {
        if (trace_replay_advance(net->t, net->now, fake_send, net) != 0)
            return false;
        uint64_t wake = trace_replay_next_wake(net->t);
        uint64_t event = net->events.count ? net->events.heap[0].time : UINT64_MAX;
        uint64_t next = wake < event ? wake : event;
        if (next == UINT64_MAX)
            break;
        CU_ASSERT_FATAL(next >= net->now);
        net->now = next;
        while (net->events.count && net->events.heap[0].time == net->now) {
            struct fake_event ev = fake_events_pop(&net->events);
            if (ev.kind == FAKE_SENT) {
                trace_replay_sent(net->t, ev.src, ev.tag, ev.time);
                continue;
            }
            net->delivered++;
            net->pair_bytes[(size_t)ev.src * net->nranks + ev.dst] += ev.bytes;
            trace_replay_delivered(net->t, ev.src, ev.dst, ev.tag, ev.time);
        }
    }
    return trace_replay_done(net->t);
}

/* ---- fixtures ----------------------------------------------------------------------------- */

/* Writes fixture `kind` (trace_fixtures.py's arguments after the directory in args) into a
 * fresh scratch directory dir; path gets its anchor file. */
static void fixture(char dir[64], char path[128], const char *kind, const char *args)
{
    char command[512], out[2048];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "trace"), 0);
    snprintf(command, sizeof command, "/usr/bin/python3 tests/trace_fixtures.py %s %s/t %s", kind,
             dir, args);
    int rc = test_run_command(command, out, sizeof out);
    if (rc != 0)
        fprintf(stderr, "\n  %s: %s\n", command, out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    snprintf(path, 128, "%s/t/traces.otf2", dir);
}

static void read_ok(const char *path, struct trace_program *p)
{
    int rc = trace_read(path, TRACE_ALLREDUCE_THRESHOLD, p, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static struct trace_replay *replay_of(const struct trace_program *p, uint64_t eager)
{
    struct trace_replay_params params;
    trace_replay_params_default(&params);
    params.eager_bytes = eager;
    struct trace_replay *t = trace_replay_create(p, &params, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static void expect_times(const struct trace_replay *t, int32_t rank, uint64_t compute,
                         uint64_t communication, uint64_t waiting, uint64_t end)
{
    struct trace_rank_times times;
    trace_replay_rank_times(t, rank, &times);
    CU_ASSERT_EQUAL(times.compute, compute);
    CU_ASSERT_EQUAL(times.communication, communication);
    CU_ASSERT_EQUAL(times.waiting, waiting);
    CU_ASSERT_EQUAL(times.end, end);
    CU_ASSERT_EQUAL(times.compute + times.communication + times.waiting, times.end);
}

/* ---- tests -------------------------------------------------------------------------------- */

/* Ping-pong of 1024 bytes, latency 100, 16 bytes a cycle (a message leaves 64 cycles after it
 * starts), ticks = cycles. Rank 0 computes 50 and sends; rank 1 computes 20, receives, computes
 * 30 and sends back.
 * Eager: ping leaves at 114, arrives 214; rank 1 computes to 244, pong leaves 308, arrives 408.
 *   Rank 0: compute 50, blocked 50..114 (communication 64), 114..408 of which 114..244 before
 *   rank 1 sent (waiting 130, communication 164). Rank 1: compute 20 + 30, blocked 20..214
 *   (waiting 20..50, communication 164), 244..308 (communication 64).
 * Rendezvous (control messages of 0 bytes): request 50 -> 150, clear-to-send 150 -> 250, data
 *   250 -> 314 -> 414; rank 1 computes to 444; request 444 -> 544, clear-to-send -> 644, data
 *   leaves 708, arrives 808. */
static void test_pingpong_by_hand(void)
{
    char dir[64], path[128];
    fixture(dir, path, "pingpong", "1024");
    struct trace_program p;
    read_ok(path, &p);
    CU_ASSERT_EQUAL(p.nranks, 2);
    CU_ASSERT_EQUAL(p.ticks_per_second, 1000000000u);
    for (int rendezvous = 0; rendezvous < 2; rendezvous++) {
        struct trace_replay *t = replay_of(&p, rendezvous ? 1024 : 1025);
        struct fake_net net;
        fake_init(&net, t, 2, 100, 16, 0);
        CU_ASSERT_FATAL(fake_run(&net));
        if (!rendezvous) {
            CU_ASSERT_EQUAL(trace_replay_runtime(t), 408);
            expect_times(t, 0, 50, 64 + 164, 130, 408);
            expect_times(t, 1, 50, 164 + 64, 30, 308);
            CU_ASSERT_EQUAL(net.messages, 2);
            CU_ASSERT_EQUAL(trace_replay_control_messages(t), 0);
        } else {
            CU_ASSERT_EQUAL(trace_replay_runtime(t), 808);
            expect_times(t, 0, 50, 264 + 364, 130, 808);
            expect_times(t, 1, 50, 364 + 264, 30, 708);
            CU_ASSERT_EQUAL(net.messages, 6);
            CU_ASSERT_EQUAL(trace_replay_control_messages(t), 4);
        }
        CU_ASSERT_EQUAL(net.pair_bytes[1], 1024); /* 0 -> 1: the data only */
        CU_ASSERT_EQUAL(net.pair_bytes[2], 1024);
        CU_ASSERT_EQUAL(trace_replay_requests(t), 4);
        CU_ASSERT_EQUAL(trace_replay_requests_completed(t), 4);
        CU_ASSERT_EQUAL(trace_replay_unmatched(t), 0);
        fake_free(&net);
        trace_replay_destroy(t);
    }
    /* compute_scale 0: communication only; 2: twice the compute. */
    for (int scale = 0; scale <= 2; scale += 2) {
        struct trace_replay_params params;
        trace_replay_params_default(&params);
        params.compute_scale = scale;
        struct trace_replay *t = trace_replay_create(&p, &params, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        struct fake_net net;
        fake_init(&net, t, 2, 100, 16, 0);
        CU_ASSERT_FATAL(fake_run(&net));
        /* 2 (64 + 100) plus rank 0's first compute and rank 1's second, scaled */
        CU_ASSERT_EQUAL(trace_replay_runtime(t), 328 + (uint64_t)scale * 80);
        fake_free(&net);
        trace_replay_destroy(t);
    }
    trace_program_free(&p);
    test_tmpdir_remove(dir);
}

/* The collectives fixture: the bytes each ordered pair exchanges, worked out by hand from the
 * algorithms (trace_fixtures.py names what each rank does): point to point r -> r+1 100 and
 * r -> r+2 200; alltoall 1000 for every pair; broadcast from 2 of 300 on the binomial tree
 * 2 -> 3, 2 -> 0, 3 -> 1; recursive doubling of 64 between 0-1, 2-3, then 0-2, 1-3; ring of a
 * 4000-byte vector: 6 chunks of 1000 to r + 1; barrier: zero bytes; gather of 50: 0 -> 2,
 * 1 -> 3. */
static void test_collectives_bytes(void)
{
    static const uint64_t expected[4][4] = {
        {0, 7164, 1314, 1000},
        {1064, 0, 7100, 1314},
        {1564, 1000, 0, 7464},
        {7100, 1564, 1064, 0},
    };
    char dir[64], path[128];
    fixture(dir, path, "collectives", "");
    struct trace_program p;
    read_ok(path, &p);
    CU_ASSERT_EQUAL(p.nranks, 4);
    CU_ASSERT_EQUAL(p.collectives, 24);
    for (uint64_t jitter = 0; jitter <= 500; jitter += 500) {
        struct trace_replay *t = replay_of(&p, TRACE_EAGER_BYTES);
        struct fake_net net;
        fake_init(&net, t, 4, 50, 8, jitter);
        CU_ASSERT_FATAL(fake_run(&net));
        for (int s = 0; s < 4; s++)
            for (int d = 0; d < 4; d++)
                CU_ASSERT_EQUAL(net.pair_bytes[s * 4 + d], expected[s][d]);
        CU_ASSERT_EQUAL(net.messages, 65);
        CU_ASSERT_EQUAL(net.delivered, 65);
        CU_ASSERT_EQUAL(trace_replay_requests_completed(t), trace_replay_requests(t));
        CU_ASSERT_EQUAL(trace_replay_unmatched(t), 0);
        fake_free(&net);
        trace_replay_destroy(t);
    }
    trace_program_free(&p);
    test_tmpdir_remove(dir);
}

/* Event counts of the coverage trace, as otf2-print lists them. */
static uint64_t otf2_print_count(const char *out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s\n", name);
    const char *hit = strstr(out, key);
    if (!hit)
        return 0;
    while (hit > out && hit[-1] != '\n')
        hit--;
    return strtoull(hit, NULL, 10);
}

static void test_coverage_trace(void)
{
    struct trace_program p;
    read_ok(COVERAGE, &p);
    CU_ASSERT_EQUAL(p.nranks, 10);
    CU_ASSERT_EQUAL(p.ticks_per_second, 1995386627u);
    static char out[8192];
    int rc = test_run_command("otf2-print " COVERAGE " | awk 'NR > 5 && NF { print $1 }' | sort "
                              "| uniq -c",
                              out, sizeof out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    uint64_t total = 0, printed_total = 0;
    for (int k = 0; k < TRACE_EV_COUNT; k++) {
        total += p.events[k];
        if (k != TRACE_EV_SKIPPED)
            CU_ASSERT_EQUAL(p.events[k], otf2_print_count(out, trace_event_names[k]));
    }
    for (const char *line = out; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
        printed_total += strtoull(line, NULL, 10);
    CU_ASSERT_EQUAL(total, printed_total);
    CU_ASSERT_EQUAL(p.events[TRACE_EV_MPI_ISEND], 1440);
    CU_ASSERT_EQUAL(p.events[TRACE_EV_MPI_COLLECTIVE_END], 1200);
    CU_ASSERT_EQUAL(p.collectives, 1200);
    /* Every message delivered exactly once, every request completed, also with messages
     * overtaking each other (jitter), eager and all rendezvous. */
    for (int variant = 0; variant < 3; variant++) {
        struct trace_replay *t = replay_of(&p, variant == 2 ? 0 : TRACE_EAGER_BYTES);
        struct fake_net net;
        fake_init(&net, t, 10, 200, 32, variant ? 3000 : 0);
        bool done = fake_run(&net);
        if (!done)
            fprintf(stderr, "\n  %s\n", trace_replay_error(t) ? trace_replay_error(t) : "");
        CU_ASSERT_FATAL(done);
        CU_ASSERT_EQUAL(net.delivered, net.messages);
        uint64_t sent = 0, received = 0;
        for (int r = 0; r < 10; r++) {
            sent += trace_replay_messages_sent(t, r);
            received += trace_replay_messages_received(t, r);
        }
        CU_ASSERT_EQUAL(sent, received);
        CU_ASSERT_EQUAL(net.messages, sent - trace_replay_local_messages(t) +
                                          trace_replay_control_messages(t));
        CU_ASSERT(sent >= 1440);
        CU_ASSERT_EQUAL(trace_replay_requests_completed(t), trace_replay_requests(t));
        CU_ASSERT_EQUAL(trace_replay_ops_done(t), trace_replay_ops_total(t));
        CU_ASSERT_EQUAL(trace_replay_unmatched(t), 0);
        fake_free(&net);
        trace_replay_destroy(t);
    }
    trace_program_free(&p);
}

static void expect_read_error(const char *path, const char *const *parts, int n)
{
    struct trace_program p;
    CU_ASSERT_EQUAL(trace_read(path, TRACE_ALLREDUCE_THRESHOLD, &p, err, sizeof err), -1);
    for (int i = 0; i < n; i++) {
        if (!strstr(err, parts[i]))
            fprintf(stderr, "\n  '%s' lacks '%s'\n", err, parts[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, parts[i]));
    }
}

static void test_bad_traces(void)
{
    const char *missing[] = {"/nonexistent/traces.otf2", "cannot open"};
    expect_read_error("/nonexistent/traces.otf2", missing, 2);

    char dir[64], path[128], command[256], out[1024];
    fixture(dir, path, "pingpong", "64");
    /* an events file cut short */
    snprintf(command, sizeof command, "truncate -s 40 %s/t/traces/1.evt", dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    const char *truncated[] = {path, "events"};
    expect_read_error(path, truncated, 2);
    /* the anchor without its definitions */
    snprintf(command, sizeof command, "rm %s/t/traces.def", dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    const char *no_defs[] = {path, "definitions"};
    expect_read_error(path, no_defs, 2);
    /* not an anchor file */
    snprintf(command, sizeof command, "echo nonsense > %s/t/traces.otf2", dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    const char *nonsense[] = {path, "not an OTF2 anchor file"};
    expect_read_error(path, nonsense, 2);
    test_tmpdir_remove(dir);

    fixture(dir, path, "unknown_collective", "");
    const char *unknown[] = {path, "rank 0", "unknown collective operation 17"};
    expect_read_error(path, unknown, 3);
    test_tmpdir_remove(dir);
}

/* A receive whose send never comes: the run stops with the rank and the event, no hang. */
static void test_unmatched_receive(void)
{
    char dir[64], path[128];
    fixture(dir, path, "unmatched", "");
    struct trace_program p;
    read_ok(path, &p);
    struct trace_replay *t = replay_of(&p, TRACE_EAGER_BYTES);
    struct fake_net net;
    fake_init(&net, t, 2, 10, 8, 0);
    CU_ASSERT_FALSE(fake_run(&net));
    CU_ASSERT_EQUAL(trace_replay_check_stuck(t), -1);
    const char *e = trace_replay_error(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "rank 1, event 7: receive from rank 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "tag 9"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "never matches a send"));
    char buf[256];
    CU_ASSERT_EQUAL(trace_replay_describe_waiting(t, buf, sizeof buf), 1);
    fake_free(&net);
    trace_replay_destroy(t);
    trace_program_free(&p);
    test_tmpdir_remove(dir);
}

/* Recorded messages read back: the same bytes per pair, one send request per message. */
static void test_writer_round_trip(void)
{
    char dir[64], path[160], err2[256];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "trace"), 0);
    struct trace_writer *w = trace_writer_create(3, 1, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    /* 0 -> 1 (500 bytes) and 0 -> 2 (0 bytes) at 150; 1 answers 0 after receiving */
    CU_ASSERT_EQUAL(trace_writer_send(w, 0, 1, 500, 150), 0);
    CU_ASSERT_EQUAL(trace_writer_send(w, 0, 2, 0, 150), 0);
    CU_ASSERT_EQUAL(trace_writer_left(w, 0, 160), 0);
    CU_ASSERT_EQUAL(trace_writer_left(w, 0, 160), 0);
    CU_ASSERT_EQUAL(trace_writer_left(w, 0, 170), -1); /* nothing left to leave */
    CU_ASSERT_EQUAL(trace_writer_received(w, 0, 1, 500, 150, 200), 0);
    CU_ASSERT_EQUAL(trace_writer_received(w, 0, 2, 0, 150, 210), 0);
    CU_ASSERT_EQUAL(trace_writer_send(w, 1, 0, 64, 200), 0);
    /* made before the start: neither it, its departure nor its arrival are recorded */
    CU_ASSERT_EQUAL(trace_writer_send(w, 2, 0, 99, 50), 0);
    CU_ASSERT_EQUAL(trace_writer_left(w, 2, 120), 0);
    CU_ASSERT_EQUAL(trace_writer_received(w, 2, 0, 99, 50, 130), 0);
    CU_ASSERT_EQUAL(trace_writer_left(w, 1, 200), 0); /* left the cycle it was made */
    CU_ASSERT_EQUAL(trace_writer_received(w, 1, 0, 64, 200, 260), 0);
    snprintf(path, sizeof path, "%s/rec", dir);
    CU_ASSERT_EQUAL_FATAL(trace_writer_write(w, path, 300, err2, sizeof err2), 0);
    trace_writer_destroy(w);
    snprintf(path, sizeof path, "%s/rec/traces.otf2", dir);
    struct trace_program p;
    read_ok(path, &p);
    CU_ASSERT_EQUAL(p.nranks, 3);
    CU_ASSERT_EQUAL(p.events[TRACE_EV_MPI_ISEND], 3);
    CU_ASSERT_EQUAL(p.events[TRACE_EV_MPI_ISEND_COMPLETE], 3);
    CU_ASSERT_EQUAL(p.events[TRACE_EV_MPI_RECV], 3);
    struct trace_replay *t = replay_of(&p, TRACE_EAGER_BYTES);
    struct fake_net net;
    fake_init(&net, t, 3, 10, 100, 0);
    CU_ASSERT_FATAL(fake_run(&net));
    CU_ASSERT_EQUAL(net.pair_bytes[0 * 3 + 1], 500);
    CU_ASSERT_EQUAL(net.pair_bytes[0 * 3 + 2], 0);
    CU_ASSERT_EQUAL(net.pair_bytes[1 * 3 + 0], 64);
    CU_ASSERT_EQUAL(net.messages, 3);
    /* rank 0 computed from 100 to its sends at 150 */
    struct trace_rank_times times;
    trace_replay_rank_times(t, 0, &times);
    CU_ASSERT_EQUAL(times.compute, 50);
    fake_free(&net);
    trace_replay_destroy(t);
    trace_program_free(&p);
    test_tmpdir_remove(dir);
}

/* A message that arrives while the rank computes is written as a receive at the compute's end,
 * after the sends the rank makes then: replayed, rank 1 computes its whole 100 cycles (not the
 * 50 before the arrival, the rest a wait) and still answers rank 0. */
static void test_writer_compute(void)
{
    char dir[64], path[160], err2[256];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "trace"), 0);
    struct trace_writer *w = trace_writer_create(2, 1, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(trace_writer_compute(w, 1, 0, 100), 0);
    CU_ASSERT_EQUAL(trace_writer_send(w, 0, 1, 64, 10), 0);
    CU_ASSERT_EQUAL(trace_writer_left(w, 0, 20), 0);
    CU_ASSERT_EQUAL(trace_writer_received(w, 0, 1, 64, 10, 50), 0);
    CU_ASSERT_EQUAL(trace_writer_send(w, 1, 0, 64, 100), 0);
    CU_ASSERT_EQUAL(trace_writer_left(w, 1, 110), 0);
    CU_ASSERT_EQUAL(trace_writer_received(w, 1, 0, 64, 100, 150), 0);
    snprintf(path, sizeof path, "%s/rec", dir);
    CU_ASSERT_EQUAL_FATAL(trace_writer_write(w, path, 200, err2, sizeof err2), 0);
    trace_writer_destroy(w);
    snprintf(path, sizeof path, "%s/rec/traces.otf2", dir);
    struct trace_program p;
    read_ok(path, &p);
    CU_ASSERT_EQUAL(p.events[TRACE_EV_MPI_RECV], 2);
    struct trace_replay *t = replay_of(&p, TRACE_EAGER_BYTES);
    struct fake_net net;
    fake_init(&net, t, 2, 10, 100, 0);
    CU_ASSERT_FATAL(fake_run(&net));
    struct trace_rank_times times;
    trace_replay_rank_times(t, 1, &times);
    CU_ASSERT_EQUAL(times.compute, 100);
    CU_ASSERT_EQUAL(net.pair_bytes[1 * 2 + 0], 64);
    fake_free(&net);
    trace_replay_destroy(t);
    trace_program_free(&p);
    test_tmpdir_remove(dir);
}

/* The match table against a plain list: puts, gets and removes in a random order. */
static void test_match_table(void)
{
    struct trace_match m;
    trace_match_init(&m);
    enum { N = 3000 };
    static uint32_t present[N];
    struct rng rng;
    rng_seed(&rng, 3, 4);
    for (int step = 0; step < 20000; step++) {
        uint32_t i = rng_below(&rng, N);
        struct trace_key key = {(int32_t)(i % 7), (int32_t)(i % 13), i % 3, i / 39, i};
        if (rng_below(&rng, 2)) {
            CU_ASSERT_EQUAL_FATAL(trace_match_put(&m, &key, i + 1), 0);
            present[i] = i + 1;
        } else {
            trace_match_remove(&m, &key);
            present[i] = 0;
        }
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < N; i++) {
        struct trace_key key = {(int32_t)(i % 7), (int32_t)(i % 13), i % 3, i / 39, i};
        uint32_t *v = trace_match_get(&m, &key);
        CU_ASSERT_EQUAL(v ? *v : 0, present[i]);
        count += present[i] != 0;
    }
    CU_ASSERT_EQUAL(m.count, count);
    trace_match_free(&m);
}

/* ---- end to end: ./dfsim -------------------------------------------------------------------- */

#define E2E_BASE "@include \"%s/conf/default.cfg\"\n"

/* Writes dir/name.cfg: default.cfg, then `groups` (config text) and `jobs`. */
static void e2e_config_with(const char *dir, const char *name, const char *groups,
                            const char *jobs)
{
    char path[160], cwd[1024];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(path, sizeof path, "%s/%s.cfg", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, E2E_BASE "%s\njobs = ( %s );\n", cwd, groups, jobs);
    fclose(f);
}

/* dir/name.cfg: default.cfg with a short warm-up and `jobs`. */
static void e2e_config(const char *dir, const char *name, const char *jobs)
{
    e2e_config_with(dir, name, "sim = { warmup_cycles = 100; };", jobs);
}

/* Runs ./dfsim run dir/name.cfg ARGS, output in out; returns the exit status. */
static int e2e_run(const char *dir, const char *name, const char *args, char *out, int len)
{
    char command[1024];
    snprintf(command, sizeof command, "./dfsim run %s/%s.cfg -q -o %s/%s.json %s", dir, name, dir,
             name, args);
    return test_run_command(command, out, len);
}

/* Each bad trace exits 2 naming the file (or the job's key) and what is wrong, at once. */
static void test_e2e_bad_traces(void)
{
    char dir[64], path[128], command[1024], out[4096];
    fixture(dir, path, "pingpong", "64");
    static const struct {
        const char *jobs, *expect[2];
    } cases[] = {
        {"{ name = \"t\"; nodes = 2; trace = \"missing/traces.otf2\"; }",
         {"missing/traces.otf2", "cannot open the trace's anchor file"}},
        {"{ name = \"t\"; nodes = 1; trace = \"t/traces.otf2\"; }",
         {"jobs.t.nodes", "the trace has 2 ranks and the job 1 nodes"}},
        {"{ name = \"t\"; nodes = 2; trace = \"u/t/traces.otf2\"; }",
         {"u/t/traces.otf2", "unknown collective operation 17"}},
        {"{ name = \"t\"; nodes = 2; trace = \"m/t/traces.otf2\"; }",
         {"m/t/traces.otf2", "rank 1, event 7: receive from rank 0 (communicator 0, tag 9) never "
                             "matches a send"}},
        {"{ name = \"t\"; nodes = 2; trace = \"c/t/traces.otf2\"; }",
         {"c/t/traces.otf2", "events"}},
        {"{ name = \"t\"; nodes = 2; trace = \"t/traces.otf2\"; motif = \"pingpong\"; }",
         {"jobs.t.trace", "a trace job has no motif"}},
        {"{ name = \"t\"; nodes = 2; motif = \"pingpong\"; eager_bytes = 5; }",
         {"jobs.t.eager_bytes", "reads no trace setting"}},
    };
    snprintf(command, sizeof command,
             "/usr/bin/python3 tests/trace_fixtures.py unknown_collective %s/u/t && "
             "/usr/bin/python3 tests/trace_fixtures.py unmatched %s/m/t && "
             "mkdir %s/c && cp -r %s/t %s/c/ && truncate -s 40 %s/c/t/traces/0.evt",
             dir, dir, dir, dir, dir, dir);
    CU_ASSERT_EQUAL_FATAL(test_run_command(command, out, sizeof out), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        e2e_config(dir, "bad", cases[i].jobs);
        int rc = e2e_run(dir, "bad", "", out, sizeof out);
        bool named = strstr(out, cases[i].expect[0]) && strstr(out, cases[i].expect[1]);
        if (rc != 2 || !named)
            fprintf(stderr, "\n  case %zu: exit %d: %s\n", i, rc, out);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT(named);
    }
    test_tmpdir_remove(dir);
}

/* Bytes of each ordered pair over a program's sends. */
static void pair_bytes(const struct trace_program *p, uint64_t *out)
{
    memset(out, 0, (size_t)p->nranks * p->nranks * sizeof *out);
    for (int r = 0; r < p->nranks; r++)
        for (uint32_t i = 0; i < p->ranks[r].n_ops; i++)
            if (p->ranks[r].ops[i].kind == TRACE_OP_SEND)
                out[(size_t)r * p->nranks + p->ranks[r].ops[i].peer] += p->ranks[r].ops[i].value;
}

static double e2e_runtime(const char *dir, const char *name)
{
    char command[256], out[256];
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import json; print(json.load(open('%s/%s.json'))['jobs'][0]"
             "['runtime_cycles'])\"",
             dir, name);
    CU_ASSERT_EQUAL_FATAL(test_run_command(command, out, sizeof out), 0);
    return strtod(out, NULL);
}

/* The sweep hash of the config dir/h.cfg (loaded afresh into cfg). */
static void content_hash(const char *dir, struct sim_config *cfg, char hash[SWEEP_HASH_LEN])
{
    char path[160], cerr[CONFIG_ERROR_LEN];
    snprintf(path, sizeof path, "%s/h.cfg", dir);
    int rc = config_load(path, NULL, 0, cfg, cerr);
    if (rc)
        fprintf(stderr, "\n  %s\n", cerr);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(sweep_config_hash(cfg, hash), 0);
}

/* Runs a shell command; asserts it succeeded. */
static void shell_ok(const char *command)
{
    char out[2048];
    int rc = test_run_command(command, out, sizeof out);
    if (rc)
        fprintf(stderr, "\n  %s: %s\n", command, out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

/* A trace edited in place is another sweep point: one event changed (rank 1 leaves
 * MPI_Finalize a tick later) gives another hash, the old files back the old hash; and the
 * config's program is the edited trace's, not one read earlier in the process. */
static void test_trace_content_hash(void)
{
    static struct sim_config cfg;
    char dir[64], path[128], command[512], h1[SWEEP_HASH_LEN], h2[SWEEP_HASH_LEN],
        h3[SWEEP_HASH_LEN];
    fixture(dir, path, "pingpong", "1000");
    e2e_config(dir, "h", "{ name = \"t\"; nodes = 2; trace = \"t/traces.otf2\"; }");
    content_hash(dir, &cfg, h1);
    snprintf(command, sizeof command,
             "cp -r %s/t %s/keep && rm -r %s/t && /usr/bin/python3 "
             "tests/trace_fixtures.py pingpong %s/t 1000 91",
             dir, dir, dir, dir);
    shell_ok(command);
    content_hash(dir, &cfg, h2);
    CU_ASSERT_STRING_NOT_EQUAL(h1, h2);
    snprintf(command, sizeof command, "rm -r %s/t && cp -r %s/keep %s/t", dir, dir, dir);
    shell_ok(command);
    content_hash(dir, &cfg, h3);
    CU_ASSERT_STRING_EQUAL(h1, h3);
    /* the same path, other bytes: the program read for the config carries them */
    snprintf(command, sizeof command,
             "rm -r %s/t && /usr/bin/python3 tests/trace_fixtures.py "
             "pingpong %s/t 2000",
             dir, dir);
    shell_ok(command);
    content_hash(dir, &cfg, h3);
    CU_ASSERT_STRING_NOT_EQUAL(h1, h3);
    const struct trace_program *p = trace_job_program(&cfg, &cfg.jobs[0], err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint64_t sent = 0;
    for (uint32_t i = 0; i < p->ranks[0].n_ops; i++)
        if (p->ranks[0].ops[i].kind == TRACE_OP_SEND)
            sent += p->ranks[0].ops[i].value;
    CU_ASSERT_EQUAL(sent, 2000);
    test_tmpdir_remove(dir);
}

/* A motif recorded with --trace-out and replayed: the same bytes for every rank pair (the
 * replay, recorded again, against the motif's recording) and a runtime within 0.1 % of the
 * motif's (2 cycles here: the first iteration's compute starts a cycle early in the replay,
 * which begins computing where the motif begins its iteration). With --isolate and --check the
 * replay runs clean alone and beside a background. */
static void test_e2e_motif_replay(void)
{
    char dir[64], path[192], out[8192];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "trace"), 0);
    e2e_config(dir, "motif",
               "{ name = \"a\"; nodes = 16; motif = \"alltoall\"; message_bytes = 4096; "
               "iterations = 2; compute_cycles = 500; }");
    char args[160];
    snprintf(args, sizeof args, "--trace-out %s/rec", dir);
    CU_ASSERT_EQUAL_FATAL(e2e_run(dir, "motif", args, out, sizeof out), 0);
    e2e_config(dir, "replay",
               "{ name = \"a\"; nodes = 16; trace = \"rec/a/traces.otf2\"; "
               "eager_bytes = 1000000; }");
    snprintf(args, sizeof args, "--check --trace-out %s/again", dir);
    int rc = e2e_run(dir, "replay", args, out, sizeof out);
    if (rc)
        fprintf(stderr, "\n  %s\n", out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    struct trace_program motif, replay;
    snprintf(path, sizeof path, "%s/rec/a/traces.otf2", dir);
    read_ok(path, &motif);
    snprintf(path, sizeof path, "%s/again/a/traces.otf2", dir);
    read_ok(path, &replay);
    CU_ASSERT_EQUAL_FATAL(motif.nranks, 16);
    CU_ASSERT_EQUAL_FATAL(replay.nranks, 16);
    static uint64_t a[256], b[256];
    pair_bytes(&motif, a);
    pair_bytes(&replay, b);
    for (int i = 0; i < 256; i++)
        CU_ASSERT_EQUAL(a[i], i / 16 == i % 16 ? 0 : 2 * 4096);
    CU_ASSERT_EQUAL(memcmp(a, b, sizeof a), 0);
    trace_program_free(&motif);
    trace_program_free(&replay);
    double tm = e2e_runtime(dir, "motif"), tr = e2e_runtime(dir, "replay");
    CU_ASSERT(tm > 0);
    CU_ASSERT(tr >= tm * 0.999 && tr <= tm * 1.001);
    /* beside a uniform background, and alone */
    e2e_config(dir, "shared",
               "{ name = \"a\"; nodes = 16; trace = \"rec/a/traces.otf2\"; throttle = "
               "\"static\"; throttle_rate = 0.5; }, "
               "{ name = \"bg\"; nodes = 32; pattern = \"uniform\"; load = 0.5; "
               "message_bytes = 512; }");
    rc = e2e_run(dir, "shared", "--isolate --check", out, sizeof out);
    if (rc)
        fprintf(stderr, "\n  %s\n", out);
    CU_ASSERT_EQUAL(rc, 0);
    char command[512];
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import json; j = json.load(open('%s/shared.json'))['jobs'][0];"
             " print(j['slowdown']['runtime'] >= 1, j['replay']['requests'] == "
             "j['replay']['requests_completed'], j['alone']['finished'])\"",
             dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "True True True\n");
    /* recording over an existing recording is refused, naming it */
    snprintf(args, sizeof args, "--trace-out %s/rec", dir);
    CU_ASSERT_NOT_EQUAL(e2e_run(dir, "motif", args, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "rec/a/traces.otf2 exists"));
    test_tmpdir_remove(dir);
}

/* A motif whose ranks run ahead of each other (halo3d on nodes drawn at random: a rank whose
 * faces came early finishes an iteration first and delivers its next face while a neighbour
 * still computes; 9 of the 27 ranks get one) recorded and replayed on the same system: every
 * rank replays the motif's compute, compute_cycles x iterations (a face that arrived during
 * compute is a receive at its end, not compute turned into a wait), and the replay takes the
 * motif's runtime. */
static void test_e2e_motif_ahead_replay(void)
{
    char dir[64], args[160], out[4096], command[768];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "trace"), 0);
    e2e_config(dir, "motif",
               "{ name = \"a\"; nodes = 27; placement = \"random_nodes\"; motif = \"halo3d\"; "
               "message_bytes = 8192; iterations = 4; compute_cycles = 2000; }");
    snprintf(args, sizeof args, "--trace-out %s/rec", dir);
    int rc = e2e_run(dir, "motif", args, out, sizeof out);
    if (rc)
        fprintf(stderr, "\n  %s\n", out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    e2e_config(dir, "replay",
               "{ name = \"a\"; nodes = 27; placement = \"random_nodes\"; "
               "trace = \"rec/a/traces.otf2\"; }");
    rc = e2e_run(dir, "replay", "--check", out, sizeof out);
    if (rc)
        fprintf(stderr, "\n  %s\n", out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import json; c = json.load(open('%s/replay.json'))['jobs'][0]"
             "['replay']['compute_cycles']; print(len(c), [r for r, x in enumerate(c) "
             "if x != 4 * 2000])\"",
             dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "27 []\n");
    double tm = e2e_runtime(dir, "motif"), tr = e2e_runtime(dir, "replay");
    CU_ASSERT(tm > 0);
    CU_ASSERT(tr >= tm * 0.999 && tr <= tm * 1.001);
    test_tmpdir_remove(dir);
}

/* --trace-out in a run that redoes its warm-up (stats.extend_warmup): the recording is the
 * final measurement's, starting where its warm-up ends (the clock's offset) and as long as its
 * measurement; a recording that existed before the run is still not written over. */
static void test_e2e_trace_out_extended(void)
{
    char dir[64], args[160], out[4096], command[512];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "trace"), 0);
    e2e_config_with(dir, "ext",
                    "sim = { warmup_cycles = 0; measure_cycles = 4000; };\n"
                    "stats = { sample_cycles = 50; extend_warmup = 4; };",
                    "{ name = \"u\"; nodes = 16; pattern = \"uniform\"; load = 0.3; "
                    "message_bytes = 512; }");
    snprintf(args, sizeof args, "--trace-out %s/rec", dir);
    int rc = e2e_run(dir, "ext", args, out, sizeof out);
    if (rc)
        fprintf(stderr, "\n  %s\n", out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import json, otf2; s = json.load(open('%s/ext.json'))"
             "['steady_state']; t = otf2.reader.open('%s/rec/u/traces.otf2').__enter__(); "
             "c = t.definitions.clock_properties; print(s['warmup_extensions'] > 0, "
             "c.global_offset == s['warmup_cycles'] > 0, c.trace_length)\"",
             dir, dir);
    CU_ASSERT_EQUAL_FATAL(test_run_command(command, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "True True 4000\n");
    CU_ASSERT_NOT_EQUAL(e2e_run(dir, "ext", args, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "rec/u/traces.otf2 exists"));
    test_tmpdir_remove(dir);
}

/* The coverage trace through dfsim with the invariant recount on: every message it sent
 * delivered, every request completed, the skipped counts those of the reader (none). */
static void test_e2e_coverage(void)
{
    char dir[64], out[4096], command[512];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "trace"), 0);
    char cwd[1024], jobs[1200];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(jobs, sizeof jobs,
             "{ name = \"cov\"; nodes = 12; trace = \"%s/" COVERAGE "\"; compute_scale = 0; }",
             cwd);
    e2e_config(dir, "cov", jobs);
    int rc = e2e_run(dir, "cov", "--check", out, sizeof out);
    if (rc)
        fprintf(stderr, "\n  %s\n", out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import json; j = json.load(open('%s/cov.json'))['jobs'][0]; "
             "t = j['replay']; print(j['finished'], j['messages']['sent'] == "
             "j['messages']['delivered'], t['requests'] == t['requests_completed'], t['ranks'], "
             "t['collectives'], t['messages'] - t['local_messages'] + t['control_messages'] == "
             "j['messages']['sent'], sum(t['skipped'].values()))\"",
             dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "True True True 10 1200 True 0\n");
    test_tmpdir_remove(dir);
}

/* Two ranks that both send before they receive: fine eagerly, a deadlock as rendezvous (each
 * send waits for a clear-to-send the other rank's receive would give): the watchdog stops the
 * run, exit 3, naming both ranks and the send each waits at, and nothing hangs. */
static void test_e2e_deadlock(void)
{
    char dir[64], path[128], out[4096];
    fixture(dir, path, "exchange", "4096");
    e2e_config(dir, "eager", "{ name = \"t\"; nodes = 2; trace = \"t/traces.otf2\"; }");
    CU_ASSERT_EQUAL(e2e_run(dir, "eager", "", out, sizeof out), 0);
    e2e_config(dir, "rdv",
               "{ name = \"t\"; nodes = 2; trace = \"t/traces.otf2\"; eager_bytes = 1024; }");
    int rc = e2e_run(dir, "rdv", "", out, sizeof out);
    bool named = strstr(out, "deadlock: job 't' (trace t/traces.otf2)") &&
                 strstr(out, "2 ranks wait") &&
                 strstr(out, "rank 0, event 4: send to rank 1 (communicator 0, tag 3, 4096 "
                             "bytes, rendezvous)") &&
                 strstr(out, "rank 1, event 4: send to rank 0");
    if (rc != 3 || !named)
        fprintf(stderr, "\n  exit %d: %s\n", rc, out);
    CU_ASSERT_EQUAL(rc, 3);
    CU_ASSERT(named);
    test_tmpdir_remove(dir);
}

static const struct test_case test_trace_cases[] = {
    {"ping-pong: runtime and times by hand, eager and rendezvous", test_pingpong_by_hand},
    {"collectives: bytes per pair of each algorithm", test_collectives_bytes},
    {"coverage trace: otf2-print's counts, each message once", test_coverage_trace},
    {"bad traces: missing, truncated, no definitions, unknown collective", test_bad_traces},
    {"unmatched receive: the rank and the event, no hang", test_unmatched_receive},
    {"writer: recorded messages read back", test_writer_round_trip},
    {"writer: a message arriving during compute, the compute kept", test_writer_compute},
    {"match table: agrees with a plain list", test_match_table},
    {"dfsim: bad traces exit 2 naming the file and the fault", test_e2e_bad_traces},
    {"dfsim: a motif recorded and replayed: bytes per pair, runtime", test_e2e_motif_replay},
    {"dfsim: a motif whose ranks run ahead replayed: each rank's compute, runtime",
     test_e2e_motif_ahead_replay},
    {"dfsim: the coverage trace with --check, each message and request done", test_e2e_coverage},
    {"dfsim: a rendezvous deadlock stops with the ranks and events", test_e2e_deadlock},
    {"sweep hash: a trace edited in place is another point", test_trace_content_hash},
    {"dfsim: --trace-out in a run that extends its warm-up", test_e2e_trace_out_extended},
};

int test_trace_register(void)
{
    return test_add_suite("trace", NULL, NULL, test_trace_cases,
                          sizeof test_trace_cases / sizeof test_trace_cases[0]);
}
