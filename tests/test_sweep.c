/* test_sweep: sweep files (grid expansion, errors), point hashes (non-default settings and the
 * model version; the legacy hash of older documents), resume after kill -9 and from older
 * documents, merge arithmetic, failure isolation, determinism across --jobs, saturation and
 * Slurm task mapping.
 * End-to-end cases run the release binary ./dfsim on a tiny network. */
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model_version.h"
#include "result_schema.h"
#include "saturation.h"
#include "sweep.h"
#include "sweep_doc.h"
#include "sweep_merge.h"
#include "sweep_run.h"
#include "sweep_sync.h"
#include "test_util.h"

#define TEST_SWEEP_OUT 32768
#define TEST_SWEEP_FAST "set = { sim = { warmup_cycles = 100; measure_cycles = 300; }; };\n"

static char test_sweep_root[64];   /* a fresh temporary directory for the suite */
static char test_sweep_base[4200]; /* absolute path of conf/default.cfg */

static int test_sweep_init(void)
{
    snprintf(test_sweep_root, sizeof test_sweep_root, "/tmp/dfsim-sweep-XXXXXX");
    if (!mkdtemp(test_sweep_root) || !getcwd(test_sweep_base, 4096))
        return -1;
    strcat(test_sweep_base, "/conf/default.cfg");
    return 0;
}

static int test_sweep_cleanup(void)
{
    char command[128], out[256];
    snprintf(command, sizeof command, "rm -rf '%s'", test_sweep_root);
    return test_run_command(command, out, sizeof out) == 0 ? 0 : -1;
}

/* Writes ROOT/NAME with `base = "<conf/default.cfg>";` then body; returns its path. */
static const char *test_sweep_file(const char *name, const char *body, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", test_sweep_root, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "base = \"%s\";\n%s", test_sweep_base, body);
    fclose(f);
    return path;
}

static void test_sweep_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* Runs "./dfsim ARGS"; returns the exit status, output in out (TEST_SWEEP_OUT bytes). */
static int test_sweep_dfsim(const char *args, char *out)
{
    char command[8192];
    snprintf(command, sizeof command, "./dfsim %s", args);
    return test_run_command(command, out, TEST_SWEEP_OUT);
}

static void test_sweep_expand(const char *path, struct sweep *sw, struct sweep_grid *grid)
{
    char err[SWEEP_ERROR_LEN];
    int rc = sweep_load(path, sw, err);
    if (rc == 0 && (rc = sweep_expand(sw, grid, err)) != 0)
        sweep_free(sw);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", err);
    CU_ASSERT_FATAL(rc == 0);
}

static const char test_sweep_grid_body[] = TEST_SWEEP_FAST
    "axes = { traffic = { load = [0.1, 0.2, 0.3]; pattern = [\"uniform\", \"adversarial\"]; };\n"
    "         sim = { seed = [1, 2]; }; };\n"
    "variants = ( { name = \"A\"; routing = { mechanism = \"min\"; }; },\n"
    "             { name = \"B\"; routing = { mechanism = \"valiant\"; }; },\n"
    "             { name = \"S\"; saturation = true; routing = { mechanism = \"valiant\"; }; } "
    ");\n";

/* ---- grid expansion ---- */

static void test_sweep_expansion_order(void)
{
    char path[512], text[512];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("grid.cfg", test_sweep_grid_body, path, sizeof path), &sw,
                      &g);
    CU_ASSERT_EQUAL(sw.n_axes, 3);
    CU_ASSERT_EQUAL(sw.n_variants, 3);
    CU_ASSERT_STRING_EQUAL(sw.name, "grid");
    /* 3 loads x 2 patterns x 2 seeds for A and B; S searches the load: 2 x 2 */
    CU_ASSERT_EQUAL_FATAL(g.n_jobs, 12 + 12 + 4);
    int expect[][4] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 1, 0},  {0, 1, 0, 0},
                       {0, 2, 1, 1}, {1, 0, 0, 0}, {2, -1, 0, 0}, {2, -1, 1, 1}};
    int at[] = {0, 1, 2, 4, 11, 12, 24, 27};
    for (int k = 0; k < 8; k++) {
        const struct sweep_job *job = &g.jobs[at[k]];
        CU_ASSERT_EQUAL(job->variant, expect[k][0]);
        for (int a = 0; a < 3; a++)
            CU_ASSERT_EQUAL(job->choice[a], expect[k][a + 1]);
    }
    snprintf(text, sizeof text, "A/load0.1_uniform_seed1_%s.json", g.jobs[0].hash);
    CU_ASSERT_STRING_EQUAL(g.jobs[0].file, text);
    CU_ASSERT_STRING_EQUAL(g.jobs[24].file, "S/uniform_seed1");
    CU_ASSERT_TRUE(sweep_job_is_search(&sw, &g.jobs[24]));
    sweep_job_describe(&sw, &g.jobs[11], text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "traffic.load=0.3 traffic.pattern=adversarial sim.seed=2");
    sweep_grid_free(&g);
    sweep_free(&sw);
}

static void test_sweep_without_variants(void)
{
    char path[512];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("plain.cfg",
                                      "name = \"plain-1\";\n" TEST_SWEEP_FAST
                                      "axes = { sim = { seed = [3, 4, 5]; }; };\n",
                                      path, sizeof path),
                      &sw, &g);
    CU_ASSERT_STRING_EQUAL(sw.name, "plain-1");
    CU_ASSERT_EQUAL(g.n_jobs, 3);
    CU_ASSERT_STRING_EQUAL(sw.variants[0].name, "");
    CU_ASSERT_PTR_NULL(strchr(g.jobs[2].file, '/')); /* no variant directory */
    CU_ASSERT_EQUAL(strncmp(g.jobs[2].file, "seed5_", 6), 0);
    sweep_grid_free(&g);
    sweep_free(&sw);
}

/* ---- hashes ---- */

static void test_sweep_hash_is_resolved_config(void)
{
    char path[512], err[CONFIG_ERROR_LEN], hash[SWEEP_HASH_LEN];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("grid.cfg", test_sweep_grid_body, path, sizeof path), &sw,
                      &g);
    /* job 17 = B (from 12), load 0.2 (+4), uniform, seed 2 (+1): same settings in another order and
     * spelling */
    const char *sets[] = {"sim.seed=2",
                          "traffic.load=0.20",
                          "routing.mechanism=valiant",
                          "traffic.pattern=uniform",
                          "sim.measure_cycles=300",
                          "sim.warmup_cycles=100"};
    struct sim_config cfg;
    CU_ASSERT_EQUAL_FATAL(config_load(test_sweep_base, sets, 6, &cfg, err), 0);
    sweep_config_hash(&cfg, hash);
    CU_ASSERT_STRING_EQUAL(hash, g.jobs[17].hash);
    CU_ASSERT_EQUAL(strlen(hash), 16);
    cfg.sim.seed = 3;
    sweep_config_hash(&cfg, hash);
    CU_ASSERT_STRING_NOT_EQUAL(hash, g.jobs[17].hash);
    for (int i = 0; i < g.n_jobs; i++) /* distinct configs, distinct hashes */
        for (int j = 0; j < i; j++)
            CU_ASSERT_STRING_NOT_EQUAL(g.jobs[i].hash, g.jobs[j].hash);
    sweep_grid_free(&g);
    sweep_free(&sw);
}

