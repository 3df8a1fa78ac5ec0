/* job_traffic: what an open-loop job sends: rank patterns say to which rank of the job a
 * message goes, injection processes say in which cycles a rank creates one. Both address
 * ranks 0..n-1 of one job, never nodes; both are registries of plug-ins looked up by name. */
#ifndef DFSIM_JOB_TRAFFIC_H
#define DFSIM_JOB_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"

struct placement_machine;

/* ---- rank patterns ---------------------------------------------------------------------- */

#define RANK_PATTERN_NONE (-1) /* "this rank sends nothing" (the targets of incast) */

/* A pattern's settings; only those in its ops' keys are read. */
struct rank_pattern_params {
    int offset;  /* tornado: r -> (r + offset) mod n; any value but a multiple of n */
    int targets; /* incast: ranks 0 .. targets-1 receive what every other rank sends */
};

struct rank_pattern;

struct rank_pattern_ops {
    const char *name;        /* as written in configs */
    const char *summary;     /* one line for the README */
    const char *const *keys; /* job keys it reads besides pattern (NULL: none) */
    /* Optional: checks the params against the job and builds tables (pat->state), drawing any
     * randomness from rng. Returns 0, or -1 with err filled. */
    int (*init)(struct rank_pattern *pat, struct rng *rng, char *err, size_t err_len);
    void (*destroy)(struct rank_pattern *pat);
    /* Destination rank of a message from rank src: never src; RANK_PATTERN_NONE only for a
     * rank that sends nothing (see sends). Per-message randomness comes from rng. */
    int32_t (*destination)(const struct rank_pattern *pat, int32_t src, struct rng *rng);
    /* Optional: whether a rank sends at all (NULL: every rank does). */
    bool (*sends)(const struct rank_pattern *pat, int32_t rank);
};

/* One job's pattern; the caller owns the struct (rank_pattern_init fills it). */
struct rank_pattern {
    const struct rank_pattern_ops *ops;
    struct rank_pattern_params params;
    int nranks;
    const int32_t *rank_node;                /* [nranks]: the job's placement */
    const struct placement_machine *machine; /* what group_pair needs to know each rank's group */
    void *state;                             /* the plug-in's tables */
    const char *fault_key; /* init's failure: the job key at fault ("offset"); NULL: nodes */
};

extern const struct rank_pattern_ops *const rank_pattern_registry[]; /* NULL-terminated */
const struct rank_pattern_ops *rank_pattern_find(const char *name);
const char *const *rank_pattern_names(void);
int rank_pattern_count(void);

extern const struct rank_pattern_ops rank_pattern_uniform, rank_pattern_permutation,
    rank_pattern_tornado, rank_pattern_incast, rank_pattern_group_pair, rank_pattern_fanout;

/* Sets up a job's pattern over its nranks (>= 2) ranks placed at rank_node on machine m (both
 * kept by pointer, and read only by patterns that need them: group_pair). Draws once from rng
 * (permutation). Returns 0, or -1 with a one-line message in err naming the pattern. */
int rank_pattern_init(struct rank_pattern *pat, const struct rank_pattern_ops *ops,
                      const struct rank_pattern_params *params, int nranks,
                      const int32_t *rank_node, const struct placement_machine *m, struct rng *rng,
                      char *err, size_t err_len);
void rank_pattern_destroy(struct rank_pattern *pat);

static inline int32_t rank_pattern_destination(const struct rank_pattern *pat, int32_t src,
                                               struct rng *rng)
{
    return pat->ops->destination(pat, src, rng);
}

static inline bool rank_pattern_sends(const struct rank_pattern *pat, int32_t rank)
{
    return !pat->ops->sends || pat->ops->sends(pat, rank);
}

/* How many ranks send (the offered load of a job counts its senders only). */
int rank_pattern_senders(const struct rank_pattern *pat);

/* ---- injection processes ---------------------------------------------------------------- */

/* Rates are messages per cycle per rank; the caller converts a load in phits/node/cycle with
 * its message size in phits (rate = load / phits per message). */
struct injection_params {
    double rate;               /* mean messages per cycle per rank, 0 .. 1 */
    int interval_cycles;       /* periodic: one message every interval (0: round(1 / rate)) */
    int on_cycles, off_cycles; /* on_off: lengths of the two periods */
};

struct injection_process;

struct injection_ops {
    const char *name;        /* as written in configs */
    const char *summary;     /* one line for the README */
    const char *const *keys; /* besides process and load (NULL: none) */
    /* Checks the params, precomputes, draws the per-rank phases from rng. 0 or -1 (err). */
    int (*init)(struct injection_process *ip, struct rng *rng, char *err, size_t err_len);
    /* Whether rank creates a message in this cycle: O(1), at most one draw from rng. The
     * process's definition, which the tests check `next` against; the cycle loop uses next. */
    bool (*fires)(const struct injection_process *ip, int32_t rank, uint64_t cycle,
                  struct rng *rng);
    /* The first cycle >= from in which rank creates a message (UINT64_MAX: never): the same
     * process as asking fires every cycle, but skipping idle cycles in O(1). What the cycle
     * loop uses (injection_calendar.h: a draw per message, model version 5). */
    uint64_t (*next)(const struct injection_process *ip, int32_t rank, uint64_t from,
                     struct rng *rng);
};

/* One job's process; the caller owns the struct (injection_process_init fills it). */
struct injection_process {
    const struct injection_ops *ops;
    struct injection_params params;
    int nranks;
    double mean_rate;   /* messages per cycle per rank it creates on average */
    double p;           /* probability of a message in a cycle (in an on cycle for on_off) */
    uint64_t threshold; /* p for rng_bernoulli */
    struct rng_geometric gap; /* p for rng_geometric: the cycles (on cycles) between messages */
    uint32_t period;    /* periodic: the interval; on_off: on + off cycles */
    uint32_t *phase;    /* [nranks]: periodic: the cycle mod period a rank fires in; on_off:
                         * how far into its period a rank is at cycle 0 */
};

extern const struct injection_ops *const injection_registry[]; /* NULL-terminated */
const struct injection_ops *injection_find(const char *name);
const char *const *injection_names(void);
int injection_count(void);

extern const struct injection_ops injection_bernoulli, injection_periodic, injection_on_off;

/* Sets up a job's process for nranks ranks; phases are drawn from rng now and never again.
 * Returns 0, or -1 with a one-line message in err naming the process. */
int injection_process_init(struct injection_process *ip, const struct injection_ops *ops,
                           const struct injection_params *params, int nranks, struct rng *rng,
                           char *err, size_t err_len);
void injection_process_destroy(struct injection_process *ip);

/* Use one of the two per job: they draw from rng differently (fires one draw per cycle,
 * next one draw per message), so mixing them changes the sequence, not the distribution. */
static inline bool injection_process_fires(const struct injection_process *ip, int32_t rank,
                                           uint64_t cycle, struct rng *rng)
{
    return ip->ops->fires(ip, rank, cycle, rng);
}

static inline uint64_t injection_process_next(const struct injection_process *ip, int32_t rank,
                                              uint64_t from, struct rng *rng)
{
    return ip->ops->next(ip, rank, from, rng);
}

/* The mean messages per cycle per rank the process creates (periodic: 1 / interval). */
double injection_process_rate(const struct injection_process *ip);

#endif
