/* trace_writer: recording messages and writing them as OTF2 (see trace_writer.h). Records are
 * kept per rank in memory and written at the end, each rank's in time order: at equal cycles
 * receives first, then sends and departures by request, a departure after its own send and
 * before later sends (which it may have allowed). */
#include "trace_writer.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

enum writer_kind { REC_RECEIVED, REC_SEND, REC_LEFT };

struct writer_record {
    uint64_t cycle, seq;
    uint8_t kind;
    bool after_compute; /* RECEIVED: arrived during compute, moved to its end */
    int32_t peer;
    uint64_t bytes;
    uint64_t request; /* SEND: the request it opens; LEFT: the one it completes */
};

struct writer_rank {
    struct writer_record *records;
    uint64_t count, capacity;
    uint64_t sends, left; /* requests: the k-th send opens request k (from 1) */
    uint64_t early;       /* sends made before the start: not recorded, nor their departures */
    struct writer_compute {
        uint64_t from, to;
    } * computes; /* the rank's compute phases, in time order */
    uint64_t compute_count, compute_capacity;
};

struct trace_writer {
    int nranks;
    double cycle_ns;
    uint64_t start, seq;
    struct writer_rank *ranks;
};

struct trace_writer *trace_writer_create(int nranks, double cycle_ns, uint64_t start)
{
    struct trace_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->nranks = nranks;
    w->cycle_ns = cycle_ns;
    w->start = start;
    w->ranks = calloc((size_t)nranks, sizeof *w->ranks);
    if (!w->ranks) {
        free(w);
        return NULL;
    }
    return w;
}

void trace_writer_destroy(struct trace_writer *w)
{
    if (!w)
        return;
    for (int r = 0; r < w->nranks; r++) {
        free(w->ranks[r].records);
        free(w->ranks[r].computes);
    }
    free(w->ranks);
    free(w);
}

static int writer_add(struct trace_writer *w, int32_t rank, struct writer_record rec)
{
    struct writer_rank *rk = &w->ranks[rank];
    if (rk->count == rk->capacity) {
        uint64_t capacity = rk->capacity ? 2 * rk->capacity : 64;
        struct writer_record *grown = realloc(rk->records, capacity * sizeof *grown);
        if (!grown)
            return -1;
        rk->records = grown;
        rk->capacity = capacity;
    }
    rec.seq = w->seq++;
    rk->records[rk->count++] = rec;
    return 0;
}

int trace_writer_send(struct trace_writer *w, int32_t src, int32_t dst, uint64_t bytes,
                      uint64_t cycle)
{
    if (cycle < w->start) {
        w->ranks[src].early++;
        return 0;
    }
    return writer_add(w, src, (struct writer_record){.cycle = cycle, .kind = REC_SEND,
                                                     .peer = dst, .bytes = bytes,
                                                     .request = ++w->ranks[src].sends});
}

int trace_writer_left(struct trace_writer *w, int32_t src, uint64_t cycle)
{
    if (w->ranks[src].early) {
        w->ranks[src].early--;
        return 0;
    }
    if (w->ranks[src].left >= w->ranks[src].sends)
        return -1; /* nothing of src's is on its way */
    return writer_add(w, src, (struct writer_record){.cycle = cycle, .kind = REC_LEFT,
                                                     .request = ++w->ranks[src].left});
}

int trace_writer_received(struct trace_writer *w, int32_t src, int32_t dst, uint64_t bytes,
                          uint64_t made, uint64_t cycle)
{
    if (made < w->start)
        return 0;
    return writer_add(w, dst, (struct writer_record){.cycle = cycle, .kind = REC_RECEIVED,
                                                     .peer = src, .bytes = bytes});
}

int trace_writer_compute(struct trace_writer *w, int32_t rank, uint64_t from, uint64_t to)
{
    struct writer_rank *rk = &w->ranks[rank];
    if (to <= w->start)
        return 0;
    if (rk->compute_count == rk->compute_capacity) {
        uint64_t capacity = rk->compute_capacity ? 2 * rk->compute_capacity : 16;
        struct writer_compute *grown = realloc(rk->computes, capacity * sizeof *grown);
        if (!grown)
            return -1;
        rk->computes = grown;
        rk->compute_capacity = capacity;
    }
    rk->computes[rk->compute_count++] = (struct writer_compute){from, to};
    return 0;
}

