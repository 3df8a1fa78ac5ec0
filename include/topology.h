/* topology: the network a topology kind builds (topology.kind): routers of one or more kinds,
 * each kind with its own port layout (node, local and global ports, in that order), groups,
 * wiring, node placement, and the minimal-route oracle that routing asks. Routing, VC ladders,
 * invariants and statistics read the network through these queries only; a kind's own tables
 * (the dragonfly's palmtree offsets, ...) stay behind its ops. */
#ifndef DFSIM_TOPOLOGY_H
#define DFSIM_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "fast_div.h"
#include "settings.h"

struct sim_config;

#define TOPOLOGY_MAX_RADIX 64 /* port sets are 64-bit masks */
/* topology.peer packs a router in 24 bits; a radix of at most 64 keeps every kind's networks
 * below (a dragonfly has at most 64 * (64 * 64 + 1) routers, a cascade about 5.5 M); beyond,
 * topology_layout fails. */
#define TOPOLOGY_MAX_ROUTERS (1 << 24)
#define TOPOLOGY_NO_PEER UINT32_MAX
#define TOPOLOGY_MAX_KINDS 4 /* router kinds of one network (leaf and spine, ...) */

/* Port classes. Local links join routers of one group, global links groups. */
enum port_class { PORT_NODE = 0, PORT_LOCAL = 1, PORT_GLOBAL = 2, PORT_CLASSES };

/* The port layout shared by the routers of one kind: ports [first[c], first[c] + count[c])
 * are of class c, node ports first, then local, then global. */
struct router_kind {
    int radix;
    int first[PORT_CLASSES], count[PORT_CLASSES];
    uint8_t port_class[TOPOLOGY_MAX_RADIX];
};

/* The size of a network, known from its config before it is built. */
struct topology_dimensions {
    long long groups, routers, nodes;
};

struct topology;

/* A topology kind (topology.kind): its settings, how it builds the network and the minimal
 * routes on it. */
struct topology_ops {
    const char *name; /* as written in configs */
    const char *summary;
    const struct setting_table *settings; /* its own settings (NULL if none) */
    /* The size the network of a config (whose settings are each in range) would have. */
    void (*dimensions)(const struct sim_config *cfg, struct topology_dimensions *out);
    /* Builds the network of a validated config (the generic arrays are allocated by
     * topology_create from what it sets first: see topology_layout); returns 0 or -1 with a
     * message. */
    int (*build)(struct topology *t, const struct sim_config *cfg, char *err, int err_len);
    void (*destroy)(struct topology *t);
    /* The first hop of a minimal path from router r to router target != r (the one every
     * deterministic routing takes). */
    int (*min_port)(const struct topology *t, int r, int target);
    /* Every first hop of a minimal path from r to target != r, as a port set. */
    uint64_t (*min_ports)(const struct topology *t, int r, int target);
    /* Optional: those of min_ports a routing that picks among them at every hop may take, so
     * that its paths keep the order the kind's ladders rely on (the cascade: row before column
     * inside a group). NULL: all of min_ports. */
    uint64_t (*ordered_min_ports)(const struct topology *t, int r, int target);
    /* Local and global hops of the minimal path (min_port's) from r to target. */
    void (*min_hops)(const struct topology *t, int r, int target, int *local, int *global);
    /* routing.min_choice = "auto" takes the least occupied minimal port here (true) or a hash
     * of the packet (false): what this kind's switches do (routers/README.md). */
    bool adaptive_min_choice;
    /* routing.ugal_far_end = "auto" adds the far-end congestion its routers learn late with
     * the credits (true: Aries) or not (routers/README.md). */
    bool senses_far_end;
};

