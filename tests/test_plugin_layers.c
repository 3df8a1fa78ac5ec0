/* The layers below the core (src/README.md, "Below the core"): the configuration code in
 * src/config/ includes no plug-in header, directly or through the headers it includes; no two
 * modules (a header and its source) include each other; and a job plug-in's setting is named
 * in its own file only (conf/SETTINGS.md, generated, lists it too). Read from the sources. */
#include <CUnit/CUnit.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"
#include "test_util.h"
#include "text_file.h"

#define PL_MAX_FILES 512
#define PL_MAX_INCLUDES 48

/* A source or header and the project headers it includes ("routing.h"). */
struct pl_file {
    char path[128];
    char module[64]; /* base name without extension: a header and its source share it */
    int n_includes;
    char includes[PL_MAX_INCLUDES][64];
    char *text; /* without comments */
};

struct pl_tree {
    int n;
    struct pl_file files[PL_MAX_FILES];
};

/* Blanks out comments, keeping line breaks and string literals. */
static void pl_strip_comments(char *s)
{
    for (char *p = s; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                return;
        } else if (p[0] == '/' && p[1] == '*') {
            for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p != '\n')
                    *p = ' ';
            if (!*p)
                return;
            p[0] = p[1] = ' ';
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            if (!*p)
                return;
        }
    }
}

