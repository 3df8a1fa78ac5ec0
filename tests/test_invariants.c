/* test_invariants: the recount behind `dfsim run --check` catches each kind of broken state
 * with a message naming cycle, router, port, VC and packet; it accepts every routing's
 * healthy runs at saturation; and it checks only every K-th cycle when asked to. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "test_util.h"

#define SMALL "topology.h=2", "topology.a=4", "topology.p=2"

/* A run of the small network (72 nodes) with the given overrides after the SMALL ones. */
static struct sim *test_inv_sim(struct sim_config *cfg, const char *const *extra, int n)
{
    const char *ov[12] = {SMALL};
    int count = 3;
    for (int i = 0; i < n && count < 12; i++)
        ov[count++] = extra[i];
    test_config(cfg, ov, count);
    char err[256];
    struct sim *sim = sim_create(cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    return sim;
}

/* An empty network at cycle 0 (no traffic) to plant packets and events in by hand. */
static struct sim *test_inv_blank(struct sim_config *cfg, const char *mechanism)
{
    const char *ov[] = {"traffic.load=0", mechanism};
    return test_inv_sim(cfg, ov, 2);
}

/* A generated packet in flight, at no place yet. */
static uint32_t test_inv_packet(struct sim *sim, uint32_t src, uint32_t dst)
{
    uint32_t index = packet_alloc(&sim->net.pool);
    CU_ASSERT_FATAL(index != PACKET_NONE);
    struct packet *pk = network_packet(&sim->net, index);
    pk->src = src;
    pk->dst = dst;
    pk->gen_cycle = (uint32_t)sim->net.cycle;
    sim->net.in_network++;
    sim->net.counts.total_generated++;
    return index;
}

/* A new packet on the link into (router, port, vc), due after `delay` cycles, with the
 * credit its upstream router gave for it (as router_send leaves it). */
static uint32_t test_inv_arrival(struct sim *sim, int router, int port, int vc, int ladder_pos,
                                 uint32_t delay)
{
    uint32_t index = test_inv_packet(sim, 0, (uint32_t)sim->net.topo.nodes - 1);
    struct packet *pk = network_packet(&sim->net, index);
    pk->vc = (uint8_t)vc;
    pk->ladder_pos = (uint8_t)ladder_pos;
    struct event *ev = event_wheel_add(&sim->net.wheel, sim->net.cycle + delay);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    *ev = (struct event){.packet = index,
                         .router = (uint32_t)router,
                         .port = (uint8_t)port,
                         .vc = (uint8_t)vc,
                         .kind = EVENT_ARRIVAL};
    int up = network_vc_index(&sim->net, topology_neighbour(&sim->net.topo, router, port),
                              topology_neighbour_port(&sim->net.topo, router, port), vc);
    sim->net.credits[up] -= sim->net.packet_size;
    return index;
}

/* A credit on its way back to (router, output port, vc), due after `delay` cycles. */
static void test_inv_credit(struct sim *sim, int router, int port, int vc, uint32_t delay)
{
    struct event *ev = event_wheel_add(&sim->net.wheel, sim->net.cycle + delay);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    *ev = (struct event){
        .router = (uint32_t)router, .port = (uint8_t)port, .vc = (uint8_t)vc, .kind = EVENT_CREDIT};
    sim->net.credits[network_vc_index(&sim->net, router, port, vc)] -= sim->net.packet_size;
}

static void test_inv_expect_ok(struct sim *sim, const char *what)
{
    int rc = sim_check_invariants(sim);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "\n  %s: unexpected: %s\n", what, sim->net.message);
}

/* The check fails and its message holds every fragment (NULL-terminated list). */
static void test_inv_expect_broken(struct sim *sim, const char *const *fragments)
{
    int rc = sim_check_invariants(sim);
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_EQUAL(sim->net.status, SIM_INVARIANT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim->net.message, "invariant broken at cycle "));
    for (int i = 0; fragments[i]; i++) {
        bool found = strstr(sim->net.message, fragments[i]) != NULL;
        CU_ASSERT(found);
        if (!found)
            fprintf(stderr, "\n  expected '%s' in: %s\n", fragments[i], sim->net.message);
    }
    sim->net.status = SIM_OK;
}

