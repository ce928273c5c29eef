/* store.c — the storage interface's one entry: rs_store_open picks the backend by the
 * address (store_sqlite.c or store_pg.c), every other call goes through the store's table of
 * operations (store_backend.h), and what a database shared by no other server lacks is
 * answered here, once, as one server alone would. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"
#include "store_pg.h"

static bool is_postgres_address(const char *address)
{
    return strncmp(address, "postgres://", 11) == 0 || strncmp(address, "postgresql://", 13) == 0;
}

int rs_store_open(rs_store **out, const char *path, char *err, size_t err_size)
{
    return rs_store_open_synced(out, path, RS_SYNC_FULL, err, err_size);
}

int rs_store_open_synced(rs_store **out, const char *path, rs_store_sync sync, char *err,
                         size_t err_size)
{
    *out = NULL;
    if (is_postgres_address(path) && sync != RS_SYNC_FULL) {
        snprintf(err, err_size,
                 "--sync normal is for the SQLite store: PostgreSQL always commits with "
                 "synchronous_commit=on");
        return RS_STORE_ERROR;
    }
    if (is_postgres_address(path))
        return rs_store_pg_open(out, path, err, err_size);
    if (strncmp(path, "sqlite:", 7) == 0) /* the explicit form of --store */
        path += 7;
    return rs_store_sqlite_open(out, path, sync, err, err_size);
}

/* Replaces the n bytes at text + at with "***" (out holds size bytes, NUL-terminated). */
static void mask_span(char *out, size_t size, size_t at, size_t n)
{
    char rest[1024];
    snprintf(rest, sizeof rest, "%s", out + at + n);
    snprintf(out + at, size - at, "***%s", rest);
}

void rs_store_address_for_log(const char *address, char *out, size_t size)
{
    snprintf(out, size, "%s", address);
    if (!is_postgres_address(out))
        return;
    /* user:secret@host: the password is between the first ':' and the '@' of the authority. */
    char *authority = strstr(out, "://") + 3;
    const size_t authority_len = strcspn(authority, "/?");
    char *at = memchr(authority, '@', authority_len);
    char *colon = at ? memchr(authority, ':', (size_t)(at - authority)) : NULL;
    if (colon)
        mask_span(out, size, (size_t)(colon + 1 - out), (size_t)(at - colon - 1));
    /* ?password=secret (libpq's keyword form in the query string). */
    char *key = strstr(out, "password=");
    if (key) {
        char *value = key + strlen("password=");
        mask_span(out, size, (size_t)(value - out), strcspn(value, "&"));
    }
}

void rs_store_close(rs_store *st)
{
    if (st)
        st->ops->close(st);
}

const char *rs_store_error(const rs_store *st)
{
    return st->ops->error(st);
}

bool rs_store_unavailable(const rs_store *st)
{
    return st->ops->unavailable && st->ops->unavailable(st);
}

/* ---- transactions and checkpoints ---- */

int rs_store_begin(rs_store *st)
{
    return st->ops->begin(st);
}

int rs_store_commit(rs_store *st)
{
    return st->ops->commit(st);
}

void rs_store_rollback(rs_store *st)
{
    st->ops->rollback(st);
}

bool rs_store_in_transaction(const rs_store *st)
{
    return st->ops->in_transaction(st);
}

void rs_store_fail_commits(rs_store *st, int n)
{
    st->ops->fail_commits(st, n);
}

int rs_store_checkpoint(rs_store *st)
{
    return st->ops->checkpoint ? st->ops->checkpoint(st) : RS_STORE_OK;
}

int rs_store_checkpoint_tail(rs_store *st)
{
    return st->ops->checkpoint_tail ? st->ops->checkpoint_tail(st) : RS_STORE_OK;
}

int rs_store_wal_frames(const rs_store *st)
{
    return st->ops->wal_frames ? st->ops->wal_frames(st) : 0;
}

/* ---- users and tokens ---- */

int rs_store_user_add(rs_store *st, const char *name, bool guest, int64_t now_ms, int64_t *id)
{
    return st->ops->user_add(st, name, guest, now_ms, id);
}

int rs_store_user_get(rs_store *st, int64_t id, rs_user *out)
{
    return st->ops->user_get(st, id, out);
}

int rs_store_user_find(rs_store *st, const char *name, rs_user *out)
{
    return st->ops->user_find(st, name, out);
}

