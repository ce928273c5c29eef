/* wa-positions.c — positions of Walls and Armies from self-play, with the features a fitted
 * `evaluate` could compute from the public view (wa_eval_features, learn.c), the hand-set
 * evaluation's value and who won, one CSV row per seat and position; the input of
 * scripts/wa-fit.py (docs/ai.md, "Strength changes tried"). Build and run from the top of the
 * tree after `make`:
 *   cc -O2 -std=c11 -Iinclude -Isrc scripts/wa-positions.c build/libramparts.a -lcjson -lm -lpthread \
 *      -o build/wa-positions && build/wa-positions GAMES SEED SPEC > positions.csv */
#include "games/walls-and-armies/internal.h"
#include "positions.h"

/* The features of wa_eval_features (learn.c), in its order. */
static const char *const feature_names[WA_EVAL_FEATURES] = {
    "walls",     /* walls, the player's less the opponent's */
    "low",       /* the opponent has 2 walls or fewer, less the player has */
    "shields",   /* shields, the player's less the opponent's */
    "army",      /* army cards, the player's less the opponent's */
    "strength",  /* the mean known value of the walls, the player's less the opponent's */
    "attacking", /* 1 when the player attacks this turn, -1 when the opponent does */
    "attack",    /* the attacking side's army cards, negative when it is the opponent */
    "walls_late" /* walls times the share of the turn cap played */
};

static void features(const void *st, int seat, double *x)
{
    wa_eval_features(st, seat, x);
}

int main(int argc, char **argv)
{
    const positions_game wa = {"walls-and-armies", "wa-positions", WA_EVAL_FEATURES, feature_names,
                               features};
    return positions_main(&wa, argc, argv);
}
