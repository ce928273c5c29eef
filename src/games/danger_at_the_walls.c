/* danger_at_the_walls.c — Danger at the Walls (Matt Worden, 2014) on the Ramparts interface:
 * the rules (setup, legal plays, apply), the invariants, the notations, and what each viewer is
 * told: views, events, actions as data, explanations, the screen. Rule code cites the shared
 * rulings (DW-n) and this project's rulings (DW-Pn); docs/games/danger-at-the-walls.md holds
 * the notation and the data forms.
 *
 * Action integers (all below DW_NUM_ACTIONS = 1880; walls w are 0..4 here, 1..5 in text):
 *
 *   range        meaning                                    notation
 *   0..1714      Archers: w*343 + n1*49 + n2*7 + n3         archers 1+1+3 wall 2
 *                (n_v Archers of value v, 1..6 in all)
 *   1715..1739   Cannon: 1715 + w*5 + (value-5)             cannon 7 wall 2
 *   1740..1744   Flag: 1740 + w                             flag wall 2
 *   1745..1754   Cannon Attack: 1745 + w*2 + t              attack cannon wall 2 /
 *                (t 0 = top Cannon, 1 = all Archers)        attack archers wall 2
 *   1755..1784   Leader: 1755 + w*6 + l (l 0..5 = General,  king wall 2
 *                Noble, Engineer, King, Wizard, Builder)
 *   1785..1819   Spy: 1785 + w*7 + t (t 0..2 Archer 1..3,   spy archer 2 wall 2 /
 *                3 top Cannon, 4..6 General/Noble/Eng.)     spy cannon wall 2 / spy noble wall 2
 *   1820..1859   Assassin: 1820 + w*8 + t (t 0..2 Archer    assassin archer 1 wall 2 /
 *                1..3, 3 top Cannon, 4..6 King/Wizard/      assassin king wall 2 /
 *                Builder, 7 Spy)                            assassin spy wall 2
 *   1860..1877   Discard (DW-4): 1860 + face                discard cannon 6
 *   1878, 1879   Refill one card from the personal or       draw personal / draw main
 *                main deck (DW-11)
 */
#include "games/danger_at_the_walls.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"
#include "core/text.h"

#define LB(face) (1u << ((face)-DW_GENERAL))

/* Equal states are equal bytes (the notation round trip compares with memcmp): no hidden
 * padding anywhere in the state. */
_Static_assert(offsetof(dw_state, pad_) + sizeof(((dw_state *)0)->pad_) == sizeof(dw_state),
               "dw_state has trailing padding");
_Static_assert(offsetof(dw_state, hand) == sizeof(rp_rng), "dw_state has inner padding");

/* Copies of each face among the 49 playing cards (rulebook "Card Distributions"). */
static const uint8_t TOTAL[DW_FACES] = {13, 7, 5, 1, 3, 1, 3, 1, 4, 3, 1, 1, 1, 1, 1, 1, 1, 1};
/* The main deck (33 cards, with both Flags). */
static const uint8_t MAIN0[DW_FACES] = {13, 7, 5, 1, 1, 1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0};
/* The personal decks: Flag, Cannon Attack, Cannon-6, Cannon-8 and four unique Leaders. */
static const uint8_t PERSONAL0[2][DW_FACES] = {
    {0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}};

/* Card names: one word each, as views, events, the state notation and secret_names spell
 * them. */
static const char *const CARD_NAME[DW_FACES] = {
    "archer-1", "archer-2", "archer-3", "cannon-5", "cannon-6", "cannon-7",
    "cannon-8", "cannon-9", "flag",     "attack",   "general",  "noble",
    "engineer", "assassin", "king",     "wizard",   "builder",  "spy"};
/* The same cards as the move notation writes them ("discard cannon 6"). */
static const char *const FACE_WORDS[DW_FACES] = {
    "archer 1", "archer 2", "archer 3", "cannon 5", "cannon 6", "cannon 7",
    "cannon 8", "cannon 9", "flag",     "attack",   "general",  "noble",
    "engineer", "assassin", "king",     "wizard",   "builder",  "spy"};
/* Seats in data (views, events, notation) and in sentences. */
static const char *const SEAT_NAME[2] = {"blue", "red"};
static const char *const SEAT_TITLE[2] = {"Blue", "Red"};
/* Leader action index l -> face. */
static const uint8_t LEADER_FACE[6] = {DW_GENERAL, DW_NOBLE,  DW_ENGINEER,
                                       DW_KING,    DW_WIZARD, DW_BUILDER};

/* Strength printed on a Cannon face. */
static int cannon_value(int f)
{
    return f - DW_C5 + 5;
}

/* ------------------------------------------------------------------------------------------ */
/* Board queries                                                                              */

/* The Spy covers this wall's Blue top Cannon (DW-8): that Cannon counts for nothing. */
static inline bool spy_on_top_cannon(const dw_state *s, int w)
{
    return s->spy_wall == w + 1 && s->spy_on == DW_SPY_ON_CANNON &&
           s->spy_depth + 1 == s->side[w][DW_BLUE].ncannon;
}

/* Face of `seat`'s active top Cannon at w, or -1 (DW-5: only the top counts; DW-8: a spied
 * top Cannon is not active). */
static inline int active_cannon(const dw_state *s, int w, int seat)
{
    const dw_side *sd = &s->side[w][seat];
    if (sd->ncannon == 0 || (seat == DW_BLUE && spy_on_top_cannon(s, w)))
        return -1;
    return sd->cannon[sd->ncannon - 1];
}

/* Leaders of `seat` at w that are not covered by the Spy. */
static unsigned active_leaders(const dw_state *s, int w, int seat)
{
    unsigned l = s->side[w][seat].leaders;
    if (seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on >= DW_GENERAL &&
        s->spy_on <= DW_ENGINEER)
        l &= ~LB(s->spy_on);
    return l;
}

/* DW-7: Blue = (A*n + C*e)*g, Red = (A + C)*k; Wizard zeroes both A, Builder both C. */
int dw_strength(const dw_state *s, int wall, int seat)
{
    const dw_side *sd = &s->side[wall][seat];
    unsigned red = s->side[wall][DW_RED].leaders;
    int a = sd->archers[0] + 2 * sd->archers[1] + 3 * sd->archers[2];
    int cf = active_cannon(s, wall, seat);
    int c = cf < 0 ? 0 : cannon_value(cf);
    if (red & LB(DW_WIZARD))
        a = 0;
    if (red & LB(DW_BUILDER))
        c = 0;
    if (seat == DW_RED)
        return (red & LB(DW_KING)) ? 2 * (a + c) : a + c;
    unsigned blue = active_leaders(s, wall, DW_BLUE);
    if (blue & LB(DW_NOBLE))
        a *= 2;
    if (blue & LB(DW_ENGINEER))
        c *= 2;
    return (blue & LB(DW_GENERAL)) ? 2 * (a + c) : a + c;
}

/* DW-10 and the Flag lock (DW-2): strictly greater strength takes an unflagged wall. */
static void update_control(dw_state *s, int w)
{
    if (s->flag[w])
        return;
    const int b = dw_strength(s, w, DW_BLUE), r = dw_strength(s, w, DW_RED);
    const uint8_t c = s->control[w];
    s->control[w] = b > r ? (uint8_t)DW_BLUE : r > b ? (uint8_t)DW_RED : c;
}

/* Whether the Spy is visible: not buried under a newer Blue Cannon (DW-9, DW-P2). */
static bool spy_visible(const dw_state *s)
{
    if (!s->spy_wall)
        return false;
    if (s->spy_on != DW_SPY_ON_CANNON)
        return true;
    return spy_on_top_cannon(s, s->spy_wall - 1);
}

/* How many walls `seat` controls (three or more win, DW-12). */
static int walls_of(const dw_state *s, int seat)
{
    int n = 0;
    for (int w = 0; w < DW_WALLS; w++)
        n += s->control[w] == seat;
    return n;
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

/* (2+1)^3 - 1 = 26 sub-multisets at most, for a hand of two Archers of each value. */
static const uint16_t archer_offsets[343][26] = {BY_KEY(SUB_ROW)};
static const uint8_t archer_count[343] = {BY_KEY(SUB_COUNT)};

/* ------------------------------------------------------------------------------------------ */
/* Setup                                                                                      */

static const rp_option_spec DW_OPTIONS[1] = {{0}};

/* DW-1: shuffled main deck without Flags, six cards each (Blue first, alternating), Flag A
 * with 9..11 cards above it, then Flag B with at least 10 above it; personal decks shuffled. */
static int dw_init(void *st, const rp_config *cfg, rp_error *err)
{
    (void)err;
    dw_state *s = st;
    memset(s, 0, sizeof *s);
    rp_rng_seed(&s->rng, cfg->seed, 0xD4A11u);
    uint8_t deck[DW_MAIN + 12];
    int n = 0;
    for (int f = 0; f < DW_FACES; f++)
        for (int c = 0; c < MAIN0[f] - (f == DW_FLAG ? 2 : 0); c++)
            deck[n++] = (uint8_t)f;
    rp_rng_shuffle_u8(&s->rng, deck, n); /* deck[0] is the top */
    for (int i = 0; i < 2 * DW_HAND; i++) {
        s->hand[i & 1][deck[i]]++;
        s->hand_n[i & 1]++;
    }
    uint8_t rest[DW_MAIN];
    int m = 0;
    for (int i = 2 * DW_HAND; i < n; i++)
        rest[m++] = deck[i];
    int a = 9 + (int)rp_rng_below(&s->rng, 3);
    memmove(rest + a + 1, rest + a, (size_t)(m - a));
    rest[a] = DW_FLAG;
    m++;
    int b = 10 + (int)rp_rng_below(&s->rng, (uint32_t)(m - 10 + 1));
    memmove(rest + b + 1, rest + b, (size_t)(m - b));
    rest[b] = DW_FLAG;
    m++;
    for (int i = 0; i < m; i++)
        s->main[i] = rest[m - 1 - i];
    s->main_n = (uint8_t)m;
    for (int p = 0; p < 2; p++) {
        int k = 0;
        for (int f = 0; f < DW_FACES; f++)
            if (PERSONAL0[p][f])
                s->personal[p][k++] = (uint8_t)f;
        rp_rng_shuffle_u8(&s->rng, s->personal[p], k);
        s->personal_n[p] = (uint8_t)k;
    }
    for (int w = 0; w < DW_WALLS; w++)
        s->control[w] = DW_RED; /* DW-1: Red side up */
    s->to_move = DW_BLUE;
    s->turn = 1;
    return RP_OK;
}

/* Always two: Blue (seat 0) and Red (seat 1). */
static int dw_num_players(const void *st)
{
    (void)st;
    return 2;
}

/* The seat to act, or RP_TERMINAL once DW-12 has ended the game. */
static int dw_current_player(const void *st)
{
    const dw_state *s = st;
    return s->over ? RP_TERMINAL : s->to_move;
}

/* The turn in progress: Blue plays turns 1, 3, 5..., Red 2, 4, 6... */
static int dw_turn_number(const void *st)
{
    const dw_state *s = st;
    return s->turn;
}

/* ------------------------------------------------------------------------------------------ */
/* Legal actions                                                                              */

/* Every play of the hand (DW-3), or the discards of DW-4 when none exists. */
static int legal_plays(const dw_state *s, rp_action *out)
{
    const int p = s->to_move, q = p ^ 1;
    const uint8_t *h = s->hand[p];
    int n = 0;
    const int m1 = h[DW_A1], m2 = h[DW_A2], m3 = h[DW_A3];
    if (m1 | m2 | m3) {
        /* The sub-multisets of the hand's Archers come from a table; one copy per wall. */
        const int key = m1 * 49 + m2 * 7 + m3, k = archer_count[key];
        const uint16_t *off = archer_offsets[key];
        for (int w = 0; w < DW_WALLS; w++, n += k)
            for (int i = 0; i < k; i++)
                out[n + i] = (rp_action)(DW_ACT_ARCHERS + w * 343 + off[i]);
    }
    /* Cannon faces held: one bit per non-zero count byte (counts are below 0x80, so adding
     * 0x7f sets a byte's top bit exactly when it is non-zero, with no carry between bytes). */
    uint64_t counts = 0; /* faces DW_A1..DW_C9 as bytes 0..7 (compiles to one load) */
    for (int i = 7; i >= 0; i--)
        counts = counts << 8 | h[i];
    uint64_t held = (counts + 0x7F7F7F7F7F7F7F7Full) & 0x8080808080000000ull; /* C5..C9 */
    for (; held; held &= held - 1) {
        const int f = __builtin_ctzll(held) >> 3;
        for (int w = 0; w < DW_WALLS; w++)
            out[n + w] = (rp_action)(DW_ACT_CANNON + w * 5 + f - DW_C5);
        n += DW_WALLS;
    }
    if (h[DW_FLAG])
        for (int w = 0; w < DW_WALLS; w++) {
            out[n] = (rp_action)(DW_ACT_FLAG + w);
            n += !s->flag[w]; /* DW-2 */
        }
    if (h[DW_ATTACK]) {
        /* The wall whose Blue top Cannon the Spy covers, or -1; then no branch per wall. */
        const int spied =
            (s->spy_wall && spy_on_top_cannon(s, s->spy_wall - 1)) ? s->spy_wall - 1 : -1;
        for (int w = 0; w < DW_WALLS; w++) {
            const dw_side *own = &s->side[w][p], *opp = &s->side[w][q];
            /* DW-6: own active top Cannon; DW-P1: a spied Cannon cannot be moved */
            const int mine = (own->ncannon != 0) & ((p == DW_RED) | (w != spied));
            const int theirs = (opp->ncannon != 0) & ((q == DW_RED) | (w != spied));
            const int archers = (opp->archers[0] | opp->archers[1] | opp->archers[2]) != 0;
            out[n] = (rp_action)(DW_ACT_ATTACK + w * 2);
            n += mine & theirs;
            out[n] = (rp_action)(DW_ACT_ATTACK + w * 2 + 1);
            n += mine & archers;
        }
    }
    /* Leaders at walls: this side's three are consecutive faces; same bit trick. */
    const int l0 = p * 3, f0 = LEADER_FACE[l0];
    uint32_t lead = (uint32_t)h[f0] | (uint32_t)h[f0 + 1] << 8 | (uint32_t)h[f0 + 2] << 16;
    for (lead = (lead + 0x7F7F7Fu) & 0x808080u; lead; lead &= lead - 1) {
        const int l = l0 + (__builtin_ctz(lead) >> 3);
        for (int w = 0; w < DW_WALLS; w++)
            out[n + w] = (rp_action)(DW_ACT_LEADER + w * 6 + l);
        n += DW_WALLS;
    }
    if (p == DW_RED && h[DW_SPY]) /* DW-8: any Blue card in play that shows */
        for (int w = 0; w < DW_WALLS; w++) {
            const dw_side *b = &s->side[w][DW_BLUE];
            const int base = DW_ACT_SPY + w * 7;
            /* write each target, keep it when present (no data-dependent branch) */
            for (int v = 0; v < 3; v++) {
                out[n] = (rp_action)(base + v);
                n += b->archers[v] != 0;
            }
            out[n] = (rp_action)(base + 3);
            n += b->ncannon != 0;
            for (int l = 0; l < 3; l++) {
                out[n] = (rp_action)(base + 4 + l);
                n += (b->leaders >> l) & 1;
            }
        }
    if (p == DW_BLUE && h[DW_ASSASSIN]) /* DW-9: any visible Red card in play */
        for (int w = 0; w < DW_WALLS; w++) {
            const dw_side *r = &s->side[w][DW_RED];
            const int base = DW_ACT_ASSASSIN + w * 8;
            for (int v = 0; v < 3; v++) {
                out[n] = (rp_action)(base + v);
                n += r->archers[v] != 0;
            }
            out[n] = (rp_action)(base + 3);
            n += r->ncannon != 0;
            for (int l = 0; l < 3; l++) {
                out[n] = (rp_action)(base + 4 + l);
                n += (r->leaders >> (DW_KING - DW_GENERAL + l)) & 1;
            }
            out[n] = (rp_action)(base + 7);
            n += s->spy_wall == w + 1 && spy_visible(s);
        }
    if (n == 0) /* DW-4 */
        for (int f = 0; f < DW_FACES; f++)
            if (h[f])
                out[n++] = (rp_action)(DW_ACT_DISCARD + f);
    return n;
}

/* The player's legal actions: a play, or during the refill the decks to draw from (DW-11). */
static int dw_legal_actions(const void *st, rp_action *out)
{
    const dw_state *s = st;
    if (s->over)
        return 0;
    if (s->phase == DW_PHASE_PLAY)
        return legal_plays(s, out);
    int n = 0;
    if (s->personal_n[s->to_move])
        out[n++] = DW_ACT_DRAW_PERSONAL;
    if (s->main_n)
        out[n++] = DW_ACT_DRAW_MAIN;
    return n;
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
        const int w = (int)a / 343, r = (int)a % 343;
        const int c[3] = {r / 49, (r / 7) % 7, r % 7};
        for (int v = 0; v < 3; v++) {
            take_from_hand(s, p, DW_A1 + v, c[v]);
            s->side[w][p].archers[v] = (uint8_t)(s->side[w][p].archers[v] + c[v]);
        }
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
        const int w = (int)(a - DW_ACT_LEADER) / 6, f = LEADER_FACE[(a - DW_ACT_LEADER) % 6];
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

/* Apply a legal action: a play (then control is re-evaluated, DW-10) or one refill draw. */
static void dw_apply(void *st, rp_action a)
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
        const int w = apply_play(s, p, a);
        if (w >= 0)
            update_control(s, w);
    }
    advance(s);
    RP_DEBUG_STATE_OK(&rp_danger_at_the_walls, s);
}

