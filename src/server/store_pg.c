/* store_pg.c — the storage interface (store.h) over PostgreSQL through libpq, one backend of
 * the table in store_backend.h, for servers that share one database (docs/cluster.md): one
 * connection owned by the service thread, every value a bound parameter, one transaction per
 * loop iteration committed (synchronous_commit on: flushed to the server's disk) before
 * anything is acknowledged. Writes whose outcome nobody waits for (BEGIN, a move, a game's
 * row, the announcements) are queued and sent in one round trip with the next statement that
 * returns something, or with the COMMIT (libpq's pipeline mode), each as a statement prepared
 * once per connection. While the server cannot be reached every call fails with an error
 * naming it "unavailable", and a transaction's begin reconnects, at most every
 * RECONNECT_EVERY_MS. */
#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grow.h"
#include "store_backend.h"
#include "store_pg.h"

#define RECONNECT_EVERY_MS 500
#define MAX_PARAMS 24
#define QUEUE_MAX 256 /* queued statements are sent at the latest when this many wait */

/* The same tables as store_sqlite.c, in PostgreSQL's types; seeds and actions keep their
 * bits in a BIGINT. Version 1 of the schema: the tables as they were before versions were
 * kept, every statement IF NOT EXISTS so that a database made then takes it as it is. */
static const char SCHEMA_V1[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS users(id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL,"
    " name_key TEXT NOT NULL UNIQUE, guest BOOLEAN NOT NULL, pwhash TEXT NOT NULL,"
    " created_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tokens(hash BYTEA PRIMARY KEY, user_id BIGINT NOT NULL"
    " REFERENCES users(id), created_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS games(id BIGSERIAL PRIMARY KEY, game TEXT NOT NULL,"
    " options TEXT NOT NULL, seed BIGINT NOT NULL, status INTEGER NOT NULL,"
    " rated BOOLEAN NOT NULL, clock_kind INTEGER NOT NULL, initial_ms BIGINT NOT NULL,"
    " increment_ms BIGINT NOT NULL, per_move_ms BIGINT NOT NULL, seats INTEGER NOT NULL,"
    " v BIGINT NOT NULL, remaining TEXT NOT NULL, running INTEGER NOT NULL,"
    " turn_wall_ms BIGINT NOT NULL, created_ms BIGINT NOT NULL, started_ms BIGINT NOT NULL,"
    " ended_ms BIGINT NOT NULL, creator BIGINT NOT NULL, rematch_of BIGINT NOT NULL,"
    " end_reason TEXT NOT NULL, result_text TEXT NOT NULL, record TEXT);"
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, id);"
    "CREATE INDEX IF NOT EXISTS games_rematch ON games(rematch_of);"
    "CREATE TABLE IF NOT EXISTS seats(game_id BIGINT NOT NULL REFERENCES games(id),"
    " seat INTEGER NOT NULL, kind INTEGER NOT NULL, user_id BIGINT NOT NULL,"
    " ai_level TEXT NOT NULL, invite TEXT NOT NULL, score DOUBLE PRECISION NOT NULL,"
    " PRIMARY KEY(game_id, seat));"
    "CREATE INDEX IF NOT EXISTS seats_user ON seats(user_id, game_id);"
    "CREATE TABLE IF NOT EXISTS moves(game_id BIGINT NOT NULL, ply BIGINT NOT NULL,"
    " seat INTEGER NOT NULL, action BIGINT NOT NULL, v BIGINT NOT NULL,"
    " at_ms BIGINT NOT NULL, PRIMARY KEY(game_id, ply));"
    "CREATE TABLE IF NOT EXISTS chat(id BIGSERIAL PRIMARY KEY, game_id BIGINT NOT NULL,"
    " user_id BIGINT NOT NULL, at_ms BIGINT NOT NULL, text TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS chat_game ON chat(game_id, id);"
    "CREATE TABLE IF NOT EXISTS reviews(game_id BIGINT NOT NULL, seat INTEGER NOT NULL,"
    " review TEXT NOT NULL, PRIMARY KEY(game_id, seat));"
    "CREATE TABLE IF NOT EXISTS ratings(user_id BIGINT NOT NULL, game TEXT NOT NULL,"
    " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
    " vol DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL, PRIMARY KEY(user_id, game));"
    "CREATE TABLE IF NOT EXISTS rating_history(id BIGSERIAL PRIMARY KEY,"
    " user_id BIGINT NOT NULL, game TEXT NOT NULL, game_id BIGINT NOT NULL,"
    " at_ms BIGINT NOT NULL, rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL);"
    "CREATE INDEX IF NOT EXISTS rating_history_user ON rating_history(user_id, id);"
    /* "Play now": the seeks waiting (each on the server it was made on), and which guests
     * logged into which accounts. */
    "CREATE TABLE IF NOT EXISTS seeks(id BIGSERIAL PRIMARY KEY, user_id BIGINT NOT NULL,"
    " pool TEXT NOT NULL, game TEXT NOT NULL, players INTEGER NOT NULL,"
    " clock_kind INTEGER NOT NULL, initial_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL,"
    " per_move_ms BIGINT NOT NULL, rated BOOLEAN NOT NULL, since_ms BIGINT NOT NULL,"
    " rating DOUBLE PRECISION NOT NULL, linked TEXT NOT NULL, node TEXT NOT NULL,"
    " UNIQUE(user_id, pool));"
    "CREATE TABLE IF NOT EXISTS links(id BIGSERIAL PRIMARY KEY, guest_id BIGINT NOT NULL,"
    " account_id BIGINT NOT NULL, UNIQUE(guest_id, account_id));"
    "CREATE INDEX IF NOT EXISTS links_account ON links(account_id);"
    /* Challenges to a named player, pending, and each user's setting that refuses them. */
    "CREATE TABLE IF NOT EXISTS challenges(id BIGSERIAL PRIMARY KEY, from_id BIGINT NOT NULL,"
    " to_id BIGINT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,"
    " clock_kind INTEGER NOT NULL, initial_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL,"
    " per_move_ms BIGINT NOT NULL, rated BOOLEAN NOT NULL, seat INTEGER NOT NULL,"
    " created_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS challenges_from ON challenges(from_id);"
    "CREATE INDEX IF NOT EXISTS challenges_to ON challenges(to_id);"
    "CREATE INDEX IF NOT EXISTS challenges_expires ON challenges(expires_ms);" /* the sweep */
    "CREATE TABLE IF NOT EXISTS user_settings(user_id BIGINT PRIMARY KEY,"
    " challenges BOOLEAN NOT NULL);"
    /* Leases of servers sharing the database (docs/cluster.md): who does a game's work that
     * must happen once, until when, and the fencing token raised at each take-over. */
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS owner TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS lease_token BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS lease_until TIMESTAMPTZ NOT NULL"
    " DEFAULT 'epoch';"
    /* Who is connected where: each server's sign of life (its rows count while it lasts)
     * and its users, connected (game 0) or watching a game they sit in. */
    "CREATE TABLE IF NOT EXISTS nodes(node TEXT PRIMARY KEY, alive_until TIMESTAMPTZ NOT NULL);"
    "CREATE TABLE IF NOT EXISTS presence(node TEXT NOT NULL, user_id BIGINT NOT NULL,"
    " game_id BIGINT NOT NULL, PRIMARY KEY(node, user_id, game_id));"
    "CREATE INDEX IF NOT EXISTS presence_game ON presence(game_id);"
    "CREATE INDEX IF NOT EXISTS presence_user ON presence(user_id);";

/* Version 3: tournaments (docs/tournaments.md), as store_sqlite.c's. */
static const char SCHEMA_V3[] =
    "CREATE TABLE IF NOT EXISTS tournaments(id BIGSERIAL PRIMARY KEY, creator BIGINT NOT NULL,"
    " name TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL, format INTEGER NOT NULL,"
    " rounds INTEGER NOT NULL, set_games INTEGER NOT NULL, table_size INTEGER NOT NULL,"
    " bye_points INTEGER NOT NULL, duration_ms BIGINT NOT NULL, rated BOOLEAN NOT NULL,"
    " clock_kind INTEGER NOT NULL, initial_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL,"
    " per_move_ms BIGINT NOT NULL, status INTEGER NOT NULL, round INTEGER NOT NULL,"
    " created_ms BIGINT NOT NULL, starts_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tournament_entries(tournament_id BIGINT NOT NULL,"
    " user_id BIGINT NOT NULL, rating DOUBLE PRECISION NOT NULL, active BOOLEAN NOT NULL,"
    " entered_ms BIGINT NOT NULL, PRIMARY KEY(tournament_id, user_id));"
    "CREATE TABLE IF NOT EXISTS tournament_pairings(tournament_id BIGINT NOT NULL,"
    " round INTEGER NOT NULL, board INTEGER NOT NULL, players TEXT NOT NULL,"
    " points TEXT NOT NULL, games_done INTEGER NOT NULL, game_id BIGINT NOT NULL,"
    " PRIMARY KEY(tournament_id, round, board));"
    "CREATE INDEX IF NOT EXISTS tournament_pairings_game ON tournament_pairings(game_id);";

/* A guest nothing refers to (RS_UNUSED_GUEST), nor connected to any server now. */
#define UNUSED_GUEST RS_UNUSED_GUEST " AND id NOT IN (SELECT user_id FROM presence)"

/* Each connection's settings. A row lock is never waited for long: the rows servers contend
 * for are taken with SKIP LOCKED, and anything else waits at most LOCK_TIMEOUT. A server
 * stopped inside a transaction (SIGSTOP, a hung machine) loses its session, and with it its
 * locks, after IDLE_TIMEOUT, so the others never wait for it longer than that. */
#define SESSION_SETTINGS                                                                           \
    "SET client_min_messages = warning; SET synchronous_commit = on;"                              \
    " SET lock_timeout = '500ms'; SET idle_in_transaction_session_timeout = '3s';"
/* The schema's migrations, version i + 1 at index i: a database records the version it is
 * at in schema_version, and the first server of a newer version runs each migration it lacks
 * once, at its start, never on a reconnection (DDL takes locks on tables the other servers
 * are writing: running it on every reconnection deadlocked them, issue 47). A new version
 * appends a migration; none is ever edited. */
/* Version 2 (issue 49, finding 7): each chat line's channel (rs_chat_channel): the players'
 * and the spectators' lines apart, and the game's chat switch. Lines said before it were the
 * players' and spectators' alike: they stay the players'. */
static const char SCHEMA_V2[] =
    "ALTER TABLE chat ADD COLUMN IF NOT EXISTS channel INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX IF NOT EXISTS chat_channel ON chat(game_id, channel, id);";
/* Version 4 (issue 49, finding 9): each registered name's confusable skeleton
 * (rs_name_skeleton), filled for the names registered before by the starting server
 * (fill_skeletons), so that a lookalike of a taken name is refused; tokens by expiry and user,
 * for the hourly sweep. */
static const char SCHEMA_V4[] = "ALTER TABLE users ADD COLUMN IF NOT EXISTS skeleton TEXT;"
                                "CREATE INDEX IF NOT EXISTS users_skeleton ON users(skeleton);"
                                "CREATE INDEX IF NOT EXISTS tokens_expires ON tokens(expires_ms);"
                                "CREATE INDEX IF NOT EXISTS tokens_user ON tokens(user_id);";

/* Version 5 (issue 44), as store_sqlite.c's: a tournament's house player, the computer at an
 * AI level ('' none); the entries by player, for a profile's tournaments. */
static const char SCHEMA_V5[] =
    "ALTER TABLE tournaments ADD COLUMN IF NOT EXISTS computer TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX IF NOT EXISTS tournament_entries_user ON tournament_entries(user_id);";

static const char *const MIGRATIONS[] = {SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5};
#define SCHEMA_VERSION ((int)(sizeof MIGRATIONS / sizeof MIGRATIONS[0]))
/* Servers starting together migrate one at a time: under this session-wide advisory lock,
 * the version read again once it is held. */
#define MIGRATION_LOCK "SELECT pg_advisory_lock(72657374)"
#define MIGRATION_UNLOCK "SELECT pg_advisory_unlock(72657374)"
#define CHANNEL "ramparts"

#define GAME_COLUMNS                                                                               \
    "game, options, seed, status, rated, clock_kind, initial_ms, increment_ms, per_move_ms,"       \
    " seats, v, remaining, running, turn_wall_ms, created_ms, started_ms, ended_ms, creator,"      \
    " rematch_of, end_reason, result_text"

/* A statement waiting in the queue: its parameters are copied into the queue's arena. */
typedef struct queued {
    const char *sql;
    int n;
    size_t at[MAX_PARAMS]; /* where each value starts in the arena */
    int length[MAX_PARAMS];
    int format[MAX_PARAMS];
    const char *what;
} queued;

/* A statement prepared on the connection under the name "rs<index>". */
typedef struct prepared {
    char *sql;
    bool ready; /* prepared on the current connection */
} prepared;

typedef struct rs_pg {
    rs_store base; /* its operations: PG_OPS */
    PGconn *conn;
    char *address;
    bool in_transaction;
    bool begun;       /* the transaction's BEGIN has been sent (it waits in the queue before) */
    bool doomed;      /* a write failed inside the transaction: the commit must not happen */
    bool unavailable; /* the last failure was the server out of reach */
    bool lost;        /* the connection failed: the next transaction opens a new one */
    bool unanswered;  /* the last round trip sent its statements, and the connection failed
                         before all their answers came: they may have run */
    bool wrote_move;  /* the transaction inserts a move (the test cut's target, below) */
    int fail_commits;
    int64_t next_reconnect_ms;
    PGconn *listener; /* LISTENs for the announcements of every server (NULL: not open) */
    int64_t next_listen_ms;
    queued *queue;
    size_t queue_count, queue_cap;
    char *arena; /* the queued statements' parameter values */
    size_t arena_len, arena_cap;
    prepared *statements;
    size_t statement_count, statement_cap;
    char error[256];
} rs_pg;

/* The parameters of one statement, all as text but for binary blobs. */
typedef struct params {
    int n;
    const char *value[MAX_PARAMS];
    int length[MAX_PARAMS];
    int format[MAX_PARAMS];
    char text[MAX_PARAMS][32];
} params;

static void p_int(params *p, int64_t v)
{
    snprintf(p->text[p->n], sizeof p->text[p->n], "%" PRId64, v);
    p->value[p->n] = p->text[p->n];
    p->format[p->n++] = 0;
}

static void p_real(params *p, double v)
{
    snprintf(p->text[p->n], sizeof p->text[p->n], "%.17g", v);
    p->value[p->n] = p->text[p->n];
    p->format[p->n++] = 0;
}

static void p_bool(params *p, bool v)
{
    p->value[p->n] = v ? "t" : "f";
    p->format[p->n++] = 0;
}

static void p_text(params *p, const char *text)
{
    p->value[p->n] = text;
    p->format[p->n++] = 0;
}

static void p_blob(params *p, const uint8_t *bytes, int size)
{
    p->value[p->n] = (const char *)bytes;
    p->length[p->n] = size;
    p->format[p->n++] = 1;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool connected(const rs_pg *pg)
{
    return pg->conn && !pg->lost && PQstatus(pg->conn) == CONNECTION_OK;
}

static int fail_text(rs_pg *pg, const char *what, const char *why)
{
    if (pg->in_transaction)
        pg->doomed = true;
    pg->unavailable = !connected(pg);
    snprintf(pg->error, sizeof pg->error, "%s: %s%s", what, pg->unavailable ? "unavailable: " : "",
             why);
    size_t len = strlen(pg->error);
    while (len > 0 && (pg->error[len - 1] == '\n' || pg->error[len - 1] == ' '))
        pg->error[--len] = '\0';
    return RS_STORE_ERROR;
}

static int fail(rs_pg *pg, const char *what)
{
    return fail_text(pg, what, pg->conn ? PQerrorMessage(pg->conn) : "no connection");
}

static const char *pg_error(const rs_store *store)
{
    return ((const rs_pg *)store)->error;
}

static bool pg_unavailable(const rs_store *store)
{
    const rs_pg *pg = (const rs_pg *)store;
    return pg->unavailable;
}

/* Connect (again): a fresh connection with its session's settings; the schema is migrated
 * once, at open, never here. Fails at once, without blocking the loop, within
 * RECONNECT_EVERY_MS of the last failed attempt. */
static int reconnect(rs_pg *pg, char *err, size_t err_size)
{
    int64_t now = now_ms();
    if (now < pg->next_reconnect_ms) {
        snprintf(err, err_size, "unavailable: PostgreSQL cannot be reached (retrying)");
        return RS_STORE_ERROR;
    }
    if (pg->conn)
        PQfinish(pg->conn);
    pg->conn = PQconnectdb(pg->address);
    pg->lost = false;
    for (size_t i = 0; i < pg->statement_count; i++) /* a new session has none prepared */
        pg->statements[i].ready = false;
    if (!connected(pg)) {
        pg->next_reconnect_ms = now + RECONNECT_EVERY_MS;
        snprintf(err, err_size, "unavailable: cannot connect to PostgreSQL: %s",
                 pg->conn ? PQerrorMessage(pg->conn) : "out of memory");
        return RS_STORE_ERROR;
    }
    PQclear(PQexec(pg->conn, SESSION_SETTINGS));
    return RS_STORE_OK;
}

/* ---- the schema's version ---- */

/* Runs sql; false with "what: PostgreSQL's reason" in err. */
static bool schema_exec(rs_pg *pg, const char *sql, const char *what, char *err, size_t err_size)
{
    PGresult *r = PQexec(pg->conn, sql);
    const ExecStatusType status = PQresultStatus(r);
    const bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    if (!ok)
        snprintf(err, err_size, "%s: %s", what, PQresultErrorMessage(r));
    PQclear(r);
    return ok;
}

/* The version the database's schema is at (0: made before versions were kept, or empty);
 * -1 with the reason in err. */
static int schema_version_of(rs_pg *pg, char *err, size_t err_size)
{
    PGresult *r = PQexec(pg->conn, "SELECT to_regclass('schema_version') IS NOT NULL");
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
        snprintf(err, err_size, "cannot read the schema's version: %s", PQresultErrorMessage(r));
        PQclear(r);
        return -1;
    }
    const bool kept = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (!kept)
        return 0;
    r = PQexec(pg->conn, "SELECT coalesce(max(version), 0) FROM schema_version");
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
        snprintf(err, err_size, "cannot read the schema's version: %s", PQresultErrorMessage(r));
        PQclear(r);
        return -1;
    }
    const int version = (int)strtol(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return version;
}

/* Migration to version `to` (from to - 1) in one transaction with its record in
 * schema_version. */
static bool migrate_to(rs_pg *pg, int to, char *err, size_t err_size)
{
    char what[64];
    snprintf(what, sizeof what, "cannot migrate the schema to version %d", to);
    char record[160];
    snprintf(record, sizeof record,
             "CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL);"
             " DELETE FROM schema_version; INSERT INTO schema_version VALUES(%d)",
             to);
    if (!schema_exec(pg, "BEGIN", what, err, err_size))
        return false;
    if (schema_exec(pg, MIGRATIONS[to - 1], what, err, err_size) &&
        schema_exec(pg, record, what, err, err_size) &&
        schema_exec(pg, "COMMIT", what, err, err_size))
        return true;
    PQclear(PQexec(pg->conn, "ROLLBACK"));
    return false;
}

/* Brings an older schema to this server's version, once, under the migration lock; refuses
 * a newer one. Nothing is locked when the schema is already at this version. */
static int migrate(rs_pg *pg, char *err, size_t err_size)
{
    int version = schema_version_of(pg, err, err_size);
    if (version == SCHEMA_VERSION)
        return RS_STORE_OK;
    if (version < 0 || !schema_exec(pg, MIGRATION_LOCK, "cannot lock the schema", err, err_size))
        return RS_STORE_ERROR;
    version = schema_version_of(pg, err, err_size); /* another server may have migrated it */
    bool ok = version >= 0;
    if (version > SCHEMA_VERSION) {
        snprintf(err, err_size,
                 "the database's schema is version %d, newer than this server's (%d): a newer "
                 "ramparts has migrated it; run that version",
                 version, SCHEMA_VERSION);
        ok = false;
    }
    for (int to = version + 1; ok && to <= SCHEMA_VERSION; to++)
        ok = migrate_to(pg, to, err, err_size);
    PQclear(PQexec(pg->conn, MIGRATION_UNLOCK));
    return ok ? RS_STORE_OK : RS_STORE_ERROR;
}

/* ---- the queue and the round trip ---- */

/* The index of sql among the statements prepared (or to prepare), added when new; -1 when
 * out of memory. A handful of texts, compared in full. */
static int statement_of(rs_pg *pg, const char *sql)
{
    for (size_t i = 0; i < pg->statement_count; i++)
        if (strcmp(pg->statements[i].sql, sql) == 0)
            return (int)i;
    char *copy = strdup(sql);
    if (!copy || !RS_GROW(pg->statements, pg->statement_count, pg->statement_cap, 32)) {
        free(copy);
        return -1;
    }
    pg->statements[pg->statement_count] = (prepared){copy, false};
    return (int)pg->statement_count++;
}

/* BEGIN, COMMIT and ROLLBACK go unnamed: only plannable statements can be prepared. */
static bool preparable(const char *sql)
{
    return strcmp(sql, "BEGIN") != 0 && strcmp(sql, "COMMIT") != 0;
}

static void drop_queue(rs_pg *pg)
{
    pg->queue_count = 0;
    pg->arena_len = 0;
}

/* Copy a statement into the queue; false when out of memory. */
static bool enqueue(rs_pg *pg, const char *sql, const params *p, const char *what)
{
    if (!RS_GROW(pg->queue, pg->queue_count, pg->queue_cap, 16))
        return false;
    queued *q = &pg->queue[pg->queue_count];
    *q = (queued){.sql = sql, .n = p ? p->n : 0, .what = what};
    pg->wrote_move |= strncmp(sql, "INSERT INTO moves", 17) == 0;
    for (int i = 0; i < q->n; i++) {
        const size_t size = p->format[i] ? (size_t)p->length[i] : strlen(p->value[i]) + 1;
        while (pg->arena_len + size > pg->arena_cap)
            if (!RS_GROW(pg->arena, pg->arena_cap, pg->arena_cap, 4096))
                return false;
        memcpy(pg->arena + pg->arena_len, p->value[i], size);
        q->at[i] = pg->arena_len;
        q->length[i] = p->format[i] ? p->length[i] : 0;
        q->format[i] = p->format[i];
        pg->arena_len += size;
    }
    pg->queue_count++;
    return true;
}

/* Send one queued statement (prepared first when it is not yet); the number of commands sent
 * (each gives one result), 0 when the connection failed. */
static int send_one(rs_pg *pg, const queued *q)
{
    const char *values[MAX_PARAMS];
    for (int i = 0; i < q->n; i++)
        values[i] = pg->arena + q->at[i];
    if (!preparable(q->sql))
        return PQsendQueryParams(pg->conn, q->sql, q->n, NULL, values, q->length, q->format, 0) ? 1
                                                                                                : 0;
    const int index = statement_of(pg, q->sql);
    if (index < 0)
        return PQsendQueryParams(pg->conn, q->sql, q->n, NULL, values, q->length, q->format, 0) ? 1
                                                                                                : 0;
    char name[24];
    snprintf(name, sizeof name, "rs%d", index);
    int sent = 0;
    if (!pg->statements[index].ready) {
        if (!PQsendPrepare(pg->conn, name, q->sql, q->n, NULL))
            return 0;
        /* Counted as prepared for the statements behind it in this round trip; undone if
         * the prepare fails. */
        pg->statements[index].ready = true;
        sent++;
    }
    if (!PQsendQueryPrepared(pg->conn, name, q->n, values, q->length, q->format, 0))
        return 0;
    return sent + 1;
}

/* The first result of the next command (the others read and dropped): NULL when the
 * connection failed. */
static PGresult *next_result(rs_pg *pg)
{
    PGresult *first = PQgetResult(pg->conn), *more;
    while (first && (more = PQgetResult(pg->conn)) != NULL)
        PQclear(more);
    return first;
}

/* A failed result: the connection is lost when there is no SQLSTATE (libpq's own failure:
 * the server closed the connection, which libpq may not yet report in PQstatus), or class 57
 * (the server shutting down) or 08 (a connection failure). */
static void result_failed(rs_pg *pg, const PGresult *r, const char *what)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!state || strncmp(state, "08", 2) == 0 || strncmp(state, "57", 2) == 0)
        pg->lost = true;
    fail_text(pg, what,
              r && PQresultErrorMessage(r)[0] ? PQresultErrorMessage(r)
                                              : (pg->conn ? PQerrorMessage(pg->conn) : "gone"));
}

