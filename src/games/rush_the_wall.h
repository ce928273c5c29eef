/* rush_the_wall.h — internal header of Rush the Wall: the flat state, card kinds, phases and
 * action layout, shared by the game (rush_the_wall.c) and its tests. Not installed. */
#ifndef RP_RUSH_THE_WALL_H
#define RP_RUSH_THE_WALL_H

#include <stdint.h>

#include "ramparts/game.h"

#define RTW_KINDS 9  /* warriors per clan, one of each kind (RW-2) */
#define RTW_FORTS 18 /* three rounds of six (RW-3) */
#define RTW_SLOTS 6  /* positions of The Wall */
#define RTW_ROUNDS 3
#define RTW_DRAW 7       /* warriors a player clan draws each round (RW-5) */
#define RTW_MAX_CLANS 4  /* RW-1 */
#define RTW_NONE 0xFF    /* an empty wall position or slot */
#define RTW_LEGION_WIN 3 /* Legions that win at once (RW-10, RW-18) */

/* Warrior kinds; the index is also the bit in every warrior mask. */
enum rtw_warrior {
    RTW_FILCHY,
    RTW_QWEEN,
    RTW_DRUHID,
    RTW_ZVORD,
    RTW_ARCHR,
    RTW_HORSIE,
    RTW_AXX,
    RTW_CHARIOTT,
    RTW_LAIRD
};

enum rtw_fort_kind { RTW_UNWARY, RTW_SIGNAL, RTW_TAX, RTW_LEGION, RTW_DINARY, RTW_FORT_KINDS };

/* Who must decide what; every state that is not over waits for one clan's decision. */
enum rtw_phase {
    RTW_PLAN,        /* actor places its next warrior (RW-5) */
    RTW_ZVORD_PLACE, /* actor re-places its hidden warriors after Zvord */
    RTW_QWEEN_PICK,  /* actor's Qween picks a rival warrior (RW-7) */
    RTW_DRUHID_PICK, /* actor (capturer) picks a fort of The Wall (RW-9) */
    RTW_SIGNAL_PICK, /* actor discards a face-up warrior for the Signal Fort (RW-10) */
    RTW_TAX_PICK,    /* actor (capturer) pays one of its forts (RW-17) */
    RTW_AXX_PICK,    /* actor (capturer) keeps or drops its Axx (RW-9) */
    RTW_HORSIE_PICK, /* actor discards a face-up warrior for its Horsie (RW-9) */
    RTW_OVER,
    RTW_PHASES
};

/* Action integers (all below RTW_NUM_ACTIONS):
 *   id       meaning                                          notation
 *   0..8     place warrior kind k in the next slot            "place axx"
 *   9        somebody placed a warrior (observe_action only)  "place hidden"
 *   10..13   the Qween charms clan c's revealed warrior       "charm red"
 *   14..19   the Dru'hid takes the fort at wall position p    "take 4"   (1-based)
 *   20..28   discard face-up warrior kind k                   "discard horsie"
 *   29..46   pay (discard) held fort f for the Tax-Collector  "pay legion-2"
 *   47       keep the Axx face up                             "keep axx"
 *   48       drop the Axx with the others                     "drop axx" */
enum {
    RTW_A_PLACE = 0,
    RTW_A_HIDDEN = 9,
    RTW_A_CHARM = 10,
    RTW_A_TAKE = 14,
    RTW_A_DISCARD = 20,
    RTW_A_PAY = 29,
    RTW_A_KEEP_AXX = 47,
    RTW_A_DROP_AXX = 48,
    RTW_NUM_ACTIONS = 49
};

/* A card set (RW-2, RW-3 defaults or a cards= option): warrior strengths by kind, and the 18
 * forts in canonical order (by kind, then nearest zero first), which numbers them 0..17. */
typedef struct rtw_cards {
    int8_t strength[RTW_KINDS];
    uint8_t fort_kind[RTW_FORTS];
    int8_t fort_value[RTW_FORTS];
} rtw_cards;

/* The whole game. Clans 0..players-1 are the seats; clans players.. are neutral (RW-11).
 * Rows of clans not in the game stay zero. */
typedef struct rtw_state {
    rp_rng rng;
    rtw_cards cards;
    uint8_t players, neutrals, clans, variant;
    uint8_t round, turn, phase, actor;
    uint8_t next_slot;       /* PLAN / ZVORD_PLACE: the slot the next placement fills */
    int8_t capturer;         /* this turn's capturer, -1 when none */
    uint8_t captured;        /* the fort it took, or RTW_NONE */
    int8_t winner;           /* a three-Legion winner (RW-18), else -1 */
    uint16_t keep;           /* capturer's warriors spared from the discard (Unwary, Axx) */
    uint8_t deck[RTW_FORTS]; /* draw order; deck[0 .. 6*(round+1)) have been drawn */
    uint8_t wall[RTW_SLOTS]; /* fort ids, RTW_NONE once fought over */
    uint32_t gone;           /* discarded forts */
    uint32_t forts[RTW_MAX_CLANS];
    uint16_t hand[RTW_MAX_CLANS];  /* warriors still to be placed */
    uint16_t drawn[RTW_MAX_CLANS]; /* this round's 7 (neutral: 6) */
    uint16_t up[RTW_MAX_CLANS];    /* face-up warriors */
    uint8_t slot[RTW_MAX_CLANS][RTW_SLOTS];
    /* The previous round's six warriors of each clan, all revealed (public), so views and
     * events can still show what the last turn of a round turned up; RTW_NONE in round 1. */
    uint8_t prev[RTW_MAX_CLANS][RTW_SLOTS];
} rtw_state;

/* Parse a card file's text (the data/rush-the-wall.cards format); `source` names it in
 * messages ("cards.txt line 4: ..."). The forts come out in canonical order. */
int rtw_cards_parse(const char *text, const char *source, rtw_cards *out, rp_error *err);
/* The one-word value of the cards= option: "default", or the spelled set
 * "S1,..,S9/F1,..,F18" (docs/rules/rush-the-wall.md). Only the canonical spelling is read. */
int rtw_cards_from_value(const char *value, rtw_cards *out, rp_error *err);
int rtw_cards_to_value(const rtw_cards *cards, char *buf, size_t size);
/* The embedded default cards (data/rush-the-wall.cards). */
const rtw_cards *rtw_default_cards(void);
/* Check every invariant of a state (card accounting, ranges, the phase's preconditions):
 * the game's state_ok. */
int rtw_check(const rtw_state *s, rp_error *err);
/* RW-4: the wall order of six forts drawn in `draw` order. */
void rtw_arrange_wall(const rtw_cards *cards, const uint8_t draw[RTW_SLOTS],
                      uint8_t wall[RTW_SLOTS]);

extern const rp_game rp_rush_the_wall;

#endif
