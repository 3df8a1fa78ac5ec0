/* routing_piggyback: PiggyBack's per-group broadcast of global-link saturation flags. */
#ifndef DFSIM_ROUTING_PIGGYBACK_H
#define DFSIM_ROUTING_PIGGYBACK_H

#include <stdint.h>

struct sim;

/* Saturation flags of `router`'s global ports (bit k = global port k) as `observer` sees
 * them this cycle: its own flags now, another router's as computed local_latency cycles ago
 * (0 before that). */
uint64_t piggyback_flags_seen(const struct sim *sim, int observer, int router);

#endif
