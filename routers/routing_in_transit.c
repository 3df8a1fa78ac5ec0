/* routing_in_transit: in-transit adaptive routing with Opportunistic Local Misrouting (OLM).
 * Every router re-evaluates the head packet each cycle: minimal unless the minimal output is
 * congested, in which case one random candidate chosen by the global misrouting policy (in
 * the source group) or one random local misroute (in the other groups, once per group) is
 * taken if it is clearly less occupied. */
#include "misroute_policy.h"
#include "routing.h"
#include "sim.h"

struct in_transit_params {
    int misroute_threshold, th_min, global_congestion_coef, global_congestion_threshold;
};

static const struct setting in_transit_rows[] = {
    SETTING_INT_ROW(struct in_transit_params, "misroute_threshold", misroute_threshold, 55, 0, 100,
                    "misroute if candidate occupancy <= this % of the minimal one"),
    SETTING_INT_ROW(struct in_transit_params, "th_min", th_min, 0, 0, 100,
                    "occupancy % of the minimal output needed to consider misrouting"),
    SETTING_INT_ROW(struct in_transit_params, "global_congestion_coef", global_congestion_coef,
                    150, 0, SETTING_UNBOUNDED_INT,
                    "a global port is congested above this % of the mean"),
    SETTING_INT_ROW(struct in_transit_params, "global_congestion_threshold",
                    global_congestion_threshold, 5, 0, SETTING_UNBOUNDED_INT,
                    "congestion threshold added to that, packets"),
};

static const struct setting_table in_transit_settings = {
    "routing", "in_transit", in_transit_rows, 4, sizeof(struct in_transit_params), NULL};

static void in_transit_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    (void)cfg;
    ladder_parse(out, "l0 g0 l1 g1 l2");
}

static int output_free(const struct sim *sim, int router, int port)
{
    const struct port_state *ps = sim_port(sim, router, port);
    return ps->output_busy_until <= sim->cycle && ps->output.count < sim->output_capacity;
}

static int port_capacity(const struct sim *sim, int port)
{
    return sim->capacity_phits[sim->port_class[port]];
}

/* Phits in use behind global port `port`, all VCs. */
static int64_t global_occupancy(const struct sim *sim, int router, int port)
{
    int64_t occupancy = 0;
    for (int vc = 0; vc < sim->vcs_global; vc++)
        occupancy += sim_output_occupancy(sim, router, port, vc);
    return occupancy;
}

/* A congested minimal global port: occupancy > coef % of the mean of the router's other
 * global ports + threshold packets. */
static int global_port_congested(const struct sim *sim, int router, int port)
{
    const struct topology *t = &sim->topo;
    const struct in_transit_params *ip = sim->routing_params;
    int64_t others = 0;
    for (int q = t->first_global_port; q < t->radix; q++)
        if (q != port)
            others += global_occupancy(sim, router, q);
    int64_t n = t->h - 1 > 0 ? t->h - 1 : 1;
    return 100 * n * global_occupancy(sim, router, port) >
           (int64_t)ip->global_congestion_coef * others +
               100 * n * ip->global_congestion_threshold * sim->packet_size;
}

/* The trigger: the minimal output cannot take the packet now and is occupied at least th_min
 * %, and a global one is also congested relative to the other global ports. */
static int minimal_congested(const struct sim *sim, int router, const struct route_choice *min)
{
    int port = min->out_port;
    int occupancy = sim_output_occupancy(sim, router, port, min->vc);
    int blocked = !output_free(sim, router, port) ||
                  sim->credits[sim_vc_index(sim, router, port, min->vc)] < sim->packet_size;
    const struct in_transit_params *ip = sim->routing_params;
    if (!blocked || 100 * occupancy < ip->th_min * port_capacity(sim, port))
        return 0;
    return sim->port_class[port] != PORT_GLOBAL || global_port_congested(sim, router, port);
}

/* A candidate is taken iff it is not the minimal port, is free, has credits for a packet and
 * its occupancy % is at most misroute_threshold % of the minimal one's. */
static int candidate_acceptable(const struct sim *sim, int router, const struct route_choice *c,
                                const struct route_choice *min)
{
    if (c->out_port == min->out_port || !output_free(sim, router, c->out_port) ||
        sim->credits[sim_vc_index(sim, router, c->out_port, c->vc)] < sim->packet_size)
        return 0;
    int64_t occ_c = sim_output_occupancy(sim, router, c->out_port, c->vc);
    int64_t occ_m = sim_output_occupancy(sim, router, min->out_port, min->vc);
    const struct in_transit_params *ip = sim->routing_params;
    return 100 * occ_c * port_capacity(sim, min->out_port) <=
           (int64_t)ip->misroute_threshold * occ_m *
               port_capacity(sim, c->out_port);
}

