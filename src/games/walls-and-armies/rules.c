/* rules.c — Walls and Armies: the rules (Christer Kaitila, #1GAM January; two players, one
 * 52-card deck) and the hot path: setup, turn order, legal actions, apply. The rules are short
 * functions that narrate what they do into an optional log (NULL on the hot path, view.c's
 * events pass one). Rules: shared/seeds/walls-and-armies.txt, rulings WA-1..WA-15 and project
 * rulings WA-P* in docs/rules/walls-and-armies.md; the action table is in internal.h. */
#include <stddef.h>
#include <string.h>

#include "core/check.h"
#include "core/inline.h"
#include "core/rng_internal.h"
#include "games/walls-and-armies/internal.h"

/* The hot path, wa_apply, runs the rules with the log NULL and every function inlined into it
 * (WA_FLATTEN), so the compiler drops each narration branch and apply pays nothing for events.
 * The rarer steps (a stack that wins, a counter, the end of a turn) have an unlogged copy out
 * of line (WA_UNLOGGED: flattened in turn), which the rules call when there is no log, and the
 * reshuffle (about once a game) is out of line (WA_NOINLINE): inlined, they would make every
 * action save and restore the registers that they need (measured: 264 -> 253 instructions an
 * action in `ramparts bench`'s playouts). The deal (wa_deal_cards, once a game) is flattened
 * too: its four flips and deals inline rather than as calls (248 -> 246). */
#if defined(__GNUC__)
#define WA_FLATTEN __attribute__((flatten))
#define WA_UNLOGGED __attribute__((noinline, flatten))
#define WA_NOINLINE __attribute__((noinline))
#else
#define WA_FLATTEN
#define WA_UNLOGGED
#define WA_NOINLINE
#endif

/* ------------------------------------------------------------------------------------------
 * Narration records (their kinds and fields are in internal.h) */

