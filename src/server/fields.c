/* fields.c — reading a client message's fields: every wrong type or range is an error that
 * names the field (see fields.h). */
#include "fields.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rs_field_int(const cJSON *msg, const char *key, bool required, int64_t min, int64_t max,
                  int64_t *out, rs_err *e)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, key);
    if (!f) {
        if (required)
            rs_fail(e, "bad-message", "field '%s' is missing", key);
        return !required;
    }
    int64_t value;
    if (!cJSON_IsNumber(f) || !rs_whole_int64(f->valuedouble, &value))
        return rs_fail(e, "bad-message", "field '%s' must be a whole number", key), false;
    if (value < min || value > max)
        return rs_fail(e, "bad-message", "field '%s' must be from %lld to %lld", key,
                       (long long)min, (long long)max),
               false;
    *out = value;
    return true;
}

bool rs_field_string(const cJSON *msg, const char *key, bool required, size_t max, const char **out,
                     rs_err *e)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, key);
    if (!f) {
        if (required)
            rs_fail(e, "bad-message", "field '%s' is missing", key);
        return !required;
    }
    if (!cJSON_IsString(f) || !f->valuestring)
        return rs_fail(e, "bad-message", "field '%s' must be a string", key), false;
    if (strlen(f->valuestring) > max)
        return rs_fail(e, "bad-message", "field '%s' is longer than %zu bytes", key, max), false;
    *out = f->valuestring;
    return true;
}

bool rs_field_bool(const cJSON *msg, const char *key, bool *out, rs_err *e)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, key);
    if (!f)
        return true;
    if (!cJSON_IsBool(f))
        return rs_fail(e, "bad-message", "field '%s' must be true or false", key), false;
    *out = cJSON_IsTrue(f);
    return true;
}

const char *const rs_ai_levels[] = {"random", "greedy", "beginner", "easy", "medium", "hard", NULL};

bool rs_field_ai_level(const char *level, char out[RS_AI_LEVEL_TEXT])
{
    for (int i = 0; rs_ai_levels[i]; i++)
        if (strcmp(level, rs_ai_levels[i]) == 0) {
            snprintf(out, RS_AI_LEVEL_TEXT, "%s", rs_ai_levels[i]);
            return true;
        }
    return false;
}

/* A game's clock as create and seek take it: {"kind":"none"} (or absent), {"kind":"live",
 * "initial_ms":..., "increment_ms":...} or {"kind":"correspondence","days":...}; every
 * problem is bad-clock. */
int rs_field_clock(const cJSON *clock, rs_table_settings *s, rs_err *e)
{
    s->clock_kind = RS_CLOCK_NONE;
    if (!clock)
        return 0;
    const char *kind;
    if (!cJSON_IsObject(clock))
        return rs_fail(e, "bad-clock",
                       "field 'clock' must be an object like {\"kind\": "
                       "\"live\", \"initial_ms\": 300000, \"increment_ms\": "
                       "3000}");
    if (!rs_field_string(clock, "kind", true, 20, &kind, e))
        return -1;
    if (strcmp(kind, "none") == 0)
        return 0;
    if (strcmp(kind, "live") == 0) {
        s->clock_kind = RS_CLOCK_LIVE;
        if (!rs_field_int(clock, "initial_ms", true, 1000, 3 * 3600000LL, &s->initial_ms, e) ||
            !rs_field_int(clock, "increment_ms", false, 0, 600000, &s->increment_ms, e)) {
            e->code = "bad-clock";
            return -1;
        }
        return 0;
    }
    if (strcmp(kind, "correspondence") == 0) {
        int64_t days;
        s->clock_kind = RS_CLOCK_CORRESPONDENCE;
        if (!rs_field_int(clock, "days", true, 1, 14, &days, e)) {
            e->code = "bad-clock";
            return -1;
        }
        s->per_move_ms = days * 86400000LL;
        return 0;
    }
    return rs_fail(e, "bad-clock", "clock kind '%.20s': expected live, correspondence or none",
                   kind);
}

/* The options a create may give, "turn-limit, tournament" (never the seed or a text
 * option): for the error naming an unknown one. */
