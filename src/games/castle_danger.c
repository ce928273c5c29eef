/* castle_danger.c — Castle Danger (Matt Worden, 3rd edition, 2008 update) on the Ramparts game
 * interface: bitboard state, legal actions, apply, action and position notation (CD-9), JSON
 * views, terminal rendering and a cheap evaluation for the AI. Rulings: docs/rules/castle-danger.md.
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

#define ALL_SQ ((1ULL << CD_SQUARES) - 1)
#define RANK_BITS(r) (0x7FULL << (7 * ((r) - 1)))
#define BLUE_SIDE ((1ULL << 28) - 1)                      /* ranks 1-4 */
#define RIVER RANK_BITS(5)
#define RED_SIDE (ALL_SQ & ~((1ULL << 35) - 1))            /* ranks 6-9 */
#define SAND (RANK_BITS(4) | RANK_BITS(6))
#define GRASS (ALL_SQ & ~SAND & ~RIVER)
#define FILE_A 0x0040810204081ULL /* bit 0 of every rank */
#define FILE_G (FILE_A << 6)

static const uint64_t side_mask[2] = {BLUE_SIDE, RED_SIDE};
static const uint64_t portal[2] = {1ULL << CD_SQ(3, 1), 1ULL << CD_SQ(3, 9)};
static const int dir_delta[4] = {7, 1, -7, -1};
static const char kind_letter[CD_KINDS] = {'K', 'W', 'B', 'C'};
static const char *const kind_name[CD_KINDS] = {"king", "wizard", "builder", "cannon"};
static const char *const side_name[2] = {"blue", "red"};
static const int kind_max[CD_KINDS] = {1, MAX_WIZARDS, MAX_BUILDERS, MAX_CANNONS};

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

/* ---- turn flow ---- */

/* CD-3: the start of a turn: own Fire removed, own Cannons reset, 3 + 3 x Wizards moves. */
static void start_turn(cd_state *s)
{
    const int side = s->side;
    s->fire[side] = 0;
    s->fired &= ~s->piece[side][CD_CANNON];
    s->moves = (uint8_t)(3 + 3 * count_bits(s->piece[side][CD_WIZARD]));
    s->add_open = 1;
}

/* The end of a turn; CD-15: Red's turn number `limit` ending without a King hit is a draw. */
static void end_turn(cd_state *s)
{
    if (s->side == CD_RED && s->turn >= s->limit) {
        s->result = CD_DRAW;
        s->moves = 0;
        s->add_open = 0;
        return;
    }
    s->side ^= 1;
    if (s->side == CD_BLUE)
        s->turn++;
    start_turn(s);
}

/* ---- the interface ---- */

static const rp_option_spec cd_options[] = {
    {"turn-limit", RP_OPT_INT, 1, MAX_LIMIT, 100, NULL,
     "turns per player; when Red's last turn ends without a King hit the game is a draw "
     "(CD-8, CD-15); default 100, or 25 with tournament=1", NULL},
    {"tournament", RP_OPT_INT, 0, 1, 0, NULL,
     "1: formal play (CD-8): turn limit 25 unless turn-limit is given; sim and arena play "
     "games in pairs with sides swapped", NULL},
};

