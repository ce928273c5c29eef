/* walls_and_armies.c — Walls and Armies (Christer Kaitila, #1GAM January), two players, one
 * 52-card deck: the whole game on the rp_game interface — setup, attacks and stacks,
 * counter-attacks, replenishing, reshuffles, notation, views, determinizing, render, evaluate.
 * Rules: /shared/seeds/walls-and-armies.txt, rulings WA-1..WA-15, project rulings WA-P* in
 * docs/rules/walls-and-armies.md. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/walls_and_armies.h"
#include "core/text.h"

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

static const char RANKS[13][3] = {"2", "3", "4", "5", "6", "7", "8", "9", "10",
                                  "J", "Q", "K", "A"};
static const char SUITS[4] = {'C', 'D', 'H', 'S'};

#define BIT(c) (UINT64_C(1) << (c))

/* The rulings' values: 2..10 as printed, J Q K A = 11 12 13 14. */
static inline int card_value(int card)
{
    return card / 4 + 2;
}

/* Face cards (J, Q, K, A) become shields wherever a flip would deal cards. */
static inline int is_face(int card)
{
    return card >= WA_FIRST_FACE;
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
static int draw_main(wa_state *s)
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
    }
    uint8_t card = s->deck[--s->ndeck];
    s->deck[s->ndeck] = 0;
    return card;
}

/* Deal up to n cards from the main deck onto a list (walls or army deck). */
static void deal_onto(wa_state *s, uint8_t *list, uint8_t *len, int n)
{
    for (int i = 0; i < n; i++) {
        int card = draw_main(s);
        if (card < 0)
            return;
        list[(*len)++] = (uint8_t)card;
    }
}

/* ------------------------------------------------------------------------------------------
 * Turn flow */

static void end_turn(wa_state *s);

/* WA-3, WA-5: the attacker chooses the next attack while army cards remain (the card itself
 * is flipped only once the choice is made, WA-P1); with none left the turn ends. */
static void next_attack(wa_state *s)
{
    if (s->p[s->attacker].narmy == 0) {
        end_turn(s);
        return;
    }
    s->phase = WA_ATTACK;
    s->pending = WA_NONE;
}

/* WA-5, WA-11: one flip; a face card is a shield and nothing more, a number card is discarded
 * (WA-10: before the deal, so a reshuffle may bring it back) and deals that many. */
static void replenish(wa_state *s, int pl)
{
    wa_player *p = &s->p[pl];
    int card = draw_main(s);
    if (card < 0)
        return;
    if (is_face(card)) {
        p->shields[p->nshields++] = (uint8_t)card;
        return;
    }
    s->discard |= BIT(card);
    deal_onto(s, p->army, &p->narmy, card_value(card));
}

/* WA-7, WA-15: after the replenish of the last turn, more walls wins, equal walls draw. */
static void end_by_cap(wa_state *s)
{
    int w0 = s->p[0].nwalls, w1 = s->p[1].nwalls;
    s->winner = w0 > w1 ? 0 : w1 > w0 ? 1 : WA_DRAW;
    s->phase = WA_OVER;
    s->pending = WA_NONE;
}

/* WA-5: unresolved stacks are discarded and face-up walls turned down; the attacker
 * replenishes; the cap is checked (WA-15); the other player's turn begins. A turn that starts
 * with an empty army deck is only a replenish and still counts (WA-12), hence the loop. */
