/* test_cli: end-to-end tests of the real binaries (./dfsim and the sanitized ./dfsim-san):
 * command lines, exit codes, messages, and the result document (src/METRICS.md). */
#include <CUnit/CUnit.h>
#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "test_util.h"

#define TEST_CLI_OUT 16384
#define TEST_CLI_FAST "--quiet --set sim.warmup_cycles=200 --set sim.measure_cycles=500"

static const char *const test_cli_binaries[] = {"./dfsim", "./dfsim-san"};

static char test_cli_dir[64];

static int test_cli_init(void)
{
    return test_tmpdir_create(test_cli_dir, "cli");
}

static int test_cli_cleanup(void)
{
    return test_tmpdir_remove(test_cli_dir);
}

/* Runs BINARY ARGS (a shell fragment); returns the exit status, output in out. */
static int test_cli_run(const char *binary, const char *args, char *out)
{
    char command[2048];
    snprintf(command, sizeof command, "%s %s", binary, args);
    return test_run_command(command, out, TEST_CLI_OUT);
}

static bool test_cli_binary_present(const char *binary)
{
    if (access(binary, X_OK) == 0)
        return true;
    fprintf(stderr, "\n  %s is missing: run `make dfsim dfsim-san` from the repository root\n",
            binary);
    CU_FAIL("binary missing");
    return false;
}

