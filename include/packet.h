/* packet: the packet record and the pool that owns every packet of a run (packets are
 * referenced by 32-bit index; the pool grows by doubling, never per packet). */
#ifndef DFSIM_PACKET_H
#define DFSIM_PACKET_H

#include <stdint.h>

#define PACKET_NONE UINT32_MAX

/* Routing flags kept in packet.flags. */
enum packet_flag {
    PACKET_DECIDED = 1 << 0,          /* source decision (PB) is final: the packet left */
    PACKET_NONMINIMAL = 1 << 1,       /* heading to an intermediate target first */
    PACKET_GLOBAL_MISROUTED = 1 << 2, /* took a global hop off the minimal path */
    PACKET_LOCAL_MISROUTED = 1 << 3,  /* took at least one local misroute (OLM) */
    PACKET_HOP_NONMINIMAL = 1 << 4,   /* the hop in progress leaves the minimal path */
    /* Kept to delivery (ugal, ugal_g): a decision sent it via an intermediate router; ugal's
     * last such decision was phantom (ugal_phantom: fresher information would have kept it
     * minimal). */
    PACKET_PHANTOM = 1 << 5,
    PACKET_NONMINIMAL_DECISION = 1 << 6,
    PACKET_CHECKED = 1 << 7, /* scratch bit for invariant scans */
};

/* Latency breakdown segments (src/METRICS.md). */
enum wait_kind {
    WAIT_INJECTION_QUEUE,
    WAIT_LOCAL_QUEUES,
    WAIT_GLOBAL_QUEUES,
    WAIT_MINIMAL_LINKS,
    WAIT_NONMINIMAL_LINKS,
    WAIT_KINDS
};

struct packet {
    uint32_t id;          /* creation sequence number, unique in a run */
    uint32_t src, dst;    /* nodes */
    uint32_t gen_cycle;   /* birth: latency and age count from here */
    uint32_t ready_cycle; /* earliest cycle of the next step (allocation or link send) */
    /* The tail's cycle at the packet's place: its arrival in the input buffer; once granted,
     * the end of its crossbar transfer; on a link, its arrival downstream. */
    uint32_t tail_cycle;
    uint32_t mark_cycle;    /* start of the current latency-breakdown segment */
    int32_t target;         /* intermediate router of a nonminimal path, -1 if none */
    int32_t misroute_group; /* group of the last local misroute, -1 if none */
    uint8_t ladder_pos;     /* VC-ladder entries consumed so far */
    uint8_t flags;          /* enum packet_flag */
    uint8_t hops_local, hops_global;
    uint8_t vc; /* VC of the buffer the packet is in or heading to */
    /* Its job's routing mode, read by the mechanism (ugal: 0 = routing's own settings, else
     * a ugal_preset); 0 without jobs. In the padding before wait[]: the record stays 64 bytes. */
    uint8_t mode;
    uint32_t wait[WAIT_KINDS]; /* cycles spent in each breakdown segment */
};

struct packet_pool {
    struct packet *packets;
    uint32_t *free_list; /* stack of free indices */
    uint32_t capacity, free_count;
    uint32_t next_id;
    /* Optional (packet_pool_use_tags): a 32-bit tag per packet beside the records (the
     * workload's message of each packet), 0 when a packet is allocated. */
    uint32_t *tags;
};

int packet_pool_init(struct packet_pool *pool, uint32_t initial_capacity);
void packet_pool_free(struct packet_pool *pool);
/* Returns a zeroed packet's index with a fresh id; grows the pool when it is exhausted.
 * Returns PACKET_NONE only if memory is exhausted. */
uint32_t packet_alloc(struct packet_pool *pool);
void packet_release(struct packet_pool *pool, uint32_t index);
/* Keeps a tag per packet from now on (before the first packet_alloc); 0 or -1 (memory). */
int packet_pool_use_tags(struct packet_pool *pool);
static inline uint32_t packet_pool_in_use(const struct packet_pool *pool)
{
    return pool->capacity - pool->free_count;
}

#endif
