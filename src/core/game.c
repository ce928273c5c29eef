/* game.c — what every game shares: error codes and messages, key=value options checked
 * against each game's declared table, and the checked entry points tools call (legality
 * checks, move parsing, JSON views). Nothing here is on the search hot path. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/legal.h"
#include "ramparts/json.h"
#include "options.h"

int(rp_fail)(rp_error *err, int code, const char *fmt, ...) /* (): not the analyzer's macro */
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* Messages quote the refused input, which may hold newlines or terminal escapes; an
         * error is one printable line wherever it is shown (terminal, protocol, network). */
        for (char *c = err->msg; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    }
    return code;
}

const char *rp_strerror(int code)
{
#define RP_ERROR_TEXT_(name, value, text)                                                          \
    if (code == (value))                                                                           \
        return text;
    RP_ERRORS(RP_ERROR_TEXT_)
#undef RP_ERROR_TEXT_
    return "unknown error";
}

const char *rp_seat_name(const rp_game *game, int seat)
{
    /* Constant, not filled on demand: tools call this from many threads at once. */
    static const char *const generic[RP_MAX_PLAYERS] = {"player 0", "player 1", "player 2",
                                                        "player 3", "player 4", "player 5"};
    if (seat < 0 || seat >= RP_MAX_PLAYERS)
        return "nobody";
    if (game->seat_names && seat < game->max_players)
        return game->seat_names[seat];
    return generic[seat];
}

/* ---- options ---- */

void rp_config_default(const rp_game *game, rp_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->players = game->default_players;
    cfg->seed = 1;
    for (int i = 0; i < game->num_options; i++)
        cfg->value[i] = game->options[i].def;
}

