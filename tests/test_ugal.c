/* UGAL (ugal, ugal_g): presets and ladders, the candidate draw (chi-square), the decision
 * against PiggyBack's UGAL-L rule on the same router state, a prohibitive bias against MIN,
 * the throughput and latency it reaches against MIN and Valiant, paths and VC ladders, and
 * freedom from deadlock at saturation on the dragonfly and the cascade. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "routing_piggyback.h"
#include "routing_ugal.h"
#include "settings.h"
#include "sim.h"
#include "test_util.h"

#define DRAGONFLY_SMALL "topology.h=2", "topology.a=4", "topology.p=2"
#define DRAGONFLY_MEDIUM "topology.h=3", "topology.a=6", "topology.p=3"
#define CASCADE_SMALL                                                                              \
    "topology.kind=cascade", "topology.p=2", "topology.h=2", "topology.rows=2", "topology.cols=4", \
        "topology.col_links=2", "topology.cascade_groups=5"

enum net { NET_DRAGONFLY_SMALL, NET_DRAGONFLY_MEDIUM, NET_CASCADE_SMALL };

static struct sim *net_sim(struct sim_config *cfg, enum net net, const char *const *extra,
                           int n_extra)
{
    const char *df_small[] = {DRAGONFLY_SMALL}, *df_medium[] = {DRAGONFLY_MEDIUM},
               *cascade[] = {CASCADE_SMALL};
    const char *const *shape = net == NET_DRAGONFLY_SMALL    ? df_small
                               : net == NET_DRAGONFLY_MEDIUM ? df_medium
                                                             : cascade;
    int n_shape = net == NET_CASCADE_SMALL ? 7 : 3;
    const char *ov[32];
    int n = 0;
    for (int i = 0; i < n_shape; i++)
        ov[n++] = shape[i];
    for (int i = 0; i < n_extra; i++)
        ov[n++] = extra[i];
    char err[256];
    test_config(cfg, ov, n);
    struct sim *sim = sim_create(cfg, err, sizeof err);
    if (!sim)
        fprintf(stderr, "\nnet_sim: %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    return sim;
}

static const char *ladder_text(const struct vc_ladder *l, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->length && used + 4 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%c%d", i ? " " : "",
                                 l->port_class[i] == PORT_LOCAL ? 'l' : 'g', l->vc[i]);
    return buf;
}

/* The presets set bias, bias mode and progressive; the ladder follows the topology and
 * progressive; conf/aries.cfg runs ugal. */
