/* result_schema: the result document's sections and fields (src/METRICS.md), in document order.
 *
 * To add a section: write its fields (RESULT_AT names the member each value is read from),
 * give it a struct result_section, and list it as a RESULT_OBJECT field of the section that
 * holds it; result_json renders it, `dfsim schema` prints it, the plot scripts and
 * results/README.md see it (plots/result_schema.json and results/README.md's table are regenerated
 * from it, and the tests say when they are stale). A field of a section read from another struct
 * gives a `locate` function from its own struct to that one. */
#include "result_schema.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "version.h"

#define RESULT_SCHEMA_COUNT(fields) ((int)(sizeof fields / sizeof fields[0]))

/* ---- "dfsim": the build that wrote the document ---- */

struct result_build {
    const char *version;
    int schema;
};

static const struct result_build result_schema_build = {dfsim_version, DFSIM_SCHEMA};

static const void *result_schema_locate_build(const void *result)
{
    (void)result;
    return &result_schema_build;
}

static const struct result_field result_build_fields[] = {
    {"version", RESULT_STRING, "", "`git describe` of the build",
     RESULT_AT(struct result_build, version)},
    {"schema", RESULT_COUNT, "", "the layout's version, bumped when a key is renamed or removed",
     RESULT_AT(struct result_build, schema)},
};

static const struct result_section result_build_section = {
    "build", "struct result_build", result_build_fields, RESULT_SCHEMA_COUNT(result_build_fields)};

/* ---- the sections read from struct result ---- */

static const struct result_field result_network_fields[] = {
    {"groups", RESULT_COUNT, "", "groups of routers", RESULT_AT(struct result, groups)},
    {"routers", RESULT_COUNT, "", "routers", RESULT_AT(struct result, routers)},
    {"nodes", RESULT_COUNT, "", "nodes (p per router)", RESULT_AT(struct result, nodes)},
    {"radix", RESULT_COUNT, "ports", "ports per router: p + (a - 1) + h in a canonical dragonfly",
     RESULT_AT(struct result, radix)},
};

static const struct result_section result_network_section = {
    "network", "struct result", result_network_fields, RESULT_SCHEMA_COUNT(result_network_fields)};

/* sweep.json lists accepted before injected, hence the ranks. */
static const struct result_field result_load_fields[] = {
    {"offered", RESULT_NUMBER, "phits/node/cycle",
     "phits of packets generated or refused / (nodes * measure_cycles); a job's messages "
     "count as their packets enter the injection queue (jobs[].load.offered counts them "
     "when the NIC gets them)",
     RESULT_AT(struct result, offered),
     .figure = {.name = "offered", .sweep_rank = 1, .averaged = true}},
    {"injected", RESULT_NUMBER, "phits/node/cycle",
     "phits of packets that left their injection queue through the crossbar in the window",
     RESULT_AT(struct result, injected), .figure = {.name = "injected", .sweep_rank = 3}},
    {"accepted", RESULT_NUMBER, "phits/node/cycle",
     "phits delivered to their destination node in the window", RESULT_AT(struct result, accepted),
     .figure = {.name = "accepted", .sweep_rank = 2, .averaged = true}},
};

static const struct result_section result_load_section = {
    "load", "struct result", result_load_fields, RESULT_SCHEMA_COUNT(result_load_fields)};

static const struct result_field result_packets_fields[] = {
    {"generated", RESULT_COUNT, "packets", "created in the window (entered an injection queue)",
     RESULT_AT(struct result, generated)},
    {"refused", RESULT_COUNT, "packets",
     "Bernoulli arrivals in the window that found the injection queue full (not created)",
     RESULT_AT(struct result, refused)},
    {"injected", RESULT_COUNT, "packets", "left their injection queue in the window",
     RESULT_AT(struct result, injected_packets)},
    {"delivered", RESULT_COUNT, "packets", "delivered to their destination in the window",
     RESULT_AT(struct result, delivered)},
    {"in_flight_at_end", RESULT_COUNT, "packets",
     "in injection queues, buffers and links when the run ends",
     RESULT_AT(struct result, in_flight_at_end)},
};

static const struct result_section result_packets_section = {
    "packets", "struct result", result_packets_fields, RESULT_SCHEMA_COUNT(result_packets_fields)};

/* In enum wait_kind order. */
static const struct result_field result_breakdown_fields[] = {
    {"injection_queue", RESULT_NUMBER, "cycles", "waiting in the injection queue",
     RESULT_AT(struct result, breakdown[WAIT_INJECTION_QUEUE])},
    {"local_queues", RESULT_NUMBER, "cycles",
     "waiting in input and output buffers of local ports, router pipeline included",
     RESULT_AT(struct result, breakdown[WAIT_LOCAL_QUEUES])},
    {"global_queues", RESULT_NUMBER, "cycles",
     "waiting in input and output buffers of global ports, router pipeline included",
     RESULT_AT(struct result, breakdown[WAIT_GLOBAL_QUEUES])},
    {"minimal_links", RESULT_NUMBER, "cycles", "crossing the links of the minimal part of the path",
     RESULT_AT(struct result, breakdown[WAIT_MINIMAL_LINKS])},
    {"nonminimal_links", RESULT_NUMBER, "cycles",
     "crossing the links of the nonminimal part of the path",
     RESULT_AT(struct result, breakdown[WAIT_NONMINIMAL_LINKS])},
};

static const struct result_section result_breakdown_section = {
    "latency_breakdown", "struct result", result_breakdown_fields,
    RESULT_SCHEMA_COUNT(result_breakdown_fields)};

static const struct result_field result_latency_fields[] = {
    {"mean", RESULT_NUMBER, "cycles", "mean latency", RESULT_AT(struct result, latency_mean),
     .figure = {.name = "latency_mean", .sweep_rank = 4, .averaged = true}},
    {"p50", RESULT_NUMBER, "cycles", "median, exact (one histogram bin per cycle)",
     RESULT_AT(struct result, latency_p50)},
    {"p95", RESULT_NUMBER, "cycles", "95th percentile, exact",
     RESULT_AT(struct result, latency_p95)},
    {"p99", RESULT_NUMBER, "cycles", "99th percentile, exact",
     RESULT_AT(struct result, latency_p99), .figure = {.name = "latency_p99", .sweep_rank = 5}},
    {"max", RESULT_NUMBER, "cycles", "largest latency", RESULT_AT(struct result, latency_max)},
    {"breakdown", RESULT_OBJECT, "cycles", "where the mean latency was spent; sums to the mean",
     .section = &result_breakdown_section},
};

static const struct result_section result_latency_section = {
    "latency", "struct result", result_latency_fields, RESULT_SCHEMA_COUNT(result_latency_fields)};

static const struct result_field result_hops_fields[] = {
    {"local", RESULT_NUMBER, "hops", "mean local hops per delivered packet",
     RESULT_AT(struct result, hops_local)},
    {"global", RESULT_NUMBER, "hops", "mean global hops per delivered packet",
     RESULT_AT(struct result, hops_global)},
};

static const struct result_section result_hops_section = {
    "hops", "struct result", result_hops_fields, RESULT_SCHEMA_COUNT(result_hops_fields)};

static bool result_schema_no_decisions(const void *result)
{
    return !((const struct result *)result)->counts_decisions;
}

#define RESULT_NONMINIMAL_DECISIONS_MEANING                                                        \
    "fraction of delivered packets that a decision of ugal or ugal_g sent via an intermediate "    \
    "router (any preset, nmin_hash included; packet.h PACKET_NONMINIMAL_DECISION)"
#define RESULT_PHANTOM_MEANING                                                                     \
    "fraction of delivered packets whose nonminimal decision was phantom: ugal's minimal "         \
    "candidate, re-costed with what latency-1 links would have told the router, would have won "   \
    "(adaptive rules only: 0 for ugal_g and the hashed presets; routers/README.md)"

