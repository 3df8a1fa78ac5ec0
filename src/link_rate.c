/* link_rate: bandwidths as exact fractions. */
#include "link_rate.h"

#include <math.h>

static uint32_t link_rate_gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

int link_rate_from_bandwidth(double bandwidth, struct link_rate *out)
{
    if (!(bandwidth > 0) || bandwidth > LINK_RATE_MAX)
        return -1;
    for (uint32_t den = 1; den <= LINK_RATE_MAX_DEN; den++) {
        double num = round(bandwidth * den);
        if (num >= 1 && fabs(num / den - bandwidth) < 1e-9 * bandwidth) {
            uint32_t n = (uint32_t)num, g = link_rate_gcd(n, den);
            *out = (struct link_rate){n / g, den / g};
            return 0;
        }
    }
    return -1;
}
