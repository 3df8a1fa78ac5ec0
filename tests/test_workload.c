/* Jobs in the simulator (src/workload.c, src/point.c): open-loop jobs get the load they offer
 * below saturation, a ping-pong takes exactly the hand-computed round trip, an alltoall
 * respects the injection bound, a job's results do not depend on where the same shape sits,
 * silent jobs change nothing, a job run alone is the same job in a config of its own, the
 * recount of --check follows every message, and the document holds what the schema says. */
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "point.h"
#include "result_json.h"
#include "result_schema.h"
#include "sim.h"
#include "test_util.h"
#include "workload.h"

static char workload_dir[64];

static int workload_init(void)
{
    return test_tmpdir_create(workload_dir, "workload");
}

static int workload_cleanup(void)
{
    return test_tmpdir_remove(workload_dir);
}

/* The 72-node dragonfly p=2 a=4 h=2 (9 groups of 8 nodes), MIN routing. */
#define SMALL_NET "topology = { p = 2; a = 4; h = 2; };\n"

/* Loads config text (written to a file, as users do) with overrides; aborts on error. */
static void workload_config(struct sim_config *cfg, const char *text, const char *const *ov, int n)
{
    test_load_config_text(workload_dir, "job.cfg", text, ov, n, cfg);
}

/* Simulates a point of config text (point_run: with sim.isolate, the jobs alone too). */
static void workload_point(const char *text, const char *const *ov, int n, struct sim_config *cfg,
                           struct result *res)
{
    workload_config(cfg, text, ov, n);
    const struct point_options opt = {.progress = false};
    struct point_outcome out;
    enum sim_status status = point_run(cfg, &opt, res, &out);
    if (status != SIM_OK)
        fprintf(stderr, "\n%s\n", out.message);
    CU_ASSERT_EQUAL_FATAL(status, SIM_OK);
}

/* ---- open loop ---- */

/* Two uniform jobs on the two halves of the machine, below saturation: each accepts what it
 * offers, and offers its load. */
static void test_open_loop_halves_accept_offered(void)
{
    static const char text[] = SMALL_NET
        "sim = { warmup_cycles = 3000; measure_cycles = 20000; };\n"
        "jobs = ( { name = \"left\"; nodes = 36; pattern = \"uniform\"; load = 0.3; },\n"
        "         { name = \"right\"; nodes = 36; pattern = \"uniform\"; load = 0.2; } );\n";
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    CU_ASSERT_EQUAL_FATAL(res.n_jobs, 2);
    const double loads[] = {0.3, 0.2};
    for (int j = 0; j < 2; j++) {
        const struct job_result *job = &res.jobs[j];
        CU_ASSERT(fabs(job->offered - loads[j]) < 0.015);
        CU_ASSERT(fabs(job->accepted - job->offered) < 0.01);
        CU_ASSERT_EQUAL(job->refused, 0);
        CU_ASSERT_FALSE(job->closed);
        CU_ASSERT(job->latency.mean > 0 && job->latency.mean < 200);
    }
    /* contiguous by default: the second job starts after the first */
    CU_ASSERT_EQUAL(res.jobs[0].ranks_to_nodes[0], 0);
    CU_ASSERT_EQUAL(res.jobs[1].ranks_to_nodes[0], 36);
    /* the network-wide figures are the two jobs' over all nodes */
    CU_ASSERT(fabs(res.accepted - (res.jobs[0].accepted + res.jobs[1].accepted) / 2) < 1e-9);
    CU_ASSERT_FALSE(res.run.capped);
    result_free(&res);
}

/* An open-loop job that sends messages: every message of its window that arrived counts, and
 * a message of k packets takes at least the node link's k * packet_size cycles. */
static void test_open_loop_messages(void)
{
    static const char text[] =
        SMALL_NET "sim = { warmup_cycles = 2000; measure_cycles = 10000; };\n"
                  "jobs = ( { name = \"m\"; nodes = 72; pattern = \"uniform\"; load = 0.2;\n"
                  "           message_bytes = 512; } );\n"; /* 32 phits: 4 packets of 8 */
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    const struct job_result *job = &res.jobs[0];
    CU_ASSERT(job->messages_sent > 500);
    CU_ASSERT(job->messages_delivered + 72 * 4 >= job->messages_sent); /* a few in flight */
    CU_ASSERT(job->message_latency.min >= 4 * 8 + 5 + 1 - 8); /* 3 packets after the first */
    CU_ASSERT(fabs(job->offered - 0.2) < 0.02);
    CU_ASSERT(fabs(job->accepted - job->offered) < 0.02);
    result_free(&res);
}

/* A job on every node may use a network pattern with its own settings: MIN under ADV+2
 * cannot exceed 1/(a * p) = 0.125 (one global link per group pair), and reaches it. */
