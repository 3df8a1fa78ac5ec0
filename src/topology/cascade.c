/* cascade: the Cray Cascade (Aries) network. A group is rows x cols routers; a router links to
 * every other router of its row (row_links parallel links each) and of its column (col_links
 * each), has p nodes and h global links; groups are all-to-all, a group's global links dealt
 * to the other groups in rounds. Minimal routes come from tables indexed by (router index in
 * its group, group offset, target index): the wiring looks the same from every group. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_config.h"
#include "topology.h"

/* Route tables hold routers_per_group^2 * groups entries of 10 bytes and take
 * routers_per_group^2 * (global links of a group) steps to build: bounded so that a valid
 * config always builds, in well under a second (16 Mi entries, 160 MiB, and 128 Mi steps;
 * Aries' largest system, 241 groups of 96 routers with 10 global links, needs 2.2 Mi and
 * 8.8 Mi). */
#define CASCADE_MAX_TABLE_ENTRIES (1LL << 24)
#define CASCADE_MAX_TABLE_STEPS (1LL << 27)

struct cascade_params {
    int rows, cols, row_links, col_links, groups;
};

static int cascade_check(const struct sim_config *cfg, const void *params,
                         struct setting_issue *issue);

static const struct setting cascade_rows_table[] = {
    SETTING_INT_ROW(struct cascade_params, "rows", rows, 6, 1, SETTING_UNBOUNDED_INT,
                    "rows of a group (Aries: 6 chassis); a router links to every other "
                    "router of its row and of its column"),
    SETTING_INT_ROW(struct cascade_params, "cols", cols, 16, 1, SETTING_UNBOUNDED_INT,
                    "routers per row (Aries: 16 per chassis)"),
    SETTING_INT_ROW(struct cascade_params, "row_links", row_links, 1, 1, SETTING_UNBOUNDED_INT,
                    "parallel links between two routers of a row"),
    SETTING_INT_ROW(struct cascade_params, "col_links", col_links, 3, 1, SETTING_UNBOUNDED_INT,
                    "parallel links between two routers of a column"),
    SETTING_INT_ROW(struct cascade_params, "cascade_groups", groups, 6, 2, SETTING_UNBOUNDED_INT,
                    "groups, all-to-all (rows*cols*h >= cascade_groups - 1)"),
};

static const struct setting_table cascade_settings = {
    "topology",
    "cascade",
    cascade_rows_table,
    (int)(sizeof cascade_rows_table / sizeof cascade_rows_table[0]),
    sizeof(struct cascade_params),
    cascade_check};

/* ---- the config's checks ---- */

static int cascade_fail(struct setting_issue *issue, const char *key, const char *alt)
{
    issue->key = key;
    issue->alt = alt;
    return -1;
}

static int cascade_check(const struct sim_config *cfg, const void *params,
                         struct setting_issue *issue)
{
    if (topology_of(cfg) != &topology_cascade)
        return 0;
    const struct cascade_params *cp = params;
    /* In 64 bits: each term may be as large as INT_MAX. */
    long long locals =
        (long long)(cp->cols - 1) * cp->row_links + (long long)(cp->rows - 1) * cp->col_links;
    long long radix = cfg->topology.p + locals + cfg->topology.h;
    long long per_group = (long long)cp->rows * cp->cols;
    long long links = per_group * cfg->topology.h, groups = cp->groups;
    if (radix > TOPOLOGY_MAX_RADIX) {
        snprintf(issue->text, sizeof issue->text,
                 "router radix p + (cols-1)*row_links + (rows-1)*col_links + h = %lld is too "
                 "large (expected at most %d)",
                 radix, TOPOLOGY_MAX_RADIX);
        return cascade_fail(issue, "topology.cols", "topology.h");
    }
    if (links < groups - 1) {
        snprintf(issue->text, sizeof issue->text,
                 "%lld groups cannot be all-to-all with rows*cols*h = %lld global links per "
                 "group (expected cascade_groups <= %lld)",
                 groups, links, links + 1);
        return cascade_fail(issue, "topology.cascade_groups", "topology.h");
    }
    if ((groups * links) % 2) {
        snprintf(issue->text, sizeof issue->text,
                 "%lld groups of %lld global link ends each leave one end unpaired (expected "
                 "cascade_groups * rows * cols * h even)",
                 groups, links);
        return cascade_fail(issue, "topology.cascade_groups", "topology.h");
    }
    if (per_group * per_group * groups > CASCADE_MAX_TABLE_ENTRIES) {
        snprintf(issue->text, sizeof issue->text,
                 "route tables of (rows*cols)^2 * cascade_groups = %lld entries are too large "
                 "(expected at most %lld)",
                 per_group * per_group * groups, CASCADE_MAX_TABLE_ENTRIES);
        return cascade_fail(issue, "topology.cascade_groups", "topology.rows");
    }
    if (per_group * per_group * links > CASCADE_MAX_TABLE_STEPS) {
        snprintf(issue->text, sizeof issue->text,
                 "route tables of (rows*cols)^2 * rows*cols*h = %lld steps take too long to build "
                 "(expected at most %lld)",
                 per_group * per_group * links, CASCADE_MAX_TABLE_STEPS);
        return cascade_fail(issue, "topology.h", "topology.rows");
    }
    if (cfg->topology.arrangement != ARRANGEMENT_PALMTREE) {
        snprintf(issue->text, sizeof issue->text,
                 "'%s' is a dragonfly arrangement; cascade wires its global links in rounds "
                 "over the other groups (expected \"palmtree\", the default, which cascade "
                 "does not read)",
                 topology_arrangement_names[cfg->topology.arrangement]);
        return cascade_fail(issue, "topology.arrangement", "topology.kind");
    }
    return 0;
}

