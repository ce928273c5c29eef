/* rules.c — King of Danger, the trick-taking game for 2 to 5 players: the rules and the hot
 * path (rulebook, rulings KD-1..KD-14, project rulings KD-P1..KD-P6 in
 * docs/rules/king-of-danger.md): the cards, dealing, setup, legal plays, tricks and scoring,
 * apply. The action layout is in internal.h. */
#include <inttypes.h>
#include <string.h>

#include "core/check.h"
#include "games/king-of-danger/internal.h"

/* ---- card tables ---- */

/* The cards' names: moves, the full-state notation, views and events all spell them so. */
const char *const kd_long_names[KD_CARDS] = {
    "king-of-danger", "king-of-walls", "king-of-cannons", "king-of-wizards", "walls-1",
    "walls-2",        "walls-3",       "walls-4",         "walls-5",         "walls-6",
    "walls-7",        "cannons-1",     "cannons-2",       "cannons-3",       "cannons-4",
    "cannons-5",      "cannons-6",     "cannons-7",       "wizard-1",        "wizard-2",
    "wizard-3",       "wizard-4",      "wizard-5",        "wizard-6",        "wizard-7",
    "wizard-8"};

/* Number on each card (Kings have none). */
const uint8_t kd_card_rank[KD_CARDS] = {0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 1, 2,
                                        3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8};

const uint8_t kd_short_order[KD_CARDS] = {
    KD_WALLS_1,       KD_CANNONS_1,    KD_WIZARD_1,      KD_KING_DANGER,   KD_WALLS_1 + 1,
    KD_CANNONS_1 + 1, KD_WIZARD_1 + 1, KD_KING_WALLS,    KD_WALLS_1 + 2,   KD_CANNONS_1 + 2,
    KD_WIZARD_1 + 2,  KD_KING_CANNONS, KD_WALLS_1 + 3,   KD_CANNONS_1 + 3, KD_WIZARD_1 + 3,
    KD_KING_WIZARDS,  KD_WALLS_1 + 4,  KD_CANNONS_1 + 4, KD_WIZARD_1 + 4,  KD_WALLS_1 + 5,
    KD_CANNONS_1 + 5, KD_WIZARD_1 + 5, KD_WALLS_1 + 6,   KD_CANNONS_1 + 6, KD_WIZARD_1 + 6,
    KD_WIZARD_1 + 7};

uint32_t kd_deck(const kd_state *s)
{
    if (s->players != 2 || (!s->short_piles && !s->short_hand))
        return KD_ALL;
    uint32_t deck = 0;
    for (int i = 0; i < 2 * kd_tricks_in_hand(s) && i < KD_CARDS; i++)
        deck |= 1u << kd_short_order[i];
    return deck;
}

/* The cards that follow a trick suit (KD-5, KD-11: Kings never count as a suit). */
const uint32_t kd_suit_cards[3] = {0, KD_WALLS, KD_CANNONS};
const uint8_t kd_suit_void_bit[3] = {0, KD_VOID_WALLS, KD_VOID_CANNONS};

/* Ordering of cards for KD-6 (3), by trick suit and card: twice the number, plus one for a
 * trick-suit card so that it beats a Wizard of the same number; 0 for cards that cannot win by
 * number (Kings and off-suit numbers, KD-11, KD-13). A table, so the winner of a trick costs a
 * load a card (test_kd6_win_keys_follow_the_rule checks it against the rule). */
#define KD_KEYS_KINGS 0, 0, 0, 0
#define KD_KEYS_OFF_SUIT 0, 0, 0, 0, 0, 0, 0
#define KD_KEYS_SUIT 3, 5, 7, 9, 11, 13, 15        /* 2 x (1..7) + 1 */
#define KD_KEYS_WIZARDS 2, 4, 6, 8, 10, 12, 14, 16 /* 2 x (1..8) */
const uint8_t kd_win_key[3][KD_CARDS] = {
    [KD_SUIT_NONE] = {KD_KEYS_KINGS, KD_KEYS_OFF_SUIT, KD_KEYS_OFF_SUIT, KD_KEYS_WIZARDS},
    [KD_SUIT_WALLS] = {KD_KEYS_KINGS, KD_KEYS_SUIT, KD_KEYS_OFF_SUIT, KD_KEYS_WIZARDS},
    [KD_SUIT_CANNONS] = {KD_KEYS_KINGS, KD_KEYS_OFF_SUIT, KD_KEYS_SUIT, KD_KEYS_WIZARDS}};

