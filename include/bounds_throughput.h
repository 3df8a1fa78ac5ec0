/* bounds_throughput: a throughput bound, as a routing mechanism or a pattern states it for a
 * network and bounds.h reports it (src/METRICS.md#theoretical-bounds). Types only. */
#ifndef DFSIM_BOUNDS_THROUGHPUT_H
#define DFSIM_BOUNDS_THROUGHPUT_H

struct bounds_throughput {
    double load;         /* highest accepted load, phits/(node*cycle) */
    const char *formula; /* e.g. "1/(a*p)"; NULL when the bound is simply 1 */
    const char *reason;  /* one line: why */
    char scaled[96];     /* room for the formula times the global links' bandwidth */
    char why[320];       /* room for the reason and what the buffers add to it */
};

#endif
