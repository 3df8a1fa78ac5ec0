/* schema_cli: the command `dfsim schema`: the result document's table (result_schema.h) as
 * JSON, for the plot scripts (plots/result_schema.json), or as the README's Markdown table. */
#ifndef DFSIM_SCHEMA_CLI_H
#define DFSIM_SCHEMA_CLI_H

/* Runs `dfsim schema --json | --markdown` (argv[1] is "schema"). Returns the exit status:
 * 0 success, 1 out of memory, 2 bad command line. */
int schema_cli_main(int argc, char **argv);

/* {"schema", "sections": [{"name", "reads", "fields": [{"key", "type", "unit", "meaning",
 * ["section"], ["measured"], ["figure": {"name", "sweep_rank", "averaged", "nulls_key"}]}]}],
 * "figures": [{"name", "path", "sweep_rank", "averaged", "nulls_key"}]}, sections in order of
 * first use, the document first. Caller frees; NULL on allocation failure. */
char *schema_cli_json(void);

/* The Markdown table of every field by dotted path, as in the README. Caller frees; NULL on
 * allocation failure. */
char *schema_cli_markdown(void);

#endif
