/* preview.c — what a move would do, for the page of an online game (docs/wasm.md): the server
 * sends the seat to act `sample`, one world drawn from that seat's view alone; each move asked
 * about is played there and in more worlds drawn again from it for the same seat, and the
 * answer keeps only what every world agrees on. No match is opened and nothing is decided:
 * the server referees the real move. */
#include <stdlib.h>
#include <string.h>

#include "preview.h"
#include "request.h"
#include "ramparts/json.h"

#define PREVIEW_WORLDS_DEFAULT 16
#define PREVIEW_WORLDS_MAX 32

/* True when the string `name` is a value somewhere in node (a view). */
static bool names(const cJSON *node, const char *name)
{
    if (cJSON_IsString(node))
        return strcmp(node->valuestring, name) == 0;
    const cJSON *child;
    cJSON_ArrayForEach (child, node)
        if (names(child, name))
            return true;
    return false;
}

/* The index of the first event that tells viewer something its view did not show before: a
 * reveal whose cards are not all in that view (a card drawn, turned up or shuffled in); the
 * number of events when none does. Such an outcome is chance or hidden, whatever the worlds
 * drawn happened to agree on, so the preview stops before it. */
static int first_news(const cJSON *events, const cJSON *view_before)
{
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach (e, events) {
        const cJSON *cards = cJSON_GetObjectItemCaseSensitive(e, "cards");
        bool news = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal")) &&
                    (!cJSON_IsArray(cards) || cJSON_GetArraySize(cards) == 0);
        const cJSON *c;
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal")))
            cJSON_ArrayForEach (c, cards)
                news = news || !cJSON_IsString(c) || !names(view_before, c->valuestring);
        if (news)
            return i;
        i++;
    }
    return i;
}

/* How many leading events of a and b are equal. */
static int common_prefix(const cJSON *a, const cJSON *b)
{
    int n = 0;
    for (const cJSON *x = a ? a->child : NULL, *y = b ? b->child : NULL; x && y;
         x = x->next, y = y->next, n++)
        if (!cJSON_Compare(x, y, true))
            break;
    return n;
}

/* One move's outcome in one world: its events told to viewer, and viewer's view after it;
 * false when the move is not legal there. */
static bool play_in_world(const rp_game *g, const void *world, const char *move, int viewer,
                          cJSON **events, cJSON **view_after)
{
    rp_action a;
    if (rp_parse_move(g, world, move, &a, NULL) < 0)
        return false;
    *events = rp_events_cjson(g, world, a, viewer, NULL);
    if (!*events)
        return false;
    rp_state after;
    rp_state_copy(g, &after, world);
    g->apply(&after, a);
    *view_after = g->json->view(&after, viewer);
    return true;
}

/* The preview of one move over the worlds: the leading events every world tells alike, up to
 * the first that tells viewer a card it had not seen, and whether the move's whole effect on
 * viewer is fixed by viewer's view: every world gives the same events and view after, and no
 * event tells viewer a card it had not seen. */
static cJSON *preview_move(const rp_game *g, const rp_state *worlds, int count, const char *move,
                           int viewer)
{
    cJSON *first = NULL, *first_view = NULL;
    int agreed = 0;
    bool determined = play_in_world(g, &worlds[0], move, viewer, &first, &first_view);
    if (determined) {
        cJSON *before = g->json->view(&worlds[0], viewer);
        agreed = first_news(first, before);
        determined = agreed == cJSON_GetArraySize(first);
        cJSON_Delete(before);
    }
    for (int w = 1; first && w < count; w++) {
        cJSON *events = NULL, *view = NULL;
        if (!play_in_world(g, &worlds[w], move, viewer, &events, &view)) {
            determined = false;
            agreed = 0;
        } else {
            const int same = common_prefix(first, events);
            agreed = same < agreed ? same : agreed;
            determined = determined && same == cJSON_GetArraySize(first) &&
                         same == cJSON_GetArraySize(events) &&
                         cJSON_Compare(first_view, view, true);
        }
        cJSON_Delete(events);
        cJSON_Delete(view);
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "move", move);
    cJSON_AddBoolToObject(o, "legal", first != NULL);
    cJSON_AddBoolToObject(o, "determined", determined);
    cJSON *kept = cJSON_AddArrayToObject(o, "events");
    for (int i = 0; i < agreed; i++)
        cJSON_AddItemToArray(kept, cJSON_Duplicate(cJSON_GetArrayItem(first, i), true));
    cJSON_Delete(first);
    cJSON_Delete(first_view);
    return o;
}

/* The worlds: the given state (a world drawn for viewer), then count-1 drawn again from it
 * for viewer, each with its own stream of seed. */
