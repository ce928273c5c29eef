/* tournaments.c — the `tournament` message and the tournaments' read models (see
 * tournaments.h): a tournament's terms checked whole before anything is stored, entries
 * stored as they change, standings computed from the stored pairings by tournament.c. */
#include "tournaments.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "pools.h"
#include "tournament.h"

#define LIST_LIMIT 50
#define DEFAULT_RATING 1500.0 /* a player with no rated game of the tournament's game */

static const char *const FORMATS[] = {"sets", "swiss", "arena"};
static const char *const STATUSES[] = {"open", "running", "over"};

/* ---- as the protocol shows them ---- */

static cJSON *tour_json(const rs_tour_row *row, size_t entries)
{
    const rp_game *game = rp_game_find(row->game);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)row->id);
    cJSON_AddStringToObject(o, "name", row->name);
    cJSON_AddStringToObject(o, "type", row->game);
    cJSON_AddStringToObject(o, "title", game ? game->title : row->game);
    cJSON *options = cJSON_Parse(row->options);
    cJSON_AddItemToObject(o, "options", options ? options : cJSON_CreateObject());
    cJSON_AddStringToObject(o, "format", FORMATS[row->format % 3]);
    if (row->format == RS_TOUR_SWISS)
        cJSON_AddNumberToObject(o, "rounds", row->rounds);
    if (row->format == RS_TOUR_ARENA)
        cJSON_AddNumberToObject(o, "minutes", (double)row->duration_ms / 60000.0);
    cJSON_AddNumberToObject(o, "games", row->set_games);
    cJSON_AddNumberToObject(o, "table", row->table_size);
    cJSON_AddItemToObject(
        o, "clock",
        rs_pools_clock_json(row->clock_kind, row->initial_ms, row->increment_ms, row->per_move_ms));
    cJSON_AddBoolToObject(o, "rated", row->rated);
    cJSON_AddStringToObject(o, "status", STATUSES[row->status % 3]);
    cJSON_AddNumberToObject(o, "round", row->round);
    cJSON_AddNumberToObject(o, "entries", (double)entries);
    cJSON_AddNumberToObject(o, "created_ms", (double)row->created_ms);
    cJSON_AddNumberToObject(o, "starts_ms", (double)row->starts_ms);
    return o;
}

/* The entries and pairings of one tournament, read together. */
typedef struct tour_data {
    rs_tour_row row;
    rs_tour_entry_row *entries;
    size_t n_entries;
    rs_tour_pairing_row *pairings;
    size_t n_pairings;
} tour_data;

static void data_free(tour_data *d)
{
    free(d->entries);
    free(d->pairings);
}

/* RS_STORE_OK, NOTFOUND or the store's failure. */
static int data_read(rs_server *srv, int64_t id, tour_data *d)
{
    memset(d, 0, sizeof *d);
    int rc = rs_store_tour_get(srv->store, id, &d->row);
    if (rc == RS_STORE_OK)
        rc = rs_store_tour_entries(srv->store, id, &d->entries, &d->n_entries);
    if (rc == RS_STORE_OK)
        rc = rs_store_tour_pairings(srv->store, id, &d->pairings, &d->n_pairings);
    return rc;
}

static long entry_index(const tour_data *d, int64_t user)
{
    for (size_t i = 0; i < d->n_entries; i++)
        if (d->entries[i].user == user)
            return (long)i;
    return -1;
}

/* The pairings as tournament.c reads games: players by entry index, unfinished as -1. */
static rs_tour_game *as_games(const tour_data *d)
{
    rs_tour_game *games = calloc(d->n_pairings ? d->n_pairings : 1, sizeof *games);
    if (!games)
        return NULL;
    for (size_t k = 0; k < d->n_pairings; k++) {
        const rs_tour_pairing_row *p = &d->pairings[k];
        const bool done = p->n == 1 || p->games_done >= d->row.set_games;
        games[k] = (rs_tour_game){.round = p->round, .n = p->n};
        for (int s = 0; s < p->n && s < RS_TOUR_TABLE_MAX; s++) {
            games[k].seat[s] = (int)entry_index(d, p->user[s]);
            games[k].points[s] = done ? p->points[s] : -1;
        }
    }
    return games;
}

