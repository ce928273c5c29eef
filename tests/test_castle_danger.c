/* test_castle_danger.c — Castle Danger's rules, one test per rule or ruling (rulebook
 * sentences and ids CD-n from shared/rulings, CD-Pn from docs/rules/castle-danger.md), with
 * hand-set positions; the board geometry against a model of its own written in coordinates;
 * the notation, views, actions and events as data; and property runs over random games. */
#define _GNU_SOURCE /* open_memstream on older C libraries */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/castle-danger/internal.h"
#include "support.h"

static const rp_game *const G = &rp_castle_danger;

/* Bit of a square named like "c3" (bit = (rank-1)*7 + column, the layout internal.h
 * documents). */
static uint64_t bit_of(const char *name)
{
    return 1ULL << ((name[1] - '1') * 7 + (name[0] - 'a'));
}

/* ---- positions: the test's own shorthand, turned into the cd1 notation ---- */

/* "board side moves add turn/limit result", e.g. "4k2/7/7/7/7/7/7/7/2K4 b 3 add 1/- *"
 * (side b|r, add 'add' or '-', limit '-' for none, result * 1-0 0-1 1/2), written as the full
 * cd1 notation with the supply field counted here from the board's letters. */
static void cd1_of(const char *shorthand, char *out, size_t size)
{
    char board[128], side, add[8], limit[16], result[8];
    int moves, turn;
    if (sscanf(shorthand, "%127s %c %d %7s %d/%15s %7s", board, &side, &moves, add, &turn, limit,
               result) != 7)
        fail_msg("bad test shorthand '%s'", shorthand);
    int count[128] = {0};
    for (const char *p = board; *p; p++)
        count[(unsigned char)*p]++;
    const char *word = strcmp(result, "*") == 0     ? "ongoing"
                       : strcmp(result, "1-0") == 0 ? "blue-won"
                       : strcmp(result, "0-1") == 0 ? "red-won"
                                                    : "draw";
    snprintf(out, size,
             "cd1 board=%s side=%s moves=%d add=%s turn=%d limit=%s tournament=0 result=%s "
             "supply=W%dB%dC%dF%d/w%db%dc%df%d/#%d",
             board, side == 'b' ? "blue" : "red", moves, add[0] == 'a' ? "open" : "closed", turn,
             strcmp(limit, "-") == 0 ? "none" : limit, word, 8 - count['W'], 2 - count['B'],
             4 - count['C'], 5 - count['F'], 8 - count['w'], 2 - count['b'], 4 - count['c'],
             5 - count['f'], 20 - count['#']);
}

static cd_state load(const char *shorthand)
{
    char text[RP_STATE_TEXT];
    cd1_of(shorthand, text, sizeof text);
    cd_state s;
    rp_test_load(G, &s, text);
    return s;
}

static void text_of(const cd_state *s, char *buf)
{
    assert_true(G->state_to_text(s, buf, RP_STATE_TEXT) > 0);
}

/* Refused with a message mentioning `needle`, leaving the state untouched. */
static void assert_refused_text(const char *text, const char *needle)
{
    cd_state s, before;
    rp_test_init(G, &s, NULL);
    memcpy(&before, &s, sizeof s);
    rp_error err = {{0}};
    if (G->state_from_text(&s, text, &err) >= 0)
        fail_msg("accepted bad position '%s'", text);
    if (!strstr(err.msg, needle))
        fail_msg("refusal of '%s' says '%s', expected it to mention '%s'", text, err.msg, needle);
    assert_memory_equal(&s, &before, sizeof s);
}

static void assert_refused(const char *shorthand, const char *needle)
{
    char text[RP_STATE_TEXT];
    cd1_of(shorthand, text, sizeof text);
    assert_refused_text(text, needle);
}

/* The action with notation `text`, which must parse. */
static rp_action action_of(const cd_state *s, const char *text)
{
    rp_action a;
    rp_error err = {{0}};
    if (G->action_from_text(s, text, &a, &err) < 0)
        fail_msg("'%s' does not parse: %s", text, err.msg);
    return a;
}

static bool in_legal_list(const cd_state *s, rp_action a)
{
    rp_action legal[RP_MAX_LEGAL];
    const int n = G->legal_actions(s, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == a)
            return true;
    return false;
}

/* ---- an independent model of the board, in coordinates (column 0-6, rank 1-9) ---- */

typedef struct grid {
    char at[CD_COLS][CD_ROWS + 2]; /* K W B C k w b c # F f, or 0; ranks 1..9 */
    bool fired[CD_COLS][CD_ROWS + 2];
    int side, moves, walls;
    bool add_open, over;
} grid;

static bool on_bit(uint64_t b, int c, int r)
{
    return (b >> ((r - 1) * 7 + c)) & 1;
}

static void grid_of(const cd_state *s, grid *g)
{
    static const char letter[2][CD_KINDS] = {{'K', 'W', 'B', 'C'}, {'k', 'w', 'b', 'c'}};
    memset(g, 0, sizeof *g);
    for (int c = 0; c < CD_COLS; c++)
        for (int r = 1; r <= CD_ROWS; r++) {
            for (int side = 0; side < 2; side++) {
                for (int k = 0; k < CD_KINDS; k++)
                    if (on_bit(s->piece[side][k], c, r))
                        g->at[c][r] = letter[side][k];
                if (on_bit(s->fire[side], c, r))
                    g->at[c][r] = side == CD_BLUE ? 'F' : 'f';
            }
            if (on_bit(s->walls, c, r)) {
                g->at[c][r] = '#';
                g->walls++;
            }
            g->fired[c][r] = on_bit(s->fired, c, r);
        }
    g->side = s->side;
    g->moves = s->moves;
    g->add_open = s->add_open;
    g->over = s->result != CD_ONGOING;
}

/* A piece of the side to move, of one of `kinds` ("KWBC", "B", "C"), stands on (c, r). */
static bool own_piece(const grid *g, int c, int r, const char *kinds)
{
    const char ch = g->at[c][r];
    if (!ch || ch == '#' || ch == 'F' || ch == 'f')
        return false;
    const bool blue = ch >= 'A' && ch <= 'Z';
    return blue == (g->side == CD_BLUE) && strchr(kinds, blue ? ch : ch - 'a' + 'A') != NULL;
}

#define ANY_PIECE "KWBC"
#define BUILDER "B"
#define CANNON "C"

/* "The blue middle row represents an impassible river"; Blue holds ranks 1-4, Red 6-9. */
static bool own_rank(int side, int r)
{
    return side == CD_BLUE ? r >= 1 && r <= 4 : r >= 6 && r <= 9;
}

/* "Walls cannot be built on the sand or water": grass is ranks 1-3 and 7-9. */
static bool grass_rank(int r)
{
    return (r >= 1 && r <= 3) || (r >= 7 && r <= 9);
}

static bool on_board(int c, int r)
{
    return c >= 0 && c < CD_COLS && r >= 1 && r <= CD_ROWS;
}

static const int DC[4] = {0, 1, 0, -1}, DR[4] = {1, 0, -1, 0};

/* Some Builder of the side to move stands orthogonally next to (c, r). */
static bool builder_next_to(const grid *g, int c, int r)
{
    for (int d = 0; d < 4; d++)
        if (on_board(c + DC[d], r + DR[d]) && own_piece(g, c + DC[d], r + DR[d], BUILDER))
            return true;
    return false;
}

typedef char action_text[RP_ACTION_TEXT];

/* Every legal action as the rulebook and rulings state it, in coordinates: end (CD-14), the add
 * (CD-3), moves to empty orthogonal neighbours on the own side (CD-4), builds on empty grass and
 * removals next to a Builder (CD-5, CD-11, CD-2), shots along the column toward the opponent,
 * over the river but not onto it, up to the first Wall and the moves left (CD-6, CD-P1). */
static int model_legal(const grid *g, action_text *out)
{
    if (g->over)
        return 0;
    int n = 0;
    snprintf(out[n++], RP_ACTION_TEXT, "end");
    const int portal_rank = g->side == CD_BLUE ? 1 : 9;
    if (g->add_open && !g->at[3][portal_rank]) {
        int mine = 0, theirs = 0, kinds[CD_KINDS] = {0};
        for (int c = 0; c < CD_COLS; c++)
            for (int r = 1; r <= CD_ROWS; r++) {
                const char ch = g->at[c][r];
                if (!ch || !strchr("KWBCkwbc", ch))
                    continue;
                const bool blue = ch < 'a';
                if (blue == (g->side == CD_BLUE)) {
                    mine++;
                    kinds[strchr("KWBC", blue ? ch : ch - 32) - "KWBC"]++;
                } else {
                    theirs++;
                }
            }
        static const char *const names[] = {"king", "wizard", "builder", "cannon"};
        static const int max[CD_KINDS] = {1, 8, 2, 4};
        if (g->moves >= (mine >= theirs ? 2 : 0))
            for (int k = 1; k < CD_KINDS; k++)
                if (kinds[k] < max[k])
                    snprintf(out[n++], RP_ACTION_TEXT, "add %s", names[k]);
    }
    for (int c = 0; c < CD_COLS; c++)
        for (int r = 1; r <= CD_ROWS; r++) {
            if (own_piece(g, c, r, ANY_PIECE))
                for (int d = 0; d < 4; d++) {
                    const int c2 = c + DC[d], r2 = r + DR[d];
                    if (on_board(c2, r2) && own_rank(g->side, r2) && !g->at[c2][r2])
                        snprintf(out[n++], RP_ACTION_TEXT, "%c%d-%c%d", 'a' + c, r, 'a' + c2, r2);
                }
            if (builder_next_to(g, c, r)) {
                if (grass_rank(r) && !g->at[c][r] && g->walls < 20)
                    snprintf(out[n++], RP_ACTION_TEXT, "build %c%d", 'a' + c, r);
                if (g->at[c][r] == '#')
                    snprintf(out[n++], RP_ACTION_TEXT, "remove %c%d", 'a' + c, r);
            }
            if (own_piece(g, c, r, CANNON) && !g->fired[c][r]) {
                const int toward = g->side == CD_BLUE ? 1 : -1;
                for (int dist = 1; dist <= g->moves; dist++) {
                    const int r2 = r + toward * dist;
                    if (!on_board(c, r2))
                        break;
                    if (r2 == 5)
                        continue;
                    snprintf(out[n++], RP_ACTION_TEXT, "fire %c%d:%d", 'a' + c, r, dist);
                    if (g->at[c][r2] == '#')
                        break;
                }
            }
        }
    return n;
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The legal list of st equals the model's, compared as notation (so independently of the
 * action ids and of the bitboards); a difference is reported with the position. */
static void check_against_model(const cd_state *s)
{
    grid g;
    grid_of(s, &g);
    action_text expect[RP_MAX_LEGAL], got[RP_MAX_LEGAL];
    const int ne = model_legal(&g, expect);
    rp_action legal[RP_MAX_LEGAL];
    const int ng = G->legal_actions(s, legal);
    for (int i = 0; i < ng; i++)
        if (G->action_to_text(s, legal[i], got[i], RP_ACTION_TEXT) < 0)
            snprintf(got[i], RP_ACTION_TEXT, "#%u (no notation)", (unsigned)legal[i]);
    qsort(expect, (size_t)ne, sizeof *expect, compare_text);
    qsort(got, (size_t)ng, sizeof *got, compare_text);
    int i = 0, j = 0;
    while (i < ne || j < ng) {
        const int cmp = i == ne ? 1 : j == ng ? -1 : strcmp(expect[i], got[j]);
        if (cmp != 0) {
            char text[RP_STATE_TEXT];
            text_of(s, text);
            if (cmp < 0)
                fail_msg("missing: the rules allow '%s' but the game does not offer it\n%s",
                         expect[i], text);
            fail_msg("wrong: the game offers '%s', which the rules do not allow\n%s", got[j], text);
        }
        i++;
        j++;
    }
}

/* Column and rank of a square named in an action's data ("c3"). */
static void square_of(const cJSON *o, const char *key, int *c, int *r)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v) || strlen(v->valuestring) != 2)
        fail_msg("action data without a square '%s'", key);
    *c = v->valuestring[0] - 'a';
    *r = v->valuestring[1] - '0';
    assert_true(on_board(*c, *r));
}

static int int_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        fail_msg("action data without the number '%s'", key);
    return v->valueint;
}

static void geometry_fail(const cd_state *s, const char *text, const char *why)
{
    char pos[RP_STATE_TEXT];
    text_of(s, pos);
    fail_msg("legal action '%s' breaks the board geometry: %s\n%s", text, why, pos);
}

/* One legal action, read from its data form, obeys the board geometry: a move is one
 * orthogonal step within the own side onto an empty square, never onto the river (CD-4); a
 * build is on empty grass next to a Builder and a removal takes a Wall next to one (CD-5); a
 * shot flies straight along its column toward the opponent, over no Wall, and does not land on
 * the river (CD-6, CD-P1). */
