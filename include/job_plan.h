/* job_plan: where every job of a config runs (ranks on nodes, in list order, never sharing a
 * node) and the parameters its traffic plug-ins get. The config check and the simulator make
 * the same plan, so a placement that cannot be made is refused before anything runs. */
#ifndef DFSIM_JOB_PLAN_H
#define DFSIM_JOB_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "job_traffic.h"
#include "motif.h"
#include "placement.h"
#include "rng.h"
#include "sim_config.h"

struct topology;

/* Random streams of the jobs (sim.seed with these plus the job's index). */
enum { JOB_STREAM_PLACEMENT = 100, JOB_STREAM_TRAFFIC = 200, JOB_STREAM_MOTIF = 300 };

struct job_plan {
    struct placement_machine machine;
    int32_t *router_nodes;               /* [routers]: the machine's node counts */
    int32_t *router_first_node;          /* [routers] */
    int32_t *rank_node[CONFIG_MAX_JOBS]; /* [job][rank] */
    bool *taken;                         /* [nodes]: nodes of some job */
};

/* Places every job of cfg on network t. Returns 0, or -1 with issue (key "jobs.NAME.KEY"). */
int job_plan_create(struct job_plan *plan, const struct sim_config *cfg, const struct topology *t,
                    struct setting_issue *issue);
void job_plan_free(struct job_plan *plan);

/* A motif job's parameters, and an open-loop job's process and pattern parameters. */
void job_motif_params(const struct config_job *job, struct motif_params *out);
void job_injection_params(const struct sim_config *cfg, const struct config_job *job,
                          struct injection_params *out);
void job_pattern_params(const struct config_job *job, struct rank_pattern_params *out);
/* A job's random stream for a purpose (JOB_STREAM_*). */
void job_rng(const struct sim_config *cfg, int job, int purpose, struct rng *out);

#endif
