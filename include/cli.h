/* cli: what the subcommands' command lines share: the message for bad usage and the value of
 * an option. */
#ifndef DFSIM_CLI_H
#define DFSIM_CLI_H

#define CLI_EXIT_BAD_INPUT 2

/* How a command describes its usage when the command line is wrong. */
struct cli_usage {
    const char *prefix;   /* after "dfsim: ": "" or "schema: " */
    const char *heading;  /* before the synopsis: "" or "usage:\n" */
    const char *synopsis; /* its lines, each ending with a line break */
    const char *help;     /* the command that explains more: "dfsim --help" */
};

/* Prints "dfsim: PREFIX MESSAGE", the synopsis and where to read more on stderr; returns
 * CLI_EXIT_BAD_INPUT. */
int cli_bad_usage(const struct cli_usage *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Matches OPTION VALUE, OPTION=VALUE (long form) or SHORT VALUE (shortname may be NULL) at
 * argv[*i]; returns 1 and sets *value (NULL if missing), or 0 if argv[*i] is another option. */
int cli_option_value(char **argv, int argc, int *i, const char *shortname, const char *longname,
                     const char **value);

#endif
