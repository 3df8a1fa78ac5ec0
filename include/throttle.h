/* throttle: injection throttling of a job's nodes. Every node of a throttled job has a token
 * bucket in front of its NIC: a packet may leave the NIC for its injection queue only when the
 * bucket holds a packet's worth of phits. The bucket fills at a rate R in phits/cycle: fixed
 * (`static`, the stock rate cap) or set every window by an AIMD controller (`aimd`) from the
 * node's stall fraction, weighted by the job's delay sensitivity c:
 *     x = stalled cycles / ready cycles of the window (0 when none was ready)
 *     alpha <- (1 - g) alpha + g x
 *     x > 0: R <- R (1 - alpha / (2 + c))      else: R <- R + step
 *     R within [min_rate, line rate]
 * x is the node's stall signal at the network boundary (src/workload.c, "the stall signal"):
 * a cycle is *ready* when the node has a packet that could go, in its NIC with its node link
 * free (whether the bucket admits it or not) or at the head of an injection queue with all its
 * phits in (taken by the router or not); it is *stalled* when such a packet cannot go for
 * back-pressure: the NIC's because its injection queue is full, the queue head's because the
 * router has no credit or crossbar grant for it. Each cycle counts once. x is the fraction of
 * the time the node has something to send in which the network holds it back, whatever the
 * injection queue's depth: the NIC's part alone would miss back-pressure a deep queue hides.
 * The rate delays packets, not messages: see src/workload.c. */
#ifndef DFSIM_THROTTLE_H
#define DFSIM_THROTTLE_H

#include <stdbool.h>
#include <stdint.h>

enum throttle_kind { THROTTLE_NONE, THROTTLE_STATIC, THROTTLE_AIMD };

/* "none", "static", "aimd", NULL: the choices of a job's `throttle`, in enum order. */
extern const char *const throttle_kind_names[];

/* The job keys each kind reads (NULL-terminated; none reads nothing). */
const char *const *throttle_keys(int kind);

/* A job's throttle, resolved from its settings (job_throttle_params in job_config.c). */
struct throttle_params {
    int kind;              /* enum throttle_kind */
    double line_rate;      /* phits/cycle: links.bandwidth_node */
    double rate;           /* static: the cap; aimd: the starting rate */
    double depth;          /* bucket depth, phits (at least one packet) */
    double packet;         /* phits of one packet */
    uint64_t window;       /* aimd: cycles per window */
    double gain, step;     /* aimd: g and the additive step (phits/cycle) */
    double min_rate;       /* aimd: the floor of R */
    double c;              /* aimd: delay sensitivity */
    uint64_t measure_from; /* windows ending after this cycle count in rate_sum */
};

/* One node's throttle state. */
struct throttle_node {
    double rate, tokens, alpha;
    uint64_t refilled;       /* cycle up to which tokens were added */
    uint64_t window;         /* index of the window in progress (cycle / window) */
    uint32_t ready, stalled; /* cycles of the window in progress */
    double rate_sum;         /* over the measured closed windows: the rate each ended with */
    uint64_t windows;        /* measured closed windows */
};

void throttle_node_init(struct throttle_node *n, const struct throttle_params *p);

/* The AIMD step of one window whose stall fraction was x. */
void throttle_aimd_update(struct throttle_node *n, const struct throttle_params *p, double x);

/* Closes (aimd) every window that ended at or before cycle now; a window in which the NIC was
 * never visited had no ready cycle (x = 0). */
void throttle_node_advance(struct throttle_node *n, const struct throttle_params *p, uint64_t now);

/* Whether a packet may leave the NIC at cycle now (fills the bucket up to now first); then
 * throttle_node_sent takes its phits. */
bool throttle_node_admits(struct throttle_node *n, const struct throttle_params *p, uint64_t now);
static inline void throttle_node_sent(struct throttle_node *n, const struct throttle_params *p)
{
    n->tokens -= p->packet;
}

/* A ready cycle of the window in progress, and a stalled one (it was ready too). */
static inline void throttle_node_ready(struct throttle_node *n)
{
    n->ready++;
}
static inline void throttle_node_stalled(struct throttle_node *n)
{
    n->stalled++;
}

#endif
