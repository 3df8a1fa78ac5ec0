/* invariants: an independent recount of the whole network state, run every cycle by the tests
 * and by `dfsim run --check` (see invariants.h): packets neither lost nor duplicated nor older than
 * the run, credits within [0, capacity] and equal to the free space they mirror, every buffered
 * packet on a VC of its routing's ladder, link events in the future and ordered like the links;
 * with jobs, every message's packets and every job's packets where the workload says they are.
 * Layer: an observer (invariants.h): const pointers to the network and the workload. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "network.h"
#include "workload.h"

/* Scratch of one recount (allocated per call: the check is opt-in and O(network state)). */
struct recount {
    uint8_t *seen;        /* per pool index */
    int32_t *credit_owed; /* per (router, port, vc) of an output: phits the credit mirrors */
    /* Same indexing, with fresh credits: phits of credits on their way back whose fresh credit
     * is back already (credit events without theirs, less fresh credit events). */
    int32_t *fresh_back;
    uint32_t *last_arrival; /* per (router, port): 1 + delay of the latest arrival seen */
    uint64_t packets;
    char why[512];
};

/* Where a packet was found, for the ladder rule and the message. */
enum place { PLACE_INPUT, PLACE_OUTPUT, PLACE_LINK, PLACE_EJECTION };

static const char *const place_names[] = {"input buffer", "output buffer", "link into",
                                          "ejection link"};

