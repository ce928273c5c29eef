/* walls_and_armies.c — Walls and Armies (Christer Kaitila, #1GAM January), two players, one
 * 52-card deck, on the whole rp_game interface. It is the model a new game copies: rules as
 * short functions that can narrate what they do into an optional log (NULL on the hot path),
 * then notation on the toolkit, invariants, options in effect, views, events, render, evaluate.
 * Rules: shared/seeds/walls-and-armies.txt, rulings WA-1..WA-15 and project rulings WA-P* in
 * docs/rules/walls-and-armies.md; formats and data forms in docs/games/walls-and-armies.md. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"
#include "core/text.h"
#include "games/walls_and_armies.h"

/* Action integers (num_actions = 122). The rulebook's order (WA-P1): "Pick one of the
 * opponent's wall or shield cards to attack, then flip the top card from your army deck", and
 * "stack your next army card": the attacker says where their next army card goes while it is
 * still face down (hidden from them too, WA-8); apply then flips it and resolves.
 *
 *   id        text               who       meaning
 *   0..51     attack wall N      attacker  open a stack on opponent wall N-1 (no shields left)
 *   52..67    attack shield N    attacker  open a stack on opponent shield N-1
 *   68..119   stack N            attacker  put the next army card on own stack N-1
 *   120       leave              defender  leave the stack that did not win (WA-4)
 *   121       counter            defender  counter-attack with the top army card (WA-4)
 *
 * Indices are positions in the lists a player sees: walls and shields keep their order and
 * close up when one goes, captured cards join the end of the walls (WA-P2). */

/* The rulebook names no seats; these are the names every Ramparts two-player game uses. */
static const char *const SEAT_NAMES[2] = {"Blue", "Red"};

static const char RANKS[13][3] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};
static const char SUITS[4] = {'C', 'D', 'H', 'S'};

#define BIT(c) (UINT64_C(1) << (c))

/* A seat's name for sentences and the screen: Blue or Red (WA-P6). */
static const char *seat_name(int seat)
{
    return rp_seat_name(&rp_walls_and_armies, seat);
}

/* The rulings' values: 2..10 as printed, J Q K A = 11 12 13 14. */
static inline int card_value(int card)
{
    return card / 4 + 2;
}

/* Face cards (J, Q, K, A) become shields wherever a flip would deal cards. */
static inline bool is_face(int card)
{
    return card >= WA_FIRST_FACE;
}

/* The sum of the values of a set of cards (a stack). */
static int set_total(uint64_t set)
{
    int total = 0;
    for (uint64_t m = set; m; m &= m - 1)
        total += card_value(__builtin_ctzll(m));
    return total;
}

/* ------------------------------------------------------------------------------------------
 * Cards as text */

/* Writes "7H", "10D", "QS" (NUL-terminated); anything out of range writes "?". */
void wa_card_to_text(int card, char out[4])
{
    if (card < 0 || card >= WA_CARDS) {
        out[0] = '?';
        out[1] = '\0';
        return;
    }
    const char *rank = RANKS[card / 4];
    int n = 0;
    while (*rank)
        out[n++] = *rank++;
    out[n++] = SUITS[card % 4];
    out[n] = '\0';
}

/* Reads exactly len characters as one card (upper-case rank and suit); -1 if not a card. */
int wa_card_from_text(const char *text, size_t len)
{
    static const char RANK_CHARS[] = "23456789?JQKA";
    if (len < 2 || len > 3)
        return -1;
    int suit = -1;
    for (int s = 0; s < 4; s++)
        if (text[len - 1] == SUITS[s])
            suit = s;
    if (suit < 0)
        return -1;
    if (len == 3)
        return text[0] == '1' && text[1] == '0' ? 8 * 4 + suit : -1;
    for (int r = 0; r < 13; r++)
        if (r != 8 && text[0] == RANK_CHARS[r])
            return r * 4 + suit;
    return -1;
}

/* ------------------------------------------------------------------------------------------
 * Narration. The rules record what they do into an optional log: apply passes NULL, so the
 * hot path pays one pointer test per record; events_json replays the action on a copy with a
 * log and turns the records into sentences. Records hold only numbers, no text. */

enum {
    EV_FLIP,         /* an army card flipped onto a stack (a new attack or a stack) */
    EV_FALLS,        /* a stack beat its target: target and stack discarded */
    EV_LEAVE,        /* the defender left a stack in play */
    EV_COUNTER,      /* the defender counter-attacked */
    EV_CAPTURE,      /* the counter won: the stack's cards became the defender's walls */
    EV_TURN_END,     /* the attacker's army deck is empty */
    EV_RESHUFFLE,    /* the discard pile became the main deck */
    EV_REPLENISH,    /* a number card flipped to replenish: army cards dealt */
    EV_SHIELD,       /* a face card flipped to replenish: a new shield */
    EV_NO_REPLENISH, /* nothing left to flip */
    EV_TURN,         /* a new turn began */
    EV_IDLE,         /* turns skipped: nothing left to play */
    EV_GAME_OVER
};

enum {
    EVF_SHIELD = 1,       /* the target is a shield (else a wall) */
    EVF_OPENS = 2,        /* the flip opened a new attack (else it joined a stack) */
    EVF_BEATS = 4,        /* the flip or counter won */
    EVF_TURNED_UP = 8,    /* the attack turned a face-down wall up */
    EVF_CAN_COUNTER = 16, /* the defender holds an army card to counter with */
    EVF_WALLS_DOWN = 32   /* face-up walls were turned face down */
};

typedef struct wa_event {
    uint64_t cards;      /* public cards the event moves: a stack discarded or beaten */
    uint16_t turn, last; /* EV_TURN, EV_GAME_OVER: the turn (and cap); EV_IDLE: first, last */
    uint8_t kind, seat, flags;
    uint8_t card;          /* the card flipped, countered or flipped to replenish */
    uint8_t target;        /* the card a stack is against */
    uint8_t number;        /* 1-based: the wall or shield attacked, a new shield, a new wall */
    uint8_t stack;         /* 1-based stack number */
    uint8_t before, total; /* a stack's total before and after the flip */
    uint8_t count;         /* cards dealt, captured or reshuffled; walls/shields left; stacks */
    uint8_t walls[2];      /* EV_GAME_OVER: the walls of each player */
} wa_event;

/* One action's records: the attack (at most 3), the turn end, then per turn it chains into
 * (at most 20, see WA_MAX_REVEALED) a turn, a replenish and up to 2 reshuffles, and the end. */
#define WA_MAX_EVENTS 96

typedef struct wa_log {
    wa_event ev[WA_MAX_EVENTS];
    int n;
} wa_log;

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

/* Remove entry i of a list of n, keeping the order of the rest (what a player numbered). */
static void list_remove(uint8_t *list, uint8_t *n, int i)
{
    int last = *n - 1;
    for (int j = i; j < last; j++)
        list[j] = list[j + 1];
    list[last] = 0;
    *n = (uint8_t)last;
}

/* Position of card in a list, or -1. */
static int list_find(const uint8_t *list, int n, int card)
{
    for (int i = 0; i < n; i++)
        if (list[i] == card)
            return i;
    return -1;
}

/* WA-6, WA-10: the discard pile becomes the new main deck only when a card is needed and the
 * deck is empty. Returns the top card, or -1 when both are empty (fewer cards are dealt). */
static int draw_main(wa_state *s, wa_log *log)
{
    if (s->ndeck == 0) {
        if (s->discard == 0)
            return -1;
        int n = 0;
        for (uint64_t m = s->discard; m; m &= m - 1)
            s->deck[n++] = (uint8_t)__builtin_ctzll(m);
        rp_rng_shuffle_u8(&s->rng, s->deck, n);
        s->ndeck = (uint8_t)n;
        s->discard = 0;
        wa_event *e = note(log, EV_RESHUFFLE, WA_NONE);
        if (e)
            e->count = (uint8_t)n;
    }
    uint8_t card = s->deck[--s->ndeck];
    s->deck[s->ndeck] = 0;
    return card;
}

/* Deal up to n cards from the main deck onto a list (walls or army deck); returns how many. */
static int deal_onto(wa_state *s, uint8_t *list, uint8_t *len, int n, wa_log *log)
{
    for (int i = 0; i < n; i++) {
        int card = draw_main(s, log);
        if (card < 0)
            return i;
        list[(*len)++] = (uint8_t)card;
    }
    return n;
}

/* ------------------------------------------------------------------------------------------
 * Turn flow */

static void end_turn(wa_state *s, wa_log *log);

/* WA-3, WA-5: the attacker chooses the next attack while army cards remain (the card itself
 * is flipped only once the choice is made, WA-P1); with none left the turn ends. */
static void next_attack(wa_state *s, wa_log *log)
{
    if (s->p[s->attacker].narmy == 0) {
        end_turn(s, log);
        return;
    }
    s->phase = WA_ATTACK;
    s->pending = WA_NONE;
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
    wa_event *e = note(log, is_face(card) ? EV_SHIELD : EV_REPLENISH, pl);
    if (e)
        e->card = (uint8_t)card;
    if (is_face(card)) {
        p->shields[p->nshields++] = (uint8_t)card;
        if (e)
            e->number = p->nshields;
        return;
    }
    s->discard |= BIT(card);
    int dealt = deal_onto(s, p->army, &p->narmy, card_value(card), log);
    if (e)
        e->count = (uint8_t)dealt;
}

/* The game ends: winner 0, 1 or WA_DRAW (WA-7). */
static void finish(wa_state *s, int winner, wa_log *log)
{
    s->phase = WA_OVER;
    s->winner = (uint8_t)winner;
    s->pending = WA_NONE;
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
    for (int k = 0; k < s->nstacks; k++) {
        s->discard |= s->stack_cards[k];
        s->stack_cards[k] = 0;
        s->stack_target[k] = 0;
        s->stack_total[k] = 0;
    }
    s->nstacks = 0;
    s->targeted = 0;
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
            return;
        }
    }
}

/* Drop stack k (its cards have already gone where they belong) and free its target (WA-9). */
static void remove_stack(wa_state *s, int k)
{
    s->targeted &= ~BIT(s->stack_target[k]);
    int last = s->nstacks - 1;
    for (int j = k; j < last; j++) {
        s->stack_cards[j] = s->stack_cards[j + 1];
        s->stack_target[j] = s->stack_target[j + 1];
        s->stack_total[j] = s->stack_total[j + 1];
    }
    s->stack_cards[last] = 0;
    s->stack_target[last] = 0;
    s->stack_total[last] = 0;
    s->nstacks = (uint8_t)last;
}

/* WA-3: a stack above its target wins at once; target and stack are discarded. Losing the
 * last wall ends the game at once, mid-turn (WA-7, WA-15). */
