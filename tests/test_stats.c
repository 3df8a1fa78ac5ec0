/* Statistics: exact percentiles from the histogram, the fairness metrics, and the summary
 * arithmetic (loads, means, breakdown) on hand-filled counters and on a real run. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "stats.h"
#include "test_util.h"

#define EPS 1e-12
#define CU_ASSERT_CLOSE(actual, expected) CU_ASSERT_DOUBLE_EQUAL((actual), (expected), EPS)

/* Histogram {0:0, 1:2, 2:3, 3:0, 4:5}, 10 samples; sorted: 1 1 2 2 2 4 4 4 4 4.
 * Rank = ceil(q/100 * 10): q10 -> 1st = 1, q20 -> 2nd = 1, q21 -> 3rd = 2, q50 -> 5th = 2,
 * q51 -> 6th = 4, q95 -> 10th = 4, q100 -> 4. */
static void test_percentile_small(void)
{
    const uint32_t hist[] = {0, 2, 3, 0, 5};
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 10), 1);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 20), 1);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 21), 2);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 50), 2);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 51), 4);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 95), 4);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 100), 4);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 5, 10, 0.001), 1);
}

/* One sample at each latency 0..99: the q-th percentile is exactly q - 1 for whole q. This
 * catches 0.95 * 100 = 95.00000000000001 rounding up to rank 96. */
static void test_percentile_whole_ranks(void)
{
    uint32_t hist[100];
    for (int i = 0; i < 100; i++)
        hist[i] = 1;
    for (int q = 1; q <= 100; q++)
        CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 100, 100, q), q - 1);
    /* 20 samples at 0..19: p95 = 19th sample = 18, p50 = 10th = 9. */
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 20, 20, 95), 18);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 20, 20, 50), 9);
    CU_ASSERT_CLOSE(latency_histogram_percentile(hist, 20, 20, 99.9), 19);
}

static void test_percentile_degenerate(void)
{
    const uint32_t empty[4] = {0};
    CU_ASSERT_CLOSE(latency_histogram_percentile(empty, 4, 0, 50), 0);
    CU_ASSERT_CLOSE(latency_histogram_percentile(empty, 4, 0, 99), 0);
    uint32_t one[10] = {0};
    one[7] = 1;
    CU_ASSERT_CLOSE(latency_histogram_percentile(one, 10, 1, 1), 7);
    CU_ASSERT_CLOSE(latency_histogram_percentile(one, 10, 1, 50), 7);
    CU_ASSERT_CLOSE(latency_histogram_percentile(one, 10, 1, 100), 7);
}

/* Property: the result is the smallest L with 100 * #(samples <= L) >= q * samples, checked by
 * brute force on a pseudo-random histogram. */
static void test_percentile_definition(void)
{
    enum { BINS = 300 };
    uint32_t hist[BINS];
    uint64_t samples = 0, state = 12345;
    for (int i = 0; i < BINS; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        hist[i] = (state >> 60) < 5 ? (uint32_t)(state >> 58) % 7 : 0;
        samples += hist[i];
    }
    const double qs[] = {1, 5, 10, 25, 33.3, 50, 75, 90, 95, 99, 99.9, 100};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        uint64_t below = 0;
        int expected = -1;
        for (int l = 0; l < BINS && expected < 0; l++) {
            below += hist[l];
            if (100.0 * (double)below >= qs[k] * (double)samples)
                expected = l;
        }
        CU_ASSERT_CLOSE(latency_histogram_percentile(hist, BINS, samples, qs[k]), expected);
    }
}

/* stats_init sizes the histogram to the run (total_cycles + 1 bins) and clears everything;
 * stats_record_latency keeps sum, max and the bins. */