/* The trick suit a card sets as the first non-King of a trick (KD-4): a Walls or Cannons card
 * its own; none for a King, and none for a Wizard, whose call comes in its action. */
#define KD_LEAD(suit) suit, suit, suit, suit, suit, suit, suit
static const uint8_t lead_suit[KD_CARDS] = {
    0, 0, 0, 0, KD_LEAD(KD_SUIT_WALLS), KD_LEAD(KD_SUIT_CANNONS)};

/* The whole deck in id order: the full deck's cards before the shuffle (deal). */
static const uint8_t all_cards[KD_CARDS] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                            13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25};

/* ---- narration: the records are in internal.h ---- */

#if defined(__GNUC__) && !defined(RP_COVERAGE_BUILD) /* coverage: see CMakeLists.txt */
#define KD_INLINE inline __attribute__((always_inline))
#define KD_NOINLINE __attribute__((noinline))
#else
#define KD_INLINE inline
#define KD_NOINLINE
#endif

/* A new note of `kind` about `seat`, the rest zero. */
static kd_note *note(kd_story *story, int kind, int seat)
{
    rp_assert(story->count < KD_MAX_NOTES);
    kd_note *n = &story->notes[story->count++];
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->seat = (uint8_t)seat;
    n->pile = -1;
    return n;
}

/* ---- dealing ---- */

/* Each card's bit: dealing looks it up rather than shifting by a variable count. */
#define KD_BITS4(c) 1u << (c), 1u << ((c) + 1), 1u << ((c) + 2), 1u << ((c) + 3)
static const uint32_t card_bit[KD_CARDS] = {KD_BITS4(0),  KD_BITS4(4),  KD_BITS4(8), KD_BITS4(12),
                                            KD_BITS4(16), KD_BITS4(20), 1u << 24,    1u << 25};

/* The set of `count` cards (ids), two at a time: a deal builds every hand so. */
static KD_INLINE uint32_t mask_of_cards(const uint8_t *cards, int count)
{
    uint32_t m = 0;
    int i = 0;
    for (; i + 1 < count; i += 2)
        m |= card_bit[cards[i]] | card_bit[cards[i + 1]];
    if (i < count)
        m |= card_bit[cards[i]];
    return m;
}

/* Shuffle the deck (all 26 cards, or a short game's, KD-P6) and deal a new hand (KD-2, KD-3);
 * the leader sits left of the dealer. The last trick stays on show: at a new hand it tells how
 * the old one ended. */
static void deal(kd_state *s, kd_story *story)
{
    uint8_t deck[KD_CARDS];
    const uint32_t cards = kd_deck(s);
    int size = 0;
    if (cards == KD_ALL) { /* the usual deck: the loop below would write all_cards */
        memcpy(deck, all_cards, sizeof deck);
        size = KD_CARDS;
    } else {
        for (uint32_t m = cards; m; m &= m - 1)
            deck[size++] = (uint8_t)kd_lowest(m);
    }
    rp_rng_shuffle_u8(&s->rng, deck, size);
    const int n = s->players, piles = kd_piles(s);
    memset(s->hand, 0, sizeof s->hand);
    memset(s->voids, 0, sizeof s->voids);
    s->aside = s->played = s->trick_mask = 0;
    int k = 0;
    if (n == 2) {
        for (int p = 0; p < 2; p++) {
            s->up[p] = s->down[p] = 0;
            for (int i = 0; i < KD_PILES; i++) {
                s->pile_under[p][i] = i < piles ? deck[k++] : KD_NONE;
                s->pile_top[p][i] = KD_NONE;
                if (i < piles)
                    s->down[p] |= 1u << s->pile_under[p][i];
            }
        }
        for (int p = 0; p < 2; p++)
            for (int i = 0; i < piles; i++) {
                s->pile_top[p][i] = deck[k++];
                s->up[p] |= 1u << s->pile_top[p][i];
            }
    }
    const int per = kd_hand_cards(s);
    for (int p = 0; p < n; p++, k += per)
        s->hand[p] = mask_of_cards(deck + k, per);
    s->aside = mask_of_cards(deck + k, size - k);
    s->leader = s->to_act = (uint8_t)kd_seat_after(s, s->dealer, 1);
    s->trick_len = 0;
    s->suit = KD_SUIT_NONE;
    if (story)
        note(story, NOTE_DEAL, s->dealer)->value = s->hand_number;
}

