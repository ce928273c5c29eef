/* tournaments.c — the `tournament` message and the tournaments' read models (see
 * tournaments.h): a tournament's terms checked whole before anything is stored, entries
 * stored as they change, standings computed from the stored pairings by tournament.c. */
#include "tournaments.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "log.h"
#include "pools.h"
#include "tournament.h"

#define LIST_LIMIT 50
#define PROFILE_LIMIT 20      /* tournaments a profile lists, newest first */
#define DEFAULT_RATING 1500.0 /* a player with no rated game of the tournament's game */
/* The house player's user id in entries and pairings: no account has it (ids start at 1). */
#define COMPUTER_USER 0
/* A start time is at most 30 days ahead: a tournament further off is a typo, or a row that
 * would sit in the list for a month. */
#define START_AHEAD_MAX_S (30LL * 24 * 3600)
/* At its start time with too few players a tournament waits this long for them (entries
 * still open), then is cancelled: lichess's Swiss delays its start and drops it after an hour. */
#define START_WAIT_MS (60LL * 60 * 1000)

static const char *const FORMATS[] = {"sets", "swiss", "arena"};
static const char *const STATUSES[] = {"open", "running", "over", "cancelled"};

/* When an arena stops pairing and its standings freeze: its duration after its start. */
static int64_t arena_ends_ms(const rs_tour_row *row)
{
    return row->starts_ms + row->duration_ms;
}

/* ---- as the protocol shows them ---- */

static cJSON *tour_json(rs_server *srv, const rs_tour_row *row, size_t entries)
{
    const rp_game *game = rp_game_find(row->game);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)row->id);
    cJSON_AddStringToObject(o, "name", row->name);
    /* Who created it, by name: the page offers `start` to them alone. */
    rs_user creator = {0};
    if (rs_store_user_get(srv->store, row->creator, &creator) == RS_STORE_OK)
        cJSON_AddStringToObject(o, "creator", creator.name);
    cJSON_AddStringToObject(o, "type", row->game);
    cJSON_AddStringToObject(o, "title", game ? game->title : row->game);
    cJSON *options = cJSON_Parse(row->options);
    cJSON_AddItemToObject(o, "options", options ? options : cJSON_CreateObject());
    cJSON_AddStringToObject(o, "format", FORMATS[row->format % 3]);
    if (row->format == RS_TOUR_SWISS)
        cJSON_AddNumberToObject(o, "rounds", row->rounds);
    if (row->format == RS_TOUR_ARENA)
        cJSON_AddNumberToObject(o, "minutes", (double)row->duration_ms / 60000.0);
    if (row->format == RS_TOUR_ARENA && row->status != RS_TOUR_OPEN)
        cJSON_AddNumberToObject(o, "ends_ms", (double)arena_ends_ms(row));
    cJSON_AddNumberToObject(o, "games", row->set_games);
    cJSON_AddNumberToObject(o, "table", row->table_size);
    cJSON_AddItemToObject(
        o, "clock",
        rs_pools_clock_json(row->clock_kind, row->initial_ms, row->increment_ms, row->per_move_ms));
    cJSON_AddBoolToObject(o, "rated", row->rated);
    if (row->computer[0])
        cJSON_AddStringToObject(o, "computer", row->computer);
    cJSON_AddStringToObject(o, "status", STATUSES[row->status % 4]);
    cJSON_AddNumberToObject(o, "round", row->round);
    cJSON_AddNumberToObject(o, "entries", (double)entries);
    cJSON_AddNumberToObject(o, "created_ms", (double)row->created_ms);
    cJSON_AddNumberToObject(o, "starts_ms", (double)row->starts_ms);
    return o;
}

/* The entries and pairings of one tournament, read together. The house player, when the
 * tournament has one, is the last entry (COMPUTER_USER), after the n_people who entered. */
typedef struct tour_data {
    rs_tour_row row;
    rs_tour_entry_row *entries;
    size_t n_entries, n_people;
    rs_tour_pairing_row *pairings;
    size_t n_pairings;
} tour_data;

static void data_free(tour_data *d)
{
    free(d->entries);
    free(d->pairings);
}

/* The house player added as the last entry: its level is the tournament's, so it is not
 * stored as an entry of its own (docs/tournaments.md, "The computer"). */
