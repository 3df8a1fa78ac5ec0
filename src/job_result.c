/* job_result: the jobs' part of the result document (see job_result.h). Layer: an observer;
 * it reads the workload and the run's length through a job_result_view. */
#include "job_result.h"

#include <stdlib.h>
#include <string.h>

#include "job_config.h"
#include "job_traffic.h"
#include "motif.h"
#include "placement.h"
#include "routing_ugal.h"
#include "trace_job.h"
#include "throttle.h"
#include "trace_replay.h"
#include "workload.h"

static double job_result_ratio(double numerator, double denominator)
{
    return denominator > 0 ? numerator / denominator : 0.0;
}

static void job_result_spread_of(const struct latency_histogram *h, struct job_result_spread *out)
{
    *out = (struct job_result_spread){0};
    if (!h->count)
        return;
    out->min = (double)h->min;
    out->q1 = latency_histogram_quantile(h, 25);
    out->median = latency_histogram_quantile(h, 50);
    out->q3 = latency_histogram_quantile(h, 75);
    out->max = (double)h->max;
    out->mean = (double)h->sum / (double)h->count;
    out->p99 = latency_histogram_quantile(h, 99);
}

static const char *job_result_traffic(const struct config_job *job)
{
    if (trace_job_is(job))
        return trace_job_settings.owner;
    if (job_is_closed_loop(job))
        return job_motif(job)->name;
    const struct pattern_ops *network = job_network_pattern(job);
    return network ? network->name : job_rank_pattern(job)->name;
}

static void job_result_loads(const struct job_result_view *run, const struct workload_job *jb,
                             struct job_result *out)
{
    const struct job_stats *st = &jb->stats;
    double node_cycles = (double)jb->nranks * (double)run->measured_cycles;
    out->offered = job_result_ratio((double)st->offered_phits, node_cycles);
    out->injected = job_result_ratio((double)st->injected_phits, node_cycles);
    out->accepted = job_result_ratio((double)st->delivered_phits, node_cycles);
    out->generated = st->generated;
    out->refused = st->refused;
    out->injected_packets = st->injected;
    out->delivered = st->delivered;
    out->in_flight_at_end = jb->in_network;
    out->nic_stall_cycles = st->nic_stall_cycles;
    out->nic_ready_cycles = st->nic_ready_cycles;
    out->injection_stall_cycles = st->injection_stall_cycles;
    out->ready_cycles = st->ready_cycles;
    out->stall_cycles = st->stall_cycles;
    out->stall_fraction = job_result_ratio((double)st->stall_cycles, (double)st->ready_cycles);
    const struct latency_histogram *h = &st->packet_latency;
    out->latency = (struct job_result_latency){
        .mean = job_result_ratio((double)h->sum, (double)h->count),
        .p50 = latency_histogram_quantile(h, 50),
        .p90 = latency_histogram_quantile(h, 90),
        .p95 = latency_histogram_quantile(h, 95),
        .p99 = latency_histogram_quantile(h, 99),
        .max = (double)h->max,
    };
    out->messages_sent = st->messages_created;
    out->messages_delivered = st->messages_delivered;
    job_result_spread_of(&st->message_latency, &out->message_latency);
}

