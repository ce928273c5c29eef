/* test_wasm_api.c — the browser API of the WebAssembly build (src/wasm/api.c), compiled
 * natively so it runs under ASan and UBSan: bad requests are refused with a reason and change
 * nothing; a match is played through it (moves, AI moves, events, views, fair undo, resign);
 * the legal moves go only to the seat to act; an unfinished game against the AI shows nothing
 * of the AI's seat (not even a world drawn from its view), a world drawn from the human's view
 * looks to the human as the match does, and resuming deals anew what the human could not see; a record it writes
 * loads back to the same position; a review of a match or of a record's text is the terminal's;
 * the table of matches refuses a seventeenth. (wasm_parity plays the WebAssembly build itself
 * against the native engine.) */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/review.h"
#include "support.h"
#include "wasm/api.h"

/* The answer to a request, parsed; the caller frees it with cJSON_Delete. */
static cJSON *call(const char *request)
{
    char *text = rw_call(request);
    assert_non_null(text);
    cJSON *answer = cJSON_Parse(text);
    rw_free(text);
    assert_non_null(answer);
    return answer;
}

/* The request is refused with a message containing `reason`. */
static void refused(const char *request, const char *reason)
{
    cJSON *a = call(request);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(a, "error");
    if (!cJSON_IsString(error) || !strstr(error->valuestring, reason))
        fail_msg("%s: expected an error with '%s', got %s", request, reason,
                 cJSON_IsString(error) ? error->valuestring : "no error");
    cJSON_Delete(a);
}

/* A field of an answer that must have succeeded, as text (the caller frees it). */
static char *field_text(const char *request, const char *name)
{
    cJSON *a = call(request);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(a, "error");
    if (error)
        fail_msg("%s: refused: %s", request, cJSON_GetStringValue(error));
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(a, name);
    assert_non_null(v);
    char *text = cJSON_IsString(v) ? strdup(v->valuestring) : cJSON_PrintUnformatted(v);
    cJSON_Delete(a);
    return text;
}

static void bad_requests_are_refused(void **unused)
{
    (void)unused;
    refused("not json", "not JSON");
    refused("[1,2]", "JSON object");
    refused("{}", "'op'");
    refused("{\"op\": 7}", "'op' must be a string");
    refused("{\"op\": \"fly\"}", "no operation 'fly'");
    refused("{\"op\": \"new\", \"game\": \"chess\"}", "no game 'chess'");
    refused("{\"op\": \"new\", \"game\": \"castle-danger\", \"options\": \"players=9\"}",
            "players");
    refused("{\"op\": \"new\", \"game\": \"castle-danger\", \"seats\": [\"human\"]}",
            "each of the 2 seats");
    refused("{\"op\": \"new\", \"game\": \"castle-danger\", \"seats\": [\"human\", \"wizard\"]}",
            "wizard");
    refused("{\"op\": \"view\", \"match\": 3}", "no match 3");
    refused("{\"op\": \"view\", \"match\": 1.5}", "whole number");
    refused("{\"op\": \"view\", \"match\": 99}", "whole number");
    refused("{\"op\": \"load_record\", \"record\": \"[game nope]\\n\"}", "nope");
    refused("{\"op\": \"bench\", \"game\": \"castle-danger\", \"games\": 0}", "'games'");
}

