/* sweep_pool: a pool of forked workers, one per job, reaped in completion order. */
#include "sweep_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "progress.h"
#include "sweep_doc.h"
#include "sweep_run.h"

#define SWEEP_POOL_WIDTH 79

struct sweep_pool_worker {
    pid_t pid; /* 0: free slot */
    int job;
};

/* State of one sweep_pool_run. */
struct sweep_pool {
    const struct sweep *sw;
    const struct sweep_grid *grid;
    const char *dir;
    const int *jobs;
    int n, next, running, done, failed;
    struct sweep_pool_worker *workers;
    int n_workers;
    pid_t parent;
    bool show, shown; /* progress line enabled, currently on screen */
    double start;
};

void sweep_pool_log_path(const struct sweep_grid *grid, int j, const char *dir, char *out,
                         size_t len)
{
    const char *file = grid->jobs[j].file;
    size_t n = strlen(file);
    if (n > 5 && strcmp(file + n - 5, ".json") == 0)
        n -= 5;
    snprintf(out, len, "%s/%.*s.log", dir, (int)n, file);
}

/* ---- progress ---- */

static void sweep_pool_clear(struct sweep_pool *pool)
{
    if (pool->shown)
        fprintf(stderr, "\r%-*s\r", SWEEP_POOL_WIDTH, "");
    pool->shown = false;
}

static void sweep_pool_progress(struct sweep_pool *pool)
{
    if (!pool->show)
        return;
    double elapsed = progress_now() - pool->start;
    char eta[32] = "?";
    if (pool->done > 0) {
        long s = (long)(elapsed / pool->done * (pool->n - pool->done) + 0.5);
        if (s >= 3600)
            snprintf(eta, sizeof eta, "%ldh%02ldm", s / 3600, s / 60 % 60);
        else
            snprintf(eta, sizeof eta, "%ldm%02lds", s / 60, s % 60);
    }
    char line[160];
    snprintf(line, sizeof line, "sweep %.40s: %d/%d points done, %d failed, %d running, ETA %s",
             pool->sw->name, pool->done, pool->n, pool->failed, pool->running, eta);
    fprintf(stderr, "\r%-*s", SWEEP_POOL_WIDTH, line);
    fflush(stderr);
    pool->shown = true;
}

/* ---- workers ---- */

/* In the worker: dies with the pool (no orphan can run a point twice after a kill -9 of the
 * pool and a rerun), stderr into the job's log, then the job. */
static void sweep_pool_child(struct sweep_pool *pool, int j)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != pool->parent)
        _exit(SWEEP_RUN_FAILED);
    char log[SWEEP_PATH_LEN];
    sweep_pool_log_path(pool->grid, j, pool->dir, log, sizeof log);
    char *slash = strrchr(log, '/');
    *slash = '\0';
    int made = sweep_doc_mkdirs(log);
    *slash = '/';
    int fd = made == 0 ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (fd >= 0) {
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    _exit(sweep_run_job(pool->sw, pool->grid, j, pool->dir));
}

static int sweep_pool_start(struct sweep_pool *pool, struct sweep_pool_worker *w)
{
    int j = pool->jobs[pool->next];
    fflush(NULL); /* the child must not flush the parent's buffers again */
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        sweep_pool_child(pool, j);
    w->pid = pid;
    w->job = j;
    pool->next++;
    pool->running++;
    return 0;
}

/* The first line of the log, or a placeholder. */
static void sweep_pool_first_line(const char *log, char *out, size_t len)
{
    char *text = sweep_doc_read_text(log);
    char *p = text;
    while (p && (*p == '\n' || *p == ' '))
        p++;
    if (p && strncmp(p, "dfsim: ", 7) == 0)
        p += 7;
    if (p && *p)
        snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
    else
        snprintf(out, len, "no message");
    free(text);
}

static void sweep_pool_report_failure(struct sweep_pool *pool, int j, int status)
{
    char log[SWEEP_PATH_LEN], first[400], how[64];
    sweep_pool_log_path(pool->grid, j, pool->dir, log, sizeof log);
    sweep_pool_first_line(log, first, sizeof first);
    if (WIFEXITED(status))
        snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(status));
    else
        snprintf(how, sizeof how, "killed by signal %d",
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    sweep_pool_clear(pool);
    fprintf(stderr, "dfsim: point %d (%s) failed: %s (%s; log: %s)\n", j, pool->grid->jobs[j].file,
            first, how, log);
}

static void sweep_pool_finish(struct sweep_pool *pool, struct sweep_pool_worker *w, int status)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == SWEEP_RUN_OK) {
        char log[SWEEP_PATH_LEN];
        sweep_pool_log_path(pool->grid, w->job, pool->dir, log, sizeof log);
        unlink(log);
    } else {
        pool->failed++;
        sweep_pool_report_failure(pool, w->job, status);
    }
    pool->done++;
    pool->running--;
    w->pid = 0;
}

/* Waits for one worker to end. */
static void sweep_pool_reap(struct sweep_pool *pool)
{
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
        if (errno == ECHILD) /* cannot happen while workers run; avoid spinning if it does */
            pool->running = 0;
        return;
    }
    for (int i = 0; i < pool->n_workers; i++)
        if (pool->workers[i].pid == pid)
            sweep_pool_finish(pool, &pool->workers[i], status);
}

static struct sweep_pool_worker *sweep_pool_free_slot(struct sweep_pool *pool)
{
    for (int i = 0; i < pool->n_workers; i++)
        if (pool->workers[i].pid == 0)
            return &pool->workers[i];
    return NULL;
}

/* Starts what fits; a fork failure with nothing running counts the job as failed. */
static void sweep_pool_fill(struct sweep_pool *pool)
{
    struct sweep_pool_worker *w;
    while (pool->next < pool->n && (w = sweep_pool_free_slot(pool))) {
        if (sweep_pool_start(pool, w) == 0)
            continue;
        if (pool->running > 0)
            return;
        sweep_pool_clear(pool);
        fprintf(stderr, "dfsim: point %d: cannot start a worker: %s\n", pool->jobs[pool->next],
                strerror(errno));
        pool->failed++;
        pool->done++;
        pool->next++;
    }
}

int sweep_pool_run(const struct sweep *sw, const struct sweep_grid *grid, const int *jobs, int n,
                   const char *dir, const struct sweep_pool_options *opt,
                   struct sweep_pool_report *rep)
{
    struct sweep_pool pool = {.sw = sw, .grid = grid, .dir = dir, .jobs = jobs, .n = n};
    pool.n_workers = opt->workers < n ? opt->workers : n;
    if (pool.n_workers < 1)
        pool.n_workers = 1;
    pool.workers = calloc((size_t)pool.n_workers, sizeof *pool.workers);
    if (!pool.workers)
        return -1;
    pool.parent = getpid();
    pool.show = !opt->quiet && isatty(STDERR_FILENO);
    pool.start = progress_now();
    while (pool.next < pool.n || pool.running > 0) {
        sweep_pool_fill(&pool);
        sweep_pool_progress(&pool);
        if (pool.running > 0)
            sweep_pool_reap(&pool);
    }
    sweep_pool_clear(&pool);
    free(pool.workers);
    *rep = (struct sweep_pool_report){pool.done, pool.failed, progress_now() - pool.start};
    return 0;
}
