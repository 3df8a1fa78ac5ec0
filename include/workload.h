/* workload: the jobs of a run inside the simulator. Each job's ranks sit on the nodes its
 * placement gave it (job_plan.h); open-loop jobs create messages (or single packets) by their
 * process and pattern, closed-loop jobs by their motif's algorithm (motif.h). A message waits
 * in its node's NIC, which hands its packets to the injection queues at the node link's
 * bandwidth; the workload learns when a packet enters the network and when it arrives, and
 * keeps every job's statistics. Without `jobs` the simulator runs its one network-wide
 * pattern and none of this exists.
 * Layer: the NICs act on the network (network.h) beside the routers: they create packets and
 * put them into injection queues, and keep their own state; they never call the routers, the
 * observers or the cycle loop, which tells them what the routers injected and what arrived. */
#ifndef DFSIM_WORKLOAD_H
#define DFSIM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "injection_calendar.h"
#include "job_plan.h"
#include "latency_histogram.h"
#include "link_rate.h"
#include "rng.h"
#include "throttle.h"
#include "traffic.h"

struct network;
struct trace_program;
struct trace_replay;
struct trace_writer;

/* What the measurement window saw of one job. */
struct job_stats {
    uint64_t offered_phits; /* of the packets and messages its traffic created */
    uint64_t generated, refused, injected, delivered; /* packets */
    uint64_t generated_phits, refused_phits, injected_phits, delivered_phits;
    uint64_t misrouted_global; /* delivered packets that took a global hop off minimal paths */
    uint64_t nonminimal_decisions, phantom; /* delivered packets: as struct stats counts them */
    struct latency_histogram packet_latency;
    uint64_t messages_created, messages_delivered;
    struct latency_histogram message_latency;
    /* The stall signal, per node-cycle (each of a node's cycles counted once however many of
     * its packets were ready or stalled in it), summed over the job's nodes. */
    uint64_t nic_stall_cycles; /* a packet was ready in a NIC but its injection queue was full */
    uint64_t nic_ready_cycles; /* a packet was ready in a NIC: its link free */
    uint64_t injection_stall_cycles; /* a ready injection-queue head could not advance */
    uint64_t ready_cycles;           /* a packet ready: in the NIC, or an injection-queue head */
    uint64_t stall_cycles;           /* either stall */
    /* jobs with responses (response_bytes > 0): the NIC counters of its request packets */
    uint64_t request_phits, request_packets, request_stall_cycles;
    uint64_t responses;               /* request packets whose response arrived */
    uint64_t request_response_cycles; /* sum over them: request injected -> response arrived */
};

struct workload_job {
    const struct config_job *cfg;
    bool closed; /* a motif job */
    bool active; /* false: kept silent (dfsim run --isolate runs one job alone) */
    int nranks;
    const int32_t *rank_node;
    uint64_t message_packets; /* packets of one message (0: single packets, open loop) */
    struct rng rng;           /* its traffic stream */
    /* open loop: rank pattern or network pattern, and process */
    struct rank_pattern pattern;
    bool has_rank_pattern;
    const struct pattern_ops *network_pattern;
    struct pattern_run network_run; /* what that pattern sees: its settings from the job's keys */
    void *network_params;           /* those settings (owned) */
    struct injection_process process;
    bool has_process;
    struct injection_calendar calendar; /* its ranks' next messages (when active) */
    /* closed loop: a motif run, or a trace job's program and replay engine */
    struct motif_run *motif;
    const struct trace_program *trace_program; /* trace_job's, read once per process */
    struct trace_replay *trace;
    struct trace_writer *recorder; /* its messages, recorded for --trace-out (NULL: not) */
    uint64_t start_cycle, end_cycle; /* end_cycle: 0 until done (never for an open-ended job) */
    /* open_ended: it restarts its iterations (a new motif run, seeded from motif_seeds) each
     * time it completes them while a closed-loop job without open_ended runs */
    bool open_ended;
    struct rng motif_seeds;
    uint64_t rounds;                 /* times it completed all its iterations */
    uint64_t rounds_end_cycle;       /* when the last of those rounds ended */
    uint64_t iterations_before;      /* iterations completed in those rounds */
    uint64_t in_network;             /* its packets between injection queue and node */
    struct throttle_params throttle; /* kind THROTTLE_NONE: not throttled */
    uint32_t response_packets;       /* packets of the response to a request packet (0: none) */
    uint32_t window;                 /* request packets awaiting a response per node (0: any) */
    /* selector app_aware: its two modes (packet.mode), and its request packets in each */
    bool app_aware;
    uint8_t modes[2]; /* WORKLOAD_MODE_DEFAULT, WORKLOAD_MODE_HIGH */
    uint64_t mode_packets[2];
    struct job_stats stats;
};

