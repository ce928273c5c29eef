/* king_of_danger.c — King of Danger, the trick-taking game for 2 to 5 players, on the game
 * interface: rules (rulebook, rulings KD-1..KD-14, project rulings KD-P1..KD-P5 in docs/rules),
 * notations, per-player views, determinizing, terminal rendering and a cheap evaluation. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "games/king_of_danger.h"

/* Action layout (num_actions = 96):
 *
 *   bits 0-4  card id 0..25 (see king_of_danger.h)
 *   bits 5-6  call: 0 none, 1 Walls, 2 Cannons
 *
 * A call is present exactly when a Wizard is the first non-King card of its trick (KD-4):
 * then "wizard-5 walls" and "wizard-5 cannons" are two actions; every other play has call 0.
 * Where a card is played from (hand or two-player face-up table card) needs no bits: every card
 * is unique, so the card says where it is. */
#define KD_CALL_SHIFT 5
#define KD_NUM_ACTIONS (3u << KD_CALL_SHIFT)
#define KD_CARD_OF(a) ((a) & 31u)
#define KD_CALL_OF(a) ((a) >> KD_CALL_SHIFT)

#define KD_CASTLE_START 3 /* KD-1 */
#define KD_CASTLE_MIN 1
#define KD_CASTLE_MAX 8
#define KD_GOAL 31 /* KD-9 */

/* ---- card tables ---- */

static const char *const long_names[KD_CARDS] = {
    "king-of-danger", "king-of-walls", "king-of-cannons", "king-of-wizards",
    "walls-1", "walls-2", "walls-3", "walls-4", "walls-5", "walls-6", "walls-7",
    "cannons-1", "cannons-2", "cannons-3", "cannons-4", "cannons-5", "cannons-6", "cannons-7",
    "wizard-1", "wizard-2", "wizard-3", "wizard-4", "wizard-5", "wizard-6", "wizard-7",
    "wizard-8"};

/* Short codes used by the full-state notation (and accepted for moves): k = King
 * (kd Danger, kw Walls, kc Cannons, kz Wizards), w Walls, c Cannons, z Wizard. */
