/* router: the separable input-first allocator, crossbar transfers and output links (see
 * router.h). Layer: acts on the network (network.h) and on nothing else. */
#include "router.h"

#include <stdio.h>
#include <string.h>

#include "network.h"

/* One router seen from its allocator this cycle: the bases of its arrays, computed once
 * (the compiler cannot hoist them out of loops that store through other pointers). */
struct allocation {
    struct network *net;
    int router;
    uint32_t now;
    const struct network_layout *layout; /* this router's kind */
    struct route_ctx route;              /* what the routing mechanism sees of this router */
    bool route_ready;                    /* route is set (only when a decision is needed) */
    struct port_state *ports;            /* this router's ports */
    struct input_vc *vcs;                /* this router's input VCs, by port_vc_offset + vc */
    int32_t *credits;                    /* this router's output credits, same indexing */
    uint32_t *input_next;                /* this router's net->input_next */
    /* Per-cycle scratch of the allocation iterations (on the stack: no allocation). */
    uint32_t wake;                                  /* earliest cycle a waiting head may go */
    uint64_t requesting_inputs;                     /* inputs that made a request */
    uint64_t outputs_requested;                     /* outputs with at least one request */
    uint64_t requests[TOPOLOGY_MAX_RADIX]; /* per output: input ports requesting it */
    /* Per input: its chosen request, the cached decision (router_route_head). */
    const struct route_choice *choice[TOPOLOGY_MAX_RADIX];
    uint8_t vc[TOPOLOGY_MAX_RADIX];                 /* per input: the VC the input arbiter chose */
    uint32_t age[TOPOLOGY_MAX_RADIX];               /* per input: generation cycle of that packet */
};

/* Which inputs are ready is data that changes every cycle: a branch per input mispredicted
 * about one time in three (callgrind, UN 0.4 h=6), so the scan uses compares and selects. */
struct router_inputs router_scan_inputs(const struct network *net, int router)
{
    uint32_t now = (uint32_t)net->cycle;
    const uint32_t *input_next = &net->input_next[topology_port_base(&net->topo, router)];
    struct router_inputs out = {.ready = 0, .wake = UINT32_MAX};
    for (uint64_t inputs = net->routers[router].input_nonempty; inputs; inputs &= inputs - 1) {
        int in = __builtin_ctzll(inputs);
        uint32_t next = input_next[in];
        out.ready |= (uint64_t)(next <= now) << in;
        uint32_t later = next > now ? next : UINT32_MAX;
        out.wake = later < out.wake ? later : out.wake;
    }
    return out;
}

/* When can the output take this request (crossbar output free, room in the output buffer,
 * credits for the whole packet at the next VC)? 0 = now; otherwise the cycle it frees up,
 * or UINT32_MAX when only an event (credits returning, the output buffer draining) can free
 * it: those events wake the router. */
static uint32_t router_output_blocked(const struct allocation *al, uint64_t outputs_taken,
                                      const struct route_choice *ch)
{
    const struct network *net = al->net;
    const struct port_state *out = &al->ports[ch->out_port];
    if ((outputs_taken >> ch->out_port) & 1)
        return al->now + 1;
    if (out->output_busy_until > al->now)
        return out->output_busy_until;
    if (out->output.count == net->output_capacity)
        return UINT32_MAX;
    if (al->layout->port_class[ch->out_port] != PORT_NODE &&
        al->credits[al->layout->port_vc_offset[ch->out_port] + ch->vc] < net->packet_size)
        return UINT32_MAX;
    return 0;
}

/* The routing decision for the head of input (in, vc), cached beside its ring: a reusable
 * one for as long as the packet is the head, an adaptive one for the cycle (route
 * computation precedes allocation: every iteration of the allocator sees the same
 * decision, taken on the state at the start of the cycle). Returns the cached decision, or
 * NULL (no route: the run stops). The mechanism writes it in place and the allocator reads
 * its fields there: a copy of the whole record right after the mechanism wrote it field by
 * field would wait for those stores to reach the cache (a wide load is not forwarded from
 * narrower stores), which was a tenth of the allocator's time under adaptive routings. */
