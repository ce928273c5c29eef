/* text.c — King of Danger as text: moves in notation, the kd1 full-state notation, the
 * invariants every state keeps (state_ok) and why a move is not legal. Formats:
 * docs/games/king-of-danger.md. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "core/text.h"
#include "games/king-of-danger/internal.h"

/* Short codes a person may type for a move (never written): k = King (kd Danger, kw Walls,
 * kc Cannons, kz Wizards), w Walls, c Cannons, z Wizard. */
static const char *const short_names[KD_CARDS] = {
    "kd", "kw", "kc", "kz", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "c1", "c2",
    "c3", "c4", "c5", "c6", "c7", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8"};

const char *const kd_suit_names[3] = {"-", "walls", "cannons"};
const char *const kd_suit_titles[3] = {"not set yet", "Walls", "Cannons"};
/* The seats for people, in seat order. */
const char *const kd_seat_names[KD_MAX_PLAYERS] = {"Blue", "Red", "Green", "Gold", "Purple"};
/* Known voids of a seat in the notation, indexed by its KD_VOID_* bits. */
static const char *const void_names[4] = {"-", "walls", "cannons", "walls+cannons"};

/* A card's name; "?" for an id no card has (only a broken state holds one). */
static const char *card_name(unsigned card)
{
    return card < KD_CARDS ? kd_long_names[card] : "?";
}

/* Card names of a set, ", "-separated, "none" when empty. */
void kd_put_names(rp_text *t, uint32_t mask)
{
    if (!mask)
        rp__text_str(t, "none");
    for (bool first = true; mask; mask &= mask - 1, first = false) {
        if (!first)
            rp__text_str(t, ", ");
        rp__text_str(t, kd_long_names[kd_lowest(mask)]);
    }
}

/* ---- action notation ---- */

/* "walls-3", "king-of-danger", "wizard-5 cannons" (a call only when the action has one). */
int kd_action_to_text(const void *st, rp_action action, char *buf, size_t size)
{
    (void)st;
    const unsigned card = KD_CARD_OF(action), call = KD_CALL_OF(action);
    if (card >= KD_CARDS || call > KD_SUIT_CANNONS)
        return RP_EINVAL;
    const int n = call ? snprintf(buf, size, "%s %s", kd_long_names[card], kd_suit_names[call])
                       : snprintf(buf, size, "%s", kd_long_names[card]);
    return n < 0 || (size_t)n >= size ? RP_ENOSPACE : n;
}

/* The next blank-separated word at *p: its start and length; *p moves past it and blanks. */
static const char *next_word(const char **p, size_t *len)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
    const char *word = *p;
    while (**p && **p != ' ' && **p != '\t' && **p != '\n' && **p != '\r')
        (*p)++;
    *len = (size_t)(*p - word);
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
    return word;
}

/* A word in lower case into low (size bytes); false when it does not fit. */
static bool lower_word(const char *word, size_t len, char *low, size_t size)
{
    if (len == 0 || len >= size)
        return false;
    for (size_t i = 0; i < len; i++)
        low[i] = (char)tolower((unsigned char)word[i]);
    low[len] = '\0';
    return true;
}

/* Card id of a typed name (long name or short code, any case), or -1. */
static int card_from_word(const char *word, size_t len)
{
    char low[24];
    if (!lower_word(word, len, low, sizeof low))
        return -1;
    for (int c = 0; c < KD_CARDS; c++)
        if (strcmp(low, kd_long_names[c]) == 0 || strcmp(low, short_names[c]) == 0)
            return c;
    return -1;
}

/* "walls" / "cannons" (or "w" / "c"), any case: the suit a Wizard names (KD-4), or -1. */
static int call_from_word(const char *word, size_t len)
{
    char low[8];
    if (!lower_word(word, len, low, sizeof low))
        return -1;
    if (strcmp(low, "walls") == 0 || strcmp(low, "w") == 0)
        return KD_SUIT_WALLS;
    if (strcmp(low, "cannons") == 0 || strcmp(low, "c") == 0)
        return KD_SUIT_CANNONS;
    return -1;
}

/* "walls-3", "king-of-danger", "wizard-5 cannons". Typed moves are read leniently — any case,
 * extra blanks, short codes "w3", "kd", "z5 c" — and always written back in the one spelling
 * of action_to_text. A call is required exactly when a Wizard sets the trick suit here (KD-4,
 * KD-P1). */