static const char *const short_names[KD_CARDS] = {
    "kd", "kw", "kc", "kz", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "c1", "c2",
    "c3", "c4", "c5", "c6", "c7", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8"};

/* Number on each card (Kings have none). */
static const uint8_t card_rank[KD_CARDS] = {0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 1, 2,
                                            3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8};

/* The cards that follow a trick suit (KD-5, KD-11: Kings never count as a suit). */
static const uint32_t suit_cards[3] = {0, KD_WALLS, KD_CANNONS};
static const uint8_t suit_void_bit[3] = {0, KD_VOID_WALLS, KD_VOID_CANNONS};

/* Ordering of cards for KD-6 (3): twice the number, plus one for a trick-suit card so that it
 * beats a Wizard of the same number; 0 for cards that cannot win by number (Kings and off-suit
 * numbers, KD-13). */
static int win_key(int suit, int card)
{
    const uint32_t bit = 1u << card;
    if (bit & suit_cards[suit])
        return 2 * card_rank[card] + 1;
    if (bit & KD_WIZARDS)
        return 2 * card_rank[card];
    return 0;
}

/* Bit helpers for card masks (GCC/Clang builtins: one instruction each on the hot path). */
static int popcount(uint32_t m)
{
    return __builtin_popcount(m);
}

/* The lowest card id in a non-empty mask. */
static int lowest(uint32_t m)
{
    return __builtin_ctz(m);
}

/* Cards a seat still holds: hand plus, with two players, its table cards. */
static uint32_t cards_left(const kd_state *s, int seat)
{
    uint32_t m = s->hand[seat];
    if (s->players == 2)
        m |= s->up[seat] | s->down[seat];
    return m;
}

/* Cards a seat may play from (KD-3: hand and face-up table cards). */
static uint32_t playable_from(const kd_state *s, int seat)
{
    return s->players == 2 ? s->hand[seat] | s->up[seat] : s->hand[seat];
}

/* The seat `steps` places to the left (steps <= 2 * players). */
static int seat_after(const kd_state *s, int seat, int steps)
{
    int x = seat + steps;
    while (x >= s->players)
        x -= s->players;
    return x;
}

/* ---- dealing ---- */

/* Shuffle all 26 cards and deal a new hand (KD-2, KD-3); the leader sits left of the dealer. */
static void deal(kd_state *s)
{
    uint8_t deck[KD_CARDS];
    for (int c = 0; c < KD_CARDS; c++)
        deck[c] = (uint8_t)c;
    rp_rng_shuffle_u8(&s->rng, deck, KD_CARDS);
    const int n = s->players;
    memset(s->hand, 0, sizeof s->hand);
    memset(s->voids, 0, sizeof s->voids);
    s->aside = s->played = s->trick_mask = 0;
    int k = 0;
    if (n == 2) {
        for (int p = 0; p < 2; p++) {
            s->up[p] = s->down[p] = 0;
            for (int i = 0; i < KD_PILES; i++) {
                s->pile_under[p][i] = deck[k++];
                s->down[p] |= 1u << s->pile_under[p][i];
            }
        }
        for (int p = 0; p < 2; p++)
            for (int i = 0; i < KD_PILES; i++) {
                s->pile_top[p][i] = deck[k++];
                s->up[p] |= 1u << s->pile_top[p][i];
            }
    }
    const int per = n == 2 ? 5 : KD_CARDS / n;
    for (int p = 0; p < n; p++)
        for (int i = 0; i < per; i++)
            s->hand[p] |= 1u << deck[k++];
    while (k < KD_CARDS)
        s->aside |= 1u << deck[k++];
    s->leader = (uint8_t)seat_after(s, s->dealer, 1);
    s->trick_len = 0;
    s->suit = KD_SUIT_NONE;
}

/* ---- the game ---- */

static const rp_option_spec kd_options[] = {
    {"dealer", RP_OPT_INT, 0, KD_MAX_PLAYERS - 1, 0, NULL,
     "seat of the first dealer (KD-2); the deal passes left each hand", NULL},
};

/* Set up a game: castles at 3 (KD-1), scores 0, first deal by the chosen dealer (KD-2). */
static int kd_init(void *st, const rp_config *cfg, rp_error *err)
{
    const int64_t dealer = cfg->value[0];
    if (cfg->players < 2 || cfg->players > KD_MAX_PLAYERS)
        return rp_fail(err, RP_EINVAL, "players=%d: King of Danger is for 2 to 5 players",
                       cfg->players);
    if (dealer < 0 || dealer >= cfg->players)
        return rp_fail(err, RP_EINVAL, "dealer=%" PRId64 ": with %d players the seats are 0..%d",
                       dealer, cfg->players, cfg->players - 1);
    kd_state *s = st;
    memset(s, 0, sizeof *s);
    rp_rng_seed(&s->rng, cfg->seed, 0x4b44u);
    s->players = (uint8_t)cfg->players;
    s->dealer = (uint8_t)dealer;
    s->hand_number = 1;
    for (int p = 0; p < s->players; p++)
        s->castle[p] = KD_CASTLE_START;
    deal(s);
    return RP_OK;
}

/* Seats in this game (2..5). */
static int kd_num_players(const void *st)
{
    return ((const kd_state *)st)->players;
}

/* The seat after the last one to play in the current trick, or RP_TERMINAL. */
static int kd_current_player(const void *st)
{
    const kd_state *s = st;
    return s->over ? RP_TERMINAL : seat_after(s, s->leader, s->trick_len);
}

/* The cards the seat to act may play: all it can reach, narrowed to the trick suit when it holds
 * some (KD-5); before the suit is set, anything (KD-4). */
static uint32_t legal_cards(const kd_state *s, int seat)
{
    uint32_t avail = playable_from(s, seat);
    const uint32_t follow = avail & suit_cards[s->suit];
    return follow ? follow : avail;
}

/* Legal plays of the seat to act (see the action layout at the top); 0 once over. */
static int kd_legal_actions(const void *st, rp_action *out)
{
    const kd_state *s = st;
    if (s->over)
        return 0;
    uint32_t m = legal_cards(s, seat_after(s, s->leader, s->trick_len));
    int n = 0;
    if (s->suit == KD_SUIT_NONE) {
        /* KD-4: a Wizard that sets the suit names it, so it is two actions. */
        for (uint32_t w = m & KD_WIZARDS; w; w &= w - 1) {
            const rp_action c = (rp_action)lowest(w);
            out[n++] = c | (KD_SUIT_WALLS << KD_CALL_SHIFT);
            out[n++] = c | (KD_SUIT_CANNONS << KD_CALL_SHIFT);
        }
        m &= ~KD_WIZARDS;
    }
    for (; m; m &= m - 1)
        out[n++] = (rp_action)lowest(m);
    return n;
}

/* Index of the winning card (KD-6) of a finished trick whose suit is set; `mask` is the set of
 * its cards. */
static int trick_winner_index(const uint8_t *trick, int len, uint32_t mask, int suit)
{
    if (mask & (1u << KD_KING_DANGER)) {
        for (int i = 0; i < len; i++)
            if (trick[i] == KD_KING_DANGER)
                return i;
    }
    /* KD-6 (2), KD-11, KD-12: the last King whose condition holds over the whole trick. */
    if (mask & KD_KINGS) {
        const uint32_t holds = ((mask & KD_WALLS) ? 1u << KD_KING_WALLS : 0) |
                               ((mask & KD_CANNONS) ? 1u << KD_KING_CANNONS : 0) |
                               ((mask & KD_WIZARDS) ? 1u << KD_KING_WIZARDS : 0);
        for (int i = len - 1; i >= 0; i--)
            if ((1u << trick[i]) & holds)
                return i;
    }
    /* KD-6 (3), KD-13: highest trick-suit card or Wizard, the suit card winning a tie. */
    int best = 0, best_key = -1;
    for (int i = 0; i < len; i++) {
        const int key = win_key(suit, trick[i]);
        if (key > best_key) {
            best_key = key;
            best = i;
        }
    }
    return best;
}

/* KD-1, KD-8: castle values never leave 1..8. */
static uint8_t clamp_castle(int v)
{
    return (uint8_t)(v < KD_CASTLE_MIN ? KD_CASTLE_MIN : v > KD_CASTLE_MAX ? KD_CASTLE_MAX : v);
}

/* Castle changes of a won trick (KD-8, KD-11, KD-13): they depend on the trick suit only. */
static void score_trick(kd_state *s, int winner_seat)
{
    const int n = s->players;
    if (s->suit == KD_SUIT_WALLS) {
        s->castle[winner_seat] = clamp_castle(s->castle[winner_seat] + (n == 2 ? 1 : 2));
        if (n == 2)
            return;
        for (int i = 0; i < n; i++) {
            const int seat = seat_after(s, s->leader, i);
            if (seat != winner_seat && ((1u << s->trick[i]) & KD_WALLS))
                s->castle[seat] = clamp_castle(s->castle[seat] + 1);
        }
    } else {
        for (int p = 0; p < n; p++)
            if (p != winner_seat)
                s->castle[p] = clamp_castle(s->castle[p] - 1);
    }
}

/* True when the scores end the game (KD-9): some score >= 31 and the highest not shared.
 * Sets *winner to the seat with the highest score. */
static bool game_decided(const kd_state *s, int *winner)
{
    int best = 0, count = 0;
    for (int p = 0; p < s->players; p++) {
        if (s->score[p] > s->score[best]) {
            best = p;
            count = 1;
        } else if (s->score[p] == s->score[best]) {
            count++;
        }
    }
    *winner = best;
    return s->score[best] >= KD_GOAL && count == 1;
}

/* End of a hand (KD-9, KD-14): castle values go onto the scores; the game ends or the deal
 * passes left with castle values carried over (KD-1). */
static void end_hand(kd_state *s)
{
    for (int p = 0; p < s->players; p++)
        s->score[p] += s->castle[p];
    int winner;
    if (game_decided(s, &winner)) {
        s->over = 1;
        s->winner = (uint8_t)winner;
        return;
    }
    if (s->hand_number < UINT16_MAX)
        s->hand_number++;
    s->dealer = (uint8_t)seat_after(s, s->dealer, 1);
    deal(s);
}

/* A full trick: find the winner and score it, or set it aside when it holds only Kings (KD-7),
 * then start the next trick or end the hand. */
static void finish_trick(kd_state *s)
{
    int next_leader = s->leader, winner_seat = KD_NONE;
    if (s->suit != KD_SUIT_NONE) {
        winner_seat = seat_after(
            s, s->leader, trick_winner_index(s->trick, s->trick_len, s->trick_mask, s->suit));
        score_trick(s, winner_seat);
        next_leader = winner_seat;
    }
    memcpy(s->last, s->trick, sizeof s->last);
    s->last_len = s->trick_len;
    s->last_leader = s->leader;
    s->last_suit = s->suit;
    s->last_winner = (uint8_t)winner_seat;
    memset(s->trick, 0, sizeof s->trick);
    s->played |= s->trick_mask;
    s->trick_mask = 0;
    s->trick_len = 0;
    s->suit = KD_SUIT_NONE;
    s->leader = (uint8_t)next_leader;
    if (!cards_left(s, next_leader))
        end_hand(s);
}

/* Take a card from where the seat has it; a face-up table card uncovers the card under it,
 * which turns face up at once (KD-3). */
static void take_card(kd_state *s, int seat, int card)
{
    const uint32_t bit = 1u << card;
    if (s->hand[seat] & bit) {
        s->hand[seat] &= ~bit;
        return;
    }
    s->up[seat] &= ~bit;
    for (int i = 0; i < KD_PILES; i++)
        if (s->pile_top[seat][i] == card) {
            const uint8_t under = s->pile_under[seat][i];
            s->pile_top[seat][i] = under;
            s->pile_under[seat][i] = KD_NONE;
            if (under != KD_NONE) {
                s->down[seat] &= ~(1u << under);
                s->up[seat] |= 1u << under;
            }
            return;
        }
}

/* Play one card for the seat to act: set the suit (KD-4), note a void (KD-P2), and finish
 * the trick when everyone has played. */
static void kd_apply(void *st, rp_action action)
{
    kd_state *s = st;
    const int seat = seat_after(s, s->leader, s->trick_len);
    const int card = (int)KD_CARD_OF(action);
    const uint32_t bit = 1u << card;
    take_card(s, seat, card);
    if (s->suit == KD_SUIT_NONE) {
        /* KD-4: the first non-King sets the suit; a Wizard by its player's call. */
        if (bit & KD_WALLS)
            s->suit = KD_SUIT_WALLS;
        else if (bit & KD_CANNONS)
            s->suit = KD_SUIT_CANNONS;
        else if (bit & KD_WIZARDS)
            s->suit = (uint8_t)KD_CALL_OF(action);
    } else if (!(bit & suit_cards[s->suit])) {
        /* KD-5: not following shows everyone the hand holds none of the suit (KD-P2). */
        s->voids[seat] |= suit_void_bit[s->suit];
    }
    s->trick[s->trick_len++] = (uint8_t)card;
    s->trick_mask |= bit;
    if (s->trick_len == s->players)
        finish_trick(s);
}

/* Shares of the win: the game only ends with a sole highest score (KD-9). */
static void kd_returns(const void *st, double *out)
{
    const kd_state *s = st;
    for (int p = 0; p < s->players; p++)
        out[p] = s->over ? (p == s->winner ? 1.0 : 0.0) : 1.0 / s->players;
}

/* ---- small text helpers ---- */

/* Append printf-style to buf at *len; false once it no longer fits. */
/* Append printf-style to buf at *len; false once it no longer fits. */
static bool appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static bool appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    if (*len >= size)
        return false;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size - *len) {
        *len = size;
        return false;
    }
    *len += (size_t)n;
    return true;
}

