/* Seeing inside a run: the time series and what it adds up to, the steady-state verdict, link
 * load against conservation and a hand bound, and the packet log against the zero-load
 * latency (src/METRICS.md, "The time series and the steady-state verdict", "Link load",
 * "Following packets"). */
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "point.h"
#include "sim.h"
#include "stats.h"
#include "steady_state.h"
#include "test_util.h"

#define H2 "topology.p=2", "topology.a=4", "topology.h=2"

static void observe_config(struct sim_config *cfg, const char *const *extra, int n)
{
    const char *ov[32] = {H2};
    int k = 3;
    for (int i = 0; i < n && k < 32; i++)
        ov[k++] = extra[i];
    test_config(cfg, ov, k);
}

static void observe_run(struct sim_config *cfg, struct result *res)
{
    const struct point_options opt = {.progress = false};
    struct point_outcome out;
    enum sim_status status = point_run_steady(cfg, &opt, res, &out);
    if (status != SIM_OK)
        fprintf(stderr, "\n%s\n", out.message);
    CU_ASSERT_EQUAL_FATAL(status, SIM_OK);
}

static bool observe_close(double a, double b, double rel)
{
    return fabs(a - b) <= rel * (fabs(b) > 1e-12 ? fabs(b) : 1.0);
}

/* ---- the arithmetic ---- */

static void test_mser_finds_a_step(void)
{
    double y[20];
    for (int i = 0; i < 20; i++)
        y[i] = i < 3 ? 0.1 : 1.0; /* a transient of 3 batches */
    CU_ASSERT_EQUAL(steady_state_mser(y, 20), 3);
    for (int i = 0; i < 20; i++)
        y[i] = 1.0;
    CU_ASSERT_EQUAL(steady_state_mser(y, 20), 0);
    /* A trend never settles: MSER cuts as much as it may, half. */
    for (int i = 0; i < 20; i++)
        y[i] = i;
    CU_ASSERT_EQUAL(steady_state_mser(y, 20), 10);
    CU_ASSERT_EQUAL(steady_state_mser(y, 1), 0);
}

