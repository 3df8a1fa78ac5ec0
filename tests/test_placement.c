/* test_placement: every placement on a small abstract machine (groups of routers, some
 * routers without nodes): no overlap, `taken` respected, whole routers and groups, the order of
 * ranks, and the allocation file's parsing and errors with their lines. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "test_util.h"

/* 4 groups x (3 leaf routers with 4 nodes + 1 spine router without nodes): 48 nodes. */
enum { TM_GROUPS = 4, TM_LEAVES = 3, TM_P = 4, TM_ROUTERS = TM_GROUPS * (TM_LEAVES + 1) };
enum { TM_NODES = TM_GROUPS * TM_LEAVES * TM_P };

struct test_machine {
    struct placement_machine m;
    int32_t node_router[TM_NODES];
    int32_t router_group[TM_ROUTERS], router_first_node[TM_ROUTERS], router_nodes[TM_ROUTERS];
    int32_t group_first_router[TM_GROUPS + 1];
};

static void test_machine_build(struct test_machine *t)
{
    int node = 0, router = 0;
    for (int g = 0; g < TM_GROUPS; g++) {
        t->group_first_router[g] = router;
        for (int k = 0; k <= TM_LEAVES; k++, router++) {
            int nodes = k == 1 ? 0 : TM_P; /* the second router of a group is a spine */
            t->router_group[router] = g;
            t->router_first_node[router] = node;
            t->router_nodes[router] = nodes;
            for (int i = 0; i < nodes; i++)
                t->node_router[node++] = router;
        }
    }
    t->group_first_router[TM_GROUPS] = router;
    t->m = (struct placement_machine){TM_NODES,        TM_ROUTERS,           TM_GROUPS,
                                      t->node_router,  t->router_group,      t->router_first_node,
                                      t->router_nodes, t->group_first_router};
}

static char test_placement_dir[64];
static struct test_machine tm; /* built once by the suite's init */
static char err[512];          /* the last placement's message */
static const char *err_key;    /* and the job key it blames */

static int test_placement_init(void)
{
    test_machine_build(&tm);
    return test_tmpdir_create(test_placement_dir, "placement");
}

static int test_placement_cleanup(void)
{
    return test_tmpdir_remove(test_placement_dir);
}

#define JOB(...) ((struct placement_params){__VA_ARGS__})

/* Places a job on tm by placement name; returns 0 or -1 (message in err). */
static int place(const char *name, struct placement_params p, bool *taken, uint64_t seed,
                 int32_t *rank_node)
{
    const struct placement_ops *ops = placement_find(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ops);
    struct rng rng;
    rng_seed(&rng, seed, 7);
    if (!p.job)
        p.job = "app";
    struct placement_error e = {.key = NULL};
    int rc = placement_place(ops, &tm.m, &p, taken, &rng, rank_node, &e);
    snprintf(err, sizeof err, "%s", rc ? e.text : "");
    err_key = rc ? e.key : NULL;
    return rc;
}

/* Distinct, in range, and marked in taken afterwards. */
static void check_distinct_and_taken(const int32_t *rank_node, int n, const bool *taken)
{
    bool seen[TM_NODES] = {false};
    for (int i = 0; i < n; i++) {
        CU_ASSERT_FATAL(rank_node[i] >= 0 && rank_node[i] < TM_NODES);
        CU_ASSERT(!seen[rank_node[i]]);
        CU_ASSERT(taken[rank_node[i]]);
        seen[rank_node[i]] = true;
    }
}

static void test_registry(void)
{
    const char *const expected[] = {"contiguous",    "random_nodes", "random_routers",
                                    "random_groups", "groups",       "file"};
    CU_ASSERT_EQUAL(placement_count(), 6);
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_STRING_EQUAL(placement_names()[i], expected[i]);
        CU_ASSERT_PTR_EQUAL(placement_find(expected[i]), placement_registry[i]);
    }
    CU_ASSERT_PTR_NULL(placement_find("random"));
}

