/* Per-job routing modes (jobs.NAME.ugal_preset): each packet carries its job's mode and ugal
 * decides with that mode's bias; a job whose mode is the network's own behaves as without the
 * key; a progressive mode gives the whole run the progressive ladder (a mode under a mechanism
 * that has none: tests/test_job_inputs.c). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "point.h"
#include "result_json.h"
#include "routing.h"
#include "sim.h"
#include "test_util.h"

static char job_routing_dir[64];

static int job_routing_init(void)
{
    return test_tmpdir_create(job_routing_dir, "job_routing");
}

static int job_routing_cleanup(void)
{
    return test_tmpdir_remove(job_routing_dir);
}

/* Writes text to a file of the suite's folder; the path in path. */
static void job_routing_write(const char *text, char path[128])
{
    test_write_text(job_routing_dir, "job.cfg", text, path);
}

static void job_routing_point(const char *text, const char *const *ov, int n,
                              struct sim_config *cfg, struct result *res)
{
    test_load_config_text(job_routing_dir, "job.cfg", text, ov, n, cfg);
    const struct point_options opt = {.progress = false};
    struct point_outcome out;
    enum sim_status status = point_run(cfg, &opt, res, &out);
    if (status != SIM_OK)
        fprintf(stderr, "\n%s\n", out.message);
    CU_ASSERT_EQUAL_FATAL(status, SIM_OK);
}

/* conf/aries_small.cfg (5 groups of 2 x 4 routers, 2 nodes each: 16 nodes and 4 links per
 * pair of groups) shortened, and two jobs that each send from one group to another: group
 * pair traffic at 0.5 phits/node/cycle asks 8 phits/cycle of 4 global links (at most 4), so
 * the minimal path saturates and a UGAL without bias misroutes much of it. Job "a" (groups 0,
 * 1) takes mode %s, job "b" (groups 2, 3) mode %s. */
static const char two_jobs[] =
    "topology = { kind = \"cascade\"; p = 2; h = 2; rows = 2; cols = 4; row_links = 1;\n"
    "             col_links = 2; cascade_groups = 5; };\n"
    "routing = { mechanism = \"ugal\"; };\n"
    "traffic = { packet_size = 8; };\n"
    "sim = { warmup_cycles = 2000; measure_cycles = 4000; seed = 1; };\n"
    "jobs = (\n"
    "  { name = \"a\"; nodes = 32; placement = \"groups\"; groups = [0, 1];\n"
    "    pattern = \"group_pair\"; load = 0.5; ugal_preset = \"%s\"; },\n"
    "  { name = \"b\"; nodes = 32; placement = \"groups\"; groups = [2, 3];\n"
    "    pattern = \"group_pair\"; load = 0.5; ugal_preset = \"%s\"; } );\n";

static void job_routing_two(const char *mode_a, const char *mode_b, const char *const *ov, int n,
                            struct sim_config *cfg, struct result *res)
{
    char text[2048];
    snprintf(text, sizeof text, two_jobs, mode_a, mode_b);
    job_routing_point(text, ov, n, cfg, res);
    CU_ASSERT_EQUAL_FATAL(res->n_jobs, 2);
}

/* A network bias of 10^6 phits no occupancy reaches: job "a", on the network's rule, routes
 * every packet minimally; job "b", in adaptive_0 (no bias), misroutes a large part of its
 * saturated group-pair traffic, on the same network at the same time. */
static void test_huge_bias_job_minimal(void)
{
    const char *ov[] = {"routing.ugal_bias=1000000"};
    static struct sim_config cfg;
    struct result res;
    job_routing_two("none", "adaptive_0", ov, 1, &cfg, &res);
    const struct job_result *a = &res.jobs[0], *b = &res.jobs[1];
    CU_ASSERT(a->delivered > 1000 && b->delivered > 1000);
    CU_ASSERT_EQUAL(a->misrouted_global, 0.0);
    CU_ASSERT(b->misrouted_global > 0.2);
    /* misrouting lets b through where a is held at its 4 minimal links (0.25 of 0.5) */
    CU_ASSERT(a->accepted < 0.26);
    CU_ASSERT(b->accepted > a->accepted + 0.05);
    fprintf(stderr,
            "[a none/bias 1e6: misrouted %.3f accepted %.3f; b adaptive_0: misrouted "
            "%.3f accepted %.3f] ",
            a->misrouted_global, a->accepted, b->misrouted_global, b->accepted);
    result_free(&res);
}

