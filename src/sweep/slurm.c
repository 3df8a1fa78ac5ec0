/* slurm: one job array per sweep: script, sbatch, squeue polling, report; and the task side. */
#include "slurm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "sweep_doc.h"
#include "sweep_merge.h"
#include "sweep_pool.h"
#include "sweep_run.h"

#define SLURM_OUT_LEN 8192
#define SLURM_QUERY_RETRIES 30 /* consecutive squeue failures tolerated while waiting */

/* Absolute paths the array tasks need (they may start in another directory). */
struct slurm_paths {
    char self[SWEEP_PATH_LEN], sweep[SWEEP_PATH_LEN], dir[SWEEP_PATH_LEN], cwd[SWEEP_PATH_LEN];
};

/* ---- running Slurm's commands ---- */

/* Runs argv (PATH lookup), captures stdout and stderr into out. Returns the exit status, 127
 * if the command cannot run, -1 on failure to start it. */
static int slurm_capture(char *const argv[], char *out, size_t len)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t used = 0;
    ssize_t n;
    char sink[512];
    while ((n = read(fds[0], used + 1 < len ? out + used : sink,
                     used + 1 < len ? len - used - 1 : sizeof sink)) != 0) {
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0 && used + 1 < len)
            used += (size_t)n;
    }
    out[used] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* squeue's lines for the job: 1 = queued or running, 0 = finished, -1 = cannot tell. */
static int slurm_job_active(const char *job, char *out, size_t len)
{
    char *argv[] = {"squeue", "-h", "-j", (char *)job, "-o", "%i", NULL};
    int rc = slurm_capture(argv, out, len);
    if (rc == 0)
        return out[strspn(out, " \n")] != '\0';
    if (strstr(out, "Invalid job id")) /* finished and already purged by slurmctld */
        return 0;
    return -1;
}

/* ---- the files of a submission ---- */

