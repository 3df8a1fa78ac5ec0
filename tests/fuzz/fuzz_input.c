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
#include "event_wheel.h"
#include "job_config.h"
#include "point.h"
#include "sim.h"
#include "stats.h"
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

/* An accepted config is valid on its own and, with at most 128 routers, wires. Larger ones
 * are not built here: building route tables of routers x routers entries under the fuzzer's
 * comparison tracing took 86 % of this harness's time (a 576-router cascade, 0.7 s an input),
 * and the tests build every shipped network, large ones included. */
static int fuzz_check_accepted(const struct sim_config *cfg, char *why, size_t why_len)
{
    char err[CONFIG_ERROR_LEN];
    if (config_validate(cfg, err) != 0)
        return fuzz_fail(why, why_len, "accepted, but config_validate says: %s", err);
    struct topology_dimensions size;
    topology_dimensions(cfg, &size);
    if ((int64_t)size.routers * size.routers > 1 << 14)
        return 0;
    struct topology t;
    if (topology_create(&t, cfg, err, (int)sizeof err) != 0)
        return fuzz_fail(why, why_len, "accepted, but the topology does not build: %s", err);
    topology_free(&t);
    return 0; /* running it is fuzz_run_input's */
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

/* A loaded input: its config (when rc is 0) and the in-memory file it came from, open as long
 * as the config is used (allocation files are found from the file's folder, /proc/self/fd). */
struct fuzz_loaded {
    struct fuzz_parts parts;
    int fd;
    char path[64];
    int rc; /* config_load's */
    char err[CONFIG_ERROR_LEN];
    struct sim_config cfg;
};

/* Loads the input into ld; returns 0 (ld->rc says how the load went) or -1 with why. */
static int fuzz_load(const uint8_t *data, size_t size, struct fuzz_loaded *ld, char *why,
                     size_t why_len)
{
    ld->fd = -1;
    ld->path[0] = '\0';
    if (fuzz_split(data, size, &ld->parts) != 0)
        return fuzz_fail(why, why_len, "out of memory for the input");
    if (ld->parts.file_len > 0) {
        ld->fd = fuzz_memfile(ld->parts.copy, ld->parts.file_len);
        if (ld->fd < 0) {
            free(ld->parts.copy);
            return fuzz_fail(why, why_len, "cannot create the in-memory config file");
        }
        snprintf(ld->path, sizeof ld->path, "/proc/self/fd/%d", ld->fd);
    }
    memset(ld->err, 'x', sizeof ld->err); /* a message must be written, not found there */
    ld->rc = config_load(ld->fd >= 0 ? ld->path : NULL, ld->parts.overrides, ld->parts.n_overrides,
                         &ld->cfg, ld->err);
    return 0;
}

static void fuzz_unload(struct fuzz_loaded *ld)
{
    if (ld->fd >= 0)
        close(ld->fd);
    free(ld->parts.copy);
}

int fuzz_config_input(const uint8_t *data, size_t size, char *why, size_t why_len)
{
    struct fuzz_loaded ld;
    if (fuzz_load(data, size, &ld, why, why_len) != 0)
        return -1;
    int rc;
    if (ld.rc == 0)
        rc = fuzz_check_accepted(&ld.cfg, why, why_len);
    else if (ld.rc == -1)
        rc = fuzz_check_rejected(ld.err, why, why_len);
    else
        rc = fuzz_fail(why, why_len, "config_load returned %d", ld.rc);
    fuzz_unload(&ld);
    return rc;
}

/* ---- running it ---- */

/* What the run harness simulates: networks of at most FUZZ_RUN_SIZE nodes and routers (a
 * large cascade takes 100 ms to build) whose buffers, event wheel and latency histogram fit
 * in FUZZ_RUN_BYTES, for FUZZ_RUN_CYCLES cycles, fewer on costlier networks (FUZZ_RUN_WORK in
 * all: fuzz_run_cost), and not at all where that leaves fewer than FUZZ_RUN_MIN_CYCLES; the
 * invariant recount runs every FUZZ_RUN_CHECK_EVERY cycles. Measured in the fuzzing build, a
 * network of 252 ports and 72 nodes (p=2 a=4 h=2) saturated by in_transit takes 0.37 ms a
 * cycle, half of it the recount, and one with packets of 1 phit 2.9 ms: most accepted inputs
 * take a few ms, the heaviest seeds 40 to 80 ms, ugal_g on a cascade 150 ms (it weighs global
 * candidates for every packet). */
#define FUZZ_RUN_SIZE 400
#define FUZZ_RUN_BYTES (128.0 * 1024 * 1024)
#define FUZZ_RUN_CYCLES 300
#define FUZZ_RUN_MIN_CYCLES 30
#define FUZZ_RUN_WORK 50000
#define FUZZ_RUN_CHECK_EVERY 8

/* The cost of a cycle on topology t: a unit per port (the allocator's and the recount's
 * walks) and 16 per packet the nodes may inject (routing it, moving it, recounting it). */
static double fuzz_run_cost(const struct sim_config *cfg, const struct topology *t)
{
    return topology_port_base(t, t->routers) +
           16.0 * t->nodes * cfg->links.bandwidth_node / cfg->traffic.packet_size;
}

/* An upper bound of the bytes sim_create allocates for cfg on topology t: every port with the
 * most VCs and the largest buffer, the event wheel (twice the longest delay: a packet's
 * latencies and two serializations on the slowest link) and the latency histogram (a bin per
 * cycle of the longest run). */
static double fuzz_run_bytes(const struct sim_config *cfg, const struct topology *t)
{
    const struct config_buffers *b = &cfg->buffers;
    const struct config_links *l = &cfg->links;
    double size = cfg->traffic.packet_size, buffer = b->injection;
    buffer = buffer > b->local ? buffer : b->local;
    buffer = buffer > b->global ? buffer : b->global;
    double ports = topology_port_base(t, t->routers), vcs = 16; /* the most a port may have */
    double buffers = ports * (vcs * ((buffer / size + 1) * 4 + 64) + (b->output / size + 1) * 4);
    double slowest = l->bandwidth_node;
    slowest = slowest < l->bandwidth_local ? slowest : l->bandwidth_local;
    slowest = slowest < l->bandwidth_global ? slowest : l->bandwidth_global;
    double delay = (double)l->global_latency + l->local_latency + l->injection_latency +
                   cfg->router.latency + 2 * (size / slowest + 1) + size + 2;
    double cycles = (double)cfg->sim.warmup_cycles + (double)cfg->sim.measure_cycles;
    if (cfg->n_jobs && cfg->sim.max_cycles > cycles)
        cycles = (double)cfg->sim.max_cycles;
    double bytes = buffers + 2 * delay * sizeof(struct event_bucket) + cycles * 4;
    /* stats.*: the series' samples (arrays that double: twice their size at most) and second
     * histogram, a counter per link. */
    if (cfg->stats.sample_cycles > 0)
        bytes += 2 * (cycles / (double)cfg->stats.sample_cycles + 1) *
                     (sizeof(struct stats_sample) + cfg->n_jobs * sizeof(struct stats_job_sample)) +
                 cycles * 4;
    if (cfg->stats.link_load)
        bytes += ports * 8;
    return bytes;
}

/* Runs cfg as dfsim run does (point_run: the run, its summary and, with sim.isolate, each
 * closed-loop job again alone), with the invariant recount on. */
static int fuzz_check_point(const struct sim_config *cfg, char *why, size_t why_len)
{
    struct point_options opt = {.check_invariants = true, .check_every = FUZZ_RUN_CHECK_EVERY};
    struct result res;
    struct point_outcome out;
    int rc = 0;
    if (point_run(cfg, &opt, &res, &out) != SIM_OK)
        rc = fuzz_fail(why, why_len, "accepted, but the run fails at cycle %llu of %llu: %s",
                       (unsigned long long)out.cycle, (unsigned long long)out.total_cycles,
                       out.message);
    result_free(&res);
    return rc;
}

/* Simulates an accepted config with the invariant recount on: a run that fits in its share of
 * cycles (isolated reruns included) whole, as dfsim run does; a longer one for that share. */
static int fuzz_check_run(const struct sim_config *cfg, char *why, size_t why_len)
{
    struct topology_dimensions size;
    topology_dimensions(cfg, &size);
    if (size.nodes + size.routers > FUZZ_RUN_SIZE)
        return 0;
    char err[1024];
    struct topology t;
    if (topology_create(&t, cfg, err, (int)sizeof err) != 0)
        return fuzz_fail(why, why_len, "accepted, but the topology does not build: %s", err);
    double bytes = fuzz_run_bytes(cfg, &t);
    long long cycles = (long long)(FUZZ_RUN_WORK / fuzz_run_cost(cfg, &t));
    topology_free(&t);
    if (bytes > FUZZ_RUN_BYTES || cycles < FUZZ_RUN_MIN_CYCLES)
        return 0;
    cycles = cycles < FUZZ_RUN_CYCLES ? cycles : FUZZ_RUN_CYCLES;
    /* The run's length as sim_create sets it: closed-loop jobs end it, or sim.max_cycles. */
    long long total = cfg->sim.warmup_cycles + cfg->sim.measure_cycles, runs = 1;
    for (int j = 0; j < cfg->n_jobs; j++)
        if (job_is_closed_loop(&cfg->jobs[j])) {
            total = cfg->sim.max_cycles;
            runs += cfg->sim.isolate;
        }
    if (total * runs <= cycles)
        return fuzz_check_point(cfg, why, why_len);
    struct sim *sim = sim_create(cfg, err, (int)sizeof err);
    if (!sim)
        return fuzz_fail(why, why_len, "accepted, but the run does not build: %s", err);
    sim->check_invariants = true;
    sim->check_every = FUZZ_RUN_CHECK_EVERY;
    while ((long long)sim->net.cycle < cycles && sim->net.status == SIM_OK &&
           !(sim->workload && workload_finished(sim->workload)))
        sim_step(sim);
    int rc = 0;
    if (sim->net.status != SIM_OK)
        rc = fuzz_fail(why, why_len, "accepted, but the run fails at cycle %llu: %s",
                       (unsigned long long)sim->net.cycle, sim->net.message);
    sim_destroy(sim);
    return rc;
}

int fuzz_run_input(const uint8_t *data, size_t size, char *why, size_t why_len)
{
    struct fuzz_loaded ld;
    if (fuzz_load(data, size, &ld, why, why_len) != 0)
        return -1;
    /* Rejections are fuzz_config_input's to check. A run writes no packet log: the fuzzer
     * writes no file. */
    ld.cfg.stats.packet_log[0] = '\0';
    int rc = ld.rc == 0 ? fuzz_check_run(&ld.cfg, why, why_len) : 0;
    fuzz_unload(&ld);
    return rc;
}

int fuzz_entry(fuzz_harness harness, const char *name, const uint8_t *data, size_t size)
{
    char why[2048];
    if (harness(data, size, why, sizeof why) != 0) {
        fprintf(stderr, "%s: %s\n", name, why);
        abort(); /* libFuzzer keeps the input as a crash artifact */
    }
    return 0;
}