static void test_jain_index(void)
{
    const uint64_t even[4] = {5, 5, 5, 5}, one[4] = {0, 0, 9, 0}, none[3] = {0, 0, 0};
    const uint64_t two[2] = {1, 3};
    CU_ASSERT_DOUBLE_EQUAL(steady_state_jain(even, 4), 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(steady_state_jain(one, 4), 0.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(steady_state_jain(none, 3), 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(steady_state_jain(two, 2), 16.0 / 20.0, 1e-12);
}

/* ---- the series ---- */

/* Every sample's figures, weighted by its length (or its packets), give the window's: the
 * series cut the window into pieces and lose nothing. The window (3,000 cycles) is not a
 * multiple of the sample (70): the last sample is shorter. */
static void test_series_add_up(void)
{
    struct sim_config cfg;
    const char *ov[] = {"sim.warmup_cycles=700", "sim.measure_cycles=3000",
                        "stats.sample_cycles=70", "traffic.load=0.5"};
    observe_config(&cfg, ov, 4);
    struct result res;
    observe_run(&cfg, &res);
    const struct result_series *se = &res.series;
    CU_ASSERT_FATAL(se->on);
    CU_ASSERT_EQUAL(se->n, 43); /* ceil(3000 / 70) */
    CU_ASSERT_EQUAL(se->end_cycle[0], 770);
    CU_ASSERT_EQUAL(se->end_cycle[se->n - 1], 3700);
    double T = 3000;
    double offered = 0, injected = 0, accepted = 0, latency = 0;
    uint64_t delivered = 0, before = 700;
    for (int i = 0; i < se->n; i++) {
        double len = (double)(se->end_cycle[i] - before);
        before = se->end_cycle[i];
        offered += se->offered[i] * len;
        injected += se->injected[i] * len;
        accepted += se->accepted[i] * len;
        latency += se->latency_mean[i] * (double)se->delivered[i];
        delivered += se->delivered[i];
        CU_ASSERT(se->latency_p99[i] >= se->latency_mean[i] * 0.5);
    }
    CU_ASSERT_EQUAL(delivered, res.delivered);
    CU_ASSERT(observe_close(offered / T, res.offered, 1e-12));
    CU_ASSERT(observe_close(injected / T, res.injected, 1e-12));
    CU_ASSERT(observe_close(accepted / T, res.accepted, 1e-12));
    CU_ASSERT(observe_close(latency / (double)delivered, res.latency_mean, 1e-12));
    CU_ASSERT_EQUAL(se->in_flight[se->n - 1], res.in_flight_at_end);
    /* The p99 of a sample is that of its own packets: never above the window's max. */
    for (int i = 0; i < se->n; i++)
        CU_ASSERT(se->latency_p99[i] <= res.latency_max);
    result_free(&res);
}

/* With jobs, each job's series adds up to its own figures, and a closed-loop job's iterations
 * climb to the ones it completed. */
static void test_series_jobs(void)
{
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "observe"), 0);
    struct sim_config cfg;
    test_load_config_text(dir, "jobs.cfg",
                          "sim = { warmup_cycles = 300; };\n"
                          "topology = { p = 2; a = 4; h = 2; };\n"
                          "stats = { sample_cycles = 100; };\n"
                          "jobs = ( { name = \"ring\"; nodes = 8; motif = \"allreduce\";\n"
                          "           message_bytes = 4096; iterations = 4; },\n"
                          "         { name = \"bg\"; nodes = 40; pattern = \"uniform\";\n"
                          "           load = 0.3; } );\n",
                          NULL, 0, &cfg);
    struct result res;
    observe_run(&cfg, &res);
    CU_ASSERT_FATAL(res.series.on);
    CU_ASSERT_EQUAL_FATAL(res.series.n_jobs, 2);
    for (int j = 0; j < 2; j++) {
        const struct result_series_job *sj = &res.series.jobs[j];
        CU_ASSERT_STRING_EQUAL(sj->name, res.jobs[j].name);
        uint64_t delivered = 0, messages = 0;
        double accepted = 0, before = 300;
        for (int i = 0; i < sj->n; i++) {
            double len = (double)res.series.end_cycle[i] - before;
            before = (double)res.series.end_cycle[i];
            delivered += sj->delivered[i];
            messages += sj->messages_delivered[i];
            accepted += sj->accepted[i] * len;
            if (i)
                CU_ASSERT(sj->iterations[i] >= sj->iterations[i - 1]);
        }
        CU_ASSERT_EQUAL(delivered, res.jobs[j].delivered);
        CU_ASSERT_EQUAL(messages, res.jobs[j].messages_delivered);
        CU_ASSERT(observe_close(accepted / (double)res.run.measured_cycles, res.jobs[j].accepted,
                                1e-12));
    }
    CU_ASSERT(res.jobs[0].finished);
    CU_ASSERT_EQUAL(res.series.jobs[0].iterations[res.series.n - 1], 4);
    result_free(&res);
    test_tmpdir_remove(dir);
}

/* Everything off (the defaults): the document has none of the new sections, and its config
 * echoes no stats group. */
static void test_off_leaves_document(void)
{
    struct sim_config cfg;
    const char *ov[] = {"sim.warmup_cycles=200", "sim.measure_cycles=300"};
    observe_config(&cfg, ov, 2);
    char *doc = test_run_document(&cfg, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_PTR_NULL(strstr(doc, "\"series\""));
    CU_ASSERT_PTR_NULL(strstr(doc, "\"steady_state\""));
    CU_ASSERT_PTR_NULL(strstr(doc, "\"link_load\""));
    CU_ASSERT_PTR_NULL(strstr(doc, "\"stats\""));
    free(doc);
}

/* ---- the verdict ---- */

static void observe_verdict(const char *warmup, const char *load, const char *pattern,
                            struct result *res)
{
    struct sim_config cfg;
    const char *ov[] = {warmup, "sim.measure_cycles=4000", "stats.sample_cycles=50", load,
                        pattern};
    observe_config(&cfg, ov, 5);
    observe_run(&cfg, res);
    CU_ASSERT_FATAL(res->has_steady_state);
    CU_ASSERT_EQUAL(res->steady_state.samples, 80);
    CU_ASSERT_EQUAL(res->steady_state.batches, 16);
}

/* No warm-up: the window opens on an empty network, the first samples deliver almost nothing,
 * and MSER-5 cuts them; a warm-up of 10,000 cycles leaves nothing to cut beyond noise. */
static void test_verdict_warmup(void)
{
    struct result res;
    observe_verdict("sim.warmup_cycles=0", "traffic.load=0.4", "traffic.pattern=uniform", &res);
    CU_ASSERT_FALSE(res.steady_state.steady);
    CU_ASSERT(res.steady_state.truncation_samples > 0);
    CU_ASSERT(res.steady_state.accepted_bias > 0.01);
    CU_ASSERT(res.steady_state.accepted_z > 3);
    CU_ASSERT_FALSE(res.steady_state.saturated);
    result_free(&res);
    for (int seed = 1; seed <= 3; seed++) {
        struct sim_config cfg;
        char s[32];
        snprintf(s, sizeof s, "sim.seed=%d", seed);
        const char *ov[] = {"sim.warmup_cycles=10000", "sim.measure_cycles=4000",
                            "stats.sample_cycles=50", s};
        observe_config(&cfg, ov, 4);
        observe_run(&cfg, &res);
        CU_ASSERT(res.steady_state.steady);
        if (!res.steady_state.steady)
            fprintf(stderr, "\n  seed %d: %s\n", seed, res.steady_state.reason);
        CU_ASSERT_FALSE(res.steady_state.saturated);
        result_free(&res);
    }
}

/* Past saturation: UN at 0.9 under MIN (the h=2 network carries about 0.8), and ADV+1 at 0.4
 * (MIN's bound is 0.125): accepted falls short of offered. */
static void test_verdict_saturated(void)
{
    struct result res;
    observe_verdict("sim.warmup_cycles=3000", "traffic.load=0.4", "traffic.pattern=ADV+1", &res);
    CU_ASSERT(res.steady_state.saturated);
    CU_ASSERT(res.steady_state.shortfall > 0.5);
    result_free(&res);
    observe_verdict("sim.warmup_cycles=3000", "traffic.load=0.9", "traffic.pattern=uniform", &res);
    CU_ASSERT(res.steady_state.saturated);
    CU_ASSERT(res.steady_state.shortfall > 0.02);
    result_free(&res);
}

/* stats.extend_warmup reruns a point that is not steady with a longer warm-up until it is,
 * and leaves the config at the warm-up of the run reported. */
static void test_extend_warmup(void)
{
    struct sim_config cfg;
    const char *ov[] = {"sim.warmup_cycles=0", "sim.measure_cycles=4000",
                        "stats.sample_cycles=50", "stats.extend_warmup=4"};
    observe_config(&cfg, ov, 4);
    struct result res;
    observe_run(&cfg, &res);
    CU_ASSERT(res.steady_state.steady);
    CU_ASSERT(res.steady_state.warmup_extensions >= 1);
    CU_ASSERT(cfg.sim.warmup_cycles > 0);
    CU_ASSERT_EQUAL(res.steady_state.warmup_cycles, (uint64_t)cfg.sim.warmup_cycles);
    result_free(&res);
}

/* ---- link load ---- */

/* A closed-loop job from cycle 0 to its end: every packet created was delivered in the window,
 * so the links' phits are the packets' hops times their phits, class by class. */
static void test_link_load_conserves(void)
{
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "observe"), 0);
    struct sim_config cfg;
    test_load_config_text(dir, "a2a.cfg",
                          "sim = { warmup_cycles = 0; };\n"
                          "topology = { p = 2; a = 4; h = 2; };\n"
                          "routing = { mechanism = \"valiant\"; };\n"
                          "stats = { link_load = true; };\n"
                          "jobs = ( { name = \"a2a\"; nodes = 72; motif = \"alltoall\";\n"
                          "           message_bytes = 256; } );\n",
                          NULL, 0, &cfg);
    struct result res;
    observe_run(&cfg, &res);
    CU_ASSERT_EQUAL_FATAL(res.in_flight_at_end, 0);
    CU_ASSERT_FATAL(res.link_load.on);
    double phits[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < res.link_load.classes[c].links; i++)
            phits[c] += (double)res.link_load.classes[c].phits[i];
    double S = 8, delivered = (double)res.delivered;
    CU_ASSERT_EQUAL(res.link_load.classes[0].links, 72);
    CU_ASSERT_EQUAL(res.link_load.classes[1].links, 36 * 3);
    CU_ASSERT_EQUAL(res.link_load.classes[2].links, 36 * 2);
    CU_ASSERT(observe_close(phits[0], delivered * S, 1e-12));
    CU_ASSERT(observe_close(phits[1], res.hops_local * delivered * S, 1e-9));
    CU_ASSERT(observe_close(phits[2], res.hops_global * delivered * S, 1e-9));
    CU_ASSERT(phits[2] > 0);
    /* Every node link ends at a node of its router. */
    for (int i = 0; i < 72; i++)
        CU_ASSERT_EQUAL(res.link_load.classes[0].to[i] / 2, res.link_load.classes[0].from[i]);
    result_free(&res);
    test_tmpdir_remove(dir);
}

