/* table.c — the referee of one online game (see table.h). Every change takes the next
 * version, is written to the store in the caller's transaction, and is told to each watcher
 * in a message built for that viewer alone. */
#include "table.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "glicko2.h"
#include "grow.h"
#include "log.h"
#include "ramparts/engine.h"
#include "table_view.h"

#define MAX_MISSED 200 /* a reconnect replays at most this many missed moves */

int rs_fail(rs_err *e, const char *code, const char *fmt, ...)
{
    if (!e)
        return -1;
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
    return -1;
}

static int human_seats(const rs_table *t)
{
    int n = 0;
    for (int s = 0; s < t->row.seats; s++)
        n += t->row.seat[s].kind == RS_SEAT_HUMAN;
    return n;
}

/* ---- persistence ---- */

/* The seat rows are as stored from now on (written, or read). */
static void seats_stored(rs_table *t)
{
    memcpy(t->stored_seat, t->row.seat, sizeof t->stored_seat);
}

static bool seats_changed(const rs_table *t)
{
    for (int i = 0; i < t->row.seats; i++) {
        const rs_seat_row *a = &t->row.seat[i], *b = &t->stored_seat[i];
        if (a->kind != b->kind || a->user_id != b->user_id || a->score != b->score ||
            strcmp(a->ai_level, b->ai_level) != 0 || strcmp(a->invite, b->invite) != 0)
            return true;
    }
    return false;
}

/* Copy the clock into the row and write it; the seat rows only when they changed (a join, a
 * leave, the scores at the end), not with every move. */
static void save(rs_ctx *ctx, rs_table *t)
{
    for (int s = 0; s < t->row.seats; s++)
        t->row.remaining_ms[s] = t->clock.remaining_ms[s];
    t->row.running = t->clock.running;
    /* The wall time matching the clock's stamp, so a restart knows what was charged. */
    t->row.turn_wall_ms = ctx->now_ms - (ctx->now_us - t->clock.stamp_us) / 1000;
    t->dirty = true;
    if (rs_store_game_write(ctx->store, &t->row, seats_changed(t)) != RS_STORE_OK)
        rs_log("game %lld: cannot save: %s", (long long)t->row.id, rs_store_error(ctx->store));
    seats_stored(t);
}

void rs_table_save(rs_ctx *ctx, rs_table *t)
{
    save(ctx, t);
}

/* The options in effect as text without the seed ("players=2 turn-limit=25"). */
static void options_text(const rp_game *game, const rp_config *cfg, char *buf, size_t size)
{
    char all[RS_OPTIONS_TEXT];
    rp_config_to_text(game, cfg, all, sizeof all);
    size_t n = 0;
    buf[0] = '\0';
    char *save = NULL; /* strtok_r: tables are built on the network thread and workers */
    for (char *tok = strtok_r(all, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (strncmp(tok, "seed=", 5) == 0)
            continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? " " : "", tok);
        if (w < 0 || (size_t)w >= size - n)
            break;
        n += (size_t)w;
    }
}

/* Read stored options; with skip_defaults, an option at its default value is left unset (as
 * if not given), which is how rows written before the options in effect were stored must be
 * read (see config_from_text). */
static int parse_options_text(const rp_game *game, const char *text, bool skip_defaults,
                              rp_config *cfg, rp_error *err)
{
    rp_config_default(game, cfg);
    char copy[RS_OPTIONS_TEXT];
    snprintf(copy, sizeof copy, "%s", text);
    char *save_ptr = NULL;
    for (char *tok = strtok_r(copy, " ", &save_ptr); tok; tok = strtok_r(NULL, " ", &save_ptr)) {
        rp_config one = *cfg;
        if (rp_config_set(game, &one, tok, err) < 0)
            return -1;
        bool at_default = false;
        for (int i = 0; skip_defaults && i < game->num_options; i++)
            at_default |= one.given[i] && !cfg->given[i] && game->options[i].kind != RP_OPT_TEXT &&
                          one.value[i] == game->options[i].def;
        if (!at_default)
            *cfg = one;
    }
    return 0;
}

static int config_from_text(const rp_game *game, const char *text, uint64_t seed, rp_config *cfg,
                            rp_error *err)
{
    if (parse_options_text(game, text, false, cfg, err) < 0)
        return -1;
    cfg->seed = seed;
    cfg->seed_given = true;
    rp_state trial;
    if (game->init(&trial, cfg, err) == RP_OK)
        return 0;
    /* Rows stored before issue 23 hold every option, defaults written as if given: a solo
     * Rush the Wall game was stored "players=1 neutrals=0" though the neutral clan was only
     * implied. Read without the defaults, they give the game that was played. */
    rp_config repaired;
    rp_error ignored = {{0}};
    if (parse_options_text(game, text, true, &repaired, &ignored) < 0)
        return -1;
    repaired.seed = seed;
    repaired.seed_given = true;
    if (game->init(&trial, &repaired, &ignored) != RP_OK)
        return -1;
    rs_log("stored options '%s' read without their defaults (written before issue 23)", text);
    *cfg = repaired;
    return 0;
}

void rs_table_broadcast(rs_ctx *ctx, rs_table *t, const cJSON *msg)
{
    char *text = cJSON_PrintUnformatted(msg);
    for (size_t i = 0; text && i < t->num_watchers; i++)
        if (!t->watchers[i].joining)
            rs_outbox_put_text(ctx->out, t->watchers[i].conn, text);
    free(text);
}

bool rs_table_muted(const rs_table *t, int64_t by, const char *name)
{
    for (int i = 0; i < t->num_mutes; i++)
        if (t->mutes[i].by == by && strcmp(t->mutes[i].name, name) == 0)
            return true;
    return false;
}

void rs_table_send_chat(rs_ctx *ctx, rs_table *t, const char *text, bool players, const char *from)
{
    for (size_t i = 0; i < t->num_watchers; i++) {
        const rs_watcher *w = &t->watchers[i];
        if (w->joining || (w->viewer >= 0) != players || rs_table_muted(t, w->user, from))
            continue;
        rs_outbox_put_text(ctx->out, w->conn, text);
    }
}

void rs_table_chat_said(rs_ctx *ctx, rs_table *t, const char *said)
{
    cJSON *m = cJSON_Parse(said);
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "t"));
    if (type && strcmp(type, "chat") == 0) {
        const char *channel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "channel"));
        const char *from = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "from"));
        rs_table_send_chat(ctx, t, said, channel && strcmp(channel, "players") == 0,
                           from ? from : "");
    } else if (type && strcmp(type, "chat-switch") == 0) {
        t->chat_switch =
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "on")) ? RS_CHAT_ON : RS_CHAT_OFF;
        rs_table_broadcast(ctx, t, m);
    }
    cJSON_Delete(m);
}

/* An update for every watcher, each with its own view; `cause_for` adds what happened as
 * that viewer may know it. */
typedef cJSON *(*cause_fn)(const rs_table *t, int viewer, const void *arg);

