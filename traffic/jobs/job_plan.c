/* job_plan: placing every job, and the parameters of its traffic plug-ins. */
#include "job_plan.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_config.h"
#include "text_file.h"
#include "topology.h"
#include "trace_job.h"
#include "traffic.h"

static int job_plan_machine(struct job_plan *plan, const struct topology *t)
{
    plan->router_nodes = malloc((size_t)t->routers * sizeof *plan->router_nodes);
    plan->router_first_node = malloc((size_t)t->routers * sizeof *plan->router_first_node);
    plan->taken = calloc((size_t)t->nodes, sizeof *plan->taken);
    if (!plan->router_nodes || !plan->router_first_node || !plan->taken)
        return -1;
    for (int r = 0; r < t->routers; r++) {
        plan->router_nodes[r] = topology_kind_of(t, r)->count[PORT_NODE];
        plan->router_first_node[r] = t->first_node[r];
    }
    plan->machine = (struct placement_machine){
        .nodes = t->nodes,
        .routers = t->routers,
        .groups = t->groups,
        .node_router = t->node_router,
        .router_group = t->router_group,
        .router_first_node = plan->router_first_node,
        .router_nodes = plan->router_nodes,
        .group_first_router = t->group_first_router,
    };
    return 0;
}

void job_rng(const struct sim_config *cfg, int job, int purpose, struct rng *out)
{
    rng_seed(out, (uint64_t)cfg->sim.seed, (uint64_t)(purpose + job));
}

/* The config's folder: allocation files are relative to it. */
static int job_plan_issue(struct setting_issue *issue, const struct config_job *job,
                          const char *key, const char *alt, const char *text)
{
    snprintf(issue->names[0], sizeof issue->names[0], "jobs.%.63s.%s", job->name, key);
    snprintf(issue->names[1], sizeof issue->names[1], "jobs.%.63s.%s", job->name, alt);
    issue->key = issue->names[0];
    issue->alt = issue->names[1];
    snprintf(issue->text, sizeof issue->text, "%s", text);
    return -1;
}

int job_plan_create(struct job_plan *plan, const struct sim_config *cfg, const struct topology *t,
                    struct setting_issue *issue)
{
    memset(plan, 0, sizeof *plan);
    char dir[4096];
    text_file_folder(cfg->path, dir, sizeof dir);
    if (job_plan_machine(plan, t))
        return job_plan_issue(issue, &cfg->jobs[0], "nodes", "nodes", "out of memory");
    int next_contiguous = 0;
    for (int j = 0; j < cfg->n_jobs; j++) {
        const struct config_job *job = &cfg->jobs[j];
        const struct placement_ops *ops = placement_registry[job->placement];
        const struct settings_list *jobs = settings_list_named("jobs");
        const struct placement_contiguous_settings *contiguous =
            settings_element_params(jobs, job, placement_contiguous.settings);
        const struct placement_groups_settings *groups =
            settings_element_params(jobs, job, placement_groups.settings);
        const struct placement_file_settings *file =
            settings_element_params(jobs, job, placement_file.settings);
        struct placement_params p = {
            .job = job->name,
            .nodes = job->nodes,
            .first_node = contiguous->first_node >= 0 ? contiguous->first_node : next_contiguous,
            .exact = contiguous->first_node >= 0,
            .groups = groups->groups.values,
            .group_count = groups->groups.count,
            .per_router = groups->per_router,
            .file = file->allocation_file,
            .base_dir = dir,
        };
        struct rng rng;
        job_rng(cfg, j, JOB_STREAM_PLACEMENT, &rng);
        plan->rank_node[j] = malloc((size_t)job->nodes * sizeof *plan->rank_node[j]);
        if (!plan->rank_node[j])
            return job_plan_issue(issue, job, "nodes", "nodes", "out of memory");
        struct placement_error error;
        if (placement_place(ops, &plan->machine, &p, plan->taken, &rng, plan->rank_node[j],
                            &error) != 0)
            return job_plan_issue(issue, job, error.key, "placement", error.text);
        if (ops == &placement_contiguous)
            next_contiguous = placement_end(plan->rank_node[j], job->nodes);
    }
    return 0;
}

void job_plan_free(struct job_plan *plan)
{
    free(plan->router_nodes);
    free(plan->router_first_node);
    free(plan->taken);
    for (int j = 0; j < CONFIG_MAX_JOBS; j++)
        free(plan->rank_node[j]);
    memset(plan, 0, sizeof *plan);
}

