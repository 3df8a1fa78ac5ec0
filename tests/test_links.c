/* Links of any bandwidth (links.bandwidth_*): a saturated link carries exactly its bandwidth,
 * SPEC section 9's bound scales with the global links', a lone packet takes the latency the
 * model gives it, and the invariants hold at fractional bandwidths. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>

#include "bounds.h"
#include "sim.h"
#include "test_util.h"

static struct sim *links_sim(struct sim_config *cfg, const char *const *overrides, int n)
{
    char err[256];
    test_config(cfg, overrides, n);
    struct sim *sim = sim_create(cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    return sim;
}

/* Router 0's four nodes keep their injection queues full of packets for router 1's four
 * nodes: everything crosses the one local link 0 -> 1 (fast node links, a crossbar of one
 * packet per cycle and deep local buffers keep everything else out of the way). Returns the
 * phits delivered in the measurement window. */
static uint64_t saturate_local_link(const char *bandwidth, int warmup, int window)
{
    char warm[48], measure[48];
    snprintf(warm, sizeof warm, "sim.warmup_cycles=%d", warmup);
    snprintf(measure, sizeof measure, "sim.measure_cycles=%d", window);
    const char *ov[] = {"topology.p=4",
                        "topology.a=4",
                        "topology.h=2",
                        "traffic.load=0",
                        "links.bandwidth_node=8",
                        bandwidth,
                        "router.speedup=8",
                        "buffers.local=1024",
                        warm,
                        measure};
    struct sim_config cfg;
    struct sim *sim = links_sim(&cfg, ov, (int)(sizeof ov / sizeof ov[0]));
    while (sim->cycle < sim->total_cycles) {
        for (uint32_t n = 0; n < 4; n++)
            sim_inject(sim, n, 4 + n); /* refused once the queue is full */
        CU_ASSERT_EQUAL_FATAL(sim_step(sim), SIM_OK);
    }
    uint64_t phits = sim->stats.delivered_phits;
    sim_destroy(sim);
    return phits;
}

/* A link of bandwidth b carries b phits per cycle, exactly on average: over 10,000 cycles the
 * phits delivered are b * 10,000 within two packets (the window's two edges). */
static void test_link_carries_its_bandwidth(void)
{
    static const struct {
        const char *setting;
        double bandwidth;
    } cases[] = {{"links.bandwidth_local=0.5", 0.5},
                 {"links.bandwidth_local=1", 1.0},
                 {"links.bandwidth_local=1.2", 1.2},
                 {"links.bandwidth_local=3.66", 3.66}};
    const int window = 10000, packet = 8;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t phits = saturate_local_link(cases[i].setting, 2000, window);
        double expected = cases[i].bandwidth * window;
        printf("\n    local link of %.2f phits/cycle: %lu phits in %d cycles (%.4f per cycle)",
               cases[i].bandwidth, (unsigned long)phits, window, (double)phits / window);
        CU_ASSERT(fabs((double)phits - expected) <= 2 * packet);
    }
    printf("\n");
}

/* SPEC section 9 with global links of bandwidth b: MIN under ADV+1 saturates at b/(a*p)
 * (0.5 and 0.75 phits/cycle: the 256-phit global buffers cover the 100-cycle links' round
 * trip up to about 1.2 phits/cycle). The bound the info command prints is the same. */
static void test_min_adversarial_scales(void)
{
    static const char *const settings[] = {"links.bandwidth_global=0.5",
                                           "links.bandwidth_global=0.75"};
    for (int i = 0; i < 2; i++) {
        const char *ov[] = {"topology.p=3",
                            "topology.a=6",
                            "topology.h=3",
                            "traffic.pattern=adversarial",
                            "traffic.load=0.3",
                            "sim.warmup_cycles=3000",
                            "sim.measure_cycles=6000",
                            settings[i]};
        struct sim_config cfg;
        struct sim *sim = links_sim(&cfg, ov, (int)(sizeof ov / sizeof ov[0]));
        CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
        double accepted = (double)sim->stats.delivered_phits / (sim->topo.nodes * 6000.0);
        double bound = cfg.links.bandwidth_global / (6 * 3);
        struct bounds_throughput b;
        CU_ASSERT_EQUAL(bounds_throughput(&cfg, &sim->topo, &b), 0);
        CU_ASSERT_DOUBLE_EQUAL(b.load, bound, 1e-12);
        printf("\n    MIN ADV+1, global links of %.2f: accepted %.5f, bound b/(a*p) = %.5f",
               cfg.links.bandwidth_global, accepted, bound);
        CU_ASSERT(accepted <= bound * 1.02);
        CU_ASSERT(accepted >= bound * 0.95);
        sim_destroy(sim);
    }
    printf("\n");
}

