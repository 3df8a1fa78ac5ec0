/* fake_events: the time-ordered queue of the fake networks that drive the motif and trace
 * engines in their suites (test_motif.c, test_trace.c): a binary heap, ties in push order. */
#ifndef DFSIM_FAKE_EVENTS_H
#define DFSIM_FAKE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

enum fake_kind { FAKE_SENT, FAKE_DELIVERED };

struct fake_event {
    uint64_t time, seq; /* seq: set by fake_events_push */
    int kind;
    int32_t src, dst;
    uint32_t tag;
    uint64_t bytes;
};

struct fake_events {
    struct fake_event *heap;
    size_t count, capacity;
    uint64_t seq;
};

void fake_events_push(struct fake_events *q, struct fake_event ev);
/* The earliest event (q->count > 0). */
struct fake_event fake_events_pop(struct fake_events *q);

#endif