static bool succeeded(const PGresult *r)
{
    const ExecStatusType status = PQresultStatus(r);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

/* Read the result of one queued statement (its prepare first when one was sent); the
 * result of the last one is kept in *last. False once anything failed. */
static bool read_one(rs_pg *pg, const queued *q, int commands, bool keep, PGresult **last)
{
    bool ok = true;
    for (int c = 0; c < commands; c++) {
        PGresult *r = next_result(pg);
        const bool is_prepare = c + 1 < commands;
        if (!r || !succeeded(r)) {
            if (is_prepare)
                pg->statements[statement_of(pg, q->sql)].ready = false;
            const bool from_server = r && (PQresultStatus(r) == PGRES_PIPELINE_ABORTED ||
                                           PQresultErrorField(r, PG_DIAG_SQLSTATE));
            if (!from_server) /* libpq's own: the connection failed before the answer */
                pg->unanswered = true;
            if (ok && PQresultStatus(r) != PGRES_PIPELINE_ABORTED)
                result_failed(pg, r, q->what);
            else if (!r)
                pg->lost = true;
            ok = false;
        }
        if (ok && !is_prepare && keep)
            *last = r;
        else
            PQclear(r);
    }
    return ok;
}

#ifdef RS_STORE_FAULT_INJECTION
#include <sys/socket.h>
#include <unistd.h>
/* Test builds (Debug): when the file named by RAMPARTS_TEST_PG_COMMIT_CUT exists as the COMMIT
 * of a transaction that stores a move is sent (not another server's chore: the clocks', the
 * directors' commits may come first on a busy machine), the file is removed and the
 * connection cut, as a database restart or
 * pg_terminate_backend can cut it: after the COMMIT is sent and before its answer is read
 * (the file says "answer"), or after every answer and before the sync's ("sync")
 * (tests/server/test_commit_cut.py). */
static void cut_at(const rs_pg *pg, const char *when)
{
    const char *flag = getenv("RAMPARTS_TEST_PG_COMMIT_CUT");
    if (!flag || !*flag || !pg->wrote_move || pg->queue_count == 0 ||
        strcmp(pg->queue[pg->queue_count - 1].sql, "COMMIT") != 0)
        return;
    FILE *f = fopen(flag, "r");
    char mode[16] = "";
    if (!f)
        return;
    const bool read = fgets(mode, sizeof mode, f) != NULL;
    fclose(f);
    if (!read || strncmp(mode, when, strlen(when)) != 0)
        return;
    unlink(flag);
    const int fd = PQsocket(pg->conn);
    shutdown(fd, SHUT_RDWR);
    /* shutdown alone does not lose the answers: those PostgreSQL sent before it (a busy
     * machine can deschedule this thread between the sync and here) stay readable. A socket
     * whose other end is closed, put in the connection's place, makes libpq's next read see
     * the connection gone whenever the answers came. */
    int lost[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, lost) == 0) {
        close(lost[1]);
        dup2(lost[0], fd);
        close(lost[0]);
    }
}
#else
static void cut_at(const rs_pg *pg, const char *when)
{
    (void)pg;
    (void)when;
}
#endif

