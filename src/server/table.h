/* table.h — the referee of one online game: seats, version, clocks, history, offers and the
 * result, through the engine's public API only. It never holds a `struct lws *`: it emits
 * per-viewer messages addressed by connection id into an outbox, and writes its history to
 * the store inside the caller's transaction. Every message a viewer gets is built from
 * scratch for that viewer (rs_table_message): the view is the game's view_json for that seat
 * or the spectator, the events are events_json for that viewer, legal moves go only to the
 * seat to act, a move's notation only to its player; the seed and the full state never
 * leave. */
#ifndef RS_TABLE_H
#define RS_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "outbox.h"
#include "table_query.h"

struct cJSON;

/* An error for a client: a stable code word and a sentence. */
typedef struct rs_err {
    const char *code;
    char text[RP_ERROR_TEXT];
} rs_err;

/* Fill e and return -1, for "return rs_fail(...)". */
int rs_fail(rs_err *e, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* What the referee needs from around it for one operation. */
typedef struct rs_ctx {
    rs_store *store;
    rs_outbox *out;
    int64_t now_us;   /* monotonic */
    int64_t now_ms;   /* wall clock, for stored stamps */
    int64_t grace_ms; /* disconnect time before a claim */
    bool shared;      /* other servers share the store: loading a game writes nothing */
} rs_ctx;

/* The settings of a new game, checked by the server before rs_table_create. */
typedef struct rs_table_settings {
    const rp_game *game;
    rp_config config; /* players and options; the seed is drawn at the start */
    bool rated;
    rs_clock_kind clock_kind;
    int64_t initial_ms, increment_ms, per_move_ms;
    rs_seat_row seats[RP_MAX_PLAYERS];
    int64_t creator;
    int64_t rematch_of;
} rs_table_settings;

/* A new game, inserted into the store. Starts at once when no seat is left to fill. */
rs_table *rs_table_create(rs_ctx *ctx, const rs_table_settings *s, rs_err *e);
/* A game read back from the store (after a restart, or a finished game reopened): its
 * position is replayed from the seed and the stored moves, its clock resumed charging at most
 * up to `alive_ms` (the server's last sign of life). */
rs_table *rs_table_load(rs_ctx *ctx, int64_t id, int64_t alive_ms, rs_err *e);
void rs_table_free(rs_table *t);
/* Write t's row as it stands, its clock charged up to now (after a load on a cluster). */
void rs_table_save(rs_ctx *ctx, rs_table *t);
/* Catching up with another server's commits (docs/cluster.md): the moves it stored since t's
 * version, played in order, each told to every watcher as one `update` built for that viewer
 * (as if played here); then the stored row (clocks, version). Refused, changing nothing, when
 * the versions between are not exactly these moves (a join, a resignation, the end of the
 * game, a takeback...): the caller then reads the whole game again. */
int rs_table_catch_up(rs_ctx *ctx, rs_table *t, const rs_game_row *row, const rs_move_row *moves,
                      size_t n, rs_err *e);

/* ---- lobby: seats before the start ---- */
/* `conn`, the connection asking, counts as connected to the seat from the join on (its
 * snapshot follows with rs_table_watch, which the caller must send). */
int rs_table_join(rs_ctx *ctx, rs_table *t, int64_t user, const char *name, uint64_t conn, int seat,
                  const char *invite, int *seat_out, rs_err *e);
int rs_table_leave(rs_ctx *ctx, rs_table *t, int64_t user, rs_err *e);

/* ---- play ---- */
/* A move by notation from `seat`, answering ply. *duplicate is set (and nothing changes)
 * when that seat already played exactly that move at that ply. */
int rs_table_move(rs_ctx *ctx, rs_table *t, int seat, int64_t ply, const char *move,
                  bool *duplicate, rs_err *e);
/* An AI's move (an action id) for the ply its job was given; refused if stale. */
int rs_table_ai_move(rs_ctx *ctx, rs_table *t, int seat, int64_t ply, rp_action action, rs_err *e);
int rs_table_resign(rs_ctx *ctx, rs_table *t, int seat, rs_err *e);
/* op: "offer", "accept" or "decline". */
int rs_table_draw(rs_ctx *ctx, rs_table *t, int seat, const char *op, rs_err *e);
int rs_table_takeback(rs_ctx *ctx, rs_table *t, int seat, const char *op, rs_err *e);
/* Win against seats gone longer than the grace period: not watching the game for that long,
 * and not among `online` (a mask of the seats whose users have a connection to the server). */
int rs_table_claim(rs_ctx *ctx, rs_table *t, int seat, uint32_t online, rs_err *e);
/* The user's last connection closed: their seats not watched count as gone from now. */
void rs_table_user_gone(rs_ctx *ctx, rs_table *t, int64_t user);
/* Flag a seat out of time, if any. Returns true when the game ended. */
bool rs_table_check_time(rs_ctx *ctx, rs_table *t);
/* When the clock must be checked next (monotonic us), or RS_CLOCK_NEVER. */
int64_t rs_table_deadline_us(const rs_table *t);

/* On a cluster, the offers are kept in the store with the version they belong to, so that
 * another server reading the game back sees them (a move, which raises the version, ends
 * them). Restores them when they belong to the version read. */
void rs_table_offers_load(rs_ctx *ctx, rs_table *t);

/* End it: an open game is aborted (reason "expired"); a game against the AI ends with its
 * people losing, as abandoned (never rated: games with an AI are not). */
void rs_table_expire(rs_ctx *ctx, rs_table *t, int64_t after_ms);

/* ---- viewers ---- */
/* Start sending conn this game as `user` sees it (their seat, else the spectator); sends a
 * snapshot (echoing request_id when not NULL, and taking over chat), with the events missed
 * since version `since` when since >= 0. */
int rs_table_watch(rs_ctx *ctx, rs_table *t, uint64_t conn, int64_t user, int64_t since,
                   struct cJSON *chat, const struct cJSON *request_id, rs_err *e);
/* Stop sending conn this game; false when it was not watching. */
bool rs_table_unwatch(rs_ctx *ctx, rs_table *t, uint64_t conn);
/* A fresh snapshot for one watching connection (after its queue overflowed, or the game was
 * read again), with the moves missed since version `since` when since >= 0. */
void rs_table_resend(rs_ctx *ctx, rs_table *t, uint64_t conn, int64_t since);
/* Send msg (not freed) to every watcher. */
void rs_table_broadcast(rs_ctx *ctx, rs_table *t, const struct cJSON *msg);
/* A chat line (`text`, the printed `chat` message by `from`) to the watchers of its channel
 * who did not mute its author (issue 49, finding 7): a players' line to the seats, a
 * spectators' line to the spectators; neither reads the other's. */
void rs_table_send_chat(rs_ctx *ctx, rs_table *t, const char *text, bool players, const char *from);
/* A chat line or chat-switch notice said on another server of a cluster (the message as
 * printed there), for this server's watchers of t: a line to its channel, a switch to all. */
void rs_table_chat_said(rs_ctx *ctx, rs_table *t, const char *said);
/* Whether user `by` muted the author `name` in t. */
bool rs_table_muted(const rs_table *t, int64_t by, const char *name);

#endif
