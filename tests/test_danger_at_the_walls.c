/* test_danger_at_the_walls.c — one test per rule of Danger at the Walls (rulebook sentences,
 * shared rulings DW-1..DW-13, project rulings DW-P1..), notation and view checks, and a
 * property run over many random games with the game's own invariants. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "games/danger_at_the_walls.h"
#include "support.h"

static const rp_game *const G = &rp_danger_at_the_walls;
static const char FACES[] = "12356789FXGNEAKWBS";
/* Rulebook "Card Distributions": 49 playing cards by face. */
static const int TOTAL[DW_FACES] = {13, 7, 5, 1, 3, 1, 3, 1, 4, 3, 1, 1, 1, 1, 1, 1, 1, 1};

static int face(char c)
{
    const char *p = strchr(FACES, c);
    assert_non_null(p);
    return (int)(p - FACES);
}

/* ---- building positions by hand, keeping all 49 cards accounted for ---- */

/* Remove one card of face f from where a test may take it: the main deck, the removed piles,
 * then seat's personal deck. */
static void take(dw_state *s, int f, int seat)
{
    for (int i = s->main_n - 1; i >= 0; i--)
        if (s->main[i] == f) {
            memmove(s->main + i, s->main + i + 1, (size_t)(s->main_n - i - 1));
            s->main[--s->main_n] = 0;
            return;
        }
    for (int p = 0; p < 2; p++)
        if (s->removed[p][f]) {
            s->removed[p][f]--;
            return;
        }
    for (int i = s->personal_n[seat] - 1; i >= 0; i--)
        if (s->personal[seat][i] == f) {
            memmove(s->personal[seat] + i, s->personal[seat] + i + 1,
                    (size_t)(s->personal_n[seat] - i - 1));
            s->personal[seat][--s->personal_n[seat]] = 0;
            return;
        }
    fail_msg("no card %c left to take", FACES[f]);
}

/* An empty board, Blue to play, empty hands; full personal decks; the main deck holds 21
 * cards and 12 Archer-1s wait in the removed piles for tests to take. */
static void blank(dw_state *s)
{
    rp_test_init(G, s, "seed=1"); /* states begin with init (it also readies the game) */
    memset(s, 0, sizeof *s);
    rp_rng_seed(&s->rng, 1, 1);
    const char *main_cards = "122222223333356789FFX"; /* bottom to top */
    for (int i = 0; main_cards[i]; i++)
        s->main[s->main_n++] = (uint8_t)face(main_cards[i]);
    s->removed[DW_BLUE][DW_A1] = 6;
    s->removed[DW_RED][DW_A1] = 6;
    const char *pers[2] = {"FX68GNEA", "FX68KWBS"};
    for (int p = 0; p < 2; p++)
        for (int i = 0; pers[p][i]; i++)
            s->personal[p][s->personal_n[p]++] = (uint8_t)face(pers[p][i]);
    for (int w = 0; w < DW_WALLS; w++)
        s->control[w] = DW_RED;
}

static void give(dw_state *s, int seat, const char *cards)
{
    for (; *cards; cards++) {
        take(s, face(*cards), seat);
        s->hand[seat][face(*cards)]++;
        s->hand_n[seat]++;
    }
}

/* Put cards on seat's side of wall w (1-based): Archers, Cannons (bottom first), Leaders. */
static void place(dw_state *s, int wall, int seat, const char *cards)
{
    dw_side *sd = &s->side[wall - 1][seat];
    for (; *cards; cards++) {
        const int f = face(*cards);
        take(s, f, seat);
        if (f <= DW_A3)
            sd->archers[f]++;
        else if (f <= DW_C9)
            sd->cannon[sd->ncannon++] = (uint8_t)f;
        else
            sd->leaders |= (uint8_t)(1u << (f - DW_GENERAL));
    }
}

/* Re-evaluate control everywhere as DW-10 would after the plays that built the position. */
static void settle(dw_state *s)
{
    for (int w = 0; w < DW_WALLS; w++) {
        if (s->flag[w])
            continue;
        const int b = dw_strength(s, w, DW_BLUE), r = dw_strength(s, w, DW_RED);
        if (b != r)
            s->control[w] = b > r ? DW_BLUE : DW_RED;
    }
}

/* The position must be one the full-state notation accepts (it validates everything). */
static void check_valid(const dw_state *s)
{
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(s, text, sizeof text) > 0);
    dw_state back;
    rp_error err = {{0}};
    if (G->state_from_text(&back, text, &err) < 0)
        fail_msg("test position refused: %s\n%s", err.msg, text);
    assert_memory_equal(&back, s, sizeof back);
}

static bool legal(const dw_state *s, const char *move)
{
    return rp_test_is_legal(G, s, move);
}

static void play(dw_state *s, const char *move)
{
    rp_test_play(G, s, move);
}

/* Number of legal actions whose notation starts with `prefix` and ends with `suffix`. */
static int count_legal(const dw_state *s, const char *prefix, const char *suffix)
{
    rp_action a[RP_MAX_LEGAL];
    const int n = G->legal_actions(s, a);
    int c = 0;
    for (int i = 0; i < n; i++) {
        char t[RP_ACTION_TEXT];
        G->action_to_text(s, a[i], t, sizeof t);
        const size_t lt = strlen(t), ls = strlen(suffix);
        if (strncmp(t, prefix, strlen(prefix)) == 0 && lt >= ls &&
            strcmp(t + lt - ls, suffix) == 0)
            c++;
    }
    return c;
}

static int count_face_everywhere(const dw_state *s, int f);