static void end_turn(wa_state *s)
{
    for (;;) {
        for (int k = 0; k < s->nstacks; k++) {
            s->discard |= s->stack_cards[k];
            s->stack_cards[k] = 0;
            s->stack_target[k] = 0;
            s->stack_total[k] = 0;
        }
        s->nstacks = 0;
        s->targeted = 0;
        s->faceup = 0;
        replenish(s, s->attacker);
        if (s->turn >= s->cap) {
            end_by_cap(s);
            return;
        }
        s->turn++;
        s->attacker ^= 1;
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
static void stack_wins(wa_state *s, int k)
{
    wa_player *d = &s->p[s->attacker ^ 1];
    int target = s->stack_target[k];
    int i = list_find(d->shields, d->nshields, target);
    if (i >= 0) {
        list_remove(d->shields, &d->nshields, i);
    } else {
        list_remove(d->walls, &d->nwalls, list_find(d->walls, d->nwalls, target));
        s->faceup &= ~BIT(target);
    }
    s->discard |= BIT(target) | s->stack_cards[k];
    remove_stack(s, k);
    if (d->nwalls == 0) {
        s->phase = WA_OVER;
        s->winner = s->attacker;
        s->pending = WA_NONE;
        return;
    }
    next_attack(s);
}

/* WA-P1: now that the attacker has chosen stack k, flip the top of their army deck onto it
 * and resolve: a win at once, or the defender's choice (WA-4, WA-13: asked after every flip
 * that does not win, the last one included). */
static void flip_onto(wa_state *s, int k)
{
    wa_player *a = &s->p[s->attacker];
    int card = a->army[--a->narmy];
    a->army[a->narmy] = 0;
    s->stack_cards[k] |= BIT(card);
    s->stack_total[k] = (uint8_t)(s->stack_total[k] + card_value(card));
    if (s->stack_total[k] > card_value(s->stack_target[k])) {
        stack_wins(s, k);
        return;
    }
    s->phase = WA_DEFEND;
    s->pending = (uint8_t)k;
}

/* WA-3: a new stack against an opponent card; a face-down wall is revealed; then the flip. */
static void open_attack(wa_state *s, int target, int is_wall)
{
    int k = s->nstacks++;
    s->stack_target[k] = (uint8_t)target;
    s->stack_cards[k] = 0;
    s->stack_total[k] = 0;
    s->targeted |= BIT(target);
    if (is_wall)
        s->faceup |= BIT(target);
    flip_onto(s, k);
}

/* WA-4: the counter is the defender's top army card. Greater than the stack: the counter is
 * discarded and each stack card becomes its own face-down wall of the defender (WA-14), in
 * card order at the end of the walls (WA-P2). Otherwise counter and stack are discarded.
 * Either way the target stays, face up. */
static void counter_attack(wa_state *s)
{
    wa_player *d = &s->p[s->attacker ^ 1];
    int k = s->pending;
    int counter = d->army[--d->narmy];
    d->army[d->narmy] = 0;
    s->discard |= BIT(counter);
    if (card_value(counter) > s->stack_total[k]) {
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1)
            d->walls[d->nwalls++] = (uint8_t)__builtin_ctzll(m);
    } else {
        s->discard |= s->stack_cards[k];
    }
    remove_stack(s, k);
    next_attack(s);
}

/* ------------------------------------------------------------------------------------------
 * Setup */

/* WA-1: flip for one type (walls or army) until a number card says how many to deal. */
static void setup_flip(wa_state *s, int pl, int walls)
{
    wa_player *p = &s->p[pl];
    for (;;) {
        int card = draw_main(s);
        if (card < 0)
            return;
        if (is_face(card)) {
            p->shields[p->nshields++] = (uint8_t)card;
            continue;
        }
        s->discard |= BIT(card);
        if (walls)
            deal_onto(s, p->walls, &p->nwalls, card_value(card));
        else
            deal_onto(s, p->army, &p->narmy, card_value(card));
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
        setup_flip(s, pl, 1);
        setup_flip(s, pl, 0);
    }
    s->attacker = (uint8_t)first_player(s);
    /* Not reachable from a full deck (the second player's walls are dealt from >= 14 cards),
     * but a player without walls has lost (WA-7). */
    if (s->p[0].nwalls == 0 || s->p[1].nwalls == 0) {
        s->phase = WA_OVER;
        s->winner = s->p[0].nwalls == s->p[1].nwalls ? WA_DRAW : s->p[0].nwalls ? 0 : 1;
        return;
    }
    next_attack(s);
}

/* ------------------------------------------------------------------------------------------
 * The interface */

static const rp_option_spec OPTIONS[] = {
    {"turn-cap", RP_OPT_INT, 1, WA_MAX_CAP, WA_DEFAULT_CAP, NULL,
     "turns before the game is scored on walls (WA-7)", NULL},
};

/* Shuffle a fresh deck with the seed and deal (WA-1, WA-2). */
static int wa_init(void *st, const rp_config *cfg, rp_error *err)
{
    if (cfg->players != 2)
        return rp_fail(err, RP_EINVAL, "walls-and-armies is for exactly 2 players, not %d",
                       cfg->players);
    int64_t cap = rp_config_int(&rp_walls_and_armies, cfg, "turn-cap");
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

/* Play a legal action; all chance (flips, reshuffles) happens in here, from the state rng. */
static void wa_apply(void *st, rp_action action)
{
    wa_state *s = st;
    const wa_player *d = &s->p[s->attacker ^ 1];
    if (action < WA_ACT_SHIELD)
        open_attack(s, d->walls[action - WA_ACT_WALL], 1);
    else if (action < WA_ACT_STACK)
        open_attack(s, d->shields[action - WA_ACT_SHIELD], 0);
    else if (action < WA_ACT_LEAVE)
        flip_onto(s, (int)(action - WA_ACT_STACK));
    else if (action == WA_ACT_LEAVE)
        next_attack(s);
    else
        counter_attack(s);
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
 * Action notation */

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

/* Inverse of wa_action_to_text, forgiving about case and spacing; ranges are checked here,
 * legality by the caller (rp_parse_move). */
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
        int is_wall = strcmp(w[1], "wall") == 0;
        if (!is_wall && strcmp(w[1], "shield") != 0)
            return rp_fail(err, RP_EPARSE, "attack what? say 'attack wall N' or "
                           "'attack shield N', not 'attack %s'", w[1]);
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
                   "'stack N', 'leave' and 'counter'", text);
}

/* ------------------------------------------------------------------------------------------
 * Full-state notation, one line of key=value fields in a fixed order:
 *   turn=T/CAP attacker=A phase=attack|defend|over pending=N|-
 *   winner=0|1|draw|- deck=TOP,..,BOTTOM discard=CARDS walls0=CARD[*],.. shields0=..
 *   army0=TOP,.. walls1=.. shields1=.. army1=.. stacks=TARGET:CARD+CARD,..|- rng=HEX/HEX
 * '-' is an empty list, '*' marks a face-up wall. */

/* Cards are most of the text: appended directly, not through printf. */
static void put_card(rp_text *t, int card)
{
    char c[4];
    wa_card_to_text(card, c);
    size_t n = strlen(c);
    if (t->len + n >= t->size) {
        t->overflow = 1;
        return;
    }
    memcpy(t->buf + t->len, c, n + 1);
    t->len += n;
}

/* A list from its top (the last entry) down, or '-'. */
static void put_top_first(rp_text *t, const uint8_t *list, int n)
{
    if (n == 0)
        rp__text_put(t, "-");
    for (int i = n - 1; i >= 0; i--) {
        put_card(t, list[i]);
        if (i > 0)
            rp__text_put(t, ",");
    }
}

/* A set of cards in card order, or '-'. */
static void put_set(rp_text *t, uint64_t set, char sep)
{
    if (set == 0)
        rp__text_put(t, "-");
    for (uint64_t m = set; m; m &= m - 1) {
        put_card(t, __builtin_ctzll(m));
        if (m & (m - 1))
            rp__text_put(t, "%c", sep);
    }
}

/* walls, shields and army of one player; '*' marks the face-up walls. */
static void put_player(rp_text *t, const wa_state *s, int pl)
{
    const wa_player *p = &s->p[pl];
    rp__text_put(t, " walls%d=", pl);
    if (p->nwalls == 0)
        rp__text_put(t, "-");
    for (int i = 0; i < p->nwalls; i++) {
        put_card(t, p->walls[i]);
        rp__text_put(t, "%s%s", (s->faceup & BIT(p->walls[i])) ? "*" : "", i + 1 < p->nwalls ? "," : "");
    }
    rp__text_put(t, " shields%d=", pl);
    if (p->nshields == 0)
        rp__text_put(t, "-");
    for (int i = 0; i < p->nshields; i++) {
        put_card(t, p->shields[i]);
        if (i + 1 < p->nshields)
            rp__text_put(t, ",");
    }
    rp__text_put(t, " army%d=", pl);
    put_top_first(t, p->army, p->narmy);
}

static const char *const PHASES[3] = {"attack", "defend", "over"};

/* The referee's one-line notation (see the format above); RP_ENOSPACE if buf is too small. */
static int wa_state_to_text(const void *st, char *buf, size_t size)
{
    const wa_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__text_put(&t, "turn=%u/%u attacker=%u phase=%s", (unsigned)s->turn, (unsigned)s->cap,
        (unsigned)s->attacker, PHASES[s->phase]);
    if (s->pending == WA_NONE)
        rp__text_put(&t, " pending=-");
    else
        rp__text_put(&t, " pending=%u", (unsigned)s->pending + 1);
    if (s->winner == WA_NONE)
        rp__text_put(&t, " winner=-");
    else if (s->winner == WA_DRAW)
        rp__text_put(&t, " winner=draw");
    else
        rp__text_put(&t, " winner=%u", (unsigned)s->winner);
    rp__text_put(&t, " deck=");
    put_top_first(&t, s->deck, s->ndeck);
    rp__text_put(&t, " discard=");
    put_set(&t, s->discard, ',');
    put_player(&t, s, 0);
    put_player(&t, s, 1);
    rp__text_put(&t, " stacks=");
    if (s->nstacks == 0)
        rp__text_put(&t, "-");
    for (int k = 0; k < s->nstacks; k++) {
        put_card(&t, s->stack_target[k]);
        rp__text_put(&t, ":");
        put_set(&t, s->stack_cards[k], '+');
        if (k + 1 < s->nstacks)
            rp__text_put(&t, ",");
    }
    rp__text_put(&t, " rng=%016llx/%016llx", (unsigned long long)s->rng.state,
        (unsigned long long)s->rng.inc);
    if (t.overflow) {
        if (size > 0)
            buf[0] = '\0';
        return RP_ENOSPACE;
    }
    return (int)t.len;
}

/* Parsing: a cursor over the text, the cards seen so far (each exactly once), the error. */
typedef struct parser {
    const char *p;
    uint64_t seen;
    rp_error *err;
} parser;

#define FIELD_MAX 512

/* Read "key=value" at the cursor into val, and the single space after it (if any). */
static int field(parser *ps, const char *key, char val[FIELD_MAX])
{
    size_t klen = strlen(key);
    if (strncmp(ps->p, key, klen) != 0 || ps->p[klen] != '=')
        return rp_fail(ps->err, RP_EPARSE, "expected field '%s=' at '%.20s'", key, ps->p);
    const char *v = ps->p + klen + 1;
    size_t len = 0;
    while (v[len] && v[len] != ' ') {
        if (len + 1 >= FIELD_MAX)
            return rp_fail(ps->err, RP_EPARSE, "field '%s' is too long", key);
        val[len] = v[len];
        len++;
    }
    val[len] = '\0';
    if (len == 0)
        return rp_fail(ps->err, RP_EPARSE, "field '%s' is empty (write '-' for none)", key);
    ps->p = v + len + (v[len] == ' ');
    return RP_OK;
}

/* One card of the text (len characters), not seen before anywhere in the state. */
static int take_card(parser *ps, const char *text, size_t len, const char *where)
{
    int card = wa_card_from_text(text, len);
    if (card < 0)
        return rp_fail(ps->err, RP_EPARSE, "%s: '%.*s' is not a card (e.g. 7H, 10D, QS)", where,
                       (int)(len < 8 ? len : 8), text);
    if (ps->seen & BIT(card))
        return rp_fail(ps->err, RP_EPARSE, "%s: card %.*s appears twice in the state", where,
                       (int)len, text);
    ps->seen |= BIT(card);
    return card;
}

/* A comma list of cards, '-' for none, into list[] in text order. With up != NULL a card may
 * carry '*' (face up), recorded in *up. */
static int parse_list(parser *ps, const char *val, const char *where, uint8_t *list, int max,
                      int *n, uint64_t *up)
{
    *n = 0;
    if (strcmp(val, "-") == 0)
        return RP_OK;
    const char *c = val;
    for (;;) {
        size_t len = strcspn(c, ",");
        int star = up && len > 0 && c[len - 1] == '*';
        if (*n >= max)
            return rp_fail(ps->err, RP_EPARSE, "%s: more than %d cards", where, max);
        int card = take_card(ps, c, len - (size_t)star, where);
        if (card < 0)
            return card;
        list[(*n)++] = (uint8_t)card;
        if (star)
            *up |= BIT(card);
        if (c[len] == '\0')
            return RP_OK;
        c += len + 1;
    }
}

/* A list written top first into a pile stored top last. */
static int parse_pile(parser *ps, const char *key, uint8_t *pile, uint8_t *count)
{
    char val[FIELD_MAX];
    uint8_t tmp[WA_CARDS];
    int n;
    if (field(ps, key, val) < 0 || parse_list(ps, val, key, tmp, WA_CARDS, &n, NULL) < 0)
        return RP_EPARSE;
    for (int i = 0; i < n; i++)
        pile[i] = tmp[n - 1 - i];
    *count = (uint8_t)n;
    return RP_OK;
}

/* A non-negative decimal number up to max, the whole string. */
static int parse_uint(const char *text, long max, long *out)
{
    long v = 0;
    if (!*text)
        return -1;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        v = v * 10 + (*c - '0');
        if (v > max)
            return -1;
    }
    *out = v;
    return 0;
}

