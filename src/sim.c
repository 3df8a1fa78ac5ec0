/* sim: building a run, the cycle loop (generation, events, routers, links) and the
 * deadlock watchdog. */
#include "sim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_config.h"
#include "memory.h"
#include "misroute_policy.h"
#include "router.h"
#include "workload.h"

enum { RNG_STREAM_TRAFFIC = 1, RNG_STREAM_ROUTING = 2 };

/* The port tables of one router kind: VCs, offsets and link latencies by port class. */
static void sim_layout_kind(struct sim *sim, const struct router_kind *kind,
                            struct sim_layout *layout)
{
    const struct sim_config *cfg = sim->cfg;
    const int vcs[PORT_CLASSES] = {sim->vcs_injection, sim->vcs_local, sim->vcs_global};
    const int latency[PORT_CLASSES] = {cfg->links.injection_latency, cfg->links.local_latency,
                                       cfg->links.global_latency};
    int offset = 0;
    layout->kind = kind;
    for (int port = 0; port < kind->radix; port++) {
        enum port_class cls = (enum port_class)kind->port_class[port];
        layout->port_class[port] = (uint8_t)cls;
        layout->port_vcs[port] = vcs[cls];
        layout->port_latency[port] = latency[cls];
        layout->port_vc_offset[port] = offset;
        layout->ring_capacity[port] = (uint16_t)(sim->capacity_phits[cls] / sim->packet_size);
        layout->port_capacity[port] = sim->capacity_phits[cls];
        offset += vcs[cls];
        if (cls != PORT_NODE)
            layout->transit_port_mask |= 1ull << port;
    }
    layout->vcs_per_router = offset;
}

static void sim_layout_ports(struct sim *sim)
{
    const struct sim_config *cfg = sim->cfg;
    double bandwidth[PORT_CLASSES];
    config_link_bandwidths(cfg, bandwidth);
    sim->capacity_phits[PORT_NODE] = cfg->buffers.injection;
    sim->capacity_phits[PORT_LOCAL] = cfg->buffers.local;
    sim->capacity_phits[PORT_GLOBAL] = cfg->buffers.global;
    for (int c = 0; c < PORT_CLASSES; c++) {
        /* The config check accepted every bandwidth (config.c): the fraction exists. */
        link_rate_from_bandwidth(bandwidth[c], &sim->link_rate[c]);
        sim->serialization[c] = link_rate_cycles(sim->link_rate[c], (uint32_t)sim->packet_size);
    }
    for (int k = 0; k < sim->topo.n_kinds; k++)
        sim_layout_kind(sim, &sim->topo.kinds[k], &sim->layouts[k]);
}

_Static_assert(sizeof(struct packet_ring) == 16, "four rings per cache line");
_Static_assert(sizeof(struct port_state) == 32, "two ports per cache line");

/* Carves every ring out of one slot array; credits start at the downstream capacity. */
static int sim_alloc_buffers(struct sim *sim)
{
    const struct topology *t = &sim->topo;
    int out_packets = sim->cfg->buffers.output / sim->packet_size;
    size_t ports = t->port_base[t->routers], vcs = 0, slots = 0;
    sim->router_vc_base = memory_alloc_array((size_t)t->routers, sizeof *sim->router_vc_base);
    if (!sim->router_vc_base)
        return -1;
    for (int r = 0; r < t->routers; r++) {
        const struct sim_layout *layout = sim_layout_of(sim, r);
        sim->router_vc_base[r] = (uint32_t)vcs;
        vcs += (size_t)layout->vcs_per_router;
        for (int port = 0; port < layout->kind->radix; port++)
            slots +=
                (size_t)layout->port_vcs[port] * layout->ring_capacity[port] + (size_t)out_packets;
    }
    sim->slots = memory_alloc_array(slots, sizeof *sim->slots);
    sim->input_vc = memory_alloc_array(vcs, sizeof *sim->input_vc);
    sim->credits = memory_alloc_array(vcs, sizeof *sim->credits);
    sim->input_next = memory_alloc_array(ports, sizeof *sim->input_next);
    sim->route_cache = memory_alloc_array(vcs, sizeof *sim->route_cache);
    sim->ports = memory_alloc_array(ports, sizeof *sim->ports);
    sim->routers = memory_alloc_array((size_t)t->routers, sizeof *sim->routers);
    if (!sim->slots || !sim->input_vc || !sim->credits || !sim->input_next || !sim->route_cache ||
        !sim->ports || !sim->routers)
        return -1;
    sim->output_capacity = (uint16_t)out_packets;
    sim->router_state_bytes =
        vcs * (sizeof *sim->input_vc + sizeof *sim->route_cache + sizeof *sim->credits) +
        ports * (sizeof *sim->ports + sizeof *sim->input_next);
    uint32_t base = 0;
    for (int r = 0; r < t->routers; r++) {
        const struct sim_layout *layout = sim_layout_of(sim, r);
        for (int port = 0; port < layout->kind->radix; port++) {
            int cls = layout->port_class[port];
            for (int vc = 0; vc < layout->port_vcs[port]; vc++) {
                int idx = sim_vc_index(sim, r, port, vc);
                sim->input_vc[idx] = (struct packet_ring){.base = base};
                base += layout->ring_capacity[port];
                sim->credits[idx] = cls == PORT_NODE ? 0 : sim->capacity_phits[cls];
            }
            struct port_state *ps = sim_port(sim, r, port);
            ps->output = (struct packet_ring){.base = base};
            base += (uint32_t)out_packets;
        }
    }
    return 0;
}

