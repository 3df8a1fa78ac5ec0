/* sim: building a run, the cycle loop (generation, events, routers, links) and the
 * deadlock watchdog. Layer: the top of the core; it may change everything a run holds, and
 * it is the only file that calls both the routers and the NICs. */
#include "sim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "job_config.h"
#include "router.h"
#include "workload.h"

enum { RNG_STREAM_TRAFFIC = 1 };

/* The run's own parts on top of its network: the statistics, the network-wide pattern or the
 * jobs. */
static int sim_init_parts(struct sim *sim, char *err, int err_len)
{
    const struct sim_config *cfg = sim->cfg;
    sim->total_cycles = (uint64_t)(cfg->sim.warmup_cycles + cfg->sim.measure_cycles);
    for (int j = 0; j < cfg->n_jobs; j++)
        if (job_is_closed_loop(&cfg->jobs[j]) && (sim->isolate < 0 || sim->isolate == j))
            sim->total_cycles = (uint64_t)cfg->sim.max_cycles; /* they end it (or this) */
    if (stats_init(&sim->stats, (uint32_t)sim->total_cycles)) {
        snprintf(err, (size_t)err_len, "out of memory");
        return -1;
    }
    if (sim->pattern->init && sim->pattern->init(&sim->pattern_run)) {
        snprintf(err, (size_t)err_len, "cannot initialise pattern '%s'", sim->pattern->name);
        return -1;
    }
    if (cfg->stats.sample_cycles > 0) {
        sim->next_sample = (uint64_t)cfg->sim.warmup_cycles + (uint64_t)cfg->stats.sample_cycles;
        if (stats_init_series(&sim->stats, (uint64_t)cfg->stats.sample_cycles, cfg->n_jobs)) {
            snprintf(err, (size_t)err_len, "out of memory");
            return -1;
        }
    }
    if (cfg->stats.link_load && network_count_link_load(&sim->net) != 0) {
        snprintf(err, (size_t)err_len, "out of memory");
        return -1;
    }
    /* The packet log follows the run itself; a job run alone (--isolate) leaves it be. */
    if (cfg->stats.packet_log[0] && sim->isolate < 0) {
        sim->packet_log = packet_log_open(cfg, err, err_len);
        if (!sim->packet_log)
            return -1;
        packet_log_attach(sim->packet_log, &sim->net);
    }
    if (!cfg->n_jobs)
        return 0;
    sim->workload = workload_create(&sim->net, sim->isolate, err, err_len);
    if (!sim->workload)
        return -1;
    /* The NICs learn which of their packets the routers injected from the network's log. */
    if (network_log_injections(&sim->net) != 0) {
        snprintf(err, (size_t)err_len, "out of memory");
        return -1;
    }
    return 0;
}

struct sim *sim_create(const struct sim_config *cfg, char *err, int err_len)
{
    return sim_create_isolated(cfg, -1, err, err_len);
}

struct sim *sim_create_isolated(const struct sim_config *cfg, int isolate, char *err, int err_len)
{
    struct sim *sim = calloc(1, sizeof *sim);
    if (!sim) {
        snprintf(err, (size_t)err_len, "out of memory");
        return NULL;
    }
    sim->cfg = cfg;
    sim->isolate = isolate;
    if (network_create(&sim->net, cfg, err, err_len)) {
        sim_destroy(sim);
        return NULL;
    }
    sim->pattern = pattern_registry[cfg->traffic.pattern];
    sim->pattern_run = (struct pattern_run){
        .topo = &sim->net.topo, .cfg = cfg, .params = settings_params(cfg, sim->pattern->settings)};
    sim->source_gap = rng_geometric_law(cfg->traffic.load / sim->net.packet_size);
    rng_seed(&sim->traffic_rng, (uint64_t)cfg->sim.seed, RNG_STREAM_TRAFFIC);
    sim->next_source = cfg->n_jobs ? UINT64_MAX : rng_geometric(&sim->traffic_rng, sim->source_gap);
    if (sim_init_parts(sim, err, err_len)) {
        sim_destroy(sim);
        return NULL;
    }
    return sim;
}

void sim_destroy(struct sim *sim)
{
    if (!sim)
        return;
    if (sim->pattern && sim->pattern->destroy)
        sim->pattern->destroy(&sim->pattern_run);
    workload_destroy(sim->workload);
    sim->workload = NULL;
    sim_close_packet_log(sim, false, NULL, 0);
    stats_free(&sim->stats);
    network_destroy(&sim->net);
    free(sim);
}

