/* Topology: the generic layout (kinds, per-router port tables, node and group numbering),
 * wiring symmetry, the dragonfly's palmtree ownership and the minimal-route oracle, checked
 * against breadth-first search on the wiring. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "topology.h"

static const int shapes[][3] = {{2, 4, 2}, {1, 2, 1}, {3, 6, 3}, {6, 12, 6}, {2, 3, 5}};
#define N_SHAPES (int)(sizeof shapes / sizeof shapes[0])

static void build(struct topology *t, const int *s, enum topology_arrangement arr)
{
    test_dragonfly(t, s[0], s[1], s[2], arr);
}

static void test_sizes(void)
{
    struct topology t;
    build(&t, shapes[3], ARRANGEMENT_PALMTREE);
    CU_ASSERT_EQUAL(t.groups, 73);
    CU_ASSERT_EQUAL(t.routers, 876);
    CU_ASSERT_EQUAL(t.nodes, 5256);
    CU_ASSERT_EQUAL(t.radix, 23);
    CU_ASSERT_EQUAL(t.n_kinds, 1);
    CU_ASSERT_STRING_EQUAL(t.shape, "p=6 a=12 h=6");
    topology_free(&t);
}

/* The generic arrays agree with each other: port classes contiguous in node, local, global
 * order; port_base the running sum of radices; every node on a node port of its router;
 * routers of a group consecutive. */
static void test_layout(void)
{
    for (int s = 0; s < N_SHAPES; s++) {
        struct topology t;
        build(&t, shapes[s], ARRANGEMENT_PALMTREE);
        for (int k = 0; k < t.n_kinds; k++) {
            const struct router_kind *kind = &t.kinds[k];
            int port = 0;
            for (int c = 0; c < PORT_CLASSES; c++) {
                CU_ASSERT_EQUAL(kind->first[c], port);
                for (int i = 0; i < kind->count[c]; i++)
                    CU_ASSERT_EQUAL(kind->port_class[port++], c);
            }
            CU_ASSERT_EQUAL(kind->radix, port);
        }
        CU_ASSERT_EQUAL(t.port_base[0], 0u);
        for (int r = 0; r < t.routers; r++) {
            const struct router_kind *kind = topology_kind_of(&t, r);
            CU_ASSERT_EQUAL(t.port_base[r + 1], t.port_base[r] + (uint32_t)kind->radix);
            for (int i = 0; i < kind->count[PORT_NODE]; i++) {
                int n = t.first_node[r] + i;
                CU_ASSERT_EQUAL(topology_router_of_node(&t, n), r);
                CU_ASSERT_EQUAL(topology_node_port(&t, n), i);
            }
            int g = topology_group_of_router(&t, r);
            CU_ASSERT(r >= t.group_first_router[g] && r < t.group_first_router[g + 1]);
            CU_ASSERT_EQUAL(topology_group_first_router(&t, g), t.group_first_router[g]);
        }
        CU_ASSERT_EQUAL(t.group_first_router[t.groups], t.routers);
        topology_free(&t);
    }
}

/* Every link's far end points back to the same router and port with the same class, local
 * links stay in the group, global links leave it, and every pair of groups is joined exactly
 * once. */
static void check_symmetry(enum topology_arrangement arr)
{
    for (int s = 0; s < N_SHAPES; s++) {
        struct topology t;
        build(&t, shapes[s], arr);
        int G = t.groups;
        int *pairs = calloc((size_t)G * (size_t)G, sizeof *pairs);
        for (int r = 0; r < t.routers; r++) {
            const struct router_kind *kind = topology_kind_of(&t, r);
            for (int port = kind->first[PORT_LOCAL]; port < kind->radix; port++) {
                int far = topology_neighbour(&t, r, port);
                int far_port = topology_neighbour_port(&t, r, port);
                CU_ASSERT_FATAL(far >= 0 && far < t.routers);
                CU_ASSERT_EQUAL(topology_neighbour(&t, far, far_port), r);
                CU_ASSERT_EQUAL(topology_neighbour_port(&t, far, far_port), port);
                CU_ASSERT_EQUAL(topology_port_class(&t, far, far_port),
                                topology_port_class(&t, r, port));
                int g = topology_group_of_router(&t, r), fg = topology_group_of_router(&t, far);
                CU_ASSERT_EQUAL(g == fg, topology_port_class(&t, r, port) == PORT_LOCAL);
                if (g != fg)
                    pairs[g * G + fg]++;
            }
            for (int port = 0; port < kind->count[PORT_NODE]; port++)
                CU_ASSERT_EQUAL(topology_neighbour(&t, r, port), -1);
        }
        for (int g = 0; g < G; g++)
            for (int d = 0; d < G; d++)
                CU_ASSERT_EQUAL(pairs[g * G + d], g == d ? 0 : 1);
        free(pairs);
        topology_free(&t);
    }
}

