/* Cascade (Aries) topology: port layout, row and column wiring with parallel links, global
 * links spread evenly over the group pairs, the minimal-route oracle against breadth-first
 * search, dimension order inside groups, the config's checks; and on the simulator: a
 * hand-computed zero-load ping-pong, the paths and VC ladders of every mechanism, and freedom
 * from deadlock at saturation with exactly the VCs of each ladder. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "sim.h"
#include "test_util.h"
#include "topology.h"

/* p, rows, cols, row_links, col_links, h, groups */
struct cascade_shape {
    int p, rows, cols, row_links, col_links, h, groups;
};

static const struct cascade_shape shapes[] = {
    {2, 2, 4, 1, 2, 2, 5}, /* conf/aries_small.cfg: 4 links per group pair */
    {1, 2, 2, 1, 1, 1, 4}, /* 4 links per group for 3 pairs: offset 2 gets the extra one */
    {1, 2, 3, 1, 3, 1, 5}, /* 6 links for 4 pairs: offsets 1 and 4 get 2, 2 and 3 get 1 */
    {2, 1, 4, 2, 1, 2, 3}, /* one row, double row links */
    {1, 3, 1, 1, 2, 1, 4}, /* one column */
    {1, 2, 2, 1, 1, 3, 3}, /* h > groups - 1: routers with several links to one group */
    {2, 3, 4, 1, 2, 2, 7}, /* 84 routers, 4 links per pair */
};
#define N_SHAPES (int)(sizeof shapes / sizeof shapes[0])

static void shape_overrides(const struct cascade_shape *s, char buf[7][48], const char **ov)
{
    snprintf(buf[0], 48, "topology.p=%d", s->p);
    snprintf(buf[1], 48, "topology.rows=%d", s->rows);
    snprintf(buf[2], 48, "topology.cols=%d", s->cols);
    snprintf(buf[3], 48, "topology.row_links=%d", s->row_links);
    snprintf(buf[4], 48, "topology.col_links=%d", s->col_links);
    snprintf(buf[5], 48, "topology.h=%d", s->h);
    snprintf(buf[6], 48, "topology.cascade_groups=%d", s->groups);
    for (int i = 0; i < 7; i++)
        ov[i] = buf[i];
}

static void build(struct topology *t, const struct cascade_shape *s)
{
    char buf[7][48], err[256];
    const char *ov[8];
    shape_overrides(s, buf, ov);
    ov[7] = "topology.kind=cascade";
    struct sim_config cfg;
    test_config(&cfg, ov, 8);
    if (topology_create(t, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "\ncascade: %s\n", err);
        CU_FAIL_FATAL("the cascade topology does not build");
    }
}

static int row_of(const struct cascade_shape *s, const struct topology *t, int r)
{
    return (r - t->group_first_router[topology_group_of_router(t, r)]) / s->cols;
}

static int col_of(const struct cascade_shape *s, const struct topology *t, int r)
{
    return (r - t->group_first_router[topology_group_of_router(t, r)]) % s->cols;
}

/* conf/aries.cfg: 6 groups of 6 x 16 routers, 4 nodes and 5 global links each. */
static void test_aries_sizes(void)
{
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN];
    CU_ASSERT_EQUAL_FATAL(config_load("conf/aries.cfg", NULL, 0, &cfg, err), 0);
    struct topology t;
    CU_ASSERT_EQUAL_FATAL(topology_create(&t, &cfg, err, sizeof err), 0);
    CU_ASSERT_EQUAL(t.groups, 6);
    CU_ASSERT_EQUAL(t.routers, 576);
    CU_ASSERT_EQUAL(t.nodes, 2304);
    CU_ASSERT_EQUAL(t.radix, 4 + 15 + 15 + 5);
    CU_ASSERT_STRING_EQUAL(t.shape, "p=4 rows=6 cols=16 links=1/3 h=5 groups=6");
    /* h = groups - 1: every router has one link to every other group, landing on the router
     * at its own index; Valiant's entry routers from a group into another are all 96. */
    for (int g = 1; g < t.groups; g++) {
        char seen[96] = {0};
        int distinct = 0;
        for (int r = 0; r < 96; r++) {
            int entry = topology_entry_router(&t, r, g) - t.group_first_router[g];
            distinct += !seen[entry];
            seen[entry] = 1;
            CU_ASSERT(topology_global_port_to_group(&t, r, g) >= 0);
        }
        CU_ASSERT_EQUAL(distinct, 96);
    }
    topology_free(&t);
}

/* Node ports, then the row ports (row_links per other router of the row, by column), then the
 * column ports (col_links per other router of the column, by row), then h global ports;
 * routers of a group numbered row by row; nodes of a router consecutive. */
