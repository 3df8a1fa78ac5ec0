/* bit_complement (node n -> N-1-n) and permutation (a fixed random permutation of the nodes,
 * drawn from the seed, with no node sending to itself). */
#include <stdlib.h>

#include "sim_config.h"
#include "topology.h"
#include "traffic.h"

static uint32_t bit_complement_destination(const struct pattern_run *run, uint32_t src,
                                           struct rng *rng)
{
    (void)rng;
    return (uint32_t)run->topo->nodes - 1 - src;
}

/* Sattolo's algorithm: a uniformly random cyclic permutation, hence without fixed points. */
static int permutation_init(struct pattern_run *run)
{
    uint32_t n = (uint32_t)run->topo->nodes;
    uint32_t *perm = malloc(n * sizeof *perm);
    if (!perm)
        return -1;
    struct rng rng;
    rng_seed(&rng, (uint64_t)run->cfg->sim.seed, 3);
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = rng_below(&rng, i);
        uint32_t tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    run->state = perm;
    return 0;
}

static void permutation_destroy(struct pattern_run *run)
{
    free(run->state);
    run->state = NULL;
}

static uint32_t permutation_destination(const struct pattern_run *run, uint32_t src,
                                        struct rng *rng)
{
    (void)rng;
    return ((const uint32_t *)run->state)[src];
}

const struct pattern_ops pattern_bit_complement = {
    .name = "bit_complement",
    .summary = "node n sends to node N-1-n",
    .destination = bit_complement_destination,
};

const struct pattern_ops pattern_permutation = {
    .name = "permutation",
    .summary = "a fixed random permutation of the nodes (from sim.seed), no self-traffic",
    .init = permutation_init,
    .destroy = permutation_destroy,
    .destination = permutation_destination,
};