/* Runs the case on both binaries and checks status and message fragment. */
static void test_cli_expect(const char *args, int status, const char *fragment)
{
    char *out = malloc(TEST_CLI_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    for (int b = 0; b < 2; b++) {
        if (!test_cli_binary_present(test_cli_binaries[b]))
            continue;
        int rc = test_cli_run(test_cli_binaries[b], args, out);
        bool found = strstr(out, fragment) != NULL;
        CU_ASSERT_EQUAL(rc, status);
        CU_ASSERT(found);
        if (rc != status || !found)
            fprintf(stderr, "\n  %s %s\n    expected %d and: %s\n    got %d:\n%s\n",
                    test_cli_binaries[b], args, status, fragment, rc, out);
    }
    free(out);
}

/* ---- bad command lines and configs ---- */

static const struct {
    const char *args;
    int status;
    const char *fragment;
} test_cli_cases[] = {
    {"", 2, "missing command"},
    {"frobnicate", 2, "unknown command 'frobnicate'"},
    {"--frob", 2, "unknown option '--frob'"},
    {"frobnicate", 2, "usage: dfsim run CONFIG"},
    {"run", 2, "run: missing CONFIG"},
    {"run conf/default.cfg --frob", 2, "run: unknown option '--frob'"},
    {"run conf/default.cfg extra.cfg", 2, "run: unexpected argument 'extra.cfg'"},
    {"run conf/default.cfg -o", 2, "-o needs a file name"},
    {"run conf/default.cfg --set", 2, "--set needs KEY=VALUE"},
    {"info conf/default.cfg -o x.json", 2, "info: unknown option '-o'"},
    {"info", 2, "info: missing CONFIG"},
    {"run conf/missing.cfg", 2, "conf/missing.cfg: cannot read: No such file or directory"},
    {"info conf/missing.cfg", 2, "conf/missing.cfg: cannot read: No such file or directory"},
    {"run conf/default.cfg --set traffic.load=2", 2,
     "--set traffic.load=2: traffic.load: 2 is more than a node can offer (expected at most "
     "links.bandwidth_node = 1 phits/cycle"},
    {"run conf/default.cfg --set foo", 2,
     "--set foo: expected KEY=VALUE with KEY like traffic.load"},
    {"run conf/default.cfg --set traffic.lod=0.3", 2,
     "traffic.lod: unknown setting (did you mean 'traffic.load'?)"},
    {"run conf/default.cfg --set=routing.mechanism=vallant", 2,
     "routing.mechanism: unknown value 'vallant' (expected one of: min"},
    {"run conf/default.cfg -s traffic.pattern=uniforn", 2,
     "traffic.pattern: unknown value 'uniforn' (expected one of: uniform"},
    {"run conf/default.cfg -s vcs.local=1", 2,
     "vcs.local: routing 'min' needs at least 2 local VCs (got 1)"},
    {"run conf/default.cfg --set topology.p=0", 2,
     "topology.p: 0 is out of range (expected an integer >= 1)"},
    {"run conf/default.cfg --set buffers.global=4", 2,
     "buffers.global: 4 phits cannot hold one packet of traffic.packet_size = 8 phits"},
    /* unreadable or unusable config paths (as root, permissions do not stop reads) */
    {"run ''", 2, "'': cannot read: empty file name"},
    {"info conf/default.cfg/x.cfg", 2, "conf/default.cfg/x.cfg: cannot read: Not a directory"},
    {"info conf", 2, "conf: cannot read: Is a directory"},
    {"info /dev/zero", 2, "/dev/zero: cannot read: larger than 16 MiB"},
    {"info /dev/stdin < conf/default.cfg", 0, "9 groups, 36 routers, 72 nodes"},
    {"info /dev/stdin < /bin/sh", 2, "/dev/stdin:1: NUL byte at offset"},
    /* libconfig alone ends the process inside its scanner on an include of a directory */
    {"run /dev/stdin < tests/fuzz/regressions/include_empty_name_is_directory", 2,
     "/dev/stdin:1: @include: \"\": /dev/ is a directory (expected a config file)"},
    /* inconsistent combinations */
    {"run conf/default.cfg --set routing.mechanism=valiant --set routing.valiant_target=router "
     "--set vcs.local=3",
     2, "--set vcs.local=3: vcs.local: routing 'valiant' needs at least 4 local VCs (got 3)"},
    {"run conf/default.cfg --set routing.mechanism=oblivious --set routing.global_policy=nrg", 2,
     "routing.global_policy: routing 'oblivious' has no global policy 'nrg' (expected one of: "
     "crg, rrg)"},
    /* settings that the chosen plug-ins do not read (conf/README.md): typed, an error */
    {"run conf/default.cfg --set routing.mechanism=ugal --set routing.global_policy=mm", 2,
     "--set routing.global_policy=mm: routing.global_policy: \"mm\" is not read by "
     "routing.mechanism \"ugal\" (expected a routing.mechanism that reads it: oblivious, "
     "piggyback, in_transit; or no routing.global_policy)"},
    {"run conf/default.cfg --set routing.misroute_threshold=40", 2,
     "--set routing.misroute_threshold=40: routing.misroute_threshold: 40 is not read by "
     "routing.mechanism \"min\" (expected a routing.mechanism that reads it: in_transit; or no "
     "routing.misroute_threshold)"},
    /* a shape of another topology kind in the file that chose the kind: an error */
    {"info tests/unread/dfplus_rows.cfg", 2,
     "tests/unread/dfplus_rows.cfg:3: topology.rows: 3 is not read by topology.kind "
     "\"dragonfly_plus\", nor is topology.a = 4 from tests/unread/base.cfg:3 (expected a "
     "topology.kind that reads it: cascade; or no topology.rows)"},
    /* a shape with no kind chosen at all: an error; a file spelling out a default: nothing */
    {"info /dev/stdin <<'EOF'\ntopology = { rows = 3; };\nEOF", 2,
     "/dev/stdin:1: topology.rows: 3 is not read by topology.kind \"dragonfly\" (expected a "
     "topology.kind that reads it: cascade; or no topology.rows)"},
    {"info /dev/stdin 2>&1 >/dev/null <<'EOF' | grep -c .\ntopology = { rows = 6; };\nEOF", 1,
     "0\n"},
    /* a mechanism's setting in a file: a warning; no topology group: a note */
    {"info tests/unread/min_threshold.cfg", 0,
     "dfsim: warning: tests/unread/min_threshold.cfg:2: routing.misroute_threshold = 40: not "
     "read by routing.mechanism \"min\" (read by in_transit)"},
    {"info tests/unread/min_threshold.cfg", 0,
     "dfsim: note: tests/unread/min_threshold.cfg: no topology group: the default dragonfly "
     "p=6 h=6 a=12"},
    {"info tests/unread/base.cfg --set routing.mechanism=ugal", 0,
     "dfsim: warning: tests/unread/base.cfg:4: routing.misroute_threshold = 40: not read by "
     "routing.mechanism \"ugal\" (read by in_transit)"},
    /* a sweep varying mechanisms over a common base runs; the warning comes once */
    {"sweep tests/unread/sweep.cfg --list 2>&1 | grep -c 'not read by'", 0, "2\n"},
    {"sweep tests/unread/sweep.cfg --list", 0,
     "dfsim: warning: tests/unread/sweep.cfg:4: routing.global_policy = \"mm\": not read by "
     "routing.mechanism \"ugal\" (read by oblivious, piggyback, in_transit) (in the points of "
     "tests/unread/sweep.cfg)"},
    {"sweep tests/unread/sweep.cfg --list", 0,
     "dfsim: warning: tests/unread/base.cfg:4: routing.misroute_threshold = 40: not read by "
     "routing.mechanism \"ugal\" (read by in_transit) (in the points of tests/unread/sweep.cfg)"},
    {"run conf/default.cfg --set traffic.packet_size=40", 2,
     "--set traffic.packet_size=40: buffers.local: 32 phits cannot hold one packet"},
    /* bad --set and option syntax: control characters are spelled out, one line */
    {"run conf/default.cfg --set \"$(printf 'traffic.load=0.5\\nx')\"", 2,
     "--set traffic.load=0.5\\nx: traffic.load: expected a number, got a string ('0.5\\nx')"},
    {"run conf/default.cfg --set traffic.load==0.5", 2,
     "traffic.load: expected a number, got a string ('=0.5')"},
    {"run conf/default.cfg --set traffic..load=1", 2,
     "traffic..load: unknown setting (did you mean 'traffic.load'?)"},
    {"run conf/default.cfg -o ''", 2, "-o needs a file name"},
    {"run conf/default.cfg --check-every 0", 2,
     "--check-every needs a positive number of cycles (got '0')"},
    {"run conf/default.cfg --check-every=1e3", 2,
     "--check-every=1e3 needs a positive number of cycles (got '1e3')"},
    {"info conf/default.cfg --check", 2, "info: unknown option '--check'"},
    {"--version", 0, "dfsim "},
    {"-V", 0, "dfsim "},
    {"--help", 0, "usage: dfsim run CONFIG [-o OUT.json] [--set KEY=VALUE]... [--quiet]"},
    {"--help", 0, "dfsim info CONFIG"},
    {"--help", 0, "Exit status: 0 success"},
    {"run --help", 0, "--output FILE"},
    /* every subcommand's own --help: its usage, not another command's */
    {"run --help", 0, "usage:\n       dfsim run CONFIG [-o OUT.json]"},
    {"run --help | grep -c 'dfsim info\\|--origins\\|dfsim sweep'", 1, "0\n"},
    {"info --help", 0,
     "usage:\n       dfsim info CONFIG|RESULT.json [--set KEY=VALUE]... [--origins]\n"},
    {"info --help | grep -c 'dfsim run\\|--fairness\\|--output'", 1, "0\n"},
    {"sweep --help", 0, "usage:\n       dfsim sweep SWEEP [--jobs N]"},
    {"sweep --help | grep -c 'dfsim merge\\|saturation'", 1, "0\n"},
    {"merge --help", 0, "usage:\n       dfsim merge DIR\n\n  merge       rebuild DIR/sweep.json"},
    {"saturation --help", 0, "usage:\n       dfsim saturation CONFIG [--set KEY=VALUE]..."},
    {"saturation --help | grep -c 'dfsim sweep'", 1, "0\n"},
    {"settings --help", 0, "usage: dfsim settings [--markdown | KEY]\n"},
    {"schema --help", 0, "usage: dfsim schema --json | --markdown"},
    {"--help", 0, "       dfsim settings [--markdown | KEY]\n       dfsim COMMAND --help\n"},
    /* dfsim settings KEY */
    {"settings routing.global_policy", 0,
     "routing.global_policy = \"rrg\";\n  default  \"rrg\"\n  allowed  crg, rrg, nrg, mm\n"
     "  read by  routing.mechanism oblivious, piggyback, in_transit (else reported: "
     "conf/README.md)\n  meaning  global misrouting policy (nrg and mm: in_transit only)\n"
     "  glossary CRG: Current-router global misrouting"},
    {"settings routing.global_policy", 0,
     "\n           MM: Mixed-mode misrouting policy of in-transit routing"},
    {"settings traffic.pattern", 0,
     "  aliases  UN, ADV, ADV+i, ADVc (conf/GLOSSARY.md)\n"
     "  read by  every run\n"},
    {"settings topology.rows", 0, "  read by  topology.kind cascade (else reported"},
    {"settings jobs.load", 0, "jobs[].load = 0;\n"},
    {"settings topology.a", 0, "  glossary no entry names it (conf/GLOSSARY.md)\n"},
    {"settings routing.glob_policy", 2,
     "dfsim: settings: routing.glob_policy: unknown setting (did you mean "
     "'routing.global_policy'?)"},
    {"settings routing.foo", 2,
     "dfsim: settings: routing.foo: unknown setting (expected one of: routing.mechanism, "
     "routing.min_choice, routing.global_policy"},
    {"settings --frob", 2, "dfsim: settings: unknown argument '--frob'"},
    {"info conf/default.cfg", 0, "9 groups, 36 routers, 72 nodes, radix 7"},
    {"info conf/default.cfg", 0, "needs 2 local and 1 global VCs"},
    {"info conf/default.cfg --set topology.h=3 --set topology.a=6 --set topology.p=3", 0,
     "19 groups, 114 routers, 342 nodes, radix 11"},
    {"info conf/default.cfg --set traffic.pattern=adversarial", 0,
     "accepted load <= 0.1250 phits/node/cycle = 1/(a*p)"},
    {"info conf/default.cfg --set traffic.pattern=adversarial_consecutive", 0,
     "accepted load <= 0.2500 phits/node/cycle = h/(a*p)"},
    {"info conf/default.cfg", 0, "zero-load  latency"},
    {"info conf/dragonfly_plus_3456.cfg", 0,
     "links      node 3.66, local 1.2, global 1 phits/cycle; crossbar 4 phits/cycle per port "
     "(router.speedup 4)"},
    {"info conf/default.cfg --set router.speedup=3", 0, "crossbar 2.66667 phits/cycle per port"},
    {"info conf/dragonfly_plus_3456.cfg --set router.speedup=2", 0,
     "warning    the node links (links.bandwidth_node = 3.66) are faster than the crossbar "
     "(router.speedup = 2): it bounds them at 2 phits/cycle"},
    {"info conf/paper_h6.cfg", 0, "73 groups, 876 routers, 5256 nodes, radix 23"},
    /* buffers against the credit round trip: 2*latency + router.latency + 8/speedup cycles */
    {"info conf/default.cfg", 0,
     "buffers    local 32 phits per VC / 29-cycle credit round trip = 1.103 phits/cycle per VC; "
     "global 256 / 209 = 1.225"},
    {"info conf/default.cfg --set links.bandwidth_global=2", 0,
     "warning    the global links (links.bandwidth_global = 2) are faster than their buffers "
     "cover (buffers.global = 256 phits per VC, 209-cycle credit round trip): they bound a VC at "
     "1.225 phits/cycle"},
    {"info conf/default.cfg --set topology.h=3 --set topology.a=6 --set topology.p=3 "
     "--set traffic.pattern=adversarial --set links.bandwidth_global=2",
     0,
     "accepted load <= 0.0680 phits/node/cycle = r_global * 1/(a*p) (MIN under ADV+i: one global "
     "link per group pair; a global link carries at most r_global = 1.2249 phits/cycle, below "
     "b_global = 2: 1 VC of 256 phits, each refilled once per 209-cycle credit round trip)"},
    {"info conf/default.cfg --set topology.h=3 --set topology.a=6 --set topology.p=3 "
     "--set traffic.pattern=adversarial --set links.bandwidth_global=2 "
     "--set buffers.global=512",
     0,
     "accepted load <= 0.1111 phits/node/cycle = b_global * 1/(a*p) (MIN under ADV+i: one "
     "global link per group pair)\n"},
};

static void test_cli_command_lines(void)
{
    for (size_t i = 0; i < sizeof test_cli_cases / sizeof test_cli_cases[0]; i++)
        test_cli_expect(test_cli_cases[i].args, test_cli_cases[i].status,
                        test_cli_cases[i].fragment);
}

static void test_cli_bad_config_file(void)
{
    char path[128], args[512], expected[256];
    snprintf(path, sizeof path, "%s/bad.cfg", test_cli_dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("# a misspelt key\ntraffic = {\n    lod = 0.3;\n};\n", f);
    fclose(f);
    snprintf(args, sizeof args, "run %s -o %s/bad.json", path, test_cli_dir);
    snprintf(expected, sizeof expected,
             "%s:3: traffic.lod: unknown setting (did you mean 'traffic.load'?)", path);
    test_cli_expect(args, 2, expected);
    /* Nothing is simulated on bad input: no result appears. */
    snprintf(path, sizeof path, "%s/bad.json", test_cli_dir);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

static void test_cli_unwritable_output(void)
{
    test_cli_expect("run conf/default.cfg -o /nonexistent-dir/x.json " TEST_CLI_FAST, 1,
                    "cannot write /nonexistent-dir/x.json: No such file or directory");
}

/* `dfsim run` warns (on stderr, quiet or not) when the crossbar bounds a class of links, and
 * stays silent when it does not. */
static void test_cli_run_warns_of_slow_crossbar(void)
{
    char args[512], out[TEST_CLI_OUT]; /* test_cli_run fills up to TEST_CLI_OUT bytes */
    snprintf(args, sizeof args,
             "run conf/default.cfg -o %s/xbar.json --set links.bandwidth_node=3 " TEST_CLI_FAST,
             test_cli_dir);
    test_cli_expect(args, 0,
                    "dfsim: warning: the node links (links.bandwidth_node = 3) are faster than "
                    "the crossbar (router.speedup = 2): it bounds them at 2 phits/cycle");
    snprintf(args, sizeof args,
             "run conf/default.cfg -o %s/xbar.json --set links.bandwidth_node=3 "
             "--set router.speedup=4 " TEST_CLI_FAST,
             test_cli_dir);
    CU_ASSERT_EQUAL(test_cli_run(test_cli_binaries[0], args, out), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "warning"));
}

/* `dfsim run` warns (on stderr, quiet or not) when a class of links' buffers cannot cover its
 * credit round trip at the link's bandwidth, and stays silent with buffers that do, and with
 * the settings of conf/default.cfg and conf/paper_h6.cfg (info). */
static void test_cli_run_warns_of_small_buffers(void)
{
    char args[512], out[TEST_CLI_OUT]; /* test_cli_run fills up to TEST_CLI_OUT bytes */
    snprintf(
        args, sizeof args,
        "run conf/default.cfg -o %s/buffers.json --set links.bandwidth_local=1.5 " TEST_CLI_FAST,
        test_cli_dir);
    test_cli_expect(args, 0,
                    "dfsim: warning: the local links (links.bandwidth_local = 1.5) are faster than "
                    "their buffers cover (buffers.local = 32 phits per VC, 29-cycle credit round "
                    "trip): they bound a VC at 1.103 phits/cycle");
    snprintf(args, sizeof args,
             "run conf/default.cfg -o %s/buffers.json --set links.bandwidth_local=1.5 "
             "--set buffers.local=48 " TEST_CLI_FAST,
             test_cli_dir);
    CU_ASSERT_EQUAL(test_cli_run(test_cli_binaries[0], args, out), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "warning"));
    snprintf(args, sizeof args, "run conf/default.cfg -o %s/buffers.json " TEST_CLI_FAST,
             test_cli_dir);
    CU_ASSERT_EQUAL(test_cli_run(test_cli_binaries[0], args, out), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "warning"));
    CU_ASSERT_EQUAL(test_cli_run(test_cli_binaries[0], "info conf/paper_h6.cfg", out), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "warning"));
}

