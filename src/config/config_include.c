/* config_include: expands the @include directives of dfsim's config files into one text (see
 * config_include.h for why libconfig 1.5 must not follow them itself). */
#include "config_include.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text_file.h"

#define INCLUDE_PATH_LEN 4096
#define INCLUDE_MAX_DEPTH 10   /* libconfig 1.5's own limit, kept */
#define INCLUDE_MAX_FILES 1000 /* bounds the work of includes fanning out level after level */

/* lines [line, next span's line) of the text are lines file_line... of files[file] */
struct config_include_span {
    int line, file, file_line;
};

/* Where libconfig's scanner is at the start of a line: directives count only in code. */
enum include_lexer { INCLUDE_IN_CODE, INCLUDE_IN_COMMENT, INCLUDE_IN_STRING };

/* A file being expanded: the files around a directive, to refuse one including itself. */
struct include_open_file {
    dev_t dev;
    ino_t ino;
    bool known; /* stat worked */
};

struct include_expander {
    struct config_include_text *out;
    size_t text_cap;
    int files_cap, spans_cap, layers_cap;
    int line; /* the line of out->text being written */
    enum include_lexer lexer;
    int depth;   /* groups, lists and arrays open where the scanner is (in code) */
    int reading; /* the reading of a file whose text is being written (a layer's) */
    int n_readings;
    struct include_open_file open[INCLUDE_MAX_DEPTH + 1]; /* [depth]: the file at that depth */
    int n_included;
    char *err;
    size_t err_len;
};

