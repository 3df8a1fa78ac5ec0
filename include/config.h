/* config: the simulation settings, read once from a libconfig file plus --set overrides,
 * checked against the schema of include/settings.h, and immutable during the run. */
#ifndef DFSIM_CONFIG_H
#define DFSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"
#include "sim_config.h"

#define CONFIG_ERROR_LEN 1024 /* longest error message */

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
