/* routing_min: minimal routing (l-g-l) on the ladder l0 g0 l1. */
#include "routing.h"

#include "sim.h"

static void min_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    (void)cfg;
    ladder_parse(out, "l0 g0 l1");
}

static int min_route(struct sim *sim, int router, int in_port, const struct packet *pk,
                     struct route_choice *out)
{
    (void)in_port;
    return routing_minimal_choice(sim, router, pk, -1, out);
}

const struct routing_ops routing_min = {
    .name = "min",
    .summary = "minimal path, at most local-global-local",
    .ladder = min_ladder,
    .route = min_route,
    .pure = true,
};