static const struct result_field result_misrouted_fields[] = {
    {"global", RESULT_NUMBER, "", "fraction of delivered packets with a nonminimal global hop",
     RESULT_AT(struct result, misrouted_global),
     .figure = {.name = "misrouted_global", .sweep_rank = 9}},
    {"local", RESULT_NUMBER, "", "fraction of delivered packets with at least one local misroute",
     RESULT_AT(struct result, misrouted_local),
     .figure = {.name = "misrouted_local", .sweep_rank = 10}},
    {"nonminimal_decisions", RESULT_NUMBER, "", RESULT_NONMINIMAL_DECISIONS_MEANING,
     RESULT_AT(struct result, nonminimal_decisions), .absent_when = result_schema_no_decisions,
     .absent_meaning = "unless routing.mechanism is ugal or ugal_g"},
    {"phantom", RESULT_NUMBER, "", RESULT_PHANTOM_MEANING, RESULT_AT(struct result, phantom),
     .absent_when = result_schema_no_decisions,
     .absent_meaning = "unless routing.mechanism is ugal or ugal_g"},
};

static const struct result_section result_misrouted_section = {
    "misrouted", "struct result", result_misrouted_fields,
    RESULT_SCHEMA_COUNT(result_misrouted_fields)};

/* Max/min is infinite when a router injected nothing: null, with the count of such routers. */
static bool result_schema_router_starved(const void *result)
{
    return ((const struct result *)result)->fairness.starved_routers > 0;
}

static const struct result_field result_fairness_fields[] = {
    {"min_injected_load", RESULT_NUMBER, "phits/node/cycle",
     "the smallest injected load of a router with nodes (packets its nodes injected)",
     RESULT_AT(struct result, fairness.min_injected_load),
     .figure = {.name = "min_injected_load", .sweep_rank = 6, .averaged = true}},
    {"min_injected_pct_of_offered", RESULT_NUMBER, "%",
     "min_injected_load as a percentage of load.offered",
     RESULT_AT(struct result, fairness.min_injected_pct_of_offered),
     .figure = {.name = "min_injected_pct_of_offered"}},
    {"max_min", RESULT_NUMBER_OR_NULL, "",
     "largest / smallest per-router injected load; null when a router injected nothing",
     RESULT_AT(struct result, fairness.max_min), .null_when = result_schema_router_starved,
     .figure = {.name = "max_min", .sweep_rank = 7, .averaged = true, .nulls_key = "starved"}},
    {"starved_routers", RESULT_COUNT, "routers", "routers with nodes whose nodes injected nothing",
     RESULT_AT(struct result, fairness.starved_routers)},
    {"cov", RESULT_NUMBER, "", "population std dev / mean of the per-router injected packets",
     RESULT_AT(struct result, fairness.cov),
     .figure = {.name = "cov", .sweep_rank = 8, .averaged = true}},
    {"per_router_injected", RESULT_COUNT_ARRAY, "packets",
     "packets injected by each router's nodes",
     RESULT_ARRAY_AT(struct result, per_router_injected, routers)},
    {"group0_injected_load", RESULT_NUMBER_ARRAY, "phits/node/cycle",
     "injected load of each router of group 0 that has nodes (the leaves on a Dragonfly+)",
     RESULT_ARRAY_AT(struct result, group0_injected_load, a)},
};

static const struct result_section result_fairness_section = {
    "fairness", "struct result", result_fairness_fields,
    RESULT_SCHEMA_COUNT(result_fairness_fields)};

static const struct result_field result_timing_fields[] = {
    {"wall_seconds", RESULT_NUMBER, "s", "wall-clock time of the simulation",
     RESULT_AT(struct result, wall_seconds)},
    {"cycles_per_second", RESULT_NUMBER, "cycles/s", "simulated cycles per wall-clock second",
     RESULT_AT(struct result, cycles_per_second)},
    {"router_cycles_per_second", RESULT_NUMBER, "router-cycles/s",
     "cycles per second times routers", RESULT_AT(struct result, router_cycles_per_second)},
};

static const struct result_section result_timing_section = {
    "timing", "struct result", result_timing_fields, RESULT_SCHEMA_COUNT(result_timing_fields)};

/* ---- "jobs": one object per job, read from struct job_result (include/job_result.h) ---- */

static bool result_schema_no_jobs(const void *result)
{
    return ((const struct result *)result)->n_jobs == 0;
}

static bool result_schema_open_loop(const void *job)
{
    return !((const struct job_result *)job)->closed;
}

static bool result_schema_not_isolated(const void *job)
{
    return !((const struct job_result *)job)->isolated;
}

static bool result_schema_not_open_ended(const void *job)
{
    return !((const struct job_result *)job)->open_ended;
}

static bool result_schema_unfinished(const void *job)
{
    return !((const struct job_result *)job)->finished;
}

static bool result_schema_alone_unfinished(const void *alone)
{
    return !((const struct job_result_alone *)alone)->finished;
}

static bool result_schema_no_runtime_slowdown(const void *job)
{
    const struct job_result *j = job;
    if (j->open_ended)
        return j->round_cycles <= 0 || !j->alone.finished;
    return !j->finished || !j->alone.finished;
}

static bool result_schema_no_round(const void *job)
{
    return ((const struct job_result *)job)->round_cycles <= 0;
}

static const void *result_schema_locate_message_latency(const void *job)
{
    return &((const struct job_result *)job)->message_latency;
}

static const void *result_schema_locate_iteration_cycles(const void *job)
{
    return &((const struct job_result *)job)->iteration_cycles;
}

static const void *result_schema_locate_alone(const void *job)
{
    return &((const struct job_result *)job)->alone;
}

static const void *result_schema_locate_alone_message_latency(const void *alone)
{
    return &((const struct job_result_alone *)alone)->message_latency;
}

static const struct result_field result_job_load_fields[] = {
    {"offered", RESULT_NUMBER, "phits/node/cycle",
     "phits of the packets and messages the job's traffic created in the window, responses "
     "included (each when its request packet arrives) / (its nodes * measured cycles); a "
     "closed-loop job creates a message's phits at once, so its offered load is its demand, "
     "which may exceed the line rate",
     RESULT_AT(struct job_result, offered)},
    {"injected", RESULT_NUMBER, "phits/node/cycle",
     "phits of its packets that left their injection queue in the window",
     RESULT_AT(struct job_result, injected)},
    {"accepted", RESULT_NUMBER, "phits/node/cycle", "phits of its packets delivered in the window",
     RESULT_AT(struct job_result, accepted)},
};

static const struct result_section result_job_load_section = {
    "job_load", "struct job_result", result_job_load_fields,
    RESULT_SCHEMA_COUNT(result_job_load_fields)};

static const struct result_field result_job_packets_fields[] = {
    {"generated", RESULT_COUNT, "packets", "entered an injection queue in the window",
     RESULT_AT(struct job_result, generated)},
    {"refused", RESULT_COUNT, "packets",
     "single packets (message_bytes = 0) that found the injection queue full",
     RESULT_AT(struct job_result, refused)},
    {"injected", RESULT_COUNT, "packets", "left their injection queue in the window",
     RESULT_AT(struct job_result, injected_packets)},
    {"delivered", RESULT_COUNT, "packets", "delivered in the window",
     RESULT_AT(struct job_result, delivered)},
    {"in_flight_at_end", RESULT_COUNT, "packets",
     "in injection queues, buffers and links when the run ends",
     RESULT_AT(struct job_result, in_flight_at_end)},
};

static const struct result_section result_job_packets_section = {
    "job_packets", "struct job_result", result_job_packets_fields,
    RESULT_SCHEMA_COUNT(result_job_packets_fields)};