static void stack_wins(wa_state *s, int k, wa_log *log)
{
    wa_player *d = &s->p[s->attacker ^ 1];
    int target = s->stack_target[k];
    int i = list_find(d->shields, d->nshields, target);
    bool shield = i >= 0;
    if (shield) {
        list_remove(d->shields, &d->nshields, i);
    } else {
        i = list_find(d->walls, d->nwalls, target);
        list_remove(d->walls, &d->nwalls, i);
        s->faceup &= ~BIT(target);
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
    s->discard |= BIT(target) | s->stack_cards[k];
    remove_stack(s, k);
    if (d->nwalls == 0) {
        finish(s, s->attacker, log);
        return;
    }
    next_attack(s, log);
}

/* Where stack k's target lies, for a record: its 1-based place among the defender's shields
 * or walls, and EVF_SHIELD. */
static void note_target(const wa_state *s, int k, wa_event *e)
{
    const wa_player *d = &s->p[s->attacker ^ 1];
    int target = s->stack_target[k];
    int i = list_find(d->shields, d->nshields, target);
    e->target = (uint8_t)target;
    e->stack = (uint8_t)(k + 1);
    e->flags |= i >= 0 ? EVF_SHIELD : 0;
    e->number = (uint8_t)((i >= 0 ? i : list_find(d->walls, d->nwalls, target)) + 1);
}

/* WA-P1: now that the attacker has chosen stack k, flip the top of their army deck onto it
 * and resolve: a win at once, or the defender's choice (WA-4, WA-13: asked after every flip
 * that does not win, the last one included). `flags` says how the attack began. */
static void flip_onto(wa_state *s, int k, int flags, wa_log *log)
{
    wa_player *a = &s->p[s->attacker];
    int card = a->army[--a->narmy];
    a->army[a->narmy] = 0;
    reveal(s, card);
    int before = s->stack_total[k];
    s->stack_cards[k] |= BIT(card);
    s->stack_total[k] = (uint8_t)(before + card_value(card));
    bool beats = s->stack_total[k] > card_value(s->stack_target[k]);
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
        stack_wins(s, k, log);
        return;
    }
    s->phase = WA_DEFEND;
    s->pending = (uint8_t)k;
}

/* WA-3: a new stack against an opponent card; a face-down wall is revealed; then the flip. */
static void open_attack(wa_state *s, int target, bool is_wall, wa_log *log)
{
    int k = s->nstacks++;
    s->stack_target[k] = (uint8_t)target;
    s->stack_cards[k] = 0;
    s->stack_total[k] = 0;
    s->targeted |= BIT(target);
    int flags = EVF_OPENS;
    if (is_wall && !(s->faceup & BIT(target))) {
        s->faceup |= BIT(target);
        reveal(s, target);
        flags |= EVF_TURNED_UP;
    }
    flip_onto(s, k, flags, log);
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
    s->discard |= BIT(counter);
    bool beats = card_value(counter) > s->stack_total[k];
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
            c->count = (uint8_t)__builtin_popcountll(s->stack_cards[k]);
        }
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1)
            d->walls[d->nwalls++] = (uint8_t)__builtin_ctzll(m);
    } else {
        s->discard |= s->stack_cards[k];
    }
    remove_stack(s, k);
    next_attack(s, log);
}

/* Apply a legal action, narrating into log when there is one. */
static void play(wa_state *s, rp_action action, wa_log *log)
{
    forget_revealed(s);
    const wa_player *d = &s->p[s->attacker ^ 1];
    if (action < WA_ACT_SHIELD)
        open_attack(s, d->walls[action - WA_ACT_WALL], true, log);
    else if (action < WA_ACT_STACK)
        open_attack(s, d->shields[action - WA_ACT_SHIELD], false, log);
    else if (action < WA_ACT_LEAVE)
        flip_onto(s, (int)(action - WA_ACT_STACK), 0, log);
    else if (action == WA_ACT_LEAVE)
        leave_stack(s, log);
    else
        counter_attack(s, log);
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
        if (is_face(card)) {
            p->shields[p->nshields++] = (uint8_t)card;
            continue;
        }
        s->discard |= BIT(card);
        if (walls)
            deal_onto(s, p->walls, &p->nwalls, card_value(card), NULL);
        else
            deal_onto(s, p->army, &p->narmy, card_value(card), NULL);
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
    memset(s, 0, sizeof *s);
    s->rng = *rng;
    for (int i = 0; i < WA_CARDS; i++)
        s->deck[i] = order[WA_CARDS - 1 - i];
    s->ndeck = WA_CARDS;
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
        return;
    }
    next_attack(s, NULL);
}

/* ------------------------------------------------------------------------------------------
 * The interface: setup, turn order, moves */

enum { OPT_TURN_CAP };

static const rp_option_spec OPTIONS[] = {
    [OPT_TURN_CAP] = {"turn-cap", RP_OPT_INT, 1, WA_MAX_CAP, WA_DEFAULT_CAP, NULL,
                      "turns before the game is scored on walls (WA-7)", NULL},
};

/* Shuffle a fresh deck with the seed and deal (WA-1, WA-2). */
static int wa_init(void *st, const rp_config *cfg, rp_error *err)
{
    if (cfg->players != 2)
        return rp_fail(err, RP_EINVAL, "walls-and-armies is for exactly 2 players, not %d",
                       cfg->players);
    int64_t cap = cfg->value[OPT_TURN_CAP];
    if (cap < 1 || cap > WA_MAX_CAP)
        return rp_fail(err, RP_EINVAL, "turn-cap must be 1..%d", WA_MAX_CAP);
    rp_rng rng;
    rp_rng_seed(&rng, cfg->seed, 0x5741u);
    uint8_t order[WA_CARDS];
    for (int i = 0; i < WA_CARDS; i++)
        order[i] = (uint8_t)i;
    rp_rng_shuffle_u8(&rng, order, WA_CARDS);
    wa_deal((wa_state *)st, order, (int)cap, &rng);
    return RP_OK;
}

/* The options a state is played under: two players and its turn cap (notation carries it). */
static void wa_config_of(const void *st, rp_config *cfg)
{
    const wa_state *s = st;
    cfg->players = 2;
    cfg->value[OPT_TURN_CAP] = s->cap;
}

/* Always two (the rulebook's game is for two). */
static int wa_num_players(const void *st)
{
    (void)st;
    return 2;
}

/* The attacker chooses attacks; the defender answers a stack that did not win (WA-4). */
static int wa_current_player(const void *st)
{
    const wa_state *s = st;
    if (s->phase == WA_OVER)
        return RP_TERMINAL;
    return s->phase == WA_ATTACK ? s->attacker : s->attacker ^ 1;
}

/* The rulebook's turns: one player's run of attacks and the replenish (WA-12, WA-15). */
static int wa_turn_number(const void *st)
{
    return ((const wa_state *)st)->turn;
}

/* WA-3, WA-9: new attacks on shields while the opponent has any, else on walls, never on a
 * card already under one of the attacker's stacks; or onto any unresolved stack. Nothing here
 * reads the attacker's army deck beyond its being non-empty (WA-P1: a blind choice). WA-13:
 * the defender may always leave, and counter only with army cards left. */
static int wa_legal_actions(const void *st, rp_action *out)
{
    const wa_state *s = st;
    int n = 0;
    if (s->phase == WA_ATTACK) {
        const wa_player *d = &s->p[s->attacker ^ 1];
        if (d->nshields > 0) {
            for (int i = 0; i < d->nshields; i++)
                if (!(s->targeted & BIT(d->shields[i])))
                    out[n++] = WA_ACT_SHIELD + (rp_action)i;
        } else {
            for (int i = 0; i < d->nwalls; i++)
                if (!(s->targeted & BIT(d->walls[i])))
                    out[n++] = WA_ACT_WALL + (rp_action)i;
        }
        for (int k = 0; k < s->nstacks; k++)
            out[n++] = WA_ACT_STACK + (rp_action)k;
    } else if (s->phase == WA_DEFEND) {
        out[n++] = WA_ACT_LEAVE;
        if (s->p[s->attacker ^ 1].narmy > 0)
            out[n++] = WA_ACT_COUNTER;
    }
    return n;
}

static int wa_state_ok(const void *st, rp_error *err);

/* Play a legal action; all chance (flips, reshuffles) happens in here, from the state rng.
 * Flattened: the rules are inlined here with the log NULL, so the compiler drops every
 * narration branch and the hot path pays nothing for events. */
#if defined(__GNUC__)
#define WA_FLATTEN __attribute__((flatten))
#else
#define WA_FLATTEN
#endif
static WA_FLATTEN void wa_apply(void *st, rp_action action)
{
    play(st, action, NULL);
    RP_DEBUG_STATE_OK(&rp_walls_and_armies, st);
}

/* Sole winner 1, loser 0, draw 1/2 each (WA-7). */
static void wa_returns(const void *st, double *out)
{
    const wa_state *s = st;
    if (s->winner == 0 || s->winner == 1) {
        out[s->winner] = 1.0;
        out[s->winner ^ 1] = 0.0;
    } else {
        out[0] = out[1] = 0.5;
    }
}

/* ------------------------------------------------------------------------------------------
 * Actions as text, as data, and why one is not legal */

/* The move words of the table above; positions are 1-based as drawn. */
static int wa_action_to_text(const void *st, rp_action a, char *buf, size_t size)
{
    (void)st;
    int len;
    if (a < WA_ACT_SHIELD)
        len = snprintf(buf, size, "attack wall %u", (unsigned)(a - WA_ACT_WALL + 1));
    else if (a < WA_ACT_STACK)
        len = snprintf(buf, size, "attack shield %u", (unsigned)(a - WA_ACT_SHIELD + 1));
    else if (a < WA_ACT_LEAVE)
        len = snprintf(buf, size, "stack %u", (unsigned)(a - WA_ACT_STACK + 1));
    else if (a == WA_ACT_LEAVE)
        len = snprintf(buf, size, "leave");
    else if (a == WA_ACT_COUNTER)
        len = snprintf(buf, size, "counter");
    else
        return RP_EINVAL;
    return len < 0 || (size_t)len >= size ? RP_ENOSPACE : len;
}

/* Split text into at most 3 lower-cased words; returns the count, or -1 if there are more
 * or one is too long. */
static int split_words(const char *text, char words[3][16])
{
    int n = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return n;
        if (n == 3)
            return -1;
        size_t len = 0;
        while (p[len] && p[len] != ' ' && p[len] != '\t') {
            if (len == 15)
                return -1;
            words[n][len] = (char)tolower((unsigned char)p[len]);
            len++;
        }
        words[n][len] = '\0';
        n++;
        p += len;
    }
}

/* A 1-based position "1".."max" (digits only). */
static int parse_position(const char *word, int max)
{
    int v = 0;
    if (!*word)
        return -1;
    for (const char *c = word; *c; c++) {
        if (*c < '0' || *c > '9' || v > max)
            return -1;
        v = v * 10 + (*c - '0');
    }
    return v >= 1 && v <= max ? v : -1;
}

/* Inverse of wa_action_to_text, forgiving about case and spacing (people type moves); ranges
 * are checked here, legality by the caller (rp_parse_move). */
static int wa_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    (void)st;
    char w[3][16];
    int n = split_words(text, w);
    if (n == 1 && strcmp(w[0], "leave") == 0) {
        *out = WA_ACT_LEAVE;
        return RP_OK;
    }
    if (n == 1 && strcmp(w[0], "counter") == 0) {
        *out = WA_ACT_COUNTER;
        return RP_OK;
    }
    if (n == 2 && strcmp(w[0], "stack") == 0) {
        int k = parse_position(w[1], WA_CARDS);
        if (k < 0)
            return rp_fail(err, RP_EPARSE, "'stack N' needs a stack number 1..%d, not '%s'",
                           WA_CARDS, w[1]);
        *out = WA_ACT_STACK + (rp_action)(k - 1);
        return RP_OK;
    }
    if (n == 3 && strcmp(w[0], "attack") == 0) {
        bool is_wall = strcmp(w[1], "wall") == 0;
        if (!is_wall && strcmp(w[1], "shield") != 0)
            return rp_fail(err, RP_EPARSE,
                           "attack what? say 'attack wall N' or "
                           "'attack shield N', not 'attack %s'",
                           w[1]);
        int max = is_wall ? WA_CARDS : WA_MAX_SHIELDS;
        int i = parse_position(w[2], max);
        if (i < 0)
            return rp_fail(err, RP_EPARSE, "'attack %s N' needs a number 1..%d, not '%s'", w[1],
                           max, w[2]);
        *out = (is_wall ? WA_ACT_WALL : WA_ACT_SHIELD) + (rp_action)(i - 1);
        return RP_OK;
    }
    return rp_fail(err, RP_EPARSE,
                   "unknown move '%.60s': moves are 'attack wall N', 'attack shield N', "
                   "'stack N', 'leave' and 'counter'",
                   text);
}