/* A watchdog shorter than a healthy pause would report deadlocks that are not: rejected. */
static void test_cli_watchdog_too_short(void)
{
    test_cli_expect("run conf/default.cfg --quiet --set sim.deadlock_cycles=1", 2,
                    "--set sim.deadlock_cycles=1: sim.deadlock_cycles: 1 cycles is shorter than "
                    "a healthy pause");
}

/* ---- the result document ---- */

/* Looks up "a.b.c" in a JSON object. */
static const cJSON *test_cli_json_get(const cJSON *root, const char *dotted)
{
    char key[128];
    snprintf(key, sizeof key, "%s", dotted);
    const cJSON *node = root;
    for (char *part = strtok(key, "."); part && node; part = strtok(NULL, "."))
        node = cJSON_GetObjectItemCaseSensitive(node, part);
    return node;
}

static const char *const test_cli_section8_numbers[] = {
    "dfsim.schema",
    "network.groups",
    "network.routers",
    "network.nodes",
    "network.radix",
    "load.offered",
    "load.injected",
    "load.accepted",
    "packets.generated",
    "packets.refused",
    "packets.injected",
    "packets.delivered",
    "packets.in_flight_at_end",
    "latency.mean",
    "latency.p50",
    "latency.p95",
    "latency.p99",
    "latency.max",
    "latency.breakdown.injection_queue",
    "latency.breakdown.local_queues",
    "latency.breakdown.global_queues",
    "latency.breakdown.minimal_links",
    "latency.breakdown.nonminimal_links",
    "hops.local",
    "hops.global",
    "misrouted.global",
    "misrouted.local",
    "fairness.min_injected_load",
    "fairness.min_injected_pct_of_offered",
    "fairness.cov",
    "timing.wall_seconds",
    "timing.cycles_per_second",
    "timing.router_cycles_per_second",
};

