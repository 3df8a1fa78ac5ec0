/* config_doc: the config a result document of `dfsim run` carries (its "config" member, every
 * setting resolved), read back as the text of a config file, so that `dfsim run RESULT.json`
 * reruns the point through the same loader, messages and checks as a config file.
 *
 * The text keeps the document's lines: each setting stays on the line of the document it is
 * written on, so a message about it names the document's line. JSON and libconfig differ
 * little: a key loses its quotes ("load": 0.4 is load : 0.4, which libconfig reads), a list
 * of objects ("jobs": [ {...} ]) becomes a libconfig list ( {...} ), and string escapes are
 * spelled as libconfig spells them. Integer literals stay as written, so that config.c
 * re-reads those over 32 bits exactly. */
#ifndef DFSIM_CONFIG_DOC_H
#define DFSIM_CONFIG_DOC_H

#include <stdbool.h>
#include <stddef.h>

/* Whether text, the contents of the file at path, is JSON rather than a config: its name ends
 * in ".json" or its first character other than a blank is '{' or '[' (a config starts with a
 * name, a comment or an @include). */
bool config_doc_is_json(const char *path, const char *text);

/* The config of the result document text (read from path) as config text, line for line:
 * *out (caller frees) holds the groups and lists of its "config" member, and name (name_len
 * bytes) its "name". Returns 0, or -1 with "PATH[:LINE]: problem (expected ...)" in err: text
 * that is not JSON, JSON that is not the result document of one dfsim run (a sweep document
 * says so), a document of another schema, a value no config can hold (null). */
int config_doc_read(const char *path, const char *text, char **out, char *name, size_t name_len,
                    char *err, size_t err_len);

#endif
