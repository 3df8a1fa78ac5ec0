/* dragonfly_plus: the Dragonfly+ (Megafly). Each of `groups` groups has `leaves` leaf routers
 * (p nodes each) and `spines` spine routers, every leaf linked once to every spine of its group
 * (a complete bipartite group: no leaf-leaf or spine-spine links); each spine has h global
 * links, spread so that every pair of groups is joined by m = spines*h / (groups-1) links.
 *
 * Numbering: the routers of group g are g*(leaves+spines) + i, leaves first (i < leaves), then
 * spine o = i - leaves. Leaf ports: [0, p) nodes, p + o to spine o. Spine ports: j to leaf j,
 * leaves + k its global link k (k < h). A spine's global link index in its group is
 * x = o*h + k.
 *
 * Global arrangements:
 * - palmtree (CAMINOS' palmtree extended to any groups - 1 dividing spines*h, as its Megafly
 *   uses it): link x of group g reaches group (g - 1 - (x mod (groups-1))) mod groups, at
 *   that group's link x' = spines*h - 1 - x, i.e. spine o's port k meets spine spines-1-o's
 *   port h-1-k. With groups = spines*h + 1 it is the dragonfly's palmtree on the spines.
 * - linear (the Dragonfly+ study's): every spine has m' = h/(groups-1) links to each other
 *   group. Global port k of spine o in group g leads to the (k / m')-th other group j in
 *   increasing order (j = k/m' if that is below g, else k/m' + 1), parallel link l = k mod m':
 *   to spine (o + l) mod spines if g < j, (o - l) mod spines if g > j, at its port
 *   (rank of g among j's other groups) * m' + l. So spine k of group i meets spines
 *   k .. k+m'-1 (mod spines) of every group j > i.
 *
 * Minimal paths cross at most one global link: leaf-spine-leaf inside a group (through any
 * spine), leaf - spine with a link to the destination group - global - spine - leaf between
 * groups (diameter 3 between leaves; up to 5 between two spines when the palmtree leaves a
 * spine without links to some groups). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing.h"
#include "sim_config.h"
#include "topology.h"
#include "traffic.h"

/* The kind's own settings (p, h and the arrangement are shared by every kind). */
struct dragonfly_plus_params {
    int groups, leaves, spines;
};

static const struct setting dragonfly_plus_rows[] = {
    SETTING_INT_ROW(struct dragonfly_plus_params, "groups", groups, 7, 2, SETTING_UNBOUNDED_INT,
                    "groups; groups - 1 must divide spines * h (links per group pair)"),
    SETTING_INT_ROW(struct dragonfly_plus_params, "leaves", leaves, 6, 1, SETTING_UNBOUNDED_INT,
                    "leaf routers per group (p nodes each, one link to every spine)"),
    SETTING_INT_ROW(struct dragonfly_plus_params, "spines", spines, 6, 1, SETTING_UNBOUNDED_INT,
                    "spine routers per group (h global links each)"),
};

static int dragonfly_plus_check(const struct sim_config *cfg, const void *params,
                                struct setting_issue *issue);

static const struct setting_table dragonfly_plus_settings = {"topology",
                                                             "dragonfly_plus",
                                                             dragonfly_plus_rows,
                                                             3,
                                                             sizeof(struct dragonfly_plus_params),
                                                             dragonfly_plus_check};

/* ---- checks ---- */

static int dragonfly_plus_issue(struct setting_issue *issue, const char *key, const char *alt,
                                const char *fmt, ...)
{
    issue->key = key;
    issue->alt = alt;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(issue->text, sizeof issue->text, fmt, ap);
    va_end(ap);
    return -1;
}

static int dragonfly_plus_check_radix(const struct sim_config *cfg,
                                      const struct dragonfly_plus_params *dp,
                                      struct setting_issue *issue)
{
    /* In 64 bits: each term may be as large as INT_MAX. */
    long long leaf = (long long)cfg->topology.p + dp->spines;
    long long spine = (long long)dp->leaves + cfg->topology.h;
    if (leaf > TOPOLOGY_MAX_RADIX)
        return dragonfly_plus_issue(issue, "topology.spines", "topology.p",
                                    "leaf radix p + spines = %lld is too large (expected p + "
                                    "spines <= %d)",
                                    leaf, TOPOLOGY_MAX_RADIX);
    if (spine > TOPOLOGY_MAX_RADIX)
        return dragonfly_plus_issue(issue, "topology.leaves", "topology.h",
                                    "spine radix leaves + h = %lld is too large (expected leaves "
                                    "+ h <= %d)",
                                    spine, TOPOLOGY_MAX_RADIX);
    return 0;
}