static void a_match_through_the_api(void **unused)
{
    (void)unused;
    char *info = field_text("{\"op\": \"new\", \"game\": \"danger-at-the-walls\", \"options\": "
                            "\"seed=5\", \"seats\": [\"human\", \"easy\"]}",
                            "match");
    assert_string_equal(info, "0");
    free(info);
    char *before = field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": 0}", "view");
    /* Seat 0 acts first: the other seat is told no legal moves (they name seat 0's hand). */
    char *spectator =
        field_text("{\"op\": \"legal\", \"match\": 0, \"viewer\": \"spectator\"}", "legal");
    assert_string_equal(spectator, "[]");
    free(spectator);
    refused("{\"op\": \"play\", \"match\": 0, \"move\": \"flag wall 9\"}", "");
    refused("{\"op\": \"play\", \"match\": 0, \"move\": 99999}", "action id");
    char *same = field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": 0}", "view");
    assert_string_equal(before, same); /* refused moves changed nothing */
    free(same);
    free(before);
    char *legal = field_text("{\"op\": \"legal\", \"match\": 0, \"viewer\": 0}", "legal");
    cJSON *moves = cJSON_Parse(legal);
    free(legal);
    assert_true(cJSON_GetArraySize(moves) > 0);
    char request[512];
    snprintf(request, sizeof request,
             "{\"op\": \"play\", \"match\": 0, \"move\": %d, \"viewer\": 0}",
             cJSON_GetObjectItem(cJSON_GetArrayItem(moves, 0), "id")->valueint);
    cJSON_Delete(moves);
    char *events = field_text(request, "events");
    assert_true(strlen(events) > 2);
    free(events);
    /* Seat 0 is still to act, so the human may ask for a hint. */
    char *hint = field_text("{\"op\": \"hint\", \"match\": 0, \"spec\": \"greedy\"}", "text");
    free(hint);
    char *ai = field_text("{\"op\": \"genmove\", \"match\": 0, \"spec\": \"easy\", \"viewer\": 0}",
                          "text");
    assert_true(strlen(ai) > 0);
    free(ai);
    char *told =
        field_text("{\"op\": \"events\", \"match\": 0, \"viewer\": \"spectator\"}", "events");
    assert_true(strlen(told) > 2);
    free(told);
    char *view = field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": \"spectator\"}", "view");
    assert_true(view[0] == '{');
    free(view);
    char *taken =
        field_text("{\"op\": \"undo_fair\", \"match\": 0, \"seat\": 0, \"seed\": 9}", "taken");
    assert_true(atoi(taken) >= 1); /* seat 0's move and what followed it */
    free(taken);
    /* The record loads back into a new match at the same state. */
    char *record = field_text("{\"op\": \"record\", \"match\": 0}", "record");
    cJSON *load = cJSON_CreateObject();
    cJSON_AddStringToObject(load, "op", "load_record");
    cJSON_AddStringToObject(load, "record", record);
    char *load_text = cJSON_PrintUnformatted(load);
    cJSON_Delete(load);
    free(record);
    char *copy = field_text(load_text, "match");
    free(load_text);
    assert_string_equal(copy, "1");
    free(copy);
    char *a = field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": 0}", "view");
    char *b = field_text("{\"op\": \"view\", \"match\": 1, \"viewer\": 0}", "view");
    assert_string_equal(a, b);
    free(a);
    free(b);
    char *status = field_text("{\"op\": \"resign\", \"match\": 1, \"seat\": 0}", "status");
    assert_non_null(strstr(status, "resigned 0"));
    free(status);
    refused("{\"op\": \"play\", \"match\": 1, \"move\": 0}", "over");
    free(field_text("{\"op\": \"free\", \"match\": 1}", "ok"));
    free(field_text("{\"op\": \"free\", \"match\": 0}", "ok"));
    refused("{\"op\": \"info\", \"match\": 0}", "no match 0");
}

/* An unfinished game against the AI shows nothing of the AI's seat (rp_match_may_show), and
 * resuming deals anew what the human could not see, keeping the human's view. */
/* A world drawn from `seat`'s view of match 0 (the offline coach's, docs/wasm.md) looks to
 * that seat as the match does: the same view, once the seat is to act. */
