/* cluster.c — one server among several on one PostgreSQL database (see cluster.h and
 * docs/cluster.md): row locks taken without waiting, catching up from the database,
 * announcements at the commit, leases with fencing tokens, and the requests that wait for a
 * row another server holds. */
#include "cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "log.h"
#include "server_internal.h"

#define RETRY_US 3000ll        /* a request waiting for a row is tried again this soon */
#define ANNOUNCE_CHUNK 7000    /* NOTIFY carries at most 8000 bytes */
#define ANNOUNCE_LINE_MAX 1200 /* a game line, or a chat message (at most ~600 bytes) */

const char RS_CODE_RETRY[] = "retry";

typedef struct rs_deferred {
    uint64_t conn;
    char *data;
    size_t len;
} rs_deferred;

/* Whatever waits for a row is tried again RETRY_US after the first of them began to wait. */
static void arm_retry(rs_server *srv)
{
    if (!srv->deferred_count && !srv->ai_waiting_count)
        srv->deferred_due_us = rs_server_now_us(srv) + RETRY_US;
}

/* ---- catching up ---- */

/* The game as stored now. A game is read in several statements, each seeing what is
 * committed when it runs: unless this server holds the row (`locked`), another may commit a
 * move between them, so the version is read again after, and the game again if it moved. */
static rs_table *load_whole(rs_server *srv, int64_t id, bool locked, rs_err *e)
{
    rs_ctx ctx = rs_server_ctx(srv);
    for (int attempt = 0; attempt < 5; attempt++) {
        rs_table *t = rs_table_load(&ctx, id, ctx.now_ms, e);
        int64_t v;
        if (!t || locked ||
            (rs_store_game_version(srv->store, id, &v) == RS_STORE_OK && v == t->row.v))
            return t;
        rs_table_free(t);
    }
    rs_fail(e, "server-error", "game %lld keeps changing while it is read", (long long)id);
    return NULL;
}

/* Replace t by the game as stored now, its watchers sent what they missed. */
static rs_table *catch_up(rs_server *srv, rs_table *old)
{
    rs_err e;
    rs_table *fresh = load_whole(srv, old->row.id, old->locked, &e);
    if (!fresh) {
        rs_log("game %lld: cannot catch up: %s", (long long)old->row.id, e.text);
        return old;
    }
    fresh->lease_token = old->lease_token;
    fresh->leased_elsewhere_until_us = old->leased_elsewhere_until_us;
    fresh->locked = old->locked;
    if (old->ai_ply == (int64_t)rs_table_ply(fresh)) { /* its search is still good */
        fresh->ai_ply = old->ai_ply;
        fresh->ai_since_us = old->ai_since_us;
    }
    const rs_game_status before = old->row.status;
    rs_server_replace_table(srv, old, fresh, old->row.v);
    rs_server_touch(srv, fresh, before);
    fresh->dirty = false; /* nothing of this server's to announce */
    return fresh;
}

/* A game this server does not hold yet, from the store: unfinished ones join the lobby. */
static rs_table *fetch(rs_server *srv, int64_t id, bool finished_too)
{
    rs_err e;
    rs_table *t = load_whole(srv, id, false, &e);
    if (!t)
        return NULL;
    const bool finished = t->row.status == RS_GAME_OVER || t->row.status == RS_GAME_ABORTED;
    if ((finished && !finished_too) || !rs_server_add_table(srv, t)) {
        rs_table_free(t);
        return NULL;
    }
    rs_server_touch(srv, t, finished ? t->row.status : RS_GAME_OVER);
    t->dirty = false;
    return t;
}

rs_table *rs_cluster_fetch(rs_server *srv, int64_t id)
{
    if (!srv->shared)
        return NULL;
    return fetch(srv, id, true);
}