/* The spines*h global links of a group must split evenly over the other groups. */
static int dragonfly_plus_check_spread(const struct sim_config *cfg,
                                       const struct dragonfly_plus_params *dp,
                                       struct setting_issue *issue)
{
    long long links = (long long)dp->spines * cfg->topology.h, others = dp->groups - 1LL;
    if (others > links)
        return dragonfly_plus_issue(issue, "topology.groups", "topology.spines",
                                    "%d groups cannot all be joined: a group has only spines * "
                                    "h = %lld global links for %lld other groups (expected "
                                    "groups <= spines * h + 1 = %lld)",
                                    dp->groups, links, others, links + 1);
    if (links % others == 0)
        return 0;
    return dragonfly_plus_issue(issue, "topology.groups", "topology.spines",
                                "the spines * h = %d * %d = %lld global links of a group cannot "
                                "be spread evenly over the %lld other groups (expected groups - "
                                "1 to divide spines * h)",
                                dp->spines, cfg->topology.h, links, others);
}

static int dragonfly_plus_check_arrangement(const struct sim_config *cfg,
                                            const struct dragonfly_plus_params *dp,
                                            struct setting_issue *issue)
{
    int others = dp->groups - 1, h = cfg->topology.h;
    if (cfg->topology.arrangement == ARRANGEMENT_CONSECUTIVE)
        return dragonfly_plus_issue(issue, "topology.arrangement", "topology.kind",
                                    "\"consecutive\" is an arrangement of dragonfly, not of "
                                    "dragonfly_plus (expected palmtree or linear)");
    if (cfg->topology.arrangement == ARRANGEMENT_LINEAR && h % others != 0)
        return dragonfly_plus_issue(issue, "topology.arrangement", "topology.h",
                                    "\"linear\" gives every spine h / (groups - 1) links to "
                                    "each other group, but groups - 1 = %d does not divide h = "
                                    "%d (expected h a multiple of groups - 1, or palmtree)",
                                    others, h);
    return 0;
}

/* Every spine has a link to every other group: always with linear; with the palmtree, a
 * spine's h consecutive link indices cover all groups - 1 residues iff h >= groups - 1. */
static bool dragonfly_plus_spines_reach_all(const struct sim_config *cfg,
                                            const struct dragonfly_plus_params *dp)
{
    return cfg->topology.arrangement == ARRANGEMENT_LINEAR || cfg->topology.h >= dp->groups - 1;
}

/* "min, valiant or fpar": the routings defined where routers lack global links. */
static void dragonfly_plus_routings(char *buf, size_t len)
{
    int n = 0, listed = 0;
    for (int i = 0; routing_registry[i]; i++)
        n += routing_registry[i]->on_leaf_routers;
    buf[0] = '\0';
    for (int i = 0; routing_registry[i]; i++) {
        if (!routing_registry[i]->on_leaf_routers)
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", listed == 0 ? "" : listed == n - 1 ? " or " : ", ",
                 routing_registry[i]->name);
        listed++;
    }
}

/* The routings and patterns defined where leaves have no global link (their capabilities:
 * routing_ops.on_leaf_routers, pattern_ops.names_router_links). */
static int dragonfly_plus_check_traffic(const struct sim_config *cfg,
                                        const struct dragonfly_plus_params *dp,
                                        struct setting_issue *issue)
{
    const struct routing_ops *routing = routing_of(cfg);
    char defined[128];
    dragonfly_plus_routings(defined, sizeof defined);
    if (!routing->on_leaf_routers)
        return dragonfly_plus_issue(issue, "routing.mechanism", "topology.kind",
                                    "routing '%s' is not defined on dragonfly_plus (expected "
                                    "%s)",
                                    routing->name, defined);
    if (routing->needs_full_reach && !dragonfly_plus_spines_reach_all(cfg, dp))
        return dragonfly_plus_issue(issue, "routing.mechanism", "topology.h",
                                    "%s needs every spine of a dragonfly_plus linked to "
                                    "every other group, which the palmtree gives only when h >= "
                                    "groups - 1 (got h = %d, groups - 1 = %d; expected min or "
                                    "fpar, a larger h, or linear)",
                                    routing->name, cfg->topology.h, dp->groups - 1);
    const struct pattern_ops *pattern = pattern_of(cfg);
    if (pattern->names_router_links)
        return dragonfly_plus_issue(issue, "traffic.pattern", "topology.kind",
                                    "%s (%s) is not defined on dragonfly_plus (expected "
                                    "adversarial for group g to group g + offset, or uniform)",
                                    pattern->name, pattern->names_router_links);
    return 0;
}