/* Editing the sweep file changes the hash of the points whose resolved config changed only. */
static void test_sweep_hash_stability(void)
{
    char path[512], body[2048];
    struct sweep sw1, sw2;
    struct sweep_grid g1, g2;
    test_sweep_expand(test_sweep_file("grid.cfg", test_sweep_grid_body, path, sizeof path), &sw1,
                      &g1);
    /* load 0.3 becomes 0.35; set also fixes topology.p = 2, the base config's own value */
    snprintf(body, sizeof body, "%s", test_sweep_grid_body);
    char *at = strstr(body, "0.3]");
    memmove(at + 1, at, strlen(at) + 1);
    memcpy(at, "0.35", 4);
    at = strstr(body, "measure_cycles = 300; };");
    memmove(at + 25 + 24, at + 25, strlen(at + 25) + 1);
    memcpy(at + 25, " topology = { p = 2; }; ", 24);
    test_sweep_expand(test_sweep_file("grid2.cfg", body, path, sizeof path), &sw2, &g2);
    CU_ASSERT_EQUAL_FATAL(g1.n_jobs, g2.n_jobs);
    int changed = 0;
    for (int j = 0; j < g1.n_jobs; j++) {
        bool load_changed = g1.jobs[j].choice[0] == 2; /* S has no load axis (-1) */
        CU_ASSERT_EQUAL(strcmp(g1.jobs[j].hash, g2.jobs[j].hash) != 0, load_changed);
        changed += strcmp(g1.jobs[j].hash, g2.jobs[j].hash) != 0;
    }
    CU_ASSERT_EQUAL(changed, 8);
    sweep_grid_free(&g1);
    sweep_free(&sw1);
    sweep_grid_free(&g2);
    sweep_free(&sw2);
}

/* Loads the config of overrides (n of them) over the defaults. */
static void test_sweep_config(const char *const *sets, int n, struct sim_config *cfg)
{
    char err[CONFIG_ERROR_LEN];
    int rc = config_load(NULL, sets, n, cfg, err);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static const char *const test_sweep_valiant[] = {"traffic.load=0.25", "routing.mechanism=valiant",
                                                 "vcs.local=3", "vcs.global=2"};

/* A config with jobs (list elements) written to ROOT/jobs.cfg and loaded. */
static void test_sweep_jobs_config(struct sim_config *cfg)
{
    char path[512], err[CONFIG_ERROR_LEN];
    snprintf(path, sizeof path, "%s/jobs.cfg", test_sweep_root);
    test_sweep_write(path, "topology = { p = 2; a = 4; h = 2; };\n"
                           "sim = { warmup_cycles = 100; measure_cycles = 300; seed = 7; };\n"
                           "jobs = ( { name = \"app\"; nodes = 16; placement = \"random_nodes\"; "
                           "motif = \"halo3d\"; dims = [4, 2, 2];\n"
                           "    message_bytes = 256; iterations = 4; compute_cycles = 20; },\n"
                           "  { name = \"inc\"; nodes = 16; pattern = \"incast\"; targets = 2; "
                           "load = 0.5; message_bytes = 512; } );\n");
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, cfg, err), 0);
}

/* The hash covers only the settings that differ from their defaults, in no particular order:
 * a setting that holds its default counts as if it did not exist, which is what a setting
 * added to the schema is for every stored point. */
static void test_sweep_hash_non_default(void)
{
    struct sim_config cfg;
    char hash[SWEEP_HASH_LEN], text[SWEEP_HASH_LEN];
    test_sweep_config(test_sweep_valiant, 4, &cfg);
    CU_ASSERT_EQUAL_FATAL(sweep_config_hash(&cfg, hash), 0);
    const char *lines[] = {"vcs.local=3", "traffic.load=0.25", "vcs.global=2",
                           "routing.mechanism=valiant"};
    sweep_identity_hash(lines, 4, DFSIM_MODEL_VERSION, text);
    CU_ASSERT_STRING_EQUAL(hash, text);
    /* Recorded when the rule was made: it changes only if the identity rule does (or one of
     * these values becomes a default, which bumps the model version anyway). */
    sweep_config_hash_at(&cfg, 1, text);
    CU_ASSERT_STRING_EQUAL(text, "1b41d4a4e09bf1ee");
    /* written at its default, a setting changes nothing; at another value, the hash */
    static const struct {
        const char *key, *other;
    } keys[] = {{"router.arbiter", "\"age\""},
                {"traffic.pattern", "\"adversarial\""},
                {"sim.warmup_cycles", "1234"},
                {"routing.pb_coef", "7"},
                {"links.bandwidth_global", "0.75"}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        struct setting_ref r;
        char def[SETTING_STRING_LEN + 8], set[2][SETTING_STRING_LEN + 200];
        CU_ASSERT_EQUAL_FATAL(settings_find_full(keys[k].key, &r), 0);
        settings_format_default(r.row, def, sizeof def);
        CU_ASSERT_STRING_NOT_EQUAL_FATAL(def, keys[k].other);
        snprintf(set[0], sizeof set[0], "%s=%s", keys[k].key, def);
        snprintf(set[1], sizeof set[1], "%s=%s", keys[k].key, keys[k].other);
        for (int v = 0; v < 2; v++) {
            const char *sets[5] = {test_sweep_valiant[0], test_sweep_valiant[1],
                                   test_sweep_valiant[2], test_sweep_valiant[3], set[v]};
            test_sweep_config(sets, 5, &cfg);
            sweep_config_hash(&cfg, text);
            CU_ASSERT_EQUAL(strcmp(text, hash) == 0, v == 0);
        }
    }
    /* the defaults alone leave only what config_load resolves (the VCs of the routing) */
    config_set_defaults(&cfg);
    const char **mine;
    int n = sweep_identity_lines(&cfg, &mine);
    CU_ASSERT_EQUAL(n, 2);
    for (int i = 0; i < n; i++)
        CU_ASSERT_EQUAL(strncmp(mine[i], "vcs.", 4), 0);
    sweep_identity_free(mine, n);
}

