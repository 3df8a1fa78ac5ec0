/* arbiter: the registry of arbitration policies. */
#include "arbiter.h"

#include <string.h>

const struct arbiter_ops *const arbiter_registry[] = {
    &arbiter_round_robin,
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