/* 1..16 lower-case hex digits, the whole of text[0..len). */
static int parse_hex64(const char *text, size_t len, uint64_t *out)
{
    if (len == 0 || len > 16)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        int c = text[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* turn, attacker, phase, pending, winner: the small header fields. */
static int parse_header(parser *ps, wa_state *s)
{
    char val[FIELD_MAX];
    long turn, cap, v;
    if (field(ps, "turn", val) < 0)
        return RP_EPARSE;
    char *slash = strchr(val, '/');
    if (!slash)
        return rp_fail(ps->err, RP_EPARSE, "turn: write TURN/CAP, e.g. turn=3/200");
    *slash = '\0';
    if (parse_uint(slash + 1, WA_MAX_CAP, &cap) < 0 || cap < 1)
        return rp_fail(ps->err, RP_EPARSE, "turn: the cap must be 1..%d", WA_MAX_CAP);
    if (parse_uint(val, cap, &turn) < 0 || turn < 1)
        return rp_fail(ps->err, RP_EPARSE, "turn: the turn must be 1..cap (%ld)", cap);
    s->turn = (uint16_t)turn;
    s->cap = (uint16_t)cap;
    if (field(ps, "attacker", val) < 0)
        return RP_EPARSE;
    if (parse_uint(val, 1, &v) < 0)
        return rp_fail(ps->err, RP_EPARSE, "attacker must be 0 or 1, not '%s'", val);
    s->attacker = (uint8_t)v;
    if (field(ps, "phase", val) < 0)
        return RP_EPARSE;
    s->phase = WA_NONE;
    for (int i = 0; i < 3; i++)
        if (strcmp(val, PHASES[i]) == 0)
            s->phase = (uint8_t)i;
    if (s->phase == WA_NONE)
        return rp_fail(ps->err, RP_EPARSE, "phase must be attack, defend or over, not '%s'",
                       val);
    if (field(ps, "pending", val) < 0)
        return RP_EPARSE;
    s->pending = WA_NONE;
    if (strcmp(val, "-") != 0) {
        if (parse_uint(val, WA_CARDS, &v) < 0 || v < 1)
            return rp_fail(ps->err, RP_EPARSE, "pending must be a stack number or '-'");
        s->pending = (uint8_t)(v - 1);
    }
    if (field(ps, "winner", val) < 0)
        return RP_EPARSE;
    if (strcmp(val, "-") == 0)
        s->winner = WA_NONE;
    else if (strcmp(val, "draw") == 0)
        s->winner = WA_DRAW;
    else if (parse_uint(val, 1, &v) == 0)
        s->winner = (uint8_t)v;
    else
        return rp_fail(ps->err, RP_EPARSE, "winner must be 0, 1, draw or '-', not '%s'", val);
    return RP_OK;
}

/* walls, shields and army of one player, each card new to the state. */
static int parse_player(parser *ps, wa_state *s, int pl)
{
    char key[16], val[FIELD_MAX];
    wa_player *p = &s->p[pl];
    int n;
    snprintf(key, sizeof key, "walls%d", pl);
    if (field(ps, key, val) < 0 ||
        parse_list(ps, val, key, p->walls, WA_CARDS, &n, &s->faceup) < 0)
        return RP_EPARSE;
    p->nwalls = (uint8_t)n;
    snprintf(key, sizeof key, "shields%d", pl);
    if (field(ps, key, val) < 0 ||
        parse_list(ps, val, key, p->shields, WA_MAX_SHIELDS, &n, NULL) < 0)
        return RP_EPARSE;
    p->nshields = (uint8_t)n;
    for (int i = 0; i < n; i++)
        if (!is_face(p->shields[i]))
            return rp_fail(ps->err, RP_EPARSE, "%s: only face cards (J Q K A) are shields",
                           key);
    snprintf(key, sizeof key, "army%d", pl);
    return parse_pile(ps, key, p->army, &p->narmy);
}

/* Stacks: TARGET:CARD+CARD,... The target must be a card of the defender that the attacker
 * may attack (WA-3: a shield while any remain, else a revealed wall), one stack per target
 * (WA-9), and the stack must not already exceed it (it would have won at once). */
static int parse_stacks(parser *ps, wa_state *s)
{
    char val[FIELD_MAX];
    if (field(ps, "stacks", val) < 0)
        return RP_EPARSE;
    if (strcmp(val, "-") == 0)
        return RP_OK;
    const wa_player *d = &s->p[s->attacker ^ 1];
    const char *c = val;
    for (;;) {
        size_t len = strcspn(c, ":,");
        if (c[len] != ':')
            return rp_fail(ps->err, RP_EPARSE, "stacks: write TARGET:CARD+CARD, e.g. QS:7H+2C");
        int target = wa_card_from_text(c, len);
        if (target < 0)
            return rp_fail(ps->err, RP_EPARSE, "stacks: target '%.*s' is not a card",
                           (int)(len < 8 ? len : 8), c);
        int is_shield = list_find(d->shields, d->nshields, target) >= 0;
        int is_wall = list_find(d->walls, d->nwalls, target) >= 0;
        if (!is_shield && !is_wall)
            return rp_fail(ps->err, RP_EPARSE,
                           "stacks: target %.*s is not a wall or shield of the defender",
                           (int)len, c);
        if (is_wall && (d->nshields > 0 || !(s->faceup & BIT(target))))
            return rp_fail(ps->err, RP_EPARSE, "stacks: a wall target must be face up and the "
                           "defender must have no shields (WA-3)");
        if (s->targeted & BIT(target))
            return rp_fail(ps->err, RP_EPARSE, "stacks: two stacks against one card (WA-9)");
        if (s->nstacks >= WA_CARDS)
            return rp_fail(ps->err, RP_EPARSE, "stacks: too many");
        int k = s->nstacks++;
        s->targeted |= BIT(target);
        s->stack_target[k] = (uint8_t)target;
        c += len + 1;
        for (;;) {
            size_t clen = strcspn(c, "+,");
            int card = take_card(ps, c, clen, "stacks");
            if (card < 0)
                return card;
            s->stack_cards[k] |= BIT(card);
            s->stack_total[k] = (uint8_t)(s->stack_total[k] + card_value(card));
            c += clen;
            if (*c != '+')
                break;
            c++;
        }
        if (s->stack_total[k] > card_value(target))
            return rp_fail(ps->err, RP_EPARSE, "stacks: a stack above its target would have "
                           "won at once (WA-3)");
        if (*c == '\0')
            return RP_OK;
        c++;
    }
}

/* The state's generator, so that future reshuffles are reproduced exactly. */
static int parse_rng(parser *ps, wa_state *s)
{
    char val[FIELD_MAX];
    if (field(ps, "rng", val) < 0)
        return RP_EPARSE;
    size_t a = strcspn(val, "/");
    if (val[a] != '/' || parse_hex64(val, a, &s->rng.state) < 0 ||
        parse_hex64(val + a + 1, strlen(val + a + 1), &s->rng.inc) < 0 || !(s->rng.inc & 1))
        return rp_fail(ps->err, RP_EPARSE, "rng: write STATE/INC in lower-case hex, INC odd");
    return RP_OK;
}

/* How a finished game must look: the loser of WA-7 lost their last wall as the defender, or
 * the cap was reached and walls decide (WA-15). */
static int check_over(const wa_state *s, rp_error *err)
{
    int w0 = s->p[0].nwalls, w1 = s->p[1].nwalls;
    if (s->winner == WA_NONE)
        return rp_fail(err, RP_EPARSE, "winner: a finished game needs 0, 1 or draw");
    if (s->pending != WA_NONE || s->nstacks)
        return rp_fail(err, RP_EPARSE, "phase over: no pending stack and no stacks");
    if (w0 == 0 || w1 == 0) {
        int loser = s->attacker ^ 1;
        if (s->p[loser].nwalls != 0 || s->p[s->attacker].nwalls == 0 || s->winner != s->attacker)
            return rp_fail(err, RP_EPARSE, "winner: only the defender can run out of walls, "
                           "and then the attacker wins (WA-7)");
        return RP_OK;
    }
    int by_walls = w0 > w1 ? 0 : w1 > w0 ? 1 : WA_DRAW;
    if (s->turn != s->cap || s->winner != by_walls || s->faceup)
        return rp_fail(err, RP_EPARSE, "winner: with walls on both sides the game ends only at "
                       "the turn cap, won by more walls (WA-7)");
    return RP_OK;
}

/* Everything that must hold between the fields of a parsed state. */
static int check_state(const wa_state *s, uint64_t seen, rp_error *err)
{
    if (seen != WA_ALL_CARDS) {
        char c[4];
        wa_card_to_text(__builtin_ctzll(~seen & WA_ALL_CARDS), c);
        return rp_fail(err, RP_EPARSE, "card %s is missing (all 52 cards must be somewhere)", c);
    }
    for (int i = 0; i < s->p[s->attacker].nwalls; i++)
        if (s->faceup & BIT(s->p[s->attacker].walls[i]))
            return rp_fail(err, RP_EPARSE, "walls%u: the attacker's walls are all face down "
                           "(WA-5)", (unsigned)s->attacker);
    if (s->phase == WA_OVER)
        return check_over(s, err);
    if (s->winner != WA_NONE)
        return rp_fail(err, RP_EPARSE, "winner: the game is not over");
    if (s->p[0].nwalls == 0 || s->p[1].nwalls == 0)
        return rp_fail(err, RP_EPARSE, "a player without walls has lost (WA-7): phase over");
    if (s->phase == WA_ATTACK && s->pending != WA_NONE)
        return rp_fail(err, RP_EPARSE, "phase attack: no stack is pending (pending=-)");
    if (s->phase == WA_ATTACK && s->p[s->attacker].narmy == 0)
        return rp_fail(err, RP_EPARSE, "phase attack: the attacker needs an army card to flip "
                       "(with none the turn has ended, WA-5)");
    if (s->phase == WA_DEFEND && (s->pending == WA_NONE || s->pending >= s->nstacks))
        return rp_fail(err, RP_EPARSE, "phase defend: pending must name one of the stacks");
    return RP_OK;
}

/* Parse into a local state and validate everything; st changes only on success. */
static int wa_state_from_text(void *st, const char *text, rp_error *err)
{
    wa_state s;
    memset(&s, 0, sizeof s);
    parser ps = {text, 0, err};
    if (!text)
        return rp_fail(err, RP_EINVAL, "no state text");
    char val[FIELD_MAX];
    int n;
    if (parse_header(&ps, &s) < 0 || parse_pile(&ps, "deck", s.deck, &s.ndeck) < 0)
        return RP_EPARSE;
    if (field(&ps, "discard", val) < 0)
        return RP_EPARSE;
    uint8_t tmp[WA_CARDS];
    if (parse_list(&ps, val, "discard", tmp, WA_CARDS, &n, NULL) < 0)
        return RP_EPARSE;
    for (int i = 0; i < n; i++)
        s.discard |= BIT(tmp[i]);
    if (parse_player(&ps, &s, 0) < 0 || parse_player(&ps, &s, 1) < 0 ||
        parse_stacks(&ps, &s) < 0 || parse_rng(&ps, &s) < 0)
        return RP_EPARSE;
    if (*ps.p != '\0')
        return rp_fail(err, RP_EPARSE, "unexpected text after rng: '%.20s'", ps.p);
    if (check_state(&s, ps.seen, err) < 0)
        return RP_EPARSE;
    memcpy(st, &s, sizeof s);
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Views (WA-8): face-down walls and every army deck are hidden from both players, the main
 * deck's order too (so the attacker's next card is unknown to all until the attack is chosen,
 * WA-P1); face-up walls, shields, stacks, counts and the discard pile are public. The same
 * for both seats, apart from who is asking. */

/* A card as its notation string. */
static cJSON *card_json(int card)
{
    char c[4];
    wa_card_to_text(card, c);
    return cJSON_CreateString(c);
}

/* A set of cards as an array in card order (the discard pile and stacks have no order). */
static cJSON *set_json(uint64_t set)
{
    cJSON *arr = cJSON_CreateArray();
    for (uint64_t m = set; m; m &= m - 1)
        cJSON_AddItemToArray(arr, card_json(__builtin_ctzll(m)));
    return arr;
}

/* One player's table: walls (null when face down), shields, the size of the army deck. */
static cJSON *player_json(const wa_state *s, int pl)
{
    const wa_player *p = &s->p[pl];
    cJSON *o = cJSON_CreateObject();
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

/* The public table (WA-8) for `player`; identical for any two states nobody can tell apart. */
static cJSON *wa_view_json(const void *st, int player)
{
    const wa_state *s = st;
    cJSON *v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "game", "walls-and-armies");
    cJSON_AddNumberToObject(v, "player", player);
    cJSON_AddNumberToObject(v, "turn", s->turn);
    cJSON_AddNumberToObject(v, "turn_cap", s->cap);
    cJSON_AddNumberToObject(v, "attacker", s->attacker);
    cJSON_AddStringToObject(v, "phase", PHASES[s->phase]);
    cJSON_AddNumberToObject(v, "to_act", wa_current_player(s));
    if (s->pending == WA_NONE)
        cJSON_AddNullToObject(v, "pending_stack");
    else
        cJSON_AddNumberToObject(v, "pending_stack", s->pending + 1);
    if (s->winner == WA_NONE)
        cJSON_AddNullToObject(v, "winner");
    else if (s->winner == WA_DRAW)
        cJSON_AddStringToObject(v, "winner", "draw");
    else
        cJSON_AddNumberToObject(v, "winner", s->winner);
    cJSON_AddNumberToObject(v, "main_deck", s->ndeck);
    cJSON_AddItemToObject(v, "discard", set_json(s->discard));
    cJSON *players = cJSON_AddArrayToObject(v, "players");
    for (int pl = 0; pl < 2; pl++)
        cJSON_AddItemToArray(players, player_json(s, pl));
    cJSON *stacks = cJSON_AddArrayToObject(v, "stacks");
    for (int k = 0; k < s->nstacks; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "target", card_json(s->stack_target[k]));
        int at = target_position(s, s->stack_target[k]);
        cJSON_AddStringToObject(o, "target_kind", at < 0 ? "shield" : "wall");
        cJSON_AddNumberToObject(o, "target_number", (at < 0 ? -at : at));
        cJSON_AddItemToObject(o, "cards", set_json(s->stack_cards[k]));
        cJSON_AddNumberToObject(o, "total", s->stack_total[k]);
        cJSON_AddItemToArray(stacks, o);
    }
    return v;
}

/* Deal every hidden card (face-down walls, army decks, the main deck) at random over the
 * hidden places, and give the state a fresh rng: all consistent with the public view (WA-8).
 * The pool is built from the public cards' complement in card order, never from where the
 * hidden cards lie, so the result depends only on the view and rng. */
static void wa_determinize(void *st, int player, rp_rng *rng)
{
    (void)player; /* nobody sees more than the public view, owners included (WA-8) */
    wa_state *s = st;
    uint8_t *slots[WA_CARDS];
    uint8_t pool[WA_CARDS];
    uint64_t shown = s->discard | s->faceup;
    int n = 0;
    for (int k = 0; k < s->nstacks; k++)
        shown |= s->stack_cards[k];
    for (int pl = 0; pl < 2; pl++) {
        wa_player *p = &s->p[pl];
        for (int i = 0; i < p->nshields; i++)
            shown |= BIT(p->shields[i]);
        for (int i = 0; i < p->nwalls; i++)
            if (!(s->faceup & BIT(p->walls[i])))
                slots[n++] = &p->walls[i];
        for (int i = 0; i < p->narmy; i++)
            slots[n++] = &p->army[i];
    }
    for (int i = 0; i < s->ndeck; i++)
        slots[n++] = &s->deck[i];
    int m = 0;
    for (uint64_t h = WA_ALL_CARDS & ~shown; h; h &= h - 1)
        pool[m++] = (uint8_t)__builtin_ctzll(h);
    if (m != n) /* not a consistent state; leave it rather than corrupt it */
        return;
    rp_rng_shuffle_u8(rng, pool, n);
    for (int i = 0; i < n; i++)
        *slots[i] = pool[i];
    uint64_t seed = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, seed, rp_rng_next(rng));
}

