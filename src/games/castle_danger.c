/* castle_danger.c — Castle Danger (Matt Worden, 3rd edition, 2008 update) on the Ramparts game
 * interface: bitboard rules with an optional narration of what an action did, action and state
 * notation (cd1), invariants, views, actions and events as data, explanations of illegal moves
 * and a cheap evaluation for the AI. Rules: docs/rules/castle-danger.md; implementer notes
 * (notation, data forms, tests): docs/games/castle-danger.md.
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
#include "games/castle_danger.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"

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
    return __builtin_popcountll(b);
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

/* How many of each kind of piece are left in supply (CD-2, CD-10). */
static int supply_left(const cd_state *s, int side, int kind)
{
    return kind_max[kind] - count_bits(s->piece[side][kind]);
}

/* CD-3: the moves of a turn, 3 + 3 x the mover's Wizards on the board. */
static int turn_moves(const cd_state *s, int side)
{
    return 3 + 3 * count_bits(s->piece[side][CD_WIZARD]);
}

/* What stands on square sq, and whose it is (-1 for a Wall or nothing). */
static int thing_at(const cd_state *s, int sq, int *owner)
{
    const uint64_t bit = 1ULL << sq;
    for (int side = 0; side < 2; side++) {
        *owner = side;
        for (int k = 0; k < CD_KINDS; k++)
            if (s->piece[side][k] & bit)
                return k;
        if (s->fire[side] & bit)
            return T_FIRE;
    }
    *owner = -1;
    return (s->walls & bit) ? T_WALL : T_NONE;
}

/* Write the name of sq ("c3") with its NUL; returns buf. */
static char *square_name(int sq, char buf[3])
{
    buf[0] = (char)('a' + sq % CD_COLS);
    buf[1] = (char)('1' + sq / CD_COLS);
    buf[2] = '\0';
    return buf;
}

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

/* The functions that take a story are inlined into apply, where the story is NULL, so the
 * compiler removes every narration from the hot path. */
#define NARRATED static inline __attribute__((always_inline))

/* Record a note when someone is listening (events_json); apply passes NULL. */
NARRATED void tell(cd_story *story, cd_note note)
{
    if (story && story->count < CD_MAX_NOTES)
        story->note[story->count++] = note;
}

/* ---- turn flow ---- */

/* CD-3: the start of a turn: own Fire removed, own Cannons reset, 3 + 3 x Wizards moves. */
NARRATED void start_turn(cd_state *s, cd_story *story)
{
    const int side = s->side;
    if (story && s->fire[side])
        tell(story, (cd_note){.kind = N_FIRE_OUT,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = -1,
                              .squares = s->fire[side]});
    if (story && (s->fired & s->piece[side][CD_CANNON]))
        tell(story, (cd_note){.kind = N_RESET,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = -1,
                              .squares = s->fired & s->piece[side][CD_CANNON]});
    s->fire[side] = 0;
    s->fired &= ~s->piece[side][CD_CANNON];
    s->moves = (uint8_t)turn_moves(s, side);
    s->add_open = 1;
    if (story)
        tell(story,
             (cd_note){
                 .kind = N_TURN, .side = (uint8_t)side, .from = -1, .to = -1, .count = s->moves});
}

/* The end of a turn; CD-15: Red's turn number `limit` ending without a King hit is a draw. */
NARRATED void end_turn(cd_state *s, bool chosen, cd_story *story)
{
    if (story)
        tell(story, (cd_note){.kind = N_END,
                              .side = s->side,
                              .from = -1,
                              .to = -1,
                              .what = chosen,
                              .count = s->moves});
    if (s->side == CD_RED && s->limit && s->turn >= s->limit) {
        s->result = CD_DRAW;
        s->moves = 0;
        s->add_open = 0;
        tell(story, (cd_note){.kind = N_OVER, .side = s->side, .from = -1, .to = -1});
        return;
    }
    s->side ^= 1;
    if (s->side == CD_BLUE && s->turn < MAX_TURN)
        s->turn++;
    start_turn(s, story);
}

/* ---- options and setup ---- */

enum { OPT_LIMIT, OPT_TOURNAMENT };

static const rp_option_spec cd_options[] = {
    {"turn-limit", RP_OPT_INT, 0, MAX_LIMIT, 0, NULL,
     "turns per player; when Red's last turn ends without a King hit the game is a draw "
     "(CD-15); 0 (the default): no limit (CD-16), or 25 with tournament=1 (CD-8)",
     NULL},
    {"tournament", RP_OPT_INT, 0, 1, 0, NULL,
     "1: formal play (CD-8): a 25-turn limit unless turn-limit gives another", NULL},
};

/* CD-1: the standard setup, Blue to move with its first turn started. CD-16: no turn limit
 * unless asked; CD-8: 25 under tournament=1 (CD-P5). */
static int cd_init(void *st, const rp_config *cfg, rp_error *err)
{
    cd_state *s = st;
    if (cfg->players != 2)
        return rp_fail(err, RP_EINVAL, "Castle Danger is for exactly 2 players");
    const int64_t asked = cfg->value[OPT_LIMIT], tournament = cfg->value[OPT_TOURNAMENT];
    if (asked < 0 || asked > MAX_LIMIT)
        return rp_fail(err, RP_EINVAL, "turn-limit=%lld is out of range 0..%d", (long long)asked,
                       MAX_LIMIT);
    if (tournament < 0 || tournament > 1)
        return rp_fail(err, RP_EINVAL, "tournament=%lld: expected 0 or 1", (long long)tournament);
    memset(s, 0, sizeof *s);
    s->limit = (uint16_t)(asked ? asked : tournament ? CD_TOURNAMENT_LIMIT : 0);
    s->tournament = (uint8_t)tournament;
    s->turn = 1;
    s->piece[CD_BLUE][CD_KING] = 1ULL << CD_SQ(2, 1);
    s->piece[CD_BLUE][CD_WIZARD] = 1ULL << CD_SQ(4, 1);
    s->piece[CD_RED][CD_KING] = 1ULL << CD_SQ(4, 9);
    s->piece[CD_RED][CD_WIZARD] = 1ULL << CD_SQ(2, 9);
    s->walls = (1ULL << CD_SQ(2, 2)) | (1ULL << CD_SQ(4, 2)) | (1ULL << CD_SQ(4, 8)) |
               (1ULL << CD_SQ(2, 8));
    s->side = CD_BLUE;
    start_turn(s, NULL);
    return RP_OK;
}

/* Always two: Blue (seat 0) and Red (seat 1). */
static int cd_num_players(const void *st)
{
    (void)st;
    return 2;
}

/* The side to move, or RP_TERMINAL once a King is hit or the turn limit is reached. */
static int cd_current_player(const void *st)
{
    const cd_state *s = st;
    return s->result != CD_ONGOING ? RP_TERMINAL : s->side;
}

/* As CD-15 counts: Blue's and Red's n-th turns are turn n. */
static int cd_turn_number(const void *st)
{
    const cd_state *s = st;
    return (int)s->turn;
}

/* The options this game is played under: the limit in effect (25 under tournament=1). */
static void cd_config_of(const void *st, rp_config *cfg)
{
    const cd_state *s = st;
    cfg->players = 2;
    cfg->value[OPT_LIMIT] = s->limit;
    cfg->value[OPT_TOURNAMENT] = s->tournament;
}

/* ---- legal actions and apply ---- */

/* Every legal action: end (CD-14), the add step, moves, builds, removals and shots. */
static int cd_legal_actions(const void *st, rp_action *out)
{
    const cd_state *s = st;
    if (s->result != CD_ONGOING)
        return 0;
    const int side = s->side;
    const uint64_t occ = occupied(s);
    int n = 0;
    out[n++] = A_END;
    if (s->add_open && !(occ & portal[side]) && s->moves >= add_cost(s))
        for (int k = CD_WIZARD; k <= CD_CANNON; k++)
            if (count_bits(s->piece[side][k]) < kind_max[k])
                out[n++] = (rp_action)(A_ADD + k - 1);
    const uint64_t mine = side_pieces(s, side);
    const uint64_t free_own = side_mask[side] & ~occ; /* CD-4 */
    for (int d = 0; d < 4; d++) {
        for (uint64_t t = shift_dir(mine, d) & free_own; t; t &= t - 1) {
            const int from = low_bit(t) - dir_delta[d];
            out[n++] = (rp_action)(A_MOVE + 4 * from + d);
        }
    }
    const uint64_t reach = adjacent(s->piece[side][CD_BUILDER]);
    if (count_bits(s->walls) < MAX_WALLS)                      /* CD-2: the 20 Walls are shared */
        for (uint64_t t = reach & GRASS & ~occ; t; t &= t - 1) /* CD-5, CD-11 */
            out[n++] = (rp_action)(A_BUILD + low_bit(t));
    for (uint64_t t = reach & s->walls; t; t &= t - 1)
        out[n++] = (rp_action)(A_REMOVE + low_bit(t));
    const int step = side == CD_BLUE ? 7 : -7;
    for (uint64_t c = s->piece[side][CD_CANNON] & ~s->fired; c; c &= c - 1) { /* CD-6 */
        const int from = low_bit(c);
        int sq = from;
        for (int dist = 1; dist <= s->moves; dist++) {
            sq += step;
            if (sq < 0 || sq >= CD_SQUARES)
                break;
            if ((RIVER >> sq) & 1)
                continue;
            out[n++] = (rp_action)(A_FIRE + 8 * from + dist - 1);
            if ((s->walls >> sq) & 1)
                break;
        }
    }
    return n;
}

