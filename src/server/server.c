/* server.c — the core of `ramparts serve` (see server.h): connections, the dispatch of
 * client messages through one table of commands, the pending outbox released after the group
 * commit, worker results, timers and startup. Game rules live in the referee (table.c);
 * identity and the lobby in session.c; the HTTP API in api.c. */
#include "server_internal.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "log.h"

#define HEARTBEAT_US 5000000ll /* how often the server's sign of life is stored */
#define HOUSEKEEPING_US 1000000ll
/* Lobby changes are pushed at most this often: the lobby lists every live game, so pushing it
 * on every change costs its size times its watchers each time (a list of changes coalesces). */
#define LOBBY_PUSH_EVERY_US 250000ll
#define CHECKPOINT_US 30000000ll
#define CHECKPOINT_FRAMES 2000 /* WAL pages (8 MB of 4 KiB pages) that call for a checkpoint */
#define AI_RETRY_US 30000000ll /* an AI job unanswered this long is queued again */
#define MAX_REFUSED 30         /* rate-limited messages in a row before the close */
#define MAX_DEPTH 8            /* JSON nesting accepted in a message */

void rs_server_config_default(rs_server_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->db_path = ":memory:";
    cfg->ai_threads = 1;
    cfg->grace_ms = 60000;
    cfg->token_days = 90;
    cfg->rate_messages = 100;
    cfg->rate_window_ms = 20000;
    cfg->max_watch = 32;
    cfg->max_open_games = 10;
}

/* ---- the outbox: messages wait here until the commit ---- */

static bool outbox_push(rs_outbox *o, rs_pending p)
{
    if (!RS_GROW(o->items, o->count, o->cap, 64))
        return false;
    o->items[o->count++] = p;
    return true;
}

void rs_outbox_put(rs_outbox *o, uint64_t conn, cJSON *msg)
{
    char *text = msg ? cJSON_PrintUnformatted(msg) : NULL;
    cJSON_Delete(msg);
    if (text && !outbox_push(o, (rs_pending){conn, text, 0}))
        free(text);
}

void rs_outbox_put_text(rs_outbox *o, uint64_t conn, const char *text)
{
    char *copy = strdup(text);
    if (copy && !outbox_push(o, (rs_pending){conn, copy, 0}))
        free(copy);
}

/* Close conn once what is queued before is delivered. */
static void outbox_close(rs_outbox *o, uint64_t conn, int code)
{
    outbox_push(o, (rs_pending){conn, NULL, code});
}

static void outbox_clear(rs_outbox *o)
{
    for (size_t i = 0; i < o->count; i++)
        free(o->items[i].text);
    o->count = 0;
}

/* ---- helpers for handlers ---- */

rs_ctx rs_server_ctx(rs_server *srv)
{
    rs_ctx ctx = {srv->store, &srv->outbox, srv->time.mono_us(srv->time.ctx),
                  srv->time.wall_ms(srv->time.ctx), srv->cfg.grace_ms};
    return ctx;
}

int64_t rs_server_now_us(rs_server *srv)
{
    return srv->time.mono_us(srv->time.ctx);
}

int64_t rs_server_now_ms(rs_server *srv)
{
    return srv->time.wall_ms(srv->time.ctx);
}

rs_conn *rs_server_conn(rs_server *srv, uint64_t id)
{
    return rs_idmap_get(&srv->conns, id);
}

rs_table *rs_server_table(rs_server *srv, int64_t id)
{
    return id > 0 ? rs_idmap_get(&srv->tables, (uint64_t)id) : NULL;
}

void rs_server_touch(rs_server *srv, rs_table *t, rs_game_status status_before)
{
    srv->deadlines_stale = true;
    if (t->row.status != status_before || t->row.status == RS_GAME_OPEN)
        srv->lobby_dirty = true;
    for (size_t i = 0; i < srv->touched_count; i++)
        if (srv->touched[i] == t->row.id)
            return;
    if (!RS_GROW(srv->touched, srv->touched_count, srv->touched_cap, 16))
        return;
    srv->touched[srv->touched_count++] = t->row.id;
}

void rs_server_note(rs_server *srv, rs_conn *c)
{
    if (c->noted || srv->noted_overflow)
        return;
    if (!RS_GROW(srv->noted, srv->noted_count, srv->noted_cap, 64)) {
        srv->noted_overflow = true;
        return;
    }
    c->noted = true;
    srv->noted[srv->noted_count++] = c->id;
}