/* Card id of a name of `len` characters (long name or short code, any case), or -1. */
static int card_from_name(const char *name, size_t len)
{
    char low[24];
    if (len == 0 || len >= sizeof low)
        return -1;
    for (size_t i = 0; i < len; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    low[len] = '\0';
    for (int c = 0; c < KD_CARDS; c++)
        if (strcmp(low, long_names[c]) == 0 || strcmp(low, short_names[c]) == 0)
            return c;
    return -1;
}

static const char *const suit_names[3] = {"-", "walls", "cannons"};

/* ---- action notation ---- */

/* "walls-3", "king-of-danger", "wizard-5 cannons" (a call only when the action has one). */
static int kd_action_to_text(const void *st, rp_action action, char *buf, size_t size)
{
    (void)st;
    const unsigned card = KD_CARD_OF(action), call = KD_CALL_OF(action);
    if (card >= KD_CARDS || call > KD_SUIT_CANNONS)
        return RP_EINVAL;
    const int n = call ? snprintf(buf, size, "%s %s", long_names[card], suit_names[call])
                       : snprintf(buf, size, "%s", long_names[card]);
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

/* "walls" / "cannons" (or "w" / "c"), any case: the suit a Wizard names (KD-4), or -1. */
static int call_from_word(const char *word, size_t len)
{
    char low[8] = {0};
    if (len == 0 || len >= sizeof low)
        return -1;
    for (size_t i = 0; i < len; i++)
        low[i] = (char)tolower((unsigned char)word[i]);
    if (strcmp(low, "walls") == 0 || strcmp(low, "w") == 0)
        return KD_SUIT_WALLS;
    if (strcmp(low, "cannons") == 0 || strcmp(low, "c") == 0)
        return KD_SUIT_CANNONS;
    return -1;
}

/* "walls-3", "king-of-danger", "wizard-5 cannons" (short codes "w3", "kd", "z5 c" too). A call
 * is required exactly when a Wizard sets the trick suit here (KD-4, KD-P1). */
static int kd_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    const kd_state *s = st;
    const char *p = text;
    size_t word_len, call_len;
    const char *word = next_word(&p, &word_len);
    const char *call_word = next_word(&p, &call_len);
    if (word_len == 0)
        return rp_fail(err, RP_EPARSE, "empty move: name a card, e.g. 'walls-3' or "
                                       "'wizard-5 cannons'");
    const int card = card_from_name(word, word_len);
    if (card < 0)
        return rp_fail(err, RP_EPARSE, "'%.*s' is not a card (cards: king-of-danger, "
                       "king-of-walls, king-of-cannons, king-of-wizards, walls-1..7, "
                       "cannons-1..7, wizard-1..8)", (int)(word_len > 40 ? 40 : word_len), word);
    if (*p)
        return rp_fail(err, RP_EPARSE, "unexpected '%.20s' after the move", p);
    const int call = call_len ? call_from_word(call_word, call_len) : KD_SUIT_NONE;
    if (call < 0)
        return rp_fail(err, RP_EPARSE, "'%.*s' is not a trick suit: call 'walls' or 'cannons'",
                       (int)(call_len > 20 ? 20 : call_len), call_word);
    const bool wizard = (1u << card) & KD_WIZARDS;
    const bool sets_suit = !s->over && s->suit == KD_SUIT_NONE;
    if (call && !wizard)
        return rp_fail(err, RP_EPARSE, "only a Wizard that sets the trick suit names it: "
                       "play '%s'", long_names[card]);
    if (call && !sets_suit)
        return rp_fail(err, RP_EILLEGAL, "the trick suit is already %s: play '%s' without "
                       "a call", suit_names[s->suit], long_names[card]);
    if (!call && wizard && sets_suit)
        return rp_fail(err, RP_EPARSE, "%s sets the trick suit: say '%s walls' or '%s cannons' "
                       "(KD-4)", long_names[card], long_names[card], long_names[card]);
    *out = (rp_action)card | ((rp_action)call << KD_CALL_SHIFT);
    return RP_OK;
}

/* ---- full-state notation ----
 *
 *   players=4 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3,3,3 score=0,0,0,0
 *   voids=-,-,-,- hands=w1,kd,.../.../.../... [table=w3+c4,z1,-,kd+w1/... (two players)]
 *   aside=c3,z2 played=- last=- rng=<16 hex>:<16 hex>
 *
 * One line, fields in this order separated by single spaces. Cards use the short codes; "-" is
 * an empty list; lists per seat are separated by '/'. A pile is "top+under" (face-up card on a
 * face-down one), "top" (face-up only) or "-". voids per seat: "-", "w", "c" or "wc". last is
 * "-" or "leader:winner:suit:cards" (winner "x" for a trick set aside, suit "-" then). */

/* A set of cards as short codes in id order (canonical, so equal states print equally). */
static bool append_cards(char *buf, size_t size, size_t *len, uint32_t mask)
{
    if (!mask)
        return appendf(buf, size, len, "-");
    bool first = true;
    for (; mask; mask &= mask - 1) {
        if (!appendf(buf, size, len, "%s%s", first ? "" : ",", short_names[lowest(mask)]))
            return false;
        first = false;
    }
    return true;
}

/* Cards in a given order (a trick), as short codes. */
static bool append_list(char *buf, size_t size, size_t *len, const uint8_t *cards, int n)
{
    if (n == 0)
        return appendf(buf, size, len, "-");
    for (int i = 0; i < n; i++)
        if (!appendf(buf, size, len, "%s%s", i ? "," : "", short_names[cards[i]]))
            return false;
    return true;
}

static const char *const void_names[4] = {"-", "w", "c", "wc"};

/* The referee's notation of the whole state, in the format above. */
static int kd_state_to_text(const void *st, char *buf, size_t size)
{
    const kd_state *s = st;
    const int n = s->players;
    size_t len = 0;
    bool ok = appendf(buf, size, &len, "players=%d dealer=%d hand=%u leader=%d suit=%s trick=",
                      n, s->dealer, (unsigned)s->hand_number, s->leader, suit_names[s->suit]);
    ok = ok && append_list(buf, size, &len, s->trick, s->trick_len);
    ok = ok && appendf(buf, size, &len, " castle=");
    for (int p = 0; p < n; p++)
        ok = ok && appendf(buf, size, &len, "%s%d", p ? "," : "", s->castle[p]);
    ok = ok && appendf(buf, size, &len, " score=");
    for (int p = 0; p < n; p++)
        ok = ok && appendf(buf, size, &len, "%s%" PRIu32, p ? "," : "", s->score[p]);
    ok = ok && appendf(buf, size, &len, " voids=");
    for (int p = 0; p < n; p++)
        ok = ok && appendf(buf, size, &len, "%s%s", p ? "," : "", void_names[s->voids[p] & 3]);
    ok = ok && appendf(buf, size, &len, " hands=");
    for (int p = 0; p < n; p++) {
        ok = ok && appendf(buf, size, &len, "%s", p ? "/" : "");
        ok = ok && append_cards(buf, size, &len, s->hand[p]);
    }
    if (n == 2) {
        ok = ok && appendf(buf, size, &len, " table=");
        for (int p = 0; p < 2; p++)
            for (int i = 0; i < KD_PILES; i++) {
                const uint8_t top = s->pile_top[p][i], under = s->pile_under[p][i];
                ok = ok && appendf(buf, size, &len, "%s", i ? "," : p ? "/" : "");
                if (top == KD_NONE)
                    ok = ok && appendf(buf, size, &len, "-");
                else if (under == KD_NONE)
                    ok = ok && appendf(buf, size, &len, "%s", short_names[top]);
                else
                    ok = ok && appendf(buf, size, &len, "%s+%s", short_names[top],
                                       short_names[under]);
            }
    }
    ok = ok && appendf(buf, size, &len, " aside=");
    ok = ok && append_cards(buf, size, &len, s->aside);
    ok = ok && appendf(buf, size, &len, " played=");
    ok = ok && append_cards(buf, size, &len, s->played);
    ok = ok && appendf(buf, size, &len, " last=");
    if (s->last_len == 0) {
        ok = ok && appendf(buf, size, &len, "-");
    } else {
        if (s->last_winner == KD_NONE)
            ok = ok && appendf(buf, size, &len, "%d:x:-:", s->last_leader);
        else
            ok = ok && appendf(buf, size, &len, "%d:%d:%s:", s->last_leader, s->last_winner,
                               suit_names[s->last_suit]);
        ok = ok && append_list(buf, size, &len, s->last, s->last_len);
    }
    ok = ok && appendf(buf, size, &len, " rng=%016" PRIx64 ":%016" PRIx64, s->rng.state,
                       s->rng.inc);
    return ok ? (int)len : RP_ENOSPACE;
}

/* A parsing position in a state text, with the field being read for messages. */
typedef struct kd_cursor {
    const char *p;
    const char *field;
    rp_error *err;
} kd_cursor;

/* Read "key=value" at the cursor: the value is [*val, *val + *len). */
static int next_field(kd_cursor *c, const char *key, const char **val, size_t *len)
{
    const size_t key_len = strlen(key);
    c->field = key;
    if (strncmp(c->p, key, key_len) != 0 || c->p[key_len] != '=')
        return rp_fail(c->err, RP_EPARSE, "expected the field '%s=' at '%.20s'", key, c->p);
    *val = c->p + key_len + 1;
    const char *end = *val;
    while (*end && *end != ' ')
        end++;
    *len = (size_t)(end - *val);
    if (*len == 0)
        return rp_fail(c->err, RP_EPARSE, "field '%s' is empty", key);
    c->p = *end ? end + 1 : end;
    return RP_OK;
}

/* A whole decimal number of [text, text+len) no greater than max. */
static int parse_number(kd_cursor *c, const char *text, size_t len, uint32_t max, uint32_t *out)
{
    uint64_t v = 0;
    if (len == 0 || len > 10)
        return rp_fail(c->err, RP_EPARSE, "%s: '%.*s' is not a number", c->field,
                       (int)(len > 12 ? 12 : len), text);
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return rp_fail(c->err, RP_EPARSE, "%s: '%.*s' is not a number", c->field,
                           (int)len, text);
        v = v * 10 + (uint64_t)(text[i] - '0');
    }
    if (v > max)
        return rp_fail(c->err, RP_EPARSE, "%s: %" PRIu64 " is out of range (at most %" PRIu32
                       ")", c->field, v, max);
    *out = (uint32_t)v;
    return RP_OK;
}

