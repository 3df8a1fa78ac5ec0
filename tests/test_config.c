/* test_config: defaults, files, --set overrides and every validation message of the config
 * module, plus the theoretical bounds of the bounds module (src/METRICS.md). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arbiter.h"
#include "bounds.h"
#include "config.h"
#include "routing.h"
#include "test_util.h"
#include "text_file.h"
#include "topology.h"
#include "traffic.h"

/* Scratch directory of the suite (created by the suite's init). */
static char test_config_dir[64];

static int test_config_init(void)
{
    return test_tmpdir_create(test_config_dir, "config");
}

static int test_config_cleanup(void)
{
    return test_tmpdir_remove(test_config_dir);
}

/* Writes `text` to NAME in the scratch directory; path receives the file's path. */
static void test_write_file(const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", test_config_dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* Replaces every "{F}" of pattern with path. */
static void test_expand(const char *pattern, const char *path, char *out, size_t len)
{
    out[0] = '\0';
    for (const char *p = pattern; *p;) {
        const char *mark = strstr(p, "{F}");
        size_t n = mark ? (size_t)(mark - p) : strlen(p);
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%.*s%s", (int)n, p, mark ? path : "");
        p += n + (mark ? 3 : 0);
    }
}

static void test_expect_error(const char *what, int rc, const char *err, const char *expected)
{
    CU_ASSERT_EQUAL(rc, -1);
    bool found = strstr(err, expected) != NULL;
    CU_ASSERT(found);
    if (rc != -1 || !found)
        fprintf(stderr, "\n  case %s\n    expected: %s\n    got (%d): %s\n", what, expected, rc,
                err);
    CU_ASSERT_PTR_NULL(strchr(err, '\n')); /* one line */
}

/* ---- defaults ---- */

static void test_defaults_match_spec(void)
{
    struct sim_config c;
    char err[CONFIG_ERROR_LEN];
    CU_ASSERT_EQUAL_FATAL(config_load(NULL, NULL, 0, &c, err), 0);
    CU_ASSERT_STRING_EQUAL(c.name, "default");
    CU_ASSERT_STRING_EQUAL(c.path, "");
    CU_ASSERT_EQUAL(c.sim.warmup_cycles, 10000);
    CU_ASSERT_EQUAL(c.sim.measure_cycles, 15000);
    CU_ASSERT_EQUAL(c.sim.seed, 1);
    CU_ASSERT_EQUAL(c.sim.deadlock_cycles, 10000);
    CU_ASSERT(c.topology.p == 6 && test_setting_int(&c, "topology.a") == 12 && c.topology.h == 6);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "topology.kind"), "dragonfly");
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "topology.arrangement"), "palmtree");
    CU_ASSERT(c.links.local_latency == 10 && c.links.global_latency == 100 &&
              c.links.injection_latency == 1);
    CU_ASSERT(c.buffers.local == 32 && c.buffers.global == 256 && c.buffers.injection == 1000 &&
              c.buffers.output == 32);
    CU_ASSERT(c.router.speedup == 2 && c.router.latency == 5 && c.router.allocator_iterations == 2);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "router.arbiter"), "round_robin");
    CU_ASSERT_FALSE(c.router.transit_priority);
    CU_ASSERT(c.vcs.local == 2 && c.vcs.global == 1 && c.vcs.injection == 3); /* MIN ladder */
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "routing.mechanism"), "min");
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "routing.valiant_target"), "group");
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "routing.global_policy"), "rrg");
    CU_ASSERT(test_setting_int(&c, "routing.pb_coef") == 200 &&
              test_setting_int(&c, "routing.pb_local_threshold") == 5 &&
              test_setting_int(&c, "routing.pb_global_threshold") == 3);
    CU_ASSERT(test_setting_int(&c, "routing.misroute_threshold") == 55 &&
              test_setting_int(&c, "routing.th_min") == 0 &&
              test_setting_int(&c, "routing.global_congestion_coef") == 150 &&
              test_setting_int(&c, "routing.global_congestion_threshold") == 5);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "traffic.pattern"), "uniform");
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 0.4, 1e-12);
    CU_ASSERT(test_setting_int(&c, "traffic.offset") == 1 && c.traffic.packet_size == 8);
}

