/* latency_histogram: latency histograms and their percentiles (see latency_histogram.h). */
#include "latency_histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rank of the q-th percentile among `samples` sorted samples: ceil(q/100 * samples), at least
 * 1. q * samples is computed before the division so that whole-number results (q = 95 of 100
 * samples) stay exact instead of becoming 95.00000000000001 and rounding up. */
static uint64_t latency_histogram_rank(uint64_t samples, double q)
{
    double rank = ceil(q * (double)samples / 100.0);
    if (rank < 1.0)
        return 1;
    if (rank >= (double)samples)
        return samples;
    return (uint64_t)rank;
}

double latency_histogram_percentile(const uint32_t *histogram, uint32_t bins, uint64_t samples,
                                    double q)
{
    if (samples == 0 || bins == 0)
        return 0.0;
    uint64_t rank = latency_histogram_rank(samples, q);
    uint64_t cumulative = 0;
    for (uint32_t latency = 0; latency < bins; latency++) {
        cumulative += histogram[latency];
        if (cumulative >= rank)
            return (double)latency;
    }
    return (double)(bins - 1); /* histogram holds fewer samples than claimed */
}

int latency_histogram_add(struct latency_histogram *h, uint64_t latency)
{
    if (latency >= h->size) {
        uint64_t size = h->size ? h->size : 1024;
        while (size <= latency)
            size *= 2;
        uint32_t *bins = realloc(h->bins, (size_t)size * sizeof *bins);
        if (!bins)
            return -1;
        memset(bins + h->size, 0, (size_t)(size - h->size) * sizeof *bins);
        h->bins = bins;
        h->size = (uint32_t)size;
    }
    h->bins[latency]++;
    if (!h->count || latency < h->min)
        h->min = latency;
    if (latency > h->max)
        h->max = latency;
    h->count++;
    h->sum += latency;
    return 0;
}

double latency_histogram_quantile(const struct latency_histogram *h, double q)
{
    return latency_histogram_percentile(h->bins, h->size, h->count, q);
}

void latency_histogram_free(struct latency_histogram *h)
{
    free(h->bins);
    h->bins = NULL;
}
