/* table_view.h — the messages about a game (table_view.c), each built from scratch for one
 * viewer: snapshots and updates, the public summary, a finished game's replay, a move as told
 * to a viewer, who is connected. The referee (table.c), the sessions and the HTTP API use
 * them; they only read the table (table_query.h), and the match only through its views. */
#ifndef RS_TABLE_VIEW_H
#define RS_TABLE_VIEW_H

#include "table_query.h"

struct cJSON;

/* The public summary of a game for the lobby and the HTTP API (no view, no seed). */
struct cJSON *rs_table_summary(const rs_table *t, int64_t now_us);
/* The invitation codes of the seats still waiting for them, as {"2": "code"}: for the
 * creator only. */
struct cJSON *rs_table_invites_json(const rs_table *t);
/* The options in effect as {"players": 2, "turn-limit": 25, ...} (never the seed). */
struct cJSON *rs_table_options_json(const rs_table *t);
/* The message for `viewer` (a seat, RP_SPECTATOR) of type "snapshot" or "update". */
struct cJSON *rs_table_message(const rs_table *t, int viewer, const char *type, int64_t now_us);

/* A finished game move by move as `viewer` (a seat or RP_SPECTATOR) was shown it: its summary
 * plus "frames", one per ply from the start, each with that viewer's view and the events of the
 * move that led there. Only for games that are over: while a game is live nobody gets more than
 * their own stream of updates. */
struct cJSON *rs_table_replay_json(const rs_table *t, int viewer, int64_t now_us);
/* Frames `from` .. `from + count - 1` (at most up to the current ply) of that replay as an
 * array. Also for a live game, but only ever for the asker's own viewer (`history`): each
 * frame is what that viewer was shown at the time, so stepping back reveals nothing new. */
struct cJSON *rs_table_frames_json(const rs_table *t, int viewer, size_t from, size_t count);

/* For the referee: the move at `ply` as `viewer` may know it; and who is connected, as a
 * "presence" message. */
struct cJSON *rs_table_move_cause(const rs_table *t, int viewer, int64_t ply);
struct cJSON *rs_table_presence(const rs_table *t, int64_t now_us);

#endif
