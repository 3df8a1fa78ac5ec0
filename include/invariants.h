/* invariants: an independent recount of the network's whole state and of the jobs' messages,
 * for the tests and `dfsim run --check`. Layer: an observer: it reads the network and the
 * workload through const pointers and changes nothing; the cycle loop (sim_check_invariants)
 * decides what a broken invariant does to the run. */
#ifndef DFSIM_INVARIANTS_H
#define DFSIM_INVARIANTS_H

#include <stddef.h>

struct network;
struct workload;

/* Recounts every packet, credit and link event with the VC-ladder rules, and with a workload
 * (NULL: none) every message's packets and every job's. Returns 0, or -1 with what is broken
 * in why. */
int invariants_check(const struct network *net, const struct workload *w, char *why, size_t len);

#endif
