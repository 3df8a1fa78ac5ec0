/* Dragonfly+: the topology (port layout per router kind, link symmetry, links per group pair,
 * both arrangements' formulas, the minimal-route oracle against breadth-first search), its
 * config errors, and routing on it (MIN's spread, the paths and VLs of FPAR, throughput
 * against the bounds, freedom from deadlock at offered load 1.0). */
#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "sim.h"
#include "test_util.h"

/* ---- networks ---- */

struct dfp_shape {
    int groups, leaves, spines, p, h;
    const char *arrangement;
};

/* Several sizes, with groups < spines*h + 1 (several links per group pair) and = (one);
 * "sparse" palmtrees (h < groups - 1) leave spines without links to some groups. */
static const struct dfp_shape shapes[] = {
    {5, 6, 6, 4, 4, "linear"},    /* conf/dragonfly_plus_small.cfg: m = 6, m' = 1 */
    {3, 2, 3, 2, 2, "linear"},    /* m = 3 */
    {4, 3, 2, 3, 6, "linear"},    /* m' = 2 = spines */
    {2, 1, 3, 1, 5, "linear"},    /* m' = 5 > spines: parallel links between two spines */
    {5, 6, 6, 4, 4, "palmtree"},  /* h = groups - 1: every spine reaches every group */
    {5, 4, 4, 2, 2, "palmtree"},  /* sparse, m = 2 */
    {7, 3, 4, 3, 3, "palmtree"},  /* sparse, m = 2 */
    {13, 2, 3, 2, 4, "palmtree"}, /* groups = spines*h + 1: one link per pair */
};
#define N_SHAPES (int)(sizeof shapes / sizeof shapes[0])

static const struct dfp_shape study = {9, 24, 24, 16, 16, "linear"};

static void dfp_config(struct sim_config *cfg, const struct dfp_shape *s, const char *const *more,
                       int n_more)
{
    char sets[6][64];
    snprintf(sets[0], 64, "topology.groups=%d", s->groups);
    snprintf(sets[1], 64, "topology.leaves=%d", s->leaves);
    snprintf(sets[2], 64, "topology.spines=%d", s->spines);
    snprintf(sets[3], 64, "topology.p=%d", s->p);
    snprintf(sets[4], 64, "topology.h=%d", s->h);
    snprintf(sets[5], 64, "topology.arrangement=%s", s->arrangement);
    const char *ov[24] = {"topology.kind=dragonfly_plus"};
    int n = 1;
    for (int i = 0; i < 6; i++)
        ov[n++] = sets[i];
    for (int i = 0; i < n_more && n < 24; i++)
        ov[n++] = more[i];
    test_config(cfg, ov, n);
}

static void dfp_build(struct topology *t, const struct dfp_shape *s)
{
    struct sim_config cfg;
    char err[256];
    dfp_config(&cfg, s, NULL, 0);
    if (topology_create(t, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "\ndfp_build: %s\n", err);
        CU_FAIL_FATAL("the dragonfly_plus topology does not build");
    }
}

static int dfp_index(const struct topology *t, int r)
{
    return r - t->group_first_router[topology_group_of_router(t, r)];
}

static int dfp_is_leaf(const struct topology *t, const struct dfp_shape *s, int r)
{
    return dfp_index(t, r) < s->leaves;
}

/* ---- layout and wiring ---- */

static void test_study_sizes(void)
{
    struct topology t;
    dfp_build(&t, &study);
    CU_ASSERT_EQUAL(t.groups, 9);
    CU_ASSERT_EQUAL(t.routers, 432);
    CU_ASSERT_EQUAL(t.nodes, 3456);
    CU_ASSERT_EQUAL(t.radix, 40);
    CU_ASSERT_EQUAL(t.n_kinds, 2);
    CU_ASSERT_STRING_EQUAL(t.shape, "p=16 leaves=24 spines=24 h=16");
    topology_free(&t);
}

/* Ports per class: a leaf p node ports and one local port per spine, no global port; a spine
 * one local port per leaf and h global ports, no node. Leaves come first in a group and hold
 * all its nodes. */
static void test_port_counts(void)
{
    for (int i = 0; i < N_SHAPES; i++) {
        const struct dfp_shape *s = &shapes[i];
        struct topology t;
        dfp_build(&t, s);
        CU_ASSERT_EQUAL(t.routers, s->groups * (s->leaves + s->spines));
        CU_ASSERT_EQUAL(t.nodes, s->groups * s->leaves * s->p);
        for (int r = 0; r < t.routers; r++) {
            const struct router_kind *k = topology_kind_of(&t, r);
            int leaf = dfp_is_leaf(&t, s, r);
            CU_ASSERT_EQUAL(k->count[PORT_NODE], leaf ? s->p : 0);
            CU_ASSERT_EQUAL(k->count[PORT_LOCAL], leaf ? s->spines : s->leaves);
            CU_ASSERT_EQUAL(k->count[PORT_GLOBAL], leaf ? 0 : s->h);
            CU_ASSERT_EQUAL(k->radix,
                            k->count[PORT_NODE] + k->count[PORT_LOCAL] + k->count[PORT_GLOBAL]);
        }
        for (int g = 0; g < t.groups; g++) {
            CU_ASSERT_EQUAL(topology_group_routers(&t, g), s->leaves + s->spines);
            CU_ASSERT_EQUAL(topology_group_nodes(&t, g), s->leaves * s->p);
        }
        topology_free(&t);
    }
}

/* Every link's far end points back with the same class; local links join a leaf and a spine
 * of one group (each such pair exactly once), global links two spines of different groups,
 * and every pair of groups is joined by exactly m = spines*h / (groups-1) links. */
