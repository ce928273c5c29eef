/* cluster.c — one server among several on one PostgreSQL database (see cluster.h and
 * docs/cluster.md): row locks taken without waiting, catching up from the database,
 * announcements at the commit, leases with fencing tokens, and the requests that wait for a
 * row another server holds. Layer 4 of layers.h: what it needs done above it goes through
 * the caller's rs_cluster_hooks. */
#include "cluster.h"

#include <cjson/cJSON.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fields.h"
#include "grow.h"
#include "log.h"
#include "table_view.h"

#define RETRY_US 3000ll        /* a request waiting for a row is tried again this soon */
#define ANNOUNCE_CHUNK 7000    /* NOTIFY carries at most 8000 bytes */
#define ANNOUNCE_LINE_MAX 1200 /* a chat message (at most ~600 bytes) */
/* A game's lobby summary longer than this is not announced: the others read it instead. */
#define SUMMARY_MAX 2400
#define SWEEP_LIMIT 500 /* games without a lease looked at per sweep */
#define SWEEP_LOADS 32  /* of which games not held, loaded to take their lease */

const char RS_CODE_RETRY[] = "retry";

/* Whatever waits for a row is tried again RETRY_US after the first of them began to wait. */
static void arm_retry(rs_server *srv)
{
    if (!srv->deferred_count && !srv->ai_waiting_count)
        srv->deferred_due_us = rs_server_now_us(srv) + RETRY_US;
}

/* ---- the lobby's games this server does not hold ---- */

/* Where t shows in the lobby (as session.c lists it): 'o' among the open games, 'l' among
 * the live ones, '-' nowhere. */
static char lobby_kind(const rs_table *t)
{
    if (t->row.status == RS_GAME_LIVE)
        return 'l';
    if (t->row.status != RS_GAME_OPEN)
        return '-';
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_OPEN)
            return 'o';
    return '-';
}

static void unlist(rs_server *srv, int64_t id)
{
    rs_listed *l = rs_idmap_get(&srv->listed, (uint64_t)id);
    if (!l)
        return;
    rs_idmap_del(&srv->listed, (uint64_t)id);
    cJSON_Delete(l->summary);
    free(l);
    srv->lobby_dirty = true;
    srv->mine_dirty = true;
}

static bool listed_since(const rs_server *srv, int64_t id, int64_t v)
{
    const rs_listed *l = rs_idmap_get(&srv->listed, (uint64_t)id);
    return l && l->v >= v;
}

/* Game id, at version v, shows in the lobby as `kind` with `summary` (taken over; NULL for
 * '-'). An older version than the one listed changes nothing. */
static void list_game(rs_server *srv, int64_t id, int64_t v, char kind, cJSON *summary)
{
    if (listed_since(srv, id, v) || kind == '-' || !summary) {
        if (!listed_since(srv, id, v))
            unlist(srv, id);
        cJSON_Delete(summary);
        return;
    }
    rs_listed *l = rs_idmap_get(&srv->listed, (uint64_t)id);
    if (!l) {
        l = calloc(1, sizeof *l);
        if (!l || !rs_idmap_put(&srv->listed, (uint64_t)id, l)) {
            free(l);
            cJSON_Delete(summary);
            return;
        }
    }
    const bool open = kind == 'o';
    /* Pushed as a held game's change is (rs_server_touch): when it appears, moves between
     * the lists, or is open. */
    if (open || !l->summary || l->open != open)
        srv->lobby_dirty = true;
    cJSON_Delete(l->summary);
    l->v = v;
    l->open = open;
    l->summary = summary;
    l->at_ms = rs_server_now_ms(srv);
    srv->mine_dirty = true;
}

