/* test_castle_danger.c — Castle Danger's rules, one test per rule or ruling (rulebook
 * sentences and ids CD-n from shared/rulings, CD-Pn from docs/rules/castle-danger.md), with
 * hand-set positions in the position notation, plus a property run over random games. */
#define _GNU_SOURCE /* open_memstream on older C libraries */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/castle_danger.h"
#include "support.h"

static const rp_game *const G = &rp_castle_danger;

/* Bit of a square named like "c3". */
static uint64_t bit_of(const char *name)
{
    return 1ULL << CD_SQ(name[0] - 'a', name[1] - '0');
}

static cd_state load(const char *text)
{
    cd_state s;
    rp_test_load(G, &s, text);
    return s;
}

static void text_of(const cd_state *s, char *buf)
{
    assert_true(G->state_to_text(s, buf, RP_STATE_TEXT) > 0);
}

/* The position text without its trailing supply field, for comparing with hand-written text. */
static void position_of(const cd_state *s, char *buf)
{
    text_of(s, buf);
    char *last = strrchr(buf, ' ');
    *last = '\0';
}

static void assert_refused(const char *text, const char *needle)
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

/* ---- setup and supply ---- */

/* CD-1: Blue King c1, Wizard e1, Walls c2 e2; Red King e9, Wizard c9, Walls e8 c8. Blue starts
 * with 3 + 3 x 1 Wizard = 6 moves (CD-3) and the add step open. */
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
    assert_string_equal(text, "2w1k2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 b 6 add 1/100 * "
                              "W7B2C4F5/w7b2c4f5/#16");
}

/* CD-2, CD-10: 4 Cannons and 2 Builders at most on the board; the starting Wizard counts. */
static void test_cd2_piece_supply_exhausted(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/B5B/CCK1WCC b 6 add 1/100 *");
    assert_false(rp_test_is_legal(G, &s, "add cannon"));
    assert_false(rp_test_is_legal(G, &s, "add builder"));
    assert_true(rp_test_is_legal(G, &s, "add wizard"));
    /* 7 Wizards on the board + the add = 8, the last one in supply */
    s = load("4k2/7/7/7/7/7/WWW1WWW/7/2K1W2 b 24 add 1/100 *");
    assert_true(rp_test_is_legal(G, &s, "add wizard"));
    s = load("4k2/7/7/7/7/W6/WWW1WWW/7/2K1W2 b 27 add 1/100 *");
    assert_false(rp_test_is_legal(G, &s, "add wizard"));
}

/* CD-2: 20 Walls shared; nothing is built once they are all on the board, and a Wall taken
 * away returns to supply. */
static void test_cd2_wall_supply_exhausted(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/#######/#######/7/7/7/######1/6B/2K4 b 5 - 1/100 *");
    assert_int_equal(__builtin_popcountll(s.walls), 20);
    assert_false(rp_test_is_legal(G, &s, "build g3"));
    assert_false(rp_test_is_legal(G, &s, "build f2"));
    s = load("4k2/#######/######1/7/7/7/######1/6B/2K4 b 5 - 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/7/7/1W5/2K1W2 r 6 - 1/100 *");
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
    cd_state s = load("2w1k1c/2#1#2/7/7/7/7/7/2#1#2/2K1W2 b 6 add 1/100 *");
    rp_test_play(G, &s, "add builder");
    assert_int_equal(s.moves, 6);
    assert_true(s.piece[CD_BLUE][CD_BUILDER] & bit_of("d1"));
    s = load("2w1k2/2#1#2/7/7/7/7/7/2#1#2/1CK1W2 b 6 add 1/100 *");
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
    s = load("4k2/7/7/7/7/7/7/7/2KW3 b 6 add 1/100 *");
    assert_false(rp_test_is_legal(G, &s, "add cannon"));
    s = load("4k2/7/7/7/7/7/7/7/2K#3 b 3 add 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/WW5/1Wf4/1#5/2K4 b 12 add 1/100 *");
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
    cd_state s = load("4k2/7/7/1w5/7/W6/7/7/2K4 r 6 - 1/100 *");
    assert_false(rp_test_is_legal(G, &s, "b6-b5"));
    assert_true(rp_test_is_legal(G, &s, "b6-b7"));
}

/* ---- walls (CD-5, CD-11) ---- */

/* CD-5: "Walls cannot be built on the sand or water": a Builder on sand builds on the grass
 * next to it only; it removes adjacent Walls. */
