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

double bounds_zero_load_latency(const struct sim_config *cfg, const struct topology *t)
{
    /* Every ordered pair of distinct nodes, a pair of routers at a time. */
    double sum = 0, pairs = 0;
    for (int r = 0; r < t->routers; r++) {
        double nr = topology_kind_of(t, r)->count[PORT_NODE];
        if (nr == 0)
            continue;
        for (int s = 0; s < t->routers; s++) {
            double ns = topology_kind_of(t, s)->count[PORT_NODE];
            double n = r == s ? nr * (nr - 1) : nr * ns;
            if (n > 0) {
                sum += n * bounds_pair_latency(cfg, t, r, s);
                pairs += n;
            }
        }
    }
    return pairs > 0 ? sum / pairs : 0;
}