/* A message between two ranks of a job, from its creation to the arrival of its last packet. */
struct workload_message {
    uint32_t job;
    int32_t src_rank, dst_rank;
    uint32_t src_node, dst_node;
    uint32_t tag;     /* the motif's */
    uint32_t packets; /* in all */
    uint32_t created_packets, injected, delivered;
    uint64_t created;       /* cycle */
    uint32_t next;          /* next message in its NIC's queue, or in the free list */
    uint32_t request;       /* a response: its request message + 1; 0: a request */
    uint32_t answered;      /* a request of a job with responses: its packets answered */
    uint8_t mode;           /* packet.mode of its packets */
    uint8_t selected;       /* app_aware: the selector's mode index (WORKLOAD_MODE_*) */
    uint64_t request_cycle; /* a response: when the request packet it answers was injected */
    uint64_t bytes;         /* a request: of the job's message (for its trace recording) */
};

enum { WORKLOAD_MODE_DEFAULT, WORKLOAD_MODE_HIGH };

/* What the app_aware selector of a node knows, per mode: its request flits (phits), their
 * stall cycles, its answered request packets and their summed request-to-response cycles;
 * and the mode its messages take now. */
struct workload_selector {
    uint64_t flits[2], stalls[2], responses[2], latency[2];
    int current;
};

/* A node's stall signal (workload.c, "the stall signal"): the cycle (+ 1) it last counted as
 * ready, stalled, stalled on a request packet and on one of each mode, so that the NIC phase
 * and the injection-queue pass count a cycle once; and its packets in its injection queues. */
struct workload_stall {
    uint64_t ready, stalled, request, mode[2];
    uint32_t queued;
};

/* A node's NIC: its queues of messages (responses served first: a request held by the window
 * must not hold the responses that would open it), and when its link can take the next packet. */
struct workload_nic {
    uint32_t head, tail; /* requests: message indices + 1; 0 = empty */
    uint32_t response_head, response_tail;
    uint32_t outstanding; /* request packets awaiting their response */
    uint64_t free_tick;   /* the node link is free from this tick on (link_rate.h) */
    bool active;          /* in the active list */
};

struct workload {
    int n_jobs;
    struct workload_job jobs[CONFIG_MAX_JOBS];
    struct job_plan plan;
    int32_t *node_job, *node_rank; /* [nodes]: -1 where no job runs */
    struct workload_message *messages;
    uint32_t n_messages, capacity, free_message; /* free_message: index + 1, 0 = none */
    struct workload_nic *nic;                    /* [nodes] */
    int32_t *active_nics;                        /* nodes whose NIC holds messages */
    int n_active_nics;
    struct link_rate node_rate;
    struct throttle_node *throttle;     /* [nodes], the nodes of throttled jobs; NULL if none is */
    struct workload_selector *selector; /* [nodes] when some job is app_aware, else NULL */
    struct workload_stall *stall;       /* [nodes] */
    /* [nodes]: where each node's injection queues are (its router's port, as an index into
     * the network's ports, and its first injection VC, into its input VCs), looked up once:
     * the stall pass visits every node with a queued packet every cycle. */
    uint32_t *node_port, *node_vc;
    /* Bit per node, set while it may have packets in its injection queues (cleared by the
     * stall pass once it has none): that pass visits the nodes in order, routers' lines in
     * turn, where a list in queueing order jumped around the network. */
    uint64_t *queued_mask;
    bool has_closed;    /* some job is closed loop: the run ends when they are done */
    bool started;       /* the closed-loop jobs have started (after the warm-up) */
    int running_closed; /* closed-loop jobs without open_ended not yet done */
    char error[512];    /* why a motif failed */
    double record_cycle_ns; /* > 0: the jobs' messages are recorded (workload_record) */
};

