/* main: the dfsim command line: run one simulation point, or describe a config. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounds.h"
#include "cli.h"
#include "config.h"
#include "fairness_report.h"
#include "job_config.h"
#include "job_plan.h"
#include "job_traffic.h"
#include "placement.h"
#include "point.h"
#include "result_json.h"
#include "routing.h"
#include "routing_ugal.h"
#include "schema_cli.h"
#include "settings_cli.h"
#include "sim.h"
#include "stats.h"
#include "sweep_cli.h"
#include "text_file.h"
#include "topology.h"
#include "trace_job.h"
#include "version.h"

enum main_exit { EXIT_OK = 0, EXIT_OTHER = 1, EXIT_BAD_INPUT = 2, EXIT_SIM_FAILED = 3 };

#define MAIN_PATH_LEN 4200

/* The parsed command line. */
struct cli {
    const char *command; /* "run" | "info" */
    const char *config;
    const char *output;
    const char **overrides;
    int n_overrides;
    bool quiet;
    bool fairness;    /* run: also print the fairness summary */
    bool check;       /* run: verify the model's invariants every cycle (exit 3 if broken) */
    long check_every; /* run: ... only every that many cycles (0: every cycle) */
    bool origins;     /* info: also where each written setting got its value */
    const char *trace_out; /* run: record every job's messages as OTF2 traces there */
};

static const char main_synopsis[] =
    "usage: dfsim run CONFIG [-o OUT.json] [--set KEY=VALUE]... [--quiet] [--fairness]\n"
    "                 [--check] [--check-every K] [--isolate] [--packet-log FILE]\n"
    "                 [--trace-out DIR]\n"
    "       dfsim run RESULT.json [-o OUT.json] [--set KEY=VALUE]...\n"
    "       dfsim info CONFIG|RESULT.json [--set KEY=VALUE]... [--origins]\n"
    "       dfsim schema --json | --markdown\n"
    "       dfsim --help | --version\n";

static const char main_commands[] =
    "  run     simulate one point of CONFIG (a libconfig file, e.g. conf/default.cfg),\n"
    "          write its JSON result and print a summary; given a result document\n"
    "          (RESULT.json), rerun the point from the config it holds (the same\n"
    "          document but for \"dfsim\" and \"timing\"; default output\n"
    "          results/<config name>-rerun.json; see conf/README.md)\n"
    "  info    print the network size, the routing's VC needs and the theoretical\n"
    "          bounds of CONFIG (src/METRICS.md#theoretical-bounds), without\n"
    "          simulating\n"
    "  settings  print every setting with its default as a config file, with\n"
    "          --markdown as the README's table, or with KEY that setting alone\n"
    "  schema  print the result document's fields as JSON or as results/README.md's table\n";

/* Each option's first line names the commands that take it ("run info": both). */
static const char main_options[] =
    "  -o, --output FILE     where `run` writes the result (default\n"
    "                        results/<config name>.json; results/ is created)\n"
    "  -s, --set KEY=VALUE   override a setting of CONFIG, e.g. --set traffic.load=0.6,\n"
    "                        --set routing.mechanism=min (strings with or without\n"
    "                        quotes); repeatable, applied in order after the file; a\n"
    "                        setting the chosen plug-ins do not read is refused\n"
    "      --origins         info: also list every setting written in a file or by\n"
    "                        --set, with the FILE:LINE (or --set) its value came from\n"
    "  -q, --quiet           no progress line on stderr (shown only on a terminal)\n"
    "  -f, --fairness        run: also print min injected load, Max/Min, CoV and the\n"
    "                        injected load of each router of group 0\n"
    "  -c, --check           run: verify the model's invariants every cycle (packets\n"
    "                        conserved, credits, VC ladders, link order; several times\n"
    "                        slower) and stop at the first violation with exit 3\n"
    "      --check-every K   run: --check on every K-th cycle only (for long runs)\n"
    "      --isolate         run: also run each closed-loop job alone (same placement\n"
    "                        and seeds) and report its slowdown (= --set\n"
    "                        sim.isolate=true)\n"
    "      --trace-out DIR   run: record each job's messages as an OTF2 trace\n"
    "                        DIR/JOBNAME/traces.otf2 (replayable with jobs.NAME.trace)\n"
    "      --packet-log FILE run: write the path and per-hop times of packets as JSON\n"
    "                        lines (= --set stats.packet_log=FILE, FILE relative to\n"
    "                        here; which packets: stats.packet_log_fraction and\n"
    "                        stats.packet_log_pairs, every packet without them)\n"
    "  -h, --help            print this help (after a command: that command's)\n";