/* A card as its name ("7H"), or null when out of range. */
static cJSON *card_json(int card)
{
    if (card < 0 || card >= WA_CARDS)
        return cJSON_CreateNull();
    char c[4];
    wa_card_to_text(card, c);
    return cJSON_CreateString(c);
}

/* A set of cards as an array of names in card order (the discard pile and stacks have no
 * order). */
static cJSON *set_json(uint64_t set)
{
    cJSON *arr = cJSON_CreateArray();
    for (uint64_t m = set; m && arr; m &= m - 1)
        cJSON_AddItemToArray(arr, card_json(__builtin_ctzll(m)));
    return arr;
}

/* The action as data (the kinds and fields are listed in docs/games/walls-and-armies.md):
 * {"kind": "attack", "wall": 3, "target": null} (face down), {"kind": "attack", "shield": 1,
 * "target": "QS"}, {"kind": "stack", "stack": 1, "target": "QS", "total": 5},
 * {"kind": "leave", "stack": 1}, {"kind": "counter", "stack": 1}. Only public cards. */
static cJSON *wa_action_json(const void *st, rp_action a)
{
    const wa_state *s = st;
    const wa_player *d = &s->p[s->attacker ^ 1];
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    const char *kind = "attack", *place = "wall";
    unsigned n = 0;
    int target = -1; /* card_json writes null for it */
    if (a < WA_ACT_SHIELD) {
        n = a - WA_ACT_WALL;
        if (n < d->nwalls && (s->faceup & BIT(d->walls[n])))
            target = d->walls[n];
    } else if (a < WA_ACT_STACK) {
        place = "shield";
        n = a - WA_ACT_SHIELD;
        target = n < d->nshields ? d->shields[n] : -1;
    } else if (a < WA_ACT_LEAVE) {
        kind = place = "stack";
        n = a - WA_ACT_STACK;
        target = n < s->nstacks ? s->stack_target[n] : -1;
    } else {
        kind = a == WA_ACT_LEAVE ? "leave" : "counter";
        place = "stack";
        n = s->pending; /* WA_NONE: no stack, written 0 */
    }
    cJSON_AddStringToObject(o, "kind", kind);
    cJSON_AddNumberToObject(o, place, n == WA_NONE ? 0 : n + 1);
    if (a < WA_ACT_LEAVE)
        cJSON_AddItemToObject(o, "target", card_json(target));
    if (a >= WA_ACT_STACK && a < WA_ACT_LEAVE)
        cJSON_AddNumberToObject(o, "total", n < s->nstacks ? s->stack_total[n] : 0);
    return o;
}

/* printf into buf, returning the length: explain_illegal's answer. */
static int say(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int say(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

/* Why an attacker's attack or stack move is not legal (WA-3, WA-9, WA-P2), or -1. */
static int explain_attack(const wa_state *s, rp_action a, char *buf, size_t size)
{
    const wa_player *d = &s->p[s->attacker ^ 1];
    const char *opp = seat_name(s->attacker ^ 1);
    if (a >= WA_ACT_STACK) {
        unsigned k = a - WA_ACT_STACK;
        if (s->nstacks == 0)
            return say(buf, size, "you have no stack yet: open one with 'attack %s N'",
                       d->nshields ? "shield" : "wall");
        if (k >= s->nstacks)
            return say(buf, size, "you have %u stack%s: stack 1..%u", (unsigned)s->nstacks,
                       s->nstacks == 1 ? "" : "s", (unsigned)s->nstacks);
        return -1;
    }
    bool is_wall = a < WA_ACT_SHIELD;
    unsigned i = is_wall ? a - WA_ACT_WALL : a - WA_ACT_SHIELD;
    unsigned have = is_wall ? d->nwalls : d->nshields;
    if (is_wall && d->nshields)
        return say(buf, size,
                   "%s still has %u shield%s: no wall can be attacked until the "
                   "shields are gone",
                   opp, (unsigned)d->nshields, d->nshields == 1 ? "" : "s");
    if (!is_wall && !have)
        return say(buf, size, "%s has no shields left: attack a wall", opp);
    if (i >= have)
        return say(buf, size, "%s has only %u %s%s", opp, have, is_wall ? "wall" : "shield",
                   have == 1 ? "" : "s");
    int card = is_wall ? d->walls[i] : d->shields[i];
    if (!(s->targeted & BIT(card)))
        return -1;
    char c[4];
    wa_card_to_text(card, c);
    int k = 0;
    while (k < s->nstacks && s->stack_target[k] != card)
        k++;
    return say(buf, size,
               "%s's %s %u (%s) already has your stack %d against it: add to it "
               "with 'stack %d' (WA-9)",
               opp, is_wall ? "wall" : "shield", i + 1, c, k + 1, k + 1);
}

/* Why `a` is not legal in st, in the game's words; -1 when it is legal after all. */
static int wa_explain_illegal(const void *st, rp_action a, char *buf, size_t size)
{
    const wa_state *s = st;
    if (s->phase == WA_OVER)
        return say(buf, size, "the game is over");
    if (a >= WA_NUM_ACTIONS)
        return say(buf, size, "there is no such move");
    if (s->phase == WA_ATTACK) {
        if (a >= WA_ACT_LEAVE)
            return say(buf, size,
                       "'%s' answers a stack that did not win; now you choose "
                       "where your next army card goes",
                       a == WA_ACT_LEAVE ? "leave" : "counter");
        return explain_attack(s, a, buf, size);
    }
    if (a < WA_ACT_LEAVE)
        return say(buf, size,
                   "%s's stack %u did not beat its target: first you answer it with "
                   "'leave' or 'counter'",
                   seat_name(s->attacker), (unsigned)s->pending + 1);
    if (a == WA_ACT_COUNTER && s->p[s->attacker ^ 1].narmy == 0)
        return say(buf, size,
                   "you have no army cards to counter with: you can only 'leave' "
                   "it (WA-13)");
    return -1;
}

/* ------------------------------------------------------------------------------------------
 * Full-state notation on the toolkit (src/core/notation.h), fields in this order:
 *   wa1 turn=T cap=CAP attacker=0|1 phase=attack|defend|over pending=N|- winner=0|1|draw|-
 *   deck=TOP,..,BOTTOM discard=SET walls0=CARD[*],.. shields0=LIST army0=TOP,..
 *   walls1=.. shields1=.. army1=.. stacks=TARGET:SET,..|- revealed=LIST rng=<hex>.<hex>
 * SET is in card order (2C 2D .. AS; '+' separates a stack's cards), '*' marks a face-up
 * wall, '-' is an empty list. The stacks' totals and targets set are derived, not written. */

static const char *const PHASES[3] = {"attack", "defend", "over"};
static const char *const WINNERS[4] = {"0", "1", "draw", "-"}; /* index 3: WA_NONE */
static const char *const WALLS_KEY[2] = {"walls0", "walls1"};
static const char *const SHIELDS_KEY[2] = {"shields0", "shields1"};
static const char *const ARMY_KEY[2] = {"army0", "army1"};

static void put_card(rp_text *t, int card)
{
    char c[4];
    wa_card_to_text(card, c);
    rp__text_str(t, c);
}

/* A count no larger than its array, so a broken state (printed by RP_DEBUG_STATE_OK) is
 * written without reading past it. */
static int fit(int n, int size)
{
    return n < size ? n : size;
}

/* A list in its order; '*' after the cards in `faceup`. */
static void put_list(rp_text *t, const uint8_t *list, int n, uint64_t faceup)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        rp__put_sep(t, &count, ',');
        put_card(t, list[i]);
        if (list[i] < WA_CARDS && (faceup & BIT(list[i])))
            rp__text_ch(t, '*');
    }
    rp__put_list_end(t, count);
}

/* A pile stored top last, written top first. */
static void put_pile(rp_text *t, const uint8_t *pile, int n)
{
    int count = 0;
    for (int i = n - 1; i >= 0; i--) {
        rp__put_sep(t, &count, ',');
        put_card(t, pile[i]);
    }
    rp__put_list_end(t, count);
}

/* A set of cards in card order. */
static void put_set(rp_text *t, uint64_t set, char sep)
{
    int count = 0;
    for (uint64_t m = set & WA_ALL_CARDS; m; m &= m - 1) {
        rp__put_sep(t, &count, sep);
        put_card(t, __builtin_ctzll(m));
    }
    rp__put_list_end(t, count);
}

/* The referee's one-line notation (format above); RP_ENOSPACE if buf is too small. */
static int wa_state_to_text(const void *st, char *buf, size_t size)
{
    const wa_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, "wa1");
    rp__put_key(&t, "turn");
    rp__put_uint(&t, s->turn);
    rp__put_key(&t, "cap");
    rp__put_uint(&t, s->cap);
    rp__put_key(&t, "attacker");
    rp__put_uint(&t, s->attacker);
    rp__put_key(&t, "phase");
    rp__text_str(&t, s->phase <= WA_OVER ? PHASES[s->phase] : "?");
    rp__put_key(&t, "pending");
    if (s->pending == WA_NONE)
        rp__text_ch(&t, '-');
    else
        rp__put_uint(&t, s->pending + 1u);
    rp__put_key(&t, "winner");
    rp__text_str(&t, s->winner <= WA_DRAW ? WINNERS[s->winner] : WINNERS[3]);
    rp__put_key(&t, "deck");
    put_pile(&t, s->deck, fit(s->ndeck, WA_CARDS));
    rp__put_key(&t, "discard");
    put_set(&t, s->discard, ',');
    for (int pl = 0; pl < 2; pl++) {
        const wa_player *p = &s->p[pl];
        rp__put_key(&t, WALLS_KEY[pl]);
        put_list(&t, p->walls, fit(p->nwalls, WA_CARDS), s->faceup);
        rp__put_key(&t, SHIELDS_KEY[pl]);
        put_list(&t, p->shields, fit(p->nshields, WA_MAX_SHIELDS), 0);
        rp__put_key(&t, ARMY_KEY[pl]);
        put_pile(&t, p->army, fit(p->narmy, WA_CARDS));
    }
    rp__put_key(&t, "stacks");
    int count = 0;
    for (int k = 0; k < fit(s->nstacks, WA_CARDS); k++) {
        rp__put_sep(&t, &count, ',');
        put_card(&t, s->stack_target[k]);
        rp__text_ch(&t, ':');
        put_set(&t, s->stack_cards[k], '+');
    }
    rp__put_list_end(&t, count);
    rp__put_key(&t, "revealed");
    put_list(&t, s->revealed, fit(s->nrevealed, WA_MAX_REVEALED), 0);
    rp__put_rng(&t, &s->rng);
    return rp__text_finish(&t);
}

/* One card name, or a refusal naming the field. */
static int read_card(rp_reader *r, const char *what, rp_span v)
{
    int card = wa_card_from_text(v.p, v.len);
    if (card < 0)
        return rp__read_fail(r, what, "'%.*s' is not a card (e.g. 7H, 10D, QS)",
                             (int)(v.len < 8 ? v.len : 8), v.p);
    return card;
}

