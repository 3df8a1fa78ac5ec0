/* packet: pool of packet records with a free-index stack. */
#include "packet.h"

#include "memory.h"

#include <stdlib.h>
#include <string.h>

/* Records are cache-line aligned (memory_alloc_lines): a 64-byte packet then lives in exactly
 * one line (realloc would return 16-byte aligned memory, most packets across two lines). */
_Static_assert(sizeof(struct packet) == 64, "one packet per cache line");

static int packet_pool_grow(struct packet_pool *pool, uint32_t new_capacity)
{
    struct packet *packets = memory_alloc_lines_raw((size_t)new_capacity * sizeof(struct packet));
    if (!packets)
        return -1;
    if (pool->packets)
        memcpy(packets, pool->packets, (size_t)pool->capacity * sizeof *packets);
    free(pool->packets);
    pool->packets = packets;
    uint32_t *free_list = realloc(pool->free_list, (size_t)new_capacity * sizeof *free_list);
    if (!free_list)
        return -1;
    pool->free_list = free_list;
    if (pool->tags) {
        uint32_t *tags = realloc(pool->tags, (size_t)new_capacity * sizeof *tags);
        if (!tags)
            return -1;
        memset(tags + pool->capacity, 0, (size_t)(new_capacity - pool->capacity) * sizeof *tags);
        pool->tags = tags;
    }
    /* Push the new indices so that the lowest is handed out first (deterministic order). */
    for (uint32_t i = new_capacity; i > pool->capacity; i--)
        pool->free_list[pool->free_count++] = i - 1;
    pool->capacity = new_capacity;
    return 0;
}

int packet_pool_init(struct packet_pool *pool, uint32_t initial_capacity)
{
    memset(pool, 0, sizeof *pool);
    return packet_pool_grow(pool, initial_capacity ? initial_capacity : 1024);
}

void packet_pool_free(struct packet_pool *pool)
{
    free(pool->packets);
    free(pool->free_list);
    free(pool->tags);
    memset(pool, 0, sizeof *pool);
}

uint32_t packet_alloc(struct packet_pool *pool)
{
    if (pool->free_count == 0) {
        if (pool->capacity >= UINT32_MAX / 2 || packet_pool_grow(pool, pool->capacity * 2))
            return PACKET_NONE;
    }
    uint32_t index = pool->free_list[--pool->free_count];
    struct packet *pk = &pool->packets[index];
    memset(pk, 0, sizeof *pk);
    pk->id = pool->next_id++;
    pk->target = -1;
    pk->misroute_group = -1;
    if (pool->tags)
        pool->tags[index] = 0;
    return index;
}

int packet_pool_use_tags(struct packet_pool *pool)
{
    pool->tags = calloc(pool->capacity ? pool->capacity : 1, sizeof *pool->tags);
    return pool->tags ? 0 : -1;
}

void packet_release(struct packet_pool *pool, uint32_t index)
{
    pool->free_list[pool->free_count++] = index;
}
