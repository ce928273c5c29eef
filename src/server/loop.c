/* loop.c — the core's entry points (loop.h; layer 2 of layers.h): the server's start and
 * stop, its connections, and one iteration of its loop: client messages read and dispatched
 * through the command table (session.c), worker results applied, timers, and the group
 * commit that releases the outbox only once the iteration's changes are stored. It hands the
 * cluster (cluster.c) the hooks by which it acts above itself. */
#include "loop.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "challenge.h"
#include "cluster.h"
#include "fields.h"
#include "forwarded.h"
#include "grow.h"
#include "lobby.h"
#include "log.h"
#include "mine.h"
#include "pools.h"
#include "server_internal.h"
#include "session.h"
#include "tournaments.h"

#define HEARTBEAT_US 5000000ll /* how often the server's sign of life is stored */
/* Lobby changes are pushed at most this often: the lobby lists every live game, so pushing it
 * on every change costs its size times its watchers each time (a list of changes coalesces). */
#define LOBBY_PUSH_EVERY_US 250000ll
#define CHECKPOINT_US 30000000ll
#define CHECKPOINT_FRAMES 2000 /* WAL pages (8 MB of 4 KiB pages) that call for a checkpoint */
#define MAX_REFUSED 30         /* rate-limited messages in a row before the close */
#define MAX_DEPTH 8            /* JSON nesting accepted in a message */
#define TOO_DEEP "the message is nested too deep"
/* The loop's housekeeping (rs_server_tick) runs at least this often. */
#define HOUSEKEEPING_US 1000000ll
#define SWEEP_EVERY_US 3600000000ll /* tokens and guests (sweep_accounts) */
#define SWEEP_GUESTS 5000

/* What the cluster has done above it: kept requests handled again, and connections logged
 * out on tokens another server revoked. */
static const rs_cluster_hooks cluster_hooks = {
    .receive = rs_server_receive,
    .revoke_token = rs_session_revoke_token,
    .revoke_user = rs_session_revoke_user,
};

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
    rs_addr_holder(c->peer, c->holder, sizeof c->holder);
    c->credits = srv->cfg.rate_messages;
    c->credits_at_us = rs_server_now_us(srv);
    if (!rs_idmap_put(&srv->conns, conn, c)) {
        free(c);
        return;
    }
    srv->stats.connections++;
}

void rs_server_disconnect(rs_server *srv, uint64_t conn)
{
    rs_conn *c = rs_server_conn(srv, conn);
    if (!c)
        return;
    rs_server_unwatch_all(srv, c);
    rs_idmap_del(&srv->conns, conn);
    rs_session_user_left(srv, c->user);
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
                return TOO_DEEP;
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

/* What a refused message still says about the request it was, so that the refusal answers
 * it: the message parsed, when it is an object whose "id" is valid, else NULL. A client that
 * tagged a request waits for the reply with that id (docs/server-protocol.md). Bytes nested
 * too deep are not parsed: the parser recurses. */
static cJSON *readable_request(const char *data, size_t len, const char *why)
{
    if (strcmp(why, TOO_DEEP) == 0)
        return NULL;
    cJSON *msg = parse_message(data, len);
    rs_err ignored;
    if (cJSON_IsObject(msg) && cJSON_GetObjectItemCaseSensitive(msg, "id") &&
        check_request_id(msg, &ignored))
        return msg;
    cJSON_Delete(msg);
    return NULL;
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
        rs_outbox_close(&srv->outbox, c->id, 1008);
        return;
    }
    rs_err e;
    rs_fail(&e, "rate-limited", "too many messages: at most %d per %lld s", srv->cfg.rate_messages,
            (long long)(srv->cfg.rate_window_ms / 1000));
    rs_server_error(srv, c, &e, cmd ? cmd->name : NULL, cJSON_IsObject(msg) ? msg : NULL);
}

