/* api.c — the engine's entry for the browser (the WebAssembly build, docs/wasm.md): one call,
 * rw_call, takes a request as JSON ({"op": "new", ...}) and answers in JSON, so JavaScript
 * needs nothing of the C structs. Operations live in a table, matches in a table of handles.
 * The Web Worker running this is the referee of an offline game; it hands the page only what
 * the human's seat may see. A refused request changes nothing and answers {"error": "..."}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "ramparts/review.h"
#include "bench.h"
#include "preview.h"
#include "request.h"

#define MAX_MATCHES 16

static rp_match *matches[MAX_MATCHES];

/* The match named by the field "match". */
static int field_match(const cJSON *req, rp_match **out, rp_error *err)
{
    long long h = 0;
    int rc = rw_field_int(req, "match", true, 0, 0, MAX_MATCHES - 1, &h, err);
    if (rc < 0)
        return rc;
    if (!matches[h])
        return rp_fail(err, RP_EINVAL, "no match %lld", h);
    *out = matches[h];
    return RP_OK;
}

/* A viewer: a seat number of m, or "spectator" (field absent: def). */
static int field_viewer(const cJSON *req, const char *name, const rp_match *m, int def, int *out,
                        rp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(req, name);
    if (!v) {
        *out = def;
        return RP_OK;
    }
    if (cJSON_IsString(v) && strcmp(v->valuestring, "spectator") == 0) {
        *out = RP_SPECTATOR;
        return RP_OK;
    }
    const double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
    if (d < 0 || d >= rp_match_players(m) || d != (double)(int)d)
        return rp_fail(err, RP_EINVAL, "'%s' must be a seat of this game or \"spectator\"", name);
    *out = (int)d;
    return RP_OK;
}

/* A viewer the match may show (rp_match_may_show): not an AI's seat while an unfinished game
 * against the AI keeps secrets, which the worker never asks for and no caller may see. */
static int field_shown_viewer(const cJSON *req, const rp_match *m, int *out, rp_error *err)
{
    int rc = field_viewer(req, "viewer", m, 0, out, err);
    if (rc < 0 || rp_match_may_show(m, *out))
        return rc;
    return rp_fail(err, RP_EINVAL,
                   "%s is played by %s, whose cards stay hidden until the game ends",
                   rp_seat_name(rp_match_game(m), *out), rp_match_player(m, *out));
}

/* ---- answers ---- */

static cJSON *answer_ok(void)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", true);
    return o;
}

static void add_viewer(cJSON *o, const char *name, int viewer)
{
    if (viewer == RP_SPECTATOR)
        cJSON_AddStringToObject(o, name, "spectator");
    else
        cJSON_AddNumberToObject(o, name, viewer);
}

/* Where the match stands: whose turn, the result once over, who plays each seat. */
static cJSON *match_info(int handle, const rp_match *m)
{
    const rp_game *game = rp_match_game(m);
    cJSON *o = answer_ok();
    char text[RP_STATE_TEXT];
    cJSON_AddNumberToObject(o, "match", handle);
    cJSON_AddStringToObject(o, "game", game->id);
    cJSON_AddStringToObject(o, "title", game->title);
    rp_config_to_text(game, rp_match_config(m), text, sizeof text);
    cJSON_AddStringToObject(o, "options", text);
    const int players = rp_match_players(m);
    cJSON_AddNumberToObject(o, "players", players);
    cJSON_AddNumberToObject(o, "to_move", rp_match_over(m) ? -1 : rp_match_to_move(m));
    cJSON_AddNumberToObject(o, "turn", rp_match_turn(m));
    cJSON_AddNumberToObject(o, "moves", (double)rp_match_moves(m));
    cJSON_AddNumberToObject(o, "entries", (double)rp_match_length(m));
    cJSON_AddBoolToObject(o, "over", rp_match_over(m));
    rp_match_status(m, text, sizeof text);
    cJSON_AddStringToObject(o, "status", text);
    cJSON *seats = cJSON_AddArrayToObject(o, "seats");
    for (int s = 0; s < players; s++) {
        cJSON *seat = cJSON_CreateObject();
        cJSON_AddNumberToObject(seat, "seat", s);
        cJSON_AddStringToObject(seat, "seat_name", rp_seat_name(game, s));
        cJSON_AddStringToObject(seat, "who", rp_match_player(m, s));
        cJSON_AddItemToArray(seats, seat);
    }
    if (rp_match_over(m)) {
        double returns[RP_MAX_PLAYERS];
        rp_match_returns(m, returns);
        cJSON_AddItemToObject(o, "returns", cJSON_CreateDoubleArray(returns, players));
    }
    return o;
}

