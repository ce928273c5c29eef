/* danger_at_the_walls.c — Danger at the Walls (Matt Worden, 2014) on the Ramparts interface:
 * setup, legal plays, apply, notation both ways, views, determinizing, rendering and a cheap
 * evaluation. Rule code cites the shared rulings (DW-n) and this project's rulings (DW-Pn).
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
#include "core/text.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <threads.h>

#define LB(face) (1u << ((face) - DW_GENERAL))

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

static const char FACE_CHAR[DW_FACES + 1] = "12356789FXGNEAKWBS";
static const char *const FACE_NAME[DW_FACES] = {
    "archer 1", "archer 2", "archer 3", "cannon 5", "cannon 6", "cannon 7", "cannon 8",
    "cannon 9", "flag",     "attack",   "general",  "noble",    "engineer", "assassin",
    "king",     "wizard",   "builder",  "spy"};
static const char *const SEAT_NAME[2] = {"blue", "red"};
/* Leader action index l -> face. */
static const uint8_t LEADER_FACE[6] = {DW_GENERAL, DW_NOBLE,  DW_ENGINEER,
                                       DW_KING,    DW_WIZARD, DW_BUILDER};

/* Strength printed on a Cannon face. */
static int cannon_value(int f) { return f - DW_C5 + 5; }

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

/* For each hand of Archers (n1*49 + n2*7 + n3, at most 6 in all), its non-empty
 * sub-multisets as action offsets: identical Archers are interchangeable, so an Archer play is
 * a multiset of values. Filled once (call_once) by init and state_from_text, the only ways a
 * state comes to exist, so legal_actions can read it without a check. */
static uint16_t archer_offsets[343][27];
static uint8_t archer_count[343];
static once_flag archer_once = ONCE_FLAG_INIT;
static atomic_bool archer_ready;

/* Build the Archer table (see above). */
static void fill_archer_table(void)
{
    for (int m1 = 0; m1 <= DW_HAND; m1++)
        for (int m2 = 0; m1 + m2 <= DW_HAND; m2++)
            for (int m3 = 0; m1 + m2 + m3 <= DW_HAND; m3++) {
                const int key = m1 * 49 + m2 * 7 + m3;
                int k = 0;
                for (int a = 0; a <= m1; a++)
                    for (int b = 0; b <= m2; b++)
                        for (int c = (a | b) ? 0 : 1; c <= m3; c++)
                            archer_offsets[key][k++] = (uint16_t)(a * 49 + b * 7 + c);
                archer_count[key] = (uint8_t)k;
            }
    atomic_store_explicit(&archer_ready, true, memory_order_release);
}

/* Make sure the Archer table exists (cheap after the first time). */
static inline void need_archer_table(void)
{
    if (!atomic_load_explicit(&archer_ready, memory_order_acquire))
        call_once(&archer_once, fill_archer_table);
}

/* ------------------------------------------------------------------------------------------ */
/* Setup                                                                                      */

static const rp_option_spec DW_OPTIONS[1] = {{0}};

/* DW-1: shuffled main deck without Flags, six cards each (Blue first, alternating), Flag A
 * with 9..11 cards above it, then Flag B with at least 10 above it; personal decks shuffled. */
