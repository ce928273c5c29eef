/* internal.h — Walls and Armies, internal (not installed): the flat state, the action
 * integers, the narration records and the functions the game's files (rules.c, text.c, view.c,
 * learn.c, game.c) and its tests share. Rules as implemented: docs/rules/walls-and-armies.md;
 * implementer notes: docs/games/walls-and-armies.md. */
#ifndef RP_GAMES_WALLS_AND_ARMIES_INTERNAL_H
#define RP_GAMES_WALLS_AND_ARMIES_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/bits.h"
#include "ramparts/game.h"

struct cJSON;
struct rp_text;

/* Cards are 0..51: card = rank_index * 4 + suit, rank_index 0..12 for 2..10, J, Q, K, A and
 * suits C, D, H, S. Value = rank_index + 2, so J Q K A are 11 12 13 14 (the rulings' table). */
#define WA_CARDS 52
#define WA_ALL_CARDS ((UINT64_C(1) << WA_CARDS) - 1)
#define WA_FIRST_FACE 36  /* J of clubs: every card from here on is a face card */
#define WA_MAX_SHIELDS 16 /* only 16 face cards exist, and only they become shields */
#define WA_NONE 0xFFu
#define WA_DRAW 2
#define WA_DEFAULT_CAP 200
#define WA_MAX_CAP 10000
/* Cards one action can turn face up: a wall and an army card (or a counter), then the
 * replenish flips of the turns it ends — at most 16 face cards (shields only accumulate while
 * no one attacks) and 2 number cards (after which someone holds army cards): 20. */
#define WA_MAX_REVEALED 20

/* The action integers (num_actions = 122). The rulebook's order (WA-P1): "Pick one of the
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
#define WA_ACT_WALL 0u      /* + wall index (0..51): attack that wall with the next army card */
#define WA_ACT_SHIELD 52u   /* + shield index (0..15): attack that shield with it */
#define WA_ACT_STACK 68u    /* + stack index (0..51): stack the next army card on that stack */
#define WA_ACT_LEAVE 120u   /* defender leaves the stack alone */
#define WA_ACT_COUNTER 121u /* defender counter-attacks with the top of their army deck */
#define WA_NUM_ACTIONS 122u

/* WA_ATTACK: the attacker chooses where their next (still hidden) army card goes; apply then
 * flips it (rulebook order). WA_DEFEND: the defender answers a stack that did not win. */
enum { WA_ATTACK = 0, WA_DEFEND = 1, WA_OVER = 2 };

typedef struct wa_player {
    uint8_t walls[WA_CARDS]; /* laid out individually, in order; face up when in faceup */
    uint8_t army[WA_CARDS];  /* the army deck, top = army[narmy - 1] */
    uint8_t shields[WA_MAX_SHIELDS];
    uint8_t nwalls, narmy, nshields;
} wa_player;

/* Every card is in exactly one place: the main deck, the discard pile, a player's walls,
 * shields or army deck, or one of the attacker's stacks. Unused slots of every array are
 * zero, so equal states are equal bytes. */
typedef struct wa_state {
    rp_rng rng;        /* all chance after the deal: reshuffles (WA-6) */
    uint64_t discard;  /* the discard pile, as a set (public, WA-8) */
    uint64_t faceup;   /* walls currently turned face up */
    uint64_t seen;     /* face-down walls both players have seen: turned up earlier (WA-5 turns
                    * them down again) or captured army cards (WA-14); public, as memory */
    uint64_t targeted; /* cards one of the attacker's stacks is against (WA-9) */
    uint64_t stack_cards[WA_CARDS]; /* the attacker's unresolved stacks, as sets */
    uint8_t stack_target[WA_CARDS]; /* the opponent card each stack is against */
    uint8_t stack_total[WA_CARDS];  /* the sum of the stack's values */
    uint8_t deck[WA_CARDS];         /* the main deck, top = deck[ndeck - 1] */
    /* The cards the last action turned face up, in order (public: everyone saw them, even
     * those a reshuffle has since hidden again); what its events may name. */
    uint8_t revealed[WA_MAX_REVEALED];
    wa_player p[2];
    uint16_t turn, cap; /* the turn in progress (1-based) and the turn cap */
    uint8_t ndeck, nstacks, attacker, phase, nrevealed;
    uint8_t pending; /* stack the defender is asked about (WA_DEFEND), else WA_NONE */
    uint8_t winner;  /* 0, 1, WA_DRAW once over, else WA_NONE */
    /* The seat to act, kept so current_player (asked before every action) is one load: the
     * attacker when attacking, the defender when defending, RP_TERMINAL once over; follows from
     * attacker and phase (wa_state_ok checks it; the notation does not write it). */
    int8_t to_act;
} wa_state;

extern const rp_game rp_walls_and_armies;
/* The game's id and the version tag of its full-state notation: the rp_game's .id and
 * .notation_tag, also written by view.c (the view's "game") and text.c (the notation), which
 * use nothing of game.c. */
#define WA_ID "walls-and-armies"
#define WA_NOTATION_TAG "wa1"
/* Seats in sentences and on the screen: Blue and Red (text.c). */
extern const char *const wa_seat_names[2];

/* Deal a new game from a main deck given top card first (order[0] is flipped first): the
 * setup of WA-1, the first player of WA-2 (coin from rng); the first attacker then chooses. */
void wa_deal(wa_state *s, const uint8_t order[WA_CARDS], int turn_cap, const rp_rng *rng);
/* The same with a deck of the first `ncards` cards only (the deck option, WA-P8): order holds
 * them. */