int rs_store_user_register(rs_store *st, int64_t id, const char *name, const char *pwhash)
{
    return st->ops->user_register(st, id, name, pwhash);
}

int rs_store_token_add(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t user,
                       int64_t now_ms, int64_t expires_ms)
{
    return st->ops->token_add(st, hash, user, now_ms, expires_ms);
}

int rs_store_token_user(rs_store *st, const uint8_t hash[RS_TOKEN_HASH], int64_t now_ms,
                        int64_t *user, bool *expired)
{
    return st->ops->token_user(st, hash, now_ms, user, expired);
}

int rs_store_token_revoke(rs_store *st, const uint8_t hash[RS_TOKEN_HASH])
{
    return st->ops->token_revoke(st, hash);
}

int rs_store_user_lookalike(rs_store *st, const char *skeleton, const char *lowered, int64_t except,
                            rs_user *out)
{
    return st->ops->user_lookalike(st, skeleton, lowered, except, out);
}

int rs_store_sweep_accounts(rs_store *st, int64_t now_ms, int limit, int64_t *tokens,
                            int64_t *guests)
{
    return st->ops->sweep_accounts(st, now_ms, limit, tokens, guests);
}

int rs_store_user_password(rs_store *st, int64_t id, const char *pwhash,
                           const uint8_t keep[RS_TOKEN_HASH])
{
    static const uint8_t none[RS_TOKEN_HASH] = {0}; /* no token hashes to all zeros */
    return st->ops->user_password(st, id, pwhash, keep ? keep : none);
}

/* ---- games ---- */

int rs_store_game_insert(rs_store *st, rs_game_row *row)
{
    return st->ops->game_insert(st, row);
}

int rs_store_game_save(rs_store *st, const rs_game_row *row)
{
    return st->ops->game_save(st, row);
}

int rs_store_game_write(rs_store *st, const rs_game_row *row, bool seats)
{
    return st->ops->game_write(st, row, seats);
}

int rs_store_game_get(rs_store *st, int64_t id, rs_game_row *out)
{
    const int rc = st->ops->game_head(st, id, out);
    return rc == RS_STORE_OK ? st->ops->game_seats(st, out) : rc;
}

int rs_store_game_head(rs_store *st, int64_t id, rs_game_row *out)
{
    return st->ops->game_head(st, id, out);
}

int rs_store_games_unfinished(rs_store *st, int64_t **ids, size_t *n)
{
    return st->ops->games_unfinished(st, ids, n);
}

int rs_store_move_add(rs_store *st, int64_t game, const rs_move_row *move)
{
    return st->ops->move_add(st, game, move);
}

int rs_store_move_write(rs_store *st, int64_t game, const rs_move_row *move)
{
    return st->ops->move_write(st, game, move);
}

int rs_store_moves_since(rs_store *st, int64_t game, int64_t from_ply, rs_move_row **moves,
                         size_t *n)
{
    return st->ops->moves_since(st, game, from_ply, moves, n);
}

int rs_store_moves_get(rs_store *st, int64_t game, rs_move_row **moves, size_t *n)
{
    return st->ops->moves_since(st, game, 0, moves, n);
}

int rs_store_moves_truncate(rs_store *st, int64_t game, int64_t from_ply)
{
    return st->ops->moves_truncate(st, game, from_ply);
}

int rs_store_record_put(rs_store *st, int64_t game, const char *record)
{
    return st->ops->record_put(st, game, record);
}

int rs_store_record_get(rs_store *st, int64_t game, char **record)
{
    return st->ops->record_get(st, game, record);
}

int rs_store_review_put(rs_store *st, int64_t game, int seat, const char *review)
{
    return st->ops->review_put(st, game, seat, review);
}

int rs_store_review_get(rs_store *st, int64_t game, int seat, char **review)
{
    return st->ops->review_get(st, game, seat, review);
}

int rs_store_rematch_find(rs_store *st, int64_t game, int64_t *rematch)
{
    return st->ops->rematch_find(st, game, rematch);
}

/* ---- chat, ratings, meta ---- */

int rs_store_chat_add(rs_store *st, int64_t game, rs_chat_channel channel, int64_t user,
                      int64_t at_ms, const char *text)
{
    return st->ops->chat_add(st, game, (int)channel, user, at_ms, text);
}

int rs_store_rating_get(rs_store *st, int64_t user, const char *game, rs_rating_row *out)
{
    return st->ops->rating_get(st, user, game, out);
}

