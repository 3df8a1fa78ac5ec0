/* routing_in_transit: in-transit adaptive routing with Opportunistic Local Misrouting (OLM).
 * Every router re-evaluates the head packet each cycle: minimal unless the minimal output is
 * congested, in which case one random candidate chosen by the global misrouting policy (in
 * the source group) or one random local misroute (in the other groups, once per group) is
 * taken if it is clearly less occupied. */
#include "misroute_policy.h"
#include "routing.h"

struct in_transit_params {
    int misroute_threshold, th_min, global_congestion_coef, global_congestion_threshold;
};

static const struct setting in_transit_rows[] = {
    SETTING_INT_ROW(struct in_transit_params, "misroute_threshold", misroute_threshold, 55, 0, 100,
                    "misroute if candidate occupancy <= this % of the minimal one"),
    SETTING_INT_ROW(struct in_transit_params, "th_min", th_min, 0, 0, 100,
                    "occupancy % of the minimal output needed to consider misrouting"),
    SETTING_INT_ROW(struct in_transit_params, "global_congestion_coef", global_congestion_coef, 150,
                    0, SETTING_UNBOUNDED_INT,
                    "a global port is congested above this % of the mean"),
    SETTING_INT_ROW(struct in_transit_params, "global_congestion_threshold",
                    global_congestion_threshold, 5, 0, SETTING_UNBOUNDED_INT,
                    "congestion threshold added to that, packets"),
};

static const struct setting_table in_transit_settings = {
    "routing", "in_transit", in_transit_rows, 4, sizeof(struct in_transit_params), NULL};

/* On the cascade a group may see a minimal hop, a local misroute and two more minimal hops
 * (the misroute restarts the path): three climbing entries per group after the first, and a
 * misroute reuses the entry before it as on the dragonfly. */
static void in_transit_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    ladder_parse(out, routing_on_cascade(cfg) ? "l0 l1 g0 l2 l3 l4 g1 l5 l6 l7" : "l0 g0 l1 g1 l2");
}

/* Phits in use behind global port `port`, all VCs. */
static int64_t global_occupancy(struct route_ctx *ctx, int port)
{
    int64_t occupancy = 0;
    for (int vc = 0; vc < ctx->env->vcs[PORT_GLOBAL]; vc++)
        occupancy += route_occupancy(ctx, port, vc);
    return occupancy;
}

/* A congested minimal global port: occupancy > coef % of the mean of the router's other
 * global ports + threshold packets. */
static int global_port_congested(struct route_ctx *ctx, int port)
{
    const struct in_transit_params *ip = ctx->env->params;
    const struct router_kind *k = ctx->kind;
    int first = k->first[PORT_GLOBAL], h = k->count[PORT_GLOBAL];
    int64_t others = 0;
    for (int q = first; q < first + h; q++)
        if (q != port)
            others += global_occupancy(ctx, q);
    int64_t n = h - 1 > 0 ? h - 1 : 1;
    return 100 * n * global_occupancy(ctx, port) >
           (int64_t)ip->global_congestion_coef * others +
               100 * n * ip->global_congestion_threshold * ctx->env->packet_size;
}

/* The trigger: the minimal output cannot take the packet now and is occupied at least th_min
 * %, and a global one is also congested relative to the other global ports. */
static int minimal_congested(struct route_ctx *ctx, const struct route_choice *min)
{
    const struct in_transit_params *ip = ctx->env->params;
    int port = min->out_port;
    int occupancy = route_occupancy(ctx, port, min->vc);
    int blocked =
        !route_output_free(ctx, port) || route_credits(ctx, port, min->vc) < ctx->env->packet_size;
    if (!blocked || 100 * occupancy < ip->th_min * route_capacity(ctx, port))
        return 0;
    return ctx->kind->port_class[port] != PORT_GLOBAL || global_port_congested(ctx, port);
}

/* A candidate is taken iff it is not the minimal port, is free, has credits for a packet and
 * its occupancy % is at most misroute_threshold % of the minimal one's. */
static int candidate_acceptable(struct route_ctx *ctx, const struct route_choice *c,
                                const struct route_choice *min)
{
    const struct in_transit_params *ip = ctx->env->params;
    if (c->out_port == min->out_port || !route_output_free(ctx, c->out_port) ||
        route_credits(ctx, c->out_port, c->vc) < ctx->env->packet_size)
        return 0;
    int64_t occ_c = route_occupancy(ctx, c->out_port, c->vc);
    int64_t occ_m = route_occupancy(ctx, min->out_port, min->vc);
    return 100 * occ_c * route_capacity(ctx, min->out_port) <=
           (int64_t)ip->misroute_threshold * occ_m * route_capacity(ctx, c->out_port);
}

