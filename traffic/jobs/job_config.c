/* job_config: the settings of a job, which of them a job reads, and the per-job checks. */
#include "job_config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "job_traffic.h"
#include "motif.h"
#include "placement.h"
#include "routing.h"
#include "sim_config.h"
#include "throttle.h"
#include "trace_job.h"
#include "traffic.h"
#include "ugal_preset.h"

/* ---- the choices: "none" first, then the plug-ins ---- */

static const char *const job_selector_names[] = {"none", "app_aware", NULL};

/* A job's pattern: "none", the rank patterns, then the network patterns that are not rank
 * patterns too. */
static const char *const *job_pattern_names(void)
{
    static const char *names[64];
    int n = 0;
    names[n++] = "none";
    for (const char *const *r = rank_pattern_names(); *r; r++)
        names[n++] = *r;
    for (const char *const *p = pattern_names(); *p && n < 63; p++)
        if (!rank_pattern_find(*p))
            names[n++] = *p;
    names[n] = NULL;
    return names;
}

static const char *const *job_motif_names(void)
{
    static const char *names[64];
    int n = 0;
    names[n++] = "none";
    for (const char *const *m = motif_names(); *m && n < 63; m++)
        names[n++] = *m;
    names[n] = NULL;
    return names;
}

const struct rank_pattern_ops *job_rank_pattern(const struct config_job *job)
{
    return job->pattern > 0 ? rank_pattern_find(job_pattern_names()[job->pattern]) : NULL;
}

const struct pattern_ops *job_network_pattern(const struct config_job *job)
{
    if (job->pattern <= 0 || job_rank_pattern(job))
        return NULL;
    return pattern_find(job_pattern_names()[job->pattern]);
}

const struct motif_ops *job_motif(const struct config_job *job)
{
    return job->motif > 0 ? motif_registry[job->motif - 1] : NULL;
}

bool job_is_closed_loop(const struct config_job *job)
{
    return job->motif > 0 || trace_job_is(job);
}

/* ---- the settings ---- */

#define JOB_INT(NAME, FIELD, DEF, LO, HI, DOC)                                                     \
    SETTING_INT_ROW(struct config_job, NAME, FIELD, DEF, LO, HI, DOC)
#define JOB_INT64(NAME, FIELD, DEF, LO, HI, DOC)                                                   \
    SETTING_NUMBER(struct config_job, SETTING_INT64, NAME, FIELD, DEF, LO, HI, DOC)
#define JOB_LIST(NAME, FIELD, LO, HI, DOC)                                                         \
    {                                                                                              \
        .name = NAME, .type = SETTING_INT_LIST, .offset = offsetof(struct config_job, FIELD),      \
        .min = LO, .max = HI, .doc = DOC                                                           \
    }
/* Keys added after the first jobs release: while they hold their default they are left out
 * of the document's config and of the sweep hash (settings.h, quiet_default), so documents
 * and sweep points of configs that do not use them stay as they were. */
#define JOB_QUIET_NUMBER(TYPE, NAME, FIELD, DEF, LO, HI, DOC)                                      \
    SETTING_QUIET_NUMBER(struct config_job, TYPE, NAME, FIELD, DEF, LO, HI, DOC)
#define JOB_QUIET_CHOICE(NAME, FIELD, DEF, CHOICES, DOC)                                           \
    SETTING_QUIET_CHOICE(struct config_job, NAME, FIELD, DEF, CHOICES, DOC)
#define JOB_STRING(NAME, FIELD, DOC)                                                               \
    {                                                                                              \
        .name = NAME, .type = SETTING_STRING, .offset = offsetof(struct config_job, FIELD),        \
        .def_text = "", .doc = DOC                                                                 \
    }
#define JOB_PATH(NAME, FIELD, DOC)                                                                 \
    {                                                                                              \
        .name = NAME, .type = SETTING_STRING, .offset = offsetof(struct config_job, FIELD),        \
        .def_text = "", .doc = DOC, .is_path = true                                                \
    }