/* trial + 1 + gap, saturating at UINT64_MAX (never). */
static uint64_t sim_trial_after(uint64_t trial, uint64_t gap)
{
    return gap >= UINT64_MAX - trial - 1 ? UINT64_MAX : trial + 1 + gap;
}

/* Phase 1: the sources (sim.h, next_source): the packets of this cycle's trials, each
 * followed by the draw of the gap to the next. */
static void sim_generate(struct sim *sim)
{
    struct network *net = &sim->net;
    uint64_t nodes = (uint64_t)net->topo.nodes, trial = sim->next_source;
    /* A local copy of the stream (sim may alias it). */
    struct rng rng = sim->traffic_rng;
    for (; trial < nodes && net->status == SIM_OK;
         trial = sim_trial_after(trial, rng_geometric(&rng, sim->source_gap)))
        network_inject(net, (uint32_t)trial,
                       sim->pattern->destination(&sim->pattern_run, (uint32_t)trial, &rng));
    sim->next_source = trial == UINT64_MAX ? trial : trial - (trial < nodes ? trial : nodes);
    sim->traffic_rng = rng;
}

/* A packet's tail reached its node: the statistics and the NICs learn it, the network lets it
 * go. */
static void sim_deliver(struct sim *sim, uint32_t index)
{
    struct network *net = &sim->net;
    struct packet *pk = network_packet(net, index);
    uint64_t now = net->cycle;
    pk->wait[WAIT_MINIMAL_LINKS] += (uint32_t)(now - pk->mark_cycle);
    if (net->measuring) {
        struct stats *st = &sim->stats;
        st->delivered++;
        st->delivered_phits += (uint64_t)net->packet_size;
        stats_record_latency(st, (uint32_t)(now - pk->gen_cycle));
        for (int k = 0; k < WAIT_KINDS; k++)
            st->wait_sum[k] += pk->wait[k];
        st->hops_local_sum += pk->hops_local;
        st->hops_global_sum += pk->hops_global;
        st->misrouted_global += (pk->flags & PACKET_GLOBAL_MISROUTED) != 0;
        st->misrouted_local += (pk->flags & PACKET_LOCAL_MISROUTED) != 0;
        st->nonminimal_decisions += (pk->flags & PACKET_NONMINIMAL_DECISION) != 0;
        st->phantom += (pk->flags & PACKET_PHANTOM) != 0;
    }
    if (sim->workload)
        workload_packet_delivered(sim->workload, net, index, now - pk->gen_cycle);
    if (sim->packet_log)
        packet_log_delivered(sim->packet_log, net, index);
    network_release(net, index);
}

/* Events are processed in order but touch random routers and packets: fetching what an
 * event a few places ahead will touch overlaps those cache misses. No effect on results.
 * Always inlined: GCC takes a function that only prefetches for a pure one and drops its
 * calls. */
enum { EVENT_PREFETCH_DISTANCE = 8 };

static inline __attribute__((always_inline)) void
sim_prefetch_event(const struct network *net, const struct event *ev)
{
    if (ev->kind == EVENT_ARRIVAL || ev->kind == EVENT_DELIVERY)
        __builtin_prefetch(network_packet(net, ev->packet), 1);
    if (ev->kind == EVENT_DELIVERY)
        return;
    int idx = network_vc_index(net, (int)ev->router, ev->port, ev->vc);
    if (ev->kind != EVENT_ARRIVAL && net->sensed)
        network_prefetch_sensed(net, (int)ev->router, ev->port, idx, ev->kind == EVENT_CREDIT,
                                ev->kind == EVENT_CREDIT_FRESH || ev->fresh);
    if (ev->kind == EVENT_CREDIT_FRESH)
        return;
    __builtin_prefetch(&net->routers[ev->router], 1);
    if (ev->kind == EVENT_CREDIT) {
        __builtin_prefetch(&net->credits[idx], 1);
        return;
    }
    __builtin_prefetch(&net->input_vc[idx], 1);
    __builtin_prefetch(network_port(net, (int)ev->router, ev->port), 1);
    __builtin_prefetch(&net->input_next[topology_port_base(&net->topo, (int)ev->router) + ev->port],
                       1);
}

