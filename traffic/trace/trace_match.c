/* trace_match: envelope -> value (see trace_match.h). Removal shifts the following entries
 * back (no tombstones), so a long run with a steady number of pending messages never
 * degrades. */
#include "trace_match.h"

#include <stdbool.h>
#include <stdlib.h>

void trace_match_init(struct trace_match *m)
{
    *m = (struct trace_match){0};
}

void trace_match_free(struct trace_match *m)
{
    free(m->slots);
    *m = (struct trace_match){0};
}

static uint32_t match_hash(const struct trace_key *k)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    const uint32_t words[5] = {(uint32_t)k->src, (uint32_t)k->dst, k->context, k->tag, k->seq};
    for (int i = 0; i < 5; i++) {
        h ^= words[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
    }
    return (uint32_t)h;
}

static bool match_equal(const struct trace_key *a, const struct trace_key *b)
{
    return a->src == b->src && a->dst == b->dst && a->context == b->context && a->tag == b->tag &&
           a->seq == b->seq;
}

/* The slot holding key, or the empty slot where it would go. */
static uint32_t match_find(const struct trace_match *m, const struct trace_key *key)
{
    uint32_t mask = m->capacity - 1, i = match_hash(key) & mask;
    while (m->slots[i].used && !match_equal(&m->slots[i].key, key))
        i = (i + 1) & mask;
    return i;
}

uint32_t *trace_match_get(const struct trace_match *m, const struct trace_key *key)
{
    if (!m->count)
        return NULL;
    uint32_t i = match_find(m, key);
    return m->slots[i].used ? &m->slots[i].value : NULL;
}

static int match_resize(struct trace_match *m, uint32_t capacity)
{
    struct trace_match grown = {calloc(capacity, sizeof *grown.slots), capacity, 0};
    if (!grown.slots)
        return -1;
    for (uint32_t i = 0; i < m->capacity; i++)
        if (m->slots[i].used) {
            uint32_t j = match_find(&grown, &m->slots[i].key);
            grown.slots[j] = m->slots[i];
            grown.count++;
        }
    free(m->slots);
    *m = grown;
    return 0;
}

int trace_match_put(struct trace_match *m, const struct trace_key *key, uint32_t value)
{
    if (2 * (m->count + 1) > m->capacity &&
        match_resize(m, m->capacity ? 2 * m->capacity : 64) != 0)
        return -1;
    uint32_t i = match_find(m, key);
    if (!m->slots[i].used) {
        m->slots[i].used = 1;
        m->slots[i].key = *key;
        m->count++;
    }
    m->slots[i].value = value;
    return 0;
}

void trace_match_remove(struct trace_match *m, const struct trace_key *key)
{
    if (!m->count)
        return;
    uint32_t mask = m->capacity - 1, i = match_find(m, key);
    if (!m->slots[i].used)
        return;
    m->slots[i].used = 0;
    m->count--;
    /* Backward shift: move up every following entry whose home is not between the hole and
     * it, so that no probe sequence crosses an empty slot it did not cross before. */
    for (uint32_t j = (i + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
        uint32_t home = match_hash(&m->slots[j].key) & mask;
        bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (between)
            continue;
        m->slots[i] = m->slots[j];
        m->slots[j].used = 0;
        i = j;
    }
}