/* A standard midgame-like start: Blue holds `blue`, Red holds `red`. */
static void position(dw_state *s, const char *blue, const char *red)
{
    blank(s);
    give(s, DW_BLUE, blue);
    give(s, DW_RED, red);
}

/* ---- setup ---- */

/* DW-1 and the rulebook setup: six cards each from the main deck without Flags, Flag A with
 * 9..11 cards above it, Flag B with at least 10 above it; all walls Red; Blue first. */
static void test_DW1_setup(void **unused)
{
    (void)unused;
    int seen_a[13] = {0};
    for (int seed = 0; seed < 300; seed++) {
        dw_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", seed);
        rp_test_init(G, &s, opts);
        assert_int_equal(s.hand_n[DW_BLUE], 6);
        assert_int_equal(s.hand_n[DW_RED], 6);
        assert_int_equal(s.hand[DW_BLUE][DW_FLAG] + s.hand[DW_RED][DW_FLAG], 0);
        assert_int_equal(s.personal_n[DW_BLUE], 8);
        assert_int_equal(s.personal_n[DW_RED], 8);
        assert_int_equal(s.main_n, 21);
        int depth[2], k = 0;
        for (int i = s.main_n - 1; i >= 0; i--)
            if (s.main[i] == DW_FLAG)
                depth[k++] = s.main_n - 1 - i; /* cards above it */
        assert_int_equal(k, 2);
        /* Flag A sat at 9..11; Flag B going above it pushes it down by one. */
        const bool ok = (depth[0] >= 9 && depth[0] <= 12 && depth[1] >= 10) ||
                        (depth[1] >= 9 && depth[1] <= 12 && depth[0] >= 10);
        assert_true(ok);
        seen_a[depth[0]]++;
        for (int w = 0; w < DW_WALLS; w++) {
            assert_int_equal(s.control[w], DW_RED);
            assert_int_equal(s.flag[w], 0);
        }
        assert_int_equal(G->current_player(&s), DW_BLUE);
        for (int f = 0; f < DW_FACES; f++)
            assert_int_equal(count_face_everywhere(&s, f), TOTAL[f]);
    }
    assert_true(seen_a[9] > 0 && seen_a[10] > 0 && seen_a[11] > 0);
}

/* Rulebook "Card Distributions": each personal deck is Flag, Cannon Attack, Cannon-6, Cannon-8
 * and its four unique Leaders. */
static void test_rulebook_personal_decks(void **unused)
{
    (void)unused;
    dw_state s;
    rp_test_init(G, &s, "seed=3");
    const char *want[2] = {"FX68GNEA", "FX68KWBS"};
    for (int p = 0; p < 2; p++) {
        int c[DW_FACES] = {0};
        for (int i = 0; i < s.personal_n[p]; i++)
            c[s.personal[p][i]]++;
        for (int i = 0; want[p][i]; i++)
            assert_int_equal(c[face(want[p][i])], 1);
    }
}

/* ---- plays ---- */

/* Rulebook: "any number of Archers to a single wall"; the issue: identical cards are one
 * action, so two Archer-1s and an Archer-2 give five Archer plays per wall, not seven.
 * DW-P4: a Cannon-6 from the personal deck and one from the main deck are one card face. */
static void test_DW3_DW_P4_archers_are_multisets_to_one_wall(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "112X", "222222");
    for (int w = 1; w <= 5; w++) {
        char suffix[24];
        snprintf(suffix, sizeof suffix, "wall %d", w);
        assert_int_equal(count_legal(&s, "archers ", suffix), 5);
    }
    dw_state c;
    position(&c, "66", "222222"); /* the main deck's Cannon-6 and Blue's own */
    assert_int_equal(c.personal_n[DW_BLUE], 7);
    check_valid(&c);
    assert_int_equal(count_legal(&c, "cannon 6 ", ""), 5);
    play(&s, "archers 1+1+2 wall 4");
    assert_int_equal(s.side[3][DW_BLUE].archers[0], 2);
    assert_int_equal(s.side[3][DW_BLUE].archers[1], 1);
    assert_int_equal(dw_strength(&s, 3, DW_BLUE), 4);
    assert_int_equal(s.hand_n[DW_BLUE], 1);
    /* DW-3: one play only; the turn goes on with the refill, not another play. */
    assert_int_equal(s.phase, DW_PHASE_REFILL);
    assert_false(legal(&s, "cannon 5 wall 1"));
}

/* DW-5 / rulebook "place the new one on top ... so that only one Cannon is showing". */
static void test_DW5_only_the_top_cannon_counts(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "9X", "222222");
    place(&s, 2, DW_BLUE, "5");
    settle(&s);
    check_valid(&s);
    assert_int_equal(dw_strength(&s, 1, DW_BLUE), 5);
    play(&s, "cannon 9 wall 2");
    assert_int_equal(s.side[1][DW_BLUE].ncannon, 2);
    assert_int_equal(dw_strength(&s, 1, DW_BLUE), 9); /* not 14 */
}

/* DW-6: an Attack needs the attacker's own Cannon at that wall; with none anywhere, a hand of
 * only Attacks has no play and DW-4 makes the player discard. */
