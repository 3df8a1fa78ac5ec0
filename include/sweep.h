/* sweep: a sweep file (base config, fixed settings, axes, variants) and its expansion into
 * jobs: points, or saturation searches, each named after its values and resolved-config hash. */
#ifndef DFSIM_SWEEP_H
#define DFSIM_SWEEP_H

#include <stdbool.h>

#include "config.h"

#define SWEEP_ERROR_LEN 1536 /* longest error message */
#define SWEEP_KEY_LEN 160    /* "group.name" or "list.element.name" of a setting */
#define SWEEP_NAME_LEN 64    /* sweep and variant names */
#define SWEEP_HASH_LEN 17    /* 16 hex digits + NUL */
#define SWEEP_PATH_LEN 4096
#define SWEEP_MAX_JOBS 1000000 /* a larger grid is almost surely a mistake */
#define SWEEP_DEFAULT_TOLERANCE 0.05
#define SWEEP_DEFAULT_RESOLUTION 0.01
/* The model version (model_version.h) of the documents written before sweep documents carried
 * one: they hold the legacy hash, and are accepted (and migrated on resume) only while
 * DFSIM_MODEL_VERSION still equals this. */
#define SWEEP_LEGACY_MODEL_VERSION 1

enum sweep_value_type { SWEEP_INT, SWEEP_FLOAT, SWEEP_BOOL, SWEEP_STRING };

/* One value of an axis as written in the sweep file. */
struct sweep_value {
    enum sweep_value_type type;
    long long i;
    double f;
    bool b;
    char *s; /* SWEEP_STRING (owned) */
};

/* A setting that does not vary, kept as the override "group.name=LITERAL" of config_load. */
struct sweep_setting {
    char *override; /* owned */
    int line;       /* in the sweep file; 0 = from the command line */
};

/* Every list under `axes` is an axis: the points are their cartesian product. */
struct sweep_axis {
    char key[SWEEP_KEY_LEN]; /* "traffic.load" */
    struct sweep_value *values;
    int n_values;
    int line;
};

/* A named group of settings that move together, crossed with the axes. */
struct sweep_variant {
    char name[SWEEP_NAME_LEN]; /* "" for the implicit variant of a sweep without variants */
    struct sweep_setting *settings;
    int n_settings;
    bool saturation;   /* a bisection over traffic.load replaces the load axis */
    double tolerance;  /* saturation: accepted >= (1 - tolerance) * offered */
    double resolution; /* saturation: loads tried are multiples of this (1/n) */
    int line;
};

struct sweep {
    char name[SWEEP_NAME_LEN];
    char path[SWEEP_PATH_LEN]; /* the sweep file ("" when built from the command line) */
    char base[SWEEP_PATH_LEN]; /* the base config, as a path usable from the working dir */
    int base_line;
    struct sweep_setting *set;
    int n_set;
    struct sweep_axis *axes;
    int n_axes;
    struct sweep_variant *variants; /* at least one */
    int n_variants;
};

/* A unit of work: one point, or one saturation search (a variant with saturation = true). */
struct sweep_job {
    int variant;
    int *choice;               /* per axis: index of its value, -1 if the axis does not apply */
    char hash[SWEEP_HASH_LEN]; /* of the resolved config (a search: at traffic.load = 0) */
    char *file;                /* relative to the output dir: "VARIANT/STEM_HASH.json"; a
                                  search: "VARIANT/STEM", its steps STEM_load<L>_HASH.json */

    /* hash by sweep_config_hash_legacy, to know documents of an earlier dfsim; "" once the
     * model version has moved on */
    char legacy_hash[SWEEP_HASH_LEN];
};

struct sweep_grid {
    struct sweep_job *jobs; /* variant-major, then the axes in file order, the last fastest */
    int n_jobs;
    int *choices; /* storage of every job's choice */
    /* Settings its points write that their plug-ins do not read (config_load_warn, lenient:
     * a warning, never an error), each distinct line once for the whole grid. */
    struct config_warnings warnings;
};

