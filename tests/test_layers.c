/* The core's layers (src/README.md, "Layers"): data flows one way, so no file of a layer
 * includes a header of a layer above it or of a sibling, nor names a struct such a layer owns
 * (a forward declaration is an arrow too); the headers the core builds on (those network.h
 * and workload.h include, and the plug-ins' sources) include no core header at all. Read
 * from the sources' #include lines, so a new arrow up fails here before it makes a circle. */
#include <CUnit/CUnit.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* The core's modules, bottom first: include/NAME.h and its source. A module may include the
 * headers of the layers below its own and its own header; `may_include` names a sibling it
 * may include as well (stats' result embeds the per-job results: stats -> job_result). */
struct layer_module {
    const char *name;
    const char *source;
    int layer;
    const char *may_include;
    const char *const *owns; /* the structs it owns, NULL-terminated */
};

static const char *const network_owns[] = {"network", "network_layout", "network_counts",
                                           "router_state", NULL};
static const char *const router_owns[] = {"allocation", NULL};
static const char *const workload_owns[] = {"workload",         "workload_job", "workload_nic",
                                            "workload_message", "job_stats",    NULL};
static const char *const stats_owns[] = {"stats", "stats_view", "result", NULL};
static const char *const job_result_owns[] = {"job_result", "job_result_view", "job_result_run",
                                              NULL};
static const char *const invariants_owns[] = {"recount", NULL};
static const char *const progress_owns[] = {"progress", "progress_view", NULL};
static const char *const packet_log_owns[] = {"packet_log", "packet_log_trace", "packet_log_hop",
                                              NULL};
static const char *const sim_owns[] = {"sim", NULL};

enum { LAYER_BASE, LAYER_NETWORK, LAYER_ACTORS, LAYER_OBSERVERS, LAYER_LOOP };

static const struct layer_module layer_modules[] = {
    {"network", "src/network.c", LAYER_NETWORK, NULL, network_owns},
    {"router", "routers/router.c", LAYER_ACTORS, NULL, router_owns},
    {"workload", "src/workload.c", LAYER_ACTORS, NULL, workload_owns},
    {"job_result", "src/job_result.c", LAYER_OBSERVERS, NULL, job_result_owns},
    {"stats", "src/stats.c", LAYER_OBSERVERS, "job_result", stats_owns},
    {"invariants", "src/invariants.c", LAYER_OBSERVERS, NULL, invariants_owns},
    {"progress", "src/progress.c", LAYER_OBSERVERS, NULL, progress_owns},
    {"packet_log", "src/packet_log.c", LAYER_OBSERVERS, NULL, packet_log_owns},
    {"sim", "src/sim.c", LAYER_LOOP, NULL, sim_owns},
};
enum { LAYER_MODULES = sizeof layer_modules / sizeof layer_modules[0] };

static const struct layer_module *layer_module_named(const char *name)
{
    for (int i = 0; i < LAYER_MODULES; i++)
        if (strcmp(layer_modules[i].name, name) == 0)
            return &layer_modules[i];
    return NULL;
}

static char *layer_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap + 1);
    size_t n;
    while (text && (n = fread(text + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *bigger = realloc(text, 2 * cap + 1);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

/* Blanks out comments and the contents of string and character literals (newlines kept), so
 * that what is left is declarations and code: "struct sim" in a comment is no arrow. Include
 * lines are read before this. */
static void layer_strip(char *s)
{
    for (char *p = s; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            char *stop = end ? end + 2 : p + strlen(p);
            for (; p < stop; p++)
                if (*p != '\n')
                    *p = ' ';
            p--;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            p--;
        } else if (*p == '"' || *p == '\'') {
            char quote = *p;
            for (p++; *p && *p != quote && *p != '\n'; p++) {
                if (*p == '\\' && p[1])
                    *p++ = ' ';
                *p = ' ';
            }
            if (!*p)
                p--;
        }
    }
}

/* Calls found(ctx, header) for each `#include "header"` of text; stops at the first non-zero. */
static int layer_each_include(const char *text, int (*found)(void *, const char *), void *ctx)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p++ != '#')
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "include", 7) != 0)
            continue;
        p += 7;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p++ != '"')
            continue;
        const char *end = strchr(p, '"');
        if (!end || end - p >= 128)
            continue;
        char header[128];
        memcpy(header, p, (size_t)(end - p));
        header[end - p] = '\0';
        int rc = found(ctx, header);
        if (rc)
            return rc;
    }
    return 0;
}

