/* test_danger_at_the_walls.c — one test per rule of Danger at the Walls (rulebook sentences,
 * shared rulings DW-1..DW-13, project rulings DW-P1..), notation and view checks, and a
 * property run over many random games with the game's own invariants. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "games/danger-at-the-walls/internal.h"
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
    s->turn = 1;
}

/* Hand a built position to `seat` at the start of a turn: Red plays the even turns. */
static void turn_of(dw_state *s, int seat)
{
    s->to_move = (uint8_t)seat;
    dw_set_actor(s);
    s->turn = seat == DW_RED ? 2 : 1;
    s->phase = DW_PHASE_PLAY;
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
    dw_side sd = dw_side_at(s, wall - 1, seat);
    for (; *cards; cards++) {
        const int f = face(*cards);
        take(s, f, seat);
        if (f <= DW_A3)
            sd.archers[f]++;
        else if (f <= DW_C9)
            sd.cannon[sd.ncannon++] = (uint8_t)f;
        else
            sd.leaders |= (uint8_t)(1u << (f - DW_GENERAL));
    }
    dw_set_side(s, wall - 1, seat, &sd);
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

/* Empty Blue's personal deck into Blue's removed pile, and the main deck but its `keep`
 * bottom cards into Red's (as if played and lost). */
static void empty_decks(dw_state *s, int keep)
{
    while (s->personal_n[DW_BLUE]) {
        const int f = s->personal[DW_BLUE][--s->personal_n[DW_BLUE]];
        s->personal[DW_BLUE][s->personal_n[DW_BLUE]] = 0;
        s->removed[DW_BLUE][f]++;
    }
    while (s->main_n > keep) {
        const int f = s->main[--s->main_n];
        s->main[s->main_n] = 0;
        s->removed[DW_RED][f]++;
    }
}

/* Finish the refill of the turn in progress (DW-11), from the main deck while it lasts. */
static void finish_turn(dw_state *s)
{
    while (s->phase == DW_PHASE_REFILL)
        play(s, s->main_n ? "draw main" : "draw personal");
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
        if (strncmp(t, prefix, strlen(prefix)) == 0 && lt >= ls && strcmp(t + lt - ls, suffix) == 0)
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

/* Red to play holding the Spy and an Archer-3; Blue has Archer-1, Archer-2, Cannon-7 and the
 * General at wall 1 (strength 20). */
static void spy_position(dw_state *s)
{
    position(s, "9", "S3");
    turn_of(s, DW_RED);
    place(s, 1, DW_BLUE, "127G");
    settle(s);
}

/* Blue to play holding the Assassin; Red has Archer-1 x2, Cannons 5 and 7 and the King at wall
 * 2; the Spy covers Blue's General at wall 3, beside an Archer-2. */
static void assassin_position(dw_state *s)
{
    position(s, "A", "3");
    place(s, 2, DW_RED, "1157K");
    place(s, 3, DW_BLUE, "G2");
    take(s, DW_SPY, DW_RED);
    s->spy_wall = 3;
    s->spy_on = DW_GENERAL;
    settle(s);
}

/* Red to play holding an Attack; at wall 2 Blue has Archers 1, 1, 2 and a spied Archer-3, Red
 * a Cannon-6. */
static void spied_archers_position(dw_state *s)
{
    position(s, "1", "X22222");
    turn_of(s, DW_RED);
    place(s, 2, DW_BLUE, "1123");
    place(s, 2, DW_RED, "6");
    take(s, DW_SPY, DW_RED);
    s->spy_wall = 2;
    s->spy_on = DW_A3;
    dw_side blue = dw_side_at(s, 1, DW_BLUE);
    blue.archers[2]--;
    dw_set_side(s, 1, DW_BLUE, &blue);
    settle(s);
}

/* ---- setup ---- */

/* DW-1 and the rulebook setup: six cards each from the main deck without Flags, Flag A with
 * 9..11 cards above it, Flag B with at least 10 above it; all walls Red; Blue first. */
static void test_DW1_setup(void **unused)
{
    (void)unused;
    int seen_a[13] = {0}, seen_lower[21] = {0};
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
        int depth[2] = {0, 0}, k = 0; /* k counts every Flag, depth keeps the first two */
        for (int i = s.main_n - 1; i >= 0; i--) {
            if (s.main[i] != DW_FLAG)
                continue;
            if (k < 2)
                depth[k] = s.main_n - 1 - i; /* cards above it */
            k++;
        }
        assert_int_equal(k, 2);
        /* Flag A sat at 9..11; Flag B going above it pushes it down by one. */
        const bool ok = (depth[0] >= 9 && depth[0] <= 12 && depth[1] >= 10) ||
                        (depth[1] >= 9 && depth[1] <= 12 && depth[0] >= 10);
        assert_true(ok);
        seen_a[depth[0]]++;
        seen_lower[depth[1]]++;
        for (int w = 0; w < DW_WALLS; w++) {
            assert_int_equal(s.control[w], DW_RED);
            assert_int_equal(s.flag[w], 0);
        }
        assert_int_equal(G->current_player(&s), DW_BLUE);
        for (int f = 0; f < DW_FACES; f++)
            assert_int_equal(count_face_everywhere(&s, f), TOTAL[f]);
    }
    assert_true(seen_a[9] > 0 && seen_a[10] > 0 && seen_a[11] > 0);
    /* Flag B goes to "a uniformly random position in the bottom half of the resulting 20-card
     * deck": below Flag A's deepest place (12) only Flag B lies, at every depth down to the
     * bottom card (20 above it). */
    for (int d = 13; d <= 20; d++)
        if (seen_lower[d] == 0)
            fail_msg("in 300 deals no Flag lay with %d cards above it (DW-1)", d);
    /* The deal copies card-by-card lists of the decks: they hold the rulebook's cards in face
     * order (the order the shuffles start from). */
    assert_true(dw_deck_lists_agree());
}

/* Rulebook "Card Distributions": each personal deck is Flag, Cannon Attack, Cannon-6, Cannon-8
 * and its four unique Leaders. */
/* dw_init shuffles its decks with rp_rng_shuffle_u8 inline, unrolled for their sizes
 * (rp__rng_shuffle_u8, rng_internal.h), and with rp_rng_shuffle_u8 itself while a draw list is
 * in use: recording the draws (the generator's values, drawn one rp_rng_below at a time), the
 * deals of many seeds are byte for byte those made without a list, and every draw was
 * recorded. */
static void test_DW1_deal_shuffles_as_rp_rng_shuffle(void **unused)
{
    (void)unused;
    for (int seed = 0; seed < 1000; seed++) {
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", seed);
        /* main deck, Flags, personal decks */
        assert_int_equal(rp_test_init_draws_agree(G, opts), 30 + 2 + 2 * 7);
    }
}

/* apply reads a Cannon's and a Leader's wall and card from tables (rules.c, dw_play_place):
 * for every such action they are the wall and the one card of dw_decode's reading. */
static void test_cannon_and_leader_places_match_the_action_table(void **unused)
{
    (void)unused;
    for (rp_action a = DW_ACT_CANNON; a < DW_ACT_SPY; a++) {
        if (a == DW_ACT_FLAG)
            a = DW_ACT_LEADER;
        const dw_move m = dw_decode(a);
        int wall, face;
        dw_play_place(a, &wall, &face);
        assert_int_equal(wall, m.wall);
        assert_int_equal(m.cards[face], 1);
    }
}

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
    assert_int_equal(s.camp[DW_BLUE].archers[0][3], 2);
    assert_int_equal(s.camp[DW_BLUE].archers[1][3], 1);
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
    assert_int_equal(s.camp[DW_BLUE].ncannon[1], 2);
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
    assert_int_equal(s.camp[DW_RED].ncannon[2], 1);
    assert_int_equal(s.camp[DW_RED].cannon[2][0], DW_C5);
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
    spied_archers_position(&s);
    check_valid(&s);
    assert_int_equal(dw_strength(&s, 1, DW_BLUE), 4); /* the spied Archer-3 counts nothing */
    const int a1 = s.removed[DW_BLUE][DW_A1], a2 = s.removed[DW_BLUE][DW_A2];
    play(&s, "attack archers wall 2");
    assert_int_equal(s.camp[DW_BLUE].archers[0][1] + s.camp[DW_BLUE].archers[1][1], 0);
    assert_int_equal(s.spy_on, DW_A3); /* still there, still spied */
    assert_int_equal(s.camp[DW_BLUE].archers[2][1], 0);
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
    turn_of(&s, DW_RED);
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

/* DW-6: an Attack is "legal only at a wall where the attacker's top Cannon is present and not
 * covered by the Spy", at each of the five walls (the test above spies the defender's Cannon;
 * here the Spy covers Blue's own, the attacker's). */
static void test_DW6_a_spied_cannon_attacks_at_no_wall(void **unused)
{
    (void)unused;
    for (int wall = 1; wall <= DW_WALLS; wall++) {
        dw_state s;
        position(&s, "X", "3");
        place(&s, wall, DW_BLUE, "7");
        place(&s, wall, DW_RED, "25");
        settle(&s);
        assert_int_equal(count_legal(&s, "attack ", ""), 2); /* the Cannon and the Archers */
        take(&s, DW_SPY, DW_RED);
        s.spy_wall = (uint8_t)wall;
        s.spy_on = DW_SPY_ON_CANNON;
        s.spy_depth = 0;
        settle(&s);
        check_valid(&s);
        if (count_legal(&s, "attack ", "") != 0)
            fail_msg("Blue attacks at wall %d with its Cannon under the Spy (DW-6)", wall);
    }
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
    s.camp[DW_RED].leaders[4] &= (uint8_t) ~(1u << (DW_WIZARD - DW_GENERAL));
    s.removed[DW_RED][DW_WIZARD]++;
    assert_int_equal(dw_strength(&s, 4, DW_BLUE), 12); /* Builder still there */
    assert_int_equal(dw_strength(&s, 4, DW_RED), 6);
}

/* DW-7 for each of the 64 sets of Leaders at one wall, against the ruling's formula: "Blue =
 * (A*n + C*e)*g and Red = (A + C)*k with each factor 1 or 2", the Wizard zeroing both sides' A
 * and the Builder both sides' C. The tests above add Leaders one on another, so a set such as
 * the Engineer alone was never weighed. */
static void test_DW7_every_set_of_leaders_at_a_wall(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "3");
    place(&s, 1, DW_BLUE, "127"); /* A = 3, C = 7 */
    place(&s, 1, DW_RED, "35");   /* A = 3, C = 5 */
    for (unsigned set = 0; set < 64; set++) {
        const int general = set & 1, noble = set >> 1 & 1, engineer = set >> 2 & 1;
        const int king = set >> 3 & 1, wizard = set >> 4 & 1, builder = set >> 5 & 1;
        s.camp[DW_BLUE].leaders[0] = (uint8_t)(set & 7u);
        s.camp[DW_RED].leaders[0] = (uint8_t)((set >> 3) << 4);
        const int blue_a = wizard ? 0 : 3, blue_c = builder ? 0 : 7;
        const int red_a = wizard ? 0 : 3, red_c = builder ? 0 : 5;
        const int blue = (blue_a * (1 + noble) + blue_c * (1 + engineer)) * (1 + general);
        const int red = (red_a + red_c) * (1 + king);
        if (dw_strength(&s, 0, DW_BLUE) != blue || dw_strength(&s, 0, DW_RED) != red)
            fail_msg("Leaders G%d N%d E%d K%d W%d B%d: strengths %d and %d, DW-7 says %d and %d",
                     general, noble, engineer, king, wizard, builder, dw_strength(&s, 0, DW_BLUE),
                     dw_strength(&s, 0, DW_RED), blue, red);
    }
}

