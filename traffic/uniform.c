/* uniform (UN): every other node is equally likely. */
#include "bounds_throughput.h"
#include "topology.h"
#include "traffic.h"

static uint32_t uniform_destination(const struct pattern_run *run, uint32_t src, struct rng *rng)
{
    uint32_t d = rng_below(rng, (uint32_t)run->topo->nodes - 1);
    return d >= src ? d + 1 : d;
}

static int uniform_minimal_bound(const struct topology *t, const void *params,
                                 struct bounds_throughput *out)
{
    (void)t;
    (void)params;
    *out = (struct bounds_throughput){
        .load = 1.0, .formula = NULL, .reason = "MIN under UN: no global-link bound below 1"};
    return 0;
}

const struct pattern_ops pattern_uniform = {
    .name = "uniform",
    .summary = "UN: destination uniform over all other nodes",
    .destination = uniform_destination,
    .minimal_bound = uniform_minimal_bound,
    .uniform = true,
};