int rs_store_rating_put(rs_store *st, int64_t user, const char *game, const rs_rating_row *r,
                        int64_t game_id, int64_t at_ms)
{
    return st->ops->rating_put(st, user, game, r, game_id, at_ms);
}

int rs_store_meta_set(rs_store *st, const char *key, int64_t value)
{
    return st->ops->meta_set(st, key, value);
}

int rs_store_meta_get(rs_store *st, const char *key, int64_t *value)
{
    return st->ops->meta_get(st, key, value);
}

int rs_store_meta_max(rs_store *st, const char *prefix, int64_t *value)
{
    return st->ops->meta_max(st, prefix, value);
}

/* ---- several servers on one database: where none can share it (no shared ops), its one
 * server holds every row and every lease itself and finds nobody elsewhere ---- */

/* ---- "Play now" pools ---- */

int rs_store_seek_add(rs_store *st, rs_seek_row *row)
{
    return st->ops->pool->seek_add(st, row);
}

int rs_store_seeks_read(rs_store *st, const char *node, int64_t user, rs_seek_row **rows, size_t *n)
{
    return st->ops->pool->seeks_read(st, node, user, rows, n);
}

int rs_store_seeks_drop(rs_store *st, int64_t user, int64_t id, int64_t *dropped)
{
    return st->ops->pool->seeks_drop(st, user, id, dropped);
}

int rs_store_seeks_take(rs_store *st, const int64_t *ids, size_t n)
{
    return st->ops->pool->seeks_take(st, ids, n);
}

int rs_store_seeks_forget(rs_store *st, const char *node)
{
    return st->ops->pool->seeks_forget(st, node);
}

int rs_store_link_add(rs_store *st, int64_t guest, int64_t account)
{
    return st->ops->pool->link_add(st, guest, account);
}

int rs_store_links_of(rs_store *st, int64_t user, int64_t *out, int max, int *n)
{
    return st->ops->pool->links_of(st, user, out, max, n);
}

/* ---- tournaments ---- */

int rs_store_tour_add(rs_store *st, rs_tour_row *row)
{
    return st->ops->tour->add(st, row);
}

int rs_store_tour_get(rs_store *st, int64_t id, rs_tour_row *out)
{
    return st->ops->tour->get(st, id, out);
}

int rs_store_tour_list(rs_store *st, int limit, rs_tour_row **rows, size_t *n)
{
    return st->ops->tour->list(st, limit, rows, n);
}

int rs_store_tour_entered(rs_store *st, int64_t user, int limit, rs_tour_row **rows, size_t *n)
{
    return st->ops->tour->entered(st, user, limit, rows, n);
}

int rs_store_tour_status(rs_store *st, int64_t id, int status)
{
    return st->ops->tour->status(st, id, status);
}

int rs_store_tour_round_claim(rs_store *st, int64_t id, int round)
{
    return st->ops->tour->round_claim(st, id, round);
}

int rs_store_tour_start(rs_store *st, int64_t id, int64_t at_ms)
{
    return st->ops->tour->start(st, id, at_ms);
}

int rs_store_tour_cancel(rs_store *st, int64_t id)
{
    return st->ops->tour->cancel(st, id);
}

int rs_store_tour_entry_put(rs_store *st, const rs_tour_entry_row *row)
{
    return st->ops->tour->entry_put(st, row);
}

int rs_store_tour_entries(rs_store *st, int64_t id, rs_tour_entry_row **rows, size_t *n)
{
    return st->ops->tour->entries(st, id, rows, n);
}

int rs_store_tour_pairing_add(rs_store *st, const rs_tour_pairing_row *row)
{
    return st->ops->tour->pairing_add(st, row);
}

int rs_store_tour_pairing_put(rs_store *st, const rs_tour_pairing_row *row, int64_t was_game)
{
    return st->ops->tour->pairing_put(st, row, was_game);
}

int rs_store_tour_pairings(rs_store *st, int64_t id, rs_tour_pairing_row **rows, size_t *n)
{
    return st->ops->tour->pairings(st, id, rows, n);
}

/* ---- challenges ---- */

int rs_store_challenge_add(rs_store *st, rs_challenge_row *row)
{
    return st->ops->challenge->add(st, row);
}

int rs_store_challenges_read(rs_store *st, int64_t user, int64_t due_ms, rs_challenge_row **rows,
                             size_t *n)
{
    return st->ops->challenge->read(st, user, due_ms, rows, n);
}

