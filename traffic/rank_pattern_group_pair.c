/* group_pair: for a job spread over several groups, the rank with local index x in its group
 * (the x-th of the job's ranks there, in rank order) sends to the rank with index x in another
 * of the job's groups, drawn uniformly per message: the background of the Dragonfly+
 * interference study. */
#include <stdio.h>
#include <stdlib.h>

#include "job_traffic.h"
#include "placement.h"

struct group_pair {
    int groups;      /* the job's groups */
    int per_group;   /* ranks in each of them */
    int32_t *slot;   /* [nranks]: which of the job's groups (0 .. groups-1, first seen first) */
    int32_t *local;  /* [nranks]: index among the job's ranks in that group */
    int32_t *member; /* [groups * per_group]: rank of (slot, local) */
};

static void group_pair_free(struct group_pair *gp)
{
    if (!gp)
        return;
    free(gp->slot);
    free(gp->local);
    free(gp->member);
    free(gp);
}

static int32_t group_pair_group_of(const struct rank_pattern *pat, int32_t rank)
{
    const struct placement_machine *m = pat->machine;
    return m->router_group[m->node_router[pat->rank_node[rank]]];
}

/* Numbers the job's groups in order of first rank and each rank within its group; fills
 * count[slot] and the group id of each slot. Returns the number of groups. */
static int group_pair_number(const struct rank_pattern *pat, struct group_pair *gp,
                             int32_t *slot_of_group, int32_t *count, int32_t *group_of_slot)
{
    int groups = 0;
    for (int g = 0; g < pat->machine->groups; g++)
        slot_of_group[g] = -1;
    for (int32_t r = 0; r < pat->nranks; r++) {
        int32_t g = group_pair_group_of(pat, r);
        if (slot_of_group[g] < 0) {
            group_of_slot[groups] = g;
            count[groups] = 0;
            slot_of_group[g] = groups++;
        }
        gp->slot[r] = slot_of_group[g];
        gp->local[r] = count[gp->slot[r]]++;
    }
    return groups;
}

static int group_pair_check(const struct rank_pattern *pat, int groups, const int32_t *count,
                            const int32_t *group_of_slot, char *err, size_t err_len)
{
    if (groups < 2) {
        snprintf(err, err_len,
                 "pattern group_pair: the job's %d ranks are all in group %d (expected ranks in "
                 "at least 2 groups)",
                 pat->nranks, group_of_slot[0]);
        return -1;
    }
    for (int s = 1; s < groups; s++)
        if (count[s] != count[0]) {
            snprintf(err, err_len,
                     "pattern group_pair: the job has %d ranks in group %d but %d in group %d "
                     "(expected the same number in each of its groups)",
                     count[0], group_of_slot[0], count[s], group_of_slot[s]);
            return -1;
        }
    return 0;
}

static int group_pair_build(struct rank_pattern *pat, struct group_pair *gp, char *err,
                            size_t err_len)
{
    int n = pat->nranks, machine_groups = pat->machine->groups;
    int32_t *slot_of_group = malloc((size_t)machine_groups * sizeof *slot_of_group);
    int32_t *count = malloc((size_t)n * sizeof *count);
    int32_t *group_of_slot = malloc((size_t)n * sizeof *group_of_slot);
    int status = -1;
    if (!slot_of_group || !count || !group_of_slot) {
        snprintf(err, err_len, "pattern group_pair: out of memory");
        goto done;
    }
    gp->groups = group_pair_number(pat, gp, slot_of_group, count, group_of_slot);
    if (group_pair_check(pat, gp->groups, count, group_of_slot, err, err_len) != 0)
        goto done;
    gp->per_group = count[0];
    for (int32_t r = 0; r < n; r++)
        gp->member[gp->slot[r] * gp->per_group + gp->local[r]] = r;
    status = 0;
done:
    free(slot_of_group);
    free(count);
    free(group_of_slot);
    return status;
}

static int group_pair_init(struct rank_pattern *pat, struct rng *rng, char *err, size_t err_len)
{
    (void)rng;
    if (!pat->rank_node || !pat->machine) {
        snprintf(err, err_len, "pattern group_pair needs the job's placement and the machine");
        return -1;
    }
    size_t n = (size_t)pat->nranks;
    struct group_pair *gp = calloc(1, sizeof *gp);
    if (gp) {
        gp->slot = malloc(n * sizeof *gp->slot);
        gp->local = malloc(n * sizeof *gp->local);
        gp->member = malloc(n * sizeof *gp->member);
    }
    if (!gp || !gp->slot || !gp->local || !gp->member) {
        group_pair_free(gp);
        snprintf(err, err_len, "pattern group_pair: out of memory");
        return -1;
    }
    if (group_pair_build(pat, gp, err, err_len) != 0) {
        group_pair_free(gp);
        return -1;
    }
    pat->state = gp;
    return 0;
}

static void group_pair_destroy(struct rank_pattern *pat)
{
    group_pair_free(pat->state);
}

static int32_t group_pair_destination(const struct rank_pattern *pat, int32_t src, struct rng *rng)
{
    const struct group_pair *gp = pat->state;
    int32_t other = (int32_t)rng_below(rng, (uint32_t)gp->groups - 1);
    if (other >= gp->slot[src])
        other++;
    return gp->member[other * gp->per_group + gp->local[src]];
}

const struct rank_pattern_ops rank_pattern_group_pair = {
    .name = "group_pair",
    .summary = "the x-th rank of a group sends to the x-th rank of another of the job's groups",
    .init = group_pair_init,
    .destroy = group_pair_destroy,
    .destination = group_pair_destination,
};