/* DW-12: the side controlling three or more walls wins outright. */
static void dw_returns(const void *st, double *out)
{
    const dw_state *s = st;
    const int blue = walls_of(s, DW_BLUE) >= 3;
    out[DW_BLUE] = blue ? 1.0 : 0.0;
    out[DW_RED] = blue ? 0.0 : 1.0;
}

/* ------------------------------------------------------------------------------------------ */
/* Action notation                                                                            */

static const char *const SPY_TARGET[7] = {"archer 1", "archer 2", "archer 3", "cannon",
                                          "general",  "noble",    "engineer"};
static const char *const ASSASSIN_TARGET[8] = {"archer 1", "archer 2", "archer 3", "cannon",
                                               "king",     "wizard",   "builder",  "spy"};

/* Text of an action; it depends only on the action id, so any state will do. */
static int dw_action_to_text(const void *st, rp_action a, char *buf, size_t size)
{
    (void)st;
    if (a >= DW_NUM_ACTIONS || size == 0)
        return -1;
    int len;
    if (a < DW_ACT_CANNON) {
        const int r = (int)a % 343;
        const int c[3] = {r / 49, (r / 7) % 7, r % 7};
        char list[48]; /* up to 18 values joined by '+' */
        int k = 0;
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < c[v]; i++)
                k += snprintf(list + k, sizeof list - (size_t)k, "%s%d", k ? "+" : "", v + 1);
        if (k == 0)
            return -1;
        len = snprintf(buf, size, "archers %s wall %d", list, (int)a / 343 + 1);
    } else if (a < DW_ACT_FLAG) {
        const int i = (int)(a - DW_ACT_CANNON);
        len = snprintf(buf, size, "cannon %d wall %d", 5 + i % 5, i / 5 + 1);
    } else if (a < DW_ACT_ATTACK) {
        len = snprintf(buf, size, "flag wall %d", (int)(a - DW_ACT_FLAG) + 1);
    } else if (a < DW_ACT_LEADER) {
        const int i = (int)(a - DW_ACT_ATTACK);
        len = snprintf(buf, size, "attack %s wall %d", i % 2 ? "archers" : "cannon", i / 2 + 1);
    } else if (a < DW_ACT_SPY) {
        const int i = (int)(a - DW_ACT_LEADER);
        len = snprintf(buf, size, "%s wall %d", FACE_WORDS[LEADER_FACE[i % 6]], i / 6 + 1);
    } else if (a < DW_ACT_ASSASSIN) {
        const int i = (int)(a - DW_ACT_SPY);
        len = snprintf(buf, size, "spy %s wall %d", SPY_TARGET[i % 7], i / 7 + 1);
    } else if (a < DW_ACT_DISCARD) {
        const int i = (int)(a - DW_ACT_ASSASSIN);
        len = snprintf(buf, size, "assassin %s wall %d", ASSASSIN_TARGET[i % 8], i / 8 + 1);
    } else if (a < DW_ACT_DRAW_PERSONAL) {
        len = snprintf(buf, size, "discard %s", FACE_WORDS[a - DW_ACT_DISCARD]);
    } else {
        len = snprintf(buf, size, "draw %s", a == DW_ACT_DRAW_PERSONAL ? "personal" : "main");
    }
    return (len < 0 || (size_t)len >= size) ? -1 : len;
}

#define MAX_TOKENS 8

/* Split lower-cased text into at most MAX_TOKENS words; returns the count or -1. */
static int tokenize(const char *text, char *copy, size_t size, char **tok)
{
    size_t len = strlen(text);
    if (len >= size)
        return -1;
    for (size_t i = 0; i <= len; i++)
        copy[i] = (char)tolower((unsigned char)text[i]);
    int n = 0;
    for (char *p = copy; *p;) {
        while (*p && isspace((unsigned char)*p))
            *p++ = '\0';
        if (!*p)
            break;
        if (n == MAX_TOKENS)
            return -1;
        tok[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
    }
    return n;
}

/* A small whole number written with one digit in [lo, hi], or -1. */
static int digit_in(const char *t, int lo, int hi)
{
    if (!t || t[0] < '0' || t[0] > '9' || t[1])
        return -1;
    const int v = t[0] - '0';
    return (v >= lo && v <= hi) ? v : -1;
}

/* "wall N" at tok[i], tok[i+1]; returns the wall 0..4 or -1. */
static int parse_wall(char **tok, int n, int i)
{
    if (i + 2 != n || strcmp(tok[i], "wall") != 0)
        return -1;
    const int w = digit_in(tok[i + 1], 1, DW_WALLS);
    return w < 0 ? -1 : w - 1;
}

/* A face written as its name ("archer 2", "cannon 6", "flag", "spy"); returns the face and
 * the number of words used, or -1. */
static int parse_face(char **tok, int n, int i, int *used)
{
    if (i >= n)
        return -1;
    if (strcmp(tok[i], "archer") == 0 || strcmp(tok[i], "cannon") == 0) {
        const bool archer = tok[i][0] == 'a';
        const int v = i + 1 < n ? digit_in(tok[i + 1], archer ? 1 : 5, archer ? 3 : 9) : -1;
        if (v < 0)
            return -1;
        *used = 2;
        return archer ? DW_A1 + v - 1 : DW_C5 + v - 5;
    }
    for (int f = DW_FLAG; f < DW_FACES; f++)
        if (strcmp(tok[i], FACE_WORDS[f]) == 0) {
            *used = 1;
            return f;
        }
    return -1;
}

/* "1+1+3": counts per Archer value, 1..6 Archers in all. */
static bool parse_archer_list(const char *t, int c[3])
{
    c[0] = c[1] = c[2] = 0;
    int total = 0;
    for (;;) {
        if (*t < '1' || *t > '3')
            return false;
        c[*t - '1']++;
        total++;
        t++;
        if (!*t)
            break;
        if (*t++ != '+')
            return false;
    }
    return total <= DW_HAND;
}

/* Index of a target word (one or two words) in `names`, with the words used; or -1. */
static int parse_target(char **tok, int n, int i, const char *const *names, int count, int *used)
{
    for (int k = 0; k < count; k++) {
        const char *sp = strchr(names[k], ' ');
        if (!sp) {
            if (i < n && strcmp(tok[i], names[k]) == 0) {
                *used = 1;
                return k;
            }
        } else if (i + 1 < n && strncmp(tok[i], names[k], (size_t)(sp - names[k])) == 0 &&
                   tok[i][sp - names[k]] == '\0' && strcmp(tok[i + 1], sp + 1) == 0) {
            *used = 2;
            return k;
        }
    }
    return -1;
}

#define PARSE_HELP                                                                                 \
    "expected e.g. 'archers 1+2 wall 3', 'cannon 7 wall 1', 'flag wall 2', 'attack cannon "        \
    "wall 4', 'king wall 5', 'spy archer 2 wall 1', 'assassin spy wall 3', 'discard attack', "     \
    "'draw personal' or 'draw main'"

/* Parse a play written as by dw_action_to_text (any case, any spacing). */
static int dw_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    (void)st;
    char copy[RP_ACTION_TEXT * 2];
    char *tok[MAX_TOKENS];
    const int n = tokenize(text, copy, sizeof copy, tok);
    if (n <= 0)
        return rp_fail(err, RP_EPARSE, "cannot read the move '%s': %s", text, PARSE_HELP);
    const char *verb = tok[0];
    int used = 0, w = -1;
    if ((strcmp(verb, "archers") == 0 || strcmp(verb, "archer") == 0) && n == 4) {
        int c[3];
        if (!parse_archer_list(tok[1], c))
            return rp_fail(err, RP_EPARSE,
                           "'%s': the Archers are values 1-3 joined by '+' "
                           "(at most 6), e.g. 'archers 1+1+3 wall 2'",
                           text);
        if ((w = parse_wall(tok, n, 2)) < 0)
            goto bad_wall;
        *out = (rp_action)(DW_ACT_ARCHERS + w * 343 + c[0] * 49 + c[1] * 7 + c[2]);
        return RP_OK;
    }
    if (strcmp(verb, "cannon") == 0) {
        const int v = n > 1 ? digit_in(tok[1], 5, 9) : -1;
        if (v < 0)
            return rp_fail(err, RP_EPARSE, "'%s': a Cannon has a value from 5 to 9", text);
        if ((w = parse_wall(tok, n, 2)) < 0)
            goto bad_wall;
        *out = (rp_action)(DW_ACT_CANNON + w * 5 + v - 5);
        return RP_OK;
    }
    if (strcmp(verb, "flag") == 0) {
        if ((w = parse_wall(tok, n, 1)) < 0)
            goto bad_wall;
        *out = (rp_action)(DW_ACT_FLAG + w);
        return RP_OK;
    }
    if (strcmp(verb, "attack") == 0) {
        const int t = n > 1 ? (strcmp(tok[1], "cannon") == 0    ? 0
                               : strcmp(tok[1], "archers") == 0 ? 1
                                                                : -1)
                            : -1;
        if (t < 0)
            return rp_fail(err, RP_EPARSE, "'%s': attack 'cannon' or 'archers'", text);
        if ((w = parse_wall(tok, n, 2)) < 0)
            goto bad_wall;
        *out = (rp_action)(DW_ACT_ATTACK + w * 2 + t);
        return RP_OK;
    }
    for (int l = 0; l < 6; l++)
        if (strcmp(verb, FACE_WORDS[LEADER_FACE[l]]) == 0) {
            if ((w = parse_wall(tok, n, 1)) < 0)
                goto bad_wall;
            *out = (rp_action)(DW_ACT_LEADER + w * 6 + l);
            return RP_OK;
        }
    if (strcmp(verb, "spy") == 0 || strcmp(verb, "assassin") == 0) {
        const bool spy = verb[0] == 's';
        const int t =
            parse_target(tok, n, 1, spy ? SPY_TARGET : ASSASSIN_TARGET, spy ? 7 : 8, &used);
        if (t < 0)
            return rp_fail(err, RP_EPARSE, "'%s': the %s targets %s", text, verb,
                           spy ? "archer 1-3, cannon, general, noble or engineer"
                               : "archer 1-3, cannon, king, wizard, builder or spy");
        if ((w = parse_wall(tok, n, 1 + used)) < 0)
            goto bad_wall;
        *out = (rp_action)(spy ? DW_ACT_SPY + w * 7 + t : DW_ACT_ASSASSIN + w * 8 + t);
        return RP_OK;
    }
    if (strcmp(verb, "discard") == 0) {
        const int f = parse_face(tok, n, 1, &used);
        if (f < 0 || 1 + used != n)
            return rp_fail(err, RP_EPARSE,
                           "'%s': discard names one card, e.g. 'discard "
                           "attack' or 'discard cannon 6'",
                           text);
        *out = (rp_action)(DW_ACT_DISCARD + f);
        return RP_OK;
    }
    if (strcmp(verb, "draw") == 0 && n == 2) {
        if (strcmp(tok[1], "personal") == 0 || strcmp(tok[1], "main") == 0) {
            *out = tok[1][0] == 'p' ? DW_ACT_DRAW_PERSONAL : DW_ACT_DRAW_MAIN;
            return RP_OK;
        }
        return rp_fail(err, RP_EPARSE, "'%s': draw from 'personal' or 'main'", text);
    }
    return rp_fail(err, RP_EPARSE, "cannot read the move '%s': %s", text, PARSE_HELP);
bad_wall:
    return rp_fail(err, RP_EPARSE, "'%s': the move must end with 'wall N', N from 1 to 5", text);
}

/* ------------------------------------------------------------------------------------------ */
/* Invariants                                                                                 */

/* The leaders each seat plays at walls (the Assassin and the Spy never stay on its side). */
static const uint8_t WALL_LEADERS[2] = {LB(DW_GENERAL) | LB(DW_NOBLE) | LB(DW_ENGINEER),
                                        LB(DW_KING) | LB(DW_WIZARD) | LB(DW_BUILDER)};
/* Faces a seat's hand or removed pile may hold: all but the other side's leaders. */
static const uint8_t HAND_FACES[2][DW_FACES] = {
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}};

/* A card name for any byte: the writer may be asked to print a broken state (the debug check
 * does, to show it), so it never indexes out of bounds. */
static const char *card_name(int f)
{
    return f >= 0 && f < DW_FACES ? CARD_NAME[f] : "?";
}