static int job_check(const struct sim_config *cfg, const void *params, struct setting_issue *issue);

static const struct setting job_rows[] = {
    JOB_STRING("name", name, "the job's name, unique: jobs.NAME.KEY in --set and sweeps"),
    JOB_INT("nodes", nodes, 1, 1, SETTING_UNBOUNDED_INT, "ranks (one per node)"),
    SETTING_PLUGIN_ROW(struct config_job, "placement", placement, "contiguous", placement_names,
                       "which nodes the job gets (rank i on the i-th)"),
    SETTING_PLUGIN_ROW(struct config_job, "pattern", pattern, "none", job_pattern_names,
                       "open loop: destinations (network patterns: a job on every node)"),
    SETTING_PLUGIN_ROW(struct config_job, "motif", motif, "none", job_motif_names,
                       "closed loop: the application's communication pattern"),
    SETTING_NUMBER(struct config_job, SETTING_DOUBLE, "load", load, 0, 0, 64,
                   "open loop: offered load, phits/(node*cycle)"),
    SETTING_PLUGIN_ROW(struct config_job, "process", process, "bernoulli", injection_names,
                       "open loop: when a rank creates a message"),
    JOB_INT64("message_bytes", message_bytes, 0, 0, SETTING_UNBOUNDED_INT64,
              "bytes of a message (open loop: 0 = single packets; motifs: 0 = 4096)"),
    JOB_INT("iterations", iterations, 1, 1, SETTING_UNBOUNDED_INT, "motif: iterations"),
    JOB_INT64("compute_cycles", compute_cycles, 0, 0, SETTING_UNBOUNDED_INT64,
              "motif: cycles without injection at the start of each iteration"),
    JOB_QUIET_CHOICE("throttle", throttle, "none", throttle_kind_names,
                     "injection throttle of each of its nodes: a token bucket at a fixed "
                     "rate (static) or at a rate set every window from the stall fraction "
                     "(aimd); jobs that send messages"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "throttle_rate", throttle_rate, 0, 0, 64,
                     "static: the cap; aimd: the starting rate (0: the line rate), "
                     "phits/(node*cycle)"),
    JOB_QUIET_NUMBER(SETTING_INT, "throttle_bucket_packets", throttle_bucket_packets, 2, 1, 1024,
                     "static, aimd: token bucket depth, packets (the largest burst at line rate)"),
    JOB_QUIET_NUMBER(SETTING_INT64, "throttle_window_cycles", throttle_window_cycles, 200, 1,
                     INT_MAX, "aimd: cycles between two rate updates"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "throttle_gain", throttle_gain, 0.125, 0, 1,
                     "aimd: g, the weight of the last window's stall fraction in alpha"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "throttle_step", throttle_step, 0.002, 0, 64,
                     "aimd: additive increase after a window without stall, phits/(node*cycle)"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "throttle_min_rate", throttle_min_rate, 0.01, 0, 64,
                     "aimd: the lowest rate, phits/(node*cycle)"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "delay_sensitivity", delay_sensitivity, 0, 0, 1e9,
                     "aimd: c, a decrease is R * alpha / (2 + c) (0: the DCQCN-like baseline; "
                     "plots/fit_delay_sensitivity.py measures it)"),
    JOB_QUIET_CHOICE(
        "ugal_preset", ugal_preset, "none", ugal_preset_names,
        "routing.mechanism ugal or ugal_g: the Aries mode of its packets (bias, bias mode, "
        "progressive; none: the routing's own settings)"),
    JOB_QUIET_NUMBER(
        SETTING_INT64, "response_bytes", response_bytes, 0, 0, SETTING_UNBOUNDED_INT64,
        "requests and responses: every request packet is answered by a response of this "
        "many bytes back to its source (0: no responses); jobs that send messages"),
    JOB_QUIET_NUMBER(SETTING_INT, "nic_window", nic_window, 1024, 0, SETTING_UNBOUNDED_INT,
                     "response_bytes > 0: request packets a node may have awaiting their response "
                     "(Aries: 1024; 0: unbounded)"),
    JOB_QUIET_CHOICE("selector", selector, "none", job_selector_names,
                     "app_aware: each message picks its ugal mode, default or high bias, from its "
                     "node's NIC counters (needs responses; traffic/README.md)"),
    JOB_QUIET_NUMBER(SETTING_INT64, "selector_min_bytes", selector_min_bytes, 4096, 0,
                     SETTING_UNBOUNDED_INT64,
                     "app_aware: smaller messages go with high bias, larger ones decide"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "selector_lambda", selector_lambda, 1, 0, 1e9,
                     "app_aware: L(high bias) / L(default), for the mode not observed yet"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "selector_sigma", selector_sigma, 1, 0, 1e9,
                     "app_aware: s(high bias) / s(default), for the mode not observed yet"),
    JOB_QUIET_NUMBER(SETTING_DOUBLE, "intensity", intensity, 1, 0, 1,
                     "a congestor's intensity i: after each step a motif's rank computes "
                     "(1 - i) / i times the cycles that step's sends waited to leave its node; "
                     "an open-loop job offers its load x i"),
    JOB_QUIET_NUMBER(SETTING_BOOL, "open_ended", open_ended, 0, 0, 1,
                     "motif: restart its iterations until every closed-loop job without "
                     "open_ended has finished (a congestor; its runtime is then no result)"),
};

