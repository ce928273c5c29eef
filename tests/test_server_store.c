/* test_server_store.c — the server's storage interface (src/server/store.h): users and
 * tokens, games with seats and moves, records, chat, ratings, a failed commit rolling
 * everything back, and a database surviving a reopen. Over SQLite by default; with
 * RAMPARTS_TEST_STORE=postgresql://... (tests/server/test_postgres.py starts a server) the
 * same tests run over PostgreSQL, each on an emptied schema, with PostgreSQL's own cases. */
#include "support.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "store.h"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* The PostgreSQL address under test, or NULL for SQLite. */
static const char *postgres_address(void)
{
    const char *address = getenv("RAMPARTS_TEST_STORE");
    return address && *address ? address : NULL;
}

/* Run SQL on a connection of the test's own (setting up, or breaking things). */
static void postgres_exec(const char *sql)
{
    PGconn *conn = PQconnectdb(postgres_address());
    assert_int_equal(PQstatus(conn), CONNECTION_OK);
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(conn);
}

/* A fresh, empty store: in memory, or PostgreSQL with its tables dropped. */
static rs_store *open_memory(void)
{
    rs_store *st;
    char err[256];
    const char *address = postgres_address();
    if (address)
        postgres_exec("SET client_min_messages = warning;"
                      " DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
    if (rs_store_open(&st, address ? address : ":memory:", err, sizeof err) != RS_STORE_OK)
        fail_msg("cannot open the store: %s", err);
    return st;
}

static void test_users_and_names(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t a, b;
    assert_int_equal(rs_store_begin(st), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "guest-abc", true, 1, &a), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "Alice", false, 2, &b), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "alice", false, 3, &b), RS_STORE_CONFLICT);
    rs_user u;
    assert_int_equal(rs_store_user_find(st, "ALICE", &u), RS_STORE_OK); /* any case */
    assert_string_equal(u.name, "Alice");
    assert_false(u.guest);
    assert_int_equal(rs_store_user_register(st, a, "alice", "hash"), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_user_register(st, a, "Bob", "$argon2id$x"), RS_STORE_OK);
    assert_int_equal(rs_store_user_get(st, a, &u), RS_STORE_OK);
    assert_string_equal(u.name, "Bob");
    assert_string_equal(u.pwhash, "$argon2id$x");
    assert_false(u.guest);
    assert_int_equal(rs_store_user_find(st, "guest-abc", &u), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_close(st);
}

static void test_tokens_expire_and_revoke(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t user, found;
    bool expired;
    uint8_t hash[RS_TOKEN_HASH], other[RS_TOKEN_HASH];
    memset(hash, 7, sizeof hash);
    memset(other, 8, sizeof other);
    rs_store_begin(st);
    rs_store_user_add(st, "guest-x", true, 0, &user);
    assert_int_equal(rs_store_token_add(st, hash, user, 0, 1000), RS_STORE_OK);
    assert_int_equal(rs_store_token_user(st, hash, 999, &found, &expired), RS_STORE_OK);
    assert_int_equal(found, user);
    assert_int_equal(rs_store_token_user(st, hash, 1000, &found, &expired), RS_STORE_NOTFOUND);
    assert_true(expired);
    assert_int_equal(rs_store_token_user(st, other, 10, &found, &expired), RS_STORE_NOTFOUND);
    assert_false(expired);
    assert_int_equal(rs_store_token_revoke(st, hash), RS_STORE_OK);
    assert_int_equal(rs_store_token_user(st, hash, 10, &found, &expired), RS_STORE_NOTFOUND);
    rs_store_commit(st);
    rs_store_close(st);
}

/* A password change stores the new hash and revokes every other token of the account; a
 * guest's is refused and changes nothing. */
static void test_password_change_revokes_other_tokens(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t alice, guest, found;
    bool expired;
    uint8_t kept[RS_TOKEN_HASH], other[RS_TOKEN_HASH], guests[RS_TOKEN_HASH];
    memset(kept, 1, sizeof kept);
    memset(other, 2, sizeof other);
    memset(guests, 3, sizeof guests);
    rs_store_begin(st);
    rs_store_user_add(st, "guest-a", true, 0, &alice);
    rs_store_user_register(st, alice, "Alice", "$argon2id$old");
    rs_store_user_add(st, "guest-b", true, 0, &guest);
    rs_store_token_add(st, kept, alice, 0, 1000);
    rs_store_token_add(st, other, alice, 0, 1000);
    rs_store_token_add(st, guests, guest, 0, 1000);
    assert_int_equal(rs_store_user_password(st, guest, "$argon2id$g", NULL), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_token_user(st, guests, 10, &found, &expired), RS_STORE_OK);
    assert_int_equal(rs_store_user_password(st, alice, "$argon2id$new", kept), RS_STORE_OK);
    rs_user u;
    assert_int_equal(rs_store_user_get(st, alice, &u), RS_STORE_OK);
    assert_string_equal(u.pwhash, "$argon2id$new");
    assert_int_equal(rs_store_token_user(st, kept, 10, &found, &expired), RS_STORE_OK);
    assert_int_equal(found, alice);
    assert_int_equal(rs_store_token_user(st, other, 10, &found, &expired), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_token_user(st, guests, 10, &found, &expired), RS_STORE_OK);
    assert_int_equal(rs_store_user_password(st, alice, "$argon2id$newer", NULL), RS_STORE_OK);
    assert_int_equal(rs_store_token_user(st, kept, 10, &found, &expired), RS_STORE_NOTFOUND);
    rs_store_commit(st);
    rs_store_close(st);
}

static rs_game_row sample_game(void)
{
    rs_game_row row;
    memset(&row, 0, sizeof row);
    snprintf(row.game, sizeof row.game, "castle-danger");
    snprintf(row.options, sizeof row.options, "players=2 turn-limit=25");
    row.seed = 0xfedcba9876543210ull; /* above INT64_MAX: stored bit for bit */
    row.status = RS_GAME_LIVE;
    row.clock_kind = 1;
    row.initial_ms = 300000;
    row.increment_ms = 2000;
    row.seats = 2;
    row.seat[0] = (rs_seat_row){RS_SEAT_HUMAN, 5, "", "", -1};
    row.seat[1] = (rs_seat_row){RS_SEAT_AI, 0, "hard", "", -1};
    row.v = 3;
    row.remaining_ms[0] = 299000;
    row.remaining_ms[1] = -20;
    row.running = 1;
    row.turn_wall_ms = 123456789;
    return row;
}

/* The move's hot path: rs_store_game_write and rs_store_move_write (on PostgreSQL sent with
 * the next statement or the COMMIT): what they wrote is read back in the same transaction
 * and after the commit; the seat rows only when asked; a ply already stored fails the
 * commit, which then stores nothing of its transaction. */
