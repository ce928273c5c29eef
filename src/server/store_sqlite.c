/* store_sqlite.c — the storage interface (store.h) over SQLite, one backend of the table in
 * store_backend.h: WAL with synchronous=FULL by default (a commit survives a power cut) or
 * NORMAL (it survives the process being killed; see docs/server.md), one writer connection owned by the service thread with every statement
 * prepared once and rebound per use, and a second connection only for passive checkpoints on
 * a worker thread. One server alone uses the file: it fills no shared operations. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "store_backend.h"
#include "store_sqlite.h"

/* Version 1 of the schema, every statement IF NOT EXISTS: a database made before versions
 * were checked takes it as it is. */
static const char SCHEMA_V1[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS users(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " name_key TEXT NOT NULL UNIQUE, guest INTEGER NOT NULL, pwhash TEXT,"
    " created_ms INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tokens(hash BLOB PRIMARY KEY, user_id INTEGER NOT NULL"
    " REFERENCES users(id), created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS games(id INTEGER PRIMARY KEY, game TEXT NOT NULL,"
    " options TEXT NOT NULL, seed INTEGER NOT NULL, status INTEGER NOT NULL,"
    " rated INTEGER NOT NULL, clock_kind INTEGER NOT NULL, initial_ms INTEGER NOT NULL,"
    " increment_ms INTEGER NOT NULL, per_move_ms INTEGER NOT NULL, seats INTEGER NOT NULL,"
    " v INTEGER NOT NULL, remaining TEXT NOT NULL, running INTEGER NOT NULL,"
    " turn_wall_ms INTEGER NOT NULL, created_ms INTEGER NOT NULL, started_ms INTEGER NOT NULL,"
    " ended_ms INTEGER NOT NULL, creator INTEGER NOT NULL, rematch_of INTEGER NOT NULL,"
    " end_reason TEXT NOT NULL, result_text TEXT NOT NULL, record TEXT);"
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, id);"
    "CREATE TABLE IF NOT EXISTS seats(game_id INTEGER NOT NULL REFERENCES games(id),"
    " seat INTEGER NOT NULL, kind INTEGER NOT NULL, user_id INTEGER NOT NULL,"
    " ai_level TEXT NOT NULL, invite TEXT NOT NULL, score REAL NOT NULL,"
    " PRIMARY KEY(game_id, seat));"
    "CREATE INDEX IF NOT EXISTS seats_user ON seats(user_id, game_id);"
    "CREATE TABLE IF NOT EXISTS moves(game_id INTEGER NOT NULL, ply INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, action INTEGER NOT NULL, v INTEGER NOT NULL,"
    " at_ms INTEGER NOT NULL, PRIMARY KEY(game_id, ply)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS chat(id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,"
    " user_id INTEGER NOT NULL, at_ms INTEGER NOT NULL, text TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS chat_game ON chat(game_id, id);"
    /* Reviews of finished games, one per seat (docs/review.md), computed once. */
    "CREATE TABLE IF NOT EXISTS reviews(game_id INTEGER NOT NULL, seat INTEGER NOT NULL,"
    " review TEXT NOT NULL, PRIMARY KEY(game_id, seat));"
    /* "Play now": the seeks waiting, and which guests logged into which accounts. */
    /* AUTOINCREMENT: a seek's id is never given again (a `paired` names it). */
    "CREATE TABLE IF NOT EXISTS seeks(id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " user_id INTEGER NOT NULL, pool TEXT NOT NULL, game TEXT NOT NULL, players INTEGER NOT NULL,"
    " clock_kind INTEGER NOT NULL, initial_ms INTEGER NOT NULL, increment_ms INTEGER NOT NULL,"
    " per_move_ms INTEGER NOT NULL, rated INTEGER NOT NULL, since_ms INTEGER NOT NULL,"
    " rating REAL NOT NULL, linked TEXT NOT NULL, node TEXT NOT NULL, UNIQUE(user_id, pool));"
    "CREATE TABLE IF NOT EXISTS links(id INTEGER PRIMARY KEY, guest_id INTEGER NOT NULL,"
    " account_id INTEGER NOT NULL, UNIQUE(guest_id, account_id));"
    "CREATE INDEX IF NOT EXISTS links_account ON links(account_id);"
    /* Challenges to a named player, pending (AUTOINCREMENT: an id a `challenge-gone` named is
     * never given again), and each user's setting that refuses them. */
    "CREATE TABLE IF NOT EXISTS challenges(id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " from_id INTEGER NOT NULL, to_id INTEGER NOT NULL, game TEXT NOT NULL,"
    " options TEXT NOT NULL, clock_kind INTEGER NOT NULL, initial_ms INTEGER NOT NULL,"
    " increment_ms INTEGER NOT NULL, per_move_ms INTEGER NOT NULL, rated INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS challenges_from ON challenges(from_id);"
    "CREATE INDEX IF NOT EXISTS challenges_to ON challenges(to_id);"
    "CREATE INDEX IF NOT EXISTS challenges_expires ON challenges(expires_ms);" /* the sweep */
    "CREATE TABLE IF NOT EXISTS user_settings(user_id INTEGER PRIMARY KEY,"
    " challenges INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS ratings(user_id INTEGER NOT NULL, game TEXT NOT NULL,"
    " rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL, games INTEGER NOT NULL,"
    " PRIMARY KEY(user_id, game));"
    "CREATE TABLE IF NOT EXISTS rating_history(id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL,"
    " game TEXT NOT NULL, game_id INTEGER NOT NULL, at_ms INTEGER NOT NULL,"
    " rating REAL NOT NULL, rd REAL NOT NULL);"
    "CREATE INDEX IF NOT EXISTS rating_history_user ON rating_history(user_id, id);";

#define SEEK_COLUMNS                                                                               \
    "id, user_id, pool, game, players, clock_kind, initial_ms, increment_ms, per_move_ms,"         \
    " rated, since_ms, rating, linked, node"

#define TOUR_COLUMNS                                                                               \
    "id, creator, name, game, options, format, rounds, set_games, table_size, bye_points,"         \
    " duration_ms, rated, clock_kind, initial_ms, increment_ms, per_move_ms, status, round,"       \
    " created_ms, starts_ms, computer"

#define CHALLENGE_COLUMNS                                                                          \
    "c.id, c.from_id, c.to_id, f.name, t.name, c.game, c.options, c.clock_kind, c.initial_ms,"     \
    " c.increment_ms, c.per_move_ms, c.rated, c.seat, c.created_ms, c.expires_ms"                  \
    " FROM challenges c JOIN users f ON f.id = c.from_id JOIN users t ON t.id = c.to_id"

/* Every statement, prepared once at open. */
#define STATEMENTS(X)                                                                              \
    X(BEGIN, "BEGIN IMMEDIATE")                                                                    \
    X(COMMIT, "COMMIT")                                                                            \
    X(ROLLBACK, "ROLLBACK")                                                                        \
    X(USER_ADD, "INSERT INTO users(name, name_key, guest, pwhash, created_ms)"                     \
                " VALUES(?1, ?2, ?3, '', ?4)")                                                     \
    X(USER_GET, "SELECT id, name, guest, pwhash, created_ms FROM users WHERE id = ?1")             \
    X(USER_FIND, "SELECT id, name, guest, pwhash, created_ms FROM users WHERE name_key = ?1")      \
    X(USER_REGISTER, "UPDATE users SET name = ?2, name_key = ?3, guest = 0, pwhash = ?4,"          \
                     " skeleton = nullif(?5, '') WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM"      \
                     " users WHERE skeleton = ?5 AND id <> ?1)")                                   \
    X(USER_LOOKALIKE, "SELECT id, name, guest, pwhash, created_ms FROM users WHERE"                \
                      " skeleton IN (?1, ?2) AND guest = 0 AND id <> ?3 LIMIT 1")                  \
    X(TOKENS_SWEEP, "DELETE FROM tokens WHERE expires_ms <= ?1")                                   \
    X(GUESTS_SWEEP, "DELETE FROM users WHERE id IN (SELECT id FROM users WHERE guest = 1"          \
                    " AND " RS_UNUSED_GUEST " LIMIT ?1)")                                          \
    X(TOKEN_ADD, "INSERT INTO tokens(hash, user_id, created_ms, expires_ms)"                       \
                 " VALUES(?1, ?2, ?3, ?4)")                                                        \
    X(TOKEN_USER, "SELECT user_id, expires_ms FROM tokens WHERE hash = ?1")                        \
    X(TOKEN_REVOKE, "DELETE FROM tokens WHERE hash = ?1")                                          \
    X(USER_PASSWORD, "UPDATE users SET pwhash = ?2 WHERE id = ?1 AND guest = 0")                   \
    X(TOKENS_REVOKE_OTHERS, "DELETE FROM tokens WHERE user_id = ?1 AND hash <> ?2")                \
    X(GAME_INSERT, "INSERT INTO games(game, options, seed, status, rated, clock_kind,"             \
                   " initial_ms, increment_ms, per_move_ms, seats, v, remaining, running,"         \
                   " turn_wall_ms, created_ms, started_ms, ended_ms, creator, rematch_of,"         \
                   " end_reason, result_text) VALUES(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"         \
                   " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)")                 \
    X(GAME_UPDATE, "UPDATE games SET game = ?2, options = ?3, seed = ?4, status = ?5,"             \
                   " rated = ?6, clock_kind = ?7, initial_ms = ?8, increment_ms = ?9,"             \
                   " per_move_ms = ?10, seats = ?11, v = ?12, remaining = ?13, running = ?14,"     \
                   " turn_wall_ms = ?15, created_ms = ?16, started_ms = ?17, ended_ms = ?18,"      \
                   " creator = ?19, rematch_of = ?20, end_reason = ?21, result_text = ?22"         \
                   " WHERE id = ?1")                                                               \
    X(GAME_GET, "SELECT id, game, options, seed, status, rated, clock_kind, initial_ms,"           \
                " increment_ms, per_move_ms, seats, v, remaining, running, turn_wall_ms,"          \
                " created_ms, started_ms, ended_ms, creator, rematch_of, end_reason,"              \
                " result_text FROM games WHERE id = ?1")                                           \
    X(SEAT_PUT, "INSERT OR REPLACE INTO seats(game_id, seat, kind, user_id, ai_level, invite,"     \
                " score) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")                                      \
    X(SEATS_GET, "SELECT seat, kind, user_id, ai_level, invite, score FROM seats"                  \
                 " WHERE game_id = ?1 ORDER BY seat")                                              \
    X(GAMES_UNFINISHED, "SELECT id FROM games WHERE status IN (0, 1) ORDER BY id")                 \
    X(MOVE_ADD, "INSERT INTO moves(game_id, ply, seat, action, v, at_ms)"                          \
                " VALUES(?1, ?2, ?3, ?4, ?5, ?6)")                                                 \
    X(MOVES_GET, "SELECT ply, seat, action, v, at_ms FROM moves WHERE game_id = ?1"                \
                 " AND ply >= ?2 ORDER BY ply")                                                    \
    X(MOVES_TRUNCATE, "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")                        \
    X(RECORD_PUT, "UPDATE games SET record = ?2 WHERE id = ?1")                                    \
    X(RECORD_GET, "SELECT record FROM games WHERE id = ?1 AND record IS NOT NULL")                 \
    X(REVIEW_PUT, "INSERT OR REPLACE INTO reviews(game_id, seat, review) VALUES(?1, ?2, ?3)")      \
    X(REVIEW_GET, "SELECT review FROM reviews WHERE game_id = ?1 AND seat = ?2")                   \
    X(CHAT_ADD, "INSERT INTO chat(game_id, user_id, at_ms, text, channel)"                         \
                " VALUES(?1, ?2, ?3, ?4, ?5)")                                                     \
    X(CHAT_RECENT, "SELECT u.name, c.at_ms, c.text FROM (SELECT * FROM chat WHERE"                 \
                   " game_id = ?1 AND channel = ?3 ORDER BY id DESC LIMIT ?2) c JOIN users u ON"   \
                   " u.id = c.user_id ORDER BY c.id")                                              \
    X(RATING_GET, "SELECT rating, rd, vol, games FROM ratings WHERE user_id = ?1"                  \
                  " AND game = ?2")                                                                \
    X(RATING_PUT, "INSERT OR REPLACE INTO ratings(user_id, game, rating, rd, vol, games)"          \
                  " VALUES(?1, ?2, ?3, ?4, ?5, ?6)")                                               \
    X(RATING_HISTORY_ADD, "INSERT INTO rating_history(user_id, game, game_id, at_ms, rating,"      \
                          " rd) VALUES(?1, ?2, ?3, ?4, ?5, ?6)")                                   \
    X(SEEK_ADD, "INSERT INTO seeks(user_id, pool, game, players, clock_kind, initial_ms,"          \
                " increment_ms, per_move_ms, rated, since_ms, rating, linked, node)"               \
                " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")                 \
    X(SEEKS_READ, "SELECT " SEEK_COLUMNS " FROM seeks WHERE ?1 = 0 OR user_id = ?1"                \
                  " ORDER BY since_ms, id")                                                        \
    X(SEEKS_DROP, "DELETE FROM seeks WHERE user_id = ?1 AND (?2 = 0 OR id = ?2)")                  \
    X(SEEK_THERE, "SELECT id FROM seeks WHERE id = ?1")                                            \
    X(SEEK_DELETE, "DELETE FROM seeks WHERE id = ?1")                                              \
    X(SEEKS_FORGET, "DELETE FROM seeks")                                                           \
    X(LINK_ADD, "INSERT OR IGNORE INTO links(guest_id, account_id) VALUES(?1, ?2)")                \
    X(LINKS_OF, "SELECT CASE WHEN guest_id = ?1 THEN account_id ELSE guest_id END FROM links"      \
                " WHERE guest_id = ?1 OR account_id = ?1 ORDER BY id DESC LIMIT ?2")               \
    X(CHALLENGE_ADD, "INSERT INTO challenges(from_id, to_id, game, options, clock_kind,"           \
                     " initial_ms, increment_ms, per_move_ms, rated, seat, created_ms,"            \
                     " expires_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)")     \
    X(CHALLENGES_READ, "SELECT " CHALLENGE_COLUMNS " WHERE (?1 = 0 OR c.from_id = ?1"              \
                       " OR c.to_id = ?1) AND c.expires_ms <= ?2 ORDER BY c.created_ms, c.id")     \
    X(CHALLENGE_GET, "SELECT " CHALLENGE_COLUMNS " WHERE c.id = ?1")                               \
    X(CHALLENGE_DELETE, "DELETE FROM challenges WHERE id = ?1")                                    \
    X(SETTING_GET, "SELECT challenges FROM user_settings WHERE user_id = ?1")                      \
    X(SETTING_PUT, "INSERT OR REPLACE INTO user_settings(user_id, challenges) VALUES(?1, ?2)")     \
    X(TOUR_ADD, "INSERT INTO tournaments(" TOUR_COLUMNS ") VALUES(NULL, ?2, ?3, ?4, ?5, ?6, ?7,"   \
                " ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)")            \
    X(TOUR_GET, "SELECT " TOUR_COLUMNS " FROM tournaments WHERE id = ?1")                          \
    X(TOUR_LIST, "SELECT " TOUR_COLUMNS " FROM tournaments ORDER BY id DESC LIMIT ?1")             \
    X(TOUR_ENTERED, "SELECT " TOUR_COLUMNS " FROM tournaments WHERE id IN (SELECT tournament_id"   \
                    " FROM tournament_entries WHERE user_id = ?1) ORDER BY id DESC LIMIT ?2")      \
    X(TOUR_STATUS, "UPDATE tournaments SET status = ?2 WHERE id = ?1")                             \
    X(TOUR_CLAIM, "UPDATE tournaments SET round = ?2 WHERE id = ?1 AND round = ?2 - 1")            \
    X(TOUR_START,                                                                                  \
      "UPDATE tournaments SET status = 1, starts_ms = ?2 WHERE id = ?1 AND status = 0")            \
    X(TOUR_CANCEL, "UPDATE tournaments SET status = 3 WHERE id = ?1 AND status = 0")               \
    X(TOUR_ENTRY_PUT,                                                                              \
      "INSERT INTO tournament_entries(tournament_id, user_id, rating, active,"                     \
      " entered_ms) VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(tournament_id,"                         \
      " user_id) DO UPDATE SET rating = excluded.rating, active = excluded.active")                \
    X(TOUR_ENTRIES, "SELECT e.tournament_id, e.user_id, u.name, e.rating, e.active, e.entered_ms"  \
                    " FROM tournament_entries e JOIN users u ON u.id = e.user_id"                  \
                    " WHERE e.tournament_id = ?1 ORDER BY e.entered_ms, e.user_id")                \
    X(TOUR_PAIRING_ADD, "INSERT INTO tournament_pairings(tournament_id, round, board, players,"    \
                        " points, games_done, game_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")        \
    X(TOUR_PAIRING_PUT, "UPDATE tournament_pairings SET points = ?5, games_done = ?6,"             \
                        " game_id = ?7 WHERE tournament_id = ?1 AND round = ?2 AND board = ?3"     \
                        " AND game_id = ?8")                                                       \
    X(TOUR_PAIRINGS, "SELECT tournament_id, round, board, players, points, games_done, game_id"    \
                     " FROM tournament_pairings WHERE tournament_id = ?1 ORDER BY round, board")   \
    X(REMATCH_FIND, "SELECT id FROM games WHERE rematch_of = ?1 ORDER BY id LIMIT 1")              \
    X(META_SET, "INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)")                          \
    X(META_GET, "SELECT value FROM meta WHERE key = ?1")                                           \
    X(FINISHED, "SELECT g.id, g.game, g.rated, g.ended_ms, g.end_reason, g.result_text"            \
                " FROM games g WHERE g.status = 2 AND (?1 = 0 OR g.id < ?1) AND (?2 = 0 OR"        \
                " EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?2"         \
                " AND s.kind = 4)) ORDER BY g.id DESC LIMIT ?3")                                   \
    X(SEATS_NAMED, "SELECT s.seat, s.kind, u.name, s.ai_level, s.score FROM seats s"               \
                   " LEFT JOIN users u ON u.id = s.user_id AND s.kind = 4"                         \
                   " WHERE s.game_id = ?1 ORDER BY s.seat")                                        \
    X(PROFILE_RATINGS, "SELECT game, rating, rd, vol, games FROM ratings WHERE user_id = ?1"       \
                       " ORDER BY game")                                                           \
    X(PROFILE_HISTORY, "SELECT game, game_id, at_ms, rating, rd FROM rating_history"               \
                       " WHERE user_id = ?1 ORDER BY id DESC LIMIT 200")                           \
    X(PROFILE_VS_AI, "SELECT g.game, a.ai_level, SUM(me.score > a.score),"                         \
                     " SUM(me.score < a.score), SUM(me.score = a.score) FROM games g"              \
                     " JOIN seats me ON me.game_id = g.id AND me.user_id = ?1 AND me.kind = 4"     \
                     " JOIN seats a ON a.game_id = g.id AND a.kind = 3 WHERE g.status = 2"         \
                     " GROUP BY g.game, a.ai_level ORDER BY g.game, a.ai_level")

#define STMT_ENUM_(name, sql) STMT_##name,
enum { STATEMENTS(STMT_ENUM_) NUM_STATEMENTS };
#undef STMT_ENUM_
#define STMT_SQL_(name, sql) sql,
static const char *const STATEMENT_SQL[] = {STATEMENTS(STMT_SQL_)};
#undef STMT_SQL_

typedef struct sqlite_store {
    rs_store base; /* its operations: SQLITE_OPS */
    sqlite3 *db;
    sqlite3 *checkpoint_db; /* NULL in memory */
    sqlite3_stmt *stmt[NUM_STATEMENTS];
    bool in_transaction;
    bool doomed; /* a write failed inside the transaction: the commit must not happen */
    int fail_commits;
    int wal_frames; /* in the WAL after the last commit (sqlite3_wal_hook) */
    char error[256];
} sqlite_store;

/* After each commit: how long the WAL has grown, so a checkpoint is asked for in time. */
static int note_wal(void *ctx, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    ((sqlite_store *)ctx)->wal_frames = frames;
    return SQLITE_OK;
}

static int fail(sqlite_store *st, const char *what)
{
    if (st->in_transaction)
        st->doomed = true;
    snprintf(st->error, sizeof st->error, "%s: %s", what, sqlite3_errmsg(st->db));
    return RS_STORE_ERROR;
}

static const char *lite_error(const rs_store *store)
{
    return ((const sqlite_store *)store)->error;
}

/* The statement, reset and unbound, ready for new parameters. */
static sqlite3_stmt *use(sqlite_store *st, int which)
{
    sqlite3_stmt *s = st->stmt[which];
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return s;
}

/* Run a statement that returns no rows. */
static int run(sqlite_store *st, sqlite3_stmt *s, const char *what)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc == SQLITE_CONSTRAINT) /* a refused write, not a failed one: the caller decides */
        return RS_STORE_CONFLICT;
    return rc == SQLITE_DONE ? RS_STORE_OK : fail(st, what);
}

