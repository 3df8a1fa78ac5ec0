/* Requests and responses (jobs.NAME.response_bytes, nic_window): every request packet is
 * answered by a response back to its source; the request-to-response latency of a ping-pong
 * is the hand-computed round trip; a window of one packet serializes the requests; --check
 * follows requests and responses (bad keys: tests/test_job_inputs.c). And the app_aware selector
 * built on their counters: choices forced by construction. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "job_config.h"
#include "point.h"
#include "result_json.h"
#include "sim.h"
#include "test_util.h"

static char requests_dir[64];

static int requests_init(void)
{
    return test_tmpdir_create(requests_dir, "requests");
}

static int requests_cleanup(void)
{
    return test_tmpdir_remove(requests_dir);
}

static void requests_write(const char *text, char path[128])
{
    test_write_text(requests_dir, "job.cfg", text, path);
}

static void requests_point(const char *const *ov, int n, struct result *res)
{
    /* ping-pong between the two nodes of router 0 of the 72-node dragonfly */
    static const char text[] =
        "topology = { p = 2; a = 4; h = 2; };\n"
        "sim = { warmup_cycles = 10; };\n"
        "jobs = ( { name = \"pp\"; nodes = 2; placement = \"contiguous\"; first_node = 0;\n"
        "           motif = \"pingpong\"; response_bytes = 16; } );\n";
    static struct sim_config cfg;
    test_load_config_text(requests_dir, "job.cfg", text, ov, n, &cfg);
    const struct point_options opt = {.progress = false, .check_invariants = true};
    struct point_outcome out;
    enum sim_status status = point_run(&cfg, &opt, res, &out);
    if (status != SIM_OK)
        fprintf(stderr, "\n%s\n", out.message);
    CU_ASSERT_EQUAL_FATAL(status, SIM_OK);
    CU_ASSERT_EQUAL_FATAL(res->n_jobs, 1);
}

/* A packet between the two nodes of a router takes m = injection_latency + router.latency +
 * injection_latency + packet_size - 1 cycles (test_workload's ping-pong). Its response (one
 * packet) leaves the responder's NIC in the cycle after the request's tail arrived (the NICs
 * act in phase 1, deliveries in phase 2), ahead of any request there, and takes m again: every
 * request packet is answered 2m + 1 cycles after it entered its injection queue, L = 2m + 1,
 * and every request packet is answered (--check recounts every message each cycle). */
static void check_round_trip(const char *latency, const char *injection, const char *packet, int m,
                             int packets)
{
    const char *ov[] = {latency, injection, packet, "jobs.pp.message_bytes=128",
                        "jobs.pp.iterations=3"};
    struct result res;
    requests_point(ov, 5, &res);
    const struct job_result *job = &res.jobs[0];
    CU_ASSERT_TRUE(job->finished);
    CU_ASSERT_TRUE(job->responses);
    uint64_t requests = 6 * (uint64_t)packets; /* 3 iterations of 2 messages */
    CU_ASSERT_EQUAL(job->request_packets, requests);
    CU_ASSERT_EQUAL(job->answered, requests);
    CU_ASSERT_EQUAL(job->request_response_cycles, requests * (uint64_t)(2 * m + 1));
    CU_ASSERT_EQUAL(job->latency_per_packet, 2 * m + 1);
    CU_ASSERT_EQUAL(job->stalls_per_flit, 0);
    CU_ASSERT_EQUAL(job->messages_delivered, 6);
    /* requests and responses both went through the network */
    CU_ASSERT_EQUAL(job->delivered, 2 * requests);
    if (job->latency_per_packet != 2 * m + 1)
        fprintf(stderr, "\n%s %s %s: L %.1f (expected %d)\n", latency, injection, packet,
                job->latency_per_packet, 2 * m + 1);
    result_free(&res);
}

static void test_round_trip_by_hand(void)
{
    /* 128 bytes: one packet of 8 phits, or two of 4 */
    check_round_trip("router.latency=5", "links.injection_latency=1", "traffic.packet_size=8",
                     1 + 5 + 1 + 7, 1);
    check_round_trip("router.latency=7", "links.injection_latency=3", "traffic.packet_size=4",
                     3 + 7 + 3 + 3, 2);
}

/* A window of one packet: a request packet waits for the response of the previous one, so a
 * ping-pong of 4-packet messages takes 8 round trips of 2m + 1 (m = 14) at least, exactly that
 * here (nothing else contends); unbounded, the packets of a message overlap. */
