/* challenge.c — challenges and the settings that refuse them (see challenge.h): each checked
 * whole before anything is stored, kept in the store (so a restart or another server finds
 * them), taken from it exactly once at their end, and told to both users on every server. */
#include "challenge.h"

#include <cjson/cJSON.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "log.h"
#include "pools.h"

#define LIVE_EXPIRY_MS (10 * 60 * 1000LL)
#define CORRESPONDENCE_EXPIRY_MS (3 * 86400 * 1000LL)
#define NO_DUE INT64_MAX /* rs_store_challenges_read: every pending challenge */

/* ---- the challenge as the protocol shows it ---- */

static cJSON *challenge_json(const rs_challenge_row *row)
{
    const rp_game *game = rp_game_find(row->game);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)row->id);
    cJSON_AddStringToObject(o, "from", row->from_name);
    cJSON_AddStringToObject(o, "to", row->to_name);
    cJSON_AddStringToObject(o, "type", row->game);
    cJSON_AddStringToObject(o, "title", game ? game->title : row->game);
    cJSON *options = cJSON_Parse(row->options);
    cJSON_AddItemToObject(o, "options", options ? options : cJSON_CreateObject());
    cJSON_AddItemToObject(
        o, "clock",
        rs_pools_clock_json(row->clock_kind, row->initial_ms, row->increment_ms, row->per_move_ms));
    cJSON_AddBoolToObject(o, "rated", row->rated);
    cJSON_AddNumberToObject(o, "created_ms", (double)row->created_ms);
    cJSON_AddNumberToObject(o, "expires_ms", (double)row->expires_ms);
    return o;
}

/* `challenge-gone` to both users' connections, here and on every server. */
static void tell_gone(rs_server *srv, const rs_challenge_row *row, const char *why)
{
    cJSON *m = rs_server_message("challenge-gone");
    cJSON_AddNumberToObject(m, "challenge", (double)row->id);
    cJSON_AddStringToObject(m, "why", why);
    rs_pools_tell_user(srv, row->from, m);
    rs_pools_tell_user(srv, row->to, m);
    cJSON_Delete(m);
}

/* ---- send ---- */

/* The game, options, clock, rating and seat of a challenge into row (and s, to try them):
 * two players only, everything as create checks it. */
static int read_terms(const cJSON *msg, rs_table_settings *s, rs_challenge_row *row, rs_err *e)
{
    const char *type;
    if (!rs_field_string(msg, "type", true, 64, &type, e))
        return -1;
    if (!(s->game = rp_game_find(type)))
        return rs_fail(e, "bad-game", "unknown game '%.40s' (see /api/v1/types)", type);
    if (s->game->min_players > 2 || s->game->max_players < 2)
        return rs_fail(e, "bad-option", "%s is not played by two: a challenge is for two",
                       s->game->title);
    rp_config_default(s->game, &s->config);
    s->config.players = 2;
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(msg, "options");
    bool rated = false;
    int64_t seat = -1;
    if (rs_field_options(options, s, e) < 0 ||
        rs_field_clock(cJSON_GetObjectItemCaseSensitive(msg, "clock"), s, e) < 0 ||
        !rs_field_bool(msg, "rated", &rated, e) ||
        !rs_field_int(msg, "seat", false, INT32_MIN, INT32_MAX, &seat, e))
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(msg, "seat") && (seat < 0 || seat > 1))
        return rs_fail(e, "bad-seat", "seat: 0 or 1 (yours), or none for a random one");
    rp_state trial;
    rp_error err = {{0}};
    if (s->game->init(&trial, &s->config, &err) < 0) /* options the game refuses */
        return rs_fail(e, "bad-option", "%s", err.msg);
    if (rs_field_options_text(options, row->options, sizeof row->options, e) < 0)
        return -1;
    snprintf(row->game, sizeof row->game, "%s", s->game->id);
    row->clock_kind = (int)s->clock_kind;
    row->initial_ms = s->initial_ms;
    row->increment_ms = s->increment_ms;
    row->per_move_ms = s->per_move_ms;
    row->rated = rated;
    row->seat = (int)seat;
    return 0;
}

