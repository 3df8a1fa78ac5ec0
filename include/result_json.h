/* result_json: the result document (src/METRICS.md), built with cJSON from its table
 * (result_schema.h) and written atomically (temporary file in the same directory, then rename). */
#ifndef DFSIM_RESULT_JSON_H
#define DFSIM_RESULT_JSON_H

#include <stdbool.h>

struct sim_config;
struct result;

/* Returns the pretty-printed document (caller frees) or NULL on allocation failure. When
 * include_timing is false the "timing" object is left out (for determinism comparisons). */
char *result_json_render(const struct sim_config *cfg, const struct result *res,
                         bool include_timing);

/* Writes the document to PATH atomically; returns 0, or -1 with a message in err. */
int result_json_write(const char *path, const struct sim_config *cfg, const struct result *res,
                      char *err, int err_len);

#endif
