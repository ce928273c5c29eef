/* text.c — Walls and Armies as text: cards and actions in notation, why a move is not legal,
 * the full-state notation on the toolkit (src/core/notation.h) and the invariants every state
 * keeps (state_ok). Formats: docs/games/walls-and-armies.md. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "core/text.h"
#include "games/walls-and-armies/internal.h"

/* ------------------------------------------------------------------------------------------
 * Cards as text */

static const char RANKS[13][3] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};
static const char SUITS[4] = {'C', 'D', 'H', 'S'};

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

/* The sum of the values of a set of cards (a stack). */
static int set_total(uint64_t set)
{
    int total = 0;
    for (uint64_t m = set; m; m &= m - 1)
        total += wa_card_value(__builtin_ctzll(m));
    return total;
}

/* ------------------------------------------------------------------------------------------
 * Actions as text, and why one is not legal */

/* The move words of the action table (internal.h); positions are 1-based as drawn. */
int wa_action_to_text(const void *st, rp_action a, char *buf, size_t size)
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
int wa_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
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
    const char *opp = wa_seat_name(s->attacker ^ 1);
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
    if (!(s->targeted & WA_BIT(card)))
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
int wa_explain_illegal(const void *st, rp_action a, char *buf, size_t size)
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
                   wa_seat_name(s->attacker), (unsigned)s->pending + 1);
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

const char *const wa_phase_names[3] = {"attack", "defend", "over"};
/* The rulebook names no seats; these are the names every Ramparts two-player game uses. */
const char *const wa_seat_names[2] = {"Blue", "Red"};
static const char *const WINNERS[4] = {"0", "1", "draw", "-"}; /* index 3: WA_NONE */
static const char *const WALLS_KEY[2] = {"walls0", "walls1"};
static const char *const SHIELDS_KEY[2] = {"shields0", "shields1"};
static const char *const ARMY_KEY[2] = {"army0", "army1"};

void wa_put_card(rp_text *t, int card)
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

/* A list in its order; '*' after the cards in `faceup`, '~' after those in `seen`. */
static void put_list(rp_text *t, const uint8_t *list, int n, uint64_t faceup, uint64_t seen)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        rp__put_sep(t, &count, ',');
        wa_put_card(t, list[i]);
        if (list[i] < WA_CARDS && (faceup & WA_BIT(list[i])))
            rp__text_ch(t, '*');
        else if (list[i] < WA_CARDS && (seen & WA_BIT(list[i])))
            rp__text_ch(t, '~');
    }
    rp__put_list_end(t, count);
}

/* A pile stored top last, written top first. */
static void put_pile(rp_text *t, const uint8_t *pile, int n)
{
    int count = 0;
    for (int i = n - 1; i >= 0; i--) {
        rp__put_sep(t, &count, ',');
        wa_put_card(t, pile[i]);
    }
    rp__put_list_end(t, count);
}

/* A set of cards in card order. */
static void put_set(rp_text *t, uint64_t set, char sep)
{
    int count = 0;
    for (uint64_t m = set & WA_ALL_CARDS; m; m &= m - 1) {
        rp__put_sep(t, &count, sep);
        wa_put_card(t, __builtin_ctzll(m));
    }
    rp__put_list_end(t, count);
}

/* The referee's one-line notation (format above); RP_ENOSPACE if buf is too small. */
int wa_state_to_text(const void *st, char *buf, size_t size)
{
    const wa_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, WA_NOTATION_TAG);
    rp__put_key(&t, "turn");
    rp__put_uint(&t, s->turn);
    rp__put_key(&t, "cap");
    rp__put_uint(&t, s->cap);
    rp__put_key(&t, "attacker");
    rp__put_uint(&t, s->attacker);
    rp__put_key(&t, "phase");
    rp__text_str(&t, s->phase <= WA_OVER ? wa_phase_names[s->phase] : "?");
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
        put_list(&t, p->walls, fit(p->nwalls, WA_CARDS), s->faceup, s->seen);
        rp__put_key(&t, SHIELDS_KEY[pl]);
        put_list(&t, p->shields, fit(p->nshields, WA_MAX_SHIELDS), 0, 0);
        rp__put_key(&t, ARMY_KEY[pl]);
        put_pile(&t, p->army, fit(p->narmy, WA_CARDS));
    }
    rp__put_key(&t, "stacks");
    int count = 0;
    for (int k = 0; k < fit(s->nstacks, WA_CARDS); k++) {
        rp__put_sep(&t, &count, ',');
        wa_put_card(&t, s->stack_target[k]);
        rp__text_ch(&t, ':');
        put_set(&t, s->stack_cards[k], '+');
    }
    rp__put_list_end(&t, count);
    rp__put_key(&t, "revealed");
    put_list(&t, s->revealed, fit(s->nrevealed, WA_MAX_REVEALED), 0, 0);
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

