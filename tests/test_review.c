/* test_review.c — the review of one seat's game (include/ramparts/review.h, docs/review.md):
 * twin records that differ only in cards the seat never saw give the same review, for every
 * game with hidden cards; marks follow the thresholds; chance events are luck, never an error;
 * the search's root edges account for every iteration. Small budgets: the sizes are in
 * `make bench-review`, not here. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "ai/search.h"
#include "ramparts/review.h"
#include "support.h"

#define BUDGET "iters=150"

/* A match from a full-state notation: a record that starts from a position. */
static rp_match *match_at(const rp_game *game, const void *st)
{
    rp_config cfg;
    rp_config_default(game, &cfg);
    rp_error err = {{0}};
    rp_match *m = rp_match_new(game, &cfg, &err);
    assert_non_null(m);
    char text[RP_STATE_TEXT];
    assert_true(game->state_to_text(st, text, sizeof text) > 0);
    if (rp_match_load(m, text, &err) < 0)
        fail_msg("%s: %s", game->id, err.msg);
    return m;
}

static char *review_of(const rp_match *m, int seat, const char *budget)
{
    rp_error err = {{0}};
    const rp_review_opts opts = {.budget = budget};
    char *text = rp_review_json(m, seat, &opts, &err);
    if (!text)
        fail_msg("%s: review of seat %d: %s", rp_match_game(m)->id, seat, err.msg);
    return text;
}

static bool same_view(const rp_match *a, const rp_match *b, int seat)
{
    char *va = rp_match_view(a, seat, false, NULL), *vb = rp_match_view(b, seat, false, NULL);
    const bool same = va && vb && strcmp(va, vb) == 0;
    free(va);
    free(vb);
    return same;
}

static bool same_events(const rp_match *a, const rp_match *b, int seat)
{
    const size_t last = rp_match_length(a) - 1;
    char *ea = rp_match_events(a, last, seat, NULL), *eb = rp_match_events(b, last, seat, NULL);
    const bool same = ea && eb && strcmp(ea, eb) == 0;
    free(ea);
    free(eb);
    return same;
}

/* Play `action` on both twins; keep it when `seat` is told the same in both, else take it
 * back from both. */
static bool play_alike(rp_match *a, rp_match *b, int seat, rp_action action)
{
    assert_int_equal(rp_match_play(a, action, NULL), RP_OK);
    assert_int_equal(rp_match_play(b, action, NULL), RP_OK);
    if (same_view(a, b, seat) && same_events(a, b, seat))
        return true;
    assert_int_equal(rp_match_undo(a, NULL), RP_OK);
    assert_int_equal(rp_match_undo(b, NULL), RP_OK);
    return false;
}

/* Play on twins a and b the same random moves, legal in both, that tell `seat` the same in
 * both, while there is one. Returns how many of the seat's decisions the twins share. */
static int play_twins(rp_match *a, rp_match *b, int seat, rp_rng *rng)
{
    int decisions = 0;
    for (int step = 0; step < 60 && !rp_match_over(a); step++) {
        rp_action legal[RP_MAX_LEGAL], both[RP_MAX_LEGAL];
        const int n = rp_match_legal(a, legal);
        int common = 0;
        for (int i = 0; i < n; i++)
            if (rp_match_is_legal(b, legal[i]))
                both[common++] = legal[i];
        if (rp_match_to_move(a) != rp_match_to_move(b))
            return decisions;
        const int mover = rp_match_to_move(a);
        const int first = common ? (int)rp_rng_below(rng, (uint32_t)common) : 0;
        int tried = 0; /* every common move in turn, from a random one */
        while (tried < common && !play_alike(a, b, seat, both[(first + tried) % common]))
            tried++;
        if (tried == common)
            return decisions;
        decisions += mover == seat;
    }
    return decisions;
}

/* Issue 42: "Twin records that differ only in cards a seat never saw give identical reviews
 * for that seat." From positions along a random game: the real one and one drawn again for the
 * seat (determinize: everything it cannot see dealt anew), played on alike while the seat is
 * told the same. */
static void twins_of(const rp_game *game, int seat, uint64_t seed, int *compared)
{
    rp_rng rng;
    rp_rng_seed(&rng, seed, 42);
    rp_state st, twin;
    char options[32];
    snprintf(options, sizeof options, "seed=%llu", (unsigned long long)seed);
    rp_test_init(game, &st, options);
    const int skip = (int)rp_rng_below(&rng, 12);
    for (int i = 0; i < skip && game->current_player(&st) != RP_TERMINAL; i++)
        rp_test_random_step(game, &st, &rng);
    if (game->current_player(&st) == RP_TERMINAL)
        return;
    rp_state_copy(game, &twin, &st);
    game->determinize(&twin, seat, &rng);
    rp_match *a = match_at(game, &st), *b = match_at(game, &twin);
    if (play_twins(a, b, seat, &rng) > 0) {
        char *ra = review_of(a, seat, BUDGET), *rb = review_of(b, seat, BUDGET);
        if (strcmp(ra, rb) != 0)
            fail_msg("%s: seat %d's reviews of twin records differ\n%s\n%s", game->id, seat, ra,
                     rb);
        assert_non_null(strstr(ra, "\"decision\""));
        free(ra);
        free(rb);
        (*compared)++;
    }
    rp_match_free(a);
    rp_match_free(b);
}