/* What the network itself needs (the build checks it again). */
static int dragonfly_plus_check_shape(const struct sim_config *cfg,
                                      const struct dragonfly_plus_params *dp,
                                      struct setting_issue *issue)
{
    return dragonfly_plus_check_radix(cfg, dp, issue) ||
                   dragonfly_plus_check_spread(cfg, dp, issue) ||
                   dragonfly_plus_check_arrangement(cfg, dp, issue)
               ? -1
               : 0;
}

static int dragonfly_plus_check(const struct sim_config *cfg, const void *params,
                                struct setting_issue *issue)
{
    const struct dragonfly_plus_params *dp = params;
    if (topology_of(cfg) != &topology_dragonfly_plus)
        return 0; /* another kind: these settings are not read */
    return dragonfly_plus_check_shape(cfg, dp, issue) ||
                   dragonfly_plus_check_traffic(cfg, dp, issue)
               ? -1
               : 0;
}

/* ---- wiring ---- */

/* The kind's own tables, behind topology.private. */
struct dragonfly_plus {
    int p, leaves, spines, h, groups;
    enum topology_arrangement arrangement;
    /* Seen from any group g, the other groups are numbered by a residue in [0, groups - 1)
     * (dragonfly_plus_residue) under which every group's wiring looks the same:
     * spine_ports[o * (groups - 1) + r] holds the global ports of spine o to the group of
     * residue r (bit k: port leaves + k), group_spines[r] the spines that have one. */
    uint64_t *spine_ports;
    uint64_t *group_spines;
    /* The oracle's answers for every pair of routers when they fit in
     * DRAGONFLY_PLUS_TABLE_BYTES (else computed per query): min_ports[r * routers + target];
     * min_hops[target * routers + r] (FPAR asks the hops of every candidate's far router
     * towards one target at every decision) packs local | global << 4 (it is the topology's
     * hops_table). */
    uint64_t *min_ports;
    uint8_t *min_hops;
};

#define DRAGONFLY_PLUS_TABLE_BYTES (64u << 20)

static int dragonfly_plus_residue(const struct dragonfly_plus *df, int g, int d)
{
    if (df->arrangement == ARRANGEMENT_LINEAR)
        return d < g ? d : d - 1; /* d's rank among g's other groups */
    return ((g - 1 - d) % df->groups + df->groups) % df->groups; /* link x: x mod (groups-1) */
}

/* The far end of global port `leaves + k` of spine o of group g (see the file comment). */
static void dragonfly_plus_global_far(const struct dragonfly_plus *df, int g, int o, int k,
                                      int *far_group, int *far_spine, int *far_k)
{
    int S = df->spines, h = df->h, others = df->groups - 1;
    if (df->arrangement == ARRANGEMENT_LINEAR) {
        int per = h / others, rank = k / per, l = k % per;
        int j = rank < g ? rank : rank + 1;
        *far_group = j;
        *far_spine = g < j ? (o + l) % S : ((o - l) % S + S) % S;
        *far_k = (g < j ? g : g - 1) * per + l;
        return;
    }
    int x = o * h + k, back = S * h - 1 - x;
    *far_group = ((g - 1 - x % others) % df->groups + df->groups) % df->groups;
    *far_spine = back / h;
    *far_k = back % h;
}

static void dragonfly_plus_connect(struct topology *t, int r, int port, int far, int far_port)
{
    topology_connect(t, r, port, far, far_port);
}