static void test_open_loop_network_pattern(void)
{
    static const char text[] =
        SMALL_NET "sim = { warmup_cycles = 3000; measure_cycles = 6000; };\n"
                  "jobs = ( { name = \"all\"; nodes = 72; pattern = \"adversarial\"; offset = 2;\n"
                  "           load = 0.5; } );\n";
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    CU_ASSERT(res.jobs[0].accepted <= 0.125 + 0.003);
    CU_ASSERT(res.jobs[0].accepted > 0.125 - 0.005);
    CU_ASSERT_STRING_EQUAL(res.jobs[0].traffic, "adversarial");
    result_free(&res);
}

/* ---- closed loop ---- */

/* Ping-pong between the two nodes of router 0. A packet between nodes of one router takes
 * injection_latency (its head into the router) + router.latency + injection_latency (the
 * ejection link) + packet_size - 1 (its tail behind its head) cycles; a message of k packets
 * leaves its NIC at one phit per cycle, so its last packet starts (k - 1) * packet_size cycles
 * after the first; the motif sees an arrival in the next cycle (it advances at the start of a
 * cycle, phase 1). One iteration is two messages: 2 * message latency + 1. */
static void check_pingpong(const char *message_bytes, const char *latency, const char *injection,
                           const char *packet, int expected_message)
{
    static const char text[] = SMALL_NET
        "sim = { warmup_cycles = 10; };\n"
        "jobs = ( { name = \"pp\"; nodes = 2; placement = \"contiguous\"; first_node = 0;\n"
        "           motif = \"pingpong\"; iterations = 3; } );\n";
    const char *ov[] = {message_bytes, latency, injection, packet};
    struct sim_config cfg;
    struct result res;
    workload_point(text, ov, 4, &cfg, &res);
    const struct job_result *job = &res.jobs[0];
    CU_ASSERT_TRUE(job->finished);
    CU_ASSERT_EQUAL(job->iterations_completed, 3);
    CU_ASSERT_EQUAL(job->messages_sent, 6);
    CU_ASSERT_EQUAL(job->messages_delivered, 6);
    CU_ASSERT_EQUAL(job->message_latency.min, expected_message);
    CU_ASSERT_EQUAL(job->message_latency.max, expected_message);
    /* three round trips, each 2 * message + 1, and the next one starts a cycle after the last
     * arrival of the previous one */
    CU_ASSERT_EQUAL(job->runtime_cycles, 3 * (2 * expected_message + 1) + 2);
    /* the job's iterations, each from the end of the previous one: the first is its round trip
     * and the cycle the motif takes to see the last arrival; each later one also waits the cycle
     * in which the next iteration starts */
    CU_ASSERT_EQUAL_FATAL(job->job_iterations, 3);
    CU_ASSERT_EQUAL(job->job_iteration_cycles[0], 2 * expected_message + 1);
    CU_ASSERT_EQUAL(job->job_iteration_cycles[1], 2 * expected_message + 2);
    CU_ASSERT_EQUAL(job->job_iteration_cycles[2], 2 * expected_message + 2);
    if (job->runtime_cycles != 3 * (2 * expected_message + 1) + 2)
        fprintf(stderr, "\n%s %s %s %s: runtime %.0f, message %.0f (expected %d)\n", message_bytes,
                latency, injection, packet, job->runtime_cycles, job->message_latency.max,
                expected_message);
    result_free(&res);
}

static void test_pingpong_round_trip_by_hand(void)
{
    /* one packet of 8 phits (128 bytes of 16): 1 + 5 + 1 + 7 = 14 */
    check_pingpong("jobs.pp.message_bytes=128", "router.latency=5", "links.injection_latency=1",
                   "traffic.packet_size=8", 14);
    /* two packets: the second starts 8 cycles later: 22 */
    check_pingpong("jobs.pp.message_bytes=256", "router.latency=5", "links.injection_latency=1",
                   "traffic.packet_size=8", 22);
    /* 3 + 7 + 3 + 3 = 16, then 4 packets of 4 phits (256 bytes = 16 phits): 16 + 3 * 4 = 28 */
    check_pingpong("jobs.pp.message_bytes=256", "router.latency=7", "links.injection_latency=3",
                   "traffic.packet_size=4", 28);
    /* a partial last packet is padded to a whole one: 130 bytes are two packets of 8 */
    check_pingpong("jobs.pp.message_bytes=130", "router.latency=5", "links.injection_latency=1",
                   "traffic.packet_size=8", 22);
}

/* Alltoall of N ranks and M bytes: every rank pushes (N - 1) * M / phit_bytes phits through
 * its node link of one phit per cycle, so no run is shorter. Every message arrives, every
 * packet is delivered. Where nothing contends (one node per router, the ranks on the routers
 * of one group: each step is a permutation over the group's local links) the run is exactly
 * the bound plus each step's latency: a message of 128 packets of 8 phits arrives
 * 127 * 8 + 1 + 5 + 10 + 5 + 1 + 7 = 1045 cycles after it was created (its last packet 1016
 * cycles after the first, then injection, router, local link, router, ejection, tail), the
 * next step starts a cycle later: 7 steps = 7 * 1046 - 1. */
