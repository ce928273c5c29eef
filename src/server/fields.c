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
