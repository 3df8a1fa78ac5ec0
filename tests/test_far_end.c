/* Far-end congestion and phantom decisions of ugal (routing.ugal_far_end): the
 * history rings of the global ports' occupancy, the setting and its auto resolution, the
 * far-end term in a decision (d cycles late, published every T cycles), the phantom rule, what
 * the far end changes under ADV+1, phantoms at latency 1 / 10 / 100, and the invariant recount
 * with fresh credits and far-end histories at saturation. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "far_end.h"
#include "invariants.h"
#include "routing_ugal.h"
#include "sim.h"
#include "test_util.h"

#define CASCADE_SMALL                                                                              \
    "topology.kind=cascade", "topology.p=2", "topology.h=2", "topology.rows=2", "topology.cols=4", \
        "topology.col_links=2", "topology.cascade_groups=5", "routing.mechanism=ugal"
#define DRAGONFLY_SMALL "topology.h=2", "topology.a=4", "topology.p=2", "routing.mechanism=ugal"

static char far_end_dir[64];

static int far_end_suite_init(void)
{
    return test_tmpdir_create(far_end_dir, "far-end");
}

static int far_end_suite_cleanup(void)
{
    return test_tmpdir_remove(far_end_dir);
}

/* A run of the small cascade (5 groups of 2 x 4 routers, 80 nodes) under ugal, or of the
 * small dragonfly, with the overrides after the shape's. */
static struct sim *far_end_sim(struct sim_config *cfg, bool cascade, const char *const *extra,
                               int n)
{
    const char *cascade_ov[] = {CASCADE_SMALL}, *dragonfly_ov[] = {DRAGONFLY_SMALL};
    const char *ov[24];
    int count = cascade ? 8 : 4;
    memcpy(ov, cascade ? cascade_ov : dragonfly_ov, (size_t)count * sizeof *ov);
    for (int i = 0; i < n && count < 24; i++)
        ov[count++] = extra[i];
    test_config(cfg, ov, count);
    char err[256];
    struct sim *sim = sim_create(cfg, err, sizeof err);
    if (!sim)
        fprintf(stderr, "\nfar_end_sim: %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    return sim;
}

/* ---- the history ---- */

/* A change is seen from the end of its cycle on; earlier cycles keep the value they had, also
 * across a long quiet spell (the skipped samples are filled); before the run every port is 0. */
static void test_history_every_cycle(void)
{
    struct far_end h;
    CU_ASSERT_EQUAL_FATAL(far_end_init(&h, 2, 1, 20), 0);
    CU_ASSERT_EQUAL(h.mask + 1, 32); /* 21 samples needed, a power of two kept */
    far_end_change(&h, 0, 5, 8);
    far_end_change(&h, 0, 5, 8);
    far_end_change(&h, 0, 9, -8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, -3), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 4), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 5), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 8), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 9), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 12), 8); /* after the last change: the current value */
    CU_ASSERT_EQUAL(far_end_current(&h, 0), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 1, 9), 0);
    far_end_change(&h, 0, 1000, 24); /* a whole turn later */
    for (int64_t c = 980; c < 1000; c++)
        CU_ASSERT_EQUAL(far_end_value(&h, 0, c), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 1000), 32);
    far_end_change(&h, 1, 1003, 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 1, 1002), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 1, 1003), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 1003), 32);
    far_end_free(&h);
}

/* Published every T cycles: a read of cycle c sees the value at the end of the last multiple of
 * T at or before c; a change between multiples is published at the next one. */
static void test_history_published(void)
{
    struct far_end h;
    CU_ASSERT_EQUAL_FATAL(far_end_init(&h, 1, 10, 20), 0);
    CU_ASSERT_EQUAL(h.mask + 1, 4); /* (20 + 18) / 10 + 1 = 4 samples */
    far_end_change(&h, 0, 3, 8);    /* published at the end of cycle 10 */
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 9), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 10), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 19), 8);
    far_end_change(&h, 0, 20, 8); /* a multiple: published at its own end */
    far_end_change(&h, 0, 21, 8); /* at 30 */
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 19), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 20), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 29), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 30), 24);
    CU_ASSERT_EQUAL(far_end_current(&h, 0), 24);
    far_end_free(&h);
}

/* ---- the setting ---- */

/* auto resolves to the topology kind's choice: credits on the cascade (the network keeps the
 * histories), none on the dragonfly (fresh credits only, for the phantom count); credits may
 * be asked for on the dragonfly; ugal_g and min sense nothing. dfsim info says which. */