static void check_action_geometry(const cd_state *s, const grid *g, rp_action action)
{
    char text[RP_ACTION_TEXT];
    G->action_to_text(s, action, text, sizeof text);
    cJSON *a = rp_action_cjson(G, s, action);
    assert_non_null(a);
    const char *kind = cJSON_GetObjectItemCaseSensitive(a, "kind")->valuestring;
    assert_int_equal(int_of(a, "seat"), g->side);
    int fc = 0, fr = 0, tc = 0, tr = 0;
    if (strcmp(kind, "move") == 0) {
        square_of(a, "from", &fc, &fr);
        square_of(a, "to", &tc, &tr);
        if (abs(fc - tc) + abs(fr - tr) != 1)
            geometry_fail(s, text, "a move is one orthogonal step");
        if (!own_piece(g, fc, fr, ANY_PIECE))
            geometry_fail(s, text, "it does not start on a piece of the side to move");
        if (!own_rank(g->side, tr) || tr == 5)
            geometry_fail(s, text, "it leaves the own side or enters the river");
        if (g->at[tc][tr])
            geometry_fail(s, text, "it moves onto an occupied square");
        assert_int_equal(int_of(a, "cost"), 1);
    } else if (strcmp(kind, "build") == 0 || strcmp(kind, "remove") == 0) {
        square_of(a, "to", &tc, &tr);
        const cJSON *by = cJSON_GetObjectItemCaseSensitive(a, "by"), *b;
        if (cJSON_GetArraySize(by) == 0)
            geometry_fail(s, text, "no Builder does it");
        cJSON_ArrayForEach (b, by) {
            const int bc = b->valuestring[0] - 'a', br = b->valuestring[1] - '0';
            if (!own_piece(g, bc, br, BUILDER) || abs(bc - tc) + abs(br - tr) != 1)
                geometry_fail(s, text, "a Builder it names is not orthogonally next to it");
        }
        if (!builder_next_to(g, tc, tr))
            geometry_fail(s, text, "no Builder stands orthogonally next to the square");
        if (kind[0] == 'b' && (!grass_rank(tr) || g->at[tc][tr]))
            geometry_fail(s, text, "Walls are built only on empty grass");
        if (kind[0] == 'r' && g->at[tc][tr] != '#')
            geometry_fail(s, text, "there is no Wall to remove");
        assert_int_equal(int_of(a, "cost"), 1);
    } else if (strcmp(kind, "fire") == 0) {
        square_of(a, "from", &fc, &fr);
        square_of(a, "to", &tc, &tr);
        const int toward = g->side == CD_BLUE ? 1 : -1, dist = int_of(a, "distance");
        if (!own_piece(g, fc, fr, CANNON) || g->fired[fc][fr])
            geometry_fail(s, text, "it is not an unfired Cannon of the side to move");
        if (tc != fc || (tr - fr) * toward <= 0 || abs(tr - fr) != dist)
            geometry_fail(s, text, "a ball flies straight along its column toward the opponent");
        if (tr == 5 || dist > g->moves || int_of(a, "cost") != dist)
            geometry_fail(s, text, "it lands on the river or costs more than the moves left");
        for (int r = fr + toward; r != tr; r += toward)
            if (g->at[fc][r] == '#')
                geometry_fail(s, text, "the ball flies over a Wall");
    } else if (strcmp(kind, "add") == 0) {
        square_of(a, "to", &tc, &tr);
        if (tc != 3 || tr != (g->side == CD_BLUE ? 1 : 9) || g->at[tc][tr] || !g->add_open)
            geometry_fail(s, text, "a piece is added only on the own empty Portal, first");
    } else if (strcmp(kind, "end") != 0) {
        geometry_fail(s, text, "unknown kind");
    }
    cJSON_Delete(a);
}

static void check_geometry(const cd_state *s)
{
    grid g;
    grid_of(s, &g);
    rp_action legal[RP_MAX_LEGAL];
    const int n = G->legal_actions(s, legal);
    for (int i = 0; i < n; i++)
        check_action_geometry(s, &g, legal[i]);
}

/* ---- setup and supply ---- */

/* CD-1: Blue King c1, Wizard e1, Walls c2 e2; Red King e9, Wizard c9, Walls e8 c8. Blue starts
 * with 3 + 3 x 1 Wizard = 6 moves (CD-3) and the add step open; CD-16: no turn limit. */
static void test_cd1_standard_setup(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    assert_int_equal(s.piece[CD_BLUE][CD_KING], bit_of("c1"));
    assert_int_equal(s.piece[CD_BLUE][CD_WIZARD], bit_of("e1"));
    assert_int_equal(s.piece[CD_RED][CD_KING], bit_of("e9"));
    assert_int_equal(s.piece[CD_RED][CD_WIZARD], bit_of("c9"));
    assert_int_equal(s.walls, bit_of("c2") | bit_of("e2") | bit_of("c8") | bit_of("e8"));
    assert_int_equal(G->current_player(&s), CD_BLUE);
    char text[RP_STATE_TEXT];
    text_of(&s, text);
    assert_string_equal(text, "cd1 board=2w1k2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 side=blue moves=6 "
                              "add=open turn=1 limit=none tournament=0 result=ongoing "
                              "supply=W7B2C4F5/w7b2c4f5/#16");
}

/* CD-2, CD-10: 4 Cannons and 2 Builders at most on the board; the starting Wizard counts. */
static void test_cd2_piece_supply_exhausted(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/B5B/CCK1WCC b 6 add 1/- *");
    assert_false(rp_test_is_legal(G, &s, "add cannon"));
    assert_false(rp_test_is_legal(G, &s, "add builder"));
    assert_true(rp_test_is_legal(G, &s, "add wizard"));
    /* 7 Wizards on the board + the add = 8, the last one in supply */
    s = load("4k2/7/7/7/7/7/WWW1WWW/7/2K1W2 b 24 add 1/- *");
    assert_true(rp_test_is_legal(G, &s, "add wizard"));
    s = load("4k2/7/7/7/7/W6/WWW1WWW/7/2K1W2 b 27 add 1/- *");
    assert_false(rp_test_is_legal(G, &s, "add wizard"));
}

/* CD-2: 20 Walls shared; nothing is built once they are all on the board, and a Wall taken
 * away returns to supply. */
static void test_cd2_wall_supply_exhausted(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/#######/#######/7/7/7/######1/6B/2K4 b 5 - 1/- *");
    assert_int_equal(__builtin_popcountll(s.walls), 20);
    assert_false(rp_test_is_legal(G, &s, "build g3"));
    assert_false(rp_test_is_legal(G, &s, "build f2"));
    s = load("4k2/#######/######1/7/7/7/######1/6B/2K4 b 5 - 1/- *");
    assert_true(rp_test_is_legal(G, &s, "build g3"));
    rp_test_play(G, &s, "build g3");
    assert_false(rp_test_is_legal(G, &s, "build f2"));
    rp_test_play(G, &s, "remove g3");
    assert_true(rp_test_is_legal(G, &s, "build f2"));
}

/* ---- the turn (CD-3) ---- */

/* "The current player is allowed 3 moves in the turn, plus 3 more moves for every wizard". */
static void test_cd3_moves_from_wizards(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/1W5/2K1W2 r 6 - 1/- *");
    rp_test_play(G, &s, "end");
    assert_int_equal(s.side, CD_BLUE);
    assert_int_equal(s.moves, 3 + 3 * 2);
    assert_true(s.add_open);
    rp_test_play(G, &s, "end");
    assert_int_equal(s.moves, 3 + 3 * 0); /* Red has no Wizard */
}

/* "Adding a new Wizard to the board will not give the player extra moves for the current
 * turn"; it counts from the next turn. */
static void test_cd3_new_wizard_counts_next_turn(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    rp_test_play(G, &s, "add wizard");
    assert_int_equal(s.moves, 6 - 2);
    rp_test_play(G, &s, "end");
    rp_test_play(G, &s, "end");
    assert_int_equal(s.moves, 3 + 3 * 2);
}

/* CD-3: the add costs 2 moves with equal material (King+Wizard vs King+Wizard). */
static void test_cd3_add_cost_equal_material(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    rp_test_play(G, &s, "add cannon");
    assert_int_equal(s.moves, 4);
    assert_true(s.piece[CD_BLUE][CD_CANNON] & bit_of("d1"));
}

/* CD-3, CD-13: with fewer pieces the add is free, counted before the piece is placed (after
 * placing, Blue 3 = Red 3, still free); with more pieces it costs 2. */
static void test_cd3_cd13_add_cost_unequal_material(void **unused)
{
    (void)unused;
    cd_state s = load("2w1k1c/2#1#2/7/7/7/7/7/2#1#2/2K1W2 b 6 add 1/- *");
    rp_test_play(G, &s, "add builder");
    assert_int_equal(s.moves, 6);
    assert_true(s.piece[CD_BLUE][CD_BUILDER] & bit_of("d1"));
    s = load("2w1k2/2#1#2/7/7/7/7/7/2#1#2/1CK1W2 b 6 add 1/- *");
    rp_test_play(G, &s, "add builder");
    assert_int_equal(s.moves, 4);
}

/* CD-3, CD-P4: the add is only the turn's first action, once, on an empty Portal. */
static void test_cd3_cdp4_add_only_before_other_actions(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    rp_test_play(G, &s, "c1-b1");
    assert_false(rp_test_is_legal(G, &s, "add wizard"));
    rp_test_init(G, &s, NULL);
    rp_test_play(G, &s, "add wizard");
    assert_false(rp_test_is_legal(G, &s, "add cannon"));
    /* a piece or a Wall on the Portal closes the add step */
    s = load("4k2/7/7/7/7/7/7/7/2KW3 b 6 add 1/- *");
    assert_false(rp_test_is_legal(G, &s, "add cannon"));
    s = load("4k2/7/7/7/7/7/7/7/2K#3 b 3 add 1/- *");
    assert_false(rp_test_is_legal(G, &s, "add cannon"));
}

/* CD-3: "The current player's turn ends when he/she has used up all of his/her available
 * moves." */
static void test_cd3_turn_ends_at_zero_moves(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    const char *walk[] = {"c1-b1", "b1-a1", "a1-b1", "b1-a1", "a1-b1"};
    for (int i = 0; i < 5; i++)
        rp_test_play(G, &s, walk[i]);
    assert_int_equal(s.side, CD_BLUE);
    assert_int_equal(s.moves, 1);
    rp_test_play(G, &s, "b1-a1");
    assert_int_equal(s.side, CD_RED);
    assert_int_equal(s.moves, 6);
}

/* CD-14: `end` is legal at every decision, the first included; moves left are forfeited. */
static void test_cd14_end_at_first_decision(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    assert_true(rp_test_is_legal(G, &s, "end"));
    rp_test_play(G, &s, "end");
    assert_int_equal(G->current_player(&s), CD_RED);
    assert_true(rp_test_is_legal(G, &s, "end"));
    rp_test_play(G, &s, "e9-f9");
    assert_true(rp_test_is_legal(G, &s, "end"));
}

/* ---- moving (CD-4) ---- */

/* CD-4: one square orthogonally onto an empty square of its own side: not the river, not
 * Fire, not a Wall or a piece; sand is like grass for moving. */
static void test_cd4_moves(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/WW5/1Wf4/1#5/2K4 b 12 add 1/- *");
    assert_false(rp_test_is_legal(G, &s, "a4-a5")); /* river */
    assert_false(rp_test_is_legal(G, &s, "b3-c3")); /* Fire */
    assert_false(rp_test_is_legal(G, &s, "b3-b2")); /* Wall */
    assert_false(rp_test_is_legal(G, &s, "b4-b3")); /* piece */
    assert_false(rp_test_is_legal(G, &s, "b4-a4"));
    assert_true(rp_test_is_legal(G, &s, "b4-c4")); /* sand */
    assert_true(rp_test_is_legal(G, &s, "b3-a3"));
    assert_true(rp_test_is_legal(G, &s, "c1-c2")); /* the King moves too */
    rp_test_play(G, &s, "b4-c4");
    assert_int_equal(s.moves, 11);
    assert_true(s.piece[CD_BLUE][CD_WIZARD] & bit_of("c4"));
    rp_error err = {{0}};
    rp_action a;
    assert_true(G->action_from_text(&s, "b3-c4", &a, &err) < 0); /* no diagonal moves */
    assert_non_null(strstr(err.msg, "CD-4"));
    assert_true(G->action_from_text(&s, "b3-b5", &a, &err) < 0);
}

/* CD-4: pieces never cross to the opponent's side (the river is between). */
static void test_cd4_pieces_stay_on_own_side(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/1w5/7/W6/7/7/2K4 r 6 - 1/- *");
    assert_false(rp_test_is_legal(G, &s, "b6-b5"));
    assert_true(rp_test_is_legal(G, &s, "b6-b7"));
}

/* ---- the board's edges (issue 10) ---- */

/* Issue 10: pieces on ranks 8 and 9 wrapped around the side edge. "Kings, Wizards, Builders,
 * and Cannons can be moved one square at a time into any unoccupied adjacent square (only
 * horizontal or vertical moves are allowed - no diagonal movement)" (CD-4); Builders act on an
 * "adjacent" square (CD-5). The action ids that once meant a9-g8, a8-g7, g8-a9 (moving "left"
 * off file a or "right" off file g) are never legal and have no notation. */
