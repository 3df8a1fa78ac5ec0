/* config_include: checks the @include directives of dfsim's libconfig files before libconfig
 * follows them (see config_include.h for what libconfig 1.5 does with bad ones). */
#include "config_include.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text_file.h"

#define INCLUDE_PATH_LEN 4096
#define INCLUDE_MAX_DEPTH 10 /* libconfig 1.5 refuses, cleanly, to open a file deeper */

/* A file checked already, and the smallest depth it was checked at. */
struct include_seen {
    char *path;
    int depth;
};

/* The files already checked: each is read again only if reached at a smaller depth (where
 * more of its own includes are within libconfig's limit), which also ends include cycles. */
struct include_walk {
    struct include_seen *seen;
    int n_seen, cap_seen;
    const char *include_dir;
    char *err;
    size_t err_len;
};

void config_include_dir_of(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == dir)
        snprintf(dir, len, "/");
    else
        *slash = '\0';
}

static int include_fail(struct include_walk *w, const char *name, int line, const char *fmt, ...)
{
    int n = snprintf(w->err, w->err_len, "%s:%d: @include: ", name, line);
    if (n < 0 || (size_t)n >= w->err_len)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err + n, w->err_len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* libconfig's rule is ^[ \t]*@include[ \t]+\" : at returns the character after the quote,
 * or NULL if the line starting at `at` is not a directive. Lines in comments are taken too:
 * a false directive only costs a check, a missed one could end the process. */
static const char *include_directive(const char *at)
{
    at += strspn(at, " \t");
    if (strncmp(at, "@include", 8) != 0)
        return NULL;
    at += 8;
    size_t blanks = strspn(at, " \t");
    if (blanks == 0 || at[blanks] != '"')
        return NULL;
    return at + blanks + 1;
}

/* Copies the quoted file name starting at `at` into name (escapes \\ and \" as libconfig
 * does). Returns 0, or -1 with the problem. */
static int include_name(struct include_walk *w, const char *file, int line, const char *at,
                        char *name, size_t len)
{
    size_t n = 0;
    for (; *at != '"'; at++) {
        if (*at == '\0' || *at == '\n')
            return include_fail(w, file, line,
                                "the file name has no closing quote on this line (expected "
                                "@include \"FILE\")");
        if (*at == '\\') {
            at++;
            if (*at != '\\' && *at != '"')
                return include_fail(w, file, line,
                                    "'\\%c' in the file name (only \\\\ and \\\" are escapes)",
                                    *at ? *at : '0');
        }
        if (n + 1 >= len)
            return include_fail(w, file, line, "the file name is longer than %zu bytes", len - 1);
        name[n++] = *at;
    }
    name[n] = '\0';
    return 0;
}

/* Where libconfig 1.5 looks for name: include_dir/name, a leading '/' dropped. */
static int include_resolve(const struct include_walk *w, const char *name, char *path, size_t len)
{
    int n = snprintf(path, len, "%s/%s", w->include_dir, name[0] == '/' ? name + 1 : name);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* 1 if path was checked already at depth or less; else remembers it at depth and returns 0
 * (-1: out of memory). */
static int include_seen(struct include_walk *w, const char *path, int depth)
{
    for (int i = 0; i < w->n_seen; i++) {
        if (strcmp(w->seen[i].path, path) != 0)
            continue;
        if (w->seen[i].depth <= depth)
            return 1;
        w->seen[i].depth = depth;
        return 0;
    }
    if (w->n_seen == w->cap_seen) {
        int cap = w->cap_seen ? 2 * w->cap_seen : 8;
        struct include_seen *bigger = realloc(w->seen, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return -1;
        w->seen = bigger;
        w->cap_seen = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return -1;
    w->seen[w->n_seen++] = (struct include_seen){copy, depth};
    return 0;
}

static int include_check_text(struct include_walk *w, const char *text, const char *file,
                              int depth);

/* One directive of file at line, naming a file libconfig would open at depth: that file, if
 * it exists, must be a readable regular file whose own directives are good. */
static int include_check_one(struct include_walk *w, const char *file, int line, const char *name,
                             int depth)
{
    char path[INCLUDE_PATH_LEN];
    if (include_resolve(w, name, path, sizeof path) != 0)
        return include_fail(w, file, line, "\"%.200s\": the path is too long", name);
    struct stat st;
    if (stat(path, &st) != 0)
        return 0; /* libconfig says "cannot open include file" */
    if (!S_ISREG(st.st_mode))
        return include_fail(w, file, line, "\"%.200s\": %.200s is %s (expected a config file)",
                            name, path, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    if (access(path, R_OK) != 0)
        return 0; /* libconfig cannot open it either, and says so */
    int seen = include_seen(w, path, depth);
    if (seen != 0)
        return seen > 0 ? 0 : include_fail(w, file, line, "out of memory");
    size_t len;
    char why[1024];
    char *inner = text_file_read(path, &len, why, sizeof why);
    if (!inner)
        return include_fail(w, file, line, "\"%.200s\": %s", name, why);
    char *inner_name = strdup(path); /* w->seen may move while inner is checked */
    int rc = inner_name ? include_check_text(w, inner, inner_name, depth)
                        : include_fail(w, file, line, "out of memory");
    free(inner_name);
    free(inner);
    return rc;
}

/* The directives of text, the file called file that libconfig reads at depth. */
static int include_check_text(struct include_walk *w, const char *text, const char *file, int depth)
{
    if (depth == INCLUDE_MAX_DEPTH)
        return 0; /* libconfig opens nothing deeper: "include file nesting too deep" */
    int line = 1;
    for (const char *at = text; at; line++) {
        const char *quoted = include_directive(at);
        if (quoted) {
            char name[INCLUDE_PATH_LEN];
            if (include_name(w, file, line, quoted, name, sizeof name) != 0 ||
                include_check_one(w, file, line, name, depth + 1) != 0)
                return -1;
        }
        at = strchr(at, '\n');
        if (at)
            at++;
    }
    return 0;
}

int config_include_check(const char *text, const char *name, const char *include_dir, char *err,
                         size_t err_len)
{
    if (!strstr(text, "@include"))
        return 0;
    struct include_walk w = {NULL, 0, 0, include_dir, err, err_len};
    int rc = include_check_text(&w, text, name, 0);
    for (int i = 0; i < w.n_seen; i++)
        free(w.seen[i].path);
    free(w.seen);
    return rc;
}