/* Split [text, text+len) at `sep` into exactly `want` parts (starts and lengths). */
static int split(kd_cursor *c, const char *text, size_t len, char sep, int want,
                 const char **parts, size_t *lens)
{
    int n = 0;
    const char *start = text, *end = text + len;
    for (const char *q = text; q <= end; q++) {
        if (q == end || *q == sep) {
            if (n == want)
                return rp_fail(c->err, RP_EPARSE, "%s: more than %d parts", c->field, want);
            parts[n] = start;
            lens[n++] = (size_t)(q - start);
            start = q + 1;
        }
    }
    if (n != want)
        return rp_fail(c->err, RP_EPARSE, "%s: expected %d parts separated by '%c', found %d",
                       c->field, want, sep, n);
    return RP_OK;
}

/* A list of cards ("-" for none): in order into cards (at most max), as a set into *mask. */
static int parse_cards(kd_cursor *c, const char *text, size_t len, uint8_t *cards, int max,
                       int *count, uint32_t *mask)
{
    *count = 0;
    *mask = 0;
    if (len == 1 && text[0] == '-')
        return RP_OK;
    const char *end = text + len, *start = text;
    for (const char *q = text; q <= end; q++) {
        if (q != end && *q != ',')
            continue;
        const int card = card_from_name(start, (size_t)(q - start));
        if (card < 0)
            return rp_fail(c->err, RP_EPARSE, "%s: '%.*s' is not a card code", c->field,
                           (int)(q - start > 12 ? 12 : q - start), start);
        if (*mask & (1u << card))
            return rp_fail(c->err, RP_EPARSE, "%s: %s is listed twice", c->field,
                           short_names[card]);
        if (*count == max)
            return rp_fail(c->err, RP_EPARSE, "%s: more than %d cards", c->field, max);
        *mask |= 1u << card;
        if (cards)
            cards[*count] = (uint8_t)card;
        (*count)++;
        start = q + 1;
    }
    return RP_OK;
}