/* The fixed part of every router's view (sim_router_view). */
static int sim_init_router_views(struct sim *sim)
{
    sim->router_views = memory_alloc_array((size_t)sim->topo.routers, sizeof *sim->router_views);
    if (!sim->router_views)
        return -1;
    for (int r = 0; r < sim->topo.routers; r++) {
        const struct sim_layout *layout = sim_layout_of(sim, r);
        sim->router_views[r] = (struct router_view){
            .router = r,
            .kind = layout->kind,
            .credits = &sim->credits[sim->router_vc_base[r]],
            .vc_offset = layout->port_vc_offset,
            .ports = sim_port(sim, r, 0),
            .capacity = layout->port_capacity,
            .output_capacity = sim->output_capacity,
        };
    }
    return 0;
}

static void sim_env_view(const struct routing_env *env, int router, struct router_view *out)
{
    sim_router_view(env->owner, router, out);
}

/* What the routing mechanism sees of the run (routing.h). */
static void sim_init_routing_env(struct sim *sim)
{
    const struct sim_config *cfg = sim->cfg;
    struct routing_env *env = &sim->routing_env;
    env->topo = &sim->topo;
    env->ladder = &sim->ladder;
    env->params = settings_params(cfg, sim->routing->settings);
    env->global_policy =
        ((const struct misroute_policy_params *)settings_params(cfg, &misroute_policy_settings))
            ->global_policy;
    env->packet_size = sim->packet_size;
    env->vcs[PORT_NODE] = sim->vcs_injection;
    env->vcs[PORT_LOCAL] = sim->vcs_local;
    env->vcs[PORT_GLOBAL] = sim->vcs_global;
    env->link_latency[PORT_NODE] = cfg->links.injection_latency;
    env->link_latency[PORT_LOCAL] = cfg->links.local_latency;
    env->link_latency[PORT_GLOBAL] = cfg->links.global_latency;
    env->rng = &sim->routing_rng;
    env->min_choice = cfg->routing.min_choice;
    env->modes = 1u;
    for (int j = 0; j < cfg->n_jobs; j++)
        env->modes |= job_routing_modes(&cfg->jobs[j]);
    env->view = sim_env_view;
    env->views = sim->router_views;
    env->owner = sim;
}

