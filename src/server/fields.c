/* fields.c — reading a client message's fields: every wrong type or range is an error that
 * names the field (see fields.h). */
#include "fields.h"

#include <cjson/cJSON.h>
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
