/* store.h — the server's storage interface: users and tokens, games with their seats and
 * moves, chat, ratings, and the read models of the HTTP API. Two independent backends behind
 * the same calls, each a table of operations (store_backend.h) that store.c dispatches to:
 * store_sqlite.c (SQLite in WAL mode, or in memory with the path ":memory:") and store_pg.c
 * (PostgreSQL, for an address postgres://...; docs/cluster.md). The read models are built
 * once, in store_read.c (store_read.h), from the rows either backend fetches; the rows
 * themselves are store_rows.h.
 *
 * Writes happen on one thread (the service thread) inside a transaction the caller opens
 * with rs_store_begin and ends with rs_store_commit (a group commit: every change of one loop
 * iteration together). Only rs_store_checkpoint may run on another thread. No caller text
 * ever becomes SQL: every value is a bound parameter. */
#ifndef RS_STORE_H
#define RS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store_read.h"
#include "store_rows.h"
#include "store_sqlite.h"

struct cJSON;

/* Open (creating and migrating) the database at path: a file, "sqlite:FILE", ":memory:"
 * (kept in memory), or a PostgreSQL address "postgres://..." / "postgresql://...". */
int rs_store_open(rs_store **out, const char *path, char *err, size_t err_size);
/* The same, saying how SQLite syncs a commit (rs_store_sync); PostgreSQL always commits with
 * synchronous_commit=on, and refuses RS_SYNC_NORMAL. */
int rs_store_open_synced(rs_store **out, const char *path, rs_store_sync sync, char *err,
                         size_t err_size);
void rs_store_close(rs_store *st);
/* The address as a log line may show it: a password in a PostgreSQL address (user:secret@ or
 * password=secret) becomes "***"; any other address is copied as it is. */
void rs_store_address_for_log(const char *address, char *out, size_t size);
/* The last database error, for logs. */
const char *rs_store_error(const rs_store *st);
/* Whether the last failure was the database server out of reach (PostgreSQL down or the
 * connection lost): clients are then told `unavailable` rather than `server-error`. */
bool rs_store_unavailable(const rs_store *st);

/* Start the write transaction of this iteration unless one is open. */
int rs_store_begin(rs_store *st);
/* Commit it (nothing to do when none is open). On failure, or when any write inside it
 * failed, the transaction is rolled back and RS_STORE_ERROR returned; RS_STORE_UNKNOWN when
 * the commit was sent and the connection lost before the database answered (PostgreSQL): it
 * may have been stored, and what is stored tells. */
int rs_store_commit(rs_store *st);
void rs_store_rollback(rs_store *st);
bool rs_store_in_transaction(const rs_store *st);
/* Make the next `n` commits fail, for tests of the failure path. */
void rs_store_fail_commits(rs_store *st, int n);
/* A passive WAL checkpoint on the store's second connection; safe on a worker thread. */
int rs_store_checkpoint(rs_store *st);
/* After rs_store_checkpoint, on the writing connection between transactions: a passive
 * checkpoint of the few frames committed while the worker's ran. Under steady writes the
 * worker's never ends with every frame copied, and the WAL restarts from its beginning only
 * after a checkpoint that did: without this it grows without bound. */
int rs_store_checkpoint_tail(rs_store *st);
/* The frames (pages) in the WAL after the last commit: 0 in memory. */
int rs_store_wal_frames(const rs_store *st);

/* ---- users and tokens ---- */
int rs_store_user_add(rs_store *st, const char *name, bool guest, int64_t now_ms, int64_t *id);
int rs_store_user_get(rs_store *st, int64_t id, rs_user *out);
int rs_store_user_find(rs_store *st, const char *name, rs_user *out); /* any case */
/* A guest becomes an account: a new name and a password hash. CONFLICT if the name is
 * taken, or one that looks like it (the same skeleton, rs_name_skeleton). */
int rs_store_user_register(rs_store *st, int64_t id, const char *name, const char *pwhash);
int rs_store_token_add(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t user,
                       int64_t now_ms, int64_t expires_ms);
/* The user of a token that exists and has not expired at now; NOTFOUND otherwise, with
 * *expired telling which. */
int rs_store_token_user(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t now_ms,
                        int64_t *user, bool *expired);
int rs_store_token_revoke(rs_store *st, const uint8_t hash[RS_TOKEN_HASH]);
/* A registered user other than `except` whose name's skeleton (rs_name_skeleton) is
 * `skeleton` or `lowered` (the skeleton of the name in lower case): a name that looks like
 * theirs is refused (issue 49). rs_store_user_register refuses one too (CONFLICT). */
