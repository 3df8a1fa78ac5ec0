/* rng: xoshiro256** pseudo-random streams seeded with splitmix64; one stream per purpose. */
#ifndef DFSIM_RNG_H
#define DFSIM_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

/* Seeds a stream from the run seed and a stream number, so that every purpose gets an
 * independent, reproducible sequence. */
void rng_seed(struct rng *rng, uint64_t seed, uint64_t stream);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire's multiply-shift). */
static inline uint32_t rng_below(struct rng *rng, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Threshold for rng_bernoulli: probability p in [0, 1] as a 64-bit fixed-point bound. */
uint64_t rng_probability_threshold(double p);

/* True with the probability encoded by rng_probability_threshold (no floating point). */
static inline int rng_bernoulli(struct rng *rng, uint64_t threshold)
{
    return rng_next(rng) < threshold;
}

/* Bernoulli trials for i = from, from + 1, ... < end, in that order, until one succeeds:
 * returns its i, or end when none does. The same draws as calling rng_bernoulli for each i
 * in turn, with the state in locals: a loop that calls out per success (a traffic source
 * per node) would otherwise keep it in memory for every trial. */
static inline int rng_bernoulli_first(struct rng *rng, uint64_t threshold, int from, int end)
{
    struct rng local = *rng;
    int i = from;
    while (i < end && !rng_bernoulli(&local, threshold))
        i++;
    *rng = local;
    return i;
}

#endif
