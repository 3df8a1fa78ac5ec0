/* trace_match: a hash table from a message's envelope (source, destination, context, tag,
 * sequence number) to a 32-bit value, for the replayer's matching of sends and receives and
 * its per-envelope counters. Open addressing with linear probing; memory follows what is in
 * it. Layer: data only. */
#ifndef DFSIM_TRACE_MATCH_H
#define DFSIM_TRACE_MATCH_H

#include <stdint.h>

struct trace_key {
    int32_t src, dst;
    uint32_t context, tag, seq;
};

struct trace_match {
    struct trace_match_slot {
        struct trace_key key;
        uint32_t value;
        uint32_t used;
    } * slots;
    uint32_t capacity, count;
};

void trace_match_init(struct trace_match *m);
void trace_match_free(struct trace_match *m);
/* The value of key, or NULL when absent (valid until the next put or remove). */
uint32_t *trace_match_get(const struct trace_match *m, const struct trace_key *key);
/* Sets key's value (adding it). 0 or -1 (memory). */
int trace_match_put(struct trace_match *m, const struct trace_key *key, uint32_t value);
/* Removes key if present. */
void trace_match_remove(struct trace_match *m, const struct trace_key *key);

#endif
