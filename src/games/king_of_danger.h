/* king_of_danger.h — the internal state of King of Danger, shared by the game file and its tests
 * (not installed). Cards are ids 0..25 and sets of cards are 26-bit masks, so following suit,
 * King conditions and "every card accounted for" are single mask operations. */
#ifndef RP_KING_OF_DANGER_H
#define RP_KING_OF_DANGER_H

#include <stdint.h>

#include "ramparts/game.h"

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
    uint8_t over, winner;            /* winner is meaningful only when over (derived) */
    uint8_t castle[KD_MAX_PLAYERS];  /* castle values 1..8 (KD-1) */
    uint8_t voids[KD_MAX_PLAYERS];   /* KD_VOID_* bits */
    uint8_t trick[KD_MAX_PLAYERS];   /* cards of the current trick from the leader on */
    uint8_t pile_top[2][KD_PILES];   /* two players: face-up card of each pile or KD_NONE */
    uint8_t pile_under[2][KD_PILES]; /* two players: face-down card under it or KD_NONE */
    uint8_t last[KD_MAX_PLAYERS];    /* last finished trick, shown into the next hand */
    uint8_t last_len, last_leader, last_suit;
    uint8_t last_winner; /* KD_NONE: the last trick was set aside (KD-7) */
} kd_state;

extern const rp_game rp_king_of_danger;

#endif
