/* halo3d: a 3-D stencil on a process grid dims[0] x dims[1] x dims[2] (rank = x + X (y + Y z);
 * a balanced grid when dims is not given). Each iteration every rank sends message_bytes to
 * each of its 6 neighbours (-x, +x, -y, +y, -z, +z) at once and waits for the 6 messages from
 * them. Periodic (the default) wraps around, so every rank has 6 neighbours as in the
 * Dragonfly+ study; a dimension of size 2 then gives the same neighbour twice (two messages),
 * one of size 1 none. With periodic = false ranks on a face have fewer neighbours. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "motif.h"

struct halo3d_settings {
    bool periodic;
};

static const struct setting halo3d_rows[] = {
    SETTING_BOOL_ROW(struct halo3d_settings, "periodic", periodic, 1,
                     "halo3d: the grid wraps around (a torus)"),
};

static const struct setting_table halo3d_table = {
    "jobs", "halo3d", halo3d_rows, 1, sizeof(struct halo3d_settings), NULL};

struct halo3d {
    int dims[3];
    bool periodic;
};

static int halo3d_init(struct motif_instance *mi, char *err, size_t err_len)
{
    struct halo3d *h = malloc(sizeof *h);
    if (!h) {
        snprintf(err, err_len, "halo3d: out of memory");
        return -1;
    }
    h->periodic = ((const struct halo3d_settings *)motif_settings_of(mi))->periodic;
    if (motif_grid(mi, "halo3d", 3, h->dims, err, err_len) != 0) {
        free(h);
        return -1;
    }
    mi->state = h;
    mi->steps = 1;
    mi->max_sends = mi->max_recvs = 6;
    return 0;
}

static void halo3d_destroy(struct motif_instance *mi)
{
    free(mi->state);
}

/* The neighbours of rank in the order -x, +x, -y, +y, -z, +z (repeats kept); how many. */
static int halo3d_neighbours(const struct motif_instance *mi, int32_t rank, int32_t *out)
{
    const struct halo3d *h = mi->state;
    int coord[3] = {rank % h->dims[0], rank / h->dims[0] % h->dims[1],
                    rank / (h->dims[0] * h->dims[1])};
    int32_t stride[3] = {1, h->dims[0], h->dims[0] * h->dims[1]};
    int count = 0;
    for (int d = 0; d < 3; d++)
        for (int dir = -1; dir <= 1; dir += 2) {
            int c = coord[d] + dir;
            if (h->dims[d] == 1)
                continue;
            if (c < 0 || c >= h->dims[d]) {
                if (!h->periodic)
                    continue;
                c = (c + h->dims[d]) % h->dims[d];
            }
            out[count++] = rank + (c - coord[d]) * stride[d];
        }
    return count;
}

static int halo3d_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                        struct motif_send *out)
{
    (void)iteration;
    (void)step;
    int32_t peer[6];
    int count = halo3d_neighbours(mi, rank, peer);
    for (int i = 0; i < count; i++)
        out[i] = (struct motif_send){peer[i], 0, mi->params.message_bytes};
    return count;
}

/* The same neighbours, a repeated one once with its count. */
static int halo3d_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                        struct motif_recv *out)
{
    (void)iteration;
    (void)step;
    int32_t peer[6];
    int count = halo3d_neighbours(mi, rank, peer), distinct = 0;
    for (int i = 0; i < count; i++) {
        int j = 0;
        while (j < distinct && out[j].src != peer[i])
            j++;
        if (j == distinct)
            out[distinct++] = (struct motif_recv){peer[i], 0};
        out[j].count++;
    }
    return distinct;
}

static const char *const halo3d_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_halo3d = {
    .name = "halo3d",
    .summary = "3-D stencil on the process grid dims: send to 6 neighbours, wait for 6",
    .keys = halo3d_keys,
    .settings = &halo3d_table,
    .grid = 3,
    .init = halo3d_init,
    .destroy = halo3d_destroy,
    .sends = halo3d_sends,
    .recvs = halo3d_recvs,
};