static void draw_worlds(const rp_game *g, const rp_state *given, int viewer, uint64_t seed,
                        rp_state *worlds, int count)
{
    rp_state_copy(g, &worlds[0], given);
    for (int w = 1; w < count; w++) {
        rp_rng rng;
        rp_rng_seed(&rng, seed, (uint64_t)w);
        rp_state_copy(g, &worlds[w], given);
        g->determinize(&worlds[w], viewer, &rng);
    }
}

static int field_moves(const cJSON *req, const cJSON **out, rp_error *err)
{
    const cJSON *moves = cJSON_GetObjectItemCaseSensitive(req, "moves");
    if (!cJSON_IsArray(moves) || cJSON_GetArraySize(moves) > RP_MAX_LEGAL)
        return rp_fail(err, RP_EINVAL, "'moves' must list at most %d moves in notation",
                       RP_MAX_LEGAL);
    const cJSON *m;
    cJSON_ArrayForEach (m, moves)
        if (!cJSON_IsString(m))
            return rp_fail(err, RP_EINVAL, "'moves' must list moves in notation (strings)");
    *out = moves;
    return RP_OK;
}

/* {"op": "preview", "game", "state" (a full-state notation: the server's sample), "viewer"
 * (the seat to act there), "moves": [notation...], "worlds"?, "seed"}: viewer's view of the
 * state (the page checks it is the view it shows) and per move: "legal", "determined" and the
 * "events" every world agreed on. */
cJSON *rw_op_preview(const cJSON *req, rp_error *err)
{
    const rp_game *g;
    const char *text;
    const cJSON *moves;
    long long viewer = 0, worlds = 0, seed = 0;
    if (rw_field_game(req, &g, err) < 0 ||
        rw_field_text(req, "state", true, NULL, &text, err) < 0 ||
        rw_field_int(req, "viewer", true, 0, 0, RP_MAX_PLAYERS - 1, &viewer, err) < 0 ||
        rw_field_int(req, "worlds", false, PREVIEW_WORLDS_DEFAULT, 1, PREVIEW_WORLDS_MAX, &worlds,
                     err) < 0 ||
        rw_field_int(req, "seed", true, 0, 0, (1LL << 53) - 1, &seed, err) < 0 ||
        field_moves(req, &moves, err) < 0)
        return NULL;
    rp_state given;
    if (g->state_from_text(&given, text, err) < 0)
        return NULL;
    if (g->current_player(&given) != (int)viewer) {
        rp_fail(err, RP_EINVAL, "%s is not to act in this state", rp_seat_name(g, (int)viewer));
        return NULL;
    }
    rp_state *w = malloc((size_t)worlds * sizeof *w);
    if (!w) {
        rp_fail(err, RP_ENOMEM, "out of memory for the worlds");
        return NULL;
    }
    draw_worlds(g, &given, (int)viewer, (uint64_t)seed, w, (int)worlds);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", true);
    cJSON *view = g->json->view(&given, (int)viewer);
    cJSON_AddItemToObject(o, "view", view ? view : cJSON_CreateNull());
    cJSON *previews = cJSON_AddArrayToObject(o, "previews");
    const cJSON *m;
    cJSON_ArrayForEach (m, moves)
        cJSON_AddItemToArray(previews,
                             preview_move(g, w, (int)worlds, m->valuestring, (int)viewer));
    free(w);
    return o;
}

/* {"op": "sample", "game", "state", "viewer", "seed"}: the state with everything viewer cannot
 * see drawn anew (the game's determinize), as the server draws `sample` for the seat to act;
 * for tests and tools that play the server's part. */
cJSON *rw_op_sample(const cJSON *req, rp_error *err)
{
    const rp_game *g;
    const char *text;
    long long viewer = 0, seed = 0;
    if (rw_field_game(req, &g, err) < 0 ||
        rw_field_text(req, "state", true, NULL, &text, err) < 0 ||
        rw_field_int(req, "viewer", true, 0, 0, RP_MAX_PLAYERS - 1, &viewer, err) < 0 ||
        rw_field_int(req, "seed", true, 0, 0, (1LL << 53) - 1, &seed, err) < 0)
        return NULL;
    rp_state st;
    if (g->state_from_text(&st, text, err) < 0)
        return NULL;
    if (!rp_viewer_ok(g, &st, (int)viewer)) {
        rp_fail(err, RP_EINVAL, "'viewer' must be a seat of this game");
        return NULL;
    }
    rp_rng rng;
    rp_rng_seed(&rng, (uint64_t)seed, 0);
    g->determinize(&st, (int)viewer, &rng);
    char out[RP_STATE_TEXT];
    if (g->state_to_text(&st, out, sizeof out) < 0) {
        rp_fail(err, RP_ENOSPACE, "the sample's notation does not fit");
        return NULL;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", true);
    cJSON_AddStringToObject(o, "state", out);
    return o;
}
