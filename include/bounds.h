/* bounds: the theoretical figures of SPEC section 9 for a configuration: the global-link
 * throughput bound of its routing under its traffic, and the zero-load latency of UN/MIN. */
#ifndef DFSIM_BOUNDS_H
#define DFSIM_BOUNDS_H

struct sim_config;
struct topology;

struct bounds_throughput {
    double load;         /* highest accepted load, phits/(node*cycle) */
    const char *formula; /* e.g. "1/(a*p)"; NULL when the bound is simply 1 */
    const char *reason;  /* one line: why */
    char scaled[96];     /* room for the formula times the global links' bandwidth */
};

/* Fills `out` and returns 0 when SPEC section 9 states a bound for the config's routing and
 * pattern on network t (MIN under ADV+i or ADVc, VAL-style under UN, MIN under UN); returns
 * -1 otherwise. The mechanism knows its bound (routing_ops.bound), asking the pattern for the
 * minimal-routing one (pattern_ops.minimal_bound). */
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