/* Parse a whole decimal integer (optionally signed); false on anything else. */
static bool parse_int64(const char *text, int64_t *out)
{
    if (!*text)
        return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_u64(const char *text, uint64_t *out)
{
    if (!*text || *text == '-' || *text == '+')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* Index of `word` in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word)
{
    size_t len = strlen(word);
    int index = 0;
    for (const char *p = choices; *p; index++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(p, word, n) == 0)
            return index;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

void rp__choice_word(const char *choices, int64_t index, char *buf, size_t size)
{
    const char *p = choices;
    for (int64_t i = 0; i < index && p; i++) {
        p = strchr(p, '|');
        if (p)
            p++;
    }
    if (!p) {
        snprintf(buf, size, "?");
        return;
    }
    const char *bar = strchr(p, '|');
    int n = bar ? (int)(bar - p) : (int)strlen(p);
    snprintf(buf, size, "%.*s", n, p);
}

static int option_index(const rp_game *game, const char *key, size_t key_len)
{
    for (int i = 0; i < game->num_options; i++)
        if (strlen(game->options[i].name) == key_len &&
            strncmp(game->options[i].name, key, key_len) == 0)
            return i;
    return -1;
}

/* The option names of a game, "players, seed, dealer" for error messages. */
static void option_names(const rp_game *game, char *buf, size_t size)
{
    int n = snprintf(buf, size, "players, seed");
    for (int i = 0; i < game->num_options && n >= 0 && (size_t)n < size; i++)
        n += snprintf(buf + n, size - (size_t)n, ", %s", game->options[i].name);
}

int rp_config_set(const rp_game *game, rp_config *cfg, const char *key_value, rp_error *err)
{
    const char *eq = strchr(key_value, '=');
    if (!eq || eq == key_value)
        return rp_fail(err, RP_EINVAL, "option '%s' is not of the form key=value", key_value);
    size_t key_len = (size_t)(eq - key_value);
    const char *value = eq + 1;
    if (key_len == 7 && strncmp(key_value, "players", 7) == 0) {
        int64_t n;
        if (!parse_int64(value, &n) || n < game->min_players || n > game->max_players) {
            if (game->min_players == game->max_players)
                return rp_fail(err, RP_EINVAL, "players=%s: %s is for exactly %d players", value,
                               game->title, game->min_players);
            return rp_fail(err, RP_EINVAL, "players=%s: %s is for %d to %d players", value,
                           game->title, game->min_players, game->max_players);
        }
        cfg->players = (int)n;
        cfg->players_given = true;
        return RP_OK;
    }
    if (key_len == 4 && strncmp(key_value, "seed", 4) == 0) {
        uint64_t seed;
        if (!parse_u64(value, &seed))
            return rp_fail(err, RP_EINVAL, "seed=%s: the seed is a whole number >= 0", value);
        cfg->seed = seed;
        cfg->seed_given = true;
        return RP_OK;
    }
    int i = option_index(game, key_value, key_len);
    if (i < 0) {
        char names[RP_ERROR_TEXT / 2];
        option_names(game, names, sizeof names);
        return rp_fail(err, RP_EINVAL, "unknown option '%.*s' for %s (options: %s)", (int)key_len,
                       key_value, game->id, names);
    }
    const rp_option_spec *spec = &game->options[i];
    switch (spec->kind) {
    case RP_OPT_INT: {
        int64_t n;
        if (!parse_int64(value, &n) || n < spec->min || n > spec->max)
            return rp_fail(err, RP_EINVAL,
                           "%s=%s: expected a whole number from %" PRId64 " to %" PRId64,
                           spec->name, value, spec->min, spec->max);
        cfg->value[i] = n;
        break;
    }
    case RP_OPT_CHOICE: {
        int k = choice_index(spec->choices, value);
        if (k < 0)
            return rp_fail(err, RP_EINVAL, "%s=%s: expected one of %s", spec->name, value,
                           spec->choices);
        cfg->value[i] = k;
        break;
    }
    case RP_OPT_TEXT:
        /* The library never opens a path: @FILE is resolved by front ends (from_file). */
        if (*value == '@')
            return rp_fail(err, RP_EINVAL,
                           "%s=%s: files are read only by the command-line "
                           "tool; give the value itself here",
                           spec->name, value);
        if (!*value || strlen(value) >= RP_OPTION_TEXT || strpbrk(value, " \t\r\n"))
            return rp_fail(err, RP_EINVAL,
                           "%s=%s: expected a value without spaces, shorter "
                           "than %d characters",
                           spec->name, value, RP_OPTION_TEXT);
        snprintf(cfg->text[i], sizeof cfg->text[i], "%s", value);
        break;
    }
    cfg->given[i] = true;
    return RP_OK;
}

int rp_config_to_text(const rp_game *game, const rp_config *cfg, char *buf, size_t size)
{
    int n = snprintf(buf, size, "players=%d seed=%" PRIu64, cfg->players, cfg->seed);
    for (int i = 0; i < game->num_options && n >= 0 && (size_t)n < size; i++) {
        const rp_option_spec *spec = &game->options[i];
        if (spec->kind == RP_OPT_TEXT && !cfg->given[i])
            continue;
        char word[RP_OPTION_TEXT];
        if (spec->kind == RP_OPT_INT)
            snprintf(word, sizeof word, "%" PRId64, cfg->value[i]);
        else if (spec->kind == RP_OPT_CHOICE)
            rp__choice_word(spec->choices, cfg->value[i], word, sizeof word);
        else
            snprintf(word, sizeof word, "%s", cfg->text[i]);
        n += snprintf(buf + n, size - (size_t)n, " %s=%s", spec->name, word);
    }
    if (n < 0 || (size_t)n >= size)
        return RP_ENOSPACE;
    return n;
}

int64_t rp_config_int(const rp_game *game, const rp_config *cfg, const char *name)
{
    int i = option_index(game, name, strlen(name));
    return i < 0 ? 0 : cfg->value[i];
}

const char *rp_config_text(const rp_game *game, const rp_config *cfg, const char *name)
{
    int i = option_index(game, name, strlen(name));
    return i < 0 || !cfg->given[i] ? NULL : cfg->text[i];
}

/* ---- checked entry points ---- */

void rp_state_copy(const rp_game *game, void *dst, const void *src)
{
    memcpy(dst, src, game->state_size);
}

bool rp_is_legal(const rp_game *game, const void *st, rp_action action)
{
    return rp__is_legal_by(game->legal_actions, st, action);
}

int rp_apply_checked(const rp_game *game, void *st, rp_action action, rp_error *err)
{
    if (game->current_player(st) == RP_TERMINAL)
        return rp_fail(err, RP_EOVER, "the game is over");
    if (!rp_is_legal(game, st, action))
        return rp_fail(err, RP_EILLEGAL, "action %u is not legal here", (unsigned)action);
    game->apply(st, action);
    return RP_OK;
}

int rp_parse_move(const rp_game *game, const void *st, const char *text, rp_action *out,
                  rp_error *err)
{
    if (game->current_player(st) == RP_TERMINAL)
        return rp_fail(err, RP_EOVER, "the game is over");
    rp_action action;
    int rc = game->action_from_text(st, text, &action, err);
    if (rc < 0)
        return rc;
    if (!rp_is_legal(game, st, action))
        return rp_fail(err, RP_EILLEGAL, "'%s' is not a legal move here", text);
    *out = action;
    return RP_OK;
}

cJSON *rp_view_cjson(const rp_game *game, const void *st, int player)
{
    return game->json && game->json->view ? game->json->view(st, player) : NULL;
}

/* A tree as JSON text (NULL for none), the tree freed. */
static char *print_tree(cJSON *tree, bool pretty)
{
    char *text = tree ? (pretty ? cJSON_Print(tree) : cJSON_PrintUnformatted(tree)) : NULL;
    cJSON_Delete(tree);
    return text;
}

char *rp_view_text(const rp_game *game, const void *st, int player, bool pretty)
{
    return print_tree(rp_view_cjson(game, st, player), pretty);
}

/* ---- viewers, events and actions as data ---- */

bool rp_viewer_ok(const rp_game *game, const void *st, int viewer)
{
    return viewer == RP_SPECTATOR || (viewer >= 0 && viewer < game->num_players(st));
}

const char *rp_viewer_name(const rp_game *game, int viewer)
{
    return viewer == RP_SPECTATOR ? "spectator" : rp_seat_name(game, viewer);
}

cJSON *rp_events_cjson(const rp_game *game, const void *before, rp_action action, int viewer,
                       rp_error *err)
{
    if (!game->json || !game->json->events) {
        rp_fail(err, RP_EUNSUPPORTED, "%s does not tell events", game->id);
        return NULL;
    }
    if (!rp_viewer_ok(game, before, viewer)) {
        rp_fail(err, RP_EINVAL, "viewer %d is neither a seat nor the spectator", viewer);
        return NULL;
    }
    if (game->current_player(before) == RP_TERMINAL) {
        rp_fail(err, RP_EOVER, "the game is over");
        return NULL;
    }
    if (!rp_is_legal(game, before, action)) {
        rp_fail(err, RP_EILLEGAL, "action %u is not legal here", (unsigned)action);
        return NULL;
    }
    cJSON *events = game->json->events(before, action, viewer);
    if (!events)
        rp_fail(err, RP_ENOMEM, "out of memory");
    return events;
}

char *rp_events_json(const rp_game *game, const void *before, rp_action action, int viewer,
                     rp_error *err)
{
    char *text = print_tree(rp_events_cjson(game, before, action, viewer, err), false);
    if (!text && err && !err->msg[0])
        rp_fail(err, RP_ENOMEM, "out of memory");
    return text;
}

bool rp_action_reveals(const rp_game *game, const void *before, rp_action action)
{
    cJSON *events = rp_events_cjson(game, before, action, RP_SPECTATOR, NULL);
    if (!events) /* without events nothing is known to be safe to take back */
        return true;
    bool reveals = false;
    const cJSON *event;
    cJSON_ArrayForEach (event, events)
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(event, "reveal")))
            reveals = true;
    cJSON_Delete(events);
    return reveals;
}

