/* mcts.c — the `mcts` AI: UCT Monte Carlo tree search with the tree keyed by actions, for
 * full-information games (Castle Danger). On a game with chance or hidden parts it still
 * resamples them for the player to act at every iteration, so it never reads the future dice. */
#include "search.h"

static int mcts_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    rp_search_cfg cfg;
    rp_search_defaults(ai->game, false, &cfg);
    int rc = rp_search_parse(params, ai->kind_name, &cfg, err);
    return rc < 0 ? rc : rp_search_create(ai, &cfg, err);
}

const rp_ai_kind rp_ai_mcts = {
    .create = mcts_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};