/* Contiguous jobs chain through placement_end and skip nodes of earlier jobs. */
static void test_contiguous(void)
{
    bool taken[TM_NODES] = {false};
    int32_t a[TM_NODES], b[TM_NODES];
    taken[12] = taken[13] = true; /* an earlier job */
    CU_ASSERT_EQUAL_FATAL(place("contiguous", JOB(.nodes = 10, .first_node = 5), taken, 1, a), 0);
    for (int i = 0; i < 7; i++)
        CU_ASSERT_EQUAL(a[i], 5 + i);
    CU_ASSERT_EQUAL(a[7], 14);
    CU_ASSERT_EQUAL(a[9], 16);
    CU_ASSERT_EQUAL(placement_end(a, 10), 17);
    CU_ASSERT_EQUAL_FATAL(
        place("contiguous", JOB(.nodes = 31, .first_node = placement_end(a, 10)), taken, 1, b), 0);
    CU_ASSERT_EQUAL(b[0], 17);
    CU_ASSERT_EQUAL(b[30], 47);
    check_distinct_and_taken(b, 31, taken);
    /* Nothing left after node 47; nodes 0..4 are free but contiguous does not wrap. */
    CU_ASSERT_EQUAL(place("contiguous", JOB(.nodes = 2, .first_node = 40), taken, 1, b), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "only 0 are free there"));
    CU_ASSERT_STRING_EQUAL(err_key, "nodes");
    CU_ASSERT_EQUAL(
        place("contiguous", JOB(.nodes = 2, .first_node = 40, .exact = true), taken, 1, b), -1);
    CU_ASSERT_STRING_EQUAL(err_key, "first_node"); /* given, it is what to change */
    CU_ASSERT_EQUAL(
        place("contiguous", JOB(.nodes = 1, .first_node = 48, .exact = true), taken, 1, b), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "first_node 48 is not a node"));
    CU_ASSERT_STRING_EQUAL(err_key, "first_node");
    /* right after a job that ends at the last node, without first_node: the job's own fault */
    CU_ASSERT_EQUAL(place("contiguous", JOB(.nodes = 1, .first_node = 48), taken, 1, b), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "the previous contiguous job ends at the machine's last"));
    CU_ASSERT_STRING_EQUAL(err_key, "nodes");
    CU_ASSERT_EQUAL(place("contiguous", JOB(.nodes = 5, .first_node = 0), taken, 1, b), 0);
}

static void test_too_large(void)
{
    bool taken[TM_NODES] = {false};
    int32_t rank_node[TM_NODES];
    for (int i = 0; i < 20; i++)
        taken[i] = true;
    CU_ASSERT_EQUAL(place("random_nodes", JOB(.job = "big", .nodes = 29), taken, 1, rank_node), -1);
    CU_ASSERT_STRING_EQUAL(err,
                           "job 'big': needs 29 nodes but only 28 of the machine's 48 are free");
    CU_ASSERT_EQUAL(place("random_nodes", JOB(.nodes = 0), taken, 1, rank_node), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "nodes is 0 (expected at least 1)"));
    for (int i = 20; i < TM_NODES; i++)
        CU_ASSERT(!taken[i]); /* a failed placement takes nothing */
}

/* Random jobs fill the machine without overlap and never use a taken node; the same seed gives
 * the same layout, another seed another one, and ranks are not in node order. */
static void test_random_nodes(void)
{
    bool taken[TM_NODES] = {false};
    int32_t a[TM_NODES], b[TM_NODES], c[TM_NODES];
    taken[3] = true;
    CU_ASSERT_EQUAL_FATAL(place("random_nodes", JOB(.nodes = 20), taken, 1, a), 0);
    CU_ASSERT_EQUAL_FATAL(place("random_nodes", JOB(.nodes = 27), taken, 2, b), 0);
    check_distinct_and_taken(a, 20, taken);
    check_distinct_and_taken(b, 27, taken);
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 27; j++)
            CU_ASSERT(a[i] != b[j]);
    for (int i = 0; i < TM_NODES; i++)
        CU_ASSERT(taken[i]);
    bool fresh[TM_NODES] = {false};
    fresh[3] = true;
    CU_ASSERT_EQUAL_FATAL(place("random_nodes", JOB(.nodes = 20), fresh, 1, c), 0);
    CU_ASSERT_EQUAL(memcmp(a, c, sizeof(int32_t) * 20), 0);
    memset(fresh, 0, sizeof fresh);
    fresh[3] = true;
    CU_ASSERT_EQUAL_FATAL(place("random_nodes", JOB(.nodes = 20), fresh, 99, c), 0);
    CU_ASSERT(memcmp(a, c, sizeof(int32_t) * 20) != 0);
    int ascending = 1;
    for (int i = 1; i < 20; i++)
        ascending &= a[i] > a[i - 1];
    CU_ASSERT(!ascending);
}

/* How many of a router's nodes the job holds, per router. */
static void count_per_router(const struct test_machine *t, const int32_t *rank_node, int n,
                             int *per_router)
{
    memset(per_router, 0, sizeof(int) * TM_ROUTERS);
    for (int i = 0; i < n; i++)
        per_router[t->node_router[rank_node[i]]]++;
}