static int handle_of(const rp_match *m)
{
    for (int h = 0; h < MAX_MATCHES; h++)
        if (matches[h] == m)
            return h;
    return -1;
}

/* Keep a new match in a free slot (taking ownership), or free it when the table is full. */
static cJSON *adopt_match(rp_match *m, rp_error *err)
{
    for (int h = 0; h < MAX_MATCHES; h++) {
        if (!matches[h]) {
            matches[h] = m;
            return match_info(h, m);
        }
    }
    rp_match_free(m);
    rp_fail(err, RP_ENOMEM, "too many matches open (at most %d): free one first", MAX_MATCHES);
    return NULL;
}

/* ---- operations on the games ---- */

static cJSON *op_games(const cJSON *req, rp_error *err)
{
    (void)req;
    char *games = rp_games_describe(RP_DESCRIBE_ENGINE, NULL);
    if (!games) {
        rp_fail(err, RP_ENOMEM, "out of memory");
        return NULL;
    }
    cJSON *o = answer_ok();
    cJSON_AddItemToObject(o, "games", cJSON_Parse(games));
    free(games);
    cJSON_AddStringToObject(o, "ai_help", rp_ai_help());
    return o;
}

static cJSON *op_rules(const cJSON *req, rp_error *err)
{
    const rp_game *game;
    if (rw_field_game(req, &game, err) < 0)
        return NULL;
    const char *rules = rp_game_rules(game);
    cJSON *o = answer_ok();
    cJSON_AddStringToObject(o, "rules", rules ? rules : "");
    return o;
}

/* ---- opening and closing matches ---- */

/* Seat s of m is played by the s-th entry of "seats" (a human or an AI spec). */
static int set_seats(rp_match *m, const cJSON *req, rp_error *err)
{
    const cJSON *seats = cJSON_GetObjectItemCaseSensitive(req, "seats");
    if (!seats)
        return RP_OK;
    const int players = rp_match_players(m);
    if (!cJSON_IsArray(seats) || cJSON_GetArraySize(seats) != players)
        return rp_fail(err, RP_EINVAL, "'seats' must list who plays each of the %d seats", players);
    for (int s = 0; s < players; s++) {
        const cJSON *who = cJSON_GetArrayItem(seats, s);
        if (!cJSON_IsString(who))
            return rp_fail(err, RP_EINVAL, "seat %d: say \"human\" or an AI such as \"medium\"", s);
        int rc = rp_match_set_player(m, s, who->valuestring, err);
        if (rc < 0)
            return rc;
    }
    return RP_OK;
}

static cJSON *op_new(const cJSON *req, rp_error *err)
{
    const rp_game *game;
    const char *options;
    if (rw_field_game(req, &game, err) < 0 ||
        rw_field_text(req, "options", false, "", &options, err) < 0)
        return NULL;
    rp_config cfg;
    rp_config_default(game, &cfg);
    if (rw_apply_options(game, &cfg, options, err) < 0)
        return NULL;
    rp_match *m = rp_match_new(game, &cfg, err);
    if (!m)
        return NULL;
    if (set_seats(m, req, err) < 0) {
        rp_match_free(m);
        return NULL;
    }
    return adopt_match(m, err);
}

