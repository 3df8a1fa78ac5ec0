/* packet_log: the packets followed hop by hop, as JSON lines (see packet_log.h). */
#include "packet_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text_file.h"

static int packet_log_compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A 64-bit mix of the packet's id and the run's seed (splitmix64's finaliser): choosing by it
 * draws no random number, so logging leaves the run as it was. */
static uint64_t packet_log_hash(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

struct packet_log *packet_log_open(const struct sim_config *cfg, char *err, int err_len)
{
    struct packet_log *log = calloc(1, sizeof *log);
    if (!log) {
        snprintf(err, (size_t)err_len, "out of memory");
        return NULL;
    }
    const struct config_stats *st = &cfg->stats;
    char dir[4096];
    text_file_folder(cfg->path[0] ? cfg->path : ".", dir, sizeof dir);
    if (st->packet_log[0] == '/' || !cfg->path[0])
        snprintf(log->path, sizeof log->path, "%s", st->packet_log);
    else if (snprintf(log->path, sizeof log->path, "%s/%s", dir, st->packet_log) >=
             (int)sizeof log->path) {
        snprintf(err, (size_t)err_len, "stats.packet_log: path too long");
        free(log);
        return NULL;
    }
    log->window_start = (uint64_t)cfg->sim.warmup_cycles;
    log->seed = (uint64_t)cfg->sim.seed;
    log->injection_latency = cfg->links.injection_latency;
    double f = st->packet_log_fraction;
    double scaled = f * 18446744073709551616.0; /* f * 2^64, converted only below 2^64 */
    log->threshold = scaled >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)scaled;
    log->all = f == 0.0 && st->packet_log_pairs.count == 0;
    log->n_pairs = st->packet_log_pairs.count / 2;
    log->pairs = calloc(log->n_pairs > 0 ? (size_t)log->n_pairs : 1, sizeof *log->pairs);
    if (!log->pairs) {
        snprintf(err, (size_t)err_len, "out of memory");
        free(log);
        return NULL;
    }
    for (int i = 0; i < log->n_pairs; i++)
        log->pairs[i] = (uint64_t)st->packet_log_pairs.values[2 * i] << 32 |
                        (uint64_t)st->packet_log_pairs.values[2 * i + 1];
    qsort(log->pairs, (size_t)log->n_pairs, sizeof *log->pairs, packet_log_compare);
    snprintf(log->temp, sizeof log->temp, "%s.XXXXXX", log->path);
    int fd = mkstemp(log->temp);
    log->file = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!log->file) {
        snprintf(err, (size_t)err_len, "cannot write the packet log %.300s: %s", log->path,
                 strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(log->temp);
        }
        free(log->pairs);
        free(log);
        return NULL;
    }
    return log;
}

static bool packet_log_wants(const struct packet_log *log, const struct packet *pk)
{
    if (pk->gen_cycle < log->window_start)
        return false;
    if (log->all)
        return true;
    uint64_t key = (uint64_t)pk->src << 32 | pk->dst;
    if (log->n_pairs &&
        bsearch(&key, log->pairs, (size_t)log->n_pairs, sizeof key, packet_log_compare))
        return true;
    return log->threshold && packet_log_hash(pk->id ^ packet_log_hash(log->seed)) < log->threshold;
}

/* Grows an array of `size`-byte elements to hold `need` (doubling); 0 or -1. */
static int packet_log_reserve(void **array, uint32_t *capacity, uint32_t need, size_t size,
                              bool zero)
{
    if (need <= *capacity)
        return 0;
    uint32_t cap = *capacity ? *capacity : 256;
    while (cap < need)
        cap *= 2;
    void *grown = realloc(*array, (size_t)cap * size);
    if (!grown)
        return -1;
    if (zero)
        memset((char *)grown + (size_t)*capacity * size, 0, (size_t)(cap - *capacity) * size);
    *array = grown;
    *capacity = cap;
    return 0;
}

/* A trace for packet `index`, or NULL (memory: the log is marked failed). */
static struct packet_log_trace *packet_log_start(struct packet_log *log, uint32_t index)
{
    uint32_t slot;
    if (log->n_free) {
        slot = log->free_traces[--log->n_free];
    } else {
        uint32_t capacity = log->trace_capacity;
        if (packet_log_reserve((void **)&log->traces, &log->trace_capacity, log->n_traces + 1,
                               sizeof *log->traces, false) != 0) {
            log->failed = true;
            return NULL;
        }
        /* The free and done lists hold at most every trace. */
        if (log->trace_capacity != capacity) {
            uint32_t *f = realloc(log->free_traces, log->trace_capacity * sizeof *f);
            if (f)
                log->free_traces = f;
            uint32_t *d = realloc(log->done, log->trace_capacity * sizeof *d);
            if (d)
                log->done = d;
            if (!f || !d) {
                log->failed = true;
                return NULL;
            }
        }
        slot = log->n_traces++;
    }
    if (packet_log_reserve((void **)&log->slot_of, &log->slot_capacity, index + 1,
                           sizeof *log->slot_of, true) != 0) {
        log->failed = true;
        return NULL;
    }
    log->slot_of[index] = slot + 1;
    return &log->traces[slot];
}

static struct packet_log_trace *packet_log_find(const struct packet_log *log, uint32_t index)
{
    if (index >= log->slot_capacity || !log->slot_of[index])
        return NULL;
    return &log->traces[log->slot_of[index] - 1];
}

/* network.h on_hop: a hop granted now; the first (from an injection queue) decides whether
 * the packet is followed. */
