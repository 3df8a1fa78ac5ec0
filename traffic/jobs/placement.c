/* placement: the registry, the checks every placement shares, and the placements that take
 * nodes in order or at random (contiguous, random_nodes, random_routers, random_groups,
 * groups). The allocation file lives in placement_file.c. */
#include "placement.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

const struct placement_ops *const placement_registry[] = {
    &placement_contiguous,
    &placement_random_nodes,
    &placement_random_routers,
    &placement_random_groups,
    &placement_groups,
    &placement_file,
    NULL,
};

REGISTRY_DEFINE(placement, struct placement_ops, placement_registry)

static int placement_free_nodes(const struct placement_machine *m, const bool *taken)
{
    int free_nodes = 0;
    for (int n = 0; n < m->nodes; n++)
        free_nodes += !taken[n];
    return free_nodes;
}

int placement_place(const struct placement_ops *ops, const struct placement_machine *m,
                    const struct placement_params *p, bool *taken, struct rng *rng,
                    int32_t *rank_node, struct placement_error *err)
{
    err->key = "nodes";
    if (p->nodes < 1) {
        snprintf(err->text, sizeof err->text, "job '%s': nodes is %d (expected at least 1)", p->job,
                 p->nodes);
        return -1;
    }
    int free_nodes = placement_free_nodes(m, taken);
    if (p->nodes > free_nodes) {
        snprintf(err->text, sizeof err->text,
                 "job '%s': needs %d nodes but only %d of the machine's %d are free", p->job,
                 p->nodes, free_nodes, m->nodes);
        return -1;
    }
    if (ops->place(m, p, taken, rng, rank_node, err) != 0)
        return -1;
    for (int i = 0; i < p->nodes; i++) {
        /* A placement that breaks these is a bug, not bad input. */
        assert(rank_node[i] >= 0 && rank_node[i] < m->nodes);
        assert(!taken[rank_node[i]]);
        taken[rank_node[i]] = true;
    }
    return 0;
}

int placement_end(const int32_t *rank_node, int nodes)
{
    int end = 0;
    for (int i = 0; i < nodes; i++)
        if (rank_node[i] + 1 > end)
            end = rank_node[i] + 1;
    return end;
}

/* ---- contiguous ------------------------------------------------------------------------- */

/* The lowest-numbered free nodes at or after first_node, in node order. Nodes of earlier jobs
 * inside that stretch are skipped (as a batch scheduler's "next free nodes" would) unless the
 * config gave first_node: then the stretch must be free (jobs never share a node). The search
 * does not wrap around to node 0. */
static int contiguous_place(const struct placement_machine *m, const struct placement_params *p,
                            const bool *taken, struct rng *rng, int32_t *rank_node,
                            struct placement_error *err)
{
    (void)rng;
    if (p->exact)
        err->key = "first_node";
    if (p->first_node < 0 || p->first_node >= m->nodes) {
        if (p->exact)
            snprintf(err->text, sizeof err->text,
                     "job '%s': first_node %d is not a node (expected 0..%d)", p->job,
                     p->first_node, m->nodes - 1);
        else
            snprintf(err->text, sizeof err->text,
                     "job '%s': the previous contiguous job ends at the machine's last node "
                     "and contiguous does not wrap (expected a first_node, or another "
                     "placement)",
                     p->job);
        return -1;
    }
    int filled = 0;
    for (int n = p->first_node; n < m->nodes && filled < p->nodes; n++) {
        if (taken[n] && p->exact) {
            snprintf(err->text, sizeof err->text,
                     "job '%s': nodes %d..%d overlap an earlier job at node %d (expected jobs "
                     "that never share a node: another first_node, or none to take the next "
                     "free nodes)",
                     p->job, p->first_node, p->first_node + p->nodes - 1, n);
            return -1;
        }
        if (!taken[n])
            rank_node[filled++] = n;
    }
    if (filled < p->nodes) {
        snprintf(err->text, sizeof err->text,
                 "job '%s': needs %d contiguous nodes from node %d on but only %d are free there "
                 "(expected a smaller job or an earlier first_node; contiguous does not wrap)",
                 p->job, p->nodes, p->first_node, filled);
        return -1;
    }
    return 0;
}

