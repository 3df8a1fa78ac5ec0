/* settings_cli: `dfsim settings`, the schema as a complete config file of defaults or as the
 * README's Markdown table. */
#ifndef DFSIM_SETTINGS_CLI_H
#define DFSIM_SETTINGS_CLI_H

extern const char settings_cli_synopsis[];

/* argv[1] is "settings"; returns the exit status. */
int settings_cli_main(int argc, char **argv);

#endif
