/* The result document (src/METRICS.md): every key in order with its value, the config
 * object built from the schema, starvation as null, the atomic, failure-safe write, and the
 * table the document is rendered from (result_schema.c). */
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "result_json.h"
#include "result_schema.h"
#include "schema_cli.h"
#include "stats.h"
#include "test_util.h"
#include "version.h"

#define EPS 1e-12

/* A hand-filled result of a network with 3 routers of which `a` = 2 form group 0. */
struct sample {
    struct sim_config cfg;
    struct result res;
    uint64_t per_router[3];
    double group0[2];
};

static void sample_init(struct sample *s)
{
    memset(s, 0, sizeof *s);
    config_set_defaults(&s->cfg);
    snprintf(s->cfg.name, sizeof s->cfg.name, "unit");
    struct result *r = &s->res;
    *r = (struct result){.groups = 73, .routers = 3, .nodes = 5256, .radix = 23, .p = 6, .a = 2};
    r->offered = 0.4;
    r->injected = 0.39;
    r->accepted = 0.375;
    r->generated = 1001;
    r->refused = 7;
    r->injected_packets = 990;
    r->delivered = 980;
    r->in_flight_at_end = 21;
    r->latency_mean = 250.5;
    r->latency_p50 = 240;
    r->latency_p95 = 400;
    r->latency_p99 = 520;
    r->latency_max = 777;
    const double breakdown[WAIT_KINDS] = {10.5, 60, 30, 130, 20};
    memcpy(r->breakdown, breakdown, sizeof breakdown);
    r->hops_local = 1.75;
    r->hops_global = 0.96;
    r->misrouted_global = 0.125;
    r->misrouted_local = 0.0625;
    r->fairness = (struct fairness){.min_injected_load = 0.3,
                                    .min_injected_pct_of_offered = 75,
                                    .max_min = 1.5,
                                    .starved_routers = 0,
                                    .cov = 0.2};
    s->per_router[0] = 300;
    s->per_router[1] = 450;
    s->per_router[2] = 9007199254740993ULL; /* 2^53 + 1: not representable as a double */
    s->group0[0] = 0.3;
    s->group0[1] = 0.45;
    r->per_router_injected = s->per_router;
    r->group0_injected_load = s->group0;
    r->wall_seconds = 1.25;
    r->cycles_per_second = 20000;
    r->router_cycles_per_second = 17520000;
}

static cJSON *sample_parse(const struct sample *s, bool include_timing)
{
    char *text = result_json_render(&s->cfg, &s->res, include_timing);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    return doc;
}

/* The item at a dotted path ("latency.breakdown.minimal_links"), or NULL. */
static const cJSON *json_at(const cJSON *doc, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *item = doc;
    for (char *save = NULL, *key = strtok_r(buf, ".", &save); key && item;
         key = strtok_r(NULL, ".", &save))
        item = cJSON_GetObjectItemCaseSensitive(item, key);
    return item;
}

static void check_number(const cJSON *doc, const char *path, double expected)
{
    const cJSON *item = json_at(doc, path);
    CU_ASSERT_PTR_NOT_NULL(item);
    if (!item || !cJSON_IsNumber(item) || fabs(item->valuedouble - expected) > EPS) {
        fprintf(stderr, "\n%s: expected %.17g\n", path, expected);
        CU_FAIL("wrong number");
    }
}

/* The children of an object have exactly these keys, in this order. */
static void check_keys(const cJSON *doc, const char *path, const char *const *keys, int n)
{
    const cJSON *obj = path ? json_at(doc, path) : doc;
    CU_ASSERT_FATAL(obj != NULL && cJSON_IsObject(obj));
    int i = 0;
    for (const cJSON *child = obj->child; child; child = child->next, i++) {
        if (i >= n || strcmp(child->string, keys[i]) != 0) {
            fprintf(stderr, "\n%s: key %d is '%s', expected '%s'\n", path ? path : "(top)", i,
                    child->string, i < n ? keys[i] : "(none)");
            CU_FAIL("wrong key");
            return;
        }
    }
    CU_ASSERT_EQUAL(i, n);
}