/* ---- geometry ---- */

/* The kind's own tables, behind topology.private. Routers of a group are numbered row by
 * row: index i = row * cols + col. */
struct cascade {
    int p, rows, cols, row_links, col_links, h, per_group, groups;
    int first_row_port, first_col_port, first_global_port;
    uint64_t row_ports, col_ports; /* every row (column) port of a router */
    /* The global links from any group g to group g + o, for o in 1..groups-1: entries
     * [offset_first[o], offset_first[o + 1]) of the link arrays (router index of the gateway
     * in g, its global port, router index of the far end in g + o). */
    int *offset_first;
    int *link_gateway, *link_entry;
    int *gateway_row, *gateway_col; /* of link_gateway */
    uint8_t *link_port;
    /* Per (i, o, j), at (i * groups + o) * per_group + j: from router index i towards router
     * index j of the group o groups further (o = 0: the same group). */
    uint8_t *distance; /* hops of a minimal path */
    uint8_t *min_port;
    uint64_t *min_ports;
};

static int cascade_row(const struct cascade *c, int i)
{
    return i / c->cols;
}

static int cascade_col(const struct cascade *c, int i)
{
    return i % c->cols;
}

/* Position of `other` among the indices 0..n-1 without `self`. */
static int cascade_skip(int other, int self)
{
    return other < self ? other : other - 1;
}

/* Port of router index i to the router of its row in column `col`, parallel link k. */
static int cascade_row_port(const struct cascade *c, int i, int col, int k)
{
    return c->first_row_port + cascade_skip(col, cascade_col(c, i)) * c->row_links + k;
}

/* Port of router index i to the router of its column in row `row`, parallel link k. */
static int cascade_col_port(const struct cascade *c, int i, int row, int k)
{
    return c->first_col_port + cascade_skip(row, cascade_row(c, i)) * c->col_links + k;
}

/* Local hops between two routers of a group: one per coordinate that differs. */
static int cascade_local_distance(const struct cascade *c, int i, int j)
{
    return (cascade_row(c, i) != cascade_row(c, j)) + (cascade_col(c, i) != cascade_col(c, j));
}

static uint64_t cascade_port_range(int first, int count)
{
    return (count >= 64 ? ~0ull : (1ull << count) - 1) << first;
}

/* First hops of the minimal local paths from index i to index j != i, by dimension: the row
 * ports (all parallel links) towards column col(j) and the column ports towards row(j). */
static void cascade_local_first_hops(const struct cascade *c, int i, int j, uint64_t *row,
                                     uint64_t *col)
{
    *row = *col = 0;
    if (cascade_col(c, i) != cascade_col(c, j))
        *row = cascade_port_range(cascade_row_port(c, i, cascade_col(c, j), 0), c->row_links);
    if (cascade_row(c, i) != cascade_row(c, j))
        *col = cascade_port_range(cascade_col_port(c, i, cascade_row(c, j), 0), c->col_links);
}

/* ---- global wiring ---- */

/* The order in which a group deals its global links to the other groups, by offset: link l
 * of a group (l = router index * h + port) goes to offset order[l mod (groups-1)]. Offsets
 * come in pairs o, groups-o (a link and its far end), so every round of groups-1 links, and
 * the last incomplete one, pairs up: the first `rem` offsets are closed under o -> groups-o.
 * With an odd rem the self-paired offset groups/2 (groups even: the check guarantees it)
 * comes first; otherwise last. */
