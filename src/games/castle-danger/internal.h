/* internal.h — Castle Danger inside: the flat state, the action ids, the board constants and
 * the helpers its files (rules.c, text.c, view.c, learn.c, game.c) share with each other and
 * with its tests (tests/test_castle_danger.c). Not installed.
 *
 * Action ids (num_actions = 888); a turn is a sequence of these ended by `end` or 0 moves left:
 *
 *   id            action                                        notation
 *   0             end the turn (CD-14)                          end
 *   1, 2, 3       add a Wizard / Builder / Cannon (CD-3)        add wizard | add builder | add cannon
 *   4 + 4*f + d   move the piece on square f one step (CD-4),   c1-c2
 *                 d = 0 up a rank, 1 right, 2 down a rank, 3 left
 *   256 + s       a Builder builds a Wall on square s (CD-5)    build c3
 *   320 + s       a Builder removes the Wall on square s (CD-5) remove c3
 *   384 + 8*c + k fire the Cannon on square c a distance k+1    fire d2:4
 *                 (CD-6)
 *
 * Squares are s = (rank-1)*7 + column, a = 0. Building and removing name only the target square:
 * two Builders next to it do the same thing, so that is one action. */
#ifndef RP_CASTLE_DANGER_INTERNAL_H
#define RP_CASTLE_DANGER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/bits.h"
#include "core/inline.h"
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

enum {
    A_END = 0,
    A_ADD = 1,     /* + kind - 1, kind in CD_WIZARD..CD_CANNON */
    A_MOVE = 4,    /* + 4*from + dir */
    A_BUILD = 256, /* + square */
    A_REMOVE = 320,
    A_FIRE = 384, /* + 8*cannon + distance - 1 */
    A_COUNT = 888
};

#define MAX_WIZARDS 8 /* CD-2: supply per side */
#define MAX_BUILDERS 2
#define MAX_CANNONS 4
#define MAX_FIRE 5
#define MAX_WALLS 20 /* shared */
#define MAX_MOVES (3 + 3 * MAX_WIZARDS)
#define MAX_LIMIT 10000
#define MAX_TURN 2147483647u /* the turn counter stops here; no game comes near it */

#define ALL_SQ ((1ULL << CD_SQUARES) - 1)
#define RANK_BITS(r) (0x7FULL << (7 * ((r)-1)))
#define BLUE_SIDE ((1ULL << 28) - 1) /* ranks 1-4 */
#define RIVER RANK_BITS(5)
#define RED_SIDE (ALL_SQ & ~((1ULL << 35) - 1)) /* ranks 6-9 */
#define SAND (RANK_BITS(4) | RANK_BITS(6))
#define GRASS (ALL_SQ & ~SAND & ~RIVER)
/* Bit 0 of each of the 9 ranks, built from ALL_SQ rather than written out: (2^63 - 1) /
 * (2^7 - 1) = 1 + 2^7 + ... + 2^56. A hand-written constant once missed ranks 8 and 9, so
 * pieces there wrapped from file a to file g (issue 10). */
#define FILE_A (ALL_SQ / 0x7FULL)
#define FILE_G (FILE_A << 6)
_Static_assert(FILE_A * 0x7FULL == ALL_SQ, "file a has one square on each of the 9 ranks");

static const uint64_t side_mask[2] = {BLUE_SIDE, RED_SIDE};
static const uint64_t portal[2] = {1ULL << CD_SQ(3, 1), 1ULL << CD_SQ(3, 9)};
static const int dir_delta[4] = {7, 1, -7, -1};
static const char kind_letter[CD_KINDS] = {'K', 'W', 'B', 'C'};
static const char *const side_word[2] = {"blue", "red"};
static const char *const side_title[2] = {"Blue", "Red"};
static const int kind_max[CD_KINDS] = {1, MAX_WIZARDS, MAX_BUILDERS, MAX_CANNONS};

