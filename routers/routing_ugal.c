/* routing_ugal: UGAL as Aries routes (ugal) and its global-knowledge bound (ugal_g). At the
 * source router, while the packet heads its injection queue, it draws
 * routing.ugal_min_candidates minimal and routing.ugal_nonmin_candidates nonminimal paths
 * (via a random router of a random other group) once, then every cycle takes the least
 * costly, the nonminimal ones paying routing.ugal_bias; once it leaves, its path is fixed,
 * unless routing.ugal_progressive re-decides at each router of the source group while the
 * packet is still minimal. ugal costs a path by its first output's occupancy (Aries: local
 * queues plus credits); ugal_g by the occupancies along the whole path, which no router could
 * know in time: the bound the others are measured against. */
#include "routing_ugal.h"

#include <assert.h>
#include <stdlib.h>

#include "config.h"
#include "job_config.h"

struct ugal_params {
    int min_candidates, nonmin_candidates, weight, bias, bias_mode, preset;
    bool progressive;
};

static const char *const ugal_weight_names[] = {"occupancy", "occupancy_x_hops", NULL};
static const char *const ugal_bias_mode_names[] = {"constant", "increasing", NULL};
const char *const ugal_preset_names[] = {"none",       "adaptive_0", "adaptive_1",
                                         "adaptive_2", "adaptive_3", NULL};

static const struct setting ugal_rows[] = {
    SETTING_INT_ROW(struct ugal_params, "ugal_min_candidates", min_candidates, 2, 1,
                    UGAL_MAX_CANDIDATES, "minimal paths drawn per decision"),
    SETTING_INT_ROW(struct ugal_params, "ugal_nonmin_candidates", nonmin_candidates, 2, 0,
                    UGAL_MAX_CANDIDATES,
                    "nonminimal paths drawn per decision (via a random router of a random "
                    "other group)"),
    SETTING_CHOICE_ROW(struct ugal_params, "ugal_weight", weight, "occupancy_x_hops",
                       ugal_weight_names,
                       "cost of a path: occupancy of its first output's next VC, or that times "
                       "its hops (ugal only)"),
    SETTING_INT_ROW(struct ugal_params, "ugal_bias", bias, 0, 0, 1000000,
                    "phits added to a nonminimal path's cost"),
    SETTING_CHOICE_ROW(struct ugal_params, "ugal_bias_mode", bias_mode, "constant",
                       ugal_bias_mode_names,
                       "increasing: the bias times 1 + hops taken, when re-decided"),
    SETTING_BOOL_ROW(struct ugal_params, "ugal_progressive", progressive, 0,
                     "re-decide at each router of the source group while minimal"),
    SETTING_CHOICE_ROW(
        struct ugal_params, "ugal_preset", preset, "none", ugal_preset_names,
        "Aries mode; not none: sets bias, bias mode and progressive (routers/README.md)"),
};

static const struct setting_table ugal_settings = {"routing",
                                                   "ugal, ugal_g",
                                                   ugal_rows,
                                                   (int)(sizeof ugal_rows / sizeof ugal_rows[0]),
                                                   sizeof(struct ugal_params),
                                                   NULL};

/* What each Aries mode sets (routers/README.md): no bias; a bias growing with the
 * hops taken, which needs re-decisions along the source group; a low and a high bias. */
static const struct {
    int64_t bias;
    int mode;
    bool progressive;
} ugal_presets[] = {
    [UGAL_ADAPTIVE_0] = {0, UGAL_BIAS_CONSTANT, false},
    [UGAL_ADAPTIVE_1] = {UGAL_BIAS_INCREASING_BASE, UGAL_BIAS_INCREASING, true},
    [UGAL_ADAPTIVE_2] = {UGAL_BIAS_LOW, UGAL_BIAS_CONSTANT, false},
    [UGAL_ADAPTIVE_3] = {UGAL_BIAS_HIGH, UGAL_BIAS_CONSTANT, false},
};

void ugal_rule_of_mode(const void *params, int mode, struct ugal_rule *out)
{
    const struct ugal_params *up = params;
    *out = (struct ugal_rule){up->min_candidates, up->nonmin_candidates, up->bias, up->bias_mode,
                              up->weight,         up->progressive};
    int preset = mode != UGAL_PRESET_NONE ? mode : up->preset;
    if (preset == UGAL_PRESET_NONE)
        return;
    out->bias = ugal_presets[preset].bias;
    out->mode = ugal_presets[preset].mode;
    out->progressive = ugal_presets[preset].progressive;
}