static void test_DW6_attack_needs_own_cannon_and_DW4_discard(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "X", "222222");
    place(&s, 1, DW_RED, "7");
    settle(&s);
    check_valid(&s);
    assert_false(legal(&s, "attack cannon wall 1"));
    assert_int_equal(count_legal(&s, "discard ", ""), 1);
    assert_true(legal(&s, "discard attack"));
    play(&s, "discard attack");
    assert_int_equal(s.removed[DW_BLUE][DW_ATTACK], 1); /* face up to the removed pile */
    /* with her own Cannon there, the same Attack is a play */
    position(&s, "X", "222222");
    place(&s, 1, DW_RED, "7");
    place(&s, 1, DW_BLUE, "5");
    settle(&s);
    assert_true(legal(&s, "attack cannon wall 1"));
    assert_false(legal(&s, "attack archers wall 1")); /* DW-P1: no Archers to remove */
    assert_false(legal(&s, "attack cannon wall 2"));
    assert_false(legal(&s, "discard attack"));
}

/* Rulebook: "If you choose Cannon and your opponent has more than one Cannon stacked, they only
 * remove the top Cannon. The Attack card and all removed cards are put into a face-up pile." */
static void test_DW6_attack_removes_only_the_top_cannon(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "X1", "222222");
    place(&s, 3, DW_RED, "58");
    place(&s, 3, DW_BLUE, "9");
    settle(&s);
    check_valid(&s);
    play(&s, "attack cannon wall 3");
    assert_int_equal(s.side[2][DW_RED].ncannon, 1);
    assert_int_equal(s.side[2][DW_RED].cannon[0], DW_C5);
    assert_int_equal(s.removed[DW_RED][DW_C8], 1);
    assert_int_equal(s.removed[DW_BLUE][DW_ATTACK], 1);
    assert_int_equal(dw_strength(&s, 2, DW_RED), 5);
}

/* Rulebook: the attacker may have the opponent remove "all of their Archers from that wall";
 * DW-6: a spied Archer cannot be moved, the others still go. */
static void test_DW6_attack_removes_all_archers_but_a_spied_one(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "X22222");
    s.to_move = DW_RED;
    place(&s, 2, DW_BLUE, "1123");
    place(&s, 2, DW_RED, "6");
    take(&s, DW_SPY, DW_RED);
    s.spy_wall = 2;
    s.spy_on = DW_A3;
    s.side[1][DW_BLUE].archers[2]--;
    settle(&s);
    check_valid(&s);
    assert_int_equal(dw_strength(&s, 1, DW_BLUE), 4); /* the spied Archer-3 counts nothing */
    const int a1 = s.removed[DW_BLUE][DW_A1], a2 = s.removed[DW_BLUE][DW_A2];
    play(&s, "attack archers wall 2");
    assert_int_equal(s.side[1][DW_BLUE].archers[0] + s.side[1][DW_BLUE].archers[1], 0);
    assert_int_equal(s.spy_on, DW_A3); /* still there, still spied */
    assert_int_equal(s.side[1][DW_BLUE].archers[2], 0);
    assert_int_equal(s.removed[DW_BLUE][DW_A1], a1 + 2);
    assert_int_equal(s.removed[DW_BLUE][DW_A2], a2 + 1);
    assert_int_equal(dw_strength(&s, 1, DW_BLUE), 0);
    assert_int_equal(s.removed[DW_RED][DW_ATTACK], 1);
}

/* DW-P1 / DW-6: "the named target must exist" and a spied card "cannot be moved": Attack
 * "cannon" needs a top Cannon not under the Spy, Attack "archers" an unspied Archer. */
static void test_DW_P1_attack_needs_a_removable_target(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "X33333");
    s.to_move = DW_RED;
    place(&s, 4, DW_BLUE, "7");
    place(&s, 4, DW_RED, "5");
    take(&s, DW_SPY, DW_RED);
    s.spy_wall = 4;
    s.spy_on = DW_SPY_ON_CANNON;
    s.spy_depth = 0;
    settle(&s);
    check_valid(&s);
    assert_false(legal(&s, "attack cannon wall 4"));
    assert_false(legal(&s, "attack archers wall 4"));
    assert_int_equal(count_legal(&s, "attack ", ""), 0);
}

/* DW-7 with the Leader texts: Noble doubles Archers, Engineer doubles the Cannon, General
 * doubles the total: Blue = (A*n + C*e)*g; King doubles Red's total. */
static void test_DW7_strength_with_blue_and_red_leaders(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "3");
    place(&s, 1, DW_BLUE, "127");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 10);
    place(&s, 1, DW_BLUE, "N");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 6 + 7);
    place(&s, 1, DW_BLUE, "E");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 6 + 14);
    place(&s, 1, DW_BLUE, "G");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 40);
    place(&s, 2, DW_RED, "235K");
    assert_int_equal(dw_strength(&s, 1, DW_RED), 2 * (5 + 5));
    settle(&s);
    check_valid(&s);
}

/* DW-7, Wizard: "Both players Archers are ignored at this wall"; Builder: "Both players'
 * Cannons are ignored"; both together leave nothing. */
static void test_DW7_wizard_and_builder_affect_both_sides(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "3");
    place(&s, 5, DW_BLUE, "338N");
    place(&s, 5, DW_RED, "2226");
    assert_int_equal(dw_strength(&s, 4, DW_BLUE), 12 + 8);
    place(&s, 5, DW_RED, "W");
    assert_int_equal(dw_strength(&s, 4, DW_BLUE), 8);
    assert_int_equal(dw_strength(&s, 4, DW_RED), 6);
    place(&s, 5, DW_RED, "B");
    assert_int_equal(dw_strength(&s, 4, DW_BLUE), 0);
    assert_int_equal(dw_strength(&s, 4, DW_RED), 0);
    s.side[4][DW_RED].leaders &= (uint8_t)~(1u << (DW_WIZARD - DW_GENERAL));
    s.removed[DW_RED][DW_WIZARD]++;
    assert_int_equal(dw_strength(&s, 4, DW_BLUE), 12); /* Builder still there */
    assert_int_equal(dw_strength(&s, 4, DW_RED), 6);
}