/* The outcome of a statement that returns at most one row, stepped (rc) and reset. */
static int row_result(sqlite_store *st, int rc, const char *what)
{
    if (rc == SQLITE_ROW)
        return RS_STORE_OK;
    return rc == SQLITE_DONE ? RS_STORE_NOTFOUND : fail(st, what);
}

/* Run a statement returning one integer (column 0) into *out. */
static int one_int64(sqlite_store *st, sqlite3_stmt *s, int64_t *out, const char *what)
{
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    return row_result(st, rc, what);
}

static void bind_text(sqlite3_stmt *s, int i, const char *text)
{
    sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT);
}

static void copy_column(sqlite3_stmt *s, int col, char *out, size_t size)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(out, size, "%s", t ? (const char *)t : "");
}

/* The schema's migrations, version i + 1 at index i, as in store_pg.c: the database keeps
 * its version in PRAGMA user_version. A new version appends a migration; none is edited. */
/* Version 2 (issue 49, finding 7): each chat line's channel (rs_chat_channel): the players'
 * and the spectators' lines apart, and the game's chat switch. Lines said before it were the
 * players' and spectators' alike: they stay the players'. */
static const char SCHEMA_V2[] =
    "ALTER TABLE chat ADD COLUMN channel INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX IF NOT EXISTS chat_channel ON chat(game_id, channel, id);";