static const struct result_field result_job_latency_fields[] = {
    {"mean", RESULT_NUMBER, "cycles", "mean packet latency",
     RESULT_AT(struct job_result, latency.mean)},
    {"p50", RESULT_NUMBER, "cycles", "median, exact", RESULT_AT(struct job_result, latency.p50)},
    {"p90", RESULT_NUMBER, "cycles", "90th percentile, exact",
     RESULT_AT(struct job_result, latency.p90)},
    {"p95", RESULT_NUMBER, "cycles", "95th percentile, exact",
     RESULT_AT(struct job_result, latency.p95)},
    {"p99", RESULT_NUMBER, "cycles", "99th percentile, exact",
     RESULT_AT(struct job_result, latency.p99)},
    {"max", RESULT_NUMBER, "cycles", "largest", RESULT_AT(struct job_result, latency.max)},
};

static const struct result_section result_job_latency_section = {
    "job_latency", "struct job_result", result_job_latency_fields,
    RESULT_SCHEMA_COUNT(result_job_latency_fields)};

static const struct result_field result_spread_fields[] = {
    {"min", RESULT_NUMBER, "cycles", "smallest", RESULT_AT(struct job_result_spread, min)},
    {"q1", RESULT_NUMBER, "cycles", "first quartile (nearest rank)",
     RESULT_AT(struct job_result_spread, q1)},
    {"median", RESULT_NUMBER, "cycles", "median (nearest rank)",
     RESULT_AT(struct job_result_spread, median)},
    {"q3", RESULT_NUMBER, "cycles", "third quartile (nearest rank)",
     RESULT_AT(struct job_result_spread, q3)},
    {"max", RESULT_NUMBER, "cycles", "largest", RESULT_AT(struct job_result_spread, max)},
    {"mean", RESULT_NUMBER, "cycles", "arithmetic mean", RESULT_AT(struct job_result_spread, mean)},
    {"p99", RESULT_NUMBER, "cycles", "99th percentile (nearest rank)",
     RESULT_AT(struct job_result_spread, p99)},
};

static const struct result_section result_spread_section = {
    "spread", "struct job_result_spread", result_spread_fields,
    RESULT_SCHEMA_COUNT(result_spread_fields)};

/* The iterations' spread: the same without p99 (iterations are few). */
static const struct result_section result_iteration_spread_section = {
    "iteration_spread", "struct job_result_spread", result_spread_fields,
    RESULT_SCHEMA_COUNT(result_spread_fields) - 1};

static const struct result_field result_job_messages_fields[] = {
    {"sent", RESULT_COUNT, "messages",
     "created in the window (queued in the source's NIC); responses are not messages",
     RESULT_AT(struct job_result, messages_sent)},
    {"delivered", RESULT_COUNT, "messages",
     "whose last packet arrived in the window, whenever created: it may exceed sent by the "
     "messages warm-up left in flight, and fall short of it by those in flight at the end",
     RESULT_AT(struct job_result, messages_delivered)},
    {"latency", RESULT_OBJECT, "cycles",
     "creation of a message to the arrival of its last packet, over the messages delivered",
     .section = &result_spread_section, .locate = result_schema_locate_message_latency},
};

static const struct result_section result_job_messages_section = {
    "job_messages", "struct job_result", result_job_messages_fields,
    RESULT_SCHEMA_COUNT(result_job_messages_fields)};

static const struct result_field result_job_iterations_fields[] = {
    {"completed", RESULT_COUNT, "iterations",
     "iterations every rank finished (open_ended: over all its rounds)",
     RESULT_AT(struct job_result, iterations_completed)},
    {"rounds", RESULT_COUNT, "", "open_ended: the times it completed all its iterations",
     RESULT_AT(struct job_result, rounds), .absent_when = result_schema_not_open_ended,
     .absent_meaning = "unless open_ended"},
    {"round_cycles", RESULT_NUMBER_OR_NULL, "cycles",
     "open_ended: the mean duration of its completed rounds (from its start to the end of the "
     "last one, over rounds); null if it completed none",
     RESULT_AT(struct job_result, round_cycles), .null_when = result_schema_no_round,
     .absent_when = result_schema_not_open_ended, .absent_meaning = "unless open_ended"},
    {"cycles", RESULT_OBJECT, "cycles",
     "over every finished (rank, iteration): from the end of the rank's previous iteration, "
     "compute phase and waits included",
     .section = &result_iteration_spread_section, .locate = result_schema_locate_iteration_cycles},
    {"job_cycles", RESULT_COUNT_ARRAY, "cycles",
     "each completed iteration of the job, first first: from the end of the previous one (or "
     "the start) to the end of its slowest rank's (open_ended: of its last round)",
     RESULT_ARRAY_AT(struct job_result, job_iteration_cycles, job_iterations)},
};

static const struct result_section result_job_iterations_section = {
    "job_iterations", "struct job_result", result_job_iterations_fields,
    RESULT_SCHEMA_COUNT(result_job_iterations_fields)};

static const struct result_field result_job_alone_fields[] = {
    {"finished", RESULT_BOOL, "", "the job finished its iterations alone before sim.max_cycles",
     RESULT_AT(struct job_result_alone, finished)},
    {"runtime_cycles", RESULT_NUMBER_OR_NULL, "cycles", "its runtime alone; null if capped",
     RESULT_AT(struct job_result_alone, runtime_cycles),
     .null_when = result_schema_alone_unfinished},
    {"message_latency", RESULT_OBJECT, "cycles", "its message latencies alone",
     .section = &result_spread_section, .locate = result_schema_locate_alone_message_latency},
    {"packet_latency_mean", RESULT_NUMBER, "cycles", "its mean packet latency alone",
     RESULT_AT(struct job_result_alone, packet_latency_mean)},
};

static const struct result_section result_job_alone_section = {
    "job_alone", "struct job_result_alone", result_job_alone_fields,
    RESULT_SCHEMA_COUNT(result_job_alone_fields)};

static const struct result_field result_job_slowdown_fields[] = {
    {"runtime", RESULT_NUMBER_OR_NULL, "",
     "runtime_cycles / alone.runtime_cycles; null unless both finished (open_ended: "
     "iterations.round_cycles / alone.runtime_cycles, one round alone; null if no round "
     "completed)",
     RESULT_AT(struct job_result, slowdown_runtime),
     .null_when = result_schema_no_runtime_slowdown},
    {"message_latency", RESULT_NUMBER, "",
     "mean message latency / its mean alone (0 when it sent none)",
     RESULT_AT(struct job_result, slowdown_message_latency)},
};

static const struct result_section result_job_slowdown_section = {
    "job_slowdown", "struct job_result", result_job_slowdown_fields,
    RESULT_SCHEMA_COUNT(result_job_slowdown_fields)};

static bool result_schema_not_throttled(const void *job)
{
    return strcmp(((const struct job_result *)job)->throttle, "none") == 0;
}

static const struct result_field result_job_throttle_fields[] = {
    {"kind", RESULT_STRING, "", "jobs.NAME.throttle: \"static\" or \"aimd\"",
     RESULT_AT(struct job_result, throttle)},
    {"final_rate", RESULT_NUMBER, "phits/node/cycle",
     "the rate of its token buckets at the end of the run, mean over its nodes (static: the cap)",
     RESULT_AT(struct job_result, throttle_final_rate)},
    {"mean_rate", RESULT_NUMBER, "phits/node/cycle",
     "aimd: the rate each window of the measurement ended with, mean over its nodes and those "
     "windows (static: the cap)",
     RESULT_AT(struct job_result, throttle_mean_rate)},
};

static const struct result_section result_job_throttle_section = {
    "job_throttle", "struct job_result", result_job_throttle_fields,
    RESULT_SCHEMA_COUNT(result_job_throttle_fields)};