static int recount_fail(struct recount *rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rc->why, sizeof rc->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- the VC ladder ---- */

/* in_transit's OLM hops reuse the VC of the last local ladder entry before the packet's
 * position (ladder_local_reuse); every other mechanism climbs the ladder strictly. */
static bool invariant_reuses_local_vcs(const struct network *net)
{
    return net->routing == &routing_in_transit;
}

/* Is VC `vc` of a buffer of class `cls` where the packet's ladder position says it is? */
static bool invariant_on_ladder(const struct network *net, const struct packet *pk, int cls, int vc)
{
    const struct vc_ladder *ladder = &net->ladder;
    int pos = pk->ladder_pos;
    if (cls == PORT_NODE) { /* vc == dst * vcs_injection / nodes, without a division */
        uint64_t scaled = (uint64_t)pk->dst * (uint64_t)net->vcs_injection;
        uint64_t nodes = (uint64_t)net->topo.nodes;
        return pos == 0 && scaled >= (uint64_t)vc * nodes && scaled < (uint64_t)(vc + 1) * nodes;
    }
    if (pos < 1 || pos > ladder->length)
        return false;
    if (ladder->port_class[pos - 1] == cls)
        return ladder->vc[pos - 1] == vc;
    if (cls == PORT_GLOBAL || !invariant_reuses_local_vcs(net))
        return false;
    int reused = -1;
    for (int e = 0; e < pos; e++)
        if (ladder->port_class[e] == PORT_LOCAL)
            reused = ladder->vc[e];
    return reused == vc;
}

/* ---- one packet ---- */

/* A counted packet is where its VC and ladder position say it is; a packet in an ejection
 * buffer is at its destination. */
static int check_packet_place(const struct network *net, struct recount *rc,
                              const struct packet *pk, int router, int port, int vc,
                              enum place place)
{
    const char *where = place_names[place];
    if ((place == PLACE_INPUT || place == PLACE_LINK) && pk->vc != vc)
        return recount_fail(rc, "router %d port %d vc %d: %s holds packet %u of vc %d", router,
                            port, vc, where, pk->id, pk->vc);
    int cls = network_port_class(net, router, port);
    if (place == PLACE_EJECTION)
        return 0;
    if (place == PLACE_OUTPUT && cls == PORT_NODE) {
        if (pk->dst == (uint32_t)(net->topo.first_node[router] + port))
            return 0;
        return recount_fail(rc, "router %d port %d: ejection buffer holds packet %u for node %u",
                            router, port, pk->id, pk->dst);
    }
    if (vc < network_layout_of(net, router)->port_vcs[port] &&
        invariant_on_ladder(net, pk, cls, vc))
        return 0;
    return recount_fail(rc,
                        "router %d port %d vc %d: packet %u (%u->%u) in the %s is off the "
                        "ladder of routing '%s' (ladder position %d)",
                        router, port, vc, pk->id, pk->src, pk->dst, where, net->routing->name,
                        pk->ladder_pos);
}

/* Counts the packet at pool index `index`, found at (router, port, vc) of a place, once. */
static int recount_packet(const struct network *net, struct recount *rc, uint32_t index, int router,
                          int port, int vc, enum place place)
{
    if (index >= net->pool.capacity)
        return recount_fail(rc, "router %d port %d vc %d: %s holds packet index %u (pool of %u)",
                            router, port, vc, place_names[place], index, net->pool.capacity);
    const struct packet *pk = network_packet(net, index);
    if (rc->seen[index])
        return recount_fail(rc, "router %d port %d vc %d: packet %u (index %u) is in two places",
                            router, port, vc, pk->id, index);
    rc->seen[index] = 1;
    rc->packets++;
    if (pk->gen_cycle > net->cycle)
        return recount_fail(rc,
                            "router %d port %d vc %d: packet %u in the %s was generated at cycle "
                            "%u, after the current cycle",
                            router, port, vc, pk->id, place_names[place], pk->gen_cycle);
    return check_packet_place(net, rc, pk, router, port, vc, place);
}

/* ---- buffers ---- */

/* Upstream (router, output port) whose credits mirror input (router, port). */
static void upstream_of(const struct network *net, int router, int port, int *up_router,
                        int *up_port)
{
    *up_router = topology_neighbour(&net->topo, router, port);
    *up_port = topology_neighbour_port(&net->topo, router, port);
}

/* The copies the allocator reads instead of the packets: the ring's head index and ready
 * cycle, and the input's lower bound of its next request (never later than the head's). */
static int recount_head_cache(const struct network *net, struct recount *rc, int r, int port,
                              int vc, const struct packet_ring *ring)
{
    uint32_t index = net->slots[ring->base + ring->head];
    if (ring->head_packet != index)
        return recount_fail(rc, "router %d port %d vc %d: cached head %u is not slot %u's %u", r,
                            port, vc, ring->head_packet, ring->head, index);
    if (index >= net->pool.capacity)
        return 0; /* recount_packet reports it */
    uint32_t ready = network_packet(net, index)->ready_cycle;
    if (ring->head_ready != ready)
        return recount_fail(rc, "router %d port %d vc %d: cached head ready %u != packet's %u", r,
                            port, vc, ring->head_ready, ready);
    uint32_t bound = net->input_next[net->topo.port_base[r] + (uint32_t)port];
    const struct port_state *ps = network_port(net, r, port);
    uint32_t earliest = ready > ps->input_busy_until ? ready : ps->input_busy_until;
    if (ps->input_busy_until > net->cycle && bound < ps->input_busy_until)
        return recount_fail(rc,
                            "router %d port %d: next-request bound %u before the busy input "
                            "frees (cycle %u)",
                            r, port, bound, ps->input_busy_until);
    if (bound > earliest && bound > net->cycle + 1)
        return recount_fail(rc,
                            "router %d port %d: next-request bound %u is after head %u of vc "
                            "%d can go (cycle %u)",
                            r, port, bound, index, vc, earliest);
    return 0;
}

static int recount_input_vc(const struct network *net, struct recount *rc, int r, int port, int vc)
{
    const struct packet_ring *ring = &net->input_vc[network_vc_index(net, r, port, vc)].ring;
    if (((network_port(net, r, port)->input_vc_mask >> vc) & 1) != (ring->count > 0))
        return recount_fail(rc, "router %d port %d vc %d: VC mask disagrees", r, port, vc);
    unsigned capacity = network_layout_of(net, r)->ring_capacity[port];
    if (ring->count > capacity)
        return recount_fail(rc, "router %d port %d vc %d: %u packets in a buffer of %u", r, port,
                            vc, ring->count, capacity);
    const uint32_t *slots = net->slots + ring->base;
    for (unsigned k = 0, slot = ring->head; k < ring->count; k++) {
        if (recount_packet(net, rc, slots[slot], r, port, vc, PLACE_INPUT))
            return -1;
        slot = slot + 1 == capacity ? 0 : slot + 1;
    }
    if (ring->count && recount_head_cache(net, rc, r, port, vc, ring))
        return -1;
    if (network_port_class(net, r, port) != PORT_NODE) {
        int ur, up;
        upstream_of(net, r, port, &ur, &up);
        rc->credit_owed[network_vc_index(net, ur, up, vc)] += ring->count * net->packet_size;
    }
    return 0;
}

/* The output head as router_send sees it: its index, and a link cycle not before the
 * crossbar delivered it. */
static int recount_output_head(const struct network *net, struct recount *rc, int r, int port)
{
    const struct port_state *ps = network_port(net, r, port);
    const struct packet_ring *out = &ps->output;
    uint32_t index = net->slots[out->base + out->head];
    if (out->head_packet != index)
        return recount_fail(rc, "router %d port %d: cached output head %u is not slot %u's %u", r,
                            port, out->head_packet, out->head, index);
    if (index >= net->pool.capacity)
        return 0; /* recount_packet reports it */
    uint32_t ready = network_packet(net, index)->ready_cycle;
    if (out->head_ready < ready)
        return recount_fail(rc,
                            "router %d port %d: output head %u may leave at %u, before its "
                            "transfer ends (%u)",
                            r, port, index, out->head_ready, ready);
    return 0;
}

static int recount_output(const struct network *net, struct recount *rc, int r, int port)
{
    const struct packet_ring *out = &network_port(net, r, port)->output;
    unsigned capacity = net->output_capacity;
    if (out->count > capacity)
        return recount_fail(rc, "router %d port %d: %u packets in an output buffer of %u", r, port,
                            out->count, capacity);
    if (out->count && recount_output_head(net, rc, r, port))
        return -1;
    for (unsigned k = 0, slot = out->head; k < out->count; k++) {
        uint32_t index = net->slots[out->base + slot];
        slot = slot + 1 == capacity ? 0 : slot + 1;
        int vc = index < net->pool.capacity ? network_packet(net, index)->vc : 0;
        if (recount_packet(net, rc, index, r, port, vc, PLACE_OUTPUT))
            return -1;
        if (network_port_class(net, r, port) != PORT_NODE)
            rc->credit_owed[network_vc_index(net, r, port, vc)] += net->packet_size;
    }
    return 0;
}

static int recount_buffers(const struct network *net, struct recount *rc)
{
    const struct topology *t = &net->topo;
    for (int r = 0; r < t->routers; r++) {
        const struct network_layout *layout = network_layout_of(net, r);
        for (int port = 0; port < layout->kind->radix; port++) {
            for (int vc = 0; vc < layout->port_vcs[port]; vc++)
                if (recount_input_vc(net, rc, r, port, vc))
                    return -1;
            if (recount_output(net, rc, r, port))
                return -1;
        }
    }
    return 0;
}

/* ---- links: the event wheel ---- */

/* How long after its grant the crossbar transfer of a packet that came over the slowest
 * link can end: packet_size/speedup cycles, or its tail's arrival, at most serialization -
 * router.latency + 1 cycles after the grant. */
static int64_t transfer_max(const struct network *net)
{
    int64_t slowest = 0;
    for (int c = 0; c < PORT_CLASSES; c++)
        if ((int64_t)net->serialization[c] > slowest)
            slowest = net->serialization[c];
    int64_t tail = slowest - net->cfg->router.latency + 1;
    return tail > net->xbar_cycles ? tail : net->xbar_cycles;
}

/* The longest delay an event of this kind can be scheduled ahead (see router.c): an arrival
 * crosses one link; a tail reaches its node after the ejection link and its serialization
 * (or the end of its crossbar transfer); a credit leaves when the crossbar transfer ends
 * and crosses the link back. */
static int64_t event_max_delay(const struct network *net, const struct event *ev)
{
    if (ev->kind == EVENT_DELIVERY) {
        int64_t serial = net->serialization[PORT_NODE], transfer = transfer_max(net);
        return net->cfg->links.injection_latency + (serial > transfer ? serial : transfer) - 1;
    }
    int64_t latency = network_layout_of(net, (int)ev->router)->port_latency[ev->port];
    if (ev->kind == EVENT_ARRIVAL)
        return latency;
    if (ev->kind == EVENT_CREDIT_FRESH)
        return 1 + transfer_max(net); /* one cycle after the release */
    return latency + transfer_max(net);
}

/* Arrivals on one link (and deliveries to one node) are at least a packet's whole cycles
 * apart: a link carries its bandwidth, in order (packet_size cycles at 1 phit/cycle). */
static int recount_link_order(const struct network *net, struct recount *rc, const struct event *ev,
                              int router, int port, uint32_t delay)
{
    uint32_t *last = &rc->last_arrival[net->topo.port_base[router] + (uint32_t)port];
    enum port_class cls = network_port_class(net, router, port);
    uint32_t spacing = link_rate_min_spacing(net->link_rate[cls], (uint32_t)net->packet_size);
    if (*last && delay + 1 - *last < spacing)
        return recount_fail(rc,
                            "router %d port %d vc %d: packet %u arrives %u cycles after the "
                            "previous packet on the same link (expected at least %u)",
                            router, port, ev->vc, network_packet(net, ev->packet)->id,
                            delay + 1 - *last, spacing);
    *last = delay + 1;
    return 0;
}

/* A packet on a link: into a transit input buffer, or its tail on the way to its node. */
static int recount_packet_event(const struct network *net, struct recount *rc,
                                const struct event *ev, uint32_t delay)
{
    int router = (int)ev->router, port = ev->port;
    enum place place = PLACE_LINK;
    if (ev->kind == EVENT_DELIVERY) {
        if (ev->packet >= net->pool.capacity)
            return recount_fail(rc, "delivery of packet index %u outside the pool", ev->packet);
        int dst = (int)network_packet(net, ev->packet)->dst;
        router = topology_router_of_node(&net->topo, dst);
        port = topology_node_port(&net->topo, dst);
        place = PLACE_EJECTION;
    }
    if (recount_packet(net, rc, ev->packet, router, port, ev->vc, place) ||
        recount_link_order(net, rc, ev, router, port, delay))
        return -1;
    if (ev->kind == EVENT_ARRIVAL) {
        int ur, up;
        upstream_of(net, router, port, &ur, &up);
        rc->credit_owed[network_vc_index(net, ur, up, ev->vc)] += net->packet_size;
    }
    return 0;
}

static const char *const event_names[] = {[EVENT_ARRIVAL] = "arrival",
                                          [EVENT_CREDIT] = "credit",
                                          [EVENT_DELIVERY] = "delivery",
                                          [EVENT_CREDIT_FRESH] = "fresh credit"};

/* A credit on its way back (EVENT_CREDIT, EVENT_CREDIT_FRESH): what it mirrors. */
static int recount_credit_event(const struct network *net, struct recount *rc,
                                const struct event *ev)
{
    int idx = network_vc_index(net, (int)ev->router, ev->port, ev->vc);
    bool fresh_event = ev->kind == EVENT_CREDIT_FRESH;
    if ((fresh_event || ev->fresh) && !net->credits_ahead)
        return recount_fail(rc, "router %u port %u vc %u: a fresh credit, none kept", ev->router,
                            ev->port, ev->vc);
    if (fresh_event)
        rc->fresh_back[idx] -= net->packet_size;
    else if (net->credits_ahead && !ev->fresh)
        rc->fresh_back[idx] += net->packet_size;
    if (!fresh_event)
        rc->credit_owed[idx] += net->packet_size;
    return 0;
}

static int recount_event(const struct network *net, struct recount *rc, const struct event *ev,
                         uint32_t delay)
{
    const struct topology *t = &net->topo;
    bool on_link = ev->kind != EVENT_DELIVERY;
    bool malformed = ev->kind > EVENT_CREDIT_FRESH || ev->router >= (uint32_t)t->routers;
    if (!malformed) {
        const struct network_layout *layout = network_layout_of(net, (int)ev->router);
        malformed = ev->port >= layout->kind->radix || ev->vc >= layout->port_vcs[ev->port] ||
                    (on_link && layout->port_class[ev->port] == PORT_NODE);
    }
    if (malformed)
        return recount_fail(rc, "router %u port %u vc %u: malformed event of kind %u", ev->router,
                            ev->port, ev->vc, ev->kind);
    int64_t max_delay = event_max_delay(net, ev);
    if ((int64_t)delay > max_delay)
        return recount_fail(rc,
                            "router %u port %u vc %u: %s event (packet %u) is due %u cycles "
                            "ahead, beyond the %" PRId64 " its link allows",
                            ev->router, ev->port, ev->vc, event_names[ev->kind], ev->packet, delay,
                            max_delay);
    if (ev->kind == EVENT_CREDIT || ev->kind == EVENT_CREDIT_FRESH)
        return recount_credit_event(net, rc, ev);
    return recount_packet_event(net, rc, ev, delay);
}

/* Walks the wheel in time order from the current cycle. Inside sim_step the current bucket
 * has been processed (empty); between steps it holds the next cycle's events. An event pushed
 * for a cycle already processed lands a full turn ahead, beyond every maximum delay. */
static int recount_events(const struct network *net, struct recount *rc)
{
    const struct event_wheel *w = &net->wheel;
    uint64_t pending = 0;
    for (uint32_t delay = 0; delay <= w->mask; delay++) {
        const struct event_bucket *bucket = &w->buckets[(net->cycle + delay) & w->mask];
        for (uint32_t i = 0; i < bucket->count; i++)
            if (recount_event(net, rc, &bucket->events[i], delay))
                return -1;
        pending += bucket->count;
    }
    if (pending != w->pending)
        return recount_fail(rc, "%" PRIu64 " events in the wheel, %" PRIu64 " counted as pending",
                            pending, w->pending);
    return 0;
}

/* ---- totals ---- */

/* Fresh credits are ahead of the credits by the credits on their way whose fresh credit is
 * back (so they never exceed the capacity: check_credits holds the rest). */
static int check_fresh_credits(const struct network *net, struct recount *rc, int r, int port,
                               int vc)
{
    int idx = network_vc_index(net, r, port, vc);
    int ahead = net->credits_ahead[idx];
    if (ahead != rc->fresh_back[idx])
        return recount_fail(rc,
                            "router %d port %d vc %d: fresh credits %d ahead of the credits, %d "
                            "on their way with their fresh credit back",
                            r, port, vc, ahead, rc->fresh_back[idx]);
    return 0;
}

/* The far-end histories' current values are the global ports' occupancies now. */
static int check_far_end(const struct network *net, struct recount *rc, int r, int port)
{
    const struct network_layout *layout = network_layout_of(net, r);
    int occupied = 0, occupied_fresh = 0;
    for (int vc = 0; vc < layout->port_vcs[port]; vc++) {
        int idx = network_vc_index(net, r, port, vc);
        occupied += layout->port_capacity[port] - net->credits[idx];
        if (net->credits_ahead)
            occupied_fresh +=
                layout->port_capacity[port] - net->credits[idx] - net->credits_ahead[idx];
    }
    uint32_t global =
        net->global_port_base[r] + (uint32_t)(port - layout->kind->first[PORT_GLOBAL]);
    int seen = far_end_current(&net->far_end, global);
    if (seen != occupied)
        return recount_fail(rc, "router %d port %d: far-end history holds %d phits, %d in use", r,
                            port, seen, occupied);
    if (!net->credits_ahead)
        return 0;
    seen = far_end_current(&net->far_end_fresh, global);
    if (seen != occupied_fresh)
        return recount_fail(rc,
                            "router %d port %d: fresh far-end history holds %d phits, %d in use", r,
                            port, seen, occupied_fresh);
    return 0;
}

static int check_sensing(const struct network *net, struct recount *rc)
{
    const struct topology *t = &net->topo;
    for (int r = 0; r < t->routers; r++) {
        const struct network_layout *layout = network_layout_of(net, r);
        for (int port = 0; port < layout->kind->radix; port++) {
            int cls = layout->port_class[port];
            if (cls == PORT_NODE)
                continue;
            for (int vc = 0; vc < layout->port_vcs[port] && net->credits_ahead; vc++)
                if (check_fresh_credits(net, rc, r, port, vc))
                    return -1;
            if (cls == PORT_GLOBAL && net->sensing.far_end && check_far_end(net, rc, r, port))
                return -1;
        }
    }
    return 0;
}

static int check_credits(const struct network *net, struct recount *rc)
{
    const struct topology *t = &net->topo;
    for (int r = 0; r < t->routers; r++) {
        const struct network_layout *layout = network_layout_of(net, r);
        for (int port = 0; port < layout->kind->radix; port++) {
            if (layout->port_class[port] == PORT_NODE)
                continue;
            for (int vc = 0; vc < layout->port_vcs[port]; vc++) {
                int idx = network_vc_index(net, r, port, vc);
                int capacity = net->capacity_phits[layout->port_class[port]];
                int credits = net->credits[idx];
                if (credits < 0 || credits > capacity)
                    return recount_fail(rc, "router %d port %d vc %d: %d credits outside [0, %d]",
                                        r, port, vc, credits, capacity);
                if (credits + rc->credit_owed[idx] != capacity)
                    return recount_fail(rc,
                                        "router %d port %d vc %d: %d credits + %d phits owed "
                                        "!= capacity %d",
                                        r, port, vc, credits, rc->credit_owed[idx], capacity);
            }
        }
    }
    return 0;
}

static int check_totals(const struct network *net, struct recount *rc)
{
    const struct network_counts *st = &net->counts;
    if (rc->packets != net->in_network)
        return recount_fail(rc, "%" PRIu64 " packets found, %" PRIu64 " in flight", rc->packets,
                            net->in_network);
    if (st->total_generated != st->total_delivered + net->in_network)
        return recount_fail(rc,
                            "generated %" PRIu64 " != delivered %" PRIu64 " + in flight %" PRIu64,
                            st->total_generated, st->total_delivered, net->in_network);
    if (packet_pool_in_use(&net->pool) != net->in_network)
        return recount_fail(rc, "pool holds %u packets, %" PRIu64 " in flight",
                            packet_pool_in_use(&net->pool), net->in_network);
    return 0;
}

/* The jobs' messages and packets against what the recount found (workload_check). */
static int check_workload(const struct network *net, const struct workload *w, struct recount *rc)
{
    if (!w)
        return 0;
    uint32_t *message_found = calloc(w->n_messages ? w->n_messages : 1, sizeof *message_found);
    uint64_t job_found[CONFIG_MAX_JOBS] = {0};
    if (!message_found)
        return recount_fail(rc, "out of memory for the recount");
    int failed = 0;
    for (uint32_t i = 0; i < net->pool.capacity && !failed; i++) {
        if (!rc->seen[i])
            continue;
        const struct packet *pk = network_packet(net, i);
        int job = workload_job_of_node(w, pk->src);
        uint32_t tag = net->pool.tags[i];
        if (job < 0)
            failed = recount_fail(rc, "packet %u comes from node %u, which runs no job", pk->id,
                                  pk->src);
        else if (tag > w->n_messages)
            failed = recount_fail(rc, "packet %u names message %u of %u", pk->id, tag - 1,
                                  w->n_messages);
        else if (tag)
            message_found[tag - 1]++;
        if (job >= 0)
            job_found[job]++;
    }
    if (!failed && workload_check(w, message_found, job_found, rc->why, sizeof rc->why) != 0)
        failed = -1;
    free(message_found);
    return failed;
}

int invariants_check(const struct network *net, const struct workload *w, char *why, size_t len)
{
    struct recount rc = {0};
    size_t vcs = net->router_vc_base[net->topo.routers - 1] +
                 (size_t)network_layout_of(net, net->topo.routers - 1)->vcs_per_router;
    size_t ports = net->topo.port_base[net->topo.routers];
    rc.seen = calloc(net->pool.capacity ? net->pool.capacity : 1, 1);
    rc.credit_owed = calloc(vcs, sizeof *rc.credit_owed);
    rc.fresh_back = calloc(vcs, sizeof *rc.fresh_back);
    rc.last_arrival = calloc(ports, sizeof *rc.last_arrival);
    int failed = !rc.seen || !rc.credit_owed || !rc.fresh_back || !rc.last_arrival;
    if (failed)
        recount_fail(&rc, "out of memory for the recount");
    failed = failed || recount_buffers(net, &rc) || recount_events(net, &rc) ||
             check_credits(net, &rc) || check_sensing(net, &rc) || check_totals(net, &rc) ||
             check_workload(net, w, &rc);
    free(rc.seen);
    free(rc.credit_owed);
    free(rc.fresh_back);
    free(rc.last_arrival);
    if (failed)
        snprintf(why, len, "%s", rc.why);
    return failed ? -1 : 0;
}
