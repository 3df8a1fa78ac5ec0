/* sim_config: the settings of one run, a struct per config group and one per job, as the
 * loader (src/config/) fills them and the plug-ins read them. Types only: including it ties a
 * plug-in to no code. */
#ifndef DFSIM_SIM_CONFIG_H
#define DFSIM_SIM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#define SETTING_STRING_LEN 256  /* longest free-text value + 1 (file names, job names) */
#define SETTING_LIST_MAX 256    /* most elements of an integer list */
#define SETTING_ARENA_BYTES 256 /* plug-in settings of one group */

struct setting_int_list {
    int count;
    int values[SETTING_LIST_MAX];
};

/* Storage of a group's plug-in settings: each plug-in's params struct gets a slice. */
struct setting_arena {
    _Alignas(8) unsigned char bytes[SETTING_ARENA_BYTES];
};

/* Storage of a job's plug-in settings (larger than a group's: an integer list takes 1 KiB). */
#define SETTING_JOB_ARENA_BYTES 4096
struct setting_job_arena {
    _Alignas(8) unsigned char bytes[SETTING_JOB_ARENA_BYTES];
};

#define CONFIG_MAX_JOBS 16 /* jobs of one config */

/* One job of `jobs = ( { ... }, ... )`: its name, nodes, plug-in choices and the settings
 * every job reads (traffic/jobs/job_config.c); its plug-ins' own settings live in `params`,
 * declared by each plug-in (the `settings` table of its ops). */
struct config_job {
    char name[SETTING_STRING_LEN];
    int nodes;
    int placement;         /* placement_registry */
    int pattern;           /* 0 = none (a motif job), else job_config's pattern names */
    int motif;             /* 0 = none (an open-loop job), else 1 + motif_registry index */
    double load;           /* open loop: phits/(node*cycle) */
    int process;           /* injection_registry */
    int64_t message_bytes; /* 0: single packets (open loop) */
    int iterations;
    int64_t compute_cycles;
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
    /* (0, 1], a congestor's intensity i: closed loop, after each step a rank computes
     * (1 - i) / i times the cycles that step's sends waited to leave its node; open loop, it
     * offers its load x i */
    double intensity;
    /* the settings of its plug-ins (placements, rank patterns, injection processes, motifs): each
     * table a slice, read with settings_element_params() and the plug-in's table */
    struct setting_job_arena params;
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
        int64_t sample_cycles;       /* 0: no series */
        double steady_tolerance;     /* the warm-up transient's largest share of a figure */
        double saturation_tolerance; /* accepted below offered by more than this: saturated */
        int extend_warmup;           /* times a run not steady may lengthen its warm-up */
        bool link_load;
        char packet_log[SETTING_STRING_LEN]; /* "" = none */
        double packet_log_fraction;
        struct setting_int_list packet_log_pairs; /* flat: src, dst, src, dst, ... */
    } stats;
    int n_jobs;
    struct config_job jobs[CONFIG_MAX_JOBS];
};

#endif
