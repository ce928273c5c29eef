/* castle_danger.h — the internal state of Castle Danger (src/games/castle_danger.c), shared
 * only with its tests so that they can look inside hand-set positions. Not installed. */
#ifndef RP_CASTLE_DANGER_H
#define RP_CASTLE_DANGER_H

#include <stdint.h>

#include "ramparts/game.h"

enum { CD_BLUE = 0, CD_RED = 1 };
enum { CD_KING = 0, CD_WIZARD = 1, CD_BUILDER = 2, CD_CANNON = 3, CD_KINDS = 4 };
enum { CD_ONGOING = 0, CD_BLUE_WON = 1, CD_RED_WON = 2, CD_DRAW = 3 };

#define CD_COLS 7
#define CD_ROWS 9
#define CD_SQUARES 63
/* Square index of column c (0 = a) and rank r (1..9). */
#define CD_SQ(c, r) (((r)-1) * CD_COLS + (c))

/* The turn limit under tournament=1 (CD-8) and the tools' cap on unlimited games (CD-16). */
#define CD_TOURNAMENT_LIMIT 25
#define CD_TOOL_TURN_CAP 100

/* The whole game: one bit per square (bit = (rank-1)*7 + column) for each kind of thing.
 * A square holds at most one thing (a piece, a Wall or a Fire marker), so the bitboards are
 * disjoint; 112 bytes with no padding (zero_ is always 0), no pointers. */
typedef struct cd_state {
    uint64_t piece[2][CD_KINDS]; /* [side][kind] */
    uint64_t walls;
    uint64_t fire[2];   /* Fire markers by the side that shot them */
    uint64_t fired;     /* Cannons (either side) fired since their owner's turn began */
    uint32_t turn;      /* the side to move's turn number, from 1 (Blue's and Red's n-th turn) */
    uint16_t limit;     /* turns per player before a draw (CD-8, CD-15); 0: none (CD-16) */
    uint8_t side;       /* CD_BLUE or CD_RED: the side to move (or that moved last) */
    uint8_t moves;      /* moves left in this turn; 0 once the game is over */
    uint8_t add_open;   /* no action taken yet this turn, so the add step is still open */
    uint8_t result;     /* CD_ONGOING, CD_BLUE_WON, CD_RED_WON or CD_DRAW */
    uint8_t tournament; /* played under tournament=1 (CD-8): reported by config_of */
    uint8_t zero_[5];   /* always 0: no padding bytes, so equal states are equal bytes */
} cd_state;
_Static_assert(sizeof(cd_state) == 12 * 8 + 16, "cd_state has no padding bytes");

extern const rp_game rp_castle_danger;

#endif
