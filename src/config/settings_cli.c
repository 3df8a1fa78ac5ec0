/* settings_cli: `dfsim settings [--markdown | KEY]`. */
#define _XOPEN_SOURCE 700 /* readlink */
#include "settings_cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "settings.h"
#include "text_file.h"

const char settings_cli_synopsis[] = "       dfsim settings [--markdown | KEY]\n";

static const char settings_cli_help[] =
    "\n"
    "Without arguments, print every setting with its default as a complete config file; with\n"
    "--markdown, as the table of conf/SETTINGS.md; with KEY (e.g. routing.global_policy,\n"
    "jobs.load), that setting alone: its default, what it takes, who reads it, its meaning and\n"
    "the entries of conf/GLOSSARY.md that name it. An unknown KEY: exit 2 with the nearest\n"
    "names.\n";

struct settings_cli_file {
    const struct settings_group *group; /* the group being printed */
    const struct settings_list *list;   /* or the list */
};

/* One line of the config file; a group opens when the first of its settings comes. A list's
 * element is shown commented out (its defaults alone make no valid element). */
static int settings_cli_line(void *ctx, const struct setting_ref *r)
{
    struct settings_cli_file *f = ctx;
    char value[SETTING_STRING_LEN + 8], line[SETTING_STRING_LEN + 80];
    if (r->group && r->group != f->group) {
        printf("%s%s = {\n", f->group ? "};\n\n" : "", r->group->name);
        f->group = r->group;
    } else if (r->list && r->list != f->list) {
        printf("%s# %s = ( { ... }, ... ); each element:\n", f->group ? "};\n\n" : "",
               r->list->name);
        f->group = NULL;
        f->list = r->list;
    }
    settings_format_default(r->row, value, sizeof value);
    snprintf(line, sizeof line, "%s    %s = %s;", r->list ? "#" : "", r->row->name, value);
    printf("%-44s # %s%s%s\n", line, r->table->owner ? r->table->owner : "",
           r->table->owner ? ": " : "", r->row->doc);
    return 0;
}

/* The glossary beside the binary (the repository's conf/GLOSSARY.md), or NULL. Read at run
 * time, not copied into the binary: the entries stay the glossary's own words. */
static char *settings_cli_glossary(void)
{
    char exe[4096], path[4200], err[256];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    snprintf(path, sizeof path, "%s/conf/GLOSSARY.md", exe);
    if (access(path, R_OK) != 0)
        return NULL;
    size_t len;
    return text_file_read(path, &len, err, sizeof err);
}

/* The cell after the '|' at *start, up to end, without surrounding blanks: *start moves to
 * its first character; returns its length. */
static int settings_cli_trim(const char **start, const char *end)
{
    const char *s = *start + 1;
    while (s < end && *s == ' ')
        s++;
    while (end > s && end[-1] == ' ')
        end--;
    *start = s;
    return (int)(end - s);
}

/* The glossary's rows whose "in dfsim" column names KEY ("`routing.global_policy = ..."):
 * "TERM: MEANING" each; returns how many. */
static int settings_cli_print_glossary(const char *text, const char *key)
{
    char needle[200];
    snprintf(needle, sizeof needle, "`%s", key);
    int found = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *cols[4] = {NULL};
        int k = 0;
        for (const char *c = line; c < line + len && k < 4; c++)
            if (*c == '|')
                cols[k++] = c;
        if (len > 2 && line[0] == '|' && k == 4 && strncmp(line, "| term", 6) != 0) {
            bool names = false;
            for (const char *h = cols[2]; !names && (h = strstr(h, needle)) && h < cols[3];
                 h += strlen(needle)) {
                char next = h[strlen(needle)];
                names = next == '`' || next == ' ' || next == '=';
            }
            if (names) {
                int term = settings_cli_trim(&cols[0], cols[1]);
                int meaning = settings_cli_trim(&cols[1], cols[2]);
                printf("  %-9s%.*s: %.*s\n", found++ ? "" : "glossary", term, cols[0], meaning,
                       cols[1]);
            }
        }
        line = end ? end + 1 : NULL;
    }
    return found;
}