static void cascade_offset_order(int groups, int rem, int *order, int *position)
{
    int n = 0, middle = groups % 2 == 0 ? groups / 2 : 0;
    if (middle && rem % 2)
        order[n++] = middle;
    for (int o = 1; o < groups - o; o++) {
        order[n++] = o;
        order[n++] = groups - o;
    }
    if (middle && !(rem % 2))
        order[n++] = middle;
    for (int k = 0; k < n; k++)
        position[order[k]] = k;
}

struct cascade_link_end {
    int offset, far_link;
};

/* Where link l of any group leads: the group offset and the link index at the far end. */
static struct cascade_link_end cascade_link(int groups, const int *order, const int *position,
                                            int l)
{
    int round = l / (groups - 1), o = order[l % (groups - 1)];
    return (struct cascade_link_end){o, round * (groups - 1) + position[groups - o]};
}

static void cascade_wire_local(struct topology *t, const struct cascade *c, int r)
{
    int g = t->router_group[r], i = r - t->group_first_router[g];
    int row = cascade_row(c, i), col = cascade_col(c, i);
    for (int other = 0; other < c->cols; other++)
        for (int k = 0; other != col && k < c->row_links; k++) {
            int j = row * c->cols + other, port = cascade_row_port(c, i, other, k);
            topology_connect(t, r, port, t->group_first_router[g] + j,
                             cascade_row_port(c, j, col, k));
        }
    for (int other = 0; other < c->rows; other++)
        for (int k = 0; other != row && k < c->col_links; k++) {
            int j = other * c->cols + col, port = cascade_col_port(c, i, other, k);
            topology_connect(t, r, port, t->group_first_router[g] + j,
                             cascade_col_port(c, j, row, k));
        }
}

/* Wires every link and records, per offset, the links a group has towards that offset. */
static int cascade_wire(struct topology *t, struct cascade *c)
{
    int G = c->groups, links = c->per_group * c->h;
    int *order = malloc((size_t)G * sizeof *order), *position = calloc((size_t)G, sizeof *position);
    c->offset_first = calloc((size_t)G + 1, sizeof *c->offset_first);
    c->link_gateway = malloc((size_t)links * sizeof *c->link_gateway);
    c->link_entry = malloc((size_t)links * sizeof *c->link_entry);
    c->link_port = malloc((size_t)links);
    if (!order || !position || !c->offset_first || !c->link_gateway || !c->link_entry ||
        !c->link_port) {
        free(order);
        free(position);
        return -1;
    }
    cascade_offset_order(G, links % (G - 1), order, position);
    for (int r = 0; r < t->routers; r++)
        cascade_wire_local(t, c, r);
    for (int l = 0; l < links; l++)
        c->offset_first[cascade_link(G, order, position, l).offset + 1]++;
    for (int o = 1; o <= G; o++)
        c->offset_first[o] += c->offset_first[o - 1];
    int *fill = calloc((size_t)G, sizeof *fill);
    if (!fill) {
        free(order);
        free(position);
        return -1;
    }
    for (int l = 0; l < links; l++) {
        struct cascade_link_end end = cascade_link(G, order, position, l);
        int slot = c->offset_first[end.offset] + fill[end.offset]++;
        c->link_gateway[slot] = l / c->h;
        c->link_port[slot] = (uint8_t)(c->first_global_port + l % c->h);
        c->link_entry[slot] = end.far_link / c->h;
        for (int g = 0; g < G; g++) {
            int r = t->group_first_router[g] + l / c->h;
            int far_group = (g + end.offset) % G;
            topology_connect(t, r, c->link_port[slot],
                             t->group_first_router[far_group] + end.far_link / c->h,
                             c->first_global_port + end.far_link % c->h);
        }
    }
    free(fill);
    free(order);
    free(position);
    return 0;
}

/* ---- minimal routes ---- */

/* The ports of `mask` in the first class that has any (row, then column, then global), one
 * of them picked by `spread` so that different pairs use different parallel links and
 * gateways. Row before column keeps every minimal path dimension-ordered inside a group. */
static uint8_t cascade_pick_port(uint64_t row, uint64_t col, uint64_t global, int spread)
{
    uint64_t mask = row ? row : col ? col : global;
    int n = __builtin_popcountll(mask);
    for (int k = spread % n; k > 0; k--)
        mask &= mask - 1;
    return (uint8_t)__builtin_ctzll(mask);
}

