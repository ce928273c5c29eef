/* text.c — Castle Danger's text: action notation both ways, the cd1 state notation (CD-9),
 * the invariants a state keeps (state_ok) and why an action is not legal. */
#include "games/castle-danger/internal.h"

#include <ctype.h>
#include <string.h>

#include "core/legal.h"
#include "core/notation.h"

/* Write the name of sq ("c3") with its NUL; returns buf. */
char *cd_square_name(int sq, char buf[3])
{
    buf[0] = (char)('a' + sq % CD_COLS);
    buf[1] = (char)('1' + sq / CD_COLS);
    buf[2] = '\0';
    return buf;
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
int cd_action_to_text(const void *st, rp_action action, char *buf, size_t size)
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
        cd_square_name(from, t);
        t[2] = '-';
        cd_square_name(from + dir_delta[d], t + 3);
        n = 5;
    } else if (action < A_FIRE) {
        const bool build = action < A_REMOVE;
        const int sq = (int)action - (build ? A_BUILD : A_REMOVE);
        if (sq >= CD_SQUARES)
            return RP_EINVAL;
        n = put_word(t, 0, build ? "build " : "remove ");
        cd_square_name(sq, t + n);
        n += 2;
    } else if (action < A_COUNT) {
        const int from = (int)(action - A_FIRE) >> 3;
        n = put_word(t, 0, "fire ");
        cd_square_name(from, t + n);
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
int cd_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
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
void cd_board_letters(const cd_state *s, char letters[CD_SQUARES])
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
    cd_board_letters(s, letters);
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

int cd_state_to_text(const void *st, char *buf, size_t size)
{
    const cd_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, CD_NOTATION_TAG);
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

int cd_state_ok(const void *st, rp_error *err);

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
int cd_state_from_text(void *st, const char *text, rp_error *err)
{
    cd_state s;
    memset(&s, 0, sizeof s);
    rp_reader r;
    rp_span board, supply;
    int rc;
    if ((rc = rp__read_begin(&r, text, CD_NOTATION_TAG, err)) < 0 ||
        (rc = rp__read_field(&r, "board", &board)) < 0 || (rc = parse_board(&r, &s, board)) < 0 ||
        (rc = parse_flow(&r, &s)) < 0 || (rc = rp__read_field(&r, "supply", &supply)) < 0 ||
        (rc = rp__read_end(&r)) < 0 || (rc = cd_state_ok(&s, err)) < 0 ||
        (rc = check_supply(&r, &s, supply)) < 0 ||
        (rc = rp__read_canonical(&r, cd_state_to_text, &s)) < 0)
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

int cd_state_ok(const void *st, rp_error *err)
{
    const cd_state *s = st;
    int rc;
    if ((rc = check_board(s, err)) < 0 || (rc = check_counters(s, err)) < 0)
        return rc;
    return check_flow(s, err);
}

/* ---- why an action is not legal ---- */

/* What stands on sq, for people: "a Wall", "Red's Wizard", "Blue's Fire", or "" if empty. */
static const char *occupant(const cd_state *s, int sq, char *buf, size_t size)
{
    int owner;
    const int what = cd_thing_at(s, sq, &owner);
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
                        cd_square_name(p, name), what);
    if (supply_left(s, s->side, kind) == 0)
        return snprintf(buf, size, "all %d of %s's %ss are on the board (CD-2)", kind_max[kind],
                        side_title[s->side], thing_title[kind]);
    return snprintf(buf, size, "adding costs %d moves and %d are left", add_cost(s), s->moves);
}

static int explain_move(const cd_state *s, int from, int d, char *buf, size_t size)
{
    static const char *const way[4] = {"up", "right", "down", "left"};
    char f[3], t[3], what[32];
    cd_square_name(from, f);
    int owner;
    const int thing = cd_thing_at(s, from, &owner);
    if (!shift_dir(1ULL << from, d))
        return snprintf(buf, size,
                        "%s is at the edge of the board: there is no square %s of "
                        "it (pieces never move off or around the board)",
                        f, way[d]);
    const int to = from + dir_delta[d];
    cd_square_name(to, t);
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
                        cd_thing_at(s, to, &owner) == T_FIRE ? " (no piece moves onto Fire)" : "");
    return -1;
}

static int explain_wall(const cd_state *s, int sq, bool build, char *buf, size_t size)
{
    char name[3], what[32];
    cd_square_name(sq, name);
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
    cd_square_name(from, name);
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
                            cd_square_name(sq, name));
    if ((RIVER >> to) & 1)
        return snprintf(buf, size, "a ball cannot land on the river");
    return -1;
}

/* Why `action` is not legal here, in the game's terms; < 0 when it is legal. */
int cd_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const cd_state *s = st;
    if (s->result != CD_ONGOING)
        return snprintf(buf, size, "the game is over");
    if (rp__is_legal_by(cd_legal_actions, s, action))
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