/* Whole routers except one partial one (the last in rank order, holding its first nodes);
 * routers already partly used are never chosen. */
static void test_random_routers(void)
{
    bool taken[TM_NODES] = {false};
    int32_t rank_node[TM_NODES];
    int per_router[TM_ROUTERS];
    taken[1] = true; /* router 0 is partly used */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        bool job_taken[TM_NODES];
        memcpy(job_taken, taken, sizeof taken);
        CU_ASSERT_EQUAL_FATAL(place("random_routers", JOB(.nodes = 14), job_taken, seed, rank_node),
                              0);
        check_distinct_and_taken(rank_node, 14, job_taken);
        count_per_router(&tm, rank_node, 14, per_router);
        CU_ASSERT_EQUAL(per_router[0], 0);
        int whole = 0, partial = 0;
        for (int r = 0; r < TM_ROUTERS; r++) {
            whole += per_router[r] == TM_P;
            partial += per_router[r] > 0 && per_router[r] < TM_P;
        }
        CU_ASSERT_EQUAL(whole, 3);
        CU_ASSERT_EQUAL(partial, 1);
        int last = tm.node_router[rank_node[13]];
        CU_ASSERT_EQUAL(per_router[last], 2);
        CU_ASSERT_EQUAL(rank_node[12], tm.router_first_node[last]);
        for (int i = 0; i < 12; i += TM_P) /* a router's nodes in node order */
            CU_ASSERT_EQUAL(rank_node[i + 3], rank_node[i] + 3);
    }
    /* 11 whole free routers hold 44 nodes. */
    CU_ASSERT_EQUAL(place("random_routers", JOB(.nodes = 45), taken, 1, rank_node), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "the 11 entirely free routers hold only 44 nodes"));
}

static void test_random_groups(void)
{
    bool taken[TM_NODES] = {false};
    int32_t rank_node[TM_NODES];
    taken[40] = true; /* group 3 is partly used */
    int seen_first[TM_GROUPS] = {0};
    for (uint64_t seed = 1; seed <= 30; seed++) {
        bool job_taken[TM_NODES];
        memcpy(job_taken, taken, sizeof taken);
        CU_ASSERT_EQUAL_FATAL(place("random_groups", JOB(.nodes = 20), job_taken, seed, rank_node),
                              0);
        check_distinct_and_taken(rank_node, 20, job_taken);
        int per_group[TM_GROUPS] = {0};
        for (int i = 0; i < 20; i++)
            per_group[tm.router_group[tm.node_router[rank_node[i]]]]++;
        CU_ASSERT_EQUAL(per_group[3], 0);
        int whole = 0, partial = 0;
        for (int g = 0; g < TM_GROUPS; g++) {
            whole += per_group[g] == TM_LEAVES * TM_P;
            partial += per_group[g] == 20 - TM_LEAVES * TM_P;
        }
        CU_ASSERT_EQUAL(whole, 1);
        CU_ASSERT_EQUAL(partial, 1);
        seen_first[tm.router_group[tm.node_router[rank_node[0]]]]++;
    }
    for (int g = 0; g < 3; g++) /* every free group comes first for some seed */
        CU_ASSERT(seen_first[g] > 0);
    CU_ASSERT_EQUAL(place("random_groups", JOB(.nodes = 37), taken, 1, rank_node), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "the 3 entirely free groups hold only 36 nodes"));
}

static void test_groups(void)
{
    bool taken[TM_NODES] = {false};
    int32_t rank_node[TM_NODES];
    const int list[] = {2, 0};
    CU_ASSERT_EQUAL_FATAL(
        place("groups", JOB(.nodes = 24, .groups = list, .group_count = 2), taken, 1, rank_node),
        0);
    for (int i = 0; i < 12; i++) {
        CU_ASSERT_EQUAL(rank_node[i], 24 + i);
        CU_ASSERT_EQUAL(rank_node[12 + i], i);
    }
    const int again[] = {1, 2};
    CU_ASSERT_EQUAL(
        place("groups", JOB(.nodes = 24, .groups = again, .group_count = 2), taken, 1, rank_node),
        -1);
    CU_ASSERT_STRING_EQUAL(err, "job 'app': group 2 holds nodes of an earlier job");
    const int one[] = {1};
    CU_ASSERT_EQUAL(
        place("groups", JOB(.nodes = 10, .groups = one, .group_count = 1), taken, 1, rank_node),
        -1);
    CU_ASSERT_STRING_EQUAL(err,
                           "job 'app': groups [1] hold 12 nodes, not the job's 10 (expected nodes "
                           "equal to every node of the listed groups)");
    const int bad[] = {1, 4};
    CU_ASSERT_EQUAL(
        place("groups", JOB(.nodes = 10, .groups = bad, .group_count = 2), taken, 1, rank_node),
        -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "group 4 does not exist (expected 0..3)"));
    CU_ASSERT_STRING_EQUAL(err_key, "groups");
    const int twice[] = {1, 1};
    CU_ASSERT_EQUAL(
        place("groups", JOB(.nodes = 10, .groups = twice, .group_count = 2), taken, 1, rank_node),
        -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "group 1 is listed twice"));
    CU_ASSERT_EQUAL(place("groups", JOB(.nodes = 10), taken, 1, rank_node), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "needs a non-empty list groups"));
}

