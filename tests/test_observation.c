/* test_observation.c — the observation tensors of every game (game.h observation_tensor), over
 * random games: the named fields tile the tensor; the tensor of a seat is a function of what
 * that seat may see (identical for every state determinized for it) and encodes all of it
 * (two states whose views differ give different tensors); legal masks match the legal lists;
 * bad calls are refused without writing anything. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define POOL 48 /* earlier (view, tensor) pairs each new one is compared with */

/* The views and tensors one seat saw lately, a ring. */
typedef struct seen_pool {
    cJSON *view[POOL];
    float *obs[POOL];
    int count, next;
} seen_pool;

static void pool_free(seen_pool *pool)
{
    for (int i = 0; i < pool->count; i++) {
        cJSON_Delete(pool->view[i]);
        free(pool->obs[i]);
    }
    memset(pool, 0, sizeof *pool);
}

static float *new_tensor(const rp_game *game)
{
    const size_t bytes = game->observation_size * sizeof(float);
    assert_true(bytes > 0);
    float *t = malloc(bytes);
    assert_non_null(t);
    return t;
}

static bool same_tensor(const rp_game *game, const float *a, const float *b)
{
    return memcmp(a, b, game->observation_size * sizeof *a) == 0;
}

/* The first field whose floats differ, for a failure message. */
static const char *first_difference(const rp_game *game, const float *a, const float *b)
{
    for (int f = 0; f < game->num_observation_fields; f++) {
        const rp_obs_field *field = &game->observation_fields[f];
        const uint32_t n = (uint32_t)field->dims[0] * field->dims[1] * field->dims[2];
        if (memcmp(a + field->offset, b + field->offset, n * sizeof *a) != 0)
            return field->name;
    }
    return "(none)";
}

/* Every value finite and not negative (flags, one-hots and scaled counts). */
static void check_values(const rp_game *game, const float *t)
{
    for (uint32_t i = 0; i < game->observation_size; i++)
        if (!isfinite(t[i]) || t[i] < 0.0f)
            fail_msg("%s: observation value %u is %g", game->id, (unsigned)i, (double)t[i]);
}

/* The seat's tensor is unchanged by determinizing for it (twice, with different draws). */
static void check_hidden_parts_unseen(const rp_game *game, const void *st, int seat,
                                      const float *obs, rp_rng *rng)
{
    float *other = new_tensor(game);
    for (int k = 0; k < 2; k++) {
        rp_state sample;
        rp_state_copy(game, &sample, st);
        game->determinize(&sample, seat, rng);
        game->observation_tensor(&sample, seat, other);
        if (!same_tensor(game, obs, other)) {
            char text[RP_STATE_TEXT];
            game->state_to_text(st, text, sizeof text);
            fail_msg("%s: seat %d's observation changed when what it cannot see was "
                     "resampled (field %s)\n%s",
                     game->id, seat, first_difference(game, obs, other), text);
        }
    }
    free(other);
}

/* Against every pair the seat saw lately: equal views give equal tensors and different views
 * different tensors. Then the pair joins the pool. */
static void check_against_pool(const rp_game *game, seen_pool *pool, int seat, cJSON *view,
                               float *obs)
{
    for (int i = 0; i < pool->count; i++) {
        const bool same_view = cJSON_Compare(view, pool->view[i], true);
        const bool same_obs = same_tensor(game, obs, pool->obs[i]);
        if (same_view == same_obs)
            continue;
        char *a = cJSON_PrintUnformatted(view), *b = cJSON_PrintUnformatted(pool->view[i]);
        if (same_view)
            fail_msg("%s: seat %d: equal views, different observations (field %s)\n%s", game->id,
                     seat, first_difference(game, obs, pool->obs[i]), a);
        fail_msg("%s: seat %d: the observation misses a difference between views\n%s\n%s", game->id,
                 seat, a, b);
    }
    if (pool->count == POOL) {
        cJSON_Delete(pool->view[pool->next]);
        free(pool->obs[pool->next]);
    } else {
        pool->count++;
    }
    pool->view[pool->next] = view;
    pool->obs[pool->next] = obs;
    pool->next = (pool->next + 1) % POOL;
}