static void test_cli_check_numbers(const cJSON *doc)
{
    for (size_t i = 0; i < sizeof test_cli_section8_numbers / sizeof(char *); i++) {
        const cJSON *item = test_cli_json_get(doc, test_cli_section8_numbers[i]);
        CU_ASSERT(cJSON_IsNumber(item));
        if (!cJSON_IsNumber(item))
            fprintf(stderr, "\n  missing number: %s\n", test_cli_section8_numbers[i]);
    }
    CU_ASSERT(cJSON_IsString(test_cli_json_get(doc, "dfsim.version")));
    /* max_min is a number, or null with a count of starved routers. */
    const cJSON *max_min = test_cli_json_get(doc, "fairness.max_min");
    CU_ASSERT(cJSON_IsNumber(max_min) ||
              (cJSON_IsNull(max_min) &&
               cJSON_IsNumber(test_cli_json_get(doc, "fairness.starved_routers"))));
}

static void test_cli_check_array(const cJSON *doc, const char *key, int length)
{
    const cJSON *array = test_cli_json_get(doc, key);
    CU_ASSERT_FATAL(cJSON_IsArray(array));
    CU_ASSERT_EQUAL(cJSON_GetArraySize(array), length);
    const cJSON *item;
    cJSON_ArrayForEach(item, array) CU_ASSERT(cJSON_IsNumber(item));
}

