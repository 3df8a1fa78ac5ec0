/* routing_piggyback: PiggyBack (PB), source-adaptive routing. At the source router, while the
 * packet waits at the head of its injection queue, it goes nonminimally iff the global link
 * of its minimal path is flagged saturated or UGAL-L prefers the nonminimal path; the
 * decision is final once the packet leaves. Flags are broadcast inside the group with the
 * local link latency. */
#include "routing_piggyback.h"

#include <stdlib.h>

#include "misroute_policy.h"
#include "routing.h"
#include "sim.h"

struct piggyback_params {
    int coef, local_threshold, global_threshold;
};

static const struct setting piggyback_rows[] = {
    SETTING_INT_ROW(struct piggyback_params, "pb_coef", coef, 200, 0, SETTING_UNBOUNDED_INT,
                    "saturated if occupancy > pb_coef % of the mean global one"),
    SETTING_INT_ROW(struct piggyback_params, "pb_local_threshold", local_threshold, 5, 0,
                    SETTING_UNBOUNDED_INT, "UGAL-L threshold T_local, packets"),
    SETTING_INT_ROW(struct piggyback_params, "pb_global_threshold", global_threshold, 3, 0,
                    SETTING_UNBOUNDED_INT, "saturation threshold T_global, packets"),
};

static const struct setting_table piggyback_settings = {
    "routing", "piggyback", piggyback_rows, 3, sizeof(struct piggyback_params), NULL};

/* What the source decision needs of the packet at the head of an injection queue, fixed
 * while it waits there: both first hops, both path lengths and the minimal global link.
 * Computed at its first evaluation, reused every cycle after (UGAL-L and the flag test then
 * cost a few loads). */
struct piggyback_plan {
    uint32_t packet_id;
    int32_t gateway; /* router owning the minimal path's global link */
    uint8_t min_port, min_vc, min_pos, non_port, non_vc, non_pos, hops_min, hops_non;
    uint8_t gateway_port; /* that link's index among the gateway's global ports */
    uint8_t valid;
};

struct piggyback_state {
    int slots;            /* local_latency + 1 cycles of history */
    int write_slot;       /* slot of this cycle's flags */
    int read_slot;        /* slot of the flags computed local_latency cycles ago */
    uint64_t *flags;      /* [slot * routers + router] */
    struct piggyback_plan *plans; /* [node * vcs.injection + injection VC] */
};

static void piggyback_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    (void)cfg;
    ladder_parse(out, "l0 g0 l1 l2 g1 l3");
}

static int piggyback_init(struct sim *sim)
{
    struct piggyback_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    st->slots = sim->cfg->links.local_latency + 1;
    st->flags = calloc((size_t)st->slots * (size_t)sim->topo.routers, sizeof *st->flags);
    st->plans = calloc((size_t)sim->topo.nodes * (size_t)sim->vcs_injection, sizeof *st->plans);
    if (!st->flags || !st->plans) {
        free(st->flags);
        free(st->plans);
        free(st);
        return -1;
    }
    sim->routing_state = st;
    return 0;
}

static void piggyback_destroy(struct sim *sim)
{
    struct piggyback_state *st = sim->routing_state;
    if (st) {
        free(st->flags);
        free(st->plans);
    }
    free(st);
    sim->routing_state = NULL;
}

/* Phits in use behind a global port, over all its VCs. */
static int global_port_occupancy(const struct sim *sim, int router, int port)
{
    int occupancy = 0;
    for (int vc = 0; vc < sim->vcs_global; vc++)
        occupancy += sim_output_occupancy(sim, router, port, vc);
    return occupancy;
}

/* Port k is saturated iff occupancy_k > pb_coef/100 * mean + pb_global_threshold packets,
 * in integers: 100 * h * occ_k > pb_coef * sum + 100 * h * T * packet_size. */
static uint64_t piggyback_compute_flags(const struct sim *sim, int router)
{
    const struct topology *t = &sim->topo;
    const struct piggyback_params *pp = sim->routing_params;
    int occupancy[TOPOLOGY_MAX_RADIX];
    int64_t sum = 0;
    for (int k = 0; k < t->h; k++) {
        occupancy[k] = global_port_occupancy(sim, router, t->first_global_port + k);
        sum += occupancy[k];
    }
    int64_t threshold = (int64_t)pp->coef * sum +
                        100LL * t->h * pp->global_threshold * sim->packet_size;
    uint64_t flags = 0;
    for (int k = 0; k < t->h; k++)
        if (100LL * t->h * occupancy[k] > threshold)
            flags |= 1ull << k;
    return flags;
}

static void piggyback_on_cycle(struct sim *sim)
{
    struct piggyback_state *st = sim->routing_state;
    int routers = sim->topo.routers;
    st->write_slot = (int)(sim->cycle % (uint64_t)st->slots);
    st->read_slot = st->write_slot + 1 == st->slots ? 0 : st->write_slot + 1;
    uint64_t *row = &st->flags[(size_t)st->write_slot * (size_t)routers];
    for (int r = 0; r < routers; r++)
        row[r] = piggyback_compute_flags(sim, r);
}