static void test_palmtree_symmetry(void)
{
    check_symmetry(ARRANGEMENT_PALMTREE);
}

static void test_consecutive_symmetry(void)
{
    check_symmetry(ARRANGEMENT_CONSECUTIVE);
}

/* Router a-1 of each group owns the links to groups g+1 .. g+h (src/topology/MODEL.md), and the
 * model's formula for global port k of router i holds literally. */
static void test_palmtree_ownership(void)
{
    for (int s = 0; s < N_SHAPES; s++) {
        struct topology t;
        build(&t, shapes[s], ARRANGEMENT_PALMTREE);
        int p = shapes[s][0], a = shapes[s][1], h = shapes[s][2];
        for (int g = 0; g < t.groups; g++) {
            int rout = g * a + a - 1;
            for (int off = 1; off <= h; off++)
                CU_ASSERT(topology_global_port_to_group(&t, rout, (g + off) % t.groups) >= 0);
            for (int i = 0; i < a; i++)
                for (int k = 0; k < h; k++) {
                    int far = topology_neighbour(&t, g * a + i, p + a - 1 + k);
                    int expected = ((g - (i * h + k + 1)) % t.groups + t.groups) % t.groups;
                    CU_ASSERT_EQUAL(topology_group_of_router(&t, far), expected);
                }
        }
        topology_free(&t);
    }
}

/* The local port formula (src/topology/MODEL.md): router i reaches router j of its group
 * through port p + j if j < i, else p + j - 1. */
static void test_local_ports(void)
{
    struct topology t;
    build(&t, shapes[2], ARRANGEMENT_PALMTREE);
    int p = shapes[2][0], a = shapes[2][1];
    for (int i = 0; i < a; i++)
        for (int j = 0; j < a; j++) {
            if (i == j)
                continue;
            int port = j < i ? p + j : p + j - 1;
            CU_ASSERT_EQUAL(topology_neighbour(&t, i, port), j);
            CU_ASSERT_EQUAL(topology_min_port(&t, i, j), port);
        }
    topology_free(&t);
}

/* The oracle against the wiring: from every router towards every other, min_port's path is
 * as short as a path crossing at most one global link can be, every port of min_ports leads
 * one hop closer (and min_port is one of them), and min_hops counts min_port's path by class
 * (at most l-g-l on the dragonfly). */
static void check_oracle(enum topology_arrangement arr)
{
    for (int s = 0; s < N_SHAPES; s++) {
        if (shapes[s][2] == 6)
            continue; /* the reference network: too many pairs for a unit test */
        struct topology t;
        build(&t, shapes[s], arr);
        int n = t.routers;
        int *dist = malloc(2 * (size_t)n * sizeof *dist);
        int *queue = malloc(2 * (size_t)n * sizeof *queue);
        for (int dst = 0; dst < n; dst++) {
            test_bfs_one_global(&t, dst, dist, queue);
            for (int src = 0; src < n; src++) {
                if (src == dst) {
                    CU_ASSERT_EQUAL(topology_min_port(&t, src, dst), -1);
                    continue;
                }
                uint64_t ports = topology_min_ports(&t, src, dst);
                CU_ASSERT((ports >> topology_min_port(&t, src, dst)) & 1);
                for (uint64_t m = ports; m; m &= m - 1) {
                    int port = __builtin_ctzll(m);
                    int far = topology_neighbour(&t, src, port);
                    int after = topology_port_class(&t, src, port) == PORT_GLOBAL ? n + far : far;
                    CU_ASSERT_EQUAL(dist[after], dist[src] - 1);
                }
                int r = src, local = 0, global = 0;
                while (r != dst && local + global <= dist[src]) {
                    int port = topology_min_port(&t, r, dst);
                    if (topology_port_class(&t, r, port) == PORT_LOCAL)
                        local++;
                    else
                        global++;
                    r = topology_neighbour(&t, r, port);
                }
                CU_ASSERT_EQUAL_FATAL(r, dst);
                CU_ASSERT_EQUAL(local + global, dist[src]);
                CU_ASSERT(global <= 1 && local <= 2);
                int el, eg;
                topology_min_hops(&t, src, dst, &el, &eg);
                CU_ASSERT_EQUAL(el, local);
                CU_ASSERT_EQUAL(eg, global);
            }
        }
        free(dist);
        free(queue);
        topology_free(&t);
    }
}

static void test_oracle_palmtree(void)
{
    check_oracle(ARRANGEMENT_PALMTREE);
}