static void test_issue10_no_wrap_on_reds_back_ranks(void **unused)
{
    (void)unused;
    /* Red King a9, Builders a8 and g8, Wizard g9; Walls a7 and g7 */
    cd_state s = load("k5w/b5b/#5#/7/7/7/7/7/2K4 r 9 - 1/- *");
    const int left = 3, right = 1;
    const struct {
        const char *from;
        int dir;
        const char *wrapped;
    } wraps[] = {{"a9", left, "g8"}, {"a8", left, "g7"}, {"g8", right, "a9"}, {"g9", right, "?"}};
    for (size_t i = 0; i < sizeof wraps / sizeof *wraps; i++) {
        const int from = __builtin_ctzll(bit_of(wraps[i].from));
        const rp_action a = (rp_action)(4 + 4 * from + wraps[i].dir);
        if (in_legal_list(&s, a))
            fail_msg("%s can step off the board's side edge (to %s)", wraps[i].from,
                     wraps[i].wrapped);
        char text[RP_ACTION_TEXT];
        assert_true(G->action_to_text(&s, a, text, sizeof text) < 0);
    }
    assert_true(rp_test_is_legal(G, &s, "a9-b9"));
    assert_false(rp_test_is_legal(G, &s, "a9-a8")); /* its own Builder */
    assert_true(rp_test_is_legal(G, &s, "remove a7"));
    assert_true(rp_test_is_legal(G, &s, "remove g7")); /* by the g8 Builder, next to it */
    check_against_model(&s);
    /* with the a8 Builder alone, g7 is out of reach, Wall or not */
    s = load("k6/b6/6#/7/7/7/7/7/2K4 r 9 - 1/- *");
    assert_false(rp_test_is_legal(G, &s, "remove g7"));
    check_against_model(&s);
    s = load("k6/b6/7/7/7/7/7/7/2K4 r 9 - 1/- *");
    assert_false(rp_test_is_legal(G, &s, "build g7"));
    assert_true(rp_test_is_legal(G, &s, "build a7"));
    check_against_model(&s);
    /* from g8, a9 is out of reach */
    s = load("7/6b/k6/7/7/7/7/7/2K4 r 9 - 1/- *");
    assert_false(rp_test_is_legal(G, &s, "build a9"));
    assert_true(rp_test_is_legal(G, &s, "build g9"));
    check_against_model(&s);
}

/* The squares on the edge of a side: files a and g, the outside rank and the rank along the
 * river, corners included (CD-4: the board is 7 x 9, Blue ranks 1-4, Red ranks 6-9). */
static int edge_squares(int side, int squares[], int *corners)
{
    int n = 0, k = 0;
    const int lo = side == CD_BLUE ? 1 : 6, hi = side == CD_BLUE ? 4 : 9;
    for (int r = lo; r <= hi; r++)
        for (int c = 0; c < CD_COLS; c++)
            if (c == 0 || c == CD_COLS - 1 || r == lo || r == hi) {
                squares[n++] = (r - 1) * 7 + c;
                k += (c == 0 || c == CD_COLS - 1) && (r == lo || r == hi);
            }
    *corners = k;
    return n;
}

/* A position with one piece of `kind` for `side` on sq, both Kings (the mover's King on sq
 * when kind is the King), and the side to move with 27 moves. */
static cd_state lone_piece(int side, int kind, int sq)
{
    cd_state s;
    memset(&s, 0, sizeof s);
    s.turn = 1;
    s.side = (uint8_t)side;
    s.moves = 27;
    /* the own King two files or more away (a2 or g2, a8 or g8), so it never stands next to sq */
    const int king_file = sq % 7 < 3 ? 6 : 0;
    const int own_king = (side == CD_BLUE ? 7 : 49) + king_file;
    const int their_king = side == CD_BLUE ? 59 : 3; /* d9, d1 */
    s.piece[side][kind] |= 1ULL << sq;
    if (kind != CD_KING)
        s.piece[side][CD_KING] |= 1ULL << own_king;
    s.piece[side ^ 1][CD_KING] |= 1ULL << their_king;
    rp_error err = {{0}};
    if (G->state_ok(&s, &err) < 0)
        fail_msg("test position refused: %s", err.msg);
    return s;
}

/* Every edge and corner square of both sides: a King there moves exactly to the orthogonal
 * neighbours on the board and on its side ("only horizontal or vertical moves ... No pieces
 * can move onto the water", CD-4): 2 from a corner, 3 from an edge; a Builder there builds
 * exactly on those that are grass ("Walls cannot be built on the sand or water", CD-5). */
static void test_cd4_cd5_every_edge_and_corner_square(void **unused)
{
    (void)unused;
    for (int side = 0; side < 2; side++) {
        int squares[CD_SQUARES], corners;
        const int n = edge_squares(side, squares, &corners);
        assert_int_equal(n, 18);
        assert_int_equal(corners, 4);
        for (int i = 0; i < n; i++) {
            const int sq = squares[i], c = sq % 7, r = sq / 7 + 1;
            int expect_moves = 0, expect_builds = 0;
            for (int d = 0; d < 4; d++) {
                const int c2 = c + DC[d], r2 = r + DR[d];
                if (on_board(c2, r2) && own_rank(side, r2)) {
                    expect_moves++;
                    expect_builds += grass_rank(r2);
                }
            }
            const bool corner = (c == 0 || c == 6) && (r == 1 || r == 4 || r == 6 || r == 9);
            assert_int_equal(expect_moves, corner ? 2 : 3);
            for (int kind = CD_KING; kind <= CD_BUILDER; kind += CD_BUILDER) {
                cd_state s = lone_piece(side, kind, sq);
                rp_action legal[RP_MAX_LEGAL];
                const int nl = G->legal_actions(&s, legal);
                int moves = 0, builds = 0;
                for (int k = 0; k < nl; k++) {
                    char text[RP_ACTION_TEXT];
                    G->action_to_text(&s, legal[k], text, sizeof text);
                    if (text[2] == '-' && text[0] == 'a' + c && text[1] == '0' + r) {
                        const int c2 = text[3] - 'a', r2 = text[4] - '0';
                        if (abs(c2 - c) + abs(r2 - r) != 1 || !own_rank(side, r2))
                            fail_msg("%s from %c%d", text, 'a' + c, r);
                        moves++;
                    }
                    builds += strncmp(text, "build", 5) == 0;
                }
                if (moves != expect_moves)
                    fail_msg("%s %s on %c%d has %d moves, expected %d", side ? "Red" : "Blue",
                             kind ? "Builder" : "King", 'a' + c, r, moves, expect_moves);
                if (kind == CD_BUILDER)
                    assert_int_equal(builds, expect_builds);
                check_against_model(&s);
            }
        }
    }
}

/* The eight corners by hand: the moves a King has there, written out. */
static void test_cd4_corners_by_hand(void **unused)
{
    (void)unused;
    static const struct {
        int side;
        const char *sq, *moves[2];
    } corner[] = {
        {CD_BLUE, "a1", {"a1-a2", "a1-b1"}}, {CD_BLUE, "g1", {"g1-g2", "g1-f1"}},
        {CD_BLUE, "a4", {"a4-b4", "a4-a3"}}, {CD_BLUE, "g4", {"g4-f4", "g4-g3"}},
        {CD_RED, "a6", {"a6-a7", "a6-b6"}},  {CD_RED, "g6", {"g6-g7", "g6-f6"}},
        {CD_RED, "a9", {"a9-b9", "a9-a8"}},  {CD_RED, "g9", {"g9-f9", "g9-g8"}},
    };
    for (size_t i = 0; i < sizeof corner / sizeof *corner; i++) {
        cd_state s = lone_piece(corner[i].side, CD_KING, __builtin_ctzll(bit_of(corner[i].sq)));
        rp_action legal[RP_MAX_LEGAL];
        const int n = G->legal_actions(&s, legal);
        int found = 0;
        for (int k = 0; k < n; k++) {
            char text[RP_ACTION_TEXT];
            G->action_to_text(&s, legal[k], text, sizeof text);
            if (strncmp(text, corner[i].sq, 2) != 0)
                continue;
            if (strcmp(text, corner[i].moves[0]) != 0 && strcmp(text, corner[i].moves[1]) != 0)
                fail_msg("corner %s: unexpected %s", corner[i].sq, text);
            found++;
        }
        assert_int_equal(found, 2);
    }
}

/* Every square of both sides, with each kind of piece, bare and among Walls, Fire and a Wall
 * ahead of a Cannon: the legal list equals the coordinate model's, and every action obeys the
 * board geometry (CD-4, CD-5, CD-6, CD-11, CD-P1). */
static void test_geometry_every_square_both_sides(void **unused)
{
    (void)unused;
    for (int side = 0; side < 2; side++)
        for (int r = side == CD_BLUE ? 1 : 6; r <= (side == CD_BLUE ? 4 : 9); r++)
            for (int c = 0; c < CD_COLS; c++)
                for (int kind = 0; kind < CD_KINDS; kind++)
                    for (int variant = 0; variant < 3; variant++) {
                        const int sq = (r - 1) * 7 + c;
                        cd_state s = lone_piece(side, kind, sq);
                        const uint64_t free_sq =
                            ~(s.piece[0][0] | s.piece[1][0] | s.piece[side][kind]);
                        for (int d = 0; d < 4 && variant > 0; d++) {
                            const int c2 = c + DC[d], r2 = r + DR[d];
                            if (!on_board(c2, r2) || r2 == 5)
                                continue;
                            const uint64_t b = 1ULL << ((r2 - 1) * 7 + c2);
                            if (!(b & free_sq) || (c2 == 3 && (r2 == 1 || r2 == 9)))
                                continue;
                            if (variant == 1 && grass_rank(r2))
                                s.walls |= b;
                            else if (variant == 2)
                                s.fire[side ^ 1] |= b;
                        }
                        if (variant == 2) { /* a Wall three ranks ahead of the piece */
                            const int r3 = r + (side == CD_BLUE ? 3 : -3);
                            const uint64_t b = 1ULL << ((r3 - 1) * 7 + c);
                            if (grass_rank(r3) && (b & free_sq))
                                s.walls |= b;
                            while (__builtin_popcountll(s.fire[side ^ 1]) > 5)
                                s.fire[side ^ 1] &= s.fire[side ^ 1] - 1;
                        }
                        rp_error err = {{0}};
                        if (G->state_ok(&s, &err) < 0)
                            fail_msg("test position refused: %s", err.msg);
                        check_against_model(&s);
                        check_geometry(&s);
                    }
}

/* ---- walls (CD-5, CD-11) ---- */

/* CD-5: "Walls cannot be built on the sand or water": a Builder on sand builds on the grass
 * next to it only; it removes adjacent Walls. */
static void test_cd5_builder_on_sand(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/2B4/7/7/2K4 b 6 - 1/- *");
    assert_true(rp_test_is_legal(G, &s, "build c3"));
    assert_false(rp_test_is_legal(G, &s, "build b4"));
    assert_false(rp_test_is_legal(G, &s, "build d4"));
    assert_false(rp_test_is_legal(G, &s, "build c5"));
    assert_false(rp_test_is_legal(G, &s, "build a1")); /* not next to the Builder */
    rp_test_play(G, &s, "build c3");
    assert_true(s.walls & bit_of("c3"));
    assert_int_equal(s.moves, 5);
    assert_true(rp_test_is_legal(G, &s, "remove c3"));
    rp_test_play(G, &s, "remove c3");
    assert_false(s.walls & bit_of("c3"));
    assert_int_equal(s.moves, 4);
}

/* CD-5: a Portal is grass and may be walled; only Builders build. */
static void test_cd5_portal_may_be_walled(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/W2B3/2K4 b 6 - 1/- *");
    assert_true(rp_test_is_legal(G, &s, "build d1"));
    assert_false(rp_test_is_legal(G, &s, "build a3")); /* a Wizard does not build */
    rp_test_play(G, &s, "build d1");
    assert_true(s.walls & bit_of("d1"));
}

/* CD-11: no Wall on a square holding Fire. */
static void test_cd11_no_wall_on_fire(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/ff5/B6/1CK4 b 9 - 1/- *");
    assert_false(rp_test_is_legal(G, &s, "build a3"));
    assert_true(rp_test_is_legal(G, &s, "build b2"));
    assert_true(rp_test_is_legal(G, &s, "build a1"));
}

/* ---- firing (CD-6) ---- */

/* CD-6: "If one or more Walls lie along a Cannon's line-of-fire, then destroying that first
 * Wall is as far as a cannonball can travel." */
static void test_cd6_ball_stopped_by_first_wall(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/1#5/#6/7/7/7/#6/7/CCK4 b 9 - 1/- *");
    assert_true(rp_test_is_legal(G, &s, "fire a1:1"));
    assert_true(rp_test_is_legal(G, &s, "fire a1:2"));
    assert_false(rp_test_is_legal(G, &s, "fire a1:3"));
    assert_false(rp_test_is_legal(G, &s, "fire a1:6"));
    assert_true(rp_test_is_legal(G, &s, "fire b1:7")); /* b8 is b's first Wall */
    assert_false(rp_test_is_legal(G, &s, "fire b1:8"));
    rp_test_play(G, &s, "fire a1:2");
    assert_false(s.walls & bit_of("a3")); /* the Wall is destroyed */
    assert_true(s.fire[CD_BLUE] & bit_of("a3"));
    assert_int_equal(s.moves, 7);
}