static void test_presets_and_ladders(void)
{
    static const struct {
        const char *preset;
        int64_t bias;
        int mode;
        bool progressive;
    } presets[] = {
        {"adaptive_0", 0, UGAL_BIAS_CONSTANT, false},
        {"adaptive_1", UGAL_BIAS_INCREASING_BASE, UGAL_BIAS_INCREASING, true},
        {"adaptive_2", UGAL_BIAS_LOW, UGAL_BIAS_CONSTANT, false},
        {"adaptive_3", UGAL_BIAS_HIGH, UGAL_BIAS_CONSTANT, false},
        {"none", 7, UGAL_BIAS_INCREASING, false},
    };
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        char preset[64];
        snprintf(preset, sizeof preset, "routing.ugal_preset=%s", presets[i].preset);
        const char *ov[] = {"routing.mechanism=ugal", preset, "routing.ugal_bias=7",
                            "routing.ugal_bias_mode=increasing", "routing.ugal_progressive=false"};
        struct sim_config cfg;
        test_config(&cfg, ov, 5);
        struct ugal_rule rule;
        ugal_rule_of(settings_params(&cfg, routing_ugal.settings), &rule);
        CU_ASSERT_EQUAL(rule.bias, presets[i].bias);
        CU_ASSERT_EQUAL(rule.mode, presets[i].mode);
        CU_ASSERT_EQUAL(rule.progressive, presets[i].progressive);
        CU_ASSERT_EQUAL(rule.min_candidates, 2);
        CU_ASSERT_EQUAL(rule.nonmin_candidates, 2);
    }
    static const struct {
        const char *kind, *mechanism, *progressive, *ladder;
    } ladders[] = {
        {"dragonfly", "ugal", "false", "l0 g0 l1 l2 g1 l3"},
        {"dragonfly", "ugal_g", "true", "l0 l1 g0 l2 l3 g1 l4"},
        {"cascade", "ugal", "false", "l0 l1 g0 l2 l2 l3 l3 g1 l4 l4"},
        {"cascade", "ugal_g", "true", "l0 l1 l2 l2 g0 l3 l3 l4 l4 g1 l5 l5"},
    };
    for (size_t i = 0; i < sizeof ladders / sizeof ladders[0]; i++) {
        char kind[64], mech[64], prog[64], text[128];
        snprintf(kind, sizeof kind, "topology.kind=%s", ladders[i].kind);
        snprintf(mech, sizeof mech, "routing.mechanism=%s", ladders[i].mechanism);
        snprintf(prog, sizeof prog, "routing.ugal_progressive=%s", ladders[i].progressive);
        const char *ov[] = {kind, mech, prog, "topology.h=2", "topology.p=2", "topology.rows=2"};
        struct sim_config cfg;
        test_config(&cfg, ov, 6);
        struct vc_ladder ladder;
        routing_of(&cfg)->ladder(&cfg, &ladder);
        CU_ASSERT_STRING_EQUAL(ladder_text(&ladder, text, sizeof text), ladders[i].ladder);
        CU_ASSERT_EQUAL(cfg.vcs.local, ladder.local_vcs);
        CU_ASSERT_EQUAL(cfg.vcs.global, ladder.global_vcs);
    }
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN];
    CU_ASSERT_EQUAL_FATAL(config_load("conf/aries.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_PTR_EQUAL(routing_of(&cfg), &routing_ugal);
    const char *few[] = {"routing.mechanism=ugal", "vcs.local=3"};
    CU_ASSERT_EQUAL(config_load(NULL, few, 2, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "routing 'ugal' needs at least 4 local VCs"));
}

/* A decision context at router `router`, as if the packet were at node port `in_port`. */
static struct route_ctx ctx_at(struct sim *sim, int router, int in_port)
{
    struct route_ctx ctx = {.in_port = in_port};
    network_route_ctx(&sim->net, router, &ctx);
    return ctx;
}

static struct packet packet_between(const struct network *net, uint32_t id, int src, int dst)
{
    struct packet pk;
    memset(&pk, 0, sizeof pk);
    pk.id = id;
    pk.src = (uint32_t)src;
    pk.dst = (uint32_t)dst;
    pk.target = -1;
    pk.misroute_group = -1;
    pk.vc = (uint8_t)((uint64_t)dst * (uint64_t)net->vcs_injection / (uint64_t)net->topo.nodes);
    return pk;
}

/* Upper critical values of chi-square at p = 0.001 by degrees of freedom (1..15). */
static const double chi2_critical[] = {0,      10.828, 13.816, 16.266, 18.467, 20.515,
                                       22.458, 24.322, 26.124, 27.877, 29.588, 31.264,
                                       32.909, 34.528, 36.123, 37.697};

static double chi_square(const long *count, int categories, long draws)
{
    double expected = (double)draws / categories, chi2 = 0;
    for (int i = 0; i < categories; i++)
        chi2 += (count[i] - expected) * (count[i] - expected) / expected;
    return chi2;
}

/* On the small cascade, from router 0 to the router of another group with the most minimal
 * first hops: every minimal candidate is one of them, each equally likely; every nonminimal
 * candidate is a router of a group other than the source's and the destination's, the
 * groups and the routers in them equally likely (chi-square at p = 0.001). */
static void test_draw_uniform(void)
{
    struct sim_config cfg;
    const char *extra[] = {"routing.mechanism=ugal", "routing.ugal_min_candidates=4",
                           "routing.ugal_nonmin_candidates=4", "traffic.load=0"};
    struct sim *sim = net_sim(&cfg, NET_CASCADE_SMALL, extra, 4);
    const struct topology *t = &sim->net.topo;
    int dst = -1, most = 0;
    for (int r = t->group_first_router[1]; r < t->routers; r++) {
        int n = __builtin_popcountll(topology_min_ports(t, 0, r));
        if (n > most) {
            most = n;
            dst = r;
        }
    }
    CU_ASSERT_FATAL(most >= 3);
    uint64_t minimal = topology_min_ports(t, 0, dst);
    int dst_group = topology_group_of_router(t, dst), per_group = topology_group_routers(t, 0);
    struct ugal_rule rule;
    ugal_rule_of(sim->net.routing_env.params, &rule);
    struct packet pk = packet_between(&sim->net, 1, 0, t->first_node[dst]);
    struct route_ctx ctx = ctx_at(sim, 0, 0);
    long port_count[64] = {0}, group_count[8] = {0}, index_count[64] = {0}, outside = 0;
    long draws = 6000;
    for (long d = 0; d < draws; d++) {
        struct ugal_plan plan;
        CU_ASSERT_EQUAL_FATAL(ugal_draw(&ctx, &pk, &rule, &plan), 0);
        CU_ASSERT_EQUAL_FATAL(plan.n_min, 4);
        CU_ASSERT_EQUAL_FATAL(plan.n_nonmin, 4);
        for (int i = 0; i < 4; i++) {
            const struct ugal_candidate *c = &plan.c[i];
            outside += c->target != -1 || !((minimal >> c->port) & 1);
            port_count[__builtin_popcountll(minimal & ((1ull << c->port) - 1))]++;
            const struct ugal_candidate *n = &plan.c[4 + i];
            int g = topology_group_of_router(t, n->target);
            outside += g == 0 || g == dst_group || n->port != topology_min_port(t, 0, n->target);
            group_count[g < dst_group ? g - 1 : g - 2]++;
            index_count[n->target - t->group_first_router[g]]++;
        }
    }
    CU_ASSERT_EQUAL(outside, 0);
    double chi2_ports = chi_square(port_count, most, 4 * draws);
    double chi2_groups = chi_square(group_count, t->groups - 2, 4 * draws);
    double chi2_index = chi_square(index_count, per_group, 4 * draws);
    printf("\n    chi-square: %d minimal first hops %.2f (critical %.2f), %d groups %.2f (%.2f), "
           "%d routers in a group %.2f (%.2f)\n",
           most, chi2_ports, chi2_critical[most - 1], t->groups - 2, chi2_groups,
           chi2_critical[t->groups - 3], per_group, chi2_index, chi2_critical[per_group - 1]);
    CU_ASSERT(chi2_ports < chi2_critical[most - 1]);
    CU_ASSERT(chi2_groups < chi2_critical[t->groups - 3]);
    CU_ASSERT(chi2_index < chi2_critical[per_group - 1]);
    sim_destroy(sim);
}

/* Random credits on every transit output VC of a router (the state both rules read). */
static void randomize_credits(struct sim *sim, int router, struct rng *rng)
{
    const struct network_layout *layout = network_layout_of(&sim->net, router);
    for (int port = 0; port < layout->kind->radix; port++) {
        enum port_class cls = (enum port_class)layout->port_class[port];
        if (cls == PORT_NODE)
            continue;
        for (int vc = 0; vc < layout->port_vcs[port]; vc++)
            sim->net.credits[network_vc_index(&sim->net, router, port, vc)] =
                (int32_t)rng_below(rng, (uint32_t)sim->net.capacity_phits[cls] + 1);
    }
}

/* With one candidate of each kind, weight occupancy_x_hops and bias B phits, ugal misroutes
 * iff q_non * H_non + B < q_min * H_min: exactly PiggyBack's UGAL-L rule without flags,
 * q_min * H_min > q_non * H_non + T_local * packet_size, when B = T_local * packet_size.
 * Checked on the same inputs: PiggyBack's candidate (its intermediate, drawn at generation),
 * the same router and the same random credits, for T_local = 0 (bias 0) and 5 (bias 40);
 * PB's flags are kept off (pb_coef and pb_global_threshold out of reach). */
static void test_matches_piggyback(void)
{
    static const int thresholds[] = {0, 5};
    for (int k = 0; k < 2; k++) {
        char threshold[64];
        snprintf(threshold, sizeof threshold, "routing.pb_local_threshold=%d", thresholds[k]);
        const char *extra[] = {"routing.mechanism=piggyback", threshold,
                               "routing.pb_coef=1000000000", "routing.pb_global_threshold=1000000",
                               "traffic.load=0"};
        struct sim_config cfg;
        struct sim *sim = net_sim(&cfg, NET_DRAGONFLY_MEDIUM, extra, 5);
        const struct topology *t = &sim->net.topo;
        struct ugal_rule rule = {1,
                                 1,
                                 (int64_t)thresholds[k] * sim->net.packet_size,
                                 UGAL_BIAS_CONSTANT,
                                 UGAL_OCCUPANCY_X_HOPS,
                                 false,
                                 false,
                                 UGAL_HASHED_NONE};
        struct rng rng;
        rng_seed(&rng, 7, 99);
        long trials = 4000, agree = 0, misrouted = 0;
        for (long i = 0; i < trials; i++) {
            int src = (int)rng_below(&rng, (uint32_t)t->nodes), dst;
            do
                dst = (int)rng_below(&rng, (uint32_t)t->nodes);
            while (topology_group_of_node(t, dst) == topology_group_of_node(t, src));
            int router = topology_router_of_node(t, src);
            struct packet pk = packet_between(&sim->net, (uint32_t)i + 1, src, dst);
            sim->net.routing->on_generate(&sim->net.routing_env, &pk); /* PB's candidate */
            CU_ASSERT_FATAL(pk.target >= 0);
            randomize_credits(sim, router, &rng);
            struct route_ctx ctx = ctx_at(sim, router, topology_node_port(t, src));
            struct route_choice pb;
            CU_ASSERT_EQUAL_FATAL(sim->net.routing->route(&ctx, &pk, &pb), 0);
            struct ugal_plan plan = {.n_min = 1, .n_nonmin = 1, .valid = 1};
            int dst_router = topology_router_of_node(t, dst);
            CU_ASSERT_EQUAL_FATAL(ugal_candidate_make(&ctx, &pk,
                                                      topology_min_port(t, router, dst_router), -1,
                                                      &plan.c[0]),
                                  0);
            CU_ASSERT_EQUAL_FATAL(ugal_candidate_make(&ctx, &pk,
                                                      topology_min_port(t, router, pk.target),
                                                      pk.target, &plan.c[1]),
                                  0);
            const struct ugal_candidate *c = &plan.c[ugal_choose(&ctx, &pk, &rule, false, &plan)];
            agree += c->port == pb.out_port && c->vc == pb.vc && c->ladder_pos == pb.ladder_pos &&
                     c->target == pb.target;
            misrouted += pb.target >= 0;
        }
        printf("\n    T_local %d / bias %d phits: %ld of %ld decisions agree, %ld misrouted\n",
               thresholds[k], thresholds[k] * sim->net.packet_size, agree, trials, misrouted);
        CU_ASSERT_EQUAL(agree, trials);
        CU_ASSERT(misrouted > trials / 10 && misrouted < trials - trials / 10);
        sim_destroy(sim);
    }
}

/* With increasing bias the same router state decides differently with the hops taken: a
 * nonminimal candidate that wins at the source (bias B) loses two hops later (3B). */
static void test_increasing_bias(void)
{
    struct sim_config cfg;
    const char *extra[] = {"routing.mechanism=ugal", "traffic.load=0"};
    struct sim *sim = net_sim(&cfg, NET_DRAGONFLY_MEDIUM, extra, 2);
    const struct topology *t = &sim->net.topo;
    int src = 0, dst = t->first_node[t->group_first_router[5]], router = 0;
    struct packet pk = packet_between(&sim->net, 1, src, dst);
    struct route_ctx ctx = ctx_at(sim, router, 0);
    struct ugal_plan plan = {.n_min = 1, .n_nonmin = 1, .valid = 1};
    int target = t->group_first_router[9] + 2;
    CU_ASSERT_EQUAL_FATAL(
        ugal_candidate_make(&ctx, &pk, topology_min_port(t, router, t->group_first_router[5]), -1,
                            &plan.c[0]),
        0);
    CU_ASSERT_EQUAL_FATAL(
        ugal_candidate_make(&ctx, &pk, topology_min_port(t, router, target), target, &plan.c[1]),
        0);
    CU_ASSERT_NOT_EQUAL_FATAL(plan.c[0].port, plan.c[1].port);
    /* Minimal cost 32 * H_min, nonminimal 0: the nonminimal one wins below that bias. */
    sim->net.credits[network_vc_index(&sim->net, router, plan.c[0].port, plan.c[0].vc)] -= 32;
    int64_t margin = 32 * plan.c[0].hops;
    struct ugal_rule rule = {
        1,    1,     margin / 2,      UGAL_BIAS_INCREASING, UGAL_OCCUPANCY_X_HOPS,
        true, false, UGAL_HASHED_NONE};
    CU_ASSERT_EQUAL(ugal_choose(&ctx, &pk, &rule, false, &plan), 1);
    pk.hops_local = 2; /* as if re-decided two hops later: bias 3 * margin / 2 */
    CU_ASSERT_EQUAL(ugal_choose(&ctx, &pk, &rule, false, &plan), 0);
    rule.mode = UGAL_BIAS_CONSTANT;
    CU_ASSERT_EQUAL(ugal_choose(&ctx, &pk, &rule, false, &plan), 1);
    sim_destroy(sim);
}

/* ugal_g sees past the first hop: with the minimal path's global link full at its gateway
 * (one local hop away) and every first hop empty, ugal keeps the minimal path (a tie) and
 * ugal_g takes the nonminimal one. */
static void test_global_knowledge(void)
{
    struct sim_config cfg;
    const char *extra[] = {"routing.mechanism=ugal_g", "traffic.load=0"};
    struct sim *sim = net_sim(&cfg, NET_DRAGONFLY_MEDIUM, extra, 2);
    const struct topology *t = &sim->net.topo;
    int dst_router = t->group_first_router[5];
    struct packet pk = packet_between(&sim->net, 1, 0, t->first_node[dst_router]);
    struct route_ctx ctx = ctx_at(sim, 0, 0);
    struct ugal_plan plan = {.n_min = 1, .n_nonmin = 1, .valid = 1};
    int target = t->group_first_router[9] + 2, gateway, port;
    CU_ASSERT_EQUAL_FATAL(
        ugal_candidate_make(&ctx, &pk, topology_min_port(t, 0, dst_router), -1, &plan.c[0]), 0);
    CU_ASSERT_EQUAL_FATAL(
        ugal_candidate_make(&ctx, &pk, topology_min_port(t, 0, target), target, &plan.c[1]), 0);
    topology_min_global_hop(t, 0, dst_router, &gateway, &port);
    CU_ASSERT_NOT_EQUAL_FATAL(gateway, 0);
    sim->net.credits[network_vc_index(&sim->net, gateway, port, 0)] =
        0; /* g0 of the minimal path: full */
    struct ugal_rule rule = {
        1, 1, 0, UGAL_BIAS_CONSTANT, UGAL_OCCUPANCY_X_HOPS, false, false, UGAL_HASHED_NONE};
    CU_ASSERT_EQUAL(ugal_choose(&ctx, &pk, &rule, false, &plan), 0);
    ctx.adaptive = false;
    CU_ASSERT_EQUAL(ugal_choose(&ctx, &pk, &rule, true, &plan), 1);
    CU_ASSERT(ctx.adaptive);
    rule.bias = cfg.buffers.global; /* a bias of the whole buffer keeps it minimal */
    CU_ASSERT_EQUAL(ugal_choose(&ctx, &pk, &rule, true, &plan), 0);
    sim_destroy(sim);
}

/* Runs a config; returns the sim (finished) for the caller to compare and destroy. */
static struct sim *run_net(struct sim_config *cfg, enum net net, const char *const *extra,
                           int n_extra)
{
    struct sim *sim = net_sim(cfg, net, extra, n_extra);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    return sim;
}

/* Every figure of the measurement (counts, latency histogram, breakdown, hops, misrouting,
 * per-router injection) is the same. */
static int same_statistics(const struct sim *a, const struct sim *b)
{
    const struct stats *x = &a->stats, *y = &b->stats;
    const struct network_counts *cx = &a->net.counts, *cy = &b->net.counts;
    return cx->generated == cy->generated && cx->refused == cy->refused &&
           cx->injected == cy->injected && x->delivered == y->delivered &&
           x->latency_sum == y->latency_sum && x->latency_max == y->latency_max &&
           memcmp(x->wait_sum, y->wait_sum, sizeof x->wait_sum) == 0 &&
           x->hops_local_sum == y->hops_local_sum && x->hops_global_sum == y->hops_global_sum &&
           x->misrouted_global == y->misrouted_global && x->histogram_bins == y->histogram_bins &&
           memcmp(x->latency_histogram, y->latency_histogram,
                  x->histogram_bins * sizeof *x->latency_histogram) == 0 &&
           a->net.topo.routers == b->net.topo.routers &&
           memcmp(cx->router_injected, cy->router_injected,
                  (size_t)a->net.topo.routers * sizeof *cx->router_injected) == 0 &&
           cx->total_generated == cy->total_generated && cx->total_delivered == cy->total_delivered;
}

/* A bias no occupancy can reach (10^6 phits) makes ugal MIN on the dragonfly, where the
 * minimal path is unique: the same paths on the same VCs (ugal's ladder starts with MIN's l0
 * g0 l1), the same traffic (routing draws use their own stream), so with MIN given ugal's VC
 * count (4/2: the same buffers) every figure of the run is identical: the result documents
 * differ only in `config` and `timing`. Under UN below saturation and ADV+1 above it. */
static void test_huge_bias_is_min(void)
{
    static const char *const patterns[][2] = {{"traffic.pattern=uniform", "traffic.load=0.6"},
                                              {"traffic.pattern=adversarial", "traffic.load=0.3"}};
    for (int p = 0; p < 2; p++) {
        const char *min_ov[] = {"routing.mechanism=min",  "vcs.local=4",  "vcs.global=2",
                                patterns[p][0],           patterns[p][1], "sim.warmup_cycles=1500",
                                "sim.measure_cycles=2500"};
        const char *ugal_ov[] = {"routing.mechanism=ugal", "routing.ugal_bias=1000000",
                                 patterns[p][0],           patterns[p][1],
                                 "sim.warmup_cycles=1500", "sim.measure_cycles=2500"};
        struct sim_config cmin, cugal;
        struct sim *min = run_net(&cmin, NET_DRAGONFLY_MEDIUM, min_ov, 7);
        struct sim *ugal = run_net(&cugal, NET_DRAGONFLY_MEDIUM, ugal_ov, 6);
        CU_ASSERT_EQUAL(ugal->net.vcs_local, 4);
        CU_ASSERT_EQUAL(ugal->net.vcs_global, 2);
        CU_ASSERT(min->stats.delivered > 1000);
        CU_ASSERT_EQUAL(ugal->stats.misrouted_global, 0);
        CU_ASSERT(same_statistics(min, ugal));
        sim_destroy(min);
        sim_destroy(ugal);
    }
}

static double accepted(const struct sim *sim, int cycles)
{
    return (double)sim->stats.delivered_phits / (sim->net.topo.nodes * (double)cycles);
}

static double mean_latency(const struct sim *sim)
{
    return (double)sim->stats.latency_sum / (double)sim->stats.delivered;
}

/* On the dragonfly p=3 a=6 h=3 (19 groups, 342 nodes), 3,000 + 5,000 cycles, ugal with the
 * low-bias preset (adaptive_2, 32 phits) under ADV+1 at offered 0.5 accepts most of what
 * Valiant does and under UN at 0.1 has about MIN's latency. Measured: ADV+1 0.5 accepted: MIN
 * 0.0555, VAL 0.4604, ugal 0.3988 (87 % of VAL; adaptive_0: 0.4278, ugal_g 0.4727); UN 0.1
 * mean latency: MIN 139.5, VAL 247.2, ugal 148.7 (+6.6 %, 6.5 % of the packets misrouted;
 * adaptive_0: 175.9, adaptive_3: 139.5). */
static void test_between_min_and_valiant(void)
{
    static const char *const mechanisms[] = {"routing.mechanism=min", "routing.mechanism=valiant",
                                             "routing.mechanism=ugal"};
    double adv[3], lat[3];
    for (int m = 0; m < 3; m++) {
        const char *adv_ov[] = {
            mechanisms[m],      "routing.ugal_preset=adaptive_2", "traffic.pattern=adversarial",
            "traffic.load=0.5", "sim.warmup_cycles=3000",         "sim.measure_cycles=5000"};
        const char *un_ov[] = {
            mechanisms[m],      "routing.ugal_preset=adaptive_2", "traffic.pattern=uniform",
            "traffic.load=0.1", "sim.warmup_cycles=3000",         "sim.measure_cycles=5000"};
        struct sim_config cfg;
        struct sim *sim = run_net(&cfg, NET_DRAGONFLY_MEDIUM, adv_ov, 6);
        adv[m] = accepted(sim, 5000);
        sim_destroy(sim);
        sim = run_net(&cfg, NET_DRAGONFLY_MEDIUM, un_ov, 6);
        lat[m] = mean_latency(sim);
        sim_destroy(sim);
    }
    printf(
        "\n    ADV+1 0.5 accepted: MIN %.4f VAL %.4f ugal %.4f; UN 0.1 latency: MIN %.1f VAL %.1f "
        "ugal %.1f\n",
        adv[0], adv[1], adv[2], lat[0], lat[1], lat[2]);
    CU_ASSERT(adv[2] >= 0.85 * adv[1]);
    CU_ASSERT(adv[2] >= 5 * adv[0]);
    CU_ASSERT(lat[2] <= 1.08 * lat[0]);
    CU_ASSERT(lat[2] < lat[1]);
}

/* ---- paths, ladders and deadlock ---- */

struct trace {
    int last_pos, source_router, decided_target, left_source_group, target_seen;
};

struct observer {
    bool progressive;
    struct trace *traces;
    uint32_t len;
    long packets, nonminimal, errors_ladder, errors_reach, errors_changed, errors_target;
};

static struct trace *trace_of(struct observer *ob, const struct network *net, uint32_t index)
{
    if (index >= ob->len)
        test_grow_zeroed((void **)&ob->traces, &ob->len, net->pool.capacity, sizeof *ob->traces);
    return &ob->traces[index];
}

/* Every hop on its ladder entry's VC, positions climbing; the intermediate chosen when the
 * packet leaves its source router (or, progressive, while it is minimal in its source group)
 * stays its target until reached; every packet reaches its destination. */
static void observe_hop(void *ctx, const struct network *net, int router, int in_port,
                        uint32_t index, const struct route_choice *ch)
{
    struct observer *ob = ctx;
    const struct packet *pk = &net->pool.packets[index];
    const struct topology *t = &net->topo;
    const struct vc_ladder *l = &net->ladder;
    struct trace *tr = trace_of(ob, net, index);
    if (network_port_class(net, router, in_port) == PORT_NODE) {
        memset(tr, 0, sizeof *tr);
        tr->source_router = router;
        tr->decided_target = ch->target;
    } else if (ob->progressive && !tr->left_source_group && tr->decided_target < 0) {
        tr->decided_target = ch->target; /* a minimal packet may still turn nonminimal */
    } else if (ch->target != tr->decided_target &&
               !(router == tr->decided_target && ch->target < 0)) {
        ob->errors_changed++;
    }
    if (router == tr->decided_target) {
        tr->target_seen = 1;
        tr->decided_target = -1;
    }
    int cls = network_port_class(net, router, ch->out_port);
    if (cls == PORT_NODE) {
        ob->packets++;
        ob->errors_reach += router != topology_router_of_node(t, (int)pk->dst);
        ob->errors_target += tr->decided_target >= 0;
        ob->nonminimal += tr->target_seen;
        return;
    }
    int e = ch->ladder_pos - 1;
    ob->errors_ladder += ch->ladder_pos <= tr->last_pos || e >= l->length ||
                         l->port_class[e] != cls || l->vc[e] != ch->vc;
    tr->last_pos = ch->ladder_pos;
    if (cls == PORT_GLOBAL)
        tr->left_source_group = 1;
}

struct deadlock_case {
    enum net net;
    const char *mechanism, *progressive;
};

/* ugal and ugal_g, plain and progressive, on the dragonfly and the cascade, with exactly the
 * VCs of their ladders, at offered 1.0 under UN, ADV+1 and ADVc: no deadlock, the invariants
 * every 10th cycle and at the end, every hop on the ladder, and under ADV+1 nonminimal paths
 * taken. */
static void test_no_deadlock(void)
{
    static const struct deadlock_case cases[] = {
        {NET_DRAGONFLY_SMALL, "routing.mechanism=ugal", "routing.ugal_progressive=false"},
        {NET_DRAGONFLY_SMALL, "routing.mechanism=ugal", "routing.ugal_progressive=true"},
        {NET_DRAGONFLY_SMALL, "routing.mechanism=ugal_g", "routing.ugal_progressive=false"},
        {NET_DRAGONFLY_SMALL, "routing.mechanism=ugal_g", "routing.ugal_progressive=true"},
        {NET_CASCADE_SMALL, "routing.mechanism=ugal", "routing.ugal_progressive=false"},
        {NET_CASCADE_SMALL, "routing.mechanism=ugal", "routing.ugal_progressive=true"},
        {NET_CASCADE_SMALL, "routing.mechanism=ugal_g", "routing.ugal_progressive=false"},
        {NET_CASCADE_SMALL, "routing.mechanism=ugal_g", "routing.ugal_progressive=true"},
    };
    const char *patterns[] = {"traffic.pattern=uniform", "traffic.pattern=adversarial",
                              "traffic.pattern=adversarial_consecutive"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int p = 0; p < 3; p++) {
            const char *extra[] = {
                cases[i].mechanism,         cases[i].progressive,  patterns[p],
                "traffic.load=1.0",         "sim.warmup_cycles=0", "sim.measure_cycles=3000",
                "sim.deadlock_cycles=2000", "buffers.injection=64"};
            struct sim_config cfg;
            struct sim *sim = net_sim(&cfg, cases[i].net, extra, 8);
            struct observer ob = {.progressive = strstr(cases[i].progressive, "true") != NULL};
            CU_ASSERT_EQUAL(sim->net.vcs_local, sim->net.ladder.local_vcs);
            CU_ASSERT_EQUAL(sim->net.vcs_global, sim->net.ladder.global_vcs);
            sim->net.on_hop = observe_hop;
            sim->net.on_hop_ctx = &ob;
            sim->check_invariants = true;
            sim->check_every = 10;
            enum sim_status status = sim_run(sim, NULL, NULL);
            if (status != SIM_OK || ob.errors_ladder || ob.errors_reach || ob.errors_changed ||
                ob.errors_target)
                fprintf(stderr,
                        "\n%s %s %s %s: status %d (%s) ladder %ld reach %ld changed %ld "
                        "target %ld\n",
                        cases[i].net == NET_CASCADE_SMALL ? "cascade" : "dragonfly",
                        cases[i].mechanism, cases[i].progressive, patterns[p], status,
                        sim->net.message, ob.errors_ladder, ob.errors_reach, ob.errors_changed,
                        ob.errors_target);
            CU_ASSERT_EQUAL(status, SIM_OK);
            CU_ASSERT(ob.packets > 1000);
            CU_ASSERT_EQUAL(ob.errors_ladder, 0);
            CU_ASSERT_EQUAL(ob.errors_reach, 0);
            CU_ASSERT_EQUAL(ob.errors_changed, 0);
            CU_ASSERT_EQUAL(ob.errors_target, 0);
            if (p == 1)
                CU_ASSERT(ob.nonminimal > ob.packets / 10);
            sim->check_every = 1;
            CU_ASSERT_EQUAL(sim_check_invariants(sim), 0);
            free(ob.traces);
            sim_destroy(sim);
        }
}

static void count_alternative_hops(void *ctx, const struct network *net, int router, int in_port,
                                   uint32_t packet, const struct route_choice *ch)
{
    (void)in_port;
    const struct topology *t = &net->topo;
    int dst = topology_router_of_node(t, (int)net->pool.packets[packet].dst);
    if (router != dst && ch->out_port != topology_min_port(t, router, dst))
        (*(long *)ctx)++;
}

/* On the cascade a packet may take any minimal first hop (another dimension, parallel link or
 * gateway than min_port's): such a hop is minimal, not counted as misrouted nor as a
 * nonminimal link. ugal with a prohibitive bias under UN takes many and misroutes none. */
static void test_minimal_alternatives_not_misrouted(void)
{
    struct sim_config cfg;
    const char *extra[] = {"routing.mechanism=ugal", "routing.ugal_bias=1000000",
                           "traffic.load=0.5", "sim.warmup_cycles=0", "sim.measure_cycles=3000"};
    struct sim *sim = net_sim(&cfg, NET_CASCADE_SMALL, extra, 5);
    long alternatives = 0;
    sim->net.on_hop = count_alternative_hops;
    sim->net.on_hop_ctx = &alternatives;
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    printf("\n    %ld minimal hops off min_port, %lu packets delivered\n", alternatives,
           (unsigned long)sim->stats.delivered);
    CU_ASSERT(alternatives > 1000);
    CU_ASSERT_EQUAL(sim->stats.misrouted_global, 0);
    CU_ASSERT_EQUAL(sim->stats.wait_sum[WAIT_NONMINIMAL_LINKS], 0);
    sim_destroy(sim);
}

/* The source decision is adaptive: re-evaluated while the packet waits (it read occupancies),
 * so a cached decision never outlives its cycle at the source; elsewhere (not progressive)
 * the packet follows its path and the decision is reused. */
static void test_adaptive_only_at_source(void)
{
    struct sim_config cfg;
    const char *extra[] = {"routing.mechanism=ugal", "traffic.load=0"};
    struct sim *sim = net_sim(&cfg, NET_DRAGONFLY_MEDIUM, extra, 2);
    const struct topology *t = &sim->net.topo;
    int dst = t->first_node[t->group_first_router[4] + 1];
    struct packet pk = packet_between(&sim->net, 1, 0, dst);
    struct route_ctx ctx = ctx_at(sim, 0, 0);
    struct route_choice ch;
    CU_ASSERT_EQUAL(sim->net.routing->route(&ctx, &pk, &ch), 0);
    CU_ASSERT(ctx.adaptive);
    /* The same packet one hop later, at a transit router (a local input). */
    int next = topology_neighbour(t, 0, ch.out_port);
    pk.ladder_pos = ch.ladder_pos;
    pk.target = ch.target;
    pk.flags = ch.flags;
    pk.hops_local = 1;
    struct route_ctx transit = ctx_at(sim, next, topology_neighbour_port(t, 0, ch.out_port));
    CU_ASSERT_EQUAL(sim->net.routing->route(&transit, &pk, &ch), 0);
    CU_ASSERT(!transit.adaptive);
    sim_destroy(sim);
}

/* ---- intra-group detours on the cascade (routing.ugal_intra_group) ---- */

#define CASCADE_SMALL_COLS 4 /* topology.cols of CASCADE_SMALL */
#define INTRA_ON "routing.ugal_intra_group=true"
#define INTRA_OFF "routing.ugal_intra_group=false"

static int cascade_index(const struct topology *t, int r)
{
    return r - t->group_first_router[topology_group_of_router(t, r)];
}

/* A hop between a and b (neighbours in one group) along their row. */
static bool row_hop(const struct topology *t, int a, int b)
{
    return cascade_index(t, a) / CASCADE_SMALL_COLS == cascade_index(t, b) / CASCADE_SMALL_COLS;
}

/* Appends to path[n..] the routers after a on min_port's walk to b; the new length. */
static int walk(const struct topology *t, int a, int b, int *path, int n)
{
    while (a != b && n < 16) {
        a = topology_neighbour(t, a, topology_min_port(t, a, b));
        path[n++] = a;
    }
    return n;
}

/* The walk from a to b stays in a's group and is dimension-ordered: no row hop after a
 * column hop. */
static bool walk_in_group_ordered(const struct topology *t, int a, int b)
{
    int path[16], n = walk(t, a, b, path, 0), from = a;
    bool column_seen = false, ok = n <= 2;
    for (int k = 0; k < n; k++) {
        bool row = row_hop(t, from, path[k]);
        ok &= topology_group_of_router(t, path[k]) == topology_group_of_router(t, a);
        ok &= !(row && column_seen);
        column_seen |= !row;
        from = path[k];
    }
    return ok && from == b;
}

static int local_hops(const struct topology *t, int a, int b)
{
    int local, global;
    topology_min_hops(t, a, b, &local, &global);
    return global ? -1 : local;
}

/* On the small cascade, for every ordered pair of routers of group 0: with the setting, every
 * nonminimal candidate is a router of the group other than the two ends, its first hop is
 * min_port's towards it, its hop count the two dimension-ordered segments' (row then column,
 * inside the group), and the intermediates are uniform over the group's other routers
 * (chi-square, one pair); without it (the default) an intra-group packet has no nonminimal
 * candidate. */
static void test_intra_group_draw(void)
{
    for (int on = 0; on < 2; on++) {
        struct sim_config cfg;
        const char *extra[] = {"routing.mechanism=ugal", "traffic.load=0", on ? INTRA_ON : ""};
        struct sim *sim = net_sim(&cfg, NET_CASCADE_SMALL, extra, on ? 3 : 2);
        const struct topology *t = &sim->net.topo;
        struct ugal_rule rule;
        ugal_rule_of(sim->net.routing_env.params, &rule);
        CU_ASSERT_EQUAL(rule.intra_group, on);
        int per_group = topology_group_routers(t, 0);
        long candidates = 0, errors = 0, count[64] = {0}, draws = 600;
        for (int s = 0; s < per_group; s++)
            for (int d = 0; d < per_group; d++) {
                if (s == d)
                    continue;
                struct packet pk = packet_between(&sim->net, (uint32_t)(s * 64 + d + 1),
                                                  t->first_node[s], t->first_node[d]);
                struct route_ctx ctx = ctx_at(sim, s, 0);
                for (long k = 0; k < draws; k++) {
                    struct ugal_plan plan;
                    CU_ASSERT_EQUAL_FATAL(ugal_draw(&ctx, &pk, &rule, &plan), 0);
                    errors += plan.n_nonmin != (on ? 2 : 0);
                    for (int i = plan.n_min; i < plan.n_min + plan.n_nonmin; i++) {
                        const struct ugal_candidate *c = &plan.c[i];
                        int m = c->target;
                        candidates++;
                        errors += topology_group_of_router(t, m) != 0 || m == s || m == d;
                        errors += c->port != topology_min_port(t, s, m);
                        errors += c->hops != local_hops(t, s, m) + local_hops(t, m, d);
                        errors +=
                            !walk_in_group_ordered(t, s, m) || !walk_in_group_ordered(t, m, d);
                        if (s == 0 && d == 1)
                            count[m]++;
                    }
                }
            }
        CU_ASSERT_EQUAL(errors, 0);
        if (on) {
            long others[64];
            int n = 0;
            for (int m = 2; m < per_group; m++)
                others[n++] = count[m];
            double chi2 = chi_square(others, n, 2 * draws);
            printf("\n    %ld intra-group candidates, 0 -> 1 over %d intermediates: chi-square "
                   "%.2f (critical %.2f)\n",
                   candidates, n, chi2, chi2_critical[n - 1]);
            CU_ASSERT(count[0] == 0 && count[1] == 0);
            CU_ASSERT(chi2 < chi2_critical[n - 1]);
        } else {
            CU_ASSERT_EQUAL(candidates, 0);
        }
        sim_destroy(sim);
    }
}

struct intra_trace {
    int from, target, n, path[16];
    int last_class, last_vc, last_row;
    bool detour;
};

struct intra_observer {
    struct intra_trace *traces;
    uint32_t len;
    long packets, detours, longer, errors_path, errors_left, errors_shared_vc;
};

/* Per packet: an intra-group packet never leaves its group; once it turns nonminimal (at its
 * source, or progressive at a later router of the group) its routers from there are min_port's
 * walk to the intermediate then to the destination; and on every path, two consecutive local
 * hops on one VC are a row hop then a column hop (the deadlock argument, routers/README.md). */
static void observe_intra_hop(void *ctx, const struct network *net, int router, int in_port,
                              uint32_t index, const struct route_choice *ch)
{
    struct intra_observer *ob = ctx;
    const struct topology *t = &net->topo;
    const struct packet *pk = &net->pool.packets[index];
    if (index >= ob->len)
        test_grow_zeroed((void **)&ob->traces, &ob->len, net->pool.capacity, sizeof *ob->traces);
    struct intra_trace *tr = &ob->traces[index];
    int dst = topology_router_of_node(t, (int)pk->dst), group = topology_group_of_router(t, router);
    bool intra = topology_group_of_node(t, (int)pk->src) == topology_group_of_router(t, dst);
    if (network_port_class(net, router, in_port) == PORT_NODE)
        memset(tr, 0, sizeof *tr);
    if (intra && !tr->detour && ch->target >= 0) {
        tr->detour = true;
        tr->from = router;
        tr->target = ch->target;
    }
    int cls = network_port_class(net, router, ch->out_port);
    if (cls == PORT_NODE) {
        ob->packets++;
        if (tr->detour) {
            int expected[16], n = walk(t, tr->from, tr->target, expected, 0);
            n = walk(t, tr->target, dst, expected, n);
            ob->detours++;
            ob->longer += (pk->flags & PACKET_LOCAL_MISROUTED) != 0;
            ob->errors_path +=
                n != tr->n || memcmp(expected, tr->path, (size_t)n * sizeof *expected);
        }
        return;
    }
    int next = topology_neighbour(t, router, ch->out_port);
    if (tr->detour && tr->n < 16)
        tr->path[tr->n++] = next;
    ob->errors_left += intra && (cls != PORT_LOCAL || topology_group_of_router(t, next) != group);
    bool row =
        cls == PORT_LOCAL && topology_group_of_router(t, next) == group && row_hop(t, router, next);
    if (cls == PORT_LOCAL && tr->last_class == PORT_LOCAL && tr->last_vc == ch->vc)
        ob->errors_shared_vc += !(tr->last_row && !row);
    tr->last_class = cls;
    tr->last_vc = ch->vc;
    tr->last_row = row;
}

/* ugal and ugal_g, plain and progressive, with intra-group detours on, exactly the ladder's VCs
 * (unchanged: 5/2, progressive 6/2): at offered 1.0 under UN (a fifth of it inside groups) with
 * the invariants every 10th cycle, and with a job sending uniformly inside group 0 at 1.0 with
 * the invariants every cycle (--check): no deadlock, every detour's path the two
 * dimension-ordered segments, no intra-group packet leaving its group, hops sharing a VC
 * always row then column, and detours taken. */
static void test_intra_group_paths_no_deadlock(void)
{
    static const char intra_job[] =
        "topology = { kind = \"cascade\"; p = 2; h = 2; rows = 2; cols = 4; row_links = 1;\n"
        "             col_links = 2; cascade_groups = 5; };\n"
        "routing = { mechanism = \"ugal\"; };\n"
        "sim = { warmup_cycles = 0; measure_cycles = 3000; deadlock_cycles = 2000; };\n"
        "buffers = { injection = 64; };\n"
        "jobs = ( { name = \"g0\"; nodes = 16; placement = \"groups\"; groups = [0];\n"
        "           pattern = \"uniform\"; load = 1.0; } );\n";
    static const char *const cases[][2] = {
        {"routing.mechanism=ugal", "routing.ugal_progressive=false"},
        {"routing.mechanism=ugal", "routing.ugal_progressive=true"},
        {"routing.mechanism=ugal_g", "routing.ugal_progressive=false"},
        {"routing.mechanism=ugal_g", "routing.ugal_progressive=true"},
    };
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "ugal_intra"), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int job = 0; job < 2; job++) {
            const char *extra[] = {cases[i][0],
                                   cases[i][1],
                                   INTRA_ON,
                                   "routing.ugal_preset=none",
                                   "traffic.pattern=uniform",
                                   "traffic.load=1.0",
                                   "sim.warmup_cycles=0",
                                   "sim.measure_cycles=3000",
                                   "sim.deadlock_cycles=2000",
                                   "buffers.injection=64"};
            struct sim_config cfg;
            struct sim *sim;
            if (job) {
                char err[256];
                test_load_config_text(dir, "intra.cfg", intra_job, extra, 3, &cfg);
                sim = sim_create(&cfg, err, sizeof err);
                CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
            } else {
                sim = net_sim(&cfg, NET_CASCADE_SMALL, extra, 10);
            }
            CU_ASSERT_EQUAL(sim->net.vcs_local, sim->net.ladder.local_vcs);
            CU_ASSERT_EQUAL(sim->net.vcs_local, strstr(cases[i][1], "true") ? 6 : 5);
            struct intra_observer ob = {0};
            sim->net.on_hop = observe_intra_hop;
            sim->net.on_hop_ctx = &ob;
            sim->check_invariants = true;
            sim->check_every = job ? 1 : 10;
            enum sim_status status = sim_run(sim, NULL, NULL);
            printf("\n    %s %s %s: status %d, %ld packets, %ld detours (%ld longer than "
                   "minimal); errors: path %ld left %ld shared VC %ld",
                   cases[i][0] + 8, cases[i][1] + 8, job ? "job in group 0" : "UN", status,
                   ob.packets, ob.detours, ob.longer, ob.errors_path, ob.errors_left,
                   ob.errors_shared_vc);
            if (status != SIM_OK)
                printf(" (%s)", sim->net.message);
            CU_ASSERT_EQUAL(status, SIM_OK);
            CU_ASSERT(ob.packets > 1000);
            CU_ASSERT(ob.detours > ob.packets / (job ? 10 : 100));
            CU_ASSERT(ob.longer > 0 && ob.longer <= ob.detours);
            CU_ASSERT_EQUAL(ob.errors_path, 0);
            CU_ASSERT_EQUAL(ob.errors_left, 0);
            CU_ASSERT_EQUAL(ob.errors_shared_vc, 0);
            free(ob.traces);
            sim_destroy(sim);
        }
    printf("\n");
    test_tmpdir_remove(dir);
}