/* DW-8: the Spy covers one Blue card in play (an Archer, the top Cannon or a Leader): it is
 * ignored. Blue may play a new Cannon on a spied one; the new one counts. */
static void test_DW8_spy_covers_one_blue_card(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "9", "S3");
    s.to_move = DW_RED;
    place(&s, 1, DW_BLUE, "127G");
    settle(&s);
    check_valid(&s);
    /* targets at wall 1: Archer 1, Archer 2, the Cannon, the General */
    assert_int_equal(count_legal(&s, "spy ", "wall 1"), 4);
    assert_int_equal(count_legal(&s, "spy ", "wall 2"), 0);
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 20);
    play(&s, "spy general wall 1");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 10);

    position(&s, "9", "S3");
    s.to_move = DW_RED;
    place(&s, 1, DW_BLUE, "7");
    place(&s, 1, DW_RED, "3");
    settle(&s);
    assert_int_equal(s.control[0], DW_BLUE);
    play(&s, "spy cannon wall 1");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 0);
    assert_int_equal(s.control[0], DW_RED);
    s.to_move = DW_BLUE;
    s.phase = DW_PHASE_PLAY;
    check_valid(&s);
    play(&s, "cannon 9 wall 1");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 9);
    assert_int_equal(s.spy_depth, 0); /* the spied Cannon is buried with the Spy on it */
    assert_int_equal(s.control[0], DW_BLUE);
}

/* DW-8, DW-P3: with no Blue card in play the Spy has nothing to cover and cannot be played;
 * a hand with nothing else to play then discards (DW-4). */
static void test_DW8_DW_P3_spy_needs_a_blue_card(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "S");
    s.to_move = DW_RED;
    check_valid(&s);
    assert_int_equal(count_legal(&s, "spy ", ""), 0);
    assert_true(legal(&s, "discard spy")); /* DW-4 */
}

/* DW-9: the Assassin removes any one visible Red card (Archer, top Cannon, Leader or the
 * Spy, which frees its card); both go to the removed pile. DW-P4: two identical Archers at a
 * wall are one target. */
static void test_DW9_DW_P4_assassin_targets_and_frees_the_spy(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "A", "3");
    place(&s, 2, DW_RED, "1157K");
    place(&s, 3, DW_BLUE, "G2");
    take(&s, DW_SPY, DW_RED);
    s.spy_wall = 3;
    s.spy_on = DW_GENERAL;
    settle(&s);
    check_valid(&s);
    /* wall 2: Archer 1 (one action for two identical cards), Cannon, King; wall 3: Spy */
    assert_int_equal(count_legal(&s, "assassin ", "wall 2"), 3);
    assert_int_equal(count_legal(&s, "assassin ", "wall 3"), 1);
    assert_int_equal(dw_strength(&s, 2, DW_BLUE), 2);
    play(&s, "assassin spy wall 3");
    assert_int_equal(s.spy_wall, 0);
    assert_int_equal(dw_strength(&s, 2, DW_BLUE), 4); /* the General is free again */
    assert_int_equal(s.removed[DW_RED][DW_SPY], 1);
    assert_int_equal(s.removed[DW_BLUE][DW_ASSASSIN], 1);
    assert_int_equal(s.control[2], DW_BLUE);

    position(&s, "A", "3");
    place(&s, 2, DW_RED, "57");
    settle(&s);
    play(&s, "assassin cannon wall 2");
    assert_int_equal(s.side[1][DW_RED].ncannon, 1); /* the Cannon beneath shows again */
    assert_int_equal(dw_strength(&s, 1, DW_RED), 5);
}

/* DW-9: buried Cannons and Flags are not targets, and with no target the Assassin cannot be
 * played. DW-P2: a Spy on a buried Cannon is buried with it and is no target either. */
static void test_DW9_DW_P2_no_buried_targets(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "A", "3");
    take(&s, DW_FLAG, DW_RED);
    s.flag[0] = 2;
    s.flags_on_board = 1;
    place(&s, 4, DW_BLUE, "58");
    take(&s, DW_SPY, DW_RED);
    s.spy_wall = 4;
    s.spy_on = DW_SPY_ON_CANNON;
    s.spy_depth = 0;
    settle(&s);
    check_valid(&s);
    assert_int_equal(count_legal(&s, "assassin ", ""), 0);
    assert_true(legal(&s, "discard assassin"));
    /* remove the Cannon above: the Spy shows again and is a target */
    s.side[3][DW_BLUE].ncannon = 1;
    s.side[3][DW_BLUE].cannon[1] = 0;
    s.removed[DW_BLUE][DW_C8]++;
    settle(&s);
    assert_true(legal(&s, "assassin spy wall 4"));
}

/* DW-10 / rulebook "To control a wall, your total strength must be greater than your
 * opponent's ... If both players have the same strength, the control does not change." */
static void test_DW10_control_needs_strict_majority(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "3X", "111111");
    place(&s, 1, DW_RED, "3");
    settle(&s);
    check_valid(&s);
    play(&s, "archers 3 wall 1");
    assert_int_equal(s.control[0], DW_RED); /* 3 to 3 */
    position(&s, "22", "111111");
    place(&s, 1, DW_RED, "3");
    settle(&s);
    play(&s, "archers 2+2 wall 1");
    assert_int_equal(s.control[0], DW_BLUE); /* 4 to 3 */
    s.to_move = DW_RED;
    s.phase = DW_PHASE_PLAY;
    play(&s, "archers 1 wall 1");
    assert_int_equal(s.control[0], DW_BLUE); /* 4 to 4: Blue keeps it */
}