static void network_option_names(const rp_game *game, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "players");
    for (int i = 0; i < game->num_options && n < size; i++)
        if (game->options[i].kind != RP_OPT_TEXT)
            n += (size_t)snprintf(buf + n, size - n, ", %s", game->options[i].name);
}

/* One option of a create as "key=value" for rp_config_set: a whole number for a number
 * option, a word for a choice (as /api/v1/types lists them); anything else is refused here,
 * not read as text ("25" for a number, 0 for a choice). */
static int option_setting(const rp_game *game, const cJSON *o, char *kv, size_t size, rs_err *e)
{
    const char *key = o->string;
    const rp_option_spec *spec = NULL;
    for (int i = 0; i < game->num_options; i++)
        if (strcmp(game->options[i].name, key) == 0)
            spec = &game->options[i];
    if (strcmp(key, "seed") == 0)
        return rs_fail(e, "bad-option", "the server draws each game's seed: nobody chooses it");
    if (!spec) {
        char names[RP_ERROR_TEXT / 2];
        network_option_names(game, names, sizeof names);
        return rs_fail(e, "bad-option", "unknown option '%.60s' for %s (options: %s)", key,
                       game->id, names);
    }
    if (spec->kind == RP_OPT_TEXT)
        return rs_fail(e, "bad-option",
                       "%s: options that take text or files are for the command line, not "
                       "the network",
                       key);
    int64_t whole;
    if (spec->kind == RP_OPT_INT) {
        if (!cJSON_IsNumber(o) || !rs_whole_int64(o->valuedouble, &whole))
            return rs_fail(e, "bad-option", "%s: a whole number from %lld to %lld", key,
                           (long long)spec->min, (long long)spec->max);
        snprintf(kv, size, "%s=%lld", key, (long long)whole);
        return 0;
    }
    if (!cJSON_IsString(o) || strlen(o->valuestring) >= 64)
        return rs_fail(e, "bad-option", "%s: one of the words %s", key, spec->choices);
    snprintf(kv, size, "%s=%s", key, o->valuestring);
    return 0;
}

int rs_field_options(const cJSON *options, rs_table_settings *s, rs_err *e)
{
    if (!options)
        return 0;
    if (!cJSON_IsObject(options))
        return rs_fail(e, "bad-message",
                       "field 'options' must be an object like "
                       "{\"turn-limit\": 25}");
    const cJSON *o;
    int count = 0;
    cJSON_ArrayForEach (o, options) {
        if (++count > RP_MAX_OPTIONS + 1)
            return rs_fail(e, "bad-option", "too many options");
        if (strcmp(o->string, "players") == 0) {
            int64_t players;
            if (!cJSON_IsNumber(o) || !rs_whole_int64(o->valuedouble, &players) ||
                players != s->config.players)
                return rs_fail(e, "bad-option", "players: the seats list makes %d players",
                               s->config.players);
            continue;
        }
        char kv[RP_OPTION_TEXT + 64];
        if (option_setting(s->game, o, kv, sizeof kv, e) < 0)
            return -1;
        rp_error err = {{0}};
        if (rp_config_set(s->game, &s->config, kv, &err) < 0)
            return rs_fail(e, "bad-option", "%s", err.msg);
    }
    return 0;
}

int rs_field_options_text(const cJSON *options, char *out, size_t size, rs_err *e)
{
    char *text = options ? cJSON_PrintUnformatted(options) : NULL;
    const bool fits = !text || strlen(text) < size;
    snprintf(out, size, "%s", text ? text : "{}");
    free(text);
    return fits ? 0 : rs_fail(e, "bad-option", "options: too long");
}

bool rs_field_stored_game(const char *game, const char *options, int players, rs_table_settings *s)
{
    if (!(s->game = rp_game_find(game)))
        return false;
    rp_config_default(s->game, &s->config);
    s->config.players = players;
    rs_err ignored;
    cJSON *parsed = cJSON_Parse(options);
    const int rc = rs_field_options(parsed, s, &ignored);
    cJSON_Delete(parsed);
    return rc == 0;
}