/* names[v], or "?" when v is out of range (see card_name). */
static const char *name_of(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

/* Format a reason into why and return it (for the checks below). */
static const char *say(char *why, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static const char *say(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return why;
}

/* A deck: n cards of real faces, and zeros after them (equal states are equal bytes). */
static bool list_ok(const uint8_t *faces, int n, int capacity)
{
    for (int i = 0; i < capacity; i++)
        if (i < n ? faces[i] >= DW_FACES : faces[i] != 0)
            return false;
    return true;
}

/* One side of a wall: Archer counts possible, a Cannon stack of Cannons with zeros above it,
 * and only that seat's wall leaders. */
static const char *check_side(const dw_state *s, int w, int seat, char *why, size_t size)
{
    const dw_side *sd = &s->side[w][seat];
    for (int v = 0; v < 3; v++)
        if (sd->archers[v] > TOTAL[DW_A1 + v])
            return say(why, size, "wall %d holds %d %s for %s", w + 1, sd->archers[v],
                       CARD_NAME[DW_A1 + v], SEAT_TITLE[seat]);
    if (sd->ncannon > sizeof sd->cannon)
        return say(why, size, "%s's Cannon stack at wall %d is %d high", SEAT_TITLE[seat], w + 1,
                   sd->ncannon);
    for (int i = 0; i < (int)sizeof sd->cannon; i++) {
        const bool in_stack = i < sd->ncannon;
        if (in_stack ? sd->cannon[i] < DW_C5 || sd->cannon[i] > DW_C9 : sd->cannon[i] != 0)
            return say(why, size,
                       "%s's Cannon stack at wall %d holds something else than "
                       "Cannons",
                       SEAT_TITLE[seat], w + 1);
    }
    if (sd->leaders & ~WALL_LEADERS[seat])
        return say(why, size, "%s's side of wall %d holds a leader %s does not play at walls",
                   SEAT_TITLE[seat], w + 1, SEAT_TITLE[seat]);
    return NULL;
}

/* Where the Spy is: nowhere (all its fields zero), or on a Blue card that is there (DW-8). */
static const char *check_spy(const dw_state *s)
{
    if (!s->spy_wall)
        return s->spy_on || s->spy_depth ? "the Spy is not in play, yet it has a target" : NULL;
    if (s->spy_wall > DW_WALLS)
        return "the Spy is at a wall that does not exist";
    const dw_side *b = &s->side[s->spy_wall - 1][DW_BLUE];
    if (s->spy_on == DW_SPY_ON_CANNON)
        return s->spy_depth < b->ncannon ? NULL
                                         : "the Spy's Cannon is not in that wall's Blue stack";
    if (s->spy_depth)
        return "the Spy covers no Cannon, yet it has a stack position";
    if (s->spy_on <= DW_A3)
        return NULL; /* the spied Archer is kept apart from the counted ones */
    if (s->spy_on < DW_GENERAL || s->spy_on > DW_ENGINEER)
        return "the Spy covers an Archer, a Cannon, the General, the Noble or the Engineer";
    return b->leaders & LB(s->spy_on) ? NULL : "the Spy covers a leader that is not on that wall";
}

/* Every field in its range, so the checks after this one may index with any of them. */
static const char *check_ranges(const dw_state *s, char *why, size_t size)
{
    static const uint8_t zero[sizeof s->pad_];
    if (!(s->rng.inc & 1))
        return "the generator's increment is even";
    if (s->to_move > 1 || s->phase > 1 || s->over > 1 || s->last_turn > DW_LAST_EMPTY_HAND)
        return "the seat to act, the phase, the last-turn reason or the game-over flag is out "
               "of range";
    if (s->turn < 1 || s->turn > DW_MAX_TURNS)
        return say(why, size, "turn %d is not in 1..%d", s->turn, DW_MAX_TURNS);
    if (memcmp(s->pad_, zero, sizeof zero) != 0)
        return "the padding bytes are not zero";
    for (int p = 0; p < 2; p++) {
        int n = 0;
        for (int f = 0; f < DW_FACES; f++) {
            if (s->hand[p][f] > TOTAL[f] || s->removed[p][f] > TOTAL[f])
                return say(why, size, "%s holds or lost %s more often than the game has it",
                           SEAT_TITLE[p], CARD_NAME[f]);
            n += s->hand[p][f];
        }
        if (n != s->hand_n[p] || n > DW_HAND)
            return say(why, size, "%s's hand holds %d cards, counted %d (6 at most)", SEAT_TITLE[p],
                       n, s->hand_n[p]);
        if (s->personal_n[p] > DW_PERSONAL ||
            !list_ok(s->personal[p], s->personal_n[p], DW_PERSONAL))
            return say(why, size, "%s's personal deck is malformed", SEAT_TITLE[p]);
    }
    if (s->main_n > DW_MAIN || !list_ok(s->main, s->main_n, DW_MAIN))
        return "the main deck is malformed";
    int flags = 0;
    for (int w = 0; w < DW_WALLS; w++) {
        for (int seat = 0; seat < 2; seat++) {
            const char *bad = check_side(s, w, seat, why, size);
            if (bad)
                return bad;
        }
        if (s->control[w] > 1 || s->flag[w] > 2)
            return say(why, size, "wall %d has no valid controller or Flag", w + 1);
        flags += s->flag[w] != 0;
    }
    if (flags != s->flags_on_board)
        return say(why, size, "%d Flags are on walls, counted %d", flags, s->flags_on_board);
    return check_spy(s);
}

/* Counts per face of the cards `seat` has put into play: its sides of the walls, the Flags
 * it played, its removed pile, and the Spy on the board for Red. */
static void played_by(const dw_state *s, int seat, uint8_t *out)
{
    memcpy(out, s->removed[seat], DW_FACES);
    for (int w = 0; w < DW_WALLS; w++) {
        const dw_side *sd = &s->side[w][seat];
        for (int v = 0; v < 3; v++)
            out[DW_A1 + v] = (uint8_t)(out[DW_A1 + v] + sd->archers[v]);
        for (int i = 0; i < sd->ncannon; i++)
            out[sd->cannon[i]]++;
        for (int f = DW_GENERAL; f < DW_FACES; f++)
            if (sd->leaders & LB(f))
                out[f]++;
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

/* All 49 cards, each where it can be: the main deck holds main-deck cards, a personal deck
 * its own cards, and a card gone from a personal deck is in its owner's hand or play. */
static const char *check_cards(const dw_state *s, char *why, size_t size)
{
    uint8_t played[2][DW_FACES], mainc[DW_FACES] = {0}, pers[2][DW_FACES] = {{0}};
    played_by(s, DW_BLUE, played[DW_BLUE]);
    played_by(s, DW_RED, played[DW_RED]);
    for (int i = 0; i < s->main_n; i++)
        mainc[s->main[i]]++;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < s->personal_n[p]; i++)
            pers[p][s->personal[p][i]]++;
    for (int f = 0; f < DW_FACES; f++) {
        int sum = mainc[f];
        for (int p = 0; p < 2; p++)
            sum += s->hand[p][f] + played[p][f] + pers[p][f];
        if (sum != TOTAL[f])
            return say(why, size, "there are %d cards %s, the game has %d", sum, CARD_NAME[f],
                       TOTAL[f]);
        if (mainc[f] > MAIN0[f])
            return say(why, size, "the main deck holds %d %s, it started with %d", mainc[f],
                       CARD_NAME[f], MAIN0[f]);
        for (int p = 0; p < 2; p++) {
            if (s->hand[p][f] && !HAND_FACES[p][f])
                return say(why, size, "%s holds %s, a card of the other side", SEAT_TITLE[p],
                           CARD_NAME[f]);
            if (s->removed[p][f] && !HAND_FACES[p][f])
                return say(why, size, "%s's removed pile holds %s, a card of the other side",
                           SEAT_TITLE[p], CARD_NAME[f]);
            if (pers[p][f] > PERSONAL0[p][f])
                return say(why, size, "%s's personal deck cannot hold %s %d times", SEAT_TITLE[p],
                           CARD_NAME[f], pers[p][f]);
            if (s->hand[p][f] + played[p][f] < PERSONAL0[p][f] - pers[p][f])
                return say(why, size,
                           "%s's %s left the personal deck but is neither in %s's "
                           "hand nor played by %s",
                           SEAT_TITLE[p], CARD_NAME[f], SEAT_TITLE[p], SEAT_TITLE[p]);
        }
    }
    return NULL;
}

/* DW-10: an unflagged wall belongs to the stronger side (on a tie, to either). */
static const char *check_control(const dw_state *s, char *why, size_t size)
{
    for (int w = 0; w < DW_WALLS; w++) {
        const int b = dw_strength(s, w, DW_BLUE), r = dw_strength(s, w, DW_RED);
        if (!s->flag[w] && b != r && s->control[w] != (b > r ? DW_BLUE : DW_RED))
            return say(why, size,
                       "wall %d is unflagged and %s is stronger (%d to %d), so %s "
                       "controls it (DW-10)",
                       w + 1, SEAT_TITLE[b < r], b > r ? b : r, b > r ? r : b, SEAT_TITLE[b < r]);
    }
    return NULL;
}

/* The turn: Blue plays the odd turns, each turn so far played a card, the phase can be played,
 * and the end of DW-12 stands where it must. */
static const char *check_turn(const dw_state *s, char *why, size_t size)
{
    const int p = s->to_move, q = p ^ 1;
    if (p != ((s->turn - 1) & 1))
        return say(why, size, "turn %d is %s's (Blue plays the odd turns)", s->turn,
                   SEAT_TITLE[(s->turn - 1) & 1]);
    uint8_t played[2][DW_FACES];
    played_by(s, DW_BLUE, played[DW_BLUE]);
    played_by(s, DW_RED, played[DW_RED]);
    int out = 0;
    for (int f = 0; f < DW_FACES; f++)
        out += played[DW_BLUE][f] + played[DW_RED][f];
    const int plays = s->turn - 1 + (s->phase == DW_PHASE_REFILL);
    if (out < plays)
        return say(why, size, "%d plays were made by turn %d, but only %d cards were played", plays,
                   s->turn, out);
    if (s->last_turn == DW_LAST_FLAGS && s->flags_on_board < 3)
        return "the last turn is due to the third Flag, but fewer are on the board";
    if (s->last_turn == DW_LAST_EMPTY_HAND && (s->hand_n[q] || s->personal_n[q] || s->main_n))
        return "the last turn is due to an empty hand, but the other player still has cards "
               "to hold or draw";
    if (s->over)
        return s->last_turn && s->phase == DW_PHASE_PLAY
                   ? NULL
                   : "a finished game has had its last turn and is not refilling";
    if (s->phase == DW_PHASE_PLAY && s->hand_n[p] == 0)
        return "the player to play has no card in hand";
    if (s->phase == DW_PHASE_REFILL &&
        (s->hand_n[p] >= DW_HAND || (!s->personal_n[p] && !s->main_n)))
        return "a refill needs fewer than 6 cards in hand and a card in a deck";
    if (!s->last_turn && s->hand_n[q] == 0)
        return "the opponent's hand is empty, so this must be the last turn (DW-12)";
    if (!s->last_turn && s->phase == DW_PHASE_PLAY && s->flags_on_board >= 3)
        return "three Flags are on the board, so this must be the last turn (DW-12)";
    return NULL;
}

/* Every invariant of a state reached by play, first the ranges (so the rest may index). */
static int dw_state_ok(const void *st, rp_error *err)
{
    const dw_state *s = st;
    char why[RP_ERROR_TEXT];
    const char *bad = check_ranges(s, why, sizeof why);
    if (!bad)
        bad = check_cards(s, why, sizeof why);
    if (!bad)
        bad = check_control(s, why, sizeof why);
    if (!bad)
        bad = check_turn(s, why, sizeof why);
    return bad ? rp_fail(err, RP_EINVAL, "%s", bad) : RP_OK;
}

/* Always two players, and no other option. */
static void dw_config_of(const void *st, rp_config *cfg)
{
    (void)st;
    cfg->players = 2;
}

/* ------------------------------------------------------------------------------------------ */
/* Full-state notation (the format: docs/games/danger-at-the-walls.md)                        */

static const char *const PHASE_NAME[2] = {"play", "refill"};
static const char *const LAST_NAME[3] = {"no", "flags", "empty"};
static const char *const FLAG_NAME[3] = {"none", "blue", "red"};
static const char *const WALL_KEY[DW_WALLS] = {"wall1", "wall2", "wall3", "wall4", "wall5"};
static const char *const HAND_KEY[2] = {"blue-hand", "red-hand"};
static const char *const DECK_KEY[2] = {"blue-deck", "red-deck"};
static const char *const REMOVED_KEY[2] = {"blue-removed", "red-removed"};

/* One item of a ',' list. */
static void put_item(rp_text *t, int *n, const char *name)
{
    rp__put_sep(t, n, ',');
    rp__text_str(t, name);
}

/* Counted cards by name in face order, '-' for none (hands, removed piles). */
static void put_counts(rp_text *t, const uint8_t *counts)
{
    int n = 0;
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < counts[f] && i < 64; i++)
            put_item(t, &n, CARD_NAME[f]);
    rp__put_list_end(t, n);
}

/* Cards in their order (decks bottom to top), '-' for none. */
static void put_faces(rp_text *t, const uint8_t *faces, int n, int capacity)
{
    int k = 0;
    for (int i = 0; i < n && i < capacity; i++)
        put_item(t, &k, card_name(faces[i]));
    rp__put_list_end(t, k);
}

/* One side of a wall: Archers by value (the spied one included), the Cannon stack bottom to
 * top, then leaders. */
static void put_side(rp_text *t, const dw_state *s, int w, int seat)
{
    const dw_side *sd = &s->side[w][seat];
    int n = 0;
    for (int v = 0; v < 3; v++) {
        const int spied = seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on == DW_A1 + v;
        for (int i = 0; i < sd->archers[v] + spied && i < 64; i++)
            put_item(t, &n, CARD_NAME[DW_A1 + v]);
    }
    for (int i = 0; i < sd->ncannon && i < (int)sizeof sd->cannon; i++)
        put_item(t, &n, card_name(sd->cannon[i]));
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        if (sd->leaders & LB(f))
            put_item(t, &n, CARD_NAME[f]);
    rp__put_list_end(t, n);
}

/* " key=word" with word names[v]; " key=w1,w2,..." for the five walls. */
static void put_word(rp_text *t, const char *key, const char *const *names, int n, int v)
{
    rp__put_key(t, key);
    rp__text_str(t, name_of(names, n, v));
}

static void put_per_wall(rp_text *t, const char *key, const char *const *names, int n,
                         const uint8_t *values)
{
    rp__put_key(t, key);
    for (int w = 0, k = 0; w < DW_WALLS; w++)
        put_item(t, &k, name_of(names, n, values[w]));
}

/* The referee's one-line notation; exact inverse of dw_state_from_text. */
static int dw_state_to_text(const void *st, char *buf, size_t size)
{
    const dw_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, "dw2");
    rp__put_key(&t, "turn");
    rp__put_uint(&t, s->turn);
    put_word(&t, "to", SEAT_NAME, 2, s->to_move);
    put_word(&t, "phase", PHASE_NAME, 2, s->phase);
    put_word(&t, "last", LAST_NAME, 3, s->last_turn);
    rp__put_key(&t, "over");
    rp__put_uint(&t, s->over);
    put_per_wall(&t, "control", SEAT_NAME, 2, s->control);
    put_per_wall(&t, "flags", FLAG_NAME, 3, s->flag);
    for (int w = 0; w < DW_WALLS; w++) {
        rp__put_key(&t, WALL_KEY[w]);
        put_side(&t, s, w, DW_BLUE);
        rp__text_ch(&t, '/');
        put_side(&t, s, w, DW_RED);
    }
    /* the Spy: '-', or <wall>/<the card it covers>, a Cannon as cannon@<stack position> */
    rp__put_key(&t, "spy");
    if (s->spy_wall) {
        rp__put_uint(&t, s->spy_wall);
        rp__text_str(&t, s->spy_on == DW_SPY_ON_CANNON ? "/cannon@" : "/");
        if (s->spy_on == DW_SPY_ON_CANNON)
            rp__put_uint(&t, s->spy_depth);
        else
            rp__text_str(&t, card_name(s->spy_on));
    } else {
        rp__text_ch(&t, '-');
    }
    for (int p = 0; p < 2; p++) {
        rp__put_key(&t, HAND_KEY[p]);
        put_counts(&t, s->hand[p]);
    }
    for (int p = 0; p < 2; p++) {
        rp__put_key(&t, DECK_KEY[p]);
        put_faces(&t, s->personal[p], s->personal_n[p], DW_PERSONAL);
    }
    rp__put_key(&t, "main");
    put_faces(&t, s->main, s->main_n, DW_MAIN);
    for (int p = 0; p < 2; p++) {
        rp__put_key(&t, REMOVED_KEY[p]);
        put_counts(&t, s->removed[p]);
    }
    rp__put_rng(&t, &s->rng);
    return rp__text_finish(&t);
}

/* A card by name, refusing anything else with the list of names. */
static int read_card(rp_reader *r, const char *what, rp_span item, int *face)
{
    *face = rp__span_name(item, CARD_NAME, DW_FACES);
    if (*face >= 0)
        return RP_OK;
    return rp__read_fail(r, what,
                         "'%.*s' is not a card (archer-1..3, cannon-5..9, flag, "
                         "attack, general, noble, engineer, assassin, king, wizard, builder, "
                         "spy)",
                         (int)(item.len > 20 ? 20 : item.len), item.p);
}

/* The field `key`: a list of at most max cards in its order (a deck, bottom to top). */
static int read_faces(rp_reader *r, const char *key, uint8_t *faces, int max, uint8_t *n)
{
    rp_span v, item;
    rp_list l;
    int k = 0, f, rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    for (rp__list_begin(&l, v, ','); rp__list_next(&l, &item); k++) {
        if ((rc = read_card(r, key, item, &f)) < 0)
            return rc;
        if (k == max)
            return rp__read_fail(r, key, "more than %d cards", max);
        faces[k] = (uint8_t)f;
    }
    *n = (uint8_t)k;
    return RP_OK;
}

/* The field `key`: a list of at most max cards, counted per face (a hand, a removed pile). */
static int read_counts(rp_reader *r, const char *key, uint8_t *counts, int max, uint8_t *n)
{
    uint8_t faces[49];
    const int rc = read_faces(r, key, faces, max, n);
    for (int i = 0; rc == RP_OK && i < *n; i++)
        counts[faces[i]]++;
    return rc;
}

/* The field `key`: one word of names[0..n). */
static int read_word(rp_reader *r, const char *key, const char *const *names, int n, uint8_t *out)
{
    rp_span v;
    int x, rc = rp__read_field(r, key, &v);
    if (rc == RP_OK && (rc = rp__span_choice(r, key, v, names, n, &x)) == RP_OK)
        *out = (uint8_t)x;
    return rc;
}

/* The field `key`: a whole number in [min, max]. */
static int read_number(rp_reader *r, const char *key, int min, int max, uint8_t *out)
{
    rp_span v;
    uint64_t x;
    int rc = rp__read_field(r, key, &v);
    if (rc == RP_OK && (rc = rp__span_uint(r, key, v, (uint64_t)min, (uint64_t)max, &x)) == RP_OK)
        *out = (uint8_t)x;
    return rc;
}

/* The field `key`: five words of names[0..n), one per wall. */
static int read_per_wall(rp_reader *r, const char *key, const char *const *names, int n,
                         uint8_t *out)
{
    rp_span v, item;
    rp_list l;
    int w = 0, x, rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    for (rp__list_begin(&l, v, ','); rp__list_next(&l, &item); w++) {
        if (w == DW_WALLS)
            return rp__read_fail(r, key, "one word per wall, five in all");
        if ((rc = rp__span_choice(r, key, item, names, n, &x)) < 0)
            return rc;
        out[w] = (uint8_t)x;
    }
    return w == DW_WALLS ? RP_OK : rp__read_fail(r, key, "one word per wall, five in all");
}

/* turn, to, phase, last, over, control, flags. */
static int read_header(rp_reader *r, dw_state *t)
{
    int rc;
    if ((rc = read_number(r, "turn", 1, DW_MAX_TURNS, &t->turn)) < 0 ||
        (rc = read_word(r, "to", SEAT_NAME, 2, &t->to_move)) < 0 ||
        (rc = read_word(r, "phase", PHASE_NAME, 2, &t->phase)) < 0 ||
        (rc = read_word(r, "last", LAST_NAME, 3, &t->last_turn)) < 0 ||
        (rc = read_number(r, "over", 0, 1, &t->over)) < 0 ||
        (rc = read_per_wall(r, "control", SEAT_NAME, 2, t->control)) < 0 ||
        (rc = read_per_wall(r, "flags", FLAG_NAME, 3, t->flag)) < 0)
        return rc;
    for (int w = 0; w < DW_WALLS; w++)
        t->flags_on_board = (uint8_t)(t->flags_on_board + (t->flag[w] != 0));
    return RP_OK;
}

/* One side of a wall: Archers (counted into archers[], the spied one included), Cannons onto
 * the stack in order, leaders. Which seat's leaders may be there is state_ok's to check. */
static int read_side(rp_reader *r, const char *what, rp_span v, dw_side *sd, uint8_t *archers)
{
    rp_list l;
    rp_span item;
    int f, rc;
    rp__list_begin(&l, v, ',');
    while (rp__list_next(&l, &item)) {
        if ((rc = read_card(r, what, item, &f)) < 0)
            return rc;
        if (f <= DW_A3) {
            if (archers[f] == TOTAL[f])
                return rp__read_fail(r, what, "more %s than the game has", CARD_NAME[f]);
            archers[f]++;
        } else if (f <= DW_C9) {
            if (sd->ncannon == sizeof sd->cannon)
                return rp__read_fail(r, what, "more Cannons than a stack can hold");
            sd->cannon[sd->ncannon++] = (uint8_t)f;
        } else if (f >= DW_GENERAL && f != DW_ASSASSIN && f != DW_SPY) {
            if (sd->leaders & LB(f))
                return rp__read_fail(r, what, "%s twice", CARD_NAME[f]);
            sd->leaders |= (uint8_t)LB(f);
        } else {
            return rp__read_fail(r, what,
                                 "%s does not stay on a side of a wall (Flags are in "
                                 "flags=, the Spy in spy=)",
                                 CARD_NAME[f]);
        }
    }
    return RP_OK;
}

/* The Spy field; a spied Archer leaves the counted ones of blue_archers. */
static int read_spy(rp_reader *r, dw_state *t, uint8_t blue_archers[DW_WALLS][3])
{
    rp_span v, wall, target, word, index;
    int rc = rp__read_field(r, "spy", &v);
    if (rc < 0 || rp__span_is(v, "-"))
        return rc;
    uint64_t w, depth;
    if (!rp__span_split(v, '/', &wall, &target))
        return rp__read_fail(r, "spy", "write '-' or <wall>/<the card it covers>");
    if ((rc = rp__span_uint(r, "spy", wall, 1, DW_WALLS, &w)) < 0)
        return rc;
    t->spy_wall = (uint8_t)w;
    if (rp__span_split(target, '@', &word, &index) && rp__span_is(word, "cannon")) {
        if ((rc = rp__span_uint(r, "spy", index, 0, 7, &depth)) < 0)
            return rc;
        t->spy_on = DW_SPY_ON_CANNON;
        t->spy_depth = (uint8_t)depth;
        return RP_OK;
    }
    int f;
    if ((rc = read_card(r, "spy", target, &f)) < 0)
        return rc;
    if (f > DW_A3 && (f < DW_GENERAL || f > DW_ENGINEER))
        return rp__read_fail(r, "spy",
                             "the Spy covers an Archer, cannon@<stack position>, "
                             "general, noble or engineer");
    if (f <= DW_A3) {
        if (!blue_archers[w - 1][f])
            return rp__read_fail(r, "spy", "no %s on Blue's side of wall %d to cover", CARD_NAME[f],
                                 (int)w);
        blue_archers[w - 1][f]--;
    }
    t->spy_on = (uint8_t)f;
    return RP_OK;
}

/* wall1..wall5 (Blue's side/Red's side) and the Spy. */
static int read_walls(rp_reader *r, dw_state *t)
{
    uint8_t blue_archers[DW_WALLS][3] = {{0}};
    for (int w = 0; w < DW_WALLS; w++) {
        rp_span v, blue, red;
        int rc = rp__read_field(r, WALL_KEY[w], &v);
        if (rc < 0)
            return rc;
        if (!rp__span_split(v, '/', &blue, &red))
            return rp__read_fail(r, WALL_KEY[w], "write <Blue's side>/<Red's side>");
        if ((rc = read_side(r, WALL_KEY[w], blue, &t->side[w][DW_BLUE], blue_archers[w])) < 0 ||
            (rc = read_side(r, WALL_KEY[w], red, &t->side[w][DW_RED], t->side[w][DW_RED].archers)) <
                0)
            return rc;
    }
    int rc = read_spy(r, t, blue_archers);
    if (rc < 0)
        return rc;
    for (int w = 0; w < DW_WALLS; w++)
        memcpy(t->side[w][DW_BLUE].archers, blue_archers[w], 3);
    return RP_OK;
}

/* Hands, personal decks, the main deck and the removed piles. */
static int read_cards(rp_reader *r, dw_state *t)
{
    uint8_t n;
    int rc = RP_OK;
    for (int p = 0; p < 2 && rc == RP_OK; p++)
        rc = read_counts(r, HAND_KEY[p], t->hand[p], DW_HAND, &t->hand_n[p]);
    for (int p = 0; p < 2 && rc == RP_OK; p++)
        rc = read_faces(r, DECK_KEY[p], t->personal[p], DW_PERSONAL, &t->personal_n[p]);
    if (rc == RP_OK)
        rc = read_faces(r, "main", t->main, DW_MAIN, &t->main_n);
    for (int p = 0; p < 2 && rc == RP_OK; p++)
        rc = read_counts(r, REMOVED_KEY[p], t->removed[p], 49, &n);
    return rc;
}

/* Parse into a local state, check every invariant and the canonical spelling, and only then
 * replace *st. */
static int dw_state_from_text(void *st, const char *text, rp_error *err)
{
    rp_reader r;
    int rc = rp__read_begin(&r, text, "dw2", err);
    if (rc < 0)
        return rc;
    dw_state t;
    memset(&t, 0, sizeof t);
    if ((rc = read_header(&r, &t)) < 0 || (rc = read_walls(&r, &t)) < 0 ||
        (rc = read_cards(&r, &t)) < 0 || (rc = rp__read_rng(&r, &t.rng)) < 0 ||
        (rc = rp__read_end(&r)) < 0)
        return rc;
    rp_error why = {{0}};
    if (dw_state_ok(&t, &why) < 0)
        return rp_fail(err, RP_EPARSE, "not a position of the game: %s", why.msg);
    if ((rc = rp__read_canonical(&r, &rp_danger_at_the_walls, &t)) < 0)
        return rc;
    memcpy(st, &t, sizeof t);
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */

/* Keys are constant strings and names references to constant strings: a view costs one node
 * per value and no copies. */
#define ADD(o, key, item) cJSON_AddItemToObjectCS((o), (key), (item))
#define NAME(text) cJSON_CreateStringReference(text)

/* The counted cards by name, in face order. */
static cJSON *counts_json(const uint8_t *counts)
{
    cJSON *a = cJSON_CreateArray();
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < counts[f]; i++)
            cJSON_AddItemToArray(a, NAME(CARD_NAME[f]));
    return a;
}

/* {"blue": b, "red": r}. */
static cJSON *by_seat(int blue, int red)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "blue", cJSON_CreateNumber(blue));
    ADD(o, "red", cJSON_CreateNumber(red));
    return o;
}

