/* rules.c — Rush the Wall's rules, the hot path: setup and the rounds, turn resolution in
 * the order of ruling RW-6, legal actions, apply and returns, with a narrator that apply
 * leaves out (events_json in view.c tells what it notes); and the card sets the rules read
 * (the defaults, a card file, the cards= option's value). */
#include "games/rush-the-wall/internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/datafile.h"
#include "core/notation.h"
#include "core/words.h"

/* The rules take a narrator `t` all along. The stages of a turn are inlined into both
 * callers, so apply (t = NULL) compiles them without narration; the few functions called once
 * a round keep one copy and test t (measured: docs/games/rush-the-wall.md). */
#if defined(__GNUC__)
#define NARRATED static inline RP_FORCE_INLINE
#define FALL_THROUGH __attribute__((fallthrough))
#else
#define NARRATED static inline
#define FALL_THROUGH ((void)0)
#endif

/* A new note in t (not NULL); kept out of line, as only events_json narrates. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
rtw_note *
rtw_new_note(rtw_tell *t, const rtw_state *s, int kind, int clan)
{
    rp_assert(t->n < RTW_MAX_NOTES);
    if (t->n == RTW_MAX_NOTES)
        return NULL;
    rtw_note *n = &t->note[t->n++];
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->round = s->round;
    n->turn = s->turn;
    n->clan = (int8_t)clan;
    n->other = -1;
    n->warrior = n->fort = n->fort2 = RTW_NONE;
    return n;
}

/* A new note of `kind` about `clan` (or -1), or NULL when nobody narrates: one test on the
 * hot path (apply narrates to nobody). */
static inline rtw_note *say(rtw_tell *t, const rtw_state *s, int kind, int clan)
{
    return t ? rtw_new_note(t, s, kind, clan) : NULL;
}

/* A note that only names a warrior. */
static inline void say_warrior(rtw_tell *t, const rtw_state *s, int kind, int clan, int warrior)
{
    rtw_note *n = say(t, s, kind, clan);
    if (n)
        n->warrior = (uint8_t)warrior;
}

/* RW-17: the forts a Tax-Collector's capturer may pay, one id per distinct card (the lowest
 * id), so identical forts make one action. A card set's forts are in canonical order (by kind,
 * then nearest zero; rtw_check_cards refuses any other) and a kind's values all have one sign,
 * so the forts of one card have consecutive ids: going up, a fort repeats a card only when it
 * repeats the last one chosen. */
uint32_t rtw_tax_choices(const rtw_state *s)
{
    uint32_t others = s->forts[s->capturer] & ~(1u << s->captured), out = 0;
    int chosen = -1;
    for (uint32_t m = others; m; m &= m - 1) {
        int f = lowest_bit(m);
        if (chosen < 0 || !same_fort(&s->cards, f, chosen)) {
            out |= 1u << f;
            chosen = f;
        }
    }
    return out;
}

/* RW-7 / RW-15: the rivals whose warrior revealed this turn is still face up. */
uint16_t rtw_charm_choices(const rtw_state *s, int qween_clan)
{
    uint16_t out = 0;
    for (int c = 0; c < s->clans; c++)
        if (c != qween_clan && (s->up[c] & BIT(revealed(s, c))))
            out |= BIT(c);
    return out;
}

/* ---- setting up rounds ---- */

void rtw_arrange_wall(const rtw_cards *cards, const uint8_t draw[RTW_SLOTS],
                      uint8_t wall[RTW_SLOTS])
{
    /* One pass finds both: the highest positive fort, ties nearest the right end (>=), and the
     * lowest, ties nearest the left end (<). A positive value (at most 30, rtw_check_cards)
     * beats both starting values, so the first positive fort is both until another beats it. */
    int hi = -1, lo = -1, hi_value = 0, lo_value = INT8_MAX;
    for (int i = 0; i < RTW_SLOTS; i++) {
        int v = cards->fort_value[draw[i]];
        if (v <= 0)
            continue;
        if (v >= hi_value) {
            hi = i;
            hi_value = v;
        }
        if (v < lo_value) {
            lo = i;
            lo_value = v;
        }
    }
    if (hi < 0) { /* no positive fort: nothing moves */
        memcpy(wall, draw, RTW_SLOTS);
        return;
    }
    /* RTW-P1: a lone positive fort is moved right, then left (the text's order): it ends left. */
    int n = 0;
    wall[n++] = draw[lo];
    for (int i = 0; i < RTW_SLOTS; i++)
        if (i != hi && i != lo)
            wall[n++] = draw[i];
    if (hi != lo)
        wall[n++] = draw[hi];
}

/* RW-4, RW-5, RW-11: draw the round's wall, deal each player clan 7 hidden warriors and lay
 * each neutral clan's 6 random warriors in random order; the first clan starts planning. The
 * rounds before keep their warriors in `prev` (RW-12: they return to their clans). */
static void start_round(rtw_state *s, int round, rtw_tell *t)
{
    if (round > 0) /* rows of clans not in the game are zero in both */
        memcpy(s->prev, s->slot, sizeof s->prev);
    s->round = (uint8_t)round;
    s->turn = 0;
    rtw_arrange_wall(&s->cards, &s->deck[(size_t)RTW_SLOTS * (size_t)round], s->wall);
    rtw_note *n = say(t, s, N_ROUND, -1);
    if (n)
        memcpy(n->wall, s->wall, RTW_SLOTS);
    for (int c = 0; c < s->clans; c++) {
        uint8_t order[RTW_KINDS] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        rp_rng_shuffle_u8(&s->rng, order, RTW_KINDS);
        /* The first 7 (neutral: 6) of the nine are drawn: all but the last two (three). */
        _Static_assert(RTW_KINDS == 9 && RTW_DRAW == 7 && RTW_SLOTS == 6, "drawn: order[6..8]");
        uint16_t m = (uint16_t)(ALL_WARRIORS & ~(BIT(order[7]) | BIT(order[8])));
        if (!is_player(s, c))
            m &= (uint16_t)~BIT(order[6]);
        s->drawn[c] = m;
        s->up[c] = 0;
        if (is_player(s, c)) {
            s->hand[c] = m;
            memset(s->slot[c], RTW_NONE, RTW_SLOTS);
            if ((n = say(t, s, N_DRAW, c)))
                n->mask = m;
        } else {
            s->hand[c] = 0;
            memcpy(s->slot[c], order, RTW_SLOTS);
            say(t, s, N_NEUTRAL_PLAN, c);
        }
    }
    s->phase = RTW_PLAN;
    s->actor = 0;
    s->next_slot = 0;
    s->capturer = -1;
    s->captured = RTW_NONE;
    s->keep = 0;
}