static void test_layout(void)
{
    for (int s = 0; s < N_SHAPES; s++) {
        const struct cascade_shape *sh = &shapes[s];
        struct topology t;
        build(&t, sh);
        int row_ports = (sh->cols - 1) * sh->row_links, col_ports = (sh->rows - 1) * sh->col_links;
        CU_ASSERT_EQUAL(t.n_kinds, 1);
        CU_ASSERT_EQUAL(t.groups, sh->groups);
        CU_ASSERT_EQUAL(t.routers, sh->groups * sh->rows * sh->cols);
        CU_ASSERT_EQUAL(t.nodes, t.routers * sh->p);
        const struct router_kind *k = &t.kinds[0];
        CU_ASSERT_EQUAL(k->count[PORT_NODE], sh->p);
        CU_ASSERT_EQUAL(k->count[PORT_LOCAL], row_ports + col_ports);
        CU_ASSERT_EQUAL(k->count[PORT_GLOBAL], sh->h);
        CU_ASSERT_EQUAL(t.radix, sh->p + row_ports + col_ports + sh->h);
        for (int port = 0, c = 0; c < PORT_CLASSES; c++)
            for (int i = 0; i < k->count[c]; i++)
                CU_ASSERT_EQUAL(k->port_class[port++], c);
        for (int r = 0; r < t.routers; r++) {
            CU_ASSERT_EQUAL(t.port_base[r + 1], t.port_base[r] + (uint32_t)t.radix);
            CU_ASSERT_EQUAL(topology_group_of_router(&t, r), r / (sh->rows * sh->cols));
            for (int i = 0; i < sh->p; i++) {
                CU_ASSERT_EQUAL(topology_router_of_node(&t, r * sh->p + i), r);
                CU_ASSERT_EQUAL(topology_node_port(&t, r * sh->p + i), i);
            }
            int row = row_of(sh, &t, r), col = col_of(sh, &t, r), port = sh->p;
            for (int c = 0; c < sh->cols; c++)
                for (int l = 0; c != col && l < sh->row_links; l++, port++) {
                    int far = topology_neighbour(&t, r, port);
                    CU_ASSERT(row_of(sh, &t, far) == row && col_of(sh, &t, far) == c);
                }
            for (int w = 0; w < sh->rows; w++)
                for (int l = 0; w != row && l < sh->col_links; l++, port++) {
                    int far = topology_neighbour(&t, r, port);
                    CU_ASSERT(row_of(sh, &t, far) == w && col_of(sh, &t, far) == col);
                }
            CU_ASSERT_EQUAL(port, k->first[PORT_GLOBAL]);
        }
        topology_free(&t);
    }
}

/* Every link's far end points back with the same class; local links stay in the group and
 * join routers of one row (row_links of them per pair) or one column (col_links); global
 * links leave it; every pair of groups gets floor or ceil of rows*cols*h / (groups - 1)
 * links (the same number when groups - 1 divides it), symmetrically. */
static void test_links(void)
{
    for (int s = 0; s < N_SHAPES; s++) {
        const struct cascade_shape *sh = &shapes[s];
        struct topology t;
        build(&t, sh);
        int G = t.groups, per_group = sh->rows * sh->cols;
        int *pairs = calloc((size_t)G * (size_t)G, sizeof *pairs);
        int *local = calloc((size_t)per_group * (size_t)per_group, sizeof *local);
        for (int r = 0; r < t.routers; r++) {
            int g = topology_group_of_router(&t, r);
            for (int port = t.kinds[0].first[PORT_LOCAL]; port < t.radix; port++) {
                int far = topology_neighbour(&t, r, port);
                int far_port = topology_neighbour_port(&t, r, port);
                CU_ASSERT_FATAL(far >= 0 && far < t.routers && far != r);
                CU_ASSERT_EQUAL(topology_neighbour(&t, far, far_port), r);
                CU_ASSERT_EQUAL(topology_neighbour_port(&t, far, far_port), port);
                CU_ASSERT_EQUAL(topology_port_class(&t, far, far_port),
                                topology_port_class(&t, r, port));
                int fg = topology_group_of_router(&t, far);
                CU_ASSERT_EQUAL(g == fg, topology_port_class(&t, r, port) == PORT_LOCAL);
                if (g != fg)
                    pairs[g * G + fg]++;
                else if (g == 0)
                    local[r * per_group + far]++;
            }
        }
        for (int i = 0; i < per_group; i++)
            for (int j = 0; j < per_group; j++) {
                int same_row = i / sh->cols == j / sh->cols,
                    same_col = i % sh->cols == j % sh->cols;
                int expected = i == j ? 0 : same_row ? sh->row_links : same_col ? sh->col_links : 0;
                CU_ASSERT_EQUAL(local[i * per_group + j], expected);
            }
        int links = per_group * sh->h, least = links / (G - 1), total = 0;
        for (int d = 1; d < G; d++) {
            int n = pairs[d];
            CU_ASSERT(n == least || n == least + 1);
            if (links % (G - 1) == 0)
                CU_ASSERT_EQUAL(n, least);
            total += n;
            for (int g = 0; g < G; g++) /* the wiring looks the same from every group */
                CU_ASSERT_EQUAL(pairs[g * G + (g + d) % G], n);
        }
        CU_ASSERT_EQUAL(total, links);
        free(pairs);
        free(local);
        topology_free(&t);
    }
}

struct walk {
    int local, global, row_after_col;
};

/* Follows min_port from src to dst, counting hops by class and row hops taken after a
 * column hop inside one group (dimension order broken). */