static bool result_schema_no_job_mode(const void *job)
{
    return ((const struct job_result *)job)->ugal_preset == 0;
}

static const struct result_field result_job_routing_fields[] = {
    {"ugal_preset", RESULT_STRING, "", "jobs.NAME.ugal_preset: the Aries mode of its packets",
     RESULT_AT(struct job_result, ugal_preset_name)},
    {"misrouted_global", RESULT_NUMBER, "",
     "fraction of its delivered packets that took a global hop off every minimal path",
     RESULT_AT(struct job_result, misrouted_global)},
};

static const struct result_section result_job_routing_section = {
    "job_routing", "struct job_result", result_job_routing_fields,
    RESULT_SCHEMA_COUNT(result_job_routing_fields)};

static bool result_schema_job_no_decisions(const void *job)
{
    return !((const struct job_result *)job)->counts_decisions;
}

static const struct result_field result_job_misrouted_fields[] = {
    {"nonminimal_decisions", RESULT_NUMBER, "", RESULT_NONMINIMAL_DECISIONS_MEANING,
     RESULT_AT(struct job_result, nonminimal_decisions)},
    {"phantom", RESULT_NUMBER, "", RESULT_PHANTOM_MEANING, RESULT_AT(struct job_result, phantom)},
};

static const struct result_section result_job_misrouted_section = {
    "job_misrouted", "struct job_result", result_job_misrouted_fields,
    RESULT_SCHEMA_COUNT(result_job_misrouted_fields)};

static bool result_schema_no_responses(const void *job)
{
    return !((const struct job_result *)job)->responses;
}

static const struct result_field result_job_nic_fields[] = {
    {"request_flits", RESULT_COUNT, "phits",
     "phits of its request packets its NICs injected (a flit is a phit here)",
     RESULT_AT(struct job_result, request_flits)},
    {"request_packets", RESULT_COUNT, "packets", "request packets its NICs injected",
     RESULT_AT(struct job_result, request_packets)},
    {"request_stall_cycles", RESULT_COUNT, "cycles",
     "node-cycles in which a request packet of one of its nodes stalled: in the NIC, its "
     "injection queue full, or a ready injection-queue head the router could not take",
     RESULT_AT(struct job_result, request_stall_cycles)},
    {"responses", RESULT_COUNT, "packets", "request packets whose response arrived",
     RESULT_AT(struct job_result, answered)},
    {"request_response_cycles", RESULT_COUNT, "cycles",
     "sum over them of request injected -> its response's last packet at the requester",
     RESULT_AT(struct job_result, request_response_cycles)},
    {"s", RESULT_NUMBER, "", "request_stall_cycles / request_flits",
     RESULT_AT(struct job_result, stalls_per_flit)},
    {"L", RESULT_NUMBER, "cycles", "request_response_cycles / responses",
     RESULT_AT(struct job_result, latency_per_packet)},
};

static const struct result_section result_job_nic_section = {
    "job_nic", "struct job_result", result_job_nic_fields,
    RESULT_SCHEMA_COUNT(result_job_nic_fields)};

static bool result_schema_no_selector(const void *job)
{
    return !((const struct job_result *)job)->app_aware;
}

static const struct result_field result_job_selector_fields[] = {
    {"default_mode", RESULT_STRING, "",
     "its default mode (its ugal_preset, else adaptive_1 for alltoall, else adaptive_0); the "
     "other is adaptive_3",
     RESULT_AT(struct job_result, selector_default_mode)},
    {"packets_default", RESULT_COUNT, "packets", "request packets of messages sent in it",
     RESULT_AT(struct job_result, packets_default)},
    {"packets_high", RESULT_COUNT, "packets", "request packets of messages sent with high bias",
     RESULT_AT(struct job_result, packets_high)},
    {"fraction_default", RESULT_NUMBER, "", "packets_default / (packets_default + packets_high)",
     RESULT_AT(struct job_result, fraction_default)},
};

static const struct result_section result_job_selector_section = {
    "job_selector", "struct job_result", result_job_selector_fields,
    RESULT_SCHEMA_COUNT(result_job_selector_fields)};

static bool result_schema_not_traced(const void *job)
{
    return !((const struct job_result *)job)->traced;
}

static const struct result_field result_job_trace_skipped_fields[] = {
    {"one_sided", RESULT_COUNT, "events", "RMA records (one-sided communication)",
     RESULT_AT(struct job_result_trace, skipped[0])},
    {"io", RESULT_COUNT, "events", "I/O records", RESULT_AT(struct job_result_trace, skipped[1])},
    {"threads", RESULT_COUNT, "events",
     "thread and OpenMP records, and every record of a location that is not a rank",
     RESULT_AT(struct job_result_trace, skipped[2])},
    {"request_test_cancel", RESULT_COUNT, "events",
     "MPI_REQUEST_TEST and MPI_REQUEST_CANCELLED (a cancelled request's call is dropped)",
     RESULT_AT(struct job_result_trace, skipped[3])},
    {"metric_parameter", RESULT_COUNT, "events", "metric and parameter records",
     RESULT_AT(struct job_result_trace, skipped[4])},
    {"other", RESULT_COUNT, "events",
     "every other record not modelled (buffer flushes, calling contexts, program begin/end, "
     "communicator events, non-blocking collective requests)",
     RESULT_AT(struct job_result_trace, skipped[5])},
};

static const struct result_section result_job_trace_skipped_section = {
    "job_trace_skipped", "struct job_result_trace", result_job_trace_skipped_fields,
    RESULT_SCHEMA_COUNT(result_job_trace_skipped_fields)};

static const void *result_schema_locate_trace(const void *job)
{
    return &((const struct job_result *)job)->trace;
}

static const struct result_field result_job_trace_fields[] = {
    {"ranks", RESULT_COUNT, "ranks", "the trace's ranks (on the job's first nodes)",
     RESULT_AT(struct job_result_trace, ranks)},
    {"cycle_ns", RESULT_NUMBER, "ns", "sim.cycle_ns: the length of a cycle",
     RESULT_AT(struct job_result_trace, cycle_ns)},
    {"runtime_ns", RESULT_NUMBER, "ns", "runtime_cycles * cycle_ns (0 if capped)",
     RESULT_AT(struct job_result_trace, runtime_ns)},
    {"events", RESULT_COUNT, "events", "records read from the trace's event files",
     RESULT_AT(struct job_result_trace, events)},
    {"collectives", RESULT_COUNT, "calls", "collective calls decomposed (one per rank and call)",
     RESULT_AT(struct job_result_trace, collectives)},
    {"messages", RESULT_COUNT, "messages",
     "application messages sent (point to point and collectives' parts)",
     RESULT_AT(struct job_result_trace, messages)},
    {"bytes", RESULT_COUNT, "bytes", "their bytes", RESULT_AT(struct job_result_trace, bytes)},
    {"control_messages", RESULT_COUNT, "messages",
     "rendezvous requests and clear-to-sends (messages of at least eager_bytes)",
     RESULT_AT(struct job_result_trace, control_messages)},
    {"local_messages", RESULT_COUNT, "messages",
     "messages a rank sent to itself (no network)",
     RESULT_AT(struct job_result_trace, local_messages)},
    {"requests", RESULT_COUNT, "requests", "requests opened (sends and receives)",
     RESULT_AT(struct job_result_trace, requests)},
    {"requests_completed", RESULT_COUNT, "requests", "of those, completed",
     RESULT_AT(struct job_result_trace, requests_completed)},
    {"compute_cycles", RESULT_COUNT_ARRAY, "cycles",
     "each rank's compute: the time between its MPI calls, x compute_scale",
     RESULT_ARRAY_AT(struct job_result_trace, compute, ranks)},
    {"communication_cycles", RESULT_COUNT_ARRAY, "cycles",
     "each rank's time blocked in a wait after its peer reached the matching call",
     RESULT_ARRAY_AT(struct job_result_trace, communication, ranks)},
    {"waiting_cycles", RESULT_COUNT_ARRAY, "cycles",
     "each rank's time blocked in a wait before its peer reached the matching call",
     RESULT_ARRAY_AT(struct job_result_trace, waiting, ranks)},
    {"skipped", RESULT_OBJECT, "events", "records the replay does not model, by kind",
     .section = &result_job_trace_skipped_section},
};