/* per_router k: the first k nodes of every router with nodes of the listed groups, in list
 * order; the spines are skipped; the rest of each router stays free for later jobs. */
static void test_groups_per_router(void)
{
    bool taken[TM_NODES] = {false};
    int32_t rank_node[TM_NODES];
    const int list[] = {1, 3};
    /* 2 groups x 3 leaves x 2 nodes = 12 ranks: leaf k of group g has nodes
     * 12g + 4k' .. where k' counts the leaves (router 1 of a group is a spine). */
    CU_ASSERT_EQUAL_FATAL(place("groups",
                                JOB(.nodes = 12, .groups = list, .group_count = 2, .per_router = 2),
                                taken, 1, rank_node),
                          0);
    const int32_t expected[] = {12, 13, 16, 17, 20, 21, 36, 37, 40, 41, 44, 45};
    for (int i = 0; i < 12; i++)
        CU_ASSERT_EQUAL(rank_node[i], expected[i]);
    check_distinct_and_taken(rank_node, 12, taken);
    int free_in_1 = 0;
    for (int n = 12; n < 24; n++)
        free_in_1 += !taken[n];
    CU_ASSERT_EQUAL(free_in_1, 6);
    /* The same groups again: the first nodes are taken, named with their router and group. */
    CU_ASSERT_EQUAL(place("groups",
                          JOB(.nodes = 6, .groups = list, .group_count = 1, .per_router = 2), taken,
                          1, rank_node),
                    -1);
    CU_ASSERT_STRING_EQUAL(err,
                           "job 'app': node 12 (router 4 of group 1) belongs to an earlier job");
    /* The whole group 1 is no longer free either. */
    CU_ASSERT_EQUAL(
        place("groups", JOB(.nodes = 12, .groups = list, .group_count = 1), taken, 1, rank_node),
        -1);
    CU_ASSERT_STRING_EQUAL(err, "job 'app': group 1 holds nodes of an earlier job");
    /* A count that does not match, and more per router than a router has. */
    const int zero[] = {0};
    CU_ASSERT_EQUAL(place("groups",
                          JOB(.nodes = 7, .groups = zero, .group_count = 1, .per_router = 2), taken,
                          1, rank_node),
                    -1);
    CU_ASSERT_STRING_EQUAL(err, "job 'app': groups [0] hold 6 nodes, not the job's 7 (expected "
                                "nodes equal to 2 nodes per router with nodes of the listed "
                                "groups)");
    CU_ASSERT_EQUAL(place("groups",
                          JOB(.nodes = 15, .groups = zero, .group_count = 1, .per_router = 5),
                          taken, 1, rank_node),
                    -1);
    CU_ASSERT_STRING_EQUAL(err, "job 'app': router 0 of group 0 has 4 nodes, fewer than per_router "
                                "5 (expected per_router at most 4)");
    CU_ASSERT_STRING_EQUAL(err_key, "per_router");
    /* per_router = the routers' size is the whole group. */
    CU_ASSERT_EQUAL_FATAL(place("groups",
                                JOB(.nodes = 12, .groups = zero, .group_count = 1, .per_router = 4),
                                taken, 1, rank_node),
                          0);
    for (int i = 0; i < 12; i++)
        CU_ASSERT_EQUAL(rank_node[i], i);
}

/* Writes an allocation file into the suite's directory; returns its name (static buffer). */
static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", test_placement_dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Places a job of `nodes` ranks from the file `name` (relative to the suite's directory). */
static int place_file(const char *name, int nodes, bool *taken, int32_t *rank_node)
{
    struct placement_params p = {.nodes = nodes, .file = name, .base_dir = test_placement_dir};
    return place("file", p, taken, 1, rank_node);
}