static const char *const contiguous_keys[] = {"first_node", NULL};

const struct placement_ops placement_contiguous = {
    .name = "contiguous",
    .summary = "the next free nodes from first_node on, in node order",
    .keys = contiguous_keys,
    .place = contiguous_place,
};

/* ---- random_nodes ----------------------------------------------------------------------- */

/* The first k draws of a Fisher-Yates shuffle of list[0 .. count - 1], in place: list[0 .. k-1]
 * is a uniform random sample in random order. */
static void placement_shuffle_prefix(int32_t *list, int count, int k, struct rng *rng)
{
    for (int i = 0; i < k; i++) {
        int j = i + (int)rng_below(rng, (uint32_t)(count - i));
        int32_t tmp = list[i];
        list[i] = list[j];
        list[j] = tmp;
    }
}

/* Free nodes drawn uniformly; ranks follow the draw order, so the rank-to-node map is random
 * too (not sorted by node id). */
static int random_nodes_place(const struct placement_machine *m, const struct placement_params *p,
                              const bool *taken, struct rng *rng, int32_t *rank_node,
                              struct placement_error *err)
{
    int32_t *free_list = malloc((size_t)m->nodes * sizeof *free_list);
    if (!free_list) {
        snprintf(err->text, sizeof err->text, "job '%s': out of memory placing %d nodes", p->job,
                 p->nodes);
        return -1;
    }
    int count = 0;
    for (int n = 0; n < m->nodes; n++)
        if (!taken[n])
            free_list[count++] = n;
    placement_shuffle_prefix(free_list, count, p->nodes, rng);
    for (int i = 0; i < p->nodes; i++)
        rank_node[i] = free_list[i];
    free(free_list);
    return 0;
}

const struct placement_ops placement_random_nodes = {
    .name = "random_nodes",
    .summary = "free nodes drawn at random; ranks in draw order",
    .place = random_nodes_place,
};

/* ---- random_routers, random_groups ------------------------------------------------------ */

/* A unit of whole-unit placements: a router or a group. */
struct placement_units {
    const struct placement_machine *m;
    bool groups;
};

static int placement_unit_count(const struct placement_units *u)
{
    return u->groups ? u->m->groups : u->m->routers;
}

/* The routers [*first, *end) of a unit. */
static void placement_unit_routers(const struct placement_units *u, int unit, int *first, int *end)
{
    *first = u->groups ? u->m->group_first_router[unit] : unit;
    *end = u->groups ? u->m->group_first_router[unit + 1] : unit + 1;
}

/* How many nodes the unit has, or -1 when one of them is taken. */
static int placement_unit_free_size(const struct placement_units *u, int unit, const bool *taken)
{
    int first, end, size = 0;
    placement_unit_routers(u, unit, &first, &end);
    for (int r = first; r < end; r++)
        for (int k = 0; k < u->m->router_nodes[r]; k++) {
            if (taken[u->m->router_first_node[r] + k])
                return -1;
            size++;
        }
    return size;
}

/* Appends the unit's nodes in node order until `need` ranks are filled. */
static void placement_unit_append(const struct placement_units *u, int unit, int32_t *rank_node,
                                  int *filled, int need)
{
    int first, end;
    placement_unit_routers(u, unit, &first, &end);
    for (int r = first; r < end; r++)
        for (int k = 0; k < u->m->router_nodes[r] && *filled < need; k++)
            rank_node[(*filled)++] = u->m->router_first_node[r] + k;
}

/* Units whose every node is free (and which have nodes), drawn at random; each drawn unit gives
 * all its nodes in node order, and the last one only the first nodes the job still needs (the
 * rest of it stays free for later jobs). */