int rs_store_user_lookalike(rs_store *st, const char *skeleton, const char *lowered, int64_t except,
                            rs_user *out);
/* The expiry sweep (issue 49): every token expired at now_ms, then at most `limit` guests
 * nothing refers to any more (no token, game, chat line, seek, link, challenge, rating or
 * setting; on a cluster, none connected). How many of each went, in *tokens and *guests. */
int rs_store_sweep_accounts(rs_store *st, int64_t now_ms, int limit, int64_t *tokens,
                            int64_t *guests);
/* A registered account's new password hash; every token of the account except `keep` (the
 * token of the session that changed it; NULL: none kept) is revoked with it. NOTFOUND when
 * no registered account has that id. */
int rs_store_user_password(rs_store *st, int64_t id, const char *pwhash,
                           const uint8_t keep[RS_TOKEN_HASH]);

/* ---- games ---- */
int rs_store_game_insert(rs_store *st, rs_game_row *row); /* sets row->id */
int rs_store_game_save(rs_store *st, const rs_game_row *row);
/* A game's row written in the caller's transaction, its seat rows only when `seats` (they
 * changed). On PostgreSQL the statements wait to go with the next one or the COMMIT in one
 * round trip: a failure (or no such game) then fails the commit. */
int rs_store_game_write(rs_store *st, const rs_game_row *row, bool seats);
int rs_store_game_get(rs_store *st, int64_t id, rs_game_row *out);
/* The game's own row without its seats (out->seat left zeroed): one statement. */
int rs_store_game_head(rs_store *st, int64_t id, rs_game_row *out);
/* The ids of games open or live, oldest first; *ids is malloc'ed. */
int rs_store_games_unfinished(rs_store *st, int64_t **ids, size_t *n);
int rs_store_move_add(rs_store *st, int64_t game, const rs_move_row *move);
/* A move as rs_store_game_write writes a game: on PostgreSQL sent with the next statement or
 * the COMMIT, and a ply already stored fails the commit. */
int rs_store_move_write(rs_store *st, int64_t game, const rs_move_row *move);
/* The moves of a game from ply `from_ply` on, in ply order; *moves is malloc'ed (NULL when
 * none). */
int rs_store_moves_since(rs_store *st, int64_t game, int64_t from_ply, rs_move_row **moves,
                         size_t *n);
/* Every move of a game in ply order; *moves is malloc'ed (NULL when none). */
int rs_store_moves_get(rs_store *st, int64_t game, rs_move_row **moves, size_t *n);
int rs_store_moves_truncate(rs_store *st, int64_t game, int64_t from_ply);
int rs_store_record_put(rs_store *st, int64_t game, const char *record);
/* The record of a finished game (malloc'ed), NOTFOUND when there is none. */
int rs_store_record_get(rs_store *st, int64_t game, char **record);
/* A finished game's review for one seat (docs/review.md's JSON), written once computed (a
 * second write of the same seat replaces it: two servers may compute it at once), and read
 * back malloc'ed, NOTFOUND when there is none yet. */
int rs_store_review_put(rs_store *st, int64_t game, int seat, const char *review);
int rs_store_review_get(rs_store *st, int64_t game, int seat, char **review);
/* The game created as the rematch of `game`, NOTFOUND if none. */
int rs_store_rematch_find(rs_store *st, int64_t game, int64_t *rematch);

/* ---- chat ---- */
int rs_store_chat_add(rs_store *st, int64_t game, rs_chat_channel channel, int64_t user,
                      int64_t at_ms, const char *text);

/* ---- ratings ---- */
/* NOTFOUND (and *out zeroed) for a user with no rated game of `game` yet. */
int rs_store_rating_get(rs_store *st, int64_t user, const char *game, rs_rating_row *out);
int rs_store_rating_put(rs_store *st, int64_t user, const char *game, const rs_rating_row *r,
                        int64_t game_id, int64_t at_ms);

/* ---- "Play now" pools (pools.c; docs/server-protocol.md) ---- */
/* Inside the transaction: a new seek (sets row->id); CONFLICT when the user already seeks in
 * that pool. */
int rs_store_seek_add(rs_store *st, rs_seek_row *row);
/* The seeks of `user` (0: everyone's), oldest first, made on `node` or another live server
 * (a dead server's seeks are dropped with it); *rows is malloc'ed (NULL when none). */
int rs_store_seeks_read(rs_store *st, const char *node, int64_t user, rs_seek_row **rows,
                        size_t *n);
/* Inside the transaction: drop `user`'s seek `id` (0: all their seeks); *dropped counts them.
 * A seek being paired by another server at that moment is not waited for (it is paired). */