/* DW-8: the Spy covers one Blue card in play (an Archer, the top Cannon or a Leader): it is
 * ignored. Blue may play a new Cannon on a spied one; the new one counts. */
static void test_DW8_spy_covers_one_blue_card(void **unused)
{
    (void)unused;
    dw_state s;
    spy_position(&s);
    check_valid(&s);
    /* targets at wall 1: Archer 1, Archer 2, the Cannon, the General */
    assert_int_equal(count_legal(&s, "spy ", "wall 1"), 4);
    assert_int_equal(count_legal(&s, "spy ", "wall 2"), 0);
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 20);
    play(&s, "spy general wall 1");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 10);

    position(&s, "9", "S3");
    turn_of(&s, DW_RED);
    place(&s, 1, DW_BLUE, "7");
    place(&s, 1, DW_RED, "3");
    settle(&s);
    assert_int_equal(s.control[0], DW_BLUE);
    play(&s, "spy cannon wall 1");
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 0);
    assert_int_equal(s.control[0], DW_RED);
    finish_turn(&s);
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
    turn_of(&s, DW_RED);
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
    assassin_position(&s);
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
    assert_int_equal(s.camp[DW_RED].ncannon[1], 1); /* the Cannon beneath shows again */
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
    dw_side blue = dw_side_at(&s, 3, DW_BLUE);
    blue.ncannon = 1;
    dw_set_side(&s, 3, DW_BLUE, &blue);
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
    finish_turn(&s);
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
    finish_turn(&s);
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
    empty_decks(&s, 1);
    check_valid(&s);
    play(&s, "archers 1+1 wall 1");
    assert_false(legal(&s, "draw personal"));
    assert_true(legal(&s, "draw main"));
    play(&s, "draw main");
    assert_int_equal(s.hand_n[DW_BLUE], 2); /* could not fill further */
    assert_int_equal(s.to_move, DW_RED);
    assert_int_equal(s.last_turn, DW_LAST_NO);
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
    assert_int_equal(s.last_turn, DW_LAST_FLAGS);
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
    empty_decks(&s, 0);
    check_valid(&s);
    play(&s, "archers 1 wall 1");
    assert_int_equal(s.hand_n[DW_BLUE], 0);
    assert_int_equal(s.last_turn, DW_LAST_EMPTY_HAND);
    assert_int_equal(G->current_player(&s), DW_RED);
    play(&s, "archers 3 wall 1");
    while (s.phase == DW_PHASE_REFILL) /* her last turn includes her refill */
        play(&s, "draw personal");
    assert_int_equal(s.hand_n[DW_RED], 6);
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
}

/* DW-12: "(if they have any card; with an empty hand it is skipped)". Play never reaches
 * that case: a hand is empty at the end of its owner's turn only when both decks are empty, and
 * that starts the last turn then, so the next turn ends the game before the other hand could
 * be the one to skip. The invariants (state_ok, which every apply asserts in debug builds)
 * refuse the position it would need: the third Flag played with Red's hand already empty. */
static void test_DW12_skipped_last_turn_cannot_arise(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "F1", "");
    take(&s, DW_FLAG, DW_BLUE);
    take(&s, DW_FLAG, DW_RED);
    s.flag[0] = 1;
    s.flag[1] = 2;
    s.flags_on_board = 2;
    rp_error err = {{0}};
    assert_int_equal(G->state_ok(&s, &err), RP_EINVAL);
    assert_non_null(strstr(err.msg, "opponent's hand is empty, so this must be the last turn "
                                    "(DW-12)"));
}

/* DW-12 / rulebook "the player that controls 3 or more walls is the winner". */
static void test_DW12_winner_controls_three_walls(void **unused)
{
    (void)unused;
    dw_state s;
    blank(&s);
    s.over = 1;
    dw_set_actor(&s);
    s.last_turn = DW_LAST_FLAGS;
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
    assert_non_null(strstr(blue, "\"hand\":[\"archer-1\",\"general\"]"));
    assert_null(strstr(blue, "king")); /* Red's King is in her hand, unseen */
    assert_non_null(strstr(blue, "\"hand_sizes\":{\"blue\":2,\"red\":3}"));
    assert_non_null(strstr(blue, "\"personal_deck\":[\"cannon-6\",\"cannon-8\",\"flag\","));
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
            assert_true(f == DW_FLAG || f == DW_ATTACK || f == DW_C6 || f == DW_C8 || f >= DW_KING);
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

/* DW-P6: the opponent sees the refill's deck but never the card. The deck is the action
 * itself, seen whole (the game has no observe_action: every action is seen as played), and the
 * card is no part of it: the action reads the same whichever card the deck's top holds. */
static void test_DW_P6_observe_action_shows_the_refill_source(void **unused)
{
    (void)unused;
    dw_state s;
    rp_test_init(G, &s, "seed=1");
    assert_null(G->observe_action);
    dw_state other = s;
    uint8_t *top = &other.main[other.main_n - 1];
    *top = *top == DW_A1 ? DW_C9 : DW_A1;
    char t1[RP_ACTION_TEXT], t2[RP_ACTION_TEXT];
    G->action_to_text(&s, DW_ACT_DRAW_MAIN, t1, sizeof t1);
    G->action_to_text(&other, DW_ACT_DRAW_MAIN, t2, sizeof t2);
    assert_string_equal(t1, "draw main");
    assert_string_equal(t2, t1);
    G->action_to_text(&s, DW_ACT_DRAW_PERSONAL, t1, sizeof t1);
    assert_string_equal(t1, "draw personal");
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
    const char *bad[] = {"archers 4 wall 1",
                         "archers 1+1+1+1+1+1+1 wall 1",
                         "cannon 4 wall 1",
                         "flag wall 6",
                         "flag",
                         "attack king wall 1",
                         "spy king wall 1",
                         "assassin general wall 1",
                         "discard castle",
                         "draw deck",
                         "archers 1 wall 1 now",
                         "3 wall 1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = '\0';
        if (G->action_from_text(&s, bad[i], &a, &err) >= 0)
            fail_msg("accepted '%s'", bad[i]);
        assert_true(strlen(err.msg) > 0);
    }
}

/* Full-state notation validates card counts, where cards may be, control and the turn, and
 * accepts only the canonical spelling (issue 18): each edit is refused, with a reason, and
 * leaves the state untouched. */
static void test_state_notation_refuses_bad_and_non_canonical_text(void **unused)
{
    (void)unused;
    dw_state s, before;
    position(&s, "1G", "33K");
    check_valid(&s);
    before = s;
    char text[RP_STATE_TEXT];
    G->state_to_text(&s, text, sizeof text);
    struct {
        const char *from, *to, *why;
    } edits[] = {
        {" blue-removed=", " blue-removed=archer-1,", "there are 14 cards archer-1"},
        {" blue-hand=archer-1,general red-hand=archer-3,archer-3,king",
         " blue-hand=archer-1,general,king red-hand=archer-3,archer-3",
         "Blue holds king, a card of the other side"},
        {" blue-hand=archer-1,general", " blue-hand=general,archer-1", "canonical"},
        {" blue-deck=", " blue-deck=king,", "king"},
        {" red-hand=archer-3,archer-3,king",
         " red-hand=archer-3,archer-3,archer-3,archer-3,"
         "archer-3,archer-3,king",
         "more than 6 cards"},
        {"to=blue", "to=green", "to: 'green' is not one of blue|red"},
        {"to=blue", "to=Blue", "to: 'Blue' is not one of"},
        {"last=no", "last=2", "last:"},
        {"turn=1", "turn=01", "leading zero"},
        {"turn=1", "turn=+1", "not a whole number"},
        {"over=0", "over=00", "leading zero"},
        {" phase=", "  phase=", "one space"},
        {" phase=", "\nphase=", "is not one of blue|red"}, /* the newline joins two words */
        {" spy=-", " spy=1/general", "Spy covers a leader"},
        {" spy=-", " spy=1/flag", "spy:"},
        {"wall1=", "wall1=flag,", "does not stay on a side"},
        {"dw2 ", "dw1 ", "which reads 'dw2'"},
        {" rng=", " rng=x", "16 lower-case hex digits"},
        {" rng=", " seed=", "expected the field rng= here, found 'seed'"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char bad[RP_STATE_TEXT];
        const char *at = strstr(text, edits[i].from);
        if (!at)
            fail_msg("'%s' not in %s", edits[i].from, text);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - text), text, edits[i].to,
                 at + strlen(edits[i].from));
        rp_error err = {{0}};
        if (G->state_from_text(&s, bad, &err) >= 0)
            fail_msg("accepted %s", bad);
        if (!strstr(err.msg, edits[i].why))
            fail_msg("message '%s' does not mention '%s'", err.msg, edits[i].why);
        assert_memory_equal(&s, &before, sizeof s);
    }
    char spaced[RP_STATE_TEXT + 1];
    snprintf(spaced, sizeof spaced, "%s ", text);
    rp_error err = {{0}};
    assert_true(G->state_from_text(&s, spaced, &err) < 0);
    assert_non_null(strstr(err.msg, "after the last field"));
}

