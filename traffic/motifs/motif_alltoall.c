/* alltoall: pairwise exchange. At step k = 1 .. n-1 rank r sends message_bytes to r + k and
 * receives from r - k (mod n), and moves on once both are done, as MPI_Sendrecv does. */
#include "motif.h"

static int alltoall_init(struct motif_instance *mi, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    mi->steps = (uint32_t)mi->nranks - 1;
    mi->max_sends = mi->max_recvs = 1;
    return 0;
}

static int32_t alltoall_peer(const struct motif_instance *mi, int32_t rank, int64_t offset)
{
    int64_t n = mi->nranks;
    return (int32_t)(((rank + offset) % n + n) % n);
}

static int alltoall_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_send *out)
{
    (void)iteration;
    out[0] = (struct motif_send){alltoall_peer(mi, rank, (int64_t)step + 1), step,
                                 mi->params.message_bytes};
    return 1;
}

static int alltoall_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_recv *out)
{
    (void)iteration;
    out[0] = (struct motif_recv){alltoall_peer(mi, rank, -((int64_t)step + 1)), 1};
    return 1;
}

static const char *const alltoall_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_alltoall = {
    .name = "alltoall",
    .summary = "pairwise exchange: step k sends to r+k and receives from r-k, k = 1..n-1",
    .keys = alltoall_keys,
    .init = alltoall_init,
    .sends = alltoall_sends,
    .recvs = alltoall_recvs,
};
