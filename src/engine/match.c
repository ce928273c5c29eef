/* match.c — a game in progress as the front ends hold it (engine.h): options in effect, start
 * position, who plays each seat, and the history of moves, undos, re-samples and the ending.
 * Undo replays the history from the start, which is exact because all chance comes from the
 * rng inside the state and every re-sample is stored with its seed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- the history and the states it gives ---- */

void rp__apply_entry(const rp_match *m, const rp__entry *e, void *st)
{
    if (e->kind == RP_ENTRY_MOVE) {
        m->game->apply(st, e->action);
    } else if (e->kind == RP_ENTRY_RESAMPLE) {
        rp_rng rng;
        rp_rng_seed(&rng, e->value, 0x72657361u); /* "resa" */
        if (e->seats && m->game->determinize_seats)
            m->game->determinize_seats(st, e->seats, &rng);
        else
            m->game->determinize(st, e->seat, &rng);
    }
}

const void *rp__state_at(const rp_match *m, size_t i)
{
    if (i >= m->length)
        return &m->state;
    rp_match *walk = (rp_match *)m; /* the cursor only: see struct rp_match */
    if (!walk->cursor_ok || walk->cursor_at > i) {
        rp_state_copy(m->game, &walk->cursor, &m->start);
        walk->cursor_at = 0;
        walk->cursor_ok = true;
    }
    for (; walk->cursor_at < i; walk->cursor_at++)
        rp__apply_entry(m, &m->history[walk->cursor_at], &walk->cursor);
    return &walk->cursor;
}

void rp_match_referee(const rp_match *m, size_t i, rp_state *state, rp_action *action)
{
    if (state)
        rp_state_copy(m->game, state, rp__state_at(m, i));
    if (action)
        *action = i < m->length && m->history[i].kind == RP_ENTRY_MOVE ? m->history[i].action
                                                                       : RP_NO_ACTION;
}

/* Cut the history to its first `count` entries and recompute the state. */
static void truncate_history(rp_match *m, size_t count)
{
    size_t moves = 0;
    m->end = RP_END_NONE;
    m->losers = 0;
    for (size_t i = 0; i < count; i++) {
        moves += m->history[i].kind == RP_ENTRY_MOVE;
        if (m->history[i].kind == RP_ENTRY_END) {
            m->end = m->history[i].reason;
            m->losers = m->history[i].seats;
        }
    }
    m->length = count;
    m->num_moves = moves;
    if (m->cursor_ok && m->cursor_at > count)
        m->cursor_ok = false;
    if (count == 0) {
        rp_state_copy(m->game, &m->state, &m->start);
        return;
    }
    rp_state_copy(m->game, &m->state, rp__state_at(m, count - 1));
    rp__apply_entry(m, &m->history[count - 1], &m->state);
}

int rp__reserve(rp_match *m, size_t want, rp_error *err)
{
    if (want <= m->cap)
        return RP_OK;
    size_t cap = m->cap ? m->cap : 256;
    while (cap < want)
        cap *= 2;
    rp__entry *history = realloc(m->history, cap * sizeof *history);
    if (!history)
        return rp_fail(err, RP_ENOMEM, "out of memory");
    m->history = history;
    m->cap = cap;
    return RP_OK;
}

int rp__push_entry(rp_match *m, rp__entry entry, rp_error *err)
{
    int rc = rp__reserve(m, m->length + 1, err);
    if (rc < 0)
        return rc;
    m->history[m->length++] = entry;
    return RP_OK;
}

/* ---- making and keeping matches ---- */

static void set_all_human(rp_match *m)
{
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        snprintf(m->seats[p], sizeof m->seats[p], "%s", RP_HUMAN);
}

rp_match *rp_match_new(const rp_game *game, const rp_config *cfg, rp_error *err)
{
    rp_match *m = calloc(1, sizeof *m);
    if (!m) {
        rp_fail(err, RP_ENOMEM, "out of memory for a match");
        return NULL;
    }
    m->game = game;
    if (game->init(&m->start, cfg, err) < 0) {
        free(m);
        return NULL;
    }
    rp_config_of(game, &m->start, cfg, &m->config);
    set_all_human(m);
    truncate_history(m, 0);
    return m;
}

int rp_match_load(rp_match *m, const char *notation, rp_error *err)
{
    if (strlen(notation) >= sizeof m->position)
        return rp_fail(err, RP_ENOSPACE, "position notation too long");
    rp_state loaded;
    int rc = m->game->state_from_text(&loaded, notation, err);
    if (rc < 0)
        return rc;
    rp_state_copy(m->game, &m->start, &loaded);
    snprintf(m->position, sizeof m->position, "%s", notation);
    m->from_position = true;
    rp_config base = m->config;
    base.players = m->game->num_players(&loaded);
    rp_config_of(m->game, &loaded, &base, &m->config);
    m->cursor_ok = false;
    truncate_history(m, 0);
    return RP_OK;
}