static const struct setting_table job_table = {
    "jobs", NULL, job_rows, (int)(sizeof job_rows / sizeof job_rows[0]), 0, job_check};

const struct setting_table *const job_config_tables[] = {&job_table, &motif_grid_table,
                                                         &trace_job_settings, NULL};

/* ---- what a job reads ---- */

static bool job_key_in(const char *const *keys, const char *key)
{
    for (int i = 0; keys && keys[i]; i++)
        if (strcmp(keys[i], key) == 0)
            return true;
    return false;
}

/* Appends ", key" for every key (no comma right after "reads "). */
static void job_append_keys(char *buf, size_t len, const char *const *keys)
{
    for (int i = 0; keys && keys[i]; i++) {
        size_t used = strlen(buf);
        bool first = used > 0 && buf[used - 1] == ' ';
        snprintf(buf + used, len - used, "%s%s", first ? "" : ", ", keys[i]);
    }
}

static bool job_table_has(const struct setting_table *t, const char *key)
{
    for (int i = 0; t && i < t->count; i++)
        if (strcmp(t->rows[i].name, key) == 0)
            return true;
    return false;
}

/* Appends ", name" for every row of t. */
static void job_append_rows(char *buf, size_t len, const struct setting_table *t)
{
    for (int i = 0; t && i < t->count; i++) {
        const char *one[] = {t->rows[i].name, NULL};
        job_append_keys(buf, len, one);
    }
}

/* A network pattern's settings are the job's keys of the same name (adversarial's offset). */
static bool job_network_reads(const struct pattern_ops *network, const char *key)
{
    return job_table_has(network ? network->settings : NULL, key);
}

/* The settings tables a motif reads: the process grid's (grid motifs), then its own. */
static void job_motif_tables(const struct motif_ops *motif, const struct setting_table *out[2])
{
    out[0] = motif && motif->grid ? &motif_grid_table : NULL;
    out[1] = motif ? motif->settings : NULL;
}

struct job_key_lookup {
    const char *name;
    struct setting_ref ref;
};

static int job_key_match(void *ctx, const struct setting_ref *r)
{
    struct job_key_lookup *l = ctx;
    if (strcmp(r->row->name, l->name) != 0)
        return 0;
    l->ref = *r;
    return 1;
}

