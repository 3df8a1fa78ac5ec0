/* settings_schema: the schema of a config file, assembled from the core's groups (declared
 * here) and the plug-in registries (each plug-in declares its own table): the only file that
 * knows both, so the loader in src/config/ reads any setting without knowing who reads it. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "arbiter.h"
#include "job_config.h"
#include "job_traffic.h"
#include "link_rate.h"
#include "motif.h"
#include "placement.h"
#include "routing.h"
#include "settings.h"
#include "topology.h"
#include "traffic.h"

/* ---- the core's settings ---- */

static const struct setting config_sim_rows[] = {
    SETTING_NUMBER(struct config_sim, SETTING_INT64, "warmup_cycles", warmup_cycles, 10000, 0,
                   INT_MAX, "cycles simulated before the measurement window opens"),
    SETTING_NUMBER(struct config_sim, SETTING_INT64, "measure_cycles", measure_cycles, 15000, 1,
                   INT_MAX, "cycles of the measurement window"),
    SETTING_NUMBER(struct config_sim, SETTING_INT64, "seed", seed, 1, 0, SETTING_UNBOUNDED_INT64,
                   "seed of every random stream: same seed and config, same results"),
    SETTING_NUMBER(struct config_sim, SETTING_INT64, "deadlock_cycles", deadlock_cycles, 10000, 1,
                   SETTING_UNBOUNDED_INT64,
                   "watchdog: stop (exit 3) if packets are in flight, none moved this long and "
                   "nothing is on a link (at least router.latency + 2 * packet_size + 1)"),
    SETTING_NUMBER(struct config_sim, SETTING_INT64, "max_cycles", max_cycles, 2000000, 1, INT_MAX,
                   "with closed-loop jobs: the run ends when they all finished, or here (it "
                   "says it was capped)"),
    SETTING_BOOL_ROW(struct config_sim, "isolate", isolate, 0,
                     "with closed-loop jobs: also run each alone (same placement and seeds) and "
                     "report its slowdown (dfsim run --isolate)"),
    SETTING_QUIET_NUMBER(struct config_sim, SETTING_DOUBLE, "cycle_ns", cycle_ns, 1, 0.001, 1e6,
                         "nanoseconds of a cycle: converts trace timestamps to cycles and "
                         "traces written by --trace-out back"),
};

static const struct setting config_links_rows[] = {
    SETTING_INT_ROW(struct config_links, "local_latency", local_latency, 10, 1, 1000000,
                    "cycles of a local (intra-group) link"),
    SETTING_INT_ROW(struct config_links, "global_latency", global_latency, 100, 1, 1000000,
                    "cycles of a global (inter-group) link"),
    SETTING_INT_ROW(struct config_links, "injection_latency", injection_latency, 1, 1, 1000000,
                    "cycles of the node-router links (injection and ejection)"),
    SETTING_NUMBER(struct config_links, SETTING_DOUBLE, "bandwidth_node", bandwidth_node, 1, 0.001,
                   LINK_RATE_MAX, "phits per cycle of the node-router links (at most 3 decimals)"),
    SETTING_NUMBER(struct config_links, SETTING_DOUBLE, "bandwidth_local", bandwidth_local, 1,
                   0.001, LINK_RATE_MAX, "phits per cycle of a local link (at most 3 decimals)"),
    SETTING_NUMBER(struct config_links, SETTING_DOUBLE, "bandwidth_global", bandwidth_global, 1,
                   0.001, LINK_RATE_MAX, "phits per cycle of a global link (at most 3 decimals)"),
};