/* The core module whose header this is ("sim.h" -> sim), or NULL. */
static const struct layer_module *layer_module_of_header(const char *header)
{
    size_t n = strlen(header);
    if (n < 3 || strcmp(header + n - 2, ".h") != 0 || n - 2 >= 64)
        return NULL;
    char name[64];
    memcpy(name, header, n - 2);
    name[n - 2] = '\0';
    return layer_module_named(name);
}

struct layer_scan {
    const char *path;
    const struct layer_module *self; /* NULL: a base file, which may include no core header */
    char *why;
    size_t len;
};

static int layer_check_include(void *ctx, const char *header)
{
    struct layer_scan *scan = ctx;
    const struct layer_module *target = layer_module_of_header(header);
    if (!target)
        return 0;
    const struct layer_module *self = scan->self;
    if (!self) {
        snprintf(scan->why, scan->len,
                 "%s: includes %s, a header of the core (layer %d), but "
                 "the core builds on it",
                 scan->path, header, target->layer);
        return -1;
    }
    if (target == self || target->layer < self->layer ||
        (self->may_include && strcmp(self->may_include, target->name) == 0))
        return 0;
    snprintf(scan->why, scan->len, "%s (layer %d, %s): includes %s (layer %d): an arrow %s",
             scan->path, self->layer, self->name, header, target->layer,
             target->layer == self->layer ? "between siblings" : "up");
    return -1;
}