/* ---- the game: setup, turn order, legal plays, tricks, apply ---- */

/* A short game's deal as its option writes it, "P+H" (KD-P6). */
void kd_deal_text(const kd_state *s, char *buf, size_t size)
{
    snprintf(buf, size, "%d+%d", kd_piles(s), kd_hand_cards(s));
}

/* The deal option (KD-P6), "P+H" with P piles 0..4 and H hand cards 1..5, into *piles and
 * *hand; two players only. */
static int read_deal_option(const rp_config *cfg, int *piles, int *hand, rp_error *err)
{
    const char *v = cfg->text[KD_OPT_DEAL];
    if (strlen(v) != 3 || v[0] < '0' || v[0] > '0' + KD_PILES || v[1] != '+' || v[2] < '1' ||
        v[2] > '5')
        return rp_fail(err, RP_EINVAL,
                       "deal=%.20s: write PILES+HAND-CARDS, 0..4 piles and 1..5 hand cards a "
                       "seat, e.g. deal=1+1 (KD-P6)",
                       v);
    if (cfg->players != 2)
        return rp_fail(err, RP_EINVAL,
                       "deal=%s: a short deal is for two players (KD-3, KD-P6); with %d every "
                       "card is dealt into the hands (KD-2)",
                       v, cfg->players);
    *piles = v[0] - '0';
    *hand = v[2] - '0';
    return RP_OK;
}

/* Set up a game: castles at 3 (KD-1), scores 0, first deal by the chosen dealer (KD-2), and a
 * short game's deal, played for one hand, when the deal option is given (KD-P6). */
int kd_init(void *st, const rp_config *cfg, rp_error *err)
{
    const int64_t dealer = cfg->value[KD_OPT_DEALER];
    if (cfg->players < 2 || cfg->players > KD_MAX_PLAYERS)
        return rp_fail(err, RP_EINVAL, "players=%d: King of Danger is for 2 to 5 players",
                       cfg->players);
    if (dealer < 0 || dealer >= cfg->players)
        return rp_fail(err, RP_EINVAL, "dealer=%" PRId64 ": with %d players the seats are 0..%d",
                       dealer, cfg->players, cfg->players - 1);
    int piles = KD_PILES, hand = 5;
    if (cfg->given[KD_OPT_DEAL]) {
        const int rc = read_deal_option(cfg, &piles, &hand, err);
        if (rc < 0)
            return rc;
    }
    kd_state *s = st;
    memset(s, 0, sizeof *s);
    rp_rng_seed(&s->rng, cfg->seed, 0x4b44u);
    s->players = (uint8_t)cfg->players;
    s->dealer = (uint8_t)dealer;
    s->hand_number = 1;
    if (cfg->given[KD_OPT_DEAL]) {
        s->short_piles = (uint8_t)(piles + 1);
        s->short_hand = (uint8_t)hand;
        s->last_hand = 1;
    }
    for (int p = 0; p < s->players; p++)
        s->castle[p] = KD_CASTLE_START;
    deal(s, NULL);
    return RP_OK;
}

/* Seats in this game (2..5). */
int kd_num_players(const void *st)
{
    return ((const kd_state *)st)->players;
}

/* The seat after the last one to play in the current trick, or RP_TERMINAL. */
int kd_current_player(const void *st)
{
    const kd_state *s = st;
    return s->over ? RP_TERMINAL : s->to_act;
}

/* Tricks are the rulebook's turns: hands of 26/players tricks each (KD-P4), Kings-only tricks
 * set aside included (KD-7), counted over the whole game. */