static void test_file_parses(void)
{
    write_file("ok.txt", "# the app's nodes\n"
                         "7\n"
                         "\n"
                         "  10 - 12   # a range\n"
                         "3-3\r\n"
                         "\t47\n"
                         "0-1");
    bool taken[TM_NODES] = {false};
    int32_t rank_node[8];
    CU_ASSERT_EQUAL_FATAL(place_file("ok.txt", 8, taken, rank_node), 0);
    const int32_t expected[8] = {7, 10, 11, 12, 3, 47, 0, 1};
    CU_ASSERT_EQUAL(memcmp(rank_node, expected, sizeof expected), 0);
    check_distinct_and_taken(rank_node, 8, taken);
    /* An absolute path ignores base_dir. */
    bool fresh[TM_NODES] = {false};
    char abs_path[256];
    snprintf(abs_path, sizeof abs_path, "%s/ok.txt", test_placement_dir);
    struct placement_params p = {.nodes = 8, .file = abs_path, .base_dir = "/nonexistent"};
    CU_ASSERT_EQUAL(place("file", p, fresh, 1, rank_node), 0);
}

/* Every error names the file and the line. */
static void test_file_errors(void)
{
    static const struct {
        const char *text;
        int nodes;
        const char *error; /* after "DIR/bad.txt:" */
    } cases[] = {
        {"1\n2\nx7\n", 3, "3: bad node id 'x7' (expected a node id or a range a-b per line)"},
        {"1\n-2\n", 2, "2: bad node id '-2' (expected a node id or a range a-b per line)"},
        {"1 2\n", 2, "1: bad node id '1 2' (expected a node id or a range a-b per line)"},
        {"5-\n", 2, "1: bad node id '5-' (expected a node id or a range a-b per line)"},
        {"99999999999\n", 1,
         "1: bad node id '99999999999' (expected a node id or a range a-b "
         "per line)"},
        {"# c\n48\n", 1, "2: node 48 is out of range (expected 0..47)"},
        {"40-50\n", 11, "1: node 48 is out of range (expected 0..47)"},
        {"9-3\n", 2, "1: bad range 9-3 (expected a-b with a <= b)"},
        {"4\n# x\n2-5\n", 5, "3: node 4 is listed twice (first on line 1)"},
        {"1\n20\n", 2, "2: node 20 already belongs to an earlier job"},
        {"1\n2\n3\n", 2, "3: more nodes than job 'app' has ranks (2; expected one node per rank)"},
        {"1\n2\n\n", 4, "3: lists 2 nodes but job 'app' has 4 ranks (expected one node per rank)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = write_file("bad.txt", cases[i].text);
        bool taken[TM_NODES] = {false};
        taken[20] = true;
        int32_t rank_node[TM_NODES];
        char expected[600];
        CU_ASSERT_EQUAL(place_file("bad.txt", cases[i].nodes, taken, rank_node), -1);
        snprintf(expected, sizeof expected, "%s:%s", path, cases[i].error);
        CU_ASSERT_STRING_EQUAL(err, expected);
        CU_ASSERT_STRING_EQUAL(err_key, "allocation_file");
        if (strcmp(err, expected) != 0)
            fprintf(stderr, "\n  case %zu: %s\n", i, err);
        for (int n = 0; n < TM_NODES; n++)
            CU_ASSERT_EQUAL(taken[n], n == 20);
    }
    bool taken[TM_NODES] = {false};
    int32_t rank_node[TM_NODES];
    CU_ASSERT_EQUAL(place_file("missing.txt", 2, taken, rank_node), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/missing.txt: cannot read: No such file or directory"));
    CU_ASSERT_EQUAL(place_file("", 2, taken, rank_node), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "needs allocation_file"));
}

static const struct test_case test_placement_cases[] = {
    {"registry", test_registry},
    {"contiguous chains, skips taken nodes, does not wrap", test_contiguous},
    {"a job larger than the free nodes", test_too_large},
    {"random_nodes: disjoint, respects taken, seeded", test_random_nodes},
    {"random_routers: whole routers, one partial", test_random_routers},
    {"random_groups: whole groups, one partial", test_random_groups},
    {"groups: order and errors", test_groups},
    {"groups: per_router nodes of each router", test_groups_per_router},
    {"file: ids, ranges, comments", test_file_parses},
    {"file: every error with its line", test_file_errors},
};

int test_placement_register(void)
{
    return test_add_suite("placement", test_placement_init, test_placement_cleanup,
                          test_placement_cases,
                          sizeof test_placement_cases / sizeof test_placement_cases[0]);
}