int kd_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    const kd_state *s = st;
    const char *p = text;
    size_t word_len, call_len;
    const char *word = next_word(&p, &word_len);
    const char *call_word = next_word(&p, &call_len);
    if (word_len == 0)
        return rp_fail(err, RP_EPARSE,
                       "empty move: name a card, e.g. 'walls-3' or 'wizard-5 cannons'");
    const int card = card_from_word(word, word_len);
    if (card < 0)
        return rp_fail(err, RP_EPARSE,
                       "'%.*s' is not a card (cards: king-of-danger, "
                       "king-of-walls, king-of-cannons, king-of-wizards, walls-1..7, "
                       "cannons-1..7, wizard-1..8)",
                       (int)(word_len > 40 ? 40 : word_len), word);
    if (*p)
        return rp_fail(err, RP_EPARSE, "unexpected '%.20s' after the move", p);
    const int call = call_len ? call_from_word(call_word, call_len) : KD_SUIT_NONE;
    if (call < 0)
        return rp_fail(err, RP_EPARSE, "'%.*s' is not a trick suit: call 'walls' or 'cannons'",
                       (int)(call_len > 20 ? 20 : call_len), call_word);
    const bool wizard = (1u << card) & KD_WIZARDS;
    const bool sets_suit = !s->over && s->suit == KD_SUIT_NONE;
    if (call && !wizard)
        return rp_fail(err, RP_EPARSE, "only a Wizard that sets the trick suit names it: play '%s'",
                       kd_long_names[card]);
    if (call && !sets_suit)
        return rp_fail(err, RP_EILLEGAL, "the trick suit is already %s: play '%s' without a call",
                       kd_suit_titles[s->suit], kd_long_names[card]);
    if (!call && wizard && sets_suit)
        return rp_fail(err, RP_EPARSE,
                       "%s sets the trick suit: say '%s walls' or '%s cannons' (KD-4)",
                       kd_long_names[card], kd_long_names[card], kd_long_names[card]);
    *out = (rp_action)card | ((rp_action)call << KD_CALL_SHIFT);
    return RP_OK;
}

/* ---- full-state notation (kd1; format in docs/games/king-of-danger.md) ----
 *
 *   kd1 players=4 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3,3,3 score=0,0,0,0
 *   voids=-,-,-,- hands=<cards>/<cards>/<cards>/<cards> [table=<piles>/<piles>] aside=<cards>
 *   played=<cards> last=- rng=<16 hex>.<16 hex>
 *
 * Sets of cards are written in card-id order; a trick in the order played. */

/* A set of cards by name in id order, '-' when empty. */
static void put_card_set(rp_text *t, uint32_t mask)
{
    int count = 0;
    for (mask &= KD_ALL; mask; mask &= mask - 1) {
        rp__put_sep(t, &count, ',');
        rp__text_str(t, kd_long_names[kd_lowest(mask)]);
    }
    rp__put_list_end(t, count);
}

/* Cards in the order given (a trick). */
static void put_card_list(rp_text *t, const uint8_t *cards, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        rp__put_sep(t, &count, ',');
        rp__text_str(t, card_name(cards[i]));
    }
    rp__put_list_end(t, count);
}

/* Two players: one seat's four piles, each "top+under", "top" or "-". */
static void put_piles(rp_text *t, const kd_state *s, int seat)
{
    int count = 0;
    for (int i = 0; i < KD_PILES; i++) {
        const uint8_t top = s->pile_top[seat][i], under = s->pile_under[seat][i];
        rp__put_sep(t, &count, ',');
        if (top == KD_NONE) {
            rp__text_ch(t, '-');
            continue;
        }
        rp__text_str(t, card_name(top));
        if (under != KD_NONE) {
            rp__text_ch(t, '+');
            rp__text_str(t, card_name(under));
        }
    }
}

/* The per-seat fields of the notation for n seats: castle, score, voids, hands, and with two
 * players the table. */
static void put_seats(rp_text *t, const kd_state *s, int n)
{
    int count = 0;
    rp__put_key(t, "castle");
    for (int p = 0; p < n; p++) {
        rp__put_sep(t, &count, ',');
        rp__put_uint(t, s->castle[p]);
    }
    count = 0;
    rp__put_key(t, "score");
    for (int p = 0; p < n; p++) {
        rp__put_sep(t, &count, ',');
        rp__put_uint(t, s->score[p]);
    }
    count = 0;
    rp__put_key(t, "voids");
    for (int p = 0; p < n; p++) {
        rp__put_sep(t, &count, ',');
        rp__text_str(t, void_names[s->voids[p] & 3]);
    }
    count = 0;
    rp__put_key(t, "hands");
    for (int p = 0; p < n; p++) {
        rp__put_sep(t, &count, '/');
        put_card_set(t, s->hand[p]);
    }
    if (n == 2) {
        count = 0;
        rp__put_key(t, "table");
        for (int p = 0; p < 2; p++) {
            rp__put_sep(t, &count, '/');
            put_piles(t, s, p);
        }
    }
}

/* The last finished trick: "-", or leader:winner (x: set aside):suit:cards. */
static void put_last(rp_text *t, const kd_state *s)
{
    rp__put_key(t, "last");
    if (s->last_len == 0) {
        rp__text_ch(t, '-');
        return;
    }
    rp__put_uint(t, s->last_leader);
    rp__text_ch(t, ':');
    if (s->last_winner == KD_NONE)
        rp__text_ch(t, 'x');
    else
        rp__put_uint(t, s->last_winner);
    rp__text_ch(t, ':');
    rp__text_str(t, kd_suit_names[s->last_suit <= KD_SUIT_CANNONS ? s->last_suit : 0]);
    rp__text_ch(t, ':');
    put_card_list(t, s->last, s->last_len <= KD_MAX_PLAYERS ? s->last_len : 0);
}

/* The referee's notation of the whole state. Defensive about out-of-range values, so that a
 * broken state can still be printed by the debug check that found it. */
