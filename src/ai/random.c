/* random.c — the `random` AI: a uniformly random legal move. The baseline every other AI is
 * measured against, and the default of `ramparts sim`. */
#include "kind.h"

static int random_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    static const char *const keys[] = {NULL};
    return rp__params_only(params, keys, ai->kind_name, err);
}

/* Legal actions depend only on what the player to act can see (tests check that
 * determinizing for that player leaves them unchanged), so no determinizing is needed. */
static int random_choose(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info)
{
    *out = rp__random_action(ai->game, st, &ai->rng);
    info->iterations = 1;
    return RP_OK;
}

const rp_ai_kind rp_ai_random = {
    .create = random_create,
    .choose = random_choose,
};