/* The dw2 notation as docs/games/danger-at-the-walls.md writes it, by hand: a position of
 * turn 9 with all 49 cards placed, read field by field and written back unchanged; then the
 * same with the Spy on Blue's buried Cannon-6 (DW-P2). */
static const char LITERAL[] =
    "dw2 turn=9 to=blue phase=play last=no over=0 control=blue,blue,red,red,red "
    "flags=none,none,none,none,none wall1=archer-1,archer-2,archer-3/cannon-5 "
    "wall2=cannon-6,cannon-9,general/archer-3 wall3=-/cannon-7 wall4=-/king wall5=-/- spy=- "
    "blue-hand=archer-1,archer-1,archer-1,archer-2,cannon-8,attack "
    "red-hand=archer-1,archer-1,archer-1,archer-2,archer-2,archer-3 "
    "blue-deck=attack,flag,noble,cannon-8,assassin,engineer "
    "red-deck=spy,cannon-8,flag,builder,attack,wizard,cannon-6 "
    "main=archer-1,archer-2,archer-1,cannon-6,archer-3,flag,archer-1,archer-2,archer-1,archer-3,"
    "flag,archer-1,archer-2,archer-1 blue-removed=- red-removed=- "
    "rng=0123456789abcdef.0000000000000001";

static void test_state_notation_literal(void **unused)
{
    (void)unused;
    dw_state s;
    rp_test_load(G, &s, LITERAL);
    assert_int_equal(G->turn_number(&s), 9);
    assert_int_equal(G->current_player(&s), DW_BLUE);
    assert_int_equal(dw_strength(&s, 0, DW_BLUE), 6);
    assert_int_equal(dw_strength(&s, 1, DW_BLUE), 18); /* General: (0 + 9) x 2 */
    assert_int_equal(s.camp[DW_BLUE].ncannon[1], 2);
    assert_int_equal(s.camp[DW_BLUE].cannon[1][1], DW_C9);
    assert_int_equal(s.hand[DW_BLUE][DW_A1], 3);
    assert_int_equal(s.personal[DW_BLUE][s.personal_n[DW_BLUE] - 1], DW_ENGINEER); /* top */
    assert_int_equal(s.main_n, 14);
    assert_int_equal(s.main[5], DW_FLAG);
    assert_true(s.rng.state == 0x0123456789abcdefull && s.rng.inc == 1);
    char text[RP_STATE_TEXT];
    G->state_to_text(&s, text, sizeof text);
    assert_string_equal(text, LITERAL);

    char spied[RP_STATE_TEXT];
    const char *deck = strstr(LITERAL, "red-deck=spy,"), *spy = strstr(LITERAL, "spy=-");
    snprintf(spied, sizeof spied, "%.*sspy=2/cannon@0%.*sred-deck=%s", (int)(spy - LITERAL),
             LITERAL, (int)(deck - spy - 5), spy + 5, deck + 13);
    rp_test_load(G, &s, spied);
    assert_int_equal(s.spy_wall, 2);
    assert_int_equal(s.spy_on, DW_SPY_ON_CANNON);
    assert_int_equal(s.spy_depth, 0);
    assert_int_equal(dw_strength(&s, 1, DW_BLUE), 18); /* the spied Cannon is buried */
    G->state_to_text(&s, text, sizeof text);
    assert_string_equal(text, spied);
    char *view = rp_view_text(G, &s, RP_SPECTATOR, false);
    assert_non_null(strstr(view, "\"covers\":\"cannon-6\",\"cannon\":0,\"buried\":true"));
    free(view);
}

/* Every cut of a notation is refused with a reason and leaves the state alone (a field cut
 * off before its '=' once made the reader look at a value it never read). */
static void test_state_notation_refuses_every_truncation(void **unused)
{
    (void)unused;
    dw_state s, before;
    rp_test_load(G, &s, LITERAL);
    before = s;
    char cut[sizeof LITERAL];
    for (size_t len = 0; len + 1 < sizeof LITERAL; len++) {
        memcpy(cut, LITERAL, len);
        cut[len] = '\0';
        rp_error err = {{0}};
        if (G->state_from_text(&s, cut, &err) >= 0)
            fail_msg("accepted the cut '%s'", cut);
        assert_true(strlen(err.msg) > 0);
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
    const char *at = strstr(text, "control=blue,");
    assert_non_null(at);
    snprintf(bad, sizeof bad, "%.*scontrol=red,%s", (int)(at - text), text, at + 13);
    dw_state t;
    rp_error err = {{0}};
    assert_true(G->state_from_text(&t, bad, &err) < 0);
    assert_non_null(strstr(err.msg, "controls"));
}

/* ---- the fair-play interface: turn, options, invariants, views, actions, events ---- */

/* Issue 11: the Archer plays come from a table the compiler builds, so a state that never
 * went through init or state_from_text (copied in as raw bytes, as the server and the Python
 * package do) lists them, from any thread. This test runs first in the program, before any
 * init: for every hand of up to six Archers, the Archer plays at each wall are exactly the
 * non-empty sub-multisets of the hand (DW-3, DW-P4), each once. */
static void test_archer_plays_of_a_raw_state_need_no_setup(void **unused)
{
    (void)unused;
    for (int n1 = 0; n1 <= DW_HAND; n1++)
        for (int n2 = 0; n1 + n2 <= DW_HAND; n2++)
            for (int n3 = 0; n1 + n2 + n3 <= DW_HAND; n3++) {
                dw_state s;
                memset(&s, 0, sizeof s);
                s.hand[DW_BLUE][DW_A1] = (uint8_t)n1;
                s.hand[DW_BLUE][DW_A2] = (uint8_t)n2;
                s.hand[DW_BLUE][DW_A3] = (uint8_t)n3;
                s.hand_n[DW_BLUE] = (uint8_t)(n1 + n2 + n3);
                rp_action a[RP_MAX_LEGAL];
                const int n = G->legal_actions(&s, a);
                bool seen[DW_ACT_CANNON] = {false};
                int archers = 0;
                for (int i = 0; i < n; i++)
                    if (a[i] < DW_ACT_CANNON) {
                        assert_false(seen[a[i]]);
                        seen[a[i]] = true;
                        archers++;
                    }
                const int subsets = (n1 + 1) * (n2 + 1) * (n3 + 1) - 1;
                assert_int_equal(archers, DW_WALLS * subsets);
                for (int w = 0; w < DW_WALLS; w++)
                    for (int x = 0; x <= n1; x++)
                        for (int y = 0; y <= n2; y++)
                            for (int z = (x | y) ? 0 : 1; z <= n3; z++)
                                assert_true(seen[DW_ACT_ARCHERS + w * 343 + x * 49 + y * 7 + z]);
            }
}

/* turn_number counts the rulebook's turns (play then refill), Blue's odd, Red's even; the
 * notation carries it. */
static void test_turn_number_counts_turns(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1122X", "333222");
    assert_int_equal(G->turn_number(&s), 1);
    play(&s, "archers 1 wall 1");
    assert_int_equal(G->turn_number(&s), 1); /* the refill is part of the turn */
    finish_turn(&s);
    assert_int_equal(G->turn_number(&s), 2);
    assert_int_equal(G->current_player(&s), DW_RED);
    play(&s, "archers 3 wall 2");
    finish_turn(&s);
    assert_int_equal(G->turn_number(&s), 3);
    char text[RP_STATE_TEXT];
    G->state_to_text(&s, text, sizeof text);
    assert_non_null(strstr(text, "dw2 turn=3 to=blue phase=play "));
}

/* config_of: always two players and no other option, also for a state loaded from text;
 * rp_config_of keeps the seed it is given. */
static void test_config_of_reports_two_players(void **unused)
{
    (void)unused;
    dw_state s;
    rp_test_init(G, &s, "seed=4");
    char text[RP_STATE_TEXT];
    G->state_to_text(&s, text, sizeof text);
    dw_state t;
    rp_test_load(G, &t, text);
    rp_config base, cfg;
    rp_config_default(G, &base);
    base.seed = 99;
    base.players = 7;
    rp_config_of(G, &t, &base, &cfg);
    assert_int_equal(cfg.players, 2);
    assert_true(cfg.seed == 99);
    char opts[64];
    assert_true(rp_config_to_text(G, &cfg, opts, sizeof opts) > 0);
    assert_string_equal(opts, "players=2 seed=99");
}

/* state_ok on raw bytes: every field out of range or out of step is refused with a reason
 * (the server restores states from bytes), and the notation writer prints even a broken state
 * without reading out of bounds (the debug check prints it). */
static void test_state_ok_refuses_broken_bytes(void **unused)
{
    (void)unused;
    dw_state good;
    position(&good, "1G", "33K");
    place(&good, 2, DW_BLUE, "7");
    settle(&good);
    check_valid(&good);
    rp_error err = {{0}};
    assert_int_equal(G->state_ok(&good, &err), RP_OK);
    struct {
        int field;
        const char *why;
    } cases[] = {
        {0, "padding"},
        {1, "hand holds 2 cards, counted 3"},
        {2, "turn 2 is Red's"},
        {3, "Cannon stack at wall 2 holds something else"},
        {4, "a leader Blue does not play at walls"},
        {5, "no valid controller"},
        {6, "Spy is not in play, yet it has a target"},
        {7, "turn 0 is not in 1..49"},
        {8, "increment is even"},
        {9, "Flags are on walls, counted"},
        {10, "out of range"},
        {11, "wall 2 is unflagged and Blue is stronger"},
        {12, "a byte past the fifth wall is not zero"},
        {13, "Blue's Cannon stack at wall 2 is 8 high"},
        {14, "Cannon stack at wall 2 holds something else"},
        {15, "top Cannon at wall 2 are kept as 0 and 5, the cards there make 0 and 7"},
        {16, "top Cannon at wall 1 are kept as 2 and 0, the cards there make 0 and 0"},
        {17, "the player to act is not the seat to act"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        dw_state s = good;
        switch (cases[i].field) {
        case 0:
            s.pad_[1] = 1;
            break;
        case 1:
            s.hand_n[DW_BLUE] = 3;
            break;
        case 2:
            s.turn = 2;
            break;
        case 3:
            s.camp[DW_BLUE].cannon[1][1] = DW_C5;
            break;
        case 4:
            s.camp[DW_BLUE].leaders[0] = 1u << (DW_KING - DW_GENERAL);
            break;
        case 5:
            s.control[3] = 2;
            break;
        case 6:
            s.spy_on = DW_GENERAL;
            break;
        case 7:
            s.turn = 0;
            break;
        case 8:
            s.rng.inc &= ~(uint64_t)1;
            break;
        case 9:
            s.flags_on_board = 1;
            break;
        case 10:
            s.to_move = 7;
            break;
        case 11:
            s.control[1] = DW_RED;
            break;
        case 12:
            s.camp[DW_RED].archers[2][DW_WALLS] = 1; /* the legal plays read whole rows */
            break;
        case 13:
            s.camp[DW_BLUE].ncannon[1] = DW_STACK + 1;
            break;
        case 14:
            s.camp[DW_BLUE].cannon[1][DW_STACK] = DW_C5;
            break;
        case 15:
            s.camp[DW_BLUE].top[1] = 5; /* DW-7 reads the kept value */
            break;
        case 17:
            s.actor = RP_TERMINAL; /* the game is not over */
            break;
        default:
            s.camp[DW_BLUE].power[0] = 2;
            break;
        }
        err.msg[0] = '\0';
        assert_int_equal(G->state_ok(&s, &err), RP_EINVAL);
        if (!strstr(err.msg, cases[i].why))
            fail_msg("case %d: '%s' does not mention '%s'", cases[i].field, err.msg, cases[i].why);
        char text[RP_STATE_TEXT];
        assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    }
    dw_state wild;
    memset(&wild, 0xEE, sizeof wild);
    assert_int_equal(G->state_ok(&wild, &err), RP_EINVAL);
    char text[RP_STATE_TEXT];
    G->state_to_text(&wild, text, sizeof text); /* no overflow, whatever it says */
}

/* The events of `move` in s told to viewer (the move must be legal). */
static cJSON *events_of(const dw_state *s, const char *move, int viewer)
{
    rp_action a;
    rp_error err = {{0}};
    if (rp_parse_move(G, s, move, &a, &err) < 0)
        fail_msg("move '%s': %s", move, err.msg);
    cJSON *events = rp_events_cjson(G, s, a, viewer, &err);
    if (!events)
        fail_msg("events of '%s': %s", move, err.msg);
    return events;
}

/* The names of a JSON array joined by ',' (null as '?'), for comparing lists. */
static const char *joined(const cJSON *array, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    const cJSON *item;
    cJSON_ArrayForEach (item, array) {
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "",
                                cJSON_IsString(item) ? item->valuestring : "?");
    }
    return buf;
}

/* Event i has this kind, seat (-1: none) and text; cards, when given, are its "cards". */
static const cJSON *expect_event(const cJSON *events, int i, const char *kind, int seat,
                                 const char *text, const char *cards)
{
    const cJSON *e = cJSON_GetArrayItem(events, i);
    if (!e) {
        char *all = cJSON_Print(events);
        fail_msg("no event %d (wanted %s) in %s", i, kind, all);
    }
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kind");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "text");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "seat");
    assert_string_equal(k->valuestring, kind);
    assert_string_equal(t->valuestring, text);
    if (seat < 0)
        assert_null(st);
    else
        assert_int_equal(st->valueint, seat);
    if (cards) {
        char buf[256];
        assert_string_equal(joined(cJSON_GetObjectItemCaseSensitive(e, "cards"), buf, sizeof buf),
                            cards);
    }
    return e;
}

/* A number field of an event or view. */
static int number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsNumber(v));
    return v->valueint;
}

