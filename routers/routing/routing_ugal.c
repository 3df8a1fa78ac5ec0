/* routing_ugal: UGAL as Aries routes (ugal) and its global-knowledge bound (ugal_g). At the
 * source router, while the packet heads its injection queue, it draws
 * routing.ugal_min_candidates minimal and routing.ugal_nonmin_candidates nonminimal paths
 * (via a random router of a random other group) once, then every cycle takes the least
 * costly, the nonminimal ones paying routing.ugal_bias; once it leaves, its path is fixed,
 * unless routing.ugal_progressive re-decides at each router of the source group while the
 * packet is still minimal. ugal costs a path by its first output's occupancy (Aries: local
 * queues plus credits), plus, with routing.ugal_far_end, the occupancy of the global port where
 * the path leaves the group at another router, as that router published it a few cycles ago;
 * a nonminimal choice that fresher information would not have made is phantom (ugal_phantom).
 * ugal_g costs by the occupancies along the whole path, which no router could know in time:
 * the bound the others are measured against. With routing.ugal_intra_group (cascade; "auto":
 * under a bias preset, as Aries' adaptive modes do), traffic inside a group also draws
 * nonminimal candidates, via a random other router of the group. */
#include "routing_ugal.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "job_config.h"
#include "sim_config.h"

struct ugal_params {
    int min_candidates, nonmin_candidates, weight, bias, bias_mode, preset;
    bool progressive;
    int intra_group; /* enum ugal_intra_group */
    int far_end, far_end_refresh;
};

static int ugal_check(const struct sim_config *cfg, const void *params,
                      struct setting_issue *issue);

static const char *const ugal_weight_names[] = {"occupancy", "occupancy_x_hops", NULL};
static const char *const ugal_bias_mode_names[] = {"constant", "increasing", NULL};
static const char *const ugal_far_end_names[] = {"none", "credits", "auto", NULL};
/* In enum ugal_intra_group order; "true" and "false" are also written as booleans. */
static const char *const ugal_intra_group_names[] = {"false", "true", "auto", NULL};
const char *const ugal_preset_names[] = {"none",       "adaptive_0", "adaptive_1", "adaptive_2",
                                         "adaptive_3", "min_hash",   "nmin_hash",  NULL};

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
    /* Added after the study's documents: left out of their echo and hash at their default. */
    SETTING_QUIET_CHOICE(struct ugal_params, "ugal_intra_group", intra_group, "auto",
                         ugal_intra_group_names,
                         "cascade: traffic inside a group also draws its nonminimal candidates, "
                         "via a random other router of the group; auto = under the bias presets "
                         "adaptive_0..3 (routers/ROUTING.md)"),
    SETTING_QUIET_CHOICE(struct ugal_params, "ugal_far_end", far_end, "auto", ugal_far_end_names,
                         "ugal: a path leaving the group at another router adds that router's "
                         "global-port occupancy as known here, late (credits), or not (none); "
                         "auto = credits on the cascade, none elsewhere (routers/README.md)"),
    SETTING_QUIET_NUMBER(struct ugal_params, SETTING_INT, "ugal_far_end_refresh", far_end_refresh,
                         0, 0, 1000000,
                         "cycles between the far-end values a router publishes (0: every cycle)"),
};

static const struct setting_table ugal_settings = {"routing",
                                                   "ugal, ugal_g",
                                                   ugal_rows,
                                                   (int)(sizeof ugal_rows / sizeof ugal_rows[0]),
                                                   sizeof(struct ugal_params),
                                                   ugal_check};

/* Intra-group detours are defined (and their ladder argued) on the cascade only. */
static int ugal_check(const struct sim_config *cfg, const void *params, struct setting_issue *issue)
{
    const struct ugal_params *up = params;
    const struct routing_ops *routing = routing_of(cfg);
    if (up->intra_group != UGAL_INTRA_TRUE ||
        (routing != &routing_ugal && routing != &routing_ugal_g) || routing_on_cascade(cfg))
        return 0;
    snprintf(issue->text, sizeof issue->text,
             "routing.ugal_intra_group = true needs topology.kind = \"cascade\" (its detours "
             "inside a group are defined on the cascade's rows and columns only; expected "
             "\"auto\", which detours on the cascade only, or false)");
    issue->key = "routing.ugal_intra_group";
    issue->alt = "topology.kind";
    return -1;
}

int ugal_far_end_resolve(int configured, const struct topology_ops *kind)
{
    if (configured != UGAL_FAR_END_AUTO)
        return configured;
    return kind->senses_far_end ? UGAL_FAR_END_CREDITS : UGAL_FAR_END_NONE;
}