rp_match *rp_match_clone(const rp_match *m)
{
    rp_match *copy = malloc(sizeof *copy);
    if (!copy)
        return NULL;
    memcpy(copy, m, sizeof *copy);
    copy->history = NULL;
    copy->cap = 0;
    if (m->length && rp__reserve(copy, m->length, NULL) < 0) {
        free(copy);
        return NULL;
    }
    if (m->length)
        memcpy(copy->history, m->history, m->length * sizeof *m->history);
    return copy;
}

void rp_match_free(rp_match *m)
{
    if (!m)
        return;
    free(m->history);
    free(m);
}

/* ---- facts ---- */

const rp_game *rp_match_game(const rp_match *m)
{
    return m->game;
}

const rp_config *rp_match_config(const rp_match *m)
{
    return &m->config;
}

int rp_match_players(const rp_match *m)
{
    return m->game->num_players(&m->state);
}

int rp_match_to_move(const rp_match *m)
{
    return m->end != RP_END_NONE ? RP_TERMINAL : m->game->current_player(&m->state);
}

int rp_match_turn(const rp_match *m)
{
    return m->game->turn_number ? m->game->turn_number(&m->state) : 0;
}

size_t rp_match_moves(const rp_match *m)
{
    return m->num_moves;
}

size_t rp_match_length(const rp_match *m)
{
    return m->length;
}

rp_entry_info rp_match_entry(const rp_match *m, size_t i)
{
    rp_entry_info info = {.kind = RP_ENTRY_UNDO, .seat = -1};
    if (i >= m->length)
        return info;
    const rp__entry *e = &m->history[i];
    info.kind = e->kind;
    info.seat = e->seat;
    info.count = e->kind == RP_ENTRY_UNDO ? e->value : 0;
    info.seats = e->kind == RP_ENTRY_RESAMPLE || e->kind == RP_ENTRY_END ? e->seats : 0;
    info.reason = e->kind == RP_ENTRY_END ? e->reason : RP_END_NONE;
    for (size_t k = 0; e->kind == RP_ENTRY_MOVE && k <= i; k++)
        info.move += m->history[k].kind == RP_ENTRY_MOVE;
    return info;
}

size_t rp_match_move_index(const rp_match *m, size_t n)
{
    for (size_t i = 0, moves = 0; i < m->length; i++)
        if (m->history[i].kind == RP_ENTRY_MOVE && moves++ == n)
            return i;
    return m->length;
}

bool rp_match_from_position(const rp_match *m)
{
    return m->from_position;
}

/* ---- who plays each seat ---- */

int rp_match_set_player(rp_match *m, int seat, const char *who, rp_error *err)
{
    if (seat < 0 || seat >= rp_match_players(m))
        return rp_fail(err, RP_EINVAL, "no seat %d: seats are 0 to %d", seat,
                       rp_match_players(m) - 1);
    if (strlen(who) >= sizeof m->seats[seat] || strpbrk(who, " \t\r\n]"))
        return rp_fail(err, RP_EINVAL, "'%.40s': a player is '%s' or an AI spec without spaces",
                       who, RP_HUMAN);
    if (strcmp(who, RP_HUMAN) != 0) {
        rp_ai *ai;
        int rc = rp_ai_create(m->game, who, 1, &ai, err);
        if (rc < 0)
            return rc;
        rp_ai_free(ai);
    }
    snprintf(m->seats[seat], sizeof m->seats[seat], "%s", who);
    return RP_OK;
}

const char *rp_match_player(const rp_match *m, int seat)
{
    return seat >= 0 && seat < RP_MAX_PLAYERS ? m->seats[seat] : "";
}

bool rp_match_is_human(const rp_match *m, int seat)
{
    return seat >= 0 && seat < RP_MAX_PLAYERS && strcmp(m->seats[seat], RP_HUMAN) == 0;
}

int rp_match_humans(const rp_match *m)
{
    int humans = 0;
    for (int p = 0; p < rp_match_players(m); p++)
        humans += rp_match_is_human(m, p);
    return humans;
}

/* ---- playing ---- */

bool rp_match_over(const rp_match *m)
{
    return rp_match_to_move(m) == RP_TERMINAL;
}

int rp_match_play(rp_match *m, rp_action action, rp_error *err)
{
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    if (!rp_is_legal(m->game, &m->state, action)) {
        char why[RP_ERROR_TEXT];
        rp_explain_illegal(m->game, &m->state, action, why, sizeof why);
        return rp_fail(err, RP_EILLEGAL, "%s", why);
    }
    rp__entry e = {
        .kind = RP_ENTRY_MOVE, .seat = m->game->current_player(&m->state), .action = action};
    int rc = rp__push_entry(m, e, err);
    if (rc < 0)
        return rc;
    m->num_moves++;
    /* The position before this move becomes the cursor: the events of the last move, told
     * to each viewer in turn, need no replay. */
    rp_state_copy(m->game, &m->cursor, &m->state);
    m->cursor_at = m->length - 1;
    m->cursor_ok = true;
    m->game->apply(&m->state, action);
    return RP_OK;
}

