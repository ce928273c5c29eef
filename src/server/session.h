/* session.h — the handlers of the client messages (session.c): the command table the
 * dispatch reads, the AI levels a seat may have, and the worker results and lobby pushes the
 * loop hands back to them. Layer 3 of layers.h: called by the loop (loop.c) and the HTTP API
 * (api.c, for the AI levels); calls the cluster (cluster.h) and the layers below it. */
#ifndef RS_SESSION_H
#define RS_SESSION_H

#include "fields.h" /* rs_ai_levels */
#include "server_internal.h"

/* A client message type: its handler, whether it needs an identity, and its rate cost. */
typedef struct rs_command {
    const char *name;
    int (*handler)(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
    bool needs_user;
    int cost;
    int (*cost_of)(const struct cJSON *msg); /* NULL: cost; else the cost of this message */
} rs_command;
extern const rs_command rs_commands[]; /* session.c; ends with a NULL name */

void rs_session_auth_result(rs_server *srv, const rs_job *job);
/* A hint computed on an AI thread, answered to the connection that asked (if still there). */
void rs_session_hint_result(rs_server *srv, const rs_job *job);
/* A review made (RS_JOB_REVIEW): stored when the game is over, answered to who asked. */
void rs_session_review_result(rs_server *srv, const rs_job *job);
/* Log out (each told with a logged-out) this server's connections but `except` that said hello
 * with the token `hash` (revoked); the count. */
int rs_session_revoke_token(rs_server *srv, const uint8_t hash[RS_TOKEN_HASH],
                            const rs_conn *except);
/* Log out this server's connections but `except` of `user`, but those with the token `keep`
 * (NULL: none kept), as a password change does; the count. */
int rs_session_revoke_user(rs_server *srv, int64_t user, const uint8_t *keep,
                           const rs_conn *except);
/* A connection of `user` closed or logged out: if it was their last here (and, on a cluster,
 * the store is told), the seats they do not watch count as gone from now (the grace period
 * before a claim starts again). */
void rs_session_user_left(rs_server *srv, int64_t user);

#endif