/* DW-2 / rulebook: "A Flag is played on top of a wall in order to lock that wall's control";
 * a Flag only goes on a wall without one. */
static void test_DW2_flag_locks_control(void **unused)
{
    (void)unused;
    dw_state s;
    blank(&s);
    give(&s, DW_BLUE, "F");
    give(&s, DW_RED, "9F1");
    place(&s, 2, DW_BLUE, "2");
    settle(&s);
    check_valid(&s);
    assert_int_equal(s.control[1], DW_BLUE);
    play(&s, "flag wall 2");
    assert_int_equal(s.flag[1], 1);
    s.to_move = DW_RED;
    s.phase = DW_PHASE_PLAY;
    assert_false(legal(&s, "flag wall 2"));
    assert_true(legal(&s, "flag wall 3"));
    assert_true(legal(&s, "cannon 9 wall 2")); /* cards may still be played there */
    play(&s, "cannon 9 wall 2");
    assert_int_equal(s.control[1], DW_BLUE); /* locked */
}

/* DW-11 / rulebook "Draw cards from your personal deck or the main deck until you have 6 cards
 * in your hand ... each card may come from either deck." */
static void test_DW11_refill_one_card_at_a_time_from_either_deck(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1122X", "111111");
    check_valid(&s);
    play(&s, "archers 1+1+2 wall 1");
    assert_int_equal(s.hand_n[DW_BLUE], 2);
    assert_true(legal(&s, "draw personal"));
    assert_true(legal(&s, "draw main"));
    const int top_personal = s.personal[DW_BLUE][s.personal_n[DW_BLUE] - 1];
    play(&s, "draw personal");
    assert_int_equal(s.hand[DW_BLUE][top_personal], top_personal == DW_ATTACK ? 2 : 1);
    const int top_main = s.main[s.main_n - 1];
    const int before = s.hand[DW_BLUE][top_main];
    play(&s, "draw main");
    assert_int_equal(s.hand[DW_BLUE][top_main], before + 1);
    play(&s, "draw main");
    assert_int_equal(s.to_move, DW_BLUE);
    play(&s, "draw personal");
    assert_int_equal(s.hand_n[DW_BLUE], 6);
    assert_int_equal(s.to_move, DW_RED); /* six in hand: the turn is over */
    assert_int_equal(s.phase, DW_PHASE_PLAY);
}

/* DW-11, DW-P5: with one deck empty only the other is offered (still an action); with both
 * empty the refill stops. */
static void test_DW11_DW_P5_refill_stops_when_decks_are_empty(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "11X", "111111");
    while (s.personal_n[DW_BLUE]) { /* empty Blue's personal deck into the removed pile */
        const int f = s.personal[DW_BLUE][--s.personal_n[DW_BLUE]];
        s.personal[DW_BLUE][s.personal_n[DW_BLUE]] = 0;
        s.removed[DW_BLUE][f]++;
    }
    while (s.main_n > 1) {
        const int f = s.main[--s.main_n];
        s.main[s.main_n] = 0;
        s.removed[DW_RED][f]++;
    }
    check_valid(&s);
    play(&s, "archers 1+1 wall 1");
    assert_false(legal(&s, "draw personal"));
    assert_true(legal(&s, "draw main"));
    play(&s, "draw main");
    assert_int_equal(s.hand_n[DW_BLUE], 2); /* could not fill further */
    assert_int_equal(s.to_move, DW_RED);
    assert_int_equal(s.last_turn, 0);
}

/* DW-12 / rulebook "When a third Flag is played, it triggers the end of the game. After the
 * current player refills their hand, if possible, the other player takes one more turn." */
static void test_DW12_third_flag_ends_after_the_opponents_turn(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "F1", "111111");
    take(&s, DW_FLAG, DW_BLUE);
    take(&s, DW_FLAG, DW_RED);
    s.flag[0] = 1;
    s.flag[4] = 2;
    s.flags_on_board = 2;
    check_valid(&s);
    play(&s, "flag wall 3");
    assert_int_equal(s.flags_on_board, 3);
    assert_int_equal(s.phase, DW_PHASE_REFILL); /* Blue still refills */
    while (s.phase == DW_PHASE_REFILL)
        play(&s, "draw main");
    assert_int_equal(s.to_move, DW_RED);
    assert_int_equal(s.last_turn, 1);
    assert_int_equal(G->current_player(&s), DW_RED);
    play(&s, "archers 1 wall 2");
    play(&s, "draw main");
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    rp_action a[RP_MAX_LEGAL];
    assert_int_equal(G->legal_actions(&s, a), 0);
}

/* DW-12 / rulebook "or one of you has no cards left in your hand at the end of your turn":
 * the other player still takes one more turn; DW-P5: that turn includes its refill. */
static void test_DW12_DW_P5_empty_hand_ends_after_one_more_turn(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "33");
    while (s.personal_n[DW_BLUE]) {
        const int f = s.personal[DW_BLUE][--s.personal_n[DW_BLUE]];
        s.personal[DW_BLUE][s.personal_n[DW_BLUE]] = 0;
        s.removed[DW_BLUE][f]++;
    }
    while (s.main_n) {
        const int f = s.main[--s.main_n];
        s.main[s.main_n] = 0;
        s.removed[DW_RED][f]++;
    }
    check_valid(&s);
    play(&s, "archers 1 wall 1");
    assert_int_equal(s.hand_n[DW_BLUE], 0);
    assert_int_equal(s.last_turn, 1);
    assert_int_equal(G->current_player(&s), DW_RED);
    play(&s, "archers 3 wall 1");
    while (s.phase == DW_PHASE_REFILL) /* her last turn includes her refill */
        play(&s, "draw personal");
    assert_int_equal(s.hand_n[DW_RED], 6);
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
}

