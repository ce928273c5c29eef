/* tournaments.h — the `tournament` message (docs/server-protocol.md, "Tournaments"): create
 * (registered players), join, withdraw, list and standings, everything kept in the store
 * (so a restart or another server of a cluster finds it); and the same read-only for the
 * HTTP API. Layer 3 of layers.h, under session.c (its command table) and api.c; calls
 * tournament.c (the rules), pools.c (a clock as JSON), the core and the layers below. */
#ifndef RS_TOURNAMENTS_H
#define RS_TOURNAMENTS_H

#include "server_internal.h"

/* The handler of `tournament` (rs_command's signature), op create, join, withdraw, list or
 * standings. */
int rs_tournaments_handle(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* Once a second on every server: in each running tournament, the ends of its games recorded
 * (a set's next game opened), the next round paired when the last has ended, the tournament
 * over after its last; the store decides which server does each, once. */
void rs_tournaments_sweep(rs_server *srv);
/* The rate cost of a `tournament`: 5 to create one, 2 to join, 1 else. */
int rs_tournaments_cost(const struct cJSON *msg);
/* {"tournaments":[…]}: the newest 50, for GET /api/v1/tournaments; NULL when the store fails. */
struct cJSON *rs_tournaments_list_json(rs_server *srv);
/* One tournament with its entries, pairings and standings, for GET /api/v1/tournaments/ID;
 * NULL with *found false when there is none, NULL with *found true when the store fails. */
struct cJSON *rs_tournaments_one_json(rs_server *srv, int64_t id, bool *found);
/* A profile's tournaments: the newest 20 that `user` entered and that have started, each with
 * the place the standings (computed from the stored results) give them; [] when the store
 * fails. */
struct cJSON *rs_tournaments_played_json(rs_server *srv, int64_t user);

#endif
