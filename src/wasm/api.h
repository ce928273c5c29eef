/* api.h — the WebAssembly build's browser API (api.c): the three exported calls. Operations
 * live in api.c's table (the matches), bench.c (bench.h) and preview.c (preview.h); each reads
 * its fields from the request object (request.h) and returns a new answer object, or NULL
 * with err filled. The API also compiles natively, so its tests run under the sanitizers
 * (tests/test_wasm_api.c). */
#ifndef RAMPARTS_WASM_API_H
#define RAMPARTS_WASM_API_H

#include <stddef.h>

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

#endif
