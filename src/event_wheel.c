/* event_wheel: calendar buckets of events. */
#include "event_wheel.h"

#include <stdlib.h>
#include <string.h>

int event_wheel_init(struct event_wheel *w, uint32_t max_delay)
{
    uint32_t n = 1;
    while (n <= max_delay)
        n <<= 1;
    memset(w, 0, sizeof *w);
    w->buckets = calloc(n, sizeof *w->buckets);
    if (!w->buckets)
        return -1;
    w->mask = n - 1;
    return 0;
}

void event_wheel_free(struct event_wheel *w)
{
    if (w->buckets)
        for (uint32_t i = 0; i <= w->mask; i++)
            free(w->buckets[i].events);
    free(w->buckets);
    memset(w, 0, sizeof *w);
}

int event_wheel_grow(struct event_bucket *b)
{
    uint32_t capacity = b->capacity ? b->capacity * 2 : 64;
    struct event *events = realloc(b->events, (size_t)capacity * sizeof *events);
    if (!events)
        return -1;
    b->events = events;
    b->capacity = capacity;
    return 0;
}