/* The field `key`: a list of at most max cards into list[] in text order. With faceup, a card
 * may carry '*' (a face-up wall), recorded there. */
static int read_list(rp_reader *r, const char *key, uint8_t *list, int max, uint8_t *n,
                     uint64_t *faceup)
{
    rp_span v, item;
    int rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    rp_list l;
    rp__list_begin(&l, v, ',');
    *n = 0;
    while (rp__list_next(&l, &item)) {
        bool up = faceup && item.len > 1 && item.p[item.len - 1] == '*';
        if (up)
            item.len--;
        if (*n >= max)
            return rp__read_fail(r, key, "more than %d cards", max);
        int card = read_card(r, key, item);
        if (card < 0)
            return card;
        list[(*n)++] = (uint8_t)card;
        if (up)
            *faceup |= BIT(card);
    }
    return RP_OK;
}

/* The field `key`: a pile written top first, stored top last. */
static int read_pile(rp_reader *r, const char *key, uint8_t *pile, uint8_t *n)
{
    uint8_t top_first[WA_CARDS];
    int rc = read_list(r, key, top_first, WA_CARDS, n, NULL);
    for (int i = 0; rc == RP_OK && i < *n; i++)
        pile[i] = top_first[*n - 1 - i];
    return rc;
}

/* Items of a set separated by sep, into *set (the canonical check refuses another order). */
static int read_set(rp_reader *r, const char *what, rp_span v, char sep, uint64_t *set)
{
    rp_list l;
    rp_span item;
    rp__list_begin(&l, v, sep);
    while (rp__list_next(&l, &item)) {
        int card = read_card(r, what, item);
        if (card < 0)
            return card;
        *set |= BIT(card);
    }
    return RP_OK;
}

/* A whole number field in [min, max]. */
static int read_uint(rp_reader *r, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
    rp_span v;
    int rc = rp__read_field(r, key, &v);
    return rc < 0 ? rc : rp__span_uint(r, key, v, min, max, out);
}

/* turn, cap, attacker, phase, pending, winner. */
static int read_header(rp_reader *r, wa_state *s)
{
    uint64_t turn, cap, attacker, pending = 0;
    int phase, winner, rc;
    rp_span v;
    if ((rc = read_uint(r, "turn", 1, WA_MAX_CAP, &turn)) < 0 ||
        (rc = read_uint(r, "cap", 1, WA_MAX_CAP, &cap)) < 0 ||
        (rc = read_uint(r, "attacker", 0, 1, &attacker)) < 0 ||
        (rc = rp__read_field(r, "phase", &v)) < 0 ||
        (rc = rp__span_choice(r, "phase", v, PHASES, 3, &phase)) < 0 ||
        (rc = rp__read_field(r, "pending", &v)) < 0 ||
        (!rp__span_is(v, "-") &&
         (rc = rp__span_uint(r, "pending", v, 1, WA_CARDS, &pending)) < 0) ||
        (rc = rp__read_field(r, "winner", &v)) < 0 ||
        (rc = rp__span_choice(r, "winner", v, WINNERS, 4, &winner)) < 0)
        return rc;
    s->turn = (uint16_t)turn;
    s->cap = (uint16_t)cap;
    s->attacker = (uint8_t)attacker;
    s->phase = (uint8_t)phase;
    s->pending = pending ? (uint8_t)(pending - 1) : WA_NONE;
    s->winner = winner == 3 ? WA_NONE : (uint8_t)winner;
    return RP_OK;
}

/* Stacks: TARGET:CARD+CARD,...; totals and the targets set follow from them. */
static int read_stacks(rp_reader *r, wa_state *s)
{
    rp_span v, item, target, cards;
    int rc = rp__read_field(r, "stacks", &v);
    if (rc < 0)
        return rc;
    rp_list l;
    rp__list_begin(&l, v, ',');
    while (rp__list_next(&l, &item)) {
        if (!rp__span_split(item, ':', &target, &cards))
            return rp__read_fail(r, "stacks", "write TARGET:CARD+CARD, e.g. QS:2C+7H");
        if (s->nstacks >= WA_CARDS)
            return rp__read_fail(r, "stacks", "more than %d stacks", WA_CARDS);
        int k = s->nstacks++;
        int card = read_card(r, "stacks", target);
        if (card < 0 || (rc = read_set(r, "stacks", cards, '+', &s->stack_cards[k])) < 0)
            return card < 0 ? card : rc;
        s->stack_target[k] = (uint8_t)card;
        s->targeted |= BIT(card);
        s->stack_total[k] = (uint8_t)set_total(s->stack_cards[k]);
    }
    return RP_OK;
}

/* One player's walls (face-up ones marked), shields and army deck. */
static int read_player(rp_reader *r, wa_state *s, int pl)
{
    wa_player *p = &s->p[pl];
    int rc;
    if ((rc = read_list(r, WALLS_KEY[pl], p->walls, WA_CARDS, &p->nwalls, &s->faceup)) < 0 ||
        (rc = read_list(r, SHIELDS_KEY[pl], p->shields, WA_MAX_SHIELDS, &p->nshields, NULL)) < 0)
        return rc;
    return read_pile(r, ARMY_KEY[pl], p->army, &p->narmy);
}

/* Parse into a local state, check every invariant, insist on the canonical spelling; st
 * changes only on success. */