static const struct route_choice *router_route_head(struct allocation *al, int in, int vc,
                                                    struct input_vc *input)
{
    struct network *net = al->net;
    struct port_state *ps = &al->ports[in];
    const struct packet_ring *ring = &input->ring;
    struct route_choice *cached = &input->route;
    if (((ps->routed_vc_mask >> vc) & 1) && (cached->reusable || cached->cycle == al->now))
        return cached;
    const struct packet *pk = network_packet(net, ring_front(ring));
    if (!al->route_ready) {
        network_route_ctx(net, al->router, &al->route);
        al->route_ready = true;
    }
    if (network_decide(net, &al->route, in, pk, cached)) {
        net->status = SIM_INVARIANT;
        snprintf(net->message, sizeof net->message,
                 "cycle %u: router %d port %d vc %d: packet %u (%u->%u) has no route on the VC "
                 "ladder (ladder position %d)",
                 al->now, al->router, in, vc, pk->id, pk->src, pk->dst, pk->ladder_pos);
        return NULL;
    }
    cached->cycle = al->now;
    ps->routed_vc_mask |= (uint16_t)(1u << vc);
    return cached;
}

/* Input arbiter of one input port: among the VCs whose head packet is ready and requests an
 * output that can take it, pick one. Returns the VC or -1. */
static int router_input_request(struct allocation *al, int in, uint64_t outputs_taken)
{
    struct network *net = al->net;
    struct port_state *ps = &al->ports[in];
    struct input_vc *vcs = &al->vcs[al->layout->port_vc_offset[in]];
    const struct route_choice *choice[16];
    uint32_t age[16];
    uint64_t candidates = 0;
    uint32_t next_ready = UINT32_MAX; /* the port's earliest head: its input_next */
    for (uint32_t mask = ps->input_vc_mask; mask; mask &= mask - 1) {
        int vc = __builtin_ctz(mask);
        struct packet_ring *ring = &vcs[vc].ring;
        if (ring->head_ready < next_ready)
            next_ready = ring->head_ready;
        if (ring->head_ready > al->now) {
            if (ring->head_ready < al->wake)
                al->wake = ring->head_ready;
            continue;
        }
        choice[vc] = router_route_head(al, in, vc, &vcs[vc]);
        if (!choice[vc])
            continue;
        uint32_t blocked = router_output_blocked(al, outputs_taken, choice[vc]);
        if (blocked) {
            /* An adaptive decision may change next cycle: ask again then. */
            if (!choice[vc]->reusable)
                blocked = al->now + 1;
            if (blocked < al->wake)
                al->wake = blocked;
            continue;
        }
        candidates |= 1ull << vc;
        /* Only the age arbiter reads ages: round robin need not touch the packet. */
        age[vc] = net->arbiter->uses_age ? network_packet(net, ring_front(ring))->gen_cycle : 0;
    }
    al->input_next[in] = next_ready;
    if (!candidates)
        return -1;
    int vc = net->arbiter->pick(candidates, ps->input_pointer, age);
    /* Its packet is written if the request wins: fetch it while the other inputs request. */
    __builtin_prefetch(network_packet(net, ring_front(&vcs[vc].ring)), 1);
    al->requesting_inputs |= 1ull << in;
    al->choice[in] = choice[vc];
    al->vc[in] = (uint8_t)vc;
    al->age[in] = age[vc];
    return vc;
}

static enum wait_kind queue_wait_kind(enum port_class cls)
{
    return cls == PORT_NODE    ? WAIT_INJECTION_QUEUE
           : cls == PORT_LOCAL ? WAIT_LOCAL_QUEUES
                               : WAIT_GLOBAL_QUEUES;
}