static void packet_log_on_hop(void *ctx, const struct network *net, int router, int in_port,
                              uint32_t index, const struct route_choice *choice)
{
    struct packet_log *log = ctx;
    const struct packet *pk = network_packet(net, index);
    struct packet_log_trace *tr;
    uint64_t arrive;
    if (network_port_class(net, router, in_port) == PORT_NODE) {
        if (!packet_log_wants(log, pk) || !(tr = packet_log_start(log, index)))
            return;
        *tr = (struct packet_log_trace){.id = pk->id,
                                        .src = pk->src,
                                        .dst = pk->dst,
                                        .generated = pk->gen_cycle};
        arrive = (uint64_t)pk->gen_cycle + (uint64_t)log->injection_latency;
    } else {
        tr = packet_log_find(log, index);
        if (!tr)
            return;
        arrive = tr->next_arrive;
    }
    if (tr->n_hops == PACKET_LOG_MAX_HOPS) {
        tr->truncated = true;
        return;
    }
    tr->hops[tr->n_hops++] = (struct packet_log_hop){
        .router = router,
        .in_port = (uint8_t)in_port,
        .out_port = (uint8_t)choice->out_port,
        .vc = (uint8_t)choice->vc,
        .out_class = (uint8_t)network_port_class(net, router, choice->out_port),
        .arrive = arrive,
        .grant = net->cycle,
    };
}

/* network.h on_send: the head leaves on the link now; it arrives at `arrival`. */
static void packet_log_on_send(void *ctx, const struct network *net, int router, int out_port,
                               uint32_t index, uint64_t arrival)
{
    struct packet_log *log = ctx;
    struct packet_log_trace *tr = packet_log_find(log, index);
    (void)router;
    (void)out_port;
    if (!tr)
        return;
    if (!tr->truncated && tr->n_hops > 0)
        tr->hops[tr->n_hops - 1].leave = net->cycle;
    tr->next_arrive = arrival;
}

void packet_log_attach(struct packet_log *log, struct network *net)
{
    net->on_hop = packet_log_on_hop;
    net->on_hop_ctx = log;
    net->on_send = packet_log_on_send;
    net->on_send_ctx = log;
    net->observe_sends = true;
}

void packet_log_delivered(struct packet_log *log, const struct network *net, uint32_t index)
{
    struct packet_log_trace *tr = packet_log_find(log, index);
    if (!tr)
        return;
    const struct packet *pk = network_packet(net, index);
    tr->delivered = net->cycle;
    tr->hops_local = pk->hops_local;
    tr->hops_global = pk->hops_global;
    log->done[log->n_done++] = log->slot_of[index] - 1;
    log->slot_of[index] = 0;
}

static const char *const packet_log_classes[] = {"node", "local", "global"};

static void packet_log_write_trace(FILE *f, const struct packet_log_trace *tr)
{
    fprintf(f,
            "{\"id\": %" PRIu32 ", \"src\": %" PRIu32 ", \"dst\": %" PRIu32
            ", \"generated\": %" PRIu64 ", \"delivered\": %" PRIu64 ", \"latency\": %" PRIu64
            ", \"hops_local\": %d, \"hops_global\": %d, \"truncated\": %s, \"path\": [",
            tr->id, tr->src, tr->dst, tr->generated, tr->delivered, tr->delivered - tr->generated,
            tr->hops_local, tr->hops_global, tr->truncated ? "true" : "false");
    for (int h = 0; h < tr->n_hops; h++) {
        const struct packet_log_hop *hp = &tr->hops[h];
        fprintf(f,
                "%s{\"router\": %" PRId32 ", \"in_port\": %d, \"out_port\": %d, \"out\": \"%s\", "
                "\"vc\": %d, \"arrive\": %" PRIu64 ", \"grant\": %" PRIu64 ", \"leave\": %" PRIu64
                "}",
                h ? ", " : "", hp->router, hp->in_port, hp->out_port,
                packet_log_classes[hp->out_class < 3 ? hp->out_class : 0], hp->vc, hp->arrive,
                hp->grant, hp->leave);
    }
    fputs("]}\n", f);
}

int packet_log_flush(struct packet_log *log)
{
    for (uint32_t i = 0; i < log->n_done; i++) {
        packet_log_write_trace(log->file, &log->traces[log->done[i]]);
        log->free_traces[log->n_free++] = log->done[i];
    }
    log->written += log->n_done;
    log->n_done = 0;
    if (ferror(log->file))
        log->failed = true;
    return log->failed ? -1 : 0;
}

int packet_log_close(struct packet_log *log, bool ok, char *err, int err_len)
{
    if (!log)
        return 0;
    int rc = 0;
    if (ok) {
        packet_log_flush(log);
        if (log->failed || fflush(log->file) != 0 || fsync(fileno(log->file)) != 0) {
            snprintf(err, (size_t)err_len, "cannot write the packet log %.300s%s", log->path,
                     log->failed ? " (out of memory or disk full)" : "");
            rc = -1;
        }
    }
    fclose(log->file);
    if (ok && rc == 0 && rename(log->temp, log->path) != 0) {
        snprintf(err, (size_t)err_len, "cannot write the packet log %.300s: %s", log->path,
                 strerror(errno));
        rc = -1;
    }
    if (!ok || rc != 0)
        unlink(log->temp);
    free(log->pairs);
    free(log->slot_of);
    free(log->traces);
    free(log->free_traces);
    free(log->done);
    free(log);
    return rc;
}