/* ---- turn resolution (RW-6) ---- */

/* How many clans revealed each warrior kind this turn, 4 bits a kind: at most 4 clans (RW-1),
 * so a count never carries into the next kind's bits. Counted once a turn, it lets each stage
 * ask "did anybody reveal a Horsie?" with a shift instead of a loop over the clans; the
 * warriors a turn revealed stay in their slots while it resolves. */
typedef uint64_t kind_counts;
_Static_assert(4 * RTW_KINDS <= 64 && RTW_MAX_CLANS < 16, "kind_counts: 4 bits a kind");

static inline kind_counts count_revealed(const rtw_state *s)
{
    kind_counts counts = 0;
    for (int c = 0; c < s->clans; c++)
        counts += (kind_counts)1 << (4 * revealed(s, c));
    return counts;
}

static inline int clans_that_revealed(kind_counts counts, int kind)
{
    return (int)(counts >> (4 * kind)) & 15;
}

enum { ST_REVEAL, ST_DRUHID, ST_FORT, ST_SIGNAL, ST_AXX, ST_DISCARD, ST_HORSIE, ST_ZVORD, ST_END };

static void wait_for(rtw_state *s, int phase, int actor)
{
    s->phase = (uint8_t)phase;
    s->actor = (uint8_t)actor;
}

/* RW-8 without a capturer: RW-13, RW-19 in the variant the fort stays, the rightmost goes and
 * the rest slide right; else the fort is discarded. */
NARRATED void nobody_captures(rtw_state *s, rtw_tell *t, uint16_t tied, int best, int archers)
{
    int turn = s->turn;
    rtw_note *n = say(t, s, N_NO_CAPTURE, -1);
    if (n) {
        n->mask = tied;
        n->value[0] = (int16_t)best;
        n->pos = (uint8_t)archers;
        n->fort = s->wall[turn];
        n->fort2 = s->wall[RTW_SLOTS - 1];
        n->flag = s->variant;
    }
    if (s->variant) {
        s->gone |= 1u << s->wall[RTW_SLOTS - 1];
        for (int i = RTW_SLOTS - 1; i > turn; i--)
            s->wall[i] = s->wall[i - 1];
    } else {
        s->gone |= 1u << s->wall[turn];
    }
    s->wall[turn] = RTW_NONE;
}

/* RW-8: totals after Qween (qclan charms target, or -1), Filchy drop-outs, Arch'r ties. */
/* The clans that revealed warrior kind k this turn (for the narrator only). */
static uint16_t clans_revealing(const rtw_state *s, int k)
{
    uint16_t mask = 0;
    for (int c = 0; c < s->clans; c++)
        if (revealed(s, c) == k)
            mask |= BIT(c);
    return mask;
}

/* The clans tied at the best total (for the narrator only). */
static uint16_t clans_tied(const rtw_state *s, const int *total, int best)
{
    uint16_t mask = 0;
    for (int c = 0; c < s->clans; c++)
        if (revealed(s, c) != RTW_FILCHY && total[c] == best)
            mask |= BIT(c);
    return mask;
}

NARRATED void decide_capture(rtw_state *s, rtw_tell *t, int qclan, int target)
{
    int stolen = 0;
    if (target >= 0) { /* RW-7: her value replaced by the charmed one's, which counts 0 */
        stolen = s->cards.strength[revealed(s, target)];
        rtw_note *n = say(t, s, N_CHARM, qclan);
        if (n) {
            n->other = (int8_t)target;
            n->warrior = (uint8_t)revealed(s, target);
        }
    }
    int total[RTW_MAX_CLANS];
    int best = 0, tied = 0, archers = 0, archer = -1, winner = -1;
    for (int c = 0; c < s->clans; c++) {
        total[c] = strength_of(s, s->up[c]);
        if (c == qclan) /* qclan is -1 without a target */
            total[c] += stolen - s->cards.strength[RTW_QWEEN];
        if (c == target)
            total[c] -= stolen;
        if (revealed(s, c) == RTW_FILCHY)
            continue;
        if (tied == 0 || total[c] > best) {
            best = total[c];
            tied = 0;
            archers = 0;
        } else if (total[c] < best) {
            continue;
        }
        tied++;
        winner = c;
        if (revealed(s, c) == RTW_ARCHR) { /* RW-15: a charmed Arch'r keeps its tie power */
            archers++;
            archer = c;
        }
    }
    rtw_note *n = say(t, s, N_TOTALS, -1);
    if (n) {
        n->mask = clans_revealing(s, RTW_FILCHY);
        for (int c = 0; c < s->clans; c++)
            n->value[c] = (int16_t)total[c];
    }
    uint16_t tied_mask = t && tied > 1 ? clans_tied(s, total, best) : 0;
    if (tied > 1)
        winner = archers == 1 ? archer : -1;
    s->capturer = (int8_t)winner;
    if (winner < 0) {
        nobody_captures(s, t, tied_mask, best, archers);
        return;
    }
    if ((n = say(t, s, N_CAPTURE, winner))) {
        n->fort = s->wall[s->turn];
        n->value[0] = (int16_t)best;
        n->mask = tied_mask;
    }
}

/* Reveal, Ch'ariott collisions, then Qween: stops when a Qween's owner must pick. It counts
 * what the clans revealed into *counts (as count_revealed) on the way. */