void rs_server_receive(rs_server *srv, uint64_t conn, const char *data, size_t len)
{
    rs_conn *c = rs_server_conn(srv, conn);
    if (!c || c->closing)
        return;
    /* Behind a request waiting for a row another server holds: in order, after it. */
    if (srv->deferred_count && rs_cluster_deferring(srv, conn) &&
        rs_cluster_defer(srv, conn, data, len))
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
        cJSON *request = readable_request(data, len, why);
        rs_server_error(srv, c, &e, NULL, request);
        cJSON_Delete(request);
        return;
    }
    cJSON *msg = parse_message(data, len);
    const cJSON *type = msg ? cJSON_GetObjectItemCaseSensitive(msg, "t") : NULL;
    const rs_command *cmd = type && cJSON_IsString(type) ? find_command(type->valuestring) : NULL;
    const int cost = !cmd ? 1 : cmd->cost_of && msg ? cmd->cost_of(msg) : cmd->cost;
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
    const bool asked_before = c->asked;
    c->asked = true;
    rs_server_note(srv, c);
    if (!e.code && cmd) {
        if (cmd->handler(srv, c, msg, &e) == 0) {
            cJSON_Delete(msg);
            return;
        }
        /* Another server holds the game's row: the request waits for the next turn. */
        if (e.code == RS_CODE_RETRY && rs_cluster_defer(srv, conn, data, len)) {
            c->credits += cost;
            c->asked = asked_before;
            srv->stats.messages--;
            cJSON_Delete(msg);
            return;
        }
        if (e.code == RS_CODE_RETRY)
            rs_fail(&e, "unavailable", "the game is busy: try again");
    }
    c->credits -= 1; /* errors cost double */
    rs_server_error(srv, c, &e, cmd ? cmd->name : NULL, cJSON_IsObject(msg) ? msg : NULL);
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
    rs_server_error(srv, c, &e, NULL, NULL);
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
            rs_table_resend(&ctx, t, conn, -1);
    }
}

static void apply_ai_result(rs_server *srv, const rs_ai_result *job, const char *error)
{
    rs_table *t = rs_server_table(srv, job->game_id);
    if (!t)
        return;
    /* Only the holder of the game's lease plays its AI seats: a server paused past its lease
     * finds it taken and drops the result. A row another server holds for a moment keeps
     * the result for the next turn. */
    bool busy;
    rs_table *owned = rs_cluster_own(srv, t, &busy);
    if (!owned && busy) {
        rs_cluster_keep_ai(srv, job);
        return;
    }
    t = owned ? owned : rs_server_table(srv, job->game_id);
    if (t && t->ai_ply == job->ply)
        t->ai_ply = -1;
    if (!owned) {
        rs_log("game %lld: AI move at ply %lld dropped: another server holds the game",
               (long long)job->game_id, (long long)job->ply);
        return;
    }
    if (!job->ok) {
        rs_log("game %lld: the AI failed at ply %lld: %s", (long long)job->game_id,
               (long long)job->ply, error);
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
        case RS_JOB_AI: {
            const rs_ai_result r = {job->game_id, job->ply, job->seat, job->action, job->ok};
            apply_ai_result(srv, &r, job->error);
            break;
        }
        case RS_JOB_HINT:
            rs_session_hint_result(srv, job);
            break;
        case RS_JOB_REVIEW:
            rs_session_review_result(srv, job);
            break;
        case RS_JOB_HASH:
        case RS_JOB_VERIFY:
        case RS_JOB_REHASH:
            rs_session_auth_result(srv, job);
            break;
        case RS_JOB_CHECKPOINT:
            srv->checkpoint_pending = false;
            srv->checkpoint_tail_due = true; /* after this iteration's commit */
            break;
        }
        rs_job_wipe(job);
        rs_job_free_result(job);
    }
}

int rs_server_run_jobs_inline(rs_server *srv)
{
    int n = rs_workers_run_inline(srv->workers);
    rs_server_drain_inbox(srv);
    return n;
}

/* ---- timers ---- */

/* An AI seat whose move is due thinks on one server: the one holding the game's lease. */
static void schedule_ai(rs_server *srv, rs_table *t)
{
    const int seat = rs_server_ai_due(srv, t);
    if (seat < 0 || rs_cluster_leased_elsewhere(srv, t) || !(t = rs_cluster_own(srv, t, NULL)) ||
        rs_table_to_move(t) != seat)
        return;
    rs_server_submit_ai(srv, t, seat);
}

static void expire(rs_server *srv);

/* Expired tokens and the guests nothing refers to any more go once an hour (issue 49, finding
 * 6), at most SWEEP_GUESTS at a time so that one sweep never holds the loop long. */
