/* fuzz_input: one fuzzing input of the config loader and its properties, shared by the
 * libFuzzer harness (tests/fuzz/fuzz_config.c) and the CUnit replay of the corpus and of the
 * regression inputs (tests/test_fuzz.c). */
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

#endif