static void test_set_defaults_equals_load(void)
{
    struct sim_config a, b;
    char err[CONFIG_ERROR_LEN];
    config_set_defaults(&a);
    CU_ASSERT_EQUAL_FATAL(config_load(NULL, NULL, 0, &b, err), 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    CU_ASSERT_EQUAL(config_validate(&a, err), 0);
}

struct schema_walk {
    const struct sim_config *cfg;
    int settings;
    char seen[128][96];
};

/* One row: a name unique in its group, in its table's group, a default inside its own range
 * (a choice's default among its names), a doc line (conf/SETTINGS.md's table shows it), storage
 * inside struct sim_config and, for a plug-in's table, inside its group's arena. */
static int schema_check_row(void *ctx, const struct setting_ref *r)
{
    struct schema_walk *w = ctx;
    const struct setting *row = r->row;
    char full[96];
    settings_full_name(r, full, sizeof full);
    CU_ASSERT(row->name && row->name[0] && row->doc && row->doc[0]);
    CU_ASSERT_STRING_EQUAL(r->table->group, r->group ? r->group->name : r->list->name);
    CU_ASSERT(r->offset < sizeof *w->cfg);
    if (r->list && r->table->params_size) { /* a job plug-in's table: in the job's arena */
        size_t arena = r->list->offset + r->list->arena_offset;
        CU_ASSERT(r->offset >= arena && r->offset < arena + r->list->arena_size);
        CU_ASSERT(row->offset < r->table->params_size);
    } else if (r->list) {
        CU_ASSERT(r->row->offset < r->list->element_size);
    } else if (r->table->params_size) {
        CU_ASSERT(r->group->has_arena);
        size_t arena = r->group->offset + r->group->arena_offset;
        CU_ASSERT(r->offset >= arena && r->offset < arena + SETTING_ARENA_BYTES);
        CU_ASSERT(row->offset < r->table->params_size);
    }
    for (int k = 0; k < w->settings && k < 128; k++)
        CU_ASSERT(strcmp(w->seen[k], full) != 0);
    if (w->settings < 128)
        snprintf(w->seen[w->settings], sizeof w->seen[0], "%s", full);
    w->settings++;
    if (row->type == SETTING_CHOICE) {
        CU_ASSERT(settings_choice_index(row, row->def_text) >= 0);
    } else if (row->type != SETTING_STRING && row->type != SETTING_INT_LIST) {
        CU_ASSERT(row->def >= row->min && row->def <= row->max);
    }
    return 0;
}

static void test_schema_is_consistent(void)
{
    struct sim_config c;
    config_set_defaults(&c);
    struct schema_walk w = {&c, 0, {{0}}};
    settings_each(schema_check_row, &w);
    CU_ASSERT(w.settings >= 60);
    CU_ASSERT(w.settings <= 128);
}

/* The settings reference, conf/SETTINGS.md, holds the table the schema generates (dfsim
 * settings --markdown). */
static void test_readme_settings_table(void)
{
    size_t len;
    char err[256];
    char *readme = text_file_read("conf/SETTINGS.md", &len, err, sizeof err);
    char *table = settings_markdown();
    CU_ASSERT_PTR_NOT_NULL_FATAL(readme);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    const char *begin = strstr(readme, "<!-- settings:begin");
    const char *end = begin ? strstr(begin, "<!-- settings:end -->") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(end);
    begin = strchr(begin, '\n') + 1;
    bool same = (size_t)(end - begin) == strlen(table) && memcmp(begin, table, strlen(table)) == 0;
    if (!same)
        fprintf(stderr, "\n  conf/SETTINGS.md's settings table is stale: regenerate it with "
                        "make readme\n");
    CU_ASSERT(same);
    free(readme);
    free(table);
}

/* ---- values that load ---- */

static void test_overrides_apply_in_order(void)
{
    static const char *const ov[] = {
        "topology.h=3",
        "topology.h=2",
        "traffic.load=1",
        "routing.mechanism=min",
        "traffic.pattern=\"adversarial\"",
        "router.transit_priority=true",
        "sim.seed=10000000000",
        " traffic.offset = 2 ",
        "buffers.output=0x40",
        "topology.arrangement = consecutive ",
    };
    struct sim_config c;
    test_config(&c, ov, (int)(sizeof ov / sizeof ov[0]));
    CU_ASSERT_EQUAL(c.topology.h, 2);
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 1.0, 0); /* an integer where a number is expected */
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "routing.mechanism"), "min");
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "traffic.pattern"), "adversarial");
    CU_ASSERT_TRUE(c.router.transit_priority);
    CU_ASSERT_EQUAL(c.sim.seed, 10000000000LL); /* 64-bit without an L suffix */
    CU_ASSERT_EQUAL(test_setting_int(&c, "traffic.offset"), 2);
    CU_ASSERT_EQUAL(c.buffers.output, 64);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "topology.arrangement"), "consecutive");
}

static void test_file_then_overrides(void)
{
    char path[256], err[CONFIG_ERROR_LEN];
    test_write_file("my_run.cfg",
                    "# a comment\n"
                    "sim = { seed = 10000000000; warmup_cycles = 0; };\n"
                    "topology = { p = 2; a = 4; h = 2; };\n"
                    "traffic = { load = 1; pattern = \"adversarial_consecutive\"; };\n"
                    "vcs = { global = 0; local = 3; };\n"
                    "router = { transit_priority = true; };\n",
                    path, sizeof path);
    static const char *const ov[] = {"traffic.load=0.25"};
    struct sim_config c;
    int rc = config_load(path, ov, 1, &c, err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    if (rc)
        fprintf(stderr, "\n%s\n", err);
    CU_ASSERT_STRING_EQUAL(c.name, "my_run");
    CU_ASSERT_STRING_EQUAL(c.path, path);
    CU_ASSERT_EQUAL(c.sim.seed, 10000000000LL);
    CU_ASSERT_EQUAL(c.sim.warmup_cycles, 0);
    CU_ASSERT(c.topology.p == 2 && test_setting_int(&c, "topology.a") == 4 && c.topology.h == 2);
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 0.25, 0);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&c, "traffic.pattern"), "adversarial_consecutive");
    CU_ASSERT_EQUAL(c.vcs.local, 3);  /* more than needed is fine */
    CU_ASSERT_EQUAL(c.vcs.global, 1); /* 0 = what MIN needs */
    CU_ASSERT_TRUE(c.router.transit_priority);
    CU_ASSERT_EQUAL(c.links.global_latency, 100); /* untouched defaults stay */
}

static void test_shipped_configs_load(void)
{
    static const char *const files[] = {"conf/default.cfg", "conf/paper_h6.cfg"};
    struct sim_config c, d;
    char err[CONFIG_ERROR_LEN];
    for (int i = 0; i < 2; i++) {
        if (access(files[i], R_OK) != 0)
            continue; /* run from elsewhere than the repository root */
        int rc = config_load(files[i], NULL, 0, &c, err);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc)
            fprintf(stderr, "\n%s\n", err);
    }
    /* paper_h6.cfg writes every default out: it must equal the built-in defaults. */
    if (access(files[1], R_OK) == 0 && config_load(files[1], NULL, 0, &c, err) == 0) {
        config_set_defaults(&d);
        memcpy(d.name, c.name, sizeof d.name);
        memcpy(d.path, c.path, sizeof d.path);
        CU_ASSERT_EQUAL(memcmp(&c, &d, sizeof c), 0);
    }
}

/* Every registered routing resolves vcs.local/global = 0 to its ladder and rejects one less. */
static void test_vcs_follow_every_ladder(void)
{
    for (const char *const *name = routing_names(); *name; name++) {
        char set[64], err[CONFIG_ERROR_LEN], expected[128];
        snprintf(set, sizeof set, "routing.mechanism=%s", *name);
        const char *ov[] = {set, "vcs.local=0", NULL};
        struct sim_config c;
        CU_ASSERT_EQUAL_FATAL(config_load(NULL, ov, 2, &c, err), 0);
        struct vc_ladder ladder;
        routing_find(*name)->ladder(&c, &ladder);
        CU_ASSERT_EQUAL(c.vcs.local, ladder.local_vcs);
        CU_ASSERT_EQUAL(c.vcs.global, ladder.global_vcs);
        char fewer[32];
        snprintf(fewer, sizeof fewer, "vcs.local=%d", ladder.local_vcs - 1);
        ov[1] = ladder.local_vcs > 1 ? fewer : "vcs.local=0";
        if (ladder.local_vcs <= 1)
            continue;
        snprintf(expected, sizeof expected,
                 "--set %s: vcs.local: routing '%s' needs at least %d local VCs (got %d)", fewer,
                 *name, ladder.local_vcs, ladder.local_vcs - 1);
        test_expect_error(*name, config_load(NULL, ov, 2, &c, err), err, expected);
    }
}