/* ---- links ---- */

/* Two packets on one link are at least a packet apart (1 phit per cycle, in order). */
static void test_inv_link_spacing(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_blank(&cfg, "routing.mechanism=min");
    int port = topology_kind_of(&sim->net.topo, 0)->first[PORT_LOCAL], size = sim->net.packet_size;
    test_inv_arrival(sim, 0, port, 0, 1, 1);
    test_inv_arrival(sim, 0, port, 0, 1, 1 + (uint32_t)size);
    test_inv_expect_ok(sim, "a packet apart");
    sim_destroy(sim);

    sim = test_inv_blank(&cfg, "routing.mechanism=min");
    test_inv_arrival(sim, 0, port, 0, 1, 2);
    uint32_t second = test_inv_arrival(sim, 0, port, 0, 1, 1 + (uint32_t)size);
    char expected[128];
    snprintf(expected, sizeof expected, "router 0 port %d vc 0: packet %u arrives %d cycles after",
             port, network_packet(&sim->net, second)->id, size - 1);
    test_inv_expect_broken(sim, (const char *[]){expected, "same link", NULL});
    sim_destroy(sim);
}

/* Events are due within what their link allows: an arrival within the link latency, a credit
 * within the latency plus the crossbar transfer, a tail within the ejection link plus the
 * serialization. One cycle more is an error. */
static void test_inv_event_horizon(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_blank(&cfg, "routing.mechanism=min");
    int local = topology_kind_of(&sim->net.topo, 0)->first[PORT_LOCAL],
        global = topology_kind_of(&sim->net.topo, 0)->first[PORT_GLOBAL];
    int latency = cfg.links.local_latency, glatency = cfg.links.global_latency;
    int tail = sim->net.packet_size - cfg.router.latency + 1;
    int credit = latency + (tail > sim->net.xbar_cycles ? tail : sim->net.xbar_cycles);
    test_inv_arrival(sim, 0, local, 0, 1, (uint32_t)latency);
    test_inv_arrival(sim, 0, global, 0, 2, (uint32_t)glatency);
    test_inv_credit(sim, 1, local, 1, (uint32_t)credit);
    test_inv_expect_ok(sim, "at the horizon");
    test_inv_arrival(sim, 1, local, 0, 1, (uint32_t)latency + 1);
    char expected[64];
    snprintf(expected, sizeof expected, "due %d cycles ahead, beyond the %d", latency + 1, latency);
    test_inv_expect_broken(sim, (const char *[]){"router 1 port", expected, NULL});
    sim_destroy(sim);

    sim = test_inv_blank(&cfg, "routing.mechanism=min");
    test_inv_credit(sim, 1, local, 1, (uint32_t)credit + 1);
    test_inv_expect_broken(sim, (const char *[]){"router 1 port 2 vc 1", "beyond", NULL});
    sim_destroy(sim);

    /* An event pushed for a cycle already processed lands a whole turn of the wheel ahead. */
    sim = test_inv_blank(&cfg, "routing.mechanism=min");
    test_inv_arrival(sim, 0, local, 0, 1, sim->net.wheel.mask);
    test_inv_expect_broken(sim, (const char *[]){"beyond", NULL});
    sim_destroy(sim);
}

/* The wheel's pending count matches its buckets. */
static void test_inv_event_count(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_blank(&cfg, "routing.mechanism=min");
    test_inv_arrival(sim, 0, topology_kind_of(&sim->net.topo, 0)->first[PORT_LOCAL], 0, 1, 3);
    test_inv_expect_ok(sim, "one event");
    sim->net.wheel.pending++;
    test_inv_expect_broken(sim, (const char *[]){"1 events in the wheel, 2 counted", NULL});
    sim_destroy(sim);
}

/* ---- VC ladders ---- */

