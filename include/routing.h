/* routing: the table of routing mechanisms, their VC ladders (deadlock avoidance), and the
 * narrow context a mechanism decides in: what a router can know (its ports' classes, the
 * credits and occupancy of each output VC, the packet's hop record, the topology's queries,
 * the routing random stream), never the simulator itself. */
#ifndef DFSIM_ROUTING_H
#define DFSIM_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include "far_end.h"
#include "packet.h"
#include "port_state.h"
#include "rng.h"
#include "settings.h"
#include "topology.h"

struct sim_config;
struct bounds_throughput;

#define LADDER_MAX 16

/* A deadlock-avoidance ladder: the sequence of (link class, VC) a packet may climb. The VC of
 * the next hop is the first entry after the current position whose class matches. */
struct vc_ladder {
    int length;
    uint8_t port_class[LADDER_MAX]; /* PORT_LOCAL or PORT_GLOBAL */
    uint8_t vc[LADDER_MAX];
    int local_vcs, global_vcs; /* VCs the ladder uses */
};

/* Whether the config's topology is the cascade (Aries). Its minimal paths take up to two
 * local hops per group, dimension-ordered (row, then column: min_port's order), so a ladder
 * there gives each group's dimension-ordered segment two entries on one VC, "l0 l0"; a
 * segment that may start with either dimension needs two VCs (README, Routing mechanisms). */
static inline bool routing_on_cascade(const struct sim_config *cfg)
{
    return topology_of(cfg) == &topology_cascade;
}

/* Index of the first entry at or after `from` with class `cls`, or -1 (inline: every hop of
 * every mechanism asks it). */
static inline int ladder_next(const struct vc_ladder *ladder, int from, enum port_class cls)
{
    for (int e = from; e < ladder->length; e++)
        if (ladder->port_class[e] == cls)
            return e;
    return -1;
}
/* Builds a ladder from a string like "l0 g0 l1"; returns 0 or -1 if malformed. */
int ladder_parse(struct vc_ladder *ladder, const char *text);
/* Where a minimal path that starts at ladder position `position` (a path turning at its
 * intermediate router) climbs from: when the last hop was local, past the local entries right
 * after it on the same VC. Consecutive local entries on one VC ("l1 l1": two hops of a
 * dimension-ordered segment, row then column) belong to one segment; a new segment may start
 * in either dimension, so it must not share that VC. No-op on ladders without such pairs. */
int ladder_segment_start(const struct vc_ladder *ladder, int position);

/* One routing decision: the output port and, for links to another router, the VC there and
 * the ladder position after the hop. `flags` and `target`/`misroute_group` are the packet's
 * routing state after the hop, committed only if the allocator grants it. */
struct route_choice {
    int out_port;
    int vc;
    uint8_t ladder_pos;
    uint8_t flags;
    /* Set by the router, not by mechanisms: the decision read no network state, clock,
     * random number or mechanism state, so it stands for as long as the packet is the head
     * of its buffer. */
    uint8_t reusable;
    /* Set by the router: a minimal port towards the packet's destination from this router
     * when the decision found one (routing_minimal_choice, or a mechanism choosing among
     * several minimal ports), else -1 (it asks the topology). */
    int8_t dst_min_port;
    int32_t target;
    int32_t misroute_group;
    uint32_t cycle; /* set by the router: the cycle the decision was made */
};

/* A router's output state as its allocator sees it this cycle. */
struct router_view {
    int router;
    uint32_t now;
    const struct router_kind *kind;
    const int32_t *credits; /* phits free behind [vc_offset[port] + vc] */
    /* Fresh credits, as latency-1 links would have returned them (a credit counts one cycle
     * after its buffer space is freed), are credits + credits_ahead: the phits freed that long
     * ago whose credits are still on their way (routing_sensing.fresh_credits; else NULL). */
    const int32_t *credits_ahead;
    const int *vc_offset;           /* per port: its first VC among the router's */
    const struct port_state *ports; /* per port */
    const int *capacity;            /* per port: phits per input VC downstream */
    unsigned output_capacity;       /* packets per output buffer */
};

/* routing.min_choice: how a packet picks among several minimal ports (AUTO: the topology
 * kind's choice, topology_ops.adaptive_min_choice; resolved when the network is built). */