/* Take away whatever stands on `bit` (CD-6); returns the side whose King stood there, or -1. */
static int clear_square(cd_state *s, uint64_t bit)
{
    int king_owner = -1;
    for (int side = 0; side < 2; side++) {
        if (s->piece[side][CD_KING] & bit)
            king_owner = side;
        for (int k = 0; k < CD_KINDS; k++)
            s->piece[side][k] &= ~bit;
        s->fire[side] &= ~bit;
    }
    s->walls &= ~bit;
    s->fired &= ~bit;
    return king_owner;
}

/* CD-6, CD-7, CD-11: a shot from `from` landing `dist` squares toward the opponent. */
NARRATED void fire_cannon(cd_state *s, int from, int dist, cd_story *story)
{
    const int side = s->side;
    const int to = from + (side == CD_BLUE ? 7 : -7) * dist;
    const uint64_t bit = 1ULL << to;
    s->fired |= 1ULL << from;
    s->moves = (uint8_t)(s->moves - dist);
    if (story) {
        int owner;
        const int what = thing_at(s, to, &owner);
        tell(story, (cd_note){.kind = N_FIRE,
                              .side = (uint8_t)side,
                              .from = (int8_t)from,
                              .to = (int8_t)to,
                              .count = (int16_t)dist,
                              .left = s->moves});
        if (what != T_NONE)
            tell(story, (cd_note){.kind = N_HIT,
                                  .side = (uint8_t)side,
                                  .from = (int8_t)from,
                                  .to = (int8_t)to,
                                  .what = (int8_t)what,
                                  .owner = (int8_t)owner});
    }
    const int king_owner = clear_square(s, bit);
    if (!((portal[0] | portal[1]) & bit)) {
        s->fire[side] |= bit;
        tell(story, (cd_note){.kind = N_BURN, .side = (uint8_t)side, .from = -1, .to = (int8_t)to});
    }
    if (king_owner >= 0) {
        s->result = king_owner == CD_BLUE ? CD_RED_WON : CD_BLUE_WON;
        s->moves = 0;
        tell(story, (cd_note){.kind = N_OVER,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = (int8_t)to,
                              .owner = (int8_t)king_owner});
    }
}

/* CD-4: one step of the piece on `from` (its fired mark travels with a Cannon, CD-12). */
NARRATED void move_piece(cd_state *s, int from, int d, cd_story *story)
{
    const uint64_t a = 1ULL << from, b = 1ULL << (from + dir_delta[d]);
    uint64_t *kinds = s->piece[s->side];
    int kind = 0;
    while (kind < CD_KINDS - 1 && !(kinds[kind] & a))
        kind++;
    kinds[kind] ^= a | b;
    if (s->fired & a)
        s->fired ^= a | b;
    s->moves--;
    tell(story, (cd_note){.kind = N_MOVE,
                          .side = s->side,
                          .from = (int8_t)from,
                          .to = (int8_t)(from + dir_delta[d]),
                          .what = (int8_t)kind,
                          .count = 1,
                          .left = s->moves});
}

/* Play a legal action, telling `story` (may be NULL) what happened: pay its moves, close the
 * add step (CD-P4), and end the turn when the moves run out (CD-3). */
NARRATED void play(cd_state *s, rp_action action, cd_story *story)
{
    if (action == A_END) {
        end_turn(s, true, story);
        return;
    }
    const int side = s->side;
    if (action < A_MOVE) {
        const int kind = (int)action - A_ADD + 1, cost = add_cost(s); /* CD-13: before placing */
        s->moves = (uint8_t)(s->moves - cost);
        s->piece[side][kind] |= portal[side];
        tell(story, (cd_note){.kind = N_ADD,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = (int8_t)low_bit(portal[side]),
                              .what = (int8_t)kind,
                              .count = (int16_t)cost,
                              .left = s->moves});
    } else if (action < A_BUILD) {
        move_piece(s, (int)(action - A_MOVE) >> 2, (int)(action - A_MOVE) & 3, story);
    } else if (action < A_FIRE) {
        const bool build = action < A_REMOVE;
        const int sq = (int)action - (build ? A_BUILD : A_REMOVE);
        s->walls ^= 1ULL << sq;
        s->moves--;
        tell(story, (cd_note){.kind = build ? N_BUILD : N_REMOVE,
                              .side = (uint8_t)side,
                              .from = -1,
                              .to = (int8_t)sq,
                              .count = 1,
                              .left = s->moves});
    } else {
        fire_cannon(s, (int)(action - A_FIRE) >> 3, (int)((action - A_FIRE) & 7) + 1, story);
    }
    s->add_open = 0;
    if (s->result == CD_ONGOING && s->moves == 0)
        end_turn(s, false, story);
}

static void cd_apply(void *st, rp_action action)
{
    play(st, action, NULL);
    RP_DEBUG_STATE_OK(&rp_castle_danger, st);
}

/* The winner takes 1; a draw at the turn limit gives 1/2 each (CD-15). */
static void cd_returns(const void *st, double *out)
{
    const cd_state *s = st;
    out[0] = out[1] = 0.5;
    if (s->result == CD_BLUE_WON) {
        out[0] = 1;
        out[1] = 0;
    } else if (s->result == CD_RED_WON) {
        out[0] = 0;
        out[1] = 1;
    }
}

/* ---- action notation ---- */

/* Read a square name like "c3" at *p, advancing past it; -1 when there is none. */
static int parse_square(const char **p)
{
    const char *t = *p;
    if (t[0] < 'a' || t[0] > 'g' || t[1] < '1' || t[1] > '9')
        return -1;
    *p = t + 2;
    return (t[1] - '1') * CD_COLS + (t[0] - 'a');
}

/* Append `word` to t at n; returns the new length (callers size t for the longest text). */
static int put_word(char *t, int n, const char *word)
{
    while (*word)
        t[n++] = *word++;
    return n;
}

/* Written by hand rather than with snprintf: tools and tests call it for every legal action. */
static int cd_action_to_text(const void *st, rp_action action, char *buf, size_t size)
{
    (void)st;
    char t[24];
    int n;
    if (action == A_END)
        n = put_word(t, 0, "end");
    else if (action < A_MOVE)
        n = put_word(t, put_word(t, 0, "add "), thing_word[action - A_ADD + 1]);
    else if (action < A_BUILD) {
        const int from = (int)(action - A_MOVE) >> 2, d = (int)(action - A_MOVE) & 3;
        if (shift_dir(1ULL << from, d) == 0)
            return RP_EINVAL;
        square_name(from, t);
        t[2] = '-';
        square_name(from + dir_delta[d], t + 3);
        n = 5;
    } else if (action < A_FIRE) {
        const bool build = action < A_REMOVE;
        const int sq = (int)action - (build ? A_BUILD : A_REMOVE);
        if (sq >= CD_SQUARES)
            return RP_EINVAL;
        n = put_word(t, 0, build ? "build " : "remove ");
        square_name(sq, t + n);
        n += 2;
    } else if (action < A_COUNT) {
        const int from = (int)(action - A_FIRE) >> 3;
        n = put_word(t, 0, "fire ");
        square_name(from, t + n);
        n += 2;
        t[n++] = ':';
        t[n++] = (char)('1' + ((action - A_FIRE) & 7));
    } else {
        return RP_EINVAL;
    }
    if ((size_t)n >= size)
        return RP_ENOSPACE;
    memcpy(buf, t, (size_t)n);
    buf[n] = '\0';
    return n;
}

/* "c3" at p followed by the end of the text, or -1. */
static int parse_last_square(const char *p)
{
    const int sq = parse_square(&p);
    return *p ? -1 : sq;
}

/* Parse a move "c1-c2" (the squares must be orthogonal neighbours); -1 if t is no move. */
static int parse_move_text(const char *t, rp_action *out, rp_error *err)
{
    const char *p = t;
    const int from = parse_square(&p);
    if (from < 0 || *p != '-')
        return -1;
    p++;
    const int to = parse_last_square(p);
    if (to < 0)
        return rp_fail(err, RP_EPARSE, "'%s': expected a square a1..g9 after '-'", t);
    for (int d = 0; d < 4; d++)
        if (shift_dir(1ULL << from, d) == 1ULL << to) {
            *out = (rp_action)(A_MOVE + 4 * from + d);
            return RP_OK;
        }
    return rp_fail(err, RP_EPARSE, "'%s': a piece moves one square up, down, left or right (CD-4)",
                   t);
}