/* Builds the jobs of the network's config on it (the placements the config check made);
 * isolate >= 0 keeps every job but that one silent. Returns the workload, or NULL with err. */
struct workload *workload_create(struct network *net, int isolate, char *err, int err_len);
void workload_destroy(struct workload *w);
/* Records every job's messages from the start of the measurement on (dfsim run --trace-out);
 * 0 or -1 (memory). */
int workload_record(struct workload *w, const struct network *net);
/* Writes each job's recording as an OTF2 trace DIR/JOBNAME (trace_writer.h), its ranks ending
 * at cycle end. 0, or -1 with err. */
int workload_write_traces(const struct workload *w, const char *dir, uint64_t end, char *err,
                          size_t err_len);

/* Phase 1 of a cycle: the jobs create their messages and packets, the NICs inject. */
void workload_generate(struct workload *w, struct network *net);
/* A packet of the workload left its injection queue into the network (the cycle loop reads
 * them from the network's log) / reached its node (the cycle loop, before releasing it). */
void workload_packet_injected(struct workload *w, struct network *net, uint32_t packet);
void workload_packet_delivered(struct workload *w, struct network *net, uint32_t packet,
                               uint64_t latency);
/* After the routers' allocation (and workload_packet_injected for what they took): every node
 * whose injection queue holds a ready head packet (all its phits in, the router's pipeline
 * done) that the router did not take, its crossbar input not busy with a transfer, stalled
 * this cycle for lack of credit or crossbar grant: counted in its job's stall signal. */
void workload_count_injection_stalls(struct workload *w, const struct network *net);
/* The first cycle from now on at which the jobs or the NICs may act (create a message or a
 * packet, draw a random number): now while a NIC holds messages or an open-loop job runs (its
 * process draws every cycle), a closed-loop job's next wake-up (the end of a compute phase,
 * the warm-up's end before the jobs start), UINT64_MAX when none will. */
uint64_t workload_next_activity(const struct workload *w, const struct network *net);
/* Whether the run is over (every closed-loop job without open_ended done), and whether its
 * closed-loop jobs are stuck on their own dependencies (nothing in flight, nothing due): then a
 * description. */
bool workload_finished(const struct workload *w);
bool workload_stuck(const struct workload *w, const struct network *net, char *why, size_t len);
/* How far the closed-loop jobs are: the smallest fraction of its iterations a running job has
 * completed (1 when all are done), or -1 when the run has none or they have not started. */
double workload_progress(const struct workload *w);
/* A throttled job's mean rate over its nodes at cycle `now`, the end of the run (their windows
 * closed up to it) and over its nodes' measured windows; both the cap for a static throttle. */
void workload_throttle_rates(const struct workload *w, int job, uint64_t now, double *final_rate,
                             double *mean_rate);
/* The job of a node (-1 if none). */
static inline int workload_job_of_node(const struct workload *w, uint32_t node)
{
    return w->node_job[node];
}

/* Invariants of the messages: each message's packets created, injected and delivered in
 * order and never more than it has; message_found[] counts the packets of each message the
 * recount found in the network, job_found[] those of each job. Returns 0, or -1 with why. */
int workload_check(const struct workload *w, const uint32_t *message_found,
                   const uint64_t *job_found, char *why, size_t len);

#endif
