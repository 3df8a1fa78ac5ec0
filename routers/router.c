/* router: separable input-first allocator, crossbar transfers and output links. */
#include "router.h"

#include <stdio.h>

#include "sim.h"

/* Per-cycle scratch of one allocation iteration (on the stack: no allocation). */
struct allocation {
    uint64_t outputs_requested;             /* outputs with at least one request */
    uint64_t requests[TOPOLOGY_MAX_RADIX];  /* per output: input ports requesting it */
    struct route_choice choice[TOPOLOGY_MAX_RADIX]; /* per input: its chosen request */
    uint8_t vc[TOPOLOGY_MAX_RADIX];         /* per input: the VC the input arbiter chose */
    uint32_t age[TOPOLOGY_MAX_RADIX];       /* per input: generation cycle of that packet */
};

static inline uint32_t ring_front(const struct sim *sim, const struct packet_ring *ring)
{
    return sim->slots[ring->base + ring->head];
}

static inline uint32_t ring_pop(struct sim *sim, struct packet_ring *ring)
{
    uint32_t index = sim->slots[ring->base + ring->head];
    ring->head = (uint16_t)(ring->head + 1 == ring->capacity ? 0 : ring->head + 1);
    ring->count--;
    return index;
}

static inline void ring_push(struct sim *sim, struct packet_ring *ring, uint32_t index)
{
    unsigned tail = ring->head + ring->count;
    if (tail >= ring->capacity)
        tail -= ring->capacity;
    sim->slots[ring->base + tail] = index;
    ring->count++;
}

/* Can the output take this request now (crossbar output free, room in the output buffer,
 * credits for the whole packet at the next VC)? */
static int router_output_ready(const struct sim *sim, int router, uint64_t outputs_taken,
                               const struct route_choice *ch)
{
    const struct port_state *out = sim_port(sim, router, ch->out_port);
    uint64_t now = sim->cycle;
    if ((outputs_taken >> ch->out_port) & 1 || out->output_busy_until > now ||
        out->output.count == out->output.capacity)
        return 0;
    if (sim->port_class[ch->out_port] == PORT_NODE)
        return 1;
    return sim->credits[sim_vc_index(sim, router, ch->out_port, ch->vc)] >= sim->packet_size;
}

/* Input arbiter of one input port: among the VCs whose head packet is ready and requests an
 * output that can take it, pick one. Returns the VC or -1. */
static int router_input_request(struct sim *sim, int router, int in, uint64_t outputs_taken,
                                struct allocation *al)
{
    struct port_state *ps = sim_port(sim, router, in);
    struct route_choice choice[16];
    uint32_t age[16];
    uint64_t candidates = 0;
    for (uint32_t mask = ps->input_vc_mask; mask; mask &= mask - 1) {
        int vc = __builtin_ctz(mask);
        struct packet_ring *ring = &sim->input_vc[sim_vc_index(sim, router, in, vc)];
        const struct packet *pk = sim_packet(sim, ring_front(sim, ring));
        if (pk->ready_cycle > sim->cycle)
            continue;
        if (sim->routing->route(sim, router, in, pk, &choice[vc])) {
            sim->status = SIM_INVARIANT;
            snprintf(sim->message, sizeof sim->message,
                     "cycle %llu: router %d port %d vc %d: packet %u (%u->%u) has no route on "
                     "the VC ladder (ladder position %d)",
                     (unsigned long long)sim->cycle, router, in, vc, pk->id, pk->src, pk->dst,
                     pk->ladder_pos);
            continue;
        }
        if (!router_output_ready(sim, router, outputs_taken, &choice[vc]))
            continue;
        candidates |= 1ull << vc;
        age[vc] = pk->gen_cycle;
    }
    if (!candidates)
        return -1;
    int vc = sim->arbiter->pick(candidates, ps->input_pointer, age);
    al->choice[in] = choice[vc];
    al->vc[in] = (uint8_t)vc;
    al->age[in] = age[vc];
    return vc;
}