/* A record's text (what `ramparts replay` reads), replayed into a new match. */
/* A new match replayed from the record's text in the field "record", or NULL with err. */
static rp_match *field_record(const cJSON *req, rp_error *err)
{
    const char *text;
    if (rw_field_text(req, "record", true, NULL, &text, err) < 0)
        return NULL;
    size_t len = strlen(text);
    FILE *in = fmemopen((void *)(uintptr_t)text, len ? len : 1, "r");
    if (!in) {
        rp_fail(err, RP_ENOMEM, "out of memory for a record");
        return NULL;
    }
    rp_match *m = rp_record_read(in, "record", err);
    fclose(in);
    return m;
}

static cJSON *op_load_record(const cJSON *req, rp_error *err)
{
    rp_match *m = field_record(req, err);
    return m ? adopt_match(m, err) : NULL;
}

static cJSON *op_free(const cJSON *req, rp_error *err)
{
    rp_match *m;
    if (field_match(req, &m, err) < 0)
        return NULL;
    matches[handle_of(m)] = NULL;
    rp_match_free(m);
    return answer_ok();
}

static cJSON *op_info(const cJSON *req, rp_error *err)
{
    rp_match *m;
    if (field_match(req, &m, err) < 0)
        return NULL;
    return match_info(handle_of(m), m);
}

/* ---- what a viewer sees ---- */

/* A JSON text the engine built, as an item of an answer (NULL: out of memory). */
static cJSON *raw_item(char *text)
{
    cJSON *item = text ? cJSON_CreateRaw(text) : NULL;
    free(text);
    return item;
}

static cJSON *op_view(const cJSON *req, rp_error *err)
{
    rp_match *m;
    int viewer;
    if (field_match(req, &m, err) < 0 || field_shown_viewer(req, m, &viewer, err) < 0)
        return NULL;
    cJSON *o = answer_ok();
    add_viewer(o, "viewer", viewer);
    cJSON_AddItemToObject(o, "view", raw_item(rp_match_view(m, viewer, false, NULL)));
    return o;
}

/* The legal moves, told only to the seat to act (they can name that seat's hidden cards). */
static cJSON *op_legal(const cJSON *req, rp_error *err)
{
    rp_match *m;
    int viewer;
    if (field_match(req, &m, err) < 0 || field_shown_viewer(req, m, &viewer, err) < 0)
        return NULL;
    cJSON *o = answer_ok();
    const bool to_act = rp_match_to_move(m) == viewer;
    cJSON_AddItemToObject(o, "legal",
                          to_act ? raw_item(rp_match_legal_json(m, NULL)) : cJSON_CreateArray());
    return o;
}

/* The events of history entry `entry` (default: the last move) told to `viewer`. */
static cJSON *op_events(const cJSON *req, rp_error *err)
{
    rp_match *m;
    int viewer;
    long long entry;
    if (field_match(req, &m, err) < 0 || field_shown_viewer(req, m, &viewer, err) < 0)
        return NULL;
    const size_t length = rp_match_length(m);
    long long last = -1;
    for (size_t i = 0; i < length; i++)
        if (rp_match_entry(m, i).kind == RP_ENTRY_MOVE)
            last = (long long)i;
    if (rw_field_int(req, "entry", false, last, 0, (long long)length - 1, &entry, err) < 0)
        return NULL;
    if (entry < 0 || rp_match_entry(m, (size_t)entry).kind != RP_ENTRY_MOVE) {
        rp_fail(err, RP_EINVAL, "no move there to tell");
        return NULL;
    }
    char *events = rp_match_events(m, (size_t)entry, viewer, err);
    if (!events)
        return NULL;
    cJSON *o = answer_ok();
    cJSON_AddItemToObject(o, "events", raw_item(events));
    return o;
}

/* The referee's notation: refused while an unfinished game against the AI keeps secrets. */
static cJSON *op_state(const cJSON *req, rp_error *err)
{
    rp_match *m;
    if (field_match(req, &m, err) < 0)
        return NULL;
    char text[RP_STATE_TEXT];
    if (rp_match_position_text(m, text, sizeof text, err) < 0)
        return NULL;
    cJSON *o = answer_ok();
    cJSON_AddStringToObject(o, "state", text);
    return o;
}