static void check_wiring(const struct dfp_shape *s)
{
    struct topology t;
    dfp_build(&t, s);
    int G = t.groups, m = s->spines * s->h / (G - 1);
    int *pairs = calloc((size_t)G * (size_t)G, sizeof *pairs);
    int *local_pairs = calloc((size_t)t.routers * (size_t)t.routers, sizeof *local_pairs);
    for (int r = 0; r < t.routers; r++) {
        const struct router_kind *k = topology_kind_of(&t, r);
        for (int port = k->first[PORT_LOCAL]; port < k->radix; port++) {
            int far = topology_neighbour(&t, r, port),
                far_port = topology_neighbour_port(&t, r, port);
            CU_ASSERT_FATAL(far >= 0 && far < t.routers);
            CU_ASSERT_EQUAL(topology_neighbour(&t, far, far_port), r);
            CU_ASSERT_EQUAL(topology_neighbour_port(&t, far, far_port), port);
            CU_ASSERT_EQUAL(topology_port_class(&t, far, far_port),
                            topology_port_class(&t, r, port));
            int g = topology_group_of_router(&t, r), fg = topology_group_of_router(&t, far);
            if (topology_port_class(&t, r, port) == PORT_LOCAL) {
                CU_ASSERT_EQUAL(g, fg);
                CU_ASSERT_NOT_EQUAL(dfp_is_leaf(&t, s, r), dfp_is_leaf(&t, s, far));
                local_pairs[r * t.routers + far]++;
            } else {
                CU_ASSERT_NOT_EQUAL(g, fg);
                CU_ASSERT(!dfp_is_leaf(&t, s, r) && !dfp_is_leaf(&t, s, far));
                pairs[g * G + fg]++;
            }
        }
        for (int port = 0; port < k->count[PORT_NODE]; port++)
            CU_ASSERT_EQUAL(topology_neighbour(&t, r, port), -1);
    }
    for (int g = 0; g < G; g++)
        for (int d = 0; d < G; d++)
            CU_ASSERT_EQUAL(pairs[g * G + d], g == d ? 0 : m);
    for (int r = 0; r < t.routers; r++)
        for (int q = 0; q < t.routers; q++) {
            int linked = topology_group_of_router(&t, r) == topology_group_of_router(&t, q) &&
                         dfp_is_leaf(&t, s, r) != dfp_is_leaf(&t, s, q);
            CU_ASSERT_EQUAL(local_pairs[r * t.routers + q], linked);
        }
    free(pairs);
    free(local_pairs);
    topology_free(&t);
}

static void test_wiring(void)
{
    for (int i = 0; i < N_SHAPES; i++)
        check_wiring(&shapes[i]);
    check_wiring(&study);
}

/* linear, literally: global port k of spine o in group g leads to the (k / m')-th other group
 * j, to spine (o + l) mod spines if g < j (else (o - l)), l = k mod m', at port
 * rank_j(g) * m' + l. So spine k of group i meets spines k .. k+m'-1 of every group j > i. */
static void check_linear(const struct dfp_shape *s)
{
    struct topology t;
    dfp_build(&t, s);
    int G = t.groups, S = s->spines, per = s->h / (G - 1), L = s->leaves;
    for (int g = 0; g < G; g++)
        for (int o = 0; o < S; o++)
            for (int k = 0; k < s->h; k++) {
                int r = t.group_first_router[g] + L + o, l = k % per, j = k / per;
                j += j >= g;
                int far = topology_neighbour(&t, r, L + k);
                int spine = g < j ? (o + l) % S : ((o - l) % S + S) % S;
                CU_ASSERT_EQUAL(far, t.group_first_router[j] + L + spine);
                CU_ASSERT_EQUAL(topology_neighbour_port(&t, r, L + k),
                                L + (g < j ? g : g - 1) * per + l);
            }
    topology_free(&t);
}

/* palmtree (CAMINOS' extended palmtree): link x = o*h + k of group g reaches group
 * (g - 1 - x mod (groups-1)) mod groups, at spine spines-1-o's port h-1-k. */
static void check_palmtree(const struct dfp_shape *s)
{
    struct topology t;
    dfp_build(&t, s);
    int G = t.groups, S = s->spines, L = s->leaves;
    for (int g = 0; g < G; g++)
        for (int o = 0; o < S; o++)
            for (int k = 0; k < s->h; k++) {
                int r = t.group_first_router[g] + L + o, x = o * s->h + k;
                int d = ((g - 1 - x % (G - 1)) % G + G) % G;
                CU_ASSERT_EQUAL(topology_neighbour(&t, r, L + k),
                                t.group_first_router[d] + L + S - 1 - o);
                CU_ASSERT_EQUAL(topology_neighbour_port(&t, r, L + k), L + s->h - 1 - k);
            }
    topology_free(&t);
}

static void test_arrangement_formulas(void)
{
    for (int i = 0; i < N_SHAPES; i++) {
        if (strcmp(shapes[i].arrangement, "linear") == 0)
            check_linear(&shapes[i]);
        else
            check_palmtree(&shapes[i]);
    }
    check_linear(&study);
}

/* ---- the minimal-route oracle ---- */

/* min_port's path from src: its length by class; fails if it does not arrive. */
static void dfp_follow(const struct topology *t, int src, int dst, int limit, int *local,
                       int *global)
{
    int r = src;
    *local = *global = 0;
    while (r != dst && *local + *global <= limit) {
        int port = topology_min_port(t, r, dst);
        if (topology_port_class(t, r, port) == PORT_GLOBAL)
            (*global)++;
        else
            (*local)++;
        r = topology_neighbour(t, r, port);
    }
    CU_ASSERT_EQUAL_FATAL(r, dst);
}

/* The oracle against the wiring, for every pair of routers: min_ports is exactly the set of
 * first hops of the shortest paths with at most one global link, min_port one of them, its
 * path as long as BFS says, min_hops its counts (both from the precomputed table and as the
 * kind computes them). Leaves are at most l-g-l apart (diameter
 * 3); when every spine reaches every group so are all routers, else spines may be up to 5
 * hops apart. */
