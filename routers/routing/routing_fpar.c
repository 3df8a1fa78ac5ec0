/* routing_fpar: fully progressive adaptive routing (FPAR) on a Dragonfly+, as in the interference
 * study (results/dfplus_interference/). At every router the packet's legal next ports are scored:
 * occupancy of the port's next VC over its capacity. A random port of the shortest remaining path
 * whose score is at most T = routing.fpar_threshold % is taken; else, rank by rank, a random port
 * of a longer path (through an intermediate spine, then through an intermediate leaf) at most T;
 * else the port of the shortest path with the smallest score.
 *
 * Legal ports of a packet from group s to group d (a leaf has no global ports, a spine no
 * nodes):
 * - at its source leaf: every spine (those with a link to d give the shortest paths);
 * - at a spine of s: every global link (to d: minimal; to a group whose far spine has a link
 *   to d: through an intermediate spine; else through an intermediate leaf);
 * - at a spine of an intermediate group, still on VL0: its links to d, or down to any leaf
 *   (through an intermediate leaf);
 * - everywhere else (the destination group, an intermediate leaf, anywhere on VL1): the
 *   minimal ports only.
 * The rank of a port is 1 + the minimal hops from its far router to the destination.
 *
 * Two virtual lanes: VL0 for the minimal path and for a nonminimal one up to its intermediate
 * spine or leaf, VL1 from there on. As a ladder: l0 g0 l0 l1 g1 l1 (2 local, 2 global VCs).
 * Inside a group every local link joins a leaf and a spine, so up (leaf->spine) and down
 * (spine->leaf) hops use disjoint channels, and the two l0 entries never follow each other
 * (after a down hop the next local hop is l1). Every path therefore climbs the channel order
 * up0 < g0 < down0 < up1 < g1 < down1 strictly: the buffers cannot wait on each other in a
 * cycle, and ejection always drains, so FPAR is deadlock-free with exactly these VCs.
 *
 * On a topology without leaves and spines (the canonical dragonfly) only minimal ports are
 * legal: there FPAR is minimal routing, on MIN's ladder. */
#include <stdbool.h>
#include <stdlib.h>

#include "bounds_throughput.h"
#include "routing.h"
#include "sim_config.h"
#include "traffic.h"

struct fpar_params {
    int threshold; /* percent */
};

static const struct setting fpar_rows[] = {
    SETTING_INT_ROW(struct fpar_params, "fpar_threshold", threshold, 50, 0, 100,
                    "T: a port is uncongested if its next VC is at most this % occupied"),
};

static const struct setting_table fpar_settings = {
    "routing", "fpar", fpar_rows, 1, sizeof(struct fpar_params), NULL};

/* Ladder positions 0..2 (nothing taken, up0, up0 g0): the packet is on VL0 and has not yet
 * turned at an intermediate router; only then may it leave the minimal path. */
#define FPAR_LAST_VL0_POSITION 2

static bool fpar_two_level(const struct sim_config *cfg)
{
    return topology_of(cfg) == &topology_dragonfly_plus;
}

static void fpar_ladder(const struct sim_config *cfg, struct vc_ladder *out)
{
    if (fpar_two_level(cfg))
        ladder_parse(out, "l0 g0 l0 l1 g1 l1");
    else
        routing_min.ladder(cfg, out);
}

static uint64_t fpar_class_ports(const struct router_kind *k, enum port_class cls)
{
    uint64_t bits = k->count[cls] >= 64 ? ~0ull : (1ull << k->count[cls]) - 1;
    return bits << k->first[cls];
}

/* The ports FPAR may take from this router towards router dst, whose minimal first hops are
 * `minimal` (see the file comment). */