/* The Archers on a side by name, the spied one included (the Spy says which it covers). */
static void side_archers(const dw_state *s, int w, int seat, uint8_t *counts)
{
    memset(counts, 0, DW_FACES);
    for (int v = 0; v < 3; v++)
        counts[DW_A1 + v] = s->side[w][seat].archers[v];
    if (seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on <= DW_A3)
        counts[s->spy_on]++;
}

/* The leaders on a side, as counts per face. */
static void side_leaders(const dw_side *sd, uint8_t *counts)
{
    memset(counts, 0, DW_FACES);
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        counts[f] = (sd->leaders & LB(f)) != 0;
}

/* One side of a wall: Archers, the Cannon stack bottom first (the last one shows), leaders
 * and the strength DW-7 gives it. */
static cJSON *side_json(const dw_state *s, int w, int seat)
{
    const dw_side *sd = &s->side[w][seat];
    uint8_t counts[DW_FACES];
    cJSON *o = cJSON_CreateObject();
    side_archers(s, w, seat, counts);
    ADD(o, "archers", counts_json(counts));
    cJSON *cannons = cJSON_CreateArray();
    for (int i = 0; i < sd->ncannon; i++)
        cJSON_AddItemToArray(cannons, NAME(CARD_NAME[sd->cannon[i]]));
    ADD(o, "cannons", cannons);
    side_leaders(sd, counts);
    ADD(o, "leaders", counts_json(counts));
    ADD(o, "strength", cJSON_CreateNumber(dw_strength(s, w, seat)));
    return o;
}

/* One wall: its number, who controls it, its Flag and both sides. */
static cJSON *wall_json(const dw_state *s, int w)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "wall", cJSON_CreateNumber(w + 1));
    ADD(o, "control", NAME(SEAT_NAME[s->control[w]]));
    if (s->flag[w]) {
        cJSON *flag = cJSON_CreateObject();
        ADD(flag, "card", NAME(CARD_NAME[DW_FLAG]));
        ADD(flag, "by", NAME(SEAT_NAME[s->flag[w] - 1]));
        ADD(o, "flag", flag);
    } else {
        ADD(o, "flag", cJSON_CreateNull());
    }
    ADD(o, "blue", side_json(s, w, DW_BLUE));
    ADD(o, "red", side_json(s, w, DW_RED));
    return o;
}