struct flow_paths {
    int from, to;
    int ports[64], targets[64], n;
};

/* The distinct (first port, intermediate) of the packets leaving router `from` for `to`. */
static void count_flow_paths(void *ctx, const struct network *net, int router, int in_port,
                             uint32_t index, const struct route_choice *ch)
{
    struct flow_paths *fp = ctx;
    const struct topology *t = &net->topo;
    if (router != fp->from || network_port_class(net, router, in_port) != PORT_NODE ||
        topology_router_of_node(t, (int)net->pool.packets[index].dst) != fp->to)
        return;
    for (int k = 0; k < fp->n; k++)
        if (fp->ports[k] == ch->out_port && fp->targets[k] == ch->target)
            return;
    if (fp->n < 64) {
        fp->ports[fp->n] = ch->out_port;
        fp->targets[fp->n++] = ch->target;
    }
}

/* A saturating flow inside a group: the 2 nodes of router 0 send to the 2 of router 1 (same
 * row, one row link: minimal carries at most 0.5 phits/node/cycle) and back, at 1.0. With
 * detours on, adaptive_0 spreads it over several paths and carries clearly more than
 * adaptive_3, whose bias (128 phits) no one-hop minimal path's occupancy reaches (at most a
 * 32-phit local buffer times 1 hop): one path, as without detours. */