cJSON *rp_action_cjson(const rp_game *game, const void *st, rp_action action)
{
    if (!game->json || !game->json->action)
        return NULL;
    cJSON *o = game->json->action(st, action);
    if (!o)
        return NULL;
    char text[RP_ACTION_TEXT];
    if (game->action_to_text(st, action, text, sizeof text) < 0)
        text[0] = '\0';
    /* id and text first, so a client reading the object sees them at the top. */
    cJSON_AddItemToObject(o, "text", cJSON_CreateString(text));
    cJSON_AddItemToObject(o, "id", cJSON_CreateNumber(action));
    cJSON *text_item = cJSON_DetachItemFromObjectCaseSensitive(o, "text");
    cJSON *id_item = cJSON_DetachItemFromObjectCaseSensitive(o, "id");
    cJSON_InsertItemInArray(o, 0, text_item);
    cJSON_InsertItemInArray(o, 0, id_item);
    return o;
}

char *rp_action_json(const rp_game *game, const void *st, rp_action action)
{
    return print_tree(rp_action_cjson(game, st, action), false);
}

cJSON *rp_legal_cjson(const rp_game *game, const void *st)
{
    cJSON *arr = cJSON_CreateArray();
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(st, legal);
    for (int i = 0; i < n && arr; i++) {
        cJSON *a = rp_action_cjson(game, st, legal[i]);
        if (!a) {
            char text[RP_ACTION_TEXT];
            game->action_to_text(st, legal[i], text, sizeof text);
            a = cJSON_CreateObject();
            cJSON_AddNumberToObject(a, "id", legal[i]);
            cJSON_AddStringToObject(a, "text", text);
        }
        cJSON_AddItemToArray(arr, a);
    }
    return arr;
}

