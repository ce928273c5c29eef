/* support.c — helpers shared by the test programs (see support.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

int rp_test_games(int fallback)
{
    const char *env = getenv("RAMPARTS_PROPERTY_GAMES");
    if (env && *env) {
        int n = atoi(env);
        if (n > 0)
            return n;
    }
    return fallback;
}

void rp_test_init(const rp_game *game, void *st, const char *options)
{
    rp_config cfg;
    rp_error err = {{0}};
    rp_config_default(game, &cfg);
    if (options) {
        char copy[512];
        snprintf(copy, sizeof copy, "%s", options);
        for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
            if (rp_config_set(game, &cfg, tok, &err) < 0)
                fail_msg("option %s: %s", tok, err.msg);
        }
    }
    if (game->init(st, &cfg, &err) < 0)
        fail_msg("init %s (%s): %s", game->id, options ? options : "", err.msg);
}

void rp_test_load(const rp_game *game, void *st, const char *text)
{
    rp_error err = {{0}};
    if (game->state_from_text(st, text, &err) < 0)
        fail_msg("load '%s': %s", text, err.msg);
}

void rp_test_play(const rp_game *game, void *st, const char *move)
{
    rp_error err = {{0}};
    rp_action action;
    if (rp_parse_move(game, st, move, &action, &err) < 0)
        fail_msg("move '%s': %s", move, err.msg);
    game->apply(st, action);
}

bool rp_test_is_legal(const rp_game *game, const void *st, const char *move)
{
    rp_error err = {{0}};
    rp_action action;
    return rp_parse_move(game, st, move, &action, &err) == RP_OK;
}

static int compare_actions(const void *a, const void *b)
{
    rp_action x = *(const rp_action *)a, y = *(const rp_action *)b;
    return (x > y) - (x < y);
}

static void check_actions(const rp_game *game, const void *st, rp_action *legal, int n)
{
    assert_true(n > 0);
    assert_true(n <= RP_MAX_LEGAL);
    for (int i = 0; i < n; i++) {
        assert_true(legal[i] < game->num_actions);
        char text[RP_ACTION_TEXT];
        int len = game->action_to_text(st, legal[i], text, sizeof text);
        if (len <= 0)
            fail_msg("%s: action %u has no notation", game->id, (unsigned)legal[i]);
        rp_action back = RP_NO_ACTION;
        rp_error err = {{0}};
        if (game->action_from_text(st, text, &back, &err) < 0)
            fail_msg("%s: notation '%s' of action %u does not parse: %s", game->id, text,
                     (unsigned)legal[i], err.msg);
        if (back != legal[i])
            fail_msg("%s: notation '%s' reads back as %u, not %u", game->id, text,
                     (unsigned)back, (unsigned)legal[i]);
    }
    qsort(legal, (size_t)n, sizeof *legal, compare_actions);
    for (int i = 1; i < n; i++)
        if (legal[i] == legal[i - 1])
            fail_msg("%s: action %u listed twice", game->id, (unsigned)legal[i]);
}

static void check_state_text(const rp_game *game, const void *st)
{
    char text[RP_STATE_TEXT];
    int len = game->state_to_text(st, text, sizeof text);
    assert_true(len > 0 && len < RP_STATE_TEXT);
    assert_null(strchr(text, '\n'));
    rp_state copy;
    memset(&copy, 0xA5, sizeof copy);
    rp_error err = {{0}};
    if (game->state_from_text(&copy, text, &err) < 0)
        fail_msg("%s: state notation does not load back: %s\n%s", game->id, err.msg, text);
    if (memcmp(&copy, st, game->state_size) != 0)
        fail_msg("%s: state notation round trip changed the state\n%s", game->id, text);
}

/* Determinizing two states that look the same to p, with the same random stream, must give
 * the same state: otherwise an AI's choice would depend on what p cannot know. `sample` is st
 * already determinized for p, so the two look the same to p. */
static void check_determinize_reads_only_the_view(const rp_game *game, const void *st,
                                                  const void *sample, int p, rp_rng *rng)
{
    rp_state a, b;
    rp_state_copy(game, &a, st);
    rp_state_copy(game, &b, sample);
    rp_rng ra = *rng, rb = *rng;
    game->determinize(&a, p, &ra);
    game->determinize(&b, p, &rb);
    if (memcmp(&a, &b, game->state_size) != 0) {
        char ta[RP_STATE_TEXT], tb[RP_STATE_TEXT];
        game->state_to_text(&a, ta, sizeof ta);
        game->state_to_text(&b, tb, sizeof tb);
        fail_msg("%s: determinize for player %d depends on hidden parts it replaces\n%s\n%s",
                 game->id, p, ta, tb);
    }
}

static void check_views(const rp_game *game, const void *st, rp_rng *rng)
{
    int players = game->num_players(st);
    int to_act = game->current_player(st);
    for (int p = 0; p < players; p++) {
        cJSON *before = game->view_json(st, p);
        assert_non_null(before);
        rp_state sample;
        rp_state_copy(game, &sample, st);
        game->determinize(&sample, p, rng);
        cJSON *after = game->view_json(&sample, p);
        assert_non_null(after);
        /* Comparing trees costs far less than printing them; print only to explain a failure. */
        if (!cJSON_Compare(before, after, true)) {
            char *b = cJSON_PrintUnformatted(before), *a = cJSON_PrintUnformatted(after);
            fail_msg("%s: determinizing for player %d changed their view\nbefore %s\nafter  %s",
                     game->id, p, b, a);
        }
        cJSON_Delete(before);
        cJSON_Delete(after);
        check_determinize_reads_only_the_view(game, st, &sample, p, rng);
        if (p == to_act) {
            rp_action a[RP_MAX_LEGAL], b[RP_MAX_LEGAL];
            int na = game->legal_actions(st, a);
            int nb = game->legal_actions(&sample, b);
            assert_int_equal(na, nb);
            qsort(a, (size_t)na, sizeof *a, compare_actions);
            qsort(b, (size_t)nb, sizeof *b, compare_actions);
            assert_memory_equal(a, b, (size_t)na * sizeof *a);
        }
    }
}

void rp_test_check_notation(const rp_game *game, const void *st)
{
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(st, legal);
    check_actions(game, st, legal, n);
    check_state_text(game, st);
}

void rp_test_check_views(const rp_game *game, const void *st, rp_rng *rng)
{
    check_views(game, st, rng);
}

void rp_test_check_step(const rp_game *game, const void *st, rp_rng *rng)
{
    rp_test_check_notation(game, st);
    check_views(game, st, rng);
}

void rp_test_check_returns(const rp_game *game, const void *st)
{
    double r[RP_MAX_PLAYERS] = {0};
    game->returns(st, r);
    double sum = 0;
    for (int p = 0; p < game->num_players(st); p++) {
        assert_true(r[p] >= 0.0 && r[p] <= 1.0);
        sum += r[p];
    }
    assert_true(fabs(sum - 1.0) < 1e-9);
}

void rp_test_random_step(const rp_game *game, void *st, rp_rng *rng)
{
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(st, legal);
    assert_true(n > 0);
    game->apply(st, legal[rp_rng_below(rng, (uint32_t)n)]);
}
