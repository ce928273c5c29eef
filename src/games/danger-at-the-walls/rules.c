/* rules.c — Danger at the Walls (Matt Worden, 2014): the rules and the hot path: the cards,
 * board queries (strengths, walls held, the winner, cards played and held), setup, legal
 * plays and apply. Rule code cites the shared rulings (DW-n) and this project's rulings
 * (DW-Pn); the action table is in internal.h. */
#include <stddef.h>
#include <string.h>

#include "core/check.h"
#include "core/inline.h"
#include "core/rng_internal.h"
#include "games/danger-at-the-walls/internal.h"

/* Equal states are equal bytes (the notation round trip compares with memcmp): no hidden
 * padding anywhere in the state. */
_Static_assert(offsetof(dw_state, pad_) + sizeof(((dw_state *)0)->pad_) == sizeof(dw_state),
               "dw_state has trailing padding");
_Static_assert(offsetof(dw_state, camp) == sizeof(rp_rng) &&
                   offsetof(dw_state, hand) == sizeof(rp_rng) + sizeof(dw_camp[2]),
               "dw_state has inner padding");

/* The main deck (33 cards, with both Flags). */
const uint8_t dw_main0[DW_FACES] = {13, 7, 5, 1, 1, 1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0};
/* The personal decks: Flag, Cannon Attack, Cannon-6, Cannon-8 and four unique Leaders. */
const uint8_t dw_personal0[2][DW_FACES] = {{0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
                                           {0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}};
/* Leader action index l -> face. */
const uint8_t dw_leader_face[6] = {DW_GENERAL, DW_NOBLE,  DW_ENGINEER,
                                   DW_KING,    DW_WIZARD, DW_BUILDER};

/* n <= 8 consecutive bytes as the low bytes of a word, byte i of the word being p[i] (the
 * first n bytes in memory of a zeroed word; on a big-endian machine the swap brings them to
 * the low end): a hand's counts by face, a camp's row by wall. */
static inline uint64_t load_bytes(const uint8_t *p, size_t n)
{
    uint64_t x = 0;
    memcpy(&x, p, n);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

/* Three consecutive byte counts as the low bytes of a word (byte 0 the first), and back
 * (store_counts, below); the fourth byte is read and written unchanged. */
static inline uint32_t load_counts(const uint8_t *p)
{
    return (uint32_t)load_bytes(p, 4);
}

/* ------------------------------------------------------------------------------------------ */
/* Board queries                                                                              */

/* A row of a camp (internal.h): byte w of the word is wall w's byte. */
static inline uint64_t load_row(const uint8_t *row)
{
    return load_bytes(row, 8);
}

/* DW-7's factors by the Leaders at a wall, indexed by Blue's and Red's leader bytes or'd
 * together (bits 0-2 Blue's General, Noble, Engineer, bits 4-6 Red's King, Wizard, Builder;
 * 256 entries, so that any byte is in the table): the bytes of one word multiply Blue's
 * Archers, Blue's Cannon, Red's Archers and Red's Cannon (Blue = (A*n + C*e)*g, Red =
 * (A + C)*k; the Wizard zeroes both sides' A and the Builder both sides' C). */
#define FACTORS(i)                                                                                 \
    ((uint32_t)((1 + ((i) >> 1 & 1)) * (1 + ((i)&1)) * !((i) >> 5 & 1)) |                          \
     (uint32_t)((1 + ((i) >> 2 & 1)) * (1 + ((i)&1)) * !((i) >> 6 & 1)) << 8 |                     \
     (uint32_t)((1 + ((i) >> 4 & 1)) * !((i) >> 5 & 1)) << 16 |                                    \
     (uint32_t)((1 + ((i) >> 4 & 1)) * !((i) >> 6 & 1)) << 24)
#define FACTORS4(b)                                                                                \
    FACTORS(4 * (b)), FACTORS(4 * (b) + 1), FACTORS(4 * (b) + 2), FACTORS(4 * (b) + 3)
#define FACTORS16(b)                                                                               \
    FACTORS4(4 * (b)), FACTORS4(4 * (b) + 1), FACTORS4(4 * (b) + 2), FACTORS4(4 * (b) + 3)
static const uint32_t leader_factors[256] = {
    FACTORS16(0),  FACTORS16(1),  FACTORS16(2),  FACTORS16(3), FACTORS16(4),  FACTORS16(5),
    FACTORS16(6),  FACTORS16(7),  FACTORS16(8),  FACTORS16(9), FACTORS16(10), FACTORS16(11),
    FACTORS16(12), FACTORS16(13), FACTORS16(14), FACTORS16(15)};
#undef FACTORS16
#undef FACTORS4
#undef FACTORS
_Static_assert(LB(DW_GENERAL) == 1 && LB(DW_NOBLE) == 2 && LB(DW_ENGINEER) == 4 &&
                   LB(DW_KING) == 16 && LB(DW_WIZARD) == 32 && LB(DW_BUILDER) == 64,
               "leader_factors' index is the Leader bits of both sides");

/* DW-7 for both sides of wall w, from the factors above. A Blue card the Spy covers counts
 * for nothing (DW-8): a spied Archer is already out of the counts, a spied top Cannon or
 * Leader is taken out here. Branch-free but for the Spy's wall: it is on the hot path
 * (update_control after every play). */
static inline void strengths(const dw_state *s, int w, int *blue, int *red)
{
    const dw_camp *bc = &s->camp[DW_BLUE], *rc = &s->camp[DW_RED];
    unsigned bl = bc->leaders[w];
    int cb = bc->top[w];
    if (__builtin_expect(s->spy_wall == w + 1, 0)) {
        if (s->spy_on == DW_SPY_ON_CANNON && s->spy_depth + 1 == bc->ncannon[w])
            cb = 0;
        else if (s->spy_on >= DW_GENERAL && s->spy_on <= DW_ENGINEER)
            bl &= ~LB(s->spy_on);
    }
    const uint32_t f = leader_factors[bl | rc->leaders[w]];
    *blue = bc->power[w] * (int)(f & 0xFFu) + cb * (int)(f >> 8 & 0xFFu);
    *red = rc->power[w] * (int)(f >> 16 & 0xFFu) + rc->top[w] * (int)(f >> 24);
}

/* DW-7, for the views and the AI. */
int dw_strength(const dw_state *s, int wall, int seat)
{
    int blue, red;
    strengths(s, wall, &blue, &red);
    return seat == DW_BLUE ? blue : red;
}

/* DW-10 and the Flag lock (DW-2): strictly greater strength takes an unflagged wall. */
static inline RP_FORCE_INLINE void update_control(dw_state *s, int w)
{
    if (s->flag[w])
        return;
    int b, r;
    strengths(s, w, &b, &r);
    _Static_assert(DW_BLUE == 0 && DW_RED == 1, "the stronger side as b < r");
    if (b != r) /* on a tie the holder keeps it */
        s->control[w] = (uint8_t)(b < r);
}

/* Whether the Spy is visible: not buried under a newer Blue Cannon (DW-9, DW-P2). */
bool dw_spy_visible(const dw_state *s)
{
    if (!s->spy_wall)
        return false;
    if (s->spy_on != DW_SPY_ON_CANNON)
        return true;
    return dw_spy_on_top_cannon(s, s->spy_wall - 1);
}

/* How many walls `seat` controls (three or more win, DW-12). */
int dw_walls_of(const dw_state *s, int seat)
{
    int n = 0;
    for (int w = 0; w < DW_WALLS; w++)
        n += s->control[w] == seat;
    return n;
}

/* The winner of a finished game (DW-12: three walls or more). */
int dw_winner(const dw_state *s)
{
    return dw_walls_of(s, DW_BLUE) >= 3 ? DW_BLUE : DW_RED;
}

/* Wall w's side of `seat`, gathered from the seat's camp. */
dw_side dw_side_at(const dw_state *s, int w, int seat)
{
    const dw_camp *c = &s->camp[seat];
    dw_side sd = {.ncannon = c->ncannon[w], .leaders = c->leaders[w]};
    for (int v = 0; v < 3; v++)
        sd.archers[v] = c->archers[v][w];
    memcpy(sd.cannon, c->cannon[w], sizeof c->cannon[w]);
    return sd;
}

/* Store a side into the seat's camp at wall w (its stack at most DW_STACK high). */
void dw_set_side(dw_state *s, int w, int seat, const dw_side *sd)
{
    dw_camp *c = &s->camp[seat];
    rp_assert(sd->ncannon <= DW_STACK);
    for (int v = 0; v < 3; v++)
        c->archers[v][w] = sd->archers[v];
    c->ncannon[w] = sd->ncannon;
    c->leaders[w] = sd->leaders;
    memset(c->cannon[w], 0, sizeof c->cannon[w]);
    memcpy(c->cannon[w], sd->cannon, sd->ncannon);
    c->power[w] = (uint8_t)dw_archer_power(sd->archers);
    c->top[w] = (uint8_t)(sd->ncannon ? dw_cannon_value(sd->cannon[sd->ncannon - 1]) : 0);
}

/* The Archers on a side by name, the spied one included (the Spy says which it covers). */
void dw_side_archers(const dw_state *s, int w, int seat, uint8_t *counts)
{
    memset(counts, 0, DW_FACES);
    for (int v = 0; v < 3; v++)
        counts[DW_A1 + v] = s->camp[seat].archers[v][w];
    if (seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on <= DW_A3)
        counts[s->spy_on]++;
}

/* The face the Spy covers (a Cannon by its face). */
int dw_spied_face(const dw_state *s)
{
    return s->spy_on == DW_SPY_ON_CANNON ? s->camp[DW_BLUE].cannon[s->spy_wall - 1][s->spy_depth]
                                         : s->spy_on;
}

/* Counts per face of the cards `seat` has put into play: its sides of the walls, the Flags
 * it played, its removed pile, and the Spy on the board for Red. */
void dw_played_by(const dw_state *s, int seat, uint8_t *out)
{
    const dw_camp *c = &s->camp[seat];
    memcpy(out, s->removed[seat], DW_FACES);
    for (int w = 0; w < DW_WALLS; w++) {
        for (int v = 0; v < 3; v++)
            out[DW_A1 + v] = (uint8_t)(out[DW_A1 + v] + c->archers[v][w]);
        for (int i = 0; i < c->ncannon[w]; i++)
            out[c->cannon[w][i]]++;
        for (unsigned l = c->leaders[w]; l; l &= l - 1) /* bit f - DW_GENERAL: face f */
            out[DW_GENERAL + __builtin_ctz(l)]++;
        if (s->flag[w] == seat + 1)
            out[DW_FLAG]++;
    }
    if (s->spy_wall) {
        if (seat == DW_RED)
            out[DW_SPY]++;
        else if (s->spy_on <= DW_A3)
            out[s->spy_on]++;
    }
}

/* Add the cards of q's hand and personal deck to counts. */
void dw_add_held(const dw_state *s, int q, uint8_t *counts)
{
    for (int f = 0; f < DW_FACES; f++)
        counts[f] = (uint8_t)(counts[f] + s->hand[q][f]);
    for (int i = 0; i < s->personal_n[q]; i++)
        counts[s->personal[q][i]]++;
}

/* For each hand of Archers (key n1*49 + n2*7 + n3, at most 6 in all), its k non-empty
 * sub-multisets (a, b, c), a <= n1, b <= n2, c <= n3, in the order a, then b, then c: the
 * j-th is the mixed-radix number j (digits in bases n1+1, n2+1, n3+1), for j = 1, 2, ..., k.
 * Identical Archers are interchangeable (DW-P4), so an Archer play is a multiset of values.
 * The tables below are constants the compiler builds from these macros, so any state, also one
 * copied in as raw bytes, lists its plays from any thread with nothing set up first. */
/* clang-format off */
#define SUB_COUNT(n1, n2, n3) \
    ((n1) + (n2) + (n3) <= DW_HAND ? ((n1) + 1) * ((n2) + 1) * ((n3) + 1) - 1 : 0)
/* Seven keys n3 = 0..6 of one (n1, n2), then forty-nine of one n1. */
#define BY_N3(M, n1, n2) \
    M(n1, n2, 0), M(n1, n2, 1), M(n1, n2, 2), M(n1, n2, 3), M(n1, n2, 4), M(n1, n2, 5), M(n1, n2, 6)
#define BY_N2(M, n1)                                                                          \
    BY_N3(M, n1, 0), BY_N3(M, n1, 1), BY_N3(M, n1, 2), BY_N3(M, n1, 3), BY_N3(M, n1, 4),     \
        BY_N3(M, n1, 5), BY_N3(M, n1, 6)
#define BY_KEY(M) \
    BY_N2(M, 0), BY_N2(M, 1), BY_N2(M, 2), BY_N2(M, 3), BY_N2(M, 4), BY_N2(M, 5), BY_N2(M, 6)
/* clang-format on */

/* Every Archer play of a hand, at the five walls: wall w's run lists the sub-multisets above,
 * each as the action w*343 + a*49 + b*7 + c (the action table in internal.h), so the whole
 * list is one copy. The 84 hands of at most six Archers (n1 + n2 + n3 <= DW_HAND), in the
 * order n1, then n2, then n3 (HANDS), each have a row; a row holds 5k <= 130 actions, padded
 * to 132 so it is copied four at a time. A run is written out by nested lists, one level a
 * digit: A_n lists a = 0..n, B_n the b = 0..n of one a, C_n the c = 0..n of one (a, b); the
 * lists starting at 1 (C1_, and B0_ for a = 0) leave out the empty play (0, 0, 0). Each level
 * has its own macros, since a macro does not expand inside itself. */
/* clang-format off */
#define ENTRY(a, b, c, w) (w) * 343 + (a) * 49 + (b) * 7 + (c),
#define C_0(a, b, w) ENTRY(a, b, 0, w)
#define C_1(a, b, w) C_0(a, b, w) ENTRY(a, b, 1, w)
#define C_2(a, b, w) C_1(a, b, w) ENTRY(a, b, 2, w)
#define C_3(a, b, w) C_2(a, b, w) ENTRY(a, b, 3, w)
#define C_4(a, b, w) C_3(a, b, w) ENTRY(a, b, 4, w)
#define C_5(a, b, w) C_4(a, b, w) ENTRY(a, b, 5, w)
#define C_6(a, b, w) C_5(a, b, w) ENTRY(a, b, 6, w)
#define C1_0(a, b, w)
#define C1_1(a, b, w) ENTRY(a, b, 1, w)
#define C1_2(a, b, w) C1_1(a, b, w) ENTRY(a, b, 2, w)
#define C1_3(a, b, w) C1_2(a, b, w) ENTRY(a, b, 3, w)
#define C1_4(a, b, w) C1_3(a, b, w) ENTRY(a, b, 4, w)
#define C1_5(a, b, w) C1_4(a, b, w) ENTRY(a, b, 5, w)
#define C1_6(a, b, w) C1_5(a, b, w) ENTRY(a, b, 6, w)
#define B_0(n3, a, w) C_##n3(a, 0, w)
#define B_1(n3, a, w) B_0(n3, a, w) C_##n3(a, 1, w)
#define B_2(n3, a, w) B_1(n3, a, w) C_##n3(a, 2, w)
#define B_3(n3, a, w) B_2(n3, a, w) C_##n3(a, 3, w)
#define B_4(n3, a, w) B_3(n3, a, w) C_##n3(a, 4, w)
#define B_5(n3, a, w) B_4(n3, a, w) C_##n3(a, 5, w)
#define B_6(n3, a, w) B_5(n3, a, w) C_##n3(a, 6, w)
#define B0_0(n3, w) C1_##n3(0, 0, w)
#define B0_1(n3, w) B0_0(n3, w) C_##n3(0, 1, w)
#define B0_2(n3, w) B0_1(n3, w) C_##n3(0, 2, w)
#define B0_3(n3, w) B0_2(n3, w) C_##n3(0, 3, w)
#define B0_4(n3, w) B0_3(n3, w) C_##n3(0, 4, w)
#define B0_5(n3, w) B0_4(n3, w) C_##n3(0, 5, w)
#define B0_6(n3, w) B0_5(n3, w) C_##n3(0, 6, w)
#define A_0(n2, n3, w) B0_##n2(n3, w)
#define A_1(n2, n3, w) A_0(n2, n3, w) B_##n2(n3, 1, w)
#define A_2(n2, n3, w) A_1(n2, n3, w) B_##n2(n3, 2, w)
#define A_3(n2, n3, w) A_2(n2, n3, w) B_##n2(n3, 3, w)
#define A_4(n2, n3, w) A_3(n2, n3, w) B_##n2(n3, 4, w)
#define A_5(n2, n3, w) A_4(n2, n3, w) B_##n2(n3, 5, w)
#define A_6(n2, n3, w) A_5(n2, n3, w) B_##n2(n3, 6, w)
/* The five runs, then a 0 so that no row is empty (the empty hand's) */
#define PLAY_ROW(n1, n2, n3) \
    {A_##n1(n2, n3, 0) A_##n1(n2, n3, 1) A_##n1(n2, n3, 2) A_##n1(n2, n3, 3) A_##n1(n2, n3, 4) 0}
/* The hands with n3 = 0..m of one (n1, n2), then those of n2 + n3 <= m of one n1, then all. */
#define N3_0(M, n1, n2) M(n1, n2, 0)
#define N3_1(M, n1, n2) N3_0(M, n1, n2), M(n1, n2, 1)
#define N3_2(M, n1, n2) N3_1(M, n1, n2), M(n1, n2, 2)
#define N3_3(M, n1, n2) N3_2(M, n1, n2), M(n1, n2, 3)
#define N3_4(M, n1, n2) N3_3(M, n1, n2), M(n1, n2, 4)
#define N3_5(M, n1, n2) N3_4(M, n1, n2), M(n1, n2, 5)
#define N3_6(M, n1, n2) N3_5(M, n1, n2), M(n1, n2, 6)
#define N2_0(M, n1) N3_0(M, n1, 0)
#define N2_1(M, n1) N3_1(M, n1, 0), N3_0(M, n1, 1)
#define N2_2(M, n1) N3_2(M, n1, 0), N3_1(M, n1, 1), N3_0(M, n1, 2)
#define N2_3(M, n1) N3_3(M, n1, 0), N3_2(M, n1, 1), N3_1(M, n1, 2), N3_0(M, n1, 3)
#define N2_4(M, n1) N3_4(M, n1, 0), N3_3(M, n1, 1), N3_2(M, n1, 2), N3_1(M, n1, 3), N3_0(M, n1, 4)
#define N2_5(M, n1) \
    N3_5(M, n1, 0), N3_4(M, n1, 1), N3_3(M, n1, 2), N3_2(M, n1, 3), N3_1(M, n1, 4), N3_0(M, n1, 5)
#define N2_6(M, n1) \
    N3_6(M, n1, 0), N3_5(M, n1, 1), N3_4(M, n1, 2), N3_3(M, n1, 3), N3_2(M, n1, 4), \
        N3_1(M, n1, 5), N3_0(M, n1, 6)
#define HANDS(M) \
    N2_6(M, 0), N2_5(M, 1), N2_4(M, 2), N2_3(M, 3), N2_2(M, 4), N2_1(M, 5), N2_0(M, 6)
/* A hand's place in HANDS: the 84 - (7-n1)(8-n1)(9-n1)/6 hands of a smaller n1 (the
 * tetrahedral numbers count the hands of at most m Archers), the hands of this n1 with a
 * smaller n2 (7 - n1 - b of each n2 = b), then n3. */
#define HAND_RANK(n1, n2, n3) \
    (84 - (7 - (n1)) * (8 - (n1)) * (9 - (n1)) / 6 + (n2) * (7 - (n1)) - (n2) * ((n2) - 1) / 2 + (n3))
/* clang-format on */
static const uint32_t archer_plays[84][132] = {HANDS(PLAY_ROW)};
/* A hand's Archers as a key, 56 n1 + 8 n2 + n3 (distinct for counts up to 6: 8 n2 + n3 is at
 * most 54), gathered from the three counts as bytes 0-2 of a word by one 32-bit multiply: the
 * product by (56 * 2^16 + 8 * 2^8 + 1) * 2^7 holds the key at bits 23-31, the lower terms
 * (n1 and 8 n1 + n2, times 2^7) stay below bit 23 and the higher ones (56 n2 + 8 n3 and on,
 * even, times 2^31) fall off the word's end. */
#define ARCHER_KEY(n1, n2, n3) (56 * (n1) + 8 * (n2) + (n3))
static inline unsigned archer_key(uint32_t counts)
{
    return (counts & 0xFFFFFFu) * (0x380801u << 7) >> 23;
}
/* By ARCHER_KEY, what legal_plays needs of the hand's row, each in a field of its own (no
 * shifts or masks to take them apart): the row's offset in archer_plays in bytes (83 * 528 at
 * most), its blocks of four and its length 5k; zeros for keys of more than six Archers, never
 * looked up. */
typedef struct archer_row {
    uint16_t offset;
    uint8_t blocks, length;
} archer_row;
#define HAND_ROW(n1, n2, n3)                                                                       \
    [ARCHER_KEY(n1, n2, n3)] = {                                                                   \
        .offset = (uint16_t)((n1) + (n2) + (n3) <= DW_HAND                                         \
                                 ? HAND_RANK(n1, n2, n3) * sizeof archer_plays[0]                  \
                                 : 0),                                                             \
        .blocks =                                                                                  \
            (uint8_t)((n1) + (n2) + (n3) <= DW_HAND ? (5 * SUB_COUNT(n1, n2, n3) + 3) / 4 : 0),    \
        .length = (uint8_t)(5 * SUB_COUNT(n1, n2, n3))}
static const archer_row archer_hand[0x200] = {BY_KEY(HAND_ROW)}; /* any key archer_key makes */
/* For each Archer action, its counts as the bytes of one word (byte v - 1 the Archers of
 * value v), their total (bits 24-28: at most 18) and the wall (bits 29-31): apply takes them
 * from the hand at once and adds each to its row of the camp, with no division. */
#define COUNTS_WORD(n1, n2, n3, w)                                                                 \
    ((uint32_t)(n1) | (uint32_t)(n2) << 8 | (uint32_t)(n3) << 16 |                                 \
     (uint32_t)((n1) + (n2) + (n3)) << 24 | (uint32_t)(w) << 29)
#define COUNTS_WALL0(n1, n2, n3) COUNTS_WORD(n1, n2, n3, 0)
#define COUNTS_WALL1(n1, n2, n3) COUNTS_WORD(n1, n2, n3, 1)
#define COUNTS_WALL2(n1, n2, n3) COUNTS_WORD(n1, n2, n3, 2)
#define COUNTS_WALL3(n1, n2, n3) COUNTS_WORD(n1, n2, n3, 3)
#define COUNTS_WALL4(n1, n2, n3) COUNTS_WORD(n1, n2, n3, 4)
static const uint32_t archer_play_counts[DW_ACT_CANNON] = {
    BY_KEY(COUNTS_WALL0), BY_KEY(COUNTS_WALL1), BY_KEY(COUNTS_WALL2), BY_KEY(COUNTS_WALL3),
    BY_KEY(COUNTS_WALL4)};
_Static_assert(DW_ACT_ARCHERS == 0 && DW_ACT_CANNON == DW_WALLS * 343, "the Archer actions");

static inline void store_counts(uint8_t *p, uint32_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap32(x);
#endif
    memcpy(p, &x, sizeof x);
}

/* ------------------------------------------------------------------------------------------ */
/* Setup                                                                                      */

/* The main deck without its two Flags, and the personal decks, each in face order (dw_main0
 * and dw_personal0 listed card by card; the tests check they agree): dw_init copies them,
 * so a deal (once a random playout) does not rebuild them. */
static const uint8_t main_without_flags[DW_MAIN + 12 - 2] = {
    DW_A1, DW_A1, DW_A1, DW_A1, DW_A1, DW_A1, DW_A1, DW_A1, DW_A1,    DW_A1, DW_A1,
    DW_A1, DW_A1, DW_A2, DW_A2, DW_A2, DW_A2, DW_A2, DW_A2, DW_A2,    DW_A3, DW_A3,
    DW_A3, DW_A3, DW_A3, DW_C5, DW_C6, DW_C7, DW_C8, DW_C9, DW_ATTACK};
static const uint8_t personal_cards[2][DW_PERSONAL] = {
    {DW_C6, DW_C8, DW_FLAG, DW_ATTACK, DW_GENERAL, DW_NOBLE, DW_ENGINEER, DW_ASSASSIN},
    {DW_C6, DW_C8, DW_FLAG, DW_ATTACK, DW_KING, DW_WIZARD, DW_BUILDER, DW_SPY}};

/* Whether the card lists above hold exactly the cards of dw_main0 and dw_personal0. */
bool dw_deck_lists_agree(void)
{
    uint8_t main[DW_FACES] = {0}, personal[2][DW_FACES] = {{0}};
    for (size_t i = 0; i < sizeof main_without_flags; i++)
        main[main_without_flags[i]]++;
    main[DW_FLAG] += 2;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < DW_PERSONAL; i++) {
            personal[p][personal_cards[p][i]]++;
            if (i && personal_cards[p][i] <= personal_cards[p][i - 1])
                return false; /* face order, as the shuffle's result depends on it */
        }
    for (size_t i = 1; i < sizeof main_without_flags; i++)
        if (main_without_flags[i] < main_without_flags[i - 1])
            return false;
    return memcmp(main, dw_main0, sizeof main) == 0 &&
           memcmp(personal, dw_personal0, sizeof personal) == 0;
}

/* dst[0..7] = src[7..0]. */
static inline void copy_reversed8(uint8_t *dst, const uint8_t *src)
{
    uint64_t word;
    memcpy(&word, src, sizeof word);
    word = __builtin_bswap64(word);
    memcpy(dst, &word, sizeof word);
}

/* memset(s, 0, sizeof *s) as 16-byte stores, the last overlapping (the compilers make a
 * memset of this size a string instruction, which stores eight bytes a step). */
static inline void zero_state(dw_state *s)
{
    typedef uint8_t zero_block __attribute__((vector_size(16)));
    const zero_block zero = {0};
    uint8_t *bytes = (uint8_t *)s;
    _Static_assert(sizeof *s % 8 == 0 && sizeof *s > 16, "the state's size");
#pragma GCC unroll 24
    for (size_t i = 0; i < sizeof *s - 16; i += 16)
        memcpy(bytes + i, &zero, sizeof zero);
    memcpy(bytes + sizeof *s - 16, &zero, sizeof zero);
}

/* DW-1: shuffled main deck without Flags, six cards each (Blue first, alternating), Flag A
 * with 9..11 cards above it, then Flag B with at least 10 above it; personal decks shuffled. */
int dw_init(void *st, const rp_config *cfg, rp_error *err)
{
    (void)err;
    dw_state *s = st;
    zero_state(s);
    rp_rng_seed(&s->rng, cfg->seed, 0xD4A11u);
    enum { CARDS = (int)sizeof main_without_flags, DEALT = 2 * DW_HAND, REST = CARDS - DEALT };
    /* RUN: the bytes of one copy below; the deck has room for a copy from any place in it */
    enum { RUN = 24, HI_MAX = REST + 1 };
    uint8_t deck[DEALT + HI_MAX + RUN];
    memcpy(deck, main_without_flags, CARDS);
    memset(deck + CARDS, 0, sizeof deck - CARDS);
    /* rp_rng_shuffle_u8 inline, unrolled for the constant sizes (rng_internal.h): the same
     * draws in the same order (test_DW1_deal_shuffles_as_rp_rng_shuffle). deck[0] is the top. */
    rp__rng_shuffle_u8(&s->rng, deck, CARDS);
#pragma GCC unroll 6
    for (int i = 0; i < DEALT; i += 2) {
        s->hand[DW_BLUE][deck[i]]++;
        s->hand[DW_RED][deck[i + 1]]++;
    }
    s->hand_n[0] = s->hand_n[1] = DW_HAND;
    /* The rest from the top, Flag A inserted at index a of it, then Flag B at index b of the
     * result. The Flags end at indexes lo < hi <= HI_MAX of the whole (B before A when b <= a),
     * so the deck from the top, `seq`, is three runs of the rest with a Flag after the first
     * two: three copies of RUN bytes, each run's starting where the Flag before it goes (the
     * next copy overwrites what one writes past its run), then the two Flags. */
    const int a = 9 + (int)rp__rng_below(&s->rng, 3);
    const int b = 10 + (int)rp__rng_below(&s->rng, REST + 1 - 10 + 1);
    const int lo = b <= a ? b : a, hi = b <= a ? a + 1 : b;
    const uint8_t *rest = deck + DEALT;
    uint8_t seq[HI_MAX + 1 + RUN];
    memcpy(seq, rest, RUN);
    memcpy(seq + lo + 1, rest + lo, RUN);
    memcpy(seq + hi + 1, rest + hi - 1, RUN);
    seq[lo] = seq[hi] = DW_FLAG;
    /* Stored with the top at the end, main[k] = seq[20 - k]: three words byte-reversed,
     * seq[13..20] to main[0..7], seq[5..12] to main[8..15], seq[0..7] to main[13..20] (the
     * last two agree on main[13..15]). */
    _Static_assert(REST + 2 == DW_MAIN && DW_MAIN == 21, "the main deck's 21 cards");
    copy_reversed8(s->main, seq + 13);
    copy_reversed8(s->main + 8, seq + 5);
    copy_reversed8(s->main + 13, seq);
    s->main_n = DW_MAIN;
    for (int p = 0; p < 2; p++) {
        memcpy(s->personal[p], personal_cards[p], DW_PERSONAL);
        rp__rng_shuffle_u8(&s->rng, s->personal[p], DW_PERSONAL);
        s->personal_n[p] = DW_PERSONAL;
    }
    for (int w = 0; w < DW_WALLS; w++)
        s->control[w] = DW_RED; /* DW-1: Red side up */
    s->to_move = DW_BLUE;
    s->actor = DW_BLUE;
    s->turn = 1;
    return RP_OK;
}

/* Always two: Blue (seat 0) and Red (seat 1). */
int dw_num_players(const void *st)
{
    (void)st;
    return 2;
}

/* The seat to act, or RP_TERMINAL once DW-12 has ended the game. */
int dw_current_player(const void *st)
{
    const dw_state *s = st;
    return s->actor;
}

/* The turn in progress: Blue plays turns 1, 3, 5..., Red 2, 4, 6... */
int dw_turn_number(const void *st)
{
    const dw_state *s = st;
    return s->turn;
}

/* ------------------------------------------------------------------------------------------ */
/* Legal actions                                                                              */

/* Four actions at once: legal_plays writes its lists of consecutive plays in blocks of four
 * (GCC's and Clang's vector extension, so plain SSE2 on x86-64 and SIMD128 in WebAssembly). A
 * block may run up to three actions past the list's end: the next list overwrites them and
 * the buffer has RP_MAX_LEGAL slots, far more than the longest list (130 Archer plays). */
typedef uint32_t dw_block __attribute__((vector_size(16)));

static inline void put_block(rp_action *out, dw_block v)
{
    memcpy(out, &v, sizeof v);
}

/* Blocks 0..count-1 of four actions from a row of archer_plays (count <= 33, as archer_hand
 * gives it), written out straight: the compilers turn a loop that copies into a call to
 * memmove, which costs more than the copy of the usual few blocks. */
static inline void copy_blocks(rp_action *out, const uint32_t *row, size_t count)
{
    dw_block v;
#define COPY_BLOCK(i)                                                                              \
    case (i) + 1:                                                                                  \
        memcpy(&v, row + 4 * (i), sizeof v);                                                       \
        put_block(out + 4 * (i), v);                                                               \
        __attribute__((fallthrough))
#define COPY_BLOCKS4(i)                                                                            \
    COPY_BLOCK((i) + 3);                                                                           \
    COPY_BLOCK((i) + 2);                                                                           \
    COPY_BLOCK((i) + 1);                                                                           \
    COPY_BLOCK(i)
    switch (count) {
        COPY_BLOCK(32);
        COPY_BLOCKS4(28);
        COPY_BLOCKS4(24);
        COPY_BLOCKS4(20);
        COPY_BLOCKS4(16);
        COPY_BLOCKS4(12);
        COPY_BLOCKS4(8);
        COPY_BLOCKS4(4);
        COPY_BLOCKS4(0);
    case 0:
        break;
    default: /* never: the count comes from archer_hand (no test of the jump table's range) */
        __builtin_unreachable();
    }
#undef COPY_BLOCKS4
#undef COPY_BLOCK
}

/* The five walls' copies of each Cannon and Leader play, by the card's face, as rows of eight
 * (the action ids grow by 5 or 6 a wall; three zeros pad a row to two blocks): a list of them
 * is two block copies, with no arithmetic. */
#define FIVE_WALLS(first, stride)                                                                  \
    {                                                                                              \
        (first), (first) + (stride), (first) + 2 * (stride), (first) + 3 * (stride),               \
            (first) + 4 * (stride), 0, 0, 0                                                        \
    }
static const uint32_t five_walls[DW_FACES][8] = {[DW_C5] = FIVE_WALLS(DW_ACT_CANNON, 5),
                                                 [DW_C6] = FIVE_WALLS(DW_ACT_CANNON + 1, 5),
                                                 [DW_C7] = FIVE_WALLS(DW_ACT_CANNON + 2, 5),
                                                 [DW_C8] = FIVE_WALLS(DW_ACT_CANNON + 3, 5),
                                                 [DW_C9] = FIVE_WALLS(DW_ACT_CANNON + 4, 5),
                                                 [DW_GENERAL] = FIVE_WALLS(DW_ACT_LEADER, 6),
                                                 [DW_NOBLE] = FIVE_WALLS(DW_ACT_LEADER + 1, 6),
                                                 [DW_ENGINEER] = FIVE_WALLS(DW_ACT_LEADER + 2, 6),
                                                 [DW_KING] = FIVE_WALLS(DW_ACT_LEADER + 3, 6),
                                                 [DW_WIZARD] = FIVE_WALLS(DW_ACT_LEADER + 4, 6),
                                                 [DW_BUILDER] = FIVE_WALLS(DW_ACT_LEADER + 5, 6)};
#undef FIVE_WALLS

/* Five plays from a row of five_walls (the three after them are written too). */
static inline void put_five(rp_action *out, const uint32_t *row)
{
    dw_block v;
    memcpy(&v, row, sizeof v);
    put_block(out, v);
    memcpy(&v, row + 4, sizeof v);
    put_block(out + 4, v);
}

/* The row of five_walls for the face at byte i of a word whose bit 8i + 7 is `bit`, from the
 * row of byte 0's face: four bytes a bit, so the address is one add. */
static inline const uint32_t *five_walls_at(const uint32_t *row0, unsigned bit)
{
    return (const uint32_t *)((const char *)row0 + 4 * (size_t)bit - 4 * 7);
}

/* The top bit of each byte of x that is not zero, for bytes below 0x80: adding 0x7F sets a
 * byte's top bit exactly when it is not zero, with no carry into the next byte. */
static inline uint64_t nonzero_bytes(uint64_t x)
{
    return (x + 0x7F7F7F7F7F7F7F7Full) & 0x8080808080808080ull;
}

/* The cards a camp shows at each wall as bits 8w + t, t = 0, 1, 2 for Archers of value 1, 2,
 * 3 and 3 for a Cannon (the top of a stack): each row's non-zero bytes, their top bits moved
 * down to bit t. Every count is below 0x80 (nonzero_bytes). */
static inline uint64_t shown_cards(const dw_camp *c)
{
    return nonzero_bytes(load_row(c->archers[0])) >> 7 |
           nonzero_bytes(load_row(c->archers[1])) >> 6 |
           nonzero_bytes(load_row(c->archers[2])) >> 5 | nonzero_bytes(load_row(c->ncannon)) >> 4;
}

/* Every play of the hand (DW-3), or the discards of DW-4 when none exists. The hot path of a
 * random playout: lists are written in blocks, absent targets are written and not counted
 * (no data-dependent branch), and the order is fixed (bench signatures depend on it). Not
 * inlined, so the refill's short path saves no registers for it. */
static __attribute__((noinline)) int legal_plays(const dw_state *s, rp_action *out)
{
    const size_t p = s->to_move, q = p ^ 1;
    const uint8_t *h = s->hand[p];
    size_t n = 0; /* the size of an index: no sign extension at each write */
    const uint64_t counts = load_bytes(h, 8); /* faces DW_A1..DW_C9 as bytes 0..7 */
    if (counts & 0xFFFFFFu) {
        /* DW-3: every sub-multiset of the hand's Archers at every wall, copied from a table */
        const archer_row *hand = &archer_hand[archer_key((uint32_t)counts)];
        const char *const table = (const char *)archer_plays; /* bytes: any offset in it */
        copy_blocks(out, (const uint32_t *)(table + hand->offset), hand->blocks);
        n = hand->length;
    }
    uint64_t held = nonzero_bytes(counts) & 0x8080808080000000ull; /* C5..C9 */
    /* byte f of counts is face f: its row of five_walls */
    for (; held; held &= held - 1) {
        put_five(out + n, five_walls_at(five_walls[0], (unsigned)__builtin_ctzll(held)));
        n += DW_WALLS;
    }
    if (h[DW_FLAG])
#pragma GCC unroll 5
        for (int w = 0; w < DW_WALLS; w++) {
            out[n] = (rp_action)(DW_ACT_FLAG + w);
            n += s->flag[w] == 0; /* DW-2 */
        }
    /* DW-6, at every wall at once (bit 8w + 7 for wall w): the attacker needs its own top
     * Cannon there, and the defender a target, its top Cannon or Archers. */
    const uint64_t stacks = load_row(s->camp[p].ncannon);
    if (h[DW_ATTACK] && stacks) {
        const dw_camp *defender = &s->camp[q];
        uint64_t armed = nonzero_bytes(stacks);
        uint64_t cannon = nonzero_bytes(load_row(defender->ncannon));
        const uint64_t archers = nonzero_bytes(load_row(defender->power));
        /* DW-P1: a top Cannon the Spy covers (Blue's) cannot attack nor be removed. */
        if (__builtin_expect(s->spy_wall != 0, 0) && dw_spy_on_top_cannon(s, s->spy_wall - 1)) {
            const uint64_t spied = 0x80ull << 8 * (s->spy_wall - 1);
            if (p == DW_BLUE)
                armed &= ~spied;
            else
                cannon &= ~spied;
        }
        /* Bit 8w + 4t is the attack of wall w on target t (0 the top Cannon, 1 the Archers),
         * action DW_ACT_ATTACK + 2w + t, the bit's number over four: in the order of the ids. */
        for (uint64_t t = (cannon >> 7 | archers >> 3) & (armed >> 7) * 0x11; t; t &= t - 1)
            out[n++] = (rp_action)(DW_ACT_ATTACK + (__builtin_ctzll(t) >> 2));
    }
    /* Leaders at walls: this side's three are consecutive faces (General, Noble, Engineer;
     * King, Wizard, Builder, four faces on), leader actions 3p to 3p + 2; same bit trick. */
    _Static_assert(DW_KING == DW_GENERAL + 4 && DW_BUILDER == DW_KING + 2, "leader faces");
    const uint32_t lead = load_counts(h + DW_GENERAL + 4 * p); /* the fourth byte is in the hand */
    for (uint32_t held_leaders = nonzero_bytes(lead) & 0x808080u; held_leaders;
         held_leaders &= held_leaders - 1) {
        put_five(out + n, five_walls_at(five_walls[DW_GENERAL + 4 * p],
                                        (unsigned)__builtin_ctz(held_leaders)));
        n += DW_WALLS;
    }
    if (p == DW_RED && h[DW_SPY]) {
        /* DW-8: any Blue card in play that shows, as bit 8w + t for target t of wall w
         * (Archers 1-3, the top Cannon, General, Noble, Engineer: leader bits 0-2 moved to
         * 4-6); action DW_ACT_SPY + 7w + t. The Spy in hand is not on the board: nothing is
         * covered. */
        const dw_camp *b = &s->camp[DW_BLUE];
        uint64_t t = shown_cards(b) | (load_row(b->leaders) & 0x0707070707ull) << 4;
        for (; t; t &= t - 1) {
            const unsigned bit = (unsigned)__builtin_ctzll(t);
            out[n++] = (rp_action)(DW_ACT_SPY + bit - (bit >> 3));
        }
    }
    if (p == DW_BLUE && h[DW_ASSASSIN]) {
        /* DW-9: any visible Red card in play, as bit 8w + t for target t of wall w (Archers
         * 1-3, the top Cannon, King, Wizard, Builder: leader bits 4-6 where they are, the Spy
         * bit 7); action DW_ACT_ASSASSIN + 8w + t. */
        const dw_camp *r = &s->camp[DW_RED];
        uint64_t t = shown_cards(r) | (load_row(r->leaders) & 0x7070707070ull);
        if (dw_spy_visible(s))
            t |= 0x80ull << 8 * (s->spy_wall - 1);
        for (; t; t &= t - 1)
            out[n++] = (rp_action)(DW_ACT_ASSASSIN + __builtin_ctzll(t));
    }
    if (n == 0) /* DW-4 */
        for (int f = 0; f < DW_FACES; f++)
            if (h[f])
                out[n++] = (rp_action)(DW_ACT_DISCARD + f);
    return (int)n;
}

/* The player's legal actions: a play, or during the refill the decks to draw from (DW-11). */
int dw_legal_actions(const void *st, rp_action *out)
{
    const dw_state *s = st;
    if (s->phase == DW_PHASE_REFILL) { /* never over, and a deck has a card (state_ok) */
        /* the personal deck first, then the main one: both, as one store, but late in a game */
        static const rp_action both[2] = {DW_ACT_DRAW_PERSONAL, DW_ACT_DRAW_MAIN};
        const bool own = s->personal_n[s->to_move] != 0;
        if (__builtin_expect(own && s->main_n, 1)) {
            memcpy(out, both, sizeof both);
            return 2;
        }
        out[0] = own ? DW_ACT_DRAW_PERSONAL : DW_ACT_DRAW_MAIN;
        return 1;
    }
    return s->over ? 0 : legal_plays(s, out);
}
/* ------------------------------------------------------------------------------------------ */
/* Apply                                                                                      */

/* The end of a turn: the trigger of DW-12 (three Flags on the board, or the player's hand
 * empty) starts the last turn, and the end of the last one ends the game. Out of line: it
 * comes at most three times a game (end_turn takes the other turns' ends). */
static __attribute__((noinline)) void end_last_turns(dw_state *s)
{
    const int p = s->to_move, q = p ^ 1;
    s->phase = DW_PHASE_PLAY;
    if (s->last_turn) {
        s->over = 1;
        dw_set_actor(s);
        return;
    }
    if (s->flags_on_board >= 3)
        s->last_turn = DW_LAST_FLAGS;
    else if (s->hand_n[p] == 0)
        s->last_turn = DW_LAST_EMPTY_HAND;
    s->to_move = (uint8_t)q;
    s->turn++;
    /* DW-12: a last turn with an empty hand is skipped. Play never gets here (an empty hand
     * at the end of a turn starts the last turn then, so the next one ends the game): the
     * ruling is kept as written. */
    if (s->last_turn && s->hand_n[q] == 0)
        s->over = 1;
    dw_set_actor(s);
}

/* The end of p's turn, once a turn after the play or the last draw: the other player's turn
 * comes unless DW-12 has something to say (end_last_turns). `empty` is whether p's hand may
 * be empty: not after a draw. */
static inline void end_turn(dw_state *s, unsigned p, bool empty)
{
    if (__builtin_expect(s->last_turn || s->flags_on_board >= 3 || (empty && s->hand_n[p] == 0),
                         0)) {
        end_last_turns(s);
        return;
    }
    s->to_move = (uint8_t)(p ^ 1);
    s->actor = (int8_t)(p ^ 1);
    s->phase = DW_PHASE_PLAY;
    s->turn++;
}

/* Cards leave the hand by face: identical cards are interchangeable (DW-P4). */
static void take_from_hand(dw_state *s, int p, int face, int count)
{
    s->hand[p][face] = (uint8_t)(s->hand[p][face] - count);
    s->hand_n[p] = (uint8_t)(s->hand_n[p] - count);
}

/* The top Cannon of seat's stack at wall w goes to seat's removed pile; the one beneath, if
 * any, shows (DW-5). */
static void remove_top_cannon(dw_state *s, int seat, int w)
{
    dw_camp *c = &s->camp[seat];
    const int top = --c->ncannon[w];
    s->removed[seat][c->cannon[w][top]]++;
    c->cannon[w][top] = 0;
    c->top[w] = (uint8_t)(top ? dw_cannon_value(c->cannon[w][top - 1]) : 0);
}

/* Cannon Attack (DW-6): the defender's top Cannon, or all their active Archers. */
static void apply_attack(dw_state *s, int p, int w, int target)
{
    const int q = p ^ 1;
    dw_camp *d = &s->camp[q];
    s->removed[p][DW_ATTACK]++;
    if (target == 0) {
        remove_top_cannon(s, q, w);
    } else {
        for (int v = 0; v < 3; v++) {
            s->removed[q][DW_A1 + v] = (uint8_t)(s->removed[q][DW_A1 + v] + d->archers[v][w]);
            d->archers[v][w] = 0;
        }
        d->power[w] = 0;
    }
}

/* The Spy covers one Blue card (DW-8). */
static void apply_spy(dw_state *s, int w, int t)
{
    dw_camp *b = &s->camp[DW_BLUE];
    s->spy_wall = (uint8_t)(w + 1);
    if (t < 3) {
        b->archers[t][w]--;
        b->power[w] = (uint8_t)(b->power[w] - (t + 1));
        s->spy_on = (uint8_t)(DW_A1 + t);
    } else if (t == 3) {
        s->spy_on = DW_SPY_ON_CANNON;
        s->spy_depth = (uint8_t)(b->ncannon[w] - 1);
    } else {
        s->spy_on = (uint8_t)(DW_GENERAL + t - 4);
    }
}

/* The Assassin removes one visible Red card (DW-9); removing the Spy frees its card. */
static void apply_assassin(dw_state *s, int w, int t)
{
    dw_camp *r = &s->camp[DW_RED];
    s->removed[DW_BLUE][DW_ASSASSIN]++;
    if (t < 3) {
        r->archers[t][w]--;
        r->power[w] = (uint8_t)(r->power[w] - (t + 1));
        s->removed[DW_RED][DW_A1 + t]++;
    } else if (t == 3) {
        remove_top_cannon(s, DW_RED, w);
    } else if (t < 7) {
        r->leaders[w] &= (uint8_t)~LB(DW_KING + t - 4);
        s->removed[DW_RED][DW_KING + t - 4]++;
    } else {
        if (s->spy_on <= DW_A3) { /* the covered Archer counts again */
            dw_camp *b = &s->camp[DW_BLUE];
            b->archers[s->spy_on - DW_A1][w]++;
            b->power[w] = (uint8_t)(b->power[w] + s->spy_on - DW_A1 + 1);
        }
        s->removed[DW_RED][DW_SPY]++;
        s->spy_wall = s->spy_on = s->spy_depth = 0;
    }
}

/* The wall to re-evaluate after a play at wall w that can only make p stronger there or the
 * opponent weaker: none when p holds it already. An unflagged wall is held by the stronger
 * side, or by either on a tie (DW-10 after every play, and a play changes strengths at its
 * own wall only), so p stays at least as strong and keeps it. */
static inline int gained_wall(const dw_state *s, int p, int w)
{
    return s->control[w] == p ? -1 : w;
}

/* The plays of DW-3 (or a DW-4 discard); each returns the wall whose control may change, or
 * -1. Archers, an attack on Archers, the General, Noble, Engineer and King, the Spy, and the
 * Assassin on an Archer, the King or the Spy only strengthen the player or weaken the
 * opponent (gained_wall); a Cannon may be weaker than the one it covers, removing a top
 * Cannon shows the one beneath, and the Wizard and Builder zero both sides' cards. */

/* Archers: the hand's counts move as one word (no byte borrows: the hand holds them), so the
 * fourth byte (the hand's Cannon-5) is left as it was. */
static inline int apply_archers(dw_state *s, size_t p, rp_action a)
{
    const uint32_t c = archer_play_counts[a];
    const size_t w = c >> 29;
    uint8_t *hand = &s->hand[p][DW_A1];
    dw_camp *camp = &s->camp[p];
    store_counts(hand, load_counts(hand) - (c & 0xFFFFFFu));
    s->hand_n[p] = (uint8_t)(s->hand_n[p] - (c >> 24 & 0x1Fu));
    camp->archers[0][w] = (uint8_t)(camp->archers[0][w] + (c & 0xFFu));
    camp->archers[1][w] = (uint8_t)(camp->archers[1][w] + (c >> 8 & 0xFFu));
    camp->archers[2][w] = (uint8_t)(camp->archers[2][w] + (c >> 16 & 0xFFu));
    /* their values summed, as byte 2 of one product: 1, 2, 3 times bytes 0, 1, 2 (six
     * Archers at most, so no byte of it carries) */
    camp->power[w] = (uint8_t)(camp->power[w] + ((c & 0xFFFFFFu) * 0x010203u >> 16 & 0xFFu));
    return gained_wall(s, (int)p, (int)w);
}

/* A Cannon action's wall and face, from DW_ACT_CANNON, and a Leader action's, from
 * DW_ACT_LEADER: looked up, not divided out. */
typedef struct dw_place {
    uint8_t wall, face;
} dw_place;
/* clang-format off */
#define CANNONS_AT(w) {w, DW_C5}, {w, DW_C6}, {w, DW_C7}, {w, DW_C8}, {w, DW_C9}
#define LEADERS_AT(w) \
    {w, DW_GENERAL}, {w, DW_NOBLE}, {w, DW_ENGINEER}, {w, DW_KING}, {w, DW_WIZARD}, {w, DW_BUILDER}
/* clang-format on */
static const dw_place cannon_play[5 * DW_WALLS] = {CANNONS_AT(0), CANNONS_AT(1), CANNONS_AT(2),
                                                   CANNONS_AT(3), CANNONS_AT(4)};
static const dw_place leader_play[6 * DW_WALLS] = {LEADERS_AT(0), LEADERS_AT(1), LEADERS_AT(2),
                                                   LEADERS_AT(3), LEADERS_AT(4)};
#undef CANNONS_AT
#undef LEADERS_AT

/* The tables' wall and face for a Cannon or a Leader action. */
void dw_play_place(rp_action a, int *wall, int *face)
{
    const dw_place *at =
        a < DW_ACT_FLAG ? &cannon_play[a - DW_ACT_CANNON] : &leader_play[a - DW_ACT_LEADER];
    *wall = at->wall;
    *face = at->face;
}

static inline int apply_cannon(dw_state *s, size_t p, rp_action a)
{
    const size_t w = cannon_play[a - DW_ACT_CANNON].wall, f = cannon_play[a - DW_ACT_CANNON].face;
    dw_camp *camp = &s->camp[p];
    s->hand[p][f]--;
    s->hand_n[p]--;
    camp->cannon[w][camp->ncannon[w]++] = (uint8_t)f; /* DW-5: on top of the stack */
    camp->top[w] = (uint8_t)dw_cannon_value((int)f);
    return (int)w;
}

static inline int apply_leader(dw_state *s, size_t p, rp_action a)
{
    const size_t w = leader_play[a - DW_ACT_LEADER].wall, f = leader_play[a - DW_ACT_LEADER].face;
    s->hand[p][f]--;
    s->hand_n[p]--;
    s->camp[p].leaders[w] |= (uint8_t)LB(f);
    return f == DW_WIZARD || f == DW_BUILDER ? (int)w : gained_wall(s, (int)p, (int)w);
}

/* The other plays: a Flag, a Cannon Attack, the Spy, the Assassin or a discard. */
static inline int apply_other(dw_state *s, int p, rp_action a)
{
    if (a < DW_ACT_ATTACK) {
        const int w = (int)(a - DW_ACT_FLAG);
        take_from_hand(s, p, DW_FLAG, 1);
        s->flag[w] = (uint8_t)(p + 1); /* DW-2: control locks as it stands */
        s->flags_on_board++;
        return -1;
    }
    if (a < DW_ACT_LEADER) {
        const int w = (int)(a - DW_ACT_ATTACK) / 2, target = (int)(a - DW_ACT_ATTACK) % 2;
        take_from_hand(s, p, DW_ATTACK, 1);
        apply_attack(s, p, w, target);
        return target == 1 ? gained_wall(s, p, w) : w;
    }
    if (a < DW_ACT_ASSASSIN) {
        const int w = (int)(a - DW_ACT_SPY) / 7;
        take_from_hand(s, p, DW_SPY, 1);
        apply_spy(s, w, (int)(a - DW_ACT_SPY) % 7);
        return gained_wall(s, p, w);
    }
    if (a < DW_ACT_DISCARD) {
        const int w = (int)(a - DW_ACT_ASSASSIN) / 8, t = (int)(a - DW_ACT_ASSASSIN) % 8;
        take_from_hand(s, p, DW_ASSASSIN, 1);
        apply_assassin(s, w, t);
        return t == 3 || t == 5 || t == 6 ? w : gained_wall(s, p, w); /* Cannon, Wizard, Builder */
    }
    const int f = (int)(a - DW_ACT_DISCARD);
    take_from_hand(s, p, f, 1);
    s->removed[p][f]++;
    return -1;
}

/* After p's play: control of wall w re-evaluated (DW-10; none for w = -1), then the refill
 * when a deck has a card (DW-11: a play leaves at most five in the hand), or the end of the
 * turn. */
static inline RP_FORCE_INLINE void after_play(dw_state *s, int p, int w)
{
    if (w >= 0)
        update_control(s, w);
    if (s->personal_n[p] | s->main_n)
        s->phase = DW_PHASE_REFILL;
    else
        end_turn(s, (unsigned)p, true);
}

/* A play of apply_other's, out of line: the rarer plays and their calls keep their registers
 * to themselves. */
static __attribute__((noinline)) void play_other(dw_state *s, int p, rp_action a)
{
    after_play(s, p, apply_other(s, p, a));
}

/* A play (most are Archers, Cannons and Leaders, applied here with no register to save).
 * Not inlined, so a refill draw (half of all actions) saves no registers for it. */
static __attribute__((noinline)) void play(dw_state *s, rp_action a)
{
    const size_t p = s->to_move;
    int w;
    if (a < DW_ACT_CANNON)
        w = apply_archers(s, p, a);
    else if (a < DW_ACT_FLAG)
        w = apply_cannon(s, p, a);
    else if (a >= DW_ACT_LEADER && a < DW_ACT_SPY)
        w = apply_leader(s, p, a);
    else {
        play_other(s, (int)p, a);
        return;
    }
    after_play(s, (int)p, w);
}

/* Apply a legal action: a play (then control is re-evaluated, DW-10) or one refill draw. */
void dw_apply(void *st, rp_action a)
{
    dw_state *s = st;
    if (a < DW_ACT_DRAW_PERSONAL) {
        play(s, a);
        return;
    }
    /* DW-11: one card from the chosen deck's top (the slot left zero) into the hand */
    const size_t p = s->to_move;
    int f;
    if (a == DW_ACT_DRAW_MAIN) {
        const size_t top = (size_t)s->main_n - 1;
        f = s->main[top];
        s->main[top] = 0;
        s->main_n = (uint8_t)top;
    } else {
        const size_t top = (size_t)s->personal_n[p] - 1;
        f = s->personal[p][top];
        s->personal[p][top] = 0;
        s->personal_n[p] = (uint8_t)top;
    }
    s->hand[p][f]++;
    /* the refill (the phase already) goes on while the hand has room and a deck a card */
    if (++s->hand_n[p] < DW_HAND && (s->personal_n[p] | s->main_n))
        return;
    end_turn(s, (unsigned)p, false);
}

/* DW-12: the side controlling three or more walls wins outright. */
void dw_returns(const void *st, double *out)
{
    const dw_state *s = st;
    const int blue = dw_walls_of(s, DW_BLUE) >= 3;
    out[DW_BLUE] = blue ? 1.0 : 0.0;
    out[DW_RED] = blue ? 0.0 : 1.0;
}
