/* ramparts/rng.h — the one pseudo-random generator of Ramparts: PCG32 (O'Neill 2014,
 * "PCG-XSH-RR 64/32"). Every random choice in a game, an AI or a tool comes from one of these,
 * so the same seed and the same actions give the same game on every machine. */
#ifndef RAMPARTS_RNG_H
#define RAMPARTS_RNG_H

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

#endif
