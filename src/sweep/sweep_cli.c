/* sweep_cli: command lines of `dfsim sweep`, `dfsim merge` and `dfsim saturation`. */
#include "sweep_cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "slurm.h"
#include "sweep.h"
#include "sweep_doc.h"
#include "sweep_merge.h"
#include "sweep_pool.h"
#include "sweep_run.h"
#include "sweep_sync.h"
#include "text_file.h"

enum sweep_cli_exit { SWEEP_EXIT_OK = 0, SWEEP_EXIT_FAILED = 1, SWEEP_EXIT_BAD_INPUT = 2 };

#define SWEEP_CLI_HELP_EXIT (-1) /* --help printed: exit 0 */

/* The most warm-up extensions --extend-warmup takes (the setting's range). */
enum { SWEEP_CLI_EXTEND_MAX = 20 };

/* The parsed command line. */
struct sweep_cli {
    const char *command, *input, *output, *self;
    int jobs, per_task, task_index;
    bool list, slurm, dry_run, quiet, has_tolerance, has_resolution;
    int extend_warmup; /* --extend-warmup N: stats.extend_warmup for every point (0: none) */
    const char *partition, *time;
    const char **sets;
    int n_sets;
    double tolerance, resolution;
};

const char sweep_cli_synopsis[] =
    "       dfsim sweep SWEEP [--jobs N] [-o DIR] [--list] [--quiet] [--extend-warmup N]\n"
    "       dfsim sweep SWEEP --slurm [--partition P] [--time T] [--points-per-task K]\n"
    "                   [--dry-run] [-o DIR] [--quiet]\n"
    "       dfsim merge DIR\n"
    "       dfsim saturation CONFIG [--set KEY=VALUE]... [--tolerance T] [--resolution R]\n"
    "                   [-o DIR] [--quiet]\n";

const char sweep_cli_help[] =
    "  sweep       run every point of a sweep file (a grid of axes x variants, see "
    "src/sweep/README.md)\n"
    "              in N worker processes (--jobs, default: the number of cores), or as one\n"
    "              Slurm job array (--slurm); points already in DIR (default\n"
    "              results/<sweep name>/) are skipped, then DIR/sweep.json is rebuilt;\n"
    "              --list prints the points without running them; --dry-run (with --slurm)\n"
    "              only writes DIR/slurm.sbatch; --extend-warmup N reruns a point that is not\n"
    "              steady with a longer warm-up, up to N times (= stats.extend_warmup = N in\n"
    "              the sweep file's set; the points need stats.sample_cycles > 0)\n"
    "  merge       rebuild DIR/sweep.json from the point documents of DIR\n"
    "  saturation  bisection over traffic.load for the highest load whose accepted load is\n"
    "              within --tolerance (default 0.05) of the offered one, on multiples of\n"
    "              --resolution (default 0.01); prints the load and writes every point run\n"
    "              into DIR (default results/saturation-<config name>/)\n";

bool sweep_cli_handles(const char *command)
{
    return strcmp(command, "sweep") == 0 || strcmp(command, "merge") == 0 ||
           strcmp(command, "saturation") == 0;
}

static const struct cli_usage sweep_cli_bad = {"", "usage:\n", sweep_cli_synopsis,
                                               "dfsim --help"};

/* ---- parsing ---- */

static int sweep_cli_int(const char *option, const char *text, int min, int *out)
{
    char *end;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || !*text || *end || errno || v < min || v > INT_MAX)
        return cli_bad_usage(&sweep_cli_bad, "%s needs an integer >= %d (got '%s')", option, min,
                               text ? text : "nothing");
    *out = (int)v;
    return SWEEP_EXIT_OK;
}

static int sweep_cli_fraction(const char *option, const char *text, double *out)
{
    char *end;
    double v = text ? strtod(text, &end) : 0;
    if (!text || !*text || *end || !(v > 0 && v <= 0.5))
        return cli_bad_usage(&sweep_cli_bad, "%s needs a number in (0, 0.5] (got '%s')", option,
                               text ? text : "nothing");
    *out = v;
    return SWEEP_EXIT_OK;
}