char *rp_legal_json(const rp_game *game, const void *st)
{
    return print_tree(rp_legal_cjson(game, st), false);
}

void rp_config_of(const rp_game *game, const void *st, const rp_config *base, rp_config *out)
{
    *out = *base;
    if (!game->config_of)
        return;
    game->config_of(st, out);
    out->seed = base->seed;
    out->seed_given = base->seed_given;
}

void rp_explain_illegal(const rp_game *game, const void *st, rp_action action, char *buf,
                        size_t size)
{
    if (game->current_player(st) == RP_TERMINAL) {
        snprintf(buf, size, "the game is over");
        return;
    }
    if (game->explain_illegal && game->explain_illegal(st, action, buf, size) > 0)
        return;
    snprintf(buf, size, "that move is not legal here");
}

/* ---- observations for learning agents ---- */

int rp_observation(const rp_game *game, const void *st, int player, float *out, size_t size,
                   rp_error *err)
{
    if (!game->observation_tensor)
        return rp_fail(err, RP_EUNSUPPORTED, "%s has no observation tensor", game->id);
    if (player < 0 || player >= game->num_players(st))
        return rp_fail(err, RP_EINVAL, "player %d: the seats are 0..%d", player,
                       game->num_players(st) - 1);
    if (size < game->observation_size)
        return rp_fail(err, RP_ENOSPACE, "an observation of %s takes %u floats, not %zu", game->id,
                       (unsigned)game->observation_size, size);
    game->observation_tensor(st, player, out);
    return RP_OK;
}

void rp_legal_mask(const rp_game *game, const void *st, uint8_t *mask)
{
    rp_action legal[RP_MAX_LEGAL];
    const int n = game->legal_actions(st, legal);
    memset(mask, 0, game->num_actions);
    for (int i = 0; i < n; i++)
        mask[legal[i]] = 1;
}

/* ---- reseeding: the future drawn anew ---- */

int rp_reseed(const rp_game *game, void *st, rp_rng *rng, rp_error *err)
{
    if (!(game->flags & RP_CHANCE))
        return RP_OK;
    if (!game->reseed)
        return rp_fail(err, RP_EUNSUPPORTED, "%s cannot redraw its chance", game->id);
    game->reseed(st, rng);
    return RP_OK;
}

/* ---- explicit chance ---- */

/* After a run under `draws` into `result`: fill *next_bound, or the error. */
static int explicit_outcome(const rp_game *game, const rp_draws *draws, uint32_t *next_bound,
                            rp_error *err)
{
    if (draws->bad)
        return rp_fail(err, RP_EINVAL,
                       "%s: a chance outcome is out of its range, or the game drew otherwise",
                       game->id);
    if (draws->used < draws->count)
        return rp_fail(err, RP_EINVAL, "%s: %zu chance outcomes given, only %zu chance events",
                       game->id, draws->count, draws->used);
    *next_bound = draws->used > draws->count ? draws->next_bound : 0;
    return RP_OK;
}

