/* uniform_exchange: each iteration every rank sends one message of message_bytes to a rank
 * drawn uniformly among the others, and waits for the messages sent to it. A receiver must
 * know how many to wait for, so the iteration's whole send matrix is drawn at once, from a
 * stream seeded by the job's seed and the iteration (the same whatever order ranks reach it),
 * and kept with its inverse (who sends to whom) until every rank has finished the iteration. */
#include <stdio.h>
#include <stdlib.h>

#include "motif.h"
#include "rng.h"

/* One iteration's send matrix: dst[r], and the senders to r in src[first[r] .. first[r+1]). */
struct exchange_round {
    uint32_t iteration;
    bool live;
    int32_t *dst, *first, *src;
};

struct uniform_exchange {
    struct exchange_round *rounds; /* reused once their iteration is done */
    int count, capacity;
};

static int exchange_init(struct motif_instance *mi, char *err, size_t err_len)
{
    struct uniform_exchange *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, err_len, "uniform_exchange: out of memory");
        return -1;
    }
    mi->state = u;
    mi->steps = 1;
    mi->max_sends = 1;
    mi->max_recvs = mi->nranks - 1;
    return 0;
}

static void exchange_destroy(struct motif_instance *mi)
{
    struct uniform_exchange *u = mi->state;
    for (int i = 0; i < u->count; i++) {
        free(u->rounds[i].dst);
        free(u->rounds[i].first);
        free(u->rounds[i].src);
    }
    free(u->rounds);
    free(u);
}

/* Draws the destinations and builds the inverse by counting sort. */
static void exchange_draw(const struct motif_instance *mi, struct exchange_round *round)
{
    int32_t n = mi->nranks;
    struct rng rng;
    rng_seed(&rng, mi->seed, round->iteration);
    for (int32_t r = 0; r <= n; r++)
        round->first[r] = 0;
    for (int32_t r = 0; r < n; r++) {
        int32_t d = (int32_t)rng_below(&rng, (uint32_t)n - 1);
        round->dst[r] = d >= r ? d + 1 : d;
        round->first[round->dst[r] + 1]++;
    }
    for (int32_t r = 0; r < n; r++)
        round->first[r + 1] += round->first[r];
    for (int32_t r = 0; r < n; r++) /* uses first[d] as a cursor, restored below */
        round->src[round->first[round->dst[r]]++] = r;
    for (int32_t r = n; r > 0; r--)
        round->first[r] = round->first[r - 1];
    round->first[0] = 0;
}

/* A free slot, growing the list (and allocating its arrays) if none is free. */
static struct exchange_round *exchange_free_slot(const struct motif_instance *mi,
                                                 struct uniform_exchange *u)
{
    for (int i = 0; i < u->count; i++)
        if (!u->rounds[i].live)
            return &u->rounds[i];
    if (u->count == u->capacity) {
        int capacity = u->capacity ? 2 * u->capacity : 4;
        struct exchange_round *bigger = realloc(u->rounds, (size_t)capacity * sizeof *bigger);
        if (!bigger)
            return NULL;
        u->rounds = bigger;
        u->capacity = capacity;
    }
    size_t n = (size_t)mi->nranks;
    struct exchange_round *round = &u->rounds[u->count];
    *round = (struct exchange_round){0};
    round->dst = malloc(n * sizeof *round->dst);
    round->first = malloc((n + 1) * sizeof *round->first);
    round->src = malloc(n * sizeof *round->src);
    if (!round->dst || !round->first || !round->src) {
        free(round->dst);
        free(round->first);
        free(round->src);
        return NULL;
    }
    u->count++;
    return round;
}

/* The matrix of an iteration, drawn when a rank first needs it; NULL when out of memory. */
static const struct exchange_round *exchange_round_of(struct motif_instance *mi, uint32_t iteration)
{
    struct uniform_exchange *u = mi->state;
    for (int i = 0; i < u->count; i++)
        if (u->rounds[i].live && u->rounds[i].iteration == iteration)
            return &u->rounds[i];
    struct exchange_round *round = exchange_free_slot(mi, u);
    if (!round)
        return NULL;
    round->iteration = iteration;
    round->live = true;
    exchange_draw(mi, round);
    return round;
}

static int exchange_sends(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_send *out)
{
    (void)step;
    const struct exchange_round *round = exchange_round_of(mi, iteration);
    if (!round)
        return -1;
    out[0] = (struct motif_send){round->dst[rank], 0, mi->params.message_bytes};
    return 1;
}

static int exchange_recvs(struct motif_instance *mi, int32_t rank, uint32_t iteration,
                          uint32_t step, struct motif_recv *out)
{
    (void)step;
    const struct exchange_round *round = exchange_round_of(mi, iteration);
    if (!round)
        return -1;
    int count = 0;
    for (int32_t i = round->first[rank]; i < round->first[rank + 1]; i++)
        out[count++] = (struct motif_recv){round->src[i], 1};
    return count;
}

static void exchange_iteration_done(struct motif_instance *mi, uint32_t iteration)
{
    struct uniform_exchange *u = mi->state;
    for (int i = 0; i < u->count; i++)
        if (u->rounds[i].live && u->rounds[i].iteration == iteration)
            u->rounds[i].live = false;
}

static const char *const exchange_keys[] = {"message_bytes", NULL};

const struct motif_ops motif_uniform_exchange = {
    .name = "uniform_exchange",
    .summary = "each iteration every rank sends one message to a uniformly drawn other rank",
    .keys = exchange_keys,
    .init = exchange_init,
    .destroy = exchange_destroy,
    .sends = exchange_sends,
    .recvs = exchange_recvs,
    .iteration_done = exchange_iteration_done,
};