int ugal_far_end_setting(const struct sim_config *cfg)
{
    return ((const struct ugal_params *)settings_params(cfg, &ugal_settings))->far_end;
}

int ugal_far_end_of(const struct sim_config *cfg)
{
    return ugal_far_end_resolve(ugal_far_end_setting(cfg), topology_of(cfg));
}

/* ugal senses the far end when its config says so, and always the fresh credits that tell a
 * phantom decision (ugal_phantom). */
static void ugal_sensing(const struct sim_config *cfg, struct routing_sensing *out)
{
    const struct ugal_params *up = settings_params(cfg, &ugal_settings);
    out->far_end = ugal_far_end_of(cfg) == UGAL_FAR_END_CREDITS;
    out->far_end_step = up->far_end_refresh > 0 ? (uint32_t)up->far_end_refresh : 1;
    out->fresh_credits = true;
}

/* What each Aries mode sets (routers/README.md): no bias; a bias growing with the
 * hops taken, which needs re-decisions along the source group; a low and a high bias; no
 * choice at all, a path fixed by a hash, minimal or nonminimal. */
static const struct {
    int64_t bias;
    int mode;
    bool progressive;
    int hashed;
} ugal_presets[] = {
    [UGAL_ADAPTIVE_0] = {0, UGAL_BIAS_CONSTANT, false, UGAL_HASHED_NONE},
    [UGAL_ADAPTIVE_1] = {UGAL_BIAS_INCREASING_BASE, UGAL_BIAS_INCREASING, true, UGAL_HASHED_NONE},
    [UGAL_ADAPTIVE_2] = {UGAL_BIAS_LOW, UGAL_BIAS_CONSTANT, false, UGAL_HASHED_NONE},
    [UGAL_ADAPTIVE_3] = {UGAL_BIAS_HIGH, UGAL_BIAS_CONSTANT, false, UGAL_HASHED_NONE},
    [UGAL_MIN_HASH] = {0, UGAL_BIAS_CONSTANT, false, UGAL_HASHED_MIN},
    [UGAL_NMIN_HASH] = {0, UGAL_BIAS_CONSTANT, false, UGAL_HASHED_NONMIN},
};

bool ugal_intra_group_resolve(int configured, int preset)
{
    if (configured != UGAL_INTRA_AUTO)
        return configured == UGAL_INTRA_TRUE;
    return preset >= UGAL_ADAPTIVE_0 && preset <= UGAL_ADAPTIVE_3;
}

void ugal_rule_of_mode(const void *params, int mode, struct ugal_rule *out)
{
    const struct ugal_params *up = params;
    int preset = mode != UGAL_PRESET_NONE ? mode : up->preset;
    *out = (struct ugal_rule){.min_candidates = up->min_candidates,
                              .nonmin_candidates = up->nonmin_candidates,
                              .bias = up->bias,
                              .mode = up->bias_mode,
                              .weight = up->weight,
                              .progressive = up->progressive,
                              .intra_group = ugal_intra_group_resolve(up->intra_group, preset),
                              .hashed = UGAL_HASHED_NONE};
    if (preset == UGAL_PRESET_NONE)
        return;
    out->bias = ugal_presets[preset].bias;
    out->mode = ugal_presets[preset].mode;
    out->progressive = ugal_presets[preset].progressive;
    out->hashed = ugal_presets[preset].hashed;
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
    bool phantoms;    /* tell phantom decisions (ugal: the env has fresh credits) */
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
        /* "auto" detours on the cascade only (true elsewhere is refused by ugal_check). */
        st->rules[m].intra_group &= env->topo->ops == &topology_cascade;
        if (((env->modes | 1u) >> m) & 1u)
            st->per_port |= st->rules[m].progressive;
    }
    st->phantoms = env->sensing.fresh_credits; /* ugal's, not ugal_g's */
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

/* Where a path from ctx's router along `port` towards `towards` (min_port's path after the
 * first hop) leaves this group, when it does through a global port of another router G:
 * G's port and the local hops from G here; far_port -1 when the first hop is global, the path
 * stays in the group or the router senses no far end. The path is minimal to `towards`, so
 * its local hops up to G are a minimal path between G and here: they count d's hops. */
