/* api.c — HTTP for `ramparts serve`, without sockets (api.h; layer 2 of layers.h): /healthz,
 * the read-only JSON API under /api/v1/ (games open, live and finished, a finished game's
 * record, players' profiles, tournaments, the game types and their options) and the embedded browser
 * client. A live game's record is never served: it would carry the seed, and the seed reveals
 * every deck. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "assets.h"
#include "ramparts/version.h"
#include "server_internal.h"
#include "session.h"
#include "table_view.h"
#include "tournaments.h"

#define JSON_TYPE "application/json"

/* Cache-Control values: a hashed file never changes under its name; the page itself is
 * checked every time, so a new build's page names the new files at once; the game types
 * change only with the server, so an hour's reuse is safe; the rest of the API is live. */
static const char CACHE_IMMUTABLE[] = "public, max-age=31536000, immutable";
static const char CACHE_PAGE[] = "no-cache";
static const char CACHE_DAY[] = "public, max-age=86400";
static const char CACHE_TYPES[] = "public, max-age=3600";
static const char CACHE_NONE[] = "no-store";

static const char NOT_BUILT_PAGE[] =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<title>Ramparts server</title></head><body>\n"
    "<h1>Ramparts server</h1>\n"
    "<p>This server is running, but the browser client is not built into it yet, so there is "
    "no game page to show here. The build bundles it from <code>web/client/</code> (npm and "
    "Node.js) and rebuilds the "
    "server to serve it at this address.</p>\n"
    "<p>Programs can play now: they speak the JSON protocol over the WebSocket at "
    "<code>/ws</code> (see <code>docs/server-protocol.md</code>).</p>\n"
    "<h2>HTTP API</h2>\n<ul>\n"
    "<li><a href=\"/healthz\">/healthz</a>: is the server up</li>\n"
    "<li><a href=\"/api/v1/types\">/api/v1/types</a>: the games and their options</li>\n"
    "<li><a href=\"/api/v1/games\">/api/v1/games</a>: games open, live and finished</li>\n"
    "<li>/api/v1/games/ID: one game; /api/v1/games/ID/record: a finished game's record</li>\n"
    "<li>/api/v1/players/NAME: a player's ratings, history and results against the AI</li>\n"
    "</ul>\n</body></html>\n";

/* The asset served at path, or NULL. */
static const rs_asset *asset_find(const char *path)
{
    for (const rs_asset *a = rs_web_assets; a->path; a++)
        if (strcmp(a->path, path) == 0)
            return a;
    return NULL;
}

/* A reply of JSON text (malloc'd, owned by the reply from now on). */
static void reply_json_text(rs_http_reply *r, int status, char *body)
{
    r->status = status;
    r->content_type = JSON_TYPE;
    r->body = body;
    r->length = r->body ? strlen(r->body) : 0;
    r->cache_control = CACHE_NONE;
}

static void reply_json(rs_http_reply *r, int status, cJSON *body)
{
    reply_json_text(r, status, cJSON_PrintUnformatted(body));
    cJSON_Delete(body);
}

/* A strong ETag for a reply's body: FNV-1a over its bytes, quoted. */
static void set_etag(rs_http_reply *r)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < r->length; i++)
        h = (h ^ (unsigned char)r->body[i]) * 0x100000001b3ULL;
    snprintf(r->etag, sizeof r->etag, "\"%016llx\"", (unsigned long long)h);
}

static void reply_error(rs_http_reply *r, int status, const char *code, const char *text)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "error", code);
    cJSON_AddStringToObject(o, "message", text);
    reply_json(r, status, o);
}