/* Phase 2: heads reaching input buffers, credits returning, tails reaching nodes. */
static void sim_process_events(struct sim *sim)
{
    struct network *net = &sim->net;
    struct event_bucket *bucket = event_wheel_bucket(&net->wheel, net->cycle);
    uint64_t now = net->cycle;
    for (uint32_t i = 0; i < bucket->count; i++) {
        if (i + EVENT_PREFETCH_DISTANCE < bucket->count)
            sim_prefetch_event(net, &bucket->events[i + EVENT_PREFETCH_DISTANCE]);
        const struct event *ev = &bucket->events[i];
        switch (ev->kind) {
        case EVENT_ARRIVAL: {
            struct packet *pk = network_packet(net, ev->packet);
            enum wait_kind link =
                pk->flags & PACKET_HOP_NONMINIMAL ? WAIT_NONMINIMAL_LINKS : WAIT_MINIMAL_LINKS;
            pk->wait[link] += (uint32_t)(now - pk->mark_cycle);
            pk->mark_cycle = (uint32_t)now;
            network_enter_buffer(net, (int)ev->router, ev->port, ev->vc, ev->packet, now);
            break;
        }
        case EVENT_CREDIT:
            network_return_credit(net, (int)ev->router, ev->port, ev->vc);
            if (net->sensed)
                network_sense_credit(net, (int)ev->router, ev->port, ev->vc, ev->fresh);
            break;
        case EVENT_CREDIT_FRESH:
            network_sense_fresh_credit(net, (int)ev->router, ev->port, ev->vc);
            break;
        case EVENT_DELIVERY:
            sim_deliver(sim, ev->packet);
            break;
        }
    }
    if (bucket->count)
        net->last_progress_cycle = now;
    event_wheel_clear(&net->wheel, bucket);
}

/* Appends up to `room` non-empty input buffers of one kind (transit or injection). */
static int sim_describe_stuck(struct network *net, bool injection, int room, int *len)
{
    const struct topology *t = &net->topo;
    int shown = 0;
    for (int r = 0; r < t->routers && shown < room; r++) {
        const struct network_layout *layout = network_layout_of(net, r);
        for (int port = 0; port < layout->kind->radix && shown < room; port++) {
            if ((layout->port_class[port] == PORT_NODE) != injection)
                continue;
            for (int vc = 0; vc < layout->port_vcs[port] && shown < room; vc++) {
                const struct packet_ring *ring =
                    &net->input_vc[network_vc_index(net, r, port, vc)].ring;
                if (!ring->count)
                    continue;
                const struct packet *pk = network_packet(net, ring_front(ring));
                size_t left = sizeof net->message - (size_t)*len;
                int n = snprintf(net->message + *len, left,
                                 " [router %d port %d vc %d: %u packets, head %u (%u->%u)]", r,
                                 port, vc, ring->count, pk->id, pk->src, pk->dst);
                *len += n < (int)left ? n : (int)left - 1;
                shown++;
            }
        }
    }
    return shown;
}

/* Names the first stuck buffers, transit ones first: they hold the cycle of waits. */
static void sim_report_deadlock(struct sim *sim)
{
    struct network *net = &sim->net;
    int len = snprintf(net->message, sizeof net->message,
                       "deadlock: %" PRIu64 " packets in flight and nothing moved for %" PRId64
                       " cycles (cycle %" PRIu64 "); stuck buffers:",
                       net->in_network, sim->cfg->sim.deadlock_cycles, net->cycle);
    int shown = sim_describe_stuck(net, false, 6, &len);
    sim_describe_stuck(net, true, 6 - shown, &len);
}

/* How many routers ahead the cycle loop prefetches (router_prefetch_allocate/send): far
 * enough for memory to answer, near enough for the lines to still be cached. */
enum { PREFETCH_STAGE1_AHEAD = 4, PREFETCH_STAGE2_AHEAD = 2 };

/* The second prefetch stage (head packets, output lines) pays for its extra pass only when
 * the state the routers touch, their arrays and the packets, is well beyond what the caches
 * hold. Measured on a 32 MiB L3 (UN 0.4 unless said): it costs 20 % at h=6 (5 MiB), and saves
 * 5 % at h=8 (13 MiB), 15 % at h=10 (40 MiB) and 5 % for h=6 PB-RRG under ADVc (full
 * injection queues). Speed only: results do not depend on it. */