static void sample_is_of_the_view(int seat)
{
    char *to_move = field_text("{\"op\": \"info\", \"match\": 0}", "to_move");
    if (atoi(to_move) != seat)
        free(field_text("{\"op\": \"genmove\", \"match\": 0, \"viewer\": 0}", "seat"));
    free(to_move);
    char request[128];
    snprintf(request, sizeof request,
             "{\"op\": \"sample\", \"match\": 0, \"viewer\": %d, \"seed\": 3}", seat);
    char *world = field_text(request, "state");
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "op", "preview");
    cJSON_AddStringToObject(req, "game", "king-of-danger");
    cJSON_AddStringToObject(req, "state", world);
    cJSON_AddNumberToObject(req, "viewer", seat);
    cJSON_AddArrayToObject(req, "moves");
    cJSON_AddNumberToObject(req, "seed", 5);
    char *preview = cJSON_PrintUnformatted(req);
    cJSON_Delete(req);
    char *seen = field_text(preview, "view");
    free(preview);
    snprintf(request, sizeof request, "{\"op\": \"view\", \"match\": 0, \"viewer\": %d}", seat);
    char *real = field_text(request, "view");
    assert_string_equal(seen, real);
    free(world);
    free(seen);
    free(real);
}

static void unfinished_games_against_the_ai_keep_secrets(void **unused)
{
    (void)unused;
    free(field_text("{\"op\": \"new\", \"game\": \"king-of-danger\", \"options\": "
                    "\"players=2 seed=4\", \"seats\": [\"human\", \"easy\"]}",
                    "match"));
    refused("{\"op\": \"view\", \"match\": 0, \"viewer\": 1}", "stay hidden");
    refused("{\"op\": \"legal\", \"match\": 0, \"viewer\": 1}", "stay hidden");
    refused("{\"op\": \"state\", \"match\": 0}", "stay hidden");
    refused("{\"op\": \"genmove\", \"match\": 0, \"viewer\": 1}", "stay hidden");
    refused("{\"op\": \"sample\", \"match\": 0, \"viewer\": 1, \"seed\": 3}", "stay hidden");
    sample_is_of_the_view(0);
    char *before = field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": 0}", "view");
    char *dealt = field_text("{\"op\": \"deal_unseen\", \"match\": 0, \"seed\": 77}", "dealt");
    assert_string_equal(dealt, "true");
    free(dealt);
    char *after = field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": 0}", "view");
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(field_text("{\"op\": \"resign\", \"match\": 0, \"seat\": 0}", "ok"));
    /* Over, it keeps nothing back. */
    free(field_text("{\"op\": \"state\", \"match\": 0}", "state"));
    free(field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": 1}", "view"));
    free(field_text("{\"op\": \"free\", \"match\": 0}", "ok"));
    /* Between people (here every seat human) nothing is held back and nothing is dealt. */
    free(field_text("{\"op\": \"new\", \"game\": \"king-of-danger\", \"options\": "
                    "\"players=2 seed=4\"}",
                    "match"));
    free(field_text("{\"op\": \"view\", \"match\": 0, \"viewer\": 1}", "view"));
    char *none = field_text("{\"op\": \"deal_unseen\", \"match\": 0, \"seed\": 77}", "dealt");
    assert_string_equal(none, "false");
    free(none);
    free(field_text("{\"op\": \"free\", \"match\": 0}", "ok"));
}

/* The review (docs/review.md) of a match and of its record's text give the same JSON, the one
 * rp_review_json gives the terminal; while the game goes on only the human seat's own past
 * moves against the computer are reviewed (issue 42). */
