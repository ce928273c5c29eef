/* chat.h — a game's chat (docs/server-protocol.md, "chat", "mute", "chat-switch"): the
 * players' lines apart from the spectators', each player's mutes, the game's switch. Layer 3
 * of layers.h, beside session.c, whose command table names these handlers and whose watch
 * sends rs_chat_history; calls the cluster (cluster.h) and the layers below. */
#ifndef RS_CHAT_H
#define RS_CHAT_H

#include "server_internal.h"

/* {"t":"chat","game":ID,"text":...}: a line to the sender's channel (the players' for a
 * seated sender, else the spectators'). */
int rs_chat_handle(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* {"t":"mute","game":ID,"name":NAME,"mute":bool?} by a player of the game. */
int rs_chat_mute_handle(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* {"t":"chat-switch","game":ID,"on":bool} by a player of the game. */
int rs_chat_switch_handle(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
/* The last lines `user` may read in t (their channel's, less the authors they muted), for a
 * snapshot; reads the game's switch if not yet read. */
struct cJSON *rs_chat_history(rs_server *srv, rs_table *t, int64_t user);

#endif