/* ADV+1 under MIN: all of group g's traffic goes to group g+1 over the one global link
 * between them, at node rate x p x a = 8 x load phits/cycle, capped at the link's 1; every
 * other global link stays idle. */
static void observe_adv1(double load, double *mean_busy, double *min_busy)
{
    struct sim_config cfg;
    char l[40];
    snprintf(l, sizeof l, "traffic.load=%g", load);
    const char *ov[] = {"sim.warmup_cycles=3000", "sim.measure_cycles=6000",
                        "traffic.pattern=ADV+1", l, "stats.link_load=true"};
    observe_config(&cfg, ov, 5);
    struct result res;
    observe_run(&cfg, &res);
    const struct result_link_class *g = &res.link_load.classes[2];
    int busy = 0, groups = res.groups, a = 4;
    double sum = 0, max = 0;
    *min_busy = 1e9;
    for (int i = 0; i < g->links; i++) {
        int from = (int)g->from[i] / a, to = (int)g->to[i] / a;
        double rate = (double)g->phits[i] / 6000.0;
        if (to == (from + 1) % groups) {
            busy++;
            sum += rate;
            max = rate > max ? rate : max;
            *min_busy = rate < *min_busy ? rate : *min_busy;
        } else {
            CU_ASSERT_EQUAL(g->phits[i], 0);
        }
    }
    CU_ASSERT_EQUAL(busy, groups); /* one link per group pair */
    *mean_busy = sum / busy;
    CU_ASSERT(observe_close(g->max, max, 1e-12));
    /* 9 busy links of 72: Jain's index is 9/72 when they carry the same, less otherwise. */
    CU_ASSERT(g->jain <= 9.0 / 72.0 + 1e-12 && g->jain > 0.9 * 9.0 / 72.0);
    result_free(&res);
}