static int sweep_cli_string(const char *option, const char *text, const char **out)
{
    if (!text || !*text)
        return cli_bad_usage(&sweep_cli_bad, "%s needs a value", option);
    *out = text;
    return SWEEP_EXIT_OK;
}

/* Options of `sweep`; returns 1 if argv[*i] is not one of them. */
static int sweep_cli_sweep_option(char **argv, int argc, int *i, struct sweep_cli *cli)
{
    const char *arg = argv[*i], *v;
    if (cli_option_value(argv, argc, i, "-j", "--jobs", &v))
        return sweep_cli_int(arg, v, 1, &cli->jobs);
    if (cli_option_value(argv, argc, i, NULL, "--points-per-task", &v))
        return sweep_cli_int(arg, v, 1, &cli->per_task);
    if (cli_option_value(argv, argc, i, NULL, "--task-index", &v))
        return sweep_cli_int(arg, v, 0, &cli->task_index);
    if (cli_option_value(argv, argc, i, NULL, "--partition", &v))
        return sweep_cli_string(arg, v, &cli->partition);
    if (cli_option_value(argv, argc, i, NULL, "--extend-warmup", &v)) {
        int rc = sweep_cli_int(arg, v, 1, &cli->extend_warmup);
        if (rc == SWEEP_EXIT_OK && cli->extend_warmup > SWEEP_CLI_EXTEND_MAX)
            return cli_bad_usage(&sweep_cli_bad, "%s needs an integer in [1, %d] (got '%s')", arg,
                                   SWEEP_CLI_EXTEND_MAX, v);
        return rc;
    }
    if (cli_option_value(argv, argc, i, NULL, "--time", &v))
        return sweep_cli_string(arg, v, &cli->time);
    bool *flag = strcmp(arg, "--list") == 0      ? &cli->list
                 : strcmp(arg, "--slurm") == 0   ? &cli->slurm
                 : strcmp(arg, "--dry-run") == 0 ? &cli->dry_run
                                                 : NULL;
    if (!flag)
        return 1;
    *flag = true;
    return SWEEP_EXIT_OK;
}

/* Options of `saturation`; returns 1 if argv[*i] is not one of them. */
static int sweep_cli_saturation_option(char **argv, int argc, int *i, struct sweep_cli *cli)
{
    const char *arg = argv[*i], *v;
    if (cli_option_value(argv, argc, i, "-s", "--set", &v)) {
        if (!v)
            return cli_bad_usage(&sweep_cli_bad, "%s needs KEY=VALUE", arg);
        cli->sets[cli->n_sets++] = v;
        return SWEEP_EXIT_OK;
    }
    if (cli_option_value(argv, argc, i, NULL, "--tolerance", &v)) {
        cli->has_tolerance = true;
        return sweep_cli_fraction(arg, v, &cli->tolerance);
    }
    if (cli_option_value(argv, argc, i, NULL, "--resolution", &v)) {
        cli->has_resolution = true;
        return sweep_cli_fraction(arg, v, &cli->resolution);
    }
    return 1;
}

/* `dfsim COMMAND --help`: the command's own usage and description. */
static void sweep_cli_print_help(const char *command)
{
    printf("usage:\n");
    text_print_entries(stdout, sweep_cli_synopsis, 7, "dfsim ", command);
    printf("\n");
    text_print_entries(stdout, sweep_cli_help, 2, "", command);
    printf("\nExit status: 0 when every point succeeded, 1 if one failed, 2 bad input.\n");
}