void rs_http_starting(const char *path, const char *why, rs_http_reply *reply)
{
    memset(reply, 0, sizeof *reply);
    if (strcmp(path, "/healthz") != 0) {
        reply_error(reply, 503, "starting", why);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", false);
    cJSON_AddStringToObject(o, "server", "ramparts " RP_VERSION_STRING);
    cJSON_AddNumberToObject(o, "protocol", RS_PROTOCOL_VERSION);
    cJSON_AddStringToObject(o, "starting", why);
    reply_json(reply, 503, o);
}

void rs_http_reply_free(rs_http_reply *reply)
{
    if (!reply->body_static)
        free(reply->body);
    reply->body = NULL;
}

/* One parameter an endpoint reads from its query string. */
typedef struct query_param {
    const char *key;
    char value[64];
    bool given;
} query_param;

/* Read every parameter of query ("a=1&b=2") into params (n of them, the keys the endpoint
 * knows). False, with the reason in why, for a parameter it does not know, one given twice,
 * one without '=' or a value too long: an answer that ignored a parameter would answer
 * another question than the one asked. */
static bool read_query(const char *query, query_param *params, int n, char *why, size_t size)
{
    for (const char *p = query; p && *p;) {
        const size_t len = strcspn(p, "&");
        const char *eq = memchr(p, '=', len);
        const size_t key_len = eq ? (size_t)(eq - p) : len;
        query_param *param = NULL;
        for (int i = 0; i < n; i++)
            if (strlen(params[i].key) == key_len && strncmp(params[i].key, p, key_len) == 0)
                param = &params[i];
        if (!param || !eq || param->given || len - key_len - 1 >= sizeof param->value) {
            snprintf(why, size, "%s query parameter '%.*s'",
                     !param         ? "unknown"
                     : param->given ? "a repeated"
                                    : "a malformed",
                     (int)(key_len < 40 ? key_len : 40), p);
            return false;
        }
        snprintf(param->value, sizeof param->value, "%.*s", (int)(len - key_len - 1), eq + 1);
        param->given = true;
        p = p[len] ? p + len + 1 : p + len;
    }
    return true;
}

static void reply_bad_query(rs_http_reply *r, const char *why)
{
    reply_error(r, 400, "bad-query", why);
}

/* A positive whole number of at most 15 digits, or -1. */
static int64_t parse_id(const char *text, size_t len)
{
    if (len == 0 || len > 15)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)text[i]))
            return -1;
        v = v * 10 + (text[i] - '0');
    }
    return v > 0 ? v : -1;
}

/* The game id an optional parameter names (0 when not given). False, with a 400 reply naming
 * the parameter, when it is not a game id. */
static bool optional_game_id(const query_param *param, int64_t *id, rs_http_reply *r)
{
    *id = 0;
    if (!param->given)
        return true;
    *id = parse_id(param->value, strlen(param->value));
    if (*id >= 0)
        return true;
    char why[96];
    snprintf(why, sizeof why, "%s is a game id (a whole number from 1)", param->key);
    reply_bad_query(r, why);
    return false;
}

/* How many games one page of a list of /api/v1/games holds: a server with thousands of games
 * answers in small pages (before=ID), never in one reply of megabytes. */
#define GAMES_PAGE 50

/* One game summary of a list, with the id it is ordered by (newest first). */
typedef struct listed_game {
    int64_t id;
    const rs_table *table;  /* held here, or NULL */
    const cJSON *announced; /* held by another server, as it announced it */
} listed_game;

static int newest_first(const void *a, const void *b)
{
    const int64_t x = ((const listed_game *)a)->id, y = ((const listed_game *)b)->id;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The open (or live) games with an id below `before` (0: any), newest first: the first page
 * as an array under `key`, and whether more follow in `more.key`. */
static void add_game_list(rs_server *srv, cJSON *o, cJSON *more, const char *key, bool open,
                          int64_t before, int64_t now)
{
    const rs_game_status status = open ? RS_GAME_OPEN : RS_GAME_LIVE;
    listed_game *games = malloc((srv->tables.cap + srv->listed.cap + 1) * sizeof *games);
    size_t n = 0;
    for (size_t i = 0; games && i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (t && t->row.status == status && (!before || t->row.id < before))
            games[n++] = (listed_game){t->row.id, t, NULL};
    }
    /* On a cluster, the games other servers hold (or none does), as last announced. */
    for (size_t i = 0; games && i < srv->listed.cap; i++) {
        const rs_listed *l = srv->listed.slots[i].key ? srv->listed.slots[i].value : NULL;
        const int64_t id = (int64_t)srv->listed.slots[i].key;
        if (l && l->open == open && !rs_server_table(srv, id) && (!before || id < before))
            games[n++] = (listed_game){id, NULL, l->summary};
    }
    if (games)
        qsort(games, n, sizeof *games, newest_first);
    cJSON *list = cJSON_AddArrayToObject(o, key);
    for (size_t i = 0; i < n && i < GAMES_PAGE; i++)
        cJSON_AddItemToArray(list, games[i].table ? rs_table_summary(games[i].table, now)
                                                  : cJSON_Duplicate(games[i].announced, true));
    cJSON_AddBoolToObject(more, key, n > GAMES_PAGE);
    free(games);
}

static cJSON *games_json(rs_server *srv, const char *status, int64_t before)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *more = cJSON_CreateObject();
    const bool all = !status[0];
    const int64_t now = rs_server_now_us(srv);
    if (all || strcmp(status, "open") == 0)
        add_game_list(srv, o, more, "open", true, before, now);
    if (all || strcmp(status, "live") == 0)
        add_game_list(srv, o, more, "live", false, before, now);
    if (all || strcmp(status, "finished") == 0) {
        cJSON *finished = rs_store_finished_json(srv->store, 0, GAMES_PAGE + 1, before);
        const bool further = cJSON_GetArraySize(finished) > GAMES_PAGE;
        if (further)
            cJSON_DeleteItemFromArray(finished, GAMES_PAGE);
        cJSON_AddItemToObject(o, "finished", finished);
        cJSON_AddBoolToObject(more, "finished", further);
    }
    cJSON_AddItemToObject(o, "more", more);
    return o;
}