/* Version 3: tournaments (docs/tournaments.md). */
static const char SCHEMA_V3[] =
    "CREATE TABLE IF NOT EXISTS tournaments(id INTEGER PRIMARY KEY, creator INTEGER NOT NULL,"
    " name TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL, format INTEGER NOT NULL,"
    " rounds INTEGER NOT NULL, set_games INTEGER NOT NULL, table_size INTEGER NOT NULL,"
    " bye_points INTEGER NOT NULL, duration_ms INTEGER NOT NULL, rated INTEGER NOT NULL,"
    " clock_kind INTEGER NOT NULL, initial_ms INTEGER NOT NULL, increment_ms INTEGER NOT NULL,"
    " per_move_ms INTEGER NOT NULL, status INTEGER NOT NULL, round INTEGER NOT NULL,"
    " created_ms INTEGER NOT NULL, starts_ms INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tournament_entries(tournament_id INTEGER NOT NULL,"
    " user_id INTEGER NOT NULL, rating REAL NOT NULL, active INTEGER NOT NULL,"
    " entered_ms INTEGER NOT NULL, PRIMARY KEY(tournament_id, user_id));"
    "CREATE TABLE IF NOT EXISTS tournament_pairings(tournament_id INTEGER NOT NULL,"
    " round INTEGER NOT NULL, board INTEGER NOT NULL, players TEXT NOT NULL,"
    " points TEXT NOT NULL, games_done INTEGER NOT NULL, game_id INTEGER NOT NULL,"
    " PRIMARY KEY(tournament_id, round, board));"
    "CREATE INDEX IF NOT EXISTS tournament_pairings_game ON tournament_pairings(game_id);";

/* Version 4 (issue 49, finding 9): each registered name's confusable skeleton
 * (rs_name_skeleton, through the SQL function rs_skeleton this connection defines), so that a
 * lookalike of a taken name is refused; tokens by expiry and user, for the hourly sweep. */
static const char SCHEMA_V4[] = "ALTER TABLE users ADD COLUMN skeleton TEXT;"
                                "UPDATE users SET skeleton = rs_skeleton(name) WHERE guest = 0;"
                                "CREATE INDEX IF NOT EXISTS users_skeleton ON users(skeleton);"
                                "CREATE INDEX IF NOT EXISTS tokens_expires ON tokens(expires_ms);"
                                "CREATE INDEX IF NOT EXISTS tokens_user ON tokens(user_id);";

/* Version 5 (issue 44): a tournament's house player, the computer at an AI level ('' none);
 * the entries by player, for a profile's tournaments. */
static const char SCHEMA_V5[] =
    "ALTER TABLE tournaments ADD COLUMN computer TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX IF NOT EXISTS tournament_entries_user ON tournament_entries(user_id);";

static const char *const MIGRATIONS[] = {SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5};
#define SCHEMA_VERSION ((int)(sizeof MIGRATIONS / sizeof MIGRATIONS[0]))

static int user_version(sqlite3 *db)
{
    sqlite3_stmt *s = NULL;
    int version = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        version = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return version;
}

/* Brings an older schema to this server's version, each migration once with its version in
 * one transaction (BEGIN IMMEDIATE: the write lock keeps another process from migrating at
 * the same time, and the version is read again under it); refuses a newer schema. */
static int migrate(sqlite3 *db, char *err, size_t err_size)
{
    if (user_version(db) == SCHEMA_VERSION)
        return RS_STORE_OK;
    char *msg = NULL;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, err_size, "cannot migrate the schema: %s", msg ? msg : "?");
        sqlite3_free(msg);
        return RS_STORE_ERROR;
    }
    const int version = user_version(db);
    bool ok = version >= 0 && version <= SCHEMA_VERSION;
    if (version > SCHEMA_VERSION)
        snprintf(err, err_size,
                 "the database's schema is version %d, newer than this server's (%d): a newer "
                 "ramparts has migrated it; run that version",
                 version, SCHEMA_VERSION);
    else if (version < 0)
        snprintf(err, err_size, "cannot read the schema's version: %s", sqlite3_errmsg(db));
    for (int to = version + 1; ok && to <= SCHEMA_VERSION; to++) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d", to);
        ok = sqlite3_exec(db, MIGRATIONS[to - 1], NULL, NULL, &msg) == SQLITE_OK &&
             sqlite3_exec(db, pragma, NULL, NULL, &msg) == SQLITE_OK;
        if (!ok)
            snprintf(err, err_size, "cannot migrate the schema to version %d: %s", to,
                     msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        msg = NULL;
    }
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return RS_STORE_OK;
    if (ok)
        snprintf(err, err_size, "cannot commit the schema's migration: %s", sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return RS_STORE_ERROR;
}

static void lite_close(rs_store *store);

/* rs_skeleton(name): the name's confusable skeleton (rs_name_skeleton), NULL when ICU gives
 * none; the schema's version 2 fills the column with it. */
static void sql_skeleton(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const unsigned char *name = sqlite3_value_text(argv[0]);
    char skeleton[RS_SKELETON_TEXT];
    if (!name || !rs_name_skeleton((const char *)name, skeleton) || !skeleton[0]) {
        sqlite3_result_null(ctx);
        return;
    }
    sqlite3_result_text(ctx, skeleton, -1, SQLITE_TRANSIENT);
}

/* SQLITE_OPS, the table, is defined at the end of the file. */
static const rs_store_ops SQLITE_OPS;

int rs_store_sqlite_open(rs_store **out, const char *path, rs_store_sync sync, char *err,
                         size_t err_size)
{
    *out = NULL;
    sqlite_store *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, err_size, "out of memory");
        return RS_STORE_ERROR;
    }
    st->base.ops = &SQLITE_OPS;
    const bool memory = strcmp(path, ":memory:") == 0;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, err_size, "cannot open %s: %s", path,
                 st->db ? sqlite3_errmsg(st->db) : "out of memory");
        lite_close(&st->base);
        return RS_STORE_ERROR;
    }
    sqlite3_busy_timeout(st->db, 5000);
    char setup[256];
    snprintf(setup, sizeof setup,
             memory ? "PRAGMA foreign_keys=ON;"
                    : "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; PRAGMA foreign_keys=ON;"
                      " PRAGMA wal_autocheckpoint=0; PRAGMA journal_size_limit=67108864;",
             sync == RS_SYNC_NORMAL ? "NORMAL" : "FULL");
    char *msg = NULL;
    if (sqlite3_exec(st->db, setup, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, err_size, "cannot set up %s: %s", path, msg ? msg : "?");
        sqlite3_free(msg);
        lite_close(&st->base);
        return RS_STORE_ERROR;
    }
    if (sqlite3_create_function(st->db, "rs_skeleton", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                sql_skeleton, NULL, NULL) != SQLITE_OK ||
        migrate(st->db, err, err_size) != RS_STORE_OK) {
        if (!err[0])
            snprintf(err, err_size, "cannot define rs_skeleton: %s", sqlite3_errmsg(st->db));
        lite_close(&st->base);
        return RS_STORE_ERROR;
    }
    for (int i = 0; i < NUM_STATEMENTS; i++) {
        if (sqlite3_prepare_v3(st->db, STATEMENT_SQL[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &st->stmt[i], NULL) != SQLITE_OK) {
            snprintf(err, err_size, "cannot prepare statement %d: %s", i, sqlite3_errmsg(st->db));
            lite_close(&st->base);
            return RS_STORE_ERROR;
        }
    }
    if (!memory &&
        sqlite3_open_v2(path, &st->checkpoint_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX,
                        NULL) == SQLITE_OK)
        sqlite3_busy_timeout(st->checkpoint_db, 1000);
    if (!memory)
        sqlite3_wal_hook(st->db, note_wal, st);
    *out = &st->base;
    return RS_STORE_OK;
}