/* Lines in any order (the schema's, or another one) give the same hash. */
static void test_sweep_hash_order(void)
{
    struct sim_config cfg;
    char hash[SWEEP_HASH_LEN], text[SWEEP_HASH_LEN];
    test_sweep_jobs_config(&cfg);
    CU_ASSERT_EQUAL_FATAL(sweep_config_hash(&cfg, hash), 0);
    const char **lines;
    int n = sweep_identity_lines(&cfg, &lines);
    CU_ASSERT_FATAL(n > 20);
    CU_ASSERT_STRING_EQUAL(lines[n - 1], "jobs.count=2"); /* elements by index */
    bool indexed = false;
    for (int i = 0; i < n; i++)
        indexed |= strcmp(lines[i], "jobs[1].pattern=incast") == 0;
    CU_ASSERT_TRUE(indexed);
    unsigned seed = 12345; /* a fixed shuffle (Fisher-Yates, LCG) */
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int k = (int)((seed >> 16) % (unsigned)(i + 1));
        const char *t = lines[i];
        lines[i] = lines[k];
        lines[k] = t;
    }
    sweep_identity_hash(lines, n, DFSIM_MODEL_VERSION, text);
    CU_ASSERT_STRING_EQUAL(text, hash);
    sweep_identity_free(lines, n);
}

/* The model version is part of the identity: bumping it changes every hash, and ends the
 * acceptance of the documents written before versions existed. */
static void test_sweep_hash_model_version(void)
{
    struct sim_config cfg;
    char a[SWEEP_HASH_LEN], b[SWEEP_HASH_LEN], c[SWEEP_HASH_LEN];
    test_sweep_config(test_sweep_valiant, 4, &cfg);
    sweep_config_hash(&cfg, a);
    sweep_config_hash_at(&cfg, DFSIM_MODEL_VERSION, b);
    CU_ASSERT_STRING_EQUAL(a, b);
    sweep_config_hash_at(&cfg, DFSIM_MODEL_VERSION + 1, c);
    CU_ASSERT_STRING_NOT_EQUAL(a, c);
    CU_ASSERT_EQUAL(sweep_config_hash_legacy(&cfg, SWEEP_LEGACY_MODEL_VERSION, c), 0);
    CU_ASSERT_EQUAL(strlen(c), 16);
    CU_ASSERT_STRING_NOT_EQUAL(a, c);
    CU_ASSERT_EQUAL(sweep_config_hash_legacy(&cfg, SWEEP_LEGACY_MODEL_VERSION + 1, c), -1);
    CU_ASSERT_STRING_EQUAL(c, "");
}

/* The legacy hash is the one the previous release wrote: these values were printed by its
 * sweep_config_hash. They hold while the defaults do, i.e. while DFSIM_MODEL_VERSION is still
 * SWEEP_LEGACY_MODEL_VERSION (after that no legacy document is accepted). */
static void test_sweep_hash_legacy(void)
{
    if (DFSIM_MODEL_VERSION != SWEEP_LEGACY_MODEL_VERSION)
        return;
    struct sim_config cfg;
    char hash[SWEEP_HASH_LEN];
    config_set_defaults(&cfg);
    sweep_config_hash_legacy(&cfg, SWEEP_LEGACY_MODEL_VERSION, hash);
    CU_ASSERT_STRING_EQUAL(hash, "548f96268112a276");
    test_sweep_config(test_sweep_valiant, 2, &cfg);
    sweep_config_hash_legacy(&cfg, SWEEP_LEGACY_MODEL_VERSION, hash);
    CU_ASSERT_STRING_EQUAL(hash, "c24096fa4e6068e6");
    test_sweep_jobs_config(&cfg);
    sweep_config_hash_legacy(&cfg, SWEEP_LEGACY_MODEL_VERSION, hash);
    CU_ASSERT_STRING_EQUAL(hash, "23389f750972f06f");
}

/* ---- errors ---- */

struct test_sweep_bad {
    const char *body, *message; /* body after the base line (line 1) */
};

static const struct test_sweep_bad test_sweep_bad_files[] = {
    {"axes = { traffic = { load = 0.5; }; };\n", ":2: traffic.load: expected a list of values"},
    {"set = { traffic = { lod = 0.5; }; };\n", ":2: traffic.lod: unknown setting (expected"},
    {"set = { trafic = { load = 0.5; }; };\n", ":2: trafic: unknown config group (expected"},
    {"axes = { traffic = { load = [\"x\"]; }; };\n", ":2: traffic.load: expected a number"},
    {"\n\naxes = { traffic = { load = [0.5, 1.5]; }; };\n",
     ":4: traffic.load: 1.5 is more than a node can offer (expected at most links.bandwidth_node"},
    {"axes = { traffic = { load = []; }; };\n", ":2: traffic.load: empty list"},
    {"axes = { traffic = { load = [0.1, 0.1]; }; };\n",
     ":2: traffic.load: value 0.1 appears twice"},
    {"axes = { sim = { seed = [1, 12345678901]; }; };\n",
     ":2: sim.seed: integer 12345678901 needs"},
    {"axis = { };\n", ":2: axis: unknown sweep setting (expected one of: name, base"},
    {"variants = ( { name = \"A\"; }, { name = \"A\"; } );\n", ":2: name: variant 'A' is defined"},
    {"variants = ( { routing = { mechanism = \"min\"; }; } );\n", ":2: variants: variant 1 has no"},
    {"variants = ( { name = \"a/b\"; } );\n", ":2: name: expected a string of letters"},
    {"variants = ( { name = \"A\"; colour = 1; } );\n", ":2: colour: unknown variant setting"},
    {"axes = { traffic = { load = [0.1]; }; };\nvariants = ( { name = \"A\"; traffic = { load = "
     "0.2; }; } );\n",
     ":3: traffic.load: set by variant 'A' and also an axis (line 2)"},
    {"variants = ( { name = \"A\"; saturation = true; traffic = { load = 0.2; }; } );\n",
     ":2: traffic.load: variant 'A' searches the saturation load itself"},
    {"variants = ( { name = \"A\"; tolerance = 0.1; } );\n", ":2: A: tolerance and resolution"},
    {"axes = { traffic = { load = [0.1 0.2]; }; };\n", ":2: syntax: syntax error"},
    /* An include naming a directory would end the process inside libconfig; any include,
     * even of an existing file, is refused (the sweep's lines locate its settings). */
    {"\n@include \"/\"\n", ":3: @include: not supported in a sweep file"},
    {"@include \"bad.cfg\"\n", ":2: @include: not supported in a sweep file"},
    {"axes = { routing = { mechanism = [\"min\", \"valiant\"]; }; vcs = { local = [2]; }; };\n",
     ":2: vcs.local: routing 'valiant' needs at least 3 local VCs (got 2)\n  in the point "
     "routing.mechanism=valiant vcs.local=2"},
};