/* CD-6: distance d costs d moves and d <= moves left. */
static void test_cd6_distance_costs_moves(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/7/C1K4 b 4 - 1/- *");
    assert_true(rp_test_is_legal(G, &s, "fire a1:3"));
    assert_false(rp_test_is_legal(G, &s, "fire a1:5")); /* 5 > 4 moves left */
    rp_test_play(G, &s, "fire a1:3");
    assert_int_equal(s.moves, 1);
    assert_true(s.fire[CD_BLUE] & bit_of("a4"));
}

/* CD-P1: the ball flies over the river, which counts in the distance, but cannot land there. */
static void test_cdp1_ball_over_the_river(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/w6/7/C6/7/7/2K4 b 6 - 1/- *");
    assert_false(rp_test_is_legal(G, &s, "fire a4:1"));
    assert_true(rp_test_is_legal(G, &s, "fire a4:2"));
    rp_test_play(G, &s, "fire a4:2");
    assert_int_equal(s.piece[CD_RED][CD_WIZARD], 0); /* the Red Wizard on a6 is removed */
    assert_true(s.fire[CD_BLUE] & bit_of("a6"));
    assert_int_equal(s.moves, 4);
}

/* CD-P6: a shot's distance is bounded by the board edge (and by the moves left). */
static void test_cdp6_distance_bounded_by_edge(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/c6/7/7/7/7/2K4 r 20 - 1/- *");
    assert_true(rp_test_is_legal(G, &s, "fire a6:5"));  /* lands on a1 */
    assert_false(rp_test_is_legal(G, &s, "fire a6:6")); /* would leave the board */
    rp_action legal[RP_MAX_LEGAL];
    const int n = G->legal_actions(&s, legal);
    int shots = 0;
    for (int i = 0; i < n; i++) {
        char text[RP_ACTION_TEXT];
        G->action_to_text(&s, legal[i], text, sizeof text);
        shots += strncmp(text, "fire", 4) == 0;
    }
    assert_int_equal(shots, 4); /* a4 a3 a2 a1: a5 is the river */
}

/* CD-6: "It may land on its own side", removing whatever stands there, own pieces too. */
static void test_cd6_ball_lands_on_own_side(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/W6/C1K4 b 9 - 1/- *");
    rp_test_play(G, &s, "fire a1:1");
    assert_int_equal(s.piece[CD_BLUE][CD_WIZARD], 0);
    assert_true(s.fire[CD_BLUE] & bit_of("a2"));
    assert_int_equal(s.moves, 8);
    char text[RP_STATE_TEXT], expect[RP_STATE_TEXT];
    text_of(&s, text);
    cd1_of("4k2/7/7/7/7/7/7/F6/C*1K4 b 8 - 1/- *", expect, sizeof expect);
    assert_string_equal(text, expect);
}

/* CD-6: Portals do not hold Fire; the piece there is still removed. */
static void test_cd6_no_fire_on_portal(void **unused)
{
    (void)unused;
    cd_state s = load("3wk2/7/7/7/7/7/7/7/2KC3 b 9 - 1/- *");
    rp_test_play(G, &s, "fire d1:8");
    assert_int_equal(s.piece[CD_RED][CD_WIZARD], 0);
    assert_int_equal(s.fire[CD_BLUE], 0);
    assert_int_equal(s.moves, 1);
}

/* CD-6: each Cannon fires at most once per turn; CD-3: it is reset when its owner's next turn
 * begins (CD-P3: the fired mark stays until then). */
static void test_cd6_cdp3_each_cannon_once_per_turn(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/7/CCK4 b 9 - 1/- *");
    rp_test_play(G, &s, "fire a1:1");
    assert_false(rp_test_is_legal(G, &s, "fire a1:1"));
    assert_false(rp_test_is_legal(G, &s, "fire a1:2"));
    assert_true(rp_test_is_legal(G, &s, "fire b1:1")); /* another Cannon may */
    rp_test_play(G, &s, "end");
    assert_true(s.fired & bit_of("a1")); /* still shown fired during Red's turn */
    rp_test_play(G, &s, "end");
    assert_false(s.fired & bit_of("a1"));
    assert_true(rp_test_is_legal(G, &s, "fire a1:1"));
}

/* CD-12: a fired Cannon may still move (its mark goes with it); an added one may fire. */
static void test_cd12_fired_cannon_moves_added_cannon_fires(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/7/C1K4 b 9 - 1/- *");
    rp_test_play(G, &s, "fire a1:1");
    assert_true(rp_test_is_legal(G, &s, "a1-b1"));
    rp_test_play(G, &s, "a1-b1");
    assert_true(s.fired & bit_of("b1"));
    assert_false(s.fired & bit_of("a1"));
    assert_false(rp_test_is_legal(G, &s, "fire b1:1"));
    rp_test_init(G, &s, NULL);
    rp_test_play(G, &s, "add cannon");
    assert_true(rp_test_is_legal(G, &s, "fire d1:1"));
}

/* CD-11: a ball landing on Fire replaces it with the shooter's Fire. */
static void test_cd11_ball_on_fire_replaces_it(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/ff5/B6/1CK4 b 9 - 1/- *");
    rp_test_play(G, &s, "fire b1:2");
    assert_false(s.fire[CD_RED] & bit_of("b3"));
    assert_true(s.fire[CD_BLUE] & bit_of("b3"));
    assert_true(s.fire[CD_RED] & bit_of("a3"));
}

/* "The Fire lasts only through the opponent's turn, then disappears. Other pieces cannot move
 * onto a square that is holding Fire." (CD-3: removed at the start of its owner's turn.) */
static void test_fire_blocks_then_goes_away(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/wb5/7/7/7/7/7/C1K4 b 9 - 1/- *");
    rp_test_play(G, &s, "fire a1:6");
    assert_true(s.fire[CD_BLUE] & bit_of("a7"));
    rp_test_play(G, &s, "end");
    assert_int_equal(s.side, CD_RED);
    assert_true(s.fire[CD_BLUE] & bit_of("a7")); /* lasts through Red's turn */
    assert_false(rp_test_is_legal(G, &s, "b7-a7"));
    assert_false(rp_test_is_legal(G, &s, "build a7"));
    rp_test_play(G, &s, "end");
    assert_int_equal(s.side, CD_BLUE);
    assert_int_equal(s.fire[CD_BLUE], 0); /* gone at the start of Blue's turn */
    rp_test_play(G, &s, "end");
    assert_true(rp_test_is_legal(G, &s, "b7-a7"));
}

/* Fire blocks its own side too while it lasts: Blue's Fire on Blue's side stops Blue's
 * moves for the rest of the turn. */
static void test_own_fire_blocks_own_moves(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/7/C1K4 b 9 - 1/- *");
    rp_test_play(G, &s, "fire a1:1");
    assert_false(rp_test_is_legal(G, &s, "a1-a2"));
    assert_true(rp_test_is_legal(G, &s, "a1-b1"));
}

/* ---- the end (CD-7, CD-8, CD-15, CD-16) ---- */

/* CD-7: "The game ends when a player's King is hit by a cannonball. The player shooting the
 * Cannon is declared the winner." CD-P2: at once, moves left forfeited, Fire on the square. */
static void test_cd7_cdp2_king_hit_wins_at_once(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/7/2K1C2 b 9 - 1/- *");
    rp_test_play(G, &s, "fire e1:8");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    double r[2];
    G->returns(&s, r);
    assert_true(r[CD_BLUE] == 1.0 && r[CD_RED] == 0.0);
    char text[RP_STATE_TEXT], expect[RP_STATE_TEXT];
    text_of(&s, text);
    cd1_of("4F2/7/7/7/7/7/7/7/2K1C*2 b 0 - 1/- 1-0", expect, sizeof expect);
    assert_string_equal(text, expect);
    rp_action legal[RP_MAX_LEGAL];
    assert_int_equal(G->legal_actions(&s, legal), 0);
}

/* CD-7: a King hit by its own side: its owner loses. */
static void test_cd7_king_hit_by_own_side(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/2K4/2C4 b 9 - 1/- *");
    rp_test_play(G, &s, "fire c1:1");
    double r[2];
    G->returns(&s, r);
    assert_true(r[CD_BLUE] == 0.0 && r[CD_RED] == 1.0);
    assert_int_equal(s.result, CD_RED_WON);
}

/* CD-15: both players play N turns; the game is drawn when Red's N-th turn ends. */
static void test_cd15_turn_limit_draw(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, "turn-limit=2");
    rp_test_play(G, &s, "end");
    rp_test_play(G, &s, "end");
    rp_test_play(G, &s, "end");
    assert_int_equal(G->current_player(&s), CD_RED);
    assert_int_equal(s.turn, 2);
    rp_test_play(G, &s, "e9-f9");
    assert_int_equal(G->current_player(&s), CD_RED);
    rp_test_play(G, &s, "end");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    double r[2];
    G->returns(&s, r);
    assert_true(r[0] == 0.5 && r[1] == 0.5);
    char text[RP_STATE_TEXT], expect[RP_STATE_TEXT];
    text_of(&s, text);
    cd1_of("2w2k1/2#1#2/7/7/7/7/7/2#1#2/2K1W2 r 0 - 2/2 1/2", expect, sizeof expect);
    assert_string_equal(text, expect);
}

/* CD-15: the limit also ends a turn that runs out of moves. */
static void test_cd15_turn_limit_when_moves_run_out(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, "turn-limit=1");
    rp_test_play(G, &s, "end");
    const char *walk[] = {"e9-f9", "f9-e9", "e9-f9", "f9-e9", "e9-f9", "f9-e9"};
    for (int i = 0; i < 6; i++)
        rp_test_play(G, &s, walk[i]);
    assert_int_equal(s.result, CD_DRAW);
}

/* CD-16: "Outside tournament play (CD-8) the rulebook has no turn limit: a game ends only when
 * a King is hit ... The default for play between people and against the AI is no limit."
 * Two thousand turns each pass and the game goes on. */
static void test_cd16_no_turn_limit_by_default(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    assert_int_equal(s.limit, 0);
    for (int i = 0; i < 2 * 2000; i++)
        rp_test_play(G, &s, "end");
    assert_int_equal(G->current_player(&s), CD_BLUE);
    assert_int_equal(G->turn_number(&s), 2001);
    cJSON *v = G->json->view(&s, RP_SPECTATOR);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(v, "turn_limit")));
    cJSON_Delete(v);
    /* a position far past any former default loads and goes on */
    s = load("2w1k2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 r 6 add 5000/- *");
    rp_test_play(G, &s, "end");
    assert_int_equal(G->turn_number(&s), 5001);
}

/* CD-16: tools stop unlimited games at a cap they state (100 turns each, as turn_number counts
 * them: Blue's and Red's n-th turns are turn n) — a trait, never a rule of the game. */
static void test_cd16_tool_turn_cap_and_turn_number(void **unused)
{
    (void)unused;
    assert_int_equal(G->tool_turn_cap, 100);
    cd_state s;
    rp_test_init(G, &s, NULL);
    assert_int_equal(G->turn_number(&s), 1);
    rp_test_play(G, &s, "end");
    assert_int_equal(G->turn_number(&s), 1); /* Red's first turn */
    rp_test_play(G, &s, "end");
    assert_int_equal(G->turn_number(&s), 2);
    rp_test_init(G, &s, "turn-limit=1");
    rp_test_play(G, &s, "end");
    rp_test_play(G, &s, "end");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    assert_int_equal(G->turn_number(&s), 1); /* over: the last turn */
}

/* CD-8, CD-P5: tournament=1 sets a 25-turn limit unless turn-limit gives one; without
 * tournament there is none (CD-16) unless turn-limit gives one. */
static void test_cd8_cdp5_tournament_option(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, "tournament=1");
    assert_int_equal(s.limit, 25);
    assert_int_equal(s.tournament, 1);
    rp_test_init(G, &s, "tournament=1 turn-limit=0");
    assert_int_equal(s.limit, 25);
    rp_test_init(G, &s, "tournament=1 turn-limit=40");
    assert_int_equal(s.limit, 40);
    rp_test_init(G, &s, NULL);
    assert_int_equal(s.limit, 0);
    assert_int_equal(s.tournament, 0);
    rp_test_init(G, &s, "turn-limit=7");
    assert_int_equal(s.limit, 7);
    rp_test_init(G, &s, "turn-limit=10000"); /* the option's largest value is taken */
    assert_int_equal(s.limit, MAX_LIMIT);
    rp_config cfg;
    rp_config_default(G, &cfg);
    rp_error err = {{0}};
    assert_true(rp_config_set(G, &cfg, "turn-limit=10001", &err) < 0);
    assert_true(rp_config_set(G, &cfg, "tournament=2", &err) < 0);
}

/* The options a state reports (config_of) set up the same game again. */
static void assert_config_replays(const cd_state *s, const char *expect_options)
{
    rp_config base, cfg;
    rp_config_default(G, &base);
    rp_config_of(G, s, &base, &cfg);
    char text[256];
    assert_true(rp_config_to_text(G, &cfg, text, sizeof text) > 0);
    assert_string_equal(text, expect_options);
    rp_config again;
    rp_config_default(G, &again);
    rp_error err = {{0}};
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " "))
        assert_int_equal(rp_config_set(G, &again, tok, &err), RP_OK);
    cd_state fresh;
    assert_int_equal(G->init(&fresh, &again, &err), RP_OK);
    assert_int_equal(fresh.limit, s->limit);
    assert_int_equal(fresh.tournament, s->tournament);
}

