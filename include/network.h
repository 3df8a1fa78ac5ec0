/* network: the state of the simulated network, the bottom layer of the core: topology and the
 * per-kind port layouts, the packet pool, the buffers (rings of packet indices), credits,
 * ports, router states, the event wheel of the links and the cycle counter; its creation and
 * the operations that touch nothing else (a packet into an input buffer or an injection
 * queue, a credit back, a delivered packet out). It knows no cycle loop, NIC or observer: the
 * routers (router.h) and the NICs (workload.h) act on it, the cycle loop (sim.h) owns it, the
 * observers read it. See src/README.md, "Layers". */
#ifndef DFSIM_NETWORK_H
#define DFSIM_NETWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arbiter.h"
#include "config.h"
#include "event_wheel.h"
#include "far_end.h"
#include "link_rate.h"
#include "packet.h"
#include "port_state.h"
#include "rng.h"
#include "routing.h"
#include "sim_status.h"
#include "topology.h"

/* What the network keeps per router kind about its ports (the topology's port layout plus
 * the VCs, buffers and latencies the config gives each class). */
struct network_layout {
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

/* An input VC: its ring and the routing decision cached for its head, side by side, as a
 * request reads both (the head's ready cycle, then the decision). The cycle walks every
 * router's state between two touches of a hop, so each distinct line a hop reads is a miss:
 * side by side, most requests read one line (40 bytes: half the VCs lie within one line;
 * padding to 64 would save more misses but make the array 60 % larger). */
struct input_vc {
    struct packet_ring ring;
    struct route_choice route; /* valid while the port's routed_vc_mask says so */
};

/* Per router. */
struct router_state {
    uint64_t input_nonempty;  /* input ports holding a packet */
    uint64_t output_nonempty; /* output buffers holding a packet */
    /* Nothing can happen in this router's allocator before allocate_wake, nor on its output
     * links before send_wake: the cycle loop skips it until then (exact, not a heuristic). */
    uint32_t allocate_wake, send_wake;
};

/* What the network counts of the packets that enter and leave it: the measurement window's
 * counts move only while `measuring`; the totals count from cycle 0 (conservation). The
 * network's operations and the routers bump them, the statistics summarise them. */
struct network_counts {
    uint64_t generated, refused, injected; /* packets, measurement window */
    uint64_t generated_phits, refused_phits, injected_phits;
    uint64_t *router_injected; /* [routers]: packets injected by each router's nodes (window) */
    uint64_t total_generated, total_delivered;
};

struct network {
    const struct sim_config *cfg;
    struct topology topo;
    const struct routing_ops *routing;
    const struct arbiter_ops *arbiter;
    struct vc_ladder ladder;
    struct routing_env routing_env; /* what the mechanism sees of the run */

    int packet_size, xbar_cycles;
    int vcs_local, vcs_global, vcs_injection;
    struct network_layout layouts[TOPOLOGY_MAX_KINDS]; /* by router kind */
    uint32_t *router_vc_base;                          /* first input VC of each router */
    struct router_view *router_views;                  /* what routing sees of each router */
    int capacity_phits[PORT_CLASSES];                  /* input buffer per VC, by port class */
    struct link_rate link_rate[PORT_CLASSES];          /* bandwidth of the links, by port class */
    uint32_t serialization[PORT_CLASSES];              /* cycles a packet occupies such a link */
    size_t router_state_bytes; /* per-port and per-VC arrays: decides the prefetch stages */

    struct packet_pool pool;
    uint32_t *slots;                  /* storage of every packet_ring */
    struct input_vc *input_vc; /* [network_vc_index(router, port, vc)] */
    int32_t *credits;          /* same indexing: phits free downstream of an output VC */
    /* What the routing senses beyond its routers' credits (routing_ops.sensing; all NULL or
     * false when it asks nothing): credits as latency-1 links would return them (same
     * indexing as credits: credits + credits_ahead, routing.h), the global ports' occupancy
     * histories (far_end.h), as credits and as fresh credits count them, and each router's
     * first global port among them. A grant takes credits and fresh credits alike, so only the
     * difference is kept: the grant leaves it alone. */
    struct routing_sensing sensing;
    bool sensed; /* sensing asks for anything: the hooks below have work */
    int32_t *credits_ahead;
    struct far_end far_end, far_end_fresh;
    uint32_t *global_port_base;
    struct port_state *ports; /* [topo.port_base[router] + port] */
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