/* A new zeroed record of `kind` about `seat` (WA_NONE: nobody), or NULL without a log. */
static wa_event *note(wa_log *log, int kind, int seat)
{
    if (!log)
        return NULL;
    rp_assert(log->n < WA_MAX_EVENTS);
    if (log->n >= WA_MAX_EVENTS)
        return NULL;
    wa_event *e = &log->ev[log->n++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->seat = (uint8_t)seat;
    return e;
}

/* A card turned face up by the action in progress (public from now on, WA-8). */
static void reveal(wa_state *s, int card)
{
    rp_assert(s->nrevealed < WA_MAX_REVEALED);
    if (s->nrevealed < WA_MAX_REVEALED)
        s->revealed[s->nrevealed++] = (uint8_t)card;
}

/* A new action starts: what the last one turned up is no longer news. (A fixed-size memset
 * is a few stores; a loop over nrevealed costs more.) */
static void forget_revealed(wa_state *s)
{
    memset(s->revealed, 0, sizeof s->revealed);
    s->nrevealed = 0;
}

/* ------------------------------------------------------------------------------------------
 * Piles: every removal zeroes the freed slot, so equal states stay equal bytes. */

/* Bytes that wa_close_up moves at once. */
#define WA_WINDOW 16

/* wa_close_up's plain way, for lists longer than its window (rare): out of line, so the
 * callers' fast paths need no registers kept across its memmove. */
static WA_NOINLINE void close_up_slowly(uint8_t *list, int i, int last)
{
    for (int j = i; j < last; j++)
        list[j] = list[j + 1];
    list[last] = 0;
}

/* Close up entry i of a byte array of `size` (>= WA_WINDOW) whose entries past `last` are zero:
 * entries i+1..last move down one place and entry last becomes zero, keeping the order (what a
 * player numbered). Where the entries from i to the array's end or to last fit in one
 * WA_WINDOW-byte window, that is one or two fixed-size moves, no loop and no call to memmove
 * (measured: the plain loop became a memmove call of about 30 instructions): the window's byte
 * past last is a zero, and a window at the array's end takes a zero from a local copy's end.
 * test_close_up compares with the plain loop (internal.h). */
void wa_close_up(uint8_t *list, int size, int i, int last)
{
    if (i + WA_WINDOW < size && last - i < WA_WINDOW) {
        memmove(list + i, list + i + 1, WA_WINDOW);
    } else if (i >= size - WA_WINDOW) { /* the window at the array's end holds i to last */
        uint8_t window[2 * WA_WINDOW] = {0};
        uint8_t *const start = list + size - WA_WINDOW;
        memcpy(window, start, WA_WINDOW);
        const int at = i - (size - WA_WINDOW);
        memmove(window + at, window + at + 1, WA_WINDOW);
        memcpy(start, window, WA_WINDOW);
    } else {
        close_up_slowly(list, i, last);
    }
}

/* Remove entry i of a list of n in an array of `size`, keeping the order of the rest. */
static void list_remove(uint8_t *list, int size, uint8_t *n, int i)
{
    const int last = *n - 1;
    wa_close_up(list, size, i, last);
    *n = (uint8_t)last;
}

/* Position of card in a list, or -1. */
int wa_list_find(const uint8_t *list, int n, int card)
{
    for (int i = 0; i < n; i++)
        if (list[i] == card)
            return i;
    return -1;
}

/* The cards of each byte value in ascending order (positions 0..7), then zeroes, and how many
 * there are, built by the compiler: entry j of row b is the bit i of b that has j set bits
 * below it. */
#define WA_BELOW(b, i) __builtin_popcount((unsigned)(b) & ((1u << (i)) - 1u))
#define WA_AT(b, i, j) (((b) >> (i)&1) && WA_BELOW(b, i) == (j) ? (i) : 0)
#define WA_SEL(b, j)                                                                               \
    (WA_AT(b, 0, j) | WA_AT(b, 1, j) | WA_AT(b, 2, j) | WA_AT(b, 3, j) | WA_AT(b, 4, j) |          \
     WA_AT(b, 5, j) | WA_AT(b, 6, j) | WA_AT(b, 7, j))
#define WA_ROW(b)                                                                                  \
    {                                                                                              \
        WA_SEL(b, 0), WA_SEL(b, 1), WA_SEL(b, 2), WA_SEL(b, 3), WA_SEL(b, 4), WA_SEL(b, 5),        \
            WA_SEL(b, 6), WA_SEL(b, 7)                                                             \
    }
#define WA_ROWS4(b) WA_ROW(b), WA_ROW((b) + 1), WA_ROW((b) + 2), WA_ROW((b) + 3)
#define WA_ROWS16(b) WA_ROWS4(b), WA_ROWS4((b) + 4), WA_ROWS4((b) + 8), WA_ROWS4((b) + 12)
#define WA_ROWS64(b) WA_ROWS16(b), WA_ROWS16((b) + 16), WA_ROWS16((b) + 32), WA_ROWS16((b) + 48)
#define WA_COUNT4(b)                                                                               \
    __builtin_popcount(b), __builtin_popcount((b) + 1), __builtin_popcount((b) + 2),               \
        __builtin_popcount((b) + 3)
#define WA_COUNT16(b) WA_COUNT4(b), WA_COUNT4((b) + 4), WA_COUNT4((b) + 8), WA_COUNT4((b) + 12)
#define WA_COUNT64(b)                                                                              \
    WA_COUNT16(b), WA_COUNT16((b) + 16), WA_COUNT16((b) + 32), WA_COUNT16((b) + 48)
static const uint8_t byte_cards[256][8] = {WA_ROWS64(0), WA_ROWS64(64), WA_ROWS64(128),
                                           WA_ROWS64(192)};
static const uint8_t byte_count[256] = {WA_COUNT64(0), WA_COUNT64(64), WA_COUNT64(128),
                                        WA_COUNT64(192)};

/* The cards of `set` in ascending order into out[0..n), n returned; out[n..WA_CARDS) must be
 * zero and are zero again on return. Eight cards at a time: byte k of the set (cards 8k..8k+7)
 * writes its row of byte_cards plus 8k in each byte (no byte carries into the next: 7 + 40 <
 * 256, and each byte of a word gets the same sum whatever the byte order) at out + n, and n
 * grows by the byte's count; the row's zeroes past its count (now 8k) are overwritten by the
 * next row. Cards 48..51, the last nibble, write four bytes of their row (n <= 48 there), and
 * the eight bytes past the end are zeroed last. Every write lies inside out: byte k starts at
 * n <= 8k, and k <= 5. In ascending order, as the discard pile is read for a reshuffle (WA-6):
 * test_cards_ascending compares with a plain enumeration. */
static inline RP_FORCE_INLINE int cards_ascending(uint64_t set, uint8_t out[WA_CARDS])
{
    _Static_assert(WA_CARDS == 6 * 8 + 4, "six whole bytes and a nibble");
    int n = 0;
    uint64_t base = 0; /* 8k in each byte */
#pragma GCC unroll 6
    for (int k = 0; k < 6; k++, base += UINT64_C(0x0808080808080808)) {
        const unsigned byte = (unsigned)(set >> (8 * k)) & 255u;
        uint64_t eight;
        memcpy(&eight, byte_cards[byte], sizeof eight);
        eight += base;
        memcpy(out + n, &eight, sizeof eight);
        n += byte_count[byte];
    }
    const unsigned nibble = (unsigned)(set >> 48) & 15u;
    uint32_t four;
    memcpy(&four, byte_cards[nibble], sizeof four);
    four += 0x30303030u; /* 48 in each byte */
    memcpy(out + n, &four, sizeof four);
    n += byte_count[nibble];
    const uint64_t zeroes = 0;
    if (n + 8 <= WA_CARDS)
        memcpy(out + n, &zeroes, sizeof zeroes);
    else
        for (int i = n; i < WA_CARDS; i++)
            out[i] = 0;
    return n;
}

/* cards_ascending for the tests (internal.h); the reshuffle inlines it, a call the less. */
int wa_cards_ascending(uint64_t set, uint8_t out[WA_CARDS])
{
    return cards_ascending(set, out);
}

/* WA-6: the discard pile, shuffled, becomes the main deck. Out of line: about once a game. */
static WA_NOINLINE void reshuffle(wa_state *s, wa_log *log)
{
    const int n = cards_ascending(s->discard, s->deck); /* the deck is empty: zeroes */
    /* rp_rng_shuffle_u8 inline (the same draws: test_WA6_reshuffle_shuffles_as_rp_rng_shuffle) */
    rp__rng_shuffle_u8(&s->rng, s->deck, n);
    s->ndeck = (uint8_t)n;
    s->discard = 0;
    wa_event *e = note(log, EV_RESHUFFLE, WA_NONE);
    if (e)
        e->count = (uint8_t)n;
}

/* WA-6, WA-10: the discard pile becomes the new main deck only when a card is needed and the
 * deck is empty. Returns whether the deck holds a card now (false: both piles are empty, and
 * fewer cards are dealt). */
static bool refill_main(wa_state *s, wa_log *log)
{
    if (s->ndeck > 0)
        return true;
    if (s->discard == 0)
        return false;
    reshuffle(s, log);
    return true;
}

/* The top card of the main deck (WA-6, WA-10), or -1 when deck and discard pile are empty. */
static int draw_main(wa_state *s, wa_log *log)
{
    if (!refill_main(s, log))
        return -1;
    uint8_t card = s->deck[--s->ndeck];
    s->deck[s->ndeck] = 0;
    return card;
}

/* to[i] = from[n - 1 - i]: eight bytes at a time where it can, since byte-swapping a word
 * reverses its eight bytes (the last word of `from` swapped is the first of `to`), then the
 * rest one by one. The deal runs once a game, a measurable share of a random playout. */
static void copy_reversed(uint8_t *to, const uint8_t *from, int n)
{
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, from + n - 8 - i, sizeof word);
        word = __builtin_bswap64(word);
        memcpy(to + i, &word, sizeof word);
    }
    for (; i < n; i++)
        to[i] = from[n - 1 - i];
}

