/* trace_job: the job plug-in that replays an OTF2 trace. It declares its job settings (trace,
 * eager_bytes, compute_scale; stored in the job's arena) in its own table, reads the allreduce
 * motif's allreduce_threshold, checks them when the config is loaded (the trace is read then,
 * once per process: a bad trace is a bad config), and builds a job's program and replay
 * engine for the workload. Layer: reads the config and files. */
#ifndef DFSIM_TRACE_JOB_H
#define DFSIM_TRACE_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"
#include "trace_program.h"
#include "trace_replay.h"

struct sim_config;
struct config_job;

struct trace_job_settings {
    char trace[SETTING_STRING_LEN]; /* the OTF2 anchor file; "": not a trace job */
    int64_t eager_bytes;
    double compute_scale;
};

extern const struct setting_table trace_job_settings;
/* The job's trace settings (in its arena). */
const struct trace_job_settings *trace_job_settings_of(const struct config_job *job);

/* The job replays a trace. */
bool trace_job_is(const struct config_job *job);
/* key is one of the trace job's own settings; reads: whether this job reads it. */
bool trace_job_key(const char *key);
/* key is the setting that makes a job a trace job (read by every job). */
bool trace_job_chooses(const char *key);
/* The anchor file of the job's setting trace: absolute, or relative to the folder of the
 * config file. */
void trace_job_path(const struct sim_config *cfg, const char *trace, char *out, size_t len);
/* The digest of the files of that archive (trace_digest.h); 0, or -1 when unreadable. */
int trace_job_digest(const struct sim_config *cfg, const char *trace, uint64_t *out);
/* The job's program (its allreduce_threshold picks allreduce's algorithm), read once per
 * process: the config check reads it, the runs of the config get the same program. Owned by
 * trace_job (kept until trace_job_programs_release); NULL with err naming the file and what
 * is wrong. */
const struct trace_program *trace_job_program(const struct sim_config *cfg,
                                              const struct config_job *job, char *err,
                                              size_t err_len);
/* Frees every program read (none may be in use). */
void trace_job_programs_release(void);
/* The replay settings of the job (eager_bytes, compute_scale, sim.cycle_ns). */
void trace_job_params(const struct sim_config *cfg, const struct config_job *job,
                      struct trace_replay_params *out);

#endif