/* A trace job: its replay's counts and each rank's times; one iteration, the whole trace. */
static int job_result_trace(const struct workload_job *jb, double cycle_ns, struct job_result *out)
{
    const struct trace_replay *t = jb->trace;
    const struct trace_program *p = jb->trace_program;
    struct job_result_trace *tr = &out->trace;
    int n = trace_replay_nranks(t);
    out->traced = true;
    out->closed = true;
    out->finished = jb->end_cycle != 0;
    out->iterations_completed = out->finished;
    out->runtime_cycles = out->finished ? (double)(jb->end_cycle - jb->start_cycle) : 0;
    out->node_cycles = out->runtime_cycles * jb->nranks;
    out->iteration_cycles = (struct job_result_spread){
        out->runtime_cycles, out->runtime_cycles, out->runtime_cycles, out->runtime_cycles,
        out->runtime_cycles, out->runtime_cycles, out->runtime_cycles};
    out->job_iteration_cycles = malloc(sizeof(uint64_t));
    tr->compute = malloc((size_t)n * sizeof *tr->compute);
    tr->communication = malloc((size_t)n * sizeof *tr->communication);
    tr->waiting = malloc((size_t)n * sizeof *tr->waiting);
    if (!out->job_iteration_cycles || !tr->compute || !tr->communication || !tr->waiting)
        return -1;
    out->job_iterations = out->finished;
    out->job_iteration_cycles[0] = (uint64_t)out->runtime_cycles;
    tr->ranks = n;
    tr->cycle_ns = cycle_ns;
    tr->runtime_ns = out->runtime_cycles * cycle_ns;
    for (int k = 0; k < TRACE_EV_COUNT; k++)
        tr->events += p->events[k];
    for (int k = 0; k < TRACE_SKIP_COUNT; k++)
        tr->skipped[k] = p->skipped[k];
    tr->collectives = p->collectives;
    for (int32_t r = 0; r < n; r++) {
        struct trace_rank_times times;
        trace_replay_rank_times(t, r, &times);
        tr->compute[r] = times.compute;
        tr->communication[r] = times.communication;
        tr->waiting[r] = times.waiting;
        tr->messages += trace_replay_messages_sent(t, r);
        tr->bytes += trace_replay_bytes_sent(t, r);
    }
    tr->control_messages = trace_replay_control_messages(t);
    tr->local_messages = trace_replay_local_messages(t);
    tr->requests = trace_replay_requests(t);
    tr->requests_completed = trace_replay_requests_completed(t);
    return 0;
}

static int job_result_iterations(const struct workload_job *jb, struct job_result *out)
{
    struct motif_summary summary;
    if (motif_run_iteration_summary(jb->motif, &summary) != 0)
        return -1;
    out->closed = true;
    out->finished = jb->end_cycle != 0;
    out->open_ended = jb->open_ended;
    out->rounds = jb->rounds;
    out->round_cycles = jb->open_ended && jb->rounds
                            ? (double)(jb->rounds_end_cycle - jb->start_cycle) / (double)jb->rounds
                            : 0;
    out->iterations_completed = jb->iterations_before + motif_run_iterations_completed(jb->motif);
    out->iteration_cycles = (struct job_result_spread){
        .min = summary.min,
        .q1 = summary.q1,
        .median = summary.median,
        .q3 = summary.q3,
        .max = summary.max,
        .mean = summary.mean,
    };
    uint64_t last_round = motif_run_iterations_completed(jb->motif);
    out->job_iteration_cycles = malloc((last_round ? last_round : 1) * sizeof(uint64_t));
    if (!out->job_iteration_cycles)
        return -1;
    out->job_iterations = (int)motif_run_job_iteration_cycles(jb->motif, out->job_iteration_cycles);
    out->runtime_cycles = out->finished ? (double)(jb->end_cycle - jb->start_cycle) : 0;
    out->node_cycles = out->runtime_cycles * jb->nranks;
    return 0;
}