/* Options shared by the commands, then the command's own; returns 1 if unknown. */
static int sweep_cli_option(char **argv, int argc, int *i, struct sweep_cli *cli)
{
    const char *arg = argv[*i], *v;
    bool merge = strcmp(cli->command, "merge") == 0;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
        sweep_cli_print_help(cli->command);
        return SWEEP_CLI_HELP_EXIT;
    }
    if (!merge && (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0)) {
        cli->quiet = true;
        return SWEEP_EXIT_OK;
    }
    if (!merge && cli_option_value(argv, argc, i, "-o", "--output", &v))
        return sweep_cli_string(arg, v, &cli->output);
    if (strcmp(cli->command, "sweep") == 0)
        return sweep_cli_sweep_option(argv, argc, i, cli);
    if (strcmp(cli->command, "saturation") == 0)
        return sweep_cli_saturation_option(argv, argc, i, cli);
    return 1;
}

static int sweep_cli_check(const struct sweep_cli *cli)
{
    static const char *const what[] = {"sweep",
                                       "SWEEP (a sweep file such as "
                                       "conf/sweeps/example.cfg)",
                                       "merge",
                                       "DIR (a sweep's output directory)",
                                       "saturation",
                                       "CONFIG (a config file such as "
                                       "conf/default.cfg)"};
    for (int k = 0; k < 6 && !cli->input; k += 2)
        if (strcmp(cli->command, what[k]) == 0)
            return cli_bad_usage(&sweep_cli_bad, "%s: missing %s", cli->command, what[k + 1]);
    if (!cli->slurm &&
        (cli->partition || cli->time || cli->dry_run || (cli->per_task && cli->task_index < 0)))
        return cli_bad_usage(&sweep_cli_bad, "sweep: --partition, --time, --points-per-task and --dry-run go "
                               "with --slurm");
    if (cli->task_index >= 0 && !cli->per_task)
        return cli_bad_usage(&sweep_cli_bad, "sweep: --task-index needs --points-per-task");
    if (cli->list && (cli->slurm || cli->task_index >= 0))
        return cli_bad_usage(&sweep_cli_bad, "sweep: --list runs nothing: it goes alone");
    return SWEEP_EXIT_OK;
}

static int sweep_cli_parse(int argc, char **argv, struct sweep_cli *cli)
{
    bool positional_only = false;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (positional_only || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (cli->input)
                return cli_bad_usage(&sweep_cli_bad, "%s: unexpected argument '%s'", cli->command, arg);
            cli->input = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            positional_only = true;
            continue;
        }
        int rc = sweep_cli_option(argv, argc, &i, cli);
        if (rc == 1)
            return cli_bad_usage(&sweep_cli_bad, "%s: unknown option '%s'", cli->command, arg);
        if (rc != SWEEP_EXIT_OK)
            return rc;
    }
    return sweep_cli_check(cli);
}

/* ---- shared steps ---- */

static int sweep_cli_prepare(struct sweep *sw, struct sweep_grid *grid)
{
    char err[SWEEP_ERROR_LEN];
    if (sweep_expand(sw, grid, err) == 0) {
        /* once for the whole sweep, not per point */
        for (int i = 0; i < grid->warnings.count; i++)
            if (strncmp(grid->warnings.lines[i], "warning: ", 9) == 0)
                fprintf(stderr, "dfsim: %s (in the points of %s)\n", grid->warnings.lines[i],
                        sw->path);
        return SWEEP_EXIT_OK;
    }
    fprintf(stderr, "%s\n", err);
    return SWEEP_EXIT_BAD_INPUT;
}

static void sweep_cli_dir(const struct sweep_cli *cli, const struct sweep *sw, char *dir,
                          size_t len)
{
    if (cli->output)
        snprintf(dir, len, "%s", cli->output);
    else
        snprintf(dir, len, "results/%s", sw->name);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
}

static int sweep_cli_mkdir(const char *dir)
{
    if (sweep_doc_mkdirs(dir) == 0 && access(dir, W_OK) == 0)
        return SWEEP_EXIT_OK;
    fprintf(stderr, "dfsim: cannot create or write %s: %s\n", dir, strerror(errno));
    return SWEEP_EXIT_FAILED;
}

