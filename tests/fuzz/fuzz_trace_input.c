/* fuzz_trace_input: one fuzzing input of the trace reader and replay (see fuzz_input.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "trace_program.h"
#include "trace_reader.h"
#include "trace_replay.h"

#define FUZZ_TRACE_BASE "tests/data/otf2_mpi_coverage_10ranks"

/* The files of the base archive an input may replace, by its first byte: the ones whose
 * records dfsim's callbacks read. Not the anchor (traces.otf2): libotf2 parses it alone, and
 * callocs the location table a corrupt anchor declares (12 GB for one such input) before it
 * refuses the file; the reader's refusals of bad anchors are unit tests (suite trace). */
static const char *const fuzz_trace_files[] = {"traces.def", "traces/0.evt", "traces/0.def",
                                               "traces/9.evt"};
#define FUZZ_TRACE_FILES (sizeof fuzz_trace_files / sizeof fuzz_trace_files[0])

static char fuzz_trace_dir[64];

/* A private copy of the base archive, made once per process. */
static int fuzz_trace_setup(void)
{
    if (fuzz_trace_dir[0])
        return 0;
    char dir[] = "/tmp/dfsim-fuzztrace-XXXXXX", command[512];
    if (!mkdtemp(dir))
        return -1;
    snprintf(command, sizeof command, "cp -r %s/traces.otf2 %s/traces.def %s/traces %s/",
             FUZZ_TRACE_BASE, FUZZ_TRACE_BASE, FUZZ_TRACE_BASE, dir);
    if (system(command) != 0)
        return -1;
    snprintf(fuzz_trace_dir, sizeof fuzz_trace_dir, "%s", dir);
    return 0;
}

static int fuzz_trace_put(const char *name, const uint8_t *data, size_t size)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", fuzz_trace_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* An instant network: every message leaves and arrives in the cycle after it was sent. */
struct fuzz_trace_net {
    struct trace_replay *t;
    struct fuzz_trace_msg {
        int32_t src, dst;
        uint32_t tag;
    } * queue;
    size_t count, capacity;
    bool failed;
};

static void fuzz_trace_send(void *ctx, int32_t src, int32_t dst, uint64_t bytes, uint32_t tag)
{
    (void)bytes;
    struct fuzz_trace_net *net = ctx;
    if (net->count == net->capacity) {
        size_t capacity = net->capacity ? 2 * net->capacity : 256;
        struct fuzz_trace_msg *grown = realloc(net->queue, capacity * sizeof *grown);
        if (!grown) {
            net->failed = true;
            return;
        }
        net->queue = grown;
        net->capacity = capacity;
    }
    net->queue[net->count++] = (struct fuzz_trace_msg){src, dst, tag};
}

/* Reads the base archive with one file replaced by the input (its first byte says which). A
 * refusal must name the anchor file; an accepted trace whose receives all have their sends
 * must replay to its end or report why it cannot, within a bounded number of cycles. */
int fuzz_trace_input(const uint8_t *data, size_t size, char *why, size_t why_len)
{
    if (size < 1)
        return 0;
    if (fuzz_trace_setup() != 0)
        return fuzz_fail(why, why_len, "cannot set up the base archive");
    const char *name = fuzz_trace_files[data[0] % FUZZ_TRACE_FILES];
    if (fuzz_trace_put(name, data + 1, size - 1) != 0)
        return fuzz_fail(why, why_len, "cannot write %s", name);
    char anchor[128], err[1024];
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", fuzz_trace_dir);
    struct trace_program p;
    int rc = trace_read(anchor, TRACE_ALLREDUCE_THRESHOLD, &p, err, sizeof err);
    /* the base archive again for the next input */
    char command[512];
    snprintf(command, sizeof command, "cp %s/%s %s/%s", FUZZ_TRACE_BASE, name, fuzz_trace_dir,
             name);
    if (system(command) != 0)
        return fuzz_fail(why, why_len, "cannot restore %s", name);
    if (rc != 0)
        return strncmp(err, anchor, strlen(anchor)) == 0
                   ? 0
                   : fuzz_fail(why, why_len, "refusal without the file's name: %s", err);
    if (trace_program_check_matching(&p, err, sizeof err) != 0 || p.nranks > 64) {
        trace_program_free(&p);
        return 0;
    }
    struct trace_replay_params params;
    trace_replay_params_default(&params);
    params.compute_scale = 0;
    struct trace_replay *t = trace_replay_create(&p, &params, err, sizeof err);
    struct fuzz_trace_net net = {.t = t};
    int result = 0;
    if (t) {
        trace_replay_start(t, 0);
        for (uint64_t now = 0; now < 200000 && !trace_replay_done(t) && !net.failed; now++) {
            if (trace_replay_advance(t, now, fuzz_trace_send, &net) != 0)
                break;
            size_t n = net.count;
            net.count = 0;
            for (size_t i = 0; i < n; i++) {
                trace_replay_sent(t, net.queue[i].src, net.queue[i].tag, now + 1);
                trace_replay_delivered(t, net.queue[i].src, net.queue[i].dst, net.queue[i].tag,
                                       now + 1);
            }
            if (!n && trace_replay_next_wake(t) == UINT64_MAX)
                break; /* stuck: the watchdog's case, which must say why */
        }
        if (!trace_replay_done(t) && trace_replay_check_stuck(t) == 0)
            result = fuzz_fail(why, why_len, "a replay neither finished nor said why");
        if (!trace_replay_done(t) && !trace_replay_error(t))
            result = fuzz_fail(why, why_len, "a replay stopped without a message");
        trace_replay_destroy(t);
    }
    free(net.queue);
    trace_program_free(&p);
    return result;
}