/* The target: a registered account other than the sender's that takes challenges. */
static int read_target(rs_server *srv, const rs_conn *c, const cJSON *msg, rs_challenge_row *row,
                       rs_err *e)
{
    const char *to;
    if (!rs_field_string(msg, "to", true, 64, &to, e))
        return -1;
    rs_user target;
    const int rc = rs_store_user_find(srv->store, to, &target);
    if (rc != RS_STORE_OK && rc != RS_STORE_NOTFOUND)
        return rs_server_store_down(srv, e, "cannot read the users");
    if (rc == RS_STORE_NOTFOUND || target.guest)
        return rs_fail(e, "no-such-user", "no registered player is named '%.40s'", to);
    if (target.id == c->user)
        return rs_fail(e, "bad-target", "you cannot challenge yourself");
    bool allows = true;
    if (rs_store_setting_get(srv->store, target.id, &allows) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot read the player's settings");
    if (!allows)
        return rs_fail(e, "refused", "%s does not take challenges", target.name);
    row->to = target.id;
    snprintf(row->to_name, sizeof row->to_name, "%s", target.name);
    return 0;
}

/* The challenges `user` sent that still wait, into *sent. */
static int sent_by(rs_server *srv, int64_t user, size_t *sent, rs_err *e)
{
    rs_challenge_row *rows = NULL;
    size_t n = 0;
    *sent = 0;
    if (rs_store_challenges_read(srv->store, user, NO_DUE, &rows, &n) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot read the challenges");
    for (size_t i = 0; i < n; i++)
        *sent += rows[i].from == user;
    free(rows);
    return 0;
}

/* The sender's pending challenges, and those of every user connected here from the same
 * address (issue 49, finding 5): one past --max-challenges or --max-challenges-per-ip is
 * refused. */
static int check_sent(rs_server *srv, const rs_conn *c, rs_err *e)
{
    size_t sent = 0;
    if (sent_by(srv, c->user, &sent, e) < 0)
        return -1;
    if (sent >= (size_t)srv->cfg.max_challenges)
        return rs_fail(e, "too-many", "you have %zu challenges waiting already: cancel one first",
                       sent);
    int64_t users[RS_USERS_FROM_MAX];
    const size_t n_users = rs_server_users_from(srv, c->holder, users, RS_USERS_FROM_MAX);
    size_t from_address = 0;
    for (size_t i = 0; i < n_users; i++) {
        if (sent_by(srv, users[i], &sent, e) < 0)
            return -1;
        from_address += sent;
    }
    if (from_address >= (size_t)srv->cfg.max_challenges_per_ip)
        return rs_fail(e, "too-many", "%zu challenges sent from your address are waiting already",
                       from_address);
    return 0;
}

static int64_t expiry_ms(const rs_server *srv, const rs_challenge_row *row)
{
    if (srv->cfg.challenge_expiry_ms > 0)
        return srv->cfg.challenge_expiry_ms;
    return row->clock_kind == RS_CLOCK_CORRESPONDENCE ? CORRESPONDENCE_EXPIRY_MS : LIVE_EXPIRY_MS;
}

static int op_send(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    if (c->guest)
        return rs_fail(e, "not-registered", "register an account to challenge a player");
    if (srv->draining)
        return rs_fail(e, "draining", "the server is shutting down: no new games");
    rs_table_settings s = {0};
    rs_challenge_row row = {0};
    if (read_terms(msg, &s, &row, e) < 0 || read_target(srv, c, msg, &row, e) < 0)
        return -1;
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "the store is unavailable");
    if (check_sent(srv, c, e) < 0)
        return -1;
    row.from = c->user;
    snprintf(row.from_name, sizeof row.from_name, "%s", c->name);
    row.created_ms = rs_server_now_ms(srv);
    row.expires_ms = row.created_ms + expiry_ms(srv, &row);
    if (rs_store_challenge_add(srv->store, &row) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot store the challenge");
    srv->mine_dirty = true;
    cJSON *m = rs_server_message("challenged");
    cJSON_AddItemToObject(m, "challenge", challenge_json(&row));
    rs_reply(srv, c, m, msg);
    cJSON *told = rs_server_message("challenge");
    cJSON_AddItemToObject(told, "challenge", challenge_json(&row));
    rs_pools_tell_user(srv, row.to, told);
    cJSON_Delete(told);
    return 0;
}

/* ---- accept, decline, cancel ---- */

/* The settings of the game a challenge makes, from its row (checked when it was sent; false
 * only when this server no longer knows the game or its options). */
static bool row_settings(const rs_challenge_row *row, rs_table_settings *s)
{
    *s = (rs_table_settings){.rated = row->rated,
                             .clock_kind = (rs_clock_kind)row->clock_kind,
                             .initial_ms = row->initial_ms,
                             .increment_ms = row->increment_ms,
                             .per_move_ms = row->per_move_ms};
    return rs_field_stored_game(row->game, row->options, 2, s);
}

/* Challenge `id` taken from the store, when c's user may end it that way (the target accepts
 * or declines, the sender cancels) and it has not expired; anything else is
 * no-such-challenge and takes nothing. With `s` (an accept), the game's settings too, made
 * before the row is taken: a challenge whose game cannot be made stays. */
static int take(rs_server *srv, const rs_conn *c, const cJSON *msg, bool as_target,
                rs_table_settings *s, rs_challenge_row *row, rs_err *e)
{
    int64_t id;
    if (!rs_field_int(msg, "challenge", true, 1, INT64_MAX / 2, &id, e))
        return -1;
    rs_challenge_row *rows = NULL;
    size_t n = 0;
    if (rs_store_challenges_read(srv->store, c->user, NO_DUE, &rows, &n) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot read your challenges");
    bool yours = false; /* and not past its expiry, which the next sweep tells */
    const int64_t now = rs_server_now_ms(srv);
    for (size_t i = 0; i < n; i++)
        if (rows[i].id == id && rows[i].expires_ms > now &&
            (as_target ? rows[i].to : rows[i].from) == c->user) {
            yours = true;
            *row = rows[i];
        }
    free(rows);
    if (!yours)
        return rs_fail(e, "no-such-challenge", "you have no challenge %lld to %s", (long long)id,
                       as_target ? "answer" : "cancel");
    if (s && !row_settings(row, s))
        return rs_fail(e, "server-error", "this server cannot make the game of challenge %lld",
                       (long long)id);
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "the store is unavailable");
    const int rc = rs_store_challenge_take(srv->store, id, row);
    if (rc == RS_STORE_NOTFOUND) /* ended a moment ago, here or on another server */
        return rs_fail(e, "no-such-challenge", "challenge %lld has just ended", (long long)id);
    if (rc != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot take the challenge");
    srv->mine_dirty = true;
    return 0;
}

static void reply_done(rs_server *srv, rs_conn *c, const cJSON *msg, int64_t game)
{
    cJSON *m = rs_server_message("done");
    cJSON_AddStringToObject(m, "re", "challenge");
    if (game)
        cJSON_AddNumberToObject(m, "game", (double)game);
    rs_reply(srv, c, m, msg);
}

/* The game of an accepted challenge, started with both seated, and `paired` to each. */
static const rs_table *start_game(rs_server *srv, const rs_challenge_row *row, rs_table_settings *s)
{
    const int seat = row->seat >= 0 ? row->seat : (int)randombytes_uniform(2);
    int64_t users[2];
    users[seat] = row->from;
    users[1 - seat] = row->to;
    rs_ctx ctx = rs_server_ctx(srv);
    const rs_table *t = rs_pools_start_game(srv, &ctx, s, users);
    for (int i = 0; t && i < 2; i++) {
        cJSON *m = rs_server_message("paired");
        cJSON_AddNumberToObject(m, "game", (double)t->row.id);
        cJSON_AddNumberToObject(m, "seat", i);
        cJSON_AddNumberToObject(m, "challenge", (double)row->id);
        rs_pools_tell_user(srv, users[i], m);
        cJSON_Delete(m);
    }
    return t;
}

static int op_accept(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    if (srv->draining)
        return rs_fail(e, "draining", "the server is shutting down: no new games");
    rs_challenge_row row = {0};
    rs_table_settings s = {0};
    if (take(srv, c, msg, true, &s, &row, e) < 0)
        return -1;
    const rs_table *t = start_game(srv, &row, &s);
    if (!t)
        return rs_fail(e, "server-error", "cannot create the game");
    rs_log("game %lld started from challenge %lld", (long long)t->row.id, (long long)row.id);
    tell_gone(srv, &row, "accepted");
    reply_done(srv, c, msg, t->row.id);
    return 0;
}

static int op_end(rs_server *srv, rs_conn *c, const cJSON *msg, bool declined, rs_err *e)
{
    rs_challenge_row row = {0};
    if (take(srv, c, msg, declined, NULL, &row, e) < 0)
        return -1;
    tell_gone(srv, &row, declined ? "declined" : "cancelled");
    reply_done(srv, c, msg, 0);
    return 0;
}

int rs_challenge_handle(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    const char *op;
    if (!rs_field_string(msg, "op", true, 16, &op, e))
        return -1;
    if (strcmp(op, "send") == 0)
        return op_send(srv, c, msg, e);
    if (strcmp(op, "accept") == 0)
        return op_accept(srv, c, msg, e);
    if (strcmp(op, "decline") == 0 || strcmp(op, "cancel") == 0)
        return op_end(srv, c, msg, op[0] == 'd', e);
    return rs_fail(e, "bad-message", "field 'op': send, accept, decline or cancel");
}

int rs_challenge_cost(const cJSON *msg)
{
    const char *op = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "op"));
    return op && strcmp(op, "send") == 0 ? 3 : 1;
}

void rs_challenge_sweep(rs_server *srv)
{
    rs_challenge_row *rows = NULL;
    size_t n = 0;
    if (rs_store_challenges_read(srv->store, 0, rs_server_now_ms(srv), &rows, &n) != RS_STORE_OK)
        return;
    for (size_t i = 0; i < n; i++) {
        rs_challenge_row row = {0};
        if (rs_store_begin(srv->store) != RS_STORE_OK ||
            rs_store_challenge_take(srv->store, rows[i].id, &row) != RS_STORE_OK)
            continue; /* another server ends it */
        srv->mine_dirty = true;
        tell_gone(srv, &row, "expired");
    }
    free(rows);
}

/* ---- settings ---- */

int rs_challenge_settings(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    bool allows = true;
    if (!cJSON_GetObjectItemCaseSensitive(msg, "challenges"))
        return rs_fail(e, "bad-message", "field 'challenges' (true or false) is missing");
    if (!rs_field_bool(msg, "challenges", &allows, e))
        return -1;
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_setting_put(srv->store, c->user, allows) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot store the setting");
    for (size_t i = 0; i < srv->conns.cap; i++) { /* the user's other tabs show it too */
        rs_conn *other = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (other && other->user == c->user)
            other->refuses_challenges = allows ? 2 : 1;
    }
    cJSON *told = rs_server_message("settings"); /* and their connections on the other servers */
    cJSON_AddBoolToObject(told, "challenges", allows);
    rs_pools_tell_user(srv, c->user, told);
    cJSON_Delete(told);
    srv->mine_dirty = true;
    cJSON *m = rs_server_message("done");
    cJSON_AddStringToObject(m, "re", "settings");
    rs_reply(srv, c, m, msg);
    return 0;
}

/* ---- "my games" ---- */

cJSON *rs_challenge_mine_json(rs_server *srv, const rs_conn *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *received = cJSON_AddArrayToObject(o, "received");
    cJSON *sent = cJSON_AddArrayToObject(o, "sent");
    rs_challenge_row *rows = NULL;
    size_t n = 0;
    if (c->user && rs_store_challenges_read(srv->store, c->user, NO_DUE, &rows, &n) == RS_STORE_OK)
        for (size_t i = 0; i < n; i++)
            cJSON_AddItemToArray(rows[i].to == c->user ? received : sent, challenge_json(&rows[i]));
    free(rows);
    return o;
}

char *rs_challenge_mine_text(rs_server *srv, const rs_conn *c)
{
    cJSON *o = rs_challenge_mine_json(srv, c);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

bool rs_challenge_allowed(rs_server *srv, rs_conn *c)
{
    bool allows = true;
    if (c->refuses_challenges == 0 && c->user &&
        rs_store_setting_get(srv->store, c->user, &allows) == RS_STORE_OK)
        c->refuses_challenges = allows ? 2 : 1;
    return c->refuses_challenges != 1;
}