static const char main_exit_status[] =
    "Exit status: 0 success, 1 other failure (e.g. output not writable), 2 bad input\n"
    "(config or command line; nothing is simulated), 3 the simulation detected a\n"
    "deadlock or broke an invariant, 130/143 interrupted by SIGINT/SIGTERM (no result\n"
    "written; a previous result file is left untouched).\n";

static void main_help(void)
{
    fputs(main_synopsis, stdout);
    fputs(sweep_cli_synopsis, stdout); /* sweep, merge, saturation: src/sweep/sweep_cli.c */
    fputs(settings_cli_synopsis, stdout);
    fputs("       dfsim COMMAND --help\n\nCommands:\n", stdout);
    fputs(main_commands, stdout);
    fputs("\nOptions:\n", stdout);
    fputs(main_options, stdout);
    fputs("  -V, --version         print the version\n\n", stdout);
    fputs(main_exit_status, stdout);
    fputs("\nSweeps (exit status 0 when every point succeeded, 1 if one failed, 2 bad input):\n",
          stdout);
    fputs(sweep_cli_help, stdout);
}

/* Whether the line of len bytes at line holds needle. */
static bool main_line_has(const char *line, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(line + i, needle, n) == 0)
            return true;
    return false;
}

/* `dfsim run --help`, `dfsim info --help`: the command's usage, what it does, its options
 * (those marked "run:" or "info:" for the other command left out). */
static void main_command_help(const char *command)
{
    char synopsis[sizeof main_synopsis];
    snprintf(synopsis, sizeof synopsis, "       %s", main_synopsis + strlen("usage: "));
    printf("usage:\n");
    text_print_entries(stdout, synopsis, 7, "dfsim ", command);
    printf("\n");
    text_print_entries(stdout, main_commands, 2, "", command);
    printf("\nOptions:\n");
    bool run = strcmp(command, "run") == 0, mine = false;
    for (const char *line = main_options; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = (size_t)(end - line) + 1;
        if (line[2] == '-' || line[6] == '-') /* an option's first line */
            mine = run ? !main_line_has(line, len, " info:")
                       : !main_line_has(line, len, " run:") && !main_line_has(line, len, "`run`");
        if (mine)
            fwrite(line, 1, len, stdout);
        line = end + 1;
    }
    printf("\n%s", main_exit_status);
}

static const struct cli_usage main_usage = {"", "", main_synopsis, "dfsim --help"};

/* ---- command line ---- */

/* A positive integer below a billion; returns 0 or -1. */
static int main_parse_count(const char *text, long *out)
{
    char *end;
    errno = 0;
    long n = text && text[0] >= '0' && text[0] <= '9' ? strtol(text, &end, 10) : -1;
    if (n < 1 || n >= 1000000000 || errno || *end)
        return -1;
    *out = n;
    return 0;
}

/* --packet-log FILE: stats.packet_log, FILE relative to the working directory (a config's
 * setting is relative to the config's folder, so the override carries an absolute path). */
static int main_packet_log_override(const char *file, struct cli *cli)
{
    static char setting[SETTING_STRING_LEN + 32];
    char cwd[SETTING_STRING_LEN];
    int n;
    if (file[0] == '/')
        n = snprintf(setting, sizeof setting, "stats.packet_log=\"%s\"", file);
    else if (getcwd(cwd, sizeof cwd))
        n = snprintf(setting, sizeof setting, "stats.packet_log=\"%s/%s\"", cwd, file);
    else
        return -1;
    if (n < 0 || (size_t)n >= sizeof setting)
        return -1;
    cli->overrides[cli->n_overrides++] = setting;
    return 0;
}