long long rs_store_sqlite_heap_bytes(void)
{
    return (long long)sqlite3_memory_used();
}

static void lite_rollback(rs_store *store)
{
    sqlite_store *st = (sqlite_store *)store;
    if (!st->in_transaction)
        return;
    sqlite3_stmt *s = use(st, STMT_ROLLBACK);
    sqlite3_step(s);
    sqlite3_reset(s);
    st->in_transaction = false;
    st->doomed = false;
}

static void lite_close(rs_store *store)
{
    sqlite_store *st = (sqlite_store *)store;
    if (st->in_transaction)
        lite_rollback(store);
    for (int i = 0; i < NUM_STATEMENTS; i++)
        sqlite3_finalize(st->stmt[i]);
    if (st->checkpoint_db) {
        sqlite3_wal_checkpoint_v2(st->checkpoint_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        sqlite3_close(st->checkpoint_db);
    }
    sqlite3_close(st->db);
    free(st);
}

static int lite_begin(rs_store *store)
{
    sqlite_store *st = (sqlite_store *)store;
    if (st->in_transaction)
        return RS_STORE_OK;
    int rc = run(st, use(st, STMT_BEGIN), "begin");
    if (rc == RS_STORE_OK)
        st->in_transaction = true;
    return rc;
}

static int lite_commit(rs_store *store)
{
    sqlite_store *st = (sqlite_store *)store;
    if (!st->in_transaction)
        return RS_STORE_OK;
    if (st->doomed) {
        lite_rollback(store);
        return RS_STORE_ERROR;
    }
    if (st->fail_commits > 0) {
        st->fail_commits--;
        snprintf(st->error, sizeof st->error, "commit: failure injected by a test");
        lite_rollback(store);
        return RS_STORE_ERROR;
    }
    int rc = run(st, use(st, STMT_COMMIT), "commit");
    if (rc != RS_STORE_OK) {
        lite_rollback(store);
        return RS_STORE_ERROR;
    }
    st->in_transaction = false;
    return RS_STORE_OK;
}

static bool lite_in_transaction(const rs_store *store)
{
    const sqlite_store *st = (const sqlite_store *)store;
    return st->in_transaction;
}

static void lite_fail_commits(rs_store *store, int n)
{
    sqlite_store *st = (sqlite_store *)store;
    st->fail_commits = n;
}

static int lite_checkpoint_tail(rs_store *store)
{
    sqlite_store *st = (sqlite_store *)store;
    if (!st->checkpoint_db || st->in_transaction)
        return RS_STORE_OK;
    int rc = sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return rc == SQLITE_OK || rc == SQLITE_BUSY ? RS_STORE_OK : RS_STORE_ERROR;
}

static int lite_wal_frames(const rs_store *store)
{
    const sqlite_store *st = (const sqlite_store *)store;
    return st->wal_frames;
}

static int lite_checkpoint(rs_store *store)
{
    sqlite_store *st = (sqlite_store *)store;
    if (!st->checkpoint_db)
        return RS_STORE_OK;
    int rc =
        sqlite3_wal_checkpoint_v2(st->checkpoint_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return rc == SQLITE_OK || rc == SQLITE_BUSY ? RS_STORE_OK : RS_STORE_ERROR;
}

/* ---- users and tokens ---- */

static int lite_user_add(rs_store *store, const char *name, bool guest, int64_t now_ms, int64_t *id)
{
    sqlite_store *st = (sqlite_store *)store;
    char key[RS_NAME_MAX + 1];
    rs_store_name_key(name, key);
    sqlite3_stmt *s = use(st, STMT_USER_ADD);
    bind_text(s, 1, name);
    bind_text(s, 2, key);
    sqlite3_bind_int(s, 3, guest);
    sqlite3_bind_int64(s, 4, now_ms);
    int rc = run(st, s, "add user");
    if (rc == RS_STORE_OK)
        *id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

static int read_user(sqlite_store *st, sqlite3_stmt *s, rs_user *out)
{
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(s, 0);
        copy_column(s, 1, out->name, sizeof out->name);
        out->guest = sqlite3_column_int(s, 2) != 0;
        copy_column(s, 3, out->pwhash, sizeof out->pwhash);
        out->created_ms = sqlite3_column_int64(s, 4);
    }
    sqlite3_reset(s);
    return row_result(st, rc, "read user");
}

static int lite_user_get(rs_store *store, int64_t id, rs_user *out)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_USER_GET);
    sqlite3_bind_int64(s, 1, id);
    return read_user(st, s, out);
}

static int lite_user_find(rs_store *store, const char *name, rs_user *out)
{
    sqlite_store *st = (sqlite_store *)store;
    char key[RS_NAME_MAX + 1];
    rs_store_name_key(name, key);
    sqlite3_stmt *s = use(st, STMT_USER_FIND);
    bind_text(s, 1, key);
    return read_user(st, s, out);
}

static int lite_user_register(rs_store *store, int64_t id, const char *name, const char *pwhash)
{
    sqlite_store *st = (sqlite_store *)store;
    char key[RS_NAME_MAX + 1], skeleton[RS_SKELETON_TEXT];
    rs_store_name_key(name, key);
    rs_name_skeleton(name, skeleton);
    sqlite3_stmt *s = use(st, STMT_USER_REGISTER);
    sqlite3_bind_int64(s, 1, id);
    bind_text(s, 2, name);
    bind_text(s, 3, key);
    bind_text(s, 4, pwhash);
    bind_text(s, 5, skeleton);
    const int rc = run(st, s, "register user");
    if (rc == RS_STORE_OK && sqlite3_changes(st->db) != 1) /* a lookalike of it is taken */
        return RS_STORE_CONFLICT;
    return rc;
}

static int lite_user_lookalike(rs_store *store, const char *skeleton, const char *lowered,
                               int64_t except, rs_user *out)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_USER_LOOKALIKE);
    bind_text(s, 1, skeleton);
    bind_text(s, 2, lowered);
    sqlite3_bind_int64(s, 3, except);
    return read_user(st, s, out);
}

static int lite_sweep_accounts(rs_store *store, int64_t now_ms, int limit, int64_t *tokens,
                               int64_t *guests)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOKENS_SWEEP);
    sqlite3_bind_int64(s, 1, now_ms);
    int rc = run(st, s, "sweep tokens");
    *tokens = rc == RS_STORE_OK ? sqlite3_changes(st->db) : 0;
    *guests = 0;
    if (rc != RS_STORE_OK)
        return rc;
    s = use(st, STMT_GUESTS_SWEEP);
    sqlite3_bind_int(s, 1, limit);
    rc = run(st, s, "sweep guests");
    *guests = rc == RS_STORE_OK ? sqlite3_changes(st->db) : 0;
    return rc;
}

static int lite_token_add(rs_store *store, const uint8_t hash[RS_TOKEN_HASH], int64_t user,
                          int64_t now_ms, int64_t expires_ms)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOKEN_ADD);
    sqlite3_bind_blob(s, 1, hash, RS_TOKEN_HASH, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 2, user);
    sqlite3_bind_int64(s, 3, now_ms);
    sqlite3_bind_int64(s, 4, expires_ms);
    return run(st, s, "add token");
}

static int lite_token_user(rs_store *store, const uint8_t hash[RS_TOKEN_HASH], int64_t now_ms,
                           int64_t *user, bool *expired)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOKEN_USER);
    sqlite3_bind_blob(s, 1, hash, RS_TOKEN_HASH, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    *expired = false;
    int result = RS_STORE_NOTFOUND;
    if (rc == SQLITE_ROW) {
        if (sqlite3_column_int64(s, 1) > now_ms) {
            *user = sqlite3_column_int64(s, 0);
            result = RS_STORE_OK;
        } else {
            *expired = true;
        }
    } else if (rc != SQLITE_DONE) {
        result = fail(st, "read token");
    }
    sqlite3_reset(s);
    return result;
}

static int lite_token_revoke(rs_store *store, const uint8_t hash[RS_TOKEN_HASH])
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOKEN_REVOKE);
    sqlite3_bind_blob(s, 1, hash, RS_TOKEN_HASH, SQLITE_TRANSIENT);
    return run(st, s, "revoke token");
}

static int lite_user_password(rs_store *store, int64_t id, const char *pwhash,
                              const uint8_t keep[RS_TOKEN_HASH])
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_USER_PASSWORD);
    sqlite3_bind_int64(s, 1, id);
    bind_text(s, 2, pwhash);
    int rc = run(st, s, "change password");
    if (rc != RS_STORE_OK)
        return rc;
    if (sqlite3_changes(st->db) != 1)
        return RS_STORE_NOTFOUND;
    s = use(st, STMT_TOKENS_REVOKE_OTHERS);
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_blob(s, 2, keep, RS_TOKEN_HASH, SQLITE_TRANSIENT);
    return run(st, s, "revoke the other tokens");
}

/* ---- games ---- */

