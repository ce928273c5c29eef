/* view.c — the match's only window (engine.h): what a seat or the spectator may know, built by
 * the game from the referee's state (its view, its drawing, the events of each move told to
 * that viewer), what the seat to act may know of its own choice (its legal moves, their
 * notation), and worlds drawn from a view. Nothing here hands out the referee's state. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ramparts/json.h"

/* A history index that names a position: 0 to length (length: now). */
static int check_at(const rp_match *m, size_t i, rp_error *err)
{
    if (i > m->length)
        return rp_fail(err, RP_EINVAL, "no history entry %zu: the history has %zu", i, m->length);
    return RP_OK;
}

static int check_viewer(const rp_match *m, int viewer, rp_error *err)
{
    if (!rp_viewer_ok(m->game, &m->state, viewer))
        return rp_fail(err, RP_EINVAL, "viewer %d is neither a seat (0 to %d) nor the spectator",
                       viewer, rp_match_players(m) - 1);
    return RP_OK;
}

static char *print_json(cJSON *json, bool pretty, rp_error *err)
{
    char *text = json ? (pretty ? cJSON_Print(json) : cJSON_PrintUnformatted(json)) : NULL;
    cJSON_Delete(json);
    if (!text)
        rp_fail(err, RP_ENOMEM, "out of memory");
    return text;
}

/* ---- views and drawings ---- */

char *rp_match_view_at(const rp_match *m, size_t i, int viewer, bool pretty, rp_error *err)
{
    if (check_at(m, i, err) < 0 || check_viewer(m, viewer, err) < 0)
        return NULL;
    return print_json(m->game->json->view(rp__state_at(m, i), viewer), pretty, err);
}

char *rp_match_view(const rp_match *m, int viewer, bool pretty, rp_error *err)
{
    return rp_match_view_at(m, m->length, viewer, pretty, err);
}

int rp_match_render_at(const rp_match *m, size_t i, int viewer, bool color, FILE *out)
{
    if (check_at(m, i, NULL) < 0 || check_viewer(m, viewer, NULL) < 0)
        return RP_EINVAL;
    m->game->render(rp__state_at(m, i), viewer, out, color);
    return RP_OK;
}

int rp_match_render(const rp_match *m, int viewer, bool color, FILE *out)
{
    return rp_match_render_at(m, m->length, viewer, color, out);
}

/* ---- what each move did ---- */

/* For a game that tells no events: who moved, and the move when the viewer saw which it was. */
static cJSON *plain_move_event(const rp_game *game, const void *before, rp_action action,
                               int viewer)
{
    const int actor = game->current_player(before);
    const bool seen = viewer == actor || !(game->flags & RP_HIDDEN_INFO) || !game->observe_action ||
                      game->observe_action(before, action, viewer) == action;
    char move[RP_ACTION_TEXT], text[RP_ACTION_TEXT + 96];
    if (seen && game->action_to_text(before, action, move, sizeof move) >= 0)
        snprintf(text, sizeof text, "%s plays %s.", rp_seat_name(game, actor), move);
    else
        snprintf(text, sizeof text, "%s makes a move you cannot see.", rp_seat_name(game, actor));
    cJSON *events = cJSON_CreateArray();
    cJSON *event = cJSON_CreateObject();
    cJSON_AddStringToObject(event, "kind", "move");
    cJSON_AddStringToObject(event, "text", text);
    cJSON_AddNumberToObject(event, "seat", actor);
    cJSON_AddItemToArray(events, event);
    return events;
}

char *rp_match_events(const rp_match *m, size_t i, int viewer, rp_error *err)
{
    if (i >= m->length || m->history[i].kind != RP_ENTRY_MOVE) {
        rp_fail(err, RP_EINVAL, "history entry %zu is not a move", i);
        return NULL;
    }
    if (check_viewer(m, viewer, err) < 0)
        return NULL;
    const void *before = rp__state_at(m, i);
    const rp_action action = m->history[i].action;
    cJSON *events = m->game->json && m->game->json->events
                        ? rp_events_cjson(m->game, before, action, viewer, err)
                        : plain_move_event(m->game, before, action, viewer);
    return events ? print_json(events, false, err) : NULL;
}

