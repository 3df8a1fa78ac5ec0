/* text_file: reads a whole configuration text (config, sweep or included file) at once, and
 * keeps the messages about it on one line. */
#ifndef DFSIM_TEXT_FILE_H
#define DFSIM_TEXT_FILE_H

#include <stddef.h>
#include <stdio.h>

#define TEXT_FILE_MAX_BYTES (16 << 20) /* a larger config is a mistake (or /dev/zero) */

/* Reads the file at path into a NUL-terminated buffer (caller frees); *len gets its length.
 * Returns NULL with the problem in err (err_len bytes, one line):
 *   "PATH: cannot read: WHY" (cannot open, a read error such as a directory, larger than
 *   16 MiB, out of memory) or "PATH:LINE: NUL byte at offset N (expected a text file ...)",
 *   since libconfig would stop reading there and silently ignore the rest. */
char *text_file_read(const char *path, size_t *len, char *err, size_t err_len);

/* Messages quote what the user wrote (a --set argument, a string value, a file name), which
 * may hold a newline or other control characters: spells them out in place (\n, \t, \xHH)
 * so the message stays one printable line of at most len - 1 bytes. */
void text_one_line(char *msg, size_t len);

/* The folder of the file at path, as a prefix for names relative to it: "/" for a file at
 * the root, "." for a bare name. */
void text_file_folder(const char *path, char *dir, size_t len);

/* Help texts: writes to out the lines of text that belong to command. An entry starts at a
 * line of `indent` blanks, `lead`, then a command and a blank ("       dfsim sweep ...",
 * "  merge  ...") and goes on until the next entry starts. */
void text_print_entries(FILE *out, const char *text, int indent, const char *lead,
                        const char *command);

#endif