/* The short game's field (KD-P6), written only when it is one: deal=PILES+HAND-CARDS. */
static void put_short_game(rp_text *t, const kd_state *s)
{
    if (!s->short_piles && !s->short_hand)
        return;
    rp__put_key(t, "deal");
    rp__put_uint(t, s->short_piles ? s->short_piles - 1u : 0u);
    rp__text_str(t, "+");
    rp__put_uint(t, s->short_hand);
}

int kd_state_to_text(const void *st, char *buf, size_t size)
{
    const kd_state *s = st;
    const int n = s->players <= KD_MAX_PLAYERS ? s->players : KD_MAX_PLAYERS;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, KD_NOTATION_TAG);
    rp__put_key(&t, "players");
    rp__put_uint(&t, s->players);
    rp__put_key(&t, "dealer");
    rp__put_uint(&t, s->dealer);
    put_short_game(&t, s);
    rp__put_key(&t, "hand");
    rp__put_uint(&t, s->hand_number);
    rp__put_key(&t, "leader");
    rp__put_uint(&t, s->leader);
    rp__put_key(&t, "suit");
    rp__text_str(&t, kd_suit_names[s->suit <= KD_SUIT_CANNONS ? s->suit : 0]);
    rp__put_key(&t, "trick");
    put_card_list(&t, s->trick, s->trick_len < KD_MAX_PLAYERS ? s->trick_len : 0);
    put_seats(&t, s, n);
    rp__put_key(&t, "aside");
    put_card_set(&t, s->aside);
    rp__put_key(&t, "played");
    put_card_set(&t, s->played);
    put_last(&t, s);
    rp__put_rng(&t, &s->rng);
    return rp__text_finish(&t);
}

/* A card by its name. */
static int read_card(rp_reader *r, const char *what, rp_span v, int *card)
{
    const int c = rp__span_name(v, kd_long_names, KD_CARDS);
    if (c < 0)
        return rp__read_fail(r, what, "'%.*s' is not a card", (int)(v.len > 20 ? 20 : v.len), v.p);
    *card = c;
    return RP_OK;
}

/* A list of distinct cards ("-" for none), at most max: in order into cards (when not NULL),
 * as a set into *mask. */
static int read_cards(rp_reader *r, const char *what, rp_span v, uint8_t *cards, int max,
                      int *count, uint32_t *mask)
{
    rp_list list;
    rp_span item;
    *count = 0;
    *mask = 0;
    rp__list_begin(&list, v, ',');
    while (rp__list_next(&list, &item)) {
        int card = 0;
        const int rc = read_card(r, what, item, &card);
        if (rc < 0)
            return rc;
        if (*mask & (1u << card))
            return rp__read_fail(r, what, "%s is listed twice", kd_long_names[card]);
        if (*count == max)
            return rp__read_fail(r, what, "more than %d cards", max);
        *mask |= 1u << card;
        if (cards)
            cards[*count] = (uint8_t)card;
        (*count)++;
    }
    return RP_OK;
}

/* Exactly `want` items separated by sep (one per seat, or pile, or part). */
static int read_items(rp_reader *r, const char *what, rp_span v, char sep, int want, rp_span *items)
{
    int k = 0;
    rp_span rest = v, tail;
    for (;;) {
        if (k == want)
            return rp__read_fail(r, what, "more than %d entries separated by '%c'", want, sep);
        if (!rp__span_split(rest, sep, &items[k], &tail)) {
            items[k++] = rest;
            break;
        }
        k++;
        rest = tail;
    }
    if (k != want)
        return rp__read_fail(r, what, "expected %d entries separated by '%c', found %d", want, sep,
                             k);
    return RP_OK;
}

/* The field `key`, a whole number in 0..max. */
static int read_number(rp_reader *r, const char *key, uint64_t max, uint64_t *out)
{
    rp_span v;
    const int rc = rp__read_field(r, key, &v);
    return rc < 0 ? rc : rp__span_uint(r, key, v, 0, max, out);
}

/* One number per seat separated by ','. */
static int read_per_seat(rp_reader *r, const char *key, int n, uint64_t max, uint64_t *out)
{
    rp_span v, items[KD_MAX_PLAYERS];
    int rc = rp__read_field(r, key, &v);
    if (rc == RP_OK)
        rc = read_items(r, key, v, ',', n, items);
    for (int p = 0; rc == RP_OK && p < n; p++)
        rc = rp__span_uint(r, key, items[p], 0, max, &out[p]);
    return rc;
}

/* Two players: one seat's piles, "top+under", "top" or "-", four of them; the up and down
 * masks follow from them. */
static int read_piles(rp_reader *r, kd_state *t, int seat, rp_span v)
{
    rp_span items[KD_PILES], top, under;
    int rc = read_items(r, "table", v, ',', KD_PILES, items);
    for (int i = 0; rc == RP_OK && i < KD_PILES; i++) {
        t->pile_top[seat][i] = t->pile_under[seat][i] = KD_NONE;
        if (rp__span_is(items[i], "-"))
            continue;
        const bool covered = rp__span_split(items[i], '+', &top, &under);
        int card = 0;
        if ((rc = read_card(r, "table", covered ? top : items[i], &card)) < 0)
            return rc;
        t->pile_top[seat][i] = (uint8_t)card;
        t->up[seat] |= 1u << card;
        if (covered) {
            if ((rc = read_card(r, "table", under, &card)) < 0)
                return rc;
            t->pile_under[seat][i] = (uint8_t)card;
            t->down[seat] |= 1u << card;
        }
    }
    return rc;
}

