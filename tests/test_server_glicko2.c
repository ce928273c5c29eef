/* test_server_glicko2.c — the server's Glicko-2 (src/server/glicko2.c) against Glickman's
 * worked example in "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf). */
#include "support.h"

#include <math.h>

#include "glicko2.h"

/* The paper's example: a 1500 / 200 / 0.06 player with tau 0.5 beats a 1400 / 30 player and
 * loses to 1550 / 100 and 1700 / 300. The paper, rounding its intermediate steps, reaches
 * 1464.06 / 151.52 / 0.05999; full precision gives 1464.05 / 151.52 / 0.059996. */
static void test_glickman_worked_example(void **state)
{
    (void)state;
    rs_rating player = {1500, 200, 0.06};
    rs_glicko2_game games[] = {
        {{1400, 30, 0.06}, 1.0},
        {{1550, 100, 0.06}, 0.0},
        {{1700, 300, 0.06}, 0.0},
    };
    rs_rating after = rs_glicko2_update(player, games, 3, 0.5);
    assert_true(fabs(after.rating - 1464.05) < 0.05);
    assert_true(fabs(after.rd - 151.52) < 0.01);
    assert_true(fabs(after.vol - 0.059996) < 1e-5);
}

/* Step 6 alone: a period without games widens the deviation to sqrt(phi^2 + sigma^2) and
 * leaves rating and volatility alone. */
static void test_no_games_widens_deviation(void **state)
{
    (void)state;
    rs_rating player = {1620, 80, 0.06};
    rs_rating after = rs_glicko2_update(player, NULL, 0, 0.5);
    double phi = 80 / 173.7178;
    assert_true(fabs(after.rd - sqrt(phi * phi + 0.06 * 0.06) * 173.7178) < 1e-9);
    assert_true(after.rd > player.rd);
    assert_true(after.rating == player.rating);
    assert_true(after.vol == player.vol);
}

/* A new player's deviation never grows past the starting 350. */
static void test_deviation_capped(void **state)
{
    (void)state;
    rs_rating fresh = rs_glicko2_default();
    rs_rating after = rs_glicko2_update(fresh, NULL, 0, 0.5);
    assert_true(after.rd <= 350.0);
    rs_glicko2_game win = {rs_glicko2_default(), 1.0};
    rs_rating winner = rs_glicko2_update(fresh, &win, 1, 0.5);
    assert_true(winner.rating > 1500 && winner.rd < 350);
}

/* Between equals a win and a loss move the two ratings by the same amount. */
static void test_symmetric(void **state)
{
    (void)state;
    rs_rating a = {1500, 120, 0.06}, b = {1500, 120, 0.06};
    rs_glicko2_game a_wins = {b, 1.0}, b_loses = {a, 0.0};
    rs_rating a2 = rs_glicko2_update(a, &a_wins, 1, 0.5);
    rs_rating b2 = rs_glicko2_update(b, &b_loses, 1, 0.5);
    assert_true(fabs((a2.rating - 1500) + (b2.rating - 1500)) < 1e-9);
    rs_glicko2_game draw = {b, 0.5};
    rs_rating a3 = rs_glicko2_update(a, &draw, 1, 0.5);
    assert_true(fabs(a3.rating - 1500) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glickman_worked_example),
        cmocka_unit_test(test_no_games_widens_deviation),
        cmocka_unit_test(test_deviation_capped),
        cmocka_unit_test(test_symmetric),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
