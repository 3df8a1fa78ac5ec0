/* fuzz_input: one fuzzing input of the config loader, of a run, or of the sweep loader, and
 * its properties, shared by the libFuzzer harnesses (tests/fuzz/fuzz_config.c, fuzz_run.c,
 * fuzz_sweep.c) and the CUnit replay of the corpora and of the regression inputs
 * (tests/test_fuzz.c). */
#ifndef DFSIM_FUZZ_INPUT_H
#define DFSIM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_MAX_OVERRIDES 8

/* The input: the bytes before the first NUL are a config file (none if empty), each
 * NUL-separated piece after it one --set argument (at most FUZZ_MAX_OVERRIDES). Loads it and
 * checks the loader's contract: a rejection has a one-line message; an accepted config
 * passes config_validate and, when small, builds its topology. Returns 0, or -1 with the
 * broken property in why. Crashes, leaks and hangs are the sanitizers' and libFuzzer's. */
int fuzz_config_input(const uint8_t *data, size_t size, char *why, size_t why_len);

/* The same input, loaded and, when accepted and small (at most 400 nodes and routers, its
 * buffers in 128 MiB, at least 30 cycles of its share), simulated with the invariant recount
 * on, network-wide traffic or jobs: for a few hundred cycles at most, or whole as dfsim run
 * runs it (summary and sim.isolate's reruns included) when it fits in them. The run must
 * build, keep every invariant and neither deadlock nor stall (its status stays SIM_OK).
 * Rejections are fuzz_config_input's to check. Returns 0, or -1 with the broken property in
 * why. */
int fuzz_run_input(const uint8_t *data, size_t size, char *why, size_t why_len);

/* The input is a sweep file (in a private directory where ../default.cfg and ../paper_h6.cfg
 * are the repository's configs). Loads it and checks the sweep loader's contract: a rejection
 * has a one-line message naming the file; an accepted sweep of at most 64 points expands
 * into at least one job, or fails with a message, and no two jobs write the same file.
 * Returns 0, or -1 with the broken property in why. */
int fuzz_sweep_input(const uint8_t *data, size_t size, char *why, size_t why_len);

/* The input's first byte picks a file of the coverage trace (tests/data), the rest replaces it
 * in a private copy: the anchor, the definitions, or a location's events or definitions. A
 * refusal names the anchor file; an accepted trace whose receives all have their sends replays
 * on an instant network to its end, or stops with a message naming why. Returns 0, or -1 with
 * the broken property in why. */
int fuzz_trace_input(const uint8_t *data, size_t size, char *why, size_t why_len);

typedef int (*fuzz_harness)(const uint8_t *data, size_t size, char *why, size_t why_len);

/* The body of a libFuzzer entry point: runs the harness on the input and aborts, printing
 * "NAME: broken property", if the input breaks a property (libFuzzer keeps it). Returns 0. */
int fuzz_entry(fuzz_harness harness, const char *name, const uint8_t *data, size_t size);

/* Formats the broken property into why; returns -1. */
int fuzz_fail(char *why, size_t why_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