static void list_table(rs_server *srv, const rs_table *t)
{
    const char kind = lobby_kind(t);
    list_game(srv, t->row.id, t->row.v, kind,
              kind == '-' ? NULL : rs_table_summary(t, rs_server_now_us(srv)));
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

/* A game not held, listed as stored now (its announcement did not carry its summary, or
 * announcements were missed). */
static void list_from_store(rs_server *srv, int64_t id)
{
    rs_err e;
    rs_table *t = load_whole(srv, id, false, &e);
    if (!t)
        return;
    list_table(srv, t);
    rs_table_free(t);
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
    rs_ctx ctx = rs_server_ctx(srv);
    rs_table_offers_load(&ctx, fresh);
    fresh->lease_token = old->lease_token;
    fresh->leased_elsewhere_until_us = old->leased_elsewhere_until_us;
    fresh->announced_v = old->announced_v;
    fresh->locked = old->locked;
    if (old->ai_ply == (int64_t)rs_table_ply(fresh)) { /* its search is still good */
        fresh->ai_ply = old->ai_ply;
        fresh->ai_since_us = old->ai_since_us;
    }
    const rs_game_status before = old->row.status;
    srv->stats.caught_up_whole++;
    rs_server_replace_table(srv, old, fresh, old->row.v);
    rs_server_touch(srv, fresh, before);
    fresh->dirty = false; /* nothing of this server's to announce */
    return fresh;
}

/* ---- who is connected where ---- */

static void add_line(rs_server *srv, const char *line);

/* The seats of t whose users watch it on other servers: `mask`. Seats that stop being so
 * (and are not watched here) count as gone from now; the watchers here are told. */
static void set_remote(rs_server *srv, rs_table *t, uint32_t mask)
{
    if (mask == t->remote_seats)
        return;
    rs_ctx ctx = rs_server_ctx(srv);
    for (int s = 0; s < t->row.seats; s++)
        if ((t->remote_seats & ~mask & (1u << s)) && t->connections[s] == 0)
            t->gone_since_us[s] = ctx.now_us;
    t->remote_seats = mask;
    cJSON *m = rs_table_presence(t, ctx.now_us);
    rs_table_broadcast(&ctx, t, m);
    cJSON_Delete(m);
}

/* The seats of t among rows[0..n) (of t's game). */
static uint32_t seats_among(const rs_table *t, const rs_presence_row *rows, size_t n)
{
    uint32_t mask = 0;
    for (size_t i = 0; i < n; i++) {
        const int seat = rs_table_seat_of(t, rows[i].user);
        if (seat >= 0 && t->row.seat[seat].kind == RS_SEAT_HUMAN)
            mask |= 1u << seat;
    }
    return mask;
}

/* Read again who watches game t on the other live servers. */
static void read_presence(rs_server *srv, rs_table *t)
{
    rs_presence_row *rows = NULL;
    size_t n = 0;
    if (rs_store_presence_elsewhere(srv->store, srv->node, t->row.id, &rows, &n) == RS_STORE_OK)
        set_remote(srv, t, seats_among(t, rows, n));
    free(rows);
}

/* Read again who watches every game held (a server started or died). */
static void read_all_presence(rs_server *srv)
{
    rs_presence_row *rows = NULL;
    size_t n = 0;
    if (rs_store_presence_elsewhere(srv->store, srv->node, 0, &rows, &n) != RS_STORE_OK)
        return;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (!t)
            continue;
        size_t lo = 0, hi = n; /* rows are by game: the first of t's */
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (rows[mid].game < t->row.id)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t end = lo;
        while (end < n && rows[end].game == t->row.id)
            end++;
        set_remote(srv, t, seats_among(t, rows + lo, end - lo));
    }
    free(rows);
}

/* Store which of t's seats this server's connections watch, where that changed: true when
 * something was written. */
static bool publish_presence(rs_server *srv, rs_table *t)
{
    bool changed = false;
    for (int s = 0; s < t->row.seats; s++) {
        const rs_seat_row *seat = &t->row.seat[s];
        const int64_t want =
            seat->kind == RS_SEAT_HUMAN && t->connections[s] > 0 ? seat->user_id : 0;
        if (want == t->published_user[s])
            continue;
        if (rs_store_begin(srv->store) != RS_STORE_OK)
            return changed;
        if (t->published_user[s])
            rs_store_presence_put(srv->store, srv->node, t->published_user[s], t->row.id, false);
        if (want)
            rs_store_presence_put(srv->store, srv->node, want, t->row.id, true);
        t->published_user[s] = want;
        changed = true;
    }
    return changed;
}

