/* bench.h — the browser API's benchmark operations (bench.c): the engine's speed in
 * WebAssembly, measured as `ramparts bench` measures it natively. */
#ifndef RAMPARTS_WASM_BENCH_H
#define RAMPARTS_WASM_BENCH_H

#include <cjson/cJSON.h>

#include "ramparts/engine.h"

/* {"op": "bench", "game", "games"}: the random-playout workload of `ramparts bench`. */
cJSON *rw_op_bench(const cJSON *req, rp_error *err);
/* {"op": "bench_ai", "game", "ms"}: search iterations per second, as `ramparts bench --ai`. */
cJSON *rw_op_bench_ai(const cJSON *req, rp_error *err);

#endif