static const struct result_section result_job_trace_section = {
    "job_trace", "struct job_result_trace", result_job_trace_fields,
    RESULT_SCHEMA_COUNT(result_job_trace_fields)};

static const struct result_field result_job_fields[] = {
    {"name", RESULT_STRING, "", "the job's name", RESULT_AT(struct job_result, name)},
    {"kind", RESULT_STRING, "", "\"closed loop\" (a motif) or \"open loop\" (a pattern)",
     RESULT_AT(struct job_result, kind)},
    {"traffic", RESULT_STRING, "", "its motif or pattern", RESULT_AT(struct job_result, traffic)},
    {"nodes", RESULT_COUNT, "nodes", "its nodes (= ranks)", RESULT_AT(struct job_result, nodes)},
    {"placement", RESULT_STRING, "", "how its nodes were chosen",
     RESULT_AT(struct job_result, placement)},
    {"ranks_to_nodes", RESULT_COUNT_ARRAY, "", "the node of each rank, rank 0 first",
     RESULT_ARRAY_AT(struct job_result, ranks_to_nodes, nodes)},
    {"load", RESULT_OBJECT, "phits/node/cycle", "its loads over its own nodes",
     .section = &result_job_load_section},
    {"packets", RESULT_OBJECT, "packets", "its packet counts",
     .section = &result_job_packets_section},
    {"nic_stall_cycles", RESULT_COUNT, "cycles",
     "the stall signal's NIC part: node-cycles in which one of its NICs held a packet whose "
     "injection queue was full",
     RESULT_AT(struct job_result, nic_stall_cycles)},
    {"nic_ready_cycles", RESULT_COUNT, "cycles",
     "node-cycles in which one of its NICs held a packet and its link was free",
     RESULT_AT(struct job_result, nic_ready_cycles)},
    {"injection_stall_cycles", RESULT_COUNT, "cycles",
     "the stall signal's injection-queue part: node-cycles in which the head packet of one of "
     "its nodes' injection queues was ready (all its phits in, the router's pipeline done, its "
     "crossbar input free) and could not advance for lack of credit or crossbar grant",
     RESULT_AT(struct job_result, injection_stall_cycles)},
    {"ready_cycles", RESULT_COUNT, "cycles",
     "node-cycles with a packet ready: in a NIC with its link free, or a ready injection-queue "
     "head, taken or not (each node-cycle once)",
     RESULT_AT(struct job_result, ready_cycles)},
    {"stall_cycles", RESULT_COUNT, "cycles",
     "node-cycles with either stall, NIC or injection queue (each node-cycle once)",
     RESULT_AT(struct job_result, stall_cycles)},
    {"stall_fraction", RESULT_NUMBER, "",
     "stall_cycles / ready_cycles (0: never ready); what AIMD's x measures per window",
     RESULT_AT(struct job_result, stall_fraction)},
    {"throttle", RESULT_OBJECT, "", "its injection throttle",
     .section = &result_job_throttle_section, .absent_when = result_schema_not_throttled,
     .absent_meaning = "with throttle = \"none\""},
    {"routing", RESULT_OBJECT, "", "its own routing mode (ugal, ugal_g)",
     .section = &result_job_routing_section, .absent_when = result_schema_no_job_mode,
     .absent_meaning = "with ugal_preset = \"none\""},
    {"misrouted", RESULT_OBJECT, "", "its packets' nonminimal routing decisions (ugal, ugal_g)",
     .section = &result_job_misrouted_section, .absent_when = result_schema_job_no_decisions,
     .absent_meaning = "unless routing.mechanism is ugal or ugal_g"},
    {"nic", RESULT_OBJECT, "", "its NICs' request counters (measurement window)",
     .section = &result_job_nic_section, .absent_when = result_schema_no_responses,
     .absent_meaning = "with response_bytes = 0"},
    {"selector", RESULT_OBJECT, "", "its app_aware selector's choices (measurement window)",
     .section = &result_job_selector_section, .absent_when = result_schema_no_selector,
     .absent_meaning = "with selector = \"none\""},
    {"latency", RESULT_OBJECT, "cycles",
     "packet latency: entering the injection queue -> tail delivered",
     .section = &result_job_latency_section},
    {"messages", RESULT_OBJECT, "", "its messages (none for single-packet open-loop traffic)",
     .section = &result_job_messages_section},
    {"finished", RESULT_BOOL, "",
     "it finished every iteration before sim.max_cycles (open_ended: never, it restarts)",
     RESULT_AT(struct job_result, finished), .absent_when = result_schema_open_loop,
     .absent_meaning = "for open-loop jobs"},
    {"open_ended", RESULT_BOOL, "",
     "true: it restarted its iterations until the jobs without open_ended were done; its "
     "runtime is no result (null), its loads and latencies are",
     RESULT_AT(struct job_result, open_ended), .absent_when = result_schema_not_open_ended,
     .absent_meaning = "unless jobs.NAME.open_ended"},
    {"iterations", RESULT_OBJECT, "", "its iterations", .section = &result_job_iterations_section,
     .absent_when = result_schema_open_loop, .absent_meaning = "for open-loop jobs"},
    {"runtime_cycles", RESULT_NUMBER_OR_NULL, "cycles",
     "from its start (the end of the warm-up) to the end of its last rank's last iteration; "
     "null if capped or open_ended",
     RESULT_AT(struct job_result, runtime_cycles), .null_when = result_schema_unfinished,
     .absent_when = result_schema_open_loop, .absent_meaning = "for open-loop jobs"},
    {"node_cycles", RESULT_NUMBER_OR_NULL, "node-cycles",
     "nodes * runtime_cycles; null if capped or open_ended",
     RESULT_AT(struct job_result, node_cycles), .null_when = result_schema_unfinished,
     .absent_when = result_schema_open_loop, .absent_meaning = "for open-loop jobs"},
    {"replay", RESULT_OBJECT, "", "its trace's replay (traffic/MODEL.md, \"Trace jobs\")",
     .section = &result_job_trace_section, .locate = result_schema_locate_trace,
     .absent_when = result_schema_not_traced, .absent_meaning = "unless jobs.NAME.trace"},
    {"alone", RESULT_OBJECT, "",
     "the same job run alone: same placement and seeds, every other job silent",
     .section = &result_job_alone_section, .locate = result_schema_locate_alone,
     .absent_when = result_schema_not_isolated,
     .absent_meaning = "unless sim.isolate (dfsim run --isolate), and for open-loop jobs"},
    {"slowdown", RESULT_OBJECT, "", "what sharing the network cost it",
     .section = &result_job_slowdown_section, .absent_when = result_schema_not_isolated,
     .absent_meaning = "unless sim.isolate (dfsim run --isolate), and for open-loop jobs"},
};

static const struct result_section result_job_section = {
    "job", "struct job_result", result_job_fields, RESULT_SCHEMA_COUNT(result_job_fields)};

static bool result_schema_run_not_isolated(const void *result)
{
    return !((const struct result *)result)->run.isolated;
}

