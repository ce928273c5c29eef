/* internal.h — Danger at the Walls, internal (not installed): the flat state, card faces and
 * action layout, and the functions and tables the game's files (rules.c, text.c, view.c,
 * learn.c, game.c) and its tests share. The files call one way, each only those before it in
 * that order (docs/adding-a-game.md). Formats and data forms: docs/games/danger-at-the-walls.md. */
#ifndef RP_GAMES_DANGER_AT_THE_WALLS_INTERNAL_H
#define RP_GAMES_DANGER_AT_THE_WALLS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ramparts/game.h"

struct cJSON;

enum { DW_BLUE = 0, DW_RED = 1 };
enum { DW_WALLS = 5, DW_HAND = 6, DW_PERSONAL = 8, DW_MAIN = 21 };

/* Card faces. Cards with the same face are interchangeable (one action per face), so hands,
 * piles and sides hold counts or lists of faces, never card identities. */
enum {
    DW_A1,
    DW_A2,
    DW_A3, /* Archers of strength 1, 2, 3 */
    DW_C5,
    DW_C6,
    DW_C7,
    DW_C8,
    DW_C9, /* Cannons of strength 5..9 */
    DW_FLAG,
    DW_ATTACK, /* Flag, Cannon Attack */
    DW_GENERAL,
    DW_NOBLE,
    DW_ENGINEER,
    DW_ASSASSIN, /* Blue's leaders */
    DW_KING,
    DW_WIZARD,
    DW_BUILDER,
    DW_SPY, /* Red's leaders */
    DW_FACES
};

/* What the Spy covers: an Archer face, a Blue leader face, or the Cannon at spy_depth. */
#define DW_SPY_ON_CANNON 0x20

/* At most seven Cannons on one seat's side of a wall: all of that seat's Cannons, the main
 * deck's five and its personal deck's two. */
enum { DW_STACK = 7 };

/* One seat's cards at the five walls. Each field is a row of eight bytes, byte w for wall w
 * (bytes 5..7 stay zero), so one 64-bit load reads a field at every wall: the legal plays test
 * all five walls at once (rules.c). dw_side_at gathers one wall's side for the rest. */
typedef struct dw_camp {
    uint8_t archers[3][8]; /* [value - 1][wall]: active Archers (a spied one is not counted) */
    uint8_t ncannon[8];    /* [wall]: height of the Cannon stack (DW-5) */
    uint8_t leaders[8];    /* [wall]: bit (face - DW_GENERAL) for each Leader there */
    /* Kept with the cards above for DW-7 after every play (state_ok checks them):
     * power[wall], the active Archers' values summed (dw_archer_power); top[wall], the value
     * printed on the top Cannon (dw_cannon_value), 0 without one. */
    uint8_t power[8];
    uint8_t top[8];
    uint8_t cannon[DW_WALLS][8]; /* [wall][i]: the stack's faces, bottom first; the top is
                                    [ncannon - 1] */
} dw_camp;

/* One side of one wall, gathered from a camp (dw_side_at): what the notation, the views and
 * the tensor read; the hot path reads the camps' rows. */
typedef struct dw_side {
    uint8_t archers[3]; /* active Archers by value (a spied Archer is not counted here) */
    uint8_t ncannon;    /* height of the Cannon stack (DW-5) */
    uint8_t cannon[8];  /* stack faces, bottom first; the top is cannon[ncannon-1] */
    uint8_t leaders;    /* bit (face - DW_GENERAL) for each Leader on this side */
} dw_side;

enum { DW_PHASE_PLAY = 0, DW_PHASE_REFILL = 1 };

/* Why the turn in progress is the last one (DW-12): not yet, the third Flag is on the board,
 * or the other player ended a turn with an empty hand (and both decks empty). */
enum { DW_LAST_NO = 0, DW_LAST_FLAGS = 1, DW_LAST_EMPTY_HAND = 2 };

/* No game lasts longer: every turn plays at least one of the 49 cards. */
enum { DW_MAX_TURNS = 49 };

