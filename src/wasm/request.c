/* request.c — reading a request's fields for the browser API's operations (request.h):
 * every wrong type or range is refused with the field's name, changing nothing. */
#include <stdio.h>
#include <string.h>

#include "request.h"

int rw_field_int(const cJSON *req, const char *name, bool required, long long def, long long min,
                 long long max, long long *out, rp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(req, name);
    if (!v) {
        if (required)
            return rp_fail(err, RP_EINVAL, "the request needs the field '%s'", name);
        *out = def;
        return RP_OK;
    }
    const double d = cJSON_IsNumber(v) ? v->valuedouble : -1e300;
    if (d < (double)min || d > (double)max || d != (double)(long long)d)
        return rp_fail(err, RP_EINVAL, "'%s' must be a whole number from %lld to %lld", name, min,
                       max);
    *out = (long long)d;
    return RP_OK;
}

int rw_field_text(const cJSON *req, const char *name, bool required, const char *def,
                  const char **out, rp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(req, name);
    if (!v) {
        if (required)
            return rp_fail(err, RP_EINVAL, "the request needs the field '%s'", name);
        *out = def;
        return RP_OK;
    }
    if (!cJSON_IsString(v))
        return rp_fail(err, RP_EINVAL, "'%s' must be a string", name);
    *out = v->valuestring;
    return RP_OK;
}

int rw_field_game(const cJSON *req, const rp_game **out, rp_error *err)
{
    const char *id = NULL;
    int rc = rw_field_text(req, "game", true, NULL, &id, err);
    if (rc < 0)
        return rc;
    *out = rp_game_find(id);
    return *out ? RP_OK : rp_fail(err, RP_EINVAL, "no game '%s'", id);
}

int rw_apply_options(const rp_game *game, rp_config *cfg, const char *options, rp_error *err)
{
    char copy[1024];
    if (strlen(options) >= sizeof copy)
        return rp_fail(err, RP_EINVAL, "the options are too long");
    snprintf(copy, sizeof copy, "%s", options);
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        int rc = rp_config_set(game, cfg, tok, err);
        if (rc < 0)
            return rc;
    }
    return RP_OK;
}