static void test_record_latency(void)
{
    struct stats st;
    CU_ASSERT_EQUAL_FATAL(stats_init(&st, 100), 0);
    CU_ASSERT_EQUAL(st.histogram_bins, 101);
    for (uint32_t b = 0; b < st.histogram_bins; b++)
        CU_ASSERT_EQUAL(st.latency_histogram[b], 0);
    stats_record_latency(&st, 0);
    stats_record_latency(&st, 40);
    stats_record_latency(&st, 40);
    stats_record_latency(&st, 100);
    CU_ASSERT_EQUAL(st.latency_sum, 180);
    CU_ASSERT_EQUAL(st.latency_max, 100);
    CU_ASSERT_EQUAL(st.latency_histogram[0], 1);
    CU_ASSERT_EQUAL(st.latency_histogram[40], 2);
    CU_ASSERT_EQUAL(st.latency_histogram[100], 1);
    CU_ASSERT_CLOSE(latency_histogram_percentile(st.latency_histogram, st.histogram_bins, 4, 50),
                    40);
    CU_ASSERT_CLOSE(latency_histogram_percentile(st.latency_histogram, st.histogram_bins, 4, 99),
                    100);
    stats_free(&st);
    CU_ASSERT_PTR_NULL(st.latency_histogram);
    stats_free(&st); /* idempotent */
}

/* Counts 10, 20, 30, 40 over 1000 cycles, p = 2 nodes, 8-phit packets:
 * loads = c * 8 / (2 * 1000) = 0.04, 0.08, 0.12, 0.16; min 0.04 = 40 % of offered 0.1;
 * max/min = 40/10 = 4; mean 25, deviations -15 -5 5 15, variance (225+25+25+225)/4 = 125,
 * CoV = sqrt(125)/25 = sqrt(5)/5 = 0.447213595... */
static void test_fairness_basic(void)
{
    const uint64_t counts[] = {10, 20, 30, 40};
    struct fairness f;
    stats_fairness(counts, 4, 2, 8, 1000, 0.1, &f);
    CU_ASSERT_CLOSE(f.min_injected_load, 0.04);
    CU_ASSERT_CLOSE(f.min_injected_pct_of_offered, 40.0);
    CU_ASSERT_CLOSE(f.max_min, 4.0);
    CU_ASSERT_EQUAL(f.starved_routers, 0);
    CU_ASSERT_CLOSE(f.cov, sqrt(5.0) / 5.0);
    /* The order of the routers does not matter. */
    const uint64_t shuffled[] = {30, 10, 40, 20};
    struct fairness g;
    stats_fairness(shuffled, 4, 2, 8, 1000, 0.1, &g);
    CU_ASSERT_CLOSE(g.min_injected_load, f.min_injected_load);
    CU_ASSERT_CLOSE(g.max_min, f.max_min);
    CU_ASSERT_CLOSE(g.cov, f.cov);
}

/* Every router equal: max/min 1, CoV 0, min load = the common load. */
static void test_fairness_uniform(void)
{
    const uint64_t counts[] = {75, 75, 75};
    struct fairness f;
    stats_fairness(counts, 3, 6, 8, 15000, 0.4, &f);
    CU_ASSERT_CLOSE(f.min_injected_load, 75.0 * 8 / (6.0 * 15000));
    CU_ASSERT_CLOSE(f.min_injected_pct_of_offered, 100.0 * (75.0 * 8 / (6.0 * 15000)) / 0.4);
    CU_ASSERT_CLOSE(f.max_min, 1.0);
    CU_ASSERT_CLOSE(f.cov, 0.0);
}

/* Counts 0, 5, 0, 10: two starved routers, max/min undefined (infinite), min load 0.
 * Mean 3.75, deviations -3.75 1.25 -3.75 6.25, variance (14.0625 + 1.5625 + 14.0625 +
 * 39.0625)/4 = 17.1875, CoV = sqrt(17.1875)/3.75 = 1.105541596... */
static void test_fairness_starved(void)
{
    const uint64_t counts[] = {0, 5, 0, 10};
    struct fairness f;
    stats_fairness(counts, 4, 2, 8, 1000, 0.3, &f);
    CU_ASSERT_EQUAL(f.starved_routers, 2);
    CU_ASSERT_CLOSE(f.min_injected_load, 0.0);
    CU_ASSERT_CLOSE(f.min_injected_pct_of_offered, 0.0);
    CU_ASSERT_CLOSE(f.cov, sqrt(17.1875) / 3.75);
    CU_ASSERT_DOUBLE_EQUAL(f.cov, 1.105541596, 1e-9);
}