/* Cards moved at once by move_top_block: a deal is at most 10 (a number card's value). */
#define WA_BLOCK 16

/* to[i] = the deck's i-th card from the top for i < take (take <= WA_BLOCK, take <= ndeck),
 * those deck slots zeroed, with fixed-size moves: the WA_BLOCK bytes of the state that end with
 * the deck's top (its end) read as two words, each byte-swapped (a swapped word is its eight
 * bytes reversed, in either byte order), give the top WA_BLOCK cards top first. With fewer than
 * WA_BLOCK cards in the deck the block starts in the field before it (read and written back as
 * they were: the state's bytes, addressed from the state's start, so inside the object). The
 * caller guarantees WA_BLOCK zero slots after to + take, the unused end of the list, which the
 * block's surplus overwrites and the zeroes then restore. The block keeps its bytes below the
 * top `take`, which are zeroed, in a local copy. */
static void move_top_block(wa_state *s, uint8_t *to, int take)
{
    _Static_assert(offsetof(wa_state, deck) >= WA_BLOCK, "a block below the deck is the state's");
    static const uint8_t zeroes[WA_BLOCK] = {0};
    uint8_t *const block = (uint8_t *)s + offsetof(wa_state, deck) + s->ndeck - WA_BLOCK;
    uint64_t low, high;
    memcpy(&low, block, sizeof low);
    memcpy(&high, block + 8, sizeof high);
    high = __builtin_bswap64(high); /* top card first */
    low = __builtin_bswap64(low);
    memcpy(to, &high, sizeof high);
    memcpy(to + 8, &low, sizeof low);
    memcpy(to + take, zeroes, WA_BLOCK);
    uint8_t kept[2 * WA_BLOCK];
    memcpy(kept, block, WA_BLOCK);
    memcpy(kept + WA_BLOCK - take, zeroes, WA_BLOCK);
    memcpy(block, kept, WA_BLOCK);
}

/* Deal up to n cards from the main deck onto a list (walls or army deck); returns how many.
 * The same cards in the same order as n draw_main calls (test_fast_paths_match_plain_references
 * compares): the top is the deck's end, so the cards the deck holds come off in one loop from
 * its end, and a reshuffle comes only when it is empty and a card is still needed (WA-10). */
static int deal_onto(wa_state *s, uint8_t *list, uint8_t *len, int n, wa_log *log)
{
    int dealt = 0;
    while (dealt < n && refill_main(s, log)) {
        const int take = n - dealt < s->ndeck ? n - dealt : s->ndeck;
        uint8_t *top = &s->deck[s->ndeck - 1];
        uint8_t *to = &list[*len];
        if (take <= WA_BLOCK && *len + take + WA_BLOCK <= WA_CARDS)
            move_top_block(s, to, take);
        else
            for (int i = 0; i < take; i++) {
                to[i] = top[-i];
                top[-i] = 0;
            }
        s->ndeck = (uint8_t)(s->ndeck - take);
        *len = (uint8_t)(*len + take);
        dealt += take;
    }
    return dealt;
}

/* ------------------------------------------------------------------------------------------
 * Turn flow */

static void end_turn(wa_state *s, wa_log *log);
static WA_UNLOGGED void end_turn_unlogged(wa_state *s);

/* WA-3, WA-5: the attacker chooses the next attack while army cards remain (the card itself
 * is flipped only once the choice is made, WA-P1); with none left the turn ends. */
static void next_attack(wa_state *s, wa_log *log)
{
    if (s->p[s->attacker].narmy == 0) {
        if (log)
            end_turn(s, log);
        else
            end_turn_unlogged(s);
        return;
    }
    s->phase = WA_ATTACK;
    s->pending = WA_NONE;
    s->to_act = (int8_t)s->attacker;
}

/* WA-5, WA-11: one flip; a face card is a shield and nothing more, a number card is discarded
 * (WA-10: before the deal, so a reshuffle may bring it back) and deals that many. */
static void replenish(wa_state *s, int pl, wa_log *log)
{
    wa_player *p = &s->p[pl];
    int card = draw_main(s, log);
    if (card < 0) {
        note(log, EV_NO_REPLENISH, pl);
        return;
    }
    reveal(s, card);
    wa_event *e = note(log, wa_is_face(card) ? EV_SHIELD : EV_REPLENISH, pl);
    if (e)
        e->card = (uint8_t)card;
    if (wa_is_face(card)) {
        p->shields[p->nshields++] = (uint8_t)card;
        if (e)
            e->number = p->nshields;
        return;
    }
    s->discard |= WA_BIT(card);
    int dealt = deal_onto(s, p->army, &p->narmy, wa_card_value(card), log);
    if (e)
        e->count = (uint8_t)dealt;
}