int job_network_params(const struct config_job *job, const struct pattern_ops *network, void *out)
{
    const struct settings_list *jobs = settings_list_named("jobs");
    const struct setting_table *t = network->settings;
    for (int i = 0; t && i < t->count; i++) {
        struct job_key_lookup l = {t->rows[i].name, {0}};
        if (!settings_each_in_element(jobs, -1, job_key_match, &l) ||
            l.ref.row->type != t->rows[i].type || l.ref.row->type != SETTING_INT)
            return -1; /* a network pattern whose setting no job key carries */
        const char *base = l.ref.table->params_size
                               ? settings_element_params(jobs, job, l.ref.table)
                               : (const char *)job;
        memcpy((char *)out + t->rows[i].offset, base + l.ref.row->offset, sizeof(int));
    }
    return 0;
}

bool job_reads(const struct config_job *job, const char *key, char *why, size_t len)
{
    static const char *const always[] = {"name",      "nodes",       "placement",      "pattern",
                                         "motif",     "ugal_preset", "response_bytes", "selector",
                                         "intensity", NULL};
    static const char *const open_loop[] = {"load", "process", "message_bytes", NULL};
    static const char *const closed_loop[] = {"iterations", "compute_cycles", "open_ended", NULL};
    if (trace_job_chooses(key))
        return true;
    if (strcmp(key, "throttle") == 0)
        return true;
    if (strncmp(key, "selector_", 9) == 0) {
        if (job->selector == JOB_SELECTOR_APP_AWARE)
            return true;
        snprintf(why, len,
                 "selector 'none' reads no other selector key (set selector = "
                 "\"app_aware\")");
        return false;
    }
    if (strcmp(key, "nic_window") == 0) {
        if (job->response_bytes > 0)
            return true;
        snprintf(why, len,
                 "response_bytes = 0 reads no nic_window: the window counts request packets "
                 "awaiting their response (set response_bytes > 0)");
        return false;
    }
    if (strncmp(key, "throttle_", 9) == 0 || strcmp(key, "delay_sensitivity") == 0) {
        if (job_key_in(throttle_keys(job->throttle), key))
            return true;
        snprintf(why, len, "throttle '%s' reads ", throttle_kind_names[job->throttle]);
        job_append_keys(why, len, throttle_keys(job->throttle));
        if (job->throttle == THROTTLE_NONE)
            snprintf(why, len,
                     "throttle 'none' reads no other throttle key (set throttle = "
                     "\"static\" or \"aimd\")");
        return false;
    }
    const struct placement_ops *placement = placement_registry[job->placement];
    if (trace_job_is(job)) {
        /* a trace's allreduce reads the allreduce motif's settings */
        if (job_key_in(always, key) || job_table_has(&trace_job_settings, key) ||
            job_table_has(motif_allreduce.settings, key) ||
            job_table_has(placement->settings, key))
            return true;
        snprintf(why, len, "trace reads ");
        job_append_rows(why, len, &trace_job_settings);
        job_append_rows(why, len, motif_allreduce.settings);
        return false;
    }
    if (trace_job_key(key)) {
        snprintf(why, len, "%s reads no trace setting (set trace = \"PATH/traces.otf2\")",
                 job->motif > 0 ? "a motif job" : "a pattern job");
        return false;
    }
    const struct motif_ops *motif = job_motif(job);
    const struct rank_pattern_ops *rank = job_rank_pattern(job);
    const struct injection_ops *process = injection_registry[job->process];
    const struct setting_table *tables[2];
    job_motif_tables(motif, tables);
    bool reads = job_key_in(always, key) || job_table_has(placement->settings, key);
    if (motif)
        reads = reads || job_key_in(closed_loop, key) || job_key_in(motif->keys, key) ||
                job_table_has(tables[0], key) || job_table_has(tables[1], key);
    else
        reads = reads || job_key_in(open_loop, key) || (rank && job_table_has(rank->settings, key)) ||
                job_network_reads(job_network_pattern(job), key) ||
                job_table_has(process->settings, key);
    if (reads)
        return true;
    snprintf(why, len, "%s '%s' reads ", motif ? "motif" : "pattern",
             motif ? motif->name : job_pattern_names()[job->pattern]);
    job_append_keys(why, len, motif ? closed_loop : open_loop);
    job_append_keys(why, len, motif ? motif->keys : NULL);
    job_append_rows(why, len, !motif && rank ? rank->settings : NULL);
    job_append_rows(why, len, tables[0]);
    job_append_rows(why, len, tables[1]);
    const struct pattern_ops *network = motif ? NULL : job_network_pattern(job);
    job_append_rows(why, len, network ? network->settings : NULL);
    if (!motif)
        job_append_rows(why, len, process->settings);
    size_t used = strlen(why);
    snprintf(why + used, len - used, "; placement '%s' reads nodes", placement->name);
    for (int i = 0; placement->settings && i < placement->settings->count; i++) {
        used = strlen(why);
        snprintf(why + used, len - used, ", %s", placement->settings->rows[i].name);
    }
    return false;
}