static void test_intra_group_flow(void)
{
    static const char flow[] =
        "topology = { kind = \"cascade\"; p = 2; h = 2; rows = 2; cols = 4; row_links = 1;\n"
        "             col_links = 2; cascade_groups = 5; };\n"
        "routing = { mechanism = \"ugal\"; };\n"
        "sim = { warmup_cycles = 2000; measure_cycles = 4000; seed = 1; };\n"
        "jobs = ( { name = \"flow\"; nodes = 4; placement = \"contiguous\"; first_node = 0;\n"
        "           pattern = \"tornado\"; offset = 2; load = 1.0; } );\n";
    static const char *const modes[][2] = {{"routing.ugal_preset=adaptive_0", INTRA_ON},
                                           {"routing.ugal_preset=adaptive_3", INTRA_ON},
                                           {"routing.ugal_preset=adaptive_0", INTRA_OFF}};
    double accepted_load[3];
    int paths[3];
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "ugal_flow"), 0);
    for (int m = 0; m < 3; m++) {
        struct sim_config cfg;
        char err[256];
        test_load_config_text(dir, "flow.cfg", flow, modes[m], modes[m][1][0] ? 2 : 1, &cfg);
        struct sim *sim = sim_create(&cfg, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        struct flow_paths fp = {.from = 0, .to = 1};
        sim->net.on_hop = count_flow_paths;
        sim->net.on_hop_ctx = &fp;
        CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
        accepted_load[m] = (double)sim->stats.delivered_phits / (4.0 * 4000);
        paths[m] = fp.n;
        sim_destroy(sim);
    }
    test_tmpdir_remove(dir);
    printf("\n    router 0 -> 1 at 1.0: adaptive_0 %d paths, accepted %.4f; adaptive_3 %d, %.4f; "
           "adaptive_0 without detours %d, %.4f\n",
           paths[0], accepted_load[0], paths[1], accepted_load[1], paths[2], accepted_load[2]);
    CU_ASSERT(paths[0] > 1);
    CU_ASSERT_EQUAL(paths[1], 1);
    CU_ASSERT_EQUAL(paths[2], 1);
    CU_ASSERT(accepted_load[0] > accepted_load[1] + 0.2);
    CU_ASSERT(accepted_load[1] < 0.51 && accepted_load[2] < 0.51);
}