/* The field `key`: a list of at most max cards into list[] in text order. With faceup and
 * seen, a card may carry '*' (a face-up wall) or '~' (a face-down wall both players have
 * seen), recorded there. */
static int read_list(rp_reader *r, const char *key, uint8_t *list, int max, uint8_t *n,
                     uint64_t *faceup, uint64_t *seen)
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
        bool known = seen && item.len > 1 && item.p[item.len - 1] == '~';
        if (up || known)
            item.len--;
        if (*n >= max)
            return rp__read_fail(r, key, "more than %d cards", max);
        int card = read_card(r, key, item);
        if (card < 0)
            return card;
        list[(*n)++] = (uint8_t)card;
        if (up)
            *faceup |= WA_BIT(card);
        if (known)
            *seen |= WA_BIT(card);
    }
    return RP_OK;
}

/* The field `key`: a pile written top first, stored top last. */
static int read_pile(rp_reader *r, const char *key, uint8_t *pile, uint8_t *n)
{
    uint8_t top_first[WA_CARDS];
    int rc = read_list(r, key, top_first, WA_CARDS, n, NULL, NULL);
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
        *set |= WA_BIT(card);
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
        (rc = rp__span_choice(r, "phase", v, wa_phase_names, 3, &phase)) < 0 ||
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
    s->to_act = (int8_t)wa_seat_to_act(s);
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
        s->targeted |= WA_BIT(card);
        s->stack_total[k] = (uint8_t)set_total(s->stack_cards[k]);
    }
    return RP_OK;
}

/* One player's walls (face-up ones marked), shields and army deck. */
static int read_player(rp_reader *r, wa_state *s, int pl)
{
    wa_player *p = &s->p[pl];
    int rc;
    if ((rc = read_list(r, WALLS_KEY[pl], p->walls, WA_CARDS, &p->nwalls, &s->faceup, &s->seen)) <
            0 ||
        (rc = read_list(r, SHIELDS_KEY[pl], p->shields, WA_MAX_SHIELDS, &p->nshields, NULL, NULL)) <
            0)
        return rc;
    return read_pile(r, ARMY_KEY[pl], p->army, &p->narmy);
}

/* Parse into a local state, check every invariant, insist on the canonical spelling; st
 * changes only on success. */
