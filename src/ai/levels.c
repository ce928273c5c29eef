/* levels.c — the `beginner`, `easy`, `medium` and `hard` AIs: aliases for a search kind with a
 * budget each game declares (a fast game affords more iterations). The kind follows from the game's
 * traits: information-set MCTS with hidden information, plain MCTS without. Parameters given
 * after the level ("hard:threads=2") override the level's own. */
#include <stdio.h>
#include <string.h>

#include "search.h"

/* The levels, in the order of rp_game.ai_levels. */
enum { LEVEL_BEGINNER, LEVEL_EASY, LEVEL_MEDIUM, LEVEL_HARD };

/* The generic budgets of each level, for a game that declares none of its own. Beginner's few
 * iterations make a short-sighted player that misses threats, not one that throws moves away. */
static const char *const default_budget[4] = {"iters=30", "iters=200", "iters=2000", "iters=10000"};

/* The level's parameters: the game's own budget (a trait, chosen with `ramparts arena`, see
 * docs/ai.md), else the generic one. */
static const char *level_budget(const rp_game *game, int level)
{
    return game->ai_levels[level] ? game->ai_levels[level] : default_budget[level];
}

/* Parameters of the level first, the user's after them, so the user's win. sees_all makes
 * the analysis-only oracle: the level's search on the true state. */
static int level_create(rp_ai *ai, const rp_ai_params *user, int level, bool sees_all,
                        rp_error *err)
{
    rp_ai_params merged;
    memset(&merged, 0, sizeof merged);
    const char *budget = level_budget(ai->game, level), *text = budget;
    while (*text && merged.count < RP_AI_MAX_PARAMS) {
        const char *comma = strchr(text, ',');
        size_t len = comma ? (size_t)(comma - text) : strlen(text);
        const char *eq = memchr(text, '=', len);
        if (!eq) /* a game's trait, checked by the conformance suite: never a user's text */
            return rp_fail(err, RP_EINVAL,
                           "%s: AI level %d's budget \"%s\" (ai_levels) has '%.*s', "
                           "not key=value",
                           ai->game->id, level, budget, (int)len, text);
        snprintf(merged.key[merged.count], sizeof merged.key[0], "%.*s", (int)(eq - text), text);
        snprintf(merged.value[merged.count], sizeof merged.value[0], "%.*s",
                 (int)(len - (size_t)(eq - text) - 1), eq + 1);
        merged.count++;
        text += len + (comma ? 1 : 0);
    }
    for (int i = 0; i < user->count; i++) {
        if (merged.count == RP_AI_MAX_PARAMS)
            return rp_fail(err, RP_EINVAL, "too many AI parameters");
        merged.count++;
        memcpy(merged.key[merged.count - 1], user->key[i], sizeof merged.key[0]);
        memcpy(merged.value[merged.count - 1], user->value[i], sizeof merged.value[0]);
    }
    rp_search_cfg cfg;
    /* Hidden information needs the information-set search; perfect information (and the
     * oracle, to which nothing is hidden) does not. */
    rp_search_defaults(ai->game, !sees_all && (ai->game->flags & RP_HIDDEN_INFO) != 0, &cfg);
    int rc = rp_search_parse(&merged, ai->kind_name, &cfg, err);
    cfg.sees_all = sees_all;
    return rc < 0 ? rc : rp_search_create(ai, &cfg, err);
}

static int beginner_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, LEVEL_BEGINNER, false, err);
}

static int easy_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, LEVEL_EASY, false, err);
}

static int medium_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, LEVEL_MEDIUM, false, err);
}

static int hard_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, LEVEL_HARD, false, err);
}

/* The oracle: the hard level's budget, seeing everything (made only by rp_ai_create_oracle). */
static int oracle_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, LEVEL_HARD, true, err);
}

const rp_ai_kind rp_ai_oracle = {
    .create = oracle_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};

const rp_ai_kind rp_ai_beginner = {
    .create = beginner_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};

const rp_ai_kind rp_ai_easy = {
    .create = easy_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};

const rp_ai_kind rp_ai_medium = {
    .create = medium_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};

const rp_ai_kind rp_ai_hard = {
    .create = hard_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};
