/* text_file: reads a whole configuration text (config, sweep or included file) at once, and
 * keeps the messages about it on one line. */
#include "text_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A NUL byte ends the text for libconfig: report its line and offset instead. */
static int text_file_check_nul(const char *path, const char *text, size_t len, char *err,
                               size_t err_len)
{
    size_t nul = strlen(text);
    if (nul == len)
        return 0;
    int line = 1;
    for (size_t i = 0; i < nul; i++)
        line += text[i] == '\n';
    snprintf(err, err_len, "%s:%d: NUL byte at offset %zu (expected a text file)", path, line, nul);
    return -1;
}

char *text_file_read(const char *path, size_t *len, char *err, size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, used = 0;
    char *text = malloc(cap);
    while (text) {
        used += fread(text + used, 1, cap - 1 - used, f);
        if (used < cap - 1 || cap >= TEXT_FILE_MAX_BYTES)
            break;
        char *bigger = realloc(text, cap * 2);
        if (!bigger)
            free(text);
        text = bigger;
        cap *= 2;
    }
    int error = ferror(f) ? errno : 0;
    fclose(f);
    if (!text || error || used >= cap - 1) {
        snprintf(err, err_len, "%s: cannot read: %s", path,
                 error  ? strerror(error)
                 : text ? "larger than 16 MiB"
                        : "out of memory");
        free(text);
        return NULL;
    }
    text[used] = '\0';
    if (text_file_check_nul(path, text, used, err, err_len) != 0) {
        free(text);
        return NULL;
    }
    *len = used;
    return text;
}

void text_one_line(char *msg, size_t len)
{
    char *copy = strdup(msg);
    if (!copy)
        return;
    size_t used = 0;
    for (const unsigned char *c = (const unsigned char *)copy; *c; c++) {
        char piece[8] = {(char)*c, '\0'};
        if (*c == '\n')
            snprintf(piece, sizeof piece, "\\n");
        else if (*c == '\t')
            snprintf(piece, sizeof piece, "\\t");
        else if (*c < 0x20 || *c == 0x7f)
            snprintf(piece, sizeof piece, "\\x%02x", *c);
        size_t n = strlen(piece);
        if (used + n >= len)
            break;
        memcpy(msg + used, piece, n);
        used += n;
    }
    msg[used] = '\0';
    free(copy);
}

void text_file_folder(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else
        snprintf(dir, len, "%.*s", (int)(slash == path ? 1 : slash - path), path);
}

/* The lines of TEXT that belong to COMMAND: an entry starts at a line of `indent` blanks and
 * `lead` then a command ("       dfsim sweep", "  merge") and goes on until the next entry. */
void text_print_entries(FILE *out, const char *text, int indent, const char *lead,
                        const char *command)
{
    bool mine = false;
    size_t lead_len = strlen(lead), n = strlen(command);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        const char *word = line;
        while (*word == ' ')
            word++;
        if (word - line == indent && strncmp(word, lead, lead_len) == 0) {
            const char *name = word + lead_len;
            mine = strncmp(name, command, n) == 0 && name[n] == ' ';
        }
        if (mine)
            fwrite(line, 1, len, out);
        line += len;
    }
}
