/* ismcts.c — the `ismcts` AI: information-set Monte Carlo tree search (single observer).
 * Each iteration determinizes the state for the player to act, and the opponents' edges are
 * keyed by what that player observes of their actions (the game's observe_action hook), so one
 * tree covers every world the player cannot tell apart. */
#include "search.h"

static int ismcts_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    rp_search_cfg cfg;
    rp_search_defaults(ai->game, true, &cfg);
    int rc = rp_search_parse(params, ai->kind_name, &cfg, err);
    return rc < 0 ? rc : rp_search_create(ai, &cfg, err);
}

const rp_ai_kind rp_ai_ismcts = {
    .create = ismcts_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};
