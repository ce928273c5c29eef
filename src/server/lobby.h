/* lobby.h — the lobby (the `lobby` message, docs/server-protocol.md): the games waiting for
 * players and the games being played, a page of each, the viewer's own games first and the
 * open ones ranked so that no creator fills the page; answered on request and pushed to the
 * connections watching it. Layer 3 of layers.h, beside mine.c: under session.c (whose command
 * table names rs_lobby_handle) and the loop (which pushes); calls the layers below. */
#ifndef RS_LOBBY_H
#define RS_LOBBY_H

#include "server_internal.h"

/* The `lobby` request: {"t":"lobby","watch":bool?,"open_after":CURSOR?,"live_after":CURSOR?}
 * (watch, default true: reply `lobby` with the pages the cursors name and push the first
 * pages on every change; false: stop, reply `done`). */
int rs_lobby_handle(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* The first pages to every connection watching the lobby, each with its own games first. */
void rs_lobby_push(rs_server *srv);

#endif