int rs_store_seeks_drop(rs_store *st, int64_t user, int64_t id, int64_t *dropped);
/* Inside the transaction: take the n seeks for one game: OK when every one of them was there
 * and free (they are deleted), CONFLICT (none deleted) when another server took or is taking
 * one: a pairing happens once. */
int rs_store_seeks_take(rs_store *st, const int64_t *ids, size_t n);
/* Inside the transaction, at the start: the seeks of `node` dropped (on SQLite, every seek:
 * its one server's connections are gone). */
int rs_store_seeks_forget(rs_store *st, const char *node);
/* Inside the transaction: the guest `guest` logged into `account` (kept once). */
int rs_store_link_add(rs_store *st, int64_t guest, int64_t account);
/* The users linked to `user` (its accounts, or its guests), newest first, at most max. */
int rs_store_links_of(rs_store *st, int64_t user, int64_t *out, int max, int *n);

/* ---- tournaments (docs/tournaments.md) ---- */
/* Inside the transaction: a new tournament (sets row->id). */
int rs_store_tour_add(rs_store *st, rs_tour_row *row);
int rs_store_tour_get(rs_store *st, int64_t id, rs_tour_row *out);
/* The newest `limit` tournaments, newest first (*rows malloc'ed). */
int rs_store_tour_list(rs_store *st, int limit, rs_tour_row **rows, size_t *n);
/* The newest `limit` tournaments `user` entered (withdrawn too), newest first (*rows
 * malloc'ed): a profile's tournaments. */
int rs_store_tour_entered(rs_store *st, int64_t user, int limit, rs_tour_row **rows, size_t *n);
int rs_store_tour_status(rs_store *st, int64_t id, int status);
/* Inside the transaction: claims the pairing of `round` (the tournament's last paired round
 * must be round - 1; it becomes round). CONFLICT when it is not, or when another server holds
 * the tournament's row at that moment (PostgreSQL: never waited for): of all the servers
 * trying, the database lets one pair each round, once. */
int rs_store_tour_round_claim(rs_store *st, int64_t id, int round);
/* Inside the transaction: the tournament running from at_ms (its starts_ms; an arena ends
 * its duration after it), if it is still open: CONFLICT when it is not (started already,
 * here or on another server, or held by another server at that moment: never waited for).
 * A tournament starts once. */
int rs_store_tour_start(rs_store *st, int64_t id, int64_t at_ms);
/* Inside the transaction: the tournament cancelled, if it is still open: CONFLICT when it is
 * not (started, here or on another server, or held by another server at that moment: never
 * waited for). A cancellation never undoes a start. */
int rs_store_tour_cancel(rs_store *st, int64_t id);
/* An entry added, or its `active` and rating changed (a withdrawal, a return). */
int rs_store_tour_entry_put(rs_store *st, const rs_tour_entry_row *row);
/* The entries of tournament id in order of entry, each with its user's name. */
int rs_store_tour_entries(rs_store *st, int64_t id, rs_tour_entry_row **rows, size_t *n);
/* A pairing added: CONFLICT when (tour, round, board) exists. */
int rs_store_tour_pairing_add(rs_store *st, const rs_tour_pairing_row *row);
/* A pairing's points, games done and game in play written, if its game in play is still
 * was_game: CONFLICT when not (another server recorded that game's end first; on PostgreSQL
 * also while another holds the row, never waited for). A game's end is recorded once. */
int rs_store_tour_pairing_put(rs_store *st, const rs_tour_pairing_row *row, int64_t was_game);
/* The pairings of tournament id by round, then board. */
int rs_store_tour_pairings(rs_store *st, int64_t id, rs_tour_pairing_row **rows, size_t *n);

/* ---- challenges and the setting that refuses them (challenge.c) ---- */
/* Inside the transaction: a new challenge (sets row->id). */
int rs_store_challenge_add(rs_store *st, rs_challenge_row *row);
/* The pending challenges sent or received by `user` (0: everyone's) that expire at or before
 * `due_ms` (INT64_MAX: all), oldest first, with both names; *rows malloc'ed (NULL when none). */
int rs_store_challenges_read(rs_store *st, int64_t user, int64_t due_ms, rs_challenge_row **rows,
                             size_t *n);
/* Inside the transaction: take challenge `id` (deleted; *out is it): NOTFOUND when it is gone
 * or another server is taking it at that moment. A challenge ends once. */
int rs_store_challenge_take(rs_store *st, int64_t id, rs_challenge_row *out);
/* Whether `user` accepts challenges (true when never set). */
int rs_store_setting_get(rs_store *st, int64_t user, bool *challenges);
/* Inside the transaction: set it. */
int rs_store_setting_put(rs_store *st, int64_t user, bool challenges);