/* What can stand on a square: the four piece kinds, then a Wall, Fire, or nothing. */
enum { T_WALL = CD_KINDS, T_FIRE, T_NONE, T_THINGS };
static const char *const thing_word[T_THINGS] = {"king", "wizard", "builder", "cannon",
                                                 "wall", "fire",   "none"};
static const char *const thing_title[T_THINGS] = {"King", "Wizard", "Builder", "Cannon",
                                                  "Wall", "Fire",   "nothing"};
static const char *const result_word[4] = {"ongoing", "blue-won", "red-won", "draw"};
/* ---- bit helpers ---- */

/* Index of the lowest set bit of a non-zero board. */
static inline int low_bit(uint64_t b)
{
    return __builtin_ctzll(b);
}

static inline int count_bits(uint64_t b)
{
    return rp__popcount64(b);
}

/* Every square of `b` moved one step in direction d, dropping those that leave the board. */
static inline uint64_t shift_dir(uint64_t b, int d)
{
    switch (d) {
    case 0:
        return (b << 7) & ALL_SQ;
    case 1:
        return (b & ~FILE_G) << 1;
    case 2:
        return b >> 7;
    default:
        return (b & ~FILE_A) >> 1;
    }
}

/* The squares orthogonally next to any square of b. */
static inline uint64_t adjacent(uint64_t b)
{
    return shift_dir(b, 0) | shift_dir(b, 1) | shift_dir(b, 2) | shift_dir(b, 3);
}

static inline uint64_t side_pieces(const cd_state *s, int side)
{
    return s->piece[side][0] | s->piece[side][1] | s->piece[side][2] | s->piece[side][3];
}

/* Every square holding something: a piece, a Wall or Fire (the river is never occupied). */
static inline uint64_t occupied(const cd_state *s)
{
    return side_pieces(s, 0) | side_pieces(s, 1) | s->walls | s->fire[0] | s->fire[1];
}

/* CD-13: the material count (King, Wizards, Builders, Cannons on the board). */
static inline int material(const cd_state *s, int side)
{
    return count_bits(side_pieces(s, side));
}

/* CD-3: adding costs 2 when the player has at least as many pieces as the opponent. */
static inline int add_cost(const cd_state *s)
{
    return material(s, s->side) >= material(s, s->side ^ 1) ? 2 : 0;
}

/* The squares of the Builders of the side to move next to sq. */
static inline uint64_t builders_next_to(const cd_state *s, int sq)
{
    return adjacent(1ULL << sq) & s->piece[s->side][CD_BUILDER];
}

/* How many of each kind of piece are left in supply (CD-2, CD-10). */
static inline int supply_left(const cd_state *s, int side, int kind)
{
    return kind_max[kind] - count_bits(s->piece[side][kind]);
}

/* CD-3: the moves of a turn, 3 + 3 x the mover's Wizards on the board. */
static inline int turn_moves(const cd_state *s, int side)
{
    return 3 + 3 * count_bits(s->piece[side][CD_WIZARD]);
}
/* bit(from) | bit(from + dir_delta[d]) by a step's offset 4*from + d from A_MOVE (rules.c). */
extern const uint64_t cd_step_span[A_BUILD - A_MOVE];
/* What stands on square sq, and whose it is (-1 for a Wall or nothing). */
int cd_thing_at(const cd_state *s, int sq, int *owner);
/* Write the name of sq ("c3") with its NUL; returns buf. */
char *cd_square_name(int sq, char buf[3]);
/* The letter of what stands on every square ('\0' when empty): K W B C Blue pieces, k w b c
 * Red, # Wall, F Blue Fire, f Red Fire. */
void cd_board_letters(const cd_state *s, char letters[CD_SQUARES]);

/* ---- what an action did, as structured notes (turned into events by events_json) ---- */

enum {
    N_MOVE,
    N_ADD,
    N_BUILD,
    N_REMOVE,
    N_FIRE,
    N_HIT,
    N_BURN,
    N_END,
    N_FIRE_OUT,
    N_RESET,
    N_TURN,
    N_OVER
};