static void sweep_accounts(rs_server *srv, const rs_ctx *ctx)
{
    if (ctx->now_us < srv->next_sweep_us)
        return;
    srv->next_sweep_us = ctx->now_us + SWEEP_EVERY_US;
    int64_t tokens = 0, guests = 0;
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_sweep_accounts(srv->store, ctx->now_ms, SWEEP_GUESTS, &tokens, &guests) !=
            RS_STORE_OK) {
        rs_log("the sweep of tokens and guests failed: %s", rs_store_error(srv->store));
        return;
    }
    if (tokens || guests)
        rs_log("swept %lld expired tokens and %lld unused guests", (long long)tokens,
               (long long)guests);
}

void rs_server_tick(rs_server *srv)
{
    rs_cluster_retry(srv, &cluster_hooks);
    rs_ai_result kept;
    while (rs_cluster_take_ai(srv, &kept))
        apply_ai_result(srv, &kept, "");
    srv->deadlines_stale = true;
    rs_ctx ctx = rs_server_ctx(srv);
    if (ctx.now_us >= srv->next_housekeeping_us) {
        rs_cluster_tick(srv);
        expire(srv);
        rs_pools_pair(srv); /* the rating windows widen with the wait */
        rs_challenge_sweep(srv);
        rs_tournaments_sweep(srv);
        sweep_accounts(srv, &ctx);
    }
    srv->next_housekeeping_us = ctx.now_us + HOUSEKEEPING_US;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (!t || t->row.status != RS_GAME_LIVE)
            continue;
        /* A flag falls once: on the server holding the game's lease. */
        if (srv->shared && rs_table_deadline_us(t) <= ctx.now_us &&
            (rs_cluster_leased_elsewhere(srv, t) || !(t = rs_cluster_own(srv, t, NULL))))
            continue;
        if (rs_table_check_time(&ctx, t)) {
            rs_server_touch(srv, t, RS_GAME_LIVE);
            continue;
        }
        schedule_ai(srv, t);
    }
    if (ctx.now_us - srv->last_heartbeat_us >= HEARTBEAT_US) {
        srv->last_heartbeat_us = ctx.now_us;
        if (rs_store_begin(srv->store) == RS_STORE_OK)
            rs_store_meta_set(srv->store, srv->shared ? srv->alive_key : "alive_ms", ctx.now_ms);
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

/* Whether someone keeps open game t: one of its seated people or its creator connected. */
static bool seek_kept(rs_server *srv, const rs_table *t)
{
    if (t->row.creator && rs_cluster_user_online(srv, t->row.creator))
        return true;
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_HUMAN &&
            rs_cluster_user_online(srv, t->row.seat[s].user_id))
            return true;
    return false;
}

/* One game nobody came back to: ended once, under its lease on a cluster. */
static void expire_one(rs_server *srv, rs_table *t)
{
    const int64_t now_us = rs_server_now_us(srv);
    if (rs_cluster_leased_elsewhere(srv, t) || !(t = rs_cluster_own(srv, t, NULL)) ||
        !rs_table_expirable(t, now_us, srv->cfg.expire_ms))
        return;
    if (t->row.status == RS_GAME_OPEN && seek_kept(srv, t)) {
        t->kept_since_us = now_us; /* looked at again after another delay */
        return;
    }
    rs_ctx ctx = rs_server_ctx(srv);
    const rs_game_status before = t->row.status;
    rs_table_expire(&ctx, t, srv->cfg.expire_ms);
    rs_server_touch(srv, t, before);
}

/* End the games nobody comes back to (rs_table_expirable), once a second. */
static void expire(rs_server *srv)
{
    if (srv->cfg.expire_ms <= 0)
        return;
    const int64_t now_us = rs_server_now_us(srv);
    int64_t *due = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (t && rs_table_expirable(t, now_us, srv->cfg.expire_ms) && RS_GROW(due, n, cap, 8))
            due[n++] = t->row.id;
    }
    /* Ended after the scan: ending one may replace a table (catching up on a cluster). */
    for (size_t i = 0; i < n; i++) {
        rs_table *t = rs_server_table(srv, due[i]);
        if (t)
            expire_one(srv, t);
    }
    free(due);
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
    if (srv->mine_dirty && srv->next_mine_push_us < next)
        next = srv->next_mine_push_us;
    if ((srv->deferred_count || srv->ai_waiting_count) && srv->deferred_due_us < next)
        next = srv->deferred_due_us;
    return next;
}

