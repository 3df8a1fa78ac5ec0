/* stats: the measurement-window counters and the summary figures of src/METRICS.md (see
 * stats.h; an observer: it reads a stats_view). */
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network.h"
#include "topology.h"

int stats_init(struct stats *st, uint32_t total_cycles)
{
    memset(st, 0, sizeof *st);
    /* Latencies never exceed the run, so one bin per cycle (plus latency 0) makes every
     * percentile exact. */
    st->histogram_bins = total_cycles + 1;
    st->latency_histogram = calloc(st->histogram_bins, sizeof *st->latency_histogram);
    return st->latency_histogram ? 0 : -1;
}

void stats_free(struct stats *st)
{
    free(st->latency_histogram);
    st->latency_histogram = NULL;
    st->histogram_bins = 0;
}

/* Population standard deviation over mean of the counts (0 when the mean is 0). */
static double stats_count_cov(const uint64_t *counts, int n)
{
    if (n <= 0)
        return 0.0;
    double sum = 0.0;
    for (int r = 0; r < n; r++)
        sum += (double)counts[r];
    double mean = sum / n;
    if (mean == 0.0)
        return 0.0;
    double squares = 0.0;
    for (int r = 0; r < n; r++) {
        double d = (double)counts[r] - mean;
        squares += d * d;
    }
    return sqrt(squares / n) / mean;
}

void stats_fairness(const uint64_t *per_router, int routers, int p, int packet_size,
                    uint64_t cycles, double offered, struct fairness *out)
{
    memset(out, 0, sizeof *out);
    if (routers <= 0)
        return;
    uint64_t min = per_router[0], max = per_router[0];
    for (int r = 0; r < routers; r++) {
        uint64_t c = per_router[r];
        min = c < min ? c : min;
        max = c > max ? c : max;
        out->starved_routers += c == 0;
    }
    double node_cycles = (double)p * (double)cycles;
    out->min_injected_load = node_cycles > 0 ? (double)min * packet_size / node_cycles : 0.0;
    out->min_injected_pct_of_offered = offered > 0 ? 100.0 * out->min_injected_load / offered : 0.0;
    /* With a starved router max/min is infinite: max_min stays 0 and the document writes
     * null plus starved_routers. */
    out->max_min = min > 0 ? (double)max / (double)min : 0.0;
    out->cov = stats_count_cov(per_router, routers);
}

static double stats_ratio(double numerator, double denominator)
{
    return denominator > 0 ? numerator / denominator : 0.0;
}

static void stats_summarize_loads(const struct stats_view *run, struct result *res)
{
    const struct network_counts *c = run->counts;
    double node_cycles = (double)run->topo->nodes * (double)run->measured_cycles;
    res->offered = stats_ratio((double)(c->generated_phits + c->refused_phits), node_cycles);
    res->injected = stats_ratio((double)c->injected_phits, node_cycles);
    res->accepted = stats_ratio((double)run->stats->delivered_phits, node_cycles);
    res->generated = c->generated;
    res->refused = c->refused;
    res->injected_packets = c->injected;
    res->delivered = run->stats->delivered;
    res->in_flight_at_end = run->in_network;
}

static void stats_summarize_latency(const struct stats *st, struct result *res)
{
    double delivered = (double)st->delivered;
    res->latency_mean = stats_ratio((double)st->latency_sum, delivered);
    res->latency_max = (double)st->latency_max;
    res->latency_p50 =
        latency_histogram_percentile(st->latency_histogram, st->histogram_bins, st->delivered, 50);
    res->latency_p95 =
        latency_histogram_percentile(st->latency_histogram, st->histogram_bins, st->delivered, 95);
    res->latency_p99 =
        latency_histogram_percentile(st->latency_histogram, st->histogram_bins, st->delivered, 99);
    /* Every cycle of a packet's life is in exactly one segment, so these sum to the mean. */
    for (int k = 0; k < WAIT_KINDS; k++)
        res->breakdown[k] = stats_ratio((double)st->wait_sum[k], delivered);
    res->hops_local = stats_ratio((double)st->hops_local_sum, delivered);
    res->hops_global = stats_ratio((double)st->hops_global_sum, delivered);
    res->misrouted_global = stats_ratio((double)st->misrouted_global, delivered);
    res->misrouted_local = stats_ratio((double)st->misrouted_local, delivered);
    res->nonminimal_decisions = stats_ratio((double)st->nonminimal_decisions, delivered);
    res->phantom = stats_ratio((double)st->phantom, delivered);
}