static int wa_state_from_text(void *st, const char *text, rp_error *err)
{
    wa_state s;
    memset(&s, 0, sizeof s);
    rp_reader r;
    rp_span v;
    int rc;
    if ((rc = rp__read_begin(&r, text, "wa1", err)) < 0 || (rc = read_header(&r, &s)) < 0 ||
        (rc = read_pile(&r, "deck", s.deck, &s.ndeck)) < 0 ||
        (rc = rp__read_field(&r, "discard", &v)) < 0 ||
        (rc = read_set(&r, "discard", v, ',', &s.discard)) < 0)
        return rc;
    if ((rc = read_player(&r, &s, 0)) < 0 || (rc = read_player(&r, &s, 1)) < 0 ||
        (rc = read_stacks(&r, &s)) < 0 ||
        (rc = read_list(&r, "revealed", s.revealed, WA_MAX_REVEALED, &s.nrevealed, NULL)) < 0 ||
        (rc = rp__read_rng(&r, &s.rng)) < 0 || (rc = rp__read_end(&r)) < 0)
        return rc;
    if (wa_state_ok(&s, err) < 0)
        return RP_EPARSE;
    if ((rc = rp__read_canonical(&r, &rp_walls_and_armies, &s)) < 0)
        return rc;
    memcpy(st, &s, sizeof s);
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Invariants (state_ok): everything state_from_text accepts and apply keeps. */

/* Numbers in range and counts within their arrays. */
static int check_ranges(const wa_state *s, rp_error *err)
{
    if (s->cap < 1 || s->cap > WA_MAX_CAP)
        return rp_fail(err, RP_EINVAL, "cap: %u is not in 1..%d", (unsigned)s->cap, WA_MAX_CAP);
    if (s->turn < 1 || s->turn > s->cap)
        return rp_fail(err, RP_EINVAL, "turn: %u is not in 1..%u (the cap)", (unsigned)s->turn,
                       (unsigned)s->cap);
    if (s->attacker > 1 || s->phase > WA_OVER || (s->winner > WA_DRAW && s->winner != WA_NONE))
        return rp_fail(err, RP_EINVAL, "attacker, phase or winner out of range");
    if (s->ndeck > WA_CARDS || s->nstacks > WA_CARDS || s->nrevealed > WA_MAX_REVEALED)
        return rp_fail(err, RP_EINVAL, "deck, stacks or revealed: too many");
    for (int pl = 0; pl < 2; pl++)
        if (s->p[pl].nwalls > WA_CARDS || s->p[pl].narmy > WA_CARDS ||
            s->p[pl].nshields > WA_MAX_SHIELDS)
            return rp_fail(err, RP_EINVAL, "player %d: too many cards in one place", pl);
    if (!(s->rng.inc & 1))
        return rp_fail(err, RP_EINVAL, "rng: the increment must be odd");
    return RP_OK;
}

/* True when list[from..size) is all zero. */
static bool zero_from(const uint8_t *list, int from, int size)
{
    for (int i = from; i < size; i++)
        if (list[i])
            return false;
    return true;
}

/* Unused slots are zero (every removal clears its slot), so equal states are equal bytes. */
static int check_unused_slots(const wa_state *s, rp_error *err)
{
    bool ok = zero_from(s->deck, s->ndeck, WA_CARDS) &&
              zero_from(s->revealed, s->nrevealed, WA_MAX_REVEALED) &&
              zero_from(s->stack_target, s->nstacks, WA_CARDS) &&
              zero_from(s->stack_total, s->nstacks, WA_CARDS);
    for (int k = s->nstacks; k < WA_CARDS; k++)
        ok = ok && s->stack_cards[k] == 0;
    for (int pl = 0; pl < 2; pl++)
        ok = ok && zero_from(s->p[pl].walls, s->p[pl].nwalls, WA_CARDS) &&
             zero_from(s->p[pl].army, s->p[pl].narmy, WA_CARDS) &&
             zero_from(s->p[pl].shields, s->p[pl].nshields, WA_MAX_SHIELDS);
    return ok ? RP_OK : rp_fail(err, RP_EINVAL, "an unused slot is not zero");
}

/* Add a place's cards to *seen, refusing one that is not a card or is somewhere already. */
static int count_place(const char *where, const uint8_t *list, int n, uint64_t *seen, rp_error *err)
{
    for (int i = 0; i < n; i++) {
        if (list[i] >= WA_CARDS)
            return rp_fail(err, RP_EINVAL, "%s: %u is not a card", where, (unsigned)list[i]);
        if (*seen & BIT(list[i])) {
            char c[4];
            wa_card_to_text(list[i], c);
            return rp_fail(err, RP_EINVAL, "%s: card %s appears twice in the state", where, c);
        }
        *seen |= BIT(list[i]);
    }
    return RP_OK;
}

/* The same for a set of cards. */
static int count_set(const char *where, uint64_t set, uint64_t *seen, rp_error *err)
{
    if (set & ~WA_ALL_CARDS)
        return rp_fail(err, RP_EINVAL, "%s: not a set of cards", where);
    if (set & *seen) {
        char c[4];
        wa_card_to_text(__builtin_ctzll(set & *seen), c);
        return rp_fail(err, RP_EINVAL, "%s: card %s appears twice in the state", where, c);
    }
    *seen |= set;
    return RP_OK;
}

/* All 52 cards, each in exactly one place (in the notation's order, so the message names the
 * second place); shields are face cards; only the defender's walls are face up (WA-5). */
static int check_cards(const wa_state *s, rp_error *err)
{
    uint64_t seen = 0;
    int rc;
    if ((rc = count_place("deck", s->deck, s->ndeck, &seen, err)) < 0 ||
        (rc = count_set("discard", s->discard, &seen, err)) < 0)
        return rc;
    for (int pl = 0; pl < 2; pl++) {
        const wa_player *p = &s->p[pl];
        if ((rc = count_place(WALLS_KEY[pl], p->walls, p->nwalls, &seen, err)) < 0 ||
            (rc = count_place(SHIELDS_KEY[pl], p->shields, p->nshields, &seen, err)) < 0 ||
            (rc = count_place(ARMY_KEY[pl], p->army, p->narmy, &seen, err)) < 0)
            return rc;
        for (int i = 0; i < p->nshields; i++)
            if (!is_face(p->shields[i]))
                return rp_fail(err, RP_EINVAL, "%s: only face cards (J Q K A) are shields",
                               SHIELDS_KEY[pl]);
    }
    for (int k = 0; k < s->nstacks; k++)
        if ((rc = count_set("stacks", s->stack_cards[k], &seen, err)) < 0)
            return rc;
    if (seen != WA_ALL_CARDS) {
        char c[4];
        wa_card_to_text(__builtin_ctzll(~seen & WA_ALL_CARDS), c);
        return rp_fail(err, RP_EINVAL, "card %s is missing (all 52 cards must be somewhere)", c);
    }
    for (int i = 0; i < s->nrevealed; i++)
        if (s->revealed[i] >= WA_CARDS)
            return rp_fail(err, RP_EINVAL, "revealed: %u is not a card", (unsigned)s->revealed[i]);
    const wa_player *a = &s->p[s->attacker], *d = &s->p[s->attacker ^ 1];
    for (int i = 0; i < a->nwalls; i++)
        if (s->faceup & BIT(a->walls[i]))
            return rp_fail(err, RP_EINVAL, "%s: the attacker's walls are all face down (WA-5)",
                           WALLS_KEY[s->attacker]);
    uint64_t defender_walls = 0;
    for (int i = 0; i < d->nwalls; i++)
        defender_walls |= BIT(d->walls[i]);
    if (s->faceup & ~defender_walls)
        return rp_fail(err, RP_EINVAL, "faceup: only walls are turned face up");
    return RP_OK;
}

/* Each stack is against a card the attacker may attack (WA-3: a shield while any remain,
 * else a revealed wall), one per target (WA-9), not empty, its total right and not above the
 * target (it would have won at once). */
static int check_stacks(const wa_state *s, rp_error *err)
{
    const wa_player *d = &s->p[s->attacker ^ 1];
    uint64_t targets = 0;
    for (int k = 0; k < s->nstacks; k++) {
        int target = s->stack_target[k];
        char c[4];
        wa_card_to_text(target, c);
        bool shield = list_find(d->shields, d->nshields, target) >= 0;
        bool wall = list_find(d->walls, d->nwalls, target) >= 0;
        if (!shield && !wall)
            return rp_fail(err, RP_EINVAL,
                           "stacks: target %s is not a wall or shield of the "
                           "defender",
                           c);
        if (wall && (d->nshields > 0 || !(s->faceup & BIT(target))))
            return rp_fail(err, RP_EINVAL,
                           "stacks: a wall target must be face up and the "
                           "defender must have no shields (WA-3)");
        if (targets & BIT(target))
            return rp_fail(err, RP_EINVAL, "stacks: two stacks against %s (WA-9)", c);
        targets |= BIT(target);
        if (!s->stack_cards[k])
            return rp_fail(err, RP_EINVAL, "stacks: the stack against %s has no card", c);
        int total = set_total(s->stack_cards[k]);
        if (total != s->stack_total[k])
            return rp_fail(err, RP_EINVAL, "stacks: the stack against %s totals %d, not %u", c,
                           total, (unsigned)s->stack_total[k]);
        if (total > card_value(target))
            return rp_fail(err, RP_EINVAL,
                           "stacks: a stack above its target would have won at "
                           "once (WA-3)");
    }
    if (targets != s->targeted)
        return rp_fail(err, RP_EINVAL, "targeted: must be the stacks' targets (WA-9)");
    return RP_OK;
}

/* How a finished game must look: the loser of WA-7 lost their last wall as the defender, or
 * the cap was reached and walls decide (WA-15). */
static int check_over(const wa_state *s, rp_error *err)
{
    int w0 = s->p[0].nwalls, w1 = s->p[1].nwalls;
    if (s->winner == WA_NONE)
        return rp_fail(err, RP_EINVAL, "winner: a finished game needs 0, 1 or draw");
    if (s->pending != WA_NONE || s->nstacks)
        return rp_fail(err, RP_EINVAL, "phase over: no pending stack and no stacks");
    if (w0 == 0 || w1 == 0) {
        if (s->p[s->attacker ^ 1].nwalls != 0 || s->p[s->attacker].nwalls == 0 ||
            s->winner != s->attacker)
            return rp_fail(err, RP_EINVAL,
                           "winner: only the defender can run out of walls, "
                           "and then the attacker wins (WA-7)");
        return RP_OK;
    }
    int by_walls = w0 > w1 ? 0 : w1 > w0 ? 1 : WA_DRAW;
    if (s->turn != s->cap || s->winner != by_walls || s->faceup)
        return rp_fail(err, RP_EINVAL,
                       "winner: with walls on both sides the game ends only at "
                       "the turn cap, won by more walls (WA-7)");
    return RP_OK;
}

/* Phase, pending stack and winner agree. */
static int check_phase(const wa_state *s, rp_error *err)
{
    if (s->phase == WA_OVER)
        return check_over(s, err);
    if (s->winner != WA_NONE)
        return rp_fail(err, RP_EINVAL, "winner: the game is not over");
    if (s->p[0].nwalls == 0 || s->p[1].nwalls == 0)
        return rp_fail(err, RP_EINVAL, "a player without walls has lost (WA-7): phase over");
    if (s->phase == WA_ATTACK && s->pending != WA_NONE)
        return rp_fail(err, RP_EINVAL, "phase attack: no stack is pending (pending=-)");
    if (s->phase == WA_ATTACK && s->p[s->attacker].narmy == 0)
        return rp_fail(err, RP_EINVAL,
                       "phase attack: the attacker needs an army card to flip "
                       "(with none the turn has ended, WA-5)");
    if (s->phase == WA_DEFEND && (s->pending == WA_NONE || s->pending >= s->nstacks))
        return rp_fail(err, RP_EINVAL, "phase defend: pending must name one of the stacks");
    return RP_OK;
}

static int wa_state_ok(const void *st, rp_error *err)
{
    const wa_state *s = st;
    int rc;
    if ((rc = check_ranges(s, err)) < 0 || (rc = check_unused_slots(s, err)) < 0 ||
        (rc = check_cards(s, err)) < 0 || (rc = check_stacks(s, err)) < 0 ||
        (rc = check_phase(s, err)) < 0)
        return rc;
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Views (WA-8): face-down walls and every army deck are hidden from both players, the main
 * deck's order too (so the attacker's next card is unknown to all until the attack is chosen,
 * WA-P1); face-up walls, shields, stacks, counts, the discard pile and the cards the last
 * action turned up are public. So every seat and the spectator see the same table. */

/* One player's table: name, walls (null when face down), shields, the army deck's size. */
static cJSON *player_json(const wa_state *s, int pl)
{
    const wa_player *p = &s->p[pl];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", seat_name(pl));
    cJSON *walls = cJSON_AddArrayToObject(o, "walls");
    for (int i = 0; i < p->nwalls; i++)
        cJSON_AddItemToArray(walls, (s->faceup & BIT(p->walls[i])) ? card_json(p->walls[i])
                                                                   : cJSON_CreateNull());
    cJSON *shields = cJSON_AddArrayToObject(o, "shields");
    for (int i = 0; i < p->nshields; i++)
        cJSON_AddItemToArray(shields, card_json(p->shields[i]));
    cJSON_AddNumberToObject(o, "army_cards", p->narmy);
    return o;
}

/* Where a stack's target lies, as the 1-based number a player types: +N is wall N of the
 * defender, -N is shield N. */
static int target_position(const wa_state *s, int target)
{
    const wa_player *d = &s->p[s->attacker ^ 1];
    int i = list_find(d->shields, d->nshields, target);
    return i >= 0 ? -(i + 1) : list_find(d->walls, d->nwalls, target) + 1;
}

/* How the game ended: "no-walls" (WA-7), "turn-cap" (WA-15), or NULL while it goes on. */
static const char *end_reason(const wa_state *s)
{
    if (s->phase != WA_OVER)
        return NULL;
    return s->p[0].nwalls == 0 || s->p[1].nwalls == 0 ? "no-walls" : "turn-cap";
}

/* The public table (WA-8) as `viewer` sees it; identical for any two states nobody can tell
 * apart. Fields are listed in docs/games/walls-and-armies.md. */
static cJSON *wa_view_json(const void *st, int viewer)
{
    const wa_state *s = st;
    cJSON *v = cJSON_CreateObject();
    if (!v)
        return NULL;
    cJSON_AddStringToObject(v, "game", "walls-and-armies");
    cJSON_AddItemToObject(v, "seat", viewer >= 0 ? cJSON_CreateNumber(viewer) : cJSON_CreateNull());
    cJSON_AddNumberToObject(v, "turn", s->turn);
    cJSON_AddNumberToObject(v, "turn_cap", s->cap);
    cJSON_AddNumberToObject(v, "attacker", s->attacker);
    cJSON_AddStringToObject(v, "phase", PHASES[s->phase]);
    int to_act = wa_current_player(s);
    cJSON_AddItemToObject(v, "to_act",
                          to_act >= 0 ? cJSON_CreateNumber(to_act) : cJSON_CreateNull());
    cJSON_AddItemToObject(v, "pending_stack",
                          s->pending == WA_NONE ? cJSON_CreateNull()
                                                : cJSON_CreateNumber(s->pending + 1));
    if (s->winner == WA_NONE)
        cJSON_AddNullToObject(v, "winner");
    else if (s->winner == WA_DRAW)
        cJSON_AddStringToObject(v, "winner", "draw");
    else
        cJSON_AddNumberToObject(v, "winner", s->winner);
    const char *reason = end_reason(s);
    cJSON_AddItemToObject(v, "end_reason",
                          reason ? cJSON_CreateString(reason) : cJSON_CreateNull());
    cJSON_AddNumberToObject(v, "main_deck", s->ndeck);
    cJSON_AddItemToObject(v, "discard", set_json(s->discard));
    cJSON *revealed = cJSON_AddArrayToObject(v, "revealed");
    for (int i = 0; i < s->nrevealed; i++)
        cJSON_AddItemToArray(revealed, card_json(s->revealed[i]));
    cJSON *players = cJSON_AddArrayToObject(v, "players");
    for (int pl = 0; pl < 2; pl++)
        cJSON_AddItemToArray(players, player_json(s, pl));
    cJSON *stacks = cJSON_AddArrayToObject(v, "stacks");
    for (int k = 0; k < s->nstacks; k++) {
        cJSON *o = cJSON_CreateObject();
        int at = target_position(s, s->stack_target[k]);
        cJSON_AddItemToObject(o, "target", card_json(s->stack_target[k]));
        cJSON_AddStringToObject(o, "target_kind", at < 0 ? "shield" : "wall");
        cJSON_AddNumberToObject(o, "target_number", at < 0 ? -at : at);
        cJSON_AddItemToObject(o, "cards", set_json(s->stack_cards[k]));
        cJSON_AddNumberToObject(o, "total", s->stack_total[k]);
        cJSON_AddItemToArray(stacks, o);
    }
    return v;
}

/* The cards in hidden places (face-down walls, army decks, the main deck), whatever the
 * viewer: WA-8 hides them from both players. */
static uint64_t hidden_cards(const wa_state *s)
{
    uint64_t hidden = 0;
    for (int i = 0; i < s->ndeck; i++)
        hidden |= BIT(s->deck[i]);
    for (int pl = 0; pl < 2; pl++) {
        const wa_player *p = &s->p[pl];
        for (int i = 0; i < p->nwalls; i++)
            hidden |= BIT(p->walls[i]);
        for (int i = 0; i < p->narmy; i++)
            hidden |= BIT(p->army[i]);
    }
    return hidden & ~s->faceup;
}

/* The names of the hidden cards not also shown by the view (the last action's revealed cards
 * stay known after a reshuffle hides them), in card order, for leak tests. */
static int wa_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    (void)viewer; /* the same for everyone (WA-8) */
    const wa_state *s = st;
    uint64_t secret = hidden_cards(s);
    for (int i = 0; i < s->nrevealed; i++)
        secret &= ~BIT(s->revealed[i]);
    rp_text t;
    rp__text_init(&t, buf, size);
    int count = 0;
    for (uint64_t m = secret; m; m &= m - 1) {
        rp__put_sep(&t, &count, ' ');
        put_card(&t, __builtin_ctzll(m));
    }
    return rp__text_finish(&t);
}

