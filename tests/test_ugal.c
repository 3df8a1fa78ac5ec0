/* UGAL (ugal, ugal_g): presets and ladders, the candidate draw (chi-square), the decision
 * against PiggyBack's UGAL-L rule on the same router state, a prohibitive bias against MIN,
 * the throughput and latency it reaches against MIN and Valiant, paths and VC ladders, and
 * freedom from deadlock at saturation on the dragonfly and the cascade. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing_piggyback.h"
#include "routing_ugal.h"
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
                                 false};
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
    struct ugal_rule rule = {1, 1, margin / 2, UGAL_BIAS_INCREASING, UGAL_OCCUPANCY_X_HOPS, true};
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
    struct ugal_rule rule = {1, 1, 0, UGAL_BIAS_CONSTANT, UGAL_OCCUPANCY_X_HOPS, false};
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
    };
    return test_add_suite("ugal", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
