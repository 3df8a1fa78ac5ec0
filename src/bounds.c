/* bounds: the throughput bounds (src/METRICS.md#theoretical-bounds) and the UN/MIN zero-load
 * latency, for links of any bandwidth (the bounds scale with what the global links carry, their
 * bandwidth or what their buffers sustain over a credit round trip, and never exceed the node
 * links'; the latency follows a lone packet through the pipeline exactly as the simulator moves
 * it). */
#include "bounds.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "link_rate.h"
#include "routing.h"
#include "topology.h"

/* Global VCs a global link's traffic can spread over: those of the routing's ladder (more
 * configured stay unused). */
static int bounds_global_vcs(const struct sim_config *cfg)
{
    struct vc_ladder ladder;
    memset(&ladder, 0, sizeof ladder);
    routing_registry[cfg->routing.mechanism]->ladder(cfg, &ladder);
    return ladder.global_vcs > 0 ? ladder.global_vcs : 1;
}

int bounds_throughput(const struct sim_config *cfg, const struct topology *t,
                      struct bounds_throughput *out)
{
    const struct routing_ops *routing = routing_registry[cfg->routing.mechanism];
    if (!routing->bound || routing->bound(cfg, t, out) != 0)
        return -1;
    /* The mechanisms state their bounds for global links of 1 phit/cycle; a link carries its
     * bandwidth unless its buffers cannot cover the credit round trip at that rate. */
    double global = cfg->links.bandwidth_global, node = cfg->links.bandwidth_node;
    struct bounds_buffer buf;
    bounds_buffer_rate(cfg, PORT_GLOBAL, &buf);
    int vcs = bounds_global_vcs(cfg);
    double carried = vcs * buf.rate;
    if (carried < global) {
        out->load *= carried;
        snprintf(out->scaled, sizeof out->scaled, "r_global * %s",
                 out->formula ? out->formula : "1");
        out->formula = out->scaled;
        snprintf(out->why, sizeof out->why,
                 "%s; a global link carries at most r_global = %.4f phits/cycle, below b_global "
                 "= %g: %d VC%s of %d phits, each refilled once per %d-cycle credit round trip",
                 out->reason, carried, global, vcs, vcs == 1 ? "" : "s", buf.phits, buf.round_trip);
        out->reason = out->why;
    } else {
        out->load *= global;
        if (global != 1.0) {
            snprintf(out->scaled, sizeof out->scaled, "b_global * %s",
                     out->formula ? out->formula : "1");
            out->formula = out->scaled;
        }
    }
    if (out->load > node) {
        out->load = node;
        out->formula = "b_node";
        out->reason = "a node's link carries no more (the network bound is higher)";
    }
    return 0;
}

/* One link of the pipeline a lone packet crosses (class c): the simulator's rules (router.c,
 * sim.c), in cycles from the packet's birth. */
struct bounds_packet {
    uint64_t head, tail; /* arrival of the head and the tail in the next input buffer */
};

static void bounds_cross(const struct sim_config *cfg, struct link_rate rate, int latency,
                         int xbar_cycles, struct bounds_packet *pk)
{
    uint64_t size = (uint64_t)cfg->traffic.packet_size;
    uint64_t grant = pk->head + (uint64_t)cfg->router.latency - 1;
    uint64_t through = grant + (uint64_t)xbar_cycles;
    if (through < pk->tail + 1)
        through = pk->tail + 1;
    uint64_t send = grant + 1; /* through the crossbar's first cycle: the link is idle */
    uint64_t finish = send * rate.num + size * rate.den;
    if (finish < through * rate.num + rate.den)
        finish = through * rate.num + rate.den;
    uint64_t tail_sent = (finish + rate.num - 1) / rate.num - 1;
    pk->head = send + (uint64_t)latency;
    pk->tail = tail_sent + (uint64_t)latency;
}

int bounds_buffer_rate(const struct sim_config *cfg, enum port_class c, struct bounds_buffer *out)
{
    if (c != PORT_LOCAL && c != PORT_GLOBAL)
        return -1;
    double bandwidth[PORT_CLASSES];
    config_link_bandwidths(cfg, bandwidth);
    struct link_rate rate;
    link_rate_from_bandwidth(bandwidth[c], &rate);
    int latency = c == PORT_LOCAL ? cfg->links.local_latency : cfg->links.global_latency;
    int xbar = config_crossbar_cycles(cfg), size = cfg->traffic.packet_size;
    out->phits = c == PORT_LOCAL ? cfg->buffers.local : cfg->buffers.global;
    /* At best (measured in the simulator, to the cycle): the sender grants a packet whose
     * tail is already in (its head arrived router.latency - 1 cycles earlier), taking the
     * credits; the downstream router grants it on at once and returns the credits when that
     * transfer ends; they arrive one link latency later, usable in that cycle (events come
     * before allocation). */
    struct bounds_packet pk = {0, 0};
    uint64_t grant = (uint64_t)cfg->router.latency - 1;
    bounds_cross(cfg, rate, latency, xbar, &pk);
    uint64_t down = pk.head + (uint64_t)cfg->router.latency - 1 + (uint64_t)xbar;
    if (down < pk.tail + 1)
        down = pk.tail + 1;
    out->round_trip = (int)(down + (uint64_t)latency - grant);
    /* Credits are granted a whole packet at a time: the rest of a buffer stays unused. */
    out->rate = (double)(out->phits / size * size) / out->round_trip;
    double crossbar = config_crossbar_bandwidth(cfg);
    out->limit = bandwidth[c] < crossbar ? bandwidth[c] : crossbar;
    return 0;
}

double bounds_pair_latency(const struct sim_config *cfg, const struct topology *t, int r, int s)
{
    double bandwidth[PORT_CLASSES];
    config_link_bandwidths(cfg, bandwidth);
    const int latency[PORT_CLASSES] = {cfg->links.injection_latency, cfg->links.local_latency,
                                       cfg->links.global_latency};
    struct link_rate rate[PORT_CLASSES];
    for (int c = 0; c < PORT_CLASSES; c++)
        link_rate_from_bandwidth(bandwidth[c], &rate[c]);
    int size = cfg->traffic.packet_size;
    int xbar = config_crossbar_cycles(cfg);
    struct bounds_packet pk = {(uint64_t)latency[PORT_NODE], 0};
    pk.tail = pk.head + link_rate_cycles(rate[PORT_NODE], (uint32_t)size) - 1;
    while (r != s) {
        int port = topology_min_port(t, r, s);
        enum port_class c = topology_port_class(t, r, port);
        bounds_cross(cfg, rate[c], latency[c], xbar, &pk);
        r = topology_neighbour(t, r, port);
    }
    bounds_cross(cfg, rate[PORT_NODE], latency[PORT_NODE], xbar, &pk); /* to the node */
    return (double)pk.tail;
}

double bounds_zero_load_latency(const struct sim_config *cfg, const struct topology *t)
{
    /* Every ordered pair of distinct nodes, a pair of routers at a time. */
    double sum = 0, pairs = 0;
    for (int r = 0; r < t->routers; r++) {
        double nr = topology_kind_of(t, r)->count[PORT_NODE];
        if (nr == 0)
            continue;
        for (int s = 0; s < t->routers; s++) {
            double ns = topology_kind_of(t, s)->count[PORT_NODE];
            double n = r == s ? nr * (nr - 1) : nr * ns;
            if (n > 0) {
                sum += n * bounds_pair_latency(cfg, t, r, s);
                pairs += n;
            }
        }
    }
    return pairs > 0 ? sum / pairs : 0;
}