static void games_reply(rs_server *srv, const char *query, rs_http_reply *r)
{
    query_param params[] = {{"status", "", false}, {"before", "", false}};
    char why[96];
    if (!read_query(query, params, 2, why, sizeof why)) {
        reply_bad_query(r, why);
        return;
    }
    const char *status = params[0].value;
    if (params[0].given && strcmp(status, "open") != 0 && strcmp(status, "live") != 0 &&
        strcmp(status, "finished") != 0) {
        reply_bad_query(r, "status is open, live or finished");
        return;
    }
    int64_t before;
    if (!optional_game_id(&params[1], &before, r))
        return;
    reply_json(r, 200, games_json(srv, params[0].given ? status : "", before));
}

static void game_reply(rs_server *srv, int64_t id, bool record, rs_http_reply *r)
{
    rs_table *t = rs_server_table(srv, id);
    rs_game_row row;
    if (!t && rs_store_game_get(srv->store, id, &row) != RS_STORE_OK) {
        reply_error(r, 404, "not-found", "no such game");
        return;
    }
    rs_game_status status = t ? t->row.status : row.status;
    if (record) {
        if (status != RS_GAME_OVER) {
            reply_error(r, 409, "not-over",
                        "a record is published when the game is over: it carries the seed");
            return;
        }
        char *text;
        if (rs_store_record_get(srv->store, id, &text) != RS_STORE_OK) {
            reply_error(r, 404, "not-found", "this game has no record");
            return;
        }
        r->status = 200;
        r->content_type = "text/plain; charset=utf-8";
        r->body = text;
        r->length = strlen(text);
        return;
    }
    if (t) {
        reply_json(r, 200, rs_table_summary(t, rs_server_now_us(srv)));
        return;
    }
    rs_ctx ctx = rs_server_ctx(srv);
    rs_err e;
    rs_table *loaded = rs_table_load(&ctx, id, 0, &e); /* finished: nothing is written */
    if (!loaded) {
        reply_error(r, 500, "server-error", e.text);
        return;
    }
    reply_json(r, 200, rs_table_summary(loaded, ctx.now_us));
    rs_table_free(loaded);
}

/* The row of game id: the table's in memory (t), else the store's into *row; NULL after a 404
 * when there is no such game. */
static const rs_game_row *game_row(rs_server *srv, int64_t id, const rs_table *t, rs_game_row *row,
                                   rs_http_reply *r)
{
    if (t)
        return &t->row;
    if (rs_store_game_get(srv->store, id, row) == RS_STORE_OK)
        return row;
    reply_error(r, 404, "not-found", "no such game");
    return NULL;
}

/* A seat of a game of `seats` seats written as one digit, or -1. */
static int seat_of_text(const char *text, int seats)
{
    const int seat = strlen(text) == 1 && isdigit((unsigned char)text[0]) ? text[0] - '0' : -1;
    return seat < seats ? seat : -1;
}

/* GET /api/v1/games/ID/replay?viewer=spectator|SEAT: a finished game, ply by ply, as that
 * viewer saw it (rs_table_replay_json). Refused while the game is not over. */