/* Every registered pattern and arbiter name is accepted. */
static void test_registry_names_load(void)
{
    struct sim_config c;
    char err[CONFIG_ERROR_LEN], set[64];
    for (const char *const *name = pattern_names(); *name; name++) {
        snprintf(set, sizeof set, "traffic.pattern=%s", *name);
        const char *ov[] = {set};
        CU_ASSERT_EQUAL(config_load(NULL, ov, 1, &c, err), 0);
    }
    for (const char *const *name = arbiter_names(); *name; name++) {
        snprintf(set, sizeof set, "router.arbiter=\"%s\"", *name);
        const char *ov[] = {set};
        CU_ASSERT_EQUAL(config_load(NULL, ov, 1, &c, err), 0);
    }
}

/* ---- bad files ---- */

struct bad_file {
    const char *text;
    const char *expected; /* fragment of the message; {F} stands for the file's path */
};

static const struct bad_file bad_files[] = {
    {"sim = {\n  seed = 1;\n  warmup_cycles = ;\n};\n", "{F}:3: syntax error"},
    {"sim = { seed = 1; seed = 2; };\n", "{F}:1: duplicate setting name"},
    {"traffic = {\n  lod = 0.5;\n};\n",
     "{F}:2: traffic.lod: unknown setting (did you mean 'traffic.load'?)"},
    {"traffic = { colour = 1; };\n",
     "{F}:1: traffic.colour: unknown setting (expected one of: traffic.pattern, traffic.load, "
     "traffic.packet_size, traffic.phit_bytes, traffic.offset)"},
    {"sim = { load = 0.5; };\n", "{F}:1: sim.load: unknown setting (did you mean 'traffic.load'?)"},
    {"\nload = 0.5;\n", "{F}:2: load: unknown setting (did you mean 'traffic.load'?)"},
    {"trafic = { load = 0.5; };\n", "{F}:1: trafic: unknown group (did you mean 'traffic'?)"},
    {"network = { x = 1; };\n",
     "{F}:1: network: unknown group (expected one of: sim, topology, links, buffers, router, "
     "vcs, routing, traffic, stats)"},
    {"traffic = { load = \"high\"; };\n",
     "{F}:1: traffic.load: expected a number, got a string ('high')"},
    {"topology = { p = 2.5; };\n", "{F}:1: topology.p: expected an integer, got a number (2.5)"},
    {"router = { transit_priority = 1; };\n",
     "{F}:1: router.transit_priority: expected true or false, got an integer (1)"},
    {"routing = { mechanism = 3; };\n", "{F}:1: routing.mechanism: expected a string (one of: min"},
    {"traffic = {\n  load = { x = 1; };\n};\n",
     "{F}:2: traffic.load: expected a number, got a group"},
    {"topology = { p = [1, 2]; };\n", "{F}:1: topology.p: expected an integer, got an array"},
    {"traffic = 3;\n", "{F}:1: traffic: expected a group traffic = { ... }, got an integer (3)"},
    {"topology = {\n  p = 0;\n};\n",
     "{F}:2: topology.p: 0 is out of range (expected an integer >= 1)"},
    {"topology = { a = -1; };\n",
     "{F}:1: topology.a: -1 is out of range (expected an integer >= 1)"},
    {"topology = { h = 0; };\n", "{F}:1: topology.h: 0 is out of range (expected an integer >= 1)"},
    {"topology = { p = 30; a = 30;\n h = 6; };\n",
     "{F}:2: topology.h: router radix p + a - 1 + h = 65 is too large (expected p + a - 1 + h "
     "<= 64)"},
    {"traffic = { load = 1.5; };\n", "{F}:1: traffic.load: 1.5 is more than a node can offer "
                                     "(expected at most links.bandwidth_node = 1"},
    {"traffic = { load = -0.1; };\n",
     "{F}:1: traffic.load: -0.1 is out of range (expected a number in [0, 64])"},
    {"buffers = { local = 0; };\n",
     "{F}:1: buffers.local: 0 is out of range (expected an integer in [1, 65535])"},
    {"buffers = { global = 4; };\n",
     "{F}:1: buffers.global: 4 phits cannot hold one packet of traffic.packet_size = 8 phits "
     "(expected buffers.global >= traffic.packet_size)"},
    {"\ntraffic = { packet_size = 64; };\n",
     "{F}:2: buffers.local: 32 phits cannot hold one packet of traffic.packet_size = 64 phits"},
    {"buffers = { output = 7; };\n", "{F}:1: buffers.output: 7 phits cannot hold one packet"},
    {"buffers = { injection = 7; };\n", "{F}:1: buffers.injection: 7 phits cannot hold"},
    {"routing = { mechanism = \"vallant\"; };\n",
     "{F}:1: routing.mechanism: unknown value 'vallant' (expected one of: min"},
    {"traffic = { pattern = \"uniforn\"; };\n",
     "{F}:1: traffic.pattern: unknown value 'uniforn' (expected one of: uniform"},
    {"router = { arbiter = \"fifo\"; };\n",
     "{F}:1: router.arbiter: unknown value 'fifo' (expected one of: round_robin"},
    {"topology = { arrangement = \"random\"; };\n",
     "{F}:1: topology.arrangement: unknown value 'random' (expected one of: palmtree, "
     "consecutive, linear)"},
    {"routing = { global_policy = \"xyz\"; };\n",
     "{F}:1: routing.global_policy: unknown value 'xyz' (expected one of: crg, rrg, nrg, mm)"},
    {"vcs = { local = 1; };\n",
     "{F}:1: vcs.local: routing 'min' needs at least 2 local VCs (got 1)"},
    {"vcs = { local = 17; };\n",
     "{F}:1: vcs.local: 17 is out of range (expected an integer in [0, 16])"},
    {"vcs = { injection = 0; };\n", "{F}:1: vcs.injection: 0 is out of range"},
    {"sim = { measure_cycles = 0; };\n",
     "{F}:1: sim.measure_cycles: 0 is out of range (expected an integer in [1, 2147483647])"},
    {"sim = { seed = -1; };\n", "{F}:1: sim.seed: -1 is out of range (expected an integer >= 0)"},
    {"sim = { seed = 99999999999999999999; };\n",
     "{F}:1: sim.seed: 99999999999999999999 is out of range"},
    {"topology = { p = 3000000000; };\n",
     "{F}:1: topology.p: 3000000000 is out of range (expected an integer in [1, 2147483647])"},
    {"routing = { misroute_threshold = 101; };\n",
     "{F}:1: routing.misroute_threshold: 101 is out of range (expected an integer in [0, 100])"},
    {"topology = { a = 2; h = 1; };\ntraffic = { pattern = \"adversarial\";\n offset = 3; };\n",
     "{F}:3: traffic.offset: 3 is a multiple of the 3 groups"},
};