/* Send every queued statement in one round trip (pipeline mode); the result of the last one
 * when `want_last`, else NULL. Every failure is recorded (the transaction doomed); *ok says
 * whether all succeeded. The queue is empty afterwards. */
static PGresult *round_trip(rs_pg *pg, bool want_last, bool *ok)
{
    *ok = true;
    pg->unanswered = false;
    PGresult *last = NULL;
    if (pg->queue_count == 0)
        return NULL;
    int commands[QUEUE_MAX + 1];
    size_t sent = 0;
    if (!PQenterPipelineMode(pg->conn)) {
        pg->lost = true;
        fail(pg, pg->queue[0].what);
        *ok = false;
        drop_queue(pg);
        return NULL;
    }
    for (; sent < pg->queue_count; sent++)
        if ((commands[sent] = send_one(pg, &pg->queue[sent])) == 0)
            break;
    if (sent < pg->queue_count || !PQpipelineSync(pg->conn)) {
        pg->lost = true;
        pg->unanswered = sent > 0; /* some may have reached the server */
        fail(pg, pg->queue[sent < pg->queue_count ? sent : 0].what);
        *ok = false;
        drop_queue(pg);
        return NULL;
    }
    cut_at(pg, "answer");
    for (size_t i = 0; i < sent; i++) {
        const bool keep = want_last && i + 1 == sent;
        if (!read_one(pg, &pg->queue[i], commands[i], keep, &last))
            *ok = false;
    }
    cut_at(pg, "sync");
    /* Every statement's result is in. A connection lost now, before the sync's, undoes
     * nothing when the round trip ended the transaction (a COMMIT that answered COMMIT has
     * committed: issue 47 saw one reported failed and its move refused, though stored) or ran
     * outside one; inside a transaction it has lost the transaction. Either way the next
     * transaction opens a new connection. */
    PGresult *sync = PQgetResult(pg->conn);
    if (!sync || PQresultStatus(sync) != PGRES_PIPELINE_SYNC || !PQexitPipelineMode(pg->conn)) {
        pg->lost = true;
        const bool ended = !pg->in_transaction || strcmp(pg->queue[sent - 1].sql, "COMMIT") == 0;
        if (*ok && !ended) {
            fail(pg, "pipeline");
            *ok = false;
        }
    }
    PQclear(sync);
    drop_queue(pg);
    if (!*ok) {
        PQclear(last);
        return NULL;
    }
    return last;
}

/* Whether statements can be sent now: connected (reconnecting first outside a transaction,
 * or inside one that has sent nothing yet) and the transaction not doomed. */
static bool ready_to_send(rs_pg *pg, const char *what)
{
    if (!connected(pg) && (!pg->in_transaction || !pg->begun)) {
        char why[256];
        if (reconnect(pg, why, sizeof why) != RS_STORE_OK) {
            fail_text(pg, what, why);
            return false;
        }
    }
    if (pg->doomed) {
        fail_text(pg, what, "an earlier statement of this transaction failed");
        return false;
    }
    return true;
}

static PGresult *exec(rs_pg *pg, const char *sql, const params *p, const char *what);

/* Queue a write whose outcome only the commit needs; sent with the next round trip, or at
 * once when QUEUE_MAX wait. A write that must not be refused is one whose refusal is an
 * error of PostgreSQL's (so the transaction aborts there and its COMMIT, in the same round
 * trip, becomes a rollback): a client's check of a row count would come too late. */
static int queue_write(rs_pg *pg, const char *sql, const params *p, const char *what)
{
    if (!pg->in_transaction) { /* nothing to wait for: at once */
        PGresult *r = exec(pg, sql, p, what);
        PQclear(r);
        return r ? RS_STORE_OK : RS_STORE_ERROR;
    }
    if (pg->doomed)
        return fail_text(pg, what, "an earlier statement of this transaction failed");
    if (!enqueue(pg, sql, p, what))
        return fail_text(pg, what, "out of memory");
    if (pg->queue_count < QUEUE_MAX)
        return RS_STORE_OK;
    if (!ready_to_send(pg, what)) {
        drop_queue(pg);
        return RS_STORE_ERROR;
    }
    pg->begun = pg->begun || pg->in_transaction;
    bool ok;
    round_trip(pg, false, &ok);
    return ok ? RS_STORE_OK : RS_STORE_ERROR;
}

/* Run one statement, after whatever waits in the queue, in one round trip. NULL on failure
 * (recorded); a refused write comes back as a result whose status the caller reads. */
static PGresult *exec(rs_pg *pg, const char *sql, const params *p, const char *what)
{
    if (!ready_to_send(pg, what)) {
        drop_queue(pg);
        return NULL;
    }
    if (!enqueue(pg, sql, p, what)) {
        drop_queue(pg);
        fail_text(pg, what, "out of memory");
        return NULL;
    }
    pg->begun = pg->begun || pg->in_transaction;
    bool ok;
    return round_trip(pg, true, &ok);
}

/* Run a statement that returns no rows. */
static int run(rs_pg *pg, const char *sql, const params *p, const char *what)
{
    PGresult *r = exec(pg, sql, p, what);
    if (!r)
        return RS_STORE_ERROR;
    PQclear(r);
    return RS_STORE_OK;
}

/* Run an INSERT ... ON CONFLICT DO NOTHING: CONFLICT when it inserted nothing. A refused
 * write never aborts the transaction this way, as with SQLite. */
static int run_insert(rs_pg *pg, const char *sql, const params *p, const char *what)
{
    PGresult *r = exec(pg, sql, p, what);
    if (!r)
        return RS_STORE_ERROR;
    int rc = strcmp(PQcmdTuples(r), "0") == 0 ? RS_STORE_CONFLICT : RS_STORE_OK;
    PQclear(r);
    return rc;
}

static int64_t col_int(const PGresult *r, int row, int col)
{
    return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static double col_real(const PGresult *r, int row, int col)
{
    return strtod(PQgetvalue(r, row, col), NULL);
}

static bool col_bool(const PGresult *r, int row, int col)
{
    return PQgetvalue(r, row, col)[0] == 't';
}

static void col_copy(const PGresult *r, int row, int col, char *out, size_t size)
{
    snprintf(out, size, "%s", PQgetvalue(r, row, col));
}

/* A statement returning one integer (column 0, row 0) into *out. */
static int one_int64(rs_pg *pg, const char *sql, const params *p, int64_t *out, const char *what)
{
    PGresult *r = exec(pg, sql, p, what);
    if (!r)
        return RS_STORE_ERROR;
    int rc = PQntuples(r) > 0 ? RS_STORE_OK : RS_STORE_NOTFOUND;
    if (rc == RS_STORE_OK)
        *out = col_int(r, 0, 0);
    PQclear(r);
    return rc;
}

static void pg_close(rs_store *store);

/* PG_OPS, the table, is defined at the end of the file. */
static const rs_store_ops PG_OPS;

static int fill_skeletons(rs_pg *pg, char *err, size_t err_size);

int rs_store_pg_open(rs_store **out, const char *address, char *err, size_t err_size)
{
    *out = NULL;
    rs_pg *pg = calloc(1, sizeof *pg);
    if (!pg || !(pg->address = strdup(address))) {
        free(pg);
        snprintf(err, err_size, "out of memory");
        return RS_STORE_ERROR;
    }
    pg->base.ops = &PG_OPS;
    if (reconnect(pg, err, err_size) != RS_STORE_OK || migrate(pg, err, err_size) != RS_STORE_OK ||
        fill_skeletons(pg, err, err_size) != RS_STORE_OK) {
        pg_close(&pg->base);
        return RS_STORE_ERROR;
    }
    *out = &pg->base;
    return RS_STORE_OK;
}

static void pg_rollback(rs_store *store);

static void pg_close(rs_store *store)
{
    rs_pg *pg = (rs_pg *)store;
    pg_rollback(store);
    if (pg->conn)
        PQfinish(pg->conn);
    if (pg->listener)
        PQfinish(pg->listener);
    for (size_t i = 0; i < pg->statement_count; i++)
        free(pg->statements[i].sql);
    free(pg->statements);
    free(pg->queue);
    free(pg->arena);
    free(pg->address);
    free(pg);
}

/* BEGIN waits in the queue: it goes with the transaction's first statement, and a
 * transaction that writes nothing costs no round trip at all. */
/* Whether the session ended while the connection sat idle between transactions (the server
 * cut it, by pg_terminate_backend or a restart, and said so on the socket): reads what waits
 * there, without blocking. Found before a transaction sends anything, the connection is
 * opened again at once and the transaction goes on (issue 47: a cut session cost a failed
 * commit); found later, the transaction fails. Twice: the first read may take only the
 * server's last message, the second the end of the stream. */
static void notice_idle_loss(rs_pg *pg)
{
    for (int i = 0; i < 2 && pg->conn && !pg->lost; i++)
        if (!PQconsumeInput(pg->conn) || PQstatus(pg->conn) != CONNECTION_OK)
            pg->lost = true;
}

static int pg_begin(rs_store *store)
{
    rs_pg *pg = (rs_pg *)store;
    if (pg->in_transaction)
        return RS_STORE_OK;
    drop_queue(pg);
    notice_idle_loss(pg);
    if (!ready_to_send(pg, "begin"))
        return RS_STORE_ERROR;
    if (!enqueue(pg, "BEGIN", NULL, "begin"))
        return fail_text(pg, "begin", "out of memory");
    pg->in_transaction = true;
    pg->begun = false;
    pg->doomed = false;
    pg->wrote_move = false;
    return RS_STORE_OK;
}

static int pg_commit(rs_store *store)
{
    rs_pg *pg = (rs_pg *)store;
    if (!pg->in_transaction)
        return RS_STORE_OK;
    if (pg->doomed) {
        pg_rollback(store);
        return RS_STORE_ERROR;
    }
    if (pg->fail_commits > 0) {
        pg->fail_commits--;
        snprintf(pg->error, sizeof pg->error, "commit: failure injected by a test");
        pg_rollback(store);
        return RS_STORE_ERROR;
    }
    if (!pg->begun && pg->queue_count <= 1) { /* nothing but its BEGIN: nothing to send */
        drop_queue(pg);
        pg->in_transaction = false;
        return RS_STORE_OK;
    }
    /* COMMIT of an aborted transaction reports success as ROLLBACK: check the tag. */
    PGresult *r = exec(pg, "COMMIT", NULL, "commit");
    bool ok = r && strcmp(PQcmdStatus(r), "COMMIT") == 0;
    if (r && !ok)
        fail_text(pg, "commit", "the transaction was rolled back");
    PQclear(r);
    if (!ok) {
        /* Sent, and the connection lost before PostgreSQL answered: it may have committed
         * (issue 47: a move stored while its player was told nothing was done). */
        const bool unknown = !r && pg->unanswered;
        if (unknown)
            fail_text(pg, "commit",
                      "the connection was lost before PostgreSQL answered the COMMIT: it may "
                      "have been stored");
        pg_rollback(store);
        return unknown ? RS_STORE_UNKNOWN : RS_STORE_ERROR;
    }
    pg->in_transaction = false;
    pg->begun = false;
    return RS_STORE_OK;
}

static void pg_rollback(rs_store *store)
{
    rs_pg *pg = (rs_pg *)store;
    if (!pg->in_transaction)
        return;
    drop_queue(pg);
    if (pg->begun && connected(pg))
        PQclear(PQexec(pg->conn, "ROLLBACK"));
    pg->in_transaction = false;
    pg->begun = false;
    pg->doomed = false;
}

static bool pg_in_transaction(const rs_store *store)
{
    const rs_pg *pg = (const rs_pg *)store;
    return pg->in_transaction;
}

static void pg_fail_commits(rs_store *store, int n)
{
    rs_pg *pg = (rs_pg *)store;
    pg->fail_commits = n;
}

/* ---- users and tokens ---- */

static int pg_user_add(rs_store *store, const char *name, bool guest, int64_t now, int64_t *id)
{
    rs_pg *pg = (rs_pg *)store;
    char key[RS_NAME_MAX + 1];
    rs_store_name_key(name, key);
    params p = {0};
    p_text(&p, name);
    p_text(&p, key);
    p_bool(&p, guest);
    p_int(&p, now);
    PGresult *r = exec(pg,
                       "INSERT INTO users(name, name_key, guest, pwhash, created_ms)"
                       " VALUES($1, $2, $3, '', $4) ON CONFLICT DO NOTHING RETURNING id",
                       &p, "add user");
    if (!r)
        return RS_STORE_ERROR;
    int rc = PQntuples(r) == 1 ? RS_STORE_OK : RS_STORE_CONFLICT;
    if (rc == RS_STORE_OK)
        *id = col_int(r, 0, 0);
    PQclear(r);
    return rc;
}

static int read_user(rs_pg *pg, const char *where, const params *p, rs_user *out)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT id, name, guest, pwhash, created_ms FROM users WHERE %s",
             where);
    PGresult *r = exec(pg, sql, p, "read user");
    if (!r)
        return RS_STORE_ERROR;
    int rc = PQntuples(r) == 1 ? RS_STORE_OK : RS_STORE_NOTFOUND;
    if (rc == RS_STORE_OK) {
        out->id = col_int(r, 0, 0);
        col_copy(r, 0, 1, out->name, sizeof out->name);
        out->guest = col_bool(r, 0, 2);
        col_copy(r, 0, 3, out->pwhash, sizeof out->pwhash);
        out->created_ms = col_int(r, 0, 4);
    }
    PQclear(r);
    return rc;
}

