/* routing_min: minimal routing (l-g-l) on the ladder l0 g0 l1. */
#include "routing.h"

#include "config.h"
#include "traffic.h"

static void min_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    ladder_parse(out, routing_on_cascade(cfg) ? "l0 l0 g0 l1 l1" : "l0 g0 l1");
}

static int min_route(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    return routing_minimal_choice(ctx, pk, -1, out);
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
};
