/* challenge.h — challenges to a named player and the settings that refuse them (the
 * `challenge` and `settings` messages, docs/server-protocol.md): sent, seen, accepted (a game
 * created with both seated), declined, cancelled or expired; stored, and on a cluster heard by
 * every server. Layer 3 of layers.h, under session.c (its command table), mine.c (which
 * lists them) and loop.c (the sweep); calls pools.c (a started game, a message to a user on
 * every server), the core and the layers below. */
#ifndef RS_CHALLENGE_H
#define RS_CHALLENGE_H

#include "server_internal.h"

/* The handlers of `challenge` (op send, accept, decline, cancel) and `settings`
 * (rs_command's signature). */
int rs_challenge_handle(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
int rs_challenge_settings(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* The rate cost of a `challenge`: 3 to send one, 1 to answer or cancel. */
int rs_challenge_cost(const struct cJSON *msg);
/* The challenges past their expiry ended (`challenge-gone`, why expired): once a second, on
 * every server; the store decides which ends each. */
void rs_challenge_sweep(rs_server *srv);
/* {"received":[…],"sent":[…]}: the pending challenges of c's user, oldest first. */
struct cJSON *rs_challenge_mine_json(rs_server *srv, const rs_conn *c);
/* The same printed (malloc'ed), for the signature of "my games". */
char *rs_challenge_mine_text(rs_server *srv, const rs_conn *c);
/* Whether c's user accepts challenges (their setting, read once per identity). */
bool rs_challenge_allowed(rs_server *srv, rs_conn *c);

#endif