static void broadcast_update(rs_ctx *ctx, rs_table *t, cause_fn cause_for, const void *arg)
{
    for (size_t i = 0; i < t->num_watchers; i++) {
        if (t->watchers[i].joining)
            continue;
        const int viewer = t->watchers[i].viewer;
        cJSON *m = rs_table_message(t, viewer, "update", ctx->now_us);
        cJSON_AddItemToObject(m, "cause", cause_for(t, viewer, arg));
        rs_outbox_put(ctx->out, t->watchers[i].conn, m);
    }
}

typedef struct simple_cause {
    const char *kind;
    int seat;
} simple_cause;

static cJSON *simple_cause_json(const rs_table *t, int viewer, const void *arg)
{
    (void)t;
    (void)viewer;
    const simple_cause *c = arg;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", c->kind);
    if (c->seat >= 0)
        cJSON_AddNumberToObject(o, "seat", c->seat);
    return o;
}

static void announce(rs_ctx *ctx, rs_table *t, const char *kind, int seat)
{
    simple_cause c = {kind, seat};
    broadcast_update(ctx, t, simple_cause_json, &c);
}

static cJSON *move_cause_json(const rs_table *t, int viewer, const void *arg)
{
    return rs_table_move_cause(t, viewer, *(const int64_t *)arg);
}

static void broadcast_presence(rs_ctx *ctx, rs_table *t)
{
    cJSON *m = rs_table_presence(t, ctx->now_us);
    rs_table_broadcast(ctx, t, m);
    cJSON_Delete(m);
}

/* ---- results, records, ratings ---- */

/* The result in words for the lobby and the record's comment ("Red wins: Blue resigned"),
 * from the match's shares of the win. */
static void result_text(rs_table *t, const char *reason, int who)
{
    const rp_game *g = t->game;
    int n = t->row.seats, winners = 0, winner = -1;
    bool equal = true;
    double returns[RP_MAX_PLAYERS];
    rp_match_returns(t->match, returns);
    for (int s = 0; s < n; s++) {
        if (returns[s] > 0.999) {
            winners++;
            winner = s;
        }
        if (returns[s] != returns[0])
            equal = false;
    }
    char head[96];
    if (winners == 1)
        snprintf(head, sizeof head, "%s wins", rp_seat_name(g, winner));
    else if (equal)
        snprintf(head, sizeof head, "draw");
    else {
        size_t len = 0;
        head[0] = '\0';
        for (int s = 0; s < n; s++)
            if (returns[s] > 0)
                len += (size_t)snprintf(head + len, sizeof head - len, "%s%s", len ? " and " : "",
                                        rp_seat_name(g, s));
        snprintf(head + len, sizeof head - len, " share the win");
    }
    const char *whom = who >= 0 ? rp_seat_name(g, who) : "";
    if (strcmp(reason, "resign") == 0)
        snprintf(t->row.result_text, sizeof t->row.result_text, "%s: %s resigned", head, whom);
    else if (strcmp(reason, "time") == 0)
        snprintf(t->row.result_text, sizeof t->row.result_text, "%s: %s ran out of time", head,
                 whom);
    else if (strcmp(reason, "agreement") == 0)
        snprintf(t->row.result_text, sizeof t->row.result_text, "draw by agreement");
    else if (strcmp(reason, "abandoned") == 0)
        snprintf(t->row.result_text, sizeof t->row.result_text, "%s: %s left the game", head, whom);
    else
        snprintf(t->row.result_text, sizeof t->row.result_text, "%s", head);
}

/* The record `ramparts replay` verifies, written by the engine from the table's match. Seats
 * are "human" or the AI's level, as records spell who plays; comment lines above name the
 * players and say where and how it ended. */
static void store_record(rs_ctx *ctx, rs_table *t)
{
    const rp_match *m = t->match;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out) {
        fprintf(out, "# ramparts serve, game %lld%s\n", (long long)t->row.id,
                t->row.rated ? ", rated" : "");
        for (int s = 0; s < t->row.seats; s++)
            if (t->row.seat[s].kind == RS_SEAT_HUMAN)
                fprintf(out, "# seat %d (%s): %s\n", s, rp_seat_name(t->game, s), t->names[s]);
        fprintf(out, "# ended: %s (%s)\n", t->row.result_text, t->row.end_reason);
        int rc = rp_record_write(m, out);
        fclose(out);
        if (rc == RP_OK)
            rs_store_record_put(ctx->store, t->row.id, text);
    }
    free(text);
}

/* One Glicko-2 period per rated game: each player against every other, scored by shares. */
static void update_ratings(rs_ctx *ctx, rs_table *t)
{
    const int n = t->row.seats;
    double returns[RP_MAX_PLAYERS];
    rp_match_returns(t->match, returns);
    rs_rating before[RP_MAX_PLAYERS];
    int64_t games[RP_MAX_PLAYERS];
    for (int s = 0; s < n; s++) {
        rs_rating_row r;
        if (rs_store_rating_get(ctx->store, t->row.seat[s].user_id, t->game->id, &r) ==
            RS_STORE_OK) {
            before[s] = (rs_rating){r.rating, r.rd, r.vol};
            games[s] = r.games;
        } else {
            before[s] = rs_glicko2_default();
            games[s] = 0;
        }
    }
    for (int s = 0; s < n; s++) {
        rs_glicko2_game period[RP_MAX_PLAYERS];
        int k = 0;
        for (int o = 0; o < n; o++) {
            if (o == s)
                continue;
            double score = returns[s] > returns[o] ? 1.0 : returns[s] < returns[o] ? 0.0 : 0.5;
            period[k++] = (rs_glicko2_game){before[o], score};
        }
        rs_rating after = rs_glicko2_update(before[s], period, k, RS_GLICKO2_TAU);
        rs_rating_row row = {after.rating, after.rd, after.vol, games[s] + 1};
        rs_store_rating_put(ctx->store, t->row.seat[s].user_id, t->game->id, &row, t->row.id,
                            ctx->now_ms);
    }
}

/* Whether every seat made a move of its own: a rated game that ends before (a resignation at
 * ply 0, a player who never came back) changes no rating, so that nobody farms a rating off
 * opponents who give up unplayed (issue 49, finding 4). */
static bool every_seat_moved(const rs_table *t)
{
    uint32_t moved = 0;
    const size_t n = rp_match_length(t->match);
    for (size_t i = 0; i < n; i++) {
        const rp_entry_info info = rp_match_entry(t->match, i);
        if (info.kind == RP_ENTRY_MOVE && info.seat >= 0 && info.seat < t->row.seats)
            moved |= 1u << info.seat;
    }
    return moved == (1u << t->row.seats) - 1;
}

/* End the game: the match's ending (none when its rules ended it), then the result, scores,
 * record and ratings, all in this transaction. `reason` is the stored word ("resign",
 * "time"...), `ending` the match's and `losers` the seats it names; `who` is the seat the
 * reason concerns (who resigned, ran out of time, left), or -1. */