/* Moves stale documents away and updates kept ones (see sweep_sync.h). */
static int sweep_cli_sync(const struct sweep *sw, const struct sweep_grid *grid, const char *dir,
                          bool quiet)
{
    struct sweep_sync_report rep;
    char err[SWEEP_PATH_LEN + 256];
    if (sweep_sync(sw, grid, dir, &rep, err, sizeof err) != 0) {
        fprintf(stderr, "dfsim: %s\n", err);
        return SWEEP_EXIT_FAILED;
    }
    if (!quiet && rep.stale)
        fprintf(stderr,
                "dfsim: %d documents of points no longer in the sweep moved to "
                "%s/.stale/\n",
                rep.stale, dir);
    if (!quiet && rep.restored)
        fprintf(stderr, "dfsim: %d documents brought back from %s/.stale/\n", rep.restored, dir);
    if (!quiet && rep.migrated)
        fprintf(stderr,
                "dfsim: %d documents of an earlier dfsim kept: renamed after their point's "
                "current hash\n",
                rep.migrated);
    return SWEEP_EXIT_OK;
}

/* The jobs without results in dir; returns their count (or -1 out of memory). */
static int sweep_cli_missing(const struct sweep *sw, const struct sweep_grid *grid, const char *dir,
                             int **missing)
{
    *missing = malloc((size_t)(grid->n_jobs > 0 ? grid->n_jobs : 1) * sizeof **missing);
    if (!*missing) {
        fprintf(stderr, "dfsim: out of memory\n");
        return -1;
    }
    int n = 0;
    for (int j = 0; j < grid->n_jobs; j++)
        if (!sweep_run_done(sw, grid, j, dir))
            (*missing)[n++] = j;
    return n;
}

static int sweep_cli_merge_dir(const char *dir, const char *name)
{
    int merged;
    char err[SWEEP_PATH_LEN + 256];
    if (sweep_merge(dir, name, &merged, err, sizeof err) == 0)
        return SWEEP_EXIT_OK;
    fprintf(stderr, "dfsim: %s\n", err);
    return SWEEP_EXIT_FAILED;
}

/* ---- sweep ---- */

static void sweep_cli_list(const struct sweep *sw, const struct sweep_grid *grid, const char *dir)
{
    int done = 0;
    char point[512];
    printf("# sweep %s: %d points; index, status in %s/, variant, values, file\n", sw->name,
           grid->n_jobs, dir);
    for (int j = 0; j < grid->n_jobs; j++) {
        const struct sweep_job *job = &grid->jobs[j];
        bool ok = sweep_run_done(sw, grid, j, dir);
        done += ok;
        sweep_job_describe(sw, job, point, sizeof point);
        printf("%5d  %-7s  %-12s  %s%s%s  %s%s\n", j, ok ? "done" : "missing",
               sw->variants[job->variant].name[0] ? sw->variants[job->variant].name : "-", point,
               point[0] && sweep_job_is_search(sw, job) ? " " : "",
               sweep_job_is_search(sw, job) ? "saturation-search" : "", job->file,
               sweep_job_is_search(sw, job) ? "_load*.json" : "");
    }
    printf("# %d done, %d missing\n", done, grid->n_jobs - done);
}

static int sweep_cli_local(const struct sweep_cli *cli, const struct sweep *sw,
                           const struct sweep_grid *grid, const char *dir, const int *missing,
                           int n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct sweep_pool_options opt = {cli->jobs   ? cli->jobs
                                     : cores > 0 ? (int)cores
                                                 : 1,
                                     cli->quiet};
    struct sweep_pool_report rep;
    if (sweep_pool_run(sw, grid, missing, n, dir, &opt, &rep) != 0) {
        fprintf(stderr, "dfsim: out of memory\n");
        return SWEEP_EXIT_FAILED;
    }
    int rc = sweep_cli_merge_dir(dir, sw->name);
    if (!cli->quiet) {
        int used = opt.workers < n ? opt.workers : n;
        char how[64] = "";
        if (used > 0)
            snprintf(how, sizeof how, " in %.1f s with %d worker%s", rep.seconds, used,
                     used == 1 ? "" : "s");
        printf("sweep %s: %d points: %d run, %d already done, %d failed%s; results in %s/ "
               "(%s/sweep.json)\n",
               sw->name, grid->n_jobs, rep.ran, grid->n_jobs - n, rep.failed, how, dir, dir);
    }
    return rep.failed ? SWEEP_EXIT_FAILED : rc;
}

