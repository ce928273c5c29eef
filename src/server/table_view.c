/* table_view.c — the messages of the referee, each built from scratch for one viewer (an
 * allow-list: every field is added on purpose, nothing is copied and deleted): the state of a
 * game as a seat or the spectator may see it, the public summary for the lobby and the API,
 * a move as its events told to that viewer, who is connected. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "table_view.h"

/* JSON text the engine built (a view, events, legal moves), as an item of a message, so it is
 * sent byte for byte as the game wrote it; JSON null when there is none. */
static cJSON *engine_json(char *text)
{
    cJSON *item = text ? cJSON_CreateRaw(text) : cJSON_CreateNull();
    free(text);
    return item;
}

/* Whole milliseconds since a seat left (the division truncates on purpose). */
static int64_t gone_ms(int64_t now_us, int64_t since_us)
{
    return (now_us - since_us) / 1000;
}

static const char *seat_kind_word(rs_seat_kind kind)
{
    static const char *const words[] = {"open", "invite", "reserved", "ai", "human"};
    return kind <= RS_SEAT_HUMAN ? words[kind] : "?";
}

static const char *clock_kind_word(int kind)
{
    return kind == RS_CLOCK_LIVE             ? "live"
           : kind == RS_CLOCK_CORRESPONDENCE ? "correspondence"
                                             : "none";
}

static cJSON *seat_json(const rs_table *t, int s, int64_t now_us)
{
    const rs_seat_row *seat = &t->row.seat[s];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "seat", s);
    cJSON_AddStringToObject(o, "seat_name", rp_seat_name(t->game, s));
    cJSON_AddStringToObject(o, "kind", seat_kind_word(seat->kind));
    if (seat->kind == RS_SEAT_HUMAN || seat->kind == RS_SEAT_RESERVED)
        cJSON_AddStringToObject(o, "name", t->names[s]);
    if (seat->kind == RS_SEAT_AI)
        cJSON_AddStringToObject(o, "level", seat->ai_level);
    if (seat->kind == RS_SEAT_HUMAN) {
        bool connected = rs_table_seat_connected(t, s);
        cJSON_AddBoolToObject(o, "connected", connected);
        if (!connected && t->row.status == RS_GAME_LIVE)
            cJSON_AddNumberToObject(o, "gone_ms", (double)gone_ms(now_us, t->gone_since_us[s]));
    } else if (seat->kind == RS_SEAT_AI) {
        cJSON_AddBoolToObject(o, "connected", true);
    }
    return o;
}

static cJSON *seats_json(const rs_table *t, int64_t now_us)
{
    cJSON *seats = cJSON_CreateArray();
    for (int s = 0; s < t->row.seats; s++)
        cJSON_AddItemToArray(seats, seat_json(t, s, now_us));
    return seats;
}

static cJSON *clock_json(const rs_table *t, int64_t now_us)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "kind", clock_kind_word(t->row.clock_kind));
    if (t->row.clock_kind == RS_CLOCK_NONE)
        return c;
    if (t->row.clock_kind == RS_CLOCK_LIVE) {
        cJSON_AddNumberToObject(c, "initial_ms", (double)t->row.initial_ms);
        cJSON_AddNumberToObject(c, "increment_ms", (double)t->row.increment_ms);
    } else {
        cJSON_AddNumberToObject(c, "per_move_ms", (double)t->row.per_move_ms);
    }
    cJSON *remaining = cJSON_AddArrayToObject(c, "remaining_ms");
    for (int s = 0; s < t->row.seats; s++) {
        int64_t left = rs_clock_remaining_ms(&t->clock, s, now_us);
        cJSON_AddItemToArray(remaining, cJSON_CreateNumber((double)(left > 0 ? left : 0)));
    }
    if (t->clock.running >= 0)
        cJSON_AddNumberToObject(c, "running", t->clock.running);
    else
        cJSON_AddNullToObject(c, "running");
    return c;
}

