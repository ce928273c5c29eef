/* store_sqlite.c — the storage interface (store.h) over SQLite: WAL with synchronous=NORMAL
 * (a commit survives the process being killed; see docs/server.md), one writer connection
 * owned by the service thread with every statement prepared once and rebound per use, and a
 * second connection only for passive checkpoints on a worker thread. Given a postgres://
 * address instead, rs_store_open opens store_pg.c and every call here forwards to it. */
#include "store.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "store_pg.h"

#define SCHEMA_VERSION 1

static const char SCHEMA[] =
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
    "CREATE TABLE IF NOT EXISTS ratings(user_id INTEGER NOT NULL, game TEXT NOT NULL,"
    " rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL, games INTEGER NOT NULL,"
    " PRIMARY KEY(user_id, game));"
    "CREATE TABLE IF NOT EXISTS rating_history(id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL,"
    " game TEXT NOT NULL, game_id INTEGER NOT NULL, at_ms INTEGER NOT NULL,"
    " rating REAL NOT NULL, rd REAL NOT NULL);"
    "CREATE INDEX IF NOT EXISTS rating_history_user ON rating_history(user_id, id);";

/* Every statement, prepared once at open. */
#define STATEMENTS(X)                                                                              \
    X(BEGIN, "BEGIN IMMEDIATE")                                                                    \
    X(COMMIT, "COMMIT")                                                                            \
    X(ROLLBACK, "ROLLBACK")                                                                        \
    X(USER_ADD, "INSERT INTO users(name, name_key, guest, pwhash, created_ms)"                     \
                " VALUES(?1, ?2, ?3, '', ?4)")                                                     \
    X(USER_GET, "SELECT id, name, guest, pwhash, created_ms FROM users WHERE id = ?1")             \
    X(USER_FIND, "SELECT id, name, guest, pwhash, created_ms FROM users WHERE name_key = ?1")      \
    X(USER_REGISTER, "UPDATE users SET name = ?2, name_key = ?3, guest = 0, pwhash = ?4"           \
                     " WHERE id = ?1")                                                             \
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
    X(CHAT_ADD, "INSERT INTO chat(game_id, user_id, at_ms, text) VALUES(?1, ?2, ?3, ?4)")          \
    X(CHAT_RECENT, "SELECT u.name, c.at_ms, c.text FROM (SELECT * FROM chat WHERE"                 \
                   " game_id = ?1 ORDER BY id DESC LIMIT ?2) c JOIN users u ON"                    \
                   " u.id = c.user_id ORDER BY c.id")                                              \
    X(RATING_GET, "SELECT rating, rd, vol, games FROM ratings WHERE user_id = ?1"                  \
                  " AND game = ?2")                                                                \
    X(RATING_PUT, "INSERT OR REPLACE INTO ratings(user_id, game, rating, rd, vol, games)"          \
                  " VALUES(?1, ?2, ?3, ?4, ?5, ?6)")                                               \
    X(RATING_HISTORY_ADD, "INSERT INTO rating_history(user_id, game, game_id, at_ms, rating,"      \
                          " rd) VALUES(?1, ?2, ?3, ?4, ?5, ?6)")                                   \
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

struct rs_store {
    rs_pg *pg; /* a PostgreSQL address was given: every call goes there (store_pg.c) */
    sqlite3 *db;
    sqlite3 *checkpoint_db; /* NULL in memory */
    sqlite3_stmt *stmt[NUM_STATEMENTS];
    bool in_transaction;
    bool doomed; /* a write failed inside the transaction: the commit must not happen */
    int fail_commits;
    int wal_frames; /* in the WAL after the last commit (sqlite3_wal_hook) */
    char error[256];
};

/* After each commit: how long the WAL has grown, so a checkpoint is asked for in time. */
static int note_wal(void *ctx, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    ((rs_store *)ctx)->wal_frames = frames;
    return SQLITE_OK;
}

static int fail(rs_store *st, const char *what)
{
    if (st->in_transaction)
        st->doomed = true;
    snprintf(st->error, sizeof st->error, "%s: %s", what, sqlite3_errmsg(st->db));
    return RS_STORE_ERROR;
}

