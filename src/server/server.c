/* server.c — the core of `ramparts serve` (server.h, server_internal.h; layer 5 of layers.h):
 * the registry of connections and games, time, replies, AI jobs, and the state opened and
 * closed around the store. It calls only the layers below (the referee, table.c; the
 * workers; the store): the loop, its start and stop are loop.c; identity and the lobby
 * session.c; the cluster cluster.c; the HTTP API api.c. */
#include "server_internal.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fields.h"
#include "grow.h"

#define AI_RETRY_US 30000000ll       /* an AI job unanswered this long is queued again */
#define LOGIN_WINDOW_US 600000000ll  /* failed logins are counted per 10 minutes */
#define GUEST_WINDOW_US 3600000000ll /* new guests per hour */

void rs_server_config_default(rs_server_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->db_path = ":memory:";
    cfg->ai_threads = 1;
    cfg->grace_ms = 60000;
    cfg->token_days = 90;
    cfg->rate_messages = 100;
    cfg->rate_window_ms = 20000;
    cfg->max_watch = 32;
    cfg->max_open_games = 10;
    cfg->max_ai_games = 10;
    cfg->max_ai_games_per_ip = 50;
    cfg->max_open_games_per_ip = 20;
    cfg->max_seeks = 3;
    cfg->max_seeks_per_ip = 12;
    cfg->max_challenges = 5;
    cfg->max_challenges_per_ip = 20;
    cfg->hash_threads = 2;
    cfg->hash_per_ip = 4;
    cfg->login_failures_per_ip = 30;
    cfg->login_failures_per_account = 10;
    cfg->guests_per_ip = 100;
    cfg->lease_ms = 3000;
    cfg->expire_ms = 1800000;
}

/* ---- helpers for handlers ---- */

/* A rating means something only when it belongs to someone who keeps it: guests, who can be
 * made by the thousand, play unrated games (issue 49, finding 4; lichess does the same). */
int rs_server_rated_refused(const rs_conn *c, rs_err *e)
{
    if (c->user && !c->guest)
        return 0;
    return rs_fail(e, "not-registered",
                   "rated games are for registered players: register first, or play unrated");
}

rs_ctx rs_server_ctx(rs_server *srv)
{
    rs_ctx ctx = {srv->store,
                  &srv->outbox,
                  srv->time.mono_us(srv->time.ctx),
                  srv->time.wall_ms(srv->time.ctx),
                  srv->cfg.grace_ms,
                  srv->shared};
    return ctx;
}

int64_t rs_server_now_us(rs_server *srv)
{
    return srv->time.mono_us(srv->time.ctx);
}

int64_t rs_server_now_ms(rs_server *srv)
{
    return srv->time.wall_ms(srv->time.ctx);
}

rs_conn *rs_server_conn(rs_server *srv, uint64_t id)
{
    return rs_idmap_get(&srv->conns, id);
}

size_t rs_server_users_from(const rs_server *srv, const char *holder, int64_t *users, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < srv->conns.cap; i++) {
        const rs_conn *c = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (!c || !c->user || strcmp(c->holder, holder) != 0)
            continue;
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = users[k] == c->user;
        if (!seen && n < max)
            users[n++] = c->user;
    }
    return n;
}

rs_table *rs_server_table(rs_server *srv, int64_t id)
{
    return id > 0 ? rs_idmap_get(&srv->tables, (uint64_t)id) : NULL;
}

void rs_server_touch(rs_server *srv, rs_table *t, rs_game_status status_before)
{
    srv->deadlines_stale = true;
    srv->mine_dirty = true;
    if (t->row.status != status_before || t->row.status == RS_GAME_OPEN)
        srv->lobby_dirty = true;
    for (size_t i = 0; i < srv->touched_count; i++)
        if (srv->touched[i] == t->row.id)
            return;
    if (!RS_GROW(srv->touched, srv->touched_count, srv->touched_cap, 16))
        return;
    srv->touched[srv->touched_count++] = t->row.id;
}