/* Visit the connections noted in this iteration (every one after an overflow). */
static void visit_noted(rs_server *srv, void (*visit)(rs_server *, rs_conn *))
{
    if (srv->noted_overflow) {
        for (size_t i = 0; i < srv->conns.cap; i++)
            if (srv->conns.slots[i].key)
                visit(srv, srv->conns.slots[i].value);
        return;
    }
    for (size_t i = 0; i < srv->noted_count; i++) {
        rs_conn *c = rs_server_conn(srv, srv->noted[i]);
        if (c)
            visit(srv, c);
    }
}

bool rs_server_add_table(rs_server *srv, rs_table *t)
{
    srv->deadlines_stale = true;
    return rs_idmap_put(&srv->tables, (uint64_t)t->row.id, t);
}

/* Reply to the connection that asked, echoing its "id". */
void rs_reply(rs_server *srv, rs_conn *c, cJSON *msg, const cJSON *request)
{
    const cJSON *id = request ? cJSON_GetObjectItemCaseSensitive(request, "id") : NULL;
    if (id)
        cJSON_AddItemToObject(msg, "id", cJSON_Duplicate(id, true));
    rs_outbox_put(&srv->outbox, c->id, msg);
}

static void send_error(rs_server *srv, rs_conn *c, const rs_err *e, const char *type,
                       const cJSON *request)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "error");
    cJSON_AddStringToObject(m, "code", e->code ? e->code : "server-error");
    cJSON_AddStringToObject(m, "message", e->text);
    if (type)
        cJSON_AddStringToObject(m, "re", type);
    const cJSON *game = request ? cJSON_GetObjectItemCaseSensitive(request, "game") : NULL;
    int64_t game_id;
    if (game && cJSON_IsNumber(game) && rs_whole_int64(game->valuedouble, &game_id)) {
        rs_table *t = rs_server_table(srv, game_id);
        cJSON_AddNumberToObject(m, "game", game->valuedouble);
        if (t) {
            cJSON_AddNumberToObject(m, "v", (double)t->row.v);
            cJSON_AddNumberToObject(m, "ply", (double)rs_table_ply(t));
        }
    }
    rs_reply(srv, c, m, request);
    srv->stats.errors++;
}

/* ---- reading fields (every wrong type or range is an error naming the field) ---- */

bool rs_field_int(const cJSON *msg, const char *key, bool required, int64_t min, int64_t max,
                  int64_t *out, rs_err *e)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, key);
    if (!f) {
        if (required)
            rs_fail(e, "bad-message", "field '%s' is missing", key);
        return !required;
    }
    int64_t value;
    if (!cJSON_IsNumber(f) || !rs_whole_int64(f->valuedouble, &value))
        return rs_fail(e, "bad-message", "field '%s' must be a whole number", key), false;
    if (value < min || value > max)
        return rs_fail(e, "bad-message", "field '%s' must be from %lld to %lld", key,
                       (long long)min, (long long)max),
               false;
    *out = value;
    return true;
}

bool rs_field_string(const cJSON *msg, const char *key, bool required, size_t max, const char **out,
                     rs_err *e)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, key);
    if (!f) {
        if (required)
            rs_fail(e, "bad-message", "field '%s' is missing", key);
        return !required;
    }
    if (!cJSON_IsString(f) || !f->valuestring)
        return rs_fail(e, "bad-message", "field '%s' must be a string", key), false;
    if (strlen(f->valuestring) > max)
        return rs_fail(e, "bad-message", "field '%s' is longer than %zu bytes", key, max), false;
    *out = f->valuestring;
    return true;
}

bool rs_field_bool(const cJSON *msg, const char *key, bool *out, rs_err *e)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, key);
    if (!f)
        return true;
    if (!cJSON_IsBool(f))
        return rs_fail(e, "bad-message", "field '%s' must be true or false", key), false;
    *out = cJSON_IsTrue(f);
    return true;
}

/* The game named by "game": a table in memory (every unfinished game is). */
rs_table *rs_field_table(rs_server *srv, const cJSON *msg, rs_err *e)
{
    int64_t id;
    if (!rs_field_int(msg, "game", true, 1, INT64_MAX / 2, &id, e))
        return NULL;
    rs_table *t = rs_server_table(srv, id);
    if (!t)
        rs_fail(e, "not-found", "no game %lld is open or being played", (long long)id);
    return t;
}

