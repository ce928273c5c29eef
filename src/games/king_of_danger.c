/* king_of_danger.c — King of Danger, the trick-taking game for 2 to 5 players, on the game
 * interface: the rules (rulebook, rulings KD-1..KD-14, project rulings KD-P1..KD-P5 in
 * docs/rules/king-of-danger.md), the kd1 notation, invariants, views, the events each viewer is
 * told, determinizing, rendering and a cheap evaluation. Implementer notes (notation format,
 * data forms of views, actions and events): docs/games/king-of-danger.md. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"
#include "core/text.h"
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
#define KD_CARD_OF(a) ((a)&31u)
#define KD_CALL_OF(a) ((a) >> KD_CALL_SHIFT)

#define KD_CASTLE_START 3 /* KD-1 */
#define KD_CASTLE_MIN 1
#define KD_CASTLE_MAX 8
#define KD_GOAL 31 /* KD-9 */

/* ---- card tables ---- */

/* The cards' names: moves, the full-state notation, views and events all spell them so. */
static const char *const long_names[KD_CARDS] = {
    "king-of-danger", "king-of-walls", "king-of-cannons", "king-of-wizards", "walls-1",
    "walls-2",        "walls-3",       "walls-4",         "walls-5",         "walls-6",
    "walls-7",        "cannons-1",     "cannons-2",       "cannons-3",       "cannons-4",
    "cannons-5",      "cannons-6",     "cannons-7",       "wizard-1",        "wizard-2",
    "wizard-3",       "wizard-4",      "wizard-5",        "wizard-6",        "wizard-7",
    "wizard-8"};

/* Short codes a person may type for a move (never written): k = King (kd Danger, kw Walls,
 * kc Cannons, kz Wizards), w Walls, c Cannons, z Wizard. */
