/* api.h — the WebAssembly build's browser API (api.c): the three exported calls, the request
 * helpers the operations share and the benchmark operations (bench.c). Each operation reads
 * its fields from the request object and returns a new answer object, or NULL with err
 * filled. The API also compiles natively, so its tests run under the sanitizers
 * (tests/test_wasm_api.c). */
#ifndef RAMPARTS_WASM_API_H
#define RAMPARTS_WASM_API_H

#include <cjson/cJSON.h>

#include "ramparts/engine.h"

/* In WebAssembly, what the module exports under the function's name. */
#if defined(__wasm__)
#define RW_EXPORT(name) __attribute__((export_name(name), visibility("default")))
#else
#define RW_EXPORT(name)
#endif

/* Memory for the strings JavaScript passes in and reads back. */
RW_EXPORT("rw_alloc") void *rw_alloc(size_t size);
RW_EXPORT("rw_free") void rw_free(void *p);
/* Answer one request (JSON text); the answer is JSON text the caller frees with rw_free. */
RW_EXPORT("rw_call") char *rw_call(const char *request);

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

/* {"op": "bench", "game", "games"}: the random-playout workload of `ramparts bench`. */
cJSON *rw_op_bench(const cJSON *req, rp_error *err);
/* {"op": "bench_ai", "game", "ms"}: search iterations per second, as `ramparts bench --ai`. */
cJSON *rw_op_bench_ai(const cJSON *req, rp_error *err);

/* {"op": "preview", "game", "state", "viewer", "moves", "worlds"?, "seed"}: what each move
 * would do, told to viewer, over worlds drawn from viewer's view (preview.c). */
cJSON *rw_op_preview(const cJSON *req, rp_error *err);
/* {"op": "sample", "game", "state", "viewer", "seed"}: a world drawn from viewer's view. */
cJSON *rw_op_sample(const cJSON *req, rp_error *err);

#endif