/* A list of one small number per seat. */
static int parse_per_seat(kd_cursor *c, const char *val, size_t len, int n, uint32_t min,
                          uint32_t max, uint32_t *out)
{
    const char *parts[KD_MAX_PLAYERS];
    size_t lens[KD_MAX_PLAYERS];
    int rc = split(c, val, len, ',', n, parts, lens);
    for (int p = 0; rc == RP_OK && p < n; p++) {
        rc = parse_number(c, parts[p], lens[p], max, &out[p]);
        if (rc == RP_OK && out[p] < min)
            rc = rp_fail(c->err, RP_EPARSE, "%s: %" PRIu32 " for seat %d is below %" PRIu32,
                         c->field, out[p], p, min);
    }
    return rc;
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

/* "-", "walls" or "cannons". */
static int parse_suit(kd_cursor *c, const char *val, size_t len, uint8_t *out)
{
    for (int k = 0; k < 3; k++)
        if (strlen(suit_names[k]) == len && strncmp(val, suit_names[k], len) == 0) {
            *out = (uint8_t)k;
            return RP_OK;
        }
    return rp_fail(c->err, RP_EPARSE, "%s: '%.*s' is not '-', 'walls' or 'cannons'", c->field,
                   (int)(len > 12 ? 12 : len), val);
}

/* Two-player piles of one seat: "top+under", "top" or "-", four of them. */
static int parse_piles(kd_cursor *c, kd_state *s, int seat, const char *val, size_t len)
{
    const char *parts[KD_PILES];
    size_t lens[KD_PILES];
    int rc = split(c, val, len, ',', KD_PILES, parts, lens);
    for (int i = 0; rc == RP_OK && i < KD_PILES; i++) {
        s->pile_top[seat][i] = s->pile_under[seat][i] = KD_NONE;
        if (lens[i] == 1 && parts[i][0] == '-')
            continue;
        const char *plus = memchr(parts[i], '+', lens[i]);
        const size_t top_len = plus ? (size_t)(plus - parts[i]) : lens[i];
        const int top = card_from_name(parts[i], top_len);
        const int under = plus ? card_from_name(plus + 1, lens[i] - top_len - 1)
                               : (int)KD_NONE;
        if (top < 0 || under < 0)
            return rp_fail(c->err, RP_EPARSE, "table: pile '%.*s' of seat %d is not 'top', "
                           "'top+under' or '-'", (int)(lens[i] > 12 ? 12 : lens[i]), parts[i],
                           seat);
        const uint32_t bits = (1u << top) | (under == (int)KD_NONE ? 0 : 1u << under);
        if ((s->up[seat] | s->down[seat]) & bits || top == under)
            return rp_fail(c->err, RP_EPARSE, "table: a card of seat %d is listed twice", seat);
        s->pile_top[seat][i] = (uint8_t)top;
        s->up[seat] |= 1u << top;
        if (under != (int)KD_NONE) {
            s->pile_under[seat][i] = (uint8_t)under;
            s->down[seat] |= 1u << under;
        }
    }
    return rc;
}

/* Exactly 16 lower-case hex digits (one half of the rng), as printed by state_to_text. */
static int parse_hex64(kd_cursor *c, const char *text, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    if (len != 16)
        return rp_fail(c->err, RP_EPARSE, "rng: expected 16 hex digits, found '%.*s'",
                       (int)(len > 20 ? 20 : len), text);
    for (size_t i = 0; i < len; i++) {
        const char ch = text[i];
        const int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (d < 0)
            return rp_fail(c->err, RP_EPARSE, "rng: '%c' is not a lower-case hex digit", ch);
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return RP_OK;
}

/* last: "-" or "leader:winner:suit:cards". */
static int parse_last(kd_cursor *c, kd_state *t, const char *val, size_t len)
{
    if (len == 1 && val[0] == '-')
        return RP_OK;
    const char *parts[4];
    size_t lens[4];
    uint32_t leader, winner = KD_NONE, mask;
    int count;
    int rc = split(c, val, len, ':', 4, parts, lens);
    if (rc == RP_OK)
        rc = parse_number(c, parts[0], lens[0], (uint32_t)t->players - 1, &leader);
    if (rc == RP_OK && !(lens[1] == 1 && parts[1][0] == 'x'))
        rc = parse_number(c, parts[1], lens[1], (uint32_t)t->players - 1, &winner);
    if (rc == RP_OK)
        rc = parse_suit(c, parts[2], lens[2], &t->last_suit);
    if (rc == RP_OK)
        rc = parse_cards(c, parts[3], lens[3], t->last, t->players, &count, &mask);
    if (rc < 0)
        return rc;
    if (count != t->players)
        return rp_fail(c->err, RP_EPARSE, "last: a finished trick has %d cards, not %d",
                       t->players, count);
    if (suit_from_cards(t->last, count, t->last_suit) != t->last_suit)
        return rp_fail(c->err, RP_EPARSE, "last: suit '%s' does not fit the trick's cards "
                       "(KD-4)", suit_names[t->last_suit]);
    const uint32_t should = t->last_suit == KD_SUIT_NONE
                                ? KD_NONE
                                : (leader + (uint32_t)trick_winner_index(t->last, count, mask,
                                                                         t->last_suit)) %
                                      t->players;
    if (winner != should)
        return rp_fail(c->err, RP_EPARSE, "last: the winner of that trick is %s, not %.*s "
                       "(KD-6, KD-7)", should == KD_NONE ? "nobody (set aside)" : "another seat",
                       (int)lens[1], parts[1]);
    t->last_len = (uint8_t)count;
    t->last_leader = (uint8_t)leader;
    t->last_winner = (uint8_t)winner;
    return RP_OK;
}

/* Read every field of the notation into t (syntax and ranges; consistency comes after). */
static int parse_fields(kd_cursor *c, kd_state *t)
{
    const char *v, *parts[KD_MAX_PLAYERS];
    size_t len, lens[KD_MAX_PLAYERS];
    uint32_t x, per_seat[KD_MAX_PLAYERS];
    int rc, count;
    if ((rc = next_field(c, "players", &v, &len)) < 0 || (rc = parse_number(c, v, len, 5, &x)) < 0)
        return rc;
    if (x < 2)
        return rp_fail(c->err, RP_EPARSE, "players: King of Danger is for 2 to 5 players");
    const int n = t->players = (uint8_t)x;
    if ((rc = next_field(c, "dealer", &v, &len)) < 0 ||
        (rc = parse_number(c, v, len, (uint32_t)n - 1, &x)) < 0)
        return rc;
    t->dealer = (uint8_t)x;
    if ((rc = next_field(c, "hand", &v, &len)) < 0 ||
        (rc = parse_number(c, v, len, UINT16_MAX, &x)) < 0)
        return rc;
    if (x < 1)
        return rp_fail(c->err, RP_EPARSE, "hand: hands are numbered from 1");
    t->hand_number = (uint16_t)x;
    if ((rc = next_field(c, "leader", &v, &len)) < 0 ||
        (rc = parse_number(c, v, len, (uint32_t)n - 1, &x)) < 0)
        return rc;
    t->leader = (uint8_t)x;
    if ((rc = next_field(c, "suit", &v, &len)) < 0 || (rc = parse_suit(c, v, len, &t->suit)) < 0)
        return rc;
    if ((rc = next_field(c, "trick", &v, &len)) < 0 ||
        (rc = parse_cards(c, v, len, t->trick, n - 1, &count, &t->trick_mask)) < 0)
        return rc;
    t->trick_len = (uint8_t)count;
    if ((rc = next_field(c, "castle", &v, &len)) < 0 ||
        (rc = parse_per_seat(c, v, len, n, KD_CASTLE_MIN, KD_CASTLE_MAX, per_seat)) < 0)
        return rc;
    for (int p = 0; p < n; p++)
        t->castle[p] = (uint8_t)per_seat[p];
    if ((rc = next_field(c, "score", &v, &len)) < 0 ||
        (rc = parse_per_seat(c, v, len, n, 0, KD_CASTLE_MAX * (uint32_t)UINT16_MAX,
                             t->score)) < 0)
        return rc;
    if ((rc = next_field(c, "voids", &v, &len)) < 0 ||
        (rc = split(c, v, len, ',', n, parts, lens)) < 0)
        return rc;
    for (int p = 0; p < n; p++) {
        int k = 0;
        while (k < 4 && !(strlen(void_names[k]) == lens[p] &&
                          strncmp(void_names[k], parts[p], lens[p]) == 0))
            k++;
        if (k == 4)
            return rp_fail(c->err, RP_EPARSE, "voids: '%.*s' for seat %d is not -, w, c or wc",
                           (int)(lens[p] > 8 ? 8 : lens[p]), parts[p], p);
        t->voids[p] = (uint8_t)k;
    }
    if ((rc = next_field(c, "hands", &v, &len)) < 0 ||
        (rc = split(c, v, len, '/', n, parts, lens)) < 0)
        return rc;
    for (int p = 0; p < n; p++)
        if ((rc = parse_cards(c, parts[p], lens[p], NULL, n == 2 ? 5 : KD_CARDS / n, &count,
                              &t->hand[p])) < 0)
            return rc;
    if (n == 2) {
        if ((rc = next_field(c, "table", &v, &len)) < 0 ||
            (rc = split(c, v, len, '/', 2, parts, lens)) < 0)
            return rc;
        for (int p = 0; p < 2; p++)
            if ((rc = parse_piles(c, t, p, parts[p], lens[p])) < 0)
                return rc;
    }
    if ((rc = next_field(c, "aside", &v, &len)) < 0 ||
        (rc = parse_cards(c, v, len, NULL, KD_CARDS, &count, &t->aside)) < 0)
        return rc;
    if ((rc = next_field(c, "played", &v, &len)) < 0 ||
        (rc = parse_cards(c, v, len, NULL, KD_CARDS, &count, &t->played)) < 0)
        return rc;
    if ((rc = next_field(c, "last", &v, &len)) < 0 || (rc = parse_last(c, t, v, len)) < 0)
        return rc;
    if ((rc = next_field(c, "rng", &v, &len)) < 0 ||
        (rc = split(c, v, len, ':', 2, parts, lens)) < 0 ||
        (rc = parse_hex64(c, parts[0], lens[0], &t->rng.state)) < 0 ||
        (rc = parse_hex64(c, parts[1], lens[1], &t->rng.inc)) < 0)
        return rc;
    if (!(t->rng.inc & 1))
        return rp_fail(c->err, RP_EPARSE, "rng: the stream increment must be odd");
    if (*c->p)
        return rp_fail(c->err, RP_EPARSE, "unexpected text after the last field: '%.20s'", c->p);
    return RP_OK;
}

/* Every card in exactly one place (hands, table, trick, aside, played). */
static int check_cards(const kd_state *t, rp_error *err)
{
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
            return rp_fail(err, RP_EPARSE, "card %s is in two places",
                           short_names[lowest(seen & places[i])]);
        seen |= places[i];
    }
    if (seen != KD_ALL)
        return rp_fail(err, RP_EPARSE, "card %s is missing (all 26 must be somewhere)",
                       short_names[lowest(KD_ALL & ~seen)]);
    if (popcount(t->aside) != KD_CARDS % t->players)
        return rp_fail(err, RP_EPARSE, "aside: %d players set aside %d cards, not %d (KD-2)",
                       t->players, KD_CARDS % t->players, popcount(t->aside));
    return RP_OK;
}

/* Every seat holds as many cards as the trick position says; returns the count each seat had
 * when the current trick started (0 once every card is out). */
static int check_counts(const kd_state *t, rp_error *err, int *start_count)
{
    const int n = t->players, len = t->trick_len;
    const int r = popcount(cards_left(t, t->leader)) + (len > 0);
    for (int i = 0; i < n; i++) {
        const int seat = seat_after(t, t->leader, i);
        const int want = i < len ? r - 1 : r;
        if (popcount(cards_left(t, seat)) != want)
            return rp_fail(err, RP_EPARSE, "seat %d holds %d cards where the trick position "
                           "needs %d", seat, popcount(cards_left(t, seat)), want);
    }
    *start_count = r;
    return RP_OK;
}

/* Voids (KD-P2) that the current trick proves, and the trick's suit (KD-4). */
static int check_trick(const kd_state *t, rp_error *err, uint8_t *implied)
{
    if (suit_from_cards(t->trick, t->trick_len, t->suit) != t->suit)
        return rp_fail(err, RP_EPARSE, "suit: '%s' does not fit the cards of the trick (KD-4)",
                       suit_names[t->suit]);
    memset(implied, 0, KD_MAX_PLAYERS);
    bool set = false;
    for (int i = 0; i < t->trick_len; i++) {
        const uint32_t bit = 1u << t->trick[i];
        const int seat = seat_after(t, t->leader, i);
        if (set && !(bit & suit_cards[t->suit]))
            implied[seat] |= suit_void_bit[t->suit];
        set = set || !(bit & KD_KINGS);
    }
    for (int p = 0; p < t->players; p++) {
        if ((implied[p] & t->voids[p]) != implied[p])
            return rp_fail(err, RP_EPARSE, "voids: seat %d did not follow %s, so it must be "
                           "marked void (KD-5)", p, suit_names[t->suit]);
        if (((t->voids[p] & KD_VOID_WALLS) && (t->hand[p] & KD_WALLS)) ||
            ((t->voids[p] & KD_VOID_CANNONS) && (t->hand[p] & KD_CANNONS)))
            return rp_fail(err, RP_EPARSE, "voids: seat %d is marked void in a suit it holds "
                           "in hand", p);
    }
    return RP_OK;
}

/* What the hand and game counters imply: scores, the game's end, a fresh hand's shape. */
static int check_progress(kd_state *t, int start_count, const uint8_t *implied, rp_error *err)
{
    int winner;
    const bool decided = game_decided(t, &winner);
    if (start_count == 0) {
        if (!decided)
            return rp_fail(err, RP_EPARSE, "every card is played but the scores do not end "
                           "the game (KD-9), so a new hand would have been dealt");
        t->over = 1;
        t->winner = (uint8_t)winner;
    } else if (decided) {
        return rp_fail(err, RP_EPARSE, "score: seat %d already won (KD-9), so no further "
                       "hand is played", winner);
    }
    const uint32_t done = t->hand_number - (t->over ? 0u : 1u);
    for (int p = 0; p < t->players; p++)
        if (t->score[p] < done || (t->hand_number < UINT16_MAX && t->score[p] > 8u * done))
            return rp_fail(err, RP_EPARSE, "score: %" PRIu32 " for seat %d cannot come from "
                           "%" PRIu32 " finished hands (1 to 8 each)", t->score[p], p, done);
    if (t->played == 0 && !t->over) {
        if (t->leader != seat_after(t, t->dealer, 1))
            return rp_fail(err, RP_EPARSE, "leader: the first trick is led left of the dealer");
        if (memcmp(t->voids, implied, KD_MAX_PLAYERS) != 0)
            return rp_fail(err, RP_EPARSE, "voids: before any trick of a hand is finished only "
                           "the current trick can show a void");
        if (t->hand_number == 1)
            for (int p = 0; p < t->players; p++)
                if (t->castle[p] != KD_CASTLE_START)
                    return rp_fail(err, RP_EPARSE, "castle: every castle is 3 before the first "
                                   "trick of the game (KD-1)");
    }
    if ((t->hand_number == 1 && t->played == 0) != (t->last_len == 0))
        return rp_fail(err, RP_EPARSE, "last: there is a last trick exactly when a trick has "
                       "been finished");
    if (t->played) {
        uint32_t all = 0;
        for (int i = 0; i < t->last_len; i++)
            all |= 1u << t->last[i];
        const int next = t->last_winner == KD_NONE ? t->last_leader : t->last_winner;
        if ((all & t->played) != all || next != t->leader)
            return rp_fail(err, RP_EPARSE, "last: the last trick must be among the played "
                           "cards and its winner must lead now (KD-7 for a set-aside trick)");
    }
    return RP_OK;
}

/* Parse into a local state and check it whole; st changes only when everything holds. */
static int kd_state_from_text(void *st, const char *text, rp_error *err)
{
    kd_state t;
    memset(&t, 0, sizeof t);
    kd_cursor c = {text, "players", err};
    int start_count = 0;
    uint8_t implied[KD_MAX_PLAYERS];
    int rc = parse_fields(&c, &t);
    if (rc == RP_OK)
        rc = check_cards(&t, err);
    if (rc == RP_OK)
        rc = check_counts(&t, err, &start_count);
    if (rc == RP_OK)
        rc = check_trick(&t, err, implied);
    if (rc == RP_OK)
        rc = check_progress(&t, start_count, implied, err);
    if (rc < 0)
        return rc;
    memcpy(st, &t, sizeof t);
    return RP_OK;
}

/* ---- views ---- */

/* A set of cards as an array of names in id order. */
static cJSON *card_array(uint32_t mask)
{
    cJSON *a = cJSON_CreateArray();
    for (; mask; mask &= mask - 1)
        cJSON_AddItemToArray(a, cJSON_CreateString(long_names[lowest(mask)]));
    return a;
}

/* The cards of a trick with the seat that played each. */
static cJSON *trick_array(const kd_state *s, const uint8_t *cards, int len, int leader)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < len; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seat", seat_after(s, leader, i));
        cJSON_AddStringToObject(o, "card", long_names[cards[i]]);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* JSON helpers: null stands for "no seat" / "no suit yet". */
static cJSON *seat_or_null(int seat)
{
    return seat < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(seat);
}

static cJSON *suit_or_null(int suit)
{
    return suit == KD_SUIT_NONE ? cJSON_CreateNull() : cJSON_CreateString(suit_names[suit]);
}

/* Two players: each seat's piles, face-up card and whether a hidden card lies under it. */
static cJSON *table_json(const kd_state *s)
{
    cJSON *seats = cJSON_CreateArray();
    for (int p = 0; p < 2; p++) {
        cJSON *piles = cJSON_CreateArray();
        for (int i = 0; i < KD_PILES; i++) {
            cJSON *o = cJSON_CreateObject();
            const uint8_t top = s->pile_top[p][i];
            cJSON_AddItemToObject(o, "up", top == KD_NONE ? cJSON_CreateNull()
                                                          : cJSON_CreateString(long_names[top]));
            cJSON_AddBoolToObject(o, "face_down_under", s->pile_under[p][i] != KD_NONE);
            cJSON_AddItemToArray(piles, o);
        }
        cJSON_AddItemToArray(seats, piles);
    }
    return seats;
}

/* What `player` may know (KD-10): own hand; everyone's public cards, counts, values, scores,
 * known voids; never other hands or any face-down card. A non-seat gets the public part. */
static cJSON *kd_view_json(const void *st, int player)
{
    const kd_state *s = st;
    const int n = s->players;
    const bool seated = player >= 0 && player < n;
    cJSON *v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "game", "king-of-danger");
    cJSON_AddNumberToObject(v, "players", n);
    cJSON_AddItemToObject(v, "seat", seat_or_null(seated ? player : -1));
    cJSON_AddNumberToObject(v, "hand_number", s->hand_number);
    cJSON_AddNumberToObject(v, "dealer", s->dealer);
    cJSON_AddBoolToObject(v, "over", s->over);
    cJSON_AddItemToObject(v, "winner", seat_or_null(s->over ? s->winner : -1));
    cJSON_AddItemToObject(v, "to_act", seat_or_null(kd_current_player(s)));
    cJSON_AddNumberToObject(v, "leader", s->leader);
    cJSON_AddItemToObject(v, "trick_suit", suit_or_null(s->suit));
    cJSON_AddItemToObject(v, "trick", trick_array(s, s->trick, s->trick_len, s->leader));
    int castle[KD_MAX_PLAYERS], score[KD_MAX_PLAYERS], held[KD_MAX_PLAYERS];
    cJSON *voids = cJSON_CreateArray();
    for (int p = 0; p < n; p++) {
        castle[p] = s->castle[p];
        score[p] = (int)s->score[p];
        held[p] = popcount(s->hand[p]);
        cJSON *vp = cJSON_CreateArray();
        if (s->voids[p] & KD_VOID_WALLS)
            cJSON_AddItemToArray(vp, cJSON_CreateString("walls"));
        if (s->voids[p] & KD_VOID_CANNONS)
            cJSON_AddItemToArray(vp, cJSON_CreateString("cannons"));
        cJSON_AddItemToArray(voids, vp);
    }
    cJSON_AddItemToObject(v, "castle", cJSON_CreateIntArray(castle, n));
    cJSON_AddItemToObject(v, "score", cJSON_CreateIntArray(score, n));
    cJSON_AddItemToObject(v, "hand_sizes", cJSON_CreateIntArray(held, n));
    cJSON_AddItemToObject(v, "voids", voids);
    if (seated)
        cJSON_AddItemToObject(v, "hand", card_array(s->hand[player]));
    if (n == 2)
        cJSON_AddItemToObject(v, "table", table_json(s));
    cJSON_AddItemToObject(v, "aside", card_array(s->aside));
    cJSON_AddItemToObject(v, "played", card_array(s->played));
    if (s->last_len) {
        cJSON *last = cJSON_CreateObject();
        cJSON_AddItemToObject(last, "cards", trick_array(s, s->last, s->last_len,
                                                         s->last_leader));
        cJSON_AddItemToObject(last, "suit", suit_or_null(s->last_suit));
        cJSON_AddItemToObject(last, "winner", seat_or_null(s->last_winner == KD_NONE
                                                               ? -1 : s->last_winner));
        cJSON_AddItemToObject(v, "last_trick", last);
    } else {
        cJSON_AddNullToObject(v, "last_trick");
    }
    return v;
}