static cJSON *op_record(const cJSON *req, rp_error *err)
{
    rp_match *m;
    if (field_match(req, &m, err) < 0)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) {
        rp_fail(err, RP_ENOMEM, "out of memory for a record");
        return NULL;
    }
    int rc = rp_record_write(m, out);
    fclose(out);
    if (rc < 0) {
        free(text);
        rp_fail(err, RP_EIO, "the record could not be written");
        return NULL;
    }
    cJSON *o = answer_ok();
    cJSON_AddStringToObject(o, "record", text);
    free(text);
    return o;
}

/* ---- moves ---- */

/* What the last move did: who made it, its id and notation (`text`: the referee's), and its
 * events told to the request's "viewer" when given. */
static cJSON *move_answer(const rp_match *m, const cJSON *req, int seat, rp_action action,
                          const char *text, rp_error *err)
{
    cJSON *o = answer_ok();
    cJSON_AddNumberToObject(o, "seat", seat);
    cJSON_AddNumberToObject(o, "action", action);
    cJSON_AddStringToObject(o, "text", text);
    int viewer;
    if (cJSON_GetObjectItemCaseSensitive(req, "viewer") &&
        field_viewer(req, "viewer", m, 0, &viewer, err) == RP_OK) {
        char *events = rp_match_events(m, rp_match_length(m) - 1, viewer, err);
        cJSON_AddItemToObject(o, "events", events ? raw_item(events) : cJSON_CreateArray());
    }
    return o;
}

/* The move requested (a notation, or an action id) as an action of m: the match's own checks
 * refuse what is not legal, with the game's reason. */
static int requested_action(const rp_match *m, const cJSON *move, rp_action *out, rp_error *err)
{
    if (cJSON_IsString(move))
        return rp_match_parse(m, move->valuestring, out, err);
    const double id = cJSON_IsNumber(move) ? move->valuedouble : -1;
    if (id < 0 || id >= (double)rp_match_game(m)->num_actions || id != (double)(rp_action)id)
        return rp_fail(err, RP_EINVAL, "'move' must be a move's notation or an action id");
    *out = (rp_action)id;
    return RP_OK;
}

/* {"move": "notation"} or {"move": action id}; the viewer is checked before anything is
 * played, so a bad request changes nothing. */
static cJSON *op_play(const cJSON *req, rp_error *err)
{
    rp_match *m;
    int viewer;
    if (field_match(req, &m, err) < 0 || field_shown_viewer(req, m, &viewer, err) < 0)
        return NULL;
    const int seat = rp_match_to_move(m);
    rp_action action;
    if (requested_action(m, cJSON_GetObjectItemCaseSensitive(req, "move"), &action, err) < 0 ||
        rp_match_play(m, action, err) < 0)
        return NULL;
    char text[RP_ACTION_TEXT] = "";
    rp_match_move_text(m, rp_match_length(m) - 1, seat, text, sizeof text, NULL);
    return move_answer(m, req, seat, action, text, err);
}

/* The AI playing the seat to act (or "spec") chooses and plays its move. */
static cJSON *op_genmove(const cJSON *req, rp_error *err)
{
    rp_match *m;
    const char *spec;
    int viewer;
    if (field_match(req, &m, err) < 0 || rw_field_text(req, "spec", false, NULL, &spec, err) < 0 ||
        field_shown_viewer(req, m, &viewer, err) < 0)
        return NULL;
    rp_genmove g;
    if (rp_match_genmove(m, spec, 0, &g, err) < 0)
        return NULL;
    cJSON *o = move_answer(m, req, g.seat, g.action, g.text, err);
    cJSON_AddNumberToObject(o, "win_chance", g.info.win_chance);
    cJSON_AddNumberToObject(o, "iterations", (double)g.info.iterations);
    return o;
}