static int include_fail(struct include_expander *x, int file, int line, const char *fmt, ...)
{
    int n = snprintf(x->err, x->err_len, "%s:%d: @include: ", x->out->files[file], line);
    if (n < 0 || (size_t)n >= x->err_len)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err + n, x->err_len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- the expanded text and its map ---- */

/* array (of *cap items of `size` bytes, n used) with room for one more: array itself, a
 * bigger copy (*cap updated), or NULL (out of memory; array is intact). */
static void *include_grow(void *array, int *cap, int n, size_t size)
{
    if (n < *cap)
        return array;
    int bigger_cap = *cap ? 2 * *cap : 8;
    void *bigger = realloc(array, (size_t)bigger_cap * size);
    if (bigger)
        *cap = bigger_cap;
    return bigger;
}

static int include_append(struct include_expander *x, const char *from, size_t n)
{
    struct config_include_text *out = x->out;
    if (out->len + n + 1 > x->text_cap) {
        size_t cap = x->text_cap ? x->text_cap : 4096;
        while (out->len + n + 1 > cap)
            cap *= 2;
        char *bigger = realloc(out->text, cap);
        if (!bigger)
            return -1;
        out->text = bigger;
        x->text_cap = cap;
    }
    memcpy(out->text + out->len, from, n);
    out->len += n;
    out->text[out->len] = '\0';
    for (const char *nl = memchr(from, '\n', n); nl;
         nl = memchr(nl + 1, '\n', n - (size_t)(nl + 1 - from)))
        x->line++;
    return 0;
}

/* From the current line of the text on, lines come from file's line file_line on. */
static int include_span(struct include_expander *x, int file, int file_line)
{
    struct config_include_text *out = x->out;
    if (out->n_spans > 0 && out->spans[out->n_spans - 1].line == x->line)
        out->n_spans--; /* the previous span holds no line */
    struct config_include_span *spans =
        include_grow(out->spans, &x->spans_cap, out->n_spans, sizeof *spans);
    if (!spans)
        return -1;
    out->spans = spans;
    out->spans[out->n_spans++] = (struct config_include_span){x->line, file, file_line};
    return 0;
}

/* From here on, the text is a layer of its own, of the file reading `reading`. */
static int include_layer(struct include_expander *x, int reading)
{
    struct config_include_text *out = x->out;
    struct config_include_layer *layers =
        include_grow(out->layers, &x->layers_cap, out->n_layers, sizeof *layers);
    if (!layers)
        return -1;
    out->layers = layers;
    out->layers[out->n_layers++] = (struct config_include_layer){out->len, x->line, reading};
    x->reading = reading;
    return 0;
}

/* Adds path to out->files; returns its index, or -1 (out of memory). */
static int include_add_file(struct include_expander *x, const char *path)
{
    struct config_include_text *out = x->out;
    char **files = include_grow(out->files, &x->files_cap, out->n_files, sizeof *files);
    if (!files)
        return -1;
    out->files = files;
    char *copy = strdup(path);
    if (!copy)
        return -1;
    out->files[out->n_files] = copy;
    return out->n_files++;
}

/* ---- reading a line as libconfig's scanner does ---- */

/* libconfig's rule is ^[ \t]*@include[ \t]+\" : at returns the character after the quote,
 * or NULL if the line starting at `at` is not a directive. */
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

/* Moves the scanner's state over [at, end), one line: block comments and strings may span
 * lines (and files: an included file left inside one goes on in it after the directive, as
 * in libconfig); # and // comments end with the line. The brackets of code count the groups,
 * lists and arrays open. */
static void include_scan(enum include_lexer *lexer, int *depth, const char *at, const char *end)
{
    for (; at < end; at++) {
        bool pair = at + 1 < end;
        if (*lexer == INCLUDE_IN_CODE && *at && strchr("{([", *at)) {
            ++*depth;
        } else if (*lexer == INCLUDE_IN_CODE && *at && strchr("})]", *at)) {
            --*depth;
        } else if (*lexer == INCLUDE_IN_COMMENT) {
            if (pair && at[0] == '*' && at[1] == '/') {
                *lexer = INCLUDE_IN_CODE;
                at++;
            }
        } else if (*lexer == INCLUDE_IN_STRING) {
            if (*at == '"')
                *lexer = INCLUDE_IN_CODE;
            else if (*at == '\\' && pair)
                at++; /* \" and \\ do not end the string */
        } else if (*at == '"') {
            *lexer = INCLUDE_IN_STRING;
        } else if (pair && at[0] == '/' && at[1] == '*') {
            *lexer = INCLUDE_IN_COMMENT;
            at++;
        } else if (*at == '#' || (pair && at[0] == '/' && at[1] == '/')) {
            return;
        }
    }
}

/* Copies the quoted file name starting at `at` into name (escapes \\ and \" as libconfig
 * does); *after gets the character after the closing quote. Returns 0, or -1 with the
 * problem. */
static int include_name(struct include_expander *x, int file, int line, const char *at, char *name,
                        size_t len, const char **after)
{
    size_t n = 0;
    for (; *at != '"'; at++) {
        if (*at == '\0' || *at == '\n')
            return include_fail(x, file, line,
                                "the file name has no closing quote on this line (expected "
                                "@include \"FILE\")");
        if (*at == '\\') {
            at++;
            if (*at != '\\' && *at != '"')
                return include_fail(x, file, line,
                                    "'\\%c' in the file name (only \\\\ and \\\" are escapes)",
                                    *at ? *at : '0');
        }
        if (n + 1 >= len)
            return include_fail(x, file, line, "the file name is longer than %zu bytes", len - 1);
        name[n++] = *at;
    }
    name[n] = '\0';
    *after = at + 1;
    return 0;
}

/* ---- following a directive ---- */

/* name if absolute, else name in dir. */
static int include_resolve(const char *dir, const char *name, char *path, size_t len)
{
    size_t n = strlen(dir);
    int written = name[0] == '/' ? snprintf(path, len, "%s", name)
                                 : snprintf(path, len, "%s%s%s", dir,
                                            n > 0 && dir[n - 1] == '/' ? "" : "/", name);
    return written < 0 || (size_t)written >= len ? -1 : 0;
}

/* The file at path (name in dir), reached at depth, must be a regular file not open already
 * around it. */
static int include_check_file(struct include_expander *x, int file, int line, const char *name,
                              const char *dir, const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return include_fail(x, file, line,
                            "\"%.200s\": cannot open %.300s: %s (expected an absolute path or "
                            "one relative to %.300s)",
                            name, path, strerror(errno), dir);
    if (!S_ISREG(st.st_mode))
        return include_fail(x, file, line, "\"%.200s\": %.300s is %s (expected a config file)",
                            name, path, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    for (int d = 0; d < depth; d++)
        if (x->open[d].known && x->open[d].dev == st.st_dev && x->open[d].ino == st.st_ino)
            return include_fail(x, file, line,
                                "\"%.200s\": %.300s includes itself (expected no file "
                                "including itself, directly or through others)",
                                name, path);
    x->open[depth] = (struct include_open_file){st.st_dev, st.st_ino, true};
    if (++x->n_included > INCLUDE_MAX_FILES)
        return include_fail(x, file, line,
                            "more than %d files included in all (expected at most %d)",
                            INCLUDE_MAX_FILES, INCLUDE_MAX_FILES);
    return 0;
}

static int include_expand_text(struct include_expander *x, const char *text, int file, int depth);

/* The directive of file at line naming `name`: the named file's text, expanded in turn. */
static int include_follow(struct include_expander *x, int file, int line, const char *name,
                          int depth)
{
    if (depth == INCLUDE_MAX_DEPTH)
        return include_fail(x, file, line, "nested too deep (expected at most %d levels)",
                            INCLUDE_MAX_DEPTH);
    char dir[INCLUDE_PATH_LEN], path[INCLUDE_PATH_LEN], why[1024];
    text_file_folder(x->out->files[file], dir, sizeof dir);
    if (include_resolve(dir, name, path, sizeof path) != 0)
        return include_fail(x, file, line, "\"%.200s\": the path is too long", name);
    if (include_check_file(x, file, line, name, dir, path, depth + 1) != 0)
        return -1;
    size_t len;
    char *inner = text_file_read(path, &len, why, sizeof why);
    if (!inner)
        return include_fail(x, file, line, "\"%.200s\": %s", name, why);
    int rc = 0;
    if (x->out->len + len > TEXT_FILE_MAX_BYTES)
        rc = include_fail(x, file, line,
                          "\"%.200s\": the config with its included files is larger than 16 MiB",
                          name);
    int inner_file = rc == 0 ? include_add_file(x, path) : -1;
    if (rc == 0 && inner_file < 0)
        rc = include_fail(x, file, line, "out of memory");
    if (rc == 0)
        rc = include_expand_text(x, inner, inner_file, depth + 1);
    free(inner);
    return rc;
}

/* A directive at the top level includes a base: the included file's text is a layer of its
 * own, a new reading, and the text after it is the includer's again. A file that leaves a
 * comment, a string or a group open is read with the text around it instead. */
static int include_follow_layer(struct include_expander *x, int file, int line, const char *name,
                                int depth)
{
    if (x->depth != 0)
        return include_follow(x, file, line, name, depth);
    int includer = x->reading, n_layers = x->out->n_layers;
    if (include_layer(x, ++x->n_readings) != 0)
        return include_fail(x, file, line, "out of memory");
    if (include_follow(x, file, line, name, depth) != 0)
        return -1;
    x->reading = includer;
    if (x->lexer != INCLUDE_IN_CODE || x->depth != 0) {
        x->out->n_layers = n_layers;
        return 0;
    }
    return include_layer(x, includer) == 0 ? 0 : include_fail(x, file, line, "out of memory");
}

/* The directive starting at `quoted` (after its opening quote) on line `line` of file: the
 * named file's text. *rest gets what follows the name on the line, to be read after it on a
 * line of its own, or the start of the next line if that is blank. */
static int include_directive_line(struct include_expander *x, int file, int line,
                                  const char *quoted, int depth, const char **rest)
{
    char name[INCLUDE_PATH_LEN];
    if (include_name(x, file, line, quoted, name, sizeof name, rest) != 0)
        return -1;
    if (include_directive(*rest))
        return include_fail(x, file, line,
                            "a second @include on this line (expected one @include per line)");
    if (include_follow_layer(x, file, line, name, depth) != 0)
        return -1;
    const char *after = *rest + strspn(*rest, " \t\r");
    bool blank = *after == '\n' || *after == '\0';
    if (blank)
        *rest = *after == '\n' ? after + 1 : after;
    if (include_span(x, file, blank ? line + 1 : line) != 0)
        return include_fail(x, file, line, "out of memory");
    return 0;
}

/* text, the contents of files[file] read at depth, into the expanded text. An included file
 * ends its last line, so that the text after it starts a line, as in libconfig. */
static int include_expand_text(struct include_expander *x, const char *text, int file, int depth)
{
    if (include_span(x, file, 1) != 0)
        return include_fail(x, file, 1, "out of memory");
    const char *at = text;
    for (int line = 1; *at; line++) {
        const char *eol = strchr(at, '\n');
        const char *end = eol ? eol + 1 : at + strlen(at);
        const char *quoted = x->lexer == INCLUDE_IN_CODE ? include_directive(at) : NULL;
        if (quoted && include_directive_line(x, file, line, quoted, depth, &at) != 0)
            return -1;
        bool end_line = !eol && depth > 0 && at < end;
        if (include_append(x, at, (size_t)(end - at)) != 0 ||
            (end_line && include_append(x, "\n", 1) != 0))
            return include_fail(x, file, line, "out of memory");
        include_scan(&x->lexer, &x->depth, at, end);
        at = end;
    }
    return 0;
}

int config_include_expand(const char *text, const char *name, struct config_include_text *out,
                          char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    struct include_expander x = {.out = out, .line = 1, .err = err, .err_len = err_len};
    struct stat st;
    if (stat(name, &st) == 0)
        x.open[0] = (struct include_open_file){st.st_dev, st.st_ino, true};
    int rc = include_add_file(&x, name) < 0 || include_append(&x, "", 0) != 0 ||
                     include_layer(&x, 0) != 0
                 ? -1
                 : 0;
    if (rc != 0)
        snprintf(err, err_len, "%s: out of memory", name);
    else
        rc = include_expand_text(&x, text, 0, 0);
    if (rc != 0)
        config_include_free(out);
    return rc;
}

void config_include_where(const struct config_include_text *x, int line, const char **file,
                          int *file_line)
{
    *file = x->n_files > 0 ? x->files[0] : NULL;
    *file_line = line;
    if (x->n_spans == 0 || line < x->spans[0].line)
        return;
    int lo = 0, hi = x->n_spans - 1; /* the last span starting at or before line */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (x->spans[mid].line <= line)
            lo = mid;
        else
            hi = mid - 1;
    }
    *file = x->files[x->spans[lo].file];
    *file_line = x->spans[lo].file_line + (line - x->spans[lo].line);
}

void config_include_free(struct config_include_text *x)
{
    for (int i = 0; i < x->n_files; i++)
        free(x->files[i]);
    free(x->files);
    free(x->spans);
    free(x->layers);
    free(x->text);
    memset(x, 0, sizeof *x);
}