static void global_candidate(const struct route_ctx *ctx, const struct packet *pk, int port,
                             struct route_choice *c)
{
    const struct vc_ladder *ladder = ctx->env->ladder;
    int entry = ladder_next(ladder, pk->ladder_pos, PORT_GLOBAL);
    c->out_port = port;
    c->vc = ladder->vc[entry];
    c->ladder_pos = (uint8_t)(entry + 1);
    c->target = -1;
    c->flags = pk->flags & (uint8_t)~PACKET_NONMINIMAL;
    c->misroute_group = pk->misroute_group;
}

/* A local hop through local port `port`, on the VC the OLM reuse rule gives. */
static void local_candidate(const struct route_ctx *ctx, const struct packet *pk, int port,
                            struct route_choice *c)
{
    c->out_port = port;
    c->vc = ladder_local_reuse(ctx->env->ladder, pk->ladder_pos, &c->ladder_pos);
    c->target = -1;
    c->flags = pk->flags;
    c->misroute_group = pk->misroute_group;
}

/* A random port of class cls of this router. */
static int random_port(struct route_ctx *ctx, enum port_class cls)
{
    const struct router_kind *k = ctx->kind;
    return k->first[cls] + (int)rng_below(route_rng(ctx), (uint32_t)k->count[cls]);
}

/* The candidate of the global misrouting policy in the source group. */
static int global_misroute(struct route_ctx *ctx, const struct packet *pk,
                           const struct route_choice *min, struct route_choice *out)
{
    const struct topology *t = ctx->env->topo;
    int router = ctx->router, locals = ctx->kind->count[PORT_LOCAL];
    int src_router = topology_router_of_node(t, (int)pk->src);
    int policy = ctx->env->global_policy, crg;
    if (policy == POLICY_RRG) /* local with probability (a-1)/a else global */
        crg = locals == 0 || rng_below(route_rng(ctx), (uint32_t)(locals + 1)) == 0;
    else if (policy == POLICY_MM)
        crg = router == src_router;
    else
        crg = policy == POLICY_CRG || locals == 0;
    struct route_choice c;
    if (crg) {
        global_candidate(ctx, pk, random_port(ctx, PORT_GLOBAL), &c);
    } else {
        int port = random_port(ctx, PORT_LOCAL);
        local_candidate(ctx, pk, port, &c);
        c.target = topology_neighbour(t, router, port); /* which must then leave globally */
        c.flags |= PACKET_NONMINIMAL;
    }
    if (!candidate_acceptable(ctx, &c, min))
        return 0;
    *out = c;
    return 1;
}

/* OLM: one local misroute per group outside the source group, when the minimal hop is local. */
static int local_misroute(struct route_ctx *ctx, const struct packet *pk,
                          const struct route_choice *min, struct route_choice *out)
{
    if (ctx->kind->count[PORT_LOCAL] < 2)
        return 0; /* no router other than this one and the minimal next one */
    struct route_choice c;
    local_candidate(ctx, pk, random_port(ctx, PORT_LOCAL), &c);
    if (!candidate_acceptable(ctx, &c, min))
        return 0;
    c.misroute_group = topology_group_of_router(ctx->env->topo, ctx->router);
    c.flags |= PACKET_LOCAL_MISROUTED;
    *out = c;
    return 1;
}

/* Re-evaluated every cycle the head requests (the readers above make it adaptive). */
static int in_transit_route(struct route_ctx *ctx, const struct packet *pk,
                            struct route_choice *out)
{
    const struct topology *t = ctx->env->topo;
    int router = ctx->router;
    if (pk->target == router) {
        /* The neighbour an NRG hop chose: leave through one of its global ports. */
        global_candidate(ctx, pk, random_port(ctx, PORT_GLOBAL), out);
        return 0;
    }
    if (routing_minimal_choice(ctx, pk, -1, out))
        return -1;
    enum port_class cls = (enum port_class)ctx->kind->port_class[out->out_port];
    if (cls == PORT_NODE || !minimal_congested(ctx, out))
        return 0;
    struct route_choice min = *out;
    int group = topology_group_of_router(t, router);
    int src_group = topology_group_of_node(t, (int)pk->src);
    int dst_group = topology_group_of_node(t, (int)pk->dst);
    if (group == src_group && group != dst_group)
        global_misroute(ctx, pk, &min, out);
    else if (cls == PORT_LOCAL && pk->misroute_group != group)
        local_misroute(ctx, pk, &min, out);
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