static int sim_init_parts(struct sim *sim, char *err, int err_len)
{
    const struct sim_config *cfg = sim->cfg;
    sim_layout_ports(sim);
    if (sim_alloc_buffers(sim) || sim_init_router_views(sim)) {
        snprintf(err, (size_t)err_len, "out of memory for the router buffers");
        return -1;
    }
    uint32_t slowest = 0;
    for (int c = 0; c < PORT_CLASSES; c++)
        if (sim->serialization[c] > slowest)
            slowest = sim->serialization[c];
    uint32_t max_delay =
        (uint32_t)(cfg->links.global_latency + cfg->links.local_latency +
                   cfg->links.injection_latency + 2 * (int)slowest + sim->xbar_cycles + 2);
    sim->total_cycles = (uint64_t)(cfg->sim.warmup_cycles + cfg->sim.measure_cycles);
    for (int j = 0; j < cfg->n_jobs; j++)
        if (job_is_closed_loop(&cfg->jobs[j]) && (sim->isolate < 0 || sim->isolate == j))
            sim->total_cycles = (uint64_t)cfg->sim.max_cycles; /* they end it (or this) */
    if (event_wheel_init(&sim->wheel, max_delay) ||
        packet_pool_init(&sim->pool, (uint32_t)sim->topo.nodes * 4) ||
        stats_init(&sim->stats, sim->topo.routers, (uint32_t)sim->total_cycles)) {
        snprintf(err, (size_t)err_len, "out of memory");
        return -1;
    }
    sim_init_routing_env(sim);
    if ((sim->routing->init && sim->routing->init(&sim->routing_env)) ||
        (sim->pattern->init && sim->pattern->init(&sim->pattern_run))) {
        snprintf(err, (size_t)err_len, "cannot initialise routing '%s' or pattern '%s'",
                 sim->routing->name, sim->pattern->name);
        return -1;
    }
    if (cfg->n_jobs && workload_create(sim, sim->isolate, err, err_len) != 0)
        return -1;
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
    sim->routing = routing_registry[cfg->routing.mechanism];
    sim->arbiter = arbiter_registry[cfg->router.arbiter];
    sim->pattern = pattern_registry[cfg->traffic.pattern];
    if (topology_create(&sim->topo, cfg, err, err_len)) {
        free(sim);
        return NULL;
    }
    sim->routing->ladder(cfg, &sim->ladder);
    sim->pattern_run = (struct pattern_run){
        .topo = &sim->topo, .cfg = cfg, .params = settings_params(cfg, sim->pattern->settings)};
    sim->packet_size = cfg->traffic.packet_size;
    sim->xbar_cycles = config_crossbar_cycles(cfg);
    sim->vcs_local = cfg->vcs.local;
    sim->vcs_global = cfg->vcs.global;
    sim->vcs_injection = cfg->vcs.injection;
    sim->generation_threshold = rng_probability_threshold(cfg->traffic.load / sim->packet_size);
    rng_seed(&sim->traffic_rng, (uint64_t)cfg->sim.seed, RNG_STREAM_TRAFFIC);
    rng_seed(&sim->routing_rng, (uint64_t)cfg->sim.seed, RNG_STREAM_ROUTING);
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
    if (sim->routing && sim->routing->destroy)
        sim->routing->destroy(&sim->routing_env);
    if (sim->pattern && sim->pattern->destroy)
        sim->pattern->destroy(&sim->pattern_run);
    workload_destroy(sim);
    stats_free(&sim->stats);
    packet_pool_free(&sim->pool);
    event_wheel_free(&sim->wheel);
    free(sim->slots);
    free(sim->input_vc);
    free(sim->credits);
    free(sim->input_next);
    free(sim->route_cache);
    free(sim->ports);
    free(sim->routers);
    free(sim->router_vc_base);
    free(sim->router_views);
    topology_free(&sim->topo);
    free(sim);
}

/* Puts a packet into input buffer (router, port, vc): it can be allocated router.latency - 1
 * cycles after its head arrived, so that it leaves on the next link router.latency cycles
 * after arrival when nothing is in the way. Its tail_cycle says when its tail arrives. */
static void sim_enter_buffer(struct sim *sim, int router, int port, int vc, uint32_t index,
                             uint64_t head_arrival)
{
    struct packet *pk = sim_packet(sim, index);
    pk->ready_cycle = (uint32_t)(head_arrival + (uint64_t)sim->cfg->router.latency - 1);
    pk->vc = (uint8_t)vc;
    const struct sim_layout *layout = sim_layout_of(sim, router);
    uint32_t port_index = topology_port_base(&sim->topo, router) + (uint32_t)port;
    struct packet_ring *ring =
        &sim->input_vc[sim_vc_base(sim, router) + layout->port_vc_offset[port] + (uint32_t)vc];
    ring_push(sim->slots, ring, layout->ring_capacity[port], index);
    struct port_state *ps = &sim->ports[port_index];
    if (ring->count == 1) {
        ring->head_ready = pk->ready_cycle;
        ps->routed_vc_mask &= (uint16_t) ~(1u << vc);
        /* Keep the input's bound below this head's first chance (see sim.h). */
        uint32_t first =
            pk->ready_cycle > ps->input_busy_until ? pk->ready_cycle : ps->input_busy_until;
        uint32_t *next = &sim->input_next[port_index];
        if (first < *next)
            *next = first;
        if (sim->routing->pure)
            router_route_early(sim, router, port, vc, ps, ring, pk);
    }
    ps->input_vc_mask |= (uint16_t)(1u << vc);
    struct router_state *rs = &sim->routers[router];
    rs->input_nonempty |= 1ull << port;
    if (pk->ready_cycle < rs->allocate_wake)
        rs->allocate_wake = pk->ready_cycle;
}