NARRATED bool stage_reveal(rtw_state *s, rtw_tell *t, kind_counts *counts)
{
    s->capturer = -1;
    s->captured = RTW_NONE;
    s->keep = 0;
    rtw_note *n = say(t, s, N_ATTACK, -1);
    if (n) {
        n->fort = s->wall[s->turn];
        n->pos = s->turn;
    }
    kind_counts shown = 0;
    for (int c = 0; c < s->clans; c++) {
        int k = revealed(s, c);
        s->up[c] |= BIT(k);
        shown += (kind_counts)1 << (4 * k);
        if ((n = say(t, s, N_REVEAL, c))) {
            n->warrior = (uint8_t)k;
            n->pos = s->turn;
        }
    }
    *counts = shown;
    const int chariotts = clans_that_revealed(shown, RTW_CHARIOTT);
    const int qweens = clans_that_revealed(shown, RTW_QWEEN);
    if (chariotts >= 2) { /* RW-6: colliding Ch'ariotts are discarded before points */
        for (int c = 0; c < s->clans; c++)
            if (revealed(s, c) == RTW_CHARIOTT)
                s->up[c] &= (uint16_t)~BIT(RTW_CHARIOTT);
        if ((n = say(t, s, N_WRECK, -1)))
            n->mask = clans_revealing(s, RTW_CHARIOTT);
    }
    int target = -1, qclan = -1;
    if (qweens == 1) /* whose Qween: a loop only on the turns that have one */
        while (revealed(s, ++qclan) != RTW_QWEEN)
            continue;
    if (qweens >= 2) { /* RW-7, RW-14: two or more Qweens cancel */
        if ((n = say(t, s, N_QWEENS_CANCEL, -1)))
            n->mask = clans_revealing(s, RTW_QWEEN);
    } else if (qweens == 1 && !is_player(s, qclan)) { /* RW-11: a neutral's has no power */
        say(t, s, N_QWEEN_NEUTRAL, qclan);
    } else if (qweens == 1) {
        uint16_t choices = rtw_charm_choices(s, qclan);
        if (popcount(choices) > 1) {
            wait_for(s, RTW_QWEEN_PICK, qclan);
            return true;
        }
        if (choices)
            target = lowest_bit(choices);
        else
            say(t, s, N_QWEEN_ALONE, qclan);
    }
    decide_capture(s, t, target >= 0 ? qclan : -1, target);
    return false;
}

/* RW-9 Dru'hid: take the fort at wall position pos; the leftmost fills its place (or, in the
 * variant RW-13, the forts left of it slide one place right). */
NARRATED void take_fort(rtw_state *s, rtw_tell *t, int pos)
{
    int turn = s->turn;
    int fort = s->wall[pos];
    rtw_note *n = say(t, s, N_TAKE, s->capturer);
    if (n) {
        n->fort = (uint8_t)fort;
        n->fort2 = s->wall[turn];
        n->pos = (uint8_t)pos;
        n->flag = s->variant;
    }
    if (pos != turn) {
        if (s->variant) {
            for (int i = pos; i > turn; i--)
                s->wall[i] = s->wall[i - 1];
        } else {
            s->wall[pos] = s->wall[turn];
        }
    }
    s->wall[turn] = RTW_NONE;
    s->captured = (uint8_t)fort;
    s->forts[s->capturer] |= 1u << fort;
}

NARRATED bool stage_druhid(rtw_state *s)
{
    int cap = s->capturer;
    if (cap < 0)
        return false;
    if (is_player(s, cap) && revealed(s, cap) == RTW_DRUHID && s->turn < RTW_SLOTS - 1) {
        wait_for(s, RTW_DRUHID_PICK, cap);
        return true;
    }
    take_fort(s, NULL, s->turn); /* the capture note already named the fort */
    return false;
}

/* Discard one face-up warrior of clan c, told as a note of `kind`. */
NARRATED void discard_up(rtw_state *s, rtw_tell *t, int kind, int c, int warrior)
{
    s->up[c] &= (uint16_t)~BIT(warrior);
    say_warrior(t, s, kind, c, warrior);
}

/* RW-10 Signal, the capturer's own discard (RTW-P2): everything but a kept Axx goes right after,
 * so it discards its weakest warrior other than the Axx it revealed, Axx only when alone. */
NARRATED void signal_capturer(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    uint16_t up = s->up[cap];
    say(t, s, N_SIGNAL_FORT, cap);
    if (!up)
        return;
    uint16_t pool = up; /* RW-11: a neutral discards its weakest */
    if (is_player(s, cap) && revealed(s, cap) == RTW_AXX && (up & ~BIT(RTW_AXX)))
        pool = (uint16_t)(up & ~BIT(RTW_AXX));
    discard_up(s, t, N_SIGNAL, cap, weakest(s, pool));
}

/* Pay fort f for the Tax-Collector's (RW-17). */
NARRATED void pay_fort(rtw_state *s, rtw_tell *t, int f)
{
    int cap = s->capturer;
    s->forts[cap] &= ~(1u << f);
    s->gone |= 1u << f;
    rtw_note *n = say(t, s, N_TAX, cap);
    if (n) {
        n->fort = (uint8_t)f;
        n->fort2 = s->captured;
    }
}

/* RW-17: pay a fort for the Tax-Collector's; the neutral pays its lowest other fort. */
NARRATED bool tax(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    uint32_t choices = rtw_tax_choices(s);
    int pay;
    if (!choices) {
        pay = s->captured;
    } else if (is_player(s, cap)) {
        if (popcount(choices) > 1) {
            wait_for(s, RTW_TAX_PICK, cap);
            return true;
        }
        pay = lowest_bit(choices);
    } else {
        pay = lowest_bit(choices);
        for (uint32_t m = choices; m; m &= m - 1)
            if (s->cards.fort_value[lowest_bit(m)] < s->cards.fort_value[pay])
                pay = lowest_bit(m);
    }
    pay_fort(s, t, pay);
    return false;
}

/* The captured fort's effect (RW-10, RW-18). Stops for a Tax choice or a Legion win. */
NARRATED bool stage_fort(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    if (cap < 0)
        return false;
    switch (s->cards.fort_kind[s->captured]) {
    case RTW_UNWARY: {
        int kept = s->up[cap] ? weakest(s, s->up[cap]) : RTW_NONE;
        if (kept != RTW_NONE)
            s->keep |= BIT(kept);
        say_warrior(t, s, N_UNWARY, cap, kept);
        return false;
    }
    case RTW_SIGNAL:
        signal_capturer(s, t);
        return false;
    case RTW_TAX:
        return tax(s, t);
    case RTW_LEGION: {
        if (legions(s, cap) < RTW_LEGION_WIN)
            return false;
        rtw_note *n = say(t, s, N_LEGION, cap);
        if (n)
            n->flag = !is_player(s, cap);
        if (!is_player(s, cap)) /* RW-18: a neutral does not win, play goes on */
            return false;
        s->winner = (int8_t)cap;
        wait_for(s, RTW_OVER, 0);
        say(t, s, N_GAME_OVER, cap);
        return true;
    }
    default:
        return false;
    }
}

