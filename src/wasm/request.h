/* request.h — the fields of a browser API request, read and checked (request.c): the
 * helpers every operation shares. */
#ifndef RAMPARTS_WASM_REQUEST_H
#define RAMPARTS_WASM_REQUEST_H

#include <cjson/cJSON.h>

#include "ramparts/engine.h"

/* An integer field of the request in [min, max]; def when absent and not required. */
int rw_field_int(const cJSON *req, const char *name, bool required, long long def, long long min,
                 long long max, long long *out, rp_error *err);
/* A string field of the request; def (may be NULL) when absent and not required. */
int rw_field_text(const cJSON *req, const char *name, bool required, const char *def,
                  const char **out, rp_error *err);
/* The game named by the field "game". */
int rw_field_game(const cJSON *req, const rp_game **out, rp_error *err);
/* Apply the options "key=value key=value" to cfg, for `game`. */
int rw_apply_options(const rp_game *game, rp_config *cfg, const char *options, rp_error *err);

#endif
