/* round_robin: serve the first requester at or after the pointer, cyclically. */
#include "arbiter.h"

static int round_robin_pick(uint64_t requests, int pointer, const uint32_t *age)
{
    (void)age;
    return (pointer + __builtin_ctzll(arbiter_rotate(requests, pointer))) & 63;
}

const struct arbiter_ops arbiter_round_robin = {
    .name = "round_robin",
    .summary = "each arbiter serves the requester after the one it served last",
    .pick = round_robin_pick,
};
