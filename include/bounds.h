/* bounds: the theoretical figures for a configuration (src/METRICS.md#theoretical-bounds):
 * the global-link throughput bound of its routing under its traffic, what a class of links'
 * buffers let one VC carry, and the zero-load latency of UN/MIN. */
#ifndef DFSIM_BOUNDS_H
#define DFSIM_BOUNDS_H

#include "bounds_throughput.h"
#include "topology.h"

struct sim_config;

/* The credit loop of one class of links: a sender holds at most `phits` of a downstream VC
 * (whole packets) per credit round trip, so one VC carries at most `rate`. */
struct bounds_buffer {
    int phits;      /* buffer per VC: buffers.local or buffers.global */
    int round_trip; /* cycles from a grant taking the credits to their use again, at best */
    double rate;    /* phits/cycle per VC: floor(phits/S)*S / round_trip */
    double limit;   /* what else bounds the link: min(its bandwidth, the crossbar's) */
};

/* Fills `out` for class c (PORT_LOCAL or PORT_GLOBAL) and returns 0; -1 for PORT_NODE, whose
 * links return no credits (the node consumes what arrives, injection queues are in the
 * router). The round trip is the simulator's, to the cycle (README, Links of other
 * bandwidths): 2*latency + max(router.latency + ceil(S/speedup), tail's lag + 1). */
int bounds_buffer_rate(const struct sim_config *cfg, enum port_class c, struct bounds_buffer *out);

/* Whether the buffers of class c bound its links: one VC carries less than the link
 * (and the crossbar) could. */
static inline int bounds_buffer_binds(const struct bounds_buffer *b)
{
    return b->rate < b->limit;
}

/* Fills `out` and returns 0 when the model states a bound for the config's routing and
 * pattern on network t (MIN under ADV+i or ADVc, VAL-style under UN, MIN under UN); returns
 * -1 otherwise. The mechanism knows its bound (routing_ops.bound), asking the pattern for the
 * minimal-routing one (pattern_ops.minimal_bound). A global link carries at most
 * min(b_global, V * rate) where rate is bounds_buffer_rate's and V the global VCs of the
 * routing's ladder (each VC carries at most rate; MIN's ladder has one). */
int bounds_throughput(const struct sim_config *cfg, const struct topology *t,
                      struct bounds_throughput *out);

/* Zero-load latency of uniform traffic on minimal paths, averaged over all ordered pairs of
 * distinct nodes. With links of 1 phit/cycle, per pair: 2*injection_latency +
 * (hops+1)*router.latency + the latencies of the hops' links + packet_size - 1 (serialization
 * of the tail); with other bandwidths the tail trails the head by the slowest link's
 * serialization (see the README's timing conventions). */
double bounds_zero_load_latency(const struct sim_config *cfg, const struct topology *t);

/* Latency of a lone packet from a node of router r to a node of router s (r may equal s) on
 * the minimal path: injection, each hop, ejection, moved by the simulator's rules. */
double bounds_pair_latency(const struct sim_config *cfg, const struct topology *t, int r, int s);

#endif