static void test_cd5_builder_on_sand(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/2B4/7/7/2K4 b 6 - 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/7/7/W2B3/2K4 b 6 - 1/100 *");
    assert_true(rp_test_is_legal(G, &s, "build d1"));
    assert_false(rp_test_is_legal(G, &s, "build a3")); /* a Wizard does not build */
    rp_test_play(G, &s, "build d1");
    assert_true(s.walls & bit_of("d1"));
}

/* CD-11: no Wall on a square holding Fire. */
static void test_cd11_no_wall_on_fire(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/ff5/B6/1CK4 b 9 - 1/100 *");
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
    cd_state s = load("4k2/1#5/#6/7/7/7/#6/7/CCK4 b 9 - 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/7/7/7/C1K4 b 4 - 1/100 *");
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
    cd_state s = load("4k2/7/7/w6/7/C6/7/7/2K4 b 6 - 1/100 *");
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
    cd_state s = load("4k2/7/7/c6/7/7/7/7/2K4 r 20 - 1/100 *");
    assert_true(rp_test_is_legal(G, &s, "fire a6:5")); /* lands on a1 */
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
    cd_state s = load("4k2/7/7/7/7/7/7/W6/C1K4 b 9 - 1/100 *");
    rp_test_play(G, &s, "fire a1:1");
    assert_int_equal(s.piece[CD_BLUE][CD_WIZARD], 0);
    assert_true(s.fire[CD_BLUE] & bit_of("a2"));
    assert_int_equal(s.moves, 8);
    char text[RP_STATE_TEXT];
    position_of(&s, text);
    assert_string_equal(text, "4k2/7/7/7/7/7/7/F6/C*1K4 b 8 - 1/100 *");
}

/* CD-6: Portals do not hold Fire; the piece there is still removed. */
static void test_cd6_no_fire_on_portal(void **unused)
{
    (void)unused;
    cd_state s = load("3wk2/7/7/7/7/7/7/7/2KC3 b 9 - 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/7/7/7/CCK4 b 9 - 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/7/7/7/C1K4 b 9 - 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/7/ff5/B6/1CK4 b 9 - 1/100 *");
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
    cd_state s = load("4k2/7/wb5/7/7/7/7/7/C1K4 b 9 - 1/100 *");
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
    cd_state s = load("4k2/7/7/7/7/7/7/7/C1K4 b 9 - 1/100 *");
    rp_test_play(G, &s, "fire a1:1");
    assert_false(rp_test_is_legal(G, &s, "a1-a2"));
    assert_true(rp_test_is_legal(G, &s, "a1-b1"));
}

/* ---- the end (CD-7, CD-8, CD-15) ---- */

/* CD-7: "The game ends when a player's King is hit by a cannonball. The player shooting the
 * Cannon is declared the winner." CD-P2: at once, moves left forfeited, Fire on the square. */
static void test_cd7_cdp2_king_hit_wins_at_once(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/7/2K1C2 b 9 - 1/100 *");
    rp_test_play(G, &s, "fire e1:8");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    double r[2];
    G->returns(&s, r);
    assert_true(r[CD_BLUE] == 1.0 && r[CD_RED] == 0.0);
    char text[RP_STATE_TEXT];
    position_of(&s, text);
    assert_string_equal(text, "4F2/7/7/7/7/7/7/7/2K1C*2 b 0 - 1/100 1-0");
    rp_action legal[RP_MAX_LEGAL];
    assert_int_equal(G->legal_actions(&s, legal), 0);
}