struct intra_detours {
    long packets, detours; /* leaving their source router for one of its group */
};

/* At the source router, a packet for its own group: whether it took an intermediate. */
static void count_intra_detours(void *ctx, const struct network *net, int router, int in_port,
                                uint32_t index, const struct route_choice *ch)
{
    struct intra_detours *d = ctx;
    const struct topology *t = &net->topo;
    int dst = topology_router_of_node(t, (int)net->pool.packets[index].dst);
    if (network_port_class(net, router, in_port) != PORT_NODE || router == dst ||
        topology_group_of_router(t, router) != topology_group_of_router(t, dst))
        return;
    d->packets++;
    d->detours += ch->target >= 0;
}

/* ugal_intra_group's default "auto": the hot spot of test_intra_group_flow (router 0 -> 1 at
 * 1.0, a one-link minimal path) detours inside the group under a bias preset, set for the
 * network or for the job, and never without one (plain ugal) or with the setting false; true
 * still turns detours on without a preset. The rule the config gives agrees. */
static void test_intra_group_auto(void)
{
    static const char flow[] =
        "topology = { kind = \"cascade\"; p = 2; h = 2; rows = 2; cols = 4; row_links = 1;\n"
        "             col_links = 2; cascade_groups = 5; };\n"
        "routing = { mechanism = \"ugal\"; };\n"
        "sim = { warmup_cycles = 500; measure_cycles = 1500; seed = 3; };\n"
        "jobs = ( { name = \"flow\"; nodes = 4; placement = \"contiguous\"; first_node = 0;\n"
        "           pattern = \"tornado\"; offset = 2; load = 1.0; } );\n";
    static const struct {
        const char *set[2];
        bool rule, detours; /* intra-group candidates drawn; some taken */
    } cases[] = {
        {{"routing.ugal_preset=adaptive_0", ""}, true, true},
        {{"jobs.flow.ugal_preset=adaptive_0", ""}, true, true},
        /* A bias of 32 phits stops detours between neighbours (one 32-phit local hop). */
        {{"routing.ugal_preset=adaptive_2", ""}, true, false},
        {{"routing.ugal_preset=nmin_hash", ""}, false, false},
        {{"routing.ugal_bias=0", ""}, false, false},
        {{"routing.ugal_preset=adaptive_0", INTRA_OFF}, false, false},
        {{"routing.ugal_preset=none", INTRA_ON}, true, true},
    };
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "ugal_auto"), 0);
    printf("\n");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct sim_config cfg;
        char err[256];
        test_load_config_text(dir, "flow.cfg", flow, cases[k].set, cases[k].set[1][0] ? 2 : 1,
                              &cfg);
        struct sim *sim = sim_create(&cfg, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        struct ugal_rule rule;
        int mode = k == 1 ? UGAL_ADAPTIVE_0 : UGAL_PRESET_NONE;
        ugal_rule_of_mode(sim->net.routing_env.params, mode, &rule);
        CU_ASSERT_EQUAL(rule.intra_group, cases[k].rule);
        struct intra_detours d = {0};
        sim->net.on_hop = count_intra_detours;
        sim->net.on_hop_ctx = &d;
        CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
        printf("    %s %s: %ld of %ld intra-group packets detoured\n", cases[k].set[0],
               cases[k].set[1], d.detours, d.packets);
        CU_ASSERT(d.packets > 400);
        if (cases[k].detours) {
            CU_ASSERT(d.detours > d.packets / 10);
        } else {
            CU_ASSERT_EQUAL(d.detours, 0);
        }
        sim_destroy(sim);
    }
    test_tmpdir_remove(dir);
}

