/* link_rate: a link's bandwidth in phits per cycle as an exact fraction num/den, so that a
 * link of 1.2 phits/cycle moves exactly 6 phits every 5 cycles however long the run. Time on
 * a link is counted in ticks of 1/num cycle: a phit takes den ticks. */
#ifndef DFSIM_LINK_RATE_H
#define DFSIM_LINK_RATE_H

#include <stdint.h>

#define LINK_RATE_MAX_DEN 1000 /* bandwidths are given with at most 3 decimals */
#define LINK_RATE_MAX 64.0     /* phits per cycle */

struct link_rate {
    uint32_t num, den; /* bandwidth = num / den phits per cycle, in lowest terms */
};

/* The exact fraction of a bandwidth in (0, LINK_RATE_MAX] with at most 3 decimals; returns 0,
 * or -1 when the value has no such fraction. */
int link_rate_from_bandwidth(double bandwidth, struct link_rate *out);

/* Cycles a packet of `phits` occupies the link, rounded up: the head-to-tail span of its
 * phits, plus one. */
static inline uint32_t link_rate_cycles(struct link_rate rate, uint32_t phits)
{
    uint64_t ticks = (uint64_t)phits * rate.den;
    return (uint32_t)((ticks + rate.num - 1) / rate.num);
}

/* Whole cycles of a packet on the link at least (consecutive packets on one link are this
 * far apart or more). */
static inline uint32_t link_rate_min_spacing(struct link_rate rate, uint32_t phits)
{
    return (uint32_t)((uint64_t)phits * rate.den / rate.num);
}

#endif
