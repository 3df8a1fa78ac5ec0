/* test_layering: configs that @include bases and set their settings again (the later value
 * wins, key by key in groups; a list written again replaces the earlier one whole), where
 * values came from (dfsim info --origins), and reruns of result documents (dfsim run
 * RESULT.json reproduces the document but for "dfsim" and "timing"). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <CUnit/CUnit.h>
#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "motif.h"
#include "test_util.h"
#include "text_file.h"

#define LAYERING_OUT 16384
#define LAYERING_SHORT "--quiet --set sim.warmup_cycles=200 --set sim.measure_cycles=500"

static char layering_dir[64];

/* How many values job j's dims holds (a grid motif's setting, in the job's arena). */
static int layering_dims(const struct sim_config *cfg, int j)
{
    const struct settings_list *jobs = settings_list_named("jobs");
    const struct motif_grid_settings *grid =
        settings_element_params(jobs, &cfg->jobs[j], &motif_grid_table);
    return grid->dims.count;
}

static int layering_init(void)
{
    return test_tmpdir_create(layering_dir, "layering");
}

static int layering_cleanup(void)
{
    return test_tmpdir_remove(layering_dir);
}

/* Loads DIR/name; returns config_load's status, its message in err. */
static int layering_load(const char *name, const char *const *ov, int n, struct sim_config *cfg,
                         char err[CONFIG_ERROR_LEN])
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", layering_dir, name);
    return config_load(path, ov, n, cfg, err);
}

/* config_load of DIR/name fails with exactly "DIR/file:line: problem...". */
static void layering_expect_error(const char *name, const char *file, int line, const char *problem)
{
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN], expected[512];
    snprintf(expected, sizeof expected, "%s/%s:%d: %s", layering_dir, file, line, problem);
    int rc = layering_load(name, NULL, 0, &cfg, err);
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_EQUAL(strncmp(err, expected, strlen(expected)), 0);
    if (rc != -1 || strncmp(err, expected, strlen(expected)) != 0)
        fprintf(stderr, "\n  %s\n    expected: %s\n    got:      %s\n", name, expected, err);
}

static const char layering_base[] = "sim = {\n"
                                    "    warmup_cycles = 300;\n"
                                    "    measure_cycles = 900;\n"
                                    "};\n"
                                    "traffic = { pattern = \"adversarial\"; load = 0.3; };\n";

