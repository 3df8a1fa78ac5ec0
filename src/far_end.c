/* far_end: the rings of recent global-port occupancies (see far_end.h). Layer: a data
 * structure of the network's; it knows nothing else. */
#include "far_end.h"

#include <stdlib.h>

#include "memory.h"

/* A read at cycle c >= now - max_delay (c < now) asks sample floor(c / step), while the latest
 * sample may be ceil(now / step): at most (max_delay + 2 step - 2) / step apart, and the ring
 * must hold both ends. */
static uint32_t far_end_depth(uint32_t step, uint32_t max_delay)
{
    uint64_t span = ((uint64_t)max_delay + 2 * (uint64_t)step - 2) / step + 1;
    uint32_t depth = 1;
    while (depth < span)
        depth <<= 1;
    return depth;
}

int far_end_init(struct far_end *h, uint32_t ports, uint32_t step, uint32_t max_delay)
{
    uint32_t depth = far_end_depth(step, max_delay);
    *h = (struct far_end){.step = step, .mask = depth - 1, .ports = ports};
    h->values = memory_alloc_array((size_t)(ports ? ports : 1) * depth, sizeof *h->values);
    h->last = memory_alloc_array(ports ? ports : 1, sizeof *h->last);
    if (!h->values || !h->last) {
        far_end_free(h);
        return -1;
    }
    return 0;
}

void far_end_free(struct far_end *h)
{
    free(h->values);
    free(h->last);
    h->values = NULL;
    h->last = NULL;
}