static void test_oracle_consecutive(void)
{
    check_oracle(ARRANGEMENT_CONSECUTIVE);
}

/* The walks along minimal paths: entry router of a group, first global hop. */
static void test_path_queries(void)
{
    struct topology t;
    build(&t, shapes[2], ARRANGEMENT_PALMTREE);
    for (int r = 0; r < t.routers; r++)
        for (int g = 0; g < t.groups; g++) {
            int entry = topology_entry_router(&t, r, g);
            CU_ASSERT_EQUAL(topology_group_of_router(&t, entry), g);
            if (g == topology_group_of_router(&t, r)) {
                CU_ASSERT_EQUAL(entry, r);
                continue;
            }
            int gw, port;
            topology_min_global_hop(&t, r, entry, &gw, &port);
            CU_ASSERT_EQUAL(topology_port_class(&t, gw, port), PORT_GLOBAL);
            CU_ASSERT_EQUAL(topology_neighbour(&t, gw, port), entry);
            CU_ASSERT_EQUAL(topology_global_port_to_group(&t, gw, g), port);
        }
    topology_free(&t);
}

/* fast_div (the uniform node -> router -> group queries) equals hardware division for every
 * divisor up to 2^16 and for large ones, on the numerators where an inexact multiplier
 * fails first: around multiples of the divisor and at the top of the 32-bit range. */
static void check_fast_div(uint32_t d)
{
    struct fast_div f = fast_div_make(d);
    CU_ASSERT_EQUAL_FATAL(f.d, d);
    uint32_t edges[] = {0,
                        1,
                        d - 1,
                        d,
                        d + 1,
                        UINT32_MAX,
                        UINT32_MAX - 1,
                        UINT32_MAX / d * d,
                        UINT32_MAX / d * d - 1,
                        (UINT32_MAX / d - 1) * d + d - 1,
                        0x80000000u,
                        0x7fffffffu};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        uint32_t n = edges[i];
        if (fast_div_quotient(f, n) != n / d || fast_div_remainder(f, n) != n % d) {
            CU_FAIL("fast_div differs from division");
            printf("\n  %u / %u\n", n, d);
            return;
        }
    }
}

static void test_fast_div(void)
{
    for (uint32_t d = 2; d <= 1u << 16; d++)
        check_fast_div(d);
    uint64_t x = 0x9e3779b97f4a7c15ull; /* large divisors: a fixed xorshift sequence */
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if ((uint32_t)x >= 2)
            check_fast_div((uint32_t)x);
    }
    uint32_t powers_of_two[] = {2, 1u << 10, 1u << 31};
    for (int i = 0; i < 3; i++)
        check_fast_div(powers_of_two[i]);
    /* 0 and 1 leave the divisor unset: the topology reads its tables. */
    CU_ASSERT_EQUAL(fast_div_make(0).d, 0u);
    CU_ASSERT_EQUAL(fast_div_make(1).d, 0u);
    /* Every numerator for a few divisors of the reference networks. */
    uint32_t small[] = {3, 6, 12};
    for (int i = 0; i < 3; i++) {
        struct fast_div f = fast_div_make(small[i]);
        for (uint32_t n = 0; n < 1u << 20; n++)
            if (fast_div_quotient(f, n) != n / small[i]) {
                CU_FAIL("fast_div differs from division");
                break;
            }
    }
}

/* The kind's check refuses a radix above 64 with the formula. */
static void test_radix_limit(void)
{
    struct sim_config c;
    char err[CONFIG_ERROR_LEN] = "";
    const char *ov[] = {"topology.p=30", "topology.a=30", "topology.h=10"};
    CU_ASSERT_EQUAL(config_load(NULL, ov, 3, &c, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "radix p + a - 1 + h = 69 is too large"));
}

int test_topology_register(void)
{
    static const struct test_case cases[] = {
        {"reference network sizes", test_sizes},
        {"generic layout: kinds, port bases, nodes, groups", test_layout},
        {"palmtree links symmetric, one per group pair", test_palmtree_symmetry},
        {"consecutive links symmetric, one per group pair", test_consecutive_symmetry},
        {"router a-1 owns links to g+1..g+h", test_palmtree_ownership},
        {"local port formula", test_local_ports},
        {"minimal-route oracle agrees with BFS over one global link (palmtree)",
         test_oracle_palmtree},
        {"minimal-route oracle agrees with BFS over one global link (consecutive)",
         test_oracle_consecutive},
        {"entry router and first global hop", test_path_queries},
        {"radix above 64 rejected", test_radix_limit},
        {"fast division equals hardware division", test_fast_div},
    };
    return test_add_suite("topology", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
