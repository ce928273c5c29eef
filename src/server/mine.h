/* mine.h — "my games" (the `mine` message, docs/server-protocol.md): every unfinished game a
 * user is seated in, the ones waiting for them first, with their challenges, seeks and
 * settings; answered on request and pushed again to the connections watching it whenever it
 * changes. Layer 3 of layers.h, under session.c (whose command table names rs_mine_handle)
 * and the loop (which pushes at the commit); calls challenge.c and the layers below. */
#ifndef RS_MINE_H
#define RS_MINE_H

#include "server_internal.h"

/* The `mine` request: {"t":"mine","watch":bool?} (default true: reply `mine` and push it on
 * every change; false: stop, reply `done`). */
int rs_mine_handle(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* At the iteration's end: when something may have changed (srv->mine_dirty), the connections
 * watching their games whose list did change are sent it again. */
void rs_mine_push(rs_server *srv);

#endif
