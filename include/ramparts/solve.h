/* ramparts/solve.h — exact solving of a game small enough to walk whole: the tree built once
 * over the game interface with explicit chance (rp_init_explicit / rp_apply_explicit), CFR+ on
 * it, best responses and exploitability, and the average policy. For two-seat games under
 * small options (docs/learning/solve.md); `ramparts solve` and ramparts.Solver run it. */
#ifndef RAMPARTS_SOLVE_H
#define RAMPARTS_SOLVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ramparts/export.h"
#include "ramparts/game.h"

typedef struct rp_solver rp_solver;

/* The policies a best response answers. */
typedef enum rp_solve_policy {
    RP_SOLVE_AVERAGE, /* CFR+'s average policy so far (uniform before any iteration) */
    RP_SOLVE_UNIFORM  /* every legal action alike */
} rp_solve_policy;

/* Build the whole tree of `game` under cfg: every chance event a node with its outcomes
 * equally likely, every information state keyed by what the seat saw (its observation after
 * the deal, then after each action, and each action as it saw it: the rows of
 * rp_information_state). Refuses (RP_EUNSUPPORTED) a game without an observation tensor or of
 * other than two seats, and (RP_ENOSPACE) a tree of more than max_nodes nodes or with a path
 * of more than 600 moves; RP_EINVAL when two histories a seat cannot tell apart have different
 * legal actions. *out is NULL on error. */
RP_EXTERN int rp_solver_new(const rp_game *game, const rp_config *cfg, size_t max_nodes,
                            rp_solver **out, rp_error *err);
RP_EXTERN void rp_solver_free(rp_solver *solver);

/* Sizes: nodes of the tree, its terminal nodes, information states (decision points). */
RP_EXTERN size_t rp_solver_nodes(const rp_solver *solver);
RP_EXTERN size_t rp_solver_terminals(const rp_solver *solver);
RP_EXTERN size_t rp_solver_infosets(const rp_solver *solver);
/* Information states reached with two different pasts of the seat's own (its earlier
 * information state or its action there): 0 when the game has perfect recall. */
RP_EXTERN size_t rp_solver_recall_breaks(const rp_solver *solver);

/* Run `iterations` iterations of CFR+ (alternating updates, regret matching+, the average
 * weighted by the iteration number). */
RP_EXTERN void rp_solver_iterate(rp_solver *solver, int iterations);
RP_EXTERN long rp_solver_iterations(const rp_solver *solver);

/* The expected return of `seat` (its share of the win) when it best responds to `policy` played
 * by the other seat. */
RP_EXTERN double rp_solver_best_response(rp_solver *solver, rp_solve_policy policy, int seat);
/* The expected return of `seat` when both play `policy`. */
RP_EXTERN double rp_solver_value(rp_solver *solver, rp_solve_policy policy, int seat);
/* Exploitability of `policy`: (best response of seat 0 + of seat 1 - 1) / 2, the returns being
 * shares of a win that sum to 1; 0 exactly at an equilibrium. */
RP_EXTERN double rp_solver_exploitability(rp_solver *solver, rp_solve_policy policy);

/* Information state i (0 <= i < rp_solver_infosets): its seat, a history reaching it (the
 * actions and chance outcomes from the start, deal included, as an explicit-chance game
 * replays them; *count of them, at most cap written), and its legal actions with the average
 * policy's probabilities (at most RP_MAX_LEGAL). Returns the number of actions, or < 0. */
RP_EXTERN int rp_solver_infoset(const rp_solver *solver, size_t i, int *seat, uint32_t *history,
                                size_t cap, size_t *count, rp_action *actions, double *probs);

/* The average policy as JSON lines, one per information state: {"seat", "history" (outcomes and
 * actions from the start), "actions": {"notation": probability}}. Returns RP_OK or RP_EIO. */
RP_EXTERN int rp_solver_write_policy(const rp_solver *solver, FILE *out, rp_error *err);

#endif
