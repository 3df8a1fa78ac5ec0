/* misroute_policy: the intermediate router of a nonminimal path, chosen by the global
 * misrouting policy (routing.global_policy, routing.h). */
#ifndef DFSIM_MISROUTE_POLICY_H
#define DFSIM_MISROUTE_POLICY_H

struct routing_env;

/* Intermediate router of a source-decided nonminimal path (oblivious, piggyback) from
 * src_router to a destination in dst_group. CRG: a random router of a group reached by one
 * of the source router's own global links; RRG: a random router of a random group. Neither picks
 * the source or the destination group (CRG falls back to -1 only if the source router's
 * single global link leads to the destination group). -1 = no nonminimal path. */
int misroute_intermediate(const struct routing_env *env, int src_router, int dst_group);

#endif
