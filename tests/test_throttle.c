/* Injection throttling (traffic/jobs/throttle.c, its hook in src/workload.c): the AIMD rule as the
 * issue writes it, a rate that never falls as the delay sensitivity grows, a token bucket
 * that delivers its rate, a static cap that a saturating job's accepted load meets, AIMD's
 * equilibrium on one bottleneck, a sensitive job backing off less, and no message lost or
 * duplicated under --check (bad throttle settings: tests/test_job_inputs.c). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "point.h"
#include "result_json.h"
#include "rng.h"
#include "sim.h"
#include "stats.h"
#include "test_util.h"
#include "throttle.h"

static char throttle_dir[64];

static int throttle_suite_init(void)
{
    return test_tmpdir_create(throttle_dir, "throttle");
}

static int throttle_suite_cleanup(void)
{
    return test_tmpdir_remove(throttle_dir);
}

static struct throttle_params throttle_aimd(double c)
{
    return (struct throttle_params){.kind = THROTTLE_AIMD,
                                    .line_rate = 1,
                                    .rate = 1,
                                    .depth = 16,
                                    .packet = 8,
                                    .window = 100,
                                    .gain = 0.5,
                                    .step = 0.05,
                                    .min_rate = 0.1,
                                    .c = c};
}

/* ---- the controller alone ---- */

/* alpha <- (1-g) alpha + g x; x > 0: R <- R (1 - alpha/(2+c)); else R <- R + step; R within
 * [min_rate, line rate]. */
