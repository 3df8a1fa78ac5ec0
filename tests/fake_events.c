/* fake_events: see fake_events.h. */
#include "fake_events.h"

#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdlib.h>

static bool fake_before(const struct fake_event *a, const struct fake_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void fake_events_push(struct fake_events *q, struct fake_event ev)
{
    if (q->count == q->capacity) {
        q->capacity = q->capacity ? 2 * q->capacity : 1024;
        q->heap = realloc(q->heap, q->capacity * sizeof *q->heap);
        CU_ASSERT_PTR_NOT_NULL_FATAL(q->heap);
    }
    ev.seq = q->seq++;
    size_t i = q->count++;
    while (i > 0 && fake_before(&ev, &q->heap[(i - 1) / 2])) {
        q->heap[i] = q->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->heap[i] = ev;
}

struct fake_event fake_events_pop(struct fake_events *q)
{
    struct fake_event top = q->heap[0], last = q->heap[--q->count];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= q->count)
            break;
        if (child + 1 < q->count && fake_before(&q->heap[child + 1], &q->heap[child]))
            child++;
        if (!fake_before(&q->heap[child], &last))
            break;
        q->heap[i] = q->heap[child];
        i = child;
    }
    q->heap[i] = last;
    return top;
}