/* ---- small persistent values (the server's last sign of life) ---- */
int rs_store_meta_set(rs_store *st, const char *key, int64_t value);
int rs_store_meta_get(rs_store *st, const char *key, int64_t *value);

/* The largest value among the keys starting with `prefix` (each server of a cluster keeps
 * its own sign of life); NOTFOUND when there is none. */
int rs_store_meta_max(rs_store *st, const char *prefix, int64_t *value);

/* ---- several servers on one database (PostgreSQL; docs/cluster.md) ---- */
/* True when other servers may share the database (PostgreSQL): the server then locks a
 * game's row before changing it, announces its commits and reads the others'. */
bool rs_store_shared(const rs_store *st);

/* Inside the transaction: lock the game's row against every other server until the commit
 * or rollback, without waiting, and read its version and lease. BUSY (and nothing waits)
 * when another server holds the row; NOTFOUND when there is no such game. */
int rs_store_game_lock(rs_store *st, int64_t id, rs_game_lock *out);
/* The game's stored version, read without a lock. */
int rs_store_game_version(rs_store *st, int64_t id, int64_t *v);
/* With the row locked: `node` takes the game's lease for lease_ms; *token gets the new
 * fencing token (the old one plus one). */
int rs_store_lease_take(rs_store *st, int64_t id, const char *node, int64_t lease_ms,
                        int64_t *token);
/* With the row locked: the lease is renewed for lease_ms if `node` still holds it with
 * `token`; CONFLICT (the database refuses the stale token) otherwise. */
int rs_store_lease_fence(rs_store *st, int64_t id, const char *node, int64_t token,
                         int64_t lease_ms);
/* Renew every lease `node` holds on a game with work (open, or live with a clock or an AI
 * seat) whose row no other server holds now (rows held are skipped, never waited for); the
 * leases of other games lapse. */
int rs_store_leases_renew(rs_store *st, const char *node, int64_t lease_ms);
/* At most `limit` games with work that must happen once and no lease running (none taken,
 * or run out by the database's clock), oldest first: live games with a clock or an AI seat,
 * and, when `all` (games nobody comes back to expire), open games. *rows is malloc'ed (NULL
 * when none); none on SQLite, whose one server holds every game. */
int rs_store_games_unleased(rs_store *st, int64_t lease_ms, bool all, int limit,
                            rs_unleased_row **rows, size_t *n);
/* Who is connected where (docs/cluster.md). On SQLite, whose one server knows its own
 * connections, these write nothing and find nobody elsewhere. */
/* Inside the transaction: `node` is alive for lease_ms more (by the database's clock); its
 * rows below count while it is. Rows of servers dead for a minute are deleted. */
int rs_store_node_alive(rs_store *st, const char *node, int64_t lease_ms);
/* Inside the transaction: every row of `node` deleted (at its start and its stop). */
int rs_store_node_gone(rs_store *st, const char *node);
/* Inside the transaction: `user` connected to `node` (game 0), or watching `game` there;
 * present = false deletes the row. */
int rs_store_presence_put(rs_store *st, const char *node, int64_t user, int64_t game, bool present);
/* The users watching `game` (0: every game) on live servers other than `node`, by game;
 * *rows is malloc'ed (NULL when none). */
int rs_store_presence_elsewhere(rs_store *st, const char *node, int64_t game,
                                rs_presence_row **rows, size_t *n);
/* Whether `user` has any row on a live server other than `node`. */
int rs_store_user_elsewhere(rs_store *st, const char *node, int64_t user, bool *online);
/* The names of the live servers, sorted, space-separated (malloc'ed; "" on SQLite). */
int rs_store_nodes_live(rs_store *st, char **names);
/* Inside the transaction: a line for the other servers, delivered at the commit and only if
 * it commits (NOTIFY); nothing on SQLite. */
int rs_store_announce(rs_store *st, const char *text);
/* Read the lines the servers announced (this one's too), without waiting: got(ctx, line)
 * for each. Opens the listening connection first when it is not open (at most every 500 ms).
 * Returns 1 when it was (re)opened by this call (lines may have been missed: the caller
 * reads again what it holds), 0, or RS_STORE_ERROR when it cannot listen. */
int rs_store_announcements(rs_store *st, void (*got)(void *ctx, const char *line), void *ctx);
/* The socket the announcements arrive on, or -1 (none open, or SQLite). */
int rs_store_listen_fd(const rs_store *st);

#endif