/* Nothing injected anywhere (and nothing offered): every router starved, CoV 0, no division
 * by zero anywhere. */
static void test_fairness_idle(void)
{
    const uint64_t counts[] = {0, 0, 0};
    struct fairness f;
    stats_fairness(counts, 3, 2, 8, 1000, 0.0, &f);
    CU_ASSERT_EQUAL(f.starved_routers, 3);
    CU_ASSERT_CLOSE(f.min_injected_load, 0.0);
    CU_ASSERT_CLOSE(f.min_injected_pct_of_offered, 0.0);
    CU_ASSERT_CLOSE(f.cov, 0.0);
    CU_ASSERT(isfinite(f.max_min));
    /* Offered 0 with traffic cannot happen, but must not divide by zero either. */
    const uint64_t some[] = {4, 2};
    stats_fairness(some, 2, 2, 8, 1000, 0.0, &f);
    CU_ASSERT_CLOSE(f.min_injected_pct_of_offered, 0.0);
    CU_ASSERT_CLOSE(f.max_min, 2.0);
}

/* A hand-made finished run: p=2, a=4, h=2 (9 groups, 36 routers, 72 nodes), 8-phit packets,
 * 1000 measured cycles, so one phit per node per cycle is 72000 phits: what stats_summarize
 * reads of a run (its view), built by hand. */
struct fake_run {
    struct topology topo;
    struct network_counts counts;
    struct stats stats;
    struct stats_view view;
};

static void fake_run_init(struct fake_run *run)
{
    memset(run, 0, sizeof *run);
    test_dragonfly(&run->topo, 2, 4, 2, ARRANGEMENT_PALMTREE); /* 9 groups, 36 routers */
    CU_ASSERT_EQUAL_FATAL(stats_init(&run->stats, 2000), 0);
    run->counts.router_injected = calloc(36, sizeof *run->counts.router_injected);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run->counts.router_injected);
    run->view = (struct stats_view){
        .topo = &run->topo,
        .counts = &run->counts,
        .stats = &run->stats,
        .measured_cycles = 1000, /* the run has ended: measured over measure_cycles */
        .packet_size = 8,
    };
}

static void fake_run_free(struct fake_run *run)
{
    stats_free(&run->stats);
    free(run->counts.router_injected);
    topology_free(&run->topo);
}

/* Counters: 900 generated + 36 refused (7488 phits: offered 0.104), 864 injected (0.096),
 * 4 delivered with latencies 100, 120, 140, 200 (mean 140, p50 120, p95 = p99 = max 200),
 * waits 60 + 200 + 100 + 200 + 0 = 560 = the latency sum, so the breakdown is 15, 50, 25, 50,
 * 0 and sums to 140; 8 local and 4 global hops; 1 global and 2 local misroutes. Router r
 * injected r + 1 packets: load (r + 1) * 8 / 2000. */
static void fake_run_fill(struct fake_run *run)
{
    struct network_counts *c = &run->counts;
    c->generated = 900;
    c->generated_phits = 7200;
    c->refused = 36;
    c->refused_phits = 288;
    c->injected = 864;
    c->injected_phits = 6912;
    struct stats *st = &run->stats;
    st->delivered = 4;
    st->delivered_phits = 32;
    const uint32_t latencies[] = {100, 120, 140, 200};
    for (int i = 0; i < 4; i++)
        stats_record_latency(st, latencies[i]);
    const uint64_t waits[WAIT_KINDS] = {60, 200, 100, 200, 0};
    memcpy(st->wait_sum, waits, sizeof waits);
    st->hops_local_sum = 8;
    st->hops_global_sum = 4;
    st->misrouted_global = 1;
    st->misrouted_local = 2;
    for (int r = 0; r < 36; r++)
        c->router_injected[r] = (uint64_t)r + 1;
    run->view.in_network = 17;
}