static void replay_reply(rs_server *srv, int64_t id, const char *query, rs_http_reply *r)
{
    query_param params[] = {{"viewer", "", false}};
    const query_param *viewer_param = &params[0];
    char why[96];
    if (!read_query(query, params, 1, why, sizeof why)) {
        reply_bad_query(r, why);
        return;
    }
    rs_table *t = rs_server_table(srv, id);
    rs_game_row row;
    const rs_game_row *game = game_row(srv, id, t, &row, r);
    if (!game)
        return;
    if (game->status != RS_GAME_OVER) {
        reply_error(r, 409, "not-over", "a game is replayed once it is over");
        return;
    }
    rs_ctx ctx = rs_server_ctx(srv);
    rs_table *loaded = NULL;
    if (!t) {
        rs_err e;
        loaded = t = rs_table_load(&ctx, id, 0, &e); /* finished: nothing is written */
        if (!t) {
            reply_error(r, 500, "server-error", e.text);
            return;
        }
    }
    const char *who = viewer_param->given ? viewer_param->value : "spectator";
    int viewer = RP_SPECTATOR;
    if (strcmp(who, "spectator") != 0) {
        const int seat = seat_of_text(who, t->row.seats);
        if (seat < 0) {
            reply_bad_query(r, "viewer is 'spectator' or a seat of the game");
            rs_table_free(loaded);
            return;
        }
        viewer = seat;
    }
    reply_json(r, 200, rs_table_replay_json(t, viewer, ctx.now_us));
    rs_table_free(loaded);
}

/* GET /api/v1/games/ID/review?seat=N: the stored review of a finished game's seat (seat 0 when
 * not given): 404 not-reviewed until someone asked for it over the WebSocket (`review`, which
 * makes it), 409 while the game is live. Read-only: nothing is computed here. */
static void review_reply(rs_server *srv, int64_t id, const char *query, rs_http_reply *r)
{
    query_param params[] = {{"seat", "", false}};
    char why[96];
    if (!read_query(query, params, 1, why, sizeof why)) {
        reply_bad_query(r, why);
        return;
    }
    rs_game_row row;
    const rs_game_row *game = game_row(srv, id, rs_server_table(srv, id), &row, r);
    if (!game)
        return;
    const int seat = seat_of_text(params[0].given ? params[0].value : "0", game->seats);
    if (seat < 0) {
        reply_bad_query(r, "seat is a seat of the game");
        return;
    }
    if (game->status != RS_GAME_OVER) {
        reply_error(r, 409, "not-over", "a game is reviewed once it is over");
        return;
    }
    char *text;
    if (rs_store_review_get(srv->store, id, seat, &text) != RS_STORE_OK) {
        reply_error(r, 404, "not-reviewed",
                    "nobody has asked for this review yet: the `review` message makes it");
        return;
    }
    reply_json_text(r, 200, text);
}

static void player_reply(rs_server *srv, const char *name, size_t len, bool games,
                         const char *query, rs_http_reply *r)
{
    query_param params[] = {{"before", "", false}};
    char why[96];
    if (!read_query(query, params, games ? 1 : 0, why, sizeof why)) {
        reply_bad_query(r, why);
        return;
    }
    int64_t before;
    if (!optional_game_id(&params[0], &before, r))
        return;
    char who[RS_NAME_MAX + 1];
    if (len == 0 || len > RS_NAME_MAX) {
        reply_error(r, 404, "not-found", "no such player");
        return;
    }
    snprintf(who, sizeof who, "%.*s", (int)len, name);
    rs_user u;
    if (rs_store_user_find(srv->store, who, &u) != RS_STORE_OK) {
        reply_error(r, 404, "not-found", "no such player");
        return;
    }
    if (games) {
        reply_json(r, 200, rs_store_finished_json(srv->store, u.id, 50, before));
        return;
    }
    cJSON *profile = rs_store_profile_json(srv->store, &u);
    cJSON_AddItemToObject(profile, "tournaments", rs_tournaments_played_json(srv, u.id));
    reply_json(r, 200, profile);
}

/* A sanitizer's allocator replaces malloc and keeps its own count (glibc's then says 0). */
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak)); /* NOLINT */

/* Bytes of heap handed out and not given back, every thread's arena counted: what a leak
 * grows, unlike the resident set, which also holds what the allocator keeps for reuse. */
static double heap_in_use(void)
{
    if (__sanitizer_get_current_allocated_bytes)
        return (double)__sanitizer_get_current_allocated_bytes();
#ifdef __GLIBC__
    const struct mallinfo2 info = mallinfo2();
    return (double)(info.uordblks + info.hblkhd);
#else
    return 0;
#endif
}

/* /healthz[?game=ID]: with a game, on a cluster, also whether this server holds it in memory
 * (docs/cluster.md: a server holds only the games its clients watch or it holds the lease
 * of). */