/* Fills f's module and includes from text (which it keeps, comments stripped). */
static void pl_parse(struct pl_file *f, const char *path, char *text)
{
    snprintf(f->path, sizeof f->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(f->module, sizeof f->module, "%.*s", (int)strcspn(base, "."), base);
    pl_strip_comments(text);
    f->text = text;
    f->n_includes = 0;
    for (const char *line = text; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *p = line + strspn(line, " \t");
        if (*p != '#')
            continue;
        p += 1 + strspn(p + 1, " \t");
        if (strncmp(p, "include", 7) != 0)
            continue;
        p += 7 + strspn(p + 7, " \t");
        size_t n = *p == '"' ? strcspn(p + 1, "\"\n") : 0;
        if (n > 2 && n < 64 && f->n_includes < PL_MAX_INCLUDES &&
            strncmp(p + 1 + n - 2, ".h", 2) == 0)
            snprintf(f->includes[f->n_includes++], 64, "%.*s", (int)n, p + 1);
    }
}

static void pl_load(struct pl_tree *tree)
{
    static const char *const patterns[] = {"include/*.h", "src/*.c",       "src/*/*.c",
                                           "routers/*.c", "routers/*/*.c", "arbiters/*.c",
                                           "traffic/*.c", "traffic/*/*.c"};
    tree->n = 0;
    for (size_t g = 0; g < sizeof patterns / sizeof patterns[0]; g++) {
        glob_t found;
        if (glob(patterns[g], 0, NULL, &found) != 0)
            continue;
        for (size_t i = 0; i < found.gl_pathc && tree->n < PL_MAX_FILES; i++) {
            size_t len;
            char err[256];
            char *text = text_file_read(found.gl_pathv[i], &len, err, sizeof err);
            CU_ASSERT_PTR_NOT_NULL(text);
            if (text)
                pl_parse(&tree->files[tree->n++], found.gl_pathv[i], text);
        }
        globfree(&found);
    }
}

static void pl_free(struct pl_tree *tree)
{
    for (int i = 0; i < tree->n; i++)
        free(tree->files[i].text);
    tree->n = 0;
}

static const struct pl_file *pl_header(const struct pl_tree *tree, const char *name)
{
    char path[96];
    snprintf(path, sizeof path, "include/%s", name);
    for (int i = 0; i < tree->n; i++)
        if (strcmp(tree->files[i].path, path) == 0)
            return &tree->files[i];
    return NULL;
}

/* A plug-in's header: one whose source is a plug-in's (a routing mechanism and its helpers,
 * an arbiter, a topology kind, a pattern, a job's placement, process, motif or assembly). */
static bool pl_is_plugin_header(const struct pl_tree *tree, const char *header)
{
    static const char *const folders[] = {"routers/routing/", "arbiters/", "src/topology/",
                                          "traffic/"};
    char module[64];
    snprintf(module, sizeof module, "%.*s", (int)strcspn(header, "."), header);
    for (int i = 0; i < tree->n; i++) {
        const struct pl_file *f = &tree->files[i];
        if (strcmp(f->module, module) != 0 || strstr(f->path, ".c") == NULL)
            continue;
        for (size_t k = 0; k < sizeof folders / sizeof folders[0]; k++)
            if (strncmp(f->path, folders[k], strlen(folders[k])) == 0)
                return true;
    }
    return false;
}

/* The first plug-in header f reaches through its includes and theirs; 0 if none, else 1 with
 * the chain "config.c -> settings.h -> routing.h" in why. */
static int pl_reaches_plugin(const struct pl_tree *tree, const struct pl_file *f, char *why,
                             size_t len)
{
    const char *queue[PL_MAX_FILES], *from[PL_MAX_FILES];
    int n = 0;
    for (int i = 0; i < f->n_includes; i++)
        queue[n] = f->includes[i], from[n++] = f->path;
    for (int q = 0; q < n; q++) {
        if (pl_is_plugin_header(tree, queue[q])) {
            snprintf(why, len, "%s includes plug-in header %s (through %s)", f->path, queue[q],
                     from[q]);
            return 1;
        }
        const struct pl_file *h = pl_header(tree, queue[q]);
        for (int i = 0; h && i < h->n_includes && n < PL_MAX_FILES; i++) {
            bool seen = false;
            for (int k = 0; k < n && !seen; k++)
                seen = strcmp(queue[k], h->includes[i]) == 0;
            if (!seen)
                queue[n] = h->includes[i], from[n++] = h->path;
        }
    }
    return 0;
}

/* Whether module a (its header or source) includes module b's header. */
static bool pl_module_includes(const struct pl_tree *tree, const char *a, const char *b)
{
    char header[72];
    snprintf(header, sizeof header, "%s.h", b);
    for (int i = 0; i < tree->n; i++)
        if (strcmp(tree->files[i].module, a) == 0)
            for (int k = 0; k < tree->files[i].n_includes; k++)
                if (strcmp(tree->files[i].includes[k], header) == 0)
                    return true;
    return false;
}

/* The pairs of modules that include each other, "a <-> b; ..." in why; their count. */
static int pl_mutual_pairs(const struct pl_tree *tree, char *why, size_t len)
{
    int pairs = 0;
    why[0] = '\0';
    for (int i = 0; i < tree->n; i++)
        for (int k = 0; k < tree->files[i].n_includes; k++) {
            const char *a = tree->files[i].module;
            char b[64];
            const char *inc = tree->files[i].includes[k];
            snprintf(b, sizeof b, "%.*s", (int)strcspn(inc, "."), inc);
            if (strcmp(a, b) >= 0 || !pl_module_includes(tree, b, a))
                continue; /* each pair once, from its smaller name */
            size_t used = strlen(why);
            snprintf(why + used, len - used, "%s%s <-> %s", pairs ? "; " : "", a, b);
            pairs++;
        }
    return pairs;
}

/* Whether text names setting `name`: the quoted name, not as a plug-in's own name
 * (`.name = "periodic"` is a process; `->name, "periodic"` compares one; `"jobs", "periodic"`
 * says who reads a table). */
static bool pl_names_setting(const char *text, const char *name)
{
    char quoted[96];
    snprintf(quoted, sizeof quoted, "\"%s\"", name);
    for (const char *p = strstr(text, quoted); p; p = strstr(p + 1, quoted)) {
        const char *line = p;
        while (line > text && line[-1] != '\n')
            line--;
        char before[256];
        snprintf(before, sizeof before, "%.*s", (int)(p - line < 255 ? p - line : 255), line);
        if (!strstr(before, "name = ") && !strstr(before, "->name, ") &&
            !strstr(before, "\"jobs\", "))
            return true;
    }
    return false;
}

struct pl_setting_scan {
    const struct pl_tree *tree;
    const char *group_names[256]; /* the groups' settings: a job key may share a name */
    int n_group_names;
    int checked;
};

static int pl_collect_group_name(void *ctx, const struct setting_ref *r)
{
    struct pl_setting_scan *s = ctx;
    if (r->group && s->n_group_names < 256)
        s->group_names[s->n_group_names++] = r->row->name;
    return 0;
}

/* A job plug-in's setting is named by one file of traffic/ (its plug-in's) and nowhere else;
 * one that shares its name with a group's setting (topology.groups, traffic.offset) is named
 * by its plug-in and that setting's files, never by the job assembly (traffic/jobs/job_*). */
static int pl_scan_setting(void *ctx, const struct setting_ref *r)
{
    struct pl_setting_scan *s = ctx;
    if (!r->table->params_size)
        return 0; /* the job's own settings (job_config.c) */
    bool shared = false;
    for (int i = 0; i < s->n_group_names; i++)
        shared = shared || strcmp(s->group_names[i], r->row->name) == 0;
    int in_traffic = 0, outside = 0;
    char where[512] = "";
    for (int i = 0; i < s->tree->n; i++) {
        const struct pl_file *f = &s->tree->files[i];
        if (!pl_names_setting(f->text, r->row->name))
            continue;
        bool traffic = strncmp(f->path, "traffic/", 8) == 0;
        in_traffic += traffic;
        outside += !traffic;
        size_t used = strlen(where);
        snprintf(where + used, sizeof where - used, " %s", f->path);
    }
    /* a shared name (a job's offset feeds adversarial's): never in the job assembly */
    bool assembly = strstr(where, " traffic/jobs/job_") != NULL;
    bool own = shared ? in_traffic >= 1 && !assembly : in_traffic == 1 && outside == 0;
    if (!own)
        fprintf(stderr, "\n    jobs[].%s is named in%s (expected its plug-in's file only)",
                r->row->name, where[0] ? where : " no file");
    CU_ASSERT(own);
    s->checked++;
    return 0;
}

/* ---- the checks check ---- */

static void test_checks_find_faults(void)
{
    static struct pl_tree tree;
    char a[] = "#include \"b.h\"\n", b[] = "/* #include \"a.h\" */\n # include \"a.h\"\n";
    tree.n = 2;
    pl_parse(&tree.files[0], "include/a.h", strdup(a));
    pl_parse(&tree.files[1], "src/b.c", strdup(b));
    char why[512];
    CU_ASSERT_EQUAL(tree.files[1].n_includes, 1); /* the commented one is not an include */
    CU_ASSERT_EQUAL(pl_mutual_pairs(&tree, why, sizeof why), 1);
    CU_ASSERT_STRING_EQUAL(why, "a <-> b");
    char c[] = "#include \"a.h\"\n", m[] = "int x;\n";
    tree.n = 4;
    pl_parse(&tree.files[2], "src/config/c.c", strdup(c));
    pl_parse(&tree.files[3], "traffic/motifs/b.c", strdup(m));
    snprintf(tree.files[1].path, sizeof tree.files[1].path, "include/b.h");
    CU_ASSERT_EQUAL(pl_reaches_plugin(&tree, &tree.files[2], why, sizeof why), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "plug-in header b.h (through include/a.h)"));
    CU_ASSERT(pl_names_setting("x = \"root\";", "root"));
    char commented[] = "/* \"root\" */ int y;";
    pl_strip_comments(commented);
    CU_ASSERT(!pl_names_setting(commented, "root"));
    CU_ASSERT(!pl_names_setting("    .name = \"periodic\",", "periodic"));
    CU_ASSERT(!pl_names_setting("strcmp(ops->name, \"periodic\")", "periodic"));
    CU_ASSERT(!pl_names_setting("t = {\"jobs\", \"periodic\", rows};", "periodic"));
    CU_ASSERT(!pl_names_setting("\"jobs[].root\"", "root"));
    pl_free(&tree);
}

