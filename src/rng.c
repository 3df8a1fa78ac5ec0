/* rng: seeding and probability thresholds for the xoshiro256** streams. */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *rng, uint64_t seed, uint64_t stream)
{
    uint64_t state = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&state);
}

uint64_t rng_probability_threshold(double p)
{
    if (!(p > 0.0))
        return 0;
    if (p >= 1.0)
        return UINT64_MAX;
    /* ldexp is exact; the product is below 2^64 because p < 1. */
    return (uint64_t)ldexp(p, 64);
}

struct rng_geometric rng_geometric_law(double p)
{
    p = p > 1.0 ? 1.0 : p > 0.0 ? p : 0.0;
    return (struct rng_geometric){.p = p, .log_q = p > 0.0 && p < 1.0 ? log1p(-p) : 0.0};
}

uint64_t rng_geometric(struct rng *rng, struct rng_geometric law)
{
    if (law.p >= 1.0)
        return 0;
    if (law.p <= 0.0)
        return UINT64_MAX;
    double u = (double)((rng_next(rng) >> 11) + 1) * 0x1.0p-53; /* (0, 1] */
    double failures = floor(log(u) / law.log_q);
    return failures < 0x1.0p62 ? (uint64_t)failures : UINT64_MAX;
}