/* The face the Spy covers (a Cannon by its face). */
static int spied_face(const dw_state *s)
{
    return s->spy_on == DW_SPY_ON_CANNON ? s->side[s->spy_wall - 1][DW_BLUE].cannon[s->spy_depth]
                                         : s->spy_on;
}

/* The Spy in play, or null: its wall, the Blue card it covers (a Cannon also by its place in
 * the stack) and whether a newer Cannon buries it (DW-P2). */
static cJSON *spy_json(const dw_state *s)
{
    if (!s->spy_wall)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    ADD(o, "card", NAME(CARD_NAME[DW_SPY]));
    ADD(o, "wall", cJSON_CreateNumber(s->spy_wall));
    ADD(o, "covers", NAME(CARD_NAME[spied_face(s)]));
    if (s->spy_on == DW_SPY_ON_CANNON)
        ADD(o, "cannon", cJSON_CreateNumber(s->spy_depth));
    ADD(o, "buried", cJSON_CreateBool(!spy_visible(s)));
    return o;
}

/* The winner of a finished game (DW-12: three walls or more). */
static int winner(const dw_state *s)
{
    return walls_of(s, DW_BLUE) >= 3 ? DW_BLUE : DW_RED;
}

/* A seat (0 or 1) sees its own hand and its own personal deck's contents; anything else is
 * treated as the spectator, who sees only what is public. */
static int viewer_seat(int viewer)
{
    return viewer == DW_BLUE || viewer == DW_RED ? viewer : -1;
}

/* DW-13: the board, removed piles, deck sizes and hand sizes are public; a seat also sees
 * its own hand and its own personal deck's contents (not their order). */
static cJSON *dw_view_json(const void *st, int viewer)
{
    const dw_state *s = st;
    const int me = viewer_seat(viewer);
    cJSON *o = cJSON_CreateObject();
    ADD(o, "game", NAME("danger-at-the-walls"));
    ADD(o, "seat", me < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(me));
    ADD(o, "turn", cJSON_CreateNumber(s->turn));
    ADD(o, "to_act", s->over ? cJSON_CreateNull() : cJSON_CreateNumber(s->to_move));
    ADD(o, "phase", NAME(PHASE_NAME[s->phase]));
    ADD(o, "last_turn", cJSON_CreateBool(s->last_turn != DW_LAST_NO));
    ADD(o, "end_trigger",
        s->last_turn == DW_LAST_FLAGS        ? NAME("third-flag")
        : s->last_turn == DW_LAST_EMPTY_HAND ? NAME("empty-hand")
                                             : cJSON_CreateNull());
    ADD(o, "over", cJSON_CreateBool(s->over));
    ADD(o, "winner", s->over ? cJSON_CreateNumber(winner(s)) : cJSON_CreateNull());
    ADD(o, "walls_controlled", by_seat(walls_of(s, DW_BLUE), walls_of(s, DW_RED)));
    ADD(o, "flags_on_board", cJSON_CreateNumber(s->flags_on_board));
    cJSON *walls = cJSON_CreateArray();
    for (int w = 0; w < DW_WALLS; w++)
        cJSON_AddItemToArray(walls, wall_json(s, w));
    ADD(o, "walls", walls);
    ADD(o, "spy", spy_json(s));
    if (me >= 0) {
        uint8_t own[DW_FACES] = {0};
        for (int i = 0; i < s->personal_n[me]; i++)
            own[s->personal[me][i]]++;
        ADD(o, "hand", counts_json(s->hand[me]));
        ADD(o, "personal_deck", counts_json(own));
    } else {
        ADD(o, "hand", cJSON_CreateNull());
        ADD(o, "personal_deck", cJSON_CreateNull());
    }
    ADD(o, "hand_sizes", by_seat(s->hand_n[DW_BLUE], s->hand_n[DW_RED]));
    ADD(o, "personal_deck_sizes", by_seat(s->personal_n[DW_BLUE], s->personal_n[DW_RED]));
    ADD(o, "main_deck_size", cJSON_CreateNumber(s->main_n));
    cJSON *removed = cJSON_CreateObject();
    ADD(removed, "blue", counts_json(s->removed[DW_BLUE]));
    ADD(removed, "red", counts_json(s->removed[DW_RED]));
    ADD(o, "removed", removed);
    return o;
}

/* ------------------------------------------------------------------------------------------ */
/* Determinizing                                                                              */

/* Depths (cards above, in the 21-card deck after setup) of the two main-deck Flags, drawn
 * from the DW-1 insertion rule. */
static void sample_flag_depths(rp_rng *rng, int depth[2])
{
    const int a = 9 + (int)rp_rng_below(rng, 3);
    const int b = 10 + (int)rp_rng_below(rng, 11);
    depth[0] = a < b ? a : a + 1;
    depth[1] = b;
}

/* The hidden cards, dealt out for determinizing: hands and personal decks of the hidden seats,
 * the main deck's other cards and the depths of its Flags. */
typedef struct dw_split {
    uint8_t hand[2][DW_FACES], personal[2][DW_FACES], main_other[DW_FACES];
    int flag_depth[2];
} dw_split;

/* Add the cards of q's hand and personal deck to counts. */
static void add_held(const dw_state *s, int q, uint8_t *counts)
{
    for (int f = 0; f < DW_FACES; f++)
        counts[f] = (uint8_t)(counts[f] + s->hand[q][f]);
    for (int i = 0; i < s->personal_n[q]; i++)
        counts[s->personal[q][i]]++;
}

/* Choose personal_n[q] distinct faces of q's personal deck among the cards left in `rest`. */
static bool pick_personal(const dw_state *s, int q, uint8_t *rest, rp_rng *rng, dw_split *out)
{
    uint8_t elig[DW_PERSONAL];
    int ne = 0;
    for (int f = 0; f < DW_FACES; f++)
        if (PERSONAL0[q][f] && rest[f])
            elig[ne++] = (uint8_t)f;
    const int r = s->personal_n[q];
    if (ne < r)
        return false;
    for (int i = 0; i < r; i++) {
        const int j = i + (int)rp_rng_below(rng, (uint32_t)(ne - i));
        const uint8_t t = elig[i];
        elig[i] = elig[j];
        elig[j] = t;
        out->personal[q][elig[i]] = 1;
        rest[elig[i]]--;
    }
    return true;
}

/* One try at dealing `pool`, the cards the viewer cannot see, consistently with what is
 * public: a hidden personal deck holds only its own cards, the main deck only main cards with
 * its Flags where DW-1 can put them, and a card gone from a personal deck is in its owner's
 * hand or was played by them. The hands first take what they must (cards gone from their
 * personal decks, then what the main deck cannot hold), then random free cards. */
static bool try_split(const dw_state *s, const bool hidden[2], const uint8_t *pool,
                      uint8_t played[2][DW_FACES], rp_rng *rng, dw_split *out)
{
    memset(out, 0, sizeof *out);
    uint8_t rest[DW_FACES];
    memcpy(rest, pool, DW_FACES);
    sample_flag_depths(rng, out->flag_depth);
    const int drawn = DW_MAIN - s->main_n;
    const int k = (out->flag_depth[0] >= drawn) + (out->flag_depth[1] >= drawn);
    int slots[2] = {0, 0};
    for (int q = 0; q < 2; q++)
        if (hidden[q] && !pick_personal(s, q, rest, rng, out))
            return false;
    for (int q = 0; q < 2; q++) {
        if (!hidden[q])
            continue;
        int need = 0;
        for (int f = 0; f < DW_FACES; f++) {
            const int origin = PERSONAL0[q][f] - out->personal[q][f] - played[q][f];
            if (origin <= 0)
                continue;
            if (origin > rest[f])
                return false;
            out->hand[q][f] = (uint8_t)origin;
            rest[f] = (uint8_t)(rest[f] - origin);
            need += origin;
        }
        slots[q] = s->hand_n[q] - need;
        if (slots[q] < 0)
            return false;
    }
    uint8_t free_list[DW_MAIN + 2 * (DW_HAND + DW_PERSONAL)];
    int nfree = 0;
    for (int f = 0; f < DW_FACES; f++) {
        const int cap = f == DW_FLAG ? k : MAIN0[f];
        if (f == DW_FLAG && rest[f] < k)
            return false;
        for (int excess = rest[f] - cap; excess > 0; excess--) {
            /* a card the main deck cannot hold: to a hand with room, chosen at random when
             * both have room (only the spectator hides two hands) */
            const int q = slots[0] > 0 && slots[1] > 0 ? (int)rp_rng_below(rng, 2)
                          : slots[0] > 0               ? 0
                          : slots[1] > 0               ? 1
                                                       : -1;
            if (q < 0)
                return false;
            out->hand[q][f]++;
            slots[q]--;
            rest[f]--;
        }
        if (f != DW_FLAG)
            for (int i = 0; i < rest[f]; i++)
                free_list[nfree++] = (uint8_t)f;
    }
    /* the free cards: a partial shuffle of free_list, whose first `taken` are dealt */
    for (int q = 0, taken = 0; q < 2; q++)
        for (int i = 0; i < slots[q]; i++, taken++) {
            if (taken == nfree)
                return false;
            const int j = taken + (int)rp_rng_below(rng, (uint32_t)(nfree - taken));
            const uint8_t f = free_list[j];
            free_list[j] = free_list[taken];
            free_list[taken] = f;
            out->hand[q][f]++;
            rest[f]--;
        }
    memcpy(out->main_other, rest, DW_FACES);
    out->main_other[DW_FLAG] = 0;
    return true;
}

/* Counts to a shuffled list. */
static int counts_to_list(const uint8_t *counts, uint8_t *list, rp_rng *rng)
{
    int n = 0;
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < counts[f]; i++)
            list[n++] = (uint8_t)f;
    rp_rng_shuffle_u8(rng, list, n);
    return n;
}

/* Sort then shuffle: the result depends on the cards and the rng only, never on the hidden
 * order they were in (an AI determinizing two states that look the same must get the same). */
static void canonical_shuffle(uint8_t *list, int n, rp_rng *rng)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && list[j - 1] > list[j]; j--) {
            const uint8_t t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
    rp_rng_shuffle_u8(rng, list, n);
}

/* Shuffle the main deck's cards other than Flags, which keep their places (the fallback). */
static void shuffle_main_keeping_flags(dw_state *s, rp_rng *rng)
{
    uint8_t idx[DW_MAIN], cards[DW_MAIN];
    int n = 0;
    for (int i = 0; i < s->main_n; i++)
        if (s->main[i] != DW_FLAG) {
            idx[n] = (uint8_t)i;
            cards[n++] = s->main[i];
        }
    canonical_shuffle(cards, n, rng);
    for (int i = 0; i < n; i++)
        s->main[idx[i]] = cards[i];
}

/* Put a split found by try_split into the state: hidden hands, shuffled hidden personal
 * decks, and the main deck with its Flags at their depths. */
static void deal_split(dw_state *s, const bool hidden[2], const dw_split *sp, rp_rng *rng)
{
    for (int q = 0; q < 2; q++)
        if (hidden[q]) {
            memcpy(s->hand[q], sp->hand[q], DW_FACES);
            counts_to_list(sp->personal[q], s->personal[q], rng);
        }
    uint8_t other[DW_MAIN];
    int n = counts_to_list(sp->main_other, other, rng);
    for (int i = 0; i < s->main_n; i++) {
        const int depth = DW_MAIN - 1 - i;
        s->main[i] = (depth == sp->flag_depth[0] || depth == sp->flag_depth[1]) ? (uint8_t)DW_FLAG
                                                                                : other[--n];
    }
}

/* Resample what `viewer` cannot see (DW-13): the other hand and personal deck (both for the
 * spectator), the main deck's order and contents, the order of the viewer's own personal deck,
 * and the rng. A split is almost always found in one or two tries (none missed in 400,000
 * random-game calls with 256 tries); should all tries fail (e.g. a hand-made position whose
 * main-deck Flags sit where DW-1 cannot put them), the hidden contents stay and only orders
 * change. */
static void dw_determinize(void *st, int viewer, rp_rng *rng)
{
    dw_state *s = st;
    const int me = viewer_seat(viewer);
    const bool hidden[2] = {me != DW_BLUE, me != DW_RED};
    uint8_t pool[DW_FACES] = {0}, played[2][DW_FACES];
    for (int q = 0; q < 2; q++) {
        played_by(s, q, played[q]);
        if (hidden[q])
            add_held(s, q, pool);
    }
    for (int i = 0; i < s->main_n; i++)
        pool[s->main[i]]++;
    dw_split sp;
    bool ok = false;
    for (int attempt = 0; attempt < 256 && !ok; attempt++)
        ok = try_split(s, hidden, pool, played, rng, &sp);
    if (ok) {
        deal_split(s, hidden, &sp, rng);
    } else {
        for (int q = 0; q < 2; q++)
            if (hidden[q])
                canonical_shuffle(s->personal[q], s->personal_n[q], rng);
        shuffle_main_keeping_flags(s, rng);
    }
    if (me >= 0)
        canonical_shuffle(s->personal[me], s->personal_n[me], rng);
    const uint64_t hi = rp_rng_next(rng), lo = rp_rng_next(rng);
    rp_rng_seed(&s->rng, hi << 32 | lo, 0xD4A11u);
}

/* Every action is seen as played: a refill shows its deck but the action never names the
 * drawn card (the draw is the deck's top, hidden inside the state), so nothing is masked. */
static rp_action dw_observe_action(const void *st, rp_action action, int observer)
{
    (void)st;
    (void)observer;
    return action;
}

/* ------------------------------------------------------------------------------------------ */
/* Actions as data                                                                            */

enum { K_ARCHERS, K_CANNON, K_FLAG, K_ATTACK, K_LEADER, K_SPY, K_ASSASSIN, K_DISCARD, K_DRAW };
static const char *const KIND_NAME[] = {"archers", "cannon",   "flag",    "attack", "leader",
                                        "spy",     "assassin", "discard", "draw"};
static const char *const ATTACK_TARGET[2] = {"cannon", "archers"};
static const char *const DECK_NAME[2] = {"personal", "main"};

/* An action taken apart: what it plays from the hand, where, and at what. */
typedef struct dw_move {
    int kind;                /* K_* */
    int wall;                /* 0..4, or -1 */
    int target;              /* attack: 0 Cannon, 1 Archers; spy: 0..6 and assassin: 0..7 as
                                in the action table; draw: 0 personal, 1 main; else -1 */
    uint8_t cards[DW_FACES]; /* the cards it takes from the hand, by face */
} dw_move;