/* Parse the part after "fire ": the Cannon's square and the distance 1-8 (CD-6, CD-P6). */
static int parse_fire_text(const char *t, const char *p, rp_action *out, rp_error *err)
{
    const int from = parse_square(&p);
    if (from < 0 || *p != ':' || p[1] < '1' || p[1] > '8' || p[2])
        return rp_fail(err, RP_EPARSE,
                       "'%s': write a shot as 'fire d2:4' (Cannon square, distance 1-8)", t);
    *out = (rp_action)(A_FIRE + 8 * from + (p[1] - '1'));
    return RP_OK;
}

/* Read an action's notation (surrounding spaces allowed); legality is the caller's check. */
static int cd_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    (void)st;
    char t[RP_ACTION_TEXT];
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    while (len && isspace((unsigned char)*text)) {
        text++;
        len--;
    }
    if (len == 0 || len >= sizeof t)
        return rp_fail(err, RP_EPARSE,
                       "expected an action such as 'end', 'add wizard', "
                       "'c1-c2', 'build c3', 'remove c3' or 'fire d2:4'");
    memcpy(t, text, len);
    t[len] = '\0';
    if (strcmp(t, "end") == 0) {
        *out = A_END;
        return RP_OK;
    }
    if (strncmp(t, "add ", 4) == 0) {
        for (int k = CD_WIZARD; k <= CD_CANNON; k++)
            if (strcmp(t + 4, thing_word[k]) == 0) {
                *out = (rp_action)(A_ADD + k - 1);
                return RP_OK;
            }
        return rp_fail(err, RP_EPARSE, "'%s': only a wizard, builder or cannon can be added", t);
    }
    const bool build = strncmp(t, "build ", 6) == 0, remove = strncmp(t, "remove ", 7) == 0;
    if (build || remove) {
        const int sq = parse_last_square(t + (build ? 6 : 7));
        if (sq < 0)
            return rp_fail(err, RP_EPARSE, "'%s': expected a square a1..g9", t);
        *out = (rp_action)((build ? A_BUILD : A_REMOVE) + sq);
        return RP_OK;
    }
    if (strncmp(t, "fire ", 5) == 0)
        return parse_fire_text(t, t + 5, out, err);
    const int rc = parse_move_text(t, out, err);
    if (rc != -1)
        return rc;
    return rp_fail(err, RP_EPARSE,
                   "'%s' is not an action: expected 'end', 'add wizard', "
                   "'c1-c2', 'build c3', 'remove c3' or 'fire d2:4'",
                   t);
}

/* ---- state notation (CD-9): cd1 board=... side=... moves=... add=... turn=... limit=...
 * tournament=... result=... supply=... (docs/games/castle-danger.md) ---- */

/* The letter of what stands on every square ('\0' when empty), in one pass over the
 * bitboards: K W B C Blue pieces, k w b c Red, # Wall, F Blue Fire, f Red Fire. */
static void board_letters(const cd_state *s, char letters[CD_SQUARES])
{
    memset(letters, 0, CD_SQUARES);
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < CD_KINDS; k++) {
            const char ch = side == CD_BLUE ? kind_letter[k] : (char)tolower(kind_letter[k]);
            for (uint64_t b = s->piece[side][k]; b; b &= b - 1)
                letters[low_bit(b)] = ch;
        }
        for (uint64_t b = s->fire[side]; b; b &= b - 1)
            letters[low_bit(b)] = side == CD_BLUE ? 'F' : 'f';
    }
    for (uint64_t b = s->walls; b; b &= b - 1)
        letters[low_bit(b)] = '#';
}

/* The board field: ranks 9 down to 1 separated by '/', letters, digits for runs of empty
 * squares, '*' after a fired Cannon. */
static void put_board(rp_text *t, const cd_state *s)
{
    char letters[CD_SQUARES];
    board_letters(s, letters);
    for (int r = CD_ROWS; r >= 1; r--) {
        int empty = 0;
        for (int c = 0; c < CD_COLS; c++) {
            const int sq = CD_SQ(c, r);
            if (!letters[sq]) {
                empty++;
                continue;
            }
            if (empty)
                rp__text_ch(t, (char)('0' + empty));
            empty = 0;
            rp__text_ch(t, letters[sq]);
            if ((s->fired >> sq) & 1)
                rp__text_ch(t, '*');
        }
        if (empty)
            rp__text_ch(t, (char)('0' + empty));
        if (r > 1)
            rp__text_ch(t, '/');
    }
}

/* The supply field, W7B2C4F5/w7b2c4f5/#16: what the board leaves in supply (CD-2, CD-10). */
static void put_supply(rp_text *t, const cd_state *s)
{
    for (int side = 0; side < 2; side++) {
        for (int k = CD_WIZARD; k <= CD_CANNON; k++) {
            rp__text_ch(t, side == CD_BLUE ? kind_letter[k] : (char)tolower(kind_letter[k]));
            rp__put_uint(t, (uint64_t)supply_left(s, side, k));
        }
        rp__text_ch(t, side == CD_BLUE ? 'F' : 'f');
        rp__put_uint(t, (uint64_t)(MAX_FIRE - count_bits(s->fire[side])));
        rp__text_ch(t, '/');
    }
    rp__text_ch(t, '#');
    rp__put_uint(t, (uint64_t)(MAX_WALLS - count_bits(s->walls)));
}

static int cd_state_to_text(const void *st, char *buf, size_t size)
{
    const cd_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, "cd1");
    rp__put_key(&t, "board");
    put_board(&t, s);
    rp__put_key(&t, "side");
    rp__text_str(&t, side_word[s->side & 1]);
    rp__put_key(&t, "moves");
    rp__put_uint(&t, s->moves);
    rp__put_key(&t, "add");
    rp__text_str(&t, s->add_open ? "open" : "closed");
    rp__put_key(&t, "turn");
    rp__put_uint(&t, s->turn);
    rp__put_key(&t, "limit");
    if (s->limit)
        rp__put_uint(&t, s->limit);
    else
        rp__text_str(&t, "none");
    rp__put_key(&t, "tournament");
    rp__put_uint(&t, s->tournament);
    rp__put_key(&t, "result");
    rp__text_str(&t, result_word[s->result & 3]);
    rp__put_key(&t, "supply");
    put_supply(&t, s);
    return rp__text_finish(&t);
}

/* Read the board field into s (pieces, Walls, Fire, fired marks); placement is state_ok's. */
static int parse_board(rp_reader *r, cd_state *s, rp_span v)
{
    int rank = CD_ROWS, c = 0;
    for (size_t i = 0; i < v.len; i++) {
        const char ch = v.p[i];
        if (ch == '/') {
            if (c != CD_COLS)
                return rp__read_fail(r, "board", "rank %d has %d squares, not 7", rank, c);
            if (--rank < 1)
                return rp__read_fail(r, "board", "more than 9 ranks");
            c = 0;
        } else if (ch >= '1' && ch <= '7') {
            c += ch - '0';
            if (c > CD_COLS)
                return rp__read_fail(r, "board", "rank %d has more than 7 squares", rank);
        } else if (ch == '*') {
            if (i == 0 || (v.p[i - 1] != 'C' && v.p[i - 1] != 'c'))
                return rp__read_fail(r, "board",
                                     "'*' (fired) must directly follow a Cannon C "
                                     "or c, on rank %d",
                                     rank);
            s->fired |= 1ULL << CD_SQ(c - 1, rank);
        } else {
            if (c >= CD_COLS)
                return rp__read_fail(r, "board", "rank %d has more than 7 squares", rank);
            const uint64_t bit = 1ULL << CD_SQ(c, rank);
            const char *k = ch ? strchr("KWBC", toupper((unsigned char)ch)) : NULL;
            if (k)
                s->piece[islower((unsigned char)ch) ? CD_RED : CD_BLUE][k - "KWBC"] |= bit;
            else if (ch == '#')
                s->walls |= bit;
            else if (ch == 'F' || ch == 'f')
                s->fire[ch == 'F' ? CD_BLUE : CD_RED] |= bit;
            else
                return rp__read_fail(r, "board",
                                     "unknown square '%c' on rank %d (use K W B C "
                                     "k w b c # F f or 1-7)",
                                     ch, rank);
            c++;
        }
    }
    if (c != CD_COLS)
        return rp__read_fail(r, "board", "rank %d has %d squares, not 7", rank, c);
    if (rank != 1)
        return rp__read_fail(r, "board",
                             "%d ranks, expected 9 (9 down to 1, separated by "
                             "'/')",
                             CD_ROWS + 1 - rank);
    return RP_OK;
}

/* A field whose value is one of `words`. */
static int read_choice(rp_reader *r, const char *key, const char *const *words, int n, int *out)
{
    rp_span v;
    const int rc = rp__read_field(r, key, &v);
    return rc < 0 ? rc : rp__span_choice(r, key, v, words, n, out);
}