/* The game ends: winner 0, 1 or WA_DRAW (WA-7). */
static void finish(wa_state *s, int winner, wa_log *log)
{
    s->phase = WA_OVER;
    s->winner = (uint8_t)winner;
    s->pending = WA_NONE;
    s->to_act = RP_TERMINAL;
    wa_event *e = note(log, EV_GAME_OVER, winner == WA_DRAW ? (int)WA_NONE : winner);
    if (e) {
        e->walls[0] = s->p[0].nwalls;
        e->walls[1] = s->p[1].nwalls;
        e->turn = s->turn;
        e->last = s->cap;
    }
}

/* WA-7, WA-15: after the replenish of the last turn, more walls wins, equal walls draw. */
static void end_by_cap(wa_state *s, wa_log *log)
{
    int w0 = s->p[0].nwalls, w1 = s->p[1].nwalls;
    finish(s, w0 > w1 ? 0 : w1 > w0 ? 1 : WA_DRAW, log);
}

/* Neither player holds an army card and no card is left to draw (WA-6): every turn to the cap
 * would be an empty replenish. */
static bool nothing_left_to_play(const wa_state *s)
{
    return s->ndeck == 0 && s->discard == 0 && s->p[0].narmy == 0 && s->p[1].narmy == 0;
}

/* Go to the cap at once: the same end as playing the empty turns one by one. */
static void skip_to_cap(wa_state *s, wa_log *log)
{
    wa_event *e = note(log, EV_IDLE, WA_NONE);
    if (e) {
        e->turn = (uint16_t)(s->turn + 1);
        e->last = s->cap;
    }
    s->attacker = (uint8_t)(s->attacker ^ ((s->cap - s->turn) & 1));
    s->turn = s->cap;
    end_by_cap(s, log);
}

/* The stacks' cards discarded and every slot of the stacks zeroed. The targets and totals of
 * up to 16 stacks (always, in play: a stack takes one of the turn's at most 10 army cards) are
 * zeroed as one fixed 16-byte block each, the slots past the stacks being zero already: the
 * loop's byte stores became variable-length memsets of a dozen instructions each. */
static void discard_stacks(wa_state *s)
{
    static const uint8_t zeroes[WA_WINDOW] = {0};
    const int n = s->nstacks;
    for (int k = 0; k < n; k++) {
        s->discard |= s->stack_cards[k];
        s->stack_cards[k] = 0;
    }
    if (n <= WA_WINDOW) {
        memcpy(s->stack_target, zeroes, WA_WINDOW);
        memcpy(s->stack_total, zeroes, WA_WINDOW);
    } else {
        memset(s->stack_target, 0, (size_t)n);
        memset(s->stack_total, 0, (size_t)n);
    }
}

/* WA-5: unresolved stacks are discarded and face-up walls turned down; the attacker
 * replenishes; the cap is checked (WA-15); the other player's turn begins. A turn that starts
 * with an empty army deck is only a replenish and still counts (WA-12), hence the loop. */
static void end_turn(wa_state *s, wa_log *log)
{
    wa_event *e = note(log, EV_TURN_END, s->attacker);
    if (e) {
        for (int k = 0; k < s->nstacks; k++)
            e->cards |= s->stack_cards[k];
        e->count = s->nstacks;
        e->flags = s->faceup ? EVF_WALLS_DOWN : 0;
    }
    discard_stacks(s);
    s->nstacks = 0;
    s->targeted = 0;
    s->seen |= s->faceup; /* turned face down, but both players saw them */
    s->faceup = 0;
    for (;;) {
        replenish(s, s->attacker, log);
        if (s->turn >= s->cap) {
            end_by_cap(s, log);
            return;
        }
        if (nothing_left_to_play(s)) {
            skip_to_cap(s, log);
            return;
        }
        s->turn++;
        s->attacker ^= 1;
        wa_event *t = note(log, EV_TURN, s->attacker);
        if (t) {
            t->turn = s->turn;
            t->count = s->p[s->attacker].narmy;
        }
        if (s->p[s->attacker].narmy > 0) {
            s->phase = WA_ATTACK;
            s->pending = WA_NONE;
            s->to_act = (int8_t)s->attacker;
            return;
        }
    }
}

/* end_turn without a log (WA_UNLOGGED). */
static WA_UNLOGGED void end_turn_unlogged(wa_state *s)
{
    end_turn(s, NULL);
}

/* Stacks k+1..last move down one place. Rare (stacks are mostly resolved last opened first),
 * so out of line: inlined, its calls made a counter-attack keep three registers more
 * (measured: 231.1 -> 230.4 instructions an action once out of line). */
static WA_NOINLINE void close_up_stacks(wa_state *s, int k, int last)
{
    wa_close_up(s->stack_target, WA_CARDS, k, last);
    wa_close_up(s->stack_total, WA_CARDS, k, last);
    for (int j = k; j < last; j++)
        s->stack_cards[j] = s->stack_cards[j + 1];
}

/* Drop stack k (its cards have already gone where they belong) and free its target (WA-9). */
static void remove_stack(wa_state *s, int k)
{
    s->targeted &= ~WA_BIT(s->stack_target[k]);
    const int last = s->nstacks - 1;
    if (k < last)
        close_up_stacks(s, k, last);
    s->stack_cards[last] = 0;
    s->stack_target[last] = 0;
    s->stack_total[last] = 0;
    s->nstacks = (uint8_t)last;
}