static int placement_random_units(const struct placement_units *u, const struct placement_params *p,
                                  const bool *taken, struct rng *rng, int32_t *rank_node,
                                  struct placement_error *err)
{
    const char *what = u->groups ? "groups" : "routers";
    int units = placement_unit_count(u);
    int32_t *eligible = malloc((size_t)units * sizeof *eligible);
    if (!eligible) {
        snprintf(err->text, sizeof err->text, "job '%s': out of memory placing %d nodes", p->job,
                 p->nodes);
        return -1;
    }
    int count = 0;
    long capacity = 0;
    for (int unit = 0; unit < units; unit++) {
        int size = placement_unit_free_size(u, unit, taken);
        if (size > 0) {
            eligible[count++] = unit;
            capacity += size;
        }
    }
    if (capacity < p->nodes) {
        snprintf(err->text, sizeof err->text,
                 "job '%s': needs %d nodes on whole free %s but the %d entirely free %s hold "
                 "only %ld nodes",
                 p->job, p->nodes, what, count, what, capacity);
        free(eligible);
        return -1;
    }
    int filled = 0;
    for (int i = 0; filled < p->nodes; i++) {
        placement_shuffle_prefix(eligible + i, count - i, 1, rng);
        placement_unit_append(u, eligible[i], rank_node, &filled, p->nodes);
    }
    free(eligible);
    return 0;
}

static int random_routers_place(const struct placement_machine *m, const struct placement_params *p,
                                const bool *taken, struct rng *rng, int32_t *rank_node,
                                struct placement_error *err)
{
    struct placement_units u = {m, false};
    return placement_random_units(&u, p, taken, rng, rank_node, err);
}

static int random_groups_place(const struct placement_machine *m, const struct placement_params *p,
                               const bool *taken, struct rng *rng, int32_t *rank_node,
                               struct placement_error *err)
{
    struct placement_units u = {m, true};
    return placement_random_units(&u, p, taken, rng, rank_node, err);
}

const struct placement_ops placement_random_routers = {
    .name = "random_routers",
    .summary = "whole free routers drawn at random (the last one partly if needed)",
    .place = random_routers_place,
};

const struct placement_ops placement_random_groups = {
    .name = "random_groups",
    .summary = "whole free groups drawn at random (the last one partly if needed)",
    .place = random_groups_place,
};

/* ---- groups ----------------------------------------------------------------------------- */

/* "[0, 1, 2]", shortened to "[0, 1, ...]" when it does not fit in len (>= 8) bytes. */
static void placement_format_groups(const struct placement_params *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[used++] = '[';
    for (int i = 0; i < p->group_count; i++) {
        char item[16];
        int n = snprintf(item, sizeof item, "%s%d", i ? ", " : "", p->groups[i]);
        if (used + (size_t)n + sizeof ", ...]" > len) {
            snprintf(buf + used, len - used, "%s...]", i ? ", " : "");
            return;
        }
        memcpy(buf + used, item, (size_t)n);
        used += (size_t)n;
    }
    snprintf(buf + used, len - used, "]");
}

/* How many nodes the job takes on router r: per_router (its first ones), or all of them. */
static int groups_share(const struct placement_machine *m, const struct placement_params *p, int r)
{
    return p->per_router > 0 ? p->per_router : m->router_nodes[r];
}

/* Every router with nodes in group g has per_router of them, and the nodes the job would take
 * there are free. */
static int groups_check_group(const struct placement_machine *m, const struct placement_params *p,
                              int g, const bool *taken, struct placement_error *err)
{
    for (int r = m->group_first_router[g]; r < m->group_first_router[g + 1]; r++) {
        if (m->router_nodes[r] == 0)
            continue;
        if (m->router_nodes[r] < p->per_router) {
            err->key = "per_router";
            snprintf(err->text, sizeof err->text,
                     "job '%s': router %d of group %d has %d nodes, fewer than per_router %d "
                     "(expected per_router at most %d)",
                     p->job, r, g, m->router_nodes[r], p->per_router, m->router_nodes[r]);
            return -1;
        }
        for (int k = 0; k < groups_share(m, p, r); k++)
            if (taken[m->router_first_node[r] + k]) {
                if (p->per_router > 0)
                    snprintf(err->text, sizeof err->text,
                             "job '%s': node %d (router %d of group %d) belongs "
                             "to an earlier job",
                             p->job, m->router_first_node[r] + k, r, g);
                else
                    snprintf(err->text, sizeof err->text,
                             "job '%s': group %d holds nodes of an earlier job", p->job, g);
                return -1;
            }
    }
    return 0;
}