struct test_cli_config {
    const cJSON *config;
    const struct sim_config *cfg;
};

static int test_cli_config_has(void *ctx, const struct setting_ref *r)
{
    const struct test_cli_config *c = ctx;
    if (r->list)
        return 0; /* this config has no jobs */
    if (r->row->quiet_default)
        return 0; /* left out while at its default, which the configs here keep */
    const cJSON *group = cJSON_GetObjectItemCaseSensitive(c->config, r->group->name);
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(group, r->row->name);
    bool in_force = settings_in_force(c->cfg, r);
    CU_ASSERT_EQUAL(item != NULL, in_force);
    if ((item != NULL) != in_force)
        fprintf(stderr, "\n  config %s %s.%s\n", item ? "has (not in force)" : "lacks",
                r->group->name, r->row->name);
    return 0;
}

/* "config" holds every setting in force (nested by group), resolved, and no other: not those
 * of the routing mechanisms, topology kinds and patterns not chosen. */
static void test_cli_check_config(const cJSON *doc, const char *path)
{
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(doc, "config");
    CU_ASSERT_FATAL(cJSON_IsObject(config));
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN];
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &cfg, err), 0);
    struct test_cli_config c = {config, &cfg};
    settings_each(test_cli_config_has, &c);
    CU_ASSERT_PTR_NULL(test_cli_json_get(doc, "config.routing.global_policy"));
    CU_ASSERT_PTR_NULL(test_cli_json_get(doc, "config.traffic.offset"));
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(test_cli_json_get(doc, "config.sim.measure_cycles")), 500);
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(test_cli_json_get(doc, "config.vcs.local")), 2);
}