void rs_server_note(rs_server *srv, rs_conn *c)
{
    if (c->noted || srv->noted_overflow)
        return;
    if (!RS_GROW(srv->noted, srv->noted_count, srv->noted_cap, 64)) {
        srv->noted_overflow = true;
        return;
    }
    c->noted = true;
    srv->noted[srv->noted_count++] = c->id;
}

void rs_server_visit_noted(rs_server *srv, void (*visit)(rs_server *, rs_conn *))
{
    if (srv->noted_overflow) {
        for (size_t i = 0; i < srv->conns.cap; i++)
            if (srv->conns.slots[i].key)
                visit(srv, srv->conns.slots[i].value);
        return;
    }
    for (size_t i = 0; i < srv->noted_count; i++) {
        rs_conn *c = rs_server_conn(srv, srv->noted[i]);
        if (c)
            visit(srv, c);
    }
}

bool rs_server_add_table(rs_server *srv, rs_table *t)
{
    srv->deadlines_stale = true;
    return rs_idmap_put(&srv->tables, (uint64_t)t->row.id, t);
}

void rs_server_replace_table(rs_server *srv, rs_table *old, rs_table *fresh, int64_t since)
{
    /* Keep the watchers: they are connections, not stored state. */
    fresh->watchers = old->watchers;
    fresh->num_watchers = old->num_watchers;
    fresh->cap_watchers = old->cap_watchers;
    for (size_t w = 0; w < fresh->num_watchers; w++) {
        int seat = rs_table_seat_of(fresh, fresh->watchers[w].user);
        fresh->watchers[w].viewer = seat >= 0 ? seat : RP_SPECTATOR;
        if (seat >= 0)
            fresh->connections[seat]++;
    }
    /* Who is connected is not stored in the game: the seats keep it while their users do. */
    fresh->remote_seats = 0;
    fresh->kept_since_us = old->kept_since_us;
    /* Nor are the mutes and the creator's address; the chat switch is, but as a chat line. */
    memcpy(fresh->mutes, old->mutes, sizeof fresh->mutes);
    fresh->num_mutes = old->num_mutes;
    memcpy(fresh->creator_holder, old->creator_holder, sizeof fresh->creator_holder);
    fresh->creator_rating = old->creator_rating;
    fresh->chat_switch = old->chat_switch;
    for (int s = 0; s < fresh->row.seats && s < old->row.seats; s++) {
        fresh->published_user[s] = old->published_user[s];
        if (fresh->row.seat[s].user_id != old->row.seat[s].user_id)
            continue;
        fresh->gone_since_us[s] = old->gone_since_us[s];
        fresh->remote_seats |= old->remote_seats & (1u << s);
    }
    old->watchers = NULL;
    rs_idmap_put(&srv->tables, (uint64_t)fresh->row.id, fresh);
    srv->deadlines_stale = true;
    rs_ctx ctx = rs_server_ctx(srv);
    for (size_t w = 0; w < fresh->num_watchers; w++)
        rs_table_resend(&ctx, fresh, fresh->watchers[w].conn, since);
    rs_table_free(old);
}

cJSON *rs_server_message(const char *type)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", type);
    return m;
}

int rs_server_store_down(rs_server *srv, rs_err *e, const char *what)
{
    return rs_fail(e, rs_store_unavailable(srv->store) ? "unavailable" : "server-error", "%s",
                   what);
}

/* Reply to the connection that asked, echoing its "id". */
void rs_reply(rs_server *srv, rs_conn *c, cJSON *msg, const cJSON *request)
{
    const cJSON *id = request ? cJSON_GetObjectItemCaseSensitive(request, "id") : NULL;
    if (id)
        cJSON_AddItemToObject(msg, "id", cJSON_Duplicate(id, true));
    rs_outbox_put(&srv->outbox, c->id, msg);
}