/* Reads and checks a sweep file. Returns 0, or -1 with "FILE:LINE: KEY: problem (expected
 * ...)" in err. */
int sweep_load(const char *path, struct sweep *sw, char err[SWEEP_ERROR_LEN]);

/* A sweep of one implicit variant without axes: base CONFIG plus the --set overrides
 * (`dfsim saturation`). Returns 0 or -1 with a message. */
/* Adds a fixed setting "group.name=VALUE" from the command line to every point (after the
file's `set`, so it wins); 0 or -1 (memory). */
int sweep_add_override(struct sweep *sw, const char *override);
int sweep_init_single(struct sweep *sw, const char *name, const char *config,
                      const char *const *overrides, int n, char err[SWEEP_ERROR_LEN]);

void sweep_free(struct sweep *sw);

/* Expands the grid, resolving and validating the config of every job. Returns 0, or -1 with
 * the first invalid point's error in err. */
int sweep_expand(const struct sweep *sw, struct sweep_grid *grid, char err[SWEEP_ERROR_LEN]);
void sweep_grid_free(struct sweep_grid *grid);

/* The resolved config of a job; `load` (if not NULL) overrides traffic.load last (saturation
 * steps). Returns 0 or -1 with the error located in the sweep file when it comes from it. */
int sweep_job_config(const struct sweep *sw, const struct sweep_job *job, const double *load,
                     struct sim_config *cfg, char err[SWEEP_ERROR_LEN]);

bool sweep_job_is_search(const struct sweep *sw, const struct sweep_job *job);

/* A point's identity: FNV-1a 64, as 16 hex digits, of "model_version=N" and then, sorted
 * bytewise, the lines "name=value" of the settings of cfg that differ from their defaults
 * (sweep_identity_lines), each line ended by a NUL byte. A setting at its default does not
 * count, so adding a setting leaves every hash unchanged; the schema's order does not count
 * either. Returns 0, or -1 (out of memory) with out "". */
int sweep_config_hash(const struct sim_config *cfg, char out[SWEEP_HASH_LEN]);
/* The same for another model version than DFSIM_MODEL_VERSION. */
int sweep_config_hash_at(const struct sim_config *cfg, int model_version, char out[SWEEP_HASH_LEN]);
/* The lines the hash covers: "group.name=value" (values as settings_format writes them
 * unquoted, doubles with 17 digits), "list[i].key=value" for an element's settings and
 * "list.count=N" for a list with elements, in schema order. Returns their number with a
 * malloc'd array in *lines (free with sweep_identity_free), or -1. */
int sweep_identity_lines(const struct sim_config *cfg, const char ***lines);
void sweep_identity_free(const char **lines, int n);
/* The hash of the given lines (sorted in place first) and model version. */
void sweep_identity_hash(const char **lines, int n, int model_version, char out[SWEEP_HASH_LEN]);

/* LEGACY: the hash that documents written before model versions carry: FNV-1a 64 of
 * "group.name=value\n" of every setting in schema order, quiet_default ones skipped at their
 * default, limited to the settings that release had. Kept only to recognize those documents;
 * returns -1 with out "" when model_version is not SWEEP_LEGACY_MODEL_VERSION. */
int sweep_config_hash_legacy(const struct sim_config *cfg, int model_version,
                             char out[SWEEP_HASH_LEN]);

/* The file an old document of point job has: its file named after its legacy hash. False for
 * a search or without a legacy hash. */
bool sweep_job_legacy_file(const struct sweep_job *job, char *out, size_t len);

/* The file of a saturation step at `load` with config hash `hash`, relative to the dir. */
void sweep_step_file(const struct sweep_job *job, double load, const char *hash, char *out,
                     size_t len);

/* Writes the axis values of a job as "key=value key=value" (for listings and messages). */
void sweep_job_describe(const struct sweep *sw, const struct sweep_job *job, char *out, size_t len);

/* The literal of a value as config_load's --set accepts it (strings quoted). */
void sweep_value_literal(const struct sweep_value *v, char *out, size_t len);

#endif