/* CD-7: a King hit by its own side: its owner loses. */
static void test_cd7_king_hit_by_own_side(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/2K4/2C4 b 9 - 1/100 *");
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
    char text[RP_STATE_TEXT];
    position_of(&s, text);
    assert_string_equal(text, "2w2k1/2#1#2/7/7/7/7/7/2#1#2/2K1W2 r 0 - 2/2 1/2");
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

/* CD-8, CD-P5: tournament=1 sets a 25-turn limit unless turn-limit is given; default 100. */
static void test_cd8_cdp5_tournament_option(void **unused)
{
    (void)unused;
    cd_state s;
    rp_test_init(G, &s, "tournament=1");
    assert_int_equal(s.limit, 25);
    rp_test_init(G, &s, "tournament=1 turn-limit=40");
    assert_int_equal(s.limit, 40);
    rp_test_init(G, &s, NULL);
    assert_int_equal(s.limit, 100);
    rp_test_init(G, &s, "turn-limit=7");
    assert_int_equal(s.limit, 7);
}

/* ---- notation ---- */

/* CD-9: every action has readable notation both ways. */
static void test_cd9_action_notation(void **unused)
{
    (void)unused;
    cd_state s = load("4k2/7/7/7/7/7/7/1B5/2K1C2 b 9 - 1/100 *");
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
    const char *bad[] = {"add dragon", "build z9", "fire e1", "fire e1:9", "e1", "c1-",
                         "remove", "build c3 c4"};
    for (int i = 0; i < 8; i++) {
        err.msg[0] = '\0';
        if (G->action_from_text(&s, bad[i], &a, &err) >= 0)
            fail_msg("accepted action '%s'", bad[i]);
        assert_true(strlen(err.msg) > 0);
    }
}

/* CD-9: a position loads and writes back the same; the supply field is optional. */
static void test_cd9_position_round_trip(void **unused)
{
    (void)unused;
    const char *text = "1c*f1k2/b#1#3/7/w6/7/1C5/F6/2#4/2K1W2 r 4 - 7/25 *";
    cd_state s = load(text);
    char back[RP_STATE_TEXT];
    position_of(&s, back);
    assert_string_equal(back, text);
    assert_true(s.fired & bit_of("b9"));
    assert_true(s.fire[CD_RED] & bit_of("c9"));
    assert_true(s.fire[CD_BLUE] & bit_of("a3"));
    text_of(&s, back);
    assert_string_equal(strrchr(back, ' ') + 1, "W7B2C3F4/w7b1c3f4/#17");
}

/* CD-9: impossible positions are refused with a message naming the field. */
static void test_cd9_position_refusals(void **unused)
{
    (void)unused;
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 3 add 1/100", "expected");
    assert_refused("4k2/7/7/7/7/7/7/7/2K5 b 3 add 1/100 *", "rank 1");
    assert_refused("4k2/7/7/7/7/7/7/7/2K3 b 3 add 1/100 *", "rank 1");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4/7 b 3 add 1/100 *", "ranks");
    assert_refused("4k2/7/7/7/W6/7/7/7/2K4 b 6 add 1/100 *", "side");     /* river */
    assert_refused("4k2/7/7/W6/7/7/7/7/2K4 b 6 add 1/100 *", "side");     /* Red's side */
    assert_refused("4k2/7/7/7/7/#6/7/7/2K4 b 3 add 1/100 *", "sand");
    assert_refused("3Fk2/7/7/7/7/7/7/7/2K4 b 3 - 1/100 *", "Portal");
    assert_refused("4k2/7/7/7/7/7/7/CCC4/CCK4 b 3 - 1/100 *", "cannon");
    assert_refused("4k2/7/7/7/7/7/7/7/2KK3 b 3 - 1/100 *", "king");
    assert_refused("4k2/7/7/7/7/7/7/7/2K*3 b 3 - 1/100 *", "Cannon");
    assert_refused("4k2/7/7/7/7/7/7/7/C1*K3 b 3 - 1/100 *", "Cannon");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 x 3 - 1/100 *", "side to move");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 28 - 1/100 *", "moves");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 0 - 1/100 *", "moves");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 6 add 1/100 *", "3 + 3");
    assert_refused("4k2/7/7/7/7/7/7/F6/C*1K4 b 3 add 1/100 *", "Fire");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 3 - 5/4 *", "turn");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 3 - 1/100 2-0", "result");
    assert_refused("7/7/7/7/7/7/7/7/2K4 b 3 - 1/100 *", "King");
    assert_refused("7/7/7/7/7/7/7/7/2K4 b 0 - 1/100 0-1", "result");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 0 - 1/100 1/2", "draw");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 r 0 - 3/100 1/2", "draw");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 3 - 1/100 * W8B2C4F5/w8b2c4f5/#19", "supply");
    assert_refused("4k2/7/7/7/7/7/7/7/2K4 b 3 - 1/100 * W8B2C4F5/w8b2c4f5/#20 extra",
                   "fields");
    /* consistent versions of the same load */
    cd_state s = load("4k2/7/7/7/7/7/7/7/2K4 b 3 - 1/100 * W8B2C4F5/w8b2c4f5/#20");
    assert_int_equal(s.moves, 3);
    s = load("4k2/7/7/7/7/7/7/7/2K4 r 0 - 3/3 1/2");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
}

/* ---- views, render, evaluate ---- */

