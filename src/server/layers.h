/* layers.h — the server's files in layers, top to bottom. A file may call, include or use the
 * types of the layers below it, never one above, so no two files depend on each other,
 * directly or round a ring. Where a lower layer must have something done
 * above it, the caller hands it callbacks (cluster.h: rs_cluster_hooks). Each layer's own
 * header names its place here; this file declares nothing and is included by none.
 *
 *   1  net.c       (net.h)      sockets, HTTP and the WebSocket (libwebsockets): frames,
 *                               limits, queues, the timer; drives the core through loop.h
 *                               and api.h. src/cli starts it.
 *   2  loop.c      (loop.h)     the core's entry points: start and stop, connections, one
 *                               turn of the loop (dispatch through session.h's command table,
 *                               worker results, timers, the group commit); passes the
 *                               cluster its hooks
 *      api.c       (api.h)      HTTP: /healthz, the JSON API, the embedded client (beside
 *                               loop.c: neither calls the other)
 *   3  session.c   (session.h)  the commands: identity, the lobby, watching, play
 *      mine.c      (mine.h)     "My games": the list, pushed at the loop's flush (above
 *                               pools.c and challenge.c, whose lists it shows)
 *      chat.c      (chat.h)     a game's chat: the players' and spectators' channels,
 *                               mutes, the switch (under session.c; calls cluster.c and
 *                               below)
 *      lobby.c     (lobby.h)    the lobby: pages of open and live games, ranked for each
 *                               viewer, answered and pushed at the loop's flush (calls
 *                               only the layers below)
 *      challenge.c (challenge.h) challenges to a named player and the setting that refuses
 *                               them (under session.c, mine.c and loop.c's sweep; above
 *                               pools.c, whose started game and message to a user on every
 *                               server it uses)
 *      tournaments.c (tournaments.h) tournaments: create, join, withdraw, start, list,
 *                               standings, the director (under session.c, which lists its
 *                               handler, api.c and loop.c's sweep; calls pools.c for started
 *                               games and messages to users, and tournament.c, the rules)
 *      pools.c     (pools.h)    "Play now": seek, unseek, the pairing, paired (under
 *                               session.c, which lists its handlers, and challenge.c; it
 *                               calls neither)
 *   4  cluster.c   (cluster.h)  several servers on one database: row locks, catching up,
 *                               announcements, leases, requests kept for a row
 *   5  server.c    (server.h, server_internal.h)
 *                               the core: the registry of connections and games, time,
 *                               replies, AI jobs; the server's state, cluster.c's included
 *   6  fields.c    (fields.h)   a client message's fields read; knows no server (rs_err is
 *                               table.h's)
 *   7  table.c, table_view.c, table_query.c (table.h, table_view.h, table_query.h)
 *                               the referee of one game (rs_ctx: the store, the outbox, time)
 *      workers.c   (workers.h)  AI and hashing threads, each a pool (beside the referee)
 *   8  store.c     (store.h)    the storage interface: opens a backend, dispatches to it
 *      store_read.c (store_read.h)  the read models, built from the backends' rows
 *      store_sqlite.c, store_pg.c (store_sqlite.h, store_pg.h)   the two databases, each
 *                               filling the table of operations (store_backend.h)
 *      store_rows.c (store_rows.h)  the rows all of them speak in, and helpers on rows
 *      store_faults.c (store_faults.h)  test builds: an SQLite VFS whose writes fail
 *   9  leaves, calling none of the above: outbox.c, idmap.c, grow.c, log.c, text.c, clock.c,
 *      auth.c, glicko2.c, pool.c (the pairing rule), forwarded.c (net.c's), frame_guard.c
 *      (net.c's), ratelimit.c (net.c's HTTP budgets; session.c's failed logins and new
 *      guests), assets.h, tournament.c (the tournaments' rules: pairings, standings),
 *      matching.c (tournament.c's maximum matching)
 */
#ifndef RS_LAYERS_H
#define RS_LAYERS_H
#endif