/* Bandwidths are exact fractions (link_rate.h): 1.2 phits/cycle is 6 phits every 5 cycles. */
static int config_links_check(const struct sim_config *cfg, const void *params,
                              struct setting_issue *issue)
{
    const struct config_links *links = params;
    static const char *const keys[] = {"links.bandwidth_node", "links.bandwidth_local",
                                       "links.bandwidth_global"};
    const double values[] = {links->bandwidth_node, links->bandwidth_local,
                             links->bandwidth_global};
    struct link_rate rate;
    (void)cfg;
    for (int i = 0; i < 3; i++)
        if (link_rate_from_bandwidth(values[i], &rate) != 0) {
            issue->key = issue->alt = keys[i];
            snprintf(issue->text, sizeof issue->text,
                     "%.15g phits/cycle has more than 3 decimals (expected e.g. 1.2 or 3.66)",
                     values[i]);
            return -1;
        }
    return 0;
}

static const struct setting config_buffers_rows[] = {
    SETTING_INT_ROW(struct config_buffers, "local", local, 32, 1, 65535,
                    "input buffer per local VC, phits"),
    SETTING_INT_ROW(struct config_buffers, "global", global, 256, 1, 65535,
                    "input buffer per global VC, phits"),
    SETTING_INT_ROW(struct config_buffers, "injection", injection, 1000, 1, 65535,
                    "injection queue per injection VC of a node, phits"),
    SETTING_INT_ROW(struct config_buffers, "output", output, 32, 1, 65535,
                    "output buffer per port (shared by its VCs), phits"),
};

static const struct setting config_router_rows[] = {
    SETTING_INT_ROW(struct config_router, "speedup", speedup, 2, 1, 64,
                    "crossbar speedup: a transfer takes packet_size/speedup cycles"),
    SETTING_INT_ROW(struct config_router, "latency", latency, 5, 1, 1000000,
                    "cycles from head arrival to the earliest departure on the next link"),
    SETTING_INT_ROW(struct config_router, "allocator_iterations", allocator_iterations, 2, 1, 64,
                    "iterations of the separable input-first allocator"),
    SETTING_PLUGIN_ROW(struct config_router, "arbiter", arbiter, "round_robin", arbiter_names,
                       "arbitration policy of the allocator"),
    SETTING_BOOL_ROW(struct config_router, "transit_priority", transit_priority, 0,
                     "output arbiters prefer transit (local/global) inputs over node inputs"),
};

static const struct setting config_vcs_rows[] = {
    SETTING_INT_ROW(struct config_vcs, "local", local, 0, 0, 16,
                    "VCs per local port; 0 = what the routing's ladder needs"),
    SETTING_INT_ROW(struct config_vcs, "global", global, 0, 0, 16,
                    "VCs per global port; 0 = what the routing's ladder needs"),
    SETTING_INT_ROW(struct config_vcs, "injection", injection, 3, 1, 16,
                    "injection queues per node (chosen by destination)"),
};

/* What a run reports beyond its figures: added after documents and sweeps exist, so every
 * row is quiet at its default (settings.h): a config that leaves them alone writes the
 * document and hashes the sweep point it always did. */
#define STATS_QUIET(TYPE, NAME, FIELD, DEF, LO, HI, DOC)                                           \
    SETTING_QUIET_NUMBER(struct config_stats, TYPE, NAME, FIELD, DEF, LO, HI, DOC)

