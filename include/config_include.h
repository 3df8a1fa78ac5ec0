/* config_include: expands the @include directives of dfsim's config files into one text, so
 * libconfig never opens a file itself (sweep files take none: see sweep.c).
 *
 * libconfig 1.5 resolves `@include "NAME"` against one include directory for every file,
 * drops the leading '/' of an absolute NAME, ends the process from inside its scanner on a
 * directory, blocks on a FIFO and ignores an unterminated name; it has no hook to open files
 * another way (config_set_include_func came in 1.7). dfsim follows each directive itself:
 * NAME is an absolute path or one relative to the folder of the file holding the directive,
 * and that file's text replaces the directive's line. Every line of the result remembers the
 * file and line it was written at, for messages.
 *
 * Layers: an @include at the top level of a file (outside any group or list) includes a base
 * that the settings after it may set again. libconfig refuses a name given twice in one text,
 * so the text is cut into layers that libconfig reads one after the other: a file's text up
 * to such a directive, the included file's (cut in turn), the file's text after it. An
 * @include inside a group, or of a file that leaves a comment, string or group open, is read
 * as part of the text around it, as before. */
#ifndef DFSIM_CONFIG_INCLUDE_H
#define DFSIM_CONFIG_INCLUDE_H

#include <stddef.h>

struct config_include_span; /* a run of lines of the text copied from one file */

/* A part of the text that libconfig reads on its own; it ends where the next one starts. */
struct config_include_layer {
    size_t offset; /* of its first byte in the text (always the start of a line) */
    int line;      /* the line of the text it starts on */
    int reading;   /* which reading of a file it holds: the parts of one file's text share it
                    * (0: the config itself); a file included twice is read twice */
};

/* A config file with its includes expanded. Zeroed, it holds nothing (config_include_free
 * accepts it). */
struct config_include_text {
    char *text; /* NUL-terminated: what libconfig parses */
    size_t len;
    char **files; /* the files read: [0] the config as named, then each included path */
    int n_files;
    struct config_include_span *spans; /* in order of the text's lines */
    int n_spans;
    struct config_include_layer *layers; /* in order of the text; at least one */
    int n_layers;
};

/* Expands the @include directives of text (the contents of the config file called name) into
 * out where libconfig 1.5 would see them: a line starting `@include "NAME"` (blanks before
 * and between, \\ and \" the only escapes) outside comments and strings. The included text
 * replaces the directive, its last line ended; what follows the closing quote (a comment, or
 * any text) is read after it, on a line of its own, as libconfig does. Refused: an
 * unterminated name, a second directive on the line, a path naming no readable regular file,
 * more than 10 levels of nesting, a file including itself (directly or through others), more
 * than 1,000 included files in all, an expanded text over 16 MiB. Returns 0, or -1 with out
 * zeroed and "FILE:LINE: @include: problem (expected ...)" in err (err_len bytes). */
int config_include_expand(const char *text, const char *name, struct config_include_text *out,
                          char *err, size_t err_len);

/* Where line `line` of x->text was written: *file (one of x->files, or NULL if x holds no
 * file) and its *file_line there. */
void config_include_where(const struct config_include_text *x, int line, const char **file,
                          int *file_line);

/* Frees what x holds and zeroes it. */
void config_include_free(struct config_include_text *x);

#endif