static void ugal_far_end_candidate(const struct route_ctx *ctx, int port, int towards,
                                   struct ugal_candidate *out)
{
    const struct routing_env *env = ctx->env;
    const struct topology *t = env->topo;
    int router = ctx->router, group = topology_group_of_router(t, router);
    out->far_port = -1;
    out->far_hops = 0;
    if (!env->far_end || ctx->kind->port_class[port] == PORT_GLOBAL)
        return;
    int hops = 1;
    for (int r = topology_neighbour(t, router, port);
         r != towards && topology_group_of_router(t, r) == group; hops++) {
        int next = topology_min_port(t, r, towards);
        if (topology_port_class(t, r, next) == PORT_GLOBAL) {
            out->far_port = (int32_t)routing_global_port(env, r, next);
            out->far_hops = (uint8_t)hops;
            return;
        }
        r = topology_neighbour(t, r, next);
    }
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
    *out = (struct ugal_candidate){
        target, (uint8_t)port, ladder->vc[entry], (uint8_t)(entry + 1), (uint8_t)hops, -1, 0};
    ugal_far_end_candidate(ctx, port, target >= 0 ? target : dst, out);
    return 0;
}

/* The k-th set bit of mask. */
static int ugal_nth_port(uint64_t mask, uint32_t k)
{
    for (; k > 0; k--)
        mask &= mask - 1;
    return __builtin_ctzll(mask);
}

/* x in [0, n - 2) mapped onto [0, n) without `a` and `b` (a != b): uniform when x is. */
static int ugal_skip_two(int x, int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    if (x >= lo) /* skip the two excluded values in increasing order */
        x++;
    if (x >= hi)
        x++;
    return x;
}

/* A router uniform over the groups other than `a` and `b` (a != b). */
static int ugal_random_intermediate(struct route_ctx *ctx, int a, int b)
{
    const struct topology *t = ctx->env->topo;
    struct rng *rng = route_rng(ctx);
    int g = ugal_skip_two((int)rng_below(rng, (uint32_t)(t->groups - 2)), a, b);
    return t->group_first_router[g] + (int)rng_below(rng, (uint32_t)topology_group_routers(t, g));
}

/* A router uniform over the routers of router's group other than itself and dst (both in
 * that group). */
static int ugal_random_intra_intermediate(struct route_ctx *ctx, int router, int dst)
{
    const struct topology *t = ctx->env->topo;
    int g = topology_group_of_router(t, router), first = t->group_first_router[g];
    uint32_t others = (uint32_t)topology_group_routers(t, g) - 2;
    return first +
           ugal_skip_two((int)rng_below(route_rng(ctx), others), router - first, dst - first);
}

/* Whether a nonminimal path exists: between groups (through a third group), or inside one
 * when rule->intra_group and the group has a router besides the two ends. */
static bool ugal_has_nonmin(const struct topology *t, const struct ugal_rule *rule, int group,
                            int dst_group)
{
    if (group != dst_group)
        return t->groups >= 3;
    return rule->intra_group && topology_group_routers(t, group) >= 3;
}

/* Nonminimal candidates to draw. */
static int ugal_nonmin_count(const struct topology *t, const struct ugal_rule *rule, int group,
                             int dst_group)
{
    return ugal_has_nonmin(t, rule, group, dst_group) ? rule->nonmin_candidates : 0;
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
    int nonmin = ugal_nonmin_count(t, rule, group, dst_group);
    for (int k = 0; k < nonmin; k++) {
        int target = group == dst_group ? ugal_random_intra_intermediate(ctx, router, dst)
                                        : ugal_random_intermediate(ctx, group, dst_group);
        int port = topology_min_port(t, router, target);
        if (ugal_candidate_make(ctx, pk, port, target, &plan->c[n++]))
            return -1;
    }
    plan->n_nonmin = (uint8_t)(n - plan->n_min);
    plan->packet_id = pk->id;
    plan->valid = 1;
    return 0;
}

/* ---- the hashed presets (min_hash, nmin_hash) ---- */