/* WA-3: a stack above its target wins at once; target and stack are discarded. Losing the
 * last wall ends the game at once, mid-turn (WA-7, WA-15). `opened` is the action that opened
 * the stack when this flip is that action's (its index is the target's place in the list, which
 * nothing has moved since the choice, WA-P2), else WA_NONE: the place is looked up. */
static void stack_wins(wa_state *s, int k, unsigned opened, wa_log *log)
{
    wa_player *d = &s->p[s->attacker ^ 1];
    int target = s->stack_target[k];
    int i;
    if (opened == WA_NONE)
        i = wa_list_find(d->shields, d->nshields, target);
    else
        i = opened >= WA_ACT_SHIELD ? (int)(opened - WA_ACT_SHIELD) : -1;
    bool shield = i >= 0;
    if (shield) {
        list_remove(d->shields, WA_MAX_SHIELDS, &d->nshields, i);
    } else {
        i = opened == WA_NONE ? wa_list_find(d->walls, d->nwalls, target)
                              : (int)(opened - WA_ACT_WALL);
        list_remove(d->walls, WA_CARDS, &d->nwalls, i);
        s->faceup &= ~WA_BIT(target);
        s->seen &= ~WA_BIT(target);
    }
    wa_event *e = note(log, EV_FALLS, s->attacker ^ 1);
    if (e) {
        e->target = (uint8_t)target;
        e->cards = s->stack_cards[k];
        e->stack = (uint8_t)(k + 1);
        e->number = (uint8_t)(i + 1);
        e->flags = shield ? EVF_SHIELD : 0;
        e->count = shield ? d->nshields : d->nwalls;
    }
    s->discard |= WA_BIT(target) | s->stack_cards[k];
    remove_stack(s, k);
    if (d->nwalls == 0) {
        finish(s, s->attacker, log);
        return;
    }
    next_attack(s, log);
}

/* stack_wins without a log (WA_UNLOGGED). */
static WA_UNLOGGED void stack_wins_unlogged(wa_state *s, int k, unsigned opened)
{
    stack_wins(s, k, opened, NULL);
}

/* Where stack k's target lies, for a record: its 1-based place among the defender's shields
 * or walls, and EVF_SHIELD. */
static void note_target(const wa_state *s, int k, wa_event *e)
{
    const wa_player *d = &s->p[s->attacker ^ 1];
    int target = s->stack_target[k];
    int i = wa_list_find(d->shields, d->nshields, target);
    e->target = (uint8_t)target;
    e->stack = (uint8_t)(k + 1);
    e->flags |= i >= 0 ? EVF_SHIELD : 0;
    e->number = (uint8_t)((i >= 0 ? i : wa_list_find(d->walls, d->nwalls, target)) + 1);
}

/* WA-P1: now that the attacker has chosen stack k, flip the top of their army deck onto it
 * and resolve: a win at once, or the defender's choice (WA-4, WA-13: asked after every flip
 * that does not win, the last one included). `flags` says how the attack began; `opened` is
 * the action that opened stack k with this flip, else WA_NONE (stack_wins). */
static void flip_onto(wa_state *s, int k, int flags, unsigned opened, wa_log *log)
{
    wa_player *a = &s->p[s->attacker];
    int card = a->army[--a->narmy];
    a->army[a->narmy] = 0;
    reveal(s, card);
    int before = s->stack_total[k];
    s->stack_cards[k] |= WA_BIT(card);
    s->stack_total[k] = (uint8_t)(before + wa_card_value(card));
    bool beats = s->stack_total[k] > wa_card_value(s->stack_target[k]);
    wa_event *e = note(log, EV_FLIP, s->attacker);
    if (e) {
        e->flags = (uint8_t)(flags | (beats ? EVF_BEATS : 0) |
                             (s->p[s->attacker ^ 1].narmy ? EVF_CAN_COUNTER : 0));
        note_target(s, k, e);
        e->card = (uint8_t)card;
        e->before = (uint8_t)before;
        e->total = s->stack_total[k];
    }
    if (beats) {
        if (log)
            stack_wins(s, k, opened, log);
        else
            stack_wins_unlogged(s, k, opened);
        return;
    }
    s->phase = WA_DEFEND;
    s->pending = (uint8_t)k; /* to_act is the defender already (wa_play) */
}

/* WA-3 without a log, when the new attack's first card beats its target (a sixth of all
 * actions in random play): what open_attack, flip_onto and stack_wins do then, without the
 * stack that they open and close again: the card and the target are revealed (a face-down wall
 * first) and discarded, the target leaves its list at the action's place (WA-P2), and its wall
 * is neither face up nor seen any more. test_apply_matches_the_narrated_play compares with the
 * narrated way (wa_play with a log). */
static WA_UNLOGGED void open_and_win(wa_state *s, unsigned opened, int target)
{
    wa_player *a = &s->p[s->attacker], *d = &s->p[s->attacker ^ 1];
    const int card = a->army[--a->narmy];
    a->army[a->narmy] = 0;
    s->discard |= WA_BIT(target) | WA_BIT(card);
    /* Card and target are done with before the list closes up (a call when it is long), so
     * that nothing but s and d is kept across it. */
    if (opened < WA_ACT_SHIELD) {
        if (!(s->faceup & WA_BIT(target)))
            reveal(s, target);
        reveal(s, card);
        s->faceup &= ~WA_BIT(target);
        s->seen &= ~WA_BIT(target);
        list_remove(d->walls, WA_CARDS, &d->nwalls, (int)(opened - WA_ACT_WALL));
    } else {
        reveal(s, card);
        list_remove(d->shields, WA_MAX_SHIELDS, &d->nshields, (int)(opened - WA_ACT_SHIELD));
    }
    if (d->nwalls == 0)
        finish(s, s->attacker, NULL);
    else
        next_attack(s, NULL);
}

