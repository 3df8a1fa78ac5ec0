/* adversarial (ADV+i) and adversarial_consecutive (ADVc): every packet leaves the group, to a
 * random node of group g+i, or of one of the h groups g+1..g+h that router a-1 is linked to. */
#include "sim.h"
#include "traffic.h"

static uint32_t node_in_group(const struct topology *t, int group, struct rng *rng)
{
    uint32_t per_group = (uint32_t)(t->a * t->p);
    return (uint32_t)group * per_group + rng_below(rng, per_group);
}

static uint32_t adversarial_destination(struct sim *sim, uint32_t src, struct rng *rng)
{
    const struct topology *t = &sim->topo;
    int g = (int)src / (t->a * t->p);
    return node_in_group(t, (g + sim->cfg->traffic.offset) % t->groups, rng);
}

static uint32_t adversarial_consecutive_destination(struct sim *sim, uint32_t src,
                                                    struct rng *rng)
{
    const struct topology *t = &sim->topo;
    int g = (int)src / (t->a * t->p);
    int offset = 1 + (int)rng_below(rng, (uint32_t)t->h);
    return node_in_group(t, (g + offset) % t->groups, rng);
}

const struct pattern_ops pattern_adversarial = {
    .name = "adversarial",
    .summary = "ADV+i: a random node of group g+i (i = traffic.offset)",
    .destination = adversarial_destination,
};

const struct pattern_ops pattern_adversarial_consecutive = {
    .name = "adversarial_consecutive",
    .summary = "ADVc: a random node of one of the h groups g+1..g+h",
    .destination = adversarial_consecutive_destination,
};
