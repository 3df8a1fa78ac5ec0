/* topology: the registry of topology kinds, the settings they share, and the generic part of
 * a network (per-router and per-port arrays, queries that follow minimal paths). */
#include "topology.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "sim_config.h"

const struct topology_ops *const topology_registry[] = {
    &topology_dragonfly,
    &topology_cascade,
    &topology_dragonfly_plus,
    NULL,
};

REGISTRY_DEFINE(topology, struct topology_ops, topology_registry)
REGISTRY_SETTINGS(topology, topology_registry)

const char *const topology_arrangement_names[] = {"palmtree", "consecutive", "linear", NULL};

static const struct setting topology_rows[] = {
    SETTING_PLUGIN_ROW(struct config_topology, "kind", kind, "dragonfly", topology_names,
                       "topology kind"),
    SETTING_INT_ROW(struct config_topology, "p", p, 6, 1, SETTING_UNBOUNDED_INT,
                    "nodes per router"),
    SETTING_INT_ROW(struct config_topology, "h", h, 6, 1, SETTING_UNBOUNDED_INT,
                    "global links per router"),
    SETTING_CHOICE_ROW(struct config_topology, "arrangement", arrangement, "palmtree",
                       topology_arrangement_names, "global link arrangement"),
};

const struct setting_table topology_settings = {
    "topology", NULL, topology_rows, (int)(sizeof topology_rows / sizeof topology_rows[0]),
    0,          NULL};

const struct topology_ops *topology_of(const struct sim_config *cfg)
{
    return topology_registry[cfg->topology.kind];
}

void topology_dimensions(const struct sim_config *cfg, struct topology_dimensions *out)
{
    topology_of(cfg)->dimensions(cfg, out);
}

int topology_create(struct topology *t, const struct sim_config *cfg, char *err, int err_len)
{
    memset(t, 0, sizeof *t);
    t->ops = topology_of(cfg);
    if (t->ops->build(t, cfg, err, err_len) == 0)
        return 0;
    topology_free(t);
    return -1;
}

void topology_free(struct topology *t)
{
    if (t->ops && t->ops->destroy)
        t->ops->destroy(t);
    free(t->router_kind);
    free(t->router_group);
    free(t->first_node);
    free(t->port_base);
    free(t->group_first_router);
    free(t->peer);
    free(t->node_router);
    memset(t, 0, sizeof *t);
}

void topology_set_uniform(struct topology *t, int router_nodes, int group_routers)
{
    t->router_nodes = fast_div_make((uint32_t)router_nodes);
    t->group_routers = fast_div_make((uint32_t)group_routers);
}

void topology_kind_init(struct router_kind *k, int node_ports, int local_ports, int global_ports)
{
    memset(k, 0, sizeof *k);
    const int counts[PORT_CLASSES] = {node_ports, local_ports, global_ports};
    for (int c = 0; c < PORT_CLASSES; c++) {
        k->first[c] = k->radix;
        k->count[c] = counts[c];
        for (int i = 0; i < counts[c]; i++)
            k->port_class[k->radix++] = (uint8_t)c;
    }
}

int topology_alloc_routers(struct topology *t)
{
    t->router_kind = calloc((size_t)t->routers, sizeof *t->router_kind);
    t->group_first_router = calloc((size_t)t->groups + 1, sizeof *t->group_first_router);
    return t->router_kind && t->group_first_router ? 0 : -1;
}

int topology_layout(struct topology *t)
{
    size_t routers = (size_t)t->routers;
    t->router_group = malloc(routers * sizeof *t->router_group);
    t->first_node = malloc(routers * sizeof *t->first_node);
    t->port_base = malloc((routers + 1) * sizeof *t->port_base);
    t->node_router = malloc((size_t)t->nodes * sizeof *t->node_router);
    if (!t->router_group || !t->first_node || !t->port_base || !t->node_router)
        return -1;
    for (int g = 0; g < t->groups; g++)
        for (int r = t->group_first_router[g]; r < t->group_first_router[g + 1]; r++)
            t->router_group[r] = g;
    uint32_t ports = 0;
    int node = 0;
    t->radix = 0;
    for (int r = 0; r < t->routers; r++) {
        const struct router_kind *k = topology_kind_of(t, r);
        t->port_base[r] = ports;
        ports += (uint32_t)k->radix;
        t->first_node[r] = node;
        for (int i = 0; i < k->count[PORT_NODE]; i++)
            t->node_router[node++] = r;
        if (k->radix > t->radix)
            t->radix = k->radix;
    }
    t->port_base[t->routers] = ports;
    t->uniform_radix = t->n_kinds == 1 ? t->kinds[0].radix : 0;
    if (node != t->nodes)
        return -1;
    if (t->routers >= TOPOLOGY_MAX_ROUTERS)
        return -1;
    t->peer = malloc(ports * sizeof *t->peer);
    if (!t->peer)
        return -1;
    for (uint32_t i = 0; i < ports; i++)
        t->peer[i] = TOPOLOGY_NO_PEER;
    return 0;
}

/* ---- queries along minimal paths ---- */

int topology_global_port_to_group(const struct topology *t, int r, int g)
{
    const struct router_kind *k = topology_kind_of(t, r);
    for (int port = k->first[PORT_GLOBAL]; port < k->first[PORT_GLOBAL] + k->count[PORT_GLOBAL];
         port++)
        if (topology_group_of_router(t, topology_neighbour(t, r, port)) == g)
            return port;
    return -1;
}

void topology_min_global_hop(const struct topology *t, int r, int target, int *router, int *port)
{
    int p = topology_min_port(t, r, target);
    while (topology_port_class(t, r, p) != PORT_GLOBAL) {
        r = topology_neighbour(t, r, p);
        p = topology_min_port(t, r, target);
    }
    *router = r;
    *port = p;
}

int topology_entry_router(const struct topology *t, int r, int g)
{
    /* Follow the minimal path towards r's counterpart in g (the router at r's index) until it
     * enters the group. With one link per pair of groups (the dragonfly) any router of g gives
     * the same entry; where several links join two groups (the cascade), aiming at one router
     * for every source would funnel them all through the link that lands on it. */
    int index = r - t->group_first_router[t->router_group[r]];
    int target = t->group_first_router[g] + index % topology_group_routers(t, g);
    while (topology_group_of_router(t, r) != g) {
        int port = topology_min_port(t, r, target);
        r = topology_neighbour(t, r, port);
    }
    return r;
}
