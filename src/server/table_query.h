/* table_query.h — an online game's table as the referee keeps it (table.c changes it,
 * table_view.c tells viewers of it), and what anyone may ask of it without changing it (who
 * sits where, whose turn it is, whether a seat is connected or a takeback possible): the
 * bottom of the tables, which includes neither the referee nor the messages. */
#ifndef RS_TABLE_QUERY_H
#define RS_TABLE_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "ramparts/engine.h"
#include "store.h"

#define RS_VIEWER_NONE (-3) /* a connection not watching */

typedef struct rs_watcher {
    uint64_t conn;
    int64_t user;
    int viewer;   /* a seat or RP_SPECTATOR */
    bool joining; /* counted as connected to its seat, sent nothing until its snapshot */
} rs_watcher;

/* What the server adds to each move of the match's history: the version it took and when. */
typedef struct rs_move_meta {
    int64_t v;
    int64_t at_ms;
} rs_move_meta;

#define RS_MUTES_MAX 16 /* authors muted in one game, by all its players together */
enum { RS_CHAT_UNREAD = 0, RS_CHAT_ON, RS_CHAT_OFF };

/* A player (`by`, a user id) muted an author (by name) in one game. */
typedef struct rs_mute {
    int64_t by;
    char name[RS_NAME_MAX + 1];
} rs_mute;

typedef struct rs_table {
    rs_game_row row; /* what is stored: settings, status, seats, version, clocks */
    rs_seat_row stored_seat[RP_MAX_PLAYERS]; /* the seat rows as last written or read */
    const rp_game *game;
    rp_config config; /* resolved options, with the secret seed once started */
    /* Once started, the game as the engine's facade keeps it (src/engine): the options in
     * effect, who plays each seat, the history, whose entries are the moves played (a
     * takeback truncates it), so entry i is ply i, then how it ended; its result and every
     * view of it. NULL before the start (and for a game aborted before it). */
    rp_match *match;
    rs_move_meta *meta; /* meta[i]: ply i's version and time */
    size_t cap_meta;
    rs_clock clock;
    char names[RP_MAX_PLAYERS][RS_NAME_MAX + 1]; /* users in human seats */
    int connections[RP_MAX_PLAYERS];             /* of each seat's user, watching */
    int64_t gone_since_us[RP_MAX_PLAYERS];       /* when a seat's last connection left */
    uint32_t draw_offers;                        /* seats offering a draw */
    int takeback_by;                             /* the seat asking, or -1 */
    uint32_t takeback_consent;                   /* seats that agreed to it */
    char seed_commitment[65];
    rs_watcher *watchers;
    size_t num_watchers, cap_watchers;
    int64_t ai_ply;      /* the ply an AI job is working on, or -1 */
    int64_t ai_since_us; /* when it was queued */
    int64_t rematch_id;  /* the rematch created from this game, or 0 */
    bool dirty;          /* changed since the last commit */
    bool locked;         /* its row is locked by this iteration's transaction (cluster.c) */
    int64_t lease_token; /* the fencing token of this server's lease on it, or 0 */
    int64_t leased_elsewhere_until_us; /* another server's lease on it lasts until then */
    int64_t announced_v;               /* the newest version another server announced (cluster.c) */
    int64_t kept_since_us;             /* loaded, created, or last found kept by someone (expiry) */
    uint32_t remote_seats;             /* seats whose users watch it on another live server */
    int64_t published_user[RP_MAX_PLAYERS]; /* the users this server told the store watch it */
    /* The creator's address key (rs_addr_holder), for the limits on games against the
     * computer; not stored: "" once reloaded. */
    char creator_holder[64];
    /* The creator's rating for this game when created, for the lobby's order; not stored: 0
     * once reloaded (the default is used). */
    double creator_rating;
    /* Chat (issue 49, finding 7): the game's switch as last read or set (RS_CHAT_UNREAD,
     * RS_CHAT_ON, RS_CHAT_OFF; stored as the chat's switch channel), and the authors each
     * player muted here (kept in memory by the server holding the game, not stored). */
    int chat_switch;
    rs_mute mutes[RS_MUTES_MAX];
    int num_mutes;
} rs_table;

/* ---- queries (table_query.c) ---- */
/* Games where a draw can be offered (their rules can end drawn: RP_CAN_DRAW). */
bool rs_game_can_draw(const rp_game *game);

/* The moves played (the ply); 0 before the start. */
static inline size_t rs_table_ply(const rs_table *t)
{
    return t->match ? rp_match_moves(t->match) : 0;
}

/* The seat `user` sits in, or -1. */
int rs_table_seat_of(const rs_table *t, int64_t user);
/* True when no seat is an AI. */
bool rs_table_all_human(const rs_table *t);
/* True when `seat` could be granted a takeback now: an unrated live game, a move of its own to
 * take back, and nothing hidden revealed since (what rs_table_takeback would refuse). */
bool rs_table_can_take_back(const rs_table *t, int seat);
/* The seat to act, or -1 when none (not started, over). */
int rs_table_to_move(const rs_table *t);
/* Set the name shown for a user (after a guest registers). */
void rs_table_rename(rs_table *t, int64_t user, const char *name);

/* Whether a seat counts as connected: its user watches the game here or on another server. */
bool rs_table_seat_connected(const rs_table *t, int seat);
/* Whether t is a game nobody has come back to for after_ms (docs/server.md, "Games nobody
 * comes back to"): an open game, or a live game against the AI without a correspondence
 * clock, none of whose seated people has watched it (on any server) for that long, nor since
 * it was loaded or last found kept. For an open game the caller checks further that neither
 * they nor its creator is connected at all. */
bool rs_table_expirable(const rs_table *t, int64_t now_us, int64_t after_ms);
/* "open", "live", "over", "aborted". */
const char *rs_status_word(rs_game_status status);

#endif