static void test_alltoall_exact_without_contention(void)
{
    static const char text[] =
        "topology = { p = 1; a = 8; h = 4; };\n"
        "sim = { warmup_cycles = 10; };\n"
        "jobs = ( { name = \"a2a\"; nodes = 8; placement = \"contiguous\"; first_node = 0;\n"
        "           motif = \"alltoall\"; message_bytes = 16384; } );\n";
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    const struct job_result *job = &res.jobs[0];
    CU_ASSERT(job->runtime_cycles >= 7 * 16384 / 16);
    CU_ASSERT_EQUAL(job->message_latency.min, 1045);
    CU_ASSERT_EQUAL(job->message_latency.max, 1045);
    CU_ASSERT_EQUAL(job->runtime_cycles, 7 * 1046 - 1);
    /* one iteration: the job's is its slowest rank's, the whole run */
    CU_ASSERT_EQUAL_FATAL(job->job_iterations, 1);
    CU_ASSERT_EQUAL(job->job_iteration_cycles[0], 7 * 1046 - 1);
    result_free(&res);
}

/* Allreduce by recursive doubling (message_bytes below allreduce_threshold) on the same
 * contention-free group, 2 iterations. Every message is one packet, 29 cycles from creation
 * to arrival (1 + 5 + 10 + 5 + 1 + 7), and a rank enters its next step the cycle after an
 * arrival. 8 ranks: three doubling steps of 30 cycles; the empty first step takes no time,
 * the empty last one the cycle after the last arrival: 90 per iteration. 6 ranks (p2 = 4,
 * rem = 2): rank 0's result needs three messages in a row (0 -> 1, the partner's step-1
 * message to 1, 1 -> 0), so no iteration is shorter than 3 * 29. Either way the job must end
 * when its last rank does, even when that rank's last step is empty (it once waited for a
 * delivery that never came, and the run was stopped as a deadlock). */
static double allreduce_doubling_runtime(int ranks)
{
    char text[512];
    snprintf(text, sizeof text,
             "topology = { p = 1; a = 8; h = 4; };\n"
             "sim = { warmup_cycles = 10; };\n"
             "jobs = ( { name = \"ar\"; nodes = %d; placement = \"contiguous\";\n"
             "           motif = \"allreduce\"; message_bytes = 128; iterations = 2; } );\n",
             ranks);
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    const struct job_result *job = &res.jobs[0];
    CU_ASSERT_EQUAL(job->message_latency.min, 29);
    double runtime = job->runtime_cycles;
    result_free(&res);
    return runtime;
}

static void test_allreduce_doubling(void)
{
    CU_ASSERT_EQUAL(allreduce_doubling_runtime(8), 2 * 90);
    CU_ASSERT(allreduce_doubling_runtime(6) >= 2 * 3 * 29);
}

static void test_alltoall_injection_bound(void)
{
    static const char text[] =
        SMALL_NET "sim = { warmup_cycles = 10; };\n"
                  "jobs = ( { name = \"a2a\"; nodes = 16; placement = \"random_nodes\";\n"
                  "           motif = \"alltoall\"; message_bytes = 1024; iterations = 2; } );\n";
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    const struct job_result *job = &res.jobs[0];
    double bound = 2.0 * 15 * 1024 / 16; /* two iterations of 15 messages of 64 phits */
    CU_ASSERT_TRUE_FATAL(job->finished);
    CU_ASSERT(job->runtime_cycles >= bound);
    CU_ASSERT_EQUAL(job->messages_sent, 2 * 16 * 15);
    CU_ASSERT_EQUAL(job->messages_delivered, job->messages_sent);
    CU_ASSERT_EQUAL(job->generated, job->messages_sent * 8);
    CU_ASSERT_EQUAL(job->delivered, job->generated);
    CU_ASSERT_EQUAL(job->in_flight_at_end, 0);
    CU_ASSERT_EQUAL(job->iterations_completed, 2);
    result_free(&res);
}

/* The same placement shape elsewhere on a symmetric network gives the same job: an alltoall
 * on the nodes of groups 0 and 1, then of groups 4 and 5 (the palmtree arrangement is the
 * same seen from every group), and a halo on router 0's group then on group 7's. */
static void check_same_shape(const char *motif_line, const char *where_a, const char *where_b)
{
    char text[512];
    struct result res[2];
    struct sim_config cfg[2];
    const char *where[] = {where_a, where_b};
    for (int i = 0; i < 2; i++) {
        snprintf(text, sizeof text,
                 SMALL_NET "sim = { warmup_cycles = 10; };\n"
                           "jobs = ( { name = \"j\"; %s %s } );\n",
                 where[i], motif_line);
        workload_point(text, NULL, 0, &cfg[i], &res[i]);
    }
    CU_ASSERT_TRUE(res[0].jobs[0].finished);
    CU_ASSERT_EQUAL(res[0].jobs[0].runtime_cycles, res[1].jobs[0].runtime_cycles);
    CU_ASSERT_EQUAL(res[0].jobs[0].message_latency.mean, res[1].jobs[0].message_latency.mean);
    CU_ASSERT_EQUAL(res[0].jobs[0].latency.max, res[1].jobs[0].latency.max);
    CU_ASSERT_NOT_EQUAL(res[0].jobs[0].ranks_to_nodes[0], res[1].jobs[0].ranks_to_nodes[0]);
    for (int i = 0; i < 2; i++)
        result_free(&res[i]);
}

