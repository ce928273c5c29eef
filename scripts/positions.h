/* positions.h — the two-player self-play position writer shared by scripts/wa-positions.c and
 * scripts/dw-positions.c: one CSV row per seat and position with a game's fitted-evaluation
 * features, its hand-set evaluation's value and the result (a draw counts half). */
#ifndef RP_SCRIPTS_POSITIONS_H
#define RP_SCRIPTS_POSITIONS_H
#include <stdio.h>
#include <stdlib.h>

#include "ramparts/ai.h"

/* Positions times seats of one game kept for its rows: far more than a game of either game
 * has; a longer game's extra positions are left out. */
#define POSITIONS_MAX_ROWS 65536
#define POSITIONS_MAX_FEATURES 16

/* What a game gives the writer: its id, the tool's name for messages, its features. */
typedef struct positions_game {
    const char *id, *tool;
    int nfeatures;
    const char *const *feature_names;
    void (*features)(const void *st, int seat, double *x);
} positions_game;

typedef struct positions_row {
    int seat;
    double x[POSITIONS_MAX_FEATURES];
    double hand; /* the game's hand-set evaluate */
} positions_row;

static positions_row positions_rows[POSITIONS_MAX_ROWS];

/* One self-play game between two AIs of `spec`, its rows printed once the result is known. */
static int positions_play(const positions_game *pg, const rp_game *game, int g, uint64_t seed,
                          const char *spec)
{
    rp_config cfg;
    rp_error err = {{0}};
    char opt[64];
    rp_config_default(game, &cfg);
    snprintf(opt, sizeof opt, "seed=%llu", (unsigned long long)(seed + (uint64_t)g));
    rp_state st;
    if (rp_config_set(game, &cfg, opt, &err) < 0 || game->init(&st, &cfg, &err) < 0) {
        fprintf(stderr, "%s: %s\n", pg->tool, err.msg);
        return 1;
    }
    rp_ai *ai[2] = {NULL, NULL};
    for (int p = 0; p < 2; p++)
        if (rp_ai_create(game, spec, seed * 1000003u + (uint64_t)(g * 8 + p), &ai[p], &err) < 0) {
            fprintf(stderr, "%s: %s\n", pg->tool, err.msg);
            rp_ai_free(ai[0]);
            return 2;
        }
    int count = 0, rc = 0;
    while (game->current_player(&st) != RP_TERMINAL) {
        for (int p = 0; p < 2 && count < POSITIONS_MAX_ROWS; p++) {
            positions_rows[count].seat = p;
            positions_rows[count].hand = game->evaluate(&st, p);
            pg->features(&st, p, positions_rows[count++].x);
        }
        rp_action move;
        rp_ai_info info;
        if (rp_ai_choose(ai[game->current_player(&st)], &st, &move, &info, &err) < 0) {
            fprintf(stderr, "%s: %s\n", pg->tool, err.msg);
            rc = 1;
            break;
        }
        game->apply(&st, move);
    }
    double result[2] = {0, 0};
    if (rc == 0)
        game->returns(&st, result); /* 1 to the winner, 0.5 each for a draw */
    for (int i = 0; i < count && rc == 0; i++) {
        printf("%d,2,%d", g, positions_rows[i].seat);
        for (int f = 0; f < pg->nfeatures; f++)
            printf(",%.4f", positions_rows[i].x[f]);
        printf(",%.4f,%g\n", positions_rows[i].hand, result[positions_rows[i].seat]);
    }
    rp_ai_free(ai[0]);
    rp_ai_free(ai[1]);
    return rc;
}

/* The tool's main: GAMES SEED SPEC, a header, then each game's rows. */
static int positions_main(const positions_game *pg, int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s GAMES SEED SPEC\n", pg->tool);
        return 2;
    }
    char *end_games = NULL, *end_seed = NULL;
    const long games = strtol(argv[1], &end_games, 10);
    const uint64_t seed = strtoull(argv[2], &end_seed, 10);
    if (*end_games || *end_seed || games < 1 || games > 1000000) {
        fprintf(stderr, "%s: GAMES is 1 to 1000000, SEED a number\n", pg->tool);
        return 2;
    }
    const rp_game *game = rp_game_find(pg->id);
    printf("game,players,seat");
    for (int f = 0; f < pg->nfeatures; f++)
        printf(",%s", pg->feature_names[f]);
    printf(",hand,won\n");
    for (int g = 0; g < games; g++) {
        const int rc = positions_play(pg, game, g, seed, argv[3]);
        if (rc != 0)
            return rc;
    }
    return 0;
}
#endif