/* Take an action id apart (the layout in the table at the top of this file). */
static dw_move decode(rp_action a)
{
    /* the ranges after the Archers and before the discards: first id, ids per wall, kind */
    static const struct {
        rp_action first;
        int per_wall, kind;
    } RANGE[] = {{DW_ACT_CANNON, 5, K_CANNON}, {DW_ACT_FLAG, 1, K_FLAG},
                 {DW_ACT_ATTACK, 2, K_ATTACK}, {DW_ACT_LEADER, 6, K_LEADER},
                 {DW_ACT_SPY, 7, K_SPY},       {DW_ACT_ASSASSIN, 8, K_ASSASSIN}};
    static const uint8_t CARD[] = {
        [K_FLAG] = DW_FLAG, [K_ATTACK] = DW_ATTACK, [K_SPY] = DW_SPY, [K_ASSASSIN] = DW_ASSASSIN};
    dw_move m;
    memset(&m, 0, sizeof m);
    m.wall = m.target = -1;
    if (a < DW_ACT_CANNON) {
        const int r = (int)a % 343;
        m.kind = K_ARCHERS;
        m.wall = (int)a / 343;
        m.cards[DW_A1] = (uint8_t)(r / 49);
        m.cards[DW_A2] = (uint8_t)(r / 7 % 7);
        m.cards[DW_A3] = (uint8_t)(r % 7);
    } else if (a < DW_ACT_DISCARD) {
        int k = 5;
        while (a < RANGE[k].first)
            k--;
        const int i = (int)(a - RANGE[k].first), t = i % RANGE[k].per_wall;
        m.kind = RANGE[k].kind;
        m.wall = i / RANGE[k].per_wall;
        m.cards[m.kind == K_CANNON   ? DW_C5 + t
                : m.kind == K_LEADER ? LEADER_FACE[t]
                                     : CARD[m.kind]] = 1;
        m.target = m.kind == K_ATTACK || m.kind == K_SPY || m.kind == K_ASSASSIN ? t : -1;
    } else if (a < DW_ACT_DRAW_PERSONAL) {
        m.kind = K_DISCARD;
        m.cards[a - DW_ACT_DISCARD] = 1;
    } else {
        m.kind = K_DRAW;
        m.target = a == DW_ACT_DRAW_MAIN;
    }
    return m;
}

/* The face of the card a Spy or Assassin play aims at in s; for a Cannon the top of the stack,
 * or -1 when there is none. */
static int target_face(const dw_state *s, const dw_move *m)
{
    const int seat = m->kind == K_SPY ? DW_BLUE : DW_RED;
    const dw_side *sd = &s->side[m->wall][seat];
    if (m->target < 3)
        return DW_A1 + m->target;
    if (m->target == 3)
        return sd->ncannon ? sd->cannon[sd->ncannon - 1] : -1;
    if (m->target == 7)
        return DW_SPY;
    return (m->kind == K_SPY ? DW_GENERAL : DW_KING) + m->target - 4;
}

/* {"kind", "cards" (from the hand), "wall" (1-5), "target"} or {"kind": "draw", "from"}. */
static cJSON *dw_action_json(const void *st, rp_action action)
{
    const dw_state *s = st;
    const dw_move m = decode(action);
    cJSON *o = cJSON_CreateObject();
    ADD(o, "kind", NAME(KIND_NAME[m.kind]));
    if (m.kind == K_DRAW) {
        ADD(o, "from", NAME(DECK_NAME[m.target]));
        return o;
    }
    ADD(o, "cards", counts_json(m.cards));
    if (m.wall >= 0)
        ADD(o, "wall", cJSON_CreateNumber(m.wall + 1));
    if (m.kind == K_ATTACK)
        ADD(o, "target", NAME(ATTACK_TARGET[m.target]));
    if (m.kind == K_SPY || m.kind == K_ASSASSIN) {
        const int f = target_face(s, &m);
        ADD(o, "target", NAME(f < 0 ? "cannon" : CARD_NAME[f]));
    }
    return o;
}

/* ------------------------------------------------------------------------------------------ */
/* Events                                                                                     */

/* Counted cards for a sentence, copies as on the screen: "archer-1 x2 and archer-3". */
static const char *cards_text(char *buf, size_t size, const uint8_t *counts)
{
    rp_text t;
    rp__text_init(&t, buf, size);
    int faces = 0, done = 0;
    for (int f = 0; f < DW_FACES; f++)
        faces += counts[f] != 0;
    for (int f = 0; f < DW_FACES; f++) {
        if (!counts[f])
            continue;
        if (done++)
            rp__text_str(&t, done == faces ? " and " : ", ");
        rp__text_str(&t, CARD_NAME[f]);
        if (counts[f] > 1)
            rp__text_put(&t, " x%d", counts[f]);
    }
    return buf;
}

/* How the strengths at wall w went from b to a, to end a sentence. */
static const char *strength_text(char *buf, size_t size, const dw_state *b, const dw_state *a,
                                 int w)
{
    const int b0 = dw_strength(b, w, DW_BLUE), b1 = dw_strength(a, w, DW_BLUE);
    const int r0 = dw_strength(b, w, DW_RED), r1 = dw_strength(a, w, DW_RED);
    if (b0 != b1 && r0 != r1)
        snprintf(buf, size, "strengths there Blue %d to %d, Red %d to %d", b0, b1, r0, r1);
    else if (b0 != b1)
        snprintf(buf, size, "Blue's strength there %s from %d to %d (Red %d)",
                 b1 > b0 ? "rises" : "falls", b0, b1, r1);
    else if (r0 != r1)
        snprintf(buf, size, "Red's strength there %s from %d to %d (Blue %d)",
                 r1 > r0 ? "rises" : "falls", r0, r1, b1);
    else
        snprintf(buf, size, "strengths there stay Blue %d, Red %d", b1, r1);
    return buf;
}

/* The sentence of a play (DW-3) or a discard (DW-4), by kind. */
static cJSON *play_sentence(cJSON *events, const dw_state *b, const dw_state *a, const dw_move *m,
                            const uint8_t *lost)
{
    const int p = b->to_move, q = p ^ 1, w = m->wall;
    const char *me = SEAT_TITLE[p], *them = SEAT_TITLE[q];
    char cards[160], change[96], lost_text[160], extra[96] = "";
    cards_text(cards, sizeof cards, m->cards);
    cards_text(lost_text, sizeof lost_text, lost);
    if (w >= 0)
        strength_text(change, sizeof change, b, a, w);
    switch (m->kind) {
    case K_CANNON: {
        const dw_side *sd = &b->side[w][p];
        if (sd->ncannon) /* DW-5 */
            snprintf(extra, sizeof extra, ", on top of %s", CARD_NAME[sd->cannon[sd->ncannon - 1]]);
        return rp__event(events, "cannon", p, "%s plays %s at wall %d%s: %s.", me, cards, w + 1,
                         extra, change);
    }
    case K_FLAG: /* DW-2 */
        return rp__event(events, "flag", p,
                         "%s plays flag on wall %d: %s holds the wall for "
                         "the rest of the game (Flags on the board: %d).",
                         me, w + 1, SEAT_TITLE[a->control[w]], a->flags_on_board);
    case K_ATTACK: /* DW-6: a spied Archer cannot be moved */
        if (m->target == 1 && a->spy_wall == w + 1 && a->spy_on <= DW_A3)
            snprintf(extra, sizeof extra, " (the spied %s cannot be moved and stays)",
                     CARD_NAME[a->spy_on]);
        return rp__event(events, "attack", p,
                         "%s plays attack at wall %d, removing %s's %s%s: "
                         "%s.",
                         me, w + 1, them, lost_text, extra, change);
    case K_SPY: /* DW-8 */
        return rp__event(events, "spy", p,
                         "%s plays spy on %s's %s at wall %d, which no longer "
                         "counts: %s.",
                         me, them, CARD_NAME[spied_face(a)], w + 1, change);
    case K_ASSASSIN: /* DW-9: removing the Spy frees its card */
        if (m->target == 7)
            snprintf(extra, sizeof extra, ", which frees %s's %s", me, CARD_NAME[spied_face(b)]);
        return rp__event(events, "assassin", p,
                         "%s plays assassin at wall %d, removing %s's "
                         "%s%s: %s.",
                         me, w + 1, them, lost_text, extra, change);
    case K_DISCARD: /* DW-4 */
        return rp__event(events, "discard", p,
                         "%s has no card that can be played and "
                         "discards %s (DW-4).",
                         me, cards);
    default: /* Archers and leaders */
        return rp__event(events, KIND_NAME[m->kind], p, "%s plays %s at wall %d: %s.", me, cards,
                         w + 1, change);
    }
}

/* The play itself: its sentence, the cards from the hand, the wall with its strengths before
 * and after, the target and what left play. It shows a card from a hidden hand: a reveal. */
static cJSON *play_event(cJSON *events, const dw_state *b, const dw_state *a, const dw_move *m)
{
    const int q = b->to_move ^ 1, w = m->wall;
    uint8_t lost[DW_FACES]; /* the opponent's cards sent to the removed pile */
    for (int f = 0; f < DW_FACES; f++)
        lost[f] = (uint8_t)(a->removed[q][f] - b->removed[q][f]);
    cJSON *e = play_sentence(events, b, a, m, lost);
    if (!e)
        return NULL;
    ADD(e, "cards", counts_json(m->cards));
    if (w >= 0) {
        ADD(e, "wall", cJSON_CreateNumber(w + 1));
        ADD(e, "strength_before", by_seat(dw_strength(b, w, DW_BLUE), dw_strength(b, w, DW_RED)));
        ADD(e, "strength", by_seat(dw_strength(a, w, DW_BLUE), dw_strength(a, w, DW_RED)));
    }
    if (m->kind == K_ATTACK)
        ADD(e, "target", NAME(ATTACK_TARGET[m->target]));
    if (m->kind == K_SPY || m->kind == K_ASSASSIN)
        ADD(e, "target", NAME(CARD_NAME[target_face(b, m)]));
    if (m->kind == K_ATTACK || m->kind == K_ASSASSIN)
        ADD(e, "removed", counts_json(lost));
    if (m->kind == K_FLAG)
        ADD(e, "control", NAME(SEAT_NAME[a->control[w]]));
    rp__event_reveal(e);
    return e;
}

/* DW-10: every wall that changed hands. Returns false when memory runs out. */
static bool control_events(cJSON *events, const dw_state *b, const dw_state *a)
{
    for (int w = 0; w < DW_WALLS; w++) {
        if (b->control[w] == a->control[w])
            continue;
        const int c = a->control[w];
        cJSON *e =
            rp__event(events, "control", c, "%s takes wall %d from %s, %d to %d.", SEAT_TITLE[c],
                      w + 1, SEAT_TITLE[c ^ 1], dw_strength(a, w, c), dw_strength(a, w, c ^ 1));
        if (!e)
            return false;
        ADD(e, "wall", cJSON_CreateNumber(w + 1));
        ADD(e, "from", NAME(SEAT_NAME[c ^ 1]));
    }
    return true;
}

/* DW-11 after a play: how many cards the player will draw and from where, or that both decks
 * are empty. */
static cJSON *refill_event(cJSON *events, const dw_state *a, int p)
{
    cJSON *e;
    int count = 0;
    if (a->phase == DW_PHASE_REFILL && a->to_move == p) {
        const int own = a->personal_n[p], main = a->main_n, want = DW_HAND - a->hand_n[p];
        count = want < own + main ? want : own + main;
        char from[96];
        if (own && main)
            snprintf(from, sizeof from,
                     "their personal deck (%d left) or the main deck (%d "
                     "left)",
                     own, main);
        else
            snprintf(from, sizeof from, "%s (%d left)",
                     own ? "their personal deck" : "the main deck", own ? own : main);
        e = rp__event(events, "refill", p, "%s refills: %d card%s to draw from %s.", SEAT_TITLE[p],
                      count, count == 1 ? "" : "s", from);
    } else {
        e = rp__event(events, "refill", p, "%s cannot refill: both decks are empty.",
                      SEAT_TITLE[p]);
    }
    if (e)
        ADD(e, "count", cJSON_CreateNumber(count));
    return e;
}

/* DW-11, one card: named to the drawer only; everyone else hears "a card". */
static cJSON *draw_event(cJSON *events, const dw_state *b, rp_action action, int viewer)
{
    const int p = b->to_move;
    const bool own = action == DW_ACT_DRAW_PERSONAL;
    const int f = own ? b->personal[p][b->personal_n[p] - 1] : b->main[b->main_n - 1];
    const char *from = own ? "their personal deck" : "the main deck";
    cJSON *e;
    if (viewer == p) {
        e = rp__event(events, "draw", p, "%s draws %s from %s.", SEAT_TITLE[p], CARD_NAME[f], from);
        if (e) {
            cJSON *cards = cJSON_CreateArray();
            cJSON_AddItemToArray(cards, NAME(CARD_NAME[f]));
            ADD(e, "cards", cards);
        }
    } else {
        e = rp__event(events, "draw", p, "%s draws a card from %s.", SEAT_TITLE[p], from);
        if (e) {
            cJSON *cards = cJSON_CreateArray();
            cJSON_AddItemToArray(cards, cJSON_CreateNull());
            ADD(e, "cards", cards);
        }
    }
    if (e) {
        ADD(e, "from", NAME(DECK_NAME[!own]));
        rp__event_reveal(e);
    }
    return e;
}

/* Why the game is ending (DW-12), after "...controls 3 walls to 2 ". */
static const char *end_reason(char *buf, size_t size, const dw_state *a, int trigger)
{
    if (a->last_turn == DW_LAST_FLAGS)
        snprintf(buf, size, "after the third Flag");
    else
        snprintf(buf, size, "after %s ran out of cards", SEAT_TITLE[trigger]);
    return buf;
}

static const char *const END_TRIGGER[3] = {"", "third-flag", "empty-hand"};

/* When the turn ends: the last-turn announcement (DW-12), then the game's end or the next
 * turn. Returns false when memory runs out. */
static bool turn_events(cJSON *events, const dw_state *b, const dw_state *a)
{
    if (!a->over && a->to_move == b->to_move)
        return true; /* the refill goes on */
    const int p = b->to_move;
    cJSON *e;
    if (!b->last_turn && a->last_turn) {
        char why[96];
        if (a->last_turn == DW_LAST_FLAGS)
            snprintf(why, sizeof why, "The third Flag is on the board");
        else
            snprintf(why, sizeof why, "%s has no cards left and both decks are empty",
                     SEAT_TITLE[p]);
        e = rp__event(events, "last-turn", p ^ 1,
                      a->over ? "%s: %s has no card for a last "
                                "turn, so the game ends (DW-12)."
                              : "%s: %s takes one last turn (DW-12).",
                      why, SEAT_TITLE[p ^ 1]);
        if (!e)
            return false;
        ADD(e, "reason", NAME(END_TRIGGER[a->last_turn]));
    }
    if (a->over) {
        const int win = winner(a), n = walls_of(a, win);
        char reason[64];
        e = rp__event(events, "game-over", win, "%s controls %d walls to %d %s: %s wins.",
                      SEAT_TITLE[win], n, DW_WALLS - n,
                      end_reason(reason, sizeof reason, a, a->to_move ^ 1), SEAT_TITLE[win]);
        if (!e)
            return false;
        ADD(e, "winner", NAME(SEAT_NAME[win]));
        ADD(e, "walls", by_seat(walls_of(a, DW_BLUE), walls_of(a, DW_RED)));
        ADD(e, "reason", NAME(END_TRIGGER[a->last_turn]));
        return true;
    }
    e = rp__event(events, "turn", a->to_move, "Turn %d: %s to play%s.", a->turn,
                  SEAT_TITLE[a->to_move], a->last_turn ? ", the last turn" : "");
    if (!e)
        return false;
    ADD(e, "turn", cJSON_CreateNumber(a->turn));
    return true;
}

