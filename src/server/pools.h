/* pools.h — "Play now" (docs/server-protocol.md): the `seek` and `unseek` handlers, the
 * pairing that turns seeks into started games and tells each player `paired` on every server,
 * and the seeks dropped when their user leaves. Layer 3 of layers.h, under session.c (which
 * lists the handlers in its command table and calls the hooks below; nothing here calls
 * session.c); it calls the cluster, the core, the pairing rule (pool.h) and the store. */
#ifndef RS_POOLS_H
#define RS_POOLS_H

#include "server_internal.h"

/* A message to every connection of `user`: here now, on the other servers with the commit
 * (challenge.c's too). */
void rs_pools_tell_user(rs_server *srv, int64_t user, const struct cJSON *m);
/* A game created started with users[i] (s->config.players of them) in seat i, people all, of
 * s's game, options, clock and rating; added, touched and listed. NULL (logged) on failure. */
rs_table *rs_pools_start_game(rs_server *srv, rs_ctx *ctx, rs_table_settings *s,
                              const int64_t *users);
/* The same with s->seats as given (people and AI seats: a tournament's house player). */
rs_table *rs_pools_start_seated(rs_server *srv, rs_ctx *ctx, const rs_table_settings *s);
/* A clock as create takes it, from a row's kind and times (whole days for correspondence). */
struct cJSON *rs_pools_clock_json(int kind, int64_t initial_ms, int64_t increment_ms,
                                  int64_t per_move_ms);

/* The handlers of `seek` and `unseek` (rs_command's signature). */
int rs_pools_seek(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
int rs_pools_unseek(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* The user's seeks waiting, oldest first, each as `seeking` shows it (for `mine`'s "seeks");
 * an empty list when the store cannot be read. */
struct cJSON *rs_pools_seeks_json(rs_server *srv, int64_t user);
/* Pair what can be paired now, in every pool: after a seek, and once a second (the windows
 * widen with the wait). On a cluster every server runs it; the database decides. */
void rs_pools_pair(rs_server *srv);
/* `user`'s last connection here closed: their seeks go when they have none left anywhere. */
void rs_pools_user_left(rs_server *srv, int64_t user);
/* A guest's connection logged into an account: the two are never paired together. */
void rs_pools_link(rs_server *srv, int64_t guest, int64_t account);
/* At the start, inside its transaction: the seeks this server held before are dropped (their
 * connections are gone). */
void rs_pools_start(rs_server *srv);

#endif