/* A packet leaves its injection queue: counted, and logged for the NICs when they listen
 * (the cycle loop hands the log over: the routers never call the NICs). */
static void router_count_injection(struct network *net, int router, uint32_t index,
                                   struct packet *pk)
{
    pk->flags |= PACKET_DECIDED;
    if (net->injected_log)
        net->injected_log[net->injected_count++] = index;
    if (!net->measuring)
        return;
    net->counts.injected++;
    net->counts.injected_phits += (uint64_t)net->packet_size;
    net->counts.router_injected[router]++;
}

static void router_return_fresh_credit(struct network *net, uint32_t peer, int vc, uint64_t when)
{
    struct event *ev = event_wheel_add(&net->wheel, when);
    if (!ev) {
        net->status = SIM_NOMEM;
        return;
    }
    *ev = (struct event){.router = (uint32_t)topology_peer_router(peer),
                         .port = (uint8_t)topology_peer_port(peer),
                         .vc = (uint8_t)vc,
                         .kind = EVENT_CREDIT_FRESH};
}

/* Returns the credit of the input buffer the packet leaves to the upstream router. */
static void router_return_credit(struct network *net, const struct network_layout *layout,
                                 int router, int in, int vc, uint64_t when)
{
    const struct topology *t = &net->topo;
    uint32_t peer = t->peer[topology_port_base(t, router) + (uint32_t)in];
    int latency = layout->port_latency[in];
    /* Fresh credits (the routing senses them) come back one cycle after the release: with the
     * credit itself over a link of latency 1, else on their own. */
    bool fresh = net->credits_ahead && latency == 1;
    if (net->credits_ahead && !fresh)
        router_return_fresh_credit(net, peer, vc, when + 1);
    struct event *ev = event_wheel_add(&net->wheel, when + (uint64_t)latency);
    if (!ev) {
        net->status = SIM_NOMEM;
        return;
    }
    *ev = (struct event){.router = (uint32_t)topology_peer_router(peer),
                         .port = (uint8_t)topology_peer_port(peer),
                         .vc = (uint8_t)vc,
                         .kind = EVENT_CREDIT,
                         .fresh = fresh};
}

/* The hop's bookkeeping on the packet: counters, minimality, the routing state it commits. */
static void router_commit_hop(const struct allocation *al, struct packet *pk,
                              const struct route_choice *ch)
{
    struct network *net = al->net;
    int router = al->router;
    const struct topology *t = &net->topo;
    enum port_class cls = (enum port_class)al->layout->port_class[ch->out_port];
    uint8_t flags = ch->flags & (uint8_t)~PACKET_HOP_NONMINIMAL;
    if (cls != PORT_NODE) {
        /* Nonminimal: off every minimal path (the cascade has several, the dragonfly one);
         * the minimal port the decision found settles most hops without the topology. */
        int dst_router = topology_router_of_node(t, (int)pk->dst);
        bool minimal = ch->out_port == ch->dst_min_port ||
                       ((topology_min_ports(t, router, dst_router) >> ch->out_port) & 1);
        if (!minimal) {
            flags |= PACKET_HOP_NONMINIMAL;
            if (cls == PORT_GLOBAL)
                flags |= PACKET_GLOBAL_MISROUTED;
        }
        if (cls == PORT_LOCAL)
            pk->hops_local++;
        else
            pk->hops_global++;
        int32_t *credits = &al->credits[al->layout->port_vc_offset[ch->out_port] + ch->vc];
        *credits -= net->packet_size;
        if (net->routing->on_credits)
            net->routing->on_credits(&net->routing_env, router, ch->out_port, ch->vc, *credits);
        if (cls == PORT_GLOBAL && net->sensing.far_end)
            network_sense_grant(net, router, ch->out_port);
    }
    pk->flags = flags;
    pk->ladder_pos = ch->ladder_pos;
    pk->target = ch->target;
    pk->misroute_group = ch->misroute_group;
    pk->vc = (uint8_t)ch->vc;
}