/* Issue 18 item 2: a tournament game reports the 25-turn limit in effect, so a record of a
 * game drawn at turn 25 replays as that draw, not as a game going on. */
static void test_issue18_config_of_reports_the_limit_in_effect(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, "tournament=1");
    assert_config_replays(&s, "players=2 seed=1 turn-limit=25 tournament=1");
    rp_action played[2 * 25];
    int n = 0;
    while (G->current_player(&s) != RP_TERMINAL) {
        played[n++] = action_of(&s, "end");
        G->apply(&s, played[n - 1]);
    }
    assert_int_equal(n, 50);
    assert_int_equal(s.result, CD_DRAW);
    /* replay under the options config_of reports */
    rp_config base, cfg;
    rp_config_default(G, &base);
    rp_config_of(G, &s, &base, &cfg);
    cd_state replay;
    rp_error err = {{0}};
    assert_int_equal(G->init(&replay, &cfg, &err), RP_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(rp_apply_checked(G, &replay, played[i], &err), RP_OK);
    assert_memory_equal(&replay, &s, sizeof s);
    rp_test_init(G, &s, NULL);
    assert_config_replays(&s, "players=2 seed=1 turn-limit=0 tournament=0");
    rp_test_init(G, &s, "turn-limit=12");
    assert_config_replays(&s, "players=2 seed=1 turn-limit=12 tournament=0");
    /* a position reports what its notation says */
    s = load("4k2/7/7/7/7/7/7/7/2K4 b 3 - 2/7 *");
    assert_config_replays(&s, "players=2 seed=1 turn-limit=7 tournament=0");
    rp_test_load(G, &s,
                 "cd1 board=4k2/7/7/7/7/7/7/7/2K4 side=blue moves=3 add=closed turn=2 "
                 "limit=25 tournament=1 result=ongoing supply=W8B2C4F5/w8b2c4f5/#20");
    assert_config_replays(&s, "players=2 seed=1 turn-limit=25 tournament=1");
}

/* ---- notation (CD-9) ---- */

/* CD-9: every action has readable notation both ways. */
static void test_cd9_action_notation(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/1B5/2K1C2 b 9 - 1/- *");
    rp_action legal[RP_MAX_LEGAL];
    const int n = G->legal_actions(&s, legal);
    /* by hand: end; moves King c1 to b1 d1 c2, Builder b2 to a2 c2 b3 b1, Cannon e1 to d1 f1
     * e2 (10); builds a2 c2 b3 b1 (4); fire e1:1-3 and e1:5-8 (7: e5 is the river) */
    assert_int_equal(n, 1 + 10 + 4 + 7);
    const char *ok[] = {"end", "b2-b3", "build b3", "fire e1:8", "c1-d1"};
    for (int i = 0; i < 5; i++)
        assert_true(rp_test_is_legal(G, &s, ok[i]));
    rp_error err = {{0}};
    rp_action a;
    const char *bad[] = {"add dragon", "build z9", "fire e1",     "fire e1:9", "e1",
                         "c1-",        "remove",   "build c3 c4", "a9-g8",     "g8-a9"};
    for (int i = 0; i < 10; i++) {
        err.msg[0] = '\0';
        if (G->action_from_text(&s, bad[i], &a, &err) >= 0)
            fail_msg("accepted action '%s'", bad[i]);
        assert_true(strlen(err.msg) > 0);
    }
}

/* CD-9: a position with fired Cannons, Fire of both sides and a tournament limit loads and
 * writes back the same, the supply counted from the board. */
static void test_cd9_position_round_trip(void **unused)
{
    (void)unused;
    const char *text = "cd1 board=1c*f1k2/b#1#3/7/w6/7/1C5/F6/2#4/2K1W2 side=red moves=4 "
                       "add=closed turn=7 limit=25 tournament=1 result=ongoing "
                       "supply=W7B2C3F4/w7b1c3f4/#17";
    cd_state s;
    rp_test_load(G, &s, text);
    char back[RP_STATE_TEXT];
    text_of(&s, back);
    assert_string_equal(back, text);
    assert_true(s.fired & bit_of("b9"));
    assert_true(s.fire[CD_RED] & bit_of("c9"));
    assert_true(s.fire[CD_BLUE] & bit_of("a3"));
    assert_int_equal(s.limit, 25);
    assert_int_equal(s.tournament, 1);
    assert_int_equal(s.turn, 7);
}

/* CD-9: impossible positions are refused with a message naming the field. */
static void test_cd9_position_refusals(void **unused)
{
    (void)unused;
    assert_refused("4k2/7/7/7/7/7/7/7/2K5 b 3 add 1/- *", "rank 1");
    assert_refused("4k2/7/7/7/7/7/7/7/2K3 b 3 add 1/- *", "rank 1");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4/7 b 3 add 1/- *", "ranks");
    assert_refused("4k2/7/7/7/W6/7/7/7/2K4 b 6 add 1/- *", "side"); /* river */
    assert_refused("4k2/7/7/W6/7/7/7/7/2K4 b 6 add 1/- *", "side"); /* Red's side */
    assert_refused("4k2/7/7/7/7/#6/7/7/2K4 b 3 add 1/- *", "sand");
    assert_refused("3Fk2/7/7/7/7/7/7/7/2K4 b 3 - 1/- *", "Portal");
    assert_refused("4k2/7/7/7/7/7/7/CCC4/CCK4 b 3 - 1/- *", "cannon");
    assert_refused("4k2/7/7/7/7/7/7/7/2KK3 b 3 - 1/- *", "king");
    assert_refused("4k2/7/7/7/7/7/7/7/2K*3 b 3 - 1/- *", "Cannon");
    assert_refused("4k2/7/7/7/7/7/7/7/C1*K3 b 3 - 1/- *", "Cannon");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 28 - 1/- *", "moves");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 0 - 1/- *", "moves");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 6 add 1/- *", "3 + 3");
    assert_refused("4k2/7/7/7/7/7/7/F6/C*1K4 b 3 add 1/- *", "Fire");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 3 - 5/4 *", "turn");
    assert_refused("7/7/7/7/7/7/7/7/2K4 b 3 - 1/- *", "King");
    assert_refused("7/7/7/7/7/7/7/7/2K4 b 0 - 1/- 0-1", "result");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 0 - 1/- 1/2", "draw");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 r 0 - 3/100 1/2", "draw");
    /* the fields themselves */
    const char *good = "cd1 board=4k2/7/7/7/7/7/7/7/2K4 side=blue moves=3 add=closed turn=1 "
                       "limit=none tournament=0 result=ongoing supply=W8B2C4F5/w8b2c4f5/#20";
    cd_state s;
    rp_test_load(G, &s, good);
    static const struct {
        const char *from, *to, *needle;
    } edits[] = {
        {"side=blue", "side=x", "side"},
        {"result=ongoing", "result=2-0", "result"},
        {"#20", "#19", "supply"},
        {"W8B2C4F5/", "W8B2C4F6/", "supply"},
        {" supply=W8B2C4F5/w8b2c4f5/#20", "", "supply"},
        {"#20", "#20 extra", "after the last field"},
        {"cd1", "cd2", "version"},
        {"cd1", "castle", "cd1"},
        {"limit=none", "limit=0", "limit"},
        {"limit=none", "limit=10001", "limit"},
        {"tournament=0", "tournament=1", "tournament"}, /* formal play has a limit (CD-8) */
        {"tournament=0", "tournament=2", "tournament"},
        {"turn=1", "turn=0", "turn"},
        {"add=closed", "add=maybe", "add"},
        /* canonical spellings only: one form per state */
        {"moves=3", "moves=03", "moves"},
        {"moves=3", "moves=+3", "moves"},
        {"side=blue", "side=Blue", "side"},
        {"side=blue moves=3", "side=blue  moves=3", "one space"},
        {"side=blue moves=3", "moves=3 side=blue", "side"},
        {"board=4k2/", "board=211k2/", "canonical"},
        {"2K4", "2K13", "canonical"},
        {"#20", "#20 ", "after the last field"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char text[RP_STATE_TEXT];
        const char *at = strstr(good, edits[i].from);
        assert_non_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, edits[i].to,
                 at + strlen(edits[i].from));
        assert_refused_text(text, edits[i].needle);
    }
    /* consistent versions of the same load */
    s = load("4k2/7/7/7/7/7/7/7/2K4 b 3 - 1/- *");
    assert_int_equal(s.moves, 3);
    s = load("4k2/7/7/7/7/7/7/7/2K4 r 0 - 3/3 1/2");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
}

/* ---- invariants (state_ok) ---- */

/* state_ok refuses what no game can reach, also in states never written as text. */
static void test_state_ok_refuses_broken_states(void **unused)
{
    (void)unused;
    cd_state good;
    rp_test_init(G, &good, NULL);
    rp_error err = {{0}};
    assert_int_equal(G->state_ok(&good, &err), RP_OK);
    struct {
        const char *needle;
        cd_state s;
    } bad[12];
    for (int i = 0; i < 12; i++)
        bad[i].s = good;
    bad[0].needle = "two things";
    bad[0].s.walls |= bit_of("c1");
    bad[1].needle = "not a Cannon";
    bad[1].s.fired |= bit_of("e1");
    bad[2].needle = "tournament";
    bad[2].s.tournament = 1;
    bad[3].needle = "spare";
    bad[3].s.zero_[2] = 1;
    bad[4].needle = "out of range";
    bad[4].s.side = 2;
    bad[5].needle = "turn";
    bad[5].s.turn = 0;
    bad[6].needle = "past the turn limit";
    bad[6].s.limit = 3;
    bad[6].s.turn = 4;
    bad[7].needle = "Fire";
    bad[7].s.fire[CD_RED] |= bit_of("a5");
    bad[8].needle = "two things";
    bad[8].s.fire[CD_RED] |= bit_of("e9");
    bad[9].needle = "off";
    bad[9].s.piece[CD_RED][CD_WIZARD] |= bit_of("a1");
    bad[10].needle = "King";
    bad[10].s.piece[CD_RED][CD_KING] = 0;
    bad[11].needle = "out of range";
    bad[11].s.moves = 28;
    for (int i = 0; i < 12; i++) {
        err.msg[0] = '\0';
        if (G->state_ok(&bad[i].s, &err) >= 0)
            fail_msg("state_ok accepted broken state %d", i);
        if (!strstr(err.msg, bad[i].needle))
            fail_msg("state %d refused with '%s', expected '%s'", i, err.msg, bad[i].needle);
    }
}

/* ---- views, render, evaluate ---- */

static const char *string_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

/* Full information: the view shows the whole position, as plain data, to both players and
 * to the spectator alike. */
static void test_view_shows_everything(void **unused)
{
    (void)unused;
    cd_state s = load("1c*f1k2/b#1#3/7/w6/7/1C5/F6/2#4/2K1W2 r 4 - 7/25 *");
    cJSON *first = G->json->view(&s, CD_BLUE);
    for (int p = RP_SPECTATOR; p < 2; p++) {
        if (p == RP_TERMINAL)
            continue;
        cJSON *v = G->json->view(&s, p);
        assert_non_null(v);
        assert_true(cJSON_Compare(v, first, true));
        cJSON *board = cJSON_GetObjectItem(v, "board");
        assert_int_equal(cJSON_GetArraySize(board), 9);
        assert_string_equal(cJSON_GetArrayItem(board, 0)->valuestring, ".cf.k..");
        assert_string_equal(cJSON_GetArrayItem(board, 1)->valuestring, "b#.#...");
        assert_string_equal(cJSON_GetArrayItem(board, 4)->valuestring, "~~~~~~~");
        assert_string_equal(cJSON_GetArrayItem(board, 6)->valuestring, "F......");
        assert_string_equal(cJSON_GetArrayItem(board, 8)->valuestring, "..K.W..");
        cJSON *fired = cJSON_GetObjectItem(v, "fired");
        assert_int_equal(cJSON_GetArraySize(fired), 1);
        assert_string_equal(cJSON_GetArrayItem(fired, 0)->valuestring, "b9");
        assert_int_equal(cJSON_GetObjectItem(v, "moves_left")->valueint, 4);
        assert_int_equal(cJSON_GetObjectItem(v, "turn_limit")->valueint, 25);
        assert_string_equal(string_of(v, "to_move"), "red");
        assert_string_equal(string_of(v, "result"), "ongoing");
        /* pieces as data: the fired Red Cannon on b9 */
        cJSON *pieces = cJSON_GetObjectItem(v, "pieces"), *piece;
        int count = 0, found = 0;
        cJSON_ArrayForEach (piece, pieces) {
            count++;
            if (strcmp(string_of(piece, "square"), "b9") == 0) {
                found++;
                assert_string_equal(string_of(piece, "piece"), "cannon");
                assert_int_equal(cJSON_GetObjectItem(piece, "seat")->valueint, CD_RED);
                assert_true(cJSON_IsTrue(cJSON_GetObjectItem(piece, "fired")));
            }
        }
        assert_int_equal(count, 7);
        assert_int_equal(found, 1);
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "walls")), 3);
        cJSON *fire = cJSON_GetObjectItem(v, "fire");
        assert_int_equal(cJSON_GetArraySize(fire), 2);
        cJSON *supply = cJSON_GetObjectItem(v, "supply");
        cJSON *red = cJSON_GetObjectItem(supply, "red");
        assert_int_equal(cJSON_GetObjectItem(red, "builder")->valueint, 1);
        assert_int_equal(cJSON_GetObjectItem(red, "fire")->valueint, 4);
        assert_int_equal(cJSON_GetObjectItem(supply, "walls")->valueint, 17);
        cJSON_Delete(v);
    }
    cJSON_Delete(first);
}

