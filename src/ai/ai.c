/* ai.c — the table of AI kinds and the spec parser: "kind" or "kind:key=value,key=value".
 * Levels (easy, medium, hard) are aliases that expand to a search kind with a budget.
 * Everything outside this file sees only include/ramparts/ai.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ai_internal.h"

static const rp_ai_kind *const kinds[] = {
    &rp_ai_random,
    &rp_ai_greedy,
    &rp_ai_easy,
    &rp_ai_medium,
    &rp_ai_hard,
    &rp_ai_mcts,
    &rp_ai_ismcts,
};
#define NUM_KINDS ((int)(sizeof kinds / sizeof kinds[0]))

const char *rp_ai_help(void)
{
    static char text[2048];
    if (text[0])
        return text;
    size_t n = 0;
    for (int i = 0; i < NUM_KINDS && n < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  %-8s %s\n", kinds[i]->name,
                              kinds[i]->help);
    return text;
}

/* The kinds' names in one line, short enough for an error message. */
static const char *names(void)
{
    static char text[RP_ERROR_TEXT / 2];
    if (text[0])
        return text;
    size_t n = 0;
    for (int i = 0; i < NUM_KINDS && n < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i ? ", " : "", kinds[i]->name);
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n, " (e.g. ismcts:ms=500,threads=2)");
    return text;
}

/* Split "key=value,key=value" into params; refuse malformed pairs. */
static int parse_params(const char *text, rp_ai_params *params, rp_error *err)
{
    memset(params, 0, sizeof *params);
    while (*text) {
        const char *comma = strchr(text, ',');
        size_t len = comma ? (size_t)(comma - text) : strlen(text);
        const char *eq = memchr(text, '=', len);
        if (!eq || eq == text || eq + 1 == text + len)
            return rp_fail(err, RP_EINVAL, "AI parameter '%.*s' is not of the form key=value",
                           (int)len, text);
        if (params->count == RP_AI_MAX_PARAMS)
            return rp_fail(err, RP_EINVAL, "too many AI parameters");
        size_t key_len = (size_t)(eq - text), value_len = len - key_len - 1;
        if (key_len >= sizeof params->key[0] || value_len >= sizeof params->value[0])
            return rp_fail(err, RP_EINVAL, "AI parameter '%.*s' is too long", (int)len, text);
        memcpy(params->key[params->count], text, key_len);
        memcpy(params->value[params->count], eq + 1, value_len);
        params->count++;
        text += len + (comma ? 1 : 0);
        if (comma && !*text)
            return rp_fail(err, RP_EINVAL, "AI spec ends with a comma");
    }
    return RP_OK;
}

int rp__param_int(const rp_ai_params *params, const char *key, long def, long min, long max,
                  long *out, rp_error *err)
{
    *out = def;
    for (int i = 0; i < params->count; i++) {
        if (strcmp(params->key[i], key) != 0)
            continue;
        char *end = NULL;
        errno = 0;
        long v = strtol(params->value[i], &end, 10);
        if (errno || *end || end == params->value[i] || v < min || v > max)
            return rp_fail(err, RP_EINVAL, "AI parameter %s=%s: expected a whole number from "
                           "%ld to %ld", key, params->value[i], min, max);
        *out = v;
    }
    return RP_OK;
}

int rp__param_double(const rp_ai_params *params, const char *key, double def, double min,
                     double max, double *out, rp_error *err)
{
    *out = def;
    for (int i = 0; i < params->count; i++) {
        if (strcmp(params->key[i], key) != 0)
            continue;
        char *end = NULL;
        errno = 0;
        double v = strtod(params->value[i], &end);
        if (errno || *end || end == params->value[i] || !(v >= min && v <= max))
            return rp_fail(err, RP_EINVAL, "AI parameter %s=%s: expected a number from %g to %g",
                           key, params->value[i], min, max);
        *out = v;
    }
    return RP_OK;
}

