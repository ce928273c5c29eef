/* search.h — the Monte Carlo tree search shared by `mcts` (UCT, tree keyed by actions) and
 * `ismcts` (information-set MCTS, tree keyed by what the searching player observes): the
 * preallocated node arena, the search settings parsed from a spec, and the root-parallel driver. */
#ifndef RP_AI_SEARCH_H
#define RP_AI_SEARCH_H

#include "ai_internal.h"

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
/* The first of `count` fresh zeroed nodes side by side, or 0 when the arena is full (the
 * search then stops growing the tree there). May move arena->nodes. */
uint32_t rp_arena_block(rp_arena *arena, uint32_t count);

/* Settings of one search AI, from its spec. */
typedef struct rp_search_cfg {
    bool by_observation; /* ISMCTS: key opponents' edges by what the root player observes */
    long iters;          /* total iterations per move over all threads (0: use ms) */
    long ms;             /* time per move when iters is 0 */
    long threads;        /* root-parallel workers */
    double explore;      /* UCB exploration constant c */
    long rollout;        /* playout depth before evaluate (-1: to the end) */
    long greedy;         /* percent of playout moves chosen by a 1-ply look at evaluate */
    double bias;         /* progressive bias weight W: UCB adds W * prior / (visits + 1) */
    long nodes;          /* arena limit per thread */
    bool sees_all;       /* the analysis-only oracle: search the true state, determinize nothing */
    /* iters@P=N: the iterations per move when the game has P players, in place of iters or
     * ms there (0: none). A game's level can need more search at one player count only. */
    long iters_at[RP_MAX_PLAYERS + 1];
} rp_search_cfg;

/* Parse the search parameters of a spec over `defaults`; refuse unknown keys. */
int rp_search_parse(const rp_ai_params *params, const char *kind, rp_search_cfg *cfg,
                    rp_error *err);
/* Build ai->data for a search AI with settings cfg. */
int rp_search_create(rp_ai *ai, const rp_search_cfg *cfg, rp_error *err);
int rp_search_choose(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info);
void rp_search_destroy(rp_ai *ai);

/* Default settings: the rollout depth to use for a game (short with an evaluate hook). */
void rp_search_defaults(const rp_game *game, bool by_observation, rp_search_cfg *cfg);

#endif
