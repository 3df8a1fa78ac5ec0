/* packet_log: following packets (stats.packet_log, dfsim run --packet-log FILE): the path of
 * chosen packets and the cycle of every step at every router, written as JSON lines
 * (src/METRICS.md, "Following packets"). Layer: an observer: the network calls it for every
 * hop granted and every packet put on a link (network.h, on_hop and on_send), the cycle loop
 * for every delivery; it reads the network through const pointers and changes nothing of the
 * run. It keeps its records in memory and formats them only between cycles
 * (packet_log_flush), never inside a cycle's phases. */
#ifndef DFSIM_PACKET_LOG_H
#define DFSIM_PACKET_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "network.h"

#define PACKET_LOG_MAX_HOPS 24

/* One router on a packet's path: where its head arrived, was granted the crossbar and left
 * on the output link (cycles). */
struct packet_log_hop {
    int32_t router;
    uint8_t in_port, out_port, vc, out_class;
    uint64_t arrive, grant, leave;
};

struct packet_log_trace {
    uint32_t id, src, dst;
    uint64_t generated, delivered, next_arrive;
    uint8_t hops_local, hops_global;
    int n_hops;
    bool truncated; /* more than PACKET_LOG_MAX_HOPS hops: the first ones are kept */
    struct packet_log_hop hops[PACKET_LOG_MAX_HOPS];
};

struct packet_log {
    char path[SETTING_STRING_LEN + 8], temp[SETTING_STRING_LEN + 16];
    FILE *file;
    uint64_t window_start, seed;
    uint64_t threshold; /* a packet whose id hashes below it is logged (fraction) */
    bool all;           /* no fraction and no pairs: every packet */
    uint64_t *pairs;    /* sorted src << 32 | dst */
    int n_pairs;
    int injection_latency;
    /* The traces: slot_of[packet index] = trace + 1 (0: not followed); traces in flight and
     * done, done ones listed in `done` until written. Everything grows by doubling. */
    uint32_t *slot_of;
    uint32_t slot_capacity;
    struct packet_log_trace *traces;
    uint32_t n_traces, trace_capacity;
    uint32_t *free_traces, n_free;
    uint32_t *done, n_done;
    uint64_t written;
    bool failed; /* out of memory or a write error: the run says so at the end */
};

/* Opens the log for cfg's stats.packet_log (relative to the config's folder) in a temporary
 * file beside it. Returns NULL with err filled on failure. */
struct packet_log *packet_log_open(const struct sim_config *cfg, char *err, int err_len);
/* Listens to net: sets its on_hop and on_send observers. */
void packet_log_attach(struct packet_log *log, struct network *net);
/* The packet at `index` reached its node now (call before the network releases it). */
void packet_log_delivered(struct packet_log *log, const struct network *net, uint32_t index);
/* Whether enough packets are done to be written (the cycle loop flushes between cycles). */
static inline bool packet_log_due(const struct packet_log *log)
{
    return log->n_done >= 4096;
}
/* Writes the packets done so far, one JSON line each. Returns 0 or -1. */
int packet_log_flush(struct packet_log *log);
/* Finishes the log: with ok, writes what is left and renames the temporary file to the log's
 * name (0, or -1 with err); without, removes it. Frees the log. */
int packet_log_close(struct packet_log *log, bool ok, char *err, int err_len);

#endif
