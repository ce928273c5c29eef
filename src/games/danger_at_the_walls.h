/* danger_at_the_walls.h — internal header of Danger at the Walls: the flat state struct, card
 * faces and action layout, shared by the game file and its tests (not installed). Formats and
 * data forms: docs/games/danger-at-the-walls.md. */
#ifndef RP_DANGER_AT_THE_WALLS_H
#define RP_DANGER_AT_THE_WALLS_H

#include <stdint.h>

#include "ramparts/game.h"

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

/* One side of one wall. */
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
    uint8_t hand[2][DW_FACES]; /* counts per face */
    uint8_t hand_n[2];
    uint8_t personal[2][DW_PERSONAL];
    uint8_t personal_n[2];
    uint8_t main[DW_MAIN];
    uint8_t main_n;
    dw_side side[DW_WALLS][2];
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
    uint8_t pad_[9]; /* explicit and zero, so equal states are equal bytes */
} dw_state;

/* Action layout (see the table in danger_at_the_walls.c). */
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

/* Strength of `seat` at `wall` under DW-7 (exposed for tests). */
int dw_strength(const dw_state *s, int wall, int seat);

#endif