static void finish(rs_ctx *ctx, rs_table *t, const char *reason, rp_end ending, uint32_t losers,
                   int who)
{
    rp_error err = {{0}};
    if (ending != RP_END_NONE && rp_match_end(t->match, ending, losers, &err) < 0)
        rs_log("game %lld: the match refused its ending: %s", (long long)t->row.id, err.msg);
    rs_clock_stop(&t->clock, ctx->now_us);
    t->row.status = RS_GAME_OVER;
    t->row.ended_ms = ctx->now_ms;
    snprintf(t->row.end_reason, sizeof t->row.end_reason, "%s", reason);
    double returns[RP_MAX_PLAYERS];
    rp_match_returns(t->match, returns);
    for (int s = 0; s < t->row.seats; s++)
        t->row.seat[s].score = returns[s];
    t->draw_offers = 0;
    t->takeback_by = -1;
    t->ai_ply = -1;
    result_text(t, reason, who);
    const bool rates = t->row.rated && every_seat_moved(t);
    if (t->row.rated && !rates) {
        const size_t len = strlen(t->row.result_text);
        snprintf(t->row.result_text + len, sizeof t->row.result_text - len,
                 " (no rating change: it ended before every player moved)");
    }
    save(ctx, t);
    store_record(ctx, t);
    if (rates)
        update_ratings(ctx, t);
    rs_log("game %lld over: %s (%s)", (long long)t->row.id, t->row.end_reason, t->row.result_text);
}

/* The stored reasons of the endings that are not the rules', and the match's for each. */
static const struct {
    const char *word;
    rp_end ending;
} stored_endings[] = {{"resign", RP_END_RESIGNED},
                      {"time", RP_END_TIME},
                      {"agreement", RP_END_AGREED},
                      {"abandoned", RP_END_ABANDONED}};

/* A finished game read back: the match ends again as it ended (the stored reason, and the
 * seats whose stored score is 0 as its losers), so its result, record and replay are the
 * ones it had. */
static void end_as_stored(rs_table *t)
{
    for (size_t i = 0; i < sizeof stored_endings / sizeof stored_endings[0]; i++) {
        if (strcmp(t->row.end_reason, stored_endings[i].word) != 0)
            continue;
        uint32_t losers = 0;
        for (int s = 0; s < t->row.seats; s++)
            if (t->row.seat[s].score <= 0)
                losers |= 1u << s;
        if (stored_endings[i].ending == RP_END_AGREED)
            losers = 0;
        rp_error err = {{0}};
        if (rp_match_end(t->match, stored_endings[i].ending, losers, &err) < 0)
            rs_log("game %lld: its stored ending '%s' does not hold: %s", (long long)t->row.id,
                   t->row.end_reason, err.msg);
        return;
    }
}

/* Who plays each seat, as records spell it: "human" or the AI's level. */
static void seat_players(rs_table *t)
{
    for (int s = 0; s < t->row.seats; s++) {
        const rs_seat_row *seat = &t->row.seat[s];
        const bool ai = seat->kind == RS_SEAT_AI;
        rp_error err = {{0}};
        if (rp_match_set_player(t->match, s, ai ? seat->ai_level : RP_HUMAN, &err) < 0)
            rs_log("game %lld: seat %d: %s", (long long)t->row.id, s, err.msg);
    }
}

/* ---- the start ---- */

static void start(rs_ctx *ctx, rs_table *t)
{
    /* The deal comes from a seed drawn now from the system's generator: nobody can guess it,
     * and it leaves the server only in the record of the finished game. */
    t->config.seed = rs_seed_new();
    t->config.seed_given = true;
    t->row.seed = t->config.seed;
    rs_seed_commitment(t->config.seed, t->seed_commitment);
    rp_error err = {{0}};
    if (!(t->match = rp_match_new(t->game, &t->config, &err))) {
        /* The options were tried at creation, so this cannot happen; end cleanly anyway. */
        rs_log("game %lld: cannot start: %s", (long long)t->row.id, err.msg);
        t->row.status = RS_GAME_ABORTED;
        snprintf(t->row.end_reason, sizeof t->row.end_reason, "aborted");
        snprintf(t->row.result_text, sizeof t->row.result_text, "could not start: %.100s", err.msg);
        t->row.v++;
        save(ctx, t);
        announce(ctx, t, "abort", -1);
        return;
    }
    seat_players(t);
    t->row.status = RS_GAME_LIVE;
    t->row.started_ms = ctx->now_ms;
    rs_clock_init(&t->clock, (rs_clock_kind)t->row.clock_kind, t->row.initial_ms,
                  t->row.increment_ms, t->row.per_move_ms, t->row.seats);
    rs_clock_start(&t->clock, rs_table_to_move(t), ctx->now_us);
    for (int s = 0; s < t->row.seats; s++)
        if (t->connections[s] == 0)
            t->gone_since_us[s] = ctx->now_us;
    t->row.v++;
    save(ctx, t);
    rs_log("game %lld started (%s, %d seats)", (long long)t->row.id, t->game->id, t->row.seats);
    /* Options can deal a game decided before anyone moves (Walls and Armies with a deck too
     * small to give the attacker army cards, at a turn cap of 1): it ends at once by the
     * rules, and the start's update says so. */
    if (rp_match_to_move(t->match) == RP_TERMINAL)
        finish(ctx, t, "rules", RP_END_NONE, 0, -1);
    announce(ctx, t, "start", -1);
}

static bool seats_filled(const rs_table *t)
{
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind != RS_SEAT_HUMAN && t->row.seat[s].kind != RS_SEAT_AI)
            return false;
    return true;
}

/* ---- creation and loading ---- */

static rs_table *table_alloc(const rp_game *game)
{
    rs_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->game = game;
    t->takeback_by = -1;
    t->ai_ply = -1;
    return t;
}

void rs_table_free(rs_table *t)
{
    if (!t)
        return;
    rp_match_free(t->match);
    free(t->meta);
    free(t->watchers);
    free(t);
}

static void load_names(rs_ctx *ctx, rs_table *t)
{
    for (int s = 0; s < t->row.seats; s++) {
        const rs_seat_row *seat = &t->row.seat[s];
        t->names[s][0] = '\0';
        rs_user u;
        if ((seat->kind == RS_SEAT_HUMAN || seat->kind == RS_SEAT_RESERVED) &&
            rs_store_user_get(ctx->store, seat->user_id, &u) == RS_STORE_OK)
            snprintf(t->names[s], sizeof t->names[s], "%s", u.name);
    }
}

/* The options a new game is stored with: the options in effect (the game's config_of of its
 * start), which load back to the very same game, where the options as asked may not: a solo
 * Rush the Wall game's neutral clan is implied by "players=1", and storing the default
 * "neutrals=0" as if given made a game that could not be loaded (issue 23). Refused when the
 * text does not read back to the same options, so no game is ever stored that a restart
 * would lose. *effective gets the options in effect. */