/* Lock the row (without waiting) and catch up; NULL with e set when it cannot. */
static rs_table *lock_row(rs_server *srv, rs_table *t, rs_game_lock *lock, rs_err *e)
{
    if (rs_store_begin(srv->store) != RS_STORE_OK) {
        rs_fail(e, "unavailable", "the store is unavailable: try again");
        return NULL;
    }
    int rc = rs_store_game_lock(srv->store, t->row.id, lock);
    if (rc == RS_STORE_BUSY) {
        rs_fail(e, RS_CODE_RETRY, "game %lld is being changed by another server",
                (long long)t->row.id);
        return NULL;
    }
    if (rc != RS_STORE_OK) {
        rs_fail(e, rs_store_unavailable(srv->store) ? "unavailable" : "server-error",
                "the store cannot lock game %lld", (long long)t->row.id);
        return NULL;
    }
    if (!t->locked && RS_GROW(srv->locked, srv->locked_count, srv->locked_cap, 16))
        srv->locked[srv->locked_count++] = t->row.id;
    t->locked = true;
    if (lock->v != t->row.v)
        t = catch_up(srv, t);
    if (lock->v != t->row.v) {
        rs_fail(e, "server-error", "game %lld cannot be read back", (long long)t->row.id);
        return NULL;
    }
    return t;
}

rs_table *rs_cluster_lock(rs_server *srv, rs_table *t, rs_err *e)
{
    if (!srv->shared || t->locked)
        return t;
    rs_game_lock lock;
    return lock_row(srv, t, &lock, e);
}

rs_table *rs_cluster_own(rs_server *srv, rs_table *t, bool *busy)
{
    if (busy)
        *busy = false;
    if (!srv->shared)
        return t;
    rs_game_lock lock;
    rs_err e;
    rs_table *locked = lock_row(srv, t, &lock, &e);
    if (!locked) {
        if (busy)
            *busy = e.code == RS_CODE_RETRY;
        return NULL;
    }
    t = locked;
    const int64_t id = t->row.id;
    const bool mine = strcmp(lock.owner, srv->node) == 0;
    if (mine && t->lease_token > 0 && lock.token == t->lease_token) {
        /* Renewed only with this very token: a stale one is refused by the database. */
        if (rs_store_lease_fence(srv->store, id, srv->node, t->lease_token, srv->cfg.lease_ms) ==
            RS_STORE_OK)
            return t;
        t->lease_token = 0;
        return NULL;
    }
    if (!lock.owner[0] || lock.expired || mine) {
        int64_t token;
        if (rs_store_lease_take(srv->store, id, srv->node, srv->cfg.lease_ms, &token) !=
            RS_STORE_OK)
            return NULL;
        if (lock.owner[0] && !mine)
            rs_log("game %lld: lease taken over from %s, whose lease ran out (token %lld)",
                   (long long)id, lock.owner, (long long)token);
        t->lease_token = token;
        t->leased_elsewhere_until_us = 0;
        return t;
    }
    if (t->lease_token > 0)
        rs_log("game %lld: lease lost to %s (token %lld > %lld): this server leaves its work "
               "alone",
               (long long)id, lock.owner, (long long)lock.token, (long long)t->lease_token);
    t->lease_token = 0;
    t->leased_elsewhere_until_us = rs_server_now_us(srv) + lock.left_ms * 1000;
    return NULL;
}

bool rs_cluster_leased_elsewhere(rs_server *srv, const rs_table *t)
{
    return srv->shared && rs_server_now_us(srv) < t->leased_elsewhere_until_us;
}

/* ---- AI results waiting for a row another server holds ---- */

void rs_cluster_keep_ai(rs_server *srv, const rs_ai_result *result)
{
    if (!RS_GROW(srv->ai_waiting, srv->ai_waiting_count, srv->ai_waiting_cap, 4))
        return;
    arm_retry(srv);
    srv->ai_waiting[srv->ai_waiting_count++] = *result;
}

bool rs_cluster_take_ai(rs_server *srv, rs_ai_result *out)
{
    if (!srv->ai_waiting_count || rs_server_now_us(srv) < srv->deferred_due_us)
        return false;
    *out = srv->ai_waiting[0];
    memmove(srv->ai_waiting, srv->ai_waiting + 1,
            --srv->ai_waiting_count * sizeof *srv->ai_waiting);
    return true;
}

/* ---- announcements ---- */

