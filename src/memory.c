/* memory: cache-line aligned, huge-page backed allocations. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "memory.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { LINE = 64, HUGE_PAGE = 2 << 20, HUGE_THRESHOLD = 4 << 20 };

void *memory_alloc_lines(size_t bytes)
{
    size_t align = bytes >= HUGE_THRESHOLD ? HUGE_PAGE : LINE;
    size_t size = (bytes + align - 1) & ~(align - 1);
    void *p = aligned_alloc(align, size ? size : align);
    if (!p)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        (void)madvise(p, size, MADV_HUGEPAGE); /* advice only: without it, 4 KiB pages */
#endif
    memset(p, 0, size);
    return p;
}