/* RW-10 Signal for every other clan, in seat order (RW-6) from `from`. */
NARRATED bool stage_signal(rtw_state *s, rtw_tell *t, int from)
{
    if (s->capturer < 0 || s->cards.fort_kind[s->captured] != RTW_SIGNAL)
        return false;
    for (int c = from; c < s->clans; c++) {
        uint16_t up = s->up[c];
        if (c == s->capturer || !up)
            continue;
        if (is_player(s, c) && popcount(up) > 1) {
            wait_for(s, RTW_SIGNAL_PICK, c);
            return true;
        }
        discard_up(s, t, N_SIGNAL, c, weakest(s, up));
    }
    return false;
}

/* RW-9 Axx: a player capturer may keep it; a neutral always does (RW-11). */
NARRATED bool stage_axx(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    if (cap < 0 || revealed(s, cap) != RTW_AXX || !(s->up[cap] & BIT(RTW_AXX)) ||
        (s->keep & BIT(RTW_AXX)))
        return false;
    if (is_player(s, cap)) {
        wait_for(s, RTW_AXX_PICK, cap);
        return true;
    }
    s->keep |= BIT(RTW_AXX);
    rtw_note *n = say(t, s, N_AXX, cap);
    if (n)
        n->flag = 1;
    return false;
}

/* The capturer discards its face-up warriors but the kept ones. */
NARRATED void stage_discard(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    if (cap >= 0) {
        uint16_t gone = (uint16_t)(s->up[cap] & ~s->keep), kept = (uint16_t)(s->up[cap] & s->keep);
        rtw_note *n = gone || kept ? say(t, s, N_DISCARD, cap) : NULL;
        if (n) {
            n->mask = gone;
            n->mask2 = kept;
        }
        s->up[cap] = kept;
    }
    s->keep = 0;
}

/* RW-9 Horsie for every clan that revealed her and did not capture, in seat order. RW-20
 * (RTW-P3): her penalty belongs to the turn she was revealed, so it applies even when a Signal
 * discarded her earlier this turn, and takes nothing when nothing is left face up. */
NARRATED bool stage_horsie(rtw_state *s, rtw_tell *t, kind_counts counts, int from)
{
    if (!clans_that_revealed(counts, RTW_HORSIE))
        return false;
    for (int c = from; c < s->clans; c++) {
        if (c == s->capturer || revealed(s, c) != RTW_HORSIE)
            continue;
        uint16_t choices = horsie_choices(s, c);
        if (!choices) {
            say_warrior(t, s, N_HORSIE, c, RTW_NONE);
            continue;
        }
        if (is_player(s, c) && popcount(choices) > 1) {
            wait_for(s, RTW_HORSIE_PICK, c);
            return true;
        }
        discard_up(s, t, N_HORSIE, c, weakest(s, choices)); /* RW-11 for neutrals */
    }
    return false;
}

/* RW-6, RW-19 Zvord: a player clan takes back its hidden warriors and places them again. */
NARRATED bool stage_zvord(rtw_state *s, rtw_tell *t, kind_counts counts, int from)
{
    int first = s->turn + 1;
    if (RTW_SLOTS - first < 2 || !clans_that_revealed(counts, RTW_ZVORD))
        return false;
    for (int c = from; c < s->players; c++) {
        if (revealed(s, c) != RTW_ZVORD)
            continue;
        uint16_t hand = 0;
        for (int i = first; i < RTW_SLOTS; i++) {
            hand |= BIT(s->slot[c][i]);
            s->slot[c][i] = RTW_NONE;
        }
        s->hand[c] = hand;
        s->next_slot = (uint8_t)first;
        rtw_note *n = say(t, s, N_ZVORD, c);
        if (n)
            n->pos = (uint8_t)(RTW_SLOTS - first);
        wait_for(s, RTW_ZVORD_PLACE, c);
        return true;
    }
    return false;
}

/* RW-12: the next turn, else the next round, else the end. */
NARRATED bool stage_end(rtw_state *s, rtw_tell *t)
{
    if (s->turn + 1 < RTW_SLOTS) {
        s->turn++;
        return false;
    }
    rtw_note *n = say(t, s, N_ROUND_END, -1);
    for (int c = 0; n && c < s->clans; c++)
        n->value[c] = (int16_t)fort_total(s, c);
    if (s->round + 1 < RTW_ROUNDS) {
        start_round(s, s->round + 1, t);
    } else {
        wait_for(s, RTW_OVER, 0);
        say(t, s, N_GAME_OVER, -1);
    }
    return true;
}

/* Run the turn from `stage` (and, for per-clan stages, from clan `from`) until a clan must
 * decide or the game ends: the stages in the order of RW-6, entered at `stage` and falling
 * through to the next; only the stage entered starts at clan `from`. */
NARRATED void resolve(rtw_state *s, rtw_tell *t, int stage, int from)
{
    for (;;) {
        /* stage_reveal counts what it turns up; a turn resumed after a decision counts here */
        kind_counts counts = stage == ST_REVEAL ? 0 : count_revealed(s);
        switch (stage) {
        case ST_REVEAL:
            if (stage_reveal(s, t, &counts))
                return;
            FALL_THROUGH;
        case ST_DRUHID:
            if (stage_druhid(s))
                return;
            FALL_THROUGH;
        case ST_FORT:
            if (stage_fort(s, t))
                return;
            FALL_THROUGH;
        case ST_SIGNAL:
            if (stage_signal(s, t, from))
                return;
            from = 0;
            FALL_THROUGH;
        case ST_AXX:
            if (stage_axx(s, t))
                return;
            FALL_THROUGH;
        case ST_DISCARD:
            stage_discard(s, t);
            FALL_THROUGH;
        case ST_HORSIE:
            if (stage_horsie(s, t, counts, from))
                return;
            from = 0;
            FALL_THROUGH;
        case ST_ZVORD:
            if (stage_zvord(s, t, counts, from))
                return;
            FALL_THROUGH;
        default:
            if (stage_end(s, t))
                return;
        }
        stage = ST_REVEAL;
        from = 0;
    }
}

