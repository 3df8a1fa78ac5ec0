/* placement: which nodes of the machine a job gets, and in which order (rank i runs on the
 * i-th node of the placement). The machine is described abstractly, so this module knows no
 * topology; plug-ins are looked up by name in placement_registry. */
#ifndef DFSIM_PLACEMENT_H
#define DFSIM_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "settings.h"

/* The machine as placements see it (the simulator fills it from its topology). Routers of a
 * group are consecutive and so are the nodes of a router; a router may have no node (a spine). */
struct placement_machine {
    int nodes, routers, groups;
    const int32_t *node_router;        /* [nodes] */
    const int32_t *router_group;       /* [routers] */
    const int32_t *router_first_node;  /* [routers] */
    const int32_t *router_nodes;       /* [routers]: how many nodes (0 for a spine router) */
    const int32_t *group_first_router; /* [groups + 1] */
};

/* What a job asks for. Only the fields its placement reads matter (placement_ops.keys). */
struct placement_params {
    const char *job;   /* the job's name, for messages */
    int nodes;         /* how many ranks */
    int first_node;    /* contiguous: where to start looking (the caller's default: right
                        * after the previous contiguous job, see placement_end) */
    bool exact;        /* contiguous: first_node was given, so the job takes exactly the nodes
                        * first_node .. first_node + nodes - 1 (overlapping a job is an error) */
    const int *groups; /* groups: the groups to use, in order */
    int group_count;
    int per_router;       /* groups: nodes taken on each router with nodes (0: all of them) */
    const char *file;     /* file: the allocation file (absolute, or relative to base_dir) */
    const char *base_dir; /* the config's folder; NULL or "" = the working directory */
};

/* Why a placement failed: a one-line message and the job key at fault, "nodes" unless the
 * placement names another of its keys (first_node, groups, per_router, allocation_file). */
struct placement_error {
    char text[512];
    const char *key;
};

/* The placements' own settings, as their tables store them in a job. */
struct placement_contiguous_settings {
    int first_node; /* -1: right after the previous contiguous job */
};
struct placement_groups_settings {
    struct setting_int_list groups;
    int per_router; /* the first per_router nodes of each router (0: all) */
};
struct placement_file_settings {
    char allocation_file[SETTING_STRING_LEN];
};

struct placement_ops {
    const char *name;    /* as written in configs */
    const char *summary; /* one line for the README */
    /* Its own settings, stored in the job's arena (NULL: none; the config rejects the others'
     * settings for it). */
    const struct setting_table *settings;
    /* Fills rank_node[0 .. p->nodes - 1] with distinct nodes not in `taken` (the caller has
     * checked that p->nodes free nodes exist). Returns 0, or -1 with err's text filled (and
     * its key, when not "nodes"). */
    int (*place)(const struct placement_machine *m, const struct placement_params *p,
                 const bool *taken, struct rng *rng, int32_t *rank_node,
                 struct placement_error *err);
};

extern const struct placement_ops *const placement_registry[]; /* NULL-terminated */
const struct placement_ops *placement_find(const char *name);
/* Registry plug-in i's table (NULL: none), for the schema. */
const struct setting_table *placement_settings_at(int i);
const char *const *placement_names(void);
int placement_count(void);

extern const struct placement_ops placement_contiguous, placement_random_nodes,
    placement_random_routers, placement_random_groups, placement_groups, placement_file;

/* Places one job: checks that it fits in the nodes `taken` leaves free ("job 'app': needs 648
 * nodes but only 500 are free"), runs the placement, and marks its nodes in `taken`
 * ([m->nodes]; jobs never share a node). rank_node gets p->nodes entries. Random placements
 * draw from rng only (the caller seeds it from sim.seed and the job's index). Returns 0, or -1
 * with a one-line message and the key at fault in err (taken unchanged). */
int placement_place(const struct placement_ops *ops, const struct placement_machine *m,
                    const struct placement_params *p, bool *taken, struct rng *rng,
                    int32_t *rank_node, struct placement_error *err);

/* One past the highest node of a placement: the default first_node of the next contiguous
 * job. */
int placement_end(const int32_t *rank_node, int nodes);

#endif