static void test_summarize_hand_made(void)
{
    struct fake_run run;
    struct result res;
    fake_run_init(&run);
    fake_run_fill(&run);
    CU_ASSERT_EQUAL_FATAL(stats_summarize(&run.view, &res), 0);
    CU_ASSERT_EQUAL(res.groups, 9);
    CU_ASSERT_EQUAL(res.routers, 36);
    CU_ASSERT_EQUAL(res.nodes, 72);
    CU_ASSERT_EQUAL(res.radix, 7);
    CU_ASSERT_EQUAL(res.p, 2);
    CU_ASSERT_EQUAL(res.a, 4);
    CU_ASSERT_CLOSE(res.offered, 0.104);
    CU_ASSERT_CLOSE(res.injected, 0.096);
    CU_ASSERT_CLOSE(res.accepted, 32.0 / 72000);
    CU_ASSERT_EQUAL(res.generated, 900);
    CU_ASSERT_EQUAL(res.refused, 36);
    CU_ASSERT_EQUAL(res.injected_packets, 864);
    CU_ASSERT_EQUAL(res.delivered, 4);
    CU_ASSERT_EQUAL(res.in_flight_at_end, 17);
    CU_ASSERT_CLOSE(res.latency_mean, 140);
    CU_ASSERT_CLOSE(res.latency_p50, 120);
    CU_ASSERT_CLOSE(res.latency_p95, 200);
    CU_ASSERT_CLOSE(res.latency_p99, 200);
    CU_ASSERT_CLOSE(res.latency_max, 200);
    const double breakdown[WAIT_KINDS] = {15, 50, 25, 50, 0};
    double sum = 0;
    for (int k = 0; k < WAIT_KINDS; k++) {
        CU_ASSERT_CLOSE(res.breakdown[k], breakdown[k]);
        sum += res.breakdown[k];
    }
    CU_ASSERT_CLOSE(sum, res.latency_mean);
    CU_ASSERT_CLOSE(res.hops_local, 2);
    CU_ASSERT_CLOSE(res.hops_global, 1);
    CU_ASSERT_CLOSE(res.misrouted_global, 0.25);
    CU_ASSERT_CLOSE(res.misrouted_local, 0.5);
    result_free(&res);
    fake_run_free(&run);
}

/* Fairness and the per-router figures of the same hand-made run: counts 1..36 have mean
 * 18.5 and population variance (36^2 - 1)/12, so CoV = sqrt(1295/12)/18.5. */
static void test_summarize_fairness(void)
{
    struct fake_run run;
    struct result res;
    fake_run_init(&run);
    fake_run_fill(&run);
    CU_ASSERT_EQUAL_FATAL(stats_summarize(&run.view, &res), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res.per_router_injected); /* a copy: the sim may go first */
    CU_ASSERT_PTR_NOT_EQUAL(res.per_router_injected, run.counts.router_injected);
    CU_ASSERT_EQUAL(memcmp(res.per_router_injected, run.counts.router_injected,
                           36 * sizeof *res.per_router_injected),
                    0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res.group0_injected_load);
    for (int r = 0; r < 4; r++)
        CU_ASSERT_CLOSE(res.group0_injected_load[r], (r + 1) * 8.0 / 2000);
    CU_ASSERT_CLOSE(res.fairness.min_injected_load, 0.004);
    CU_ASSERT_CLOSE(res.fairness.min_injected_pct_of_offered, 100 * 0.004 / 0.104);
    CU_ASSERT_CLOSE(res.fairness.max_min, 36);
    CU_ASSERT_EQUAL(res.fairness.starved_routers, 0);
    CU_ASSERT_CLOSE(res.fairness.cov, sqrt(1295.0 / 12) / 18.5);
    result_free(&res);
    CU_ASSERT_PTR_NULL(res.group0_injected_load);
    result_free(&res); /* idempotent */
    fake_run_free(&run);
}