static void add_line(rs_server *srv, const char *line)
{
    const size_t n = strlen(line);
    while (srv->announce_len + n + 1 > srv->announce_cap)
        if (!RS_GROW(srv->announce, srv->announce_cap, srv->announce_cap, 1024))
            return;
    memcpy(srv->announce + srv->announce_len, line, n);
    srv->announce_len += n;
    srv->announce[srv->announce_len++] = '\n';
}

void rs_cluster_note_chat(rs_server *srv, int64_t game, const char *message)
{
    if (!srv->shared || strlen(message) > ANNOUNCE_LINE_MAX)
        return;
    char line[ANNOUNCE_LINE_MAX + 128];
    snprintf(line, sizeof line, "c %lld %s %s", (long long)game, srv->node, message);
    add_line(srv, line);
}

/* NOTIFY the lines in chunks under the payload limit, each chunk whole lines. */
static void send_lines(rs_server *srv)
{
    size_t at = 0;
    while (at < srv->announce_len) {
        size_t end = at;
        while (end < srv->announce_len) {
            const char *nl = memchr(srv->announce + end, '\n', srv->announce_len - end);
            const size_t next = (size_t)(nl - srv->announce) + 1;
            if (next - at > ANNOUNCE_CHUNK && end > at)
                break;
            end = next;
        }
        srv->announce[end - 1] = '\0';
        if (rs_store_announce(srv->store, srv->announce + at) != RS_STORE_OK)
            rs_log("cannot announce: %s", rs_store_error(srv->store));
        at = end;
    }
}

void rs_cluster_announce(rs_server *srv)
{
    if (!srv->shared || !rs_store_in_transaction(srv->store))
        return;
    for (size_t i = 0; i < srv->touched_count; i++) {
        const rs_table *t = rs_server_table(srv, srv->touched[i]);
        if (!t || !t->dirty)
            continue;
        char line[128];
        snprintf(line, sizeof line, "g %lld %lld %s", (long long)t->row.id, (long long)t->row.v,
                 srv->node);
        add_line(srv, line);
    }
    if (srv->announce_len)
        send_lines(srv);
}

void rs_cluster_clear(rs_server *srv)
{
    srv->announce_len = 0;
    for (size_t i = 0; i < srv->locked_count; i++) {
        rs_table *t = rs_server_table(srv, srv->locked[i]);
        if (t)
            t->locked = false;
    }
    srv->locked_count = 0;
}

/* ---- listening ---- */

/* Another server committed version v of game id. */
static void game_changed(rs_server *srv, int64_t id, int64_t v)
{
    rs_table *t = rs_server_table(srv, id);
    if (t && t->row.v >= v)
        return;
    if (t)
        catch_up(srv, t);
    else
        fetch(srv, id, false);
}

/* A chat line said on another server, for this server's watchers of the game. */
static void chat_said(rs_server *srv, int64_t id, const char *message)
{
    rs_table *t = rs_server_table(srv, id);
    for (size_t i = 0; t && i < t->num_watchers; i++)
        if (!t->watchers[i].joining)
            rs_outbox_put_text(&srv->outbox, t->watchers[i].conn, message);
}

/* A whole number at *p followed by one space: *p moves past both. */
static bool take_number(const char **p, int64_t *out)
{
    char *end;
    const long long n = strtoll(*p, &end, 10);
    if (end == *p || *end != ' ' || n < 0)
        return false;
    *out = n;
    *p = end + 1;
    return true;
}

/* A word at *p (a node's name) up to the next space or the end: *p moves past both. */
static bool take_word(const char **p, char out[RS_NODE_TEXT])
{
    const size_t n = strcspn(*p, " ");
    if (n == 0 || n >= RS_NODE_TEXT)
        return false;
    memcpy(out, *p, n);
    out[n] = '\0';
    *p += n + ((*p)[n] == ' ');
    return true;
}