/* Parses the options of `run`/`info` from argv[2]; returns -1 (help printed: exit 0),
 * EXIT_OK or EXIT_BAD_INPUT (message printed). */
static int main_parse_options(int argc, char **argv, struct cli *cli)
{
    bool positional_only = false;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *value;
        if (positional_only || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (cli->config)
                return cli_bad_usage(&main_usage, "%s: unexpected argument '%s'", cli->command, arg);
            cli->config = arg;
        } else if (strcmp(arg, "--") == 0) {
            positional_only = true;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            main_command_help(cli->command);
            return -1;
        } else if (cli_option_value(argv, argc, &i, "-s", "--set", &value)) {
            if (!value)
                return cli_bad_usage(&main_usage, "%s needs KEY=VALUE", arg);
            cli->overrides[cli->n_overrides++] = value;
        } else if (strcmp(cli->command, "run") == 0 &&
                   cli_option_value(argv, argc, &i, "-o", "--output", &value)) {
            if (!value || !value[0])
                return cli_bad_usage(&main_usage, "%s needs a file name", arg);
            cli->output = value;
        } else if (strcmp(cli->command, "info") == 0 && strcmp(arg, "--origins") == 0) {
            cli->origins = true;
        } else if (strcmp(cli->command, "run") == 0 &&
                   (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0)) {
            cli->quiet = true;
        } else if (strcmp(cli->command, "run") == 0 &&
                   cli_option_value(argv, argc, &i, "--packet-log", "--packet-log", &value)) {
            if (!value || !value[0])
                return cli_bad_usage(&main_usage, "%s needs a file name", arg);
            if (main_packet_log_override(value, cli) != 0)
                return cli_bad_usage(&main_usage, "%s: '%s': the path is too long", arg, value);
        } else if (strcmp(cli->command, "run") == 0 &&
                   cli_option_value(argv, argc, &i, "--trace-out", "--trace-out", &value)) {
            if (!value || !value[0])
                return cli_bad_usage(&main_usage, "%s needs a directory", arg);
            cli->trace_out = value;
        } else if (strcmp(cli->command, "run") == 0 && strcmp(arg, "--isolate") == 0) {
            cli->overrides[cli->n_overrides++] = "sim.isolate=true";
        } else if (strcmp(cli->command, "run") == 0 &&
                   (strcmp(arg, "-f") == 0 || strcmp(arg, "--fairness") == 0)) {
            cli->fairness = true;
        } else if (strcmp(cli->command, "run") == 0 &&
                   (strcmp(arg, "-c") == 0 || strcmp(arg, "--check") == 0)) {
            cli->check = true;
        } else if (strcmp(cli->command, "run") == 0 &&
                   cli_option_value(argv, argc, &i, "--check-every", "--check-every", &value)) {
            if (main_parse_count(value, &cli->check_every) != 0)
                return cli_bad_usage(&main_usage, "%s needs a positive number of cycles (got '%s')", arg,
                                      value ? value : "");
            cli->check = true;
        } else {
            return cli_bad_usage(&main_usage, "%s: unknown option '%s'", cli->command, arg);
        }
    }
    if (!cli->config)
        return cli_bad_usage(&main_usage, "%s: missing CONFIG (a config file such as conf/default.cfg)",
                              cli->command);
    return EXIT_OK;
}

/* ---- run ---- */

/* The one piece of global state: the signal that asked `run` to stop (0 while none did). */
static volatile sig_atomic_t main_signal;

static void main_on_signal(int signo)
{
    main_signal = signo;
}

/* SIGINT/SIGTERM make sim_run stop at the next cycle; a second one kills as usual. */
static void main_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = main_on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Can `out` take a result: a device or FIFO (-o /dev/stdout) in place, a file through its
 * directory (written there, then renamed)? Sets errno when not. */
static bool main_writable(const char *out, const char *dir)
{
    struct stat st;
    if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return false;
    }
    if (stat(out, &st) == 0 && !S_ISREG(st.st_mode))
        return access(out, W_OK) == 0;
    if (stat(dir, &st) != 0)
        return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return access(dir, W_OK) == 0;
}