/* ---- determinize ---- */

/* A group of hidden places that take the same cards: a hand (not its voided suits, KD-P2) or
 * all face-down table cards together. */
typedef struct kd_group {
    uint32_t accept;
    int cap;
    uint32_t got;
    uint8_t order[KD_CARDS]; /* cards in the order received (face-down slots) */
} kd_group;

/* Hall's condition for what is left: Walls and Cannons cards fit the places that take them. */
static bool placement_feasible(const kd_group *g, int groups, int walls, int cannons)
{
    int cap_w = 0, cap_c = 0, cap_wc = 0;
    for (int i = 0; i < groups; i++) {
        if (g[i].accept & KD_WALLS)
            cap_w += g[i].cap;
        if (g[i].accept & KD_CANNONS)
            cap_c += g[i].cap;
        if (g[i].accept & (KD_WALLS | KD_CANNONS))
            cap_wc += g[i].cap;
    }
    return walls <= cap_w && cannons <= cap_c && walls + cannons <= cap_wc;
}

/* Put one card into a random group that takes it (weighted by room) and leaves the rest
 * placeable; walls/cannons count the unplaced cards after this one. */
static void place_card(kd_group *g, int groups, int card, int walls, int cannons, rp_rng *rng)
{
    const uint32_t bit = 1u << card;
    int room = 0;
    for (int i = 0; i < groups; i++)
        if (g[i].accept & bit)
            room += g[i].cap;
    int pick = (int)rp_rng_below(rng, (uint32_t)room), first = 0;
    for (int i = 0; i < groups; i++)
        if (g[i].accept & bit) {
            if (pick < g[i].cap) {
                first = i;
                break;
            }
            pick -= g[i].cap;
        }
    for (int k = 0; k < groups; k++) {
        kd_group *x = &g[(first + k) % groups];
        if (!(x->accept & bit) || x->cap == 0)
            continue;
        x->cap--;
        if (placement_feasible(g, groups, walls, cannons)) {
            x->order[popcount(x->got)] = (uint8_t)card;
            x->got |= bit;
            return;
        }
        x->cap++;
    }
}

