/* motif: closed-loop jobs. An engine runs one job's motif (an application's communication
 * pattern with the real algorithm's dependencies) over its ranks against an abstract network:
 * it says which messages to send and when; the caller says when each message left its NIC and
 * when it fully arrived. The engine knows messages, never packets. Motifs are plug-ins. */
#ifndef DFSIM_MOTIF_H
#define DFSIM_MOTIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"

struct motif_ops;
struct motif_instance;

/* ---- settings --------------------------------------------------------------------------- */

/* Room for one motif's own settings (its table's struct): a path (SETTING_STRING_LEN) and a few
 * numbers, as a program read from a file needs. */
#define MOTIF_SETTINGS_BYTES 320

/* What a motif run reads: the job's common settings, the process grid of grid motifs, and the
 * chosen motif's own settings (its table, motif_ops.settings: allreduce's threshold). */
struct motif_params {
    uint64_t message_bytes;  /* per message (allreduce: the whole vector) */
    uint32_t iterations;     /* >= 1 */
    uint64_t compute_cycles; /* of no injection at the start of every iteration */
    int dims[3];             /* grid motifs (motif_grid_settings): process-grid sizes ... */
    int dims_count;          /* ... as given; 0: the motif picks a balanced grid */
    /* (0, 1]: after each step a rank computes (1 - intensity) / intensity times the cycles
     * that step had sends not yet left (1: no such gap) */
    double intensity;
    const struct setting_table *settings_of; /* whose values settings holds (NULL: defaults) */
    _Alignas(8) unsigned char settings[MOTIF_SETTINGS_BYTES];
};

/* message_bytes 4096, iterations 1, compute_cycles 0, dims chosen, intensity 1, the motif's
 * own settings at their defaults. */
void motif_params_default(struct motif_params *p);
/* Where ops' own setting `name` lives in p (its other settings at their defaults when p held
 * another motif's), to set it: *(int *)motif_setting(&p, &motif_broadcast, "root") = 3.
 * NULL when ops has no such setting. */
void *motif_setting(struct motif_params *p, const struct motif_ops *ops, const char *name);
/* The own settings of the motif mi runs (its table's struct), or NULL when it has none. */
const void *motif_settings_of(const struct motif_instance *mi);

/* The setting grid motifs share: dims, the process grid (struct motif_grid_settings). */
struct motif_grid_settings {
    struct setting_int_list dims;
};
extern const struct setting_table motif_grid_table;

/* ---- the plug-in interface -------------------------------------------------------------- */

/* Iteration = compute_cycles, then steps 0 .. steps-1. At each step a rank issues its sends at
 * once, then waits until they have left and its receives have arrived; then the next step.
 * A message carries the receiver's step (its tag), so a receiver matches a message of a later
 * step that arrives early; sends that depend on receives go one step after them. */
struct motif_send {
    int32_t dst;
    uint32_t step; /* the step of dst's iteration that receives it */
    uint64_t bytes;
};

struct motif_recv {
    int32_t src;
    uint32_t count; /* messages from src in this step (halo3d on a ring of 2: two) */
};

/* What a motif sees of its run. */
struct motif_instance {
    struct motif_params params;
    int nranks;
    uint64_t seed;            /* of the job's random stream (uniform_exchange) */
    uint32_t steps;           /* per iteration: set by init */
    int max_sends, max_recvs; /* most entries one rank has in one step: set by init */
    void *state;
    const char *fault_key; /* init's failure: the job key at fault ("root", "dims"); NULL: nodes */
};

struct motif_ops {
    const char *name;    /* as written in configs */
    const char *summary; /* one line for the README */
    /* The job keys it reads besides motif, iterations and compute_cycles, NULL-terminated;
     * NULL: none. */
    const char *const *keys;
    /* Its own settings, stored in the job's arena (NULL: none); a table shared by several
     * motifs belongs to the first in the registry that points to it. */
    const struct setting_table *settings;
    /* Reads the process grid of motif_grid_table (dims), with this many dimensions (0: none). */
    int grid;
    /* Iteration k + 1 begins for every rank only once every rank has finished iteration k
     * (the study's flat broadcast rounds); otherwise ranks run ahead as far as their own
     * dependencies allow. */
    bool global_sync;
    /* Checks the params against nranks (>= 2), sets steps, max_sends, max_recvs, may allocate
     * state. Returns 0, or -1 with err ("halo3d: dims ... (expected ...)"). */
    int (*init)(struct motif_instance *mi, char *err, size_t err_len);
    void (*destroy)(struct motif_instance *mi);
    /* The sends and receives of rank at (iteration, step): how many written to out, or -1
     * when the motif cannot build them (out of memory). */
    int (*sends)(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                 struct motif_send *out);
    int (*recvs)(struct motif_instance *mi, int32_t rank, uint32_t iteration, uint32_t step,
                 struct motif_recv *out);
    /* Optional: every rank has finished this iteration (the motif may free what it drew). */
    void (*iteration_done)(struct motif_instance *mi, uint32_t iteration);
};

extern const struct motif_ops *const motif_registry[]; /* NULL-terminated */
const struct motif_ops *motif_find(const char *name);
const char *const *motif_names(void);
int motif_count(void);
/* Registry plug-in i's table (NULL for a table an earlier motif owns), for the schema. */
const struct setting_table *motif_settings_at(int i);

extern const struct motif_ops motif_pingpong, motif_alltoall, motif_allreduce, motif_barrier,
    motif_broadcast, motif_broadcast_flat, motif_halo3d, motif_sweep3d, motif_uniform_exchange;
extern const struct motif_ops motif_reduce;

/* The allreduce motif's threshold in its settings (a job's slice of motif_allreduce.settings):
 * a trace job's allreduce picks its algorithm by it too. */