cJSON *rs_table_options_json(const rs_table *t)
{
    const bool started = t->row.status == RS_GAME_LIVE || t->row.status == RS_GAME_OVER;
    const rp_config eff = started && t->match ? *rp_match_config(t->match) : t->config;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "players", eff.players);
    for (int i = 0; i < t->game->num_options; i++) {
        const rp_option_spec *spec = &t->game->options[i];
        if (spec->kind == RP_OPT_INT) {
            cJSON_AddNumberToObject(o, spec->name, (double)eff.value[i]);
        } else if (spec->kind == RP_OPT_CHOICE) {
            /* the word at the index: choices are "a|b|c" */
            const char *p = spec->choices;
            for (int64_t k = 0; p && k < eff.value[i]; k++) {
                p = strchr(p, '|');
                p = p ? p + 1 : NULL;
            }
            if (p) {
                size_t len = strcspn(p, "|");
                char word[64];
                snprintf(word, sizeof word, "%.*s", (int)len, p);
                cJSON_AddStringToObject(o, spec->name, word);
            }
        } else if (eff.given[i]) {
            cJSON_AddStringToObject(o, spec->name, eff.text[i]);
        }
    }
    return o;
}

static void add_seat_or_null(cJSON *o, const char *key, int seat)
{
    if (seat >= 0)
        cJSON_AddNumberToObject(o, key, seat);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *result_json(const rs_table *t)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "reason", t->row.end_reason);
    cJSON_AddStringToObject(r, "text", t->row.result_text);
    if (t->row.status == RS_GAME_OVER) {
        double shares[RP_MAX_PLAYERS] = {0};
        if (t->match)
            rp_match_returns(t->match, shares);
        cJSON *returns = cJSON_AddArrayToObject(r, "returns");
        for (int s = 0; s < t->row.seats; s++)
            cJSON_AddItemToArray(returns, cJSON_CreateNumber(shares[s]));
    }
    return r;
}

static cJSON *offers_json(const rs_table *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *draw = cJSON_AddArrayToObject(o, "draw");
    for (int s = 0; s < t->row.seats; s++)
        if (t->draw_offers & (1u << s))
            cJSON_AddItemToArray(draw, cJSON_CreateNumber(s));
    add_seat_or_null(o, "takeback", t->takeback_by);
    return o;
}

cJSON *rs_table_invites_json(const rs_table *t)
{
    cJSON *invites = cJSON_CreateObject();
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_INVITE) {
            char key[16];
            snprintf(key, sizeof key, "%d", s);
            cJSON_AddStringToObject(invites, key, t->row.seat[s].invite);
        }
    return invites;
}

cJSON *rs_table_summary(const rs_table *t, int64_t now_us)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "game", (double)t->row.id);
    cJSON_AddStringToObject(o, "type", t->game->id);
    cJSON_AddStringToObject(o, "title", t->game->title);
    cJSON_AddStringToObject(o, "status", rs_status_word(t->row.status));
    cJSON_AddBoolToObject(o, "rated", t->row.rated);
    cJSON_AddItemToObject(o, "options", rs_table_options_json(t));
    cJSON_AddItemToObject(o, "clock", clock_json(t, now_us));
    cJSON_AddItemToObject(o, "seats", seats_json(t, now_us));
    cJSON_AddNumberToObject(o, "ply", (double)rs_table_ply(t));
    add_seat_or_null(o, "to_move", rs_table_to_move(t));
    cJSON_AddNumberToObject(o, "created_ms", (double)t->row.created_ms);
    if (t->row.status == RS_GAME_OVER || t->row.status == RS_GAME_ABORTED)
        cJSON_AddItemToObject(o, "result", result_json(t));
    return o;
}

cJSON *rs_table_frames_json(const rs_table *t, int viewer, size_t from, size_t count)
{
    cJSON *frames = cJSON_CreateArray();
    const size_t n = rs_table_ply(t);
    for (size_t k = from; t->match && k <= n && k - from < count; k++) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddNumberToObject(f, "ply", (double)k);
        if (k > 0) {
            cJSON_AddNumberToObject(f, "seat", rp_match_entry(t->match, k - 1).seat);
            cJSON_AddItemToObject(f, "events",
                                  engine_json(rp_match_events(t->match, k - 1, viewer, NULL)));
        }
        cJSON_AddItemToObject(f, "view",
                              engine_json(rp_match_view_at(t->match, k, viewer, false, NULL)));
        cJSON_AddItemToArray(frames, f);
    }
    return frames;
}

cJSON *rs_table_replay_json(const rs_table *t, int viewer, int64_t now_us)
{
    cJSON *o = rs_table_summary(t, now_us);
    cJSON_AddItemToObject(
        o, "viewer", viewer >= 0 ? cJSON_CreateNumber(viewer) : cJSON_CreateString("spectator"));
    cJSON_AddItemToObject(o, "frames", rs_table_frames_json(t, viewer, 0, SIZE_MAX));
    return o;
}