/* ---- connections ---- */

void rs_server_connect(rs_server *srv, uint64_t conn, const char *peer)
{
    if (!conn || rs_server_conn(srv, conn))
        return;
    rs_conn *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->id = conn;
    snprintf(c->peer, sizeof c->peer, "%s", peer ? peer : "?");
    c->credits = srv->cfg.rate_messages;
    c->credits_at_us = rs_server_now_us(srv);
    if (!rs_idmap_put(&srv->conns, conn, c)) {
        free(c);
        return;
    }
    srv->stats.connections++;
}

void rs_server_unwatch_all(rs_server *srv, rs_conn *c)
{
    rs_ctx ctx = rs_server_ctx(srv);
    for (int i = 0; i < c->num_watching; i++) {
        rs_table *t = rs_server_table(srv, c->watching[i]);
        if (t && rs_table_unwatch(&ctx, t, c->id))
            rs_server_touch(srv, t, t->row.status); /* a finished game may now unload */
    }
    c->num_watching = 0;
}

/* After a connection of `user` closed: if it was their last, the seats they do not watch
 * count as gone from now (the grace period before a claim starts again). */
void rs_server_user_left(rs_server *srv, int64_t user)
{
    if (!user)
        return;
    for (size_t i = 0; i < srv->conns.cap; i++) {
        const rs_conn *other = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (other && other->user == user)
            return;
    }
    rs_ctx ctx = rs_server_ctx(srv);
    for (size_t i = 0; i < srv->tables.cap; i++)
        if (srv->tables.slots[i].key)
            rs_table_user_gone(&ctx, srv->tables.slots[i].value, user);
}

void rs_server_disconnect(rs_server *srv, uint64_t conn)
{
    rs_conn *c = rs_server_conn(srv, conn);
    if (!c)
        return;
    rs_server_unwatch_all(srv, c);
    rs_idmap_del(&srv->conns, conn);
    if (c->user)
        rs_server_user_left(srv, c->user);
    /* Replies still pending for it go nowhere. */
    for (size_t i = 0; i < srv->outbox.count; i++)
        if (srv->outbox.items[i].conn == conn)
            srv->outbox.items[i].conn = 0;
    free(c);
    srv->stats.connections--;
}

/* ---- receiving ---- */

/* Refill the connection's credits for the time since the last refill (a token bucket). */
static void refill(rs_server *srv, rs_conn *c)
{
    int64_t now = rs_server_now_us(srv);
    double per_us = (double)srv->cfg.rate_messages / ((double)srv->cfg.rate_window_ms * 1000.0);
    c->credits += (double)(now - c->credits_at_us) * per_us;
    if (c->credits > srv->cfg.rate_messages)
        c->credits = srv->cfg.rate_messages;
    c->credits_at_us = now;
}

/* Why the bytes of a message cannot be a message, before the parser sees them, or NULL: JSON
 * nested deeper than MAX_DEPTH (the parser recurses), a string holding U+0000 (C strings end
 * there: "goodpass\u0000x" would log in as "goodpass"), or text that is not UTF-8. */
static const char *unreadable(const char *data, size_t len)
{
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        const char ch = data[i];
        if (ch == '\0')
            return "the message holds a NUL byte";
        if (in_string) {
            if (ch == '\\' && i + 1 < len && data[i + 1] == 'u' && i + 5 < len &&
                strncmp(data + i + 2, "0000", 4) == 0)
                return "a string holds U+0000";
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '{' || ch == '[') {
            if (++depth > MAX_DEPTH)
                return "the message is nested too deep";
        } else if (ch == '}' || ch == ']') {
            depth--;
        }
    }
    return rs_utf8_valid(data, len) ? NULL : "the message is not UTF-8 text";
}

/* The message parsed, or NULL when it is not exactly one JSON value (with nothing but white
 * space after it). */
static cJSON *parse_message(const char *data, size_t len)
{
    const char *end = NULL;
    cJSON *msg = cJSON_ParseWithLengthOpts(data, len, &end, false);
    if (!msg)
        return NULL;
    for (const char *p = end; p < data + len; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            cJSON_Delete(msg);
            return NULL;
        }
    return msg;
}

static const rs_command *find_command(const char *type)
{
    for (const rs_command *cmd = rs_commands; cmd->name; cmd++)
        if (strcmp(cmd->name, type) == 0)
            return cmd;
    return NULL;
}

