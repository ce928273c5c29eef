/* store_read.h — the read models of the HTTP API and of a game's chat (store_read.c): JSON
 * built once from the plain rows either database fetches. */
#ifndef RS_STORE_READ_H
#define RS_STORE_READ_H

#include "store_rows.h"

struct cJSON;

/* The last `limit` lines of one channel as [{"from": name, "at": ms, "text": ...}], oldest
 * first. */
struct cJSON *rs_store_chat_json(rs_store *st, int64_t game, rs_chat_channel channel, int limit);

/* Finished games, newest first, at most `limit`, ids below `before` (0: from the newest),
 * only those `user` sat in when user > 0: [{"id","game","rated","ended_ms","reason",
 * "result","seats":[{"seat","name","kind","level","score"}]}]. */
struct cJSON *rs_store_finished_json(rs_store *st, int64_t user, int limit, int64_t before);
/* A player's ratings per game, rating history and results against each AI level. */
struct cJSON *rs_store_profile_json(rs_store *st, const rs_user *user);

#endif