static int pg_user_get(rs_store *store, int64_t id, rs_user *out)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    return read_user(pg, "id = $1", &p, out);
}

static int pg_user_find(rs_store *store, const char *name, rs_user *out)
{
    rs_pg *pg = (rs_pg *)store;
    char key[RS_NAME_MAX + 1];
    rs_store_name_key(name, key);
    params p = {0};
    p_text(&p, key);
    return read_user(pg, "name_key = $1", &p, out);
}

static int pg_user_register(rs_store *store, int64_t id, const char *name, const char *pwhash)
{
    rs_pg *pg = (rs_pg *)store;
    char key[RS_NAME_MAX + 1];
    rs_store_name_key(name, key);
    params p = {0};
    p_int(&p, id);
    p_text(&p, name);
    p_text(&p, key);
    p_text(&p, pwhash);
    char skeleton[RS_SKELETON_TEXT];
    rs_name_skeleton(name, skeleton);
    p_text(&p, skeleton);
    /* A name taken, or one that looks like it, is refused without an error that would abort
     * the transaction; the unique index still guards a race with another node. */
    PGresult *r = exec(pg,
                       "UPDATE users SET name = $2, name_key = $3, guest = false, pwhash = $4,"
                       " skeleton = nullif($5, '') WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM"
                       " users WHERE (name_key = $3 OR skeleton = $5) AND id <> $1)",
                       &p, "register user");
    if (!r)
        return RS_STORE_ERROR;
    int rc = strcmp(PQcmdTuples(r), "1") == 0 ? RS_STORE_OK : RS_STORE_CONFLICT;
    PQclear(r);
    return rc;
}

static int pg_user_lookalike(rs_store *store, const char *skeleton, const char *lowered,
                             int64_t except, rs_user *out)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, skeleton);
    p_text(&p, lowered);
    p_int(&p, except);
    return read_user(pg, "skeleton IN ($1, $2) AND NOT guest AND id <> $3 LIMIT 1", &p, out);
}

/* Rows a DELETE removed, into *n. */
static int deleted(rs_pg *pg, const char *sql, const params *p, const char *what, int64_t *n)
{
    PGresult *r = exec(pg, sql, p, what);
    *n = r ? strtoll(PQcmdTuples(r), NULL, 10) : 0;
    PQclear(r);
    return r ? RS_STORE_OK : RS_STORE_ERROR;
}

static int pg_sweep_accounts(rs_store *store, int64_t now_ms, int limit, int64_t *tokens,
                             int64_t *guests)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, now_ms);
    *guests = 0;
    int rc = deleted(pg, "DELETE FROM tokens WHERE expires_ms <= $1", &p, "sweep tokens", tokens);
    if (rc != RS_STORE_OK)
        return rc;
    params q = {0};
    p_int(&q, limit);
    return deleted(
        pg,
        "DELETE FROM users WHERE id IN (SELECT id FROM users WHERE guest AND " UNUSED_GUEST
        " LIMIT $1)",
        &q, "sweep guests", guests);
}

/* The skeletons of names registered before the schema had them (version 2), filled in by the
 * first server to start on it; later servers find none to fill. */
static int fill_skeletons(rs_pg *pg, char *err, size_t err_size)
{
    PGresult *r = exec(pg, "SELECT id, name FROM users WHERE NOT guest AND skeleton IS NULL", NULL,
                       "read names without a skeleton");
    int rc = r ? RS_STORE_OK : RS_STORE_ERROR;
    for (int i = 0; r && rc == RS_STORE_OK && i < PQntuples(r); i++) {
        char skeleton[RS_SKELETON_TEXT];
        if (!rs_name_skeleton(PQgetvalue(r, i, 1), skeleton) || !skeleton[0])
            continue;
        params p = {0};
        p_int(&p, col_int(r, i, 0));
        p_text(&p, skeleton);
        rc = run(pg, "UPDATE users SET skeleton = $2 WHERE id = $1", &p, "fill a skeleton");
    }
    PQclear(r);
    if (rc != RS_STORE_OK)
        snprintf(err, err_size, "cannot fill the names' skeletons: %s", pg_error(&pg->base));
    return rc;
}

static int pg_token_add(rs_store *store, const uint8_t hash[RS_TOKEN_HASH], int64_t user,
                        int64_t now, int64_t expires_ms)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_blob(&p, hash, RS_TOKEN_HASH);
    p_int(&p, user);
    p_int(&p, now);
    p_int(&p, expires_ms);
    return run_insert(pg,
                      "INSERT INTO tokens(hash, user_id, created_ms, expires_ms)"
                      " VALUES($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                      &p, "add token");
}

static int pg_token_user(rs_store *store, const uint8_t hash[RS_TOKEN_HASH], int64_t now,
                         int64_t *user, bool *expired)
{
    rs_pg *pg = (rs_pg *)store;
    *expired = false;
    params p = {0};
    p_blob(&p, hash, RS_TOKEN_HASH);
    PGresult *r =
        exec(pg, "SELECT user_id, expires_ms FROM tokens WHERE hash = $1", &p, "read token");
    if (!r)
        return RS_STORE_ERROR;
    int rc = RS_STORE_NOTFOUND;
    if (PQntuples(r) == 1) {
        if (col_int(r, 0, 1) > now) {
            *user = col_int(r, 0, 0);
            rc = RS_STORE_OK;
        } else {
            *expired = true;
        }
    }
    PQclear(r);
    return rc;
}

static int pg_token_revoke(rs_store *store, const uint8_t hash[RS_TOKEN_HASH])
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_blob(&p, hash, RS_TOKEN_HASH);
    return run(pg, "DELETE FROM tokens WHERE hash = $1", &p, "revoke token");
}

static int pg_user_password(rs_store *store, int64_t id, const char *pwhash,
                            const uint8_t keep[RS_TOKEN_HASH])
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    p_text(&p, pwhash);
    PGresult *r =
        exec(pg, "UPDATE users SET pwhash = $2 WHERE id = $1 AND NOT guest", &p, "change password");
    if (!r)
        return RS_STORE_ERROR;
    const bool changed = strcmp(PQcmdTuples(r), "1") == 0;
    PQclear(r);
    if (!changed)
        return RS_STORE_NOTFOUND;
    params q = {0};
    p_int(&q, id);
    p_blob(&q, keep, RS_TOKEN_HASH);
    return run(pg, "DELETE FROM tokens WHERE user_id = $1 AND hash <> $2", &q,
               "revoke the other tokens");
}

/* ---- games ---- */

static void game_params(params *p, const rs_game_row *row, char *remaining, size_t size)
{
    rs_store_remaining_text(row, remaining, size);
    p_text(p, row->game);
    p_text(p, row->options);
    p_int(p, (int64_t)row->seed);
    p_int(p, (int64_t)row->status);
    p_bool(p, row->rated);
    p_int(p, row->clock_kind);
    p_int(p, row->initial_ms);
    p_int(p, row->increment_ms);
    p_int(p, row->per_move_ms);
    p_int(p, row->seats);
    p_int(p, row->v);
    p_text(p, remaining);
    p_int(p, row->running);
    p_int(p, row->turn_wall_ms);
    p_int(p, row->created_ms);
    p_int(p, row->started_ms);
    p_int(p, row->ended_ms);
    p_int(p, row->creator);
    p_int(p, row->rematch_of);
    p_text(p, row->end_reason);
    p_text(p, row->result_text);
}

#define SEAT_PUT                                                                                   \
    "INSERT INTO seats(game_id, seat, kind, user_id, ai_level, invite, score)"                     \
    " VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, seat) DO UPDATE"                    \
    " SET kind = $3, user_id = $4, ai_level = $5, invite = $6, score = $7"

#define GAME_UPDATE                                                                                \
    "UPDATE games SET game = $1, options = $2, seed = $3, status = $4,"                            \
    " rated = $5, clock_kind = $6, initial_ms = $7, increment_ms = $8,"                            \
    " per_move_ms = $9, seats = $10, v = $11, remaining = $12, running = $13,"                     \
    " turn_wall_ms = $14, created_ms = $15, started_ms = $16, ended_ms = $17,"                     \
    " creator = $18, rematch_of = $19, end_reason = $20, result_text = $21"                        \
    " WHERE id = $22"

#define MOVE_ADD                                                                                   \
    "INSERT INTO moves(game_id, ply, seat, action, v, at_ms)"                                      \
    " VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING"
/* Queued: a ply already stored is an error of PostgreSQL's, and aborts the transaction. */
#define MOVE_WRITE                                                                                 \
    "INSERT INTO moves(game_id, ply, seat, action, v, at_ms) VALUES($1, $2, $3, $4, $5, $6)"
/* Queued: no such game divides by zero, an error of PostgreSQL's that aborts the
 * transaction. */
#define GAME_WRITE "WITH changed AS (" GAME_UPDATE " RETURNING 1) SELECT 1 / count(*) FROM changed"

static void seat_params(params *p, const rs_game_row *row, int i)
{
    const rs_seat_row *seat = &row->seat[i];
    p_int(p, row->id);
    p_int(p, i);
    p_int(p, (int64_t)seat->kind);
    p_int(p, seat->user_id);
    p_text(p, seat->ai_level);
    p_text(p, seat->invite);
    p_real(p, seat->score);
}

static int save_seats(rs_pg *pg, const rs_game_row *row)
{
    for (int i = 0; i < row->seats && i < RP_MAX_PLAYERS; i++) {
        params p = {0};
        seat_params(&p, row, i);
        int rc = run(pg, SEAT_PUT, &p, "save seat");
        if (rc != RS_STORE_OK)
            return rc;
    }
    return RS_STORE_OK;
}

static int pg_game_insert(rs_store *store, rs_game_row *row)
{
    rs_pg *pg = (rs_pg *)store;
    char remaining[RP_MAX_PLAYERS * 24];
    params p = {0};
    game_params(&p, row, remaining, sizeof remaining);
    PGresult *r = exec(pg,
                       "INSERT INTO games(" GAME_COLUMNS ") VALUES($1, $2, $3, $4, $5, $6, $7,"
                       " $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)"
                       " RETURNING id",
                       &p, "insert game");
    if (!r)
        return RS_STORE_ERROR;
    row->id = col_int(r, 0, 0);
    PQclear(r);
    return save_seats(pg, row);
}

static int pg_game_save(rs_store *store, const rs_game_row *row)
{
    rs_pg *pg = (rs_pg *)store;
    char remaining[RP_MAX_PLAYERS * 24];
    params p = {0};
    game_params(&p, row, remaining, sizeof remaining);
    p_int(&p, row->id);
    PGresult *r = exec(pg, GAME_UPDATE, &p, "save game");
    if (!r)
        return RS_STORE_ERROR;
    bool found = strcmp(PQcmdTuples(r), "1") == 0;
    PQclear(r);
    return found ? save_seats(pg, row) : RS_STORE_NOTFOUND;
}

static int pg_game_write(rs_store *store, const rs_game_row *row, bool seats)
{
    rs_pg *pg = (rs_pg *)store;
    char remaining[RP_MAX_PLAYERS * 24];
    params p = {0};
    game_params(&p, row, remaining, sizeof remaining);
    p_int(&p, row->id);
    int rc = queue_write(pg, GAME_WRITE, &p, "save game");
    for (int i = 0; rc == RS_STORE_OK && seats && i < row->seats && i < RP_MAX_PLAYERS; i++) {
        params seat = {0};
        seat_params(&seat, row, i);
        rc = queue_write(pg, SEAT_PUT, &seat, "save seat");
    }
    return rc;
}

static int pg_game_seats(rs_store *store, rs_game_row *out)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, out->id);
    PGresult *r = exec(pg,
                       "SELECT seat, kind, user_id, ai_level, invite, score FROM seats"
                       " WHERE game_id = $1 ORDER BY seat",
                       &p, "read seats");
    if (!r)
        return RS_STORE_ERROR;
    for (int row = 0; row < PQntuples(r); row++) {
        int64_t i = col_int(r, row, 0);
        if (i < 0 || i >= RP_MAX_PLAYERS)
            continue;
        rs_seat_row *seat = &out->seat[i];
        seat->kind = (rs_seat_kind)col_int(r, row, 1);
        seat->user_id = col_int(r, row, 2);
        col_copy(r, row, 3, seat->ai_level, sizeof seat->ai_level);
        col_copy(r, row, 4, seat->invite, sizeof seat->invite);
        seat->score = col_real(r, row, 5);
    }
    PQclear(r);
    return RS_STORE_OK;
}

static void read_game_columns(const PGresult *r, rs_game_row *out)
{
    out->id = col_int(r, 0, 0);
    col_copy(r, 0, 1, out->game, sizeof out->game);
    col_copy(r, 0, 2, out->options, sizeof out->options);
    out->seed = (uint64_t)col_int(r, 0, 3);
    out->status = (rs_game_status)col_int(r, 0, 4);
    out->rated = col_bool(r, 0, 5);
    out->clock_kind = (int)col_int(r, 0, 6);
    out->initial_ms = col_int(r, 0, 7);
    out->increment_ms = col_int(r, 0, 8);
    out->per_move_ms = col_int(r, 0, 9);
    out->seats = (int)col_int(r, 0, 10);
    out->v = col_int(r, 0, 11);
    rs_store_remaining_parse(PQgetvalue(r, 0, 12), out);
    out->running = (int)col_int(r, 0, 13);
    out->turn_wall_ms = col_int(r, 0, 14);
    out->created_ms = col_int(r, 0, 15);
    out->started_ms = col_int(r, 0, 16);
    out->ended_ms = col_int(r, 0, 17);
    out->creator = col_int(r, 0, 18);
    out->rematch_of = col_int(r, 0, 19);
    col_copy(r, 0, 20, out->end_reason, sizeof out->end_reason);
    col_copy(r, 0, 21, out->result_text, sizeof out->result_text);
}