bool job_config_reads(const void *job, const char *key, char *why, size_t len)
{
    return job_reads(job, key, why, len);
}

/* ---- the checks of one job ---- */

static int job_issue(const struct config_job *job, struct setting_issue *issue, const char *key,
                     const char *alt)
{
    snprintf(issue->names[0], sizeof issue->names[0], "jobs.%.63s.%s", job->name, key);
    snprintf(issue->names[1], sizeof issue->names[1], "jobs.%.63s.%s", job->name, alt);
    issue->key = issue->names[0];
    issue->alt = issue->names[1];
    return -1;
}

/* A throttle acts on the NIC, which only messages go through; its rates lie within what the
 * node link carries. */
static int job_check_throttle(const struct sim_config *cfg, const struct config_job *job,
                              struct setting_issue *issue)
{
    double line = cfg->links.bandwidth_node;
    if (job->throttle == THROTTLE_NONE)
        return 0;
    if (!job_is_closed_loop(job) && job->message_bytes == 0) {
        snprintf(issue->text, sizeof issue->text,
                 "a throttle delays the packets of messages in the NIC, and single packets "
                 "(message_bytes = 0) go straight to the injection queue (expected "
                 "message_bytes > 0, or throttle = \"none\")");
        return job_issue(job, issue, "throttle", "throttle");
    }
    if (job->throttle == THROTTLE_STATIC &&
        (job->throttle_rate <= 0 || job->throttle_rate > line)) {
        snprintf(issue->text, sizeof issue->text,
                 "%.15g is not a rate cap (expected 0 < throttle_rate <= links.bandwidth_node = "
                 "%.15g phits/cycle)",
                 job->throttle_rate, line);
        return job_issue(job, issue, "throttle_rate", "throttle");
    }
    if (job->throttle != THROTTLE_AIMD)
        return 0;
    if (job->throttle_min_rate <= 0 || job->throttle_min_rate > line) {
        snprintf(issue->text, sizeof issue->text,
                 "%.15g is not a rate floor (expected 0 < throttle_min_rate <= "
                 "links.bandwidth_node = %.15g phits/cycle)",
                 job->throttle_min_rate, line);
        return job_issue(job, issue, "throttle_min_rate", "throttle");
    }
    if (job->throttle_rate != 0 &&
        (job->throttle_rate < job->throttle_min_rate || job->throttle_rate > line)) {
        snprintf(issue->text, sizeof issue->text,
                 "%.15g is outside the controller's range (expected 0 for the line rate, or "
                 "throttle_min_rate = %.15g <= throttle_rate <= links.bandwidth_node = %.15g)",
                 job->throttle_rate, job->throttle_min_rate, line);
        return job_issue(job, issue, "throttle_rate", "throttle");
    }
    if (job->throttle_gain <= 0) {
        snprintf(issue->text, sizeof issue->text,
                 "%.15g never lets a stall into alpha, so the rate never decreases (expected "
                 "0 < throttle_gain <= 1)",
                 job->throttle_gain);
        return job_issue(job, issue, "throttle_gain", "throttle");
    }
    return 0;
}

