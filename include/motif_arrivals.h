/* motif_arrivals: the messages of a closed-loop job that have arrived but that the receiving
 * rank's current or a later step has not consumed yet, counted per (receiver, sender, tag).
 * An open-addressing hash table with linear probing and backward-shift deletion (no
 * tombstones): its size follows the messages in flight and early, never ranks squared. */
#ifndef DFSIM_MOTIF_ARRIVALS_H
#define DFSIM_MOTIF_ARRIVALS_H

#include <stdint.h>

struct motif_arrival {
    int32_t dst, src;
    uint32_t tag;
    uint32_t count; /* 0: an empty slot */
};

struct motif_arrivals {
    struct motif_arrival *slots;
    uint32_t mask;  /* capacity - 1, capacity a power of two */
    uint32_t used;  /* occupied slots */
    uint64_t total; /* sum of the counts */
};

/* An empty table with room for about `expected` keys before it grows. 0 or -1 (memory). */
int motif_arrivals_init(struct motif_arrivals *a, uint32_t expected);
void motif_arrivals_free(struct motif_arrivals *a);
/* Counts one more arrival of (dst, src, tag). 0 or -1 (memory, when it has to grow). */
int motif_arrivals_add(struct motif_arrivals *a, int32_t dst, int32_t src, uint32_t tag);
/* How many arrivals of (dst, src, tag) are counted (0 if none). */
uint32_t motif_arrivals_count(const struct motif_arrivals *a, int32_t dst, int32_t src,
                              uint32_t tag);
/* Forgets (dst, src, tag) and returns its count. */
uint32_t motif_arrivals_take(struct motif_arrivals *a, int32_t dst, int32_t src, uint32_t tag);

#endif