static void dragonfly_plus_wire(struct topology *t, const struct dragonfly_plus *df)
{
    int L = df->leaves;
    for (int g = 0; g < t->groups; g++) {
        int first = t->group_first_router[g];
        for (int i = 0; i < L; i++)
            for (int o = 0; o < df->spines; o++) {
                dragonfly_plus_connect(t, first + i, df->p + o, first + L + o, i);
                dragonfly_plus_connect(t, first + L + o, i, first + i, df->p + o);
            }
        for (int o = 0; o < df->spines; o++)
            for (int k = 0; k < df->h; k++) {
                int fg, fo, fk;
                dragonfly_plus_global_far(df, g, o, k, &fg, &fo, &fk);
                dragonfly_plus_connect(t, first + L + o, L + k, t->group_first_router[fg] + L + fo,
                                       L + fk);
            }
    }
}

/* The residue tables, read off group 0's wiring (the same from every group). */
static int dragonfly_plus_route_tables(struct topology *t, struct dragonfly_plus *df)
{
    int others = df->groups - 1, L = df->leaves;
    df->spine_ports = calloc((size_t)df->spines * (size_t)others, sizeof *df->spine_ports);
    df->group_spines = calloc((size_t)others, sizeof *df->group_spines);
    if (!df->spine_ports || !df->group_spines)
        return -1;
    for (int o = 0; o < df->spines; o++)
        for (int k = 0; k < df->h; k++) {
            int far = topology_neighbour(t, L + o, L + k);
            int r = dragonfly_plus_residue(df, 0, topology_group_of_router(t, far));
            df->spine_ports[o * others + r] |= 1ull << k;
            df->group_spines[r] |= 1ull << o;
        }
    return 0;
}

/* ---- the minimal-route oracle ---- */

/* Every first hop of the minimal paths from a router to another, and their hop counts. */
struct dragonfly_plus_route {
    uint64_t ports;
    int local, global;
};

