/* age: serve the request whose packet is oldest (smallest generation cycle, an ideal global
 * clock); among equally old packets, the first in round-robin order from the pointer. Costs
 * one step per request. */
#include "arbiter.h"

static int age_pick(uint64_t requests, int pointer, const uint32_t *age)
{
    int best = -1;
    uint32_t best_age = 0;
    for (uint64_t rotated = arbiter_rotate(requests, pointer); rotated; rotated &= rotated - 1) {
        int index = (pointer + __builtin_ctzll(rotated)) & 63;
        if (best < 0 || age[index] < best_age) {
            best = index;
            best_age = age[index];
        }
    }
    return best;
}

const struct arbiter_ops arbiter_age = {
    .name = "age",
    .summary = "the oldest packet wins (global clock); ties go round robin",
    .pick = age_pick,
    .uses_age = true,
};
