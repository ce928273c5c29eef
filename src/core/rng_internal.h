/* rng_internal.h — rng.c's private header: the generator's step, rp_rng_below's fast path and
 * rp_rng_shuffle_u8, inline for the library's own hot loops (a random playout's pick, a
 * search's draws, a game's deal and reshuffles; rng.c builds rp_rng_below and its shuffles
 * from them): the same values in the same order as rp_rng_below. */
#ifndef RP_CORE_RNG_INTERNAL_H
#define RP_CORE_RNG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/inline.h"
#include "ramparts/rng.h"

#define PCG_MULTIPLIER 6364136223846793005ULL

/* How many threads have a draw list in use (rng.c); while none has, no draw is listed. */
extern int rp__threads_with_draws;
/* A draw when some thread has a draw list: this thread's listed value, or the generator's. */
uint32_t rp__rng_draw_maybe_listed(rp_rng *rng, uint32_t bound);
/* Lemire's method after a first product m whose low half fell below the bound: a division,
 * and new draws while that low half is below the threshold (rare, so kept off the fast path). */
uint32_t rp__rng_redrawn_below(rp_rng *rng, uint32_t bound, uint64_t m);

/* Whether a draw must look for this thread's draw list: only while some thread uses one. */
static inline bool rp__draws_may_be_listed(void)
{
    return __builtin_expect(__atomic_load_n(&rp__threads_with_draws, __ATOMIC_RELAXED) != 0, 0);
}

/* PCG-XSH-RR's output for the state before a step. */
static inline uint32_t rp__pcg_output(uint64_t old)
{
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

static inline uint32_t rp__pcg_next(rp_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * PCG_MULTIPLIER + rng->inc;
    return rp__pcg_output(old);
}

/* Lemire's nearly-divisionless method: a multiply, and a division only on rare rejections. */
static inline RP_FORCE_INLINE uint32_t rp__rng_drawn_below(rp_rng *rng, uint32_t bound)
{
    const uint64_t m = (uint64_t)rp__pcg_next(rng) * bound;
    if (__builtin_expect((uint32_t)m < bound, 0))
        return rp__rng_redrawn_below(rng, bound, m);
    return (uint32_t)(m >> 32);
}

/* rp__rng_drawn_below for a loop that keeps the generator's state in a local (*state, with the
 * increment in inc): stores of items (bytes may alias anything) would otherwise make the
 * compiler reload the state and store it back at every draw. The same value and the same
 * steps; the rare redraw goes through the generator in memory, which it leaves as it found it
 * apart from the state, so the caller stores *state back into rng when its loop ends. */
static inline RP_FORCE_INLINE uint32_t rp__rng_drawn_below_local(rp_rng *rng, uint64_t *state,
                                                                 uint64_t inc, uint32_t bound)
{
    const uint64_t old = *state;
    *state = old * PCG_MULTIPLIER + inc;
    const uint64_t m = (uint64_t)rp__pcg_output(old) * bound;
    if (__builtin_expect((uint32_t)m < bound, 0)) {
        rng->state = *state;
        const uint32_t j = rp__rng_redrawn_below(rng, bound, m);
        *state = rng->state;
        return j;
    }
    return (uint32_t)(m >> 32);
}

/* rp_rng_below, inline: a random playout draws once an action or more. */
static inline RP_FORCE_INLINE uint32_t rp__rng_below(rp_rng *rng, uint32_t bound)
{
    if (rp__draws_may_be_listed())
        return rp__rng_draw_maybe_listed(rng, bound);
    return rp__rng_drawn_below(rng, bound);
}

/* One step of a Fisher-Yates shuffle (Durstenfeld's, from the end): items[i] swapped with a
 * uniform items[j], j <= i, drawn below i + 1. */
static inline RP_FORCE_INLINE void rp__shuffle_step_u8(rp_rng *rng, uint64_t *state, uint64_t inc,
                                                       uint8_t *items, int i)
{
    const uint32_t j = rp__rng_drawn_below_local(rng, state, inc, (uint32_t)i + 1);
    const uint8_t t = items[i];
    items[i] = items[j];
    items[j] = t;
}

/* rp_rng_shuffle_u8, inline, for a game's deal and reshuffles: the same draws in the same
 * order, no call, the generator's state in a local. A size the compiler knows (a full deck) is
 * unrolled, so each draw's bound and each swap's place are constants and no counter is kept;
 * while some thread uses a draw list, rp_rng_shuffle_u8 itself. test_inline_shuffle_matches_
 * plain_draws (test_core.c) compares it with a plain rp_rng_below loop. */
static inline RP_FORCE_INLINE void rp__rng_shuffle_u8(rp_rng *rng, uint8_t *items, int n)
{
    if (rp__draws_may_be_listed()) {
        rp_rng_shuffle_u8(rng, items, n);
        return;
    }
    uint64_t state = rng->state;
    const uint64_t inc = rng->inc;
    if (__builtin_constant_p(n)) {
#pragma GCC unroll 64
        for (int i = n - 1; i > 0; i--)
            rp__shuffle_step_u8(rng, &state, inc, items, i);
    } else {
        for (int i = n - 1; i > 0; i--)
            rp__shuffle_step_u8(rng, &state, inc, items, i);
    }
    rng->state = state;
}

#endif