static int sweep_cli_run(const struct sweep_cli *cli, const struct sweep *sw,
                         const struct sweep_grid *grid, const char *dir)
{
    if (cli->task_index >= 0)
        return slurm_task(sw, grid, dir, cli->task_index, cli->per_task);
    int rc = sweep_cli_mkdir(dir);
    if (rc == SWEEP_EXIT_OK)
        rc = sweep_cli_sync(sw, grid, dir, cli->quiet);
    int *missing = NULL;
    int n = rc == SWEEP_EXIT_OK ? sweep_cli_missing(sw, grid, dir, &missing) : -1;
    if (n < 0) {
        free(missing);
        return SWEEP_EXIT_FAILED;
    }
    if (cli->slurm) {
        struct slurm_options opt = {cli->partition, cli->time,  cli->per_task,
                                    cli->dry_run,   cli->quiet, cli->self,
                                    cli->extend_warmup};
        rc = slurm_sweep(sw, grid, missing, n, dir, &opt);
    } else {
        rc = sweep_cli_local(cli, sw, grid, dir, missing, n);
    }
    free(missing);
    return rc;
}

static int sweep_cli_sweep(const struct sweep_cli *cli)
{
    struct sweep sw;
    struct sweep_grid grid;
    char err[SWEEP_ERROR_LEN], dir[SWEEP_PATH_LEN];
    if (sweep_load(cli->input, &sw, err) != 0) {
        fprintf(stderr, "%s\n", err);
        return SWEEP_EXIT_BAD_INPUT;
    }
    /* --extend-warmup N: a setting of every point, part of its hash like any other (Slurm
     * tasks get the option too, so they find the same points). */
    char extend[64];
    snprintf(extend, sizeof extend, "stats.extend_warmup=%d", cli->extend_warmup);
    if (cli->extend_warmup > 0 && sweep_add_override(&sw, extend) != 0) {
        fprintf(stderr, "dfsim: out of memory\n");
        sweep_free(&sw);
        return SWEEP_EXIT_FAILED;
    }
    int rc = sweep_cli_prepare(&sw, &grid);
    if (rc == SWEEP_EXIT_BAD_INPUT && cli->extend_warmup > 0)
        fprintf(stderr, "  (--extend-warmup %d is --set stats.extend_warmup=%d on every point)\n",
                cli->extend_warmup, cli->extend_warmup);
    if (rc == SWEEP_EXIT_OK) {
        sweep_cli_dir(cli, &sw, dir, sizeof dir);
        if (cli->list)
            sweep_cli_list(&sw, &grid, dir);
        else
            rc = sweep_cli_run(cli, &sw, &grid, dir);
        sweep_grid_free(&grid);
    }
    sweep_free(&sw);
    return rc;
}

/* ---- merge ---- */

static int sweep_cli_merge(const struct sweep_cli *cli)
{
    if (access(cli->input, R_OK | X_OK) != 0) {
        fprintf(stderr, "dfsim: merge: cannot read %s: %s\n", cli->input, strerror(errno));
        return SWEEP_EXIT_BAD_INPUT;
    }
    int merged;
    char err[SWEEP_PATH_LEN + 256];
    if (sweep_merge(cli->input, NULL, &merged, err, sizeof err) != 0) {
        fprintf(stderr, "dfsim: %s\n", err);
        return SWEEP_EXIT_FAILED;
    }
    printf("%s/sweep.json: %d point documents merged\n", cli->input, merged);
    return SWEEP_EXIT_OK;
}

