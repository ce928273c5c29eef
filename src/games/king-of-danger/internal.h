/* internal.h — King of Danger, internal (not installed): the state, the action layout, the
 * narration records and what the game's files (rules.c, text.c, view.c, learn.c, game.c) and its
 * tests share. Cards are ids 0..25 and sets of cards are 26-bit masks, so following suit, King
 * conditions and "every card accounted for" are single mask operations. */
#ifndef RP_GAMES_KING_OF_DANGER_INTERNAL_H
#define RP_GAMES_KING_OF_DANGER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/bits.h"
#include "ramparts/game.h"

struct cJSON;
struct rp_text;

/* Card ids:  0 King of Danger, 1 King of Walls, 2 King of Cannons, 3 King of Wizards,
 *            4..10 Walls 1-7, 11..17 Cannons 1-7, 18..25 Wizards 1-8. */
#define KD_CARDS 26
#define KD_NONE 0xFFu
enum {
    KD_KING_DANGER = 0,
    KD_KING_WALLS = 1,
    KD_KING_CANNONS = 2,
    KD_KING_WIZARDS = 3,
    KD_WALLS_1 = 4,
    KD_CANNONS_1 = 11,
    KD_WIZARD_1 = 18
};
#define KD_ALL ((1u << KD_CARDS) - 1u)
#define KD_KINGS 0xFu
#define KD_WALLS (0x7Fu << KD_WALLS_1)
#define KD_CANNONS (0x7Fu << KD_CANNONS_1)
#define KD_WIZARDS (0xFFu << KD_WIZARD_1)

/* Trick suit (KD-4); also the "call" of a Wizard in an action. */
enum { KD_SUIT_NONE = 0, KD_SUIT_WALLS = 1, KD_SUIT_CANNONS = 2 };
/* Known voids (public, KD-5/KD-10): bit set when a seat failed to follow that suit this hand. */
enum { KD_VOID_WALLS = 1, KD_VOID_CANNONS = 2 };

#define KD_MAX_PLAYERS 5
#define KD_PILES 4 /* two-player table piles per seat (KD-3) */

/* The whole game. Fields after the masks are small integers; the struct is memset to 0 before
 * it is filled, so equal states are equal bytes. Masks marked "derived" are recomputed by
 * state_from_text from the fields that the notation writes; state_ok checks they agree. */
typedef struct kd_state {
    rp_rng rng;                     /* drives every later deal */
    uint32_t hand[KD_MAX_PLAYERS];  /* cards in each hand (hidden from others) */
    uint32_t up[2], down[2];        /* two players: face-up / face-down table cards (derived) */
    uint32_t aside;                 /* cards set aside this hand, face up (KD-2) */
    uint32_t played;                /* cards of this hand's finished tricks */
    uint32_t trick_mask;            /* cards of the current trick (derived) */
    uint32_t score[KD_MAX_PLAYERS]; /* paper scores (KD-9) */
    uint16_t hand_number;           /* 1 for the first hand */
    uint8_t players, dealer, leader, trick_len, suit;
    uint8_t over, winner; /* winner is meaningful only when over (derived); KD_NONE: a draw
                           * after a short game's one hand (KD-P6) */
    uint8_t to_act;       /* the seat to play, leader + trick_len around the table (derived:
                           * kept so that current_player, legal_actions and apply read it) */
    uint8_t castle[KD_MAX_PLAYERS];  /* castle values 1..8 (KD-1) */
    uint8_t voids[KD_MAX_PLAYERS];   /* KD_VOID_* bits */
    uint8_t trick[KD_MAX_PLAYERS];   /* cards of the current trick from the leader on */
    uint8_t pile_top[2][KD_PILES];   /* two players: face-up card of each pile or KD_NONE */
    uint8_t pile_under[2][KD_PILES]; /* two players: face-down card under it or KD_NONE */
    uint8_t last[KD_MAX_PLAYERS];    /* last finished trick, shown into the next hand */
    uint8_t last_len, last_leader, last_suit;
    uint8_t last_winner; /* KD_NONE: the last trick was set aside (KD-7) */
    /* The short game (KD-P6), 0 for the rulebook's: 1 + the piles of its two-player deal, its
     * hand cards, and the hand after which it ends (1, derived: a short game is one hand). */
    uint8_t short_piles, short_hand;
    uint16_t last_hand;
} kd_state;