/* WA-3 without a log, when the new attack's first card does not beat its target: what
 * open_attack and flip_onto then do, without asking again whether the flip wins (the compiler
 * cannot see that it never does). test_apply_matches_the_narrated_play compares. */
static void open_unbeaten(wa_state *s, unsigned opened, int target)
{
    wa_player *a = &s->p[s->attacker];
    const int k = s->nstacks++;
    const int card = a->army[--a->narmy];
    a->army[a->narmy] = 0;
    if (opened < WA_ACT_SHIELD && !(s->faceup & WA_BIT(target))) {
        s->faceup |= WA_BIT(target);
        s->seen &= ~WA_BIT(target); /* face up now */
        reveal(s, target);
    }
    reveal(s, card);
    s->stack_target[k] = (uint8_t)target;
    s->stack_cards[k] = WA_BIT(card);
    s->stack_total[k] = (uint8_t)wa_card_value(card);
    s->targeted |= WA_BIT(target);
    s->phase = WA_DEFEND;
    s->pending = (uint8_t)k; /* to_act is the defender already (wa_play) */
}

/* WA-3: a new stack against an opponent card, the target of action `opened` (an attack on a
 * wall or a shield); a face-down wall is revealed; then the flip. */
static void open_attack(wa_state *s, unsigned opened, int target, wa_log *log)
{
    const wa_player *a = &s->p[s->attacker];
    if (!log) {
        if (wa_card_value(a->army[a->narmy - 1]) > wa_card_value(target))
            open_and_win(s, opened, target);
        else
            open_unbeaten(s, opened, target);
        return;
    }
    const bool is_wall = opened < WA_ACT_SHIELD;
    int k = s->nstacks++;
    s->stack_target[k] = (uint8_t)target;
    s->stack_cards[k] = 0;
    s->stack_total[k] = 0;
    s->targeted |= WA_BIT(target);
    int flags = EVF_OPENS;
    if (is_wall && !(s->faceup & WA_BIT(target))) {
        s->faceup |= WA_BIT(target);
        s->seen &= ~WA_BIT(target); /* face up now */
        reveal(s, target);
        flags |= EVF_TURNED_UP;
    }
    flip_onto(s, k, flags, opened, log);
}

/* WA-4: the defender leaves the pending stack in play. */
static void leave_stack(wa_state *s, wa_log *log)
{
    wa_event *e = note(log, EV_LEAVE, s->attacker ^ 1);
    if (e) {
        note_target(s, s->pending, e);
        e->total = s->stack_total[s->pending];
    }
    next_attack(s, log);
}

/* WA-4: the counter is the defender's top army card. Greater than the stack: the counter is
 * discarded and each stack card becomes its own face-down wall of the defender (WA-14), in
 * card order at the end of the walls (WA-P2). Otherwise counter and stack are discarded.
 * Either way the target stays, face up. */
static void counter_attack(wa_state *s, wa_log *log)
{
    wa_player *d = &s->p[s->attacker ^ 1];
    int k = s->pending;
    int counter = d->army[--d->narmy];
    d->army[d->narmy] = 0;
    reveal(s, counter);
    s->discard |= WA_BIT(counter);
    bool beats = wa_card_value(counter) > s->stack_total[k];
    wa_event *e = note(log, EV_COUNTER, s->attacker ^ 1);
    if (e) {
        note_target(s, k, e);
        e->card = (uint8_t)counter;
        e->total = s->stack_total[k];
        e->flags |= beats ? EVF_BEATS : 0;
        e->cards = beats ? 0 : s->stack_cards[k];
    }
    if (beats) {
        wa_event *c = note(log, EV_CAPTURE, s->attacker ^ 1);
        if (c) {
            c->card = (uint8_t)counter;
            c->number = (uint8_t)(d->nwalls + 1);
            c->count = (uint8_t)rp__popcount64(s->stack_cards[k]);
        }
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1)
            d->walls[d->nwalls++] = (uint8_t)__builtin_ctzll(m);
        s->seen |= s->stack_cards[k]; /* face down, but both players saw them flipped */
    } else {
        s->discard |= s->stack_cards[k];
    }
    remove_stack(s, k);
    next_attack(s, log);
}

/* counter_attack without a log (WA_UNLOGGED). */
static WA_UNLOGGED void counter_attack_unlogged(wa_state *s)
{
    counter_attack(s, NULL);
}

/* Apply a legal action, narrating into log when there is one. */
void wa_play(wa_state *s, rp_action action, wa_log *log)
{
    forget_revealed(s);
    const wa_player *d = &s->p[s->attacker ^ 1];
    /* The defender is asked unless the action ends with the attacker to choose (next_attack) or
     * the game over (finish), which set it again: stored here, where the defender's seat is at
     * hand, it costs the defending path nothing (measured: storing it there made apply save a
     * register more). */
    s->to_act = (int8_t)(s->attacker ^ 1);
    /* The defender's answers first: they are a third of all actions in random play, and two
     * tests each reach them (measured: 229.5 -> 227.5 instructions an action). */
    if (action == WA_ACT_LEAVE)
        leave_stack(s, log);
    else if (action == WA_ACT_COUNTER && log)
        counter_attack(s, log);
    else if (action == WA_ACT_COUNTER)
        counter_attack_unlogged(s);
    else if (action < WA_ACT_SHIELD)
        open_attack(s, action, d->walls[action - WA_ACT_WALL], log);
    else if (action < WA_ACT_STACK)
        open_attack(s, action, d->shields[action - WA_ACT_SHIELD], log);
    else
        flip_onto(s, (int)(action - WA_ACT_STACK), 0, WA_NONE, log);
}