static int pg_game_head(rs_store *store, int64_t id, rs_game_row *out)
{
    rs_pg *pg = (rs_pg *)store;
    memset(out, 0, sizeof *out);
    params p = {0};
    p_int(&p, id);
    PGresult *r = exec(pg, "SELECT id, " GAME_COLUMNS " FROM games WHERE id = $1", &p, "read game");
    if (!r)
        return RS_STORE_ERROR;
    bool found = PQntuples(r) == 1;
    if (found)
        read_game_columns(r, out);
    PQclear(r);
    if (!found)
        return RS_STORE_NOTFOUND;
    if (out->seats < 1 || out->seats > RP_MAX_PLAYERS) {
        snprintf(pg->error, sizeof pg->error, "game %" PRId64 " has %d seats", id, out->seats);
        return RS_STORE_ERROR;
    }
    return RS_STORE_OK;
}

static int pg_games_unfinished(rs_store *store, int64_t **ids, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    *ids = NULL;
    *n = 0;
    PGresult *r =
        exec(pg, "SELECT id FROM games WHERE status IN (0, 1) ORDER BY id", NULL, "list games");
    if (!r)
        return RS_STORE_ERROR;
    size_t rows = (size_t)PQntuples(r);
    if (rows > 0 && !(*ids = malloc(rows * sizeof **ids))) {
        PQclear(r);
        return RS_STORE_ERROR;
    }
    for (size_t i = 0; i < rows; i++)
        (*ids)[i] = col_int(r, (int)i, 0);
    *n = rows;
    PQclear(r);
    return RS_STORE_OK;
}

static void move_params(params *p, int64_t game, const rs_move_row *move)
{
    p_int(p, game);
    p_int(p, move->ply);
    p_int(p, move->seat);
    p_int(p, move->action);
    p_int(p, move->v);
    p_int(p, move->at_ms);
}

static int pg_move_add(rs_store *store, int64_t game, const rs_move_row *move)
{
    params p = {0};
    move_params(&p, game, move);
    return run_insert((rs_pg *)store, MOVE_ADD, &p, "add move");
}

static int pg_move_write(rs_store *store, int64_t game, const rs_move_row *move)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    move_params(&p, game, move);
    return queue_write(pg, MOVE_WRITE, &p, "add move");
}

static int pg_moves_since(rs_store *store, int64_t game, int64_t from_ply, rs_move_row **moves,
                          size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    *moves = NULL;
    *n = 0;
    params p = {0};
    p_int(&p, game);
    p_int(&p, from_ply);
    PGresult *r = exec(pg,
                       "SELECT ply, seat, action, v, at_ms FROM moves WHERE game_id = $1"
                       " AND ply >= $2 ORDER BY ply",
                       &p, "read moves");
    if (!r)
        return RS_STORE_ERROR;
    size_t rows = (size_t)PQntuples(r);
    if (rows > 0 && !(*moves = calloc(rows, sizeof **moves))) {
        PQclear(r);
        return RS_STORE_ERROR;
    }
    for (size_t i = 0; i < rows; i++) {
        rs_move_row *m = &(*moves)[i];
        m->ply = col_int(r, (int)i, 0);
        m->seat = (int)col_int(r, (int)i, 1);
        m->action = (uint32_t)col_int(r, (int)i, 2);
        m->v = col_int(r, (int)i, 3);
        m->at_ms = col_int(r, (int)i, 4);
    }
    *n = rows;
    PQclear(r);
    return RS_STORE_OK;
}

static int pg_moves_truncate(rs_store *store, int64_t game, int64_t from_ply)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, game);
    p_int(&p, from_ply);
    return run(pg, "DELETE FROM moves WHERE game_id = $1 AND ply >= $2", &p, "truncate moves");
}

static int pg_record_put(rs_store *store, int64_t game, const char *record)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, game);
    p_text(&p, record);
    return run(pg, "UPDATE games SET record = $2 WHERE id = $1", &p, "store record");
}

static int pg_record_get(rs_store *store, int64_t game, char **record)
{
    rs_pg *pg = (rs_pg *)store;
    *record = NULL;
    params p = {0};
    p_int(&p, game);
    PGresult *r = exec(pg, "SELECT record FROM games WHERE id = $1 AND record IS NOT NULL", &p,
                       "read record");
    if (!r)
        return RS_STORE_ERROR;
    int rc = RS_STORE_NOTFOUND;
    if (PQntuples(r) == 1) {
        *record = strdup(PQgetvalue(r, 0, 0));
        rc = *record ? RS_STORE_OK : RS_STORE_ERROR;
    }
    PQclear(r);
    return rc;
}

/* Two servers may compute one review at once: the later write replaces the earlier. */
static int pg_review_put(rs_store *store, int64_t game, int seat, const char *review)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, game);
    p_int(&p, seat);
    p_text(&p, review);
    return run(pg,
               "INSERT INTO reviews(game_id, seat, review) VALUES($1, $2, $3)"
               " ON CONFLICT (game_id, seat) DO UPDATE SET review = EXCLUDED.review",
               &p, "store review");
}

static int pg_review_get(rs_store *store, int64_t game, int seat, char **review)
{
    rs_pg *pg = (rs_pg *)store;
    *review = NULL;
    params p = {0};
    p_int(&p, game);
    p_int(&p, seat);
    PGresult *r =
        exec(pg, "SELECT review FROM reviews WHERE game_id = $1 AND seat = $2", &p, "read review");
    if (!r)
        return RS_STORE_ERROR;
    int rc = RS_STORE_NOTFOUND;
    if (PQntuples(r) == 1) {
        *review = strdup(PQgetvalue(r, 0, 0));
        rc = *review ? RS_STORE_OK : RS_STORE_ERROR;
    }
    PQclear(r);
    return rc;
}

static int pg_rematch_find(rs_store *store, int64_t game, int64_t *rematch)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, game);
    return one_int64(pg, "SELECT id FROM games WHERE rematch_of = $1 ORDER BY id LIMIT 1", &p,
                     rematch, "find rematch");
}

/* ---- chat ---- */

static int pg_chat_add(rs_store *store, int64_t game, int channel, int64_t user, int64_t at_ms,
                       const char *text)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, game);
    p_int(&p, user);
    p_int(&p, at_ms);
    p_text(&p, text);
    p_int(&p, channel);
    return run(pg,
               "INSERT INTO chat(game_id, user_id, at_ms, text, channel)"
               " VALUES($1, $2, $3, $4, $5)",
               &p, "add chat");
}

/* ---- ratings ---- */

static int pg_rating_get(rs_store *store, int64_t user, const char *game, rs_rating_row *out)
{
    rs_pg *pg = (rs_pg *)store;
    memset(out, 0, sizeof *out);
    params p = {0};
    p_int(&p, user);
    p_text(&p, game);
    PGresult *r = exec(pg,
                       "SELECT rating, rd, vol, games FROM ratings WHERE user_id = $1"
                       " AND game = $2",
                       &p, "read rating");
    if (!r)
        return RS_STORE_ERROR;
    int rc = PQntuples(r) == 1 ? RS_STORE_OK : RS_STORE_NOTFOUND;
    if (rc == RS_STORE_OK) {
        out->rating = col_real(r, 0, 0);
        out->rd = col_real(r, 0, 1);
        out->vol = col_real(r, 0, 2);
        out->games = col_int(r, 0, 3);
    }
    PQclear(r);
    return rc;
}

static int pg_rating_put(rs_store *store, int64_t user, const char *game,
                         const rs_rating_row *rating, int64_t game_id, int64_t at_ms)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, user);
    p_text(&p, game);
    p_real(&p, rating->rating);
    p_real(&p, rating->rd);
    p_real(&p, rating->vol);
    p_int(&p, rating->games);
    int rc = run(pg,
                 "INSERT INTO ratings(user_id, game, rating, rd, vol, games)"
                 " VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, game) DO UPDATE"
                 " SET rating = $3, rd = $4, vol = $5, games = $6",
                 &p, "store rating");
    if (rc != RS_STORE_OK)
        return rc;
    params h = {0};
    p_int(&h, user);
    p_text(&h, game);
    p_int(&h, game_id);
    p_int(&h, at_ms);
    p_real(&h, rating->rating);
    p_real(&h, rating->rd);
    return run(pg,
               "INSERT INTO rating_history(user_id, game, game_id, at_ms, rating, rd)"
               " VALUES($1, $2, $3, $4, $5, $6)",
               &h, "store rating history");
}

/* The rows of a result (r may be NULL: a failure), each read by read(r, i, item) into a new
 * array of `size`-byte items; the result cleared. */
static int read_rows(PGresult *r, size_t size, void (*read)(const PGresult *r, int i, void *item),
                     void *rows_ptr, size_t *n)
{
    char **rows = rows_ptr;
    *rows = NULL;
    *n = 0;
    if (!r)
        return RS_STORE_ERROR;
    const int count = PQntuples(r);
    if (count > 0 && !(*rows = calloc((size_t)count, size))) {
        PQclear(r);
        return RS_STORE_ERROR;
    }
    for (int i = 0; i < count; i++)
        read(r, i, *rows + (size_t)i * size);
    *n = (size_t)count;
    PQclear(r);
    return RS_STORE_OK;
}

/* ---- "Play now" pools ---- */

#define SEEK_COLUMNS                                                                               \
    "id, user_id, pool, game, players, clock_kind, initial_ms, increment_ms, per_move_ms,"         \
    " rated, since_ms, rating, linked, node"
/* The seeks of live servers (or of this one, named $1) are paired. Those of a server whose
 * sign of life ran out SEEK_DEAD_AFTER ago are dropped: not at once, since a server busy for
 * a moment longer than its lease (a burst of clients) must not lose its seeks for it. */
#define SEEK_DEAD_AFTER "10 seconds"
#define SEEK_LIVE                                                                                  \
    "(node = $1 OR node IN (SELECT node FROM nodes WHERE alive_until > clock_timestamp()))"

static int pg_seek_add(rs_store *store, rs_seek_row *row)
{
    rs_pg *pg = (rs_pg *)store;
    char linked[RS_SEEK_LINKS * 24];
    rs_store_linked_text(row, linked, sizeof linked);
    params p = {0};
    p_int(&p, row->user);
    p_text(&p, row->pool);
    p_text(&p, row->game);
    p_int(&p, row->players);
    p_int(&p, row->clock_kind);
    p_int(&p, row->initial_ms);
    p_int(&p, row->increment_ms);
    p_int(&p, row->per_move_ms);
    p_bool(&p, row->rated);
    p_int(&p, row->since_ms);
    p_real(&p, row->rating);
    p_text(&p, linked);
    p_text(&p, row->node);
    PGresult *r = exec(pg,
                       "INSERT INTO seeks(user_id, pool, game, players, clock_kind, initial_ms,"
                       " increment_ms, per_move_ms, rated, since_ms, rating, linked, node)"
                       " VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
                       " ON CONFLICT DO NOTHING RETURNING id",
                       &p, "add seek");
    if (!r)
        return RS_STORE_ERROR;
    int rc = PQntuples(r) == 1 ? RS_STORE_OK : RS_STORE_CONFLICT;
    if (rc == RS_STORE_OK)
        row->id = col_int(r, 0, 0);
    PQclear(r);
    return rc;
}

static void read_seek(const PGresult *r, int i, void *item)
{
    rs_seek_row *row = item;
    memset(row, 0, sizeof *row);
    row->id = col_int(r, i, 0);
    row->user = col_int(r, i, 1);
    col_copy(r, i, 2, row->pool, sizeof row->pool);
    col_copy(r, i, 3, row->game, sizeof row->game);
    row->players = (int)col_int(r, i, 4);
    row->clock_kind = (int)col_int(r, i, 5);
    row->initial_ms = col_int(r, i, 6);
    row->increment_ms = col_int(r, i, 7);
    row->per_move_ms = col_int(r, i, 8);
    row->rated = col_bool(r, i, 9);
    row->since_ms = col_int(r, i, 10);
    row->rating = col_real(r, i, 11);
    rs_store_linked_parse(PQgetvalue(r, i, 12), row);
    col_copy(r, i, 13, row->node, sizeof row->node);
}

/* Rows locked by another server's transaction (a pairing under way) are skipped, never
 * waited for: the statements below would otherwise wait lock_timeout and fail the commit. */
static int pg_seeks_read(rs_store *store, const char *node, int64_t user, rs_seek_row **rows,
                         size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    *rows = NULL;
    *n = 0;
    params p = {0};
    p_text(&p, node);
    p_int(&p, user);
    /* Everyone's seeks are read once a second: a dead server's go in the same round trip (a
     * DELETE in WITH runs whether or not the SELECT reads it; its rows are not live). */
    static const char everyone[] =
        "WITH gone AS (DELETE FROM seeks WHERE id IN (SELECT id FROM seeks WHERE node <> $1"
        " AND node NOT IN (SELECT node FROM nodes WHERE alive_until > clock_timestamp() -"
        " interval '" SEEK_DEAD_AFTER "') FOR UPDATE SKIP LOCKED) RETURNING id)"
        " SELECT " SEEK_COLUMNS " FROM seeks WHERE $2::bigint = 0 AND " SEEK_LIVE
        " ORDER BY since_ms, id";
    static const char of_user[] = "SELECT " SEEK_COLUMNS " FROM seeks WHERE user_id = $2 AND"
                                  " " SEEK_LIVE " ORDER BY since_ms, id";
    return read_rows(exec(pg, user ? of_user : everyone, &p, "read seeks"), sizeof **rows,
                     read_seek, rows, n);
}

