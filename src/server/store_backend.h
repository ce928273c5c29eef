/* store_backend.h — inside the store: the table of operations each database fills
 * (store_sqlite.c, store_pg.c) and store.c dispatches to, and the plain rows the read models
 * are built from (store_read.c). Callers never include it: they use store.h. It stands on
 * store_rows.h alone, so a backend depends on nothing of store.c's, which opens it. */
#ifndef RS_STORE_BACKEND_H
#define RS_STORE_BACKEND_H

#include "store_rows.h"

struct cJSON;

/* Every store begins with its table, as an sqlite3_file begins with its io methods: a
 * backend's own struct has an rs_store as its first member and casts back to itself. */
struct rs_store {
    const struct rs_store_ops *ops;
};

/* ---- the rows the read models are built from (store_read.c) ---- */

/* Each is handed to a visitor while the backend holds it: its text lives until the visitor
 * returns. */
typedef struct rs_chat_row {
    const char *from; /* the author's name */
    int64_t at_ms;
    const char *text;
} rs_chat_row;

typedef struct rs_finished_row {
    int64_t id;
    const char *game;
    bool rated;
    int64_t ended_ms;
    const char *reason;
    const char *result;
} rs_finished_row;

typedef struct rs_named_seat_row {
    int seat;
    int kind;         /* an rs_seat_kind */
    const char *name; /* the user's name for a human's seat, else NULL */
    const char *ai_level;
    double score;
} rs_named_seat_row;

typedef struct rs_game_rating_row {
    const char *game;
    rs_rating_row rating;
} rs_game_rating_row;

typedef struct rs_rating_history_row {
    const char *game;
    int64_t game_id, at_ms;
    double rating, rd;
} rs_rating_history_row;

typedef struct rs_vs_ai_row {
    const char *game, *level;
    int64_t won, lost, drawn;
} rs_vs_ai_row;

/* The sweep's test of a guest nothing refers to (rs_store_sweep_accounts), in both databases'
 * SQL: no token left (each expired, or revoked at a logout), no game seated in or created, no
 * chat line, seek, link, challenge, rating or setting. Deleting it loses nothing anyone could
 * reach (issue 49, finding 6). NOT IN over each table: one pass each, not one per guest. */
#define RS_UNUSED_GUEST                                                                            \
    "id NOT IN (SELECT user_id FROM tokens) AND id NOT IN (SELECT user_id FROM seats)"             \
    " AND id NOT IN (SELECT creator FROM games) AND id NOT IN (SELECT user_id FROM chat)"          \
    " AND id NOT IN (SELECT user_id FROM seeks) AND id NOT IN (SELECT guest_id FROM links)"        \
    " AND id NOT IN (SELECT account_id FROM links) AND id NOT IN (SELECT from_id FROM challenges)" \
    " AND id NOT IN (SELECT to_id FROM challenges) AND id NOT IN (SELECT user_id FROM ratings)"    \
    " AND id NOT IN (SELECT user_id FROM user_settings)"

/* ---- the operations ---- */

/* What only a database several servers share can do (docs/cluster.md): a backend without
 * it (SQLite, whose one server holds every game) leaves rs_store_ops.shared NULL, and store.c
 * answers every call below as one server alone would. Each is the store.h call of that
 * name. */
typedef struct rs_store_shared_ops {
    int (*game_lock)(rs_store *st, int64_t id, rs_game_lock *out);
    int (*game_version)(rs_store *st, int64_t id, int64_t *v);
    int (*lease_take)(rs_store *st, int64_t id, const char *node, int64_t lease_ms, int64_t *token);
    int (*lease_fence)(rs_store *st, int64_t id, const char *node, int64_t token, int64_t lease_ms);
    int (*leases_renew)(rs_store *st, const char *node, int64_t lease_ms);
    int (*games_unleased)(rs_store *st, int64_t lease_ms, bool all, int limit,
                          rs_unleased_row **rows, size_t *n);
    int (*node_alive)(rs_store *st, const char *node, int64_t lease_ms);
    int (*node_gone)(rs_store *st, const char *node);
    int (*presence_put)(rs_store *st, const char *node, int64_t user, int64_t game, bool present);
    int (*presence_elsewhere)(rs_store *st, const char *node, int64_t game, rs_presence_row **rows,
                              size_t *n);
    int (*user_elsewhere)(rs_store *st, const char *node, int64_t user, bool *online);
    int (*nodes_live)(rs_store *st, char **names);
    int (*announce)(rs_store *st, const char *text);
    int (*announcements)(rs_store *st, void (*got)(void *ctx, const char *line), void *ctx);
    int (*listen_fd)(const rs_store *st);
} rs_store_shared_ops;