static void test_results_do_not_depend_on_node_ids(void)
{
    check_same_shape("motif = \"alltoall\"; message_bytes = 256; iterations = 2;",
                     "nodes = 16; placement = \"groups\"; groups = [0, 1];",
                     "nodes = 16; placement = \"groups\"; groups = [4, 5];");
    check_same_shape("motif = \"halo3d\"; dims = [2, 2, 2]; message_bytes = 512; iterations = 3;",
                     "nodes = 8; placement = \"contiguous\"; first_node = 0;",
                     "nodes = 8; placement = \"contiguous\"; first_node = 56;");
}

/* A job that sends nothing changes nothing: the other job's figures and the network's are the
 * same to the bit (every job draws from its own random streams). */
static void test_silent_job_changes_nothing(void)
{
    static const char alone[] =
        SMALL_NET "sim = { warmup_cycles = 1000; measure_cycles = 4000; };\n"
                  "jobs = ( { name = \"bg\"; nodes = 36; pattern = \"uniform\"; load = 0.4; } );\n";
    static const char with_idle[] =
        SMALL_NET "sim = { warmup_cycles = 1000; measure_cycles = 4000; };\n"
                  "jobs = ( { name = \"bg\"; nodes = 36; pattern = \"uniform\"; load = 0.4; },\n"
                  "         { name = \"idle\"; nodes = 36; pattern = \"uniform\"; load = 0; } );\n";
    struct sim_config cfg[2];
    struct result res[2];
    workload_point(alone, NULL, 0, &cfg[0], &res[0]);
    workload_point(with_idle, NULL, 0, &cfg[1], &res[1]);
    char *doc[2];
    for (int i = 0; i < 2; i++) {
        res[i].n_jobs = 1; /* render the first job only */
        doc[i] = result_json_render(&cfg[0], &res[i], false);
        res[i].n_jobs = i + 1;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc[0]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc[1]);
    CU_ASSERT_STRING_EQUAL(doc[0], doc[1]);
    CU_ASSERT_EQUAL(res[1].jobs[1].generated, 0);
    CU_ASSERT_EQUAL(res[1].jobs[1].offered, 0);
    for (int i = 0; i < 2; i++) {
        free(doc[i]);
        result_free(&res[i]);
    }
}

/* --isolate: the job alone is exactly the job in a config of its own (same index, so same
 * streams), and a job on a group no other traffic crosses (MIN) is not slowed, while one
 * spread among a background's nodes is. */
static void test_isolate(void)
{
    static const char shared[] =
        SMALL_NET "sim = { warmup_cycles = 2000; isolate = true; };\n"
                  "jobs = ( { name = \"app\"; nodes = 8; placement = \"groups\"; groups = [1];\n"
                  "           motif = \"alltoall\"; message_bytes = 512; iterations = 2; },\n"
                  "         { name = \"bg\"; nodes = 36; placement = \"random_nodes\";\n"
                  "           pattern = \"uniform\"; load = 0.5; },\n"
                  "         { name = \"near\"; nodes = 16; placement = \"random_nodes\";\n"
                  "           motif = \"alltoall\"; message_bytes = 512; iterations = 2; } );\n";
    static const char solo[] =
        SMALL_NET "sim = { warmup_cycles = 2000; };\n"
                  "jobs = ( { name = \"app\"; nodes = 8; placement = \"groups\"; groups = [1];\n"
                  "           motif = \"alltoall\"; message_bytes = 512; iterations = 2; } );\n";
    struct sim_config cfg[2];
    struct result res[2];
    workload_point(shared, NULL, 0, &cfg[0], &res[0]);
    workload_point(solo, NULL, 0, &cfg[1], &res[1]);
    const struct job_result *app = &res[0].jobs[0], *near = &res[0].jobs[2];
    CU_ASSERT_FALSE(res[0].jobs[1].isolated); /* open loop: never run alone */
    CU_ASSERT_TRUE_FATAL(app->isolated && near->isolated);
    CU_ASSERT_TRUE(app->alone.finished);
    CU_ASSERT_EQUAL(app->alone.runtime_cycles, res[1].jobs[0].runtime_cycles);
    CU_ASSERT_EQUAL(app->alone.message_latency.mean, res[1].jobs[0].message_latency.mean);
    /* group 1 holds only app's nodes, and under MIN no other packet crosses it */
    CU_ASSERT_EQUAL(app->runtime_cycles, app->alone.runtime_cycles);
    CU_ASSERT_EQUAL(app->slowdown_runtime, 1);
    /* the random job shares links with both: slower, and its figures say by how much */
    CU_ASSERT(near->slowdown_runtime > 1);
    CU_ASSERT(fabs(near->slowdown_runtime - near->runtime_cycles / near->alone.runtime_cycles) <
              1e-12);
    CU_ASSERT(near->slowdown_message_latency > 1);
    for (int i = 0; i < 2; i++)
        result_free(&res[i]);
}

