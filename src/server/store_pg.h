/* store_pg.h — the storage interface (store.h) over PostgreSQL, for servers that share one
 * database (docs/cluster.md). rs_store_open hands a postgres:// or postgresql:// address here
 * and forwards every call; the semantics are store.h's, call for call. */
#ifndef RS_STORE_PG_H
#define RS_STORE_PG_H

#include "store.h"

typedef struct rs_pg rs_pg;

/* True for an address this implementation serves (postgres:// or postgresql://). */
bool rs_pg_is_address(const char *address);
/* The address as a log line may show it: a password in it (user:secret@ or password=secret)
 * becomes "***"; any other address is copied as it is. */
void rs_pg_address_for_log(const char *address, char *out, size_t size);
int rs_pg_open(rs_pg **out, const char *address, char *err, size_t err_size);
void rs_pg_close(rs_pg *pg);
const char *rs_pg_error(const rs_pg *pg);
/* The last call failed because PostgreSQL could not be reached. */
bool rs_pg_unavailable(const rs_pg *pg);

int rs_pg_begin(rs_pg *pg);
int rs_pg_commit(rs_pg *pg);
void rs_pg_rollback(rs_pg *pg);
bool rs_pg_in_transaction(const rs_pg *pg);
void rs_pg_fail_commits(rs_pg *pg, int n);

int rs_pg_user_add(rs_pg *pg, const char *name, bool guest, int64_t now_ms, int64_t *id);
int rs_pg_user_get(rs_pg *pg, int64_t id, rs_user *out);
int rs_pg_user_find(rs_pg *pg, const char *name, rs_user *out);
int rs_pg_user_register(rs_pg *pg, int64_t id, const char *name, const char *pwhash);
int rs_pg_token_add(rs_pg *pg, const uint8_t hash[RS_TOKEN_HASH], int64_t user, int64_t now_ms,
                    int64_t expires_ms);
int rs_pg_token_user(rs_pg *pg, const uint8_t hash[RS_TOKEN_HASH], int64_t now_ms, int64_t *user,
                     bool *expired);
int rs_pg_token_revoke(rs_pg *pg, const uint8_t hash[RS_TOKEN_HASH]);
int rs_pg_user_password(rs_pg *pg, int64_t id, const char *pwhash,
                        const uint8_t keep[RS_TOKEN_HASH]);

int rs_pg_game_insert(rs_pg *pg, rs_game_row *row);
int rs_pg_game_save(rs_pg *pg, const rs_game_row *row);
int rs_pg_game_write(rs_pg *pg, const rs_game_row *row, bool seats);
int rs_pg_game_get(rs_pg *pg, int64_t id, rs_game_row *out);
int rs_pg_game_head(rs_pg *pg, int64_t id, rs_game_row *out);
int rs_pg_games_unfinished(rs_pg *pg, int64_t **ids, size_t *n);
int rs_pg_move_add(rs_pg *pg, int64_t game, const rs_move_row *move);
int rs_pg_move_write(rs_pg *pg, int64_t game, const rs_move_row *move);
int rs_pg_moves_since(rs_pg *pg, int64_t game, int64_t from_ply, rs_move_row **moves, size_t *n);
int rs_pg_moves_get(rs_pg *pg, int64_t game, rs_move_row **moves, size_t *n);
int rs_pg_moves_truncate(rs_pg *pg, int64_t game, int64_t from_ply);
int rs_pg_record_put(rs_pg *pg, int64_t game, const char *record);
int rs_pg_record_get(rs_pg *pg, int64_t game, char **record);
int rs_pg_rematch_find(rs_pg *pg, int64_t game, int64_t *rematch);

int rs_pg_chat_add(rs_pg *pg, int64_t game, int64_t user, int64_t at_ms, const char *text);
struct cJSON *rs_pg_chat_json(rs_pg *pg, int64_t game, int limit);

int rs_pg_rating_get(rs_pg *pg, int64_t user, const char *game, rs_rating_row *out);
int rs_pg_rating_put(rs_pg *pg, int64_t user, const char *game, const rs_rating_row *r,
                     int64_t game_id, int64_t at_ms);

int rs_pg_meta_set(rs_pg *pg, const char *key, int64_t value);
int rs_pg_meta_get(rs_pg *pg, const char *key, int64_t *value);

int rs_pg_meta_max(rs_pg *pg, const char *prefix, int64_t *value);

int rs_pg_game_lock(rs_pg *pg, int64_t id, rs_game_lock *out);
int rs_pg_game_version(rs_pg *pg, int64_t id, int64_t *v);
int rs_pg_lease_take(rs_pg *pg, int64_t id, const char *node, int64_t lease_ms, int64_t *token);
int rs_pg_lease_fence(rs_pg *pg, int64_t id, const char *node, int64_t token, int64_t lease_ms);
int rs_pg_leases_renew(rs_pg *pg, const char *node, int64_t lease_ms);
int rs_pg_games_unleased(rs_pg *pg, int64_t lease_ms, bool all, int limit, rs_unleased_row **rows,
                         size_t *n);
int rs_pg_node_alive(rs_pg *pg, const char *node, int64_t lease_ms);
int rs_pg_node_gone(rs_pg *pg, const char *node);
int rs_pg_presence_put(rs_pg *pg, const char *node, int64_t user, int64_t game, bool present);
int rs_pg_presence_elsewhere(rs_pg *pg, const char *node, int64_t game, rs_presence_row **rows,
                             size_t *n);
int rs_pg_user_elsewhere(rs_pg *pg, const char *node, int64_t user, bool *online);
int rs_pg_nodes_live(rs_pg *pg, char **names);
int rs_pg_announce(rs_pg *pg, const char *text);
int rs_pg_announcements(rs_pg *pg, void (*got)(void *ctx, const char *line), void *ctx);
int rs_pg_listen_fd(const rs_pg *pg);

struct cJSON *rs_pg_finished_json(rs_pg *pg, int64_t user, int limit, int64_t before);
struct cJSON *rs_pg_profile_json(rs_pg *pg, const rs_user *user);

#endif
