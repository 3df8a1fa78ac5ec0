/* Topology: numbering, wiring symmetry, palmtree ownership and the minimal-route tables. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"
#include "topology.h"

static const int shapes[][3] = {{2, 4, 2}, {1, 2, 1}, {3, 6, 3}, {6, 12, 6}, {2, 3, 5}};

static void build(struct topology *t, const int *s, enum topology_arrangement arr)
{
    char err[128];
    CU_ASSERT_FATAL(topology_build(t, s[0], s[1], s[2], arr, err, sizeof err) == 0);
}

static void test_sizes(void)
{
    struct topology t;
    build(&t, shapes[3], ARRANGEMENT_PALMTREE);
    CU_ASSERT_EQUAL(t.groups, 73);
    CU_ASSERT_EQUAL(t.routers, 876);
    CU_ASSERT_EQUAL(t.nodes, 5256);
    CU_ASSERT_EQUAL(t.radix, 23);
    topology_free(&t);
}

/* Every link's far end points back to the same router and port, local links stay in the
 * group, global links leave it, and every pair of groups is joined exactly once. */
static void check_symmetry(enum topology_arrangement arr)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        struct topology t;
        build(&t, shapes[s], arr);
        int G = t.groups;
        int pairs[G * G];
        for (int i = 0; i < G * G; i++)
            pairs[i] = 0;
        for (int r = 0; r < t.routers; r++)
            for (int port = t.first_local_port; port < t.radix; port++) {
                int far = t.neighbour[r * t.radix + port];
                int far_port = t.neighbour_port[r * t.radix + port];
                CU_ASSERT_FATAL(far >= 0 && far < t.routers);
                CU_ASSERT_EQUAL(t.neighbour[far * t.radix + far_port], r);
                CU_ASSERT_EQUAL(t.neighbour_port[far * t.radix + far_port], port);
                CU_ASSERT_EQUAL(topology_port_class(&t, far_port), topology_port_class(&t, port));
                int same_group = far / t.a == r / t.a;
                CU_ASSERT_EQUAL(same_group, topology_port_class(&t, port) == PORT_LOCAL);
                if (!same_group)
                    pairs[(r / t.a) * G + far / t.a]++;
            }
        for (int g = 0; g < G; g++)
            for (int d = 0; d < G; d++)
                CU_ASSERT_EQUAL(pairs[g * G + d], g == d ? 0 : 1);
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

/* Router a-1 of each group owns the links to groups g+1 .. g+h (SPEC section 2), and the
 * spec's formula for global port k of router i holds literally. */
static void test_palmtree_ownership(void)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        struct topology t;
        build(&t, shapes[s], ARRANGEMENT_PALMTREE);
        for (int g = 0; g < t.groups; g++) {
            int rout = g * t.a + t.a - 1;
            for (int off = 1; off <= t.h; off++) {
                int d = (g + off) % t.groups;
                CU_ASSERT_NOT_EQUAL(t.global_port_to_group[rout * t.groups + d], 0xff);
                CU_ASSERT_EQUAL(t.gateway[g * t.groups + d], rout);
            }
            for (int i = 0; i < t.a; i++)
                for (int k = 0; k < t.h; k++) {
                    int far = t.neighbour[(g * t.a + i) * t.radix + t.first_global_port + k];
                    int expected = ((g - (i * t.h + k + 1)) % t.groups + t.groups) % t.groups;
                    CU_ASSERT_EQUAL(far / t.a, expected);
                }
        }
        topology_free(&t);
    }
}

/* Local port formula of SPEC section 2 and its inverse. */
static void test_local_ports(void)
{
    struct topology t;
    build(&t, shapes[2], ARRANGEMENT_PALMTREE);
    for (int i = 0; i < t.a; i++)
        for (int j = 0; j < t.a; j++) {
            if (i == j)
                continue;
            int port = topology_local_port(&t, i, j);
            CU_ASSERT_EQUAL(port, j < i ? t.p + j : t.p + j - 1);
            CU_ASSERT_EQUAL(topology_local_target(&t, i, port), j);
        }
    topology_free(&t);
}