static bool main_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* Chooses the output file and checks, before simulating, that it can be written. A rerun of a
 * result document (`document`) goes to results/NAME-rerun.json, never over the document. */
static int main_output_path(const struct cli *cli, const struct sim_config *cfg, bool document,
                            char *out, size_t len)
{
    if (cli->output) {
        snprintf(out, len, "%s", cli->output);
    } else {
        snprintf(out, len, "results/%s%s.json", cfg->name, document ? "-rerun" : "");
        if (mkdir("results", 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "dfsim: cannot create results/: %s\n", strerror(errno));
            return EXIT_OTHER;
        }
        if (document && main_same_file(out, cli->config)) {
            fprintf(stderr,
                    "dfsim: %s: the rerun would overwrite the document it reruns (expected -o "
                    "OUT.json)\n",
                    out);
            return EXIT_BAD_INPUT;
        }
    }
    char dir[MAIN_PATH_LEN];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = '\0'; /* keep "/" for files in the root */
    if (!main_writable(out, slash ? dir : ".")) {
        fprintf(stderr, "dfsim: cannot write %s: %s\n", out, strerror(errno));
        return EXIT_OTHER;
    }
    return EXIT_OK;
}

/* One line per job: what it is and what it got. */
static void main_print_job(const struct job_result *job)
{
    printf("  job %-9s %s %s on %d nodes (%s): ", job->name, job->kind, job->traffic, job->nodes,
           job->placement);
    if (!job->closed) {
        printf("offered %.4f accepted %.4f, packet latency mean %.1f\n", job->offered,
               job->accepted, job->latency.mean);
        return;
    }
    if (job->finished)
        printf("runtime %.0f cycles", job->runtime_cycles);
    else if (job->open_ended)
        printf("%llu iterations done (open-ended)", (unsigned long long)job->iterations_completed);
    else
        printf("%llu iterations done (capped)", (unsigned long long)job->iterations_completed);
    if (job->isolated && job->finished && job->alone.finished)
        printf(" (alone %.0f: slowdown %.3f)", job->alone.runtime_cycles, job->slowdown_runtime);
    else if (job->isolated && job->open_ended && job->slowdown_runtime > 0)
        printf(" (round %.0f, alone %.0f: slowdown %.3f)", job->round_cycles,
               job->alone.runtime_cycles, job->slowdown_runtime);
    printf(", message latency median %.0f mean %.1f\n", job->message_latency.median,
           job->message_latency.mean);
}

/* Saturated or not and, with a time series, steady or not (src/METRICS.md). Without a series
 * the saturation verdict compares the whole window's loads. */
static void main_print_verdict(const struct sim_config *cfg, const struct result *res)
{
    double tolerance = cfg->stats.saturation_tolerance;
    const struct result_steady_state *v = &res->steady_state;
    double offered = res->has_steady_state ? v->offered : res->offered;
    double accepted = res->has_steady_state ? v->accepted : res->accepted;
    bool saturated =
        res->has_steady_state ? v->saturated : offered > 0 && accepted < (1 - tolerance) * offered;
    printf("  verdict   %s (accepted %.1f%% of offered%s)", saturated ? "saturated" : "not saturated",
           offered > 0 ? 100 * accepted / offered : 100.0,
           res->has_steady_state ? " after the transient" : "");
    if (!res->has_steady_state)
        printf("; steady state not judged (stats.sample_cycles = 0)\n");
    else if (v->batches < 4)
        printf("; steady state not judged (%llu full samples, MSER-5 needs 20)\n",
               (unsigned long long)v->samples);
    else
        printf("; %s (MSER-5 cuts %llu of %llu samples: accepted %.2f%% z %.1f, latency "
               "%.2f%% z %.1f)\n",
               v->steady ? "steady" : "NOT steady", (unsigned long long)v->truncation_samples,
               (unsigned long long)(v->batches * 5), 100 * v->accepted_bias, v->accepted_z,
               100 * v->latency_bias, v->latency_z);
    if (res->has_steady_state && v->warmup_extensions)
        printf("  warm-up   %llu cycles after %d extension%s (stats.extend_warmup)\n",
               (unsigned long long)v->warmup_cycles, v->warmup_extensions,
               v->warmup_extensions == 1 ? "" : "s");
}