/* ---- saturation ---- */

static void sweep_cli_config_name(const char *config, char *out, size_t len)
{
    const char *base = strrchr(config, '/');
    base = base ? base + 1 : config;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".cfg") == 0)
        n -= 4;
    snprintf(out, len, "saturation-%.*s", (int)(n < 40 ? n : 40), base);
    for (char *p = out; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *p))
            *p = '-';
}

static int sweep_cli_search(const struct sweep_cli *cli, const struct sweep *sw,
                            const struct sweep_grid *grid, const char *dir)
{
    int rc = sweep_cli_mkdir(dir), zero = 0, probes;
    struct sweep_pool_options opt = {1, cli->quiet};
    struct sweep_pool_report rep = {0, 0, 0};
    double load;
    if (rc == SWEEP_EXIT_OK && !sweep_run_done(sw, grid, 0, dir) &&
        sweep_pool_run(sw, grid, &zero, 1, dir, &opt, &rep) != 0)
        rc = SWEEP_EXIT_FAILED;
    if (rc != SWEEP_EXIT_OK || rep.failed)
        return SWEEP_EXIT_FAILED;
    if (sweep_run_search_result(sw, grid, 0, dir, &load, &probes) != 0) {
        fprintf(stderr, "dfsim: the saturation search did not complete\n");
        return SWEEP_EXIT_FAILED;
    }
    rc = sweep_cli_merge_dir(dir, sw->name);
    const struct sweep_variant *var = &sw->variants[0];
    printf("saturation load %g phits/node/cycle: the highest load with accepted >= %g%% of "
           "offered, in steps of %g (%d loads tried)\n  results   %s/ (%s/sweep.json)\n",
           load, 100 * (1 - var->tolerance), 1.0 / lround(1 / var->resolution), probes, dir, dir);
    return rc;
}

static int sweep_cli_saturation(const struct sweep_cli *cli)
{
    struct sweep sw;
    struct sweep_grid grid;
    char err[SWEEP_ERROR_LEN], name[SWEEP_NAME_LEN], dir[SWEEP_PATH_LEN];
    sweep_cli_config_name(cli->input, name, sizeof name);
    if (sweep_init_single(&sw, name, cli->input, cli->sets, cli->n_sets, err) != 0) {
        fprintf(stderr, "dfsim: %s\n", err);
        return SWEEP_EXIT_FAILED;
    }
    sw.variants[0].saturation = true;
    if (cli->has_tolerance)
        sw.variants[0].tolerance = cli->tolerance;
    if (cli->has_resolution)
        sw.variants[0].resolution = cli->resolution;
    int rc = sweep_cli_prepare(&sw, &grid);
    if (rc == SWEEP_EXIT_OK) {
        sweep_cli_dir(cli, &sw, dir, sizeof dir);
        rc = sweep_cli_search(cli, &sw, &grid, dir);
        sweep_grid_free(&grid);
    }
    sweep_free(&sw);
    return rc;
}

/* ---- entry ---- */

int sweep_cli_main(int argc, char **argv)
{
    struct sweep_cli cli = {.command = argv[1], .self = argv[0], .task_index = -1};
    cli.sets = malloc((size_t)argc * sizeof *cli.sets);
    if (!cli.sets) {
        fputs("dfsim: out of memory\n", stderr);
        return SWEEP_EXIT_FAILED;
    }
    int rc = sweep_cli_parse(argc, argv, &cli);
    if (rc == SWEEP_EXIT_OK) {
        if (strcmp(cli.command, "sweep") == 0)
            rc = sweep_cli_sweep(&cli);
        else if (strcmp(cli.command, "merge") == 0)
            rc = sweep_cli_merge(&cli);
        else
            rc = sweep_cli_saturation(&cli);
    }
    free(cli.sets);
    return rc == SWEEP_CLI_HELP_EXIT ? SWEEP_EXIT_OK : rc;
}
