/* ramparts/rng.h — the one pseudo-random generator of Ramparts: PCG32 (O'Neill 2014,
 * "PCG-XSH-RR 64/32"). Every random choice in a game, an AI or a tool comes from one of these,
 * so the same seed and the same actions give the same game on every machine. */
#ifndef RAMPARTS_RNG_H
#define RAMPARTS_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ramparts/export.h"

/* The whole generator: 16 bytes, no pointers, so it lives inside game states and is
 * copied with them. */
typedef struct rp_rng {
    uint64_t state;
    uint64_t inc; /* stream selector, always odd */
} rp_rng;

/* Seed a generator; different streams with the same seed give unrelated sequences. */
RP_EXTERN void rp_rng_seed(rp_rng *rng, uint64_t seed, uint64_t stream);

/* The next 32 random bits. */
RP_EXTERN uint32_t rp_rng_next(rp_rng *rng);

/* A uniform integer in [0, bound) without modulo bias (Lemire's method); bound > 0. */
RP_EXTERN uint32_t rp_rng_below(rp_rng *rng, uint32_t bound);

/* A uniform double in [0, 1). */
RP_EXTERN double rp_rng_unit(rp_rng *rng);

/* Fisher-Yates shuffle of n bytes / n 16-bit values in place. */
RP_EXTERN void rp_rng_shuffle_u8(rp_rng *rng, uint8_t *items, int n);
RP_EXTERN void rp_rng_shuffle_u16(rp_rng *rng, uint16_t *items, int n);

/* Explicit chance: while a draw list is in use on a thread, every rp_rng_below (and so every
 * shuffle) on that thread returns the next of `values` instead of drawing, so a caller decides
 * each chance event itself; since the games draw only through rp_rng_below, an action's chance
 * events are a sequence of uniform choices in [0, bound) that can be enumerated. Past the
 * values, rp_rng_below returns 0 and counts the draw, the first such draw recording its bound:
 * the caller then knows the next chance event and discards the state that the zeros made. */
typedef struct rp_draws {
    const uint32_t *values;
    size_t count;        /* values given */
    size_t used;         /* draws made so far, past the values too */
    uint32_t next_bound; /* the bound of draw number `count`, once asked; 0 before */
    bool bad;            /* a value was not below its draw's bound, or rp_rng_next / rp_rng_unit
                          * was called (a draw that is not a bounded choice) */
    /* Recording instead (values unused): when record is set, draws are made from the
     * generator as usual and each value is also written to record[used] (while used <
     * record_cap; `used` counts them all), so a sampled game's chance events can be replayed
     * as explicit ones (the tests compare the two). */
    uint32_t *record;
    size_t record_cap;
} rp_draws;

/* Use `draws` on this thread from now (NULL: draw normally again); returns the list in use
 * before, to be restored. */
RP_EXTERN rp_draws *rp_rng_use_draws(rp_draws *draws);

#endif
