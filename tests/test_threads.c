/* test_threads.c — the library used from several threads at once, as the server's worker pool
 * and `sim`/`arena` use it: the same seeded games, played by root-parallel search AIs on four
 * threads at once, give exactly what each gives played alone (moves, notation, views, events),
 * and the shared constant texts are the same from every thread. Under ThreadSanitizer (the
 * `threads` label, see .ci/run) this is where a shared buffer or a lazily filled table shows. */
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/ai.h"
#include "support.h"

#define THREADS 4
#define MOVES 30 /* moves of each game: enough to reach draws, reveals and reshuffles */

/* FNV-1a over text, so a whole game's story fits in one number to compare. */
static uint64_t mix_text(uint64_t hash, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        hash = (hash ^ *p) * 1099511628211u;
    return (hash ^ 0xff) * 1099511628211u;
}

static uint64_t mix_json(uint64_t hash, cJSON *json)
{
    char *text = cJSON_PrintUnformatted(json);
    if (!text)
        return 0;
    hash = mix_text(hash, text);
    free(text);
    cJSON_Delete(json);
    return hash;
}

/* One seeded game of `game` played by a root-parallel search for MOVES moves: a hash of every
 * move's notation, every state's notation, every viewer's view and every event told. Returns
 * 0 when something failed (a test thread must not call cmocka's fail). */
static uint64_t play_story(const rp_game *game, uint64_t seed)
{
    rp_config cfg;
    rp_config_default(game, &cfg);
    cfg.seed = seed;
    rp_state st;
    rp_error err = {{0}};
    if (game->init(&st, &cfg, &err) < 0)
        return 0;
    const char *spec =
        game->flags & RP_HIDDEN_INFO ? "ismcts:iters=120,threads=2" : "mcts:iters=120,threads=2";
    rp_ai *ai = NULL;
    if (rp_ai_create(game, spec, seed, &ai, &err) < 0)
        return 0;
    uint64_t hash = 1469598103934665603u;
    hash = mix_text(hash, rp_ai_help());
    for (int m = 0; m < MOVES && game->current_player(&st) != RP_TERMINAL; m++) {
        rp_action move;
        if (rp_ai_choose(ai, &st, &move, NULL, &err) < 0) {
            rp_ai_free(ai);
            return 0;
        }
        char text[RP_STATE_TEXT];
        game->action_to_text(&st, move, text, sizeof text);
        hash = mix_text(hash, text);
        for (int viewer = RP_SPECTATOR; viewer < game->num_players(&st); viewer++) {
            if (viewer == RP_TERMINAL)
                continue;
            hash = mix_text(hash, rp_viewer_name(game, viewer));
            hash = mix_json(hash, game->json->view(&st, viewer));
            if (game->json->events)
                hash = mix_json(hash, game->json->events(&st, move, viewer));
        }
        game->apply(&st, move);
        game->state_to_text(&st, text, sizeof text);
        hash = mix_text(hash, text);
        rp_state loaded;
        if (game->state_from_text(&loaded, text, &err) < 0 ||
            memcmp(&loaded, &st, game->state_size) != 0) {
            rp_ai_free(ai);
            return 0;
        }
    }
    rp_ai_free(ai);
    return hash;
}

typedef struct story_job {
    int first_game; /* each thread starts at another game, so different games run at once */
    uint64_t hash[16];
} story_job;

static void *play_every_game(void *arg)
{
    story_job *job = arg;
    for (int i = 0; i < rp_num_games; i++) {
        const int g = (job->first_game + i) % rp_num_games;
        job->hash[g] = play_story(rp_games[g], (uint64_t)g + 11);
    }
    return NULL;
}

static void test_games_on_many_threads_match_the_same_games_alone(void **unused)
{
    (void)unused;
    assert_true(rp_num_games <= 16);
    uint64_t alone[16];
    for (int g = 0; g < rp_num_games; g++) {
        alone[g] = play_story(rp_games[g], (uint64_t)g + 11);
        if (alone[g] == 0)
            fail_msg("%s: the seeded game failed on one thread", rp_games[g]->id);
    }
    pthread_t threads[THREADS];
    story_job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].first_game = t;
        assert_int_equal(pthread_create(&threads[t], NULL, play_every_game, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(pthread_join(threads[t], NULL), 0);
    for (int t = 0; t < THREADS; t++)
        for (int g = 0; g < rp_num_games; g++)
            if (jobs[t].hash[g] != alone[g])
                fail_msg("%s: the game played on thread %d beside others differs from the same "
                         "game played alone",
                         rp_games[g]->id, t);
}

/* The texts every front end shows are constants: the same pointer from every thread. */
typedef struct texts {
    const char *help, *seat, *rules;
} texts;

static void *read_texts(void *arg)
{
    texts *out = arg;
    out->help = rp_ai_help();
    out->seat = rp_seat_name(rp_games[0], 1);
    out->rules = rp_game_rules(rp_games[rp_num_games - 1]);
    return NULL;
}

static void test_shared_texts_are_constants(void **unused)
{
    (void)unused;
    pthread_t threads[THREADS];
    texts seen[THREADS];
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(pthread_create(&threads[t], NULL, read_texts, &seen[t]), 0);
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(pthread_join(threads[t], NULL), 0);
    for (int t = 1; t < THREADS; t++) {
        assert_ptr_equal(seen[t].help, seen[0].help);
        assert_ptr_equal(seen[t].seat, seen[0].seat);
        assert_ptr_equal(seen[t].rules, seen[0].rules);
    }
    assert_non_null(strstr(seen[0].help, "ismcts"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_texts_are_constants),
        cmocka_unit_test(test_games_on_many_threads_match_the_same_games_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