static void check_oracle(const struct dfp_shape *s, int reach_all)
{
    struct topology t;
    dfp_build(&t, s);
    int n = t.routers, longest = 0;
    CU_ASSERT_PTR_NOT_NULL(t.hops_table); /* small enough for the oracle's tables */
    int *dist = malloc(2 * (size_t)n * sizeof *dist),
        *queue = malloc(2 * (size_t)n * sizeof *queue);
    for (int dst = 0; dst < n; dst++) {
        test_bfs_one_global(&t, dst, dist, queue);
        for (int src = 0; src < n; src++) {
            if (src == dst) {
                CU_ASSERT_EQUAL(topology_min_port(&t, src, dst), -1);
                continue;
            }
            uint64_t ports = topology_min_ports(&t, src, dst);
            CU_ASSERT_EQUAL(ports, test_closer_ports(&t, src, dist));
            CU_ASSERT((ports >> topology_min_port(&t, src, dst)) & 1);
            int local, global, el, eg;
            dfp_follow(&t, src, dst, dist[src], &local, &global);
            CU_ASSERT_EQUAL(local + global, dist[src]);
            CU_ASSERT(global <= 1);
            topology_min_hops(&t, src, dst, &el, &eg); /* from the table */
            CU_ASSERT_EQUAL(el, local);
            CU_ASSERT_EQUAL(eg, global);
            t.ops->min_hops(&t, src, dst, &el, &eg); /* computed */
            CU_ASSERT_EQUAL(el, local);
            CU_ASSERT_EQUAL(eg, global);
            if (dfp_is_leaf(&t, s, src) && dfp_is_leaf(&t, s, dst))
                CU_ASSERT(dist[src] <= 3);
            if (dist[src] > longest)
                longest = dist[src];
        }
    }
    CU_ASSERT(longest <= (reach_all ? 3 : 5));
    free(dist);
    free(queue);
    topology_free(&t);
}

static void test_oracle(void)
{
    for (int i = 0; i < N_SHAPES; i++) {
        const struct dfp_shape *s = &shapes[i];
        check_oracle(s, strcmp(s->arrangement, "linear") == 0 || s->h >= s->groups - 1);
    }
}

static void test_oracle_study(void)
{
    check_oracle(&study, 1);
}

/* The generic walks along minimal paths work on both router kinds. */
static void test_path_queries(void)
{
    struct topology t;
    dfp_build(&t, &shapes[5]);
    for (int r = 0; r < t.routers; r++)
        for (int g = 0; g < t.groups; g++) {
            int entry = topology_entry_router(&t, r, g);
            CU_ASSERT_EQUAL(topology_group_of_router(&t, entry), g);
            if (g == topology_group_of_router(&t, r)) {
                CU_ASSERT_EQUAL(entry, r);
                continue;
            }
            CU_ASSERT(!dfp_is_leaf(&t, &shapes[5], entry)); /* groups are entered at a spine */
            int gw, port;
            topology_min_global_hop(&t, r, entry, &gw, &port);
            CU_ASSERT_EQUAL(topology_neighbour(&t, gw, port), entry);
            CU_ASSERT(topology_global_port_to_group(&t, gw, g) >= 0);
        }
    topology_free(&t);
}

/* ---- configs ---- */

static void expect_error(const char *const *ov, int n, const char *expected)
{
    struct sim_config c;
    char err[CONFIG_ERROR_LEN] = "";
    CU_ASSERT_EQUAL(config_load(NULL, ov, n, &c, err), -1);
    if (!strstr(err, expected))
        fprintf(stderr, "\n  expected \"%s\"\n  got      \"%s\"\n", expected, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, expected));
}

#define DFP_SMALL                                                                                  \
    "topology.kind=dragonfly_plus", "topology.groups=5", "topology.leaves=6", "topology.spines=6", \
        "topology.p=4", "topology.h=4"

static void test_config_errors(void)
{
    const char *spread[] = {DFP_SMALL, "topology.groups=6"};
    expect_error(spread, 7,
                 "--set topology.groups=6: topology.groups: the spines * h = 6 * 4 = 24 global "
                 "links of a group cannot be spread evenly over the 5 other groups (expected "
                 "groups - 1 to divide spines * h)");
    const char *too_many[] = {DFP_SMALL, "topology.groups=26"};
    expect_error(too_many, 7, "topology.groups: 26 groups cannot all be joined");
    const char *consecutive[] = {DFP_SMALL, "topology.arrangement=consecutive"};
    expect_error(consecutive, 7,
                 "--set topology.arrangement=consecutive: topology.arrangement: \"consecutive\" "
                 "is an arrangement of dragonfly, not of dragonfly_plus (expected palmtree or "
                 "linear)");
    const char *linear_h[] = {DFP_SMALL, "topology.groups=7", "topology.arrangement=linear"};
    expect_error(linear_h, 8,
                 "topology.arrangement: \"linear\" gives every spine h / (groups - 1) links to "
                 "each other group, but groups - 1 = 6 does not divide h = 4");
    const char *linear_df[] = {"topology.arrangement=linear"};
    expect_error(linear_df, 1,
                 "--set topology.arrangement=linear: topology.arrangement: \"linear\" is an "
                 "arrangement of dragonfly_plus, not of dragonfly (expected palmtree or "
                 "consecutive)");
    const char *radix[] = {DFP_SMALL, "topology.spines=61"};
    expect_error(radix, 7, "topology.spines: leaf radix p + spines = 65 is too large");
    const char *routing[] = {DFP_SMALL, "routing.mechanism=in_transit"};
    expect_error(routing, 7,
                 "routing.mechanism: routing 'in_transit' is not defined on dragonfly_plus "
                 "(expected min, valiant or fpar)");
    const char *sparse[] = {DFP_SMALL, "topology.h=2", "routing.mechanism=valiant"};
    expect_error(sparse, 8,
                 "valiant needs every spine of a dragonfly_plus linked to every other "
                 "group, which the palmtree gives only when h >= groups - 1 (got h = "
                 "2, groups - 1 = 4");
    const char *advc[] = {DFP_SMALL, "traffic.pattern=adversarial_consecutive"};
    expect_error(advc, 7,
                 "traffic.pattern: adversarial_consecutive (the h groups linked to a "
                 "dragonfly's router a-1) is not defined on dragonfly_plus");
    /* The dragonfly's own check no longer reads a on another kind: a Dragonfly+ whose p + a -
     * 1 + h would exceed 64 loads. */
    struct sim_config c;
    char err[CONFIG_ERROR_LEN];
    const char *big[] = {DFP_SMALL, "topology.p=40", "topology.leaves=6", "topology.a=30"};
    CU_ASSERT_EQUAL(config_load(NULL, big, 9, &c, err), 0);
}

