/* trace_job: the trace job's settings, checks and assembly (see trace_job.h). */
#include "trace_job.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sim_config.h"
#include "motif.h"
#include "text_file.h"
#include "trace_digest.h"
#include "trace_reader.h"

static int trace_job_check(const struct sim_config *cfg, const void *params,
                           struct setting_issue *issue);

static const struct setting trace_job_rows[] = {
    {.name = "trace",
     .type = SETTING_STRING,
     .offset = offsetof(struct trace_job_settings, trace),
     .def_text = "",
     .doc = "closed loop: replay this OTF2 trace (its anchor file traces.otf2; absolute, or "
            "relative to the folder of the config file it is written in); rank r on the r-th "
            "of the job's nodes",
     .is_path = true,
     .quiet_default = true,
     .digest = trace_job_digest},
    SETTING_QUIET_NUMBER(struct trace_job_settings, SETTING_INT64, "eager_bytes", eager_bytes,
                         TRACE_EAGER_BYTES, 0, SETTING_UNBOUNDED_INT64,
                         "trace: messages of fewer bytes go at once, larger ones as a rendezvous "
                         "(request, clear-to-send, data)"),
    SETTING_QUIET_NUMBER(struct trace_job_settings, SETTING_DOUBLE, "compute_scale", compute_scale, 1, 0,
                         1e6,
                         "trace: factor of the time between MPI calls (0: communication only)"),
};

const struct setting_table trace_job_settings = {
    "jobs",          "trace", trace_job_rows, (int)(sizeof trace_job_rows / sizeof trace_job_rows[0]),
    sizeof(struct trace_job_settings), trace_job_check};

const struct trace_job_settings *trace_job_settings_of(const struct config_job *job)
{
    return settings_element_params(settings_list_named("jobs"), job, &trace_job_settings);
}

bool trace_job_is(const struct config_job *job)
{
    return trace_job_settings_of(job)->trace[0] != '\0';
}

/* A trace's allreduce picks its algorithm as the allreduce motif does, by its setting. */
static uint64_t trace_job_allreduce_threshold(const struct config_job *job)
{
    const void *own =
        settings_element_params(settings_list_named("jobs"), job, motif_allreduce.settings);
    return own ? motif_allreduce_threshold_of(own) : TRACE_ALLREDUCE_THRESHOLD;
}

bool trace_job_chooses(const char *key)
{
    return strcmp(key, trace_job_rows[0].name) == 0;
}

bool trace_job_key(const char *key)
{
    for (int i = 0; i < trace_job_settings.count; i++)
        if (strcmp(trace_job_rows[i].name, key) == 0)
            return true;
    return false;
}

void trace_job_path(const struct sim_config *cfg, const char *trace, char *out, size_t len)
{
    char dir[4096];
    text_file_folder(cfg->path, dir, sizeof dir);
    if (trace[0] == '/' || !dir[0])
        snprintf(out, len, "%s", trace);
    else
        snprintf(out, len, "%s/%s", dir, trace);
}

int trace_job_digest(const struct sim_config *cfg, const char *trace, uint64_t *out)
{
    char path[4096 + SETTING_STRING_LEN + 2];
    trace_job_path(cfg, trace, path, sizeof path);
    return trace_digest(path, out);
}

/* The programs read in this process, each kept until the process ends: the config check reads
 * a trace and every run of the config (the point, its runs alone, a sweep's points) reuses it.
 * Keyed by the anchor's path, the archive's digest (an archive rewritten in place is read
 * anew) and the allreduce threshold the decomposition used. */
struct trace_job_cached {
    char path[4096 + SETTING_STRING_LEN + 2];
    uint64_t digest, allreduce_threshold;
    struct trace_program program;
};
static struct trace_job_cached **trace_job_cache;
static int trace_job_cached_count;

static const struct trace_program *trace_job_cache_find(const char *path, uint64_t digest,
                                                        uint64_t threshold)
{
    for (int i = 0; i < trace_job_cached_count; i++) {
        const struct trace_job_cached *c = trace_job_cache[i];
        if (c->digest == digest && c->allreduce_threshold == threshold &&
            strcmp(c->path, path) == 0)
            return &c->program;
    }
    return NULL;
}