static struct walk walk_min_path(const struct cascade_shape *sh, const struct topology *t, int src,
                                 int dst, int limit)
{
    struct walk w = {0, 0, 0};
    int r = src, col_seen = 0;
    while (r != dst && w.local + w.global <= limit) {
        int port = topology_min_port(t, r, dst), next = topology_neighbour(t, r, port);
        if (topology_port_class(t, r, port) == PORT_GLOBAL) {
            w.global++;
            col_seen = 0;
        } else {
            w.local++;
            int row_hop = row_of(sh, t, next) == row_of(sh, t, r);
            w.row_after_col += row_hop && col_seen;
            col_seen |= !row_hop;
        }
        r = next;
    }
    CU_ASSERT_EQUAL_FATAL(r, dst);
    return w;
}

/* From every router towards every other: min_port's path is as short as any crossing at most
 * one global link, min_ports is exactly the set of first hops one step closer (both
 * dimensions, every parallel link, every gateway), min_hops counts min_port's path, which is
 * dimension-ordered in each group (row hops before column hops) and at most l-l-g-l-l; inside
 * a group the distance is at most 2. */
static void test_oracle(void)
{
    for (int s = 0; s < N_SHAPES; s++) {
        const struct cascade_shape *sh = &shapes[s];
        struct topology t;
        build(&t, sh);
        int n = t.routers;
        int *dist = malloc(2 * (size_t)n * sizeof *dist),
            *queue = malloc(2 * (size_t)n * sizeof *queue);
        long mismatched_sets = 0, broken_order = 0, alternatives = 0;
        for (int dst = 0; dst < n; dst++) {
            test_bfs_one_global(&t, dst, dist, queue);
            for (int src = 0; src < n; src++) {
                if (src == dst) {
                    CU_ASSERT_EQUAL(topology_min_port(&t, src, dst), -1);
                    CU_ASSERT_EQUAL(topology_min_ports(&t, src, dst), 0);
                    continue;
                }
                uint64_t ports = topology_min_ports(&t, src, dst);
                mismatched_sets += ports != test_closer_ports(&t, src, dist);
                alternatives += __builtin_popcountll(ports) > 1;
                CU_ASSERT((ports >> topology_min_port(&t, src, dst)) & 1);
                struct walk w = walk_min_path(sh, &t, src, dst, dist[src]);
                CU_ASSERT_EQUAL(w.local + w.global, dist[src]);
                broken_order += w.row_after_col;
                int same_group =
                    topology_group_of_router(&t, src) == topology_group_of_router(&t, dst);
                CU_ASSERT(same_group ? w.global == 0 && w.local <= 2
                                     : w.global == 1 && w.local <= 4);
                int local, global;
                topology_min_hops(&t, src, dst, &local, &global);
                CU_ASSERT_EQUAL(local, w.local);
                CU_ASSERT_EQUAL(global, w.global);
            }
        }
        CU_ASSERT_EQUAL(mismatched_sets, 0);
        CU_ASSERT_EQUAL(broken_order, 0);
        CU_ASSERT(alternatives > 0);
        free(dist);
        free(queue);
        topology_free(&t);
    }
}

/* The walks along minimal paths: the path towards a group's entry router (Valiant's
 * intermediate) lands on it, without a local hop in that group. */
static void test_entry_router_reached_directly(void)
{
    for (int s = 0; s < N_SHAPES; s++) {
        const struct cascade_shape *sh = &shapes[s];
        struct topology t;
        build(&t, sh);
        long local_hops_in_group = 0;
        for (int r = 0; r < t.routers; r++)
            for (int g = 0; g < t.groups; g++) {
                if (g == topology_group_of_router(&t, r))
                    continue;
                int entry = topology_entry_router(&t, r, g);
                CU_ASSERT_EQUAL(topology_group_of_router(&t, entry), g);
                for (int x = r; x != entry;) {
                    int port = topology_min_port(&t, x, entry);
                    local_hops_in_group += topology_group_of_router(&t, x) == g;
                    x = topology_neighbour(&t, x, port);
                }
                int gw, port;
                topology_min_global_hop(&t, r, entry, &gw, &port);
                CU_ASSERT_EQUAL(topology_neighbour(&t, gw, port), entry);
            }
        CU_ASSERT_EQUAL(local_hops_in_group, 0);
        topology_free(&t);
    }
}

/* The kind's check: radix, all-to-all, paired link ends, table size and build time,
 * arrangement. */
