/* settings_cli: `dfsim settings [--markdown]`. */
#include "settings_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"

const char settings_cli_synopsis[] = "       dfsim settings [--markdown]\n";

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

int settings_cli_main(int argc, char **argv)
{
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
        fprintf(stderr, "dfsim: settings: unknown argument '%s'\nusage: dfsim settings "
                        "[--markdown]\n",
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
