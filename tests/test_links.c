/* Links of any bandwidth (links.bandwidth_*): a saturated link carries exactly its bandwidth, the
 * theoretical bound (src/METRICS.md#theoretical-bounds) scales with the global links', a lone
 * packet takes the latency the model gives it, the invariants hold at fractional bandwidths, and
 * buffers too small for a link's credit round trip bound what one VC carries (and the bound with
 * them). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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
    while (sim->net.cycle < sim->total_cycles) {
        for (uint32_t n = 0; n < 4; n++)
            network_inject(&sim->net, n, 4 + n); /* refused once the queue is full */
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

/* The theoretical bound with global links of bandwidth b: MIN under ADV+1 saturates at b/(a*p)
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
        double accepted = (double)sim->stats.delivered_phits / (sim->net.topo.nodes * 6000.0);
        double bound = cfg.links.bandwidth_global / (6 * 3);
        struct bounds_throughput b;
        CU_ASSERT_EQUAL(bounds_throughput(&cfg, &sim->net.topo, &b), 0);
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
            CU_ASSERT_EQUAL_FATAL(network_inject(&sim->net, pairs[i][0], pairs[i][1]), 0);
            while (sim->net.counts.total_delivered == 0 && sim->net.cycle < 2000)
                CU_ASSERT_EQUAL_FATAL(sim_step(sim), SIM_OK);
            const struct topology *t = &sim->net.topo;
            double expected =
                bounds_pair_latency(&cfg, t, topology_router_of_node(t, (int)pairs[i][0]),
                                    topology_router_of_node(t, (int)pairs[i][1]));
            /* Delivered in the cycle the tail arrives: generated at 0, so that is its age. */
            CU_ASSERT_EQUAL(sim->net.counts.total_delivered, 1);
            CU_ASSERT_EQUAL((double)sim->net.cycle - 1, expected);
            if ((double)sim->net.cycle - 1 != expected)
                fprintf(stderr, "\n  %s %s %s, %u -> %u: delivered at %lu, model %.0f\n",
                        bandwidths[b][0], bandwidths[b][1], bandwidths[b][2], pairs[i][0],
                        pairs[i][1], (unsigned long)sim->net.cycle - 1, expected);
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
            fprintf(stderr, "\n  %s: %s\n", routings[i], sim->net.message);
        CU_ASSERT_EQUAL(status, SIM_OK);
        CU_ASSERT(sim->stats.delivered > 1000);
        sim_destroy(sim);
    }
}

/* ---- buffers against the credit round trip ---- */

/* The credits of the hops a lone packet takes: when each was taken, and when it was back. */
struct links_credit_hop {
    int router, port, vc, cls;
    uint64_t taken, back;
};

struct links_credit_trace {
    struct links_credit_hop hop[8];
    int hops;
};

static void links_on_hop(void *ctx, const struct network *net, int router, int in_port,
                         uint32_t packet, const struct route_choice *choice)
{
    (void)in_port;
    (void)packet;
    struct links_credit_trace *tr = ctx;
    int cls = topology_port_class(&net->topo, router, choice->out_port);
    if (cls != PORT_NODE && tr->hops < 8)
        tr->hop[tr->hops++] =
            (struct links_credit_hop){router, choice->out_port, choice->vc, cls, net->cycle, 0};
}

/* Sends one packet from node 0 to a node of another group (local, global, local hops) and
 * measures, for every hop, the cycles from the grant that took its credits to the cycle they
 * are back and usable (events come before allocation in a cycle: the end of that cycle's
 * step). Fills round_trip[class] with the first hop of each class: the source group's local
 * hop (fed by the node link) and the global hop (fed by that local link). */