int kd_turn_number(const void *st)
{
    const kd_state *s = st;
    const int per_hand = kd_tricks_in_hand(s);
    const int players = s->players;
    if (players <= 0) /* a state that passed state_ok always has players */
        return 1;
    /* clang 14's analyzer reports a division by zero here on a path where it notes itself that
     * players > 0: a false positive. */
    const int done = kd_popcount(s->played) / players; /* NOLINT(clang-analyzer-core.DivideZero) */
    return (s->hand_number - 1) * per_hand + (s->over ? done : done + 1);
}

/* The cards the seat to act may play: all it can reach, narrowed to the trick suit when it holds
 * some (KD-5); before the suit is set, anything (KD-4). */
static uint32_t legal_cards(const kd_state *s, int seat)
{
    uint32_t avail = kd_playable_from(s, seat);
    const uint32_t follow = avail & kd_suit_cards[s->suit];
    return follow ? follow : avail;
}

/* Legal plays of the seat to act (see the action layout at the top); 0 once over, with no
 * test of `over`: a game ends only at the end of a hand (KD-9, KD-14), when every card dealt
 * is played (state_ok: "over exactly when every card is played"), so no seat holds a card. */
int kd_legal_actions(const void *st, rp_action *out)
{
    const kd_state *s = st;
    uint32_t m = legal_cards(s, s->to_act);
    rp_action *next = out;
    if (s->suit == KD_SUIT_NONE) {
        /* KD-4: a Wizard that sets the suit names it, so it is two actions. */
        for (uint32_t w = m & KD_WIZARDS; w; w &= w - 1) {
            const rp_action c = (rp_action)kd_lowest(w);
            next[0] = c | (KD_SUIT_WALLS << KD_CALL_SHIFT);
            next[1] = c | (KD_SUIT_CANNONS << KD_CALL_SHIFT);
            next += 2;
        }
        m &= ~KD_WIZARDS;
    }
    for (; m; m &= m - 1)
        *next++ = (rp_action)kd_lowest(m);
    return (int)(next - out);
}

/* Index of the winning card (KD-6) of a finished trick whose suit is set; `mask` is the set of
 * its cards. */
static KD_INLINE int trick_winner_index(const uint8_t *trick, int len, uint32_t mask, int suit)
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
    const uint8_t *keys = kd_win_key[suit];
    int best = 0, best_key = -1;
    for (int i = 0; i < len; i++) {
        const int key = keys[trick[i]];
        if (key > best_key) {
            best_key = key;
            best = i;
        }
    }
    return best;
}

int kd_trick_winner_index(const uint8_t *trick, int len, uint32_t mask, int suit)
{
    return trick_winner_index(trick, len, mask, suit);
}

/* Which case of KD-6 made trick[winner] the winner (for the events only). */
static int win_case(const uint8_t *trick, int len, int winner, int suit)
{
    const int card = trick[winner];
    if (card == KD_KING_DANGER)
        return WIN_DANGER;
    if ((1u << card) & KD_KINGS)
        return WIN_KING;
    if ((1u << card) & kd_suit_cards[suit])
        for (int i = 0; i < len; i++)
            if (((1u << trick[i]) & KD_WIZARDS) && kd_card_rank[trick[i]] == kd_card_rank[card])
                return WIN_TIE;
    return WIN_HIGHEST;
}

/* KD-1, KD-8: castle values never leave 1..8. A castle in 1..8 moved by a gain can only pass
 * 8, and by a loss only 1: one bound each (change is a constant where this is inlined). */
static KD_INLINE uint8_t clamp_castle(int from, int change)
{
    const int v = from + change;
    if (change > 0)
        return (uint8_t)(v > KD_CASTLE_MAX ? KD_CASTLE_MAX : v);
    return (uint8_t)(v < KD_CASTLE_MIN ? KD_CASTLE_MIN : v);
}

/* Move one castle tracker by `change`, clamped (KD-8), noting why. */
static KD_INLINE void move_castle(kd_state *s, int seat, int change, int why, kd_story *story)
{
    const uint8_t from = s->castle[seat];
    s->castle[seat] = clamp_castle(from, change);
    if (!story)
        return;
    kd_note *n = note(story, NOTE_CASTLE, seat);
    n->from = from;
    n->to = s->castle[seat];
    n->change = (int8_t)change;
    n->why = (uint8_t)why;
}