    struct rng routing_rng;
    uint64_t cycle;
    uint64_t last_progress_cycle; /* last cycle a packet moved (deadlock watchdog) */
    uint64_t in_network;          /* packets generated and not yet delivered */
    bool measuring;               /* the measurement window is open (set by the cycle loop) */
    /* The first fault any layer hit (SIM_OK while none): the cycle loop stops on it. */
    enum sim_status status;
    char message[1024]; /* diagnostic when status != SIM_OK */

    struct network_counts counts;
    /* Packets the routers moved from an injection queue into the network this cycle, in
     * order, when someone listens (the NICs: the cycle loop hands them over after the
     * allocation phase and empties the log); NULL when no one does. At most one per node. */
    uint32_t *injected_log;
    uint32_t injected_count;

    /* Optional observers of the links, off (NULL, false) unless a run asks for them: the
     * phits every output link started carrying in the measurement window
     * ([topo.port_base[router] + port], network_count_link_load), and a call for every packet
     * put on a link (the packet log: the head leaves now, and `arrival` is when it reaches the
     * next router's input buffer, or when its tail reaches the node). The routers test
     * observe_sends once per packet sent. */
    uint64_t *link_phits;
    void (*on_send)(void *ctx, const struct network *net, int router, int out_port,
                    uint32_t packet, uint64_t arrival);
    void *on_send_ctx;
    bool observe_sends;