static int job_result_of(const struct job_result_view *run, int j, struct job_result *out)
{
    const struct workload_job *jb = &run->workload->jobs[j];
    const struct config_job *job = jb->cfg;
    *out = (struct job_result){
        .name = job->name,
        .placement = placement_registry[job->placement]->name,
        .traffic = job_result_traffic(job),
        .kind = job_is_closed_loop(job) ? "closed loop" : "open loop",
        .nodes = jb->nranks,
    };
    out->ranks_to_nodes = malloc((size_t)jb->nranks * sizeof *out->ranks_to_nodes);
    if (!out->ranks_to_nodes)
        return -1;
    for (int r = 0; r < jb->nranks; r++)
        out->ranks_to_nodes[r] = (uint64_t)jb->rank_node[r];
    job_result_loads(run, jb, out);
    out->throttle = throttle_kind_names[jb->throttle.kind];
    out->ugal_preset = job->ugal_preset;
    out->ugal_preset_name = ugal_preset_names[job->ugal_preset];
    const struct job_stats *st = &jb->stats;
    out->misrouted_global = job_result_ratio((double)st->misrouted_global, (double)st->delivered);
    out->counts_decisions = run->counts_decisions;
    out->nonminimal_decisions =
        job_result_ratio((double)st->nonminimal_decisions, (double)st->delivered);
    out->phantom = job_result_ratio((double)st->phantom, (double)st->delivered);
    out->responses = jb->response_packets > 0;
    out->request_flits = st->request_phits;
    out->request_packets = st->request_packets;
    out->request_stall_cycles = st->request_stall_cycles;
    out->answered = st->responses;
    out->request_response_cycles = st->request_response_cycles;
    out->stalls_per_flit =
        job_result_ratio((double)st->request_stall_cycles, (double)st->request_phits);
    out->latency_per_packet =
        job_result_ratio((double)st->request_response_cycles, (double)st->responses);
    out->app_aware = jb->app_aware;
    out->selector_default_mode = ugal_preset_names[jb->modes[0]];
    out->packets_default = jb->mode_packets[0];
    out->packets_high = jb->mode_packets[1];
    out->fraction_default = job_result_ratio((double)jb->mode_packets[0],
                                             (double)(jb->mode_packets[0] + jb->mode_packets[1]));
    workload_throttle_rates(run->workload, j, run->cycles, &out->throttle_final_rate,
                            &out->throttle_mean_rate);
    if (jb->trace)
        return job_result_trace(jb, run->cycle_ns, out);
    return jb->closed ? job_result_iterations(jb, out) : 0;
}

int job_results_summarize(const struct job_result_view *of, struct job_result *out,
                          struct job_result_run *run)
{
    const struct workload *w = of->workload;
    *run = (struct job_result_run){
        .cycles = of->cycles,
        .measured_cycles = of->measured_cycles,
        .max_cycles = of->max_cycles,
        .capped = of->capped,
    };
    for (int j = 0; j < w->n_jobs; j++) {
        if (job_result_of(of, j, &out[j]) != 0)
            return -1;
        run->node_cycles += out[j].node_cycles;
    }
    return 0;
}

void job_results_free(struct job_result *jobs, int n)
{
    for (int j = 0; jobs && j < n; j++) {
        free(jobs[j].ranks_to_nodes);
        jobs[j].ranks_to_nodes = NULL;
        free(jobs[j].job_iteration_cycles);
        free(jobs[j].trace.compute);
        free(jobs[j].trace.communication);
        free(jobs[j].trace.waiting);
        jobs[j].job_iteration_cycles = NULL;
    }
}

void job_result_set_alone(struct job_result *out, const struct job_result *alone)
{
    out->isolated = true;
    out->alone = (struct job_result_alone){
        .finished = alone->finished,
        .runtime_cycles = alone->runtime_cycles,
        .message_latency = alone->message_latency,
        .packet_latency_mean = alone->latency.mean,
    };
    /* A slowdown is meaningful only when both runs finished (a capped runtime is a bound); an
     * open-ended job's is its mean round beside the others over its one round alone. */
    bool both = out->finished && alone->finished;
    if (out->open_ended)
        out->slowdown_runtime = out->round_cycles > 0 && alone->finished
                                    ? job_result_ratio(out->round_cycles, alone->runtime_cycles)
                                    : 0;
    else
        out->slowdown_runtime =
            both ? job_result_ratio(out->runtime_cycles, alone->runtime_cycles) : 0;
    out->slowdown_message_latency =
        job_result_ratio(out->message_latency.mean, alone->message_latency.mean);
}

void job_results_node_cycles_alone(const struct job_result *jobs, int n, struct job_result_run *run)
{
    bool all = true;
    run->node_cycles_alone = 0;
    for (int j = 0; j < n; j++) {
        if (!jobs[j].closed || jobs[j].open_ended) /* as in the run's node_cycles */
            continue;
        all = all && jobs[j].finished && jobs[j].alone.finished;
        run->node_cycles_alone += jobs[j].alone.runtime_cycles * jobs[j].nodes;
    }
    run->isolated = true;
    run->node_cycles_increase =
        all ? job_result_ratio(run->node_cycles, run->node_cycles_alone) : 0;
}