/* Resample the other hands and every face-down card (KD-10) among the cards `player` has not
 * seen, keeping hand sizes, pile shapes and known voids; reseed the deal rng. */
static void kd_determinize(void *st, int player, rp_rng *rng)
{
    kd_state *s = st;
    const uint64_t a = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    const uint64_t b = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, a, b);
    if (s->over)
        return;
    kd_group g[KD_MAX_PLAYERS + 1];
    int seat_of[KD_MAX_PLAYERS + 1], groups = 0;
    uint32_t pool = 0;
    for (int q = 0; q < s->players; q++) {
        if (q == player)
            continue;
        memset(&g[groups], 0, sizeof g[groups]);
        g[groups].accept = KD_ALL & ~((s->voids[q] & KD_VOID_WALLS ? KD_WALLS : 0) |
                                      (s->voids[q] & KD_VOID_CANNONS ? KD_CANNONS : 0));
        g[groups].cap = popcount(s->hand[q]);
        seat_of[groups++] = q;
        pool |= s->hand[q];
    }
    if (s->players == 2) {
        memset(&g[groups], 0, sizeof g[groups]);
        g[groups].accept = KD_ALL;
        g[groups].cap = popcount(s->down[0] | s->down[1]);
        seat_of[groups++] = -1;
        pool |= s->down[0] | s->down[1];
    }
    uint8_t cards[KD_CARDS];
    int count = 0, walls = popcount(pool & KD_WALLS), cannons = popcount(pool & KD_CANNONS);
    for (uint32_t m = pool; m; m &= m - 1)
        cards[count++] = (uint8_t)lowest(m);
    rp_rng_shuffle_u8(rng, cards, count);
    for (int i = 0; i < count; i++) {
        const uint32_t bit = 1u << cards[i];
        walls -= (bit & KD_WALLS) != 0;
        cannons -= (bit & KD_CANNONS) != 0;
        place_card(g, groups, cards[i], walls, cannons, rng);
    }
    for (int i = 0; i < groups; i++) {
        if (seat_of[i] >= 0) {
            s->hand[seat_of[i]] = g[i].got;
            continue;
        }
        int k = 0;
        for (int p = 0; p < 2; p++) {
            s->down[p] = 0;
            for (int j = 0; j < KD_PILES; j++)
                if (s->pile_under[p][j] != KD_NONE) {
                    s->pile_under[p][j] = g[i].order[k++];
                    s->down[p] |= 1u << s->pile_under[p][j];
                }
        }
    }
}