/* CD-1: the standard setup, Blue to move with its first turn started. */
static int cd_init(void *st, const rp_config *cfg, rp_error *err)
{
    cd_state *s = st;
    if (cfg->players != 2)
        return rp_fail(err, RP_EINVAL, "Castle Danger is for exactly 2 players");
    memset(s, 0, sizeof *s);
    const bool tournament = cfg->value[1] != 0;
    int64_t limit = cfg->given[0] ? cfg->value[0] : (tournament ? 25 : 100);
    if (limit < 1 || limit > MAX_LIMIT)
        return rp_fail(err, RP_EINVAL, "turn-limit=%lld is out of range 1..%d",
                       (long long)limit, MAX_LIMIT);
    s->limit = (uint16_t)limit;
    s->turn = 1;
    s->piece[CD_BLUE][CD_KING] = 1ULL << CD_SQ(2, 1);
    s->piece[CD_BLUE][CD_WIZARD] = 1ULL << CD_SQ(4, 1);
    s->piece[CD_RED][CD_KING] = 1ULL << CD_SQ(4, 9);
    s->piece[CD_RED][CD_WIZARD] = 1ULL << CD_SQ(2, 9);
    s->walls = (1ULL << CD_SQ(2, 2)) | (1ULL << CD_SQ(4, 2)) | (1ULL << CD_SQ(4, 8)) |
               (1ULL << CD_SQ(2, 8));
    s->side = CD_BLUE;
    start_turn(s);
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
    if (count_bits(s->walls) < MAX_WALLS) /* CD-2: the 20 Walls are shared */
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
static void fire_cannon(cd_state *s, int from, int dist)
{
    const int side = s->side;
    const int to = from + (side == CD_BLUE ? 7 : -7) * dist;
    const uint64_t bit = 1ULL << to;
    s->fired |= 1ULL << from;
    s->moves = (uint8_t)(s->moves - dist);
    const int king_owner = clear_square(s, bit);
    if (!((portal[0] | portal[1]) & bit))
        s->fire[side] |= bit;
    if (king_owner >= 0) {
        s->result = king_owner == CD_BLUE ? CD_RED_WON : CD_BLUE_WON;
        s->moves = 0;
    }
}

/* CD-4: one step of the piece on `from` (its fired mark travels with a Cannon, CD-12). */
static void move_piece(cd_state *s, int from, int d)
{
    const uint64_t a = 1ULL << from, b = 1ULL << (from + dir_delta[d]);
    uint64_t *kinds = s->piece[s->side];
    for (int k = 0; k < CD_KINDS; k++)
        if (kinds[k] & a) {
            kinds[k] ^= a | b;
            break;
        }
    if (s->fired & a)
        s->fired ^= a | b;
    s->moves--;
}

/* Play a legal action: pay its moves, close the add step (CD-P4), and end the turn when the
 * moves run out (CD-3). */
static void cd_apply(void *st, rp_action action)
{
    cd_state *s = st;
    if (action == A_END) {
        end_turn(s);
        return;
    }
    if (action < A_MOVE) {
        const int kind = (int)action - A_ADD + 1;
        s->moves = (uint8_t)(s->moves - add_cost(s)); /* CD-13: counted before placing */
        s->piece[s->side][kind] |= portal[s->side];
    } else if (action < A_BUILD) {
        move_piece(s, (int)(action - A_MOVE) >> 2, (int)(action - A_MOVE) & 3);
    } else if (action < A_REMOVE) {
        s->walls |= 1ULL << (action - A_BUILD);
        s->moves--;
    } else if (action < A_FIRE) {
        s->walls &= ~(1ULL << (action - A_REMOVE));
        s->moves--;
    } else {
        fire_cannon(s, (int)(action - A_FIRE) >> 3, (int)((action - A_FIRE) & 7) + 1);
    }
    s->add_open = 0;
    if (s->result == CD_ONGOING && s->moves == 0)
        end_turn(s);
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

/* Write the name of sq ("c3") with its NUL; returns 2, the length. */
static int square_text(int sq, char *buf)
{
    buf[0] = (char)('a' + sq % CD_COLS);
    buf[1] = (char)('1' + sq / CD_COLS);
    buf[2] = '\0';
    return 2;
}

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
        n = put_word(t, put_word(t, 0, "add "), kind_name[action - A_ADD + 1]);
    else if (action < A_BUILD) {
        const int from = (int)(action - A_MOVE) >> 2, d = (int)(action - A_MOVE) & 3;
        if (shift_dir(1ULL << from, d) == 0)
            return RP_EINVAL;
        square_text(from, t);
        t[2] = '-';
        square_text(from + dir_delta[d], t + 3);
        n = 5;
    } else if (action < A_FIRE) {
        const bool build = action < A_REMOVE;
        const int sq = (int)action - (build ? A_BUILD : A_REMOVE);
        if (sq >= CD_SQUARES)
            return RP_EINVAL;
        n = put_word(t, 0, build ? "build " : "remove ");
        n += square_text(sq, t + n);
    } else if (action < A_COUNT) {
        n = put_word(t, 0, "fire ");
        n += square_text((int)(action - A_FIRE) >> 3, t + n);
        t[n++] = ':';
        t[n++] = (char)('1' + ((action - A_FIRE) & 7));
    } else
        return RP_EINVAL;
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

/* Parse a move "c1-c2" (the squares must be orthogonal neighbours). */
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
    return rp_fail(err, RP_EPARSE,
                   "'%s': a piece moves one square up, down, left or right (CD-4)", t);
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
        return rp_fail(err, RP_EPARSE, "expected an action such as 'end', 'add wizard', "
                                       "'c1-c2', 'build c3', 'remove c3' or 'fire d2:4'");
    memcpy(t, text, len);
    t[len] = '\0';
    if (strcmp(t, "end") == 0) {
        *out = A_END;
        return RP_OK;
    }
    if (strncmp(t, "add ", 4) == 0) {
        for (int k = CD_WIZARD; k <= CD_CANNON; k++)
            if (strcmp(t + 4, kind_name[k]) == 0) {
                *out = (rp_action)(A_ADD + k - 1);
                return RP_OK;
            }
        return rp_fail(err, RP_EPARSE, "'%s': only a wizard, builder or cannon can be added",
                       t);
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
    return rp_fail(err, RP_EPARSE, "'%s' is not an action: expected 'end', 'add wizard', "
                                   "'c1-c2', 'build c3', 'remove c3' or 'fire d2:4'", t);
}

/* ---- position notation (CD-9) ---- */

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

/* Notation field 6: the result as in chess records. */
static const char *result_text(int result)
{
    static const char *const text[] = {"*", "1-0", "0-1", "1/2"};
    return text[result];
}

/* How many of each thing are left in supply (CD-2, CD-10). */
static int supply_left(const cd_state *s, int side, int kind)
{
    return kind_max[kind] - count_bits(s->piece[side][kind]);
}

/* The position notation (CD-9; format in docs/rules/castle-danger.md). */
static int cd_state_to_text(const void *st, char *buf, size_t size)
{
    const cd_state *s = st;
    char board[128], letters[CD_SQUARES];
    board_letters(s, letters);
    int n = 0;
    for (int r = CD_ROWS; r >= 1; r--) {
        int empty = 0;
        for (int c = 0; c < CD_COLS; c++) {
            const int sq = CD_SQ(c, r);
            const char ch = letters[sq];
            if (!ch) {
                empty++;
                continue;
            }
            if (empty)
                board[n++] = (char)('0' + empty);
            empty = 0;
            board[n++] = ch;
            if ((s->fired >> sq) & 1)
                board[n++] = '*';
        }
        if (empty)
            board[n++] = (char)('0' + empty);
        if (r > 1)
            board[n++] = '/';
    }
    board[n] = '\0';
    const int len = snprintf(
        buf, size, "%s %c %d %s %d/%d %s W%dB%dC%dF%d/w%db%dc%df%d/#%d", board,
        s->side == CD_BLUE ? 'b' : 'r', s->moves, s->add_open ? "add" : "-", s->turn, s->limit,
        result_text(s->result), supply_left(s, 0, CD_WIZARD), supply_left(s, 0, CD_BUILDER),
        supply_left(s, 0, CD_CANNON), MAX_FIRE - count_bits(s->fire[0]),
        supply_left(s, 1, CD_WIZARD), supply_left(s, 1, CD_BUILDER),
        supply_left(s, 1, CD_CANNON), MAX_FIRE - count_bits(s->fire[1]),
        MAX_WALLS - count_bits(s->walls));
    return len < 0 || (size_t)len >= size ? RP_ENOSPACE : len;
}

/* Read the board field into s (pieces, Walls, Fire, fired marks); placement checked later. */
static int parse_board(cd_state *s, const char *text, rp_error *err)
{
    int r = CD_ROWS, c = 0;
    for (const char *p = text; *p; p++) {
        const char ch = *p;
        if (ch == '/') {
            if (c != CD_COLS)
                return rp_fail(err, RP_EPARSE, "board: rank %d has %d squares, not 7", r, c);
            if (--r < 1)
                return rp_fail(err, RP_EPARSE, "board: more than 9 ranks");
            c = 0;
            continue;
        }
        if (ch >= '1' && ch <= '7') {
            c += ch - '0';
            if (c > CD_COLS)
                return rp_fail(err, RP_EPARSE, "board: rank %d has more than 7 squares", r);
            continue;
        }
        if (ch == '*') {
            if (p == text || (p[-1] != 'C' && p[-1] != 'c'))
                return rp_fail(err, RP_EPARSE, "board: '*' (fired) must directly follow a "
                                               "Cannon C or c, on rank %d", r);
            s->fired |= 1ULL << CD_SQ(c - 1, r);
            continue;
        }
        if (c >= CD_COLS)
            return rp_fail(err, RP_EPARSE, "board: rank %d has more than 7 squares", r);
        const uint64_t bit = 1ULL << CD_SQ(c, r);
        const char *k = strchr("KWBC", toupper((unsigned char)ch));
        if (k && *k)
            s->piece[islower((unsigned char)ch) ? CD_RED : CD_BLUE][k - "KWBC"] |= bit;
        else if (ch == '#')
            s->walls |= bit;
        else if (ch == 'F' || ch == 'f')
            s->fire[ch == 'F' ? CD_BLUE : CD_RED] |= bit;
        else
            return rp_fail(err, RP_EPARSE, "board: unknown square '%c' on rank %d (use "
                                           "K W B C k w b c # F f or 1-7)", ch, r);
        c++;
    }
    if (c != CD_COLS)
        return rp_fail(err, RP_EPARSE, "board: rank %d has %d squares, not 7", r, c);
    if (r != 1)
        return rp_fail(err, RP_EPARSE, "board: %d ranks, expected 9 (9 down to 1, separated "
                                       "by '/')", CD_ROWS + 1 - r);
    return RP_OK;
}

/* Where things may stand (CD-4, CD-5, CD-6) and how many there may be (CD-2, CD-10). */
static int check_board(const cd_state *s, rp_error *err)
{
    for (int side = 0; side < 2; side++) {
        const uint64_t pieces = side_pieces(s, side);
        if (pieces & ~side_mask[side])
            return rp_fail(err, RP_EINVAL, "board: a %s piece stands off %s's side", side_name[side],
                           side_name[side]);
        for (int k = 0; k < CD_KINDS; k++)
            if (count_bits(s->piece[side][k]) > kind_max[k])
                return rp_fail(err, RP_EINVAL, "board: %s has %d %ss, at most %d (CD-2)",
                               side_name[side], count_bits(s->piece[side][k]), kind_name[k],
                               kind_max[k]);
        if (count_bits(s->fire[side]) > MAX_FIRE)
            return rp_fail(err, RP_EINVAL, "board: %s has more than %d Fire markers (CD-2)",
                           side_name[side], MAX_FIRE);
        if (s->fire[side] & (portal[0] | portal[1] | RIVER))
            return rp_fail(err, RP_EINVAL, "board: Fire on a Portal or the river (CD-6)");
    }
    if (s->walls & ~GRASS)
        return rp_fail(err, RP_EINVAL, "board: a Wall on sand or the river (CD-5)");
    if (count_bits(s->walls) > MAX_WALLS)
        return rp_fail(err, RP_EINVAL, "board: %d Walls, at most %d (CD-2)",
                       count_bits(s->walls), MAX_WALLS);
    return RP_OK;
}

/* Parse a whole decimal number in [lo, hi] from the whole of text. */
static bool parse_number(const char *text, long lo, long hi, long *out)
{
    if (!isdigit((unsigned char)*text) || strlen(text) > 6)
        return false;
    char *end = NULL;
    const long v = strtol(text, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Side, moves, add step, turn/limit and result, checked against the board and each other. */
static int parse_flow(cd_state *s, char *const f[], rp_error *err)
{
    long moves, turn, limit;
    if (strcmp(f[1], "b") != 0 && strcmp(f[1], "r") != 0)
        return rp_fail(err, RP_EPARSE, "side to move: expected b or r, got '%s'", f[1]);
    s->side = f[1][0] == 'b' ? CD_BLUE : CD_RED;
    if (!parse_number(f[2], 0, MAX_MOVES, &moves))
        return rp_fail(err, RP_EPARSE, "moves left: expected 0..%d, got '%s'", MAX_MOVES, f[2]);
    s->moves = (uint8_t)moves;
    if (strcmp(f[3], "add") != 0 && strcmp(f[3], "-") != 0)
        return rp_fail(err, RP_EPARSE, "add step: expected 'add' or '-', got '%s'", f[3]);
    s->add_open = f[3][0] == 'a';
    char *slash = strchr(f[4], '/');
    if (!slash)
        return rp_fail(err, RP_EPARSE, "turn: expected turn/limit such as 3/100, got '%s'", f[4]);
    *slash = '\0';
    if (!parse_number(f[4], 1, MAX_LIMIT, &turn) || !parse_number(slash + 1, 1, MAX_LIMIT, &limit) ||
        turn > limit)
        return rp_fail(err, RP_EPARSE, "turn: expected turn/limit with 1 <= turn <= limit <= %d",
                       MAX_LIMIT);
    s->turn = (uint16_t)turn;
    s->limit = (uint16_t)limit;
    int result = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(f[5], result_text(i)) == 0)
            result = i;
    if (result < 0)
        return rp_fail(err, RP_EPARSE, "result: expected *, 1-0, 0-1 or 1/2, got '%s'", f[5]);
    s->result = (uint8_t)result;
    return RP_OK;
}

/* The flow fields must agree with the board: Kings present unless hit (CD-7), moves and the
 * add step as a turn can leave them (CD-3), a draw only at the end of Red's last turn (CD-15). */
static int check_flow(const cd_state *s, rp_error *err)
{
    const bool blue_king = s->piece[0][CD_KING], red_king = s->piece[1][CD_KING];
    if (s->result == CD_ONGOING) {
        if (!blue_king || !red_king)
            return rp_fail(err, RP_EINVAL, "result '*' but a King is missing (CD-7)");
        if (s->moves == 0)
            return rp_fail(err, RP_EINVAL, "moves left: 0 in a game not over (the turn would "
                                           "have ended, CD-3)");
        if (s->add_open) {
            const int side = s->side;
            if (s->moves != 3 + 3 * count_bits(s->piece[side][CD_WIZARD]))
                return rp_fail(err, RP_EINVAL, "add step open but moves left %d is not 3 + 3 "
                                               "x Wizards (CD-3)", s->moves);
            if (s->fire[side] || (s->fired & s->piece[side][CD_CANNON]))
                return rp_fail(err, RP_EINVAL, "add step open but the side to move still has "
                                               "Fire or fired Cannons (CD-3)");
        }
        return RP_OK;
    }
    if (s->moves != 0 || s->add_open)
        return rp_fail(err, RP_EINVAL, "a finished game has 0 moves left and '-' for the add step");
    if (s->result == CD_DRAW) {
        if (!blue_king || !red_king || s->side != CD_RED || s->turn != s->limit)
            return rp_fail(err, RP_EINVAL, "a draw needs both Kings and Red's last turn "
                                           "(turn = limit) (CD-15)");
    } else if ((s->result == CD_BLUE_WON) != (blue_king && !red_king) ||
               (s->result == CD_RED_WON) != (red_king && !blue_king))
        return rp_fail(err, RP_EINVAL, "result '%s' does not match the Kings on the board (CD-7)",
                       result_text(s->result));
    return RP_OK;
}

/* The optional supply field must say what the board implies (CD-10). */
static int check_supply(const cd_state *s, const char *field, rp_error *err)
{
    char expect[64];
    snprintf(expect, sizeof expect, "W%dB%dC%dF%d/w%db%dc%df%d/#%d",
             supply_left(s, 0, CD_WIZARD), supply_left(s, 0, CD_BUILDER),
             supply_left(s, 0, CD_CANNON), MAX_FIRE - count_bits(s->fire[0]),
             supply_left(s, 1, CD_WIZARD), supply_left(s, 1, CD_BUILDER),
             supply_left(s, 1, CD_CANNON), MAX_FIRE - count_bits(s->fire[1]),
             MAX_WALLS - count_bits(s->walls));
    if (strcmp(field, expect) != 0)
        return rp_fail(err, RP_EINVAL, "supply: '%s' does not match the board, which leaves %s "
                                       "(CD-10)", field, expect);
    return RP_OK;
}

/* Load a position (CD-9): parse into a local state, check it whole, copy only on success. */
static int cd_state_from_text(void *st, const char *text, rp_error *err)
{
    char copy[RP_STATE_TEXT];
    if (strlen(text) >= sizeof copy)
        return rp_fail(err, RP_EPARSE, "position: longer than %d characters", RP_STATE_TEXT - 1);
    strcpy(copy, text);
    char *f[8];
    int nf = 0;
    for (char *p = copy; *p;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        if (nf == 7)
            return rp_fail(err, RP_EPARSE, "position: more than 7 fields");
        f[nf++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    if (nf < 6)
        return rp_fail(err, RP_EPARSE, "position: expected 'board side moves add turn/limit "
                                       "result [supply]', e.g. '2w1k2/2#1#2/7/7/7/7/7/2#1#2/"
                                       "2K1W2 b 6 add 1/100 *'");
    cd_state s;
    memset(&s, 0, sizeof s);
    int rc = parse_board(&s, f[0], err);
    if (rc == RP_OK)
        rc = check_board(&s, err);
    if (rc == RP_OK)
        rc = parse_flow(&s, f, err);
    if (rc == RP_OK)
        rc = check_flow(&s, err);
    if (rc == RP_OK && nf == 7)
        rc = check_supply(&s, f[6], err);
    if (rc < 0)
        return rc;
    memcpy(st, &s, sizeof s);
    return RP_OK;
}

/* ---- views ---- */

/* Everything, since nothing is hidden: the position notation, the flow of the turn, the
 * board as 9 rank strings (rank 9 first, a to g, the notation's letters, '.' empty, '~'
 * river), fired Cannons and the supply (as in the notation: W7B2C4F5/w7b2c4f5/#16). Kept
 * small: tools call it at every step. */
static cJSON *cd_view_json(const void *st, int player)
{
    const cd_state *s = st;
    cJSON *v = cJSON_CreateObject();
    char text[RP_STATE_TEXT], letters[CD_SQUARES];
    cd_state_to_text(s, text, sizeof text);
    board_letters(s, letters);
    cJSON_AddStringToObject(v, "game", "castle-danger");
    (void)player; /* everyone sees everything */
    cJSON_AddStringToObject(v, "position", text);
    cJSON_AddStringToObject(v, "to_move", side_name[s->side]);
    cJSON_AddNumberToObject(v, "moves_left", s->moves);
    cJSON_AddBoolToObject(v, "add_open", s->add_open);
    cJSON_AddNumberToObject(v, "add_cost", add_cost(s));
    cJSON_AddNumberToObject(v, "turn", s->turn);
    cJSON_AddNumberToObject(v, "turn_limit", s->limit);
    cJSON_AddStringToObject(v, "result", result_text(s->result));
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
    cJSON *fired = cJSON_AddArrayToObject(v, "fired");
    for (uint64_t b = s->fired; b; b &= b - 1) {
        char name[3];
        square_text(low_bit(b), name);
        cJSON_AddItemToArray(fired, cJSON_CreateString(name));
    }
    /* the supply as the notation's field 7 (numbers are slow to print, and views are
     * printed at every step of a search or a test) */
    const char *supply = strrchr(text, ' ');
    cJSON_AddStringToObject(v, "supply", supply ? supply + 1 : "");
    return v;
}

/* Full information and no chance: nothing to resample. */
static void cd_determinize(void *st, int player, rp_rng *rng)
{
    (void)st;
    (void)player;
    (void)rng;
}

/* ---- rendering ---- */

#define ANSI_RESET "\x1b[0m"

/* One board cell, three characters wide, with colours when asked. */
static void render_cell(const cd_state *s, const char *letters, int sq, FILE *out, bool color)
{
    const char ch = letters[sq];
    const uint64_t bit = 1ULL << sq;
    const bool fired = (s->fired >> sq) & 1;
    const char *ground = (RIVER & bit)  ? "\x1b[44m"
                         : (SAND & bit) ? "\x1b[43m"
                                        : "\x1b[42m";
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
    fprintf(out, "  %-4s supply: %d Wizards, %d Builders, %d Cannons, %d Fire; on board: %d "
                 "Wizards, %d Builders, %d Cannons\n",
            side == CD_BLUE ? "Blue" : "Red", supply_left(s, side, CD_WIZARD),
            supply_left(s, side, CD_BUILDER), supply_left(s, side, CD_CANNON),
            MAX_FIRE - count_bits(s->fire[side]), count_bits(s->piece[side][CD_WIZARD]),
            count_bits(s->piece[side][CD_BUILDER]), count_bits(s->piece[side][CD_CANNON]));
}

/* The board for a terminal, the viewer's side at the bottom, with the legend, supply and
 * what the side to move may still do. */
static void cd_render(const void *st, int player, FILE *out, bool color)
{
    const cd_state *s = st;
    const bool red_view = player == CD_RED;
    char letters[CD_SQUARES];
    board_letters(s, letters);
    fprintf(out, "Castle Danger, turn %d of %d", s->turn, s->limit);
    if (player == CD_BLUE || player == CD_RED)
        fprintf(out, "; you are %s", player == CD_BLUE ? "Blue (capitals)" : "Red (small letters)");
    fputc('\n', out);
    fputs("     a  b  c  d  e  f  g\n", out);
    for (int i = 0; i < CD_ROWS; i++) {
        const int r = red_view ? i + 1 : CD_ROWS - i;
        fprintf(out, "  %d ", r);
        for (int c = 0; c < CD_COLS; c++)
            render_cell(s, letters, CD_SQ(c, r), out, color);
        fprintf(out, " %d\n", r);
    }
    fputs("     a  b  c  d  e  f  g\n", out);
    fputs("  K King  W Wizard  B Builder  C Cannon (Blue capitals, Red small; ' = fired)\n"
          "  # Wall  *F* Blue Fire  *f* Red Fire  o Portal  : sand  ~ river  . grass\n",
          out);
    render_side_line(s, CD_BLUE, out);
    render_side_line(s, CD_RED, out);
    fprintf(out, "  Walls in supply: %d\n", MAX_WALLS - count_bits(s->walls));
    if (s->result == CD_DRAW)
        fputs("  Game over: draw (turn limit reached)\n", out);
    else if (s->result != CD_ONGOING)
        fprintf(out, "  Game over: %s wins (King hit)\n",
                s->result == CD_BLUE_WON ? "Blue" : "Red");
    else {
        fprintf(out, "  %s to move, %d move%s left", s->side == CD_BLUE ? "Blue" : "Red",
                s->moves, s->moves == 1 ? "" : "s");
        if (s->add_open)
            fprintf(out, "; add step open (costs %d)", add_cost(s));
        fputc('\n', out);
    }
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
        const int budget = s->side == enemy ? s->moves
                                            : 3 + 3 * count_bits(s->piece[enemy][CD_WIZARD]);
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
    .bench_options = "tournament=1", /* the speed target uses the 25-turn limit */
    .ai_levels = {"iters=300", "iters=1500", "iters=5000"},
    /* No chance: the side that moves first is the only asymmetry, so comparisons swap it. */
    .paired_seats = true,
    .init = cd_init,
    .num_players = cd_num_players,
    .current_player = cd_current_player,
    .legal_actions = cd_legal_actions,
    .apply = cd_apply,
    .returns = cd_returns,
    .action_to_text = cd_action_to_text,
    .action_from_text = cd_action_from_text,
    .state_to_text = cd_state_to_text,
    .state_from_text = cd_state_from_text,
    .view_json = cd_view_json,
    .determinize = cd_determinize,
    .render = cd_render,
    .evaluate = cd_evaluate,
    .observe_action = NULL,
};