/* After a failed commit, or the store out of reach: this server's rows written again from
 * what it holds, and the others told to read them again. */
static void republish_presence(rs_server *srv)
{
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_node_gone(srv->store, srv->node) != RS_STORE_OK)
        return;
    srv->republish = false;
    char line[128];
    snprintf(line, sizeof line, "n 0 %s", srv->node);
    add_line(srv, line);
    rs_store_node_alive(srv->store, srv->node, srv->cfg.lease_ms);
    for (size_t i = 0; i < srv->conns.cap; i++) {
        const rs_conn *c = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (c && c->user)
            rs_store_presence_put(srv->store, srv->node, c->user, 0, true);
    }
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (!t)
            continue;
        memset(t->published_user, 0, sizeof t->published_user);
        publish_presence(srv, t);
    }
}

void rs_cluster_user_here(rs_server *srv, int64_t user, bool here)
{
    if (srv->shared && user && rs_store_begin(srv->store) == RS_STORE_OK)
        rs_store_presence_put(srv->store, srv->node, user, 0, here);
}

bool rs_cluster_user_online(rs_server *srv, int64_t user)
{
    if (rs_server_user_connected(srv, user))
        return true;
    bool elsewhere = false;
    if (srv->shared)
        rs_store_user_elsewhere(srv->store, srv->node, user, &elsewhere);
    return elsewhere;
}

/* Catch t up with what another server committed by reading only the moves since t's version
 * (its game row and one statement for the moves) and playing them, each told to the watchers
 * as an update; false (t unchanged) when the versions between are not only moves or the
 * store cannot be read: then the caller reads the whole game. The game row is read first:
 * moves committed after it (versions past it) wait for their own announcement. */
static bool catch_up_by_moves(rs_server *srv, rs_table *t)
{
    if (t->row.status != RS_GAME_LIVE || t->row.v <= 0)
        return false;
    /* Moves leave the seat rows alone; only the end writes them (the scores). */
    rs_game_row row;
    if (rs_store_game_head(srv->store, t->row.id, &row) != RS_STORE_OK)
        return false;
    if (row.status == RS_GAME_LIVE)
        memcpy(row.seat, t->row.seat, sizeof row.seat);
    else if (rs_store_game_get(srv->store, t->row.id, &row) != RS_STORE_OK)
        return false;
    if (row.v == t->row.v)
        return true;
    rs_move_row *moves = NULL;
    size_t n = 0;
    if (rs_store_moves_since(srv->store, t->row.id, (int64_t)rs_table_ply(t), &moves, &n) !=
        RS_STORE_OK) {
        free(moves);
        return false;
    }
    while (n > 0 && moves[n - 1].v > row.v)
        n--;
    rs_ctx ctx = rs_server_ctx(srv);
    rs_err e;
    const bool caught_up = rs_table_catch_up(&ctx, t, &row, moves, n, &e) == 0;
    free(moves);
    if (caught_up) {
        srv->stats.caught_up_moves += (long long)n;
        srv->deadlines_stale = true;
        rs_server_touch(srv, t, RS_GAME_LIVE);
        t->dirty = false; /* nothing of this server's to announce */
    }
    return caught_up;
}

#ifdef RS_STORE_FAULT_INJECTION
/* Test builds (Debug): while the file named by RAMPARTS_TEST_CATCH_UP_FAIL exists, catching
 * up fails as when the store cannot be read (tests/server/test_cluster.py). */
static bool catch_up_fails(void)
{
    const char *flag = getenv("RAMPARTS_TEST_CATCH_UP_FAIL");
    return flag && *flag && access(flag, F_OK) == 0;
}
#else
static bool catch_up_fails(void)
{
    return false;
}
#endif

/* Catch t up to version v (announced or found under its lock): by its new moves when that
 * is all that changed, else by reading it whole. */