void ugal_rule_of(const void *params, struct ugal_rule *out)
{
    ugal_rule_of_mode(params, UGAL_PRESET_NONE, out);
}

/* Whether the packets of the run re-decide: the routing's own rule or a job's mode. */
static bool ugal_any_progressive(const struct sim_config *cfg)
{
    const void *params = settings_params(cfg, &ugal_settings);
    struct ugal_rule rule;
    ugal_rule_of(params, &rule);
    for (int j = 0; j < cfg->n_jobs && !rule.progressive; j++)
        for (int m = 0; m < UGAL_PRESETS && !rule.progressive; m++)
            if ((job_routing_modes(&cfg->jobs[j]) >> m) & 1u)
                ugal_rule_of_mode(params, m, &rule);
    return rule.progressive;
}

/* The nonminimal mechanisms' ladders plus, in the source group, one local VC per hop (a
 * minimal candidate may start in either dimension of the cascade) and, when progressive, one
 * more for the nonminimal segment that may follow minimal hops there. The progressive ladder
 * holds the other (a packet that does not re-decide skips its extra entry), so a run where
 * some mode is progressive climbs it with every packet. */
static void ugal_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    bool progressive = ugal_any_progressive(cfg);
    if (routing_on_cascade(cfg))
        ladder_parse(out, progressive ? "l0 l1 l2 l2 g0 l3 l3 l4 l4 g1 l5 l5"
                                      : "l0 l1 g0 l2 l2 l3 l3 g1 l4 l4");
    else
        ladder_parse(out, progressive ? "l0 l1 g0 l2 l3 g1 l4" : "l0 g0 l1 l2 g1 l3");
}

/* ---- per-run state: the candidates of the packets deciding, per input VC ---- */

struct ugal_state {
    bool per_port;    /* progressive: any input VC decides; else only injection queues */
    int vcs_per_slot; /* VC slots per port */
    struct ugal_plan *plans;
    struct ugal_rule rules[UGAL_PRESETS]; /* by packet.mode */
};

static int ugal_init(struct routing_env *env)
{
    struct ugal_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    for (int m = 0; m < UGAL_PRESETS; m++) {
        ugal_rule_of_mode(env->params, m, &st->rules[m]);
        if (((env->modes | 1u) >> m) & 1u)
            st->per_port |= st->rules[m].progressive;
    }
    const struct topology *t = env->topo;
    size_t slots;
    if (st->per_port) {
        st->vcs_per_slot = env->vcs[PORT_NODE];
        for (int c = PORT_LOCAL; c < PORT_CLASSES; c++)
            if (env->vcs[c] > st->vcs_per_slot)
                st->vcs_per_slot = env->vcs[c];
        slots = (size_t)t->port_base[t->routers] * (size_t)st->vcs_per_slot;
    } else {
        st->vcs_per_slot = env->vcs[PORT_NODE];
        slots = (size_t)t->nodes * (size_t)st->vcs_per_slot;
    }
    st->plans = calloc(slots, sizeof *st->plans);
    if (!st->plans) {
        free(st);
        return -1;
    }
    env->state = st;
    return 0;
}

static void ugal_destroy(struct routing_env *env)
{
    struct ugal_state *st = env->state;
    if (st)
        free(st->plans);
    free(st);
    env->state = NULL;
}

static struct ugal_plan *ugal_plan_slot(struct route_ctx *ctx, const struct packet *pk)
{
    struct ugal_state *st = route_state(ctx);
    const struct topology *t = ctx->env->topo;
    int router = ctx->router;
    size_t port = st->per_port ? t->port_base[router] + (uint32_t)ctx->in_port
                               : (size_t)(t->first_node[router] + ctx->in_port);
    return &st->plans[port * (size_t)st->vcs_per_slot + pk->vc];
}

/* ---- candidates ---- */

static int ugal_path_hops(const struct topology *t, int from, int to)
{
    int local, global;
    topology_min_hops(t, from, to, &local, &global);
    return local + global;
}