/* The AI's suggestion for the seat to act, not played: as the terminal's `hint`. */
static cJSON *op_hint(const cJSON *req, rp_error *err)
{
    rp_match *m;
    const char *spec;
    long long seed;
    if (field_match(req, &m, err) < 0 ||
        rw_field_text(req, "spec", false, "hard", &spec, err) < 0 ||
        rw_field_int(req, "seed", false, 1, 0, (1LL << 53), &seed, err) < 0)
        return NULL;
    if (rp_match_over(m)) {
        rp_fail(err, RP_EOVER, "the game is over");
        return NULL;
    }
    /* The AI's advice to an AI's seat would tell what it holds. */
    if (!rp_match_may_show(m, rp_match_to_move(m))) {
        rp_fail(err, RP_EINVAL, "hints are for the human seats");
        return NULL;
    }
    rp_genmove g;
    if (rp_match_choose(m, spec, 0, (uint64_t)seed, &g, err) < 0)
        return NULL;
    cJSON *o = answer_ok();
    cJSON_AddNumberToObject(o, "action", g.action);
    cJSON_AddStringToObject(o, "text", g.text);
    cJSON_AddNumberToObject(o, "win_chance", g.info.win_chance);
    return o;
}

/* The review of one seat's moves (docs/review.md): of a match (`match`) or a record's text
 * (`record`); a game still going only for a human seat's own past moves against the computer,
 * as the server allows. The answer is the review's JSON itself. */
static cJSON *op_review(const cJSON *req, rp_error *err)
{
    const cJSON *record = cJSON_GetObjectItemCaseSensitive(req, "record");
    rp_match *m = NULL, *loaded = NULL;
    if (record)
        m = loaded = field_record(req, err);
    else if (field_match(req, &m, err) < 0)
        return NULL;
    long long seat;
    const char *level, *budget;
    cJSON *answer = NULL;
    if (m && rw_field_int(req, "seat", true, 0, 0, RP_MAX_PLAYERS - 1, &seat, err) == RP_OK &&
        rw_field_text(req, "level", false, "hard", &level, err) == RP_OK &&
        rw_field_text(req, "budget", false, "", &budget, err) == RP_OK &&
        rp_review_allowed(m, (int)seat, err) == RP_OK) {
        const rp_review_opts opts = {.level = level, .budget = budget};
        char *text = rp_review_json(m, (int)seat, &opts, err);
        answer = text ? cJSON_Parse(text) : NULL;
        if (text && !answer)
            rp_fail(err, RP_ENOMEM, "out of memory for the review");
        free(text);
    }
    rp_match_free(loaded);
    return answer;
}

/* The referee's undo (the text protocol's): the last move back exactly. */
static cJSON *op_undo(const cJSON *req, rp_error *err)
{
    rp_match *m;
    if (field_match(req, &m, err) < 0 || rp_match_undo(m, err) < 0)
        return NULL;
    return match_info(handle_of(m), m);
}

/* A human's fair undo (the terminal's): see rp_match_undo_fair. */
static cJSON *op_undo_fair(const cJSON *req, rp_error *err)
{
    rp_match *m;
    long long seat, seed;
    if (field_match(req, &m, err) < 0 ||
        rw_field_int(req, "seat", true, 0, 0, RP_MAX_PLAYERS - 1, &seat, err) < 0 ||
        rw_field_int(req, "seed", true, 0, 0, (1LL << 53), &seed, err) < 0)
        return NULL;
    size_t taken = 0;
    if (rp_match_undo_fair(m, (int)seat, (uint64_t)seed, &taken, err) < 0)
        return NULL;
    cJSON *o = match_info(handle_of(m), m);
    cJSON_AddNumberToObject(o, "taken", (double)taken);
    return o;
}

/* On resuming a saved game against the AI: everything the human could not see is dealt anew
 * (rp_match_deal_unseen), as the terminal's `play --resume` does, so nothing read from the
 * saved record holds. */
static cJSON *op_deal_unseen(const cJSON *req, rp_error *err)
{
    rp_match *m;
    long long seed;
    bool dealt = false;
    if (field_match(req, &m, err) < 0 ||
        rw_field_int(req, "seed", true, 0, 0, (1LL << 53), &seed, err) < 0 ||
        rp_match_deal_unseen(m, (uint64_t)seed, &dealt, err) < 0)
        return NULL;
    cJSON *o = match_info(handle_of(m), m);
    cJSON_AddBoolToObject(o, "dealt", dealt);
    return o;
}

