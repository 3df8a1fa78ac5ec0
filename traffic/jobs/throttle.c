/* throttle: token buckets and the AIMD controller of throttled jobs (see throttle.h). */
#include "throttle.h"

#include <stddef.h>

const char *const throttle_kind_names[] = {"none", "static", "aimd", NULL};

const char *const *throttle_keys(int kind)
{
    static const char *const none[] = {NULL};
    static const char *const fixed[] = {"throttle_rate", "throttle_bucket_packets", NULL};
    static const char *const aimd[] = {
        "throttle_rate", "throttle_bucket_packets", "throttle_window_cycles", "throttle_gain",
        "throttle_step", "throttle_min_rate",       "delay_sensitivity",      NULL};
    return kind == THROTTLE_STATIC ? fixed : kind == THROTTLE_AIMD ? aimd : none;
}

void throttle_node_init(struct throttle_node *n, const struct throttle_params *p)
{
    /* A node starts with a full bucket and, under aimd, at its starting rate with alpha = 0:
     * the EWMA of a stall fraction nobody has observed yet is taken as no stall. */
    *n = (struct throttle_node){.rate = p->rate, .tokens = p->depth};
}

static void throttle_refill(struct throttle_node *n, const struct throttle_params *p, uint64_t to)
{
    if (to <= n->refilled)
        return;
    n->tokens += n->rate * (double)(to - n->refilled);
    if (n->tokens > p->depth)
        n->tokens = p->depth;
    n->refilled = to;
}

void throttle_aimd_update(struct throttle_node *n, const struct throttle_params *p, double x)
{
    n->alpha = (1 - p->gain) * n->alpha + p->gain * x;
    if (x > 0)
        n->rate *= 1 - n->alpha / (2 + p->c);
    else
        n->rate += p->step;
    if (n->rate < p->min_rate)
        n->rate = p->min_rate;
    if (n->rate > p->line_rate)
        n->rate = p->line_rate;
}

void throttle_node_advance(struct throttle_node *n, const struct throttle_params *p, uint64_t now)
{
    if (p->kind != THROTTLE_AIMD)
        return;
    while ((n->window + 1) * p->window <= now) {
        uint64_t end = (n->window + 1) * p->window;
        throttle_refill(n, p, end); /* at the old rate up to the window's end */
        double x = n->ready ? (double)n->stalled / (double)n->ready : 0.0;
        throttle_aimd_update(n, p, x);
        if (end > p->measure_from) {
            n->rate_sum += n->rate;
            n->windows++;
        }
        n->ready = n->stalled = 0;
        n->window++;
    }
}

bool throttle_node_admits(struct throttle_node *n, const struct throttle_params *p, uint64_t now)
{
    throttle_refill(n, p, now);
    return n->tokens + 1e-9 >= p->packet; /* a rate like 0.3 sums up inexactly */
}