static cJSON *test_cli_read_json(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static const size_t max = 1 << 20;
    char *text = malloc(max);
    size_t n = text ? fread(text, 1, max - 1, f) : 0;
    fclose(f);
    if (!text)
        return NULL;
    text[n] = '\0';
    cJSON *doc = cJSON_Parse(text);
    free(text);
    return doc;
}

static void test_cli_check_document(const char *path)
{
    cJSON *doc = test_cli_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    test_cli_check_numbers(doc);
    test_cli_check_config(doc, path);
    int routers = (int)cJSON_GetNumberValue(test_cli_json_get(doc, "network.routers"));
    CU_ASSERT_EQUAL(routers, 36);
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(test_cli_json_get(doc, "network.nodes")), 72);
    test_cli_check_array(doc, "fairness.per_router_injected", routers);
    test_cli_check_array(doc, "fairness.group0_injected_load", 4);
    CU_ASSERT(cJSON_GetNumberValue(test_cli_json_get(doc, "packets.delivered")) > 0);
    cJSON_Delete(doc);
}

static void test_cli_run_writes_document(void)
{
    char *out = malloc(TEST_CLI_OUT), args[512], path[128];
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    for (int b = 0; b < 2; b++) {
        if (!test_cli_binary_present(test_cli_binaries[b]))
            continue;
        snprintf(path, sizeof path, "%s/run%d.json", test_cli_dir, b);
        snprintf(args, sizeof args, "run conf/default.cfg -o %s " TEST_CLI_FAST, path);
        int rc = test_cli_run(test_cli_binaries[b], args, out);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc != 0)
            fprintf(stderr, "\n  %s %s -> %d:\n%s\n", test_cli_binaries[b], args, rc, out);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "72 nodes"));
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "accepted"));
        CU_ASSERT_PTR_NOT_NULL(strstr(out, path));
        CU_ASSERT_PTR_NULL(strchr(out, '\r')); /* no progress line when not on a terminal */
        test_cli_check_document(path);
    }
    free(out);
}