static cJSON *op_resign(const cJSON *req, rp_error *err)
{
    rp_match *m;
    long long seat;
    if (field_match(req, &m, err) < 0 ||
        rw_field_int(req, "seat", true, 0, 0, RP_MAX_PLAYERS - 1, &seat, err) < 0 ||
        rp_match_resign(m, (int)seat, err) < 0)
        return NULL;
    return match_info(handle_of(m), m);
}

/* {"op": "sample", "match", "viewer", "seed"}: one world drawn from that seat's view of the
 * match (rp_match_sample), as the server draws an online game's `sample`, so the offline page's
 * coach previews moves as the online one does (docs/wasm.md); refused for a seat whose cards
 * stay hidden. With "game" and "state" in place of "match": preview.c's. */
static cJSON *op_sample(const cJSON *req, rp_error *err)
{
    if (!cJSON_GetObjectItemCaseSensitive(req, "match"))
        return rw_op_sample(req, err);
    rp_match *m;
    int viewer;
    long long seed = 0;
    if (field_match(req, &m, err) < 0 || field_shown_viewer(req, m, &viewer, err) < 0 ||
        rw_field_int(req, "seed", true, 0, 0, (1LL << 53) - 1, &seed, err) < 0)
        return NULL;
    char text[RP_STATE_TEXT];
    if (rp_match_sample(m, viewer, (uint64_t)seed, text, sizeof text, err) < 0)
        return NULL;
    cJSON *o = answer_ok();
    cJSON_AddStringToObject(o, "state", text);
    return o;
}

/* ---- the table of operations and the exported calls ---- */

typedef struct operation {
    const char *name;
    cJSON *(*run)(const cJSON *req, rp_error *err);
} operation;

static const operation operations[] = {
    {"games", op_games},
    {"rules", op_rules},
    {"new", op_new},
    {"load_record", op_load_record},
    {"free", op_free},
    {"info", op_info},
    {"view", op_view},
    {"legal", op_legal},
    {"events", op_events},
    {"state", op_state},
    {"record", op_record},
    {"play", op_play},
    {"genmove", op_genmove},
    {"hint", op_hint},
    {"review", op_review},
    {"undo", op_undo},
    {"undo_fair", op_undo_fair},
    {"deal_unseen", op_deal_unseen},
    {"resign", op_resign},
    {"preview", rw_op_preview},
    {"sample", op_sample},
    {"bench", rw_op_bench},
    {"bench_ai", rw_op_bench_ai},
};

static cJSON *dispatch(const cJSON *req, rp_error *err)
{
    const char *name;
    if (!cJSON_IsObject(req)) {
        rp_fail(err, RP_EPARSE, "a request is a JSON object such as {\"op\": \"games\"}");
        return NULL;
    }
    if (rw_field_text(req, "op", true, NULL, &name, err) < 0)
        return NULL;
    for (size_t i = 0; i < sizeof operations / sizeof operations[0]; i++)
        if (strcmp(operations[i].name, name) == 0)
            return operations[i].run(req, err);
    rp_fail(err, RP_EINVAL, "no operation '%s'", name);
    return NULL;
}

void *rw_alloc(size_t size)
{
    return malloc(size ? size : 1);
}

void rw_free(void *p)
{
    free(p);
}

char *rw_call(const char *request)
{
    rp_error err = {{0}};
    cJSON *req = cJSON_Parse(request);
    cJSON *answer = req ? dispatch(req, &err) : NULL;
    if (!req)
        rp_fail(&err, RP_EPARSE, "the request is not JSON");
    if (!answer) {
        answer = cJSON_CreateObject();
        cJSON_AddStringToObject(answer, "error", err.msg[0] ? err.msg : "refused");
    }
    char *text = cJSON_PrintUnformatted(answer);
    cJSON_Delete(answer);
    cJSON_Delete(req);
    return text;
}
