/* routing_oblivious: always nonminimal (Obl-CRG, Obl-RRG): the global misrouting policy picks
 * an intermediate router at generation, the packet reaches it, then goes minimally. */
#include "misroute_policy.h"
#include "routing.h"

static void oblivious_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    ladder_parse(out, routing_on_cascade(cfg) ? "l0 l0 g0 l1 l1 l2 l2 g1 l3 l3"
                                              : "l0 g0 l1 l2 g1 l3");
}

static void oblivious_on_generate(struct routing_env *env, struct packet *pk)
{
    const struct topology *t = env->topo;
    pk->target = misroute_intermediate(env, topology_router_of_node(t, (int)pk->src),
                                       topology_group_of_node(t, (int)pk->dst));
    if (pk->target >= 0)
        pk->flags |= PACKET_NONMINIMAL;
}

static int oblivious_route(struct route_ctx *ctx, const struct packet *pk,
                           struct route_choice *out)
{
    return routing_via_target(ctx, pk, out);
}

const struct routing_ops routing_oblivious = {
    .name = "oblivious",
    .summary = "Obl-CRG / Obl-RRG: always via an intermediate router chosen by the global "
               "misrouting policy",
    .global_policies = 1u << POLICY_CRG | 1u << POLICY_RRG,
    .ladder = oblivious_ladder,
    .on_generate = oblivious_on_generate,
    .route = oblivious_route,
    .bound = routing_valiant_style_bound,
    .pure = true,
};
