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

/* A geometric law: the failures before the first success of Bernoulli trials of probability
 * p, drawn at once (one draw per success instead of one per trial). */
struct rng_geometric {
    double p;     /* in [0, 1] */
    double log_q; /* log(1 - p), for 0 < p < 1 */
};

struct rng_geometric rng_geometric_law(double p);
/* The number of failures (0: the first trial succeeds), by inverting the law with one draw;
 * UINT64_MAX when p = 0 or the number exceeds 2^62. p = 1 draws nothing. */
uint64_t rng_geometric(struct rng *rng, struct rng_geometric law);

#endif