/* DW-12: "(if they have any card; with an empty hand it is skipped)". Such a position
 * cannot arise in play (an empty hand at the end of one's turn triggers the end at once, and the
 * notation refuses it), so it is built directly: the third Flag with Red's hand empty. */
static void test_DW12_last_turn_skipped_with_empty_hand(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "F1", "");
    take(&s, DW_FLAG, DW_BLUE);
    take(&s, DW_FLAG, DW_RED);
    s.flag[0] = 1;
    s.flag[1] = 2;
    s.flags_on_board = 2;
    play(&s, "flag wall 3");
    while (s.phase == DW_PHASE_REFILL)
        play(&s, "draw main");
    assert_int_equal(s.last_turn, 1);
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
}

/* DW-12 / rulebook "the player that controls 3 or more walls is the winner". */
static void test_DW12_winner_controls_three_walls(void **unused)
{
    (void)unused;
    dw_state s;
    blank(&s);
    s.over = 1;
    s.last_turn = 1;
    s.control[0] = s.control[2] = s.control[4] = DW_BLUE;
    double r[2];
    G->returns(&s, r);
    assert_true(r[DW_BLUE] == 1.0 && r[DW_RED] == 0.0);
    s.control[4] = DW_RED;
    G->returns(&s, r);
    assert_true(r[DW_BLUE] == 0.0 && r[DW_RED] == 1.0);
}

/* ---- information ---- */

/* DW-13: hands and deck orders are hidden; sizes, board and removed pile public; a player
 * knows its own personal deck's contents. Changing what Blue cannot see leaves her view. */
static void test_DW13_view_shows_only_what_a_player_may_know(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1G", "33K");
    place(&s, 1, DW_RED, "2");
    settle(&s);
    check_valid(&s);
    char *blue = rp_view_text(G, &s, DW_BLUE, false);
    assert_non_null(strstr(blue, "\"hand\":[\"archer 1\",\"general\"]"));
    assert_null(strstr(blue, "king")); /* Red's King is in her hand, unseen */
    assert_non_null(strstr(blue, "\"hand_sizes\":[2,3]"));
    assert_non_null(strstr(blue, "\"personal_deck\":[\"cannon 6\",\"cannon 8\",\"flag\","));
    /* another Red hand and other deck orders: the same view for Blue */
    dw_state t = s;
    t.hand[DW_RED][DW_KING] = 0;
    t.hand[DW_RED][DW_WIZARD] = 1;
    for (int i = 0; i < t.personal_n[DW_RED]; i++)
        if (t.personal[DW_RED][i] == DW_WIZARD)
            t.personal[DW_RED][i] = DW_KING;
    const int last = s.personal_n[DW_BLUE] - 1;
    t.personal[DW_BLUE][0] = s.personal[DW_BLUE][last];
    t.personal[DW_BLUE][last] = s.personal[DW_BLUE][0];
    const uint8_t m = t.main[0];
    t.main[0] = t.main[t.main_n - 1];
    t.main[t.main_n - 1] = m;
    check_valid(&t);
    char *blue2 = rp_view_text(G, &t, DW_BLUE, false);
    assert_string_equal(blue, blue2);
    char *red = rp_view_text(G, &s, DW_RED, false);
    assert_non_null(strstr(red, "king"));
    free(blue);
    free(blue2);
    free(red);
}

/* DW-13, DW-P6 with determinize: the opponent's personal deck keeps only its own cards, the main
 * deck only main cards, and before any main draw both main Flags stay in it where DW-1 can
 * put them; the determinizing player's hand, board and counts are untouched. */
static void test_DW13_DW_P6_determinize_is_consistent(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 5, 5);
    for (int seed = 0; seed < 200; seed++) {
        dw_state s, d;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", seed);
        rp_test_init(G, &s, opts);
        d = s;
        G->determinize(&d, DW_BLUE, &rng);
        check_valid(&d);
        assert_memory_equal(d.hand[DW_BLUE], s.hand[DW_BLUE], DW_FACES);
        for (int i = 0; i < d.personal_n[DW_RED]; i++) {
            const int f = d.personal[DW_RED][i];
            assert_true(f == DW_FLAG || f == DW_ATTACK || f == DW_C6 || f == DW_C8 ||
                        f >= DW_KING);
        }
        int flags = 0;
        for (int i = 0; i < d.main_n; i++) {
            if (d.main[i] != DW_FLAG)
                continue;
            flags++;
            const int above = d.main_n - 1 - i;
            assert_true(above >= 9);
        }
        assert_int_equal(flags, 2);
        assert_int_equal(d.hand[DW_RED][DW_FLAG], 0); /* nobody has drawn a main Flag yet */
    }
}

/* DW-P6, observe_action: the opponent sees the refill's deck (the action) but never the card,
 * which is not part of the action. */
static void test_DW_P6_observe_action_shows_the_refill_source(void **unused)
{
    (void)unused;
    dw_state s;
    rp_test_init(G, &s, "seed=1");
    assert_int_equal(G->observe_action(&s, DW_ACT_DRAW_MAIN, DW_RED), DW_ACT_DRAW_MAIN);
    assert_int_equal(G->observe_action(&s, DW_ACT_DRAW_PERSONAL, DW_RED),
                     DW_ACT_DRAW_PERSONAL);
    char t1[RP_ACTION_TEXT];
    G->action_to_text(&s, DW_ACT_DRAW_MAIN, t1, sizeof t1);
    assert_string_equal(t1, "draw main");
}