/* Deal every hidden card (face-down walls, army decks, the main deck) at random over the
 * hidden places, and give the state a fresh rng: all consistent with the public view (WA-8).
 * The pool is built from the public cards' complement in card order, never from where the
 * hidden cards lie, so the result depends only on the view and rng. The revealed list is
 * history, not a place: its cards stay in the pool. */
static void wa_determinize(void *st, int viewer, rp_rng *rng)
{
    (void)viewer; /* nobody sees more than the public view, owners included (WA-8) */
    wa_state *s = st;
    uint8_t *slots[WA_CARDS];
    uint8_t pool[WA_CARDS];
    int n = 0;
    for (int pl = 0; pl < 2; pl++) {
        wa_player *p = &s->p[pl];
        for (int i = 0; i < p->nwalls; i++)
            if (!(s->faceup & BIT(p->walls[i])))
                slots[n++] = &p->walls[i];
        for (int i = 0; i < p->narmy; i++)
            slots[n++] = &p->army[i];
    }
    for (int i = 0; i < s->ndeck; i++)
        slots[n++] = &s->deck[i];
    int m = 0;
    for (uint64_t h = hidden_cards(s); h; h &= h - 1)
        pool[m++] = (uint8_t)__builtin_ctzll(h);
    rp_assert(m == n);
    if (m != n) /* not a consistent state; leave it rather than corrupt it */
        return;
    rp_rng_shuffle_u8(rng, pool, n);
    for (int i = 0; i < n; i++)
        *slots[i] = pool[i];
    uint64_t seed = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, seed, rp_rng_next(rng));
}

/* ------------------------------------------------------------------------------------------
 * Events: the log of one action, told as sentences (kinds and fields are listed in
 * docs/rules/walls-and-armies.md and docs/games/walls-and-armies.md). Nothing in this game is
 * private to one seat (WA-8), so every viewer is told the same; the cards that become face-down
 * walls by a capture are never named, the dealt cards neither. */

/* "Red's wall 3 (7C)", or "(turned up: 7C)" when the attack revealed it: the target of a
 * record, numbered as it was when the action began. */
static void target_text(const wa_event *e, int owner, char *out, size_t size)
{
    char c[4];
    wa_card_to_text(e->target, c);
    snprintf(out, size, "%s's %s %u (%s%s)", seat_name(owner),
             (e->flags & EVF_SHIELD) ? "shield" : "wall", (unsigned)e->number,
             (e->flags & EVF_TURNED_UP) ? "turned up: " : "", c);
}

/* A set of cards for a sentence: "5H, 8C". */
static void set_text(uint64_t set, char *out, size_t size)
{
    rp_text t;
    rp__text_init(&t, out, size);
    for (uint64_t m = set; m; m &= m - 1) {
        if (t.len)
            rp__text_str(&t, ", ");
        put_card(&t, __builtin_ctzll(m));
    }
}

/* The parts every stack event shares: the card, the stack, where its target is. */
static void add_target_parts(cJSON *ev, const wa_event *e)
{
    cJSON_AddItemToObject(ev, "target", card_json(e->target));
    cJSON_AddStringToObject(ev, "target_kind", (e->flags & EVF_SHIELD) ? "shield" : "wall");
    cJSON_AddNumberToObject(ev, "target_number", e->number);
    cJSON_AddNumberToObject(ev, "stack", e->stack);
}

/* A card just turned up and played against a stack (a flip or a counter): reveal, the card,
 * where the stack's target is, the stack's total and whether the card won. */
static void add_card_against_stack(cJSON *ev, const wa_event *e)
{
    rp__event_reveal(ev);
    cJSON_AddItemToObject(ev, "card", card_json(e->card));
    add_target_parts(ev, e);
    cJSON_AddNumberToObject(ev, "total", e->total);
    cJSON_AddBoolToObject(ev, "beats", (e->flags & EVF_BEATS) != 0);
}

/* "Blue flips 9H onto Red's wall 3 (7C): 9 beats 7, the wall falls." */
static cJSON *flip_event(cJSON *events, const wa_event *e)
{
    char card[4], target[64], onto[96], sum[32], outcome[96];
    wa_card_to_text(e->card, card);
    target_text(e, e->seat ^ 1, target, sizeof target);
    if (e->flags & EVF_OPENS)
        snprintf(onto, sizeof onto, "%s", target);
    else
        snprintf(onto, sizeof onto, "stack %u against %s", (unsigned)e->stack, target);
    int value = card_value(e->card), against = card_value(e->target);
    if (e->flags & EVF_OPENS)
        snprintf(sum, sizeof sum, "%d", value);
    else
        snprintf(sum, sizeof sum, "%u + %d = %u", (unsigned)e->before, value, (unsigned)e->total);
    const char *defender = seat_name(e->seat ^ 1);
    if (e->flags & EVF_BEATS)
        snprintf(outcome, sizeof outcome, "beats %d, the %s falls", against,
                 (e->flags & EVF_SHIELD) ? "shield" : "wall");
    else if (e->flags & EVF_CAN_COUNTER)
        snprintf(outcome, sizeof outcome, "does not beat %d; %s may leave it or counter-attack",
                 against, defender);
    else
        snprintf(outcome, sizeof outcome,
                 "does not beat %d; %s has no army card to counter "
                 "with and must leave it",
                 against, defender);
    cJSON *ev = rp__event(events, "flip", e->seat, "%s flips %s onto %s: %s %s.",
                          seat_name(e->seat), card, onto, sum, outcome);
    if (!ev)
        return NULL;
    add_card_against_stack(ev, e);
    cJSON_AddNumberToObject(ev, "value", against);
    cJSON_AddBoolToObject(ev, "turned_up", (e->flags & EVF_TURNED_UP) != 0);
    cJSON_AddItemToObject(ev, "cards", set_json(BIT(e->card) | BIT(e->target)));
    return ev;
}

/* "Red's wall 3 (7C) and the stack (9H) are discarded; Red has 4 walls left." */
static cJSON *falls_event(cJSON *events, const wa_event *e)
{
    char target[64], stack[256];
    target_text(e, e->seat, target, sizeof target);
    set_text(e->cards, stack, sizeof stack);
    bool shield = e->flags & EVF_SHIELD;
    const char *what = shield ? "shield" : "wall";
    char left[64];
    if (e->count)
        snprintf(left, sizeof left, "%u %s%s left", (unsigned)e->count, what,
                 e->count == 1 ? "" : "s");
    else if (shield)
        snprintf(left, sizeof left, "no shields left: its walls may now be attacked");
    else
        snprintf(left, sizeof left, "no walls left");
    cJSON *ev = rp__event(events, shield ? "shield-falls" : "wall-falls", e->seat,
                          "%s and the stack (%s) are discarded; %s has %s.", target, stack,
                          seat_name(e->seat), left);
    if (!ev)
        return NULL;
    add_target_parts(ev, e);
    cJSON_AddNumberToObject(ev, "left", e->count);
    cJSON_AddItemToObject(ev, "cards", set_json(e->cards | BIT(e->target)));
    return ev;
}

/* "Red leaves Blue's stack 1 (total 4, against 7C) in play." */
static cJSON *leave_event(cJSON *events, const wa_event *e)
{
    char target[4];
    wa_card_to_text(e->target, target);
    cJSON *ev = rp__event(events, "leave", e->seat,
                          "%s leaves %s's stack %u (total %u, against "
                          "%s) in play.",
                          seat_name(e->seat), seat_name(e->seat ^ 1), (unsigned)e->stack,
                          (unsigned)e->total, target);
    if (!ev)
        return NULL;
    add_target_parts(ev, e);
    cJSON_AddNumberToObject(ev, "total", e->total);
    return ev;
}

/* "Red counter-attacks Blue's stack 1 (total 7) with 10D: 10 beats 7, so Red captures it." */
static cJSON *counter_event(cJSON *events, const wa_event *e)
{
    char card[4], stack[256], outcome[320];
    wa_card_to_text(e->card, card);
    int value = card_value(e->card);
    if (e->flags & EVF_BEATS) {
        snprintf(outcome, sizeof outcome, "%d beats %u, so %s captures the stack", value,
                 (unsigned)e->total, seat_name(e->seat));
    } else {
        set_text(e->cards, stack, sizeof stack);
        snprintf(outcome, sizeof outcome,
                 "%d does not beat %u, so %s and the stack (%s) are "
                 "discarded",
                 value, (unsigned)e->total, card, stack);
    }
    cJSON *ev = rp__event(events, "counter", e->seat,
                          "%s counter-attacks %s's stack %u "
                          "(total %u) with %s: %s.",
                          seat_name(e->seat), seat_name(e->seat ^ 1), (unsigned)e->stack,
                          (unsigned)e->total, card, outcome);
    if (!ev)
        return NULL;
    add_card_against_stack(ev, e);
    cJSON_AddItemToObject(ev, "cards", set_json(BIT(e->card) | e->cards));
    return ev;
}

/* "The stack's 2 cards become Red's face-down walls 5 and 6; 10D is discarded." The captured
 * cards are face-down walls now, hidden from everyone (WA-8): counted, never named. */
static cJSON *capture_event(cJSON *events, const wa_event *e)
{
    char card[4], walls[48];
    wa_card_to_text(e->card, card);
    unsigned first = e->number, last = e->number + e->count - 1u;
    if (e->count == 1)
        snprintf(walls, sizeof walls, "card becomes %s's face-down wall %u", seat_name(e->seat),
                 first);
    else
        snprintf(walls, sizeof walls, "%u cards become %s's face-down walls %u %s %u",
                 (unsigned)e->count, seat_name(e->seat), first, e->count == 2 ? "and" : "to", last);
    cJSON *ev =
        rp__event(events, "capture", e->seat, "The stack's %s; %s is discarded.", walls, card);
    if (!ev)
        return NULL;
    cJSON_AddNumberToObject(ev, "count", e->count);
    cJSON *numbers = cJSON_AddArrayToObject(ev, "walls");
    for (unsigned w = first; w <= last && numbers; w++)
        cJSON_AddItemToArray(numbers, cJSON_CreateNumber(w));
    return ev;
}

/* "Blue's army deck is empty, so the turn ends: the unresolved stack (4H) is discarded and
 * Red's face-up walls are turned face down." */