static void test_twin_records_give_the_same_review(void **state)
{
    (void)state;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        if (!(game->flags & RP_HIDDEN_INFO))
            continue;
        int compared = 0;
        for (uint64_t seed = 1; seed <= 40 && compared < 3; seed++)
            twins_of(game, (int)(seed % 2), seed, &compared);
        if (compared < 2) /* the test must test something: twins that share decisions */
            fail_msg("%s: only %d twin pairs shared a decision of the seat", game->id, compared);
    }
}

/* A whole random game's record of `game`, seed `seed`. */
static rp_match *random_game(const rp_game *game, uint64_t seed)
{
    rp_config cfg;
    rp_config_default(game, &cfg);
    cfg.seed = seed;
    rp_match *m = rp_match_new(game, &cfg, NULL);
    assert_non_null(m);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 7);
    for (int i = 0; i < 400 && !rp_match_over(m); i++) {
        rp_action legal[RP_MAX_LEGAL];
        const int n = rp_match_legal(m, legal);
        assert_int_equal(rp_match_play(m, legal[rp_rng_below(&rng, (uint32_t)n)], NULL), RP_OK);
    }
    return m;
}

static double number(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

/* One decision: its mark is the one its drop earns (docs/review.md), none when forced or when
 * the move played is the one preferred. */
static void check_decision(const cJSON *d, int *marked)
{
    const cJSON *mark = cJSON_GetObjectItemCaseSensitive(d, "mark");
    const cJSON *after = cJSON_GetObjectItemCaseSensitive(d, "after");
    const double before = number(d, "before");
    assert_true(before >= 0 && before <= 1);
    assert_true(number(d, "best_chances") == before);
    const bool forced = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "forced"));
    const bool same = strcmp(cJSON_GetObjectItemCaseSensitive(d, "move")->valuestring,
                             cJSON_GetObjectItemCaseSensitive(d, "best")->valuestring) == 0;
    const char *want = NULL;
    if (cJSON_IsNumber(after) && !forced && !same)
        want = rp_review_mark(before - after->valuedouble);
    if (!want) {
        assert_true(cJSON_IsNull(mark));
        return;
    }
    assert_true(cJSON_IsString(mark));
    assert_string_equal(mark->valuestring, want);
    (*marked)++;
}

/* Every entry of a review: the reviewed seat's moves judged, others' not, chance events luck
 * with no judgment (issue 42: "chance events are shown as luck, not as anyone's error"). */
static void check_entries(const cJSON *doc, int seat, int players, int *marked, int *luck)
{
    const cJSON *entry;
    cJSON_ArrayForEach (entry, cJSON_GetObjectItemCaseSensitive(doc, "plies")) {
        const cJSON *actor = cJSON_GetObjectItemCaseSensitive(entry, "actor");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(entry, "decision");
        const cJSON *chances = cJSON_GetObjectItemCaseSensitive(entry, "chances");
        if (chances) {
            assert_int_equal(cJSON_GetArraySize(chances), players);
            double sum = 0;
            const cJSON *c;
            cJSON_ArrayForEach (c, chances)
                sum += c->valuedouble;
            assert_true(sum > 0.99 && sum < 1.01); /* shares of one win */
        }
        if (cJSON_IsNull(actor)) {
            assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(entry, "luck")));
            assert_null(d);
            (*luck)++;
            continue;
        }
        assert_null(cJSON_GetObjectItemCaseSensitive(entry, "luck"));
        assert_int_equal(d != NULL, (int)actor->valuedouble == seat);
        if (d)
            check_decision(d, marked);
    }
}