/* The selector switches between ugal modes, from the NIC counters of requests and responses,
 * with the message-time model's window. */
static int job_check_selector(const struct config_job *job, bool ugal, const char *mechanism,
                              struct setting_issue *issue)
{
    if (!ugal) {
        snprintf(issue->text, sizeof issue->text,
                 "app_aware picks ugal modes, and routing.mechanism is '%s' (expected "
                 "routing.mechanism = \"ugal\" or \"ugal_g\", or selector = \"none\")",
                 mechanism);
        return job_issue(job, issue, "selector", "selector");
    }
    if (job->response_bytes <= 0 || job->nic_window <= 0) {
        snprintf(issue->text, sizeof issue->text,
                 "app_aware estimates message times from request-to-response latencies in a "
                 "bounded window (expected response_bytes > 0 and nic_window > 0)");
        return job_issue(job, issue, "selector", "selector");
    }
    if (job->selector_lambda <= 0 || job->selector_sigma <= 0) {
        bool lambda = job->selector_lambda <= 0;
        snprintf(issue->text, sizeof issue->text,
                 "%.15g is not a ratio of two positive figures (expected > 0)",
                 lambda ? job->selector_lambda : job->selector_sigma);
        return job_issue(job, issue, lambda ? "selector_lambda" : "selector_sigma", "selector");
    }
    return 0;
}

int job_selector_default_mode(const struct config_job *job)
{
    if (job->ugal_preset != UGAL_PRESET_NONE)
        return job->ugal_preset;
    const struct motif_ops *motif = job_motif(job);
    return motif && strcmp(motif->name, "alltoall") == 0 ? UGAL_ADAPTIVE_1 : UGAL_ADAPTIVE_0;
}

unsigned job_routing_modes(const struct config_job *job)
{
    if (job->selector == JOB_SELECTOR_APP_AWARE)
        return 1u << job_selector_default_mode(job) | 1u << JOB_SELECTOR_HIGH_MODE;
    return 1u << job->ugal_preset;
}

/* A job's mode changes only what ugal's bias reads (bias, bias mode, progressive): the
 * mechanism, its candidates and its ladder (up to the progressive segment) are the network's. */
static int job_check_routing(const struct sim_config *cfg, const struct config_job *job,
                             struct setting_issue *issue)
{
    const struct routing_ops *mechanism = routing_registry[cfg->routing.mechanism];
    bool ugal = mechanism->reads_packet_modes;
    if (job->selector == JOB_SELECTOR_APP_AWARE)
        return job_check_selector(job, ugal, mechanism->name, issue);
    if (job->ugal_preset == UGAL_PRESET_NONE || ugal)
        return 0;
    snprintf(issue->text, sizeof issue->text,
             "'%s' is a mode of ugal, and routing.mechanism is '%s' (expected routing.mechanism "
             "= \"ugal\" or \"ugal_g\", or ugal_preset = \"none\")",
             ugal_preset_names[job->ugal_preset], mechanism->name);
    return job_issue(job, issue, "ugal_preset", "ugal_preset");
}

uint64_t job_message_packets(const struct sim_config *cfg, uint64_t bytes)
{
    uint64_t phit = (uint64_t)cfg->traffic.phit_bytes, size = (uint64_t)cfg->traffic.packet_size;
    uint64_t phits = (bytes + phit - 1) / phit;
    uint64_t packets = (phits + size - 1) / size;
    return packets ? packets : 1;
}

const void *job_process_settings(const struct config_job *job)
{
    const struct setting_table *t = injection_registry[job->process]->settings;
    return t ? settings_element_params(settings_list_named("jobs"), job, t) : NULL;
}

/* A periodic job's interval_cycles (0: from its load); 0 for the other processes. */
static int64_t job_interval(const struct config_job *job)
{
    if (injection_registry[job->process] != &injection_periodic)
        return 0;
    return ((const struct injection_periodic_settings *)job_process_settings(job))->interval_cycles;
}