static void test_json_layout(void)
{
    struct sample s;
    sample_init(&s);
    cJSON *doc = sample_parse(&s, true);
    const char *top[] = {"dfsim",   "config", "network",   "load",     "packets",
                         "latency", "hops",   "misrouted", "fairness", "timing"};
    check_keys(doc, NULL, top, 10);
    const char *dfsim[] = {"version", "schema"};
    check_keys(doc, "dfsim", dfsim, 2);
    const char *network[] = {"groups", "routers", "nodes", "radix"};
    check_keys(doc, "network", network, 4);
    const char *load[] = {"offered", "injected", "accepted"};
    check_keys(doc, "load", load, 3);
    const char *packets[] = {"generated", "refused", "injected", "delivered", "in_flight_at_end"};
    check_keys(doc, "packets", packets, 5);
    const char *latency[] = {"mean", "p50", "p95", "p99", "max", "breakdown"};
    check_keys(doc, "latency", latency, 6);
    const char *breakdown[] = {"injection_queue", "local_queues", "global_queues", "minimal_links",
                               "nonminimal_links"};
    check_keys(doc, "latency.breakdown", breakdown, 5);
    const char *hops[] = {"local", "global"};
    check_keys(doc, "hops", hops, 2);
    const char *misrouted[] = {"global", "local"};
    check_keys(doc, "misrouted", misrouted, 2);
    const char *fairness[] = {
        "min_injected_load",   "min_injected_pct_of_offered", "max_min", "starved_routers", "cov",
        "per_router_injected", "group0_injected_load"};
    check_keys(doc, "fairness", fairness, 7);
    const char *timing[] = {"wall_seconds", "cycles_per_second", "router_cycles_per_second"};
    check_keys(doc, "timing", timing, 3);
    cJSON_Delete(doc);
}

static void test_json_values(void)
{
    struct sample s;
    sample_init(&s);
    cJSON *doc = sample_parse(&s, true);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(json_at(doc, "dfsim.version")), dfsim_version);
    check_number(doc, "dfsim.schema", DFSIM_SCHEMA);
    const struct {
        const char *path;
        double value;
    } expected[] = {
        {"network.groups", 73},
        {"network.routers", 3},
        {"network.nodes", 5256},
        {"network.radix", 23},
        {"load.offered", 0.4},
        {"load.injected", 0.39},
        {"load.accepted", 0.375},
        {"packets.generated", 1001},
        {"packets.refused", 7},
        {"packets.injected", 990},
        {"packets.delivered", 980},
        {"packets.in_flight_at_end", 21},
        {"latency.mean", 250.5},
        {"latency.p50", 240},
        {"latency.p95", 400},
        {"latency.p99", 520},
        {"latency.max", 777},
        {"latency.breakdown.injection_queue", 10.5},
        {"latency.breakdown.local_queues", 60},
        {"latency.breakdown.global_queues", 30},
        {"latency.breakdown.minimal_links", 130},
        {"latency.breakdown.nonminimal_links", 20},
        {"hops.local", 1.75},
        {"hops.global", 0.96},
        {"misrouted.global", 0.125},
        {"misrouted.local", 0.0625},
        {"fairness.min_injected_load", 0.3},
        {"fairness.min_injected_pct_of_offered", 75},
        {"fairness.max_min", 1.5},
        {"fairness.starved_routers", 0},
        {"fairness.cov", 0.2},
        {"timing.wall_seconds", 1.25},
        {"timing.cycles_per_second", 20000},
        {"timing.router_cycles_per_second", 17520000},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        check_number(doc, expected[i].path, expected[i].value);
    const cJSON *per_router = json_at(doc, "fairness.per_router_injected");
    CU_ASSERT_FATAL(cJSON_IsArray(per_router) && cJSON_GetArraySize(per_router) == 3);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(per_router, 0)->valuedouble, 300, EPS);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(per_router, 1)->valuedouble, 450, EPS);
    const cJSON *group0 = json_at(doc, "fairness.group0_injected_load");
    CU_ASSERT_FATAL(cJSON_IsArray(group0) && cJSON_GetArraySize(group0) == 2);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(group0, 0)->valuedouble, 0.3, EPS);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(group0, 1)->valuedouble, 0.45, EPS);
    cJSON_Delete(doc);
}

/* Counts and integer settings are written exactly, even beyond 2^53, and as integers. */
static void test_json_exact_integers(void)
{
    struct sample s;
    sample_init(&s);
    s.cfg.sim.seed = INT64_C(9007199254740995);
    char *text = result_json_render(&s.cfg, &s.res, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "9007199254740993"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"seed\":\t9007199254740995"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"generated\":\t1001,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"schema\":\t1\n"));
    free(text);
}

struct config_check {
    const cJSON *config;
    const struct sim_config *cfg;
    size_t settings;
};

/* Every setting in force is in its group's object, with the value of the config; a quiet one
 * at its default (a setting added later, settings.h) and those of the plug-ins not chosen are
 * left out. */
