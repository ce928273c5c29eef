/* search.h — the Monte Carlo tree search shared by `mcts` (UCT, tree keyed by actions) and
 * `ismcts` (information-set MCTS, tree keyed by what the searching player observes): the
 * preallocated node arena, the search settings parsed from a spec, and the root-parallel driver. */
#ifndef RP_AI_SEARCH_H
#define RP_AI_SEARCH_H

#include "arena.h"
#include "kind.h"

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
    /* spread=S under ms=: the game's thinking time is ms a decision with a choice, spent in
     * proportion to (legal moves - 1)^S, and a search stops once its choice cannot change;
     * what a decision leaves is kept for later ones (0: every decision thinks ms). */
    double spread;
    long nodes;    /* arena limit per thread */
    bool sees_all; /* the analysis-only oracle: search the true state, determinize nothing */
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

/* What the last search (rp_search_choose) learnt of one move at its root, summed over every
 * thread: how often it was tried and each seat's total return through it (mean: / visits). */
typedef struct rp_search_edge {
    rp_action action;
    double visits;
    double returns[RP_MAX_PLAYERS];
} rp_search_edge;

/* The root edges of ai's last search into out (at most max; RP_MAX_LEGAL holds them all), in
 * the order of the first thread's tree; returns how many, or RP_EINVAL when ai is no search
 * AI. Reading them changes nothing of how the search plays. */
int rp_search_root_edges(const rp_ai *ai, rp_search_edge *out, int max);

/* Default settings: the rollout depth to use for a game (short with an evaluate hook). */
void rp_search_defaults(const rp_game *game, bool by_observation, rp_search_cfg *cfg);

#endif
