/* fields.h — the readers of a client message's fields, shared by the handlers (session.c)
 * and the dispatch (loop.c): each refuses a wrong type or range with bad-message naming the
 * field. A leaf of layers.h: it reads JSON and knows no server. */
#ifndef RS_FIELDS_H
#define RS_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table.h"

struct cJSON;

/* True when d is a whole number that an int64_t holds (then *out is it): the only safe way to
 * convert a client's number, since converting a double out of range (or NaN) is undefined. */
static inline bool rs_whole_int64(double d, int64_t *out)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != (double)(int64_t)d)
        return false;
    *out = (int64_t)d;
    return true;
}

bool rs_field_int(const struct cJSON *msg, const char *key, bool required, int64_t min, int64_t max,
                  int64_t *out, rs_err *e);
bool rs_field_string(const struct cJSON *msg, const char *key, bool required, size_t max,
                     const char **out, rs_err *e);
bool rs_field_bool(const struct cJSON *msg, const char *key, bool *out, rs_err *e);
/* The AI levels a seat may have (ends with NULL): never an arbitrary AI spec, which could ask
 * for any number of threads or any search time. */
extern const char *const rs_ai_levels[];
/* Whether level is one of rs_ai_levels (then copied into out). */
bool rs_field_ai_level(const char *level, char out[RS_AI_LEVEL_TEXT]);
/* A clock object (create's and seek's "clock") into s's clock fields: bad-clock when it is
 * not one; absent is no clock. */
int rs_field_clock(const struct cJSON *clock, rs_table_settings *s, rs_err *e);
/* A game's options object (create's and challenge's "options") set into s->config, whose
 * game and player count are set: bad-option naming the option for anything the network may
 * not set (the seed, text options) or the game refuses; bad-message when it is no object. */
int rs_field_options(const struct cJSON *options, rs_table_settings *s, rs_err *e);
/* The options object (checked) as stored: its JSON text, "{}" when absent; bad-option when
 * it does not fit in size bytes. */
int rs_field_options_text(const struct cJSON *options, char *out, size_t size, rs_err *e);
/* A game's settings from what was stored when it was checked (a challenge's, a tournament's):
 * s->game found, its defaults for `players`, then the options object's text applied; false
 * when this server no longer knows the game or its options. s's other fields stay. */
bool rs_field_stored_game(const char *game, const char *options, int players, rs_table_settings *s);

#endif