static cJSON *turn_end_event(cJSON *events, const wa_event *e)
{
    char stacks[320] = "", cards[256], walls[96] = "";
    if (e->count) {
        set_text(e->cards, cards, sizeof cards);
        if (e->count == 1)
            snprintf(stacks, sizeof stacks, "the unresolved stack (%s) is discarded", cards);
        else
            snprintf(stacks, sizeof stacks, "the %u unresolved stacks (%s) are discarded",
                     (unsigned)e->count, cards);
    }
    if (e->flags & EVF_WALLS_DOWN)
        snprintf(walls, sizeof walls, "%s's face-up walls are turned face down",
                 seat_name(e->seat ^ 1));
    cJSON *ev = rp__event(events, "turn-end", e->seat,
                          "%s's army deck is empty, so the turn "
                          "ends%s%s%s%s.",
                          seat_name(e->seat), *stacks || *walls ? ": " : "", stacks,
                          *stacks && *walls ? " and " : "", walls);
    if (!ev)
        return NULL;
    cJSON_AddNumberToObject(ev, "stacks", e->count);
    cJSON_AddBoolToObject(ev, "turned_down", (e->flags & EVF_WALLS_DOWN) != 0);
    cJSON_AddItemToObject(ev, "cards", set_json(e->cards));
    return ev;
}

/* "Blue flips 6C to replenish: 6C is discarded and Blue is dealt 6 army cards.", the face
 * card that becomes a shield, or nothing left to flip (WA-5, WA-6, WA-11). */
static cJSON *replenish_event(cJSON *events, const wa_event *e)
{
    const char *who = seat_name(e->seat);
    if (e->kind == EV_NO_REPLENISH)
        return rp__event(events, "no-replenish", e->seat,
                         "%s cannot replenish: the main deck "
                         "and the discard pile are empty.",
                         who);
    char card[4], dealt[96];
    wa_card_to_text(e->card, card);
    cJSON *ev;
    if (e->kind == EV_SHIELD) {
        ev = rp__event(events, "shield", e->seat,
                       "%s flips %s to replenish: a face card, it "
                       "becomes %s's shield %u.",
                       who, card, who, (unsigned)e->number);
        if (ev)
            cJSON_AddNumberToObject(ev, "shield", e->number);
    } else {
        int value = card_value(e->card);
        if (e->count == value)
            snprintf(dealt, sizeof dealt, "%s is dealt %d army card%s", who, value,
                     value == 1 ? "" : "s");
        else
            snprintf(dealt, sizeof dealt, "%s is dealt the only %u card%s left", who,
                     (unsigned)e->count, e->count == 1 ? "" : "s");
        ev = rp__event(events, "replenish", e->seat,
                       "%s flips %s to replenish: %s is discarded "
                       "and %s.",
                       who, card, card, dealt);
        if (ev)
            cJSON_AddNumberToObject(ev, "count", e->count);
    }
    if (!ev)
        return NULL;
    rp__event_reveal(ev);
    cJSON_AddItemToObject(ev, "card", card_json(e->card));
    cJSON_AddItemToObject(ev, "cards", set_json(BIT(e->card)));
    return ev;
}

/* "Turn 6: Red attacks with 5 army cards." (or has none: only the replenish, WA-12). */
static cJSON *turn_event(cJSON *events, const wa_event *e)
{
    cJSON *ev;
    if (e->count)
        ev = rp__event(events, "turn", e->seat, "Turn %u: %s attacks with %u army card%s.",
                       (unsigned)e->turn, seat_name(e->seat), (unsigned)e->count,
                       e->count == 1 ? "" : "s");
    else
        ev = rp__event(events, "turn", e->seat,
                       "Turn %u: %s has no army cards, so the turn is "
                       "only a replenish.",
                       (unsigned)e->turn, seat_name(e->seat));
    if (!ev)
        return NULL;
    cJSON_AddNumberToObject(ev, "turn", e->turn);
    cJSON_AddNumberToObject(ev, "army_cards", e->count);
    return ev;
}

/* The end, with its reason and the score in walls (WA-7, WA-15). */
static cJSON *game_over_event(cJSON *events, const wa_event *e)
{
    unsigned w0 = e->walls[0], w1 = e->walls[1];
    bool no_walls = w0 == 0 || w1 == 0;
    cJSON *ev;
    if (no_walls) {
        int winner = e->seat;
        ev = rp__event(events, "game-over", winner,
                       "%s has no walls left: %s wins, %u walls "
                       "to 0.",
                       seat_name(winner ^ 1), seat_name(winner), e->walls[winner]);
    } else if (e->seat == WA_NONE) {
        ev = rp__event(events, "game-over", -1,
                       "The turn cap (%u turns) is reached with %u "
                       "walls each: a draw.",
                       (unsigned)e->last, w0);
    } else {
        int winner = e->seat;
        ev =
            rp__event(events, "game-over", winner,
                      "The turn cap (%u turns) is reached: %s "
                      "wins with %u walls to %u.",
                      (unsigned)e->last, seat_name(winner), e->walls[winner], e->walls[winner ^ 1]);
    }
    if (!ev)
        return NULL;
    cJSON_AddStringToObject(ev, "reason", no_walls ? "no-walls" : "turn-cap");
    cJSON_AddItemToObject(ev, "winner",
                          e->seat == WA_NONE ? cJSON_CreateString("draw")
                                             : cJSON_CreateNumber(e->seat));
    int walls[2] = {(int)w0, (int)w1};
    cJSON_AddItemToObject(ev, "walls", cJSON_CreateIntArray(walls, 2));
    return ev;
}

/* One record as a JSON event appended to events; NULL when memory runs out. */
static cJSON *event_json(cJSON *events, const wa_event *e)
{
    switch (e->kind) {
    case EV_FLIP:
        return flip_event(events, e);
    case EV_FALLS:
        return falls_event(events, e);
    case EV_LEAVE:
        return leave_event(events, e);
    case EV_COUNTER:
        return counter_event(events, e);
    case EV_CAPTURE:
        return capture_event(events, e);
    case EV_TURN_END:
        return turn_end_event(events, e);
    case EV_RESHUFFLE: {
        cJSON *ev = rp__event(events, "reshuffle", -1,
                              "The main deck is empty: the discard pile "
                              "(%u card%s) is shuffled into a new main deck.",
                              (unsigned)e->count, e->count == 1 ? "" : "s");
        rp__event_reveal(ev);
        if (ev)
            cJSON_AddNumberToObject(ev, "count", e->count);
        return ev;
    }
    case EV_IDLE: {
        cJSON *ev = rp__event(events, "idle", -1,
                              "Neither player has army cards and no card is "
                              "left to draw: turns %u to %u pass without play.",
                              (unsigned)e->turn, (unsigned)e->last);
        if (ev) {
            cJSON_AddNumberToObject(ev, "from", e->turn);
            cJSON_AddNumberToObject(ev, "to", e->last);
        }
        return ev;
    }
    case EV_TURN:
        return turn_event(events, e);
    case EV_GAME_OVER:
        return game_over_event(events, e);
    case EV_REPLENISH:
    case EV_SHIELD:
    case EV_NO_REPLENISH:
        return replenish_event(events, e);
    default: /* every kind has a case above */
        rp_assert(e->kind <= EV_GAME_OVER);
        return NULL;
    }
}

/* What `action` did, told to `viewer` (the same for every viewer in this game). */
static cJSON *wa_events_json(const void *before, rp_action action, int viewer)
{
    (void)viewer;
    wa_state s;
    memcpy(&s, before, sizeof s);
    wa_log log;
    log.n = 0;
    play(&s, action, &log);
    cJSON *events = cJSON_CreateArray();
    for (int i = 0; i < log.n && events; i++) {
        if (!event_json(events, &log.ev[i])) {
            cJSON_Delete(events);
            return NULL;
        }
    }
    return events;
}

/* ------------------------------------------------------------------------------------------
 * Render: the view as text for a terminal — the table (the defender above, the attacker
 * below, the stacks), then what happens next and what to type. */

/* [7H], red for hearts and diamonds when colour is on. */
static void render_card(FILE *out, int card, bool color)
{
    char c[4];
    wa_card_to_text(card, c);
    bool red = card % 4 == 1 || card % 4 == 2;
    if (color)
        fprintf(out, "%s[%s]\x1b[0m", red ? "\x1b[31;1m" : "\x1b[1m", c);
    else
        fprintf(out, "[%s]", c);
}

/* One player's line of counts, shields and walls (face-down walls as [##]). */
static void render_player(const wa_state *s, int pl, int viewer, FILE *out, bool color)
{
    const wa_player *p = &s->p[pl];
    fprintf(out, "%s%s%s: %d wall%s, %d shield%s, army deck %d card%s (face down)\n", seat_name(pl),
            pl == viewer ? " (you)" : "", pl == s->attacker ? ", attacking" : "", p->nwalls,
            p->nwalls == 1 ? "" : "s", p->nshields, p->nshields == 1 ? "" : "s", p->narmy,
            p->narmy == 1 ? "" : "s");
    fprintf(out, "  shields:");
    if (p->nshields == 0)
        fprintf(out, " none");
    for (int i = 0; i < p->nshields; i++) {
        fprintf(out, " %d:", i + 1);
        render_card(out, p->shields[i], color);
    }
    fprintf(out, "\n  walls:  ");
    for (int i = 0; i < p->nwalls; i++) {
        fprintf(out, " %d:", i + 1);
        if (s->faceup & BIT(p->walls[i]))
            render_card(out, p->walls[i], color);
        else
            fprintf(out, "[##]");
    }
    fprintf(out, "\n");
}

/* The end: who won, why, and the score in walls. */
static void render_result(const wa_state *s, int viewer, FILE *out)
{
    int w0 = s->p[0].nwalls, w1 = s->p[1].nwalls;
    if (s->winner == WA_DRAW) {
        fprintf(out, "Game over at the turn cap: a draw, %d walls each.\n", w0);
        return;
    }
    int winner = s->winner;
    fprintf(out, "Game over: %s%s wins, %d walls to %d (%s).\n", seat_name(winner),
            winner == viewer ? " (you)" : "", winner ? w1 : w0, winner ? w0 : w1,
            w0 == 0 || w1 == 0 ? "no walls left" : "more walls at the turn cap");
}

/* What happens next and which words to type, addressed to the viewer. */
static void render_prompt(const wa_state *s, int viewer, FILE *out, bool color)
{
    int d = s->attacker ^ 1;
    if (s->phase == WA_OVER) {
        render_result(s, viewer, out);
    } else if (s->phase == WA_ATTACK) {
        if (s->attacker != viewer) {
            fprintf(out, "Waiting for %s to choose an attack.\n", seat_name(s->attacker));
            return;
        }
        fprintf(out,
                "Your move: %s%s. Then the top card of your army deck (unseen) is "
                "flipped onto it.\n",
                s->p[d].nshields ? "'attack shield N' (shields first)" : "'attack wall N'",
                s->nstacks ? ", or 'stack N' to add to a stack" : "");
    } else {
        fprintf(out, "Stack %u (total %d) did not beat its target ", (unsigned)s->pending + 1,
                s->stack_total[s->pending]);
        render_card(out, s->stack_target[s->pending], color);
        fprintf(out, ". ");
        if (d != viewer)
            fprintf(out, "Waiting for %s to leave it or counter-attack.\n", seat_name(d));
        else if (s->p[d].narmy)
            fprintf(out,
                    "Your answer: 'leave' or 'counter' (your top army card, unseen, must "
                    "beat %d).\n",
                    s->stack_total[s->pending]);
        else
            fprintf(out, "Your answer: 'leave' (no army cards to counter with).\n");
    }
}

