/* test_job_traffic: rank patterns (never the source, tornado and group_pair as defined, a
 * derangement, incast's receivers) and injection processes (periodic exactly every interval,
 * Bernoulli and on/off rates within binomial bounds, next() agreeing with fires()). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_traffic.h"
#include "placement.h"
#include "test_util.h"

static char err[512];

/* A pattern over n ranks without placement; asserts that init succeeds. */
static void pattern_make(struct rank_pattern *pat, const char *name,
                         struct rank_pattern_params params, int n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed, 11);
    const struct rank_pattern_ops *ops = rank_pattern_find(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ops);
    int status = rank_pattern_init(pat, ops, &params, n, NULL, NULL, &rng, err, sizeof err);
    if (status != 0)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_EQUAL_FATAL(status, 0);
}

static int pattern_fails(const char *name, struct rank_pattern_params params, int n)
{
    struct rng rng;
    rng_seed(&rng, 1, 11);
    struct rank_pattern pat;
    int status = rank_pattern_init(&pat, rank_pattern_find(name), &params, n, NULL, NULL, &rng, err,
                                   sizeof err);
    rank_pattern_destroy(&pat);
    return status != 0;
}

static void test_pattern_registry(void)
{
    const char *const names[] = {"uniform", "permutation", "tornado",
                                 "incast",  "group_pair",  "fanout"};
    CU_ASSERT_EQUAL(rank_pattern_count(), 6);
    for (int i = 0; i < 6; i++)
        CU_ASSERT_STRING_EQUAL(rank_pattern_names()[i], names[i]);
    CU_ASSERT_EQUAL(injection_count(), 3);
    CU_ASSERT_PTR_EQUAL(injection_find("on_off"), &injection_on_off);
    CU_ASSERT_PTR_NULL(injection_find("poisson"));
}

/* No pattern ever returns its source, for several job sizes including 2 and odd ones. */
static void test_never_self(void)
{
    const int sizes[] = {2, 3, 7, 64, 101};
    const char *const names[] = {"uniform", "permutation", "tornado", "incast", "fanout"};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            int n = sizes[s];
            struct rank_pattern pat;
            pattern_make(&pat, names[k], (struct rank_pattern_params){.offset = 1, .targets = 1}, n,
                         5);
            struct rng rng;
            rng_seed(&rng, 3, 0);
            for (int32_t r = 0; r < n; r++)
                for (int draw = 0; draw < 50; draw++) {
                    int32_t d = rank_pattern_destination(&pat, r, &rng);
                    if (!rank_pattern_sends(&pat, r)) {
                        CU_ASSERT_EQUAL(d, RANK_PATTERN_NONE);
                        continue;
                    }
                    CU_ASSERT(d >= 0 && d < n && d != r);
                }
            rank_pattern_destroy(&pat);
        }
}

/* Pearson's chi-square of uniform's destinations from one rank: 6 degrees of freedom, bound 30
 * (p < 1e-4), so only a real bias fails. */
static void test_uniform_is_uniform(void)
{
    struct rank_pattern pat;
    pattern_make(&pat, "uniform", (struct rank_pattern_params){0}, 8, 1);
    struct rng rng;
    rng_seed(&rng, 9, 0);
    long count[8] = {0};
    const int draws = 70000;
    for (int i = 0; i < draws; i++)
        count[rank_pattern_destination(&pat, 3, &rng)]++;
    CU_ASSERT_EQUAL(count[3], 0);
    double chi2 = 0, expected = draws / 7.0;
    for (int d = 0; d < 8; d++)
        if (d != 3)
            chi2 += (count[d] - expected) * (count[d] - expected) / expected;
    CU_ASSERT(chi2 < 30);
    rank_pattern_destroy(&pat);
}

/* A bijection without fixed point; the same seed gives the same one, another seed another. */
static void test_permutation(void)
{
    const int n = 50;
    struct rank_pattern a, b, c;
    pattern_make(&a, "permutation", (struct rank_pattern_params){0}, n, 1);
    pattern_make(&b, "permutation", (struct rank_pattern_params){0}, n, 1);
    pattern_make(&c, "permutation", (struct rank_pattern_params){0}, n, 2);
    int hits[50] = {0}, same_b = 0, same_c = 0;
    for (int32_t r = 0; r < n; r++) {
        int32_t d = rank_pattern_destination(&a, r, NULL);
        CU_ASSERT(d != r);
        hits[d]++;
        same_b += d == rank_pattern_destination(&b, r, NULL);
        same_c += d == rank_pattern_destination(&c, r, NULL);
    }
    for (int d = 0; d < n; d++)
        CU_ASSERT_EQUAL(hits[d], 1);
    CU_ASSERT_EQUAL(same_b, n);
    CU_ASSERT(same_c < n);
    rank_pattern_destroy(&a);
    rank_pattern_destroy(&b);
    rank_pattern_destroy(&c);
    struct rank_pattern two;
    pattern_make(&two, "permutation", (struct rank_pattern_params){0}, 2, 7);
    CU_ASSERT_EQUAL(rank_pattern_destination(&two, 0, NULL), 1);
    CU_ASSERT_EQUAL(rank_pattern_destination(&two, 1, NULL), 0);
    rank_pattern_destroy(&two);
}