static void check_mask(const rp_game *game, const void *st)
{
    uint8_t *mask = malloc(game->num_actions);
    assert_non_null(mask);
    rp_legal_mask(game, st, mask);
    rp_action legal[RP_MAX_LEGAL];
    const int n = game->legal_actions(st, legal);
    int ones = 0;
    for (uint32_t a = 0; a < game->num_actions; a++)
        ones += mask[a];
    assert_int_equal(ones, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(mask[legal[i]], 1);
    free(mask);
}

/* When `twin` (st changed a little) is a valid state whose view for the seat differs from
 * `view`, its tensor must differ from `obs` too. */
static void check_twin(const rp_game *game, const void *twin, int seat, const cJSON *view,
                       const float *obs, float *scratch, const char *how)
{
    rp_error err;
    if (game->state_ok(twin, &err) != RP_OK || game->num_players(twin) <= seat)
        return;
    game->observation_tensor(twin, seat, scratch);
    if (!same_tensor(game, obs, scratch))
        return;
    cJSON *twin_view = game->json->view(twin, seat);
    if (!cJSON_Compare(view, twin_view, true)) {
        char *a = cJSON_PrintUnformatted(view), *b = cJSON_PrintUnformatted(twin_view);
        fail_msg("%s: seat %d: %s changed the view but not the observation\n%s\n%s", game->id, seat,
                 how, a, b);
    }
    cJSON_Delete(twin_view);
}

/* Near twins of st that a seat must tell apart, which random states rarely show (their views
 * differ in much else at once), so a field of the view left out of the tensor is found: st
 * with one byte of its struct changed (each bit flipped, one up, one down), and with two bytes
 * up to 64 apart swapped (a list in another order, a card moved between neighbours). Only
 * twins that pass state_ok count. */
static void check_twins(const rp_game *game, const void *st, int seat, const float *obs)
{
    cJSON *view = game->json->view(st, seat);
    float *scratch = new_tensor(game);
    char how[64];
    const unsigned char *bytes = st;
    rp_state twin;
    rp_state_copy(game, &twin, st);
    for (size_t i = 0; i < game->state_size; i++) {
        const unsigned b = bytes[i];
        const unsigned changed[10] = {b ^ 1u,  b ^ 2u,  b ^ 4u,   b ^ 8u, b ^ 16u,
                                      b ^ 32u, b ^ 64u, b ^ 128u, b + 1u, b - 1u};
        snprintf(how, sizeof how, "byte %zu", i);
        for (int m = 0; m < 10; m++) {
            twin.bytes[i] = (unsigned char)changed[m];
            check_twin(game, &twin, seat, view, obs, scratch, how);
        }
        twin.bytes[i] = (unsigned char)b;
        for (size_t j = i + 1; j < game->state_size && j <= i + 64; j++) {
            if (bytes[j] == b)
                continue;
            twin.bytes[i] = bytes[j];
            twin.bytes[j] = (unsigned char)b;
            snprintf(how, sizeof how, "swapping bytes %zu and %zu", i, j);
            check_twin(game, &twin, seat, view, obs, scratch, how);
            twin.bytes[i] = (unsigned char)b;
            twin.bytes[j] = bytes[j];
        }
    }
    free(scratch);
    cJSON_Delete(view);
}

/* Twins that differ in what another viewer cannot see: st determinized for each other seat
 * (which may move this seat's own cards) must give this seat a different tensor whenever it
 * gives a different view. */
static void check_other_seats_samples(const rp_game *game, const void *st, int seat,
                                      const float *obs, rp_rng *rng)
{
    cJSON *view = game->json->view(st, seat);
    float *other = new_tensor(game);
    for (int q = RP_SPECTATOR; q < game->num_players(st); q++) {
        if (q == RP_TERMINAL || q == seat)
            continue;
        rp_state twin;
        rp_state_copy(game, &twin, st);
        game->determinize(&twin, q, rng);
        game->observation_tensor(&twin, seat, other);
        cJSON *twin_view = game->json->view(&twin, seat);
        if (same_tensor(game, obs, other) && !cJSON_Compare(view, twin_view, true))
            fail_msg("%s: seat %d: a sample for viewer %d changed the view but not the "
                     "observation",
                     game->id, seat, q);
        cJSON_Delete(twin_view);
    }
    free(other);
    cJSON_Delete(view);
}

/* One random game, every seat checked at every step and at the end. */
static void observed_playout(const rp_game *game, const char *options, uint64_t seed,
                             seen_pool *pools)
{
    rp_state st;
    char opts[96];
    snprintf(opts, sizeof opts, "seed=%llu %s", (unsigned long long)seed, options);
    rp_test_init(game, &st, opts);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 31);
    const int players = game->num_players(&st);
    for (int steps = 0;; steps++) {
        assert_true(steps < 100000);
        check_mask(game, &st);
        for (int seat = 0; seat < players; seat++) {
            float *obs = new_tensor(game);
            game->observation_tensor(&st, seat, obs);
            check_values(game, obs);
            check_hidden_parts_unseen(game, &st, seat, obs, &rng);
            check_other_seats_samples(game, &st, seat, obs, &rng);
            if (steps % 32 == 0 && game->state_ok)
                check_twins(game, &st, seat, obs);
            check_against_pool(game, &pools[seat], seat, game->json->view(&st, seat), obs);
        }
        if (game->current_player(&st) == RP_TERMINAL)
            break;
        rp_test_random_step(game, &st, &rng);
    }
}

