/* dragonfly: the canonical dragonfly (p, a, h): geometry, global wiring and minimal-route
 * tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_config.h"
#include "topology.h"

/* The dragonfly's own settings (p, h and the arrangement are shared by every kind). */
struct dragonfly_params {
    int a;
};

static int dragonfly_check(const struct sim_config *cfg, const void *params,
                           struct setting_issue *issue)
{
    const struct dragonfly_params *dp = params;
    if (topology_of(cfg) != &topology_dragonfly)
        return 0; /* another kind: a is not read */
    if (cfg->topology.arrangement == ARRANGEMENT_LINEAR) {
        issue->key = "topology.arrangement";
        issue->alt = "topology.kind";
        snprintf(issue->text, sizeof issue->text,
                 "\"linear\" is an arrangement of dragonfly_plus, not of dragonfly (expected "
                 "palmtree or consecutive)");
        return -1;
    }
    /* In 64 bits: each term may be as large as INT_MAX. */
    long long radix = (long long)cfg->topology.p + dp->a - 1 + cfg->topology.h;
    if (radix <= TOPOLOGY_MAX_RADIX)
        return 0;
    issue->key = "topology.h";
    issue->alt = "topology.a";
    snprintf(issue->text, sizeof issue->text,
             "router radix p + a - 1 + h = %lld is too large (expected p + a - 1 + h <= %d)", radix,
             TOPOLOGY_MAX_RADIX);
    return -1;
}

static const struct setting dragonfly_rows[] = {
    SETTING_INT_ROW(struct dragonfly_params, "a", a, 12, 1, SETTING_UNBOUNDED_INT,
                    "routers per group (fully connected by local links); groups = a*h + 1"),
};

static const struct setting_table dragonfly_settings = {
    "topology", "dragonfly", dragonfly_rows, 1, sizeof(struct dragonfly_params), dragonfly_check};

/* The dragonfly's own tables, behind topology.private. */
struct dragonfly {
    int p, a, h;
    enum topology_arrangement arrangement;
    /* min_port[r * groups + g]: first hop of the minimal path from router r towards group g
     * (a local or global port; 0xff for r's own group). */
    uint8_t *min_port;
    /* Palmtree only (else NULL): min_port_offset[i * groups + (g - d) mod groups] is min_port
     * for router index i of any group g towards group d. The wiring is the same seen from
     * every group, so a * groups bytes (4 KiB for h=10) replace routers * groups (800 KiB):
     * the table the routing reads per packet stays in the cache. */
    uint8_t *min_port_offset;
    /* gateway[g * groups + d]: the router of group g that owns the link to group d (-1 if
     * d == g); gateway_port[...]: its port to d. */
    int32_t *gateway;
    uint8_t *gateway_port;
};

/* Local port of router index i (in group) leading to router index j of the same group. */
static int dragonfly_local_port(int p, int i, int j)
{
    return p + (j < i ? j : j - 1);
}

/* Global link arrangement: group reached by global link i*h + k of group g. */
static int dragonfly_link_target(enum topology_arrangement arr, int groups, int g, int link)
{
    if (arr == ARRANGEMENT_PALMTREE)
        return ((g - (link + 1)) % groups + groups) % groups;
    /* consecutive (absolute): the links of a group go to the other groups in order. */
    return link < g ? link : link + 1;
}

/* Global link index (i*h + k) of group g leading to group d, inverse of the above. */
static int dragonfly_link_index(enum topology_arrangement arr, int groups, int g, int d)
{
    if (arr == ARRANGEMENT_PALMTREE)
        return ((g - d) % groups + groups) % groups - 1;
    return d < g ? d : d - 1;
}

static void dragonfly_wire(struct topology *t, const struct dragonfly *df)
{
    int p = df->p, a = df->a, h = df->h, G = t->groups;
    for (int r = 0; r < t->routers; r++) {
        int g = r / a, i = r % a;
        for (int j = 0; j < a; j++) {
            if (j == i)
                continue;
            int port = dragonfly_local_port(p, i, j);
            topology_connect(t, r, port, g * a + j, dragonfly_local_port(p, j, i));
        }
        for (int k = 0; k < h; k++) {
            int d = dragonfly_link_target(df->arrangement, G, g, i * h + k);
            int back = dragonfly_link_index(df->arrangement, G, d, g);
            topology_connect(t, r, p + a - 1 + k, d * a + back / h, p + a - 1 + back % h);
        }
    }
}