static void test_tornado(void)
{
    struct rank_pattern pat;
    pattern_make(&pat, "tornado", (struct rank_pattern_params){.offset = 384}, 2304, 1);
    for (int32_t r = 0; r < 2304; r++)
        CU_ASSERT_EQUAL(rank_pattern_destination(&pat, r, NULL), (r + 384) % 2304);
    rank_pattern_destroy(&pat);
    pattern_make(&pat, "tornado", (struct rank_pattern_params){.offset = -1}, 10, 1);
    CU_ASSERT_EQUAL(rank_pattern_destination(&pat, 0, NULL), 9);
    CU_ASSERT_EQUAL(rank_pattern_destination(&pat, 5, NULL), 4);
    rank_pattern_destroy(&pat);
    CU_ASSERT(pattern_fails("tornado", (struct rank_pattern_params){.offset = 20}, 10));
    CU_ASSERT_STRING_EQUAL(err, "pattern tornado: offset 20 is a multiple of the job's 10 ranks "
                                "(expected an offset that is not, or every rank would send to "
                                "itself)");
    CU_ASSERT(pattern_fails("uniform", (struct rank_pattern_params){0}, 1));
    CU_ASSERT_STRING_EQUAL(err, "pattern uniform needs a job of at least 2 ranks (the job has 1)");
}

/* Ranks 0..k-1 receive everything and send nothing; every target is used. */
static void test_incast(void)
{
    struct rank_pattern pat;
    pattern_make(&pat, "incast", (struct rank_pattern_params){.targets = 3}, 20, 1);
    CU_ASSERT_EQUAL(rank_pattern_senders(&pat), 17);
    struct rng rng;
    rng_seed(&rng, 4, 0);
    int hits[3] = {0};
    for (int32_t r = 0; r < 20; r++)
        for (int i = 0; i < 30; i++) {
            int32_t d = rank_pattern_destination(&pat, r, &rng);
            CU_ASSERT_EQUAL(rank_pattern_sends(&pat, r), r >= 3);
            if (r < 3) {
                CU_ASSERT_EQUAL(d, RANK_PATTERN_NONE);
            } else if (d >= 0 && d < 3) {
                hits[d]++;
            } else {
                CU_FAIL("incast sent to a non-target");
            }
        }
    for (int t = 0; t < 3; t++)
        CU_ASSERT(hits[t] > 100);
    rank_pattern_destroy(&pat);
    CU_ASSERT(pattern_fails("incast", (struct rank_pattern_params){.targets = 20}, 20));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "targets 20 (expected 1 .. 19"));
    CU_ASSERT(pattern_fails("incast", (struct rank_pattern_params){.targets = 0}, 20));
}

/* fanout, the open-loop broadcast congestor: ranks 0..k-1 send, to every other rank (each
 * one reached), and the others only receive. */
static void test_fanout(void)
{
    struct rank_pattern pat;
    pattern_make(&pat, "fanout", (struct rank_pattern_params){.targets = 2}, 12, 1);
    CU_ASSERT_EQUAL(rank_pattern_senders(&pat), 2);
    struct rng rng;
    rng_seed(&rng, 5, 0);
    int hits[12] = {0};
    for (int32_t r = 0; r < 12; r++)
        for (int i = 0; i < 300; i++) {
            int32_t d = rank_pattern_destination(&pat, r, &rng);
            CU_ASSERT_EQUAL(rank_pattern_sends(&pat, r), r < 2);
            if (r >= 2) {
                CU_ASSERT_EQUAL(d, RANK_PATTERN_NONE);
            } else if (d >= 0 && d < 12 && d != r) {
                hits[d]++;
            } else {
                CU_FAIL("fanout sent to itself or out of the job");
            }
        }
    for (int t = 2; t < 12; t++)
        CU_ASSERT(hits[t] > 30); /* 600 draws over 10 or 11 ranks */
    rank_pattern_destroy(&pat);
    CU_ASSERT(pattern_fails("fanout", (struct rank_pattern_params){.targets = 12}, 12));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "targets 12 (expected 1 .. 11"));
}