/* Action layout (num_actions = 96):
 *
 *   bits 0-4  card id 0..25 (above)
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

extern const rp_game rp_king_of_danger;
/* The game's id and the version tag of its full-state notation: the rp_game's .id and
 * .notation_tag, also written by view.c (the view's "game") and text.c (the notation), which
 * use nothing of game.c. */
#define KD_ID "king-of-danger"
#define KD_NOTATION_TAG "kd1"

/* ---- card tables (rules.c, text.c, game.c) ---- */

/* The cards' names: moves, the full-state notation, views and events all spell them so. */
extern const char *const kd_long_names[KD_CARDS];
/* Number on each card (Kings have none). */
extern const uint8_t kd_card_rank[KD_CARDS];
/* The cards that follow a trick suit (KD-5, KD-11: Kings never count as a suit), and the void
 * bit of each suit. */
extern const uint32_t kd_suit_cards[3];
extern const uint8_t kd_suit_void_bit[3];
/* KD-6 (3)'s order by trick suit: kd_win_key[suit][card] is twice the card's number, plus one
 * for a card of the trick suit (it wins a tie with a Wizard); 0 for Kings and off-suit numbers,
 * which never win by number (KD-11, KD-13). */
extern const uint8_t kd_win_key[3][KD_CARDS];
/* Suits by name in data and in sentences (text.c). */
extern const char *const kd_suit_names[3];
extern const char *const kd_suit_titles[3];
/* Seats for people: Blue, Red, Green, Gold, Purple (text.c). */
extern const char *const kd_seat_names[KD_MAX_PLAYERS];

/* Bit helpers for card masks (a dozen instructions at most each, no call: core/bits.h). */
static inline int kd_popcount(uint32_t m)
{
    return rp__popcount32(m);
}

/* The lowest card id in a non-empty mask. */
static inline int kd_lowest(uint32_t m)
{
    return __builtin_ctz(m);
}

/* Cards a seat still holds: hand plus, with two players, its table cards. */
static inline uint32_t kd_cards_left(const kd_state *s, int seat)
{
    uint32_t m = s->hand[seat];
    if (s->players == 2)
        m |= s->up[seat] | s->down[seat];
    return m;
}

/* Cards a seat may play from (KD-3: hand and face-up table cards). */
static inline uint32_t kd_playable_from(const kd_state *s, int seat)
{
    return s->players == 2 ? s->hand[seat] | s->up[seat] : s->hand[seat];
}

/* The seat `steps` places to the left (steps <= 2 * players). */
static inline int kd_seat_after(const kd_state *s, int seat, int steps)
{
    int x = seat + steps;
    while (x >= s->players)
        x -= s->players;
    return x;
}

/* The seat that plays place `place` (0 for the leader) of the current trick: the hot path's
 * kd_seat_after. A valid state has leader < players and place < players (state_ok), so the
 * sum is below 2 * players and one conditional subtraction wraps it, with no loop. */
static inline int kd_trick_seat(const kd_state *s, int place)
{
    const int x = s->leader + place;
    return x >= s->players ? x - s->players : x;
}

/* Cards dealt into each hand of the rulebook's deal (KD-2; two players 5, KD-3). */
static inline int kd_hand_deal_size(int players)
{
    return players == 2 ? 5 : KD_CARDS / players;
}

/* The short game's deal (KD-P6): its piles per seat and its hand cards, the rulebook's (4 and
 * 5, KD-3) unless a short option is set; 0 piles and KD-2's hands with three or more. */
static inline int kd_piles(const kd_state *s)
{
    if (s->players != 2)
        return 0;
    return s->short_piles ? s->short_piles - 1 : KD_PILES;
}

static inline int kd_hand_cards(const kd_state *s)
{
    if (s->players != 2)
        return kd_hand_deal_size(s->players);
    return s->short_hand ? s->short_hand : kd_hand_deal_size(2);
}

/* Tricks in a hand (KD-P4): every card dealt is played; a short deal (KD-P6) deals fewer. */
static inline int kd_tricks_in_hand(const kd_state *s)
{
    return s->players == 2 ? 2 * kd_piles(s) + kd_hand_cards(s) : KD_CARDS / s->players;
}

/* The order a short deal (KD-P6) takes its deck in: a Walls, a Cannons and a Wizard of each
 * number, rising, with a King after each of the first four numbers, so that any deck of it
 * mixes the four kinds of card as the whole deck does. */