/* ---- notation ---- */

static void test_action_notation(void **unused)
{
    (void)unused;
    dw_state s;
    rp_test_init(G, &s, "seed=1");
    struct {
        const char *text;
        rp_action id;
    } cases[] = {
        {"archers 1+1+3 wall 2", DW_ACT_ARCHERS + 343 + 2 * 49 + 1},
        {"cannon 7 wall 5", DW_ACT_CANNON + 4 * 5 + 2},
        {"flag wall 1", DW_ACT_FLAG},
        {"attack archers wall 3", DW_ACT_ATTACK + 2 * 2 + 1},
        {"wizard wall 2", DW_ACT_LEADER + 6 + 4},
        {"spy engineer wall 4", DW_ACT_SPY + 3 * 7 + 6},
        {"assassin spy wall 5", DW_ACT_ASSASSIN + 4 * 8 + 7},
        {"discard cannon 6", DW_ACT_DISCARD + DW_C6},
        {"draw personal", DW_ACT_DRAW_PERSONAL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rp_action a = RP_NO_ACTION;
        rp_error err = {{0}};
        assert_int_equal(G->action_from_text(&s, cases[i].text, &a, &err), RP_OK);
        assert_int_equal(a, cases[i].id);
        char t[RP_ACTION_TEXT];
        assert_true(G->action_to_text(&s, a, t, sizeof t) > 0);
        assert_string_equal(t, cases[i].text);
    }
    rp_action a;
    rp_error err = {{0}};
    assert_int_equal(G->action_from_text(&s, "  ARCHERS 3+1   Wall 2 ", &a, &err), RP_OK);
    assert_int_equal(a, DW_ACT_ARCHERS + 343 + 49 + 1);
    const char *bad[] = {"archers 4 wall 1", "archers 1+1+1+1+1+1+1 wall 1", "cannon 4 wall 1",
                         "flag wall 6", "flag", "attack king wall 1", "spy king wall 1",
                         "assassin general wall 1", "discard castle", "draw deck",
                         "archers 1 wall 1 now", "3 wall 1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = '\0';
        if (G->action_from_text(&s, bad[i], &a, &err) >= 0)
            fail_msg("accepted '%s'", bad[i]);
        assert_true(strlen(err.msg) > 0);
    }
}

/* Full-state notation validates card counts, where cards may be, control and the turn. */
static void test_state_notation_refuses_inconsistent_states(void **unused)
{
    (void)unused;
    dw_state s, before;
    rp_test_init(G, &s, "seed=11");
    before = s;
    char text[RP_STATE_TEXT];
    G->state_to_text(&s, text, sizeof text);
    struct {
        const char *from, *to, *why;
    } edits[] = {
        {";xb=", ";xb=1", "cards"},  /* a 50th card */
        {";hb=", ";hb=K", "hb="},    /* Red's King in Blue's hand */
        {";pb=", ";pb=K", "pb="},    /* Red's King in Blue's deck */
        {"to=b", "to=x", "to="},
        {"last=0", "last=2", "last="},
        {";spy=-", ";spy=1G", "Spy"},
        {"dw1;", "dw2;", "dw1"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char bad[RP_STATE_TEXT];
        const char *at = strstr(text, edits[i].from);
        assert_non_null(at);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - text), text, edits[i].to,
                 at + strlen(edits[i].from));
        rp_error err = {{0}};
        if (G->state_from_text(&s, bad, &err) >= 0)
            fail_msg("accepted %s", bad);
        if (!strstr(err.msg, edits[i].why))
            fail_msg("message '%s' does not mention '%s'", err.msg, edits[i].why);
        assert_memory_equal(&s, &before, sizeof s);
    }
}

/* DW-10 in the notation: an unflagged wall goes to the stronger side, so a text giving it to
 * the weaker one is refused. */
static void test_state_notation_checks_control(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "2");
    place(&s, 1, DW_BLUE, "3");
    settle(&s);
    char text[RP_STATE_TEXT], bad[RP_STATE_TEXT];
    G->state_to_text(&s, text, sizeof text);
    const char *at = strstr(text, "w1=b-");
    assert_non_null(at);
    snprintf(bad, sizeof bad, "%.*sw1=r-%s", (int)(at - text), text, at + 5);
    dw_state t;
    rp_error err = {{0}};
    assert_true(G->state_from_text(&t, bad, &err) < 0);
    assert_non_null(strstr(err.msg, "controls"));
}

/* ---- property run ---- */

static int count_face_everywhere(const dw_state *s, int f)
{
    int n = 0;
    for (int p = 0; p < 2; p++) {
        n += s->hand[p][f] + s->removed[p][f];
        for (int i = 0; i < s->personal_n[p]; i++)
            n += s->personal[p][i] == f;
    }
    for (int i = 0; i < s->main_n; i++)
        n += s->main[i] == f;
    for (int w = 0; w < DW_WALLS; w++) {
        n += f == DW_FLAG && s->flag[w];
        for (int p = 0; p < 2; p++) {
            const dw_side *sd = &s->side[w][p];
            if (f <= DW_A3)
                n += sd->archers[f];
            for (int i = 0; i < sd->ncannon; i++)
                n += sd->cannon[i] == f;
            if (f >= DW_GENERAL)
                n += (sd->leaders >> (f - DW_GENERAL)) & 1;
        }
    }
    if (s->spy_wall && (f == DW_SPY || (f == s->spy_on && f <= DW_A3)))
        n++;
    return n;
}

