/* routing: the registry of routing mechanisms, VC ladders and the minimal-path helper. */
#include "routing.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bounds_throughput.h"
#include "registry.h"
#include "sim_config.h"
#include "traffic.h"

const struct routing_ops *const routing_registry[] = {
    &routing_min,       &routing_valiant,    &routing_oblivious,
    &routing_piggyback, &routing_in_transit, &routing_ugal,
    &routing_ugal_g,    &routing_fpar,       NULL,
};

REGISTRY_DEFINE(routing, struct routing_ops, routing_registry)

/* A table shared by several mechanisms (ugal's, read by ugal and ugal_g) belongs to the first
 * that points to it: the schema lists its settings once. */
const struct setting_table *routing_settings_at(int i)
{
    for (int j = 0; j < i; j++)
        if (routing_registry[j]->settings == routing_registry[i]->settings)
            return NULL;
    return routing_registry[i]->settings;
}

const struct routing_ops *routing_of(const struct sim_config *cfg)
{
    return routing_registry[cfg->routing.mechanism];
}


/* The mechanism's own table, and the global misrouting policy where it has policies. */
bool routing_reads(const struct sim_config *cfg, const struct setting_table *t)
{
    const struct routing_ops *ops = routing_of(cfg);
    return t == ops->settings || (t == &misroute_policy_settings && ops->global_policies != 0);
}

int routing_needs(const struct sim_config *cfg, struct setting_needs *out)
{
    if (cfg->routing.mechanism < 0 || cfg->routing.mechanism >= routing_count())
        return -1;
    const struct routing_ops *ops = routing_of(cfg);
    struct vc_ladder ladder;
    memset(&ladder, 0, sizeof ladder);
    ops->ladder(cfg, &ladder);
    *out = (struct setting_needs){ladder.local_vcs, ladder.global_vcs, ops->name};
    return 0;
}

static const char *const misroute_policy_names[] = {"crg", "rrg", "nrg", "mm", NULL};

/* A mechanism that reads routing.global_policy accepts only the policies it implements. */
static int misroute_policy_check(const struct sim_config *cfg, const void *params,
                                 struct setting_issue *issue)
{
    const struct misroute_policy_params *mp = params;
    const struct routing_ops *ops = routing_registry[cfg->routing.mechanism];
    if (!ops->global_policies || ((ops->global_policies >> mp->global_policy) & 1))
        return 0;
    issue->key = "routing.global_policy";
    issue->alt = "routing.mechanism";
    int n = snprintf(issue->text, sizeof issue->text,
                     "routing '%s' has no global policy '%s' (expected one of:", ops->name,
                     misroute_policy_names[mp->global_policy]);
    for (int p = 0, listed = 0; misroute_policy_names[p]; p++)
        if ((ops->global_policies >> p) & 1 && n < (int)sizeof issue->text)
            n += snprintf(issue->text + n, sizeof issue->text - (size_t)n, "%s %s",
                          listed++ ? "," : "", misroute_policy_names[p]);
    if (n < (int)sizeof issue->text)
        snprintf(issue->text + n, sizeof issue->text - (size_t)n, ")");
    return -1;
}

static const struct setting misroute_policy_rows[] = {
    SETTING_CHOICE_ROW(struct misroute_policy_params, "global_policy", global_policy, "rrg",
                       misroute_policy_names,
                       "global misrouting policy (nrg and mm: in_transit only)"),
};

const struct setting_table misroute_policy_settings = {
    "routing", "oblivious, piggyback, in_transit", misroute_policy_rows, 1,
    sizeof(struct misroute_policy_params), misroute_policy_check};

static const char *const min_choice_names[] = {"hash", "occupancy", "auto", NULL};

static const struct setting routing_rows[] = {
    SETTING_PLUGIN_ROW(struct config_routing, "mechanism", mechanism, "min", routing_names,
                       "routing mechanism"),
    SETTING_QUIET_CHOICE(struct config_routing, "min_choice", min_choice, "auto", min_choice_names,
                         "where several ports are minimal (Dragonfly+, cascade): hash = a hash of "
                         "the packet picks one; occupancy = the least occupied next VC, ties at "
                         "random (MIN, and the minimal legs of valiant and fpar; refused on the "
                         "cascade); auto = occupancy on dragonfly_plus, hash elsewhere"),
};

