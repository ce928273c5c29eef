/* pools.c — "Play now" (pools.h): seeks checked and stored, the pairing rule (pool.c) run over
 * every pool, each group's seeks taken from the store at once (on a cluster the database
 * decides which server pairs them) and its game created started, and `paired` sent to every
 * connection of each player, here and on the other servers. */
#include "pools.h"

#include <cjson/cJSON.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "fields.h"
#include "log.h"
#include "pool.h"

#define DAY_MS 86400000LL

static cJSON *message(const char *type)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", type);
    return m;
}

static const char *store_down(const rs_server *srv)
{
    return rs_store_unavailable(srv->store) ? "unavailable" : "server-error";
}

/* ---- seek ---- */

/* "players": a whole number the game allows, 2 or more (Play now pairs people); absent, 2
 * where the game allows 2, else its smallest count. */
static int seek_players(const cJSON *msg, const rp_game *game, int *players, rs_err *e)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, "players");
    const int low = game->min_players < 2 ? 2 : game->min_players;
    *players = game->min_players <= 2 && game->max_players >= 2 ? 2 : low;
    if (!f)
        return 0;
    int64_t n;
    if (!cJSON_IsNumber(f) || !rs_whole_int64(f->valuedouble, &n) || n < low ||
        n > game->max_players)
        return rs_fail(e, "bad-option", "players: %s is for %d to %d people here", game->title, low,
                       game->max_players);
    *players = (int)n;
    return 0;
}

/* The pool a seek joins, from its fields: row gets its game, players, clock, rated and key. */
static int read_pool(const cJSON *msg, rs_seek_row *row, rs_err *e)
{
    const char *type;
    if (!rs_field_string(msg, "type", true, 64, &type, e))
        return -1;
    const rp_game *game = rp_game_find(type);
    if (!game)
        return rs_fail(e, "bad-game", "unknown game '%.40s' (see /api/v1/types)", type);
    rs_table_settings s = {.game = game};
    bool rated = false;
    if (seek_players(msg, game, &row->players, e) < 0 ||
        rs_field_clock(cJSON_GetObjectItemCaseSensitive(msg, "clock"), &s, e) < 0 ||
        !rs_field_bool(msg, "rated", &rated, e))
        return -1;
    rp_config config;
    rp_config_default(game, &config);
    config.players = row->players;
    rp_state trial;
    rp_error err = {{0}};
    if (game->init(&trial, &config, &err) < 0) /* a count the game's default options refuse */
        return rs_fail(e, "bad-option", "%s", err.msg);
    snprintf(row->game, sizeof row->game, "%s", game->id);
    row->clock_kind = (int)s.clock_kind;
    row->initial_ms = s.initial_ms;
    row->increment_ms = s.increment_ms;
    row->per_move_ms = s.per_move_ms;
    row->rated = rated;
    snprintf(row->pool, sizeof row->pool, "%s/%d/%d:%lld:%lld:%lld/%d", row->game, row->players,
             row->clock_kind, (long long)row->initial_ms, (long long)row->increment_ms,
             (long long)row->per_move_ms, rated);
    return 0;
}

/* The seeks of the users connected here from c's address (issue 49, finding 5: guests from
 * one address each seeking their most), c's own included. */
static int seeks_from_address(rs_server *srv, const rs_conn *c, size_t *count, rs_err *e)
{
    int64_t users[RS_USERS_FROM_MAX];
    const size_t n_users = rs_server_users_from(srv, c->holder, users, RS_USERS_FROM_MAX);
    *count = 0;
    for (size_t i = 0; i < n_users; i++) {
        rs_seek_row *rows = NULL;
        size_t n = 0;
        if (rs_store_seeks_read(srv->store, srv->node, users[i], &rows, &n) != RS_STORE_OK)
            return rs_fail(e, store_down(srv), "cannot read the seeks");
        free(rows);
        *count += n;
    }
    return 0;
}

/* The seeker's other seeks: one in the same pool is refused, so is one past the limits of a
 * user (--max-seeks) and of an address (--max-seeks-per-ip). */
