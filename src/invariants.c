/* invariants: an independent recount of the whole network state, used by the tests every
 * cycle (and by --check): packets neither lost nor duplicated, credits equal to the free space
 * they mirror, every buffered packet on a VC its port has. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct recount {
    uint8_t *seen;         /* per pool index */
    int32_t *credit_owed;  /* per (router, port, vc) of an output: phits the credit mirrors */
    uint64_t packets;
};

static int invariant_fail(struct sim *sim, const char *what)
{
    sim->status = SIM_INVARIANT;
    snprintf(sim->message, sizeof sim->message, "invariant broken at cycle %" PRIu64 ": %s",
             sim->cycle, what);
    return -1;
}

static int recount_packet(struct sim *sim, struct recount *rc, uint32_t index, char *why,
                          size_t why_len)
{
    if (index >= sim->pool.capacity) {
        snprintf(why, why_len, "packet index %u outside the pool", index);
        return -1;
    }
    if (rc->seen[index]) {
        snprintf(why, why_len, "packet %u (index %u) is in two places",
                 sim_packet(sim, index)->id, index);
        return -1;
    }
    rc->seen[index] = 1;
    rc->packets++;
    return 0;
}

/* Upstream (router, output port) whose credits mirror input (router, port). */
static void upstream_of(const struct sim *sim, int router, int port, int *up_router,
                        int *up_port)
{
    int idx = router * sim->topo.radix + port;
    *up_router = sim->topo.neighbour[idx];
    *up_port = sim->topo.neighbour_port[idx];
}

static int recount_buffers(struct sim *sim, struct recount *rc, char *why, size_t why_len)
{
    const struct topology *t = &sim->topo;
    int S = sim->packet_size;
    for (int r = 0; r < t->routers; r++)
        for (int port = 0; port < t->radix; port++) {
            int cls = sim->port_class[port];
            for (int vc = 0; vc < sim->port_vcs[port]; vc++) {
                const struct packet_ring *ring = &sim->input_vc[sim_vc_index(sim, r, port, vc)];
                if (((sim_port(sim, r, port)->input_vc_mask >> vc) & 1) != (ring->count > 0)) {
                    snprintf(why, why_len, "router %d port %d vc %d: VC mask disagrees", r,
                             port, vc);
                    return -1;
                }
                for (int k = 0; k < ring->count; k++) {
                    uint32_t index = sim->slots[ring->base + (ring->head + k) % ring->capacity];
                    if (recount_packet(sim, rc, index, why, why_len))
                        return -1;
                    if (sim_packet(sim, index)->vc != vc) {
                        snprintf(why, why_len, "router %d port %d vc %d holds packet %u of vc %d",
                                 r, port, vc, sim_packet(sim, index)->id,
                                 sim_packet(sim, index)->vc);
                        return -1;
                    }
                }
                if (cls != PORT_NODE) {
                    int ur, up;
                    upstream_of(sim, r, port, &ur, &up);
                    rc->credit_owed[sim_vc_index(sim, ur, up, vc)] += ring->count * S;
                }
            }
            const struct packet_ring *out = &sim_port(sim, r, port)->output;
            for (int k = 0; k < out->count; k++) {
                uint32_t index = sim->slots[out->base + (out->head + k) % out->capacity];
                if (recount_packet(sim, rc, index, why, why_len))
                    return -1;
                if (cls != PORT_NODE)
                    rc->credit_owed[sim_vc_index(sim, r, port, sim_packet(sim, index)->vc)] += S;
            }
        }
    return 0;
}

static int recount_events(struct sim *sim, struct recount *rc, char *why, size_t why_len)
{
    int S = sim->packet_size;
    for (uint32_t b = 0; b <= sim->wheel.mask; b++) {
        const struct event_bucket *bucket = &sim->wheel.buckets[b];
        for (uint32_t i = 0; i < bucket->count; i++) {
            const struct event *ev = &bucket->events[i];
            if (ev->kind == EVENT_CREDIT) {
                rc->credit_owed[sim_vc_index(sim, (int)ev->router, ev->port, ev->vc)] += S;
                continue;
            }
            if (recount_packet(sim, rc, ev->packet, why, why_len))
                return -1;
            if (ev->kind == EVENT_ARRIVAL) {
                int ur, up;
                upstream_of(sim, (int)ev->router, ev->port, &ur, &up);
                rc->credit_owed[sim_vc_index(sim, ur, up, ev->vc)] += S;
            }
        }
    }
    return 0;
}

static int check_credits(struct sim *sim, const struct recount *rc, char *why, size_t why_len)
{
    const struct topology *t = &sim->topo;
    for (int r = 0; r < t->routers; r++)
        for (int port = t->first_local_port; port < t->radix; port++)
            for (int vc = 0; vc < sim->port_vcs[port]; vc++) {
                int idx = sim_vc_index(sim, r, port, vc);
                int capacity = sim->capacity_phits[sim->port_class[port]];
                int credits = sim->credits[idx];
                if (credits < 0 || credits > capacity ||
                    credits + rc->credit_owed[idx] != capacity) {
                    snprintf(why, why_len,
                             "router %d port %d vc %d: %d credits + %d phits owed != capacity %d",
                             r, port, vc, credits, rc->credit_owed[idx], capacity);
                    return -1;
                }
            }
    return 0;
}

int sim_check_invariants(struct sim *sim)
{
    char why[512] = "";
    struct recount rc = {0};
    size_t vcs = (size_t)sim->topo.routers * (size_t)sim->vcs_per_router;
    rc.seen = calloc(sim->pool.capacity, 1);
    rc.credit_owed = calloc(vcs, sizeof *rc.credit_owed);
    int failed = !rc.seen || !rc.credit_owed;
    if (failed)
        snprintf(why, sizeof why, "out of memory for the recount");
    failed = failed || recount_buffers(sim, &rc, why, sizeof why) ||
             recount_events(sim, &rc, why, sizeof why) || check_credits(sim, &rc, why, sizeof why);
    if (!failed && rc.packets != sim->in_network) {
        snprintf(why, sizeof why, "%" PRIu64 " packets found, %" PRIu64 " in flight", rc.packets,
                 sim->in_network);
        failed = 1;
    }
    if (!failed && sim->stats.total_generated != sim->stats.total_delivered + sim->in_network) {
        snprintf(why, sizeof why, "generated %" PRIu64 " != delivered %" PRIu64
                 " + in flight %" PRIu64, sim->stats.total_generated,
                 sim->stats.total_delivered, sim->in_network);
        failed = 1;
    }
    if (!failed && packet_pool_in_use(&sim->pool) != sim->in_network) {
        snprintf(why, sizeof why, "pool holds %u packets, %" PRIu64 " in flight",
                 packet_pool_in_use(&sim->pool), sim->in_network);
        failed = 1;
    }
    free(rc.seen);
    free(rc.credit_owed);
    return failed ? invariant_fail(sim, why) : 0;
}
