/* injection_process: when the ranks of an open-loop job create messages: bernoulli (a
 * message with probability `rate` in each cycle), periodic (one every interval_cycles, at a
 * fixed random phase per rank) and on_off (bernoulli at rate / duty cycle during on periods,
 * nothing during off periods, at a fixed random phase per rank). Each answers "does rank r
 * fire in cycle c?" and "when does rank r fire next?", both in O(1). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "job_traffic.h"
#include "registry.h"

const struct injection_ops *const injection_registry[] = {
    &injection_bernoulli,
    &injection_periodic,
    &injection_on_off,
    NULL,
};

REGISTRY_DEFINE(injection, struct injection_ops, injection_registry)

const struct setting_table *injection_settings_at(int i)
{
    return injection_registry[i]->settings;
}

int injection_process_init(struct injection_process *ip, const struct injection_ops *ops,
                           const struct injection_params *params, int nranks, struct rng *rng,
                           char *err, size_t err_len)
{
    *ip = (struct injection_process){.ops = ops, .params = *params, .nranks = nranks};
    if (!(params->rate >= 0.0 && params->rate <= 1.0)) {
        snprintf(err, err_len,
                 "process %s: rate %g messages per cycle (expected 0 .. 1; a lower load or "
                 "larger messages)",
                 ops->name, params->rate);
        return -1;
    }
    return ops->init(ip, rng, err, err_len);
}

void injection_process_destroy(struct injection_process *ip)
{
    free(ip->phase);
    ip->phase = NULL;
}

double injection_process_rate(const struct injection_process *ip)
{
    return ip->mean_rate;
}

/* Draws each rank's phase uniformly in [0, period). */
static int injection_draw_phases(struct injection_process *ip, struct rng *rng, char *err,
                                 size_t err_len)
{
    ip->phase = malloc((size_t)ip->nranks * sizeof *ip->phase);
    if (!ip->phase) {
        snprintf(err, err_len, "process %s: out of memory for %d ranks", ip->ops->name, ip->nranks);
        return -1;
    }
    for (int r = 0; r < ip->nranks; r++)
        ip->phase[r] = rng_below(rng, ip->period);
    return 0;
}

/* from + gap, or UINT64_MAX when it does not fit. */
static uint64_t injection_after(uint64_t from, uint64_t gap)
{
    return gap > UINT64_MAX - from ? UINT64_MAX : from + gap;
}

/* ---- bernoulli -------------------------------------------------------------------------- */

static int bernoulli_init(struct injection_process *ip, struct rng *rng, char *err, size_t err_len)
{
    (void)rng;
    (void)err;
    (void)err_len;
    ip->p = ip->mean_rate = ip->params.rate;
    ip->threshold = rng_probability_threshold(ip->p);
    ip->gap = rng_geometric_law(ip->p);
    return 0;
}

static bool bernoulli_fires(const struct injection_process *ip, int32_t rank, uint64_t cycle,
                            struct rng *rng)
{
    (void)rank;
    (void)cycle;
    return rng_bernoulli(rng, ip->threshold);
}

static uint64_t bernoulli_next(const struct injection_process *ip, int32_t rank, uint64_t from,
                               struct rng *rng)
{
    (void)rank;
    return injection_after(from, rng_geometric(rng, ip->gap));
}

const struct injection_ops injection_bernoulli = {
    .name = "bernoulli",
    .summary = "a message with probability rate in every cycle",
    .init = bernoulli_init,
    .fires = bernoulli_fires,
    .next = bernoulli_next,
};

/* ---- periodic --------------------------------------------------------------------------- */

/* Rank r fires in the cycles c with c mod interval = phase[r], phase drawn uniformly once, so
 * the ranks of a job do not all fire in the same cycle. */
static int periodic_init(struct injection_process *ip, struct rng *rng, char *err, size_t err_len)
{
    int interval = ip->params.interval_cycles;
    if (interval == 0 && ip->params.rate > 0.0)
        interval = (int)fmin(lround(1.0 / ip->params.rate), 1 << 30);
    if (interval < 1) {
        snprintf(err, err_len,
                 "process periodic: interval_cycles %d (expected at least 1, or 0 with a "
                 "positive load to derive it)",
                 ip->params.interval_cycles);
        return -1;
    }
    ip->period = (uint32_t)interval;
    ip->p = ip->mean_rate = 1.0 / interval;
    return injection_draw_phases(ip, rng, err, err_len);
}

static bool periodic_fires(const struct injection_process *ip, int32_t rank, uint64_t cycle,
                           struct rng *rng)
{
    (void)rng;
    return cycle % ip->period == ip->phase[rank];
}

static uint64_t periodic_next(const struct injection_process *ip, int32_t rank, uint64_t from,
                              struct rng *rng)
{
    (void)rng;
    uint64_t wait = (ip->phase[rank] + ip->period - from % ip->period) % ip->period;
    return injection_after(from, wait);
}