/* Without -o the result goes to results/<config name>.json, creating results/. */
static void test_cli_default_output_path(void)
{
    char cwd[512], args[2048], path[256];
    char *out = malloc(TEST_CLI_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(args, sizeof args, "cd '%s' && '%s/dfsim' run '%s/conf/default.cfg' " TEST_CLI_FAST,
             test_cli_dir, cwd, cwd);
    int rc = test_run_command(args, out, TEST_CLI_OUT);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc != 0)
        fprintf(stderr, "\n  %s -> %d:\n%s\n", args, rc, out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "results/default.json"));
    snprintf(path, sizeof path, "%s/results/default.json", test_cli_dir);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    free(out);
}

/* ---- dfsim schema ---- */

/* `dfsim schema --json` prints the table's JSON, exactly what plots/result_schema.json holds,
 * and --markdown results/README.md's table; anything else is a bad command line. */
static void test_cli_schema(void)
{
    test_cli_expect("schema --json", 0, "{\n\t\"schema\":\t1,\n\t\"sections\":\t[{");
    test_cli_expect("schema --markdown", 0, "| `fairness.max_min` | number or null |");
    test_cli_expect("schema --help", 0, "usage: dfsim schema --json | --markdown");
    test_cli_expect("schema", 2, "schema: missing --json or --markdown");
    test_cli_expect("schema --yaml", 2, "schema: unknown option '--yaml'");
    test_cli_expect("schema --json extra", 2, "schema: unexpected argument 'extra'");
    test_cli_expect("--help", 0, "dfsim schema --json | --markdown");
    enum { SCHEMA_MAX = 1 << 20 };
    char *out = malloc(SCHEMA_MAX), *committed = malloc(SCHEMA_MAX);
    CU_ASSERT_FATAL(out && committed);
    CU_ASSERT_EQUAL(test_run_command("./dfsim schema --json 2>/dev/null", out, SCHEMA_MAX), 0);
    FILE *f = fopen("plots/result_schema.json", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t n = fread(committed, 1, SCHEMA_MAX - 1, f);
    fclose(f);
    committed[n] = '\0';
    CU_ASSERT(n > 1000 && n < SCHEMA_MAX - 1);
    CU_ASSERT_STRING_EQUAL(out, committed);
    free(out);
    free(committed);
}

/* Every shipped config and sweep loads without a warning of a setting not in force. */
static void test_cli_shipped_configs_in_force(void)
{
    char *out = malloc(TEST_CLI_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(test_run_command("for f in $(find conf -name '*.cfg' ! -path 'conf/sweeps/*' "
                                     "| sort); do ./dfsim info \"$f\" >/dev/null || echo \"$f\"; "
                                     "done 2>&1 | grep -v 'dfsim: note: .*no topology group'",
                                     out, TEST_CLI_OUT),
                    1);
    CU_ASSERT_STRING_EQUAL(out, "");
    CU_ASSERT_EQUAL(test_run_command("for f in conf/sweeps/*.cfg; do ./dfsim sweep \"$f\" --list "
                                     ">/dev/null || echo \"$f\"; done 2>&1",
                                     out, TEST_CLI_OUT),
                    0);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
}

int test_cli_register(void)
{
    static const struct test_case tests[] = {
        {"command lines: exit codes and messages", test_cli_command_lines},
        {"bad config file: exit 2, nothing simulated", test_cli_bad_config_file},
        {"unwritable output: exit 1", test_cli_unwritable_output},
        {"run warns when the crossbar bounds a link", test_cli_run_warns_of_slow_crossbar},
        {"run warns when buffers bound a link", test_cli_run_warns_of_small_buffers},
        {"watchdog shorter than a healthy pause: exit 2", test_cli_watchdog_too_short},
        {"run writes every key of the result document", test_cli_run_writes_document},
        {"default output path results/NAME.json", test_cli_default_output_path},
        {"dfsim schema --json | --markdown", test_cli_schema},
        {"shipped configs: no setting that is not in force", test_cli_shipped_configs_in_force},
    };
    return test_add_suite("cli", test_cli_init, test_cli_cleanup, tests,
                          sizeof tests / sizeof tests[0]);
}