/* The events of a play are public: Blue, Red and the spectator are told the same. */
static cJSON *public_events(const dw_state *s, const char *move)
{
    cJSON *blue = events_of(s, move, DW_BLUE);
    cJSON *red = events_of(s, move, DW_RED);
    cJSON *spectator = events_of(s, move, RP_SPECTATOR);
    assert_true(cJSON_Compare(blue, red, true));
    assert_true(cJSON_Compare(blue, spectator, true));
    cJSON_Delete(red);
    cJSON_Delete(spectator);
    return blue;
}

/* Events of DW-3, DW-10 and DW-11: Archers to a wall with the strengths, the wall changing
 * hands, the refill announced; each draw named to the drawer only and counted for the others;
 * the next turn when the hand is full. */
static void test_events_archers_control_refill_and_draws(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "22X", "111111");
    place(&s, 1, DW_RED, "3");
    settle(&s);
    check_valid(&s);
    cJSON *ev = public_events(&s, "archers 2+2 wall 1");
    assert_int_equal(cJSON_GetArraySize(ev), 3);
    const cJSON *e = expect_event(
        ev, 0, "archers", DW_BLUE,
        "Blue plays archer-2 x2 at wall 1: Blue's strength there rises from 0 to 4 (Red 3).",
        "archer-2,archer-2");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal")));
    assert_int_equal(number(e, "wall"), 1);
    assert_int_equal(number(cJSON_GetObjectItemCaseSensitive(e, "strength_before"), "red"), 3);
    assert_int_equal(number(cJSON_GetObjectItemCaseSensitive(e, "strength"), "blue"), 4);
    e = expect_event(ev, 1, "control", DW_BLUE, "Blue takes wall 1 from Red, 4 to 3.", NULL);
    assert_null(cJSON_GetObjectItemCaseSensitive(e, "reveal"));
    char text[200];
    snprintf(text, sizeof text,
             "Blue refills: 5 cards to draw from their "
             "personal deck (8 left) or the main deck (%d left).",
             s.main_n);
    e = expect_event(ev, 2, "refill", DW_BLUE, text, NULL);
    assert_int_equal(number(e, "count"), 5);
    cJSON_Delete(ev);

    play(&s, "archers 2+2 wall 1");
    const int top = s.personal[DW_BLUE][s.personal_n[DW_BLUE] - 1];
    snprintf(text, sizeof text, "Blue draws %s from their personal deck.",
             top == DW_ASSASSIN ? "assassin" : "?");
    ev = events_of(&s, "draw personal", DW_BLUE);
    e = expect_event(ev, 0, "draw", DW_BLUE, text, "assassin");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal")));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "from")->valuestring, "personal");
    assert_int_equal(cJSON_GetArraySize(ev), 1);
    cJSON_Delete(ev);
    for (int viewer = RP_SPECTATOR; viewer <= DW_RED; viewer += viewer == RP_SPECTATOR ? 3 : 1) {
        ev = events_of(&s, "draw personal", viewer);
        e = expect_event(ev, 0, "draw", DW_BLUE, "Blue draws a card from their personal deck.",
                         "?");
        assert_true(
            cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "cards"), 0)));
        assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal")));
        char *printed = cJSON_PrintUnformatted(ev);
        assert_null(strstr(printed, "assassin"));
        free(printed);
        cJSON_Delete(ev);
    }
    for (int i = 0; i < 4; i++)
        play(&s, "draw main");
    ev = events_of(&s, "draw main", RP_SPECTATOR);
    expect_event(ev, 0, "draw", DW_BLUE, "Blue draws a card from the main deck.", "?");
    e = expect_event(ev, 1, "turn", DW_RED, "Turn 2: Red to play.", NULL);
    assert_int_equal(number(e, "turn"), 2);
    assert_int_equal(cJSON_GetArraySize(ev), 2);
    cJSON_Delete(ev);
}

/* DW-5 in events: a Cannon on top of another; DW-7: a Leader's effect on the strength;
 * DW-10: the wall changing hands to Red. */
static void test_events_cannon_and_leader(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "9", "111111");
    place(&s, 2, DW_BLUE, "5");
    settle(&s);
    cJSON *ev = public_events(&s, "cannon 9 wall 2");
    expect_event(ev, 0, "cannon", DW_BLUE,
                 "Blue plays cannon-9 at wall 2, on top of cannon-5: "
                 "Blue's strength there rises from 5 to 9 (Red 0).",
                 "cannon-9");
    assert_string_equal(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ev, 1), "kind")->valuestring, "refill");
    assert_int_equal(cJSON_GetArraySize(ev), 2); /* Blue held wall 2 already */
    cJSON_Delete(ev);

    position(&s, "1", "K3");
    turn_of(&s, DW_RED);
    place(&s, 1, DW_RED, "2");
    place(&s, 1, DW_BLUE, "3");
    settle(&s);
    check_valid(&s);
    ev = public_events(&s, "king wall 1");
    expect_event(ev, 0, "leader", DW_RED,
                 "Red plays king at wall 1: Red's strength there rises "
                 "from 2 to 4 (Blue 3).",
                 "king");
    expect_event(ev, 1, "control", DW_RED, "Red takes wall 1 from Blue, 4 to 3.", NULL);
    cJSON_Delete(ev);
}