static void bind_game(sqlite3_stmt *s, const rs_game_row *row)
{
    char remaining[RP_MAX_PLAYERS * 24];
    rs_store_remaining_text(row, remaining, sizeof remaining);
    sqlite3_bind_int64(s, 1, row->id);
    bind_text(s, 2, row->game);
    bind_text(s, 3, row->options);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)row->seed);
    sqlite3_bind_int(s, 5, (int)row->status);
    sqlite3_bind_int(s, 6, row->rated);
    sqlite3_bind_int(s, 7, row->clock_kind);
    sqlite3_bind_int64(s, 8, row->initial_ms);
    sqlite3_bind_int64(s, 9, row->increment_ms);
    sqlite3_bind_int64(s, 10, row->per_move_ms);
    sqlite3_bind_int(s, 11, row->seats);
    sqlite3_bind_int64(s, 12, row->v);
    bind_text(s, 13, remaining);
    sqlite3_bind_int(s, 14, row->running);
    sqlite3_bind_int64(s, 15, row->turn_wall_ms);
    sqlite3_bind_int64(s, 16, row->created_ms);
    sqlite3_bind_int64(s, 17, row->started_ms);
    sqlite3_bind_int64(s, 18, row->ended_ms);
    sqlite3_bind_int64(s, 19, row->creator);
    sqlite3_bind_int64(s, 20, row->rematch_of);
    bind_text(s, 21, row->end_reason);
    bind_text(s, 22, row->result_text);
}

static int save_seats(sqlite_store *st, const rs_game_row *row)
{
    for (int i = 0; i < row->seats && i < RP_MAX_PLAYERS; i++) {
        const rs_seat_row *seat = &row->seat[i];
        sqlite3_stmt *s = use(st, STMT_SEAT_PUT);
        sqlite3_bind_int64(s, 1, row->id);
        sqlite3_bind_int(s, 2, i);
        sqlite3_bind_int(s, 3, (int)seat->kind);
        sqlite3_bind_int64(s, 4, seat->user_id);
        bind_text(s, 5, seat->ai_level);
        bind_text(s, 6, seat->invite);
        sqlite3_bind_double(s, 7, seat->score);
        int rc = run(st, s, "save seat");
        if (rc != RS_STORE_OK)
            return rc;
    }
    return RS_STORE_OK;
}

static int lite_game_insert(rs_store *store, rs_game_row *row)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_GAME_INSERT);
    bind_game(s, row);
    int rc = run(st, s, "insert game");
    if (rc != RS_STORE_OK)
        return rc;
    row->id = sqlite3_last_insert_rowid(st->db);
    return save_seats(st, row);
}

static int update_game(sqlite_store *st, const rs_game_row *row, bool seats)
{
    sqlite3_stmt *s = use(st, STMT_GAME_UPDATE);
    bind_game(s, row);
    int rc = run(st, s, "save game");
    if (rc != RS_STORE_OK)
        return rc;
    if (sqlite3_changes(st->db) != 1)
        return RS_STORE_NOTFOUND;
    return seats ? save_seats(st, row) : RS_STORE_OK;
}

static int lite_game_save(rs_store *store, const rs_game_row *row)
{
    return update_game((sqlite_store *)store, row, true);
}

static int lite_game_write(rs_store *store, const rs_game_row *row, bool seats)
{
    sqlite_store *st = (sqlite_store *)store;
    const int rc = update_game(st, row, seats);
    if (rc == RS_STORE_NOTFOUND && st->in_transaction) /* as on PostgreSQL: no commit */
        st->doomed = true;
    return rc;
}

static int lite_game_seats(rs_store *store, rs_game_row *out)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_SEATS_GET);
    sqlite3_bind_int64(s, 1, out->id);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int i = sqlite3_column_int(s, 0);
        if (i < 0 || i >= RP_MAX_PLAYERS)
            continue;
        rs_seat_row *seat = &out->seat[i];
        seat->kind = (rs_seat_kind)sqlite3_column_int(s, 1);
        seat->user_id = sqlite3_column_int64(s, 2);
        copy_column(s, 3, seat->ai_level, sizeof seat->ai_level);
        copy_column(s, 4, seat->invite, sizeof seat->invite);
        seat->score = sqlite3_column_double(s, 5);
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? RS_STORE_OK : fail(st, "read seats");
}

static int lite_game_head(rs_store *store, int64_t id, rs_game_row *out)
{
    sqlite_store *st = (sqlite_store *)store;
    memset(out, 0, sizeof *out);
    sqlite3_stmt *s = use(st, STMT_GAME_GET);
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(s, 0);
        copy_column(s, 1, out->game, sizeof out->game);
        copy_column(s, 2, out->options, sizeof out->options);
        out->seed = (uint64_t)sqlite3_column_int64(s, 3);
        out->status = (rs_game_status)sqlite3_column_int(s, 4);
        out->rated = sqlite3_column_int(s, 5) != 0;
        out->clock_kind = sqlite3_column_int(s, 6);
        out->initial_ms = sqlite3_column_int64(s, 7);
        out->increment_ms = sqlite3_column_int64(s, 8);
        out->per_move_ms = sqlite3_column_int64(s, 9);
        out->seats = sqlite3_column_int(s, 10);
        out->v = sqlite3_column_int64(s, 11);
        rs_store_remaining_parse((const char *)sqlite3_column_text(s, 12), out);
        out->running = sqlite3_column_int(s, 13);
        out->turn_wall_ms = sqlite3_column_int64(s, 14);
        out->created_ms = sqlite3_column_int64(s, 15);
        out->started_ms = sqlite3_column_int64(s, 16);
        out->ended_ms = sqlite3_column_int64(s, 17);
        out->creator = sqlite3_column_int64(s, 18);
        out->rematch_of = sqlite3_column_int64(s, 19);
        copy_column(s, 20, out->end_reason, sizeof out->end_reason);
        copy_column(s, 21, out->result_text, sizeof out->result_text);
    }
    sqlite3_reset(s);
    if (rc == SQLITE_DONE)
        return RS_STORE_NOTFOUND;
    if (rc != SQLITE_ROW)
        return fail(st, "read game");
    if (out->seats < 1 || out->seats > RP_MAX_PLAYERS) {
        snprintf(st->error, sizeof st->error, "game %lld has %d seats", (long long)id, out->seats);
        return RS_STORE_ERROR;
    }
    return RS_STORE_OK;
}

static int lite_games_unfinished(rs_store *store, int64_t **ids, size_t *n)
{
    sqlite_store *st = (sqlite_store *)store;
    *ids = NULL;
    *n = 0;
    size_t cap = 0;
    sqlite3_stmt *s = use(st, STMT_GAMES_UNFINISHED);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (!rs_grow(ids, &cap, *n, sizeof **ids, 64)) {
            sqlite3_reset(s);
            return RS_STORE_ERROR;
        }
        (*ids)[(*n)++] = sqlite3_column_int64(s, 0);
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? RS_STORE_OK : fail(st, "list unfinished games");
}

static int lite_move_add(rs_store *store, int64_t game, const rs_move_row *move)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_MOVE_ADD);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int64(s, 2, move->ply);
    sqlite3_bind_int(s, 3, move->seat);
    sqlite3_bind_int64(s, 4, move->action);
    sqlite3_bind_int64(s, 5, move->v);
    sqlite3_bind_int64(s, 6, move->at_ms);
    return run(st, s, "add move");
}

static int lite_move_write(rs_store *store, int64_t game, const rs_move_row *move)
{
    sqlite_store *st = (sqlite_store *)store;
    const int rc = lite_move_add(store, game, move);
    if (rc == RS_STORE_CONFLICT && st->in_transaction) { /* as on PostgreSQL: no commit */
        st->doomed = true;
        snprintf(st->error, sizeof st->error, "add move: ply %lld of game %lld already stored",
                 (long long)move->ply, (long long)game);
    }
    return rc;
}

static int lite_moves_since(rs_store *store, int64_t game, int64_t from_ply, rs_move_row **moves,
                            size_t *n)
{
    sqlite_store *st = (sqlite_store *)store;
    *moves = NULL;
    *n = 0;
    size_t cap = 0;
    sqlite3_stmt *s = use(st, STMT_MOVES_GET);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int64(s, 2, from_ply);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (!rs_grow(moves, &cap, *n, sizeof **moves, 64)) {
            sqlite3_reset(s);
            return RS_STORE_ERROR;
        }
        rs_move_row *m = &(*moves)[(*n)++];
        m->ply = sqlite3_column_int64(s, 0);
        m->seat = sqlite3_column_int(s, 1);
        m->action = (uint32_t)sqlite3_column_int64(s, 2);
        m->v = sqlite3_column_int64(s, 3);
        m->at_ms = sqlite3_column_int64(s, 4);
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? RS_STORE_OK : fail(st, "read moves");
}

static int lite_moves_truncate(rs_store *store, int64_t game, int64_t from_ply)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_MOVES_TRUNCATE);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int64(s, 2, from_ply);
    return run(st, s, "truncate moves");
}

static int lite_record_put(rs_store *store, int64_t game, const char *record)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_RECORD_PUT);
    sqlite3_bind_int64(s, 1, game);
    bind_text(s, 2, record);
    return run(st, s, "store record");
}

static int lite_record_get(rs_store *store, int64_t game, char **record)
{
    sqlite_store *st = (sqlite_store *)store;
    *record = NULL;
    sqlite3_stmt *s = use(st, STMT_RECORD_GET);
    sqlite3_bind_int64(s, 1, game);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 0);
        *record = strdup(t ? (const char *)t : "");
    }
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return *record ? RS_STORE_OK : RS_STORE_ERROR;
    return rc == SQLITE_DONE ? RS_STORE_NOTFOUND : fail(st, "read record");
}

static int lite_review_put(rs_store *store, int64_t game, int seat, const char *review)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_REVIEW_PUT);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int(s, 2, seat);
    bind_text(s, 3, review);
    return run(st, s, "store review");
}

