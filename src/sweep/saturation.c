/* saturation: bisection over offered load on the grid k / n (n = 1 / resolution). */
#include "saturation.h"

#include <math.h>

bool saturation_accepts(double offered, double accepted, double tolerance)
{
    return accepted >= (1 - tolerance) * offered;
}

int saturation_steps(double resolution)
{
    long n = lround(1 / resolution);
    return n < 1 ? 1 : n > 1000000 ? 1000000 : (int)n;
}

int saturation_search(double resolution, saturation_probe_fn probe, void *ctx, double *load,
                      int *probes)
{
    int n = saturation_steps(resolution), lo = 0, hi = n;
    bool accepts;
    *probes = 0;
    /* Invariant: load lo / n is accepted (0 trivially), hi / n is refused (or untested). */
    for (int k = n; k > lo;) {
        int rc = probe(ctx, (double)k / n, &accepts);
        if (rc != 0)
            return rc;
        ++*probes;
        if (accepts)
            lo = k;
        else
            hi = k;
        k = hi - lo > 1 ? lo + (hi - lo) / 2 : lo;
    }
    *load = (double)lo / n;
    return 0;
}