static void global_candidate(struct sim *sim, int router, const struct packet *pk, int port,
                             struct route_choice *c)
{
    int entry = ladder_next(&sim->ladder, pk->ladder_pos, PORT_GLOBAL);
    c->out_port = port;
    c->vc = sim->ladder.vc[entry];
    c->ladder_pos = (uint8_t)(entry + 1);
    c->target = -1;
    c->flags = pk->flags & (uint8_t)~PACKET_NONMINIMAL;
    c->misroute_group = pk->misroute_group;
    (void)router;
}

/* A local hop to router index j of the group, on the VC the OLM reuse rule gives. */
static void local_candidate(struct sim *sim, int router, const struct packet *pk, int j,
                            struct route_choice *c)
{
    const struct topology *t = &sim->topo;
    c->out_port = topology_local_port(t, router % t->a, j);
    c->vc = ladder_local_reuse(&sim->ladder, pk->ladder_pos, &c->ladder_pos);
    c->target = -1;
    c->flags = pk->flags;
    c->misroute_group = pk->misroute_group;
}

static int random_global_port(struct sim *sim)
{
    return sim->topo.first_global_port + (int)rng_below(&sim->routing_rng, (uint32_t)sim->topo.h);
}

/* A random router index of the group other than router's own. */
static int random_neighbour(struct sim *sim, int router)
{
    int a = sim->topo.a, i = router % a;
    int j = (int)rng_below(&sim->routing_rng, (uint32_t)(a - 1));
    return j >= i ? j + 1 : j;
}

/* The candidate of the global misrouting policy in the source group. */
static int global_misroute(struct sim *sim, int router, const struct packet *pk,
                           const struct route_choice *min, struct route_choice *out)
{
    const struct topology *t = &sim->topo;
    int src_router = (int)pk->src / t->p;
    int policy = sim->global_policy, crg;
    if (policy == POLICY_RRG)
        crg = t->a == 1 || rng_below(&sim->routing_rng, (uint32_t)t->a) == 0;
    else if (policy == POLICY_MM)
        crg = router == src_router;
    else
        crg = policy == POLICY_CRG || t->a == 1;
    struct route_choice c;
    if (crg) {
        global_candidate(sim, router, pk, random_global_port(sim), &c);
    } else {
        int j = random_neighbour(sim, router);
        local_candidate(sim, router, pk, j, &c);
        c.target = (router / t->a) * t->a + j; /* which must then leave by a global port */
        c.flags |= PACKET_NONMINIMAL;
    }
    if (!candidate_acceptable(sim, router, &c, min))
        return 0;
    *out = c;
    return 1;
}

/* OLM: one local misroute per group outside the source group, when the minimal hop is local. */
static int local_misroute(struct sim *sim, int router, const struct packet *pk,
                          const struct route_choice *min, struct route_choice *out)
{
    const struct topology *t = &sim->topo;
    if (t->a < 3)
        return 0; /* no router other than this one and the minimal next one */
    struct route_choice c;
    local_candidate(sim, router, pk, random_neighbour(sim, router), &c);
    if (!candidate_acceptable(sim, router, &c, min))
        return 0;
    c.misroute_group = router / t->a;
    c.flags |= PACKET_LOCAL_MISROUTED;
    *out = c;
    return 1;
}

static int in_transit_decide(struct sim *sim, int router, const struct packet *pk,
                             struct route_choice *out);

/* Re-evaluated every cycle the head requests: never a static decision. */
static int in_transit_route(struct sim *sim, int router, int in_port, const struct packet *pk,
                            struct route_choice *out)
{
    (void)in_port;
    int rc = in_transit_decide(sim, router, pk, out);
    out->is_static = 0;
    return rc;
}

static int in_transit_decide(struct sim *sim, int router, const struct packet *pk,
                             struct route_choice *out)
{
    const struct topology *t = &sim->topo;
    if (pk->target == router) {
        /* The neighbour an NRG hop chose: leave through one of its global ports. */
        global_candidate(sim, router, pk, random_global_port(sim), out);
        return 0;
    }
    if (routing_minimal_choice(sim, router, pk, -1, out))
        return -1;
    enum port_class cls = sim->port_class[out->out_port];
    if (cls == PORT_NODE || !minimal_congested(sim, router, out))
        return 0;
    struct route_choice min = *out;
    int group = router / t->a;
    int src_group = (int)pk->src / t->p / t->a, dst_group = (int)pk->dst / t->p / t->a;
    if (group == src_group && group != dst_group)
        global_misroute(sim, router, pk, &min, out);
    else if (cls == PORT_LOCAL && pk->misroute_group != group)
        local_misroute(sim, router, pk, &min, out);
    return 0;
}

const struct routing_ops routing_in_transit = {
    .name = "in_transit",
    .summary = "in-transit adaptive with Opportunistic Local Misrouting; global misrouting "
               "in the source group by CRG, RRG, NRG or MM",
    .settings = &in_transit_settings,
    .global_policies = 1u << POLICY_CRG | 1u << POLICY_RRG | 1u << POLICY_NRG | 1u << POLICY_MM,
    .ladder = in_transit_ladder,
    .route = in_transit_route,
};
