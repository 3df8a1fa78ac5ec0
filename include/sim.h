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
#include "link_rate.h"
#include "packet.h"
#include "rng.h"
#include "router_state.h"
#include "routing.h"
#include "stats.h"
#include "topology.h"
#include "traffic.h"

/* What the simulator keeps per router kind about its ports (the topology's port layout plus
 * the VCs, buffers and latencies the config gives each class). */
struct sim_layout {
    int vcs_per_router;                     /* input VCs of one router, all ports */
    int port_vc_offset[TOPOLOGY_MAX_RADIX]; /* first VC index of each port in a router */
    int port_vcs[TOPOLOGY_MAX_RADIX];       /* VCs of each port */
    uint8_t port_class[TOPOLOGY_MAX_RADIX];
    int port_latency[TOPOLOGY_MAX_RADIX];       /* latency of the link leaving each port */
    uint16_t ring_capacity[TOPOLOGY_MAX_RADIX]; /* packets per input VC of each port */
    int port_capacity[TOPOLOGY_MAX_RADIX];      /* phits per input VC of each port */
    uint64_t transit_port_mask;                 /* local and global ports */
    const struct router_kind *kind;
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
    struct routing_env routing_env; /* what the mechanism sees of the run */
    struct pattern_run pattern_run; /* what the network-wide pattern sees */

    int packet_size, xbar_cycles;
    int vcs_local, vcs_global, vcs_injection;
    struct sim_layout layouts[TOPOLOGY_MAX_KINDS]; /* by router kind */
    uint32_t *router_vc_base;                      /* first input VC of each router */
    struct router_view *router_views;              /* what routing sees of each router */
    int capacity_phits[PORT_CLASSES];              /* input buffer per VC, by port class */
    struct link_rate link_rate[PORT_CLASSES];      /* bandwidth of the links, by port class */
    uint32_t serialization[PORT_CLASSES];          /* cycles a packet occupies such a link */
    uint64_t generation_threshold;                 /* Bernoulli probability as fixed point */
    size_t router_state_bytes; /* per-port and per-VC arrays: decides the prefetch stages */

    struct packet_pool pool;
    uint32_t *slots;                  /* storage of every packet_ring */
    struct packet_ring *input_vc;     /* [sim_vc_index(router, port, vc)] */
    int32_t *credits;                 /* same indexing: phits free downstream of an output VC */
    struct route_choice *route_cache; /* same indexing: decision of each input head */
    struct port_state *ports;         /* [topo.port_base[router] + port] */
    /* [topo.port_base[router] + port]: a lower bound of the first cycle input `port` can request an
     * output (its crossbar input free and a head ready). The allocator skips inputs whose
     * bound lies ahead without touching their rings; 4 bytes per port keeps a router's in
     * a few cache lines. While an input is busy the bound is not before it frees (grants set
     * it to the transfer's end, arrivals never lower it below), so a busy input is always
     * skipped by the bound alone. */
    uint32_t *input_next;
    uint16_t output_capacity; /* packets per output buffer */
    struct router_state *routers;
    struct event_wheel wheel;

    struct rng traffic_rng, routing_rng;
    uint64_t cycle;
    uint64_t total_cycles;
    uint64_t last_progress_cycle; /* last cycle a packet moved (deadlock watchdog) */
    uint64_t in_network;          /* packets generated and not yet delivered */
    bool measuring;
    bool check_invariants;       /* verify the invariants every cycle (tests, --check) */
    uint32_t check_every;        /* > 1: check only cycles that are multiples of it */
    volatile sig_atomic_t *stop; /* if set and non-zero, sim_run stops (SIM_STOPPED): signals */
    enum sim_status status;
    char message[1024]; /* diagnostic when status != SIM_OK */

    struct stats stats;
    struct workload *workload; /* the jobs, when the config has `jobs` (else NULL) */
    int isolate;               /* >= 0: only this job runs (dfsim run --isolate) */
    bool capped;               /* closed-loop jobs were still running at sim.max_cycles */

    /* Optional observer called for every hop granted (tests check paths and VCs with it). */
    void (*on_hop)(void *ctx, const struct sim *sim, int router, int in_port, uint32_t packet,
                   const struct route_choice *choice);
    void *on_hop_ctx;
};

/* Builds a run from a validated config; returns NULL with a message in err. */
struct sim *sim_create(const struct sim_config *cfg, char *err, int err_len);
/* The same where only job `isolate` of the config's jobs runs (same placements and seeds):
 * what that job does alone. */