static void test_checks(void)
{
    static const struct {
        const char *ov[6];
        const char *key, *text;
    } cases[] = {
        {{"topology.cols=40", "topology.rows=10", "topology.h=2", "topology.p=2"},
         "topology.cols",
         "radix p + (cols-1)*row_links + (rows-1)*col_links + h = 70 is too large"},
        {{"topology.rows=1", "topology.cols=2", "topology.h=1", "topology.cascade_groups=4"},
         "topology.cascade_groups",
         "4 groups cannot be all-to-all with rows*cols*h = 2"},
        {{"topology.rows=1", "topology.cols=3", "topology.h=1", "topology.cascade_groups=3"},
         "topology.cascade_groups",
         "expected cascade_groups * rows * cols * h even"},
        {{"topology.rows=8", "topology.cols=16", "topology.col_links=1", "topology.h=40",
          "topology.p=1", "topology.cascade_groups=1025"},
         "topology.cascade_groups",
         "route tables of (rows*cols)^2 * cascade_groups = 16793600"},
        {{"topology.rows=16", "topology.cols=32", "topology.col_links=1", "topology.h=10",
          "topology.p=1", "topology.cascade_groups=2"},
         "topology.h",
         "route tables of (rows*cols)^2 * rows*cols*h = 1342177280 steps take too long"},
        {{"topology.arrangement=consecutive"},
         "topology.arrangement",
         "'consecutive' is a dragonfly arrangement"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *ov[7] = {"topology.kind=cascade"};
        int n = 1;
        for (int k = 0; k < 6 && cases[i].ov[k]; k++)
            ov[n++] = cases[i].ov[k];
        struct sim_config cfg;
        char err[CONFIG_ERROR_LEN] = "";
        CU_ASSERT_EQUAL(config_load(NULL, ov, n, &cfg, err), -1);
        if (!strstr(err, cases[i].key) || !strstr(err, cases[i].text))
            fprintf(stderr, "\ncase %zu: %s\n", i, err);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].key));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].text));
    }
    /* The dragonfly ignores the cascade's settings and vice versa. */
    struct sim_config cfg;
    const char *ov[] = {"topology.cascade_groups=1000", "topology.cols=64"};
    char err[CONFIG_ERROR_LEN];
    CU_ASSERT_EQUAL(config_load(NULL, ov, 2, &cfg, err), 0);
}

/* ---- on the simulator ---- */

#define SMALL_CASCADE                                                                              \
    "topology.kind=cascade", "topology.p=2", "topology.h=2", "topology.rows=2", "topology.cols=4", \
        "topology.col_links=2", "topology.cascade_groups=5"

