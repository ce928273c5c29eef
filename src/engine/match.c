/* match.c — a game in progress as the front ends see it: options, start position, move
 * history. Undo replays the history from the start, which is exact because all chance comes
 * from the rng inside the state. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/engine.h"

static void reset_history(rp_match *m)
{
    m->num_moves = 0;
    rp_state_copy(m->game, &m->state, &m->start);
}

int rp_match_new(rp_match *m, const rp_game *game, const rp_config *cfg, rp_error *err)
{
    memset(m, 0, sizeof *m);
    m->game = game;
    int rc = game->init(&m->start, cfg, err);
    if (rc < 0)
        return rc;
    /* the options in effect, derived ones included, so a record replays as played */
    rp_config_of(game, &m->start, cfg, &m->config);
    reset_history(m);
    return RP_OK;
}

int rp_match_load(rp_match *m, const char *notation, rp_error *err)
{
    rp_state loaded;
    int rc = m->game->state_from_text(&loaded, notation, err);
    if (rc < 0)
        return rc;
    if (strlen(notation) >= sizeof m->position)
        return rp_fail(err, RP_ENOSPACE, "position notation too long");
    rp_state_copy(m->game, &m->start, &loaded);
    snprintf(m->position, sizeof m->position, "%s", notation);
    m->from_position = true;
    m->config.players = m->game->num_players(&loaded);
    rp_config_of(m->game, &loaded, &m->config, &m->config);
    reset_history(m);
    return RP_OK;
}

void rp_match_free(rp_match *m)
{
    free(m->moves);
    m->moves = NULL;
    m->num_moves = m->cap_moves = 0;
}

static int push_move(rp_match *m, rp_action action, rp_error *err)
{
    if (m->num_moves == m->cap_moves) {
        size_t cap = m->cap_moves ? m->cap_moves * 2 : 256;
        rp_action *moves = realloc(m->moves, cap * sizeof *moves);
        if (!moves)
            return rp_fail(err, RP_ENOSPACE, "out of memory");
        m->moves = moves;
        m->cap_moves = cap;
    }
    m->moves[m->num_moves++] = action;
    return RP_OK;
}

int rp_match_play(rp_match *m, rp_action action, rp_error *err)
{
    if (m->game->current_player(&m->state) == RP_TERMINAL)
        return rp_fail(err, RP_EOVER, "the game is over");
    if (!rp_is_legal(m->game, &m->state, action))
        return rp_fail(err, RP_EILLEGAL, "that move is not legal here");
    int rc = push_move(m, action, err);
    if (rc < 0)
        return rc;
    m->game->apply(&m->state, action);
    return RP_OK;
}

int rp_match_play_text(rp_match *m, const char *text, rp_error *err)
{
    rp_action action;
    int rc = rp_parse_move(m->game, &m->state, text, &action, err);
    if (rc < 0)
        return rc;
    return rp_match_play(m, action, err);
}

int rp_match_undo(rp_match *m, rp_error *err)
{
    if (m->num_moves == 0)
        return rp_fail(err, RP_EINVAL, "no move to undo");
    size_t keep = m->num_moves - 1;
    reset_history(m);
    for (size_t i = 0; i < keep; i++)
        m->game->apply(&m->state, m->moves[i]);
    m->num_moves = keep;
    return RP_OK;
}

bool rp_match_over(const rp_match *m)
{
    return m->game->current_player(&m->state) == RP_TERMINAL;
}

void rp_match_status(const rp_match *m, char *buf, size_t size)
{
    if (!rp_match_over(m)) {
        snprintf(buf, size, "ongoing");
        return;
    }
    double r[RP_MAX_PLAYERS] = {0};
    m->game->returns(&m->state, r);
    int players = m->game->num_players(&m->state);
    int winners = 0, winner = -1;
    for (int p = 0; p < players; p++)
        if (r[p] > 0) {
            winners++;
            winner = p;
        }
    int n;
    if (winners == 1)
        n = snprintf(buf, size, "over winner %d returns", winner);
    else
        n = snprintf(buf, size, "over shared returns");
    for (int p = 0; p < players && n > 0 && (size_t)n < size; p++)
        n += snprintf(buf + n, size - (size_t)n, " %.4g", r[p]);
}