/* DW-6 in events: the Attack, what it removed, and the spied Archer that stays. */
static void test_events_attack(void **unused)
{
    (void)unused;
    dw_state s;
    spied_archers_position(&s);
    check_valid(&s);
    cJSON *ev = public_events(&s, "attack archers wall 2");
    const cJSON *e = expect_event(ev, 0, "attack", DW_RED,
                                  "Red plays attack at wall 2, removing "
                                  "Blue's archer-1 x2 and archer-2 (the spied archer-3 "
                                  "cannot be moved and stays): Blue's strength there falls "
                                  "from 4 to 0 (Red 6).",
                                  "attack");
    char buf[128];
    assert_string_equal(joined(cJSON_GetObjectItemCaseSensitive(e, "removed"), buf, sizeof buf),
                        "archer-1,archer-1,archer-2");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "target")->valuestring, "archers");
    cJSON_Delete(ev);

    position(&s, "X1", "222222");
    place(&s, 3, DW_RED, "58");
    place(&s, 3, DW_BLUE, "9");
    settle(&s);
    ev = public_events(&s, "attack cannon wall 3");
    e = expect_event(ev, 0, "attack", DW_BLUE,
                     "Blue plays attack at wall 3, removing Red's "
                     "cannon-8: Red's strength there falls from 8 to 5 (Blue 9).",
                     "attack");
    assert_string_equal(joined(cJSON_GetObjectItemCaseSensitive(e, "removed"), buf, sizeof buf),
                        "cannon-8");
    cJSON_Delete(ev);
}

/* DW-8 and DW-9 in events: the Spy and what it covers; the Assassin removing the Spy and
 * freeing its card; DW-4: a discard. */
static void test_events_spy_assassin_discard(void **unused)
{
    (void)unused;
    dw_state s;
    spy_position(&s);
    cJSON *ev = public_events(&s, "spy general wall 1");
    const cJSON *e = expect_event(ev, 0, "spy", DW_RED,
                                  "Red plays spy on Blue's general at "
                                  "wall 1, which no longer counts: Blue's strength there falls "
                                  "from 20 to 10 (Red 0).",
                                  "spy");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "target")->valuestring, "general");
    cJSON_Delete(ev);

    assassin_position(&s);
    check_valid(&s);
    ev = public_events(&s, "assassin spy wall 3");
    e = expect_event(ev, 0, "assassin", DW_BLUE,
                     "Blue plays assassin at wall 3, removing Red's "
                     "spy, which frees Blue's general: Blue's strength there rises from 2 to 4 "
                     "(Red 0).",
                     "assassin");
    char buf[64];
    assert_string_equal(joined(cJSON_GetObjectItemCaseSensitive(e, "removed"), buf, sizeof buf),
                        "spy");
    cJSON_Delete(ev);

    position(&s, "X", "222222");
    place(&s, 1, DW_RED, "7");
    settle(&s);
    ev = public_events(&s, "discard attack");
    e = expect_event(ev, 0, "discard", DW_BLUE,
                     "Blue has no card that can be played and "
                     "discards attack (DW-4).",
                     "attack");
    assert_null(cJSON_GetObjectItemCaseSensitive(e, "wall"));
    cJSON_Delete(ev);
}

/* DW-2 and DW-12 in events: the third Flag, the last-turn announcement when the turn ends,
 * the last turn, and the end of the game with its reason and score. */
static void test_events_third_flag_last_turn_and_end(void **unused)
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
    cJSON *ev = public_events(&s, "flag wall 3");
    expect_event(ev, 0, "flag", DW_BLUE,
                 "Blue plays flag on wall 3: Red holds the wall for the "
                 "rest of the game (Flags on the board: 3).",
                 "flag");
    cJSON_Delete(ev);
    play(&s, "flag wall 3");
    while (s.hand_n[DW_BLUE] < 5)
        play(&s, "draw main");
    ev = events_of(&s, "draw main", DW_RED);
    expect_event(ev, 0, "draw", DW_BLUE, "Blue draws a card from the main deck.", "?");
    const cJSON *e = expect_event(ev, 1, "last-turn", DW_RED,
                                  "The third Flag is on the board: "
                                  "Red takes one last turn (DW-12).",
                                  NULL);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "reason")->valuestring, "third-flag");
    expect_event(ev, 2, "turn", DW_RED, "Turn 2: Red to play, the last turn.", NULL);
    cJSON_Delete(ev);
    play(&s, "draw main");
    play(&s, "archers 1 wall 2");
    ev = events_of(&s, "draw main", RP_SPECTATOR);
    expect_event(ev, 0, "draw", DW_RED, "Red draws a card from the main deck.", "?");
    e = expect_event(ev, 1, "game-over", DW_RED,
                     "Red controls 5 walls to 0 after the third "
                     "Flag: Red wins.",
                     NULL);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "winner")->valuestring, "red");
    assert_int_equal(number(cJSON_GetObjectItemCaseSensitive(e, "walls"), "blue"), 0);
    assert_int_equal(cJSON_GetArraySize(ev), 2);
    cJSON_Delete(ev);
}

/* DW-12 in events, the other end: a hand empty with both decks empty. */
static void test_events_empty_hand_end(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1", "33");
    empty_decks(&s, 0);
    check_valid(&s);
    cJSON *ev = public_events(&s, "archers 1 wall 1");
    expect_event(ev, 0, "archers", DW_BLUE,
                 "Blue plays archer-1 at wall 1: Blue's strength "
                 "there rises from 0 to 1 (Red 0).",
                 "archer-1");
    expect_event(ev, 1, "control", DW_BLUE, "Blue takes wall 1 from Red, 1 to 0.", NULL);
    expect_event(ev, 2, "refill", DW_BLUE, "Blue cannot refill: both decks are empty.", NULL);
    expect_event(ev, 3, "last-turn", DW_RED,
                 "Blue has no cards left and both decks are empty: "
                 "Red takes one last turn (DW-12).",
                 NULL);
    expect_event(ev, 4, "turn", DW_RED, "Turn 2: Red to play, the last turn.", NULL);
    cJSON_Delete(ev);
    play(&s, "archers 1 wall 1");
    ev = public_events(&s, "archers 3 wall 1");
    expect_event(ev, 2, "refill", DW_RED,
                 "Red refills: 5 cards to draw from "
                 "their personal deck (8 left).",
                 NULL);
    cJSON_Delete(ev);
    play(&s, "archers 3 wall 1");
    while (s.hand_n[DW_RED] < 5)
        play(&s, "draw personal");
    ev = events_of(&s, "draw personal", DW_BLUE);
    const cJSON *e = expect_event(ev, 1, "game-over", DW_RED,
                                  "Red controls 5 walls to 0 after "
                                  "Blue ran out of cards: Red wins.",
                                  NULL);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "reason")->valuestring, "empty-hand");
    cJSON_Delete(ev);
}

/* The view as plain data for the spectator and the seats (issue 12): arrays of card names,
 * the hand only for its owner (null for the spectator), sizes for everyone, the Flag and the
 * Spy as cards; render shows the spectator no hand. */
static void test_views_for_seats_and_spectator(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1G", "33KF");
    place(&s, 1, DW_BLUE, "27N");
    take(&s, DW_SPY, DW_RED);
    s.spy_wall = 1;
    s.spy_on = DW_SPY_ON_CANNON;
    take(&s, DW_FLAG, DW_RED);
    s.flag[3] = 2;
    s.flags_on_board = 1;
    settle(&s);
    check_valid(&s);
    char *spectator = rp_view_text(G, &s, RP_SPECTATOR, false);
    assert_non_null(strstr(spectator, "\"seat\":null"));
    assert_non_null(strstr(spectator, "\"hand\":null,\"personal_deck\":null"));
    assert_non_null(strstr(spectator, "\"hand_sizes\":{\"blue\":2,\"red\":4}"));
    assert_non_null(strstr(spectator, "\"blue\":{\"archers\":[\"archer-2\"],\"cannons\":"
                                      "[\"cannon-7\"],\"leaders\":[\"noble\"],\"strength\":4}"));
    assert_non_null(strstr(spectator, "\"spy\":{\"card\":\"spy\",\"wall\":1,\"covers\":"
                                      "\"cannon-7\",\"cannon\":0,\"buried\":false}"));
    assert_non_null(strstr(spectator, "\"flag\":{\"card\":\"flag\",\"by\":\"red\"}"));
    assert_null(strstr(spectator, "general"));
    assert_null(strstr(spectator, "king"));
    char *red = rp_view_text(G, &s, DW_RED, false);
    assert_non_null(strstr(red, "\"seat\":1,"));
    assert_non_null(strstr(red, "\"hand\":[\"archer-3\",\"archer-3\",\"flag\",\"king\"]"));
    assert_null(strstr(red, "general"));
    free(spectator);
    free(red);
    char *screen = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&screen, &len);
    G->render(&s, RP_SPECTATOR, f, false);
    fclose(f);
    assert_non_null(strstr(screen, "You are watching."));
    assert_non_null(strstr(screen, "cannon-7 (spied)"));
    assert_non_null(strstr(screen, "flag by Red"));
    assert_null(strstr(screen, "Your hand"));
    assert_null(strstr(screen, "general"));
    free(screen);
}

