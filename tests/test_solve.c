/* test_solve.c — the exact solver (ramparts/solve.h) on Kuhn poker written as an rp_game here,
 * whose figures are known independently (the uniform policy's exploitability, the game's
 * value), then on Walls and Armies' small deck option (WA-P8) and King of Danger's short game
 * (KD-P6): exploitability falls toward zero, the information states have perfect recall, and
 * a tree over the limit is refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/solve.h"
#include "support.h"

/* ---- Kuhn poker over the game interface: cards J Q K, one dealt to each seat by chance ---- */

typedef struct kuhn {
    rp_rng rng;
    int card[2];
    int moves[3]; /* 0 pass, 1 bet */
    int count;
} kuhn;

static int kuhn_init(void *st, const rp_config *cfg, rp_error *err)
{
    (void)err;
    kuhn *k = st;
    memset(k, 0, sizeof *k);
    rp_rng_seed(&k->rng, cfg->seed, 0);
    k->card[0] = (int)rp_rng_below(&k->rng, 3);
    k->card[1] = (k->card[0] + 1 + (int)rp_rng_below(&k->rng, 2)) % 3;
    return RP_OK;
}

static int kuhn_players(const void *st)
{
    (void)st;
    return 2;
}

static bool kuhn_over(const kuhn *k)
{
    if (k->count == 2)
        return !(k->moves[0] == 0 && k->moves[1] == 1); /* pp, bp, bb end; pb goes on */
    return k->count == 3;
}

static int kuhn_current(const void *st)
{
    const kuhn *k = st;
    return kuhn_over(k) ? RP_TERMINAL : k->count % 2;
}

static int kuhn_turn(const void *st)
{
    return ((const kuhn *)st)->count + 1;
}

static int kuhn_legal(const void *st, rp_action *out)
{
    if (kuhn_over(st))
        return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}

static void kuhn_apply(void *st, rp_action a)
{
    kuhn *k = st;
    k->moves[k->count++] = (int)a;
}

/* Chips won by seat 0, as a share of the win: (chips + 2) / 4. */
static void kuhn_returns(const void *st, double *out)
{
    const kuhn *k = st;
    const int high = k->card[0] > k->card[1] ? 0 : 1;
    int chips;
    if (k->count == 2 && k->moves[0] == 0 && k->moves[1] == 0)
        chips = high == 0 ? 1 : -1;
    else if (k->count == 2 && k->moves[0] == 1 && k->moves[1] == 0)
        chips = 1;
    else if (k->count == 3 && k->moves[2] == 0)
        chips = -1;
    else
        chips = high == 0 ? 2 : -2;
    out[0] = (chips + 2) / 4.0;
    out[1] = 1.0 - out[0];
}

static int kuhn_action_text(const void *st, rp_action a, char *buf, size_t size)
{
    (void)st;
    return snprintf(buf, size, "%s", a ? "bet" : "pass");
}

/* Seat p sees its card and the moves. */
static void kuhn_observe(const void *st, int p, float *out)
{
    const kuhn *k = st;
    memset(out, 0, 9 * sizeof *out);
    out[k->card[p]] = 1;
    for (int i = 0; i < k->count; i++)
        out[3 + 2 * i + k->moves[i]] = 1;
}

static const rp_game kuhn_game = {
    .id = "kuhn",
    .title = "Kuhn poker",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = 2,
    .state_size = sizeof(kuhn),
    .init = kuhn_init,
    .num_players = kuhn_players,
    .current_player = kuhn_current,
    .turn_number = kuhn_turn,
    .legal_actions = kuhn_legal,
    .apply = kuhn_apply,
    .returns = kuhn_returns,
    .action_to_text = kuhn_action_text,
    .observation_size = 9,
    .observation_tensor = kuhn_observe,
};

static rp_solver *solve_kuhn(void)
{
    rp_config cfg = {.players = 2, .seed = 1};
    rp_solver *s = NULL;
    rp_error err;
    assert_int_equal(rp_solver_new(&kuhn_game, &cfg, 1000, &s, &err), RP_OK);
    return s;
}

/* Kuhn's tree: the deal's 1 + 3 chance nodes and 6 deals, each with 3 more decision nodes and
 * 5 ends (pp, pbp, pbb, bp, bb). */
static void test_kuhn_tree(void **unused)
{
    (void)unused;
    rp_solver *s = solve_kuhn();
    assert_int_equal(rp_solver_terminals(s), 30);
    assert_int_equal(rp_solver_infosets(s), 12); /* 3 cards x (p, b | pb) for each seat */
    assert_int_equal(rp_solver_nodes(s), 1 + 3 + 6 + 6 * 8);
    assert_int_equal(rp_solver_recall_breaks(s), 0);
    rp_solver_free(s);
}

/* The uniform policy's exploitability in Kuhn is 11/24 chips (OpenSpiel's figure, 0.458333),
 * here a quarter of that as shares of the win; the game's value to seat 0 is -1/18 chips. */
static void test_kuhn_figures(void **unused)
{
    (void)unused;
    rp_solver *s = solve_kuhn();
    assert_true(fabs(rp_solver_exploitability(s, RP_SOLVE_UNIFORM) - 11.0 / 24 / 4) < 1e-12);
    assert_true(fabs(rp_solver_value(s, RP_SOLVE_UNIFORM, 0) +
                     rp_solver_value(s, RP_SOLVE_UNIFORM, 1) - 1.0) < 1e-12);
    /* CFR+ does not fall at every step (here 6.5e-4 after 50, 7.2e-5 after 200, 1.0e-4
     * after 250), but falls overall: a tenth in 300 iterations */
    rp_solver_iterate(s, 50);
    const double first = rp_solver_exploitability(s, RP_SOLVE_AVERAGE);
    double last = first;
    for (int round = 0; round < 5; round++) {
        rp_solver_iterate(s, 50);
        last = rp_solver_exploitability(s, RP_SOLVE_AVERAGE);
        assert_true(last >= -1e-12 && last < first);
    }
    assert_true(last < first / 4 && last < 2e-4);
    assert_true(fabs(rp_solver_value(s, RP_SOLVE_AVERAGE, 0) - (2.0 - 1.0 / 18) / 4) < 2e-3);
    rp_solver_free(s);
}