static void test_queued_writes(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_game_row row = sample_game(), back;
    rs_store_begin(st);
    assert_int_equal(rs_store_game_insert(st, &row), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_begin(st);
    for (int i = 0; i < 3; i++) {
        rs_move_row m = {i, i % 2, (uint32_t)(200 + i), 4 + i, 2000 + i};
        assert_int_equal(rs_store_move_write(st, row.id, &m), RS_STORE_OK);
    }
    row.v = 6;
    row.seat[0].user_id = 77; /* not written: seats = false */
    assert_int_equal(rs_store_game_write(st, &row, false), RS_STORE_OK);
    rs_move_row *moves;
    size_t n;
    assert_int_equal(rs_store_moves_since(st, row.id, 1, &moves, &n), RS_STORE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(moves[0].ply, 1);
    assert_int_equal(moves[1].action, 202);
    free(moves);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(rs_store_game_get(st, row.id, &back), RS_STORE_OK);
    assert_int_equal(back.v, 6);
    assert_int_equal(back.seat[0].user_id, 5);
    rs_store_begin(st);
    assert_int_equal(rs_store_game_write(st, &row, true), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(rs_store_game_get(st, row.id, &back), RS_STORE_OK);
    assert_int_equal(back.seat[0].user_id, 77);
    /* A ply already stored: the whole transaction is refused. */
    rs_store_begin(st);
    row.v = 9;
    rs_game_row other = sample_game();
    assert_int_equal(rs_store_game_insert(st, &other), RS_STORE_OK);
    rs_move_row dup = {1, 1, 1, 7, 1};
    rs_store_move_write(st, row.id, &dup);
    rs_store_game_write(st, &row, false);
    assert_int_equal(rs_store_commit(st), RS_STORE_ERROR);
    assert_int_equal(rs_store_game_get(st, row.id, &back), RS_STORE_OK);
    assert_int_equal(back.v, 6);
    assert_int_equal(rs_store_game_get(st, other.id, &back), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_moves_get(st, row.id, &moves, &n), RS_STORE_OK);
    assert_int_equal(n, 3);
    assert_int_equal(moves[1].action, 201);
    free(moves);
    rs_store_close(st);
}

static void test_games_moves_and_records(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_game_row row = sample_game(), back;
    rs_store_begin(st);
    assert_int_equal(rs_store_game_insert(st, &row), RS_STORE_OK);
    assert_true(row.id > 0);
    assert_int_equal(rs_store_game_get(st, row.id, &back), RS_STORE_OK);
    assert_true(back.seed == row.seed);
    assert_string_equal(back.options, row.options);
    assert_int_equal(back.seat[1].kind, RS_SEAT_AI);
    assert_string_equal(back.seat[1].ai_level, "hard");
    assert_int_equal(back.remaining_ms[1], -20);
    assert_int_equal(back.turn_wall_ms, 123456789);
    for (int i = 0; i < 5; i++) {
        rs_move_row m = {i, i % 2, (uint32_t)(100 + i), 4 + i, 1000 + i};
        assert_int_equal(rs_store_move_add(st, row.id, &m), RS_STORE_OK);
    }
    rs_move_row dup = {2, 0, 1, 1, 1};
    assert_int_equal(rs_store_move_add(st, row.id, &dup), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_moves_truncate(st, row.id, 3), RS_STORE_OK);
    rs_move_row *moves;
    size_t n;
    assert_int_equal(rs_store_moves_get(st, row.id, &moves, &n), RS_STORE_OK);
    assert_int_equal(n, 3);
    assert_int_equal(moves[2].action, 102);
    free(moves);
    int64_t *ids;
    assert_int_equal(rs_store_games_unfinished(st, &ids, &n), RS_STORE_OK);
    assert_int_equal(n, 1);
    free(ids);
    char *record;
    assert_int_equal(rs_store_record_get(st, row.id, &record), RS_STORE_NOTFOUND);
    row.status = RS_GAME_OVER;
    assert_int_equal(rs_store_game_save(st, &row), RS_STORE_OK);
    assert_int_equal(rs_store_record_put(st, row.id, "[game castle-danger]\n"), RS_STORE_OK);
    assert_int_equal(rs_store_record_get(st, row.id, &record), RS_STORE_OK);
    assert_string_equal(record, "[game castle-danger]\n");
    free(record);
    /* a finished game's reviews, one per seat (docs/review.md); a second write replaces */
    char *review;
    assert_int_equal(rs_store_review_get(st, row.id, 0, &review), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_review_put(st, row.id, 0, "{\"seat\":0}"), RS_STORE_OK);
    assert_int_equal(rs_store_review_put(st, row.id, 0, "{\"seat\":0,\"again\":1}"), RS_STORE_OK);
    assert_int_equal(rs_store_review_get(st, row.id, 0, &review), RS_STORE_OK);
    assert_string_equal(review, "{\"seat\":0,\"again\":1}");
    free(review);
    assert_int_equal(rs_store_review_get(st, row.id, 1, &review), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_games_unfinished(st, &ids, &n), RS_STORE_OK);
    assert_int_equal(n, 0);
    free(ids);
    rs_store_commit(st);
    rs_store_close(st);
}

/* Text a client typed goes in as a bound value, never as SQL. */
static void test_hostile_text_is_data(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t user;
    rs_store_begin(st);
    rs_store_user_add(st, "guest-q", true, 0, &user);
    const char *evil = "'); DROP TABLE chat; --";
    assert_int_equal(rs_store_chat_add(st, 1, RS_CHAT_PLAYERS, user, 5, evil), RS_STORE_OK);
    cJSON *lines = rs_store_chat_json(st, 1, RS_CHAT_PLAYERS, 10);
    assert_int_equal(cJSON_GetArraySize(lines), 1);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(lines, 0), "text")->valuestring,
                        evil);
    cJSON_Delete(lines);
    rs_store_commit(st);
    rs_store_close(st);
}

/* A game's chat channels are apart (issue 49, finding 7): the spectators' lines are not read
 * with the players', nor the other way round, and the switch is a channel of its own. */
static void test_chat_channels_apart(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t user;
    rs_store_begin(st);
    rs_store_user_add(st, "guest-c", true, 0, &user);
    assert_int_equal(rs_store_chat_add(st, 4, RS_CHAT_PLAYERS, user, 1, "to players"), RS_STORE_OK);
    assert_int_equal(rs_store_chat_add(st, 4, RS_CHAT_SPECTATORS, user, 2, "to spectators"),
                     RS_STORE_OK);
    assert_int_equal(rs_store_chat_add(st, 4, RS_CHAT_SWITCH, user, 3, "off"), RS_STORE_OK);
    const struct {
        rs_chat_channel channel;
        const char *text;
    } want[] = {{RS_CHAT_PLAYERS, "to players"},
                {RS_CHAT_SPECTATORS, "to spectators"},
                {RS_CHAT_SWITCH, "off"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cJSON *lines = rs_store_chat_json(st, 4, want[i].channel, 10);
        assert_int_equal(cJSON_GetArraySize(lines), 1);
        assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(lines, 0), "text")->valuestring,
                            want[i].text);
        cJSON_Delete(lines);
    }
    rs_store_commit(st);
    rs_store_close(st);
}

static void test_ratings_and_profile(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t user;
    rs_store_begin(st);
    rs_store_user_add(st, "Carol", false, 0, &user);
    rs_rating_row r;
    assert_int_equal(rs_store_rating_get(st, user, "walls-and-armies", &r), RS_STORE_NOTFOUND);
    rs_rating_row put = {1520.5, 180, 0.06, 1};
    assert_int_equal(rs_store_rating_put(st, user, "walls-and-armies", &put, 9, 77), RS_STORE_OK);
    assert_int_equal(rs_store_rating_get(st, user, "walls-and-armies", &r), RS_STORE_OK);
    assert_true(r.rating == 1520.5 && r.games == 1);
    rs_user u;
    rs_store_user_get(st, user, &u);
    cJSON *profile = rs_store_profile_json(st, &u);
    const cJSON *wa =
        cJSON_GetObjectItem(cJSON_GetObjectItem(profile, "ratings"), "walls-and-armies");
    assert_non_null(wa);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(profile, "rating_history")), 1);
    cJSON_Delete(profile);
    rs_store_commit(st);
    rs_store_close(st);
}

/* A seek of `user` in a pool named by `game`, made at since_ms on `node`. */
static int64_t add_seek(rs_store *st, int64_t user, const char *game, int64_t since_ms,
                        const char *node, int expect)
{
    rs_seek_row row = {.user = user, .players = 2, .rating = 1500.5, .since_ms = since_ms};
    snprintf(row.game, sizeof row.game, "%s", game);
    snprintf(row.pool, sizeof row.pool, "%s/2/0:0:0:0/0", game);
    snprintf(row.node, sizeof row.node, "%s", node);
    row.linked[row.num_linked++] = 77;
    row.linked[row.num_linked++] = 78;
    assert_int_equal(rs_store_seek_add(st, &row), expect);
    return row.id;
}

static size_t count_seeks(rs_store *st, const char *node, int64_t user)
{
    rs_seek_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(rs_store_seeks_read(st, node, user, &rows, &n), RS_STORE_OK);
    free(rows);
    return n;
}

/* "Play now": seeks stored and read back whole, one per user and pool, taken only all at
 * once, dropped one or all; the links of guests and accounts, both ways. */
static void test_seeks_and_links(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_store_begin(st);
    const int64_t a = add_seek(st, 1, "castle-danger", 500, "n1", RS_STORE_OK);
    add_seek(st, 1, "castle-danger", 600, "n1", RS_STORE_CONFLICT);
    const int64_t b = add_seek(st, 2, "castle-danger", 400, "n1", RS_STORE_OK);
    const int64_t c = add_seek(st, 1, "king-of-danger", 700, "n1", RS_STORE_OK);
    rs_seek_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(rs_store_seeks_read(st, "n1", 0, &rows, &n), RS_STORE_OK);
    assert_int_equal(n, 3);
    assert_int_equal(rows[0].id, b); /* oldest first */
    assert_true(rows[1].id == a && rows[1].user == 1 && rows[1].rating == 1500.5 &&
                rows[1].since_ms == 500 && rows[1].players == 2 && rows[1].num_linked == 2 &&
                rows[1].linked[1] == 78 && strcmp(rows[1].pool, "castle-danger/2/0:0:0:0/0") == 0);
    free(rows);
    assert_int_equal(count_seeks(st, "n1", 1), 2);
    const int64_t missing[] = {a, 9999};
    assert_int_equal(rs_store_seeks_take(st, missing, 2), RS_STORE_CONFLICT);
    assert_int_equal(count_seeks(st, "n1", 0), 3); /* nothing taken */
    const int64_t pair[] = {a, b};
    assert_int_equal(rs_store_seeks_take(st, pair, 2), RS_STORE_OK);
    assert_int_equal(count_seeks(st, "n1", 0), 1);
    int64_t dropped = -1;
    assert_int_equal(rs_store_seeks_drop(st, 2, c, &dropped), RS_STORE_OK);
    assert_int_equal(dropped, 0); /* not user 2's */
    add_seek(st, 1, "walls-and-armies", 800, "n1", RS_STORE_OK);
    assert_int_equal(rs_store_seeks_drop(st, 1, c, &dropped), RS_STORE_OK);
    assert_int_equal(dropped, 1);
    assert_int_equal(rs_store_seeks_drop(st, 1, 0, &dropped), RS_STORE_OK);
    assert_int_equal(dropped, 1);
    assert_int_equal(count_seeks(st, "n1", 0), 0);
    assert_int_equal(rs_store_link_add(st, 5, 9), RS_STORE_OK);
    assert_int_equal(rs_store_link_add(st, 5, 9), RS_STORE_OK); /* kept once */
    assert_int_equal(rs_store_link_add(st, 6, 9), RS_STORE_OK);
    int64_t links[4];
    int count = 0;
    assert_int_equal(rs_store_links_of(st, 9, links, 4, &count), RS_STORE_OK);
    assert_int_equal(count, 2);
    assert_true(links[0] == 6 && links[1] == 5); /* newest first */
    assert_int_equal(rs_store_links_of(st, 5, links, 4, &count), RS_STORE_OK);
    assert_true(count == 1 && links[0] == 9);
    add_seek(st, 3, "castle-danger", 900, "n1", RS_STORE_OK);
    assert_int_equal(rs_store_seeks_forget(st, "n1"), RS_STORE_OK);
    assert_int_equal(count_seeks(st, "n1", 0), 0);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_close(st);
}

