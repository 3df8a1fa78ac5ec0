/* adversarial (ADV+i) and adversarial_consecutive (ADVc): every packet leaves the group, to a
 * random node of group g+i, or of one of the h groups g+1..g+h that router a-1 is linked to. */
#include <stdio.h>

#include "bounds_throughput.h"
#include "sim_config.h"
#include "topology.h"
#include "traffic.h"

struct adversarial_params {
    int offset;
};

/* ADV+i with i a multiple of the group count would send every packet to its own group: the
 * table's check when traffic.pattern chose it, and the pattern's for a job's params. */
static int adversarial_check(const struct sim_config *cfg, const void *params,
                             struct setting_issue *issue);
static int adversarial_check_params(const struct sim_config *cfg, const void *params,
                                    struct setting_issue *issue);

static const struct setting adversarial_rows[] = {
    SETTING_INT_ROW(struct adversarial_params, "offset", offset, 1, 1, SETTING_UNBOUNDED_INT,
                    "destination group offset i (ADV+i)"),
};

static const struct setting_table adversarial_settings = {
    "traffic",        "adversarial", adversarial_rows, 1, sizeof(struct adversarial_params),
    adversarial_check};

static uint32_t node_in_group(const struct topology *t, int group, struct rng *rng)
{
    return (uint32_t)topology_group_first_node(t, group) +
           rng_below(rng, (uint32_t)topology_group_nodes(t, group));
}

static uint32_t adversarial_destination(const struct pattern_run *run, uint32_t src,
                                        struct rng *rng)
{
    const struct topology *t = run->topo;
    int g = topology_group_of_node(t, (int)src);
    const struct adversarial_params *ap = run->params;
    return node_in_group(t, (g + ap->offset) % t->groups, rng);
}

/* The global links of group g's last router (R_out), h on the dragonfly. */
static int consecutive_span(const struct topology *t, int g)
{
    return topology_kind_of(t, t->group_first_router[g + 1] - 1)->count[PORT_GLOBAL];
}

static uint32_t adversarial_consecutive_destination(const struct pattern_run *run, uint32_t src,
                                                    struct rng *rng)
{
    const struct topology *t = run->topo;
    int g = topology_group_of_node(t, (int)src);
    int offset = 1 + (int)rng_below(rng, (uint32_t)consecutive_span(t, g));
    return node_in_group(t, (g + offset) % t->groups, rng);
}

/* Global links from group g to group d. */
static int links_between(const struct topology *t, int g, int d)
{
    int links = 0;
    for (int r = t->group_first_router[g]; r < t->group_first_router[g + 1]; r++) {
        const struct router_kind *k = topology_kind_of(t, r);
        for (int i = 0; i < k->count[PORT_GLOBAL]; i++)
            links += topology_group_of_router(
                         t, topology_neighbour(t, r, k->first[PORT_GLOBAL] + i)) == d;
    }
    return links;
}

static int adversarial_minimal_bound(const struct topology *t, const void *params,
                                     struct bounds_throughput *out)
{
    const struct adversarial_params *ap = params;
    int links = links_between(t, 0, ap->offset % t->groups);
    /* One link per group pair (the dragonfly) gives the literature's 1/(a*p); the cascade
     * joins two groups by several. */
    *out = (struct bounds_throughput){
        .load = (double)links / topology_group_nodes(t, 0),
        .formula = links == 1 ? "1/(a*p)" : "(links from g to g+i)/(nodes per group)",
        .reason = links == 1 ? "MIN under ADV+i: one global link per group pair"
                             : "MIN under ADV+i: the global links joining two groups"};
    return 0;
}

static int adversarial_consecutive_minimal_bound(const struct topology *t, const void *params,
                                                 struct bounds_throughput *out)
{
    (void)params;
    int span = consecutive_span(t, 0), links = 0;
    for (int i = 1; i <= span; i++)
        links += links_between(t, 0, i % t->groups);
    *out = (struct bounds_throughput){
        .load = (double)links / topology_group_nodes(t, 0),
        .formula = links == span ? "h/(a*p)" : "(links from g to g+1..g+h)/(nodes per group)",
        .reason = links == span ? "MIN under ADVc: the h global links of router a-1"
                                : "MIN under ADVc: the global links into the h groups it targets"};
    return 0;
}

static void adversarial_describe(const void *params, char *buf, size_t len)
{
    snprintf(buf, len, " +%d", ((const struct adversarial_params *)params)->offset);
}

const struct pattern_ops pattern_adversarial = {
    .name = "adversarial",
    .summary = "ADV+i: a random node of group g+i (i = traffic.offset)",
    .settings = &adversarial_settings,
    .check = adversarial_check_params,
    .destination = adversarial_destination,
    .minimal_bound = adversarial_minimal_bound,
    .describe = adversarial_describe,
};

const struct pattern_ops pattern_adversarial_consecutive = {
    .name = "adversarial_consecutive",
    .summary = "ADVc: a random node of one of the h groups g+1..g+h",
    .destination = adversarial_consecutive_destination,
    .minimal_bound = adversarial_consecutive_minimal_bound,
    .names_router_links = "the h groups linked to a dragonfly's router a-1",
};

static int adversarial_check(const struct sim_config *cfg, const void *params,
                             struct setting_issue *issue)
{
    if (pattern_registry[cfg->traffic.pattern] != &pattern_adversarial)
        return 0;
    return adversarial_check_params(cfg, params, issue);
}

static int adversarial_check_params(const struct sim_config *cfg, const void *params,
                                    struct setting_issue *issue)
{
    const struct adversarial_params *ap = params;
    struct topology_dimensions size;
    topology_dimensions(cfg, &size);
    if (ap->offset % size.groups != 0)
        return 0;
    issue->key = "traffic.offset";
    issue->alt = "traffic.pattern";
    snprintf(issue->text, sizeof issue->text,
             "%d is a multiple of the %lld groups, so adversarial traffic would stay in its own "
             "group (expected an offset that is not a multiple of the number of groups)",
             ap->offset, size.groups);
    return -1;
}