/* Every listed group exists, once, and none of the nodes the job takes there belongs to an
 * earlier job. */
static int groups_check_list(const struct placement_machine *m, const struct placement_params *p,
                             const bool *taken, struct placement_error *err)
{
    err->key = "groups";
    if (p->group_count < 1) {
        snprintf(err->text, sizeof err->text,
                 "job '%s': placement groups needs a non-empty list groups (expected e.g. "
                 "groups = [0, 1])",
                 p->job);
        return -1;
    }
    if (p->per_router < 0) {
        err->key = "per_router";
        snprintf(err->text, sizeof err->text,
                 "job '%s': per_router is %d (expected 0: every node, or more)", p->job,
                 p->per_router);
        return -1;
    }
    for (int i = 0; i < p->group_count; i++) {
        int g = p->groups[i];
        if (g < 0 || g >= m->groups) {
            snprintf(err->text, sizeof err->text,
                     "job '%s': group %d does not exist (expected 0..%d)", p->job, g,
                     m->groups - 1);
            return -1;
        }
        for (int j = 0; j < i; j++)
            if (p->groups[j] == g) {
                snprintf(err->text, sizeof err->text, "job '%s': group %d is listed twice", p->job,
                         g);
                return -1;
            }
        if (groups_check_group(m, p, g, taken, err) != 0)
            return -1;
    }
    return 0;
}

/* The nodes the job takes in group g: every node, or the first per_router of each router. */
static long groups_size(const struct placement_machine *m, const struct placement_params *p, int g)
{
    long size = 0;
    for (int r = m->group_first_router[g]; r < m->group_first_router[g + 1]; r++)
        size += m->router_nodes[r] ? groups_share(m, p, r) : 0;
    return size;
}

/* Every node of the listed groups (or the first per_router nodes of each of their routers
 * with nodes), in list order and node order within a group: the job's `nodes` must be exactly
 * their number, so a typo in either is an error, not a silently partial or overfull group. */
static int groups_place(const struct placement_machine *m, const struct placement_params *p,
                        const bool *taken, struct rng *rng, int32_t *rank_node,
                        struct placement_error *err)
{
    (void)rng;
    if (groups_check_list(m, p, taken, err) != 0)
        return -1;
    long total = 0;
    for (int i = 0; i < p->group_count; i++)
        total += groups_size(m, p, p->groups[i]);
    if (total != p->nodes) {
        err->key = "nodes";
        char list[96], share[64] = "every node";
        placement_format_groups(p, list, sizeof list);
        if (p->per_router > 0)
            snprintf(share, sizeof share, "%d nodes per router with nodes", p->per_router);
        snprintf(err->text, sizeof err->text,
                 "job '%s': groups %s hold %ld nodes, not the job's %d (expected nodes equal to "
                 "%s of the listed groups)",
                 p->job, list, total, p->nodes, share);
        return -1;
    }
    int filled = 0;
    for (int i = 0; i < p->group_count; i++) {
        int g = p->groups[i];
        for (int r = m->group_first_router[g]; r < m->group_first_router[g + 1]; r++)
            for (int k = 0; m->router_nodes[r] && k < groups_share(m, p, r); k++)
                rank_node[filled++] = m->router_first_node[r] + k;
    }
    return 0;
}

static const char *const groups_keys[] = {"groups", "per_router", NULL};

const struct placement_ops placement_groups = {
    .name = "groups",
    .summary = "every node of the listed groups (or per_router nodes of each router), in "
               "list order",
    .keys = groups_keys,
    .place = groups_place,
};
