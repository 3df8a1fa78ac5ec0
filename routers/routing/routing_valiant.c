/* routing_valiant: Valiant routing. Every packet leaving its group first goes to a random
 * intermediate group (VAL: to the first router reached there; VAL-any: to a random router of
 * it), then minimally to its destination. */
#include "routing.h"
#include "sim_config.h"

enum valiant_target { VALIANT_GROUP, VALIANT_ROUTER };

struct valiant_params {
    int target; /* enum valiant_target */
};

static const char *const valiant_target_names[] = {"group", "router", NULL};

static const struct setting valiant_rows[] = {
    SETTING_CHOICE_ROW(struct valiant_params, "valiant_target", target, "group",
                       valiant_target_names,
                       "intermediate: a group, or a router of it (VAL-any)"),
};

static const struct setting_table valiant_settings = {
    "routing", "valiant", valiant_rows, 1, sizeof(struct valiant_params), NULL};

static int valiant_any_router(const struct sim_config *cfg)
{
    const struct valiant_params *vp = settings_params(cfg, &valiant_settings);
    return vp->target == VALIANT_ROUTER;
}

/* On the cascade a path towards the entry router lands on it (VAL: one segment per group);
 * VAL-any's intermediate group has two segments, to the router and from it. */
static void valiant_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    if (routing_on_cascade(cfg))
        ladder_parse(out, valiant_any_router(cfg) ? "l0 l0 g0 l1 l1 l2 l2 g1 l3 l3"
                                                  : "l0 l0 g0 l1 l1 g1 l2 l2");
    else
        ladder_parse(out, valiant_any_router(cfg) ? "l0 g0 l1 l2 g1 l3" : "l0 g0 l1 g1 l2");
}

/* The router where the packet enters group g, VAL's intermediate. Where several minimal
 * paths lead into g (a Dragonfly+ leaf reaches a group through several spines, landing on
 * different spines), the path towards a random router of g picks one, so that the entries
 * spread; where the first hop is unique (the canonical dragonfly: one link per group pair),
 * so is the entry, and no random number is drawn. */
static int valiant_entry_router(const struct routing_env *env, int src_router, int g)
{
    const struct topology *t = env->topo;
    /* A router with a global link of its own into g (the cascade's routers have one to every
     * group) takes it: any other entry would add a local hop in the source group. */
    int own = topology_global_port_to_group(t, src_router, g);
    if (own >= 0)
        return topology_neighbour(t, src_router, own);
    uint64_t first_hops = topology_min_ports(t, src_router, t->group_first_router[g]);
    if (!(first_hops & (first_hops - 1)))
        return topology_entry_router(t, src_router, g);
    int towards =
        t->group_first_router[g] + (int)rng_below(env->rng, (uint32_t)topology_group_routers(t, g));
    int r = src_router;
    while (topology_group_of_router(t, r) != g)
        r = topology_neighbour(t, r, topology_min_port(t, r, towards));
    return r;
}

static void valiant_on_generate(struct routing_env *env, struct packet *pk)
{
    const struct topology *t = env->topo;
    int src_router = topology_router_of_node(t, (int)pk->src);
    int src_group = topology_group_of_router(t, src_router);
    int dst_group = topology_group_of_node(t, (int)pk->dst);
    if (src_group == dst_group)
        return;
    int g = (int)rng_below(env->rng, (uint32_t)(t->groups - 1));
    if (g >= src_group)
        g++;
    if (g == dst_group)
        return; /* the intermediate is the destination group: the path is minimal */
    if (((const struct valiant_params *)env->params)->target == VALIANT_ROUTER)
        pk->target = t->group_first_router[g] +
                     (int)rng_below(env->rng, (uint32_t)topology_group_routers(t, g));
    else
        pk->target = valiant_entry_router(env, src_router, g);
    pk->flags |= PACKET_NONMINIMAL;
}

static int valiant_route(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    return routing_via_target(ctx, pk, out);
}

const struct routing_ops routing_valiant = {
    .name = "valiant",
    .summary = "VAL: via a random intermediate group (valiant_target = group) or router "
               "(= router, VAL-any)",
    .settings = &valiant_settings,
    .ladder = valiant_ladder,
    .on_generate = valiant_on_generate,
    .route = valiant_route,
    .bound = routing_valiant_style_bound,
    .pure = true,
    .on_leaf_routers = true,
    .needs_full_reach = true,
};
