/* sweep3d: a wavefront over a 2-D process grid px x py (dims, rank = i + px j; balanced when
 * not given) from corner (0, 0): rank (i, j) waits for (i-1, j) and (i, j-1), then sends
 * message_bytes to (i+1, j) and (i, j+1). Every iteration starts from the same corner, so
 * successive wavefronts pipeline behind each other as Sweep3D's blocks of planes do; the
 * octants that reverse the direction are not modelled. */
#include <stdio.h>
#include <stdlib.h>

#include "motif.h"

enum { SWEEP_RECEIVE, SWEEP_SEND };

struct sweep3d {
    int px, py;
};

static int sweep3d_init(struct motif_instance *mi, char *err, size_t err_len)
{
    struct sweep3d *s = malloc(sizeof *s);
    int dims[2];
    if (!s) {
        snprintf(err, err_len, "sweep3d: out of memory");
        return -1;
    }
    if (motif_grid(mi, "sweep3d", 2, dims, err, err_len) != 0) {
        free(s);
        return -1;
    }
    s->px = dims[0];
    s->py = dims[1];
    mi->state = s;
    mi->steps = 2;
    mi->max_sends = mi->max_recvs = 2;
    return 0;
}

static void sweep3d_destroy(struct motif_instance *mi)
{
    free(mi->state);
}

static int sweep3d_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                         struct motif_send *out)
{
    (void)iteration;
    const struct sweep3d *s = mi->state;
    int i = rank % s->px, j = rank / s->px, count = 0;
    if (step != SWEEP_SEND)
        return 0;
    if (i + 1 < s->px)
        out[count++] = (struct motif_send){rank + 1, SWEEP_RECEIVE, mi->params.message_bytes};
    if (j + 1 < s->py)
        out[count++] = (struct motif_send){rank + s->px, SWEEP_RECEIVE, mi->params.message_bytes};
    return count;
}

static int sweep3d_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                         struct motif_recv *out)
{
    (void)iteration;
    const struct sweep3d *s = mi->state;
    int i = rank % s->px, j = rank / s->px, count = 0;
    if (step != SWEEP_RECEIVE)
        return 0;
    if (i > 0)
        out[count++] = (struct motif_recv){rank - 1, 1};
    if (j > 0)
        out[count++] = (struct motif_recv){rank - s->px, 1};
    return count;
}

static const char *const sweep3d_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_sweep3d = {
    .name = "sweep3d",
    .summary = "wavefront over the 2-D process grid dims from corner (0, 0)",
    .keys = sweep3d_keys,
    .grid = 2,
    .init = sweep3d_init,
    .destroy = sweep3d_destroy,
    .sends = sweep3d_sends,
    .recvs = sweep3d_recvs,
};
