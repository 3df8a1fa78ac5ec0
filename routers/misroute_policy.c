/* misroute_policy: choosing intermediate routers for nonminimal paths. */
#include "misroute_policy.h"

#include <string.h>

#include "sim.h"

int misroute_policy_parse(const char *name)
{
    static const char *const names[] = {"crg", "rrg", "nrg", "mm"};
    for (int i = 0; i < 4; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

int misroute_random_router(struct sim *sim, int exclude_a, int exclude_b)
{
    const struct topology *t = &sim->topo;
    int excluded = 1 + (exclude_b != exclude_a);
    if (t->groups <= excluded)
        return -1;
    int lo = exclude_a < exclude_b ? exclude_a : exclude_b;
    int hi = exclude_a < exclude_b ? exclude_b : exclude_a;
    int g = (int)rng_below(&sim->routing_rng, (uint32_t)(t->groups - excluded));
    /* Skip the excluded groups in increasing order so the draw stays uniform. */
    if (g >= lo)
        g++;
    if (excluded == 2 && g >= hi)
        g++;
    return g * t->a + (int)rng_below(&sim->routing_rng, (uint32_t)t->a);
}

/* CRG for a source-decided path: one of the source router's own global links whose far group
 * is not the destination group, then a uniformly random router of that group (the packet
 * leaves on that link and, unless the draw is the entry router, takes one local hop there).
 * Taking the entry router itself would make every packet entering the group at router r
 * leave it through r or its neighbour: one local link per router pair would carry half of
 * r's global input (SPEC section 6). */
static int misroute_crg(struct sim *sim, int src_router, int dst_group)
{
    const struct topology *t = &sim->topo;
    int groups[TOPOLOGY_MAX_RADIX], n = 0;
    for (int port = t->first_global_port; port < t->radix; port++) {
        int far_group = t->neighbour[src_router * t->radix + port] / t->a;
        if (far_group != dst_group)
            groups[n++] = far_group;
    }
    if (!n)
        return -1;
    int g = groups[rng_below(&sim->routing_rng, (uint32_t)n)];
    return g * t->a + (int)rng_below(&sim->routing_rng, (uint32_t)t->a);
}

int misroute_intermediate(struct sim *sim, enum global_policy policy, int src_router,
                          int dst_group)
{
    int src_group = src_router / sim->topo.a;
    if (src_group == dst_group)
        return -1; /* traffic inside a group stays minimal */
    if (policy == POLICY_CRG)
        return misroute_crg(sim, src_router, dst_group);
    return misroute_random_router(sim, src_group, dst_group);
}
