/* fuzz_sweep_input: one fuzzing input of the sweep loader (a sweep file) and the properties
 * every input must keep. The sweep lives in a private directory laid out like conf/: the
 * file is sweeps/fuzz.cfg and the bases the shipped sweeps name (../default.cfg,
 * ../paper_h6.cfg) are copies of the repository's, so mutated real sweeps reach expansion. */
#include "fuzz_input.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"
#include "text_file.h"

#define FUZZ_SWEEP_MAX_EXPANDED 64 /* larger grids are checked up to sweep_load only */

static char fuzz_sweep_dir[64];

static int fuzz_sweep_write(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t done = fwrite(data, 1, size, f);
    return fclose(f) == 0 && done == size ? 0 : -1;
}

static int fuzz_sweep_copy(const char *from, const char *to)
{
    size_t len;
    char err[512];
    char *text = text_file_read(from, &len, err, sizeof err);
    int rc = text ? fuzz_sweep_write(to, text, len) : -1;
    free(text);
    return rc;
}

static void fuzz_sweep_remove_dir(void)
{
    static const char *const files[] = {"sweeps/fuzz.cfg", "default.cfg", "paper_h6.cfg", "sweeps",
                                        ""};
    char path[128];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", fuzz_sweep_dir, files[i]);
        remove(path);
    }
}

/* The private directory, made once per process (run from the repository root). */
static int fuzz_sweep_setup(void)
{
    if (fuzz_sweep_dir[0])
        return 0;
    char dir[] = "/tmp/dfsim-fuzz-sweep-XXXXXX", path[128];
    if (!mkdtemp(dir))
        return -1;
    snprintf(fuzz_sweep_dir, sizeof fuzz_sweep_dir, "%s", dir);
    atexit(fuzz_sweep_remove_dir);
    snprintf(path, sizeof path, "%s/sweeps", dir);
    if (mkdir(path, 0700) != 0)
        return -1;
    static const char *const bases[] = {"default.cfg", "paper_h6.cfg"};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        char from[64];
        snprintf(from, sizeof from, "conf/%s", bases[i]);
        snprintf(path, sizeof path, "%s/%s", dir, bases[i]);
        if (fuzz_sweep_copy(from, path) != 0)
            return -1;
    }
    return 0;
}

/* Jobs the grid would have (capped), to keep expansion fast. */
static long long fuzz_sweep_points(const struct sweep *sw)
{
    long long per_variant = 1;
    for (int a = 0; a < sw->n_axes && per_variant <= FUZZ_SWEEP_MAX_EXPANDED; a++)
        per_variant *= sw->axes[a].n_values;
    return per_variant * sw->n_variants;
}

/* An expanded grid: every job has a result file of its own. */
static int fuzz_sweep_check_grid(const struct sweep_grid *g, char *why, size_t why_len)
{
    if (g->n_jobs < 1)
        return fuzz_fail(why, why_len, "expanded into %d jobs", g->n_jobs);
    for (int j = 0; j < g->n_jobs; j++) {
        if (!g->jobs[j].file || !g->jobs[j].file[0])
            return fuzz_fail(why, why_len, "job %d has no result file", j);
        for (int k = 0; k < j; k++)
            if (strcmp(g->jobs[j].file, g->jobs[k].file) == 0)
                return fuzz_fail(why, why_len, "jobs %d and %d both write %s", k, j,
                                 g->jobs[j].file);
    }
    return 0;
}

/* A failure's message: written, terminated and, from sweep_load (whole_line), one line that
 * starts with the sweep file's path (sweep_expand may add a second line naming the point). */
static int fuzz_sweep_check_error(const char *stage, bool whole_line, const char *err,
                                  const char *path, char *why, size_t why_len)
{
    size_t len = strnlen(err, SWEEP_ERROR_LEN);
    if (len == 0)
        return fuzz_fail(why, why_len, "%s failed without a message", stage);
    if (len == SWEEP_ERROR_LEN)
        return fuzz_fail(why, why_len, "%s failed with an unterminated message", stage);
    if (whole_line && strncmp(err, path, strlen(path)) != 0)
        return fuzz_fail(why, why_len, "%s's message does not name the file: %s", stage, err);
    if (whole_line && strchr(err, '\n'))
        return fuzz_fail(why, why_len, "%s's message has several lines: %s", stage, err);
    return 0;
}

int fuzz_sweep_input(const uint8_t *data, size_t size, char *why, size_t why_len)
{
    if (fuzz_sweep_setup() != 0)
        return fuzz_fail(why, why_len, "cannot set up %s (run from the repository root)",
                         fuzz_sweep_dir[0] ? fuzz_sweep_dir : "the fuzz directory");
    char path[128];
    snprintf(path, sizeof path, "%s/sweeps/fuzz.cfg", fuzz_sweep_dir);
    if (fuzz_sweep_write(path, data, size) != 0)
        return fuzz_fail(why, why_len, "cannot write %s", path);
    struct sweep sw;
    char err[SWEEP_ERROR_LEN];
    memset(err, 'x', sizeof err); /* a message must be written, not found there */
    if (sweep_load(path, &sw, err) != 0)
        return fuzz_sweep_check_error("sweep_load", true, err, path, why, why_len);
    int rc = 0;
    if (fuzz_sweep_points(&sw) <= FUZZ_SWEEP_MAX_EXPANDED) {
        struct sweep_grid g;
        memset(err, 'x', sizeof err);
        if (sweep_expand(&sw, &g, err) != 0) {
            rc = fuzz_sweep_check_error("sweep_expand", false, err, path, why, why_len);
        } else {
            rc = fuzz_sweep_check_grid(&g, why, why_len);
            sweep_grid_free(&g);
        }
    }
    sweep_free(&sw);
    return rc;
}