static void test_sweep_file_errors(void)
{
    char path[512], err[SWEEP_ERROR_LEN];
    for (size_t i = 0; i < sizeof test_sweep_bad_files / sizeof test_sweep_bad_files[0]; i++) {
        struct sweep sw;
        struct sweep_grid g;
        test_sweep_file("bad.cfg", test_sweep_bad_files[i].body, path, sizeof path);
        int rc = sweep_load(path, &sw, err);
        if (rc == 0) {
            rc = sweep_expand(&sw, &g, err);
            if (rc == 0)
                sweep_grid_free(&g);
            sweep_free(&sw);
        }
        CU_ASSERT_EQUAL(rc, -1);
        bool found = strstr(err, path) == err && strstr(err, test_sweep_bad_files[i].message);
        if (!found)
            fprintf(stderr, "\n  case %zu: got '%s'\n  wanted '%s'\n", i, err,
                    test_sweep_bad_files[i].message);
        CU_ASSERT_TRUE(found);
    }
}

static void test_sweep_missing_base(void)
{
    char path[512], err[SWEEP_ERROR_LEN], out[TEST_SWEEP_OUT], args[1024];
    struct sweep sw;
    snprintf(path, sizeof path, "%s/nobase.cfg", test_sweep_root);
    test_sweep_write(path, "axes = { sim = { seed = [1]; }; };\n");
    CU_ASSERT_EQUAL(sweep_load(path, &sw, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "nobase.cfg:1: base: missing (expected base ="));
    test_sweep_write(path, "base = \"nowhere.cfg\";\n");
    CU_ASSERT_EQUAL(sweep_load(path, &sw, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "nobase.cfg:1: base: cannot read"));
    /* a quoted value with a newline is spelled out: the message stays one line (fuzz_sweep) */
    test_sweep_write(path, "base = \"no\\nwhere.cfg\";\n");
    CU_ASSERT_EQUAL(sweep_load(path, &sw, err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no\\nwhere.cfg: No such file"));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    /* the command line: message and exit status 2, nothing run */
    snprintf(args, sizeof args, "sweep %s -o %s/nobase", path, test_sweep_root);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "nobase.cfg:1: base: cannot read"));
    snprintf(args, sizeof args, "%s/nobase", test_sweep_root);
    CU_ASSERT_NOT_EQUAL(access(args, F_OK), 0);
    CU_ASSERT_EQUAL(test_sweep_dfsim("sweep", out), 2);
    CU_ASSERT_EQUAL(test_sweep_dfsim("sweep x.cfg --jobs 0", out), 2);
    CU_ASSERT_EQUAL(test_sweep_dfsim("sweep x.cfg --dry-run", out), 2);
}

/* ---- merge arithmetic ---- */

/* A hand-written point document: only what merge reads. */
static void test_sweep_point_doc(const char *dir, const char *file, int index, int seed,
                                 double accepted, double latency, const char *max_min)
{
    char path[1024], text[2048];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(text, sizeof text,
             "{\"load\": {\"offered\": 0.4, \"injected\": 0.39, \"accepted\": %g},\n"
             " \"latency\": {\"mean\": %g, \"p99\": 300},\n"
             " \"fairness\": {\"min_injected_load\": 0.25, \"max_min\": %s, \"cov\": 0.1},\n"
             " \"misrouted\": {\"global\": 0, \"local\": 0},\n"
             " \"hops\": {\"local\": %d, \"per_router\": [1, 2]},\n"
             " \"timing\": {\"wall_seconds\": 3}, \"config\": {\"traffic\": {\"load\": 0.4}},\n"
             " \"sweep\": {\"name\": \"hand\", \"variant\": \"V\", \"point\": {\"traffic.load\": "
             "%s, \"sim.seed\": %d}, \"hash\": \"%016d\", \"index\": %d}}\n",
             accepted, latency, max_min, 2 * index, index < 3 ? "0.4" : "0.5", seed, index, index);
    test_sweep_write(path, text);
}

static double test_sweep_get(const cJSON *obj, const char *a, const char *b)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, a);
    if (b)
        item = cJSON_GetObjectItemCaseSensitive(item, b);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static cJSON *test_sweep_load_json(const char *dir, const char *file)
{
    cJSON *doc = sweep_doc_load(dir, file);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    return doc;
}

/* The members of obj after its first `skip` ones have exactly the key figures of the result
 * schema that pass `wanted`, in its order. */
static void test_sweep_expect_figures(const cJSON *obj, int skip,
                                      bool (*wanted)(const struct result_figure *))
{
    struct result_figures figures;
    result_schema_figures(&figures);
    const cJSON *member = obj->child;
    for (int i = 0; member && i < skip; i++)
        member = member->next;
    for (int f = 0; f < figures.n; f++) {
        const struct result_figure *figure = figures.items[f].figure;
        if (!wanted(figure))
            continue;
        CU_ASSERT_FATAL(member != NULL);
        CU_ASSERT_STRING_EQUAL(member->string, figure->name);
        member = member->next;
    }
    /* then, past a document's jobs, every scalar metric */
    if (member && strcmp(member->string, "jobs") == 0)
        member = member->next;
    CU_ASSERT_FATAL(member != NULL);
    CU_ASSERT_STRING_EQUAL(member->string, "metrics");
    CU_ASSERT_PTR_NULL(member->next);
}

static bool test_sweep_in_points(const struct result_figure *figure)
{
    return figure->sweep_rank > 0;
}

static bool test_sweep_averaged(const struct result_figure *figure)
{
    return figure->averaged;
}