static void reviews_through_the_api(void **unused)
{
    (void)unused;
    free(field_text("{\"op\": \"new\", \"game\": \"danger-at-the-walls\", \"options\": "
                    "\"seed=5\", \"seats\": [\"human\", \"easy\"]}",
                    "match"));
    for (int i = 0; i < 6; i++)
        free(field_text("{\"op\": \"genmove\", \"match\": 0, \"spec\": \"random\"}", "seat"));
    const char *mine = "{\"op\": \"review\", \"match\": 0, \"seat\": 0, \"budget\": \"iters=50\"}";
    char *over = field_text(mine, "over");
    assert_string_equal(over, "false");
    free(over);
    char *type = field_text(mine, "type");
    assert_string_equal(type, "danger-at-the-walls");
    free(type);
    refused("{\"op\": \"review\", \"match\": 0, \"seat\": 1}", "not over");
    refused("{\"op\": \"review\", \"match\": 0, \"seat\": 4}", "seat 4");
    refused("{\"op\": \"review\", \"match\": 0}", "'seat'");
    refused("{\"op\": \"review\", \"match\": 0, \"seat\": 0, \"level\": \"random\"}",
            "easy, medium or hard");
    free(field_text("{\"op\": \"resign\", \"match\": 0, \"seat\": 0}", "status"));
    char *record = field_text("{\"op\": \"record\", \"match\": 0}", "record");
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "op", "review");
    cJSON_AddStringToObject(req, "record", record);
    cJSON_AddNumberToObject(req, "seat", 1);
    cJSON_AddStringToObject(req, "budget", "iters=50");
    char *by_record = cJSON_PrintUnformatted(req);
    cJSON_Delete(req);
    char *plies = field_text(by_record, "plies");
    char *same = field_text("{\"op\": \"review\", \"match\": 0, \"seat\": 1, \"budget\": "
                            "\"iters=50\"}",
                            "plies");
    assert_string_equal(plies, same);
    assert_non_null(strstr(plies, "\"decision\""));
    /* the terminal's: rp_review_json on the record read back */
    FILE *in = fmemopen(record, strlen(record), "r");
    rp_match *m = rp_record_read(in, "record", NULL);
    fclose(in);
    assert_non_null(m);
    const rp_review_opts opts = {.budget = "iters=50"};
    char *text = rp_review_json(m, 1, &opts, NULL);
    cJSON *doc = cJSON_Parse(text);
    char *terminal = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(doc, "plies"));
    assert_string_equal(plies, terminal);
    free(terminal);
    cJSON_Delete(doc);
    free(text);
    rp_match_free(m);
    free(plies);
    free(same);
    free(by_record);
    free(record);
    free(field_text("{\"op\": \"free\", \"match\": 0}", "ok"));
}

static void the_match_table_has_sixteen_places(void **unused)
{
    (void)unused;
    for (int i = 0; i < 16; i++)
        free(field_text("{\"op\": \"new\", \"game\": \"walls-and-armies\"}", "match"));
    refused("{\"op\": \"new\", \"game\": \"walls-and-armies\"}", "too many matches");
    char request[64];
    for (int i = 0; i < 16; i++) {
        snprintf(request, sizeof request, "{\"op\": \"free\", \"match\": %d}", i);
        free(field_text(request, "ok"));
    }
}

static void games_and_benchmarks_answer(void **unused)
{
    (void)unused;
    char *games = field_text("{\"op\": \"games\"}", "games");
    for (int i = 0; i < rp_num_games; i++)
        assert_non_null(strstr(games, rp_games[i]->id));
    free(games);
    char *rules = field_text("{\"op\": \"rules\", \"game\": \"king-of-danger\"}", "rules");
    assert_true(strlen(rules) > 100);
    free(rules);
    char *actions =
        field_text("{\"op\": \"bench\", \"game\": \"walls-and-armies\", \"games\": 3}", "actions");
    assert_true(atoi(actions) > 0);
    free(actions);
    free(field_text("{\"op\": \"bench_ai\", \"game\": \"walls-and-armies\", \"ms\": 5}",
                    "iters_per_s"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_requests_are_refused),
        cmocka_unit_test(a_match_through_the_api),
        cmocka_unit_test(unfinished_games_against_the_ai_keep_secrets),
        cmocka_unit_test(reviews_through_the_api),
        cmocka_unit_test(the_match_table_has_sixteen_places),
        cmocka_unit_test(games_and_benchmarks_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