static void test_bad_files(void)
{
    char path[256], err[CONFIG_ERROR_LEN], expected[1024], what[32];
    struct sim_config c;
    for (size_t i = 0; i < sizeof bad_files / sizeof bad_files[0]; i++) {
        snprintf(what, sizeof what, "bad%zu.cfg", i);
        test_write_file(what, bad_files[i].text, path, sizeof path);
        test_expand(bad_files[i].expected, path, expected, sizeof expected);
        test_expect_error(what, config_load(path, NULL, 0, &c, err), err, expected);
    }
}

/* Bad job lists: tests/test_job_inputs.c (one table). */

/* The unknown-name messages list every name of the registry, not a fixed list. */
static void test_unknown_names_list_registry(void)
{
    static const char *const ov[] = {"routing.mechanism=vallant", "traffic.pattern=uniforn"};
    const char *const *lists[] = {routing_names(), pattern_names()};
    struct sim_config c;
    char err[CONFIG_ERROR_LEN];
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(config_load(NULL, &ov[i], 1, &c, err), -1);
        for (const char *const *name = lists[i]; *name; name++)
            CU_ASSERT_PTR_NOT_NULL(strstr(err, *name));
    }
}

static void test_unreadable_files(void)
{
    char err[CONFIG_ERROR_LEN], path[256];
    struct sim_config c;
    snprintf(path, sizeof path, "%s/missing.cfg", test_config_dir);
    char expected[300];
    snprintf(expected, sizeof expected, "%s: cannot read: No such file or directory", path);
    test_expect_error("missing", config_load(path, NULL, 0, &c, err), err, expected);
    snprintf(expected, sizeof expected, "%s: cannot read: Is a directory", test_config_dir);
    test_expect_error("directory", config_load(test_config_dir, NULL, 0, &c, err), err, expected);
    /* Permissions stop reads only for other users than root. */
    test_write_file("secret.cfg", "sim = { seed = 1; };\n", path, sizeof path);
    chmod(path, 0);
    if (geteuid() != 0) {
        snprintf(expected, sizeof expected, "%s: cannot read: Permission denied", path);
        test_expect_error("unreadable", config_load(path, NULL, 0, &c, err), err, expected);
    }
}

/* ---- bad overrides ---- */

struct bad_override {
    const char *set;
    const char *expected;
};

static const struct bad_override bad_overrides[] = {
    {"traffic.load=2", "--set traffic.load=2: traffic.load: 2 is more than a node can offer "
                       "(expected at most links.bandwidth_node = 1 phits/cycle"},
    {"foo", "--set foo: expected KEY=VALUE with KEY like traffic.load"},
    {"=3", "--set =3: expected KEY=VALUE with KEY like traffic.load"},
    {"traffic.lod=0.3",
     "--set traffic.lod=0.3: traffic.lod: unknown setting (did you mean 'traffic.load'?)"},
    {"load=0.3", "--set load=0.3: load: unknown setting (did you mean 'traffic.load'?)"},
    {"network.size=3", "--set network.size=3: network.size: unknown setting (expected GROUP.KEY "
                       "with GROUP one of: sim, topology"},
    {"routing.mechanism=vallant",
     "--set routing.mechanism=vallant: routing.mechanism: unknown value 'vallant' (expected one "
     "of: min"},
    {"traffic.pattern=\"uniforn\"",
     "--set traffic.pattern=\"uniforn\": traffic.pattern: unknown value 'uniforn'"},
    {"traffic.load=high",
     "--set traffic.load=high: traffic.load: expected a number, got a string ('high')"},
    {"traffic.load=", "--set traffic.load=: traffic.load: expected a number, got a string ('')"},
    {"topology.p=2.5", "--set topology.p=2.5: topology.p: expected an integer, got a number (2.5)"},
    {"topology.p=0",
     "--set topology.p=0: topology.p: 0 is out of range (expected an integer >= 1)"},
    {"router.transit_priority=yes",
     "--set router.transit_priority=yes: router.transit_priority: expected true or false, got a "
     "string ('yes')"},
    {"vcs.local=1",
     "--set vcs.local=1: vcs.local: routing 'min' needs at least 2 local VCs (got 1)"},
    {"traffic.packet_size=64",
     "--set traffic.packet_size=64: buffers.local: 32 phits cannot hold one packet of "
     "traffic.packet_size = 64 phits"},
    {"sim.seed=99999999999999999999",
     "--set sim.seed=99999999999999999999: sim.seed: 99999999999999999999 is out of range"},
    {"traffic.load=0.5; traffic.pattern=\"x\"",
     "traffic.load: expected a number, got a string ('0.5; traffic.pattern=\"x\"')"},
};

static void test_bad_overrides(void)
{
    char err[CONFIG_ERROR_LEN];
    struct sim_config c;
    for (size_t i = 0; i < sizeof bad_overrides / sizeof bad_overrides[0]; i++) {
        const char *ov[] = {bad_overrides[i].set};
        test_expect_error(bad_overrides[i].set, config_load(NULL, ov, 1, &c, err), err,
                          bad_overrides[i].expected);
    }
}

/* Settings that are fine alone but not together: one exact message each. */
static const struct {
    const char *set[4];
    const char *expected;
} bad_combinations[] = {
    {{"routing.mechanism=valiant", "routing.valiant_target=router", "vcs.local=3"},
     "--set vcs.local=3: vcs.local: routing 'valiant' needs at least 4 local VCs (got 3)"},
    {{"routing.mechanism=valiant", "vcs.global=1"},
     "--set vcs.global=1: vcs.global: routing 'valiant' needs at least 2 global VCs (got 1)"},
    {{"routing.mechanism=in_transit", "vcs.local=2"},
     "vcs.local: routing 'in_transit' needs at least 3 local VCs (got 2)"},
    {{"routing.mechanism=oblivious", "routing.global_policy=nrg"},
     "--set routing.global_policy=nrg: routing.global_policy: routing 'oblivious' has no global "
     "policy 'nrg' (expected one of: crg, rrg)"},
    {{"routing.global_policy=mm", "routing.mechanism=piggyback"},
     "--set routing.global_policy=mm: routing.global_policy: routing 'piggyback' has no global "
     "policy 'mm' (expected one of: crg, rrg)"},
    {{"sim.deadlock_cycles=21"},
     "sim.deadlock_cycles: 21 cycles is shorter than a healthy pause (expected at least "
     "router.latency + 2 * the cycles of a packet on the slowest link + 1 = 22)"},
    {{"router.latency=50", "sim.deadlock_cycles=60"}, "= 67)"},
    {{"traffic.packet_size=300"},
     "buffers.local: 32 phits cannot hold one packet of traffic.packet_size = 300 phits"},
    {{"buffers.global=512", "buffers.local=16", "traffic.packet_size=16", "buffers.output=8"},
     "--set buffers.output=8: buffers.output: 8 phits cannot hold one packet"},
    {{"traffic.pattern=adversarial", "topology.a=2", "topology.h=2", "traffic.offset=10"},
     "traffic.offset: 10 is a multiple of the 5 groups"},
    {{"topology.p=20", "topology.a=40", "topology.h=6"},
     "topology.h: router radix p + a - 1 + h = 65 is too large"},
};

