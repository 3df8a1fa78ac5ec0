/* misroute_policy: the global misrouting policies (CRG, RRG, NRG, MM) that choose where a
 * nonminimal path leaves the source group. */
#ifndef DFSIM_MISROUTE_POLICY_H
#define DFSIM_MISROUTE_POLICY_H

#include "settings.h"

struct routing_env;

enum global_policy { POLICY_CRG, POLICY_RRG, POLICY_NRG, POLICY_MM };

/* routing.global_policy, shared by the mechanisms that misroute (each says which policies it
 * implements: routing_ops.global_policies). */
struct misroute_policy_params {
    int global_policy; /* enum global_policy */
};
extern const struct setting_table misroute_policy_settings;

/* Intermediate router of a source-decided nonminimal path (oblivious, piggyback) from
 * src_router to a destination in dst_group. CRG: a random router of a group reached by one
 * of the source router's own global links; RRG: a random router of a random group. Neither picks
 * the source or the destination group (CRG falls back to -1 only if the source router's
 * single global link leads to the destination group). -1 = no nonminimal path. */
int misroute_intermediate(const struct routing_env *env, int src_router, int dst_group);

#endif