static int check_setting(void *ctx, const struct setting_ref *r)
{
    struct config_check *c = ctx;
    if (settings_quiet(c->cfg, r)) {
        const cJSON *group = cJSON_GetObjectItemCaseSensitive(c->config, r->group->name);
        if (cJSON_GetObjectItemCaseSensitive(group, r->row->name)) {
            fprintf(stderr, "\nconfig.%s.%s written at its default\n", r->group->name,
                    r->row->name);
            CU_FAIL("quiet setting written");
        }
        return 0;
    }
    const cJSON *group = cJSON_GetObjectItemCaseSensitive(c->config, r->group->name);
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(group, r->row->name);
    if (!settings_in_force(c->cfg, r)) { /* a plug-in not chosen: its settings are left out */
        if (item) {
            fprintf(stderr, "\nconfig.%s.%s written, not in force\n", r->group->name, r->row->name);
            CU_FAIL("setting not in force written");
        }
        return 0;
    }
    const char *field = settings_value(c->cfg, r);
    bool ok = item != NULL;
    c->settings++;
    switch (r->row->type) {
    case SETTING_INT:
        ok = ok && cJSON_IsNumber(item) && item->valuedouble == *(const int *)field;
        break;
    case SETTING_INT64:
        ok = ok && cJSON_IsNumber(item) && item->valuedouble == (double)*(const int64_t *)field;
        break;
    case SETTING_DOUBLE:
        ok = ok && cJSON_IsNumber(item) && item->valuedouble == *(const double *)field;
        break;
    case SETTING_BOOL:
        ok = ok && cJSON_IsBool(item) && cJSON_IsTrue(item) == *(const bool *)field;
        break;
    case SETTING_CHOICE:
        ok = ok && cJSON_IsString(item) &&
             strcmp(item->valuestring, settings_choices(r->row)[*(const int *)field]) == 0;
        break;
    case SETTING_STRING:
        ok = ok && cJSON_IsString(item) && strcmp(item->valuestring, field) == 0;
        break;
    case SETTING_INT_LIST:
        ok = ok && cJSON_IsArray(item) &&
             cJSON_GetArraySize(item) == ((const struct setting_int_list *)field)->count;
        break;
    }
    if (!ok) {
        fprintf(stderr, "\nconfig.%s.%s missing or wrong\n", r->group->name, r->row->name);
        CU_FAIL("wrong config setting");
    }
    return 0;
}

/* "config": the name first, then one object per schema group holding exactly the schema's
 * settings of that group, with the resolved values. */
static void test_json_config(void)
{
    struct sample s;
    sample_init(&s);
    s.cfg.traffic.load = 0.35;
    s.cfg.router.transit_priority = true;
    cJSON *doc = sample_parse(&s, true);
    const cJSON *config = json_at(doc, "config");
    CU_ASSERT_FATAL(cJSON_IsObject(config));
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(config->child), "unit");
    CU_ASSERT_STRING_EQUAL(config->child->string, "name");
    struct config_check check = {config, &s.cfg, 0};
    settings_each_in(&s.cfg, check_setting, &check);
    CU_ASSERT(check.settings > 20);
    CU_ASSERT_PTR_NULL(json_at(doc, "config.routing.global_policy")); /* min: no policy */
    size_t settings = 0;
    for (const cJSON *group = config->child->next; group; group = group->next) {
        CU_ASSERT(cJSON_IsObject(group));
        settings += (size_t)cJSON_GetArraySize(group);
    }
    CU_ASSERT_EQUAL(settings, check.settings);
    check_number(doc, "config.traffic.load", 0.35);
    CU_ASSERT(cJSON_IsTrue(json_at(doc, "config.router.transit_priority")));
    cJSON_Delete(doc);
}

/* A router that injected nothing: max_min is null and starved_routers counts them. */
static void test_json_starved(void)
{
    struct sample s;
    sample_init(&s);
    s.per_router[1] = 0;
    s.res.fairness.starved_routers = 1;
    s.res.fairness.max_min = 0;
    cJSON *doc = sample_parse(&s, true);
    CU_ASSERT(cJSON_IsNull(json_at(doc, "fairness.max_min")));
    check_number(doc, "fairness.starved_routers", 1);
    const cJSON *per_router = json_at(doc, "fairness.per_router_injected");
    CU_ASSERT_FATAL(cJSON_IsArray(per_router) && cJSON_GetArraySize(per_router) == 3);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(per_router, 1)->valuedouble, 0, EPS);
    cJSON_Delete(doc);
}

/* Without timing the document is the same minus "timing"; rendering is deterministic. */
static void test_json_without_timing(void)
{
    struct sample s;
    sample_init(&s);
    cJSON *with = sample_parse(&s, true);
    cJSON *without = sample_parse(&s, false);
    CU_ASSERT_PTR_NULL(json_at(without, "timing"));
    CU_ASSERT_PTR_NOT_NULL(json_at(without, "fairness"));
    cJSON_DeleteItemFromObjectCaseSensitive(with, "timing");
    CU_ASSERT(cJSON_Compare(with, without, true));
    cJSON_Delete(with);
    cJSON_Delete(without);
    char *a = result_json_render(&s.cfg, &s.res, false);
    char *b = result_json_render(&s.cfg, &s.res, false);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_PTR_NULL(strstr(a, "timing"));
    free(a);
    free(b);
}