void job_motif_params(const struct config_job *job, struct motif_params *out)
{
    motif_params_default(out);
    if (job->message_bytes > 0)
        out->message_bytes = (uint64_t)job->message_bytes;
    out->iterations = (uint32_t)job->iterations;
    out->compute_cycles = (uint64_t)job->compute_cycles;
    const struct settings_list *jobs = settings_list_named("jobs");
    const struct motif_grid_settings *grid = settings_element_params(jobs, job, &motif_grid_table);
    out->dims_count = grid->dims.count; /* as given: a grid of 4 values is refused, not cut */
    for (int i = 0; i < grid->dims.count && i < 3; i++)
        out->dims[i] = grid->dims.values[i];
    out->intensity = job->intensity;
    const struct motif_ops *motif = job_motif(job);
    const struct setting_table *own = motif ? motif->settings : NULL;
    if (own && own->params_size <= sizeof out->settings) {
        memcpy(out->settings, settings_element_params(jobs, job, own), own->params_size);
        out->settings_of = own;
    }
}

/* Messages (or packets, without message_bytes) per cycle per rank for the job's load, scaled by
 * its duty cycle (a periodic interval stretched by it, to the nearest cycle). */
void job_injection_params(const struct sim_config *cfg, const struct config_job *job,
                          struct injection_params *out)
{
    uint64_t packets =
        job->message_bytes > 0 ? job_message_packets(cfg, (uint64_t)job->message_bytes) : 1;
    double d = job->intensity;
    const struct injection_ops *process = injection_registry[job->process];
    const struct injection_periodic_settings *periodic =
        process == &injection_periodic ? job_process_settings(job) : NULL;
    const struct injection_on_off_settings *on_off =
        process == &injection_on_off ? job_process_settings(job) : NULL;
    int64_t interval = periodic ? periodic->interval_cycles : 0;
    if (d < 1 && interval > 0)
        interval = (int64_t)((double)interval / d + 0.5);
    *out = (struct injection_params){
        .rate = job->load * d / ((double)packets * cfg->traffic.packet_size),
        .interval_cycles = interval > INT_MAX ? INT_MAX : (int)interval,
        .on_cycles = on_off ? (int)on_off->on_cycles : 0,
        .off_cycles = on_off ? (int)on_off->off_cycles : 0,
    };
}

void job_pattern_params(const struct config_job *job, struct rank_pattern_params *out)
{
    const struct settings_list *jobs = settings_list_named("jobs");
    const struct rank_pattern_tornado_settings *tornado =
        settings_element_params(jobs, job, rank_pattern_tornado.settings);
    const struct rank_pattern_targets_settings *targets =
        settings_element_params(jobs, job, rank_pattern_incast.settings);
    *out = (struct rank_pattern_params){.offset = tornado->offset, .targets = targets->targets};
}

/* ---- the check of a whole job list ---- */

/* A network pattern's check (adversarial: an offset that leaves the group) on the job's
 * params. */
static int job_check_network_params(const struct sim_config *cfg, const struct config_job *job,
                                    struct setting_issue *issue)
{
    const struct pattern_ops *network = job_network_pattern(job);
    const struct setting_table *t = network->settings;
    if (!t)
        return 0;
    char params[256] = {0};
    if (t->params_size > sizeof params || job_network_params(job, network, params) != 0)
        return job_plan_issue(issue, job, "pattern", "pattern",
                              "this network pattern has settings no job key carries");
    /* The job's key has the widest range any pattern allows (tornado's offset may be
     * negative); this pattern's own table bounds what it reads (adversarial indexes groups
     * with it). */
    for (int i = 0; i < t->count; i++) {
        const struct setting *row = &t->rows[i];
        int value;
        memcpy(&value, params + row->offset, sizeof value);
        if (value >= row->min && value <= row->max)
            continue;
        char text[256];
        if (row->max >= SETTING_UNBOUNDED_INT)
            snprintf(text, sizeof text,
                     "%d is out of range for pattern '%s' (expected an "
                     "integer >= %.0f: %s)",
                     value, network->name, row->min, row->doc);
        else
            snprintf(text, sizeof text,
                     "%d is out of range for pattern '%s' (expected an "
                     "integer in [%.0f, %.0f]: %s)",
                     value, network->name, row->min, row->max, row->doc);
        return job_plan_issue(issue, job, row->name, "pattern", text);
    }
    struct setting_issue inner = {0};
    if (!network->check || network->check(cfg, params, &inner) == 0)
        return 0;
    const char *key = inner.key ? strrchr(inner.key, '.') : NULL;
    return job_plan_issue(issue, job, key ? key + 1 : "pattern", "pattern", inner.text);
}

