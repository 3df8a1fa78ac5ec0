/* routing_piggyback: PiggyBack's per-group broadcast of global-link saturation flags. */
#ifndef DFSIM_ROUTING_PIGGYBACK_H
#define DFSIM_ROUTING_PIGGYBACK_H

#include <stdint.h>

struct routing_env;

/* Saturation flags of `router`'s global ports (bit k = its k-th global port) as `observer`
 * sees them this cycle: its own flags now, another router's as computed local_latency cycles
 * ago (0 before that). */
uint64_t piggyback_flags_seen(const struct routing_env *env, int observer, int router);

#endif