/* RW-1, RTW-P5: the neutral clans these options give (one player alone gets one). */
static int neutrals_of(const rp_config *cfg)
{
    if (!cfg->given[OPT_NEUTRALS] && cfg->players == 1)
        return 1;
    return (int)cfg->value[OPT_NEUTRALS];
}

int rtw_init(void *st, const rp_config *cfg, rp_error *err)
{
    int players = cfg->players;
    int neutrals = neutrals_of(cfg);
    if (players + neutrals < 2)
        return rp_fail(err, RP_EINVAL, "players=1 needs neutrals=1 or 2 (RW-1: 2..4 clans)");
    if (players + neutrals > RTW_MAX_CLANS)
        return rp_fail(err, RP_EINVAL, "players=%d neutrals=%d: at most %d clans in all (RW-1)",
                       players, neutrals, RTW_MAX_CLANS);
    rtw_cards cards = *rtw_default_cards();
    if (cfg->given[OPT_CARDS]) {
        int rc = rtw_cards_from_value(cfg->text[OPT_CARDS], &cards, err);
        if (rc < 0)
            return RP_EINVAL;
    }
    rtw_state *s = st;
    memset(s, 0, sizeof *s);
    s->cards = cards;
    s->players = (uint8_t)players;
    s->neutrals = (uint8_t)neutrals;
    s->clans = (uint8_t)(players + neutrals);
    s->variant = (uint8_t)cfg->value[OPT_VARIANT];
    s->winner = -1;
    memset(s->prev, RTW_NONE, (size_t)s->clans * sizeof s->prev[0]);
    rp_rng_seed(&s->rng, cfg->seed, 0x52545741u);
    static const uint8_t fort_ids[RTW_FORTS] = {0, 1,  2,  3,  4,  5,  6,  7,  8,
                                                9, 10, 11, 12, 13, 14, 15, 16, 17};
    memcpy(s->deck, fort_ids, sizeof s->deck);
    rp_rng_shuffle_u8(&s->rng, s->deck, RTW_FORTS);
    start_round(s, 0, NULL);
    return RP_OK;
}

int rtw_num_players(const void *st)
{
    return ((const rtw_state *)st)->players;
}

int rtw_current_player(const void *st)
{
    const rtw_state *s = st;
    return s->phase == RTW_OVER ? RP_TERMINAL : s->actor;
}

/* The rulebook's turns: six a round (one per fort), so 1..18; planning belongs to the first
 * turn of its round. */
int rtw_turn_number(const void *st)
{
    const rtw_state *s = st;
    return s->round * RTW_SLOTS + s->turn + 1;
}

static int list_mask(uint32_t mask, rp_action base, rp_action *out)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        out[n++] = base + (rp_action)lowest_bit(mask);
    return n;
}

/* Every hand of the nine kinds as its placement actions, lowest first (the bits of the row's
 * index), so legal_actions copies a hand's list instead of looping over its bits. The rows are
 * written by the preprocessor: HANDS_8 .. HANDS_0 each double the rows, appending one bit,
 * highest first (row m is the hand m); HAND_ROW keeps the kinds whose bit is 1 (IF_1) and
 * drops the others (IF_0). The last entry of a row only pads it: a row is never empty. */
typedef struct hand_list {
    rp_action place[RTW_KINDS + 1];
    int count;
} hand_list;

#define IF_0(kind)
#define IF_1(kind) RTW_A_PLACE + (kind),
#define HAND_ROW(b8, b7, b6, b5, b4, b3, b2, b1, b0)                                               \
    {                                                                                              \
        {IF_##b0(0) IF_##b1(1) IF_##b2(2) IF_##b3(3) IF_##b4(4) IF_##b5(5) IF_##b6(6) IF_##b7(7)   \
             IF_##b8(8) 0},                                                                        \
            (b0) + (b1) + (b2) + (b3) + (b4) + (b5) + (b6) + (b7) + (b8)                           \
    }
#define HANDS_0(...) HAND_ROW(__VA_ARGS__, 0), HAND_ROW(__VA_ARGS__, 1)
#define HANDS_1(...) HANDS_0(__VA_ARGS__, 0), HANDS_0(__VA_ARGS__, 1)
#define HANDS_2(...) HANDS_1(__VA_ARGS__, 0), HANDS_1(__VA_ARGS__, 1)
#define HANDS_3(...) HANDS_2(__VA_ARGS__, 0), HANDS_2(__VA_ARGS__, 1)
#define HANDS_4(...) HANDS_3(__VA_ARGS__, 0), HANDS_3(__VA_ARGS__, 1)
#define HANDS_5(...) HANDS_4(__VA_ARGS__, 0), HANDS_4(__VA_ARGS__, 1)
#define HANDS_6(...) HANDS_5(__VA_ARGS__, 0), HANDS_5(__VA_ARGS__, 1)
#define HANDS_7(...) HANDS_6(__VA_ARGS__, 0), HANDS_6(__VA_ARGS__, 1)
static const hand_list hand_lists[1 << RTW_KINDS] = {HANDS_7(0), HANDS_7(1)};
#undef HANDS_7
#undef HANDS_6
#undef HANDS_5
#undef HANDS_4
#undef HANDS_3
#undef HANDS_2
#undef HANDS_1
#undef HANDS_0
#undef HAND_ROW
#undef IF_1
#undef IF_0
_Static_assert(RTW_KINDS == 9, "hand_lists: HAND_ROW takes nine bits");

/* RW-5: a clan's hand as placement actions, in ascending order as list_mask gives them. It
 * writes out[0..8] whatever the hand (legal_actions' callers give room for RP_MAX_LEGAL). */
static inline int list_hand(uint16_t hand, rp_action *out)
{
    const hand_list *row = &hand_lists[hand & ALL_WARRIORS];
    memcpy(out, row->place, RTW_KINDS * sizeof *out);
    return row->count;
}

/* The actions of the phases that are not a placement: rare, kept out of legal_actions so that
 * a placement pays for none of their registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int
list_choices(const rtw_state *s, rp_action *out)
{
    int a = s->actor;
    switch (s->phase) {
    case RTW_QWEEN_PICK:
        return list_mask(rtw_charm_choices(s, a), RTW_A_CHARM, out);
    case RTW_DRUHID_PICK: {
        int n = 0;
        for (int p = s->turn; p < RTW_SLOTS; p++)
            if (s->wall[p] != RTW_NONE)
                out[n++] = RTW_A_TAKE + (rp_action)p;
        return n;
    }
    case RTW_SIGNAL_PICK:
        return list_mask(s->up[a], RTW_A_DISCARD, out);
    case RTW_HORSIE_PICK:
        return list_mask(horsie_choices(s, a), RTW_A_DISCARD, out);
    case RTW_TAX_PICK:
        return list_mask(rtw_tax_choices(s), RTW_A_PAY, out);
    case RTW_AXX_PICK:
        out[0] = RTW_A_KEEP_AXX;
        out[1] = RTW_A_DROP_AXX;
        return 2;
    default:
        return 0;
    }
}

int rtw_legal_actions(const void *st, rp_action *out)
{
    const rtw_state *s = st;
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE) /* most decisions */
        return list_hand(s->hand[s->actor], out);
    return list_choices(s, out);
}