static int check_limits(rs_server *srv, const rs_conn *c, const rs_seek_row *row, rs_err *e)
{
    rs_seek_row *mine = NULL;
    size_t n = 0;
    if (rs_store_seeks_read(srv->store, srv->node, c->user, &mine, &n) != RS_STORE_OK)
        return rs_fail(e, store_down(srv), "cannot read your seeks");
    int64_t same = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(mine[i].pool, row->pool) == 0)
            same = mine[i].id;
    free(mine);
    if (same)
        return rs_fail(e, "already-seeking", "you already seek a game in this pool (seek %lld)",
                       (long long)same);
    if (n >= (size_t)srv->cfg.max_seeks)
        return rs_fail(e, "too-many", "you seek %zu games already: unseek one first", n);
    size_t from_address = 0;
    if (seeks_from_address(srv, c, &from_address, e) < 0)
        return -1;
    if (from_address >= (size_t)srv->cfg.max_seeks_per_ip)
        return rs_fail(e, "too-many", "%zu games are sought from your address already",
                       from_address);
    return 0;
}

/* The seeker's rating for the game and the users linked to them, for the pairing rule. */
static int fill_seeker(rs_server *srv, const rs_conn *c, rs_seek_row *row, rs_err *e)
{
    rs_rating_row rating;
    const int rc = rs_store_rating_get(srv->store, c->user, row->game, &rating);
    if (rc != RS_STORE_OK && rc != RS_STORE_NOTFOUND)
        return rs_fail(e, store_down(srv), "cannot read your rating");
    row->rating = rc == RS_STORE_OK ? rating.rating : RS_DEFAULT_RATING;
    if (rs_store_links_of(srv->store, c->user, row->linked, RS_SEEK_LINKS, &row->num_linked) !=
        RS_STORE_OK)
        return rs_fail(e, store_down(srv), "cannot read your accounts");
    row->user = c->user;
    row->since_ms = rs_server_now_ms(srv);
    snprintf(row->node, sizeof row->node, "%s", srv->shared ? srv->node : "");
    return 0;
}

cJSON *rs_pools_clock_json(int kind, int64_t initial_ms, int64_t increment_ms, int64_t per_move_ms)
{
    cJSON *clock = cJSON_CreateObject();
    if (kind == RS_CLOCK_LIVE) {
        cJSON_AddStringToObject(clock, "kind", "live");
        cJSON_AddNumberToObject(clock, "initial_ms", (double)initial_ms);
        cJSON_AddNumberToObject(clock, "increment_ms", (double)increment_ms);
    } else if (kind == RS_CLOCK_CORRESPONDENCE) {
        cJSON_AddStringToObject(clock, "kind", "correspondence");
        const int64_t days = per_move_ms / DAY_MS; /* whole days: seek takes no other */
        cJSON_AddNumberToObject(clock, "days", (double)days);
    } else {
        cJSON_AddStringToObject(clock, "kind", "none");
    }
    return clock;
}

static cJSON *seek_json(const rs_seek_row *row)
{
    const rp_game *game = rp_game_find(row->game);
    cJSON *s = cJSON_CreateObject();
    cJSON_AddNumberToObject(s, "id", (double)row->id);
    cJSON_AddStringToObject(s, "type", row->game);
    cJSON_AddStringToObject(s, "title", game ? game->title : row->game);
    cJSON_AddNumberToObject(s, "players", row->players);
    cJSON_AddItemToObject(
        s, "clock",
        rs_pools_clock_json(row->clock_kind, row->initial_ms, row->increment_ms, row->per_move_ms));
    cJSON_AddBoolToObject(s, "rated", row->rated);
    cJSON_AddNumberToObject(s, "since_ms", (double)row->since_ms);
    cJSON_AddNumberToObject(s, "rating", row->rating);
    return s;
}

cJSON *rs_pools_seeks_json(rs_server *srv, int64_t user)
{
    cJSON *list = cJSON_CreateArray();
    rs_seek_row *rows = NULL;
    size_t n = 0;
    if (user && rs_store_seeks_read(srv->store, srv->node, user, &rows, &n) == RS_STORE_OK)
        for (size_t i = 0; i < n; i++)
            cJSON_AddItemToArray(list, seek_json(&rows[i]));
    free(rows);
    return list;
}