int rp__params_only(const rp_ai_params *params, const char *const *keys, const char *kind,
                    rp_error *err)
{
    for (int i = 0; i < params->count; i++) {
        bool known = false;
        for (const char *const *k = keys; *k; k++)
            known = known || strcmp(*k, params->key[i]) == 0;
        if (!known) {
            char valid[128] = "none";
            size_t n = 0;
            for (const char *const *k = keys; *k && n < sizeof valid; k++)
                n += (size_t)snprintf(valid + n, sizeof valid - n, "%s%s", n ? ", " : "", *k);
            return rp_fail(err, RP_EINVAL, "AI '%s' has no parameter '%s' (valid: %s)", kind,
                           params->key[i], valid);
        }
    }
    return RP_OK;
}

int rp_ai_create(const rp_game *game, const char *spec, uint64_t seed, rp_ai **out,
                 rp_error *err)
{
    const char *colon = strchr(spec, ':');
    size_t name_len = colon ? (size_t)(colon - spec) : strlen(spec);
    const rp_ai_kind *kind = NULL;
    for (int i = 0; i < NUM_KINDS; i++)
        if (strlen(kinds[i]->name) == name_len && strncmp(kinds[i]->name, spec, name_len) == 0)
            kind = kinds[i];
    if (!kind)
        return rp_fail(err, RP_EINVAL, "unknown AI '%s'; valid AIs: %s", spec, names());
    rp_ai_params params;
    int rc = parse_params(colon ? colon + 1 : "", &params, err);
    if (rc < 0)
        return rc;
    rp_ai *ai = calloc(1, sizeof *ai);
    if (!ai)
        return rp_fail(err, RP_EINVAL, "out of memory");
    ai->game = game;
    ai->kind = kind;
    rp_rng_seed(&ai->rng, seed, 0x5eed);
    snprintf(ai->name, sizeof ai->name, "%s", spec);
    rc = kind->create(ai, &params, err);
    if (rc < 0) {
        free(ai);
        return rc;
    }
    *out = ai;
    return RP_OK;
}

void rp_ai_free(rp_ai *ai)
{
    if (!ai)
        return;
    if (ai->kind->destroy)
        ai->kind->destroy(ai);
    free(ai);
}

const char *rp_ai_name(const rp_ai *ai)
{
    return ai->name;
}

int rp_ai_choose(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info, rp_error *err)
{
    if (ai->game->current_player(st) == RP_TERMINAL)
        return rp_fail(err, RP_EOVER, "the game is over");
    rp_ai_info local = {.win_chance = -1, .iterations = 0};
    int rc = ai->kind->choose(ai, st, out, &local);
    if (info)
        *info = local;
    if (rc < 0)
        return rp_fail(err, rc, "AI %s failed: %s", ai->name, rp_strerror(rc));
    return RP_OK;
}

int rp_ai_split_specs(char *list, char **out, int max)
{
    int n = 0;
    char *piece = list;
    while (piece) {
        char *comma = strchr(piece, ',');
        if (comma)
            *comma = '\0';
        if (strchr(piece, '=') && !strchr(piece, ':')) {
            if (n == 0)
                return -1;
            piece[-1] = ','; /* a parameter of the spec before: glue it back */
        } else if (n == max) {
            return -1;
        } else {
            out[n++] = piece;
        }
        piece = comma ? comma + 1 : NULL;
    }
    return n;
}

rp_action rp__random_action(const rp_game *game, const void *st, rp_rng *rng)
{
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(st, legal);
    return legal[rp_rng_below(rng, (uint32_t)n)];
}

void rp__random_playout(const rp_game *game, void *st, rp_rng *rng)
{
    rp_action legal[RP_MAX_LEGAL];
    while (game->current_player(st) != RP_TERMINAL) {
        int n = game->legal_actions(st, legal);
        game->apply(st, legal[rp_rng_below(rng, (uint32_t)n)]);
    }
}