/* last: "-" or "leader:winner:suit:cards" (winner "x" for a trick set aside). */
static int read_last(rp_reader *r, kd_state *t)
{
    rp_span v, parts[4];
    uint64_t leader, winner = KD_NONE;
    uint32_t mask;
    int rc = rp__read_field(r, "last", &v), count, suit;
    if (rc < 0 || rp__span_is(v, "-"))
        return rc;
    if ((rc = read_items(r, "last", v, ':', 4, parts)) < 0 ||
        (rc = rp__span_uint(r, "last", parts[0], 0, UINT8_MAX, &leader)) < 0)
        return rc;
    if (!rp__span_is(parts[1], "x") &&
        (rc = rp__span_uint(r, "last", parts[1], 0, UINT8_MAX - 1, &winner)) < 0)
        return rc;
    if ((rc = rp__span_choice(r, "last", parts[2], kd_suit_names, 3, &suit)) < 0 ||
        (rc = read_cards(r, "last", parts[3], t->last, KD_MAX_PLAYERS, &count, &mask)) < 0)
        return rc;
    if (count == 0)
        return rp__read_fail(r, "last", "a finished trick has cards");
    t->last_leader = (uint8_t)leader;
    t->last_winner = (uint8_t)winner;
    t->last_suit = (uint8_t)suit;
    t->last_len = (uint8_t)count;
    return RP_OK;
}

/* The short game's optional field (KD-P6): deal=PILES+HAND-CARDS; a short game is one hand. */
static int read_short_game(rp_reader *r, kd_state *t)
{
    rp_span v, piles, hand;
    uint64_t x = 0, y = 0;
    int rc = RP_OK;
    if (strncmp(r->p, " deal=", 6) == 0) {
        if ((rc = rp__read_field(r, "deal", &v)) < 0)
            return rc;
        if (!rp__span_split(v, '+', &piles, &hand))
            return rp__read_fail(r, "deal", "write PILES+HAND-CARDS, e.g. 1+1 (KD-P6)");
        if ((rc = rp__span_uint(r, "deal", piles, 0, KD_PILES, &x)) < 0 ||
            (rc = rp__span_uint(r, "deal", hand, 1, 5, &y)) < 0)
            return rc;
        t->short_piles = (uint8_t)(x + 1);
        t->short_hand = (uint8_t)y;
        t->last_hand = 1;
    }
    return rc;
}

/* Read every field of the notation into t: syntax only; state_ok judges the values. */
static int read_fields(rp_reader *r, kd_state *t)
{
    rp_span v, items[KD_MAX_PLAYERS];
    uint64_t x = 0, per_seat[KD_MAX_PLAYERS] = {0};
    int rc, count, k;
    if ((rc = rp__read_field(r, "players", &v)) < 0 ||
        (rc = rp__span_uint(r, "players", v, 2, KD_MAX_PLAYERS, &x)) < 0)
        return rc;
    const int n = t->players = (uint8_t)x;
    if ((rc = read_number(r, "dealer", UINT8_MAX, &x)) < 0)
        return rc;
    t->dealer = (uint8_t)x;
    if ((rc = read_short_game(r, t)) < 0)
        return rc;
    if ((rc = read_number(r, "hand", UINT16_MAX, &x)) < 0)
        return rc;
    t->hand_number = (uint16_t)x;
    if ((rc = read_number(r, "leader", UINT8_MAX, &x)) < 0)
        return rc;
    t->leader = (uint8_t)x;
    if ((rc = rp__read_field(r, "suit", &v)) < 0 ||
        (rc = rp__span_choice(r, "suit", v, kd_suit_names, 3, &k)) < 0)
        return rc;
    t->suit = (uint8_t)k;
    if ((rc = rp__read_field(r, "trick", &v)) < 0 ||
        (rc = read_cards(r, "trick", v, t->trick, n - 1, &count, &t->trick_mask)) < 0)
        return rc;
    t->trick_len = (uint8_t)count;
    if ((rc = read_per_seat(r, "castle", n, UINT8_MAX, per_seat)) < 0)
        return rc;
    for (int p = 0; p < n; p++)
        t->castle[p] = (uint8_t)per_seat[p];
    if ((rc = read_per_seat(r, "score", n, UINT32_MAX, per_seat)) < 0)
        return rc;
    for (int p = 0; p < n; p++)
        t->score[p] = (uint32_t)per_seat[p];
    if ((rc = rp__read_field(r, "voids", &v)) < 0 ||
        (rc = read_items(r, "voids", v, ',', n, items)) < 0)
        return rc;
    for (int p = 0; p < n; p++) {
        if ((rc = rp__span_choice(r, "voids", items[p], void_names, 4, &k)) < 0)
            return rc;
        t->voids[p] = (uint8_t)k;
    }
    if ((rc = rp__read_field(r, "hands", &v)) < 0 ||
        (rc = read_items(r, "hands", v, '/', n, items)) < 0)
        return rc;
    for (int p = 0; p < n; p++)
        if ((rc = read_cards(r, "hands", items[p], NULL, KD_CARDS, &count, &t->hand[p])) < 0)
            return rc;
    if (n == 2) {
        if ((rc = rp__read_field(r, "table", &v)) < 0 ||
            (rc = read_items(r, "table", v, '/', 2, items)) < 0)
            return rc;
        for (int p = 0; p < 2; p++)
            if ((rc = read_piles(r, t, p, items[p])) < 0)
                return rc;
    }
    if ((rc = rp__read_field(r, "aside", &v)) < 0 ||
        (rc = read_cards(r, "aside", v, NULL, KD_CARDS, &count, &t->aside)) < 0)
        return rc;
    if ((rc = rp__read_field(r, "played", &v)) < 0 ||
        (rc = read_cards(r, "played", v, NULL, KD_CARDS, &count, &t->played)) < 0)
        return rc;
    if ((rc = read_last(r, t)) < 0 || (rc = rp__read_rng(r, &t->rng)) < 0)
        return rc;
    return rp__read_end(r);
}

