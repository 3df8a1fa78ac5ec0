/* dragonfly: the canonical dragonfly (p, a, h): geometry, global wiring and minimal-route
 * tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "topology.h"

/* The dragonfly's own settings (p, h and the arrangement are shared by every kind). */
struct dragonfly_params {
    int a;
};

static int dragonfly_check(const struct sim_config *cfg, const void *params,
                           struct setting_issue *issue)
{
    const struct dragonfly_params *dp = params;
    /* In 64 bits: each term may be as large as INT_MAX. */
    long long radix = (long long)cfg->topology.p + dp->a - 1 + cfg->topology.h;
    if (radix <= TOPOLOGY_MAX_RADIX)
        return 0;
    issue->key = "topology.h";
    issue->alt = "topology.a";
    snprintf(issue->text, sizeof issue->text,
             "router radix p + a - 1 + h = %lld is too large (expected p + a - 1 + h <= %d)",
             radix, TOPOLOGY_MAX_RADIX);
    return -1;
}

static const struct setting dragonfly_rows[] = {
    SETTING_INT_ROW(struct dragonfly_params, "a", a, 12, 1, SETTING_UNBOUNDED_INT,
                    "routers per group (fully connected by local links); groups = a*h + 1"),
};

static const struct setting_table dragonfly_settings = {
    "topology", "dragonfly", dragonfly_rows, 1, sizeof(struct dragonfly_params),
    dragonfly_check};

int topology_global_target_group(enum topology_arrangement arr, int a, int h, int groups, int g,
                                 int i, int k)
{
    int link = i * h + k; /* 0 .. a*h-1 */
    (void)a;
    if (arr == ARRANGEMENT_PALMTREE)
        return ((g - (link + 1)) % groups + groups) % groups;
    /* consecutive (absolute): the links of a group go to the other groups in order. */
    return link < g ? link : link + 1;
}

/* Global link index (i*h + k) of group g leading to group d, inverse of the above. */
static int topology_global_link_index(enum topology_arrangement arr, int groups, int g, int d)
{
    if (arr == ARRANGEMENT_PALMTREE)
        return ((g - d) % groups + groups) % groups - 1;
    return d < g ? d : d - 1;
}

static int topology_alloc(struct topology *t)
{
    size_t ports = (size_t)t->routers * t->radix, pairs = (size_t)t->routers * t->groups;
    t->neighbour = malloc(ports * sizeof *t->neighbour);
    t->neighbour_port = malloc(ports);
    t->global_port_to_group = malloc(pairs);
    t->min_port = malloc(pairs);
    t->gateway = malloc((size_t)t->groups * t->groups * sizeof *t->gateway);
    return t->neighbour && t->neighbour_port && t->global_port_to_group && t->min_port && t->gateway
               ? 0
               : -1;
}

static void topology_wire(struct topology *t, enum topology_arrangement arr)
{
    int a = t->a, h = t->h, G = t->groups;
    memset(t->global_port_to_group, 0xff, (size_t)t->routers * G);
    for (int r = 0; r < t->routers; r++) {
        int g = r / a, i = r % a;
        for (int port = 0; port < t->radix; port++) {
            int idx = r * t->radix + port;
            t->neighbour[idx] = -1;
            t->neighbour_port[idx] = 0xff;
            if (port >= t->first_local_port && port < t->first_global_port) {
                int j = topology_local_target(t, i, port);
                t->neighbour[idx] = g * a + j;
                t->neighbour_port[idx] = (uint8_t)topology_local_port(t, j, i);
            } else if (port >= t->first_global_port) {
                int k = port - t->first_global_port;
                int d = topology_global_target_group(arr, a, h, G, g, i, k);
                int back = topology_global_link_index(arr, G, d, g);
                t->neighbour[idx] = d * a + back / h;
                t->neighbour_port[idx] = (uint8_t)(t->first_global_port + back % h);
                t->global_port_to_group[r * G + d] = (uint8_t)port;
            }
        }
    }
}