/* 4 groups x 2 routers x 3 nodes. */
enum { GP_GROUPS = 4, GP_ROUTERS = 8, GP_NODES = 24 };
struct gp_machine {
    struct placement_machine m;
    int32_t node_router[GP_NODES], router_group[GP_ROUTERS], router_first_node[GP_ROUTERS];
    int32_t router_nodes[GP_ROUTERS], group_first_router[GP_GROUPS + 1];
};

static void gp_machine_build(struct gp_machine *g)
{
    for (int n = 0; n < GP_NODES; n++)
        g->node_router[n] = n / 3;
    for (int r = 0; r < GP_ROUTERS; r++) {
        g->router_group[r] = r / 2;
        g->router_first_node[r] = 3 * r;
        g->router_nodes[r] = 3;
    }
    for (int k = 0; k <= GP_GROUPS; k++)
        g->group_first_router[k] = 2 * k;
    g->m = (struct placement_machine){GP_NODES,        GP_ROUTERS,           GP_GROUPS,
                                      g->node_router,  g->router_group,      g->router_first_node,
                                      g->router_nodes, g->group_first_router};
}

/* Ranks on groups 3, 0, 2 (4 nodes each, in that order of first appearance but interleaved):
 * rank r with index x in its group sends to index x in one of the two other groups, each drawn
 * about half the time. */
static void test_group_pair(void)
{
    struct gp_machine g;
    gp_machine_build(&g);
    /* group 3: nodes 18..23, group 0: 0..5, group 2: 12..17 */
    const int32_t rank_node[12] = {18, 0, 19, 12, 1, 13, 20, 2, 14, 21, 3, 15};
    const int32_t group_of[12] = {3, 0, 3, 2, 0, 2, 3, 0, 2, 3, 0, 2};
    const int32_t index_of[12] = {0, 0, 1, 0, 1, 1, 2, 2, 2, 3, 3, 3};
    struct rank_pattern pat;
    struct rng rng;
    rng_seed(&rng, 1, 0);
    struct rank_pattern_params params = {0};
    CU_ASSERT_EQUAL_FATAL(rank_pattern_init(&pat, &rank_pattern_group_pair, &params, 12, rank_node,
                                            &g.m, &rng, err, sizeof err),
                          0);
    for (int32_t r = 0; r < 12; r++) {
        int to_group[GP_GROUPS] = {0};
        for (int i = 0; i < 400; i++) {
            int32_t d = rank_pattern_destination(&pat, r, &rng);
            CU_ASSERT_FATAL(d >= 0 && d < 12);
            CU_ASSERT(group_of[d] != group_of[r]);
            CU_ASSERT_EQUAL(index_of[d], index_of[r]);
            to_group[group_of[d]]++;
        }
        CU_ASSERT_EQUAL(to_group[1], 0);
        for (int k = 0; k < GP_GROUPS; k++)
            if (k != 1 && k != group_of[r])
                CU_ASSERT(to_group[k] > 150);
    }
    rank_pattern_destroy(&pat);
    /* Unequal groups, a single group, no placement. */
    const int32_t uneven[5] = {0, 1, 2, 6, 7};
    CU_ASSERT_EQUAL(rank_pattern_init(&pat, &rank_pattern_group_pair, &params, 5, uneven, &g.m,
                                      &rng, err, sizeof err),
                    -1);
    CU_ASSERT_STRING_EQUAL(err, "pattern group_pair: the job has 3 ranks in group 0 but 2 in group "
                                "1 (expected the same number in each of its groups)");
    rank_pattern_destroy(&pat);
    const int32_t single[3] = {0, 1, 2};
    CU_ASSERT_EQUAL(rank_pattern_init(&pat, &rank_pattern_group_pair, &params, 3, single, &g.m,
                                      &rng, err, sizeof err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "the job's 3 ranks are all in group 0"));
    CU_ASSERT(pattern_fails("group_pair", params, 4));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "needs the job's placement"));
}

/* ---- injection processes ---------------------------------------------------------------- */

static void process_make(struct injection_process *ip, const char *name,
                         struct injection_params params, int nranks, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed, 12);
    int status =
        injection_process_init(ip, injection_find(name), &params, nranks, &rng, err, sizeof err);
    if (status != 0)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_EQUAL_FATAL(status, 0);
}

