/* test_robustness: end-to-end tests of the real binaries where things go wrong around a run:
 * SIGINT/SIGTERM stop it promptly without touching the previous result, outputs that cannot
 * take a result (a full disk, /dev/full, a directory) fail cleanly and leave nothing behind,
 * and `run --check` holds on every routing. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#define TEST_ROB_OUT 16384
#define TEST_ROB_FAST "--quiet --set sim.warmup_cycles=200 --set sim.measure_cycles=500"

static const char *const test_rob_binaries[] = {"./dfsim", "./dfsim-san"};

static char test_rob_dir[64];

static int test_rob_init(void)
{
    return test_tmpdir_create(test_rob_dir, "robust");
}

static int test_rob_cleanup(void)
{
    return test_tmpdir_remove(test_rob_dir);
}

static void test_rob_sleep(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

static double test_rob_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_rob_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* The whole file (up to len - 1 bytes) into buf; "" if unreadable. */
static void test_rob_read(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Number of entries of a directory whose name starts with prefix (without . and ..). */
static int test_rob_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d))
        n += e->d_name[0] != '.' && strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* Runs `binary args`; returns the exit status, output in out. Asserts it took < max s. */
static int test_rob_run(const char *binary, const char *args, char *out, double max_seconds)
{
    char command[2048];
    snprintf(command, sizeof command, "%s %s", binary, args);
    double start = test_rob_now();
    int rc = test_run_command(command, out, TEST_ROB_OUT);
    double took = test_rob_now() - start;
    CU_ASSERT(took < max_seconds);
    if (took >= max_seconds)
        fprintf(stderr, "\n  %s took %.1f s (expected < %.0f s)\n", command, took, max_seconds);
    return rc;
}

static void test_rob_expect(const char *binary, const char *args, int status, const char *fragment,
                            double max_seconds)
{
    char *out = malloc(TEST_ROB_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    int rc = test_rob_run(binary, args, out, max_seconds);
    bool found = strstr(out, fragment) != NULL;
    CU_ASSERT_EQUAL(rc, status);
    CU_ASSERT(found);
    if (rc != status || !found)
        fprintf(stderr, "\n  %s %s\n    expected %d and: %s\n    got %d:\n%s\n", binary, args,
                status, fragment, rc, out);
    free(out);
}

/* ---- signals ---- */

/* Has process pid installed a handler for sig (the SigCgt mask of /proc/PID/status)? */
static bool test_rob_catches(pid_t pid, int sig)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    unsigned long long mask = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "SigCgt: %llx", &mask) == 1)
            break;
    fclose(f);
    return (mask >> (sig - 1)) & 1;
}

/* Starts `binary run conf/default.cfg -o out` on a run of minutes, stdout+stderr to log. */
static pid_t test_rob_start_long_run(const char *binary, const char *out, const char *log)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
    }
    execl(binary, binary, "run", "conf/default.cfg", "-o", out, "--quiet", "--set",
          "sim.measure_cycles=50000000", (char *)NULL);
    _exit(127);
}

/* Waits up to `seconds` for pid; returns its wait status, or -1 (then kills it). */
static int test_rob_wait(pid_t pid, double seconds)
{
    double deadline = test_rob_now() + seconds;
    int status;
    while (test_rob_now() < deadline) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return status;
        test_rob_sleep(0.002);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* One signal to one binary: exit 128 + sig at once (within 2 s on a loaded machine), the
 * message, and the previous result file untouched with nothing else in its directory. */
static void test_rob_interrupt(const char *binary, int sig)
{
    char dir[128], out[160], log[160], text[4096];
    snprintf(dir, sizeof dir, "%s/signal%d-%s", test_rob_dir, sig, binary + 2);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
    snprintf(out, sizeof out, "%s/result.json", dir);
    snprintf(log, sizeof log, "%s/signal%d-%s.log", test_rob_dir, sig, binary + 2);
    test_rob_write(out, "previous result\n");
    pid_t pid = test_rob_start_long_run(binary, out, log);
    CU_ASSERT_FATAL(pid > 0);
    double deadline = test_rob_now() + 20;
    while (!test_rob_catches(pid, sig) && test_rob_now() < deadline)
        test_rob_sleep(0.002);
    test_rob_sleep(0.1); /* well into the cycle loop */
    double sent = test_rob_now();
    kill(pid, sig);
    int status = test_rob_wait(pid, 10);
    double took = test_rob_now() - sent;
    test_rob_read(log, text, sizeof text);
    bool clean = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 128 + sig;
    CU_ASSERT(clean);
    CU_ASSERT(took < 2.0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, sig == SIGINT ? "interrupted by SIGINT at cycle"
                                                      : "interrupted by SIGTERM at cycle"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "no result written"));
    if (!clean || took >= 2.0)
        fprintf(stderr, "\n  %s signal %d: status %#x after %.2f s: %s\n", binary, sig, status,
                took, text);
    test_rob_read(out, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "previous result\n");
    CU_ASSERT_EQUAL(test_rob_entries(dir, ""), 1);
}

static void test_rob_signals(void)
{
    for (int b = 0; b < 2; b++) {
        if (access(test_rob_binaries[b], X_OK) != 0) {
            CU_FAIL("binary missing: run make dfsim dfsim-san");
            continue;
        }
        test_rob_interrupt(test_rob_binaries[b], SIGINT);
        test_rob_interrupt(test_rob_binaries[b], SIGTERM);
    }
}

