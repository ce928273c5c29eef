/* rng_internal.h — rng.c's private header: the generator's step and rp_rng_below's fast path,
 * inline for the library's own hot loops (a random playout's pick, a search's draws; rng.c
 * builds rp_rng_below from them): the same values in the same order as rp_rng_below. */
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

/* rp_rng_below, inline: a random playout draws once an action or more. */
static inline RP_FORCE_INLINE uint32_t rp__rng_below(rp_rng *rng, uint32_t bound)
{
    if (rp__draws_may_be_listed())
        return rp__rng_draw_maybe_listed(rng, bound);
    return rp__rng_drawn_below(rng, bound);
}

#endif