    /* Optional observer called for every hop granted (tests check paths and VCs with it). */
    void (*on_hop)(void *ctx, const struct network *net, int router, int in_port, uint32_t packet,
                   const struct route_choice *choice);
    void *on_hop_ctx;
};

/* Builds the network of a validated config into *net (zeroed by the caller); returns 0, or -1
 * with a message in err (network_destroy then frees what was built). */
int network_create(struct network *net, const struct sim_config *cfg, char *err, int err_len);
void network_destroy(struct network *net);

/* Counts the phits each output link carries in the measurement window from now on
 * (link_phits); 0 or -1 (memory). */
int network_count_link_load(struct network *net);
/* A packet of `index` starts on output `out_port` of `router` now, due at `arrival` (the
 * routers call it when observe_sends is set). */
void network_observe_send(struct network *net, int router, int out_port, uint32_t index,
                          uint64_t arrival);

/* Keeps a log of the packets injected each cycle (injected_log) from now on; 0 or -1. */
int network_log_injections(struct network *net);

/* Creates a packet from node src to node dst now and puts it into its injection queue (the
 * VC chosen by destination), as a NIC does. Returns 0 with its index in *packet (if not
 * NULL), or -1 when the queue is full (not counted: the NIC keeps the packet and retries) or
 * memory is exhausted (status SIM_NOMEM). */
int network_enqueue(struct network *net, uint32_t src, uint32_t dst, uint32_t *packet);
/* The same, counting a full queue as a refused packet (traffic that does not wait). */
int network_inject_packet(struct network *net, uint32_t src, uint32_t dst, uint32_t *packet);
static inline int network_inject(struct network *net, uint32_t src, uint32_t dst)
{
    return network_inject_packet(net, src, dst, NULL);
}
/* Whether network_enqueue(src, dst) would find its injection queue full now. */
bool network_injection_full(const struct network *net, uint32_t src, uint32_t dst);

/* Puts packet `index`, whose head arrives at head_arrival, into input buffer (router, port,
 * vc): it can be allocated router.latency - 1 cycles after, so that it leaves on the next
 * link router.latency cycles after arrival when nothing is in the way. */
void network_enter_buffer(struct network *net, int router, int port, int vc, uint32_t index,
                          uint64_t head_arrival);
/* For a pure routing (routing_ops.pure): routes the packet that just became the head of input
 * (router, port, vc), `head`, into that VC's cached decision (input_vc.route), as the
 * allocator would later; `input` is that port's state (the callers have it at hand). */
void network_route_early(struct network *net, int router, int port, int vc,
                         struct port_state *input, const struct packet *head);
/* A delivered packet leaves the network: counted, and its record back to the pool. */
static inline void network_release(struct network *net, uint32_t index)
{
    net->counts.total_delivered++;
    net->in_network--;
    packet_release(&net->pool, index);
}

static inline const struct network_layout *network_layout_of(const struct network *net, int router)
{
    return &net->layouts[net->topo.n_kinds == 1 ? 0 : net->topo.router_kind[router]];
}
/* Router r's first input VC in the per-VC arrays (r * the VCs of a router, with one kind). */
static inline uint32_t network_vc_base(const struct network *net, int router)
{
    if (net->topo.n_kinds == 1)
        return (uint32_t)router * (uint32_t)net->layouts[0].vcs_per_router;
    return net->router_vc_base[router];
}
static inline int network_vc_index(const struct network *net, int router, int port, int vc)
{
    return (int)network_vc_base(net, router) +
           network_layout_of(net, router)->port_vc_offset[port] + vc;
}
static inline struct port_state *network_port(const struct network *net, int router, int port)
{
    return &net->ports[topology_port_base(&net->topo, router) + (uint32_t)port];
}
static inline enum port_class network_port_class(const struct network *net, int router, int port)
{
    return (enum port_class)network_layout_of(net, router)->port_class[port];
}
static inline struct packet *network_packet(const struct network *net, uint32_t index)
{
    return &net->pool.packets[index];
}
/* Phits in use of VC `vc` behind output `port` of `router` (downstream buffer plus what this
 * router's output buffer holds for it), as counted by credits. */
static inline int network_output_occupancy(const struct network *net, int router, int port, int vc)
{
    return net->capacity_phits[network_port_class(net, router, port)] -
           net->credits[network_vc_index(net, router, port, vc)];
}
/* A credit for a packet's worth of phits back at output (router, port, vc): a head waiting for
 * it may go this very cycle. */
static inline void network_return_credit(struct network *net, int router, int port, int vc)
{
    int32_t *credits = &net->credits[network_vc_index(net, router, port, vc)];
    *credits += net->packet_size;
    if (net->routing->on_credits)
        net->routing->on_credits(&net->routing_env, router, port, vc, *credits);
    if (net->routers[router].allocate_wake > net->cycle)
        net->routers[router].allocate_wake = (uint32_t)net->cycle;
}

/* What the routing senses follows its credits (net->sensed): a grant now took a packet's worth
 * at global output (router, port) (only with the far end sensed); a credit event gave it back
 * (and the fresh credit too when `fresh`); a fresh credit event gave the fresh credit back. */
void network_sense_grant(struct network *net, int router, int port);
/* Global port `port` of router r among the network's global ports (far-end histories). */
static inline uint32_t network_global_port(const struct network *net, int router, int port)
{
    return topology_global_port_index(&net->topo, net->global_port_base, router, port);
}
/* Fetches what an event at VC index idx of output (router, port) will touch of the sensed
 * state: a credit (`credit`), a fresh credit (`fresh`), or both (no effect on results).
 * Always inlined, as every helper that only prefetches (far_end.h). */
static inline __attribute__((always_inline)) void network_prefetch_sensed(const struct network *net,
                                                                          int router, int port,
                                                                          int idx, bool credit,
                                                                          bool fresh)
{
    if (net->credits_ahead)
        __builtin_prefetch(&net->credits_ahead[idx], 1);
    if (!net->sensing.far_end || network_port_class(net, router, port) != PORT_GLOBAL)
        return;
    uint32_t global = network_global_port(net, router, port);
    if (credit)
        far_end_prefetch(&net->far_end, global, (int64_t)net->cycle);
    if (fresh)
        far_end_prefetch(&net->far_end_fresh, global, (int64_t)net->cycle);
}
void network_sense_credit(struct network *net, int router, int port, int vc, bool fresh);
void network_sense_fresh_credit(struct network *net, int router, int port, int vc);

/* The view a routing mechanism gets of a router now: everything but the cycle is fixed for
 * the run, so it is a copy of the router's precomputed one. */
static inline void network_router_view(const struct network *net, int router,
                                       struct router_view *out)
{
    *out = net->router_views[router];
    out->now = (uint32_t)net->cycle;
}
/* A routing decision's context at `router` now (its in_port and flags set by the router). */
static inline void network_route_ctx(const struct network *net, int router, struct route_ctx *out)
{
    out->env = &net->routing_env;
    out->router = router;
    out->kind = topology_kind_of(&net->topo, router);
    out->view = &net->router_views[router];
    out->now = (uint32_t)net->cycle;
}
/* Asks the mechanism for a decision at ctx's router, input `in`; the decision is reusable
 * unless it read adaptive state (routing.h). Returns the mechanism's 0 or -1 (no route). */
static inline int network_decide(const struct network *net, struct route_ctx *ctx, int in,
                                 const struct packet *pk, struct route_choice *ch)
{
    ctx->in_port = in;
    ctx->adaptive = false;
    ctx->dst_min_port = -1;
    int rc = net->routing->route(ctx, pk, ch);
    ch->reusable = !ctx->adaptive;
    ch->dst_min_port = (int8_t)ctx->dst_min_port;
    return rc;
}

#endif