/* ---- invariants (state_ok) ---- */

/* A short game's deal (KD-P6): two players only, one hand. */
static int check_short_game(const kd_state *t, rp_error *err)
{
    if ((t->short_piles == 0) != (t->short_hand == 0) || t->short_piles > KD_PILES + 1 ||
        t->short_hand > 5)
        return rp_fail(err, RP_EINVAL, "deal: piles 0..4 and hand cards 1..5 (KD-P6)");
    if (t->short_piles && t->players != 2)
        return rp_fail(err, RP_EINVAL,
                       "deal: a short deal is for two players (KD-P6); with %d every card is "
                       "dealt into the hands (KD-2)",
                       t->players);
    if (t->last_hand != (t->short_piles ? 1 : 0) || (t->last_hand && t->hand_number != 1))
        return rp_fail(err, RP_EINVAL, "hand: a short game is one hand (KD-P6)");
    return RP_OK;
}

/* Fields in range, unused seats and slots zero, and the derived masks true to the fields they
 * come from (trick_mask, two players' up and down), so equal states are equal bytes. */
static int check_shape(const kd_state *t, rp_error *err)
{
    const int n = t->players;
    if (n < 2 || n > KD_MAX_PLAYERS)
        return rp_fail(err, RP_EINVAL, "players: %d is not in 2..5", n);
    if (t->dealer >= n || t->leader >= n)
        return rp_fail(err, RP_EINVAL, "dealer %d and leader %d must be seats 0..%d", t->dealer,
                       t->leader, n - 1);
    if (t->to_act != kd_seat_after(t, t->leader, t->trick_len))
        return rp_fail(err, RP_EINVAL, "to act: seat %d, but the trick's leader and length say %d",
                       t->to_act, kd_seat_after(t, t->leader, t->trick_len));
    if (t->hand_number < 1)
        return rp_fail(err, RP_EINVAL, "hand: hands are numbered from 1");
    if (t->suit > KD_SUIT_CANNONS || t->trick_len >= n || t->over > 1 ||
        (t->over ? t->winner >= n && !(t->winner == KD_NONE && t->last_hand) : t->winner != 0))
        return rp_fail(err, RP_EINVAL, "suit, trick length or game end out of range");
    const int rc = check_short_game(t, err);
    if (rc < 0)
        return rc;
    if (!(t->rng.inc & 1))
        return rp_fail(err, RP_EINVAL, "rng: the stream increment must be odd");
    for (int p = 0; p < KD_MAX_PLAYERS; p++) {
        if (p < n && (t->castle[p] < KD_CASTLE_MIN || t->castle[p] > KD_CASTLE_MAX))
            return rp_fail(err, RP_EINVAL, "castle: %d for seat %d is outside 1..8 (KD-1)",
                           t->castle[p], p);
        if (p >= n && (t->castle[p] || t->score[p] || t->hand[p] || t->voids[p]))
            return rp_fail(err, RP_EINVAL, "seat %d does not play but has values", p);
        if (t->voids[p] > (KD_VOID_WALLS | KD_VOID_CANNONS) || (t->hand[p] & ~kd_deck(t)))
            return rp_fail(err, RP_EINVAL, "voids or hand of seat %d out of range", p);
    }
    uint32_t trick = 0;
    for (int i = 0; i < KD_MAX_PLAYERS; i++) {
        if (i < t->trick_len ? t->trick[i] >= KD_CARDS : t->trick[i] != 0)
            return rp_fail(err, RP_EINVAL, "trick: card slot %d out of range", i);
        trick |= i < t->trick_len ? 1u << t->trick[i] : 0;
    }
    if (trick != t->trick_mask || kd_popcount(trick) != t->trick_len)
        return rp_fail(err, RP_EINVAL, "trick: the card set does not match the cards played");
    if ((t->aside | t->played) & ~KD_ALL)
        return rp_fail(err, RP_EINVAL, "aside or played holds no card");
    for (int p = 0; p < 2; p++) {
        uint32_t up = 0, down = 0;
        int ups = 0, downs = 0;
        for (int i = 0; i < KD_PILES; i++) {
            const uint8_t top = t->pile_top[p][i], under = t->pile_under[p][i];
            if (n != 2 ? top || under
                       : (top != KD_NONE && (top >= KD_CARDS || i >= kd_piles(t))) ||
                             (under != KD_NONE && (under >= KD_CARDS || top == KD_NONE)))
                return rp_fail(err, RP_EINVAL,
                               "table: pile %d of seat %d is not a card, a "
                               "card on a card, or empty",
                               i, p);
            if (n == 2 && top != KD_NONE) {
                up |= 1u << top;
                ups++;
            }
            if (n == 2 && under != KD_NONE) {
                down |= 1u << under;
                downs++;
            }
        }
        if (up != t->up[p] || down != t->down[p] || kd_popcount(up) != ups ||
            kd_popcount(down) != downs)
            return rp_fail(err, RP_EINVAL, "table: a card of seat %d is listed twice", p);
    }
    return RP_OK;
}