/* ------------------------------------------------------------------------------------------
 * Setup */

/* WA-1: flip for one type (walls or army) until a number card says how many to deal. */
static void setup_flip(wa_state *s, int pl, bool walls)
{
    wa_player *p = &s->p[pl];
    for (;;) {
        int card = draw_main(s, NULL);
        if (card < 0)
            return;
        if (wa_is_face(card)) {
            p->shields[p->nshields++] = (uint8_t)card;
            continue;
        }
        s->discard |= WA_BIT(card);
        if (walls)
            deal_onto(s, p->walls, &p->nwalls, wa_card_value(card), NULL);
        else
            deal_onto(s, p->army, &p->narmy, wa_card_value(card), NULL);
        return;
    }
}

/* WA-2: fewer walls, then fewer shields, then fewer army cards, then a coin. */
static int first_player(wa_state *s)
{
    const wa_player *a = &s->p[0], *b = &s->p[1];
    if (a->nwalls != b->nwalls)
        return a->nwalls < b->nwalls ? 0 : 1;
    if (a->nshields != b->nshields)
        return a->nshields < b->nshields ? 0 : 1;
    if (a->narmy != b->narmy)
        return a->narmy < b->narmy ? 0 : 1;
    return (int)rp_rng_below(&s->rng, 2);
}

void wa_deal(wa_state *s, const uint8_t order[WA_CARDS], int turn_cap, const rp_rng *rng)
{
    wa_deal_cards(s, order, WA_CARDS, turn_cap, rng);
}

uint64_t wa_cards_in_play(const wa_state *s)
{
    uint64_t cards = s->discard;
    for (int i = 0; i < s->ndeck; i++)
        cards |= WA_BIT(s->deck[i]);
    for (int pl = 0; pl < 2; pl++) {
        const wa_player *p = &s->p[pl];
        for (int i = 0; i < p->nwalls; i++)
            cards |= WA_BIT(p->walls[i]);
        for (int i = 0; i < p->nshields; i++)
            cards |= WA_BIT(p->shields[i]);
        for (int i = 0; i < p->narmy; i++)
            cards |= WA_BIT(p->army[i]);
    }
    for (int k = 0; k < s->nstacks; k++)
        cards |= s->stack_cards[k];
    return cards;
}

/* memset(s, 0, sizeof *s) in stores of 16 bytes, all written out: GCC makes the memset a
 * `rep stos` of 113 steps, which costs about twice the 57 stores (measured with callgrind, over
 * a random playout's deal: 235.2 -> 233.9 instructions an action, with wa_init's fixed-size copy
 * of the cards). */
static void zero_state(wa_state *s)
{
    typedef uint8_t wa_block __attribute__((vector_size(16)));
    const wa_block zero = {0};
    _Static_assert(sizeof *s >= sizeof zero, "the last block lies inside the state");
    uint8_t *const bytes = (uint8_t *)s;
#pragma GCC unroll 64
    for (size_t i = 0; i + sizeof zero <= sizeof *s; i += sizeof zero)
        memcpy(bytes + i, &zero, sizeof zero);
    memcpy(bytes + sizeof *s - sizeof zero, &zero, sizeof zero); /* the tail */
}

WA_FLATTEN void wa_deal_cards(wa_state *s, const uint8_t *order, int ncards, int turn_cap,
                              const rp_rng *rng)
{
    zero_state(s);
    s->rng = *rng;
    copy_reversed(s->deck, order, ncards);
    s->ndeck = (uint8_t)ncards;
    s->cap = (uint16_t)turn_cap;
    s->turn = 1;
    s->winner = WA_NONE;
    s->pending = WA_NONE;
    for (int pl = 0; pl < 2; pl++) {
        setup_flip(s, pl, true);
        setup_flip(s, pl, false);
    }
    s->attacker = (uint8_t)first_player(s);
    /* Not reachable from a full deck (the second player's walls are dealt from >= 14 cards),
     * but a player without walls has lost (WA-7). */
    if (s->p[0].nwalls == 0 || s->p[1].nwalls == 0) {
        s->phase = WA_OVER;
        s->winner = s->p[0].nwalls == s->p[1].nwalls ? WA_DRAW : s->p[0].nwalls ? 0 : 1;
        s->to_act = RP_TERMINAL;
        return;
    }
    next_attack(s, NULL);
}