static int pg_seeks_drop(rs_store *store, int64_t user, int64_t id, int64_t *dropped)
{
    rs_pg *pg = (rs_pg *)store;
    *dropped = 0;
    params p = {0};
    p_int(&p, user);
    p_int(&p, id);
    PGresult *r = exec(pg,
                       "DELETE FROM seeks WHERE id IN (SELECT id FROM seeks WHERE user_id = $1"
                       " AND ($2::bigint = 0 OR id = $2) FOR UPDATE SKIP LOCKED)",
                       &p, "drop seeks");
    if (!r)
        return RS_STORE_ERROR;
    *dropped = strtoll(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return RS_STORE_OK;
}

/* The database decides: the seeks are locked without waiting, and taken only when every one
 * of them was locked here (none taken or held by another server); the others stay locked,
 * untouched, until this commit, as another server's take would leave them. */
static int pg_seeks_take(rs_store *store, const int64_t *ids, size_t n)
{
    rs_pg *pg = (rs_pg *)store;
    char list[RP_MAX_PLAYERS * 24 + 4] = "{";
    size_t len = 1;
    for (size_t i = 0; i < n && i < RP_MAX_PLAYERS; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, i ? ",%lld" : "%lld",
                                (long long)ids[i]);
    snprintf(list + len, sizeof list - len, "}");
    params p = {0};
    p_text(&p, list);
    PGresult *r =
        exec(pg, "SELECT id FROM seeks WHERE id = ANY($1::bigint[]) FOR UPDATE SKIP LOCKED", &p,
             "lock seeks");
    if (!r)
        return RS_STORE_ERROR;
    const bool all = (size_t)PQntuples(r) == n;
    PQclear(r);
    if (!all)
        return RS_STORE_CONFLICT;
    return queue_write(pg, "DELETE FROM seeks WHERE id = ANY($1::bigint[])", &p, "take seeks");
}

static int pg_seeks_forget(rs_store *store, const char *node)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, node);
    return queue_write(pg,
                       "DELETE FROM seeks WHERE id IN (SELECT id FROM seeks WHERE node = $1"
                       " FOR UPDATE SKIP LOCKED)",
                       &p, "forget seeks");
}

static int pg_link_add(rs_store *store, int64_t guest, int64_t account)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, guest);
    p_int(&p, account);
    return queue_write(pg,
                       "INSERT INTO links(guest_id, account_id) VALUES($1, $2)"
                       " ON CONFLICT DO NOTHING",
                       &p, "link guest");
}

static int pg_links_of(rs_store *store, int64_t user, int64_t *out, int max, int *n)
{
    rs_pg *pg = (rs_pg *)store;
    *n = 0;
    params p = {0};
    p_int(&p, user);
    p_int(&p, max);
    PGresult *r = exec(pg,
                       "SELECT CASE WHEN guest_id = $1 THEN account_id ELSE guest_id END FROM links"
                       " WHERE guest_id = $1 OR account_id = $1 ORDER BY id DESC LIMIT $2",
                       &p, "read links");
    if (!r)
        return RS_STORE_ERROR;
    for (int i = 0; i < PQntuples(r) && *n < max; i++)
        out[(*n)++] = col_int(r, i, 0);
    PQclear(r);
    return RS_STORE_OK;
}

/* ---- challenges ---- */

#define CHALLENGE_FIELDS                                                                           \
    "c.id, c.from_id, c.to_id, f.name, t.name, c.game, c.options, c.clock_kind, c.initial_ms,"     \
    " c.increment_ms, c.per_move_ms, c.rated, c.seat, c.created_ms, c.expires_ms"
#define CHALLENGE_NAMES " JOIN users f ON f.id = c.from_id JOIN users t ON t.id = c.to_id"
#define CHALLENGE_COLUMNS CHALLENGE_FIELDS " FROM challenges c" CHALLENGE_NAMES
#define CHALLENGE_COLUMNS_TAKEN CHALLENGE_FIELDS " FROM taken c" CHALLENGE_NAMES

static int pg_challenge_add(rs_store *store, rs_challenge_row *row)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, row->from);
    p_int(&p, row->to);
    p_text(&p, row->game);
    p_text(&p, row->options);
    p_int(&p, row->clock_kind);
    p_int(&p, row->initial_ms);
    p_int(&p, row->increment_ms);
    p_int(&p, row->per_move_ms);
    p_bool(&p, row->rated);
    p_int(&p, row->seat);
    p_int(&p, row->created_ms);
    p_int(&p, row->expires_ms);
    return one_int64(pg,
                     "INSERT INTO challenges(from_id, to_id, game, options, clock_kind,"
                     " initial_ms, increment_ms, per_move_ms, rated, seat, created_ms,"
                     " expires_ms) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                     " RETURNING id",
                     &p, &row->id, "add challenge");
}

static void read_challenge(const PGresult *r, int i, void *item)
{
    rs_challenge_row *row = item;
    memset(row, 0, sizeof *row);
    row->id = col_int(r, i, 0);
    row->from = col_int(r, i, 1);
    row->to = col_int(r, i, 2);
    col_copy(r, i, 3, row->from_name, sizeof row->from_name);
    col_copy(r, i, 4, row->to_name, sizeof row->to_name);
    col_copy(r, i, 5, row->game, sizeof row->game);
    col_copy(r, i, 6, row->options, sizeof row->options);
    row->clock_kind = (int)col_int(r, i, 7);
    row->initial_ms = col_int(r, i, 8);
    row->increment_ms = col_int(r, i, 9);
    row->per_move_ms = col_int(r, i, 10);
    row->rated = col_bool(r, i, 11);
    row->seat = (int)col_int(r, i, 12);
    row->created_ms = col_int(r, i, 13);
    row->expires_ms = col_int(r, i, 14);
}

static int pg_challenges_read(rs_store *store, int64_t user, int64_t due_ms,
                              rs_challenge_row **rows, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, user);
    p_int(&p, due_ms);
    PGresult *r = exec(pg,
                       "SELECT " CHALLENGE_COLUMNS " WHERE ($1::bigint = 0 OR c.from_id = $1"
                       " OR c.to_id = $1) AND c.expires_ms <= $2 ORDER BY c.created_ms, c.id",
                       &p, "read challenges");
    return read_rows(r, sizeof **rows, read_challenge, rows, n);
}

/* The database decides: the row is deleted by the one transaction that locks it; another
 * server taking it at that moment skips it (NOTFOUND) rather than wait, so a challenge is
 * accepted, declined, cancelled or expired once. */
static int pg_challenge_take(rs_store *store, int64_t id, rs_challenge_row *out)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    PGresult *r = exec(pg,
                       "WITH taken AS (DELETE FROM challenges WHERE id IN (SELECT id FROM"
                       " challenges WHERE id = $1 FOR UPDATE SKIP LOCKED) RETURNING *)"
                       " SELECT " CHALLENGE_COLUMNS_TAKEN,
                       &p, "take challenge");
    if (!r)
        return RS_STORE_ERROR;
    const int rc = PQntuples(r) == 1 ? RS_STORE_OK : RS_STORE_NOTFOUND;
    if (rc == RS_STORE_OK)
        read_challenge(r, 0, out);
    PQclear(r);
    return rc;
}

static int pg_setting_get(rs_store *store, int64_t user, bool *challenges)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, user);
    PGresult *r =
        exec(pg, "SELECT challenges FROM user_settings WHERE user_id = $1", &p, "read setting");
    if (!r)
        return RS_STORE_ERROR;
    *challenges = PQntuples(r) == 0 || col_bool(r, 0, 0);
    PQclear(r);
    return RS_STORE_OK;
}

static int pg_setting_put(rs_store *store, int64_t user, bool challenges)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, user);
    p_bool(&p, challenges);
    return queue_write(pg,
                       "INSERT INTO user_settings(user_id, challenges) VALUES($1, $2)"
                       " ON CONFLICT (user_id) DO UPDATE SET challenges = EXCLUDED.challenges",
                       &p, "store setting");
}

static const rs_store_challenge_ops PG_CHALLENGE_OPS = {
    .add = pg_challenge_add,
    .read = pg_challenges_read,
    .take = pg_challenge_take,
    .setting_get = pg_setting_get,
    .setting_put = pg_setting_put,
};

/* ---- tournaments ---- */

#define TOUR_COLUMNS                                                                               \
    "id, creator, name, game, options, format, rounds, set_games, table_size, bye_points,"         \
    " duration_ms, rated, clock_kind, initial_ms, increment_ms, per_move_ms, status, round,"       \
    " created_ms, starts_ms, computer"

static int pg_tour_add(rs_store *store, rs_tour_row *row)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, row->creator);
    p_text(&p, row->name);
    p_text(&p, row->game);
    p_text(&p, row->options);
    p_int(&p, row->format);
    p_int(&p, row->rounds);
    p_int(&p, row->set_games);
    p_int(&p, row->table_size);
    p_int(&p, row->bye_points);
    p_int(&p, row->duration_ms);
    p_bool(&p, row->rated);
    p_int(&p, row->clock_kind);
    p_int(&p, row->initial_ms);
    p_int(&p, row->increment_ms);
    p_int(&p, row->per_move_ms);
    p_int(&p, row->status);
    p_int(&p, row->round);
    p_int(&p, row->created_ms);
    p_int(&p, row->starts_ms);
    p_text(&p, row->computer);
    return one_int64(pg,
                     "INSERT INTO tournaments(creator, name, game, options, format, rounds,"
                     " set_games, table_size, bye_points, duration_ms, rated, clock_kind,"
                     " initial_ms, increment_ms, per_move_ms, status, round, created_ms,"
                     " starts_ms, computer) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
                     " $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id",
                     &p, &row->id, "add tournament");
}

static void read_tour(const PGresult *r, int i, void *item)
{
    rs_tour_row *row = item;
    memset(row, 0, sizeof *row);
    row->id = col_int(r, i, 0);
    row->creator = col_int(r, i, 1);
    col_copy(r, i, 2, row->name, sizeof row->name);
    col_copy(r, i, 3, row->game, sizeof row->game);
    col_copy(r, i, 4, row->options, sizeof row->options);
    row->format = (int)col_int(r, i, 5);
    row->rounds = (int)col_int(r, i, 6);
    row->set_games = (int)col_int(r, i, 7);
    row->table_size = (int)col_int(r, i, 8);
    row->bye_points = (int)col_int(r, i, 9);
    row->duration_ms = col_int(r, i, 10);
    row->rated = col_bool(r, i, 11);
    row->clock_kind = (int)col_int(r, i, 12);
    row->initial_ms = col_int(r, i, 13);
    row->increment_ms = col_int(r, i, 14);
    row->per_move_ms = col_int(r, i, 15);
    row->status = (int)col_int(r, i, 16);
    row->round = (int)col_int(r, i, 17);
    row->created_ms = col_int(r, i, 18);
    row->starts_ms = col_int(r, i, 19);
    col_copy(r, i, 20, row->computer, sizeof row->computer);
}

static int pg_tour_get(rs_store *store, int64_t id, rs_tour_row *out)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    PGresult *r =
        exec(pg, "SELECT " TOUR_COLUMNS " FROM tournaments WHERE id = $1", &p, "read tournament");
    if (!r)
        return RS_STORE_ERROR;
    const int rc = PQntuples(r) == 1 ? RS_STORE_OK : RS_STORE_NOTFOUND;
    if (rc == RS_STORE_OK)
        read_tour(r, 0, out);
    PQclear(r);
    return rc;
}

static int pg_tour_list(rs_store *store, int limit, rs_tour_row **rows, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, limit);
    PGresult *r = exec(pg, "SELECT " TOUR_COLUMNS " FROM tournaments ORDER BY id DESC LIMIT $1", &p,
                       "list tournaments");
    return read_rows(r, sizeof **rows, read_tour, rows, n);
}

static int pg_tour_entered(rs_store *store, int64_t user, int limit, rs_tour_row **rows, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, user);
    p_int(&p, limit);
    PGresult *r = exec(pg,
                       "SELECT " TOUR_COLUMNS " FROM tournaments WHERE id IN (SELECT tournament_id"
                       " FROM tournament_entries WHERE user_id = $1) ORDER BY id DESC LIMIT $2",
                       &p, "list a player's tournaments");
    return read_rows(r, sizeof **rows, read_tour, rows, n);
}

static int pg_tour_status(rs_store *store, int64_t id, int status)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    p_int(&p, status);
    return run(pg, "UPDATE tournaments SET status = $2 WHERE id = $1", &p, "set tournament status");
}

/* The database decides: the one transaction that locks the row at round - 1 moves it on;
 * another server trying at that moment skips the locked row (never waits) and is refused,
 * as is any server once the round has moved on. */
static int pg_tour_round_claim(rs_store *store, int64_t id, int round)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    p_int(&p, round);
    return run_insert(pg,
                      "UPDATE tournaments SET round = $2 WHERE id IN (SELECT id FROM tournaments"
                      " WHERE id = $1 AND round = $2 - 1 FOR UPDATE SKIP LOCKED)",
                      &p, "claim round");
}

/* As a round's claim: the one transaction that locks the open row starts it; another server
 * trying at that moment skips the locked row and is refused, as is any once it has started. */