static void health_reply(rs_server *srv, int64_t game, rs_http_reply *r)
{
    rs_server_stats st;
    rs_server_stats_get(srv, &st);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", !srv->draining);
    cJSON_AddStringToObject(o, "server", "ramparts " RP_VERSION_STRING);
    cJSON_AddNumberToObject(o, "protocol", RS_PROTOCOL_VERSION);
    if (srv->shared) { /* which server of the cluster answered, and its catching up */
        cJSON_AddStringToObject(o, "node", srv->node);
        cJSON_AddNumberToObject(o, "caught_up_moves", (double)st.caught_up_moves);
        cJSON_AddNumberToObject(o, "caught_up_whole", (double)st.caught_up_whole);
        cJSON_AddNumberToObject(o, "games_held", (double)srv->tables.count);
        cJSON_AddNumberToObject(o, "games_listed", (double)srv->listed.count);
        cJSON_AddNumberToObject(o, "unloaded", (double)st.unloaded);
        if (game > 0)
            cJSON_AddBoolToObject(o, "holds_game", rs_server_table(srv, game) != NULL);
    }
    cJSON_AddNumberToObject(o, "connections", st.connections);
    cJSON_AddNumberToObject(o, "games_open", st.games_open);
    cJSON_AddNumberToObject(o, "games_live", st.games_live);
    /* whole seconds: the division truncates on purpose */
    const int64_t uptime_s = (rs_server_now_us(srv) - srv->started_us) / 1000000;
    cJSON_AddNumberToObject(o, "uptime_s", (double)uptime_s);
    cJSON_AddNumberToObject(o, "heap_bytes", heap_in_use());
    cJSON_AddNumberToObject(o, "sqlite_heap_bytes", (double)rs_store_sqlite_heap_bytes());
    reply_json(r, srv->draining ? 503 : 200, o);
}

static void asset_reply(const char *path, rs_http_reply *r)
{
    const rs_asset *a = asset_find(strcmp(path, "/") == 0 ? "/index.html" : path);
    const bool page = strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0;
    if (a) {
        r->status = 200;
        r->content_type = a->content_type;
        r->body = (char *)a->data;
        r->length = a->size;
        r->body_static = true;
        r->asset = a;
        r->cache_control = a->immutable ? CACHE_IMMUTABLE : page ? CACHE_PAGE : CACHE_DAY;
        return;
    }
    if (page) {
        r->status = 200;
        r->content_type = "text/html; charset=utf-8";
        r->body = (char *)NOT_BUILT_PAGE;
        r->length = sizeof NOT_BUILT_PAGE - 1;
        r->body_static = true;
        r->cache_control = CACHE_PAGE;
        return;
    }
    reply_error(r, 404, "not-found", "nothing here");
}

static void health_route(rs_server *srv, const char *query, rs_http_reply *r)
{
    query_param params[] = {{"game", "", false}};
    char why[96];
    if (!read_query(query, params, 1, why, sizeof why)) {
        reply_bad_query(r, why);
        return;
    }
    int64_t game;
    if (!optional_game_id(&params[0], &game, r))
        return;
    health_reply(srv, game, r);
}

/* GET /api/v1/tournaments and /api/v1/tournaments/ID (rest: what follows the list's path). */
static void tournaments_reply(rs_server *srv, const char *rest, const char *query, rs_http_reply *r)
{
    char why[96];
    if (!read_query(query, NULL, 0, why, sizeof why)) {
        reply_bad_query(r, why);
        return;
    }
    cJSON *body = NULL;
    bool found = true;
    if (!*rest) {
        body = rs_tournaments_list_json(srv);
    } else {
        const int64_t id = rest[0] == '/' ? parse_id(rest + 1, strlen(rest + 1)) : -1;
        if (id < 0) {
            reply_error(r, 404, "not-found", "expected /api/v1/tournaments or .../ID");
            return;
        }
        body = rs_tournaments_one_json(srv, id, &found);
    }
    if (!found)
        reply_error(r, 404, "not-found", "no such tournament");
    else if (!body)
        reply_error(r, 503, "unavailable", "cannot read the tournaments");
    else
        reply_json(r, 200, body);
}