enum { PREFETCH_HEADS_MIN_BYTES = 8 << 20 };

static int sim_prefetch_stages(const struct network *net)
{
    size_t bytes = net->router_state_bytes + (size_t)net->in_network * sizeof(struct packet);
    return bytes > PREFETCH_HEADS_MIN_BYTES ? 2 : 1;
}

static inline int prefetch_distance(int stage)
{
    return stage == 1 ? PREFETCH_STAGE1_AHEAD : PREFETCH_STAGE2_AHEAD;
}

/* Whether the router's allocator, or its output stage, has anything to do this cycle. */
static inline bool allocate_due(const struct router_state *rs, uint32_t now)
{
    return rs->input_nonempty && rs->allocate_wake <= now;
}
static inline bool send_due(const struct router_state *rs, uint32_t now)
{
    return rs->output_nonempty && rs->send_wake <= now;
}

/* Phase 3: route, allocate and cross the crossbar, router by router. Each due router's inputs
 * are scanned once, when the prefetch reaches it, and the scan kept (a ring as deep as the
 * prefetch distance) for its allocation: the routers in between never touch its inputs. */
enum { SCAN_RING = 8 };
_Static_assert((int)SCAN_RING > (int)PREFETCH_STAGE1_AHEAD,
               "a router's scan outlives the routers between");

static void sim_allocate(struct network *net)
{
    uint32_t now = (uint32_t)net->cycle;
    const struct router_state *rs = net->routers;
    /* An adaptive routing reads its ready heads' packets every cycle they wait: fetch them
     * ahead whatever the network's size. */
    int routers = net->topo.routers,
        stages = net->routing->pure ? sim_prefetch_stages(net) : 2;
    struct router_inputs scan[SCAN_RING];
    for (int r = 0; r < PREFETCH_STAGE1_AHEAD && r < routers; r++)
        if (allocate_due(&rs[r], now))
            scan[r % SCAN_RING] = router_scan_inputs(net, r);
    for (int r = 0; r < routers; r++) {
        int ahead = r + PREFETCH_STAGE1_AHEAD;
        if (ahead < routers && allocate_due(&rs[ahead], now)) {
            scan[ahead % SCAN_RING] = router_scan_inputs(net, ahead);
            router_prefetch_allocate(net, ahead, 1, scan[ahead % SCAN_RING].ready);
        }
        ahead = r + PREFETCH_STAGE2_AHEAD;
        if (stages == 2 && ahead < routers && allocate_due(&rs[ahead], now))
            router_prefetch_allocate(net, ahead, 2, scan[ahead % SCAN_RING].ready);
        if (allocate_due(&rs[r], now))
            router_allocate(net, r, scan[r % SCAN_RING]);
    }
}

/* Phase 4: start packets on their links. */
static void sim_send(struct network *net)
{
    uint32_t now = (uint32_t)net->cycle;
    const struct router_state *rs = net->routers;
    int routers = net->topo.routers, stages = sim_prefetch_stages(net);
    for (int r = 0; r < routers; r++) {
        for (int stage = 1; stage <= stages; stage++) {
            int ahead = r + prefetch_distance(stage);
            if (ahead < routers && send_due(&rs[ahead], now))
                router_prefetch_send(net, ahead, stage);
        }
        if (send_due(&rs[r], now))
            router_send(net, r);
    }
}

/* The NICs learn which of their packets the routers moved into the network this cycle (in the
 * order they went). */
static void sim_hand_injections(struct sim *sim)
{
    struct network *net = &sim->net;
    for (uint32_t i = 0; i < net->injected_count; i++)
        workload_packet_injected(sim->workload, net, net->injected_log[i]);
    net->injected_count = 0;
}