/* "Play now" (pools.c): seeks and the links of guests to accounts, in both databases. Each
 * is the store.h call of that name. */
typedef struct rs_store_pool_ops {
    int (*seek_add)(rs_store *st, rs_seek_row *row);
    int (*seeks_read)(rs_store *st, const char *node, int64_t user, rs_seek_row **rows, size_t *n);
    int (*seeks_drop)(rs_store *st, int64_t user, int64_t id, int64_t *dropped);
    int (*seeks_take)(rs_store *st, const int64_t *ids, size_t n);
    int (*seeks_forget)(rs_store *st, const char *node);
    int (*link_add)(rs_store *st, int64_t guest, int64_t account);
    int (*links_of)(rs_store *st, int64_t user, int64_t *out, int max, int *n);
} rs_store_pool_ops;

/* Challenges and the setting that refuses them (challenge.c), in both databases. Each is the
 * store.h call rs_store_challenge_NAME (read: rs_store_challenges_read, setting_*:
 * rs_store_setting_*). */
typedef struct rs_store_challenge_ops {
    int (*add)(rs_store *st, rs_challenge_row *row);
    int (*read)(rs_store *st, int64_t user, int64_t due_ms, rs_challenge_row **rows, size_t *n);
    int (*take)(rs_store *st, int64_t id, rs_challenge_row *out);
    int (*setting_get)(rs_store *st, int64_t user, bool *challenges);
    int (*setting_put)(rs_store *st, int64_t user, bool challenges);
} rs_store_challenge_ops;

/* Tournaments (tournaments.c), in both databases. Each is the store.h call rs_store_tour_NAME
 * (entries: rs_store_tour_entries, pairings: rs_store_tour_pairings). */
typedef struct rs_store_tour_ops {
    int (*add)(rs_store *st, rs_tour_row *row);
    int (*get)(rs_store *st, int64_t id, rs_tour_row *out);
    int (*list)(rs_store *st, int limit, rs_tour_row **rows, size_t *n);
    int (*entered)(rs_store *st, int64_t user, int limit, rs_tour_row **rows, size_t *n);
    int (*status)(rs_store *st, int64_t id, int status);
    int (*round_claim)(rs_store *st, int64_t id, int round);
    int (*start)(rs_store *st, int64_t id, int64_t at_ms);
    int (*cancel)(rs_store *st, int64_t id);
    int (*entry_put)(rs_store *st, const rs_tour_entry_row *row);
    int (*entries)(rs_store *st, int64_t id, rs_tour_entry_row **rows, size_t *n);
    int (*pairing_add)(rs_store *st, const rs_tour_pairing_row *row);
    int (*pairing_put)(rs_store *st, const rs_tour_pairing_row *row, int64_t was_game);
    int (*pairings)(rs_store *st, int64_t id, rs_tour_pairing_row **rows, size_t *n);
} rs_store_tour_ops;

/* One backend's calls. Unless said otherwise each is the store.h call of its name, with its
 * contract; store.c dispatches to them (and derives rs_store_game_get, rs_store_moves_get and
 * the defaults of what a backend leaves NULL). */
