/* bounds: SPEC section 9 throughput bounds and the UN/MIN zero-load latency. */
#include "bounds.h"

#include "config.h"
#include "routing.h"
#include "topology.h"

int bounds_throughput(const struct sim_config *cfg, const struct topology *t,
                      struct bounds_throughput *out)
{
    const struct routing_ops *routing = routing_registry[cfg->routing.mechanism];
    return routing->bound ? routing->bound(cfg, t, out) : -1;
}

/* Latency of one packet between two nodes of routers r and s on the minimal path. */
static double bounds_pair_latency(const struct sim_config *cfg, const struct topology *t, int r,
                                  int s)
{
    int local, global;
    topology_min_hops(t, r, s, &local, &global);
    return 2.0 * cfg->links.injection_latency + (double)(local + global + 1) * cfg->router.latency +
           (double)local * cfg->links.local_latency + (double)global * cfg->links.global_latency +
           cfg->traffic.packet_size - 1;
}

/* Router of group d where the global link from router r's group lands. */
static int bounds_entry_router(const struct topology *t, int r, int d)
{
    int gw = t->gateway[topology_group_of_router(t, r) * t->groups + d];
    return t->neighbour[gw * t->radix + t->global_port_to_group[gw * t->groups + d]];
}

/* Sum of the latencies from the p nodes of router r to every other node, and their count.
 * Routers of another group other than the link's landing router all cost the same (one more
 * local hop), as do the other routers of r's own group, so one of each class is computed. */
static void bounds_router_sum(const struct sim_config *cfg, const struct topology *t, int r,
                              double *sum, double *pairs)
{
    double p = t->p, a = t->a;
    int g = topology_group_of_router(t, r), other = g * t->a + (r % t->a + 1) % t->a;
    *sum = p * (p - 1) * bounds_pair_latency(cfg, t, r, r);
    *pairs = p * (p - 1);
    if (t->a > 1) {
        *sum += (a - 1) * p * p * bounds_pair_latency(cfg, t, r, other);
        *pairs += (a - 1) * p * p;
    }
    for (int d = 0; d < t->groups; d++) {
        if (d == g)
            continue;
        int entry = bounds_entry_router(t, r, d), beside = d * t->a + (entry % t->a + 1) % t->a;
        *sum += p * p * bounds_pair_latency(cfg, t, r, entry);
        if (t->a > 1)
            *sum += (a - 1) * p * p * bounds_pair_latency(cfg, t, r, beside);
        *pairs += a * p * p;
    }
}

double bounds_zero_load_latency(const struct sim_config *cfg, const struct topology *t)
{
    double sum = 0, pairs = 0;
    for (int r = 0; r < t->routers; r++) {
        double s, n;
        bounds_router_sum(cfg, t, r, &s, &n);
        sum += s;
        pairs += n;
    }
    return pairs > 0 ? sum / pairs : 0;
}