/* The shipped configs load and have the study's (and the small twin's) sizes. */
static void test_shipped_configs(void)
{
    static const struct {
        const char *path;
        int groups, routers, nodes, radix;
    } files[] = {{"conf/dragonfly_plus_3456.cfg", 9, 432, 3456, 40},
                 {"conf/dragonfly_plus_small.cfg", 5, 60, 120, 10}};
    for (int i = 0; i < 2; i++) {
        struct sim_config c;
        char err[CONFIG_ERROR_LEN];
        CU_ASSERT_EQUAL_FATAL(config_load(files[i].path, NULL, 0, &c, err), 0);
        struct topology t;
        CU_ASSERT_EQUAL_FATAL(topology_create(&t, &c, err, (int)sizeof err), 0);
        CU_ASSERT_EQUAL(t.groups, files[i].groups);
        CU_ASSERT_EQUAL(t.routers, files[i].routers);
        CU_ASSERT_EQUAL(t.nodes, files[i].nodes);
        CU_ASSERT_EQUAL(t.radix, files[i].radix);
        CU_ASSERT_STRING_EQUAL(routing_of(&c)->name, "fpar");
        CU_ASSERT_EQUAL(c.vcs.local, 2);
        CU_ASSERT_EQUAL(c.vcs.global, 2);
        topology_free(&t);
    }
}

/* ---- routing ---- */

struct dfp_variant {
    const char *name, *mechanism, *valiant_target;
    int max_hops, max_global;
};

static const struct dfp_variant variants[] = {
    {"MIN", "min", "group", 3, 1},
    {"VAL", "valiant", "group", 4, 2},      /* l g g l: the entry spine has a link onwards */
    {"VAL-any", "valiant", "router", 6, 2}, /* l g l l g l through a leaf */
    {"FPAR", "fpar", "group", 6, 2},
};
#define N_VARIANTS (int)(sizeof variants / sizeof variants[0])