enum min_choice { MIN_CHOICE_HASH, MIN_CHOICE_OCCUPANCY, MIN_CHOICE_AUTO };

/* The choice a config's routing.min_choice makes on topology kind `ops`. */
static inline int min_choice_resolve(int configured, const struct topology_ops *ops)
{
    if (configured != MIN_CHOICE_AUTO)
        return configured;
    return ops->adaptive_min_choice ? MIN_CHOICE_OCCUPANCY : MIN_CHOICE_HASH;
}

/* What a mechanism senses beyond its own router's credits, which the network keeps only for a
 * mechanism that asks (routing_ops.sensing). */
struct routing_sensing {
    /* A history of every global port's occupancy (phits in use over its VCs, as its router's
     * credits count them), sampled every far_end_step cycles (routing_env.far_end). */
    bool far_end;
    uint32_t far_end_step;
    /* Credits as latency-1 links would return them (router_view.credits_ahead) and, with
     * far_end, their history sampled every cycle (routing_env.far_end_fresh). */
    bool fresh_credits;
};

/* What a mechanism has for a whole run. */
struct routing_env {
    const struct topology *topo;
    const struct vc_ladder *ladder;
    const void *params; /* the mechanism's settings (its table) */
    int global_policy;  /* enum global_policy of routing.global_policy */
    int packet_size;
    int vcs[PORT_CLASSES];          /* VCs per port, by class */
    int link_latency[PORT_CLASSES]; /* cycles, by class */
    struct rng *rng;                /* the routing stream */
    void *state;                    /* the mechanism's own (init/destroy) */
    unsigned modes; /* bit m: some packet may carry packet.mode m (jobs' routing modes) */
    int min_choice; /* enum min_choice */
    /* The view of any router now, for the per-cycle hook (PiggyBack's flags); `views` holds
     * every router's without its `now`, for hooks that read many routers each cycle. */
    void (*view)(const struct routing_env *env, int router, struct router_view *out);
    const struct router_view *views;
    const void *owner; /* for view(): the simulator */
    /* The packets, for their message tags (route_message); NULL where no network owns them. */
    const struct packet_pool *pool;
    /* What the mechanism senses (routing_ops.sensing) and, else NULL, the global ports'
     * occupancy histories, as credits and as fresh credits count them, indexed by
     * routing_global_port. */
    struct routing_sensing sensing;
    const struct far_end *far_end, *far_end_fresh;
    const uint32_t *global_port_base; /* per router: the index of its first global port */
};

/* The index of global port `port` of router r among the network's global ports. */
static inline uint32_t routing_global_port(const struct routing_env *env, int r, int port)
{
    return topology_global_port_index(env->topo, env->global_port_base, r, port);
}

/* One decision: the router, the input the packet is at, and whether the decision read
 * anything that changes while the packet waits. The readers below set `adaptive`; the
 * router reuses a decision only when it is not. */
struct route_ctx {
    const struct routing_env *env;
    int router;
    const struct router_kind *kind; /* its ports' classes */
    /* Its output state, for the readers below (a decision that reads none never touches it:
     * one cache line less per hop); its `now` is not set. */
    const struct router_view *view;
    uint32_t now;
    int in_port;
    bool adaptive;
    int dst_min_port; /* see route_choice; routing_minimal_choice (or MIN, FPAR) records it */
};

/* Phits in use of VC vc behind output port (the downstream buffer plus what this router's
 * output buffer holds for it), as counted by credits. */
static inline int route_occupancy(struct route_ctx *c, int port, int vc)
{
    c->adaptive = true;
    const struct router_view *v = c->view;
    return v->capacity[port] - v->credits[v->vc_offset[port] + vc];
}
/* The same as latency-1 links would count it (routing_sensing.fresh_credits). */
static inline int route_fresh_occupancy(struct route_ctx *c, int port, int vc)
{
    c->adaptive = true;
    const struct router_view *v = c->view;
    int at = v->vc_offset[port] + vc;
    return v->capacity[port] - v->credits[at] - v->credits_ahead[at];
}
/* The occupancy global port `gport` (routing_global_port) of another router had at the end of
 * cycle `cycle`, as its router published it (routing_sensing.far_end); from `fresh`, as its
 * fresh credits counted it, every cycle. */
