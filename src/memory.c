/* memory: cache-line aligned, huge-page backed allocations. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { LINE = 64, HUGE_PAGE = 2 << 20, HUGE_THRESHOLD = 4 << 20 };

static size_t memory_rounded(size_t bytes, size_t *align)
{
    *align = bytes >= HUGE_THRESHOLD ? HUGE_PAGE : LINE;
    size_t size = (bytes + *align - 1) & ~(*align - 1);
    return size ? size : *align;
}

void *memory_alloc_lines_raw(size_t bytes)
{
    size_t align, size = memory_rounded(bytes, &align);
    void *p = aligned_alloc(align, size);
#ifdef MADV_HUGEPAGE
    if (p && align == HUGE_PAGE)
        (void)madvise(p, size, MADV_HUGEPAGE); /* advice only: without it, 4 KiB pages */
#endif
    return p;
}

void *memory_alloc_lines(size_t bytes)
{
    size_t align, size = memory_rounded(bytes, &align);
    void *p = memory_alloc_lines_raw(bytes);
    if (p)
        memset(p, 0, size);
    return p;
}

void *memory_alloc_array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    return memory_alloc_lines(n * size);
}