void rs_server_http(rs_server *srv, const char *method, const char *path, const char *query,
                    rs_http_reply *r)
{
    memset(r, 0, sizeof *r);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        reply_error(r, 405, "method", "only GET: the HTTP API is read-only");
        return;
    }
    static const char GAMES[] = "/api/v1/games/", PLAYERS[] = "/api/v1/players/",
                      TOURNAMENTS[] = "/api/v1/tournaments";
    const bool api = strcmp(path, "/healthz") == 0 || strncmp(path, "/api/", 5) == 0;
    char why[96];
    if (api && !query)
        query = "";
    if (strcmp(path, "/healthz") == 0) {
        health_route(srv, query, r);
    } else if (strcmp(path, "/api/v1/types") == 0) {
        if (!read_query(query, NULL, 0, why, sizeof why)) {
            reply_bad_query(r, why);
        } else {
            reply_json_text(r, 200, rp_games_describe(RP_DESCRIBE_SERVER, rs_ai_levels));
            r->cache_control = CACHE_TYPES;
            if (r->body)
                set_etag(r);
        }
    } else if (strcmp(path, "/api/v1/games") == 0) {
        games_reply(srv, query, r);
    } else if (strncmp(path, GAMES, sizeof GAMES - 1) == 0) {
        const char *rest = path + sizeof GAMES - 1;
        size_t digits = strcspn(rest, "/");
        int64_t id = parse_id(rest, digits);
        bool record = strcmp(rest + digits, "/record") == 0;
        bool replay = strcmp(rest + digits, "/replay") == 0;
        bool review = strcmp(rest + digits, "/review") == 0;
        if (id < 0 || (rest[digits] && !record && !replay && !review))
            reply_error(r, 404, "not-found",
                        "expected /api/v1/games/ID, .../ID/record, .../ID/replay or "
                        ".../ID/review");
        else if (replay)
            replay_reply(srv, id, query, r);
        else if (review)
            review_reply(srv, id, query, r);
        else if (!read_query(query, NULL, 0, why, sizeof why))
            reply_bad_query(r, why);
        else
            game_reply(srv, id, record, r);
    } else if (strncmp(path, TOURNAMENTS, sizeof TOURNAMENTS - 1) == 0) {
        tournaments_reply(srv, path + sizeof TOURNAMENTS - 1, query, r);
    } else if (strncmp(path, PLAYERS, sizeof PLAYERS - 1) == 0) {
        const char *rest = path + sizeof PLAYERS - 1;
        size_t len = strcspn(rest, "/");
        bool games = strcmp(rest + len, "/games") == 0;
        if (rest[len] && !games)
            reply_error(r, 404, "not-found", "expected /api/v1/players/NAME or .../NAME/games");
        else
            player_reply(srv, rest, len, games, query, r);
    } else {
        asset_reply(path, r);
    }
}

/* Does an Accept-Encoding header allow coding? "gzip, br;q=0.5": yes for both; "br;q=0": no. */
static bool accepts_coding(const char *header, const char *coding)
{
    const size_t n = strlen(coding);
    for (const char *p = header; p && *p;) {
        p += strspn(p, " \t,");
        const size_t len = strcspn(p, " \t;,");
        if (len == n && strncasecmp(p, coding, n) == 0) {
            const char *end = p + strcspn(p, ",");
            const char *q = strstr(p, "q=");
            return !(q && q < end && strtod(q + 2, NULL) <= 0.0);
        }
        p = strchr(p, ',');
    }
    return false;
}

/* Does an If-None-Match list ("\"a\", W/\"b\"" or "*") name etag? */
static bool etag_matches(const char *header, const char *etag)
{
    if (!header || !*header || !*etag)
        return false;
    return strcmp(header, "*") == 0 || strstr(header, etag) != NULL;
}

void rs_http_reply_negotiate(rs_http_reply *r, const char *accept_encoding,
                             const char *if_none_match)
{
    if (r->status != 200)
        return;
    if (etag_matches(if_none_match, r->etag)) {
        rs_http_reply_free(r);
        r->status = 304;
        r->length = 0;
        return;
    }
    const rs_asset *a = r->asset;
    if (!a || (!a->brotli && !a->gzip))
        return;
    r->vary_encoding = true;
    const char *accept = accept_encoding ? accept_encoding : "";
    if (a->brotli && accepts_coding(accept, "br")) {
        r->body = (char *)a->brotli;
        r->length = a->brotli_size;
        r->content_encoding = "br";
    } else if (a->gzip && accepts_coding(accept, "gzip")) {
        r->body = (char *)a->gzip;
        r->length = a->gzip_size;
        r->content_encoding = "gzip";
    }
}