static void test_bad_combinations(void)
{
    char err[CONFIG_ERROR_LEN];
    struct sim_config c;
    for (size_t i = 0; i < sizeof bad_combinations / sizeof bad_combinations[0]; i++) {
        int n = 0;
        while (n < 4 && bad_combinations[i].set[n])
            n++;
        test_expect_error(bad_combinations[i].set[n - 1],
                          config_load(NULL, bad_combinations[i].set, n, &c, err), err,
                          bad_combinations[i].expected);
    }
    /* The boundaries themselves are accepted. */
    static const char *const ok[] = {"routing.mechanism=in_transit", "routing.global_policy=nrg",
                                     "sim.deadlock_cycles=22", "buffers.output=8"};
    CU_ASSERT_EQUAL(config_load(NULL, ok, 4, &c, err), 0);
}

/* Text a message quotes (a --set argument, a string value) may hold control characters:
 * they are spelled out so the message stays one line. A NUL byte in a file would make
 * libconfig ignore the rest: it is an error, located. */
static void test_control_characters(void)
{
    char err[CONFIG_ERROR_LEN], path[256], expected[512];
    struct sim_config c;
    const char *ov[] = {"traffic.load=0.5\n\tx\x01"};
    test_expect_error("newline in --set", config_load(NULL, ov, 1, &c, err), err,
                      "--set traffic.load=0.5\\n\\tx\\x01: traffic.load: expected a number, got "
                      "a string ('0.5\\n\\tx\\x01')");
    test_write_file("newline.cfg", "traffic = { pattern = \"a\\nb\"; };\n", path, sizeof path);
    snprintf(expected, sizeof expected, "%s:1: traffic.pattern: unknown value 'a\\nb'", path);
    test_expect_error("newline in a string", config_load(path, NULL, 0, &c, err), err, expected);
    snprintf(path, sizeof path, "%s/nul.cfg", test_config_dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static const char text[] = "sim = { seed = 1; };\n\0traffic = { lod = 1; };\n";
    fwrite(text, 1, sizeof text - 1, f);
    fclose(f);
    snprintf(expected, sizeof expected, "%s:2: NUL byte at offset 21 (expected a text file)", path);
    test_expect_error("NUL byte", config_load(path, NULL, 0, &c, err), err, expected);
    test_expect_error("empty path", config_load("", NULL, 0, &c, err), err,
                      "'': cannot read: empty file name");
}

/* @include: a good include applies its settings and locates its errors in the included file;
 * a bad one gets a located message (libconfig 1.5 alone would end the process on a directory
 * and block on a FIFO). */
static void test_includes(void)
{
    char err[CONFIG_ERROR_LEN], path[256], expected[768];
    struct sim_config c;
    char inner[256];
    test_write_file("inner.cfg", "traffic = { load = 0.15; };\n", inner, sizeof inner);
    test_write_file("outer.cfg", "sim = { seed = 7; };\n@include \"inner.cfg\"\n", path,
                    sizeof path);
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &c, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 0.15, 1e-12);
    CU_ASSERT_EQUAL(c.sim.seed, 7);

    test_write_file("inner_bad.cfg", "\ntraffic = { lod = 0.15; };\n", inner, sizeof inner);
    test_write_file("outer_bad.cfg", "@include \"inner_bad.cfg\"\n", path, sizeof path);
    snprintf(expected, sizeof expected, "inner_bad.cfg:2: traffic.lod: unknown setting");
    test_expect_error("error inside an included file", config_load(path, NULL, 0, &c, err), err,
                      expected);

    static const struct {
        const char *what, *text, *problem; /* problem: after "PATH:LINE: @include: " */
        int line;
    } bad[] = {
        {"a directory", "\n  @include \"sub\"\n", "\"sub\": {F}/sub is a directory", 2},
        {"the empty name", "@include \"\"\n", "\"\": {F}/ is a directory", 1},
        {"a FIFO", "@include \"fifo\"\n", "\"fifo\": {F}/fifo is not a regular file", 1},
        {"no closing quote", "@include \"x.cfg\n",
         "the file name has no closing quote on this line", 1},
        {"an unknown escape", "@include \"a\\/b\"\n", "'\\/' in the file name", 1},
        {"a missing file", "\n\n@include \"nothere.cfg\"\n",
         "\"nothere.cfg\": cannot open {F}/nothere.cfg: No such file or directory (expected an "
         "absolute path or one relative to {F})",
         3},
        {"itself", "@include \"self.cfg\"\n",
         "\"self.cfg\": {F}/self.cfg includes itself (expected no file including itself", 1},
    };
    snprintf(path, sizeof path, "%s/sub", test_config_dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/fifo", test_config_dir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char problem[400], full[768];
        test_expand(bad[i].problem, test_config_dir, problem, sizeof problem);
        test_write_file("self.cfg", bad[i].text, path, sizeof path);
        snprintf(full, sizeof full, "%s:%d: @include: %s", path, bad[i].line, problem);
        test_expect_error(bad[i].what, config_load(path, NULL, 0, &c, err), err, full);
    }
    /* A bad include inside an included file names that file. */
    test_write_file("inner_dir.cfg", "sim = { seed = 2; };\n@include \"sub\"\n", inner,
                    sizeof inner);
    test_write_file("outer_dir.cfg", "@include \"inner_dir.cfg\"\n", path, sizeof path);
    snprintf(expected, sizeof expected, "%s:2: @include: \"sub\": %s/sub is a directory", inner,
             test_config_dir);
    test_expect_error("a directory, one level down", config_load(path, NULL, 0, &c, err), err,
                      expected);
    /* libconfig opens files down to depth 10: a directory there is caught, one deeper is
     * refused by libconfig's own limit before it opens anything. */
    for (int last = 9; last <= 10; last++) {
        for (int d = 0; d < last; d++) {
            char name[32], text[64];
            snprintf(name, sizeof name, "chain%d.cfg", d);
            snprintf(text, sizeof text, "@include \"chain%d.cfg\"\n", d + 1);
            test_write_file(name, text, path, sizeof path);
        }
        char name[32];
        snprintf(name, sizeof name, "chain%d.cfg", last);
        test_write_file(name, "@include \"sub\"\n", inner, sizeof inner);
        snprintf(path, sizeof path, "%s/chain0.cfg", test_config_dir);
        if (last == 9)
            snprintf(expected, sizeof expected, "%s:1: @include: \"sub\": %s/sub is a directory",
                     inner, test_config_dir);
        else
            snprintf(expected, sizeof expected, "chain10.cfg:1: @include: nested too deep");
        test_expect_error(last == 9 ? "a directory at depth 10" : "a directory at depth 11",
                          config_load(path, NULL, 0, &c, err), err, expected);
    }
    /* A --set value is one line: an @include after a newline is never followed. */
    const char *ov[] = {"traffic.pattern=x\n@include \"/\""};
    test_expect_error("@include in --set", config_load(NULL, ov, 1, &c, err), err,
                      "traffic.pattern: unknown value 'x\\n@include \"/\"'");
}

