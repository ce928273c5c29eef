/* arena.c — the node arena of the tree search: one block of nodes per search thread,
 * allocated when the AI is made and reused for every move, so iterations never allocate.
 * It only grows (by doubling, up to a limit) when a time budget outruns its first size. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"

static int arena_grow(rp_arena *arena, uint32_t capacity)
{
    if (capacity > arena->limit)
        capacity = arena->limit;
    if (capacity <= arena->capacity)
        return RP_OK;
    rp_node *nodes = realloc(arena->nodes, (size_t)capacity * sizeof *nodes);
    if (!nodes)
        return RP_ENOMEM;
    arena->nodes = nodes;
    arena->capacity = capacity;
    return RP_OK;
}

int rp_arena_init(rp_arena *arena, uint32_t capacity, uint32_t limit)
{
    memset(arena, 0, sizeof *arena);
    arena->limit = limit < 2 ? 2 : limit;
    return arena_grow(arena, capacity < 2 ? 2 : capacity);
}

void rp_arena_free(rp_arena *arena)
{
    free(arena->nodes);
    memset(arena, 0, sizeof *arena);
}

int rp_arena_reset(rp_arena *arena, uint32_t want)
{
    if (want > arena->capacity && arena_grow(arena, want) < 0)
        return RP_ENOMEM;
    memset(&arena->nodes[0], 0, sizeof arena->nodes[0]);
    arena->nodes[0].key = RP_NO_ACTION;
    arena->used = 1;
    return RP_OK;
}

uint32_t rp_arena_block(rp_arena *arena, uint32_t count)
{
    while ((uint64_t)arena->used + count > arena->capacity) {
        /* Doubling keeps growth rare; a failed or capped growth just stops the tree here. */
        uint64_t twice = (uint64_t)arena->capacity * 2;
        uint32_t before = arena->capacity;
        if (arena_grow(arena, twice > UINT32_MAX ? UINT32_MAX : (uint32_t)twice) < 0 ||
            arena->capacity == before)
            return 0;
    }
    uint32_t first = arena->used;
    arena->used += count;
    return first; /* unzeroed: the search writes each child whole when it adds it */
}
