/* kind.c — what every kind of AI shares (kind.h): reading the parameters of a spec, and the
 * uniformly random move and playout that the random AI, greedy's playouts and the searches'
 * rollouts are made of. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"

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
            return rp_fail(err, RP_EINVAL,
                           "AI parameter %s=%s: expected a whole number from "
                           "%ld to %ld",
                           key, params->value[i], min, max);
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