/* The optional "id" a client tags a request with: a short string or a whole number. */
static bool check_request_id(const cJSON *msg, rs_err *e)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    if (!id)
        return true;
    if (cJSON_IsString(id) && strlen(id->valuestring) <= 40)
        return true;
    int64_t whole;
    if (cJSON_IsNumber(id) && rs_whole_int64(id->valuedouble, &whole))
        return true;
    rs_fail(e, "bad-message",
            "field 'id' must be a whole number or a string of at most 40 "
            "bytes");
    return false;
}

static void refuse_for_rate(rs_server *srv, rs_conn *c, const rs_command *cmd, const cJSON *msg)
{
    srv->stats.rate_limited++;
    /* Refusals count within one rate window, not only in a row: a flood that the refill
     * lets through now and then is still a flood. */
    const int64_t now = rs_server_now_us(srv);
    if (now - c->refused_since_us > srv->cfg.rate_window_ms * 1000) {
        c->refused_since_us = now;
        c->refused = 0;
    }
    if (c->refused++ == 0)
        rs_log("conn %llu (%s): rate limited", (unsigned long long)c->id, c->peer);
    if (c->refused > MAX_REFUSED) {
        rs_log("conn %llu (%s): %d messages refused within %lld s, closed (1008)",
               (unsigned long long)c->id, c->peer, c->refused,
               (long long)(srv->cfg.rate_window_ms / 1000));
        c->closing = true;
        outbox_close(&srv->outbox, c->id, 1008);
        return;
    }
    rs_err e;
    rs_fail(&e, "rate-limited", "too many messages: at most %d per %lld s", srv->cfg.rate_messages,
            (long long)(srv->cfg.rate_window_ms / 1000));
    send_error(srv, c, &e, cmd ? cmd->name : NULL, cJSON_IsObject(msg) ? msg : NULL);
}

void rs_server_receive(rs_server *srv, uint64_t conn, const char *data, size_t len)
{
    rs_conn *c = rs_server_conn(srv, conn);
    if (!c || c->closing)
        return;
    srv->stats.messages++;
    refill(srv, c);
    rs_err e = {0};
    if (len > RS_MAX_MESSAGE) {
        rs_server_too_large(srv, conn, len);
        return;
    }
    const char *why = unreadable(data, len);
    if (why) {
        c->credits -= 1;
        rs_fail(&e, "bad-json", "%s", why);
        send_error(srv, c, &e, NULL, NULL);
        return;
    }
    cJSON *msg = parse_message(data, len);
    const cJSON *type = msg ? cJSON_GetObjectItemCaseSensitive(msg, "t") : NULL;
    const rs_command *cmd = type && cJSON_IsString(type) ? find_command(type->valuestring) : NULL;
    const int cost = cmd ? cmd->cost : 1;
    if (c->credits < cost) {
        refuse_for_rate(srv, c, cmd, msg);
        cJSON_Delete(msg);
        return;
    }
    c->credits -= cost;
    if (!msg)
        rs_fail(&e, "bad-json", "the message is not one JSON value");
    else if (!cJSON_IsObject(msg))
        rs_fail(&e, "bad-message", "a message is a JSON object with a string field 't'");
    else if (!type || !cJSON_IsString(type))
        rs_fail(&e, "bad-message", "field 't' (the message type, a string) is missing");
    else if (!cmd)
        rs_fail(&e, "unknown-type", "unknown message type '%.40s'", type->valuestring);
    else if (check_request_id(msg, &e) && cmd->needs_user && !c->user)
        rs_fail(&e, "no-identity",
                "say hello first (with your token, or without one to be a "
                "guest)");
    c->asked = true;
    rs_server_note(srv, c);
    if (!e.code && cmd) {
        if (cmd->handler(srv, c, msg, &e) == 0) {
            cJSON_Delete(msg);
            return;
        }
    }
    c->credits -= 1; /* errors cost double */
    send_error(srv, c, &e, cmd ? cmd->name : NULL, cJSON_IsObject(msg) ? msg : NULL);
    cJSON_Delete(msg);
}

void rs_server_too_large(rs_server *srv, uint64_t conn, size_t len)
{
    rs_conn *c = rs_server_conn(srv, conn);
    if (!c)
        return;
    rs_err e;
    rs_fail(&e, "too-large", "a message of %zu bytes: the limit is %d", len, RS_MAX_MESSAGE);
    c->credits -= 2;
    send_error(srv, c, &e, NULL, NULL);
}