static enum wait_kind queue_wait_kind(enum port_class cls)
{
    return cls == PORT_NODE ? WAIT_INJECTION_QUEUE
           : cls == PORT_LOCAL ? WAIT_LOCAL_QUEUES
                               : WAIT_GLOBAL_QUEUES;
}

static void router_count_injection(struct sim *sim, int router, struct packet *pk)
{
    pk->flags |= PACKET_DECIDED;
    if (!sim->measuring)
        return;
    sim->stats.injected++;
    sim->stats.injected_phits += (uint64_t)sim->packet_size;
    sim->stats.router_injected[router]++;
}

/* Returns the credit of the input buffer the packet leaves to the upstream router. */
static void router_return_credit(struct sim *sim, int router, int in, int vc, uint64_t when)
{
    const struct topology *t = &sim->topo;
    int idx = router * t->radix + in;
    struct event ev = {.router = (uint32_t)t->neighbour[idx], .port = t->neighbour_port[idx],
                       .vc = (uint8_t)vc, .kind = EVENT_CREDIT};
    if (event_wheel_push(&sim->wheel, when + (uint64_t)sim->port_latency[in], &ev))
        sim->status = SIM_NOMEM;
}

/* The hop's bookkeeping on the packet: counters, minimality, the routing state it commits. */
static void router_commit_hop(struct sim *sim, int router, struct packet *pk,
                              const struct route_choice *ch)
{
    const struct topology *t = &sim->topo;
    enum port_class cls = sim->port_class[ch->out_port];
    uint8_t flags = ch->flags & (uint8_t)~PACKET_HOP_NONMINIMAL;
    if (cls != PORT_NODE) {
        int minimal = topology_min_port_to_router(t, router, (int)pk->dst / t->p);
        if (ch->out_port != minimal) {
            flags |= PACKET_HOP_NONMINIMAL;
            if (cls == PORT_GLOBAL)
                flags |= PACKET_GLOBAL_MISROUTED;
        }
        if (cls == PORT_LOCAL)
            pk->hops_local++;
        else
            pk->hops_global++;
        sim->credits[sim_vc_index(sim, router, ch->out_port, ch->vc)] -= sim->packet_size;
    }
    pk->flags = flags;
    pk->ladder_pos = ch->ladder_pos;
    pk->target = ch->target;
    pk->misroute_group = ch->misroute_group;
    pk->vc = (uint8_t)ch->vc;
}

/* Moves the granted packet from input (in, vc) to the output buffer of ch->out_port. */
static void router_grant(struct sim *sim, int router, int in, int vc,
                         const struct route_choice *ch)
{
    uint64_t now = sim->cycle;
    struct port_state *ps_in = sim_port(sim, router, in);
    struct port_state *ps_out = sim_port(sim, router, ch->out_port);
    struct packet_ring *ring = &sim->input_vc[sim_vc_index(sim, router, in, vc)];
    uint32_t index = ring_pop(sim, ring);
    struct packet *pk = sim_packet(sim, index);
    if (!ring->count) {
        ps_in->input_vc_mask &= (uint16_t)~(1u << vc);
        if (!ps_in->input_vc_mask)
            sim->routers[router].input_nonempty &= ~(1ull << in);
    }
    enum port_class cls_in = sim->port_class[in];
    pk->wait[queue_wait_kind(cls_in)] += (uint32_t)(now - pk->mark_cycle);
    pk->mark_cycle = (uint32_t)now;

    /* The transfer lasts packet_size/speedup cycles but cannot end before the tail is in. */
    uint64_t finish = now + (uint64_t)sim->xbar_cycles;
    if (finish < (uint64_t)pk->tail_cycle + 1)
        finish = (uint64_t)pk->tail_cycle + 1;
    ps_in->input_busy_until = (uint32_t)finish;
    ps_out->output_busy_until = (uint32_t)finish;
    router_commit_hop(sim, router, pk, ch);
    if (cls_in == PORT_NODE)
        router_count_injection(sim, router, pk);
    else
        router_return_credit(sim, router, in, vc, finish);
    pk->ready_cycle = (uint32_t)(now + 1);
    ring_push(sim, &ps_out->output, index);
    sim->routers[router].output_nonempty |= 1ull << ch->out_port;
    sim->last_progress_cycle = now;
    if (sim->on_hop)
        sim->on_hop(sim->on_hop_ctx, sim, router, in, index, ch);
}

