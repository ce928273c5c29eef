/* bits.h — the population count of the games' bit sets (boards, hands, card masks), inline.
 * On x86-64 without the POPCNT instruction (the default target) GCC's builtin is a call into
 * libgcc that sums through a table, 37 instructions an action in Castle Danger's random
 * playouts; the SWAR sum below is a dozen instructions and no call. Elsewhere (WebAssembly,
 * AArch64, a POPCNT target) the builtin is one instruction or as good. */
#ifndef RP_CORE_BITS_H
#define RP_CORE_BITS_H

#include <stdint.h>

#include "core/inline.h"

/* The number of set bits of b. */
static inline RP_FORCE_INLINE int rp__popcount64(uint64_t b)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
    b = b - (b >> 1 & 0x5555555555555555ull);
    b = (b & 0x3333333333333333ull) + (b >> 2 & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)(b * 0x0101010101010101ull >> 56);
#else
    return __builtin_popcountll(b);
#endif
}

static inline RP_FORCE_INLINE int rp__popcount32(uint32_t b)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
    b = b - (b >> 1 & 0x55555555u);
    b = (b & 0x33333333u) + (b >> 2 & 0x33333333u);
    b = (b + (b >> 4)) & 0x0F0F0F0Fu;
    return (int)(b * 0x01010101u >> 24);
#else
    return __builtin_popcount(b);
#endif
}

#endif