/* A field holding a whole number in [min, max]. */
static int read_uint(rp_reader *r, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
    rp_span v;
    const int rc = rp__read_field(r, key, &v);
    return rc < 0 ? rc : rp__span_uint(r, key, v, min, max, out);
}

/* The flow fields after the board: side, moves, add, turn, limit, tournament, result. */
static int parse_flow(rp_reader *r, cd_state *s)
{
    static const char *const add_word[2] = {"closed", "open"};
    int side, add, result, rc;
    uint64_t moves, turn, limit = 0, tournament;
    rp_span v;
    if ((rc = read_choice(r, "side", side_word, 2, &side)) < 0 ||
        (rc = read_uint(r, "moves", 0, MAX_MOVES, &moves)) < 0 ||
        (rc = read_choice(r, "add", add_word, 2, &add)) < 0 ||
        (rc = read_uint(r, "turn", 1, MAX_TURN, &turn)) < 0 ||
        (rc = rp__read_field(r, "limit", &v)) < 0)
        return rc;
    if (!rp__span_is(v, "none") && (rc = rp__span_uint(r, "limit", v, 1, MAX_LIMIT, &limit)) < 0)
        return rc;
    if ((rc = read_uint(r, "tournament", 0, 1, &tournament)) < 0 ||
        (rc = read_choice(r, "result", result_word, 4, &result)) < 0)
        return rc;
    s->side = (uint8_t)side;
    s->moves = (uint8_t)moves;
    s->add_open = (uint8_t)add;
    s->turn = (uint32_t)turn;
    s->limit = (uint16_t)limit;
    s->tournament = (uint8_t)tournament;
    s->result = (uint8_t)result;
    return RP_OK;
}

static int cd_state_ok(const void *st, rp_error *err);

/* The supply field must say what the board leaves (CD-10); checked once the board is known
 * to be possible, so the supply it leaves is never negative. */
static int check_supply(rp_reader *r, const cd_state *s, rp_span v)
{
    char expect[64];
    rp_text t;
    rp__text_init(&t, expect, sizeof expect);
    put_supply(&t, s);
    if (!rp__span_is(v, expect))
        return rp__read_fail(r, "supply",
                             "'%.*s' does not match the board, which leaves %s "
                             "(CD-10)",
                             (int)(v.len > 40 ? 40 : v.len), v.p, expect);
    return RP_OK;
}

/* Load a position (CD-9): parse into a local state, check it whole, copy only on success. */
static int cd_state_from_text(void *st, const char *text, rp_error *err)
{
    cd_state s;
    memset(&s, 0, sizeof s);
    rp_reader r;
    rp_span board, supply;
    int rc;
    if ((rc = rp__read_begin(&r, text, "cd1", err)) < 0 ||
        (rc = rp__read_field(&r, "board", &board)) < 0 || (rc = parse_board(&r, &s, board)) < 0 ||
        (rc = parse_flow(&r, &s)) < 0 || (rc = rp__read_field(&r, "supply", &supply)) < 0 ||
        (rc = rp__read_end(&r)) < 0 || (rc = cd_state_ok(&s, err)) < 0 ||
        (rc = check_supply(&r, &s, supply)) < 0 ||
        (rc = rp__read_canonical(&r, &rp_castle_danger, &s)) < 0)
        return rc;
    memcpy(st, &s, sizeof s);
    return RP_OK;
}

/* ---- invariants ---- */

/* Where things may stand (CD-4, CD-5, CD-6), one thing a square, and how many there may be
 * (CD-2, CD-10). */
static int check_board(const cd_state *s, rp_error *err)
{
    uint64_t seen = 0;
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < CD_KINDS; k++) {
            if (s->piece[side][k] & seen)
                return rp_fail(err, RP_EINVAL, "board: two things on one square");
            seen |= s->piece[side][k];
            if (count_bits(s->piece[side][k]) > kind_max[k])
                return rp_fail(err, RP_EINVAL, "board: %s has %d %ss, at most %d (CD-2)",
                               side_word[side], count_bits(s->piece[side][k]), thing_word[k],
                               kind_max[k]);
        }
        if (side_pieces(s, side) & ~side_mask[side])
            return rp_fail(err, RP_EINVAL, "board: a %s piece stands off %s's side (CD-4)",
                           side_word[side], side_word[side]);
    }
    for (int side = 0; side < 2; side++) {
        if (s->fire[side] & seen)
            return rp_fail(err, RP_EINVAL, "board: two things on one square");
        seen |= s->fire[side];
        if (count_bits(s->fire[side]) > MAX_FIRE)
            return rp_fail(err, RP_EINVAL, "board: %s has more than %d Fire markers (CD-2)",
                           side_word[side], MAX_FIRE);
        if (s->fire[side] & (portal[0] | portal[1] | RIVER | ~ALL_SQ))
            return rp_fail(err, RP_EINVAL, "board: Fire on a Portal or the river (CD-6)");
    }
    if (s->walls & seen)
        return rp_fail(err, RP_EINVAL, "board: two things on one square");
    if (s->walls & ~GRASS)
        return rp_fail(err, RP_EINVAL, "board: a Wall on sand or the river (CD-5)");
    if (count_bits(s->walls) > MAX_WALLS)
        return rp_fail(err, RP_EINVAL, "board: %d Walls, at most %d (CD-2)", count_bits(s->walls),
                       MAX_WALLS);
    if (s->fired & ~(s->piece[0][CD_CANNON] | s->piece[1][CD_CANNON]))
        return rp_fail(err, RP_EINVAL, "board: a fired mark '*' on something not a Cannon");
    return RP_OK;
}

/* The counters: ranges, the turn limit (CD-8, CD-15, CD-16). */
static int check_counters(const cd_state *s, rp_error *err)
{
    if (s->side > 1 || s->add_open > 1 || s->result > CD_DRAW || s->tournament > 1 ||
        s->moves > MAX_MOVES)
        return rp_fail(err, RP_EINVAL, "a counter is out of range");
    for (size_t i = 0; i < sizeof s->zero_; i++)
        if (s->zero_[i])
            return rp_fail(err, RP_EINVAL, "the state's spare bytes are not zero");
    if (s->turn < 1 || s->turn > MAX_TURN)
        return rp_fail(err, RP_EINVAL, "turn: %u is not in 1..%u", s->turn, MAX_TURN);
    if (s->limit > MAX_LIMIT)
        return rp_fail(err, RP_EINVAL, "limit: %d is not in 1..%d", s->limit, MAX_LIMIT);
    if (s->limit && s->turn > s->limit)
        return rp_fail(err, RP_EINVAL, "turn: %u is past the turn limit %d (CD-15)", s->turn,
                       s->limit);
    if (s->tournament && !s->limit)
        return rp_fail(err, RP_EINVAL, "tournament: formal play has a turn limit (CD-8)");
    return RP_OK;
}

/* The flow must agree with the board: Kings present unless hit (CD-7), moves and the add step
 * as a turn can leave them (CD-3), a draw only at the end of Red's last turn (CD-15). */
static int check_flow(const cd_state *s, rp_error *err)
{
    const bool blue_king = s->piece[0][CD_KING], red_king = s->piece[1][CD_KING];
    if (s->result == CD_ONGOING) {
        if (!blue_king || !red_king)
            return rp_fail(err, RP_EINVAL, "result ongoing but a King is missing (CD-7)");
        if (s->moves == 0)
            return rp_fail(err, RP_EINVAL,
                           "moves: 0 in a game not over (the turn would have "
                           "ended, CD-3)");
        if (s->add_open) {
            const int side = s->side;
            if (s->moves != turn_moves(s, side))
                return rp_fail(err, RP_EINVAL,
                               "add step open but %d moves left is not 3 + 3 x "
                               "Wizards (CD-3)",
                               s->moves);
            if (s->fire[side] || (s->fired & s->piece[side][CD_CANNON]))
                return rp_fail(err, RP_EINVAL,
                               "add step open but the side to move still has "
                               "Fire or fired Cannons (CD-3)");
        }
        return RP_OK;
    }
    if (s->moves != 0 || s->add_open)
        return rp_fail(err, RP_EINVAL,
                       "a finished game has 0 moves left and the add step "
                       "closed");
    if (s->result == CD_DRAW) {
        if (!blue_king || !red_king || s->side != CD_RED || s->turn != s->limit)
            return rp_fail(err, RP_EINVAL,
                           "a draw needs both Kings and Red's last turn "
                           "(turn = limit) (CD-15)");
    } else if ((s->result == CD_BLUE_WON) != (blue_king && !red_king) ||
               (s->result == CD_RED_WON) != (red_king && !blue_king)) {
        return rp_fail(err, RP_EINVAL, "result %s does not match the Kings on the board (CD-7)",
                       result_word[s->result]);
    }
    return RP_OK;
}

static int cd_state_ok(const void *st, rp_error *err)
{
    const cd_state *s = st;
    int rc;
    if ((rc = check_board(s, err)) < 0 || (rc = check_counters(s, err)) < 0)
        return rc;
    return check_flow(s, err);
}

