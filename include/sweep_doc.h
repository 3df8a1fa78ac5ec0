/* sweep_doc: the point documents of a sweep: the result document (src/METRICS.md) plus a
 * "sweep" object, written atomically, read back and listed from an output directory. */
#ifndef DFSIM_SWEEP_DOC_H
#define DFSIM_SWEEP_DOC_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"

/* The "sweep" object of job j: name, variant, point (one entry per axis, native types), hash,
 * model_version (DFSIM_MODEL_VERSION), index; for a saturation step (load != NULL) also
 * "saturation": {tolerance, resolution, load}. NULL on allocation failure. */
cJSON *sweep_doc_meta(const struct sweep *sw, const struct sweep_grid *grid, int j,
                      const char *hash, const double *load);

/* A rendered result document with `meta` appended as its last member "sweep" (the rest stays
 * byte for byte). Caller frees; NULL on failure. */
char *sweep_doc_attach(const char *doc, const cJSON *meta);

/* Writes text to DIR/FILE through a hidden temporary file in the same directory (fsync, then
 * rename), creating the directories. Returns 0 or -1 with a message. */
int sweep_doc_write(const char *dir, const char *file, const char *text, char *err, size_t len);

/* Replaces the "sweep" object of the document at DIR/FILE (atomically). Returns 0 or -1. */
int sweep_doc_replace_meta(const char *dir, const char *file, const cJSON *meta, char *err,
                           size_t len);
/* The document at FROM_DIR/FROM written to DIR/FILE (atomically) with `meta` as its "sweep"
 * object, the rest byte for byte; then FROM_DIR/FROM removed if it is another file. Returns 0
 * or -1 with a message. */
int sweep_doc_rewrite(const char *from_dir, const char *from, const char *dir, const char *file,
                      const cJSON *meta, char *err, size_t len);

/* Reads a whole file (caller frees); NULL if it cannot be read. */
char *sweep_doc_read_text(const char *path);

/* The parsed document at DIR/FILE, or NULL if missing or not valid JSON. */
cJSON *sweep_doc_load(const char *dir, const char *file);

/* The document's sweep.hash equals `hash`. */
bool sweep_doc_has_hash(const cJSON *doc, const char *hash);
/* A document of an earlier dfsim (no sweep.model_version) whose sweep.hash is legacy_hash
 * (sweep_config_hash_legacy); false when legacy_hash is "". */
bool sweep_doc_is_legacy(const cJSON *doc, const char *legacy_hash);

/* A number at a dotted path ("load.accepted"); NAN if missing or not a number. */
double sweep_doc_number(const cJSON *doc, const char *path);
/* Whether the document has a member at that dotted path (null included). */
bool sweep_doc_has(const cJSON *doc, const char *path);

/* Creates DIR and its parents. Returns 0 or -1 with errno set. */
int sweep_doc_mkdirs(const char *dir);

/* Calls visit(ctx, file) for every point document candidate of DIR: DIR/NAME.json and
 * DIR/SUB/NAME.json, in name order, without hidden names and DIR/sweep.json. Returns the
 * first non-zero value of visit, or -1 if DIR cannot be read. */
int sweep_doc_scan(const char *dir, int (*visit)(void *ctx, const char *file), void *ctx);

#endif