/* The setting's values: the choice "auto" (default), and true and false written as booleans or
 * strings; anything else, and true off the cascade, refused naming what is allowed. */
static void test_intra_group_setting(void)
{
    static const struct {
        const char *set[2];
        const char *error; /* NULL: loads */
    } cases[] = {
        {{"topology.kind=cascade", "routing.mechanism=ugal"}, NULL},
        {{"topology.kind=cascade", "routing.ugal_intra_group=\"true\""}, NULL},
        {{"topology.kind=cascade", "routing.ugal_intra_group=false"}, NULL},
        {{"routing.mechanism=ugal", "routing.ugal_intra_group=auto"}, NULL},
        {{"routing.mechanism=ugal", "routing.ugal_intra_group=maybe"},
         "routing.ugal_intra_group: unknown value 'maybe' (expected one of: false, true, auto)"},
        {{"routing.mechanism=ugal", "routing.ugal_intra_group=1"},
         "routing.ugal_intra_group: expected true, false or a string (one of: false, true, "
         "auto), got an integer (1)"},
        {{"routing.mechanism=ugal", "routing.ugal_intra_group=true"},
         "routing.ugal_intra_group = true needs topology.kind = \"cascade\""},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *ov[3] = {"routing.mechanism=ugal", cases[k].set[0], cases[k].set[1]};
        struct sim_config cfg;
        char err[CONFIG_ERROR_LEN] = "";
        int rc = config_load(NULL, ov, 3, &cfg, err);
        if (!cases[k].error) {
            CU_ASSERT_EQUAL(rc, 0);
            if (rc)
                fprintf(stderr, "\n  %s %s: %s\n", cases[k].set[0], cases[k].set[1], err);
            continue;
        }
        CU_ASSERT_EQUAL(rc, -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[k].error));
        if (!strstr(err, cases[k].error))
            fprintf(stderr, "\n  expected: %s\n  got: %s\n", cases[k].error, err);
    }
    /* Written as a boolean, true is echoed as one; "auto" is the default, not echoed. */
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN], text[32];
    const char *ov[] = {"topology.kind=cascade", "routing.mechanism=ugal",
                        "routing.ugal_intra_group=\"true\""};
    CU_ASSERT_EQUAL_FATAL(config_load(NULL, ov, 3, &cfg, err), 0);
    struct setting_ref r;
    CU_ASSERT_EQUAL_FATAL(settings_find_full("routing.ugal_intra_group", &r), 0);
    settings_format(&cfg, &r, true, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "true");
    CU_ASSERT(!settings_quiet(&cfg, &r));
    CU_ASSERT_EQUAL_FATAL(config_load(NULL, ov, 2, &cfg, err), 0);
    CU_ASSERT(settings_quiet(&cfg, &r));
}

