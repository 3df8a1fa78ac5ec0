/* config: the simulation settings, read once from a libconfig file plus --set overrides,
 * checked against the schema of include/settings.h, and immutable during the run. */
#ifndef DFSIM_CONFIG_H
#define DFSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"

#define CONFIG_ERROR_LEN 1024 /* longest error message */
#define CONFIG_MAX_JOBS 16    /* jobs of one config */

/* One job of `jobs = ( { ... }, ... )` (traffic/job_config.c declares its settings and says
 * which a job reads: the chosen placement's, pattern's and process's, or motif's). */
struct config_job {
    char name[SETTING_STRING_LEN];
    int nodes;
    int placement;  /* placement_registry */
    int first_node; /* contiguous: -1 = right after the previous contiguous job */
    struct setting_int_list groups;
    int per_router; /* groups: the first per_router nodes of each router (0: all) */
    char allocation_file[SETTING_STRING_LEN];
    int pattern; /* 0 = none (a motif job), else job_config's pattern names */
    int motif;   /* 0 = none (an open-loop job), else 1 + motif_registry index */
    double load; /* open loop: phits/(node*cycle) */
    int process; /* injection_registry */
    int64_t interval_cycles, on_cycles, off_cycles;
    int offset, targets;
    int64_t message_bytes; /* 0: single packets (open loop) */
    int iterations;
    int64_t compute_cycles;
    struct setting_int_list dims;
    int root;
    bool periodic;
    int64_t allreduce_threshold;
    /* injection throttle (throttle.h) */
    int throttle; /* enum throttle_kind */
    double throttle_rate, throttle_gain, throttle_step, throttle_min_rate, delay_sensitivity;
    int throttle_bucket_packets;
    int64_t throttle_window_cycles;
    /* per-job routing mode: enum ugal_preset, 0 (none) = routing.ugal_preset's rule */
    int ugal_preset;
    /* requests and responses: each request packet is answered by a response of response_bytes
     * (0: none); nic_window request packets may await their response per node (0: any) */
    int64_t response_bytes;
    int nic_window;
    /* routing.selector per job: 0 none, 1 app_aware (JOB_SELECTOR_*) */
    int selector;
    int64_t selector_min_bytes;
    double selector_lambda, selector_sigma;
    /* closed loop: keep restarting its iterations until every closed-loop job without it is
     * done (a congestor that is there for the whole of the others' runs) */
    bool open_ended;
    /* a trace job (traffic/trace/trace_job.c): the OTF2 anchor file ("" = none), its
     * eager limit and the factor of its compute */
    char trace[SETTING_STRING_LEN];
    int64_t eager_bytes;
    double compute_scale;
    /* (0, 1], a congestor's intensity i: closed loop, after each step a rank computes
     * (1 - i) / i times the cycles that step's sends waited to leave its node; open loop, it
     * offers its load x i */
    double intensity;
};

/* One struct per config group. A plug-in is chosen by its index in its registry
 * (routing_registry[cfg->routing.mechanism]); plug-in settings (a topology kind's, a routing
 * mechanism's, a pattern's) live in the group's arena: read them with settings_params() and
 * the plug-in's table. */
struct sim_config {
    char name[128];  /* config file name without directory and ".cfg" */
    char path[4096]; /* config file as given */
    struct config_sim {
        int64_t warmup_cycles, measure_cycles, seed, deadlock_cycles, max_cycles;
        bool isolate;    /* also run each closed-loop job alone */
        double cycle_ns; /* the length of a cycle: trace timestamps, times in seconds */
    } sim;
    struct config_topology {
        int kind;        /* topology_registry */
        int p, h;        /* nodes and global links per router */
        int arrangement; /* enum topology_arrangement */
        struct setting_arena params;
    } topology;
    struct config_links {
        int local_latency, global_latency, injection_latency;
        double bandwidth_node, bandwidth_local, bandwidth_global; /* phits per cycle */
    } links;
    struct config_buffers {
        int local, global, injection, output; /* phits per VC (injection: per injection queue) */
    } buffers;
    struct config_router {
        int speedup, latency, allocator_iterations;
        int arbiter; /* arbiter_registry */
        bool transit_priority;
    } router;
    struct config_vcs {
        int local, global, injection; /* 0 in the file = what the routing's ladder needs */
    } vcs;
    struct config_routing {
        int mechanism;  /* routing_registry */
        int min_choice; /* enum min_choice: among several minimal ports */
        struct setting_arena params;
    } routing;
    struct config_traffic {
        int pattern; /* pattern_registry */
        double load;
        int packet_size;
        int phit_bytes; /* bytes of a phit: message sizes in bytes become phits */
        struct setting_arena params;
    } traffic;
    /* What a run reports beyond its figures (src/METRICS.md): the time series and the
     * steady-state verdict, the load of every link, the packet log. All off by default. */
    struct config_stats {
        int64_t sample_cycles;      /* 0: no series */
        double steady_tolerance;    /* the warm-up transient's largest share of a figure */
        double saturation_tolerance; /* accepted below offered by more than this: saturated */
        int extend_warmup;          /* times a run not steady may lengthen its warm-up */
        bool link_load;
        char packet_log[SETTING_STRING_LEN]; /* "" = none */
        double packet_log_fraction;
        struct setting_int_list packet_log_pairs; /* flat: src, dst, src, dst, ... */
    } stats;
    int n_jobs;
    struct config_job jobs[CONFIG_MAX_JOBS];
};