static int dw_init(void *st, const rp_config *cfg, rp_error *err)
{
    (void)err;
    dw_state *s = st;
    need_archer_table();
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
        const int spied = (s->spy_wall && spy_on_top_cannon(s, s->spy_wall - 1))
                              ? s->spy_wall - 1
                              : -1;
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
    if (s->flags_on_board >= 3 || s->hand_n[p] == 0)
        s->last_turn = 1;
    s->to_move = (uint8_t)q;
    if (s->last_turn && s->hand_n[q] == 0) /* DW-12: the last turn is skipped */
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
        len = snprintf(buf, size, "%s wall %d", FACE_NAME[LEADER_FACE[i % 6]], i / 6 + 1);
    } else if (a < DW_ACT_ASSASSIN) {
        const int i = (int)(a - DW_ACT_SPY);
        len = snprintf(buf, size, "spy %s wall %d", SPY_TARGET[i % 7], i / 7 + 1);
    } else if (a < DW_ACT_DISCARD) {
        const int i = (int)(a - DW_ACT_ASSASSIN);
        len = snprintf(buf, size, "assassin %s wall %d", ASSASSIN_TARGET[i % 8], i / 8 + 1);
    } else if (a < DW_ACT_DRAW_PERSONAL) {
        len = snprintf(buf, size, "discard %s", FACE_NAME[a - DW_ACT_DISCARD]);
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
        if (strcmp(tok[i], FACE_NAME[f]) == 0) {
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
static int parse_target(char **tok, int n, int i, const char *const *names, int count,
                        int *used)
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

#define PARSE_HELP                                                                        \
    "expected e.g. 'archers 1+2 wall 3', 'cannon 7 wall 1', 'flag wall 2', 'attack cannon " \
    "wall 4', 'king wall 5', 'spy archer 2 wall 1', 'assassin spy wall 3', 'discard attack', " \
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
            return rp_fail(err, RP_EPARSE, "'%s': the Archers are values 1-3 joined by '+' "
                                           "(at most 6), e.g. 'archers 1+1+3 wall 2'", text);
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
        const int t = n > 1 ? (strcmp(tok[1], "cannon") == 0     ? 0
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
        if (strcmp(verb, FACE_NAME[LEADER_FACE[l]]) == 0) {
            if ((w = parse_wall(tok, n, 1)) < 0)
                goto bad_wall;
            *out = (rp_action)(DW_ACT_LEADER + w * 6 + l);
            return RP_OK;
        }
    if (strcmp(verb, "spy") == 0 || strcmp(verb, "assassin") == 0) {
        const bool spy = verb[0] == 's';
        const int t = parse_target(tok, n, 1, spy ? SPY_TARGET : ASSASSIN_TARGET, spy ? 7 : 8,
                                   &used);
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
            return rp_fail(err, RP_EPARSE, "'%s': discard names one card, e.g. 'discard "
                                           "attack' or 'discard cannon 6'", text);
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
    return rp_fail(err, RP_EPARSE, "'%s': the move must end with 'wall N', N from 1 to 5",
                   text);
}

/* ------------------------------------------------------------------------------------------ */
/* Full-state notation                                                                        */
/*
 * dw1;to=b;phase=play;last=0;over=0;rng=<16 hex>.<16 hex>;hb=<faces>;hr=<faces>;
 * pb=<faces>;pr=<faces>;m=<faces>;w1=<wall>;...;w5=<wall>;xb=<faces>;xr=<faces>;spy=<spy>
 *
 * Faces are one character each (1 2 3 Archers, 5-9 Cannons, F Flag, X Attack, G N E A Blue's
 * leaders, K W B S Red's), '-' for none. Hands and removed piles (xb: Blue's cards, xr: Red's)
 * are in face order; decks (pb, pr personal, m main) are listed bottom to top. A wall is
 * <control b|r><flag - b|r, who played it>:<Blue side>:<Red side>, a side being
 * <Archers>/<Cannon stack, bottom to top>/<Leaders>, the spied Archer included. The Spy is '-'
 * or <wall 1-5><target>, target an Archer value, G/N/E, or c<stack index> for a Cannon.
 */


static void put_int(rp_text *t, int v)
{
    char d[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    if (v < 0)
        rp__text_ch(t, '-');
    do
        d[n++] = (char)('0' + u % 10);
    while (u /= 10);
    while (n)
        rp__text_ch(t, d[--n]);
}

/* A multiset of faces in face order, '-' when empty (hands, removed piles). */
static void put_counts(rp_text *t, const uint8_t *counts)
{
    size_t start = t->len;
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < counts[f]; i++)
            rp__text_ch(t, FACE_CHAR[f]);
    if (t->len == start)
        rp__text_ch(t, '-');
}

/* An ordered list of faces, '-' when empty (decks bottom to top, Cannon stacks). */
static void put_list(rp_text *t, const uint8_t *faces, int n)
{
    for (int i = 0; i < n; i++)
        rp__text_ch(t, FACE_CHAR[faces[i]]);
    if (n == 0)
        rp__text_ch(t, '-');
}

/* One side of a wall; the spied Archer is listed with the others (the Spy field says which). */
static void put_side(rp_text *t, const dw_state *s, int w, int seat)
{
    const dw_side *sd = &s->side[w][seat];
    uint8_t ar[DW_FACES] = {0};
    for (int v = 0; v < 3; v++)
        ar[DW_A1 + v] = sd->archers[v];
    if (seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on <= DW_A3)
        ar[s->spy_on]++;
    put_counts(t, ar);
    rp__text_ch(t, '/');
    put_list(t, sd->cannon, sd->ncannon);
    rp__text_ch(t, '/');
    uint8_t lead[DW_FACES] = {0};
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        lead[f] = (sd->leaders & LB(f)) != 0;
    put_counts(t, lead);
}

/* The referee's one-line notation (format above); exact inverse of dw_state_from_text. */
static int dw_state_to_text(const void *st, char *buf, size_t size)
{
    const dw_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    if (size)
        buf[0] = '\0';
    rp__text_put(&t, "dw1;to=%c;phase=%s;last=%d;over=%d;rng=%016" PRIx64 ".%016" PRIx64,
        s->to_move ? 'r' : 'b', s->phase ? "refill" : "play", s->last_turn, s->over,
        s->rng.state, s->rng.inc);
    rp__text_str(&t, ";hb=");
    put_counts(&t, s->hand[DW_BLUE]);
    rp__text_str(&t, ";hr=");
    put_counts(&t, s->hand[DW_RED]);
    rp__text_str(&t, ";pb=");
    put_list(&t, s->personal[DW_BLUE], s->personal_n[DW_BLUE]);
    rp__text_str(&t, ";pr=");
    put_list(&t, s->personal[DW_RED], s->personal_n[DW_RED]);
    rp__text_str(&t, ";m=");
    put_list(&t, s->main, s->main_n);
    for (int w = 0; w < DW_WALLS; w++) {
        rp__text_str(&t, ";w");
        put_int(&t, w + 1);
        rp__text_ch(&t, '=');
        rp__text_ch(&t, s->control[w] ? 'r' : 'b');
        rp__text_ch(&t, "-br"[s->flag[w]]);
        rp__text_ch(&t, ':');
        put_side(&t, s, w, DW_BLUE);
        rp__text_ch(&t, ':');
        put_side(&t, s, w, DW_RED);
    }
    rp__text_str(&t, ";xb=");
    put_counts(&t, s->removed[DW_BLUE]);
    rp__text_str(&t, ";xr=");
    put_counts(&t, s->removed[DW_RED]);
    if (!s->spy_wall)
        rp__text_put(&t, ";spy=-");
    else if (s->spy_on == DW_SPY_ON_CANNON)
        rp__text_put(&t, ";spy=%dc%d", s->spy_wall, s->spy_depth);
    else
        rp__text_put(&t, ";spy=%d%c", s->spy_wall, FACE_CHAR[s->spy_on]);
    return t.overflow ? RP_ENOSPACE : (int)t.len;
}

/* Face of a notation character, or -1. */
static int face_of_char(char c)
{
    const char *p = c ? strchr(FACE_CHAR, c) : NULL;
    return p ? (int)(p - FACE_CHAR) : -1;
}

/* Faces of a field: '-' or characters, at most `max`; allowed[f] says which faces may appear
 * (NULL: any). Returns the count or -1. */
static int read_faces(const char *v, uint8_t *list, int max, const uint8_t *allowed)
{
    if (strcmp(v, "-") == 0)
        return 0;
    int n = 0;
    for (; *v; v++) {
        const int f = face_of_char(*v);
        if (f < 0 || n == max || (allowed && !allowed[f]))
            return -1;
        list[n++] = (uint8_t)f;
    }
    return n;
}

/* A hand or removed pile: counts per face. */
static int read_counts(const char *v, uint8_t *counts, int max, const uint8_t *allowed)
{
    uint8_t list[64];
    const int n = read_faces(v, list, max < 64 ? max : 64, allowed);
    for (int i = 0; i < n; i++)
        counts[list[i]]++;
    return n;
}

static const uint8_t ARCHER_FACES[DW_FACES] = {1, 1, 1};
static const uint8_t CANNON_FACES[DW_FACES] = {0, 0, 0, 1, 1, 1, 1, 1};
static const uint8_t LEADERS_OF[2][DW_FACES] = {
    {[DW_GENERAL] = 1, [DW_NOBLE] = 1, [DW_ENGINEER] = 1},
    {[DW_KING] = 1, [DW_WIZARD] = 1, [DW_BUILDER] = 1}};
/* Faces a seat's hand or pile may hold: all but the other side's leaders. */
static const uint8_t HAND_FACES[2][DW_FACES] = {
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}};

/* One side of a wall: "<archers>/<cannons>/<leaders>". */
static bool read_side(char *v, dw_side *sd, int seat, uint8_t *archers_with_spied)
{
    char *c = strchr(v, '/');
    char *l = c ? strchr(c + 1, '/') : NULL;
    if (!c || !l || strchr(l + 1, '/'))
        return false;
    *c++ = '\0';
    *l++ = '\0';
    uint8_t counts[DW_FACES] = {0};
    if (read_counts(v, counts, 25, ARCHER_FACES) < 0)
        return false;
    for (int k = 0; k < 3; k++)
        archers_with_spied[k] = counts[k];
    const int nc = read_faces(c, sd->cannon, 8, CANNON_FACES);
    if (nc < 0)
        return false;
    sd->ncannon = (uint8_t)nc;
    uint8_t lead[DW_FACES] = {0};
    if (read_counts(l, lead, 3, LEADERS_OF[seat]) < 0)
        return false;
    for (int f = DW_GENERAL; f < DW_FACES; f++) {
        if (lead[f] > 1)
            return false;
        if (lead[f])
            sd->leaders |= (uint8_t)LB(f);
    }
    return true;
}

/* Parse the Spy field into t, checking its target exists; archers[w][v] include the spied
 * Archer, which then leaves the active count. */
static const char *read_spy(const char *v, dw_state *t, uint8_t archers[DW_WALLS][3])
{
    if (strcmp(v, "-") == 0)
        return NULL;
    const int w = v[0] >= '1' && v[0] <= '5' ? v[0] - '1' : -1;
    if (w < 0 || !v[1])
        return "the Spy is '-' or a wall 1-5 and its target";
    dw_side *b = &t->side[w][DW_BLUE];
    t->spy_wall = (uint8_t)(w + 1);
    if (v[1] == 'c') {
        if (v[2] < '0' || v[2] > '9' || v[3] || v[2] - '0' >= b->ncannon)
            return "the Spy's Cannon (c<stack index>) is not in that wall's Blue stack";
        t->spy_on = DW_SPY_ON_CANNON;
        t->spy_depth = (uint8_t)(v[2] - '0');
        return NULL;
    }
    const int f = face_of_char(v[1]);
    if (v[2] || f < 0 || !(f <= DW_A3 || (f >= DW_GENERAL && f <= DW_ENGINEER)))
        return "the Spy covers an Archer (1-3), a Cannon (c<index>), or G, N or E";
    if (f <= DW_A3) {
        if (!archers[w][f])
            return "the Spy covers an Archer that is not on that wall's Blue side";
        archers[w][f]--;
    } else if (!(b->leaders & LB(f))) {
        return "the Spy covers a Leader that is not on that wall's Blue side";
    }
    t->spy_on = (uint8_t)f;
    return NULL;
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

/* Checks that need the whole parsed state: card counts, where cards may be, control, turn. */
static const char *validate(const dw_state *t, char *why, size_t size)
{
    uint8_t played[2][DW_FACES], mainc[DW_FACES] = {0}, pers[2][DW_FACES] = {{0}};
    played_by(t, DW_BLUE, played[0]);
    played_by(t, DW_RED, played[1]);
    for (int i = 0; i < t->main_n; i++)
        mainc[t->main[i]]++;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < t->personal_n[p]; i++)
            pers[p][t->personal[p][i]]++;
    for (int f = 0; f < DW_FACES; f++) {
        int sum = mainc[f];
        for (int p = 0; p < 2; p++)
            sum += t->hand[p][f] + played[p][f] + pers[p][f];
        if (sum != TOTAL[f]) {
            snprintf(why, size, "there are %d cards '%s' (%c), the game has %d", sum,
                     FACE_NAME[f], FACE_CHAR[f], TOTAL[f]);
            return why;
        }
        if (mainc[f] > MAIN0[f]) {
            snprintf(why, size, "the main deck holds %d '%s', it started with %d", mainc[f],
                     FACE_NAME[f], MAIN0[f]);
            return why;
        }
        for (int p = 0; p < 2; p++) {
            if (pers[p][f] > PERSONAL0[p][f]) {
                snprintf(why, size, "%s's personal deck cannot hold '%s' %d times",
                         SEAT_NAME[p], FACE_NAME[f], pers[p][f]);
                return why;
            }
            /* Cards gone from a personal deck are in that seat's hand or play. */
            if (t->hand[p][f] + played[p][f] < PERSONAL0[p][f] - pers[p][f]) {
                snprintf(why, size, "%s's '%s' left the personal deck but is neither in %s's "
                         "hand nor played by %s", SEAT_NAME[p], FACE_NAME[f], SEAT_NAME[p],
                         SEAT_NAME[p]);
                return why;
            }
        }
    }
    for (int w = 0; w < DW_WALLS; w++) {
        const int b = dw_strength(t, w, DW_BLUE), r = dw_strength(t, w, DW_RED);
        if (!t->flag[w] && b != r && t->control[w] != (b > r ? DW_BLUE : DW_RED)) {
            snprintf(why, size, "wall %d is unflagged and %s is stronger (%d to %d), so %s "
                     "controls it (DW-10)", w + 1, SEAT_NAME[b < r], b > r ? b : r,
                     b > r ? r : b, SEAT_NAME[b < r]);
            return why;
        }
    }
    const int p = t->to_move, q = p ^ 1;
    if (t->over && !t->last_turn)
        return "a finished game has had its last turn (last=1)";
    if (t->over && t->phase != DW_PHASE_PLAY)
        return "a finished game has phase=play";
    if (t->over)
        return NULL;
    if (t->phase == DW_PHASE_PLAY && t->hand_n[p] == 0)
        return "the player to play has no card in hand";
    if (t->phase == DW_PHASE_REFILL &&
        (t->hand_n[p] >= DW_HAND || (!t->personal_n[p] && !t->main_n)))
        return "a refill needs fewer than 6 cards in hand and a card in a deck";
    if (!t->last_turn && t->hand_n[q] == 0)
        return "the opponent's hand is empty, so this must be the last turn (last=1, DW-12)";
    if (!t->last_turn && t->phase == DW_PHASE_PLAY && t->flags_on_board >= 3)
        return "three Flags are on the board, so this must be the last turn (last=1, DW-12)";
    return NULL;
}

/* "key=value": the value if the key matches, else NULL. */
static char *field(char *f, const char *key)
{
    const size_t k = strlen(key);
    return (strncmp(f, key, k) == 0 && f[k] == '=') ? f + k + 1 : NULL;
}

/* Exactly 16 lower-case hex digits (the rng words). */
static bool read_hex64(const char *v, uint64_t *out)
{
    if (strlen(v) != 16)
        return false;
    uint64_t x = 0;
    for (int i = 0; i < 16; i++) {
        const char c = v[i];
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return false;
        x = x << 4 | (uint64_t)d;
    }
    *out = x;
    return true;
}

#define NFIELDS 20
static const char *const FIELD_KEY[NFIELDS] = {"to", "phase", "last", "over", "rng", "hb", "hr",
                                               "pb", "pr", "m",  "w1",    "w2",   "w3",   "w4",
                                               "w5", "xb", "xr", "spy", NULL, NULL};

/* The header fields: to, phase, last, over, rng. */
static const char *read_header(char **v, dw_state *t)
{
    if (strcmp(v[0], "b") && strcmp(v[0], "r"))
        return "to= is b or r";
    t->to_move = v[0][0] == 'r';
    if (strcmp(v[1], "play") && strcmp(v[1], "refill"))
        return "phase= is play or refill";
    t->phase = v[1][0] == 'r';
    if (digit_in(v[2], 0, 1) < 0 || digit_in(v[3], 0, 1) < 0)
        return "last= and over= are 0 or 1";
    t->last_turn = (uint8_t)digit_in(v[2], 0, 1);
    t->over = (uint8_t)digit_in(v[3], 0, 1);
    char *dot = strchr(v[4], '.');
    if (!dot)
        return "rng= is <16 hex digits>.<16 hex digits>";
    *dot = '\0';
    if (!read_hex64(v[4], &t->rng.state) || !read_hex64(dot + 1, &t->rng.inc) ||
        !(t->rng.inc & 1))
        return "rng= is <16 hex digits>.<16 hex digits, odd>";
    return NULL;
}

/* Hands, decks and removed piles. */
static const char *read_cards(char **v, dw_state *t)
{
    for (int p = 0; p < 2; p++) {
        const int n = read_counts(v[5 + p], t->hand[p], DW_HAND, HAND_FACES[p]);
        if (n < 0)
            return p ? "hr= is at most 6 cards Red can hold" : "hb= is at most 6 cards Blue can hold";
        t->hand_n[p] = (uint8_t)n;
        const int k = read_faces(v[7 + p], t->personal[p], DW_PERSONAL, PERSONAL0[p]);
        if (k < 0)
            return p ? "pr= holds cards of Red's personal deck only"
                     : "pb= holds cards of Blue's personal deck only";
        t->personal_n[p] = (uint8_t)k;
        if (read_counts(v[15 + p], t->removed[p], 49, HAND_FACES[p]) < 0)
            return p ? "xr= lists cards Red played or lost" : "xb= lists cards Blue played or lost";
    }
    const int m = read_faces(v[9], t->main, DW_MAIN, MAIN0);
    if (m < 0)
        return "m= is the main deck, at most 21 main-deck cards";
    t->main_n = (uint8_t)m;
    return NULL;
}

/* The five walls and the Spy. */
static const char *read_walls(char **v, dw_state *t)
{
    uint8_t archers[DW_WALLS][3];
    for (int w = 0; w < DW_WALLS; w++) {
        char *x = v[10 + w];
        if ((x[0] != 'b' && x[0] != 'r') || !x[1] || !strchr("-br", x[1]) || x[2] != ':')
            return "a wall starts with its controller (b/r) and flag (-/b/r), then ':'";
        t->control[w] = x[0] == 'r';
        t->flag[w] = (uint8_t)(x[1] == '-' ? 0 : x[1] == 'b' ? 1 : 2);
        t->flags_on_board = (uint8_t)(t->flags_on_board + (t->flag[w] != 0));
        char *red = strchr(x + 3, ':');
        if (!red)
            return "a wall is <control><flag>:<Blue side>:<Red side>";
        *red++ = '\0';
        uint8_t red_archers[3];
        if (!read_side(x + 3, &t->side[w][DW_BLUE], DW_BLUE, archers[w]) ||
            !read_side(red, &t->side[w][DW_RED], DW_RED, red_archers))
            return "a wall side is <Archers>/<Cannons>/<Leaders> of that side's cards";
        memcpy(t->side[w][DW_RED].archers, red_archers, 3);
    }
    const char *bad = read_spy(v[17], t, archers);
    if (bad)
        return bad;
    for (int w = 0; w < DW_WALLS; w++)
        memcpy(t->side[w][DW_BLUE].archers, archers[w], 3);
    return NULL;
}

/* Parse into a local state, validate everything, and only then replace *st. */
static int dw_state_from_text(void *st, const char *text, rp_error *err)
{
    char copy[RP_STATE_TEXT];
    if (strlen(text) >= sizeof copy)
        return rp_fail(err, RP_EPARSE, "state text too long");
    strcpy(copy, text);
    char *f[NFIELDS + 2];
    int n = 0;
    for (char *p = copy;; n++) {
        if (n == NFIELDS + 1)
            return rp_fail(err, RP_EPARSE, "state has too many ';' fields (19 expected)");
        f[n] = p;
        char *semi = strchr(p, ';');
        if (!semi) {
            n++;
            break;
        }
        *semi = '\0';
        p = semi + 1;
    }
    if (strcmp(f[0], "dw1") != 0)
        return rp_fail(err, RP_EPARSE, "a Danger at the Walls state starts with 'dw1;'");
    if (n != 19)
        return rp_fail(err, RP_EPARSE, "state has %d ';' fields, 19 expected", n);
    char *v[NFIELDS];
    for (int i = 0; i < 18; i++) {
        v[i] = field(f[i + 1], FIELD_KEY[i]);
        if (!v[i] || !*v[i])
            return rp_fail(err, RP_EPARSE, "field %d should be '%s=...'", i + 2, FIELD_KEY[i]);
    }
    dw_state t;
    memset(&t, 0, sizeof t);
    const char *bad = read_header(v, &t);
    if (!bad)
        bad = read_cards(v, &t);
    if (!bad)
        bad = read_walls(v, &t);
    char why[RP_ERROR_TEXT];
    if (!bad)
        bad = validate(&t, why, sizeof why);
    if (bad)
        return rp_fail(err, RP_EPARSE, "bad state: %s", bad);
    need_archer_table();
    memcpy(st, &t, sizeof t);
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Views and determinizing                                                                    */

/* Views are built often (the tests determinize and compare them at every step), so the
 * nested parts are written as raw JSON text: one node per wall instead of dozens of mallocs.
 * keys are constant strings (the CS calls) for the same reason. */

/* Append a JSON array of face names to t. */
static void json_faces(rp_text *t, const uint8_t *counts)
{
    rp__text_ch(t, '[');
    const char *sep = "";
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < counts[f]; i++, sep = ",") {
            rp__text_str(t, sep);
            rp__text_ch(t, '"');
            rp__text_str(t, FACE_NAME[f]);
            rp__text_ch(t, '"');
        }
    rp__text_ch(t, ']');
}

/* A hand, deck contents or pile as a JSON array of names (one raw node). */
static cJSON *faces_json(const uint8_t *counts)
{
    char buf[49 * 12 + 4];
    rp_text t;
    rp__text_init(&t, buf, sizeof buf);
    json_faces(&t, counts);
    return cJSON_CreateRaw(buf);
}

/* One side of a wall: Archers (the spied one included), Cannons bottom first, Leaders. */
static void json_side(rp_text *t, const dw_state *s, int w, int seat)
{
    const dw_side *sd = &s->side[w][seat];
    rp__text_str(t, "{\"archers\":[");
    const char *sep = "";
    for (int a = 0; a < 3; a++) {
        int c = sd->archers[a];
        if (seat == DW_BLUE && s->spy_wall == w + 1 && s->spy_on == DW_A1 + a)
            c++;
        for (int i = 0; i < c; i++, sep = ",")
            rp__text_str(t, sep), put_int(t, a + 1);
    }
    rp__text_str(t, "],\"cannons\":[");
    for (int i = 0; i < sd->ncannon; i++)
        rp__text_str(t, i ? "," : ""), put_int(t, cannon_value(sd->cannon[i]));
    rp__text_str(t, "],\"leaders\":");
    uint8_t lead[DW_FACES] = {0};
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        lead[f] = (sd->leaders & LB(f)) != 0;
    json_faces(t, lead);
    rp__text_str(t, ",\"strength\":");
    put_int(t, dw_strength(s, w, seat));
    rp__text_ch(t, '}');
}

/* One wall: number, control, Flag, both sides and the Spy when it is there. */
static cJSON *wall_json(const dw_state *s, int w)
{
    char buf[1024];
    rp_text t;
    rp__text_init(&t, buf, sizeof buf);
    rp__text_str(&t, "{\"wall\":");
    put_int(&t, w + 1);
    rp__text_str(&t, ",\"control\":\"");
    rp__text_str(&t, SEAT_NAME[s->control[w]]);
    rp__text_ch(&t, '"');
    if (s->flag[w])
        rp__text_put(&t, ",\"flag\":\"%s\"", SEAT_NAME[s->flag[w] - 1]);
    rp__text_str(&t, ",\"blue\":");
    json_side(&t, s, w, DW_BLUE);
    rp__text_str(&t, ",\"red\":");
    json_side(&t, s, w, DW_RED);
    if (s->spy_wall == w + 1) {
        if (s->spy_on == DW_SPY_ON_CANNON)
            rp__text_put(&t, ",\"spy_on\":\"cannon %d%s\"",
                cannon_value(s->side[w][DW_BLUE].cannon[s->spy_depth]),
                spy_visible(s) ? "" : " (buried)");
        else
            rp__text_put(&t, ",\"spy_on\":\"%s\"", FACE_NAME[s->spy_on]);
    }
    rp__text_ch(&t, '}');
    return cJSON_CreateRaw(buf);
}

/* A two-number JSON array as one raw node (sizes by seat). */
static cJSON *pair_json(int a, int b)
{
    char buf[32];
    snprintf(buf, sizeof buf, "[%d,%d]", a, b);
    return cJSON_CreateRaw(buf);
}

/* A whole number as raw JSON (cJSON's own numbers go through floating point). */
static cJSON *int_json(int v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%d", v);
    return cJSON_CreateRaw(buf);
}

#define ADD(o, key, item) cJSON_AddItemToObjectCS((o), (key), (item))
#define STR(text) cJSON_CreateStringReference(text)

/* DW-13: the board, removed piles, deck sizes and hand sizes are public; a seat also sees
 * its own hand and its own personal deck's contents (not their order). */
static cJSON *dw_view_json(const void *st, int player)
{
    const dw_state *s = st;
    const int p = player & 1;
    cJSON *o = cJSON_CreateObject();
    ADD(o, "game", STR("danger-at-the-walls"));
    ADD(o, "you", STR(SEAT_NAME[p]));
    ADD(o, "over", cJSON_CreateBool(s->over));
    if (s->over)
        ADD(o, "winner", STR(SEAT_NAME[walls_of(s, DW_BLUE) < 3]));
    else
        ADD(o, "to_move", STR(SEAT_NAME[s->to_move]));
    ADD(o, "phase", STR(s->phase ? "refill" : "play"));
    ADD(o, "last_turn", cJSON_CreateBool(s->last_turn));
    ADD(o, "flags_on_board", int_json(s->flags_on_board));
    ADD(o, "hand", faces_json(s->hand[p]));
    uint8_t own[DW_FACES] = {0};
    for (int i = 0; i < s->personal_n[p]; i++)
        own[s->personal[p][i]]++;
    ADD(o, "personal_deck", faces_json(own));
    ADD(o, "hand_sizes", pair_json(s->hand_n[0], s->hand_n[1]));
    ADD(o, "personal_deck_sizes", pair_json(s->personal_n[0], s->personal_n[1]));
    ADD(o, "main_deck_size", int_json(s->main_n));
    cJSON *walls = cJSON_CreateArray();
    for (int w = 0; w < DW_WALLS; w++)
        cJSON_AddItemToArray(walls, wall_json(s, w));
    ADD(o, "walls", walls);
    cJSON *rem = cJSON_CreateObject();
    ADD(rem, "blue", faces_json(s->removed[DW_BLUE]));
    ADD(rem, "red", faces_json(s->removed[DW_RED]));
    ADD(o, "removed", rem);
    return o;
}

/* Depths (cards above, in the 21-card deck after setup) of the two main-deck Flags, drawn
 * from the DW-1 insertion rule. */
static void sample_flag_depths(rp_rng *rng, int depth[2])
{
    const int a = 9 + (int)rp_rng_below(rng, 3);
    const int b = 10 + (int)rp_rng_below(rng, 11);
    depth[0] = a < b ? a : a + 1;
    depth[1] = b;
}

/* The hidden cards of the opponent q, split for determinizing. */
typedef struct dw_split {
    uint8_t hand[DW_FACES], personal[DW_FACES], main_other[DW_FACES];
    int flag_depth[2];
} dw_split;

/* One try at splitting the cards `pool` that observer cannot see (q's hand, q's personal deck,
 * the main deck) consistently with what is public: q's personal deck holds only its own
 * cards, the main deck only main cards with its Flags where DW-1 can put them, and cards
 * gone from q's personal deck are in q's hand or were played by q. */
static bool try_split(const dw_state *s, int q, const uint8_t *pool, const uint8_t *played,
                      rp_rng *rng, dw_split *out)
{
    const int h = s->hand_n[q], r = s->personal_n[q], drawn = DW_MAIN - s->main_n;
    sample_flag_depths(rng, out->flag_depth);
    const int k = (out->flag_depth[0] >= drawn) + (out->flag_depth[1] >= drawn);
    uint8_t elig[DW_PERSONAL];
    int ne = 0;
    for (int f = 0; f < DW_FACES; f++)
        if (PERSONAL0[q][f] && pool[f])
            elig[ne++] = (uint8_t)f;
    if (ne < r)
        return false;
    memset(out->personal, 0, DW_FACES);
    for (int i = 0; i < r; i++) {
        const int j = i + (int)rp_rng_below(rng, (uint32_t)(ne - i));
        const uint8_t t = elig[i];
        elig[i] = elig[j];
        elig[j] = t;
        out->personal[elig[i]] = 1;
    }
    uint8_t free_list[DW_MAIN + DW_HAND + DW_PERSONAL];
    int nfree = 0, need = 0;
    for (int f = 0; f < DW_FACES; f++) {
        const int rest = pool[f] - out->personal[f];
        int origin = PERSONAL0[q][f] - out->personal[f] - played[f];
        origin = origin < 0 ? 0 : origin;
        int lb = rest - (f == DW_FLAG ? k : MAIN0[f]);
        lb = lb > origin ? lb : origin;
        if (lb > rest || (f == DW_FLAG && rest - k < origin))
            return false;
        out->hand[f] = (uint8_t)lb;
        need += lb;
        if (f != DW_FLAG)
            for (int i = lb; i < rest; i++)
                free_list[nfree++] = (uint8_t)f;
    }
    if (need > h || nfree < h - need)
        return false;
    for (int i = 0; i < h - need; i++) {
        const int j = i + (int)rp_rng_below(rng, (uint32_t)(nfree - i));
        const uint8_t t = free_list[i];
        free_list[i] = free_list[j];
        free_list[j] = t;
        out->hand[free_list[i]]++;
    }
    for (int f = 0; f < DW_FACES; f++)
        out->main_other[f] = (uint8_t)(pool[f] - out->personal[f] - out->hand[f]);
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

/* Resample what `player` cannot see (DW-13): the opponent's hand, the opponent's personal deck,
 * the main deck's order and contents, the order of player's own personal deck, and the rng.
 * A split is almost always found in one or two tries (none missed in 400,000 random-game
 * calls with 256 tries); should all tries fail (e.g. a hand-made position whose main-deck
 * Flags sit where DW-1 cannot put them), the hidden contents stay and only orders change. */
static void dw_determinize(void *st, int player, rp_rng *rng)
{
    dw_state *s = st;
    const int p = player & 1, q = p ^ 1;
    uint8_t pool[DW_FACES], played[DW_FACES];
    memcpy(pool, s->hand[q], DW_FACES);
    for (int i = 0; i < s->personal_n[q]; i++)
        pool[s->personal[q][i]]++;
    for (int i = 0; i < s->main_n; i++)
        pool[s->main[i]]++;
    played_by(s, q, played);
    dw_split sp;
    bool ok = false;
    for (int attempt = 0; attempt < 256 && !ok; attempt++)
        ok = try_split(s, q, pool, played, rng, &sp);
    if (ok) {
        memcpy(s->hand[q], sp.hand, DW_FACES);
        counts_to_list(sp.personal, s->personal[q], rng);
        uint8_t other[DW_MAIN];
        int n = counts_to_list(sp.main_other, other, rng);
        for (int i = 0; i < s->main_n; i++) {
            const int depth = DW_MAIN - 1 - i;
            s->main[i] = (depth == sp.flag_depth[0] || depth == sp.flag_depth[1])
                             ? (uint8_t)DW_FLAG
                             : other[--n];
        }
    } else {
        canonical_shuffle(s->personal[q], s->personal_n[q], rng);
        shuffle_main_keeping_flags(s, rng);
    }
    canonical_shuffle(s->personal[p], s->personal_n[p], rng);
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
/* Evaluation and rendering                                                                   */

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

/* One side of a wall on one line: strength, then Archers, Cannon and Leaders, with what the
 * Spy covers marked. */
static void render_side(const dw_state *s, int w, int seat, FILE *out, bool color)
{
    const dw_side *sd = &s->side[w][seat];
    const bool spy_here = seat == DW_BLUE && s->spy_wall == w + 1;
    fprintf(out, "    %s%-4s%s %3d ", col(color, seat), seat ? "Red" : "Blue", col(color, 2),
            dw_strength(s, w, seat));
    const char *sep = "";
    for (int v = 0; v < 3; v++) {
        for (int i = 0; i < sd->archers[v]; i++, sep = " ")
            fprintf(out, "%sA%d", sep, v + 1);
        if (spy_here && s->spy_on == DW_A1 + v)
            fprintf(out, "%sA%d(spied)", sep, v + 1), sep = " ";
    }
    if (sd->ncannon) {
        fprintf(out, "%s%sCannon %d%s", sep, *sep ? "| " : "",
                cannon_value(sd->cannon[sd->ncannon - 1]),
                seat == DW_BLUE && spy_on_top_cannon(s, w) ? "(spied)" : "");
        if (sd->ncannon > 1)
            fprintf(out, " (%d buried%s)", sd->ncannon - 1,
                    spy_here && s->spy_on == DW_SPY_ON_CANNON && !spy_on_top_cannon(s, w)
                        ? ", one under the Spy"
                        : "");
        sep = " ";
    }
    for (int f = DW_GENERAL; f < DW_FACES; f++)
        if (sd->leaders & LB(f)) {
            fprintf(out, "%s%s%c%s%s", sep, *sep ? "| " : "", toupper((unsigned char)FACE_NAME[f][0]),
                    FACE_NAME[f] + 1, spy_here && s->spy_on == f ? "(spied)" : "");
            sep = " ";
        }
    if (!*sep)
        fprintf(out, "-");
    fputc('\n', out);
}

/* The player's view for a terminal: walls with both sides, hand, decks, removed cards. */
static void dw_render(const void *st, int player, FILE *out, bool color)
{
    const dw_state *s = st;
    const int p = player & 1;
    fprintf(out, "Danger at the Walls - you are %s%s%s. ", col(color, p), p ? "Red" : "Blue",
            col(color, 2));
    if (s->over)
        fprintf(out, "Game over: %s wins.\n", walls_of(s, DW_BLUE) >= 3 ? "Blue" : "Red");
    else
        fprintf(out, "%s%s%s to %s%s.\n", col(color, s->to_move), s->to_move ? "Red" : "Blue",
                col(color, 2), s->phase ? "refill" : "play",
                s->last_turn ? " (last turn)" : "");
    fprintf(out, "Flags on the board: %d (the third ends the game)\n", s->flags_on_board);
    for (int w = 0; w < DW_WALLS; w++) {
        fprintf(out, "  Wall %d: %s%s%s", w + 1, col(color, s->control[w]),
                s->control[w] ? "Red" : "Blue", col(color, 2));
        if (s->flag[w])
            fprintf(out, " [locked by %s's Flag]", s->flag[w] == 1 ? "Blue" : "Red");
        fputc('\n', out);
        render_side(s, w, DW_BLUE, out, color);
        render_side(s, w, DW_RED, out, color);
    }
    fprintf(out, "Your hand:");
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < s->hand[p][f]; i++)
            fprintf(out, " [%s]", FACE_NAME[f]);
    uint8_t own[DW_FACES] = {0};
    for (int i = 0; i < s->personal_n[p]; i++)
        own[s->personal[p][i]]++;
    fprintf(out, "\nYour personal deck (%d, order unknown):", s->personal_n[p]);
    for (int f = 0; f < DW_FACES; f++)
        for (int i = 0; i < own[f]; i++)
            fprintf(out, " %s", FACE_NAME[f]);
    fprintf(out, "\nOpponent: %d cards in hand, %d in personal deck. Main deck: %d cards.\n",
            s->hand_n[p ^ 1], s->personal_n[p ^ 1], s->main_n);
    for (int seat = 0; seat < 2; seat++) {
        fprintf(out, "Removed (%s):", seat ? "Red" : "Blue");
        int any = 0;
        for (int f = 0; f < DW_FACES; f++)
            for (int i = 0; i < s->removed[seat][f]; i++, any++)
                fprintf(out, " %s", FACE_NAME[f]);
        fprintf(out, "%s\n", any ? "" : " none");
    }
}

static const char *const dw_seat_names[] = {"Blue", "Red"};

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
    .seat_names = dw_seat_names,
    .ai_levels = {"iters=300", "iters=2000", "iters=10000"},
    .init = dw_init,
    .num_players = dw_num_players,
    .current_player = dw_current_player,
    .legal_actions = dw_legal_actions,
    .apply = dw_apply,
    .returns = dw_returns,
    .action_to_text = dw_action_to_text,
    .action_from_text = dw_action_from_text,
    .state_to_text = dw_state_to_text,
    .state_from_text = dw_state_from_text,
    .view_json = dw_view_json,
    .determinize = dw_determinize,
    .render = dw_render,
    .evaluate = dw_evaluate,
    .observe_action = dw_observe_action,
};
