/* port_state: what a router keeps per port and per input VC: rings of packet indices (struct
 * packet_ring) and crossbar and link occupancy (struct port_state). The network owns them
 * (struct router_state, network.h); routing mechanisms read them through their views. */
#ifndef DFSIM_PORT_STATE_H
#define DFSIM_PORT_STATE_H

#include <stdint.h>

/* A FIFO of packet indices stored in net->slots[base .. base+capacity). The capacity is the
 * same for every ring of a port (the port layout's ring_capacity, net->output_capacity), so
 * it is not stored here: 16 bytes per ring, four to a cache line. */
struct packet_ring {
    uint32_t base;
    uint32_t head_packet; /* slots[base + head] while count > 0: no slot read to see the head */
    /* Input rings: the head's ready_cycle (earliest allocation). Output rings: the first cycle
     * the head may start on the link (the link free and the head through the crossbar); while
     * empty, the cycle the link frees up. Kept here so that a router looks at its heads
     * without touching packets. */
    uint32_t head_ready;
    uint16_t head, count;
};

static inline void ring_push(uint32_t *slots, struct packet_ring *ring, unsigned capacity,
                             uint32_t index)
{
    unsigned tail = ring->head + ring->count;
    if (tail >= capacity)
        tail -= capacity;
    slots[ring->base + tail] = index;
    if (ring->count++ == 0)
        ring->head_packet = index;
}

static inline uint32_t ring_pop(const uint32_t *slots, struct packet_ring *ring,
                                unsigned capacity)
{
    uint32_t index = ring->head_packet;
    ring->head = (uint16_t)(ring->head + 1u == capacity ? 0 : ring->head + 1u);
    if (--ring->count)
        ring->head_packet = slots[ring->base + ring->head];
    return index;
}

/* The head packet of a non-empty ring. */
static inline uint32_t ring_front(const struct packet_ring *ring)
{
    return ring->head_packet;
}

/* Per (router, port) state. */
struct port_state {
    uint32_t input_busy_until;  /* crossbar input free from this cycle on */
    uint32_t output_busy_until; /* crossbar output free from this cycle on */
    uint16_t input_vc_mask;     /* VCs of this input port holding a packet */
    uint16_t routed_vc_mask;    /* VCs whose head's decision is cached (input_vc.route) */
    uint8_t input_pointer;      /* round-robin pointer of the input arbiter (VC) */
    uint8_t output_pointer;     /* round-robin pointer of the output arbiter (input port) */
    /* The link frees up link_slack ticks (1/num cycle, link_rate.h) before output.head_ready:
     * on a link of fractional bandwidth the next packet starts there, not at the cycle. */
    uint16_t link_slack;
    struct packet_ring output;  /* output buffer, shared by the VCs of the port; its
                                 * head_ready also says when the link is free */
};

#endif