/* Nothing delivered and nothing measured: every figure is 0, none is NaN. */
static void test_summarize_empty(void)
{
    struct fake_run run;
    struct result res;
    fake_run_init(&run);
    run.view.measured_cycles = 0;
    CU_ASSERT_EQUAL_FATAL(stats_summarize(&run.view, &res), 0);
    const double figures[] = {res.offered,      res.injected,
                              res.accepted,     res.latency_mean,
                              res.latency_p50,  res.latency_p99,
                              res.hops_local,   res.misrouted_global,
                              res.fairness.cov, res.fairness.min_injected_load};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        CU_ASSERT_CLOSE(figures[i], 0.0);
    for (int k = 0; k < WAIT_KINDS; k++)
        CU_ASSERT_CLOSE(res.breakdown[k], 0.0);
    CU_ASSERT_EQUAL(res.fairness.starved_routers, 36);
    result_free(&res);
    fake_run_free(&run);
}

/* A real loaded run on a small network: the breakdown sums to the mean latency, the figures
 * agree with the raw counters and with each other. */
static void test_summarize_real_run(void)
{
    const char *ov[] = {"topology.h=2",
                        "topology.a=4",
                        "topology.p=2",
                        "sim.warmup_cycles=500",
                        "sim.measure_cycles=2000",
                        "traffic.load=0.3"};
    struct sim_config cfg;
    char err[256];
    test_config(&cfg, ov, 6);
    struct sim *sim = sim_create(&cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, NULL, NULL), SIM_OK);
    struct result res;
    CU_ASSERT_EQUAL_FATAL(sim_summarize(sim, &res), 0);
    CU_ASSERT(res.delivered > 1000);
    double sum = 0;
    for (int k = 0; k < WAIT_KINDS; k++) {
        CU_ASSERT(res.breakdown[k] >= 0);
        sum += res.breakdown[k];
    }
    CU_ASSERT_DOUBLE_EQUAL(sum, res.latency_mean, 1e-9 * res.latency_mean);
    CU_ASSERT(res.latency_p50 <= res.latency_p95);
    CU_ASSERT(res.latency_p95 <= res.latency_p99);
    CU_ASSERT(res.latency_p99 <= res.latency_max);
    CU_ASSERT(res.latency_mean <= res.latency_max);
    CU_ASSERT_DOUBLE_EQUAL(res.offered, 0.3, 0.03);
    CU_ASSERT_EQUAL(res.in_flight_at_end, sim->net.in_network);
    uint64_t injected = 0;
    for (int r = 0; r < res.routers; r++)
        injected += res.per_router_injected[r];
    CU_ASSERT_EQUAL(injected, res.injected_packets);
    double node_cycles = 72.0 * 2000;
    CU_ASSERT_CLOSE(res.injected, (double)res.injected_packets * 8 / node_cycles);
    CU_ASSERT_CLOSE(res.accepted, (double)res.delivered * 8 / node_cycles);
    CU_ASSERT(res.hops_global <= 1.0 + EPS); /* MIN: at most one global hop */
    CU_ASSERT(res.hops_local <= 2.0 + EPS);
    CU_ASSERT_CLOSE(res.misrouted_global, 0.0);
    CU_ASSERT_CLOSE(res.misrouted_local, 0.0);
    result_free(&res);
    sim_destroy(sim);
}

int test_stats_register(void)
{
    CU_pSuite suite = CU_add_suite("stats", NULL, NULL);
    if (!suite)
        return -1;
    const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"percentile of a small histogram", test_percentile_small},
        {"percentile ranks are exact for whole q", test_percentile_whole_ranks},
        {"percentile with 0 or 1 samples", test_percentile_degenerate},
        {"percentile matches its definition", test_percentile_definition},
        {"latency recording and histogram size", test_record_latency},
        {"fairness: min, max/min, CoV by hand", test_fairness_basic},
        {"fairness: equal routers", test_fairness_uniform},
        {"fairness: starved routers", test_fairness_starved},
        {"fairness: idle network", test_fairness_idle},
        {"summary of hand-made counters", test_summarize_hand_made},
        {"summary fairness and group 0 loads", test_summarize_fairness},
        {"summary of an empty window", test_summarize_empty},
        {"summary of a real run", test_summarize_real_run},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn))
            return -1;
    return 0;
}