/* Routes inside a group: one or two local hops, row first. */
static void cascade_route_local(struct cascade *c, int i, int j, size_t at)
{
    uint64_t row, col;
    c->distance[at] = (uint8_t)cascade_local_distance(c, i, j);
    if (i == j) {
        c->min_port[at] = 0xff;
        c->min_ports[at] = 0;
        return;
    }
    cascade_local_first_hops(c, i, j, &row, &col);
    c->min_ports[at] = row | col;
    c->min_port[at] = cascade_pick_port(row, col, 0, i + j);
}

/* Routes to index j of the group `o` further: the shortest path through one of the links
 * towards that group (local hops to its gateway, the link, local hops from its far end,
 * landing[] for each link). min_ports: the first hops of every shortest one. min_port: among
 * the shortest paths, one that lands closest to j (so that a path towards a group's entry
 * router lands on it, and Valiant's intermediate is reached without a local hop there), row
 * first. */
static void cascade_route_global(struct cascade *c, int i, int o, int j, const uint8_t *landing,
                                 size_t at)
{
    int first = c->offset_first[o], n = c->offset_first[o + 1] - first;
    const int *gateway = &c->link_gateway[first];
    int row = cascade_row(c, i), col = cascade_col(c, i);
    int best = 1 << 20, best_landing = 1 << 20;
    for (int l = 0; l < n; l++) {
        int hops = (c->gateway_row[first + l] != row) + (c->gateway_col[first + l] != col) + 1 +
                   landing[l];
        if (hops < best || (hops == best && landing[l] < best_landing)) {
            best = hops;
            best_landing = landing[l];
        }
    }
    uint64_t all = 0, rows = 0, cols = 0, global = 0;
    for (int l = 0; l < n; l++) {
        int to_gateway = (c->gateway_row[first + l] != row) + (c->gateway_col[first + l] != col);
        if (to_gateway + 1 + landing[l] != best)
            continue;
        uint64_t r = 0, k = 0, g = 0;
        if (gateway[l] == i)
            g = 1ull << c->link_port[first + l];
        else
            cascade_local_first_hops(c, i, gateway[l], &r, &k);
        all |= r | k | g;
        if (landing[l] == best_landing) {
            rows |= r;
            cols |= k;
            global |= g;
        }
    }
    c->distance[at] = (uint8_t)best;
    c->min_ports[at] = all;
    c->min_port[at] = cascade_pick_port(rows, cols, global, i + j + o);
}

static size_t cascade_table_index(const struct cascade *c, int i, int o, int j)
{
    return ((size_t)i * (size_t)c->groups + (size_t)o) * (size_t)c->per_group + (size_t)j;
}

/* Every (i, o, j) entry; towards another group, each link's landing distance to j once for
 * all i. */
static int cascade_route_tables(struct cascade *c)
{
    size_t entries = (size_t)c->per_group * (size_t)c->groups * (size_t)c->per_group;
    int links = c->per_group * c->h;
    c->distance = malloc(entries);
    c->min_port = malloc(entries);
    c->min_ports = malloc(entries * sizeof *c->min_ports);
    c->gateway_row = malloc((size_t)links * sizeof *c->gateway_row);
    c->gateway_col = malloc((size_t)links * sizeof *c->gateway_col);
    uint8_t *landing = malloc((size_t)links);
    if (!c->distance || !c->min_port || !c->min_ports || !c->gateway_row || !c->gateway_col ||
        !landing) {
        free(landing);
        return -1;
    }
    for (int l = 0; l < links; l++) {
        c->gateway_row[l] = cascade_row(c, c->link_gateway[l]);
        c->gateway_col[l] = cascade_col(c, c->link_gateway[l]);
    }
    for (int i = 0; i < c->per_group; i++)
        for (int j = 0; j < c->per_group; j++)
            cascade_route_local(c, i, j, cascade_table_index(c, i, 0, j));
    for (int o = 1; o < c->groups; o++)
        for (int j = 0; j < c->per_group; j++) {
            for (int l = c->offset_first[o]; l < c->offset_first[o + 1]; l++)
                landing[l - c->offset_first[o]] =
                    (uint8_t)cascade_local_distance(c, c->link_entry[l], j);
            for (int i = 0; i < c->per_group; i++)
                cascade_route_global(c, i, o, j, landing, cascade_table_index(c, i, o, j));
        }
    free(landing);
    return 0;
}

/* Index of the (r, target) entry of the route tables. */
static size_t cascade_entry(const struct topology *t, int r, int target)
{
    const struct cascade *c = t->private;
    int g = t->router_group[r], tg = t->router_group[target];
    int o = tg - g < 0 ? tg - g + c->groups : tg - g;
    size_t i = (size_t)(r - t->group_first_router[g]);
    size_t j = (size_t)(target - t->group_first_router[tg]);
    return (i * (size_t)c->groups + (size_t)o) * (size_t)c->per_group + j;
}

