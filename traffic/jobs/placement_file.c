/* placement_file: the nodes of a job listed in an allocation file, one node id or range a-b
 * per line, in rank order; `#` starts a comment, blank lines are ignored. Every error names
 * the file and the line. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "placement.h"
#include "text_file.h"

#define PLACEMENT_PATH_MAX 4096

/* What the reader needs while it walks the file. */
struct allocation_reader {
    const struct placement_machine *m;
    const struct placement_params *p;
    const bool *taken;
    const char *path;
    int32_t *rank_node;
    int32_t *line_of_node; /* [m->nodes]: the line that listed the node, 0 if none yet */
    int filled;
    int line;
    struct placement_error *err;
};

/* The path as the caller gave it when absolute (or without a base), else base_dir/file. */
static int allocation_resolve(const struct placement_params *p, char *path, size_t len)
{
    bool relative = p->file[0] != '/' && p->base_dir && p->base_dir[0];
    int n = relative ? snprintf(path, len, "%s/%s", p->base_dir, p->file)
                     : snprintf(path, len, "%s", p->file);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

/* A decimal number without sign, at most INT32_MAX; advances *s. Returns 0 or -1. */
static int allocation_parse_number(const char **s, long *out)
{
    if (!isdigit((unsigned char)**s))
        return -1;
    long value = 0;
    while (isdigit((unsigned char)**s)) {
        value = value * 10 + (**s - '0');
        if (value > INT32_MAX)
            return -1;
        (*s)++;
    }
    *out = value;
    return 0;
}

static const char *allocation_skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

/* "a" or "a-b" (blanks allowed around the dash) and nothing else. */
static int allocation_parse_entry(const char *text, long *first, long *last)
{
    const char *s = allocation_skip_blanks(text);
    if (allocation_parse_number(&s, first) != 0)
        return -1;
    s = allocation_skip_blanks(s);
    *last = *first;
    if (*s == '-') {
        s = allocation_skip_blanks(s + 1);
        if (allocation_parse_number(&s, last) != 0)
            return -1;
        s = allocation_skip_blanks(s);
    }
    return *s == '\0' ? 0 : -1;
}

static int allocation_fail(struct allocation_reader *r, const char *what)
{
    snprintf(r->err->text, sizeof r->err->text, "%.300s:%d: %.190s", r->path, r->line, what);
    text_one_line(r->err->text, sizeof r->err->text);
    return -1;
}

/* Gives the next rank node n, after the checks of a listed node. */
static int allocation_add_node(struct allocation_reader *r, long n)
{
    char what[200];
    if (n >= r->m->nodes) {
        snprintf(what, sizeof what, "node %ld is out of range (expected 0..%d)", n,
                 r->m->nodes - 1);
        return allocation_fail(r, what);
    }
    if (r->line_of_node[n]) {
        snprintf(what, sizeof what, "node %ld is listed twice (first on line %d)", n,
                 r->line_of_node[n]);
        return allocation_fail(r, what);
    }
    if (r->taken[n]) {
        snprintf(what, sizeof what, "node %ld already belongs to an earlier job", n);
        return allocation_fail(r, what);
    }
    if (r->filled == r->p->nodes) {
        snprintf(what, sizeof what,
                 "more nodes than job '%s' has ranks (%d; expected one node per rank)", r->p->job,
                 r->p->nodes);
        return allocation_fail(r, what);
    }
    r->line_of_node[n] = r->line;
    r->rank_node[r->filled++] = (int32_t)n;
    return 0;
}

/* One line of the file: a comment, a blank line, a node id or a range. */
static int allocation_read_line(struct allocation_reader *r, char *line)
{
    line[strcspn(line, "#\n")] = '\0';
    if (*allocation_skip_blanks(line) == '\0')
        return 0;
    long first, last;
    char what[200];
    if (allocation_parse_entry(line, &first, &last) != 0) {
        snprintf(what, sizeof what,
                 "bad node id '%.60s' (expected a node id or a range a-b per line)",
                 allocation_skip_blanks(line));
        return allocation_fail(r, what);
    }
    if (first > last) {
        snprintf(what, sizeof what, "bad range %ld-%ld (expected a-b with a <= b)", first, last);
        return allocation_fail(r, what);
    }
    for (long n = first; n <= last; n++)
        if (allocation_add_node(r, n) != 0)
            return -1;
    return 0;
}

/* Walks the file's text (NUL-free: text_file_read refuses a NUL byte) line by line. */
static int allocation_read(struct allocation_reader *r, char *text)
{
    int status = 0;
    for (char *line = text; status == 0 && *line;) {
        char *end = strchr(line, '\n');
        char *next = end ? end + 1 : line + strlen(line);
        if (end)
            *end = '\0';
        r->line++;
        status = allocation_read_line(r, line);
        line = next;
    }
    if (status == 0 && r->filled < r->p->nodes) {
        snprintf(
            r->err->text, sizeof r->err->text,
            "%.300s:%d: lists %d nodes but job '%.63s' has %d ranks (expected one node per rank)",
            r->path, r->line, r->filled, r->p->job, r->p->nodes);
        status = -1;
    }
    return status;
}

/* An allocation file must be a regular file: a FIFO would block in open, a device such as
 * /dev/zero never ends (as @include, which refuses them too). */
static int allocation_check_regular(const char *path, struct placement_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err->text, sizeof err->text,
                 "%.300s: cannot read: %s (expected an absolute path or one relative to the "
                 "config's folder)",
                 path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err->text, sizeof err->text,
                 "%.300s is %s (expected a text file of node ids, one id or range a-b per line)",
                 path, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    } else {
        return 0;
    }
    text_one_line(err->text, sizeof err->text);
    return -1;
}

static int file_place(const struct placement_machine *m, const struct placement_params *p,
                      const bool *taken, struct rng *rng, int32_t *rank_node,
                      struct placement_error *err)
{
    (void)rng;
    char path[PLACEMENT_PATH_MAX];
    err->key = "allocation_file";
    if (!p->file || !p->file[0]) {
        snprintf(err->text, sizeof err->text,
                 "job '%s': placement file needs allocation_file (expected a file of node ids)",
                 p->job);
        return -1;
    }
    if (allocation_resolve(p, path, sizeof path) != 0) {
        snprintf(err->text, sizeof err->text, "job '%s': allocation_file path too long", p->job);
        return -1;
    }
    if (allocation_check_regular(path, err) != 0)
        return -1;
    size_t len;
    char *text = text_file_read(path, &len, err->text, sizeof err->text);
    if (!text) {
        text_one_line(err->text, sizeof err->text);
        return -1;
    }
    struct allocation_reader r = {m, p, taken, path, rank_node, NULL, 0, 0, err};
    r.line_of_node = calloc((size_t)m->nodes, sizeof *r.line_of_node);
    int status = -1;
    if (r.line_of_node)
        status = allocation_read(&r, text);
    else
        snprintf(err->text, sizeof err->text, "%.300s: out of memory", path);
    free(r.line_of_node);
    free(text);
    return status;
}

static const char *const file_keys[] = {"allocation_file", NULL};

const struct placement_ops placement_file = {
    .name = "file",
    .summary = "the nodes listed in allocation_file (ids or ranges a-b, # comments), in order",
    .keys = file_keys,
    .place = file_place,
};