static inline int route_far_end(struct route_ctx *c, uint32_t gport, int64_t cycle, bool fresh)
{
    c->adaptive = true;
    return far_end_value(fresh ? c->env->far_end_fresh : c->env->far_end, gport, cycle);
}
static inline int route_credits(struct route_ctx *c, int port, int vc)
{
    c->adaptive = true;
    return c->view->credits[c->view->vc_offset[port] + vc];
}
/* The output's crossbar is free and its buffer has room for a packet. */
static inline bool route_output_free(struct route_ctx *c, int port)
{
    c->adaptive = true;
    const struct port_state *ps = &c->view->ports[port];
    return ps->output_busy_until <= c->now && ps->output.count < c->view->output_capacity;
}
/* The last hop, from the destination router to the packet's node: the choice of every
 * mechanism there (no VC ladder entry: the ladder position stays `position`). */
static inline void route_to_node(const struct topology *t, const struct packet *pk, int position,
                                 struct route_choice *out)
{
    out->flags = pk->flags;
    out->target = pk->target;
    out->misroute_group = pk->misroute_group;
    out->ladder_pos = (uint8_t)position;
    out->vc = 0;
    out->out_port = topology_node_port(t, (int)pk->dst);
}
/* The router's view, for a mechanism that reads its adaptive state in a loop (view_occupancy):
 * marks the decision adaptive once. */
static inline const struct router_view *route_adaptive_view(struct route_ctx *c)
{
    c->adaptive = true;
    return c->view;
}
/* The packet's message tag (the workload's, packet_pool.tags), 0 without messages or for a
 * packet outside the pool (a test's own record). A fixed property of the packet: reading it
 * leaves the decision reusable. */
static inline uint32_t route_message(const struct route_ctx *c, const struct packet *pk)
{
    const struct packet_pool *pool = c->env->pool;
    if (!pool || !pool->tags)
        return 0;
    uintptr_t at = (uintptr_t)pk - (uintptr_t)pool->packets;
    if (at >= (uintptr_t)pool->capacity * sizeof *pk)
        return 0;
    return pool->tags[at / sizeof *pk];
}
static inline struct rng *route_rng(struct route_ctx *c)
{
    c->adaptive = true;
    return c->env->rng;
}
static inline void *route_state(struct route_ctx *c)
{
    c->adaptive = true;
    return c->env->state;
}
/* The view of any router now: global knowledge no router has in time (ugal_g's bound). */
static inline void route_view_of(struct route_ctx *c, int router, struct router_view *out)
{
    c->adaptive = true;
    c->env->view(c->env, router, out);
}
/* Phits per input VC behind a port of the router (fixed: no adaptivity). */
static inline int route_capacity(const struct route_ctx *c, int port)
{
    return c->view->capacity[port];
}
/* The same readers on a router view (for per-cycle hooks). */
static inline int view_occupancy(const struct router_view *v, int port, int vc)
{
    return v->capacity[port] - v->credits[v->vc_offset[port] + vc];
}

struct routing_ops {
    const char *name; /* as written in configs */
    const char *summary;
    const struct setting_table *settings; /* its own settings (NULL if none) */
    /* The values of routing.global_policy it implements: bit p for enum global_policy p
     * (0: it reads no policy). */
    unsigned global_policies;
    /* The ladder this mechanism climbs for a config (VAL's depends on valiant_target). */
    void (*ladder)(const struct sim_config *cfg, struct vc_ladder *out);
    /* Optional: allocate per-run state (env->state); returns 0 or -1. */
    int (*init)(struct routing_env *env);
    void (*destroy)(struct routing_env *env);
    /* Optional: what the mechanism senses beyond its router's credits under a config (none
     * when absent). */
    void (*sensing)(const struct sim_config *cfg, struct routing_sensing *out);
    /* Optional: called when a packet is created (e.g. choose an intermediate). */
    void (*on_generate)(struct routing_env *env, struct packet *pk);
    /* Optional: called once per cycle before the routers (e.g. saturation flags). */
    void (*on_cycle)(struct routing_env *env, uint64_t cycle);
    /* Optional: the credits of output VC (router, port, vc) are now `credits` (a grant took a
     * packet's worth, or one came back), for a mechanism that keeps a summary of them. */
    void (*on_credits)(struct routing_env *env, int router, int port, int vc, int32_t credits);
    /* The decision for the head packet of (ctx->router, ctx->in_port). Returns 0 and
     * fills `out`, or -1 when the packet has no route on the ladder. */
    int (*route)(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out);
    /* Optional: the throughput bound for the config's pattern on network t (0), or -1 when the
     * model states none (src/METRICS.md#theoretical-bounds). */
    int (*bound)(const struct sim_config *cfg, const struct topology *t,
                 struct bounds_throughput *out);
    /* true when route() never reads the adaptive state above: the router then routes a
     * packet as soon as it becomes the head of its buffer, while its record is in the cache
     * (same decision, fewer cache misses). */
    bool pure;
    /* true when it chooses between minimal and nonminimal candidates packet by packet: the
     * result then counts its nonminimal and phantom decisions (misrouted.*). */
    bool reports_decisions;
    /* Its rule changes with a packet's mode (ugal_preset.h): jobs may route with their own. */
    bool reads_packet_modes;
    /* Defined on a topology kind with leaf routers, routers without a global link
     * (dragonfly_plus); the others misroute from the source router's own global links. */
    bool on_leaf_routers;
    /* There, only where every router with global links reaches every other group: its path
     * leaves the intermediate group from the router it entered at. */
    bool needs_full_reach;
};

