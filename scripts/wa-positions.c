/* wa-positions.c — positions of Walls and Armies from self-play, with the features a fitted
 * `evaluate` could compute from the public view (wa_eval_features, learn.c), the hand-set
 * evaluation's value and who won, one CSV row per seat and position; the input of
 * scripts/wa-fit.py (docs/ai.md, "Strength changes tried"). Build and run from the top of the
 * tree after `make`:
 *   cc -O2 -std=c11 -Iinclude -Isrc scripts/wa-positions.c build/libramparts.a -lcjson -lm -lpthread \
 *      -o build/wa-positions && build/wa-positions GAMES SEED SPEC > positions.csv */
#include <stdio.h>
#include <stdlib.h>

#include "games/walls-and-armies/internal.h"
#include "ramparts/ai.h"

/* Positions times seats of one game kept for its rows: far more than a game has (the turn cap
 * of 200 turns at a few actions a turn); a longer game's extra positions are left out. */
#define MAX_ROWS 65536

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

typedef struct row {
    int seat;
    double x[WA_EVAL_FEATURES];
    double hand; /* the hand-set wa_evaluate */
} row;

static row rows[MAX_ROWS];

/* One self-play game between two AIs of `spec`, its rows printed once the winner is known. */
static int play_game(const rp_game *game, int g, uint64_t seed, const char *spec)
{
    rp_config cfg;
    rp_error err = {{0}};
    char opt[64];
    rp_config_default(game, &cfg);
    const uint64_t game_seed = seed + (uint64_t)g;
    snprintf(opt, sizeof opt, "seed=%llu", (unsigned long long)game_seed);
    wa_state st;
    if (rp_config_set(game, &cfg, opt, &err) < 0 || game->init(&st, &cfg, &err) < 0) {
        fprintf(stderr, "wa-positions: %s\n", err.msg);
        return 1;
    }
    rp_ai *ai[2] = {NULL, NULL};
    for (int p = 0; p < 2; p++)
        if (rp_ai_create(game, spec, seed * 1000003u + (uint64_t)(g * 8 + p), &ai[p], &err) < 0) {
            fprintf(stderr, "wa-positions: %s\n", err.msg);
            rp_ai_free(ai[0]);
            return 2;
        }
    int count = 0, rc = 0;
    while (st.phase != WA_OVER) {
        for (int p = 0; p < 2 && count < MAX_ROWS; p++) {
            rows[count].seat = p;
            rows[count].hand = wa_evaluate(&st, p);
            wa_eval_features(&st, p, rows[count++].x);
        }
        rp_action move;
        rp_ai_info info;
        if (rp_ai_choose(ai[wa_current_player(&st)], &st, &move, &info, &err) < 0) {
            fprintf(stderr, "wa-positions: %s\n", err.msg);
            rc = 1;
            break;
        }
        game->apply(&st, move);
    }
    for (int i = 0; i < count && rc == 0; i++) {
        printf("%d,2,%d", g, rows[i].seat);
        for (int f = 0; f < WA_EVAL_FEATURES; f++)
            printf(",%.4f", rows[i].x[f]);
        const double won = st.winner == WA_DRAW ? 0.5 : st.winner == rows[i].seat ? 1.0 : 0.0;
        printf(",%.4f,%g\n", rows[i].hand, won);
    }
    rp_ai_free(ai[0]);
    rp_ai_free(ai[1]);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: wa-positions GAMES SEED SPEC\n");
        return 2;
    }
    char *end_games = NULL, *end_seed = NULL;
    const long games = strtol(argv[1], &end_games, 10);
    const uint64_t seed = strtoull(argv[2], &end_seed, 10);
    if (*end_games || *end_seed || games < 1 || games > 1000000) {
        fprintf(stderr, "wa-positions: GAMES is 1 to 1000000, SEED a number\n");
        return 2;
    }
    const rp_game *game = rp_game_find("walls-and-armies");
    printf("game,players,seat");
    for (int f = 0; f < WA_EVAL_FEATURES; f++)
        printf(",%s", feature_names[f]);
    printf(",hand,won\n");
    for (int g = 0; g < games; g++) {
        const int rc = play_game(game, g, seed, argv[3]);
        if (rc != 0)
            return rc;
    }
    return 0;
}