static void test_aimd_rule(void)
{
    struct throttle_params p = throttle_aimd(2);
    struct throttle_node n;
    throttle_node_init(&n, &p);
    CU_ASSERT_DOUBLE_EQUAL(n.alpha, 0, 0);
    throttle_aimd_update(&n, &p, 1.0); /* alpha 0.5, R 1 * (1 - 0.5/4) */
    CU_ASSERT_DOUBLE_EQUAL(n.alpha, 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(n.rate, 0.875, 1e-12);
    throttle_aimd_update(&n, &p, 0.0); /* alpha 0.25, R + step */
    CU_ASSERT_DOUBLE_EQUAL(n.alpha, 0.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(n.rate, 0.925, 1e-12);
    for (int i = 0; i < 10; i++)
        throttle_aimd_update(&n, &p, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(n.rate, 1.0, 0); /* capped at the line rate */
    p.c = 0;
    for (int i = 0; i < 50; i++)
        throttle_aimd_update(&n, &p, 1.0);
    CU_ASSERT_DOUBLE_EQUAL(n.rate, p.min_rate, 0); /* held at the floor */
}

/* The windows a NIC was not visited in count as windows without stall, and a window's stall
 * fraction is its stalled over its ready cycles. */
static void test_aimd_windows(void)
{
    struct throttle_params p = throttle_aimd(0);
    struct throttle_node n;
    throttle_node_init(&n, &p);
    for (int i = 0; i < 4; i++)
        throttle_node_ready(&n);
    throttle_node_stalled(&n);         /* x = 1/4 in window 0 */
    throttle_node_advance(&n, &p, 99); /* window 0 still open */
    CU_ASSERT_DOUBLE_EQUAL(n.rate, 1, 0);
    throttle_node_advance(&n, &p, 100); /* closes it: alpha 0.125, R 1 - 0.0625 */
    CU_ASSERT_DOUBLE_EQUAL(n.alpha, 0.125, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(n.rate, 0.9375, 1e-12);
    CU_ASSERT_EQUAL(n.ready, 0);
    throttle_node_advance(&n, &p, 350); /* windows 1 and 2 without a ready cycle */
    CU_ASSERT_EQUAL(n.window, 3);
    CU_ASSERT_DOUBLE_EQUAL(n.rate, 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(n.alpha, 0.125 / 4, 1e-12);
}

/* For the same stall fractions, a larger c never gives a lower rate: every step of the rule is
 * monotone in R and the decrease factor grows with c. Random fraction sequences. */
static void test_aimd_monotone_in_c(void)
{
    const double cs[] = {0, 0.25, 1, 4, 100};
    enum { NC = sizeof cs / sizeof cs[0] };
    struct rng rng;
    rng_seed(&rng, 19, 0);
    int strictly = 0;
    for (int trial = 0; trial < 50; trial++) {
        struct throttle_params p[NC];
        struct throttle_node n[NC];
        for (int k = 0; k < NC; k++) {
            p[k] = throttle_aimd(cs[k]);
            throttle_node_init(&n[k], &p[k]);
        }
        for (int step = 0; step < 200; step++) {
            uint32_t u = rng_below(&rng, 1000);
            double x = u < 400 ? 0 : (double)(u - 400) / 600.0;
            for (int k = 0; k < NC; k++)
                throttle_aimd_update(&n[k], &p[k], x);
            for (int k = 1; k < NC; k++) {
                CU_ASSERT(n[k].rate >= n[k - 1].rate);
                strictly += n[k].rate > n[k - 1].rate;
            }
        }
    }
    CU_ASSERT(strictly > 0); /* and c does change the rate */
}

/* A saturating sender behind a bucket of rate r sends r phits per cycle on average. */
static void test_bucket_rate(void)
{
    const double rates[] = {0.3, 0.125, 0.7};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        struct throttle_params p = {
            .kind = THROTTLE_STATIC, .line_rate = 1, .rate = rates[i], .depth = 16, .packet = 8};
        struct throttle_node n;
        throttle_node_init(&n, &p);
        uint64_t sent = 0, cycles = 100000, busy_until = 0;
        for (uint64_t t = 0; t < cycles; t++) {
            if (t < busy_until || !throttle_node_admits(&n, &p, t))
                continue;
            throttle_node_sent(&n, &p);
            sent++;
            busy_until = t + 8; /* the link at 1 phit/cycle */
        }
        double rate = (double)(sent * 8) / (double)cycles;
        CU_ASSERT_DOUBLE_EQUAL(rate, rates[i], 0.002);
    }
}

/* ---- in the simulator ---- */

#define SMALL_NET "topology = { p = 2; a = 4; h = 2; };\nbuffers = { injection = 32; };\n"

static void throttle_point_jobs(const char *text, const char *const *ov, int n, bool check,
                                struct result *res, int jobs)
{
    static struct sim_config cfg;
    test_load_config_text(throttle_dir, "t.cfg", text, ov, n, &cfg);
    const struct point_options opt = {.check_invariants = check};
    struct point_outcome out;
    enum sim_status status = point_run(&cfg, &opt, res, &out);
    if (status != SIM_OK)
        fprintf(stderr, "\n%s\n", out.message);
    CU_ASSERT_EQUAL_FATAL(status, SIM_OK);
    CU_ASSERT_EQUAL_FATAL(res->n_jobs, jobs);
}

static void throttle_point(const char *text, const char *const *ov, int n, bool check,
                           struct result *res)
{
    throttle_point_jobs(text, ov, n, check, res, 1);
}

/* The stall signal's NIC part alone, as it was before model version 3. */
static double throttle_nic_fraction(const struct job_result *j)
{
    return j->nic_ready_cycles ? (double)j->nic_stall_cycles / (double)j->nic_ready_cycles : 0;
}

/* A uniform job offering 1 phit/node/cycle (more than the network takes) accepts r under a
 * static cap r, and more than r without it. */
static void test_static_cap_accepted(void)
{
    static const char text[] =
        SMALL_NET "sim = { warmup_cycles = 2000; measure_cycles = 10000; };\n"
                  "jobs = ( { name = \"sat\"; nodes = 72; pattern = \"uniform\"; load = 1.0;\n"
                  "           message_bytes = 512; } );\n";
    struct result res;
    throttle_point(text, NULL, 0, false, &res);
    double free_accepted = res.jobs[0].accepted;
    CU_ASSERT(strcmp(res.jobs[0].throttle, "none") == 0);
    result_free(&res);
    const char *caps[] = {"0.15", "0.3"};
    for (int i = 0; i < 2; i++) {
        char rate[64];
        snprintf(rate, sizeof rate, "jobs.sat.throttle_rate=%s", caps[i]);
        const char *ov[] = {"jobs.sat.throttle=static", rate};
        throttle_point(text, ov, 2, false, &res);
        double r = atof(caps[i]);
        CU_ASSERT(free_accepted > 1.5 * r);
        CU_ASSERT_DOUBLE_EQUAL(res.jobs[0].accepted, r, 0.01 * r);
        CU_ASSERT_DOUBLE_EQUAL(res.jobs[0].injected, r, 0.01 * r);
        CU_ASSERT_DOUBLE_EQUAL(res.jobs[0].throttle_mean_rate, r, 0);
        result_free(&res);
    }
}

/* Incast: 8 senders offering 1 phit/cycle each to one node, whose link takes 1: one
 * bottleneck of capacity C = 1 shared by N = 8. Expected equilibrium: each sender's rate saws
 * between about C/N (where the target's link, and so the injection queues, back up) and
 * C/N (1 - alpha/2): a mean rate close to C/N, the bottleneck nearly busy, and stalls only in
 * the windows at the top of the saw, so a small stall fraction (without a throttle the
 * injection queues stay full: nearly every ready cycle stalls). The target sends nothing and
 * keeps the line rate, so the senders' mean rate is (9 * job mean - 1) / 8. */
static const char incast_text[] = SMALL_NET
    "sim = { warmup_cycles = 2000; measure_cycles = 60000; };\n"
    "jobs = ( { name = \"inc\"; nodes = 9; placement = \"random_nodes\";\n"
    "           pattern = \"incast\"; targets = 1; load = 1.0; message_bytes = 512; } );\n";

static void test_aimd_single_bottleneck(void)
{
    struct result res;
    throttle_point(incast_text, NULL, 0, false, &res);
    double free_stall = res.jobs[0].stall_fraction;
    CU_ASSERT(free_stall > 0.9);
    result_free(&res);
    const char *ov[] = {"jobs.inc.throttle=aimd"};
    throttle_point(incast_text, ov, 1, false, &res);
    const struct job_result *j = &res.jobs[0];
    double sender_rate = (9 * j->throttle_mean_rate - 1) / 8, fair = 1.0 / 8;
    CU_ASSERT(sender_rate > 0.75 * fair && sender_rate < 1.25 * fair);
    CU_ASSERT(j->stall_fraction < 0.15);
    CU_ASSERT(j->accepted > 0.9 / 9); /* the bottleneck kept at least 90% busy */
    result_free(&res);
}

/* The same bottleneck with a delay-sensitive job (c = 10): it backs off less, so its mean
 * rate is higher and it stalls more than the baseline c = 0; with the stall signal at the
 * network boundary, whether the injection queues hold 32 phits or the default 1,000. */
static void test_aimd_sensitive_backs_off_less(void)
{
    const char *depths[] = {"buffers.injection=32", "buffers.injection=1000"};
    for (int q = 0; q < 2; q++) {
        struct result res;
        const char *base[] = {"jobs.inc.throttle=aimd", "jobs.inc.delay_sensitivity=0", depths[q]};
        throttle_point(incast_text, base, 3, false, &res);
        double rate0 = res.jobs[0].throttle_mean_rate, stall0 = res.jobs[0].stall_fraction;
        result_free(&res);
        const char *sensitive[] = {"jobs.inc.throttle=aimd", "jobs.inc.delay_sensitivity=10",
                                   depths[q]};
        throttle_point(incast_text, sensitive, 3, false, &res);
        CU_ASSERT(res.jobs[0].throttle_mean_rate > rate0);
        CU_ASSERT(res.jobs[0].stall_fraction > stall0);
        printf("[%s: c = 0 rate %.4f x %.3f, c = 10 rate %.4f x %.3f] ", depths[q], rate0, stall0,
               res.jobs[0].throttle_mean_rate, res.jobs[0].stall_fraction);
        result_free(&res);
    }
}

/* The stall signal does not depend on the injection queue's depth: 8 senders at 0.25
 * phits/cycle into one node's link (twice what it takes), unthrottled, so every sender's
 * injection head waits on a saturated output. With 32-phit queues they fill and the NIC
 * stalls too; with 1,000 phits they are still filling when the window closes (0.125
 * phits/cycle for 5,000 cycles), and the NIC never stalls, but the heads wait all the same:
 * the stall fraction is within a factor of two either way (before model version 3, the
 * NIC's part alone was the signal: 0.97 and 0). */
static void test_stall_fraction_queue_depth(void)
{
    static const char text[] = SMALL_NET
        "sim = { warmup_cycles = 1000; measure_cycles = 4000; };\n"
        "jobs = ( { name = \"inc\"; nodes = 9; placement = \"random_nodes\";\n"
        "           pattern = \"incast\"; targets = 1; load = 0.25; message_bytes = 512; } );\n";
    const char *depths[] = {"buffers.injection=32", "buffers.injection=1000"};
    double x[2];
    for (int q = 0; q < 2; q++) {
        struct result res;
        throttle_point(text, &depths[q], 1, true, &res);
        const struct job_result *j = &res.jobs[0];
        x[q] = j->stall_fraction;
        CU_ASSERT(j->injection_stall_cycles > 0);
        CU_ASSERT(j->stall_cycles <= j->ready_cycles);
        CU_ASSERT(j->stall_cycles >= j->nic_stall_cycles &&
                  j->stall_cycles >= j->injection_stall_cycles);
        printf("[%s: stall fraction %.3f (NIC part alone %.3f)] ", depths[q], x[q],
               throttle_nic_fraction(j));
        result_free(&res);
    }
    CU_ASSERT(x[0] > 0.5 && x[1] > 0.5);
    CU_ASSERT(x[0] < 2 * x[1] && x[1] < 2 * x[0]);
}

/* A latency-bound job slowed by congestion feels it: a halo of 256-byte messages beside an
 * open-ended alltoall at intensity 0.5 and an incast at 0.1, with the default 1,000-phit
 * injection queues: the halo runs over 1.1 times slower than alone and its stall fraction is
 * well above 0 (its NICs never find a queue full: the NIC part alone, the signal before model
 * version 3, is printed). */
static void test_latency_bound_job_stalls(void)
{
    static const char text[] =
        "topology = { p = 2; a = 4; h = 2; };\n"
        "sim = { warmup_cycles = 1000; seed = 3; isolate = true; };\n"
        "jobs = (\n"
        "  { name = \"app\"; nodes = 16; placement = \"random_nodes\"; motif = \"halo3d\";\n"
        "    dims = [4, 2, 2]; message_bytes = 256; iterations = 20; compute_cycles = 20; },\n"
        "  { name = \"a2a\"; nodes = 36; placement = \"random_nodes\"; motif = \"alltoall\";\n"
        "    message_bytes = 2048; open_ended = true; intensity = 0.5; },\n"
        "  { name = \"inc\"; nodes = 16; placement = \"random_nodes\"; pattern = \"incast\";\n"
        "    targets = 2; load = 1.0; message_bytes = 512; intensity = 0.1; } );\n";
    struct result res;
    throttle_point_jobs(text, NULL, 0, false, &res, 3);
    const struct job_result *app = &res.jobs[0];
    CU_ASSERT_TRUE(app->finished);
    CU_ASSERT(app->slowdown_runtime > 1.1);
    CU_ASSERT(app->stall_fraction > 0.1);
    CU_ASSERT(app->injection_stall_cycles > 0);
    printf("[slowdown %.3f, stall fraction %.3f, NIC part alone %.3f] ", app->slowdown_runtime,
           app->stall_fraction, throttle_nic_fraction(app));
    result_free(&res);
}

/* Throttled closed-loop jobs deliver every message exactly once: --check recounts every
 * message's packets each cycle, the job finishes, and it sends and receives what the same
 * job sends unthrottled. */
static void test_throttle_keeps_messages(void)
{
    static const char text[] =
        SMALL_NET "sim = { warmup_cycles = 500; };\n"
                  "jobs = ( { name = \"a2a\"; nodes = 24; placement = \"random_nodes\";\n"
                  "           motif = \"alltoall\"; message_bytes = 1024; iterations = 2; } );\n";
    struct result res;
    throttle_point(text, NULL, 0, true, &res);
    uint64_t sent = res.jobs[0].messages_sent;
    double runtime = res.jobs[0].runtime_cycles;
    CU_ASSERT(sent == 2 * 24 * 23);
    result_free(&res);
    const char *kinds[][3] = {
        {"jobs.a2a.throttle=static", "jobs.a2a.throttle_rate=0.2", NULL},
        {"jobs.a2a.throttle=aimd", "jobs.a2a.throttle_window_cycles=50", NULL},
    };
    for (int k = 0; k < 2; k++) {
        throttle_point(text, kinds[k], 2, true, &res);
        CU_ASSERT(res.jobs[0].finished);
        CU_ASSERT_EQUAL(res.jobs[0].messages_sent, sent);
        CU_ASSERT_EQUAL(res.jobs[0].messages_delivered, sent);
        CU_ASSERT_EQUAL(res.jobs[0].delivered, res.jobs[0].injected_packets);
        if (k == 0) { /* the cap binds: this alltoall injects 0.29 unthrottled */
            CU_ASSERT(res.jobs[0].injected <= 0.2 + 1e-9);
            CU_ASSERT(res.jobs[0].runtime_cycles > 1.3 * runtime);
        }
        result_free(&res);
    }
}

int test_throttle_register(void)
{
    static const struct test_case cases[] = {
        {"the AIMD rule", test_aimd_rule},
        {"AIMD windows, visited or not", test_aimd_windows},
        {"a larger c never gives a lower rate", test_aimd_monotone_in_c},
        {"a token bucket delivers its rate", test_bucket_rate},
        {"a static cap r: a saturating job accepts r", test_static_cap_accepted},
        {"AIMD on one bottleneck: the fair share, few stalls", test_aimd_single_bottleneck},
        {"a delay-sensitive job backs off less", test_aimd_sensitive_backs_off_less},
        {"the stall fraction does not depend on the queue depth", test_stall_fraction_queue_depth},
        {"a latency-bound job slowed by congestion stalls", test_latency_bound_job_stalls},
        {"throttling loses and duplicates no message (--check)", test_throttle_keeps_messages},
    };
    return test_add_suite("throttle", throttle_suite_init, throttle_suite_cleanup, cases,
                          sizeof cases / sizeof cases[0]);
}