/* Every action as data: kind, the cards from the hand, the wall, the target. */
static void test_actions_as_data(void **unused)
{
    (void)unused;
    dw_state s;
    spy_position(&s);
    struct {
        const char *move, *json;
    } cases[] = {
        {"archers 3 wall 2", "{\"id\":344,\"text\":\"archers 3 wall 2\",\"kind\":\"archers\","
                             "\"cards\":[\"archer-3\"],\"wall\":2}"},
        {"spy cannon wall 1", "{\"id\":1788,\"text\":\"spy cannon wall 1\",\"kind\":\"spy\","
                              "\"cards\":[\"spy\"],\"wall\":1,\"target\":\"cannon-7\"}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rp_action a;
        rp_error err = {{0}};
        assert_int_equal(rp_parse_move(G, &s, cases[i].move, &a, &err), RP_OK);
        cJSON *o = rp_action_cjson(G, &s, a);
        char *text = cJSON_PrintUnformatted(o);
        assert_string_equal(text, cases[i].json);
        free(text);
        cJSON_Delete(o);
    }
    struct {
        rp_action id;
        const char *json;
    } any[] = {
        {DW_ACT_ARCHERS + 343 + 2 * 49 + 1, "{\"kind\":\"archers\",\"cards\":[\"archer-1\","
                                            "\"archer-1\",\"archer-3\"],\"wall\":2}"},
        {DW_ACT_CANNON + 4 * 5 + 2, "{\"kind\":\"cannon\",\"cards\":[\"cannon-7\"],\"wall\":5}"},
        {DW_ACT_FLAG + 2, "{\"kind\":\"flag\",\"cards\":[\"flag\"],\"wall\":3}"},
        {DW_ACT_ATTACK + 3, "{\"kind\":\"attack\",\"cards\":[\"attack\"],\"wall\":2,"
                            "\"target\":\"archers\"}"},
        {DW_ACT_LEADER + 6 + 4, "{\"kind\":\"leader\",\"cards\":[\"wizard\"],\"wall\":2}"},
        {DW_ACT_ASSASSIN + 4 * 8 + 7, "{\"kind\":\"assassin\",\"cards\":[\"assassin\"],"
                                      "\"wall\":5,\"target\":\"spy\"}"},
        {DW_ACT_DISCARD + DW_C6, "{\"kind\":\"discard\",\"cards\":[\"cannon-6\"]}"},
        {DW_ACT_DRAW_MAIN, "{\"kind\":\"draw\",\"from\":\"main\"}"},
    };
    for (size_t i = 0; i < sizeof any / sizeof *any; i++) {
        cJSON *o = G->json->action(&s, any[i].id);
        char *text = cJSON_PrintUnformatted(o);
        assert_string_equal(text, any[i].json);
        free(text);
        cJSON_Delete(o);
    }
}

/* explain_illegal says why in the game's terms: the card not held, the rule and its id. */
static void test_explain_illegal(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "112X", "222222");
    take(&s, DW_FLAG, DW_RED);
    s.flag[2] = 2;
    s.flags_on_board = 1;
    check_valid(&s);
    struct {
        const char *move, *why;
    } cases[] = {
        {"cannon 7 wall 1", "you do not hold cannon-7: your hand is archer-1 x2, archer-2 and "
                            "attack"},
        {"archers 1+1+1 wall 1", "you hold only 2 archer-1: your hand is archer-1 x2, archer-2 "
                                 "and attack"},
        {"attack cannon wall 1", "a Cannon Attack needs your own Cannon at the wall it attacks, "
                                 "and you have none at wall 1 (DW-6)"},
        {"king wall 1", "king is Red's card, not yours"},
        {"draw main", "you draw only after your play, to refill your hand (DW-11)"},
        {"discard attack", "you may discard only when no card in your hand can be played "
                           "(DW-4), and you can play e.g. 'archers 2 wall 1'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rp_action a;
        rp_error err = {{0}};
        assert_int_equal(G->action_from_text(&s, cases[i].move, &a, &err), RP_OK);
        char why[RP_ERROR_TEXT];
        assert_true(G->explain_illegal(&s, a, why, sizeof why) > 0);
        assert_string_equal(why, cases[i].why);
    }
    char why[RP_ERROR_TEXT];
    assert_true(G->explain_illegal(&s, DW_ACT_ARCHERS + 49, why, sizeof why) < 0); /* legal */

    dw_state f;
    position(&f, "F", "222222");
    take(&f, DW_FLAG, DW_RED);
    f.flag[2] = 2;
    f.flags_on_board = 1;
    assert_true(G->explain_illegal(&f, DW_ACT_FLAG + 2, why, sizeof why) > 0);
    assert_string_equal(why, "wall 3 already has a Flag: a Flag goes on a wall without one "
                             "(DW-2)");

    dw_state r;
    position(&r, "1", "XS2222");
    turn_of(&r, DW_RED);
    place(&r, 4, DW_BLUE, "7");
    place(&r, 4, DW_RED, "5");
    settle(&r);
    check_valid(&r);
    rp_action a;
    rp_error err = {{0}};
    G->action_from_text(&r, "attack archers wall 4", &a, &err);
    G->explain_illegal(&r, a, why, sizeof why);
    assert_string_equal(why, "Blue has no Archers at wall 4 to remove");
    G->action_from_text(&r, "spy archer 2 wall 4", &a, &err);
    G->explain_illegal(&r, a, why, sizeof why);
    assert_string_equal(why, "Blue has no archer-2 at wall 4 for the Spy to cover (DW-8)");
    play(&r, "archers 2 wall 1");
    G->explain_illegal(&r, DW_ACT_CANNON, why, sizeof why);
    assert_string_equal(why, "you have made your play: refill your hand with 'draw personal' "
                             "or 'draw main' (DW-11)");
}

/* moves_summary groups the legal plays by kind and wall (an 80x24 screen cannot list 40-80
 * Archer sets); each part names exactly the walls where that play is legal. A short list (a
 * refill) is left to the numbered menu. */
static void test_moves_summary(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "112G9F", "222222");
    take(&s, DW_FLAG, DW_RED);
    s.flag[1] = 2;
    s.flags_on_board = 1;
    check_valid(&s);
    char buf[512];
    assert_true(G->moves_summary(&s, buf, sizeof buf) > 0);
    assert_string_equal(buf, "archers <some of 1+1+2> wall <1-5>; cannon 9 wall <1-5>; flag "
                             "wall <1|3|4|5>; general wall <1-5>");
    position(&s, "1", "X6S1");
    turn_of(&s, DW_RED);
    place(&s, 3, DW_RED, "5");
    place(&s, 3, DW_BLUE, "27");
    settle(&s);
    check_valid(&s);
    assert_true(G->moves_summary(&s, buf, sizeof buf) > 0);
    assert_string_equal(buf, "archers 1 wall <1-5>; cannon 6 wall <1-5>; attack "
                             "<cannon|archers> wall 3; spy <archer 2|cannon> wall 3");
    play(&s, "archers 1 wall 1");
    assert_true(G->moves_summary(&s, buf, sizeof buf) < 0);
}

/* secret_names against the referee's state: for Blue, Red and the spectator, the names of
 * cards in places they cannot see that are shown nowhere they can. */
static void test_secret_names(void **unused)
{
    (void)unused;
    dw_state s;
    position(&s, "1G", "33K");
    check_valid(&s);
    char buf[512];
    assert_true(G->secret_names(&s, DW_BLUE, buf, sizeof buf) > 0);
    assert_string_equal(buf, "archer-2 archer-3 cannon-5 cannon-7 cannon-9 king wizard builder "
                             "spy");
    assert_true(G->secret_names(&s, DW_RED, buf, sizeof buf) > 0);
    assert_string_equal(buf, "archer-2 cannon-5 cannon-7 cannon-9 general noble engineer "
                             "assassin");
    assert_true(G->secret_names(&s, RP_SPECTATOR, buf, sizeof buf) > 0);
    assert_string_equal(buf, "archer-2 archer-3 cannon-5 cannon-6 cannon-7 cannon-8 cannon-9 "
                             "flag attack general noble engineer assassin king wizard builder "
                             "spy");
    assert_true(G->secret_names(&s, DW_BLUE, buf, 8) < 0);
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
            const dw_side side = dw_side_at(s, w, p), *sd = &side;
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

/* The words of secret_names(s, viewer): up to 18 names, pointing into buf. */
static int secret_words(const dw_state *s, int viewer, char *buf, size_t size, char **words)
{
    assert_true(G->secret_names(s, viewer, buf, size) >= 0);
    int n = 0;
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
        words[n++] = w;
    return n;
}

/* Whether the card of face f lies where viewer cannot see it: the main deck, or a hand or
 * personal deck that is not the viewer's. */
static bool hidden_from(const dw_state *s, int f, int viewer)
{
    for (int i = 0; i < s->main_n; i++)
        if (s->main[i] == f)
            return true;
    for (int q = 0; q < 2; q++) {
        if (q == viewer)
            continue;
        if (s->hand[q][f])
            return true;
        for (int i = 0; i < s->personal_n[q]; i++)
            if (s->personal[q][i] == f)
                return true;
    }
    return false;
}

/* Whether some string value of the JSON tree is `name` (keys do not count). */
static bool names_card(const cJSON *item, const char *name)
{
    for (; item; item = item->next)
        if ((cJSON_IsString(item) && strcmp(item->valuestring, name) == 0) ||
            names_card(item->child, name))
            return true;
    return false;
}

/* secret_names against the referee's state and the view: a name is secret exactly when its
 * card lies hidden from the viewer and the viewer's view names it nowhere. */
static void check_secret_names(const dw_state *s, int viewer)
{
    static const char *const names[DW_FACES] = {
        "archer-1", "archer-2", "archer-3", "cannon-5", "cannon-6", "cannon-7",
        "cannon-8", "cannon-9", "flag",     "attack",   "general",  "noble",
        "engineer", "assassin", "king",     "wizard",   "builder",  "spy"};
    char buf[512], *words[DW_FACES + 1];
    const int n = secret_words(s, viewer, buf, sizeof buf, words);
    cJSON *view = G->json->view(s, viewer);
    for (int f = 0; f < DW_FACES; f++) {
        const bool secret = hidden_from(s, f, viewer) && !names_card(view, names[f]);
        bool listed = false;
        for (int i = 0; i < n; i++)
            listed |= strcmp(words[i], names[f]) == 0;
        if (secret != listed)
            fail_msg("secret_names for viewer %d %s %s", viewer, listed ? "lists" : "misses",
                     names[f]);
    }
    cJSON_Delete(view);
}

/* No secret name of the viewer in `text` (a screen, or the events told them). */
static void check_no_secret(const char *text, char **words, int n, const char *what, int viewer)
{
    for (int i = 0; i < n; i++)
        if (strstr(text, words[i]))
            fail_msg("%s for viewer %d names %s, which they may not see:\n%s", what, viewer,
                     words[i], text);
}

/* The screen of viewer: at most 80 columns a line, and no name they may not learn. */
static void check_screen(const dw_state *s, int viewer)
{
    char *screen = NULL, buf[512], *words[DW_FACES + 1];
    size_t len = 0;
    FILE *f = open_memstream(&screen, &len);
    G->render(s, viewer, f, false);
    fclose(f);
    for (const char *line = screen; *line;) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        if (end - line > 80)
            fail_msg("a line of %d columns:\n%s", (int)(end - line), screen);
        line = end + 1;
    }
    const int n = secret_words(s, viewer, buf, sizeof buf, words);
    check_no_secret(screen, words, n, "the screen", viewer);
    free(screen);
}

