/* Shared helpers of the test suites. */
#ifndef DFSIM_TEST_UTIL_H
#define DFSIM_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

int test_topology_register(void);
int test_cascade_register(void);
int test_ugal_register(void);
int test_far_end_register(void);
int test_dragonfly_plus_register(void);
int test_routing_min_register(void);
int test_routing_register(void);
int test_arbiter_register(void);
int test_sim_register(void);
int test_stats_register(void);
int test_json_register(void);
int test_config_register(void);
int test_aliases_register(void);
int test_cli_register(void);
int test_invariants_register(void);
int test_fuzz_register(void);
int test_robustness_register(void);
int test_sweep_register(void);
int test_placement_register(void);
int test_job_traffic_register(void);
int test_motif_register(void);
int test_links_register(void);
int test_workload_register(void);
int test_throttle_register(void);
int test_job_routing_register(void);
int test_requests_register(void);
int test_job_inputs_register(void);
int test_config_include_register(void);
int test_core_layers_register(void);
int test_plugin_layers_register(void);
int test_observe_register(void);
int test_trace_register(void);

/* A config with defaults and the given overrides ("topology.h=2", ...) applied in order,
 * validated; aborts the test run on error. */
void test_config(struct sim_config *cfg, const char *const *overrides, int n);
/* The result document (caller frees) of a run of cfg: by sim_run, which jumps over idle
 * cycles, or stepped cycle by cycle as sim_run did before it jumped (stopping, as it does,
 * when the closed-loop jobs are done, and saying whether they were capped). */
char *test_run_document(const struct sim_config *cfg, bool stepped);

struct topology;
/* A canonical dragonfly (p, a, h) with an arrangement (enum topology_arrangement), built
 * through the topology registry; aborts the test on error. */
void test_dragonfly(struct topology *t, int p, int a, int h, int arrangement);
/* Breadth-first distances to router dst over paths that cross at most one global link (the
 * minimal paths of every topology kind here: a path through a third group may be shorter in
 * hops but is not minimal). dist[r] is the distance from r with no global link taken yet,
 * dist[routers + r] with one taken (-1: unreachable); dist and queue hold 2 * routers. */
void test_bfs_one_global(const struct topology *t, int dst, int *dist, int *queue);
/* The ports of router r one hop closer to dst by those distances: exactly the minimal first
 * hops, what min_ports must return. */
uint64_t test_closer_ports(const struct topology *t, int r, const int *dist);

/* A setting of cfg by its full name ("routing.pb_coef"): an integer (a choice's index), or a
 * choice's name; setting one by name or integer. Abort the test on an unknown name. */
int test_setting_int(const struct sim_config *cfg, const char *full);
const char *test_setting_name(const struct sim_config *cfg, const char *full);
void test_set_int(struct sim_config *cfg, const char *full, int value);
void test_set_name(struct sim_config *cfg, const char *full, const char *name);

/* Runs a command line through /bin/sh, captures stdout+stderr into out (NUL-terminated,
 * truncated to out_len) and returns the exit status (or -1 if it did not exit normally). */
int test_run_command(const char *command, char *out, int out_len);

/* A fresh scratch directory /tmp/dfsim-TAG-XXXXXX in dir (64 bytes); 0 or -1. */
int test_tmpdir_create(char dir[64], const char *tag);
/* Removes a scratch directory and everything in it; 0 or -1. */
int test_tmpdir_remove(const char *dir);
/* Grows the zero-filled array *items of *len elements of size bytes to at least need elements
 * (new ones zeroed); the test stops if memory runs out. For observers that keep a record per
 * packet-pool slot. */
void test_grow_zeroed(void **items, uint32_t *len, uint32_t need, size_t size);
/* Writes text to the file DIR/NAME (the test stops if it cannot); its path in path. */
void test_write_text(const char *dir, const char *name, const char *text, char path[128]);
/* Writes config text to DIR/NAME, as users write configs, and loads it with the overrides; the
 * test stops (printing the message) if it does not load. */
void test_load_config_text(const char *dir, const char *name, const char *text,
                           const char *const *ov, int n, struct sim_config *cfg);

struct sim;
/* Runs sim to its end with the invariant recount on every cycle (`dfsim run --check`); asserts
 * it ended well, else prints `what` and `detail` with the network's message. Returns whether it
 * ended well. */
bool test_run_checked(struct sim *sim, const char *what, const char *detail);

/* One named test of a suite. */
struct test_case {
    const char *name;
    void (*fn)(void);
};

/* Registers a suite with its tests; 0 or -1. */
int test_add_suite(const char *name, int (*init)(void), int (*cleanup)(void),
                   const struct test_case *cases, size_t n);

#endif
