/* stats: the measurement-window counters and the summary figures of src/METRICS.md (see
 * stats.h; an observer: it reads a stats_view). */
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motif.h"
#include "network.h"
#include "steady_state.h"
#include "topology.h"
#include "workload.h"

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
    free(st->sample_histogram);
    free(st->samples);
    free(st->job_samples);
    st->sample_histogram = NULL;
    st->samples = NULL;
    st->job_samples = NULL;
    st->n_samples = st->samples_capacity = 0;
}

int stats_init_series(struct stats *st, uint64_t sample_cycles, int jobs)
{
    st->sample_cycles = sample_cycles;
    st->sample_jobs = jobs;
    st->sample_histogram = calloc(st->histogram_bins, sizeof *st->sample_histogram);
    return st->sample_histogram ? 0 : -1;
}

/* Room for one more sample: the arrays double (at a sample boundary, never per cycle). */
static int stats_grow_samples(struct stats *st)
{
    if (st->n_samples < st->samples_capacity)
        return 0;
    int capacity = st->samples_capacity ? 2 * st->samples_capacity : 64;
    struct stats_sample *samples = realloc(st->samples, (size_t)capacity * sizeof *samples);
    if (!samples)
        return -1;
    st->samples = samples;
    if (st->sample_jobs) {
        struct stats_job_sample *jobs = realloc(
            st->job_samples, (size_t)capacity * (size_t)st->sample_jobs * sizeof *jobs);
        if (!jobs)
            return -1;
        st->job_samples = jobs;
    }
    st->samples_capacity = capacity;
    return 0;
}

