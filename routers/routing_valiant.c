/* routing_valiant: Valiant routing. Every packet leaving its group first goes to a random
 * intermediate group (VAL: to the first router reached there; VAL-any: to a random router of
 * it), then minimally to its destination. */
#include <string.h>

#include "routing.h"
#include "sim.h"

static int valiant_any_router(const struct sim_config *cfg)
{
    return strcmp(cfg->routing.valiant_target, "router") == 0;
}

static void valiant_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    ladder_parse(out, valiant_any_router(cfg) ? "l0 g0 l1 l2 g1 l3" : "l0 g0 l1 g1 l2");
}

static void valiant_on_generate(struct sim *sim, struct packet *pk)
{
    const struct topology *t = &sim->topo;
    int src_router = (int)pk->src / t->p, src_group = src_router / t->a;
    int dst_group = (int)pk->dst / t->p / t->a;
    if (src_group == dst_group)
        return;
    int g = (int)rng_below(&sim->routing_rng, (uint32_t)(t->groups - 1));
    if (g >= src_group)
        g++;
    if (g == dst_group)
        return; /* the intermediate is the destination group: the path is minimal */
    if (valiant_any_router(sim->cfg)) {
        pk->target = g * t->a + (int)rng_below(&sim->routing_rng, (uint32_t)t->a);
    } else {
        int gateway = t->gateway[src_group * t->groups + g];
        int port = t->global_port_to_group[gateway * t->groups + g];
        pk->target = t->neighbour[gateway * t->radix + port];
    }
    pk->flags |= PACKET_NONMINIMAL;
}

static int valiant_route(struct sim *sim, int router, int in_port, const struct packet *pk,
                         struct route_choice *out)
{
    (void)in_port;
    return routing_via_target(sim, router, pk, out);
}

const struct routing_ops routing_valiant = {
    .name = "valiant",
    .summary = "VAL: via a random intermediate group (valiant_target = group) or router "
               "(= router, VAL-any)",
    .ladder = valiant_ladder,
    .on_generate = valiant_on_generate,
    .route = valiant_route,
    .pure = true,
};