static uint64_t dragonfly_plus_low_bits(int n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* Inside one group: leaf and spine are neighbours; two leaves meet through any spine, two
 * spines through any leaf. */
static void dragonfly_plus_route_inside(const struct dragonfly_plus *df, int i, int j,
                                        struct dragonfly_plus_route *out)
{
    int L = df->leaves;
    bool leaf = i < L, target_leaf = j < L;
    out->global = 0;
    if (leaf != target_leaf) {
        out->ports = 1ull << (leaf ? df->p + j - L : j);
        out->local = 1;
        return;
    }
    out->ports = leaf ? dragonfly_plus_low_bits(df->spines) << df->p : dragonfly_plus_low_bits(L);
    out->local = 2;
}

/* The spines of group g with a global link to spine `spine` (of another group). */
static uint64_t dragonfly_plus_spines_linked_to(const struct topology *t, int spine, int g)
{
    const struct dragonfly_plus *df = t->private;
    uint64_t spines = 0;
    for (int k = 0; k < df->h; k++) {
        int far = topology_neighbour(t, spine, df->leaves + k);
        if (topology_group_of_router(t, far) == g)
            spines |= 1ull << (far - t->group_first_router[g] - df->leaves);
    }
    return spines;
}

/* From a leaf of group g to router `target` (index j) of group tg != g. */
static void dragonfly_plus_route_from_leaf(const struct topology *t, int g, int target, int j,
                                           int tg, struct dragonfly_plus_route *out)
{
    const struct dragonfly_plus *df = t->private;
    uint64_t towards = df->group_spines[dragonfly_plus_residue(df, g, tg)];
    out->global = 1;
    out->ports = towards << df->p;
    if (j < df->leaves) {
        out->local = 2; /* l g l */
        return;
    }
    uint64_t direct = dragonfly_plus_spines_linked_to(t, target, g);
    if (direct) {
        out->ports = direct << df->p;
        out->local = 1; /* l g */
        return;
    }
    out->local = 3; /* l g l l: enter the group anywhere, then leaf, then the spine */
}

/* From spine o (router r) of group g to router `target` (index j) of group tg != g. */
static void dragonfly_plus_route_from_spine(const struct topology *t, int r, int o, int g,
                                            int target, int j, int tg,
                                            struct dragonfly_plus_route *out)
{
    const struct dragonfly_plus *df = t->private;
    int L = df->leaves, residue = dragonfly_plus_residue(df, g, tg);
    uint64_t global = df->spine_ports[o * (df->groups - 1) + residue] << L;
    uint64_t down = dragonfly_plus_low_bits(L);
    out->global = 1;
    if (j < L) { /* g l, or l l g l through a spine that has a link */
        out->ports = global ? global : down;
        out->local = global ? 1 : 3;
        return;
    }
    uint64_t direct = 0;
    for (uint64_t m = global; m; m &= m - 1)
        if (topology_neighbour(t, r, __builtin_ctzll(m)) == target)
            direct |= m & -m;
    if (direct) {
        out->ports = direct;
        out->local = 0;
        return;
    }
    /* Three hops: g l l (cross anywhere, then leaf, spine) or l l g (leaf, a spine linked
     * to the target); else five: l l g l l. */
    uint64_t via_leaf = dragonfly_plus_spines_linked_to(t, target, g) ? down : 0;
    out->ports = global | via_leaf;
    out->local = 2;
    if (!out->ports) {
        out->ports = down;
        out->local = 4;
    }
}

static void dragonfly_plus_route(const struct topology *t, int r, int target,
                                 struct dragonfly_plus_route *out)
{
    const struct dragonfly_plus *df = t->private;
    int g = t->router_group[r], tg = t->router_group[target];
    int i = r - t->group_first_router[g], j = target - t->group_first_router[tg];
    if (g == tg)
        dragonfly_plus_route_inside(df, i, j, out);
    else if (i < df->leaves)
        dragonfly_plus_route_from_leaf(t, g, target, j, tg, out);
    else
        dragonfly_plus_route_from_spine(t, r, i - df->leaves, g, target, j, tg, out);
}

static uint64_t dragonfly_plus_min_ports(const struct topology *t, int r, int target)
{
    const struct dragonfly_plus *df = t->private;
    if (r == target)
        return 0;
    /* Towards a leaf (every node's router: all but the intermediate targets) the answer
     * comes from the per-group tables in a few operations, faster than the pair table,
     * which outgrows the L2 cache (1.5 MB on 432 routers) and cost a tenth of FPAR's time
     * in cache misses. */
    bool target_leaf = target - t->group_first_router[t->router_group[target]] < df->leaves;
    if (df->min_ports && !target_leaf)
        return df->min_ports[(size_t)r * (size_t)t->routers + (size_t)target];
    struct dragonfly_plus_route route;
    dragonfly_plus_route(t, r, target, &route);
    return route.ports;
}

/* The deterministic choice among the minimal first hops: indexed by a hash of the pair, so
 * that one router's paths spread over its minimal ports by target (a sum r + target would
 * alias with the group sizes: every leaf i would take spine i towards every group's first
 * router, as Valiant's entry routers do). */
static int dragonfly_plus_min_port(const struct topology *t, int r, int target)
{
    uint64_t ports = dragonfly_plus_min_ports(t, r, target);
    uint32_t x = (uint32_t)r * 0x9e3779b1u ^ (uint32_t)target * 0x85ebca6bu;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    int k = (int)(((uint64_t)x * (uint64_t)__builtin_popcountll(ports)) >> 32);
    return topology_port_at(ports, k);
}

static void dragonfly_plus_min_hops(const struct topology *t, int r, int target, int *local,
                                    int *global)
{
    struct dragonfly_plus_route route; /* (topology_min_hops reads hops_table first) */
    dragonfly_plus_route(t, r, target, &route);
    *local = route.local;
    *global = route.global;
}

/* ---- building ---- */

/* The oracle's tables (see struct dragonfly_plus), from the wiring; 0, or -1 (memory). A
 * network too large for them is left to compute each query. */
static int dragonfly_plus_oracle_tables(struct topology *t, struct dragonfly_plus *df)
{
    size_t routers = (size_t)t->routers, pairs = routers * routers;
    if (pairs * (sizeof *df->min_ports + sizeof *df->min_hops) > DRAGONFLY_PLUS_TABLE_BYTES)
        return 0;
    uint64_t *ports = malloc(pairs * sizeof *ports);
    uint8_t *hops = malloc(pairs * sizeof *hops);
    if (!ports || !hops) {
        free(ports);
        free(hops);
        return -1;
    }
    for (int r = 0; r < t->routers; r++)
        for (int target = 0; target < t->routers; target++) {
            struct dragonfly_plus_route route = {0, 0, 0};
            if (r != target)
                dragonfly_plus_route(t, r, target, &route);
            ports[(size_t)r * routers + (size_t)target] = route.ports;
            hops[(size_t)target * routers + (size_t)r] = (uint8_t)(route.local | route.global << 4);
        }
    df->min_ports = ports;
    df->min_hops = hops;
    t->hops_table = hops;
    return 0;
}

static void dragonfly_plus_dimensions(const struct sim_config *cfg, struct topology_dimensions *out)
{
    const struct dragonfly_plus_params *dp = settings_params(cfg, &dragonfly_plus_settings);
    out->groups = dp->groups;
    out->routers = (long long)dp->groups * ((long long)dp->leaves + dp->spines);
    out->nodes = (long long)dp->groups * dp->leaves * cfg->topology.p;
}

static void dragonfly_plus_destroy(struct topology *t)
{
    struct dragonfly_plus *df = t->private;
    if (!df)
        return;
    free(df->spine_ports);
    free(df->group_spines);
    free(df->min_ports);
    free(df->min_hops);
    free(df);
    t->private = NULL;
}

/* The generic arrays: two router kinds, leaves first in every group. */
static int dragonfly_plus_layout(struct topology *t, const struct dragonfly_plus *df)
{
    int per_group = df->leaves + df->spines;
    t->n_kinds = 2;
    topology_kind_init(&t->kinds[0], df->p, df->spines, 0); /* leaf */
    topology_kind_init(&t->kinds[1], 0, df->leaves, df->h); /* spine */
    if (topology_alloc_routers(t))
        return -1;
    for (int g = 0; g <= t->groups; g++)
        t->group_first_router[g] = g * per_group;
    for (int r = 0; r < t->routers; r++)
        t->router_kind[r] = r % per_group >= df->leaves;
    return topology_layout(t);
}

static int dragonfly_plus_build(struct topology *t, const struct sim_config *cfg, char *err,
                                int err_len)
{
    const struct dragonfly_plus_params *dp = settings_params(cfg, &dragonfly_plus_settings);
    struct dragonfly_plus *df = calloc(1, sizeof *df);
    if (!df) {
        snprintf(err, (size_t)err_len, "out of memory for the topology");
        return -1;
    }
    t->private = df;
    *df = (struct dragonfly_plus){
        .p = cfg->topology.p,
        .leaves = dp->leaves,
        .spines = dp->spines,
        .h = cfg->topology.h,
        .groups = dp->groups,
        .arrangement = (enum topology_arrangement)cfg->topology.arrangement,
    };
    snprintf(t->shape, sizeof t->shape, "p=%d leaves=%d spines=%d h=%d", df->p, df->leaves,
             df->spines, df->h);
    struct setting_issue issue;
    if (dragonfly_plus_check_shape(cfg, dp, &issue)) {
        snprintf(err, (size_t)err_len, "%s: %s", issue.key, issue.text);
        return -1;
    }
    t->groups = df->groups;
    t->routers = df->groups * (df->leaves + df->spines);
    t->nodes = df->groups * df->leaves * df->p;
    if (dragonfly_plus_layout(t, df) == 0) {
        dragonfly_plus_wire(t, df);
        if (dragonfly_plus_route_tables(t, df) == 0 && dragonfly_plus_oracle_tables(t, df) == 0)
            return 0;
    }
    snprintf(err, (size_t)err_len, "out of memory for the topology");
    return -1;
}

const struct topology_ops topology_dragonfly_plus = {
    .name = "dragonfly_plus",
    .summary = "Dragonfly+ (Megafly): groups of leaves (p nodes) and spines (h global links), "
               "complete bipartite inside a group, groups all-to-all",
    .settings = &dragonfly_plus_settings,
    .dimensions = dragonfly_plus_dimensions,
    .build = dragonfly_plus_build,
    .destroy = dragonfly_plus_destroy,
    .min_port = dragonfly_plus_min_port,
    .min_ports = dragonfly_plus_min_ports,
    .min_hops = dragonfly_plus_min_hops,
    /* Dragonfly+ leaves pick their up-port by load (as the study's peer does): hashing
     * saturates MIN at ~80 % of the bound under uniform traffic. */
    .adaptive_min_choice = true,
};