static int store_options(const rp_game *game, const rp_config *asked, char *text, size_t size,
                         rp_config *effective, rs_err *e)
{
    rp_state trial;
    rp_error err = {{0}};
    if (game->init(&trial, asked, &err) < 0)
        return rs_fail(e, "bad-option", "%s", err.msg);
    rp_config_of(game, &trial, asked, effective);
    options_text(game, effective, text, size);
    rp_config again, again_effective;
    char text_again[RS_OPTIONS_TEXT];
    if (config_from_text(game, text, asked->seed, &again, &err) < 0 ||
        game->init(&trial, &again, &err) < 0)
        return rs_fail(e, "server-error", "options '%s' would not load back: %s", text, err.msg);
    rp_config_of(game, &trial, &again, &again_effective);
    options_text(game, &again_effective, text_again, sizeof text_again);
    if (strcmp(text, text_again) != 0)
        return rs_fail(e, "server-error", "options '%s' load back as '%s'", text, text_again);
    return 0;
}

rs_table *rs_table_create(rs_ctx *ctx, const rs_table_settings *s, rs_err *e)
{
    rs_table *t = table_alloc(s->game);
    if (!t) {
        rs_fail(e, "server-error", "out of memory");
        return NULL;
    }
    rs_game_row *row = &t->row;
    snprintf(row->game, sizeof row->game, "%s", s->game->id);
    if (store_options(s->game, &s->config, row->options, sizeof row->options, &t->config, e) < 0) {
        rs_table_free(t);
        return NULL;
    }
    row->status = RS_GAME_OPEN;
    row->rated = s->rated;
    row->clock_kind = (int)s->clock_kind;
    row->initial_ms = s->initial_ms;
    row->increment_ms = s->increment_ms;
    row->per_move_ms = s->per_move_ms;
    row->seats = s->config.players;
    for (int i = 0; i < row->seats; i++) {
        row->seat[i] = s->seats[i];
        row->seat[i].score = -1;
    }
    row->running = -1;
    row->created_ms = ctx->now_ms;
    row->creator = s->creator;
    row->rematch_of = s->rematch_of;
    row->v = 1;
    rs_clock_init(&t->clock, s->clock_kind, s->initial_ms, s->increment_ms, s->per_move_ms,
                  row->seats);
    t->dirty = true;
    if (rs_store_game_insert(ctx->store, row) != RS_STORE_OK) {
        rs_fail(e, "server-error", "cannot store the game");
        rs_table_free(t);
        return NULL;
    }
    seats_stored(t);
    load_names(ctx, t);
    for (int i = 0; i < row->seats; i++)
        t->gone_since_us[i] = ctx->now_us;
    t->kept_since_us = ctx->now_us;
    rs_log("game %lld created (%s)", (long long)row->id, row->game);
    if (seats_filled(t))
        start(ctx, t);
    return t;
}

/* Play the stored moves into the new match: each must be legal for the seat stored with it. */
static int replay_moves(rs_table *t, const rs_move_row *moves, size_t n, rs_err *e)
{
    for (size_t i = 0; i < n; i++) {
        rp_error err = {{0}};
        if ((size_t)moves[i].ply != i || rp_match_to_move(t->match) != moves[i].seat ||
            !RS_GROW(t->meta, i, t->cap_meta, n) ||
            rp_match_play(t->match, moves[i].action, &err) < 0)
            return rs_fail(e, "server-error", "stored move %zu does not replay %s", i + 1, err.msg);
        t->meta[i] = (rs_move_meta){moves[i].v, moves[i].at_ms};
    }
    return 0;
}

rs_table *rs_table_load(rs_ctx *ctx, int64_t id, int64_t alive_ms, rs_err *e)
{
    rs_game_row row;
    const int got = rs_store_game_get(ctx->store, id, &row);
    if (got == RS_STORE_NOTFOUND) {
        rs_fail(e, "not-found", "no game %lld", (long long)id);
        return NULL;
    }
    if (got != RS_STORE_OK) { /* the database failed: the game may well exist */
        rs_fail(e, rs_store_unavailable(ctx->store) ? "unavailable" : "server-error",
                "game %lld cannot be read from the database now", (long long)id);
        return NULL;
    }
    const rp_game *game = rp_game_find(row.game);
    if (!game) {
        rs_fail(e, "server-error", "game %lld is of an unknown kind '%s'", (long long)id, row.game);
        return NULL;
    }
    rs_table *t = table_alloc(game);
    if (!t) {
        rs_fail(e, "server-error", "out of memory");
        return NULL;
    }
    t->row = row;
    seats_stored(t);
    rp_error err = {{0}};
    if (config_from_text(game, row.options, row.seed, &t->config, &err) < 0) {
        rs_fail(e, "server-error", "game %lld: stored options: %s", (long long)id, err.msg);
        rs_table_free(t);
        return NULL;
    }
    load_names(ctx, t);
    rs_clock_init(&t->clock, (rs_clock_kind)row.clock_kind, row.initial_ms, row.increment_ms,
                  row.per_move_ms, row.seats);
    t->kept_since_us = ctx->now_us;
    for (int s = 0; s < row.seats; s++) {
        t->clock.remaining_ms[s] = row.remaining_ms[s];
        t->gone_since_us[s] = ctx->now_us;
    }
    if (row.status == RS_GAME_LIVE || row.status == RS_GAME_OVER) {
        rs_seed_commitment(row.seed, t->seed_commitment);
        if (!(t->match = rp_match_new(game, &t->config, &err))) {
            rs_fail(e, "server-error", "game %lld: %s", (long long)id, err.msg);
            rs_table_free(t);
            return NULL;
        }
        rs_move_row *moves = NULL;
        size_t n = 0;
        int rc = rs_store_moves_get(ctx->store, id, &moves, &n);
        if (rc != RS_STORE_OK || replay_moves(t, moves, n, e) < 0) {
            if (rc != RS_STORE_OK)
                rs_fail(e, "server-error", "game %lld: cannot read its moves", (long long)id);
            free(moves);
            rs_table_free(t);
            return NULL;
        }
        free(moves);
        seat_players(t);
        if (row.status == RS_GAME_OVER)
            end_as_stored(t);
    }
    if (row.status == RS_GAME_LIVE && row.running >= 0) {
        /* Charge what the seat used before the server went down, up to the server's last
         * sign of life; the downtime itself is charged to nobody. */
        t->clock.running = row.running;
        int64_t charged = alive_ms > row.turn_wall_ms ? alive_ms - row.turn_wall_ms : 0;
        rs_clock_resume(&t->clock, charged, ctx->now_us);
        if (!ctx->shared) /* another server may hold the row: only its changes write it */
            save(ctx, t);
    }
    int64_t rematch;
    if (rs_store_rematch_find(ctx->store, id, &rematch) == RS_STORE_OK)
        t->rematch_id = rematch;
    return t;
}

/* ---- lobby ---- */

static const char *not_open_text(rs_game_status status)
{
    return status == RS_GAME_LIVE   ? "has already started"
           : status == RS_GAME_OVER ? "is over"
                                    : "was aborted";
}

static rs_watcher *find_watcher(rs_table *t, uint64_t conn);
static rs_watcher *add_watcher(rs_table *t, uint64_t conn, int64_t user, int viewer);