/* ---- the tree ---- */

static void test_config_includes_no_plugin(void)
{
    static struct pl_tree tree;
    pl_load(&tree);
    int checked = 0;
    char why[512];
    for (int i = 0; i < tree.n; i++) {
        if (strncmp(tree.files[i].path, "src/config/", 11) != 0)
            continue;
        int rc = pl_reaches_plugin(&tree, &tree.files[i], why, sizeof why);
        if (rc)
            fprintf(stderr, "\n    %s", why);
        CU_ASSERT_EQUAL(rc, 0);
        checked++;
    }
    CU_ASSERT(checked >= 5);
    CU_ASSERT(pl_is_plugin_header(&tree, "routing.h") && pl_is_plugin_header(&tree, "motif.h"));
    pl_free(&tree);
}

static void test_no_modules_include_each_other(void)
{
    static struct pl_tree tree;
    pl_load(&tree);
    CU_ASSERT(tree.n > 120);
    char why[2048];
    int pairs = pl_mutual_pairs(&tree, why, sizeof why);
    if (pairs)
        fprintf(stderr, "\n    %s", why);
    CU_ASSERT_EQUAL(pairs, 0);
    pl_free(&tree);
}

static void test_job_plugin_settings_in_their_file(void)
{
    static struct pl_tree tree;
    pl_load(&tree);
    static struct pl_setting_scan scan;
    scan = (struct pl_setting_scan){.tree = &tree};
    settings_each(pl_collect_group_name, &scan);
    settings_each_in_element(settings_list_named("jobs"), -1, pl_scan_setting, &scan);
    CU_ASSERT(scan.checked >= 14); /* the placements', patterns', processes', motifs' */
    pl_free(&tree);
}

int test_plugin_layers_register(void)
{
    static const struct test_case cases[] = {
        {"the checks find includes both ways, plug-in headers and named settings",
         test_checks_find_faults},
        {"src/config/ includes no plug-in header", test_config_includes_no_plugin},
        {"no two modules include each other", test_no_modules_include_each_other},
        {"a job plug-in's setting is named in its own file only",
         test_job_plugin_settings_in_their_file},
    };
    return test_add_suite("plugin_layers", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