void rs_server_listen(rs_server *srv)
{
    rs_cluster_listen(srv, &cluster_hooks);
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
            fresh->lease_token = old->lease_token;
            rs_server_replace_table(srv, old, fresh, -1);
            continue;
        }
        if (srv->shared && (rs_store_unavailable(srv->store) || strcmp(e.code, "not-found") != 0)) {
            /* The database is out of reach or failed the read, not the game gone: version 0
             * has every later look at it (a lock, the resync once the database is back) read
             * it again, and its watchers stay. */
            old->row.v = 0;
            continue;
        }
        {
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
static rs_outbox replies_after_failure(rs_server *srv, bool maybe_stored)
{
    /* A commit whose answer never came may have happened: the player must not be told that
     * nothing was done, or a move they were refused would stand unseen; the game as stored is
     * sent again once the database answers (recover_from_failed_commit, or the resync). */
    const char *said = maybe_stored ? "the database stopped answering before it confirmed "
                                      "that: it may have been stored, and the game as stored "
                                      "is sent again once the database answers"
                                    : "the server could not store that; nothing was done";
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
            cJSON_AddStringToObject(
                e, "code", rs_store_unavailable(srv->store) ? "unavailable" : "server-error");
            cJSON_AddStringToObject(e, "message", said);
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
        rs_server_error(srv, c, &e, NULL, NULL);
    }
}

