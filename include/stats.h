/* stats: what the measurement window sees of the delivered packets (raw counters filled by the
 * cycle loop) and the summary figures computed once, at the end of a run, from those and the
 * network's counters. Layer: an observer: stats_summarize reads a stats_view (const pointers
 * the cycle loop fills) and changes nothing of the run. */
#ifndef DFSIM_STATS_H
#define DFSIM_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "job_result.h"
#include "latency_histogram.h"
#include "packet.h"

/* What the cycle loop counts of the packets delivered in the measurement window (the network
 * counts the packets entering and leaving it: network.h, struct network_counts). */
struct stats {
    uint64_t delivered, delivered_phits;
    uint64_t latency_sum, latency_max;
    uint64_t wait_sum[WAIT_KINDS];
    uint64_t hops_local_sum, hops_global_sum;
    uint64_t misrouted_global, misrouted_local;
    /* ugal, ugal_g: packets a decision sent via an intermediate router, and those whose
     * decision was phantom (packet.h) */
    uint64_t nonminimal_decisions, phantom;
    uint32_t *latency_histogram; /* one bin per cycle: latencies never exceed the run */
    uint32_t histogram_bins;
};

int stats_init(struct stats *st, uint32_t total_cycles);
void stats_free(struct stats *st);

static inline void stats_record_latency(struct stats *st, uint32_t latency)
{
    st->latency_sum += latency;
    if (latency > st->latency_max)
        st->latency_max = latency;
    st->latency_histogram[latency < st->histogram_bins ? latency : st->histogram_bins - 1]++;
}

/* Summary figures of a run (src/METRICS.md). */
struct fairness {
    double min_injected_load, min_injected_pct_of_offered;
    double max_min; /* valid only when starved_routers == 0 */
    int starved_routers;
    double cov;
};

struct result {
    int groups, routers, nodes, radix, p, a;
    char shape[64]; /* the topology's parameters: "p=2 a=4 h=2" */
    double offered, injected, accepted;
    uint64_t generated, refused, injected_packets, delivered, in_flight_at_end;
    double latency_mean, latency_max;
    double latency_p50, latency_p95, latency_p99;
    double breakdown[WAIT_KINDS];
    double hops_local, hops_global;
    double misrouted_global, misrouted_local;
    /* With a routing that decides between minimal and nonminimal candidates (ugal, ugal_g):
     * the fractions of delivered packets it sent nonminimally, and phantom (else absent). */
    bool counts_decisions;
    double nonminimal_decisions, phantom;
    struct fairness fairness;
    uint64_t *per_router_injected; /* owned: `routers` entries */
    double *group0_injected_load;  /* owned: `a` entries */
    double wall_seconds, cycles_per_second, router_cycles_per_second;
    /* With jobs (else n_jobs = 0): each job's part, and the run's length. */
    int n_jobs;
    struct job_result *jobs; /* owned: n_jobs entries */
    struct job_result_run run;
};

/* Fairness metrics of per-router injected packet counts over a window of `cycles` cycles for
 * routers of p nodes each, packets of packet_size phits, at offered load `offered`. */
void stats_fairness(const uint64_t *per_router, int routers, int p, int packet_size,
                    uint64_t cycles, double offered, struct fairness *out);

struct topology;
struct network_counts;
/* What the summary reads of a finished run: the network's shape and counts, the statistics
 * of the delivered packets, the window's length. */
struct stats_view {
    const struct topology *topo;
    const struct network_counts *counts;
    const struct stats *stats;
    uint64_t measured_cycles;
    uint64_t in_network; /* packets still in flight */
    int packet_size;
    bool counts_decisions; /* the routing is ugal or ugal_g (result.counts_decisions) */
};
/* Fills the network-wide part of a result from a finished run (everything but timing and the
 * jobs). Returns 0 or -1. */
int stats_summarize(const struct stats_view *run, struct result *res);
void result_free(struct result *res);

#endif