/* The links' bandwidths in phits per cycle, in port-class order: node, local, global. */
static inline void config_link_bandwidths(const struct sim_config *cfg, double out[3])
{
    out[0] = cfg->links.bandwidth_node;
    out[1] = cfg->links.bandwidth_local;
    out[2] = cfg->links.bandwidth_global;
}
/* Cycles one packet's crossbar transfer lasts: ceil(traffic.packet_size / router.speedup). */
static inline int config_crossbar_cycles(const struct sim_config *cfg)
{
    return (cfg->traffic.packet_size + cfg->router.speedup - 1) / cfg->router.speedup;
}
/* What one crossbar port moves, phits per cycle: a packet per config_crossbar_cycles. */
static inline double config_crossbar_bandwidth(const struct sim_config *cfg)
{
    return (double)cfg->traffic.packet_size / (double)config_crossbar_cycles(cfg);
}

/* The name of a config or sweep file: its base name without directory and ".cfg",
 * truncated to len - 1 characters. */
void config_name_from_path(const char *path, char *name, size_t len);

/* Fills every setting with its default (vcs.local/global resolved for the default routing). */
void config_set_defaults(struct sim_config *cfg);

/* Reads PATH, applies the overrides "KEY=VALUE" in order, validates. Returns 0, or -1 with
 * one line "FILE:LINE: KEY: problem (expected ...)" in err (no trailing newline).
 *
 * Layers: PATH may @include bases at its top level and then set their settings again; the
 * later value wins, key by key inside a group (as --set does), and a list (jobs) written again
 * replaces the earlier list whole. A group or list written twice in one file is refused.
 * Messages and origins name the file and line of the value that won.
 * A result document of `dfsim run` (JSON: config_doc.h) is read as the config it echoes. */
int config_load(const char *path, const char *const *overrides, int n_overrides,
                struct sim_config *cfg, char err[CONFIG_ERROR_LEN]);

/* A setting written in a file or by --set, and where its value was written. */
struct config_source {
    char key[192]; /* "traffic.load", "jobs.app.nodes" */
    char *value;   /* as a config writes it: 0.4, "min", [1, 2] */
    char *where;   /* "FILE:LINE" (the line of the value that won) or "--set KEY=VALUE" */
};

/* What config_load_sources tells besides the config. */
struct config_sources {
    bool document; /* PATH was a result document (its config read back: config_doc.h) */
    int count;
    struct config_source *items; /* the settings written, in the schema's order (those left
                                    at their default are not) */
};

/* config_load that also fills sources (NULL: as config_load); config_sources_free releases
 * them (sources are zeroed on failure). */
int config_load_sources(const char *path, const char *const *overrides, int n_overrides,
                        struct sim_config *cfg, struct config_sources *sources,
                        char err[CONFIG_ERROR_LEN]);
void config_sources_free(struct config_sources *sources);

/* Settings written that the chosen plug-ins do not read (settings_in_force), one line each,
 * "warning: WHERE: KEY = VALUE: not read by ...", and the line "note: FILE: no topology
 * group: ..." for a config that runs the default network. */
struct config_warnings {
    int count;
    char **lines;
};

/* config_load_sources that also reports settings written that the chosen topology kind,
 * routing mechanism or pattern does not read (conf/README.md): an error where the user cannot
 * have meant it (set on the command line; set in the file that chose another plug-in; no
 * plug-in chosen at all), else a warning appended to warnings (NULL: dropped), each line
 * once. lenient: every one is a warning (a sweep's points, whose variants share a base).
 * config_load_sources is strict and drops the warnings; config_load is lenient and drops
 * them (a library's reading: tests, tools). */
int config_load_warn(const char *path, const char *const *overrides, int n_overrides,
                     struct sim_config *cfg, struct config_sources *sources, bool lenient,
                     struct config_warnings *warnings, char err[CONFIG_ERROR_LEN]);
void config_warnings_free(struct config_warnings *w);

/* "KEY: unknown setting (did you mean 'NEAR'?)", or the settings of its group, or the groups. */
void config_unknown_setting(const char *full, char *problem, size_t len);

/* Validates the cross-setting constraints of an already filled config (VC counts against the
 * routing, buffers against the packet size, ...). Returns 0 or -1 with a message in err. */
int config_validate(const struct sim_config *cfg, char err[CONFIG_ERROR_LEN]);

#endif