void wa_deal_cards(wa_state *s, const uint8_t *order, int ncards, int turn_cap, const rp_rng *rng);
/* The cards in play in s, wherever they are: the deck it was dealt from (WA-P8). */
uint64_t wa_cards_in_play(const wa_state *s);

/* Card notation ("7H", "10D", "QS") both ways; parse returns the card or -1. */
int wa_card_from_text(const char *text, size_t len);
void wa_card_to_text(int card, char out[4]);

#define WA_BIT(c) (UINT64_C(1) << (c))

/* A seat's name for sentences and the screen: Blue or Red (WA-P6). */
static inline const char *wa_seat_name(int seat)
{
    return wa_seat_names[seat];
}

/* The rulings' values: 2..10 as printed, J Q K A = 11 12 13 14. */
static inline int wa_card_value(int card)
{
    return card / 4 + 2;
}

/* Face cards (J, Q, K, A) become shields wherever a flip would deal cards. */
static inline bool wa_is_face(int card)
{
    return card >= WA_FIRST_FACE;
}

/* The seat to act from attacker and phase (what wa_state.to_act keeps): the attacker attacks,
 * the defender answers a stack that did not win (WA-4); RP_TERMINAL once over. */
static inline int wa_seat_to_act(const wa_state *s)
{
    _Static_assert(WA_ATTACK == 0 && WA_DEFEND == 1, "the phase picks the seat");
    return s->phase == WA_OVER ? RP_TERMINAL : s->attacker ^ s->phase;
}

/* ------------------------------------------------------------------------------------------
 * Narration. The rules (rules.c) record what they do into an optional log: apply passes NULL,
 * so the hot path pays one pointer test per record; events_json (view.c) replays the action
 * on a copy with a log and turns the records into sentences. Records hold only numbers. */

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

/* The rows of the option table (game.c), read by init (rules.c). */
enum { OPT_TURN_CAP, OPT_DECK };

/* The smallest deck of the deck option (WA-P8): its lowest cards, 2C 2D 2H 2S 3C 3D. */
#define WA_MIN_DECK 6

/* ------------------------------------------------------------------------------------------
 * The observation tensor's layout (learn.c writes it; the fields are described there and in
 * docs/python.md): per card its channels, per wall slot two flags, then counts and the turn. */
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
#define WA_OBS_FIELDS 4 /* the named slices of wa_obs_fields */

/* ------------------------------------------------------------------------------------------
 * Shared between the game's files */

/* rules.c: play a legal action, narrating into log when there is one (NULL: apply). */
void wa_play(wa_state *s, rp_action action, wa_log *log);
/* rules.c: the cards of `set` in ascending order into out[0..n), n returned; out[n..WA_CARDS)
 * must be zero and are zero again on return. */
int wa_cards_ascending(uint64_t set, uint8_t out[WA_CARDS]);
/* rules.c: close up entry i of a byte array of `size` (>= 16) whose entries past `last` are
 * zero: entries i+1..last move down one place, entry last becomes zero (a wall, shield or
 * stack removed, WA-P2's order kept). */
void wa_close_up(uint8_t *list, int size, int i, int last);
/* rules.c: position of card in a list of n, or -1. */
int wa_list_find(const uint8_t *list, int n, int card);

/* text.c: a card appended to notation text ("7H"). */
void wa_put_card(struct rp_text *t, int card);
/* text.c: the phases by name, indexed by WA_ATTACK, WA_DEFEND, WA_OVER. */
extern const char *const wa_phase_names[3];

/* view.c: the cards in hidden places (face-down walls, army decks, the main deck). */
uint64_t wa_hidden_cards(const wa_state *s);

/* learn.c: the named slices of the observation tensor (WA_OBS_FIELDS of them). */
extern const rp_obs_field wa_obs_fields[];

/* The rp_game hooks, each in the file of its kind; game.c puts them in the table (config_of
 * is game.c's own). */
/* rules.c */
int wa_init(void *st, const rp_config *cfg, rp_error *err);
int wa_num_players(const void *st);
int wa_current_player(const void *st);
int wa_turn_number(const void *st);
int wa_legal_actions(const void *st, rp_action *out);
void wa_apply(void *st, rp_action action);
void wa_returns(const void *st, double *out);
/* text.c */
int wa_action_to_text(const void *st, rp_action a, char *buf, size_t size);
int wa_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err);
int wa_explain_illegal(const void *st, rp_action a, char *buf, size_t size);
int wa_state_to_text(const void *st, char *buf, size_t size);
int wa_state_from_text(void *st, const char *text, rp_error *err);
int wa_state_ok(const void *st, rp_error *err);
/* view.c */
struct cJSON *wa_action_json(const void *st, rp_action a);
struct cJSON *wa_view_json(const void *st, int viewer);
int wa_secret_names(const void *st, int viewer, char *buf, size_t size);
struct cJSON *wa_events_json(const void *before, rp_action action, int viewer);
void wa_render(const void *st, int viewer, FILE *out, bool color);
/* learn.c */
void wa_determinize(void *st, int viewer, rp_rng *rng);
double wa_evaluate(const void *st, int player);
/* The features a fitted evaluation weighs for `player`, from the public view only (WA-8;
 * learn.c, scripts/wa-positions.c writes them for fitting): walls, walls of 2 or fewer,
 * shields and army cards (each the player's less the opponent's), the mean known strength of
 * the walls, who attacks, the attacking side's army cards, walls times the share of the turn
 * cap played. */
#define WA_EVAL_FEATURES 8
void wa_eval_features(const wa_state *s, int player, double x[WA_EVAL_FEATURES]);
void wa_observation_tensor(const void *st, int player, float *out);

#endif
