/* Dragonfly+: the topology (port layout per router kind, link symmetry, links per group pair,
 * both arrangements' formulas, the minimal-route oracle against breadth-first search) and its
 * config errors. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing.h"
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

/* Breadth-first distances to router dst over paths crossing at most one global link:
 * dist[r] from r with its global link still to take, dist[routers + r] with it taken. */
static void dfp_bfs(const struct topology *t, int dst, int *dist, int *queue)
{
    int n = t->routers, head = 0, tail = 0;
    for (int i = 0; i < 2 * n; i++)
        dist[i] = -1;
    dist[dst] = dist[n + dst] = 0;
    queue[tail++] = dst;
    queue[tail++] = n + dst;
    while (head < tail) {
        int state = queue[head++], r = state % n, used = state / n;
        const struct router_kind *k = topology_kind_of(t, r);
        for (int port = k->first[PORT_LOCAL]; port < k->radix; port++) {
            int global = k->port_class[port] == PORT_GLOBAL;
            if (global && !used)
                continue;
            int prev = topology_neighbour(t, r, port) + (used - global) * n;
            if (dist[prev] < 0) {
                dist[prev] = dist[state] + 1;
                queue[tail++] = prev;
            }
        }
    }
}

/* Every port of src that leads one hop closer: the exact minimal first hops. */
static uint64_t dfp_closer_ports(const struct topology *t, int src, const int *dist)
{
    const struct router_kind *k = topology_kind_of(t, src);
    uint64_t ports = 0;
    for (int port = k->first[PORT_LOCAL]; port < k->radix; port++) {
        int far = topology_neighbour(t, src, port);
        int after = k->port_class[port] == PORT_GLOBAL ? t->routers + far : far;
        if (dist[after] >= 0 && dist[after] == dist[src] - 1)
            ports |= 1ull << port;
    }
    return ports;
}

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
 * path as long as BFS says, min_hops its counts. Leaves are at most l-g-l apart (diameter
 * 3); when every spine reaches every group so are all routers, else spines may be up to 5
 * hops apart. */
static void check_oracle(const struct dfp_shape *s, int reach_all)
{
    struct topology t;
    dfp_build(&t, s);
    int n = t.routers, longest = 0;
    int *dist = malloc(2 * (size_t)n * sizeof *dist),
        *queue = malloc(2 * (size_t)n * sizeof *queue);
    for (int dst = 0; dst < n; dst++) {
        dfp_bfs(&t, dst, dist, queue);
        for (int src = 0; src < n; src++) {
            if (src == dst) {
                CU_ASSERT_EQUAL(topology_min_port(&t, src, dst), -1);
                continue;
            }
            uint64_t ports = topology_min_ports(&t, src, dst);
            CU_ASSERT_EQUAL(ports, dfp_closer_ports(&t, src, dist));
            CU_ASSERT((ports >> topology_min_port(&t, src, dst)) & 1);
            int local, global, el, eg;
            dfp_follow(&t, src, dst, dist[src], &local, &global);
            CU_ASSERT_EQUAL(local + global, dist[src]);
            CU_ASSERT(global <= 1);
            topology_min_hops(&t, src, dst, &el, &eg);
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
    };
    return test_add_suite("dragonfly_plus", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