void rs_server_error(rs_server *srv, rs_conn *c, const rs_err *e, const char *type,
                     const cJSON *request)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "error");
    cJSON_AddStringToObject(m, "code", e->code ? e->code : "server-error");
    cJSON_AddStringToObject(m, "message", e->text);
    if (type)
        cJSON_AddStringToObject(m, "re", type);
    const cJSON *game = request ? cJSON_GetObjectItemCaseSensitive(request, "game") : NULL;
    int64_t game_id;
    if (game && cJSON_IsNumber(game) && rs_whole_int64(game->valuedouble, &game_id)) {
        rs_table *t = rs_server_table(srv, game_id);
        cJSON_AddNumberToObject(m, "game", game->valuedouble);
        if (t) {
            cJSON_AddNumberToObject(m, "v", (double)t->row.v);
            cJSON_AddNumberToObject(m, "ply", (double)rs_table_ply(t));
        }
    }
    rs_reply(srv, c, m, request);
    srv->stats.errors++;
}

/* ---- connections ---- */

void rs_server_unwatch_all(rs_server *srv, rs_conn *c)
{
    rs_ctx ctx = rs_server_ctx(srv);
    for (int i = 0; i < c->num_watching; i++) {
        rs_table *t = rs_server_table(srv, c->watching[i]);
        if (t && rs_table_unwatch(&ctx, t, c->id))
            rs_server_touch(srv, t, t->row.status); /* a finished game may now unload */
    }
    c->num_watching = 0;
}

bool rs_server_user_connected(const rs_server *srv, int64_t user)
{
    for (size_t i = 0; i < srv->conns.cap; i++) {
        const rs_conn *c = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (c && c->user == user)
            return true;
    }
    return false;
}

/* ---- AI jobs ---- */

/* The spec an AI seat plays with: its level, but `hard` against a person thinks for
 * cfg.ai_hard_ms a move when that is set (issue 31: strongest in the time a person waits),
 * only in an untimed game, so no clock can run out while it thinks. Games among AIs keep the
 * level's iterations (the server makes none: a game has a person). */
void rs_server_ai_seat_spec(const rs_server *srv, const rs_table *t, int seat, char *out,
                            size_t size)
{
    const char *level = t->row.seat[seat].ai_level;
    bool person = false;
    for (int s = 0; s < t->row.seats; s++)
        person = person || t->row.seat[s].kind == RS_SEAT_HUMAN;
    if (srv->cfg.ai_hard_ms > 0 && person && strcmp(level, "hard") == 0 &&
        t->row.clock_kind == RS_CLOCK_NONE)
        snprintf(out, size, "hard:ms=%d", (int)srv->cfg.ai_hard_ms); /* at most 10000 */
    else
        snprintf(out, size, "%s", level);
}

int rs_server_ai_due(rs_server *srv, const rs_table *t)
{
    const int seat = rs_table_to_move(t);
    if (seat < 0 || t->row.seat[seat].kind != RS_SEAT_AI)
        return -1;
    const bool searching = t->ai_ply == (int64_t)rs_table_ply(t) &&
                           rs_server_now_us(srv) - t->ai_since_us < AI_RETRY_US;
    return searching ? -1 : seat;
}

void rs_server_submit_ai(rs_server *srv, rs_table *t, int seat)
{
    rs_job *job = &srv->job_scratch;
    memset(job, 0, sizeof *job);
    job->kind = RS_JOB_AI;
    job->game_id = t->row.id;
    job->ply = (int64_t)rs_table_ply(t);
    job->seat = seat;
    job->match = rp_match_clone(t->match);
    rs_server_ai_seat_spec(srv, t, seat, job->level, sizeof job->level);
    job->seed = rs_seed_new();
    if (rs_workers_submit(srv->workers, job)) {
        t->ai_ply = job->ply;
        t->ai_since_us = rs_server_now_us(srv);
    }
}