static rs_table *catch_up_to(rs_server *srv, rs_table *t, int64_t v)
{
    if (v > t->row.v && catch_up_fails()) {
        rs_log("game %lld: cannot catch up: a failure injected by a test", (long long)t->row.id);
        return t;
    }
    if (v > t->row.v && catch_up_by_moves(srv, t) && t->row.v >= v)
        return t;
    return t->row.v == v ? t : catch_up(srv, t);
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
    unlist(srv, id); /* held: listed from memory */
    rs_ctx ctx = rs_server_ctx(srv);
    rs_table_offers_load(&ctx, t);
    rs_server_touch(srv, t, finished ? t->row.status : RS_GAME_OVER);
    t->dirty = false;
    read_presence(srv, t);
    return t;
}

/* Game t out of memory (nobody watches it here, this server holds no lease on it): the
 * lobby keeps its summary; a client opening it has it read again. */
static void unload(rs_server *srv, rs_table *t)
{
    list_table(srv, t);
    if (rs_server_table(srv, t->row.id) == t) { /* else read at the start, never held */
        rs_idmap_del(&srv->tables, (uint64_t)t->row.id);
        srv->stats.unloaded++;
    }
    rs_table_free(t);
    srv->deadlines_stale = true;
}

void rs_cluster_unload(rs_server *srv, rs_table *t)
{
    unload(srv, t);
}

rs_table *rs_cluster_table(rs_server *srv, int64_t id)
{
    rs_table *t = rs_server_table(srv, id);
    if (t || !srv->shared || id <= 0) /* on a cluster, perhaps one another server created */
        return t;
    return fetch(srv, id, true);
}

