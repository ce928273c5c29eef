/* test_explicit_chance.c — explicit chance (rp_apply_explicit, rp_init_explicit, rp_draws):
 * every game with chance, dealt and played at random with its draws recorded, is replayed with
 * those draws given as explicit chance outcomes and must come out the same state after every
 * action, so each chance event is exactly one of the rules' draws; and the calls refuse what
 * does not fit, leaving the state as it was. */
#include <string.h>

#include "support.h"

#define MOST_DRAWS 4096

/* The full-state notation without the generator (an explicit run never advances it). */
static void text_without_rng(const rp_game *game, const void *st, char *buf, size_t size)
{
    assert_true(game->state_to_text(st, buf, size) >= 0);
    char *rng = strstr(buf, " rng=");
    assert_non_null(rng);
    *rng = '\0';
}

static void assert_same_game(const rp_game *game, const void *sampled, const void *decided)
{
    static char a[RP_STATE_TEXT], b[RP_STATE_TEXT];
    text_without_rng(game, sampled, a, sizeof a);
    text_without_rng(game, decided, b, sizeof b);
    assert_string_equal(a, b);
}

/* A chance event's outcomes: at least 2 (a choice of one is no event) and at most the game's
 * max_chance_outcomes (its trait, which Python's OpenSpiel game reports). */
static void check_outcomes(const rp_game *game, uint32_t outcomes)
{
    if (outcomes < 2 || outcomes > game->max_chance_outcomes)
        fail_msg("%s: a chance event with %u outcomes, but max_chance_outcomes is %u", game->id,
                 (unsigned)outcomes, (unsigned)game->max_chance_outcomes);
}

/* Each chance event of the deal decided by drawn[0 .. used), one after another: its outcomes. */
static void check_deal_outcomes(const rp_game *game, const rp_config *cfg, const uint32_t *drawn,
                                size_t used)
{
    rp_error err;
    for (size_t k = 0; k < used; k++) {
        rp_state st;
        uint32_t next = 0;
        assert_int_equal(rp_init_explicit(game, &st, cfg, drawn, k, &next, &err), RP_OK);
        check_outcomes(game, next);
    }
}

/* The same for the chance events of `action` in st (left as it was). */
static void check_action_outcomes(const rp_game *game, void *st, rp_action action,
                                  const uint32_t *drawn, size_t used)
{
    rp_error err;
    for (size_t k = 0; k < used; k++) {
        uint32_t next = 0;
        assert_int_equal(rp_apply_explicit(game, st, action, drawn, k, &next, &err), RP_OK);
        check_outcomes(game, next);
    }
}

/* One game of `game` under `options`: dealt and played by random moves with the draws recorded,
 * and the same deal and moves decided explicitly from those draws. */
