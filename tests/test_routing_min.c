/* MIN routing: every pair gets a path of at most l-g-l that reaches its destination, with the
 * VC of every hop on the ladder l0 g0 l1, both walked statically and observed on a run. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "test_util.h"

static struct sim *make_sim(const char *const *overrides, int n)
{
    static struct sim_config cfg; /* tests run sequentially; the sim borrows it */
    char err[256];
    test_config(&cfg, overrides, n);
    struct sim *sim = sim_create(&cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    return sim;
}

/* Walks the decisions of the routing from the source router of `pk` to its destination node
 * and checks path length and ladder order; returns the number of inter-router hops. */
static int walk(struct sim *sim, struct packet *pk)
{
    const struct topology *t = &sim->net.topo;
    int router = topology_router_of_node(t, (int)pk->src);
    int in_port = topology_node_port(t, (int)pk->src), hops = 0, local = 0, global = 0;
    for (;;) {
        struct route_choice ch;
        struct route_ctx ctx = {.in_port = in_port};
        network_route_ctx(&sim->net, router, &ctx);
        CU_ASSERT_EQUAL_FATAL(sim->net.routing->route(&ctx, pk, &ch), 0);
        CU_ASSERT_FALSE(ctx.adaptive); /* MIN reads nothing that changes */
        enum port_class cls = topology_port_class(t, router, ch.out_port);
        if (cls == PORT_NODE) {
            CU_ASSERT_EQUAL(t->first_node[router] + ch.out_port, (int)pk->dst);
            break;
        }
        CU_ASSERT_FATAL(ch.ladder_pos > pk->ladder_pos);
        CU_ASSERT_EQUAL(sim->net.ladder.port_class[ch.ladder_pos - 1], cls);
        CU_ASSERT_EQUAL(sim->net.ladder.vc[ch.ladder_pos - 1], ch.vc);
        pk->ladder_pos = ch.ladder_pos;
        local += cls == PORT_LOCAL;
        global += cls == PORT_GLOBAL;
        in_port = topology_neighbour_port(t, router, ch.out_port);
        router = topology_neighbour(t, router, ch.out_port);
        CU_ASSERT_FATAL(++hops <= 3);
    }
    CU_ASSERT(global <= 1 && local <= 2);
    return hops;
}

static void check_all_pairs(const char *h, const char *a, const char *p)
{
    const char *ov[] = {h, a, p};
    struct sim *sim = make_sim(ov, (int)(sizeof ov / sizeof ov[0]));
    const struct topology *t = &sim->net.topo;
    for (int s = 0; s < t->nodes; s++)
        for (int d = 0; d < t->nodes; d++) {
            if (s == d)
                continue;
            struct packet pk = {
                .src = (uint32_t)s, .dst = (uint32_t)d, .target = -1, .misroute_group = -1};
            int hops = walk(sim, &pk);
            int el, eg;
            topology_min_hops(t, topology_router_of_node(t, s), topology_router_of_node(t, d), &el,
                              &eg);
            CU_ASSERT_EQUAL(hops, el + eg);
        }
    sim_destroy(sim);
}

static void test_all_pairs_h2(void)
{
    check_all_pairs("topology.h=2", "topology.a=4", "topology.p=2");
}

static void test_all_pairs_h3(void)
{
    check_all_pairs("topology.h=3", "topology.a=6", "topology.p=3");
}

struct hop_log {
    int bad_ladder, hops, packets_ejected;
};

static void observe_hop(void *ctx, const struct network *net, int router, int in_port,
                        uint32_t index, const struct route_choice *ch)
{
    struct hop_log *log = ctx;
    const struct packet *pk = &net->pool.packets[index];
    (void)in_port;
    enum port_class cls = network_port_class(net, router, ch->out_port);
    if (cls == PORT_NODE) {
        log->packets_ejected += router == topology_router_of_node(&net->topo, (int)pk->dst);
        return;
    }
    log->hops++;
    int e = ch->ladder_pos - 1;
    if (e < 0 || net->ladder.port_class[e] != cls || net->ladder.vc[e] != ch->vc ||
        ch->vc >= network_layout_of(net, router)->port_vcs[ch->out_port])
        log->bad_ladder++;
}

/* On a loaded run, every granted hop's VC is the ladder entry it claims. */
static void test_ladder_on_run(void)
{
    const char *ov[] = {"topology.h=2",     "topology.a=4",        "topology.p=2",
                        "traffic.load=0.7", "sim.warmup_cycles=0", "sim.measure_cycles=3000"};
    struct sim *sim = make_sim(ov, (int)(sizeof ov / sizeof ov[0]));
    struct hop_log log = {0};
    sim->net.on_hop = observe_hop;
    sim->net.on_hop_ctx = &log;
    CU_ASSERT_EQUAL(sim_run(sim, NULL, NULL), SIM_OK);
    CU_ASSERT(log.hops > 1000);
    CU_ASSERT_EQUAL(log.bad_ladder, 0);
    CU_ASSERT(log.packets_ejected > 0);
    sim_destroy(sim);
}

int test_routing_min_register(void)
{
    CU_pSuite s = CU_add_suite("routing_min", NULL, NULL);
    if (!s)
        return -1;
    CU_add_test(s, "all pairs reach destination in l-g-l on the ladder (h=2)", test_all_pairs_h2);
    CU_add_test(s, "all pairs reach destination in l-g-l on the ladder (h=3)", test_all_pairs_h3);
    CU_add_test(s, "every hop of a loaded run on the ladder", test_ladder_on_run);
    return 0;
}
