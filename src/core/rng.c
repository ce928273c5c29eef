/* rng.c — PCG32 (PCG-XSH-RR with 64-bit state), the single source of randomness.
 * Chosen because it is tiny, fast, statistically sound and its output is fully specified,
 * so sequences are identical on every platform. Reference: https://www.pcg-random.org/ */
#include "ramparts/rng.h"

#define PCG_MULTIPLIER 6364136223846793005ULL

static inline uint32_t pcg_next(rp_rng *rng);

/* WebAssembly without threads has one thread and no thread-local storage. */
#if defined(__wasm__) && !defined(__wasm_atomics__)
#define THREAD_LOCAL
#else
#define THREAD_LOCAL _Thread_local
#endif

/* The draw list in use on this thread (explicit chance), or NULL. */
static THREAD_LOCAL rp_draws *draws_in_use;

/* How many threads have a draw list in use. While none has, a draw need not read the
 * thread-local pointer, which in position-independent code costs a call's worth of saved
 * registers; a thread always sees its own changes, so a stale count on another thread only
 * sends it the slow way. */
static int threads_with_draws;

rp_draws *rp_rng_use_draws(rp_draws *draws)
{
    rp_draws *before = draws_in_use;
    draws_in_use = draws;
    if (!before != !draws)
        __atomic_fetch_add(&threads_with_draws, draws ? 1 : -1, __ATOMIC_RELAXED);
    return before;
}

/* Whether a draw must look for this thread's draw list: only while some thread uses one. */
static inline bool draws_may_be_listed(void)
{
    return __builtin_expect(__atomic_load_n(&threads_with_draws, __ATOMIC_RELAXED) != 0, 0);
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
    (void)pcg_next(rng);
    rng->state += seed;
    (void)pcg_next(rng);
}

/* PCG-XSH-RR's output for the state before a step. */
static inline uint32_t pcg_output(uint64_t old)
{
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

static inline uint32_t pcg_next(rp_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * PCG_MULTIPLIER + rng->inc;
    return pcg_output(old);
}

uint32_t rp_rng_next(rp_rng *rng)
{
    if (draws_in_use)
        draws_in_use->bad = true; /* 2^32 outcomes: not an explicit chance event */
    return pcg_next(rng);
}

/* Lemire's method after a first product m whose low half fell below the bound: a division,
 * and new draws while that low half is below the threshold (rare, so kept off the fast path). */
static __attribute__((noinline)) uint32_t redrawn_below(rp_rng *rng, uint32_t bound, uint64_t m)
{
    const uint32_t threshold = (uint32_t)(-bound) % bound;
    while ((uint32_t)m < threshold)
        m = (uint64_t)pcg_next(rng) * bound;
    return (uint32_t)(m >> 32);
}

/* Lemire's nearly-divisionless method: a multiply, and a division only on rare rejections.
 * Inlined into the draws' fast paths: a random playout draws once an action or more. */
static inline __attribute__((always_inline)) uint32_t drawn_below(rp_rng *rng, uint32_t bound)
{
    const uint64_t m = (uint64_t)pcg_next(rng) * bound;
    if (__builtin_expect((uint32_t)m < bound, 0))
        return redrawn_below(rng, bound, m);
    return (uint32_t)(m >> 32);
}

/* A draw when some thread has a draw list: this thread's listed value, or the generator's
 * value (recorded when the list records). Kept apart so the common path saves no register. */
static __attribute__((noinline)) uint32_t draw_maybe_listed(rp_rng *rng, uint32_t bound)
{
    rp_draws *d = draws_in_use;
    if (!d)
        return drawn_below(rng, bound);
    if (!d->record)
        return listed_draw(d, bound);
    const uint32_t value = drawn_below(rng, bound);
    if (d->used < d->record_cap)
        d->record[d->used] = value;
    d->used++;
    return value;
}

uint32_t rp_rng_below(rp_rng *rng, uint32_t bound)
{
    if (draws_may_be_listed())
        return draw_maybe_listed(rng, bound);
    return drawn_below(rng, bound);
}

double rp_rng_unit(rp_rng *rng)
{
    return (double)rp_rng_next(rng) * (1.0 / 4294967296.0);
}

/* One Fisher-Yates shuffle of `n` items of type T (Durstenfeld's, from the end): the same
 * draws, in the same order, as rp_rng_below would make. The generator's state is copied into
 * locals for the loop: stores through `items` (bytes may alias anything) would otherwise make
 * the compiler reload and store it at every draw. The rare redraw and the draw list, when
 * some thread uses one, go through the generator in memory. */
#define SHUFFLE_BODY(T)                                                                            \
    do {                                                                                           \
        if (draws_may_be_listed()) {                                                               \
            for (int i = n - 1; i > 0; i--) {                                                      \
                const int j = (int)draw_maybe_listed(rng, (uint32_t)i + 1);                        \
                const T t = items[i];                                                              \
                items[i] = items[j];                                                               \
                items[j] = t;                                                                      \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        uint64_t state = rng->state;                                                               \
        const uint64_t inc = rng->inc;                                                             \
        for (int i = n - 1; i > 0; i--) {                                                          \
            const uint32_t bound = (uint32_t)i + 1;                                                \
            const uint64_t old = state;                                                            \
            state = old * PCG_MULTIPLIER + inc;                                                    \
            const uint64_t m = (uint64_t)pcg_output(old) * bound;                                  \
            uint32_t j = (uint32_t)(m >> 32);                                                      \
            if (__builtin_expect((uint32_t)m < bound, 0)) {                                        \
                rng->state = state;                                                                \
                j = redrawn_below(rng, bound, m);                                                  \
                state = rng->state;                                                                \
            }                                                                                      \
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