static void replay_one(const rp_game *game, const char *options, uint64_t seed)
{
    rp_config cfg;
    rp_config_default(game, &cfg);
    rp_error err;
    char kv[64];
    snprintf(kv, sizeof kv, "seed=%llu", (unsigned long long)seed);
    assert_int_equal(rp_config_set(game, &cfg, kv, &err), RP_OK);
    if (options)
        assert_int_equal(rp_config_set(game, &cfg, options, &err), RP_OK);
    static uint32_t drawn[MOST_DRAWS];
    rp_state sampled, decided;
    rp_draws record = {.record = drawn, .record_cap = MOST_DRAWS};
    rp_draws *before = rp_rng_use_draws(&record);
    assert_int_equal(game->init(&sampled, &cfg, &err), RP_OK);
    rp_rng_use_draws(before);
    assert_true(record.used <= MOST_DRAWS);
    uint32_t next = 1;
    assert_int_equal(rp_init_explicit(game, &decided, &cfg, drawn, record.used, &next, &err),
                     RP_OK);
    assert_int_equal(next, 0);
    assert_same_game(game, &sampled, &decided);
    check_deal_outcomes(game, &cfg, drawn, record.used);
    if (record.used > 0) { /* one draw short: the last event is asked for, with its bound */
        rp_state untouched;
        memset(&untouched, 0x5a, sizeof untouched);
        assert_int_equal(
            rp_init_explicit(game, &untouched, &cfg, drawn, record.used - 1, &next, &err), RP_OK);
        assert_true(next > drawn[record.used - 1]);
        assert_int_equal(untouched.bytes[0], 0x5a);
    }
    rp_rng moves;
    rp_rng_seed(&moves, seed, 77);
    for (int step = 0; step < 400 && game->current_player(&sampled) != RP_TERMINAL; step++) {
        rp_action legal[RP_MAX_LEGAL];
        const int n = game->legal_actions(&sampled, legal);
        const rp_action action = legal[rp_rng_below(&moves, (uint32_t)n)];
        record = (rp_draws){.record = drawn, .record_cap = MOST_DRAWS};
        before = rp_rng_use_draws(&record);
        game->apply(&sampled, action);
        rp_rng_use_draws(before);
        assert_true(record.used <= MOST_DRAWS);
        check_action_outcomes(game, &decided, action, drawn, record.used);
        assert_int_equal(rp_apply_explicit(game, &decided, action, drawn, record.used, &next, &err),
                         RP_OK);
        assert_int_equal(next, 0);
        assert_same_game(game, &sampled, &decided);
    }
}

static void test_explicit_outcomes_are_the_rules_draws(void **unused)
{
    (void)unused;
    const int games = rp_test_games(1000);
    for (int i = 0; i < rp_num_games; i++) {
        const rp_game *game = rp_games[i];
        if (!(game->flags & RP_CHANCE))
            continue;
        const char *options = strcmp(game->id, "walls-and-armies") == 0 ? "turn-cap=30" : NULL;
        for (int k = 0; k < games; k++)
            replay_one(game, options, 1000u + (uint64_t)k);
    }
}

/* What does not fit is refused with the state unchanged. */
static void test_explicit_chance_refuses_what_does_not_fit(void **unused)
{
    (void)unused;
    const rp_game *game = rp_game_find("walls-and-armies");
    rp_config cfg;
    rp_config_default(game, &cfg);
    rp_error err;
    uint32_t next = 0;
    rp_state st;
    assert_int_equal(rp_init_explicit(game, &st, &cfg, NULL, 0, &next, &err), RP_OK);
    assert_int_equal(next, 52); /* the deal begins with the shuffle of the 52 cards (WA-1) */
    static uint32_t values[MOST_DRAWS];
    size_t count = 0;
    while (next > 0) {
        values[count] = (uint32_t)count % next;
        count++;
        assert_int_equal(rp_init_explicit(game, &st, &cfg, values, count, &next, &err), RP_OK);
    }
    rp_state copy;
    rp_state_copy(game, &copy, &st);
    /* One value too many. */
    values[count] = 0;
    assert_int_equal(rp_init_explicit(game, &copy, &cfg, values, count + 1, &next, &err),
                     RP_EINVAL);
    assert_non_null(strstr(err.msg, "chance events"));
    /* A value out of its event's range. */
    values[0] = 52;
    assert_int_equal(rp_init_explicit(game, &copy, &cfg, values, count, &next, &err), RP_EINVAL);
    assert_non_null(strstr(err.msg, "out of its range"));
    /* An illegal action. */
    rp_action illegal = 0;
    while (rp_is_legal(game, &st, illegal))
        illegal++;
    assert_int_equal(rp_apply_explicit(game, &copy, illegal, NULL, 0, &next, &err), RP_EINVAL);
    assert_memory_equal(&copy, &st, game->state_size);
    /* Outside a draw list, generators draw as always. */
    assert_null(rp_rng_use_draws(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explicit_outcomes_are_the_rules_draws),
        cmocka_unit_test(test_explicit_chance_refuses_what_does_not_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