bool sim_injection_full(const struct sim *sim, uint32_t src, uint32_t dst)
{
    const struct topology *t = &sim->topo;
    int vc = (int)((uint64_t)dst * (uint64_t)sim->vcs_injection / (uint64_t)t->nodes);
    int router = topology_router_of_node(t, (int)src), port = topology_node_port(t, (int)src);
    const struct packet_ring *ring = &sim->input_vc[sim_vc_index(sim, router, port, vc)];
    return ring->count == sim_layout_of(sim, router)->ring_capacity[port];
}

int sim_enqueue(struct sim *sim, uint32_t src, uint32_t dst, uint32_t *packet)
{
    const struct topology *t = &sim->topo;
    uint64_t now = sim->cycle;
    int vc = (int)((uint64_t)dst * (uint64_t)sim->vcs_injection / (uint64_t)t->nodes);
    int router = topology_router_of_node(t, (int)src), port = topology_node_port(t, (int)src);
    struct packet_ring *ring = &sim->input_vc[sim_vc_index(sim, router, port, vc)];
    if (ring->count == sim_layout_of(sim, router)->ring_capacity[port])
        return -1;
    uint32_t index = packet_alloc(&sim->pool);
    if (index == PACKET_NONE) {
        sim->status = SIM_NOMEM;
        return -1;
    }
    struct packet *pk = sim_packet(sim, index);
    pk->src = src;
    pk->dst = dst;
    pk->gen_cycle = (uint32_t)now;
    pk->mark_cycle = (uint32_t)now;
    if (sim->routing->on_generate)
        sim->routing->on_generate(&sim->routing_env, pk);
    uint64_t head = now + (uint64_t)sim->cfg->links.injection_latency;
    pk->tail_cycle = (uint32_t)(head + sim->serialization[PORT_NODE] - 1);
    sim_enter_buffer(sim, router, port, vc, index, head);
    sim->in_network++;
    sim->stats.total_generated++;
    if (sim->measuring) {
        sim->stats.generated++;
        sim->stats.generated_phits += (uint64_t)sim->packet_size;
    }
    if (packet)
        *packet = index;
    return 0;
}

int sim_inject(struct sim *sim, uint32_t src, uint32_t dst)
{
    return sim_inject_packet(sim, src, dst, NULL);
}

int sim_inject_packet(struct sim *sim, uint32_t src, uint32_t dst, uint32_t *packet)
{
    if (sim_enqueue(sim, src, dst, packet) == 0)
        return 0;
    if (sim->measuring && sim->status == SIM_OK) {
        sim->stats.refused++;
        sim->stats.refused_phits += (uint64_t)sim->packet_size;
    }
    return -1;
}

/* Phase 1: Bernoulli sources. */
static void sim_generate(struct sim *sim)
{
    uint64_t threshold = sim->generation_threshold;
    int nodes = sim->topo.nodes;
    /* A local copy of the stream (sim may alias it); rng_bernoulli_first keeps it in registers
     * between successes. */
    struct rng rng = sim->traffic_rng;
    for (int n = rng_bernoulli_first(&rng, threshold, 0, nodes); n < nodes;
         n = rng_bernoulli_first(&rng, threshold, n + 1, nodes)) {
        sim_inject(sim, (uint32_t)n,
                   sim->pattern->destination(&sim->pattern_run, (uint32_t)n, &rng));
        if (sim->status != SIM_OK)
            break;
    }
    sim->traffic_rng = rng;
}