static void main_print_summary(const struct sim_config *cfg, const struct result *res,
                               const char *out)
{
    printf("%s: %d groups, %d routers, %d nodes, radix %d (%s); %s routing, ",
           cfg->path[0] ? cfg->path : cfg->name, res->groups, res->routers, res->nodes, res->radix,
           res->shape, routing_of(cfg)->name);
    if (res->n_jobs)
        printf("%d job%s, %llu cycles%s\n", res->n_jobs, res->n_jobs == 1 ? "" : "s",
               (unsigned long long)res->run.cycles,
               res->run.capped ? " (capped at sim.max_cycles)" : "");
    else
        printf("%s traffic\n", pattern_of(cfg)->name);
    printf("  load      offered %.4f  injected %.4f  accepted %.4f  (phits/node/cycle)\n",
           res->offered, res->injected, res->accepted);
    printf("  latency   mean %.1f  p99 %.0f  max %.0f  (cycles)\n", res->latency_mean,
           res->latency_p99, res->latency_max);
    printf("  fairness  min injected load %.4f (%.1f%% of offered)  Max/Min ",
           res->fairness.min_injected_load, res->fairness.min_injected_pct_of_offered);
    if (res->fairness.starved_routers)
        printf("inf (%d starved routers)", res->fairness.starved_routers);
    else
        printf("%.3f", res->fairness.max_min);
    printf("  CoV %.4f\n", res->fairness.cov);
    for (int j = 0; j < res->n_jobs; j++)
        main_print_job(&res->jobs[j]);
    main_print_verdict(cfg, res);
    printf("  time      %.2f s  %.0f cycles/s  %.0f router-cycles/s\n", res->wall_seconds,
           res->cycles_per_second, res->router_cycles_per_second);
    printf("  result    %s\n", out);
}

/* The run's status as an exit status, with its message; EXIT_OK when it succeeded. */
static int main_run_status(const struct point_outcome *out)
{
    switch (out->status) {
    case SIM_OK:
        return EXIT_OK;
    case SIM_STOPPED:
        fprintf(stderr, "dfsim: interrupted by %s at cycle %llu of %llu: no result written\n",
                main_signal == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)out->cycle,
                (unsigned long long)out->total_cycles);
        return 128 + main_signal;
    case SIM_DEADLOCK:
    case SIM_INVARIANT:
        fprintf(stderr, "dfsim: %s\n", out->message);
        return EXIT_SIM_FAILED;
    case SIM_NOMEM:
        break;
    }
    fprintf(stderr, "dfsim: simulation failed: %s\n",
            out->message[0] ? out->message : "out of memory");
    return EXIT_OTHER;
}

/* A crossbar port moves a packet in ceil(packet_size / router.speedup) cycles, so a class of
 * links faster than that never reaches its own bandwidth: the crossbar bounds what crosses
 * the router into or out of it. Prints a warning per such class, each line starting with
 * `prefix`. */
static void main_warn_crossbar(const struct sim_config *cfg, FILE *out, const char *prefix)
{
    static const char *const names[] = {"node", "local", "global"};
    double bandwidth[3];
    config_link_bandwidths(cfg, bandwidth);
    double crossbar = config_crossbar_bandwidth(cfg);
    for (int c = 0; c < 3; c++)
        if (bandwidth[c] > crossbar)
            fprintf(out,
                    "%sthe %s links (links.bandwidth_%s = %g) are faster than the crossbar "
                    "(router.speedup = %d): it bounds them at %g phits/cycle\n",
                    prefix, names[c], names[c], bandwidth[c], cfg->router.speedup, crossbar);
}

/* A sender holds at most a VC's buffer of credits per credit round trip, so a class of links
 * whose buffers cannot cover that round trip at the link's rate never carries that rate on
 * one VC (bounds_buffer_rate). Prints a warning per such class, each line starting with
 * `prefix`. */