rs_table *rs_cluster_table_named(rs_server *srv, const cJSON *msg, rs_err *e)
{
    int64_t id;
    if (!rs_field_int(msg, "game", true, 1, INT64_MAX / 2, &id, e))
        return NULL;
    rs_table *t = rs_cluster_table(srv, id);
    if (!t)
        rs_fail(e, "not-found", "no game %lld is open or being played", (long long)id);
    return t;
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
        t = catch_up_to(srv, t, lock->v);
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

void rs_cluster_note_chat(rs_server *srv, int64_t game, const char *said)
{
    if (!srv->shared || strlen(said) > ANNOUNCE_LINE_MAX)
        return;
    char line[ANNOUNCE_LINE_MAX + 128];
    snprintf(line, sizeof line, "c %lld %s %s", (long long)game, srv->node, said);
    add_line(srv, line);
}

void rs_cluster_note_rematch(rs_server *srv, int64_t game, int64_t rematch, const cJSON *notice)
{
    char *text = srv->shared ? cJSON_PrintUnformatted(notice) : NULL;
    if (text && strlen(text) <= ANNOUNCE_LINE_MAX) {
        char line[ANNOUNCE_LINE_MAX + 128];
        snprintf(line, sizeof line, "r %lld %lld %s %s", (long long)game, (long long)rematch,
                 srv->node, text);
        add_line(srv, line);
    }
    free(text);
}

void rs_cluster_note_revoked(rs_server *srv, int64_t user, const uint8_t *hash, bool one)
{
    if (!srv->shared)
        return;
    char hex[RS_TOKEN_HASH * 2 + 1] = "-";
    if (hash)
        sodium_bin2hex(hex, sizeof hex, hash, RS_TOKEN_HASH);
    char line[RS_TOKEN_HASH * 2 + RS_NODE_TEXT + 64];
    snprintf(line, sizeof line, "%c %lld %s %s", one ? 't' : 'u', (long long)user, srv->node, hex);
    add_line(srv, line);
}

void rs_cluster_note_user(rs_server *srv, int64_t user, const char *text)
{
    if (!srv->shared || strlen(text) > ANNOUNCE_LINE_MAX)
        return;
    char line[ANNOUNCE_LINE_MAX + RS_NODE_TEXT + 64];
    snprintf(line, sizeof line, "m %lld %s %s", (long long)user, srv->node, text);
    add_line(srv, line);
}

/* "m USER NODE MESSAGE" from another server: the message to this server's connections of
 * USER. */
static void told_user(rs_server *srv, int64_t user, const char *text)
{
    srv->mine_dirty = true; /* a pairing or a challenge elsewhere: the user's list changed */
    for (size_t i = 0; i < srv->conns.cap; i++) {
        rs_conn *c = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (!c || c->user != user)
            continue;
        c->refuses_challenges = 0; /* their setting may have changed there: read it again */
        if (!c->closing)
            rs_outbox_put_text(&srv->outbox, c->id, text);
    }
}

/* "t USER NODE HASH" (the token whose hash is HASH, in hex, was revoked: a logout) or
 * "u USER NODE HASH" (every token of USER but HASH, or all of them for "-", was revoked: a
 * password change), from another server: this server's connections on those tokens are
 * logged out too. */
static void revoked_elsewhere(rs_server *srv, const rs_cluster_hooks *hooks, char kind,
                              int64_t user, const char *node, const char *hex)
{
    uint8_t hash[RS_TOKEN_HASH];
    const bool none = strcmp(hex, "-") == 0;
    if (!none && (strlen(hex) != RS_TOKEN_HASH * 2 ||
                  sodium_hex2bin(hash, sizeof hash, hex, strlen(hex), NULL, NULL, NULL) != 0))
        return;
    if (kind == 't' && none)
        return;
    const int count = kind == 't' ? hooks->revoke_token(srv, hash, NULL)
                                  : hooks->revoke_user(srv, user, none ? NULL : hash, NULL);
    if (count)
        rs_log("user %lld: %d connections here logged out (%s on server %s)", (long long)user,
               count, kind == 't' ? "a logout" : "a password change", node);
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

/* "g ID VERSION NODE KIND SUMMARY": the new version, and how the game shows in the lobby
 * (lobby_kind, and its summary unless '-'), for the servers that do not hold it. Without
 * KIND (a summary too long) they read it from the store. */
static void announce_game(rs_server *srv, const rs_table *t)
{
    char line[SUMMARY_MAX + 160];
    int n = snprintf(line, sizeof line, "g %lld %lld %s", (long long)t->row.id, (long long)t->row.v,
                     srv->node);
    const char kind = lobby_kind(t);
    char *summary = NULL;
    if (kind != '-') {
        cJSON *o = rs_table_summary(t, rs_server_now_us(srv));
        summary = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
    }
    if (kind == '-')
        snprintf(line + n, sizeof line - (size_t)n, " -");
    else if (summary && strlen(summary) <= SUMMARY_MAX)
        snprintf(line + n, sizeof line - (size_t)n, " %c %s", kind, summary);
    free(summary);
    add_line(srv, line);
}

void rs_cluster_announce(rs_server *srv)
{
    if (!srv->shared)
        return;
    /* Presence after the games: a server reading it then holds a game created here. */
    bool *presence = calloc(srv->touched_count + 1, sizeof *presence);
    for (size_t i = 0; i < srv->touched_count; i++) {
        rs_table *t = rs_server_table(srv, srv->touched[i]);
        if (t && publish_presence(srv, t) && presence)
            presence[i] = true;
    }
    if (!rs_store_in_transaction(srv->store)) {
        free(presence);
        return;
    }
    char line[128];
    for (size_t i = 0; i < srv->touched_count; i++) {
        const rs_table *t = rs_server_table(srv, srv->touched[i]);
        if (t && t->dirty)
            announce_game(srv, t);
    }
    for (size_t i = 0; presence && i < srv->touched_count; i++) {
        if (!presence[i])
            continue;
        snprintf(line, sizeof line, "p %lld %s", (long long)srv->touched[i], srv->node);
        add_line(srv, line);
    }
    free(presence);
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

/* Another server committed version v of game id; `listing` is how it shows in the lobby
 * ("o SUMMARY", "l SUMMARY", "-", or "" when to be read from the store). A game held is
 * caught up, and the version remembered: a catching up that fails (the store out of reach,
 * the game changing faster than it can be read) is tried again each second
 * (catch_up_behind), since no later announcement may come for it (the game's last move). A
 * game not held is only listed. */
static void game_changed(rs_server *srv, int64_t id, int64_t v, const char *listing)
{
    rs_table *t = rs_server_table(srv, id);
    srv->mine_dirty = true;
    if (t) {
        if (t->row.v >= v)
            return;
        if (v > t->announced_v)
            t->announced_v = v;
        catch_up_to(srv, t, v);
        return;
    }
    if (listed_since(srv, id, v))
        return;
    if (listing[0] == '-' && !listing[1]) {
        list_game(srv, id, v, '-', NULL);
        return;
    }
    cJSON *summary = (listing[0] == 'o' || listing[0] == 'l') && listing[1] == ' '
                         ? cJSON_Parse(listing + 2)
                         : NULL;
    if (summary)
        list_game(srv, id, v, listing[0], summary);
    else
        list_from_store(srv, id);
}

/* Each game held that is behind a version announced for it, caught up again. */
static void catch_up_behind(rs_server *srv)
{
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (t && t->announced_v > t->row.v) {
            rs_log("game %lld: catching up again to version %lld (at %lld)", (long long)t->row.id,
                   (long long)t->announced_v, (long long)t->row.v);
            catch_up_to(srv, t, t->announced_v);
        }
    }
}

/* A chat line said on another server, for this server's watchers of the game. */
static void chat_said(rs_server *srv, int64_t id, const char *said)
{
    rs_table *t = rs_server_table(srv, id);
    for (size_t i = 0; t && i < t->num_watchers; i++)
        if (!t->watchers[i].joining)
            rs_outbox_put_text(&srv->outbox, t->watchers[i].conn, said);
}

/* A rematch of game id created on another server: remembered, so that nobody here creates
 * a second one, held, and its notice sent to this server's watchers of the old game. */
static void rematch_made(rs_server *srv, int64_t id, int64_t rematch, const char *notice)
{
    rs_table *t = rs_server_table(srv, id);
    if (!t) /* nobody here watches the old game; the new one is listed by its own line */
        return;
    t->rematch_id = rematch;
    if (!rs_server_table(srv, rematch))
        fetch(srv, rematch, false);
    chat_said(srv, id, notice);
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

/* "g ID VERSION NODE KIND SUMMARY" (announce_game), "c ID NODE MESSAGE", "p ID NODE" (who
 * watches game ID on NODE changed), "r ID REMATCH NODE MESSAGE", "t|u USER NODE HASH"
 * (revoked_elsewhere) or "m USER NODE MESSAGE" (told_user); the server's own lines are
 * skipped. */
static void on_line(rs_server *srv, const rs_cluster_hooks *hooks, const char *line)
{
    int64_t id, v;
    char node[RS_NODE_TEXT];
    const char *p = line + 2;
    if (line[0] == '\0' || line[1] != ' ' || !take_number(&p, &id))
        return;
    if (line[0] == 'g' && take_number(&p, &v) && take_word(&p, node)) {
        if (strcmp(node, srv->node) != 0)
            game_changed(srv, id, v, p);
    } else if (line[0] == 'c' && take_word(&p, node) && *p) {
        rs_table *t = rs_server_table(srv, id);
        rs_ctx ctx = rs_server_ctx(srv);
        if (t && strcmp(node, srv->node) != 0)
            rs_table_chat_said(&ctx, t, p);
    } else if (line[0] == 'p' && take_word(&p, node)) {
        rs_table *t = rs_server_table(srv, id);
        if (t && strcmp(node, srv->node) != 0)
            read_presence(srv, t);
    } else if (line[0] == 'n' && take_word(&p, node)) { /* a server stopped */
        if (strcmp(node, srv->node) != 0)
            read_all_presence(srv);
    } else if (line[0] == 'r' && take_number(&p, &v) && take_word(&p, node) && *p) {
        if (strcmp(node, srv->node) != 0)
            rematch_made(srv, id, v, p);
    } else if (line[0] == 'm' && take_word(&p, node) && *p) {
        if (strcmp(node, srv->node) != 0)
            told_user(srv, id, p);
    } else if ((line[0] == 't' || line[0] == 'u') && take_word(&p, node)) {
        if (strcmp(node, srv->node) != 0)
            revoked_elsewhere(srv, hooks, line[0], id, node, p);
    }
}

/* Who hears the announcements: the server, and what it has done above the cluster. */
typedef struct announcement_reader {
    rs_server *srv;
    const rs_cluster_hooks *hooks;
} announcement_reader;

static void on_announcement(void *ctx, const char *text)
{
    const announcement_reader *reader = ctx;
    char line[SUMMARY_MAX + 160];
    while (*text) {
        const size_t n = strcspn(text, "\n");
        if (n < sizeof line) {
            memcpy(line, text, n);
            line[n] = '\0';
            on_line(reader->srv, reader->hooks, line);
        }
        text += n + (text[n] == '\n');
    }
}

static int by_id(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The lobby's games not held, read again from the store: those no longer unfinished go.
 * False when the store could not be read. */
static bool relist(rs_server *srv)
{
    int64_t *ids = NULL;
    size_t n = 0;
    if (rs_store_games_unfinished(srv->store, &ids, &n) != RS_STORE_OK) {
        free(ids);
        return false;
    }
    int64_t *gone = malloc((srv->listed.count + 1) * sizeof *gone);
    size_t gone_count = 0;
    for (size_t i = 0; gone && i < srv->listed.cap; i++) {
        const int64_t id = (int64_t)srv->listed.slots[i].key;
        if (id && (n == 0 || !bsearch(&id, ids, n, sizeof *ids, by_id))) /* ids NULL if none */
            gone[gone_count++] = id;
    }
    for (size_t i = 0; i < gone_count; i++)
        unlist(srv, gone[i]);
    free(gone);
    for (size_t i = 0; i < n; i++)
        if (!rs_server_table(srv, ids[i]))
            list_from_store(srv, ids[i]);
    free(ids);
    return true;
}

/* After the listening connection was (re)opened: what was announced meanwhile is lost, so
 * every game held is compared with the store, and the lobby's others are read again.
 * False when the store could not be read (the main connection may still be reconnecting
 * after the database came back): then it is tried again each second, or a game another
 * server moved meanwhile would stay behind until its next announcement, which may never
 * come. */
static bool resync(rs_server *srv)
{
    bool read = relist(srv);
    for (size_t i = 0; read && i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        rs_game_row row;
        if (!t)
            continue;
        const int rc = rs_store_game_get(srv->store, t->row.id, &row);
        read = rc == RS_STORE_OK || rc == RS_STORE_NOTFOUND;
        if (rc == RS_STORE_OK && row.v > t->announced_v)
            t->announced_v = row.v;
        if (rc == RS_STORE_OK && row.v != t->row.v)
            catch_up(srv, t);
    }
    if (!read)
        return false;
    republish_presence(srv);
    read_all_presence(srv);
    return true;
}

static void resync_now(rs_server *srv)
{
    if (!srv->resync_due)
        return;
    srv->resync_due = !resync(srv);
    if (srv->resync_due)
        rs_log("cannot compare the games held with the store yet: %s; trying again",
               rs_store_error(srv->store));
}

void rs_cluster_listen(rs_server *srv, const rs_cluster_hooks *hooks)
{
    if (!srv->shared)
        return;
    announcement_reader reader = {srv, hooks};
    int rc = rs_store_announcements(srv->store, on_announcement, &reader);
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
        srv->resync_due = true;
        resync_now(srv);
    }
}

/* ---- leases ---- */

/* Games with work that must happen once (a clock, an AI seat, expiry) and no lease running
 * get a holder: this server takes the lease of those it holds at once, and of those it does
 * not hold (loading them) once they have been free for a lease, so that a server whose
 * clients watch a game has the first chance; a few of those a second. */
static void sweep(rs_server *srv)
{
    rs_unleased_row *rows = NULL;
    size_t n = 0;
    if (rs_store_games_unleased(srv->store, srv->cfg.lease_ms, srv->cfg.expire_ms > 0, SWEEP_LIMIT,
                                &rows, &n) != RS_STORE_OK) {
        free(rows);
        return;
    }
    int loads = 0;
    for (size_t i = 0; i < n; i++) {
        const int64_t id = rows[i].id;
        rs_table *t = rs_server_table(srv, id);
        const bool held = t != NULL;
        if (!held && (!rows[i].stale || loads >= SWEEP_LOADS || !(t = fetch(srv, id, false))))
            continue;
        loads += !held;
        if (rs_cluster_own(srv, t, NULL)) {
            if (!held)
                rs_log("game %lld: loaded to hold its lease (no server held it)", (long long)id);
            continue;
        }
        if (!held && (t = rs_server_table(srv, id)) != NULL && !t->num_watchers)
            unload(srv, t); /* another server has it */
    }
    free(rows);
}

/* Whether t has work that must happen once, and so keeps its lease (rs_store_leases_renew):
 * open (expiry), or live with a clock or an AI seat. */
static bool has_work(const rs_table *t)
{
    if (t->row.status == RS_GAME_OPEN)
        return true;
    if (t->row.status != RS_GAME_LIVE)
        return false;
    return t->row.clock_kind != RS_CLOCK_NONE || !rs_table_all_human(t);
}

/* Whether t may leave memory: nobody watches it here, this server holds no lease on it and
 * nothing of this moment (a change to commit, a row locked, an AI result waiting) needs
 * it. */
static bool unwatched(const rs_server *srv, const rs_table *t)
{
    if (t->num_watchers || t->locked || t->dirty || (t->lease_token > 0 && has_work(t)))
        return false;
    for (int s = 0; s < t->row.seats; s++)
        if (t->published_user[s])
            return false;
    for (size_t i = 0; i < srv->touched_count; i++)
        if (srv->touched[i] == t->row.id)
            return false;
    for (size_t i = 0; i < srv->ai_waiting_count; i++)
        if (srv->ai_waiting[i].game_id == t->row.id)
            return false;
    return true;
}

/* Unload the games nobody watches here and this server holds no lease on. */
static void unload_unwatched(rs_server *srv)
{
    int64_t *ids = malloc((srv->tables.count + 1) * sizeof *ids);
    size_t n = 0;
    for (size_t i = 0; ids && i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (t && unwatched(srv, t))
            ids[n++] = t->row.id;
    }
    for (size_t i = 0; i < n; i++)
        unload(srv, rs_server_table(srv, ids[i]));
    free(ids);
}

void rs_cluster_tick(rs_server *srv)
{
    if (!srv->shared || rs_store_begin(srv->store) != RS_STORE_OK)
        return;
    resync_now(srv);
    catch_up_behind(srv);
    rs_store_leases_renew(srv->store, srv->node, srv->cfg.lease_ms);
    if (srv->republish)
        republish_presence(srv);
    /* This server's presence counts while its sign of life lasts, as long as a lease: a
     * server killed or stopped leaves nobody connected for longer than that. */
    rs_store_node_alive(srv->store, srv->node, srv->cfg.lease_ms);
    char *live = NULL;
    if (rs_store_nodes_live(srv->store, &live) == RS_STORE_OK &&
        (!srv->live_nodes || strcmp(live, srv->live_nodes) != 0)) {
        free(srv->live_nodes);
        srv->live_nodes = live;
        live = NULL;
        read_all_presence(srv);
    }
    free(live);
    sweep(srv);
    unload_unwatched(srv);
}

void rs_cluster_release(rs_server *srv)
{
    if (!srv->shared || rs_store_begin(srv->store) != RS_STORE_OK)
        return;
    rs_store_leases_renew(srv->store, srv->node, 0);
    rs_store_node_gone(srv->store, srv->node);
    char line[128];
    snprintf(line, sizeof line, "n 0 %s", srv->node); /* the others read presence again */
    add_line(srv, line);
    send_lines(srv);
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

void rs_cluster_retry(rs_server *srv, const rs_cluster_hooks *hooks)
{
    if (!srv->deferred_count || rs_server_now_us(srv) < srv->deferred_due_us)
        return;

    rs_deferred *items = srv->deferred;
    const size_t n = srv->deferred_count;
    srv->deferred = NULL;
    srv->deferred_count = srv->deferred_cap = 0;
    for (size_t i = 0; i < n; i++) {
        if (rs_server_conn(srv, items[i].conn))
            hooks->receive(srv, items[i].conn, items[i].data, items[i].len);
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
    free(srv->live_nodes);
    for (size_t i = 0; i < srv->listed.cap; i++) {
        rs_listed *l = srv->listed.slots[i].key ? srv->listed.slots[i].value : NULL;
        if (l)
            cJSON_Delete(l->summary);
        free(l);
    }
    rs_idmap_free(&srv->listed);
}