static void sim_deliver(struct sim *sim, uint32_t index)
{
    struct packet *pk = sim_packet(sim, index);
    uint64_t now = sim->cycle;
    pk->wait[WAIT_MINIMAL_LINKS] += (uint32_t)(now - pk->mark_cycle);
    if (sim->measuring) {
        struct stats *st = &sim->stats;
        st->delivered++;
        st->delivered_phits += (uint64_t)sim->packet_size;
        stats_record_latency(st, (uint32_t)(now - pk->gen_cycle));
        for (int k = 0; k < WAIT_KINDS; k++)
            st->wait_sum[k] += pk->wait[k];
        st->hops_local_sum += pk->hops_local;
        st->hops_global_sum += pk->hops_global;
        st->misrouted_global += (pk->flags & PACKET_GLOBAL_MISROUTED) != 0;
        st->misrouted_local += (pk->flags & PACKET_LOCAL_MISROUTED) != 0;
    }
    if (sim->workload)
        workload_packet_delivered(sim, index, now - pk->gen_cycle);
    sim->stats.total_delivered++;
    sim->in_network--;
    packet_release(&sim->pool, index);
}

/* Events are processed in order but touch random routers and packets: fetching what an
 * event a few places ahead will touch overlaps those cache misses. No effect on results. */
enum { EVENT_PREFETCH_DISTANCE = 8 };

static void sim_prefetch_event(const struct sim *sim, const struct event *ev)
{
    if (ev->kind != EVENT_CREDIT)
        __builtin_prefetch(sim_packet(sim, ev->packet), 1);
    if (ev->kind == EVENT_DELIVERY)
        return;
    int idx = sim_vc_index(sim, (int)ev->router, ev->port, ev->vc);
    __builtin_prefetch(&sim->routers[ev->router], 1);
    if (ev->kind == EVENT_CREDIT) {
        __builtin_prefetch(&sim->credits[idx], 1);
        return;
    }
    __builtin_prefetch(&sim->input_vc[idx], 1);
    __builtin_prefetch(sim_port(sim, (int)ev->router, ev->port), 1);
    __builtin_prefetch(&sim->input_next[topology_port_base(&sim->topo, (int)ev->router) + ev->port],
                       1);
}

/* Phase 2: heads reaching input buffers, credits returning, tails reaching nodes. */
static void sim_process_events(struct sim *sim)
{
    struct event_bucket *bucket = event_wheel_bucket(&sim->wheel, sim->cycle);
    uint64_t now = sim->cycle;
    for (uint32_t i = 0; i < bucket->count; i++) {
        if (i + EVENT_PREFETCH_DISTANCE < bucket->count)
            sim_prefetch_event(sim, &bucket->events[i + EVENT_PREFETCH_DISTANCE]);
        const struct event *ev = &bucket->events[i];
        switch (ev->kind) {
        case EVENT_ARRIVAL: {
            struct packet *pk = sim_packet(sim, ev->packet);
            enum wait_kind link =
                pk->flags & PACKET_HOP_NONMINIMAL ? WAIT_NONMINIMAL_LINKS : WAIT_MINIMAL_LINKS;
            pk->wait[link] += (uint32_t)(now - pk->mark_cycle);
            pk->mark_cycle = (uint32_t)now;
            sim_enter_buffer(sim, (int)ev->router, ev->port, ev->vc, ev->packet, now);
            break;
        }
        case EVENT_CREDIT:
            sim->credits[sim_vc_index(sim, (int)ev->router, ev->port, ev->vc)] += sim->packet_size;
            /* A head waiting for these credits may go this very cycle. */
            if (sim->routers[ev->router].allocate_wake > now)
                sim->routers[ev->router].allocate_wake = (uint32_t)now;
            break;
        case EVENT_DELIVERY:
            sim_deliver(sim, ev->packet);
            break;
        }
    }
    if (bucket->count)
        sim->last_progress_cycle = now;
    event_wheel_clear(&sim->wheel, bucket);
}

