/* uniform (UN): every other node is equally likely. */
#include "sim.h"
#include "traffic.h"

static uint32_t uniform_destination(struct sim *sim, uint32_t src, struct rng *rng)
{
    uint32_t d = rng_below(rng, (uint32_t)sim->topo.nodes - 1);
    return d >= src ? d + 1 : d;
}

const struct pattern_ops pattern_uniform = {
    .name = "uniform",
    .summary = "UN: destination uniform over all other nodes",
    .destination = uniform_destination,
};