/* What the action did, told to viewer: diffing the state before and after is enough here
 * (every effect of a play is on one wall, the removed piles and the turn), so apply stays as
 * it is on the hot path. */
static cJSON *dw_events_json(const void *before, rp_action action, int viewer)
{
    const dw_state *b = before;
    dw_state a = *b;
    dw_apply(&a, action);
    cJSON *events = cJSON_CreateArray();
    if (!events)
        return NULL;
    bool ok;
    if (action >= DW_ACT_DRAW_PERSONAL) {
        ok = draw_event(events, b, action, viewer) != NULL;
    } else {
        const dw_move m = decode(action);
        ok = play_event(events, b, &a, &m) && control_events(events, b, &a) &&
             refill_event(events, &a, b->to_move);
    }
    if (!ok || !turn_events(events, b, &a)) {
        cJSON_Delete(events);
        return NULL;
    }
    return events;
}

/* ------------------------------------------------------------------------------------------ */
/* Explanations, the move summary and secret names                                            */

/* Why a Cannon Attack cannot go where it aims (DW-6, DW-P1). */
static int explain_attack(const dw_state *s, const dw_move *m, char *buf, size_t size)
{
    const int p = s->to_move, q = p ^ 1, w = m->wall;
    const dw_side *opp = &s->side[w][q];
    if (!s->side[w][p].ncannon)
        return snprintf(buf, size,
                        "a Cannon Attack needs your own Cannon at the wall it "
                        "attacks, and you have none at wall %d (DW-6)",
                        w + 1);
    if (p == DW_BLUE && spy_on_top_cannon(s, w))
        return snprintf(buf, size,
                        "your Cannon at wall %d is covered by the Spy, so it cannot "
                        "attack (DW-6)",
                        w + 1);
    if (m->target == 0 && !opp->ncannon)
        return snprintf(buf, size, "%s has no Cannon at wall %d to remove", SEAT_TITLE[q], w + 1);
    if (m->target == 0)
        return snprintf(buf, size,
                        "%s's Cannon at wall %d is covered by the Spy and cannot be "
                        "moved (DW-6, DW-P1)",
                        SEAT_TITLE[q], w + 1);
    if (q == DW_BLUE && s->spy_wall == w + 1 && s->spy_on <= DW_A3)
        return snprintf(buf, size,
                        "%s's only Archer at wall %d is covered by the Spy and "
                        "cannot be moved (DW-6, DW-P1)",
                        SEAT_TITLE[q], w + 1);
    return snprintf(buf, size, "%s has no Archers at wall %d to remove", SEAT_TITLE[q], w + 1);
}

/* Why the Spy or the Assassin has nothing to aim at (DW-8, DW-9, DW-P2, DW-P3). */
static int explain_target(const dw_state *s, const dw_move *m, char *buf, size_t size)
{
    const int w = m->wall;
    const bool spy = m->kind == K_SPY;
    if (!spy && m->target == 7)
        return s->spy_wall != w + 1
                   ? snprintf(buf, size, "the Spy is not at wall %d", w + 1)
                   : snprintf(buf, size,
                              "the Spy at wall %d lies on a buried Cannon and cannot "
                              "be targeted (DW-9, DW-P2)",
                              w + 1);
    const int f = target_face(s, m);
    const char *what = m->target == 3 || f < 0 ? "Cannon" : CARD_NAME[f];
    return snprintf(buf, size, "%s has no %s at wall %d for the %s (%s)",
                    SEAT_TITLE[spy ? DW_BLUE : DW_RED], what, w + 1,
                    spy ? "Spy to cover" : "Assassin to remove", spy ? "DW-8" : "DW-9");
}

/* Why a play cannot be made: a card not held (or not yours), then the rule it breaks. */
static int explain_play(const dw_state *s, const dw_move *m, char *buf, size_t size)
{
    const int p = s->to_move;
    for (int f = 0; f < DW_FACES; f++) {
        if (!m->cards[f] || m->cards[f] <= s->hand[p][f])
            continue;
        if (!HAND_FACES[p][f])
            return snprintf(buf, size, "%s is %s's card, not yours", CARD_NAME[f],
                            SEAT_TITLE[p ^ 1]);
        char hand[200];
        cards_text(hand, sizeof hand, s->hand[p]);
        if (s->hand[p][f])
            return snprintf(buf, size, "you hold only %d %s: your hand is %s", s->hand[p][f],
                            CARD_NAME[f], hand);
        return snprintf(buf, size, "you do not hold %s: your hand is %s", CARD_NAME[f], hand);
    }
    switch (m->kind) {
    case K_FLAG:
        return snprintf(buf, size,
                        "wall %d already has a Flag: a Flag goes on a wall without "
                        "one (DW-2)",
                        m->wall + 1);
    case K_ATTACK:
        return explain_attack(s, m, buf, size);
    case K_SPY:
    case K_ASSASSIN:
        return explain_target(s, m, buf, size);
    case K_DISCARD: {
        rp_action legal[RP_MAX_LEGAL];
        char text[RP_ACTION_TEXT];
        dw_legal_actions(s, legal);
        dw_action_to_text(s, legal[0], text, sizeof text);
        return snprintf(buf, size,
                        "you may discard only when no card in your hand can be "
                        "played (DW-4), and you can play e.g. '%s'",
                        text);
    }
    default:
        return -1;
    }
}

/* Why `action` is not legal in st, in the game's words; -1 when it is legal. */
static int dw_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const dw_state *s = st;
    if (action >= DW_NUM_ACTIONS || s->over || rp_is_legal(&rp_danger_at_the_walls, s, action))
        return -1;
    const dw_move m = decode(action);
    if (m.kind == K_DRAW) {
        if (s->phase == DW_PHASE_PLAY)
            return snprintf(buf, size,
                            "you draw only after your play, to refill your hand "
                            "(DW-11)");
        return snprintf(buf, size, "%s is empty: draw from the %s deck",
                        m.target ? "the main deck" : "your personal deck",
                        m.target ? "personal" : "main");
    }
    if (s->phase == DW_PHASE_REFILL)
        return snprintf(buf, size,
                        "you have made your play: refill your hand with 'draw "
                        "personal' or 'draw main' (DW-11)");
    return explain_play(s, &m, buf, size);
}

/* Walls of a mask as a prompt writes them: "2", "<1|3>" or "<1-5>". */
static void put_walls(rp_text *t, unsigned mask)
{
    if (mask == (1u << DW_WALLS) - 1) {
        rp__text_str(t, "<1-5>");
        return;
    }
    const bool several = (mask & (mask - 1)) != 0;
    if (several)
        rp__text_ch(t, '<');
    for (int w = 0, n = 0; w < DW_WALLS; w++)
        if (mask & (1u << w)) {
            rp__put_sep(t, &n, '|');
            rp__text_ch(t, (char)('1' + w));
        }
    if (several)
        rp__text_ch(t, '>');
}

/* One part of the summary per distinct wall set: "verb <a|b> wall <1-5>" for the words whose
 * plays go to that set (walls false: no wall, e.g. discards). */
static void put_group(rp_text *t, int *parts, const char *verb, const char *const *words,
                      const unsigned *masks, int k, bool walls)
{
    bool done[DW_FACES] = {false};
    for (int i = 0; i < k; i++) {
        if (!masks[i] || done[i])
            continue;
        int same = 0;
        for (int j = i; j < k; j++)
            same += masks[j] == masks[i];
        rp__text_str(t, (*parts)++ ? "; " : "");
        if (verb) {
            rp__text_str(t, verb);
            rp__text_ch(t, ' ');
        }
        rp__text_str(t, same > 1 ? "<" : "");
        for (int j = i, n = 0; j < k; j++)
            if (masks[j] == masks[i]) {
                rp__put_sep(t, &n, '|');
                rp__text_str(t, words[j]);
                done[j] = true;
            }
        rp__text_str(t, same > 1 ? ">" : "");
        if (walls) {
            rp__text_str(t, " wall ");
            put_walls(t, masks[i]);
        }
    }
}

/* Below this many legal actions the numbered list is short enough to show. */
#define SUMMARY_MIN_ACTIONS 13

static const char *const CANNON_WORD[5] = {"5", "6", "7", "8", "9"};
static const char *const LEADER_WORD[6] = {"general", "noble",  "engineer",
                                           "king",    "wizard", "builder"};

/* The legal plays in a few words, grouped by kind (see rp_game.moves_summary). */
static int dw_moves_summary(const void *st, char *buf, size_t size)
{
    const dw_state *s = st;
    rp_action legal[RP_MAX_LEGAL];
    const int n = dw_legal_actions(s, legal);
    if (n < SUMMARY_MIN_ACTIONS || s->phase != DW_PHASE_PLAY)
        return -1;
    uint8_t most[3] = {0, 0, 0}; /* the largest Archer play: every part of it is legal too */
    unsigned archers = 0, cannon[5] = {0}, flag[1] = {0}, attack[2] = {0}, leader[6] = {0};
    unsigned spy[7] = {0}, assassin[8] = {0}, discard[DW_FACES] = {0};
    for (int i = 0; i < n; i++) {
        const dw_move m = decode(legal[i]);
        const unsigned bit = m.wall >= 0 ? 1u << m.wall : 1u;
        switch (m.kind) {
        case K_ARCHERS:
            archers |= bit;
            for (int v = 0; v < 3; v++)
                most[v] = m.cards[DW_A1 + v] > most[v] ? m.cards[DW_A1 + v] : most[v];
            break;
        case K_CANNON:
            for (int f = DW_C5; f <= DW_C9; f++)
                cannon[f - DW_C5] |= m.cards[f] ? bit : 0;
            break;
        case K_FLAG:
            flag[0] |= bit;
            break;
        case K_ATTACK:
            attack[m.target] |= bit;
            break;
        case K_LEADER:
            for (int l = 0; l < 6; l++)
                leader[l] |= m.cards[LEADER_FACE[l]] ? bit : 0;
            break;
        case K_SPY:
            spy[m.target] |= bit;
            break;
        case K_ASSASSIN:
            assassin[m.target] |= bit;
            break;
        default:
            for (int f = 0; f < DW_FACES; f++)
                discard[f] |= m.cards[f] ? 1u : 0;
        }
    }
    rp_text t;
    rp__text_init(&t, buf, size);
    int parts = 0;
    if (archers) {
        char list[24];
        rp_text l;
        rp__text_init(&l, list, sizeof list);
        int k = 0, total = most[0] + most[1] + most[2];
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < most[v]; i++) {
                rp__put_sep(&l, &k, '+');
                rp__text_ch(&l, (char)('1' + v));
            }
        rp__text_put(&t, "archers %s%s%s wall ", total > 1 ? "<some of " : "", list,
                     total > 1 ? ">" : "");
        put_walls(&t, archers);
        parts++;
    }
    put_group(&t, &parts, "cannon", CANNON_WORD, cannon, 5, true);
    put_group(&t, &parts, NULL, (const char *const[]){"flag"}, flag, 1, true);
    put_group(&t, &parts, "attack", ATTACK_TARGET, attack, 2, true);
    put_group(&t, &parts, NULL, LEADER_WORD, leader, 6, true);
    put_group(&t, &parts, "spy", SPY_TARGET, spy, 7, true);
    put_group(&t, &parts, "assassin", ASSASSIN_TARGET, assassin, 8, true);
    put_group(&t, &parts, "discard", FACE_WORDS, discard, DW_FACES, false);
    return rp__text_finish(&t);
}

/* The names of the cards viewer cannot see that are not also shown somewhere they can (their
 * hand and personal deck for a seat, the board and the removed piles for everyone). */
static int dw_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    const dw_state *s = st;
    const int me = viewer_seat(viewer);
    uint8_t hidden[DW_FACES] = {0}, shown[DW_FACES], played[DW_FACES];
    played_by(s, DW_BLUE, shown);
    played_by(s, DW_RED, played);
    for (int f = 0; f < DW_FACES; f++)
        shown[f] = (uint8_t)(shown[f] + played[f]);
    for (int q = 0; q < 2; q++)
        add_held(s, q, q == me ? shown : hidden);
    for (int i = 0; i < s->main_n; i++)
        hidden[s->main[i]]++;
    rp_text t;
    rp__text_init(&t, buf, size);
    for (int f = 0, n = 0; f < DW_FACES; f++)
        if (hidden[f] && !shown[f]) {
            rp__put_sep(&t, &n, ' ');
            rp__text_str(&t, CARD_NAME[f]);
        }
    return rp__text_finish(&t);
}

/* ------------------------------------------------------------------------------------------ */
/* Evaluation and the screen                                                                  */

/* A cheap estimate from the board only (public): locked walls count fully, open walls by
 * control and the strength margin. */
