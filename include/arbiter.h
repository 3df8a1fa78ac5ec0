/* arbiter: how a router picks one request among several (input arbiters choose a VC, output
 * arbiters choose an input port). Requests are bit sets of indices below 64. */
#ifndef DFSIM_ARBITER_H
#define DFSIM_ARBITER_H

#include <stdbool.h>
#include <stdint.h>

struct arbiter_ops {
    const char *name; /* as written in configs */
    const char *summary;
    /* Picks one index of `requests` (non-zero). `pointer` is the round-robin start (the index
     * after the last one served); `age[i]` is the generation cycle of request i's packet. */
    int (*pick)(uint64_t requests, int pointer, const uint32_t *age);
    bool uses_age; /* false: the router need not look up the packets' ages (a cache miss) */
};

extern const struct arbiter_ops arbiter_round_robin, arbiter_age;
extern const struct arbiter_ops *const arbiter_registry[]; /* NULL-terminated */
const struct arbiter_ops *arbiter_find(const char *name);
const char *const *arbiter_names(void);
int arbiter_count(void);
struct sim_config;
/* The arbiter a config chose. */
const struct arbiter_ops *arbiter_of(const struct sim_config *cfg);

/* An output arbiter: with transit_priority, requests from transit ports (local and global
 * inputs) are served before those of injection ports; within a class, the arbiter's order. */
int arbiter_pick_output(const struct arbiter_ops *ops, uint64_t requests, int pointer,
                        const uint32_t *age, bool transit_priority, uint64_t transit_ports);

/* Rotates a request set so that bit `pointer` becomes bit 0 (round-robin order). */
static inline uint64_t arbiter_rotate(uint64_t requests, int pointer)
{
    return pointer ? (requests >> pointer) | (requests << (64 - pointer)) : requests;
}

#endif