static void test_sweep_merge_arithmetic(void)
{
    char dir[256], sub[300], err[1024];
    snprintf(dir, sizeof dir, "%s/hand", test_sweep_root);
    snprintf(sub, sizeof sub, "%s/V", dir);
    CU_ASSERT_EQUAL_FATAL(sweep_doc_mkdirs(sub), 0);
    /* file names in the reverse of index order: merge orders by index */
    test_sweep_point_doc(dir, "V/a.json", 3, 1, 0.5, 90, "1.25");
    test_sweep_point_doc(dir, "V/b.json", 2, 3, 0.37, 125, "2.5");
    test_sweep_point_doc(dir, "V/c.json", 1, 2, 0.32, 110, "null");
    test_sweep_point_doc(dir, "V/d.json", 0, 1, 0.30, 100, "1.5");
    snprintf(sub, sizeof sub, "%s/notes.json", dir);
    test_sweep_write(sub, "{\"not\": \"a point\"}\n");
    int n;
    CU_ASSERT_EQUAL_FATAL(sweep_merge(dir, NULL, &n, err, sizeof err), 0);
    CU_ASSERT_EQUAL(n, 4);
    cJSON *doc = test_sweep_load_json(dir, "sweep.json");
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(doc, "points");
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(doc, "groups");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(doc, "sweep")->valuestring, "hand");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(points), 4);
    CU_ASSERT_STRING_EQUAL(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(points, 0), "file")->valuestring,
        "V/d.json");
    CU_ASSERT_TRUE(
        cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(points, 1), "max_min")));
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(groups), 2);
    const cJSON *g0 = cJSON_GetArrayItem(groups, 0), *g1 = cJSON_GetArrayItem(groups, 1);
    /* file, variant, point, hash, index, then the figures the result schema gives sweep.json;
     * groups: variant, point, seeds, then the averaged figures */
    test_sweep_expect_figures(cJSON_GetArrayItem(points, 0), 5, test_sweep_in_points);
    test_sweep_expect_figures(g0, 3, test_sweep_averaged);
    CU_ASSERT_EQUAL(test_sweep_get(g0, "seeds", NULL), 3);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(g0, "point"), "sim.seed"));
    /* accepted 0.30, 0.32, 0.37: mean 0.33, s = 0.0360555, t(0.975, 2) = 4.3027 */
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g0, "accepted", "mean"), 0.33, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g0, "accepted", "ci95"), 0.0895678429590, 1e-9);
    /* latency 100, 110, 125: mean 111.667, s = 12.5831 */
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g0, "latency_mean", "mean"), 111.666666666667, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g0, "latency_mean", "ci95"), 31.2583908072874, 1e-9);
    /* max_min 1.5, (starved), 2.5: over the two finite values, t(0.975, 1) = 12.7062 */
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g0, "max_min", "mean"), 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g0, "max_min", "ci95"), 6.3531, 1e-9);
    CU_ASSERT_EQUAL(test_sweep_get(g0, "max_min", "starved"), 1);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g0, "cov", "ci95"), 0, 1e-15);
    /* one seed: ci95 = 0 */
    CU_ASSERT_EQUAL(test_sweep_get(g1, "seeds", NULL), 1);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(g1, "accepted", "mean"), 0.5, 1e-12);
    CU_ASSERT_EQUAL(test_sweep_get(g1, "accepted", "ci95"), 0);
    /* "metrics": every number (or null) of the document by its path, but the program's, the
     * timing, the config echo, the sweep's metadata and arrays */
    const cJSON *m0 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(points, 0), "metrics");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(m0), 11);
    CU_ASSERT_EQUAL(test_sweep_get(m0, "latency.p99", NULL), 300);
    CU_ASSERT_EQUAL(test_sweep_get(m0, "hops.local", NULL), 0);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(m0, "hops.per_router"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(m0, "timing.wall_seconds"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(m0, "config.traffic.load"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(m0, "sweep.index"));
    CU_ASSERT_TRUE(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(points, 1), "metrics"),
        "fairness.max_min")));
    /* groups: mean and ci95 of each, as the figures: hops.local 0, 2, 4 (indexes 0 .. 2) */
    const cJSON *gm = cJSON_GetObjectItemCaseSensitive(g0, "metrics");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(gm), 11);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(gm, "hops.local", "mean"), 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(gm, "hops.local", "ci95"), 4.968330006484406, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(gm, "fairness.max_min", "mean"), 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(gm, "load.accepted", "ci95"), 0.0895678429590, 1e-9);
    cJSON_Delete(doc);
}

static void test_sweep_t_table(void)
{
    double mean, ci;
    CU_ASSERT_DOUBLE_EQUAL(sweep_merge_t975(1), 12.7062, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sweep_merge_t975(30), 2.0423, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sweep_merge_t975(31), 1.96, 1e-9);
    const double one[] = {4.0};
    sweep_merge_stats(one, 1, &mean, &ci);
    CU_ASSERT_DOUBLE_EQUAL(mean, 4.0, 1e-12);
    CU_ASSERT_EQUAL(ci, 0);
}

/* ---- saturation ---- */

static int test_sweep_probe(void *ctx, double load, bool *accepts)
{
    *accepts = load <= *(const double *)ctx + 1e-9;
    return 0;
}

static void test_sweep_bisection(void)
{
    double threshold = 0.437, load;
    int probes;
    CU_ASSERT_EQUAL(saturation_search(0.01, test_sweep_probe, &threshold, &load, &probes), 0);
    CU_ASSERT_DOUBLE_EQUAL(load, 0.43, 1e-12);
    CU_ASSERT_TRUE(probes >= 7 && probes <= 8);
    threshold = 1;
    CU_ASSERT_EQUAL(saturation_search(0.01, test_sweep_probe, &threshold, &load, &probes), 0);
    CU_ASSERT_EQUAL(load, 1);
    CU_ASSERT_EQUAL(probes, 1);
    threshold = 0.001;
    CU_ASSERT_EQUAL(saturation_search(0.1, test_sweep_probe, &threshold, &load, &probes), 0);
    CU_ASSERT_EQUAL(load, 0);
    CU_ASSERT_TRUE(saturation_accepts(0.5, 0.475, 0.05));
    CU_ASSERT_FALSE(saturation_accepts(0.5, 0.47, 0.05));
}

static void test_sweep_saturation_command(void)
{
    char out[TEST_SWEEP_OUT], args[1024];
    snprintf(args, sizeof args,
             "saturation conf/default.cfg --set sim.warmup_cycles=300 "
             "--set sim.measure_cycles=600 --resolution 0.1 -o %s/sat --quiet",
             test_sweep_root);
    CU_ASSERT_EQUAL_FATAL(test_sweep_dfsim(args, out), 0);
    double load = -1;
    const char *at = strstr(out, "saturation load ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    CU_ASSERT_EQUAL(sscanf(at, "saturation load %lf", &load), 1);
    CU_ASSERT_TRUE(load > 0.2 && load <= 1);
    snprintf(args, sizeof args, "%s/sat", test_sweep_root);
    cJSON *doc = test_sweep_load_json(args, "sweep.json");
    const cJSON *search =
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "saturation"), 0);
    CU_ASSERT_DOUBLE_EQUAL(test_sweep_get(search, "load", NULL), load, 1e-12);
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(search, "complete")));
    cJSON_Delete(doc);
    /* a bad --set is bad input */
    CU_ASSERT_EQUAL(test_sweep_dfsim("saturation conf/default.cfg --set traffic.lod=1", out), 2);
}