/* The whole game, no pointers. Decks are lists with their top at the end. */
typedef struct dw_state {
    rp_rng rng;                /* used by setup; kept for the contract */
    dw_camp camp[2];           /* each seat's cards at the walls */
    uint8_t hand[2][DW_FACES]; /* counts per face */
    uint8_t hand_n[2];
    uint8_t personal[2][DW_PERSONAL];
    uint8_t personal_n[2];
    uint8_t main[DW_MAIN];
    uint8_t main_n;
    uint8_t control[DW_WALLS]; /* DW_BLUE or DW_RED */
    uint8_t flag[DW_WALLS];    /* 0 none, else 1 + the seat that played it */
    uint8_t flags_on_board;
    uint8_t removed[2][DW_FACES]; /* face-up removed pile, by the seat the card belonged to */
    uint8_t spy_wall;             /* 0: Spy not in play; else 1 + wall */
    uint8_t spy_on;               /* an Archer or Blue leader face, or DW_SPY_ON_CANNON */
    uint8_t spy_depth;            /* stack index of the spied Cannon */
    uint8_t to_move;              /* seat to act */
    uint8_t phase;                /* DW_PHASE_PLAY or DW_PHASE_REFILL */
    uint8_t last_turn;            /* DW_LAST_*: why this turn is the last one (DW-12) */
    uint8_t over;
    uint8_t turn;    /* the turn in progress, 1-based; Blue's turns are odd */
    int8_t actor;    /* to_move, or RP_TERMINAL once over: current_player's answer in one load
                        (dw_set_actor after either changes; state_ok checks it) */
    uint8_t pad_[2]; /* explicit and zero, so equal states are equal bytes */
} dw_state;

/* actor from to_move and over. */
static inline void dw_set_actor(dw_state *s)
{
    s->actor = (int8_t)(s->over ? RP_TERMINAL : s->to_move);
}

/* Action integers (all below DW_NUM_ACTIONS = 1880; walls w are 0..4 here, 1..5 in text):
 *
 *   range        meaning                                    notation
 *   0..1714      Archers: w*343 + n1*49 + n2*7 + n3         archers 1+1+3 wall 2
 *                (n_v Archers of value v, 1..6 in all)
 *   1715..1739   Cannon: 1715 + w*5 + (value-5)             cannon 7 wall 2
 *   1740..1744   Flag: 1740 + w                             flag wall 2
 *   1745..1754   Cannon Attack: 1745 + w*2 + t              attack cannon wall 2 /
 *                (t 0 = top Cannon, 1 = all Archers)        attack archers wall 2
 *   1755..1784   Leader: 1755 + w*6 + l (l 0..5 = General,  king wall 2
 *                Noble, Engineer, King, Wizard, Builder)
 *   1785..1819   Spy: 1785 + w*7 + t (t 0..2 Archer 1..3,   spy archer 2 wall 2 /
 *                3 top Cannon, 4..6 General/Noble/Eng.)     spy cannon wall 2 / spy noble wall 2
 *   1820..1859   Assassin: 1820 + w*8 + t (t 0..2 Archer    assassin archer 1 wall 2 /
 *                1..3, 3 top Cannon, 4..6 King/Wizard/      assassin king wall 2 /
 *                Builder, 7 Spy)                            assassin spy wall 2
 *   1860..1877   Discard (DW-4): 1860 + face                discard cannon 6
 *   1878, 1879   Refill one card from the personal or       draw personal / draw main
 *                main deck (DW-11)
 */
enum {
    DW_ACT_ARCHERS = 0,     /* + wall*343 + n1*49 + n2*7 + n3 */
    DW_ACT_CANNON = 1715,   /* + wall*5 + (value-5) */
    DW_ACT_FLAG = 1740,     /* + wall */
    DW_ACT_ATTACK = 1745,   /* + wall*2 + (0 cannon, 1 archers) */
    DW_ACT_LEADER = 1755,   /* + wall*6 + (General, Noble, Engineer, King, Wizard, Builder) */
    DW_ACT_SPY = 1785,      /* + wall*7 + (Archer 1,2,3, Cannon, General, Noble, Engineer) */
    DW_ACT_ASSASSIN = 1820, /* + wall*8 + (Archer 1,2,3, Cannon, King, Wizard, Builder, Spy) */
    DW_ACT_DISCARD = 1860,  /* + face */
    DW_ACT_DRAW_PERSONAL = 1878,
    DW_ACT_DRAW_MAIN = 1879,
    DW_NUM_ACTIONS = 1880
};

extern const rp_game rp_danger_at_the_walls;
/* The game's id and the version tag of its full-state notation: the rp_game's .id and
 * .notation_tag, also written by view.c (the view's "game") and text.c (the notation), which
 * use nothing of game.c. */