/* ------------------------------------------------------------------------------------------
 * Render: the public table as `player` sees it, for a terminal. */

/* [7H], red for hearts and diamonds when colour is on. */
static void render_card(FILE *out, int card, bool color)
{
    char c[4];
    wa_card_to_text(card, c);
    int red = card % 4 == 1 || card % 4 == 2;
    if (color)
        fprintf(out, "%s[%s]\x1b[0m", red ? "\x1b[31;1m" : "\x1b[1m", c);
    else
        fprintf(out, "[%s]", c);
}

/* One player's line of counts, shields and walls (face-down walls as [##]). */
static void render_player(const wa_state *s, int pl, int viewer, FILE *out, bool color)
{
    const wa_player *p = &s->p[pl];
    fprintf(out, "Player %d%s%s: %d wall%s, %d shield%s, army deck %d card%s (face down)\n", pl,
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

/* What happens next and which words to type, addressed to the viewer. */
static void render_prompt(const wa_state *s, int viewer, FILE *out, bool color)
{
    int d = s->attacker ^ 1;
    if (s->phase == WA_OVER) {
        if (s->winner == WA_DRAW)
            fprintf(out, "Game over: a draw.\n");
        else
            fprintf(out, "Game over: player %u wins%s.\n", (unsigned)s->winner,
                    s->winner == viewer ? " (you)" : "");
    } else if (s->phase == WA_ATTACK) {
        if (s->attacker != viewer) {
            fprintf(out, "Waiting for player %u to choose an attack.\n", (unsigned)s->attacker);
            return;
        }
        fprintf(out, "Your move: %s%s. Then the top card of your army deck (unseen) is "
                     "flipped onto it.\n",
                s->p[d].nshields ? "'attack shield N' (shields first)" : "'attack wall N'",
                s->nstacks ? ", or 'stack N' to add to a stack" : "");
    } else {
        fprintf(out, "Stack %u (total %d) did not beat its target ", (unsigned)s->pending + 1,
                s->stack_total[s->pending]);
        render_card(out, s->stack_target[s->pending], color);
        fprintf(out, ". ");
        if (d != viewer)
            fprintf(out, "Waiting for player %d to leave it or counter-attack.\n", d);
        else if (s->p[d].narmy)
            fprintf(out, "Your answer: 'leave' or 'counter' (your top army card, unseen, must "
                         "beat %d).\n", s->stack_total[s->pending]);
        else
            fprintf(out, "Your answer: 'leave' (no army cards to counter with).\n");
    }
}

/* The whole table as `player` sees it: defender on top, attacker below, stacks, prompt. */
static void wa_render(const void *st, int player, FILE *out, bool color)
{
    const wa_state *s = st;
    fprintf(out, "Walls and Armies, turn %u of %u. Main deck %d cards. Discard pile:",
            (unsigned)s->turn, (unsigned)s->cap, s->ndeck);
    if (!s->discard)
        fprintf(out, " empty");
    for (uint64_t m = s->discard; m; m &= m - 1) {
        fprintf(out, " ");
        render_card(out, __builtin_ctzll(m), color);
    }
    fprintf(out, "\n");
    render_player(s, s->attacker ^ 1, player, out, color);
    render_player(s, s->attacker, player, out, color);
    if (s->nstacks)
        fprintf(out, "Stacks of player %u:\n", (unsigned)s->attacker);
    for (int k = 0; k < s->nstacks; k++) {
        fprintf(out, "  stack %d: ", k + 1);
        for (uint64_t m = s->stack_cards[k]; m; m &= m - 1)
            render_card(out, __builtin_ctzll(m), color);
        fprintf(out, " = %d against ", s->stack_total[k]);
        render_card(out, s->stack_target[k], color);
        int at = target_position(s, s->stack_target[k]);
        fprintf(out, " (%s %d, value %d)%s\n", at < 0 ? "shield" : "wall", at < 0 ? -at : at,
                card_value(s->stack_target[k]),
                s->pending == k ? "  <- the defender decides" : "");
    }
    render_prompt(s, player, out, color);
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
    .ai_levels = {"iters=300", "iters=1500", "iters=5000"},
    .init = wa_init,
    .num_players = wa_num_players,
    .current_player = wa_current_player,
    .legal_actions = wa_legal_actions,
    .apply = wa_apply,
    .returns = wa_returns,
    .action_to_text = wa_action_to_text,
    .action_from_text = wa_action_from_text,
    .state_to_text = wa_state_to_text,
    .state_from_text = wa_state_from_text,
    .view_json = wa_view_json,
    .determinize = wa_determinize,
    .render = wa_render,
    .evaluate = wa_evaluate,
    .observe_action = NULL,
};