/* The whole table as `viewer` (a seat or the spectator) sees it: exactly the view's content. */
static void wa_render(const void *st, int viewer, FILE *out, bool color)
{
    const wa_state *s = st;
    fprintf(out,
            "Walls and Armies, turn %u of %u. Main deck %d cards. Discard pile:", (unsigned)s->turn,
            (unsigned)s->cap, s->ndeck);
    if (!s->discard)
        fprintf(out, " empty");
    for (uint64_t m = s->discard; m; m &= m - 1) {
        fprintf(out, " ");
        render_card(out, __builtin_ctzll(m), color);
    }
    fprintf(out, "\n");
    if (s->nrevealed) {
        fprintf(out, "Turned up by the last move:");
        for (int i = 0; i < s->nrevealed; i++) {
            fprintf(out, " ");
            render_card(out, s->revealed[i], color);
        }
        fprintf(out, "\n");
    }
    render_player(s, s->attacker ^ 1, viewer, out, color);
    render_player(s, s->attacker, viewer, out, color);
    if (s->nstacks)
        fprintf(out, "Stacks of %s:\n", seat_name(s->attacker));
    for (int k = 0; k < s->nstacks; k++) {
        fprintf(out, "  stack %d: ", k + 1);
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1)
            render_card(out, __builtin_ctzll(m), color);
        fprintf(out, " = %d against ", s->stack_total[k]);
        render_card(out, s->stack_target[k], color);
        int at = target_position(s, s->stack_target[k]);
        fprintf(out, " (%s %d, value %d)%s\n", at < 0 ? "shield" : "wall", at < 0 ? -at : at,
                card_value(s->stack_target[k]), s->pending == k ? "  <- the defender decides" : "");
    }
    render_prompt(s, viewer, out, color);
}

/* ------------------------------------------------------------------------------------------
 * Evaluate: public counts only. Walls decide the game (WA-7); shields delay attacks on walls
 * and army cards are attacks or counters to come. */
static double wa_evaluate(const void *st, int player)
{
    const wa_state *s = st;
    if (s->phase == WA_OVER)
        return s->winner == WA_DRAW ? 0.5 : s->winner == player ? 1.0 : 0.0;
    const wa_player *me = &s->p[player], *op = &s->p[player ^ 1];
    double x = 0.25 * (me->nwalls - op->nwalls) + 0.15 * (me->nshields - op->nshields) +
               0.04 * (me->narmy - op->narmy);
    if (me->nwalls <= 2)
        x -= 0.3;
    if (op->nwalls <= 2)
        x += 0.3;
    double y = 0.5 + 0.5 * x / (1.0 + (x < 0 ? -x : x));
    return y < 0.0 ? 0.0 : y > 1.0 ? 1.0 : y;
}

/* ------------------------------------------------------------------------------------------
 * Observation tensor (for learning agents; layout in docs/python.md). The public table (WA-8)
 * as floats from one seat's side: "mine" and "theirs" by that seat. Per card (id = rank_index
 * * 4 + suit, see walls_and_armies.h) where it is and at which position of its list, per wall
 * slot whether a card lies there face down, then the counts and the turn. */
enum {
    WA_CH_MY_WALL,    /* a face-up wall of mine */
    WA_CH_THEIR_WALL, /* a face-up wall of theirs */
    WA_CH_MY_SHIELD,
    WA_CH_THEIR_SHIELD,
    WA_CH_DISCARD,
    WA_CH_STACK,    /* in one of the attacker's stacks */
    WA_CH_TARGET,   /* the target of a stack */
    WA_CH_REVEALED, /* turned up by the last action */
    WA_CH_POSITION, /* (wall or shield number) / 52 */
    WA_CH_STACK_NO, /* (stack number) / 52, in or targeted by that stack */
    WA_CH_ORDER,    /* (place in the revealed list) / 20 */
    WA_CHANNELS
};
enum {
    WA_OBS_CARDS = 0,                                     /* [52][11] */
    WA_OBS_SLOTS = WA_OBS_CARDS + WA_CARDS * WA_CHANNELS, /* [2][2][52] */
    WA_OBS_COUNTS = WA_OBS_SLOTS + 2 * 2 * WA_CARDS,      /* [10] */
    WA_OBS_TURN = WA_OBS_COUNTS + 10,                     /* [15] */
    WA_OBS_SIZE = WA_OBS_TURN + 15
};

/* One field a line: */
/* clang-format off */
static const rp_obs_field wa_obs_fields[] = {
    {"cards", WA_OBS_CARDS, {WA_CARDS, WA_CHANNELS, 1},
     "per card (2C 2D 2H 2S 3C ... AS), 1 where it is: a face-up wall of yours, of the "
     "opponent's, your shield, the opponent's shield, in the discard pile, in a stack, the "
     "target of a stack, turned up by the last action; then its wall or shield number / 52, "
     "the number of the stack it is in or is the target of / 52, its place among the cards the "
     "last action turned up / 20 (0 where none applies)"},
    {"wall_slots", WA_OBS_SLOTS, {2, 2, WA_CARDS},
     "yours then the opponent's: 1 where wall number n + 1 exists, then 1 where it lies face "
     "down"},
    {"counts", WA_OBS_COUNTS, {10, 1, 1},
     "walls / 52, shields / 16, army cards / 52 (yours then the opponent's), cards in the main "
     "deck / 52, stacks / 52, cards turned up by the last action / 20, the stack the defender "
     "decides on (number / 52, 0: none)"},
    {"turn", WA_OBS_TURN, {15, 1, 1},
     "one-hot: you attack, the opponent attacks; one-hot phase: attack, defend, over; one-hot "
     "to act: you, the opponent, nobody; one-hot winner: you, the opponent, a draw, nobody yet; "
     "the game ended with no walls left; turn / 100; turn cap / 1000"},
};
/* clang-format on */

static void wa_obs_list(float *cards, const uint8_t *list, int n, int channel, float scale)
{
    for (int i = 0; i < n; i++) {
        cards[list[i] * WA_CHANNELS + channel] = 1.0f;
        cards[list[i] * WA_CHANNELS + WA_CH_POSITION] = (float)(i + 1) / scale;
    }
}

static void wa_observation_tensor(const void *st, int player, float *out)
{
    const wa_state *s = st;
    float *cards = out + WA_OBS_CARDS;
    memset(out, 0, WA_OBS_SIZE * sizeof *out);
    for (int side = 0; side < 2; side++) {
        const wa_player *p = &s->p[side == 0 ? player : player ^ 1];
        float *slots = out + WA_OBS_SLOTS + side * 2 * WA_CARDS;
        for (int i = 0; i < p->nwalls; i++) {
            slots[i] = 1.0f;
            if (!(s->faceup & BIT(p->walls[i]))) {
                slots[WA_CARDS + i] = 1.0f;
                continue;
            }
            cards[p->walls[i] * WA_CHANNELS + WA_CH_MY_WALL + side] = 1.0f;
            cards[p->walls[i] * WA_CHANNELS + WA_CH_POSITION] = (float)(i + 1) / WA_CARDS;
        }
        wa_obs_list(cards, p->shields, p->nshields, WA_CH_MY_SHIELD + side, WA_CARDS);
        out[WA_OBS_COUNTS + side] = (float)p->nwalls / WA_CARDS;
        out[WA_OBS_COUNTS + 2 + side] = (float)p->nshields / WA_MAX_SHIELDS;
        out[WA_OBS_COUNTS + 4 + side] = (float)p->narmy / WA_CARDS;
    }
    for (uint64_t m = s->discard; m; m &= m - 1)
        cards[__builtin_ctzll(m) * WA_CHANNELS + WA_CH_DISCARD] = 1.0f;
    for (int k = 0; k < s->nstacks; k++) {
        const float number = (float)(k + 1) / WA_CARDS;
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1) {
            cards[__builtin_ctzll(m) * WA_CHANNELS + WA_CH_STACK] = 1.0f;
            cards[__builtin_ctzll(m) * WA_CHANNELS + WA_CH_STACK_NO] = number;
        }
        cards[s->stack_target[k] * WA_CHANNELS + WA_CH_TARGET] = 1.0f;
        cards[s->stack_target[k] * WA_CHANNELS + WA_CH_STACK_NO] = number;
    }
    for (int i = 0; i < s->nrevealed; i++) {
        cards[s->revealed[i] * WA_CHANNELS + WA_CH_REVEALED] = 1.0f;
        cards[s->revealed[i] * WA_CHANNELS + WA_CH_ORDER] = (float)(i + 1) / WA_MAX_REVEALED;
    }
    out[WA_OBS_COUNTS + 6] = (float)s->ndeck / WA_CARDS;
    out[WA_OBS_COUNTS + 7] = (float)s->nstacks / WA_CARDS;
    out[WA_OBS_COUNTS + 8] = (float)s->nrevealed / WA_MAX_REVEALED;
    out[WA_OBS_COUNTS + 9] = s->pending == WA_NONE ? 0.0f : (float)(s->pending + 1) / WA_CARDS;
    float *turn = out + WA_OBS_TURN;
    const int to_act = wa_current_player(s);
    turn[s->attacker == player ? 0 : 1] = 1.0f;
    turn[2 + s->phase] = 1.0f;
    turn[5 + (to_act == RP_TERMINAL ? 2 : to_act == player ? 0 : 1)] = 1.0f;
    turn[8 + (s->winner == WA_NONE   ? 3
              : s->winner == WA_DRAW ? 2
              : s->winner == player  ? 0
                                     : 1)] = 1.0f;
    turn[12] = s->phase == WA_OVER && (s->p[0].nwalls == 0 || s->p[1].nwalls == 0);
    turn[13] = (float)s->turn / 100.0f;
    turn[14] = (float)s->cap / 1000.0f;
}

const rp_game rp_walls_and_armies = {
    .id = "walls-and-armies",
    .title = "Walls and Armies",
    .summary = "two players, one deck: flip armies against shields and walls, counter, capture",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = WA_NUM_ACTIONS,
    .state_size = sizeof(wa_state),
    .options = OPTIONS,
    .num_options = (int)(sizeof OPTIONS / sizeof OPTIONS[0]),
    .seat_names = SEAT_NAMES,
    .bench_options = NULL, /* the default game is the workload */
    .ai_levels = {"iters=300", "iters=1500", "iters=5000"},
    .paired_seats = false, /* the deal, not the seat, decides who starts (WA-2) */
    .tool_turn_cap = 0,    /* the rules' own turn cap ends every game (WA-7) */
    .init = wa_init,
    .num_players = wa_num_players,
    .current_player = wa_current_player,
    .turn_number = wa_turn_number,
    .legal_actions = wa_legal_actions,
    .apply = wa_apply,
    .returns = wa_returns,
    .action_to_text = wa_action_to_text,
    .action_from_text = wa_action_from_text,
    .state_to_text = wa_state_to_text,
    .state_from_text = wa_state_from_text,
    .state_ok = wa_state_ok,
    .config_of = wa_config_of,
    .view_json = wa_view_json,
    .determinize = wa_determinize,
    .render = wa_render,
    .action_json = wa_action_json,
    .events_json = wa_events_json,
    .describe = NULL, /* no numbers come from options or data beyond the cap */
    .explain_illegal = wa_explain_illegal,
    .moves_summary = NULL, /* the legal list is short */
    .secret_names = wa_secret_names,
    .evaluate = wa_evaluate,
    .observe_action = NULL, /* every action is seen by everyone */
    .observation_size = WA_OBS_SIZE,
    .observation_fields = wa_obs_fields,
    .num_observation_fields = (int)(sizeof wa_obs_fields / sizeof wa_obs_fields[0]),
    .observation_tensor = wa_observation_tensor,
};