/* sim.max_cycles cuts a job that cannot finish in time, and the result says so. */
static void test_capped_run(void)
{
    static const char text[] = SMALL_NET
        "sim = { warmup_cycles = 100; max_cycles = 600; };\n"
        "jobs = ( { name = \"long\"; nodes = 16; motif = \"alltoall\"; message_bytes = 4096;\n"
        "           iterations = 5; } );\n";
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    CU_ASSERT_TRUE(res.run.capped);
    CU_ASSERT_EQUAL(res.run.cycles, 600);
    CU_ASSERT_EQUAL(res.run.measured_cycles, 500);
    CU_ASSERT_FALSE(res.jobs[0].finished);
    CU_ASSERT(res.jobs[0].iterations_completed < 5);
    result_free(&res);
}

/* An open-ended congestor (an alltoall that alone would need far more than sim.max_cycles)
 * beside a short halo: the run ends when the halo does, never capped; the congestor restarted
 * its iterations, reports no runtime (not finished, open_ended) but its load and latency, and
 * --check finds every message where the workload says through the restarts. The same
 * congestor without open_ended caps the run. */
/* Builds the config of `text`, runs it with the invariant recount after every cycle and
 * returns the sim (its status in *status; the network's message printed when not SIM_OK). */
static struct sim *workload_run_checked(struct sim_config *cfg, const char *text,
                                        enum sim_status *status)
{
    char err[256];
    workload_config(cfg, text, NULL, 0);
    struct sim *sim = sim_create(cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    sim->check_invariants = true;
    *status = sim_run(sim, NULL, NULL);
    if (*status != SIM_OK)
        fprintf(stderr, "\n%s\n", sim->net.message);
    return sim;
}

static const char open_ended_text[] = SMALL_NET
    "sim = { warmup_cycles = 500; max_cycles = 40000; };\n"
    "jobs = ( { name = \"app\"; nodes = 8; placement = \"random_nodes\"; motif = \"halo3d\";\n"
    "           dims = [2, 2, 2]; message_bytes = 512; iterations = 30; compute_cycles = 20; },\n"
    "         { name = \"cong\"; nodes = 16; placement = \"random_nodes\"; motif = \"alltoall\";\n"
    "           message_bytes = 256; iterations = 1000; open_ended = true; } );\n";

static void test_open_ended_congestor(void)
{
    struct sim_config cfg;
    enum sim_status status;
    struct sim *sim = workload_run_checked(&cfg, open_ended_text, &status);
    CU_ASSERT_EQUAL_FATAL(status, SIM_OK);
    CU_ASSERT_FALSE(sim->capped);
    uint64_t app_end = sim->workload->jobs[0].end_cycle;
    CU_ASSERT(app_end > 0);
    CU_ASSERT(sim->net.cycle == app_end + 1); /* the run stops the cycle the app finished */
    sim_destroy(sim);

    struct result res;
    const char *few[] = {"jobs.cong.iterations=1"}; /* rounds of one iteration: many restarts */
    for (int k = 0; k < 2; k++) {
        workload_point(open_ended_text, few, k, &cfg, &res);
        const struct job_result *app = &res.jobs[0], *cong = &res.jobs[1];
        CU_ASSERT_FALSE(res.run.capped);
        CU_ASSERT_TRUE(app->finished);
        CU_ASSERT_FALSE(cong->finished);
        CU_ASSERT_TRUE(cong->open_ended);
        CU_ASSERT_EQUAL(cong->runtime_cycles, 0);
        CU_ASSERT(cong->accepted > 0.05 && cong->latency.mean > 0);
        CU_ASSERT(cong->messages_delivered > 0);
        CU_ASSERT_EQUAL(res.run.node_cycles, app->node_cycles); /* the congestor's is no result */
        if (k == 1) { /* one-iteration rounds: it restarted, and counts every round's iteration */
            CU_ASSERT(cong->rounds >= 2);
            CU_ASSERT(cong->iterations_completed >= cong->rounds);
            printf("[app %.0f cycles, congestor %llu rounds, accepted %.3f] ", app->runtime_cycles,
                   (unsigned long long)cong->rounds, cong->accepted);
        }
        result_free(&res);
    }
    /* Its intensity holds across the restarts: a one-iteration round owes its gap to the
     * next round (it was dropped with the finished run, and intensity did nothing). */
    double accepted[2];
    const char *dialled[][3] = {
        {"jobs.cong.iterations=1", "jobs.cong.message_bytes=4096", "jobs.cong.intensity=1"},
        {"jobs.cong.iterations=1", "jobs.cong.message_bytes=4096", "jobs.cong.intensity=0.25"}};
    for (int k = 0; k < 2; k++) {
        workload_point(open_ended_text, dialled[k], 3, &cfg, &res);
        accepted[k] = res.jobs[1].accepted;
        result_free(&res);
    }
    CU_ASSERT(accepted[1] < 0.5 * accepted[0]);
    printf("[one-iteration rounds: accepted %.3f at i = 1, %.3f at 0.25] ", accepted[0],
           accepted[1]);
    /* Alone it runs one round: the yardstick of its mean round beside the app. */
    const char *isolated[] = {"jobs.cong.iterations=1", "sim.isolate=true"};
    workload_point(open_ended_text, isolated, 2, &cfg, &res);
    const struct job_result *cong = &res.jobs[1];
    CU_ASSERT_TRUE(cong->alone.finished);
    CU_ASSERT(cong->rounds >= 2 && cong->round_cycles > 0);
    CU_ASSERT(cong->round_cycles * (double)cong->rounds <= (double)res.run.cycles);
    CU_ASSERT_DOUBLE_EQUAL(cong->slowdown_runtime, cong->round_cycles / cong->alone.runtime_cycles,
                           1e-9);
    CU_ASSERT(cong->slowdown_runtime > 1); /* beside the halo its rounds take longer */
    CU_ASSERT(res.run.node_cycles_increase > 1); /* the app's: the congestor's is no result */
    printf("[isolated: round %.0f cycles, alone %.0f, slowdown %.3f] ", cong->round_cycles,
           cong->alone.runtime_cycles, cong->slowdown_runtime);
    result_free(&res);
    const char *bounded[] = {"jobs.cong.open_ended=false"};
    workload_point(open_ended_text, bounded, 1, &cfg, &res);
    CU_ASSERT_TRUE(res.run.capped);
    CU_ASSERT_EQUAL(res.run.cycles, 40000);
    result_free(&res);
}

/* intensity i dials a congestor: after each step a rank computes (1 - i) / i times the
 * cycles its sends of that step waited to leave. An alltoall alone on 16 nodes takes longer
 * the lower i; with 4 KiB messages, whose steps are mostly sending, its injected load falls
 * with i but not below 0.9 i (the gaps overlap with waits for the peers' messages, and less
 * contention shortens the sending times they are computed from), at i = 0.25 to at most 0.6
 * of i = 1. An open-loop job offers i times its load. */
static void test_intensity(void)
{
    static const char closed[] = SMALL_NET
        "sim = { warmup_cycles = 100; };\n"
        "jobs = ( { name = \"a2a\"; nodes = 16; motif = \"alltoall\"; message_bytes = 256;\n"
        "           iterations = 6; } );\n";
    const double i[] = {1, 0.5, 0.25};
    struct sim_config cfg;
    struct result res;
    double runtime_before = 0, injected1 = 0, ratio_before = 1.01;
    for (int k = 0; k < 3; k++) {
        char set[64], big[] = "jobs.a2a.message_bytes=4096";
        snprintf(set, sizeof set, "jobs.a2a.intensity=%g", i[k]);
        const char *ov[] = {set, big};
        workload_point(closed, ov, 1, &cfg, &res);
        const struct job_result *j = &res.jobs[0];
        CU_ASSERT_TRUE_FATAL(j->finished);
        CU_ASSERT(j->runtime_cycles > runtime_before);
        runtime_before = j->runtime_cycles;
        printf("[i %.2f: runtime %.0f", i[k], j->runtime_cycles);
        result_free(&res);
        workload_point(closed, ov, 2, &cfg, &res);
        if (k == 0)
            injected1 = res.jobs[0].injected;
        double ratio = res.jobs[0].injected / injected1;
        CU_ASSERT(ratio >= 0.9 * i[k] && ratio < ratio_before);
        ratio_before = ratio;
        printf(", 4 KiB: injected %.3f, %.2f of i = 1] ", res.jobs[0].injected, ratio);
        result_free(&res);
    }
    CU_ASSERT(ratio_before <= 0.6); /* i = 0.25 sends at most 0.6 of what i = 1 does */
    static const char open[] =
        SMALL_NET "sim = { warmup_cycles = 1000; measure_cycles = 20000; };\n"
                  "jobs = ( { name = \"u\"; nodes = 36; pattern = \"uniform\"; load = 0.4;\n"
                  "           message_bytes = 128; intensity = 0.5; } );\n";
    workload_point(open, NULL, 0, &cfg, &res);
    CU_ASSERT_DOUBLE_EQUAL(res.jobs[0].offered, 0.2, 0.01);
    result_free(&res);
}

/* A network left empty for longer than the watchdog (a job computing, nothing else sending)
 * is idle, not deadlocked: the first packets after the pause must not trip sim.deadlock_cycles
 * (they did, reporting "nothing moved for 2000 cycles" the cycle they were created). */
static void test_idle_network_is_not_deadlocked(void)
{
    static const char text[] =
        SMALL_NET "sim = { warmup_cycles = 100; deadlock_cycles = 2000; };\n"
                  "jobs = ( { name = \"pp\"; nodes = 2; motif = \"pingpong\"; message_bytes = 64;\n"
                  "           iterations = 3; compute_cycles = 5000; } );\n";
    struct sim_config cfg;
    struct result res;
    workload_point(text, NULL, 0, &cfg, &res);
    CU_ASSERT_TRUE(res.jobs[0].finished);
    CU_ASSERT_EQUAL(res.jobs[0].iterations_completed, 3);
    CU_ASSERT(res.run.cycles > 100 + 3 * 5000);
    result_free(&res);
}

/* The document of a run of `text`: by sim_run, which jumps over idle cycles, or stepped
 * cycle by cycle as sim_run did before it jumped (caller frees). */
static char *workload_document(const char *text, const char *const *ov, int n, bool stepped)
{
    struct sim_config cfg;
    workload_config(&cfg, text, ov, n);
    return test_run_document(&cfg, stepped);
}

/* Jumping over idle cycles (jobs computing, nothing in the network) changes nothing: the same
 * document as stepping every cycle, with the jobs starting after the warm-up, finishing, or
 * capped in the middle of a compute phase; and a routing that acts every cycle too. */
static void test_idle_skip_changes_nothing(void)
{
    static const char text[] =
        SMALL_NET "sim = { warmup_cycles = 700; max_cycles = 60000; };\n"
                  "jobs = ( { name = \"pp\"; nodes = 2; motif = \"pingpong\"; message_bytes = 64;\n"
                  "           iterations = 3; compute_cycles = 5000; },\n"
                  "         { name = \"halo\"; nodes = 27; placement = \"random_nodes\";\n"
                  "           motif = \"halo3d\"; dims = [3, 3, 3]; message_bytes = 700;\n"
                  "           iterations = 4; compute_cycles = 3000; } );\n";
    const char *capped[] = {"sim.max_cycles=9000"};
    const char *piggyback[] = {"routing.mechanism=piggyback"};
    const char *const *ovs[] = {NULL, capped, piggyback};
    for (int i = 0; i < 3; i++) {
        char *jumped = workload_document(text, ovs[i], ovs[i] ? 1 : 0, false);
        char *stepped = workload_document(text, ovs[i], ovs[i] ? 1 : 0, true);
        CU_ASSERT_STRING_EQUAL(jumped, stepped);
        free(jumped);
        free(stepped);
    }
    /* Open-loop jobs alone at low rates: the network is often empty until a rank's next
     * message (injection_calendar.h), single packets, messages, bursts and a fixed period. */
    static const char open_loop[] =
        SMALL_NET "sim = { warmup_cycles = 500; measure_cycles = 30000; };\n"
                  "jobs = ( { name = \"bg\"; nodes = 24; pattern = \"uniform\"; load = 0.001; },\n"
                  "         { name = \"msg\"; nodes = 12; pattern = \"uniform\"; load = 0.002;\n"
                  "           message_bytes = 300; process = \"on_off\"; on_cycles = 200;\n"
                  "           off_cycles = 800; },\n"
                  "         { name = \"tick\"; nodes = 8; pattern = \"uniform\";\n"
                  "           process = \"periodic\"; interval_cycles = 2500; } );\n";
    char *jumped = workload_document(open_loop, NULL, 0, false);
    char *stepped = workload_document(open_loop, NULL, 0, true);
    CU_ASSERT_STRING_EQUAL(jumped, stepped);
    free(jumped);
    free(stepped);
    struct sim_config cfg;
    struct result res;
    workload_point(open_loop, NULL, 0, &cfg, &res);
    for (int j = 0; j < 3; j++) /* every job sent, at about its rate */
        CU_ASSERT(res.jobs[j].offered > 0);
    result_free(&res);
}

/* ---- invariants ---- */

static const char two_jobs[] = SMALL_NET
    "sim = { warmup_cycles = 300; measure_cycles = 1500; };\n"
    "jobs = ( { name = \"bg\"; nodes = 24; placement = \"random_routers\";\n"
    "           pattern = \"uniform\"; load = 0.6; message_bytes = 300; },\n"
    "         { name = \"halo\"; nodes = 27; placement = \"random_nodes\"; motif = \"halo3d\";\n"
    "           dims = [3, 3, 3]; message_bytes = 700; iterations = 4; compute_cycles = 50; } );\n";

/* --check every cycle of a run with two jobs: every message's packets where the workload
 * says, nothing lost or duplicated, and the closed-loop job finishes. */
static void test_invariants_every_cycle(void)
{
    struct sim_config cfg;
    enum sim_status status;
    struct sim *sim = workload_run_checked(&cfg, two_jobs, &status);
    CU_ASSERT_EQUAL(status, SIM_OK);
    CU_ASSERT(workload_finished(sim->workload));
    CU_ASSERT(sim->net.counts.total_delivered > 1000);
    sim_destroy(sim);
}

/* The recount catches a packet that lost its message, and a message that claims a packet
 * arrived twice. */
static void test_invariants_detect(void)
{
    struct sim_config cfg;
    char err[256];
    workload_config(&cfg, two_jobs, NULL, 0);
    for (int breakage = 0; breakage < 2; breakage++) {
        struct sim *sim = sim_create(&cfg, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        while (sim->net.cycle < 600)
            CU_ASSERT_EQUAL_FATAL(sim_step(sim), SIM_OK);
        CU_ASSERT_EQUAL_FATAL(sim_check_invariants(sim), 0);
        /* a packet of some message in the network */
        uint32_t victim = UINT32_MAX;
        for (uint32_t i = 0; i < sim->net.pool.capacity && victim == UINT32_MAX; i++)
            if (sim->net.pool.tags[i] && packet_pool_in_use(&sim->net.pool))
                victim = i;
        CU_ASSERT_FATAL(victim != UINT32_MAX);
        struct workload_message *m = &sim->workload->messages[sim->net.pool.tags[victim] - 1];
        if (breakage == 0)
            m->created_packets++; /* a packet the network never got: lost */
        else
            m->delivered = m->created_packets; /* every packet arrived, yet one is in flight */
        CU_ASSERT_EQUAL(sim_check_invariants(sim), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(sim->net.message, "message"));
        sim_destroy(sim);
    }
}

/* ---- the document ---- */

static int document_field_count(void *ctx, const char *path, const struct result_field *f)
{
    (void)path;
    (void)f;
    (*(int *)ctx)++;
    return 0;
}

/* Every member of a job's object is a field of the job section with the JSON type it says,
 * and a field is missing only where its absent_when says so (open-loop jobs have no runtime,
 * jobs not run alone no slowdown). */
static void check_job_object(const cJSON *obj, const struct result_section *section,
                             const void *source)
{
    int members = cJSON_GetArraySize(obj), expected = 0;
    for (int i = 0; i < section->n_fields; i++) {
        const struct result_field *f = &section->fields[i];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, f->key);
        bool absent = result_field_is_absent(f, source);
        CU_ASSERT_EQUAL(item == NULL, absent);
        if (!item)
            continue;
        expected++;
        switch (f->type) {
        case RESULT_OBJECT:
            CU_ASSERT_FATAL(cJSON_IsObject(item));
            check_job_object(item, f->section, result_field_object(f, source));
            break;
        case RESULT_BOOL:
            CU_ASSERT(cJSON_IsBool(item));
            break;
        case RESULT_STRING:
            CU_ASSERT(cJSON_IsString(item));
            break;
        case RESULT_COUNT_ARRAY:
            CU_ASSERT(cJSON_IsArray(item));
            break;
        case RESULT_NUMBER_OR_NULL:
            CU_ASSERT(cJSON_IsNumber(item) || cJSON_IsNull(item));
            CU_ASSERT_EQUAL(cJSON_IsNull(item), result_field_is_null(f, source));
            break;
        default:
            CU_ASSERT(cJSON_IsNumber(item));
        }
    }
    CU_ASSERT_EQUAL(members, expected);
}

static void test_document_jobs(void)
{
    struct sim_config cfg;
    struct result res;
    const char *ov[] = {"sim.isolate=true"};
    workload_point(two_jobs, ov, 1, &cfg, &res);
    char *text = result_json_render(&cfg, &res, true);
    cJSON *doc = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
    CU_ASSERT_FATAL(cJSON_IsArray(jobs) && cJSON_GetArraySize(jobs) == 2);
    const struct result_field *jobs_field = result_schema_find("jobs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(jobs_field);
    for (int j = 0; j < 2; j++)
        check_job_object(cJSON_GetArrayItem(jobs, j), jobs_field->section, &res.jobs[j]);
    const cJSON *bg = cJSON_GetArrayItem(jobs, 0), *halo = cJSON_GetArrayItem(jobs, 1);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(bg, "runtime_cycles"));
    CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(halo, "slowdown"));
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(halo, "ranks_to_nodes")),
                    27);
    CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(doc, "run"));
    int fields = 0;
    result_schema_walk(jobs_field->section, document_field_count, &fields);
    CU_ASSERT(fields > 40);
    cJSON_Delete(doc);
    free(text);
    result_free(&res);
}