/* ---- apply's scoring: every castle of a trick at once ----
 * Byte ("lane") p of a uint64_t holds seat p's castle: 1..8, 0 for a seat not playing. A trick
 * moves a lane by at most 2, so lanes stay below 0x80: adding a constant below 0x80 to every
 * lane never carries into the next one, and bit 7 of a lane after adding 0x80 - k tells
 * whether the lane was at least k. The story's score_trick moves castles one at a time; the
 * two agree on every trick (test_apply_is_the_told_play compares them over random games). */
#define KD_LANES(byte) (0x0101010101ull * (byte)) /* byte in each of the 5 seats' lanes */

/* Five bytes (one per seat, or per place in a trick) as lanes: byte i at bits 8i. */
static KD_INLINE uint64_t lanes_of(const uint8_t bytes[KD_MAX_PLAYERS])
{
    uint64_t x = 0;
    memcpy(&x, bytes, KD_MAX_PLAYERS);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x); /* the bytes came in at the top */
#endif
    return x;
}

static KD_INLINE void set_lanes(uint8_t bytes[KD_MAX_PLAYERS], uint64_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    memcpy(bytes, &x, KD_MAX_PLAYERS);
}

/* 1 in each lane of x (every lane below 0x80) that is at least k, 1 <= k <= 0x80. */
static KD_INLINE uint64_t lanes_at_least(uint64_t x, unsigned k)
{
    return ((x + KD_LANES(0x80u - k)) >> 7) & KD_LANES(1);
}

/* KD-8 with three or more players, as score_trick but all castles at once. */
static KD_INLINE void score_trick_lanes(kd_state *s, int winner_seat)
{
    const int n = s->players;
    const uint64_t seats = KD_LANES(1) >> (8 * (KD_MAX_PLAYERS - n)); /* 1 per playing seat */
    const uint64_t winner = 1ull << (8 * winner_seat);
    uint64_t x = lanes_of(s->castle);
    if (s->suit == KD_SUIT_CANNONS) {
        /* every non-winner loses 1, down to 1 at least */
        x -= (seats & ~winner) & lanes_at_least(x, KD_CASTLE_MIN + 1);
        set_lanes(s->castle, x);
        return;
    }
    /* Walls: 1 in lane i when the card played i-th is a Walls card (ids 4..10; slots past
     * the trick hold 0), then turned from places to seats: place i is seat leader + i around
     * the table, a rotation of the first n lanes by the leader. */
    uint64_t places = lanes_of(s->trick);
    places = lanes_at_least(places, KD_WALLS_1) & ~lanes_at_least(places, KD_CANNONS_1);
    const int lead = s->leader;
    const uint64_t walls = ((places << (8 * lead)) | (places >> (8 * (n - lead)))) & seats;
    /* the winner gains 2, each other player of a Walls card 1; then back down to 8 at most:
     * a lane of 9 loses 1, a lane of 10 loses 2 */
    x += (walls & ~winner) + 2 * winner;
    x -= lanes_at_least(x, KD_CASTLE_MAX + 1) + lanes_at_least(x, KD_CASTLE_MAX + 2);
    set_lanes(s->castle, x);
}

/* Castle changes of a won trick (KD-8, KD-11, KD-13): they depend on the trick suit only.
 * The winner first; then the others in the order they played (Walls) or by seat (Cannons). */
static KD_INLINE void score_trick(kd_state *s, int winner_seat, kd_story *story)
{
    const int n = s->players;
    if (!story && n > 2) {
        score_trick_lanes(s, winner_seat);
        return;
    }
    if (s->suit == KD_SUIT_WALLS) {
        move_castle(s, winner_seat, n == 2 ? 1 : 2, CASTLE_WON_WALLS, story);
        if (n == 2)
            return;
        for (int i = 0; i < n; i++) {
            const int seat = kd_trick_seat(s, i);
            if (seat != winner_seat && ((1u << s->trick[i]) & KD_WALLS))
                move_castle(s, seat, 1, CASTLE_WALLS_CARD, story);
        }
    } else {
        for (int p = 0; p < n; p++)
            if (p != winner_seat)
                move_castle(s, p, -1, CASTLE_LOST_CANNONS, story);
    }
}