static const struct result_field result_run_fields[] = {
    {"cycles", RESULT_COUNT, "cycles", "cycles simulated, warm-up included",
     RESULT_AT(struct result, run.cycles)},
    {"measured_cycles", RESULT_COUNT, "cycles",
     "of the measurement window: warm-up end to the run's end (every load's denominator)",
     RESULT_AT(struct result, run.measured_cycles)},
    {"max_cycles", RESULT_COUNT, "cycles", "sim.max_cycles",
     RESULT_AT(struct result, run.max_cycles)},
    {"capped", RESULT_BOOL, "",
     "closed-loop jobs were still running at sim.max_cycles: the run was cut there",
     RESULT_AT(struct result, run.capped)},
    {"node_cycles", RESULT_NUMBER, "node-cycles",
     "sum of the closed-loop jobs' node_cycles (the finished ones)",
     RESULT_AT(struct result, run.node_cycles)},
    {"node_cycles_alone", RESULT_NUMBER, "node-cycles",
     "sum of the closed-loop jobs' nodes * runtime alone",
     RESULT_AT(struct result, run.node_cycles_alone), .absent_when = result_schema_run_not_isolated,
     .absent_meaning = "unless sim.isolate"},
    {"node_cycles_increase", RESULT_NUMBER, "",
     "node_cycles / node_cycles_alone: what sharing the network cost the workload (0 unless "
     "every closed-loop job finished in both runs)",
     RESULT_AT(struct result, run.node_cycles_increase),
     .absent_when = result_schema_run_not_isolated, .absent_meaning = "unless sim.isolate"},
};

static const struct result_section result_run_section = {"run", "struct result", result_run_fields,
                                                         RESULT_SCHEMA_COUNT(result_run_fields)};

/* ---- the time series, the steady-state verdict and link load (stats.*) ---- */

static bool result_schema_no_series(const void *result)
{
    return !((const struct result *)result)->series.on;
}

static bool result_schema_no_steady_state(const void *result)
{
    return !((const struct result *)result)->has_steady_state;
}

static bool result_schema_no_link_load(const void *result)
{
    return !((const struct result *)result)->link_load.on;
}

static bool result_schema_no_series_jobs(const void *series)
{
    return ((const struct result_series *)series)->n_jobs == 0;
}

static const void *result_schema_locate_series(const void *result)
{
    return &((const struct result *)result)->series;
}

static const void *result_schema_locate_steady_state(const void *result)
{
    return &((const struct result *)result)->steady_state;
}

static const struct result_field result_series_job_fields[] = {
    {"name", RESULT_STRING, "", "the job's name", RESULT_AT(struct result_series_job, name)},
    {"accepted", RESULT_NUMBER_ARRAY, "phits/node/cycle",
     "phits of its packets delivered in each sample / (its nodes * the sample's cycles)",
     RESULT_ARRAY_AT(struct result_series_job, accepted, n)},
    {"delivered", RESULT_COUNT_ARRAY, "packets", "its packets delivered in each sample",
     RESULT_ARRAY_AT(struct result_series_job, delivered, n)},
    {"messages_delivered", RESULT_COUNT_ARRAY, "messages",
     "its messages whose last packet arrived in each sample",
     RESULT_ARRAY_AT(struct result_series_job, messages_delivered, n)},
    {"iterations", RESULT_COUNT_ARRAY, "iterations",
     "closed loop: iterations every rank had completed at the end of each sample, since the "
     "window's start (0 for open-loop jobs)",
     RESULT_ARRAY_AT(struct result_series_job, iterations, n)},
};

static const struct result_section result_series_job_section = {
    "series_job", "struct result_series_job", result_series_job_fields,
    RESULT_SCHEMA_COUNT(result_series_job_fields)};

static const struct result_field result_series_fields[] = {
    {"sample_cycles", RESULT_COUNT, "cycles", "stats.sample_cycles: the length of a sample",
     RESULT_AT(struct result_series, sample_cycles)},
    {"end_cycle", RESULT_COUNT_ARRAY, "cycles",
     "the cycle each sample ends at (exclusive, counted from the run's start); the first "
     "starts with the window, the last may be shorter",
     RESULT_ARRAY_AT(struct result_series, end_cycle, n)},
    {"offered", RESULT_NUMBER_ARRAY, "phits/node/cycle", "load.offered over each sample",
     RESULT_ARRAY_AT(struct result_series, offered, n)},
    {"injected", RESULT_NUMBER_ARRAY, "phits/node/cycle", "load.injected over each sample",
     RESULT_ARRAY_AT(struct result_series, injected, n)},
    {"accepted", RESULT_NUMBER_ARRAY, "phits/node/cycle", "load.accepted over each sample",
     RESULT_ARRAY_AT(struct result_series, accepted, n)},
    {"delivered", RESULT_COUNT_ARRAY, "packets", "packets delivered in each sample",
     RESULT_ARRAY_AT(struct result_series, delivered, n)},
    {"latency_mean", RESULT_NUMBER_ARRAY, "cycles",
     "mean latency of the packets delivered in each sample (0: none)",
     RESULT_ARRAY_AT(struct result_series, latency_mean, n)},
    {"latency_p99", RESULT_NUMBER_ARRAY, "cycles",
     "99th percentile, exact, of the latencies of the packets delivered in each sample (0: none)",
     RESULT_ARRAY_AT(struct result_series, latency_p99, n)},
    {"in_flight", RESULT_COUNT_ARRAY, "packets",
     "packets in injection queues, buffers and links at the end of each sample",
     RESULT_ARRAY_AT(struct result_series, in_flight, n)},
    {"jobs", RESULT_OBJECT_ARRAY, "", "per job, in the order of the config's jobs, its progress",
     RESULT_OBJECTS_AT(struct result_series, jobs, n_jobs), .section = &result_series_job_section,
     .absent_when = result_schema_no_series_jobs, .absent_meaning = "without jobs"},
};

static const struct result_section result_series_section = {
    "series", "struct result_series", result_series_fields,
    RESULT_SCHEMA_COUNT(result_series_fields)};

static const struct result_field result_steady_state_fields[] = {
    {"test", RESULT_STRING, "", "the stationarity test: \"MSER-5\" on accepted load and mean latency",
     RESULT_AT(struct result_steady_state, test)},
    {"steady", RESULT_BOOL, "",
     "the window is stationary: cutting the transient MSER-5 finds at its start moves neither "
     "accepted load nor mean latency by more than stats.steady_tolerance with a z above 3 "
     "(false: not judged with fewer than 20 full samples)",
     RESULT_AT(struct result_steady_state, steady)},
    {"saturated", RESULT_BOOL, "",
     "accepted load below offered by more than stats.saturation_tolerance of it, after the "
     "transient",
     RESULT_AT(struct result_steady_state, saturated)},
    {"reason", RESULT_STRING, "", "the verdict in words",
     RESULT_AT(struct result_steady_state, reason)},
    {"samples", RESULT_COUNT, "samples", "full samples of the window (a shorter last one is left out)",
     RESULT_AT(struct result_steady_state, samples)},
    {"batches", RESULT_COUNT, "", "batches of 5 samples MSER-5 reads",
     RESULT_AT(struct result_steady_state, batches)},
    {"truncation_samples", RESULT_COUNT, "samples",
     "the transient: samples MSER-5 cuts at the window's start",
     RESULT_AT(struct result_steady_state, truncation_samples)},
    {"truncation_cycles", RESULT_COUNT, "cycles", "the same in cycles",
     RESULT_AT(struct result_steady_state, truncation_cycles)},
    {"accepted_bias", RESULT_NUMBER, "",
     "|accepted load over the batches - over those after the transient| / the latter",
     RESULT_AT(struct result_steady_state, accepted_bias)},
    {"latency_bias", RESULT_NUMBER, "", "the same for the mean latency",
     RESULT_AT(struct result_steady_state, latency_bias)},
    {"accepted_z", RESULT_NUMBER, "",
     "|mean of the cut batches' accepted load - the rest's| / its standard error from the "
     "rest's spread (a stationary series: below 3; 999 when the rest does not vary)",
     RESULT_AT(struct result_steady_state, accepted_z)},
    {"latency_z", RESULT_NUMBER, "", "the same for the batches' mean latency",
     RESULT_AT(struct result_steady_state, latency_z)},
    {"offered", RESULT_NUMBER, "phits/node/cycle", "offered load after the transient",
     RESULT_AT(struct result_steady_state, offered)},
    {"accepted", RESULT_NUMBER, "phits/node/cycle", "accepted load after the transient",
     RESULT_AT(struct result_steady_state, accepted)},
    {"shortfall", RESULT_NUMBER, "", "1 - accepted / offered after the transient",
     RESULT_AT(struct result_steady_state, shortfall)},
    {"in_flight_growth", RESULT_NUMBER, "packets/cycle",
     "packets in flight at the last full sample's end minus at the transient's end, per cycle",
     RESULT_AT(struct result_steady_state, in_flight_growth)},
    {"warmup_cycles", RESULT_COUNT, "cycles", "the warm-up this run had",
     RESULT_AT(struct result_steady_state, warmup_cycles)},
    {"warmup_extensions", RESULT_COUNT, "",
     "times stats.extend_warmup lengthened the warm-up before this run",
     RESULT_AT(struct result_steady_state, warmup_extensions)},
};

