/* pattern: the registry of destination patterns. */
#include <string.h>

#include "traffic.h"

const struct pattern_ops *const pattern_registry[] = {
    &pattern_uniform,
    &pattern_adversarial,
    &pattern_adversarial_consecutive,
    &pattern_bit_complement,
    &pattern_permutation,
    NULL,
};

const struct pattern_ops *pattern_find(const char *name)
{
    for (int i = 0; pattern_registry[i]; i++)
        if (strcmp(pattern_registry[i]->name, name) == 0)
            return pattern_registry[i];
    return NULL;
}

const char *const *pattern_names(void)
{
    static const char *names[sizeof pattern_registry / sizeof pattern_registry[0]];
    for (size_t i = 0; pattern_registry[i]; i++)
        names[i] = pattern_registry[i]->name;
    return names;
}