static struct sim *cascade_sim(struct sim_config *cfg, const char *const *extra, int n_extra)
{
    const char *ov[24] = {SMALL_CASCADE};
    int n = 7;
    for (int i = 0; i < n_extra; i++)
        ov[n++] = extra[i];
    char err[256];
    test_config(cfg, ov, n);
    struct sim *sim = sim_create(cfg, err, sizeof err);
    if (!sim)
        fprintf(stderr, "\ncascade_sim: %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    return sim;
}

/* MIN's bounds under ADV+1 and ADVc count the global links the cascade has between groups
 * (4 per pair here: 8 routers x 2 links over 4 other groups), not one per pair: 4/16 and, ADVc
 * targeting the 2 next groups, 8/16 phits/node/cycle; a saturated run stays within them and
 * close to them (a bound of 1/(a*p) = 0.125 for ADVc was below what MIN carries). */
static void test_minimal_adversarial_bounds(void)
{
    static const struct {
        const char *pattern;
        double bound;
    } cases[] = {{"traffic.pattern=adversarial", 4.0 / 16},
                 {"traffic.pattern=adversarial_consecutive", 8.0 / 16}};
    for (int i = 0; i < 2; i++) {
        struct sim_config cfg;
        const char *extra[] = {"routing.mechanism=min", cases[i].pattern, "traffic.load=0.8",
                               "sim.warmup_cycles=2000", "sim.measure_cycles=3000"};
        struct sim *sim = cascade_sim(&cfg, extra, 5);
        struct bounds_throughput b;
        CU_ASSERT_EQUAL_FATAL(bounds_throughput(&cfg, &sim->net.topo, &b), 0);
        CU_ASSERT_DOUBLE_EQUAL(b.load, cases[i].bound, 1e-12);
        CU_ASSERT_EQUAL(sim_run(sim, NULL, NULL), SIM_OK);
        struct result res;
        CU_ASSERT_EQUAL_FATAL(sim_summarize(sim, &res), 0);
        CU_ASSERT(res.accepted <= b.load * 1.01);
        CU_ASSERT(res.accepted >= b.load * 0.85);
        result_free(&res);
        sim_destroy(sim);
    }
}

/* Steps until the packet count delivered reaches `count`; returns the cycle it happened. */
static uint64_t step_until_delivered(struct sim *sim, uint64_t count)
{
    while (sim->net.counts.total_delivered < count) {
        CU_ASSERT_EQUAL_FATAL(sim_step(sim), SIM_OK);
        CU_ASSERT_FATAL(sim->net.cycle < 1000);
    }
    return sim->net.cycle - 1;
}

/* Zero-load ping-pong inside a group of the small cascade (2 rows x 4 routers), by the
 * timing conventions of routers/README.md (router.latency 5, local links 10, injection and
 * ejection links 1, packets of 8 phits): a packet generated at t is in its injection queue at t +
 * 1; each router it crosses sends its head 5 cycles after the head arrived; each local link adds
 * 10; the tail reaches the node 1 + 7 cycles after the head leaves the last router. One way over
 * one local hop: 1 + 5 + 10 + 5 + 8 = 29 cycles; over two (row, then column): 1 + 5 + 10 + 5
 * + 10 + 5 + 8 = 44. The pong leaves the cycle after the ping's tail arrives (generation
 * precedes delivery within a cycle): round trip 44 + 1 + 44 = 89. */
static void test_zero_load_ping_pong(void)
{
    static const struct {
        int src_router, dst_router, one_way;
    } pairs[] = {
        {0, 3, 29}, /* row 0: columns 0 and 3, one row link */
        {1, 5, 29}, /* column 1: rows 0 and 1, one of two parallel column links */
        {0, 6, 44}, /* row 0 column 0 to row 1 column 2: row, then column */
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct sim_config cfg;
        const char *extra[] = {"traffic.load=0", "sim.warmup_cycles=0", "routing.mechanism=min"};
        struct sim *sim = cascade_sim(&cfg, extra, 3);
        uint32_t ping_src = (uint32_t)pairs[i].src_router * 2,
                 ping_dst = (uint32_t)pairs[i].dst_router * 2 + 1;
        int local, global;
        topology_min_hops(&sim->net.topo, pairs[i].src_router, pairs[i].dst_router, &local,
                          &global);
        CU_ASSERT_EQUAL(global, 0);
        CU_ASSERT_EQUAL(local, pairs[i].one_way == 29 ? 1 : 2);
        CU_ASSERT_EQUAL_FATAL(network_inject(&sim->net, ping_src, ping_dst), 0);
        uint64_t ping_arrives = step_until_delivered(sim, 1);
        CU_ASSERT_EQUAL(ping_arrives, (uint64_t)pairs[i].one_way);
        CU_ASSERT_EQUAL(sim->stats.latency_sum, (uint64_t)pairs[i].one_way);
        CU_ASSERT_EQUAL_FATAL(network_inject(&sim->net, ping_dst, ping_src),
                              0); /* at ping_arrives + 1 */
        uint64_t pong_arrives = step_until_delivered(sim, 2);
        CU_ASSERT_EQUAL(pong_arrives, 2 * (uint64_t)pairs[i].one_way + 1);
        CU_ASSERT_EQUAL(sim_check_invariants(sim), 0);
        sim_destroy(sim);
    }
}

struct variant {
    const char *name, *mechanism, *policy, *valiant_target;
    int max_hops, max_local_per_group;
};

/* Path bounds on the cascade: a minimal segment takes at most 2 local hops per group; VAL
 * lands on its intermediate (l-l-g-l-l-g-l-l); VAL-any, oblivious and PB reach a router of the
 * intermediate group and leave it (up to 4 local hops there); in-transit adds an NRG hop in
 * the source group and one local misroute before up to 3 minimal hops elsewhere. */
static const struct variant variants[] = {
    {"MIN", "min", "rrg", "group", 5, 2},
    {"VAL", "valiant", "rrg", "group", 8, 2},
    {"VAL-any", "valiant", "rrg", "router", 10, 4},
    {"Obl-CRG", "oblivious", "crg", "group", 10, 4},
    {"Obl-RRG", "oblivious", "rrg", "group", 10, 4},
    {"PB-CRG", "piggyback", "crg", "group", 10, 4},
    {"PB-RRG", "piggyback", "rrg", "group", 10, 4},
    {"IT-CRG", "in_transit", "crg", "group", 13, 4},
    {"IT-RRG", "in_transit", "rrg", "group", 13, 4},
    {"IT-NRG", "in_transit", "nrg", "group", 13, 4},
    {"IT-MM", "in_transit", "mm", "group", 13, 4},
};
#define N_VARIANTS (int)(sizeof variants / sizeof variants[0])

struct hop_trace {
    int hops, last_pos, group, local_in_group, landed_on_target;
};

struct observer {
    const struct variant *v;
    struct hop_trace *traces;
    uint32_t len;
    long packets, errors_ladder, errors_hops, errors_group, errors_reach, errors_val_landing;
    long val_own_link, errors_val_own_link; /* VAL packets whose source router links to the
                                               intermediate group; those that left another way */
};

static struct hop_trace *trace_of(struct observer *ob, const struct network *net, uint32_t index)
{
    if (index >= ob->len)
        test_grow_zeroed((void **)&ob->traces, &ob->len, net->pool.capacity, sizeof *ob->traces);
    return &ob->traces[index];
}

/* A hop's VC is its ladder entry's (a local misroute of in_transit: the last local entry at
 * or before its position); positions never go back. */
static int on_ladder(const struct network *net, int cls, const struct route_choice *ch,
                     int last_pos)
{
    const struct vc_ladder *l = &net->ladder;
    if (ch->ladder_pos < last_pos || ch->ladder_pos == 0 || ch->ladder_pos > l->length)
        return 0;
    if (cls == PORT_GLOBAL)
        return ch->ladder_pos > last_pos && l->port_class[ch->ladder_pos - 1] == PORT_GLOBAL &&
               l->vc[ch->ladder_pos - 1] == ch->vc;
    for (int e = ch->ladder_pos - 1; e >= 0; e--)
        if (l->port_class[e] == PORT_LOCAL)
            return l->vc[e] == ch->vc && ch->vc < net->vcs_local;
    return 0;
}

static void observe_hop(void *ctx, const struct network *net, int router, int in_port,
                        uint32_t index, const struct route_choice *ch)
{
    struct observer *ob = ctx;
    const struct packet *pk = &net->pool.packets[index];
    const struct topology *t = &net->topo;
    struct hop_trace *tr = trace_of(ob, net, index);
    int group = topology_group_of_router(t, router);
    int cls = network_port_class(net, router, ch->out_port);
    if (network_port_class(net, router, in_port) == PORT_NODE) {
        memset(tr, 0, sizeof *tr);
        tr->group = group;
        /* VAL: a source router with a global link of its own into the intermediate group
         * takes it (any other entry adds a local hop in the source group). */
        if (strcmp(ob->v->mechanism, "valiant") == 0 &&
            strcmp(ob->v->valiant_target, "group") == 0 && pk->target >= 0) {
            int own = topology_global_port_to_group(t, router,
                                                    topology_group_of_router(t, pk->target));
            if (own >= 0) {
                ob->val_own_link++;
                ob->errors_val_own_link += ch->out_port != own;
            }
        }
    }
    if (cls == PORT_NODE) {
        ob->packets++;
        ob->errors_reach += router != topology_router_of_node(t, (int)pk->dst);
        ob->errors_hops += tr->hops > ob->v->max_hops;
        return;
    }
    /* VAL: the packet's target (its intermediate) is reached as it enters the group. */
    if (strcmp(ob->v->mechanism, "valiant") == 0 && strcmp(ob->v->valiant_target, "group") == 0 &&
        pk->target >= 0 && cls == PORT_LOCAL && group == topology_group_of_router(t, pk->target) &&
        group != tr->group)
        ob->errors_val_landing++;
    tr->hops++;
    ob->errors_ladder += !on_ladder(net, cls, ch, tr->last_pos);
    tr->last_pos = ch->ladder_pos;
    if (cls == PORT_GLOBAL) {
        tr->group = topology_group_of_router(t, topology_neighbour(t, router, ch->out_port));
        tr->local_in_group = 0;
    } else if (++tr->local_in_group > ob->v->max_local_per_group) {
        ob->errors_group++;
    }
}

static struct sim *variant_sim(struct sim_config *cfg, const struct variant *v, const char *pattern,
                               const char *load, int cycles)
{
    char mech[64], pol[64], vt[64], cyc[64];
    snprintf(mech, sizeof mech, "routing.mechanism=%s", v->mechanism);
    snprintf(pol, sizeof pol, "routing.global_policy=%s", v->policy);
    snprintf(vt, sizeof vt, "routing.valiant_target=%s", v->valiant_target);
    snprintf(cyc, sizeof cyc, "sim.measure_cycles=%d", cycles);
    const char *extra[] = {mech,
                           pol,
                           vt,
                           pattern,
                           load,
                           cyc,
                           "sim.warmup_cycles=0",
                           "sim.deadlock_cycles=2000",
                           "buffers.injection=64"};
    return cascade_sim(cfg, extra, (int)(sizeof extra / sizeof extra[0]));
}

/* Every mechanism on the cascade: each hop on its VC ladder, every packet at its destination
 * within the path bounds above, VAL landing on its intermediate; with exactly its ladder's
 * VCs, at offered load 1.0 under UN, ADV+1 and ADVc: no deadlock, and the invariants hold
 * every 10th cycle and at the end. */
static void test_paths_and_no_deadlock(void)
{
    const char *patterns[] = {"traffic.pattern=uniform", "traffic.pattern=adversarial",
                              "traffic.pattern=adversarial_consecutive"};
    for (int i = 0; i < N_VARIANTS; i++)
        for (int p = 0; p < 3; p++) {
            struct sim_config cfg;
            struct observer ob = {.v = &variants[i]};
            struct sim *sim =
                variant_sim(&cfg, &variants[i], patterns[p], "traffic.load=1.0", 4000);
            CU_ASSERT_EQUAL(sim->net.vcs_local, sim->net.ladder.local_vcs);
            CU_ASSERT_EQUAL(sim->net.vcs_global, sim->net.ladder.global_vcs);
            sim->net.on_hop = observe_hop;
            sim->net.on_hop_ctx = &ob;
            sim->check_invariants = true;
            sim->check_every = 10;
            enum sim_status status = sim_run(sim, NULL, NULL);
            if (status != SIM_OK || ob.errors_ladder || ob.errors_hops || ob.errors_group ||
                ob.errors_reach || ob.errors_val_landing || ob.errors_val_own_link)
                fprintf(stderr,
                        "\n%s %s: status %d (%s) ladder %ld hops %ld group %ld reach %ld "
                        "val-landing %ld val-own-link %ld\n",
                        variants[i].name, patterns[p], status, sim->net.message, ob.errors_ladder,
                        ob.errors_hops, ob.errors_group, ob.errors_reach, ob.errors_val_landing,
                        ob.errors_val_own_link);
            CU_ASSERT_EQUAL(status, SIM_OK);
            CU_ASSERT(ob.packets > 1000);
            CU_ASSERT_EQUAL(ob.errors_ladder, 0);
            CU_ASSERT_EQUAL(ob.errors_hops, 0);
            CU_ASSERT_EQUAL(ob.errors_group, 0);
            CU_ASSERT_EQUAL(ob.errors_reach, 0);
            CU_ASSERT_EQUAL(ob.errors_val_landing, 0);
            CU_ASSERT_EQUAL(ob.errors_val_own_link, 0);
            if (strcmp(variants[i].name, "VAL") == 0)
                CU_ASSERT(ob.val_own_link > 100); /* the check above did look at packets */
            sim->check_every = 1;
            CU_ASSERT_EQUAL(sim_check_invariants(sim), 0);
            free(ob.traces);
            sim_destroy(sim);
        }
}

/* A path turning at its intermediate starts a new segment: after a local hop on a VC that the
 * next entries repeat, past them; after a global hop, or on ladders without repeated local
 * VCs (every dragonfly one), where it is. */
static void test_ladder_segment_start(void)
{
    struct vc_ladder cascade, dragonfly, broken;
    ladder_parse(&cascade, "l0 l0 g0 l1 l1 l2 l2 g1 l3 l3");
    ladder_parse(&dragonfly, "l0 g0 l1 l2 g1 l3");
    ladder_parse(&broken, "l0 g0 l0 g0 l0");
    CU_ASSERT_EQUAL(ladder_segment_start(&cascade, 3), 3); /* landed on it: l1 l1 ahead */
    CU_ASSERT_EQUAL(ladder_segment_start(&cascade, 4), 5); /* one hop on l1: start on l2 */
    CU_ASSERT_EQUAL(ladder_segment_start(&cascade, 5), 5); /* two hops on l1 */
    CU_ASSERT_EQUAL(ladder_segment_start(&cascade, 1), 2);
    for (int pos = 0; pos <= dragonfly.length; pos++)
        CU_ASSERT_EQUAL(ladder_segment_start(&dragonfly, pos), pos);
    for (int pos = 0; pos <= broken.length; pos++)
        CU_ASSERT_EQUAL(ladder_segment_start(&broken, pos), pos);
}

/* MIN's accepted load under ADV+1 is bounded by the links between two groups: 4 per pair on
 * the small cascade, for its 16 nodes: 4/16 = 0.25. And the run says so. */
static void test_min_adversarial_bound(void)
{
    struct sim_config cfg;
    const char *extra[] = {"routing.mechanism=min", "traffic.pattern=adversarial",
                           "traffic.load=0.6", "sim.warmup_cycles=2000", "sim.measure_cycles=4000"};
    struct sim *sim = cascade_sim(&cfg, extra, 5);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    double accepted = (double)sim->stats.delivered_phits / (sim->net.topo.nodes * 4000.0);
    printf("\n    MIN ADV+1 0.6 on the small cascade: accepted %.4f (bound 4/16 = 0.25)\n",
           accepted);
    CU_ASSERT(accepted <= 0.25 * 1.01);
    CU_ASSERT(accepted >= 0.25 * 0.85);
    sim_destroy(sim);
}

/* The minimal first hops a per-hop choice (MIN's hash, FPAR) may take: from every router
 * towards every other, min_ports without its column ports where a row port is minimal (so
 * every parallel link and gateway of the other hops is kept), never empty; and after any of
 * them that is a column hop, no row hop is minimal, so no path of such choices takes a column
 * hop then a row hop in one group (they would share a VC of the ladder "lk lk": deadlock). */
static void test_ordered_min_ports(void)
{
    for (int s = 0; s < N_SHAPES; s++) {
        const struct cascade_shape *sh = &shapes[s];
        struct topology t;
        build(&t, sh);
        long wrong_sets = 0, row_after_col = 0, pruned = 0;
        for (int src = 0; src < t.routers; src++)
            for (int dst = 0; dst < t.routers; dst++) {
                if (src == dst)
                    continue;
                uint64_t all = topology_min_ports(&t, src, dst), row = 0, col = 0;
                uint64_t ordered = topology_ordered_min_ports(&t, src, dst);
                for (uint64_t m = all; m; m &= m - 1) {
                    int port = __builtin_ctzll(m), next = topology_neighbour(&t, src, port);
                    if (topology_port_class(&t, src, port) != PORT_LOCAL)
                        continue;
                    *(row_of(sh, &t, next) == row_of(sh, &t, src) ? &row : &col) |= 1ull << port;
                }
                wrong_sets += ordered != (row ? all & ~col : all) || !ordered;
                pruned += ordered != all;
                for (uint64_t m = ordered & col; m; m &= m - 1) {
                    int next = topology_neighbour(&t, src, __builtin_ctzll(m));
                    for (uint64_t n = topology_min_ports(&t, next, dst); n; n &= n - 1) {
                        int port = __builtin_ctzll(n), after = topology_neighbour(&t, next, port);
                        row_after_col += topology_port_class(&t, next, port) == PORT_LOCAL &&
                                         row_of(sh, &t, after) == row_of(sh, &t, next);
                    }
                }
            }
        CU_ASSERT_EQUAL(wrong_sets, 0);
        CU_ASSERT_EQUAL(row_after_col, 0);
        CU_ASSERT(sh->rows == 1 || sh->cols == 1 || pruned > 0);
        topology_free(&t);
    }
}

struct order_trace {
    int last_class, last_vc, last_row;
};

struct order_observer {
    struct order_trace *traces;
    uint32_t len;
    long packets, local_pairs, errors_shared_vc;
};

/* Two consecutive local hops on one VC must be a row hop then a column hop. */
static void observe_order(void *ctx, const struct network *net, int router, int in_port,
                          uint32_t index, const struct route_choice *ch)
{
    struct order_observer *ob = ctx;
    const struct topology *t = &net->topo;
    if (index >= ob->len)
        test_grow_zeroed((void **)&ob->traces, &ob->len, net->pool.capacity, sizeof *ob->traces);
    struct order_trace *tr = &ob->traces[index];
    if (network_port_class(net, router, in_port) == PORT_NODE)
        memset(tr, 0, sizeof *tr);
    int cls = network_port_class(net, router, ch->out_port);
    if (cls == PORT_NODE) {
        ob->packets++;
        return;
    }
    int next = topology_neighbour(t, router, ch->out_port);
    int row = cls == PORT_LOCAL && row_of(&shapes[0], t, next) == row_of(&shapes[0], t, router);
    if (cls == PORT_LOCAL && tr->last_class == PORT_LOCAL && tr->last_vc == ch->vc) {
        ob->local_pairs++;
        ob->errors_shared_vc += !(tr->last_row && !row);
    }
    tr->last_class = cls;
    tr->last_vc = ch->vc;
    tr->last_row = row;
}

/* The reproduction of the MIN deadlock on the cascade: one job sending uniformly among the 16
 * nodes of group 0 of conf/aries_small.cfg at 1.0. MIN took a column hop before a row hop on
 * l0 (about 2,000 such pairs in 40,000 cycles; seeds 2 and 3 hit the watchdog), FPAR too. Now
 * for MIN and FPAR, seeds 1 to 3: hops sharing a VC are always row then column, no deadlock. */
static void test_group_job_dimension_order(void)
{
    static const char job[] =
        "topology = { kind = \"cascade\"; p = 2; h = 2; rows = 2; cols = 4; row_links = 1;\n"
        "             col_links = 2; cascade_groups = 5; };\n"
        "traffic = { packet_size = 8; };\n"
        "sim = { warmup_cycles = 0; measure_cycles = 6000; deadlock_cycles = 2000; };\n"
        "jobs = ( { name = \"g0\"; nodes = 16; placement = \"groups\"; groups = [0];\n"
        "           pattern = \"uniform\"; load = 1.0; } );\n";
    static const char *const mechanisms[] = {"routing.mechanism=min", "routing.mechanism=fpar"};
    static const char *const seeds[] = {"sim.seed=1", "sim.seed=2", "sim.seed=3"};
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "cascade_order"), 0);
    for (int m = 0; m < 2; m++)
        for (int s = 0; s < 3; s++) {
            const char *extra[] = {mechanisms[m], seeds[s]};
            struct sim_config cfg;
            char err[256];
            test_load_config_text(dir, "g0.cfg", job, extra, 2, &cfg);
            struct sim *sim = sim_create(&cfg, err, sizeof err);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
            struct order_observer ob = {0};
            sim->net.on_hop = observe_order;
            sim->net.on_hop_ctx = &ob;
            enum sim_status status = sim_run(sim, NULL, NULL);
            printf("\n    %s %s: status %d, %ld packets, %ld local pairs on one VC, %ld column "
                   "then row",
                   mechanisms[m] + 8, seeds[s], status, ob.packets, ob.local_pairs,
                   ob.errors_shared_vc);
            CU_ASSERT_EQUAL(status, SIM_OK);
            CU_ASSERT(ob.packets > 1000);
            CU_ASSERT(ob.local_pairs > 100);
            CU_ASSERT_EQUAL(ob.errors_shared_vc, 0);
            free(ob.traces);
            sim_destroy(sim);
        }
    printf("\n");
    test_tmpdir_remove(dir);
}