static void test_link_load_adv1_bound(void)
{
    double mean, min;
    observe_adv1(0.1, &mean, &min); /* 0.8 phits/cycle, below the link */
    CU_ASSERT(fabs(mean - 0.8) < 0.8 * 0.03);
    CU_ASSERT(min > 0.8 * 0.85);
    observe_adv1(0.4, &mean, &min); /* 3.2 asked: the link's 1 */
    CU_ASSERT(mean <= 1.0 + 1e-12);
    CU_ASSERT(min > 0.95);
}

/* ---- the packet log ---- */

/* Two nodes in different groups playing ping-pong: one packet in the network at a time, so
 * every logged packet takes the zero-load latency of its own path, hop by hop. */
static void test_packet_log_zero_load(void)
{
    char dir[64], path[128], log[160];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "observe"), 0);
    test_write_text(dir, "nodes.txt", "0\n70\n", path);
    char text[1024];
    snprintf(text, sizeof text,
             "sim = { warmup_cycles = 0; };\n"
             "topology = { p = 2; a = 4; h = 2; };\n"
             "stats = { packet_log = \"two.jsonl\"; };\n"
             "jobs = ( { name = \"pp\"; nodes = 2; motif = \"pingpong\"; placement = \"file\";\n"
             "           allocation_file = \"nodes.txt\"; message_bytes = 128;\n"
             "           iterations = 5; } );\n");
    struct sim_config cfg;
    test_load_config_text(dir, "two.cfg", text, NULL, 0, &cfg);
    struct result res;
    observe_run(&cfg, &res);
    snprintf(log, sizeof log, "%s/two.jsonl", dir);
    FILE *f = fopen(log, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[8192];
    int packets = 0, global = 0;
    const int inj = 1, router = 5, latency[3] = {1, 10, 100}, S = 8;
    while (fgets(line, sizeof line, f)) {
        cJSON *p = cJSON_Parse(line);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        int hl = cJSON_GetObjectItem(p, "hops_local")->valueint;
        int hg = cJSON_GetObjectItem(p, "hops_global")->valueint;
        double gen = cJSON_GetObjectItem(p, "generated")->valuedouble;
        double delivered = cJSON_GetObjectItem(p, "delivered")->valuedouble;
        /* src/METRICS.md, "Zero-load latency under UN and MIN" */
        double zero_load = 2 * inj + (hl + hg + 1) * router + hl * 10 + hg * 100 + S - 1;
        CU_ASSERT_DOUBLE_EQUAL(delivered - gen, zero_load, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(p, "latency")->valuedouble, zero_load, 1e-9);
        const cJSON *path_items = cJSON_GetObjectItem(p, "path");
        CU_ASSERT_EQUAL(cJSON_GetArraySize(path_items), hl + hg + 1);
        double expected_arrive = gen + inj;
        int hops = cJSON_GetArraySize(path_items);
        for (int h = 0; h < hops; h++) {
            const cJSON *hop = cJSON_GetArrayItem(path_items, h);
            double arrive = cJSON_GetObjectItem(hop, "arrive")->valuedouble;
            double grant = cJSON_GetObjectItem(hop, "grant")->valuedouble;
            double leave = cJSON_GetObjectItem(hop, "leave")->valuedouble;
            const char *out = cJSON_GetObjectItem(hop, "out")->valuestring;
            int cls = strcmp(out, "global") == 0 ? 2 : strcmp(out, "local") == 0 ? 1 : 0;
            CU_ASSERT_DOUBLE_EQUAL(arrive, expected_arrive, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(grant, arrive + router - 1, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(leave, grant + 1, 1e-9);
            CU_ASSERT_EQUAL(cls == 0, h == hops - 1); /* the last hop is to the node */
            expected_arrive = leave + latency[cls];
            if (h == hops - 1)
                CU_ASSERT_DOUBLE_EQUAL(delivered, leave + S - 1 + inj, 1e-9);
        }
        global += hg > 0;
        packets++;
        cJSON_Delete(p);
    }
    fclose(f);
    CU_ASSERT_EQUAL(packets, (int)res.delivered); /* no fraction, no pairs: every packet */
    CU_ASSERT(packets >= 10);
    CU_ASSERT_EQUAL(global, packets); /* nodes 0 and 70 are in groups 0 and 8 */
    result_free(&res);
    test_tmpdir_remove(dir);
}

/* Choosing packets draws no random number: a run with a log gives the figures it gives
 * without one, and a fraction and pairs log what they say. */
static void test_packet_log_changes_nothing(void)
{
    char dir[64], log[160], o[200];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "observe"), 0);
    snprintf(log, sizeof log, "%s/some.jsonl", dir);
    snprintf(o, sizeof o, "stats.packet_log=%s", log);
    struct sim_config plain, logged;
    const char *ov[] = {"sim.warmup_cycles=500", "sim.measure_cycles=1500",
                        "stats.packet_log_fraction=0.1", "stats.packet_log_pairs=[3, 40]", o};
    observe_config(&plain, ov, 2);
    observe_config(&logged, ov, 5);
    struct result a, b;
    observe_run(&plain, &a);
    observe_run(&logged, &b);
    CU_ASSERT_EQUAL(a.delivered, b.delivered);
    CU_ASSERT_EQUAL(a.generated, b.generated);
    CU_ASSERT_DOUBLE_EQUAL(a.latency_mean, b.latency_mean, 0);
    FILE *f = fopen(log, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        cJSON *p = cJSON_Parse(line);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT(cJSON_GetObjectItem(p, "generated")->valuedouble >= 500);
        n++;
        cJSON_Delete(p);
    }
    fclose(f);
    /* About a tenth of the packets created in the window and delivered. */
    CU_ASSERT(n > 0.07 * (double)b.delivered && n < 0.13 * (double)b.delivered);
    result_free(&a);
    result_free(&b);
    test_tmpdir_remove(dir);
}