/* A scratch directory under /tmp, removed with its contents by scratch_free. */
struct scratch {
    char dir[64];
    char path[128]; /* dir/out.json */
};

static void scratch_init(struct scratch *sc)
{
    snprintf(sc->dir, sizeof sc->dir, "/tmp/dfsim-json-XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(sc->dir));
    snprintf(sc->path, sizeof sc->path, "%s/out.json", sc->dir);
}

/* Number of entries of the scratch directory whose name contains `part`. */
static int scratch_count(const struct scratch *sc, const char *part)
{
    DIR *d = opendir(sc->dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, part);
    closedir(d);
    return n;
}

static void scratch_free(struct scratch *sc)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", sc->dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Whole file as a string (caller frees), or NULL. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (int c = fgetc(f); c != EOF; c = fgetc(f)) {
        if (len + 2 > cap) {
            cap = cap ? 2 * cap : 4096;
            char *grown = realloc(buf, cap);
            CU_ASSERT_PTR_NOT_NULL_FATAL(grown);
            buf = grown;
        }
        buf[len++] = (char)c;
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf ? buf : calloc(1, 1);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    CU_ASSERT_EQUAL(fclose(f), 0);
}

/* A successful write produces the rendered document plus a newline, readable by everyone,
 * replacing an existing file, and leaves no temporary file. */