double job_offered_load(const struct sim_config *cfg, const struct config_job *job)
{
    int64_t interval = job_interval(job);
    if (interval <= 0)
        return job->load;
    uint64_t packets =
        job->message_bytes > 0 ? job_message_packets(cfg, (uint64_t)job->message_bytes) : 1;
    return (double)packets * cfg->traffic.packet_size / (double)interval;
}

/* The cycles a run of this config may last: an open-loop run its warm-up and window, a
 * closed-loop one until sim.max_cycles at the latest. */
static int64_t job_run_cycles(const struct sim_config *cfg)
{
    for (int j = 0; j < cfg->n_jobs; j++)
        if (job_is_closed_loop(&cfg->jobs[j]))
            return cfg->sim.max_cycles;
    return cfg->sim.warmup_cycles + cfg->sim.measure_cycles;
}

/* A message (or response) of `bytes` must be injectable within the run at the node's line
 * rate, and its packets countable in 31 bits: larger is a typo (2147483647), and would report
 * an offered load no node can offer. */
static int job_check_bytes(const struct sim_config *cfg, const struct config_job *job,
                           const char *key, int64_t bytes, struct setting_issue *issue)
{
    if (bytes <= 0)
        return 0;
    int64_t run = job_run_cycles(cfg);
    double phits = ceil((double)bytes / cfg->traffic.phit_bytes);
    double most = floor((double)run * cfg->links.bandwidth_node) * cfg->traffic.phit_bytes;
    double packets = ceil(phits / cfg->traffic.packet_size);
    if (phits <= (double)run * cfg->links.bandwidth_node && packets <= INT32_MAX)
        return 0;
    if (packets > INT32_MAX)
        snprintf(issue->text, sizeof issue->text,
                 "%lld bytes make %.0f packets (expected at most %d packets a message)",
                 (long long)bytes, packets, INT32_MAX);
    else
        snprintf(issue->text, sizeof issue->text,
                 "%lld bytes take %.0f cycles to leave the node at links.bandwidth_node = "
                 "%.15g phits/cycle, longer than the run's %lld cycles (expected at most %.0f "
                 "bytes, or a longer run: %s)",
                 (long long)bytes, ceil(phits / cfg->links.bandwidth_node),
                 cfg->links.bandwidth_node, (long long)run, most,
                 job_is_closed_loop(job) ? "sim.max_cycles"
                                         : "sim.warmup_cycles + sim.measure_cycles");
    return job_issue(job, issue, key, key);
}

/* Periodic's rate comes from interval_cycles or else from load, never both; either way a node
 * cannot offer more than its link carries. */
static int job_check_periodic(const struct sim_config *cfg, const struct config_job *job,
                              double most, struct setting_issue *issue)
{
    int64_t interval = job_interval(job);
    const char *key = injection_periodic.settings->rows[0].name;
    if (interval == 0)
        return 0;
    if (job->load > 0) {
        snprintf(issue->text, sizeof issue->text,
                 "interval_cycles = %lld and load = %.15g both set periodic's rate (expected "
                 "one of them: interval_cycles = 0 derives the interval from load)",
                 (long long)interval, job->load);
        return job_issue(job, issue, key, "process");
    }
    double offered = job_offered_load(cfg, job);
    double phits = offered * (double)interval;
    if (offered <= most)
        return 0;
    snprintf(issue->text, sizeof issue->text,
             "a message of %.0f phits every %lld cycles offers %.15g phits/cycle, more than a "
             "node can (expected interval_cycles >= %.0f: at most links.bandwidth_node = %.15g "
             "phits/cycle, and one packet per cycle)",
             phits, (long long)interval, offered, ceil(phits / most), most);
    return job_issue(job, issue, key, "process");
}

