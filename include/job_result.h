/* job_result: what the result document says about each job of a run (its `jobs` array):
 * loads, packets and packet latency as the network-wide sections, message latencies, and for
 * closed-loop jobs their iterations, runtime and, with sim.isolate, what they do alone.
 * Layer: an observer: it reads the workload (workload.h) through a const view and changes
 * nothing. */
#ifndef DFSIM_JOB_RESULT_H
#define DFSIM_JOB_RESULT_H

#include <stdbool.h>
#include <stdint.h>

struct workload;

/* Packet latencies, as the network-wide latency section. */
struct job_result_latency {
    double mean, p50, p90, p95, p99, max;
};

/* The spread of a set of durations (message latencies, iteration times): quartiles by nearest
 * rank, all 0 when there is none. */
struct job_result_spread {
    double min, q1, median, q3, max, mean, p99;
};

/* A closed-loop job run alone (same placement, same seeds, every other job silent). */
struct job_result_alone {
    bool finished;
    double runtime_cycles;
    struct job_result_spread message_latency;
    double packet_latency_mean;
};

struct job_result {
    const char *name, *placement, *traffic; /* traffic: the motif or the pattern */
    const char *kind;                       /* "closed loop" or "open loop" */
    int nodes;
    uint64_t *ranks_to_nodes; /* owned: the node of each rank */
    double offered, injected, accepted;
    uint64_t generated, refused, injected_packets, delivered, in_flight_at_end;
    uint64_t nic_stall_cycles, nic_ready_cycles; /* the stall signal's NIC part */
    uint64_t injection_stall_cycles;             /* its injection-queue part */
    uint64_t ready_cycles, stall_cycles;         /* node-cycles: a packet ready / either stall */
    double stall_fraction; /* stall_cycles / ready_cycles (0 when never ready) */
    const char *throttle;  /* its kind: "none", "static", "aimd" */
    double throttle_final_rate, throttle_mean_rate;
    int ugal_preset; /* its routing mode (enum ugal_preset; 0: none) */
    const char *ugal_preset_name;
    double misrouted_global; /* fraction of its delivered packets misrouted globally */
    /* The run's routing is ugal or ugal_g: the fractions of its delivered packets sent
     * nonminimally by a decision, and phantom (result.counts_decisions). */
    bool counts_decisions;
    double nonminimal_decisions, phantom;
    /* requests and responses (response_bytes > 0): its NICs' request counters */
    bool responses;
    uint64_t request_flits, request_packets, request_stall_cycles, answered;
    uint64_t request_response_cycles;
    double stalls_per_flit, latency_per_packet; /* s and L */
    /* selector app_aware: its default mode and its request packets in each mode */
    bool app_aware;
    const char *selector_default_mode;
    uint64_t packets_default, packets_high;
    double fraction_default;
    struct job_result_latency latency;
    uint64_t messages_sent, messages_delivered;
    struct job_result_spread message_latency;
    /* closed loop */
    bool closed, finished;
    bool open_ended; /* restarted its iterations until the others were done: no runtime */
    uint64_t rounds; /* open_ended: the times it completed all its iterations */
    double round_cycles; /* open_ended: their mean duration (0 when none completed) */
    uint64_t iterations_completed; /* open_ended: over all its rounds */
    struct job_result_spread iteration_cycles;
    int job_iterations;             /* the length of job_iteration_cycles */
    uint64_t *job_iteration_cycles; /* owned: each iteration's duration, its slowest rank's
                                     * (open_ended: of its last round) */
    double runtime_cycles;          /* start (end of warm-up) to the end of its last iteration */
    double node_cycles;             /* nodes * runtime_cycles */
    bool isolated;                  /* alone and slowdown were measured */
    struct job_result_alone alone;
    double slowdown_runtime, slowdown_message_latency;
    /* a trace job: what its replay did (traffic/MODEL.md, "Trace jobs") */
    bool traced;
    struct job_result_trace {
        int ranks;
        double cycle_ns, runtime_ns;
        uint64_t events, collectives, messages, bytes, control_messages, local_messages;
        uint64_t requests, requests_completed;
        uint64_t *compute, *communication, *waiting; /* owned: cycles of each rank */
        uint64_t skipped[6];                          /* by enum trace_skip_kind */
    } trace;
};

/* The run as a whole, when it has jobs: how long it lasted and whether sim.max_cycles cut it. */
struct job_result_run {
    uint64_t cycles, measured_cycles, max_cycles;
    bool capped;
    /* Over the closed-loop jobs: the sum of their node_cycles, and with sim.isolate the sum
     * alone and their ratio (0 unless every one finished in both runs). */
    double node_cycles, node_cycles_alone, node_cycles_increase;
    bool isolated;
};

/* What the job results read of a finished run: its workload and how long it ran. */
struct job_result_view {
    const struct workload *workload;
    uint64_t cycles, measured_cycles, max_cycles;
    bool capped;
    bool counts_decisions; /* the routing is ugal or ugal_g */
    double cycle_ns;       /* sim.cycle_ns */
};

/* Fills out[0 .. n_jobs - 1] and run from a finished run with jobs. Returns 0 or -1 (memory);
 * job_results_free frees what it allocated either way. */
int job_results_summarize(const struct job_result_view *of, struct job_result *out,
                          struct job_result_run *run);
void job_results_free(struct job_result *jobs, int n);

/* What a closed-loop job did alone, from the run of sim_create_isolated(cfg, j): copied into
 * out->alone, and the slowdowns computed. */
void job_result_set_alone(struct job_result *out, const struct job_result *alone);

/* The workload's node-cycles alone and their increase, once every closed-loop job of jobs
 * has its alone figures (sim.isolate). */
void job_results_node_cycles_alone(const struct job_result *jobs, int n,
                                   struct job_result_run *run);

#endif