/* "g ID VERSION NODE" or "c ID NODE MESSAGE"; the server's own lines are skipped. */
static void on_line(rs_server *srv, const char *line)
{
    int64_t id, v;
    char node[RS_NODE_TEXT];
    const char *p = line + 2;
    if (line[0] == '\0' || line[1] != ' ' || !take_number(&p, &id))
        return;
    if (line[0] == 'g' && take_number(&p, &v) && take_word(&p, node)) {
        if (strcmp(node, srv->node) != 0)
            game_changed(srv, id, v);
    } else if (line[0] == 'c' && take_word(&p, node) && *p) {
        if (strcmp(node, srv->node) != 0)
            chat_said(srv, id, p);
    }
}

static void on_announcement(void *ctx, const char *text)
{
    rs_server *srv = ctx;
    char line[ANNOUNCE_LINE_MAX + 128];
    while (*text) {
        const size_t n = strcspn(text, "\n");
        if (n < sizeof line) {
            memcpy(line, text, n);
            line[n] = '\0';
            on_line(srv, line);
        }
        text += n + (text[n] == '\n');
    }
}

/* After the listening connection was (re)opened: what was announced meanwhile is lost, so
 * every game held is compared with the store, and unfinished ones not held are fetched. */
static void resync(rs_server *srv)
{
    int64_t *ids = NULL;
    size_t n = 0;
    if (rs_store_games_unfinished(srv->store, &ids, &n) == RS_STORE_OK)
        for (size_t i = 0; i < n; i++)
            if (!rs_server_table(srv, ids[i]))
                fetch(srv, ids[i], false);
    free(ids);
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        rs_game_row row;
        if (t && rs_store_game_get(srv->store, t->row.id, &row) == RS_STORE_OK && row.v != t->row.v)
            catch_up(srv, t);
    }
}

void rs_cluster_listen(rs_server *srv)
{
    if (!srv->shared)
        return;
    int rc = rs_store_announcements(srv->store, on_announcement, srv);
    if (rc == RS_STORE_ERROR) {
        if (!srv->listen_down)
            rs_log("cannot hear the other servers: %s", rs_store_error(srv->store));
        srv->listen_down = true;
        return;
    }
    if (rc == 1) {
        if (srv->listen_down)
            rs_log("hearing the other servers again");
        srv->listen_down = false;
        resync(srv);
    }
}

/* ---- leases ---- */

void rs_cluster_tick(rs_server *srv)
{
    if (!srv->shared || rs_store_begin(srv->store) != RS_STORE_OK)
        return;
    rs_store_leases_renew(srv->store, srv->node, srv->cfg.lease_ms);
}

void rs_cluster_release(rs_server *srv)
{
    if (!srv->shared || rs_store_begin(srv->store) != RS_STORE_OK)
        return;
    rs_store_leases_renew(srv->store, srv->node, 0);
    rs_store_commit(srv->store);
}

/* ---- requests waiting for a row ---- */

bool rs_cluster_defer(rs_server *srv, uint64_t conn, const char *data, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy || !RS_GROW(srv->deferred, srv->deferred_count, srv->deferred_cap, 16)) {
        free(copy);
        return false;
    }
    memcpy(copy, data, len);
    copy[len] = '\0';
    arm_retry(srv);
    srv->deferred[srv->deferred_count++] = (rs_deferred){conn, copy, len};
    return true;
}

bool rs_cluster_deferring(const rs_server *srv, uint64_t conn)
{
    for (size_t i = 0; i < srv->deferred_count; i++)
        if (srv->deferred[i].conn == conn)
            return true;
    return false;
}

void rs_cluster_retry(rs_server *srv)
{
    if (!srv->deferred_count || rs_server_now_us(srv) < srv->deferred_due_us)
        return;

    rs_deferred *items = srv->deferred;
    const size_t n = srv->deferred_count;
    srv->deferred = NULL;
    srv->deferred_count = srv->deferred_cap = 0;
    for (size_t i = 0; i < n; i++) {
        if (rs_server_conn(srv, items[i].conn))
            rs_server_receive(srv, items[i].conn, items[i].data, items[i].len);
        free(items[i].data);
    }
    free(items);
}

void rs_cluster_free(rs_server *srv)
{
    for (size_t i = 0; i < srv->deferred_count; i++)
        free(srv->deferred[i].data);
    free(srv->deferred);
    free(srv->announce);
    free(srv->locked);
    free(srv->ai_waiting);
}
