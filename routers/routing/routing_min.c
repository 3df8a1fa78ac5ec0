/* routing_min: minimal routing (l-g-l) on the ladder l0 g0 l1. Where several first hops are
 * minimal (a Dragonfly+ leaf has one to every spine with a link to the destination group), a
 * hash of the packet and the router picks one (on the cascade among those keeping row before
 * column: topology_ordered_min_ports), or with routing.min_choice = "occupancy" the
 * least occupied (then the decision is adaptive, made again each cycle the packet waits). */
#include "routing.h"

#include "sim_config.h"
#include "traffic.h"

static void min_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    ladder_parse(out, routing_on_cascade(cfg) ? "l0 l0 g0 l1 l1" : "l0 g0 l1");
}

/* Which of n equally short ports a packet takes at a router: splitmix64's finalizer over the
 * pair, scaled to [0, n). As uniform as a random draw, but a function of the packet, so the
 * decision reads no state and stands while the packet waits (MIN stays pure). */
static int min_spread_index(uint32_t packet_id, int router, int n)
{
    uint64_t x = ((uint64_t)packet_id << 32 | (uint32_t)router) + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (int)(((x >> 32) * (uint64_t)n) >> 32);
}

/* The packet's own port among several minimal ones (out of line: the canonical dragonfly's
 * hot path then keeps fewer registers). */
static __attribute__((noinline)) int min_spread_port(struct route_ctx *ctx, int router, int dst,
                                                     const struct packet *pk)
{
    /* Ordered: on the cascade no column hop where a row hop is minimal, so that a group
     * segment stays row then column on its one VC (else deadlock). */
    uint64_t ports = topology_ordered_min_ports(ctx->env->topo, router, dst);
    if (!(ports & (ports - 1)))
        return __builtin_ctzll(ports);
    if (ctx->env->min_choice == MIN_CHOICE_OCCUPANCY)
        return routing_least_occupied(ctx, ports, pk->ladder_pos);
    return topology_port_at(ports, min_spread_index(pk->id, router, __builtin_popcountll(ports)));
}

/* One oracle query per decision: the minimal ports; with several, the packet's own. */
static int min_route(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    const struct topology *t = ctx->env->topo;
    const struct vc_ladder *ladder = ctx->env->ladder;
    int router = ctx->router, dst = topology_router_of_node(t, (int)pk->dst);
    if (router == dst) {
        route_to_node(t, pk, pk->ladder_pos, out);
        return 0;
    }
    out->flags = pk->flags;
    out->target = pk->target;
    out->misroute_group = pk->misroute_group;
    /* The canonical dragonfly: one minimal port, from a table. */
    int port = t->inline_min_port ? topology_min_port(t, router, dst)
                                  : min_spread_port(ctx, router, dst, pk);
    if (port < 0)
        return -1; /* no minimal port on the ladder: reported as a broken invariant */
    int entry = ladder_next(ladder, pk->ladder_pos, (enum port_class)ctx->kind->port_class[port]);
    if (entry < 0)
        return -1;            /* off the ladder: the caller reports it as a broken invariant */
    ctx->dst_min_port = port; /* minimal: the router need not ask the topology again */
    out->out_port = port;
    out->vc = ladder->vc[entry];
    out->ladder_pos = (uint8_t)(entry + 1);
    return 0;
}

/* Minimal routing is bounded by what the pattern asks of the minimal paths. */
static int min_bound(const struct sim_config *cfg, const struct topology *t,
                     struct bounds_throughput *out)
{
    const struct pattern_ops *pattern = pattern_registry[cfg->traffic.pattern];
    if (!pattern->minimal_bound)
        return -1;
    return pattern->minimal_bound(t, settings_params(cfg, pattern->settings), out);
}

const struct routing_ops routing_min = {
    .name = "min",
    .summary = "minimal path, at most local-global-local",
    .ladder = min_ladder,
    .route = min_route,
    .bound = min_bound,
    .pure = true,
    .on_leaf_routers = true,
};
