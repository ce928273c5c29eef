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

#define KD_FEATURES 8
#define MAX_ROWS 4096 /* positions times seats of one game, far more than a game has */

static const char *const feature_names[KD_FEATURES] = {
    "lead",        /* score + castle over the best other's (today's evaluate, over 4) */
    "score_lead",  /* score over the best other score */
    "castle_lead", /* castle over the best other castle */
    "castle_left", /* castle_lead times the share of this hand's tricks still to play */
    "castle_game", /* castle_lead times the share of the 31 points the leader still needs */
    "kings",       /* Kings it may play, less its share of the Kings it has not seen */
    "high",        /* the same for suit cards and Wizards of 6 or more */
    "lead_late",   /* lead times the share of 31 the best score has reached */
};

static int high_cards(uint32_t m)
{
    int n = 0;
    for (; m; m &= m - 1) {
        const int card = kd_lowest(m);
        n += card >= KD_WALLS_1 && kd_card_rank[card] >= 6;
    }
    return n;
}

/* The features of `player` in s (s not over). */
static void features(const kd_state *s, int player, double *x)
{
    const int n = s->players;
    double best_total = -1e9, best_score = -1e9, best_castle = -1e9;
    double top_score = s->score[player];
    for (int p = 0; p < n; p++) {
        if (s->score[p] > top_score)
            top_score = s->score[p];
        if (p == player)
            continue;
        const double total = (double)s->score[p] + s->castle[p];
        best_total = total > best_total ? total : best_total;
        best_score = s->score[p] > best_score ? s->score[p] : best_score;
        best_castle = s->castle[p] > best_castle ? s->castle[p] : best_castle;
    }
    /* Only what the player sees (KD-10): its hand and face-up cards against the cards it has
     * not seen, which lie in the other hands and face down. */
    const uint32_t own = kd_playable_from(s, player);
    uint32_t seen = own | s->played | s->aside | s->trick_mask;
    if (n == 2)
        seen |= s->up[0] | s->up[1];
    const uint32_t unseen = KD_ALL & ~seen;
    const double kings = kd_popcount(unseen & KD_KINGS), high = high_cards(unseen);
    const double lead = (double)s->score[player] + s->castle[player] - best_total;
    const double castle_lead = s->castle[player] - best_castle;
    const double per_hand = KD_CARDS / n;
    const double left = kd_popcount(kd_cards_left(s, player)) / per_hand;
    const double need = top_score >= KD_GOAL ? 0 : (KD_GOAL - top_score) / KD_GOAL;
    x[0] = lead / 4.0;
    x[1] = (double)s->score[player] - best_score;
    x[2] = castle_lead;
    x[3] = castle_lead * left;
    x[4] = castle_lead * need;
    x[5] = kd_popcount(own & KD_KINGS) - kings / (n - 1);
    x[6] = high_cards(own) - high / (n - 1);
    x[7] = lead * (1 - need);
}

typedef struct row {
    int seat;
    double x[KD_FEATURES];
} row;

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: kd-positions PLAYERS GAMES SEED SPEC\n");
        return 2;
    }
    const int players = atoi(argv[1]), games = atoi(argv[2]);
    const uint64_t seed = strtoull(argv[3], NULL, 10);
    if (players < 2 || players > KD_MAX_PLAYERS || games < 1) {
        fprintf(stderr, "kd-positions: PLAYERS is 2 to 5 and GAMES at least 1\n");
        return 2;
    }
    const rp_game *game = rp_game_find("king-of-danger");
    static row rows[MAX_ROWS];
    printf("game,players,seat");
    for (int f = 0; f < KD_FEATURES; f++)
        printf(",%s", feature_names[f]);
    printf(",won\n");
    for (int g = 0; g < games; g++) {
        rp_config cfg;
        rp_error err = {{0}};
        char opt[64];
        rp_config_default(game, &cfg);
        snprintf(opt, sizeof opt, "players=%d", players);
        int rc = rp_config_set(game, &cfg, opt, &err);
        snprintf(opt, sizeof opt, "seed=%llu", (unsigned long long)(seed + (uint64_t)g));
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
                features(&st, p, rows[count++].x);
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
            for (int f = 0; f < KD_FEATURES; f++)
                printf(",%.4f", rows[i].x[f]);
            printf(",%d\n", rows[i].seat == st.winner);
        }
        for (int p = 0; p < players; p++)
            rp_ai_free(ai[p]);
    }
    return 0;
}
