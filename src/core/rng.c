/* rng.c — PCG32 (PCG-XSH-RR with 64-bit state), the single source of randomness.
 * Chosen because it is tiny, fast, statistically sound and its output is fully specified,
 * so sequences are identical on every platform. Reference: https://www.pcg-random.org/ */
#include "ramparts/rng.h"

#define PCG_MULTIPLIER 6364136223846793005ULL

void rp_rng_seed(rp_rng *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0;
    rng->inc = (stream << 1u) | 1u;
    (void)rp_rng_next(rng);
    rng->state += seed;
    (void)rp_rng_next(rng);
}

uint32_t rp_rng_next(rp_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * PCG_MULTIPLIER + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Lemire's nearly-divisionless method: a multiply, and a division only on rare rejections. */
uint32_t rp_rng_below(rp_rng *rng, uint32_t bound)
{
    uint64_t m = (uint64_t)rp_rng_next(rng) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (uint64_t)rp_rng_next(rng) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double rp_rng_unit(rp_rng *rng)
{
    return (double)rp_rng_next(rng) * (1.0 / 4294967296.0);
}

void rp_rng_shuffle_u8(rp_rng *rng, uint8_t *items, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rp_rng_below(rng, (uint32_t)i + 1);
        uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

void rp_rng_shuffle_u16(rp_rng *rng, uint16_t *items, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rp_rng_below(rng, (uint32_t)i + 1);
        uint16_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}