static const char *const short_names[KD_CARDS] = {
    "kd", "kw", "kc", "kz", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "c1", "c2",
    "c3", "c4", "c5", "c6", "c7", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8"};

/* Number on each card (Kings have none). */
static const uint8_t card_rank[KD_CARDS] = {0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 1, 2,
                                            3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8};

/* The cards that follow a trick suit (KD-5, KD-11: Kings never count as a suit). */
static const uint32_t suit_cards[3] = {0, KD_WALLS, KD_CANNONS};
static const uint8_t suit_void_bit[3] = {0, KD_VOID_WALLS, KD_VOID_CANNONS};
static const char *const suit_names[3] = {"-", "walls", "cannons"};
static const char *const suit_titles[3] = {"not set yet", "Walls", "Cannons"};
/* Known voids of a seat in the notation, indexed by its KD_VOID_* bits. */
static const char *const void_names[4] = {"-", "walls", "cannons", "walls+cannons"};

static const char *const seat_names[KD_MAX_PLAYERS] = {"Blue", "Red", "Green", "Gold", "Purple"};

/* A card's name; "?" for an id no card has (only a broken state holds one). */
static const char *card_name(unsigned card)
{
    return card < KD_CARDS ? long_names[card] : "?";
}

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

/* Cards dealt into each hand (KD-2; two players 5, KD-3) and tricks in a hand (KD-P4). */
static int hand_deal_size(int players)
{
    return players == 2 ? 5 : KD_CARDS / players;
}

static int tricks_per_hand(int players)
{
    return KD_CARDS / players;
}

/* ---- narration: what one action did, for events_json ----
 * Given a story, the rules write a structured note for each thing that happens, in order;
 * events_json turns the notes into sentences for one viewer. apply gives no story, and the
 * rules are inlined into apply (KD_INLINE), so the compiler drops every note there: the hot
 * path does no string work and pays nothing for the narration. */
#if defined(__GNUC__)
#define KD_INLINE inline __attribute__((always_inline))
#else
#define KD_INLINE inline
#endif
enum {
    NOTE_PLAY,      /* seat played card; pile >= 0 when from its table (KD-3) */
    NOTE_FLIP,      /* card under seat's pile turned face up when `played` left it (KD-3) */
    NOTE_SUIT,      /* seat's Walls or Cannons card set the trick suit (KD-4) */
    NOTE_CALL,      /* seat's Wizard named the trick suit (KD-4, KD-P1) */
    NOTE_VOID,      /* seat did not follow suit: known void from now on (KD-P2) */
    NOTE_WON,       /* seat won the trick with card; why is a WIN_* case (KD-6) */
    NOTE_SET_ASIDE, /* a trick of Kings only was set aside; seat leads again (KD-7) */
    NOTE_CASTLE,    /* seat's castle went from..to; why is a CASTLE_* reason (KD-8) */
    NOTE_HAND_OVER, /* hand `value` ended: castle values added to the scores (KD-9) */
    NOTE_TIE,       /* a score reached 31 but the highest is shared (KD-9, KD-14) */
    NOTE_GAME_OVER, /* seat won the game (KD-9) */
    NOTE_DEAL,      /* seat dealt hand `value` (KD-2, KD-3) */
    NOTE_TURN       /* seat is to play; value 1 when it leads a new trick */
};
/* The winner cases of KD-6, in its order; WIN_TIE is case 3 decided by the tie rule. */
enum { WIN_DANGER, WIN_KING, WIN_HIGHEST, WIN_TIE };
/* Why a castle moved (KD-8). */
enum { CASTLE_WON_WALLS, CASTLE_WALLS_CARD, CASTLE_LOST_CANNONS };

typedef struct kd_note {
    uint8_t kind, seat, card, played, suit, why;
    int8_t pile, change;
    uint8_t from, to;
    uint16_t value;
} kd_note;

/* At most: play, flip, suit, void, winner, 5 castles, hand over, game over or tie, deal, turn. */
#define KD_MAX_NOTES 16

typedef struct kd_story {
    kd_note notes[KD_MAX_NOTES];
    int count;
    uint8_t trick[KD_MAX_PLAYERS]; /* the trick this action finished, from its leader on */
    int trick_len;
} kd_story;

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

/* Shuffle all 26 cards and deal a new hand (KD-2, KD-3); the leader sits left of the dealer.
 * The last trick stays on show: at a new hand it tells how the old one ended. */
static void deal(kd_state *s, kd_story *story)
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
    const int per = hand_deal_size(n);
    for (int p = 0; p < n; p++)
        for (int i = 0; i < per; i++)
            s->hand[p] |= 1u << deck[k++];
    while (k < KD_CARDS)
        s->aside |= 1u << deck[k++];
    s->leader = (uint8_t)seat_after(s, s->dealer, 1);
    s->trick_len = 0;
    s->suit = KD_SUIT_NONE;
    if (story)
        note(story, NOTE_DEAL, s->dealer)->value = s->hand_number;
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
    deal(s, NULL);
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

/* Tricks are the rulebook's turns: hands of 26/players tricks each (KD-P4), Kings-only tricks
 * set aside included (KD-7), counted over the whole game. */
static int kd_turn_number(const void *st)
{
    const kd_state *s = st;
    const int per_hand = tricks_per_hand(s->players);
    const int players = s->players;
    if (players <= 0) /* a state that passed state_ok always has players */
        return 1;
    /* clang 14's analyzer reports a division by zero here on a path where it notes itself that
     * players > 0: a false positive. */
    const int done = popcount(s->played) / players; /* NOLINT(clang-analyzer-core.DivideZero) */
    return (s->hand_number - 1) * per_hand + (s->over ? done : done + 1);
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

/* Which case of KD-6 made trick[winner] the winner (for the events only). */
static int win_case(const uint8_t *trick, int len, int winner, int suit)
{
    const int card = trick[winner];
    if (card == KD_KING_DANGER)
        return WIN_DANGER;
    if ((1u << card) & KD_KINGS)
        return WIN_KING;
    if ((1u << card) & suit_cards[suit])
        for (int i = 0; i < len; i++)
            if (((1u << trick[i]) & KD_WIZARDS) && card_rank[trick[i]] == card_rank[card])
                return WIN_TIE;
    return WIN_HIGHEST;
}

/* KD-1, KD-8: castle values never leave 1..8. */
static uint8_t clamp_castle(int v)
{
    return (uint8_t)(v < KD_CASTLE_MIN ? KD_CASTLE_MIN : v > KD_CASTLE_MAX ? KD_CASTLE_MAX : v);
}

/* Move one castle tracker by `change`, clamped (KD-8), noting why. */
static KD_INLINE void move_castle(kd_state *s, int seat, int change, int why, kd_story *story)
{
    const uint8_t from = s->castle[seat];
    s->castle[seat] = clamp_castle(from + change);
    if (!story)
        return;
    kd_note *n = note(story, NOTE_CASTLE, seat);
    n->from = from;
    n->to = s->castle[seat];
    n->change = (int8_t)change;
    n->why = (uint8_t)why;
}

/* Castle changes of a won trick (KD-8, KD-11, KD-13): they depend on the trick suit only.
 * The winner first; then the others in the order they played (Walls) or by seat (Cannons). */
static KD_INLINE void score_trick(kd_state *s, int winner_seat, kd_story *story)
{
    const int n = s->players;
    if (s->suit == KD_SUIT_WALLS) {
        move_castle(s, winner_seat, n == 2 ? 1 : 2, CASTLE_WON_WALLS, story);
        if (n == 2)
            return;
        for (int i = 0; i < n; i++) {
            const int seat = seat_after(s, s->leader, i);
            if (seat != winner_seat && ((1u << s->trick[i]) & KD_WALLS))
                move_castle(s, seat, 1, CASTLE_WALLS_CARD, story);
        }
    } else {
        for (int p = 0; p < n; p++)
            if (p != winner_seat)
                move_castle(s, p, -1, CASTLE_LOST_CANNONS, story);
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
static KD_INLINE void end_hand(kd_state *s, kd_story *story)
{
    for (int p = 0; p < s->players; p++)
        s->score[p] += s->castle[p];
    if (story)
        note(story, NOTE_HAND_OVER, 0)->value = s->hand_number;
    int winner;
    if (game_decided(s, &winner)) {
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
    s->dealer = (uint8_t)seat_after(s, s->dealer, 1);
    deal(s, story);
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
        winner_seat = seat_after(s, s->leader, i);
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
    s->leader = (uint8_t)next_leader;
    if (!cards_left(s, next_leader))
        end_hand(s, story);
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
    const int seat = seat_after(s, s->leader, s->trick_len);
    const int card = (int)KD_CARD_OF(action);
    const uint32_t bit = 1u << card;
    take_card(s, seat, card, story);
    if (s->suit == KD_SUIT_NONE) {
        /* KD-4: the first non-King sets the suit; a Wizard by its player's call. */
        if (bit & KD_WALLS)
            s->suit = KD_SUIT_WALLS;
        else if (bit & KD_CANNONS)
            s->suit = KD_SUIT_CANNONS;
        else if (bit & KD_WIZARDS)
            s->suit = (uint8_t)KD_CALL_OF(action);
        if (story && s->suit != KD_SUIT_NONE) {
            kd_note *n = note(story, bit & KD_WIZARDS ? NOTE_CALL : NOTE_SUIT, seat);
            n->card = (uint8_t)card;
            n->suit = s->suit;
        }
    } else if (!(bit & suit_cards[s->suit])) {
        /* KD-5: not following shows everyone the hand holds none of the suit (KD-P2). */
        if (story && !(s->voids[seat] & suit_void_bit[s->suit]))
            note(story, NOTE_VOID, seat)->suit = s->suit;
        s->voids[seat] |= suit_void_bit[s->suit];
    }
    s->trick[s->trick_len++] = (uint8_t)card;
    s->trick_mask |= bit;
    if (s->trick_len == s->players)
        finish_trick(s, story);
    if (story && !s->over)
        note(story, NOTE_TURN, kd_current_player(s))->value = s->trick_len == 0;
}

static void kd_apply(void *st, rp_action action)
{
    play_card(st, action, NULL);
    RP_DEBUG_STATE_OK(&rp_king_of_danger, st);
}

/* Shares of the win: the game only ends with a sole highest score (KD-9). */
static void kd_returns(const void *st, double *out)
{
    const kd_state *s = st;
    for (int p = 0; p < s->players; p++)
        out[p] = s->over ? (p == s->winner ? 1.0 : 0.0) : 1.0 / s->players;
}

/* The options this state is played under: its players and the first dealer, which its
 * current dealer and hand number imply (the deal passes left each hand, KD-2), so a record of
 * a loaded position replays under options that fit it. */
static void kd_config_of(const void *st, rp_config *cfg)
{
    const kd_state *s = st;
    const int n = s->players;
    const int passed = (int)((s->hand_number - 1u) % (unsigned)n);
    cfg->players = n;
    cfg->value[0] = (s->dealer + n - passed) % n;
}

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
        if (strcmp(low, long_names[c]) == 0 || strcmp(low, short_names[c]) == 0)
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
static int kd_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
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
                       long_names[card]);
    if (call && !sets_suit)
        return rp_fail(err, RP_EILLEGAL, "the trick suit is already %s: play '%s' without a call",
                       suit_titles[s->suit], long_names[card]);
    if (!call && wizard && sets_suit)
        return rp_fail(err, RP_EPARSE,
                       "%s sets the trick suit: say '%s walls' or '%s cannons' (KD-4)",
                       long_names[card], long_names[card], long_names[card]);
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
        rp__text_str(t, long_names[lowest(mask)]);
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

/* The referee's notation of the whole state. Defensive about out-of-range values, so that a
 * broken state can still be printed by the debug check that found it. */
static int kd_state_to_text(const void *st, char *buf, size_t size)
{
    const kd_state *s = st;
    const int n = s->players <= KD_MAX_PLAYERS ? s->players : KD_MAX_PLAYERS;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, "kd1");
    rp__put_key(&t, "players");
    rp__put_uint(&t, s->players);
    rp__put_key(&t, "dealer");
    rp__put_uint(&t, s->dealer);
    rp__put_key(&t, "hand");
    rp__put_uint(&t, s->hand_number);
    rp__put_key(&t, "leader");
    rp__put_uint(&t, s->leader);
    rp__put_key(&t, "suit");
    rp__text_str(&t, suit_names[s->suit <= KD_SUIT_CANNONS ? s->suit : 0]);
    rp__put_key(&t, "trick");
    put_card_list(&t, s->trick, s->trick_len < KD_MAX_PLAYERS ? s->trick_len : 0);
    int count = 0;
    rp__put_key(&t, "castle");
    for (int p = 0; p < n; p++) {
        rp__put_sep(&t, &count, ',');
        rp__put_uint(&t, s->castle[p]);
    }
    count = 0;
    rp__put_key(&t, "score");
    for (int p = 0; p < n; p++) {
        rp__put_sep(&t, &count, ',');
        rp__put_uint(&t, s->score[p]);
    }
    count = 0;
    rp__put_key(&t, "voids");
    for (int p = 0; p < n; p++) {
        rp__put_sep(&t, &count, ',');
        rp__text_str(&t, void_names[s->voids[p] & 3]);
    }
    count = 0;
    rp__put_key(&t, "hands");
    for (int p = 0; p < n; p++) {
        rp__put_sep(&t, &count, '/');
        put_card_set(&t, s->hand[p]);
    }
    if (n == 2) {
        count = 0;
        rp__put_key(&t, "table");
        for (int p = 0; p < 2; p++) {
            rp__put_sep(&t, &count, '/');
            put_piles(&t, s, p);
        }
    }
    rp__put_key(&t, "aside");
    put_card_set(&t, s->aside);
    rp__put_key(&t, "played");
    put_card_set(&t, s->played);
    rp__put_key(&t, "last");
    if (s->last_len == 0) {
        rp__text_ch(&t, '-');
    } else {
        rp__put_uint(&t, s->last_leader);
        rp__text_ch(&t, ':');
        if (s->last_winner == KD_NONE)
            rp__text_ch(&t, 'x');
        else
            rp__put_uint(&t, s->last_winner);
        rp__text_ch(&t, ':');
        rp__text_str(&t, suit_names[s->last_suit <= KD_SUIT_CANNONS ? s->last_suit : 0]);
        rp__text_ch(&t, ':');
        put_card_list(&t, s->last, s->last_len <= KD_MAX_PLAYERS ? s->last_len : 0);
    }
    rp__put_rng(&t, &s->rng);
    return rp__text_finish(&t);
}

/* A card by its name. */
static int read_card(rp_reader *r, const char *what, rp_span v, int *card)
{
    const int c = rp__span_name(v, long_names, KD_CARDS);
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
            return rp__read_fail(r, what, "%s is listed twice", long_names[card]);
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
    if ((rc = rp__span_choice(r, "last", parts[2], suit_names, 3, &suit)) < 0 ||
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
    if ((rc = read_number(r, "hand", UINT16_MAX, &x)) < 0)
        return rc;
    t->hand_number = (uint16_t)x;
    if ((rc = read_number(r, "leader", UINT8_MAX, &x)) < 0)
        return rc;
    t->leader = (uint8_t)x;
    if ((rc = rp__read_field(r, "suit", &v)) < 0 ||
        (rc = rp__span_choice(r, "suit", v, suit_names, 3, &k)) < 0)
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
    if (t->hand_number < 1)
        return rp_fail(err, RP_EINVAL, "hand: hands are numbered from 1");
    if (t->suit > KD_SUIT_CANNONS || t->trick_len >= n || t->over > 1 ||
        (t->over ? t->winner >= n : t->winner != 0))
        return rp_fail(err, RP_EINVAL, "suit, trick length or game end out of range");
    if (!(t->rng.inc & 1))
        return rp_fail(err, RP_EINVAL, "rng: the stream increment must be odd");
    for (int p = 0; p < KD_MAX_PLAYERS; p++) {
        if (p < n && (t->castle[p] < KD_CASTLE_MIN || t->castle[p] > KD_CASTLE_MAX))
            return rp_fail(err, RP_EINVAL, "castle: %d for seat %d is outside 1..8 (KD-1)",
                           t->castle[p], p);
        if (p >= n && (t->castle[p] || t->score[p] || t->hand[p] || t->voids[p]))
            return rp_fail(err, RP_EINVAL, "seat %d does not play but has values", p);
        if (t->voids[p] > (KD_VOID_WALLS | KD_VOID_CANNONS) || (t->hand[p] & ~KD_ALL))
            return rp_fail(err, RP_EINVAL, "voids or hand of seat %d out of range", p);
    }
    uint32_t trick = 0;
    for (int i = 0; i < KD_MAX_PLAYERS; i++) {
        if (i < t->trick_len ? t->trick[i] >= KD_CARDS : t->trick[i] != 0)
            return rp_fail(err, RP_EINVAL, "trick: card slot %d out of range", i);
        trick |= i < t->trick_len ? 1u << t->trick[i] : 0;
    }
    if (trick != t->trick_mask || popcount(trick) != t->trick_len)
        return rp_fail(err, RP_EINVAL, "trick: the card set does not match the cards played");
    if ((t->aside | t->played) & ~KD_ALL)
        return rp_fail(err, RP_EINVAL, "aside or played holds no card");
    for (int p = 0; p < 2; p++) {
        uint32_t up = 0, down = 0;
        int ups = 0, downs = 0;
        for (int i = 0; i < KD_PILES; i++) {
            const uint8_t top = t->pile_top[p][i], under = t->pile_under[p][i];
            if (n != 2 ? top || under
                       : (top != KD_NONE && top >= KD_CARDS) ||
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
        if (up != t->up[p] || down != t->down[p] || popcount(up) != ups || popcount(down) != downs)
            return rp_fail(err, RP_EINVAL, "table: a card of seat %d is listed twice", p);
    }
    return RP_OK;
}

/* Every card in exactly one place (hands, table, trick, aside, played), the cards set aside
 * KD-2 sets aside, and no seat holding more than it was dealt. */
static int check_cards(const kd_state *t, rp_error *err)
{
    const int dealt = hand_deal_size(t->players);
    for (int p = 0; p < t->players; p++)
        if (popcount(t->hand[p]) > dealt)
            return rp_fail(err, RP_EINVAL,
                           "hands: seat %d holds %d cards; a hand of %d "
                           "players is dealt %d (KD-2, KD-3)",
                           p, popcount(t->hand[p]), t->players, dealt);
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
                           long_names[lowest(seen & places[i])]);
        seen |= places[i];
    }
    if (seen != KD_ALL)
        return rp_fail(err, RP_EINVAL, "card %s is missing (all 26 must be somewhere)",
                       long_names[lowest(KD_ALL & ~seen)]);
    if (popcount(t->aside) != KD_CARDS % t->players)
        return rp_fail(err, RP_EINVAL, "aside: %d players set aside %d cards, not %d (KD-2)",
                       t->players, KD_CARDS % t->players, popcount(t->aside));
    return RP_OK;
}

/* Every seat holds as many cards as the trick position says; *start_count is the count each
 * seat had when the current trick started (0 once every card is out). */
static int check_counts(const kd_state *t, rp_error *err, int *start_count)
{
    const int n = t->players, len = t->trick_len;
    const int r = popcount(cards_left(t, t->leader)) + (len > 0);
    for (int i = 0; i < n; i++) {
        const int seat = seat_after(t, t->leader, i);
        const int want = i < len ? r - 1 : r;
        if (popcount(cards_left(t, seat)) != want)
            return rp_fail(err, RP_EINVAL,
                           "seat %d holds %d cards where the trick position needs %d", seat,
                           popcount(cards_left(t, seat)), want);
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
            return rp_fail(err, RP_EINVAL,
                           "voids: seat %d did not follow %s, so it must be marked void (KD-5)", p,
                           suit_names[t->suit]);
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
    if (t->last_len != t->players || popcount(mask) != t->players)
        return rp_fail(err, RP_EINVAL, "last: a finished trick has %d different cards", t->players);
    if (t->last_leader >= t->players || t->last_suit > KD_SUIT_CANNONS ||
        suit_from_cards(t->last, t->last_len, t->last_suit) != t->last_suit)
        return rp_fail(err, RP_EINVAL,
                       "last: leader or suit does not fit the trick's cards (KD-4)");
    const int should =
        t->last_suit == KD_SUIT_NONE
            ? (int)KD_NONE
            : seat_after(t, t->last_leader,
                         trick_winner_index(t->last, t->last_len, mask, t->last_suit));
    if (t->last_winner != should)
        return rp_fail(err, RP_EINVAL, "last: the winner of that trick is %s (KD-6, KD-7)",
                       should == KD_NONE ? "nobody (set aside)" : seat_names[should]);
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
    int winner;
    const bool decided = game_decided(t, &winner);
    if (start_count == 0 && !decided)
        return rp_fail(err, RP_EINVAL,
                       "every card is played but the scores do not end the "
                       "game (KD-9), so a new hand would have been dealt");
    if (start_count > 0 && decided)
        return rp_fail(err, RP_EINVAL,
                       "score: seat %d already won (KD-9), so no further hand is played", winner);
    if (t->over != (start_count == 0) || (t->over && t->winner != winner))
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
    if (t->leader != seat_after(t, t->dealer, 1))
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
static int kd_state_ok(const void *st, rp_error *err)
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
static int kd_state_from_text(void *st, const char *text, rp_error *err)
{
    kd_state t;
    memset(&t, 0, sizeof t);
    rp_reader r;
    int rc = rp__read_begin(&r, text, "kd1", err);
    if (rc == RP_OK)
        rc = read_fields(&r, &t);
    if (rc < 0)
        return rc;
    bool all_out = t.trick_len == 0;
    for (int p = 0; p < t.players; p++)
        all_out = all_out && cards_left(&t, p) == 0;
    int winner = 0;
    if (all_out && game_decided(&t, &winner)) {
        t.over = 1;
        t.winner = (uint8_t)winner;
    }
    if (kd_state_ok(&t, err) < 0)
        return RP_EPARSE;
    if ((rc = rp__read_canonical(&r, &rp_king_of_danger, &t)) < 0)
        return rc;
    memcpy(st, &t, sizeof t);
    return RP_OK;
}

/* ---- views ---- */

/* A seat of this game (not the spectator). */
static bool is_seat(const kd_state *s, int viewer)
{
    return viewer >= 0 && viewer < s->players;
}

/* The trick in progress within the hand, 1-based; once over, the last one. */
static int trick_in_hand(const kd_state *s)
{
    const int players = s->players;
    if (players <= 0) /* a state that passed state_ok always has players */
        return 1;
    /* clang 14's analyzer reports a division by zero here on a path where it notes itself that
     * players > 0: a false positive. */
    const int done = popcount(s->played) / players; /* NOLINT(clang-analyzer-core.DivideZero) */
    return s->over ? done : done + 1;
}

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

/* Two players: per seat, its face-up row (a name per pile, null where the pile is empty) and
 * its face-down row (true where a card lies face down under the face-up one: hidden from
 * everyone, its owner too, KD-P3). */
static cJSON *table_json(const kd_state *s)
{
    cJSON *seats = cJSON_CreateArray();
    for (int p = 0; p < 2; p++) {
        cJSON *row = cJSON_CreateObject(), *up = cJSON_CreateArray(), *down = cJSON_CreateArray();
        for (int i = 0; i < KD_PILES; i++) {
            const uint8_t top = s->pile_top[p][i];
            cJSON_AddItemToArray(up, top == KD_NONE ? cJSON_CreateNull()
                                                    : cJSON_CreateString(long_names[top]));
            cJSON_AddItemToArray(down, cJSON_CreateBool(s->pile_under[p][i] != KD_NONE));
        }
        cJSON_AddItemToObject(row, "face_up", up);
        cJSON_AddItemToObject(row, "face_down", down);
        cJSON_AddItemToArray(seats, row);
    }
    return seats;
}

/* What `viewer` may know (KD-10): their own hand; everyone's public cards, counts, values,
 * scores, known voids; never another hand or any face-down card. The spectator (or any
 * non-seat) gets the public part. The game's id is left out: it is also a card's name. */
static cJSON *kd_view_json(const void *st, int viewer)
{
    const kd_state *s = st;
    const int n = s->players;
    const bool seated = is_seat(s, viewer);
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "players", n);
    cJSON_AddItemToObject(v, "seat", seat_or_null(seated ? viewer : -1));
    cJSON_AddNumberToObject(v, "hand_number", s->hand_number);
    cJSON_AddNumberToObject(v, "trick_number", trick_in_hand(s));
    cJSON_AddNumberToObject(v, "tricks_per_hand", tricks_per_hand(n));
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
        cJSON_AddItemToObject(v, "hand", card_array(s->hand[viewer]));
    if (n == 2)
        cJSON_AddItemToObject(v, "table", table_json(s));
    cJSON_AddItemToObject(v, "aside", card_array(s->aside));
    cJSON_AddItemToObject(v, "played", card_array(s->played));
    if (s->last_len) {
        cJSON *last = cJSON_CreateObject();
        cJSON_AddItemToObject(last, "cards", trick_array(s, s->last, s->last_len, s->last_leader));
        cJSON_AddItemToObject(last, "suit", suit_or_null(s->last_suit));
        cJSON_AddItemToObject(last, "winner",
                              seat_or_null(s->last_winner == KD_NONE ? -1 : s->last_winner));
        cJSON_AddItemToObject(v, "last_trick", last);
    } else {
        cJSON_AddNullToObject(v, "last_trick");
    }
    return v;
}

/* ---- actions as data ---- */

/* The face-up pile of the seat to act that shows `card`, or -1 (two players, KD-3). */
static int pile_of(const kd_state *s, int seat, int card)
{
    if (s->players != 2 || !(s->up[seat] & (1u << card)))
        return -1;
    for (int i = 0; i < KD_PILES; i++)
        if (s->pile_top[seat][i] == card)
            return i;
    return -1;
}

/* {"kind": "play", "card": "wizard-5", "from": "hand" | "table", "pile": 0..3 (from the
 * table), "call": "walls" | "cannons" (a Wizard setting the trick suit, KD-P1)}. */
static cJSON *kd_action_json(const void *st, rp_action action)
{
    const kd_state *s = st;
    const unsigned card = KD_CARD_OF(action), call = KD_CALL_OF(action);
    if (card >= KD_CARDS || call > KD_SUIT_CANNONS)
        return NULL;
    const int seat = s->over ? 0 : kd_current_player(s), pile = pile_of(s, seat, (int)card);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", "play");
    cJSON_AddStringToObject(o, "card", long_names[card]);
    cJSON_AddStringToObject(o, "from", pile >= 0 ? "table" : "hand");
    if (pile >= 0)
        cJSON_AddNumberToObject(o, "pile", pile);
    if (call)
        cJSON_AddStringToObject(o, "call", suit_names[call]);
    return o;
}

/* ---- events ---- */

/* Card names of a set, ", "-separated, "none" when empty. */
static void put_names(rp_text *t, uint32_t mask)
{
    if (!mask)
        rp__text_str(t, "none");
    for (bool first = true; mask; mask &= mask - 1, first = false) {
        if (!first)
            rp__text_str(t, ", ");
        rp__text_str(t, long_names[lowest(mask)]);
    }
}

/* "key": [names] of cards in the order given / of a set. */
static void add_card_list(cJSON *e, const char *key, const uint8_t *cards, int n)
{
    const char *names[KD_CARDS];
    for (int i = 0; i < n; i++)
        names[i] = long_names[cards[i]];
    rp__event_names(e, key, names, n);
}

/* Append [names] of cards in the order given to an array (a row of face-up cards). */
static void add_card_list_to(cJSON *array, const uint8_t *cards, int n)
{
    cJSON *row = cJSON_CreateArray();
    for (int i = 0; row && i < n; i++)
        cJSON_AddItemToArray(row, cJSON_CreateString(long_names[cards[i]]));
    cJSON_AddItemToArray(array, row);
}

static void add_card_set(cJSON *e, const char *key, uint32_t mask)
{
    const char *names[KD_CARDS];
    int n = 0;
    for (; mask; mask &= mask - 1)
        names[n++] = long_names[lowest(mask)];
    rp__event_names(e, key, names, n);
}

static void add_per_seat(cJSON *e, const char *key, const int *values, int n)
{
    if (e)
        cJSON_AddItemToObject(e, key, cJSON_CreateIntArray(values, n));
}

/* What one story note tells `viewer`; before and after are the states around the action. */
typedef struct kd_telling {
    cJSON *events;
    const kd_state *before, *after;
    const kd_story *story;
    int viewer;
} kd_telling;

/* "Blue leads walls-3." A card from a hand was hidden until now: a reveal. */
static void tell_play(const kd_telling *tl, const kd_note *n)
{
    const bool from_table = n->pile >= 0;
    cJSON *e = rp__event(tl->events, "play", n->seat, "%s %s %s%s.", seat_names[n->seat],
                         tl->before->trick_len == 0 ? "leads" : "plays", long_names[n->card],
                         from_table ? " from the table" : "");
    add_card_list(e, "cards", &n->card, 1);
    if (!e)
        return;
    cJSON_AddStringToObject(e, "from", from_table ? "table" : "hand");
    if (from_table)
        cJSON_AddNumberToObject(e, "pile", n->pile);
    else
        rp__event_reveal(e);
}

/* KD-3: the face-down card under a played face-up card turns face up (hidden from everyone,
 * its owner too, until now: KD-P3). */
static void tell_flip(const kd_telling *tl, const kd_note *n)
{
    cJSON *e =
        rp__event(tl->events, "flip", n->seat, "Under %s, %s turns face up on %s's table (KD-3).",
                  long_names[n->played], long_names[n->card], seat_names[n->seat]);
    add_card_list(e, "cards", &n->card, 1);
    if (e)
        cJSON_AddNumberToObject(e, "pile", n->pile);
    rp__event_reveal(e);
}

/* KD-4: the first non-King card sets the trick suit; a Wizard's player names it. */
static void tell_suit(const kd_telling *tl, const kd_note *n)
{
    const char *suit = suit_titles[n->suit];
    cJSON *e =
        n->kind == NOTE_CALL
            ? rp__event(tl->events, "call", n->seat, "%s's %s names %s: this is a %s trick (KD-4).",
                        seat_names[n->seat], long_names[n->card], suit, suit)
            : rp__event(tl->events, "trick-suit", n->seat, "%s makes this a %s trick (KD-4).",
                        long_names[n->card], suit);
    add_card_list(e, "cards", &n->card, 1);
    if (e)
        cJSON_AddStringToObject(e, "suit", suit_names[n->suit]);
}

/* KD-5, KD-P2: a seat that does not follow has none of the suit in hand. */
static void tell_void(const kd_telling *tl, const kd_note *n)
{
    const char *name = seat_names[n->seat], *suit = suit_titles[n->suit];
    cJSON *e = rp__event(tl->events, "void", n->seat,
                         "%s does not follow %s, so %s holds no "
                         "%s card in hand for the rest of this hand (KD-P2).",
                         name, suit, name, suit);
    if (e)
        cJSON_AddStringToObject(e, "suit", suit_names[n->suit]);
}

/* KD-6: who won the trick and by which case. */
static void tell_won(const kd_telling *tl, const kd_note *n)
{
    static const char *const case_names[4] = {"king-of-danger", "king", "highest", "tie"};
    static const char *const condition[4] = {"", "a Walls card is in the trick",
                                             "a Cannons card is in the trick",
                                             "a Wizard is in the trick"};
    const char *who = seat_names[n->seat], *card = long_names[n->card];
    const char *suit = suit_titles[n->suit];
    char why[160];
    switch (n->why) {
    case WIN_DANGER:
        snprintf(why, sizeof why, "the King of Danger beats every other card");
        break;
    case WIN_KING:
        snprintf(why, sizeof why, "%s, and it is the last King played whose condition holds",
                 condition[n->card]);
        break;
    case WIN_TIE: {
        int tied = n->card;
        for (int i = 0; i < tl->story->trick_len; i++)
            if (((1u << tl->story->trick[i]) & KD_WIZARDS) &&
                card_rank[tl->story->trick[i]] == card_rank[n->card])
                tied = tl->story->trick[i];
        snprintf(why, sizeof why, "it ties %s, and the %s card wins the tie", long_names[tied],
                 suit);
        break;
    }
    default:
        snprintf(why, sizeof why, "the highest %s card or Wizard", suit);
        break;
    }
    cJSON *e = rp__event(tl->events, "trick-won", n->seat, "%s's %s wins the %s trick: %s (KD-6).",
                         who, card, suit, why);
    add_card_list(e, "cards", tl->story->trick, tl->story->trick_len);
    if (!e)
        return;
    cJSON_AddStringToObject(e, "card", card);
    cJSON_AddStringToObject(e, "suit", suit_names[n->suit]);
    cJSON_AddStringToObject(e, "case", case_names[n->why]);
    cJSON_AddNumberToObject(e, "leader", tl->before->leader);
}

/* KD-7: a trick of Kings only scores nothing and its leader leads again. */
static void tell_set_aside(const kd_telling *tl, const kd_note *n)
{
    cJSON *e = rp__event(tl->events, "trick-set-aside", n->seat,
                         "Only Kings were played, so "
                         "the trick is set aside: no castle changes, and %s leads again (KD-7).",
                         seat_names[n->seat]);
    add_card_list(e, "cards", tl->story->trick, tl->story->trick_len);
}

/* KD-8: a castle tracker moves (or stays at 1 or 8, KD-1). */
static void tell_castle(const kd_telling *tl, const kd_note *n)
{
    static const char *const reasons[3] = {
        "for winning the Walls trick", "for playing a Walls card", "for losing the Cannons trick"};
    const char *who = seat_names[n->seat];
    const char *reason = reasons[n->why];
    cJSON *e;
    if (n->to == n->from)
        e = rp__event(tl->events, "castle", n->seat,
                      "%s's castle stays at %d, the %s value (%+d %s, KD-8).", who, n->to,
                      n->change > 0 ? "highest" : "lowest", n->change, reason);
    else
        e = rp__event(tl->events, "castle", n->seat, "%s's castle %s from %d to %d (%+d %s, KD-8).",
                      who, n->to > n->from ? "rises" : "falls", n->from, n->to, n->change, reason);
    if (!e)
        return;
    cJSON_AddNumberToObject(e, "from", n->from);
    cJSON_AddNumberToObject(e, "to", n->to);
    cJSON_AddNumberToObject(e, "change", n->change);
}

/* KD-9: each castle value goes onto its owner's score. */
static void tell_hand_over(const kd_telling *tl, const kd_note *n)
{
    const kd_state *s = tl->after;
    char text[400];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    int castle[KD_MAX_PLAYERS], score[KD_MAX_PLAYERS];
    for (int p = 0; p < s->players; p++) {
        castle[p] = s->castle[p];
        score[p] = (int)s->score[p];
        rp__text_put(&t, "%s%s adds %d to reach %d", p ? ", " : "", seat_names[p], castle[p],
                     score[p]);
    }
    cJSON *e =
        rp__event(tl->events, "hand-over", -1, "Hand %d is over: %s (KD-9).", n->value, text);
    if (!e)
        return;
    cJSON_AddNumberToObject(e, "hand", n->value);
    add_per_seat(e, "castle", castle, s->players);
    add_per_seat(e, "score", score, s->players);
}

/* The seats with the highest score, "Blue and Red" style, into t; returns how many. */
static int put_leaders(rp_text *t, const kd_state *s, uint32_t top, int *seats)
{
    int k = 0;
    for (int p = 0; p < s->players; p++)
        if (s->score[p] == top)
            seats[k++] = p;
    for (int i = 0; i < k; i++)
        rp__text_put(t, "%s%s", i == 0 ? "" : i == k - 1 ? " and " : ", ", seat_names[seats[i]]);
    return k;
}

/* KD-9, KD-14: 31 reached but the highest score is shared: another hand. */
static void tell_tie(const kd_telling *tl, const kd_note *n)
{
    const uint32_t top = tl->after->score[n->seat];
    char names[80];
    int seats[KD_MAX_PLAYERS];
    rp_text t;
    rp__text_init(&t, names, sizeof names);
    const int k = put_leaders(&t, tl->after, top, seats);
    cJSON *e = rp__event(tl->events, "tie", -1,
                         "%s share the highest score, %" PRIu32 ", so "
                         "another hand is played (KD-9, KD-14).",
                         names, top);
    add_per_seat(e, "seats", seats, k);
    if (e)
        cJSON_AddNumberToObject(e, "score", top);
}

/* KD-9: the game ends with a sole highest score of 31 or more. */
static void tell_game_over(const kd_telling *tl, const kd_note *n)
{
    const kd_state *s = tl->after;
    char others[200];
    rp_text t;
    rp__text_init(&t, others, sizeof others);
    int score[KD_MAX_PLAYERS];
    for (int p = 0, k = 0; p < s->players; p++) {
        score[p] = (int)s->score[p];
        if (p != n->seat)
            rp__text_put(&t, "%s%s %d", k++ ? ", " : "", seat_names[p], score[p]);
    }
    cJSON *e = rp__event(tl->events, "game-over", n->seat,
                         "%s wins the game with %d points, "
                         "the only highest score, at 31 or more (KD-9); %s.",
                         seat_names[n->seat], score[n->seat], others);
    if (!e)
        return;
    cJSON_AddNumberToObject(e, "winner", n->seat);
    add_per_seat(e, "score", score, s->players);
}

/* KD-2, KD-3: a new hand. Each seat is told its own hand, everyone the counts and the cards
 * dealt face up. */
static void tell_deal(const kd_telling *tl, const kd_note *n)
{
    const kd_state *s = tl->after;
    char text[480];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    if (s->players == 2) {
        rp__text_str(&t, "deals each player 4 face-down cards, each topped by a face-up card, "
                         "and a hand of 5 (KD-3). Face up");
        for (int p = 0; p < 2; p++) {
            rp__text_put(&t, "%s %s's table: ", p ? "; on" : " on", seat_names[p]);
            for (int i = 0; i < KD_PILES; i++)
                rp__text_put(&t, "%s%s", i ? ", " : "", long_names[s->pile_top[p][i]]);
        }
    } else {
        rp__text_put(&t, "deals %d cards to each player and sets aside face up: ",
                     hand_deal_size(s->players));
        put_names(&t, s->aside);
        rp__text_str(&t, " (KD-2)");
    }
    if (is_seat(s, tl->viewer)) {
        rp__text_str(&t, ". Your hand: ");
        put_names(&t, s->hand[tl->viewer]);
    }
    cJSON *e = rp__event(tl->events, "deal", n->seat, "Hand %d: %s %s.", n->value,
                         seat_names[n->seat], text);
    if (is_seat(s, tl->viewer))
        add_card_set(e, "cards", s->hand[tl->viewer]);
    rp__event_reveal(e);
    if (!e)
        return;
    int held[KD_MAX_PLAYERS];
    for (int p = 0; p < s->players; p++)
        held[p] = popcount(s->hand[p]);
    cJSON_AddNumberToObject(e, "hand", n->value);
    add_per_seat(e, "hand_sizes", held, s->players);
    if (s->players == 2) {
        cJSON *rows = cJSON_AddArrayToObject(e, "face_up");
        for (int p = 0; rows && p < 2; p++)
            add_card_list_to(rows, s->pile_top[p], KD_PILES);
    } else {
        add_card_set(e, "aside", s->aside);
    }
}

static void tell_turn(const kd_telling *tl, const kd_note *n)
{
    if (n->value)
        rp__event(tl->events, "turn", n->seat, "%s leads the next trick.", seat_names[n->seat]);
    else
        rp__event(tl->events, "turn", n->seat, "%s to play.", seat_names[n->seat]);
}

/* The events of a legal action for one viewer: the rules run on a copy of `before` with a
 * story, and each note becomes an event. Every card named is public after the action (played,
 * flipped, dealt face up) or the viewer's own (their new hand). */
static cJSON *kd_events_json(const void *before, rp_action action, int viewer)
{
    static void (*const tell[])(const kd_telling *, const kd_note *) = {
        [NOTE_PLAY] = tell_play,           [NOTE_FLIP] = tell_flip,
        [NOTE_SUIT] = tell_suit,           [NOTE_CALL] = tell_suit,
        [NOTE_VOID] = tell_void,           [NOTE_WON] = tell_won,
        [NOTE_SET_ASIDE] = tell_set_aside, [NOTE_CASTLE] = tell_castle,
        [NOTE_HAND_OVER] = tell_hand_over, [NOTE_TIE] = tell_tie,
        [NOTE_GAME_OVER] = tell_game_over, [NOTE_DEAL] = tell_deal,
        [NOTE_TURN] = tell_turn,
    };
    kd_state after;
    kd_story story;
    memcpy(&after, before, sizeof after);
    memset(&story, 0, sizeof story);
    play_card(&after, action, &story);
    kd_telling tl = {cJSON_CreateArray(), before, &after, &story, viewer};
    if (!tl.events)
        return NULL;
    for (int i = 0; i < story.count; i++)
        tell[story.notes[i].kind](&tl, &story.notes[i]);
    return tl.events;
}

/* ---- why a move is not legal ---- */

/* Where a card the seat to act cannot play is, as far as that seat may know: never which
 * hidden place (another hand, or face down anywhere, KD-P3). */
static void explain_not_held(const kd_state *s, int seat, int card, rp_text *t)
{
    const uint32_t bit = 1u << card;
    const char *name = long_names[card];
    if (s->trick_mask & bit)
        rp__text_put(t, "%s is already in this trick", name);
    else if (s->played & bit)
        rp__text_put(t, "%s was played earlier in this hand", name);
    else if (s->aside & bit)
        rp__text_put(t, "%s is set aside face up this hand (KD-2)", name);
    else if (s->players == 2 && (s->up[1 - seat] & bit))
        rp__text_put(t, "%s lies face up on %s's table, not yours", name, seat_names[1 - seat]);
    else if (s->players == 2)
        rp__text_put(t, "you do not have %s in hand or face up on your table", name);
    else
        rp__text_put(t, "you do not have %s in hand", name);
}

/* Why `action` is not legal for the seat to act, in the game's terms: the card is not theirs
 * to play, they must follow suit (naming the cards that follow), or the Wizard's call is
 * missing or not allowed (KD-4, KD-5, KD-P1). Returns -1 when it is legal. */
static int kd_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const kd_state *s = st;
    const unsigned card = KD_CARD_OF(action), call = KD_CALL_OF(action);
    rp_text t;
    rp__text_init(&t, buf, size);
    if (s->over)
        return -1;
    const int seat = kd_current_player(s);
    const uint32_t bit = 1u << card, avail = playable_from(s, seat);
    if (action >= KD_NUM_ACTIONS || card >= KD_CARDS || call > KD_SUIT_CANNONS) {
        rp__text_put(&t, "action %u is no play of a card", (unsigned)action);
    } else if (!(avail & bit)) {
        explain_not_held(s, seat, (int)card, &t);
    } else if (s->suit != KD_SUIT_NONE && !(bit & suit_cards[s->suit]) &&
               (avail & suit_cards[s->suit])) {
        rp__text_put(&t, "you must follow %s: you hold ", suit_titles[s->suit]);
        put_names(&t, avail & suit_cards[s->suit]);
        rp__text_str(&t, " (KD-5)");
    } else if (call && !(bit & KD_WIZARDS)) {
        rp__text_put(&t, "only a Wizard names the trick suit: play %s without a call",
                     long_names[card]);
    } else if (call && s->suit != KD_SUIT_NONE) {
        rp__text_put(&t, "the trick suit is already %s: play %s without a call (KD-P1)",
                     suit_titles[s->suit], long_names[card]);
    } else if (!call && (bit & KD_WIZARDS) && s->suit == KD_SUIT_NONE) {
        rp__text_put(&t, "%s sets the trick suit: play it naming walls or cannons (KD-4)",
                     long_names[card]);
    } else {
        return -1;
    }
    return rp__text_finish(&t);
}

/* The cards `viewer` may not learn: other seats' hands (every hand, for the spectator) and
 * every face-down card, the viewer's own included (KD-10, KD-P3) — less the cards of the last
 * trick, which at a new hand is the old hand's: its cards are shown there and dealt again. */
static int kd_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    const kd_state *s = st;
    uint32_t hidden = s->players == 2 ? s->down[0] | s->down[1] : 0;
    for (int q = 0; q < s->players; q++)
        if (q != viewer)
            hidden |= s->hand[q];
    for (int i = 0; i < s->last_len && i < KD_MAX_PLAYERS; i++)
        hidden &= ~(1u << s->last[i]);
    rp_text t;
    rp__text_init(&t, buf, size);
    for (bool first = true; hidden; hidden &= hidden - 1, first = false) {
        if (!first)
            rp__text_ch(&t, ' ');
        rp__text_str(&t, long_names[lowest(hidden)]);
    }
    return rp__text_finish(&t);
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

/* Resample the other hands (every hand, for the spectator) and every face-down card, the
 * viewer's own too (KD-10, KD-P3), among the cards `player` has not seen, keeping hand sizes,
 * pile shapes and known voids (KD-P2); reseed the deal rng. */
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
    const char *code = bit & KD_KINGS     ? "1;36"
                       : bit & KD_WALLS   ? "33"
                       : bit & KD_CANNONS ? "31"
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

/* A trick as "Blue walls-3, Red wizard-5". */
static void put_trick(const kd_state *s, FILE *out, const uint8_t *cards, int len, int leader,
                      bool color)
{
    for (int i = 0; i < len; i++) {
        fprintf(out, "%s%s ", i ? ", " : "", seat_names[seat_after(s, leader, i)]);
        put_card(out, cards[i], color);
    }
}

/* Two players: both tables, face-down cards shown only as such (KD-10, KD-P3). */
static void render_table(const kd_state *s, int viewer, FILE *out, bool color)
{
    for (int p = 0; p < 2; p++) {
        fprintf(out, "  %s's table%s:", seat_names[p], p == viewer ? " (yours)" : "");
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

/* Draw what `viewer` sees (exactly what its view holds): scores, castle values and counts,
 * the table or the cards set aside, the last trick, then what matters now: the trick and its
 * suit, the viewer's hand and whose turn it is. */
static void kd_render(const void *st, int viewer, FILE *out, bool color)
{
    const kd_state *s = st;
    const int n = s->players, to_act = kd_current_player(s);
    const bool seated = is_seat(s, viewer);
    fprintf(out, "King of Danger - hand %u, trick %d of %d, %s deals, game to 31\n",
            (unsigned)s->hand_number, trick_in_hand(s), tricks_per_hand(n), seat_names[s->dealer]);
    fputs("  seat          score  castle  in hand  known void\n", out);
    for (int p = 0; p < n; p++) {
        char name[24];
        snprintf(name, sizeof name, "%s%s", seat_names[p], p == viewer ? " (you)" : "");
        fprintf(out, "%s %-12s %5" PRIu32 "  %6d  %7d  %s%s\n", p == to_act ? ">" : " ", name,
                s->score[p], s->castle[p], popcount(s->hand[p]),
                s->voids[p] & KD_VOID_WALLS ? "walls " : "",
                s->voids[p] & KD_VOID_CANNONS ? "cannons" : "");
    }
    if (n == 2) {
        render_table(s, viewer, out, color);
    } else {
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
            fprintf(out, " - %s trick, won by %s\n", suit_titles[s->last_suit],
                    seat_names[s->last_winner]);
    }
    if (s->over) {
        fprintf(out, "Game over: %s wins with %" PRIu32 " points.\n", seat_names[s->winner],
                s->score[s->winner]);
        return;
    }
    fprintf(out, "  Trick (suit: %s): ", suit_titles[s->suit]);
    if (s->trick_len == 0)
        fprintf(out, "%s leads", seat_names[s->leader]);
    put_trick(s, out, s->trick, s->trick_len, s->leader, color);
    fputs("\n", out);
    if (seated) {
        fputs("  Your hand: ", out);
        put_cards(out, s->hand[viewer], color);
        fputs("\n", out);
    }
    fprintf(out, "%s to play%s.\n", seat_names[to_act], to_act == viewer ? " (you)" : "");
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

/* ---- observation tensor (for learning agents; layout in docs/python.md) ----
 * What one seat may see (the same things as its view, KD-10), as floats. Seats are relative:
 * slot 0 is the observer, slot k the seat k places to its left; slots past the players stay 0.
 * Cards are one-hot over the 26 card ids of king_of_danger.h. */
enum {
    KD_OBS_PLAYERS = 0,                                            /* [4] 2..5 players */
    KD_OBS_HAND = KD_OBS_PLAYERS + 4,                              /* [26] */
    KD_OBS_TRICK = KD_OBS_HAND + KD_CARDS,                         /* [5][26] */
    KD_OBS_SUIT = KD_OBS_TRICK + KD_MAX_PLAYERS * KD_CARDS,        /* [3] */
    KD_OBS_LEADER = KD_OBS_SUIT + 3,                               /* [5] */
    KD_OBS_TO_ACT = KD_OBS_LEADER + KD_MAX_PLAYERS,                /* [5] */
    KD_OBS_DEALER = KD_OBS_TO_ACT + KD_MAX_PLAYERS,                /* [5] */
    KD_OBS_CASTLE = KD_OBS_DEALER + KD_MAX_PLAYERS,                /* [5] */
    KD_OBS_SCORE = KD_OBS_CASTLE + KD_MAX_PLAYERS,                 /* [5] */
    KD_OBS_HELD = KD_OBS_SCORE + KD_MAX_PLAYERS,                   /* [5] */
    KD_OBS_VOIDS = KD_OBS_HELD + KD_MAX_PLAYERS,                   /* [5][2] */
    KD_OBS_PLAYED = KD_OBS_VOIDS + 2 * KD_MAX_PLAYERS,             /* [26] */
    KD_OBS_ASIDE = KD_OBS_PLAYED + KD_CARDS,                       /* [26] */
    KD_OBS_TABLE_UP = KD_OBS_ASIDE + KD_CARDS,                     /* [2][4][26] */
    KD_OBS_TABLE_DOWN = KD_OBS_TABLE_UP + 2 * KD_PILES * KD_CARDS, /* [2][4] */
    KD_OBS_LAST = KD_OBS_TABLE_DOWN + 2 * KD_PILES,                /* [5][26] */
    KD_OBS_LAST_SUIT = KD_OBS_LAST + KD_MAX_PLAYERS * KD_CARDS,    /* [3] */
    KD_OBS_LAST_WINNER = KD_OBS_LAST_SUIT + 3,                     /* [6] */
    KD_OBS_NUMBERS = KD_OBS_LAST_WINNER + KD_MAX_PLAYERS + 1,      /* [3] */
    KD_OBS_WINNER = KD_OBS_NUMBERS + 3,                            /* [5] */
    KD_OBS_SIZE = KD_OBS_WINNER + KD_MAX_PLAYERS
};

/* One field a line: */
/* clang-format off */
static const rp_obs_field kd_obs_fields[] = {
    {"players", KD_OBS_PLAYERS, {4, 1, 1}, "one-hot: 2, 3, 4 or 5 players"},
    {"hand", KD_OBS_HAND, {KD_CARDS, 1, 1}, "1 for each card in your hand"},
    {"trick", KD_OBS_TRICK, {KD_MAX_PLAYERS, KD_CARDS, 1},
     "per relative seat: 1 for the card it played to the current trick"},
    {"trick_suit", KD_OBS_SUIT, {3, 1, 1}, "one-hot: trick suit not set yet, Walls, Cannons"},
    {"leader", KD_OBS_LEADER, {KD_MAX_PLAYERS, 1, 1},
     "one-hot relative seat that led (or leads) the current trick"},
    {"to_act", KD_OBS_TO_ACT, {KD_MAX_PLAYERS, 1, 1},
     "one-hot relative seat to play (all 0 once over)"},
    {"dealer", KD_OBS_DEALER, {KD_MAX_PLAYERS, 1, 1}, "one-hot relative seat that dealt this hand"},
    {"castle", KD_OBS_CASTLE, {KD_MAX_PLAYERS, 1, 1}, "per relative seat: castle value / 8"},
    {"score", KD_OBS_SCORE, {KD_MAX_PLAYERS, 1, 1}, "per relative seat: score / 31"},
    {"hand_size", KD_OBS_HELD, {KD_MAX_PLAYERS, 1, 1},
     "per relative seat: cards in hand / 13 (two players: table cards not counted)"},
    {"voids", KD_OBS_VOIDS, {KD_MAX_PLAYERS, 2, 1},
     "per relative seat: known void in Walls, in Cannons (KD-P2)"},
    {"played", KD_OBS_PLAYED, {KD_CARDS, 1, 1}, "1 for each card of this hand's finished tricks"},
    {"aside", KD_OBS_ASIDE, {KD_CARDS, 1, 1}, "1 for each card set aside face up this hand"},
    {"table_up", KD_OBS_TABLE_UP, {2, KD_PILES, KD_CARDS},
     "two players, per relative seat and pile: one-hot face-up card (all 0: pile empty)"},
    {"table_down", KD_OBS_TABLE_DOWN, {2, KD_PILES, 1},
     "two players, per relative seat and pile: 1 while a card lies face down under it"},
    {"last_trick", KD_OBS_LAST, {KD_MAX_PLAYERS, KD_CARDS, 1},
     "per relative seat: 1 for the card it played to the last finished trick"},
    {"last_trick_suit", KD_OBS_LAST_SUIT, {3, 1, 1},
     "one-hot suit of the last finished trick: none, Walls, Cannons (all 0: no last trick)"},
    {"last_trick_winner", KD_OBS_LAST_WINNER, {KD_MAX_PLAYERS + 1, 1, 1},
     "one-hot relative seat that won the last trick, or slot 5: it was set aside (KD-7)"},
    {"numbers", KD_OBS_NUMBERS, {3, 1, 1},
     "hand number / 10, trick number in the hand / 13, 1 once the game is over"},
    {"winner", KD_OBS_WINNER, {KD_MAX_PLAYERS, 1, 1}, "one-hot relative seat that won (once over)"},
};
/* clang-format on */

/* The slot of `seat` as `player` sees the table. */
static int kd_obs_slot(const kd_state *s, int player, int seat)
{
    return seat >= player ? seat - player : seat - player + s->players;
}

static void kd_obs_cards(float *out, uint32_t mask)
{
    for (; mask; mask &= mask - 1)
        out[lowest(mask)] = 1.0f;
}

/* The cards of a trick (current or last) from its leader on, by the slot of who played them. */
static void kd_obs_trick(const kd_state *s, int player, float *out, const uint8_t *cards, int len,
                         int leader)
{
    for (int i = 0; i < len; i++)
        out[kd_obs_slot(s, player, seat_after(s, leader, i)) * KD_CARDS + cards[i]] = 1.0f;
}

static void kd_observation_tensor(const void *st, int player, float *out)
{
    const kd_state *s = st;
    const int n = s->players;
    memset(out, 0, KD_OBS_SIZE * sizeof *out);
    out[KD_OBS_PLAYERS + n - 2] = 1.0f;
    kd_obs_cards(out + KD_OBS_HAND, s->hand[player]);
    kd_obs_trick(s, player, out + KD_OBS_TRICK, s->trick, s->trick_len, s->leader);
    out[KD_OBS_SUIT + s->suit] = 1.0f;
    out[KD_OBS_LEADER + kd_obs_slot(s, player, s->leader)] = 1.0f;
    if (!s->over)
        out[KD_OBS_TO_ACT + kd_obs_slot(s, player, kd_current_player(s))] = 1.0f;
    out[KD_OBS_DEALER + kd_obs_slot(s, player, s->dealer)] = 1.0f;
    for (int p = 0; p < n; p++) {
        const int k = kd_obs_slot(s, player, p);
        out[KD_OBS_CASTLE + k] = (float)s->castle[p] / 8.0f;
        out[KD_OBS_SCORE + k] = (float)s->score[p] / 31.0f;
        out[KD_OBS_HELD + k] = (float)popcount(s->hand[p]) / 13.0f;
        out[KD_OBS_VOIDS + 2 * k] = (s->voids[p] & KD_VOID_WALLS) ? 1.0f : 0.0f;
        out[KD_OBS_VOIDS + 2 * k + 1] = (s->voids[p] & KD_VOID_CANNONS) ? 1.0f : 0.0f;
    }
    kd_obs_cards(out + KD_OBS_PLAYED, s->played);
    kd_obs_cards(out + KD_OBS_ASIDE, s->aside);
    if (n == 2)
        for (int p = 0; p < 2; p++) {
            const int k = kd_obs_slot(s, player, p);
            for (int i = 0; i < KD_PILES; i++) {
                if (s->pile_top[p][i] != KD_NONE)
                    out[KD_OBS_TABLE_UP + (k * KD_PILES + i) * KD_CARDS + s->pile_top[p][i]] = 1;
                out[KD_OBS_TABLE_DOWN + k * KD_PILES + i] = s->pile_under[p][i] != KD_NONE;
            }
        }
    if (s->last_len) {
        kd_obs_trick(s, player, out + KD_OBS_LAST, s->last, s->last_len, s->last_leader);
        out[KD_OBS_LAST_SUIT + s->last_suit] = 1.0f;
        out[KD_OBS_LAST_WINNER +
            (s->last_winner == KD_NONE ? KD_MAX_PLAYERS : kd_obs_slot(s, player, s->last_winner))] =
            1.0f;
    }
    out[KD_OBS_NUMBERS] = (float)s->hand_number / 10.0f;
    out[KD_OBS_NUMBERS + 1] = (float)trick_in_hand(s) / 13.0f;
    out[KD_OBS_NUMBERS + 2] = s->over ? 1.0f : 0.0f;
    if (s->over)
        out[KD_OBS_WINNER + kd_obs_slot(s, player, s->winner)] = 1.0f;
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
    .seat_names = seat_names,
    .ai_levels = {"iters=200", "iters=1000", "iters=3000"},
    .init = kd_init,
    .num_players = kd_num_players,
    .current_player = kd_current_player,
    .turn_number = kd_turn_number,
    .legal_actions = kd_legal_actions,
    .apply = kd_apply,
    .returns = kd_returns,
    .action_to_text = kd_action_to_text,
    .action_from_text = kd_action_from_text,
    .state_to_text = kd_state_to_text,
    .state_from_text = kd_state_from_text,
    .state_ok = kd_state_ok,
    .config_of = kd_config_of,
    .view_json = kd_view_json,
    .determinize = kd_determinize,
    .render = kd_render,
    .action_json = kd_action_json,
    .events_json = kd_events_json,
    .explain_illegal = kd_explain_illegal,
    .secret_names = kd_secret_names,
    .evaluate = kd_evaluate,
    .observe_action = NULL,
    .observation_size = KD_OBS_SIZE,
    .observation_fields = kd_obs_fields,
    .num_observation_fields = (int)(sizeof kd_obs_fields / sizeof kd_obs_fields[0]),
    .observation_tensor = kd_observation_tensor,
};