int rs_table_join(rs_ctx *ctx, rs_table *t, int64_t user, const char *name, uint64_t conn, int seat,
                  const char *invite, int *seat_out, rs_err *e)
{
    if (t->row.status != RS_GAME_OPEN)
        return rs_fail(e, "not-open", "game %lld %s", (long long)t->row.id,
                       not_open_text(t->row.status));
    if (rs_table_seat_of(t, user) >= 0)
        return rs_fail(e, "already-seated", "you already have a seat in game %lld",
                       (long long)t->row.id);
    int chosen = -1;
    if (seat >= 0) {
        if (seat >= t->row.seats)
            return rs_fail(e, "bad-seat", "game %lld has seats 0 to %d", (long long)t->row.id,
                           t->row.seats - 1);
        const rs_seat_row *s = &t->row.seat[seat];
        bool ok = s->kind == RS_SEAT_OPEN ||
                  (s->kind == RS_SEAT_INVITE && invite && rs_secret_equal(invite, s->invite)) ||
                  (s->kind == RS_SEAT_RESERVED && s->user_id == user);
        if (!ok)
            return rs_fail(e, s->kind == RS_SEAT_INVITE ? "bad-invite" : "seat-taken",
                           s->kind == RS_SEAT_INVITE ? "seat %d needs its invitation code"
                                                     : "seat %d is not free",
                           seat);
        chosen = seat;
    }
    for (int s = 0; chosen < 0 && s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_RESERVED && t->row.seat[s].user_id == user)
            chosen = s;
    for (int s = 0; chosen < 0 && invite && s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_INVITE && rs_secret_equal(invite, t->row.seat[s].invite))
            chosen = s;
    if (chosen < 0 && invite)
        return rs_fail(e, "bad-invite", "that invitation code opens no seat of game %lld",
                       (long long)t->row.id);
    for (int s = 0; chosen < 0 && s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_OPEN)
            chosen = s;
    if (chosen < 0)
        return rs_fail(e, "full", "game %lld has no free seat", (long long)t->row.id);
    t->row.seat[chosen].kind = RS_SEAT_HUMAN;
    t->row.seat[chosen].user_id = user;
    snprintf(t->names[chosen], sizeof t->names[chosen], "%s", name);
    /* Watchers of this user now see the game from their seat; the joining connection is
     * one of them from now on, so the join is told with the seat connected. */
    for (size_t i = 0; i < t->num_watchers; i++)
        if (t->watchers[i].user == user) {
            t->watchers[i].viewer = chosen;
            t->connections[chosen]++;
        }
    if (conn && !find_watcher(t, conn)) {
        rs_watcher *w = add_watcher(t, conn, user, chosen);
        if (w) {
            w->joining = true;
            t->connections[chosen]++;
        }
    }
    *seat_out = chosen;
    t->row.v++;
    save(ctx, t);
    rs_log("game %lld: user %lld joins seat %d", (long long)t->row.id, (long long)user, chosen);
    announce(ctx, t, "join", chosen);
    if (seats_filled(t))
        start(ctx, t);
    return 0;
}

int rs_table_leave(rs_ctx *ctx, rs_table *t, int64_t user, rs_err *e)
{
    if (t->row.status == RS_GAME_LIVE)
        return rs_fail(e, "not-open", "game %lld has started: resign instead",
                       (long long)t->row.id);
    if (t->row.status != RS_GAME_OPEN)
        return rs_fail(e, "not-open", "game %lld %s", (long long)t->row.id,
                       not_open_text(t->row.status));
    int seat = rs_table_seat_of(t, user);
    if (seat < 0)
        return rs_fail(e, "not-seated", "you have no seat in game %lld", (long long)t->row.id);
    rs_seat_row *s = &t->row.seat[seat];
    s->kind = s->invite[0] ? RS_SEAT_INVITE : RS_SEAT_OPEN;
    s->user_id = 0;
    t->names[seat][0] = '\0';
    t->connections[seat] = 0;
    for (size_t i = 0; i < t->num_watchers; i++)
        if (t->watchers[i].user == user)
            t->watchers[i].viewer = RP_SPECTATOR;
    t->row.v++;
    if (human_seats(t) == 0) {
        t->row.status = RS_GAME_ABORTED;
        t->row.ended_ms = ctx->now_ms;
        snprintf(t->row.end_reason, sizeof t->row.end_reason, "aborted");
        snprintf(t->row.result_text, sizeof t->row.result_text, "aborted before the start");
        save(ctx, t);
        announce(ctx, t, "abort", seat);
        return 0;
    }
    save(ctx, t);
    announce(ctx, t, "leave", seat);
    return 0;
}

/* ---- play ---- */

static int require_live(const rs_table *t, int seat, rs_err *e)
{
    if (t->row.status == RS_GAME_OPEN)
        return rs_fail(e, "not-started", "game %lld has not started", (long long)t->row.id);
    if (t->row.status != RS_GAME_LIVE)
        return rs_fail(e, "game-over", "game %lld is over", (long long)t->row.id);
    if (seat < 0 || seat >= t->row.seats || t->row.seat[seat].kind != RS_SEAT_HUMAN)
        return rs_fail(e, "not-seated", "you have no seat in game %lld", (long long)t->row.id);
    return 0;
}

/* The seat out of time loses, the others share the win. */
static bool flag_if_out_of_time(rs_ctx *ctx, rs_table *t)
{
    if (t->row.status != RS_GAME_LIVE)
        return false;
    int seat = rs_clock_flagged(&t->clock, ctx->now_us);
    if (seat < 0)
        return false;
    t->row.v++;
    finish(ctx, t, "time", RP_END_TIME, 1u << seat, seat);
    announce(ctx, t, "flag", seat);
    return true;
}

bool rs_table_check_time(rs_ctx *ctx, rs_table *t)
{
    return flag_if_out_of_time(ctx, t);
}

int64_t rs_table_deadline_us(const rs_table *t)
{
    return t->row.status == RS_GAME_LIVE ? rs_clock_deadline_us(&t->clock) : RS_CLOCK_NEVER;
}

/* Play a legal action for `seat`: clock, history, store, result, then each viewer's update. */
static int apply_move(rs_ctx *ctx, rs_table *t, int seat, rp_action action, rs_err *e)
{
    const int turn_before = rp_match_turn(t->match);
    const int64_t ply = (int64_t)rs_table_ply(t);
    rp_error err = {{0}};
    if (!RS_GROW(t->meta, (size_t)ply, t->cap_meta, 128) ||
        rp_match_play(t->match, action, &err) < 0)
        return rs_fail(e, "server-error", "cannot play it: %s", err.msg[0] ? err.msg : "no memory");
    t->row.v++;
    t->meta[ply] = (rs_move_meta){t->row.v, ctx->now_ms};
    rs_move_row stored = {ply, seat, action, t->row.v, ctx->now_ms};
    rs_store_move_write(ctx->store, t->row.id, &stored);
    const int next = rp_match_to_move(t->match);
    const bool turn_over = next != seat || rp_match_turn(t->match) != turn_before;
    rs_clock_charge(&t->clock, ctx->now_us, turn_over);
    if (turn_over && next >= 0)
        rs_clock_start(&t->clock, next, ctx->now_us);
    t->draw_offers = 0;
    t->takeback_by = -1;
    t->ai_ply = -1;
    if (next == RP_TERMINAL)
        finish(ctx, t, "rules", RP_END_NONE, 0, -1);
    else
        save(ctx, t);
    broadcast_update(ctx, t, move_cause_json, &ply);
    return 0;
}