int test_workload_register(void)
{
    static const struct test_case cases[] = {
        {"open loop: halves accept what they offer", test_open_loop_halves_accept_offered},
        {"open loop: messages", test_open_loop_messages},
        {"open loop: a network pattern's bound", test_open_loop_network_pattern},
        {"ping-pong: the round trip by hand", test_pingpong_round_trip_by_hand},
        {"alltoall: the injection bound", test_alltoall_injection_bound},
        {"alltoall: exact without contention", test_alltoall_exact_without_contention},
        {"allreduce: recursive doubling ends, by hand", test_allreduce_doubling},
        {"same shape elsewhere, same results", test_results_do_not_depend_on_node_ids},
        {"a silent job changes nothing", test_silent_job_changes_nothing},
        {"--isolate: alone and slowdown", test_isolate},
        {"sim.max_cycles caps a run", test_capped_run},
        {"an open-ended congestor stops with the others, never caps", test_open_ended_congestor},
        {"intensity dials a congestor", test_intensity},
        {"an idle network is not a deadlock", test_idle_network_is_not_deadlocked},
        {"jumping over idle cycles changes nothing", test_idle_skip_changes_nothing},
        {"--check follows every message", test_invariants_every_cycle},
        {"the recount catches a lost packet", test_invariants_detect},
        {"the document's jobs", test_document_jobs},
    };
    return test_add_suite("workload", workload_init, workload_cleanup, cases,
                          sizeof cases / sizeof cases[0]);
}