int rp_match_play_text(rp_match *m, const char *text, rp_error *err)
{
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    rp_action action;
    int rc = m->game->action_from_text(&m->state, text, &action, err);
    if (rc < 0)
        return rc;
    return rp_match_play(m, action, err);
}

bool rp_match_same_move(const rp_match *m, size_t i, int seat, const char *text)
{
    if (i >= m->length || m->history[i].kind != RP_ENTRY_MOVE || m->history[i].seat != seat)
        return false;
    rp_action action;
    return m->game->action_from_text(rp__state_at(m, i), text, &action, NULL) == RP_OK &&
           action == m->history[i].action;
}

/* A seed for the AI of `seat` at this point of the match (splitmix64 of the three). */
static uint64_t genmove_seed(const rp_match *m, int seat)
{
    uint64_t z =
        m->config.seed * 0x9e3779b97f4a7c15u + (uint64_t)m->num_moves * 1000003u + (uint64_t)seat;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Make the AI `spec`, with a time cap when asked and the AI takes one (searches do). */
static int make_ai(const rp_match *m, const char *spec, long ms, uint64_t seed, rp_ai **ai,
                   rp_error *err)
{
    if (ms > 0) {
        char timed[RP_RECORD_SEAT_TEXT + 48];
        snprintf(timed, sizeof timed, "%s%sms=%ld", spec, strchr(spec, ':') ? "," : ":", ms);
        if (rp_ai_create(m->game, timed, seed, ai, NULL) == RP_OK)
            return RP_OK;
    }
    return rp_ai_create(m->game, spec, seed, ai, err);
}

int rp_match_choose(const rp_match *m, const char *spec, long ms, uint64_t seed, rp_genmove *out,
                    rp_error *err)
{
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    const int seat = m->game->current_player(&m->state);
    if (!spec && rp_match_is_human(m, seat))
        return rp_fail(err, RP_EINVAL, "%s is played by a human", rp_seat_name(m->game, seat));
    rp_ai *ai;
    int rc = make_ai(m, spec ? spec : m->seats[seat], ms, seed, &ai, err);
    if (rc < 0)
        return rc;
    rp_genmove g = {.seat = seat, .info = {.win_chance = -1}};
    rc = rp_ai_choose(ai, &m->state, &g.action, &g.info, err);
    rp_ai_free(ai);
    if (rc < 0)
        return rc;
    if (m->game->action_to_text(&m->state, g.action, g.text, sizeof g.text) < 0)
        g.text[0] = '\0';
    *out = g;
    return RP_OK;
}

int rp_match_genmove(rp_match *m, const char *spec, long ms, rp_genmove *out, rp_error *err)
{
    rp_genmove g = {.seat = rp_match_to_move(m)};
    int rc = rp_match_choose(m, spec, ms, genmove_seed(m, g.seat), &g, err);
    if (rc < 0)
        return rc;
    rc = rp_match_play(m, g.action, err);
    if (rc < 0)
        return rc;
    if (out)
        *out = g;
    return RP_OK;
}

/* ---- taking moves back ---- */

/* Index of the last MOVE entry (by `seat` when seat >= 0), or -1. */
static long last_move(const rp_match *m, int seat)
{
    for (size_t i = m->length; i-- > 0;)
        if (m->history[i].kind == RP_ENTRY_MOVE && (seat < 0 || m->history[i].seat == seat))
            return (long)i;
    return -1;
}

int rp_match_undo(rp_match *m, rp_error *err)
{
    long i = last_move(m, -1);
    if (i < 0)
        return rp_fail(err, RP_EINVAL, "no move to undo");
    truncate_history(m, (size_t)i);
    return RP_OK;
}

/* The first move from `from` on that showed something hidden or left to chance, or -1. */
static long revealed_since(const rp_match *m, size_t from)
{
    if (!(m->game->flags & (RP_HIDDEN_INFO | RP_CHANCE)))
        return -1; /* nothing hidden, nothing left to chance: nothing to reveal */
    for (size_t i = from; i < m->length; i++)
        if (m->history[i].kind == RP_ENTRY_MOVE &&
            rp_action_reveals(m->game, rp__state_at(m, i), m->history[i].action))
            return (long)i;
    return -1;
}

/* Hot seat: the seat's own last move, only when nothing came after it and it showed nothing. */
static int check_hot_seat_undo(const rp_match *m, long at, rp_error *err)
{
    for (size_t i = (size_t)at + 1; i < m->length; i++) {
        if (m->history[i].kind != RP_ENTRY_MOVE)
            continue;
        const int who = m->history[i].seat;
        return rp_fail(err, RP_EINVAL,
                       "%s (%s) has moved since: at a shared table you can take "
                       "back only your own last move, before anyone else moves",
                       rp_seat_name(m->game, who), m->seats[who]);
    }
    if (revealed_since(m, (size_t)at) >= 0)
        return rp_fail(err, RP_EINVAL,
                       "your last move showed something that was hidden or "
                       "left to chance, so it cannot be taken back at a shared table");
    return RP_OK;
}

int rp_match_may_undo(const rp_match *m, int seat, rp_error *err)
{
    if (m->end != RP_END_NONE)
        return rp_fail(err, RP_EOVER, "the game is over");
    if (!rp_match_is_human(m, seat))
        return rp_fail(err, RP_EINVAL, "%s is not played by a human", rp_seat_name(m->game, seat));
    long at = last_move(m, seat);
    if (at < 0)
        return rp_fail(err, RP_EINVAL, "you have no move to take back");
    if (rp_match_humans(m) > 1 && check_hot_seat_undo(m, at, err) < 0)
        return RP_EINVAL;
    return RP_OK;
}

int rp_match_undo_fair(rp_match *m, int seat, uint64_t seed, size_t *taken, rp_error *err)
{
    int rc = rp_match_may_undo(m, seat, err);
    if (rc < 0)
        return rc;
    const long at = last_move(m, seat);
    const bool hot_seat = rp_match_humans(m) > 1;
    /* Room for the two notes first, so nothing below can fail half-way. */
    rc = rp__reserve(m, m->length + 2, err);
    if (rc < 0)
        return rc;
    size_t count = m->num_moves;
    truncate_history(m, (size_t)at);
    count -= m->num_moves;
    rp__entry note = {.kind = RP_ENTRY_UNDO, .seat = seat, .value = count};
    rp__push_entry(m, note, NULL);
    if ((m->game->flags & (RP_HIDDEN_INFO | RP_CHANCE)) && !hot_seat) {
        rp__entry resample = {.kind = RP_ENTRY_RESAMPLE, .seat = seat, .value = seed};
        rp__push_entry(m, resample, NULL);
    }
    truncate_history(m, m->length);
    if (taken)
        *taken = count;
    return RP_OK;
}

int rp_match_takeback_from(const rp_match *m, int seat, size_t *from, rp_error *err)
{
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    const long at = last_move(m, seat);
    if (at < 0)
        return rp_fail(err, RP_EINVAL, "you have no move to take back");
    if (revealed_since(m, (size_t)at) >= 0)
        return rp_fail(err, RP_EINVAL,
                       "something hidden was revealed since your last move: it stands");
    if (from) {
        *from = 0;
        for (long i = 0; i < at; i++)
            *from += m->history[i].kind == RP_ENTRY_MOVE;
    }
    return RP_OK;
}

int rp_match_takeback(rp_match *m, int seat, rp_error *err)
{
    int rc = rp_match_takeback_from(m, seat, NULL, err);
    if (rc < 0)
        return rc;
    truncate_history(m, (size_t)last_move(m, seat));
    return RP_OK;
}

/* ---- secrets kept from the table ---- */

bool rp_match_keeps_secrets(const rp_match *m)
{
    if (rp_match_over(m) || !(m->game->flags & (RP_HIDDEN_INFO | RP_CHANCE)))
        return false;
    const int humans = rp_match_humans(m);
    return humans > 0 && humans < rp_match_players(m);
}

bool rp_match_may_show(const rp_match *m, int viewer)
{
    return viewer == RP_SPECTATOR || rp_match_is_human(m, viewer) || !rp_match_keeps_secrets(m);
}

int rp_match_deal_unseen(rp_match *m, uint64_t seed, bool *dealt, rp_error *err)
{
    if (dealt)
        *dealt = false;
    if (!rp_match_keeps_secrets(m))
        return RP_OK;
    uint32_t humans = 0;
    for (int p = rp_match_players(m) - 1; p >= 0; p--)
        if (rp_match_is_human(m, p))
            humans |= 1u << p;
    const bool several = (humans & (humans - 1)) != 0;
    if (several && !m->game->determinize_seats)
        return rp_fail(err, RP_EUNSUPPORTED, "%s cannot deal anew what several seats did not see",
                       m->game->id);
    int human = 0;
    while (!(humans & 1u << human))
        human++;
    rp__entry resample = {
        .kind = RP_ENTRY_RESAMPLE, .seat = human, .value = seed, .seats = several ? humans : 0};
    int rc = rp__push_entry(m, resample, err);
    if (rc < 0)
        return rc;
    rp__apply_entry(m, &resample, &m->state);
    if (dealt)
        *dealt = true;
    return RP_OK;
}