/* "jobs.load" and "jobs[].load" name the setting of every job. */
static int settings_cli_find(const char *key, struct setting_ref *r)
{
    if (settings_find_full(key, r) == 0)
        return 0;
    for (int l = 0; settings_lists[l]; l++) {
        size_t n = strlen(settings_lists[l]->name);
        if (strncmp(key, settings_lists[l]->name, n) != 0)
            continue;
        const char *rest = key + n;
        if (strncmp(rest, "[].", 3) == 0)
            rest += 3;
        else if (rest[0] == '.')
            rest += 1;
        else
            continue;
        if (settings_find_element(settings_lists[l], -1, rest, r) == 0)
            return 0;
    }
    return -1;
}

static int settings_cli_one(const char *key)
{
    struct setting_ref r;
    if (settings_cli_find(key, &r) != 0) {
        char problem[2048];
        config_unknown_setting(key, problem, sizeof problem);
        fprintf(stderr, "dfsim: settings: %s\n", problem);
        return 2;
    }
    char name[160], def[SETTING_STRING_LEN + 8], allowed[512], aliases[256] = "";
    settings_full_name(&r, name, sizeof name);
    settings_format_default(r.row, def, sizeof def);
    settings_allowed_text(r.row, allowed, sizeof allowed);
    if (r.row->type == SETTING_CHOICE)
        settings_aliases_text(r.row, true, aliases, sizeof aliases);
    printf("%s = %s;\n", name, def);
    printf("  %-9s%s%s\n", "default", def,
           r.row->quiet_default ? " (left out of documents and sweep hashes while at it)" : "");
    printf("  %-9s%s\n", "allowed", allowed);
    if (aliases[0])
        printf("  %-9s%s (conf/GLOSSARY.md)\n", "aliases", aliases);
    struct setting_ref chooser;
    if (r.list)
        printf("  read by  the jobs that read it (a job refuses a setting it does not read)\n");
    else if (!r.table->owner)
        printf("  read by  every run\n");
    else if (settings_chooser(r.group, &chooser) == 0) {
        char choice[160];
        settings_full_name(&chooser, choice, sizeof choice);
        printf("  read by  %s %s (else reported: conf/README.md)\n", choice, r.table->owner);
    }
    printf("  %-9s%s\n", "meaning", r.row->doc);
    char *glossary = settings_cli_glossary();
    if (!glossary)
        printf("  glossary see conf/GLOSSARY.md\n");
    else if (settings_cli_print_glossary(glossary, name) == 0)
        printf("  glossary no entry names it (conf/GLOSSARY.md)\n");
    free(glossary);
    return 0;
}

int settings_cli_main(int argc, char **argv)
{
    if (argc >= 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        printf("usage: dfsim settings [--markdown | KEY]\n%s", settings_cli_help);
        return 0;
    }
    if (argc == 3 && argv[2][0] != '-')
        return settings_cli_one(argv[2]);
    if (argc == 3 && strcmp(argv[2], "--markdown") == 0) {
        char *table = settings_markdown();
        if (!table) {
            fputs("dfsim: out of memory\n", stderr);
            return 1;
        }
        fputs(table, stdout);
        free(table);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr,
                "dfsim: settings: unknown argument '%s'\nusage: dfsim settings "
                "[--markdown | KEY]\n",
                argv[2]);
        return 2;
    }
    printf("# Every dfsim setting with its default: a complete config file (dfsim settings).\n"
           "# Settings of a plug-in (routing mechanism, pattern, topology kind) are read only\n"
           "# when it is chosen; the comment names it.\n\n");
    struct settings_cli_file f = {NULL, NULL};
    settings_each(settings_cli_line, &f);
    if (f.group)
        printf("};\n");
    return 0;
}