static const struct result_section result_steady_state_section = {
    "steady_state", "struct result_steady_state", result_steady_state_fields,
    RESULT_SCHEMA_COUNT(result_steady_state_fields)};

static const struct result_field result_link_class_fields[] = {
    {"links", RESULT_COUNT, "links", "output links of the class (one per direction)",
     RESULT_AT(struct result_link_class, links)},
    {"mean", RESULT_NUMBER, "phits/cycle", "mean over its links of phits / measured cycles",
     RESULT_AT(struct result_link_class, mean)},
    {"max", RESULT_NUMBER, "phits/cycle", "the most loaded link's",
     RESULT_AT(struct result_link_class, max)},
    {"jain", RESULT_NUMBER, "",
     "Jain's index of its links' phits: (sum x)^2 / (n sum x^2), 1 = even, 1/n = one link",
     RESULT_AT(struct result_link_class, jain)},
    {"from", RESULT_COUNT_ARRAY, "", "each link's router, in router and port order",
     RESULT_ARRAY_AT(struct result_link_class, from, links)},
    {"to", RESULT_COUNT_ARRAY, "", "the router it reaches (node links: the node)",
     RESULT_ARRAY_AT(struct result_link_class, to, links)},
    {"phits", RESULT_COUNT_ARRAY, "phits",
     "phits each link started carrying in the window (a packet's phits when its head leaves)",
     RESULT_ARRAY_AT(struct result_link_class, phits, links)},
};

static const struct result_section result_link_class_section = {
    "link_class", "struct result_link_class", result_link_class_fields,
    RESULT_SCHEMA_COUNT(result_link_class_fields)};

static const void *result_schema_locate_node_links(const void *result)
{
    return &((const struct result *)result)->link_load.classes[0];
}

static const void *result_schema_locate_local_links(const void *result)
{
    return &((const struct result *)result)->link_load.classes[1];
}

static const void *result_schema_locate_global_links(const void *result)
{
    return &((const struct result *)result)->link_load.classes[2];
}

static const struct result_field result_link_load_fields[] = {
    {"node", RESULT_OBJECT, "", "the links from routers to their nodes (ejection)",
     .section = &result_link_class_section, .locate = result_schema_locate_node_links},
    {"local", RESULT_OBJECT, "", "the local links", .section = &result_link_class_section,
     .locate = result_schema_locate_local_links},
    {"global", RESULT_OBJECT, "", "the global links", .section = &result_link_class_section,
     .locate = result_schema_locate_global_links},
};

static const struct result_section result_link_load_section = {
    "link_load", "struct result", result_link_load_fields,
    RESULT_SCHEMA_COUNT(result_link_load_fields)};

/* ---- the document ---- */

static const struct result_field result_document_fields[] = {
    {"dfsim", RESULT_OBJECT, "", "the build that wrote the document",
     .section = &result_build_section, .locate = result_schema_locate_build},
    {"config", RESULT_SETTINGS, "",
     "every setting, resolved (defaults included), grouped as in the config file, plus `name`",
     .storage = RESULT_STORED_NOWHERE},
    {"network", RESULT_OBJECT, "", "the size of the network", .section = &result_network_section},
    {"load", RESULT_OBJECT, "phits/node/cycle", "loads in the measurement window",
     .section = &result_load_section},
    {"packets", RESULT_OBJECT, "packets", "packet counts", .section = &result_packets_section},
    {"latency", RESULT_OBJECT, "cycles",
     "generation -> tail delivered, over the packets delivered in the window",
     .section = &result_latency_section},
    {"hops", RESULT_OBJECT, "hops", "path lengths", .section = &result_hops_section},
    {"misrouted", RESULT_OBJECT, "", "nonminimal paths", .section = &result_misrouted_section},
    {"fairness", RESULT_OBJECT, "",
     "how evenly routers inject: per router, the packets its p nodes injected in the window",
     .section = &result_fairness_section},
    {"run", RESULT_OBJECT, "", "the run's length", .section = &result_run_section,
     .absent_when = result_schema_no_jobs, .absent_meaning = "without jobs"},
    {"jobs", RESULT_OBJECT_ARRAY, "", "one object per job, in the order of the config's jobs",
     RESULT_OBJECTS_AT(struct result, jobs, n_jobs), .section = &result_job_section,
     .absent_when = result_schema_no_jobs, .absent_meaning = "without jobs"},
    {"series", RESULT_OBJECT, "", "the measurement window sample by sample",
     .section = &result_series_section, .locate = result_schema_locate_series,
     .absent_when = result_schema_no_series, .absent_meaning = "with stats.sample_cycles = 0"},
    {"steady_state", RESULT_OBJECT, "",
     "whether the window is stationary and the point saturated, from the series",
     .section = &result_steady_state_section, .locate = result_schema_locate_steady_state,
     .absent_when = result_schema_no_steady_state,
     .absent_meaning = "with stats.sample_cycles = 0"},
    {"link_load", RESULT_OBJECT, "phits", "phits every link carried in the window, by class",
     .section = &result_link_load_section, .absent_when = result_schema_no_link_load,
     .absent_meaning = "unless stats.link_load"},
    {"timing", RESULT_OBJECT, "",
     "speed of the run: the only part that is not a function of the config",
     .section = &result_timing_section, .measured = true},
};

const struct result_section result_schema_document = {"document", "struct result",
                                                      result_document_fields,
                                                      RESULT_SCHEMA_COUNT(result_document_fields)};

/* ---- reading values ---- */

static const char *result_field_address(const struct result_field *f, const void *source)
{
    return (const char *)source + f->offset;
}

uint64_t result_field_count(const struct result_field *f, const void *source)
{
    int int_value;
    uint64_t u64_value;
    if (f->storage == RESULT_STORED_INT) {
        memcpy(&int_value, result_field_address(f, source), sizeof int_value);
        return (uint64_t)int_value;
    }
    assert(f->storage == RESULT_STORED_U64);
    memcpy(&u64_value, result_field_address(f, source), sizeof u64_value);
    return u64_value;
}

double result_field_number(const struct result_field *f, const void *source)
{
    double value;
    assert(f->storage == RESULT_STORED_DOUBLE);
    memcpy(&value, result_field_address(f, source), sizeof value);
    return value;
}

bool result_field_is_null(const struct result_field *f, const void *source)
{
    return f->type == RESULT_NUMBER_OR_NULL && f->null_when(source);
}

