/* support.c — helpers shared by the test programs (see support.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/rng.h"
#include "support.h"

int rp_test_games(int full)
{
    const char *env = getenv("RAMPARTS_PROPERTY_GAMES");
    if (env && *env) {
        char *end;
        const long n = strtol(env, &end, 10);
        if (n > 0 && n <= 100000000 && *end == '\0')
            return (int)n;
    }
    const char *soak = getenv("RAMPARTS_SOAK");
    if (soak && *soak && strcmp(soak, "0") != 0)
        return full;
    return full < RP_TEST_QUICK_GAMES ? full : RP_TEST_QUICK_GAMES;
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

int rp_test_init_draws_agree(const rp_game *game, const char *options)
{
    static rp_state fast, plain;
    rp_test_init(game, &fast, options);
    uint32_t values[64];
    rp_draws record = {.record = values, .record_cap = 64};
    rp_draws *before = rp_rng_use_draws(&record);
    rp_test_init(game, &plain, options);
    rp_rng_use_draws(before);
    assert_memory_equal(&fast, &plain, game->state_size);
    return (int)record.used;
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
            fail_msg("%s: notation '%s' reads back as %u, not %u", game->id, text, (unsigned)back,
                     (unsigned)legal[i]);
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

/* What render draws for viewer, as text (caller frees). */
static char *render_text(const rp_game *game, const void *st, int viewer)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    game->render(st, viewer, out, false);
    fclose(out);
    return text;
}

/* The screen is a function of the view: two states the viewer cannot tell apart draw the
 * same text. */
static void check_render_reads_only_the_view(const rp_game *game, const void *st,
                                             const void *sample, int viewer)
{
    char *a = render_text(game, st, viewer), *b = render_text(game, sample, viewer);
    if (strcmp(a, b) != 0)
        fail_msg("%s: render for %s shows what the view hides\n--- state\n%s--- a state "
                 "they cannot tell apart\n%s",
                 game->id, rp_viewer_name(game, viewer), a, b);
    free(a);
    free(b);
}

/* Two or more humans with an AI (rp_match_deal_unseen): determinize_seats for a random set
 * of two or more seats keeps each one's view, and reads only what they see together (the
 * same random stream from two states they cannot tell apart gives the same state). */
static void check_determinize_seats(const rp_game *game, const void *st, const rp_rng *stream)
{
    rp_rng own = *stream; /* leaves the caller's stream as it was: its games stay the same */
    rp_rng *rng = &own;
    const int players = game->num_players(st);
    if (players < 3 || game->current_player(st) == RP_TERMINAL)
        return;
    if (!game->determinize_seats)
        fail_msg("%s seats %d players with hidden information or chance but has no "
                 "determinize_seats",
                 game->id, players);
    uint32_t seats = 0;
    while (__builtin_popcount(seats) < 2 || seats == (1u << players) - 1)
        seats = rp_rng_below(rng, 1u << players);
    rp_state sample, again, twice;
    rp_state_copy(game, &sample, st);
    game->determinize_seats(&sample, seats, rng);
    rp_test_check_state_ok(game, &sample);
    for (int p = 0; p < players; p++) {
        if (!(seats & 1u << p))
            continue;
        cJSON *before = game->json->view(st, p), *after = game->json->view(&sample, p);
        if (!cJSON_Compare(before, after, true)) {
            char *b = cJSON_PrintUnformatted(before), *a = cJSON_PrintUnformatted(after);
            fail_msg("%s: determinize_seats for seats mask %u changed %s's view\nbefore %s\n"
                     "after  %s",
                     game->id, (unsigned)seats, rp_viewer_name(game, p), b, a);
        }
        cJSON_Delete(before);
        cJSON_Delete(after);
    }
    rp_state_copy(game, &again, st);
    rp_state_copy(game, &twice, &sample);
    rp_rng ra = *rng, rb = *rng;
    game->determinize_seats(&again, seats, &ra);
    game->determinize_seats(&twice, seats, &rb);
    if (memcmp(&again, &twice, game->state_size) != 0)
        fail_msg("%s: determinize_seats for mask %u depends on hidden parts it replaces", game->id,
                 (unsigned)seats);
}

