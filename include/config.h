/* config: the simulation settings, read once from a libconfig file plus --set overrides,
 * validated against one schema table, and immutable during the run. */
#ifndef DFSIM_CONFIG_H
#define DFSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONFIG_NAME_LEN 32      /* longest name value (routing mechanism, pattern, ...) + 1 */
#define CONFIG_ERROR_LEN 1024   /* longest error message */

struct sim_config {
    char name[128];     /* config file name without directory and ".cfg" */
    char path[4096];    /* config file as given */
    struct {
        int64_t warmup_cycles, measure_cycles, seed, deadlock_cycles;
    } sim;
    struct {
        int p, a, h;
        char arrangement[CONFIG_NAME_LEN]; /* "palmtree" | "consecutive" */
    } topology;
    struct {
        int local_latency, global_latency, injection_latency;
    } links;
    struct {
        int local, global, injection, output; /* phits per VC (injection: per injection queue) */
    } buffers;
    struct {
        int speedup, latency, allocator_iterations;
        char arbiter[CONFIG_NAME_LEN]; /* arbiter_registry name */
        bool transit_priority;
    } router;
    struct {
        int local, global, injection; /* 0 in the file = what the routing's ladder needs */
    } vcs;
    struct {
        char mechanism[CONFIG_NAME_LEN];      /* routing_registry name */
        char valiant_target[CONFIG_NAME_LEN]; /* "group" | "router" */
        char global_policy[CONFIG_NAME_LEN];  /* "crg" | "rrg" | "nrg" | "mm" */
        int pb_coef, pb_local_threshold, pb_global_threshold;
        int misroute_threshold, th_min, global_congestion_coef, global_congestion_threshold;
    } routing;
    struct {
        char pattern[CONFIG_NAME_LEN]; /* pattern_registry name */
        double load;
        int offset, packet_size;
    } traffic;
};

enum config_type { CONFIG_INT, CONFIG_INT64, CONFIG_DOUBLE, CONFIG_BOOL, CONFIG_NAME };

/* One row per setting: drives parsing, validation, defaults, the "config" object of the
 * result document and the README table. */
struct config_setting_desc {
    const char *group, *name; /* "traffic", "load" -> traffic.load */
    enum config_type type;
    size_t offset;            /* offsetof(struct sim_config, ...) */
    double def;               /* default of numeric and bool settings */
    const char *def_name;     /* default of name settings */
    double min, max;          /* inclusive range of numeric settings */
    const char *const *(*names)(void); /* allowed values of name settings, NULL-terminated */
    const char *doc;          /* one line for the README table */
};

extern const struct config_setting_desc config_schema[];
extern const size_t config_schema_count;

/* The name of a config or sweep file: its base name without directory and ".cfg",
 * truncated to len - 1 characters. */
void config_name_from_path(const char *path, char *name, size_t len);

/* Fills every setting with its default (vcs.local/global resolved for the default routing). */
void config_set_defaults(struct sim_config *cfg);

/* Reads PATH, applies the overrides "KEY=VALUE" in order, validates. Returns 0, or -1 with
 * one line "FILE:LINE: KEY: problem (expected ...)" in err (no trailing newline). */
int config_load(const char *path, const char *const *overrides, int n_overrides,
                struct sim_config *cfg, char err[CONFIG_ERROR_LEN]);

/* Validates the cross-setting constraints of an already filled config (VC counts against the
 * routing, buffers against the packet size, ...). Returns 0 or -1 with a message in err. */
int config_validate(const struct sim_config *cfg, char err[CONFIG_ERROR_LEN]);

#endif