void rs_server_resync(rs_server *srv, uint64_t conn)
{
    rs_conn *c = rs_server_conn(srv, conn);
    if (!c)
        return;
    rs_ctx ctx = rs_server_ctx(srv);
    for (int i = 0; i < c->num_watching; i++) {
        rs_table *t = rs_server_table(srv, c->watching[i]);
        if (t)
            rs_table_resend(&ctx, t, conn);
    }
}

/* ---- AI jobs ---- */

void rs_server_schedule_ai(rs_server *srv, rs_table *t)
{
    int seat = rs_table_to_move(t);
    if (seat < 0 || t->row.seat[seat].kind != RS_SEAT_AI)
        return;
    int64_t now = rs_server_now_us(srv);
    if (t->ai_ply == (int64_t)rs_table_ply(t) && now - t->ai_since_us < AI_RETRY_US)
        return;
    rs_job *job = &srv->job_scratch;
    memset(job, 0, sizeof *job);
    job->kind = RS_JOB_AI;
    job->game_id = t->row.id;
    job->ply = (int64_t)rs_table_ply(t);
    job->seat = seat;
    job->game = t->game;
    rp_state_copy(t->game, &job->state, &t->match.state);
    snprintf(job->level, sizeof job->level, "%s", t->row.seat[seat].ai_level);
    job->seed = rs_seed_new();
    if (rs_workers_submit(srv->workers, job)) {
        t->ai_ply = job->ply;
        t->ai_since_us = now;
    }
}

static void apply_ai_result(rs_server *srv, const rs_job *job)
{
    rs_table *t = rs_server_table(srv, job->game_id);
    if (!t)
        return;
    if (t->ai_ply == job->ply)
        t->ai_ply = -1;
    if (!job->ok) {
        rs_log("game %lld: the AI failed at ply %lld: %s", (long long)job->game_id,
               (long long)job->ply, job->error);
        return;
    }
    rs_ctx ctx = rs_server_ctx(srv);
    rs_err e;
    rs_game_status before = t->row.status;
    if (rs_table_ai_move(&ctx, t, job->seat, job->ply, job->action, &e) == 0) {
        srv->stats.moves++;
        rs_server_touch(srv, t, before);
    } else if (strcmp(e.code, "stale") != 0) {
        rs_log("game %lld: AI move refused: %s", (long long)job->game_id, e.text);
        rs_server_touch(srv, t, before);
    }
}

void rs_server_drain_inbox(rs_server *srv)
{
    rs_job *job = &srv->job_scratch;
    while (rs_workers_take(srv->workers, job)) {
        switch (job->kind) {
        case RS_JOB_AI:
            apply_ai_result(srv, job);
            break;
        case RS_JOB_HINT:
            rs_session_hint_result(srv, job);
            break;
        case RS_JOB_HASH:
        case RS_JOB_VERIFY:
            rs_session_auth_result(srv, job);
            break;
        case RS_JOB_CHECKPOINT:
            srv->checkpoint_pending = false;
            srv->checkpoint_tail_due = true; /* after this iteration's commit */
            break;
        }
        rs_secret_wipe(job->password, sizeof job->password);
    }
}

int rs_server_run_jobs_inline(rs_server *srv)
{
    int n = rs_workers_run_inline(srv->workers);
    rs_server_drain_inbox(srv);
    return n;
}

/* ---- timers ---- */

void rs_server_tick(rs_server *srv)
{
    srv->deadlines_stale = true;
    rs_ctx ctx = rs_server_ctx(srv);
    srv->next_housekeeping_us = ctx.now_us + HOUSEKEEPING_US;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (!t || t->row.status != RS_GAME_LIVE)
            continue;
        if (rs_table_check_time(&ctx, t)) {
            rs_server_touch(srv, t, RS_GAME_LIVE);
            continue;
        }
        rs_server_schedule_ai(srv, t);
    }
    if (ctx.now_us - srv->last_heartbeat_us >= HEARTBEAT_US) {
        srv->last_heartbeat_us = ctx.now_us;
        if (rs_store_begin(srv->store) == RS_STORE_OK)
            rs_store_meta_set(srv->store, "alive_ms", ctx.now_ms);
    }
    /* A checkpoint every 30 s, or sooner when the WAL has grown past CHECKPOINT_FRAMES (under
     * heavy traffic it grows by megabytes a second); one at a time. */
    const int64_t since = ctx.now_us - srv->last_checkpoint_us;
    const bool due = since >= CHECKPOINT_US || rs_store_wal_frames(srv->store) >= CHECKPOINT_FRAMES;
    /* A job whose answer never came (no memory for the inbox) is given up after a while. */
    if (srv->cfg.ai_threads > 0 && due &&
        (!srv->checkpoint_pending || since >= 2 * CHECKPOINT_US)) {
        srv->last_checkpoint_us = ctx.now_us;
        rs_job job = {.kind = RS_JOB_CHECKPOINT};
        srv->checkpoint_pending = rs_workers_submit(srv->workers, &job);
    }
}