/* Moves the granted packet from input (in, vc) to the output buffer of the decision's port. */
static void router_grant(const struct allocation *al, int in, int vc,
                         const struct route_choice *decision)
{
    /* A copy: routing the next head early overwrites the cached decision. */
    const struct route_choice choice = *decision, *ch = &choice;
    struct network *net = al->net;
    int router = al->router;
    uint64_t now = al->now;
    struct port_state *ps_in = &al->ports[in];
    struct port_state *ps_out = &al->ports[ch->out_port];
    struct packet_ring *ring = &al->vcs[al->layout->port_vc_offset[in] + vc].ring;
    uint32_t index = ring_pop(net->slots, ring, al->layout->ring_capacity[in]);
    struct packet *pk = network_packet(net, index);
    ps_in->routed_vc_mask &= (uint16_t) ~(1u << vc);
    if (ring->count) {
        const struct packet *head = network_packet(net, ring_front(ring));
        ring->head_ready = head->ready_cycle;
        if (net->routing->pure)
            network_route_early(net, router, in, vc, ps_in, head);
    } else {
        ps_in->input_vc_mask &= (uint16_t) ~(1u << vc);
        if (!ps_in->input_vc_mask)
            net->routers[router].input_nonempty &= ~(1ull << in);
    }
    enum port_class cls_in = (enum port_class)al->layout->port_class[in];
    pk->wait[queue_wait_kind(cls_in)] += (uint32_t)(now - pk->mark_cycle);
    pk->mark_cycle = (uint32_t)now;

    /* The transfer lasts packet_size/speedup cycles but cannot end before the tail is in. */
    uint64_t finish = now + (uint64_t)net->xbar_cycles;
    if (finish < (uint64_t)pk->tail_cycle + 1)
        finish = (uint64_t)pk->tail_cycle + 1;
    ps_in->input_busy_until = (uint32_t)finish;
    al->input_next[in] = (uint32_t)finish;
    ps_out->output_busy_until = (uint32_t)finish;
    pk->tail_cycle = (uint32_t)finish; /* its tail may start on the next link from then on */
    router_commit_hop(al, pk, ch);
    if (cls_in == PORT_NODE) {
        router_count_injection(net, router, index, pk);
    } else
        router_return_credit(net, al->layout, router, in, vc, finish);
    pk->ready_cycle = (uint32_t)(now + 1);
    ring_push(net->slots, &ps_out->output, net->output_capacity, index);
    if (ps_out->output.count == 1 && pk->ready_cycle > ps_out->output.head_ready) {
        ps_out->output.head_ready = pk->ready_cycle; /* else the link is still busy */
        ps_out->link_slack = 0;                      /* idle until then */
    }
    struct router_state *rs = &net->routers[router];
    rs->output_nonempty |= 1ull << ch->out_port;
    if (pk->ready_cycle < rs->send_wake)
        rs->send_wake = pk->ready_cycle;
    net->last_progress_cycle = now;
    if (net->on_hop)
        net->on_hop(net->on_hop_ctx, net, router, in, index, ch);
}

/* The next cycle this router's allocator can act: a request that lost arbitration comes
 * back next cycle; a busy input, when its transfer ends; heads in the pipeline, when their
 * delay is over; heads waiting for an output, as router_output_blocked says (events wake
 * the router for credits and output-buffer room). Exact: a skipped cycle could not have
 * granted anything nor consumed a random number. Only the inputs ready at the start of the
 * call can have changed their bound: the others' earliest is the scan's wake. */