static int add_computer(tour_data *d)
{
    rs_tour_entry_row *more = realloc(d->entries, (d->n_entries + 1) * sizeof *more);
    if (!more)
        return RS_STORE_ERROR;
    d->entries = more;
    rs_tour_entry_row *e = &d->entries[d->n_entries++];
    *e = (rs_tour_entry_row){.tour = d->row.id,
                             .user = COMPUTER_USER,
                             .rating = DEFAULT_RATING,
                             .active = true,
                             .entered_ms = d->row.created_ms};
    /* The longest level ("beginner") fits a player's name (RS_NAME_MAX) in these words. */
    snprintf(e->name, sizeof e->name, "Computer (%.9s)", d->row.computer);
    return RS_STORE_OK;
}

/* RS_STORE_OK, NOTFOUND or the store's failure. */
static int data_read(rs_server *srv, int64_t id, tour_data *d)
{
    memset(d, 0, sizeof *d);
    int rc = rs_store_tour_get(srv->store, id, &d->row);
    if (rc == RS_STORE_OK)
        rc = rs_store_tour_entries(srv->store, id, &d->entries, &d->n_entries);
    d->n_people = d->n_entries;
    if (rc == RS_STORE_OK && d->row.computer[0])
        rc = add_computer(d);
    if (rc == RS_STORE_OK)
        rc = rs_store_tour_pairings(srv->store, id, &d->pairings, &d->n_pairings);
    return rc;
}

/* The people entered and not withdrawn (the house player not counted). */
static size_t active_people(const tour_data *d)
{
    size_t active = 0;
    for (size_t i = 0; i < d->n_people; i++)
        active += d->entries[i].active;
    return active;
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
        /* An arena's points are per game: a set's games count as each ends. */
        const bool done = p->n == 1 || p->games_done >= d->row.set_games ||
                          (d->row.format == RS_TOUR_ARENA && p->games_done > 0);
        games[k] = (rs_tour_game){.round = p->round, .n = p->n};
        for (int s = 0; s < p->n && s < RS_TOUR_TABLE_MAX; s++) {
            games[k].seat[s] = (int)entry_index(d, p->user[s]);
            games[k].points[s] = done ? p->points[s] : -1;
        }
    }
    return games;
}

/* The rounds whose every pairing is done: the standings count those, so that a game still
 * being played is not taken for an unplayed round (a dummy opponent in Buchholz). */
static int rounds_done(const tour_data *d)
{
    for (size_t k = 0; k < d->n_pairings; k++)
        if (d->pairings[k].round == d->row.round && d->pairings[k].games_done < d->row.set_games)
            return d->row.round - 1;
    return d->row.round;
}

/* The standings from the stored pairings (room for d->n_entries lines, malloc'ed), or NULL
 * out of memory. */
static rs_tour_standing *standings_of(const tour_data *d)
{
    rs_tour_entry *entries = calloc(d->n_entries ? d->n_entries : 1, sizeof *entries);
    rs_tour_standing *st = calloc(d->n_entries ? d->n_entries : 1, sizeof *st);
    rs_tour_game *games = as_games(d);
    if (entries && st && games) {
        for (size_t i = 0; i < d->n_entries; i++)
            entries[i] = (rs_tour_entry){d->entries[i].rating, d->entries[i].active};
        if (d->row.format == RS_TOUR_ARENA)
            rs_tour_arena_standings(entries, d->n_entries, games, d->n_pairings, st);
        else
            rs_tour_standings(entries, d->n_entries, games, d->n_pairings, rounds_done(d), st);
    } else {
        free(st);
        st = NULL;
    }
    free(entries);
    free(games);
    return st;
}