static double dw_evaluate(const void *st, int player)
{
    const dw_state *s = st;
    const int p = player & 1;
    if (s->over) {
        double r[2];
        dw_returns(s, r);
        return r[p];
    }
    double score = 0;
    for (int w = 0; w < DW_WALLS; w++) {
        const double sign = s->control[w] == p ? 1.0 : -1.0;
        if (s->flag[w]) {
            score += 1.5 * sign;
        } else {
            double d = (dw_strength(s, w, p) - dw_strength(s, w, p ^ 1)) / 25.0;
            d = d > 0.5 ? 0.5 : d < -0.5 ? -0.5 : d;
            score += 0.5 * sign + d;
        }
    }
    double v = 0.5 + score / 12.0;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* ANSI colour for a seat (2: reset), or nothing when colour is off. */
static const char *col(bool color, int seat)
{
    if (!color)
        return "";
    return seat == DW_BLUE ? "\x1b[1;34m" : seat == DW_RED ? "\x1b[1;31m" : "\x1b[0m";
}

/* A seat's name, coloured when asked. */
static void put_seat(FILE *out, bool color, int seat)
{
    fprintf(out, "%s%s%s", col(color, seat), SEAT_TITLE[seat], col(color, 2));
}

/* A list of items on the screen, ", " between them, wrapped before column 80 and continued
 * under column `indent`. */
typedef struct dw_line {
    FILE *out;
    int col, indent, items;
} dw_line;

/* Add an item after `sep` (", " or "; "), on a new line if it would reach column 80. */
static void line_item_after(dw_line *l, const char *sep, const char *item)
{
    const int len = (int)strlen(item), seplen = l->items ? (int)strlen(sep) : 0;
    if (l->items && l->col + seplen + len >= 80) {
        fprintf(l->out, "%c\n%*s", sep[0], l->indent, "");
        l->col = l->indent;
    } else if (l->items) {
        fputs(sep, l->out);
        l->col += seplen;
    }
    fputs(item, l->out);
    l->col += len;
    l->items++;
}

static void line_item(dw_line *l, const char *item)
{
    line_item_after(l, ", ", item);
}

/* Counted cards as items, "archer-1 x2" for copies, the first one after `lead` ("Blue's "),
 * following earlier items after "; "; "none" when there are none. */
static void line_counts_led(dw_line *l, const char *lead, const uint8_t *counts)
{
    const int before = l->items;
    for (int f = 0; f < DW_FACES; f++) {
        char item[40];
        if (!counts[f])
            continue;
        const char *head = l->items == before ? lead : "";
        if (counts[f] == 1)
            snprintf(item, sizeof item, "%s%s", head, CARD_NAME[f]);
        else
            snprintf(item, sizeof item, "%s%s x%d", head, CARD_NAME[f], counts[f]);
        line_item_after(l, l->items == before ? "; " : ", ", item);
    }
    if (l->items == before) {
        char item[40];
        snprintf(item, sizeof item, "%snone", lead);
        line_item_after(l, "; ", item);
    }
}

static void line_counts(dw_line *l, const uint8_t *counts)
{
    line_counts_led(l, "", counts);
}

/* Width of the wall column on the screen ("Wall 2: Blue", "  flag by Red"). */
#define WALL_COLUMN 17

/* One side of a wall on one line (wrapped if long): strength, Archers, leaders, the top
 * Cannon, then the Cannons buried under it (DW-5), with what the Spy covers marked. */
static void render_side(const dw_state *s, int w, int seat, FILE *out, bool color)
{
    const dw_side *sd = &s->side[w][seat];
    const bool spy_here = seat == DW_BLUE && s->spy_wall == w + 1;
    put_seat(out, color, seat);
    fprintf(out, "%*s%3d  ", seat == DW_BLUE ? 1 : 2, "", dw_strength(s, w, seat));
    dw_line l = {out, WALL_COLUMN + 10, WALL_COLUMN + 10, 0};
    uint8_t archers[DW_FACES];
    side_archers(s, w, seat, archers);
    if (spy_here && s->spy_on <= DW_A3)
        archers[s->spy_on]--;
    if (archers[DW_A1] | archers[DW_A2] | archers[DW_A3])
        line_counts(&l, archers);
    if (spy_here && s->spy_on <= DW_A3) {
        char item[24];
        snprintf(item, sizeof item, "%s (spied)", CARD_NAME[s->spy_on]);
        line_item(&l, item);
    }
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        if (sd->leaders & LB(f)) {
            char item[24];
            snprintf(item, sizeof item, "%s%s", CARD_NAME[f],
                     spy_here && s->spy_on == f ? " (spied)" : "");
            line_item(&l, item);
        }
    for (int i = sd->ncannon - 1; i >= 0; i--) { /* the top Cannon, then the buried ones */
        char item[40];
        snprintf(item, sizeof item, "%s%s%s", i == sd->ncannon - 2 ? "buried: " : "",
                 CARD_NAME[sd->cannon[i]],
                 spy_here && s->spy_on == DW_SPY_ON_CANNON && s->spy_depth == i ? " (spied)" : "");
        line_item(&l, item);
    }
    if (!l.items)
        fputc('-', out);
    fputc('\n', out);
}

/* The last line: whose turn and what it is, or how the game ended. */
static void render_status(const dw_state *s, FILE *out, bool color)
{
    if (s->over) {
        char reason[64];
        const int win = winner(s), n = walls_of(s, win);
        fputs("Game over: ", out);
        put_seat(out, color, win);
        fprintf(out, " controls %d walls to %d %s: ", n, DW_WALLS - n,
                end_reason(reason, sizeof reason, s, s->to_move ^ 1));
        put_seat(out, color, win);
        fputs(" wins.\n", out);
        return;
    }
    put_seat(out, color, s->to_move);
    if (s->phase == DW_PHASE_REFILL)
        fprintf(out, " to refill (%d of 6 held).", s->hand_n[s->to_move]);
    else
        fputs(" to play.", out);
    if (s->last_turn == DW_LAST_FLAGS)
        fputs(" Last turn: the third Flag is on the board.", out);
    else if (s->last_turn == DW_LAST_EMPTY_HAND)
        fprintf(out, " Last turn: %s ran out of cards.", SEAT_TITLE[s->to_move ^ 1]);
    fputc('\n', out);
}

/* What viewer sees, for a terminal of 80 columns: the turn, decks and removed piles, the five
 * walls, then the viewer's hand and personal deck, and whose turn it is. */
static void dw_render(const void *st, int viewer, FILE *out, bool color)
{
    const dw_state *s = st;
    const int me = viewer_seat(viewer);
    fprintf(out, "Danger at the Walls, turn %d. ", s->turn);
    if (me < 0) {
        fputs("You are watching.", out);
    } else {
        fputs("You are ", out);
        put_seat(out, color, me);
        fputc('.', out);
    }
    fprintf(out, " Flags on the board: %d of 3.\n", s->flags_on_board);
    fprintf(out,
            "Decks: main %d, Blue's personal %d, Red's personal %d. Hands: Blue %d, Red "
            "%d.\n",
            s->main_n, s->personal_n[DW_BLUE], s->personal_n[DW_RED], s->hand_n[DW_BLUE],
            s->hand_n[DW_RED]);
    fputs("Removed: ", out);
    dw_line removed = {out, 9, 9, 0};
    static const uint8_t none[DW_FACES];
    if (memcmp(s->removed, none, sizeof none) == 0 &&
        memcmp(s->removed[DW_RED], none, sizeof none) == 0) {
        line_item(&removed, "none");
    } else {
        line_counts_led(&removed, "Blue's ", s->removed[DW_BLUE]);
        line_counts_led(&removed, "Red's ", s->removed[DW_RED]);
    }
    fputc('\n', out);
    for (int w = 0; w < DW_WALLS; w++) {
        fprintf(out, "Wall %d: ", w + 1);
        put_seat(out, color, s->control[w]);
        fprintf(out, "%*s", WALL_COLUMN - 8 - (int)strlen(SEAT_TITLE[s->control[w]]), "");
        render_side(s, w, DW_BLUE, out, color);
        if (s->flag[w])
            fprintf(out, "  flag by %-*s", WALL_COLUMN - 10, SEAT_TITLE[s->flag[w] - 1]);
        else
            fprintf(out, "%*s", WALL_COLUMN, "");
        render_side(s, w, DW_RED, out, color);
    }
    if (me >= 0) {
        uint8_t own[DW_FACES] = {0};
        for (int i = 0; i < s->personal_n[me]; i++)
            own[s->personal[me][i]]++;
        fputs("Your hand: ", out);
        dw_line hand = {out, 11, 11, 0};
        line_counts(&hand, s->hand[me]);
        fprintf(out, "\nYour personal deck: ");
        dw_line deck = {out, 20, 20, 0};
        line_counts(&deck, own);
        fputc('\n', out);
    }
    render_status(s, out, color);
}

/* ------------------------------------------------------------------------------------------ */
/* Observation tensor (for learning agents; layout in docs/python.md). What one seat may see
 * (DW-13, the same things as its view) as floats: "yours" and "the opponent's" by that seat;
 * cards by face, in the order of the face enum (danger_at_the_walls.h). */
enum {
    DW_OBS_HAND = 0,                                         /* [18] */
    DW_OBS_PERSONAL = DW_OBS_HAND + DW_FACES,                /* [18] */
    DW_OBS_REMOVED = DW_OBS_PERSONAL + DW_FACES,             /* [2][18] */
    DW_OBS_SIDE_SIZE = 3 + 8 * 5 + 8 + 1,                    /* one side of a wall */
    DW_OBS_WALL_SIZE = 2 + 3 + 2 * DW_OBS_SIDE_SIZE,         /* one wall */
    DW_OBS_WALLS = DW_OBS_REMOVED + 2 * DW_FACES,            /* [5][109] */
    DW_OBS_SPY = DW_OBS_WALLS + DW_WALLS * DW_OBS_WALL_SIZE, /* [26] */
    DW_OBS_COUNTS = DW_OBS_SPY + 6 + DW_FACES + 2,           /* [9] */
    DW_OBS_TURN = DW_OBS_COUNTS + 9,                         /* [12] */
    DW_OBS_SIZE = DW_OBS_TURN + 12
};

/* clang-format off */
static const rp_obs_field dw_obs_fields[] = {
    {"hand", DW_OBS_HAND, {DW_FACES, 1, 1}, "your hand: cards of each face / 6"},
    {"personal_deck", DW_OBS_PERSONAL, {DW_FACES, 1, 1},
     "your personal deck's cards of each face / 8 (not their order)"},
    {"removed", DW_OBS_REMOVED, {2, DW_FACES, 1},
     "the removed piles, yours then the opponent's: cards of each face / 8"},
    {"walls", DW_OBS_WALLS, {DW_WALLS, DW_OBS_WALL_SIZE, 1},
     "per wall 1..5: one-hot control (you, the opponent); one-hot Flag (none, yours, the "
     "opponent's); then your side and the opponent's, each: Archers of value 1, 2, 3 / 4 (a "
     "spied Archer included), the Cannon stack bottom first as 8 slots one-hot over Cannon "
     "5..9, 1 for each leader face General, Noble, Engineer, Assassin, King, Wizard, Builder, "
     "Spy on it, and its strength (DW-7) / 30"},
    {"spy", DW_OBS_SPY, {6 + DW_FACES + 2, 1, 1},
     "one-hot wall of the Spy (slot 0: not in play, then walls 1..5); one-hot face it covers; "
     "the covered Cannon's place in its stack / 8 (0: the bottom, or no Cannon covered); 1 "
     "when a newer Cannon buries it"},
    {"counts", DW_OBS_COUNTS, {9, 1, 1},
     "hand sizes / 6 and personal deck sizes / 8 (yours then the opponent's), main deck / 21, "
     "Flags on the board / 3, turn / 49, walls you control / 5, the opponent controls / 5"},
    {"turn", DW_OBS_TURN, {12, 1, 1},
     "one-hot to act: you, the opponent, nobody; one-hot phase: play, refill; one-hot last "
     "turn: not yet, the third Flag, an empty hand (DW-12); 1 once over; one-hot winner: you, "
     "the opponent; 1 when you are Red"},
};
/* clang-format on */

static void dw_obs_counts(float *out, const uint8_t *counts, float scale)
{
    for (int f = 0; f < DW_FACES; f++)
        out[f] = (float)counts[f] / scale;
}

/* One side of wall w for the tensor: Archers (a spied one included), Cannons, leaders. */
static void dw_obs_side(const dw_state *s, int w, int seat, float *out)
{
    const dw_side *sd = &s->side[w][seat];
    uint8_t archers[DW_FACES];
    side_archers(s, w, seat, archers);
    for (int v = 0; v < 3; v++)
        out[v] = (float)archers[DW_A1 + v] / 4.0f;
    for (int i = 0; i < sd->ncannon; i++)
        out[3 + i * 5 + (sd->cannon[i] - DW_C5)] = 1.0f;
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        out[3 + 40 + (f - DW_GENERAL)] = (sd->leaders & LB(f)) ? 1.0f : 0.0f;
    out[3 + 40 + 8] = (float)dw_strength(s, w, seat) / 30.0f;
}

static void dw_observation_tensor(const void *st, int player, float *out)
{
    const dw_state *s = st;
    const int them = player ^ 1;
    memset(out, 0, DW_OBS_SIZE * sizeof *out);
    dw_obs_counts(out + DW_OBS_HAND, s->hand[player], 6.0f);
    uint8_t own[DW_FACES] = {0};
    for (int i = 0; i < s->personal_n[player]; i++)
        own[s->personal[player][i]]++;
    dw_obs_counts(out + DW_OBS_PERSONAL, own, 8.0f);
    dw_obs_counts(out + DW_OBS_REMOVED, s->removed[player], 8.0f);
    dw_obs_counts(out + DW_OBS_REMOVED + DW_FACES, s->removed[them], 8.0f);
    for (int w = 0; w < DW_WALLS; w++) {
        float *wall = out + DW_OBS_WALLS + w * DW_OBS_WALL_SIZE;
        wall[s->control[w] == player ? 0 : 1] = 1.0f;
        wall[2 + (s->flag[w] == 0 ? 0 : s->flag[w] - 1 == player ? 1 : 2)] = 1.0f;
        dw_obs_side(s, w, player, wall + 5);
        dw_obs_side(s, w, them, wall + 5 + DW_OBS_SIDE_SIZE);
    }
    float *spy = out + DW_OBS_SPY;
    spy[s->spy_wall] = 1.0f;
    if (s->spy_wall) {
        spy[6 + spied_face(s)] = 1.0f;
        if (s->spy_on == DW_SPY_ON_CANNON)
            spy[6 + DW_FACES] = (float)s->spy_depth / 8.0f;
        spy[6 + DW_FACES + 1] = spy_visible(s) ? 0.0f : 1.0f;
    }
    float *counts = out + DW_OBS_COUNTS;
    counts[0] = (float)s->hand_n[player] / 6.0f;
    counts[1] = (float)s->hand_n[them] / 6.0f;
    counts[2] = (float)s->personal_n[player] / 8.0f;
    counts[3] = (float)s->personal_n[them] / 8.0f;
    counts[4] = (float)s->main_n / 21.0f;
    counts[5] = (float)s->flags_on_board / 3.0f;
    counts[6] = (float)s->turn / 49.0f;
    counts[7] = (float)walls_of(s, player) / 5.0f;
    counts[8] = (float)walls_of(s, them) / 5.0f;
    float *turn = out + DW_OBS_TURN;
    turn[s->over ? 2 : s->to_move == player ? 0 : 1] = 1.0f;
    turn[3 + s->phase] = 1.0f;
    turn[5 + s->last_turn] = 1.0f;
    turn[8] = s->over ? 1.0f : 0.0f;
    if (s->over)
        turn[9 + (winner(s) == player ? 0 : 1)] = 1.0f;
    turn[11] = (float)player;
}

const rp_game rp_danger_at_the_walls = {
    .id = "danger-at-the-walls",
    .title = "Danger at the Walls",
    .summary = "2 players: attackers against defenders, control three of five walls",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = DW_NUM_ACTIONS,
    .state_size = sizeof(dw_state),
    .options = DW_OPTIONS,
    .num_options = 0,
    .seat_names = SEAT_TITLE,
    .ai_levels = {"iters=300", "iters=2000", "iters=10000"},
    .init = dw_init,
    .num_players = dw_num_players,
    .current_player = dw_current_player,
    .turn_number = dw_turn_number,
    .legal_actions = dw_legal_actions,
    .apply = dw_apply,
    .returns = dw_returns,
    .action_to_text = dw_action_to_text,
    .action_from_text = dw_action_from_text,
    .state_to_text = dw_state_to_text,
    .state_from_text = dw_state_from_text,
    .state_ok = dw_state_ok,
    .config_of = dw_config_of,
    .view_json = dw_view_json,
    .determinize = dw_determinize,
    .render = dw_render,
    .action_json = dw_action_json,
    .events_json = dw_events_json,
    .explain_illegal = dw_explain_illegal,
    .moves_summary = dw_moves_summary,
    .secret_names = dw_secret_names,
    .evaluate = dw_evaluate,
    .observe_action = dw_observe_action,
    .observation_size = DW_OBS_SIZE,
    .observation_fields = dw_obs_fields,
    .num_observation_fields = (int)(sizeof dw_obs_fields / sizeof dw_obs_fields[0]),
    .observation_tensor = dw_observation_tensor,
};
