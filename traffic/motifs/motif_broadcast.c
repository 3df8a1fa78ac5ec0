/* broadcast of message_bytes from `root`, two ways:
 * - broadcast: a binomial tree. With v = (r - root) mod n, in round k = 0 .. ceil(log2 n) - 1
 *   the ranks v < 2^k send to v + 2^k (when it exists), which receive in that round and send
 *   from the next one on; a parent's sends of successive rounds follow each other.
 * - broadcast_flat: the root sends one message to every other rank (in rank order from
 *   root + 1), and the next round starts when every rank has received: the Dragonfly+
 *   interference study's broadcast, whose rounds are synchronised by the study, not by
 *   messages (global_sync). */
#include <stddef.h>
#include <stdio.h>

#include "motif.h"

struct broadcast_settings {
    int root;
};

static const struct setting broadcast_rows[] = {
    SETTING_INT_ROW(struct broadcast_settings, "root", root, 0, 0, SETTING_UNBOUNDED_INT,
                    "broadcast: the root rank"),
};

/* Read by both broadcasts. */
static const struct setting_table broadcast_table = {
    "jobs", "broadcast, broadcast_flat", broadcast_rows, 1, sizeof(struct broadcast_settings),
    NULL};

static int broadcast_root(const struct motif_instance *mi)
{
    return ((const struct broadcast_settings *)motif_settings_of(mi))->root;
}

static int broadcast_check_root(struct motif_instance *mi, const char *motif, char *err,
                                size_t err_len)
{
    if (broadcast_root(mi) < 0 || broadcast_root(mi) >= mi->nranks) {
        mi->fault_key = "root";
        snprintf(err, err_len, "%s: root %d is not a rank of the job (expected 0 .. %d)", motif,
                 broadcast_root(mi), mi->nranks - 1);
        return -1;
    }
    return 0;
}

static int32_t broadcast_rank(const struct motif_instance *mi, int64_t relative)
{
    return (int32_t)((relative + broadcast_root(mi)) % mi->nranks);
}

static int64_t broadcast_relative(const struct motif_instance *mi, int32_t rank)
{
    return ((int64_t)rank - broadcast_root(mi) + mi->nranks) % mi->nranks;
}

/* ---- binomial ---- */

static int binomial_init(struct motif_instance *mi, char *err, size_t err_len)
{
    if (broadcast_check_root(mi, "broadcast", err, err_len) != 0)
        return -1;
    uint32_t rounds = 0;
    while ((1LL << rounds) < mi->nranks)
        rounds++;
    mi->steps = rounds;
    mi->max_sends = mi->max_recvs = 1;
    return 0;
}

static int binomial_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_send *out)
{
    (void)iteration;
    int64_t v = broadcast_relative(mi, rank), span = 1LL << step;
    if (v >= span || v + span >= mi->nranks)
        return 0;
    out[0] = (struct motif_send){broadcast_rank(mi, v + span), step, mi->params.message_bytes};
    return 1;
}

static int binomial_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_recv *out)
{
    (void)iteration;
    int64_t v = broadcast_relative(mi, rank), span = 1LL << step;
    if (v < span || v >= 2 * span)
        return 0;
    out[0] = (struct motif_recv){broadcast_rank(mi, v - span), 1};
    return 1;
}

static const char *const broadcast_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_broadcast = {
    .name = "broadcast",
    .summary = "binomial tree from root: round k, ranks below 2^k send to rank + 2^k",
    .keys = broadcast_keys,
    .settings = &broadcast_table,
    .init = binomial_init,
    .sends = binomial_sends,
    .recvs = binomial_recvs,
};

/* ---- flat ---- */

static int flat_init(struct motif_instance *mi, char *err, size_t err_len)
{
    if (broadcast_check_root(mi, "broadcast_flat", err, err_len) != 0)
        return -1;
    mi->steps = 1;
    mi->max_sends = mi->nranks - 1;
    mi->max_recvs = 1;
    return 0;
}

static int flat_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                      struct motif_send *out)
{
    (void)iteration;
    (void)step;
    if (rank != broadcast_root(mi))
        return 0;
    for (int64_t v = 1; v < mi->nranks; v++)
        out[v - 1] = (struct motif_send){broadcast_rank(mi, v), 0, mi->params.message_bytes};
    return mi->nranks - 1;
}

static int flat_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                      struct motif_recv *out)
{
    (void)iteration;
    (void)step;
    if (rank == broadcast_root(mi))
        return 0;
    out[0] = (struct motif_recv){broadcast_root(mi), 1};
    return 1;
}

const struct motif_ops motif_broadcast_flat = {
    .name = "broadcast_flat",
    .summary = "the root sends to every rank; the next round starts when all have arrived",
    .keys = broadcast_keys,
    .settings = &broadcast_table,
    .global_sync = true,
    .init = flat_init,
    .sends = flat_sends,
    .recvs = flat_recvs,
};