static bool stats_router_has_nodes(const struct topology *t, int r)
{
    return topology_kind_of(t, r)->count[PORT_NODE] > 0;
}

/* The fairness figures compare the routers that have nodes: a router without any (a spine of a
 * Dragonfly+) injects nothing by construction, and counting it would make every run look
 * starved. per_router_injected keeps every router, indexed by router id; group0_injected_load
 * lists group 0's routers with nodes (its first `a` routers: leaves come first). */
static int stats_summarize_fairness(const struct stats_view *run, struct result *res)
{
    const struct topology *t = run->topo;
    const uint64_t *router_injected = run->counts->router_injected;
    int packet_size = run->packet_size, routers = t->routers;
    uint64_t cycles = run->measured_cycles;
    uint64_t *injecting = malloc((size_t)(routers > 0 ? routers : 1) * sizeof *injecting);
    if (!injecting)
        return -1;
    int n = 0;
    for (int r = 0; r < routers; r++)
        if (stats_router_has_nodes(t, r))
            injecting[n++] = router_injected[r];
    stats_fairness(injecting, n, res->p, packet_size, cycles, res->offered, &res->fairness);
    free(injecting);
    res->per_router_injected = malloc((size_t)routers * sizeof *res->per_router_injected);
    if (!res->per_router_injected)
        return -1;
    memcpy(res->per_router_injected, router_injected,
           (size_t)routers * sizeof *res->per_router_injected);
    res->group0_injected_load = calloc(res->a > 0 ? (size_t)res->a : 1, sizeof(double));
    if (!res->group0_injected_load)
        return -1;
    double node_cycles = (double)res->p * (double)cycles;
    for (int r = 0; r < res->a && r < routers; r++)
        res->group0_injected_load[r] =
            stats_ratio((double)router_injected[r] * packet_size, node_cycles);
    return 0;
}

/* Routers of group 0 that have nodes; they come first in the group on every kind. */
static int stats_group0_routers_with_nodes(const struct topology *t)
{
    int first = t->group_first_router[0], end = t->group_first_router[1];
    int n = 0;
    while (first + n < end && stats_router_has_nodes(t, first + n))
        n++;
    for (int r = first + n; r < end; r++)
        assert(!stats_router_has_nodes(t, r)); /* group0_injected_load[i] is router i */
    return n;
}

int stats_summarize(const struct stats_view *run, struct result *res)
{
    memset(res, 0, sizeof *res);
    const struct topology *t = run->topo;
    res->groups = t->groups;
    res->routers = t->routers;
    res->nodes = t->nodes;
    res->radix = t->radix;
    res->p = topology_kind_of(t, 0)->count[PORT_NODE]; /* nodes of a router */
    res->a = stats_group0_routers_with_nodes(t);       /* routers of group 0 with nodes */
    snprintf(res->shape, sizeof res->shape, "%s", t->shape);
    res->counts_decisions = run->counts_decisions;
    stats_summarize_loads(run, res);
    stats_summarize_latency(run->stats, res);
    return stats_summarize_fairness(run, res);
}

void result_free(struct result *res)
{
    job_results_free(res->jobs, res->n_jobs);
    free(res->jobs);
    res->jobs = NULL;
    res->n_jobs = 0;
    free(res->group0_injected_load);
    res->group0_injected_load = NULL;
    free(res->per_router_injected);
    res->per_router_injected = NULL;
}