/* |count - n p| within 5 standard deviations of a Binomial(n, p). */
static void assert_binomial(long count, double n, double p)
{
    double sd = sqrt(n * p * (1 - p));
    CU_ASSERT(fabs((double)count - n * p) < 5 * sd);
    if (!(fabs((double)count - n * p) < 5 * sd))
        fprintf(stderr, "\n  count %ld, expected %.1f +- %.1f\n", count, n * p, 5 * sd);
}

/* Each rank fires exactly in one residue class mod the interval, at phases that differ between
 * ranks; next() gives exactly the next firing cycle. */
static void test_periodic(void)
{
    struct injection_process ip;
    process_make(&ip, "periodic", (struct injection_params){.interval_cycles = 7}, 40, 1);
    CU_ASSERT_DOUBLE_EQUAL(injection_process_rate(&ip), 1.0 / 7, 1e-15);
    int phases_seen[7] = {0};
    for (int32_t r = 0; r < 40; r++) {
        uint64_t last = UINT64_MAX;
        int fired = 0;
        for (uint64_t c = 0; c < 700; c++) {
            if (!injection_process_fires(&ip, r, c, NULL))
                continue;
            if (last == UINT64_MAX)
                phases_seen[c]++;
            else
                CU_ASSERT_EQUAL(c - last, 7);
            last = c;
            fired++;
        }
        CU_ASSERT_EQUAL(fired, 100);
        for (uint64_t from = 1000; from < 1030; from++) {
            uint64_t next = injection_process_next(&ip, r, from, NULL);
            CU_ASSERT(next >= from && next < from + 7);
            CU_ASSERT(injection_process_fires(&ip, r, next, NULL));
            for (uint64_t c = from; c < next; c++)
                CU_ASSERT(!injection_process_fires(&ip, r, c, NULL));
        }
    }
    int distinct = 0;
    for (int k = 0; k < 7; k++)
        distinct += phases_seen[k] > 0;
    CU_ASSERT(distinct >= 5); /* 40 ranks over 7 phases: not all in one cycle */
    injection_process_destroy(&ip);
    process_make(&ip, "periodic", (struct injection_params){.rate = 0.25}, 1, 1);
    CU_ASSERT_EQUAL(ip.period, 4);
    injection_process_destroy(&ip);
    struct rng rng;
    CU_ASSERT_EQUAL(injection_process_init(&ip, &injection_periodic, &(struct injection_params){0},
                                           1, &rng, err, sizeof err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "interval_cycles 0 (expected at least 1"));
}

/* The number of messages of one rank over many cycles, by fires() and by next(). */
static long count_fires(const struct injection_process *ip, int32_t rank, uint64_t cycles,
                        struct rng *rng)
{
    long count = 0;
    for (uint64_t c = 0; c < cycles; c++)
        count += injection_process_fires(ip, rank, c, rng);
    return count;
}

static long count_next(const struct injection_process *ip, int32_t rank, uint64_t cycles,
                       struct rng *rng,
                       bool (*allowed)(const struct injection_process *, int32_t, uint64_t))
{
    long count = 0;
    for (uint64_t c = injection_process_next(ip, rank, 0, rng); c < cycles;
         c = injection_process_next(ip, rank, c + 1, rng)) {
        if (allowed && !allowed(ip, rank, c))
            CU_FAIL("next() gave a cycle in which the rank may not fire");
        count++;
    }
    return count;
}

static void test_bernoulli_rate(void)
{
    const double rates[] = {0.01, 0.1, 0.5};
    for (size_t k = 0; k < 3; k++) {
        struct injection_process ip;
        process_make(&ip, "bernoulli", (struct injection_params){.rate = rates[k]}, 4, 1);
        struct rng rng;
        rng_seed(&rng, 77, k);
        assert_binomial(count_fires(&ip, 0, 200000, &rng), 200000, rates[k]);
        assert_binomial(count_next(&ip, 1, 200000, &rng, NULL), 200000, rates[k]);
        injection_process_destroy(&ip);
    }
    struct injection_process never;
    process_make(&never, "bernoulli", (struct injection_params){.rate = 0}, 1, 1);
    struct rng rng;
    rng_seed(&rng, 1, 0);
    CU_ASSERT_EQUAL(count_fires(&never, 0, 1000, &rng), 0);
    CU_ASSERT_EQUAL(injection_process_next(&never, 0, 5, &rng), UINT64_MAX);
    CU_ASSERT_EQUAL(injection_process_init(&never, &injection_bernoulli,
                                           &(struct injection_params){.rate = 1.5}, 1, &rng, err,
                                           sizeof err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "rate 1.5 messages per cycle (expected 0 .. 1"));
}