void router_allocate(struct sim *sim, int router)
{
    struct router_state *rs = &sim->routers[router];
    uint64_t inputs_taken = 0, outputs_taken = 0;
    struct allocation al;
    for (int it = 0; it < sim->cfg->router.allocator_iterations; it++) {
        al.outputs_requested = 0;
        for (uint64_t in_mask = rs->input_nonempty & ~inputs_taken; in_mask;
             in_mask &= in_mask - 1) {
            int in = __builtin_ctzll(in_mask);
            if (sim_port(sim, router, in)->input_busy_until > sim->cycle)
                continue;
            if (router_input_request(sim, router, in, outputs_taken, &al) < 0)
                continue;
            int out = al.choice[in].out_port;
            if (!((al.outputs_requested >> out) & 1)) {
                al.outputs_requested |= 1ull << out;
                al.requests[out] = 0;
            }
            al.requests[out] |= 1ull << in;
        }
        if (!al.outputs_requested)
            break;
        for (uint64_t out_mask = al.outputs_requested; out_mask; out_mask &= out_mask - 1) {
            int out = __builtin_ctzll(out_mask);
            struct port_state *ps_out = sim_port(sim, router, out);
            int in = arbiter_pick_output(sim->arbiter, al.requests[out], ps_out->output_pointer,
                                         al.age, sim->cfg->router.transit_priority,
                                         sim->transit_port_mask);
            int vc = al.vc[in];
            router_grant(sim, router, in, vc, &al.choice[in]);
            ps_out->output_pointer = (uint8_t)((in + 1) % sim->topo.radix);
            struct port_state *ps_in = sim_port(sim, router, in);
            ps_in->input_pointer = (uint8_t)((vc + 1) % sim->port_vcs[in]);
            inputs_taken |= 1ull << in;
            outputs_taken |= 1ull << out;
        }
    }
}

void router_send(struct sim *sim, int router)
{
    struct router_state *rs = &sim->routers[router];
    uint64_t now = sim->cycle;
    for (uint64_t mask = rs->output_nonempty; mask; mask &= mask - 1) {
        int out = __builtin_ctzll(mask);
        struct port_state *ps = sim_port(sim, router, out);
        if (ps->link_busy_until > now)
            continue;
        struct packet *pk = sim_packet(sim, ring_front(sim, &ps->output));
        if (pk->ready_cycle > now)
            continue;
        uint32_t index = ring_pop(sim, &ps->output);
        if (!ps->output.count)
            rs->output_nonempty &= ~(1ull << out);
        enum port_class cls = sim->port_class[out];
        pk->wait[cls == PORT_GLOBAL ? WAIT_GLOBAL_QUEUES : WAIT_LOCAL_QUEUES] +=
            (uint32_t)(now - pk->mark_cycle);
        pk->mark_cycle = (uint32_t)now;
        ps->link_busy_until = (uint32_t)(now + (uint64_t)sim->packet_size);
        struct event ev = {.packet = index};
        uint64_t when;
        if (cls == PORT_NODE) {
            ev.kind = EVENT_DELIVERY;
            when = now + (uint64_t)sim->port_latency[out] + (uint64_t)sim->packet_size - 1;
        } else {
            int idx = router * sim->topo.radix + out;
            ev.kind = EVENT_ARRIVAL;
            ev.router = (uint32_t)sim->topo.neighbour[idx];
            ev.port = sim->topo.neighbour_port[idx];
            ev.vc = pk->vc;
            when = now + (uint64_t)sim->port_latency[out];
        }
        if (event_wheel_push(&sim->wheel, when, &ev))
            sim->status = SIM_NOMEM;
        sim->last_progress_cycle = now;
    }
}