/* Clan a puts warrior `kind` from its hand in the next slot, face down. */
static inline void put_warrior(rtw_state *s, int a, int kind)
{
    s->slot[a][s->next_slot++] = (uint8_t)kind;
    s->hand[a] &= (uint16_t)~BIT(kind);
}

/* A placement (planning or after Zvord). Planning ends with the seventh warrior set aside
 * (RW-5); a Zvord re-placement ends when the last warrior goes to the last slot. */
NARRATED void apply_place(rtw_state *s, rtw_tell *t, int kind)
{
    int a = s->actor;
    rtw_note *n = say(t, s, N_PLACE, a);
    if (n) {
        n->warrior = (uint8_t)kind;
        n->pos = s->next_slot;
        n->flag = s->phase == RTW_ZVORD_PLACE;
    }
    put_warrior(s, a, kind);
    if (s->phase == RTW_PLAN) {
        if (s->next_slot < RTW_SLOTS)
            return;
        say_warrior(t, s, N_SET_ASIDE, a, lowest_bit(s->hand[a]));
        s->hand[a] = 0;
        s->next_slot = 0;
        if (a + 1 < s->players) {
            s->actor = (uint8_t)(a + 1);
            return;
        }
        resolve(s, t, ST_REVEAL, 0);
        return;
    }
    if (popcount(s->hand[a]) > 1)
        return;
    int last = lowest_bit(s->hand[a]);
    s->slot[a][s->next_slot] = (uint8_t)last;
    if ((n = say(t, s, N_LAST_PLACE, a))) {
        n->warrior = (uint8_t)last;
        n->pos = s->next_slot;
    }
    s->hand[a] = 0;
    s->next_slot = 0;
    resolve(s, t, ST_ZVORD, a + 1);
}

/* apply, telling t (NULL: nobody) what happened. */
NARRATED void apply_told(rtw_state *s, rtw_tell *t, rp_action action)
{
    int a = s->actor;
    switch (s->phase) {
    case RTW_PLAN:
    case RTW_ZVORD_PLACE:
        apply_place(s, t, (int)(action - RTW_A_PLACE));
        return;
    case RTW_QWEEN_PICK:
        decide_capture(s, t, a, (int)(action - RTW_A_CHARM));
        resolve(s, t, ST_DRUHID, 0);
        return;
    case RTW_DRUHID_PICK:
        take_fort(s, t, (int)(action - RTW_A_TAKE));
        resolve(s, t, ST_FORT, 0);
        return;
    case RTW_SIGNAL_PICK:
        discard_up(s, t, N_SIGNAL, a, (int)(action - RTW_A_DISCARD));
        resolve(s, t, ST_SIGNAL, a + 1);
        return;
    case RTW_HORSIE_PICK:
        discard_up(s, t, N_HORSIE, a, (int)(action - RTW_A_DISCARD));
        resolve(s, t, ST_HORSIE, a + 1);
        return;
    case RTW_TAX_PICK:
        pay_fort(s, t, (int)(action - RTW_A_PAY));
        resolve(s, t, ST_AXX, 0);
        return;
    case RTW_AXX_PICK: {
        rtw_note *n = say(t, s, N_AXX, a);
        if (n)
            n->flag = action == RTW_A_KEEP_AXX;
        if (action == RTW_A_KEEP_AXX)
            s->keep |= BIT(RTW_AXX);
        resolve(s, t, ST_DISCARD, 0);
        return;
    }
    default:
        return;
    }
}

/* apply's every case but the common one, kept out of rtw_apply so that the common one saves
 * none of the registers the turn's resolution needs. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
apply_untold(rtw_state *s, rp_action action)
{
    apply_told(s, NULL, action);
}

void rtw_apply(void *st, rp_action action)
{
    rtw_state *s = st;
    /* Most actions place a warrior that is not a clan's sixth (RW-5): nothing else happens. */
    if (s->phase == RTW_PLAN && s->next_slot < RTW_SLOTS - 1) {
        put_warrior(s, s->actor, (int)(action - RTW_A_PLACE));
        return;
    }
    apply_untold(s, action);
}

/* RW-12 tie-breaks among player clans (RTW-P6: neutrals cannot win, so they are not ranked):
 * fort total, then number of forts, then highest single fort. */
int rtw_compare_clans(const rtw_state *s, int a, int b)
{
    int ta = fort_total(s, a), tb = fort_total(s, b);
    if (ta != tb)
        return ta > tb ? 1 : -1;
    int na = popcount(s->forts[a]), nb = popcount(s->forts[b]);
    if (na != nb)
        return na > nb ? 1 : -1;
    int ha = highest_fort(s, a), hb = highest_fort(s, b);
    return (ha > hb) - (ha < hb);
}

/* The winning player clans as a mask (one bit, or several sharing the win). */
uint32_t rtw_winners(const rtw_state *s)
{
    if (s->winner >= 0)
        return 1u << s->winner;
    int best = 0;
    uint32_t mask = 1;
    for (int c = 1; c < s->players; c++) {
        int cmp = rtw_compare_clans(s, c, best);
        if (cmp > 0) {
            best = c;
            mask = 1u << c;
        } else if (cmp == 0) {
            mask |= 1u << c;
        }
    }
    return mask;
}

void rtw_returns(const void *st, double *out)
{
    const rtw_state *s = st;
    uint32_t w = rtw_winners(s);
    for (int c = 0; c < s->players; c++)
        out[c] = (w >> c) & 1 ? 1.0 / popcount(w) : 0.0;
}

