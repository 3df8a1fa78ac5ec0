/* motif_arrivals: a hash table of (receiver, sender, tag) -> arrived messages. */
#include "motif_arrivals.h"

#include <stdbool.h>
#include <stdlib.h>

#define MOTIF_ARRIVALS_MIN 64

static uint32_t motif_arrivals_hash(int32_t dst, int32_t src, uint32_t tag)
{
    uint64_t h =
        ((uint64_t)(uint32_t)dst << 32 | (uint32_t)src) ^ ((uint64_t)tag * 0x9e3779b97f4a7c15ULL);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    return (uint32_t)h;
}

static bool motif_arrival_is(const struct motif_arrival *s, int32_t dst, int32_t src, uint32_t tag)
{
    return s->count && s->dst == dst && s->src == src && s->tag == tag;
}

/* The slot holding the key, or the empty slot where it would go. */
static uint32_t motif_arrivals_find(const struct motif_arrivals *a, int32_t dst, int32_t src,
                                    uint32_t tag)
{
    uint32_t i = motif_arrivals_hash(dst, src, tag) & a->mask;
    while (a->slots[i].count && !motif_arrival_is(&a->slots[i], dst, src, tag))
        i = (i + 1) & a->mask;
    return i;
}

static int motif_arrivals_alloc(struct motif_arrivals *a, uint32_t capacity)
{
    a->slots = calloc(capacity, sizeof *a->slots);
    a->mask = capacity - 1;
    a->used = 0;
    return a->slots ? 0 : -1;
}

int motif_arrivals_init(struct motif_arrivals *a, uint32_t expected)
{
    uint32_t capacity = MOTIF_ARRIVALS_MIN;
    while (capacity < 2 * (uint64_t)expected && capacity < (1u << 30))
        capacity *= 2;
    a->total = 0;
    return motif_arrivals_alloc(a, capacity);
}

void motif_arrivals_free(struct motif_arrivals *a)
{
    free(a->slots);
    a->slots = NULL;
}

/* Doubles the table when it is half full, rehashing every key. */
static int motif_arrivals_grow(struct motif_arrivals *a)
{
    struct motif_arrivals bigger;
    if ((a->mask + 1) >= (1u << 30) || motif_arrivals_alloc(&bigger, 2 * (a->mask + 1)) != 0)
        return -1;
    for (uint32_t i = 0; i <= a->mask; i++) {
        const struct motif_arrival *s = &a->slots[i];
        if (s->count) {
            bigger.slots[motif_arrivals_find(&bigger, s->dst, s->src, s->tag)] = *s;
            bigger.used++;
        }
    }
    free(a->slots);
    a->slots = bigger.slots;
    a->mask = bigger.mask;
    return 0;
}

int motif_arrivals_add(struct motif_arrivals *a, int32_t dst, int32_t src, uint32_t tag)
{
    if (2 * (a->used + 1) > a->mask + 1 && motif_arrivals_grow(a) != 0)
        return -1;
    struct motif_arrival *s = &a->slots[motif_arrivals_find(a, dst, src, tag)];
    if (!s->count) {
        *s = (struct motif_arrival){dst, src, tag, 0};
        a->used++;
    }
    s->count++;
    a->total++;
    return 0;
}

uint32_t motif_arrivals_count(const struct motif_arrivals *a, int32_t dst, int32_t src,
                              uint32_t tag)
{
    return a->slots[motif_arrivals_find(a, dst, src, tag)].count;
}

/* Whether the key in slot j, whose home slot is home, may move back into the hole at i. */
static bool motif_arrivals_may_fill(uint32_t hole, uint32_t home, uint32_t j, uint32_t mask)
{
    return ((j - home) & mask) >= ((j - hole) & mask);
}

uint32_t motif_arrivals_take(struct motif_arrivals *a, int32_t dst, int32_t src, uint32_t tag)
{
    uint32_t hole = motif_arrivals_find(a, dst, src, tag);
    uint32_t count = a->slots[hole].count;
    if (!count)
        return 0;
    a->slots[hole].count = 0;
    a->used--;
    a->total -= count;
    /* Backward shift: later keys of the same probe run move into the hole. */
    for (uint32_t j = (hole + 1) & a->mask; a->slots[j].count; j = (j + 1) & a->mask) {
        const struct motif_arrival *s = &a->slots[j];
        uint32_t home = motif_arrivals_hash(s->dst, s->src, s->tag) & a->mask;
        if (motif_arrivals_may_fill(hole, home, j, a->mask)) {
            a->slots[hole] = *s;
            a->slots[j].count = 0;
            hole = j;
        }
    }
    return count;
}
