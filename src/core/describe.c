/* describe.c — every game described as JSON, written once for the two documents that list the
 * games: the server's GET /api/v1/types (docs/server-protocol.md) and the WebAssembly API's
 * `games` (docs/wasm.md), which the browser client reads online and offline. */
#include <cjson/cJSON.h>

#include "options.h"

/* An option as the server offers it: a number's range, or a choice's words with its default
 * given as a word, the way `create` takes it. */
static cJSON *server_option_json(const rp_option_spec *spec)
{
    cJSON *opt = cJSON_CreateObject();
    cJSON_AddStringToObject(opt, "name", spec->name);
    cJSON_AddStringToObject(opt, "kind", spec->kind == RP_OPT_INT ? "int" : "choice");
    if (spec->kind == RP_OPT_INT) {
        cJSON_AddNumberToObject(opt, "min", (double)spec->min);
        cJSON_AddNumberToObject(opt, "max", (double)spec->max);
        cJSON_AddNumberToObject(opt, "default", (double)spec->def);
    } else {
        char word[64];
        rp__choice_word(spec->choices, spec->def, word, sizeof word);
        cJSON_AddStringToObject(opt, "choices", spec->choices);
        cJSON_AddStringToObject(opt, "default", word);
    }
    cJSON_AddStringToObject(opt, "help", spec->help ? spec->help : "");
    return opt;
}

/* An option as the engine declares it: every field, a choice's default as its index. */
static cJSON *engine_option_json(const rp_option_spec *spec)
{
    static const char *const kinds[] = {"int", "choice", "text"};
    cJSON *opt = cJSON_CreateObject();
    cJSON_AddStringToObject(opt, "name", spec->name);
    cJSON_AddStringToObject(opt, "kind", kinds[spec->kind]);
    cJSON_AddNumberToObject(opt, "min", (double)spec->min);
    cJSON_AddNumberToObject(opt, "max", (double)spec->max);
    cJSON_AddNumberToObject(opt, "default", (double)spec->def);
    if (spec->choices)
        cJSON_AddStringToObject(opt, "choices", spec->choices);
    cJSON_AddStringToObject(opt, "help", spec->help ? spec->help : "");
    return opt;
}

/* The options: the server offers none of kind text (a file name means nothing over the
 * network). */
static void add_options(cJSON *o, const rp_game *game, rp_describe_shape shape)
{
    cJSON *options = cJSON_AddArrayToObject(o, "options");
    for (int i = 0; i < game->num_options; i++) {
        const rp_option_spec *spec = &game->options[i];
        if (shape == RP_DESCRIBE_ENGINE)
            cJSON_AddItemToArray(options, engine_option_json(spec));
        else if (spec->kind != RP_OPT_TEXT)
            cJSON_AddItemToArray(options, server_option_json(spec));
    }
}

/* The traits, in each document's order. */
static void add_traits(cJSON *o, const rp_game *game, rp_describe_shape shape)
{
    const bool chance = (game->flags & RP_CHANCE) != 0;
    const bool hidden = (game->flags & RP_HIDDEN_INFO) != 0;
    if (shape == RP_DESCRIBE_ENGINE) {
        cJSON_AddBoolToObject(o, "chance", chance);
        cJSON_AddBoolToObject(o, "hidden_info", hidden);
        return;
    }
    cJSON_AddBoolToObject(o, "can_draw", (game->flags & RP_CAN_DRAW) != 0);
    cJSON_AddBoolToObject(o, "hidden_info", hidden);
    cJSON_AddBoolToObject(o, "chance", chance);
}

static void add_ai_levels(cJSON *o, const rp_game *game, const char *const *ai_levels)
{
    cJSON *levels = cJSON_AddArrayToObject(o, "ai_levels");
    for (int i = 0; ai_levels && ai_levels[i]; i++)
        cJSON_AddItemToArray(levels, cJSON_CreateString(ai_levels[i]));
    if (game->ai_level_note)
        cJSON_AddStringToObject(o, "ai_level_note", game->ai_level_note);
}

static cJSON *game_json(const rp_game *game, rp_describe_shape shape, const char *const *ai_levels)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, shape == RP_DESCRIBE_SERVER ? "type" : "id", game->id);
    cJSON_AddStringToObject(o, "title", game->title);
    cJSON_AddStringToObject(o, "summary", game->summary);
    cJSON_AddNumberToObject(o, "min_players", game->min_players);
    cJSON_AddNumberToObject(o, "max_players", game->max_players);
    cJSON_AddNumberToObject(o, "default_players", game->default_players);
    add_traits(o, game, shape);
    cJSON *seats = cJSON_AddArrayToObject(o, "seat_names");
    for (int s = 0; s < game->max_players; s++)
        cJSON_AddItemToArray(seats, cJSON_CreateString(rp_seat_name(game, s)));
    add_options(o, game, shape);
    if (shape == RP_DESCRIBE_SERVER)
        add_ai_levels(o, game, ai_levels);
    return o;
}

char *rp_games_describe(rp_describe_shape shape, const char *const *ai_levels)
{
    cJSON *games = cJSON_CreateArray();
    for (int g = 0; games && g < rp_num_games; g++)
        cJSON_AddItemToArray(games, game_json(rp_games[g], shape, ai_levels));
    char *text = games ? cJSON_PrintUnformatted(games) : NULL;
    cJSON_Delete(games);
    return text;
}