/* Full information: the view shows the whole position to both players. */
static void test_view_shows_everything(void **unused)
{
    (void)unused;
    cd_state s = load("1c*f1k2/b#1#3/7/w6/7/1C5/F6/2#4/2K1W2 r 4 - 7/25 *");
    for (int p = 0; p < 2; p++) {
        cJSON *v = G->view_json(&s, p);
        assert_non_null(v);
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
        assert_string_equal(cJSON_GetObjectItem(v, "to_move")->valuestring, "red");
        assert_string_equal(cJSON_GetObjectItem(v, "supply")->valuestring,
                            "W7B2C3F4/w7b1c3f4/#17");
        cJSON_Delete(v);
    }
}

static char *render_text(const cd_state *s, int player, bool color)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    assert_non_null(out);
    G->render(s, player, out, color);
    fclose(out);
    return buf;
}

/* The board is drawn with coordinates, pieces, Fire, moves left and supply; colour only when
 * asked. */
static void test_render(void **unused)
{
    (void)unused;
    cd_state s = load("1c*f1k2/b#1#3/7/w6/7/1C5/F6/2#4/2K1W2 r 4 - 7/25 *");
    char *plain = render_text(&s, CD_RED, false);
    assert_null(strchr(plain, '\x1b'));
    assert_non_null(strstr(plain, "a  b  c  d  e  f  g"));
    assert_non_null(strstr(plain, "4 moves left"));
    assert_non_null(strstr(plain, " c'"));  /* the fired Red Cannon */
    assert_non_null(strstr(plain, "*F*")); /* Blue Fire */
    assert_non_null(strstr(plain, "3 Cannons"));
    free(plain);
    char *color = render_text(&s, CD_BLUE, true);
    assert_non_null(strchr(color, '\x1b'));
    free(color);
}

/* The evaluation prefers a King covered by a Wall to an exposed one, and a shot at the enemy
 * King available now to almost a win. */
static void test_evaluate(void **unused)
{
    (void)unused;
    cd_state open_king = load("4k2/7/7/7/7/7/7/7/2K1C2 r 3 - 1/100 *");
    cd_state covered = load("4k2/4#2/7/7/7/7/7/7/2K1C2 r 3 - 1/100 *");
    const double a = G->evaluate(&open_king, CD_RED), b = G->evaluate(&covered, CD_RED);
    assert_true(a >= 0.0 && a <= 1.0 && b >= 0.0 && b <= 1.0);
    assert_true(b > a);
    cd_state shot = load("4k2/7/7/7/7/7/7/7/2K1C2 b 9 - 1/100 *");
    assert_true(G->evaluate(&shot, CD_BLUE) > 0.9);
    assert_true(G->evaluate(&shot, CD_RED) < 0.1);
    cd_state start;
    rp_test_init(G, &start, NULL);
    const double e = G->evaluate(&start, CD_BLUE);
    assert_true(e > 0.3 && e < 0.7);
}

/* ---- property run ---- */

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
    assert_true(s->turn >= 1 && s->turn <= s->limit);
    if (s->result == CD_ONGOING) {
        assert_true(s->moves >= 1 && s->moves <= 27);
        assert_true(s->piece[0][CD_KING] && s->piece[1][CD_KING]);
    }
}

/* Random games with the 25-turn limit: generic checks at every step, the invariants above,
 * moves spent as the rules say, and every game ends within the limit. */
static void test_property_random_games(void **unused)
{
    (void)unused;
    const int games = rp_test_games(10000);
    rp_rng rng;
    rp_rng_seed(&rng, 77, 5);
    int results[4] = {0};
    for (int g = 0; g < games; g++) {
        cd_state s;
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d tournament=1", g);
        rp_test_init(G, &s, opts);
        int steps = 0;
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_true(++steps <= 25 * 2 * 28); /* add (maybe free) + 27 moves */
            check_invariants(&s);
            rp_test_check_step(G, &s, &rng);
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
        rp_test_check_returns(G, &s);
        results[s.result]++;
    }
    assert_int_equal(results[CD_ONGOING], 0);
    assert_true(results[CD_BLUE_WON] + results[CD_RED_WON] + results[CD_DRAW] == games);
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
        cmocka_unit_test(test_cd8_cdp5_tournament_option),
        cmocka_unit_test(test_cd9_action_notation),
        cmocka_unit_test(test_cd9_position_round_trip),
        cmocka_unit_test(test_cd9_position_refusals),
        cmocka_unit_test(test_view_shows_everything),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_property_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