struct topology {
    const struct topology_ops *ops;
    char shape[64]; /* the kind's parameters as the CLI prints them: "p=2 a=4 h=2" */
    int groups, routers, nodes;
    int radix; /* the largest radix of a router */
    int n_kinds;
    struct router_kind kinds[TOPOLOGY_MAX_KINDS];
    /* Per router. Routers of a group are consecutive, as are the nodes of a router. */
    uint8_t *router_kind;
    int32_t *router_group;
    int32_t *first_node;         /* its first node (it has kinds[router_kind].count[PORT_NODE]) */
    uint32_t *port_base;         /* [routers + 1]: its first port in the per-port arrays */
    int32_t *group_first_router; /* [groups + 1] */
    /* Per port (port_base[r] + port): the far end of its link, (router << 8) | its input port
     * there, TOPOLOGY_NO_PEER for node ports: one word, because every hop reads both (one
     * cache line, not two). Set with topology_connect, read with topology_peer_*. */
    uint32_t *peer;
    int32_t *node_router; /* per node */
    void *private;        /* the kind's own tables */
    /* Optional: min_port without a call, because every hop of every packet asks it. A kind
     * sets it when its groups are fully connected, one local link per router pair (router i's
     * port to router j of its group: local_first + (j < i ? j : j - 1)), and its first hop
     * towards another group depends only on the router's index i in its group and the group
     * distance: inline_min_port[i * groups + (g - d) mod groups] from group g towards d; and
     * the minimal path must be unique (min_ports is then min_port's port alone); its groups
     * are uniform (group_routers set, topology_set_uniform). NULL: the queries ask the ops. */
    const uint8_t *inline_min_port;
    int inline_local_first;
    /* Optional: min_hops without a call, [target * routers + r] = local | global << 4 (0 for
     * r == target), set (and owned) by a kind whose min_hops is dear: FPAR asks it for every
     * candidate port of every decision. Target-major: one decision's candidates (the far
     * routers of its ports, towards one destination) share a row. NULL: the queries ask the
     * ops. */
    const uint8_t *hops_table;
    /* Optional: set by a kind whose routers all have the same number of nodes and whose
     * groups all have the same number of routers (the canonical dragonfly); the node ->
     * router -> group queries then divide instead of reading tables, which miss the cache on
     * large networks; by a multiplication (fast_div.h), not a hardware division. Divisor 0:
     * read the tables (topology_set_uniform). */
    struct fast_div router_nodes, group_routers;
    /* Set by topology_layout when every router is of one kind: its radix, so that
     * port_base[r] = r * uniform_radix without a table read. 0: mixed kinds. */
    int uniform_radix;
};

/* Values of topology.arrangement (each kind says which it supports). */
enum topology_arrangement { ARRANGEMENT_PALMTREE, ARRANGEMENT_CONSECUTIVE, ARRANGEMENT_LINEAR };
extern const char *const topology_arrangement_names[]; /* by enum topology_arrangement */

extern const struct topology_ops *const topology_registry[]; /* NULL-terminated */
extern const struct topology_ops topology_dragonfly, topology_cascade, topology_dragonfly_plus;
const struct topology_ops *topology_find(const char *name);
const char *const *topology_names(void);
int topology_count(void);
const struct setting_table *topology_settings_at(int i);
/* Whether the kind cfg chose reads table t (struct setting_plugins). */
bool topology_reads(const struct sim_config *cfg, const struct setting_table *t);
/* The settings every kind shares: kind, p, h, arrangement. */
extern const struct setting_table topology_settings;

/* The kind a config chose, and the size of its network. */
const struct topology_ops *topology_of(const struct sim_config *cfg);
void topology_dimensions(const struct sim_config *cfg, struct topology_dimensions *out);
/* Builds the network of cfg with its kind; returns 0 or -1 with a message. */
int topology_create(struct topology *t, const struct sim_config *cfg, char *err, int err_len);
void topology_free(struct topology *t);

/* For a kind's build: once t->groups, routers, nodes, n_kinds and kinds[] are set, and
 * router_kind[] and group_first_router[] filled (topology_alloc_routers gives them room),
 * allocates and fills the other generic arrays (router_group, first_node, port_base,
 * node_router; neighbour set to -1). Returns 0 or -1 (memory). */
int topology_alloc_routers(struct topology *t);
int topology_layout(struct topology *t);
/* For a kind whose routers all have `router_nodes` nodes and whose groups all have
 * `group_routers` routers, numbered in order (after topology_layout): the node -> router ->
 * group queries divide instead of reading the tables (a count of 1 keeps the tables). */
void topology_set_uniform(struct topology *t, int router_nodes, int group_routers);
/* A router kind from its port counts per class. */
void topology_kind_init(struct router_kind *k, int node_ports, int local_ports, int global_ports);

/* ---- queries ---- */

static inline const struct router_kind *topology_kind_of(const struct topology *t, int r)
{
    return &t->kinds[t->n_kinds == 1 ? 0 : t->router_kind[r]];
}
/* Global port `port` of router r among the network's global ports, numbered router by router
 * from `base` (base[r]: the index of r's first global port; the far-end histories'). */
