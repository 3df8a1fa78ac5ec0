/* fuzz_input: one fuzzing input of the config loader (a file plus --set arguments) and the
 * properties every input must keep. */
#define _GNU_SOURCE /* memfd_create: the file lives in memory, nothing is left behind */
#include "fuzz_input.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "sim.h"
#include "topology.h"
#include "workload.h"

/* Splits the input: overrides[i] point into `copy` (a NUL-terminated copy of data). */
struct fuzz_parts {
    char *copy;
    size_t file_len;
    const char *overrides[FUZZ_MAX_OVERRIDES];
    int n_overrides;
};

int fuzz_fail(char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    return -1;
}

static int fuzz_split(const uint8_t *data, size_t size, struct fuzz_parts *parts)
{
    memset(parts, 0, sizeof *parts);
    parts->copy = malloc(size + 1);
    if (!parts->copy)
        return -1;
    memcpy(parts->copy, data, size);
    parts->copy[size] = '\0';
    const char *nul = memchr(parts->copy, '\0', size);
    parts->file_len = nul ? (size_t)(nul - parts->copy) : size;
    for (size_t at = parts->file_len + 1; at <= size && parts->n_overrides < FUZZ_MAX_OVERRIDES;
         at += strlen(parts->copy + at) + 1)
        parts->overrides[parts->n_overrides++] = parts->copy + at;
    return 0;
}

/* An in-memory file holding `text`; returns its descriptor (path /proc/self/fd/N) or -1. */
static int fuzz_memfile(const char *text, size_t len)
{
    int fd = memfd_create("fuzz.cfg", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fd, text + done, len - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    return fd;
}

/* Accepted jobs place and run: the simulator builds them (the same placements the check
 * made) and a few hundred cycles keep every invariant. */
static int fuzz_check_jobs_run(const struct sim_config *cfg, char *why, size_t why_len)
{
    char err[1024];
    struct sim *sim = sim_create(cfg, err, (int)sizeof err);
    if (!sim)
        return fuzz_fail(why, why_len, "accepted, but the jobs do not build: %s", err);
    sim->check_invariants = true;
    sim->check_every = 16;
    for (int c = 0; c < 300 && sim->status == SIM_OK && !workload_finished(sim); c++)
        sim_step(sim);
    int rc = 0;
    if (sim->status != SIM_OK)
        rc = fuzz_fail(why, why_len, "accepted, but the jobs' run fails at cycle %llu: %s",
                       (unsigned long long)sim->cycle, sim->message);
    sim_destroy(sim);
    return rc;
}

/* An accepted config is valid on its own and, if small enough to build quickly, wires. */
static int fuzz_check_accepted(const struct sim_config *cfg, char *why, size_t why_len)
{
    char err[CONFIG_ERROR_LEN];
    if (config_validate(cfg, err) != 0)
        return fuzz_fail(why, why_len, "accepted, but config_validate says: %s", err);
    struct topology_dimensions size;
    topology_dimensions(cfg, &size);
    if (size.routers * size.groups > 1 << 20)
        return 0;
    struct topology t;
    if (topology_create(&t, cfg, err, (int)sizeof err) != 0)
        return fuzz_fail(why, why_len, "accepted, but the topology does not build: %s", err);
    int nodes = t.nodes;
    topology_free(&t);
    return cfg->n_jobs && nodes <= 4096 ? fuzz_check_jobs_run(cfg, why, why_len) : 0;
}

static int fuzz_check_rejected(const char *err, char *why, size_t why_len)
{
    size_t len = strnlen(err, CONFIG_ERROR_LEN);
    if (len == 0)
        return fuzz_fail(why, why_len, "rejected without a message");
    if (len == CONFIG_ERROR_LEN)
        return fuzz_fail(why, why_len, "rejected with an unterminated message");
    if (strchr(err, '\n'))
        return fuzz_fail(why, why_len, "rejected with a message of several lines: %s", err);
    return 0;
}

int fuzz_config_input(const uint8_t *data, size_t size, char *why, size_t why_len)
{
    struct fuzz_parts parts;
    if (fuzz_split(data, size, &parts) != 0)
        return fuzz_fail(why, why_len, "out of memory for the input");
    int fd = -1;
    char path[64] = "";
    if (parts.file_len > 0) {
        fd = fuzz_memfile(parts.copy, parts.file_len);
        if (fd < 0) {
            free(parts.copy);
            return fuzz_fail(why, why_len, "cannot create the in-memory config file");
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN];
    memset(err, 'x', sizeof err); /* a message must be written, not found there */
    int rc = config_load(fd >= 0 ? path : NULL, parts.overrides, parts.n_overrides, &cfg, err);
    if (rc == 0)
        rc = fuzz_check_accepted(&cfg, why, why_len);
    else if (rc == -1)
        rc = fuzz_check_rejected(err, why, why_len);
    else
        rc = fuzz_fail(why, why_len, "config_load returned %d", rc);
    if (fd >= 0)
        close(fd);
    free(parts.copy);
    return rc;
}

int fuzz_run(fuzz_harness harness, const char *name, const uint8_t *data, size_t size)
{
    char why[2048];
    if (harness(data, size, why, sizeof why) != 0) {
        fprintf(stderr, "%s: %s\n", name, why);
        abort(); /* libFuzzer keeps the input as a crash artifact */
    }
    return 0;
}
