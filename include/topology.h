/* topology: the canonical dragonfly (p, a, h), its numbering, port layout, global wiring and
 * the minimal-route tables that routing reads in the cycle loop. */
#ifndef DFSIM_TOPOLOGY_H
#define DFSIM_TOPOLOGY_H

#include <stdint.h>

#include "settings.h"

struct sim_config;

#define TOPOLOGY_MAX_RADIX 64 /* port sets are 64-bit masks */

enum port_class { PORT_NODE = 0, PORT_LOCAL = 1, PORT_GLOBAL = 2 };

struct topology {
    char shape[64]; /* the kind's parameters as the CLI prints them: "p=2 a=4 h=2" */
    int p, a, h;
    int groups, routers, nodes, radix;
    int first_local_port, first_global_port; /* p and p+a-1 */
    /* neighbour[r * radix + port] = router at the far end (-1 for node ports) and
     * neighbour_port[...] = the far end's input port. */
    int32_t *neighbour;
    uint8_t *neighbour_port;
    /* global_port_to_group[r * groups + g]: global port of router r linked to group g
     * (0xff if none); min_port[r * groups + g]: first hop of the minimal path from router r
     * towards group g (a local or global port; 0xff for r's own group). */
    uint8_t *global_port_to_group;
    uint8_t *min_port;
    /* Palmtree only (else NULL): min_port_offset[i * groups + (g - d) mod groups] is
     * min_port for router index i of any group g towards group d. The wiring is the same seen
     * from every group, so a * groups bytes (4 KiB for h=10) replace routers * groups (800
     * KiB): the table the routing reads per packet stays in the cache. */
    uint8_t *min_port_offset;
    /* gateway[g * groups + d]: the router of group g that owns the link to group d (-1 if
     * d == g). */
    int32_t *gateway;
};

/* Values of topology.arrangement (each kind says which it supports). */
enum topology_arrangement { ARRANGEMENT_PALMTREE, ARRANGEMENT_CONSECUTIVE };
extern const char *const topology_arrangement_names[]; /* by enum topology_arrangement */

/* The size of a network, known from its config before it is built. */
struct topology_dimensions {
    long long groups, routers, nodes;
};

/* A topology kind (topology.kind): its settings and how it builds the network. */
struct topology_ops {
    const char *name; /* as written in configs */
    const char *summary;
    const struct setting_table *settings; /* its own settings (NULL if none) */
    /* The size the network of a config (whose settings are each in range) would have. */
    void (*dimensions)(const struct sim_config *cfg, struct topology_dimensions *out);
    /* Builds the network of a validated config; returns 0 or -1 with a message. */
    int (*build)(struct topology *t, const struct sim_config *cfg, char *err, int err_len);
};

extern const struct topology_ops *const topology_registry[]; /* NULL-terminated */
extern const struct topology_ops topology_dragonfly;
const struct topology_ops *topology_find(const char *name);
const char *const *topology_names(void);
int topology_count(void);
const struct setting_table *topology_settings_at(int i);
/* The settings every kind shares: kind, p, h, arrangement. */
extern const struct setting_table topology_settings;

/* The kind a config chose, and the size of its network. */
const struct topology_ops *topology_of(const struct sim_config *cfg);
void topology_dimensions(const struct sim_config *cfg, struct topology_dimensions *out);
/* Builds the network of cfg with its kind; returns 0 or -1 with a message. */
int topology_create(struct topology *t, const struct sim_config *cfg, char *err, int err_len);
/* The canonical dragonfly (p, a, h); returns 0 or -1 with a message (e.g. radix too large). */
int topology_build(struct topology *t, int p, int a, int h, enum topology_arrangement arr,
                   char *err, int err_len);
void topology_free(struct topology *t);

static inline int topology_group_of_router(const struct topology *t, int r)
{
    return r / t->a;
}
static inline int topology_router_of_node(const struct topology *t, int n)
{
    return n / t->p;
}
static inline enum port_class topology_port_class(const struct topology *t, int port)
{
    return port < t->first_local_port ? PORT_NODE
           : port < t->first_global_port ? PORT_LOCAL
                                          : PORT_GLOBAL;
}
/* Local port of router index i (in group) leading to router index j of the same group. */
static inline int topology_local_port(const struct topology *t, int i, int j)
{
    return t->p + (j < i ? j : j - 1);
}
/* Router index in group reached through local port `port` of router index i. */
static inline int topology_local_target(const struct topology *t, int i, int port)
{
    int j = port - t->p;
    return j < i ? j : j + 1;
}
/* First hop from router r towards router `target` (any router): a local or global port, or
 * -1 when r == target. */
static inline int topology_min_port_to_router(const struct topology *t, int r, int target)
{
    int g = r / t->a, tg = target / t->a;
    if (g != tg) {
        if (t->min_port_offset) {
            int offset = g - tg < 0 ? g - tg + t->groups : g - tg;
            return t->min_port_offset[(r - g * t->a) * t->groups + offset];
        }
        return t->min_port[r * t->groups + tg];
    }
    if (r == target)
        return -1;
    return topology_local_port(t, r % t->a, target % t->a);
}
/* Number of inter-router hops (local, global) of the minimal path from r to target. */
void topology_min_hops(const struct topology *t, int r, int target, int *local, int *global);

/* Global link arrangement: group reached by global port k of router index i in group g. */
int topology_global_target_group(enum topology_arrangement arr, int a, int h, int groups, int g,
                                 int i, int k);

#endif