/* ---- the command line ---- */

/* The document of a sweep's one point (load 0.4) in DIR/out, which an extended warm-up made
 * steady: its verdict says so and counts at least one extension. */
static cJSON *extended_point(const char *dir)
{
    char command[256];
    snprintf(command, sizeof command, "cat %s/out/load0.4_*.json", dir);
    static char doc_text[1 << 20];
    CU_ASSERT_EQUAL_FATAL(test_run_command(command, doc_text, sizeof doc_text), 0);
    cJSON *doc = cJSON_Parse(doc_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const cJSON *v = cJSON_GetObjectItem(doc, "steady_state");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(v, "steady")));
    CU_ASSERT(cJSON_GetObjectItem(v, "warmup_extensions")->valueint >= 1);
    return doc;
}

/* dfsim sweep with stats.extend_warmup in its `set`: the point is rerun until steady, its
 * document says how often and echoes the warm-up it ran with. */
static void test_sweep_extends_warmup(void)
{
    char dir[64], cwd[4096], path[128], command[8800], out[4096];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "observe"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd - 64));
    char text[4600];
    snprintf(text, sizeof text,
             "base = \"%s/conf/default.cfg\";\n"
             "set = { sim = { warmup_cycles = 0; measure_cycles = 4000; };\n"
             "        stats = { sample_cycles = 50; extend_warmup = 4; }; };\n"
             "axes = { traffic = { load = [0.4]; }; };\n",
             cwd);
    test_write_text(dir, "steady.cfg", text, path);
    snprintf(command, sizeof command, "./dfsim sweep %s -o %s/out --jobs 1 --quiet", path, dir);
    int rc = test_run_command(command, out, sizeof out);
    CU_ASSERT_EQUAL(rc, 0);
    cJSON *doc = extended_point(dir);
    const cJSON *v = cJSON_GetObjectItem(doc, "steady_state");
    const cJSON *sim = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "config"), "sim");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(sim, "warmup_cycles")->valuedouble,
                    cJSON_GetObjectItem(v, "warmup_cycles")->valuedouble);
    CU_ASSERT(cJSON_GetObjectItem(sim, "warmup_cycles")->valuedouble > 0);
    cJSON_Delete(doc);
    test_tmpdir_remove(dir);
}