/* Whether the stored moves are exactly the versions from t's to row's: each the next ply and
 * the next version, played by the seat to act (checked again as each is played), the game
 * live before, and live after or ended by its rules (by the last of them), and its seats
 * taken by the same players. */
static bool moves_follow(const rs_table *t, const rs_game_row *row, const rs_move_row *moves,
                         size_t n)
{
    const bool ended_by_rules =
        row->status == RS_GAME_OVER && strcmp(row->end_reason, "rules") == 0;
    if (n == 0 || t->row.status != RS_GAME_LIVE ||
        (row->status != RS_GAME_LIVE && !ended_by_rules) || row->seats != t->row.seats ||
        moves[n - 1].v != row->v)
        return false;
    for (int s = 0; s < row->seats; s++)
        if (row->seat[s].kind != t->row.seat[s].kind ||
            row->seat[s].user_id != t->row.seat[s].user_id)
            return false;
    for (size_t i = 0; i < n; i++)
        if (moves[i].ply != (int64_t)rs_table_ply(t) + (int64_t)i ||
            moves[i].v != t->row.v + 1 + (int64_t)i)
            return false;
    return true;
}

int rs_table_catch_up(rs_ctx *ctx, rs_table *t, const rs_game_row *row, const rs_move_row *moves,
                      size_t n, rs_err *e)
{
    if (!moves_follow(t, row, moves, n))
        return rs_fail(e, "server-error", "game %lld: not only moves since version %lld",
                       (long long)t->row.id, (long long)t->row.v);
    /* The clock as stored after the last of them, charged up to now as a load charges it:
     * every update shows it. */
    for (int s = 0; s < row->seats; s++)
        t->clock.remaining_ms[s] = row->remaining_ms[s];
    t->clock.running = row->running;
    rs_clock_resume(&t->clock,
                    ctx->now_ms > row->turn_wall_ms ? ctx->now_ms - row->turn_wall_ms : 0,
                    ctx->now_us);
    for (size_t i = 0; i < n; i++) {
        const int64_t ply = moves[i].ply;
        rp_error err = {{0}};
        if (rp_match_to_move(t->match) != moves[i].seat ||
            !RS_GROW(t->meta, (size_t)ply, t->cap_meta, 128) ||
            rp_match_play(t->match, moves[i].action, &err) < 0)
            return rs_fail(e, "server-error", "game %lld: stored move %lld does not replay %s",
                           (long long)t->row.id, (long long)ply + 1, err.msg);
        const bool over = rp_match_over(t->match);
        if (over != (i + 1 == n && row->status == RS_GAME_OVER))
            return rs_fail(e, "server-error", "game %lld: ply %lld %s the game as stored",
                           (long long)t->row.id, (long long)ply + 1,
                           over ? "ends" : "does not end");
        t->meta[ply] = (rs_move_meta){moves[i].v, moves[i].at_ms};
        t->row.v = moves[i].v;
        if (over) { /* as finish() left it on the server that played it */
            t->row = *row;
            rs_clock_stop(&t->clock, ctx->now_us);
        }
        t->draw_offers = 0;
        t->takeback_by = -1;
        t->ai_ply = -1;
        broadcast_update(ctx, t, move_cause_json, &ply);
    }
    t->row = *row;
    seats_stored(t);
    return 0;
}

int rs_table_move(rs_ctx *ctx, rs_table *t, int seat, int64_t ply, const char *move,
                  bool *duplicate, rs_err *e)
{
    *duplicate = false;
    if (require_live(t, seat, e) < 0) {
        /* A retry of the move that ended the game is still a duplicate. */
        if (t->row.status != RS_GAME_OVER || ply < 0 || ply >= (int64_t)rs_table_ply(t))
            return -1;
    }
    const int64_t n = (int64_t)rs_table_ply(t);
    if (ply < n) {
        if (rp_match_same_move(t->match, (size_t)ply, seat, move)) {
            *duplicate = true;
            return 0;
        }
        if (t->row.status != RS_GAME_LIVE)
            return -1; /* the game-over error from require_live */
        return rs_fail(e, "stale", "ply %lld was already played; the game is at ply %lld",
                       (long long)ply, (long long)n);
    }
    if (ply > n)
        return rs_fail(e, "stale", "ply %lld has not been reached; the game is at ply %lld",
                       (long long)ply, (long long)n);
    if (flag_if_out_of_time(ctx, t))
        return rs_fail(e, "game-over", "out of time: game %lld is over", (long long)t->row.id);
    if (rs_table_to_move(t) != seat)
        return rs_fail(e, "not-your-turn", "it is %s's turn",
                       rp_seat_name(t->game, rs_table_to_move(t)));
    rp_action action;
    rp_error err = {{0}};
    const int rc = rp_match_parse(t->match, move, &action, &err);
    if (rc == RP_EILLEGAL)
        return rs_fail(e, "illegal", "not a legal move here: %s", err.msg);
    if (rc < 0)
        return rs_fail(e, "illegal", "cannot read the move: %s", err.msg);
    if (apply_move(ctx, t, seat, action, e) < 0)
        return -1;
    rs_log("game %lld: seat %d moves at ply %lld", (long long)t->row.id, seat, (long long)ply);
    return 0;
}

int rs_table_ai_move(rs_ctx *ctx, rs_table *t, int seat, int64_t ply, rp_action action, rs_err *e)
{
    if (t->row.status != RS_GAME_LIVE || (int64_t)rs_table_ply(t) != ply ||
        rs_table_to_move(t) != seat || t->row.seat[seat].kind != RS_SEAT_AI)
        return rs_fail(e, "stale", "the game moved on");
    if (flag_if_out_of_time(ctx, t))
        return rs_fail(e, "game-over", "out of time");
    if (!rp_match_is_legal(t->match, action))
        return rs_fail(e, "illegal", "the AI chose an illegal action %u", (unsigned)action);
    return apply_move(ctx, t, seat, action, e);
}

int rs_table_resign(rs_ctx *ctx, rs_table *t, int seat, rs_err *e)
{
    if (require_live(t, seat, e) < 0)
        return -1;
    t->row.v++;
    finish(ctx, t, "resign", RP_END_RESIGNED, 1u << seat, seat);
    announce(ctx, t, "resign", seat);
    return 0;
}

static uint32_t human_mask(const rs_table *t)
{
    uint32_t mask = 0;
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_HUMAN)
            mask |= 1u << s;
    return mask;
}