/* (src, dst, message) mixed by splitmix64's finalizer: every bit of the key moves the result. */
static uint64_t ugal_hash(uint32_t src, uint32_t dst, uint32_t message)
{
    uint64_t x = ((uint64_t)src << 32 | dst) ^ (uint64_t)message * 0x9e3779b97f4a7c15ull;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* ugal_draw's nonminimal intermediate, picked by the hash's bits instead of the stream. */
static int ugal_hashed_intermediate(const struct topology *t, int router, int dst, uint64_t h)
{
    int group = topology_group_of_router(t, router), dst_group = topology_group_of_router(t, dst);
    if (group == dst_group) {
        int first = t->group_first_router[group];
        uint64_t others = (uint64_t)topology_group_routers(t, group) - 2;
        return first + ugal_skip_two((int)(h % others), router - first, dst - first);
    }
    int g = ugal_skip_two((int)(h % (uint64_t)(t->groups - 2)), group, dst_group);
    return t->group_first_router[g] + (int)((h >> 32) % (uint64_t)topology_group_routers(t, g));
}

int ugal_hashed_candidate(struct route_ctx *ctx, const struct packet *pk,
                          const struct ugal_rule *rule, struct ugal_candidate *out)
{
    const struct topology *t = ctx->env->topo;
    int router = ctx->router, dst = topology_router_of_node(t, (int)pk->dst);
    uint64_t h = ugal_hash(pk->src, pk->dst, route_message(ctx, pk));
    if (rule->hashed == UGAL_HASHED_NONMIN &&
        ugal_has_nonmin(t, rule, topology_group_of_router(t, router),
                        topology_group_of_router(t, dst))) {
        int target = ugal_hashed_intermediate(t, router, dst, h);
        return ugal_candidate_make(ctx, pk, topology_min_port(t, router, target), target, out);
    }
    uint64_t minimal = topology_min_ports(t, router, dst);
    uint32_t pick = (uint32_t)(h % (uint64_t)__builtin_popcountll(minimal));
    return ugal_candidate_make(ctx, pk, ugal_nth_port(minimal, pick), -1, out);
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

/* What the router knows of a candidate's path (ugal): its first hop's occupancy, plus the far
 * end's as published local_latency * far_hops cycles ago (information comes back with the
 * credits, over the local links from the far end); with `fresh`, what latency-1 links would
 * have told it: fresh credits, and the far end's fresh occupancy far_hops cycles ago. */
static int64_t ugal_known_occupancy(struct route_ctx *ctx, const struct ugal_candidate *c,
                                    bool fresh)
{
    int64_t occupancy =
        fresh ? route_fresh_occupancy(ctx, c->port, c->vc) : route_occupancy(ctx, c->port, c->vc);
    if (c->far_port < 0)
        return occupancy;
    int64_t delay = c->far_hops * (fresh ? 1 : ctx->env->link_latency[PORT_LOCAL]);
    return occupancy + route_far_end(ctx, (uint32_t)c->far_port, (int64_t)ctx->now - delay, fresh);
}

static int64_t ugal_weighted(const struct ugal_rule *rule, const struct ugal_candidate *c,
                             int64_t occupancy)
{
    return rule->weight == UGAL_OCCUPANCY_X_HOPS ? occupancy * c->hops : occupancy;
}

static int64_t ugal_cost(struct route_ctx *ctx, const struct packet *pk,
                         const struct ugal_rule *rule, bool global_knowledge,
                         const struct ugal_candidate *c)
{
    if (global_knowledge)
        return ugal_path_occupancy(ctx, pk, c);
    return ugal_weighted(rule, c, ugal_known_occupancy(ctx, c, false));
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

/* The far-end values the costs will read, fetched together: their cache misses overlap.
 * Always inlined: GCC takes a function that only prefetches for a pure one and drops its
 * calls. */
static inline __attribute__((always_inline)) void
ugal_prefetch_far_ends(const struct route_ctx *ctx, const struct ugal_plan *plan)
{
    const struct far_end *h = ctx->env->far_end;
    if (!h)
        return;
    int64_t latency = ctx->env->link_latency[PORT_LOCAL];
    for (int i = 0; i < plan->n_min + plan->n_nonmin; i++) {
        const struct ugal_candidate *c = &plan->c[i];
        if (c->far_port >= 0)
            far_end_prefetch(h, (uint32_t)c->far_port, (int64_t)ctx->now - c->far_hops * latency);
    }
}

void ugal_weigh(struct route_ctx *ctx, const struct packet *pk, const struct ugal_rule *rule,
                bool global_knowledge, const struct ugal_plan *plan, struct ugal_weighing *out)
{
    *out = (struct ugal_weighing){0};
    if (!global_knowledge)
        ugal_prefetch_far_ends(ctx, plan);
    out->min = ugal_cheapest(ctx, pk, rule, global_knowledge, plan, 0, plan->n_min, &out->cost_min);
    out->chosen = out->min;
    if (!plan->n_nonmin)
        return;
    int non = ugal_cheapest(ctx, pk, rule, global_knowledge, plan, plan->n_min, plan->n_nonmin,
                            &out->cost_non);
    out->bias = rule->bias;
    if (rule->mode == UGAL_BIAS_INCREASING)
        out->bias *= 1 + pk->hops_local + pk->hops_global;
    if (out->cost_non + out->bias < out->cost_min)
        out->chosen = non;
}

int ugal_choose(struct route_ctx *ctx, const struct packet *pk, const struct ugal_rule *rule,
                bool global_knowledge, const struct ugal_plan *plan)
{
    struct ugal_weighing w;
    ugal_weigh(ctx, pk, rule, global_knowledge, plan, &w);
    return w.chosen;
}

bool ugal_phantom(struct route_ctx *ctx, const struct ugal_rule *rule, const struct ugal_plan *plan,
                  const struct ugal_weighing *w)
{
    const struct ugal_candidate *min = &plan->c[w->min];
    int64_t true_cost_min = ugal_weighted(rule, min, ugal_known_occupancy(ctx, min, true));
    return !(w->cost_non + w->bias < true_cost_min);
}

/* ---- the decision ---- */

/* Where the packet decides: at its source router, and with progressive UGAL at every router
 * of the source group while it is still minimal and has taken no detour inside it (an
 * intra-group detour ends in the source group: re-deciding after it would climb past the
 * ladder); elsewhere it follows its path. */
static bool ugal_deciding(const struct route_ctx *ctx, const struct packet *pk,
                          const struct ugal_rule *rule)
{
    const struct topology *t = ctx->env->topo;
    int router = ctx->router;
    if (router == topology_router_of_node(t, (int)pk->dst))
        return false;
    if (ctx->kind->port_class[ctx->in_port] == PORT_NODE)
        return true;
    return rule->progressive && pk->target < 0 && pk->misroute_group < 0 &&
           topology_group_of_router(t, router) == topology_group_of_node(t, (int)pk->src);
}

static bool ugal_same_group(const struct topology *t, int a, int b)
{
    return topology_group_of_router(t, a) == topology_group_of_router(t, b);
}

/* An intra-group detour: misroute_group records it (it ends progressive re-decisions), and
 * misrouted.local counts the packet when the detour is longer than its minimal path (an
 * intermediate on a minimal path, a corner of the rectangle, is no misroute). */
static void ugal_mark_intra_detour(const struct route_ctx *ctx, const struct packet *pk,
                                   const struct ugal_candidate *c, struct route_choice *out)
{
    const struct topology *t = ctx->env->topo;
    out->misroute_group = topology_group_of_router(t, ctx->router);
    if (c->hops > ugal_path_hops(t, ctx->router, topology_router_of_node(t, (int)pk->dst)))
        out->flags |= PACKET_LOCAL_MISROUTED;
}

/* The route along candidate c. */
static void ugal_take(const struct route_ctx *ctx, const struct packet *pk,
                      const struct ugal_candidate *c, struct route_choice *out)
{
    out->out_port = c->port;
    out->vc = c->vc;
    out->ladder_pos = c->ladder_pos;
    out->target = c->target;
    /* A nonminimal decision is final: whether it was phantom is the caller's to say. */
    out->flags = c->target >= 0 ? (pk->flags & (uint8_t)~PACKET_PHANTOM) | PACKET_NONMINIMAL |
                                      PACKET_NONMINIMAL_DECISION
                                : pk->flags;
    out->misroute_group = pk->misroute_group;
    if (c->target >= 0 && ugal_same_group(ctx->env->topo, c->target, ctx->router))
        ugal_mark_intra_detour(ctx, pk, c, out);
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
    if (rule->hashed != UGAL_HASHED_NONE) { /* no choice: the hash fixed the path */
        struct ugal_candidate hashed;
        if (ugal_hashed_candidate(ctx, pk, rule, &hashed))
            return -1;
        ugal_take(ctx, pk, &hashed, out);
        return 0;
    }
    struct ugal_plan *plan = ugal_plan_slot(ctx, pk);
    if ((!plan->valid || plan->packet_id != pk->id) && ugal_draw(ctx, pk, rule, plan))
        return -1;
    struct ugal_weighing w;
    ugal_weigh(ctx, pk, rule, global_knowledge, plan, &w);
    ugal_take(ctx, pk, &plan->c[w.chosen], out);
    if (w.chosen != w.min && st->phantoms && ugal_phantom(ctx, rule, plan, &w))
        out->flags |= PACKET_PHANTOM;
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
    .sensing = ugal_sensing,
    .init = ugal_init,
    .destroy = ugal_destroy,
    .route = ugal_route,
    .reports_decisions = true,
    .reads_packet_modes = true,
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
    .reports_decisions = true,
    .reads_packet_modes = true,
};