/* Every card in exactly one place (hands, table, trick, aside, played), the cards set aside
 * KD-2 sets aside, and no seat holding more than it was dealt. */
static int check_cards(const kd_state *t, rp_error *err)
{
    const int dealt = kd_hand_cards(t);
    for (int p = 0; p < t->players; p++)
        if (kd_popcount(t->hand[p]) > dealt)
            return rp_fail(err, RP_EINVAL,
                           "hands: seat %d holds %d cards; a hand of %d "
                           "players is dealt %d (KD-2, KD-3)",
                           p, kd_popcount(t->hand[p]), t->players, dealt);
    uint32_t seen = 0;
    uint32_t places[2 * KD_MAX_PLAYERS + 4];
    int k = 0;
    for (int p = 0; p < t->players; p++)
        places[k++] = t->hand[p];
    if (t->players == 2)
        for (int p = 0; p < 2; p++) {
            places[k++] = t->up[p];
            places[k++] = t->down[p];
        }
    places[k++] = t->trick_mask;
    places[k++] = t->aside;
    places[k++] = t->played;
    for (int i = 0; i < k; i++) {
        if (seen & places[i])
            return rp_fail(err, RP_EINVAL, "card %s is in two places",
                           kd_long_names[kd_lowest(seen & places[i])]);
        seen |= places[i];
    }
    const uint32_t deck = kd_deck(t);
    if (seen & ~deck)
        return rp_fail(err, RP_EINVAL, "card %s is not in this short game's deck (KD-P6)",
                       kd_long_names[kd_lowest(seen & ~deck)]);
    if (seen != deck)
        return rp_fail(err, RP_EINVAL,
                       "card %s is missing (every card of the deck must be "
                       "somewhere: all 26, or a short game's, KD-P6)",
                       kd_long_names[kd_lowest(deck & ~seen)]);
    const int aside =
        kd_popcount(deck) - t->players * dealt - (t->players == 2 ? 4 * kd_piles(t) : 0);
    if (kd_popcount(t->aside) != aside)
        return rp_fail(err, RP_EINVAL, "aside: %d players set aside %d cards, not %d (KD-2)",
                       t->players, aside, kd_popcount(t->aside));
    return RP_OK;
}

/* Every seat holds as many cards as the trick position says; *start_count is the count each
 * seat had when the current trick started (0 once every card is out). */
static int check_counts(const kd_state *t, rp_error *err, int *start_count)
{
    const int n = t->players, len = t->trick_len;
    const int r = kd_popcount(kd_cards_left(t, t->leader)) + (len > 0);
    for (int i = 0; i < n; i++) {
        const int seat = kd_seat_after(t, t->leader, i);
        const int want = i < len ? r - 1 : r;
        if (kd_popcount(kd_cards_left(t, seat)) != want)
            return rp_fail(err, RP_EINVAL,
                           "seat %d holds %d cards where the trick position needs %d", seat,
                           kd_popcount(kd_cards_left(t, seat)), want);
    }
    *start_count = r;
    return RP_OK;
}

/* The suit a trick's cards set (KD-4): its first non-King card, `call` for a Wizard. Returns
 * KD_SUIT_NONE for Kings only, and -1 when a Walls/Cannons opener disagrees with `call`. */
static int suit_from_cards(const uint8_t *cards, int len, int call)
{
    for (int i = 0; i < len; i++) {
        const uint32_t bit = 1u << cards[i];
        if (bit & KD_KINGS)
            continue;
        if (bit & KD_WIZARDS)
            return call == KD_SUIT_NONE ? -1 : call;
        const int set = (bit & KD_WALLS) ? KD_SUIT_WALLS : KD_SUIT_CANNONS;
        return set == call ? set : -1;
    }
    return call == KD_SUIT_NONE ? KD_SUIT_NONE : -1;
}