/* Nothing is secret in Castle Danger, for any viewer. */
static void test_secret_names_are_empty(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    for (int p = RP_SPECTATOR; p < 2; p++) {
        char buf[16] = "x";
        assert_int_equal(G->secret_names(&s, p, buf, sizeof buf), 0);
        assert_string_equal(buf, "");
    }
}

static char *render_text(const cd_state *s, int viewer, bool color)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    assert_non_null(out);
    G->render(s, viewer, out, color);
    fclose(out);
    return buf;
}

/* The board is drawn with coordinates, pieces, Fire and supply, ending with whose turn it is
 * and the moves left this turn; colour only when asked; the spectator sees it too. */
static void test_render(void **unused)
{
    (void)unused;
    cd_state s = load("1c*f1k2/b#1#3/7/w6/7/1C5/F6/2#4/2K1W2 r 4 - 7/25 *");
    char *plain = render_text(&s, CD_RED, false);
    assert_null(strchr(plain, '\x1b'));
    assert_non_null(strstr(plain, "a  b  c  d  e  f  g"));
    assert_non_null(strstr(plain, "turn 7 of 25"));
    assert_non_null(strstr(plain, " c'")); /* the fired Red Cannon */
    assert_non_null(strstr(plain, "*F*")); /* Blue Fire */
    assert_non_null(strstr(plain, "3 Cannons"));
    const char *last = plain + strlen(plain) - 1;
    while (last > plain && last[-1] != '\n')
        last--;
    assert_string_equal(last, "  Red to move, 4 moves left this turn\n");
    free(plain);
    char *color = render_text(&s, CD_BLUE, true);
    assert_non_null(strchr(color, '\x1b'));
    free(color);
    rp_test_init(G, &s, NULL);
    char *watch = render_text(&s, RP_SPECTATOR, false);
    assert_non_null(strstr(watch, "no turn limit"));
    assert_non_null(strstr(watch, "you are watching"));
    assert_non_null(strstr(watch, "Blue to move, 6 moves left this turn; add step open (costs 2)"));
    free(watch);
}

/* The evaluation prefers a King covered by a Wall to an exposed one, and a shot at the enemy
 * King available now to almost a win. */
static void test_evaluate(void **unused)
{
    (void)unused;
    cd_state open_king = load("4k2/7/7/7/7/7/7/7/2K1C2 r 3 - 1/- *");
    cd_state covered = load("4k2/4#2/7/7/7/7/7/7/2K1C2 r 3 - 1/- *");
    const double a = G->evaluate(&open_king, CD_RED), b = G->evaluate(&covered, CD_RED);
    assert_true(a >= 0.0 && a <= 1.0 && b >= 0.0 && b <= 1.0);
    assert_true(b > a);
    cd_state shot = load("4k2/7/7/7/7/7/7/7/2K1C2 b 9 - 1/- *");
    assert_true(G->evaluate(&shot, CD_BLUE) > 0.9);
    assert_true(G->evaluate(&shot, CD_RED) < 0.1);
    cd_state start;
    rp_test_init(G, &start, NULL);
    const double e = G->evaluate(&start, CD_BLUE);
    assert_true(e > 0.3 && e < 0.7);
}

/* ---- actions as data ---- */

/* The data form of an action, printed compactly (without id and text). */
static char *action_data(const cd_state *s, const char *move)
{
    cJSON *a = G->json->action(s, action_of(s, move));
    assert_non_null(a);
    char *text = cJSON_PrintUnformatted(a);
    cJSON_Delete(a);
    return text;
}

static void assert_action_data(const cd_state *s, const char *move, const char *expect)
{
    char *got = action_data(s, move);
    if (strcmp(got, expect) != 0)
        fail_msg("%s as data:\n  got    %s\n  expect %s", move, got, expect);
    free(got);
}

/* Every kind of action as data: a piece and squares for click-to-move input, the Builders that
 * can build or remove, a shot's distance and what it would hit, the cost in moves. */
static void test_action_json(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/3w3/7/7/7/1#5/1BB1C2/2K4 b 3 add 1/- *");
    assert_action_data(&s, "end", "{\"kind\":\"end\",\"forfeit\":3,\"seat\":0,\"cost\":0}");
    assert_action_data(&s, "add wizard",
                       "{\"kind\":\"add\",\"piece\":\"wizard\",\"to\":\"d1\",\"seat\":0,"
                       "\"cost\":2}");
    assert_action_data(&s, "c1-d1",
                       "{\"kind\":\"move\",\"piece\":\"king\",\"from\":\"c1\",\"to\":\"d1\","
                       "\"seat\":0,\"cost\":1}");
    assert_action_data(&s, "build a2",
                       "{\"kind\":\"build\",\"by\":[\"b2\"],\"to\":\"a2\",\"seat\":0,"
                       "\"cost\":1}");
    assert_action_data(&s, "remove b3",
                       "{\"kind\":\"remove\",\"by\":[\"b2\"],\"to\":\"b3\",\"seat\":0,"
                       "\"cost\":1}");
    assert_action_data(&s, "build c3",
                       "{\"kind\":\"build\",\"by\":[\"c2\"],\"to\":\"c3\",\"seat\":0,"
                       "\"cost\":1}");
    assert_action_data(&s, "build b1",
                       "{\"kind\":\"build\",\"by\":[\"b2\"],\"to\":\"b1\",\"seat\":0,"
                       "\"cost\":1}");
    s = load("4k2/7/3w3/7/7/7/7/1B1B3/2K1C2 b 9 - 1/- *");
    assert_action_data(&s, "build c2",
                       "{\"kind\":\"build\",\"by\":[\"b2\",\"d2\"],\"to\":\"c2\",\"seat\":0,"
                       "\"cost\":1}");
    assert_action_data(&s, "fire e1:8",
                       "{\"kind\":\"fire\",\"piece\":\"cannon\",\"from\":\"e1\",\"to\":\"e9\","
                       "\"distance\":8,\"target\":\"king\",\"owner\":1,\"seat\":0,\"cost\":8}");
    assert_action_data(&s, "fire e1:2",
                       "{\"kind\":\"fire\",\"piece\":\"cannon\",\"from\":\"e1\",\"to\":\"e3\","
                       "\"distance\":2,\"target\":null,\"seat\":0,\"cost\":2}");
    /* rp_action_cjson adds the id and the notation */
    cJSON *a = rp_action_cjson(G, &s, action_of(&s, "b2-a2"));
    assert_string_equal(string_of(a, "text"), "b2-a2");
    assert_int_equal(cJSON_GetObjectItem(a, "id")->valueint, action_of(&s, "b2-a2"));
    cJSON_Delete(a);
}

/* ---- events ---- */

/* The events of `move` in s told to `viewer`, printed compactly. */
static char *events_text(const cd_state *s, const char *move, int viewer)
{
    rp_error err = {{0}};
    cJSON *e = rp_events_cjson(G, s, action_of(s, move), viewer, &err);
    if (!e)
        fail_msg("no events for '%s': %s", move, err.msg);
    char *text = cJSON_PrintUnformatted(e);
    cJSON_Delete(e);
    return text;
}

/* The events are exactly `expect` (a JSON array), the same for Blue, Red and the spectator:
 * nothing is hidden in Castle Danger. */
static void assert_events(const cd_state *s, const char *move, const char *expect)
{
    for (int viewer = RP_SPECTATOR; viewer < 2; viewer++) {
        if (viewer == RP_TERMINAL)
            continue;
        char *got = events_text(s, move, viewer);
        if (strcmp(got, expect) != 0)
            fail_msg("events of '%s' for viewer %d:\n  got    %s\n  expect %s", move, viewer, got,
                     expect);
        free(got);
    }
}

/* Moves, adds with their cost, builds and removals, each with the moves left. */
static void test_events_moves_adds_walls(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, NULL);
    assert_events(&s, "add cannon",
                  "[{\"kind\":\"add\",\"seat\":0,\"text\":\"Blue adds a Cannon on its Portal d1, "
                  "for 2 moves (it has at least as many pieces as its opponent); 4 moves "
                  "left.\",\"piece\":\"cannon\",\"to\":\"d1\",\"cost\":2,\"moves_left\":4}]");
    s = load("2w1k1c/2#1#2/7/7/7/7/7/2#1#2/2K1W2 b 6 add 1/- *");
    assert_events(&s, "add builder",
                  "[{\"kind\":\"add\",\"seat\":0,\"text\":\"Blue adds a Builder on its Portal d1, "
                  "free (it has fewer pieces than its opponent); 6 moves left.\",\"piece\":"
                  "\"builder\",\"to\":\"d1\",\"cost\":0,\"moves_left\":6}]");
    s = load("4k2/7/7/7/7/7/1#5/1B5/2K4 b 6 - 1/- *");
    assert_events(&s, "c1-c2",
                  "[{\"kind\":\"move\",\"seat\":0,\"text\":\"Blue moves the King from c1 to c2 "
                  "(1 move; 5 left).\",\"piece\":\"king\",\"from\":\"c1\",\"to\":\"c2\","
                  "\"cost\":1,\"moves_left\":5}]");
    assert_events(&s, "build a2",
                  "[{\"kind\":\"build\",\"seat\":0,\"text\":\"Blue's Builder builds a Wall on a2 "
                  "(1 move; 5 left).\",\"to\":\"a2\",\"cost\":1,\"moves_left\":5}]");
    assert_events(&s, "remove b3",
                  "[{\"kind\":\"remove\",\"seat\":0,\"text\":\"Blue's Builder removes the Wall on "
                  "b3 (1 move; 5 left).\",\"to\":\"b3\",\"cost\":1,\"moves_left\":5}]");
}

/* Shots: what the ball hit (a piece, a Wall, Fire) and the Fire it left; none on a Portal. */
static void test_events_shots(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/w#f4/7/7/7/7/7/CCKC3 b 27 - 1/- *");
    assert_events(&s, "fire a1:6",
                  "[{\"kind\":\"fire\",\"seat\":0,\"text\":\"Blue's Cannon on a1 fires 6 squares "
                  "to a7 (6 moves; 21 left).\",\"distance\":6,\"from\":\"a1\",\"to\":\"a7\","
                  "\"cost\":6,\"moves_left\":21},"
                  "{\"kind\":\"hit\",\"seat\":0,\"text\":\"The ball hits Red's Wizard on a7, "
                  "which is removed.\",\"square\":\"a7\",\"target\":\"wizard\",\"owner\":1},"
                  "{\"kind\":\"burn\",\"seat\":0,\"text\":\"Blue's Fire burns on a7 through the "
                  "opponent's turn.\",\"square\":\"a7\"}]");
    assert_events(&s, "fire b1:6",
                  "[{\"kind\":\"fire\",\"seat\":0,\"text\":\"Blue's Cannon on b1 fires 6 squares "
                  "to b7 (6 moves; 21 left).\",\"distance\":6,\"from\":\"b1\",\"to\":\"b7\","
                  "\"cost\":6,\"moves_left\":21},"
                  "{\"kind\":\"hit\",\"seat\":0,\"text\":\"The ball destroys the Wall on b7.\","
                  "\"square\":\"b7\",\"target\":\"wall\"},"
                  "{\"kind\":\"burn\",\"seat\":0,\"text\":\"Blue's Fire burns on b7 through the "
                  "opponent's turn.\",\"square\":\"b7\"}]");
    s = load("4k2/7/2f4/7/7/7/7/7/CCKC3 b 27 - 1/- *");
    char *got = events_text(&s, "fire d1:8", RP_SPECTATOR);
    assert_non_null(strstr(got, "fires 8 squares to d9 (8 moves; 19 left); a Portal holds no "
                                "Fire."));
    assert_null(strstr(got, "burn"));
    free(got);
    s = load("4k2/7/2f4/7/7/7/7/7/CCC1K2 b 27 - 1/- *");
    got = events_text(&s, "fire c1:6", CD_RED);
    assert_non_null(strstr(got, "\"text\":\"The ball lands on Red's Fire on c7, which goes "
                                "out.\",\"square\":\"c7\",\"target\":\"fire\",\"owner\":1}"));
    free(got);
}

/* The King hit ends the game: who lost, who won, the score (CD-7), also by one's own Cannon. */
static void test_events_king_hit(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/7/2K1C2 b 9 - 1/- *");
    assert_events(&s, "fire e1:8",
                  "[{\"kind\":\"fire\",\"seat\":0,\"text\":\"Blue's Cannon on e1 fires 8 squares "
                  "to e9 (8 moves; 1 left).\",\"distance\":8,\"from\":\"e1\",\"to\":\"e9\","
                  "\"cost\":8,\"moves_left\":1},"
                  "{\"kind\":\"hit\",\"seat\":0,\"text\":\"The ball hits Red's King on e9.\","
                  "\"square\":\"e9\",\"target\":\"king\",\"owner\":1},"
                  "{\"kind\":\"burn\",\"seat\":0,\"text\":\"Blue's Fire burns on e9.\","
                  "\"square\":\"e9\"},"
                  "{\"kind\":\"game-over\",\"seat\":0,\"text\":\"Red's King is hit on e9: Blue "
                  "wins.\",\"reason\":\"king-hit\",\"result\":\"blue-won\",\"score\":[1,0]}]");
    s = load("4k2/7/7/7/7/7/7/2K4/2C4 b 9 - 1/- *");
    char *got = events_text(&s, "fire c1:1", CD_BLUE);
    assert_non_null(strstr(got, "\"kind\":\"game-over\",\"seat\":1,\"text\":\"Blue's King is hit "
                                "on c2 by its own Cannon: Red wins.\""));
    free(got);
}