static void test_setting_resolves(void)
{
    struct sim_config cfg;
    struct sim *sim = far_end_sim(&cfg, true, NULL, 0);
    CU_ASSERT_EQUAL(ugal_far_end_setting(&cfg), UGAL_FAR_END_AUTO);
    CU_ASSERT_EQUAL(ugal_far_end_of(&cfg), UGAL_FAR_END_CREDITS);
    CU_ASSERT(sim->net.sensing.far_end && sim->net.sensing.fresh_credits);
    CU_ASSERT_PTR_NOT_NULL(sim->net.routing_env.far_end);
    CU_ASSERT_PTR_NOT_NULL(sim->net.routing_env.far_end_fresh);
    CU_ASSERT_EQUAL(sim->net.far_end.ports, 80); /* 40 routers, 2 global ports each */
    sim_destroy(sim);

    sim = far_end_sim(&cfg, false, NULL, 0);
    CU_ASSERT_EQUAL(ugal_far_end_of(&cfg), UGAL_FAR_END_NONE);
    CU_ASSERT_FALSE(sim->net.sensing.far_end);
    CU_ASSERT_PTR_NULL(sim->net.routing_env.far_end);
    CU_ASSERT_PTR_NOT_NULL(sim->net.credits_ahead);
    sim_destroy(sim);

    const char *credits[] = {"routing.ugal_far_end=credits"};
    sim = far_end_sim(&cfg, false, credits, 1);
    CU_ASSERT_EQUAL(ugal_far_end_of(&cfg), UGAL_FAR_END_CREDITS);
    CU_ASSERT_PTR_NOT_NULL(sim->net.routing_env.far_end);
    sim_destroy(sim);

    const char *others[][1] = {{"routing.mechanism=ugal_g"}, {"routing.mechanism=min"}};
    for (int i = 0; i < 2; i++) {
        sim = far_end_sim(&cfg, true, others[i], 1);
        CU_ASSERT_FALSE(sim->net.sensed);
        CU_ASSERT_PTR_NULL(sim->net.credits_ahead);
        CU_ASSERT_PTR_NULL(sim->net.routing_env.far_end);
        sim_destroy(sim);
    }

    char out[4096];
    CU_ASSERT_EQUAL(test_run_command("./dfsim info conf/aries.cfg", out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "far end    credits: a path leaving the group at another "
                                       "router adds that router's global port's occupancy, 10 "
                                       "cycles late per local hop (routing.ugal_far_end auto)"));
    CU_ASSERT_EQUAL(test_run_command("./dfsim info conf/aries.cfg --set routing.ugal_far_end=none "
                                     "--set routing.ugal_far_end_refresh=5",
                                     out, sizeof out),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "far end    none: a path costs its first output's "
                                       "occupancy only (routing.ugal_far_end as set)"));
    CU_ASSERT_EQUAL(test_run_command("./dfsim info conf/aries.cfg --set "
                                     "routing.ugal_far_end_refresh=50",
                                     out, sizeof out),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "local hop, published every 50 cycles (routing"));
    CU_ASSERT_EQUAL(test_run_command("./dfsim info conf/default.cfg", out, sizeof out), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "far end")); /* min routing */
}

/* A bad value: the standard message (file:line, key, what is allowed), exit 2 from the CLI. */
static void test_setting_errors(void)
{
    static const struct {
        const char *text, *expected;
    } bad[] = {
        {"routing = {\n  mechanism = \"ugal\";\n  ugal_far_end = \"stale\";\n};\n",
         ":3: routing.ugal_far_end: unknown value 'stale' (expected one of: none, credits, auto)"},
        {"routing = { mechanism = \"ugal\"; ugal_far_end_refresh = -1; };\n",
         ":1: routing.ugal_far_end_refresh: -1 is out of range (expected an integer in [0, "
         "1000000])"},
        {"routing = { mechanism = \"ugal\"; ugal_far_end_refresh = 1000001; };\n",
         ":1: routing.ugal_far_end_refresh: 1000001 is out of range (expected an integer in [0, "
         "1000000])"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32], path[128], expected[256], err[CONFIG_ERROR_LEN], command[256], out[4096];
        snprintf(name, sizeof name, "bad%zu.cfg", i);
        test_write_text(far_end_dir, name, bad[i].text, path);
        snprintf(expected, sizeof expected, "%s%s", path, bad[i].expected);
        struct sim_config cfg;
        CU_ASSERT_EQUAL(config_load(path, NULL, 0, &cfg, err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, expected));
        snprintf(command, sizeof command, "./dfsim run %s --quiet -o %s/out.json", path,
                 far_end_dir);
        CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, expected));
        if (!strstr(err, expected) || !strstr(out, expected))
            fprintf(stderr, "\n  expected: %s\n  config_load: %s\n  dfsim: %s\n", expected, err,
                    out);
    }
    const char *fine[] = {"routing.ugal_far_end=credits", "routing.ugal_far_end_refresh=1000000"};
    struct sim_config cfg;
    test_config(&cfg, fine, 2);
}

