/* store_rows.h — the store's rows as plain data (users, games with their seats, moves,
 * ratings, leases, presence), its return codes, and the few helpers on rows both databases
 * share (store_rows.c): what the storage interface (store.h) and its backends
 * (store_backend.h) speak in, below both. */
#ifndef RS_STORE_ROWS_H
#define RS_STORE_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "auth.h"
#include "ramparts/game.h"

typedef struct rs_store rs_store;

enum {
    RS_STORE_OK = 0,
    RS_STORE_NOTFOUND = -100,
    RS_STORE_CONFLICT = -101, /* a unique name already taken */
    RS_STORE_ERROR = -102,    /* the database failed: see rs_store_error */
    RS_STORE_BUSY = -103,     /* another server holds the row: try again in a moment */
    RS_STORE_UNKNOWN = -104   /* a commit sent, and no answer came: it may have happened */
};

typedef struct rs_user {
    int64_t id;
    char name[RS_NAME_MAX + 1];
    bool guest;
    char pwhash[RS_PWHASH_TEXT]; /* empty for guests */
    int64_t created_ms;
} rs_user;

typedef enum rs_game_status {
    RS_GAME_OPEN,   /* waiting for players */
    RS_GAME_LIVE,   /* being played */
    RS_GAME_OVER,   /* finished, with a result and a record */
    RS_GAME_ABORTED /* ended before it started */
} rs_game_status;

typedef enum rs_seat_kind {
    RS_SEAT_OPEN,     /* anyone may take it */
    RS_SEAT_INVITE,   /* whoever has the invitation code */
    RS_SEAT_RESERVED, /* kept for one user (a rematch) */
    RS_SEAT_AI,       /* a computer player of a level */
    RS_SEAT_HUMAN     /* taken by a user */
} rs_seat_kind;

#define RS_AI_LEVEL_TEXT 16
#define RS_GAME_ID_TEXT 48
#define RS_OPTIONS_TEXT 768
#define RS_REASON_TEXT 16
#define RS_RESULT_TEXT 160

/* A game's chat has channels apart (issue 49, finding 7): the players' lines, the
 * spectators' lines, and the game's chat switch (each line "on" or "off", by a player: the
 * last one holds). */
typedef enum rs_chat_channel {
    RS_CHAT_PLAYERS = 0,
    RS_CHAT_SPECTATORS = 1,
    RS_CHAT_SWITCH = 2
} rs_chat_channel;

typedef struct rs_seat_row {
    rs_seat_kind kind;
    int64_t user_id;                 /* HUMAN, RESERVED */
    char ai_level[RS_AI_LEVEL_TEXT]; /* AI */
    char invite[RS_INVITE_TEXT];     /* INVITE */
    double score;                    /* share of the win once over, else -1 */
} rs_seat_row;

typedef struct rs_game_row {
    int64_t id;
    char game[RS_GAME_ID_TEXT];    /* the game's id, e.g. "castle-danger" */
    char options[RS_OPTIONS_TEXT]; /* options in effect, without the seed */
    uint64_t seed;                 /* secret while the game is not over */
    rs_game_status status;
    bool rated;
    int clock_kind;
    int64_t initial_ms, increment_ms, per_move_ms;
    int seats;
    rs_seat_row seat[RP_MAX_PLAYERS];
    int64_t v; /* the game's version: one per versioned event */
    int64_t remaining_ms[RP_MAX_PLAYERS];
    int running;          /* the seat whose clock runs, or -1 */
    int64_t turn_wall_ms; /* wall time of that clock's last stamp */
    int64_t created_ms, started_ms, ended_ms;
    int64_t creator, rematch_of;
    char end_reason[RS_REASON_TEXT];
    char result_text[RS_RESULT_TEXT];
} rs_game_row;

typedef struct rs_move_row {
    int64_t ply;
    int seat;
    uint32_t action;
    int64_t v;
    int64_t at_ms;
} rs_move_row;

typedef struct rs_rating_row {
    double rating, rd, vol;
    int64_t games;
} rs_rating_row;

#define RS_NODE_TEXT 64

/* A game's row as rs_store_game_lock found it: its version and its lease. */
typedef struct rs_game_lock {
    int64_t v;
    char owner[RS_NODE_TEXT]; /* the server holding the game's lease, "" for none */
    int64_t token;            /* the lease's fencing token: raised at every take-over */
    bool expired;             /* the lease has run out (by the database's clock) */
    int64_t left_ms;          /* until it runs out (negative once it has) */
} rs_game_lock;

