/* preview.h — the browser API's operations on worlds drawn from a view (preview.c):
 * what a move would do, and a world itself. */
#ifndef RAMPARTS_WASM_PREVIEW_H
#define RAMPARTS_WASM_PREVIEW_H

#include <cjson/cJSON.h>

#include "ramparts/engine.h"

/* {"op": "preview", "game", "state", "viewer", "moves", "worlds"?, "seed"}: what each move
 * would do, told to viewer, over worlds drawn from viewer's view. */
cJSON *rw_op_preview(const cJSON *req, rp_error *err);
/* {"op": "sample", "game", "state", "viewer", "seed"}: a world drawn from viewer's view. */
cJSON *rw_op_sample(const cJSON *req, rp_error *err);

#endif