static uint64_t fpar_legal_ports(const struct route_ctx *ctx, const struct packet *pk, int dst,
                                 uint64_t minimal)
{
    const struct topology *t = ctx->env->topo;
    const struct router_kind *k = ctx->kind;
    int router = ctx->router, group = topology_group_of_router(t, router);
    if (pk->ladder_pos > FPAR_LAST_VL0_POSITION || group == topology_group_of_router(t, dst))
        return minimal;
    bool leaf = k->count[PORT_GLOBAL] == 0, spine = k->count[PORT_NODE] == 0;
    bool source = group == topology_group_of_node(t, (int)pk->src);
    if (source && leaf)
        return fpar_class_ports(k, PORT_LOCAL);
    if (source && spine)
        return fpar_class_ports(k, PORT_GLOBAL);
    if (spine) /* intermediate spine on VL0: onwards to d, or down to an intermediate leaf */
        return (minimal & fpar_class_ports(k, PORT_GLOBAL)) | fpar_class_ports(k, PORT_LOCAL);
    return minimal;
}

struct fpar_candidate {
    int port, vc, entry; /* entry: the ladder entry of the hop */
    int rank;            /* hops left to the destination router after this one, plus one */
    int64_t occupancy, capacity;
};

/* The legal candidates of one decision, grouped by rank: the ranks present (bit r), and per
 * rank the candidates at most T occupied (bit i: c[i]; at most 64 ports). Ranks stay below
 * FPAR_RANKS: a minimal path is at most 5 hops on every topology here. */
#define FPAR_RANKS 32
struct fpar_candidates {
    struct fpar_candidate c[TOPOLOGY_MAX_RADIX];
    int n;
    uint32_t ranks;
    uint64_t uncongested[FPAR_RANKS];
};

static bool fpar_uncongested(const struct fpar_candidate *c, int threshold)
{
    return 100 * c->occupancy <= (int64_t)threshold * c->capacity;
}

/* Every port of `ports` the ladder allows, with its ladder entry, rank and score (the
 * decisions with no minimal port on the ladder: fpar_route_ranked). */
static void fpar_candidates(struct route_ctx *ctx, const struct packet *pk, int dst,
                            uint64_t ports, struct fpar_candidates *out)
{
    const struct topology *t = ctx->env->topo;
    const struct vc_ladder *ladder = ctx->env->ladder;
    const struct fpar_params *fp = ctx->env->params;
    const struct router_view *view = route_adaptive_view(ctx);
    int router = ctx->router, n = 0, threshold = fp->threshold;
    const uint32_t *peer = &t->peer[topology_port_base(t, router)];
    int entries[PORT_CLASSES]; /* the ladder entry of a hop, by the port's class */
    for (int cls = 0; cls < PORT_CLASSES; cls++)
        entries[cls] = ladder_next(ladder, pk->ladder_pos, (enum port_class)cls);
    uint32_t ranks = 0;
    for (uint64_t m = ports; m; m &= m - 1) {
        int port = __builtin_ctzll(m);
        int entry = entries[ctx->kind->port_class[port]];
        if (entry < 0)
            continue;
        int vc = ladder->vc[entry];
        struct fpar_candidate *c = &out->c[n];
        c->occupancy = view_occupancy(view, port, vc);
        c->capacity = view->capacity[port];
        bool uncongested = fpar_uncongested(c, threshold);
        int local, global;
        topology_min_hops(t, topology_peer_router(peer[port]), dst, &local, &global);
        int rank = 1 + local + global < FPAR_RANKS ? 1 + local + global : FPAR_RANKS - 1;
        c->port = port;
        c->vc = vc;
        c->entry = entry;
        c->rank = rank;
        if (!((ranks >> rank) & 1)) {
            ranks |= 1u << rank;
            out->uncongested[rank] = 0;
        }
        if (uncongested)
            out->uncongested[rank] |= 1ull << n;
        n++;
    }
    out->ranks = ranks;
    out->n = n;
}

/* One of the k candidates in `set` (bit i: candidate i), uniformly; no draw for a single one. */
static int fpar_random(struct route_ctx *ctx, uint64_t set, int k)
{
    return k == 1 ? __builtin_ctzll(set)
                  : topology_port_at(set, (int)rng_below(route_rng(ctx), (uint32_t)k));
}

