/* allreduce of message_bytes per rank, as MPICH chooses: below allreduce_threshold (default
 * 2 KiB, MPICH's short-message limit) recursive doubling, from it on a ring.
 * - ring: reduce-scatter then allgather, 2(n-1) steps; at each step rank r sends one chunk to
 *   r + 1 and receives one from r - 1, the next step's chunk depending on it. Chunk c holds
 *   message_bytes / n bytes, plus one for the first message_bytes mod n chunks; a zero-byte
 *   chunk is still sent.
 * - recursive doubling, for any n: with p2 the largest power of two <= n and rem = n - p2, the
 *   even ranks below 2 rem first send their vector to the odd rank above them and sit out;
 *   the remaining p2 ranks exchange the whole vector with the partner at distance 2^k in
 *   log2(p2) steps; finally the odd ranks below 2 rem return the result (MPICH's scheme).
 *   With n a power of two the first and last steps are empty. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "motif.h"

struct allreduce_settings {
    int64_t threshold; /* bytes: recursive doubling below, ring from it on */
};

static const struct setting allreduce_rows[] = {
    SETTING_NUMBER(struct allreduce_settings, SETTING_INT64, "allreduce_threshold", threshold,
                   2048, 0, SETTING_UNBOUNDED_INT64,
                   "allreduce (and a trace's MPI_Allreduce): recursive doubling below this many "
                   "bytes, ring from it on"),
};

/* 2048 bytes by default: MPICH's short-message allreduce limit. A trace job's MPI_Allreduce
 * picks its algorithm by it too (traffic/trace/trace_job.c), hence its second reader. */
static const struct setting_table allreduce_table = {
    "jobs", "allreduce, trace", allreduce_rows, 1, sizeof(struct allreduce_settings), NULL};

uint64_t motif_allreduce_threshold_of(const void *settings)
{
    return (uint64_t)((const struct allreduce_settings *)settings)->threshold;
}

struct allreduce {
    bool ring;
    int32_t p2, rem;
    uint32_t doublings; /* log2(p2) */
};

static int allreduce_init(struct motif_instance *mi, char *err, size_t err_len)
{
    struct allreduce *a = malloc(sizeof *a);
    if (!a) {
        snprintf(err, err_len, "allreduce: out of memory");
        return -1;
    }
    const struct allreduce_settings *own = motif_settings_of(mi);
    a->ring = mi->params.message_bytes >= (uint64_t)own->threshold;
    a->p2 = 1;
    a->doublings = 0;
    while (2 * (int64_t)a->p2 <= mi->nranks) {
        a->p2 *= 2;
        a->doublings++;
    }
    a->rem = mi->nranks - a->p2;
    mi->steps = a->ring ? 2 * ((uint32_t)mi->nranks - 1) : a->doublings + 2;
    mi->max_sends = mi->max_recvs = 1;
    mi->state = a;
    return 0;
}

static void allreduce_destroy(struct motif_instance *mi)
{
    free(mi->state);
}

/* ---- ring ---- */

static int32_t ring_mod(int64_t value, int32_t n)
{
    return (int32_t)((value % n + n) % n);
}

static uint64_t ring_chunk_bytes(const struct motif_instance *mi, int32_t chunk)
{
    uint64_t n = (uint64_t)mi->nranks, bytes = mi->params.message_bytes;
    return bytes / n + ((uint64_t)chunk < bytes % n);
}

/* The chunk rank sends at step: reduce-scatter r - s, then allgather r + 1 - (s - (n - 1)). */
static int32_t ring_chunk(const struct motif_instance *mi, int32_t rank, uint32_t step)
{
    int32_t n = mi->nranks;
    if (step < (uint32_t)n - 1)
        return ring_mod((int64_t)rank - step, n);
    return ring_mod((int64_t)rank + 1 - (step - (n - 1)), n);
}

/* ---- recursive doubling ---- */

/* A rank's index among the p2 ranks of the doubling steps, or -1 if it sits them out. */
static int32_t doubling_index(const struct allreduce *a, int32_t rank)
{
    if (rank >= 2 * a->rem)
        return rank - a->rem;
    return rank % 2 ? rank / 2 : -1;
}

static int32_t doubling_rank(const struct allreduce *a, int32_t index)
{
    return index < a->rem ? 2 * index + 1 : index + a->rem;
}

/* The peer of rank at a doubling step (0 .. steps-1), or -1; both directions are the same. */
static int32_t doubling_peer(const struct motif_instance *mi, int32_t rank, uint32_t step,
                             bool sending)
{
    const struct allreduce *a = mi->state;
    uint32_t last = a->doublings + 1;
    if (step == 0 || step == last) {
        if (rank >= 2 * a->rem)
            return -1;
        /* step 0: even -> odd; last step: odd -> even */
        bool even = rank % 2 == 0;
        bool sender = step == 0 ? even : !even;
        if (sender != sending)
            return -1;
        return even ? rank + 1 : rank - 1;
    }
    int32_t index = doubling_index(a, rank);
    if (index < 0)
        return -1;
    return doubling_rank(a, index ^ (1 << (step - 1)));
}

static int allreduce_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                           uint32_t step, struct motif_send *out)
{
    (void)iteration;
    const struct allreduce *a = mi->state;
    if (a->ring) {
        int32_t next = ring_mod((int64_t)rank + 1, mi->nranks);
        out[0] = (struct motif_send){next, step, ring_chunk_bytes(mi, ring_chunk(mi, rank, step))};
        return 1;
    }
    int32_t peer = doubling_peer(mi, rank, step, true);
    if (peer < 0)
        return 0;
    out[0] = (struct motif_send){peer, step, mi->params.message_bytes};
    return 1;
}

static int allreduce_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                           uint32_t step, struct motif_recv *out)
{
    (void)iteration;
    const struct allreduce *a = mi->state;
    int32_t peer =
        a->ring ? ring_mod((int64_t)rank - 1, mi->nranks) : doubling_peer(mi, rank, step, false);
    if (peer < 0)
        return 0;
    out[0] = (struct motif_recv){peer, 1};
    return 1;
}

static const char *const allreduce_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_allreduce = {
    .name = "allreduce",
    .summary = "recursive doubling below allreduce_threshold bytes, ring from it on",
    .keys = allreduce_keys,
    .settings = &allreduce_table,
    .init = allreduce_init,
    .destroy = allreduce_destroy,
    .sends = allreduce_sends,
    .recvs = allreduce_recvs,
};
