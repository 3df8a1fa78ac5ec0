/* barrier: dissemination. Round k = 0 .. ceil(log2 n) - 1: rank r sends a zero-byte message to
 * r + 2^k and waits for the one from r - 2^k (mod n). A zero-byte message is still one packet
 * on the network (the caller's conversion); message_bytes is not read. */
#include "motif.h"

static int barrier_init(struct motif_instance *mi, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    uint32_t rounds = 0;
    while ((1LL << rounds) < mi->nranks)
        rounds++;
    mi->steps = rounds;
    mi->max_sends = mi->max_recvs = 1;
    return 0;
}

static int32_t barrier_peer(const struct motif_instance *mi, int32_t rank, int64_t offset)
{
    int64_t n = mi->nranks;
    return (int32_t)(((rank + offset) % n + n) % n);
}

static int barrier_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                         struct motif_send *out)
{
    (void)iteration;
    out[0] = (struct motif_send){barrier_peer(mi, rank, 1LL << step), step, 0};
    return 1;
}

static int barrier_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                         struct motif_recv *out)
{
    (void)iteration;
    out[0] = (struct motif_recv){barrier_peer(mi, rank, -(1LL << step)), 1};
    return 1;
}

const struct motif_ops motif_barrier = {
    .name = "barrier",
    .summary = "dissemination: round k sends 0 bytes to r + 2^k, waits for r - 2^k",
    .init = barrier_init,
    .sends = barrier_sends,
    .recvs = barrier_recvs,
};
