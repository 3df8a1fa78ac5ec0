/* cli: the bad-usage message and option values every subcommand parses the same way. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cli_bad_usage(const struct cli_usage *u, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "dfsim: %s", u->prefix);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s%sTry '%s' for more information.\n", u->heading, u->synopsis, u->help);
    return CLI_EXIT_BAD_INPUT;
}

int cli_option_value(char **argv, int argc, int *i, const char *shortname, const char *longname,
                     const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(longname);
    if (strncmp(arg, longname, n) == 0 && arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (strcmp(arg, longname) != 0 && (!shortname || strcmp(arg, shortname) != 0))
        return 0;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}