/* apply told to t, for events_json (view.c): the same steps apply takes, with a narrator. */
void rtw_play_told(rtw_state *s, rtw_tell *t, rp_action action)
{
    apply_told(s, t, action);
}

/* ---- card sets: the defaults, the card file, the cards= option's value ---- */

extern const char rp_rush_the_wall_cards_text[];

/* The canonical order of a card set's forts: by kind (unwary, signal, tax, legion, dinary),
 * then nearest zero first, so a card set has one spelling and its forts one numbering. */
static bool fort_before(const rtw_cards *c, int a, int b)
{
    if (c->fort_kind[a] != c->fort_kind[b])
        return c->fort_kind[a] < c->fort_kind[b];
    return abs(c->fort_value[a]) < abs(c->fort_value[b]);
}

static void sort_forts(rtw_cards *c)
{
    for (int i = 1; i < RTW_FORTS; i++)
        for (int j = i; j > 0 && fort_before(c, j, j - 1); j--) {
            uint8_t kind = c->fort_kind[j];
            int8_t value = c->fort_value[j];
            c->fort_kind[j] = c->fort_kind[j - 1];
            c->fort_value[j] = c->fort_value[j - 1];
            c->fort_kind[j - 1] = kind;
            c->fort_value[j - 1] = value;
        }
}

/* The checks every card set passes, wherever it comes from; `what` prefixes the message. */
int rtw_check_cards(const rtw_cards *c, const char *what, rp_error *err)
{
    for (int k = 0; k < RTW_KINDS; k++) {
        if (c->strength[k] < 0 || c->strength[k] > 30)
            return rp_fail(err, RP_EINVAL, "%s: warrior %s: strength %d is not in 0..30", what,
                           warrior_word[k], c->strength[k]);
        for (int j = 0; j < k; j++)
            if (c->strength[j] == c->strength[k])
                return rp_fail(err, RP_EINVAL,
                               "%s: warriors '%s' and '%s' have the same "
                               "strength %d; they must differ so that the weakest warrior is "
                               "one (RW-16, RTW-P4)",
                               what, warrior_word[j], warrior_word[k], c->strength[k]);
    }
    for (int f = 0; f < RTW_FORTS; f++) {
        int v = c->fort_value[f];
        if (c->fort_kind[f] >= RTW_FORT_KINDS)
            return rp_fail(err, RP_EINVAL, "%s: fort %d: unknown kind", what, f + 1);
        bool legion = c->fort_kind[f] == RTW_LEGION;
        if (legion ? (v < -30 || v > -1) : (v < 1 || v > 30))
            return rp_fail(err, RP_EINVAL, "%s: fort %d: value %d is not in %s", what, f + 1, v,
                           legion ? "-30..-1 (a Legion subtracts)" : "1..30");
        if (f > 0 && fort_before(c, f, f - 1))
            return rp_fail(err, RP_EINVAL,
                           "%s: forts are listed by kind (u s t l d), each kind "
                           "nearest zero first; fort %d is out of order",
                           what, f + 1);
    }
    return RP_OK;
}

/* A card file being read: the set so far, the warriors given, the forts given. */
typedef struct card_file {
    rtw_cards cards;
    uint16_t seen;
    int nforts;
} card_file;

/* "warrior NAME STRENGTH": each warrior once. */
static int read_warrior_line(card_file *f, char **words, const rp_datafile_line *at, rp_error *err)
{
    long v;
    int k = rp__word_index(warrior_word, RTW_KINDS, words[1]);
    if (k < 0)
        return rp__datafile_fail(at, err, "unknown warrior '%s'", words[1]);
    if (f->seen & BIT(k))
        return rp__datafile_fail(at, err, "warrior '%s' given twice", words[1]);
    if (!rp__parse_long(words[2], 0, 30, &v))
        return rp__datafile_fail(at, err, "strength '%s' is not a number 0..30", words[2]);
    f->seen |= BIT(k);
    f->cards.strength[k] = (int8_t)v;
    return RP_OK;
}

/* "fort KIND VALUE": a Legion subtracts, the others add. */
static int read_fort_line(card_file *f, char **words, const rp_datafile_line *at, rp_error *err)
{
    long v;
    int k = rp__word_index(fort_word, RTW_FORT_KINDS, words[1]);
    if (k < 0)
        return rp__datafile_fail(at, err, "unknown fort kind '%s'", words[1]);
    bool legion = k == RTW_LEGION;
    if (!rp__parse_long(words[2], legion ? -30 : 1, legion ? -1 : 30, &v))
        return rp__datafile_fail(at, err, "value '%s' is not a number %s", words[2],
                                 legion ? "-30..-1 (a Legion subtracts)" : "1..30");
    if (f->nforts == RTW_FORTS)
        return rp__datafile_fail(at, err, "more than %d forts", RTW_FORTS);
    f->cards.fort_kind[f->nforts] = (uint8_t)k;
    f->cards.fort_value[f->nforts] = (int8_t)v;
    f->nforts++;
    return RP_OK;
}

/* One line of a card file: "warrior NAME STRENGTH" or "fort KIND VALUE". */
static int read_card_line(void *ctx, char **words, int count, const rp_datafile_line *at,
                          rp_error *err)
{
    if (count != 3)
        return rp__datafile_fail(at, err, "expected 'warrior NAME STRENGTH' or 'fort KIND VALUE'");
    if (strcmp(words[0], "warrior") == 0)
        return read_warrior_line(ctx, words, at, err);
    if (strcmp(words[0], "fort") == 0)
        return read_fort_line(ctx, words, at, err);
    return rp__datafile_fail(at, err, "unknown card type '%s' (warrior or fort)", words[0]);
}

int rtw_cards_parse(const char *text, const char *source, rtw_cards *out, rp_error *err)
{
    card_file f;
    memset(&f, 0, sizeof f);
    int rc = rp__datafile_read(text, source, 3, read_card_line, &f, err);
    if (rc < 0)
        return rc;
    if (f.seen != ALL_WARRIORS) {
        int k = lowest_bit(~f.seen & ALL_WARRIORS);
        return rp_fail(err, RP_EPARSE, "%s: warrior '%s' is missing (all nine are needed)", source,
                       warrior_word[k]);
    }
    if (f.nforts != RTW_FORTS)
        return rp_fail(err, RP_EPARSE, "%s: %d forts, expected exactly %d", source, f.nforts,
                       RTW_FORTS);
    sort_forts(&f.cards);
    if (rtw_check_cards(&f.cards, source, err) < 0)
        return RP_EPARSE;
    *out = f.cards;
    return RP_OK;
}

