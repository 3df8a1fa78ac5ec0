/* registry: the functions every plug-in registry offers (routing mechanisms, arbiters,
 * patterns, topology kinds, ...), defined once for a NULL-terminated array of ops pointers
 * whose structs start with `const char *name`. */
#ifndef DFSIM_REGISTRY_H
#define DFSIM_REGISTRY_H

#include <string.h>

/* PREFIX_find(name): the ops named `name`, or NULL; PREFIX_names(): the names in registry
 * order, NULL-terminated; PREFIX_count(): how many. */
#define REGISTRY_DEFINE(PREFIX, OPS, REGISTRY)                                                     \
    const OPS *PREFIX##_find(const char *name)                                                     \
    {                                                                                              \
        for (int i = 0; REGISTRY[i]; i++)                                                          \
            if (strcmp(REGISTRY[i]->name, name) == 0)                                              \
                return REGISTRY[i];                                                                \
        return NULL;                                                                               \
    }                                                                                              \
    const char *const *PREFIX##_names(void)                                                        \
    {                                                                                              \
        static const char *names[sizeof REGISTRY / sizeof REGISTRY[0]];                            \
        for (size_t i = 0; REGISTRY[i]; i++)                                                       \
            names[i] = REGISTRY[i]->name;                                                          \
        return names;                                                                              \
    }                                                                                              \
    int PREFIX##_count(void)                                                                       \
    {                                                                                              \
        return (int)(sizeof REGISTRY / sizeof REGISTRY[0]) - 1;                                    \
    }

/* PREFIX_settings_at(i): the settings table of plug-in i (NULL when it has none), and
 * PREFIX_reads(cfg, t): whether the plug-in cfg chose (PREFIX_of) reads table t, for the schema
 * (struct setting_plugins). */
#define REGISTRY_SETTINGS(PREFIX, REGISTRY)                                                        \
    const struct setting_table *PREFIX##_settings_at(int i)                                        \
    {                                                                                              \
        return REGISTRY[i]->settings;                                                              \
    }                                                                                              \
    bool PREFIX##_reads(const struct sim_config *cfg, const struct setting_table *t)               \
    {                                                                                              \
        return PREFIX##_of(cfg)->settings == t;                                                    \
    }

#endif