/* ---- the hashed presets (min_hash, nmin_hash) ---- */

struct hashed_observer {
    const struct topology *t;
    bool nonminimal;
    int32_t *first; /* per (src node, dst node): 1 + port * 2^16 + 1 + target, 0: none yet */
    struct {
        int32_t key;
        int target;
    } * at_source;
    uint32_t len;
    long packets, errors_kind, errors_same;
};

/* At the source: the path's key, the same as the first packet's of that (src, dst) (no
 * messages: tag 0); at delivery: minimal (no hop off every minimal path, the minimal hop
 * count) or nonminimal (an intermediate chosen at the source) as the preset says. */
static void observe_hashed_hop(void *ctx, const struct network *net, int router, int in_port,
                               uint32_t index, const struct route_choice *ch)
{
    struct hashed_observer *ob = ctx;
    const struct topology *t = ob->t;
    const struct packet *pk = &net->pool.packets[index];
    int dst = topology_router_of_node(t, (int)pk->dst);
    if (index >= ob->len)
        test_grow_zeroed((void **)&ob->at_source, &ob->len, net->pool.capacity,
                         sizeof *ob->at_source);
    if (network_port_class(net, router, in_port) == PORT_NODE && router != dst) {
        int32_t key = 1 + ch->out_port * 65536 + 1 + ch->target;
        int32_t *first = &ob->first[pk->src * (uint32_t)t->nodes + pk->dst];
        if (!*first)
            *first = key;
        ob->errors_same += *first != key;
        ob->at_source[index].key = key;
        ob->at_source[index].target = ch->target;
    }
    if (network_port_class(net, router, ch->out_port) != PORT_NODE ||
        router == topology_router_of_node(t, (int)pk->src))
        return;
    int local, global;
    topology_min_hops(t, topology_router_of_node(t, (int)pk->src), dst, &local, &global);
    bool minimal = !(pk->flags & (PACKET_GLOBAL_MISROUTED | PACKET_LOCAL_MISROUTED)) &&
                   pk->hops_local + pk->hops_global == local + global &&
                   ob->at_source[index].target < 0;
    ob->packets++;
    ob->errors_kind += ob->nonminimal ? ob->at_source[index].target < 0 : !minimal;
}