static int pg_tour_start(rs_store *store, int64_t id, int64_t at_ms)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    p_int(&p, at_ms);
    return run_insert(pg,
                      "UPDATE tournaments SET status = 1, starts_ms = $2 WHERE id IN (SELECT id"
                      " FROM tournaments WHERE id = $1 AND status = 0 FOR UPDATE SKIP LOCKED)",
                      &p, "start tournament");
}

/* As the start: the one transaction that locks the open row cancels it; another server trying
 * at that moment skips the locked row and is refused, as is any once it has started. */
static int pg_tour_cancel(rs_store *store, int64_t id)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    return run_insert(pg,
                      "UPDATE tournaments SET status = 3 WHERE id IN (SELECT id FROM tournaments"
                      " WHERE id = $1 AND status = 0 FOR UPDATE SKIP LOCKED)",
                      &p, "cancel tournament");
}

static int pg_tour_entry_put(rs_store *store, const rs_tour_entry_row *row)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, row->tour);
    p_int(&p, row->user);
    p_real(&p, row->rating);
    p_bool(&p, row->active);
    p_int(&p, row->entered_ms);
    return run(pg,
               "INSERT INTO tournament_entries(tournament_id, user_id, rating, active, entered_ms)"
               " VALUES($1, $2, $3, $4, $5) ON CONFLICT (tournament_id, user_id) DO UPDATE SET"
               " rating = EXCLUDED.rating, active = EXCLUDED.active",
               &p, "store entry");
}

static void read_entry(const PGresult *r, int i, void *item)
{
    rs_tour_entry_row *row = item;
    memset(row, 0, sizeof *row);
    row->tour = col_int(r, i, 0);
    row->user = col_int(r, i, 1);
    col_copy(r, i, 2, row->name, sizeof row->name);
    row->rating = col_real(r, i, 3);
    row->active = col_bool(r, i, 4);
    row->entered_ms = col_int(r, i, 5);
}

static int pg_tour_entries(rs_store *store, int64_t id, rs_tour_entry_row **rows, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    PGresult *r = exec(pg,
                       "SELECT e.tournament_id, e.user_id, u.name, e.rating, e.active,"
                       " e.entered_ms FROM tournament_entries e JOIN users u ON u.id = e.user_id"
                       " WHERE e.tournament_id = $1 ORDER BY e.entered_ms, e.user_id",
                       &p, "read entries");
    return read_rows(r, sizeof **rows, read_entry, rows, n);
}

/* A pairing's points as stored (numbers space-separated) into out. */
static void pairing_points(const rs_tour_pairing_row *row, char *out, size_t size)
{
    int64_t values[RS_TOUR_SEATS];
    for (int i = 0; i < row->n && i < RS_TOUR_SEATS; i++)
        values[i] = row->points[i];
    rs_store_numbers_text(values, row->n, out, size);
}

static int pg_tour_pairing_add(rs_store *store, const rs_tour_pairing_row *row)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    char players[RS_TOUR_SEATS * 24], points[RS_TOUR_SEATS * 24];
    rs_store_numbers_text(row->user, row->n, players, sizeof players);
    pairing_points(row, points, sizeof points);
    p_int(&p, row->tour);
    p_int(&p, row->round);
    p_int(&p, row->board);
    p_text(&p, players);
    p_text(&p, points);
    p_int(&p, row->games_done);
    p_int(&p, row->game);
    return run_insert(pg,
                      "INSERT INTO tournament_pairings(tournament_id, round, board, players,"
                      " points, games_done, game_id) VALUES($1, $2, $3, $4, $5, $6, $7)"
                      " ON CONFLICT DO NOTHING",
                      &p, "add pairing");
}

static int pg_tour_pairing_put(rs_store *store, const rs_tour_pairing_row *row, int64_t was_game)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    char points[RS_TOUR_SEATS * 24];
    pairing_points(row, points, sizeof points);
    p_int(&p, row->tour);
    p_int(&p, row->round);
    p_int(&p, row->board);
    p_text(&p, points);
    p_int(&p, row->games_done);
    p_int(&p, row->game);
    p_int(&p, was_game);
    return run_insert(pg,
                      "UPDATE tournament_pairings SET points = $4, games_done = $5, game_id = $6"
                      " WHERE (tournament_id, round, board) IN (SELECT tournament_id, round, board"
                      " FROM tournament_pairings WHERE tournament_id = $1 AND round = $2"
                      " AND board = $3 AND game_id = $7 FOR UPDATE SKIP LOCKED)",
                      &p, "store pairing");
}

static void read_pairing(const PGresult *r, int i, void *item)
{
    rs_tour_pairing_row *row = item;
    memset(row, 0, sizeof *row);
    row->tour = col_int(r, i, 0);
    row->round = (int)col_int(r, i, 1);
    row->board = (int)col_int(r, i, 2);
    row->n = rs_store_numbers_parse(PQgetvalue(r, i, 3), row->user, RS_TOUR_SEATS);
    int64_t points[RS_TOUR_SEATS] = {0};
    rs_store_numbers_parse(PQgetvalue(r, i, 4), points, RS_TOUR_SEATS);
    for (int k = 0; k < RS_TOUR_SEATS; k++)
        row->points[k] = (int)points[k];
    row->games_done = (int)col_int(r, i, 5);
    row->game = col_int(r, i, 6);
}

static int pg_tour_pairings(rs_store *store, int64_t id, rs_tour_pairing_row **rows, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    PGresult *r = exec(pg,
                       "SELECT tournament_id, round, board, players, points, games_done, game_id"
                       " FROM tournament_pairings WHERE tournament_id = $1 ORDER BY round, board",
                       &p, "read pairings");
    return read_rows(r, sizeof **rows, read_pairing, rows, n);
}

static const rs_store_tour_ops PG_TOUR_OPS = {
    .add = pg_tour_add,
    .get = pg_tour_get,
    .list = pg_tour_list,
    .entered = pg_tour_entered,
    .status = pg_tour_status,
    .round_claim = pg_tour_round_claim,
    .start = pg_tour_start,
    .cancel = pg_tour_cancel,
    .entry_put = pg_tour_entry_put,
    .entries = pg_tour_entries,
    .pairing_add = pg_tour_pairing_add,
    .pairing_put = pg_tour_pairing_put,
    .pairings = pg_tour_pairings,
};

static const rs_store_pool_ops PG_POOL_OPS = {
    .seek_add = pg_seek_add,
    .seeks_read = pg_seeks_read,
    .seeks_drop = pg_seeks_drop,
    .seeks_take = pg_seeks_take,
    .seeks_forget = pg_seeks_forget,
    .link_add = pg_link_add,
    .links_of = pg_links_of,
};

/* ---- meta ---- */

static int pg_meta_set(rs_store *store, const char *key, int64_t value)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, key);
    p_int(&p, value);
    return queue_write(pg,
                       "INSERT INTO meta(key, value) VALUES($1, $2) ON CONFLICT (key) DO UPDATE"
                       " SET value = $2",
                       &p, "set meta");
}

static int pg_meta_get(rs_store *store, const char *key, int64_t *value)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, key);
    return one_int64(pg, "SELECT value FROM meta WHERE key = $1", &p, value, "read meta");
}

static int pg_meta_max(rs_store *store, const char *prefix, int64_t *value)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, prefix);
    /* max() of no rows is one NULL row: no value. */
    PGresult *r =
        exec(pg, "SELECT max(value) FROM meta WHERE starts_with(key, $1)", &p, "read meta");
    if (!r)
        return RS_STORE_ERROR;
    const bool found = PQntuples(r) == 1 && !PQgetisnull(r, 0, 0);
    if (found)
        *value = col_int(r, 0, 0);
    PQclear(r);
    return found ? RS_STORE_OK : RS_STORE_NOTFOUND;
}

/* ---- several servers on one database ---- */

static int pg_game_lock(rs_store *store, int64_t id, rs_game_lock *out)
{
    rs_pg *pg = (rs_pg *)store;
    memset(out, 0, sizeof *out);
    params p = {0};
    p_int(&p, id);
    PGresult *r = exec(pg,
                       "SELECT v, owner, lease_token, lease_until < clock_timestamp(),"
                       " (extract(epoch FROM lease_until - clock_timestamp()) * 1000)::bigint"
                       " FROM games WHERE id = $1 FOR UPDATE SKIP LOCKED",
                       &p, "lock game");
    if (!r)
        return RS_STORE_ERROR;
    const bool got = PQntuples(r) == 1;
    if (got) {
        out->v = col_int(r, 0, 0);
        col_copy(r, 0, 1, out->owner, sizeof out->owner);
        out->token = col_int(r, 0, 2);
        out->expired = col_bool(r, 0, 3);
        out->left_ms = col_int(r, 0, 4);
    }
    PQclear(r);
    if (got)
        return RS_STORE_OK;
    /* No row: held by another server, or no such game. */
    int64_t v;
    int rc = one_int64(pg, "SELECT v FROM games WHERE id = $1", &p, &v, "find game");
    return rc == RS_STORE_OK ? RS_STORE_BUSY : rc;
}

static int pg_game_version(rs_store *store, int64_t id, int64_t *v)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    return one_int64(pg, "SELECT v FROM games WHERE id = $1", &p, v, "read version");
}

static int pg_lease_take(rs_store *store, int64_t id, const char *node, int64_t lease_ms,
                         int64_t *token)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    p_text(&p, node);
    p_int(&p, lease_ms);
    return one_int64(pg,
                     "UPDATE games SET owner = $2, lease_token = lease_token + 1,"
                     " lease_until = clock_timestamp() + $3 * interval '1 millisecond'"
                     " WHERE id = $1 RETURNING lease_token",
                     &p, token, "take lease");
}

static int pg_lease_fence(rs_store *store, int64_t id, const char *node, int64_t token,
                          int64_t lease_ms)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_int(&p, id);
    p_text(&p, node);
    p_int(&p, token);
    p_int(&p, lease_ms);
    int64_t kept;
    int rc = one_int64(pg,
                       "UPDATE games SET lease_until = clock_timestamp() + $4 * interval"
                       " '1 millisecond' WHERE id = $1 AND owner = $2 AND lease_token = $3"
                       " RETURNING lease_token",
                       &p, &kept, "check lease");
    return rc == RS_STORE_NOTFOUND ? RS_STORE_CONFLICT : rc;
}

static int pg_leases_renew(rs_store *store, const char *node, int64_t lease_ms)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, node);
    p_int(&p, lease_ms);
    p_int(&p, RS_SEAT_AI);
    /* Only games with work that must happen once (open: expiry; live: a clock or an AI
     * seat): the lease of a game between people without a clock lapses, costing no write a
     * second. */
    return run(pg,
               "UPDATE games SET lease_until = clock_timestamp() + $2 * interval '1 millisecond'"
               " WHERE id IN (SELECT id FROM games g WHERE status < 2 AND owner = $1 AND"
               " (status = 0 OR clock_kind <> 0 OR EXISTS (SELECT 1 FROM seats s"
               " WHERE s.game_id = g.id AND s.kind = $3)) FOR UPDATE SKIP LOCKED)",
               &p, "renew leases");
}

static int pg_games_unleased(rs_store *store, int64_t lease_ms, bool all, int limit,
                             rs_unleased_row **rows, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    *rows = NULL;
    *n = 0;
    params p = {0};
    p_int(&p, lease_ms);
    p_bool(&p, all);
    p_int(&p, limit);
    p_int(&p, RS_SEAT_AI);
    PGresult *r =
        exec(pg,
             "SELECT id, lease_until < clock_timestamp() - $1 * interval '1 millisecond' AND"
             " greatest(created_ms, started_ms) <"
             " (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $1"
             " FROM games g WHERE (owner = '' OR lease_until < clock_timestamp()) AND"
             " ((status = 0 AND $2) OR (status = 1 AND (clock_kind <> 0 OR EXISTS"
             " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = $4))))"
             " ORDER BY id LIMIT $3",
             &p, "list unleased games");
    if (!r)
        return RS_STORE_ERROR;
    const size_t count = (size_t)PQntuples(r);
    if (count > 0 && !(*rows = malloc(count * sizeof **rows))) {
        PQclear(r);
        return RS_STORE_ERROR;
    }
    for (size_t i = 0; i < count; i++)
        (*rows)[i] = (rs_unleased_row){col_int(r, (int)i, 0), col_bool(r, (int)i, 1)};
    *n = count;
    PQclear(r);
    return RS_STORE_OK;
}

/* The live servers' rows of presence, joined where each is read. */
#define LIVE_ELSEWHERE                                                                             \
    " FROM presence p JOIN nodes n ON n.node = p.node"                                             \
    " WHERE p.node <> $1 AND n.alive_until > clock_timestamp()"

static int pg_node_alive(rs_store *store, const char *node, int64_t lease_ms)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, node);
    p_int(&p, lease_ms);
    int rc = run(pg,
                 "INSERT INTO nodes(node, alive_until) VALUES($1, clock_timestamp() + $2 *"
                 " interval '1 millisecond') ON CONFLICT(node) DO UPDATE SET alive_until ="
                 " EXCLUDED.alive_until",
                 &p, "sign of life");
    if (rc != RS_STORE_OK)
        return rc;
    /* Servers dead for a minute: their rows go (they count for nothing since they died). */
    return run(pg,
               "WITH dead AS (DELETE FROM nodes WHERE alive_until < clock_timestamp() -"
               " interval '1 minute' RETURNING node)"
               " DELETE FROM presence WHERE node IN (SELECT node FROM dead)",
               NULL, "forget dead servers");
}