int test_cascade_register(void)
{
    static const struct test_case cases[] = {
        {"conf/aries.cfg sizes", test_aries_sizes},
        {"port layout: node, row, column, global ports", test_layout},
        {"links symmetric, row/column parallel links, group pairs joined evenly", test_links},
        {"oracle = BFS over one global link, min_ports = every closer hop, row before column",
         test_oracle},
        {"a path to a group's entry router lands on it", test_entry_router_reached_directly},
        {"MIN under ADV+1 and ADVc: bounds count the links between groups",
         test_minimal_adversarial_bounds},
        {"config checks: radix, all-to-all, link ends, table size, arrangement", test_checks},
        {"zero-load ping-pong in a group, hand-computed", test_zero_load_ping_pong},
        {"every mechanism: paths, ladders, no deadlock at 1.0 (UN, ADV+1, ADVc)",
         test_paths_and_no_deadlock},
        {"MIN under ADV+1 bounded by the links of a group pair", test_min_adversarial_bound},
        {"a turn at the intermediate starts a new ladder segment", test_ladder_segment_start},
        {"ordered_min_ports: no column hop where a row hop is minimal", test_ordered_min_ports},
        {"MIN, FPAR: a job inside group 0 at 1.0 keeps row then column, no deadlock",
         test_group_job_dimension_order},
    };
    return test_add_suite("cascade", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