/* The end of a turn (chosen, or the moves used up), the next turn's start: own Fire out, own
 * Cannons reset, the moves of the turn (CD-3); the draw at the turn limit (CD-15). */
static void test_events_turns_and_the_limit(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/F1w4/7/7/7/7/7/2KC*3 r 3 - 1/- *");
    assert_events(&s, "end",
                  "[{\"kind\":\"end\",\"seat\":1,\"text\":\"Red ends the turn, forfeiting 3 "
                  "moves.\",\"forfeited\":3},"
                  "{\"kind\":\"fire-out\",\"seat\":0,\"text\":\"Blue's Fire on a7 goes out.\","
                  "\"squares\":[\"a7\"]},"
                  "{\"kind\":\"reset\",\"seat\":0,\"text\":\"Blue's fired Cannons on d1 are "
                  "reset.\",\"squares\":[\"d1\"]},"
                  "{\"kind\":\"turn\",\"seat\":0,\"text\":\"Blue's turn 2: 3 moves (3 + 3 x 0 "
                  "Wizards).\",\"turn\":2,\"moves\":3}]");
    s = load("4k2/7/7/7/7/7/7/7/1WK4 r 1 - 4/- *");
    assert_events(&s, "e9-f9",
                  "[{\"kind\":\"move\",\"seat\":1,\"text\":\"Red moves the King from e9 to f9 "
                  "(1 move; 0 left).\",\"piece\":\"king\",\"from\":\"e9\",\"to\":\"f9\","
                  "\"cost\":1,\"moves_left\":0},"
                  "{\"kind\":\"end\",\"seat\":1,\"text\":\"Red has used all its moves; the turn "
                  "ends.\",\"forfeited\":0},"
                  "{\"kind\":\"turn\",\"seat\":0,\"text\":\"Blue's turn 5: 6 moves (3 + 3 x 1 "
                  "Wizard).\",\"turn\":5,\"moves\":6}]");
    s = load("4k2/7/7/7/7/7/7/7/2K4 r 2 - 25/25 *");
    assert_events(&s, "end",
                  "[{\"kind\":\"end\",\"seat\":1,\"text\":\"Red ends the turn, forfeiting 2 "
                  "moves.\",\"forfeited\":2},"
                  "{\"kind\":\"game-over\",\"text\":\"Red's turn 25 ends without a King hit: the "
                  "game is drawn at the turn limit.\",\"reason\":\"turn-limit\",\"result\":"
                  "\"draw\",\"score\":[0.5,0.5]}]");
}

/* ---- why a move is not legal ---- */

static void assert_explained(const cd_state *s, const char *move, const char *needle)
{
    const rp_action a = action_of(s, move);
    assert_false(in_legal_list(s, a));
    char why[256];
    const int len = G->explain_illegal(s, a, why, sizeof why);
    if (len <= 0 || !strstr(why, needle))
        fail_msg("'%s' explained as '%s', expected '%s'", move, len > 0 ? why : "(nothing)",
                 needle);
}

/* Illegal moves are explained in the game's terms. */
static void test_explain_illegal(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/W6/Cf1#3/B##4/2K4 b 9 - 1/- *");
    assert_explained(&s, "a4-a5", "the river cannot be crossed");
    assert_explained(&s, "a2-b2", "b2 holds a Wall");
    assert_explained(&s, "a3-b3", "b3 holds Red's Fire");
    assert_explained(&s, "a3-a4", "a4 holds Blue's Wizard");
    assert_explained(&s, "e1-e2", "there is no piece on e1");
    assert_explained(&s, "e9-e8", "you move only your own pieces");
    assert_explained(&s, "c2-c3", "c2 holds a Wall, which does not move");
    assert_explained(&s, "build a4", "sand");
    assert_explained(&s, "build f3", "none of your Builders stands next to f3");
    assert_explained(&s, "build a3", "a3 holds Blue's Cannon");
    assert_explained(&s, "remove c3", "c3 holds no Wall");
    assert_explained(&s, "remove c2", "none of your Builders stands next to c2");
    assert_explained(&s, "add wizard", "only as the turn's first action");
    assert_explained(&s, "fire a3:7", "leave the board");
    assert_explained(&s, "fire c1:1", "c1 holds Blue's King, not a Cannon of yours");
    assert_explained(&s, "fire b1:1", "there is no Cannon on b1");
    s = load("4k2/7/7/7/7/7/#6/7/C1K4 b 9 - 1/- *");
    assert_explained(&s, "fire a1:3", "the Wall on a3 stops the ball");
    assert_explained(&s, "fire a1:4", "the Wall on a3 stops the ball");
    s = load("4k2/7/7/7/7/C6/7/7/2K4 b 9 - 1/- *");
    assert_explained(&s, "fire a4:1", "cannot land on the river");
    s = load("4k2/7/7/7/7/7/7/7/C1K4 b 3 - 1/- *");
    assert_explained(&s, "fire a1:4", "a shot of 4 squares costs 4 moves and 3 are left");
    rp_test_play(G, &s, "fire a1:1");
    assert_explained(&s, "fire a1:1", "that Cannon has already fired this turn");
    s = load("k5w/b5b/#5#/7/7/7/7/7/2K4 r 9 - 1/- *");
    const rp_action wrap = (rp_action)(4 + 4 * __builtin_ctzll(bit_of("a9")) + 3);
    char why[256];
    assert_true(G->explain_illegal(&s, wrap, why, sizeof why) > 0);
    assert_non_null(strstr(why, "a9 is at the edge of the board"));
    s = load("4k2/7/7/7/7/7/7/7/2KW3 b 6 add 1/- *");
    assert_explained(&s, "add cannon", "your Portal d1 holds Blue's Wizard");
    s = load("4k2/7/7/7/7/7/7/CC3CC/2K4 b 3 add 1/- *");
    assert_explained(&s, "add cannon", "all 4 of Blue's Cannons are on the board");
    /* a legal action has nothing to explain */
    assert_true(G->explain_illegal(&s, action_of(&s, "end"), why, sizeof why) < 0);
}

/* ---- the rules text ---- */

/* `ramparts rules` states every shared ruling (CD-1..CD-16) and project ruling (CD-P1..CD-P6)
 * in full, so an id met in a message can be looked up in the project itself. */
static void test_rules_text_states_every_ruling(void **unused)
{
    (void)unused;
    const char *rules = rp_game_rules(G);
    assert_non_null(rules);
    for (int i = 1; i <= 16; i++) {
        char id[32];
        snprintf(id, sizeof id, "**CD-%d** ", i);
        if (!strstr(rules, id))
            fail_msg("the rules do not state %s", id);
    }
    for (int i = 1; i <= 6; i++) {
        char id[32];
        snprintf(id, sizeof id, "**CD-P%d** ", i);
        if (!strstr(rules, id))
            fail_msg("the rules do not state %s", id);
    }
    assert_non_null(strstr(rules, "There is no turn limit"));
}

/* ---- property runs ---- */

/* The moves an action costs in state s (CD-3..CD-6). */
static int action_cost(const cd_state *s, const char *text)
{
    if (strncmp(text, "add", 3) == 0) {
        int mine = 0, theirs = 0;
        for (int k = 0; k < CD_KINDS; k++) {
            mine += __builtin_popcountll(s->piece[s->side][k]);
            theirs += __builtin_popcountll(s->piece[s->side ^ 1][k]);
        }
        return mine >= theirs ? 2 : 0;
    }
    if (strncmp(text, "fire", 4) == 0)
        return text[strlen(text) - 1] - '0';
    return 1;
}

/* Everything on the board where it may be, in the numbers the supply allows. */
static void check_invariants(const cd_state *s)
{
    const uint64_t all = (1ULL << 63) - 1, river = 0x7FULL << 28;
    uint64_t seen = 0;
    const uint64_t sides[2] = {(1ULL << 28) - 1, all & ~((1ULL << 35) - 1)};
    const int max[CD_KINDS] = {1, 8, 2, 4};
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < CD_KINDS; k++) {
            const uint64_t b = s->piece[side][k];
            assert_int_equal(b & seen, 0);
            assert_int_equal(b & ~sides[side], 0);
            assert_true(__builtin_popcountll(b) <= max[k]);
            seen |= b;
        }
    }
    for (int side = 0; side < 2; side++) {
        assert_int_equal(s->fire[side] & seen, 0);
        assert_true(__builtin_popcountll(s->fire[side]) <= 5);
        seen |= s->fire[side];
    }
    assert_int_equal(s->walls & seen, 0);
    assert_true(__builtin_popcountll(s->walls) <= 20);
    assert_int_equal((seen | s->walls) & river, 0);
    assert_int_equal(s->fired & ~(s->piece[0][CD_CANNON] | s->piece[1][CD_CANNON]), 0);
    assert_true(s->turn >= 1 && (s->limit == 0 || s->turn <= s->limit));
    if (s->result == CD_ONGOING) {
        assert_true(s->moves >= 1 && s->moves <= 27);
        assert_true(s->piece[0][CD_KING] && s->piece[1][CD_KING]);
    }
}

/* Random games, 9 in 10 under tournament=1 (25 turns) and 1 in 10 with no limit (CD-16: they
 * end only by a King hit, which random play always reached in testing, within 500 turns).
 * At every step of every game: the invariants above, the legal list against the coordinate
 * model of the board, and moves spent as the rules say. The generic checks are sampled to keep
 * the default run near a minute and a half on one core under the sanitizers: notation,
 * state_ok, actions as data and the geometry of every action's data form at every step of 1
 * game in 8; views, screens and events for both seats and the spectator at every step of 1
 * game in 80 and at one random step (among the first 50) of the others; the final state's
 * notation in every game. RAMPARTS_PROPERTY_GAMES sets the number of games. */
static void test_property_random_games(void **unused)
{
    (void)unused;
    const int games = rp_test_games(RP_TEST_SOAK_GAMES);
    rp_rng rng;
    rp_rng_seed(&rng, 77, 5);
    int results[4] = {0}, unlimited = 0;
    for (int g = 0; g < games; g++) {
        cd_state s;
        char opts[64];
        const bool limited = g % 10 != 9;
        snprintf(opts, sizeof opts, "seed=%d %s", g, limited ? "tournament=1" : "turn-limit=0");
        rp_test_init(G, &s, opts);
        unlimited += !limited;
        const bool all_notation = g % 8 == 0, all_views = g % 80 == 0;
        const int view_step = 1 + (int)rp_rng_below(&rng, 50);
        int steps = 0;
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_true(++steps <= (limited ? 25 * 2 * 28 : 200000)); /* add + 27 moves */
            check_invariants(&s);
            check_against_model(&s);
            if (all_notation) {
                rp_test_check_notation(G, &s);
                check_geometry(&s);
            }
            if (all_views || steps == view_step)
                rp_test_check_views(G, &s, &rng);
            rp_action legal[RP_MAX_LEGAL];
            const int n = G->legal_actions(&s, legal);
            assert_true(n >= 1 && n <= RP_MAX_LEGAL);
            const rp_action a = legal[rp_rng_below(&rng, (uint32_t)n)];
            char text[RP_ACTION_TEXT];
            G->action_to_text(&s, a, text, sizeof text);
            const cd_state before = s;
            G->apply(&s, a);
            if (s.result == CD_ONGOING && s.side == before.side && s.turn == before.turn)
                assert_int_equal(s.moves, before.moves - action_cost(&before, text));
        }
        check_invariants(&s);
        rp_test_check_state_ok(G, &s);
        char text[RP_STATE_TEXT];
        text_of(&s, text);
        cd_state back;
        rp_test_load(G, &back, text);
        assert_memory_equal(&back, &s, sizeof s);
        rp_test_check_returns(G, &s);
        results[s.result]++;
        if (!limited)
            assert_true(s.result == CD_BLUE_WON || s.result == CD_RED_WON);
    }
    assert_int_equal(results[CD_ONGOING], 0);
    assert_true(results[CD_BLUE_WON] + results[CD_RED_WON] + results[CD_DRAW] == games);
    assert_true(unlimited == games / 10);
}

/* ---- the fast paths against plain references ---- */

/* Every step of the table apply reads (cd_step_span, rules.c) that stays on the board is the
 * two squares CD-4 names: the piece's square and the one next to it in that direction. */
static void test_cd4_step_table_matches_the_geometry(void **unused)
{
    (void)unused;
    int checked = 0;
    for (int from = 0; from < CD_SQUARES; from++)
        for (int d = 0; d < 4; d++) {
            const uint64_t to = shift_dir(1ULL << from, d);
            if (!to)
                continue;
            assert_int_equal(cd_step_span[4 * from + d], (1ULL << from) | to);
            checked++;
        }
    assert_int_equal(checked, 4 * 7 * 9 - 2 * 7 - 2 * 9); /* every step but off the edges */
}

