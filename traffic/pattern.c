/* pattern: the registry of destination patterns and the traffic group's own settings. */
#include <stdio.h>

#include "registry.h"
#include "sim_config.h"
#include "traffic.h"

const struct pattern_ops *const pattern_registry[] = {
    &pattern_uniform,
    &pattern_adversarial,
    &pattern_adversarial_consecutive,
    &pattern_bit_complement,
    &pattern_permutation,
    NULL,
};

REGISTRY_DEFINE(pattern, struct pattern_ops, pattern_registry)
REGISTRY_SETTINGS(pattern, pattern_registry)

const struct pattern_ops *pattern_of(const struct sim_config *cfg)
{
    return pattern_registry[cfg->traffic.pattern];
}

/* A node creates at most one packet per cycle, and never more than its link carries. */
static int traffic_check(const struct sim_config *cfg, const void *params,
                         struct setting_issue *issue)
{
    const struct config_traffic *traffic = params;
    double most = cfg->links.bandwidth_node < traffic->packet_size ? cfg->links.bandwidth_node
                                                                   : traffic->packet_size;
    if (traffic->load <= most)
        return 0;
    issue->key = "traffic.load";
    issue->alt = "links.bandwidth_node";
    snprintf(issue->text, sizeof issue->text,
             "%.15g is more than a node can offer (expected at most links.bandwidth_node = %.15g "
             "phits/cycle, and one packet per cycle)",
             traffic->load, most);
    return -1;
}

static const struct setting traffic_rows[] = {
    SETTING_PLUGIN_ROW(struct config_traffic, "pattern", pattern, "uniform", pattern_names,
                       "destination pattern"),
    SETTING_NUMBER(struct config_traffic, SETTING_DOUBLE, "load", load, 0.4, 0, 64,
                   "offered load, phits/(node*cycle), at most links.bandwidth_node"),
    SETTING_INT_ROW(struct config_traffic, "packet_size", packet_size, 8, 1, 4096,
                    "packet size, phits (every buffer must hold one packet)"),
    SETTING_INT_ROW(struct config_traffic, "phit_bytes", phit_bytes, 16, 1, 65536,
                    "bytes of a phit: a job's message of B bytes is ceil(B / phit_bytes) phits"),
};

const struct setting_table traffic_settings = {
    "traffic", NULL, traffic_rows, (int)(sizeof traffic_rows / sizeof traffic_rows[0]), 0,
    traffic_check};