/* A challenge from `from` to `to` made at created_ms, expiring 1000 ms later. */
static int64_t add_challenge(rs_store *st, int64_t from, int64_t to, int64_t created_ms)
{
    rs_challenge_row row = {.from = from,
                            .to = to,
                            .clock_kind = 2,
                            .per_move_ms = 86400000,
                            .rated = true,
                            .seat = -1,
                            .created_ms = created_ms,
                            .expires_ms = created_ms + 1000};
    snprintf(row.game, sizeof row.game, "castle-danger");
    snprintf(row.options, sizeof row.options, "{\"turn-limit\":40}");
    assert_int_equal(rs_store_challenge_add(st, &row), RS_STORE_OK);
    assert_true(row.id > 0);
    return row.id;
}

static size_t count_challenges(rs_store *st, int64_t user, int64_t due_ms)
{
    rs_challenge_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(rs_store_challenges_read(st, user, due_ms, &rows, &n), RS_STORE_OK);
    free(rows);
    return n;
}

/* Challenges stored and read back whole with both names, by user (sent and received, oldest
 * first) or by expiry; taken once; the setting that refuses them, true until set. */
static void test_challenges_and_settings(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_store_begin(st);
    int64_t alice, bob, carol;
    assert_int_equal(rs_store_user_add(st, "Alice", false, 1, &alice), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "Bob", false, 1, &bob), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "Carol", false, 1, &carol), RS_STORE_OK);
    const int64_t late = add_challenge(st, alice, bob, 5000);
    const int64_t early = add_challenge(st, bob, alice, 3000);
    add_challenge(st, carol, bob, 9000);
    rs_challenge_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(rs_store_challenges_read(st, alice, INT64_MAX, &rows, &n), RS_STORE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(rows[0].id, early); /* oldest first */
    assert_true(rows[1].id == late && rows[1].from == alice && rows[1].to == bob &&
                strcmp(rows[1].from_name, "Alice") == 0 && strcmp(rows[1].to_name, "Bob") == 0 &&
                strcmp(rows[1].game, "castle-danger") == 0 &&
                strcmp(rows[1].options, "{\"turn-limit\":40}") == 0 && rows[1].clock_kind == 2 &&
                rows[1].per_move_ms == 86400000 && rows[1].rated && rows[1].seat == -1 &&
                rows[1].created_ms == 5000 && rows[1].expires_ms == 6000);
    free(rows);
    assert_int_equal(count_challenges(st, bob, INT64_MAX), 3);
    assert_int_equal(count_challenges(st, 0, 6000), 2); /* expired by then: early, late */
    assert_int_equal(count_challenges(st, 0, 4000), 1);
    assert_int_equal(count_challenges(st, 0, 3999), 0);
    rs_challenge_row taken = {0};
    assert_int_equal(rs_store_challenge_take(st, late, &taken), RS_STORE_OK);
    assert_true(taken.id == late && taken.to == bob && strcmp(taken.to_name, "Bob") == 0);
    assert_int_equal(rs_store_challenge_take(st, late, &taken), RS_STORE_NOTFOUND);
    assert_int_equal(count_challenges(st, alice, INT64_MAX), 1);
    bool allows = false;
    assert_int_equal(rs_store_setting_get(st, bob, &allows), RS_STORE_OK);
    assert_true(allows); /* never set */
    assert_int_equal(rs_store_setting_put(st, bob, false), RS_STORE_OK);
    assert_int_equal(rs_store_setting_get(st, bob, &allows), RS_STORE_OK);
    assert_false(allows);
    assert_int_equal(rs_store_setting_put(st, bob, true), RS_STORE_OK);
    assert_int_equal(rs_store_setting_get(st, bob, &allows), RS_STORE_OK);
    assert_true(allows);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_close(st);
}

/* A failed commit undoes every write of the transaction. */
/* A tournament, its entries and pairings stored and read back; a round claimed once; a
 * pairing added twice refused the second time. */