/* Node/router/group numbering round-trips. */
static void test_numbering(void)
{
    struct topology t;
    build(&t, shapes[0], ARRANGEMENT_PALMTREE);
    for (int n = 0; n < t.nodes; n++) {
        int r = topology_router_of_node(&t, n);
        CU_ASSERT_EQUAL(r * t.p + n % t.p, n);
        int g = topology_group_of_router(&t, r);
        CU_ASSERT_EQUAL(g * t.a + r % t.a, r);
        CU_ASSERT(g < t.groups);
    }
    topology_free(&t);
}

/* Following min ports from any router reaches any other in at most l-g-l, and the hop count
 * agrees with topology_min_hops. */
static void test_min_paths(void)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        if (shapes[s][2] == 6)
            continue; /* the reference network: too many pairs for a unit test */
        struct topology t;
        build(&t, shapes[s], ARRANGEMENT_PALMTREE);
        for (int src = 0; src < t.routers; src++)
            for (int dst = 0; dst < t.routers; dst++) {
                int r = src, local = 0, global = 0, steps = 0;
                while (r != dst && steps < 4) {
                    int port = topology_min_port_to_router(&t, r, dst);
                    if (topology_port_class(&t, port) == PORT_LOCAL)
                        local++;
                    else
                        global++;
                    r = t.neighbour[r * t.radix + port];
                    steps++;
                }
                CU_ASSERT_EQUAL_FATAL(r, dst);
                CU_ASSERT(global <= 1 && local <= 2);
                int el, eg;
                topology_min_hops(&t, src, dst, &el, &eg);
                CU_ASSERT_EQUAL(el, local);
                CU_ASSERT_EQUAL(eg, global);
            }
        topology_free(&t);
    }
}

/* Palmtree's compact table (by group offset) agrees with the full one for every router and
 * group; consecutive wiring has no such symmetry and keeps the full table. */
static void test_min_port_offset_table(void)
{
    struct topology t;
    char err[128];
    int shapes[][3] = {{2, 4, 2}, {3, 6, 3}, {6, 12, 6}};
    for (int s = 0; s < 3; s++) {
        CU_ASSERT_EQUAL_FATAL(topology_build(&t, shapes[s][0], shapes[s][1], shapes[s][2],
                                             ARRANGEMENT_PALMTREE, err, sizeof err),
                              0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t.min_port_offset);
        int mismatches = 0;
        for (int r = 0; r < t.routers; r++)
            for (int d = 0; d < t.groups; d++)
                if (d != r / t.a)
                    mismatches += topology_min_port_to_router(&t, r, d * t.a + (r % t.a)) !=
                                  t.min_port[r * t.groups + d];
        CU_ASSERT_EQUAL(mismatches, 0);
        topology_free(&t);
    }
    CU_ASSERT_EQUAL_FATAL(topology_build(&t, 2, 4, 2, ARRANGEMENT_CONSECUTIVE, err, sizeof err), 0);
    CU_ASSERT_PTR_NULL(t.min_port_offset);
    topology_free(&t);
}

static void test_radix_limit(void)
{
    struct topology t;
    char err[128] = "";
    CU_ASSERT_EQUAL(topology_build(&t, 30, 30, 10, ARRANGEMENT_PALMTREE, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "radix"));
}

int test_topology_register(void)
{
    CU_pSuite s = CU_add_suite("topology", NULL, NULL);
    if (!s)
        return -1;
    CU_add_test(s, "reference network sizes", test_sizes);
    CU_add_test(s, "palmtree links symmetric, one per group pair", test_palmtree_symmetry);
    CU_add_test(s, "consecutive links symmetric, one per group pair", test_consecutive_symmetry);
    CU_add_test(s, "router a-1 owns links to g+1..g+h", test_palmtree_ownership);
    CU_add_test(s, "local port formula round-trips", test_local_ports);
    CU_add_test(s, "node/router/group numbering round-trips", test_numbering);
    CU_add_test(s, "minimal paths reach every router in l-g-l", test_min_paths);
    CU_add_test(s, "palmtree's offset table matches the full table", test_min_port_offset_table);
    CU_add_test(s, "radix above 64 rejected", test_radix_limit);
    return 0;
}