const struct trace_program *trace_job_program(const struct sim_config *cfg,
                                              const struct config_job *job, char *err,
                                              size_t err_len)
{
    char path[4096 + SETTING_STRING_LEN + 2];
    trace_job_path(cfg, trace_job_settings_of(job)->trace, path, sizeof path);
    uint64_t threshold = trace_job_allreduce_threshold(job), digest = 0;
    /* an anchor that cannot be read is the reader's to report */
    bool digested = trace_digest(path, &digest) == 0;
    const struct trace_program *known =
        digested ? trace_job_cache_find(path, digest, threshold) : NULL;
    if (known)
        return known;
    size_t slots = (size_t)trace_job_cached_count + 1;
    struct trace_job_cached **bigger = realloc(trace_job_cache, slots * sizeof *bigger);
    if (bigger)
        trace_job_cache = bigger;
    struct trace_job_cached *c = bigger ? calloc(1, sizeof *c) : NULL;
    if (!c) {
        snprintf(err, err_len, "%s: out of memory", path);
        return NULL;
    }
    if (trace_read(path, threshold, &c->program, err, err_len) != 0) {
        free(c);
        return NULL;
    }
    char why[400];
    if (trace_program_check_matching(&c->program, why, sizeof why) != 0) {
        snprintf(err, err_len, "%s: %s", path, why);
        trace_program_free(&c->program);
        free(c);
        return NULL;
    }
    if (!digested) { /* read, yet not digested (it changed meanwhile): not kept */
        snprintf(err, err_len, "%s: the trace's files changed while they were read", path);
        trace_program_free(&c->program);
        free(c);
        return NULL;
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    c->digest = digest;
    c->allreduce_threshold = threshold;
    trace_job_cache[trace_job_cached_count++] = c;
    return &c->program;
}

void trace_job_programs_release(void)
{
    for (int i = 0; i < trace_job_cached_count; i++) {
        trace_program_free(&trace_job_cache[i]->program);
        free(trace_job_cache[i]);
    }
    free(trace_job_cache);
    trace_job_cache = NULL;
    trace_job_cached_count = 0;
}

void trace_job_params(const struct sim_config *cfg, const struct config_job *job,
                      struct trace_replay_params *out)
{
    const struct trace_job_settings *own = trace_job_settings_of(job);
    trace_replay_params_default(out);
    out->eager_bytes = (uint64_t)own->eager_bytes;
    out->compute_scale = own->compute_scale;
    out->cycle_ns = cfg->sim.cycle_ns;
}

static int trace_job_issue(const struct config_job *job, struct setting_issue *issue,
                           const char *key)
{
    snprintf(issue->names[0], sizeof issue->names[0], "jobs.%.63s.%s", job->name, key);
    issue->key = issue->alt = issue->names[0];
    return -1;
}

/* A trace job has neither a pattern nor a motif, its trace reads, every receive has its send,
 * and its nodes hold its ranks. */
static int trace_job_check(const struct sim_config *cfg, const void *params,
                           struct setting_issue *issue)
{
    const struct config_job *job = params;
    if (!trace_job_is(job))
        return 0;
    if (job->pattern > 0 || job->motif > 0) {
        snprintf(issue->text, sizeof issue->text,
                 "a trace job has no %s (expected either trace = \"...\" or a %s)",
                 job->motif > 0 ? "motif" : "pattern", job->motif > 0 ? "motif" : "pattern");
        return trace_job_issue(job, issue, "trace");
    }
    char err[sizeof issue->text - 16];
    const struct trace_program *program = trace_job_program(cfg, job, err, sizeof err);
    if (!program) {
        snprintf(issue->text, sizeof issue->text, "%s", err);
        return trace_job_issue(job, issue, "trace");
    }
    int ranks = program->nranks;
    if (ranks > job->nodes) {
        snprintf(issue->text, sizeof issue->text,
                 "the trace has %d ranks and the job %d nodes (expected nodes >= %d: rank r "
                 "runs on the job's r-th node)",
                 ranks, job->nodes, ranks);
        return trace_job_issue(job, issue, "nodes");
    }
    return 0;
}
