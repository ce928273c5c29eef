/* rules.c — Danger at the Walls (Matt Worden, 2014): the rules and the hot path: the cards,
 * board queries (strengths, walls held, the winner, cards played and held), setup, legal
 * plays and apply. Rule code cites the shared rulings (DW-n) and this project's rulings
 * (DW-Pn); the action table is in internal.h. */
#include <stddef.h>
#include <string.h>

#include "core/check.h"
#include "games/danger-at-the-walls/internal.h"

/* Equal states are equal bytes (the notation round trip compares with memcmp): no hidden
 * padding anywhere in the state. */
_Static_assert(offsetof(dw_state, pad_) + sizeof(((dw_state *)0)->pad_) == sizeof(dw_state),
               "dw_state has trailing padding");
_Static_assert(offsetof(dw_state, hand) == sizeof(rp_rng), "dw_state has inner padding");

/* The main deck (33 cards, with both Flags). */
const uint8_t dw_main0[DW_FACES] = {13, 7, 5, 1, 1, 1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0};
/* The personal decks: Flag, Cannon Attack, Cannon-6, Cannon-8 and four unique Leaders. */
const uint8_t dw_personal0[2][DW_FACES] = {{0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
                                           {0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}};
/* Leader action index l -> face. */
const uint8_t dw_leader_face[6] = {DW_GENERAL, DW_NOBLE,  DW_ENGINEER,
                                   DW_KING,    DW_WIZARD, DW_BUILDER};

/* Three consecutive byte counts as the low bytes of a word (byte 0 the first), and back
 * (store_counts, below); the fourth byte is read and written unchanged. */
static inline uint32_t load_counts(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap32(x);
#endif
    return x;
}

/* ------------------------------------------------------------------------------------------ */
/* Board queries                                                                              */

/* The Archers' strength of a side: archers[0] + 2 * archers[1] + 3 * archers[2], as byte 2
 * of one product (each byte of it stays below 256: a side holds at most 13, 7 and 5 Archers
 * of values 1, 2, 3, so nothing carries). */
static inline int archer_strength(const dw_side *sd)
{
    return (int)((load_counts(sd->archers) & 0xFFFFFFu) * 0x010203u >> 16 & 0xFFu);
}

/* The strength printed on the top Cannon of a stack, by the byte at offset 3 + ncannon of
 * its side: the top Cannon's face, or the height byte itself (0) when the stack is empty. */
_Static_assert(offsetof(dw_side, ncannon) == 3 && offsetof(dw_side, cannon) == 4,
               "dw_side: archers[3], ncannon, then the stack");
static const uint8_t top_cannon_value[DW_FACES] = {
    [DW_C5] = 5, [DW_C6] = 6, [DW_C7] = 7, [DW_C8] = 8, [DW_C9] = 9};
static inline int top_cannon(const dw_side *sd)
{
    return top_cannon_value[((const uint8_t *)sd)[3 + sd->ncannon]];
}

/* DW-7's factors by the Leaders at a wall, index bits 0-2 Blue's General, Noble, Engineer
 * and 3-5 Red's King, Wizard, Builder: the bytes of one word multiply Blue's Archers, Blue's
 * Cannon, Red's Archers and Red's Cannon (Blue = (A*n + C*e)*g, Red = (A + C)*k; the Wizard
 * zeroes both sides' A and the Builder both sides' C). */
#define FACTORS(i)                                                                                 \
    ((uint32_t)((1 + ((i) >> 1 & 1)) * (1 + ((i)&1)) * !((i) >> 4 & 1)) |                          \
     (uint32_t)((1 + ((i) >> 2 & 1)) * (1 + ((i)&1)) * !((i) >> 5 & 1)) << 8 |                     \
     (uint32_t)((1 + ((i) >> 3 & 1)) * !((i) >> 4 & 1)) << 16 |                                    \
     (uint32_t)((1 + ((i) >> 3 & 1)) * !((i) >> 5 & 1)) << 24)
#define FACTORS8(b)                                                                                \
    FACTORS(8 * (b)), FACTORS(8 * (b) + 1), FACTORS(8 * (b) + 2), FACTORS(8 * (b) + 3),            \
        FACTORS(8 * (b) + 4), FACTORS(8 * (b) + 5), FACTORS(8 * (b) + 6), FACTORS(8 * (b) + 7)
static const uint32_t leader_factors[64] = {FACTORS8(0), FACTORS8(1), FACTORS8(2), FACTORS8(3),
                                            FACTORS8(4), FACTORS8(5), FACTORS8(6), FACTORS8(7)};
_Static_assert(LB(DW_GENERAL) == 1 && LB(DW_NOBLE) == 2 && LB(DW_ENGINEER) == 4 &&
                   LB(DW_KING) == 16 && LB(DW_WIZARD) == 32 && LB(DW_BUILDER) == 64,
               "leader_factors' index is the Leader bits of both sides");

/* DW-7 for both sides of wall w, from the factors above. A Blue card the Spy covers counts
 * for nothing (DW-8): a spied Archer is already out of the counts, a spied top Cannon or
 * Leader is taken out here. Branch-free but for the Spy's wall: it is on the hot path
 * (update_control after every play). */
static inline void strengths(const dw_state *s, int w, int *blue, int *red)
{
    const dw_side *bs = &s->side[w][DW_BLUE], *rs = &s->side[w][DW_RED];
    unsigned bl = bs->leaders;
    int cb = top_cannon(bs);
    if (__builtin_expect(s->spy_wall == w + 1, 0)) {
        if (s->spy_on == DW_SPY_ON_CANNON && s->spy_depth + 1 == bs->ncannon)
            cb = 0;
        else if (s->spy_on >= DW_GENERAL && s->spy_on <= DW_ENGINEER)
            bl &= ~LB(s->spy_on);
    }
    const uint32_t f = leader_factors[(bl & 7u) | (rs->leaders >> 1 & 0x38u)];
    *blue = archer_strength(bs) * (int)(f & 0xFFu) + cb * (int)(f >> 8 & 0xFFu);
    *red = archer_strength(rs) * (int)(f >> 16 & 0xFFu) + top_cannon(rs) * (int)(f >> 24);
}

/* DW-7, for the views and the AI. */
int dw_strength(const dw_state *s, int wall, int seat)
{
    int blue, red;
    strengths(s, wall, &blue, &red);
    return seat == DW_BLUE ? blue : red;
}

/* DW-10 and the Flag lock (DW-2): strictly greater strength takes an unflagged wall. */
static void update_control(dw_state *s, int w)
{
    if (s->flag[w])
        return;
    int b, r;
    strengths(s, w, &b, &r);
    const uint8_t c = s->control[w];
    s->control[w] = b > r ? (uint8_t)DW_BLUE : r > b ? (uint8_t)DW_RED : c;
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

/* The Archers on a side by name, the spied one included (the Spy says which it covers). */
void dw_side_archers(const dw_state *s, int w, int seat, uint8_t *counts)
{
    memset(counts, 0, DW_FACES);
    for (int v = 0; v < 3; v++)
        counts[DW_A1 + v] = s->side[w][seat].archers[v];
    if (seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on <= DW_A3)
        counts[s->spy_on]++;
}

/* The face the Spy covers (a Cannon by its face). */
int dw_spied_face(const dw_state *s)
{
    return s->spy_on == DW_SPY_ON_CANNON ? s->side[s->spy_wall - 1][DW_BLUE].cannon[s->spy_depth]
                                         : s->spy_on;
}

/* Counts per face of the cards `seat` has put into play: its sides of the walls, the Flags
 * it played, its removed pile, and the Spy on the board for Red. */
void dw_played_by(const dw_state *s, int seat, uint8_t *out)
{
    memcpy(out, s->removed[seat], DW_FACES);
    for (int w = 0; w < DW_WALLS; w++) {
        const dw_side *sd = &s->side[w][seat];
        for (int v = 0; v < 3; v++)
            out[DW_A1 + v] = (uint8_t)(out[DW_A1 + v] + sd->archers[v]);
        for (int i = 0; i < sd->ncannon; i++)
            out[sd->cannon[i]]++;
        for (unsigned l = sd->leaders; l; l &= l - 1) /* bit f - DW_GENERAL: face f */
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

/* For each hand of Archers (key n1*49 + n2*7 + n3, at most 6 in all), its non-empty
 * sub-multisets as action offsets a*49 + b*7 + c, in the order a, then b, then c: the j-th is
 * the mixed-radix number j (digits in bases n1+1, n2+1, n3+1), for j = 1, 2, ... Identical
 * Archers are interchangeable (DW-P4), so an Archer play is a multiset of values. The table is
 * a constant the compiler builds from these macros, so any state, also one copied in as raw
 * bytes, lists its plays from any thread with nothing set up first. Keys of more than six
 * Archers are never looked up; their rows are empty. */
/* clang-format off */
#define SUB_COUNT(n1, n2, n3) \
    ((n1) + (n2) + (n3) <= DW_HAND ? ((n1) + 1) * ((n2) + 1) * ((n3) + 1) - 1 : 0)
#define SUB_DIGITS(n1, n2, n3, j) \
    ((j) / (((n2) + 1) * ((n3) + 1)) * 49 + (j) / ((n3) + 1) % ((n2) + 1) * 7 + (j) % ((n3) + 1))
#define SUB(n1, n2, n3, i) ((i) < SUB_COUNT(n1, n2, n3) ? SUB_DIGITS(n1, n2, n3, (i) + 1) : 0)
#define SUB_ROW(n1, n2, n3)                                                                   \
    {SUB(n1, n2, n3, 0),  SUB(n1, n2, n3, 1),  SUB(n1, n2, n3, 2),  SUB(n1, n2, n3, 3),      \
     SUB(n1, n2, n3, 4),  SUB(n1, n2, n3, 5),  SUB(n1, n2, n3, 6),  SUB(n1, n2, n3, 7),      \
     SUB(n1, n2, n3, 8),  SUB(n1, n2, n3, 9),  SUB(n1, n2, n3, 10), SUB(n1, n2, n3, 11),     \
     SUB(n1, n2, n3, 12), SUB(n1, n2, n3, 13), SUB(n1, n2, n3, 14), SUB(n1, n2, n3, 15),     \
     SUB(n1, n2, n3, 16), SUB(n1, n2, n3, 17), SUB(n1, n2, n3, 18), SUB(n1, n2, n3, 19),     \
     SUB(n1, n2, n3, 20), SUB(n1, n2, n3, 21), SUB(n1, n2, n3, 22), SUB(n1, n2, n3, 23),     \
     SUB(n1, n2, n3, 24), SUB(n1, n2, n3, 25)}
/* Seven keys n3 = 0..6 of one (n1, n2), then forty-nine of one n1. */
#define BY_N3(M, n1, n2) \
    M(n1, n2, 0), M(n1, n2, 1), M(n1, n2, 2), M(n1, n2, 3), M(n1, n2, 4), M(n1, n2, 5), M(n1, n2, 6)
#define BY_N2(M, n1)                                                                          \
    BY_N3(M, n1, 0), BY_N3(M, n1, 1), BY_N3(M, n1, 2), BY_N3(M, n1, 3), BY_N3(M, n1, 4),     \
        BY_N3(M, n1, 5), BY_N3(M, n1, 6)
#define BY_KEY(M) \
    BY_N2(M, 0), BY_N2(M, 1), BY_N2(M, 2), BY_N2(M, 3), BY_N2(M, 4), BY_N2(M, 5), BY_N2(M, 6)
/* clang-format on */

/* (2+1)^3 - 1 = 26 sub-multisets at most, for a hand of two Archers of each value; rows of 28
 * (zero-padded) so they are copied four at a time. */
static const uint32_t archer_offsets[343][28] = {BY_KEY(SUB_ROW)};
/* uint16_t, not uint8_t: clang checks both arms of SUB_COUNT's ?: against the element type,
 * and the arm never taken (keys of more than six Archers) exceeds 255. */
static const uint16_t archer_count[343] = {BY_KEY(SUB_COUNT)};
/* For each Archer play's offset n1*49 + n2*7 + n3, its counts as the bytes of one word (byte
 * v - 1 the Archers of value v, byte 3 their total): apply adds and subtracts them at once. */
#define COUNTS_WORD(n1, n2, n3)                                                                    \
    ((uint32_t)(n1) | (uint32_t)(n2) << 8 | (uint32_t)(n3) << 16 |                                 \
     (uint32_t)((n1) + (n2) + (n3)) << 24)
static const uint32_t archer_play_counts[343] = {BY_KEY(COUNTS_WORD)};

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

/* DW-1: shuffled main deck without Flags, six cards each (Blue first, alternating), Flag A
 * with 9..11 cards above it, then Flag B with at least 10 above it; personal decks shuffled. */
int dw_init(void *st, const rp_config *cfg, rp_error *err)
{
    (void)err;
    dw_state *s = st;
    memset(s, 0, sizeof *s);
    rp_rng_seed(&s->rng, cfg->seed, 0xD4A11u);
    enum { DEALT = 2 * DW_HAND, REST = (int)sizeof main_without_flags - DEALT };
    uint8_t deck[sizeof main_without_flags];
    memcpy(deck, main_without_flags, sizeof deck);
    rp_rng_shuffle_u8(&s->rng, deck, (int)sizeof deck); /* deck[0] is the top */
    for (int i = 0; i < DEALT; i++)
        s->hand[i & 1][deck[i]]++;
    s->hand_n[0] = s->hand_n[1] = DW_HAND;
    /* The rest from the top, Flag A inserted at index a of it, then Flag B at index b of the
     * result; stored with the top at the end. The Flags end at indexes lo < hi of the whole
     * (B before A when b <= a), so it is three runs of the rest with a Flag between each. */
    const int a = 9 + (int)rp_rng_below(&s->rng, 3);
    const int b = 10 + (int)rp_rng_below(&s->rng, REST + 1 - 10 + 1);
    const int lo = b <= a ? b : a, hi = b <= a ? a + 1 : b;
    const uint8_t *rest = deck + DEALT;
    uint8_t *top = s->main + REST + 1; /* card j from the top is top[-j] */
    for (int j = 0; j < lo; j++)
        top[-j] = rest[j];
    top[-lo] = DW_FLAG;
    for (int j = lo; j < hi - 1; j++)
        top[-j - 1] = rest[j];
    top[-hi] = DW_FLAG;
    for (int j = hi - 1; j < REST; j++)
        top[-j - 2] = rest[j];
    s->main_n = REST + 2;
    for (int p = 0; p < 2; p++) {
        memcpy(s->personal[p], personal_cards[p], DW_PERSONAL);
        rp_rng_shuffle_u8(&s->rng, s->personal[p], DW_PERSONAL);
        s->personal_n[p] = DW_PERSONAL;
    }
    for (int w = 0; w < DW_WALLS; w++)
        s->control[w] = DW_RED; /* DW-1: Red side up */
    s->to_move = DW_BLUE;
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
    return s->over ? RP_TERMINAL : s->to_move;
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

/* The five walls' copies of a play whose action id grows by `stride` per wall. */
static inline void put_five(rp_action *out, uint32_t first, uint32_t stride)
{
    const dw_block step = {0, stride, 2 * stride, 3 * stride};
    put_block(out, step + first);
    out[4] = first + 4 * stride;
}

/* Counts of the hand's faces DW_A1..DW_C9 as the bytes of one word, byte i = face i. */
static inline uint64_t hand_word(const uint8_t *h)
{
    uint64_t w;
    memcpy(&w, h, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* What of a side shows as bits: 1, 2, 4 for Archers of value 1, 2, 3, 8 for a Cannon (its
 * stack height) — the bytes archers[0..2] and ncannon read as one word, top bit per non-zero
 * byte (the same trick as the hand's counts). */
_Static_assert(offsetof(dw_side, ncannon) == 3, "dw_side: archers[3] then ncannon");
static inline unsigned shown_cards(const dw_side *sd)
{
    uint32_t x;
    memcpy(&x, sd->archers, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap32(x);
#endif
    x = (x + 0x7F7F7F7Fu) & 0x80808080u;
    /* bits 0, 8, 16, 24 gathered into bits 24..27 by one multiply (no two partial products
     * share a bit, so nothing carries) */
    return (x >> 7) * 0x01020408u >> 24;
}

/* Every play of the hand (DW-3), or the discards of DW-4 when none exists. The hot path of a
 * random playout: lists are written in blocks, absent targets are written and not counted
 * (no data-dependent branch), and the order is fixed (bench signatures depend on it). Not
 * inlined, so the refill's short path saves no registers for it. */
static __attribute__((noinline)) int legal_plays(const dw_state *s, rp_action *out)
{
    const int p = s->to_move, q = p ^ 1;
    const uint8_t *h = s->hand[p];
    size_t n = 0; /* the size of an index: no sign extension at each write */
    /* faces DW_A1..DW_C9 as bytes 0..7; counts are below 0x80, so adding 0x7f sets a byte's
     * top bit exactly when it is non-zero, with no carry between bytes */
    const uint64_t counts = hand_word(h);
    if (counts & 0xFFFFFFu) {
        /* The sub-multisets of the hand's Archers come from a table; one copy per wall. */
        const int key = h[DW_A1] * 49 + h[DW_A2] * 7 + h[DW_A3], k = archer_count[key];
        const uint32_t *off = archer_offsets[key];
        /* Blocks from the last down, so a block that runs past the end of wall w's list is
         * overwritten by wall w + 1's first block, written after it. */
        for (int i = (k - 1) & ~3; i >= 0; i -= 4) {
            dw_block v;
            memcpy(&v, off + i, sizeof v);
            put_block(out + i, v + DW_ACT_ARCHERS);
            put_block(out + k + i, v + (DW_ACT_ARCHERS + 343));
            put_block(out + 2 * k + i, v + (DW_ACT_ARCHERS + 2 * 343));
            put_block(out + 3 * k + i, v + (DW_ACT_ARCHERS + 3 * 343));
            put_block(out + 4 * k + i, v + (DW_ACT_ARCHERS + 4 * 343));
        }
        n = DW_WALLS * (size_t)k;
    }
    uint64_t held = (counts + 0x7F7F7F7F7F7F7F7Full) & 0x8080808080000000ull; /* C5..C9 */
    for (; held; held &= held - 1) {
        const int f = __builtin_ctzll(held) >> 3;
        put_five(out + n, (uint32_t)(DW_ACT_CANNON + f - DW_C5), 5);
        n += DW_WALLS;
    }
    if (h[DW_FLAG])
#pragma GCC unroll 5
        for (int w = 0; w < DW_WALLS; w++) {
            out[n] = (rp_action)(DW_ACT_FLAG + w);
            n += s->flag[w] == 0; /* DW-2 */
        }
    if (h[DW_ATTACK]) {
        /* The wall whose Blue top Cannon the Spy covers, or -1 (DW-P1: a spied Cannon cannot
         * be moved, nor be the target). */
        const int spied =
            (s->spy_wall && dw_spy_on_top_cannon(s, s->spy_wall - 1)) ? s->spy_wall - 1 : -1;
        /* DW-6: the attacker needs its own active top Cannon at the wall (not the spied one),
         * and the defender a target there: a top Cannon that shows, or Archers. The walls
         * written out, each side's bytes at a fixed offset; a wall without the attacker's
         * Cannon is skipped (most are), the targets written and counted without a branch. */
        const int blocked = p == DW_BLUE ? spied : -1;
        /* The defender's spied top Cannon is no target either. */
        const int unshown = q == DW_BLUE ? spied : -1;
        /* The sides as bytes from the attacker's and the defender's side of wall 0, so wall
         * w's are at a fixed offset from one of two addresses (sides alternate by seat). */
        const uint8_t *attacker = (const uint8_t *)&s->side[0][p];
        const uint8_t *defender = (const uint8_t *)&s->side[0][q];
        enum { WALL_BYTES = 2 * sizeof(dw_side), NCANNON = offsetof(dw_side, ncannon) };
#pragma GCC unroll 5
        for (int w = 0; w < DW_WALLS; w++) {
            if (!attacker[w * WALL_BYTES + NCANNON] || w == blocked)
                continue;
            /* bytes archers[0..2] and ncannon, top bit per non-zero byte */
            uint32_t x;
            memcpy(&x, defender + w * WALL_BYTES, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            x = __builtin_bswap32(x);
#endif
            const uint32_t shown = (x + 0x7F7F7F7Fu) & 0x80808080u;
            out[n] = (rp_action)(DW_ACT_ATTACK + w * 2);
            n += (shown >> 31) & (w != unshown);
            out[n] = (rp_action)(DW_ACT_ATTACK + w * 2 + 1);
            n += (shown & 0x808080u) != 0;
        }
    }
    /* Leaders at walls: this side's three are consecutive faces; same bit trick. */
    const int l0 = p * 3, f0 = dw_leader_face[l0];
    uint32_t lead = load_counts(h + f0) & 0xFFFFFFu; /* f0 + 3 is still in the hand */
    for (lead = (lead + 0x7F7F7Fu) & 0x808080u; lead; lead &= lead - 1) {
        const int l = l0 + (__builtin_ctz(lead) >> 3);
        put_five(out + n, (uint32_t)(DW_ACT_LEADER + l), 6);
        n += DW_WALLS;
    }
    if (p == DW_RED && h[DW_SPY]) /* DW-8: any Blue card in play that shows */
#pragma GCC unroll 5
        for (int w = 0; w < DW_WALLS; w++) {
            const dw_side *b = &s->side[w][DW_BLUE];
            /* targets 0..6 as bits: Archers 1-3, the top Cannon, General, Noble, Engineer */
            unsigned t = shown_cards(b) | (b->leaders & 7u) << 4;
            for (; t; t &= t - 1)
                out[n++] = (rp_action)(DW_ACT_SPY + w * 7 + __builtin_ctz(t));
        }
    if (p == DW_BLUE && h[DW_ASSASSIN]) /* DW-9: any visible Red card in play */
#pragma GCC unroll 5
        for (int w = 0; w < DW_WALLS; w++) {
            const dw_side *r = &s->side[w][DW_RED];
            /* targets 0..7 as bits: Archers 1-3, the top Cannon, King, Wizard, Builder, Spy */
            unsigned t = shown_cards(r) | (r->leaders >> (DW_KING - DW_GENERAL) & 7u) << 4;
            t |= (unsigned)(s->spy_wall == w + 1 && dw_spy_visible(s)) << 7;
            for (; t; t &= t - 1)
                out[n++] = (rp_action)(DW_ACT_ASSASSIN + w * 8 + __builtin_ctz(t));
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
    if (s->over)
        return 0;
    if (s->phase == DW_PHASE_PLAY)
        return legal_plays(s, out);
    /* written and counted without a branch: the personal deck first, then the main one */
    int n = s->personal_n[s->to_move] != 0;
    out[0] = DW_ACT_DRAW_PERSONAL;
    out[n] = DW_ACT_DRAW_MAIN;
    return n + (s->main_n != 0);
}
/* ------------------------------------------------------------------------------------------ */
/* Apply                                                                                      */

/* After a play or a draw: continue the refill (DW-11), or end the turn and apply the end
 * trigger of DW-12 (three Flags on the board, or the player's hand empty). */
static void advance(dw_state *s)
{
    const int p = s->to_move, q = p ^ 1;
    if (s->hand_n[p] < DW_HAND && (s->personal_n[p] || s->main_n)) {
        s->phase = DW_PHASE_REFILL;
        return;
    }
    s->phase = DW_PHASE_PLAY;
    if (s->last_turn) {
        s->over = 1;
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
}

/* Cards leave the hand by face: identical cards are interchangeable (DW-P4). */
static void take_from_hand(dw_state *s, int p, int face, int count)
{
    s->hand[p][face] = (uint8_t)(s->hand[p][face] - count);
    s->hand_n[p] = (uint8_t)(s->hand_n[p] - count);
}

/* Cannon Attack (DW-6): the defender's top Cannon, or all their active Archers. */
static void apply_attack(dw_state *s, int p, int w, int target)
{
    const int q = p ^ 1;
    dw_side *d = &s->side[w][q];
    s->removed[p][DW_ATTACK]++;
    if (target == 0) {
        s->removed[q][d->cannon[--d->ncannon]]++;
        d->cannon[d->ncannon] = 0;
    } else {
        for (int v = 0; v < 3; v++) {
            s->removed[q][DW_A1 + v] = (uint8_t)(s->removed[q][DW_A1 + v] + d->archers[v]);
            d->archers[v] = 0;
        }
    }
}

/* The Spy covers one Blue card (DW-8). */
static void apply_spy(dw_state *s, int w, int t)
{
    dw_side *b = &s->side[w][DW_BLUE];
    s->spy_wall = (uint8_t)(w + 1);
    if (t < 3) {
        b->archers[t]--;
        s->spy_on = (uint8_t)(DW_A1 + t);
    } else if (t == 3) {
        s->spy_on = DW_SPY_ON_CANNON;
        s->spy_depth = (uint8_t)(b->ncannon - 1);
    } else {
        s->spy_on = (uint8_t)(DW_GENERAL + t - 4);
    }
}

/* The Assassin removes one visible Red card (DW-9); removing the Spy frees its card. */
static void apply_assassin(dw_state *s, int w, int t)
{
    dw_side *r = &s->side[w][DW_RED];
    s->removed[DW_BLUE][DW_ASSASSIN]++;
    if (t < 3) {
        r->archers[t]--;
        s->removed[DW_RED][DW_A1 + t]++;
    } else if (t == 3) {
        s->removed[DW_RED][r->cannon[--r->ncannon]]++;
        r->cannon[r->ncannon] = 0;
    } else if (t < 7) {
        r->leaders &= (uint8_t)~LB(DW_KING + t - 4);
        s->removed[DW_RED][DW_KING + t - 4]++;
    } else {
        if (s->spy_on <= DW_A3)
            s->side[w][DW_BLUE].archers[s->spy_on - DW_A1]++;
        s->removed[DW_RED][DW_SPY]++;
        s->spy_wall = s->spy_on = s->spy_depth = 0;
    }
}

/* One play of DW-3 (or a DW-4 discard); returns the wall whose strength may change, or -1. */
static int apply_play(dw_state *s, int p, rp_action a)
{
    if (a < DW_ACT_CANNON) {
        /* The counts move as one word each way: no byte borrows (the hand holds them) or
         * carries (at most six Archers of a value), so the fourth byte (the hand's Cannon-5,
         * the side's ncannon) is left as it was. */
        const int w = (int)a / 343;
        const uint32_t c = archer_play_counts[(int)a % 343];
        uint8_t *hand = &s->hand[p][DW_A1], *side = s->side[w][p].archers;
        store_counts(hand, load_counts(hand) - (c & 0xFFFFFFu));
        s->hand_n[p] = (uint8_t)(s->hand_n[p] - (c >> 24));
        store_counts(side, load_counts(side) + (c & 0xFFFFFFu));
        return w;
    }
    if (a < DW_ACT_FLAG) {
        const int w = (int)(a - DW_ACT_CANNON) / 5, f = DW_C5 + (int)(a - DW_ACT_CANNON) % 5;
        dw_side *sd = &s->side[w][p];
        take_from_hand(s, p, f, 1);
        sd->cannon[sd->ncannon++] = (uint8_t)f; /* DW-5: on top of the stack */
        return w;
    }
    if (a < DW_ACT_ATTACK) {
        const int w = (int)(a - DW_ACT_FLAG);
        take_from_hand(s, p, DW_FLAG, 1);
        s->flag[w] = (uint8_t)(p + 1); /* DW-2: control locks as it stands */
        s->flags_on_board++;
        return -1;
    }
    if (a < DW_ACT_LEADER) {
        const int w = (int)(a - DW_ACT_ATTACK) / 2;
        take_from_hand(s, p, DW_ATTACK, 1);
        apply_attack(s, p, w, (int)(a - DW_ACT_ATTACK) % 2);
        return w;
    }
    if (a < DW_ACT_SPY) {
        const int w = (int)(a - DW_ACT_LEADER) / 6, f = dw_leader_face[(a - DW_ACT_LEADER) % 6];
        take_from_hand(s, p, f, 1);
        s->side[w][p].leaders |= (uint8_t)LB(f);
        return w;
    }
    if (a < DW_ACT_ASSASSIN) {
        const int w = (int)(a - DW_ACT_SPY) / 7;
        take_from_hand(s, p, DW_SPY, 1);
        apply_spy(s, w, (int)(a - DW_ACT_SPY) % 7);
        return w;
    }
    if (a < DW_ACT_DISCARD) {
        const int w = (int)(a - DW_ACT_ASSASSIN) / 8;
        take_from_hand(s, p, DW_ASSASSIN, 1);
        apply_assassin(s, w, (int)(a - DW_ACT_ASSASSIN) % 8);
        return w;
    }
    const int f = (int)(a - DW_ACT_DISCARD);
    take_from_hand(s, p, f, 1);
    s->removed[p][f]++;
    return -1;
}

/* A play, then control of its wall re-evaluated (DW-10). Not inlined, so a refill draw (half
 * of all actions) saves no registers for it. */
static __attribute__((noinline)) void play(dw_state *s, int p, rp_action a)
{
    const int w = apply_play(s, p, a);
    if (w >= 0)
        update_control(s, w);
}

/* Apply a legal action: a play (then control is re-evaluated, DW-10) or one refill draw. */
void dw_apply(void *st, rp_action a)
{
    dw_state *s = st;
    const int p = s->to_move;
    if (a >= DW_ACT_DRAW_PERSONAL) {
        /* Select the deck without a branch: the choice is a coin flip in random playouts. */
        const bool own = a == DW_ACT_DRAW_PERSONAL;
        uint8_t *deck = own ? s->personal[p] : s->main;
        uint8_t *size = own ? &s->personal_n[p] : &s->main_n;
        const int f = deck[--*size];
        deck[*size] = 0;
        s->hand[p][f]++;
        s->hand_n[p]++;
    } else {
        play(s, p, a);
    }
    advance(s);
}

/* DW-12: the side controlling three or more walls wins outright. */
void dw_returns(const void *st, double *out)
{
    const dw_state *s = st;
    const int blue = dw_walls_of(s, DW_BLUE) >= 3;
    out[DW_BLUE] = blue ? 1.0 : 0.0;
    out[DW_RED] = blue ? 0.0 : 1.0;
}