static inline uint32_t topology_global_port_index(const struct topology *t, const uint32_t *base,
                                                  int r, int port)
{
    return base[r] + (uint32_t)(port - topology_kind_of(t, r)->first[PORT_GLOBAL]);
}
static inline int topology_group_of_router(const struct topology *t, int r)
{
    return t->group_routers.d ? (int)fast_div_quotient(t->group_routers, (uint32_t)r)
                              : t->router_group[r];
}
static inline int topology_router_of_node(const struct topology *t, int n)
{
    return t->router_nodes.d ? (int)fast_div_quotient(t->router_nodes, (uint32_t)n)
                             : t->node_router[n];
}
static inline int topology_group_of_node(const struct topology *t, int n)
{
    return topology_group_of_router(t, topology_router_of_node(t, n));
}
/* The node port of router r where node n attaches (n is one of r's nodes). */
static inline int topology_node_port(const struct topology *t, int n)
{
    if (t->router_nodes.d)
        return (int)fast_div_remainder(t->router_nodes, (uint32_t)n);
    return n - t->first_node[t->node_router[n]];
}
static inline enum port_class topology_port_class(const struct topology *t, int r, int port)
{
    return (enum port_class)topology_kind_of(t, r)->port_class[port];
}
/* The first router of group g (the routers of a group are consecutive). */
static inline int topology_group_first_router(const struct topology *t, int g)
{
    return t->group_routers.d ? g * (int)t->group_routers.d : t->group_first_router[g];
}
/* Router r's first port in the per-port arrays. */
static inline uint32_t topology_port_base(const struct topology *t, int r)
{
    return t->uniform_radix ? (uint32_t)r * (uint32_t)t->uniform_radix : t->port_base[r];
}
/* A port's far end (a word of topology.peer): its router, -1 for a node port, and its port. */
static inline int topology_peer_router(uint32_t peer)
{
    return peer == TOPOLOGY_NO_PEER ? -1 : (int)(peer >> 8);
}
static inline int topology_peer_port(uint32_t peer)
{
    return (int)(peer & 0xff);
}
/* Links port `port` of router r to port far_port of router far (one direction). */
static inline void topology_connect(struct topology *t, int r, int port, int far, int far_port)
{
    t->peer[topology_port_base(t, r) + (uint32_t)port] = (uint32_t)far << 8 | (uint32_t)far_port;
}
static inline int topology_neighbour(const struct topology *t, int r, int port)
{
    return topology_peer_router(t->peer[topology_port_base(t, r) + (uint32_t)port]);
}
static inline int topology_neighbour_port(const struct topology *t, int r, int port)
{
    return topology_peer_port(t->peer[topology_port_base(t, r) + (uint32_t)port]);
}
/* First hop from router r towards router target: a local or global port, or -1 when
 * r == target. */
static inline int topology_min_port(const struct topology *t, int r, int target)
{
    if (r == target)
        return -1;
    if (!t->inline_min_port)
        return t->ops->min_port(t, r, target);
    /* Uniform groups (see inline_min_port): no table to fall back on. */
    int g = (int)fast_div_quotient(t->group_routers, (uint32_t)r);
    int d = (int)fast_div_quotient(t->group_routers, (uint32_t)target);
    int first = g * (int)t->group_routers.d;
    int i = r - first;
    if (g != d) {
        int offset = g - d < 0 ? g - d + t->groups : g - d;
        return t->inline_min_port[i * t->groups + offset];
    }
    int j = target - first;
    return t->inline_local_first + (j < i ? j : j - 1);
}
static inline uint64_t topology_min_ports(const struct topology *t, int r, int target)
{
    if (r == target)
        return 0;
    if (t->inline_min_port) /* then the minimal path is unique */
        return 1ull << topology_min_port(t, r, target);
    return t->ops->min_ports(t, r, target);
}
/* The minimal first hops a per-hop choice may take (topology_ops.ordered_min_ports). */
static inline uint64_t topology_ordered_min_ports(const struct topology *t, int r, int target)
{
    if (r == target || t->inline_min_port || !t->ops->ordered_min_ports)
        return topology_min_ports(t, r, target);
    return t->ops->ordered_min_ports(t, r, target);
}
/* The k-th port (from 0, in increasing order) of a port set with more than k ports. */
static inline int topology_port_at(uint64_t ports, int k)
{
    for (; k > 0; k--)
        ports &= ports - 1;
    return __builtin_ctzll(ports);
}
/* Number of inter-router hops (local, global) of the minimal path from r to target. */
static inline void topology_min_hops(const struct topology *t, int r, int target, int *local,
                                     int *global)
{
    if (t->hops_table) {
        uint8_t hops = t->hops_table[(size_t)target * (size_t)t->routers + (size_t)r];
        *local = hops & 15;
        *global = hops >> 4;
        return;
    }
    if (r == target) {
        *local = *global = 0;
        return;
    }
    t->ops->min_hops(t, r, target, local, global);
}
/* The routers of group g: topology_group_first_router(t, g) + [0, count); its nodes likewise. */
static inline int topology_group_routers(const struct topology *t, int g)
{
    return t->group_first_router[g + 1] - t->group_first_router[g];
}
static inline int topology_group_first_node(const struct topology *t, int g)
{
    return t->first_node[t->group_first_router[g]];
}
static inline int topology_group_nodes(const struct topology *t, int g)
{
    return (g + 1 < t->groups ? topology_group_first_node(t, g + 1) : t->nodes) -
           topology_group_first_node(t, g);
}
/* The router where the minimal path from r towards its counterpart in group g (the router at
 * r's index there) enters g (r itself if it is in g). */
int topology_entry_router(const struct topology *t, int r, int g);
/* The first global hop of the minimal path from r to target (in another group): the router
 * that takes it and its port there. */
void topology_min_global_hop(const struct topology *t, int r, int target, int *router, int *port);
/* The port of r's global link to group g, or -1 if r has none. */
int topology_global_port_to_group(const struct topology *t, int r, int g);

#endif