const char *result_field_string(const struct result_field *f, const void *source)
{
    const char *value;
    assert(f->storage == RESULT_STORED_STRING);
    memcpy(&value, result_field_address(f, source), sizeof value);
    return value;
}

static const void *result_field_array(const struct result_field *f, const void *source)
{
    const void *array;
    memcpy(&array, result_field_address(f, source), sizeof array);
    return array;
}

int result_field_length(const struct result_field *f, const void *source)
{
    int length;
    memcpy(&length, (const char *)source + f->length_offset, sizeof length);
    return result_field_array(f, source) && length > 0 ? length : 0;
}

uint64_t result_field_count_at(const struct result_field *f, const void *source, int i)
{
    assert(f->storage == RESULT_STORED_U64_ARRAY && i < result_field_length(f, source));
    return ((const uint64_t *)result_field_array(f, source))[i];
}

double result_field_number_at(const struct result_field *f, const void *source, int i)
{
    assert(f->storage == RESULT_STORED_DOUBLE_ARRAY && i < result_field_length(f, source));
    return ((const double *)result_field_array(f, source))[i];
}

bool result_field_bool(const struct result_field *f, const void *source)
{
    bool value;
    assert(f->storage == RESULT_STORED_BOOL);
    memcpy(&value, result_field_address(f, source), sizeof value);
    return value;
}

const void *result_field_object_at(const struct result_field *f, const void *source, int i)
{
    assert(f->storage == RESULT_STORED_OBJECT_ARRAY && i < result_field_length(f, source));
    return (const char *)result_field_array(f, source) + (size_t)i * f->element_size;
}

bool result_field_is_absent(const struct result_field *f, const void *source)
{
    return f->absent_when && f->absent_when(source);
}

const void *result_field_object(const struct result_field *f, const void *source)
{
    return f->locate ? f->locate(source) : source;
}

const char *result_type_name(enum result_type type)
{
    switch (type) {
    case RESULT_COUNT:
        return "count";
    case RESULT_NUMBER:
        return "number";
    case RESULT_NUMBER_OR_NULL:
        return "number or null";
    case RESULT_STRING:
        return "string";
    case RESULT_COUNT_ARRAY:
        return "array of counts";
    case RESULT_NUMBER_ARRAY:
        return "array of numbers";
    case RESULT_BOOL:
        return "boolean";
    case RESULT_OBJECT:
        return "object";
    case RESULT_OBJECT_ARRAY:
        return "array of objects";
    case RESULT_SETTINGS:
        return "object of settings";
    }
    return "?";
}

/* ---- walking the table ---- */

struct result_schema_walker {
    int (*visit)(void *ctx, const char *path, const struct result_field *f);
    void *ctx;
    char path[RESULT_PATH_LEN];
};

static int result_schema_walk_section(struct result_schema_walker *w,
                                      const struct result_section *section)
{
    size_t prefix = strlen(w->path);
    int rc = 0;
    for (int i = 0; rc == 0 && i < section->n_fields; i++) {
        const struct result_field *f = &section->fields[i];
        int n =
            snprintf(w->path + prefix, sizeof w->path - prefix, "%s%s", prefix ? "." : "", f->key);
        assert(n > 0 && (size_t)n < sizeof w->path - prefix);
        (void)n;
        rc = w->visit(w->ctx, w->path, f);
        if (rc == 0 && f->type == RESULT_OBJECT_ARRAY) {
            size_t end = strlen(w->path);
            assert(end + 2 < sizeof w->path);
            strcpy(w->path + end, "[]");
        }
        if (rc == 0 && (f->type == RESULT_OBJECT || f->type == RESULT_OBJECT_ARRAY))
            rc = result_schema_walk_section(w, f->section);
    }
    w->path[prefix] = '\0';
    return rc;
}

int result_schema_walk(const struct result_section *section,
                       int (*visit)(void *ctx, const char *path, const struct result_field *f),
                       void *ctx)
{
    struct result_schema_walker w = {.visit = visit, .ctx = ctx};
    return result_schema_walk_section(&w, section);
}

struct result_schema_search {
    const char *path;
    const struct result_field *found;
};

static int result_schema_match(void *ctx, const char *path, const struct result_field *f)
{
    struct result_schema_search *s = ctx;
    if (strcmp(path, s->path) != 0)
        return 0;
    s->found = f;
    return 1;
}

const struct result_field *result_schema_find(const char *path)
{
    struct result_schema_search s = {path, NULL};
    result_schema_walk(&result_schema_document, result_schema_match, &s);
    return s.found;
}

static int result_schema_collect_figure(void *ctx, const char *path, const struct result_field *f)
{
    struct result_figures *out = ctx;
    if (!f->figure.name || strstr(path, "[]"))
        return 0;
    assert(out->n < RESULT_FIGURES_MAX);
    out->items[out->n].field = f;
    out->items[out->n].figure = &f->figure;
    snprintf(out->items[out->n].path, sizeof out->items[out->n].path, "%s", path);
    out->n++;
    return 0;
}

/* sweep.json's figures first, by rank; the others after them. */
static int result_schema_figure_order(const struct result_figure_at *at)
{
    int rank = at->figure->sweep_rank;
    return rank > 0 ? rank : RESULT_FIGURES_MAX + 1;
}

static void result_schema_sort_figures(struct result_figures *out);

void result_schema_figures(struct result_figures *out)
{
    out->n = 0;
    result_schema_walk(&result_schema_document, result_schema_collect_figure, out);
    result_schema_sort_figures(out);
}

/* The job figures: by path, since the sections they are in (the spread of latencies) are
 * shared with parts that are not figures (the spread alone). In sweep.json's order. */
static const struct {
    const char *path;
    struct result_figure figure;
} result_job_figures[] = {
    {"runtime_cycles", {"runtime_cycles", 1, true, "capped"}},
    {"slowdown.runtime", {"slowdown_runtime", 2, true, "unfinished"}},
    {"slowdown.message_latency", {"slowdown_message_latency", 3, true, NULL}},
    {"messages.latency.median", {"message_latency_median", 4, true, NULL}},
    {"messages.latency.mean", {"message_latency_mean", 5, true, NULL}},
    {"messages.latency.p99", {"message_latency_p99", 6, true, NULL}},
    {"load.offered", {"offered", 7, true, NULL}},
    {"load.accepted", {"accepted", 8, true, NULL}},
    {"latency.mean", {"latency_mean", 9, true, NULL}},
    {"latency.p50", {"latency_p50", 10, true, NULL}},
    {"latency.p90", {"latency_p90", 11, true, NULL}},
    {"load.injected", {"injected", 12, true, NULL}},
    {"stall_fraction", {"stall_fraction", 13, true, NULL}},
    {"node_cycles", {"node_cycles", 14, true, "capped"}},
};

void result_schema_job_figures(struct result_figures *out)
{
    out->n = 0;
    for (size_t i = 0; i < sizeof result_job_figures / sizeof result_job_figures[0]; i++) {
        struct result_schema_search s = {result_job_figures[i].path, NULL};
        result_schema_walk(&result_job_section, result_schema_match, &s);
        assert(s.found && out->n < RESULT_FIGURES_MAX);
        out->items[out->n].field = s.found;
        out->items[out->n].figure = &result_job_figures[i].figure;
        snprintf(out->items[out->n].path, sizeof out->items[out->n].path, "%s", s.path);
        out->n++;
    }
}

static void result_schema_sort_figures(struct result_figures *out)
{
    /* Insertion sort: stable (the others keep their document order), and the list is short. */
    for (int i = 1; i < out->n; i++) {
        struct result_figure_at moving = out->items[i];
        int j = i;
        for (; j > 0 &&
               result_schema_figure_order(&out->items[j - 1]) > result_schema_figure_order(&moving);
             j--)
            out->items[j] = out->items[j - 1];
        out->items[j] = moving;
    }
}
