/* trace_reader: OTF2 archive -> per-rank programs (see trace_reader.h; the semantics are in
 * traffic/MODEL.md, "Trace jobs"). The definitions come first (clock, locations, groups,
 * communicators, regions), then every location's events in timestamp order through the
 * library's global event reader. */
#include "trace_reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#define TRACE_MAX_ID (1u << 24) /* definitions numbered beyond this are taken as corrupt */

struct reader_group {
    bool defined;
    uint8_t type; /* OTF2_GroupType */
    uint32_t n;
    uint64_t *members;
};

struct reader_comm {
    bool defined, resolved;
    uint32_t group;
    int32_t *ranks; /* the job's ranks in communicator rank order, once resolved */
    int size;
};

struct reader_active {
    uint64_t id;      /* the trace's request id */
    uint32_t request; /* the program's */
    uint32_t op;      /* the op that opened it */
};

struct reader_rank {
    int depth; /* nesting of MPI regions */
    bool started;
    uint64_t compute_from;
    uint64_t event; /* events read on this location so far */
    struct reader_active *active;
    uint32_t n_active, capacity;
};

struct reader_location {
    uint64_t id;
    int32_t rank;
};

struct reader {
    const char *path;
    char *err;
    size_t err_len;
    bool failed;
    uint64_t allreduce_threshold;
    uint64_t ticks_per_second;
    bool have_clock;
    uint64_t *locations; /* every location, in definition order */
    uint32_t n_locations, cap_locations;
    struct reader_location *by_id; /* ranks' locations sorted by id */
    struct reader_group *groups;
    uint32_t n_groups;
    struct reader_comm *comms;
    uint32_t n_comms;
    uint8_t *region_mpi; /* [region]: 0 undefined, 1 not MPI, 2 MPI */
    uint32_t n_regions;
    char **strings;
    uint32_t n_strings;
    struct trace_program *prog;
    struct reader_rank *ranks;
    int32_t self[1];
};

