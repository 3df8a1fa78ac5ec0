/* misroute_policy: choosing intermediate routers for nonminimal paths. */
#include "misroute_policy.h"

#include <stdio.h>

#include "routing.h"

/* A uniformly random router of group g. */
static int misroute_router_in(const struct routing_env *env, int g)
{
    const struct topology *t = env->topo;
    return t->group_first_router[g] +
           (int)rng_below(env->rng, (uint32_t)topology_group_routers(t, g));
}

/* A random router of a random group other than `exclude_a` and `exclude_b` (may be equal);
 * -1 if there is no such group. */
static int misroute_random_router(const struct routing_env *env, int exclude_a, int exclude_b)
{
    const struct topology *t = env->topo;
    int excluded = 1 + (exclude_b != exclude_a);
    if (t->groups <= excluded)
        return -1;
    int lo = exclude_a < exclude_b ? exclude_a : exclude_b;
    int hi = exclude_a < exclude_b ? exclude_b : exclude_a;
    int g = (int)rng_below(env->rng, (uint32_t)(t->groups - excluded));
    /* Skip the excluded groups in increasing order so the draw stays uniform. */
    if (g >= lo)
        g++;
    if (excluded == 2 && g >= hi)
        g++;
    return misroute_router_in(env, g);
}

/* CRG for a source-decided path: one of the source router's own global links whose far group
 * is not the destination group, then a uniformly random router of that group (the packet
 * leaves on that link and, unless the draw is the entry router, takes one local hop there).
 * Taking the entry router itself would make every packet entering the group at router r
 * leave it through r or its neighbour: one local link per router pair would carry half of
 * r's global input (routers/ROUTING.md). */
static int misroute_crg(const struct routing_env *env, int src_router, int dst_group)
{
    const struct topology *t = env->topo;
    const struct router_kind *k = topology_kind_of(t, src_router);
    int groups[TOPOLOGY_MAX_RADIX], n = 0;
    for (int i = 0; i < k->count[PORT_GLOBAL]; i++) {
        int far = topology_neighbour(t, src_router, k->first[PORT_GLOBAL] + i);
        int far_group = topology_group_of_router(t, far);
        if (far_group != dst_group)
            groups[n++] = far_group;
    }
    if (!n)
        return -1;
    return misroute_router_in(env, groups[rng_below(env->rng, (uint32_t)n)]);
}

int misroute_intermediate(const struct routing_env *env, int src_router, int dst_group)
{
    int src_group = topology_group_of_router(env->topo, src_router);
    if (src_group == dst_group)
        return -1; /* traffic inside a group stays minimal */
    if (env->global_policy == POLICY_CRG)
        return misroute_crg(env, src_router, dst_group);
    return misroute_random_router(env, src_group, dst_group);
}