static int lite_review_get(rs_store *store, int64_t game, int seat, char **review)
{
    sqlite_store *st = (sqlite_store *)store;
    *review = NULL;
    sqlite3_stmt *s = use(st, STMT_REVIEW_GET);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int(s, 2, seat);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 0);
        *review = strdup(t ? (const char *)t : "");
    }
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return *review ? RS_STORE_OK : RS_STORE_ERROR;
    return rc == SQLITE_DONE ? RS_STORE_NOTFOUND : fail(st, "read review");
}

static int lite_rematch_find(rs_store *store, int64_t game, int64_t *rematch)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_REMATCH_FIND);
    sqlite3_bind_int64(s, 1, game);
    return one_int64(st, s, rematch, "find rematch");
}

/* ---- chat ---- */

static int lite_chat_add(rs_store *store, int64_t game, int channel, int64_t user, int64_t at_ms,
                         const char *text)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_CHAT_ADD);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int64(s, 2, user);
    sqlite3_bind_int64(s, 3, at_ms);
    bind_text(s, 4, text);
    sqlite3_bind_int(s, 5, channel);
    return run(st, s, "add chat");
}

/* ---- ratings ---- */

static int lite_rating_get(rs_store *store, int64_t user, const char *game, rs_rating_row *out)
{
    sqlite_store *st = (sqlite_store *)store;
    memset(out, 0, sizeof *out);
    sqlite3_stmt *s = use(st, STMT_RATING_GET);
    sqlite3_bind_int64(s, 1, user);
    bind_text(s, 2, game);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        out->rating = sqlite3_column_double(s, 0);
        out->rd = sqlite3_column_double(s, 1);
        out->vol = sqlite3_column_double(s, 2);
        out->games = sqlite3_column_int64(s, 3);
    }
    sqlite3_reset(s);
    return row_result(st, rc, "read rating");
}

static int lite_rating_put(rs_store *store, int64_t user, const char *game, const rs_rating_row *r,
                           int64_t game_id, int64_t at_ms)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_RATING_PUT);
    sqlite3_bind_int64(s, 1, user);
    bind_text(s, 2, game);
    sqlite3_bind_double(s, 3, r->rating);
    sqlite3_bind_double(s, 4, r->rd);
    sqlite3_bind_double(s, 5, r->vol);
    sqlite3_bind_int64(s, 6, r->games);
    int rc = run(st, s, "store rating");
    if (rc != RS_STORE_OK)
        return rc;
    s = use(st, STMT_RATING_HISTORY_ADD);
    sqlite3_bind_int64(s, 1, user);
    bind_text(s, 2, game);
    sqlite3_bind_int64(s, 3, game_id);
    sqlite3_bind_int64(s, 4, at_ms);
    sqlite3_bind_double(s, 5, r->rating);
    sqlite3_bind_double(s, 6, r->rd);
    return run(st, s, "store rating history");
}

/* Every row of statement s (bound), each read by read(s, item) into a new array of
 * `size`-byte items (NULL when none); s reset. */
static int step_rows(sqlite_store *st, sqlite3_stmt *s, size_t size,
                     void (*read)(sqlite3_stmt *s, void *item), void *rows_ptr, size_t *n,
                     const char *what)
{
    char **rows = rows_ptr;
    *rows = NULL;
    *n = 0;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (!rs_grow(rows, &cap, *n, size, 8)) {
            rc = SQLITE_NOMEM;
            break;
        }
        read(s, *rows + (*n)++ * size);
    }
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        free(*rows);
        *rows = NULL;
        *n = 0;
        return fail(st, what);
    }
    return RS_STORE_OK;
}

/* ---- "Play now" pools ---- */

static int lite_seek_add(rs_store *store, rs_seek_row *row)
{
    sqlite_store *st = (sqlite_store *)store;
    char linked[RS_SEEK_LINKS * 24];
    rs_store_linked_text(row, linked, sizeof linked);
    sqlite3_stmt *s = use(st, STMT_SEEK_ADD);
    sqlite3_bind_int64(s, 1, row->user);
    bind_text(s, 2, row->pool);
    bind_text(s, 3, row->game);
    sqlite3_bind_int(s, 4, row->players);
    sqlite3_bind_int(s, 5, row->clock_kind);
    sqlite3_bind_int64(s, 6, row->initial_ms);
    sqlite3_bind_int64(s, 7, row->increment_ms);
    sqlite3_bind_int64(s, 8, row->per_move_ms);
    sqlite3_bind_int(s, 9, row->rated);
    sqlite3_bind_int64(s, 10, row->since_ms);
    sqlite3_bind_double(s, 11, row->rating);
    bind_text(s, 12, linked);
    bind_text(s, 13, row->node);
    int rc = run(st, s, "add seek");
    if (rc == RS_STORE_OK)
        row->id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

static void read_seek(sqlite3_stmt *s, void *item)
{
    rs_seek_row *row = item;
    memset(row, 0, sizeof *row);
    row->id = sqlite3_column_int64(s, 0);
    row->user = sqlite3_column_int64(s, 1);
    copy_column(s, 2, row->pool, sizeof row->pool);
    copy_column(s, 3, row->game, sizeof row->game);
    row->players = sqlite3_column_int(s, 4);
    row->clock_kind = sqlite3_column_int(s, 5);
    row->initial_ms = sqlite3_column_int64(s, 6);
    row->increment_ms = sqlite3_column_int64(s, 7);
    row->per_move_ms = sqlite3_column_int64(s, 8);
    row->rated = sqlite3_column_int(s, 9) != 0;
    row->since_ms = sqlite3_column_int64(s, 10);
    row->rating = sqlite3_column_double(s, 11);
    rs_store_linked_parse((const char *)sqlite3_column_text(s, 12), row);
    copy_column(s, 13, row->node, sizeof row->node);
}

static int lite_seeks_read(rs_store *store, const char *node, int64_t user, rs_seek_row **rows,
                           size_t *n)
{
    (void)node; /* one server: every seek is its own */
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_SEEKS_READ);
    sqlite3_bind_int64(s, 1, user);
    return step_rows(st, s, sizeof **rows, read_seek, rows, n, "read seeks");
}

static int lite_seeks_drop(rs_store *store, int64_t user, int64_t id, int64_t *dropped)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_SEEKS_DROP);
    sqlite3_bind_int64(s, 1, user);
    sqlite3_bind_int64(s, 2, id);
    int rc = run(st, s, "drop seeks");
    *dropped = rc == RS_STORE_OK ? sqlite3_changes(st->db) : 0;
    return rc;
}

/* One writer: every seek still there is free, so checking them all first is enough. */
static int lite_seeks_take(rs_store *store, const int64_t *ids, size_t n)
{
    sqlite_store *st = (sqlite_store *)store;
    for (size_t i = 0; i < n; i++) {
        sqlite3_stmt *s = use(st, STMT_SEEK_THERE);
        sqlite3_bind_int64(s, 1, ids[i]);
        int64_t found;
        int rc = one_int64(st, s, &found, "find seek");
        if (rc != RS_STORE_OK)
            return rc == RS_STORE_NOTFOUND ? RS_STORE_CONFLICT : rc;
    }
    for (size_t i = 0; i < n; i++) {
        sqlite3_stmt *s = use(st, STMT_SEEK_DELETE);
        sqlite3_bind_int64(s, 1, ids[i]);
        int rc = run(st, s, "take seek");
        if (rc != RS_STORE_OK)
            return rc;
    }
    return RS_STORE_OK;
}

static int lite_seeks_forget(rs_store *store, const char *node)
{
    (void)node;
    sqlite_store *st = (sqlite_store *)store;
    return run(st, use(st, STMT_SEEKS_FORGET), "forget seeks");
}

static int lite_link_add(rs_store *store, int64_t guest, int64_t account)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_LINK_ADD);
    sqlite3_bind_int64(s, 1, guest);
    sqlite3_bind_int64(s, 2, account);
    return run(st, s, "link guest");
}

static int lite_links_of(rs_store *store, int64_t user, int64_t *out, int max, int *n)
{
    sqlite_store *st = (sqlite_store *)store;
    *n = 0;
    sqlite3_stmt *s = use(st, STMT_LINKS_OF);
    sqlite3_bind_int64(s, 1, user);
    sqlite3_bind_int(s, 2, max);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < max)
        out[(*n)++] = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? RS_STORE_OK : fail(st, "read links");
}

static const rs_store_pool_ops SQLITE_POOL_OPS = {
    .seek_add = lite_seek_add,
    .seeks_read = lite_seeks_read,
    .seeks_drop = lite_seeks_drop,
    .seeks_take = lite_seeks_take,
    .seeks_forget = lite_seeks_forget,
    .link_add = lite_link_add,
    .links_of = lite_links_of,
};

/* ---- challenges ---- */

static int lite_challenge_add(rs_store *store, rs_challenge_row *row)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_CHALLENGE_ADD);
    sqlite3_bind_int64(s, 1, row->from);
    sqlite3_bind_int64(s, 2, row->to);
    bind_text(s, 3, row->game);
    bind_text(s, 4, row->options);
    sqlite3_bind_int(s, 5, row->clock_kind);
    sqlite3_bind_int64(s, 6, row->initial_ms);
    sqlite3_bind_int64(s, 7, row->increment_ms);
    sqlite3_bind_int64(s, 8, row->per_move_ms);
    sqlite3_bind_int(s, 9, row->rated);
    sqlite3_bind_int(s, 10, row->seat);
    sqlite3_bind_int64(s, 11, row->created_ms);
    sqlite3_bind_int64(s, 12, row->expires_ms);
    int rc = run(st, s, "add challenge");
    if (rc == RS_STORE_OK)
        row->id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