static int dragonfly_route_tables(struct topology *t, struct dragonfly *df)
{
    int p = df->p, a = df->a, h = df->h, G = t->groups;
    size_t pairs = (size_t)t->routers * (size_t)G;
    df->min_port = malloc(pairs);
    df->gateway = malloc((size_t)G * (size_t)G * sizeof *df->gateway);
    df->gateway_port = malloc((size_t)G * (size_t)G);
    if (!df->min_port || !df->gateway || !df->gateway_port)
        return -1;
    for (int g = 0; g < G; g++)
        for (int d = 0; d < G; d++) {
            int link = d == g ? -1 : dragonfly_link_index(df->arrangement, G, g, d);
            df->gateway[g * G + d] = link < 0 ? -1 : g * a + link / h;
            df->gateway_port[g * G + d] = (uint8_t)(link < 0 ? 0xff : p + a - 1 + link % h);
        }
    for (int r = 0; r < t->routers; r++) {
        int g = r / a;
        for (int d = 0; d < G; d++) {
            int gw = df->gateway[g * G + d];
            uint8_t port = 0xff;
            if (gw == r)
                port = df->gateway_port[g * G + d];
            else if (gw >= 0)
                port = (uint8_t)dragonfly_local_port(p, r % a, gw % a);
            df->min_port[(size_t)r * (size_t)G + (size_t)d] = port;
        }
    }
    if (df->arrangement != ARRANGEMENT_PALMTREE)
        return 0;
    df->min_port_offset = malloc((size_t)a * (size_t)G);
    if (!df->min_port_offset)
        return -1;
    /* Group 0's rows, by offset: group 0 - offset = d. */
    for (int i = 0; i < a; i++)
        for (int offset = 0; offset < G; offset++)
            df->min_port_offset[i * G + offset] = df->min_port[i * G + (G - offset) % G];
    if (t->group_routers.d) { /* its divisor (a >= 2), which topology_min_port divides by */
        t->inline_min_port = df->min_port_offset; /* read without a call */
        t->inline_local_first = p;
    }
    return 0;
}

static int dragonfly_min_port(const struct topology *t, int r, int target)
{
    const struct dragonfly *df = t->private;
    /* Table lookups rather than divisions by a: this runs for every hop of every packet. */
    int g = t->router_group[r], tg = t->router_group[target];
    int first = t->group_first_router[g];
    if (g != tg) {
        if (df->min_port_offset) {
            int offset = g - tg < 0 ? g - tg + t->groups : g - tg;
            return df->min_port_offset[(r - first) * t->groups + offset];
        }
        return df->min_port[(size_t)r * (size_t)t->groups + (size_t)tg];
    }
    return dragonfly_local_port(df->p, r - first, target - first);
}

/* One link per pair of groups and fully connected groups: the minimal path is unique. */
static uint64_t dragonfly_min_ports(const struct topology *t, int r, int target)
{
    return 1ull << dragonfly_min_port(t, r, target);
}

static void dragonfly_min_hops(const struct topology *t, int r, int target, int *local, int *global)
{
    const struct dragonfly *df = t->private;
    int g = r / df->a, tg = target / df->a;
    if (g == tg) {
        *local = 1;
        *global = 0;
        return;
    }
    int out = df->gateway[g * t->groups + tg];
    int in = topology_neighbour(t, out, df->gateway_port[g * t->groups + tg]);
    *global = 1;
    *local = (out != r) + (in != target);
}

static void dragonfly_destroy(struct topology *t)
{
    struct dragonfly *df = t->private;
    if (!df)
        return;
    free(df->min_port);
    free(df->min_port_offset);
    free(df->gateway);
    free(df->gateway_port);
    free(df);
    t->private = NULL;
}

static void dragonfly_dimensions(const struct sim_config *cfg, struct topology_dimensions *out)
{
    const struct dragonfly_params *dp = settings_params(cfg, &dragonfly_settings);
    out->groups = (long long)dp->a * cfg->topology.h + 1;
    out->routers = out->groups * dp->a;
    out->nodes = out->routers * cfg->topology.p;
}

static int dragonfly_build(struct topology *t, const struct sim_config *cfg, char *err, int err_len)
{
    const struct dragonfly_params *dp = settings_params(cfg, &dragonfly_settings);
    struct dragonfly *df = calloc(1, sizeof *df);
    if (!df) {
        snprintf(err, (size_t)err_len, "out of memory for the topology");
        return -1;
    }
    t->private = df;
    df->p = cfg->topology.p;
    df->a = dp->a;
    df->h = cfg->topology.h;
    df->arrangement = (enum topology_arrangement)cfg->topology.arrangement;
    t->groups = df->a * df->h + 1;
    t->routers = df->a * t->groups;
    t->nodes = df->p * t->routers;
    snprintf(t->shape, sizeof t->shape, "p=%d a=%d h=%d", df->p, df->a, df->h);
    if (df->p + df->a - 1 + df->h > TOPOLOGY_MAX_RADIX) {
        snprintf(err, (size_t)err_len, "router radix p+a-1+h = %d exceeds %d",
                 df->p + df->a - 1 + df->h, TOPOLOGY_MAX_RADIX);
        return -1;
    }
    t->n_kinds = 1;
    topology_kind_init(&t->kinds[0], df->p, df->a - 1, df->h);
    if (topology_alloc_routers(t) == 0) {
        for (int g = 0; g <= t->groups; g++)
            t->group_first_router[g] = g * df->a;
        if (topology_layout(t) == 0) {
            dragonfly_wire(t, df);
            topology_set_uniform(t, df->p, df->a);
            if (dragonfly_route_tables(t, df) == 0)
                return 0;
        }
    }
    snprintf(err, (size_t)err_len, "out of memory for the topology");
    return -1;
}

const struct topology_ops topology_dragonfly = {
    .name = "dragonfly",
    .summary = "canonical dragonfly: p nodes, a routers per group, h global links per router, "
               "groups = a*h + 1, all-to-all groups",
    .settings = &dragonfly_settings,
    .dimensions = dragonfly_dimensions,
    .build = dragonfly_build,
    .destroy = dragonfly_destroy,
    .min_port = dragonfly_min_port,
    .min_ports = dragonfly_min_ports,
    .min_hops = dragonfly_min_hops,
};