/* The game's own invariants at every step. */
static void check_invariants(const dw_state *s)
{
    for (int f = 0; f < DW_FACES; f++)
        assert_int_equal(count_face_everywhere(s, f), TOTAL[f]);
    int flags = 0;
    for (int w = 0; w < DW_WALLS; w++) {
        flags += s->flag[w] != 0;
        assert_true(s->control[w] <= 1);
        const int b = dw_strength(s, w, DW_BLUE), r = dw_strength(s, w, DW_RED);
        assert_true(b >= 0 && b <= 4 * 80 && r >= 0 && r <= 2 * 80);
        if (!s->flag[w] && b != r)
            assert_int_equal(s->control[w], b > r ? DW_BLUE : DW_RED);
    }
    assert_int_equal(flags, s->flags_on_board);
    for (int p = 0; p < 2; p++) {
        assert_true(s->hand_n[p] <= DW_HAND);
        assert_true(s->personal_n[p] <= DW_PERSONAL);
    }
    assert_true(s->main_n <= DW_MAIN);
}

static void test_property_random_games(void **unused)
{
    (void)unused;
    const int games = rp_test_games(10000);
    rp_rng rng;
    rp_rng_seed(&rng, 77, 3);
    long wins[2] = {0, 0};
    for (int g = 0; g < games; g++) {
        dw_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", g);
        rp_test_init(G, &s, opts);
        int steps = 0;
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_true(++steps < 400); /* every game ends: at most 49 plays and their draws */
            rp_test_check_step(G, &s, &rng);
            check_invariants(&s);
            if (g % 16 == 0) { /* a determinized state is itself a valid state */
                dw_state d = s;
                const int who = (int)rp_rng_below(&rng, 2);
                G->determinize(&d, who, &rng);
                check_valid(&d);
                check_invariants(&d);
                /* evaluate reads only what `who` can see */
                assert_true(G->evaluate(&d, who) == G->evaluate(&s, who));
            }
            const double e = G->evaluate(&s, DW_BLUE);
            assert_true(e >= 0.0 && e <= 1.0);
            rp_action a[RP_MAX_LEGAL];
            const int n = G->legal_actions(&s, a);
            G->apply(&s, a[rp_rng_below(&rng, (uint32_t)n)]);
        }
        check_invariants(&s);
        rp_test_check_returns(G, &s);
        double r[2];
        G->returns(&s, r);
        wins[r[DW_RED] > 0.5]++;
    }
    assert_true(wins[0] > 0 && wins[1] > 0);
}

/* render draws without colour when asked not to, and names the player's hand. */
static void test_render(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1G", "33K");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    G->render(&s, DW_BLUE, f, false);
    fclose(f);
    assert_null(strchr(buf, '\x1b'));
    assert_non_null(strstr(buf, "[general]"));
    assert_null(strstr(buf, "[king]"));
    free(buf);
    f = open_memstream(&buf, &len);
    G->render(&s, DW_RED, f, true);
    fclose(f);
    assert_non_null(strchr(buf, '\x1b'));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_DW1_setup),
        cmocka_unit_test(test_rulebook_personal_decks),
        cmocka_unit_test(test_DW3_DW_P4_archers_are_multisets_to_one_wall),
        cmocka_unit_test(test_DW5_only_the_top_cannon_counts),
        cmocka_unit_test(test_DW6_attack_needs_own_cannon_and_DW4_discard),
        cmocka_unit_test(test_DW6_attack_removes_only_the_top_cannon),
        cmocka_unit_test(test_DW6_attack_removes_all_archers_but_a_spied_one),
        cmocka_unit_test(test_DW_P1_attack_needs_a_removable_target),
        cmocka_unit_test(test_DW7_strength_with_blue_and_red_leaders),
        cmocka_unit_test(test_DW7_wizard_and_builder_affect_both_sides),
        cmocka_unit_test(test_DW8_spy_covers_one_blue_card),
        cmocka_unit_test(test_DW8_DW_P3_spy_needs_a_blue_card),
        cmocka_unit_test(test_DW9_DW_P4_assassin_targets_and_frees_the_spy),
        cmocka_unit_test(test_DW9_DW_P2_no_buried_targets),
        cmocka_unit_test(test_DW10_control_needs_strict_majority),
        cmocka_unit_test(test_DW2_flag_locks_control),
        cmocka_unit_test(test_DW11_refill_one_card_at_a_time_from_either_deck),
        cmocka_unit_test(test_DW11_DW_P5_refill_stops_when_decks_are_empty),
        cmocka_unit_test(test_DW12_third_flag_ends_after_the_opponents_turn),
        cmocka_unit_test(test_DW12_DW_P5_empty_hand_ends_after_one_more_turn),
        cmocka_unit_test(test_DW12_last_turn_skipped_with_empty_hand),
        cmocka_unit_test(test_DW12_winner_controls_three_walls),
        cmocka_unit_test(test_DW13_view_shows_only_what_a_player_may_know),
        cmocka_unit_test(test_DW13_DW_P6_determinize_is_consistent),
        cmocka_unit_test(test_DW_P6_observe_action_shows_the_refill_source),
        cmocka_unit_test(test_action_notation),
        cmocka_unit_test(test_state_notation_refuses_inconsistent_states),
        cmocka_unit_test(test_state_notation_checks_control),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_property_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
