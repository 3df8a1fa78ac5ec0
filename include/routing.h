/* routing: the table of routing mechanisms, their VC ladders (deadlock avoidance) and the
 * route decision each mechanism makes for a head packet at a router. */
#ifndef DFSIM_ROUTING_H
#define DFSIM_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include "packet.h"
#include "settings.h"
#include "topology.h"

struct sim;
struct sim_config;
struct bounds_throughput;

#define LADDER_MAX 8

/* A deadlock-avoidance ladder: the sequence of (link class, VC) a packet may climb. The VC of
 * the next hop is the first entry after the current position whose class matches. */
struct vc_ladder {
    int length;
    uint8_t port_class[LADDER_MAX]; /* PORT_LOCAL or PORT_GLOBAL */
    uint8_t vc[LADDER_MAX];
    int local_vcs, global_vcs;      /* VCs the ladder uses */
};

/* Index of the first entry at or after `from` with class `cls`, or -1. */
int ladder_next(const struct vc_ladder *ladder, int from, enum port_class cls);
/* Builds a ladder from a string like "l0 g0 l1"; returns 0 or -1 if malformed. */
int ladder_parse(struct vc_ladder *ladder, const char *text);

/* One routing decision: the output port and, for links to another router, the VC there and
 * the ladder position after the hop. `flags_set` and `target`/`misroute_group` are the
 * packet's routing state after the hop, committed only if the allocator grants it. */
struct route_choice {
    int out_port;
    int vc;
    uint8_t ladder_pos;
    uint8_t flags;
    /* 1 when the decision depends only on the packet and the router (no network state, no
     * randomness): the router then routes the head once and waits for its output instead
     * of asking again every cycle. */
    uint8_t is_static;
    int32_t target;
    int32_t misroute_group;
    uint32_t cycle; /* set by the router: the cycle a non-static decision was made */
};

struct routing_ops {
    const char *name; /* as written in configs */
    const char *summary;
    const struct setting_table *settings; /* its own settings (NULL if none) */
    /* The values of routing.global_policy it implements: bit p for enum global_policy p
     * (0: it reads no policy). */
    unsigned global_policies;
    /* The ladder this mechanism climbs for a config (VAL's depends on valiant_target). */
    void (*ladder)(const struct sim_config *cfg, struct vc_ladder *out);
    /* Optional: allocate per-run state (sim->routing_state); returns 0 or -1. */
    int (*init)(struct sim *sim);
    void (*destroy)(struct sim *sim);
    /* Optional: called when a packet is created (e.g. choose an intermediate). */
    void (*on_generate)(struct sim *sim, struct packet *pk);
    /* Optional: called once per cycle before the routers (e.g. saturation flags). */
    void (*on_cycle)(struct sim *sim);
    /* The decision for the head packet of (router, in_port). Returns 0 and fills `out`, or
     * -1 when the packet makes no request this cycle. */
    int (*route)(struct sim *sim, int router, int in_port, const struct packet *pk,
                 struct route_choice *out);
    /* Optional: the throughput bound of SPEC section 9 for the config's pattern on network t
     * (0), or -1 when the model states none. */
    int (*bound)(const struct sim_config *cfg, const struct topology *t,
                 struct bounds_throughput *out);
    /* true when route() reads only the packet and the topology (no network state, no random
     * numbers) and its decisions are static: the router then routes a packet as soon as it
     * becomes the head of its buffer, while its record is in the cache (same decision,
     * fewer cache misses). */
    bool pure;
};

extern const struct routing_ops *const routing_registry[]; /* NULL-terminated */
const struct routing_ops *routing_find(const char *name);
const char *const *routing_names(void);
int routing_count(void);
const struct setting_table *routing_settings_at(int i);
/* The mechanism a config chose. */
const struct routing_ops *routing_of(const struct sim_config *cfg);
/* The routing group's own setting: the mechanism. */
extern const struct setting_table routing_settings;

/* Helpers shared by mechanisms. */
/* Minimal choice from `router` towards router `target` (or the destination node's port when
 * router is the destination router and target is -1), on the ladder. */
int routing_minimal_choice(struct sim *sim, int router, const struct packet *pk, int target,
                           struct route_choice *out);

/* The bound of a Valiant-style mechanism (every packet crosses an intermediate group): under
 * uniform traffic 1/(2 - 1/(G-1)), from its two global links per packet. */
int routing_valiant_style_bound(const struct sim_config *cfg, const struct topology *t,
                                struct bounds_throughput *out);

/* Towards the packet's intermediate router while it has one (forgotten once reached), then
 * minimally to the destination: the path of VAL, VAL-any, oblivious and piggyback. */
int routing_via_target(struct sim *sim, int router, const struct packet *pk,
                       struct route_choice *out);

/* VC of a local misroute hop under OLM's reuse rule: the VC of the last local ladder entry at
 * or before the packet's position (l0 at the start); *ladder_pos gets the position after the
 * hop. */
int ladder_local_reuse(const struct vc_ladder *ladder, int position, uint8_t *ladder_pos);

extern const struct routing_ops routing_min, routing_valiant, routing_oblivious,
    routing_piggyback, routing_in_transit;

#endif
