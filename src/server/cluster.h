/* cluster.h — one server among several on one PostgreSQL database (docs/cluster.md): a game's
 * row is locked before it is changed, so the database orders the changes of every server;
 * each commit is announced (NOTIFY) and every server catches up with what the others
 * announced, sending the new versions to its own clients; a game's work that must happen
 * once (clock flags, AI seats) belongs to the server holding its lease. On SQLite (one
 * server) every call here does nothing or returns what it was given.
 *
 * Layer 4 of layers.h: called by the loop (loop.c) and the commands (session.c); calls the
 * core (server.c), the referee and the store. What it must have done above it (a kept request
 * handled again, connections logged out) it asks through rs_cluster_hooks. */
#ifndef RS_CLUSTER_H
#define RS_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server_internal.h"

/* What the cluster has the layers above it do, passed by the caller (loop.c): it never calls
 * them by name, so that nothing calls up (layers.h). */
typedef struct rs_cluster_hooks {
    /* Handle a kept message again, as when it arrived (rs_server_receive). */
    void (*receive)(rs_server *srv, uint64_t conn, const char *data, size_t len);
    /* Log out this server's connections on the token `hash`, or of `user` on every token but
     * `keep` (NULL: none kept), each told with a logged-out; the count
     * (rs_session_revoke_token, rs_session_revoke_user). */
    int (*revoke_token)(rs_server *srv, const uint8_t hash[RS_TOKEN_HASH], const rs_conn *except);
    int (*revoke_user)(rs_server *srv, int64_t user, const uint8_t *keep, const rs_conn *except);
} rs_cluster_hooks;

/* The error code of a request that must wait for the next turn of the loop: another server
 * holds the game's row. Never sent: the request is kept and handled again. */
extern const char RS_CODE_RETRY[];

/* Before changing game t for a client: its row locked until the commit, and the table caught
 * up with what other servers committed. Returns the table to use (a fresh one may replace
 * t), or NULL with e set (RS_CODE_RETRY when another server holds the row). */
rs_table *rs_cluster_lock(rs_server *srv, rs_table *t, rs_err *e);
/* Before a game's work that must happen once (a flag, an AI seat's move or its search):
 * locked and caught up as above, and this server holding the game's lease (renewed, or
 * taken when free or run out, with a new fencing token). NULL when another server holds
 * the row or the lease. */
rs_table *rs_cluster_own(rs_server *srv, rs_table *t, bool *busy);
/* True while another server's lease on t lasts (as last seen): no use trying to own it. */
bool rs_cluster_leased_elsewhere(rs_server *srv, const rs_table *t);

/* The game `id`: held here, or (on a cluster) held by another server and read from the store;
 * NULL when there is no such game. */
rs_table *rs_cluster_table(rs_server *srv, int64_t id);
/* The game a client's message names in "game", as rs_cluster_table finds it; NULL with e set
 * (bad-message, or not-found) when there is none. */
rs_table *rs_cluster_table_named(rs_server *srv, const struct cJSON *msg, rs_err *e);

/* An AI search's result that found the game's row held by another server: kept to be
 * applied a moment later (rs_cluster_take_ai), not thrown away. */
void rs_cluster_keep_ai(rs_server *srv, const rs_ai_result *result);
/* The next kept AI result once due; false when none. */
bool rs_cluster_take_ai(rs_server *srv, rs_ai_result *out);
/* A chat line `said` (the message every watcher gets) for the other servers' watchers. */
void rs_cluster_note_chat(rs_server *srv, int64_t game, const char *said);
/* A rematch created of `game` on this server: the other servers learn it (so nobody creates a
 * second one) and send their watchers of the old game the `notice`. */
void rs_cluster_note_rematch(rs_server *srv, int64_t game, int64_t rematch,
                             const struct cJSON *notice);
/* Tokens revoked on this server, for the other servers' connections (on_line): the token
 * `hash` (a logout: `one` true), or every token of `user` but `keep` (a password change:
 * `one` false, keep NULL for none). */
void rs_cluster_note_revoked(rs_server *srv, int64_t user, const uint8_t *hash, bool one);
/* A message (its text) for every connection of `user` on the other servers, delivered with
 * the commit ("Play now"'s paired); this server's own connections are the caller's. */
void rs_cluster_note_user(rs_server *srv, int64_t user, const char *text);
/* `user`'s first connection to this server was identified (here), or their last one closed:
 * told to the store, for claims on other servers. */
void rs_cluster_user_here(rs_server *srv, int64_t user, bool here);
/* True when some connection is identified as user, on this server or (on a cluster) on
 * another live one. */
bool rs_cluster_user_online(rs_server *srv, int64_t user);
/* Before the commit: announce the games changed in this iteration and its chat lines, and
 * store which seats this server's connections watch where that changed. */
void rs_cluster_announce(rs_server *srv);
/* After the commit, or its failure: the announcements are spent. */
void rs_cluster_clear(rs_server *srv);
/* Read what the servers announced and catch up the games it names; tokens revoked elsewhere
 * are logged out here through hooks. */
void rs_cluster_listen(rs_server *srv, const rs_cluster_hooks *hooks);
/* Once a second: renew this server's leases and its sign of life, and read who is connected
 * elsewhere again when a server started or died. */
void rs_cluster_tick(rs_server *srv);
/* Keep a message of conn for the next turn; true when kept. */
bool rs_cluster_defer(rs_server *srv, uint64_t conn, const char *data, size_t len);
/* Whether conn has messages kept (its next ones wait behind them). */
bool rs_cluster_deferring(const rs_server *srv, uint64_t conn);
/* Handle the kept messages again, in order (hooks->receive). */
void rs_cluster_retry(rs_server *srv, const rs_cluster_hooks *hooks);
/* Game t (held, or read at the start and not yet held) out of memory, its summary kept for
 * the lobby. */
void rs_cluster_unload(rs_server *srv, rs_table *t);
/* At the stop: leases given up, so another server takes them at once. */
void rs_cluster_release(rs_server *srv);
void rs_cluster_free(rs_server *srv);

#endif