static void check_views(const rp_game *game, const void *st, rp_rng *rng)
{
    if (game->flags & (RP_HIDDEN_INFO | RP_CHANCE))
        check_determinize_seats(game, st, rng);
    int players = game->num_players(st);
    int to_act = game->current_player(st);
    /* The spectator is checked in games that tell events (the fair-play interface). */
    for (int p = game->json->events ? RP_SPECTATOR : 0; p < players; p++) {
        if (p == RP_TERMINAL)
            continue;
        cJSON *before = game->json->view(st, p);
        assert_non_null(before);
        rp_state sample;
        rp_state_copy(game, &sample, st);
        game->determinize(&sample, p, rng);
        cJSON *after = game->json->view(&sample, p);
        assert_non_null(after);
        /* Comparing trees costs far less than printing them; print only to explain a failure. */
        if (!cJSON_Compare(before, after, true)) {
            char *b = cJSON_PrintUnformatted(before), *a = cJSON_PrintUnformatted(after);
            fail_msg("%s: determinizing for %s changed their view\nbefore %s\nafter  %s", game->id,
                     rp_viewer_name(game, p), b, a);
        }
        cJSON_Delete(before);
        cJSON_Delete(after);
        check_determinize_reads_only_the_view(game, st, &sample, p, rng);
        check_render_reads_only_the_view(game, st, &sample, p);
        if (to_act != RP_TERMINAL && game->json->events)
            rp_test_check_events(game, st, &sample, p, rng);
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
    rp_test_check_state_ok(game, st);
    rp_test_check_actions_json(game, st);
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

/* ---- the fair-play hooks: events, actions as data, invariants, options in effect ---- */

/* Every string anywhere in a JSON tree, appended to out separated by '\n' (for "is this name
 * shown somewhere in the view"). */
static void collect_strings(const cJSON *item, char **out, size_t *len)
{
    for (; item; item = item->next) {
        if (cJSON_IsString(item)) {
            size_t n = strlen(item->valuestring);
            *out = realloc(*out, *len + n + 3);
            assert_non_null(*out);
            (*out)[(*len)++] = '\n';
            memcpy(*out + *len, item->valuestring, n);
            *len += n;
            (*out)[(*len)++] = '\n';
            (*out)[*len] = '\0';
        }
        collect_strings(item->child, out, len);
    }
}

/* True when `name` is one of the strings of the view (as a whole string). */
static bool view_names(const char *strings, const char *name)
{
    char needle[256];
    snprintf(needle, sizeof needle, "\n%s\n", name);
    return strings && strstr(strings, needle) != NULL;
}

/* The shape every event must have, and every card it names must be shown to the viewer by
 * their view before or after the action. */
static void check_event_shapes(const rp_game *game, const cJSON *events, const char *shown,
                               int players, int viewer)
{
    assert_true(cJSON_IsArray(events));
    const cJSON *e;
    cJSON_ArrayForEach (e, events) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(e, "kind");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(e, "text");
        const cJSON *seat = cJSON_GetObjectItemCaseSensitive(e, "seat");
        const cJSON *reveal = cJSON_GetObjectItemCaseSensitive(e, "reveal");
        if (!cJSON_IsString(kind) || !kind->valuestring[0] || !cJSON_IsString(text) ||
            !text->valuestring[0]) {
            char *dump = cJSON_PrintUnformatted(e);
            fail_msg("%s: an event needs a kind and a text: %s", game->id, dump);
        }
        if (seat && (!cJSON_IsNumber(seat) || seat->valueint < 0 || seat->valueint >= players))
            fail_msg("%s: event '%s' has a seat out of range", game->id, kind->valuestring);
        if (reveal && !cJSON_IsTrue(reveal))
            fail_msg("%s: event '%s': reveal is true or absent", game->id, kind->valuestring);
        const cJSON *cards = cJSON_GetObjectItemCaseSensitive(e, "cards");
        const cJSON *card;
        cJSON_ArrayForEach (card, cards) {
            if (cJSON_IsNull(card))
                continue;
            if (!cJSON_IsString(card))
                fail_msg("%s: event '%s': cards are names or null", game->id, kind->valuestring);
            if (!view_names(shown, card->valuestring))
                fail_msg("%s: event '%s' tells %s of card %s, which their view does not show "
                         "before or after: %s",
                         game->id, kind->valuestring, rp_viewer_name(game, viewer),
                         card->valuestring, text->valuestring);
        }
    }
}

/* An action of `sample` that `viewer` observes as they observe `action` in st: the action
 * itself when legal there, else any with the same observation; RP_NO_ACTION if none. */
static rp_action twin_action(const rp_game *game, const void *st, const void *sample,
                             rp_action action, int viewer)
{
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(sample, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == action)
            return action;
    if (!game->observe_action)
        return RP_NO_ACTION;
    rp_action seen = game->observe_action(st, action, viewer);
    for (int i = 0; i < n; i++)
        if (game->observe_action(sample, legal[i], viewer) == seen)
            return legal[i];
    return RP_NO_ACTION;
}

void rp_test_check_events(const rp_game *game, const void *st, const void *sample, int viewer,
                          rp_rng *rng)
{
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(st, legal);
    assert_true(n > 0);
    rp_action action = legal[rp_rng_below(rng, (uint32_t)n)];
    rp_state after;
    rp_state_copy(game, &after, st);
    game->apply(&after, action);

    cJSON *events = game->json->events(st, action, viewer);
    assert_non_null(events);
    cJSON *view_before = game->json->view(st, viewer),
          *view_after = game->json->view(&after, viewer);
    char *shown = NULL;
    size_t len = 0;
    collect_strings(view_before, &shown, &len);
    collect_strings(view_after, &shown, &len);
    check_event_shapes(game, events, shown, game->num_players(st), viewer);
    free(shown);

    /* Non-interference: a state the viewer cannot tell apart, the action as they see it, and
     * the same view afterwards must tell the very same events. */
    rp_action twin = twin_action(game, st, sample, action, viewer);
    if (twin != RP_NO_ACTION) {
        rp_state twin_after;
        rp_state_copy(game, &twin_after, sample);
        game->apply(&twin_after, twin);
        cJSON *twin_view = game->json->view(&twin_after, viewer);
        if (cJSON_Compare(view_after, twin_view, true)) {
            cJSON *twin_events = game->json->events(sample, twin, viewer);
            if (!cJSON_Compare(events, twin_events, true)) {
                char *a = cJSON_PrintUnformatted(events), *b = cJSON_PrintUnformatted(twin_events);
                fail_msg("%s: events told to %s depend on what they cannot see\n%s\n%s", game->id,
                         rp_viewer_name(game, viewer), a, b);
            }
            cJSON_Delete(twin_events);
        }
        cJSON_Delete(twin_view);
    }
    cJSON_Delete(view_before);
    cJSON_Delete(view_after);
    cJSON_Delete(events);
}

void rp_test_check_actions_json(const rp_game *game, const void *st)
{
    if (!game->json->action)
        return;
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(st, legal);
    for (int i = 0; i < n; i++) {
        cJSON *a = rp_action_cjson(game, st, legal[i]);
        assert_non_null(a);
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(a, "kind");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(a, "id");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(a, "text");
        if (!cJSON_IsString(kind) || !cJSON_IsNumber(id) || !cJSON_IsString(text) ||
            (rp_action)id->valuedouble != legal[i])
            fail_msg("%s: action %u as data lacks kind, id or text", game->id, (unsigned)legal[i]);
        cJSON_Delete(a);
    }
}

void rp_test_check_state_ok(const rp_game *game, const void *st)
{
    if (!game->state_ok)
        return;
    rp_error err = {{0}};
    if (game->state_ok(st, &err) != RP_OK) {
        char text[RP_STATE_TEXT];
        game->state_to_text(st, text, sizeof text);
        fail_msg("%s: state_ok refuses a state reached by play: %s\n%s", game->id, err.msg, text);
    }
}