/* The earliest clock deadline of the games in memory. */
static int64_t earliest_deadline(const rs_server *srv)
{
    int64_t earliest = RS_CLOCK_NEVER;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (t) {
            int64_t d = rs_table_deadline_us(t);
            if (d < earliest)
                earliest = d;
        }
    }
    return earliest;
}

/* Called once per loop iteration: the games are scanned again only when one changed (or the
 * tick ran), not on every iteration, whose count grows with the traffic. */
int64_t rs_server_next_tick_us(rs_server *srv)
{
    if (srv->deadlines_stale) {
        srv->earliest_deadline_us = earliest_deadline(srv);
        srv->deadlines_stale = false;
    }
    /* A fixed instant, not "a second from now": asked again on every turn of the loop, that
     * would move the timer on with every message, and under steady traffic the heartbeat
     * and the WAL checkpoints would never run (issue 23). */
    int64_t next = srv->next_housekeeping_us;
    if (srv->earliest_deadline_us < next)
        next = srv->earliest_deadline_us;
    if (srv->lobby_dirty && srv->next_lobby_push_us < next)
        next = srv->next_lobby_push_us;
    return next;
}

/* ---- the group commit ---- */

/* After a failed commit: reload every game changed in the iteration from the store, so
 * memory matches what is stored, and tell their watchers. */
static void recover_from_failed_commit(rs_server *srv)
{
    srv->deadlines_stale = true;
    rs_ctx ctx = rs_server_ctx(srv);
    for (size_t i = 0; i < srv->touched_count; i++) {
        rs_table *old = rs_server_table(srv, srv->touched[i]);
        if (!old)
            continue;
        rs_err e;
        rs_table *fresh = rs_table_load(&ctx, old->row.id, ctx.now_ms, &e);
        if (fresh) {
            /* Keep the watchers: they are connections, not stored state. */
            fresh->watchers = old->watchers;
            fresh->num_watchers = old->num_watchers;
            fresh->cap_watchers = old->cap_watchers;
            for (size_t w = 0; w < fresh->num_watchers; w++) {
                int seat = rs_table_seat_of(fresh, fresh->watchers[w].user);
                fresh->watchers[w].viewer = seat >= 0 ? seat : RP_SPECTATOR;
                if (seat >= 0)
                    fresh->connections[seat]++;
            }
            old->watchers = NULL;
            rs_idmap_put(&srv->tables, (uint64_t)fresh->row.id, fresh);
            for (size_t w = 0; w < fresh->num_watchers; w++)
                rs_table_resend(&ctx, fresh, fresh->watchers[w].conn);
        } else {
            /* Created in the failed iteration: it never existed. */
            for (size_t w = 0; w < old->num_watchers; w++) {
                rs_conn *c = rs_server_conn(srv, old->watchers[w].conn);
                for (int k = 0; c && k < c->num_watching; k++)
                    if (c->watching[k] == old->row.id)
                        c->watching[k--] = c->watching[--c->num_watching];
            }
            rs_idmap_del(&srv->tables, (uint64_t)old->row.id);
        }
        rs_table_free(old);
    }
}

/* The direct replies of a failed iteration, as what they must become: a refusal (an error)
 * or a pong stays true, since it changed nothing; any other reply becomes server-error with
 * the same id, so each request still gets exactly one direct reply. Replies without an id and
 * broadcasts are dropped. Returns the messages to send, with their connections. */