static void test_tournaments(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_store_begin(st);
    int64_t alice, bob;
    assert_int_equal(rs_store_user_add(st, "Alice", false, 1, &alice), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "Bob", false, 1, &bob), RS_STORE_OK);
    rs_tour_row t = {.creator = alice,
                     .name = "Sunday 'Swiss'",
                     .game = "castle-danger",
                     .options = "tournament=1",
                     .format = 1,
                     .rounds = 5,
                     .set_games = 2,
                     .table_size = 2,
                     .bye_points = 2,
                     .rated = true,
                     .clock_kind = 1,
                     .initial_ms = 300000,
                     .increment_ms = 2000,
                     .created_ms = 10,
                     .starts_ms = 20};
    assert_int_equal(rs_store_tour_add(st, &t), RS_STORE_OK);
    assert_true(t.id > 0);
    const rs_tour_entry_row ea = {
        .tour = t.id, .user = alice, .rating = 1600.5, .active = true, .entered_ms = 11};
    rs_tour_entry_row eb = {
        .tour = t.id, .user = bob, .rating = 1400, .active = true, .entered_ms = 12};
    assert_int_equal(rs_store_tour_entry_put(st, &ea), RS_STORE_OK);
    assert_int_equal(rs_store_tour_entry_put(st, &eb), RS_STORE_OK);
    eb.active = false; /* Bob withdraws: the same entry, changed */
    assert_int_equal(rs_store_tour_entry_put(st, &eb), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);

    rs_tour_row back = {0};
    assert_int_equal(rs_store_tour_get(st, t.id, &back), RS_STORE_OK);
    assert_string_equal(back.name, "Sunday 'Swiss'");
    assert_string_equal(back.options, "tournament=1");
    assert_true(back.format == 1 && back.rounds == 5 && back.set_games == 2 && back.rated);
    assert_true(back.initial_ms == 300000 && back.increment_ms == 2000 && back.starts_ms == 20);
    assert_int_equal(back.round, 0);
    assert_int_equal(rs_store_tour_get(st, t.id + 1, &back), RS_STORE_NOTFOUND);
    rs_tour_entry_row *entries = NULL;
    size_t n = 0;
    assert_int_equal(rs_store_tour_entries(st, t.id, &entries, &n), RS_STORE_OK);
    assert_int_equal(n, 2);
    assert_string_equal(entries[0].name, "Alice");
    assert_true(entries[0].rating == 1600.5 && entries[0].active);
    assert_string_equal(entries[1].name, "Bob");
    assert_false(entries[1].active);
    free(entries);

    /* Round 1 is claimed once; round 3 cannot be claimed before round 2. */
    rs_store_begin(st);
    assert_int_equal(rs_store_tour_round_claim(st, t.id, 1), RS_STORE_OK);
    assert_int_equal(rs_store_tour_round_claim(st, t.id, 1), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_tour_round_claim(st, t.id, 3), RS_STORE_CONFLICT);
    rs_tour_pairing_row pr = {.tour = t.id,
                              .round = 1,
                              .board = 1,
                              .n = 2,
                              .user = {bob, alice},
                              .points = {-1, -1},
                              .game = 77};
    assert_int_equal(rs_store_tour_pairing_add(st, &pr), RS_STORE_OK);
    assert_int_equal(rs_store_tour_pairing_add(st, &pr), RS_STORE_CONFLICT);
    const rs_tour_pairing_row bye = {.tour = t.id,
                                     .round = 1,
                                     .board = 2,
                                     .n = 1,
                                     .user = {alice},
                                     .points = {2},
                                     .games_done = 0};
    assert_int_equal(rs_store_tour_pairing_add(st, &bye), RS_STORE_OK);
    pr.points[0] = 3; /* a win and a draw over the set */
    pr.points[1] = 1;
    pr.games_done = 2;
    pr.game = 0;
    assert_int_equal(rs_store_tour_pairing_put(st, &pr, 76), RS_STORE_CONFLICT); /* not 77 */
    assert_int_equal(rs_store_tour_pairing_put(st, &pr, 77), RS_STORE_OK);
    assert_int_equal(rs_store_tour_pairing_put(st, &pr, 77), RS_STORE_CONFLICT); /* once */
    /* Started once, from the moment given (an arena's duration runs from it). */
    assert_int_equal(rs_store_tour_start(st, t.id, 30), RS_STORE_OK);
    assert_int_equal(rs_store_tour_start(st, t.id, 40), RS_STORE_CONFLICT);
    /* A start is never undone by a cancellation (the start time's hour passing on another
     * server). */
    assert_int_equal(rs_store_tour_cancel(st, t.id), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);

    rs_tour_pairing_row *pairings = NULL;
    assert_int_equal(rs_store_tour_pairings(st, t.id, &pairings, &n), RS_STORE_OK);
    assert_int_equal(n, 2);
    assert_true(pairings[0].n == 2 && pairings[0].user[0] == bob && pairings[0].user[1] == alice);
    assert_true(pairings[0].points[0] == 3 && pairings[0].points[1] == 1);
    assert_true(pairings[0].games_done == 2 && pairings[0].game == 0);
    assert_true(pairings[1].n == 1 && pairings[1].user[0] == alice && pairings[1].points[0] == 2);
    free(pairings);
    assert_int_equal(rs_store_tour_get(st, t.id, &back), RS_STORE_OK);
    assert_true(back.round == 1 && back.status == RS_TOUR_RUNNING && back.starts_ms == 30);
    rs_tour_row *tours = NULL;
    assert_int_equal(rs_store_tour_list(st, 10, &tours, &n), RS_STORE_OK);
    assert_true(n == 1 && tours[0].id == t.id);
    assert_string_equal(tours[0].computer, ""); /* no house player */
    free(tours);

    /* A profile's tournaments: those the player entered (withdrawn too), newest first; the
     * house player's level read back. */
    rs_tour_row t2 = t;
    snprintf(t2.computer, sizeof t2.computer, "random");
    t2.rated = false;
    rs_store_begin(st);
    assert_int_equal(rs_store_tour_add(st, &t2), RS_STORE_OK);
    eb.tour = t2.id;
    assert_int_equal(rs_store_tour_entry_put(st, &eb), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(rs_store_tour_entered(st, bob, 10, &tours, &n), RS_STORE_OK);
    assert_true(n == 2 && tours[0].id == t2.id && tours[1].id == t.id);
    assert_string_equal(tours[0].computer, "random");
    free(tours);
    assert_int_equal(rs_store_tour_entered(st, alice, 10, &tours, &n), RS_STORE_OK);
    assert_true(n == 1 && tours[0].id == t.id);
    free(tours);
    assert_int_equal(rs_store_tour_entered(st, bob, 1, &tours, &n), RS_STORE_OK);
    assert_true(n == 1 && tours[0].id == t2.id); /* the limit */
    free(tours);
    assert_int_equal(rs_store_tour_entered(st, bob + alice + 1, 10, &tours, &n), RS_STORE_OK);
    assert_int_equal(n, 0);
    free(tours);

    /* An open tournament cancelled once, and then never started. */
    rs_store_begin(st);
    assert_int_equal(rs_store_tour_cancel(st, t2.id), RS_STORE_OK);
    assert_int_equal(rs_store_tour_cancel(st, t2.id), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_tour_start(st, t2.id, 50), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(rs_store_tour_get(st, t2.id, &back), RS_STORE_OK);
    assert_int_equal(back.status, RS_TOUR_CANCELLED);
    rs_store_close(st);
}

static void test_failed_commit_rolls_back(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t user;
    rs_store_begin(st);
    rs_store_user_add(st, "Dora", false, 0, &user);
    rs_store_fail_commits(st, 1);
    assert_int_equal(rs_store_commit(st), RS_STORE_ERROR);
    assert_false(rs_store_in_transaction(st));
    rs_user u;
    assert_int_equal(rs_store_user_find(st, "Dora", &u), RS_STORE_NOTFOUND);
    rs_store_begin(st);
    rs_store_user_add(st, "Dora", false, 0, &user);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(rs_store_user_find(st, "Dora", &u), RS_STORE_OK);
    rs_store_close(st);
}

/* A file database in WAL mode keeps what was committed across a reopen. */
static void test_file_database_survives_reopen(void **state)
{
    (void)state;
    char dir[] = "/tmp/ramparts-store-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], wal[300];
    snprintf(path, sizeof path, "%s/server.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", path);
    rs_store *st;
    char err[256];
    assert_int_equal(rs_store_open(&st, path, err, sizeof err), RS_STORE_OK);
    rs_game_row row = sample_game();
    rs_store_begin(st);
    rs_store_game_insert(st, &row);
    rs_store_meta_set(st, "alive_ms", 42);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(access(wal, F_OK), 0); /* write-ahead logging is on */
    assert_int_equal(rs_store_checkpoint(st), RS_STORE_OK);
    rs_store_close(st);
    assert_int_equal(rs_store_open(&st, path, err, sizeof err), RS_STORE_OK);
    rs_game_row back;
    assert_int_equal(rs_store_game_get(st, row.id, &back), RS_STORE_OK);
    assert_true(back.seed == row.seed);
    int64_t alive = 0;
    assert_int_equal(rs_store_meta_get(st, "alive_ms", &alive), RS_STORE_OK);
    assert_int_equal(alive, 42);
    rs_store_close(st);
    unlink(path);
    unlink(wal);
    char shm[300];
    snprintf(shm, sizeof shm, "%s-shm", path);
    unlink(shm);
    rmdir(dir);
}

/* PostgreSQL: what was committed is there for the next connection. */
static void test_postgres_survives_reopen(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_game_row row = sample_game();
    rs_store_begin(st);
    assert_int_equal(rs_store_game_insert(st, &row), RS_STORE_OK);
    rs_store_meta_set(st, "alive_ms", 42);
    rs_store_meta_set(st, "alive_ms", 43); /* replaced, not added */
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_close(st);
    char err[256];
    assert_int_equal(rs_store_open(&st, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_game_row back;
    assert_int_equal(rs_store_game_get(st, row.id, &back), RS_STORE_OK);
    assert_true(back.seed == row.seed);
    assert_int_equal(back.seat[0].user_id, 5);
    int64_t alive = 0;
    assert_int_equal(rs_store_meta_get(st, "alive_ms", &alive), RS_STORE_OK);
    assert_int_equal(alive, 43);
    rs_store_close(st);
}

/* The one value of a query on a connection of the test's own, as text (caller frees). */
static char *postgres_value(const char *sql)
{
    PGconn *conn = PQconnectdb(postgres_address());
    assert_int_equal(PQstatus(conn), CONNECTION_OK);
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    char *value = strdup(PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(conn);
    return value;
}

static void assert_postgres_value(const char *sql, const char *expected)
{
    char *value = postgres_value(sql);
    assert_string_equal(value, expected);
    free(value);
}

/* PostgreSQL: the schema is versioned (issue 47). A fresh database is made at this server's
 * version; one made before versions were kept (no schema_version, a column missing) is
 * migrated by the first server to open it; a newer one is refused with a message that says
 * so, and left as it was. */
static void test_postgres_schema_versions(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_store_close(st);
    assert_postgres_value("SELECT version FROM schema_version", "5");
    postgres_exec("DROP TABLE schema_version; ALTER TABLE games DROP COLUMN lease_until;"
                  " DROP INDEX chat_channel; ALTER TABLE chat DROP COLUMN channel;"
                  " ALTER TABLE users DROP COLUMN skeleton;"
                  " ALTER TABLE tournaments DROP COLUMN computer");
    char err[256];
    assert_int_equal(rs_store_open(&st, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_store_close(st);
    assert_postgres_value("SELECT version FROM schema_version", "5");
    assert_postgres_value("SELECT count(*) FROM information_schema.columns"
                          " WHERE table_name = 'games' AND column_name = 'lease_until'",
                          "1");
    assert_postgres_value("SELECT count(*) FROM information_schema.columns"
                          " WHERE table_name = 'tournaments' AND column_name = 'computer'",
                          "1");
    assert_postgres_value("SELECT count(*) FROM information_schema.columns"
                          " WHERE table_name = 'chat' AND column_name = 'channel'",
                          "1");
    assert_postgres_value("SELECT count(*) FROM information_schema.columns"
                          " WHERE table_name = 'users' AND column_name = 'skeleton'",
                          "1");
    postgres_exec("UPDATE schema_version SET version = 6");
    assert_int_equal(rs_store_open(&st, postgres_address(), err, sizeof err), RS_STORE_ERROR);
    assert_null(st);
    assert_non_null(strstr(err, "schema is version 6, newer than this server's (5)"));
    assert_postgres_value("SELECT version FROM schema_version", "6");
    postgres_exec("UPDATE schema_version SET version = 5");
}

/* PostgreSQL: neither a server starting nor a reconnection runs DDL on a database already at
 * its version, so neither waits for (nor deadlocks with) the other servers' writes. Another
 * session holds a writer's lock on games all along: ALTER TABLE games would need it
 * exclusively (issue 47: "cannot set up the schema: deadlock detected"). */
static void test_postgres_no_ddl_on_start_or_reconnection(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    PGconn *writer = PQconnectdb(postgres_address());
    assert_int_equal(PQstatus(writer), CONNECTION_OK);
    PQclear(PQexec(writer, "BEGIN; LOCK TABLE games IN ROW EXCLUSIVE MODE"));
    rs_store *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_store_close(two);
    postgres_exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                  " WHERE pid <> pg_backend_pid() AND datname = current_database()"
                  " AND state <> 'idle in transaction'");
    /* past the pause between reconnection attempts */
    nanosleep(&(struct timespec){0, 600 * 1000 * 1000}, NULL);
    rs_store_begin(st); /* the connection found lost: the next transaction reconnects */
    rs_user u;
    rs_store_user_find(st, "Nobody", &u);
    rs_store_commit(st);
    nanosleep(&(struct timespec){0, 600 * 1000 * 1000}, NULL);
    int64_t user;
    assert_int_equal(rs_store_begin(st), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "Fay", false, 0, &user), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    PQclear(PQexec(writer, "COMMIT"));
    PQfinish(writer);
    rs_store_close(st);
}

/* PostgreSQL: the connection lost mid-transaction. Nothing of the transaction is committed,
 * the error says the store is unavailable, and a later transaction reconnects; lost between
 * transactions, the next one reconnects before it sends anything and commits. */
static void test_postgres_connection_lost(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t user;
    rs_store_begin(st);
    assert_int_equal(rs_store_user_add(st, "Erin", false, 0, &user), RS_STORE_OK);
    postgres_exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                  " WHERE pid <> pg_backend_pid() AND datname = current_database()");
    rs_move_row m = {0, 0, 1, 1, 1};
    assert_int_equal(rs_store_move_add(st, 1, &m), RS_STORE_ERROR);
    assert_int_equal(rs_store_commit(st), RS_STORE_ERROR);
    assert_non_null(strstr(rs_store_error(st), "unavailable"));
    assert_true(rs_store_unavailable(st));
    assert_false(rs_store_in_transaction(st));
    /* past the pause between reconnection attempts */
    nanosleep(&(struct timespec){0, 600 * 1000 * 1000}, NULL);
    assert_int_equal(rs_store_begin(st), RS_STORE_OK);
    rs_user u;
    assert_int_equal(rs_store_user_find(st, "Erin", &u), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_user_add(st, "Erin", false, 0, &user), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(rs_store_user_find(st, "Erin", &u), RS_STORE_OK);
    /* Cut between transactions (the session ended, its end waiting on the socket: the
     * second argument waits for the session to be gone): the next transaction finds it at
     * its begin, before sending anything, opens a new connection and commits (issue 47: it
     * failed its commit). */
    postgres_exec("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
                  " WHERE pid <> pg_backend_pid() AND datname = current_database()");
    assert_int_equal(rs_store_begin(st), RS_STORE_OK);
    assert_int_equal(rs_store_user_find(st, "Erin", &u), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(st, "Gus", false, 0, &user), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    assert_int_equal(rs_store_user_find(st, "Gus", &u), RS_STORE_OK);
    rs_store_close(st);
}

/* Two servers on one database (docs/cluster.md): a row one holds is never waited for by the
 * other (BUSY at once), and is the other's after the commit, with the version committed. */
static void test_postgres_row_locks_do_not_wait(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    assert_true(rs_store_shared(one));
    rs_game_row row = sample_game();
    rs_store_begin(one);
    assert_int_equal(rs_store_game_insert(one, &row), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_game_lock lock;
    rs_store_begin(one);
    assert_int_equal(rs_store_game_lock(one, row.id, &lock), RS_STORE_OK);
    assert_int_equal(lock.v, row.v);
    row.v++;
    assert_int_equal(rs_store_game_save(one, &row), RS_STORE_OK);
    rs_store_begin(two);
    /* BUSY, not the lock timeout's error: it did not wait (one has not committed). */
    assert_int_equal(rs_store_game_lock(two, row.id, &lock), RS_STORE_BUSY);
    assert_int_equal(rs_store_game_lock(two, row.id + 1000, &lock), RS_STORE_NOTFOUND);
    rs_store_rollback(two);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_game_lock(two, row.id, &lock), RS_STORE_OK);
    assert_int_equal(lock.v, row.v);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    rs_store_close(two);
    rs_store_close(one);
}

/* A lease and its fencing token: taken when free, renewed only with the token it was taken
 * with; once it ran out and another server took it (a higher token), the first server's
 * token is refused by the database, whatever it believes. */
static void test_postgres_lease_fences_a_stale_token(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_game_row row = sample_game();
    rs_store_begin(one);
    assert_int_equal(rs_store_game_insert(one, &row), RS_STORE_OK);
    rs_game_lock lock;
    assert_int_equal(rs_store_game_lock(one, row.id, &lock), RS_STORE_OK);
    assert_string_equal(lock.owner, "");
    int64_t token_one, token_two;
    assert_int_equal(rs_store_lease_take(one, row.id, "one", 1, &token_one), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    sleep_ms(20); /* a lease of 1 ms has run out */
    rs_store_begin(two);
    assert_int_equal(rs_store_game_lock(two, row.id, &lock), RS_STORE_OK);
    assert_string_equal(lock.owner, "one");
    assert_int_equal(lock.token, token_one);
    assert_true(lock.expired);
    assert_int_equal(rs_store_lease_take(two, row.id, "two", 60000, &token_two), RS_STORE_OK);
    assert_int_equal(token_two, token_one + 1);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    rs_store_begin(one); /* the first server wakes up and acts with its old token */
    assert_int_equal(rs_store_game_lock(one, row.id, &lock), RS_STORE_OK);
    assert_string_equal(lock.owner, "two");
    assert_false(lock.expired);
    assert_true(lock.left_ms > 50000);
    assert_int_equal(rs_store_lease_fence(one, row.id, "one", token_one, 60000), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_lease_fence(one, row.id, "two", token_one, 60000), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_game_lock(two, row.id, &lock), RS_STORE_OK);
    assert_int_equal(rs_store_lease_fence(two, row.id, "two", token_two, 60000), RS_STORE_OK);
    assert_int_equal(rs_store_leases_renew(two, "two", 0), RS_STORE_OK); /* given up */
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    rs_store_begin(one);
    assert_int_equal(rs_store_game_lock(one, row.id, &lock), RS_STORE_OK);
    assert_true(lock.expired);
    rs_store_rollback(one);
    rs_store_close(two);
    rs_store_close(one);
}

/* Insert a variant of sample_game: its status, clock and second seat as given; created and
 * started at `at_ms` (wall time). */
static int64_t insert_game(rs_store *st, rs_game_status status, int clock_kind, rs_seat_kind second,
                           int64_t at_ms)
{
    rs_game_row row = sample_game();
    row.status = status;
    row.clock_kind = clock_kind;
    row.seat[1].kind = second;
    row.created_ms = row.started_ms = at_ms;
    assert_int_equal(rs_store_game_insert(st, &row), RS_STORE_OK);
    return row.id;
}

/* The ids of rs_store_games_unleased(st, lease_ms, all, limit) as "ID:stale ID:fresh ...". */
static void unleased_text(rs_store *st, int64_t lease_ms, bool all, int limit, char *out,
                          size_t size)
{
    rs_unleased_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(rs_store_games_unleased(st, lease_ms, all, limit, &rows, &n), RS_STORE_OK);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%lld:%s", i ? " " : "", (long long)rows[i].id,
                 rows[i].stale ? "stale" : "fresh");
    }
    free(rows);
}

/* The sweep's list (docs/cluster.md): live games with a clock or an AI seat and no lease
 * running (and open games when `all`), oldest first, never a live game between people without
 * a clock; a lease running hides a game; "stale" once free for longer than a lease and older
 * than one. */
static void test_postgres_unleased_games_are_listed(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_store_begin(st);
    const int64_t old_ms = 1000; /* long ago */
    const int64_t clocked = insert_game(st, RS_GAME_LIVE, 1, RS_SEAT_HUMAN, old_ms);
    const int64_t ai = insert_game(st, RS_GAME_LIVE, 0, RS_SEAT_AI, old_ms);
    insert_game(st, RS_GAME_LIVE, 0, RS_SEAT_HUMAN, old_ms); /* between people, untimed */
    const int64_t open = insert_game(st, RS_GAME_OPEN, 0, RS_SEAT_OPEN, old_ms);
    insert_game(st, RS_GAME_OVER, 1, RS_SEAT_AI, old_ms);
    const int64_t young =
        insert_game(st, RS_GAME_LIVE, 1, RS_SEAT_HUMAN, (int64_t)time(NULL) * 1000);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    char text[256], want[256];
    unleased_text(st, 60000, false, 100, text, sizeof text);
    snprintf(want, sizeof want, "%lld:stale %lld:stale %lld:fresh", (long long)clocked,
             (long long)ai, (long long)young);
    assert_string_equal(text, want);
    unleased_text(st, 60000, true, 100, text, sizeof text);
    snprintf(want, sizeof want, "%lld:stale %lld:stale %lld:stale %lld:fresh", (long long)clocked,
             (long long)ai, (long long)open, (long long)young);
    assert_string_equal(text, want);
    unleased_text(st, 60000, true, 2, text, sizeof text);
    snprintf(want, sizeof want, "%lld:stale %lld:stale", (long long)clocked, (long long)ai);
    assert_string_equal(text, want);
    /* A lease running hides the game; one run out shows it again, fresh for a lease. */
    rs_store_begin(st);
    rs_game_lock lock;
    int64_t token;
    assert_int_equal(rs_store_game_lock(st, clocked, &lock), RS_STORE_OK);
    assert_int_equal(rs_store_lease_take(st, clocked, "one", 60000, &token), RS_STORE_OK);
    assert_int_equal(rs_store_game_lock(st, ai, &lock), RS_STORE_OK);
    assert_int_equal(rs_store_lease_take(st, ai, "one", 1, &token), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    sleep_ms(20); /* the 1 ms lease has run out */
    unleased_text(st, 60000, false, 100, text, sizeof text);
    snprintf(want, sizeof want, "%lld:fresh %lld:fresh", (long long)ai, (long long)young);
    assert_string_equal(text, want);
    unleased_text(st, 1, false, 100, text, sizeof text);
    snprintf(want, sizeof want, "%lld:stale %lld:stale", (long long)ai, (long long)young);
    assert_string_equal(text, want);
    rs_store_close(st);
}

static void collect_line(void *ctx, const char *line)
{
    char *out = ctx;
    strncat(out, line, 255 - strlen(out));
    strncat(out, "|", 255 - strlen(out));
}

/* Announcements reach every listener at the commit, and only if it commits. */
static void test_postgres_announcements_follow_the_commit(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    char heard[256] = "";
    assert_int_equal(rs_store_announcements(two, collect_line, heard), 1); /* opened */
    assert_true(rs_store_listen_fd(two) >= 0);
    rs_store_begin(one);
    assert_int_equal(rs_store_announce(one, "g 1 2 one"), RS_STORE_OK);
    rs_store_rollback(one);
    rs_store_begin(one);
    assert_int_equal(rs_store_announce(one, "g 1 3 one"), RS_STORE_OK);
    assert_int_equal(rs_store_announcements(two, collect_line, heard), 0);
    assert_string_equal(heard, ""); /* nothing before the commit */
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    /* A bound for a hang (60 s), not a measure of speed: a loaded machine may take long. */
    for (int i = 0; i < 12000 && !heard[0]; i++) {
        sleep_ms(5);
        assert_int_equal(rs_store_announcements(two, collect_line, heard), 0);
    }
    assert_string_equal(heard, "g 1 3 one|");
    rs_store_close(two);
    rs_store_close(one);
}

/* Who is connected where: a server's rows count for the others while its sign of life lasts,
 * never for itself, and go at its stop. */
static void test_postgres_presence_lasts_with_the_node(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_store_begin(one);
    assert_int_equal(rs_store_node_alive(one, "one", 60000), RS_STORE_OK);
    assert_int_equal(rs_store_presence_put(one, "one", 7, 0, true), RS_STORE_OK);
    assert_int_equal(rs_store_presence_put(one, "one", 7, 42, true), RS_STORE_OK);
    assert_int_equal(rs_store_presence_put(one, "one", 7, 42, true), RS_STORE_OK); /* again */
    assert_int_equal(rs_store_presence_put(one, "one", 8, 43, true), RS_STORE_OK);
    assert_int_equal(rs_store_presence_put(one, "one", 8, 43, false), RS_STORE_OK);
    bool online = true;
    rs_presence_row *rows = NULL;
    size_t n = 9;
    rs_store_begin(two); /* nothing before the commit */
    assert_int_equal(rs_store_user_elsewhere(two, "two", 7, &online), RS_STORE_OK);
    assert_false(online);
    rs_store_rollback(two);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    assert_int_equal(rs_store_user_elsewhere(two, "two", 7, &online), RS_STORE_OK);
    assert_true(online);
    assert_int_equal(rs_store_user_elsewhere(one, "one", 7, &online), RS_STORE_OK);
    assert_false(online); /* its own rows are not "elsewhere" */
    assert_int_equal(rs_store_user_elsewhere(two, "two", 8, &online), RS_STORE_OK);
    assert_false(online);
    assert_int_equal(rs_store_presence_elsewhere(two, "two", 0, &rows, &n), RS_STORE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(rows[0].game, 42);
    assert_int_equal(rows[0].user, 7);
    free(rows);
    assert_int_equal(rs_store_presence_elsewhere(two, "two", 43, &rows, &n), RS_STORE_OK);
    assert_int_equal(n, 0);
    free(rows);
    char *live = NULL;
    assert_int_equal(rs_store_nodes_live(two, &live), RS_STORE_OK);
    assert_string_equal(live, "one");
    free(live);
    rs_store_begin(one); /* its sign of life runs out: its rows count no more */
    assert_int_equal(rs_store_node_alive(one, "one", 1), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    sleep_ms(20);
    assert_int_equal(rs_store_user_elsewhere(two, "two", 7, &online), RS_STORE_OK);
    assert_false(online);
    assert_int_equal(rs_store_presence_elsewhere(two, "two", 42, &rows, &n), RS_STORE_OK);
    assert_int_equal(n, 0);
    free(rows);
    assert_int_equal(rs_store_nodes_live(two, &live), RS_STORE_OK);
    assert_string_equal(live, "");
    free(live);
    rs_store_begin(one); /* alive again, then stopped: its rows are gone */
    assert_int_equal(rs_store_node_alive(one, "one", 60000), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    assert_int_equal(rs_store_user_elsewhere(two, "two", 7, &online), RS_STORE_OK);
    assert_true(online);
    rs_store_begin(one);
    assert_int_equal(rs_store_node_gone(one, "one"), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    assert_int_equal(rs_store_user_elsewhere(two, "two", 7, &online), RS_STORE_OK);
    assert_false(online);
    rs_store_close(two);
    rs_store_close(one);
}

/* SQLite: one server, which knows its own connections: nobody is elsewhere. */
static void test_sqlite_has_nobody_elsewhere(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    rs_store_begin(st);
    assert_int_equal(rs_store_node_alive(st, "one", 60000), RS_STORE_OK);
    assert_int_equal(rs_store_presence_put(st, "one", 7, 42, true), RS_STORE_OK);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    bool online = true;
    assert_int_equal(rs_store_user_elsewhere(st, "two", 7, &online), RS_STORE_OK);
    assert_false(online);
    rs_presence_row *rows = NULL;
    size_t n = 9;
    assert_int_equal(rs_store_presence_elsewhere(st, "two", 0, &rows, &n), RS_STORE_OK);
    assert_int_equal(n, 0);
    assert_null(rows);
    char *live = NULL;
    assert_int_equal(rs_store_nodes_live(st, &live), RS_STORE_OK);
    assert_string_equal(live, "");
    free(live);
    /* Its one server holds every game: none waits for a lease holder. */
    rs_store_begin(st);
    insert_game(st, RS_GAME_LIVE, 1, RS_SEAT_AI, 1000);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    char text[64];
    unleased_text(st, 1, true, 100, text, sizeof text);
    assert_string_equal(text, "");
    rs_store_close(st);
}

/* PostgreSQL: an address where no server listens is refused at open, saying so. */
static void test_postgres_unreachable_is_refused(void **state)
{
    (void)state;
    rs_store *st = (rs_store *)1;
    char err[256] = "";
    assert_int_equal(rs_store_open(&st, "postgresql:///x?host=/nonexistent-dir&connect_timeout=2",
                                   err, sizeof err),
                     RS_STORE_ERROR);
    assert_null(st);
    assert_non_null(strstr(err, "unavailable: cannot connect to PostgreSQL"));
}

static int sqlite_user_version(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    const int version = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return version;
}

static void sqlite_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* SQLite keeps its schema's version in PRAGMA user_version (issue 47, as on PostgreSQL): a
 * database at version 0 (made before versions were checked) is migrated, keeping its rows;
 * a newer one is refused with a message that says so, and left as it was. */
static void test_sqlite_schema_versions(void **state)
{
    (void)state;
    char dir[] = "/tmp/ramparts-store-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/server.db", dir);
    rs_store *st;
    char err[256];
    assert_int_equal(rs_store_open(&st, path, err, sizeof err), RS_STORE_OK);
    rs_store_begin(st);
    rs_store_meta_set(st, "alive_ms", 7);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_close(st);
    assert_int_equal(sqlite_user_version(path), 5);
    sqlite_exec(path, "PRAGMA user_version=0; DROP INDEX seats_user; DROP INDEX chat_channel;"
                      " ALTER TABLE chat DROP COLUMN channel; DROP INDEX users_skeleton;"
                      " DROP INDEX tokens_expires; DROP INDEX tokens_user;"
                      " ALTER TABLE users DROP COLUMN skeleton; DROP INDEX tournament_entries_user;"
                      " ALTER TABLE tournaments DROP COLUMN computer;");
    assert_int_equal(rs_store_open(&st, path, err, sizeof err), RS_STORE_OK);
    int64_t alive = 0;
    assert_int_equal(rs_store_meta_get(st, "alive_ms", &alive), RS_STORE_OK);
    assert_int_equal(alive, 7);
    rs_store_close(st);
    assert_int_equal(sqlite_user_version(path), 5);
    /* A version 2 database (before tournaments and the names' skeletons) gains their tables
     * and columns, its data kept. */
    sqlite_exec(path, "PRAGMA user_version=2; DROP TABLE tournaments; DROP INDEX users_skeleton;"
                      " DROP INDEX tokens_expires; DROP INDEX tokens_user;"
                      " ALTER TABLE users DROP COLUMN skeleton;"
                      " DROP INDEX tournament_entries_user;");
    assert_int_equal(rs_store_open(&st, path, err, sizeof err), RS_STORE_OK);
    rs_tour_row *tours = NULL;
    size_t count = 1;
    assert_int_equal(rs_store_tour_list(st, 10, &tours, &count), RS_STORE_OK);
    assert_int_equal(count, 0);
    assert_int_equal(rs_store_meta_get(st, "alive_ms", &alive), RS_STORE_OK);
    assert_int_equal(alive, 7);
    rs_store_close(st);
    assert_int_equal(sqlite_user_version(path), 5);
    sqlite_exec(path, "PRAGMA user_version=6;");
    assert_int_equal(rs_store_open(&st, path, err, sizeof err), RS_STORE_ERROR);
    assert_null(st);
    assert_non_null(strstr(err, "schema is version 6, newer than this server's (5)"));
    assert_int_equal(sqlite_user_version(path), 6);
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        char file[300];
        snprintf(file, sizeof file, "%s%s", path, suffixes[i]);
        unlink(file);
    }
    rmdir(dir);
}

static void test_unopenable_path_is_refused(void **state)
{
    (void)state;
    rs_store *st = (rs_store *)1;
    char err[256] = "";
    assert_int_equal(rs_store_open(&st, "/nonexistent-dir/x/server.db", err, sizeof err),
                     RS_STORE_ERROR);
    assert_null(st);
    assert_non_null(strstr(err, "cannot open"));
}

/* The startup log line shows the database address: never a password in it. */
static void test_address_for_log_hides_the_password(void **state)
{
    (void)state;
    char out[256];
    rs_store_address_for_log("postgres://ramparts:s3cret@db.example:5432/games", out, sizeof out);
    assert_string_equal(out, "postgres://ramparts:***@db.example:5432/games");
    rs_store_address_for_log("postgresql://db/games?user=r&password=s3cret&sslmode=require", out,
                             sizeof out);
    assert_string_equal(out, "postgresql://db/games?user=r&password=***&sslmode=require");
    rs_store_address_for_log("postgres://ramparts@db/games", out, sizeof out);
    assert_string_equal(out, "postgres://ramparts@db/games");
    rs_store_address_for_log("/var/lib/ramparts/server.db", out, sizeof out);
    assert_string_equal(out, "/var/lib/ramparts/server.db");
}

/* Two servers pairing the same seeks at once: the database decides. Server one takes a
 * group (uncommitted); server two's take of an overlapping group is refused at once (not
 * waited for) and takes nothing, not even its seek no one else holds. A server's seeks are
 * paired while its sign of life lasts, passed over once it ran out, and dropped only once it
 * has been out for 10 s. */
static void test_postgres_seeks_taken_once(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_store_begin(one);
    const int64_t a = add_seek(one, 1, "castle-danger", 100, "n1", RS_STORE_OK);
    const int64_t b = add_seek(one, 2, "castle-danger", 200, "n1", RS_STORE_OK);
    const int64_t c = add_seek(one, 3, "castle-danger", 300, "n1", RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(one);
    const int64_t first[] = {a, b}, second[] = {b, c};
    assert_int_equal(rs_store_seeks_take(one, first, 2), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_seeks_take(two, second, 2), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_seek_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(rs_store_seeks_read(two, "n1", 0, &rows, &n), RS_STORE_OK);
    assert_true(n == 1 && rows[0].id == c);
    free(rows);
    /* n2 alive: its seek is paired; n3 out for 5 s: passed over, kept; n4 out for 20 s:
     * dropped by the next read of everyone's seeks. */
    rs_store_begin(one);
    assert_int_equal(rs_store_node_alive(one, "n2", 60000), RS_STORE_OK);
    assert_int_equal(rs_store_node_alive(one, "n3", -5000), RS_STORE_OK);
    assert_int_equal(rs_store_node_alive(one, "n4", -20000), RS_STORE_OK);
    add_seek(one, 4, "castle-danger", 400, "n2", RS_STORE_OK);
    add_seek(one, 5, "castle-danger", 500, "n3", RS_STORE_OK);
    add_seek(one, 6, "castle-danger", 600, "n4", RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    assert_int_equal(count_seeks(two, "n1", 0), 2); /* c and n2's */
    assert_int_equal(count_seeks(two, "n3", 5), 1); /* a server sees its own */
    PGconn *conn = PQconnectdb(postgres_address());
    PGresult *r = PQexec(conn, "SELECT node FROM seeks ORDER BY node");
    assert_int_equal(PQntuples(r), 3);
    assert_string_equal(PQgetvalue(r, 2, 0), "n3"); /* n4's went; n3's stays */
    PQclear(r);
    PQfinish(conn);
    rs_store_close(two);
    rs_store_close(one);
}

/* Two servers ending one challenge at once: the first takes it (uncommitted); the second
 * is refused at once (not waited for) and takes nothing. */
static void test_postgres_challenge_taken_once(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_store_begin(one);
    int64_t alice, bob;
    assert_int_equal(rs_store_user_add(one, "Alice", false, 1, &alice), RS_STORE_OK);
    assert_int_equal(rs_store_user_add(one, "Bob", false, 1, &bob), RS_STORE_OK);
    const int64_t id = add_challenge(one, alice, bob, 100);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_challenge_row row = {0};
    rs_store_begin(one);
    assert_int_equal(rs_store_challenge_take(one, id, &row), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_challenge_take(two, id, &row), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    assert_int_equal(count_challenges(two, 0, INT64_MAX), 0);
    rs_store_close(two);
    rs_store_close(one);
}

/* Two servers pairing one round at once: the first claims it (uncommitted); the second is
 * refused at once, not made to wait, and after the first commits the round is taken. */
static void test_postgres_round_claimed_once(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_store_begin(one);
    rs_tour_row t = {.creator = 1,
                     .name = "x",
                     .game = "castle-danger",
                     .format = 1,
                     .rounds = 3,
                     .set_games = 1,
                     .table_size = 2};
    assert_int_equal(rs_store_tour_add(one, &t), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(one);
    assert_int_equal(rs_store_tour_round_claim(one, t.id, 1), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_tour_round_claim(two, t.id, 1), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_tour_round_claim(two, t.id, 1), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_tour_round_claim(two, t.id, 2), RS_STORE_OK);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    rs_tour_row back = {0};
    assert_int_equal(rs_store_tour_get(one, t.id, &back), RS_STORE_OK);
    assert_int_equal(back.round, 2);
    /* Started once in the same way: the second server is refused while the first holds it,
     * and after. */
    rs_store_begin(one);
    assert_int_equal(rs_store_tour_start(one, t.id, 50), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_tour_start(two, t.id, 60), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_tour_start(two, t.id, 70), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    assert_int_equal(rs_store_tour_get(one, t.id, &back), RS_STORE_OK);
    assert_true(back.status == RS_TOUR_RUNNING && back.starts_ms == 50);
    rs_store_close(two);
    rs_store_close(one);
}

/* Two servers cancelling one tournament an hour after its start time: the first cancels it
 * (uncommitted); the second is refused at once, to cancel or to start, not made to wait, and
 * after the first commits it stays cancelled. */
static void test_postgres_cancel_claimed_once(void **state)
{
    (void)state;
    rs_store *one = open_memory(), *two;
    char err[256];
    assert_int_equal(rs_store_open(&two, postgres_address(), err, sizeof err), RS_STORE_OK);
    rs_store_begin(one);
    rs_tour_row t = {.creator = 1,
                     .name = "x",
                     .game = "castle-danger",
                     .format = 1,
                     .rounds = 3,
                     .set_games = 1,
                     .table_size = 2,
                     .created_ms = 1,
                     .starts_ms = 2};
    assert_int_equal(rs_store_tour_add(one, &t), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(one);
    assert_int_equal(rs_store_tour_cancel(one, t.id), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_tour_cancel(two, t.id), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_tour_start(two, t.id, 3), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    assert_int_equal(rs_store_commit(one), RS_STORE_OK);
    rs_store_begin(two);
    assert_int_equal(rs_store_tour_start(two, t.id, 4), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_commit(two), RS_STORE_OK);
    rs_tour_row back = {0};
    assert_int_equal(rs_store_tour_get(two, t.id, &back), RS_STORE_OK);
    assert_true(back.status == RS_TOUR_CANCELLED && back.starts_ms == 2);
    rs_store_close(two);
    rs_store_close(one);
}

/* Lookalike names (issue 49, finding 9): a name whose confusable skeleton is a registered
 * one's is found, and registering it is refused (CONFLICT) even past the server's own check;
 * a guest's name has no skeleton to collide with. */
static void test_lookalike_names_refused(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t alice, other, guest;
    rs_store_begin(st);
    rs_store_user_add(st, "guest-a", true, 0, &alice);
    assert_int_equal(rs_store_user_register(st, alice, "Alice", "$argon2id$a"), RS_STORE_OK);
    rs_store_user_add(st, "guest-b", true, 0, &other);
    rs_store_user_add(st, "guest-c", true, 0, &guest);
    char skeleton[RS_SKELETON_TEXT], lowered[RS_SKELETON_TEXT];
    assert_true(rs_name_skeleton("AIice", skeleton)); /* a capital i for the l */
    assert_true(rs_name_skeleton("aiice", lowered));
    rs_user found;
    assert_int_equal(rs_store_user_lookalike(st, skeleton, lowered, other, &found), RS_STORE_OK);
    assert_int_equal(found.id, alice);
    /* Alice herself is not her own lookalike (a rename would find her) */
    assert_int_equal(rs_store_user_lookalike(st, skeleton, lowered, alice, &found),
                     RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_user_register(st, other, "AIice", "$argon2id$b"), RS_STORE_CONFLICT);
    assert_int_equal(rs_store_user_get(st, other, &found), RS_STORE_OK);
    assert_true(found.guest); /* the refusal changed nothing */
    assert_int_equal(rs_store_user_register(st, other, "Alicia", "$argon2id$b"), RS_STORE_OK);
    assert_true(rs_name_skeleton("guest-c", skeleton));
    assert_int_equal(rs_store_user_lookalike(st, skeleton, skeleton, 0, &found), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_close(st);
}

/* The expiry sweep (issue 49, finding 6): expired tokens go; a guest goes once nothing refers
 * to it (no token left, no seat, no game created, no seek, link, challenge, rating, setting,
 * chat line); registered users, guests with a live token and guests seated in a game stay. */
static void test_sweep_tokens_and_guests(void **state)
{
    (void)state;
    rs_store *st = open_memory();
    int64_t lapsed, live, seated, rated, account, fresh;
    uint8_t old_token[RS_TOKEN_HASH], live_token[RS_TOKEN_HASH], seated_token[RS_TOKEN_HASH];
    memset(old_token, 1, sizeof old_token);
    memset(live_token, 2, sizeof live_token);
    memset(seated_token, 3, sizeof seated_token);
    rs_store_begin(st);
    rs_store_user_add(st, "guest-lapsed", true, 0, &lapsed);
    rs_store_user_add(st, "guest-live", true, 0, &live);
    rs_store_user_add(st, "guest-seated", true, 0, &seated);
    rs_store_user_add(st, "guest-rated", true, 0, &rated);
    rs_store_user_add(st, "guest-account", true, 0, &account);
    rs_store_user_register(st, account, "Account1", "$argon2id$x");
    rs_store_user_add(st, "guest-fresh", true, 0, &fresh); /* logged out: no token at all */
    rs_store_token_add(st, old_token, lapsed, 0, 1000);
    rs_store_token_add(st, live_token, live, 0, 5000);
    rs_store_token_add(st, seated_token, seated, 0, 1000);
    rs_game_row game = sample_game();
    game.seat[0].user_id = seated;
    game.creator = seated;
    assert_int_equal(rs_store_game_insert(st, &game), RS_STORE_OK);
    const rs_rating_row rating = {1600, 200, 0.06, 1};
    assert_int_equal(rs_store_rating_put(st, rated, "castle-danger", &rating, game.id, 10),
                     RS_STORE_OK);
    int64_t tokens = -1, guests = -1;
    assert_int_equal(rs_store_sweep_accounts(st, 2000, 100, &tokens, &guests), RS_STORE_OK);
    assert_int_equal(tokens, 2); /* lapsed's and seated's */
    assert_int_equal(guests, 2); /* lapsed and fresh */
    rs_user u;
    assert_int_equal(rs_store_user_get(st, lapsed, &u), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_user_get(st, fresh, &u), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_user_get(st, live, &u), RS_STORE_OK);
    assert_int_equal(rs_store_user_get(st, seated, &u), RS_STORE_OK);
    assert_int_equal(rs_store_user_get(st, rated, &u), RS_STORE_OK);
    assert_int_equal(rs_store_user_get(st, account, &u), RS_STORE_OK);
    int64_t found;
    bool expired;
    assert_int_equal(rs_store_token_user(st, live_token, 2000, &found, &expired), RS_STORE_OK);
    assert_int_equal(rs_store_token_user(st, old_token, 0, &found, &expired), RS_STORE_NOTFOUND);
    /* nothing more to do: a second sweep finds nothing */
    assert_int_equal(rs_store_sweep_accounts(st, 2000, 100, &tokens, &guests), RS_STORE_OK);
    assert_true(tokens == 0 && guests == 0);
    /* the limit holds: once the live token expires too, one guest at a time */
    assert_int_equal(rs_store_sweep_accounts(st, 6000, 0, &tokens, &guests), RS_STORE_OK);
    assert_true(tokens == 1 && guests == 0);
    assert_int_equal(rs_store_sweep_accounts(st, 6000, 1, &tokens, &guests), RS_STORE_OK);
    assert_true(tokens == 0 && guests == 1);
    assert_int_equal(rs_store_user_get(st, live, &u), RS_STORE_NOTFOUND);
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    rs_store_close(st);
}

int main(void)
{
    const struct CMUnitTest common[] = {
        cmocka_unit_test(test_users_and_names),
        cmocka_unit_test(test_tokens_expire_and_revoke),
        cmocka_unit_test(test_password_change_revokes_other_tokens),
        cmocka_unit_test(test_lookalike_names_refused),
        cmocka_unit_test(test_sweep_tokens_and_guests),
        cmocka_unit_test(test_games_moves_and_records),
        cmocka_unit_test(test_queued_writes),
        cmocka_unit_test(test_hostile_text_is_data),
        cmocka_unit_test(test_chat_channels_apart),
        cmocka_unit_test(test_ratings_and_profile),
        cmocka_unit_test(test_failed_commit_rolls_back),
        cmocka_unit_test(test_seeks_and_links),
        cmocka_unit_test(test_challenges_and_settings),
        cmocka_unit_test(test_tournaments),
        cmocka_unit_test(test_postgres_unreachable_is_refused),
        cmocka_unit_test(test_address_for_log_hides_the_password),
    };
    const struct CMUnitTest sqlite_only[] = {
        cmocka_unit_test(test_file_database_survives_reopen),
        cmocka_unit_test(test_unopenable_path_is_refused),
        cmocka_unit_test(test_sqlite_schema_versions),
        cmocka_unit_test(test_sqlite_has_nobody_elsewhere),
    };
    const struct CMUnitTest postgres_only[] = {
        cmocka_unit_test(test_postgres_survives_reopen),
        cmocka_unit_test(test_postgres_schema_versions),
        cmocka_unit_test(test_postgres_no_ddl_on_start_or_reconnection),
        cmocka_unit_test(test_postgres_connection_lost),
        cmocka_unit_test(test_postgres_row_locks_do_not_wait),
        cmocka_unit_test(test_postgres_lease_fences_a_stale_token),
        cmocka_unit_test(test_postgres_unleased_games_are_listed),
        cmocka_unit_test(test_postgres_announcements_follow_the_commit),
        cmocka_unit_test(test_postgres_presence_lasts_with_the_node),
        cmocka_unit_test(test_postgres_seeks_taken_once),
        cmocka_unit_test(test_postgres_challenge_taken_once),
        cmocka_unit_test(test_postgres_round_claimed_once),
        cmocka_unit_test(test_postgres_cancel_claimed_once),
    };
    int failed = cmocka_run_group_tests_name("store", common, NULL, NULL);
    if (postgres_address())
        return failed + cmocka_run_group_tests_name("postgres", postgres_only, NULL, NULL);
    return failed + cmocka_run_group_tests_name("sqlite", sqlite_only, NULL, NULL);
}