/* Appends up to `room` non-empty input buffers of one kind (transit or injection). */
static int sim_describe_stuck(struct sim *sim, bool injection, int room, int *len)
{
    const struct topology *t = &sim->topo;
    int shown = 0;
    for (int r = 0; r < t->routers && shown < room; r++) {
        const struct sim_layout *layout = sim_layout_of(sim, r);
        for (int port = 0; port < layout->kind->radix && shown < room; port++) {
            if ((layout->port_class[port] == PORT_NODE) != injection)
                continue;
            for (int vc = 0; vc < layout->port_vcs[port] && shown < room; vc++) {
                const struct packet_ring *ring = &sim->input_vc[sim_vc_index(sim, r, port, vc)];
                if (!ring->count)
                    continue;
                const struct packet *pk = sim_packet(sim, ring_front(ring));
                size_t left = sizeof sim->message - (size_t)*len;
                int n = snprintf(sim->message + *len, left,
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
    int len = snprintf(sim->message, sizeof sim->message,
                       "deadlock: %" PRIu64 " packets in flight and nothing moved for %" PRId64
                       " cycles (cycle %" PRIu64 "); stuck buffers:",
                       sim->in_network, sim->cfg->sim.deadlock_cycles, sim->cycle);
    int shown = sim_describe_stuck(sim, false, 6, &len);
    sim_describe_stuck(sim, true, 6 - shown, &len);
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

static int sim_prefetch_stages(const struct sim *sim)
{
    size_t bytes = sim->router_state_bytes + (size_t)sim->in_network * sizeof(struct packet);
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

enum sim_status sim_step(struct sim *sim)
{
    const struct topology *t = &sim->topo;
    sim->measuring = sim->cycle >= (uint64_t)sim->cfg->sim.warmup_cycles;
    if (sim->workload)
        workload_generate(sim);
    else
        sim_generate(sim);
    sim_process_events(sim);
    if (sim->routing->on_cycle)
        sim->routing->on_cycle(&sim->routing_env, sim->cycle);
    uint32_t now = (uint32_t)sim->cycle;
    const struct router_state *rs = sim->routers;
    int routers = t->routers, stages = sim_prefetch_stages(sim);
    for (int r = 0; r < routers; r++) {
        for (int stage = 1; stage <= stages; stage++) {
            int ahead = r + prefetch_distance(stage);
            if (ahead < routers && allocate_due(&rs[ahead], now))
                router_prefetch_allocate(sim, ahead, stage);
        }
        if (allocate_due(&rs[r], now))
            router_allocate(sim, r);
    }
    for (int r = 0; r < routers; r++) {
        for (int stage = 1; stage <= stages; stage++) {
            int ahead = r + prefetch_distance(stage);
            if (ahead < routers && send_due(&rs[ahead], now))
                router_prefetch_send(sim, ahead, stage);
        }
        if (send_due(&rs[r], now))
            router_send(sim, r);
    }
    /* An empty network waits (a closed-loop job computing, a silent background): it is not
     * stuck, so the watchdog counts from the last cycle it was empty. */
    if (!sim->in_network)
        sim->last_progress_cycle = sim->cycle;
    /* Deadlock: packets in the network, none moved for deadlock_cycles and nothing on its
     * way (no packet, credit or delivery pending on a link). */
    if (sim->status == SIM_OK && sim->in_network && sim->wheel.pending == 0 &&
        sim->cycle - sim->last_progress_cycle > (uint64_t)sim->cfg->sim.deadlock_cycles) {
        sim->status = SIM_DEADLOCK;
        sim_report_deadlock(sim);
    }
    /* Closed-loop jobs waiting on one another with nothing in flight and nothing due. */
    if (sim->status == SIM_OK && sim->workload && !sim->in_network &&
        workload_stuck(sim, sim->message, sizeof sim->message))
        sim->status = SIM_DEADLOCK;
    if (sim->status == SIM_OK && sim->check_invariants)
        sim_check_invariants(sim);
    sim->cycle++;
    return sim->status;
}

enum sim_status sim_run(struct sim *sim, void (*progress)(const struct sim *, void *), void *ctx)
{
    while (sim->cycle < sim->total_cycles && sim->status == SIM_OK) {
        if (sim->stop && *sim->stop)
            return sim->status = SIM_STOPPED;
        sim_step(sim);
        if (progress && (sim->cycle & 255) == 0)
            progress(sim, ctx);
        if (sim->workload && workload_finished(sim))
            break; /* every closed-loop job has finished its iterations */
    }
    sim->capped = sim->workload && sim->workload->has_closed && !workload_finished(sim) &&
                  sim->status == SIM_OK && sim->cycle >= sim->total_cycles;
    if (sim->status == SIM_NOMEM)
        snprintf(sim->message, sizeof sim->message, "out of memory at cycle %" PRIu64, sim->cycle);
    return sim->status;
}