/* ---- end to end: resume, failures, determinism, Slurm task mapping ---- */

static const char test_sweep_small_body[] =
    "name = \"small\";\n" TEST_SWEEP_FAST
    "axes = { traffic = { load = [0.2, 0.5]; pattern = [\"uniform\", \"adversarial\"]; }; };\n"
    "variants = ( { name = \"MIN\"; routing = { mechanism = \"min\"; }; },\n"
    "             { name = \"VAL\"; routing = { mechanism = \"valiant\"; }; } );\n";

/* Documents (non-hidden .json but sweep.json) under dir: count, and every one parses. */
static int test_sweep_count_docs(const char *dir, bool *all_parse)
{
    char command[512], out[TEST_SWEEP_OUT];
    snprintf(command, sizeof command,
             "find '%s' -name '*.json' ! -name '.*' ! -name sweep.json ! -path '*/.stale/*'", dir);
    test_run_command(command, out, sizeof out);
    int n = 0;
    *all_parse = true;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), n++) {
        char *text = sweep_doc_read_text(line);
        cJSON *doc = text ? cJSON_Parse(text) : NULL;
        *all_parse &= doc != NULL;
        cJSON_Delete(doc);
        free(text);
    }
    return n;
}

/* Starts ./dfsim sweep in the background; returns its pid. */
static pid_t test_sweep_spawn(const char *sweep, const char *dir)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(127);
        execl("./dfsim", "./dfsim", "sweep", sweep, "-o", dir, "--jobs", "2", "--quiet",
              (char *)NULL);
        _exit(127);
    }
    return pid;
}

struct test_sweep_stamp {
    char path[512];
    struct stat st;
};

static void test_sweep_kill_and_resume(void)
{
    char path[512], dir[256], out[TEST_SWEEP_OUT], args[1024];
    test_sweep_file("resume.cfg",
                    "set = { sim = { warmup_cycles = 2000; measure_cycles = 30000; }; };\n"
                    "axes = { traffic = { load = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]; };\n"
                    "         sim = { seed = [1, 2]; }; };\n",
                    path, sizeof path);
    snprintf(dir, sizeof dir, "%s/resume", test_sweep_root);
    pid_t pid = test_sweep_spawn(path, dir);
    CU_ASSERT_FATAL(pid > 0);
    bool parse;
    int before = 0;
    for (int i = 0; i < 4000 && (before = test_sweep_count_docs(dir, &parse)) < 3; i++)
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    nanosleep(&(struct timespec){0, 100000000}, NULL); /* workers die with the pool */
    before = test_sweep_count_docs(dir, &parse);
    CU_ASSERT_TRUE(parse); /* no truncated document */
    CU_ASSERT_TRUE(before >= 3 && before < 16);
    /* remember the documents present: a rerun must not write them again */
    struct test_sweep_stamp stamps[16];
    snprintf(args, sizeof args, "ls %s/*.json", dir);
    test_run_command(args, out, sizeof out);
    int n = 0;
    for (char *line = strtok(out, "\n"); line && n < 16; line = strtok(NULL, "\n"), n++) {
        snprintf(stamps[n].path, sizeof stamps[n].path, "%s", line);
        stat(line, &stamps[n].st);
    }
    CU_ASSERT_EQUAL(n, before);
    snprintf(args, sizeof args, "sweep %s -o %s --jobs 2", path, dir);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    snprintf(args, sizeof args, "%d run, %d already done, 0 failed", 16 - before, before);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, args));
    CU_ASSERT_EQUAL(test_sweep_count_docs(dir, &parse), 16);
    CU_ASSERT_TRUE(parse);
    for (int i = 0; i < n; i++) {
        struct stat st;
        CU_ASSERT_EQUAL_FATAL(stat(stamps[i].path, &st), 0);
        CU_ASSERT_EQUAL(st.st_ino, stamps[i].st.st_ino);
        CU_ASSERT_EQUAL(st.st_mtim.tv_sec, stamps[i].st.st_mtim.tv_sec);
        CU_ASSERT_EQUAL(st.st_mtim.tv_nsec, stamps[i].st.st_mtim.tv_nsec);
    }
}

static void test_sweep_failure_isolated(void)
{
    char path[512], dir[256], out[TEST_SWEEP_OUT], args[1024], blocker[1024];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("small.cfg", test_sweep_small_body, path, sizeof path), &sw,
                      &g);
    CU_ASSERT_EQUAL_FATAL(g.n_jobs, 8);
    /* a directory where point 5's document goes: its worker fails to write, at run time */
    snprintf(dir, sizeof dir, "%s/fail", test_sweep_root);
    snprintf(blocker, sizeof blocker, "%s/%s", dir, g.jobs[5].file);
    CU_ASSERT_EQUAL_FATAL(sweep_doc_mkdirs(blocker), 0);
    snprintf(args, sizeof args, "sweep %s -o %s --jobs 2", path, dir);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 1);
    snprintf(args, sizeof args, "point 5 (%s) failed: cannot write", g.jobs[5].file);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, args));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "8 run, 0 already done, 1 failed"));
    for (int j = 0; j < g.n_jobs; j++)
        CU_ASSERT_EQUAL(sweep_run_done(&sw, &g, j, dir), j != 5);
    cJSON *doc = test_sweep_load_json(dir, "sweep.json");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "points")), 7);
    cJSON_Delete(doc);
    /* the obstacle gone, a rerun completes the sweep with just that point */
    rmdir(blocker);
    snprintf(args, sizeof args, "sweep %s -o %s --jobs 2", path, dir);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 run, 7 already done, 0 failed"));
    sweep_grid_free(&g);
    sweep_free(&sw);
}

/* Runs ./dfsim sweep SWEEP -o DIR --jobs 2 and checks exit 0 and the output's fragments. */
static void test_sweep_run_expect(const char *sweep, const char *dir, const char *a, const char *b)
{
    char out[TEST_SWEEP_OUT], args[1024];
    snprintf(args, sizeof args, "sweep %s -o %s --jobs 2", sweep, dir);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    bool found = strstr(out, a) && (!b || strstr(out, b));
    if (!found)
        fprintf(stderr, "\n  wanted '%s' and '%s' in:\n%s\n", a, b ? b : "", out);
    CU_ASSERT_TRUE(found);
}

/* Editing the sweep file reruns only the points whose config changed, and the documents kept
 * get their new index; undoing the edit sets the new points aside in DIR/.stale/, redoing it
 * brings them back. */