static void test_json_write(void)
{
    struct sample s;
    struct scratch sc;
    char err[512] = "";
    sample_init(&s);
    scratch_init(&sc);
    write_file(sc.path, "old\n");
    CU_ASSERT_EQUAL(result_json_write(sc.path, &s.cfg, &s.res, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    char *expected = result_json_render(&s.cfg, &s.res, true);
    char *written = read_file(sc.path);
    CU_ASSERT_FATAL(expected && written);
    CU_ASSERT_EQUAL(strlen(written), strlen(expected) + 1);
    CU_ASSERT_EQUAL(strncmp(written, expected, strlen(expected)), 0);
    CU_ASSERT_EQUAL(written[strlen(written) - 1], '\n');
    struct stat st;
    CU_ASSERT_EQUAL(stat(sc.path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0644);
    CU_ASSERT_EQUAL(scratch_count(&sc, ".tmp"), 0);
    CU_ASSERT_EQUAL(scratch_count(&sc, ""), 1);
    free(expected);
    free(written);
    scratch_free(&sc);
}

/* Checks a failed write: -1, "cannot write PATH: <reason>", nothing left behind. */
static void check_write_fails(const struct scratch *sc, const char *path, const char *reason)
{
    struct sample s;
    char err[512] = "";
    sample_init(&s);
    CU_ASSERT_EQUAL(result_json_write(path, &s.cfg, &s.res, err, sizeof err), -1);
    char expected[512];
    snprintf(expected, sizeof expected, "cannot write %s: %s", path, reason);
    if (strcmp(err, expected) != 0) {
        fprintf(stderr, "\ngot '%s'\nexpected '%s'\n", err, expected);
        CU_FAIL("wrong message");
    }
    CU_ASSERT_EQUAL(scratch_count(sc, ".tmp"), 0);
}

/* Root ignores permissions, so the failures use what stops root too: a parent that is a
 * regular file, a missing directory, a destination that is a directory. */
static void test_json_write_bad_paths(void)
{
    struct scratch sc;
    char path[256];
    scratch_init(&sc);
    char file[160];
    snprintf(file, sizeof file, "%s/plain", sc.dir);
    write_file(file, "x");
    snprintf(path, sizeof path, "%s/out.json", file);
    check_write_fails(&sc, path, strerror(ENOTDIR));
    snprintf(path, sizeof path, "%s/missing/out.json", sc.dir);
    check_write_fails(&sc, path, strerror(ENOENT));
    /* rename() onto a directory fails after the temporary file was written. */
    snprintf(path, sizeof path, "%s/dir.json", sc.dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
    check_write_fails(&sc, path, strerror(EISDIR));
    struct stat st;
    CU_ASSERT(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    CU_ASSERT_EQUAL(scratch_count(&sc, ""), 2); /* plain, dir.json */
    scratch_free(&sc);
}

/* A full disk, simulated with a file size limit (which binds root too): the write fails with
 * the reason, the existing file keeps its old content and the temporary file is removed. */
static void test_json_write_disk_full(void)
{
    struct scratch sc;
    scratch_init(&sc);
    write_file(sc.path, "old\n");
    struct rlimit saved_limit, limit;
    CU_ASSERT_EQUAL_FATAL(getrlimit(RLIMIT_FSIZE, &saved_limit), 0);
    struct sigaction ignore = {.sa_handler = SIG_IGN}, saved_action;
    sigemptyset(&ignore.sa_mask);
    CU_ASSERT_EQUAL_FATAL(sigaction(SIGXFSZ, &ignore, &saved_action), 0);
    fflush(NULL); /* nothing of ours may need the disk while the limit holds */
    limit = saved_limit;
    limit.rlim_cur = 100;
    CU_ASSERT_EQUAL_FATAL(setrlimit(RLIMIT_FSIZE, &limit), 0);
    check_write_fails(&sc, sc.path, strerror(EFBIG));
    setrlimit(RLIMIT_FSIZE, &saved_limit);
    sigaction(SIGXFSZ, &saved_action, NULL);
    char *content = read_file(sc.path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(content);
    CU_ASSERT_STRING_EQUAL(content, "old\n");
    free(content);
    scratch_free(&sc);
}

/* ---- the table of the document (result_schema.c) ---- */

#define TABLE_MAX_PATHS 256

/* Dotted paths, in the order found. */
struct path_list {
    char paths[TABLE_MAX_PATHS][RESULT_PATH_LEN];
    const struct result_field *fields[TABLE_MAX_PATHS];
    int n;
};

static void path_list_add(struct path_list *list, const char *path, const struct result_field *f)
{
    CU_ASSERT_FATAL(list->n < TABLE_MAX_PATHS);
    snprintf(list->paths[list->n], RESULT_PATH_LEN, "%s", path);
    list->fields[list->n++] = f;
}

static int table_collect(void *ctx, const char *path, const struct result_field *f)
{
    path_list_add(ctx, path, f);
    return 0;
}

static void table_paths(struct path_list *list)
{
    list->n = 0;
    CU_ASSERT_EQUAL(result_schema_walk(&result_schema_document, table_collect, list), 0);
}

/* The paths a document without jobs has: those of fields that may be absent ("run", "jobs")
 * and everything under them left out. */
static void table_paths_without_jobs(struct path_list *list)
{
    static struct path_list all;
    table_paths(&all);
    list->n = 0;
    const char *absent = NULL;
    for (int i = 0; i < all.n; i++) {
        size_t n = absent ? strlen(absent) : 0;
        if (absent && strncmp(all.paths[i], absent, n) == 0 &&
            (all.paths[i][n] == '.' || all.paths[i][n] == '['))
            continue;
        absent = all.fields[i]->absent_when ? all.paths[i] : NULL;
        if (!absent)
            path_list_add(list, all.paths[i], all.fields[i]);
    }
}

/* Every member of a rendered object, depth first; "config" (driven by the settings schema) is
 * not entered. */
static void document_paths(const cJSON *obj, const char *prefix, struct path_list *list)
{
    for (const cJSON *child = obj->child; child; child = child->next) {
        char path[RESULT_PATH_LEN];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", child->string);
        path_list_add(list, path, NULL);
        if (cJSON_IsObject(child) && strcmp(path, "config") != 0)
            document_paths(child, path, list);
    }
}

/* The JSON value matches the type the table gives its field. */
static bool json_has_type(const cJSON *item, enum result_type type)
{
    switch (type) {
    case RESULT_COUNT:
        return cJSON_IsNumber(item) && item->valuedouble >= 0 &&
               item->valuedouble == floor(item->valuedouble);
    case RESULT_NUMBER:
        return cJSON_IsNumber(item);
    case RESULT_NUMBER_OR_NULL:
        return cJSON_IsNumber(item) || cJSON_IsNull(item);
    case RESULT_STRING:
        return cJSON_IsString(item);
    case RESULT_BOOL:
        return cJSON_IsBool(item);
    case RESULT_COUNT_ARRAY:
    case RESULT_NUMBER_ARRAY:
    case RESULT_OBJECT_ARRAY:
        return cJSON_IsArray(item);
    case RESULT_OBJECT:
    case RESULT_SETTINGS:
        return cJSON_IsObject(item);
    }
    return false;
}

/* The rendered document holds each field of the table once, at its path, with its type, in
 * the table's order, and nothing else (a run without jobs: the jobs' parts are absent; the
 * documents of runs with jobs are checked in test_workload.c). */
static void test_json_table_rendered_once(void)
{
    struct sample s;
    sample_init(&s);
    cJSON *doc = sample_parse(&s, true);
    static struct path_list table, rendered;
    table_paths_without_jobs(&table);
    rendered.n = 0;
    document_paths(doc, "", &rendered);
    CU_ASSERT(table.n > 40);
    CU_ASSERT_EQUAL(rendered.n, table.n);
    for (int i = 0; i < table.n && i < rendered.n; i++) {
        if (strcmp(table.paths[i], rendered.paths[i]) != 0) {
            fprintf(stderr, "\nfield %d: table %s, document %s\n", i, table.paths[i],
                    rendered.paths[i]);
            CU_FAIL("the document differs from the table");
            break;
        }
        if (!json_has_type(json_at(doc, table.paths[i]), table.fields[i]->type)) {
            fprintf(stderr, "\n%s is not a %s\n", table.paths[i],
                    result_type_name(table.fields[i]->type));
            CU_FAIL("wrong JSON type");
        }
    }
    cJSON_Delete(doc);
}

/* Without timing, exactly the measured fields (and what they hold) are left out. */
static void test_json_table_measured(void)
{
    struct sample s;
    sample_init(&s);
    cJSON *doc = sample_parse(&s, false);
    static struct path_list table;
    table_paths(&table);
    int measured = 0;
    for (int i = 0; i < table.n; i++) {
        bool is_measured = table.fields[i]->measured;
        measured += is_measured;
        if (!is_measured)
            continue;
        CU_ASSERT_PTR_NULL(json_at(doc, table.paths[i]));
    }
    CU_ASSERT_EQUAL(measured, 1); /* "timing" */
    CU_ASSERT(result_schema_find("timing")->measured);
    cJSON_Delete(doc);
}

static bool storage_fits_type(const struct result_field *f)
{
    switch (f->type) {
    case RESULT_COUNT:
        return f->storage == RESULT_STORED_INT || f->storage == RESULT_STORED_U64;
    case RESULT_NUMBER:
        return f->storage == RESULT_STORED_DOUBLE;
    case RESULT_NUMBER_OR_NULL:
        return f->storage == RESULT_STORED_DOUBLE && f->null_when;
    case RESULT_STRING:
        return f->storage == RESULT_STORED_STRING;
    case RESULT_COUNT_ARRAY:
        return f->storage == RESULT_STORED_U64_ARRAY;
    case RESULT_NUMBER_ARRAY:
        return f->storage == RESULT_STORED_DOUBLE_ARRAY;
    case RESULT_BOOL:
        return f->storage == RESULT_STORED_BOOL;
    case RESULT_OBJECT_ARRAY:
        return f->storage == RESULT_STORED_OBJECT_ARRAY && f->element_size > 0 && f->section &&
               f->section->n_fields > 0;
    case RESULT_OBJECT:
        return f->storage == RESULT_STORED_NOWHERE && f->section && f->section->n_fields > 0;
    case RESULT_SETTINGS:
        return f->storage == RESULT_STORED_NOWHERE && !f->section;
    }
    return false;
}

/* Paths are unique, every field is found by its path, reads what its type says, and has a
 * meaning and a unit string. */
static void test_json_table_well_formed(void)
{
    static struct path_list table;
    table_paths(&table);
    for (int i = 0; i < table.n; i++) {
        const struct result_field *f = table.fields[i];
        for (int j = 0; j < i; j++)
            if (strcmp(table.paths[i], table.paths[j]) == 0) {
                fprintf(stderr, "\n%s appears twice\n", table.paths[i]);
                CU_FAIL("duplicate path");
            }
        CU_ASSERT_PTR_EQUAL(result_schema_find(table.paths[i]), f);
        CU_ASSERT(f->meaning && strlen(f->meaning) > 5 && f->unit);
        if (!storage_fits_type(f)) {
            fprintf(stderr, "\n%s: storage %d does not fit a %s\n", table.paths[i], f->storage,
                    result_type_name(f->type));
            CU_FAIL("storage does not fit the type");
        }
    }
    CU_ASSERT_PTR_NULL(result_schema_find("latency.nope"));
    CU_ASSERT_PTR_NULL(result_schema_find("latency.mean.x"));
    /* The breakdown holds one field per kind of wait, in enum wait_kind order. */
    const struct result_field *breakdown = result_schema_find("latency.breakdown");
    CU_ASSERT_FATAL(breakdown && breakdown->type == RESULT_OBJECT);
    CU_ASSERT_EQUAL(breakdown->section->n_fields, WAIT_KINDS);
    CU_ASSERT_STRING_EQUAL(breakdown->section->fields[WAIT_MINIMAL_LINKS].key, "minimal_links");
}

/* Key figures: unique names on scalar numbers, sweep.json's ranks 1..n without gaps, averaged
 * figures among them, and the order sweep.json has always had (its bytes depend on it). */
static void test_json_table_figures(void)
{
    static const char *const points[] = {
        "offered",           "accepted", "injected", "latency_mean",     "latency_p99",
        "min_injected_load", "max_min",  "cov",      "misrouted_global", "misrouted_local"};
    static const char *const groups[] = {"offered",           "accepted", "latency_mean",
                                         "min_injected_load", "max_min",  "cov"};
    struct result_figures figures;
    result_schema_figures(&figures);
    int ranked = 0, averaged = 0;
    for (int i = 0; i < figures.n; i++) {
        const struct result_field *f = figures.items[i].field;
        CU_ASSERT(f->type == RESULT_NUMBER || f->type == RESULT_NUMBER_OR_NULL);
        CU_ASSERT_PTR_EQUAL(result_schema_find(figures.items[i].path), f);
        CU_ASSERT(f->figure.nulls_key == NULL || f->type == RESULT_NUMBER_OR_NULL);
        for (int j = 0; j < i; j++)
            CU_ASSERT(strcmp(f->figure.name, figures.items[j].field->figure.name) != 0);
        if (f->figure.sweep_rank) {
            CU_ASSERT_EQUAL(f->figure.sweep_rank, ranked + 1); /* ranked first, in order */
            CU_ASSERT_FATAL(ranked < 10);
            CU_ASSERT_STRING_EQUAL(f->figure.name, points[ranked]);
            ranked++;
        }
        if (f->figure.averaged) {
            CU_ASSERT(f->figure.sweep_rank > 0);
            CU_ASSERT_FATAL(averaged < 6);
            CU_ASSERT_STRING_EQUAL(f->figure.name, groups[averaged]);
            averaged++;
        }
    }
    CU_ASSERT_EQUAL(ranked, 10);
    CU_ASSERT_EQUAL(averaged, 6);
    CU_ASSERT_STRING_EQUAL(result_schema_find("fairness.max_min")->figure.nulls_key, "starved");
    CU_ASSERT_STRING_EQUAL(result_schema_find("latency.mean")->figure.name, "latency_mean");
}

/* Values are read from the struct a section reads: a section of the table rendered from a
 * struct result other than the one of the document gives that struct's values. */
static void test_json_table_reads_its_source(void)
{
    struct sample a, b;
    sample_init(&a);
    sample_init(&b);
    b.res.latency_p99 = 1234;
    b.res.fairness.starved_routers = 2;
    const struct result_field *p99 = result_schema_find("latency.p99");
    const struct result_field *max_min = result_schema_find("fairness.max_min");
    const struct result_field *per_router = result_schema_find("fairness.per_router_injected");
    CU_ASSERT_DOUBLE_EQUAL(result_field_number(p99, &a.res), 520, EPS);
    CU_ASSERT_DOUBLE_EQUAL(result_field_number(p99, &b.res), 1234, EPS);
    CU_ASSERT_FALSE(result_field_is_null(max_min, &a.res));
    CU_ASSERT_TRUE(result_field_is_null(max_min, &b.res));
    CU_ASSERT_EQUAL(result_field_length(per_router, &a.res), 3);
    CU_ASSERT_EQUAL(result_field_count_at(per_router, &a.res, 2), 9007199254740993ULL);
    b.res.per_router_injected = NULL; /* a missing array is rendered empty */
    CU_ASSERT_EQUAL(result_field_length(per_router, &b.res), 0);
    /* "dfsim" reads the build's constants, whatever the result. */
    const struct result_field *dfsim = result_schema_find("dfsim");
    const struct result_field *schema = result_schema_find("dfsim.schema");
    CU_ASSERT_EQUAL(result_field_count(schema, result_field_object(dfsim, &a.res)), DFSIM_SCHEMA);
    CU_ASSERT_PTR_EQUAL(result_field_object(result_schema_find("load"), &b.res), &b.res);
}

/* ---- what is generated from the table ---- */

#define README_TABLE_BEGIN "<!-- generated by `dfsim schema --markdown`"
#define README_TABLE_END "<!-- end of the generated table -->"

/* The result-document reference, results/README.md, holds what `dfsim schema --markdown`
 * prints. */
static void test_json_readme_table(void)
{
    char *readme = read_file("results/README.md");
    char *table = schema_cli_markdown();
    CU_ASSERT_FATAL(readme && table);
    char *begin = strstr(readme, README_TABLE_BEGIN);
    char *end = begin ? strstr(begin, README_TABLE_END) : NULL;
    CU_ASSERT_FATAL(begin && end);
    begin = strchr(begin, '\n') + 1;
    *end = '\0';
    if (strcmp(begin, table) != 0) {
        fprintf(stderr, "\nresults/README.md's table of the result document is stale: run "
                        "make readme\n");
        CU_FAIL("results/README.md is stale");
    }
    /* one row per field, after the header and its rule */
    static struct path_list table_fields;
    table_paths(&table_fields);
    int rows = 0;
    for (const char *line = table; (line = strchr(line, '\n')); line++)
        rows++;
    CU_ASSERT_EQUAL(rows, table_fields.n + 2);
    free(readme);
    free(table);
}

/* plots/result_schema.json, which the plot scripts read, is what `dfsim schema --json` prints:
 * the JSON of the table plus a newline. */
static void test_json_plots_schema_file(void)
{
    char *committed = read_file("plots/result_schema.json");
    char *json = schema_cli_json();
    CU_ASSERT_FATAL(committed && json);
    size_t n = strlen(json);
    bool same =
        strlen(committed) == n + 1 && strncmp(committed, json, n) == 0 && committed[n] == '\n';
    if (!same) {
        fprintf(stderr, "\nplots/result_schema.json is stale: run "
                        "`./dfsim schema --json > plots/result_schema.json`\n");
        CU_FAIL("plots/result_schema.json is stale");
    }
    free(committed);
    free(json);
}

/* The JSON of the table: every section once, the document first; each object field names a
 * listed section; the figures with their paths. */
static void test_json_schema_json(void)
{
    char *text = schema_cli_json();
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    check_number(doc, "schema", DFSIM_SCHEMA);
    const cJSON *sections = json_at(doc, "sections");
    CU_ASSERT_FATAL(cJSON_IsArray(sections));
    CU_ASSERT_STRING_EQUAL(json_at(cJSON_GetArrayItem(sections, 0), "name")->valuestring,
                           result_schema_document.name);
    int fields = 0;
    const cJSON *section, *field;
    cJSON_ArrayForEach(section, sections)
    {
        cJSON_ArrayForEach(field, json_at(section, "fields"))
        {
            fields++;
            const cJSON *name = json_at(field, "section");
            if (!name)
                continue;
            int found = 0;
            const cJSON *other;
            cJSON_ArrayForEach(other, sections) found +=
                strcmp(json_at(other, "name")->valuestring, name->valuestring) == 0;
            CU_ASSERT_EQUAL(found, 1);
        }
    }
    /* Each section is listed once with its fields, however many fields use it. */
    static struct path_list table;
    table_paths(&table);
    const struct result_section *seen[64] = {&result_schema_document};
    int n_seen = 1, expected = result_schema_document.n_fields;
    for (int i = 0; i < table.n; i++) {
        const struct result_section *sec = table.fields[i]->section;
        bool known = !sec;
        for (int j = 0; j < n_seen && !known; j++)
            known = seen[j] == sec;
        if (known)
            continue;
        CU_ASSERT_FATAL(n_seen < 64);
        seen[n_seen++] = sec;
        expected += sec->n_fields;
    }
    CU_ASSERT_EQUAL(fields, expected);
    CU_ASSERT(expected < table.n); /* the spread of latencies is used three times */
    struct result_figures figures;
    result_schema_figures(&figures);
    const cJSON *listed = json_at(doc, "figures");
    CU_ASSERT_FATAL(cJSON_GetArraySize(listed) == figures.n);
    for (int i = 0; i < figures.n; i++) {
        const cJSON *figure = cJSON_GetArrayItem(listed, i);
        CU_ASSERT_STRING_EQUAL(json_at(figure, "name")->valuestring, figures.items[i].figure->name);
        CU_ASSERT_STRING_EQUAL(json_at(figure, "path")->valuestring, figures.items[i].path);
    }
    cJSON_Delete(doc);
}

int test_json_register(void)
{
    CU_pSuite suite = CU_add_suite("json", NULL, NULL);
    if (!suite)
        return -1;
    const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"every key of the result document, in order", test_json_layout},
        {"values of every key", test_json_values},
        {"integers written exactly", test_json_exact_integers},
        {"config object from the schema", test_json_config},
        {"starved routers: max_min null", test_json_starved},
        {"include_timing=false drops timing only", test_json_without_timing},
        {"atomic write replaces the file", test_json_write},
        {"write to bad paths fails cleanly", test_json_write_bad_paths},
        {"write on a full disk keeps the old file", test_json_write_disk_full},
        {"table: every field rendered once, in order, typed", test_json_table_rendered_once},
        {"table: measured fields left out without timing", test_json_table_measured},
        {"table: unique paths, storage fits the type", test_json_table_well_formed},
        {"table: key figures of sweep.json", test_json_table_figures},
        {"table: values read from the section's struct", test_json_table_reads_its_source},
        {"dfsim schema --json: sections, fields, figures", test_json_schema_json},
        {"plots/result_schema.json is up to date", test_json_plots_schema_file},
        {"results/README.md's result table is up to date", test_json_readme_table},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn))
            return -1;
    return 0;
}