/* dfsim sweep --extend-warmup N: the same through the command line, which makes it a setting
 * of every point (their hash: --list finds them done only with the option), passes it to Slurm
 * tasks, and is refused where the points have no series. */
static void test_sweep_option_extends_warmup(void)
{
    char dir[64], cwd[4096], path[128], bare[128], command[8800], out[4096];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "observe"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd - 64));
    char text[4600];
    snprintf(text, sizeof text,
             "base = \"%s/conf/default.cfg\";\n"
             "set = { sim = { warmup_cycles = 0; measure_cycles = 4000; };\n"
             "        stats = { sample_cycles = 50; }; };\n"
             "axes = { traffic = { load = [0.4]; }; };\n",
             cwd);
    test_write_text(dir, "opt.cfg", text, path);
    snprintf(command, sizeof command,
             "./dfsim sweep %s -o %s/out --jobs 1 --quiet --extend-warmup 3", path, dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    cJSON_Delete(extended_point(dir));
    /* The option is part of the points' identity. */
    snprintf(command, sizeof command, "./dfsim sweep %s -o %s/out --list --extend-warmup 3",
             path, dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "done"));
    snprintf(command, sizeof command, "./dfsim sweep %s -o %s/out --list", path, dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "missing"));
    /* Slurm tasks are told. */
    snprintf(command, sizeof command,
             "./dfsim sweep %s -o %s/slurm --slurm --dry-run --extend-warmup 2 && "
             "grep -c -- '--quiet --extend-warmup 2' %s/slurm/slurm.sbatch",
             path, dir, dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    /* Without a series there is nothing to judge. */
    snprintf(text, sizeof text,
             "base = \"%s/conf/default.cfg\";\nset = { sim = { measure_cycles = 400; }; };\n",
             cwd);
    test_write_text(dir, "bare.cfg", text, bare);
    snprintf(command, sizeof command, "./dfsim sweep %s -o %s/bare --extend-warmup 2", bare,
             dir);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(expected stats.sample_cycles > 0)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(--extend-warmup 2 is --set stats.extend_warmup=2"));
    snprintf(command, sizeof command, "./dfsim sweep %s --extend-warmup 21", bare);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "--extend-warmup needs an integer in [1, 20]"));
    test_tmpdir_remove(dir);
}