/* ---- offers kept for the other servers of a cluster ---- */

/* The store's key of a game's offers, and their value: the version they belong to, then the
 * seats offering a draw, the seat asking for a takeback (plus one) and the seats agreeing. */
static void offers_key(const rs_table *t, char key[48])
{
    snprintf(key, 48, "offers:%lld", (long long)t->row.id);
}

static void save_offers(rs_ctx *ctx, rs_table *t)
{
    if (!ctx->shared)
        return;
    char key[48];
    offers_key(t, key);
    const int64_t value = t->row.v << 24 | (int64_t)(t->draw_offers & 0xff) << 16 |
                          (int64_t)(t->takeback_by + 1) << 8 | (t->takeback_consent & 0xff);
    if (rs_store_meta_set(ctx->store, key, value) != RS_STORE_OK)
        rs_log("game %lld: cannot store its offers: %s", (long long)t->row.id,
               rs_store_error(ctx->store));
}

void rs_table_offers_load(rs_ctx *ctx, rs_table *t)
{
    char key[48];
    int64_t value;
    offers_key(t, key);
    if (!ctx->shared || t->row.status != RS_GAME_LIVE ||
        rs_store_meta_get(ctx->store, key, &value) != RS_STORE_OK || value >> 24 != t->row.v)
        return;
    t->draw_offers = (uint32_t)(value >> 16 & 0xff);
    t->takeback_by = (int)(value >> 8 & 0xff) - 1;
    t->takeback_consent = (uint32_t)(value & 0xff);
    if (t->takeback_by >= t->row.seats)
        t->takeback_by = -1;
}

int rs_table_draw(rs_ctx *ctx, rs_table *t, int seat, const char *op, rs_err *e)
{
    if (require_live(t, seat, e) < 0)
        return -1;
    if (!rs_game_can_draw(t->game))
        return rs_fail(e, "not-allowed", "%s always has a winner: no draw can be agreed",
                       t->game->title);
    if (!rs_table_all_human(t))
        return rs_fail(e, "not-allowed", "draws are agreed between people only");
    const uint32_t me = 1u << seat;
    if (strcmp(op, "decline") == 0) {
        if (!(t->draw_offers & ~me))
            return rs_fail(e, "no-offer", "nobody else offers a draw");
        t->draw_offers = 0;
        t->row.v++;
        save(ctx, t);
        save_offers(ctx, t);
        announce(ctx, t, "draw-decline", seat);
        return 0;
    }
    if (strcmp(op, "accept") == 0 && !(t->draw_offers & ~me))
        return rs_fail(e, "no-offer", "nobody else offers a draw");
    if (t->draw_offers & me)
        return rs_fail(e, "already-offered", "you already offer a draw");
    t->draw_offers |= me;
    t->row.v++;
    if ((t->draw_offers & human_mask(t)) == human_mask(t)) {
        finish(ctx, t, "agreement", RP_END_AGREED, 0, -1);
        announce(ctx, t, "draw", seat);
        return 0;
    }
    save(ctx, t);
    save_offers(ctx, t);
    announce(ctx, t, "draw-offer", seat);
    return 0;
}

static void do_takeback(rs_ctx *ctx, rs_table *t, int seat)
{
    size_t from = 0;
    rp_error err = {{0}};
    if (rp_match_takeback_from(t->match, seat, &from, &err) < 0 ||
        rp_match_takeback(t->match, seat, &err) < 0) { /* checked by the callers */
        rs_log("game %lld: takeback by seat %d refused: %s", (long long)t->row.id, seat, err.msg);
        return;
    }
    rs_store_moves_truncate(ctx->store, t->row.id, (int64_t)from);
    rs_clock_charge(&t->clock, ctx->now_us, false);
    rs_clock_start(&t->clock, rs_table_to_move(t), ctx->now_us);
    t->takeback_by = -1;
    t->draw_offers = 0;
    t->ai_ply = -1;
    t->row.v++;
    save(ctx, t);
    rs_log("game %lld: takeback by seat %d to ply %lld", (long long)t->row.id, seat,
           (long long)from);
    announce(ctx, t, "takeback", seat);
}

int rs_table_takeback(rs_ctx *ctx, rs_table *t, int seat, const char *op, rs_err *e)
{
    if (require_live(t, seat, e) < 0)
        return -1;
    if (t->row.rated)
        return rs_fail(e, "not-allowed", "no takebacks in rated games");
    if (strcmp(op, "offer") == 0) {
        if (t->takeback_by >= 0)
            return rs_fail(e, "already-offered", "a takeback is already asked for");
        rp_error why = {{0}};
        if (rp_match_takeback_from(t->match, seat, NULL, &why) < 0)
            return rs_fail(e, "not-allowed", "%s", why.msg);
        if ((human_mask(t) & ~(1u << seat)) == 0) { /* only AIs to ask: they agree */
            do_takeback(ctx, t, seat);
            return 0;
        }
        t->takeback_by = seat;
        t->takeback_consent = 0;
        t->row.v++;
        save(ctx, t);
        save_offers(ctx, t);
        announce(ctx, t, "takeback-offer", seat);
        return 0;
    }
    if (t->takeback_by < 0 || t->takeback_by == seat)
        return rs_fail(e, "no-offer", "nobody else asks for a takeback");
    if (strcmp(op, "decline") == 0) {
        t->takeback_by = -1;
        t->row.v++;
        save(ctx, t);
        save_offers(ctx, t);
        announce(ctx, t, "takeback-decline", seat);
        return 0;
    }
    /* Every other person at the table must agree; AIs always do. */
    t->takeback_consent |= 1u << seat;
    const uint32_t needed = human_mask(t) & ~(1u << t->takeback_by);
    if ((t->takeback_consent & needed) != needed) {
        t->row.v++;
        save(ctx, t);
        save_offers(ctx, t);
        announce(ctx, t, "takeback-accept", seat);
        return 0;
    }
    do_takeback(ctx, t, t->takeback_by);
    return 0;
}

void rs_table_user_gone(rs_ctx *ctx, rs_table *t, int64_t user)
{
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_HUMAN && t->row.seat[s].user_id == user &&
            t->connections[s] == 0)
            t->gone_since_us[s] = ctx->now_us;
}

/* Ends the game as abandoned by the seats in `gone` (they lose, the others share the win, as
 * a claim decides); returns the first of them, who the result names. */
static int end_abandoned(rs_ctx *ctx, rs_table *t, uint32_t gone)
{
    int who = -1;
    for (int s = 0; s < t->row.seats && who < 0; s++)
        if (gone & (1u << s))
            who = s;
    finish(ctx, t, "abandoned", RP_END_ABANDONED, gone, who);
    return who;
}