/* Whether a (column, rank) square is in the bit set b. */
static bool has(uint64_t b, int c, int r)
{
    return on_board(c, r) && on_bit(b, c, r);
}

/* The legal actions of s in the order cd_legal_actions lists them (play depends on the order:
 * a seeded pick takes the i-th), square by square with no bit tricks: end (CD-14); the adds of
 * Wizard, Builder, Cannon while the add step is open, the Portal empty, the cost payable (2 when
 * the mover has at least the opponent's material, CD-3, CD-13) and supply left (CD-2); the
 * steps up, right, down, left, each by rising target square, onto empty squares of the own side
 * (CD-4); builds on empty grass next to a Builder while fewer than 20 Walls stand (CD-2, CD-5,
 * CD-11); removals of Walls next to a Builder (CD-5); each unfired Cannon's shots by rising
 * square, then rising distance, within the moves left, over the river but not onto it, up to
 * the first Wall (CD-6, CD-P1, CD-P3, CD-P6). */
static int reference_legal(const cd_state *s, rp_action *out)
{
    if (s->result != CD_ONGOING)
        return 0;
    const int side = s->side, toward = side == CD_BLUE ? 1 : -1;
    uint64_t pieces[2] = {0, 0}, all = s->walls | s->fire[0] | s->fire[1];
    for (int who = 0; who < 2; who++)
        for (int k = 0; k < CD_KINDS; k++)
            pieces[who] |= s->piece[who][k];
    all |= pieces[0] | pieces[1];
    int n = 0;
    out[n++] = A_END;
    const int portal_sq = side == CD_BLUE ? CD_SQ(3, 1) : CD_SQ(3, 9);
    const int cost =
        __builtin_popcountll(pieces[side]) >= __builtin_popcountll(pieces[side ^ 1]) ? 2 : 0;
    if (s->add_open && !((all >> portal_sq) & 1) && s->moves >= cost) {
        static const int max[CD_KINDS] = {1, 8, 2, 4};
        for (int k = CD_WIZARD; k <= CD_CANNON; k++)
            if (__builtin_popcountll(s->piece[side][k]) < max[k])
                out[n++] = (rp_action)(A_ADD + k - 1);
    }
    for (int d = 0; d < 4; d++)
        for (int to = 0; to < CD_SQUARES; to++) {
            const int c = to % 7, r = to / 7 + 1, fc = c - DC[d], fr = r - DR[d];
            if (has(pieces[side], fc, fr) && own_rank(side, r) && !has(all, c, r))
                out[n++] = (rp_action)(A_MOVE + 4 * CD_SQ(fc, fr) + d);
        }
    uint64_t next_to_builder = 0;
    for (int sq = 0; sq < CD_SQUARES; sq++)
        for (int d = 0; d < 4; d++)
            if (has(s->piece[side][CD_BUILDER], sq % 7 + DC[d], sq / 7 + 1 + DR[d]))
                next_to_builder |= 1ULL << sq;
    for (int sq = 0; sq < CD_SQUARES; sq++)
        if (((next_to_builder >> sq) & 1) && grass_rank(sq / 7 + 1) && !((all >> sq) & 1) &&
            __builtin_popcountll(s->walls) < 20)
            out[n++] = (rp_action)(A_BUILD + sq);
    for (int sq = 0; sq < CD_SQUARES; sq++)
        if (((next_to_builder >> sq) & 1) && ((s->walls >> sq) & 1))
            out[n++] = (rp_action)(A_REMOVE + sq);
    for (int sq = 0; sq < CD_SQUARES; sq++) {
        if (!((s->piece[side][CD_CANNON] >> sq) & 1) || ((s->fired >> sq) & 1))
            continue;
        const int c = sq % 7, r = sq / 7 + 1;
        for (int dist = 1; dist <= s->moves && on_board(c, r + toward * dist); dist++) {
            if (r + toward * dist == 5)
                continue;
            out[n++] = (rp_action)(A_FIRE + 8 * sq + dist - 1);
            if (has(s->walls, c, r + toward * dist))
                break;
        }
    }
    return n;
}

/* A step as CD-4 and CD-12 say, square by square: the piece on `from` goes to the next square
 * in direction d, a fired Cannon keeps its mark, one move is paid, the add step closes (CD-P4),
 * and at 0 moves the turn ends as `end` ends it (CD-3). */
static cd_state reference_step(const cd_state *before, rp_action action)
{
    cd_state s = *before;
    const int from = (int)(action - A_MOVE) / 4, d = (int)(action - A_MOVE) % 4;
    const int to = CD_SQ(from % 7 + DC[d], from / 7 + 1 + DR[d]);
    for (int k = 0; k < CD_KINDS; k++)
        if ((s.piece[s.side][k] >> from) & 1)
            s.piece[s.side][k] = (s.piece[s.side][k] & ~(1ULL << from)) | 1ULL << to;
    if ((s.fired >> from) & 1)
        s.fired = (s.fired & ~(1ULL << from)) | 1ULL << to;
    s.moves--;
    s.add_open = 0;
    if (s.moves == 0)
        G->apply(&s, A_END);
    return s;
}

/* Put `count` pieces of `kind` for `side` (or Walls, or Fire when kind is T_WALL / T_FIRE) on
 * random empty squares of `where`. */
static void scatter(cd_state *s, int side, int kind, int count, uint64_t where, rp_rng *rng)
{
    for (int i = 0; i < count; i++) {
        const uint64_t empty = where & ~occupied(s);
        if (!empty)
            return;
        int pick = (int)rp_rng_below(rng, (uint32_t)__builtin_popcountll(empty));
        uint64_t b = empty;
        while (pick-- > 0)
            b &= b - 1;
        const uint64_t bit = b & -b;
        if (kind == T_WALL)
            s->walls |= bit;
        else if (kind == T_FIRE)
            s->fire[side] |= bit;
        else
            s->piece[side][kind] |= bit;
    }
}

/* A random position that state_ok accepts: each side's King and random numbers of Wizards,
 * Builders and Cannons up to the supply (CD-2) on its own side, Walls on grass up to 20, some
 * Fire, some Cannons fired, 1..27 moves or, with the add step open, the turn's full moves. Crowded boards are drawn
 * often, so full supplies, the 20th Wall and blocked Portals come up. */
static cd_state random_position(rp_rng *rng)
{
    cd_state s;
    rp_test_init(G, &s, "tournament=1");
    memset(s.piece, 0, sizeof s.piece);
    s.walls = 0;
    const uint64_t sides[2] = {BLUE_SIDE, RED_SIDE};
    static const int max[CD_KINDS] = {1, 8, 2, 4};
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < CD_KINDS; k++)
            scatter(&s, side, k, k == CD_KING ? 1 : (int)rp_rng_below(rng, (uint32_t)max[k] + 1),
                    sides[side], rng);
    scatter(&s, 0, T_WALL, (int)rp_rng_below(rng, 21), GRASS, rng);
    for (int side = 0; side < 2; side++)
        scatter(&s, side, T_FIRE, (int)rp_rng_below(rng, 3),
                ALL_SQ & ~RIVER & ~(portal[0] | portal[1]), rng);
    s.fired = (s.piece[0][CD_CANNON] | s.piece[1][CD_CANNON]) &
              ((uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng));
    s.side = (uint8_t)rp_rng_below(rng, 2);
    s.moves = (uint8_t)(1 + rp_rng_below(rng, 27));
    s.add_open = (uint8_t)rp_rng_below(rng, 2);
    if (s.add_open) { /* the turn's first decision (CD-3): all its moves, own Fire gone */
        s.moves = (uint8_t)turn_moves(&s, s.side);
        s.fire[s.side] = 0;
        s.fired &= ~s.piece[s.side][CD_CANNON];
    }
    rp_test_check_state_ok(G, &s);
    return s;
}

/* The legal list and each step against the plain references above, in the same order, on
 * random positions and at every decision of random games (which reach the end-of-turn
 * steps). */
static void test_fast_paths_match_references(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 50, 3);
    rp_action fast[RP_MAX_LEGAL], plain[RP_MAX_LEGAL];
    long steps_checked = 0;
    for (int i = 0; i < 20000; i++) {
        cd_state s = random_position(&rng);
        const int n = G->legal_actions(&s, fast);
        assert_int_equal(n, reference_legal(&s, plain));
        assert_memory_equal(fast, plain, (size_t)n * sizeof *fast);
        for (int a = 0; a < n; a++)
            if (fast[a] >= A_MOVE && fast[a] < A_BUILD) {
                const cd_state expect = reference_step(&s, fast[a]);
                cd_state got = s;
                G->apply(&got, fast[a]);
                assert_memory_equal(&got, &expect, sizeof got);
                steps_checked++;
            }
    }
    for (int g = 0; g < 40; g++) {
        cd_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d tournament=1", g);
        rp_test_init(G, &s, opts);
        while (G->current_player(&s) != RP_TERMINAL) {
            const int n = G->legal_actions(&s, fast);
            assert_int_equal(n, reference_legal(&s, plain));
            assert_memory_equal(fast, plain, (size_t)n * sizeof *fast);
            const rp_action a = fast[rp_rng_below(&rng, (uint32_t)n)];
            const cd_state expect = a >= A_MOVE && a < A_BUILD ? reference_step(&s, a) : s;
            G->apply(&s, a);
            if (a >= A_MOVE && a < A_BUILD) {
                assert_memory_equal(&s, &expect, sizeof s);
                steps_checked++;
            }
        }
    }
    assert_true(steps_checked > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cd1_standard_setup),
        cmocka_unit_test(test_cd2_piece_supply_exhausted),
        cmocka_unit_test(test_cd2_wall_supply_exhausted),
        cmocka_unit_test(test_cd3_moves_from_wizards),
        cmocka_unit_test(test_cd3_new_wizard_counts_next_turn),
        cmocka_unit_test(test_cd3_add_cost_equal_material),
        cmocka_unit_test(test_cd3_cd13_add_cost_unequal_material),
        cmocka_unit_test(test_cd3_cdp4_add_only_before_other_actions),
        cmocka_unit_test(test_cd3_turn_ends_at_zero_moves),
        cmocka_unit_test(test_cd14_end_at_first_decision),
        cmocka_unit_test(test_cd4_moves),
        cmocka_unit_test(test_cd4_pieces_stay_on_own_side),
        cmocka_unit_test(test_issue10_no_wrap_on_reds_back_ranks),
        cmocka_unit_test(test_cd4_cd5_every_edge_and_corner_square),
        cmocka_unit_test(test_cd4_corners_by_hand),
        cmocka_unit_test(test_geometry_every_square_both_sides),
        cmocka_unit_test(test_cd5_builder_on_sand),
        cmocka_unit_test(test_cd5_portal_may_be_walled),
        cmocka_unit_test(test_cd11_no_wall_on_fire),
        cmocka_unit_test(test_cd6_ball_stopped_by_first_wall),
        cmocka_unit_test(test_cd6_distance_costs_moves),
        cmocka_unit_test(test_cdp1_ball_over_the_river),
        cmocka_unit_test(test_cdp6_distance_bounded_by_edge),
        cmocka_unit_test(test_cd6_ball_lands_on_own_side),
        cmocka_unit_test(test_cd6_no_fire_on_portal),
        cmocka_unit_test(test_cd6_cdp3_each_cannon_once_per_turn),
        cmocka_unit_test(test_cd12_fired_cannon_moves_added_cannon_fires),
        cmocka_unit_test(test_cd11_ball_on_fire_replaces_it),
        cmocka_unit_test(test_fire_blocks_then_goes_away),
        cmocka_unit_test(test_own_fire_blocks_own_moves),
        cmocka_unit_test(test_cd7_cdp2_king_hit_wins_at_once),
        cmocka_unit_test(test_cd7_king_hit_by_own_side),
        cmocka_unit_test(test_cd15_turn_limit_draw),
        cmocka_unit_test(test_cd15_turn_limit_when_moves_run_out),
        cmocka_unit_test(test_cd16_no_turn_limit_by_default),
        cmocka_unit_test(test_cd16_tool_turn_cap_and_turn_number),
        cmocka_unit_test(test_cd8_cdp5_tournament_option),
        cmocka_unit_test(test_issue18_config_of_reports_the_limit_in_effect),
        cmocka_unit_test(test_cd9_action_notation),
        cmocka_unit_test(test_cd9_position_round_trip),
        cmocka_unit_test(test_cd9_position_refusals),
        cmocka_unit_test(test_state_ok_refuses_broken_states),
        cmocka_unit_test(test_view_shows_everything),
        cmocka_unit_test(test_secret_names_are_empty),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_action_json),
        cmocka_unit_test(test_events_moves_adds_walls),
        cmocka_unit_test(test_events_shots),
        cmocka_unit_test(test_events_king_hit),
        cmocka_unit_test(test_events_turns_and_the_limit),
        cmocka_unit_test(test_explain_illegal),
        cmocka_unit_test(test_rules_text_states_every_ruling),
        cmocka_unit_test(test_property_random_games),
        cmocka_unit_test(test_cd4_step_table_matches_the_geometry),
        cmocka_unit_test(test_fast_paths_match_references),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