/* ---- views ---- */

static cJSON *square_json(int sq)
{
    char name[3];
    return cJSON_CreateString(square_name(sq, name));
}

/* The squares of a bitboard as an array of names. */
static cJSON *squares_json(uint64_t b)
{
    cJSON *arr = cJSON_CreateArray();
    for (; b && arr; b &= b - 1)
        cJSON_AddItemToArray(arr, square_json(low_bit(b)));
    return arr;
}

/* Every piece as {"square", "seat", "piece", "fired"} and every Fire as {"square", "seat"}. */
static void add_board_items(cJSON *v, const cd_state *s)
{
    cJSON *pieces = cJSON_AddArrayToObject(v, "pieces");
    cJSON *fire = cJSON_AddArrayToObject(v, "fire");
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < CD_KINDS; k++)
            for (uint64_t b = s->piece[side][k]; b; b &= b - 1) {
                cJSON *p = cJSON_CreateObject();
                cJSON_AddItemToObject(p, "square", square_json(low_bit(b)));
                cJSON_AddNumberToObject(p, "seat", side);
                cJSON_AddStringToObject(p, "piece", thing_word[k]);
                cJSON_AddBoolToObject(p, "fired", (s->fired >> low_bit(b)) & 1);
                cJSON_AddItemToArray(pieces, p);
            }
        for (uint64_t b = s->fire[side]; b; b &= b - 1) {
            cJSON *f = cJSON_CreateObject();
            cJSON_AddItemToObject(f, "square", square_json(low_bit(b)));
            cJSON_AddNumberToObject(f, "seat", side);
            cJSON_AddItemToArray(fire, f);
        }
    }
    cJSON_AddItemToObject(v, "walls", squares_json(s->walls));
    cJSON_AddItemToObject(v, "fired", squares_json(s->fired));
}

/* The supply left (CD-2, CD-10): {"blue": {"wizard", "builder", "cannon", "fire"}, "red":
 * {...}, "walls"}. */
static cJSON *supply_json(const cd_state *s)
{
    cJSON *supply = cJSON_CreateObject();
    for (int side = 0; side < 2; side++) {
        cJSON *own = cJSON_AddObjectToObject(supply, side_word[side]);
        for (int k = CD_WIZARD; k <= CD_CANNON; k++)
            cJSON_AddNumberToObject(own, thing_word[k], supply_left(s, side, k));
        cJSON_AddNumberToObject(own, "fire", MAX_FIRE - count_bits(s->fire[side]));
    }
    cJSON_AddNumberToObject(supply, "walls", MAX_WALLS - count_bits(s->walls));
    return supply;
}

/* Everything, since nothing is hidden: the same for both seats and the spectator. */
static cJSON *cd_view_json(const void *st, int viewer)
{
    const cd_state *s = st;
    (void)viewer; /* everyone sees everything */
    cJSON *v = cJSON_CreateObject();
    if (!v)
        return NULL;
    char text[RP_STATE_TEXT], letters[CD_SQUARES];
    cd_state_to_text(s, text, sizeof text);
    board_letters(s, letters);
    cJSON_AddStringToObject(v, "game", "castle-danger");
    cJSON_AddStringToObject(v, "position", text);
    cJSON_AddStringToObject(v, "to_move", side_word[s->side]);
    cJSON_AddNumberToObject(v, "moves_left", s->moves);
    cJSON_AddBoolToObject(v, "add_open", s->add_open);
    cJSON_AddNumberToObject(v, "add_cost", add_cost(s));
    cJSON_AddNumberToObject(v, "turn", s->turn);
    if (s->limit)
        cJSON_AddNumberToObject(v, "turn_limit", s->limit);
    else
        cJSON_AddNullToObject(v, "turn_limit");
    cJSON_AddBoolToObject(v, "tournament", s->tournament);
    cJSON_AddStringToObject(v, "result", result_word[s->result]);
    cJSON *board = cJSON_AddArrayToObject(v, "board");
    for (int r = CD_ROWS; r >= 1; r--) {
        char rank[CD_COLS + 1];
        for (int c = 0; c < CD_COLS; c++) {
            const char ch = letters[CD_SQ(c, r)];
            rank[c] = ch ? ch : r == 5 ? '~' : '.';
        }
        rank[CD_COLS] = '\0';
        cJSON_AddItemToArray(board, cJSON_CreateString(rank));
    }
    add_board_items(v, s);
    cJSON_AddItemToObject(v, "supply", supply_json(s));
    return v;
}

/* Full information and no chance: nothing to resample, for any viewer. */
static void cd_determinize(void *st, int viewer, rp_rng *rng)
{
    (void)st;
    (void)viewer;
    (void)rng;
}

/* Nothing is secret in Castle Danger: always the empty list. */
static int cd_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    (void)st;
    (void)viewer;
    if (size == 0)
        return RP_ENOSPACE;
    buf[0] = '\0';
    return 0;
}

/* ---- rendering ---- */

#define ANSI_RESET "\x1b[0m"

/* One board cell, three characters wide, with colours when asked. */
static void render_cell(const cd_state *s, const char *letters, int sq, FILE *out, bool color)
{
    const char ch = letters[sq];
    const uint64_t bit = 1ULL << sq;
    const bool fired = (s->fired >> sq) & 1;
    const char *ground = (RIVER & bit) ? "\x1b[44m" : (SAND & bit) ? "\x1b[43m" : "\x1b[42m";
    char cell[4] = {' ', '.', ' ', '\0'};
    const char *fg = "\x1b[30m";
    if (RIVER & bit)
        cell[1] = '~';
    else if (SAND & bit)
        cell[1] = ':';
    if ((portal[0] | portal[1]) & bit && !ch)
        cell[1] = 'o';
    if (ch) {
        cell[1] = ch;
        if (ch == '#')
            fg = "\x1b[1;37m";
        else if (ch == 'F' || ch == 'f') {
            cell[0] = '*';
            cell[2] = '*';
            fg = ch == 'F' ? "\x1b[1;34m" : "\x1b[1;31m";
        } else
            fg = islower((unsigned char)ch) ? "\x1b[1;31m" : "\x1b[1;34m";
        if (fired)
            cell[2] = '\'';
    }
    if (color)
        fprintf(out, "%s%s%s" ANSI_RESET, ground, fg, cell);
    else
        fputs(cell, out);
}

/* One line per side: supply left and pieces on the board (CD-2). */
static void render_side_line(const cd_state *s, int side, FILE *out)
{
    fprintf(out,
            "  %-4s supply: %d Wizards, %d Builders, %d Cannons, %d Fire; on board: %d "
            "Wizards, %d Builders, %d Cannons\n",
            side_title[side], supply_left(s, side, CD_WIZARD), supply_left(s, side, CD_BUILDER),
            supply_left(s, side, CD_CANNON), MAX_FIRE - count_bits(s->fire[side]),
            count_bits(s->piece[side][CD_WIZARD]), count_bits(s->piece[side][CD_BUILDER]),
            count_bits(s->piece[side][CD_CANNON]));
}

/* The board for a terminal, the viewer's side at the bottom (Blue's for the spectator), with
 * the legend and supply, ending with whose turn it is and the moves left this turn. */
static void cd_render(const void *st, int viewer, FILE *out, bool color)
{
    const cd_state *s = st;
    const bool red_view = viewer == CD_RED;
    char letters[CD_SQUARES];
    board_letters(s, letters);
    fprintf(out, "Castle Danger, turn %u", s->turn);
    if (s->limit)
        fprintf(out, " of %d%s", s->limit, s->tournament ? " (tournament)" : "");
    else
        fputs(" (no turn limit)", out);
    if (viewer == CD_BLUE || viewer == CD_RED)
        fprintf(out, "; you are %s", viewer == CD_BLUE ? "Blue (capitals)" : "Red (small letters)");
    else
        fputs("; you are watching", out);
    fputc('\n', out);
    fputs("  K King  W Wizard  B Builder  C Cannon (Blue capitals, Red small; ' = fired)\n"
          "  # Wall  *F* Blue Fire  *f* Red Fire  o Portal  : sand  ~ river  . grass\n",
          out);
    render_side_line(s, CD_BLUE, out);
    render_side_line(s, CD_RED, out);
    fprintf(out, "  Walls in supply: %d\n", MAX_WALLS - count_bits(s->walls));
    fputs("     a  b  c  d  e  f  g\n", out);
    for (int i = 0; i < CD_ROWS; i++) {
        const int r = red_view ? i + 1 : CD_ROWS - i;
        fprintf(out, "  %d ", r);
        for (int c = 0; c < CD_COLS; c++)
            render_cell(s, letters, CD_SQ(c, r), out, color);
        fprintf(out, " %d\n", r);
    }
    fputs("     a  b  c  d  e  f  g\n", out);
    if (s->result == CD_DRAW)
        fputs("  Game over: draw (turn limit reached)\n", out);
    else if (s->result != CD_ONGOING)
        fprintf(out, "  Game over: %s wins (King hit)\n",
                s->result == CD_BLUE_WON ? "Blue" : "Red");
    else {
        fprintf(out, "  %s to move, %d move%s left this turn", side_title[s->side], s->moves,
                s->moves == 1 ? "" : "s");
        if (s->add_open)
            fprintf(out, "; add step open (costs %d)", add_cost(s));
        fputc('\n', out);
    }
}