static int cascade_min_port(const struct topology *t, int r, int target)
{
    return ((const struct cascade *)t->private)->min_port[cascade_entry(t, r, target)];
}

static uint64_t cascade_min_ports(const struct topology *t, int r, int target)
{
    return ((const struct cascade *)t->private)->min_ports[cascade_entry(t, r, target)];
}

/* Minimal first hops without a column hop where a row hop is minimal: if a column hop could
 * be followed by a row hop, the row hop first is as short. So a per-hop choice among these
 * keeps each group segment row then column, as the ladders "lk lk" need (deadlock). */
static uint64_t cascade_ordered_min_ports(const struct topology *t, int r, int target)
{
    const struct cascade *c = t->private;
    uint64_t ports = c->min_ports[cascade_entry(t, r, target)];
    return ports & c->row_ports ? ports & ~c->col_ports : ports;
}

static void cascade_min_hops(const struct topology *t, int r, int target, int *local, int *global)
{
    const struct cascade *c = t->private;
    *global = t->router_group[r] != t->router_group[target];
    *local = c->distance[cascade_entry(t, r, target)] - *global;
}

/* ---- building ---- */

static void cascade_destroy(struct topology *t)
{
    struct cascade *c = t->private;
    if (!c)
        return;
    free(c->offset_first);
    free(c->link_gateway);
    free(c->link_entry);
    free(c->link_port);
    free(c->gateway_row);
    free(c->gateway_col);
    free(c->distance);
    free(c->min_port);
    free(c->min_ports);
    free(c);
    t->private = NULL;
}

static void cascade_dimensions(const struct sim_config *cfg, struct topology_dimensions *out)
{
    const struct cascade_params *cp = settings_params(cfg, &cascade_settings);
    out->groups = cp->groups;
    out->routers = out->groups * cp->rows * cp->cols;
    out->nodes = out->routers * cfg->topology.p;
}

static void cascade_init(struct cascade *c, const struct sim_config *cfg)
{
    const struct cascade_params *cp = settings_params(cfg, &cascade_settings);
    c->p = cfg->topology.p;
    c->h = cfg->topology.h;
    c->rows = cp->rows;
    c->cols = cp->cols;
    c->row_links = cp->row_links;
    c->col_links = cp->col_links;
    c->groups = cp->groups;
    c->per_group = c->rows * c->cols;
    c->first_row_port = c->p;
    c->first_col_port = c->p + (c->cols - 1) * c->row_links;
    c->first_global_port = c->first_col_port + (c->rows - 1) * c->col_links;
    c->row_ports = cascade_port_range(c->first_row_port, c->first_col_port - c->first_row_port);
    c->col_ports = cascade_port_range(c->first_col_port, c->first_global_port - c->first_col_port);
}

static int cascade_build(struct topology *t, const struct sim_config *cfg, char *err, int err_len)
{
    struct cascade *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, (size_t)err_len, "out of memory for the topology");
        return -1;
    }
    t->private = c;
    cascade_init(c, cfg);
    t->groups = c->groups;
    t->routers = c->groups * c->per_group;
    t->nodes = c->p * t->routers;
    snprintf(t->shape, sizeof t->shape, "p=%d rows=%d cols=%d links=%d/%d h=%d groups=%d", c->p,
             c->rows, c->cols, c->row_links, c->col_links, c->h, c->groups);
    t->n_kinds = 1;
    topology_kind_init(&t->kinds[0], c->p, c->first_global_port - c->p, c->h);
    if (topology_alloc_routers(t) == 0) {
        for (int g = 0; g <= t->groups; g++)
            t->group_first_router[g] = g * c->per_group;
        if (topology_layout(t) == 0 && cascade_wire(t, c) == 0 && cascade_route_tables(c) == 0)
            return 0;
    }
    snprintf(err, (size_t)err_len, "out of memory for the topology");
    return -1;
}

const struct topology_ops topology_cascade = {
    .name = "cascade",
    .summary = "Cray Cascade (Aries): groups of rows x cols routers linked along rows and "
               "columns, groups all-to-all",
    .settings = &cascade_settings,
    .dimensions = cascade_dimensions,
    .build = cascade_build,
    .destroy = cascade_destroy,
    .min_port = cascade_min_port,
    .min_ports = cascade_min_ports,
    .ordered_min_ports = cascade_ordered_min_ports,
    .min_hops = cascade_min_hops,
    .senses_far_end = true, /* Aries' routers learn the far end's congestion with credits */
};