/* Whether the stripped text names `struct NAME` (NAME a whole identifier). */
static bool layer_names_struct(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, "struct"); p; p = strstr(p + 6, "struct")) {
        if (p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                         (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9')))
            continue;
        const char *q = p + 6;
        if (*q != ' ' && *q != '\t' && *q != '\n')
            continue;
        while (*q == ' ' || *q == '\t' || *q == '\n')
            q++;
        if (strncmp(q, name, n) != 0)
            continue;
        char after = q[n];
        if (!(after == '_' || (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
              (after >= '0' && after <= '9')))
            return true;
    }
    return false;
}

/* Checks one file's text as a file of module self (NULL: a base file): its includes, then the
 * structs it names. Returns 0, or -1 with why. */
static int layer_check_text(const char *path, const struct layer_module *self, const char *text,
                            char *why, size_t len)
{
    struct layer_scan scan = {path, self, why, len};
    if (layer_each_include(text, layer_check_include, &scan))
        return -1;
    char *code = strdup(text);
    if (!code) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    layer_strip(code);
    int rc = 0;
    for (int i = 0; i < LAYER_MODULES && !rc; i++) {
        const struct layer_module *other = &layer_modules[i];
        bool above = !self || (other != self && other->layer >= self->layer &&
                               !(self->may_include && strcmp(self->may_include, other->name) == 0));
        for (const char *const *s = other->owns; above && *s && !rc; s++) {
            if (!layer_names_struct(code, *s))
                continue;
            snprintf(why, len, "%s: names struct %s, which %s (layer %d) owns", path, *s,
                     other->name, other->layer);
            rc = -1;
        }
    }
    free(code);
    return rc;
}

static int layer_check_file(const char *path, const struct layer_module *self, char *why,
                            size_t len)
{
    char *text = layer_read(path);
    if (!text) {
        snprintf(why, len, "%s: cannot read it (run the tests from the repository's root)", path);
        return -1;
    }
    int rc = layer_check_text(path, self, text, why, len);
    free(text);
    return rc;
}

/* The checker itself: it finds an arrow up, a sibling arrow and a forward declaration of a
 * struct owned above, and lets the allowed includes and mentions in comments through. */
static void test_checker_finds_arrows(void)
{
    const struct layer_module *network = layer_module_named("network"),
                              *router = layer_module_named("router"),
                              *stats = layer_module_named("stats");
    char why[256];
    CU_ASSERT_EQUAL(layer_check_text("n.c", network, "#include \"sim.h\"\n", why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "an arrow up"));
    CU_ASSERT_EQUAL(
        layer_check_text("n.c", network, "  #  include \"workload.h\"\n", why, sizeof why), -1);
    CU_ASSERT_EQUAL(layer_check_text("r.c", router, "#include \"workload.h\"\n", why, sizeof why),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "between siblings"));
    CU_ASSERT_EQUAL(layer_check_text("r.c", router, "struct sim;\nint x;\n", why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "struct sim"));
    CU_ASSERT_EQUAL(layer_check_text("base.h", NULL, "#include \"network.h\"\n", why, sizeof why),
                    -1);
    CU_ASSERT_EQUAL(layer_check_text("r.c", router,
                                     "#include \"network.h\"\n#include <stdio.h>\n"
                                     "/* struct sim owns it */ const char *s = \"struct sim\";\n"
                                     "struct sim_config *c; struct network *n;\n",
                                     why, sizeof why),
                    0);
    CU_ASSERT_EQUAL(layer_check_text("s.c", stats, "#include \"job_result.h\"\n", why, sizeof why),
                    0);
}

/* Every core file keeps to its layer. */
static void test_core_files_keep_their_layer(void)
{
    char why[512], header[128];
    for (int i = 0; i < LAYER_MODULES; i++) {
        const struct layer_module *m = &layer_modules[i];
        snprintf(header, sizeof header, "include/%s.h", m->name);
        int rc = layer_check_file(header, m, why, sizeof why);
        if (rc == 0)
            rc = layer_check_file(m->source, m, why, sizeof why);
        if (rc)
            fprintf(stderr, "\n    %s\n", why);
        CU_ASSERT_EQUAL(rc, 0);
    }
}

/* The base: every header network.h and workload.h include, directly or not, that is not a
 * core module's, includes no core header; so does every plug-in source. */
struct layer_base {
    char headers[128][64];
    int n;
};

static int layer_add_base(void *ctx, const char *header)
{
    struct layer_base *base = ctx;
    if (layer_module_of_header(header) || strlen(header) >= 64)
        return 0;
    for (int i = 0; i < base->n; i++)
        if (strcmp(base->headers[i], header) == 0)
            return 0;
    if (base->n == 128)
        return -1;
    snprintf(base->headers[base->n++], 64, "%s", header);
    return 0;
}

static void test_base_includes_no_core_header(void)
{
    struct layer_base base = {.n = 0};
    const char *roots[] = {"include/network.h", "include/workload.h"};
    for (int i = 0; i < 2; i++) {
        char *text = layer_read(roots[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_EQUAL(layer_each_include(text, layer_add_base, &base), 0);
        free(text);
    }
    char why[512], path[128];
    for (int i = 0; i < base.n; i++) { /* base.n grows as included headers are found */
        snprintf(path, sizeof path, "include/%s", base.headers[i]);
        char *text = layer_read(path);
        if (!text)
            continue; /* a header of a system library (cJSON, libconfig) */
        layer_each_include(text, layer_add_base, &base);
        int rc = layer_check_text(path, NULL, text, why, sizeof why);
        if (rc)
            fprintf(stderr, "\n    %s\n", why);
        CU_ASSERT_EQUAL(rc, 0);
        free(text);
    }
    CU_ASSERT(base.n > 10); /* topology.h, routing.h, packet.h, ... were found */
    const char *plugins[] = {"routers/routing/*.c", "traffic/*.c", "traffic/*/*.c", "arbiters/*.c",
                             "src/topology/*.c"};
    int checked = 0;
    for (int g = 0; g < 5; g++) {
        glob_t files;
        if (glob(plugins[g], 0, NULL, &files) != 0)
            continue;
        for (size_t i = 0; i < files.gl_pathc; i++) {
            int rc = layer_check_file(files.gl_pathv[i], NULL, why, sizeof why);
            if (rc)
                fprintf(stderr, "\n    %s\n", why);
            CU_ASSERT_EQUAL(rc, 0);
            checked++;
        }
        globfree(&files);
    }
    CU_ASSERT(checked > 20);
}

int test_layers_register(void)
{
    CU_pSuite s = CU_add_suite("layers", NULL, NULL);
    if (!s)
        return -1;
    CU_add_test(s, "the layer check finds arrows up, between siblings and to owned structs",
                test_checker_finds_arrows);
    CU_add_test(s, "the core's files include and name nothing above their layer",
                test_core_files_keep_their_layer);
    CU_add_test(s, "the headers the core builds on and the plug-ins include no core header",
                test_base_includes_no_core_header);
    return 0;
}