typedef struct rs_store_ops {
    void (*close)(rs_store *st); /* st is not NULL */
    const char *(*error)(const rs_store *st);
    /* NULL for a database that cannot be out of reach (a file): never unavailable. */
    bool (*unavailable)(const rs_store *st);

    int (*begin)(rs_store *st);
    int (*commit)(rs_store *st);
    void (*rollback)(rs_store *st);
    bool (*in_transaction)(const rs_store *st);
    void (*fail_commits)(rs_store *st, int n);
    /* A write-ahead log to checkpoint: NULL where there is none (PostgreSQL checkpoints by
     * itself), taken as nothing to do and 0 frames. */
    int (*checkpoint)(rs_store *st);
    int (*checkpoint_tail)(rs_store *st);
    int (*wal_frames)(const rs_store *st);

    int (*user_add)(rs_store *st, const char *name, bool guest, int64_t now_ms, int64_t *id);
    int (*user_get)(rs_store *st, int64_t id, rs_user *out);
    int (*user_find)(rs_store *st, const char *name, rs_user *out);
    int (*user_register)(rs_store *st, int64_t id, const char *name, const char *pwhash);
    int (*user_lookalike)(rs_store *st, const char *skeleton, const char *lowered, int64_t except,
                          rs_user *out);
    int (*sweep_accounts)(rs_store *st, int64_t now_ms, int limit, int64_t *tokens,
                          int64_t *guests);
    int (*token_add)(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t user, int64_t now_ms,
                     int64_t expires_ms);
    int (*token_user)(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t now_ms,
                      int64_t *user, bool *expired);
    int (*token_revoke)(rs_store *st, const uint8_t hash[RS_TOKEN_HASH]);
    /* `keep` is never NULL here: store.c passes a hash no token has instead. */
    int (*user_password)(rs_store *st, int64_t id, const char *pwhash,
                         const uint8_t keep[RS_TOKEN_HASH]);

    int (*game_insert)(rs_store *st, rs_game_row *row);
    int (*game_save)(rs_store *st, const rs_game_row *row);
    int (*game_write)(rs_store *st, const rs_game_row *row, bool seats);
    int (*game_head)(rs_store *st, int64_t id, rs_game_row *out);
    /* The seat rows of out->id into out->seat (rs_store_game_get is game_head, then this). */
    int (*game_seats)(rs_store *st, rs_game_row *out);
    int (*games_unfinished)(rs_store *st, int64_t **ids, size_t *n);
    int (*move_add)(rs_store *st, int64_t game, const rs_move_row *move);
    int (*move_write)(rs_store *st, int64_t game, const rs_move_row *move);
    int (*moves_since)(rs_store *st, int64_t game, int64_t from_ply, rs_move_row **moves,
                       size_t *n);
    int (*moves_truncate)(rs_store *st, int64_t game, int64_t from_ply);
    int (*record_put)(rs_store *st, int64_t game, const char *record);
    int (*record_get)(rs_store *st, int64_t game, char **record);
    int (*review_put)(rs_store *st, int64_t game, int seat, const char *review);
    int (*review_get)(rs_store *st, int64_t game, int seat, char **review);
    int (*rematch_find)(rs_store *st, int64_t game, int64_t *rematch);

    int (*chat_add)(rs_store *st, int64_t game, int channel, int64_t user, int64_t at_ms,
                    const char *text);

    int (*rating_get)(rs_store *st, int64_t user, const char *game, rs_rating_row *out);
    int (*rating_put)(rs_store *st, int64_t user, const char *game, const rs_rating_row *r,
                      int64_t game_id, int64_t at_ms);

    int (*meta_set)(rs_store *st, const char *key, int64_t value);
    int (*meta_get)(rs_store *st, const char *key, int64_t *value);
    int (*meta_max)(rs_store *st, const char *prefix, int64_t *value);

    /* The rows of the read models, each handed to row(ctx, ...) in order; a failure ends
     * them (the read models show what could be read). */
    /* The last `limit` lines of one channel (rs_chat_channel) of a game's chat, oldest first. */
    void (*chat_rows)(rs_store *st, int64_t game, int channel, int limit,
                      void (*row)(void *ctx, const rs_chat_row *line), void *ctx);
    /* Finished games as rs_store_finished_json selects them, newest first, at most `limit`. */
    void (*finished_rows)(rs_store *st, int64_t user, int limit, int64_t before,
                          void (*row)(void *ctx, const rs_finished_row *game), void *ctx);
    /* A game's seats in seat order, with the names of the humans in them. */
    void (*named_seat_rows)(rs_store *st, int64_t game,
                            void (*row)(void *ctx, const rs_named_seat_row *seat), void *ctx);
    /* A user's ratings, by game. */
    void (*rating_rows)(rs_store *st, int64_t user,
                        void (*row)(void *ctx, const rs_game_rating_row *rating), void *ctx);
    /* A user's last 200 ratings, newest first. */
    void (*rating_history_rows)(rs_store *st, int64_t user,
                                void (*row)(void *ctx, const rs_rating_history_row *entry),
                                void *ctx);
    /* A user's finished games against each AI level, by game and level. */
    void (*vs_ai_rows)(rs_store *st, int64_t user,
                       void (*row)(void *ctx, const rs_vs_ai_row *results), void *ctx);

    const rs_store_pool_ops *pool;           /* "Play now": every backend fills it */
    const rs_store_challenge_ops *challenge; /* challenges: every backend fills it */
    const rs_store_tour_ops *tour;           /* tournaments: every backend fills it */
    const rs_store_shared_ops *shared;       /* NULL: one server alone on the database */
} rs_store_ops;

#endif