static void read_challenge(sqlite3_stmt *s, void *item)
{
    rs_challenge_row *row = item;
    memset(row, 0, sizeof *row);
    row->id = sqlite3_column_int64(s, 0);
    row->from = sqlite3_column_int64(s, 1);
    row->to = sqlite3_column_int64(s, 2);
    copy_column(s, 3, row->from_name, sizeof row->from_name);
    copy_column(s, 4, row->to_name, sizeof row->to_name);
    copy_column(s, 5, row->game, sizeof row->game);
    copy_column(s, 6, row->options, sizeof row->options);
    row->clock_kind = sqlite3_column_int(s, 7);
    row->initial_ms = sqlite3_column_int64(s, 8);
    row->increment_ms = sqlite3_column_int64(s, 9);
    row->per_move_ms = sqlite3_column_int64(s, 10);
    row->rated = sqlite3_column_int(s, 11) != 0;
    row->seat = sqlite3_column_int(s, 12);
    row->created_ms = sqlite3_column_int64(s, 13);
    row->expires_ms = sqlite3_column_int64(s, 14);
}

static int lite_challenges_read(rs_store *store, int64_t user, int64_t due_ms,
                                rs_challenge_row **rows, size_t *n)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_CHALLENGES_READ);
    sqlite3_bind_int64(s, 1, user);
    sqlite3_bind_int64(s, 2, due_ms);
    return step_rows(st, s, sizeof **rows, read_challenge, rows, n, "read challenges");
}

/* One writer: the row read is the row deleted. */
static int lite_challenge_take(rs_store *store, int64_t id, rs_challenge_row *out)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_CHALLENGE_GET);
    sqlite3_bind_int64(s, 1, id);
    const int step = sqlite3_step(s);
    if (step == SQLITE_ROW)
        read_challenge(s, out);
    sqlite3_reset(s);
    if (step != SQLITE_ROW)
        return step == SQLITE_DONE ? RS_STORE_NOTFOUND : fail(st, "find challenge");
    s = use(st, STMT_CHALLENGE_DELETE);
    sqlite3_bind_int64(s, 1, id);
    return run(st, s, "take challenge");
}

static int lite_setting_get(rs_store *store, int64_t user, bool *challenges)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_SETTING_GET);
    sqlite3_bind_int64(s, 1, user);
    int64_t value = 1;
    const int rc = one_int64(st, s, &value, "read setting");
    *challenges = value != 0;
    return rc == RS_STORE_NOTFOUND ? RS_STORE_OK : rc;
}

static int lite_setting_put(rs_store *store, int64_t user, bool challenges)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_SETTING_PUT);
    sqlite3_bind_int64(s, 1, user);
    sqlite3_bind_int(s, 2, challenges);
    return run(st, s, "store setting");
}

static const rs_store_challenge_ops SQLITE_CHALLENGE_OPS = {
    .add = lite_challenge_add,
    .read = lite_challenges_read,
    .take = lite_challenge_take,
    .setting_get = lite_setting_get,
    .setting_put = lite_setting_put,
};

/* ---- tournaments ---- */

static int lite_tour_add(rs_store *store, rs_tour_row *row)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_ADD);
    sqlite3_bind_int64(s, 2, row->creator);
    bind_text(s, 3, row->name);
    bind_text(s, 4, row->game);
    bind_text(s, 5, row->options);
    sqlite3_bind_int(s, 6, row->format);
    sqlite3_bind_int(s, 7, row->rounds);
    sqlite3_bind_int(s, 8, row->set_games);
    sqlite3_bind_int(s, 9, row->table_size);
    sqlite3_bind_int(s, 10, row->bye_points);
    sqlite3_bind_int64(s, 11, row->duration_ms);
    sqlite3_bind_int(s, 12, row->rated);
    sqlite3_bind_int(s, 13, row->clock_kind);
    sqlite3_bind_int64(s, 14, row->initial_ms);
    sqlite3_bind_int64(s, 15, row->increment_ms);
    sqlite3_bind_int64(s, 16, row->per_move_ms);
    sqlite3_bind_int(s, 17, row->status);
    sqlite3_bind_int(s, 18, row->round);
    sqlite3_bind_int64(s, 19, row->created_ms);
    sqlite3_bind_int64(s, 20, row->starts_ms);
    bind_text(s, 21, row->computer);
    const int rc = run(st, s, "add tournament");
    if (rc == RS_STORE_OK)
        row->id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

static void read_tour(sqlite3_stmt *s, void *item)
{
    rs_tour_row *row = item;
    memset(row, 0, sizeof *row);
    row->id = sqlite3_column_int64(s, 0);
    row->creator = sqlite3_column_int64(s, 1);
    copy_column(s, 2, row->name, sizeof row->name);
    copy_column(s, 3, row->game, sizeof row->game);
    copy_column(s, 4, row->options, sizeof row->options);
    row->format = sqlite3_column_int(s, 5);
    row->rounds = sqlite3_column_int(s, 6);
    row->set_games = sqlite3_column_int(s, 7);
    row->table_size = sqlite3_column_int(s, 8);
    row->bye_points = sqlite3_column_int(s, 9);
    row->duration_ms = sqlite3_column_int64(s, 10);
    row->rated = sqlite3_column_int(s, 11) != 0;
    row->clock_kind = sqlite3_column_int(s, 12);
    row->initial_ms = sqlite3_column_int64(s, 13);
    row->increment_ms = sqlite3_column_int64(s, 14);
    row->per_move_ms = sqlite3_column_int64(s, 15);
    row->status = sqlite3_column_int(s, 16);
    row->round = sqlite3_column_int(s, 17);
    row->created_ms = sqlite3_column_int64(s, 18);
    row->starts_ms = sqlite3_column_int64(s, 19);
    copy_column(s, 20, row->computer, sizeof row->computer);
}

static int lite_tour_get(rs_store *store, int64_t id, rs_tour_row *out)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_GET);
    sqlite3_bind_int64(s, 1, id);
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        read_tour(s, out);
    sqlite3_reset(s);
    return row_result(st, rc, "read tournament");
}

static int lite_tour_list(rs_store *store, int limit, rs_tour_row **rows, size_t *n)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_LIST);
    sqlite3_bind_int(s, 1, limit);
    return step_rows(st, s, sizeof **rows, read_tour, rows, n, "list tournaments");
}

static int lite_tour_entered(rs_store *store, int64_t user, int limit, rs_tour_row **rows,
                             size_t *n)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_ENTERED);
    sqlite3_bind_int64(s, 1, user);
    sqlite3_bind_int(s, 2, limit);
    return step_rows(st, s, sizeof **rows, read_tour, rows, n, "list a player's tournaments");
}

static int lite_tour_status(rs_store *store, int64_t id, int status)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_STATUS);
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int(s, 2, status);
    return run(st, s, "set tournament status");
}

/* A compare-and-set (an UPDATE whose WHERE holds the compared value): CONFLICT when the row
 * was not as compared, so nothing changed. */
static int run_compared(sqlite_store *st, sqlite3_stmt *s, const char *what)
{
    const int rc = run(st, s, what);
    if (rc != RS_STORE_OK)
        return rc;
    return sqlite3_changes(st->db) == 1 ? RS_STORE_OK : RS_STORE_CONFLICT;
}

/* One writer: the row's round is compared and set in one statement. */
static int lite_tour_round_claim(rs_store *store, int64_t id, int round)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_CLAIM);
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int(s, 2, round);
    return run_compared(st, s, "claim round");
}

/* One writer: the status is compared and set in one statement (0 open, 1 running:
 * rs_tour_status). */
static int lite_tour_start(rs_store *store, int64_t id, int64_t at_ms)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_START);
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int64(s, 2, at_ms);
    return run_compared(st, s, "start tournament");
}

/* One writer: open to cancelled (3: rs_tour_status) compared and set in one statement. */
static int lite_tour_cancel(rs_store *store, int64_t id)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_CANCEL);
    sqlite3_bind_int64(s, 1, id);
    return run_compared(st, s, "cancel tournament");
}

static int lite_tour_entry_put(rs_store *store, const rs_tour_entry_row *row)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_ENTRY_PUT);
    sqlite3_bind_int64(s, 1, row->tour);
    sqlite3_bind_int64(s, 2, row->user);
    sqlite3_bind_double(s, 3, row->rating);
    sqlite3_bind_int(s, 4, row->active);
    sqlite3_bind_int64(s, 5, row->entered_ms);
    return run(st, s, "store entry");
}

static void read_entry(sqlite3_stmt *s, void *item)
{
    rs_tour_entry_row *row = item;
    memset(row, 0, sizeof *row);
    row->tour = sqlite3_column_int64(s, 0);
    row->user = sqlite3_column_int64(s, 1);
    copy_column(s, 2, row->name, sizeof row->name);
    row->rating = sqlite3_column_double(s, 3);
    row->active = sqlite3_column_int(s, 4) != 0;
    row->entered_ms = sqlite3_column_int64(s, 5);
}

static int lite_tour_entries(rs_store *store, int64_t id, rs_tour_entry_row **rows, size_t *n)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_ENTRIES);
    sqlite3_bind_int64(s, 1, id);
    return step_rows(st, s, sizeof **rows, read_entry, rows, n, "read entries");
}

/* Binds a pairing's columns in the order both statements number them. */
static void bind_pairing(sqlite3_stmt *s, const rs_tour_pairing_row *row)
{
    char players[RS_TOUR_SEATS * 24], points[RS_TOUR_SEATS * 24];
    int64_t values[RS_TOUR_SEATS];
    for (int i = 0; i < row->n && i < RS_TOUR_SEATS; i++)
        values[i] = row->points[i];
    rs_store_numbers_text(row->user, row->n, players, sizeof players);
    rs_store_numbers_text(values, row->n, points, sizeof points);
    sqlite3_bind_int64(s, 1, row->tour);
    sqlite3_bind_int(s, 2, row->round);
    sqlite3_bind_int(s, 3, row->board);
    bind_text(s, 4, players);
    bind_text(s, 5, points);
    sqlite3_bind_int(s, 6, row->games_done);
    sqlite3_bind_int64(s, 7, row->game);
}