#define DW_ID "danger-at-the-walls"
#define DW_NOTATION_TAG "dw2"

/* The bit of a leader face in a camp's or a side's leaders. */
#define LB(face) (1u << ((face)-DW_GENERAL))

/* ---- the cards (rules.c, text.c) ---- */

/* The main deck's cards by face (33, with both Flags), the personal decks' (rules.c). */
extern const uint8_t dw_main0[DW_FACES];
extern const uint8_t dw_personal0[2][DW_FACES];
/* Whether rules.c's card-by-card deck lists hold the cards of dw_main0 and dw_personal0. */
bool dw_deck_lists_agree(void);
/* The wall and the card's face that apply reads from its tables for a Cannon or a Leader action
 * (rules.c; the tests hold them against dw_decode). */
void dw_play_place(rp_action a, int *wall, int *face);
/* Leader action index l -> face (rules.c). */
extern const uint8_t dw_leader_face[6];
/* Card names, one word each as views, events, the state notation and secret_names spell them;
 * seats as one word in data; the phases and the attack targets by name (text.c). */
extern const char *const dw_card_name[DW_FACES];
extern const char *const dw_seat_word[2];
extern const char *const dw_phase_name[2];
extern const char *const dw_attack_target[2];
/* The cards, and the targets of the Spy and the Assassin, as the move notation writes them
 * ("discard cannon 6", "spy archer 2 wall 1") (text.c). */
extern const char *const dw_face_words[DW_FACES];
extern const char *const dw_spy_target[7];
extern const char *const dw_assassin_target[8];
/* Seats in sentences and on the screen: Blue and Red (text.c). */
extern const char *const dw_seat_names[2];

/* ---- board queries (rules.c) ---- */

/* The Spy covers this wall's Blue top Cannon (DW-8): that Cannon counts for nothing. */
static inline bool dw_spy_on_top_cannon(const dw_state *s, int w)
{
    return s->spy_wall == w + 1 && s->spy_on == DW_SPY_ON_CANNON &&
           s->spy_depth + 1 == s->camp[DW_BLUE].ncannon[w];
}
/* DW-7's A of Archers counted by value (1, 2, 3), and the strength printed on a Cannon. */
static inline int dw_archer_power(const uint8_t archers[3])
{
    return archers[0] + 2 * archers[1] + 3 * archers[2];
}
static inline int dw_cannon_value(int face)
{
    return face - DW_C5 + 5;
}
/* Wall w's side of `seat`, gathered from the seat's camp (rules.c). */
dw_side dw_side_at(const dw_state *s, int w, int seat);
/* Store a side, gathered as dw_side_at gives it, into the seat's camp at wall w; its stack is
 * at most DW_STACK high (rules.c). */
void dw_set_side(dw_state *s, int w, int seat, const dw_side *sd);
/* Strength of `seat` at `wall` under DW-7. */
int dw_strength(const dw_state *s, int wall, int seat);
/* Whether the Spy is visible: not buried under a newer Blue Cannon (DW-9, DW-P2). */
bool dw_spy_visible(const dw_state *s);
/* How many walls `seat` controls (three or more win, DW-12). */
int dw_walls_of(const dw_state *s, int seat);
/* The winner of a finished game (DW-12: three walls or more). */
int dw_winner(const dw_state *s);
/* The Archers of a side by value, a spied one included (the Spy says which it covers). */
void dw_side_archers(const dw_state *s, int w, int seat, uint8_t *counts);
/* The face the Spy covers (a Cannon by its face). */
int dw_spied_face(const dw_state *s);
/* Counts per face of the cards `seat` has put into play: its sides of the walls, the Flags it
 * played, its removed pile, and the Spy on the board for Red. */
void dw_played_by(const dw_state *s, int seat, uint8_t *out);
/* Add the cards of q's hand and personal deck to counts. */
void dw_add_held(const dw_state *s, int q, uint8_t *counts);

/* A seat (0 or 1) sees its own hand and its own personal deck's contents; anything else is
 * treated as the spectator, who sees only what is public: the seat, or -1. */
static inline int dw_viewer_seat(int viewer)
{
    return viewer == DW_BLUE || viewer == DW_RED ? viewer : -1;
}

/* ---- actions taken apart (text.c) ---- */

enum { K_ARCHERS, K_CANNON, K_FLAG, K_ATTACK, K_LEADER, K_SPY, K_ASSASSIN, K_DISCARD, K_DRAW };

