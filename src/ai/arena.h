/* arena.h — the nodes of the tree search and the arena they live in (arena.c): one block a
 * search thread, allocated when the AI is made and reused for every move. */
#ifndef RP_AI_ARENA_H
#define RP_AI_ARENA_H

#include <stdbool.h>
#include <stdint.h>

#include "ramparts/game.h"

/* One node of the tree. A node's children sit side by side in the arena (a block), so
 * visiting them is one linear scan rather than a chase through memory. Indices, not pointers,
 * so the arena can move when it grows. Index 0 is always the root, so 0 also means "none". */
typedef struct rp_node {
    uint32_t child;       /* first node of the children block */
    uint16_t nchild, cap; /* children in the block, and room for them */
    rp_action key;        /* the action (or observation of it) that leads here */
    uint32_t visits;      /* times this edge was chosen */
    uint32_t avail;       /* times this edge was legal when its parent was visited (ISMCTS) */
    float prior;   /* progressive bias: the chooser's evaluate one move on, in [0, 1] (bias=W) */
    double reward; /* sum of the return of the player who chose this edge */
} rp_node;

/* A block of nodes allocated once and reused for every move: no allocation per node. */
typedef struct rp_arena {
    rp_node *nodes;
    uint32_t used, capacity, limit; /* limit: the most nodes it may ever grow to */
} rp_arena;

int rp_arena_init(rp_arena *arena, uint32_t capacity, uint32_t limit);
void rp_arena_free(rp_arena *arena);
/* Forget every node and make an empty root; grow first to `want` nodes if that is more than
 * it has (up to its limit). Returns < 0 only when memory runs out. */
int rp_arena_reset(rp_arena *arena, uint32_t want);
/* The first of `count` fresh nodes side by side, or 0 when the arena is full (the search
 * then stops growing the tree there). The nodes are not zeroed (a block's room past its
 * children is mostly never used): the caller writes each node whole before reading it. May
 * move arena->nodes. */
uint32_t rp_arena_block(rp_arena *arena, uint32_t count);

#endif
