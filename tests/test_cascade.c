/* Cascade (Aries) topology: port layout, row and column wiring with parallel links, global
 * links spread evenly over the group pairs, the minimal-route oracle against breadth-first
 * search, dimension order inside groups, the config's checks. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Breadth-first distances to router dst over paths crossing at most one global link:
 * dist[r] from r before the global link, dist[n + r] after it (as in test_topology.c). */
static void bfs_one_global(const struct topology *t, int dst, int *dist, int *queue)
{
    int n = t->routers, head = 0, tail = 0;
    for (int i = 0; i < 2 * n; i++)
        dist[i] = -1;
    dist[dst] = dist[n + dst] = 0;
    queue[tail++] = dst;
    queue[tail++] = n + dst;
    while (head < tail) {
        int state = queue[head++], r = state % n, used = state / n;
        for (int port = t->kinds[0].first[PORT_LOCAL]; port < t->radix; port++) {
            int global = topology_port_class(t, r, port) == PORT_GLOBAL;
            if (global && used == 0)
                continue;
            int prev = topology_neighbour(t, r, port) + (used - global) * n;
            if (dist[prev] < 0) {
                dist[prev] = dist[state] + 1;
                queue[tail++] = prev;
            }
        }
    }
}

/* The ports of r one hop closer to dst (by BFS): exactly what min_ports must return. */
static uint64_t closer_ports(const struct topology *t, int r, const int *dist)
{
    uint64_t ports = 0;
    for (int port = t->kinds[0].first[PORT_LOCAL]; port < t->radix; port++) {
        int far = topology_neighbour(t, r, port);
        int after = topology_port_class(t, r, port) == PORT_GLOBAL ? t->routers + far : far;
        if (dist[after] == dist[r] - 1)
            ports |= 1ull << port;
    }
    return ports;
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
            bfs_one_global(&t, dst, dist, queue);
            for (int src = 0; src < n; src++) {
                if (src == dst) {
                    CU_ASSERT_EQUAL(topology_min_port(&t, src, dst), -1);
                    CU_ASSERT_EQUAL(topology_min_ports(&t, src, dst), 0);
                    continue;
                }
                uint64_t ports = topology_min_ports(&t, src, dst);
                mismatched_sets += ports != closer_ports(&t, src, dist);
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

/* The kind's check: radix, all-to-all, paired link ends, table size, arrangement. */
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

int test_cascade_register(void)
{
    static const struct test_case cases[] = {
        {"port layout: node, row, column, global ports", test_layout},
        {"links symmetric, row/column parallel links, group pairs joined evenly", test_links},
        {"oracle = BFS over one global link, min_ports = every closer hop, row before column",
         test_oracle},
        {"a path to a group's entry router lands on it", test_entry_router_reached_directly},
        {"config checks: radix, all-to-all, link ends, table size, arrangement", test_checks},
    };
    return test_add_suite("cascade", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