static struct sim *dfp_sim(struct sim_config *cfg, const struct dfp_shape *s,
                           const struct dfp_variant *v, const char *pattern, double load,
                           int warmup, int cycles)
{
    char sets[6][64], err[256];
    snprintf(sets[0], 64, "routing.mechanism=%s", v->mechanism);
    snprintf(sets[1], 64, "routing.valiant_target=%s", v->valiant_target);
    snprintf(sets[2], 64, "traffic.pattern=%s", pattern);
    snprintf(sets[3], 64, "traffic.load=%g", load);
    snprintf(sets[4], 64, "sim.warmup_cycles=%d", warmup);
    snprintf(sets[5], 64, "sim.measure_cycles=%d", cycles);
    const char *more[] = {
        sets[0], sets[1], sets[2], sets[3], sets[4], sets[5], "sim.deadlock_cycles=2000"};
    dfp_config(cfg, s, more, 7);
    struct sim *sim = sim_create(cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    return sim;
}

static double dfp_accepted(const struct sim *sim)
{
    return (double)sim->stats.delivered_phits /
           (sim->net.topo.nodes * (double)sim->cfg->sim.measure_cycles);
}

static double dfp_offered(const struct sim *sim)
{
    return (double)(sim->net.counts.generated_phits + sim->net.counts.refused_phits) /
           (sim->net.topo.nodes * (double)sim->cfg->sim.measure_cycles);
}

struct dfp_result {
    double offered, accepted, misrouted; /* misrouted: fraction with a nonminimal global hop */
};

/* One run of the small network, 2,000 + 4,000 cycles. */
static struct dfp_result dfp_run(const struct dfp_variant *v, const char *pattern, double load)
{
    struct sim_config cfg;
    struct sim *sim = dfp_sim(&cfg, &shapes[0], v, pattern, load, 2000, 4000);
    CU_ASSERT_EQUAL(sim_run(sim, NULL, NULL), SIM_OK);
    struct dfp_result res = {dfp_offered(sim), dfp_accepted(sim),
                             sim->stats.delivered ? (double)sim->stats.misrouted_global /
                                                        (double)sim->stats.delivered
                                                  : 0};
    sim_destroy(sim);
    return res;
}

/* What the observer remembers of a packet in flight (by pool slot). */
struct dfp_trace {
    int hops, global, last_pos;
};

struct dfp_observer {
    const struct dfp_variant *v;
    struct dfp_trace *traces;
    uint32_t traces_len;
    long packets, errors_ladder, errors_length, errors_minimal, nonminimal_hops, vl1_packets;
    long up_hops[TOPOLOGY_MAX_RADIX]; /* MIN: first hops from a leaf out of the group, by port */
};

static struct dfp_trace *dfp_trace_of(struct dfp_observer *ob, const struct network *net,
                                      uint32_t index)
{
    if (index >= ob->traces_len)
        test_grow_zeroed((void **)&ob->traces, &ob->traces_len, net->pool.capacity,
                         sizeof *ob->traces);
    return &ob->traces[index];
}

/* The hop's VC is the ladder entry it claims, climbed strictly. */
static int dfp_on_ladder(const struct network *net, int router, const struct route_choice *ch,
                         int last_pos)
{
    const struct vc_ladder *l = &net->ladder;
    int cls = network_port_class(net, router, ch->out_port), e = ch->ladder_pos - 1;
    return ch->ladder_pos > last_pos && e < l->length && l->port_class[e] == cls &&
           l->vc[e] == ch->vc;
}

/* FPAR leaves the minimal path only while on VL0 (ladder position <= 2), outside the
 * destination group: at a leaf or spine of the source group, or down from a spine of an
 * intermediate group. */
static int dfp_fpar_may_misroute(const struct network *net, int router, const struct packet *pk,
                                 int last_pos)
{
    const struct topology *t = &net->topo;
    int g = topology_group_of_router(t, router);
    if (last_pos > 2 || g == topology_group_of_node(t, (int)pk->dst))
        return 0;
    return g == topology_group_of_node(t, (int)pk->src) ||
           (topology_kind_of(t, router)->count[PORT_NODE] == 0 && last_pos == 2);
}

static void dfp_observe_hop(void *ctx, const struct network *net, int router, int in_port,
                            uint32_t index, const struct route_choice *ch)
{
    struct dfp_observer *ob = ctx;
    const struct packet *pk = &net->pool.packets[index];
    const struct topology *t = &net->topo;
    struct dfp_trace *tr = dfp_trace_of(ob, net, index);
    int in_class = network_port_class(net, router, in_port),
        cls = network_port_class(net, router, ch->out_port);
    if (in_class == PORT_NODE)
        memset(tr, 0, sizeof *tr);
    if (cls == PORT_NODE) {
        ob->packets++;
        ob->errors_length += tr->hops > ob->v->max_hops || tr->global > ob->v->max_global;
        ob->vl1_packets += tr->last_pos > 3;
        return;
    }
    int dst = topology_router_of_node(t, (int)pk->dst);
    int minimal = (topology_min_ports(t, router, dst) >> ch->out_port) & 1;
    ob->errors_ladder += !dfp_on_ladder(net, router, ch, tr->last_pos);
    if (!minimal) {
        ob->nonminimal_hops++;
        if (strcmp(ob->v->mechanism, "min") == 0 ||
            (strcmp(ob->v->mechanism, "fpar") == 0 &&
             !dfp_fpar_may_misroute(net, router, pk, tr->last_pos)))
            ob->errors_minimal++;
    }
    if (in_class == PORT_NODE && minimal && cls == PORT_LOCAL &&
        topology_group_of_router(t, dst) != topology_group_of_router(t, router))
        ob->up_hops[ch->out_port]++;
    tr->hops++;
    tr->global += cls == PORT_GLOBAL;
    tr->last_pos = ch->ladder_pos;
}

static void check_paths(const struct dfp_variant *v, const char *pattern, double load)
{
    struct sim_config cfg;
    struct dfp_observer ob = {.v = v};
    struct sim *sim = dfp_sim(&cfg, &shapes[0], v, pattern, load, 0, 3000);
    sim->net.on_hop = dfp_observe_hop;
    sim->net.on_hop_ctx = &ob;
    CU_ASSERT_EQUAL(sim_run(sim, NULL, NULL), SIM_OK);
    if (ob.errors_ladder || ob.errors_length || ob.errors_minimal)
        fprintf(stderr, "\n%s %s: ladder %ld length %ld minimal %ld\n", v->name, pattern,
                ob.errors_ladder, ob.errors_length, ob.errors_minimal);
    CU_ASSERT(ob.packets > 1000);
    CU_ASSERT_EQUAL(ob.errors_ladder, 0);
    CU_ASSERT_EQUAL(ob.errors_length, 0);
    CU_ASSERT_EQUAL(ob.errors_minimal, 0);
    if (strcmp(v->mechanism, "min") == 0) {
        CU_ASSERT_EQUAL(ob.nonminimal_hops, 0);
        CU_ASSERT_EQUAL(sim->stats.misrouted_global, 0);
    } else if (strcmp(pattern, "adversarial") == 0) {
        CU_ASSERT(ob.nonminimal_hops > 0);
    }
    if (strcmp(v->mechanism, "fpar") == 0 && strcmp(pattern, "adversarial") == 0)
        CU_ASSERT(ob.vl1_packets > 0);
    free(ob.traces);
    sim_destroy(sim);
}

/* Every hop on its ladder entry, paths within their length, MIN always minimal (by the
 * oracle's min_ports: its spread over several minimal ports is not a misroute), FPAR off the
 * minimal path only where its rules allow, and onto VL1 under ADV+1. */
static void test_paths(void)
{
    for (int i = 0; i < N_VARIANTS; i++) {
        check_paths(&variants[i], "uniform", 0.6);
        check_paths(&variants[i], "adversarial", 0.5);
    }
}

/* MIN's choice among several minimal ports (min_choice auto: the least occupied on a
 * Dragonfly+) is uniform: from the leaves to other groups, over the six spines of the small
 * network (each has a link to every group). Chi-square, 5 degrees of freedom. */
static void test_min_spread(void)
{
    struct sim_config cfg;
    struct dfp_observer ob = {.v = &variants[0]};
    struct sim *sim = dfp_sim(&cfg, &shapes[0], &variants[0], "uniform", 0.3, 0, 3000);
    sim->net.on_hop = dfp_observe_hop;
    sim->net.on_hop_ctx = &ob;
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    int p = shapes[0].p, spines = shapes[0].spines;
    long total = 0;
    for (int o = 0; o < spines; o++)
        total += ob.up_hops[p + o];
    double expected = (double)total / spines, chi2 = 0;
    for (int o = 0; o < spines; o++)
        chi2 += (ob.up_hops[p + o] - expected) * (ob.up_hops[p + o] - expected) / expected;
    printf("\n    MIN first hops out of the group: %ld over %d spines, chi-square %.2f (critical "
           "20.52 at p=0.001)\n",
           total, spines, chi2);
    CU_ASSERT(total > 5000);
    CU_ASSERT(chi2 < 20.52);
    free(ob.traces);
    sim_destroy(sim);
}

/* routing.min_choice = "occupancy": MIN takes the least occupied minimal port, so at
 * saturation a leaf's load out of the group spreads over its six spines within 10 % of evenly
 * (each spine's share against the mean), the decision is adaptive (made again while the packet
 * waits) and still minimal and on the ladder; and it accepts at least what the hash does. */
static void test_min_choice_occupancy(void)
{
    double accepted[2];
    for (int occupancy = 0; occupancy < 2; occupancy++) {
        struct sim_config cfg;
        const char *sets[] = {"routing.mechanism=min",
                              "traffic.pattern=uniform",
                              "traffic.load=1.0",
                              "sim.warmup_cycles=1000",
                              "sim.measure_cycles=3000",
                              "sim.deadlock_cycles=2000",
                              occupancy ? "routing.min_choice=occupancy"
                                        : "routing.min_choice=hash"};
        dfp_config(&cfg, &shapes[0], sets, 7);
        char err[256];
        struct sim *sim = sim_create(&cfg, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        struct dfp_observer ob = {.v = &variants[0]};
        sim->net.on_hop = dfp_observe_hop;
        sim->net.on_hop_ctx = &ob;
        CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
        CU_ASSERT_EQUAL(ob.errors_ladder, 0);
        CU_ASSERT_EQUAL(ob.errors_minimal, 0);
        CU_ASSERT_EQUAL(ob.nonminimal_hops, 0);
        int p = shapes[0].p, spines = shapes[0].spines;
        long total = 0, most = 0, least = LONG_MAX;
        for (int o = 0; o < spines; o++) {
            long hops = ob.up_hops[p + o];
            total += hops;
            most = hops > most ? hops : most;
            least = hops < least ? hops : least;
        }
        double mean = (double)total / spines;
        accepted[occupancy] = dfp_accepted(sim);
        printf("\n    MIN %s at offered 1.0: accepted %.4f, first hops out of the group %ld, "
               "per spine %ld .. %ld (mean %.0f)",
               occupancy ? "occupancy" : "hash", accepted[occupancy], total, least, most, mean);
        CU_ASSERT(total > 5000);
        if (occupancy) {
            CU_ASSERT(most <= 1.10 * mean);
            CU_ASSERT(least >= 0.90 * mean);
        }
        free(ob.traces);
        sim_destroy(sim);
    }
    printf("\n");
    CU_ASSERT(accepted[1] >= 0.99 * accepted[0]);
}

/* MIN under UN accepts what is offered up to 0.7 on the small network (the global links
 * would carry 1: spines*h = leaves*p; MIN saturates first on its randomly shared leaf-spine
 * links). Measured (2,000 + 4,000 cycles): offered 0.1 / 0.5 / 0.7 accepted within 0.5 %;
 * offered 1.0 accepted 0.81 (min_choice auto, here occupancy; hash 0.78; the canonical
 * dragonfly of conf/default.cfg: 0.85), with buffers.output at its default 32: the shipped
 * config's output-queued router reaches 0.96 (test_shipped_reaches_bound). */
static void test_min_uniform_accepts(void)
{
    const double loads[] = {0.1, 0.5, 0.7};
    for (int i = 0; i < 3; i++) {
        struct dfp_result r = dfp_run(&variants[0], "uniform", loads[i]);
        printf("\n    MIN UN offered %.4f accepted %.4f", r.offered, r.accepted);
        CU_ASSERT(r.accepted >= 0.98 * r.offered && r.accepted <= 1.02 * r.offered);
    }
    struct dfp_result saturated = dfp_run(&variants[0], "uniform", 1.0);
    printf("\n    MIN UN offered %.4f accepted %.4f\n", saturated.offered, saturated.accepted);
    CU_ASSERT(saturated.accepted > 0.7);
}

/* routing.min_choice = "auto" is the topology kind's choice: the least occupied minimal port
 * on a Dragonfly+ (its leaves choose their up-port by load), a hash on the cascade and the
 * canonical dragonfly; an explicit choice is kept, but occupancy is refused on the cascade. */
static void test_min_choice_auto(void)
{
    const struct topology_ops *kinds[] = {&topology_dragonfly_plus, &topology_cascade,
                                          &topology_dragonfly};
    const int expected[] = {MIN_CHOICE_OCCUPANCY, MIN_CHOICE_HASH, MIN_CHOICE_HASH};
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(min_choice_resolve(MIN_CHOICE_AUTO, kinds[k]), expected[k]);
        CU_ASSERT_EQUAL(min_choice_resolve(MIN_CHOICE_HASH, kinds[k]), MIN_CHOICE_HASH);
        CU_ASSERT_EQUAL(min_choice_resolve(MIN_CHOICE_OCCUPANCY, kinds[k]), MIN_CHOICE_OCCUPANCY);
    }
    struct sim_config cfg;
    test_config(&cfg, NULL, 0);
    CU_ASSERT_EQUAL(cfg.routing.min_choice, MIN_CHOICE_AUTO);
    /* occupancy could start a cascade segment with its column hop, off the ladder: refused */
    const char *occupancy[] = {"routing.min_choice=occupancy"};
    char err[CONFIG_ERROR_LEN];
    CU_ASSERT_NOT_EQUAL(config_load("conf/aries_small.cfg", occupancy, 1, &cfg, err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"occupancy\" is not allowed with topology.kind = "
                                       "\"cascade\""));
    CU_ASSERT_EQUAL(config_load("conf/dragonfly_plus_small.cfg", occupancy, 1, &cfg, err), 0);
}

/* The shipped small Dragonfly+ (conf/dragonfly_plus_small.cfg: output-queued, min_choice
 * auto) under UN at offered 1.0: MIN accepts at least 90 % of the bound dfsim info states (1,
 * a node's link), FPAR too. Measured (2,000 + 4,000 cycles): MIN 0.96, FPAR 0.97; with
 * buffers.output = 32 (an output holds 4 packets and the crossbar waits for room) MIN
 * accepted 0.80 with either choice. */
static void test_shipped_reaches_bound(void)
{
    const char *mechanisms[] = {"routing.mechanism=min", "routing.mechanism=fpar"};
    for (int m = 0; m < 2; m++) {
        const char *sets[] = {mechanisms[m], "traffic.pattern=uniform", "traffic.load=1.0",
                              "sim.warmup_cycles=2000", "sim.measure_cycles=4000"};
        struct sim_config cfg;
        char err[CONFIG_ERROR_LEN];
        CU_ASSERT_EQUAL_FATAL(config_load("conf/dragonfly_plus_small.cfg", sets, 5, &cfg, err), 0);
        struct sim *sim = sim_create(&cfg, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        CU_ASSERT_EQUAL(sim->net.routing_env.min_choice, MIN_CHOICE_OCCUPANCY);
        struct bounds_throughput b;
        CU_ASSERT_EQUAL_FATAL(bounds_throughput(&cfg, &sim->net.topo, &b), 0);
        CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
        double accepted = dfp_accepted(sim);
        printf("\n    %s UN 1.0 on the shipped config: accepted %.4f of the bound %.4f (%.0f %%)",
               mechanisms[m] + 18, accepted, b.load, 100 * accepted / b.load);
        CU_ASSERT(accepted >= 0.90 * b.load);
        sim_destroy(sim);
    }
    printf("\n");
}

/* The bounds dfsim info prints for the small network: MIN under ADV+1 m / (leaves*p) =
 * 6/24, FPAR under ADV+1 (m + spines*h) / (2*leaves*p) = 30/48, FPAR under UN 1 (the global
 * links could carry 1.24), VAL under UN 1/(2 - 1/(groups-1)) = 4/7. */
static void test_bounds(void)
{
    static const struct {
        const char *mechanism, *pattern;
        double load;
    } cases[] = {{"min", "adversarial", 0.25},
                 {"fpar", "adversarial", 0.625},
                 {"fpar", "uniform", 1.0},
                 {"min", "uniform", 1.0},
                 {"valiant", "uniform", 4.0 / 7}};
    for (int i = 0; i < 5; i++) {
        struct dfp_variant v = {"", cases[i].mechanism, "group", 0, 0};
        struct sim_config cfg;
        struct sim *sim = dfp_sim(&cfg, &shapes[0], &v, cases[i].pattern, 0.1, 0, 10);
        struct bounds_throughput b;
        CU_ASSERT_EQUAL_FATAL(bounds_throughput(&cfg, &sim->net.topo, &b), 0);
        CU_ASSERT_DOUBLE_EQUAL(b.load, cases[i].load, 1e-9);
        sim_destroy(sim);
    }
}

/* FPAR against MIN on the small network (2,000 + 4,000 cycles). Group-to-group adversarial
 * (ADV+1) at offered 0.6: MIN accepts 0.243 (its bound 0.25: 6 links per group pair for 24
 * nodes), FPAR 0.600, all of it (bound 0.625), 62 % of its packets through an intermediate
 * group. UN: at offered 0.5 both accept everything (FPAR misroutes 1.3 %: a global link more
 * than about 60 % busy already shows 50 % credit occupancy); at offered 1.0 MIN accepts 0.807,
 * FPAR 0.816 (4 % misrouted). */
static void test_fpar_against_min(void)
{
    struct dfp_result min = dfp_run(&variants[0], "adversarial", 0.6);
    struct dfp_result fpar = dfp_run(&variants[3], "adversarial", 0.6);
    printf("\n    ADV+1 0.6: MIN %.4f, FPAR %.4f (%.1f %% misrouted)", min.accepted, fpar.accepted,
           100 * fpar.misrouted);
    CU_ASSERT(min.accepted <= 0.25 * 1.02);
    CU_ASSERT(fpar.accepted >= 2 * min.accepted);
    CU_ASSERT(fpar.accepted <= 0.625 * 1.02);
    const double loads[] = {0.5, 1.0};
    for (int i = 0; i < 2; i++) {
        min = dfp_run(&variants[0], "uniform", loads[i]);
        fpar = dfp_run(&variants[3], "uniform", loads[i]);
        printf("\n    UN %.1f: MIN %.4f, FPAR %.4f (%.1f %% misrouted)", loads[i], min.accepted,
               fpar.accepted, 100 * fpar.misrouted);
        CU_ASSERT(fpar.accepted >= 0.97 * min.accepted);
    }
    printf("\n");
}

/* FPAR keeps which output VCs are at most T occupied as credits change, so that a decision
 * need not score every legal port; a decision without that state (a mechanism outside a
 * network) scores them all. Both must choose the same port and VC and draw the same random
 * numbers: every head of every input of a congested run (ADV+1 at offered 0.8, where most
 * decisions find no minimal port at most T occupied) is decided both ways every 50 cycles,
 * from one routing stream, which is then put back so that the run goes on unperturbed. */
static void test_fpar_tracked_occupancy(void)
{
    struct sim_config cfg;
    struct sim *sim = dfp_sim(&cfg, &shapes[0], &variants[3], "adversarial", 0.8, 1000, 2000);
    struct network *net = &sim->net;
    CU_ASSERT_PTR_NOT_NULL_FATAL(net->routing_env.state);
    long compared = 0, differing = 0, drawing = 0, nonminimal = 0;
    for (int cycle = 1; cycle <= 3000 && sim_step(sim) == SIM_OK; cycle++) {
        if (cycle % 50)
            continue;
        for (int r = 0; r < net->topo.routers; r++) {
            const struct network_layout *layout = network_layout_of(net, r);
            for (int port = 0; port < layout->kind->radix; port++)
                for (int vc = 0; vc < layout->port_vcs[port]; vc++) {
                    const struct packet_ring *ring =
                        &net->input_vc[network_vc_index(net, r, port, vc)].ring;
                    if (!ring->count)
                        continue;
                    const struct packet *pk = network_packet(net, ring_front(ring));
                    struct route_ctx ctx;
                    struct route_choice tracked, scored;
                    struct rng before = net->routing_rng, after_tracked;
                    network_route_ctx(net, r, &ctx);
                    CU_ASSERT_EQUAL_FATAL(network_decide(net, &ctx, port, pk, &tracked), 0);
                    after_tracked = net->routing_rng;
                    net->routing_rng = before;
                    void *state = net->routing_env.state;
                    net->routing_env.state = NULL;
                    CU_ASSERT_EQUAL_FATAL(network_decide(net, &ctx, port, pk, &scored), 0);
                    net->routing_env.state = state;
                    bool same_draws = memcmp(&after_tracked, &net->routing_rng, sizeof before) == 0;
                    drawing += memcmp(&after_tracked, &before, sizeof before) != 0;
                    nonminimal += !((topology_min_ports(&net->topo, r,
                                                        topology_router_of_node(&net->topo,
                                                                                (int)pk->dst)) >>
                                     tracked.out_port) & 1);
                    differing += tracked.out_port != scored.out_port || tracked.vc != scored.vc ||
                                 tracked.ladder_pos != scored.ladder_pos || !same_draws;
                    compared++;
                    net->routing_rng = before;
                }
        }
    }
    printf("\n    %ld heads decided both ways (%ld drew, %ld nonminimal), %ld differed\n",
           compared, drawing, nonminimal, differing);
    CU_ASSERT_EQUAL(differing, 0);
    CU_ASSERT(compared > 1000);
    CU_ASSERT(drawing > 100);
    CU_ASSERT(nonminimal > 100);
    sim_destroy(sim);
}

/* The fairness figures compare the routers that have nodes: the spines inject nothing by
 * construction and must not show as starved. UN at offered 0.4 on the small network (2,000 +
 * 4,000 cycles), below saturation: every leaf injects about what it is offered, so Max/Min is
 * finite and near 1 and the least-served leaf gets most of the offered load. */
static void test_fairness_counts_leaves(void)
{
    struct sim_config cfg;
    struct sim *sim = dfp_sim(&cfg, &shapes[0], &variants[3], "uniform", 0.4, 2000, 4000);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    struct result res;
    CU_ASSERT_EQUAL_FATAL(sim_summarize(sim, &res), 0);
    const struct fairness *f = &res.fairness;
    printf("\n    UN 0.4: min injected %.4f of %.4f, Max/Min %.3f, CoV %.4f\n",
           f->min_injected_load, res.offered, f->max_min, f->cov);
    CU_ASSERT_EQUAL(f->starved_routers, 0);
    CU_ASSERT(f->max_min >= 1.0 && f->max_min < 1.3);
    CU_ASSERT(f->min_injected_load >= 0.85 * res.offered);
    CU_ASSERT(f->cov < 0.1);
    /* group 0's figures list its leaves, every one served */
    CU_ASSERT_EQUAL(res.a, shapes[0].leaves);
    for (int i = 0; i < res.a; i++)
        CU_ASSERT(res.group0_injected_load[i] >= 0.85 * res.offered);
    /* per_router_injected still lists every router by id: the spines' entries are 0 */
    int spine = sim->net.topo.group_first_router[0] + shapes[0].leaves;
    CU_ASSERT_EQUAL(res.per_router_injected[spine], 0);
    result_free(&res);
    sim_destroy(sim);
}

/* On a topology without leaves and spines FPAR has only minimal ports, on MIN's ladder:
 * the canonical dragonfly's runs equal MIN's. */
static void test_fpar_on_dragonfly_is_min(void)
{
    static const char *const patterns[] = {"traffic.pattern=uniform",
                                           "traffic.pattern=adversarial"};
    for (int i = 0; i < 2; i++) {
        uint64_t delivered[2], latency[2];
        for (int k = 0; k < 2; k++) {
            const char *ov[] = {"topology.p=2",
                                "topology.a=4",
                                "topology.h=2",
                                k ? "routing.mechanism=fpar" : "routing.mechanism=min",
                                patterns[i],
                                "traffic.load=0.5",
                                "sim.warmup_cycles=1000",
                                "sim.measure_cycles=2000"};
            struct sim_config cfg;
            char err[256];
            test_config(&cfg, ov, 8);
            CU_ASSERT_EQUAL(cfg.vcs.local, 2);
            CU_ASSERT_EQUAL(cfg.vcs.global, 1);
            struct sim *sim = sim_create(&cfg, err, sizeof err);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
            CU_ASSERT_EQUAL(sim_run(sim, NULL, NULL), SIM_OK);
            delivered[k] = sim->stats.delivered;
            latency[k] = sim->stats.latency_sum;
            sim_destroy(sim);
        }
        CU_ASSERT_EQUAL(delivered[0], delivered[1]);
        CU_ASSERT_EQUAL(latency[0], latency[1]);
    }
}

/* Every routing, with exactly the VCs its ladder needs, survives offered load 1.0 under UN
 * and ADV+1: the watchdog stays silent and the invariant recount (every VC on the ladder, no
 * packet or credit lost) passes every 25th cycle. On the linear small network and on a
 * sparse palmtree (spines without links to some groups; valiant is refused there). */
static void check_no_deadlock(const struct dfp_shape *s, const struct dfp_variant *v)
{
    static const char *const patterns[] = {"uniform", "adversarial"};
    for (int p = 0; p < 2; p++) {
        struct sim_config cfg;
        struct sim *sim = dfp_sim(&cfg, s, v, patterns[p], 1.0, 0, 6000);
        CU_ASSERT_EQUAL(sim->net.vcs_local, sim->net.ladder.local_vcs);
        CU_ASSERT_EQUAL(sim->net.vcs_global, sim->net.ladder.global_vcs);
        sim->check_invariants = true;
        sim->check_every = 25;
        enum sim_status status = sim_run(sim, NULL, NULL);
        if (status != SIM_OK)
            fprintf(stderr, "\n%s %s %s: %s\n", v->name, s->arrangement, patterns[p],
                    sim->net.message);
        CU_ASSERT_EQUAL(status, SIM_OK);
        sim->check_every = 1;
        CU_ASSERT_EQUAL(sim_check_invariants(sim), 0);
        CU_ASSERT(sim->stats.delivered > 1000);
        sim_destroy(sim);
    }
}

static void test_no_deadlock(void)
{
    for (int i = 0; i < N_VARIANTS; i++)
        check_no_deadlock(&shapes[0], &variants[i]);
    check_no_deadlock(&shapes[5], &variants[0]);
    check_no_deadlock(&shapes[5], &variants[3]);
}

/* `dfsim info` on the small network: sizes, FPAR's two-VL ladder and its bound. */
static void test_info(void)
{
    char out[4096];
    int rc = test_run_command("./dfsim info conf/dragonfly_plus_small.cfg --set "
                              "traffic.pattern=adversarial",
                              out, sizeof out);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "5 groups, 60 routers, 120 nodes, radix 10 (p=4 leaves=6 "
                                       "spines=6 h=4, linear)"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(out, "fpar: ladder l0 g0 l0 l1 g1 l1, needs 2 local and 2 global"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "accepted load <= 0.6250"));
}

int test_dragonfly_plus_register(void)
{
    static const struct test_case cases[] = {
        {"the study's system: 9 groups, 432 routers, 3456 nodes, radix 40", test_study_sizes},
        {"ports per class of leaves and spines", test_port_counts},
        {"links symmetric, bipartite groups, m links per group pair", test_wiring},
        {"linear and palmtree wiring formulas", test_arrangement_formulas},
        {"oracle = BFS over one global link, all router pairs, several sizes", test_oracle},
        {"oracle = BFS on the study's system", test_oracle_study},
        {"entry router and first global hop", test_path_queries},
        {"config errors: spread, arrangements, radix, routing, pattern", test_config_errors},
        {"shipped configs", test_shipped_configs},
        {"paths: ladder, length, where FPAR leaves the minimal path", test_paths},
        {"MIN spreads uniformly over the minimal spines", test_min_spread},
        {"min_choice occupancy: least occupied minimal port, spread within 10 %",
         test_min_choice_occupancy},
        {"MIN under UN accepts the offered load up to 0.7", test_min_uniform_accepts},
        {"min_choice auto: occupancy on Dragonfly+, hash elsewhere", test_min_choice_auto},
        {"shipped small config: MIN and FPAR reach 90 % of the UN bound",
         test_shipped_reaches_bound},
        {"bounds of MIN, VAL and FPAR", test_bounds},
        {"FPAR beats MIN under ADV+1, matches it under UN", test_fpar_against_min},
        {"FPAR on the canonical dragonfly equals MIN", test_fpar_on_dragonfly_is_min},
        {"fairness counts the leaves, not the spines", test_fairness_counts_leaves},
        {"FPAR's tracked occupancies choose as scoring every port", test_fpar_tracked_occupancy},
        {"no deadlock at offered 1.0, invariants clean", test_no_deadlock},
        {"dfsim info", test_info},
    };
    return test_add_suite("dragonfly_plus", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
