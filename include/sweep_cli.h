/* sweep_cli: the commands `dfsim sweep`, `dfsim merge` and `dfsim saturation`. */
#ifndef DFSIM_SWEEP_CLI_H
#define DFSIM_SWEEP_CLI_H

#include <stdbool.h>

/* Whether COMMAND is one of this module's commands. */
bool sweep_cli_handles(const char *command);

/* Runs `dfsim COMMAND ...` (argv[1] is the command). Returns the exit status: 0 success,
 * 1 a point failed or output not writable, 2 bad input (nothing run). */
int sweep_cli_main(int argc, char **argv);

/* The lines of these commands in `dfsim --help`. */
extern const char sweep_cli_synopsis[];
extern const char sweep_cli_help[];

#endif