/* ---- actions as data ---- */

/* The squares of the Builders of the side to move next to sq. */
static uint64_t builders_next_to(const cd_state *s, int sq)
{
    return adjacent(1ULL << sq) & s->piece[s->side][CD_BUILDER];
}

/* {"kind": "move|add|build|remove|fire|end", "seat", ...the parts as data}: "piece" then
 * "from" and "to" squares, Builders "by" for building and removing, a shot's "distance" and
 * "target", and the "cost" in moves (docs/games/castle-danger.md). */
static cJSON *cd_action_json(const void *st, rp_action action)
{
    const cd_state *s = st;
    char text[RP_ACTION_TEXT];
    if (cd_action_to_text(s, action, text, sizeof text) < 0)
        return NULL;
    cJSON *a = cJSON_CreateObject();
    if (!a)
        return NULL;
    int cost = 1;
    if (action == A_END) {
        cJSON_AddStringToObject(a, "kind", "end");
        cJSON_AddNumberToObject(a, "forfeit", s->moves);
        cost = 0;
    } else if (action < A_MOVE) {
        cJSON_AddStringToObject(a, "kind", "add");
        cJSON_AddStringToObject(a, "piece", thing_word[action - A_ADD + 1]);
        cJSON_AddItemToObject(a, "to", square_json(low_bit(portal[s->side])));
        cost = add_cost(s);
    } else if (action < A_BUILD) {
        const int from = (int)(action - A_MOVE) >> 2, to = from + dir_delta[(action - A_MOVE) & 3];
        int owner;
        cJSON_AddStringToObject(a, "kind", "move");
        cJSON_AddStringToObject(a, "piece", thing_word[thing_at(s, from, &owner)]);
        cJSON_AddItemToObject(a, "from", square_json(from));
        cJSON_AddItemToObject(a, "to", square_json(to));
    } else if (action < A_FIRE) {
        const int sq = (int)action - (action < A_REMOVE ? A_BUILD : A_REMOVE);
        cJSON_AddStringToObject(a, "kind", action < A_REMOVE ? "build" : "remove");
        cJSON_AddItemToObject(a, "by", squares_json(builders_next_to(s, sq)));
        cJSON_AddItemToObject(a, "to", square_json(sq));
    } else {
        const int from = (int)(action - A_FIRE) >> 3, dist = (int)((action - A_FIRE) & 7) + 1;
        const int to = from + (s->side == CD_BLUE ? 7 : -7) * dist;
        int owner;
        const int target = thing_at(s, to, &owner);
        cJSON_AddStringToObject(a, "kind", "fire");
        cJSON_AddStringToObject(a, "piece", "cannon");
        cJSON_AddItemToObject(a, "from", square_json(from));
        cJSON_AddItemToObject(a, "to", square_json(to));
        cJSON_AddNumberToObject(a, "distance", dist);
        if (target == T_NONE)
            cJSON_AddNullToObject(a, "target");
        else
            cJSON_AddStringToObject(a, "target", thing_word[target]);
        if (owner >= 0)
            cJSON_AddNumberToObject(a, "owner", owner);
        cost = dist;
    }
    cJSON_AddNumberToObject(a, "seat", s->side);
    cJSON_AddNumberToObject(a, "cost", cost);
    return a;
}

/* ---- events ---- */

/* "Blue's Wizard", "Red's Fire" or "the Wall": what a note's thing was. */
static void thing_phrase(int what, int owner, char *buf, size_t size)
{
    if (owner >= 0)
        snprintf(buf, size, "%s's %s", side_title[owner], thing_title[what]);
    else
        snprintf(buf, size, "the %s", thing_title[what]);
}

/* " (1 move; 5 left)": what an action paid and what remains. */
static void cost_phrase(const cd_note *n, char *buf, size_t size)
{
    snprintf(buf, size, " (%d move%s; %d left)", n->count, n->count == 1 ? "" : "s", n->left);
}

/* The part an event's squares, as data. */
static void add_square(cJSON *e, const char *key, int sq)
{
    if (e && sq >= 0)
        cJSON_AddItemToObject(e, key, square_json(sq));
}

/* The events of an action by the side to move: the action itself. */
static void tell_action(cJSON *events, const cd_note *n)
{
    const char *who = side_title[n->side];
    char from[3] = "", to[3] = "", cost[40];
    if (n->from >= 0)
        square_name(n->from, from);
    if (n->to >= 0)
        square_name(n->to, to);
    cost_phrase(n, cost, sizeof cost);
    cJSON *e = NULL;
    switch (n->kind) {
    case N_MOVE:
        e = rp__event(events, "move", n->side, "%s moves the %s from %s to %s%s.", who,
                      thing_title[n->what], from, to, cost);
        cJSON_AddStringToObject(e, "piece", thing_word[n->what]);
        break;
    case N_ADD:
        e = rp__event(events, "add", n->side,
                      "%s adds a %s on its Portal %s, %s; %d move%s "
                      "left.",
                      who, thing_title[n->what], to,
                      n->count ? "for 2 moves (it has at least as many pieces as its opponent)"
                               : "free (it has fewer pieces than its opponent)",
                      n->left, n->left == 1 ? "" : "s");
        cJSON_AddStringToObject(e, "piece", thing_word[n->what]);
        break;
    case N_BUILD:
        e = rp__event(events, "build", n->side, "%s's Builder builds a Wall on %s%s.", who, to,
                      cost);
        break;
    case N_REMOVE:
        e = rp__event(events, "remove", n->side, "%s's Builder removes the Wall on %s%s.", who, to,
                      cost);
        break;
    default: /* N_FIRE */
        e = rp__event(events, "fire", n->side, "%s's Cannon on %s fires %d square%s to %s%s%s.",
                      who, from, n->count, n->count == 1 ? "" : "s", to, cost,
                      ((portal[0] | portal[1]) >> n->to) & 1 ? "; a Portal holds no Fire" : "");
        cJSON_AddNumberToObject(e, "distance", n->count);
        break;
    }
    add_square(e, "from", n->from);
    add_square(e, "to", n->to);
    cJSON_AddNumberToObject(e, "cost", n->count);
    cJSON_AddNumberToObject(e, "moves_left", n->left);
}

/* What a shot hit and the Fire it left (lasting through the opponent's turn). */
static void tell_shot(cJSON *events, const cd_note *n, const cd_state *after)
{
    char to[3], thing[40];
    square_name(n->to, to);
    cJSON *e;
    if (n->kind == N_BURN) {
        e = rp__event(events, "burn", n->side, "%s's Fire burns on %s%s.", side_title[n->side], to,
                      after->result == CD_ONGOING ? " through the opponent's turn" : "");
        add_square(e, "square", n->to);
        return;
    }
    thing_phrase(n->what, n->owner, thing, sizeof thing);
    if (n->what == T_WALL)
        e = rp__event(events, "hit", n->side, "The ball destroys the Wall on %s.", to);
    else if (n->what == T_FIRE)
        e = rp__event(events, "hit", n->side, "The ball lands on %s on %s, which goes out.", thing,
                      to);
    else
        e = rp__event(events, "hit", n->side, "The ball hits %s on %s%s.", thing, to,
                      n->what == CD_KING ? "" : ", which is removed");
    add_square(e, "square", n->to);
    cJSON_AddStringToObject(e, "target", thing_word[n->what]);
    if (n->owner >= 0)
        cJSON_AddNumberToObject(e, "owner", n->owner);
}

/* The squares of a bitboard as "c3, d4". */
static void squares_phrase(uint64_t b, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (; b && len + 5 < size; b &= b - 1) {
        char name[3];
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
                                square_name(low_bit(b), name));
    }
}

