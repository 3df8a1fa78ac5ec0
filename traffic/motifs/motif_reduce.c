/* reduce of message_bytes per rank to `reduce_root` by a binomial tree (MPICH's reduce for
 * short messages): with v = (r - root) mod n, in round k = 0 .. ceil(log2 n) - 1 the ranks
 * with v mod 2^(k+1) = 2^k send their partial result to v - 2^k and are done; the others
 * receive from v + 2^k when it exists. Every rank but the root sends once; the root receives
 * ceil(log2 n) messages. */
#include <stddef.h>
#include <stdio.h>

#include "motif.h"

struct reduce_settings {
    int root;
};

static const struct setting reduce_rows[] = {
    SETTING_QUIET_NUMBER(struct reduce_settings, SETTING_INT, "reduce_root", root, 0, 0,
                         SETTING_UNBOUNDED_INT, "reduce: the rank that receives the result"),
};

/* Quiet at its default: documents and sweep points of jobs without reduce stay as they were. */
static const struct setting_table reduce_table = {
    "jobs", "reduce", reduce_rows, 1, sizeof(struct reduce_settings), NULL};

static int reduce_root(const struct motif_instance *mi)
{
    return ((const struct reduce_settings *)motif_settings_of(mi))->root;
}

static int reduce_init(struct motif_instance *mi, char *err, size_t err_len)
{
    if (reduce_root(mi) >= mi->nranks) {
        mi->fault_key = "reduce_root";
        snprintf(err, err_len, "reduce: reduce_root %d is not a rank of the job (expected 0 .. %d)",
                 reduce_root(mi), mi->nranks - 1);
        return -1;
    }
    uint32_t rounds = 0;
    while ((1LL << rounds) < mi->nranks)
        rounds++;
    mi->steps = rounds;
    mi->max_sends = mi->max_recvs = 1;
    return 0;
}

/* The rank at distance v from the root, and back. */
static int32_t reduce_rank(const struct motif_instance *mi, int64_t v)
{
    return (int32_t)((v + reduce_root(mi)) % mi->nranks);
}

static int64_t reduce_relative(const struct motif_instance *mi, int32_t rank)
{
    return ((int64_t)rank - reduce_root(mi) + mi->nranks) % mi->nranks;
}

static int reduce_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                        struct motif_send *out)
{
    (void)iteration;
    int64_t v = reduce_relative(mi, rank), span = 1LL << step;
    if (v % (2 * span) != span)
        return 0;
    out[0] = (struct motif_send){reduce_rank(mi, v - span), step, mi->params.message_bytes};
    return 1;
}

static int reduce_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                        struct motif_recv *out)
{
    (void)iteration;
    int64_t v = reduce_relative(mi, rank), span = 1LL << step;
    if (v % (2 * span) != 0 || v + span >= mi->nranks)
        return 0;
    out[0] = (struct motif_recv){reduce_rank(mi, v + span), 1};
    return 1;
}

static const char *const reduce_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_reduce = {
    .name = "reduce",
    .summary = "binomial tree to reduce_root: round k, ranks at 2^k mod 2^(k+1) send down 2^k",
    .keys = reduce_keys,
    .settings = &reduce_table,
    .init = reduce_init,
    .sends = reduce_sends,
    .recvs = reduce_recvs,
};