int stats_take_sample(struct stats *st, const struct stats_sample_view *view)
{
    if (stats_grow_samples(st) != 0)
        return -1;
    const struct network_counts *c = view->counts;
    struct stats_sample *sample = &st->samples[st->n_samples];
    uint64_t delivered_before = st->n_samples ? sample[-1].delivered : 0;
    uint64_t in_sample = st->delivered - delivered_before;
    *sample = (struct stats_sample){
        .end_cycle = view->cycle,
        .offered_phits = c->generated_phits + c->refused_phits,
        .injected_phits = c->injected_phits,
        .delivered = st->delivered,
        .delivered_phits = st->delivered_phits,
        .latency_sum = st->latency_sum,
        .in_flight = view->in_network,
        .latency_p99 = (uint32_t)latency_histogram_percentile(
            st->sample_histogram, st->sample_latency_max + 1, in_sample, 99),
    };
    memset(st->sample_histogram, 0,
           ((size_t)st->sample_latency_max + 1) * sizeof *st->sample_histogram);
    st->sample_latency_max = 0;
    for (int j = 0; j < st->sample_jobs && view->workload; j++) {
        const struct workload_job *jb = &view->workload->jobs[j];
        uint64_t iterations = jb->iterations_before;
        if (jb->closed && jb->motif)
            iterations += motif_run_iterations_completed(jb->motif);
        st->job_samples[(size_t)st->n_samples * (size_t)st->sample_jobs + (size_t)j] =
            (struct stats_job_sample){
                .delivered = jb->stats.delivered,
                .delivered_phits = jb->stats.delivered_phits,
                .messages_delivered = jb->stats.messages_delivered,
                .iterations = iterations,
            };
    }
    st->n_samples++;
    return 0;
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

/* ---- the time series ---- */

static void *stats_array(int n, size_t size)
{
    return calloc(n > 0 ? (size_t)n : 1, size);
}

/* The samples' counters as they were before sample i (0 at the window's start). */
static struct stats_sample stats_sample_before(const struct stats *st, int i, uint64_t start)
{
    if (i > 0)
        return st->samples[i - 1];
    return (struct stats_sample){.end_cycle = start, .in_flight = st->in_flight_at_window_start};
}

static int stats_summarize_job_series(const struct stats_view *run, struct result_series *se)
{
    const struct stats *st = run->stats;
    int jobs = st->sample_jobs, n = st->n_samples;
    if (!jobs || !run->workload)
        return 0;
    se->jobs = calloc((size_t)jobs, sizeof *se->jobs);
    if (!se->jobs)
        return -1;
    se->n_jobs = jobs;
    uint64_t start = run->warmup_cycles;
    for (int j = 0; j < jobs; j++) {
        struct result_series_job *out = &se->jobs[j];
        const struct workload_job *jb = &run->workload->jobs[j];
        out->name = jb->cfg->name;
        out->n = n;
        out->accepted = stats_array(n, sizeof *out->accepted);
        out->delivered = stats_array(n, sizeof *out->delivered);
        out->messages_delivered = stats_array(n, sizeof *out->messages_delivered);
        out->iterations = stats_array(n, sizeof *out->iterations);
        if (!out->accepted || !out->delivered || !out->messages_delivered || !out->iterations)
            return -1;
        struct stats_job_sample before = {0};
        uint64_t from = start;
        for (int i = 0; i < n; i++) {
            const struct stats_job_sample *now = &st->job_samples[(size_t)i * (size_t)jobs + j];
            double node_cycles = (double)jb->nranks * (double)(st->samples[i].end_cycle - from);
            out->accepted[i] = stats_ratio((double)(now->delivered_phits - before.delivered_phits),
                                           node_cycles);
            out->delivered[i] = now->delivered - before.delivered;
            out->messages_delivered[i] = now->messages_delivered - before.messages_delivered;
            out->iterations[i] = now->iterations;
            before = *now;
            from = st->samples[i].end_cycle;
        }
    }
    return 0;
}

static int stats_summarize_series(const struct stats_view *run, struct result *res)
{
    const struct stats *st = run->stats;
    struct result_series *se = &res->series;
    int n = st->n_samples;
    se->on = true;
    se->sample_cycles = st->sample_cycles;
    se->n = n;
    se->end_cycle = stats_array(n, sizeof *se->end_cycle);
    se->delivered = stats_array(n, sizeof *se->delivered);
    se->in_flight = stats_array(n, sizeof *se->in_flight);
    se->offered = stats_array(n, sizeof *se->offered);
    se->injected = stats_array(n, sizeof *se->injected);
    se->accepted = stats_array(n, sizeof *se->accepted);
    se->latency_mean = stats_array(n, sizeof *se->latency_mean);
    se->latency_p99 = stats_array(n, sizeof *se->latency_p99);
    if (!se->end_cycle || !se->delivered || !se->in_flight || !se->offered || !se->injected ||
        !se->accepted || !se->latency_mean || !se->latency_p99)
        return -1;
    double nodes = (double)run->topo->nodes;
    for (int i = 0; i < n; i++) {
        const struct stats_sample *now = &st->samples[i];
        struct stats_sample before = stats_sample_before(st, i, run->warmup_cycles);
        double node_cycles = nodes * (double)(now->end_cycle - before.end_cycle);
        uint64_t delivered = now->delivered - before.delivered;
        se->end_cycle[i] = now->end_cycle;
        se->delivered[i] = delivered;
        se->in_flight[i] = now->in_flight;
        se->offered[i] =
            stats_ratio((double)(now->offered_phits - before.offered_phits), node_cycles);
        se->injected[i] =
            stats_ratio((double)(now->injected_phits - before.injected_phits), node_cycles);
        se->accepted[i] =
            stats_ratio((double)(now->delivered_phits - before.delivered_phits), node_cycles);
        se->latency_mean[i] =
            stats_ratio((double)(now->latency_sum - before.latency_sum), (double)delivered);
        se->latency_p99[i] = now->latency_p99;
    }
    return stats_summarize_job_series(run, se);
}

/* ---- the steady-state verdict ---- */

enum { STATS_MSER_BATCH = 5, STATS_MSER_MIN_BATCHES = 4, STATS_TRANSIENT_Z = 3 };

/* Sums of the counters over samples [first, end): what a stretch of the window saw. */
struct stats_stretch {
    double cycles, offered_phits, delivered_phits, delivered, latency_sum;
};

static struct stats_stretch stats_stretch(const struct stats *st, int first, int end,
                                          uint64_t start)
{
    struct stats_sample a = stats_sample_before(st, first, start);
    const struct stats_sample *b = end > 0 ? &st->samples[end - 1] : &a;
    return (struct stats_stretch){
        .cycles = (double)(b->end_cycle - a.end_cycle),
        .offered_phits = (double)(b->offered_phits - a.offered_phits),
        .delivered_phits = (double)(b->delivered_phits - a.delivered_phits),
        .delivered = (double)(b->delivered - a.delivered),
        .latency_sum = (double)(b->latency_sum - a.latency_sum),
    };
}

/* |whole - rest| / rest (0 when rest is 0). */
static double stats_bias(double whole, double rest)
{
    return rest > 0 ? fabs(whole - rest) / rest : 0.0;
}

/* How far the transient's batches y[0..d) stand from the rest y[d..n), in standard errors of
 * that difference as the rest's spread gives it (a stationary series: about N(0, 1)). */
static double stats_transient_z(const double *y, int n, int d)
{
    if (d <= 0 || n - d < 2)
        return 0.0;
    double head = 0.0, tail = 0.0, squares = 0.0;
    for (int j = 0; j < d; j++)
        head += y[j];
    for (int j = d; j < n; j++)
        tail += y[j];
    head /= d;
    tail /= n - d;
    for (int j = d; j < n; j++)
        squares += (y[j] - tail) * (y[j] - tail);
    double spread = sqrt(squares / (n - d - 1));
    double error = spread * sqrt(1.0 / d + 1.0 / (n - d));
    double diff = fabs(head - tail);
    double z = error > 0 ? diff / error : (diff > 0 ? 999.0 : 0.0);
    return z < 999.0 ? z : 999.0; /* a finite number for the document */
}

/* MSER-5 on the full samples of the window: batches of 5 samples, each batch's accepted load
 * and mean latency (its packets' latencies over its packets: a batch without deliveries
 * takes the window's mean, which leaves MSER's statistic alone); the transient is the larger
 * of the two truncation points. Returns that point in batches (-1: memory) and each series'
 * z (stats_transient_z) at it. */
static int stats_mser_truncation(const struct stats *st, int batches, uint64_t start,
                                 double window_latency, double *accepted_z, double *latency_z)
{
    double *accepted = stats_array(batches, sizeof(double));
    double *latency = stats_array(batches, sizeof(double));
    int d = -1;
    if (accepted && latency) {
        for (int b = 0; b < batches; b++) {
            struct stats_stretch s =
                stats_stretch(st, b * STATS_MSER_BATCH, (b + 1) * STATS_MSER_BATCH, start);
            accepted[b] = stats_ratio(s.delivered_phits, s.cycles);
            latency[b] = s.delivered > 0 ? s.latency_sum / s.delivered : window_latency;
        }
        int da = steady_state_mser(accepted, batches), dl = steady_state_mser(latency, batches);
        d = da > dl ? da : dl;
        *accepted_z = stats_transient_z(accepted, batches, d);
        *latency_z = stats_transient_z(latency, batches, d);
    }
    free(accepted);
    free(latency);
    return d;
}

static int stats_steady_state(const struct stats_view *run, struct result *res)
{
    const struct stats *st = run->stats;
    struct result_steady_state *v = &res->steady_state;
    uint64_t start = run->warmup_cycles, period = st->sample_cycles;
    /* Full samples only: the last one may be cut short by the window's end. */
    int full = st->n_samples;
    if (full > 0 && st->samples[full - 1].end_cycle - stats_sample_before(st, full - 1, start)
                                                          .end_cycle != period)
        full--;
    int batches = full / STATS_MSER_BATCH, used = batches * STATS_MSER_BATCH;
    res->has_steady_state = true;
    v->test = "MSER-5";
    v->samples = (uint64_t)full;
    v->batches = (uint64_t)batches;
    v->warmup_cycles = run->warmup_cycles;
    struct stats_stretch whole = stats_stretch(st, 0, used, start);
    double whole_latency = stats_ratio(whole.latency_sum, whole.delivered);
    int d = batches >= STATS_MSER_MIN_BATCHES
                ? stats_mser_truncation(st, batches, start, whole_latency, &v->accepted_z,
                                        &v->latency_z)
                : 0;
    if (d < 0)
        return -1;
    int cut = d * STATS_MSER_BATCH;
    v->truncation_samples = (uint64_t)cut;
    v->truncation_cycles = (uint64_t)cut * period;
    /* The verdict's figures come from the samples after the transient (all of the window's
     * samples when there are too few to batch). */
    int end = batches >= STATS_MSER_MIN_BATCHES ? used : st->n_samples;
    struct stats_stretch rest = stats_stretch(st, cut, end, start);
    double nodes = (double)run->topo->nodes;
    double rest_latency = stats_ratio(rest.latency_sum, rest.delivered);
    v->accepted_bias = stats_bias(stats_ratio(whole.delivered_phits, whole.cycles),
                                  stats_ratio(rest.delivered_phits, rest.cycles));
    v->latency_bias = stats_bias(whole_latency, rest_latency);
    v->offered = stats_ratio(rest.offered_phits, nodes * rest.cycles);
    v->accepted = stats_ratio(rest.delivered_phits, nodes * rest.cycles);
    v->shortfall = v->offered > 0 ? 1.0 - v->accepted / v->offered : 0.0;
    if (end > 0) {
        struct stats_sample from = stats_sample_before(st, cut, start);
        v->in_flight_growth = stats_ratio(
            (double)st->samples[end - 1].in_flight - (double)from.in_flight, rest.cycles);
    }
    v->saturated = v->shortfall > run->saturation_tolerance;
    v->reason = v->text;
    if (batches < STATS_MSER_MIN_BATCHES) {
        v->steady = false;
        snprintf(v->text, sizeof v->text,
                 "not judged: %d full samples, MSER-5 needs at least %d (a shorter "
                 "stats.sample_cycles or a longer window)",
                 full, STATS_MSER_MIN_BATCHES * STATS_MSER_BATCH);
        return 0;
    }
    /* A figure is off when cutting the transient moves it beyond the tolerance and the cut
     * batches differ from the rest beyond noise: MSER also cuts a stationary series' noise. */
    double tol = run->steady_tolerance;
    bool accepted_off = v->accepted_bias > tol && v->accepted_z > STATS_TRANSIENT_Z;
    bool latency_off = v->latency_bias > tol && v->latency_z > STATS_TRANSIENT_Z;
    v->steady = !accepted_off && !latency_off;
    snprintf(v->text, sizeof v->text,
             "MSER-5 cuts %d of %d samples; without them accepted load moves %.2f%% (z %.1f), "
             "mean latency %.2f%% (z %.1f); off beyond %.2f%% and z %.0f",
             cut, used, 100 * v->accepted_bias, v->accepted_z, 100 * v->latency_bias, v->latency_z,
             100 * tol,
             (double)STATS_TRANSIENT_Z);
    return 0;
}

/* ---- link load ---- */

static int stats_summarize_link_load(const struct stats_view *run, struct result *res)
{
    const struct topology *t = run->topo;
    struct result_link_load *ll = &res->link_load;
    ll->on = true;
    double cycles = (double)run->measured_cycles;
    for (int cls = 0; cls < 3; cls++) {
        int n = 0;
        for (int r = 0; r < t->routers; r++)
            n += topology_kind_of(t, r)->count[cls];
        struct result_link_class *c = &ll->classes[cls];
        c->links = n;
        c->from = stats_array(n, sizeof *c->from);
        c->to = stats_array(n, sizeof *c->to);
        c->phits = stats_array(n, sizeof *c->phits);
        if (!c->from || !c->to || !c->phits)
            return -1;
        int i = 0;
        for (int r = 0; r < t->routers; r++) {
            const struct router_kind *kind = topology_kind_of(t, r);
            uint32_t base = topology_port_base(t, r);
            for (int port = 0; port < kind->radix; port++) {
                if (kind->port_class[port] != cls)
                    continue;
                uint64_t phits = run->link_phits[base + (uint32_t)port];
                c->from[i] = (uint64_t)r;
                c->to[i] = cls == PORT_NODE
                               ? (uint64_t)(t->first_node[r] + port - kind->first[PORT_NODE])
                               : (uint64_t)topology_peer_router(t->peer[base + (uint32_t)port]);
                c->phits[i] = phits;
                double load = stats_ratio((double)phits, cycles);
                c->mean += load;
                c->max = load > c->max ? load : c->max;
                i++;
            }
        }
        c->mean = stats_ratio(c->mean, n);
        c->jain = steady_state_jain(c->phits, n);
    }
    return 0;
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
    if (stats_summarize_fairness(run, res) != 0)
        return -1;
    if (run->stats->sample_cycles) {
        if (stats_summarize_series(run, res) != 0 || stats_steady_state(run, res) != 0)
            return -1;
    }
    return run->link_phits ? stats_summarize_link_load(run, res) : 0;
}

static void stats_free_series(struct result_series *se)
{
    for (int j = 0; j < se->n_jobs; j++) {
        free(se->jobs[j].accepted);
        free(se->jobs[j].delivered);
        free(se->jobs[j].messages_delivered);
        free(se->jobs[j].iterations);
    }
    free(se->jobs);
    free(se->end_cycle);
    free(se->delivered);
    free(se->in_flight);
    free(se->offered);
    free(se->injected);
    free(se->accepted);
    free(se->latency_mean);
    free(se->latency_p99);
    memset(se, 0, sizeof *se);
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
    stats_free_series(&res->series);
    for (int c = 0; c < 3; c++) {
        struct result_link_class *lc = &res->link_load.classes[c];
        free(lc->from);
        free(lc->to);
        free(lc->phits);
        lc->from = lc->to = lc->phits = NULL;
    }
}