static rs_outbox replies_after_failure(rs_server *srv)
{
    rs_outbox kept = {0};
    for (size_t i = 0; i < srv->outbox.count; i++) {
        const rs_pending *p = &srv->outbox.items[i];
        if (!p->text || !p->conn) /* a close, or a connection gone */
            continue;
        cJSON *m = cJSON_Parse(p->text);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
        const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "t"));
        if (id && type && strcmp(type, "error") != 0 && strcmp(type, "pong") != 0) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "t", "error");
            cJSON_AddStringToObject(e, "code", "server-error");
            cJSON_AddStringToObject(e, "message",
                                    "the server could not store that; nothing was done");
            cJSON_AddItemToObject(e, "id", cJSON_Duplicate(id, true));
            rs_outbox_put(&kept, p->conn, e);
        } else if (id && type) {
            rs_outbox_put_text(&kept, p->conn, p->text);
        }
        cJSON_Delete(m);
    }
    return kept;
}

static bool has_reply(const rs_outbox *o, uint64_t conn)
{
    for (size_t i = 0; i < o->count; i++)
        if (o->items[i].conn == conn)
            return true;
    return false;
}

/* After a failed commit, for a connection noted in the iteration. */
static void undo_conn(rs_server *srv, rs_conn *c)
{
    if (c->identity_changed) { /* its new identity was not stored: back to none */
        rs_server_unwatch_all(srv, c);
        c->user = 0;
        c->has_token = false;
    }
    if (c->asked && !has_reply(&srv->outbox, c->id)) { /* requests without an id */
        rs_err e;
        rs_fail(&e, "server-error", "the server could not store that; nothing was done");
        send_error(srv, c, &e, NULL, NULL);
    }
}

static void fail_iteration(rs_server *srv)
{
    srv->stats.commit_failures++;
    rs_log("commit failed: %s; the changes of this moment are undone", rs_store_error(srv->store));
    /* Who heard of a change that did not happen must hear nothing of it. */
    rs_outbox kept = replies_after_failure(srv);
    outbox_clear(&srv->outbox);
    free(srv->outbox.items);
    srv->outbox = kept;
    visit_noted(srv, undo_conn);
    recover_from_failed_commit(srv);
    /* The recovery's own writes (clock resumes) and the error messages go out together. */
    if (rs_store_commit(srv->store) != RS_STORE_OK)
        rs_log("commit failed again: %s", rs_store_error(srv->store));
}

/* Unload finished games nobody watches: the store has them. */
static void unload_finished(rs_server *srv)
{
    for (size_t i = 0; i < srv->touched_count; i++) {
        rs_table *t = rs_server_table(srv, srv->touched[i]);
        if (t && (t->row.status == RS_GAME_OVER || t->row.status == RS_GAME_ABORTED) &&
            t->num_watchers == 0) {
            rs_idmap_del(&srv->tables, (uint64_t)t->row.id);
            rs_table_free(t);
        }
    }
}

static void clear_noted(rs_server *srv, rs_conn *c)
{
    (void)srv;
    c->identity_changed = false;
    c->asked = false;
    c->noted = false;
}

int rs_server_flush(rs_server *srv)
{
    for (size_t i = 0; i < srv->touched_count; i++) {
        rs_table *t = rs_server_table(srv, srv->touched[i]);
        if (t)
            rs_server_schedule_ai(srv, t);
    }
    if (srv->lobby_dirty && rs_server_now_us(srv) >= srv->next_lobby_push_us) {
        rs_session_send_lobby(srv, NULL, NULL);
        srv->lobby_dirty = false;
        srv->next_lobby_push_us = rs_server_now_us(srv) + LOBBY_PUSH_EVERY_US;
    }
    int rc = 0;
    if (rs_store_in_transaction(srv->store)) {
        srv->stats.commits++;
        if (rs_store_commit(srv->store) != RS_STORE_OK) {
            fail_iteration(srv);
            rc = -1;
        }
    }
    for (size_t i = 0; i < srv->outbox.count; i++) {
        const rs_pending *p = &srv->outbox.items[i];
        if (!p->conn)
            continue;
        if (p->text && srv->out.send)
            srv->out.send(srv->out.ctx, p->conn, p->text, strlen(p->text));
        else if (!p->text && srv->out.close)
            srv->out.close(srv->out.ctx, p->conn, p->close_code, "rate limit exceeded");
    }
    outbox_clear(&srv->outbox);
    if (srv->checkpoint_tail_due && !rs_store_in_transaction(srv->store)) {
        srv->checkpoint_tail_due = false;
        rs_store_checkpoint_tail(srv->store);
    }
    if (rc == 0)
        unload_finished(srv);
    for (size_t i = 0; i < srv->touched_count; i++) {
        rs_table *t = rs_server_table(srv, srv->touched[i]);
        if (t)
            t->dirty = false;
    }
    srv->touched_count = 0;
    visit_noted(srv, clear_noted);
    srv->noted_count = 0;
    srv->noted_overflow = false;
    return rc;
}