int ugal_candidate_make(const struct route_ctx *ctx, const struct packet *pk, int port, int target,
                        struct ugal_candidate *out)
{
    const struct topology *t = ctx->env->topo;
    const struct vc_ladder *ladder = ctx->env->ladder;
    int router = ctx->router, dst = topology_router_of_node(t, (int)pk->dst);
    int entry = ladder_next(ladder, pk->ladder_pos, (enum port_class)ctx->kind->port_class[port]);
    if (entry < 0)
        return -1;
    int hops = target < 0 ? ugal_path_hops(t, router, dst)
                          : ugal_path_hops(t, router, target) + ugal_path_hops(t, target, dst);
    *out = (struct ugal_candidate){target, (uint8_t)port, ladder->vc[entry], (uint8_t)(entry + 1),
                                   (uint8_t)hops};
    return 0;
}

/* The k-th set bit of mask. */
static int ugal_nth_port(uint64_t mask, uint32_t k)
{
    for (; k > 0; k--)
        mask &= mask - 1;
    return __builtin_ctzll(mask);
}

/* A router uniform over the groups other than `a` and `b` (a != b). */
static int ugal_random_intermediate(struct route_ctx *ctx, int a, int b)
{
    const struct topology *t = ctx->env->topo;
    struct rng *rng = route_rng(ctx);
    int lo = a < b ? a : b, hi = a < b ? b : a;
    int g = (int)rng_below(rng, (uint32_t)(t->groups - 2));
    if (g >= lo) /* skip the two excluded groups in increasing order: uniform */
        g++;
    if (g >= hi)
        g++;
    return t->group_first_router[g] + (int)rng_below(rng, (uint32_t)topology_group_routers(t, g));
}

int ugal_draw(struct route_ctx *ctx, const struct packet *pk, const struct ugal_rule *rule,
              struct ugal_plan *plan)
{
    const struct topology *t = ctx->env->topo;
    int router = ctx->router, dst = topology_router_of_node(t, (int)pk->dst);
    int group = topology_group_of_router(t, router), dst_group = topology_group_of_router(t, dst);
    uint64_t minimal = topology_min_ports(t, router, dst);
    int n = 0;
    for (int k = 0; k < rule->min_candidates; k++) {
        uint32_t pick = rng_below(route_rng(ctx), (uint32_t)__builtin_popcountll(minimal));
        if (ugal_candidate_make(ctx, pk, ugal_nth_port(minimal, pick), -1, &plan->c[n++]))
            return -1;
    }
    plan->n_min = (uint8_t)n;
    int nonmin = group == dst_group || t->groups < 3 ? 0 : rule->nonmin_candidates;
    for (int k = 0; k < nonmin; k++) {
        int target = ugal_random_intermediate(ctx, group, dst_group);
        int port = topology_min_port(t, router, target);
        if (ugal_candidate_make(ctx, pk, port, target, &plan->c[n++]))
            return -1;
    }
    plan->n_nonmin = (uint8_t)(n - plan->n_min);
    plan->packet_id = pk->id;
    plan->valid = 1;
    return 0;
}

/* ---- costs and the choice ---- */

/* Phits in use behind every hop of the candidate's path, each read from the router that
 * takes it (the turn at the intermediate starts a new ladder segment, as the path does). */
static int64_t ugal_path_occupancy(struct route_ctx *ctx, const struct packet *pk,
                                   const struct ugal_candidate *c)
{
    const struct topology *t = ctx->env->topo;
    const struct vc_ladder *ladder = ctx->env->ladder;
    int dst = topology_router_of_node(t, (int)pk->dst), target = c->target, pos = c->ladder_pos;
    int64_t sum = route_occupancy(ctx, c->port, c->vc);
    int router = topology_neighbour(t, ctx->router, c->port);
    while (router != dst) {
        if (router == target) {
            target = -1;
            pos = ladder_segment_start(ladder, pos);
        }
        int port = topology_min_port(t, router, target >= 0 ? target : dst);
        int entry = ladder_next(ladder, pos, topology_port_class(t, router, port));
        if (entry < 0)
            break; /* cannot happen on the mechanism's own ladder */
        struct router_view view;
        route_view_of(ctx, router, &view);
        sum += view_occupancy(&view, port, ladder->vc[entry]);
        pos = entry + 1;
        router = topology_neighbour(t, router, port);
    }
    return sum;
}

static int64_t ugal_cost(struct route_ctx *ctx, const struct packet *pk,
                         const struct ugal_rule *rule, bool global_knowledge,
                         const struct ugal_candidate *c)
{
    if (global_knowledge)
        return ugal_path_occupancy(ctx, pk, c);
    int64_t occupancy = route_occupancy(ctx, c->port, c->vc);
    return rule->weight == UGAL_OCCUPANCY_X_HOPS ? occupancy * c->hops : occupancy;
}