enum sim_status sim_step(struct sim *sim)
{
    struct network *net = &sim->net;
    net->measuring = net->cycle >= (uint64_t)sim->cfg->sim.warmup_cycles;
    if (sim->workload)
        workload_generate(sim->workload, net);
    else
        sim_generate(sim);
    sim_process_events(sim);
    if (net->routing->on_cycle)
        net->routing->on_cycle(&net->routing_env, net->cycle);
    sim_allocate(net);
    if (sim->workload) {
        sim_hand_injections(sim);
        workload_count_injection_stalls(sim->workload, net);
    }
    sim_send(net);
    /* An empty network waits (a closed-loop job computing, a silent background): it is not
     * stuck, so the watchdog counts from the last cycle it was empty. */
    if (!net->in_network)
        net->last_progress_cycle = net->cycle;
    /* Deadlock: packets in the network, none moved for deadlock_cycles and nothing on its
     * way (no packet, credit or delivery pending on a link). */
    if (net->status == SIM_OK && net->in_network && net->wheel.pending == 0 &&
        net->cycle - net->last_progress_cycle > (uint64_t)sim->cfg->sim.deadlock_cycles) {
        net->status = SIM_DEADLOCK;
        sim_report_deadlock(sim);
    }
    /* Closed-loop jobs waiting on one another with nothing in flight and nothing due. */
    if (net->status == SIM_OK && sim->workload && !net->in_network &&
        workload_stuck(sim->workload, net, net->message, sizeof net->message))
        net->status = SIM_DEADLOCK;
    if (net->status == SIM_OK && sim->check_invariants)
        sim_check_invariants(sim);
    net->cycle++;
    return net->status;
}

int sim_check_invariants(struct sim *sim)
{
    struct network *net = &sim->net;
    if (sim->check_every > 1 && net->cycle % sim->check_every != 0)
        return 0;
    char why[512];
    if (invariants_check(net, sim->workload, why, sizeof why) == 0)
        return 0;
    net->status = SIM_INVARIANT;
    snprintf(net->message, sizeof net->message, "invariant broken at cycle %" PRIu64 ": %s",
             net->cycle, why);
    return -1;
}

/* The routing decides between minimal and nonminimal candidates, packet by packet: the
 * result counts its nonminimal and phantom decisions. */
static bool sim_counts_decisions(const struct sim *sim)
{
    return sim->net.routing->reports_decisions;
}

int sim_close_packet_log(struct sim *sim, bool ok, char *err, int err_len)
{
    char scratch[8];
    struct packet_log *log = sim->packet_log;
    sim->packet_log = NULL;
    if (log) {
        sim->net.on_hop = NULL;
        sim->net.on_send = NULL;
        sim->net.observe_sends = sim->net.link_phits != NULL;
    }
    return packet_log_close(log, ok, err ? err : scratch, err ? err_len : (int)sizeof scratch);
}

int sim_summarize(const struct sim *sim, struct result *res)
{
    const struct network *net = &sim->net;
    struct stats_view run = {
        .link_phits = net->link_phits,
        .workload = sim->workload,
        .steady_tolerance = sim->cfg->stats.steady_tolerance,
        .saturation_tolerance = sim->cfg->stats.saturation_tolerance,
        .warmup_cycles = (uint64_t)sim->cfg->sim.warmup_cycles,
        .topo = &net->topo,
        .counts = &net->counts,
        .stats = &sim->stats,
        .measured_cycles = sim_measured_cycles(sim),
        .in_network = net->in_network,
        .packet_size = net->packet_size,
        .counts_decisions = sim_counts_decisions(sim),
    };
    if (stats_summarize(&run, res) != 0)
        return -1;
    if (!sim->workload)
        return 0;
    res->jobs = calloc((size_t)sim->workload->n_jobs, sizeof *res->jobs);
    if (!res->jobs)
        return -1;
    res->n_jobs = sim->workload->n_jobs;
    return sim_job_results(sim, res->jobs, &res->run);
}

int sim_job_results(const struct sim *sim, struct job_result *out, struct job_result_run *run)
{
    struct job_result_view of = {
        .workload = sim->workload,
        .cycles = sim->net.cycle,
        .measured_cycles = sim_measured_cycles(sim),
        .max_cycles = (uint64_t)sim->cfg->sim.max_cycles,
        .capped = sim->capped,
        .counts_decisions = sim_counts_decisions(sim),
        .cycle_ns = sim->cfg->sim.cycle_ns,
    };
    return job_results_summarize(&of, out, run);
}

/* What the progress line reads of the run now. */
static struct progress_view sim_progress_view(const struct sim *sim)
{
    return (struct progress_view){
        .cycle = sim->net.cycle,
        .total_cycles = sim->total_cycles,
        .measured_cycles = sim_measured_cycles(sim),
        .measuring = sim->net.measuring,
        .workload = sim->workload,
    };
}