/* ---- startup and shutdown ---- */

/* This server's name: the configured one, else host-pid, unique among running servers. */
static void name_node(rs_server *srv)
{
    if (srv->cfg.node && srv->cfg.node[0]) {
        snprintf(srv->node, sizeof srv->node, "%s", srv->cfg.node);
    } else {
        char host[40] = "host";
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        snprintf(srv->node, sizeof srv->node, "%s-%ld", host, (long)getpid());
    }
    for (char *p = srv->node; *p; p++) /* one word in the announcements */
        if (*p == ' ' || *p == '\n' || *p == '\t')
            *p = '_';
    snprintf(srv->alive_key, sizeof srv->alive_key, "alive_ms:%s", srv->node);
    srv->cfg.node = NULL; /* the caller's text may not outlive this */
}

bool rs_server_shared(const rs_server *srv)
{
    return srv->shared;
}

int rs_server_listen_fd(const rs_server *srv)
{
    return rs_store_listen_fd(srv->store);
}

/* A table of budgets, `per_window` per window each, or NULL when that limit is off (0). */
static rs_rate_table *rate_table(int per_window, int64_t window_us)
{
    rs_rate_table *t = per_window > 0 ? malloc(sizeof *t) : NULL;
    if (t)
        rs_rate_init(t, per_window, window_us);
    return t;
}

rs_server *rs_server_open(const rs_server_config *cfg, const rs_time_source *time,
                          const rs_output *out, char *err, size_t err_size)
{
    if (!rs_auth_init()) {
        snprintf(err, err_size, "libsodium cannot start");
        return NULL;
    }
    rs_server *srv = calloc(1, sizeof *srv);
    if (!srv) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    srv->cfg = *cfg;
    srv->time = *time;
    srv->out = *out;
    srv->deadlines_stale = true;
    if (rs_store_open_synced(&srv->store, cfg->db_path,
                             cfg->sync_normal ? RS_SYNC_NORMAL : RS_SYNC_FULL, err,
                             err_size) != RS_STORE_OK) {
        free(srv);
        return NULL;
    }
    srv->shared = rs_store_shared(srv->store);
    srv->login_failures_ip = rate_table(cfg->login_failures_per_ip, LOGIN_WINDOW_US);
    srv->login_failures_account = rate_table(cfg->login_failures_per_account, LOGIN_WINDOW_US);
    srv->new_guests = rate_table(cfg->guests_per_ip, GUEST_WINDOW_US);
    name_node(srv);
    srv->started_us = rs_server_now_us(srv);
    srv->last_heartbeat_us = srv->started_us;
    srv->last_checkpoint_us = srv->started_us;
    return srv;
}

void rs_server_close(rs_server *srv)
{
    for (size_t i = 0; i < srv->conns.cap; i++)
        if (srv->conns.slots[i].key)
            free(srv->conns.slots[i].value);
    for (size_t i = 0; i < srv->tables.cap; i++)
        if (srv->tables.slots[i].key)
            rs_table_free(srv->tables.slots[i].value);
    rs_idmap_free(&srv->conns);
    rs_idmap_free(&srv->tables);
    rs_idmap_free(&srv->hashing);
    free(srv->login_failures_ip);
    free(srv->login_failures_account);
    free(srv->new_guests);
    rs_outbox_clear(&srv->outbox);
    free(srv->outbox.items);
    free(srv->touched);
    free(srv->noted);
    rs_store_close(srv->store);
    free(srv);
}

void rs_server_stats_get(rs_server *srv, rs_server_stats *out)
{
    *out = srv->stats;
    out->games_open = out->games_live = 0;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (t && t->row.status == RS_GAME_OPEN)
            out->games_open++;
        if (t && t->row.status == RS_GAME_LIVE)
            out->games_live++;
    }
}

void rs_server_drain(rs_server *srv)
{
    srv->draining = true;
}