extern const uint8_t kd_short_order[KD_CARDS];
/* The cards of this game's deck: all 26, or the first 2 x tricks of kd_short_order. */
uint32_t kd_deck(const kd_state *s);

/* The rows of the option table (game.c), read by init (rules.c). */
enum { KD_OPT_DEALER, KD_OPT_DEAL };
/* The short game's option value (KD-P6), "P+H": a short game's deal as written, into buf. */
void kd_deal_text(const kd_state *s, char *buf, size_t size);

/* ---- narration: what one action did, for events_json ----
 * Given a story, the rules write a structured note for each thing that happens, in order;
 * events_json turns the notes into sentences for one viewer. apply gives no story, and the
 * rules are inlined into apply (KD_INLINE, rules.c), so the compiler drops every note there: the hot
 * path does no string work and pays nothing for the narration. */
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

/* ---- shared between the game's files ---- */

/* rules.c: play a legal action telling `story` what happened (events_json); apply is the
 * same steps untold. */
void kd_play(kd_state *s, rp_action action, kd_story *story);
/* rules.c: the index of the winning card (KD-6) of a finished trick whose suit is set; mask
 * is the set of its cards. */
int kd_trick_winner_index(const uint8_t *trick, int len, uint32_t mask, int suit);
/* rules.c: true when the scores end the game (KD-9): some score >= 31 and the highest not
 * shared; sets *winner to the seat with the highest score. */
bool kd_game_decided(const kd_state *s, int *winner);
/* rules.c: true when the game ends at the end of this hand: decided (KD-9), or a short game's
 * one hand (KD-P6), where *winner is KD_NONE when the highest score is shared (a draw). */
bool kd_game_ends(const kd_state *s, int *winner);
/* text.c: the card names of a set, ", "-separated, "none" when empty. */
void kd_put_names(struct rp_text *t, uint32_t mask);
/* view.c: the trick in progress within the hand, 1-based; once over, the last one. */
int kd_trick_in_hand(const kd_state *s);

/* ---- the observation tensor's layout (learn.c writes it; docs/python.md) ---- */
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
#define KD_OBS_FIELDS 20 /* the named slices of kd_obs_fields */
extern const rp_obs_field kd_obs_fields[];

/* ---- the rp_game hooks, each in the file of its kind; game.c puts them in the table
 * (config_of is game.c's own) ---- */

/* rules.c */
int kd_init(void *st, const rp_config *cfg, rp_error *err);
int kd_num_players(const void *st);
int kd_current_player(const void *st);
int kd_turn_number(const void *st);
int kd_legal_actions(const void *st, rp_action *out);
void kd_apply(void *st, rp_action action);
void kd_returns(const void *st, double *out);
/* text.c */
int kd_action_to_text(const void *st, rp_action action, char *buf, size_t size);
int kd_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err);
int kd_state_to_text(const void *st, char *buf, size_t size);
int kd_state_from_text(void *st, const char *text, rp_error *err);
int kd_state_ok(const void *st, rp_error *err);
int kd_explain_illegal(const void *st, rp_action action, char *buf, size_t size);
/* view.c */
struct cJSON *kd_action_json(const void *st, rp_action action);
struct cJSON *kd_view_json(const void *st, int viewer);
struct cJSON *kd_events_json(const void *before, rp_action action, int viewer);
int kd_secret_names(const void *st, int viewer, char *buf, size_t size);
void kd_render(const void *st, int viewer, FILE *out, bool color);
/* learn.c */
void kd_determinize(void *st, int player, rp_rng *rng);
void kd_determinize_seats(void *st, uint32_t viewers, rp_rng *rng);
void kd_reseed(void *st, rp_rng *rng);
double kd_evaluate(const void *st, int player);
/* The features kd_evaluate weighs where its fit is kept (learn.c; scripts/kd-positions.c
 * writes them for fitting): lead of score and castle over the best other seat / 4, score
 * lead, castle lead, castle lead times the share of the hand still to play, castle lead times
 * the share of the 31 points still needed, Kings and high cards it may play less its share of
 * those it has not seen, lead times the share of 31 reached. */
#define KD_EVAL_FEATURES 8
void kd_eval_features(const kd_state *s, int player, double x[KD_EVAL_FEATURES]);
double kd_score(const void *st, int seat);
void kd_observation_tensor(const void *st, int player, float *out);

#endif
