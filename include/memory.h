/* memory: allocation of the simulator's large arrays (packets, buffers, per-port state). */
#ifndef DFSIM_MEMORY_H
#define DFSIM_MEMORY_H

#include <stddef.h>

/* Zeroed memory aligned to a cache line (64 bytes), released with free(). Arrays of several
 * MiB are also aligned to 2 MiB and marked for transparent huge pages where the system
 * offers them: the cycle loop reads them at random, and 4 KiB pages would cost a TLB miss
 * on most of those reads. Returns NULL when memory is exhausted. */
void *memory_alloc_lines(size_t bytes);
/* memory_alloc_lines for n elements of `size` bytes; NULL also when n * size overflows (as
 * calloc does). */
void *memory_alloc_array(size_t n, size_t size);
/* The same, not zeroed: pages are only committed when first written (a pool that doubles
 * does not pay for its unused half). */
void *memory_alloc_lines_raw(size_t bytes);

#endif
