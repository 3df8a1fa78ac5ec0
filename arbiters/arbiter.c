/* arbiter: the registry of arbitration policies. */
#include "arbiter.h"

#include "registry.h"
#include "sim_config.h"

const struct arbiter_ops *const arbiter_registry[] = {
    &arbiter_round_robin,
    &arbiter_age,
    NULL,
};

REGISTRY_DEFINE(arbiter, struct arbiter_ops, arbiter_registry)

const struct arbiter_ops *arbiter_of(const struct sim_config *cfg)
{
    return arbiter_registry[cfg->router.arbiter];
}

int arbiter_pick_output(const struct arbiter_ops *ops, uint64_t requests, int pointer,
                        const uint32_t *age, bool transit_priority, uint64_t transit_ports)
{
    /* Transit priority: injection inputs compete only when no transit input requests. */
    if (transit_priority && (requests & transit_ports))
        requests &= transit_ports;
    return ops->pick(requests, pointer, age);
}