static void test_sweep_edit_and_undo(void)
{
    char path[512], edited[512], dir[256], body[2048], file[300];
    test_sweep_file("small.cfg", test_sweep_small_body, path, sizeof path);
    snprintf(body, sizeof body, "%s", test_sweep_small_body);
    char *at = strstr(body, "[0.2, 0.5]");
    memmove(at + 6, at + 1, strlen(at + 1) + 1);
    memcpy(at + 1, "0.1, ", 5); /* loads [0.1, 0.2, 0.5]: 12 points, the old ones shifted */
    test_sweep_file("edited.cfg", body, edited, sizeof edited);
    snprintf(dir, sizeof dir, "%s/edit", test_sweep_root);
    snprintf(file, sizeof file, "%s/sweep.json", dir);
    test_sweep_run_expect(path, dir, "8 run, 0 already done, 0 failed", NULL);
    char *first = sweep_doc_read_text(file);
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    test_sweep_run_expect(edited, dir, "4 run, 8 already done, 0 failed", NULL);
    cJSON *doc = test_sweep_load_json(dir, "sweep.json");
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(doc, "points");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(points), 12);
    for (int i = 0; i < cJSON_GetArraySize(points); i++)
        CU_ASSERT_EQUAL(test_sweep_get(cJSON_GetArrayItem(points, i), "index", NULL), i);
    cJSON_Delete(doc);
    test_sweep_run_expect(path, dir, "0 run, 8 already done, 0 failed",
                          "4 documents of points no longer in the sweep moved");
    char *again = sweep_doc_read_text(file);
    CU_ASSERT_TRUE(again && strcmp(first, again) == 0);
    free(first);
    free(again);
    test_sweep_run_expect(edited, dir, "0 run, 12 already done, 0 failed",
                          "4 documents brought back");
}

/* Point documents of two runs are equal once "timing" is removed; sweep.json byte for byte. */
static void test_sweep_same_results(const char *a, const char *b, const struct sweep_grid *g)
{
    for (int j = 0; j < g->n_jobs; j++) {
        cJSON *da = test_sweep_load_json(a, g->jobs[j].file);
        cJSON *db = test_sweep_load_json(b, g->jobs[j].file);
        CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(da, "timing"));
        cJSON_DeleteItemFromObjectCaseSensitive(da, "timing");
        cJSON_DeleteItemFromObjectCaseSensitive(db, "timing");
        CU_ASSERT_TRUE(cJSON_Compare(da, db, true));
        cJSON_Delete(da);
        cJSON_Delete(db);
    }
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/sweep.json", a);
    snprintf(pb, sizeof pb, "%s/sweep.json", b);
    char *ta = sweep_doc_read_text(pa), *tb = sweep_doc_read_text(pb);
    CU_ASSERT_TRUE(ta && tb && strcmp(ta, tb) == 0);
    free(ta);
    free(tb);
}

static void test_sweep_jobs_determinism(void)
{
    char path[512], d1[256], d2[256], out[TEST_SWEEP_OUT], args[1024];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("small.cfg", test_sweep_small_body, path, sizeof path), &sw,
                      &g);
    snprintf(d1, sizeof d1, "%s/jobs1", test_sweep_root);
    snprintf(d2, sizeof d2, "%s/jobs2", test_sweep_root);
    snprintf(args, sizeof args, "sweep %s -o %s --jobs 1 --quiet", path, d1);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    snprintf(args, sizeof args, "sweep %s -o %s --jobs 2 --quiet", path, d2);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    test_sweep_same_results(d1, d2, &g);
    /* merge rebuilds the same sweep.json from the documents alone */
    snprintf(args, sizeof args, "%s/sweep.json", d2);
    unlink(args);
    snprintf(args, sizeof args, "merge %s", d2);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    test_sweep_same_results(d1, d2, &g);
    /* --list shows every point done */
    snprintf(args, sizeof args, "sweep %s -o %s --list", path, d1);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "# 8 done, 0 missing"));
    sweep_grid_free(&g);
    sweep_free(&sw);
}

/* ---- documents of an earlier dfsim ---- */

/* Every point document under dir (relative names), at most TEST_SWEEP_MAX_DOCS. */
#define TEST_SWEEP_MAX_DOCS 64
struct test_sweep_docs {
    char *file[TEST_SWEEP_MAX_DOCS], *text[TEST_SWEEP_MAX_DOCS];
    const char *dir;
    int n;
};

static int test_sweep_collect(void *ctx, const char *file)
{
    struct test_sweep_docs *d = ctx;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", d->dir, file);
    if (d->n == TEST_SWEEP_MAX_DOCS)
        return 1;
    d->file[d->n] = strdup(file);
    d->text[d->n++] = sweep_doc_read_text(path);
    return 0;
}

static void test_sweep_docs_free(struct test_sweep_docs *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->file[i]);
        free(d->text[i]);
    }
    d->n = 0;
}

/* Rewrites the document DIR/FILE in place as a dfsim of model version 1 wrote it: sweep.hash
 * another (the hash covers the model version), and sweep.model_version 1, or none at all as the
 * dfsim before model versions wrote it; the rest byte for byte. */
static void test_sweep_make_older(const char *dir, const char *file, bool with_version)
{
    char err[1024];
    cJSON *doc = test_sweep_load_json(dir, file);
    cJSON *meta = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(doc, "sweep"), true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cJSON_GetObjectItemCaseSensitive(meta, "model_version"));
    if (with_version)
        cJSON_ReplaceItemInObjectCaseSensitive(meta, "model_version", cJSON_CreateNumber(1));
    else
        cJSON_DeleteItemFromObjectCaseSensitive(meta, "model_version");
    cJSON_ReplaceItemInObjectCaseSensitive(meta, "hash", cJSON_CreateString("0123456789abcdef"));
    CU_ASSERT_EQUAL(sweep_doc_rewrite(dir, file, dir, file, meta, err, sizeof err), 0);
    cJSON_Delete(meta);
    cJSON_Delete(doc);
}

static const char test_sweep_older_body[] =
    "name = \"older\";\n" TEST_SWEEP_FAST
    "axes = { traffic = { load = [0.2, 0.5]; }; sim = { seed = [1, 2]; }; };\n"
    "variants = ( { name = \"MIN\"; routing = { mechanism = \"min\"; }; },\n"
    "             { name = \"S\"; saturation = true; resolution = 0.25; } );\n";

/* Documents of an earlier model (DFSIM_MODEL_VERSION 1, or none: the dfsim before model
 * versions) are not trusted once the model changed: a resumed sweep reruns every point, and
 * the rerun writes what a fresh sweep writes (all but its wall time). */
