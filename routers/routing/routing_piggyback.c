/* routing_piggyback: PiggyBack (PB), source-adaptive routing. At the source router, while the
 * packet waits at the head of its injection queue, it goes nonminimally iff the global link
 * of its minimal path is flagged saturated or UGAL-L prefers the nonminimal path; the
 * decision is final once the packet leaves. Flags are broadcast inside the group with the
 * local link latency. */
#include "routing_piggyback.h"

#include <stdlib.h>

#include "misroute_policy.h"
#include "routing.h"

struct piggyback_params {
    int coef, local_threshold, global_threshold;
    int flag; /* index in piggyback_flag_names */
};

enum { PB_FLAG_PORT, PB_FLAG_VC };
static const char *const piggyback_flag_names[] = {"port", "vc", NULL};

static const struct setting piggyback_rows[] = {
    SETTING_INT_ROW(struct piggyback_params, "pb_coef", coef, 200, 0, SETTING_UNBOUNDED_INT,
                    "saturated if occupancy > pb_coef % of the mean global one"),
    SETTING_INT_ROW(struct piggyback_params, "pb_local_threshold", local_threshold, 5, 0,
                    SETTING_UNBOUNDED_INT, "UGAL-L threshold T_local, packets"),
    SETTING_INT_ROW(struct piggyback_params, "pb_global_threshold", global_threshold, 3, 0,
                    SETTING_UNBOUNDED_INT, "saturation threshold T_global, packets"),
    SETTING_QUIET_CHOICE(struct piggyback_params, "pb_flag", flag, "port", piggyback_flag_names,
                         "saturation flag: port (its VCs summed, mean over the ports) or vc "
                         "(VC 0's occupancy, mean over every VC of the ports)"),
};

static const struct setting_table piggyback_settings = {
    "routing", "piggyback", piggyback_rows, 4, sizeof(struct piggyback_params), NULL};

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
    int slots;                    /* local_latency + 1 cycles of history */
    int write_slot;               /* slot of this cycle's flags */
    int read_slot;                /* slot of the flags computed local_latency cycles ago */
    uint64_t cycle;               /* of the last on_cycle */
    uint64_t *flags;              /* [slot * routers + router] */
    struct piggyback_plan *plans; /* [node * vcs.injection + injection VC] */
};

static void piggyback_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    ladder_parse(out,
                 routing_on_cascade(cfg) ? "l0 l0 g0 l1 l1 l2 l2 g1 l3 l3" : "l0 g0 l1 l2 g1 l3");
}

static int piggyback_init(struct routing_env *env)
{
    struct piggyback_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    st->slots = env->link_latency[PORT_LOCAL] + 1;
    st->flags = calloc((size_t)st->slots * (size_t)env->topo->routers, sizeof *st->flags);
    st->plans = calloc((size_t)env->topo->nodes * (size_t)env->vcs[PORT_NODE], sizeof *st->plans);
    if (!st->flags || !st->plans) {
        free(st->flags);
        free(st->plans);
        free(st);
        return -1;
    }
    env->state = st;
    return 0;
}

static void piggyback_destroy(struct routing_env *env)
{
    struct piggyback_state *st = env->state;
    if (st) {
        free(st->flags);
        free(st->plans);
    }
    free(st);
    env->state = NULL;
}

/* Global port k is saturated iff occupancy_k > pb_coef/100 * mean + pb_global_threshold
 * packets, in integers: 100 * h * occ_k > pb_coef * sum + 100 * h * T * packet_size, i.e.
 * occ_k > floor(right side / (100 * h)) (both sides are non-negative). Every router, every
 * cycle: a port's occupancy is its VCs' capacity less their credits, which sit side by
 * side. */