static void fail_iteration(rs_server *srv, int commit_rc)
{
    srv->stats.commit_failures++;
    srv->republish = srv->shared; /* who is connected here was in it too (cluster.c) */
    rs_log("commit failed: %s; %s", rs_store_error(srv->store),
           commit_rc == RS_STORE_UNKNOWN
               ? "the games of this moment are read again from the database"
               : "the changes of this moment are undone");
    /* Who heard of a change that did not happen must hear nothing of it. */
    rs_outbox kept = replies_after_failure(srv, commit_rc == RS_STORE_UNKNOWN);
    rs_outbox_clear(&srv->outbox);
    free(srv->outbox.items);
    srv->outbox = kept;
    rs_server_visit_noted(srv, undo_conn);
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
            schedule_ai(srv, t);
    }
    if (srv->lobby_dirty && rs_server_now_us(srv) >= srv->next_lobby_push_us) {
        rs_lobby_push(srv);
        srv->lobby_dirty = false;
        srv->next_lobby_push_us = rs_server_now_us(srv) + LOBBY_PUSH_EVERY_US;
    }
    rs_mine_push(srv);
    int rc = 0;
    rs_cluster_announce(srv);
    if (rs_store_in_transaction(srv->store)) {
        srv->stats.commits++;
        const int commit_rc = rs_store_commit(srv->store);
        if (commit_rc != RS_STORE_OK) {
            fail_iteration(srv, commit_rc);
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
    rs_outbox_clear(&srv->outbox);
    rs_cluster_clear(srv);
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
    rs_server_visit_noted(srv, clear_noted);
    srv->noted_count = 0;
    srv->noted_overflow = false;
    return rc;
}

/* ---- start and stop ---- */

/* On a cluster: whether another server runs now (its sign of life lasts). */
static bool others_running(rs_server *srv)
{
    char *live = NULL;
    const bool others = rs_store_nodes_live(srv->store, &live) == RS_STORE_OK && live[0];
    free(live);
    return others;
}

/* The first server of a cluster starting again after every server was down: a running clock
 * was charged up to the last sign of life, and is written back under its row lock, so that
 * the servers starting next (which find this one running and charge up to now) read a stamp
 * without the downtime in it. A row another server holds (its row lock, or a lease still
 * running) is that server's to write: "every server was down" is read from signs of life,
 * which lapse for servers that are running but were cut from the database for a moment.
 * Each game is written in a transaction of its own, so that such a server, whose next
 * commit may need the row, waits for one game's write and not for this whole start (issue
 * 47: it waited past its lock timeout, and its commit failed). */
static void store_resumed_clock(rs_server *srv, rs_ctx *ctx, rs_table *t)
{
    if (t->row.status != RS_GAME_LIVE || t->row.running < 0)
        return;
    if (rs_store_commit(srv->store) != RS_STORE_OK || rs_store_begin(srv->store) != RS_STORE_OK)
        return;
    rs_game_lock lock;
    if (rs_store_game_lock(srv->store, t->row.id, &lock) != RS_STORE_OK || lock.v != t->row.v)
        return;
    const bool held_elsewhere =
        lock.owner[0] && strcmp(lock.owner, srv->node) != 0 && !lock.expired;
    if (!held_elsewhere)
        rs_table_save(ctx, t);
    if (rs_store_commit(srv->store) == RS_STORE_OK)
        rs_store_begin(srv->store);
}

static int load_unfinished(rs_server *srv, char *err, size_t err_size)
{
    int64_t *ids = NULL;
    size_t n = 0;
    if (rs_store_games_unfinished(srv->store, &ids, &n) != RS_STORE_OK) {
        snprintf(err, err_size, "cannot list games: %s", rs_store_error(srv->store));
        return -1;
    }
    rs_store_begin(srv->store);
    rs_ctx ctx = rs_server_ctx(srv);
    /* Clocks are charged up to the last sign of life of the server (of any server of a
     * cluster that was wholly down): the downtime is charged to nobody. A server joining a
     * running cluster charges up to now, as its other servers do. */
    bool whole_restart = true;
    if (srv->shared) { /* rows of this name left by a run killed before: not this run's */
        rs_store_node_gone(srv->store, srv->node);
        whole_restart = !others_running(srv);
    }
    int64_t alive_ms = srv->shared && !whole_restart ? ctx.now_ms : 0;
    if (!srv->shared)
        rs_store_meta_get(srv->store, "alive_ms", &alive_ms);
    else if (whole_restart)
        rs_store_meta_max(srv->store, "alive_ms", &alive_ms);
    size_t loaded = 0;
    for (size_t i = 0; i < n; i++) {
        rs_err e;
        rs_table *t = rs_table_load(&ctx, ids[i], alive_ms, &e);
        if (!t) {
            rs_log("game %lld not resumed: %s", (long long)ids[i], e.text);
            continue;
        }
        rs_table_offers_load(&ctx, t);
        if (srv->shared && whole_restart)
            store_resumed_clock(srv, &ctx, t);
        loaded++;
        if (srv->shared) { /* held once a client opens it or its lease is taken (cluster.c) */
            rs_cluster_unload(srv, t);
            continue;
        }
        rs_server_add_table(srv, t);
    }
    free(ids);
    rs_store_meta_set(srv->store, srv->shared ? srv->alive_key : "alive_ms", ctx.now_ms);
    if (srv->shared)
        rs_store_node_alive(srv->store, srv->node, srv->cfg.lease_ms);
    if (rs_store_commit(srv->store) != RS_STORE_OK) {
        snprintf(err, err_size, "cannot store the resumed games: %s", rs_store_error(srv->store));
        return -1;
    }
    if (n)
        rs_log("resumed %zu of %zu unfinished games%s", loaded, n,
               srv->shared && whole_restart ? " (no other server running: the downtime is "
                                              "charged to nobody)"
                                            : "");
    return 0;
}

rs_server *rs_server_new(const rs_server_config *cfg, const rs_time_source *time,
                         const rs_output *out, char *err, size_t err_size)
{
    rs_server *srv = rs_server_open(cfg, time, out, err, err_size);
    if (!srv)
        return NULL;
    srv->next_housekeeping_us = srv->started_us + HOUSEKEEPING_US;
    if (load_unfinished(srv, err, err_size) < 0) {
        rs_server_free(srv);
        return NULL;
    }
    rs_pools_start(srv); /* committed with the leases below */
    srv->workers = rs_workers_start(cfg->ai_threads, cfg->hash_threads, srv->store, cfg->notify,
                                    cfg->notify_ctx);
    if (!srv->workers) {
        snprintf(err, err_size, "cannot start the worker threads");
        rs_server_free(srv);
        return NULL;
    }
    for (size_t i = 0; i < srv->tables.cap; i++)
        if (srv->tables.slots[i].key)
            schedule_ai(srv, srv->tables.slots[i].value);
    if (rs_store_commit(srv->store) != RS_STORE_OK) /* the leases those took */
        rs_log("cannot store the leases taken at the start: %s", rs_store_error(srv->store));
    return srv;
}

void rs_server_free(rs_server *srv)
{
    if (!srv)
        return;
    rs_workers_stop(srv->workers);
    if (rs_store_begin(srv->store) == RS_STORE_OK)
        rs_store_meta_set(srv->store, srv->shared ? srv->alive_key : "alive_ms",
                          rs_server_now_ms(srv));
    rs_store_commit(srv->store);
    rs_cluster_release(srv);
    rs_cluster_free(srv);
    rs_server_close(srv);
}