static void slurm_quote(const char *s, char *out, size_t len)
{
    size_t o = 0;
    out[o++] = '\'';
    for (; *s && o + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    out[o++] = '\'';
    out[o] = '\0';
}

/* PATH made absolute against the working directory (not canonical: it need not be). */
static int slurm_absolute(const char *path, const char *cwd, char *out, size_t len)
{
    int n = path[0] == '/' ? snprintf(out, len, "%s", path)
                           : snprintf(out, len, "%s/%s", cwd, path[0] ? path : ".");
    return n > 0 && (size_t)n < len ? 0 : -1;
}

static int slurm_resolve(const struct sweep *sw, const char *dir, const char *self,
                         struct slurm_paths *p)
{
    if (!getcwd(p->cwd, sizeof p->cwd))
        return -1;
    ssize_t n = readlink("/proc/self/exe", p->self, sizeof p->self - 1);
    if (n > 0)
        p->self[n] = '\0';
    else if (slurm_absolute(self, p->cwd, p->self, sizeof p->self) != 0)
        return -1;
    if (slurm_absolute(sw->path, p->cwd, p->sweep, sizeof p->sweep) != 0 ||
        slurm_absolute(dir, p->cwd, p->dir, sizeof p->dir) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

static char *slurm_script(const struct sweep *sw, const struct slurm_paths *p,
                          const struct slurm_options *opt, int n, int per_task)
{
    char self[SWEEP_PATH_LEN + 64], sweep[SWEEP_PATH_LEN + 64], dir[SWEEP_PATH_LEN + 64];
    slurm_quote(p->self, self, sizeof self);
    slurm_quote(p->sweep, sweep, sizeof sweep);
    slurm_quote(p->dir, dir, sizeof dir);
    int tasks = (n + per_task - 1) / per_task;
    size_t len = 4 * SWEEP_PATH_LEN + 3 * sizeof self + 2048;
    char *text = malloc(len);
    if (!text)
        return NULL;
    int used = snprintf(text, len,
                        "#!/bin/sh\n"
                        "# dfsim sweep %s: %d missing points as %d array tasks of %d point(s).\n"
                        "# Written by `dfsim sweep --slurm`: task i runs lines i*%d+1 .. "
                        "(i+1)*%d of slurm-points.txt.\n"
                        "#SBATCH --job-name=dfsim-%s\n"
                        "#SBATCH --array=0-%d\n"
                        "#SBATCH --ntasks=1\n"
                        "#SBATCH --cpus-per-task=1\n"
                        "#SBATCH --output=%s/slurm-logs/task-%%a.log\n"
                        "#SBATCH --chdir=%s\n",
                        sw->name, n, tasks, per_task, per_task, per_task, sw->name, tasks - 1,
                        p->dir, p->cwd);
    if (opt->partition)
        used +=
            snprintf(text + used, len - (size_t)used, "#SBATCH --partition=%s\n", opt->partition);
    if (opt->time)
        used += snprintf(text + used, len - (size_t)used, "#SBATCH --time=%s\n", opt->time);
    char extend[48] = "";
    if (opt->extend_warmup > 0)
        snprintf(extend, sizeof extend, " --extend-warmup %d", opt->extend_warmup);
    snprintf(text + used, len - (size_t)used,
             "exec %s sweep %s -o %s --task-index \"$SLURM_ARRAY_TASK_ID\" "
             "--points-per-task %d --quiet%s\n",
             self, sweep, dir, per_task, extend);
    return text;
}

/* DIR/slurm-points.txt: "INDEX HASH" per missing job, the stable task mapping. */
static int slurm_write_points(const struct sweep_grid *grid, const int *missing, int n,
                              const char *dir, char *err, size_t len)
{
    size_t cap = (size_t)n * 40 + 1;
    char *text = malloc(cap);
    if (!text) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, cap - used, "%d %s\n", missing[i],
                                 grid->jobs[missing[i]].hash);
    int rc = sweep_doc_write(dir, "slurm-points.txt", text, err, len);
    free(text);
    return rc;
}

/* ---- submission ---- */

/* A job of an earlier submission into the same directory must not still be running. */
static int slurm_check_previous(const char *dir)
{
    char path[SWEEP_PATH_LEN], out[SLURM_OUT_LEN];
    snprintf(path, sizeof path, "%.4000s/slurm-job.txt", dir);
    char *job = sweep_doc_read_text(path);
    if (!job)
        return 0;
    job[strcspn(job, " \n")] = '\0';
    int active = job[0] ? slurm_job_active(job, out, sizeof out) : 0;
    if (active > 0)
        fprintf(stderr,
                "dfsim: Slurm job %s of this sweep is still queued or running: wait for "
                "it (or scancel %s), then run the same command again\n",
                job, job);
    free(job);
    return active > 0 ? -1 : 0;
}

/* sbatch --parsable SCRIPT; returns 0 with the job id. */
static int slurm_submit(const char *dir, char *job, size_t len)
{
    char script[SWEEP_PATH_LEN], out[SLURM_OUT_LEN], err[SWEEP_PATH_LEN + 128];
    snprintf(script, sizeof script, "%.4000s/slurm.sbatch", dir);
    char *argv[] = {"sbatch", "--parsable", script, NULL};
    int rc = slurm_capture(argv, out, sizeof out);
    char *id = out + strspn(out, " \n");
    id[strcspn(id, ";\n ")] = '\0';
    if (rc != 0 || !id[0] || strspn(id, "0123456789") != strlen(id)) {
        fprintf(stderr, "dfsim: sbatch %s failed%s: %s\n", script,
                rc == 127 ? " (is Slurm installed? sbatch not found)" : "", out);
        return -1;
    }
    snprintf(job, len, "%.60s", id);
    char line[64];
    snprintf(line, sizeof line, "%s\n", id);
    if (sweep_doc_write(dir, "slurm-job.txt", line, err, sizeof err) != 0)
        fprintf(stderr, "dfsim: %s\n", err);
    return 0;
}

static int slurm_count_done(const struct sweep *sw, const struct sweep_grid *grid,
                            const int *missing, int n, const char *dir)
{
    int done = 0;
    for (int i = 0; i < n; i++)
        done += sweep_run_done(sw, grid, missing[i], dir);
    return done;
}

/* Polls squeue until the job has left the queue. Returns 0, or -1 if squeue keeps failing. */
static int slurm_wait(const struct sweep *sw, const struct sweep_grid *grid, const int *missing,
                      int n, const char *dir, const char *job, bool show)
{
    char out[SLURM_OUT_LEN];
    int failures = 0, active;
    double pause = 0.25; /* short jobs end fast: poll sooner, back off to the period */
    while ((active = slurm_job_active(job, out, sizeof out)) != 0) {
        if (active < 0 && ++failures >= SLURM_QUERY_RETRIES) {
            fprintf(stderr, "%sdfsim: squeue -j %s keeps failing: %s\n", show ? "\n" : "", job,
                    out);
            return -1;
        }
        if (active > 0)
            failures = 0;
        if (show) {
            int lines = 0;
            for (const char *p = out; *p; p++)
                lines += *p == '\n';
            fprintf(stderr, "\rslurm job %s: %d tasks queued or running, %d/%d points done   ", job,
                    lines, slurm_count_done(sw, grid, missing, n, dir), n);
            fflush(stderr);
        }
        nanosleep(&(struct timespec){(time_t)pause, (long)((pause - (int)pause) * 1e9)}, NULL);
        pause = pause * 2 < SLURM_POLL_SECONDS ? pause * 2 : SLURM_POLL_SECONDS;
    }
    if (show)
        fprintf(stderr, "\r%-79s\r", "");
    return 0;
}

/* Reports each failed task with its points; returns the number of points missing. */
static int slurm_report(const struct sweep *sw, const struct sweep_grid *grid, const int *missing,
                        int n, const char *dir, int per_task)
{
    int failed = 0, last_task = -1;
    char log[SWEEP_PATH_LEN];
    for (int i = 0; i < n; i++) {
        if (sweep_run_done(sw, grid, missing[i], dir))
            continue;
        int task = i / per_task;
        failed++;
        if (task != last_task)
            fprintf(stderr, "dfsim: Slurm task %d failed (log: %s/slurm-logs/task-%d.log)\n", task,
                    dir, task);
        last_task = task;
        sweep_pool_log_path(grid, missing[i], dir, log, sizeof log);
        fprintf(stderr, "dfsim:   point %d (%s) has no result%s%s\n", missing[i],
                grid->jobs[missing[i]].file, access(log, R_OK) == 0 ? "; see " : "",
                access(log, R_OK) == 0 ? log : "");
    }
    return failed;
}

static int slurm_prepare(const struct sweep *sw, const struct sweep_grid *grid, const int *missing,
                         int n, const char *dir, const struct slurm_options *opt, int per_task)
{
    struct slurm_paths paths;
    char err[SWEEP_PATH_LEN + 256];
    if (slurm_resolve(sw, dir, opt->self, &paths) != 0) {
        fprintf(stderr, "dfsim: cannot resolve the paths of the sweep: %s\n", strerror(errno));
        return 1;
    }
    char logs[SWEEP_PATH_LEN + 16];
    snprintf(logs, sizeof logs, "%s/slurm-logs", paths.dir);
    if (sweep_doc_mkdirs(logs) != 0) { /* Slurm does not create the --output directory */
        fprintf(stderr, "dfsim: cannot create %s: %s\n", logs, strerror(errno));
        return 1;
    }
    char *script = slurm_script(sw, &paths, opt, n, per_task);
    int rc = script ? 0 : -1;
    if (rc == 0)
        rc = slurm_write_points(grid, missing, n, dir, err, sizeof err);
    if (rc == 0)
        rc = sweep_doc_write(dir, "slurm.sbatch", script, err, sizeof err);
    free(script);
    if (rc != 0)
        fprintf(stderr, "dfsim: %s\n", script ? err : "out of memory");
    return rc == 0 ? 0 : 1;
}

static int slurm_finish(const struct sweep *sw, const struct sweep_grid *grid, const int *missing,
                        int n, const char *dir, int per_task, double start, bool quiet)
{
    int failed = slurm_report(sw, grid, missing, n, dir, per_task), merged;
    char err[SWEEP_PATH_LEN + 256];
    int rc = sweep_merge(dir, sw->name, &merged, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "dfsim: %s\n", err);
    if (!quiet)
        printf("sweep %s: %d points submitted to Slurm, %d done, %d failed in %.1f s; results in "
               "%s/ (%s/sweep.json)\n",
               sw->name, n, n - failed, failed, progress_now() - start, dir, dir);
    return failed || rc ? 1 : 0;
}

int slurm_sweep(const struct sweep *sw, const struct sweep_grid *grid, const int *missing, int n,
                const char *dir, const struct slurm_options *opt)
{
    double start = progress_now();
    int per_task = opt->points_per_task > 0 ? opt->points_per_task
                                            : (n + SLURM_MAX_TASKS - 1) / SLURM_MAX_TASKS;
    if (per_task < 1)
        per_task = 1;
    if (n == 0) {
        if (!opt->quiet)
            printf("sweep %s: all %d points already done; nothing to submit\n", sw->name,
                   grid->n_jobs);
        int merged;
        char err[SWEEP_PATH_LEN + 256];
        return sweep_merge(dir, sw->name, &merged, err, sizeof err) == 0 ? 0 : 1;
    }
    if (!opt->dry_run && slurm_check_previous(dir) != 0)
        return 1;
    if (slurm_prepare(sw, grid, missing, n > 0 ? n : 0, dir, opt, per_task) != 0)
        return 1;
    if (opt->dry_run) {
        printf("%s/slurm.sbatch\n", dir);
        return 0;
    }
    char job[64];
    if (slurm_submit(dir, job, sizeof job) != 0)
        return 1;
    if (!opt->quiet)
        fprintf(stderr, "dfsim: submitted Slurm job %s: %d points in %d tasks\n", job, n,
                (n + per_task - 1) / per_task);
    if (slurm_wait(sw, grid, missing, n, dir, job, !opt->quiet && isatty(STDERR_FILENO)) != 0)
        return 1;
    return slurm_finish(sw, grid, missing, n, dir, per_task, start, opt->quiet);
}

/* ---- inside a task ---- */

/* Reads this task's lines of DIR/slurm-points.txt into jobs; returns their count or -1. */
static int slurm_task_jobs(const struct sweep_grid *grid, const char *dir, int task, int per_task,
                           int *jobs)
{
    char path[SWEEP_PATH_LEN];
    snprintf(path, sizeof path, "%.4000s/slurm-points.txt", dir);
    char *text = sweep_doc_read_text(path), *line = text;
    if (!text) {
        fprintf(stderr, "dfsim: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    int n = 0;
    for (long l = 0; line && *line && n < per_task; l++) {
        int index;
        char hash[SWEEP_HASH_LEN + 8];
        if (l >= (long)task * per_task) {
            /* a list written by an earlier dfsim names its points by their legacy hashes */
            if (sscanf(line, "%d %20s", &index, hash) != 2 || index < 0 || index >= grid->n_jobs ||
                (strcmp(grid->jobs[index].hash, hash) != 0 &&
                 strcmp(grid->jobs[index].legacy_hash, hash) != 0)) {
                fprintf(stderr,
                        "dfsim: %s:%ld: point no longer matches the sweep file (it "
                        "changed since the submission: submit again)\n",
                        path, l + 1);
                free(text);
                return -1;
            }
            jobs[n++] = index;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    free(text);
    return n;
}

int slurm_task(const struct sweep *sw, const struct sweep_grid *grid, const char *dir, int task,
               int per_task)
{
    int *jobs = malloc((size_t)per_task * sizeof *jobs);
    if (!jobs) {
        fprintf(stderr, "dfsim: out of memory\n");
        return 1;
    }
    int n = slurm_task_jobs(grid, dir, task, per_task, jobs), todo = 0;
    for (int i = 0; i < n; i++)
        if (!sweep_run_done(sw, grid, jobs[i], dir)) /* a requeued task skips what is done */
            jobs[todo++] = jobs[i];
    struct sweep_pool_options opt = {1, true};
    struct sweep_pool_report rep = {0, 0, 0};
    int rc = n < 0 ? 1 : 0;
    if (n > 0 && sweep_pool_run(sw, grid, jobs, todo, dir, &opt, &rep) != 0)
        rc = 1;
    free(jobs);
    if (rc == 0 && rep.failed == 0)
        printf("dfsim: task %d: %d points, %d run, %d already done\n", task, n, rep.ran, n - todo);
    return rc || rep.failed ? 1 : 0;
}