static rtw_cards default_cards;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

/* Parsed once: the embedded file is part of the build, so a failure is a build error. */
static void parse_default_cards(void)
{
    rp_error err;
    if (rtw_cards_parse(rp_rush_the_wall_cards_text, "data/rush-the-wall.cards", &default_cards,
                        &err) < 0)
        rp__panic(__FILE__, __LINE__, "rush-the-wall: embedded card data is broken: %s", err.msg);
}

const rtw_cards *rtw_default_cards(void)
{
    pthread_once(&default_once, parse_default_cards);
    return &default_cards;
}

bool rtw_cards_are_default(const rtw_cards *c)
{
    return memcmp(c, rtw_default_cards(), sizeof *c) == 0;
}

/* The option value of a card set: "default", or "S1,..,S9/F1,..,F18" with the strengths in
 * warrior order (filchy .. laird) and each fort as its kind letter and value ("l-2"). */
void rtw_put_cards_value(rp_text *t, const rtw_cards *c)
{
    if (rtw_cards_are_default(c)) {
        rp__text_str(t, "default");
        return;
    }
    for (int k = 0; k < RTW_KINDS; k++) {
        if (k)
            rp__text_ch(t, ',');
        rp__put_int(t, c->strength[k]);
    }
    rp__text_ch(t, '/');
    for (int f = 0; f < RTW_FORTS; f++) {
        if (f)
            rp__text_ch(t, ',');
        rp__text_ch(t, c->fort_kind[f] < RTW_FORT_KINDS ? fort_letter[c->fort_kind[f]] : '?');
        rp__put_int(t, c->fort_value[f]);
    }
}

int rtw_cards_to_value(const rtw_cards *cards, char *buf, size_t size)
{
    rp_text t;
    rp__text_init(&t, buf, size);
    rtw_put_cards_value(&t, cards);
    return rp__text_finish(&t);
}

/* One fort of a spelled card set: its kind letter and value ("d5", "l-2"). */
static int read_fort_item(rp_reader *r, const char *what, rp_span item, rtw_cards *c, int f)
{
    const char *letter = item.len ? memchr(fort_letter, item.p[0], RTW_FORT_KINDS) : NULL;
    if (!letter)
        return rp__read_fail(r, what,
                             "fort %d: '%.*s' does not start with a kind letter (u "
                             "unwary, s signal, t tax, l legion, d dinary)",
                             f + 1, (int)(item.len > 12 ? 12 : item.len), item.p);
    int kind = (int)(letter - fort_letter);
    rp_span digits = {item.p + 1, item.len - 1};
    int64_t v;
    int rc = kind == RTW_LEGION ? rp__span_int(r, what, digits, -30, -1, &v)
                                : rp__span_int(r, what, digits, 1, 30, &v);
    if (rc < 0)
        return rc;
    c->fort_kind[f] = (uint8_t)kind;
    c->fort_value[f] = (int8_t)v;
    return RP_OK;
}

/* A card set value for `what` (the option, or the notation's field): "default" or the
 * canonical spelled set. The notation may not spell out the default set (one text per
 * state); the option may (a designer writes sets out, and sweeps through the default). */
int rtw_read_cards_value(rp_reader *r, const char *what, rp_span v, bool option, rtw_cards *out)
{
    if (rp__span_is(v, "default")) {
        *out = *rtw_default_cards();
        return RP_OK;
    }
    rp_span strengths, forts, item;
    bool number = (v.p[0] >= '0' && v.p[0] <= '9') || v.p[0] == '+' || v.p[0] == '-';
    if (!number || !rp__span_split(v, '/', &strengths, &forts))
        return rp__read_fail(r, what,
                             "expected 'default' or nine strengths, '/', eighteen "
                             "forts (1,2,3,4,5,6,7,8,9/u2,s4,t8,l-1,...); the command line "
                             "reads a card file with cards=@FILE");
    rtw_cards c;
    memset(&c, 0, sizeof c);
    rp_list list;
    int n = 0, rc;
    rp__list_begin(&list, strengths, ',');
    while (rp__list_next(&list, &item)) {
        int64_t s;
        if (n == RTW_KINDS)
            return rp__read_fail(r, what, "more than nine strengths");
        if ((rc = rp__span_int(r, what, item, 0, 30, &s)) < 0)
            return rc;
        c.strength[n++] = (int8_t)s;
    }
    if (n != RTW_KINDS)
        return rp__read_fail(r, what,
                             "%d strengths, expected nine (filchy qween druhid zvord "
                             "archr horsie axx chariott laird)",
                             n);
    n = 0;
    rp__list_begin(&list, forts, ',');
    while (rp__list_next(&list, &item)) {
        if (n == RTW_FORTS)
            return rp__read_fail(r, what, "more than eighteen forts");
        if ((rc = read_fort_item(r, what, item, &c, n++)) < 0)
            return rc;
    }
    if (n != RTW_FORTS)
        return rp__read_fail(r, what, "%d forts, expected eighteen", n);
    if (rtw_check_cards(&c, what, r->err) < 0)
        return RP_EPARSE;
    if (rtw_cards_are_default(&c) && !option)
        return rp__read_fail(r, what, "this is the default card set: write 'default'");
    *out = c;
    return RP_OK;
}

int rtw_cards_from_value(const char *value, rtw_cards *out, rp_error *err)
{
    rp_reader r = {value, value, "", err};
    rp_span v = {value, strlen(value)};
    return rtw_read_cards_value(&r, "cards", v, true, out);
}

/* The cards= option's from_file: a card file's text into the option's one-word value. */
int rtw_cards_from_file(const char *file_text, const char *file_name, char *value, size_t size,
                        rp_error *err)
{
    rtw_cards c;
    int rc = rtw_cards_parse(file_text, file_name, &c, err);
    if (rc < 0)
        return rc;
    if (rtw_cards_to_value(&c, value, size) < 0)
        return rp_fail(err, RP_ENOSPACE, "%s: the card set does not fit in %zu characters",
                       file_name, size);
    return RP_OK;
}