/* Shuffle a fresh deck with the seed and deal (WA-1, WA-2). */
int wa_init(void *st, const rp_config *cfg, rp_error *err)
{
    if (cfg->players != 2)
        return rp_fail(err, RP_EINVAL, "walls-and-armies is for exactly 2 players, not %d",
                       cfg->players);
    int64_t cap = cfg->value[OPT_TURN_CAP];
    if (cap < 1 || cap > WA_MAX_CAP)
        return rp_fail(err, RP_EINVAL, "turn-cap must be 1..%d", WA_MAX_CAP);
    const int64_t ncards = cfg->value[OPT_DECK];
    if (ncards < WA_MIN_DECK || ncards > WA_CARDS)
        return rp_fail(err, RP_EINVAL, "deck must be %d..%d", WA_MIN_DECK, WA_CARDS);
    rp_rng rng;
    rp_rng_seed(&rng, cfg->seed, 0x5741u);
    /* The deck option's deck is the lowest ncards cards, 0..ncards-1 before the shuffle. */
    static const uint8_t every_card[WA_CARDS] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17,
        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
        36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51};
    uint8_t order[WA_CARDS];
    memcpy(order, every_card, sizeof order); /* a fixed size: no call; past ncards unused */
    /* The full deck (the default, and ramparts bench's game) is a size the compiler knows:
     * rp__rng_shuffle_u8 unrolls its 51 draws (the same draws in the same order as
     * rp_rng_shuffle_u8: test_WA1_full_deck_shuffles_as_rp_rng_shuffle). */
    if (ncards == WA_CARDS)
        rp__rng_shuffle_u8(&rng, order, WA_CARDS);
    else
        rp_rng_shuffle_u8(&rng, order, (int)ncards);
    wa_deal_cards((wa_state *)st, order, (int)ncards, (int)cap, &rng);
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Turn order, legal actions, apply, returns */

/* Always two (the rulebook's game is for two). */
int wa_num_players(const void *st)
{
    (void)st;
    return 2;
}

/* The attacker chooses attacks; the defender answers a stack that did not win (WA-4): kept
 * in the state by every change of phase (wa_seat_to_act says which seat it is). */
int wa_current_player(const void *st)
{
    return ((const wa_state *)st)->to_act;
}

/* The rulebook's turns: one player's run of attacks and the replenish (WA-12, WA-15). */
int wa_turn_number(const void *st)
{
    return ((const wa_state *)st)->turn;
}

/* The action integers in order: consecutive legal actions from `first` are the slice from
 * wa_action_run[first]. A run of at most WA_RUN (the defender's list with no card under a
 * stack, four entries on average in `ramparts bench`'s playouts) is one copy of a fixed WA_RUN
 * entries, four 16-byte moves, cheaper than writing the entries one by one. It writes past the
 * run's end: out has room for RP_MAX_LEGAL (game.h allows a game to write past its count), and
 * the run's own entries are exact (test_fast_paths_match_plain_references compares with the
 * plain list). */
#define WA_RUN 16
#define WA_RUN4(i) (i), (i) + 1, (i) + 2, (i) + 3
#define WA_RUN16(i) WA_RUN4(i), WA_RUN4((i) + 4), WA_RUN4((i) + 8), WA_RUN4((i) + 12)
static const rp_action wa_action_run[5 * WA_RUN] = {WA_RUN16(0), WA_RUN16(16), WA_RUN16(32),
                                                    WA_RUN16(48), WA_RUN16(64)};
_Static_assert(WA_ACT_SHIELD + WA_RUN <= sizeof wa_action_run / sizeof wa_action_run[0],
               "a block of the shields' run (from WA_ACT_SHIELD) lies inside the table");

/* WA-3, WA-9: new attacks on shields while the opponent has any, else on walls, never on a
 * card already under one of the attacker's stacks; or onto any unresolved stack. Nothing here
 * reads the attacker's army deck beyond its being non-empty (WA-P1: a blind choice). WA-13:
 * the defender may always leave, and counter only with army cards left. */
int wa_legal_actions(const void *st, rp_action *out)
{
    const wa_state *s = st;
    if (s->phase == WA_ATTACK) {
        const wa_player *d = &s->p[s->to_act ^ 1]; /* the attacker is to act */
        const int nshields = d->nshields;
        const int ncards = nshields ? nshields : d->nwalls;
        const rp_action first = nshields ? WA_ACT_SHIELD : WA_ACT_WALL;
        /* A stack's target is targeted until the stack goes (WA-9), so with no stack (no card
         * targeted: state_ok checks that the targeted set is the stacks' targets) every card of
         * the list may be attacked, without a test each (test_fast_paths_match_plain_references
         * compares with the plain list). */
        const int nstacks = s->nstacks; /* a local: stores to out may alias s */
        if (nstacks == 0 && ncards <= WA_RUN) {
            memcpy(out, wa_action_run + first, WA_RUN * sizeof *out);
            return ncards;
        }
        const uint8_t *cards = nshields ? d->shields : d->walls;
        const uint64_t targeted = s->targeted; /* a local, as nstacks */
        int n = 0;
        for (int i = 0; i < ncards; i++)
            if (!(targeted & WA_BIT(cards[i])))
                out[n++] = first + (rp_action)i;
        for (int k = 0; k < nstacks; k++)
            out[n++] = WA_ACT_STACK + (rp_action)k;
        return n;
    }
    if (s->phase == WA_DEFEND) {
        out[0] = WA_ACT_LEAVE;
        out[1] = WA_ACT_COUNTER; /* past the count when the defender has no army card */
        return 1 + (s->p[s->to_act].narmy > 0); /* the defender's */
    }
    return 0;
}

/* Play a legal action; all chance (flips, reshuffles) happens in here, from the state rng.
 * Flattened: the rules are inlined here with the log NULL (see WA_FLATTEN at the top). */
WA_FLATTEN void wa_apply(void *st, rp_action action)
{
    wa_play(st, action, NULL);
}

/* Sole winner 1, loser 0, draw 1/2 each (WA-7). */
void wa_returns(const void *st, double *out)
{
    const wa_state *s = st;
    if (s->winner == 0 || s->winner == 1) {
        out[s->winner] = 1.0;
        out[s->winner ^ 1] = 0.0;
    } else {
        out[0] = out[1] = 0.5;
    }
}