static uint32_t router_allocate_wake(const struct allocation *al, struct router_inputs scan,
                                     uint64_t inputs_taken)
{
    uint32_t wake = al->wake < scan.wake ? al->wake : scan.wake, now = al->now;
    if (al->requesting_inputs & ~inputs_taken)
        return now + 1;
    uint64_t inputs = al->net->routers[al->router].input_nonempty & scan.ready;
    for (; inputs; inputs &= inputs - 1) {
        uint32_t next = al->input_next[__builtin_ctzll(inputs)];
        uint32_t later = next > now ? next : UINT32_MAX; /* selects, not branches */
        wake = later < wake ? later : wake;
    }
    return wake;
}

void router_allocate(struct network *net, int router, struct router_inputs scan)
{
    struct router_state *rs = &net->routers[router];
    uint64_t inputs_taken = 0, outputs_taken = 0;
    uint32_t vc_base = network_vc_base(net, router),
             port_base = topology_port_base(&net->topo, router);
    struct allocation al;
    al.net = net;
    al.router = router;
    al.now = (uint32_t)net->cycle;
    al.layout = network_layout_of(net, router);
    al.ports = &net->ports[port_base];
    al.vcs = &net->input_vc[vc_base];
    al.credits = &net->credits[vc_base];
    al.input_next = &net->input_next[port_base];
    al.route.env = &net->routing_env;
    al.route_ready = false;
    al.wake = UINT32_MAX;
    al.requesting_inputs = 0;
    /* An input that made no request in an iteration makes none in the next (decisions are
     * fixed for the cycle and outputs only get taken): later iterations revisit only the
     * inputs that requested and lost. */
    /* Inputs with no head ready or busy are left out: router_allocate_wake counts them. */
    uint64_t candidates = scan.ready;
    for (int it = 0; it < net->cfg->router.allocator_iterations && candidates; it++) {
        al.outputs_requested = 0;
        uint64_t requested_now = 0;
        for (uint64_t in_mask = candidates & ~inputs_taken; in_mask; in_mask &= in_mask - 1) {
            int in = __builtin_ctzll(in_mask);
            if (router_input_request(&al, in, outputs_taken) < 0)
                continue;
            requested_now |= 1ull << in;
            int out = al.choice[in]->out_port;
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
            struct port_state *ps_out = &al.ports[out];
            int in = arbiter_pick_output(net->arbiter, al.requests[out], ps_out->output_pointer,
                                         al.age, net->cfg->router.transit_priority,
                                         al.layout->transit_port_mask);
            int vc = al.vc[in];
            router_grant(&al, in, vc, al.choice[in]);
            ps_out->output_pointer = (uint8_t)(in + 1 == al.layout->kind->radix ? 0 : in + 1);
            al.ports[in].input_pointer = (uint8_t)(vc + 1 == al.layout->port_vcs[in] ? 0 : vc + 1);
            inputs_taken |= 1ull << in;
            outputs_taken |= 1ull << out;
        }
        candidates = requested_now;
    }
    rs->allocate_wake = router_allocate_wake(&al, scan, inputs_taken);
}

/* Puts the head of output `out` on its link at cycle `now`: the link carries rate.num/rate.den
 * phits per cycle, exactly (link_rate.h). The packet starts when both it and the link are
 * ready, to the tick: on a link of fractional bandwidth that may be during the previous
 * cycle, which is how 8-phit packets on a 1.2 phits/cycle link leave 7, 7 and 6 cycles
 * apart. Its tail cannot start before it is through the crossbar. Returns the cycle the link
 * is free again; *tail_sent gets the cycle its tail leaves. */
