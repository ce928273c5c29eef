/* walls_and_armies.h — internal (not installed): the flat state of Walls and Armies and the
 * few entry points its tests need to build exact situations (a dealt deck in a known order).
 * The game itself is src/games/walls_and_armies.c; its rules as implemented are
 * docs/rules/walls-and-armies.md, its implementer notes docs/games/walls-and-armies.md. */
#ifndef RP_WALLS_AND_ARMIES_H
#define RP_WALLS_AND_ARMIES_H

#include <stdint.h>

#include "ramparts/game.h"

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

/* The action integers (see the table in walls_and_armies.c). */
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
    rp_rng rng;                     /* all chance after the deal: reshuffles (WA-6) */
    uint64_t discard;               /* the discard pile, as a set (public, WA-8) */
    uint64_t faceup;                /* walls currently turned face up */
    uint64_t targeted;              /* cards one of the attacker's stacks is against (WA-9) */
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
} wa_state;

extern const rp_game rp_walls_and_armies;

/* Deal a new game from a main deck given top card first (order[0] is flipped first): the
 * setup of WA-1, the first player of WA-2 (coin from rng); the first attacker then chooses. */
void wa_deal(wa_state *s, const uint8_t order[WA_CARDS], int turn_cap, const rp_rng *rng);

/* Card notation ("7H", "10D", "QS") both ways; parse returns the card or -1. */
int wa_card_from_text(const char *text, size_t len);
void wa_card_to_text(int card, char out[4]);

#endif
