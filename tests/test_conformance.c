/* test_conformance.c — checks every registered game against the interface's contract
 * (as OpenSpiel's basic tests do): random playouts end, legal lists and notations are
 * consistent, full-state notation round-trips, views survive determinizing, the same seed gives
 * the same game, and malformed notation or options are refused without changing anything. */
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define MAX_STEPS 200000

/* One random game with the generic per-step checks; returns its number of actions. */
static int checked_playout(const rp_game *game, uint64_t seed, const char *options)
{
    rp_state st;
    char opts[256];
    snprintf(opts, sizeof opts, "seed=%llu %s", (unsigned long long)seed, options ? options : "");
    rp_test_init(game, &st, opts);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 99);
    int steps = 0;
    while (game->current_player(&st) != RP_TERMINAL) {
        assert_true(++steps < MAX_STEPS);
        rp_test_check_step(game, &st, &rng);
        rp_test_random_step(game, &st, &rng);
    }
    rp_action legal[RP_MAX_LEGAL];
    assert_int_equal(game->legal_actions(&st, legal), 0);
    rp_test_check_returns(game, &st);
    return steps;
}

static void test_random_games_follow_the_contract(void **unused)
{
    (void)unused;
    int games = rp_test_games(200) / 10 + 1;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        assert_true(game->state_size <= RP_STATE_MAX_SIZE);
        for (int p = game->min_players; p <= game->max_players; p++) {
            char opts[32];
            snprintf(opts, sizeof opts, "players=%d", p);
            for (int i = 0; i < games; i++)
                checked_playout(game, (uint64_t)i + 1, opts);
        }
    }
}

/* Play a seeded random game and return its final state notation. */
static void final_text(const rp_game *game, uint64_t seed, char *text)
{
    rp_state st;
    char opts[64];
    snprintf(opts, sizeof opts, "seed=%llu", (unsigned long long)seed);
    rp_test_init(game, &st, opts);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 7);
    while (game->current_player(&st) != RP_TERMINAL) {
        rp_test_random_step(game, &st, &rng);
    }
    game->state_to_text(&st, text, RP_STATE_TEXT);
}

static void test_same_seed_same_game(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        char a[RP_STATE_TEXT], b[RP_STATE_TEXT], c[RP_STATE_TEXT];
        final_text(rp_games[g], 42, a);
        final_text(rp_games[g], 42, b);
        assert_string_equal(a, b);
        final_text(rp_games[g], 43, c);
        assert_string_not_equal(a, c);
    }
}

static void test_garbage_state_text_is_refused(void **unused)
{
    (void)unused;
    static const char *const garbage[] = {"", " ", "garbage", "x;y;z", "0", "-1",
                                          "\x01\x02\x7f", ";;;;;;;;;;;;;;;;;;;;;;;;;;;;"};
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_state st, before;
        rp_test_init(game, &st, "seed=5");
        rp_state_copy(game, &before, &st);
        for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
            rp_error err = {{0}};
            if (game->state_from_text(&st, garbage[i], &err) >= 0)
                fail_msg("%s accepted garbage state '%s'", game->id, garbage[i]);
            assert_true(strlen(err.msg) > 0);
            assert_memory_equal(&st, &before, game->state_size);
        }
    }
}

/* Flip characters of valid notations: a refused text changes nothing and says why; an
 * accepted one must be a sound state that round-trips and can be played to the end. */
static void test_mutated_state_text_is_refused_or_sound(void **unused)
{
    (void)unused;
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCXYZ;:,.-|/ =";
    rp_rng rng;
    rp_rng_seed(&rng, 2024, 1);
    int rounds = rp_test_games(200) / 4 + 50;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        for (int r = 0; r < rounds; r++) {
            rp_state st;
            char opts[32];
            snprintf(opts, sizeof opts, "seed=%d", r);
            rp_test_init(game, &st, opts);
            int moves = (int)rp_rng_below(&rng, 60);
            for (int m = 0; m < moves && game->current_player(&st) != RP_TERMINAL; m++) {
                rp_test_random_step(game, &st, &rng);
            }
            char text[RP_STATE_TEXT];
            int len = game->state_to_text(&st, text, sizeof text);
            int flips = 1 + (int)rp_rng_below(&rng, 3);
            for (int f = 0; f < flips; f++)
                text[rp_rng_below(&rng, (uint32_t)len)] =
                    alphabet[rp_rng_below(&rng, sizeof alphabet - 1)];
            if (rp_rng_below(&rng, 4) == 0)
                text[rp_rng_below(&rng, (uint32_t)len)] = '\0';
            rp_state loaded, before;
            memset(&loaded, 0x3C, sizeof loaded);
            rp_state_copy(game, &before, &loaded);
            rp_error err = {{0}};
            if (game->state_from_text(&loaded, text, &err) < 0) {
                assert_true(strlen(err.msg) > 0);
                assert_memory_equal(&loaded, &before, game->state_size);
                continue;
            }
            rp_rng play;
            rp_rng_seed(&play, (uint64_t)r, 3);
            int steps = 0;
            while (game->current_player(&loaded) != RP_TERMINAL) {
                assert_true(++steps < MAX_STEPS);
                rp_test_check_step(game, &loaded, &play);
                rp_test_random_step(game, &loaded, &play);
            }
            rp_test_check_returns(game, &loaded);
        }
    }
}

static void test_garbage_moves_are_refused(void **unused)
{
    (void)unused;
    static const char *const garbage[] = {"", "   ", "fly to the moon", "99999999999",
                                          "-3", "\x01", "end end end end end"};
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_state st;
        rp_test_init(game, &st, "seed=9");
        for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
            rp_error err = {{0}};
            rp_action a;
            if (rp_parse_move(game, &st, garbage[i], &a, &err) >= 0)
                fail_msg("%s accepted the move '%s'", game->id, garbage[i]);
            assert_true(strlen(err.msg) > 0);
        }
    }
}

static void test_bad_options_are_refused(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_config cfg, before;
        rp_config_default(game, &cfg);
        before = cfg;
        static const char *const bad[] = {"nonsense=1", "players=0", "players=99", "seed=-1",
                                          "seed=abc", "noequals", "=5"};
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            rp_error err = {{0}};
            assert_true(rp_config_set(game, &cfg, bad[i], &err) < 0);
            assert_true(strlen(err.msg) > 0);
            assert_memory_equal(&cfg, &before, sizeof cfg);
        }
        for (int o = 0; o < game->num_options; o++) {
            const rp_option_spec *spec = &game->options[o];
            char kv[128];
            rp_error err = {{0}};
            if (spec->kind == RP_OPT_INT) {
                snprintf(kv, sizeof kv, "%s=%lld", spec->name, (long long)spec->max + 1);
                assert_true(rp_config_set(game, &cfg, kv, &err) < 0);
            } else if (spec->kind == RP_OPT_CHOICE) {
                snprintf(kv, sizeof kv, "%s=not-a-choice", spec->name);
                assert_true(rp_config_set(game, &cfg, kv, &err) < 0);
            }
        }
    }
}

static void test_registry_lookup(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        assert_ptr_equal(rp_game_find(rp_games[g]->id), rp_games[g]);
        assert_non_null(rp_game_rules(rp_games[g]));
    }
    assert_null(rp_game_find("no-such-game"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_lookup),
        cmocka_unit_test(test_bad_options_are_refused),
        cmocka_unit_test(test_garbage_moves_are_refused),
        cmocka_unit_test(test_garbage_state_text_is_refused),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_random_games_follow_the_contract),
        cmocka_unit_test(test_mutated_state_text_is_refused_or_sound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