static int job_check(const struct sim_config *cfg, const void *params, struct setting_issue *issue)
{
    const struct config_job *job = params;
    if (!job->name[0]) {
        int index = (int)(job - cfg->jobs);
        snprintf(issue->names[0], sizeof issue->names[0], "jobs[%d].name", index);
        issue->key = issue->alt = issue->names[0];
        snprintf(issue->text, sizeof issue->text,
                 "a job needs a name (expected e.g. name = \"app\";)");
        return -1;
    }
    if (strlen(job->name) > 63) {
        snprintf(issue->text, sizeof issue->text,
                 "'%.20s...' is %zu characters long (expected at most 63)", job->name,
                 strlen(job->name));
        return job_issue(job, issue, "name", "name");
    }
    for (const char *c = job->name; *c; c++)
        if (*c == '.' || *c == '/' || *c == ' ') {
            snprintf(issue->text, sizeof issue->text,
                     "'%s' holds '%c' (expected letters, digits, '_', '+' or '-': it names "
                     "settings jobs.NAME.KEY)",
                     job->name, *c);
            return job_issue(job, issue, "name", "name");
        }
    if ((job->pattern > 0) == (job->motif > 0) && !trace_job_is(job)) {
        snprintf(issue->text, sizeof issue->text,
                 "a job has either a pattern (open loop), a motif or a trace (closed loop) "
                 "(expected one of pattern = \"uniform\"; motif = \"alltoall\"; or trace = "
                 "\"PATH/traces.otf2\";)");
        return job_issue(job, issue, "pattern", "motif");
    }
    double most = cfg->links.bandwidth_node < cfg->traffic.packet_size ? cfg->links.bandwidth_node
                                                                       : cfg->traffic.packet_size;
    if (!job_is_closed_loop(job) && job->load > most) {
        snprintf(issue->text, sizeof issue->text,
                 "%.15g is more than a node can offer (expected at most links.bandwidth_node = "
                 "%.15g phits/cycle, and one packet per cycle)",
                 job->load, most);
        return job_issue(job, issue, "load", "load");
    }
    if (!job_is_closed_loop(job) && job_check_periodic(cfg, job, most, issue))
        return -1;
    if (job_check_bytes(cfg, job, "message_bytes", job->message_bytes, issue) ||
        job_check_bytes(cfg, job, "response_bytes", job->response_bytes, issue))
        return -1;
    if (job->intensity <= 0) {
        snprintf(issue->text, sizeof issue->text,
                 "%.15g would never let it communicate (expected 0 < intensity <= 1: at line "
                 "rate, the fraction of the time it sends)",
                 job->intensity);
        return job_issue(job, issue, "intensity", "intensity");
    }
    if (job_check_throttle(cfg, job, issue))
        return -1;
    if (job->response_bytes > 0 && !job_is_closed_loop(job) && job->message_bytes == 0) {
        snprintf(issue->text, sizeof issue->text,
                 "responses answer the packets of messages, which go through the NIC, and "
                 "single packets (message_bytes = 0) do not (expected message_bytes > 0, or "
                 "response_bytes = 0)");
        return job_issue(job, issue, "response_bytes", "response_bytes");
    }
    return job_check_routing(cfg, job, issue);
}

void job_throttle_params(const struct sim_config *cfg, const struct config_job *job,
                         struct throttle_params *out)
{
    double line = cfg->links.bandwidth_node, packet = cfg->traffic.packet_size;
    double rate = job->throttle_rate;
    if (job->throttle == THROTTLE_AIMD && rate == 0)
        rate = line;
    *out = (struct throttle_params){
        .kind = job->throttle,
        .line_rate = line,
        .rate = rate,
        .depth = packet * job->throttle_bucket_packets,
        .packet = packet,
        .window = (uint64_t)job->throttle_window_cycles,
        .gain = job->throttle_gain,
        .step = job->throttle_step,
        .min_rate = job->throttle_min_rate,
        .c = job->delay_sensitivity,
        .measure_from = (uint64_t)cfg->sim.warmup_cycles,
    };
}
