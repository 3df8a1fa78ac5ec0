/* topology: the canonical dragonfly (p, a, h), its numbering, port layout, global wiring and
 * the minimal-route tables that routing reads in the cycle loop. */
#ifndef DFSIM_TOPOLOGY_H
#define DFSIM_TOPOLOGY_H

#include <stdint.h>

#define TOPOLOGY_MAX_RADIX 64 /* port sets are 64-bit masks */

enum port_class { PORT_NODE = 0, PORT_LOCAL = 1, PORT_GLOBAL = 2 };

struct topology {
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

enum topology_arrangement { ARRANGEMENT_PALMTREE, ARRANGEMENT_CONSECUTIVE };

/* Builds the network; returns 0 or -1 with a message (e.g. radix too large). */
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
