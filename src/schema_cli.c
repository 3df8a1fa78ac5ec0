/* schema_cli: `dfsim schema --json | --markdown`: prints the result document's table. */
#include "schema_cli.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "result_schema.h"
#include "version.h"

enum schema_cli_exit { SCHEMA_EXIT_OK = 0, SCHEMA_EXIT_FAILED = 1, SCHEMA_EXIT_BAD_INPUT = 2 };

static const char schema_cli_usage[] = "usage: dfsim schema --json | --markdown\n";

static const char schema_cli_help[] =
    "Prints the table the result document is rendered from: its sections and fields, their\n"
    "JSON types, units and meanings, and the key figures sweep.json keeps.\n"
    "  --json      as JSON (what plots/result_schema.json holds)\n"
    "  --markdown  as the Markdown table of results/README.md\n";

/* ---- JSON ---- */

#define SCHEMA_CLI_SECTIONS_MAX 64

/* The sections of the document in order of first use, each once. */
struct schema_cli_sections {
    const struct result_section *items[SCHEMA_CLI_SECTIONS_MAX];
    int n;
};

static void schema_cli_sections_add(struct schema_cli_sections *list,
                                    const struct result_section *section)
{
    for (int i = 0; i < list->n; i++)
        if (list->items[i] == section)
            return;
    if (list->n < SCHEMA_CLI_SECTIONS_MAX)
        list->items[list->n++] = section;
}

static int schema_cli_collect_section(void *ctx, const char *path, const struct result_field *f)
{
    (void)path;
    if (f->type == RESULT_OBJECT || f->type == RESULT_OBJECT_ARRAY)
        schema_cli_sections_add(ctx, f->section);
    return 0;
}

static cJSON *schema_cli_string_or_null(const char *text)
{
    return text ? cJSON_CreateString(text) : cJSON_CreateNull();
}

/* {"sweep_rank", "averaged", "nulls_key"} added to obj. */
static bool schema_cli_add_figure_use(cJSON *obj, const struct result_figure *figure)
{
    cJSON *nulls_key = schema_cli_string_or_null(figure->nulls_key);
    bool ok = cJSON_AddNumberToObject(obj, "sweep_rank", figure->sweep_rank) &&
              cJSON_AddBoolToObject(obj, "averaged", figure->averaged) && nulls_key &&
              cJSON_AddItemToObject(obj, "nulls_key", nulls_key);
    if (!ok && nulls_key && !cJSON_GetObjectItemCaseSensitive(obj, "nulls_key"))
        cJSON_Delete(nulls_key);
    return ok;
}

static bool schema_cli_add_field_figure(cJSON *field, const struct result_figure *figure)
{
    cJSON *obj = cJSON_AddObjectToObject(field, "figure");
    return obj && cJSON_AddStringToObject(obj, "name", figure->name) &&
           schema_cli_add_figure_use(obj, figure);
}

static bool schema_cli_add_field(cJSON *fields, const struct result_field *f)
{
    cJSON *field = cJSON_CreateObject();
    if (!field || !cJSON_AddItemToArray(fields, field)) {
        cJSON_Delete(field);
        return false;
    }
    bool ok = cJSON_AddStringToObject(field, "key", f->key) &&
              cJSON_AddStringToObject(field, "type", result_type_name(f->type)) &&
              cJSON_AddStringToObject(field, "unit", f->unit) &&
              cJSON_AddStringToObject(field, "meaning", f->meaning);
    if (ok && (f->type == RESULT_OBJECT || f->type == RESULT_OBJECT_ARRAY))
        ok = cJSON_AddStringToObject(field, "section", f->section->name) != NULL;
    if (ok && f->absent_meaning)
        ok = cJSON_AddStringToObject(field, "absent", f->absent_meaning) != NULL;
    if (ok && f->measured)
        ok = cJSON_AddTrueToObject(field, "measured") != NULL;
    if (ok && f->figure.name)
        ok = schema_cli_add_field_figure(field, &f->figure);
    return ok;
}

static bool schema_cli_add_section(cJSON *sections, const struct result_section *s)
{
    cJSON *section = cJSON_CreateObject();
    if (!section || !cJSON_AddItemToArray(sections, section)) {
        cJSON_Delete(section);
        return false;
    }
    cJSON *fields = cJSON_AddStringToObject(section, "name", s->name) &&
                            cJSON_AddStringToObject(section, "reads", s->reads)
                        ? cJSON_AddArrayToObject(section, "fields")
                        : NULL;
    bool ok = fields != NULL;
    for (int i = 0; ok && i < s->n_fields; i++)
        ok = schema_cli_add_field(fields, &s->fields[i]);
    return ok;
}