/* ---- terminal rendering ---- */

/* A card name, coloured by suit when asked: Walls yellow, Cannons red, Wizards magenta,
 * Kings bold cyan. */
static void put_card(FILE *out, int card, bool color)
{
    if (!color) {
        fputs(long_names[card], out);
        return;
    }
    const uint32_t bit = 1u << card;
    const char *code = bit & KD_KINGS ? "1;36" : bit & KD_WALLS ? "33" : bit & KD_CANNONS ? "31"
                                                                                        : "35";
    fprintf(out, "\033[%sm%s\033[0m", code, long_names[card]);
}

/* A set of cards on one line, "(none)" when empty. */
static void put_cards(FILE *out, uint32_t mask, bool color)
{
    if (!mask)
        fputs("(none)", out);
    for (bool first = true; mask; mask &= mask - 1, first = false) {
        if (!first)
            fputs(" ", out);
        put_card(out, lowest(mask), color);
    }
}

/* A trick as "seat 1 walls-3, seat 2 wizard-5". */
static void put_trick(const kd_state *s, FILE *out, const uint8_t *cards, int len, int leader,
                      bool color)
{
    for (int i = 0; i < len; i++) {
        fprintf(out, "%sseat %d ", i ? ", " : "", seat_after(s, leader, i));
        put_card(out, cards[i], color);
    }
}

static const char *const suit_titles[3] = {"not set yet", "Walls", "Cannons"};

/* Two players: both tables, face-down cards shown only as such (KD-10, KD-P3). */
static void render_table(const kd_state *s, int player, FILE *out, bool color)
{
    for (int p = 0; p < 2; p++) {
        fprintf(out, "  Table of seat %d%s:", p, p == player ? " (you)" : "");
        for (int i = 0; i < KD_PILES; i++) {
            fputs(i ? " | " : " ", out);
            if (s->pile_top[p][i] == KD_NONE) {
                fputs("-", out);
                continue;
            }
            put_card(out, s->pile_top[p][i], color);
            if (s->pile_under[p][i] != KD_NONE)
                fputs(" on a face-down card", out);
        }
        fputs("\n", out);
    }
}

/* Draw what `player` sees: scores, castle values, the trick so far and its suit, the last
 * trick, public cards and the player's own hand (and table, with two players). */
static void kd_render(const void *st, int player, FILE *out, bool color)
{
    const kd_state *s = st;
    const int n = s->players, to_act = kd_current_player(s);
    fprintf(out, "King of Danger - hand %u, %d players, dealer seat %d, game to 31\n",
            (unsigned)s->hand_number, n, s->dealer);
    fputs("  seat      score  castle  in hand  known void\n", out);
    for (int p = 0; p < n; p++) {
        fprintf(out, "%s %d%-6s %5" PRIu32 "  %6d  %7d  %s%s\n", p == to_act ? ">" : " ", p,
                p == player ? " (you)" : "", s->score[p], s->castle[p], popcount(s->hand[p]),
                s->voids[p] & KD_VOID_WALLS ? "walls " : "",
                s->voids[p] & KD_VOID_CANNONS ? "cannons" : "");
    }
    if (n == 2)
        render_table(s, player, out, color);
    if (n > 2) {
        fputs("  Set aside this hand: ", out);
        put_cards(out, s->aside, color);
        fputs("\n", out);
    }
    fputs("  Played this hand: ", out);
    put_cards(out, s->played, color);
    fputs("\n", out);
    if (s->last_len) {
        fputs("  Last trick: ", out);
        put_trick(s, out, s->last, s->last_len, s->last_leader, color);
        if (s->last_winner == KD_NONE)
            fputs(" - only Kings, set aside\n", out);
        else
            fprintf(out, " - %s trick, won by seat %d\n", suit_titles[s->last_suit],
                    s->last_winner);
    }
    if (s->over) {
        fprintf(out, "Game over: seat %d wins with %" PRIu32 " points.\n", s->winner,
                s->score[s->winner]);
        return;
    }
    fprintf(out, "  Trick (suit: %s): ", suit_titles[s->suit]);
    if (s->trick_len == 0)
        fprintf(out, "seat %d leads", s->leader);
    put_trick(s, out, s->trick, s->trick_len, s->leader, color);
    fputs("\n", out);
    if (player >= 0 && player < n) {
        fputs("  Your hand: ", out);
        put_cards(out, s->hand[player], color);
        fputs("\n", out);
    }
    fprintf(out, "Seat %d to play%s.\n", to_act, to_act == player ? " (you)" : "");
}

/* ---- evaluation ---- */

/* A cheap estimate of `player`'s chance to win from public numbers only: the score each seat
 * will have after this hand if castle values stood still, against the best other seat. */
static double kd_evaluate(const void *st, int player)
{
    const kd_state *s = st;
    if (s->over)
        return player == s->winner ? 1.0 : 0.0;
    if (player < 0 || player >= s->players)
        return 0.0;
    double best_other = 0;
    for (int p = 0; p < s->players; p++)
        if (p != player && s->score[p] + s->castle[p] > best_other)
            best_other = s->score[p] + s->castle[p];
    const double lead = (double)(s->score[player] + s->castle[player]) - best_other;
    return 1.0 / (1.0 + exp(-lead / 4.0));
}

const rp_game rp_king_of_danger = {
    .id = "king-of-danger",
    .title = "King of Danger",
    .summary = "trick taking with four Kings: build your castle, knock down the others (2-5)",
    .min_players = 2,
    .max_players = KD_MAX_PLAYERS,
    .default_players = 4,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = KD_NUM_ACTIONS,
    .state_size = sizeof(kd_state),
    .options = kd_options,
    .num_options = (int)(sizeof kd_options / sizeof kd_options[0]),
    .ai_levels = {"iters=200", "iters=1000", "iters=3000"},
    .init = kd_init,
    .num_players = kd_num_players,
    .current_player = kd_current_player,
    .legal_actions = kd_legal_actions,
    .apply = kd_apply,
    .returns = kd_returns,
    .action_to_text = kd_action_to_text,
    .action_from_text = kd_action_from_text,
    .state_to_text = kd_state_to_text,
    .state_from_text = kd_state_from_text,
    .view_json = kd_view_json,
    .determinize = kd_determinize,
    .render = kd_render,
    .evaluate = kd_evaluate,
    .observe_action = NULL,
};