int wa_state_from_text(void *st, const char *text, rp_error *err)
{
    wa_state s;
    memset(&s, 0, sizeof s);
    rp_reader r;
    rp_span v;
    int rc;
    if ((rc = rp__read_begin(&r, text, WA_NOTATION_TAG, err)) < 0 ||
        (rc = read_header(&r, &s)) < 0 || (rc = read_pile(&r, "deck", s.deck, &s.ndeck)) < 0 ||
        (rc = rp__read_field(&r, "discard", &v)) < 0 ||
        (rc = read_set(&r, "discard", v, ',', &s.discard)) < 0)
        return rc;
    if ((rc = read_player(&r, &s, 0)) < 0 || (rc = read_player(&r, &s, 1)) < 0 ||
        (rc = read_stacks(&r, &s)) < 0 ||
        (rc = read_list(&r, "revealed", s.revealed, WA_MAX_REVEALED, &s.nrevealed, NULL, NULL)) <
            0 ||
        (rc = rp__read_rng(&r, &s.rng)) < 0 || (rc = rp__read_end(&r)) < 0)
        return rc;
    if (wa_state_ok(&s, err) < 0)
        return RP_EPARSE;
    if ((rc = rp__read_canonical(&r, wa_state_to_text, &s)) < 0)
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
        if (*seen & WA_BIT(list[i])) {
            char c[4];
            wa_card_to_text(list[i], c);
            return rp_fail(err, RP_EINVAL, "%s: card %s appears twice in the state", where, c);
        }
        *seen |= WA_BIT(list[i]);
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
            if (!wa_is_face(p->shields[i]))
                return rp_fail(err, RP_EINVAL, "%s: only face cards (J Q K A) are shields",
                               SHIELDS_KEY[pl]);
    }
    for (int k = 0; k < s->nstacks; k++)
        if ((rc = count_set("stacks", s->stack_cards[k], &seen, err)) < 0)
            return rc;
    /* the deck is its lowest cards (WA-P8): all 52 but under the deck option */
    if ((seen & (seen + 1)) != 0 || __builtin_popcountll(seen) < WA_MIN_DECK) {
        const uint64_t full = seen & (seen + 1) ? WA_ALL_CARDS : (seen << 1 | 1) & WA_ALL_CARDS;
        char c[4];
        wa_card_to_text(__builtin_ctzll(~seen & full), c);
        return rp_fail(err, RP_EINVAL,
                       "card %s is missing (the deck's cards, all 52 or its lowest %d or more "
                       "under the deck option, must be somewhere)",
                       c, WA_MIN_DECK);
    }
    for (int i = 0; i < s->nrevealed; i++)
        if (s->revealed[i] >= WA_CARDS)
            return rp_fail(err, RP_EINVAL, "revealed: %u is not a card", (unsigned)s->revealed[i]);
    const wa_player *a = &s->p[s->attacker], *d = &s->p[s->attacker ^ 1];
    for (int i = 0; i < a->nwalls; i++)
        if (s->faceup & WA_BIT(a->walls[i]))
            return rp_fail(err, RP_EINVAL, "%s: the attacker's walls are all face down (WA-5)",
                           WALLS_KEY[s->attacker]);
    uint64_t defender_walls = 0;
    for (int i = 0; i < d->nwalls; i++)
        defender_walls |= WA_BIT(d->walls[i]);
    if (s->faceup & ~defender_walls)
        return rp_fail(err, RP_EINVAL, "faceup: only walls are turned face up");
    uint64_t walls = defender_walls;
    for (int i = 0; i < a->nwalls; i++)
        walls |= WA_BIT(a->walls[i]);
    if (s->seen & ~walls)
        return rp_fail(err, RP_EINVAL, "seen: only walls are marked seen ('~')");
    if (s->seen & s->faceup)
        return rp_fail(err, RP_EINVAL, "a wall is face up ('*') or seen face down ('~'), not both");
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
        bool shield = wa_list_find(d->shields, d->nshields, target) >= 0;
        bool wall = wa_list_find(d->walls, d->nwalls, target) >= 0;
        if (!shield && !wall)
            return rp_fail(err, RP_EINVAL,
                           "stacks: target %s is not a wall or shield of the "
                           "defender",
                           c);
        if (wall && (d->nshields > 0 || !(s->faceup & WA_BIT(target))))
            return rp_fail(err, RP_EINVAL,
                           "stacks: a wall target must be face up and the "
                           "defender must have no shields (WA-3)");
        if (targets & WA_BIT(target))
            return rp_fail(err, RP_EINVAL, "stacks: two stacks against %s (WA-9)", c);
        targets |= WA_BIT(target);
        if (!s->stack_cards[k])
            return rp_fail(err, RP_EINVAL, "stacks: the stack against %s has no card", c);
        int total = set_total(s->stack_cards[k]);
        if (total != s->stack_total[k])
            return rp_fail(err, RP_EINVAL, "stacks: the stack against %s totals %d, not %u", c,
                           total, (unsigned)s->stack_total[k]);
        if (total > wa_card_value(target))
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
    if (s->to_act != wa_seat_to_act(s))
        return rp_fail(err, RP_EINVAL, "to_act: %d is not the seat that attacker and phase give",
                       s->to_act);
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

int wa_state_ok(const void *st, rp_error *err)
{
    const wa_state *s = st;
    int rc;
    if ((rc = check_ranges(s, err)) < 0 || (rc = check_unused_slots(s, err)) < 0 ||
        (rc = check_cards(s, err)) < 0 || (rc = check_stacks(s, err)) < 0 ||
        (rc = check_phase(s, err)) < 0)
        return rc;
    return RP_OK;
}