int rs_pools_seek(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    if (srv->draining)
        return rs_fail(e, "draining", "the server is shutting down: no new games");
    rs_seek_row row = {0};
    if (read_pool(msg, &row, e) < 0 || (row.rated && rs_server_rated_refused(c, e) < 0))
        return -1;
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_fail(e, store_down(srv), "the store is unavailable");
    if (check_limits(srv, c, &row, e) < 0 || fill_seeker(srv, c, &row, e) < 0)
        return -1;
    const int rc = rs_store_seek_add(srv->store, &row);
    if (rc == RS_STORE_CONFLICT) /* made a moment ago on another server */
        return rs_fail(e, "already-seeking", "you already seek a game in this pool");
    if (rc != RS_STORE_OK)
        return rs_fail(e, store_down(srv), "cannot store the seek");
    srv->mine_dirty = true; /* "my games" lists the seeks */
    cJSON *m = message("seeking");
    cJSON_AddItemToObject(m, "seek", seek_json(&row));
    rs_reply(srv, c, m, msg);
    rs_pools_pair(srv);
    return 0;
}

int rs_pools_unseek(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t id = 0, dropped = 0;
    if (!rs_field_int(msg, "seek", false, 1, INT64_MAX / 2, &id, e))
        return -1;
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_seeks_drop(srv->store, c->user, id, &dropped) != RS_STORE_OK)
        return rs_fail(e, store_down(srv), "cannot drop the seek");
    if (id && !dropped)
        return rs_fail(e, "no-such-seek", "you have no seek %lld", (long long)id);
    srv->mine_dirty = dropped > 0 || srv->mine_dirty;
    cJSON *m = message("done");
    cJSON_AddStringToObject(m, "re", "unseek");
    rs_reply(srv, c, m, msg);
    return 0;
}

/* ---- pairing ---- */

void rs_pools_tell_user(rs_server *srv, int64_t user, const cJSON *m)
{
    char *text = cJSON_PrintUnformatted(m);
    if (!text)
        return;
    srv->mine_dirty = true; /* a pairing or a challenge: the user's list changed */
    for (size_t i = 0; i < srv->conns.cap; i++) {
        const rs_conn *c = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (c && c->user == user && !c->closing)
            rs_outbox_put_text(&srv->outbox, c->id, text);
    }
    rs_cluster_note_user(srv, user, text);
    free(text);
}

rs_table *rs_pools_start_game(rs_server *srv, rs_ctx *ctx, rs_table_settings *s,
                              const int64_t *users)
{
    for (int i = 0; i < s->config.players; i++)
        s->seats[i] = (rs_seat_row){.kind = RS_SEAT_HUMAN, .user_id = users[i]};
    return rs_pools_start_seated(srv, ctx, s);
}

rs_table *rs_pools_start_seated(rs_server *srv, rs_ctx *ctx, const rs_table_settings *s)
{
    rs_err e;
    rs_table *t = rs_table_create(ctx, s, &e);
    if (!t) {
        rs_log("cannot create a game of %s: %s", s->game->id, e.text);
        return NULL;
    }
    if (!rs_server_add_table(srv, t)) {
        rs_table_free(t);
        return NULL;
    }
    rs_server_touch(srv, t, RS_GAME_OPEN);
    srv->lobby_dirty = true;
    return t;
}