static void test_sweep_older_model_reruns(void)
{
    CU_ASSERT_FATAL(DFSIM_MODEL_VERSION > 1);
    char path[512], dir[256], out[TEST_SWEEP_OUT], args[1024];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("older.cfg", test_sweep_older_body, path, sizeof path), &sw,
                      &g);
    CU_ASSERT_EQUAL_FATAL(g.n_jobs, 6); /* 4 points of MIN, 2 searches */
    snprintf(dir, sizeof dir, "%s/older", test_sweep_root);
    test_sweep_run_expect(path, dir, "6 run, 0 already done, 0 failed", NULL);
    struct test_sweep_docs now = {.dir = dir};
    CU_ASSERT_EQUAL_FATAL(sweep_doc_scan(dir, test_sweep_collect, &now), 0);
    CU_ASSERT_FATAL(now.n >= 6);
    for (int i = 0; i < now.n; i++)
        test_sweep_make_older(dir, now.file[i], i % 2 == 0);
    for (int j = 0; j < g.n_jobs; j++)
        CU_ASSERT_FALSE(sweep_run_done(&sw, &g, j, dir));
    snprintf(args, sizeof args, "sweep %s -o %s --list", path, dir);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "# 0 done, 6 missing"));
    snprintf(args, sizeof args, "sweep %s -o %s --jobs 2", path, dir);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "6 run, 0 already done, 0 failed"));
    for (int i = 0; i < now.n; i++) { /* the same results; only the wall time differs */
        cJSON *fresh = cJSON_Parse(now.text[i]), *rerun = test_sweep_load_json(dir, now.file[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(fresh);
        cJSON_DeleteItemFromObjectCaseSensitive(fresh, "timing");
        cJSON_DeleteItemFromObjectCaseSensitive(rerun, "timing");
        CU_ASSERT_TRUE(cJSON_Compare(fresh, rerun, true));
        cJSON_Delete(fresh);
        cJSON_Delete(rerun);
    }
    test_sweep_docs_free(&now);
    sweep_grid_free(&g);
    sweep_free(&sw);
}

/* slurm-points.txt written by an earlier model names its points by hashes that no longer
 * match: each task refuses its point, naming the line, rather than run another point. */
static void test_sweep_slurm_older_points(void)
{
    char path[512], dir[256], out[TEST_SWEEP_OUT], args[1024], err[1024];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("small.cfg", test_sweep_small_body, path, sizeof path), &sw,
                      &g);
    snprintf(dir, sizeof dir, "%s/slurm-older", test_sweep_root);
    CU_ASSERT_EQUAL_FATAL(sweep_doc_write(dir, "slurm-points.txt",
                                          "3 0123456789abcdef\n6 fedcba9876543210\n", err,
                                          sizeof err),
                          0);
    for (int task = 0; task < 2; task++) {
        char line[64];
        snprintf(args, sizeof args, "sweep %s -o %s --task-index %d --points-per-task 1", path,
                 dir, task);
        CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 1);
        snprintf(line, sizeof line, "slurm-points.txt:%d: point no longer matches", task + 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
    }
    for (int j = 0; j < g.n_jobs; j++)
        CU_ASSERT_FALSE(sweep_run_done(&sw, &g, j, dir));
    sweep_grid_free(&g);
    sweep_free(&sw);
}

static void test_sweep_slurm_task_mapping(void)
{
    char path[512], dir[256], out[TEST_SWEEP_OUT], args[1024], file[600];
    struct sweep sw;
    struct sweep_grid g;
    test_sweep_expand(test_sweep_file("small.cfg", test_sweep_small_body, path, sizeof path), &sw,
                      &g);
    snprintf(dir, sizeof dir, "%s/slurm", test_sweep_root);
    snprintf(args, sizeof args, "sweep %s -o %s --slurm --dry-run --points-per-task 3", path, dir);
    CU_ASSERT_EQUAL_FATAL(test_sweep_dfsim(args, out), 0);
    snprintf(file, sizeof file, "%s/slurm.sbatch", dir);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, file));
    char *script = sweep_doc_read_text(file);
    CU_ASSERT_PTR_NOT_NULL_FATAL(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "#SBATCH --array=0-2\n")); /* 8 points, 3 a task */
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "--task-index \"$SLURM_ARRAY_TASK_ID\" "
                                          "--points-per-task 3 --quiet"));
    free(script);
    /* task 1 runs lines 4..6 of slurm-points.txt: points 3, 4, 5 */
    snprintf(args, sizeof args, "sweep %s -o %s --task-index 1 --points-per-task 3", path, dir);
    CU_ASSERT_EQUAL(test_sweep_dfsim(args, out), 0);
    for (int j = 0; j < g.n_jobs; j++)
        CU_ASSERT_EQUAL(sweep_run_done(&sw, &g, j, dir), j >= 3 && j <= 5);
    sweep_grid_free(&g);
    sweep_free(&sw);
}

int test_sweep_register(void)
{
    CU_pSuite s = CU_add_suite("sweep", test_sweep_init, test_sweep_cleanup);
    if (!s)
        return -1;
    static const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"grid expansion: axes x variants, counts, order, names", test_sweep_expansion_order},
        {"a sweep without variants", test_sweep_without_variants},
        {"hash = FNV-1a of the resolved config", test_sweep_hash_is_resolved_config},
        {"editing the sweep file rehashes only changed points", test_sweep_hash_stability},
        {"hash: non-default settings only; a default changes nothing", test_sweep_hash_non_default},
        {"hash: independent of the order of the settings", test_sweep_hash_order},
        {"hash: the model version is part of it", test_sweep_hash_model_version},
        {"legacy hash: the values the previous release wrote", test_sweep_hash_legacy},
        {"sweep file errors: FILE:LINE: KEY: problem", test_sweep_file_errors},
        {"missing base, bad command lines: exit 2", test_sweep_missing_base},
        {"merge: mean and 95% CI over seeds", test_sweep_merge_arithmetic},
        {"Student t table", test_sweep_t_table},
        {"saturation bisection", test_sweep_bisection},
        {"dfsim saturation end to end", test_sweep_saturation_command},
        {"kill -9 mid-sweep, then resume", test_sweep_kill_and_resume},
        {"a failing point is isolated", test_sweep_failure_isolated},
        {"edit the sweep file, then undo the edit", test_sweep_edit_and_undo},
        {"same documents with --jobs 1 and 2; merge", test_sweep_jobs_determinism},
        {"Slurm script and task mapping (no Slurm needed)", test_sweep_slurm_task_mapping},
        {"documents of an earlier model: rerun, as a fresh sweep writes them",
         test_sweep_older_model_reruns},
        {"Slurm points listed under an earlier model", test_sweep_slurm_older_points},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (!CU_add_test(s, tests[i].name, tests[i].fn))
            return -1;
    return 0;
}