static int topology_route_tables(struct topology *t, enum topology_arrangement arr)
{
    int a = t->a, h = t->h, G = t->groups;
    for (int g = 0; g < G; g++)
        for (int d = 0; d < G; d++)
            t->gateway[g * G + d] =
                d == g ? -1 : g * a + topology_global_link_index(arr, G, g, d) / h;
    for (int r = 0; r < t->routers; r++) {
        int g = r / a;
        for (int d = 0; d < G; d++) {
            int gw = t->gateway[g * G + d];
            uint8_t port = 0xff;
            if (gw == r)
                port = t->global_port_to_group[r * G + d];
            else if (gw >= 0)
                port = (uint8_t)topology_local_port(t, r % a, gw % a);
            t->min_port[r * G + d] = port;
        }
    }
    if (arr != ARRANGEMENT_PALMTREE)
        return 0;
    t->min_port_offset = malloc((size_t)a * (size_t)G);
    if (!t->min_port_offset)
        return -1;
    /* Group 0's rows, by offset: group 0 - offset = d. */
    for (int i = 0; i < a; i++)
        for (int offset = 0; offset < G; offset++)
            t->min_port_offset[i * G + offset] = t->min_port[i * G + (G - offset) % G];
    return 0;
}

int topology_build(struct topology *t, int p, int a, int h, enum topology_arrangement arr,
                   char *err, int err_len)
{
    memset(t, 0, sizeof *t);
    t->p = p;
    t->a = a;
    t->h = h;
    t->groups = a * h + 1;
    t->routers = a * t->groups;
    t->nodes = p * t->routers;
    t->radix = p + a - 1 + h;
    t->first_local_port = p;
    t->first_global_port = p + a - 1;
    snprintf(t->shape, sizeof t->shape, "p=%d a=%d h=%d", p, a, h);
    if (t->radix > TOPOLOGY_MAX_RADIX) {
        snprintf(err, (size_t)err_len, "router radix p+a-1+h = %d exceeds %d", t->radix,
                 TOPOLOGY_MAX_RADIX);
        return -1;
    }
    int failed = topology_alloc(t);
    if (!failed) {
        topology_wire(t, arr);
        failed = topology_route_tables(t, arr);
    }
    if (failed) {
        topology_free(t);
        snprintf(err, (size_t)err_len, "out of memory for the topology");
        return -1;
    }
    return 0;
}

static void dragonfly_dimensions(const struct sim_config *cfg, struct topology_dimensions *out)
{
    const struct dragonfly_params *dp = settings_params(cfg, &dragonfly_settings);
    out->groups = (long long)dp->a * cfg->topology.h + 1;
    out->routers = out->groups * dp->a;
    out->nodes = out->routers * cfg->topology.p;
}

static int dragonfly_build(struct topology *t, const struct sim_config *cfg, char *err,
                           int err_len)
{
    const struct dragonfly_params *dp = settings_params(cfg, &dragonfly_settings);
    return topology_build(t, cfg->topology.p, dp->a, cfg->topology.h,
                          (enum topology_arrangement)cfg->topology.arrangement, err, err_len);
}

const struct topology_ops topology_dragonfly = {
    .name = "dragonfly",
    .summary = "canonical dragonfly: p nodes, a routers per group, h global links per router, "
               "groups = a*h + 1, all-to-all groups",
    .settings = &dragonfly_settings,
    .dimensions = dragonfly_dimensions,
    .build = dragonfly_build,
};

void topology_free(struct topology *t)
{
    free(t->neighbour);
    free(t->neighbour_port);
    free(t->global_port_to_group);
    free(t->min_port);
    free(t->min_port_offset);
    free(t->gateway);
    t->neighbour = NULL;
    t->neighbour_port = NULL;
    t->global_port_to_group = NULL;
    t->min_port = NULL;
    t->min_port_offset = NULL;
    t->gateway = NULL;
}

void topology_min_hops(const struct topology *t, int r, int target, int *local, int *global)
{
    int g = r / t->a, tg = target / t->a;
    *local = 0;
    *global = 0;
    if (g == tg) {
        *local = r != target;
        return;
    }
    int out = t->gateway[g * t->groups + tg];
    int in = t->neighbour[out * t->radix + t->global_port_to_group[out * t->groups + tg]];
    *global = 1;
    *local = (out != r) + (in != target);
}