int rp_apply_explicit(const rp_game *game, void *st, rp_action action, const uint32_t *values,
                      size_t count, uint32_t *next_bound, rp_error *err)
{
    if (!rp_is_legal(game, st, action))
        return rp_fail(err, RP_EINVAL, "action %u is not legal here", (unsigned)action);
    rp_state result;
    rp_state_copy(game, &result, st);
    rp_draws draws = {.values = values, .count = count};
    rp_draws *before = rp_rng_use_draws(&draws);
    game->apply(&result, action);
    rp_rng_use_draws(before);
    const int rc = explicit_outcome(game, &draws, next_bound, err);
    if (rc == RP_OK && *next_bound == 0)
        rp_state_copy(game, st, &result);
    return rc;
}

int rp_init_explicit(const rp_game *game, void *st, const rp_config *cfg, const uint32_t *values,
                     size_t count, uint32_t *next_bound, rp_error *err)
{
    rp_state result;
    rp_draws draws = {.values = values, .count = count};
    rp_draws *before = rp_rng_use_draws(&draws);
    const int init = game->init(&result, cfg, err);
    rp_rng_use_draws(before);
    if (init < 0)
        return init;
    const int rc = explicit_outcome(game, &draws, next_bound, err);
    if (rc == RP_OK && *next_bound == 0)
        rp_state_copy(game, st, &result);
    return rc;
}

/* ---- perfect-recall information states ---- */

int rp_max_game_length(const rp_game *game, const void *st)
{
    return game->max_game_length ? game->max_game_length(st) : RP_EUNSUPPORTED;
}

/* The rows carry the observation only where chance or hidden information can make two
 * histories of the same actions look different to a player. */
static bool rows_carry_observations(const rp_game *game)
{
    return (game->flags & (RP_CHANCE | RP_HIDDEN_INFO)) != 0;
}

size_t rp_information_state_row_size(const rp_game *game)
{
    return 2u + (rows_carry_observations(game) ? game->observation_size : 0u);
}

size_t rp_information_state_size(const rp_game *game, const void *st)
{
    const int max_length = rp_max_game_length(game, st);
    if (!game->observation_tensor || max_length < 0)
        return 0;
    return game->observation_size + (size_t)max_length * rp_information_state_row_size(game);
}

int rp_information_state(const rp_game *game, const void *root, const rp_action *actions,
                         size_t count, int player, float *out, size_t size, rp_error *err)
{
    const size_t total = rp_information_state_size(game, root);
    if (total == 0)
        return rp_fail(err, RP_EUNSUPPORTED, "%s has no information state tensor", game->id);
    if (player < 0 || player >= game->num_players(root))
        return rp_fail(err, RP_EINVAL, "player %d: the seats are 0..%d", player,
                       game->num_players(root) - 1);
    if (size < total)
        return rp_fail(err, RP_ENOSPACE, "an information state of %s takes %zu floats, not %zu",
                       game->id, total, size);
    const int max_length = rp_max_game_length(game, root);
    if (count > (size_t)max_length)
        return rp_fail(err, RP_ENOSPACE,
                       "%zu actions: the information state of %s holds at most %d "
                       "(max_game_length under these options)",
                       count, game->id, max_length);
    const size_t row_size = rp_information_state_row_size(game);
    memset(out, 0, total * sizeof *out);
    rp_state st;
    rp_state_copy(game, &st, root);
    game->observation_tensor(&st, player, out);
    float *row = out + game->observation_size;
    for (size_t i = 0; i < count; i++, row += row_size) {
        const rp_action action = actions[i];
        if (!rp_is_legal(game, &st, action))
            return rp_fail(err, RP_EINVAL, "action %zu (%u) is not legal there", i,
                           (unsigned)action);
        const rp_action seen =
            game->observe_action ? game->observe_action(&st, action, player) : action;
        row[0] = 1.0f;
        row[1] = (float)(seen + 1u) / (float)game->num_actions;
        game->apply(&st, action);
        if (rows_carry_observations(game))
            game->observation_tensor(&st, player, row + 2);
    }
    return RP_OK;
}