static cJSON *standings_json(const tour_data *d)
{
    cJSON *list = cJSON_CreateArray();
    rs_tour_entry *entries = calloc(d->n_entries ? d->n_entries : 1, sizeof *entries);
    rs_tour_standing *st = calloc(d->n_entries ? d->n_entries : 1, sizeof *st);
    rs_tour_game *games = as_games(d);
    if (!entries || !st || !games) {
        free(entries);
        free(st);
        free(games);
        return list;
    }
    for (size_t i = 0; i < d->n_entries; i++)
        entries[i] = (rs_tour_entry){d->entries[i].rating, d->entries[i].active};
    rs_tour_standings(entries, d->n_entries, games, d->n_pairings, d->row.round, st);
    for (size_t i = 0; i < d->n_entries; i++) {
        const rs_tour_entry_row *e = &d->entries[st[i].entry];
        cJSON *line = cJSON_CreateObject();
        cJSON_AddNumberToObject(line, "rank", st[i].rank);
        cJSON_AddStringToObject(line, "name", e->name);
        cJSON_AddNumberToObject(line, "points", st[i].points / 2.0);
        cJSON_AddNumberToObject(line, "buchholz", st[i].buchholz / 2.0);
        cJSON_AddNumberToObject(line, "sonneborn_berger", st[i].sonneborn / 4.0);
        if (st[i].direct >= 0)
            cJSON_AddNumberToObject(line, "direct", st[i].direct / 2.0);
        cJSON_AddNumberToObject(line, "played", st[i].played);
        cJSON_AddNumberToObject(line, "byes", st[i].byes);
        cJSON_AddBoolToObject(line, "active", e->active);
        cJSON_AddItemToArray(list, line);
    }
    free(entries);
    free(st);
    free(games);
    return list;
}