int rs_store_challenge_take(rs_store *st, int64_t id, rs_challenge_row *out)
{
    return st->ops->challenge->take(st, id, out);
}

int rs_store_setting_get(rs_store *st, int64_t user, bool *challenges)
{
    return st->ops->challenge->setting_get(st, user, challenges);
}

int rs_store_setting_put(rs_store *st, int64_t user, bool challenges)
{
    return st->ops->challenge->setting_put(st, user, challenges);
}

bool rs_store_shared(const rs_store *st)
{
    return st->ops->shared != NULL;
}

int rs_store_game_lock(rs_store *st, int64_t id, rs_game_lock *out)
{
    if (st->ops->shared)
        return st->ops->shared->game_lock(st, id, out);
    memset(out, 0, sizeof *out);
    rs_game_row row;
    const int rc = rs_store_game_get(st, id, &row);
    out->v = row.v;
    return rc;
}

int rs_store_game_version(rs_store *st, int64_t id, int64_t *v)
{
    if (st->ops->shared)
        return st->ops->shared->game_version(st, id, v);
    rs_game_row row;
    const int rc = rs_store_game_get(st, id, &row);
    *v = row.v;
    return rc;
}

int rs_store_lease_take(rs_store *st, int64_t id, const char *node, int64_t lease_ms,
                        int64_t *token)
{
    if (st->ops->shared)
        return st->ops->shared->lease_take(st, id, node, lease_ms, token);
    *token = 1;
    return RS_STORE_OK;
}

int rs_store_lease_fence(rs_store *st, int64_t id, const char *node, int64_t token,
                         int64_t lease_ms)
{
    if (st->ops->shared)
        return st->ops->shared->lease_fence(st, id, node, token, lease_ms);
    return RS_STORE_OK;
}

int rs_store_leases_renew(rs_store *st, const char *node, int64_t lease_ms)
{
    if (st->ops->shared)
        return st->ops->shared->leases_renew(st, node, lease_ms);
    return RS_STORE_OK;
}

int rs_store_games_unleased(rs_store *st, int64_t lease_ms, bool all, int limit,
                            rs_unleased_row **rows, size_t *n)
{
    if (st->ops->shared)
        return st->ops->shared->games_unleased(st, lease_ms, all, limit, rows, n);
    *rows = NULL;
    *n = 0;
    return RS_STORE_OK;
}

int rs_store_node_alive(rs_store *st, const char *node, int64_t lease_ms)
{
    return st->ops->shared ? st->ops->shared->node_alive(st, node, lease_ms) : RS_STORE_OK;
}

int rs_store_node_gone(rs_store *st, const char *node)
{
    return st->ops->shared ? st->ops->shared->node_gone(st, node) : RS_STORE_OK;
}

int rs_store_presence_put(rs_store *st, const char *node, int64_t user, int64_t game, bool present)
{
    if (st->ops->shared)
        return st->ops->shared->presence_put(st, node, user, game, present);
    return RS_STORE_OK;
}

int rs_store_presence_elsewhere(rs_store *st, const char *node, int64_t game,
                                rs_presence_row **rows, size_t *n)
{
    if (st->ops->shared)
        return st->ops->shared->presence_elsewhere(st, node, game, rows, n);
    *rows = NULL;
    *n = 0;
    return RS_STORE_OK;
}

int rs_store_user_elsewhere(rs_store *st, const char *node, int64_t user, bool *online)
{
    if (st->ops->shared)
        return st->ops->shared->user_elsewhere(st, node, user, online);
    *online = false;
    return RS_STORE_OK;
}

int rs_store_nodes_live(rs_store *st, char **names)
{
    if (st->ops->shared)
        return st->ops->shared->nodes_live(st, names);
    *names = strdup("");
    return *names ? RS_STORE_OK : RS_STORE_ERROR;
}

int rs_store_announce(rs_store *st, const char *text)
{
    return st->ops->shared ? st->ops->shared->announce(st, text) : RS_STORE_OK;
}

int rs_store_announcements(rs_store *st, void (*got)(void *ctx, const char *line), void *ctx)
{
    return st->ops->shared ? st->ops->shared->announcements(st, got, ctx) : 0;
}

int rs_store_listen_fd(const rs_store *st)
{
    return st->ops->shared ? st->ops->shared->listen_fd(st) : -1;
}