static uint64_t piggyback_compute_flags(const struct routing_env *env, int router)
{
    const struct piggyback_params *pp = env->params;
    const struct router_view *v = &env->views[router];
    int h = v->kind->count[PORT_GLOBAL], first = v->kind->first[PORT_GLOBAL];
    int vcs = env->vcs[PORT_GLOBAL];
    int occupancy[TOPOLOGY_MAX_RADIX];
    int64_t sum = 0;
    for (int k = 0; k < h; k++) {
        const int32_t *credits = &v->credits[v->vc_offset[first + k]];
        int occupied = vcs * v->capacity[first + k] - credits[0];
        /* Two VCs (the ladder's g0 g1) spelled out: a loop of one turn costs more. */
        if (vcs == 2)
            occupied -= credits[1];
        else
            for (int vc = 1; vc < vcs; vc++)
                occupied -= credits[vc];
        sum += occupied;
        /* Per VC: the bit is VC 0's, the minimal path's global hop (g0); the mean is over
         * every VC of the ports, so the sum stays and the count grows. */
        occupancy[k] = pp->flag == PB_FLAG_VC ? v->capacity[first + k] - credits[0] : occupied;
    }
    int64_t scale = 100LL * h * (pp->flag == PB_FLAG_VC ? vcs : 1);
    int64_t limit =
        ((int64_t)pp->coef * sum + scale * pp->global_threshold * env->packet_size) / scale;
    uint64_t flags = 0;
    for (int k = 0; k < h; k++)
        flags |= (uint64_t)(occupancy[k] > limit) << k;
    return flags;
}

static void piggyback_on_cycle(struct routing_env *env, uint64_t cycle)
{
    struct piggyback_state *st = env->state;
    int routers = env->topo->routers;
    st->cycle = cycle;
    st->write_slot = (int)(cycle % (uint64_t)st->slots);
    st->read_slot = st->write_slot + 1 == st->slots ? 0 : st->write_slot + 1;
    uint64_t *row = &st->flags[(size_t)st->write_slot * (size_t)routers];
    for (int r = 0; r < routers; r++)
        row[r] = piggyback_compute_flags(env, r);
}

uint64_t piggyback_flags_seen(const struct routing_env *env, int observer, int router)
{
    const struct piggyback_state *st = env->state;
    size_t routers = (size_t)env->topo->routers;
    if (observer == router)
        return st->flags[(size_t)st->write_slot * routers + (size_t)router];
    if (st->cycle < (uint64_t)(st->slots - 1))
        return 0;
    return st->flags[(size_t)st->read_slot * routers + (size_t)router];
}

static void piggyback_on_generate(struct routing_env *env, struct packet *pk)
{
    const struct topology *t = env->topo;
    /* The nonminimal candidate; it becomes the path only if the source decides so. */
    pk->target = misroute_intermediate(env, topology_router_of_node(t, (int)pk->src),
                                       topology_group_of_node(t, (int)pk->dst));
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

static int piggyback_make_plan(struct route_ctx *ctx, const struct packet *pk,
                               struct piggyback_plan *plan)
{
    const struct topology *t = ctx->env->topo;
    int router = ctx->router;
    struct route_choice min, nonmin;
    if (routing_minimal_choice(ctx, pk, -1, &min) ||
        routing_minimal_choice(ctx, pk, pk->target, &nonmin))
        return -1;
    int dst_router = topology_router_of_node(t, (int)pk->dst), gateway, port;
    topology_min_global_hop(t, router, dst_router, &gateway, &port);
    plan->packet_id = pk->id;
    plan->gateway = gateway;
    plan->gateway_port = (uint8_t)(port - topology_kind_of(t, gateway)->first[PORT_GLOBAL]);
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
static int piggyback_prefers_nonminimal(struct route_ctx *ctx, const struct piggyback_plan *plan)
{
    const struct piggyback_params *pp = ctx->env->params;
    if ((piggyback_flags_seen(ctx->env, ctx->router, plan->gateway) >> plan->gateway_port) & 1)
        return 1;
    int64_t q_min = route_occupancy(ctx, plan->min_port, plan->min_vc);
    int64_t q_non = route_occupancy(ctx, plan->non_port, plan->non_vc);
    return q_min * plan->hops_min >
           q_non * plan->hops_non + (int64_t)pp->local_threshold * ctx->env->packet_size;
}

static int piggyback_route(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    /* Decided packets (and those without a nonminimal candidate) follow their path. */
    if ((pk->flags & PACKET_DECIDED) || pk->target < 0)
        return routing_via_target(ctx, pk, out);
    struct piggyback_state *st = route_state(ctx);
    const struct topology *t = ctx->env->topo;
    int node = t->first_node[ctx->router] + ctx->in_port;
    struct piggyback_plan *plan = &st->plans[node * ctx->env->vcs[PORT_NODE] + pk->vc];
    if ((!plan->valid || plan->packet_id != pk->id) && piggyback_make_plan(ctx, pk, plan))
        return -1;
    out->flags = pk->flags;
    out->misroute_group = pk->misroute_group;
    if (piggyback_prefers_nonminimal(ctx, plan)) {
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