/* A base and an override: what the override sets wins, the rest is the base's. */
static void test_base_and_override(void)
{
    char path[128], err[CONFIG_ERROR_LEN];
    struct sim_config cfg;
    test_write_text(layering_dir, "base.cfg", layering_base, path);
    test_write_text(layering_dir, "over.cfg",
                    "# a variant of base.cfg\n@include \"base.cfg\"\n"
                    "sim = { measure_cycles = 500; };\n",
                    path);
    CU_ASSERT_EQUAL_FATAL(layering_load("over.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.sim.measure_cycles, 500);
    CU_ASSERT_EQUAL(cfg.sim.warmup_cycles, 300);
    CU_ASSERT_DOUBLE_EQUAL(cfg.traffic.load, 0.3, 1e-12);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&cfg, "traffic.pattern"), "adversarial");
    CU_ASSERT_STRING_EQUAL(cfg.name, "over");
    /* --set still comes last */
    const char *ov[] = {"sim.measure_cycles=700"};
    CU_ASSERT_EQUAL_FATAL(layering_load("over.cfg", ov, 1, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.sim.measure_cycles, 700);
    /* two bases: the later one's values win over the earlier's, the file's over both; a value
     * written before an @include is set again by the included file (the later value) */
    test_write_text(layering_dir, "load.cfg", "traffic = { load = 0.45; };\n", path);
    test_write_text(layering_dir, "two.cfg",
                    "router = { latency = 9; };\n@include \"base.cfg\"\n@include \"load.cfg\"\n"
                    "sim = { warmup_cycles = 100; };\n",
                    path);
    CU_ASSERT_EQUAL_FATAL(layering_load("two.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(cfg.traffic.load, 0.45, 1e-12);
    CU_ASSERT_EQUAL(cfg.sim.warmup_cycles, 100);
    CU_ASSERT_EQUAL(cfg.sim.measure_cycles, 900);
    CU_ASSERT_EQUAL(cfg.router.latency, 9);
    /* a base of a base, and one file included twice (read twice: no duplicate) */
    test_write_text(layering_dir, "mid.cfg", "@include \"base.cfg\"\ntraffic = { load = 0.2; };\n",
                    path);
    test_write_text(layering_dir, "chain.cfg",
                    "@include \"mid.cfg\"\n@include \"load.cfg\"\n@include \"load.cfg\"\n", path);
    CU_ASSERT_EQUAL_FATAL(layering_load("chain.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(cfg.traffic.load, 0.45, 1e-12);
    CU_ASSERT_EQUAL(cfg.sim.warmup_cycles, 300);
}

/* A group written again merges with the base's key by key, plug-in settings included. */
static void test_group_merged_key_by_key(void)
{
    char path[128], err[CONFIG_ERROR_LEN];
    struct sim_config cfg;
    test_write_text(layering_dir, "routing_base.cfg",
                    "routing = {\n    mechanism = \"piggyback\";\n    global_policy = \"crg\";\n"
                    "    pb_coef = 150;\n};\nrouter = { latency = 7; speedup = 1; };\n",
                    path);
    test_write_text(layering_dir, "routing_over.cfg",
                    "@include \"routing_base.cfg\"\nrouting = { pb_coef = 300; };\n"
                    "router = { speedup = 2; };\n",
                    path);
    CU_ASSERT_EQUAL_FATAL(layering_load("routing_over.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&cfg, "routing.mechanism"), "piggyback");
    CU_ASSERT_STRING_EQUAL(test_setting_name(&cfg, "routing.global_policy"), "crg");
    CU_ASSERT_EQUAL(test_setting_int(&cfg, "routing.pb_coef"), 300);
    CU_ASSERT_EQUAL(cfg.router.latency, 7);
    CU_ASSERT_EQUAL(cfg.router.speedup, 2);
}

static const char layering_jobs_base[] =
    "topology = { p = 2; a = 4; h = 2; };\n"
    "sim = { warmup_cycles = 200; max_cycles = 20000; };\n"
    "jobs = (\n"
    "    { name = \"halo\"; nodes = 32; placement = \"contiguous\";\n"
    "      motif = \"halo3d\"; dims = [4, 4, 2]; message_bytes = 1024; iterations = 2; },\n"
    "    { name = \"bg\"; nodes = 40; placement = \"contiguous\";\n"
    "      pattern = \"uniform\"; load = 0.4; }\n"
    ");\n";

/* A list written again replaces the base's whole: its elements are the new ones only, with
 * defaults for what they do not write, and the base's elements leave no trace (their motif
 * settings would be unread by the new jobs). */
static void test_list_replaced_whole(void)
{
    char path[128], err[CONFIG_ERROR_LEN];
    struct sim_config cfg;
    test_write_text(layering_dir, "jobs_base.cfg", layering_jobs_base, path);
    test_write_text(layering_dir, "jobs_over.cfg",
                    "@include \"jobs_base.cfg\"\n"
                    "jobs = ( { name = \"a2a\"; nodes = 16; motif = \"alltoall\"; },\n"
                    "         { name = \"bg\"; nodes = 8; pattern = \"uniform\"; } );\n",
                    path);
    CU_ASSERT_EQUAL_FATAL(layering_load("jobs_over.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_EQUAL_FATAL(cfg.n_jobs, 2);
    CU_ASSERT_STRING_EQUAL(cfg.jobs[0].name, "a2a");
    CU_ASSERT_EQUAL(layering_dims(&cfg, 0), 0);
    CU_ASSERT_EQUAL(cfg.jobs[0].message_bytes, 0);
    CU_ASSERT_STRING_EQUAL(cfg.jobs[1].name, "bg");
    CU_ASSERT_EQUAL(cfg.jobs[1].nodes, 8);
    CU_ASSERT_DOUBLE_EQUAL(cfg.jobs[1].load, 0, 1e-12); /* not the base's bg's 0.4 */
    CU_ASSERT_EQUAL(cfg.sim.max_cycles, 20000);
    /* a shorter list is shorter; --set reaches the new elements by name */
    test_write_text(
        layering_dir, "jobs_one.cfg",
        "@include \"jobs_base.cfg\"\n"
        "jobs = ( { name = \"bg\"; nodes = 72; pattern = \"uniform\"; load = 0.1; } );\n",
        path);
    const char *ov[] = {"jobs.bg.load=0.2"};
    CU_ASSERT_EQUAL_FATAL(layering_load("jobs_one.cfg", ov, 1, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.n_jobs, 1);
    CU_ASSERT_DOUBLE_EQUAL(cfg.jobs[0].load, 0.2, 1e-12);
    const char *gone[] = {"jobs.halo.iterations=3"};
    CU_ASSERT_EQUAL(layering_load("jobs_one.cfg", gone, 1, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no jobs element is named 'halo'"));
    /* a file that does not write the list keeps the base's */
    test_write_text(layering_dir, "jobs_keep.cfg",
                    "@include \"jobs_base.cfg\"\nsim = { seed = 5; };\n", path);
    CU_ASSERT_EQUAL_FATAL(layering_load("jobs_keep.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_EQUAL(cfg.n_jobs, 2);
    CU_ASSERT_EQUAL(layering_dims(&cfg, 0), 3);
}

/* Messages name the file and line of the value at fault: the override's, or the base's when
 * the base's value is the one that stands. */
static void test_errors_name_their_file(void)
{
    char path[128];
    test_write_text(layering_dir, "bad_base.cfg",
                    "sim = { warmup_cycles = 300; };\n\nbuffers = { local = 4; };\n", path);
    test_write_text(layering_dir, "bad_over.cfg",
                    "@include \"base.cfg\"\n\ntraffic = { load = 3; };\n", path);
    layering_expect_error("bad_over.cfg", "bad_over.cfg", 3,
                          "traffic.load: 3 is more than a node can offer");
    test_write_text(layering_dir, "typo_over.cfg",
                    "@include \"base.cfg\"\nsim = {\n    mesure_cycles = 5;\n};\n", path);
    layering_expect_error(
        "typo_over.cfg", "typo_over.cfg", 3,
        "sim.mesure_cycles: unknown setting (did you mean 'sim.measure_cycles'?)");
    /* the base's bad buffer stands: the message names the base's line */
    test_write_text(layering_dir, "over_bad_base.cfg",
                    "@include \"bad_base.cfg\"\nsim = { measure_cycles = 500; };\n", path);
    layering_expect_error("over_bad_base.cfg", "bad_base.cfg", 3,
                          "buffers.local: 4 phits cannot hold one packet");
    /* overridden, it is not an error any more; the override's packet size that breaks the
     * base's buffer is named where the buffer stands (the key at fault) */
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN];
    test_write_text(layering_dir, "fixed.cfg",
                    "@include \"bad_base.cfg\"\nbuffers = { local = 40; };\n", path);
    CU_ASSERT_EQUAL(layering_load("fixed.cfg", NULL, 0, &cfg, err), 0);
    test_write_text(layering_dir, "fixed_then_broken.cfg",
                    "@include \"fixed.cfg\"\n\n\ntraffic = { packet_size = 48; };\n", path);
    layering_expect_error("fixed_then_broken.cfg", "fixed.cfg", 2,
                          "buffers.local: 40 phits cannot hold one packet of "
                          "traffic.packet_size = 48");
    /* a type error in the base is the base's, even if the override sets the key again */
    test_write_text(layering_dir, "typed_base.cfg", "\ntraffic = { load = \"high\"; };\n", path);
    test_write_text(layering_dir, "typed_over.cfg",
                    "@include \"typed_base.cfg\"\ntraffic = { load = 0.2; };\n", path);
    layering_expect_error("typed_over.cfg", "typed_base.cfg", 2,
                          "traffic.load: expected a number, got a string ('high')");
}

/* A group or list written twice in one file stays an error (a typo), in one stretch of text
 * (libconfig's message) or around an @include (dfsim's). */
static void test_duplicate_in_one_file(void)
{
    char path[128];
    test_write_text(layering_dir, "dup_same.cfg",
                    "@include \"base.cfg\"\nsim = { seed = 1; };\nsim = { seed = 2; };\n", path);
    layering_expect_error("dup_same.cfg", "dup_same.cfg", 3, "duplicate setting name");
    test_write_text(layering_dir, "dup_key.cfg",
                    "@include \"base.cfg\"\nsim = { seed = 1;\n  seed = 2; };\n", path);
    layering_expect_error("dup_key.cfg", "dup_key.cfg", 3, "duplicate setting name");
    test_write_text(
        layering_dir, "dup_around.cfg",
        "traffic = { load = 0.1; };\n@include \"load.cfg\"\ntraffic = { load = 0.2; };\n", path);
    layering_expect_error("dup_around.cfg", "dup_around.cfg", 3,
                          "traffic: written a second time in this file (first at line 1; "
                          "expected each group once per file");
    test_write_text(layering_dir, "dup_jobs.cfg",
                    "jobs = ( { name = \"a\"; nodes = 8; pattern = \"uniform\"; } );\n"
                    "@include \"load.cfg\"\n"
                    "jobs = ( { name = \"b\"; nodes = 8; pattern = \"uniform\"; } );\n",
                    path);
    layering_expect_error("dup_jobs.cfg", "dup_jobs.cfg", 3, "jobs: written a second time");
    /* an @include inside a group is text of that group: no layer, duplicates refused */
    test_write_text(layering_dir, "seed_only.cfg", "seed = 4;\n", path);
    test_write_text(layering_dir, "dup_inside.cfg",
                    "sim = {\n  seed = 3;\n  @include \"seed_only.cfg\"\n};\n", path);
    layering_expect_error("dup_inside.cfg", "seed_only.cfg", 1, "duplicate setting name");
}

/* A path written in a base resolves from the base's folder, wherever the config including
 * it is. */
static void test_paths_stay_relative_to_their_file(void)
{
    char path[128], dir[128], err[CONFIG_ERROR_LEN], real[4096];
    struct sim_config cfg;
    snprintf(dir, sizeof dir, "%s/bases", layering_dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
    test_write_text(dir, "alloc.txt", "0-7\n", path);
    test_write_text(dir, "placed.cfg",
                    "topology = { p = 2; a = 4; h = 2; };\n"
                    "jobs = ( { name = \"app\"; nodes = 8; placement = \"file\";\n"
                    "           allocation_file = \"alloc.txt\"; pattern = \"uniform\"; } );\n",
                    path);
    test_write_text(layering_dir, "placed_over.cfg",
                    "@include \"bases/placed.cfg\"\nsim = { seed = 9; };\n", path);
    CU_ASSERT_EQUAL_FATAL(layering_load("placed_over.cfg", NULL, 0, &cfg, err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(dir, real));
    strcat(real, "/alloc.txt");
    CU_ASSERT_STRING_EQUAL(cfg.jobs[0].allocation_file, real);
}

/* config_load_sources lists what was written, with where the winning value was written. */
static void test_sources_listed(void)
{
    char path[128], err[CONFIG_ERROR_LEN], over[160], base[160];
    struct sim_config cfg;
    struct config_sources sources;
    snprintf(path, sizeof path, "%s/over.cfg", layering_dir);
    const char *ov[] = {"traffic.load=0.25"};
    CU_ASSERT_EQUAL_FATAL(config_load_sources(path, ov, 1, &cfg, &sources, err), 0);
    snprintf(over, sizeof over, "%s/over.cfg:3", layering_dir);
    snprintf(base, sizeof base, "%s/base.cfg:2", layering_dir);
    static const char *const keys[] = {"sim.warmup_cycles", "sim.measure_cycles", "traffic.pattern",
                                       "traffic.load"};
    const char *const values[] = {"300", "500", "\"adversarial\"", "0.25"};
    char pattern[160];
    snprintf(pattern, sizeof pattern, "%s/base.cfg:5", layering_dir);
    const char *const wheres[] = {base, over, pattern, "--set traffic.load=0.25"};
    CU_ASSERT_FALSE(sources.document);
    CU_ASSERT_EQUAL_FATAL(sources.count, 4);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_STRING_EQUAL(sources.items[i].key, keys[i]);
        CU_ASSERT_STRING_EQUAL(sources.items[i].value, values[i]);
        CU_ASSERT_STRING_EQUAL(sources.items[i].where, wheres[i]);
    }
    config_sources_free(&sources);
    CU_ASSERT_EQUAL(sources.count, 0);
}

/* Runs ./dfsim (or ./dfsim-san) ARGS; returns the exit status, output in out. */
static int layering_dfsim(const char *binary, const char *args, char *out)
{
    char command[2048];
    snprintf(command, sizeof command, "%s %s", binary, args);
    return test_run_command(command, out, LAYERING_OUT);
}

/* dfsim info --origins shows each written setting's origin; without it info is unchanged. */
static void test_info_shows_origins(void)
{
    char args[512], expected[256], *out = malloc(LAYERING_OUT), *plain = malloc(LAYERING_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
    snprintf(args, sizeof args, "info %s/over.cfg --origins --set traffic.load=0.2", layering_dir);
    CU_ASSERT_EQUAL(layering_dfsim("./dfsim-san", args, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "origins    4 settings written in a file or by --set"));
    snprintf(expected, sizeof expected, "  sim.warmup_cycles = 300          %s/base.cfg:2\n",
             layering_dir);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, expected));
    snprintf(expected, sizeof expected, "  sim.measure_cycles = 500         %s/over.cfg:3\n",
             layering_dir);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, expected));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(out, "  traffic.load = 0.2               --set traffic.load=0.2\n"));
    /* the default output is the one without the listing */
    snprintf(args, sizeof args, "info %s/over.cfg --set traffic.load=0.2", layering_dir);
    CU_ASSERT_EQUAL(layering_dfsim("./dfsim", args, plain), 0);
    CU_ASSERT_PTR_NULL(strstr(plain, "origins"));
    CU_ASSERT_EQUAL(strncmp(out, plain, strlen(plain)), 0);
    CU_ASSERT_EQUAL(layering_dfsim("./dfsim", "run conf/default.cfg --origins", out), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "run: unknown option '--origins'"));
    free(out);
    free(plain);
}

/* ---- reruns ---- */

/* Removes the root member `name` ("dfsim", "timing") from a document as dfsim writes it (one
 * member per line, a tab before the key, its closing brace alone on a line). */
static void layering_strip_member(char *doc, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\n\t\"%s\":", name);
    char *start = strstr(doc, key);
    CU_ASSERT_PTR_NOT_NULL_FATAL(start);
    char *close = strstr(start + 1, "\n\t}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(close);
    close += 3;
    if (*close == ',')
        close++;
    memmove(start, close, strlen(close) + 1);
}

/* DIR/name parsed (caller deletes); a failed test if it cannot be. */
static cJSON *layering_json(const char *name)
{
    char path[160], err[256];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", layering_dir, name);
    char *text = text_file_read(path, &len, err, sizeof err);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    free(text);
    CU_ASSERT_PTR_NOT_NULL(doc);
    return doc ? doc : cJSON_CreateObject();
}

/* DIR/name without "dfsim" and "timing" (caller frees). */
static char *layering_document(const char *name)
{
    char path[160], err[256];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", layering_dir, name);
    char *doc = text_file_read(path, &len, err, sizeof err);
    if (!doc)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    layering_strip_member(doc, "dfsim");
    layering_strip_member(doc, "timing");
    return doc;
}

/* dfsim run CONFIG ARGS -o DIR/first.json, then dfsim run DIR/first.json -o DIR/second.json:
 * the two documents are the same bytes but for "dfsim" and "timing". */
static void layering_rerun_same(const char *config, const char *args, const char *first,
                                const char *second)
{
    char command[1024], *out = malloc(LAYERING_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    snprintf(command, sizeof command, "run %s %s -o %s/%s", config, args, layering_dir, first);
    CU_ASSERT_EQUAL_FATAL(layering_dfsim("./dfsim", command, out), 0);
    snprintf(command, sizeof command, "run %s/%s --quiet -o %s/%s", layering_dir, first,
             layering_dir, second);
    int rc = layering_dfsim("./dfsim", command, out);
    if (rc != 0)
        fprintf(stderr, "\n  %s\n%s\n", command, out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    char *a = layering_document(first), *b = layering_document(second);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"config\":"));
    free(a);
    free(b);
    free(out);
}

/* A point of conf/default.cfg, rerun from its document: the same document. */
static void test_rerun_reproduces_document(void)
{
    layering_rerun_same("conf/default.cfg", LAYERING_SHORT, "default.json", "default_again.json");
    /* a layered config's document reruns the same, with a routing of other VC needs */
    char path[128], cwd[512], text[1024];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text,
             "@include \"%s/conf/default.cfg\"\n"
             "routing = { mechanism = \"in_transit\"; global_policy = \"mm\"; };\n"
             "traffic = { pattern = \"adversarial\"; load = 0.3; };\n",
             cwd);
    test_write_text(layering_dir, "layered.cfg", text, path);
    layering_rerun_same(path, LAYERING_SHORT, "layered.json", "layered_again.json");
}

/* Jobs (a closed-loop motif, an open-loop background) and an allocation file beside the
 * document: the same document. */
static void test_rerun_with_jobs(void)
{
    char path[128], cwd[512], text[2048];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    test_write_text(layering_dir, "ranks.txt", "# the app's nodes\n0-3\n40-43\n17\n", path);
    snprintf(
        text, sizeof text,
        "@include \"%s/conf/default.cfg\"\n"
        "sim = { warmup_cycles = 200; max_cycles = 30000; };\n"
        "jobs = (\n"
        "  { name = \"app\"; nodes = 9; placement = \"file\"; allocation_file = \"ranks.txt\";\n"
        "    motif = \"allreduce\"; iterations = 2; compute_cycles = 50; },\n"
        "  { name = \"bg\"; nodes = 40; placement = \"random_nodes\"; pattern = \"uniform\";\n"
        "    load = 0.3; message_bytes = 256; }\n"
        ");\n",
        cwd);
    test_write_text(layering_dir, "jobs.cfg", text, path);
    layering_rerun_same(path, "--quiet", "jobs.json", "jobs_again.json");
    /* a shipped job config, through --set */
    layering_rerun_same("conf/jobs/interference_small.cfg",
                        "--quiet --set sim.warmup_cycles=200 --set jobs.app.iterations=1",
                        "interference.json", "interference_again.json");
}

/* --set on top of a document changes what it says, and only that; a routing of other VC
 * needs gets its own (the document's counts were what its routing needed). */
static void test_rerun_with_set(void)
{
    char args[512], *out = malloc(LAYERING_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    snprintf(args, sizeof args,
             "run %s/default.json --quiet --set traffic.load=0.2 --set routing.mechanism=valiant "
             "-o %s/valiant.json",
             layering_dir, layering_dir);
    CU_ASSERT_EQUAL_FATAL(layering_dfsim("./dfsim", args, out), 0);
    struct sim_config cfg;
    char err[CONFIG_ERROR_LEN];
    CU_ASSERT_EQUAL_FATAL(layering_load("valiant.json", NULL, 0, &cfg, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(cfg.traffic.load, 0.2, 1e-12);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&cfg, "routing.mechanism"), "valiant");
    CU_ASSERT_EQUAL(cfg.vcs.local, 3);
    CU_ASSERT_EQUAL(cfg.vcs.global, 2);
    CU_ASSERT_EQUAL(cfg.sim.measure_cycles, 500);
    CU_ASSERT_STRING_EQUAL(cfg.name, "default");
    char *a = layering_document("default.json"), *b = layering_document("valiant.json");
    CU_ASSERT_STRING_NOT_EQUAL(a, b);
    /* the config differs in those settings alone, and has valiant's own in force */
    cJSON *da = layering_json("default.json"), *db = layering_json("valiant.json");
    const cJSON *ca = cJSON_GetObjectItemCaseSensitive(da, "config");
    const cJSON *cb = cJSON_GetObjectItemCaseSensitive(db, "config");
    char differ[512] = "";
    for (const cJSON *gb = cb->child; gb; gb = gb->next) {
        const cJSON *ga = cJSON_GetObjectItemCaseSensitive(ca, gb->string);
        for (const cJSON *vb = gb->child; vb; vb = vb->next) {
            const cJSON *va = cJSON_GetObjectItemCaseSensitive(ga, vb->string);
            if (!va || !cJSON_Compare(va, vb, true))
                snprintf(differ + strlen(differ), sizeof differ - strlen(differ), "%s%s.%s",
                         differ[0] ? " " : "", gb->string, vb->string);
        }
    }
    for (const cJSON *ga = ca->child; ga; ga = ga->next)
        for (const cJSON *va = ga->child; va; va = va->next)
            if (!cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cb, ga->string),
                                                  va->string))
                snprintf(differ + strlen(differ), sizeof differ - strlen(differ), " -%s.%s",
                         ga->string, va->string);
    CU_ASSERT_STRING_EQUAL(differ, "vcs.local vcs.global routing.mechanism routing.valiant_target "
                                   "traffic.load");
    cJSON_Delete(da);
    cJSON_Delete(db);
    free(a);
    free(b);
    free(out);
}

/* info reads a document; without -o a rerun writes results/NAME-rerun.json, never over the
 * document it reruns. */
static void test_rerun_info_and_output(void)
{
    char args[1400], *out = malloc(LAYERING_OUT), *info = malloc(LAYERING_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(info);
    snprintf(args, sizeof args, "info %s/default.json --origins", layering_dir);
    CU_ASSERT_EQUAL(layering_dfsim("./dfsim-san", args, info), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(info, "network    9 groups, 36 routers, 72 nodes"));
    /* each setting on the document's line: measure_cycles is line 10 */
    char expected[256], cwd[512];
    const char *line = strstr(info, "  sim.measure_cycles = 500 ");
    snprintf(expected, sizeof expected, "%s/default.json:10\n", layering_dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    CU_ASSERT_EQUAL(strncmp(line + strcspn(line, "/"), expected, strlen(expected)), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(args, sizeof args,
             "cd %s && mkdir -p results && cp default.json results/default-rerun.json && "
             "%s/dfsim run default.json --quiet && %s/dfsim run results/default-rerun.json --quiet",
             layering_dir, cwd, cwd);
    CU_ASSERT_EQUAL(test_run_command(args, out, LAYERING_OUT), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  result    results/default-rerun.json\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "dfsim: results/default-rerun.json: the rerun would "
                                       "overwrite the document it reruns (expected -o OUT.json)"));
    free(out);
    free(info);
}

/* JSON that is not one run's result is refused with exit 2 and says why. */
static void test_rerun_refuses_other_json(void)
{
    static const struct {
        const char *name, *text, *problem;
    } cases[] = {
        {"other.json", "{ \"x\": 1 }\n",
         ": JSON, but not a dfsim result: no \"dfsim\" and \"config\" objects (expected the "
         "result document of one dfsim run)"},
        {"broken.json", "{\n  \"dfsim\": {\n", ":3: not valid JSON"},
        {"sweep.json", "{ \"sweep\": \"s\", \"points\": [] }",
         ": a sweep document, not one run's result"},
        {"schema.json", "{ \"dfsim\": { \"schema\": 99 }, \"config\": { \"name\": \"x\" } }",
         ": a result of schema 99 (expected schema 1"},
        {"null.json",
         "{ \"dfsim\": { \"schema\": 1 },\n \"config\": { \"name\": \"x\",\n"
         " \"traffic\": { \"load\": null } } }",
         ":3: config: null is no setting's value"},
        {"typo.json",
         "{ \"dfsim\": { \"schema\": 1 },\n \"config\": { \"name\": \"x\",\n"
         " \"traffic\": {\n \"lod\": 0.4 } } }",
         ":4: traffic.lod: unknown setting (did you mean 'traffic.load'?)"},
        {"array.txt", "[1, 2]\n", ": JSON, but not a dfsim result"},
    };
    char path[128], args[256], expected[512], *out = malloc(LAYERING_OUT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_text(layering_dir, cases[i].name, cases[i].text, path);
        snprintf(args, sizeof args, "run %s -o %s/never.json", path, layering_dir);
        snprintf(expected, sizeof expected, "%s%s", path, cases[i].problem);
        int rc = layering_dfsim(i % 2 ? "./dfsim-san" : "./dfsim", args, out);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, expected));
        if (rc != 2 || !strstr(out, expected))
            fprintf(stderr, "\n  %s: expected 2 and %s\n  got %d: %s\n", cases[i].name, expected,
                    rc, out);
    }
    free(out);
    snprintf(path, sizeof path, "%s/never.json", layering_dir);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

/* JSON's string escapes read as the characters they stand for (libconfig spells them
 * otherwise); the name is the document's config's, not the file's. */
static void test_rerun_reads_json_strings(void)
{
    struct sim_config cfg;
    char path[128], err[CONFIG_ERROR_LEN];
    test_write_text(layering_dir, "unicode.json",
                    "{ \"dfsim\": { \"schema\": 1 }, \"config\": { \"name\": \"x\",\n"
                    " \"jobs\": [ { \"name\": \"app\", \"nodes\": 8, \"pattern\": \"uniform\",\n"
                    " \"allocation_file\": \"caf\\u00e9\\ud83d\\ude00\\/\\b\\\"\\\\\\t\" } ] } }",
                    path);
    int rc = layering_load("unicode.json", NULL, 0, &cfg, err);
    if (rc != 0)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(cfg.jobs[0].allocation_file, "caf\xc3\xa9\xf0\x9f\x98\x80/\b\"\\\t");
    CU_ASSERT_STRING_EQUAL(cfg.name, "x");
    /* NUL cannot be in a value */
    test_write_text(layering_dir, "nul.json",
                    "{ \"dfsim\": { \"schema\": 1 }, \"config\": { \"name\": \"x\",\n"
                    " \"traffic\": { \"pattern\": \"uni\\u0000form\" } } }",
                    path);
    CU_ASSERT_EQUAL(layering_load("nul.json", NULL, 0, &cfg, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "nul.json:2: \\u0000 in a string"));
}

int test_layering_register(void)
{
    static const struct test_case cases[] = {
        {"a base and an override: the later value wins", test_base_and_override},
        {"a group written again merges key by key", test_group_merged_key_by_key},
        {"a list written again replaces the base's whole", test_list_replaced_whole},
        {"messages name the file and line of the value at fault", test_errors_name_their_file},
        {"a group written twice in one file is refused", test_duplicate_in_one_file},
        {"paths in a base resolve from the base's folder", test_paths_stay_relative_to_their_file},
        {"config_load_sources: what was written, and where", test_sources_listed},
        {"info --origins shows where each value came from", test_info_shows_origins},
        {"run RESULT.json reproduces the document", test_rerun_reproduces_document},
        {"run RESULT.json with jobs and an allocation file", test_rerun_with_jobs},
        {"run RESULT.json --set changes what it sets", test_rerun_with_set},
        {"info RESULT.json; a rerun's default output", test_rerun_info_and_output},
        {"run OTHER.json: exit 2 and why", test_rerun_refuses_other_json},
        {"a document's strings read as JSON writes them", test_rerun_reads_json_strings},
    };
    return test_add_suite("layering", layering_init, layering_cleanup, cases,
                          sizeof cases / sizeof cases[0]);
}