/* Sets up and tears down what the job will run, to refuse bad parameters now. */
static int job_check_traffic(const struct sim_config *cfg, const struct job_plan *plan, int j,
                             struct setting_issue *issue)
{
    const struct config_job *job = &cfg->jobs[j];
    char err[512];
    struct rng rng;
    job_rng(cfg, j, JOB_STREAM_TRAFFIC, &rng);
    if (trace_job_is(job))
        return 0; /* its own table's check read the trace */
    if (job_is_closed_loop(job)) {
        struct motif_params params;
        job_motif_params(job, &params);
        const char *key;
        struct motif_run *run =
            motif_run_create(job_motif(job), &params, job->nodes, rng.s[0], err, sizeof err, &key);
        if (!run)
            return job_plan_issue(issue, job, key, "motif", err);
        motif_run_destroy(run);
        return 0;
    }
    if (job_network_pattern(job)) {
        for (int r = 0; r < job->nodes; r++)
            if (job->nodes != plan->machine.nodes || plan->rank_node[j][r] != r)
                return job_plan_issue(issue, job, "pattern", "placement",
                                      "a network pattern addresses nodes: the job must hold "
                                      "every node, rank r on node r (expected nodes = all "
                                      "nodes, placement contiguous from node 0, or a rank "
                                      "pattern such as uniform)");
        if (job_check_network_params(cfg, job, issue) != 0)
            return -1;
    } else {
        struct rank_pattern pattern;
        struct rank_pattern_params params;
        job_pattern_params(job, &params);
        if (rank_pattern_init(&pattern, job_rank_pattern(job), &params, job->nodes,
                              plan->rank_node[j], &plan->machine, &rng, err, sizeof err) != 0)
            return job_plan_issue(issue, job, pattern.fault_key ? pattern.fault_key : "nodes",
                                  "pattern", err);
        rank_pattern_destroy(&pattern);
    }
    struct injection_process process;
    struct injection_params params;
    job_injection_params(cfg, job, &params);
    if (injection_process_init(&process, injection_registry[job->process], &params, job->nodes,
                               &rng, err, sizeof err) != 0)
        return job_plan_issue(issue, job, "process", "load", err);
    injection_process_destroy(&process);
    return 0;
}

/* An open-ended job runs until the closed-loop jobs without open_ended are done: without one,
 * nothing would end the run but sim.max_cycles. */
static int job_check_open_ended(const struct sim_config *cfg, struct setting_issue *issue)
{
    const struct config_job *open = NULL;
    for (int j = 0; j < cfg->n_jobs; j++) {
        const struct config_job *job = &cfg->jobs[j];
        if (!job_is_closed_loop(job))
            continue;
        if (!job->open_ended)
            return 0;
        open = job; /* the last: where a --set or a later edit most likely made it so */
    }
    if (!open)
        return 0;
    return job_plan_issue(issue, open, "open_ended", "open_ended",
                          "every closed-loop job is open-ended, so none would end the run "
                          "(expected at least one closed-loop job without open_ended: an "
                          "open-ended job runs until those have finished)");
}

/* Closed-loop jobs start after the warm-up and the run ends at sim.max_cycles at the latest. */
static int job_check_run_length(const struct sim_config *cfg, struct setting_issue *issue)
{
    bool closed = false;
    for (int j = 0; j < cfg->n_jobs; j++)
        closed = closed || job_is_closed_loop(&cfg->jobs[j]);
    if (!closed || cfg->sim.max_cycles > cfg->sim.warmup_cycles)
        return 0;
    issue->key = "sim.max_cycles";
    issue->alt = "sim.warmup_cycles";
    snprintf(issue->text, sizeof issue->text,
             "%lld leaves the closed-loop jobs no cycle (expected more than "
             "sim.warmup_cycles = %lld: they start after the warm-up)",
             (long long)cfg->sim.max_cycles, (long long)cfg->sim.warmup_cycles);
    return -1;
}

int job_config_check_all(const struct sim_config *cfg, struct setting_issue *issue)
{
    if (!cfg->n_jobs)
        return 0;
    for (int j = 0; j < cfg->n_jobs; j++)
        for (int k = 0; k < j; k++)
            if (strcmp(cfg->jobs[j].name, cfg->jobs[k].name) == 0)
                return job_plan_issue(issue, &cfg->jobs[j], "name", "name",
                                      "two jobs have this name (expected unique names: they "
                                      "name settings jobs.NAME.KEY)");
    if (job_check_open_ended(cfg, issue) != 0)
        return -1;
    struct topology t;
    char err[512];
    if (topology_create(&t, cfg, err, (int)sizeof err) != 0)
        return job_plan_issue(issue, &cfg->jobs[0], "nodes", "nodes", err);
    struct job_plan plan;
    int rc = job_plan_create(&plan, cfg, &t, issue);
    for (int j = 0; rc == 0 && j < cfg->n_jobs; j++)
        rc = job_check_traffic(cfg, &plan, j, issue);
    job_plan_free(&plan);
    topology_free(&t);
    return rc ? rc : job_check_run_length(cfg, issue);
}
