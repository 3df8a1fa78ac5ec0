/* router: the input-output-buffered virtual cut-through router: the separable input-first
 * allocator that moves packets from input VCs to output buffers, and the output stage that
 * starts packets on their links. Layer: acts on the network (network.h) and on nothing else:
 * it moves packets between buffers and links, returns credits, bumps the network's counters
 * and logs injected packets for the NICs; it never calls the NICs, the observers or the cycle
 * loop. */
#ifndef DFSIM_ROUTER_H
#define DFSIM_ROUTER_H

#include <stdint.h>

struct network;

/* A router's inputs as its allocator first finds them this cycle (router_scan_inputs): those
 * whose head may request now (ready), and the earliest cycle one of the others may (wake). The
 * cycle loop takes it once per router and cycle, for the prefetches and the allocation. */
struct router_inputs {
    uint64_t ready;
    uint32_t wake;
};
struct router_inputs router_scan_inputs(const struct network *net, int router);

/* Allocation and crossbar transfers of one router for the current cycle; `inputs` is
 * router_scan_inputs of it, taken this cycle. */
void router_allocate(struct network *net, int router, struct router_inputs inputs);
/* Starts the head packet of every free output link of the router. */
void router_send(struct network *net, int router);

/* Cache prefetches for what router_allocate / router_send will read of `router` soon, so
 * that the memory latency of the next routers overlaps the work on this one (large networks
 * do not fit in the caches). The cycle loop calls stage 1 two routers ahead (lines found
 * through the router's own arrays) and stage 2 one router ahead (packets found through the
 * lines stage 1 fetched). No effect on results. */
void router_prefetch_allocate(const struct network *net, int router, int stage, uint64_t ready);
void router_prefetch_send(const struct network *net, int router, int stage);

#endif
