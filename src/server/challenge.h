/* challenge.h — challenges to a named player and the settings that refuse them (the
 * `challenge` and `settings` messages, docs/server-protocol.md): sent, seen, accepted (a game
 * created with both seated), declined, cancelled or expired; stored, and on a cluster heard by
 * every server. Layer 3 of layers.h, under session.c (its command table) and mine.c (which
 * lists them); calls the cluster, the core and the layers below. */
#ifndef RS_CHALLENGE_H
#define RS_CHALLENGE_H

#include "server_internal.h"

/* {"received":[…],"sent":[…]}: the pending challenges of c's user, oldest first. */
struct cJSON *rs_challenge_mine_json(rs_server *srv, const rs_conn *c);
/* The same printed (malloc'ed), for the signature of "my games". */
char *rs_challenge_mine_text(rs_server *srv, const rs_conn *c);
/* Whether c's user accepts challenges (their setting, read once per identity). */
bool rs_challenge_allowed(rs_server *srv, rs_conn *c);

#endif
