/* pingpong: ranks 2i and 2i+1 form a pair; each iteration the even rank sends message_bytes to
 * the odd one, which answers with as many bytes once the message has arrived. Every pair runs
 * at once (a job of 2 ranks is the classic single pair), so the job needs an even rank count. */
#include <stdio.h>

#include "motif.h"

enum { PINGPONG_PING, PINGPONG_PONG };

static int pingpong_init(struct motif_instance *mi, char *err, size_t err_len)
{
    if (mi->nranks % 2) {
        snprintf(err, err_len,
                 "pingpong needs an even number of ranks (pairs 2i, 2i+1; the job has %d)",
                 mi->nranks);
        return -1;
    }
    mi->steps = 2;
    mi->max_sends = mi->max_recvs = 1;
    return 0;
}

static int pingpong_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_send *out)
{
    (void)iteration;
    bool even = rank % 2 == 0;
    if (even && step == PINGPONG_PING)
        out[0] = (struct motif_send){rank + 1, PINGPONG_PING, mi->params.message_bytes};
    else if (!even && step == PINGPONG_PONG)
        out[0] = (struct motif_send){rank - 1, PINGPONG_PONG, mi->params.message_bytes};
    else
        return 0;
    return 1;
}

static int pingpong_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_recv *out)
{
    (void)mi;
    (void)iteration;
    bool even = rank % 2 == 0;
    if (!even && step == PINGPONG_PING)
        out[0] = (struct motif_recv){rank - 1, 1};
    else if (even && step == PINGPONG_PONG)
        out[0] = (struct motif_recv){rank + 1, 1};
    else
        return 0;
    return 1;
}

static const char *const pingpong_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_pingpong = {
    .name = "pingpong",
    .summary = "pairs (2i, 2i+1): a message there and back per iteration",
    .keys = pingpong_keys,
    .init = pingpong_init,
    .sends = pingpong_sends,
    .recvs = pingpong_recvs,
};