/* A lone packet takes exactly the latency the model gives it (bounds_pair_latency follows
 * the simulator's rules for every link of its path), for links of mixed and fractional
 * bandwidths, to the same router, the same group and another group. */
static void test_lone_packet_latency(void)
{
    static const char *const bandwidths[][3] = {
        {"links.bandwidth_node=1", "links.bandwidth_local=1", "links.bandwidth_global=1"},
        {"links.bandwidth_node=3.66", "links.bandwidth_local=1.2", "links.bandwidth_global=1"},
        {"links.bandwidth_node=0.5", "links.bandwidth_local=0.7", "links.bandwidth_global=0.25"},
        {"links.bandwidth_node=2", "links.bandwidth_local=0.3", "links.bandwidth_global=2.5"},
    };
    static const uint32_t pairs[][2] = {{0, 1}, {0, 3}, {0, 9}, {0, 70}, {5, 40}};
    for (size_t b = 0; b < sizeof bandwidths / sizeof bandwidths[0]; b++)
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            const char *ov[] = {"traffic.load=0", "sim.warmup_cycles=0", "router.speedup=1",
                                bandwidths[b][0], bandwidths[b][1],      bandwidths[b][2]};
            struct sim_config cfg;
            struct sim *sim = links_sim(&cfg, ov, (int)(sizeof ov / sizeof ov[0]));
            CU_ASSERT_EQUAL_FATAL(sim_inject(sim, pairs[i][0], pairs[i][1]), 0);
            while (sim->stats.total_delivered == 0 && sim->cycle < 2000)
                CU_ASSERT_EQUAL_FATAL(sim_step(sim), SIM_OK);
            const struct topology *t = &sim->topo;
            double expected =
                bounds_pair_latency(&cfg, t, topology_router_of_node(t, (int)pairs[i][0]),
                                    topology_router_of_node(t, (int)pairs[i][1]));
            /* Delivered in the cycle the tail arrives: generated at 0, so that is its age. */
            CU_ASSERT_EQUAL(sim->stats.total_delivered, 1);
            CU_ASSERT_EQUAL((double)sim->cycle - 1, expected);
            if ((double)sim->cycle - 1 != expected)
                fprintf(stderr, "\n  %s %s %s, %u -> %u: delivered at %lu, model %.0f\n",
                        bandwidths[b][0], bandwidths[b][1], bandwidths[b][2], pairs[i][0],
                        pairs[i][1], (unsigned long)sim->cycle - 1, expected);
            sim_destroy(sim);
        }
}

/* Every invariant holds at saturation with fractional bandwidths (credits, link spacing at
 * the links' own rates, event horizons), for a minimal and an adaptive routing. */
static void test_invariants_fractional(void)
{
    static const char *const routings[] = {"routing.mechanism=min", "routing.mechanism=in_transit"};
    for (int i = 0; i < 2; i++) {
        const char *ov[] = {"topology.p=3",
                            "topology.a=6",
                            "topology.h=3",
                            routings[i],
                            "traffic.load=1",
                            "links.bandwidth_node=2.5",
                            "links.bandwidth_local=1.2",
                            "links.bandwidth_global=0.7",
                            "sim.warmup_cycles=0",
                            "sim.measure_cycles=2500"};
        struct sim_config cfg;
        struct sim *sim = links_sim(&cfg, ov, (int)(sizeof ov / sizeof ov[0]));
        sim->check_invariants = true;
        enum sim_status status = sim_run(sim, NULL, NULL);
        if (status != SIM_OK)
            fprintf(stderr, "\n  %s: %s\n", routings[i], sim->message);
        CU_ASSERT_EQUAL(status, SIM_OK);
        CU_ASSERT(sim->stats.delivered > 1000);
        sim_destroy(sim);
    }
}

int test_links_register(void)
{
    static const struct test_case cases[] = {
        {"a saturated link carries its bandwidth (0.5, 1, 1.2, 3.66)",
         test_link_carries_its_bandwidth},
        {"MIN under ADV+1 saturates at b_global/(a*p)", test_min_adversarial_scales},
        {"a lone packet's latency follows the model at any bandwidth", test_lone_packet_latency},
        {"invariants hold at fractional bandwidths", test_invariants_fractional},
    };
    return test_add_suite("links", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
