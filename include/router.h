/* router: the input-output-buffered virtual cut-through router: the separable input-first
 * allocator that moves packets from input VCs to output buffers, and the output stage that
 * starts packets on their links. */
#ifndef DFSIM_ROUTER_H
#define DFSIM_ROUTER_H

struct sim;
struct packet;
struct packet_ring;
struct port_state;

/* Allocation and crossbar transfers of one router for the current cycle. */
void router_allocate(struct sim *sim, int router);
/* Starts the head packet of every free output link of the router. */
void router_send(struct sim *sim, int router);

/* For a pure routing (routing_ops.pure): routes the packet that just became the head of input
 * (router, port, vc), `head` in `ring`, into the route cache, as the allocator would later;
 * `input` is that port's state (the callers have it at hand). */
void router_route_early(struct sim *sim, int router, int port, int vc, struct port_state *input,
                        const struct packet_ring *ring, const struct packet *head);

/* Cache prefetches for what router_allocate / router_send will read of `router` soon, so
 * that the memory latency of the next routers overlaps the work on this one (large networks
 * do not fit in the caches). The cycle loop calls stage 1 two routers ahead (lines found
 * through the router's own arrays) and stage 2 one router ahead (packets found through the
 * lines stage 1 fetched). No effect on results. */
void router_prefetch_allocate(const struct sim *sim, int router, int stage);
void router_prefetch_send(const struct sim *sim, int router, int stage);

#endif
