/* sim: one simulation run: the network state, the cycle loop and its phases. Everything a run
 * needs hangs off struct sim, so several runs can live in one process. */
#ifndef DFSIM_SIM_H
#define DFSIM_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "arbiter.h"
#include "config.h"
#include "event_wheel.h"
#include "packet.h"
#include "rng.h"
#include "routing.h"
#include "stats.h"
#include "topology.h"
#include "traffic.h"

/* A FIFO of packet indices stored in sim->slots[base .. base+capacity). The capacity is the
 * same for every ring of a port (sim->ring_capacity[port], sim->output_capacity), so it is not
 * stored here: 16 bytes per ring, four to a cache line. */
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
    uint16_t routed_vc_mask;    /* VCs whose head's decision is in sim->route_cache */
    uint8_t input_pointer;      /* round-robin pointer of the input arbiter (VC) */
    uint8_t output_pointer;     /* round-robin pointer of the output arbiter (input port) */
    struct packet_ring output;  /* output buffer, shared by the VCs of the port; its
                                 * head_ready also says when the link is free */
};

/* Per router. */
struct router_state {
    uint64_t input_nonempty;  /* input ports holding a packet */
    uint64_t output_nonempty; /* output buffers holding a packet */
    /* Nothing can happen in this router's allocator before allocate_wake, nor on its output
     * links before send_wake: the cycle loop skips it until then (exact, not a heuristic). */
    uint32_t allocate_wake, send_wake;
};

enum sim_status {
    SIM_OK = 0,
    SIM_DEADLOCK = 3,
    SIM_INVARIANT = 4,
    SIM_NOMEM = 5,
    SIM_STOPPED = 6 /* *sim->stop was set (a signal): the run is incomplete */
};

struct sim {
    const struct sim_config *cfg;
    struct topology topo;
    const struct routing_ops *routing;
    const struct arbiter_ops *arbiter;
    const struct pattern_ops *pattern;
    struct vc_ladder ladder;
    int global_policy; /* enum global_policy of routing.global_policy */
    const void *routing_params, *pattern_params; /* the plug-ins' settings (their tables) */
    void *routing_state, *pattern_state;

    int packet_size, xbar_cycles;
    int vcs_local, vcs_global, vcs_injection;
    int vcs_per_router;                       /* input VCs of one router, all ports */
    int port_vc_offset[TOPOLOGY_MAX_RADIX];   /* first VC index of each port in a router */
    int port_vcs[TOPOLOGY_MAX_RADIX];         /* VCs of each port */
    uint8_t port_class[TOPOLOGY_MAX_RADIX];
    int port_latency[TOPOLOGY_MAX_RADIX];     /* latency of the link leaving each port */
    int capacity_phits[3];                    /* input buffer per VC, by port class */
    uint64_t transit_port_mask;               /* local and global ports */
    uint64_t generation_threshold;            /* Bernoulli probability as fixed point */
    size_t router_state_bytes; /* per-port and per-VC arrays: decides the prefetch stages */

    struct packet_pool pool;
    uint32_t *slots;               /* storage of every packet_ring */
    struct packet_ring *input_vc;  /* [router * vcs_per_router + port_vc_offset[port] + vc] */
    int32_t *credits;              /* same indexing: phits free downstream of an output VC */
    struct route_choice *route_cache; /* same indexing: static decision of each input head */
    struct port_state *ports;      /* [router * radix + port] */
    /* [router * radix + port]: a lower bound of the first cycle input `port` can request an
     * output (its crossbar input free and a head ready). The allocator skips inputs whose
     * bound lies ahead without touching their rings; 4 bytes per port keeps a router's in
     * a few cache lines. While an input is busy the bound is not before it frees (grants set
     * it to the transfer's end, arrivals never lower it below), so a busy input is always
     * skipped by the bound alone. */
    uint32_t *input_next;
    uint16_t ring_capacity[TOPOLOGY_MAX_RADIX]; /* packets per input VC of each port */
    uint16_t output_capacity;                   /* packets per output buffer */
    struct router_state *routers;
    struct event_wheel wheel;

    struct rng traffic_rng, routing_rng;
    uint64_t cycle;
    uint64_t total_cycles;
    uint64_t last_progress_cycle;  /* last cycle a packet moved (deadlock watchdog) */
    uint64_t in_network;           /* packets generated and not yet delivered */
    bool measuring;
    bool check_invariants;         /* verify the invariants every cycle (tests, --check) */
    uint32_t check_every;          /* > 1: check only cycles that are multiples of it */
    volatile sig_atomic_t *stop;   /* if set and non-zero, sim_run stops (SIM_STOPPED): signals */
    enum sim_status status;
    char message[1024];            /* diagnostic when status != SIM_OK */

    struct stats stats;

    /* Optional observer called for every hop granted (tests check paths and VCs with it). */
    void (*on_hop)(void *ctx, const struct sim *sim, int router, int in_port, uint32_t packet,
                   const struct route_choice *choice);
    void *on_hop_ctx;
};

/* Builds a run from a validated config; returns NULL with a message in err. */
struct sim *sim_create(const struct sim_config *cfg, char *err, int err_len);
void sim_destroy(struct sim *sim);
/* Creates a packet from node src to node dst now, as the traffic generator does (its
 * injection VC chosen by destination). Returns 0, or -1 when the injection queue is full
 * (counted as refused) or memory is exhausted. For tests and trace-driven traffic. */
int sim_inject(struct sim *sim, uint32_t src, uint32_t dst);
/* Simulates one cycle; returns the status (SIM_OK to continue). */
enum sim_status sim_step(struct sim *sim);
/* Runs warm-up and measurement; progress(cycle, ctx) is called every so often if non-NULL. */
enum sim_status sim_run(struct sim *sim, void (*progress)(const struct sim *, void *), void *ctx);

/* Independent recount of every packet, credit and link event, with the VC-ladder rules;
 * returns 0 or -1 with sim->message set (and status SIM_INVARIANT). With check_every = K > 1
 * only cycles that are multiples of K are checked (the others return 0 at once). */
int sim_check_invariants(struct sim *sim);

static inline int sim_vc_index(const struct sim *sim, int router, int port, int vc)
{
    return router * sim->vcs_per_router + sim->port_vc_offset[port] + vc;
}
static inline struct port_state *sim_port(const struct sim *sim, int router, int port)
{
    return &sim->ports[router * sim->topo.radix + port];
}
static inline struct packet *sim_packet(const struct sim *sim, uint32_t index)
{
    return &sim->pool.packets[index];
}
/* Phits in use of VC `vc` behind output `port` of `router` (downstream buffer plus what this
 * router's output buffer holds for it), as counted by credits. */
static inline int sim_output_occupancy(const struct sim *sim, int router, int port, int vc)
{
    return sim->capacity_phits[sim->port_class[port]] -
           sim->credits[sim_vc_index(sim, router, port, vc)];
}

#endif