int rs_table_claim(rs_ctx *ctx, rs_table *t, int seat, uint32_t online, rs_err *e)
{
    if (require_live(t, seat, e) < 0)
        return -1;
    if (t->row.clock_kind == RS_CLOCK_CORRESPONDENCE)
        return rs_fail(e, "not-allowed", "in correspondence games only the clock decides");
    uint32_t gone = 0;
    for (int s = 0; s < t->row.seats; s++)
        if (s != seat && t->row.seat[s].kind == RS_SEAT_HUMAN && !rs_table_seat_connected(t, s) &&
            !(online & (1u << s)) && ctx->now_us - t->gone_since_us[s] >= ctx->grace_ms * 1000)
            gone |= 1u << s;
    if (!gone)
        return rs_fail(e, "not-allowed", "no opponent has been gone for %lld s",
                       (long long)(ctx->grace_ms / 1000));
    t->row.v++;
    end_abandoned(ctx, t, gone);
    announce(ctx, t, "claim", seat);
    return 0;
}

/* ---- expiry of games nobody comes back to ---- */

void rs_table_expire(rs_ctx *ctx, rs_table *t, int64_t after_ms)
{
    char delay[32]; /* "30 min", or "90 s" for a delay not in whole minutes */
    if (after_ms >= 60000 && after_ms % 60000 == 0)
        snprintf(delay, sizeof delay, "%lld min", (long long)(after_ms / 60000));
    else
        snprintf(delay, sizeof delay, "%lld s", (long long)(after_ms / 1000));
    t->row.v++;
    if (t->row.status == RS_GAME_OPEN) {
        t->row.status = RS_GAME_ABORTED;
        t->row.ended_ms = ctx->now_ms;
        snprintf(t->row.end_reason, sizeof t->row.end_reason, "expired");
        snprintf(t->row.result_text, sizeof t->row.result_text,
                 "aborted: nobody came back to it for %s", delay);
        save(ctx, t);
        rs_log("game %lld: aborted, nobody came back to it", (long long)t->row.id);
        announce(ctx, t, "abort", -1);
        return;
    }
    /* A game against the AI its people left: they lose, as a claim would decide. */
    uint32_t gone = 0;
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_HUMAN)
            gone |= 1u << s;
    const int who = end_abandoned(ctx, t, gone);
    rs_log("game %lld: ended, left for %s against the AI", (long long)t->row.id, delay);
    announce(ctx, t, "expire", who);
}

/* ---- viewers ---- */

/* The moves after version `since`, as this viewer may know them; NULL when none. */
static cJSON *missed_json(const rs_table *t, int viewer, int64_t since, bool *truncated)
{
    const size_t n = rs_table_ply(t);
    size_t first = n;
    for (size_t i = 0; i < n; i++)
        if (t->meta[i].v > since) {
            first = i;
            break;
        }
    *truncated = false;
    if (first == n)
        return NULL;
    if (n - first > MAX_MISSED) {
        first = n - MAX_MISSED;
        *truncated = true;
    }
    cJSON *missed = cJSON_CreateArray();
    for (size_t i = first; i < n; i++)
        cJSON_AddItemToArray(missed, rs_table_move_cause(t, viewer, (int64_t)i));
    return missed;
}

/* The last move played, as this viewer may know it (the cause its update carried), so a
 * client that (re)opens the game can mark it; NULL before the first move. */
static cJSON *last_move_json(const rs_table *t, int viewer)
{
    const size_t n = rs_table_ply(t);
    if (n == 0)
        return NULL;
    return rs_table_move_cause(t, viewer, (int64_t)(n - 1));
}

static void send_snapshot(rs_ctx *ctx, rs_table *t, const rs_watcher *w, int64_t since, cJSON *chat,
                          const cJSON *request_id)
{
    cJSON *m = rs_table_message(t, w->viewer, "snapshot", ctx->now_us);
    cJSON *last = last_move_json(t, w->viewer);
    if (last)
        cJSON_AddItemToObject(m, "last", last);
    if (w->user == t->row.creator && t->row.status == RS_GAME_OPEN)
        cJSON_AddItemToObject(m, "invites", rs_table_invites_json(t));
    if (since >= 0 && since < t->row.v) {
        bool truncated;
        cJSON *missed = missed_json(t, w->viewer, since, &truncated);
        if (missed)
            cJSON_AddItemToObject(m, "missed", missed);
        if (truncated)
            cJSON_AddBoolToObject(m, "missed_truncated", true);
    }
    if (chat) { /* the lines of the viewer's channel (issue 49, finding 7) */
        cJSON_AddItemToObject(m, "chat", chat);
        cJSON_AddStringToObject(m, "chat_channel", w->viewer >= 0 ? "players" : "spectators");
        cJSON_AddBoolToObject(m, "chat_on", t->chat_switch != RS_CHAT_OFF);
    }
    if (request_id)
        cJSON_AddItemToObject(m, "id", cJSON_Duplicate(request_id, true));
    rs_outbox_put(ctx->out, w->conn, m);
}

static rs_watcher *find_watcher(rs_table *t, uint64_t conn)
{
    for (size_t i = 0; i < t->num_watchers; i++)
        if (t->watchers[i].conn == conn)
            return &t->watchers[i];
    return NULL;
}

static rs_watcher *add_watcher(rs_table *t, uint64_t conn, int64_t user, int viewer)
{
    if (!RS_GROW(t->watchers, t->num_watchers, t->cap_watchers, 4))
        return NULL;
    rs_watcher *w = &t->watchers[t->num_watchers++];
    *w = (rs_watcher){conn, user, viewer, false};
    return w;
}

int rs_table_watch(rs_ctx *ctx, rs_table *t, uint64_t conn, int64_t user, int64_t since,
                   cJSON *chat, const cJSON *request_id, rs_err *e)
{
    rs_watcher *w = find_watcher(t, conn);
    if (w) { /* watching already, or joining: counted, told of nothing yet */
        w->joining = false;
        send_snapshot(ctx, t, w, since, chat, request_id);
        return 0;
    }
    int seat = rs_table_seat_of(t, user);
    w = add_watcher(t, conn, user, seat >= 0 ? seat : RP_SPECTATOR);
    if (!w) {
        cJSON_Delete(chat);
        return rs_fail(e, "server-error", "out of memory");
    }
    const bool arrived = seat < 0 || t->connections[seat]++ == 0;
    send_snapshot(ctx, t, w, since, chat, request_id);
    if (arrived) /* a seat connected, or one more spectator */
        broadcast_presence(ctx, t);
    return 0;
}

bool rs_table_unwatch(rs_ctx *ctx, rs_table *t, uint64_t conn)
{
    rs_watcher *w = find_watcher(t, conn);
    if (!w)
        return false;
    int viewer = w->viewer;
    *w = t->watchers[--t->num_watchers];
    if (viewer >= 0 && --t->connections[viewer] <= 0) {
        t->connections[viewer] = 0;
        t->gone_since_us[viewer] = ctx->now_us;
    }
    broadcast_presence(ctx, t);
    return true;
}

void rs_table_resend(rs_ctx *ctx, rs_table *t, uint64_t conn, int64_t since)
{
    rs_watcher *w = find_watcher(t, conn);
    if (w) {
        w->joining = false;
        send_snapshot(ctx, t, w, since, NULL, NULL);
    }
}