/* The end of a turn and the start of the next (CD-3), or the end of the game. */
static void tell_flow(cJSON *events, const cd_note *n, const cd_state *after)
{
    const char *who = side_title[n->side];
    char squares[64];
    cJSON *e;
    switch (n->kind) {
    case N_END:
        if (n->what)
            e = rp__event(events, "end", n->side, "%s ends the turn%s%d move%s.", who,
                          n->count ? ", forfeiting " : " with ", n->count,
                          n->count == 1 ? "" : "s");
        else
            e = rp__event(events, "end", n->side, "%s has used all its moves; the turn ends.", who);
        cJSON_AddNumberToObject(e, "forfeited", n->count);
        break;
    case N_FIRE_OUT:
    case N_RESET:
        squares_phrase(n->squares, squares, sizeof squares);
        e = n->kind == N_FIRE_OUT
                ? rp__event(events, "fire-out", n->side, "%s's Fire on %s goes out.", who, squares)
                : rp__event(events, "reset", n->side, "%s's fired Cannons on %s are reset.", who,
                            squares);
        cJSON_AddItemToObject(e, "squares", squares_json(n->squares));
        break;
    case N_TURN: {
        const int wizards = (n->count - 3) / 3;
        e = rp__event(events, "turn", n->side, "%s's turn %u: %d moves (3 + 3 x %d Wizard%s).", who,
                      after->turn, n->count, wizards, wizards == 1 ? "" : "s");
        cJSON_AddNumberToObject(e, "turn", after->turn);
        cJSON_AddNumberToObject(e, "moves", n->count);
        break;
    }
    default: /* N_OVER */
        if (after->result == CD_DRAW) {
            e = rp__event(events, "game-over", -1,
                          "Red's turn %u ends without a King hit: the "
                          "game is drawn at the turn limit.",
                          after->turn);
            cJSON_AddStringToObject(e, "reason", "turn-limit");
        } else {
            const int winner = after->result == CD_BLUE_WON ? CD_BLUE : CD_RED;
            char to[3];
            e = rp__event(events, "game-over", winner, "%s's King is hit on %s%s: %s wins.",
                          side_title[n->owner], square_name(n->to, to),
                          n->owner == n->side ? " by its own Cannon" : "", side_title[winner]);
            cJSON_AddStringToObject(e, "reason", "king-hit");
        }
        cJSON_AddStringToObject(e, "result", result_word[after->result]);
        double score[2];
        cd_returns(after, score);
        cJSON_AddItemToObject(e, "score", cJSON_CreateDoubleArray(score, 2));
        break;
    }
}

/* Everything an action did, for any viewer (nothing is hidden, so every viewer hears the
 * same): the action, what a shot hit and the Fire it left, the end of the turn, the next
 * turn's start, the end of the game. */
static cJSON *cd_events_json(const void *before, rp_action action, int viewer)
{
    (void)viewer;
    cd_state after;
    memcpy(&after, before, sizeof after);
    cd_story story = {0};
    play(&after, action, &story);
    cJSON *events = cJSON_CreateArray();
    if (!events)
        return NULL;
    for (int i = 0; i < story.count; i++) {
        const cd_note *n = &story.note[i];
        if (n->kind <= N_FIRE)
            tell_action(events, n);
        else if (n->kind <= N_BURN)
            tell_shot(events, n, &after);
        else
            tell_flow(events, n, &after);
    }
    return events;
}

/* ---- why an action is not legal ---- */

/* What stands on sq, for people: "a Wall", "Red's Wizard", "Blue's Fire", or "" if empty. */
static const char *occupant(const cd_state *s, int sq, char *buf, size_t size)
{
    int owner;
    const int what = thing_at(s, sq, &owner);
    if (what == T_NONE)
        buf[0] = '\0';
    else if (owner < 0)
        snprintf(buf, size, "a Wall");
    else
        snprintf(buf, size, "%s's %s", side_title[owner], thing_title[what]);
    return buf;
}

static int explain_add(const cd_state *s, int kind, char *buf, size_t size)
{
    char what[32];
    const int p = low_bit(portal[s->side]);
    char name[3];
    if (!s->add_open)
        return snprintf(buf, size, "a piece can be added only as the turn's first action (CD-3)");
    if (occupant(s, p, what, sizeof what)[0])
        return snprintf(buf, size,
                        "your Portal %s holds %s; a piece is added only on an empty "
                        "Portal",
                        square_name(p, name), what);
    if (supply_left(s, s->side, kind) == 0)
        return snprintf(buf, size, "all %d of %s's %ss are on the board (CD-2)", kind_max[kind],
                        side_title[s->side], thing_title[kind]);
    return snprintf(buf, size, "adding costs %d moves and %d are left", add_cost(s), s->moves);
}

static int explain_move(const cd_state *s, int from, int d, char *buf, size_t size)
{
    static const char *const way[4] = {"up", "right", "down", "left"};
    char f[3], t[3], what[32];
    square_name(from, f);
    int owner;
    const int thing = thing_at(s, from, &owner);
    if (!shift_dir(1ULL << from, d))
        return snprintf(buf, size,
                        "%s is at the edge of the board: there is no square %s of "
                        "it (pieces never move off or around the board)",
                        f, way[d]);
    const int to = from + dir_delta[d];
    square_name(to, t);
    if (thing == T_NONE)
        return snprintf(buf, size, "there is no piece on %s", f);
    if (thing >= T_WALL)
        return snprintf(buf, size, "%s holds %s, which does not move", f,
                        occupant(s, from, what, sizeof what));
    if (owner != s->side)
        return snprintf(buf, size, "%s holds %s: you move only your own pieces", f,
                        occupant(s, from, what, sizeof what));
    if ((RIVER >> to) & 1)
        return snprintf(buf, size, "the river cannot be crossed: no piece moves onto the water");
    if (occupant(s, to, what, sizeof what)[0])
        return snprintf(buf, size, "%s holds %s; a piece moves only onto an empty square%s", t,
                        what,
                        thing_at(s, to, &owner) == T_FIRE ? " (no piece moves onto Fire)" : "");
    return -1;
}

static int explain_wall(const cd_state *s, int sq, bool build, char *buf, size_t size)
{
    char name[3], what[32];
    square_name(sq, name);
    if (build && ((RIVER >> sq) & 1))
        return snprintf(buf, size, "Walls cannot be built on the water");
    if (build && ((SAND >> sq) & 1))
        return snprintf(buf, size,
                        "%s is sand: Walls cannot be built on the sand (ranks 4 and "
                        "6)",
                        name);
    if (!build && !((s->walls >> sq) & 1))
        return snprintf(buf, size, "%s holds no Wall to remove", name);
    if (!builders_next_to(s, sq))
        return snprintf(buf, size,
                        "none of your Builders stands next to %s (a Builder works "
                        "on an orthogonally adjacent square, CD-5)",
                        name);
    if (build && occupant(s, sq, what, sizeof what)[0])
        return snprintf(buf, size, "%s holds %s; a Wall is built only on an empty square", name,
                        what);
    if (build && count_bits(s->walls) >= MAX_WALLS)
        return snprintf(buf, size, "all %d Walls are on the board (CD-2)", MAX_WALLS);
    return -1;
}

static int explain_fire(const cd_state *s, int from, int dist, char *buf, size_t size)
{
    char name[3], what[32];
    square_name(from, name);
    if (!((s->piece[s->side][CD_CANNON] >> from) & 1)) {
        if (occupant(s, from, what, sizeof what)[0])
            return snprintf(buf, size, "%s holds %s, not a Cannon of yours", name, what);
        return snprintf(buf, size, "there is no Cannon on %s", name);
    }
    if ((s->fired >> from) & 1)
        return snprintf(buf, size,
                        "that Cannon has already fired this turn (each Cannon fires "
                        "once per turn, CD-6)");
    const int step = s->side == CD_BLUE ? 7 : -7, to = from + step * dist;
    if (to < 0 || to >= CD_SQUARES)
        return snprintf(buf, size,
                        "a ball from %s cannot travel %d squares: it would leave the "
                        "board",
                        name, dist);
    if (dist > s->moves)
        return snprintf(buf, size, "a shot of %d squares costs %d moves and %d are left", dist,
                        dist, s->moves);
    for (int sq = from + step; sq != to; sq += step)
        if ((s->walls >> sq) & 1)
            return snprintf(buf, size,
                            "the Wall on %s stops the ball: a ball cannot fly over a "
                            "Wall",
                            square_name(sq, name));
    if ((RIVER >> to) & 1)
        return snprintf(buf, size, "a ball cannot land on the river");
    return -1;
}

/* Why `action` is not legal here, in the game's terms; < 0 when it is legal. */
static int cd_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const cd_state *s = st;
    if (s->result != CD_ONGOING)
        return snprintf(buf, size, "the game is over");
    rp_action legal[RP_MAX_LEGAL];
    const int n = cd_legal_actions(s, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == action)
            return -1;
    if (action >= A_COUNT)
        return snprintf(buf, size, "there is no action %u", (unsigned)action);
    if (action < A_MOVE)
        return explain_add(s, (int)action - A_ADD + 1, buf, size);
    if (action < A_BUILD)
        return explain_move(s, (int)(action - A_MOVE) >> 2, (int)(action - A_MOVE) & 3, buf, size);
    if (action >= A_FIRE)
        return explain_fire(s, (int)(action - A_FIRE) >> 3, (int)((action - A_FIRE) & 7) + 1, buf,
                            size);
    const bool build = action < A_REMOVE;
    const int sq = (int)action - (build ? A_BUILD : A_REMOVE);
    return sq < CD_SQUARES ? explain_wall(s, sq, build, buf, size) : -1;
}

/* ---- evaluation ---- */

/* Rough number of moves `att` needs to hit the enemy King with some Cannon, whether that
 * Cannon has fired or not: sideways steps to the King's column, the shot's length, and 4 per
 * Wall in the way (a shot to clear it). 99 when `att` has no Cannon. */