static void reader_fail(struct reader *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    int n = snprintf(r->err, r->err_len, "%s: ", r->path);
    if (n < 0 || (size_t)n >= r->err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->err_len - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Grows *array of *n elements of size bytes to hold index (new elements zeroed). */
static int reader_grow(void **array, uint32_t *n, size_t size, uint64_t index)
{
    if (index < *n)
        return 0;
    if (index >= TRACE_MAX_ID)
        return -1;
    uint32_t want = *n ? *n : 16;
    while (want <= index)
        want *= 2;
    void *grown = realloc(*array, (size_t)want * size);
    if (!grown)
        return -1;
    memset((char *)grown + (size_t)*n * size, 0, (size_t)(want - *n) * size);
    *array = grown;
    *n = want;
    return 0;
}

/* ---- library errors: kept for our message instead of printed ------------------------------ */

static char reader_library_error[256];

static OTF2_ErrorCode reader_on_error(void *user, const char *file, uint64_t line,
                                      const char *function, OTF2_ErrorCode code,
                                      const char *format, va_list va)
{
    (void)user;
    (void)file;
    (void)line;
    (void)function;
    char text[200] = "";
    if (format)
        vsnprintf(text, sizeof text, format, va);
    snprintf(reader_library_error, sizeof reader_library_error, "%s%s%s",
             OTF2_Error_GetDescription(code), text[0] ? ": " : "", text);
    return code;
}

/* ---- definitions -------------------------------------------------------------------------- */

static OTF2_CallbackCode def_clock(void *user, uint64_t resolution, uint64_t offset,
                                   uint64_t length, uint64_t realtime)
{
    (void)offset;
    (void)length;
    (void)realtime;
    struct reader *r = user;
    r->ticks_per_second = resolution;
    r->have_clock = true;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *user, OTF2_StringRef self, const char *string)
{
    struct reader *r = user;
    if (reader_grow((void **)&r->strings, &r->n_strings, sizeof *r->strings, self) != 0) {
        reader_fail(r, "string definition %" PRIu32 " out of range", self);
        return OTF2_CALLBACK_INTERRUPT;
    }
    free(r->strings[self]);
    r->strings[self] = strdup(string ? string : "");
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *user, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    (void)name;
    (void)type;
    (void)events;
    (void)group;
    struct reader *r = user;
    if (r->n_locations == r->cap_locations) {
        uint32_t cap = r->cap_locations ? 2 * r->cap_locations : 64;
        uint64_t *grown = realloc(r->locations, (size_t)cap * sizeof *grown);
        if (!grown) {
            reader_fail(r, "out of memory");
            return OTF2_CALLBACK_INTERRUPT;
        }
        r->locations = grown;
        r->cap_locations = cap;
    }
    r->locations[r->n_locations++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *user, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    (void)name;
    (void)flags;
    struct reader *r = user;
    if (reader_grow((void **)&r->groups, &r->n_groups, sizeof *r->groups, self) != 0) {
        reader_fail(r, "group definition %" PRIu32 " out of range", self);
        return OTF2_CALLBACK_INTERRUPT;
    }
    struct reader_group *g = &r->groups[self];
    free(g->members);
    *g = (struct reader_group){.defined = true, .type = type, .n = n};
    g->members = malloc((n ? n : 1) * sizeof *g->members);
    if (!g->members) {
        reader_fail(r, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (n)
        memcpy(g->members, members, n * sizeof *members);
    /* Only MPI's location group gives the ranks' order; remember that it is MPI's. */
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm != OTF2_PARADIGM_MPI)
        g->type = OTF2_GROUP_TYPE_UNKNOWN;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *user, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    (void)name;
    (void)parent;
    (void)flags;
    struct reader *r = user;
    if (self >= TRACE_COLLECTIVE_CONTEXT ||
        reader_grow((void **)&r->comms, &r->n_comms, sizeof *r->comms, self) != 0) {
        reader_fail(r, "communicator definition %" PRIu32 " out of range", self);
        return OTF2_CALLBACK_INTERRUPT;
    }
    r->comms[self].defined = true;
    r->comms[self].group = group;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *user, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                    uint32_t end)
{
    (void)canonical;
    (void)description;
    (void)role;
    (void)flags;
    (void)file;
    (void)begin;
    (void)end;
    struct reader *r = user;
    if (reader_grow((void **)&r->region_mpi, &r->n_regions, 1, self) != 0) {
        reader_fail(r, "region definition %" PRIu32 " out of range", self);
        return OTF2_CALLBACK_INTERRUPT;
    }
    /* An MPI call: Score-P marks its paradigm; other writers at least name it MPI_... */
    bool mpi = paradigm == OTF2_PARADIGM_MPI ||
               (name < r->n_strings && r->strings[name] && strncmp(r->strings[name], "MPI_", 4) == 0);
    r->region_mpi[self] = mpi ? 2 : 1;
    return OTF2_CALLBACK_SUCCESS;
}

static int location_cmp(const void *a, const void *b)
{
    const struct reader_location *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The ranks: the members of MPI's location group in its order, or else every location. */
static int reader_ranks(struct reader *r)
{
    const struct reader_group *world = NULL;
    for (uint32_t g = 0; g < r->n_groups && !world; g++)
        if (r->groups[g].defined && r->groups[g].type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
            world = &r->groups[g];
    uint32_t n = world ? world->n : r->n_locations;
    const uint64_t *ids = world ? world->members : r->locations;
    if (n == 0) {
        reader_fail(r, "the definitions name no location (no rank to replay)");
        return -1;
    }
    if (n > (1u << 22)) {
        reader_fail(r, "%" PRIu32 " ranks (at most %u)", n, 1u << 22);
        return -1;
    }
    r->by_id = malloc(n * sizeof *r->by_id);
    r->ranks = calloc(n, sizeof *r->ranks);
    if (!r->by_id || !r->ranks || trace_program_init(r->prog, (int)n, r->ticks_per_second) != 0) {
        reader_fail(r, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        r->by_id[i] = (struct reader_location){ids[i], (int32_t)i};
    qsort(r->by_id, n, sizeof *r->by_id, location_cmp);
    for (uint32_t i = 1; i < n; i++)
        if (r->by_id[i].id == r->by_id[i - 1].id) {
            reader_fail(r, "location %" PRIu64 " is two ranks", r->by_id[i].id);
            return -1;
        }
    return 0;
}

/* The rank of a location, or -1 when it is not one (a thread). */
static int32_t reader_rank_of(const struct reader *r, uint64_t location)
{
    const struct reader_location key = {location, 0};
    const struct reader_location *found =
        bsearch(&key, r->by_id, (size_t)r->prog->nranks, sizeof *r->by_id, location_cmp);
    return found ? found->rank : -1;
}

/* ---- events ------------------------------------------------------------------------------- */

/* The rank of an event's location (counting the event on it), or -1: then it is skipped. */
static int32_t event_rank(struct reader *r, OTF2_LocationRef location, enum trace_event_kind kind)
{
    int32_t rank = reader_rank_of(r, location);
    if (rank < 0) {
        r->prog->events[TRACE_EV_SKIPPED]++;
        r->prog->skipped[TRACE_SKIP_THREADS]++;
        return -1;
    }
    r->ranks[rank].event++;
    r->prog->events[kind]++;
    return rank;
}

void trace_reader_skip(void *user, uint64_t location, enum trace_skip_kind kind)
{
    struct reader *r = user;
    if (event_rank(r, location, TRACE_EV_SKIPPED) >= 0)
        r->prog->skipped[kind]++;
}

/* A communicator's ranks for the rank that uses it; NULL (failed) when it is not defined or
 * does not hold the rank. */
static const int32_t *reader_comm(struct reader *r, int32_t rank, OTF2_CommRef comm, int *size,
                                  int *me)
{
    struct reader_rank *rk = &r->ranks[rank];
    if (comm >= r->n_comms || !r->comms[comm].defined) {
        reader_fail(r, "rank %d, event %" PRIu64 ": communicator %" PRIu32 " is not defined",
                    rank, rk->event, comm);
        return NULL;
    }
    struct reader_comm *c = &r->comms[comm];
    if (c->group >= r->n_groups || !r->groups[c->group].defined) {
        reader_fail(r, "communicator %" PRIu32 ": its group %" PRIu32 " is not defined", comm,
                    c->group);
        return NULL;
    }
    const struct reader_group *g = &r->groups[c->group];
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
        r->self[0] = rank;
        *size = 1;
        *me = 0;
        return r->self;
    }
    if (!c->resolved) {
        c->ranks = malloc((g->n ? g->n : 1) * sizeof *c->ranks);
        if (!c->ranks) {
            reader_fail(r, "out of memory");
            return NULL;
        }
        for (uint32_t i = 0; i < g->n; i++) {
            /* COMM_GROUP members are ranks of MPI's location group; a location group's are
             * locations. */
            int64_t member = g->type == OTF2_GROUP_TYPE_COMM_GROUP
                                 ? (g->members[i] < (uint64_t)r->prog->nranks ? (int64_t)g->members[i] : -1)
                                 : reader_rank_of(r, g->members[i]);
            if (member < 0) {
                reader_fail(r, "communicator %" PRIu32 ": member %" PRIu64 " is not a rank",
                            comm, g->members[i]);
                return NULL;
            }
            c->ranks[i] = (int32_t)member;
        }
        c->size = (int)g->n;
        c->resolved = true;
    }
    *size = c->size;
    for (int i = 0; i < c->size; i++)
        if (c->ranks[i] == rank) {
            *me = i;
            return c->ranks;
        }
    reader_fail(r, "rank %d, event %" PRIu64 ": uses communicator %" PRIu32 ", which does not "
                "hold it", rank, rk->event, comm);
    return NULL;
}

/* The job rank of a communicator's rank peer; -1 (failed) when out of range. */
static int32_t reader_peer(struct reader *r, int32_t rank, OTF2_CommRef comm, uint32_t peer)
{
    int size, me;
    const int32_t *ranks = reader_comm(r, rank, comm, &size, &me);
    if (!ranks)
        return -1;
    if (peer >= (uint32_t)size) {
        reader_fail(r, "rank %d, event %" PRIu64 ": peer %" PRIu32 " of communicator %" PRIu32
                    " (which has %d ranks)", rank, r->ranks[rank].event, peer, comm, size);
        return -1;
    }
    return ranks[peer];
}

static OTF2_CallbackCode reader_memory(struct reader *r)
{
    reader_fail(r, "out of memory");
    return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef location, OTF2_TimeStamp time, void *user,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    (void)attributes;
    struct reader *r = user;
    int32_t rank = event_rank(r, location, TRACE_EV_ENTER);
    if (rank < 0 || region >= r->n_regions || r->region_mpi[region] != 2)
        return OTF2_CALLBACK_SUCCESS;
    struct reader_rank *rk = &r->ranks[rank];
    if (rk->depth++ == 0 && rk->started && time > rk->compute_from &&
        trace_program_compute(r->prog, rank, time - rk->compute_from) != 0)
        return reader_memory(r);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef location, OTF2_TimeStamp time, void *user,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    (void)attributes;
    struct reader *r = user;
    int32_t rank = event_rank(r, location, TRACE_EV_LEAVE);
    if (rank < 0 || region >= r->n_regions || r->region_mpi[region] != 2)
        return OTF2_CALLBACK_SUCCESS;
    struct reader_rank *rk = &r->ranks[rank];
    if (rk->depth > 0 && --rk->depth == 0) {
        rk->started = true; /* compute counts from the end of the first MPI call on */
        rk->compute_from = time;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static int reader_open_request(struct reader *r, int32_t rank, uint64_t id, uint32_t request,
                               uint32_t op)
{
    struct reader_rank *rk = &r->ranks[rank];
    for (uint32_t i = 0; i < rk->n_active; i++)
        if (rk->active[i].id == id) {
            reader_fail(r, "rank %d, event %" PRIu64 ": request %" PRIu64 " opened again "
                        "before it completed", rank, rk->event, id);
            return -1;
        }
    if (rk->n_active == rk->capacity) {
        uint32_t cap = rk->capacity ? 2 * rk->capacity : 16;
        struct reader_active *grown = realloc(rk->active, cap * sizeof *grown);
        if (!grown) {
            reader_fail(r, "out of memory");
            return -1;
        }
        rk->active = grown;
        rk->capacity = cap;
    }
    rk->active[rk->n_active++] = (struct reader_active){id, request, op};
    return 0;
}

/* Takes an open request out of the rank's list; false when it is not open. */
static bool reader_close_request(struct reader *r, int32_t rank, uint64_t id,
                                 struct reader_active *out)
{
    struct reader_rank *rk = &r->ranks[rank];
    for (uint32_t i = 0; i < rk->n_active; i++)
        if (rk->active[i].id == id) {
            *out = rk->active[i];
            rk->active[i] = rk->active[--rk->n_active];
            return true;
        }
    return false;
}

static OTF2_CallbackCode reader_wait(struct reader *r, int32_t rank, uint32_t request)
{
    struct trace_op wait = {.kind = TRACE_OP_WAIT, .request = request,
                            .event = r->ranks[rank].event};
    return trace_program_append(r->prog, rank, wait) < 0 ? reader_memory(r)
                                                         : OTF2_CALLBACK_SUCCESS;
}

/* A blocking send or receive of rank `location` with the peer `other` of comm. */
static OTF2_CallbackCode reader_blocking(struct reader *r, OTF2_LocationRef location,
                                         enum trace_event_kind kind, uint8_t op, uint32_t other,
                                         OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    int32_t rank = event_rank(r, location, kind);
    if (rank < 0)
        return OTF2_CALLBACK_SUCCESS;
    int32_t peer = reader_peer(r, rank, comm, other);
    if (peer < 0)
        return OTF2_CALLBACK_INTERRUPT;
    if (trace_program_blocking(r->prog, rank, op, peer, comm, tag, bytes,
                               r->ranks[rank].event) != 0)
        return reader_memory(r);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef location, OTF2_TimeStamp time, void *user,
                                 OTF2_AttributeList *attributes, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    (void)time;
    (void)attributes;
    return reader_blocking(user, location, TRACE_EV_MPI_SEND, TRACE_OP_SEND, receiver, comm, tag,
                           bytes);
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef location, OTF2_TimeStamp time, void *user,
                                 OTF2_AttributeList *attributes, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    (void)time;
    (void)attributes;
    return reader_blocking(user, location, TRACE_EV_MPI_RECV, TRACE_OP_RECV, sender, comm, tag,
                           bytes);
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef location, OTF2_TimeStamp time, void *user,
                                  OTF2_AttributeList *attributes, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t id)
{
    (void)time;
    (void)attributes;
    struct reader *r = user;
    int32_t rank = event_rank(r, location, TRACE_EV_MPI_ISEND);
    if (rank < 0)
        return OTF2_CALLBACK_SUCCESS;
    int32_t peer = reader_peer(r, rank, comm, receiver);
    if (peer < 0)
        return OTF2_CALLBACK_INTERRUPT;
    uint32_t request = trace_program_request(r->prog, rank);
    struct trace_op op = {.kind = TRACE_OP_SEND, .peer = peer, .context = comm, .tag = tag,
                          .request = request, .value = bytes, .event = r->ranks[rank].event};
    int64_t index = trace_program_append(r->prog, rank, op);
    if (index < 0)
        return reader_memory(r);
    return reader_open_request(r, rank, id, request, (uint32_t)index) ? OTF2_CALLBACK_INTERRUPT
                                                                        : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           void *user, OTF2_AttributeList *attributes,
                                           uint64_t id)
{
    (void)time;
    (void)attributes;
    struct reader *r = user;
    int32_t rank = event_rank(r, location, TRACE_EV_MPI_ISEND_COMPLETE);
    if (rank < 0)
        return OTF2_CALLBACK_SUCCESS;
    struct reader_active a;
    if (!reader_close_request(r, rank, id, &a)) {
        reader_fail(r, "rank %d, event %" PRIu64 ": MPI_ISEND_COMPLETE of request %" PRIu64
                    ", which no MPI_ISEND opened", rank, r->ranks[rank].event, id);
        return OTF2_CALLBACK_INTERRUPT;
    }
    return reader_wait(r, rank, a.request);
}

static OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          void *user, OTF2_AttributeList *attributes, uint64_t id)
{
    (void)time;
    (void)attributes;
    struct reader *r = user;
    int32_t rank = event_rank(r, location, TRACE_EV_MPI_IRECV_REQUEST);
    if (rank < 0)
        return OTF2_CALLBACK_SUCCESS;
    /* Whom it receives from is known only at its MPI_IRECV: filled in then. */
    uint32_t request = trace_program_request(r->prog, rank);
    struct trace_op op = {.kind = TRACE_OP_RECV, .peer = -1, .request = request,
                          .event = r->ranks[rank].event};
    int64_t index = trace_program_append(r->prog, rank, op);
    if (index < 0)
        return reader_memory(r);
    return reader_open_request(r, rank, id, request, (uint32_t)index) ? OTF2_CALLBACK_INTERRUPT
                                                                        : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef location, OTF2_TimeStamp time, void *user,
                                  OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t id)
{
    (void)time;
    (void)attributes;
    struct reader *r = user;
    int32_t rank = event_rank(r, location, TRACE_EV_MPI_IRECV);
    if (rank < 0)
        return OTF2_CALLBACK_SUCCESS;
    int32_t peer = reader_peer(r, rank, comm, sender);
    if (peer < 0)
        return OTF2_CALLBACK_INTERRUPT;
    struct reader_active a;
    if (!reader_close_request(r, rank, id, &a)) {
        /* No MPI_IRECV_REQUEST before it: posted and completed here. */
        if (trace_program_blocking(r->prog, rank, TRACE_OP_RECV, peer, comm, tag, bytes,
                                   r->ranks[rank].event) != 0)
            return reader_memory(r);
        return OTF2_CALLBACK_SUCCESS;
    }
    struct trace_op *op = &r->prog->ranks[rank].ops[a.op];
    op->peer = peer;
    op->context = comm;
    op->tag = tag;
    op->value = bytes;
    return reader_wait(r, rank, a.request);
}

static OTF2_CallbackCode ev_request_test(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         void *user, OTF2_AttributeList *attributes, uint64_t id)
{
    (void)time;
    (void)attributes;
    (void)id;
    trace_reader_skip(user, location, TRACE_SKIP_REQUEST);
    return OTF2_CALLBACK_SUCCESS;
}

/* A cancelled request's send or receive does not happen: its op becomes an empty compute. */
static OTF2_CallbackCode ev_request_cancelled(OTF2_LocationRef location, OTF2_TimeStamp time,
                                              void *user, OTF2_AttributeList *attributes,
                                              uint64_t id)
{
    (void)time;
    (void)attributes;
    struct reader *r = user;
    trace_reader_skip(user, location, TRACE_SKIP_REQUEST);
    int32_t rank = reader_rank_of(r, location);
    struct reader_active a;
    if (rank >= 0 && reader_close_request(r, rank, id, &a))
        r->prog->ranks[rank].ops[a.op] = (struct trace_op){.kind = TRACE_OP_COMPUTE};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_collective_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                             void *user, OTF2_AttributeList *attributes)
{
    (void)time;
    (void)attributes;
    event_rank(user, location, TRACE_EV_MPI_COLLECTIVE_BEGIN);
    return OTF2_CALLBACK_SUCCESS;
}

static const uint8_t reader_collective_of[] = {
    [OTF2_COLLECTIVE_OP_BARRIER] = TRACE_COLL_BARRIER,
    [OTF2_COLLECTIVE_OP_BCAST] = TRACE_COLL_BCAST,
    [OTF2_COLLECTIVE_OP_GATHER] = TRACE_COLL_GATHER,
    [OTF2_COLLECTIVE_OP_GATHERV] = TRACE_COLL_GATHERV,
    [OTF2_COLLECTIVE_OP_SCATTER] = TRACE_COLL_SCATTER,
    [OTF2_COLLECTIVE_OP_SCATTERV] = TRACE_COLL_SCATTERV,
    [OTF2_COLLECTIVE_OP_ALLGATHER] = TRACE_COLL_ALLGATHER,
    [OTF2_COLLECTIVE_OP_ALLGATHERV] = TRACE_COLL_ALLGATHERV,
    [OTF2_COLLECTIVE_OP_ALLTOALL] = TRACE_COLL_ALLTOALL,
    [OTF2_COLLECTIVE_OP_ALLTOALLV] = TRACE_COLL_ALLTOALLV,
    [OTF2_COLLECTIVE_OP_ALLTOALLW] = TRACE_COLL_ALLTOALLW,
    [OTF2_COLLECTIVE_OP_ALLREDUCE] = TRACE_COLL_ALLREDUCE,
    [OTF2_COLLECTIVE_OP_REDUCE] = TRACE_COLL_REDUCE,
    [OTF2_COLLECTIVE_OP_REDUCE_SCATTER] = TRACE_COLL_REDUCE_SCATTER,
    [OTF2_COLLECTIVE_OP_SCAN] = TRACE_COLL_SCAN,
    [OTF2_COLLECTIVE_OP_EXSCAN] = TRACE_COLL_EXSCAN,
    [OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK] = TRACE_COLL_REDUCE_SCATTER_BLOCK,
};

static OTF2_CallbackCode reader_collective(struct reader *r, int32_t rank, OTF2_CollectiveOp op,
                                           OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                           uint64_t received)
{
    uint64_t event = r->ranks[rank].event;
    if (op >= sizeof reader_collective_of / sizeof reader_collective_of[0]) {
        reader_fail(r, "rank %d, event %" PRIu64 ": unknown collective operation %u (the "
                    "replayer knows MPI's BARRIER .. REDUCE_SCATTER_BLOCK, codes 0 .. 16)",
                    rank, event, (unsigned)op);
        return OTF2_CALLBACK_INTERRUPT;
    }
    int size, me;
    const int32_t *members = reader_comm(r, rank, comm, &size, &me);
    if (!members)
        return OTF2_CALLBACK_INTERRUPT;
    int root_rank = root == OTF2_UNDEFINED_UINT32 ? -1 : (int)root;
    if (root != OTF2_UNDEFINED_UINT32 && root >= (uint32_t)size) {
        reader_fail(r, "rank %d, event %" PRIu64 ": root %" PRIu32 " of communicator %" PRIu32
                    " (which has %d ranks)", rank, event, root, comm, size);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (trace_program_collective(r->prog, rank, reader_collective_of[op], comm, members, size,
                                 me, root_rank, sent, received, r->allreduce_threshold,
                                 event) != 0)
        return reader_memory(r);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_collective_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           void *user, OTF2_AttributeList *attributes,
                                           OTF2_CollectiveOp op, OTF2_CommRef comm,
                                           uint32_t root, uint64_t sent, uint64_t received)
{
    (void)time;
    (void)attributes;
    int32_t rank = event_rank(user, location, TRACE_EV_MPI_COLLECTIVE_END);
    return rank < 0 ? OTF2_CALLBACK_SUCCESS
                    : reader_collective(user, rank, op, comm, root, sent, received);
}

/* A non-blocking collective runs where it completes (its start is not waited for). */
static OTF2_CallbackCode ev_nb_collective_complete(OTF2_LocationRef location, OTF2_TimeStamp time,
                                                   void *user, OTF2_AttributeList *attributes,
                                                   OTF2_CollectiveOp op, OTF2_CommRef comm,
                                                   uint32_t root, uint64_t sent,
                                                   uint64_t received, uint64_t id)
{
    (void)time;
    (void)attributes;
    (void)id;
    int32_t rank = event_rank(user, location, TRACE_EV_NON_BLOCKING_COLLECTIVE_COMPLETE);
    return rank < 0 ? OTF2_CALLBACK_SUCCESS
                    : reader_collective(user, rank, op, comm, root, sent, received);
}

/* ---- the archive -------------------------------------------------------------------------- */

static int reader_check_status(struct reader *r, OTF2_ErrorCode status, const char *what)
{
    if (status == OTF2_SUCCESS)
        return 0;
    if (!r->failed)
        reader_fail(r, "%s: %s", what,
                    reader_library_error[0] ? reader_library_error
                                            : OTF2_Error_GetDescription(status));
    return -1;
}

static int reader_definitions(struct reader *r, OTF2_Reader *otf)
{
    OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(otf);
    if (!defs) {
        reader_fail(r, "cannot open the global definitions (%s; the anchor file needs its "
                    "traces.def beside it)", reader_library_error[0] ? reader_library_error
                                                                     : "no reader");
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!cb) {
        reader_fail(r, "out of memory");
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_Reader_RegisterGlobalDefCallbacks(otf, defs, cb, r);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t read = 0;
    OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(otf, defs, &read);
    OTF2_Reader_CloseGlobalDefReader(otf, defs);
    if (reader_check_status(r, status, "reading the definitions (traces.def)") != 0)
        return -1;
    if (!r->have_clock || r->ticks_per_second == 0) {
        reader_fail(r, "the definitions give no timer resolution (CLOCK_PROPERTIES)");
        return -1;
    }
    return reader_ranks(r);
}

static int reader_events(struct reader *r, OTF2_Reader *otf)
{
    for (uint32_t i = 0; i < r->n_locations; i++)
        OTF2_Reader_SelectLocation(otf, r->locations[i]);
    bool defs = OTF2_Reader_OpenDefFiles(otf) == OTF2_SUCCESS;
    if (reader_check_status(r, OTF2_Reader_OpenEvtFiles(otf), "opening the event files") != 0)
        return -1;
    for (uint32_t i = 0; i < r->n_locations; i++) {
        char what[64];
        if (defs) {
            /* The location's own definitions map its local ids to the global ones. */
            OTF2_DefReader *d = OTF2_Reader_GetDefReader(otf, r->locations[i]);
            if (d) {
                uint64_t read = 0;
                snprintf(what, sizeof what, "location %" PRIu64 "'s definitions", r->locations[i]);
                OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalDefinitions(otf, d, &read);
                OTF2_Reader_CloseDefReader(otf, d);
                if (reader_check_status(r, status, what) != 0)
                    return -1;
            }
        }
        if (!OTF2_Reader_GetEvtReader(otf, r->locations[i])) {
            reader_fail(r, "cannot open the events of location %" PRIu64 " (%s)",
                        r->locations[i], reader_library_error);
            return -1;
        }
    }
    if (defs)
        OTF2_Reader_CloseDefFiles(otf);
    OTF2_GlobalEvtReader *events = OTF2_Reader_GetGlobalEvtReader(otf);
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    if (!events || !cb) {
        OTF2_GlobalEvtReaderCallbacks_Delete(cb);
        reader_fail(r, "cannot open the events (%s)", reader_library_error);
        return -1;
    }
    trace_reader_register_skips(cb);
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_complete);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cb, ev_request_test);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_request_cancelled);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_collective_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_collective_end);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
        cb, ev_nb_collective_complete);
    OTF2_Reader_RegisterGlobalEvtCallbacks(otf, events, cb, r);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    uint64_t read = 0;
    OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalEvents(otf, events, &read);
    OTF2_Reader_CloseGlobalEvtReader(otf, events);
    OTF2_Reader_CloseEvtFiles(otf);
    return reader_check_status(r, status, "reading the events (traces/N.evt)");
}

/* Every receive the trace opened must have completed: its sender is known only then. */
static int reader_check_open(struct reader *r)
{
    for (int32_t rank = 0; rank < r->prog->nranks; rank++) {
        const struct reader_rank *rk = &r->ranks[rank];
        for (uint32_t i = 0; i < rk->n_active; i++) {
            const struct trace_op *op = &r->prog->ranks[rank].ops[rk->active[i].op];
            if (op->kind == TRACE_OP_RECV) {
                reader_fail(r, "rank %d, event %" PRIu64 ": MPI_IRECV_REQUEST of request %" PRIu64
                            " never completes in the trace (whom it receives from is unknown)",
                            rank, op->event, rk->active[i].id);
                return -1;
            }
        }
    }
    return 0;
}

static void reader_free(struct reader *r)
{
    free(r->locations);
    free(r->by_id);
    for (uint32_t g = 0; g < r->n_groups; g++)
        free(r->groups[g].members);
    free(r->groups);
    for (uint32_t c = 0; c < r->n_comms; c++)
        free(r->comms[c].ranks);
    free(r->comms);
    free(r->region_mpi);
    for (uint32_t s = 0; s < r->n_strings; s++)
        free(r->strings[s]);
    free(r->strings);
    if (r->ranks)
        for (int rank = 0; rank < r->prog->nranks; rank++)
            free(r->ranks[rank].active);
    free(r->ranks);
}

int trace_read(const char *path, uint64_t allreduce_threshold, struct trace_program *out,
               char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    struct reader r = {.path = path, .err = err, .err_len = err_len, .prog = out,
                       .allreduce_threshold = allreduce_threshold};
    FILE *anchor = fopen(path, "r");
    if (!anchor) {
        snprintf(err, err_len, "%s: cannot open the trace's anchor file (%s)", path,
                 strerror(errno));
        return -1;
    }
    char head[8] = {0};
    size_t got = fread(head, 1, sizeof head, anchor);
    fclose(anchor);
    if (got < 5 || memcmp(head + 1, "BOTF2", 5) != 0) {
        snprintf(err, err_len, "%s: not an OTF2 anchor file (it does not begin as one)", path);
        return -1;
    }
    reader_library_error[0] = '\0';
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(reader_on_error, NULL);
    OTF2_Reader *otf = OTF2_Reader_Open(path);
    int rc = -1;
    if (!otf) {
        reader_fail(&r, "not an OTF2 anchor file (%s)", reader_library_error);
    } else if (reader_check_status(&r, OTF2_Reader_SetSerialCollectiveCallbacks(otf),
                                   "setting up the reader") == 0 &&
               reader_definitions(&r, otf) == 0 && reader_events(&r, otf) == 0 &&
               reader_check_open(&r) == 0) {
        rc = 0;
    }
    if (otf)
        OTF2_Reader_Close(otf);
    OTF2_Error_RegisterCallback(previous, NULL);
    reader_free(&r);
    if (rc != 0)
        trace_program_free(out);
    return rc;
}