/* A game that needs a lease holder and has none (rs_store_games_unleased). */
typedef struct rs_unleased_row {
    int64_t id;
    /* Free for longer than a lease (or never taken, and older than one): the servers that
     * hold the game had their chance to take it first. */
    bool stale;
} rs_unleased_row;
/* A "Play now" seek (pools.c): who waits in which pool, since when, at what rating. */
#define RS_POOL_KEY_TEXT 96
#define RS_SEEK_LINKS 16
typedef struct rs_seek_row {
    int64_t id, user;
    char pool[RS_POOL_KEY_TEXT]; /* type, players, clock and rated as one key */
    char game[RS_GAME_ID_TEXT];
    int players;
    int clock_kind;
    int64_t initial_ms, increment_ms, per_move_ms;
    bool rated;
    int64_t since_ms;
    double rating;
    int64_t linked[RS_SEEK_LINKS]; /* users linked to `user` when it sought */
    int num_linked;
    char node[RS_NODE_TEXT]; /* the server it was made on ("" on SQLite) */
} rs_seek_row;

/* A challenge to a named player (challenge.c): pending until accepted, declined, cancelled or
 * expired. The names are read with it (the users' rows), never written. */
#define RS_CHALLENGE_OPTIONS_TEXT 512
typedef struct rs_challenge_row {
    int64_t id, from, to;
    char from_name[RS_NAME_MAX + 1], to_name[RS_NAME_MAX + 1];
    char game[RS_GAME_ID_TEXT];
    char options[RS_CHALLENGE_OPTIONS_TEXT]; /* the options object as JSON text, checked */
    int clock_kind;
    int64_t initial_ms, increment_ms, per_move_ms;
    bool rated;
    int seat; /* the challenger's seat, -1: drawn when accepted */
    int64_t created_ms, expires_ms;
} rs_challenge_row;

typedef struct rs_presence_row {
    int64_t game, user;
} rs_presence_row;
/* ---- tournaments (docs/tournaments.md) ---- */

#define RS_TOUR_NAME_TEXT 64
#define RS_TOUR_SEATS 5 /* players a pairing holds: tables of up to 5 */

typedef enum rs_tour_status {
    RS_TOUR_OPEN = 0,    /* taking entries */
    RS_TOUR_RUNNING = 1, /* rounds being paired and played */
    RS_TOUR_OVER = 2,
    RS_TOUR_CANCELLED = 3, /* its start time passed an hour ago with too few players */
} rs_tour_status;

/* A tournament: its rules (tournament.h's rs_tour_spec, flattened) and where it stands. */
typedef struct rs_tour_row {
    int64_t id, creator;
    char name[RS_TOUR_NAME_TEXT];
    char game[RS_GAME_ID_TEXT];
    char options[RS_OPTIONS_TEXT];
    int format; /* an rs_tour_format */
    int rounds, set_games, table_size, bye_points;
    int64_t duration_ms;
    bool rated;
    int clock_kind;
    int64_t initial_ms, increment_ms, per_move_ms;
    int status; /* an rs_tour_status */
    int round;  /* the last round paired, 0 before the first */
    int64_t created_ms, starts_ms;
    char computer[RS_AI_LEVEL_TEXT]; /* the AI level of the house player ("" none) */
} rs_tour_row;

/* A player entered. */
typedef struct rs_tour_entry_row {
    int64_t tour, user;
    char name[RS_NAME_MAX + 1]; /* read back with the entry */
    double rating;              /* the seed, at entry */
    bool active;                /* false: withdrawn */
    int64_t entered_ms;
} rs_tour_entry_row;

/* One pairing of a round (a set of games between the same players, or a bye: n == 1). */
typedef struct rs_tour_pairing_row {
    int64_t tour;
    int round, board;
    int n;
    int64_t user[RS_TOUR_SEATS]; /* in the seats of the set's first game */
    int points[RS_TOUR_SEATS];   /* half-points over the set so far; -1 before any result */
    int games_done;              /* of the set's games */
    int64_t game;                /* the game being played, 0 none */
} rs_tour_pairing_row;

/* Numbers as stored in one column, space-separated (a pairing's players and points, a
 * seek's linked users); parse returns how many it read, at most max. */
void rs_store_numbers_text(const int64_t *values, int n, char *out, size_t size);
int rs_store_numbers_parse(const char *text, int64_t *values, int max);

/* The key a name is unique in any case by: its first RS_NAME_MAX bytes in lower case. */
void rs_store_name_key(const char *name, char out[RS_NAME_MAX + 1]);
/* A game's remaining times as stored: one number a seat, space-separated. */
void rs_store_remaining_text(const rs_game_row *row, char *out, size_t size);
void rs_store_remaining_parse(const char *text, rs_game_row *row);
/* A seek's linked users as stored: ids space-separated. */
void rs_store_linked_text(const rs_seek_row *row, char *out, size_t size);
void rs_store_linked_parse(const char *text, rs_seek_row *row);

#endif