static int king_attack_cost(const cd_state *s, int att)
{
    const uint64_t king = s->piece[att ^ 1][CD_KING];
    uint64_t cannons = s->piece[att][CD_CANNON];
    if (!king || !cannons)
        return 99;
    const int ksq = low_bit(king), kc = ksq % CD_COLS, kr = ksq / CD_COLS;
    int best = 99;
    for (; cannons; cannons &= cannons - 1) {
        const int c = low_bit(cannons), cc = c % CD_COLS, cr = c / CD_COLS;
        int cost = abs(cc - kc) + abs(kr - cr);
        const int lo = cr < kr ? cr : kr, hi = cr < kr ? kr : cr;
        for (int r = lo + 1; r < hi; r++)
            if ((s->walls >> (r * CD_COLS + kc)) & 1)
                cost += 4;
        if (cost < best)
            best = cost;
    }
    return best;
}

/* True when the side to move can hit the enemy King with one shot right now (CD-6, CD-7). */
static bool king_shot_now(const cd_state *s)
{
    const uint64_t king = s->piece[s->side ^ 1][CD_KING];
    const int step = s->side == CD_BLUE ? 7 : -7;
    for (uint64_t c = s->piece[s->side][CD_CANNON] & ~s->fired; c; c &= c - 1) {
        int sq = low_bit(c);
        for (int d = 1; d <= s->moves; d++) {
            sq += step;
            if (sq < 0 || sq >= CD_SQUARES)
                break;
            if ((king >> sq) & 1)
                return true;
            if ((s->walls >> sq) & 1)
                break;
        }
    }
    return false;
}

/* Side `side`'s standing: material (Wizards count most, being moves), Walls in front of its
 * King, and how close the enemy is to a shot at it given the moves the enemy will have. */
static double side_score(const cd_state *s, int side)
{
    const int enemy = side ^ 1;
    const int wizards = count_bits(s->piece[side][CD_WIZARD]);
    double v = 1.5 * wizards + 1.2 * count_bits(s->piece[side][CD_CANNON]) +
               0.8 * count_bits(s->piece[side][CD_BUILDER]);
    const uint64_t king = s->piece[side][CD_KING];
    if (king) {
        const int ksq = low_bit(king), kc = ksq % CD_COLS;
        const uint64_t file = FILE_A << kc;
        const uint64_t front = side == CD_BLUE ? file & ~((2ULL << ksq) - 1) & BLUE_SIDE
                                               : file & ((1ULL << ksq) - 1) & RED_SIDE;
        const int cover = count_bits(front & s->walls);
        v += 0.6 * (cover > 2 ? 2 : cover);
        /* walls on the neighbouring files slow a Cannon sliding over */
        v += 0.15 * count_bits(adjacent(front) & ~file & s->walls);
        const int budget = s->side == enemy ? s->moves : turn_moves(s, enemy);
        const int margin = budget - king_attack_cost(s, enemy);
        v -= margin >= 0 ? 4.0 + 0.2 * margin : 4.0 * exp(margin / 2.5);
    }
    return v;
}

/* A heuristic share of the win in [0,1] for `player` (everything is visible to both). */
static double cd_evaluate(const void *st, int player)
{
    const cd_state *s = st;
    if (player < 0 || player > 1)
        return 0.5;
    if (s->result != CD_ONGOING) {
        double r[2];
        cd_returns(s, r);
        return r[player];
    }
    if (king_shot_now(s))
        return s->side == player ? 0.99 : 0.01;
    double diff = side_score(s, player) - side_score(s, player ^ 1);
    const double value = 1.0 / (1.0 + exp(-diff / 3.0));
    return value < 0.02 ? 0.02 : value > 0.98 ? 0.98 : value;
}

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

/* One field a line: */
/* clang-format off */
static const rp_obs_field cd_obs_fields[] = {
    {"board", CD_OBS_PLANES, {12, CD_ROWS, CD_COLS},
     "planes of the board (row = rank - 1, column a = 0), 1 where: your King, Wizard, Builder, "
     "Cannon; the opponent's King, Wizard, Builder, Cannon; a Wall; your Fire marker; the "
     "opponent's Fire marker; a Cannon that has fired since its owner's turn began"},
    {"to_move", CD_OBS_TO_MOVE, {2, 1, 1}, "one-hot: you, the opponent are to move"},
    {"turn", CD_OBS_TURN, {5, 1, 1},
     "moves left this turn / 27, 1 while the add step is open, turn number / 100, turn limit "
     "/ 100 (0: none), 1 under tournament=1"},
    {"result", CD_OBS_RESULT, {4, 1, 1}, "one-hot: ongoing, you won, the opponent won, draw"},
    {"seat", CD_OBS_SEAT, {1, 1, 1}, "1 when you are Red (seat 1), 0 when Blue"},
};
/* clang-format on */

static void cd_obs_plane(float *plane, uint64_t b)
{
    for (; b; b &= b - 1)
        plane[low_bit(b)] = 1.0f;
}

static void cd_observation_tensor(const void *st, int player, float *out)
{
    const cd_state *s = st;
    const int them = player ^ 1;
    memset(out, 0, CD_OBS_SIZE * sizeof *out);
    for (int k = 0; k < CD_KINDS; k++) {
        cd_obs_plane(out + (CD_PLANE_MINE + k) * CD_SQUARES, s->piece[player][k]);
        cd_obs_plane(out + (CD_PLANE_THEIRS + k) * CD_SQUARES, s->piece[them][k]);
    }
    cd_obs_plane(out + CD_PLANE_WALLS * CD_SQUARES, s->walls);
    cd_obs_plane(out + CD_PLANE_MY_FIRE * CD_SQUARES, s->fire[player]);
    cd_obs_plane(out + CD_PLANE_THEIR_FIRE * CD_SQUARES, s->fire[them]);
    cd_obs_plane(out + CD_PLANE_FIRED * CD_SQUARES, s->fired);
    out[CD_OBS_TO_MOVE + (s->side == player ? 0 : 1)] = 1.0f;
    out[CD_OBS_TURN] = (float)s->moves / (float)MAX_MOVES;
    out[CD_OBS_TURN + 1] = s->add_open ? 1.0f : 0.0f;
    out[CD_OBS_TURN + 2] = (float)s->turn / 100.0f;
    out[CD_OBS_TURN + 3] = (float)s->limit / 100.0f;
    out[CD_OBS_TURN + 4] = s->tournament ? 1.0f : 0.0f;
    const int won = s->result == CD_BLUE_WON ? CD_BLUE : s->result == CD_RED_WON ? CD_RED : -1;
    out[CD_OBS_RESULT + (s->result == CD_ONGOING ? 0
                         : s->result == CD_DRAW  ? 3
                         : won == player         ? 1
                                                 : 2)] = 1.0f;
    out[CD_OBS_SEAT] = (float)player;
}

static const char *const cd_seat_names[] = {"Blue", "Red"};

const rp_game rp_castle_danger = {
    .id = "castle-danger",
    .title = "Castle Danger",
    .summary = "abstract strategy: Wizards give moves, Builders wall, Cannons fire at the King",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = 0,
    .num_actions = A_COUNT,
    .state_size = sizeof(cd_state),
    .options = cd_options,
    .num_options = (int)(sizeof cd_options / sizeof cd_options[0]),
    .seat_names = cd_seat_names,
    /* A stated rules workload: formal play's 25-turn limit (CD-8), so every game ends by the
     * rules and the action count stays a signature of them. */
    .bench_options = "tournament=1",
    .ai_levels = {"iters=300", "iters=1500", "iters=5000"},
    /* No chance: the side that moves first is the only asymmetry, so comparisons swap it. */
    .paired_seats = true,
    /* CD-16: without a limit a game ends only when a King is hit; tools stop it after 100
     * turns per player (turn_number counts as CD-15 does) and report it unfinished. */
    .tool_turn_cap = CD_TOOL_TURN_CAP,
    .init = cd_init,
    .num_players = cd_num_players,
    .current_player = cd_current_player,
    .turn_number = cd_turn_number,
    .legal_actions = cd_legal_actions,
    .apply = cd_apply,
    .returns = cd_returns,
    .action_to_text = cd_action_to_text,
    .action_from_text = cd_action_from_text,
    .state_to_text = cd_state_to_text,
    .state_from_text = cd_state_from_text,
    .state_ok = cd_state_ok,
    .config_of = cd_config_of,
    .view_json = cd_view_json,
    .determinize = cd_determinize,
    .render = cd_render,
    .action_json = cd_action_json,
    .events_json = cd_events_json,
    .explain_illegal = cd_explain_illegal,
    .secret_names = cd_secret_names,
    .evaluate = cd_evaluate,
    .observe_action = NULL,
    .observation_size = CD_OBS_SIZE,
    .observation_fields = cd_obs_fields,
    .num_observation_fields = (int)(sizeof cd_obs_fields / sizeof cd_obs_fields[0]),
    .observation_tensor = cd_observation_tensor,
};