static void test_marks_follow_the_thresholds_and_chance_is_luck(void **state)
{
    (void)state;
    assert_null(rp_review_mark(RP_REVIEW_INACCURACY - 0.0001));
    assert_string_equal(rp_review_mark(RP_REVIEW_INACCURACY), "inaccuracy");
    assert_string_equal(rp_review_mark(RP_REVIEW_MISTAKE), "mistake");
    assert_string_equal(rp_review_mark(RP_REVIEW_BLUNDER), "blunder");
    assert_string_equal(rp_review_mark(1.0), "blunder");
    int marked = 0, luck = 0;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_match *m = random_game(game, 5);
        char *text = review_of(m, 0, "iters=100");
        cJSON *doc = cJSON_Parse(text);
        assert_non_null(doc);
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(doc, "type")->valuestring, game->id);
        check_entries(doc, 0, rp_match_players(m), &marked, &luck);
        /* the chart's first point: the chances before the first move, when it is the seat's */
        const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "plies"), 0);
        const cJSON *start = cJSON_GetObjectItemCaseSensitive(doc, "start_chances");
        if (number(first, "actor") == 0)
            assert_int_equal(cJSON_GetArraySize(start), rp_match_players(m));
        else
            assert_null(start);
        cJSON_Delete(doc);
        free(text);
        rp_match_free(m);
    }
    /* random play blunders, and four of the games draw or deal: both kinds were checked */
    assert_true(marked > 0);
    assert_true(luck > 0);
}

/* The review refuses what it cannot do, and a live game only allows a human's own past moves
 * against the computer (issue 42: "A review is refused while the game is live"). */
static void test_refusals(void **state)
{
    (void)state;
    const rp_game *game = rp_game_find("danger-at-the-walls");
    rp_match *m = random_game(game, 3);
    rp_error err = {{0}};
    assert_null(rp_review_json(m, 2, NULL, &err));
    assert_non_null(strstr(err.msg, "seat 2"));
    const rp_review_opts bad_level = {.level = "random"};
    assert_int_equal(rp_review_check(game, &bad_level, &err), RP_EINVAL);
    assert_non_null(strstr(err.msg, "easy, medium or hard"));
    const rp_review_opts bad_budget = {.budget = "iters=banana"};
    assert_int_equal(rp_review_check(game, &bad_budget, &err), RP_EINVAL);
    assert_int_equal(rp_review_allowed(m, 0, &err), RP_OK); /* over */
    rp_match_free(m);

    rp_config cfg;
    rp_config_default(game, &cfg);
    m = rp_match_new(game, &cfg, NULL);
    assert_int_equal(rp_review_allowed(m, 0, &err), RP_EUNSUPPORTED); /* two humans, live */
    assert_non_null(strstr(err.msg, "not over"));
    assert_int_equal(rp_match_set_player(m, 1, "easy", NULL), RP_OK);
    assert_int_equal(rp_review_allowed(m, 0, &err), RP_OK);           /* the human's own */
    assert_int_equal(rp_review_allowed(m, 1, &err), RP_EUNSUPPORTED); /* the computer's */
    rp_match_free(m);
}

/* The root edges the review reads (rp_search_root_edges) account for every iteration, their
 * returns are shares of one win, and the move chosen is the most tried: reading them is
 * reading the search that played. */
static void test_root_edges_account_for_the_search(void **state)
{
    (void)state;
    const rp_game *game = rp_game_find("walls-and-armies");
    rp_state st;
    rp_test_init(game, &st, "seed=9");
    rp_rng rng;
    rp_rng_seed(&rng, 9, 1);
    for (int i = 0; i < 4; i++) /* past the opening, to a choice of several moves */
        rp_test_random_step(game, &st, &rng);
    rp_ai *ai;
    assert_int_equal(rp_ai_create(game, "hard:iters=400", 3, &ai, NULL), RP_OK);
    rp_action chosen;
    rp_ai_info info;
    assert_int_equal(rp_ai_choose(ai, &st, &chosen, &info, NULL), RP_OK);
    rp_search_edge edges[RP_MAX_LEGAL];
    const int n = rp_search_root_edges(ai, edges, RP_MAX_LEGAL);
    assert_true(n > 1);
    double visits = 0, most = 0;
    rp_action most_tried = RP_NO_ACTION;
    for (int i = 0; i < n; i++) {
        visits += edges[i].visits;
        const double sum = edges[i].returns[0] + edges[i].returns[1];
        assert_true(sum > edges[i].visits - 1e-6 && sum < edges[i].visits + 1e-6);
        if (edges[i].visits > most)
            most = edges[i].visits, most_tried = edges[i].action;
    }
    assert_true(visits == (double)info.iterations);
    assert_int_equal(most_tried, chosen);
    rp_ai_free(ai);
    rp_ai *random;
    assert_int_equal(rp_ai_create(game, "random", 3, &random, NULL), RP_OK);
    assert_int_equal(rp_search_root_edges(random, edges, RP_MAX_LEGAL), RP_EINVAL);
    rp_ai_free(random);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twin_records_give_the_same_review),
        cmocka_unit_test(test_marks_follow_the_thresholds_and_chance_is_luck),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_root_edges_account_for_the_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