static void links_measure_round_trip(const char *const *ov, int n, int round_trip[PORT_CLASSES])
{
    struct sim_config cfg;
    struct sim *sim = links_sim(&cfg, ov, n);
    struct links_credit_trace tr = {.hops = 0};
    sim->net.on_hop = links_on_hop;
    sim->net.on_hop_ctx = &tr;
    uint32_t dst = (uint32_t)(5 * cfg.topology.p * 12 + 5 * cfg.topology.p); /* group 5 */
    CU_ASSERT_EQUAL_FATAL(network_inject(&sim->net, 0, dst), 0);
    while (sim->net.cycle < 2000) {
        CU_ASSERT_EQUAL_FATAL(sim_step(sim), SIM_OK);
        for (int i = 0; i < tr.hops; i++) {
            const struct links_credit_hop *h = &tr.hop[i];
            int full = h->cls == PORT_LOCAL ? cfg.buffers.local : cfg.buffers.global;
            int32_t credits =
                sim->net.credits[network_vc_index(&sim->net, h->router, h->port, h->vc)];
            if (!tr.hop[i].back && sim->net.cycle - 1 > h->taken && credits == full)
                tr.hop[i].back = sim->net.cycle - 1;
        }
    }
    CU_ASSERT_EQUAL(tr.hops, 3); /* l-g-l */
    round_trip[PORT_LOCAL] = round_trip[PORT_GLOBAL] = -1;
    for (int i = tr.hops - 1; i >= 0; i--) { /* the first hop of each class wins */
        CU_ASSERT(tr.hop[i].back > 0);
        round_trip[tr.hop[i].cls] = (int)(tr.hop[i].back - tr.hop[i].taken);
    }
    sim_destroy(sim);
}

/* The credit round trip bounds_buffer_rate states is the simulator's, to the cycle, and by
 * hand 2*latency + max(router.latency + ceil(S/speedup), lag + 1), lag being the cycles from
 * the grant to the tail leaving: the pipeline and crossbar (29 local, 209 global by default)
 * or a slow link's serialization (0.5 phits/cycle: 1 + 16 - 1 = 16, so 2*100 + 17 = 217).
 * Node links of 8 phits/cycle bring every tail in before its head is granted (the best case
 * the bound assumes); -1: the hop's upstream link is too slow for that, not compared. */