/* The events of action for viewer name nothing secret from them both before and after it. */
static void check_events_keep_secrets(const dw_state *s, rp_action action, int viewer)
{
    dw_state after = *s;
    G->apply(&after, action);
    char before_buf[512], after_buf[512], *before[DW_FACES + 1], *later[DW_FACES + 1];
    const int nb = secret_words(s, viewer, before_buf, sizeof before_buf, before);
    const int na = secret_words(&after, viewer, after_buf, sizeof after_buf, later);
    char *both[DW_FACES + 1];
    int n = 0;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < na; j++)
            if (strcmp(before[i], later[j]) == 0)
                both[n++] = before[i];
    cJSON *events = G->json->events(s, action, viewer);
    assert_non_null(events);
    char *text = cJSON_PrintUnformatted(events);
    check_no_secret(text, both, n, "the events", viewer);
    free(text);
    cJSON_Delete(events);
}

/* One game in FULL_EVERY gets the costly checks at every step, the others at one random step:
 * the generic checks (every viewer's view, determinizing, screen and events; actions as data),
 * secret names against the referee, screens and events that keep secrets. The cheap ones run
 * at every step of every game: the game's invariants (state_ok runs in every apply of a debug
 * build), the full-state notation round trip, evaluate in range. This keeps the default run
 * (RP_TEST_SOAK_GAMES games) near a minute under ASan; RAMPARTS_PROPERTY_GAMES sets the size. */
#define FULL_EVERY 100

/* dw_eval_features (docs/ai.md, "Issue 50, stronger at equal time") from what `viewer` may
 * know (DW-13): dealing afresh what it cannot see (d) changes none of them. */
static void check_eval_features_unchanged(const dw_state *s, const dw_state *d, int viewer)
{
    double before[DW_EVAL_FEATURES], dealt[DW_EVAL_FEATURES];
    dw_eval_features(s, viewer, before);
    dw_eval_features(d, viewer, dealt);
    for (int f = 0; f < DW_EVAL_FEATURES; f++)
        assert_true(dealt[f] == before[f]);
}

static void costly_checks(const dw_state *s, rp_rng *rng)
{
    rp_test_check_step(G, s, rng);
    rp_action a[RP_MAX_LEGAL];
    const int n = G->legal_actions(s, a);
    const rp_action action = a[rp_rng_below(rng, (uint32_t)n)];
    for (int viewer = RP_SPECTATOR; viewer <= DW_RED; viewer++) {
        if (viewer == RP_TERMINAL)
            continue;
        check_secret_names(s, viewer);
        check_screen(s, viewer);
        check_events_keep_secrets(s, action, viewer);
        dw_state d = *s; /* a determinized state is itself a valid state */
        G->determinize(&d, viewer, rng);
        check_valid(&d);
        check_invariants(&d);
        if (viewer >= 0) /* evaluate reads only what the seat can see */
            assert_true(G->evaluate(&d, viewer) == G->evaluate(s, viewer));
        if (viewer >= 0) /* and so do a fitted evaluation's features (DW-13) */
            check_eval_features_unchanged(s, &d, viewer);
    }
}

static void test_property_random_games(void **unused)
{
    (void)unused;
    const int games = rp_test_games(RP_TEST_SOAK_GAMES);
    rp_rng rng;
    rp_rng_seed(&rng, 77, 3);
    long wins[2] = {0, 0};
    for (int g = 0; g < games; g++) {
        dw_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", g);
        rp_test_init(G, &s, opts);
        const int sample = (int)rp_rng_below(&rng, 60); /* games last 60 to 150 actions */
        int steps = 0;
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_true(++steps < 400); /* every game ends: at most 49 plays and their draws */
            if (g % FULL_EVERY == 0 || steps == sample)
                costly_checks(&s, &rng);
            check_valid(&s);
            check_invariants(&s);
            const double e = G->evaluate(&s, DW_BLUE);
            assert_true(e >= 0.0 && e <= 1.0);
            rp_test_random_step(G, &s, &rng);
        }
        check_valid(&s);
        check_invariants(&s);
        rp_test_check_returns(G, &s);
        double r[2];
        G->returns(&s, r);
        wins[r[DW_RED] > 0.5]++;
    }
    assert_true(wins[0] > 0 && wins[1] > 0);
}

/* DW-7 from the cards on the wall, one rule at a time: A the active Archers' values, C the
 * active top Cannon (DW-5), the Wizard and the Builder zeroing both sides' A and C, Blue =
 * (A*n + C*e)*g and Red = (A + C)*k; a card the Spy covers is not active (DW-8). */
static int plain_strength(const dw_state *s, int w, int seat)
{
    const dw_side sd = dw_side_at(s, w, seat), red = dw_side_at(s, w, DW_RED);
    const bool spy_here = seat == DW_BLUE && s->spy_wall == w + 1;
    unsigned leaders = sd.leaders;
    if (spy_here && s->spy_on >= DW_GENERAL && s->spy_on <= DW_ENGINEER)
        leaders &= ~LB(s->spy_on);
    int a = sd.archers[0] + 2 * sd.archers[1] + 3 * sd.archers[2];
    int c = sd.ncannon ? sd.cannon[sd.ncannon - 1] - DW_C5 + 5 : 0;
    if (spy_here && s->spy_on == DW_SPY_ON_CANNON && s->spy_depth == sd.ncannon - 1)
        c = 0;
    if (red.leaders & LB(DW_WIZARD))
        a = 0;
    if (red.leaders & LB(DW_BUILDER))
        c = 0;
    if (seat == DW_RED)
        return (a + c) * (leaders & LB(DW_KING) ? 2 : 1);
    return (a * (leaders & LB(DW_NOBLE) ? 2 : 1) + c * (leaders & LB(DW_ENGINEER) ? 2 : 1)) *
           (leaders & LB(DW_GENERAL) ? 2 : 1);
}

/* apply keeps each wall's Archer strength and top Cannon and re-evaluates control only after
 * a play that can change it (rules.c, gained_wall): after every action of many random games
 * the strengths are DW-7's from the cards, and every unflagged wall is held by the stronger
 * side, or by its holder before the action on a tie (DW-10). */
static void test_DW10_control_after_every_action_matches_the_cards(void **unused)
{
    (void)unused;
    const int games = rp_test_games(300);
    rp_rng rng;
    rp_rng_seed(&rng, 10, 7);
    for (int g = 0; g < games; g++) {
        dw_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", 9000 + g);
        rp_test_init(G, &s, opts);
        while (G->current_player(&s) != RP_TERMINAL) {
            uint8_t before[DW_WALLS];
            memcpy(before, s.control, sizeof before);
            rp_test_random_step(G, &s, &rng);
            for (int w = 0; w < DW_WALLS; w++) {
                const int b = plain_strength(&s, w, DW_BLUE), r = plain_strength(&s, w, DW_RED);
                assert_int_equal(dw_strength(&s, w, DW_BLUE), b);
                assert_int_equal(dw_strength(&s, w, DW_RED), r);
                const int holder = s.flag[w] || b == r ? before[w] : b > r ? DW_BLUE : DW_RED;
                assert_int_equal(s.control[w], holder);
            }
        }
    }
}

/* The turn's course after one action, by DW-11 and DW-12 one rule at a time, into `want`
 * (a copy of the state after the action, its turn fields rewritten): the refill goes on while
 * the hand has room and a deck has a card; else the turn ends, the last one ending the game,
 * and three Flags on the board or an empty hand making the next turn the last, skipped when
 * that player has no card. Returns whether the action ended a turn because of DW-12. */
static bool plain_turn_course(const dw_state *before, const dw_state *after, dw_state *want)
{
    const int p = before->to_move, q = p ^ 1;
    *want = *after;
    want->to_move = (uint8_t)p;
    want->turn = before->turn;
    want->last_turn = before->last_turn;
    want->over = 0;
    if (after->hand_n[p] < DW_HAND && (after->personal_n[p] || after->main_n)) {
        want->phase = DW_PHASE_REFILL;
        dw_set_actor(want);
        return false;
    }
    want->phase = DW_PHASE_PLAY;
    if (before->last_turn) {
        want->over = 1;
        dw_set_actor(want);
        return true;
    }
    want->last_turn = after->flags_on_board >= 3 ? DW_LAST_FLAGS
                      : after->hand_n[p] == 0    ? DW_LAST_EMPTY_HAND
                                                 : DW_LAST_NO;
    want->to_move = (uint8_t)q;
    want->turn = (uint8_t)(before->turn + 1);
    want->over = want->last_turn && after->hand_n[q] == 0;
    dw_set_actor(want);
    return want->last_turn != DW_LAST_NO;
}

/* apply ends a turn on its own short path unless DW-12 has something to say (rules.c,
 * end_turn): after every action of many random games the turn, the seat to act, the phase,
 * the last turn's reason and the end of the game are those of the plain course above, and the
 * games reach both reasons for a last turn. */
