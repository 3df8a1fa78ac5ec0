/* Arbiters on hand-built request sets, and the starvation that round robin with transit
 * priority causes and age-based arbitration avoids. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "arbiter.h"
#include "sim.h"
#include "test_util.h"

static const uint32_t no_age[64];

/* Round robin serves the first requester at or after the pointer, wrapping around. */
static void test_round_robin_rotates(void)
{
    const struct arbiter_ops *rr = &arbiter_round_robin;
    uint64_t req = (1ull << 2) | (1ull << 5) | (1ull << 9);
    CU_ASSERT_EQUAL(rr->pick(req, 0, no_age), 2);
    CU_ASSERT_EQUAL(rr->pick(req, 3, no_age), 5);
    CU_ASSERT_EQUAL(rr->pick(req, 6, no_age), 9);
    CU_ASSERT_EQUAL(rr->pick(req, 10, no_age), 2);
    CU_ASSERT_EQUAL(rr->pick(1ull << 63, 5, no_age), 63);
    CU_ASSERT_EQUAL(rr->pick(1ull, 63, no_age), 0);
    /* Served in turn when the pointer moves past each grant. */
    int pointer = 0, order[6];
    for (int i = 0; i < 6; i++) {
        order[i] = rr->pick(req, pointer, no_age);
        pointer = order[i] + 1;
    }
    int expected[6] = {2, 5, 9, 2, 5, 9};
    CU_ASSERT_EQUAL(memcmp(order, expected, sizeof order), 0);
}

/* Age picks the oldest; equal ages go round robin from the pointer. */
static void test_age_oldest_then_round_robin(void)
{
    const struct arbiter_ops *age = arbiter_find("age");
    CU_ASSERT_PTR_NOT_NULL_FATAL(age);
    uint32_t ages[64] = {0};
    ages[1] = 500;
    ages[4] = 120;
    ages[7] = 300;
    uint64_t req = (1ull << 1) | (1ull << 4) | (1ull << 7);
    CU_ASSERT_EQUAL(age->pick(req, 0, ages), 4);
    CU_ASSERT_EQUAL(age->pick(req, 5, ages), 4);
    ages[1] = ages[7] = 120; /* three-way tie */
    CU_ASSERT_EQUAL(age->pick(req, 0, ages), 1);
    CU_ASSERT_EQUAL(age->pick(req, 2, ages), 4);
    CU_ASSERT_EQUAL(age->pick(req, 5, ages), 7);
    CU_ASSERT_EQUAL(age->pick(req, 8, ages), 1);
    ages[7] = 119;
    CU_ASSERT_EQUAL(age->pick(req, 2, ages), 7);
}

/* With transit priority an injection input never wins while a transit input requests. */
static void test_transit_priority(void)
{
    const struct arbiter_ops *ops[] = {&arbiter_round_robin, arbiter_find("age")};
    uint64_t transit = ~0ull << 3; /* ports 0..2 are node ports */
    uint32_t ages[64] = {0};
    for (int i = 0; i < 64; i++)
        ages[i] = (uint32_t)(1000 - i); /* higher ports hold older packets */
    ages[0] = 1;                        /* the injection input holds the oldest packet */
    for (int o = 0; o < 2; o++)
        for (int pointer = 0; pointer < 12; pointer++) {
            uint64_t req = 1ull | (1ull << 2) | (1ull << 6) | (1ull << 10);
            int with = arbiter_pick_output(ops[o], req, pointer, ages, true, transit);
            CU_ASSERT(with == 6 || with == 10);
            int without = arbiter_pick_output(ops[o], req, pointer, ages, false, transit);
            if (o == 1)
                CU_ASSERT_EQUAL(without, 0); /* age alone serves the oldest, an injection */
            /* Only injection requests: they are served. */
            int alone =
                arbiter_pick_output(ops[o], 1ull | (1ull << 2), pointer, ages, true, transit);
            CU_ASSERT(alone == 0 || alone == 2);
        }
}

/* Router a-1 of group 0 owns the only link to group 1: under ADV+1 the transit traffic of
 * the other a-1 routers (offered (a-1)*p*load > 1 phit/cycle) fills it. Round robin with
 * transit priority starves router a-1's own nodes; age-based arbitration serves them. */
static void starvation_run(const char *arbiter, const char *priority, uint64_t *rout,
                           uint64_t *others_min)
{
    char arb[64];
    snprintf(arb, sizeof arb, "router.arbiter=%s", arbiter);
    const char *ov[] = {"topology.h=2",
                        "topology.a=4",
                        "topology.p=2",
                        "traffic.pattern=adversarial",
                        "traffic.load=0.3",
                        "sim.warmup_cycles=3000",
                        "sim.measure_cycles=6000",
                        arb,
                        priority};
    struct sim_config cfg;
    char err[256];
    test_config(&cfg, ov, (int)(sizeof ov / sizeof ov[0]));
    struct sim *sim = sim_create(&cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    int a = topology_group_routers(&sim->net.topo, 0);
    *rout = sim->net.counts.router_injected[a - 1];
    *others_min = UINT64_MAX;
    for (int r = 0; r < a - 1; r++)
        if (sim->net.counts.router_injected[r] < *others_min)
            *others_min = sim->net.counts.router_injected[r];
    sim_destroy(sim);
}

static void test_starvation(void)
{
    uint64_t rout, others;
    starvation_run("round_robin", "router.transit_priority=true", &rout, &others);
    printf("\n    RR + transit priority: R_out injected %lu packets, other routers >= %lu",
           (unsigned long)rout, (unsigned long)others);
    CU_ASSERT(others > 100);
    CU_ASSERT(rout * 20 < others);
    starvation_run("age", "router.transit_priority=false", &rout, &others);
    printf("\n    age: R_out injected %lu packets, other routers >= %lu\n", (unsigned long)rout,
           (unsigned long)others);
    CU_ASSERT(rout * 10 > others * 7);
}

int test_arbiter_register(void)
{
    CU_pSuite s = CU_add_suite("arbiter", NULL, NULL);
    if (!s)
        return -1;
    CU_add_test(s, "round robin rotates", test_round_robin_rotates);
    CU_add_test(s, "age picks the oldest, ties round robin", test_age_oldest_then_round_robin);
    CU_add_test(s, "transit priority never grants injection over transit", test_transit_priority);
    CU_add_test(s, "RR+priority starves R_out under ADV+1, age does not", test_starvation);
    return 0;
}
