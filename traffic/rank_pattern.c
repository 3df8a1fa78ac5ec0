/* rank_pattern: the registry and the patterns that need only the job's size: uniform,
 * permutation, tornado, incast, fanout. group_pair, which needs the placement, is in
 * rank_pattern_group_pair.c. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "job_traffic.h"
#include "registry.h"

const struct rank_pattern_ops *const rank_pattern_registry[] = {
    &rank_pattern_uniform,
    &rank_pattern_permutation,
    &rank_pattern_tornado,
    &rank_pattern_incast,
    &rank_pattern_group_pair,
    &rank_pattern_fanout,
    NULL,
};

REGISTRY_DEFINE(rank_pattern, struct rank_pattern_ops, rank_pattern_registry)

const struct setting_table *rank_pattern_settings_at(int i)
{
    for (int j = 0; j < i; j++)
        if (rank_pattern_registry[j]->settings == rank_pattern_registry[i]->settings)
            return NULL;
    return rank_pattern_registry[i]->settings;
}

int rank_pattern_init(struct rank_pattern *pat, const struct rank_pattern_ops *ops,
                      const struct rank_pattern_params *params, int nranks,
                      const int32_t *rank_node, const struct placement_machine *m, struct rng *rng,
                      char *err, size_t err_len)
{
    *pat = (struct rank_pattern){ops, *params, nranks, rank_node, m, NULL, NULL};
    if (nranks < 2) {
        snprintf(err, err_len, "pattern %s needs a job of at least 2 ranks (the job has %d)",
                 ops->name, nranks);
        return -1;
    }
    return ops->init ? ops->init(pat, rng, err, err_len) : 0;
}

void rank_pattern_destroy(struct rank_pattern *pat)
{
    if (pat->ops && pat->ops->destroy)
        pat->ops->destroy(pat);
    pat->state = NULL;
}

int rank_pattern_senders(const struct rank_pattern *pat)
{
    int senders = 0;
    for (int32_t r = 0; r < pat->nranks; r++)
        senders += rank_pattern_sends(pat, r);
    return senders;
}

/* ---- uniform ---------------------------------------------------------------------------- */

static int32_t uniform_destination(const struct rank_pattern *pat, int32_t src, struct rng *rng)
{
    int32_t d = (int32_t)rng_below(rng, (uint32_t)pat->nranks - 1);
    return d >= src ? d + 1 : d;
}

const struct rank_pattern_ops rank_pattern_uniform = {
    .name = "uniform",
    .summary = "a new destination per message, uniform over the job's other ranks",
    .destination = uniform_destination,
};

/* ---- permutation ------------------------------------------------------------------------ */

static bool permutation_has_fixed_point(const int32_t *perm, int n)
{
    for (int i = 0; i < n; i++)
        if (perm[i] == i)
            return true;
    return false;
}

/* A derangement drawn uniformly among all derangements: shuffle until no rank maps to itself
 * (about e = 2.72 shuffles on average). Sattolo's algorithm would be one shuffle but gives only
 * the single-cycle permutations. */
static int permutation_init(struct rank_pattern *pat, struct rng *rng, char *err, size_t err_len)
{
    int n = pat->nranks;
    int32_t *perm = malloc((size_t)n * sizeof *perm);
    if (!perm) {
        snprintf(err, err_len, "pattern permutation: out of memory for %d ranks", n);
        return -1;
    }
    do {
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)rng_below(rng, (uint32_t)i + 1);
            int32_t tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
    } while (permutation_has_fixed_point(perm, n));
    pat->state = perm;
    return 0;
}

static void permutation_destroy(struct rank_pattern *pat)
{
    free(pat->state);
}

static int32_t permutation_destination(const struct rank_pattern *pat, int32_t src, struct rng *rng)
{
    (void)rng;
    return ((const int32_t *)pat->state)[src];
}

const struct rank_pattern_ops rank_pattern_permutation = {
    .name = "permutation",
    .summary = "a fixed random derangement of the job's ranks (drawn once per run)",
    .init = permutation_init,
    .destroy = permutation_destroy,
    .destination = permutation_destination,
};

/* ---- tornado ---------------------------------------------------------------------------- */

/* The offset reduced to 1 .. n-1 (negative offsets count backwards), kept in params.offset. */
static int tornado_init(struct rank_pattern *pat, struct rng *rng, char *err, size_t err_len)
{
    (void)rng;
    int n = pat->nranks;
    int offset = ((pat->params.offset % n) + n) % n;
    if (offset == 0) {
        pat->fault_key = "offset";
        snprintf(err, err_len,
                 "pattern tornado: offset %d is a multiple of the job's %d ranks (expected an "
                 "offset that is not, or every rank would send to itself)",
                 pat->params.offset, n);
        return -1;
    }
    pat->params.offset = offset;
    return 0;
}