/* ---- the decision ---- */

struct far_end_case {
    struct sim *sim;
    struct packet pk;
    struct ugal_plan plan; /* c[0] minimal, leaving through another router; c[1] nonminimal */
    struct ugal_rule rule; /* adaptive_0: no bias */
    uint32_t gport;        /* the global port c[0] leaves through */
    int source, delay;     /* the deciding router; c[0]'s far end, in cycles (credits) */
};

/* From router 0 of the small cascade (no traffic), a packet to the first router of another group
 * whose minimal path first takes a local hop and leaves the group at another router G; its
 * nonminimal rival leaves through router 0's own global link (no far-end term). */
static void far_end_case_make(struct far_end_case *fc, const char *refresh)
{
    struct sim_config *cfg = malloc(sizeof *cfg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
    const char *ov[] = {"traffic.load=0", "routing.ugal_preset=adaptive_0", refresh};
    memset(fc, 0, sizeof *fc);
    fc->sim = far_end_sim(cfg, true, ov, refresh ? 3 : 2);
    const struct topology *t = &fc->sim->net.topo;
    ugal_rule_of(fc->sim->net.routing_env.params, &fc->rule);
    struct route_ctx ctx = {.in_port = 0};
    network_route_ctx(&fc->sim->net, 0, &ctx);
    int dst_group = -1, non_target = -1;
    for (int g = 1; g < t->groups; g++) {
        int first = t->group_first_router[g], port = topology_min_port(t, 0, first);
        if (topology_port_class(t, 0, port) == PORT_GLOBAL)
            non_target = non_target < 0 ? first : non_target;
        else if (dst_group < 0)
            dst_group = g;
    }
    CU_ASSERT_FATAL(dst_group > 0 && non_target > 0);
    int dst = t->group_first_router[dst_group];
    memset(&fc->pk, 0, sizeof fc->pk);
    fc->pk.id = 1;
    fc->pk.dst = (uint32_t)t->first_node[dst];
    fc->pk.target = -1;
    fc->pk.misroute_group = -1;
    fc->plan = (struct ugal_plan){.n_min = 1, .n_nonmin = 1, .valid = 1, .packet_id = 1};
    CU_ASSERT_EQUAL_FATAL(
        ugal_candidate_make(&ctx, &fc->pk, topology_min_port(t, 0, dst), -1, &fc->plan.c[0]), 0);
    CU_ASSERT_EQUAL_FATAL(ugal_candidate_make(&ctx, &fc->pk, topology_min_port(t, 0, non_target),
                                              non_target, &fc->plan.c[1]),
                          0);
    CU_ASSERT_FATAL(fc->plan.c[0].far_port >= 0 && fc->plan.c[0].far_hops >= 1);
    CU_ASSERT_EQUAL_FATAL(fc->plan.c[1].far_port, -1);
    fc->gport = (uint32_t)fc->plan.c[0].far_port;
    fc->delay = fc->plan.c[0].far_hops * cfg->links.local_latency;
}

static void far_end_case_free(struct far_end_case *fc)
{
    const struct sim_config *cfg = fc->sim->cfg;
    sim_destroy(fc->sim);
    free((void *)cfg);
}

/* The candidate ugal_weigh takes at cycle `now`, and what it weighed. */
static int far_end_case_choice(struct far_end_case *fc, uint64_t now, struct ugal_weighing *w)
{
    fc->sim->net.cycle = now;
    struct route_ctx ctx = {.in_port = 0};
    network_route_ctx(&fc->sim->net, 0, &ctx);
    ugal_weigh(&ctx, &fc->pk, &fc->rule, false, &fc->plan, w);
    return w->chosen;
}

/* G's global port fills at cycle 50 (both histories): router 0 sees it d = local_latency *
 * far_hops cycles later, not before; then the minimal path costs (its first hop's 0 + the far
 * end) * hops and loses to the idle nonminimal one. Published every 64 cycles, it is seen d
 * cycles after the end of cycle 64. */
static void test_decision_far_end_late(void)
{
    struct far_end_case fc;
    far_end_case_make(&fc, NULL);
    struct ugal_weighing w;
    far_end_change(&fc.sim->net.far_end, fc.gport, 50, 200);
    far_end_change(&fc.sim->net.far_end_fresh, fc.gport, 50, 200);
    CU_ASSERT_EQUAL(far_end_case_choice(&fc, 50 + (uint64_t)fc.delay - 1, &w), 0);
    CU_ASSERT_EQUAL(w.cost_min, 0);
    CU_ASSERT_EQUAL(far_end_case_choice(&fc, 50 + (uint64_t)fc.delay, &w), 1);
    CU_ASSERT_EQUAL(w.cost_min, 200 * fc.plan.c[0].hops);
    CU_ASSERT_EQUAL(w.cost_non, 0);
    printf("\n    far end %d local hops away: seen %d cycles late", fc.plan.c[0].far_hops,
           fc.delay);
    far_end_case_free(&fc);

    far_end_case_make(&fc, "routing.ugal_far_end_refresh=64");
    far_end_change(&fc.sim->net.far_end, fc.gport, 50, 200);
    CU_ASSERT_EQUAL(far_end_case_choice(&fc, 64 + (uint64_t)fc.delay - 1, &w), 0);
    CU_ASSERT_EQUAL(far_end_case_choice(&fc, 64 + (uint64_t)fc.delay, &w), 1);
    far_end_change(&fc.sim->net.far_end, fc.gport, 130, -200); /* published at 192 */
    CU_ASSERT_EQUAL(far_end_case_choice(&fc, 192 + (uint64_t)fc.delay - 1, &w), 1);
    CU_ASSERT_EQUAL(far_end_case_choice(&fc, 192 + (uint64_t)fc.delay, &w), 0);
    far_end_case_free(&fc);

    /* far_end = none: no term, whatever the far end holds. */
    struct sim_config cfg;
    const char *none[] = {"traffic.load=0", "routing.ugal_far_end=none"};
    struct sim *sim = far_end_sim(&cfg, true, none, 2);
    struct route_ctx ctx = {.in_port = 0};
    network_route_ctx(&sim->net, 0, &ctx);
    struct ugal_candidate c;
    const struct topology *t = &sim->net.topo;
    for (int r = t->group_first_router[1]; r < t->routers; r++) {
        struct packet pk = {.id = 1, .dst = (uint32_t)t->first_node[r], .target = -1};
        CU_ASSERT_EQUAL(ugal_candidate_make(&ctx, &pk, topology_min_port(t, 0, r), -1, &c), 0);
        CU_ASSERT_EQUAL(c.far_port, -1);
    }
    sim_destroy(sim);
}

/* Phantom: the nonminimal choice of a minimal path that fresher information would have kept.
 * (b) the far end's fresh occupancy emptied right after cycle 50, which router 0 would have
 * known far_hops cycles later over latency-1 links: phantom; kept full: not. (a) the first
 * hop holds 32 phits as credits count them but none as fresh credits do: phantom; as both do:
 * not. */
static void test_decision_phantom(void)
{
    struct far_end_case fc;
    far_end_case_make(&fc, NULL);
    struct ugal_weighing w;
    struct route_ctx ctx = {.in_port = 0};
    uint64_t now = 50 + (uint64_t)fc.delay;
    far_end_change(&fc.sim->net.far_end, fc.gport, 50, 200);
    far_end_change(&fc.sim->net.far_end_fresh, fc.gport, 50, 200);
    CU_ASSERT_EQUAL_FATAL(far_end_case_choice(&fc, now, &w), 1);
    network_route_ctx(&fc.sim->net, 0, &ctx);
    CU_ASSERT_FALSE(ugal_phantom(&ctx, &fc.rule, &fc.plan, &w));
    far_end_change(&fc.sim->net.far_end_fresh, fc.gport, 51, -200);
    CU_ASSERT_TRUE(ugal_phantom(&ctx, &fc.rule, &fc.plan, &w));
    far_end_case_free(&fc);

    far_end_case_make(&fc, NULL);
    struct network *net = &fc.sim->net;
    int idx = network_vc_index(net, 0, fc.plan.c[0].port, fc.plan.c[0].vc);
    net->credits[idx] -= 32;       /* on their way back ... */
    net->credits_ahead[idx] += 32; /* ... freed a while ago: fresh credits have them */
    CU_ASSERT_EQUAL_FATAL(far_end_case_choice(&fc, 100, &w), 1);
    network_route_ctx(net, 0, &ctx);
    CU_ASSERT_TRUE(ugal_phantom(&ctx, &fc.rule, &fc.plan, &w));
    net->credits_ahead[idx] -= 32; /* freed just now, or still in use: fresh credits agree */
    CU_ASSERT_FALSE(ugal_phantom(&ctx, &fc.rule, &fc.plan, &w));
    far_end_case_free(&fc);
}

/* ---- runs ---- */

struct far_end_point {
    double accepted, latency, nonminimal, phantom;
    uint64_t delivered, nonminimal_packets, phantom_packets;
};

static void far_end_point(const char *const *extra, int n, struct far_end_point *out)
{
    struct sim_config cfg;
    struct sim *sim = far_end_sim(&cfg, true, extra, n);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    struct result res;
    CU_ASSERT_EQUAL_FATAL(sim_summarize(sim, &res), 0);
    CU_ASSERT_TRUE(res.counts_decisions);
    *out = (struct far_end_point){
        res.accepted,      res.latency_mean,     res.nonminimal_decisions,
        res.phantom,       sim->stats.delivered, sim->stats.nonminimal_decisions,
        sim->stats.phantom};
    result_free(&res);
    sim_destroy(sim);
}

/* ADV+1 at 0.3 under adaptive_0: the minimal paths' global links (4 per pair of groups) are
 * the busy ones, and most sources reach them through a local hop to another router, whose
 * queue is short. Without the far end a source sees only that queue and stays minimal; with
 * it, it sees the busy global port and misroutes more (measured 0.39 -> 0.50). */
static void test_far_end_changes_decisions(void)
{
    struct far_end_point point[2];
    const char *fe[] = {"routing.ugal_far_end=none", "routing.ugal_far_end=credits"};
    for (int k = 0; k < 2; k++) {
        const char *ov[] = {
            "routing.ugal_preset=adaptive_0", "traffic.pattern=adversarial", "traffic.load=0.3",
            "sim.warmup_cycles=2000",         "sim.measure_cycles=4000",     fe[k]};
        far_end_point(ov, 6, &point[k]);
    }
    printf("\n    ADV+1 0.3: nonminimal %.3f without the far end, %.3f with it (accepted %.4f, "
           "%.4f; latency %.1f, %.1f)",
           point[0].nonminimal, point[1].nonminimal, point[0].accepted, point[1].accepted,
           point[0].latency, point[1].latency);
    CU_ASSERT(point[1].nonminimal > point[0].nonminimal + 0.05);
    CU_ASSERT(point[1].accepted > 0.29 && point[0].accepted > 0.29); /* below saturation */
}

/* ADV+1 at 1.0 under adaptive_0, far end on, local links of latency 1: with global links of
 * latency 1 every credit and far-end value is as fresh as latency-1 links make it, so no
 * decision is phantom (though many are nonminimal); longer global links return credits later
 * (the first hop's and the far end's), and more decisions are phantom at 100 than at 10. */
static void test_phantoms_grow_with_latency(void)
{
    static const char *const globals[] = {"links.global_latency=1", "links.global_latency=10",
                                          "links.global_latency=100"};
    struct far_end_point point[3];
    for (int k = 0; k < 3; k++) {
        const char *ov[] = {"routing.ugal_preset=adaptive_0",
                            "traffic.pattern=adversarial",
                            "traffic.load=1.0",
                            "sim.warmup_cycles=1500",
                            "sim.measure_cycles=2500",
                            "links.local_latency=1",
                            globals[k]};
        far_end_point(ov, 7, &point[k]);
        printf("\n    ADV+1 1.0, latency 1/%s: nonminimal %.3f, phantom %.4f (%llu of %llu "
               "packets)",
               strchr(globals[k], '=') + 1, point[k].nonminimal, point[k].phantom,
               (unsigned long long)point[k].phantom_packets,
               (unsigned long long)point[k].delivered);
    }
    CU_ASSERT(point[0].nonminimal_packets > point[0].delivered / 10);
    CU_ASSERT_EQUAL(point[0].phantom_packets, 0);
    CU_ASSERT(point[1].phantom_packets > 0);
    CU_ASSERT(point[2].phantom > point[1].phantom);
}

/* Saturation with the far end on, every invariant checked every cycle (fresh credits and the
 * histories recounted): the default latencies, latency-1 local links (a credit and its fresh
 * credit in one event), a publication period, progressive re-decisions, uniform traffic. */
static void test_checked_at_saturation(void)
{
    static const char *const variants[][2] = {
        {"traffic.pattern=adversarial", "routing.ugal_preset=adaptive_0"},
        {"traffic.pattern=adversarial", "links.local_latency=1"},
        {"traffic.pattern=adversarial", "routing.ugal_far_end_refresh=25"},
        {"traffic.pattern=adversarial", "routing.ugal_preset=adaptive_1"},
        {"traffic.pattern=uniform", "routing.ugal_intra_group=true"},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        const char *ov[] = {variants[i][0],          variants[i][1],
                            "traffic.load=1.0",      "buffers.injection=64",
                            "sim.warmup_cycles=300", "sim.measure_cycles=1200"};
        struct sim_config cfg;
        struct sim *sim = far_end_sim(&cfg, true, ov, 6);
        CU_ASSERT_FATAL(sim->net.sensing.far_end);
        test_run_checked(sim, variants[i][0], variants[i][1]);
        CU_ASSERT(sim->stats.delivered > 100);
        CU_ASSERT(sim->stats.nonminimal_decisions > 0);
        sim_destroy(sim);
    }
}

/* The recount sees a fresh credit or a far-end value that disagrees with what it mirrors. */
static void test_recount_catches(void)
{
    struct sim_config cfg;
    const char *ov[] = {"traffic.pattern=adversarial", "traffic.load=0.8", "sim.warmup_cycles=0",
                        "sim.measure_cycles=300"};
    struct sim *sim = far_end_sim(&cfg, true, ov, 4);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    char why[512];
    CU_ASSERT_EQUAL_FATAL(invariants_check(&sim->net, NULL, why, sizeof why), 0);
    struct network *net = &sim->net;
    int port = topology_kind_of(&net->topo, 3)->first[PORT_GLOBAL];
    int idx = network_vc_index(net, 3, port, 0);
    net->credits_ahead[idx] += 8;
    CU_ASSERT_EQUAL(invariants_check(net, NULL, why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "fresh credits"));
    net->credits_ahead[idx] -= 8;
    uint32_t global = net->global_port_base[3];
    far_end_change(&net->far_end, global, (uint32_t)net->cycle, 8);
    CU_ASSERT_EQUAL(invariants_check(net, NULL, why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "far-end history holds"));
    far_end_change(&net->far_end, global, (uint32_t)net->cycle, -8);
    far_end_change(&net->far_end_fresh, global, (uint32_t)net->cycle, 8);
    CU_ASSERT_EQUAL(invariants_check(net, NULL, why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "fresh far-end history holds"));
    far_end_change(&net->far_end_fresh, global, (uint32_t)net->cycle, -8);
    CU_ASSERT_EQUAL(invariants_check(net, NULL, why, sizeof why), 0);
    sim_destroy(sim);
}

int test_far_end_register(void)
{
    static const struct test_case cases[] = {
        {"history: a change seen from the end of its cycle, the past kept",
         test_history_every_cycle},
        {"history: published every T cycles", test_history_published},
        {"ugal_far_end: auto = credits on the cascade, none elsewhere; info says it",
         test_setting_resolves},
        {"ugal_far_end, ugal_far_end_refresh: bad values, file:line, exit 2", test_setting_errors},
        {"decision: the far end's occupancy, d cycles late, published every T",
         test_decision_far_end_late},
        {"decision: phantom by stale credits or a stale far end", test_decision_phantom},
        {"ADV+1: the far end misroutes more", test_far_end_changes_decisions},
        {"phantoms: none with latency-1 links, more at global latency 100 than 10",
         test_phantoms_grow_with_latency},
        {"saturation with the far end on, checked every cycle", test_checked_at_saturation},
        {"the recount catches fresh credits and histories that disagree", test_recount_catches},
    };
    return test_add_suite("far_end", far_end_suite_init, far_end_suite_cleanup, cases,
                          sizeof cases / sizeof cases[0]);
}