static void test_window_of_one_serializes(void)
{
    const char *one[] = {"router.latency=5", "links.injection_latency=1", "traffic.packet_size=8",
                         "jobs.pp.message_bytes=512", "jobs.pp.nic_window=1"};
    struct result res;
    requests_point(one, 5, &res);
    const struct job_result *job = &res.jobs[0];
    int round_trip = 2 * 14 + 1;
    CU_ASSERT_EQUAL(job->request_packets, 8);
    CU_ASSERT(job->runtime_cycles >= 8.0 * round_trip);
    CU_ASSERT_EQUAL(job->runtime_cycles, 8.0 * round_trip);
    double serialized = job->runtime_cycles;
    result_free(&res);
    const char *any[] = {"router.latency=5", "links.injection_latency=1", "traffic.packet_size=8",
                         "jobs.pp.message_bytes=512", "jobs.pp.nic_window=0"};
    requests_point(any, 5, &res);
    CU_ASSERT(res.jobs[0].runtime_cycles < serialized / 2);
    CU_ASSERT_EQUAL(res.jobs[0].latency_per_packet, round_trip);
    result_free(&res);
}

/* An open-loop job with messages under load: responses to every request, s and L consistent
 * with their counters, and the stall counter of requests within the nodes' stall cycles (a
 * request stalled in the NIC or at the head of an injection queue). */
static void test_open_loop_counters(void)
{
    static const char text[] =
        "topology = { p = 2; a = 4; h = 2; };\n"
        "sim = { warmup_cycles = 1000; measure_cycles = 3000; };\n"
        "jobs = ( { name = \"u\"; nodes = 72; pattern = \"uniform\"; load = 0.4;\n"
        "           message_bytes = 256; response_bytes = 64; nic_window = 8; } );\n";
    static struct sim_config cfg;
    char path[128], err[CONFIG_ERROR_LEN];
    requests_write(text, path);
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &cfg, err), 0);
    const struct point_options opt = {
        .progress = false, .check_invariants = true, .check_every = 97};
    struct point_outcome out;
    struct result res;
    CU_ASSERT_EQUAL_FATAL(point_run(&cfg, &opt, &res, &out), SIM_OK);
    const struct job_result *job = &res.jobs[0];
    CU_ASSERT(job->request_packets > 1000);
    CU_ASSERT(job->answered > job->request_packets - 72 * 8 - 1);
    CU_ASSERT_EQUAL(job->request_flits, job->request_packets * 8);
    CU_ASSERT(job->request_stall_cycles <= job->stall_cycles);
    CU_ASSERT(job->request_stall_cycles > 0);
    CU_ASSERT_DOUBLE_EQUAL(job->latency_per_packet,
                           (double)job->request_response_cycles / (double)job->answered, 1e-9);
    CU_ASSERT(job->latency_per_packet > 2 * 14);
    result_free(&res);
}

/* load.offered counts what the job creates, responses included: each request packet of
 * packet_size phits brings a response of R packets, so offered = load * (1 + R); without a
 * window and below saturation the network accepts all of it. (Counting requests alone, as
 * before, let accepted reach (1 + R) times offered.) */
static void test_offered_counts_responses(void)
{
    static const char text[] =
        "topology = { p = 2; a = 4; h = 2; };\n"
        "sim = { warmup_cycles = 1000; measure_cycles = 3000; };\n"
        "jobs = ( { name = \"u\"; nodes = 72; pattern = \"uniform\"; load = 0.2;\n"
        "           message_bytes = 256; response_bytes = 64; nic_window = 0; } );\n";
    static struct sim_config cfg;
    char path[128], err[CONFIG_ERROR_LEN];
    requests_write(text, path);
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &cfg, err), 0);
    const struct point_options opt = {.progress = false};
    struct point_outcome out;
    struct result res;
    CU_ASSERT_EQUAL_FATAL(point_run(&cfg, &opt, &res, &out), SIM_OK);
    const struct job_result *job = &res.jobs[0];
    double responses = (double)job_message_packets(&cfg, 64);
    double expected = 0.2 * (1 + responses);
    CU_ASSERT_DOUBLE_EQUAL(job->offered, expected, expected * 0.05);
    CU_ASSERT_DOUBLE_EQUAL(job->accepted, job->offered, job->offered * 0.03);
    result_free(&res);
}

/* ---- selector = "app_aware" ---- */

/* A ping-pong of 8 KiB messages between the two nodes of router 0 of conf/aries_small.cfg's
 * network, 3 iterations: each node sends 3 messages. The first finds no counters and keeps
 * the default mode; before the second, its responses are in (a send completes with its last
 * response), and the high-bias mode, not observed, is estimated from the default with
 * lambda = sigma = 0.01: 100 times faster, so it switches; before the third both are observed
 * with the same L (nothing else in the network: both modes route minimally) and s = 0, a tie
 * that keeps high bias. So exactly a third in the default mode; lambda = sigma = 100 never
 * leaves it; messages below selector_min_bytes all go with high bias. */