/* On the cascade a VC ladder entry "lk lk" carries a row hop then a column hop of one
 * dimension-ordered segment (routers/README.md); the least occupied minimal port may start
 * with the column and break that order, so the choice is refused there (deadlock). */
static int routing_check(const struct sim_config *cfg, const void *params,
                         struct setting_issue *issue)
{
    (void)params;
    if (cfg->routing.min_choice != MIN_CHOICE_OCCUPANCY || !routing_on_cascade(cfg))
        return 0;
    snprintf(issue->text, sizeof issue->text,
             "\"occupancy\" is not allowed with topology.kind = \"cascade\" "
             "(its ladders need each group segment row then column, which a choice by occupancy "
             "can break: expected \"hash\" or \"auto\")");
    issue->key = "routing.min_choice";
    issue->alt = "topology.kind";
    return -1;
}

const struct setting_table routing_settings = {"routing", NULL, routing_rows, 2, 0, routing_check};

int ladder_parse(struct vc_ladder *ladder, const char *text)
{
    memset(ladder, 0, sizeof *ladder);
    for (const char *c = text; *c;) {
        if (isspace((unsigned char)*c)) {
            c++;
            continue;
        }
        if ((*c != 'l' && *c != 'g') || !isdigit((unsigned char)c[1]) ||
            ladder->length == LADDER_MAX)
            return -1;
        int vc = c[1] - '0';
        ladder->port_class[ladder->length] = *c == 'l' ? PORT_LOCAL : PORT_GLOBAL;
        ladder->vc[ladder->length++] = (uint8_t)vc;
        int *count = *c == 'l' ? &ladder->local_vcs : &ladder->global_vcs;
        if (vc + 1 > *count)
            *count = vc + 1;
        c += 2;
    }
    return 0;
}

int ladder_segment_start(const struct vc_ladder *ladder, int position)
{
    if (position < 1 || position > ladder->length || ladder->port_class[position - 1] != PORT_LOCAL)
        return position; /* the last hop was global: nothing to continue in this group */
    int vc = ladder->vc[position - 1];
    while (position < ladder->length && ladder->port_class[position] == PORT_LOCAL &&
           ladder->vc[position] == vc)
        position++;
    return position;
}

int routing_least_occupied(struct route_ctx *ctx, uint64_t ports, int position)
{
    const struct vc_ladder *ladder = ctx->env->ladder;
    const struct router_view *view = route_adaptive_view(ctx);
    int best = -1, ties = 0;
    int64_t best_occupancy = 0, best_capacity = 1;
    for (uint64_t m = ports; m; m &= m - 1) {
        int port = __builtin_ctzll(m);
        int entry = ladder_next(ladder, position, (enum port_class)ctx->kind->port_class[port]);
        if (entry < 0)
            continue;
        int64_t occupancy = view_occupancy(view, port, ladder->vc[entry]);
        int64_t capacity = view->capacity[port];
        /* occupancy / capacity against the best so far, in integers */
        int64_t mine = occupancy * best_capacity, theirs = best_occupancy * capacity;
        if (best >= 0 && mine > theirs)
            continue;
        if (best < 0 || mine < theirs) {
            best = port;
            best_occupancy = occupancy;
            best_capacity = capacity;
            ties = 1;
        } else if (rng_below(route_rng(ctx), (uint32_t)++ties) == 0) {
            best = port; /* reservoir sampling: each of the tied ports with probability 1/ties */
        }
    }
    return best;
}

/* The minimal port towards target (several on a Dragonfly+ or a cascade: routing.min_choice
 * picks, or the topology's own when hashing). Out of line: the canonical dragonfly has one. */
