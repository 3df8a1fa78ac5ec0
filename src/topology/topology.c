/* topology: the registry of topology kinds and the settings they share. */
#include "topology.h"

#include <limits.h>
#include <stddef.h>

#include "config.h"
#include "registry.h"

const struct topology_ops *const topology_registry[] = {
    &topology_dragonfly,
    NULL,
};

REGISTRY_DEFINE(topology, struct topology_ops, topology_registry)
REGISTRY_SETTINGS(topology, topology_registry)

const char *const topology_arrangement_names[] = {"palmtree", "consecutive", NULL};

static const struct setting topology_rows[] = {
    SETTING_PLUGIN_ROW(struct config_topology, "kind", kind, "dragonfly", topology_names,
                       "topology kind"),
    SETTING_INT_ROW(struct config_topology, "p", p, 6, 1, SETTING_UNBOUNDED_INT,
                    "nodes per router"),
    SETTING_INT_ROW(struct config_topology, "h", h, 6, 1, SETTING_UNBOUNDED_INT,
                    "global links per router"),
    SETTING_CHOICE_ROW(struct config_topology, "arrangement", arrangement, "palmtree",
                       topology_arrangement_names, "global link arrangement"),
};

const struct setting_table topology_settings = {
    "topology", NULL, topology_rows, (int)(sizeof topology_rows / sizeof topology_rows[0]), 0,
    NULL};

const struct topology_ops *topology_of(const struct sim_config *cfg)
{
    return topology_registry[cfg->topology.kind];
}

void topology_dimensions(const struct sim_config *cfg, struct topology_dimensions *out)
{
    topology_of(cfg)->dimensions(cfg, out);
}

int topology_create(struct topology *t, const struct sim_config *cfg, char *err, int err_len)
{
    return topology_registry[cfg->topology.kind]->build(t, cfg, err, err_len);
}