/* The game of a group (its seeks, seated in shuffled order), started. */
static rs_table *create_game(rs_server *srv, rs_ctx *ctx, rs_seek_row *const *seats, int n)
{
    const rs_seek_row *first = seats[0];
    rs_table_settings s = {.game = rp_game_find(first->game),
                           .rated = first->rated,
                           .clock_kind = (rs_clock_kind)first->clock_kind,
                           .initial_ms = first->initial_ms,
                           .increment_ms = first->increment_ms,
                           .per_move_ms = first->per_move_ms};
    if (!s.game)
        return NULL;
    rp_config_default(s.game, &s.config);
    s.config.players = n;
    int64_t users[RP_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        users[i] = seats[i]->user;
    return rs_pools_start_game(srv, ctx, &s, users);
}

/* One group of the rule (indexes into rows, the anchor first): its seeks taken at once, then
 * its game created and each player told. A seek another server took (or is taking) leaves the
 * group for the next round. */
static void make_game(rs_server *srv, rs_ctx *ctx, rs_seek_row *rows, const size_t *group, int size)
{
    int64_t ids[RP_MAX_PLAYERS];
    size_t order[RP_MAX_PLAYERS];
    for (int m = 0; m < size; m++) {
        ids[m] = rows[group[m]].id;
        order[m] = group[m];
    }
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_seeks_take(srv->store, ids, (size_t)size) != RS_STORE_OK)
        return;
    rs_pool_shuffle(order, (size_t)size, randombytes_uniform);
    rs_seek_row *seats[RP_MAX_PLAYERS];
    for (int m = 0; m < size; m++)
        seats[m] = &rows[order[m]];
    const rs_table *t = create_game(srv, ctx, seats, size);
    if (!t)
        return;
    rs_log("game %lld paired from %d seeks of pool %s", (long long)t->row.id, size, seats[0]->pool);
    for (int seat = 0; seat < size; seat++) {
        cJSON *m = message("paired");
        cJSON_AddNumberToObject(m, "game", (double)t->row.id);
        cJSON_AddNumberToObject(m, "seat", seat);
        cJSON_AddNumberToObject(m, "seek", (double)seats[seat]->id);
        rs_pools_tell_user(srv, seats[seat]->user, m);
        cJSON_Delete(m);
    }
}

/* The rule over one pool: rows[0..n) all of it. */
static void pair_pool(rs_server *srv, rs_ctx *ctx, rs_seek_row *rows, size_t n)
{
    const int size = rows[0].players;
    rs_pool_entry *entries = calloc(n, sizeof *entries);
    size_t *groups = calloc(n, sizeof *groups);
    if (!entries || !groups || size < 2 || size > RP_MAX_PLAYERS) {
        free(entries);
        free(groups);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        rs_pool_entry *x = &entries[i];
        *x = (rs_pool_entry){.id = rows[i].id,
                             .user = rows[i].user,
                             .num_linked = rows[i].num_linked,
                             .rating = rows[i].rating,
                             .since_ms = rows[i].since_ms};
        memcpy(x->linked, rows[i].linked, sizeof x->linked);
    }
    const size_t count = rs_pool_pair(entries, n, size, ctx->now_ms, groups);
    for (size_t g = 0; g < count; g++)
        make_game(srv, ctx, rows, groups + g * (size_t)size, size);
    free(entries);
    free(groups);
}

static int by_pool(const void *a, const void *b)
{
    const rs_seek_row *x = a, *y = b;
    const int c = strcmp(x->pool, y->pool);
    if (c)
        return c;
    if (x->since_ms != y->since_ms)
        return x->since_ms < y->since_ms ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

void rs_pools_pair(rs_server *srv)
{
    rs_seek_row *rows = NULL;
    size_t n = 0;
    if (srv->draining || rs_store_seeks_read(srv->store, srv->node, 0, &rows, &n) != RS_STORE_OK ||
        n < 2) {
        free(rows);
        return;
    }
    qsort(rows, n, sizeof *rows, by_pool);
    rs_ctx ctx = rs_server_ctx(srv); /* one instant: the windows and the games' created_ms */
    for (size_t from = 0; from < n;) {
        size_t to = from + 1;
        while (to < n && strcmp(rows[to].pool, rows[from].pool) == 0)
            to++;
        pair_pool(srv, &ctx, rows + from, to - from);
        from = to;
    }
    free(rows);
}

/* ---- leaving, linking, starting ---- */

void rs_pools_user_left(rs_server *srv, int64_t user)
{
    int64_t dropped = 0;
    if (!user || rs_cluster_user_online(srv, user) || rs_store_begin(srv->store) != RS_STORE_OK)
        return;
    if (rs_store_seeks_drop(srv->store, user, 0, &dropped) == RS_STORE_OK && dropped)
        rs_log("user %lld left: %lld seeks dropped", (long long)user, (long long)dropped);
}

void rs_pools_link(rs_server *srv, int64_t guest, int64_t account)
{
    if (guest && account && guest != account && rs_store_begin(srv->store) == RS_STORE_OK)
        rs_store_link_add(srv->store, guest, account);
}

void rs_pools_start(rs_server *srv)
{
    if (rs_store_begin(srv->store) == RS_STORE_OK)
        rs_store_seeks_forget(srv->store, srv->node);
}