static int32_t tornado_destination(const struct rank_pattern *pat, int32_t src, struct rng *rng)
{
    (void)rng;
    int32_t d = src + pat->params.offset;
    return d >= pat->nranks ? d - pat->nranks : d;
}

static const struct setting tornado_rows[] = {
    SETTING_INT_ROW(struct rank_pattern_tornado_settings, "offset", offset, 1, INT_MIN + 1,
                    SETTING_UNBOUNDED_INT, "tornado: rank r sends to r + offset"),
};

static const struct setting_table tornado_table = {
    "jobs", "tornado", tornado_rows, 1, sizeof(struct rank_pattern_tornado_settings), NULL};

const struct rank_pattern_ops rank_pattern_tornado = {
    .name = "tornado",
    .summary = "rank r sends to rank (r + offset) mod n",
    .settings = &tornado_table,
    .init = tornado_init,
    .destination = tornado_destination,
};

/* ---- incast ----------------------------------------------------------------------------- */

/* The targets are ranks 0 .. targets-1 (place the job to put them where the study wants);
 * they only receive. Every other rank sends each message to a target drawn uniformly. */
static int incast_init(struct rank_pattern *pat, struct rng *rng, char *err, size_t err_len)
{
    (void)rng;
    int k = pat->params.targets;
    if (k < 1 || k >= pat->nranks) {
        pat->fault_key = "targets";
        snprintf(err, err_len,
                 "pattern incast: targets %d (expected 1 .. %d: the job's %d ranks minus at least "
                 "one sender)",
                 k, pat->nranks - 1, pat->nranks);
        return -1;
    }
    return 0;
}

static bool incast_sends(const struct rank_pattern *pat, int32_t rank)
{
    return rank >= pat->params.targets;
}

static int32_t incast_destination(const struct rank_pattern *pat, int32_t src, struct rng *rng)
{
    if (!incast_sends(pat, src))
        return RANK_PATTERN_NONE;
    return (int32_t)rng_below(rng, (uint32_t)pat->params.targets);
}

static const struct setting targets_rows[] = {
    SETTING_INT_ROW(struct rank_pattern_targets_settings, "targets", targets, 1, 1,
                    SETTING_UNBOUNDED_INT, "incast: ranks 0..targets-1 receive; fanout: they send"),
};

/* Read by incast and fanout. */
static const struct setting_table targets_table = {
    "jobs", "incast, fanout", targets_rows, 1, sizeof(struct rank_pattern_targets_settings), NULL};

const struct rank_pattern_ops rank_pattern_incast = {
    .name = "incast",
    .summary = "every rank but the first `targets` sends to one of those (uniformly)",
    .settings = &targets_table,
    .init = incast_init,
    .destination = incast_destination,
    .sends = incast_sends,
};

/* ---- fanout ----------------------------------------------------------------------------- */

/* The mirror of incast, the open-loop broadcast congestor: the first `targets` ranks are the
 * roots and the only senders, each message to a rank drawn uniformly among the others. The
 * broadcast motif waits on its tree; this keeps one-to-all traffic at the roots' `load`. */
static int fanout_init(struct rank_pattern *pat, struct rng *rng, char *err, size_t err_len)
{
    (void)rng;
    int k = pat->params.targets;
    if (k < 1 || k >= pat->nranks) {
        pat->fault_key = "targets";
        snprintf(err, err_len,
                 "pattern fanout: targets %d (expected 1 .. %d: the job's %d ranks minus at least "
                 "one receiver)",
                 k, pat->nranks - 1, pat->nranks);
        return -1;
    }
    return 0;
}

static bool fanout_sends(const struct rank_pattern *pat, int32_t rank)
{
    return rank < pat->params.targets;
}

static int32_t fanout_destination(const struct rank_pattern *pat, int32_t src, struct rng *rng)
{
    if (!fanout_sends(pat, src))
        return RANK_PATTERN_NONE;
    return uniform_destination(pat, src, rng);
}

const struct rank_pattern_ops rank_pattern_fanout = {
    .name = "fanout",
    .summary = "the first `targets` ranks send, each message to one of the other ranks "
               "(uniformly): one to all",
    .settings = &targets_table,
    .init = fanout_init,
    .destination = fanout_destination,
    .sends = fanout_sends,
};