/* MIN climbs l0 g0 l1 strictly: a local buffer's VC is that of the entry just climbed. */
static void test_inv_ladder_strict(void)
{
    static const struct {
        int global, vc, ladder_pos, ok;
    } cases[] = {
        {0, 0, 1, 1}, {0, 1, 3, 1}, {1, 0, 2, 1}, /* l0, l1, g0: on the ladder */
        {0, 1, 1, 0}, {0, 0, 3, 0},               /* the other local VC */
        {1, 0, 1, 0}, {0, 0, 2, 0},               /* entry of the other class */
        {0, 0, 0, 0}, {0, 0, 4, 0},               /* outside the ladder */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sim_config cfg;
        struct sim *sim = test_inv_blank(&cfg, "routing.mechanism=min");
        int port = cases[i].global ? topology_kind_of(&sim->net.topo, 0)->first[PORT_GLOBAL]
                                   : topology_kind_of(&sim->net.topo, 0)->first[PORT_LOCAL];
        uint32_t index = test_inv_arrival(sim, 0, port, cases[i].vc, cases[i].ladder_pos, 1);
        char expected[160];
        snprintf(expected, sizeof expected,
                 "router 0 port %d vc %d: packet %u (0->71) in the link into is off the ladder "
                 "of routing 'min' (ladder position %d)",
                 port, cases[i].vc, network_packet(&sim->net, index)->id, cases[i].ladder_pos);
        if (cases[i].ok)
            test_inv_expect_ok(sim, "ladder");
        else
            test_inv_expect_broken(sim, (const char *[]){expected, NULL});
        sim_destroy(sim);
    }
}

/* in_transit's local misroutes reuse the VC of the last local entry before the position
 * (l0 g0 l1 g1 l2): after g0 that is l0, after g1 it is l1. */