/* The least costly of candidates [first, first + n); its cost in *best. */
static int ugal_cheapest(struct route_ctx *ctx, const struct packet *pk,
                         const struct ugal_rule *rule, bool global_knowledge,
                         const struct ugal_plan *plan, int first, int n, int64_t *best)
{
    int chosen = first;
    for (int i = first; i < first + n; i++) {
        int64_t cost = ugal_cost(ctx, pk, rule, global_knowledge, &plan->c[i]);
        if (i == first || cost < *best) {
            *best = cost;
            chosen = i;
        }
    }
    return chosen;
}

int ugal_choose(struct route_ctx *ctx, const struct packet *pk, const struct ugal_rule *rule,
                bool global_knowledge, const struct ugal_plan *plan)
{
    int64_t cost_min = 0, cost_non = 0;
    int min = ugal_cheapest(ctx, pk, rule, global_knowledge, plan, 0, plan->n_min, &cost_min);
    if (!plan->n_nonmin)
        return min;
    int non = ugal_cheapest(ctx, pk, rule, global_knowledge, plan, plan->n_min, plan->n_nonmin,
                            &cost_non);
    int64_t bias = rule->bias;
    if (rule->mode == UGAL_BIAS_INCREASING)
        bias *= 1 + pk->hops_local + pk->hops_global;
    return cost_non + bias < cost_min ? non : min;
}

/* ---- the decision ---- */

/* Where the packet decides: at its source router, and with progressive UGAL at every router
 * of the source group while it is still minimal; elsewhere it follows its path. */
static bool ugal_deciding(const struct route_ctx *ctx, const struct packet *pk,
                          const struct ugal_rule *rule)
{
    const struct topology *t = ctx->env->topo;
    int router = ctx->router;
    if (router == topology_router_of_node(t, (int)pk->dst))
        return false;
    if (ctx->kind->port_class[ctx->in_port] == PORT_NODE)
        return true;
    return rule->progressive && pk->target < 0 &&
           topology_group_of_router(t, router) == topology_group_of_node(t, (int)pk->src);
}

static int ugal_decide(struct route_ctx *ctx, const struct packet *pk, bool global_knowledge,
                       struct route_choice *out)
{
    /* The rules never change during a run: reading them leaves the decision reusable
     * (route_state would mark it adaptive). */
    const struct ugal_state *st = ctx->env->state;
    assert(pk->mode < UGAL_PRESETS);
    const struct ugal_rule *rule = &st->rules[pk->mode];
    if (!ugal_deciding(ctx, pk, rule))
        return routing_via_target(ctx, pk, out);
    struct ugal_plan *plan = ugal_plan_slot(ctx, pk);
    if ((!plan->valid || plan->packet_id != pk->id) && ugal_draw(ctx, pk, rule, plan))
        return -1;
    const struct ugal_candidate *c = &plan->c[ugal_choose(ctx, pk, rule, global_knowledge, plan)];
    out->out_port = c->port;
    out->vc = c->vc;
    out->ladder_pos = c->ladder_pos;
    out->target = c->target;
    out->flags = c->target >= 0 ? pk->flags | PACKET_NONMINIMAL : pk->flags;
    out->misroute_group = pk->misroute_group;
    return 0;
}

static int ugal_route(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    return ugal_decide(ctx, pk, false, out);
}

static int ugal_g_route(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    return ugal_decide(ctx, pk, true, out);
}

const struct routing_ops routing_ugal = {
    .name = "ugal",
    .summary = "UGAL as on Aries: the least occupied of a few random minimal and nonminimal "
               "first hops at the source, nonminimal ones paying a bias (presets adaptive_0..3)",
    .settings = &ugal_settings,
    .ladder = ugal_ladder,
    .init = ugal_init,
    .destroy = ugal_destroy,
    .route = ugal_route,
};

/* ugal_g reads ugal's settings: the table is listed once, under ugal (routing.c). */
const struct routing_ops routing_ugal_g = {
    .name = "ugal_g",
    .summary = "UGAL with global knowledge: candidates costed by the occupancy along their "
               "whole path (a bound, not a router)",
    .settings = &ugal_settings,
    .ladder = ugal_ladder,
    .init = ugal_init,
    .destroy = ugal_destroy,
    .route = ugal_g_route,
};