static cJSON *pairings_json(const tour_data *d)
{
    cJSON *list = cJSON_CreateArray();
    for (size_t k = 0; k < d->n_pairings; k++) {
        const rs_tour_pairing_row *p = &d->pairings[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "round", p->round);
        cJSON_AddNumberToObject(o, "board", p->board);
        cJSON *names = cJSON_AddArrayToObject(o, "players");
        cJSON *points = cJSON_AddArrayToObject(o, "points");
        for (int s = 0; s < p->n; s++) {
            const long i = entry_index(d, p->user[s]);
            cJSON_AddItemToArray(names, cJSON_CreateString(i >= 0 ? d->entries[i].name : "?"));
            cJSON_AddItemToArray(points,
                                 cJSON_CreateNumber(p->points[s] < 0 ? 0 : p->points[s] / 2.0));
        }
        cJSON_AddNumberToObject(o, "games_done", p->games_done);
        if (p->game)
            cJSON_AddNumberToObject(o, "game", (double)p->game);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

/* The whole of one tournament: its terms, entries' standings, pairings. */
static cJSON *full_json(const tour_data *d)
{
    cJSON *o = tour_json(&d->row, d->n_entries);
    cJSON_AddItemToObject(o, "standings", standings_json(d));
    cJSON_AddItemToObject(o, "pairings", pairings_json(d));
    return o;
}

/* ---- create ---- */

static int read_format(const cJSON *msg, rs_tour_spec *spec, rs_err *e)
{
    const char *format;
    if (!rs_field_string(msg, "format", true, 16, &format, e))
        return -1;
    for (int f = 0; f < 3; f++)
        if (strcmp(format, FORMATS[f]) == 0)
            spec->format = (rs_tour_format)f;
    if (strcmp(format, FORMATS[spec->format]) != 0)
        return rs_fail(e, "bad-tournament", "format: sets, swiss or arena");
    /* Castle Danger's formal play is a set of 2: the default of a set. */
    int64_t rounds = 0, minutes = 0, games = spec->format == RS_TOUR_SETS ? 2 : 1, table = 2;
    if (!rs_field_int(msg, "rounds", spec->format == RS_TOUR_SWISS, 0, 1000, &rounds, e) ||
        !rs_field_int(msg, "minutes", spec->format == RS_TOUR_ARENA, 0, 100000, &minutes, e) ||
        !rs_field_int(msg, "games", false, 0, 1000, &games, e) ||
        !rs_field_int(msg, "table", false, 0, 1000, &table, e))
        return -1;
    spec->rounds = (int)rounds;
    spec->duration_ms = minutes * 60000;
    spec->set_games = (int)games;
    spec->table_size = (int)table;
    spec->bye_points = 2;
    char why[128];
    if (!rs_tour_spec_check(spec, why, sizeof why))
        return rs_fail(e, "bad-tournament", "%s", why);
    return 0;
}

/* The game, its options at the table's size, the clock and rating, as create checks them. */
static int read_game(const cJSON *msg, const rs_tour_spec *spec, rs_tour_row *row, rs_err *e)
{
    const char *type;
    if (!rs_field_string(msg, "type", true, 64, &type, e))
        return -1;
    rs_table_settings s = {.game = rp_game_find(type)};
    if (!s.game)
        return rs_fail(e, "bad-game", "unknown game '%.40s' (see /api/v1/types)", type);
    if (spec->table_size < s.game->min_players || spec->table_size > s.game->max_players)
        return rs_fail(e, "bad-option", "%s is not played at tables of %d", s.game->title,
                       spec->table_size);
    rp_config_default(s.game, &s.config);
    s.config.players = spec->table_size;
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(msg, "options");
    if (rs_field_options(options, &s, e) < 0 ||
        rs_field_clock(cJSON_GetObjectItemCaseSensitive(msg, "clock"), &s, e) < 0 ||
        !rs_field_bool(msg, "rated", &row->rated, e))
        return -1;
    rp_state trial;
    rp_error err = {{0}};
    if (s.game->init(&trial, &s.config, &err) < 0)
        return rs_fail(e, "bad-option", "%s", err.msg);
    if (rs_field_options_text(options, row->options, sizeof row->options, e) < 0)
        return -1;
    snprintf(row->game, sizeof row->game, "%s", s.game->id);
    row->clock_kind = (int)s.clock_kind;
    row->initial_ms = s.initial_ms;
    row->increment_ms = s.increment_ms;
    row->per_move_ms = s.per_move_ms;
    return 0;
}

static int op_create(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    if (c->guest)
        return rs_fail(e, "not-registered", "register an account to create a tournament");
    const char *name;
    if (!rs_field_string(msg, "name", true, RS_TOUR_NAME_TEXT - 1, &name, e))
        return -1;
    if (!*name)
        return rs_fail(e, "bad-tournament", "name: 1 to %d bytes", RS_TOUR_NAME_TEXT - 1);
    rs_tour_spec spec = {0};
    rs_tour_row row = {0};
    if (read_format(msg, &spec, e) < 0 || read_game(msg, &spec, &row, e) < 0)
        return -1;
    snprintf(row.name, sizeof row.name, "%s", name);
    row.creator = c->user;
    row.format = (int)spec.format;
    row.rounds = spec.rounds;
    row.set_games = spec.set_games;
    row.table_size = spec.table_size;
    row.bye_points = spec.bye_points;
    row.duration_ms = spec.duration_ms;
    row.status = RS_TOUR_OPEN;
    row.created_ms = row.starts_ms = rs_server_now_ms(srv);
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "the store is unavailable");
    if (rs_store_tour_add(srv->store, &row) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot store the tournament");
    cJSON *m = rs_server_message("tournament");
    cJSON_AddItemToObject(m, "tournament", tour_json(&row, 0));
    rs_reply(srv, c, m, msg);
    return 0;
}

/* ---- join, withdraw ---- */

static void reply_done(rs_server *srv, rs_conn *c, const cJSON *msg, int64_t id)
{
    cJSON *m = rs_server_message("done");
    cJSON_AddStringToObject(m, "re", "tournament");
    cJSON_AddNumberToObject(m, "tournament", (double)id);
    rs_reply(srv, c, m, msg);
}

/* The tournament the message names, read with its entries and pairings. */
static int named(rs_server *srv, const cJSON *msg, tour_data *d, rs_err *e)
{
    int64_t id;
    if (!rs_field_int(msg, "tournament", true, 1, INT64_MAX / 2, &id, e))
        return -1;
    const int rc = data_read(srv, id, d);
    if (rc == RS_STORE_NOTFOUND)
        return rs_fail(e, "no-such-tournament", "there is no tournament %lld", (long long)id);
    return rc == RS_STORE_OK ? 0 : rs_server_store_down(srv, e, "cannot read the tournament");
}

static double seed_of(rs_server *srv, int64_t user, const char *game)
{
    rs_rating_row r = {0};
    return rs_store_rating_get(srv->store, user, game, &r) == RS_STORE_OK ? r.rating
                                                                          : DEFAULT_RATING;
}

static int op_join(rs_server *srv, rs_conn *c, const cJSON *msg, tour_data *d, rs_err *e)
{
    const long at = entry_index(d, c->user);
    if (at >= 0 && d->entries[at].active)
        return rs_fail(e, "already-entered", "you are in tournament %lld", (long long)d->row.id);
    size_t active = 0;
    for (size_t i = 0; i < d->n_entries; i++)
        active += d->entries[i].active;
    /* A set is between its players: as many as sit at one table. */
    if (d->row.format == RS_TOUR_SETS && active >= (size_t)d->row.table_size)
        return rs_fail(e, "full", "the set of tournament %lld has its %d players",
                       (long long)d->row.id, d->row.table_size);
    rs_tour_entry_row entry = {.tour = d->row.id,
                               .user = c->user,
                               .rating = seed_of(srv, c->user, d->row.game),
                               .active = true,
                               .entered_ms =
                                   at >= 0 ? d->entries[at].entered_ms : rs_server_now_ms(srv)};
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "the store is unavailable");
    if (rs_store_tour_entry_put(srv->store, &entry) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot store the entry");
    reply_done(srv, c, msg, d->row.id);
    return 0;
}

static int op_withdraw(rs_server *srv, rs_conn *c, const cJSON *msg, tour_data *d, rs_err *e)
{
    const long at = entry_index(d, c->user);
    if (at < 0 || !d->entries[at].active)
        return rs_fail(e, "not-entered", "you are not in tournament %lld", (long long)d->row.id);
    rs_tour_entry_row entry = d->entries[at];
    entry.active = false;
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "the store is unavailable");
    if (rs_store_tour_entry_put(srv->store, &entry) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot store the withdrawal");
    reply_done(srv, c, msg, d->row.id);
    return 0;
}

/* ---- list, standings ---- */

cJSON *rs_tournaments_list_json(rs_server *srv)
{
    rs_tour_row *rows = NULL;
    size_t n = 0;
    if (rs_store_tour_list(srv->store, LIST_LIMIT, &rows, &n) != RS_STORE_OK)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(o, "tournaments");
    for (size_t i = 0; i < n; i++) {
        rs_tour_entry_row *entries = NULL;
        size_t count = 0;
        rs_store_tour_entries(srv->store, rows[i].id, &entries, &count); /* 0 when unread */
        free(entries);
        cJSON_AddItemToArray(list, tour_json(&rows[i], count));
    }
    free(rows);
    return o;
}

cJSON *rs_tournaments_one_json(rs_server *srv, int64_t id, bool *found)
{
    tour_data d = {0};
    const int rc = data_read(srv, id, &d);
    *found = rc != RS_STORE_NOTFOUND;
    cJSON *o = rc == RS_STORE_OK ? full_json(&d) : NULL;
    data_free(&d);
    return o;
}

static int op_list(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    cJSON *list = rs_tournaments_list_json(srv);
    if (!list)
        return rs_server_store_down(srv, e, "cannot read the tournaments");
    cJSON_AddStringToObject(list, "t", "tournaments");
    rs_reply(srv, c, list, msg);
    return 0;
}

int rs_tournaments_handle(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    const char *op;
    if (!rs_field_string(msg, "op", true, 16, &op, e))
        return -1;
    if (strcmp(op, "create") == 0)
        return op_create(srv, c, msg, e);
    if (strcmp(op, "list") == 0)
        return op_list(srv, c, msg, e);
    const bool join = strcmp(op, "join") == 0, withdraw = strcmp(op, "withdraw") == 0;
    if (!join && !withdraw && strcmp(op, "standings") != 0)
        return rs_fail(e, "bad-message", "op: create, join, withdraw, list or standings");
    tour_data d = {0};
    if (named(srv, msg, &d, e) < 0) {
        data_free(&d);
        return -1;
    }
    int rc = 0;
    if (join) {
        rc = op_join(srv, c, msg, &d, e);
    } else if (withdraw) {
        rc = op_withdraw(srv, c, msg, &d, e);
    } else {
        cJSON *m = rs_server_message("standings");
        cJSON_AddItemToObject(m, "tournament", full_json(&d));
        rs_reply(srv, c, m, msg);
    }
    data_free(&d);
    return rc;
}

int rs_tournaments_cost(const cJSON *msg)
{
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(msg, "op");
    if (cJSON_IsString(op) && strcmp(op->valuestring, "create") == 0)
        return 5;
    return cJSON_IsString(op) && strcmp(op->valuestring, "join") == 0 ? 2 : 1;
}