/* The least occupied of the candidates in `set` (relative to capacity), ties at random. */
static int fpar_least_occupied(struct route_ctx *ctx, const struct fpar_candidates *cs,
                               uint64_t set)
{
    int best = -1, ties = 0;
    for (uint64_t m = set; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        const struct fpar_candidate *c = &cs->c[i];
        int64_t mine = best < 0 ? 0 : c->occupancy * cs->c[best].capacity,
                theirs = best < 0 ? 0 : cs->c[best].occupancy * c->capacity;
        if (best >= 0 && mine > theirs)
            continue;
        if (best < 0 || mine < theirs) {
            best = i;
            ties = 1;
        } else if (rng_below(route_rng(ctx), (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    return best;
}

/* The candidate to take (index into cs->c, cs->n > 0): rank by rank from the shortest, a
 * random one at most T occupied; else the least occupied of the shortest (ties at random). */
static int fpar_choose(struct route_ctx *ctx, const struct fpar_candidates *cs)
{
    for (uint32_t m = cs->ranks; m; m &= m - 1) {
        uint64_t set = cs->uncongested[__builtin_ctz(m)];
        if (!set)
            continue;
        /* min_choice occupancy: on the shortest (minimal) rank the least occupied, not any */
        if (m == cs->ranks && ctx->env->min_choice == MIN_CHOICE_OCCUPANCY)
            return fpar_least_occupied(ctx, cs, set);
        return fpar_random(ctx, set, __builtin_popcountll(set));
    }
    int shortest = __builtin_ctz(cs->ranks), k = 0, best = -1;
    uint64_t chosen = 0;
    for (int i = 0; i < cs->n; i++) {
        const struct fpar_candidate *c = &cs->c[i];
        if (c->rank != shortest)
            continue;
        if (k) { /* occupancy_i / capacity_i against the best so far, in integers */
            int64_t mine = c->occupancy * cs->c[best].capacity,
                    theirs = cs->c[best].occupancy * c->capacity;
            if (mine > theirs)
                continue;
            if (mine < theirs) {
                k = 0;
                chosen = 0;
            }
        }
        if (!k)
            best = i;
        chosen |= 1ull << i;
        k++;
    }
    return fpar_random(ctx, chosen, k);
}

/* Which output VCs of every router are at most T occupied, kept as credits change
 * (routing_ops.on_credits): a decision reads the minimal ports' occupancies but the longer
 * paths' only where they qualify. Without it (a decision outside a network) every port is
 * scored. */
struct fpar_state {
    int vcs; /* VCs per router tracked: the most of any class */
    uint64_t *uncongested; /* [router * vcs + vc]: bit p, output VC vc of port p at most T */
};

static bool fpar_at_most_threshold(const struct routing_env *env, int router, int port,
                                   int32_t credits)
{
    const struct fpar_params *fp = env->params;
    int64_t capacity = env->views[router].capacity[port];
    return 100 * (capacity - credits) <= (int64_t)fp->threshold * capacity;
}

static void fpar_on_credits(struct routing_env *env, int router, int port, int vc,
                            int32_t credits)
{
    struct fpar_state *st = env->state;
    uint64_t *mask = &st->uncongested[(size_t)router * (size_t)st->vcs + (size_t)vc];
    uint64_t bit = 1ull << port;
    *mask = fpar_at_most_threshold(env, router, port, credits) ? *mask | bit : *mask & ~bit;
}

static int fpar_init(struct routing_env *env)
{
    struct fpar_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    st->vcs = env->vcs[PORT_LOCAL] > env->vcs[PORT_GLOBAL] ? env->vcs[PORT_LOCAL]
                                                           : env->vcs[PORT_GLOBAL];
    st->uncongested = calloc((size_t)env->topo->routers * (size_t)st->vcs, sizeof(uint64_t));
    if (!st->uncongested) {
        free(st);
        return -1;
    }
    env->state = st;
    for (int r = 0; r < env->topo->routers; r++) {
        const struct router_view *view = &env->views[r];
        for (int port = 0; port < view->kind->radix; port++) {
            int cls = view->kind->port_class[port];
            for (int vc = 0; cls != PORT_NODE && vc < env->vcs[cls]; vc++)
                fpar_on_credits(env, r, port, vc, view->credits[view->vc_offset[port] + vc]);
        }
    }
    return 0;
}

static void fpar_destroy(struct routing_env *env)
{
    struct fpar_state *st = env->state;
    if (st)
        free(st->uncongested);
    free(st);
    env->state = NULL;
}

/* The ports on the ladder (a class with an entry ahead) whose next VC is at most T occupied. */
static uint64_t fpar_tracked_uncongested(const struct route_ctx *ctx, const struct fpar_state *st,
                                         const int *entries, uint64_t *on_ladder)
{
    const uint64_t *masks = &st->uncongested[(size_t)ctx->router * (size_t)st->vcs];
    uint64_t ports = 0, uncongested = 0;
    for (int cls = PORT_LOCAL; cls <= PORT_GLOBAL; cls++) {
        if (entries[cls] < 0)
            continue;
        uint64_t of_class = fpar_class_ports(ctx->kind, (enum port_class)cls);
        ports |= of_class;
        uncongested |= of_class & masks[ctx->env->ladder->vc[entries[cls]]];
    }
    *on_ladder = ports;
    return uncongested;
}

/* The minimal legal ports of a decision on the ladder, scored in one pass, by port: which are
 * at most T occupied, and the least occupied of them all (relative to capacity) with its ties,
 * in increasing port order, as fpar_choose collects them. */
struct fpar_minimal {
    uint64_t ports, uncongested, least; /* least: the least occupied and its ties */
    int ties;
};

/* Phits in use behind a port on the VC of its class's ladder entry (-1: off the ladder). */
static inline int64_t fpar_occupancy(const struct route_ctx *ctx, const struct router_view *view,
                                     const int *entries, int port)
{
    int entry = entries[ctx->kind->port_class[port]];
    return entry < 0 ? -1 : view_occupancy(view, port, ctx->env->ladder->vc[entry]);
}

static void fpar_score_minimal(const struct route_ctx *ctx, const struct router_view *view,
                               const int *entries, uint64_t ports, int threshold,
                               struct fpar_minimal *out)
{
    int64_t best_occupancy = 0, best_capacity = 1;
    uint64_t on_ladder = 0, uncongested = 0, least = 0; /* in locals: no store in the loop */
    int ties = 0;
    for (uint64_t m = ports; m; m &= m - 1) {
        int port = __builtin_ctzll(m);
        int64_t occupancy = fpar_occupancy(ctx, view, entries, port);
        if (occupancy < 0)
            continue;
        int64_t capacity = view->capacity[port];
        uint64_t bit = 1ull << port;
        on_ladder |= bit;
        if (100 * occupancy <= (int64_t)threshold * capacity)
            uncongested |= bit;
        /* occupancy / capacity against the least so far, in integers */
        int64_t mine = occupancy * best_capacity, theirs = best_occupancy * capacity;
        if (ties && mine > theirs)
            continue;
        if (!ties || mine < theirs) {
            least = 0;
            ties = 0;
            best_occupancy = occupancy;
            best_capacity = capacity;
        }
        least |= bit;
        ties++;
    }
    *out = (struct fpar_minimal){on_ladder, uncongested, least, ties};
}

/* The least occupied of the ports in `set` (relative to capacity), ties at random as they come
 * (routing.min_choice = occupancy among the minimal ports at most T occupied). */
static int fpar_least_occupied_port(struct route_ctx *ctx, const struct router_view *view,
                                    const int *entries, uint64_t set)
{
    int best = -1, ties = 0;
    int64_t best_occupancy = 0, best_capacity = 1;
    for (uint64_t m = set; m; m &= m - 1) {
        int port = __builtin_ctzll(m);
        int64_t occupancy = fpar_occupancy(ctx, view, entries, port),
                capacity = view->capacity[port];
        int64_t mine = occupancy * best_capacity, theirs = best_occupancy * capacity;
        if (best >= 0 && mine > theirs)
            continue;
        if (best < 0 || mine < theirs) {
            best = port;
            best_occupancy = occupancy;
            best_capacity = capacity;
            ties = 1;
        } else if (rng_below(route_rng(ctx), (uint32_t)++ties) == 0) {
            best = port;
            best_occupancy = occupancy;
            best_capacity = capacity;
        }
    }
    return best;
}

/* The ports of `ports` on the ladder at most T occupied whose paths are the shortest among
 * such ports (0 if none). */
static uint64_t fpar_shortest_uncongested(const struct route_ctx *ctx,
                                          const struct router_view *view, const int *entries,
                                          uint64_t ports, int dst, int threshold)
{
    const struct topology *t = ctx->env->topo;
    const uint32_t *peer = &t->peer[topology_port_base(t, ctx->router)];
    uint64_t shortest = 0;
    int best_rank = FPAR_RANKS;
    for (uint64_t m = ports; m; m &= m - 1) {
        int port = __builtin_ctzll(m);
        int64_t occupancy = fpar_occupancy(ctx, view, entries, port);
        if (occupancy < 0 || 100 * occupancy > (int64_t)threshold * view->capacity[port])
            continue;
        int local, global;
        topology_min_hops(t, topology_peer_router(peer[port]), dst, &local, &global);
        int rank = 1 + local + global < FPAR_RANKS ? 1 + local + global : FPAR_RANKS - 1;
        if (rank < best_rank) {
            best_rank = rank;
            shortest = 0;
        }
        if (rank == best_rank)
            shortest |= 1ull << port;
    }
    return shortest;
}

/* Every legal port ranked (no minimal port on the ladder: rare): the port to take, or -1. */
static int fpar_route_ranked(struct route_ctx *ctx, const struct packet *pk, int dst,
                             uint64_t legal, int *entry)
{
    struct fpar_candidates cs;
    fpar_candidates(ctx, pk, dst, legal, &cs);
    if (cs.n == 0)
        return -1;
    const struct fpar_candidate *pick = &cs.c[fpar_choose(ctx, &cs)];
    *entry = pick->entry;
    return pick->port;
}

/* The decision scores the minimal legal ports in one pass, and the longer paths' only when no
 * minimal port is at most T occupied (the minimal ports have the shortest rank: their far ends
 * are one hop closer, every other port's is not). Bit sets of ports stand for the lists of
 * candidates in increasing port order that the file comment's rule draws from: the same draws,
 * the same choice as listing and ranking every legal port. */
static int fpar_route(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out)
{
    const struct topology *t = ctx->env->topo;
    const struct vc_ladder *ladder = ctx->env->ladder;
    const struct fpar_params *fp = ctx->env->params;
    int dst = topology_router_of_node(t, (int)pk->dst);
    if (ctx->router == dst)
        return routing_minimal_choice(ctx, pk, -1, out);
    /* Ordered: on the cascade (MIN's ladder) a group segment must stay row then column. */
    uint64_t minimal = topology_ordered_min_ports(t, ctx->router, dst);
    uint64_t legal = fpar_legal_ports(ctx, pk, dst, minimal);
    const struct router_view *view = route_adaptive_view(ctx);
    int entries[PORT_CLASSES]; /* the ladder entry of a hop, by the port's class */
    for (int cls = 0; cls < PORT_CLASSES; cls++)
        entries[cls] = ladder_next(ladder, pk->ladder_pos, (enum port_class)cls);
    /* The ports at most T occupied: tracked in a network, else scored here. */
    const struct fpar_state *st = ctx->env->state;
    struct fpar_minimal s = {0};
    uint64_t on_ladder = ~0ull, uncongested = ~0ull;
    if (st) {
        uncongested = fpar_tracked_uncongested(ctx, st, entries, &on_ladder);
        s.ports = legal & minimal & on_ladder;
        s.uncongested = s.ports & uncongested;
    } else {
        fpar_score_minimal(ctx, view, entries, legal & minimal, fp->threshold, &s);
    }
    int port, entry = -1;
    if (s.uncongested) { /* min_choice occupancy: the least occupied of them, else any */
        port = ctx->env->min_choice == MIN_CHOICE_OCCUPANCY
                   ? fpar_least_occupied_port(ctx, view, entries, s.uncongested)
                   : fpar_random(ctx, s.uncongested, __builtin_popcountll(s.uncongested));
    } else if (s.ports) {
        /* A longer path's port at most T occupied, the shortest of them at random (min_choice
         * is for minimal ones); else the least occupied minimal one, ties at random. */
        uint64_t longer = fpar_shortest_uncongested(
            ctx, view, entries, legal & ~minimal & on_ladder & uncongested, dst, fp->threshold);
        if (longer) {
            port = fpar_random(ctx, longer, __builtin_popcountll(longer));
        } else {
            if (st) /* the minimal ports' scores, for the least occupied */
                fpar_score_minimal(ctx, view, entries, s.ports, fp->threshold, &s);
            port = fpar_random(ctx, s.least, s.ties);
        }
    } else { /* no minimal port on the ladder: rank them all */
        port = fpar_route_ranked(ctx, pk, dst, legal, &entry);
        if (port < 0)
            return -1; /* off the ladder: the router reports it as a broken invariant */
    }
    if (entry < 0)
        entry = entries[ctx->kind->port_class[port]];
    if ((minimal >> port) & 1)
        ctx->dst_min_port = port; /* the router need not ask the topology again */
    out->out_port = port;
    out->vc = ladder->vc[entry];
    out->ladder_pos = (uint8_t)(entry + 1);
    out->flags = pk->flags;
    out->target = -1;
    out->misroute_group = pk->misroute_group;
    return 0;
}

/* ---- bounds ---- */

/* Global links leaving group 0, and those of them that reach group d. */
static void fpar_group_links(const struct topology *t, int d, int *leaving, int *to_d)
{
    *leaving = *to_d = 0;
    for (int r = t->group_first_router[0]; r < t->group_first_router[1]; r++) {
        const struct router_kind *k = topology_kind_of(t, r);
        for (int port = k->first[PORT_GLOBAL]; port < k->first[PORT_GLOBAL] + k->count[PORT_GLOBAL];
             port++) {
            (*leaving)++;
            *to_d += topology_group_of_router(t, topology_neighbour(t, r, port)) == d;
        }
    }
}

static int fpar_uniform_bound(const struct topology *t, struct bounds_throughput *out)
{
    int links, unused;
    fpar_group_links(t, 0, &links, &unused);
    double group_nodes = topology_group_nodes(t, 0);
    double leaving = group_nodes * (t->nodes - group_nodes) / (t->nodes - 1.0);
    *out = (struct bounds_throughput){.load = links / leaving,
                                      .formula = "S*h*(N-1) / (Ng*(N-Ng))",
                                      .reason = "any routing under UN: what leaves a group "
                                                "crosses one of its S*h global links (Ng = "
                                                "leaves*p)"};
    return 0;
}

static int fpar_adversarial_bound(const struct sim_config *cfg, const struct topology *t,
                                  struct bounds_throughput *out)
{
    struct setting_ref offset;
    if (settings_find("traffic", "offset", &offset) != 0)
        return -1;
    int links, minimal, d = *(const int *)settings_value(cfg, &offset) % t->groups;
    fpar_group_links(t, d, &links, &minimal);
    *out =
        (struct bounds_throughput){.load = (minimal + links) / (2.0 * topology_group_nodes(t, 0)),
                                   .formula = "(m + S*h) / (2*leaves*p)",
                                   .reason = "FPAR under ADV+i: m minimal links per group "
                                             "pair, every other path crosses two of the S*h "
                                             "global links"};
    return 0;
}

static int fpar_bound(const struct sim_config *cfg, const struct topology *t,
                      struct bounds_throughput *out)
{
    if (!fpar_two_level(cfg))
        return routing_min.bound(cfg, t, out); /* minimal routing there */
    const struct pattern_ops *pattern = pattern_of(cfg);
    if (pattern->uniform)
        return fpar_uniform_bound(t, out);
    if (pattern == &pattern_adversarial)
        return fpar_adversarial_bound(cfg, t, out);
    return -1;
}

const struct routing_ops routing_fpar = {
    .name = "fpar",
    .summary = "FPAR (Dragonfly+): at every router a random uncongested port of the shortest "
               "path, else of a longer one, else the least occupied shortest",
    .settings = &fpar_settings,
    .ladder = fpar_ladder,
    .init = fpar_init,
    .destroy = fpar_destroy,
    .on_credits = fpar_on_credits,
    .route = fpar_route,
    .bound = fpar_bound,
    .on_leaf_routers = true,
};