/* Whether rank is in an on period at cycle c, from the phase's definition. */
static bool on_off_is_on(const struct injection_process *ip, int32_t rank, uint64_t c)
{
    return (c + ip->phase[rank]) % (uint64_t)(ip->params.on_cycles + ip->params.off_cycles) <
           (uint64_t)ip->params.on_cycles;
}

/* Never fires while off; on 30 % of the cycles; mean rate `rate` overall, with next() too. */
static void test_on_off(void)
{
    struct injection_process ip;
    const struct injection_params params = {.rate = 0.1, .on_cycles = 30, .off_cycles = 70};
    process_make(&ip, "on_off", params, 20, 3);
    struct rng rng;
    rng_seed(&rng, 5, 0);
    const uint64_t cycles = 100000;
    long fires = 0, fires_next = 0, on_cycles = 0;
    for (int32_t r = 0; r < 20; r++) {
        long on = 0;
        for (uint64_t c = 0; c < cycles; c++) {
            bool is_on = on_off_is_on(&ip, r, c);
            bool fired = injection_process_fires(&ip, r, c, &rng);
            on += is_on;
            if (fired && !is_on)
                CU_FAIL("on_off fired in an off cycle");
            fires += fired;
        }
        CU_ASSERT_EQUAL(on, 30000);
        on_cycles += on;
        fires_next += count_next(&ip, r, cycles, &rng, on_off_is_on);
    }
    /* Binomial over the on cycles at probability rate / duty = 1/3. */
    assert_binomial(fires, (double)on_cycles, 0.1 / 0.3);
    assert_binomial(fires_next, (double)on_cycles, 0.1 / 0.3);
    CU_ASSERT_DOUBLE_EQUAL(injection_process_rate(&ip), 0.1, 1e-15);
    int phases_differ = 0;
    for (int32_t r = 1; r < 20; r++)
        phases_differ += ip.phase[r] != ip.phase[0];
    CU_ASSERT(phases_differ > 0);
    injection_process_destroy(&ip);
    CU_ASSERT_EQUAL(injection_process_init(
                        &ip, &injection_on_off,
                        &(struct injection_params){.rate = 0.5, .on_cycles = 1, .off_cycles = 3}, 1,
                        &rng, err, sizeof err),
                    -1);
    CU_ASSERT_STRING_EQUAL(err, "process on_off: rate 0.5 at a duty cycle of 1/4 needs 2 messages "
                                "per on cycle (expected rate <= on_cycles / (on_cycles + "
                                "off_cycles) = 0.25)");
}

/* A process without off cycles is Bernoulli; with a tiny rate next() skips far ahead at once. */
static void test_on_off_edges(void)
{
    struct injection_process ip;
    process_make(&ip, "on_off", (struct injection_params){.rate = 0.2, .on_cycles = 5}, 1, 1);
    struct rng rng;
    rng_seed(&rng, 6, 0);
    assert_binomial(count_fires(&ip, 0, 100000, &rng), 100000, 0.2);
    injection_process_destroy(&ip);
    process_make(&ip, "on_off",
                 (struct injection_params){.rate = 1e-12, .on_cycles = 10, .off_cycles = 990}, 1,
                 1);
    uint64_t next = injection_process_next(&ip, 0, 0, &rng);
    CU_ASSERT(next > 1000000);
    CU_ASSERT(next == UINT64_MAX || on_off_is_on(&ip, 0, next));
    injection_process_destroy(&ip);
}

static const struct test_case test_job_traffic_cases[] = {
    {"registries", test_pattern_registry},
    {"no pattern returns its source", test_never_self},
    {"uniform: chi-square", test_uniform_is_uniform},
    {"permutation: a seeded derangement", test_permutation},
    {"tornado: r + offset mod n, errors", test_tornado},
    {"incast: targets only receive", test_incast},
    {"fanout: the first ranks send to all the others", test_fanout},
    {"group_pair: same index, another group", test_group_pair},
    {"periodic: exactly every interval", test_periodic},
    {"bernoulli: binomial rate, fires and next", test_bernoulli_rate},
    {"on_off: duty cycle and rate", test_on_off},
    {"on_off: no off period, tiny rates", test_on_off_edges},
};

int test_job_traffic_register(void)
{
    return test_add_suite("job_traffic", NULL, NULL, test_job_traffic_cases,
                          sizeof test_job_traffic_cases / sizeof test_job_traffic_cases[0]);
}
