/* routing_ugal: UGAL as on Aries (ugal) and with global knowledge (ugal_g): at the source
 * router a few minimal and nonminimal candidate paths are drawn at random and the least
 * costly wins, the nonminimal ones paying a bias. Exposed for the tests: the rule a config
 * gives (presets resolved), the candidate draw and the choice. */
#ifndef DFSIM_ROUTING_UGAL_H
#define DFSIM_ROUTING_UGAL_H

#include <stdbool.h>
#include <stdint.h>

#include "routing.h"
#include "ugal_preset.h"

#define UGAL_MAX_CANDIDATES 4 /* of each kind */

enum ugal_weight { UGAL_OCCUPANCY, UGAL_OCCUPANCY_X_HOPS };
enum ugal_bias_mode { UGAL_BIAS_CONSTANT, UGAL_BIAS_INCREASING };
/* routing.ugal_far_end: what a candidate leaving the group at another router adds to its cost
 * (README: Routing mechanisms). AUTO: the topology kind's choice (topology_ops.senses_far_end). */
enum ugal_far_end { UGAL_FAR_END_NONE, UGAL_FAR_END_CREDITS, UGAL_FAR_END_AUTO };
/* The choice a configured ugal_far_end makes on topology kind `kind`; a config's setting, and
 * its choice. */
int ugal_far_end_resolve(int configured, const struct topology_ops *kind);
int ugal_far_end_setting(const struct sim_config *cfg);
int ugal_far_end_of(const struct sim_config *cfg);

/* routing.ugal_intra_group (routers/ROUTING.md: Detours inside a group). AUTO: on under the
 * bias presets adaptive_0..adaptive_3 (Aries' adaptive modes detour inside a group), off
 * otherwise; on the cascade only. */
enum ugal_intra_group { UGAL_INTRA_FALSE, UGAL_INTRA_TRUE, UGAL_INTRA_AUTO };
/* Whether packets of preset `preset` (UGAL_PRESET_NONE: none in force) get intra-group
 * candidates under the configured choice, on a cascade. */
bool ugal_intra_group_resolve(int configured, int preset);

/* routing.ugal_preset min_hash and nmin_hash: which kind of path the hash picks. */
enum ugal_hashed { UGAL_HASHED_NONE, UGAL_HASHED_MIN, UGAL_HASHED_NONMIN };


/* The presets' biases, phits (README: Routing mechanisms; chosen on conf/aries.cfg): low =
 * one local buffer (adaptive_2), high = half a global buffer (adaptive_3), and the base of
 * adaptive_1's increasing bias (64, 128, 192 after 0, 1, 2 hops). */
#define UGAL_BIAS_LOW 32
#define UGAL_BIAS_HIGH 128
#define UGAL_BIAS_INCREASING_BASE 64

/* What decides, once the preset is applied. */
struct ugal_rule {
    int min_candidates, nonmin_candidates;
    int64_t bias;     /* phits added to a nonminimal candidate's cost */
    int mode;         /* enum ugal_bias_mode: increasing multiplies bias by 1 + hops taken */
    int weight;       /* enum ugal_weight */
    bool progressive; /* re-decided at each router of the source group while minimal */
    bool intra_group; /* cascade: nonminimal candidates inside a group (routing.ugal_intra_group) */
    int hashed; /* enum ugal_hashed: no choice, a path fixed by a hash (min_hash, nmin_hash) */
};

/* The rule of the routing settings `params` (struct of ugal's table: env->params). */
void ugal_rule_of(const void *params, struct ugal_rule *out);
/* The rule of packets of mode `mode` (a ugal_preset; UGAL_PRESET_NONE: the params' own). */
void ugal_rule_of_mode(const void *params, int mode, struct ugal_rule *out);

/* One candidate path from the deciding router: its first hop (port, VC and ladder position
 * after it), its intermediate router (-1: minimal) and its hop count from here; where it leaves
 * this group through a global port of another router of it, that port (routing_global_port;
 * -1 otherwise, or without far-end sensing) and the local hops from that router here. */
struct ugal_candidate {
    int32_t target;
    uint8_t port, vc, ladder_pos, hops;
    int32_t far_port;
    uint8_t far_hops;
};

/* The candidates of one packet at one router: minimal ones first. */
struct ugal_plan {
    uint32_t packet_id;
    uint8_t valid, n_min, n_nonmin;
    struct ugal_candidate c[2 * UGAL_MAX_CANDIDATES];
};

/* Draws the candidates of the packet at ctx's router (not its destination router), with the
 * routing stream: each minimal one a first hop uniform over topology_min_ports towards the
 * destination; each nonminimal one a router uniform over the groups other than this router's
 * and the destination's. When the destination is in this group: none, or with
 * rule->intra_group a router uniform over the others of this group (neither this router nor
 * the destination's). Returns 0, or -1 when a first hop has no entry left on the ladder. */
int ugal_draw(struct route_ctx *ctx, const struct packet *pk, const struct ugal_rule *rule,
              struct ugal_plan *plan);

/* A candidate along `port` towards `target` (-1: minimal) from ctx's router; 0 or -1 (off
 * the ladder). */
int ugal_candidate_make(const struct route_ctx *ctx, const struct packet *pk, int port, int target,
                        struct ugal_candidate *out);

/* What a choice weighed: the candidate taken, the least costly minimal one and the costs. */
struct ugal_weighing {
    int chosen, min;
    int64_t cost_min, cost_non, bias; /* cost_non: 0 without nonminimal candidates */
};

/* The index in plan->c of the candidate taken: the least costly minimal one (the first on
 * ties) unless the least costly nonminimal one plus the bias costs strictly less. Cost: the
 * occupancy (phits in use, as credits count them) of the first hop's next VC, plus the
 * far-end term of a candidate with a far_port (that port's occupancy as its router published
 * it, local_latency * far_hops cycles ago), times the hops with UGAL_OCCUPANCY_X_HOPS; with
 * global knowledge the occupancies of every hop's output along the whole path, read from each
 * router on it. ugal_weigh also says what it weighed. */
int ugal_choose(struct route_ctx *ctx, const struct packet *pk, const struct ugal_rule *rule,
                bool global_knowledge, const struct ugal_plan *plan);
void ugal_weigh(struct route_ctx *ctx, const struct packet *pk, const struct ugal_rule *rule,
                bool global_knowledge, const struct ugal_plan *plan, struct ugal_weighing *out);

/* Whether a nonminimal choice of ugal (not ugal_g) was phantom: its minimal rival, costed with
 * what latency-1 links would have told the router (fresh credits for the first hop, the far
 * end's fresh occupancy far_hops cycles ago), would have won: not cost_non + bias < that
 * cost. Needs the fresh credits (routing_sensing.fresh_credits). */
bool ugal_phantom(struct route_ctx *ctx, const struct ugal_rule *rule, const struct ugal_plan *plan,
                  const struct ugal_weighing *w);

/* The one candidate of the hashed presets (rule->hashed, at the packet's source router): with
 * h a hash of (source node, destination node, message tag: route_message), UGAL_HASHED_MIN
 * the minimal first hop h picks among topology_min_ports; UGAL_HASHED_NONMIN the intermediate
 * router h picks where ugal_draw would draw one (between groups; inside a group with
 * rule->intra_group), else minimal as UGAL_HASHED_MIN. Reads no network state and no random
 * stream. Returns 0, or -1 off the ladder. */
int ugal_hashed_candidate(struct route_ctx *ctx, const struct packet *pk,
                          const struct ugal_rule *rule, struct ugal_candidate *out);

#endif
