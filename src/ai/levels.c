/* levels.c — the `easy`, `medium` and `hard` AIs: aliases for a search kind with a budget
 * chosen per game (a fast game affords more iterations). Parameters given after the level
 * ("hard:threads=2") override the level's own. */
#include <stdio.h>
#include <string.h>

#include "search.h"

typedef struct level_row {
    const char *game;        /* game id, or NULL for the fallback row */
    bool by_observation;     /* ismcts (true) or mcts */
    const char *budget[3];   /* easy, medium, hard: extra parameters */
} level_row;

/* Budgets per game, chosen with `ramparts arena` (see docs/ai.md): hard is what beats greedy
 * clearly at a fraction of a second per move on one core of a small machine. */
static const level_row rows[] = {
    {NULL, true, {"iters=200", "iters=2000", "iters=10000"}},
    {"danger-at-the-walls", true, {"iters=300", "iters=2000", "iters=10000"}},
    {"king-of-danger", true, {"iters=200", "iters=1000", "iters=3000"}},
    /* Rush the Wall is planned face down: its evaluation sees only public fort totals, flat
     * while warriors are placed, so playouts run to the end of the game instead. */
    {"rush-the-wall", true,
     {"iters=300,rollout=-1", "iters=1500,rollout=-1", "iters=4000,rollout=-1"}},
    {"castle-danger", false, {"iters=300", "iters=1500", "iters=5000"}},
    {"walls-and-armies", true, {"iters=300", "iters=1500", "iters=5000"}},
};

static const level_row *row_for(const rp_game *game)
{
    for (size_t i = 1; i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(rows[i].game, game->id) == 0)
            return &rows[i];
    return &rows[0];
}

/* Parameters of the level first, the user's after them, so the user's win. */
static int level_create(rp_ai *ai, const rp_ai_params *user, int level, rp_error *err)
{
    const level_row *row = row_for(ai->game);
    rp_ai_params merged;
    memset(&merged, 0, sizeof merged);
    const char *text = row->budget[level];
    while (*text && merged.count < RP_AI_MAX_PARAMS) {
        const char *comma = strchr(text, ',');
        size_t len = comma ? (size_t)(comma - text) : strlen(text);
        const char *eq = memchr(text, '=', len);
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
    rp_search_defaults(ai->game, row->by_observation, &cfg);
    int rc = rp_search_parse(&merged, ai->kind->name, &cfg, err);
    return rc < 0 ? rc : rp_search_create(ai, &cfg, err);
}

static int easy_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, 0, err);
}

static int medium_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, 1, err);
}

static int hard_create(rp_ai *ai, const rp_ai_params *params, rp_error *err)
{
    return level_create(ai, params, 2, err);
}

const rp_ai_kind rp_ai_easy = {
    .name = "easy",
    .help = "a quick search (budget per game); easy:threads=T etc. override",
    .create = easy_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};

const rp_ai_kind rp_ai_medium = {
    .name = "medium",
    .help = "a longer search (budget per game)",
    .create = medium_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};

const rp_ai_kind rp_ai_hard = {
    .name = "hard",
    .help = "the strongest level (budget per game, see docs/ai.md)",
    .create = hard_create,
    .choose = rp_search_choose,
    .destroy = rp_search_destroy,
};
