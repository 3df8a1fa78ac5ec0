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
    /* The time series (stats.sample_cycles > 0, else all 0 and NULL): the window's counters
     * at the end of each sample, taken at sample boundaries only, and the latencies of the
     * packets delivered in the current sample (bins up to sample_latency_max in use). */
    uint64_t sample_cycles;
    struct stats_sample *samples;
    struct stats_job_sample *job_samples; /* [sample * sample_jobs + job] */
    int n_samples, samples_capacity, sample_jobs;
    uint64_t in_flight_at_window_start;
    uint32_t *sample_histogram;
    uint32_t sample_latency_max;
};

/* The window's counters at the end of a sample (cumulative from the window's start), the
 * packets in flight then, and the p99 latency of the packets delivered in the sample. */
struct stats_sample {
    uint64_t end_cycle; /* the first cycle after the sample */
    uint64_t offered_phits, injected_phits, delivered, delivered_phits, latency_sum;
    uint64_t in_flight;
    uint32_t latency_p99;
};

/* A job's progress at the end of a sample (cumulative over the window, but iterations:
 * those every rank has completed since its start). */
struct stats_job_sample {
    uint64_t delivered, delivered_phits, messages_delivered, iterations;
};

int stats_init(struct stats *st, uint32_t total_cycles);
void stats_free(struct stats *st);
/* Turns the time series on: a sample every sample_cycles of the window, `jobs` jobs' progress
 * in each. Returns 0 or -1 (memory). */
int stats_init_series(struct stats *st, uint64_t sample_cycles, int jobs);

static inline void stats_record_latency(struct stats *st, uint32_t latency)
{
    st->latency_sum += latency;
    if (latency > st->latency_max)
        st->latency_max = latency;
    uint32_t bin = latency < st->histogram_bins ? latency : st->histogram_bins - 1;
    st->latency_histogram[bin]++;
    if (st->sample_histogram) {
        st->sample_histogram[bin]++;
        if (bin > st->sample_latency_max)
            st->sample_latency_max = bin;
    }
}

/* Summary figures of a run (src/METRICS.md). */
struct fairness {
    double min_injected_load, min_injected_pct_of_offered;
    double max_min; /* valid only when starved_routers == 0 */
    int starved_routers;
    double cov;
};

/* The time series of a run (stats.sample_cycles > 0): one entry per sample of each array,
 * the last sample shorter when the window is not a multiple of sample_cycles. */
struct result_series_job {
    const char *name;
    int n;
    double *accepted;                   /* phits/(node*cycle) over its nodes */
    uint64_t *delivered;                /* its packets delivered in the sample */
    uint64_t *messages_delivered;       /* its messages whose last packet arrived */
    uint64_t *iterations;               /* closed loop: completed by every rank, so far */
};

struct result_series {
    bool on;
    uint64_t sample_cycles;
    int n;
    uint64_t *end_cycle, *delivered, *in_flight;
    double *offered, *injected, *accepted, *latency_mean, *latency_p99;
    int n_jobs;
    struct result_series_job *jobs; /* owned: n_jobs */
};

/* The steady-state verdict from the series (src/METRICS.md). */
struct result_steady_state {
    const char *test; /* "MSER-5" */
    bool steady, saturated;
    uint64_t samples, batches;           /* full samples, and their batches of 5 */
    uint64_t truncation_samples, truncation_cycles;
    double accepted_bias, latency_bias;  /* relative change of each figure without the transient */
    double accepted_z, latency_z;        /* the transient's batches against the rest's noise */
    double offered, accepted, shortfall; /* after the transient; shortfall = 1 - accepted/offered */
    double in_flight_growth;             /* packets per cycle, after the transient */
    uint64_t warmup_cycles;              /* the warm-up of this run */
    int warmup_extensions;               /* times stats.extend_warmup lengthened it */
    const char *reason;                  /* why, in words (points into text) */
    char text[200];
};

/* The load of one class of links (stats.link_load): every link's phits in the window, in
 * router and port order, with the router it leaves and the router (node links: the node) it
 * reaches, and the class's summary in phits per cycle. */
struct result_link_class {
    int links;
    double mean, max, jain;
    uint64_t *from, *to, *phits; /* owned: `links` entries each */
};

struct result_link_load {
    bool on;
    struct result_link_class classes[3]; /* PORT_NODE, PORT_LOCAL, PORT_GLOBAL */
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
    struct result_series series;
    bool has_steady_state; /* with series */
    struct result_steady_state steady_state;
    struct result_link_load link_load;
};

/* Fairness metrics of per-router injected packet counts over a window of `cycles` cycles for
 * routers of p nodes each, packets of packet_size phits, at offered load `offered`. */
void stats_fairness(const uint64_t *per_router, int routers, int p, int packet_size,
                    uint64_t cycles, double offered, struct fairness *out);

struct topology;
struct network_counts;
struct workload;

/* What a sample reads of the run at a sample boundary. */
struct stats_sample_view {
    uint64_t cycle; /* the boundary: the sample's end */
    const struct network_counts *counts;
    uint64_t in_network;
    int packet_size;
    const struct workload *workload; /* NULL without jobs */
};
/* Records the sample ending at view->cycle (at a boundary, never inside the cycle loop's
 * phases). Returns 0 or -1 (memory). */
int stats_take_sample(struct stats *st, const struct stats_sample_view *view);

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
    /* stats.link_load: the phits of every output link (network.h, link_phits), else NULL */
    const uint64_t *link_phits;
    const struct workload *workload; /* the series' job names (NULL without jobs) */
    /* The verdict's settings and the run's warm-up (stats.*: config.h) */
    double steady_tolerance, saturation_tolerance;
    uint64_t warmup_cycles;
};
/* Fills the network-wide part of a result from a finished run (everything but timing and the
 * jobs). Returns 0 or -1. */
int stats_summarize(const struct stats_view *run, struct result *res);
void result_free(struct result *res);

#endif