/* min_hash routes every packet minimally, nmin_hash every packet through an intermediate
 * (between groups, and with detours on inside a group), on the small cascade under UN at
 * 0.3: each (src, dst) always on the same path. Through the pool's message tags: the same
 * (src, dst, message) gives the same path whatever the packet, reading no network state, and
 * different messages spread over several paths. */
static void test_hashed_presets(void)
{
    static const char *const presets[] = {"routing.ugal_preset=min_hash",
                                          "routing.ugal_preset=nmin_hash"};
    for (int p = 0; p < 2; p++) {
        const char *extra[] = {"routing.mechanism=ugal",
                               presets[p],
                               INTRA_ON,
                               "traffic.load=0.3",
                               "sim.warmup_cycles=0",
                               "sim.measure_cycles=2000"};
        struct sim_config cfg;
        struct sim *sim = net_sim(&cfg, NET_CASCADE_SMALL, extra, 6);
        const struct topology *t = &sim->net.topo;
        struct hashed_observer ob = {.t = t, .nonminimal = p == 1};
        ob.first = calloc((size_t)t->nodes * (size_t)t->nodes, sizeof *ob.first);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ob.first);
        sim->net.on_hop = observe_hashed_hop;
        sim->net.on_hop_ctx = &ob;
        sim->check_invariants = true;
        sim->check_every = 10;
        CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
        printf("\n    %s: %ld packets, %ld not %s, %ld off their pair's path", presets[p] + 8,
               ob.packets, ob.errors_kind, p ? "nonminimal" : "minimal", ob.errors_same);
        CU_ASSERT(ob.packets > 1000);
        CU_ASSERT_EQUAL(ob.errors_kind, 0);
        CU_ASSERT_EQUAL(ob.errors_same, 0);
        if (p == 1) {
            CU_ASSERT(sim->stats.misrouted_global > sim->stats.delivered / 2);
        } else {
            CU_ASSERT_EQUAL(sim->stats.misrouted_global + sim->stats.misrouted_local, 0);
        }

        /* Messages: packets in the pool with tags, from router 0 to the router of another
         * group with the most minimal first hops. */
        int dst = -1, most = 0;
        for (int r = t->group_first_router[1]; r < t->routers; r++)
            if (__builtin_popcountll(topology_min_ports(t, 0, r)) > most) {
                most = __builtin_popcountll(topology_min_ports(t, 0, r));
                dst = r;
            }
        struct ugal_rule rule;
        ugal_rule_of_mode(sim->net.routing_env.params, p ? UGAL_NMIN_HASH : UGAL_MIN_HASH, &rule);
        CU_ASSERT_EQUAL(rule.hashed, p ? UGAL_HASHED_NONMIN : UGAL_HASHED_MIN);
        if (!sim->net.pool.tags)
            CU_ASSERT_EQUAL_FATAL(packet_pool_use_tags(&sim->net.pool), 0);
        uint32_t a = packet_alloc(&sim->net.pool), b = packet_alloc(&sim->net.pool);
        CU_ASSERT_FATAL(a != PACKET_NONE && b != PACKET_NONE);
        int32_t keys[64];
        int distinct = 0, unstable = 0;
        for (uint32_t m = 1; m <= 64; m++) {
            struct ugal_candidate c[2];
            for (int k = 0; k < 2; k++) {
                uint32_t index = k ? b : a;
                struct packet *pk = &sim->net.pool.packets[index];
                *pk = packet_between(&sim->net, 1000 + m * 2 + (uint32_t)k, 0, t->first_node[dst]);
                sim->net.pool.tags[index] = m;
                struct route_ctx ctx = ctx_at(sim, 0, 0);
                CU_ASSERT_EQUAL_FATAL(ugal_hashed_candidate(&ctx, pk, &rule, &c[k]), 0);
                CU_ASSERT(!ctx.adaptive);
                CU_ASSERT_EQUAL(c[k].target >= 0, p == 1);
            }
            unstable += c[0].port != c[1].port || c[0].target != c[1].target;
            int32_t key = c[0].port * 65536 + 1 + c[0].target;
            int seen = 0;
            for (int i = 0; i < distinct; i++)
                seen |= keys[i] == key;
            if (!seen)
                keys[distinct++] = key;
        }
        printf("; 64 messages 0 -> %d: %d paths, %d unstable", dst, distinct, unstable);
        CU_ASSERT_EQUAL(unstable, 0);
        CU_ASSERT(distinct >= (p ? 8 : most));
        free(ob.first);
        free(ob.at_source);
        sim_destroy(sim);
    }
    printf("\n");
}

int test_ugal_register(void)
{
    static const struct test_case cases[] = {
        {"presets, ladders per topology, conf/aries.cfg", test_presets_and_ladders},
        {"candidate draw uniform (chi-square)", test_draw_uniform},
        {"bias = T_local * packet_size: PiggyBack's UGAL-L on the same inputs",
         test_matches_piggyback},
        {"increasing bias grows with the hops taken", test_increasing_bias},
        {"ugal_g sees congestion past the first hop", test_global_knowledge},
        {"prohibitive bias: every figure of MIN", test_huge_bias_is_min},
        {"ADV+1 near Valiant, UN near MIN's latency", test_between_min_and_valiant},
        {"no deadlock at 1.0, ladders, final decisions (dragonfly, cascade)", test_no_deadlock},
        {"adaptive at the source only", test_adaptive_only_at_source},
        {"cascade: minimal alternatives are not misrouted",
         test_minimal_alternatives_not_misrouted},
        {"cascade intra-group detours: candidates in the group, dimension-ordered",
         test_intra_group_draw},
        {"cascade intra-group detours: paths, shared VCs, no deadlock at 1.0 (--check)",
         test_intra_group_paths_no_deadlock},
        {"cascade intra-group detours: a saturating flow spreads under adaptive_0",
         test_intra_group_flow},
        {"cascade intra-group detours: on under a bias preset (auto), never without one",
         test_intra_group_auto},
        {"ugal_intra_group: auto, booleans or strings; clear errors", test_intra_group_setting},
        {"min_hash, nmin_hash: minimal, nonminimal, one path per (src, dst, message)",
         test_hashed_presets},
    };
    return test_add_suite("ugal", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