/* The presets side by side: adaptive_3 (high bias) misroutes clearly less than adaptive_0
 * (saturated minimal links still beat 128 phits for much of its traffic) when a path costs its
 * first hop only (ugal_far_end = none). With the far end (the cascade's default) a minimal path
 * through another router's saturated global port costs that port's occupancy too, some 256
 * phits x 3 hops, which dwarfs the bias: adaptive_3 still misroutes less, by little (measured
 * 0.469 against 0.509; routers/README.md). */
static void test_high_bias_misroutes_less(void)
{
    static const char *const far_end[] = {"routing.ugal_far_end=none",
                                          "routing.ugal_far_end=credits"};
    for (int k = 0; k < 2; k++) {
        static struct sim_config cfg;
        struct result res;
        job_routing_two("adaptive_3", "adaptive_0", &far_end[k], 1, &cfg, &res);
        const struct job_result *a = &res.jobs[0], *b = &res.jobs[1];
        CU_ASSERT(a->misrouted_global < b->misrouted_global - (k == 0 ? 0.1 : 0));
        fprintf(stderr, "[%s: adaptive_3 %.3f, adaptive_0 %.3f misrouted] ", far_end[k] + 8,
                a->misrouted_global, b->misrouted_global);
        result_free(&res);
    }
}

/* A job whose mode is the network's own preset routes exactly as without the key: the same
 * packets, latencies and misroutes to the last bit. */
static void test_same_mode_same_results(void)
{
    const char *ov[] = {"routing.ugal_preset=adaptive_2"};
    static struct sim_config cfg_key, cfg_none;
    struct result with_key, without;
    job_routing_two("adaptive_2", "adaptive_2", ov, 1, &cfg_key, &with_key);
    job_routing_two("none", "none", ov, 1, &cfg_none, &without);
    for (int j = 0; j < 2; j++) {
        CU_ASSERT_EQUAL(with_key.jobs[j].delivered, without.jobs[j].delivered);
        CU_ASSERT_EQUAL(with_key.jobs[j].latency.mean, without.jobs[j].latency.mean);
        CU_ASSERT_EQUAL(with_key.jobs[j].misrouted_global, without.jobs[j].misrouted_global);
    }
    CU_ASSERT_EQUAL(with_key.latency_mean, without.latency_mean);
    result_free(&with_key);
    result_free(&without);
}

/* adaptive_1 re-decides along the source group: a job in it gives the whole run the
 * progressive ladder (6 local VCs on the cascade instead of 5), and the run completes. */
static void test_progressive_mode_ladder(void)
{
    char path[128], err[CONFIG_ERROR_LEN], text[2048];
    static struct sim_config cfg;
    snprintf(text, sizeof text, two_jobs, "adaptive_0", "adaptive_1");
    job_routing_write(text, path);
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.vcs.local, 6);
    CU_ASSERT_EQUAL(cfg.vcs.global, 2);
    snprintf(text, sizeof text, two_jobs, "adaptive_0", "adaptive_3");
    job_routing_write(text, path);
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.vcs.local, 5);
    struct result res;
    job_routing_two("adaptive_0", "adaptive_1", NULL, 0, &cfg, &res);
    CU_ASSERT(res.jobs[1].delivered > 1000);
    result_free(&res);
}

int test_job_routing_register(void)
{
    static const struct test_case cases[] = {
        {"a huge-bias job routes minimally beside a misrouting one", test_huge_bias_job_minimal},
        {"adaptive_3 misroutes less than adaptive_0", test_high_bias_misroutes_less},
        {"the network's own mode as a key changes nothing", test_same_mode_same_results},
        {"a progressive mode gives the run its ladder", test_progressive_mode_ladder},
    };
    return test_add_suite("job_routing", job_routing_init, job_routing_cleanup, cases,
                          sizeof cases / sizeof cases[0]);
}