static void test_DW11_DW12_turn_course_matches_a_plain_reference(void **unused)
{
    (void)unused;
    /* at least 100 games: fewer may meet no empty hand (about one game in fifteen does) */
    const int asked = rp_test_games(300), games = asked > 100 ? asked : 100;
    rp_rng rng;
    rp_rng_seed(&rng, 12, 7);
    int reasons[3] = {0, 0, 0};
    for (int g = 0; g < games; g++) {
        dw_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", 7000 + g);
        rp_test_init(G, &s, opts);
        while (G->current_player(&s) != RP_TERMINAL) {
            const dw_state before = s;
            rp_test_random_step(G, &s, &rng);
            dw_state want;
            if (plain_turn_course(&before, &s, &want) && !before.last_turn)
                reasons[want.last_turn]++;
            assert_memory_equal(&s, &want, sizeof s);
        }
    }
    assert_true(reasons[DW_LAST_FLAGS] > 0 && reasons[DW_LAST_EMPTY_HAND] > 0);
}

/* Whether the top Cannon of Blue's side of wall w is the one the Spy covers (DW-8, DW-P1). */
static bool spied_top_cannon(const dw_state *s, int w)
{
    return s->spy_wall == w + 1 && s->spy_on == DW_SPY_ON_CANNON &&
           s->spy_depth + 1 == s->camp[DW_BLUE].ncannon[w];
}

/* A play of the player to move, by the rules one at a time, for the reference below: the
 * cards it takes are in the hand (DW-3), a Flag goes to a wall without one (DW-2), a Cannon
 * Attack needs the attacker's own active top Cannon and a target that shows (DW-6, DW-P1:
 * no spied Cannon attacks or is attacked), the Spy covers a Blue card in play (DW-8) and the
 * Assassin removes a visible Red card (DW-9, DW-P2). Discards (DW-4) are left to the caller. */
static bool reference_play(const dw_state *s, rp_action a)
{
    const int p = s->to_move, q = p ^ 1;
    const dw_move m = dw_decode(a);
    int cards = 0;
    for (int f = 0; f < DW_FACES; f++) {
        if (m.cards[f] > s->hand[p][f])
            return false;
        cards += m.cards[f];
    }
    if (cards == 0)
        return false; /* an Archer id of no Archers */
    const dw_side mine_side = dw_side_at(s, m.wall, p), *mine = &mine_side;
    const dw_side their_side = dw_side_at(s, m.wall, q), *theirs = &their_side;
    switch (m.kind) {
    case K_ARCHERS:
    case K_CANNON:
    case K_LEADER:
        return true;
    case K_FLAG:
        return s->flag[m.wall] == 0;
    case K_ATTACK:
        if (mine->ncannon == 0 || (p == DW_BLUE && spied_top_cannon(s, m.wall)))
            return false;
        if (m.target == 0)
            return theirs->ncannon > 0 && !(q == DW_BLUE && spied_top_cannon(s, m.wall));
        return theirs->archers[0] + theirs->archers[1] + theirs->archers[2] > 0;
    case K_SPY:
    case K_ASSASSIN: {
        if (m.target == 7)
            return s->spy_wall == m.wall + 1 && dw_spy_visible(s);
        const dw_side at_side = dw_side_at(s, m.wall, m.kind == K_SPY ? DW_BLUE : DW_RED),
                      *at = &at_side;
        if (m.target < 3)
            return at->archers[m.target] > 0;
        if (m.target == 3)
            return at->ncannon > 0;
        return (at->leaders & LB(dw_target_face(s, &m))) != 0;
    }
    default:
        return false;
    }
}

static int compare_actions(const void *a, const void *b)
{
    const rp_action x = *(const rp_action *)a, y = *(const rp_action *)b;
    return (x > y) - (x < y);
}

/* Where an action comes in the list legal_actions writes (the bench signatures depend on the
 * order): by action id, but a Cannon's and a Leader's five walls together, by face, then wall. */
static int listing_key(rp_action a)
{
    if (a >= DW_ACT_CANNON && a < DW_ACT_FLAG)
        return DW_ACT_CANNON + (int)(a - DW_ACT_CANNON) % 5 * 5 + (int)(a - DW_ACT_CANNON) / 5;
    if (a >= DW_ACT_LEADER && a < DW_ACT_SPY)
        return DW_ACT_LEADER + (int)(a - DW_ACT_LEADER) % 6 * 5 + (int)(a - DW_ACT_LEADER) / 6;
    return (int)a;
}

/* legal_actions lists its plays from tables and word tricks (rules.c, legal_plays): on every
 * play decision of many random games it lists exactly the plays the reference above allows
 * one action id at a time, each once and in the order of listing_key, and the discards of DW-4
 * only when no play exists. The games reach the Spy on a Cannon with a Cannon Attack in hand
 * (DW-P1), which the count checks. */
static void test_legal_plays_match_a_plain_reference(void **unused)
{
    (void)unused;
    /* at least the quick size: fewer games may never reach a spied Cannon */
    const int asked = rp_test_games(1000), games = asked > 150 ? asked : 150;
    rp_rng rng;
    rp_rng_seed(&rng, 50, 7);
    int spied_attacks = 0;
    for (int g = 0; g < games; g++) {
        dw_state s;
        char opts[32];
        snprintf(opts, sizeof opts, "seed=%d", 5000 + g);
        rp_test_init(G, &s, opts);
        while (G->current_player(&s) != RP_TERMINAL) {
            if (s.phase == DW_PHASE_PLAY) {
                rp_action fast[RP_MAX_LEGAL], plain[RP_MAX_LEGAL];
                const int n = G->legal_actions(&s, fast);
                int k = 0;
                for (rp_action a = 0; a < DW_ACT_DISCARD; a++)
                    if (reference_play(&s, a))
                        plain[k++] = a;
                for (int f = 0; k == 0 && f < DW_FACES; f++)
                    if (s.hand[s.to_move][f])
                        plain[k++] = (rp_action)(DW_ACT_DISCARD + f); /* DW-4 */
                spied_attacks += s.hand[s.to_move][DW_ATTACK] > 0 && s.spy_wall &&
                                 spied_top_cannon(&s, s.spy_wall - 1);
                for (int i = 1; i < n; i++)
                    assert_true(listing_key(fast[i - 1]) < listing_key(fast[i]));
                qsort(fast, (size_t)n, sizeof fast[0], compare_actions);
                if (n != k || memcmp(fast, plain, (size_t)n * sizeof fast[0]) != 0) {
                    char text[RP_STATE_TEXT];
                    G->state_to_text(&s, text, sizeof text);
                    fail_msg("legal_actions lists %d plays, the reference %d, in\n%s", n, k, text);
                }
            }
            rp_test_random_step(G, &s, &rng);
        }
    }
    assert_true(spied_attacks > 0);
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
    assert_non_null(strstr(buf, "Your hand: archer-1, general\n"));
    assert_null(strstr(buf, "king"));
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
        /* first, before anything in this program calls init (see the test) */
        cmocka_unit_test(test_archer_plays_of_a_raw_state_need_no_setup),
        cmocka_unit_test(test_DW1_setup),
        cmocka_unit_test(test_DW1_deal_shuffles_as_rp_rng_shuffle),
        cmocka_unit_test(test_cannon_and_leader_places_match_the_action_table),
        cmocka_unit_test(test_rulebook_personal_decks),
        cmocka_unit_test(test_DW3_DW_P4_archers_are_multisets_to_one_wall),
        cmocka_unit_test(test_DW5_only_the_top_cannon_counts),
        cmocka_unit_test(test_DW6_attack_needs_own_cannon_and_DW4_discard),
        cmocka_unit_test(test_DW6_attack_removes_only_the_top_cannon),
        cmocka_unit_test(test_DW6_attack_removes_all_archers_but_a_spied_one),
        cmocka_unit_test(test_DW_P1_attack_needs_a_removable_target),
        cmocka_unit_test(test_DW6_a_spied_cannon_attacks_at_no_wall),
        cmocka_unit_test(test_DW7_strength_with_blue_and_red_leaders),
        cmocka_unit_test(test_DW7_wizard_and_builder_affect_both_sides),
        cmocka_unit_test(test_DW7_every_set_of_leaders_at_a_wall),
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
        cmocka_unit_test(test_DW12_skipped_last_turn_cannot_arise),
        cmocka_unit_test(test_DW12_winner_controls_three_walls),
        cmocka_unit_test(test_DW13_view_shows_only_what_a_player_may_know),
        cmocka_unit_test(test_DW13_DW_P6_determinize_is_consistent),
        cmocka_unit_test(test_DW_P6_observe_action_shows_the_refill_source),
        cmocka_unit_test(test_action_notation),
        cmocka_unit_test(test_state_notation_refuses_bad_and_non_canonical_text),
        cmocka_unit_test(test_state_notation_checks_control),
        cmocka_unit_test(test_state_notation_literal),
        cmocka_unit_test(test_state_notation_refuses_every_truncation),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_turn_number_counts_turns),
        cmocka_unit_test(test_config_of_reports_two_players),
        cmocka_unit_test(test_state_ok_refuses_broken_bytes),
        cmocka_unit_test(test_events_archers_control_refill_and_draws),
        cmocka_unit_test(test_events_cannon_and_leader),
        cmocka_unit_test(test_events_attack),
        cmocka_unit_test(test_events_spy_assassin_discard),
        cmocka_unit_test(test_events_third_flag_last_turn_and_end),
        cmocka_unit_test(test_events_empty_hand_end),
        cmocka_unit_test(test_views_for_seats_and_spectator),
        cmocka_unit_test(test_actions_as_data),
        cmocka_unit_test(test_explain_illegal),
        cmocka_unit_test(test_moves_summary),
        cmocka_unit_test(test_secret_names),
        cmocka_unit_test(test_property_random_games),
        cmocka_unit_test(test_legal_plays_match_a_plain_reference),
        cmocka_unit_test(test_DW10_control_after_every_action_matches_the_cards),
        cmocka_unit_test(test_DW11_DW12_turn_course_matches_a_plain_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