/* The first cycle from now on in which the sources or the jobs act (UINT64_MAX: never). */
static uint64_t sim_next_activity(const struct sim *sim)
{
    const struct network *net = &sim->net;
    if (sim->workload)
        return workload_next_activity(sim->workload, net);
    if (sim->next_source == UINT64_MAX)
        return UINT64_MAX;
    return net->cycle + sim->next_source / (uint64_t)net->topo.nodes;
}

/* Idle time costs nothing: with no packet, credit or delivery anywhere in the network and the
 * sources, jobs and NICs silent until their next activity (a low load's next packet, closed-loop
 * jobs computing), the cycles up to it would change no state, count nothing and draw no random
 * number, so the clock jumps there, leaving what those cycles would have left (the watchdog's
 * last quiet cycle, the window flag, the sources' next trial). Never with a routing that acts
 * every cycle (piggyback's on_cycle). */
static void sim_skip_idle(struct sim *sim)
{
    struct network *net = &sim->net;
    if (net->in_network || net->wheel.pending || net->routing->on_cycle ||
        net->status != SIM_OK || (sim->workload && workload_finished(sim->workload)))
        return;
    uint64_t next = sim_next_activity(sim);
    if (next > sim->total_cycles)
        next = sim->total_cycles;
    if (next <= net->cycle)
        return;
    if (!sim->workload && sim->next_source != UINT64_MAX)
        sim->next_source -= (next - net->cycle) * (uint64_t)net->topo.nodes;
    net->cycle = next;
    net->last_progress_cycle = next - 1;
    net->measuring = next - 1 >= (uint64_t)sim->cfg->sim.warmup_cycles;
}

/* The time series: one sample per boundary the clock reached (several when it jumped over
 * idle cycles, in which no counter moved), taken between cycles. */
static void sim_take_samples(struct sim *sim, uint64_t until)
{
    struct network *net = &sim->net;
    struct stats *st = &sim->stats;
    if (!sim->window_seen && net->cycle >= (uint64_t)sim->cfg->sim.warmup_cycles) {
        st->in_flight_at_window_start = net->in_network; /* the clock is at the window's start
                                                           * or jumped there over idle cycles */
        sim->window_seen = true;
    }
    while (sim->next_sample <= until && net->status == SIM_OK) {
        struct stats_sample_view view = {
            .cycle = sim->next_sample,
            .counts = &net->counts,
            .in_network = net->in_network,
            .packet_size = net->packet_size,
            .workload = sim->workload,
        };
        if (stats_take_sample(st, &view) != 0)
            net->status = SIM_NOMEM;
        sim->next_sample += st->sample_cycles;
    }
}

/* The end of a run: the last sample, shorter when the window ends inside it. */
static void sim_end_samples(struct sim *sim)
{
    struct network *net = &sim->net;
    uint64_t last = sim->next_sample - sim->stats.sample_cycles;
    if (net->status != SIM_OK || net->cycle <= last)
        return;
    sim->next_sample = net->cycle;
    sim_take_samples(sim, net->cycle);
}

enum sim_status sim_run(struct sim *sim, void (*progress)(const struct progress_view *, void *),
                        void *ctx)
{
    struct network *net = &sim->net;
    bool series = sim->stats.sample_cycles > 0;
    if (series)
        sim_take_samples(sim, net->cycle);
    while (net->cycle < sim->total_cycles && net->status == SIM_OK) {
        if (sim->stop && *sim->stop)
            return net->status = SIM_STOPPED;
        uint64_t before = net->cycle;
        sim_step(sim);
        sim_skip_idle(sim);
        if (series)
            sim_take_samples(sim, net->cycle);
        if (sim->packet_log && packet_log_due(sim->packet_log) &&
            packet_log_flush(sim->packet_log) != 0)
            net->status = SIM_NOMEM;
        if (progress && (net->cycle >> 8) != (before >> 8)) {
            struct progress_view view = sim_progress_view(sim);
            progress(&view, ctx);
        }
        if (sim->workload && workload_finished(sim->workload))
            break; /* every closed-loop job has finished its iterations */
    }
    sim->capped = sim->workload && sim->workload->has_closed && !workload_finished(sim->workload) &&
                  net->status == SIM_OK && net->cycle >= sim->total_cycles;
    if (series)
        sim_end_samples(sim);
    if (net->status == SIM_NOMEM)
        snprintf(net->message, sizeof net->message, "out of memory at cycle %" PRIu64, net->cycle);
    return net->status;
}
