/* config_include: the @include directives of dfsim's config files (sweep files take none:
 * see sweep.c).
 *
 * libconfig 1.5 resolves `@include "NAME"` against the include directory (the including
 * file's directory for dfsim) and opens whatever is there: given a directory it ends the
 * process from inside its scanner ("input in flex scanner failed", exit 2), given a FIFO it
 * blocks, and an unterminated name is silently ignored. dfsim checks every directive before
 * libconfig reads the text, so bad input gets a message with file and line instead. */
#ifndef DFSIM_CONFIG_INCLUDE_H
#define DFSIM_CONFIG_INCLUDE_H

#include <stddef.h>

/* Writes into dir (len bytes) the directory whose files `@include` resolves against for a
 * file at path: its directory, "/" for a file at the root, "." for a bare name. */
void config_include_dir_of(const char *path, char *dir, size_t len);

/* Checks the @include directives of text (the contents of the file called name) and, in
 * turn, of the files they name that exist: every such name is terminated on its line and
 * resolves (against include_dir, as libconfig does) to a missing file or a regular one. A missing
 * or unreadable file is left to libconfig, which reports it cleanly. Returns 0, or -1 with
 * "NAME:LINE: @include ...: problem (expected ...)" in err. */
int config_include_check(const char *text, const char *name, const char *include_dir, char *err,
                         size_t err_len);

#endif