static void check_selector(const char *const *ov, int n, double fraction, const char *mode)
{
    static const char text[] =
        "topology = { kind = \"cascade\"; p = 2; h = 2; rows = 2; cols = 4; row_links = 1;\n"
        "             col_links = 2; cascade_groups = 5; };\n"
        "routing = { mechanism = \"ugal\"; };\n"
        "sim = { warmup_cycles = 10; };\n"
        "jobs = ( { name = \"pp\"; nodes = 2; placement = \"contiguous\"; first_node = 0;\n"
        "           motif = \"pingpong\"; iterations = 3; message_bytes = 8192;\n"
        "           response_bytes = 16; selector = \"app_aware\"; } );\n";
    static struct sim_config cfg;
    test_load_config_text(requests_dir, "job.cfg", text, ov, n, &cfg);
    const struct point_options opt = {.progress = false, .check_invariants = true};
    struct point_outcome out;
    struct result res;
    CU_ASSERT_EQUAL_FATAL(point_run(&cfg, &opt, &res, &out), SIM_OK);
    const struct job_result *job = &res.jobs[0];
    CU_ASSERT_TRUE(job->finished);
    CU_ASSERT_TRUE(job->app_aware);
    CU_ASSERT_EQUAL(job->packets_default + job->packets_high, job->request_packets);
    CU_ASSERT_DOUBLE_EQUAL(job->fraction_default, fraction, 1e-12);
    CU_ASSERT_STRING_EQUAL(job->selector_default_mode, mode);
    if (fabs(job->fraction_default - fraction) > 1e-12)
        fprintf(stderr, "\nfraction_default %.4f (expected %.4f)\n", job->fraction_default,
                fraction);
    result_free(&res);
}

static void test_selector_forced(void)
{
    const char *switches[] = {"jobs.pp.selector_lambda=0.01", "jobs.pp.selector_sigma=0.01"};
    check_selector(switches, 2, 1.0 / 3, "adaptive_0");
    const char *stays[] = {"jobs.pp.selector_lambda=100", "jobs.pp.selector_sigma=100"};
    check_selector(stays, 2, 1.0, "adaptive_0");
    const char *small[] = {"jobs.pp.message_bytes=1024"};
    check_selector(small, 1, 0.0, "adaptive_0");
    const char *preset[] = {"jobs.pp.ugal_preset=adaptive_2", "jobs.pp.selector_lambda=100"};
    check_selector(preset, 2, 1.0, "adaptive_2");
}

/* An alltoall's default mode is adaptive_1, which re-decides: the run gets the progressive
 * ladder (6 local VCs on the cascade). */
static void test_selector_alltoall_ladder(void)
{
    static const char text[] =
        "topology = { kind = \"cascade\"; p = 2; h = 2; rows = 2; cols = 4; row_links = 1;\n"
        "             col_links = 2; cascade_groups = 5; };\n"
        "routing = { mechanism = \"ugal\"; };\n"
        "jobs = ( { name = \"a\"; nodes = 8; motif = \"alltoall\"; message_bytes = 8192;\n"
        "           response_bytes = 16; selector = \"app_aware\"; } );\n";
    static struct sim_config cfg;
    char path[128], err[CONFIG_ERROR_LEN];
    requests_write(text, path);
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.vcs.local, 6);
    const char *pb[] = {"jobs.a.motif=allreduce"};
    CU_ASSERT_EQUAL_FATAL(config_load(path, pb, 1, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.vcs.local, 5);
    /* the selector needs the counters of requests and responses, and positive ratios */
    char expected[512];
    const char *none[] = {"jobs.a.response_bytes=0"};
    CU_ASSERT_EQUAL(config_load(path, none, 1, &cfg, err), -1);
    snprintf(expected, sizeof expected,
             "%s:5: jobs.a.selector: app_aware estimates message times from request-to-response "
             "latencies in a bounded window (expected response_bytes > 0 and nic_window > 0)",
             path);
    CU_ASSERT_STRING_EQUAL(err, expected);
    const char *zero[] = {"jobs.a.selector_sigma=0"};
    CU_ASSERT_EQUAL(config_load(path, zero, 1, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "jobs.a.selector_sigma: 0 is not a ratio of two positive "
                                       "figures (expected > 0)"));
}

int test_requests_register(void)
{
    static const struct test_case cases[] = {
        {"ping-pong request -> response latency by hand", test_round_trip_by_hand},
        {"nic_window = 1 serializes the requests", test_window_of_one_serializes},
        {"open loop: counters, s and L, --check", test_open_loop_counters},
        {"load.offered counts the responses", test_offered_counts_responses},
        {"app_aware: choices forced by construction", test_selector_forced},
        {"app_aware: alltoall defaults to adaptive_1", test_selector_alltoall_ladder},
    };
    return test_add_suite("requests", requests_init, requests_cleanup, cases,
                          sizeof cases / sizeof cases[0]);
}