/* The trick's suit (KD-4) and the voids (KD-P2) it proves: *implied gets them per seat. */
static int check_trick(const kd_state *t, rp_error *err, uint8_t *implied)
{
    if (suit_from_cards(t->trick, t->trick_len, t->suit) != t->suit)
        return rp_fail(err, RP_EINVAL, "suit: '%s' does not fit the cards of the trick (KD-4)",
                       kd_suit_names[t->suit]);
    memset(implied, 0, KD_MAX_PLAYERS);
    bool set = false;
    for (int i = 0; i < t->trick_len; i++) {
        const uint32_t bit = 1u << t->trick[i];
        const int seat = kd_seat_after(t, t->leader, i);
        if (set && !(bit & kd_suit_cards[t->suit]))
            implied[seat] |= kd_suit_void_bit[t->suit];
        set = set || !(bit & KD_KINGS);
    }
    for (int p = 0; p < t->players; p++) {
        if ((implied[p] & t->voids[p]) != implied[p])
            return rp_fail(err, RP_EINVAL,
                           "voids: seat %d did not follow %s, so it must be marked void (KD-5)", p,
                           kd_suit_names[t->suit]);
        if (((t->voids[p] & KD_VOID_WALLS) && (t->hand[p] & KD_WALLS)) ||
            ((t->voids[p] & KD_VOID_CANNONS) && (t->hand[p] & KD_CANNONS)))
            return rp_fail(err, RP_EINVAL,
                           "voids: seat %d is marked void in a suit it holds in hand", p);
    }
    return RP_OK;
}

/* The last finished trick of this hand: its suit fits its cards (KD-4) and its winner is the
 * one KD-6 names (nobody for a trick of Kings, KD-7). */
static int check_last(const kd_state *t, rp_error *err)
{
    if (t->last_len == 0) {
        uint8_t zero[KD_MAX_PLAYERS] = {0};
        if (memcmp(t->last, zero, sizeof zero) != 0 || t->last_leader || t->last_suit ||
            t->last_winner)
            return rp_fail(err, RP_EINVAL, "last: values without a last trick");
        return RP_OK;
    }
    uint32_t mask = 0;
    for (int i = 0; i < KD_MAX_PLAYERS; i++) {
        if (i < t->last_len ? t->last[i] >= KD_CARDS : t->last[i] != 0)
            return rp_fail(err, RP_EINVAL, "last: card slot %d out of range", i);
        mask |= i < t->last_len ? 1u << t->last[i] : 0;
    }
    if (t->last_len != t->players || kd_popcount(mask) != t->players)
        return rp_fail(err, RP_EINVAL, "last: a finished trick has %d different cards", t->players);
    if (t->last_leader >= t->players || t->last_suit > KD_SUIT_CANNONS ||
        suit_from_cards(t->last, t->last_len, t->last_suit) != t->last_suit)
        return rp_fail(err, RP_EINVAL,
                       "last: leader or suit does not fit the trick's cards (KD-4)");
    const int should =
        t->last_suit == KD_SUIT_NONE
            ? (int)KD_NONE
            : kd_seat_after(t, t->last_leader,
                            kd_trick_winner_index(t->last, t->last_len, mask, t->last_suit));
    if (t->last_winner != should)
        return rp_fail(err, RP_EINVAL, "last: the winner of that trick is %s (KD-6, KD-7)",
                       should == KD_NONE ? "nobody (set aside)" : kd_seat_names[should]);
    /* At a new hand the last trick is the old hand's, its cards dealt again. */
    if (!t->played)
        return RP_OK;
    const int next = t->last_winner == KD_NONE ? t->last_leader : t->last_winner;
    if ((mask & t->played) != mask || next != t->leader)
        return rp_fail(err, RP_EINVAL,
                       "last: the last trick must be among the played cards "
                       "and its winner must lead now (its leader, for a trick set aside, KD-7)");
    return RP_OK;
}

/* What the hand and game counters imply: scores, the game's end, a fresh hand's shape. */
static int check_progress(const kd_state *t, int start_count, const uint8_t *implied, rp_error *err)
{
    int winner, ending;
    const bool decided = kd_game_decided(t, &winner);
    const bool ends = kd_game_ends(t, &ending);
    if (start_count == 0 && !ends)
        return rp_fail(err, RP_EINVAL,
                       "every card is played but the scores do not end the "
                       "game (KD-9), so a new hand would have been dealt");
    if (start_count > 0 && decided)
        return rp_fail(err, RP_EINVAL,
                       "score: seat %d already won (KD-9), so no further hand is played", winner);
    if (t->over != (start_count == 0) || (t->over && t->winner != ending))
        return rp_fail(err, RP_EINVAL, "the game is over exactly when every card is played");
    const uint32_t done = t->hand_number - (t->over ? 0u : 1u);
    for (int p = 0; p < t->players; p++)
        if (t->score[p] < done || (t->hand_number < UINT16_MAX && t->score[p] > 8u * done))
            return rp_fail(err, RP_EINVAL,
                           "score: %" PRIu32 " for seat %d cannot come from "
                           "%" PRIu32 " finished hands (1 to 8 each)",
                           t->score[p], p, done);
    if ((t->hand_number == 1 && t->played == 0) != (t->last_len == 0))
        return rp_fail(err, RP_EINVAL,
                       "last: there is a last trick exactly when a trick has been finished");
    if (t->played)
        return RP_OK;
    if (t->leader != kd_seat_after(t, t->dealer, 1))
        return rp_fail(err, RP_EINVAL, "leader: the first trick is led left of the dealer");
    if (memcmp(t->voids, implied, KD_MAX_PLAYERS) != 0)
        return rp_fail(err, RP_EINVAL,
                       "voids: before any trick of a hand is finished only the "
                       "current trick can show a void");
    if (t->hand_number == 1)
        for (int p = 0; p < t->players; p++)
            if (t->castle[p] != KD_CASTLE_START)
                return rp_fail(err, RP_EINVAL,
                               "castle: every castle is 3 before the first "
                               "trick of the game (KD-1)");
    return RP_OK;
}