/* A tree over the node limit is refused with the reason, nothing kept. */
static void test_limit(void **unused)
{
    (void)unused;
    rp_config cfg = {.players = 2, .seed = 1};
    rp_solver *s = (rp_solver *)&cfg;
    rp_error err;
    assert_int_equal(rp_solver_new(&kuhn_game, &cfg, 20, &s, &err), RP_ENOSPACE);
    assert_null(s);
    assert_non_null(strstr(err.msg, "more than 20 nodes"));
}

/* The policy written: one line per information state, probabilities summing to 1. */
static void test_policy_lines(void **unused)
{
    (void)unused;
    rp_solver *s = solve_kuhn();
    rp_solver_iterate(s, 20);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    rp_error err;
    assert_int_equal(rp_solver_write_policy(s, f, &err), RP_OK);
    fclose(f);
    int lines = 0;
    for (const char *p = text; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, 12);
    assert_non_null(strstr(text, "{\"seat\":0,\"history\":[0,0],\"actions\":{\"pass\":"));
    free(text);
    rp_solver_free(s);
}

/* Walls and Armies' smallest option (WA-P8: deck=6, turn-cap=2): the tree python/tests/
 * test_solve.py checks against Python's information state strings, its information states have
 * perfect recall, and exploitability falls from the uniform policy's toward zero. */
static void test_walls_and_armies_small_deck(void **unused)
{
    (void)unused;
    const rp_game *g = rp_game_find("walls-and-armies");
    rp_config cfg;
    rp_config_default(g, &cfg);
    rp_error err;
    assert_int_equal(rp_config_set(g, &cfg, "deck=6", &err), RP_OK);
    assert_int_equal(rp_config_set(g, &cfg, "turn-cap=2", &err), RP_OK);
    rp_solver *s = NULL;
    assert_int_equal(rp_solver_new(g, &cfg, 100000, &s, &err), RP_OK);
    assert_int_equal(rp_solver_nodes(s), 20725);
    assert_int_equal(rp_solver_infosets(s), 243);
    assert_int_equal(rp_solver_recall_breaks(s), 0);
    const double uniform = rp_solver_exploitability(s, RP_SOLVE_UNIFORM);
    assert_true(uniform > 1e-3);
    rp_solver_iterate(s, 100);
    const double after = rp_solver_exploitability(s, RP_SOLVE_AVERAGE);
    assert_true(after >= -1e-12 && after < uniform / 1000);
    rp_solver_free(s);
    /* the full game is refused, not walked */
    rp_config_default(g, &cfg);
    assert_int_equal(rp_solver_new(g, &cfg, 100000, &s, &err), RP_ENOSPACE);
}

/* King of Danger's short game (KD-P6: deal=1+1, six cards, one hand): its
 * tree, perfect recall, and exploitability falling toward zero. Where regret matching+ gives
 * an action probability 0 the walk skips the subtree; the average policy once gained weight
 * per history visited there, so it stalled at 0.019 here (still 0.019 after 2,000
 * iterations): it must fall below 1e-4 in 100. The rulebook's two-player game is refused. */
static void test_king_of_danger_short_game(void **unused)
{
    (void)unused;
    const rp_game *g = rp_game_find("king-of-danger");
    rp_config cfg;
    rp_config_default(g, &cfg);
    rp_error err;
    static const char *const options[] = {"players=2", "deal=1+1"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        assert_int_equal(rp_config_set(g, &cfg, options[i], &err), RP_OK);
    rp_solver *s = NULL;
    assert_int_equal(rp_solver_new(g, &cfg, 100000, &s, &err), RP_OK);
    assert_int_equal(rp_solver_nodes(s), 31389); /* python/tests/test_solve.py walks the same */
    assert_int_equal(rp_solver_infosets(s), 21068);
    assert_int_equal(rp_solver_recall_breaks(s), 0);
    const double uniform = rp_solver_exploitability(s, RP_SOLVE_UNIFORM);
    assert_true(uniform > 0.1);
    rp_solver_iterate(s, 100);
    const double after = rp_solver_exploitability(s, RP_SOLVE_AVERAGE);
    if (!(after >= -1e-12 && after < 1e-4))
        fail_msg("exploitability %g after 100 iterations (uniform %g)", after, uniform);
    /* the value of the short game to Blue, 4/9 (docs/learning/solve.md) */
    assert_true(fabs(rp_solver_value(s, RP_SOLVE_AVERAGE, 0) - 4.0 / 9) < 1e-4);
    rp_solver_free(s);
    /* the whole two-player game is refused, not walked: its first path, hands of 26 cards
     * until a score reaches 31, is deeper than the builder goes (it once overflowed the
     * stack here under AddressSanitizer) */
    rp_config_default(g, &cfg);
    assert_int_equal(rp_config_set(g, &cfg, "players=2", &err), RP_OK);
    assert_int_equal(rp_solver_new(g, &cfg, 100000, &s, &err), RP_ENOSPACE);
    assert_null(s);
    assert_non_null(strstr(err.msg, "king-of-danger: a path of the tree has more than 600 moves"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kuhn_tree),
        cmocka_unit_test(test_kuhn_figures),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_policy_lines),
        cmocka_unit_test(test_walls_and_armies_small_deck),
        cmocka_unit_test(test_king_of_danger_short_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
