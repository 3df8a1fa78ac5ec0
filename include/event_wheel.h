/* event_wheel: a calendar of future events (packet heads reaching a buffer, credits returning,
 * tails reaching a node), one bucket per cycle modulo a power of two larger than any delay.
 * Buckets grow by doubling and are reused, so steady state allocates nothing. */
#ifndef DFSIM_EVENT_WHEEL_H
#define DFSIM_EVENT_WHEEL_H

#include <stddef.h>
#include <stdint.h>

/* EVENT_CREDIT_FRESH: a credit counted by the fresh credits only (network.h, credits_ahead),
 * one cycle after its buffer space was freed, on a link longer than that. */
enum event_kind { EVENT_ARRIVAL, EVENT_CREDIT, EVENT_DELIVERY, EVENT_CREDIT_FRESH };

struct event {
    uint32_t packet; /* EVENT_ARRIVAL, EVENT_DELIVERY */
    uint32_t router; /* receiving router (arrival, credit) */
    uint8_t port;    /* input port (arrival) or output port (credit) */
    uint8_t vc;
    uint8_t kind;
    uint8_t fresh; /* EVENT_CREDIT: the fresh credit too (a link of latency 1) */
};

struct event_bucket {
    struct event *events;
    uint32_t count, capacity;
};

struct event_wheel {
    struct event_bucket *buckets;
    uint32_t mask; /* buckets - 1 */
    uint64_t pending;
};

int event_wheel_init(struct event_wheel *w, uint32_t max_delay);
void event_wheel_free(struct event_wheel *w);
/* Doubles a full bucket's room; 0 or -1 (memory). */
int event_wheel_grow(struct event_bucket *b);
/* Schedules an event at cycle `when` (now < when <= now + max_delay): returns its slot, for
 * the caller to fill in every field, or NULL (memory). Inline: every hop of every packet adds
 * two events, and a call costs more than the addition. The caller writes the fields into the
 * slot: an event assembled elsewhere and copied was built on the stack from byte-wide stores
 * and read back wider, a store-forwarding stall on every hop. */
static inline struct event *event_wheel_add(struct event_wheel *w, uint64_t when)
{
    struct event_bucket *b = &w->buckets[when & w->mask];
    if (b->count == b->capacity && event_wheel_grow(b))
        return NULL;
    w->pending++;
    return &b->events[b->count++];
}
/* The bucket of cycle `now`: process its events in order, then call event_wheel_clear. */
static inline struct event_bucket *event_wheel_bucket(struct event_wheel *w, uint64_t now)
{
    return &w->buckets[now & w->mask];
}
static inline void event_wheel_clear(struct event_wheel *w, struct event_bucket *b)
{
    w->pending -= b->count;
    b->count = 0;
}

#endif
