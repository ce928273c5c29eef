/* greedy.c — the `greedy` AI: the move with the best immediate outcome. It samples the hidden
 * state for the player to act, tries every legal move, and scores the result by the game's
 * evaluate hook (or, for games without one, the mean of a few random playouts). */
#include <stdlib.h>

#include "kind.h"

typedef struct greedy_data {
    long rollouts; /* playouts per move when the game has no evaluate hook */
} greedy_data;

static int greedy_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    static const char *const keys[] = {"rollouts", NULL};
    int rc = rp__params_only(params, keys, ai->kind_name, err);
    long rollouts = 0;
    if (rc == RP_OK)
        rc = rp__param_int(params, "rollouts", 8, 1, 100000, &rollouts, err);
    if (rc < 0)
        return rc;
    greedy_data *data = malloc(sizeof *data);
    if (!data)
        return rp_fail(err, RP_ENOMEM, "out of memory for the AI");
    data->rollouts = rollouts;
    ai->data = data;
    return RP_OK;
}

static void greedy_destroy(rp_ai *ai)
{
    free(ai->data);
}

/* The value for `player` of the position after a move, read only through what player sees. */
static double score_after(rp_ai *ai, const void *after, int player)
{
    const rp_game *game = ai->game;
    if (game->current_player(after) == RP_TERMINAL) {
        double r[RP_MAX_PLAYERS];
        game->returns(after, r);
        return r[player];
    }
    if (game->evaluate)
        return game->evaluate(after, player);
    const greedy_data *data = ai->data;
    double total = 0;
    for (long i = 0; i < data->rollouts; i++) {
        rp_state sim;
        rp_state_copy(game, &sim, after);
        rp__random_playout(game, &sim, &ai->rng);
        double r[RP_MAX_PLAYERS];
        game->returns(&sim, r);
        total += r[player];
    }
    return total / (double)data->rollouts;
}

static int greedy_choose(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info)
{
    const rp_game *game = ai->game;
    const int player = game->current_player(st);
    rp_state sample;
    rp_state_copy(game, &sample, st);
    game->determinize(&sample, player, &ai->rng);
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(&sample, legal);
    double best = -1;
    int ties = 0;
    for (int i = 0; i < n; i++) {
        rp_state after;
        rp_state_copy(game, &after, &sample);
        game->apply(&after, legal[i]);
        double v = score_after(ai, &after, player);
        if (v > best + 1e-12) {
            best = v;
            *out = legal[i];
            ties = 1;
        } else if (v > best - 1e-12 && rp_rng_below(&ai->rng, (uint32_t)++ties) == 0) {
            *out = legal[i]; /* reservoir choice among equal moves */
        }
    }
    info->win_chance = best;
    info->iterations = (uint64_t)n;
    return RP_OK;
}

const rp_ai_kind rp_ai_greedy = {
    .create = greedy_create,
    .choose = greedy_choose,
    .destroy = greedy_destroy,
};