/* Every invariant of a state: the checks a loaded notation must pass, and that every apply
 * keeps (asserted in debug builds). */
int kd_state_ok(const void *st, rp_error *err)
{
    const kd_state *t = st;
    int start_count = 0, rc;
    uint8_t implied[KD_MAX_PLAYERS];
    if ((rc = check_shape(t, err)) < 0 || (rc = check_cards(t, err)) < 0 ||
        (rc = check_counts(t, err, &start_count)) < 0 || (rc = check_trick(t, err, implied)) < 0 ||
        (rc = check_last(t, err)) < 0)
        return rc;
    return check_progress(t, start_count, implied, err);
}

/* Parse into a local state, derive what the notation leaves out (the game's end), check it
 * whole and insist on the canonical spelling; st changes only when everything holds. */
int kd_state_from_text(void *st, const char *text, rp_error *err)
{
    kd_state t;
    memset(&t, 0, sizeof t);
    rp_reader r;
    int rc = rp__read_begin(&r, text, KD_NOTATION_TAG, err);
    if (rc == RP_OK)
        rc = read_fields(&r, &t);
    if (rc < 0)
        return rc;
    if (t.players >= 1) /* derived; state_ok refuses a state without players */
        t.to_act = (uint8_t)kd_seat_after(&t, t.leader, t.trick_len);
    bool all_out = t.trick_len == 0;
    for (int p = 0; p < t.players; p++)
        all_out = all_out && kd_cards_left(&t, p) == 0;
    int winner = 0;
    if (all_out && kd_game_ends(&t, &winner)) {
        t.over = 1;
        t.winner = (uint8_t)winner;
    }
    if (kd_state_ok(&t, err) < 0)
        return RP_EPARSE;
    if ((rc = rp__read_canonical(&r, kd_state_to_text, &t)) < 0)
        return rc;
    memcpy(st, &t, sizeof t);
    return RP_OK;
}

/* ---- why a move is not legal ---- */

/* Where a card the seat to act cannot play is, as far as that seat may know: never which
 * hidden place (another hand, or face down anywhere, KD-P3). */
static void explain_not_held(const kd_state *s, int seat, int card, rp_text *t)
{
    const uint32_t bit = 1u << card;
    const char *name = kd_long_names[card];
    if (s->trick_mask & bit)
        rp__text_put(t, "%s is already in this trick", name);
    else if (s->played & bit)
        rp__text_put(t, "%s was played earlier in this hand", name);
    else if (s->aside & bit)
        rp__text_put(t, "%s is set aside face up this hand (KD-2)", name);
    else if (s->players == 2 && (s->up[1 - seat] & bit))
        rp__text_put(t, "%s lies face up on %s's table, not yours", name, kd_seat_names[1 - seat]);
    else if (s->players == 2)
        rp__text_put(t, "you do not have %s in hand or face up on your table", name);
    else
        rp__text_put(t, "you do not have %s in hand", name);
}

/* Why `action` is not legal for the seat to act, in the game's terms: the card is not theirs
 * to play, they must follow suit (naming the cards that follow), or the Wizard's call is
 * missing or not allowed (KD-4, KD-5, KD-P1). Returns -1 when it is legal. */
int kd_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const kd_state *s = st;
    const unsigned card = KD_CARD_OF(action), call = KD_CALL_OF(action);
    rp_text t;
    rp__text_init(&t, buf, size);
    if (s->over)
        return -1;
    const int seat = kd_current_player(s);
    const uint32_t bit = 1u << card, avail = kd_playable_from(s, seat);
    if (action >= KD_NUM_ACTIONS || card >= KD_CARDS || call > KD_SUIT_CANNONS) {
        rp__text_put(&t, "action %u is no play of a card", (unsigned)action);
    } else if (!(avail & bit)) {
        explain_not_held(s, seat, (int)card, &t);
    } else if (s->suit != KD_SUIT_NONE && !(bit & kd_suit_cards[s->suit]) &&
               (avail & kd_suit_cards[s->suit])) {
        rp__text_put(&t, "you must follow %s: you hold ", kd_suit_titles[s->suit]);
        kd_put_names(&t, avail & kd_suit_cards[s->suit]);
        rp__text_str(&t, " (KD-5)");
    } else if (call && !(bit & KD_WIZARDS)) {
        rp__text_put(&t, "only a Wizard names the trick suit: play %s without a call",
                     kd_long_names[card]);
    } else if (call && s->suit != KD_SUIT_NONE) {
        rp__text_put(&t, "the trick suit is already %s: play %s without a call (KD-P1)",
                     kd_suit_titles[s->suit], kd_long_names[card]);
    } else if (!call && (bit & KD_WIZARDS) && s->suit == KD_SUIT_NONE) {
        rp__text_put(&t, "%s sets the trick suit: play it naming walls or cannons (KD-4)",
                     kd_long_names[card]);
    } else {
        return -1;
    }
    return rp__text_finish(&t);
}