static const struct setting config_stats_rows[] = {
    STATS_QUIET(SETTING_INT64, "sample_cycles", sample_cycles, 0, 0, INT_MAX,
                "cycles of a sample of the measurement window's time series, and the "
                "steady-state verdict from it (0: neither)"),
    STATS_QUIET(SETTING_DOUBLE, "steady_tolerance", steady_tolerance, 0.01, 0, 1,
                "steady if the transient MSER-5 finds at the window's start moves accepted load "
                "and mean latency by at most this fraction"),
    STATS_QUIET(SETTING_DOUBLE, "saturation_tolerance", saturation_tolerance, 0.02, 0, 1,
                "saturated if accepted load falls below offered by more than this fraction of "
                "it (after the transient)"),
    STATS_QUIET(SETTING_INT, "extend_warmup", extend_warmup, 0, 0, 20,
                "sample_cycles > 0: a run not steady is rerun with its warm-up lengthened by "
                "the transient found, at most this many times (runs without closed-loop jobs)"),
    STATS_QUIET(SETTING_BOOL, "link_load", link_load, 0, 0, 1,
                "phits every link carried in the window, and per class of links (node, local, "
                "global) their mean, max and Jain index"),
    {.name = "packet_log",
     .type = SETTING_STRING,
     .offset = offsetof(struct config_stats, packet_log),
     .def_text = "",
     .doc = "a file of JSON lines: the path and per-hop times of the packets chosen below, "
            "created in the window (absolute, or relative to the folder of the config file it "
            "is written in; dfsim run --packet-log FILE)",
     .is_path = true,
     .quiet_default = true},
    STATS_QUIET(SETTING_DOUBLE, "packet_log_fraction", packet_log_fraction, 0, 0, 1,
                "packet_log: the fraction of packets logged, drawn by a hash of the packet's id "
                "(no random number: the run is unchanged)"),
    {.name = "packet_log_pairs",
     .type = SETTING_INT_LIST,
     .offset = offsetof(struct config_stats, packet_log_pairs),
     .min = 0,
     .max = SETTING_UNBOUNDED_INT,
     .doc = "packet_log: also every packet between these nodes, as [src, dst, src, dst, ...] "
            "(neither this nor a fraction: every packet)",
     .quiet_default = true},
};

static int config_stats_check(const struct sim_config *cfg, const void *params,
                              struct setting_issue *issue)
{
    const struct config_stats *st = params;
    if (st->packet_log_pairs.count % 2) {
        issue->key = issue->alt = "stats.packet_log_pairs";
        snprintf(issue->text, sizeof issue->text,
                 "%d node ids is not a list of pairs (expected [src, dst, src, dst, ...])",
                 st->packet_log_pairs.count);
        return -1;
    }
    struct topology_dimensions dims;
    topology_dimensions(cfg, &dims);
    for (int i = 0; i < st->packet_log_pairs.count; i++)
        if (st->packet_log_pairs.values[i] >= dims.nodes) {
            issue->key = issue->alt = "stats.packet_log_pairs";
            snprintf(issue->text, sizeof issue->text,
                     "node %d is not in the network (expected node ids below %lld)",
                     st->packet_log_pairs.values[i], dims.nodes);
            return -1;
        }
    if (st->extend_warmup > 0 && st->sample_cycles == 0) {
        issue->key = "stats.extend_warmup";
        issue->alt = "stats.sample_cycles";
        snprintf(issue->text, sizeof issue->text,
                 "%d: the warm-up is extended by what the time series shows (expected "
                 "stats.sample_cycles > 0)",
                 st->extend_warmup);
        return -1;
    }
    return 0;
}

#define CONFIG_CORE_TABLE(NAME, GROUP, ROWS)                                                       \
    static const struct setting_table NAME = {                                                     \
        GROUP, NULL, ROWS, (int)(sizeof ROWS / sizeof ROWS[0]), 0, NULL};                          \
    static const struct setting_table *const NAME##s[] = {&NAME, NULL}

CONFIG_CORE_TABLE(config_sim_table, "sim", config_sim_rows);
static const struct setting_table config_links_table = {
    "links",
    NULL,
    config_links_rows,
    (int)(sizeof config_links_rows / sizeof config_links_rows[0]),
    0,
    config_links_check};
static const struct setting_table *const config_links_tables[] = {&config_links_table, NULL};
CONFIG_CORE_TABLE(config_buffers_table, "buffers", config_buffers_rows);
CONFIG_CORE_TABLE(config_router_table, "router", config_router_rows);
CONFIG_CORE_TABLE(config_vcs_table, "vcs", config_vcs_rows);
static const struct setting_table config_stats_table = {
    "stats",
    NULL,
    config_stats_rows,
    (int)(sizeof config_stats_rows / sizeof config_stats_rows[0]),
    0,
    config_stats_check};
