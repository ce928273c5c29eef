/* dw-positions.c — positions of Danger at the Walls from self-play, with the features a fitted
 * `evaluate` could compute from what each seat may know (dw_eval_features, learn.c), the
 * hand-set evaluation's value and who won, one CSV row per seat and position; the input of
 * scripts/wa-fit.py, which fits any such table (docs/ai.md, "Issue 50, stronger at equal
 * time"). Build and run from the top of the tree after `make`:
 *   cc -O2 -std=c11 -Iinclude -Isrc scripts/dw-positions.c build/libramparts.a -lcjson -lm \
 *      -lpthread -o build/dw-positions && build/dw-positions GAMES SEED SPEC > positions.csv */
#include "games/danger-at-the-walls/internal.h"
#include "positions.h"

/* The features of dw_eval_features (learn.c), in its order. */
static const char *const feature_names[DW_EVAL_FEATURES] = {
    "locked",    /* walls locked by a Flag, the player's less the other's */
    "open",      /* open walls controlled, the player's less the other's */
    "margin",    /* the open walls' strength margins / 25, each within +-0.5 */
    "safe",      /* open walls held by 5 or more, the player's less the other's */
    "majority",  /* +1 holding three walls or more, else -1 */
    "maj_late",  /* majority times the Flags on the board / 3 */
    "maj_last",  /* majority when the next Flag ends the game */
    "next",      /* +1 when the player plays next, else -1 */
    "lockable",  /* Flags in hand that can lock a held open wall, less the other's expected */
    "lock_late", /* lockable times the Flags on the board / 3 */
    "attacks",   /* Cannon Attacks in the player's hand */
    "open_late"  /* open times the share of the main deck drawn */
};

static void features(const void *st, int seat, double *x)
{
    dw_eval_features(st, seat, x);
}

int main(int argc, char **argv)
{
    const positions_game dw = {"danger-at-the-walls", "dw-positions", DW_EVAL_FEATURES,
                               feature_names, features};
    return positions_main(&dw, argc, argv);
}
