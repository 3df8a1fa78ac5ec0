/* injection_calendar: a binary min-heap of (cycle, rank) (see injection_calendar.h). */
#include "injection_calendar.h"

#include <stdbool.h>
#include <stdlib.h>

static bool calendar_before(const struct calendar_entry *a, const struct calendar_entry *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->rank < b->rank);
}

int injection_calendar_init(struct injection_calendar *cal, int capacity)
{
    cal->count = 0;
    cal->capacity = capacity;
    cal->heap = malloc((size_t)(capacity > 0 ? capacity : 1) * sizeof *cal->heap);
    return cal->heap ? 0 : -1;
}

void injection_calendar_free(struct injection_calendar *cal)
{
    free(cal->heap);
    cal->heap = NULL;
    cal->count = cal->capacity = 0;
}

void injection_calendar_add(struct injection_calendar *cal, int32_t rank, uint64_t cycle)
{
    struct calendar_entry entry = {.cycle = cycle, .rank = rank};
    int i = cal->count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!calendar_before(&entry, &cal->heap[parent]))
            break;
        cal->heap[i] = cal->heap[parent];
        i = parent;
    }
    cal->heap[i] = entry;
}

void injection_calendar_reschedule_top(struct injection_calendar *cal, uint64_t cycle)
{
    struct calendar_entry entry = {.cycle = cycle, .rank = cal->heap[0].rank};
    int i = 0, n = cal->count;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && calendar_before(&cal->heap[child + 1], &cal->heap[child]))
            child++;
        if (!calendar_before(&cal->heap[child], &entry))
            break;
        cal->heap[i] = cal->heap[child];
        i = child;
    }
    cal->heap[i] = entry;
}
