/* far_end: the recent past of every global port's occupancy, for the routers of its group that
 * learn it late (UGAL's far-end congestion, routing.ugal_far_end). A port's value changes only
 * when its router takes or gets back credits, so it is recorded then, not every cycle: each
 * port keeps a ring of samples, sample k holding the value at the end of cycle k * step, and a
 * change fills the samples skipped since the last one with the value they kept. Reading the
 * value of an earlier cycle costs a few loads. */
#ifndef DFSIM_FAR_END_H
#define DFSIM_FAR_END_H

#include <assert.h>
#include <stdint.h>

struct far_end {
    uint32_t step;   /* cycles between samples (routing.ugal_far_end_refresh; 1 = every cycle) */
    uint32_t mask;   /* samples kept per port, minus 1 (a power of two) */
    uint32_t ports;  /* global ports of the network */
    int32_t *values; /* [port * (mask + 1) + sample & mask] */
    uint32_t *last;  /* [port]: the latest sample written: it holds the current value */
};

/* A history of `ports` ports, all 0 until they change, sampled every `step` cycles (>= 1),
 * from which values up to `max_delay` cycles old are read. Returns 0 or -1 (memory). */
int far_end_init(struct far_end *h, uint32_t ports, uint32_t step, uint32_t max_delay);
void far_end_free(struct far_end *h);

/* The value of port `port` changes by `delta` at cycle `now`: from the end of cycle now on (its
 * sample of the first multiple of step at or after now, and later ones until it changes again).
 * Calls for a port come in non-decreasing `now`. */
static inline void far_end_change(struct far_end *h, uint32_t port, uint32_t now, int32_t delta)
{
    int32_t *ring = &h->values[(uint64_t)port * (h->mask + 1)];
    uint32_t last = h->last[port];
    uint32_t sample = h->step == 1 ? now : (now + h->step - 1) / h->step;
    int32_t value = ring[last & h->mask];
    if (sample != last) {
        /* The samples skipped kept the value (a whole turn at most: older ones are never read),
         * filled as one or two runs of the ring (loops the compiler vectorises). */
        uint32_t from = sample - last > h->mask ? sample - h->mask : last + 1;
        uint32_t at = from & h->mask, n = sample - from, first = h->mask + 1 - at;
        first = n < first ? n : first;
        for (uint32_t k = 0; k < first; k++)
            ring[at + k] = value;
        for (uint32_t k = 0; k < n - first; k++)
            ring[k] = value;
        h->last[port] = sample;
    }
    ring[sample & h->mask] = value + delta;
}

/* The value port `port` had at the end of cycle `cycle`, as published: at the end of the last
 * multiple of step at or before it (0 before the run). `cycle` is before the current cycle and
 * at most max_delay cycles before it. */
static inline int32_t far_end_value(const struct far_end *h, uint32_t port, int64_t cycle)
{
    if (cycle < 0)
        return 0;
    const int32_t *ring = &h->values[(uint64_t)port * (h->mask + 1)];
    uint32_t last = h->last[port];
    uint32_t sample = h->step == 1 ? (uint32_t)cycle : (uint32_t)(cycle / h->step);
    assert(sample > last || last - sample <= h->mask); /* within the ring's turn */
    return ring[(sample > last ? last : sample) & h->mask];
}

/* Fetches the line far_end_value(h, port, cycle) will read (no effect on results). Always
 * inlined: GCC takes a function that only prefetches for a pure one and drops its calls. */
static inline __attribute__((always_inline)) void far_end_prefetch(const struct far_end *h,
                                                                   uint32_t port, int64_t cycle)
{
    uint32_t sample = cycle < 0 ? 0 : h->step == 1 ? (uint32_t)cycle : (uint32_t)(cycle / h->step);
    __builtin_prefetch(&h->values[(uint64_t)port * (h->mask + 1) + (sample & h->mask)]);
}

/* The current value of port `port` (the invariant recount compares it with the credits). */
static inline int32_t far_end_current(const struct far_end *h, uint32_t port)
{
    return h->values[(uint64_t)port * (h->mask + 1) + (h->last[port] & h->mask)];
}

#endif