uint64_t motif_allreduce_threshold_of(const void *settings);

/* For grid motifs: the process grid of `want` dimensions, from params.dims when given (their
 * product must be nranks) or else the most balanced factorisation of nranks, largest first
 * (as MPI_Dims_create). Returns 0, or -1 with err naming the motif. */
int motif_grid(struct motif_instance *mi, const char *motif, int want, int *dims, char *err,
               size_t err_len);

/* ---- the engine ------------------------------------------------------------------------- */

struct motif_run;

/* Called once per message the engine wants sent now; bytes may be 0 (barrier), which the
 * caller still sends as one packet. tag identifies the message for motif_run_delivered. */
typedef void (*motif_send_fn)(void *ctx, int32_t src_rank, int32_t dst_rank, uint64_t bytes,
                              uint32_t tag);

/* A run of motif ops over nranks ranks; seed feeds the motif's random stream. Checks the
 * params ("pingpong needs an even number of ranks ..."). NULL with err on failure, and in
 * *fault_key (when not NULL) the job key at fault: "nodes", "iterations", "root", "dims". */
struct motif_run *motif_run_create(const struct motif_ops *ops, const struct motif_params *p,
                                   int nranks, uint64_t seed, char *err, size_t err_len,
                                   const char **fault_key);
void motif_run_destroy(struct motif_run *m);

/* Told when a rank computes, from cycle `from` to `to` (its iteration's compute_cycles plus
 * any intensity gap, or a gap between steps; never an empty phase); returns 0, or -1 (out of
 * memory: the run fails). A recording (--trace-out) needs it: the engine's compute is not
 * visible in the messages. */
typedef int (*motif_compute_fn)(void *ctx, int32_t rank, uint64_t from, uint64_t to);
/* fn (NULL: none) is told of every compute phase from now on. */
void motif_run_observe_compute(struct motif_run *m, motif_compute_fn fn, void *ctx);
/* Every rank begins iteration 0 at cycle now, with its compute phase. */
void motif_run_start(struct motif_run *m, uint64_t now);
/* A new round of an open-ended job: next (same ranks, not started) takes over the intensity
 * gap each rank of the finished round `done` still owes after its last step, so that its
 * first iteration waits for it as any later one would. */
void motif_run_carry_gaps(struct motif_run *next, const struct motif_run *done);
/* The earliest cycle at which motif_run_advance has something to do (a compute phase ends, or
 * ranks became ready to send at that cycle); UINT64_MAX when nothing is due without a sent or
 * delivered event first. */
uint64_t motif_run_next_wake(const struct motif_run *m);
/* Ranks whose compute has ended by now, or whose previous step completed, issue their next
 * sends through `send` (in the order they became ready). Returns 0, or -1 when a motif failed
 * (motif_run_error says why). send may call motif_run_sent/delivered itself. */
int motif_run_advance(struct motif_run *m, uint64_t now, motif_send_fn send, void *ctx);
/* The message src_rank sent with this tag has left its NIC (its last packet was injected). */
void motif_run_sent(struct motif_run *m, int32_t src_rank, uint32_t tag, uint64_t now);
/* The message has fully arrived at dst_rank. */
void motif_run_delivered(struct motif_run *m, int32_t src_rank, int32_t dst_rank, uint32_t tag,
                         uint64_t now);
/* Every rank has finished every iteration. */
bool motif_run_done(const struct motif_run *m);
/* NULL, or why advance failed. */
const char *motif_run_error(const struct motif_run *m);

/* The (iteration, step) a tag names. */
void motif_run_tag_decode(const struct motif_run *m, uint32_t tag, uint32_t *iteration,
                          uint32_t *step);

/* For a deadlock message: how many ranks are blocked (waiting for messages, for their sends to
 * leave, or for the other ranks at a synchronised round), and into buf as many as fit:
 * "rank 5 (iteration 3, step 1): from rank 4 (0 of 1); 2 sends not left; ...". */
int motif_run_describe_waiting(struct motif_run *m, char *buf, size_t len);

/* ---- statistics ------------------------------------------------------------------------- */

/* Cycles from start to the end of the last rank's last iteration (0 until done). */
uint64_t motif_run_runtime(const struct motif_run *m);
/* When rank finished iteration (UINT64_MAX if not yet); an iteration lasts from the end of the
 * previous one (or the start) and includes its compute phase and any synchronisation wait. */
uint64_t motif_run_iteration_end(const struct motif_run *m, int32_t rank, uint32_t iteration);
/* Iterations every rank has finished. */
uint32_t motif_run_iterations_completed(const struct motif_run *m);
/* The job's iterations: iteration k ends when its slowest rank ends it, and lasts from the end
 * of iteration k - 1 (or the start) to that end. Writes the durations of the completed
 * iterations to out (room for motif_run_iterations_completed) and returns their count. */
uint32_t motif_run_job_iteration_cycles(const struct motif_run *m, uint64_t *out);

/* Over every finished (rank, iteration): quartiles by nearest rank (the smallest value with at
 * least q of the samples at or below it, as latency_histogram_percentile), in cycles. */
struct motif_summary {
    uint64_t count;
    double min, q1, median, q3, max, mean;
};
/* 0, or -1 (memory). All zero when no iteration has finished. */
int motif_run_iteration_summary(const struct motif_run *m, struct motif_summary *out);

uint64_t motif_run_messages_sent(const struct motif_run *m, int32_t rank);
uint64_t motif_run_messages_received(const struct motif_run *m, int32_t rank);
uint64_t motif_run_bytes_sent(const struct motif_run *m, int32_t rank);
/* Messages that arrived but no step has consumed yet (0 once done: anything else is a message
 * nobody expected). */
uint64_t motif_run_unmatched(const struct motif_run *m);

#endif
