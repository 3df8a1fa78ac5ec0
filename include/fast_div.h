/* fast_div: division of 32-bit unsigned numbers by a divisor fixed at run time, as one
 * multiplication: q = (m * n) >> 64 with m = ceil(2^64 / d) is exact for every 32-bit n and
 * every d >= 2 (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019).
 * A hardware division takes tens of cycles; node -> router -> group lookups do several per
 * hop. */
#ifndef DFSIM_FAST_DIV_H
#define DFSIM_FAST_DIV_H

#include <stdint.h>

struct fast_div {
    uint64_t m;
    uint32_t d; /* the divisor; 0: none set */
};

/* The divisor d (>= 2; other values give an unset divisor, d = 0). */
static inline struct fast_div fast_div_make(uint32_t d)
{
    struct fast_div f = {0, 0};
    if (d >= 2) {
        f.m = UINT64_MAX / d + 1;
        f.d = d;
    }
    return f;
}

static inline uint32_t fast_div_quotient(struct fast_div f, uint32_t n)
{
    return (uint32_t)(((unsigned __int128)f.m * n) >> 64);
}

static inline uint32_t fast_div_remainder(struct fast_div f, uint32_t n)
{
    return n - fast_div_quotient(f, n) * f.d;
}

#endif