/* ---- startup and shutdown ---- */

static int load_unfinished(rs_server *srv, char *err, size_t err_size)
{
    int64_t *ids = NULL;
    size_t n = 0;
    if (rs_store_games_unfinished(srv->store, &ids, &n) != RS_STORE_OK) {
        snprintf(err, err_size, "cannot list games: %s", rs_store_error(srv->store));
        return -1;
    }
    int64_t alive_ms = 0;
    rs_store_meta_get(srv->store, "alive_ms", &alive_ms);
    rs_store_begin(srv->store);
    rs_ctx ctx = rs_server_ctx(srv);
    size_t loaded = 0;
    for (size_t i = 0; i < n; i++) {
        rs_err e;
        rs_table *t = rs_table_load(&ctx, ids[i], alive_ms, &e);
        if (!t) {
            rs_log("game %lld not resumed: %s", (long long)ids[i], e.text);
            continue;
        }
        rs_server_add_table(srv, t);
        loaded++;
    }
    free(ids);
    rs_store_meta_set(srv->store, "alive_ms", ctx.now_ms);
    if (rs_store_commit(srv->store) != RS_STORE_OK) {
        snprintf(err, err_size, "cannot store the resumed games: %s", rs_store_error(srv->store));
        return -1;
    }
    if (n)
        rs_log("resumed %zu of %zu unfinished games", loaded, n);
    return 0;
}

rs_server *rs_server_new(const rs_server_config *cfg, const rs_time_source *time,
                         const rs_output *out, char *err, size_t err_size)
{
    if (!rs_auth_init()) {
        snprintf(err, err_size, "libsodium cannot start");
        return NULL;
    }
    rs_server *srv = calloc(1, sizeof *srv);
    if (!srv) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    srv->cfg = *cfg;
    srv->time = *time;
    srv->out = *out;
    srv->deadlines_stale = true;
    if (rs_store_open(&srv->store, cfg->db_path, err, err_size) != RS_STORE_OK) {
        free(srv);
        return NULL;
    }
    srv->started_us = rs_server_now_us(srv);
    srv->last_heartbeat_us = srv->started_us;
    srv->last_checkpoint_us = srv->started_us;
    srv->next_housekeeping_us = srv->started_us + HOUSEKEEPING_US;
    if (load_unfinished(srv, err, err_size) < 0) {
        rs_server_free(srv);
        return NULL;
    }
    srv->workers = rs_workers_start(cfg->ai_threads, srv->store, cfg->notify, cfg->notify_ctx);
    if (!srv->workers) {
        snprintf(err, err_size, "cannot start the worker threads");
        rs_server_free(srv);
        return NULL;
    }
    for (size_t i = 0; i < srv->tables.cap; i++)
        if (srv->tables.slots[i].key)
            rs_server_schedule_ai(srv, srv->tables.slots[i].value);
    return srv;
}

void rs_server_free(rs_server *srv)
{
    if (!srv)
        return;
    rs_workers_stop(srv->workers);
    if (srv->store) {
        if (rs_store_begin(srv->store) == RS_STORE_OK)
            rs_store_meta_set(srv->store, "alive_ms", rs_server_now_ms(srv));
        rs_store_commit(srv->store);
    }
    for (size_t i = 0; i < srv->conns.cap; i++)
        if (srv->conns.slots[i].key)
            free(srv->conns.slots[i].value);
    for (size_t i = 0; i < srv->tables.cap; i++)
        if (srv->tables.slots[i].key)
            rs_table_free(srv->tables.slots[i].value);
    rs_idmap_free(&srv->conns);
    rs_idmap_free(&srv->tables);
    outbox_clear(&srv->outbox);
    free(srv->outbox.items);
    free(srv->touched);
    free(srv->noted);
    rs_store_close(srv->store);
    free(srv);
}

void rs_server_stats_get(rs_server *srv, rs_server_stats *out)
{
    *out = srv->stats;
    out->games_open = out->games_live = 0;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (t && t->row.status == RS_GAME_OPEN)
            out->games_open++;
        if (t && t->row.status == RS_GAME_LIVE)
            out->games_live++;
    }
}

void rs_server_drain(rs_server *srv)
{
    srv->draining = true;
}
