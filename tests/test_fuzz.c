/* test_fuzz: replays the fuzzing inputs under the test build's sanitizers: every crash, leak
 * or broken message the fuzzers found (tests/fuzz/regressions, regressions_run and
 * regressions_sweep, kept after the fix) and the seed corpora (tests/fuzz/corpus and
 * corpus_sweep) must keep the config and sweep loaders' contracts, and the config inputs
 * small enough to simulate must run a few hundred cycles keeping every invariant. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "test_util.h"

#define TEST_FUZZ_MAX_INPUT (1 << 20)

/* Reads a whole input file; returns its length, or -1. */
static long test_fuzz_read(const char *path, uint8_t *buf, long max)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long n = (long)fread(buf, 1, (size_t)max, f);
    int error = ferror(f);
    fclose(f);
    return error ? -1 : n;
}

/* Replays every file of dir through the harness; returns how many there were. */
static int test_fuzz_replay_dir(const char *dir, fuzz_harness harness)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "\n  %s is missing: run the tests from the repository root\n", dir);
        CU_FAIL("input directory missing");
        return 0;
    }
    uint8_t *buf = malloc(TEST_FUZZ_MAX_INPUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    int count = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        char path[512], why[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        long n = test_fuzz_read(path, buf, TEST_FUZZ_MAX_INPUT);
        CU_ASSERT(n >= 0);
        if (n < 0)
            continue;
        int rc = harness(buf, (size_t)n, why, sizeof why);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc != 0)
            fprintf(stderr, "\n  %s: %s\n", path, why);
        count++;
    }
    closedir(d);
    free(buf);
    return count;
}

static void test_fuzz_regressions(void)
{
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/regressions", fuzz_config_input) >= 1);
    /* The loader's findings run too, and the run harness's findings load too. */
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/regressions", fuzz_run_input) >= 1);
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/regressions_run", fuzz_run_input) >= 1);
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/regressions_run", fuzz_config_input) >= 1);
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/regressions_sweep", fuzz_sweep_input) >= 1);
}

static void test_fuzz_corpus(void)
{
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/corpus", fuzz_config_input) >= 50);
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/corpus", fuzz_run_input) >= 50);
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/corpus_sweep", fuzz_sweep_input) >= 20);
    CU_ASSERT(test_fuzz_replay_dir("tests/fuzz/corpus_trace", fuzz_trace_input) >= 10);
}

/* The harness itself: a file plus --set pieces, and a broken property is reported. */
static void test_fuzz_input_format(void)
{
    static const char good[] = "topology = { p = 2; };\0traffic.load=1\0routing.mechanism=min";
    static const char bad_set[] = "\0traffic.lod=1";
    char why[2048];
    CU_ASSERT_EQUAL(fuzz_config_input((const uint8_t *)good, sizeof good - 1, why, sizeof why), 0);
    CU_ASSERT_EQUAL(
        fuzz_config_input((const uint8_t *)bad_set, sizeof bad_set - 1, why, sizeof why), 0);
    CU_ASSERT_EQUAL(fuzz_config_input((const uint8_t *)"", 0, why, sizeof why), 0);
    /* The run harness: a small network runs whole (60 cycles) and is summarized; the empty
     * input (h=6, 5,256 nodes) is too large to run; a rejected input is not its to check. */
    static const char small[] = "topology = { p = 2; a = 4; h = 2; };\0sim.warmup_cycles=10"
                                "\0sim.measure_cycles=50";
    CU_ASSERT_EQUAL(fuzz_run_input((const uint8_t *)small, sizeof small - 1, why, sizeof why), 0);
    CU_ASSERT_EQUAL(fuzz_run_input((const uint8_t *)"", 0, why, sizeof why), 0);
    CU_ASSERT_EQUAL(fuzz_run_input((const uint8_t *)bad_set, sizeof bad_set - 1, why, sizeof why),
                    0);
    /* The sweep harness: a sweep of two points over a copied base keeps the contract, and so
     * does the empty file (rejected with a message: no base). */
    static const char sweep[] =
        "base = \"../default.cfg\";\naxes = { sim = { seed = [1, 2]; }; };\n";
    CU_ASSERT_EQUAL(fuzz_sweep_input((const uint8_t *)sweep, sizeof sweep - 1, why, sizeof why), 0);
    CU_ASSERT_EQUAL(fuzz_sweep_input((const uint8_t *)"", 0, why, sizeof why), 0);
}

int test_fuzz_register(void)
{
    static const struct test_case tests[] = {
        {"the input format of the harness", test_fuzz_input_format},
        {"fixed fuzzer findings stay fixed", test_fuzz_regressions},
        {"the seed corpora keep the loaders' contracts and run", test_fuzz_corpus},
    };
    return test_add_suite("fuzz", NULL, NULL, tests, sizeof tests / sizeof tests[0]);
}