static void test_inv_ladder_olm_reuse(void)
{
    static const struct {
        int vc, ladder_pos, ok;
    } cases[] = {{0, 2, 1}, {1, 2, 0}, {1, 4, 1}, {0, 4, 0}, {2, 5, 1}, {1, 5, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sim_config cfg;
        struct sim *sim = test_inv_blank(&cfg, "routing.mechanism=in_transit");
        test_inv_arrival(sim, 0, topology_kind_of(&sim->net.topo, 0)->first[PORT_LOCAL],
                         cases[i].vc, cases[i].ladder_pos, 1);
        if (cases[i].ok)
            test_inv_expect_ok(sim, "OLM reuse");
        else
            test_inv_expect_broken(sim, (const char *[]){"off the ladder of routing "
                                                         "'in_transit'",
                                                         NULL});
        sim_destroy(sim);
    }
    /* The same position after a global hop is an error for a mechanism without OLM. */
    struct sim_config cfg;
    struct sim *sim = test_inv_blank(&cfg, "routing.mechanism=min");
    test_inv_arrival(sim, 0, topology_kind_of(&sim->net.topo, 0)->first[PORT_LOCAL], 0, 2, 1);
    test_inv_expect_broken(sim, (const char *[]){"off the ladder of routing 'min'", NULL});
    sim_destroy(sim);
}

/* ---- packets in a running network ---- */

/* The small network after `cycles` cycles at load 0.5: every kind of place holds packets. */
static struct sim *test_inv_running(struct sim_config *cfg, int cycles)
{
    const char *ov[] = {"traffic.load=0.5", "sim.warmup_cycles=0"};
    struct sim *sim = test_inv_sim(cfg, ov, 2);
    for (int i = 0; i < cycles; i++)
        CU_ASSERT_EQUAL_FATAL(sim_step(sim), SIM_OK);
    test_inv_expect_ok(sim, "running");
    return sim;
}

/* The first packet found in an input buffer of class cls; sets router, port and vc. */
static struct packet *test_inv_find(struct sim *sim, int cls, int *router, int *port, int *vc)
{
    for (int r = 0; r < sim->net.topo.routers; r++)
        for (int p = 0; p < sim->net.topo.radix; p++)
            for (int v = 0; v < network_layout_of(&sim->net, r)->port_vcs[p] &&
                            (int)network_port_class(&sim->net, r, p) == cls;
                 v++) {
                const struct packet_ring *ring =
                    &sim->net.input_vc[network_vc_index(&sim->net, r, p, v)].ring;
                if (!ring->count)
                    continue;
                *router = r, *port = p, *vc = v;
                return network_packet(&sim->net, ring_front(ring));
            }
    return NULL;
}

/* An injection queue's VC is chosen by destination: dst * vcs.injection / nodes. */
static void test_inv_injection_vc(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_running(&cfg, 300);
    int r, port, vc;
    struct packet *pk = test_inv_find(sim, PORT_NODE, &r, &port, &vc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
    uint32_t dst = pk->dst,
             per_vc = (uint32_t)sim->net.topo.nodes / (uint32_t)sim->net.vcs_injection;
    pk->dst = ((uint32_t)vc + 1) % (uint32_t)sim->net.vcs_injection * per_vc;
    char expected[96];
    snprintf(expected, sizeof expected, "router %d port %d vc %d: packet %u", r, port, vc, pk->id);
    test_inv_expect_broken(sim, (const char *[]){expected,
                                                 "in the input buffer is off the "
                                                 "ladder",
                                                 NULL});
    pk->dst = dst;
    test_inv_expect_ok(sim, "restored");
    sim_destroy(sim);
}

/* A transit buffer holding a packet of another VC, and a packet born in the future. */
static void test_inv_packet_fields(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_running(&cfg, 400);
    int r, port, vc;
    struct packet *pk = test_inv_find(sim, PORT_LOCAL, &r, &port, &vc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
    char expected[192];
    snprintf(expected, sizeof expected, "router %d port %d vc %d: input buffer holds packet %u", r,
             port, vc, pk->id);
    pk->vc ^= 1;
    test_inv_expect_broken(sim, (const char *[]){expected, NULL});
    pk->vc ^= 1;
    uint32_t born = pk->gen_cycle;
    pk->gen_cycle = (uint32_t)sim->net.cycle + 1;
    snprintf(expected, sizeof expected,
             "router %d port %d vc %d: packet %u in the input buffer "
             "was generated at cycle %u, after the current cycle",
             r, port, vc, pk->id, pk->gen_cycle);
    test_inv_expect_broken(sim, (const char *[]){expected, NULL});
    pk->gen_cycle = born;
    test_inv_expect_ok(sim, "restored");
    sim_destroy(sim);
}

/* Credits stay within [0, capacity]. */
static void test_inv_credit_range(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_running(&cfg, 200);
    int port = topology_kind_of(&sim->net.topo, 0)->first[PORT_GLOBAL];
    int idx = network_vc_index(&sim->net, 5, port, 0), saved = sim->net.credits[idx];
    sim->net.credits[idx] = cfg.buffers.global + sim->net.packet_size;
    char expected[96];
    snprintf(expected, sizeof expected, "router 5 port %d vc 0: %d credits outside [0, %d]", port,
             cfg.buffers.global + sim->net.packet_size, cfg.buffers.global);
    test_inv_expect_broken(sim, (const char *[]){expected, NULL});
    sim->net.credits[idx] = -1;
    test_inv_expect_broken(sim, (const char *[]){"-1 credits outside", NULL});
    sim->net.credits[idx] = saved;
    test_inv_expect_ok(sim, "restored");
    sim_destroy(sim);
}

/* check_every = K: cycles that are not multiples of K are not checked. */
static void test_inv_check_every(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_running(&cfg, 301);
    sim->net.credits[network_vc_index(
        &sim->net, 0, topology_kind_of(&sim->net.topo, 0)->first[PORT_LOCAL], 0)] -= 1;
    sim->check_every = 7; /* 301 = 7 * 43 */
    test_inv_expect_broken(sim, (const char *[]){"credits", NULL});
    sim->check_every = 10;
    test_inv_expect_ok(sim, "not a checked cycle");
    sim->check_every = 0;
    test_inv_expect_broken(sim, (const char *[]){"credits", NULL});
    sim_destroy(sim);
}

/* ---- healthy runs ---- */

/* Every mechanism at offered load 1.0 under ADV+1 (misrouting everywhere) with the check on
 * every cycle. Short injection queues keep the recount, and the test, fast. */
static void test_inv_every_routing(void)
{
    static const char *const variants[][2] = {
        {"routing.mechanism=min", "routing.global_policy=rrg"},
        {"routing.mechanism=valiant", "routing.valiant_target=group"},
        {"routing.mechanism=valiant", "routing.valiant_target=router"},
        {"routing.mechanism=oblivious", "routing.global_policy=crg"},
        {"routing.mechanism=oblivious", "routing.global_policy=rrg"},
        {"routing.mechanism=piggyback", "routing.global_policy=crg"},
        {"routing.mechanism=piggyback", "routing.global_policy=rrg"},
        {"routing.mechanism=in_transit", "routing.global_policy=crg"},
        {"routing.mechanism=in_transit", "routing.global_policy=rrg"},
        {"routing.mechanism=in_transit", "routing.global_policy=nrg"},
        {"routing.mechanism=in_transit", "routing.global_policy=mm"},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        const char *ov[] = {variants[i][0],           variants[i][1],
                            "traffic.load=1.0",       "traffic.pattern=adversarial",
                            "buffers.injection=64",   "sim.warmup_cycles=0",
                            "sim.measure_cycles=1500"};
        struct sim_config cfg;
        struct sim *sim = test_inv_sim(&cfg, ov, 7);
        test_run_checked(sim, variants[i][0], variants[i][1]);
        CU_ASSERT(sim->stats.delivered > 100);
        sim_destroy(sim);
    }
}

/* The allocator reads copies instead of packets (head index and ready cycle per ring, a
 * next-request bound per input): the recount catches each copy going stale. */
static void test_inv_head_cache(void)
{
    struct sim_config cfg;
    struct sim *sim = test_inv_running(&cfg, 200);
    int r, port, vc;
    CU_ASSERT_PTR_NOT_NULL_FATAL(test_inv_find(sim, PORT_LOCAL, &r, &port, &vc));
    struct packet_ring *ring = &sim->net.input_vc[network_vc_index(&sim->net, r, port, vc)].ring;
    ring->head_ready++;
    test_inv_expect_broken(sim, (const char *[]){"cached head ready", NULL});
    ring->head_ready--;
    ring->head_packet ^= 1;
    test_inv_expect_broken(sim, (const char *[]){"cached head", NULL});
    ring->head_packet ^= 1;
    uint32_t *next = &sim->net.input_next[r * sim->net.topo.radix + port], saved = *next;
    *next = UINT32_MAX;
    test_inv_expect_broken(sim, (const char *[]){"next-request bound", NULL});
    *next = saved;
    test_inv_expect_ok(sim, "restored");

    struct port_state *out = NULL;
    for (int k = 0; k < sim->net.topo.routers * sim->net.topo.radix && !out; k++)
        if (sim->net.ports[k].output.count)
            out = &sim->net.ports[k];
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    uint32_t saved_ready = out->output.head_ready;
    out->output.head_ready = network_packet(&sim->net, ring_front(&out->output))->ready_cycle - 1;
    test_inv_expect_broken(sim, (const char *[]){"may leave at", NULL});
    out->output.head_ready = saved_ready;
    test_inv_expect_ok(sim, "restored output");
    sim_destroy(sim);
}

int test_invariants_register(void)
{
    static const struct test_case tests[] = {
        {"packets on a link are a packet apart", test_inv_link_spacing},
        {"events are due within what their link allows", test_inv_event_horizon},
        {"the wheel's pending count matches its buckets", test_inv_event_count},
        {"MIN climbs its ladder strictly", test_inv_ladder_strict},
        {"in_transit's OLM reuses the last local VC", test_inv_ladder_olm_reuse},
        {"injection VC follows the destination", test_inv_injection_vc},
        {"buffered packet's VC and birth", test_inv_packet_fields},
        {"credits within [0, capacity]", test_inv_credit_range},
        {"the allocator's cached heads match the buffers", test_inv_head_cache},
        {"check_every checks every K-th cycle", test_inv_check_every},
        {"every routing at saturation, checked every cycle", test_inv_every_routing},
    };
    return test_add_suite("invariants", NULL, NULL, tests, sizeof tests / sizeof tests[0]);
}