static void test_credit_round_trip(void)
{
    static const struct {
        const char *set[4];
        int local, global;
    } cases[] = {
        {{"router.speedup=2", "router.speedup=2", "router.speedup=2", "router.speedup=2"},
         2 * 10 + 5 + 4,
         2 * 100 + 5 + 4},
        {{"links.bandwidth_local=4", "links.bandwidth_global=2", "router.speedup=2",
          "router.speedup=2"},
         2 * 10 + 5 + 4,
         2 * 100 + 5 + 4},
        {{"links.bandwidth_local=4", "links.bandwidth_global=0.5", "router.speedup=2",
          "router.speedup=2"},
         2 * 10 + 5 + 4,
         2 * 100 + 1 + 16},
        {{"links.bandwidth_local=0.3", "router.speedup=2", "router.speedup=2", "router.speedup=2"},
         2 * 10 + 1 + 27, /* 8 phits at 0.3 per cycle: the tail leaves 27 cycles on */
         -1},
        {{"links.bandwidth_local=3.66", "links.bandwidth_global=1.2", "router.speedup=1",
          "links.global_latency=37"},
         2 * 10 + 5 + 8,
         2 * 37 + 5 + 8},
        {{"links.bandwidth_local=4", "links.bandwidth_global=4", "router.speedup=8",
          "router.latency=3"},
         2 * 10 + 3 + 1,
         2 * 100 + 3 + 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *ov[] = {"traffic.load=0", "sim.warmup_cycles=0", "links.bandwidth_node=8",
                            cases[i].set[0],  cases[i].set[1],       cases[i].set[2],
                            cases[i].set[3]};
        int n = (int)(sizeof ov / sizeof ov[0]);
        int measured[PORT_CLASSES];
        links_measure_round_trip(ov, n, measured);
        struct sim_config cfg;
        test_config(&cfg, ov, n);
        const int expected[PORT_CLASSES] = {0, cases[i].local, cases[i].global};
        for (int c = PORT_LOCAL; c <= PORT_GLOBAL; c++) {
            struct bounds_buffer b;
            CU_ASSERT_EQUAL_FATAL(bounds_buffer_rate(&cfg, (enum port_class)c, &b), 0);
            if (expected[c] < 0)
                continue;
            CU_ASSERT_EQUAL(measured[c], expected[c]);
            CU_ASSERT_EQUAL(b.round_trip, expected[c]);
            if (measured[c] != expected[c] || b.round_trip != expected[c])
                fprintf(stderr, "\n  case %zu, %s: measured %d, bounds %d, by hand %d\n", i,
                        c == PORT_LOCAL ? "local" : "global", measured[c], b.round_trip,
                        expected[c]);
        }
    }
    struct sim_config cfg;
    struct bounds_buffer b;
    test_config(&cfg, NULL, 0);
    CU_ASSERT_EQUAL(bounds_buffer_rate(&cfg, PORT_NODE, &b), -1); /* no credits */
}

/* With the defaults (those of conf/default.cfg and conf/paper_h6.cfg), one VC of 32 local
 * phits carries 32/29 = 1.10 phits/cycle, one of 256 global phits 256/209 = 1.22: both cover
 * their links of 1 phit/cycle, so nothing binds. A buffer that is not a multiple of the
 * packet holds whole packets only: 20 phits carry what 16 do. */
static void test_buffer_rate_by_hand(void)
{
    struct sim_config cfg;
    struct bounds_buffer local, global;
    test_config(&cfg, NULL, 0);
    bounds_buffer_rate(&cfg, PORT_LOCAL, &local);
    bounds_buffer_rate(&cfg, PORT_GLOBAL, &global);
    CU_ASSERT_DOUBLE_EQUAL(local.rate, 32.0 / 29, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(global.rate, 256.0 / 209, 1e-12);
    CU_ASSERT(!bounds_buffer_binds(&local));
    CU_ASSERT(!bounds_buffer_binds(&global));
    const char *ov[] = {"buffers.global=20", "links.bandwidth_global=2"};
    test_config(&cfg, ov, 2);
    bounds_buffer_rate(&cfg, PORT_GLOBAL, &global);
    CU_ASSERT_DOUBLE_EQUAL(global.rate, 16.0 / 209, 1e-12);
    CU_ASSERT(bounds_buffer_binds(&global));
    /* Faster than the crossbar too: the buffers bind only below what the crossbar lets by. */
    const char *fast[] = {"buffers.global=512", "links.bandwidth_global=4"};
    test_config(&cfg, fast, 2);
    bounds_buffer_rate(&cfg, PORT_GLOBAL, &global);
    CU_ASSERT_DOUBLE_EQUAL(global.limit, 2.0, 1e-12); /* 8 phits per 4-cycle transfer */
    CU_ASSERT(!bounds_buffer_binds(&global));
}

/* Runs MIN under ADV+1 saturated (offered `load`) and checks it against the bound `expected`
 * (phits/node/cycle, by hand), which bounds_throughput must state: accepted at most the bound
 * (plus what the window's two edges may catch: a buffer's worth per bottleneck link, one per
 * group) and at least 90 % of it. */
static void links_check_saturation(const char *const *ov, int n, double expected, int window)
{
    struct sim_config cfg;
    struct sim *sim = links_sim(&cfg, ov, n);
    struct bounds_throughput b;
    CU_ASSERT_EQUAL_FATAL(bounds_throughput(&cfg, &sim->net.topo, &b), 0);
    CU_ASSERT_DOUBLE_EQUAL(b.load, expected, 1e-12);
    CU_ASSERT_PTR_NOT_NULL(strstr(b.formula, "r_global * 1/(a*p)"));
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    double cells = (double)sim->net.topo.nodes * window;
    double accepted = (double)sim->stats.delivered_phits / cells;
    double edges = (double)sim->net.topo.groups * cfg.buffers.global / cells;
    printf("\n    %s, %s: accepted %.5f, bound %.5f (%.1f %%)", ov[n - 2], ov[n - 1], accepted,
           expected, 100 * accepted / expected);
    CU_ASSERT(accepted <= expected + edges);
    CU_ASSERT(accepted >= 0.9 * expected);
    sim_destroy(sim);
}

/* A tiny network by hand: p=1 a=2 h=1 (3 groups, one global link per group pair), global
 * links of 20 cycles, 16-phit global buffers (two packets). With 2 phits/cycle the round
 * trip is 2*20 + 5 + 4 = 49 cycles and a VC carries 16/49 = 0.327 phits/cycle; with 0.5
 * phits/cycle the tail's serialization sets it: 2*20 + 1 + 16 = 57, 16/57 = 0.281. MIN's
 * ladder has one global VC, so under ADV+1 every node accepts at most that over a*p = 2. */
static void test_buffers_bound_tiny(void)
{
    static const struct {
        const char *bandwidth;
        int round_trip;
    } cases[] = {{"links.bandwidth_global=2", 49}, {"links.bandwidth_global=0.5", 57}};
    for (int i = 0; i < 2; i++) {
        const char *ov[] = {"topology.p=1",
                            "topology.a=2",
                            "topology.h=1",
                            "traffic.pattern=adversarial",
                            "traffic.load=0.5",
                            "sim.warmup_cycles=2000",
                            "sim.measure_cycles=20000",
                            "links.global_latency=20",
                            "buffers.global=16",
                            cases[i].bandwidth};
        int n = (int)(sizeof ov / sizeof ov[0]);
        struct sim_config cfg;
        struct bounds_buffer b;
        test_config(&cfg, ov, n);
        bounds_buffer_rate(&cfg, PORT_GLOBAL, &b);
        CU_ASSERT_EQUAL(b.round_trip, cases[i].round_trip);
        links_check_saturation(ov, n, 16.0 / cases[i].round_trip / 2, 20000);
    }
    printf("\n");
}

/* Issue 33's case: p=3 a=6 h=3, MIN under ADV+1, global links of 2 phits/cycle and the
 * default 256-phit buffers: a VC carries 256/209 = 1.22 phits/cycle, so the bound is
 * 1.22/(a*p) = 0.0680, not 2/(a*p) = 0.111 (the run accepts 0.0679). */
static void test_buffers_bound_issue(void)
{
    const char *ov[] = {"topology.p=3",
                        "topology.a=6",
                        "topology.h=3",
                        "traffic.pattern=adversarial",
                        "traffic.load=0.3",
                        "sim.warmup_cycles=3000",
                        "sim.measure_cycles=5000",
                        "buffers.global=256",
                        "links.bandwidth_global=2"};
    links_check_saturation(ov, (int)(sizeof ov / sizeof ov[0]), 256.0 / 209 / 18, 5000);
    printf("\n");
}

int test_links_register(void)
{
    static const struct test_case cases[] = {
        {"a saturated link carries its bandwidth (0.5, 1, 1.2, 3.66)",
         test_link_carries_its_bandwidth},
        {"MIN under ADV+1 saturates at b_global/(a*p)", test_min_adversarial_scales},
        {"a lone packet's latency follows the model at any bandwidth", test_lone_packet_latency},
        {"invariants hold at fractional bandwidths", test_invariants_fractional},
        {"the credit round trip bounds_buffer_rate states is the simulator's",
         test_credit_round_trip},
        {"what one VC's buffers carry, by hand (defaults bind nothing)", test_buffer_rate_by_hand},
        {"buffers bound MIN under ADV+1 on a tiny network, by hand", test_buffers_bound_tiny},
        {"buffers bound MIN under ADV+1 at 2 phits/cycle, 256 phits",
         test_buffers_bound_issue},
    };
    return test_add_suite("links", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