/* For the seat to act, one world it cannot tell from the real one, as full-state notation
 * (rp_match_sample) drawn with a fresh seed that is never sent or kept: it tells the seat
 * nothing beyond its view, and its generator is new too, so it foretells no draw. The client's
 * WebAssembly engine previews moves on it (docs/wasm.md); the referee still decides every move
 * on the real state. */
static void add_sample(cJSON *m, const rs_table *t, int seat)
{
    char text[RP_STATE_TEXT];
    if (rp_match_sample(t->match, seat, rs_seed_new(), text, sizeof text, NULL) >= 0)
        cJSON_AddStringToObject(m, "sample", text);
}

cJSON *rs_table_message(const rs_table *t, int viewer, const char *type, int64_t now_us)
{
    const bool started = t->row.status == RS_GAME_LIVE || t->row.status == RS_GAME_OVER;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", type);
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddNumberToObject(m, "v", (double)t->row.v);
    cJSON_AddNumberToObject(m, "ply", (double)rs_table_ply(t));
    cJSON_AddStringToObject(m, "status", rs_status_word(t->row.status));
    cJSON_AddStringToObject(m, "type", t->game->id);
    cJSON_AddStringToObject(m, "title", t->game->title);
    cJSON_AddBoolToObject(m, "rated", t->row.rated);
    cJSON *rules = cJSON_AddObjectToObject(m, "allowed");
    cJSON_AddBoolToObject(rules, "draw", rs_game_can_draw(t->game) && rs_table_all_human(t));
    cJSON_AddBoolToObject(rules, "takeback", rs_table_can_take_back(t, viewer));
    cJSON_AddItemToObject(m, "options", rs_table_options_json(t));
    cJSON_AddItemToObject(m, "clock", clock_json(t, now_us));
    cJSON_AddItemToObject(m, "seats", seats_json(t, now_us));
    add_seat_or_null(m, "you", viewer >= 0 ? viewer : -1);
    const int to_move = rs_table_to_move(t);
    add_seat_or_null(m, "to_move", to_move);
    if (started && t->match) {
        /* What this viewer may know, straight from the game: never the full state. */
        cJSON_AddItemToObject(m, "view", engine_json(rp_match_view(t->match, viewer, false, NULL)));
        cJSON_AddStringToObject(m, "seed_hash", t->seed_commitment);
    }
    if (to_move >= 0 && to_move == viewer) {
        cJSON_AddItemToObject(m, "legal", engine_json(rp_match_legal_json(t->match, NULL)));
        add_sample(m, t, viewer);
    }
    cJSON_AddItemToObject(m, "offers", offers_json(t));
    if (t->row.status == RS_GAME_OVER || t->row.status == RS_GAME_ABORTED)
        cJSON_AddItemToObject(m, "result", result_json(t));
    if (t->row.status == RS_GAME_OVER) { /* the seed is secret only while the game is live */
        /* In decimal text: a JSON number is a double to most readers, which holds 53 bits. */
        char seed[24];
        snprintf(seed, sizeof seed, "%" PRIu64, t->config.seed);
        cJSON_AddStringToObject(m, "seed", seed);
    }
    return m;
}

/* What a move was, told to one viewer: its events as the game tells them to that viewer,
 * and its notation only to the player who made it (a move's text can name a hidden card). */
cJSON *rs_table_move_cause(const rs_table *t, int viewer, int64_t ply)
{
    const int seat = rp_match_entry(t->match, (size_t)ply).seat;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", "move");
    cJSON_AddNumberToObject(o, "seat", seat);
    cJSON_AddNumberToObject(o, "ply", (double)ply);
    cJSON_AddNumberToObject(o, "v", (double)t->meta[ply].v);
    char text[RP_ACTION_TEXT];
    if (viewer == seat &&
        rp_match_move_text(t->match, (size_t)ply, viewer, text, sizeof text, NULL) >= 0)
        cJSON_AddStringToObject(o, "move", text);
    cJSON_AddItemToObject(o, "events",
                          engine_json(rp_match_events(t->match, (size_t)ply, viewer, NULL)));
    return o;
}

cJSON *rs_table_presence(const rs_table *t, int64_t now_us)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "presence");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddItemToObject(m, "seats", seats_json(t, now_us));
    int spectators = 0;
    for (size_t i = 0; i < t->num_watchers; i++)
        spectators += t->watchers[i].viewer == RP_SPECTATOR;
    cJSON_AddNumberToObject(m, "spectators", spectators);
    return m;
}
