/* arbiter: the registry of arbitration policies. */
#include "arbiter.h"

#include <string.h>

const struct arbiter_ops *const arbiter_registry[] = {
    &arbiter_round_robin,
    &arbiter_age,
    NULL,
};

const struct arbiter_ops *arbiter_find(const char *name)
{
    for (int i = 0; arbiter_registry[i]; i++)
        if (strcmp(arbiter_registry[i]->name, name) == 0)
            return arbiter_registry[i];
    return NULL;
}

const char *const *arbiter_names(void)
{
    static const char *names[sizeof arbiter_registry / sizeof arbiter_registry[0]];
    for (size_t i = 0; arbiter_registry[i]; i++)
        names[i] = arbiter_registry[i]->name;
    return names;
}

int arbiter_pick_output(const struct arbiter_ops *ops, uint64_t requests, int pointer,
                        const uint32_t *age, bool transit_priority, uint64_t transit_ports)
{
    /* Transit priority: injection inputs compete only when no transit input requests. */
    if (transit_priority && (requests & transit_ports))
        requests &= transit_ports;
    return ops->pick(requests, pointer, age);
}