static uint32_t router_link_transmit(struct port_state *ps, struct link_rate rate,
                                     const struct packet *pk, int phits, uint64_t now,
                                     uint64_t *tail_sent)
{
    if (rate.num == 1) {
        /* 1/den phits per cycle (1 by default): ticks are cycles, the link frees up on a cycle
         * boundary (no slack) and the head leaves now, as soon as the link is free. */
        uint64_t finish = now + (uint64_t)phits * rate.den;
        uint64_t tail_start = (uint64_t)pk->tail_cycle + rate.den;
        if (finish < tail_start)
            finish = tail_start;
        *tail_sent = finish - 1;
        return (uint32_t)finish;
    }
    uint64_t free_tick = (uint64_t)ps->output.head_ready * rate.num - ps->link_slack;
    uint64_t ready_tick = (uint64_t)pk->ready_cycle * rate.num;
    uint64_t start = free_tick > ready_tick ? free_tick : ready_tick;
    uint64_t earliest = now ? (now - 1) * rate.num + 1 : 0; /* not before the previous cycle */
    if (start < earliest)
        start = earliest;
    uint64_t finish = start + (uint64_t)phits * rate.den;
    uint64_t tail_start = (uint64_t)pk->tail_cycle * rate.num + rate.den;
    if (finish < tail_start)
        finish = tail_start;
    uint64_t link_free = (finish + rate.num - 1) / rate.num;
    ps->link_slack = (uint16_t)(link_free * rate.num - finish);
    *tail_sent = link_free - 1;
    return (uint32_t)link_free;
}

void router_send(struct network *net, int router)
{
    struct router_state *rs = &net->routers[router];
    const struct network_layout *layout = network_layout_of(net, router);
    /* Fixed for the call, in locals: the compiler cannot tell that the packet and event
     * writes below leave them alone. */
    uint32_t port_base = topology_port_base(&net->topo, router);
    struct port_state *ports = &net->ports[port_base];
    struct link_rate link_rate[PORT_CLASSES];
    memcpy(link_rate, net->link_rate, sizeof link_rate);
    int packet_size = net->packet_size;
    uint64_t now = net->cycle;
    /* The outputs whose head may go now, and the earliest of the others, with selects: a
     * branch per output on data that changes every cycle mispredicts often. */
    uint32_t wake = UINT32_MAX;
    uint64_t ready = 0;
    for (uint64_t mask = rs->output_nonempty; mask; mask &= mask - 1) {
        int out = __builtin_ctzll(mask);
        uint32_t can_send = ports[out].output.head_ready;
        ready |= (uint64_t)(can_send <= now) << out;
        uint32_t later = can_send > now ? can_send : UINT32_MAX;
        wake = later < wake ? later : wake;
    }
    for (uint64_t mask = ready; mask; mask &= mask - 1) {
        int out = __builtin_ctzll(mask);
        struct port_state *ps = &ports[out];
        uint32_t index = ring_pop(net->slots, &ps->output, net->output_capacity);
        struct packet *pk = network_packet(net, index);
        enum port_class cls = (enum port_class)layout->port_class[out];
        uint64_t tail_sent;
        /* The next head was granted by now, so it is through the crossbar by now + 1: the
         * link alone gates it (its packet stays untouched). */
        uint32_t link_free =
            router_link_transmit(ps, link_rate[cls], pk, packet_size, now, &tail_sent);
        ps->output.head_ready = link_free;
        /* Room in the output buffer: a head waiting for it may go next cycle. */
        if (rs->allocate_wake > now + 1)
            rs->allocate_wake = (uint32_t)now + 1;
        if (ps->output.count) {
            if (link_free < wake)
                wake = link_free;
        } else {
            rs->output_nonempty &= ~(1ull << out);
        }
        pk->wait[cls == PORT_GLOBAL ? WAIT_GLOBAL_QUEUES : WAIT_LOCAL_QUEUES] +=
            (uint32_t)(now - pk->mark_cycle);
        pk->mark_cycle = (uint32_t)now;
        uint64_t latency = (uint64_t)layout->port_latency[out];
        pk->tail_cycle = (uint32_t)(tail_sent + latency); /* downstream */
        /* A delivery when the tail reaches the node, an arrival when the head reaches the
         * next router. */
        uint64_t due = (cls == PORT_NODE ? tail_sent : now) + latency;
        if (__builtin_expect(net->observe_sends, 0))
            network_observe_send(net, router, out, index, due);
        struct event *ev = event_wheel_add(&net->wheel, due);
        if (!ev) {
            net->status = SIM_NOMEM;
        } else if (cls == PORT_NODE) {
            *ev = (struct event){.packet = index, .kind = EVENT_DELIVERY};
        } else {
            uint32_t peer = net->topo.peer[port_base + (uint32_t)out];
            *ev = (struct event){.packet = index,
                                 .router = (uint32_t)topology_peer_router(peer),
                                 .port = (uint8_t)topology_peer_port(peer),
                                 .vc = pk->vc,
                                 .kind = EVENT_ARRIVAL};
        }
        net->last_progress_cycle = now;
    }
    rs->send_wake = wake;
}

