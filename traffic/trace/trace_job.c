/* trace_job: the trace job's settings, checks and assembly (see trace_job.h). */
#include "trace_job.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "sim_config.h"
#include "motif.h"
#include "text_file.h"
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
     .quiet_default = true},
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

void trace_job_path(const struct sim_config *cfg, const struct config_job *job, char *out,
                    size_t len)
{
    char dir[4096];
    const char *trace = trace_job_settings_of(job)->trace;
    text_file_folder(cfg->path, dir, sizeof dir);
    if (trace[0] == '/' || !dir[0])
        snprintf(out, len, "%s", trace);
    else
        snprintf(out, len, "%s/%s", dir, trace);
}

int trace_job_program(const struct sim_config *cfg, const struct config_job *job,
                      struct trace_program *out, char *err, size_t err_len)
{
    char path[4096 + SETTING_STRING_LEN + 2];
    trace_job_path(cfg, job, path, sizeof path);
    if (trace_read(path, trace_job_allreduce_threshold(job), out, err, err_len) != 0)
        return -1;
    char why[400];
    if (trace_program_check_matching(out, why, sizeof why) != 0) {
        snprintf(err, err_len, "%s: %s", path, why);
        trace_program_free(out);
        return -1;
    }
    return 0;
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
    struct trace_program program;
    char err[sizeof issue->text - 16];
    if (trace_job_program(cfg, job, &program, err, sizeof err) != 0) {
        snprintf(issue->text, sizeof issue->text, "%s", err);
        return trace_job_issue(job, issue, "trace");
    }
    int ranks = program.nranks;
    trace_program_free(&program);
    if (ranks > job->nodes) {
        snprintf(issue->text, sizeof issue->text,
                 "the trace has %d ranks and the job %d nodes (expected nodes >= %d: rank r "
                 "runs on the job's r-th node)",
                 ranks, job->nodes, ranks);
        return trace_job_issue(job, issue, "nodes");
    }
    return 0;
}