extern const struct routing_ops *const routing_registry[]; /* NULL-terminated */
const struct routing_ops *routing_find(const char *name);
const char *const *routing_names(void);
int routing_count(void);
const struct setting_table *routing_settings_at(int i);
/* Whether the mechanism cfg chose reads table t (struct setting_plugins). */
bool routing_reads(const struct sim_config *cfg, const struct setting_table *t);
/* The mechanism a config chose. */
const struct routing_ops *routing_of(const struct sim_config *cfg);
/* The routing group's own setting: the mechanism. */
extern const struct setting_table routing_settings;
/* What the mechanism cfg chose needs of the router (struct setting_plugins.needs): its
 * ladder's VCs. */
int routing_needs(const struct sim_config *cfg, struct setting_needs *out);

/* The global misrouting policies (routing.global_policy) that choose where a nonminimal path
 * leaves the source group; the misrouting mechanisms share the setting. */
enum global_policy { POLICY_CRG, POLICY_RRG, POLICY_NRG, POLICY_MM };

/* routing.global_policy, shared by the mechanisms that misroute (each says which policies it
 * implements: routing_ops.global_policies). */
struct misroute_policy_params {
    int global_policy; /* enum global_policy */
};
extern const struct setting_table misroute_policy_settings;


/* Helpers shared by mechanisms. */
/* Minimal choice from the router towards router `target` (or the destination node's port
 * when the router is the destination router and target is -1), on the ladder. */
int routing_minimal_choice(struct route_ctx *ctx, const struct packet *pk, int target,
                           struct route_choice *out);

/* routing.min_choice = "occupancy": among `ports` (several minimal ports), the one whose next
 * VC on the ladder from `position` is least occupied relative to its capacity, ties at random
 * (an adaptive decision); -1 when none of them is on the ladder. */
int routing_least_occupied(struct route_ctx *ctx, uint64_t ports, int position);

/* Towards the packet's intermediate router while it has one (forgotten once reached), then
 * minimally to the destination: the path of VAL, VAL-any, oblivious and piggyback. The path
 * from the intermediate starts a new segment of the ladder (ladder_segment_start). */
int routing_via_target(struct route_ctx *ctx, const struct packet *pk, struct route_choice *out);

/* VC of a local misroute hop under OLM's reuse rule: the VC of the last local ladder entry at
 * or before the packet's position (l0 at the start); *ladder_pos gets the position after the
 * hop. */
int ladder_local_reuse(const struct vc_ladder *ladder, int position, uint8_t *ladder_pos);

/* The bound of a Valiant-style mechanism (every packet crosses an intermediate group): under
 * uniform traffic 1/(2 - 1/(G-1)), from its two global links per packet. */
int routing_valiant_style_bound(const struct sim_config *cfg, const struct topology *t,
                                struct bounds_throughput *out);

extern const struct routing_ops routing_min, routing_valiant, routing_oblivious, routing_piggyback,
    routing_in_transit, routing_ugal, routing_ugal_g, routing_fpar;

#endif