/* Stage 1, two routers ahead: the port and input-VC lines of the inputs that may
 * request (`ready`, router_scan_inputs). Stage 2, one router ahead (those lines now cached): the
 * packets at ready heads. */
void router_prefetch_allocate(const struct network *net, int router, int stage, uint64_t ready)
{
    uint32_t now = (uint32_t)net->cycle;
    uint32_t port_base = topology_port_base(&net->topo, router);
    const struct network_layout *layout = network_layout_of(net, router);
    size_t vc_base = network_vc_base(net, router);
    for (uint64_t mask = ready; mask; mask &= mask - 1) {
        int in = __builtin_ctzll(mask);
        size_t vc = vc_base + (size_t)layout->port_vc_offset[in];
        const struct port_state *ps = &net->ports[port_base + (uint32_t)in];
        if (stage == 1) {
            __builtin_prefetch(ps);
            /* The port's VC records, 40 bytes each: every line they span. */
            uintptr_t line = (uintptr_t)&net->input_vc[vc] & ~(uintptr_t)63;
            uintptr_t end = (uintptr_t)&net->input_vc[vc + (size_t)layout->port_vcs[in]];
            for (; line < end; line += 64)
                __builtin_prefetch((const void *)line);
            continue;
        }
        for (uint32_t vcs = ps->input_vc_mask; vcs; vcs &= vcs - 1) {
            size_t v = vc + (size_t)__builtin_ctz(vcs);
            const struct packet_ring *ring = &net->input_vc[v].ring;
            if (ring->head_ready > now)
                continue;
            __builtin_prefetch(network_packet(net, ring->head_packet), 1);
            if ((ps->routed_vc_mask >> (v - vc)) & 1) {
                /* Its output's port line and credits, read when it requests. */
                int out = net->input_vc[v].route.out_port;
                __builtin_prefetch(&net->ports[port_base + (uint32_t)out]);
                __builtin_prefetch(&net->credits[vc_base + (size_t)layout->port_vc_offset[out] +
                                                 (size_t)net->input_vc[v].route.vc]);
            }
        }
        /* The upstream router's address, read when the packet leaves (credit return). */
        __builtin_prefetch(&net->topo.peer[port_base + (uint32_t)in]);
    }
}

/* Stage 1: the output ports' lines; stage 2: the packets that will take a link and the slot
 * of the packet behind them. */
void router_prefetch_send(const struct network *net, int router, int stage)
{
    uint32_t now = (uint32_t)net->cycle;
    uint32_t port_base = topology_port_base(&net->topo, router);
    for (uint64_t mask = net->routers[router].output_nonempty; mask; mask &= mask - 1) {
        const struct port_state *ps = &net->ports[port_base + (uint32_t)__builtin_ctzll(mask)];
        if (stage == 1) {
            __builtin_prefetch(ps);
            continue;
        }
        if (ps->output.head_ready > now)
            continue;
        __builtin_prefetch(network_packet(net, ps->output.head_packet), 1);
        __builtin_prefetch(&net->topo.peer[ps - net->ports]);
        unsigned next = ps->output.head + 1u == net->output_capacity ? 0 : ps->output.head + 1u;
        __builtin_prefetch(&net->slots[ps->output.base + next]);
    }
}