struct sim *sim_create_isolated(const struct sim_config *cfg, int isolate, char *err, int err_len);
void sim_destroy(struct sim *sim);
/* Creates a packet from node src to node dst now, as the traffic generator does (its
 * injection VC chosen by destination). Returns 0, or -1 when the injection queue is full
 * (counted as refused) or memory is exhausted. For tests and trace-driven traffic. */
int sim_inject(struct sim *sim, uint32_t src, uint32_t dst);
/* The same, with the packet's index in *packet when it was queued (packet may be NULL). */
int sim_inject_packet(struct sim *sim, uint32_t src, uint32_t dst, uint32_t *packet);
/* The same without counting a full queue as refused (a NIC keeps the packet and retries);
 * *packet (if not NULL) gets the new packet's index. */
int sim_enqueue(struct sim *sim, uint32_t src, uint32_t dst, uint32_t *packet);
/* Whether sim_enqueue(src, dst) would find its injection queue full now. */
bool sim_injection_full(const struct sim *sim, uint32_t src, uint32_t dst);
/* Simulates one cycle; returns the status (SIM_OK to continue). */
enum sim_status sim_step(struct sim *sim);
/* Runs warm-up and measurement; progress(cycle, ctx) is called every so often if non-NULL. */
enum sim_status sim_run(struct sim *sim, void (*progress)(const struct sim *, void *), void *ctx);

/* Independent recount of every packet, credit and link event, with the VC-ladder rules;
 * returns 0 or -1 with sim->message set (and status SIM_INVARIANT). With check_every = K > 1
 * only cycles that are multiples of K are checked (the others return 0 at once). */
int sim_check_invariants(struct sim *sim);

static inline const struct sim_layout *sim_layout_of(const struct sim *sim, int router)
{
    return &sim->layouts[sim->topo.n_kinds == 1 ? 0 : sim->topo.router_kind[router]];
}
/* Router r's first input VC in the per-VC arrays (r * the VCs of a router, with one kind). */
static inline uint32_t sim_vc_base(const struct sim *sim, int router)
{
    if (sim->topo.n_kinds == 1)
        return (uint32_t)router * (uint32_t)sim->layouts[0].vcs_per_router;
    return sim->router_vc_base[router];
}
static inline int sim_vc_index(const struct sim *sim, int router, int port, int vc)
{
    return (int)sim_vc_base(sim, router) + sim_layout_of(sim, router)->port_vc_offset[port] + vc;
}
static inline struct port_state *sim_port(const struct sim *sim, int router, int port)
{
    return &sim->ports[topology_port_base(&sim->topo, router) + (uint32_t)port];
}
static inline enum port_class sim_port_class(const struct sim *sim, int router, int port)
{
    return (enum port_class)sim_layout_of(sim, router)->port_class[port];
}
static inline struct packet *sim_packet(const struct sim *sim, uint32_t index)
{
    return &sim->pool.packets[index];
}
/* Phits in use of VC `vc` behind output `port` of `router` (downstream buffer plus what this
 * router's output buffer holds for it), as counted by credits. */
static inline int sim_output_occupancy(const struct sim *sim, int router, int port, int vc)
{
    return sim->capacity_phits[sim_port_class(sim, router, port)] -
           sim->credits[sim_vc_index(sim, router, port, vc)];
}

/* Cycles of the measurement window so far: from the warm-up's end to now (measure_cycles at
 * the end of a run without closed-loop jobs; they end theirs earlier or later). */
static inline uint64_t sim_measured_cycles(const struct sim *sim)
{
    uint64_t warmup = (uint64_t)sim->cfg->sim.warmup_cycles;
    return sim->cycle > warmup ? sim->cycle - warmup : 0;
}

/* The view a routing mechanism gets of a router now: everything but the cycle is fixed for
 * the run, so it is a copy of the router's precomputed one. */
static inline void sim_router_view(const struct sim *sim, int router, struct router_view *out)
{
    *out = sim->router_views[router];
    out->now = (uint32_t)sim->cycle;
}
/* A routing decision's context at `router` now (its in_port and flags set by the router). */
static inline void sim_route_ctx(const struct sim *sim, int router, struct route_ctx *out)
{
    out->env = &sim->routing_env;
    out->router = router;
    out->kind = topology_kind_of(&sim->topo, router);
    out->view = &sim->router_views[router];
    out->now = (uint32_t)sim->cycle;
}

#endif