/* True when the scores end the game (KD-9): some score >= 31 and the highest not shared;
 * sets *winner to the seat with the highest score. */
bool kd_game_decided(const kd_state *s, int *winner)
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

/* True when the game ends after a hand: by the scores (KD-9), or a short game's one hand
 * played (KD-P6), where *winner is KD_NONE for a shared highest score. */
bool kd_game_ends(const kd_state *s, int *winner)
{
    if (kd_game_decided(s, winner))
        return true;
    if (s->last_hand == 0 || s->hand_number < s->last_hand)
        return false;
    /* KD-P6: after a short game's hand the sole highest score wins; a shared one is a draw */
    int best = *winner, count = 0;
    for (int p = 0; p < s->players; p++)
        count += s->score[p] == s->score[best];
    *winner = count == 1 ? best : (int)KD_NONE;
    return true;
}

/* End of a hand (KD-9, KD-14): castle values go onto the scores; the game ends (after a short
 * game's one hand too, KD-P6) or the deal passes left with castle values carried over (KD-1). */
static KD_INLINE void end_hand(kd_state *s, kd_story *story)
{
    uint32_t top = 0;
    for (int p = 0; p < s->players; p++) {
        s->score[p] += s->castle[p];
        top = s->score[p] > top ? s->score[p] : top;
    }
    if (story)
        note(story, NOTE_HAND_OVER, 0)->value = s->hand_number;
    /* Below 31 the game goes on (KD-9) unless a short game's hand is played (KD-P6): the
     * usual end of a hand needs no kd_game_ends. */
    int winner = 0;
    if ((top >= KD_GOAL || s->last_hand) && kd_game_ends(s, &winner)) {
        s->over = 1;
        s->winner = (uint8_t)winner;
        if (story)
            note(story, NOTE_GAME_OVER, winner);
        return;
    }
    if (story && s->score[winner] >= KD_GOAL)
        note(story, NOTE_TIE, winner);
    /* Saturates: 65535 hands cannot happen in play (every hand adds at least 1 point). */
    if (s->hand_number < UINT16_MAX)
        s->hand_number++;
    s->dealer = (uint8_t)kd_seat_after(s, s->dealer, 1);
    deal(s, story);
}

/* apply's end_hand, out of line: a hand ends at one trick in several, and finish_trick is
 * shorter without it. */
static KD_NOINLINE void end_hand_untold(kd_state *s)
{
    end_hand(s, NULL);
}

/* A full trick: find the winner and score it, or set it aside when it holds only Kings (KD-7),
 * then start the next trick or end the hand. */
static KD_INLINE void finish_trick(kd_state *s, kd_story *story)
{
    int next_leader = s->leader, winner_seat = KD_NONE;
    if (story) {
        memcpy(story->trick, s->trick, sizeof story->trick);
        story->trick_len = s->trick_len;
    }
    if (s->suit != KD_SUIT_NONE) {
        const int i = trick_winner_index(s->trick, s->trick_len, s->trick_mask, s->suit);
        winner_seat = kd_trick_seat(s, i);
        if (story) {
            kd_note *n = note(story, NOTE_WON, winner_seat);
            n->card = s->trick[i];
            n->suit = s->suit;
            n->why = (uint8_t)win_case(s->trick, s->trick_len, i, s->suit);
        }
        score_trick(s, winner_seat, story);
        next_leader = winner_seat;
    } else if (story) {
        note(story, NOTE_SET_ASIDE, s->leader);
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
    s->leader = s->to_act = (uint8_t)next_leader;
    if (kd_cards_left(s, next_leader))
        return;
    if (story)
        end_hand(s, story);
    else
        end_hand_untold(s);
}

/* apply's finish_trick, out of line: a trick ends at one action in `players`, and without it
 * inlined the usual action (a card added to a trick) saves and restores no registers. */
static KD_NOINLINE void finish_trick_untold(kd_state *s)
{
    finish_trick(s, NULL);
}

/* Take a card from where the seat has it; a face-up table card uncovers the card under it,
 * which turns face up at once (KD-3). */
static KD_INLINE void take_card(kd_state *s, int seat, int card, kd_story *story)
{
    const uint32_t bit = 1u << card;
    kd_note *played = story ? note(story, NOTE_PLAY, seat) : NULL;
    if (played)
        played->card = (uint8_t)card;
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
            if (played)
                played->pile = (int8_t)i;
            if (under == KD_NONE)
                return;
            s->down[seat] &= ~(1u << under);
            s->up[seat] |= 1u << under;
            if (story) {
                kd_note *n = note(story, NOTE_FLIP, seat);
                n->card = under;
                n->played = (uint8_t)card;
                n->pile = (int8_t)i;
            }
            return;
        }
}