static const struct setting_table *const config_stats_tables[] = {&config_stats_table, NULL};

static const struct setting_table *const config_topology_tables[] = {&topology_settings, NULL};
static const struct setting_plugins config_topology_plugins[] = {
    {topology_count, topology_settings_at, topology_reads, NULL}, {NULL, NULL, NULL, NULL}};
static const struct setting_table *const config_routing_tables[] = {
    &routing_settings, &misroute_policy_settings, NULL};
static const struct setting_plugins config_routing_plugins[] = {
    {routing_count, routing_settings_at, routing_reads, routing_needs}, {NULL, NULL, NULL, NULL}};
static const struct setting_table *const config_traffic_tables[] = {&traffic_settings, NULL};
static const struct setting_plugins config_traffic_plugins[] = {
    {pattern_count, pattern_settings_at, pattern_reads, NULL}, {NULL, NULL, NULL, NULL}};

#define CONFIG_GROUP(NAME, FIELD, TABLES)                                                          \
    static const struct settings_group NAME = {                                                    \
        #FIELD, offsetof(struct sim_config, FIELD), 0, false, TABLES, NULL, false}
#define CONFIG_PLUGIN_GROUP(NAME, FIELD, STRUCT, TABLES, PLUGINS, SHAPE)                           \
    static const struct settings_group NAME = {#FIELD,                                             \
                                               offsetof(struct sim_config, FIELD),                 \
                                               offsetof(STRUCT, params),                           \
                                               true,                                               \
                                               TABLES,                                             \
                                               PLUGINS,                                            \
                                               SHAPE}

CONFIG_GROUP(config_group_sim, sim, config_sim_tables);
CONFIG_PLUGIN_GROUP(config_group_topology, topology, struct config_topology, config_topology_tables,
                    config_topology_plugins, true);
CONFIG_GROUP(config_group_links, links, config_links_tables);
CONFIG_GROUP(config_group_buffers, buffers, config_buffers_tables);
CONFIG_GROUP(config_group_router, router, config_router_tables);
CONFIG_GROUP(config_group_vcs, vcs, config_vcs_tables);
CONFIG_PLUGIN_GROUP(config_group_routing, routing, struct config_routing, config_routing_tables,
                    config_routing_plugins, false);
CONFIG_PLUGIN_GROUP(config_group_traffic, traffic, struct config_traffic, config_traffic_tables,
                    config_traffic_plugins, false);
CONFIG_GROUP(config_group_stats, stats, config_stats_tables);

/* The job plug-ins whose settings live in a job's arena. */
static const struct setting_plugins config_job_plugins[] = {
    {placement_count, placement_settings_at, NULL, NULL},
    {rank_pattern_count, rank_pattern_settings_at, NULL, NULL},
    {motif_count, motif_settings_at, NULL, NULL},
    {injection_count, injection_settings_at, NULL, NULL},
    {NULL, NULL, NULL, NULL}};

static const struct settings_list config_list_jobs = {"jobs",
                                                      offsetof(struct sim_config, jobs),
                                                      offsetof(struct sim_config, n_jobs),
                                                      sizeof(struct config_job),
                                                      CONFIG_MAX_JOBS,
                                                      "name",
                                                      job_config_tables,
                                                      job_config_reads,
                                                      job_config_check_all,
                                                      config_job_plugins,
                                                      offsetof(struct config_job, params),
                                                      sizeof(struct setting_job_arena)};

const struct settings_list *const settings_lists[] = {&config_list_jobs, NULL};

const struct settings_group *const settings_groups[] = {
    &config_group_sim,     &config_group_topology, &config_group_links,
    &config_group_buffers, &config_group_router,   &config_group_vcs,
    &config_group_routing, &config_group_traffic,  &config_group_stats,
    NULL,
};