/* dfsim run --packet-log FILE: FILE relative to the working directory, the verdict on the
 * summary line. */
static void test_cli_packet_log(void)
{
    char dir[64], cwd[4096], command[8800], out[4096], log[128];
    CU_ASSERT_EQUAL_FATAL(test_tmpdir_create(dir, "observe"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd - 64));
    snprintf(command, sizeof command,
             "cd %s && %s/dfsim run %s/conf/default.cfg --set sim.warmup_cycles=200 "
             "--set sim.measure_cycles=600 --packet-log here.jsonl "
             "--set stats.packet_log_pairs=[0,70] -o x.json",
             dir, cwd, cwd);
    CU_ASSERT_EQUAL(test_run_command(command, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  verdict   not saturated (accepted "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "steady state not judged (stats.sample_cycles = 0)"));
    snprintf(log, sizeof log, "%s/here.jsonl", dir);
    FILE *f = fopen(log, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        CU_ASSERT_PTR_NOT_NULL(strstr(line, "\"src\": 0, \"dst\": 70,"));
    }
    fclose(f);
    test_tmpdir_remove(dir);
}

/* ---- settings ---- */

static void test_settings_errors(void)
{
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN];
    const char *odd[] = {"stats.packet_log_pairs=[1, 2, 3]"};
    CU_ASSERT_EQUAL(config_load(NULL, odd, 1, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "stats.packet_log_pairs: 3 node ids is not a list of pairs"));
    const char *far[] = {"stats.packet_log_pairs=[1, 999999]"};
    CU_ASSERT_EQUAL(config_load(NULL, far, 1, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "node 999999 is not in the network (expected"));
    const char *extend[] = {"stats.extend_warmup=2"};
    CU_ASSERT_EQUAL(config_load(NULL, extend, 1, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "(expected stats.sample_cycles > 0)"));
    const char *range[] = {"stats.packet_log_fraction=1.5"};
    CU_ASSERT_EQUAL(config_load(NULL, range, 1, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "stats.packet_log_fraction"));
}

int test_observe_register(void)
{
    static const struct test_case cases[] = {
        {"MSER finds a step, nothing in a flat series, half of a trend", test_mser_finds_a_step},
        {"Jain's index", test_jain_index},
        {"the series add up to the window's figures", test_series_add_up},
        {"each job's series adds up to its figures", test_series_jobs},
        {"with everything off the document has no new section", test_off_leaves_document},
        {"verdict: no warm-up is not steady, a long one is", test_verdict_warmup},
        {"verdict: past saturation is saturated", test_verdict_saturated},
        {"extend_warmup lengthens the warm-up until steady", test_extend_warmup},
        {"link load: phits = hops x phits, class by class", test_link_load_conserves},
        {"link load: ADV+1 under MIN loads one global link per group pair", test_link_load_adv1_bound},
        {"packet log: a two-node run takes the zero-load latency hop by hop", test_packet_log_zero_load},
        {"packet log: chooses without random numbers, a fraction and pairs", test_packet_log_changes_nothing},
        {"sweep: extend_warmup in `set` makes its points steady", test_sweep_extends_warmup},
        {"sweep --extend-warmup N: every point, its identity, Slurm, refused without series",
         test_sweep_option_extends_warmup},
        {"run --packet-log: relative to here, and the verdict line", test_cli_packet_log},
        {"settings: bad stats values are refused", test_settings_errors},
    };
    return test_add_suite("observe", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