/* ---- outputs that cannot take a result ---- */

/* -o /dev/full: written in place (never renamed over), fails with ENOSPC, exit 1. */
static void test_rob_dev_full(void)
{
    for (int b = 0; b < 2; b++) {
        test_rob_expect(test_rob_binaries[b], "run conf/default.cfg -o /dev/full " TEST_ROB_FAST, 1,
                        "dfsim: cannot write /dev/full: No space left on device", 60);
        struct stat st;
        CU_ASSERT(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
    }
    CU_ASSERT_EQUAL(test_rob_entries("/dev", "full.tmp"), 0);
    /* A device that takes the document: /dev/null stays a device. */
    test_rob_expect("./dfsim", "run conf/default.cfg -o /dev/null " TEST_ROB_FAST, 0,
                    "result    /dev/null", 60);
    struct stat st;
    CU_ASSERT(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
}

/* Outputs that can never be written are refused before simulating (a run of minutes here
 * must fail at once). */
static void test_rob_output_refused_early(void)
{
    static const char long_run[] = "--quiet --set sim.measure_cycles=50000000";
    char args[512], expected[256];
    snprintf(args, sizeof args, "run conf/default.cfg -o %s %s", test_rob_dir, long_run);
    snprintf(expected, sizeof expected, "dfsim: cannot write %s: Is a directory", test_rob_dir);
    test_rob_expect("./dfsim", args, 1, expected, 5);
    snprintf(args, sizeof args, "run conf/default.cfg -o conf/default.cfg/x.json %s", long_run);
    test_rob_expect("./dfsim", args, 1,
                    "dfsim: cannot write conf/default.cfg/x.json: Not a directory", 5);
    snprintf(args, sizeof args, "run conf/default.cfg -o /nonexistent-dir/x.json %s", long_run);
    test_rob_expect("./dfsim", args, 1, "No such file or directory", 5);
}

/* A full disk (a 4 KiB tmpfs in a private mount namespace, when the tests may mount one):
 * exit 1 with ENOSPC, the previous result intact, no temporary file left. */
static void test_rob_disk_full(void)
{
    char out[TEST_ROB_OUT], cwd[512], mnt[128], command[2048];
    if (test_run_command("unshare -m true", out, sizeof out) != 0) {
        printf("\n    skipped: cannot mount a tmpfs here (needs root and unshare -m)");
        return;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(mnt, sizeof mnt, "%s/tiny", test_rob_dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(mnt, 0755), 0);
    snprintf(command, sizeof command,
             "unshare -m sh -c 'mount -t tmpfs -o size=4k tmpfs %s || exit 9; "
             "printf previous > %s/r.json; "
             "%s/dfsim run %s/conf/default.cfg -o %s/r.json " TEST_ROB_FAST "; "
             "echo \"rc=$?\"; echo \"content=$(cat %s/r.json)\"; echo \"files=$(ls %s)\"'",
             mnt, mnt, cwd, cwd, mnt, mnt, mnt);
    int rc = test_run_command(command, out, sizeof out);
    CU_ASSERT_EQUAL(rc, 0);
    char expected[256];
    snprintf(expected, sizeof expected, "cannot write %s/r.json: No space left on device", mnt);
    static const char *const fragments[] = {"rc=1", "content=previous\n", "files=r.json\n"};
    bool ok = strstr(out, expected) != NULL;
    CU_ASSERT(ok);
    for (int i = 0; i < 3; i++) {
        bool found = strstr(out, fragments[i]) != NULL;
        CU_ASSERT(found);
        ok = ok && found;
    }
    if (!ok)
        fprintf(stderr, "\n  disk full: %s\n", out);
}

/* ---- run --check ---- */

static void test_rob_check_runs(void)
{
    static const char *const routings[] = {
        "--set routing.mechanism=in_transit --set routing.global_policy=nrg",
        "--set routing.mechanism=valiant --set routing.valiant_target=router",
        "--set routing.mechanism=piggyback --set routing.global_policy=crg",
    };
    char args[512];
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < 3; i++) {
            snprintf(args, sizeof args,
                     "run conf/default.cfg --check -o %s/check.json %s --set traffic.load=0.9 "
                     "--set traffic.pattern=adversarial %s",
                     test_rob_dir, TEST_ROB_FAST, routings[i]);
            test_rob_expect(test_rob_binaries[b], args, 0, "accepted", 120);
        }
    snprintf(args, sizeof args, "run conf/default.cfg --check-every 50 -o %s/check.json %s",
             test_rob_dir, TEST_ROB_FAST);
    test_rob_expect("./dfsim", args, 0, "accepted", 60);
}

int test_robustness_register(void)
{
    static const struct test_case tests[] = {
        {"SIGINT/SIGTERM: exit 130/143 at once, previous result kept", test_rob_signals},
        {"-o /dev/full: ENOSPC, exit 1, the device stays", test_rob_dev_full},
        {"unwritable outputs refused before simulating", test_rob_output_refused_early},
        {"full disk: exit 1, previous result kept, no temporary", test_rob_disk_full},
        {"run --check holds on adaptive and nonminimal routings", test_rob_check_runs},
    };
    return test_add_suite("robustness", test_rob_init, test_rob_cleanup, tests,
                          sizeof tests / sizeof tests[0]);
}
