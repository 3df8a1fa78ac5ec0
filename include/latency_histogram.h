/* latency_histogram: latencies counted in bins of one cycle, and their percentiles: a fixed
 * array (the network-wide window's, one bin per cycle of the run) or a histogram that grows
 * with the largest latency seen (a job's). Plain data below the core: the NICs fill them, the
 * observers read them. */
#ifndef DFSIM_LATENCY_HISTOGRAM_H
#define DFSIM_LATENCY_HISTOGRAM_H

#include <stdint.h>

/* Percentile q in (0, 100] of a histogram of `bins` one-cycle bins holding `samples` samples:
 * the smallest latency L such that at least q % of the samples are <= L (0 when there are no
 * samples). */
double latency_histogram_percentile(const uint32_t *histogram, uint32_t bins, uint64_t samples,
                                    double q);

/* Latencies, in a histogram that grows with the largest one seen (exact quantiles). */
struct latency_histogram {
    uint32_t *bins;
    uint32_t size;
    uint64_t count, sum, max, min;
};

/* Counts one latency; returns 0, or -1 when the histogram cannot grow (memory). */
int latency_histogram_add(struct latency_histogram *h, uint64_t latency);
/* Quantile q in (0, 100] (nearest rank). */
double latency_histogram_quantile(const struct latency_histogram *h, double q);
void latency_histogram_free(struct latency_histogram *h);

#endif