static int pg_node_gone(rs_store *store, const char *node)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, node);
    int rc = run(pg, "DELETE FROM presence WHERE node = $1", &p, "forget presence");
    return rc == RS_STORE_OK ? run(pg, "DELETE FROM nodes WHERE node = $1", &p, "forget server")
                             : rc;
}

static int pg_presence_put(rs_store *store, const char *node, int64_t user, int64_t game,
                           bool present)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, node);
    p_int(&p, user);
    p_int(&p, game);
    return run(pg,
               present ? "INSERT INTO presence(node, user_id, game_id) VALUES($1, $2, $3)"
                         " ON CONFLICT DO NOTHING"
                       : "DELETE FROM presence WHERE node = $1 AND user_id = $2 AND game_id = $3",
               &p, "presence");
}

static int pg_presence_elsewhere(rs_store *store, const char *node, int64_t game,
                                 rs_presence_row **rows, size_t *n)
{
    rs_pg *pg = (rs_pg *)store;
    *rows = NULL;
    *n = 0;
    params p = {0};
    p_text(&p, node);
    p_int(&p, game);
    PGresult *r = exec(pg,
                       "SELECT DISTINCT p.game_id, p.user_id" LIVE_ELSEWHERE
                       " AND p.game_id > 0 AND ($2 = 0 OR p.game_id = $2)"
                       " ORDER BY p.game_id, p.user_id",
                       &p, "read presence");
    if (!r)
        return RS_STORE_ERROR;
    const int count = PQntuples(r);
    if (count > 0 && !(*rows = calloc((size_t)count, sizeof **rows))) {
        PQclear(r);
        return RS_STORE_ERROR;
    }
    for (int i = 0; i < count; i++)
        (*rows)[i] = (rs_presence_row){col_int(r, i, 0), col_int(r, i, 1)};
    *n = (size_t)count;
    PQclear(r);
    return RS_STORE_OK;
}

static int pg_user_elsewhere(rs_store *store, const char *node, int64_t user, bool *online)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, node);
    p_int(&p, user);
    int64_t count = 0;
    int rc = one_int64(pg, "SELECT count(*)" LIVE_ELSEWHERE " AND p.user_id = $2", &p, &count,
                       "read presence");
    *online = rc == RS_STORE_OK && count > 0;
    return rc;
}

static int pg_nodes_live(rs_store *store, char **names)
{
    rs_pg *pg = (rs_pg *)store;
    *names = NULL;
    PGresult *r = exec(pg,
                       "SELECT coalesce(string_agg(node, ' ' ORDER BY node), '') FROM nodes"
                       " WHERE alive_until > clock_timestamp()",
                       NULL, "read servers");
    if (!r)
        return RS_STORE_ERROR;
    *names = strdup(PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return *names ? RS_STORE_OK : RS_STORE_ERROR;
}

static int pg_announce(rs_store *store, const char *text)
{
    rs_pg *pg = (rs_pg *)store;
    params p = {0};
    p_text(&p, text);
    return queue_write(pg, "SELECT pg_notify('" CHANNEL "', $1)", &p, "announce");
}

/* The listening connection: LISTEN, then non-blocking. Fails at once within
 * RECONNECT_EVERY_MS of the last failed attempt. */
static bool open_listener(rs_pg *pg)
{
    int64_t now = now_ms();
    if (now < pg->next_listen_ms)
        return false;
    pg->next_listen_ms = now + RECONNECT_EVERY_MS;
    pg->listener = PQconnectdb(pg->address);
    PGresult *r = pg->listener && PQstatus(pg->listener) == CONNECTION_OK
                      ? PQexec(pg->listener, "LISTEN " CHANNEL)
                      : NULL;
    const bool ok =
        r && PQresultStatus(r) == PGRES_COMMAND_OK && PQsetnonblocking(pg->listener, 1) == 0;
    PQclear(r);
    if (!ok) {
        snprintf(pg->error, sizeof pg->error, "listen: unavailable: %s",
                 pg->listener ? PQerrorMessage(pg->listener) : "out of memory");
        PQfinish(pg->listener);
        pg->listener = NULL;
    }
    return ok;
}

static int pg_announcements(rs_store *store, void (*got)(void *ctx, const char *line), void *ctx)
{
    rs_pg *pg = (rs_pg *)store;
    int opened = 0;
    if (!pg->listener) {
        if (!open_listener(pg))
            return RS_STORE_ERROR;
        opened = 1;
    }
    if (!PQconsumeInput(pg->listener)) { /* the connection is gone: reopen next time */
        snprintf(pg->error, sizeof pg->error, "listen: unavailable: %s",
                 PQerrorMessage(pg->listener));
        PQfinish(pg->listener);
        pg->listener = NULL;
        return RS_STORE_ERROR;
    }
    PGnotify *n;
    while ((n = PQnotifies(pg->listener)) != NULL) {
        got(ctx, n->extra);
        PQfreemem(n);
    }
    return opened;
}

static int pg_listen_fd(const rs_store *store)
{
    const rs_pg *pg = (const rs_pg *)store;
    return pg->listener ? PQsocket(pg->listener) : -1;
}

/* ---- the rows of the read models (store_read.c builds them) ---- */

static void pg_chat_rows(rs_store *store, int64_t game, int channel, int limit,
                         void (*row)(void *ctx, const rs_chat_row *line), void *ctx)
{
    params p = {0};
    p_int(&p, game);
    p_int(&p, limit);
    p_int(&p, channel);
    PGresult *r = exec((rs_pg *)store,
                       "SELECT u.name, c.at_ms, c.text FROM (SELECT * FROM chat WHERE"
                       " game_id = $1 AND channel = $3 ORDER BY id DESC LIMIT $2) c JOIN users u ON"
                       " u.id = c.user_id ORDER BY c.id",
                       &p, "read chat");
    for (int i = 0; r && i < PQntuples(r); i++)
        row(ctx, &(rs_chat_row){PQgetvalue(r, i, 0), col_int(r, i, 1), PQgetvalue(r, i, 2)});
    PQclear(r);
}

static void pg_finished_rows(rs_store *store, int64_t user, int limit, int64_t before,
                             void (*row)(void *ctx, const rs_finished_row *game), void *ctx)
{
    params p = {0};
    p_int(&p, before);
    p_int(&p, user);
    p_int(&p, limit);
    PGresult *r = exec((rs_pg *)store,
                       "SELECT g.id, g.game, g.rated, g.ended_ms, g.end_reason, g.result_text"
                       " FROM games g WHERE g.status = 2 AND ($1::bigint = 0 OR g.id < $1)"
                       " AND ($2::bigint = 0 OR EXISTS (SELECT 1 FROM seats s WHERE"
                       " s.game_id = g.id AND s.user_id = $2 AND s.kind = 4))"
                       " ORDER BY g.id DESC LIMIT $3",
                       &p, "list finished games");
    for (int i = 0; r && i < PQntuples(r); i++)
        row(ctx, &(rs_finished_row){.id = col_int(r, i, 0),
                                    .game = PQgetvalue(r, i, 1),
                                    .rated = col_bool(r, i, 2),
                                    .ended_ms = col_int(r, i, 3),
                                    .reason = PQgetvalue(r, i, 4),
                                    .result = PQgetvalue(r, i, 5)});
    PQclear(r);
}

static void pg_named_seat_rows(rs_store *store, int64_t game,
                               void (*row)(void *ctx, const rs_named_seat_row *seat), void *ctx)
{
    params p = {0};
    p_int(&p, game);
    PGresult *r = exec((rs_pg *)store,
                       "SELECT s.seat, s.kind, u.name, s.ai_level, s.score FROM seats s"
                       " LEFT JOIN users u ON u.id = s.user_id AND s.kind = 4"
                       " WHERE s.game_id = $1 ORDER BY s.seat",
                       &p, "read seats");
    for (int i = 0; r && i < PQntuples(r); i++)
        row(ctx, &(rs_named_seat_row){.seat = (int)col_int(r, i, 0),
                                      .kind = (int)col_int(r, i, 1),
                                      .name = PQgetisnull(r, i, 2) ? NULL : PQgetvalue(r, i, 2),
                                      .ai_level = PQgetvalue(r, i, 3),
                                      .score = col_real(r, i, 4)});
    PQclear(r);
}

static void pg_rating_rows(rs_store *store, int64_t user,
                           void (*row)(void *ctx, const rs_game_rating_row *rating), void *ctx)
{
    params p = {0};
    p_int(&p, user);
    PGresult *r = exec((rs_pg *)store,
                       "SELECT game, rating, rd, vol, games FROM ratings WHERE user_id = $1"
                       " ORDER BY game",
                       &p, "read ratings");
    for (int i = 0; r && i < PQntuples(r); i++)
        row(ctx, &(rs_game_rating_row){PQgetvalue(r, i, 0),
                                       {.rating = col_real(r, i, 1),
                                        .rd = col_real(r, i, 2),
                                        .vol = col_real(r, i, 3),
                                        .games = col_int(r, i, 4)}});
    PQclear(r);
}

static void pg_rating_history_rows(rs_store *store, int64_t user,
                                   void (*row)(void *ctx, const rs_rating_history_row *entry),
                                   void *ctx)
{
    params p = {0};
    p_int(&p, user);
    PGresult *r = exec((rs_pg *)store,
                       "SELECT game, game_id, at_ms, rating, rd FROM rating_history"
                       " WHERE user_id = $1 ORDER BY id DESC LIMIT 200",
                       &p, "read rating history");
    for (int i = 0; r && i < PQntuples(r); i++)
        row(ctx, &(rs_rating_history_row){.game = PQgetvalue(r, i, 0),
                                          .game_id = col_int(r, i, 1),
                                          .at_ms = col_int(r, i, 2),
                                          .rating = col_real(r, i, 3),
                                          .rd = col_real(r, i, 4)});
    PQclear(r);
}

static void pg_vs_ai_rows(rs_store *store, int64_t user,
                          void (*row)(void *ctx, const rs_vs_ai_row *results), void *ctx)
{
    params p = {0};
    p_int(&p, user);
    PGresult *r = exec((rs_pg *)store,
                       "SELECT g.game, a.ai_level, COUNT(*) FILTER (WHERE me.score > a.score),"
                       " COUNT(*) FILTER (WHERE me.score < a.score),"
                       " COUNT(*) FILTER (WHERE me.score = a.score) FROM games g"
                       " JOIN seats me ON me.game_id = g.id AND me.user_id = $1 AND me.kind = 4"
                       " JOIN seats a ON a.game_id = g.id AND a.kind = 3 WHERE g.status = 2"
                       " GROUP BY g.game, a.ai_level ORDER BY g.game, a.ai_level",
                       &p, "read results against the AI");
    for (int i = 0; r && i < PQntuples(r); i++)
        row(ctx, &(rs_vs_ai_row){.game = PQgetvalue(r, i, 0),
                                 .level = PQgetvalue(r, i, 1),
                                 .won = col_int(r, i, 2),
                                 .lost = col_int(r, i, 3),
                                 .drawn = col_int(r, i, 4)});
    PQclear(r);
}

static const rs_store_shared_ops PG_SHARED_OPS = {
    .game_lock = pg_game_lock,
    .game_version = pg_game_version,
    .lease_take = pg_lease_take,
    .lease_fence = pg_lease_fence,
    .leases_renew = pg_leases_renew,
    .games_unleased = pg_games_unleased,
    .node_alive = pg_node_alive,
    .node_gone = pg_node_gone,
    .presence_put = pg_presence_put,
    .presence_elsewhere = pg_presence_elsewhere,
    .user_elsewhere = pg_user_elsewhere,
    .nodes_live = pg_nodes_live,
    .announce = pg_announce,
    .announcements = pg_announcements,
    .listen_fd = pg_listen_fd,
};

static const rs_store_ops PG_OPS = {
    .close = pg_close,
    .error = pg_error,
    .unavailable = pg_unavailable,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .in_transaction = pg_in_transaction,
    .fail_commits = pg_fail_commits,
    .checkpoint = NULL, /* PostgreSQL checkpoints by itself */
    .checkpoint_tail = NULL,
    .wal_frames = NULL,
    .user_add = pg_user_add,
    .user_get = pg_user_get,
    .user_find = pg_user_find,
    .user_register = pg_user_register,
    .user_lookalike = pg_user_lookalike,
    .sweep_accounts = pg_sweep_accounts,
    .token_add = pg_token_add,
    .token_user = pg_token_user,
    .token_revoke = pg_token_revoke,
    .user_password = pg_user_password,
    .game_insert = pg_game_insert,
    .game_save = pg_game_save,
    .game_write = pg_game_write,
    .game_head = pg_game_head,
    .game_seats = pg_game_seats,
    .games_unfinished = pg_games_unfinished,
    .move_add = pg_move_add,
    .move_write = pg_move_write,
    .moves_since = pg_moves_since,
    .moves_truncate = pg_moves_truncate,
    .record_put = pg_record_put,
    .record_get = pg_record_get,
    .review_put = pg_review_put,
    .review_get = pg_review_get,
    .rematch_find = pg_rematch_find,
    .chat_add = pg_chat_add,
    .rating_get = pg_rating_get,
    .rating_put = pg_rating_put,
    .meta_set = pg_meta_set,
    .meta_get = pg_meta_get,
    .meta_max = pg_meta_max,
    .chat_rows = pg_chat_rows,
    .finished_rows = pg_finished_rows,
    .named_seat_rows = pg_named_seat_rows,
    .rating_rows = pg_rating_rows,
    .rating_history_rows = pg_rating_history_rows,
    .vs_ai_rows = pg_vs_ai_rows,
    .pool = &PG_POOL_OPS,
    .challenge = &PG_CHALLENGE_OPS,
    .tour = &PG_TOUR_OPS,
    .shared = &PG_SHARED_OPS,
};