uint64_t piggyback_flags_seen(const struct sim *sim, int observer, int router)
{
    const struct piggyback_state *st = sim->routing_state;
    if (observer == router)
        return st->flags[(size_t)st->write_slot * (size_t)sim->topo.routers + (size_t)router];
    if (sim->cycle < (uint64_t)(st->slots - 1))
        return 0;
    return st->flags[(size_t)st->read_slot * (size_t)sim->topo.routers + (size_t)router];
}

static void piggyback_on_generate(struct sim *sim, struct packet *pk)
{
    const struct topology *t = &sim->topo;
    int src_router = (int)pk->src / t->p, dst_group = (int)pk->dst / t->p / t->a;
    /* The nonminimal candidate; it becomes the path only if the source decides so. */
    pk->target = misroute_intermediate(sim, (enum global_policy)sim->global_policy, src_router,
                                       dst_group);
}

static int path_hops(const struct topology *t, int from, int via, int to)
{
    int local, global, hops = 0;
    if (via >= 0) {
        topology_min_hops(t, from, via, &local, &global);
        hops = local + global;
        from = via;
    }
    topology_min_hops(t, from, to, &local, &global);
    return hops + local + global;
}

static int piggyback_make_plan(struct sim *sim, int router, const struct packet *pk,
                               struct piggyback_plan *plan)
{
    const struct topology *t = &sim->topo;
    struct route_choice min, nonmin;
    if (routing_minimal_choice(sim, router, pk, -1, &min) ||
        routing_minimal_choice(sim, router, pk, pk->target, &nonmin))
        return -1;
    int dst_router = (int)pk->dst / t->p, dst_group = dst_router / t->a;
    plan->packet_id = pk->id;
    plan->gateway = t->gateway[(router / t->a) * t->groups + dst_group];
    plan->gateway_port = (uint8_t)(t->global_port_to_group[plan->gateway * t->groups + dst_group] -
                                   t->first_global_port);
    plan->min_port = (uint8_t)min.out_port;
    plan->min_vc = (uint8_t)min.vc;
    plan->min_pos = min.ladder_pos;
    plan->non_port = (uint8_t)nonmin.out_port;
    plan->non_vc = (uint8_t)nonmin.vc;
    plan->non_pos = nonmin.ladder_pos;
    plan->hops_min = (uint8_t)path_hops(t, router, -1, dst_router);
    plan->hops_non = (uint8_t)path_hops(t, router, pk->target, dst_router);
    plan->valid = 1;
    return 0;
}

/* The source decision: misroute iff the minimal global link is flagged saturated, or
 * q_min * H_min > q_nonmin * H_nonmin + T_local * packet_size (UGAL-L). */
static int piggyback_prefers_nonminimal(const struct sim *sim, int router,
                                        const struct piggyback_plan *plan)
{
    if ((piggyback_flags_seen(sim, router, plan->gateway) >> plan->gateway_port) & 1)
        return 1;
    int64_t q_min = sim_output_occupancy(sim, router, plan->min_port, plan->min_vc);
    int64_t q_non = sim_output_occupancy(sim, router, plan->non_port, plan->non_vc);
    const struct piggyback_params *pp = sim->routing_params;
    return q_min * plan->hops_min >
           q_non * plan->hops_non + (int64_t)pp->local_threshold * sim->packet_size;
}

static int piggyback_route(struct sim *sim, int router, int in_port, const struct packet *pk,
                           struct route_choice *out)
{
    /* Decided packets (and those without a nonminimal candidate) follow their path. */
    if ((pk->flags & PACKET_DECIDED) || pk->target < 0)
        return routing_via_target(sim, router, pk, out);
    struct piggyback_state *st = sim->routing_state;
    int node = router * sim->topo.p + in_port;
    struct piggyback_plan *plan = &st->plans[node * sim->vcs_injection + pk->vc];
    if ((!plan->valid || plan->packet_id != pk->id) && piggyback_make_plan(sim, router, pk, plan))
        return -1;
    out->flags = pk->flags;
    out->misroute_group = pk->misroute_group;
    out->is_static = 0; /* flags and occupancies change: decide again every cycle */
    if (piggyback_prefers_nonminimal(sim, router, plan)) {
        out->out_port = plan->non_port;
        out->vc = plan->non_vc;
        out->ladder_pos = plan->non_pos;
        out->target = pk->target;
        out->flags |= PACKET_NONMINIMAL;
    } else {
        out->out_port = plan->min_port;
        out->vc = plan->min_vc;
        out->ladder_pos = plan->min_pos;
        out->target = -1;
    }
    return 0;
}

const struct routing_ops routing_piggyback = {
    .name = "piggyback",
    .summary = "PB: source-adaptive; minimal unless the minimal global link is flagged "
               "saturated or UGAL-L prefers the CRG/RRG nonminimal path",
    .settings = &piggyback_settings,
    .global_policies = 1u << POLICY_CRG | 1u << POLICY_RRG,
    .ladder = piggyback_ladder,
    .init = piggyback_init,
    .destroy = piggyback_destroy,
    .on_generate = piggyback_on_generate,
    .on_cycle = piggyback_on_cycle,
    .route = piggyback_route,
};