/* An action taken apart: what it plays from the hand, where, and at what. */
typedef struct dw_move {
    int kind;                /* K_* */
    int wall;                /* 0..4, or -1 */
    int target;              /* attack: 0 Cannon, 1 Archers; spy: 0..6 and assassin: 0..7 as
                                in the action table; draw: 0 personal, 1 main; else -1 */
    uint8_t cards[DW_FACES]; /* the cards it takes from the hand, by face */
} dw_move;
/* Take an action id apart (the layout in the action table above). */
dw_move dw_decode(rp_action a);
/* The face of the card a Spy or Assassin play aims at in s; for a Cannon the top of the stack,
 * or -1 when there is none. */
int dw_target_face(const dw_state *s, const dw_move *m);

/* Counted cards for a sentence, copies as on the screen: "archer-1 x2 and archer-3" (text.c:
 * explanations and events say it). */
const char *dw_cards_text(char *buf, size_t size, const uint8_t *counts);

/* ---- the observation tensor's layout (learn.c writes it; docs/python.md) ---- */
enum {
    DW_OBS_HAND = 0,                                         /* [18] */
    DW_OBS_PERSONAL = DW_OBS_HAND + DW_FACES,                /* [18] */
    DW_OBS_REMOVED = DW_OBS_PERSONAL + DW_FACES,             /* [2][18] */
    DW_OBS_SIDE_SIZE = 3 + 8 * 5 + 8 + 1,                    /* one side of a wall */
    DW_OBS_WALL_SIZE = 2 + 3 + 2 * DW_OBS_SIDE_SIZE,         /* one wall */
    DW_OBS_WALLS = DW_OBS_REMOVED + 2 * DW_FACES,            /* [5][109] */
    DW_OBS_SPY = DW_OBS_WALLS + DW_WALLS * DW_OBS_WALL_SIZE, /* [26] */
    DW_OBS_COUNTS = DW_OBS_SPY + 6 + DW_FACES + 2,           /* [9] */
    DW_OBS_TURN = DW_OBS_COUNTS + 9,                         /* [12] */
    DW_OBS_SIZE = DW_OBS_TURN + 12
};
#define DW_OBS_FIELDS 7 /* the named slices of dw_obs_fields */
extern const rp_obs_field dw_obs_fields[];

/* ---- the rp_game hooks, each in the file of its kind; game.c puts them in the table
 * (config_of is game.c's own) ---- */

/* rules.c */
int dw_init(void *st, const rp_config *cfg, rp_error *err);
int dw_num_players(const void *st);
int dw_current_player(const void *st);
int dw_turn_number(const void *st);
int dw_legal_actions(const void *st, rp_action *out);
void dw_apply(void *st, rp_action a);
void dw_returns(const void *st, double *out);
/* text.c */
int dw_action_to_text(const void *st, rp_action a, char *buf, size_t size);
int dw_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err);
int dw_state_to_text(const void *st, char *buf, size_t size);
int dw_state_from_text(void *st, const char *text, rp_error *err);
int dw_state_ok(const void *st, rp_error *err);
int dw_explain_illegal(const void *st, rp_action action, char *buf, size_t size);
/* view.c */
struct cJSON *dw_action_json(const void *st, rp_action action);
struct cJSON *dw_view_json(const void *st, int viewer);
struct cJSON *dw_events_json(const void *before, rp_action action, int viewer);
int dw_secret_names(const void *st, int viewer, char *buf, size_t size);
void dw_render(const void *st, int viewer, FILE *out, bool color);
int dw_moves_summary(const void *st, char *buf, size_t size);
/* learn.c */
void dw_determinize(void *st, int viewer, rp_rng *rng);
void dw_reseed(void *st, rp_rng *rng);
double dw_evaluate(const void *st, int player);
void dw_observation_tensor(const void *st, int player, float *out);
/* The features a fitted evaluation weighs (learn.c; scripts/dw-positions.c writes them):
 * locked walls, open walls controlled, the open walls' strength margin, open walls held by 5
 * or more, holding three walls, the same late and before the last Flag, who plays next, Flags
 * in hand that can lock a held wall, the same late, Cannon Attacks in hand, open walls as the
 * main deck runs out; each the player's side less the other's where it has two sides. */
enum { DW_EVAL_FEATURES = 12 };
void dw_eval_features(const dw_state *s, int player, double x[DW_EVAL_FEATURES]);

#endif
