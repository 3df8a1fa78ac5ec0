/* steady_state: MSER's truncation point and Jain's index (see steady_state.h). */
#include "steady_state.h"

int steady_state_mser(const double *y, int n)
{
    if (n < 2)
        return 0;
    /* Sums over y[d..n), shifted by the overall mean against cancellation; d moves forward
     * dropping one batch at a time. */
    double shift = 0.0;
    for (int j = 0; j < n; j++)
        shift += y[j];
    shift /= n;
    double sum = 0.0, squares = 0.0;
    for (int j = 0; j < n; j++) {
        sum += y[j] - shift;
        squares += (y[j] - shift) * (y[j] - shift);
    }
    double best = 0.0;
    int best_d = 0;
    for (int d = 0; d <= n / 2; d++) {
        double k = (double)(n - d);
        double deviation = squares - sum * sum / k; /* sum of (y_j - mean_d)^2 */
        double stat = (deviation > 0 ? deviation : 0.0) / (k * k);
        if (d == 0 || stat < best) {
            best = stat;
            best_d = d;
        }
        sum -= y[d] - shift;
        squares -= (y[d] - shift) * (y[d] - shift);
    }
    return best_d;
}

double steady_state_jain(const uint64_t *x, int n)
{
    double sum = 0.0, squares = 0.0;
    for (int i = 0; i < n; i++) {
        sum += (double)x[i];
        squares += (double)x[i] * (double)x[i];
    }
    return squares > 0 ? sum * sum / ((double)n * squares) : 1.0;
}