static int lite_tour_pairing_add(rs_store *store, const rs_tour_pairing_row *row)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_PAIRING_ADD);
    bind_pairing(s, row);
    return run(st, s, "add pairing");
}

static int lite_tour_pairing_put(rs_store *store, const rs_tour_pairing_row *row, int64_t was_game)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_PAIRING_PUT);
    bind_pairing(s, row);
    sqlite3_bind_null(s, 4); /* the players stay */
    sqlite3_bind_int64(s, 8, was_game);
    return run_compared(st, s, "store pairing");
}

static void read_pairing(sqlite3_stmt *s, void *item)
{
    rs_tour_pairing_row *row = item;
    memset(row, 0, sizeof *row);
    row->tour = sqlite3_column_int64(s, 0);
    row->round = sqlite3_column_int(s, 1);
    row->board = sqlite3_column_int(s, 2);
    row->n =
        rs_store_numbers_parse((const char *)sqlite3_column_text(s, 3), row->user, RS_TOUR_SEATS);
    int64_t points[RS_TOUR_SEATS] = {0};
    rs_store_numbers_parse((const char *)sqlite3_column_text(s, 4), points, RS_TOUR_SEATS);
    for (int i = 0; i < RS_TOUR_SEATS; i++)
        row->points[i] = (int)points[i];
    row->games_done = sqlite3_column_int(s, 5);
    row->game = sqlite3_column_int64(s, 6);
}

static int lite_tour_pairings(rs_store *store, int64_t id, rs_tour_pairing_row **rows, size_t *n)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_TOUR_PAIRINGS);
    sqlite3_bind_int64(s, 1, id);
    return step_rows(st, s, sizeof **rows, read_pairing, rows, n, "read pairings");
}

static const rs_store_tour_ops SQLITE_TOUR_OPS = {
    .add = lite_tour_add,
    .get = lite_tour_get,
    .list = lite_tour_list,
    .entered = lite_tour_entered,
    .status = lite_tour_status,
    .round_claim = lite_tour_round_claim,
    .start = lite_tour_start,
    .cancel = lite_tour_cancel,
    .entry_put = lite_tour_entry_put,
    .entries = lite_tour_entries,
    .pairing_add = lite_tour_pairing_add,
    .pairing_put = lite_tour_pairing_put,
    .pairings = lite_tour_pairings,
};

/* ---- meta ---- */

static int lite_meta_set(rs_store *store, const char *key, int64_t value)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_META_SET);
    bind_text(s, 1, key);
    sqlite3_bind_int64(s, 2, value);
    return run(st, s, "set meta");
}

static int lite_meta_get(rs_store *store, const char *key, int64_t *value)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_META_GET);
    bind_text(s, 1, key);
    return one_int64(st, s, value, "read meta");
}

static int lite_meta_max(rs_store *store, const char *prefix, int64_t *value)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db,
                           "SELECT max(value) FROM meta WHERE substr(key, 1, length(?1)) = ?1", -1,
                           &s, NULL) != SQLITE_OK)
        return fail(st, "read meta");
    bind_text(s, 1, prefix);
    int rc = sqlite3_step(s);
    const bool found = rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL;
    if (found)
        *value = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW)
        return fail(st, "read meta");
    return found ? RS_STORE_OK : RS_STORE_NOTFOUND;
}

/* ---- the rows of the read models (store_read.c builds them) ---- */

/* The text of a column (NULL for NULL), as a row's field. */
static const char *text_column(sqlite3_stmt *s, int col)
{
    return (const char *)sqlite3_column_text(s, col);
}

static void lite_chat_rows(rs_store *store, int64_t game, int channel, int limit,
                           void (*row)(void *ctx, const rs_chat_row *line), void *ctx)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_CHAT_RECENT);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int(s, 2, limit);
    sqlite3_bind_int(s, 3, channel);
    while (sqlite3_step(s) == SQLITE_ROW)
        row(ctx, &(rs_chat_row){text_column(s, 0), sqlite3_column_int64(s, 1), text_column(s, 2)});
    sqlite3_reset(s);
}

static void lite_finished_rows(rs_store *store, int64_t user, int limit, int64_t before,
                               void (*row)(void *ctx, const rs_finished_row *game), void *ctx)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_FINISHED);
    sqlite3_bind_int64(s, 1, before);
    sqlite3_bind_int64(s, 2, user);
    sqlite3_bind_int(s, 3, limit);
    while (sqlite3_step(s) == SQLITE_ROW)
        row(ctx, &(rs_finished_row){.id = sqlite3_column_int64(s, 0),
                                    .game = text_column(s, 1),
                                    .rated = sqlite3_column_int(s, 2) != 0,
                                    .ended_ms = sqlite3_column_int64(s, 3),
                                    .reason = text_column(s, 4),
                                    .result = text_column(s, 5)});
    sqlite3_reset(s);
}

static void lite_named_seat_rows(rs_store *store, int64_t game,
                                 void (*row)(void *ctx, const rs_named_seat_row *seat), void *ctx)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_SEATS_NAMED);
    sqlite3_bind_int64(s, 1, game);
    while (sqlite3_step(s) == SQLITE_ROW)
        row(ctx, &(rs_named_seat_row){.seat = sqlite3_column_int(s, 0),
                                      .kind = sqlite3_column_int(s, 1),
                                      .name = text_column(s, 2),
                                      .ai_level = text_column(s, 3),
                                      .score = sqlite3_column_double(s, 4)});
    sqlite3_reset(s);
}

static void lite_rating_rows(rs_store *store, int64_t user,
                             void (*row)(void *ctx, const rs_game_rating_row *rating), void *ctx)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_PROFILE_RATINGS);
    sqlite3_bind_int64(s, 1, user);
    while (sqlite3_step(s) == SQLITE_ROW)
        row(ctx, &(rs_game_rating_row){text_column(s, 0),
                                       {.rating = sqlite3_column_double(s, 1),
                                        .rd = sqlite3_column_double(s, 2),
                                        .vol = sqlite3_column_double(s, 3),
                                        .games = sqlite3_column_int64(s, 4)}});
    sqlite3_reset(s);
}

static void lite_rating_history_rows(rs_store *store, int64_t user,
                                     void (*row)(void *ctx, const rs_rating_history_row *entry),
                                     void *ctx)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_PROFILE_HISTORY);
    sqlite3_bind_int64(s, 1, user);
    while (sqlite3_step(s) == SQLITE_ROW)
        row(ctx, &(rs_rating_history_row){.game = text_column(s, 0),
                                          .game_id = sqlite3_column_int64(s, 1),
                                          .at_ms = sqlite3_column_int64(s, 2),
                                          .rating = sqlite3_column_double(s, 3),
                                          .rd = sqlite3_column_double(s, 4)});
    sqlite3_reset(s);
}

static void lite_vs_ai_rows(rs_store *store, int64_t user,
                            void (*row)(void *ctx, const rs_vs_ai_row *results), void *ctx)
{
    sqlite_store *st = (sqlite_store *)store;
    sqlite3_stmt *s = use(st, STMT_PROFILE_VS_AI);
    sqlite3_bind_int64(s, 1, user);
    while (sqlite3_step(s) == SQLITE_ROW)
        row(ctx, &(rs_vs_ai_row){.game = text_column(s, 0),
                                 .level = text_column(s, 1),
                                 .won = sqlite3_column_int64(s, 2),
                                 .lost = sqlite3_column_int64(s, 3),
                                 .drawn = sqlite3_column_int64(s, 4)});
    sqlite3_reset(s);
}

static const rs_store_ops SQLITE_OPS = {
    .close = lite_close,
    .error = lite_error,
    .unavailable = NULL, /* a file is never out of reach the way a database server is */
    .begin = lite_begin,
    .commit = lite_commit,
    .rollback = lite_rollback,
    .in_transaction = lite_in_transaction,
    .fail_commits = lite_fail_commits,
    .checkpoint = lite_checkpoint,
    .checkpoint_tail = lite_checkpoint_tail,
    .wal_frames = lite_wal_frames,
    .user_add = lite_user_add,
    .user_get = lite_user_get,
    .user_find = lite_user_find,
    .user_register = lite_user_register,
    .user_lookalike = lite_user_lookalike,
    .sweep_accounts = lite_sweep_accounts,
    .token_add = lite_token_add,
    .token_user = lite_token_user,
    .token_revoke = lite_token_revoke,
    .user_password = lite_user_password,
    .game_insert = lite_game_insert,
    .game_save = lite_game_save,
    .game_write = lite_game_write,
    .game_head = lite_game_head,
    .game_seats = lite_game_seats,
    .games_unfinished = lite_games_unfinished,
    .move_add = lite_move_add,
    .move_write = lite_move_write,
    .moves_since = lite_moves_since,
    .moves_truncate = lite_moves_truncate,
    .record_put = lite_record_put,
    .record_get = lite_record_get,
    .review_put = lite_review_put,
    .review_get = lite_review_get,
    .rematch_find = lite_rematch_find,
    .chat_add = lite_chat_add,
    .rating_get = lite_rating_get,
    .rating_put = lite_rating_put,
    .meta_set = lite_meta_set,
    .meta_get = lite_meta_get,
    .meta_max = lite_meta_max,
    .chat_rows = lite_chat_rows,
    .finished_rows = lite_finished_rows,
    .named_seat_rows = lite_named_seat_rows,
    .rating_rows = lite_rating_rows,
    .rating_history_rows = lite_rating_history_rows,
    .vs_ai_rows = lite_vs_ai_rows,
    .pool = &SQLITE_POOL_OPS,
    .challenge = &SQLITE_CHALLENGE_OPS,
    .tour = &SQLITE_TOUR_OPS,
    .shared = NULL, /* one server alone on the file: store.c answers for it */
};
