/* router: the input-output-buffered virtual cut-through router: the separable input-first
 * allocator that moves packets from input VCs to output buffers, and the output stage that
 * starts packets on their links. */
#ifndef DFSIM_ROUTER_H
#define DFSIM_ROUTER_H

struct sim;

/* Allocation and crossbar transfers of one router for the current cycle. */
void router_allocate(struct sim *sim, int router);
/* Starts the head packet of every free output link of the router. */
void router_send(struct sim *sim, int router);

#endif