/* Makes the folder NAME in the scratch directory; path receives its path. */
static void test_make_dir(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", test_config_dir, name);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
}

/* @include names a file by an absolute path or relative to the folder of the file holding
 * the directive, at every level; decoys sit where the top config's folder would lead. */
static void test_include_paths(void)
{
    char err[CONFIG_ERROR_LEN], path[256], top[256], text[512], dir[256];
    struct sim_config c;
    test_make_dir("tree", dir, sizeof dir);
    test_make_dir("tree/sub", dir, sizeof dir);
    test_make_dir("tree/sub/deeper", dir, sizeof dir);
    test_make_dir("tree/deeper", dir, sizeof dir);
    test_make_dir("elsewhere", dir, sizeof dir);

    test_write_file("elsewhere/load.cfg", "traffic = { load = 0.25; };\n", path, sizeof path);
    snprintf(text, sizeof text, "sim = { seed = 11; };\n@include \"%s\"\n", path);
    test_write_file("tree/absolute.cfg", text, top, sizeof top);
    CU_ASSERT_EQUAL_FATAL(config_load(top, NULL, 0, &c, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 0.25, 1e-12);
    CU_ASSERT_EQUAL(c.sim.seed, 11);

    /* top -> sub/outer -> deeper/inner (in sub/) -> ../../up.cfg (in tree/) */
    test_write_file("tree/top.cfg", "sim = { seed = 3; };\n@include \"sub/outer.cfg\"\n", top,
                    sizeof top);
    test_write_file("tree/sub/outer.cfg", "@include \"deeper/inner.cfg\"\n", path, sizeof path);
    test_write_file("tree/sub/deeper/inner.cfg",
                    "traffic = { load = 0.35; };\n@include \"../../up.cfg\"\n", path, sizeof path);
    test_write_file("tree/up.cfg", "router = { latency = 7; };\n", path, sizeof path);
    test_write_file("tree/deeper/inner.cfg", "traffic = { load = 0.99; };\n", path, sizeof path);
    test_write_file("up.cfg", "router = { latency = 9; };\n", path, sizeof path);
    CU_ASSERT_EQUAL_FATAL(config_load(top, NULL, 0, &c, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 0.35, 1e-12);
    CU_ASSERT_EQUAL(c.router.latency, 7);
    CU_ASSERT_EQUAL(c.sim.seed, 3);
}

/* Every location in an expanded config is the file and line the text was written at. */
static void test_include_locations(void)
{
    char err[CONFIG_ERROR_LEN], path[256], top[256], expected[768];
    struct sim_config c;
    static const struct {
        const char *what, *inner, *outer; /* outer includes "inner.cfg" */
        bool in_inner;                    /* the message names inner.cfg, else outer.cfg */
        const char *problem;              /* "FILE:problem" */
    } cases[] = {
        {"a setting in the included file", "\n\ntraffic = { lod = 0.1; };\n",
         "sim = { seed = 1; };\n@include \"inner.cfg\"\n", true, "3: traffic.lod: unknown setting"},
        {"a setting after the include", "sim = {\n  seed = 2;\n};\n",
         "\n@include \"inner.cfg\"\n\ntraffic = { lod = 0.1; };\n", false,
         "4: traffic.lod: unknown setting"},
        {"a syntax error in the included file", "sim = {\n  seed = ;\n};\n",
         "@include \"inner.cfg\"\n", true, "2: syntax error"},
        {"a syntax error after the include", "sim = { seed = 2; };\n\n\n",
         "@include \"inner.cfg\"\ntraffic = { load = ; };\n", false, "2: syntax error"},
        {"a cross-check of an included setting", "\nvcs = { local = 1; };\n",
         "@include \"inner.cfg\"\n", true,
         "2: vcs.local: routing 'min' needs at least 2 local VCs (got 1)"},
        {"a value after a comment the included file left open", "sim = { seed = 2; }; /* open\n",
         "@include \"inner.cfg\"\n*/ traffic = { load = 7; };\n", false,
         "2: traffic.load: 7 is more than a node can offer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_file("inner.cfg", cases[i].inner, path, sizeof path);
        test_write_file("outer.cfg", cases[i].outer, top, sizeof top);
        snprintf(expected, sizeof expected, "%s:%s", cases[i].in_inner ? path : top,
                 cases[i].problem);
        test_expect_error(cases[i].what, config_load(top, NULL, 0, &c, err), err, expected);
    }
    /* libconfig 1.5 wraps integers of more than 32 bits: re-read in included files too */
    test_write_file("inner.cfg", "sim = { seed = 4294967297; };\n", path, sizeof path);
    test_write_file("outer.cfg", "\n@include \"inner.cfg\"\n", top, sizeof top);
    CU_ASSERT_EQUAL_FATAL(config_load(top, NULL, 0, &c, err), 0);
    CU_ASSERT_EQUAL(c.sim.seed, 4294967297LL);
}

/* The text around directives reads as libconfig reads it. */
static void test_include_lines(void)
{
    char err[CONFIG_ERROR_LEN], path[256], top[256], expected[768];
    struct sim_config c;
    /* an included file ends its last line, even on a comment */
    test_write_file("nonl.cfg", "traffic = { load = 0.45; }; // the last line, no newline", path,
                    sizeof path);
    test_write_file("outer.cfg", "@include \"nonl.cfg\"\nsim = { seed = 9; };\n", top, sizeof top);
    CU_ASSERT_EQUAL_FATAL(config_load(top, NULL, 0, &c, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 0.45, 1e-12);
    CU_ASSERT_EQUAL(c.sim.seed, 9);
    /* directives in block comments and strings are text; a comment, a CR or a setting may
     * follow the name (libconfig reads it after the included file) */
    test_write_file("outer.cfg",
                    "/*\n@include \"nothere.cfg\"\n*/\ntraffic = { pattern = \"uniform\n"
                    "@include \\\"nothere.cfg\\\"\"; };\n",
                    top, sizeof top);
    test_expect_error("a directive in a string", config_load(top, NULL, 0, &c, err), err,
                      ":4: traffic.pattern: unknown value 'uniform\\n@include \"nothere.cfg\"'");
    test_write_file("seed.cfg", "sim = { seed = 5; };", path, sizeof path);
    test_write_file("outer.cfg",
                    "/*\n@include \"nothere.cfg\"\n*/\n"
                    "@include \"nonl.cfg\" # the load\r\n"
                    "@include \"seed.cfg\" router = { latency = 7; };\n",
                    top, sizeof top);
    CU_ASSERT_EQUAL_FATAL(config_load(top, NULL, 0, &c, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.traffic.load, 0.45, 1e-12);
    CU_ASSERT_EQUAL(c.sim.seed, 5);
    CU_ASSERT_EQUAL(c.router.latency, 7);
    /* one directive per line; a cycle through another file is named where it closes */
    test_write_file("outer.cfg", "\n@include \"nonl.cfg\" @include \"seed.cfg\"\n", top,
                    sizeof top);
    snprintf(expected, sizeof expected,
             "%s:2: @include: a second @include on this line (expected one @include per line)",
             top);
    test_expect_error("two directives", config_load(top, NULL, 0, &c, err), err, expected);
    test_write_file("cycle_b.cfg", "sim = { seed = 2; };\n@include \"cycle_a.cfg\"\n", path,
                    sizeof path);
    test_write_file("cycle_a.cfg", "@include \"cycle_b.cfg\"\n", top, sizeof top);
    snprintf(expected, sizeof expected,
             "%s:2: @include: \"cycle_a.cfg\": %s includes itself (expected no file including "
             "itself, directly or through others)",
             path, top);
    test_expect_error("a cycle", config_load(top, NULL, 0, &c, err), err, expected);
    /* empty files add no line; a fan of includes is bounded */
    test_write_file("empty.cfg", "", path, sizeof path);
    static const char include_empty[] = "@include \"empty.cfg\"\n";
    char *many = malloc(1001 * sizeof include_empty);
    CU_ASSERT_PTR_NOT_NULL_FATAL(many);
    many[0] = '\0';
    for (int i = 0; i < 1001; i++)
        strcat(many, include_empty);
    test_write_file("outer.cfg", many, top, sizeof top);
    snprintf(expected, sizeof expected,
             "%s:1001: @include: more than 1000 files included in all (expected at most 1000)",
             top);
    test_expect_error("1,001 includes", config_load(top, NULL, 0, &c, err), err, expected);
    many[1000 * (sizeof include_empty - 1)] = '\0';
    strcat(many, "traffic = { lod = 1; };\n");
    test_write_file("outer.cfg", many, top, sizeof top);
    snprintf(expected, sizeof expected, "%s:1001: traffic.lod: unknown setting", top);
    test_expect_error("after 1,000 empty files", config_load(top, NULL, 0, &c, err), err, expected);
    free(many);
}

/* Cross-setting problems of a file name the line of the setting, then fall back to the file. */
static void test_cross_checks_locate_settings(void)
{
    char path[256], err[CONFIG_ERROR_LEN], expected[512];
    struct sim_config c;
    test_write_file("cross.cfg", "sim = { seed = 3; };\n", path, sizeof path);
    const char *ov[] = {"vcs.local=1"};
    snprintf(expected, sizeof expected, "--set vcs.local=1: vcs.local: routing 'min'");
    test_expect_error("set", config_load(path, ov, 1, &c, err), err, expected);
    /* A hand-filled config has no lines: "FILE: KEY: ..." */
    config_set_defaults(&c);
    snprintf(c.path, sizeof c.path, "conf/hand.cfg");
    c.buffers.output = 4;
    test_expect_error("validate", config_validate(&c, err), err,
                      "conf/hand.cfg: buffers.output: 4 phits cannot hold one packet");
    config_set_defaults(&c);
    c.vcs.global = 0;
    test_expect_error("validate vcs", config_validate(&c, err), err,
                      "vcs.global: routing 'min' needs at least 1 global VCs (got 0)");
    config_set_defaults(&c);
    c.traffic.load = NAN;
    test_expect_error("validate nan", config_validate(&c, err), err,
                      "traffic.load: nan is out of range");
    config_set_defaults(&c);
    test_set_int(&c, "routing.mechanism", 99);
    test_expect_error("validate name", config_validate(&c, err), err,
                      "routing.mechanism: value 99 is not one of the 8 names (expected one of: "
                      "min, valiant");
}

/* ---- bounds (src/METRICS.md#theoretical-bounds) ---- */

static double test_zero_load(int p, int a, int h)
{
    char sp[32], sa[32], sh[32];
    snprintf(sp, sizeof sp, "topology.p=%d", p);
    snprintf(sa, sizeof sa, "topology.a=%d", a);
    snprintf(sh, sizeof sh, "topology.h=%d", h);
    const char *ov[] = {sp, sa, sh};
    struct sim_config c;
    struct topology t;
    char err[256];
    test_config(&c, ov, 3);
    CU_ASSERT_EQUAL_FATAL(topology_create(&t, &c, err, sizeof err), 0);
    double latency = bounds_zero_load_latency(&c, &t);
    topology_free(&t);
    return latency;
}

/* Worked by hand with the defaults (injection 1, router 5, local 10, global 100, packet 8):
 * same router 2+5+7 = 14; same group 2+10+10+7 = 29; other group, averaged over the routers
 * at each end (half of them own/receive the link) 2+15+10+100+7 = 134. */
static void test_zero_load_latency_by_hand(void)
{
    /* p=1, a=2, h=1: 6 nodes, 30 pairs: 6 in a group, 24 across. */
    CU_ASSERT_DOUBLE_EQUAL(test_zero_load(1, 2, 1), (6 * 29 + 24 * 134) / 30.0, 1e-9);
    /* p=2, a=2, h=1: 12 nodes, 132 pairs: 12 same router, 24 same group, 96 across. */
    CU_ASSERT_DOUBLE_EQUAL(test_zero_load(2, 2, 1), (12 * 14 + 24 * 29 + 96 * 134) / 132.0, 1e-9);
}

/* The per-class sum of bounds.c equals the plain average over every ordered node pair. */
static double test_zero_load_brute_force(const struct sim_config *c, const struct topology *t)
{
    double sum = 0, pairs = 0;
    for (int n = 0; n < t->nodes; n++)
        for (int m = 0; m < t->nodes; m++) {
            if (n == m)
                continue;
            int local, global;
            topology_min_hops(t, topology_router_of_node(t, n), topology_router_of_node(t, m),
                              &local, &global);
            sum += 2 * c->links.injection_latency + (local + global + 1) * c->router.latency +
                   local * c->links.local_latency + global * c->links.global_latency +
                   c->traffic.packet_size - 1;
            pairs++;
        }
    return sum / pairs;
}

static void test_zero_load_latency_brute_force(void)
{
    static const int shapes[][4] = {{2, 4, 2, 0}, {3, 1, 3, 0}, {1, 3, 2, 1}, {2, 2, 3, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int *s = shapes[i];
        struct sim_config c;
        struct topology t;
        char err[256];
        config_set_defaults(&c);
        c.links.local_latency = 7; /* distinct latencies make every term count */
        c.links.injection_latency = 3;
        c.topology.p = s[0];
        test_set_int(&c, "topology.a", s[1]);
        c.topology.h = s[2];
        c.topology.arrangement = s[3] ? ARRANGEMENT_CONSECUTIVE : ARRANGEMENT_PALMTREE;
        CU_ASSERT_EQUAL_FATAL(topology_create(&t, &c, err, sizeof err), 0);
        CU_ASSERT_DOUBLE_EQUAL(bounds_zero_load_latency(&c, &t), test_zero_load_brute_force(&c, &t),
                               1e-9);
        topology_free(&t);
    }
}

/* The bound of the config's routing and pattern on its own network. */
static int test_bound(const struct sim_config *c, struct bounds_throughput *b)
{
    struct topology t;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(topology_create(&t, c, err, sizeof err), 0);
    int rc = bounds_throughput(c, &t, b);
    topology_free(&t);
    return rc;
}

static void test_throughput_bounds(void)
{
    struct sim_config c;
    struct bounds_throughput b;
    static const char *const ov[] = {"topology.p=2", "topology.a=4", "topology.h=2"};
    test_config(&c, ov, 3);
    CU_ASSERT_EQUAL(test_bound(&c, &b), 0);
    CU_ASSERT_DOUBLE_EQUAL(b.load, 1.0, 0);
    test_set_name(&c, "traffic.pattern", "adversarial");
    CU_ASSERT_EQUAL(test_bound(&c, &b), 0);
    CU_ASSERT_DOUBLE_EQUAL(b.load, 1.0 / 8, 1e-12);
    test_set_name(&c, "traffic.pattern", "adversarial_consecutive");
    CU_ASSERT_EQUAL(test_bound(&c, &b), 0);
    CU_ASSERT_DOUBLE_EQUAL(b.load, 2.0 / 8, 1e-12);
    /* Valiant under UN: 1/(2 - 1/(G-1)), 0.503 for the reference network (G = 73). */
    test_set_name(&c, "traffic.pattern", "uniform");
    test_set_name(&c, "routing.mechanism", "valiant");
    test_set_int(&c, "topology.p", 6);
    test_set_int(&c, "topology.a", 12);
    c.topology.h = 6;
    CU_ASSERT_EQUAL(test_bound(&c, &b), 0);
    CU_ASSERT_DOUBLE_EQUAL(b.load, 1.0 / (2.0 - 1.0 / 72), 1e-12);
    CU_ASSERT(fabs(b.load - 0.503) < 0.001);
    /* With fewer global links than nodes per router the links bound it lower, by h/p:
     * p=4 a=4 h=2 (G = 9): (2/4) / (2 - 1/8) = 0.2667. */
    test_set_int(&c, "topology.p", 4);
    test_set_int(&c, "topology.a", 4);
    c.topology.h = 2;
    CU_ASSERT_EQUAL(test_bound(&c, &b), 0);
    CU_ASSERT_DOUBLE_EQUAL(b.load, 0.5 / (2.0 - 1.0 / 8), 1e-12);
    test_set_name(&c, "traffic.pattern", "adversarial");
    CU_ASSERT_EQUAL(test_bound(&c, &b), -1); /* the model states none */
}

int test_config_register(void)
{
    static const struct test_case tests[] = {
        {"defaults match the model", test_defaults_match_spec},
        {"config_set_defaults equals loading nothing", test_set_defaults_equals_load},
        {"schema rows are consistent", test_schema_is_consistent},
        {"conf/SETTINGS.md's table is generated from the schema", test_readme_settings_table},
        {"overrides apply in order", test_overrides_apply_in_order},
        {"file then overrides", test_file_then_overrides},
        {"shipped configs load", test_shipped_configs_load},
        {"VCs follow every routing's ladder", test_vcs_follow_every_ladder},
        {"every registry name loads", test_registry_names_load},
        {"bad files: one exact message each", test_bad_files},
        {"unknown names list the registry", test_unknown_names_list_registry},
        {"unreadable files", test_unreadable_files},
        {"bad --set: one exact message each", test_bad_overrides},
        {"bad combinations: one exact message each", test_bad_combinations},
        {"control characters and NUL bytes", test_control_characters},
        {"@include: followed, or refused with a located message", test_includes},
        {"@include: absolute, or relative to the including file's folder", test_include_paths},
        {"@include: messages name the file and line written", test_include_locations},
        {"@include: lines read as libconfig reads them", test_include_lines},
        {"cross-setting checks locate the setting", test_cross_checks_locate_settings},
        {"zero-load latency by hand", test_zero_load_latency_by_hand},
        {"zero-load latency equals brute force", test_zero_load_latency_brute_force},
        {"theoretical throughput bounds", test_throughput_bounds},
    };
    return test_add_suite("config", test_config_init, test_config_cleanup, tests,
                          sizeof tests / sizeof tests[0]);
}