/* Play one card for the seat to act: set the suit (KD-4), note a void (KD-P2), and finish
 * the trick when everyone has played. The story, when given, receives what happened. */
static KD_INLINE void play_card(kd_state *s, rp_action action, kd_story *story)
{
    const int seat = s->to_act;
    const int card = (int)KD_CARD_OF(action);
    const uint32_t bit = 1u << card;
    take_card(s, seat, card, story);
    if (s->suit == KD_SUIT_NONE) {
        /* KD-4: the first non-King sets the suit; a Wizard by its player's call, which only
         * such a Wizard's action carries (the action layout), so a King leaves it unset. */
        s->suit = (uint8_t)(lead_suit[card] | KD_CALL_OF(action));
        if (story && s->suit != KD_SUIT_NONE) {
            kd_note *n = note(story, bit & KD_WIZARDS ? NOTE_CALL : NOTE_SUIT, seat);
            n->card = (uint8_t)card;
            n->suit = s->suit;
        }
    } else if (!(bit & kd_suit_cards[s->suit])) {
        /* KD-5: not following shows everyone the hand holds none of the suit (KD-P2). */
        if (story && !(s->voids[seat] & kd_suit_void_bit[s->suit]))
            note(story, NOTE_VOID, seat)->suit = s->suit;
        s->voids[seat] |= kd_suit_void_bit[s->suit];
    }
    s->trick[s->trick_len++] = (uint8_t)card;
    s->trick_mask |= bit;
    if (s->trick_len == s->players) {
        if (story)
            finish_trick(s, story);
        else
            finish_trick_untold(s);
    } else {
        s->to_act = (uint8_t)(seat + 1 == s->players ? 0 : seat + 1);
    }
    if (story && !s->over)
        note(story, NOTE_TURN, kd_current_player(s))->value = s->trick_len == 0;
}

void kd_play(kd_state *s, rp_action action, kd_story *story)
{
    play_card(s, action, story);
}

/* apply for a two-player seat's face-up table card (KD-3), out of line: the pile search it
 * needs would otherwise cost registers in every apply. */
static KD_NOINLINE void apply_table_card(kd_state *s, rp_action action)
{
    play_card(s, action, NULL);
}

void kd_apply(void *st, rp_action action)
{
    kd_state *s = st;
    if (!(s->hand[s->to_act] & (1u << KD_CARD_OF(action)))) {
        apply_table_card(s, action);
        return;
    }
    play_card(s, action, NULL); /* from the hand: take_card's table branch folds away */
}

/* Shares of the win: the game ends with a sole highest score (KD-9), or after a short game's
 * one hand, where the seats sharing the highest score share the win (KD-P6). */
void kd_returns(const void *st, double *out)
{
    const kd_state *s = st;
    uint32_t top = 0;
    int sharing = 0;
    for (int p = 0; p < s->players; p++)
        top = s->score[p] > top ? s->score[p] : top;
    for (int p = 0; p < s->players; p++)
        sharing += s->score[p] == top;
    for (int p = 0; p < s->players; p++) {
        if (!s->over)
            out[p] = 1.0 / s->players;
        else if (s->winner != KD_NONE)
            out[p] = p == s->winner ? 1.0 : 0.0;
        else
            out[p] = s->score[p] == top ? 1.0 / sharing : 0.0;
    }
}