static int record_cmp(const void *a, const void *b)
{
    const struct writer_record *x = a, *y = b;
    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    /* receives, then sends and departures, then receives that waited for a compute phase's
     * end: the rank issued the sends it made then before waiting */
    int xo = x->kind != REC_RECEIVED ? 1 : x->after_compute ? 2 : 0;
    int yo = y->kind != REC_RECEIVED ? 1 : y->after_compute ? 2 : 0;
    if (xo != yo)
        return xo < yo ? -1 : 1;
    if (x->kind != REC_RECEIVED && x->request != y->request)
        return x->request < y->request ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- the archive -------------------------------------------------------------------------- */

enum { STR_EMPTY, STR_INIT, STR_ISEND, STR_WAIT, STR_RECV, STR_FINALIZE, STR_WORLD, STR_MACHINE,
       STR_NODE, STR_THREAD, STR_RANKS }; /* rank r's name is STR_RANKS + r */
enum { REG_INIT, REG_ISEND, REG_WAIT, REG_RECV, REG_FINALIZE };

static OTF2_FlushType writer_pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef location,
                                       void *caller, bool final)
{
    (void)user;
    (void)type;
    (void)location;
    (void)caller;
    (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp writer_post_flush(void *user, OTF2_FileType type, OTF2_LocationRef location)
{
    (void)user;
    (void)type;
    (void)location;
    return 0;
}

static const OTF2_FlushCallbacks writer_flush = {writer_pre_flush, writer_post_flush};

/* Moves each receive that arrived during one of the rank's compute phases (sorted records) to
 * that phase's end; true when it moved any. */
static bool writer_after_compute(struct writer_rank *rk)
{
    bool moved = false;
    uint64_t c = 0;
    for (uint64_t i = 0; i < rk->count; i++) {
        struct writer_record *rec = &rk->records[i];
        while (c < rk->compute_count && rk->computes[c].to <= rec->cycle)
            c++;
        if (c < rk->compute_count && rec->kind == REC_RECEIVED &&
            rk->computes[c].from < rec->cycle) {
            rec->cycle = rk->computes[c].to;
            rec->after_compute = moved = true;
        }
    }
    return moved;
}

/* One rank's events; returns how many, or -1. */
static int64_t writer_rank_events(struct trace_writer *w, int32_t rank, OTF2_EvtWriter *ev,
                                  uint64_t end)
{
    struct writer_rank *rk = &w->ranks[rank];
    qsort(rk->records, rk->count, sizeof *rk->records, record_cmp);
    if (writer_after_compute(rk))
        qsort(rk->records, rk->count, sizeof *rk->records, record_cmp);
    int64_t n = 0;
    uint64_t free_from = w->start;
    uint64_t computed_to = w->start; /* the end of the last compute phase begun before rec */
    uint64_t next_compute = 0;
    bool ok = OTF2_EvtWriter_Enter(ev, NULL, w->start, REG_INIT) == OTF2_SUCCESS &&
              OTF2_EvtWriter_Leave(ev, NULL, w->start, REG_INIT) == OTF2_SUCCESS;
    n += 2;
    for (uint64_t i = 0; i < rk->count && ok; i++) {
        const struct writer_record *rec = &rk->records[i];
        uint64_t t = rec->cycle;
        for (; next_compute < rk->compute_count && rk->computes[next_compute].from < t;
             next_compute++)
            computed_to = rk->computes[next_compute].to;
        /* A send made the cycle after the arrival or departure that allowed it is the engine's
         * reaction, which the replay makes again: not compute (nor for the sends made with
         * it). */
        const struct writer_record *prev = i > 0 ? &rk->records[i - 1] : NULL;
        if (rec->kind == REC_SEND && prev && prev->cycle == t && prev->kind == REC_SEND)
            t = free_from;
        else if (rec->kind == REC_SEND && prev && prev->kind != REC_SEND && t == free_from + 1)
            t = free_from;
        switch (rec->kind) {
        case REC_SEND:
            ok = OTF2_EvtWriter_Enter(ev, NULL, t, REG_ISEND) == OTF2_SUCCESS &&
                 OTF2_EvtWriter_MpiIsend(ev, NULL, t, (uint32_t)rec->peer, 0, 0, rec->bytes,
                                         rec->request) == OTF2_SUCCESS &&
                 OTF2_EvtWriter_Leave(ev, NULL, t, REG_ISEND) == OTF2_SUCCESS;
            break;
        case REC_LEFT:
            ok = OTF2_EvtWriter_Enter(ev, NULL, free_from, REG_WAIT) == OTF2_SUCCESS &&
                 OTF2_EvtWriter_MpiIsendComplete(ev, NULL, t, rec->request) == OTF2_SUCCESS &&
                 OTF2_EvtWriter_Leave(ev, NULL, t, REG_WAIT) == OTF2_SUCCESS;
            break;
        case REC_RECEIVED:
            /* The rank waits only once its compute is over: a message that arrived during
             * compute is a receive at its end that takes no time. */
            if (free_from < computed_to)
                free_from = computed_to;
            if (t < free_from)
                t = free_from;
            ok = OTF2_EvtWriter_Enter(ev, NULL, free_from, REG_RECV) == OTF2_SUCCESS &&
                 OTF2_EvtWriter_MpiRecv(ev, NULL, t, (uint32_t)rec->peer, 0, 0, rec->bytes) ==
                     OTF2_SUCCESS &&
                 OTF2_EvtWriter_Leave(ev, NULL, t, REG_RECV) == OTF2_SUCCESS;
            break;
        }
        n += 3;
        free_from = t;
    }
    if (end < free_from)
        end = free_from;
    ok = ok && OTF2_EvtWriter_Enter(ev, NULL, free_from, REG_FINALIZE) == OTF2_SUCCESS &&
         OTF2_EvtWriter_Leave(ev, NULL, end, REG_FINALIZE) == OTF2_SUCCESS;
    n += 2;
    return ok ? n : -1;
}

static bool writer_definitions(struct trace_writer *w, OTF2_Archive *archive,
                               const int64_t *events, uint64_t end)
{
    OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(archive);
    if (!d)
        return false;
    uint64_t resolution = (uint64_t)llround(1e9 / w->cycle_ns);
    bool ok = OTF2_GlobalDefWriter_WriteClockProperties(d, resolution ? resolution : 1, w->start,
                                                        end - w->start,
                                                        OTF2_UNDEFINED_TIMESTAMP) == OTF2_SUCCESS;
    static const char *const names[] = {"",          "MPI_Init",      "MPI_Isend",
                                        "MPI_Wait",  "MPI_Recv",      "MPI_Finalize",
                                        "MPI_COMM_WORLD", "dfsim",    "node",
                                        "Master thread"};
    for (uint32_t s = 0; s < STR_RANKS && ok; s++)
        ok = OTF2_GlobalDefWriter_WriteString(d, s, names[s]) == OTF2_SUCCESS;
    for (int r = 0; r < w->nranks && ok; r++) {
        char name[32];
        snprintf(name, sizeof name, "MPI Rank %d", r);
        ok = OTF2_GlobalDefWriter_WriteString(d, STR_RANKS + (uint32_t)r, name) == OTF2_SUCCESS;
    }
    ok = ok && OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, STR_MACHINE, STR_NODE,
                                                        OTF2_UNDEFINED_SYSTEM_TREE_NODE) ==
                   OTF2_SUCCESS;
    for (int r = 0; r < w->nranks && ok; r++)
        ok = OTF2_GlobalDefWriter_WriteLocationGroup(d, (uint32_t)r, STR_RANKS + (uint32_t)r,
                                                     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                     OTF2_UNDEFINED_LOCATION_GROUP) ==
                 OTF2_SUCCESS;
    for (int r = 0; r < w->nranks && ok; r++)
        ok = OTF2_GlobalDefWriter_WriteLocation(d, (uint64_t)r, STR_THREAD,
                                                OTF2_LOCATION_TYPE_CPU_THREAD,
                                                (uint64_t)events[r], (uint32_t)r) == OTF2_SUCCESS;
    static const uint32_t region_names[] = {STR_INIT, STR_ISEND, STR_WAIT, STR_RECV, STR_FINALIZE};
    for (uint32_t g = 0; g < 5 && ok; g++)
        ok = OTF2_GlobalDefWriter_WriteRegion(d, g, region_names[g], region_names[g], STR_EMPTY,
                                              OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                              OTF2_REGION_FLAG_NONE, STR_EMPTY, 0, 0) ==
             OTF2_SUCCESS;
    uint64_t *members = malloc((size_t)w->nranks * sizeof *members);
    ok = ok && members;
    for (int r = 0; ok && r < w->nranks; r++)
        members[r] = (uint64_t)r;
    ok = ok &&
         OTF2_GlobalDefWriter_WriteGroup(d, 0, STR_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                         OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                         (uint32_t)w->nranks, members) == OTF2_SUCCESS &&
         OTF2_GlobalDefWriter_WriteGroup(d, 1, STR_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                         OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                         (uint32_t)w->nranks, members) == OTF2_SUCCESS &&
         OTF2_GlobalDefWriter_WriteComm(d, 0, STR_WORLD, 1, OTF2_UNDEFINED_COMM,
                                        OTF2_COMM_FLAG_NONE) == OTF2_SUCCESS;
    free(members);
    return OTF2_Archive_CloseGlobalDefWriter(archive, d) == OTF2_SUCCESS && ok;
}

int trace_writer_write(struct trace_writer *w, const char *dir, uint64_t end, char *err,
                       size_t err_len)
{
    char anchor[4096];
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
    if (access(anchor, F_OK) == 0) {
        snprintf(err, err_len, "%s exists (a recording is a new archive: remove it, or choose "
                 "another --trace-out)", anchor);
        return -1;
    }
    OTF2_Archive *archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                                              4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                              OTF2_COMPRESSION_NONE);
    if (!archive) {
        snprintf(err, err_len, "%s: cannot create an OTF2 archive there", dir);
        return -1;
    }
    int64_t *events = calloc((size_t)w->nranks, sizeof *events);
    bool ok = events && OTF2_Archive_SetFlushCallbacks(archive, &writer_flush, NULL) == OTF2_SUCCESS &&
              OTF2_Archive_SetSerialCollectiveCallbacks(archive) == OTF2_SUCCESS &&
              OTF2_Archive_OpenEvtFiles(archive) == OTF2_SUCCESS;
    for (int r = 0; r < w->nranks && ok; r++) {
        OTF2_EvtWriter *ev = OTF2_Archive_GetEvtWriter(archive, (uint64_t)r);
        events[r] = ev ? writer_rank_events(w, r, ev, end) : -1;
        ok = events[r] >= 0 && OTF2_Archive_CloseEvtWriter(archive, ev) == OTF2_SUCCESS;
    }
    ok = ok && OTF2_Archive_CloseEvtFiles(archive) == OTF2_SUCCESS &&
         OTF2_Archive_OpenDefFiles(archive) == OTF2_SUCCESS;
    for (int r = 0; r < w->nranks && ok; r++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(archive, (uint64_t)r);
        ok = d && OTF2_Archive_CloseDefWriter(archive, d) == OTF2_SUCCESS;
    }
    ok = ok && OTF2_Archive_CloseDefFiles(archive) == OTF2_SUCCESS &&
         writer_definitions(w, archive, events, end < w->start ? w->start : end);
    ok = OTF2_Archive_Close(archive) == OTF2_SUCCESS && ok;
    free(events);
    if (!ok) {
        snprintf(err, err_len, "%s: writing the OTF2 archive failed (does it exist already, or "
                 "is the disk full?)", dir);
        return -1;
    }
    return 0;
}