int rp_match_move_text(const rp_match *m, size_t i, int viewer, char *buf, size_t size,
                       rp_error *err)
{
    if (i >= m->length || m->history[i].kind != RP_ENTRY_MOVE)
        return rp_fail(err, RP_EINVAL, "history entry %zu is not a move", i);
    if (viewer != m->history[i].seat && (m->game->flags & RP_HIDDEN_INFO))
        return rp_fail(err, RP_EINVAL, "a move's notation is told only to its player");
    int n = m->game->action_to_text(rp__state_at(m, i), m->history[i].action, buf, size);
    return n < 0 ? rp_fail(err, RP_ENOSPACE, "the notation does not fit") : n;
}

/* ---- the seat to act ---- */

int rp_match_legal(const rp_match *m, rp_action *out)
{
    return rp_match_over(m) ? 0 : m->game->legal_actions(&m->state, out);
}

char *rp_match_legal_json(const rp_match *m, rp_error *err)
{
    return print_json(rp_match_over(m) ? cJSON_CreateArray() : rp_legal_cjson(m->game, &m->state),
                      false, err);
}

char *rp_match_action_json(const rp_match *m, rp_action action, rp_error *err)
{
    if (!rp_match_is_legal(m, action)) {
        rp_fail(err, RP_EILLEGAL, "not a legal move here");
        return NULL;
    }
    cJSON *json = rp_action_cjson(m->game, &m->state, action);
    if (!json) {
        rp_fail(err, RP_EUNSUPPORTED, "%s does not describe its moves", m->game->id);
        return NULL;
    }
    return print_json(json, false, err);
}

bool rp_match_is_legal(const rp_match *m, rp_action action)
{
    return !rp_match_over(m) && rp_is_legal(m->game, &m->state, action);
}

int rp_match_action_text(const rp_match *m, rp_action action, char *buf, size_t size)
{
    if (!rp_match_is_legal(m, action))
        return RP_EILLEGAL;
    return m->game->action_to_text(&m->state, action, buf, size);
}

int rp_match_parse(const rp_match *m, const char *text, rp_action *out, rp_error *err)
{
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    rp_action action;
    if (m->game->action_from_text(&m->state, text, &action, err) < 0)
        return RP_EPARSE; /* whatever the game's reader said: the text is not a move here */
    if (!rp_is_legal(m->game, &m->state, action)) {
        char why[RP_ERROR_TEXT];
        rp_explain_illegal(m->game, &m->state, action, why, sizeof why);
        return rp_fail(err, RP_EILLEGAL, "%s", why);
    }
    *out = action;
    return RP_OK;
}

int rp_match_moves_summary(const rp_match *m, char *buf, size_t size)
{
    if (rp_match_over(m) || !m->game->moves_summary)
        return -1;
    return m->game->moves_summary(&m->state, buf, size);
}

/* ---- worlds drawn from a view, and the referee's own notation ---- */

int rp_match_sample(const rp_match *m, int viewer, uint64_t seed, char *buf, size_t size,
                    rp_error *err)
{
    if (check_viewer(m, viewer, err) < 0)
        return RP_EINVAL;
    if (!m->game->determinize)
        return rp_fail(err, RP_EUNSUPPORTED, "%s draws no worlds", m->game->id);
    rp_state world;
    rp_state_copy(m->game, &world, &m->state);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 0x73616d70u); /* "samp" */
    m->game->determinize(&world, viewer, &rng);
    int n = m->game->state_to_text(&world, buf, size);
    return n < 0 ? rp_fail(err, RP_ENOSPACE, "the notation does not fit") : n;
}

int rp_match_position_text(const rp_match *m, char *buf, size_t size, rp_error *err)
{
    if (rp_match_keeps_secrets(m))
        return rp_fail(err, RP_EINVAL, "the AI's cards stay hidden until the game ends");
    int n = m->game->state_to_text(&m->state, buf, size);
    return n < 0 ? rp_fail(err, RP_ENOSPACE, "the state notation does not fit") : n;
}