static void test_fields_tile_the_tensor(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        if (!game->observation_tensor)
            continue;
        assert_true(game->observation_size > 0);
        assert_true(game->num_observation_fields > 0);
        uint32_t next = 0;
        for (int f = 0; f < game->num_observation_fields; f++) {
            const rp_obs_field *field = &game->observation_fields[f];
            assert_non_null(field->name);
            assert_true(field->meaning && strlen(field->meaning) > 10);
            if (field->offset != next)
                fail_msg("%s: field %s starts at %u, not %u", game->id, field->name,
                         (unsigned)field->offset, (unsigned)next);
            assert_true(field->dims[0] >= 1 && field->dims[1] >= 1 && field->dims[2] >= 1);
            next += (uint32_t)field->dims[0] * field->dims[1] * field->dims[2];
            for (int h = 0; h < f; h++)
                assert_string_not_equal(field->name, game->observation_fields[h].name);
        }
        assert_int_equal(next, game->observation_size);
    }
}

static void test_observations_show_exactly_the_view(void **unused)
{
    (void)unused;
    /* 6 games a game in make soak, 2 in make test (rp_test_games, support.h). */
    const int games = rp_test_games(1000) / 200 + 1;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        if (!game->observation_tensor)
            continue;
        for (int players = game->min_players; players <= game->max_players; players++) {
            char opts[32];
            snprintf(opts, sizeof opts, "players=%d", players);
            seen_pool pools[RP_MAX_PLAYERS];
            memset(pools, 0, sizeof pools);
            for (int i = 0; i < games; i++)
                observed_playout(game, opts, 100 + (uint64_t)i, pools);
            for (int p = 0; p < RP_MAX_PLAYERS; p++)
                pool_free(&pools[p]);
        }
    }
}

static void test_bad_observation_calls_are_refused(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_state st;
        rp_test_init(game, &st, NULL);
        float probe[4] = {-1, -1, -1, -1};
        rp_error err = {{0}};
        if (!game->observation_tensor) {
            assert_int_equal(rp_observation(game, &st, 0, probe, 4, &err), RP_EUNSUPPORTED);
            continue;
        }
        float *obs = new_tensor(game);
        const size_t size = game->observation_size;
        obs[0] = -1.0f;
        assert_int_equal(rp_observation(game, &st, -1, obs, size, &err), RP_EINVAL);
        assert_non_null(strstr(err.msg, "player -1"));
        assert_int_equal(rp_observation(game, &st, game->num_players(&st), obs, size, &err),
                         RP_EINVAL);
        assert_int_equal(rp_observation(game, &st, 0, obs, size - 1, &err), RP_ENOSPACE);
        assert_true(obs[0] == -1.0f); /* nothing written */
        assert_int_equal(rp_observation(game, &st, 0, obs, size, &err), RP_OK);
        check_values(game, obs);
        free(obs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_tile_the_tensor),
        cmocka_unit_test(test_observations_show_exactly_the_view),
        cmocka_unit_test(test_bad_observation_calls_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