static const struct setting periodic_rows[] = {
    SETTING_NUMBER(struct injection_periodic_settings, SETTING_INT64, "interval_cycles",
                   interval_cycles, 0, 0, INT_MAX,
                   "periodic: a message every interval (0: from the load)"),
};

static const struct setting_table periodic_table = {
    "jobs", "periodic", periodic_rows, 1, sizeof(struct injection_periodic_settings), NULL};

const struct injection_ops injection_periodic = {
    .name = "periodic",
    .summary = "one message every interval_cycles, at a random phase per rank",
    .settings = &periodic_table,
    .init = periodic_init,
    .fires = periodic_fires,
    .next = periodic_next,
};

/* ---- on_off ----------------------------------------------------------------------------- */

/* A rank is on in the cycles c with (c + phase[r]) mod (on + off) < on, phase drawn uniformly
 * once per rank (bursts of different ranks overlap at random, they are not synchronised);
 * while on it fires with probability rate * (on + off) / on, so its mean rate is `rate`. */
static int on_off_init(struct injection_process *ip, struct rng *rng, char *err, size_t err_len)
{
    const struct injection_params *p = &ip->params;
    if (p->on_cycles < 1 || p->off_cycles < 0 ||
        (int64_t)p->on_cycles + p->off_cycles > INT32_MAX) {
        snprintf(err, err_len,
                 "process on_off: on_cycles %d, off_cycles %d (expected on_cycles >= 1 and "
                 "off_cycles >= 0)",
                 p->on_cycles, p->off_cycles);
        return -1;
    }
    ip->period = (uint32_t)(p->on_cycles + p->off_cycles);
    ip->p = p->rate * ip->period / p->on_cycles;
    if (ip->p > 1.0) {
        snprintf(err, err_len,
                 "process on_off: rate %g at a duty cycle of %d/%d needs %g messages per on "
                 "cycle (expected rate <= on_cycles / (on_cycles + off_cycles) = %g)",
                 p->rate, p->on_cycles, ip->period, ip->p, (double)p->on_cycles / ip->period);
        return -1;
    }
    ip->mean_rate = p->rate;
    ip->threshold = rng_probability_threshold(ip->p);
    ip->gap = rng_geometric_law(ip->p);
    return injection_draw_phases(ip, rng, err, err_len);
}

static uint32_t on_off_position(const struct injection_process *ip, int32_t rank, uint64_t cycle)
{
    return (uint32_t)((cycle + ip->phase[rank]) % ip->period);
}

static bool on_off_fires(const struct injection_process *ip, int32_t rank, uint64_t cycle,
                         struct rng *rng)
{
    if (on_off_position(ip, rank, cycle) >= (uint32_t)ip->params.on_cycles)
        return false;
    return rng_bernoulli(rng, ip->threshold);
}

/* The geometric number of on cycles before the message, laid over the on periods ahead. */
static uint64_t on_off_next(const struct injection_process *ip, int32_t rank, uint64_t from,
                            struct rng *rng)
{
    uint64_t on = (uint64_t)ip->params.on_cycles;
    uint64_t pos = on_off_position(ip, rank, from);
    uint64_t start = pos < on ? from : injection_after(from, ip->period - pos);
    uint64_t left = pos < on ? on - pos : on; /* on cycles left in this period */
    uint64_t skip = rng_geometric(rng, ip->gap);
    if (skip < left)
        return injection_after(start, skip);
    if (skip == UINT64_MAX)
        return UINT64_MAX;
    skip -= left;
    uint64_t next_period = injection_after(start, left + (uint64_t)ip->params.off_cycles);
    uint64_t periods = skip / on;
    if (periods > (UINT64_MAX - next_period) / ip->period)
        return UINT64_MAX;
    return injection_after(next_period + periods * ip->period, skip % on);
}

static const struct setting on_off_rows[] = {
    SETTING_NUMBER(struct injection_on_off_settings, SETTING_INT64, "on_cycles", on_cycles, 0, 0,
                   INT_MAX, "on_off: cycles on"),
    SETTING_NUMBER(struct injection_on_off_settings, SETTING_INT64, "off_cycles", off_cycles, 0, 0,
                   INT_MAX, "on_off: cycles off"),
};

static const struct setting_table on_off_table = {
    "jobs", "on_off", on_off_rows, 2, sizeof(struct injection_on_off_settings), NULL};

const struct injection_ops injection_on_off = {
    .name = "on_off",
    .summary = "bernoulli at rate / duty cycle during on_cycles, then off_cycles of silence",
    .settings = &on_off_table,
    .init = on_off_init,
    .fires = on_off_fires,
    .next = on_off_next,
};
