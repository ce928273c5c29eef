/* rng.c — PCG32 (PCG-XSH-RR with 64-bit state), the single source of randomness.
 * Chosen because it is tiny, fast, statistically sound and its output is fully specified,
 * so sequences are identical on every platform. Reference: https://www.pcg-random.org/ */
#include "core/rng_internal.h"

/* WebAssembly without threads has one thread and no thread-local storage. */
#if defined(__wasm__) && !defined(__wasm_atomics__)
#define THREAD_LOCAL
#else
#define THREAD_LOCAL _Thread_local
#endif

/* The draw list in use on this thread (explicit chance), or NULL. */
static THREAD_LOCAL rp_draws *draws_in_use;

/* How many threads have a draw list in use (rng_internal.h). While none has, a draw need not
 * read the thread-local pointer, which in position-independent code costs a call's worth of
 * saved registers; a thread always sees its own changes, so a stale count on another thread
 * only sends it the slow way. */
int rp__threads_with_draws;

rp_draws *rp_rng_use_draws(rp_draws *draws)
{
    rp_draws *before = draws_in_use;
    draws_in_use = draws;
    if (!before != !draws)
        __atomic_fetch_add(&rp__threads_with_draws, draws ? 1 : -1, __ATOMIC_RELAXED);
    return before;
}

/* The next value of the draw list for a draw below `bound`. */
static uint32_t listed_draw(rp_draws *d, uint32_t bound)
{
    const size_t index = d->used++;
    if (index == d->count)
        d->next_bound = bound;
    if (index >= d->count)
        return 0;
    if (d->values[index] >= bound) {
        d->bad = true;
        return 0;
    }
    return d->values[index];
}

void rp_rng_seed(rp_rng *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0;
    rng->inc = (stream << 1u) | 1u;
    (void)rp__pcg_next(rng);
    rng->state += seed;
    (void)rp__pcg_next(rng);
}

uint32_t rp_rng_next(rp_rng *rng)
{
    if (draws_in_use)
        draws_in_use->bad = true; /* 2^32 outcomes: not an explicit chance event */
    return rp__pcg_next(rng);
}

__attribute__((noinline)) uint32_t rp__rng_redrawn_below(rp_rng *rng, uint32_t bound, uint64_t m)
{
    const uint32_t threshold = (uint32_t)(-bound) % bound;
    while ((uint32_t)m < threshold)
        m = (uint64_t)rp__pcg_next(rng) * bound;
    return (uint32_t)(m >> 32);
}

/* A draw when some thread has a draw list: this thread's listed value, or the generator's
 * value (recorded when the list records). Kept apart so the common path saves no register. */
__attribute__((noinline)) uint32_t rp__rng_draw_maybe_listed(rp_rng *rng, uint32_t bound)
{
    rp_draws *d = draws_in_use;
    if (!d)
        return rp__rng_drawn_below(rng, bound);
    if (!d->record)
        return listed_draw(d, bound);
    const uint32_t value = rp__rng_drawn_below(rng, bound);
    if (d->used < d->record_cap)
        d->record[d->used] = value;
    d->used++;
    return value;
}

uint32_t rp_rng_below(rp_rng *rng, uint32_t bound)
{
    return rp__rng_below(rng, bound);
}

double rp_rng_unit(rp_rng *rng)
{
    return (double)rp_rng_next(rng) * (1.0 / 4294967296.0);
}

/* One Fisher-Yates shuffle of `n` items of type T (Durstenfeld's, from the end): the same
 * draws, in the same order, as rp_rng_below would make. The generator's state is copied into
 * locals for the loop (rp__rng_drawn_below_local, rng_internal.h, which the games' inline
 * shuffle rp__rng_shuffle_u8 draws with too). The draw list, when some thread uses one, goes
 * through the generator in memory. */
#define SHUFFLE_BODY(T)                                                                            \
    do {                                                                                           \
        if (rp__draws_may_be_listed()) {                                                           \
            for (int i = n - 1; i > 0; i--) {                                                      \
                const int j = (int)rp__rng_draw_maybe_listed(rng, (uint32_t)i + 1);                \
                const T t = items[i];                                                              \
                items[i] = items[j];                                                               \
                items[j] = t;                                                                      \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        uint64_t state = rng->state;                                                               \
        const uint64_t inc = rng->inc;                                                             \
        for (int i = n - 1; i > 0; i--) {                                                          \
            const uint32_t j = rp__rng_drawn_below_local(rng, &state, inc, (uint32_t)i + 1);       \
            const T t = items[i];                                                                  \
            items[i] = items[j];                                                                   \
            items[j] = t;                                                                          \
        }                                                                                          \
        rng->state = state;                                                                        \
    } while (0)

void rp_rng_shuffle_u8(rp_rng *rng, uint8_t *items, int n)
{
    SHUFFLE_BODY(uint8_t);
}

void rp_rng_shuffle_u16(rp_rng *rng, uint16_t *items, int n)
{
    SHUFFLE_BODY(uint16_t);
}