static __attribute__((noinline)) int routing_min_port_of(struct route_ctx *ctx, int router,
                                                         int target, int position)
{
    const struct topology *t = ctx->env->topo;
    uint64_t ports = topology_min_ports(t, router, target);
    if (!(ports & (ports - 1)) || ctx->env->min_choice != MIN_CHOICE_OCCUPANCY)
        return topology_min_port(t, router, target);
    return routing_least_occupied(ctx, ports, position);
}

/* routing_minimal_choice from ladder position `position`. */
/* Inlined into both callers: as a call of its own it costs a third more per hop. */
static inline __attribute__((always_inline)) int routing_minimal_from(struct route_ctx *ctx,
                                                                      const struct packet *pk,
                                                                      int target, int position,
                                                                      struct route_choice *out)
{
    const struct topology *t = ctx->env->topo;
    const struct vc_ladder *ladder = ctx->env->ladder;
    int router = ctx->router;
    int dst_router = topology_router_of_node(t, (int)pk->dst);
    if (target < 0)
        target = dst_router;
    if (router == dst_router && target == dst_router) {
        route_to_node(t, pk, position, out);
        return 0;
    }
    out->flags = pk->flags;
    out->target = pk->target;
    out->misroute_group = pk->misroute_group;
    int port = t->inline_min_port ? topology_min_port(t, router, target)
                                  : routing_min_port_of(ctx, router, target, position);
    if (port < 0)
        return -1; /* no minimal port on the ladder */
    if (target == dst_router)
        ctx->dst_min_port = port;
    int entry = ladder_next(ladder, position, (enum port_class)ctx->kind->port_class[port]);
    if (entry < 0)
        return -1; /* off the ladder: the caller reports it as a broken invariant */
    out->out_port = port;
    out->vc = ladder->vc[entry];
    out->ladder_pos = (uint8_t)(entry + 1);
    return 0;
}

int routing_minimal_choice(struct route_ctx *ctx, const struct packet *pk, int target,
                           struct route_choice *out)
{
    return routing_minimal_from(ctx, pk, target, pk->ladder_pos, out);
}

int routing_via_target(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    int turning = pk->target == ctx->router, target = turning ? -1 : pk->target;
    int position =
        turning ? ladder_segment_start(ctx->env->ladder, pk->ladder_pos) : pk->ladder_pos;
    if (routing_minimal_from(ctx, pk, target, position, out))
        return -1;
    if (target < 0) {
        out->target = -1;
        out->flags &= (uint8_t)~PACKET_NONMINIMAL;
    }
    return 0;
}

int ladder_local_reuse(const struct vc_ladder *ladder, int position, uint8_t *ladder_pos)
{
    int entry = -1;
    for (int e = 0; e < position && e < ladder->length; e++)
        if (ladder->port_class[e] == PORT_LOCAL)
            entry = e;
    if (entry < 0)
        entry = ladder_next(ladder, 0, PORT_LOCAL);
    *ladder_pos = (uint8_t)(entry + 1 > position ? entry + 1 : position);
    return ladder->vc[entry];
}

int routing_valiant_style_bound(const struct sim_config *cfg, const struct topology *t,
                                struct bounds_throughput *out)
{
    if (!pattern_registry[cfg->traffic.pattern]->uniform)
        return -1;
    /* A group's global links per node it holds: h/p on the dragonfly and the cascade. */
    int links = 0, nodes = 0;
    for (int r = t->group_first_router[0]; r < t->group_first_router[0] + topology_group_routers(t, 0);
         r++) {
        links += topology_kind_of(t, r)->count[PORT_GLOBAL];
        nodes += topology_kind_of(t, r)->count[PORT_NODE];
    }
    double per_node = (double)links / nodes;
    *out = (struct bounds_throughput){
        .load = per_node / (2.0 - 1.0 / (t->groups - 1)),
        .formula = links == nodes ? "1/(2 - 1/(G-1))" : "(global links/nodes) / (2 - 1/(G-1))",
        .reason = "Valiant-style under UN: two global links per packet unless the intermediate is "
                  "the destination group"};
    return 0;
}