static cJSON *standings_json(const tour_data *d)
{
    cJSON *list = cJSON_CreateArray();
    rs_tour_standing *st = standings_of(d);
    const bool arena = d->row.format == RS_TOUR_ARENA;
    for (size_t i = 0; st && i < d->n_entries; i++) {
        const rs_tour_entry_row *e = &d->entries[st[i].entry];
        cJSON *line = cJSON_CreateObject();
        cJSON_AddNumberToObject(line, "rank", st[i].rank);
        cJSON_AddStringToObject(line, "name", e->name);
        cJSON_AddNumberToObject(line, "points", st[i].points / 2.0);
        if (!arena) { /* an arena has no rounds for Swiss's tie-breaks to count */
            cJSON_AddNumberToObject(line, "buchholz", st[i].buchholz / 2.0);
            cJSON_AddNumberToObject(line, "sonneborn_berger", st[i].sonneborn / 4.0);
        }
        if (st[i].direct >= 0)
            cJSON_AddNumberToObject(line, "direct", st[i].direct / 2.0);
        cJSON_AddNumberToObject(line, "played", st[i].played);
        if (!arena)
            cJSON_AddNumberToObject(line, "byes", st[i].byes);
        cJSON_AddBoolToObject(line, "active", e->active);
        if (e->user == COMPUTER_USER)
            cJSON_AddBoolToObject(line, "computer", true);
        cJSON_AddItemToArray(list, line);
    }
    free(st);
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
static cJSON *full_json(rs_server *srv, const tour_data *d)
{
    cJSON *o = tour_json(srv, &d->row, d->n_people);
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

/* The house player (docs/tournaments.md, "The computer"): an AI level, in an unrated Swiss
 * of 2-player games only (an AI plays no rated game: issue 49, finding 4). */
static int read_computer(const cJSON *msg, const rs_tour_spec *spec, rs_tour_row *row, rs_err *e)
{
    const char *level = NULL;
    if (!rs_field_string(msg, "computer", false, 64, &level, e))
        return -1;
    if (!level)
        return 0;
    if (!rs_field_ai_level(level, row->computer))
        return rs_fail(e, "bad-tournament",
                       "computer: an AI level (random, greedy, beginner, easy, medium, hard)");
    if (spec->format != RS_TOUR_SWISS || spec->table_size != 2)
        return rs_fail(e, "bad-tournament", "computer: only in a Swiss of 2-player games");
    if (row->rated)
        return rs_fail(e, "not-allowed",
                       "a rated tournament cannot seat the computer: rated games are between "
                       "people only");
    return 0;
}

/* The start time create asks for, into row: `starts_in` seconds from now or `starts_ms` (Unix
 * time in milliseconds), from 1 second to 30 days ahead. Neither: starts_ms is created_ms,
 * and only the creator's `start` starts it; a later starts_ms is the time it starts by
 * itself (rs_tournaments_sweep). */
static int read_start(rs_server *srv, const cJSON *msg, rs_tour_row *row, rs_err *e)
{
    const int64_t now = rs_server_now_ms(srv);
    row->created_ms = row->starts_ms = now;
    int64_t in_s = 0, at_ms = 0;
    if (!rs_field_int(msg, "starts_in", false, INT64_MIN / 2, INT64_MAX / 2, &in_s, e) ||
        !rs_field_int(msg, "starts_ms", false, INT64_MIN / 2, INT64_MAX / 2, &at_ms, e))
        return -1;
    const bool has_in = cJSON_HasObjectItem(msg, "starts_in");
    const bool has_at = cJSON_HasObjectItem(msg, "starts_ms");
    if (!has_in && !has_at)
        return 0;
    if (has_in && has_at)
        return rs_fail(e, "bad-tournament", "starts_in or starts_ms, not both");
    if (has_in && (in_s < 1 || in_s > START_AHEAD_MAX_S))
        return rs_fail(e, "bad-tournament", "starts_in: 1 to %lld seconds (30 days)",
                       START_AHEAD_MAX_S);
    if (has_at && at_ms <= now)
        return rs_fail(e, "bad-tournament", "starts_ms: %lld is not in the future (now is %lld)",
                       (long long)at_ms, (long long)now);
    if (has_at && at_ms > now + START_AHEAD_MAX_S * 1000)
        return rs_fail(e, "bad-tournament", "starts_ms: more than 30 days ahead");
    row->starts_ms = has_in ? now + in_s * 1000 : at_ms;
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
    if (read_format(msg, &spec, e) < 0 || read_game(msg, &spec, &row, e) < 0 ||
        read_computer(msg, &spec, &row, e) < 0 || read_start(srv, msg, &row, e) < 0)
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
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "the store is unavailable");
    if (rs_store_tour_add(srv->store, &row) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot store the tournament");
    cJSON *m = rs_server_message("tournament");
    cJSON_AddItemToObject(m, "tournament", tour_json(srv, &row, 0));
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

/* Over or cancelled: no entry, no withdrawal (over, the standings are final); true after the
 * refusal (not-open). */
static bool closed(const tour_data *d, rs_err *e)
{
    if (d->row.status != RS_TOUR_OVER && d->row.status != RS_TOUR_CANCELLED)
        return false;
    rs_fail(e, "not-open", "tournament %lld is %s", (long long)d->row.id,
            STATUSES[d->row.status % 4]);
    return true;
}

static int op_join(rs_server *srv, rs_conn *c, const cJSON *msg, tour_data *d, rs_err *e)
{
    /* Rated games are for registered players (issue 49: a guest's results would farm ratings). */
    if (c->guest && d->row.rated)
        return rs_fail(e, "not-registered", "register an account to enter a rated tournament");
    if (closed(d, e))
        return -1;
    const long at = entry_index(d, c->user);
    if (at >= 0 && d->entries[at].active)
        return rs_fail(e, "already-entered", "you are in tournament %lld", (long long)d->row.id);
    /* A set is between its players: as many as sit at one table. */
    if (d->row.format == RS_TOUR_SETS && active_people(d) >= (size_t)d->row.table_size)
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
    /* Over, the standings are final: a withdrawal would show the player inactive in them (an
     * entry would add a line: op_join). Before, both are allowed, the rounds missed counted
     * as unplayed (docs/tournaments.md). */
    if (closed(d, e))
        return -1;
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

/* ---- the director: rounds paired, games opened, results read ---- */

/* The settings of a tournament's games for n players, from its row (checked at create;
 * false only when this server no longer knows the game or its options). */
static bool game_settings(const rs_tour_row *row, int n, rs_table_settings *s)
{
    *s = (rs_table_settings){.rated = row->rated,
                             .clock_kind = (rs_clock_kind)row->clock_kind,
                             .initial_ms = row->initial_ms,
                             .increment_ms = row->increment_ms,
                             .per_move_ms = row->per_move_ms};
    return rs_field_stored_game(row->game, row->options, n, s);
}

/* Game k of a pairing's set opened, the players' seats rotated k places (Castle Danger's
 * sides swapped), and `paired` told to each; its id, or 0. */
static int64_t open_game(rs_server *srv, const rs_tour_row *tour, const rs_tour_pairing_row *p,
                         int k)
{
    rs_table_settings s;
    if (!game_settings(tour, p->n, &s))
        return 0;
    int64_t users[RS_TOUR_SEATS];
    for (int seat = 0; seat < p->n; seat++)
        users[rs_tour_set_seat(k, p->n, seat)] = p->user[seat];
    /* The house player's seat is the AI's: its moves are searched on the AI threads. */
    for (int i = 0; i < p->n; i++) {
        s.seats[i] = (rs_seat_row){.kind = RS_SEAT_HUMAN, .user_id = users[i]};
        if (users[i] == COMPUTER_USER) {
            s.seats[i] = (rs_seat_row){.kind = RS_SEAT_AI};
            snprintf(s.seats[i].ai_level, sizeof s.seats[i].ai_level, "%s", tour->computer);
        }
    }
    rs_ctx ctx = rs_server_ctx(srv);
    const rs_table *t = rs_pools_start_seated(srv, &ctx, &s);
    for (int i = 0; t && i < p->n; i++) {
        if (users[i] == COMPUTER_USER)
            continue;
        cJSON *m = rs_server_message("paired");
        cJSON_AddNumberToObject(m, "game", (double)t->row.id);
        cJSON_AddNumberToObject(m, "seat", i);
        cJSON_AddNumberToObject(m, "tournament", (double)tour->id);
        rs_pools_tell_user(srv, users[i], m);
        cJSON_Delete(m);
    }
    return t ? t->row.id : 0;
}

/* The pairings of `round` as tournament.c makes them, into out (room for d->n_entries);
 * their count, or -1 when the round cannot be paired. */
static int make_round(const tour_data *d, int round, rs_tour_game *out)
{
    rs_tour_entry *entries = calloc(d->n_entries ? d->n_entries : 1, sizeof *entries);
    rs_tour_game *games = as_games(d);
    int count = -1;
    if (entries && games) {
        for (size_t i = 0; i < d->n_entries; i++)
            entries[i] = (rs_tour_entry){d->entries[i].rating, d->entries[i].active};
        /* The house player plays a round only to make the count even: nobody has a bye. */
        if (d->n_entries > d->n_people)
            entries[d->n_people].active = active_people(d) % 2 == 1;
        char why[128];
        bool relaxed;
        if (d->row.format == RS_TOUR_SETS) {
            out[0] = (rs_tour_game){.round = round};
            for (size_t i = 0; i < d->n_entries && out[0].n < RS_TOUR_TABLE_MAX; i++)
                if (d->entries[i].active)
                    out[0].seat[out[0].n++] = (int)i;
            count = 1;
        } else if (d->row.table_size > 2) {
            count = rs_tour_tables(entries, d->n_entries, games, d->n_pairings, round,
                                   d->row.table_size, out, why, sizeof why);
        } else {
            count = rs_tour_swiss_pair(entries, d->n_entries, games, d->n_pairings, round,
                                       d->row.bye_points, out, &relaxed, why, sizeof why);
        }
        if (count < 0)
            rs_log("tournament %lld: round %d not paired: %s", (long long)d->row.id, round, why);
    }
    free(entries);
    free(games);
    return count;
}

/* Round `round` paired and its games opened, once across a cluster (the store's claim); a
 * round that cannot be paired ends the tournament. Inside the caller's transaction. */
static void pair_round(rs_server *srv, const tour_data *d, int round)
{
    if (rs_store_tour_round_claim(srv->store, d->row.id, round) != RS_STORE_OK)
        return; /* paired already, here or on another server */
    rs_tour_game *out = calloc(d->n_entries ? d->n_entries : 1, sizeof *out);
    const int count = out ? make_round(d, round, out) : -1;
    if (count < 0)
        rs_store_tour_status(srv->store, d->row.id, RS_TOUR_OVER);
    for (int b = 0; b < count; b++) {
        rs_tour_pairing_row p = {.tour = d->row.id, .round = round, .board = b + 1, .n = out[b].n};
        for (int i = 0; i < p.n; i++) {
            p.user[i] = d->entries[out[b].seat[i]].user;
            p.points[i] = p.n == 1 ? out[b].points[0] : -1;
        }
        if (p.n == 1)
            p.games_done = d->row.set_games; /* a bye is a finished pairing */
        else
            p.game = open_game(srv, &d->row, &p, 0);
        rs_store_tour_pairing_add(srv->store, &p);
    }
    rs_log("tournament %lld: round %d paired, %d boards", (long long)d->row.id, round, count);
    free(out);
}

/* Half-points by seat of a finished game, from the seats' scores: two players, a win 2, a
 * draw 1; more, points by place (tournament.c). */
static void game_points(const rs_game_row *g, int *points)
{
    int place[RS_TOUR_TABLE_MAX];
    for (int i = 0; i < g->seats && i < RS_TOUR_TABLE_MAX; i++) {
        place[i] = 1;
        for (int j = 0; j < g->seats && j < RS_TOUR_TABLE_MAX; j++)
            place[i] += g->seat[j].score > g->seat[i].score;
    }
    rs_tour_place_points(g->seats < RS_TOUR_TABLE_MAX ? g->seats : RS_TOUR_TABLE_MAX, place,
                         points);
}

/* A pairing whose game has ended: its points added, the set's next game opened or the
 * pairing finished; once across a cluster (the store's compare on the game). An arena's
 * game counts only if it ended before the arena's end, and no next game opens after it
 * (lichess: "only games that end before time is up count"). True when it changed; *at is
 * then the pairing as stored. */
static bool game_ended(rs_server *srv, const tour_data *d, rs_tour_pairing_row *at)
{
    rs_tour_pairing_row p = *at;
    rs_game_row g;
    if (rs_store_game_get(srv->store, p.game, &g) != RS_STORE_OK || g.status != RS_GAME_OVER ||
        g.seats != p.n)
        return false;
    const bool arena = d->row.format == RS_TOUR_ARENA;
    if (arena && g.ended_ms >= arena_ends_ms(&d->row))
        return false;
    int points[RS_TOUR_TABLE_MAX] = {0};
    game_points(&g, points);
    for (int seat = 0; seat < p.n; seat++)
        p.points[seat] = (p.points[seat] < 0 ? 0 : p.points[seat]) +
                         points[rs_tour_set_seat(p.games_done, p.n, seat)];
    const int64_t was = p.game;
    p.games_done++;
    p.game = -1; /* claimed: the next game's id follows in the same transaction */
    if (rs_store_tour_pairing_put(srv->store, &p, was) != RS_STORE_OK)
        return false; /* recorded already, here or on another server */
    const bool more = p.games_done < d->row.set_games &&
                      (!arena || rs_server_now_ms(srv) < arena_ends_ms(&d->row));
    p.game = more ? open_game(srv, &d->row, &p, p.games_done) : 0;
    rs_store_tour_pairing_put(srv->store, &p, -1);
    *at = p;
    return true;
}

/* One running tournament looked at: ended games recorded, the next round paired once the
 * last has ended, the tournament over after its last round. */
static void direct(rs_server *srv, int64_t id)
{
    tour_data d = {0};
    if (data_read(srv, id, &d) != RS_STORE_OK || rs_store_begin(srv->store) != RS_STORE_OK) {
        data_free(&d);
        return;
    }
    bool open = false, changed = false;
    for (size_t k = 0; k < d.n_pairings; k++) {
        const rs_tour_pairing_row *p = &d.pairings[k];
        if (p->round != d.row.round || p->games_done >= d.row.set_games)
            continue;
        rs_tour_pairing_row now = *p;
        if (p->game > 0 && game_ended(srv, &d, &now)) {
            changed = true;
            open = open || p->games_done + 1 < d.row.set_games;
        } else {
            open = true;
        }
    }
    const int last = d.row.format == RS_TOUR_SWISS ? d.row.rounds : 1;
    if (!open && !changed && d.row.round >= last)
        rs_store_tour_status(srv->store, id, RS_TOUR_OVER);
    else if (!open && !changed)
        pair_round(srv, &d, d.row.round + 1);
    data_free(&d);
}

/* ---- the arena's director: whoever waits paired at each tick ---- */

static bool in_play(const tour_data *d, const rs_tour_pairing_row *p)
{
    return p->n > 1 && p->games_done < d->row.set_games && p->game > 0;
}

/* Entry i as rs_tour_arena_pair sees it: its points, the opponent of its latest pairing,
 * its first moves minus second moves; false when it is not waiting (withdrawn, i.e. paused,
 * or in a game of the arena). */
static bool arena_waiting(const tour_data *d, const rs_tour_game *games, int i, rs_tour_waiting *w)
{
    if (!d->entries[i].active)
        return false;
    *w = (rs_tour_waiting){.entry = i, .rating = d->entries[i].rating, .last_opponent = -1};
    for (size_t k = 0; k < d->n_pairings; k++) {
        const rs_tour_game *g = &games[k];
        const int seat = g->n == 2 && g->seat[0] == i ? 0 : g->n == 2 && g->seat[1] == i ? 1 : -1;
        if (seat < 0)
            continue;
        if (in_play(d, &d->pairings[k]))
            return false;
        w->points += g->points[seat] > 0 ? g->points[seat] : 0;
        w->first_moves += seat == 0 ? 1 : -1;
        w->last_opponent = g->seat[1 - seat]; /* pairings are read in tick order */
    }
    return true;
}

/* One tick's pairings: everyone waiting paired where rs_tour_arena_pair can, the tick
 * claimed once across a cluster (a round's claim: the tick is the round number), each game
 * opened by itself. Inside the caller's transaction. */
static void arena_pair(rs_server *srv, const tour_data *d)
{
    rs_tour_game *games = as_games(d);
    rs_tour_waiting *w = calloc(d->n_entries ? d->n_entries : 1, sizeof *w);
    int(*pairs)[2] = calloc(d->n_entries / 2 + 1, sizeof *pairs);
    size_t n = 0;
    for (size_t i = 0; games && w && i < d->n_entries; i++)
        n += arena_waiting(d, games, (int)i, &w[n]);
    const int count = n >= 2 && pairs ? rs_tour_arena_pair(w, n, pairs) : 0;
    const int tick = d->row.round + 1;
    if (count > 0 && rs_store_tour_round_claim(srv->store, d->row.id, tick) == RS_STORE_OK) {
        for (int b = 0; b < count; b++) {
            rs_tour_pairing_row p = {.tour = d->row.id, .round = tick, .board = b + 1, .n = 2};
            for (int s = 0; s < 2; s++) {
                p.user[s] = d->entries[w[pairs[b][s]].entry].user;
                p.points[s] = -1;
            }
            p.game = open_game(srv, &d->row, &p, 0);
            rs_store_tour_pairing_add(srv->store, &p);
        }
    }
    free(games);
    free(w);
    free(pairs);
}

/* One running arena looked at: the ends of its games recorded, then, before its end, whoever
 * waits paired; at its end, over (its standings frozen: games still being played finish
 * but do not count). */
static void direct_arena(rs_server *srv, tour_data *d)
{
    for (size_t k = 0; k < d->n_pairings; k++)
        if (in_play(d, &d->pairings[k]))
            game_ended(srv, d, &d->pairings[k]);
    if (rs_server_now_ms(srv) >= arena_ends_ms(&d->row)) {
        rs_store_tour_status(srv->store, d->row.id, RS_TOUR_OVER);
        rs_log("tournament %lld: the arena is over", (long long)d->row.id);
        return;
    }
    if (!srv->draining) /* a server shutting down opens no games: the others pair */
        arena_pair(srv, d);
}

/* The players a start needs: a set's, else 2 (3 at tables of more). */
static size_t players_needed(const rs_tour_row *row)
{
    if (row->format == RS_TOUR_SETS)
        return (size_t)row->table_size;
    return row->table_size > 2 ? 3 : 2;
}

/* Open to running from now, once across a cluster (the store's start: the creator's `start`
 * and the start time on every server may try at once), and the first round paired (an
 * arena's first tick: everyone is waiting). Inside the caller's transaction: the store's
 * answer (CONFLICT when it was not open). */
static int start_now(rs_server *srv, tour_data *d)
{
    const int64_t now = rs_server_now_ms(srv);
    const int rc = rs_store_tour_start(srv->store, d->row.id, now);
    if (rc != RS_STORE_OK)
        return rc;
    d->row.status = RS_TOUR_RUNNING;
    d->row.starts_ms = now;
    if (d->row.format == RS_TOUR_ARENA)
        arena_pair(srv, d);
    else
        pair_round(srv, d, 1);
    return rc;
}

/* An open tournament whose start time has come: started when it has the players it needs;
 * else left open for them (entries and the creator's `start` still work), and cancelled an
 * hour after its time. */
static void start_on_time(rs_server *srv, int64_t id, int64_t now)
{
    tour_data d = {0};
    if (data_read(srv, id, &d) != RS_STORE_OK || rs_store_begin(srv->store) != RS_STORE_OK) {
        data_free(&d);
        return;
    }
    const size_t active = active_people(&d), needed = players_needed(&d.row);
    if (active >= needed) {
        if (start_now(srv, &d) == RS_STORE_OK)
            rs_log("tournament %lld: started at its start time", (long long)id);
    } else if (now >= d.row.starts_ms + START_WAIT_MS &&
               rs_store_tour_cancel(srv->store, id) == RS_STORE_OK) {
        rs_log("tournament %lld: cancelled, %zu of the %zu players it needs an hour after its "
               "start time",
               (long long)id, active, needed);
    }
    data_free(&d);
}

static bool start_time_come(const rs_tour_row *row, int64_t now)
{
    return row->status == RS_TOUR_OPEN && row->starts_ms > row->created_ms && row->starts_ms <= now;
}

void rs_tournaments_sweep(rs_server *srv)
{
    rs_tour_row *rows = NULL;
    size_t n = 0;
    if (rs_store_tour_list(srv->store, LIST_LIMIT, &rows, &n) != RS_STORE_OK)
        return;
    const int64_t now = rs_server_now_ms(srv);
    for (size_t i = 0; i < n; i++) {
        if (start_time_come(&rows[i], now) && !srv->draining) {
            start_on_time(srv, rows[i].id, now);
            continue;
        }
        if (rows[i].status != RS_TOUR_RUNNING)
            continue;
        if (rows[i].format != RS_TOUR_ARENA) {
            direct(srv, rows[i].id);
            continue;
        }
        tour_data d = {0};
        if (data_read(srv, rows[i].id, &d) == RS_STORE_OK &&
            rs_store_begin(srv->store) == RS_STORE_OK)
            direct_arena(srv, &d);
        data_free(&d);
    }
    free(rows);
}

/* `start`, by the creator (before its start time too): the tournament running, its first
 * round paired at once. */
static int op_start(rs_server *srv, rs_conn *c, const cJSON *msg, tour_data *d, rs_err *e)
{
    if (d->row.creator != c->user)
        return rs_fail(e, "not-allowed", "only the creator starts tournament %lld",
                       (long long)d->row.id);
    if (d->row.status != RS_TOUR_OPEN)
        return rs_fail(e, "not-open", "tournament %lld is %s", (long long)d->row.id,
                       STATUSES[d->row.status % 4]);
    const size_t needed = players_needed(&d->row);
    if (active_people(d) < needed)
        return rs_fail(e, "not-allowed", "tournament %lld needs %zu players to start",
                       (long long)d->row.id, needed);
    if (srv->draining)
        return rs_fail(e, "draining", "the server is shutting down: no new games");
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_server_store_down(srv, e, "the store is unavailable");
    const int rc = start_now(srv, d);
    if (rc == RS_STORE_CONFLICT) /* started at its time, or by another server, just now */
        return rs_fail(e, "not-open", "tournament %lld has started", (long long)d->row.id);
    if (rc != RS_STORE_OK)
        return rs_server_store_down(srv, e, "cannot start the tournament");
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
        cJSON_AddItemToArray(list, tour_json(srv, &rows[i], count));
    }
    free(rows);
    return o;
}

cJSON *rs_tournaments_one_json(rs_server *srv, int64_t id, bool *found)
{
    tour_data d = {0};
    const int rc = data_read(srv, id, &d);
    *found = rc != RS_STORE_NOTFOUND;
    cJSON *o = rc == RS_STORE_OK ? full_json(srv, &d) : NULL;
    data_free(&d);
    return o;
}

/* A profile's line for one tournament: the player's place in the standings, if entered. */
static void add_place(cJSON *list, const tour_data *d, int64_t user)
{
    rs_tour_standing *st = standings_of(d);
    for (size_t i = 0; st && i < d->n_entries; i++) {
        if (d->entries[st[i].entry].user != user)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", (double)d->row.id);
        cJSON_AddStringToObject(o, "name", d->row.name);
        cJSON_AddStringToObject(o, "type", d->row.game);
        cJSON_AddStringToObject(o, "format", FORMATS[d->row.format % 3]);
        cJSON_AddBoolToObject(o, "rated", d->row.rated);
        cJSON_AddStringToObject(o, "status", STATUSES[d->row.status % 4]);
        cJSON_AddNumberToObject(o, "round", d->row.round);
        cJSON_AddNumberToObject(o, "place", st[i].rank);
        cJSON_AddNumberToObject(o, "of", (double)d->n_entries);
        cJSON_AddNumberToObject(o, "points", st[i].points / 2.0);
        cJSON_AddItemToArray(list, o);
    }
    free(st);
}

cJSON *rs_tournaments_played_json(rs_server *srv, int64_t user)
{
    cJSON *list = cJSON_CreateArray();
    rs_tour_row *rows = NULL;
    size_t n = 0;
    if (rs_store_tour_entered(srv->store, user, PROFILE_LIMIT, &rows, &n) != RS_STORE_OK)
        return list;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].status == RS_TOUR_OPEN)
            continue; /* entered, not played yet */
        tour_data d;
        if (data_read(srv, rows[i].id, &d) == RS_STORE_OK)
            add_place(list, &d, user);
        data_free(&d);
    }
    free(rows);
    return list;
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
    const bool start = strcmp(op, "start") == 0;
    if (!join && !withdraw && !start && strcmp(op, "standings") != 0)
        return rs_fail(e, "bad-message", "op: create, join, withdraw, start, list or standings");
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
    } else if (start) {
        rc = op_start(srv, c, msg, &d, e);
    } else {
        cJSON *m = rs_server_message("standings");
        cJSON_AddItemToObject(m, "tournament", full_json(srv, &d));
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