static void main_warn_buffers(const struct sim_config *cfg, FILE *out, const char *prefix)
{
    static const char *const names[] = {"node", "local", "global"};
    double bandwidth[3];
    config_link_bandwidths(cfg, bandwidth);
    for (int c = PORT_LOCAL; c <= PORT_GLOBAL; c++) {
        struct bounds_buffer b;
        if (bounds_buffer_rate(cfg, (enum port_class)c, &b) == 0 && bounds_buffer_binds(&b))
            fprintf(out,
                    "%sthe %s links (links.bandwidth_%s = %g) are faster than their buffers "
                    "cover (buffers.%s = %d phits per VC, %d-cycle credit round trip): they bound "
                    "a VC at %.4g phits/cycle\n",
                    prefix, names[c], names[c], bandwidth[c], names[c], b.phits, b.round_trip,
                    b.rate);
    }
}

static int main_simulate(struct sim_config *cfg, const struct cli *cli, const char *out)
{
    main_catch_signals();
    /* Before a run that may take hours: a crossbar or buffers bounding a link are rarely
     * meant. */
    main_warn_crossbar(cfg, stderr, "dfsim: warning: ");
    main_warn_buffers(cfg, stderr, "dfsim: warning: ");
    const struct point_options opt = {
        .progress = !cli->quiet,
        .check_invariants = cli->check,
        .check_every = (uint32_t)cli->check_every,
        .stop = &main_signal,
        .trace_out = cli->trace_out,
    };
    struct result res;
    struct point_outcome outcome;
    point_run_steady(cfg, &opt, &res, &outcome);
    int rc = main_run_status(&outcome);
    char err[1024];
    if (rc == EXIT_OK && result_json_write(out, cfg, &res, err, sizeof err) != 0) {
        fprintf(stderr, "dfsim: %s\n", err);
        rc = EXIT_OTHER;
    } else if (rc == EXIT_OK) {
        main_print_summary(cfg, &res, out);
        if (cli->fairness)
            fairness_report_print(stdout, cfg, &res);
    }
    result_free(&res);
    return rc;
}

/* CONFIG (a config file or a result document) with the --set overrides, and where each
 * written setting came from (free sources after, whatever the outcome). */
