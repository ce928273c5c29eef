/* kd-positions.c — positions of King of Danger from self-play, with the features a fitted
 * `evaluate` could compute cheaply and who won, one CSV row per seat and position; the input of
 * scripts/kd-fit.py (docs/ai.md, "Strength changes tried"). Build and run from the top of the
 * tree after `make`:
 *   cc -O2 -std=c11 -Iinclude -Isrc scripts/kd-positions.c build/libramparts.a -lcjson -lm -lpthread \
 *      -o build/kd-positions && build/kd-positions PLAYERS GAMES SEED SPEC > positions.csv */
#include <stdio.h>
#include <stdlib.h>

#include "games/king-of-danger/internal.h"
#include "ramparts/ai.h"

#define MAX_ROWS 4096 /* positions times seats of one game, far more than a game has */

/* The features of kd_eval_features (learn.c), in its order. */
static const char *const feature_names[KD_EVAL_FEATURES] = {
    "lead",        /* score + castle over the best other's, over 4 (the hand-set evaluate's) */
    "score_lead",  /* score over the best other score */
    "castle_lead", /* castle over the best other castle */
    "castle_left", /* castle_lead times the share of this hand's tricks still to play */
    "castle_game", /* castle_lead times the share of the 31 points the leader still needs */
    "kings",       /* Kings it may play, less its share of the Kings it has not seen */
    "high",        /* the same for suit cards and Wizards of 6 or more */
    "lead_late",   /* lead times the share of 31 the best score has reached */
};

typedef struct row {
    int seat;
    double x[KD_EVAL_FEATURES];
} row;

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: kd-positions PLAYERS GAMES SEED SPEC\n");
        return 2;
    }
    char *end_players = NULL, *end_games = NULL, *end_seed = NULL;
    const long players_arg = strtol(argv[1], &end_players, 10);
    const long games = strtol(argv[2], &end_games, 10);
    const uint64_t seed = strtoull(argv[3], &end_seed, 10);
    if (*end_players || *end_games || *end_seed || players_arg < 2 ||
        players_arg > KD_MAX_PLAYERS || games < 1 || games > 1000000) {
        fprintf(stderr, "kd-positions: PLAYERS is 2 to 5, GAMES 1 to 1000000, SEED a number\n");
        return 2;
    }
    const int players = (int)players_arg;
    const rp_game *game = rp_game_find("king-of-danger");
    static row rows[MAX_ROWS];
    printf("game,players,seat");
    for (int f = 0; f < KD_EVAL_FEATURES; f++)
        printf(",%s", feature_names[f]);
    printf(",won\n");
    for (int g = 0; g < games; g++) {
        rp_config cfg;
        rp_error err = {{0}};
        char opt[64];
        rp_config_default(game, &cfg);
        snprintf(opt, sizeof opt, "players=%d", players);
        int rc = rp_config_set(game, &cfg, opt, &err);
        const uint64_t game_seed = seed + (uint64_t)g;
        snprintf(opt, sizeof opt, "seed=%llu", (unsigned long long)game_seed);
        if (rc >= 0)
            rc = rp_config_set(game, &cfg, opt, &err);
        kd_state st;
        if (rc < 0 || game->init(&st, &cfg, &err) < 0) {
            fprintf(stderr, "kd-positions: %s\n", err.msg);
            return 1;
        }
        rp_ai *ai[KD_MAX_PLAYERS];
        for (int p = 0; p < players; p++)
            if (rp_ai_create(game, argv[4], seed * 1000003u + (uint64_t)(g * 8 + p), &ai[p], &err) <
                0) {
                fprintf(stderr, "kd-positions: %s\n", err.msg);
                return 2;
            }
        int count = 0;
        while (!st.over) {
            const int mover = kd_current_player(&st);
            for (int p = 0; p < players && count < MAX_ROWS; p++) {
                rows[count].seat = p;
                kd_eval_features(&st, p, rows[count++].x);
            }
            rp_action move;
            rp_ai_info info;
            if (rp_ai_choose(ai[mover], &st, &move, &info, &err) < 0) {
                fprintf(stderr, "kd-positions: %s\n", err.msg);
                return 1;
            }
            game->apply(&st, move);
        }
        for (int i = 0; i < count; i++) {
            printf("%d,%d,%d", g, players, rows[i].seat);
            for (int f = 0; f < KD_EVAL_FEATURES; f++)
                printf(",%.4f", rows[i].x[f]);
            printf(",%d\n", rows[i].seat == st.winner);
        }
        for (int p = 0; p < players; p++)
            rp_ai_free(ai[p]);
    }
    return 0;
}
