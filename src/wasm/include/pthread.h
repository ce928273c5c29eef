/* pthread.h for the WebAssembly build — wasi-libc (Debian 12) has no threads, and the engine
 * uses only once-initialisation and the root-parallel search's worker threads. Here a "thread"
 * runs to its end inside pthread_create, so a search with threads=T does the same iterations
 * in the same order of workers as natively and gives the same answer (slower, one core). */
#ifndef RAMPARTS_WASM_PTHREAD_H
#define RAMPARTS_WASM_PTHREAD_H

#include <stddef.h>

typedef int pthread_once_t;
#define PTHREAD_ONCE_INIT 0

typedef struct pthread_wasm {
    void *result;
} pthread_t;
typedef struct pthread_attr_wasm pthread_attr_t;

static inline int pthread_once(pthread_once_t *once, void (*init)(void))
{
    if (*once == 0) {
        *once = 1;
        init();
    }
    return 0;
}

static inline int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                 void *(*start)(void *), void *arg)
{
    (void)attr;
    thread->result = start(arg);
    return 0;
}

static inline int pthread_join(pthread_t thread, void **result)
{
    if (result)
        *result = thread.result;
    return 0;
}

#endif