static int main_load(const struct cli *cli, struct sim_config *cfg, struct config_sources *sources)
{
    char err[CONFIG_ERROR_LEN];
    struct config_warnings warnings = {0};
    int rc = config_load_warn(cli->config, cli->overrides, cli->n_overrides, cfg, sources, false,
                              &warnings, err);
    for (int i = 0; i < warnings.count; i++)
        fprintf(stderr, "dfsim: %s\n", warnings.lines[i]);
    config_warnings_free(&warnings);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

static int main_run(const struct cli *cli)
{
    struct sim_config cfg;
    struct config_sources sources;
    char out[MAIN_PATH_LEN];
    int rc = main_load(cli, &cfg, &sources);
    if (rc == EXIT_OK)
        rc = main_output_path(cli, &cfg, sources.document, out, sizeof out);
    config_sources_free(&sources);
    if (rc == EXIT_OK)
        rc = main_simulate(&cfg, cli, out);
    return rc;
}

/* ---- info ---- */

/* ugal's far-end term, resolved (routing.ugal_far_end auto: the topology kind's). */
static void main_print_far_end(const struct sim_config *cfg)
{
    struct routing_sensing sensing = {0};
    routing_ugal.sensing(cfg, &sensing);
    const char *how = ugal_far_end_setting(cfg) == UGAL_FAR_END_AUTO ? "auto" : "as set";
    if (!sensing.far_end) {
        printf("far end    none: a path costs its first output's occupancy only "
               "(routing.ugal_far_end %s)\n",
               how);
        return;
    }
    printf("far end    credits: a path leaving the group at another router adds that router's "
           "global port's occupancy, %d cycles late per local hop",
           cfg->links.local_latency);
    if (sensing.far_end_step > 1)
        printf(", published every %u cycles", sensing.far_end_step);
    printf(" (routing.ugal_far_end %s)\n", how);
}

static void main_print_routing(const struct sim_config *cfg)
{
    const struct routing_ops *ops = routing_of(cfg);
    struct vc_ladder ladder;
    memset(&ladder, 0, sizeof ladder);
    ops->ladder(cfg, &ladder);
    printf("routing    %s: ladder", ops->name);
    for (int i = 0; i < ladder.length; i++)
        printf(" %c%d", ladder.port_class[i] == PORT_LOCAL ? 'l' : 'g', ladder.vc[i]);
    printf(", needs %d local and %d global VCs (configured: %d local, %d global, %d injection)\n",
           ladder.local_vcs, ladder.global_vcs, cfg->vcs.local, cfg->vcs.global,
           cfg->vcs.injection);
    const struct topology_ops *kind = topology_of(cfg);
    if (kind != &topology_dragonfly) /* the canonical dragonfly has one minimal port */
        printf("min ports  several: the %s (routing.min_choice %s)\n",
               min_choice_resolve(cfg->routing.min_choice, kind) == MIN_CHOICE_OCCUPANCY
                   ? "least occupied next VC"
                   : "hash of the packet",
               cfg->routing.min_choice == MIN_CHOICE_AUTO ? "auto" : "as set");
    if (ops == &routing_ugal)
        main_print_far_end(cfg);
}

static void main_print_bounds(const struct sim_config *cfg, const struct topology *t)
{
    struct bounds_throughput b;
    if (cfg->n_jobs)
        ; /* the bounds are those of the network-wide pattern, which jobs replace */
    else if (bounds_throughput(cfg, t, &b) == 0)
        printf("bound      accepted load <= %.4f phits/node/cycle%s%s (%s)\n", b.load,
               b.formula ? " = " : "", b.formula ? b.formula : "", b.reason);
    else
        printf("bound      none stated by the model (src/METRICS.md#theoretical-bounds) for "
               "routing '%s' under pattern '%s'\n",
               routing_of(cfg)->name, pattern_of(cfg)->name);
    printf("zero-load  latency %.2f cycles under UN/MIN (minimal paths, mean over node pairs)\n",
           bounds_zero_load_latency(cfg, t));
}

/* The links' bandwidths and the crossbar's, what one VC of each class's buffers carries, and
 * a warning for every class the crossbar or the buffers bound. */
static void main_print_links(const struct sim_config *cfg)
{
    double bandwidth[3];
    config_link_bandwidths(cfg, bandwidth);
    double crossbar = config_crossbar_bandwidth(cfg);
    printf("links      node %g, local %g, global %g phits/cycle; crossbar %g phits/cycle per port "
           "(router.speedup %d)\n",
           bandwidth[0], bandwidth[1], bandwidth[2], crossbar, cfg->router.speedup);
    struct bounds_buffer local, global;
    bounds_buffer_rate(cfg, PORT_LOCAL, &local);
    bounds_buffer_rate(cfg, PORT_GLOBAL, &global);
    printf("buffers    local %d phits per VC / %d-cycle credit round trip = %.4g phits/cycle per "
           "VC; global %d / %d = %.4g\n",
           local.phits, local.round_trip, local.rate, global.phits, global.round_trip, global.rate);
    main_warn_crossbar(cfg, stdout, "warning    ");
    main_warn_buffers(cfg, stdout, "warning    ");
}

/* One line per job: where it runs and what it sends. */
static void main_print_jobs(const struct sim_config *cfg)
{
    for (int j = 0; j < cfg->n_jobs; j++) {
        const struct config_job *job = &cfg->jobs[j];
        printf("job        %s: %d nodes (%s), ", job->name, job->nodes,
               placement_registry[job->placement]->name);
        if (trace_job_is(job))
            printf("trace %s", trace_job_settings_of(job)->trace);
        else if (job_is_closed_loop(job))
            printf("motif %s, %d iterations", job_motif(job)->name, job->iterations);
        else
            printf("pattern %s at %.4f phits/node/cycle",
                   job_network_pattern(job) ? job_network_pattern(job)->name
                                            : job_rank_pattern(job)->name,
                   job_offered_load(cfg, job));
        if (job->message_bytes > 0)
            printf(", messages of %lld bytes = %llu packets of %d phits",
                   (long long)job->message_bytes,
                   (unsigned long long)job_message_packets(cfg, (uint64_t)job->message_bytes),
                   cfg->traffic.packet_size);
        printf("\n");
    }
}

/* info --origins: every setting written in a file or by --set, its value and where the
 * value that won was written. */
static void main_print_origins(const struct config_sources *sources)
{
    int width = 0;
    for (int i = 0; i < sources->count; i++) {
        int w = (int)(strlen(sources->items[i].key) + strlen(sources->items[i].value)) + 3;
        width = w > width && w <= 48 ? w : width;
    }
    printf("origins    %d setting%s written in a file or by --set (the others are defaults)\n",
           sources->count, sources->count == 1 ? "" : "s");
    for (int i = 0; i < sources->count; i++) {
        const struct config_source *s = &sources->items[i];
        int w = (int)(strlen(s->key) + strlen(s->value)) + 3;
        printf("  %s = %s%*s  %s\n", s->key, s->value, w < width ? width - w : 0, "", s->where);
    }
}

static int main_info(const struct cli *cli)
{
    struct sim_config cfg;
    struct config_sources sources;
    int rc = main_load(cli, &cfg, &sources);
    if (rc != EXIT_OK)
        return rc;
    struct topology t;
    char err[1024];
    if (topology_create(&t, &cfg, err, (int)sizeof err) != 0) {
        fprintf(stderr, "dfsim: %s\n", err);
        config_sources_free(&sources);
        return EXIT_OTHER;
    }
    printf("config     %s\n", cfg.path);
    printf("network    %d groups, %d routers, %d nodes, radix %d (%s, %s)\n", t.groups, t.routers,
           t.nodes, t.radix, t.shape, topology_arrangement_names[cfg.topology.arrangement]);
    main_print_links(&cfg);
    main_print_routing(&cfg);
    if (cfg.n_jobs) {
        main_print_jobs(&cfg);
    } else {
        const struct pattern_ops *pattern = pattern_of(&cfg);
        char detail[64] = "";
        if (pattern->describe)
            pattern->describe(settings_params(&cfg, pattern->settings), detail, sizeof detail);
        printf("traffic    %s%s", pattern->name, detail);
        printf(", offered load %.4f phits/node/cycle, packets of %d phits\n", cfg.traffic.load,
               cfg.traffic.packet_size);
    }
    main_print_bounds(&cfg, &t);
    if (cli->origins)
        main_print_origins(&sources);
    config_sources_free(&sources);
    topology_free(&t);
    return EXIT_OK;
}

/* ---- entry ---- */

static int main_dispatch(int argc, char **argv, struct cli *cli)
{
    const char *first = argv[1];
    if (strcmp(first, "-h") == 0 || strcmp(first, "--help") == 0 || strcmp(first, "help") == 0) {
        main_help();
        return EXIT_OK;
    }
    if (strcmp(first, "-V") == 0 || strcmp(first, "--version") == 0) {
        printf("dfsim %s\n", dfsim_version);
        return EXIT_OK;
    }
    if (sweep_cli_handles(first)) /* sweep, merge, saturation: src/sweep/sweep_cli.c */
        return sweep_cli_main(argc, argv);
    if (strcmp(first, "settings") == 0)
        return settings_cli_main(argc, argv);
    if (strcmp(first, "schema") == 0) /* the result document's table: src/schema_cli.c */
        return schema_cli_main(argc, argv);
    if (strcmp(first, "run") != 0 && strcmp(first, "info") != 0)
        return first[0] == '-' ? cli_bad_usage(&main_usage, "unknown option '%s'", first)
                               : cli_bad_usage(&main_usage, "unknown command '%s'", first);
    cli->command = first;
    int rc = main_parse_options(argc, argv, cli);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    return strcmp(first, "run") == 0 ? main_run(cli) : main_info(cli);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_bad_usage(&main_usage, "missing command");
    struct cli cli = {0};
    cli.overrides = malloc((size_t)argc * sizeof *cli.overrides);
    if (!cli.overrides) {
        fputs("dfsim: out of memory\n", stderr);
        return EXIT_OTHER;
    }
    int rc = main_dispatch(argc, argv, &cli);
    free(cli.overrides);
    trace_job_programs_release();
    return rc;
}