typedef struct cd_note {
    uint8_t kind, side;
    int8_t from, to;    /* squares, -1 when none */
    int8_t what, owner; /* a thing (T_...) and its side (-1: none); N_END: 1 when chosen */
    int16_t count;      /* moves paid (N_MOVE..N_FIRE), forfeited (N_END) or of the turn */
    int16_t left;       /* moves left after the action */
    uint64_t squares;   /* N_FIRE_OUT, N_RESET */
} cd_note;

#define CD_MAX_NOTES 12 /* a shot: fire, hit, burn, end, fire-out, reset, turn (or game over) */

typedef struct cd_story {
    int count;
    cd_note note[CD_MAX_NOTES];
} cd_story;
/* Play a legal action telling `story` what happened (events_json); apply is the same
 * steps untold. */
void cd_play_told(cd_state *s, rp_action action, cd_story *story);

/* ---- options (game.c) ---- */

/* The option table's rows, in order. */
enum { OPT_LIMIT, OPT_TOURNAMENT };

/* ---- observation tensor (for learning agents; layout in docs/python.md) ----
 * Everything is public, so this is the whole state as floats, from the observer's side: planes
 * of the 9 x 7 board (row = rank - 1, column a = 0, as on the board, never turned), "mine" and
 * "theirs" by the observer's seat, then the turn's numbers. */
enum {
    CD_OBS_PLANES = 0,                /* [12][9][7] */
    CD_OBS_TO_MOVE = 12 * CD_SQUARES, /* [2] */
    CD_OBS_TURN = CD_OBS_TO_MOVE + 2, /* [5] */
    CD_OBS_RESULT = CD_OBS_TURN + 5,  /* [4] */
    CD_OBS_SEAT = CD_OBS_RESULT + 4,  /* [1] */
    CD_OBS_SIZE = CD_OBS_SEAT + 1
};
/* The planes, in order. */
enum {
    CD_PLANE_MINE = 0,   /* + kind: my King, Wizards, Builders, Cannons */
    CD_PLANE_THEIRS = 4, /* + kind */
    CD_PLANE_WALLS = 8,
    CD_PLANE_MY_FIRE = 9,
    CD_PLANE_THEIR_FIRE = 10,
    CD_PLANE_FIRED = 11
};

/* The observation's named slices (learn.c), counted for the game table. */
#define CD_OBS_FIELDS 5
extern const rp_obs_field cd_obs_fields[CD_OBS_FIELDS];

/* ---- the rp_game operations, each defined in the file its section names ---- */

/* rules.c */
int cd_init(void *st, const rp_config *cfg, rp_error *err);
int cd_num_players(const void *st);
int cd_current_player(const void *st);
int cd_turn_number(const void *st);
int cd_legal_actions(const void *st, rp_action *out);
void cd_apply(void *st, rp_action action);
void cd_returns(const void *st, double *out);
/* text.c */
int cd_action_to_text(const void *st, rp_action action, char *buf, size_t size);
int cd_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err);
int cd_state_to_text(const void *st, char *buf, size_t size);
int cd_state_from_text(void *st, const char *text, rp_error *err);
int cd_state_ok(const void *st, rp_error *err);
int cd_explain_illegal(const void *st, rp_action action, char *buf, size_t size);
/* view.c */
struct cJSON *cd_view_json(const void *st, int viewer);
void cd_render(const void *st, int viewer, FILE *out, bool color);
struct cJSON *cd_action_json(const void *st, rp_action action);
struct cJSON *cd_events_json(const void *before, rp_action action, int viewer);
int cd_secret_names(const void *st, int viewer, char *buf, size_t size);
/* learn.c */
void cd_determinize(void *st, int viewer, rp_rng *rng);
double cd_evaluate(const void *st, int player);
void cd_observation_tensor(const void *st, int player, float *out);

extern const rp_game rp_castle_danger;
/* The game's id and the version tag of its full-state notation: the rp_game's .id and
 * .notation_tag, also written by view.c (the view's "game") and text.c (the notation), which
 * use nothing of game.c. */
#define CD_ID "castle-danger"
#define CD_NOTATION_TAG "cd1"

#endif