const char *rs_store_error(const rs_store *st)
{
    if (st->pg)
        return rs_pg_error(st->pg);
    return st->error;
}

/* The statement, reset and unbound, ready for new parameters. */
static sqlite3_stmt *use(rs_store *st, int which)
{
    sqlite3_stmt *s = st->stmt[which];
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return s;
}

/* Run a statement that returns no rows. */
static int run(rs_store *st, sqlite3_stmt *s, const char *what)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc == SQLITE_CONSTRAINT) /* a refused write, not a failed one: the caller decides */
        return RS_STORE_CONFLICT;
    return rc == SQLITE_DONE ? RS_STORE_OK : fail(st, what);
}

/* The outcome of a statement that returns at most one row, stepped (rc) and reset. */
static int row_result(rs_store *st, int rc, const char *what)
{
    if (rc == SQLITE_ROW)
        return RS_STORE_OK;
    return rc == SQLITE_DONE ? RS_STORE_NOTFOUND : fail(st, what);
}

/* Run a statement returning one integer (column 0) into *out. */
static int one_int64(rs_store *st, sqlite3_stmt *s, int64_t *out, const char *what)
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

static void name_key(const char *name, char out[RS_NAME_MAX + 1])
{
    size_t i = 0;
    for (; name[i] && i < RS_NAME_MAX; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = '\0';
}

bool rs_store_unavailable(const rs_store *st)
{
    return st->pg && rs_pg_unavailable(st->pg);
}

int rs_store_open(rs_store **out, const char *path, char *err, size_t err_size)
{
    *out = NULL;
    rs_store *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, err_size, "out of memory");
        return RS_STORE_ERROR;
    }
    if (rs_pg_is_address(path)) {
        if (rs_pg_open(&st->pg, path, err, err_size) != RS_STORE_OK) {
            free(st);
            return RS_STORE_ERROR;
        }
        *out = st;
        return RS_STORE_OK;
    }
    if (strncmp(path, "sqlite:", 7) == 0) /* the explicit form of --store */
        path += 7;
    const bool memory = strcmp(path, ":memory:") == 0;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, err_size, "cannot open %s: %s", path,
                 st->db ? sqlite3_errmsg(st->db) : "out of memory");
        rs_store_close(st);
        return RS_STORE_ERROR;
    }
    sqlite3_busy_timeout(st->db, 5000);
    const char *setup = memory ? "PRAGMA foreign_keys=ON;"
                               : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                                 " PRAGMA foreign_keys=ON; PRAGMA wal_autocheckpoint=0;"
                                 " PRAGMA journal_size_limit=67108864;";
    char *msg = NULL;
    if (sqlite3_exec(st->db, setup, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(st->db, SCHEMA, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, err_size, "cannot set up %s: %s", path, msg ? msg : "?");
        sqlite3_free(msg);
        rs_store_close(st);
        return RS_STORE_ERROR;
    }
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d;", SCHEMA_VERSION);
    sqlite3_exec(st->db, pragma, NULL, NULL, NULL);
    for (int i = 0; i < NUM_STATEMENTS; i++) {
        if (sqlite3_prepare_v3(st->db, STATEMENT_SQL[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &st->stmt[i], NULL) != SQLITE_OK) {
            snprintf(err, err_size, "cannot prepare statement %d: %s", i, sqlite3_errmsg(st->db));
            rs_store_close(st);
            return RS_STORE_ERROR;
        }
    }
    if (!memory &&
        sqlite3_open_v2(path, &st->checkpoint_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX,
                        NULL) == SQLITE_OK)
        sqlite3_busy_timeout(st->checkpoint_db, 1000);
    if (!memory)
        sqlite3_wal_hook(st->db, note_wal, st);
    *out = st;
    return RS_STORE_OK;
}

long long rs_store_sqlite_heap_bytes(void)
{
    return (long long)sqlite3_memory_used();
}

void rs_store_close(rs_store *st)
{
    if (!st)
        return;
    rs_pg_close(st->pg);
    st->pg = NULL;
    if (st->in_transaction)
        rs_store_rollback(st);
    for (int i = 0; i < NUM_STATEMENTS; i++)
        sqlite3_finalize(st->stmt[i]);
    if (st->checkpoint_db) {
        sqlite3_wal_checkpoint_v2(st->checkpoint_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        sqlite3_close(st->checkpoint_db);
    }
    sqlite3_close(st->db);
    free(st);
}

int rs_store_begin(rs_store *st)
{
    if (st->pg)
        return rs_pg_begin(st->pg);
    if (st->in_transaction)
        return RS_STORE_OK;
    int rc = run(st, use(st, STMT_BEGIN), "begin");
    if (rc == RS_STORE_OK)
        st->in_transaction = true;
    return rc;
}

int rs_store_commit(rs_store *st)
{
    if (st->pg)
        return rs_pg_commit(st->pg);
    if (!st->in_transaction)
        return RS_STORE_OK;
    if (st->doomed) {
        rs_store_rollback(st);
        return RS_STORE_ERROR;
    }
    if (st->fail_commits > 0) {
        st->fail_commits--;
        snprintf(st->error, sizeof st->error, "commit: failure injected by a test");
        rs_store_rollback(st);
        return RS_STORE_ERROR;
    }
    int rc = run(st, use(st, STMT_COMMIT), "commit");
    if (rc != RS_STORE_OK) {
        rs_store_rollback(st);
        return RS_STORE_ERROR;
    }
    st->in_transaction = false;
    return RS_STORE_OK;
}

void rs_store_rollback(rs_store *st)
{
    if (st->pg) {
        rs_pg_rollback(st->pg);
        return;
    }
    if (!st->in_transaction)
        return;
    sqlite3_stmt *s = use(st, STMT_ROLLBACK);
    sqlite3_step(s);
    sqlite3_reset(s);
    st->in_transaction = false;
    st->doomed = false;
}

bool rs_store_in_transaction(const rs_store *st)
{
    if (st->pg)
        return rs_pg_in_transaction(st->pg);
    return st->in_transaction;
}

void rs_store_fail_commits(rs_store *st, int n)
{
    if (st->pg) {
        rs_pg_fail_commits(st->pg, n);
        return;
    }
    st->fail_commits = n;
}

int rs_store_checkpoint_tail(rs_store *st)
{
    if (!st->checkpoint_db || st->in_transaction)
        return RS_STORE_OK;
    int rc = sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return rc == SQLITE_OK || rc == SQLITE_BUSY ? RS_STORE_OK : RS_STORE_ERROR;
}

int rs_store_wal_frames(const rs_store *st)
{
    return st->wal_frames;
}

int rs_store_checkpoint(rs_store *st)
{
    if (!st->checkpoint_db)
        return RS_STORE_OK;
    int rc =
        sqlite3_wal_checkpoint_v2(st->checkpoint_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return rc == SQLITE_OK || rc == SQLITE_BUSY ? RS_STORE_OK : RS_STORE_ERROR;
}

/* ---- users and tokens ---- */

int rs_store_user_add(rs_store *st, const char *name, bool guest, int64_t now_ms, int64_t *id)
{
    if (st->pg)
        return rs_pg_user_add(st->pg, name, guest, now_ms, id);
    char key[RS_NAME_MAX + 1];
    name_key(name, key);
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

static int read_user(rs_store *st, sqlite3_stmt *s, rs_user *out)
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

int rs_store_user_get(rs_store *st, int64_t id, rs_user *out)
{
    if (st->pg)
        return rs_pg_user_get(st->pg, id, out);
    sqlite3_stmt *s = use(st, STMT_USER_GET);
    sqlite3_bind_int64(s, 1, id);
    return read_user(st, s, out);
}

int rs_store_user_find(rs_store *st, const char *name, rs_user *out)
{
    if (st->pg)
        return rs_pg_user_find(st->pg, name, out);
    char key[RS_NAME_MAX + 1];
    name_key(name, key);
    sqlite3_stmt *s = use(st, STMT_USER_FIND);
    bind_text(s, 1, key);
    return read_user(st, s, out);
}

int rs_store_user_register(rs_store *st, int64_t id, const char *name, const char *pwhash)
{
    if (st->pg)
        return rs_pg_user_register(st->pg, id, name, pwhash);
    char key[RS_NAME_MAX + 1];
    name_key(name, key);
    sqlite3_stmt *s = use(st, STMT_USER_REGISTER);
    sqlite3_bind_int64(s, 1, id);
    bind_text(s, 2, name);
    bind_text(s, 3, key);
    bind_text(s, 4, pwhash);
    return run(st, s, "register user");
}

int rs_store_token_add(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t user,
                       int64_t now_ms, int64_t expires_ms)
{
    if (st->pg)
        return rs_pg_token_add(st->pg, hash, user, now_ms, expires_ms);
    sqlite3_stmt *s = use(st, STMT_TOKEN_ADD);
    sqlite3_bind_blob(s, 1, hash, RS_TOKEN_HASH, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 2, user);
    sqlite3_bind_int64(s, 3, now_ms);
    sqlite3_bind_int64(s, 4, expires_ms);
    return run(st, s, "add token");
}

int rs_store_token_user(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t now_ms,
                        int64_t *user, bool *expired)
{
    if (st->pg)
        return rs_pg_token_user(st->pg, hash, now_ms, user, expired);
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

int rs_store_token_revoke(rs_store *st, const uint8_t hash[RS_TOKEN_HASH])
{
    if (st->pg)
        return rs_pg_token_revoke(st->pg, hash);
    sqlite3_stmt *s = use(st, STMT_TOKEN_REVOKE);
    sqlite3_bind_blob(s, 1, hash, RS_TOKEN_HASH, SQLITE_TRANSIENT);
    return run(st, s, "revoke token");
}

int rs_store_user_password(rs_store *st, int64_t id, const char *pwhash,
                           const uint8_t keep[RS_TOKEN_HASH])
{
    static const uint8_t none[RS_TOKEN_HASH] = {0}; /* no token hashes to all zeros */
    if (st->pg)
        return rs_pg_user_password(st->pg, id, pwhash, keep ? keep : none);
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
    sqlite3_bind_blob(s, 2, keep ? keep : none, RS_TOKEN_HASH, SQLITE_TRANSIENT);
    return run(st, s, "revoke the other tokens");
}

/* ---- games ---- */

static void remaining_text(const rs_game_row *row, char *buf, size_t size)
{
    int n = 0;
    buf[0] = '\0';
    for (int i = 0; i < row->seats && i < RP_MAX_PLAYERS && (size_t)n < size; i++)
        n += snprintf(buf + n, size - (size_t)n, "%s%lld", i ? " " : "",
                      (long long)row->remaining_ms[i]);
}

static void bind_game(sqlite3_stmt *s, const rs_game_row *row)
{
    char remaining[RP_MAX_PLAYERS * 24];
    remaining_text(row, remaining, sizeof remaining);
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

static int save_seats(rs_store *st, const rs_game_row *row)
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

int rs_store_game_insert(rs_store *st, rs_game_row *row)
{
    if (st->pg)
        return rs_pg_game_insert(st->pg, row);
    sqlite3_stmt *s = use(st, STMT_GAME_INSERT);
    bind_game(s, row);
    int rc = run(st, s, "insert game");
    if (rc != RS_STORE_OK)
        return rc;
    row->id = sqlite3_last_insert_rowid(st->db);
    return save_seats(st, row);
}

static int update_game(rs_store *st, const rs_game_row *row, bool seats)
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

int rs_store_game_save(rs_store *st, const rs_game_row *row)
{
    if (st->pg)
        return rs_pg_game_save(st->pg, row);
    return update_game(st, row, true);
}

int rs_store_game_write(rs_store *st, const rs_game_row *row, bool seats)
{
    if (st->pg)
        return rs_pg_game_write(st->pg, row, seats);
    const int rc = update_game(st, row, seats);
    if (rc == RS_STORE_NOTFOUND && st->in_transaction) /* as on PostgreSQL: no commit */
        st->doomed = true;
    return rc;
}

static void parse_remaining(const char *text, rs_game_row *row)
{
    for (int i = 0; i < RP_MAX_PLAYERS && *text; i++) {
        char *end;
        row->remaining_ms[i] = strtoll(text, &end, 10);
        if (end == text)
            break;
        text = end;
    }
}

static int read_seats(rs_store *st, rs_game_row *out)
{
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

int rs_store_game_get(rs_store *st, int64_t id, rs_game_row *out)
{
    if (st->pg)
        return rs_pg_game_get(st->pg, id, out);
    const int rc = rs_store_game_head(st, id, out);
    return rc == RS_STORE_OK ? read_seats(st, out) : rc;
}

int rs_store_game_head(rs_store *st, int64_t id, rs_game_row *out)
{
    if (st->pg)
        return rs_pg_game_head(st->pg, id, out);
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
        parse_remaining((const char *)sqlite3_column_text(s, 12), out);
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

int rs_store_games_unfinished(rs_store *st, int64_t **ids, size_t *n)
{
    if (st->pg)
        return rs_pg_games_unfinished(st->pg, ids, n);
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

int rs_store_move_add(rs_store *st, int64_t game, const rs_move_row *move)
{
    if (st->pg)
        return rs_pg_move_add(st->pg, game, move);
    sqlite3_stmt *s = use(st, STMT_MOVE_ADD);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int64(s, 2, move->ply);
    sqlite3_bind_int(s, 3, move->seat);
    sqlite3_bind_int64(s, 4, move->action);
    sqlite3_bind_int64(s, 5, move->v);
    sqlite3_bind_int64(s, 6, move->at_ms);
    return run(st, s, "add move");
}

int rs_store_move_write(rs_store *st, int64_t game, const rs_move_row *move)
{
    if (st->pg)
        return rs_pg_move_write(st->pg, game, move);
    const int rc = rs_store_move_add(st, game, move);
    if (rc == RS_STORE_CONFLICT && st->in_transaction) { /* as on PostgreSQL: no commit */
        st->doomed = true;
        snprintf(st->error, sizeof st->error, "add move: ply %lld of game %lld already stored",
                 (long long)move->ply, (long long)game);
    }
    return rc;
}

int rs_store_moves_get(rs_store *st, int64_t game, rs_move_row **moves, size_t *n)
{
    return rs_store_moves_since(st, game, 0, moves, n);
}

int rs_store_moves_since(rs_store *st, int64_t game, int64_t from_ply, rs_move_row **moves,
                         size_t *n)
{
    if (st->pg)
        return rs_pg_moves_since(st->pg, game, from_ply, moves, n);
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

int rs_store_moves_truncate(rs_store *st, int64_t game, int64_t from_ply)
{
    if (st->pg)
        return rs_pg_moves_truncate(st->pg, game, from_ply);
    sqlite3_stmt *s = use(st, STMT_MOVES_TRUNCATE);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int64(s, 2, from_ply);
    return run(st, s, "truncate moves");
}

int rs_store_record_put(rs_store *st, int64_t game, const char *record)
{
    if (st->pg)
        return rs_pg_record_put(st->pg, game, record);
    sqlite3_stmt *s = use(st, STMT_RECORD_PUT);
    sqlite3_bind_int64(s, 1, game);
    bind_text(s, 2, record);
    return run(st, s, "store record");
}

int rs_store_record_get(rs_store *st, int64_t game, char **record)
{
    if (st->pg)
        return rs_pg_record_get(st->pg, game, record);
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

int rs_store_rematch_find(rs_store *st, int64_t game, int64_t *rematch)
{
    if (st->pg)
        return rs_pg_rematch_find(st->pg, game, rematch);
    sqlite3_stmt *s = use(st, STMT_REMATCH_FIND);
    sqlite3_bind_int64(s, 1, game);
    return one_int64(st, s, rematch, "find rematch");
}

/* ---- chat ---- */

int rs_store_chat_add(rs_store *st, int64_t game, int64_t user, int64_t at_ms, const char *text)
{
    if (st->pg)
        return rs_pg_chat_add(st->pg, game, user, at_ms, text);
    sqlite3_stmt *s = use(st, STMT_CHAT_ADD);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int64(s, 2, user);
    sqlite3_bind_int64(s, 3, at_ms);
    bind_text(s, 4, text);
    return run(st, s, "add chat");
}

cJSON *rs_store_chat_json(rs_store *st, int64_t game, int limit)
{
    if (st->pg)
        return rs_pg_chat_json(st->pg, game, limit);
    cJSON *lines = cJSON_CreateArray();
    sqlite3_stmt *s = use(st, STMT_CHAT_RECENT);
    sqlite3_bind_int64(s, 1, game);
    sqlite3_bind_int(s, 2, limit);
    while (sqlite3_step(s) == SQLITE_ROW) {
        cJSON *line = cJSON_CreateObject();
        cJSON_AddStringToObject(line, "from", (const char *)sqlite3_column_text(s, 0));
        cJSON_AddNumberToObject(line, "at", (double)sqlite3_column_int64(s, 1));
        cJSON_AddStringToObject(line, "text", (const char *)sqlite3_column_text(s, 2));
        cJSON_AddItemToArray(lines, line);
    }
    sqlite3_reset(s);
    return lines;
}

/* ---- ratings ---- */

int rs_store_rating_get(rs_store *st, int64_t user, const char *game, rs_rating_row *out)
{
    if (st->pg)
        return rs_pg_rating_get(st->pg, user, game, out);
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

int rs_store_rating_put(rs_store *st, int64_t user, const char *game, const rs_rating_row *r,
                        int64_t game_id, int64_t at_ms)
{
    if (st->pg)
        return rs_pg_rating_put(st->pg, user, game, r, game_id, at_ms);
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

/* ---- meta ---- */

int rs_store_meta_set(rs_store *st, const char *key, int64_t value)
{
    if (st->pg)
        return rs_pg_meta_set(st->pg, key, value);
    sqlite3_stmt *s = use(st, STMT_META_SET);
    bind_text(s, 1, key);
    sqlite3_bind_int64(s, 2, value);
    return run(st, s, "set meta");
}

int rs_store_meta_get(rs_store *st, const char *key, int64_t *value)
{
    if (st->pg)
        return rs_pg_meta_get(st->pg, key, value);
    sqlite3_stmt *s = use(st, STMT_META_GET);
    bind_text(s, 1, key);
    return one_int64(st, s, value, "read meta");
}

int rs_store_meta_max(rs_store *st, const char *prefix, int64_t *value)
{
    if (st->pg)
        return rs_pg_meta_max(st->pg, prefix, value);
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

/* ---- several servers on one database: PostgreSQL only; one SQLite file has one server,
 * which holds every row and every lease itself ---- */

bool rs_store_shared(const rs_store *st)
{
    return st->pg != NULL;
}

int rs_store_game_lock(rs_store *st, int64_t id, rs_game_lock *out)
{
    if (st->pg)
        return rs_pg_game_lock(st->pg, id, out);
    memset(out, 0, sizeof *out);
    rs_game_row row;
    int rc = rs_store_game_get(st, id, &row);
    out->v = row.v;
    return rc;
}

int rs_store_game_version(rs_store *st, int64_t id, int64_t *v)
{
    if (st->pg)
        return rs_pg_game_version(st->pg, id, v);
    rs_game_row row;
    int rc = rs_store_game_get(st, id, &row);
    *v = row.v;
    return rc;
}

int rs_store_lease_take(rs_store *st, int64_t id, const char *node, int64_t lease_ms,
                        int64_t *token)
{
    if (st->pg)
        return rs_pg_lease_take(st->pg, id, node, lease_ms, token);
    *token = 1;
    return RS_STORE_OK;
}

int rs_store_lease_fence(rs_store *st, int64_t id, const char *node, int64_t token,
                         int64_t lease_ms)
{
    if (st->pg)
        return rs_pg_lease_fence(st->pg, id, node, token, lease_ms);
    return RS_STORE_OK;
}

int rs_store_leases_renew(rs_store *st, const char *node, int64_t lease_ms)
{
    if (st->pg)
        return rs_pg_leases_renew(st->pg, node, lease_ms);
    return RS_STORE_OK;
}

int rs_store_games_unleased(rs_store *st, int64_t lease_ms, bool all, int limit,
                            rs_unleased_row **rows, size_t *n)
{
    if (st->pg)
        return rs_pg_games_unleased(st->pg, lease_ms, all, limit, rows, n);
    *rows = NULL;
    *n = 0;
    return RS_STORE_OK;
}

int rs_store_node_alive(rs_store *st, const char *node, int64_t lease_ms)
{
    return st->pg ? rs_pg_node_alive(st->pg, node, lease_ms) : RS_STORE_OK;
}

int rs_store_node_gone(rs_store *st, const char *node)
{
    return st->pg ? rs_pg_node_gone(st->pg, node) : RS_STORE_OK;
}

int rs_store_presence_put(rs_store *st, const char *node, int64_t user, int64_t game, bool present)
{
    return st->pg ? rs_pg_presence_put(st->pg, node, user, game, present) : RS_STORE_OK;
}

int rs_store_presence_elsewhere(rs_store *st, const char *node, int64_t game,
                                rs_presence_row **rows, size_t *n)
{
    if (st->pg)
        return rs_pg_presence_elsewhere(st->pg, node, game, rows, n);
    *rows = NULL;
    *n = 0;
    return RS_STORE_OK;
}

int rs_store_user_elsewhere(rs_store *st, const char *node, int64_t user, bool *online)
{
    if (st->pg)
        return rs_pg_user_elsewhere(st->pg, node, user, online);
    *online = false;
    return RS_STORE_OK;
}

int rs_store_nodes_live(rs_store *st, char **names)
{
    if (st->pg)
        return rs_pg_nodes_live(st->pg, names);
    *names = strdup("");
    return *names ? RS_STORE_OK : RS_STORE_ERROR;
}

int rs_store_announce(rs_store *st, const char *text)
{
    if (st->pg)
        return rs_pg_announce(st->pg, text);
    return RS_STORE_OK;
}

int rs_store_announcements(rs_store *st, void (*got)(void *ctx, const char *line), void *ctx)
{
    if (st->pg)
        return rs_pg_announcements(st->pg, got, ctx);
    return 0;
}

int rs_store_listen_fd(const rs_store *st)
{
    return st->pg ? rs_pg_listen_fd(st->pg) : -1;
}

/* ---- read models ---- */

static const char *seat_kind_word(int kind)
{
    static const char *const words[] = {"open", "invite", "reserved", "ai", "human"};
    return kind >= 0 && kind <= RS_SEAT_HUMAN ? words[kind] : "?";
}

static cJSON *seats_json(rs_store *st, int64_t game)
{
    cJSON *seats = cJSON_CreateArray();
    sqlite3_stmt *s = use(st, STMT_SEATS_NAMED);
    sqlite3_bind_int64(s, 1, game);
    while (sqlite3_step(s) == SQLITE_ROW) {
        cJSON *seat = cJSON_CreateObject();
        int kind = sqlite3_column_int(s, 1);
        cJSON_AddNumberToObject(seat, "seat", sqlite3_column_int(s, 0));
        cJSON_AddStringToObject(seat, "kind", seat_kind_word(kind));
        if (kind == RS_SEAT_HUMAN && sqlite3_column_text(s, 2))
            cJSON_AddStringToObject(seat, "name", (const char *)sqlite3_column_text(s, 2));
        if (kind == RS_SEAT_AI)
            cJSON_AddStringToObject(seat, "level", (const char *)sqlite3_column_text(s, 3));
        cJSON_AddNumberToObject(seat, "score", sqlite3_column_double(s, 4));
        cJSON_AddItemToArray(seats, seat);
    }
    sqlite3_reset(s);
    return seats;
}

cJSON *rs_store_finished_json(rs_store *st, int64_t user, int limit, int64_t before)
{
    if (st->pg)
        return rs_pg_finished_json(st->pg, user, limit, before);
    cJSON *games = cJSON_CreateArray();
    /* Collect the ids first: seats_json reuses statements while this one is open. */
    int64_t ids[200];
    int n = 0;
    sqlite3_stmt *s = use(st, STMT_FINISHED);
    sqlite3_bind_int64(s, 1, before);
    sqlite3_bind_int64(s, 2, user);
    sqlite3_bind_int(s, 3, limit > 200 ? 200 : limit);
    while (sqlite3_step(s) == SQLITE_ROW && n < 200) {
        cJSON *g = cJSON_CreateObject();
        ids[n++] = sqlite3_column_int64(s, 0);
        cJSON_AddNumberToObject(g, "id", (double)sqlite3_column_int64(s, 0));
        cJSON_AddStringToObject(g, "game", (const char *)sqlite3_column_text(s, 1));
        cJSON_AddBoolToObject(g, "rated", sqlite3_column_int(s, 2));
        cJSON_AddNumberToObject(g, "ended_ms", (double)sqlite3_column_int64(s, 3));
        cJSON_AddStringToObject(g, "reason", (const char *)sqlite3_column_text(s, 4));
        cJSON_AddStringToObject(g, "result", (const char *)sqlite3_column_text(s, 5));
        cJSON_AddItemToArray(games, g);
    }
    sqlite3_reset(s);
    for (int i = 0; i < n; i++)
        cJSON_AddItemToObject(cJSON_GetArrayItem(games, i), "seats", seats_json(st, ids[i]));
    return games;
}

cJSON *rs_store_profile_json(rs_store *st, const rs_user *user)
{
    if (st->pg)
        return rs_pg_profile_json(st->pg, user);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "name", user->name);
    cJSON_AddBoolToObject(p, "guest", user->guest);
    cJSON_AddNumberToObject(p, "created_ms", (double)user->created_ms);
    cJSON *ratings = cJSON_AddObjectToObject(p, "ratings");
    sqlite3_stmt *s = use(st, STMT_PROFILE_RATINGS);
    sqlite3_bind_int64(s, 1, user->id);
    while (sqlite3_step(s) == SQLITE_ROW) {
        cJSON *r = cJSON_AddObjectToObject(ratings, (const char *)sqlite3_column_text(s, 0));
        cJSON_AddNumberToObject(r, "rating", sqlite3_column_double(s, 1));
        cJSON_AddNumberToObject(r, "rd", sqlite3_column_double(s, 2));
        cJSON_AddNumberToObject(r, "vol", sqlite3_column_double(s, 3));
        cJSON_AddNumberToObject(r, "games", (double)sqlite3_column_int64(s, 4));
    }
    sqlite3_reset(s);
    cJSON *history = cJSON_AddArrayToObject(p, "rating_history");
    s = use(st, STMT_PROFILE_HISTORY);
    sqlite3_bind_int64(s, 1, user->id);
    while (sqlite3_step(s) == SQLITE_ROW) {
        cJSON *h = cJSON_CreateObject();
        cJSON_AddStringToObject(h, "game", (const char *)sqlite3_column_text(s, 0));
        cJSON_AddNumberToObject(h, "id", (double)sqlite3_column_int64(s, 1));
        cJSON_AddNumberToObject(h, "at_ms", (double)sqlite3_column_int64(s, 2));
        cJSON_AddNumberToObject(h, "rating", sqlite3_column_double(s, 3));
        cJSON_AddNumberToObject(h, "rd", sqlite3_column_double(s, 4));
        cJSON_AddItemToArray(history, h);
    }
    sqlite3_reset(s);
    cJSON *vs_ai = cJSON_AddObjectToObject(p, "vs_ai");
    s = use(st, STMT_PROFILE_VS_AI);
    sqlite3_bind_int64(s, 1, user->id);
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *game = (const char *)sqlite3_column_text(s, 0);
        cJSON *per_game = cJSON_GetObjectItemCaseSensitive(vs_ai, game);
        if (!per_game)
            per_game = cJSON_AddObjectToObject(vs_ai, game);
        cJSON *r = cJSON_AddObjectToObject(per_game, (const char *)sqlite3_column_text(s, 1));
        cJSON_AddNumberToObject(r, "won", (double)sqlite3_column_int64(s, 2));
        cJSON_AddNumberToObject(r, "lost", (double)sqlite3_column_int64(s, 3));
        cJSON_AddNumberToObject(r, "drawn", (double)sqlite3_column_int64(s, 4));
    }
    sqlite3_reset(s);
    cJSON_AddItemToObject(p, "games", rs_store_finished_json(st, user->id, 50, 0));
    return p;
}
