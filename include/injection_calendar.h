/* injection_calendar: the cycle of each rank's next message in an open-loop job, in a binary
 * heap ordered by (cycle, rank): a cycle costs the ranks that fire in it, not a draw per
 * rank; the ranks that fire in the same cycle come out in rank order. */
#ifndef DFSIM_INJECTION_CALENDAR_H
#define DFSIM_INJECTION_CALENDAR_H

#include <stdint.h>

struct calendar_entry {
    uint64_t cycle; /* UINT64_MAX: never */
    int32_t rank;
};

struct injection_calendar {
    struct calendar_entry *heap;
    int count, capacity;
};

/* Room for `capacity` ranks; 0 or -1 (memory). */
int injection_calendar_init(struct injection_calendar *cal, int capacity);
void injection_calendar_free(struct injection_calendar *cal);
/* Adds a rank (at most capacity in all) that fires next in `cycle`. */
void injection_calendar_add(struct injection_calendar *cal, int32_t rank, uint64_t cycle);
/* The rank whose cycle is moved by injection_calendar_reschedule_top: the first to fire. */
static inline int32_t injection_calendar_top(const struct injection_calendar *cal)
{
    return cal->heap[0].rank;
}
/* The earliest cycle a rank fires in (UINT64_MAX: none ever does). */
static inline uint64_t injection_calendar_next(const struct injection_calendar *cal)
{
    return cal->count ? cal->heap[0].cycle : UINT64_MAX;
}
/* The top rank fires next in `cycle` (later than its last). */
void injection_calendar_reschedule_top(struct injection_calendar *cal, uint64_t cycle);

#endif