static bool schema_cli_add_figure(cJSON *figures, const struct result_figure_at *at)
{
    cJSON *figure = cJSON_CreateObject();
    if (!figure || !cJSON_AddItemToArray(figures, figure)) {
        cJSON_Delete(figure);
        return false;
    }
    return cJSON_AddStringToObject(figure, "name", at->figure->name) &&
           cJSON_AddStringToObject(figure, "path", at->path) &&
           schema_cli_add_figure_use(figure, at->figure);
}

static bool schema_cli_add_sections(cJSON *doc)
{
    struct schema_cli_sections list = {.n = 0};
    schema_cli_sections_add(&list, &result_schema_document);
    result_schema_walk(&result_schema_document, schema_cli_collect_section, &list);
    cJSON *sections = cJSON_AddArrayToObject(doc, "sections");
    bool ok = sections != NULL;
    for (int i = 0; ok && i < list.n; i++)
        ok = schema_cli_add_section(sections, list.items[i]);
    return ok;
}

/* "figures" (the document's) or "job_figures" (paths within a job's object). */
static bool schema_cli_add_figures(cJSON *doc, const char *key,
                                   void (*collect)(struct result_figures *))
{
    struct result_figures figures;
    collect(&figures);
    cJSON *list = cJSON_AddArrayToObject(doc, key);
    bool ok = list != NULL;
    for (int i = 0; ok && i < figures.n; i++)
        ok = schema_cli_add_figure(list, &figures.items[i]);
    return ok;
}

char *schema_cli_json(void)
{
    cJSON *doc = cJSON_CreateObject();
    bool ok = doc && cJSON_AddNumberToObject(doc, "schema", DFSIM_SCHEMA) &&
              schema_cli_add_sections(doc) &&
              schema_cli_add_figures(doc, "figures", result_schema_figures) &&
              schema_cli_add_figures(doc, "job_figures", result_schema_job_figures);
    char *text = ok ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    return text;
}

/* ---- Markdown ---- */

/* A table cell: the text with its pipes escaped. */
static void schema_cli_cell(FILE *out, const char *text)
{
    for (; *text; text++) {
        if (*text == '|')
            fputc('\\', out);
        fputc(*text, out);
    }
}

/* Where sweep.json uses a figure: "`name` (points, groups; nulls counted as `starved`)", or
 * "`name` (plot scripts only)". */
static void schema_cli_figure_cell(FILE *out, const struct result_figure *figure)
{
    if (!figure->name)
        return;
    fprintf(out, "`%s` (", figure->name);
    if (!figure->sweep_rank)
        fputs("plot scripts only", out);
    else
        fprintf(out, "points%s", figure->averaged ? ", groups" : "");
    if (figure->sweep_rank && figure->nulls_key)
        fprintf(out, "; nulls counted as `%s`", figure->nulls_key);
    fputc(')', out);
}

static int schema_cli_markdown_row(void *ctx, const char *path, const struct result_field *f)
{
    FILE *out = ctx;
    fprintf(out, "| `%s` | %s | %s | ", path, result_type_name(f->type), f->unit);
    schema_cli_cell(out, f->meaning);
    if (f->absent_meaning) {
        fputs(" (absent ", out);
        schema_cli_cell(out, f->absent_meaning);
        fputc(')', out);
    }
    fputs(" | ", out);
    schema_cli_figure_cell(out, &f->figure);
    fputs(" |\n", out);
    return 0;
}

char *schema_cli_markdown(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    fputs("| key | type | unit | meaning | figure (sweep.json) |\n|---|---|---|---|---|\n", out);
    result_schema_walk(&result_schema_document, schema_cli_markdown_row, out);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* ---- the command ---- */

static const struct cli_usage schema_cli_bad = {"schema: ", "", schema_cli_usage,
                                                "dfsim schema --help"};

int schema_cli_main(int argc, char **argv)
{
    if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        fputs(schema_cli_usage, stdout);
        fputs(schema_cli_help, stdout);
        return SCHEMA_EXIT_OK;
    }
    if (argc < 3)
        return cli_bad_usage(&schema_cli_bad, "missing --json or --markdown");
    bool json = strcmp(argv[2], "--json") == 0;
    if (!json && strcmp(argv[2], "--markdown") != 0)
        return cli_bad_usage(&schema_cli_bad, "unknown option '%s'", argv[2]);
    if (argc > 3)
        return cli_bad_usage(&schema_cli_bad, "unexpected argument '%s'", argv[3]);
    char *text = json ? schema_cli_json() : schema_cli_markdown();
    if (!text) {
        fputs("dfsim: schema: out of memory\n", stderr);
        return SCHEMA_EXIT_FAILED;
    }
    /* The Markdown table ends with a newline already; JSON gets one, as result files do. */
    fputs(text, stdout);
    if (json)
        fputc('\n', stdout);
    free(text);
    return fflush(stdout) == 0 ? SCHEMA_EXIT_OK : SCHEMA_EXIT_FAILED;
}
