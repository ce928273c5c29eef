/* frames_check.c — the hidden-information check of the server tests: given a finished game's
 * record (as the server publishes it) and every frame each seat and the spectator received
 * (JSON lines {"viewer", "game", "frame"}), replay the record through the engine and check
 * that each frame shows exactly what that viewer may see at that ply: the view is the game's
 * view_json for that viewer, the events of each move are its events_json for that viewer, the
 * legal list goes only to the seat to act, a move's notation only to its player, the seed
 * only once the game is over and matching the commitment; that each frame of a `history` reply
 * is that viewer's view and events at its own ply; that no name from the viewer's
 * secret_names at that moment appears anywhere in any frame (the events of a move: no name
 * secret both before and after it), in any spelling the client shows it, as a string, an
 * object key, a card given as data or a vocabulary field outside its vocabulary; and that a
 * frame of this game carries only the protocol's fields for its type.
 * usage: server_frames_check RECORD FRAMES   (exit 0 when every frame passes)
 *        server_frames_check --secrets RECORD VIEWER   (each ply and the names secret to
 *        VIEWER there, one line each: for tests that the check can fail) */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "ramparts/engine.h"
#include "ramparts/json.h"

#define MAX_REPORTED 25

static int failures;
static long checked;

static void fail(long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void fail(long line, const char *fmt, ...)
{
    if (++failures > MAX_REPORTED)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "frames line %ld: ", line);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

typedef struct replay {
    rp_match *m;      /* the record as the engine reads and verifies it */
    rp_action *moves; /* the moves, read again from the record's move lines */
    size_t num_moves;
    rp_state *states; /* states[k]: before move k; states[num_moves]: the end */
    char commitment[65];
} replay;

/* The moves of a record that rp_record_read accepted, with the states between them: every
 * line that is neither a header nor a comment is a move, played from the start position.
 * (Read here rather than from the match's history, whose layout is the engine's own.) */
static int read_moves(replay *r, FILE *in)
{
    const rp_game *g = rp_match_game(r->m);
    char line[RP_STATE_TEXT + 64];
    size_t cap = 0;
    rp_state st;
    rp_match_referee(r->m, 0, &st, NULL); /* the start: a test may read the referee's state */
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *text = line;
        while (*text == ' ' || *text == '\t')
            text++;
        if (!*text || *text == '#' || *text == '[')
            continue;
        rp_action a;
        rp_error err = {{0}};
        if (rp_parse_move(g, &st, text, &a, &err) < 0) {
            fprintf(stderr, "move %zu '%s': %s\n", r->num_moves + 1, text, err.msg);
            return -1;
        }
        if (r->num_moves == cap) {
            cap = cap ? cap * 2 : 256;
            rp_action *grown = realloc(r->moves, cap * sizeof *grown);
            if (!grown)
                return -1;
            r->moves = grown;
        }
        r->moves[r->num_moves++] = a;
        g->apply(&st, a);
    }
    return 0;
}

static void replay_free(replay *r)
{
    free(r->states);
    free(r->moves);
    rp_match_free(r->m);
}

/* Reads and replays the record at path; on failure everything is freed. */
static int load(replay *r, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    rp_error err = {{0}};
    r->m = rp_record_read(in, path, &err);
    if (!r->m) {
        fclose(in);
        fprintf(stderr, "the record does not replay: %s\n", err.msg);
        return -1;
    }
    rewind(in);
    int rc = read_moves(r, in);
    fclose(in);
    if (rc >= 0)
        r->states = calloc(r->num_moves + 1, sizeof *r->states);
    if (rc < 0 || !r->states) {
        replay_free(r);
        return -1;
    }
    const rp_game *g = rp_match_game(r->m);
    rp_match_referee(r->m, 0, &r->states[0], NULL);
    for (size_t i = 0; i < r->num_moves; i++) {
        rp_state_copy(g, &r->states[i + 1], &r->states[i]);
        g->apply(&r->states[i + 1], r->moves[i]);
    }
    rs_seed_commitment(rp_match_config(r->m)->seed, r->commitment);
    return 0;
}

static bool same_json(const cJSON *a, const cJSON *b)
{
    return cJSON_Compare(a, b, true);
}

/* The path of the first difference between two JSON values, written to path. */
static void first_difference(const cJSON *a, const cJSON *b, char *path, size_t size)
{
    size_t n = strlen(path);
    if (!a || !b || (a->type & 0xFF) != (b->type & 0xFF) ||
        !(cJSON_IsObject(a) || cJSON_IsArray(a)))
        return;
    if (cJSON_IsArray(a) && cJSON_GetArraySize(a) != cJSON_GetArraySize(b)) {
        snprintf(path + n, size - n, " (lengths %d and %d)", cJSON_GetArraySize(a),
                 cJSON_GetArraySize(b));
        return;
    }
    int i = 0;
    const cJSON *x;
    cJSON_ArrayForEach (x, a) {
        const cJSON *y = cJSON_IsArray(a) ? cJSON_GetArrayItem(b, i)
                                          : cJSON_GetObjectItemCaseSensitive(b, x->string);
        if (!cJSON_Compare(x, y, true)) {
            if (cJSON_IsArray(a))
                snprintf(path + n, size - n, "[%d]", i);
            else
                snprintf(path + n, size - n, ".%s%s", x->string, y ? "" : " (missing)");
            first_difference(x, y, path, size);
            return;
        }
        i++;
    }
    if (cJSON_IsObject(a))
        snprintf(path + n, size - n, " (an extra field in the sent value)");
}

/* As a client reads it: printed and parsed back (a game may build numbers as raw text). */
static cJSON *normalized(cJSON *value)
{
    if (!value)
        return NULL;
    char *text = cJSON_PrintUnformatted(value);
    cJSON_Delete(value);
    cJSON *parsed = text ? cJSON_Parse(text) : NULL;
    free(text);
    return parsed;
}

static void compare(long line, const char *what, const cJSON *got, cJSON *expected)
{
    expected = normalized(expected);
    checked++;
    if (!same_json(got, expected)) {
        char path[512] = "";
        first_difference(got, expected, path, sizeof path);
        fail(line, "%s differs at %s", what, path[0] ? path : "the top");
        char *g = got ? cJSON_PrintUnformatted(got) : NULL;
        char *e = expected ? cJSON_PrintUnformatted(expected) : NULL;
        if (failures <= 3)
            fprintf(stderr, "  sent:     %.1500s\n  expected: %.1500s\n", g ? g : "(none)",
                    e ? e : "(none)");
        free(g);
        free(e);
    }
    cJSON_Delete(expected);
}

/* A move cause (in an update, a snapshot's "missed" or its "last"), told to viewer. */
static void check_move(long line, const replay *r, const cJSON *cause, int viewer)
{
    const rp_game *g = rp_match_game(r->m);
    const cJSON *ply_item = cJSON_GetObjectItemCaseSensitive(cause, "ply");
    if (!cJSON_IsNumber(ply_item) || ply_item->valuedouble < 0 ||
        ply_item->valuedouble >= (double)r->num_moves) {
        fail(line, "a move cause without a ply of the record");
        return;
    }
    const size_t ply = (size_t)ply_item->valuedouble;
    const rp_state *before = &r->states[ply];
    const rp_action action = r->moves[ply];
    const int seat = g->current_player(before);
    const cJSON *seat_item = cJSON_GetObjectItemCaseSensitive(cause, "seat");
    checked++;
    if (!cJSON_IsNumber(seat_item) || (int)seat_item->valuedouble != seat)
        fail(line, "move %zu: seat is not %d", ply, seat);
    const cJSON *move = cJSON_GetObjectItemCaseSensitive(cause, "move");
    checked++;
    if (viewer == seat) {
        char text[RP_ACTION_TEXT];
        g->action_to_text(before, action, text, sizeof text);
        if (!cJSON_IsString(move) || strcmp(move->valuestring, text) != 0)
            fail(line, "move %zu: its player is not told its notation '%s'", ply, text);
    } else if (move) {
        fail(line, "move %zu: viewer %d is told the notation of seat %d's move", ply, viewer, seat);
    }
    cJSON *events = rp_events_cjson(g, before, action, viewer, NULL);
    compare(line, "events", cJSON_GetObjectItemCaseSensitive(cause, "events"),
            events ? events : cJSON_CreateNull());
}

/* ---- leaks: secret names in any value of any frame, in every spelling a client shows ---- */

/* A name appears as a whole word: not inside a longer name. */
static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_';
}

static const char *find_word(const char *text, const char *word, size_t len)
{
    for (const char *p = text; (p = strstr(p, word)); p++) {
        bool starts = p == text || !name_char(p[-1]);
        bool ends = !name_char(p[len]);
        if (starts && ends)
            return p;
    }
    return NULL;
}

/* The names `viewer` may not learn at ply k, space-separated with spaces around, so " X "
 * finds a whole name (malloc'ed); NULL when they do not fit. */
static char *secrets_at(const replay *r, size_t ply, int viewer)
{
    char names[16384];
    if (rp_match_game(r->m)->secret_names(&r->states[ply], viewer, names, sizeof names) < 0)
        return NULL;
    char *out = malloc(strlen(names) + 3);
    if (out)
        sprintf(out, " %s ", names);
    return out;
}

/* Names secret both before and after move p: what the events of that move must not name (a
 * card seen before the move, or turned up by it, may be named; one discarded face down after
 * being seen is not a secret to this viewer). */
static void secrets_of_move(const replay *r, size_t p, int viewer, char *out, size_t size)
{
    char *before = secrets_at(r, p, viewer), *after = secrets_at(r, p + 1, viewer);
    size_t n = 0;
    out[0] = ' ';
    out[1] = '\0';
    n = 1;
    char *save = NULL;
    for (char *w = before ? strtok_r(before, " ", &save) : NULL; w;
         w = strtok_r(NULL, " ", &save)) {
        char key[256];
        snprintf(key, sizeof key, " %s ", w);
        if (after && strstr(after, key) && n + strlen(w) + 2 < size)
            n += (size_t)sprintf(out + n, "%s ", w);
    }
    free(before);
    free(after);
}

/* A text as the checker compares it: lower case, apostrophes dropped, so the client's
 * display spellings ("Walls 1", "Dru'hid", "Queen of spades") meet the names' spellings. */
static void folded(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 1 < size; p++) {
        if (*p == '\'')
            continue;
        if (p[0] == 0xE2 && p[1] == 0x80 && p[2] == 0x99) { /* a typographic apostrophe */
            p += 2;
            continue;
        }
        out[n++] = (char)tolower(*p);
    }
    out[n] = '\0';
}

#define MAX_SPELLINGS 3

/* The spellings of a secret name a client can show, folded: the id ("walls-1"), its words
 * ("walls 1": the King of Danger and Danger at the Walls titles "Walls 1", "Cannon 5", "King
 * of Danger" fold to it) and a playing card's words ("QS": "queen of spades", as Walls and
 * Armies shows it). Returns how many. */
static int spellings(const char *name, char out[MAX_SPELLINGS][96])
{
    int k = 0;
    folded(name, out[k++], 96);
    if (strchr(name, '-')) {
        folded(name, out[k], 96);
        for (char *p = out[k]; *p; p++)
            if (*p == '-')
                *p = ' ';
        k++;
    }
    const size_t len = strlen(out[0]);
    const char *suits = "cdhs", *suit_words[] = {"clubs", "diamonds", "hearts", "spades"};
    const char *suit = len >= 2 && len <= 3 ? strchr(suits, out[0][len - 1]) : NULL;
    if (suit && *suit) {
        char rank[4];
        snprintf(rank, sizeof rank, "%.*s", (int)(len - 1), out[0]);
        const char *word = strcmp(rank, "j") == 0   ? "jack"
                           : strcmp(rank, "q") == 0 ? "queen"
                           : strcmp(rank, "k") == 0 ? "king"
                           : strcmp(rank, "a") == 0 ? "ace"
                                                    : rank;
        if (isdigit((unsigned char)word[0]) || strlen(word) > 1)
            snprintf(out[k++], 96, "%s of %s", word, suit_words[suit - suits]);
    }
    return k;
}

/* ---- the fields each frame of this game may carry (docs/server-protocol.md) ---- */

/* Per message type, its fields: a field not listed fails, naming it, so nothing rides in a
 * field the checker does not look at. Messages of this game only (a frame whose `game` is the
 * one checked); other messages (the lobby, seeks, challenges...) are scanned for secrets
 * alone, so a new message type needs no entry here unless it carries this game's `game`. */
static const char *const frame_fields[][40] = {
    {"snapshot", "t",       "game",      "v",
     "ply",      "status",  "type",      "title",
     "rated",    "allowed", "options",   "clock",
     "seats",    "you",     "to_move",   "view",
     "legal",    "sample",  "seed_hash", "seed",
     "offers",   "result",  "chat",      "chat_channel",
     "chat_on",  "invites", "missed",    "missed_truncated",
     "last",     "id",      NULL},
    {"update",    "t",       "game",   "v",      "ply",   "status",  "type", "title", "rated",
     "allowed",   "options", "clock",  "seats",  "you",   "to_move", "view", "legal", "sample",
     "seed_hash", "seed",    "offers", "result", "cause", "id",      NULL},
    {"chat", "t", "game", "channel", "from", "at", "text", "id", NULL},
    {"chat-switch", "t", "game", "on", "by", NULL},
    {"presence", "t", "game", "seats", "spectators", NULL},
    {"ack", "t", "game", "ply", "dup", "id", NULL},
    {"error", "t", "code", "message", "re", "game", "v", "ply", "id", NULL},
    {"rematch", "t", "game", "rematch", "by", NULL},
    {"hint", "t", "game", "ply", "move", "id", NULL},
    {"history", "t", "game", "viewer", "ply", "from", "frames", "more", "id", NULL},
    {"created", "t", "game", "invites", "id", NULL},
    {"joined", "t", "game", "seat", "id", NULL},
    {"left", "t", "game", "id", NULL},
    {"closed", "t", "game", "id", NULL},
    {"done", "t", "re", "game", "id", "logged_out", NULL},
    {"paired", "t", "game", "seat", "seek", "challenge", NULL},
};

/* The fields of the objects inside a snapshot or update. */
static const char *const inner_fields[][24] = {
    {"cause", "kind", "seat", "ply", "v", "move", "events", NULL},
    {"result", "reason", "text", "returns", NULL},
    {"clock", "kind", "initial_ms", "increment_ms", "per_move_ms", "days", "remaining_ms",
     "running", NULL},
    {"seats", "seat", "seat_name", "kind", "name", "level", "connected", "gone_ms", "rating", NULL},
    {"offers", "draw", "takeback", NULL},
    {"allowed", "draw", "takeback", NULL},
};

/* Words that a field holds as vocabulary (a game id "king-of-danger" may also name a card):
 * what the protocol (docs/server-protocol.md) and this game's engine use there. A value of a
 * vocabulary field outside its vocabulary is scanned like any other text. */
typedef struct vocab {
    char (*words)[128]; /* "key=value" */
    size_t n, cap;
} vocab;

static vocab vocabulary_words;
/* The object keys the engine uses in every viewer's view (a table such as Rush the Wall's
 * strengths names every warrior, secret or not): not names told to anyone. */
static vocab engine_keys;

static void vocab_add(vocab *v, const char *key, const char *value)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 256;
        char(*grown)[128] = realloc(v->words, v->cap * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        v->words = grown;
    }
    snprintf(v->words[v->n++], 128, "%s=%s", key, value);
}

static bool vocab_has(const vocab *v, const char *key, const char *value)
{
    char want[128];
    snprintf(want, sizeof want, "%s=%s", key, value);
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->words[i], want) == 0)
            return true;
    return false;
}

static const char *const vocabulary_keys[] = {"t",      "type",  "game", "title",  "kind",
                                              "status", "re",    "code", "reason", "seat_name",
                                              "why",    "level", NULL};

static bool is_vocabulary_key(const char *key)
{
    for (int i = 0; key && vocabulary_keys[i]; i++)
        if (strcmp(key, vocabulary_keys[i]) == 0)
            return true;
    return false;
}

/* Every vocabulary field's string value under node, as this game's engine writes it. */
static void collect_engine_words(const cJSON *node)
{
    const cJSON *child;
    cJSON_ArrayForEach (child, node) {
        if (cJSON_IsString(child) && is_vocabulary_key(child->string) &&
            !vocab_has(&vocabulary_words, child->string, child->valuestring))
            vocab_add(&vocabulary_words, child->string, child->valuestring);
        collect_engine_words(child);
    }
}

/* The object keys the engine or the protocol gives numbers under (counts, walls, seats, plies):
 * a number under one of them is not a card's value, so it is not paired into a name. */
static vocab number_keys, protocol_number_keys;

static void collect_number_keys(const cJSON *node)
{
    const cJSON *child;
    cJSON_ArrayForEach (child, node) {
        if (child->string && cJSON_IsNumber(child) && !vocab_has(&number_keys, "", child->string))
            vocab_add(&number_keys, "", child->string);
        collect_number_keys(child);
    }
}

static void collect_keys(const cJSON *node, vocab *into)
{
    const cJSON *child;
    cJSON_ArrayForEach (child, node) {
        if (child->string && !vocab_has(into, "", child->string))
            vocab_add(into, "", child->string);
        collect_keys(child, into);
    }
}

/* The protocol's words and the engine's: the event and action kinds this game emits over the
 * record (for every viewer), the seat names, every game's id and title (the lobby lists them). */
static void build_vocabulary(const replay *r)
{
    static const char *const protocol[] = {
        /* message types */
        "t=welcome", "t=registered", "t=logged-out", "t=pong", "t=created", "t=joined", "t=left",
        "t=closed", "t=ack", "t=done", "t=snapshot", "t=update", "t=presence", "t=chat", "t=lobby",
        "t=rematch", "t=hint", "t=seeking", "t=paired", "t=challenged", "t=challenge",
        "t=challenge-gone", "t=mine", "t=error", "t=chat-switch",
        /* chat channels (issue 49) */
        "channel=players", "channel=spectators", "chat_channel=players", "chat_channel=spectators",
        /* statuses, cause, seat and clock kinds, result reasons */
        "status=open", "status=live", "status=over", "status=aborted", "kind=join", "kind=leave",
        "kind=start", "kind=move", "kind=resign", "kind=draw-offer", "kind=draw-decline",
        "kind=draw", "kind=takeback-offer", "kind=takeback-accept", "kind=takeback-decline",
        "kind=takeback", "kind=flag", "kind=claim", "kind=abort", "kind=expire", "kind=human",
        "kind=ai", "kind=open", "kind=invite", "kind=reserved", "kind=none", "kind=live",
        "kind=correspondence", "reason=rules", "reason=resign", "reason=time", "reason=agreement",
        "reason=abandoned", "reason=aborted", "why=accepted", "why=declined", "why=cancelled",
        "why=expired",
        /* error codes */
        "code=already-identified", "code=already-offered", "code=already-registered",
        "code=already-seated", "code=already-seeking", "code=bad-clock", "code=bad-game",
        "code=bad-invite", "code=bad-json", "code=bad-login", "code=bad-message", "code=bad-name",
        "code=bad-option", "code=bad-password", "code=bad-seat", "code=bad-seats",
        "code=bad-target", "code=bad-text", "code=chat-off", "code=bad-token", "code=busy",
        "code=full", "code=game-over", "code=illegal", "code=name-taken", "code=no-identity",
        "code=no-offer", "code=no-such-challenge", "code=no-such-seek", "code=no-such-user",
        "code=not-allowed", "code=not-found", "code=not-open", "code=not-over",
        "code=not-registered", "code=not-seated", "code=not-started", "code=not-watching",
        "code=not-your-turn", "code=rate-limited", "code=refused", "code=seat-taken",
        "code=server-error", "code=stale", "code=too-large", "code=too-many", "code=unavailable",
        "code=unknown-type", "code=version", "code=wrong-password", NULL};
    for (int i = 0; protocol[i]; i++) {
        const char *eq = strchr(protocol[i], '=');
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(eq - protocol[i]), protocol[i]);
        vocab_add(&vocabulary_words, key, eq + 1);
    }
    for (int i = 0; protocol[i]; i++) /* a reply names the request it answers: `re` */
        if (strncmp(protocol[i], "t=", 2) == 0)
            vocab_add(&vocabulary_words, "re", protocol[i] + 2);
    static const char *const requests[] = {
        "hello", "register", "login",   "logout", "password",    "lobby", "create",
        "join",  "leave",    "rematch", "open",   "close",       "move",  "resign",
        "draw",  "takeback", "claim",   "chat",   "hint",        "seek",  "unseek",
        "mine",  "settings", "ping",    "mute",   "chat-switch", NULL};
    for (int i = 0; requests[i]; i++)
        vocab_add(&vocabulary_words, "re", requests[i]);
    for (int i = 0; i < rp_num_games; i++) {
        vocab_add(&vocabulary_words, "type", rp_games[i]->id);
        vocab_add(&vocabulary_words, "game", rp_games[i]->id); /* a view names its game */
        vocab_add(&vocabulary_words, "title", rp_games[i]->title);
    }
    const rp_game *g = rp_match_game(r->m);
    for (int s = 0; s < RP_MAX_PLAYERS; s++)
        if (s < g->max_players && rp_seat_name(g, s))
            vocab_add(&vocabulary_words, "seat_name", rp_seat_name(g, s));
    for (size_t ply = 0; ply < r->num_moves; ply++)
        for (int viewer = -2; viewer < g->max_players; viewer++) {
            if (!rp_viewer_ok(g, &r->states[ply], viewer))
                continue;
            cJSON *events = rp_events_cjson(g, &r->states[ply], r->moves[ply], viewer, NULL);
            collect_engine_words(events);
            collect_number_keys(events);
            cJSON_Delete(events);
        }
    for (size_t ply = 0; ply <= r->num_moves; ply++) {
        cJSON *legal =
            g->current_player(&r->states[ply]) < 0 ? NULL : rp_legal_cjson(g, &r->states[ply]);
        collect_engine_words(legal);
        collect_number_keys(legal);
        cJSON_Delete(legal);
        for (int viewer = -2; viewer < g->max_players; viewer++) {
            if (!rp_viewer_ok(g, &r->states[ply], viewer))
                continue;
            cJSON *view = g->json->view(&r->states[ply], viewer);
            collect_number_keys(view);
            cJSON_Delete(view);
        }
    }
    /* Keys in every viewer's view at the start: the game's fixed tables. */
    vocab first = {0};
    int viewers = 0;
    for (int viewer = -2; viewer < g->max_players; viewer++) {
        if (!rp_viewer_ok(g, &r->states[0], viewer))
            continue;
        cJSON *view = g->json->view(&r->states[0], viewer);
        vocab mine = {0};
        collect_keys(view, &mine);
        cJSON_Delete(view);
        if (viewers++ == 0) {
            first = mine;
            continue;
        }
        size_t kept = 0; /* the intersection, in place */
        for (size_t i = 0; i < first.n; i++)
            if (vocab_has(&mine, "", first.words[i] + 1))
                memmove(first.words[kept++], first.words[i], sizeof first.words[i]);
        first.n = kept;
        free(mine.words);
    }
    engine_keys = first;
    for (size_t i = 0; i < sizeof frame_fields / sizeof frame_fields[0]; i++)
        for (int j = 1; frame_fields[i][j]; j++)
            vocab_add(&number_keys, "", frame_fields[i][j]),
                vocab_add(&protocol_number_keys, "", frame_fields[i][j]);
    for (size_t i = 0; i < sizeof inner_fields / sizeof inner_fields[0]; i++)
        for (int j = 1; inner_fields[i][j]; j++)
            vocab_add(&number_keys, "", inner_fields[i][j]),
                vocab_add(&protocol_number_keys, "", inner_fields[i][j]);
}

typedef struct scan {
    const replay *r;
    long line;
    int viewer;
    size_t ply;
    const cJSON *frame;
} scan;

/* Fails when the folded text holds a secret name in any of its spellings, as a whole word
 * (where = "a string", "an object key"...). */
static void scan_text(const scan *sc, const char *where, const char *value, const char *secrets)
{
    char text[8192], copy[16384];
    folded(value, text, sizeof text);
    snprintf(copy, sizeof copy, "%s", secrets);
    char *save = NULL;
    for (char *name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
        char spelled[MAX_SPELLINGS][96];
        const int k = spellings(name, spelled);
        for (int i = 0; i < k; i++) {
            checked++;
            const char *at = find_word(text, spelled[i], strlen(spelled[i]));
            if (at) {
                fail(sc->line, "viewer %d at ply %zu is sent the secret name '%s' in %s: ...%.80s",
                     sc->viewer, sc->ply, name, where, value);
                return;
            }
        }
    }
}

/* Fails when two scalars of one object, or a number and its key, spell a secret together: a card given as data,
 * {"kind":"walls","value":1} or {"walls":1} for "walls-1", {"rank":"Q","suit":"S"} or
 * {"rank":12,...} for "QS". */
static void scan_pairs(const scan *sc, const cJSON *object, const char *secrets, bool engine)
{
    /* Inside the engine's output a number under one of its keys is a count, a wall, a seat; a
     * number under such a key anywhere else has no business there and pairs like any other. */
    const vocab *counts = engine ? &number_keys : &protocol_number_keys;
    char lower[16384];
    folded(secrets, lower, sizeof lower);
    const cJSON *a, *b;
    cJSON_ArrayForEach (a, object) {
        const bool number = cJSON_IsNumber(a) && !(a->string && vocab_has(counts, "", a->string));
        if (!cJSON_IsString(a) && !number)
            continue;
        /* the pairs: a's value with each other scalar's, and a number with its own key */
        cJSON_ArrayForEach (b, object) {
            const bool b_number =
                cJSON_IsNumber(b) && !(b->string && vocab_has(counts, "", b->string));
            if (b == a ? !number || !a->string : !cJSON_IsString(b) && !b_number)
                continue;
            char head[96], tail[96];
            if (b == a)
                snprintf(head, sizeof head, "%.90s", a->string);
            else if (cJSON_IsString(a))
                snprintf(head, sizeof head, "%.90s", a->valuestring);
            else
                snprintf(head, sizeof head, "%g", a->valuedouble);
            if (cJSON_IsString(b) && b != a)
                snprintf(tail, sizeof tail, "%.90s", b->valuestring);
            else
                snprintf(tail, sizeof tail, "%g", b->valuedouble);
            for (int j = 0; j < 2; j++) {
                char joined[200], text[200], key[208];
                snprintf(joined, sizeof joined, j ? "%s%s" : "%s-%s", head, tail);
                folded(joined, text, sizeof text);
                snprintf(key, sizeof key, " %s ", text);
                checked++;
                if (strlen(text) > 1 && strstr(lower, key)) {
                    char *o = cJSON_PrintUnformatted(object);
                    fail(sc->line, "viewer %d at ply %zu is sent the secret '%s' as data%s: %.200s",
                         sc->viewer, sc->ply, text, b == a ? " (a key and a number)" : "",
                         o ? o : "");
                    free(o);
                    return;
                }
            }
        }
    }
}

/* Every value under node: strings, object keys (but the engine's fixed tables' keys), pairs
 * of scalars that spell a card, and vocabulary fields outside their vocabulary. The events
 * of a move are held to the secrets of that move. */
static void scan_json(const scan *sc, const cJSON *node, const char *secrets, bool engine)
{
    if (cJSON_IsString(node)) {
        scan_text(sc, "a string", node->valuestring, secrets);
        return;
    }
    if (cJSON_IsObject(node))
        scan_pairs(sc, node, secrets, engine);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(node, "kind");
    const cJSON *ply = cJSON_GetObjectItemCaseSensitive(node, "ply");
    const bool is_move = cJSON_IsObject(node) && cJSON_IsString(kind) &&
                         strcmp(kind->valuestring, "move") == 0 && cJSON_IsNumber(ply) &&
                         ply->valuedouble >= 0 && ply->valuedouble < (double)sc->r->num_moves;
    char move_secrets[16384];
    if (is_move)
        secrets_of_move(sc->r, (size_t)ply->valuedouble, sc->viewer, move_secrets,
                        sizeof move_secrets);
    const cJSON *child;
    cJSON_ArrayForEach (child, node) {
        if (child->string && strcmp(child->string, "sample") == 0 && node == sc->frame)
            continue; /* a world drawn for the seat: check_sample holds it to the view */
        bool events = is_move && child->string && strcmp(child->string, "events") == 0;
        const char *held = events ? move_secrets : secrets;
        /* The engine's output: the view, the events of a move, the legal moves. */
        const bool inside = engine || (child->string && (strcmp(child->string, "view") == 0 ||
                                                         strcmp(child->string, "events") == 0 ||
                                                         strcmp(child->string, "legal") == 0));
        if (child->string && !(inside && vocab_has(&engine_keys, "", child->string)))
            scan_text(sc, "an object key", child->string, held);
        if (cJSON_IsString(child) && is_vocabulary_key(child->string)) {
            char where[96];
            snprintf(where, sizeof where, "the vocabulary field '%.60s'", child->string);
            if (!vocab_has(&vocabulary_words, child->string, child->valuestring))
                scan_text(sc, where, child->valuestring, held);
            continue;
        }
        scan_json(sc, child, held, inside);
    }
}

static void check_secrets(long line, const replay *r, const cJSON *frame, int viewer, size_t ply)
{
    const rp_game *g = rp_match_game(r->m);
    if (!g->secret_names) {
        if (g->flags & RP_HIDDEN_INFO)
            fail(line, "%s has hidden information but no secret_names: cannot check leaks", g->id);
        return;
    }
    char *secrets = secrets_at(r, ply, viewer);
    if (!secrets) {
        fail(line, "secret_names does not fit");
        return;
    }
    scan sc = {r, line, viewer, ply, frame};
    scan_json(&sc, frame, secrets, false);
    free(secrets);
}

/* A `history` reply (issue 42): each frame is the viewer's view after its ply, with the events of
 * the move that led there as that viewer was told them (no notation: the replay's frames), and
 * nothing in a frame is secret to the viewer at that frame's own ply (an earlier ply's view may
 * show a card the viewer no longer sees now). */
static void check_history(long line, const replay *r, const cJSON *f, int viewer)
{
    const rp_game *g = rp_match_game(r->m);
    const cJSON *who = cJSON_GetObjectItemCaseSensitive(f, "viewer");
    checked++;
    if (viewer >= 0 ? !cJSON_IsNumber(who) || (int)who->valuedouble != viewer
                    : !cJSON_IsString(who) || strcmp(who->valuestring, "spectator") != 0)
        fail(line, "a history names another viewer than %d", viewer);
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(f, "frames");
    if (!cJSON_IsArray(frames)) {
        fail(line, "a history without frames");
        return;
    }
    const cJSON *fr;
    cJSON_ArrayForEach (fr, frames) {
        const cJSON *ply_item = cJSON_GetObjectItemCaseSensitive(fr, "ply");
        if (!cJSON_IsNumber(ply_item) || ply_item->valuedouble < 0 ||
            ply_item->valuedouble > (double)r->num_moves) {
            fail(line, "a history frame without a ply of the record");
            continue;
        }
        const size_t ply = (size_t)ply_item->valuedouble;
        compare(line, "history view", cJSON_GetObjectItemCaseSensitive(fr, "view"),
                g->json->view(&r->states[ply], viewer));
        if (ply > 0) {
            const rp_state *before = &r->states[ply - 1];
            const cJSON *seat = cJSON_GetObjectItemCaseSensitive(fr, "seat");
            checked++;
            if (!cJSON_IsNumber(seat) || (int)seat->valuedouble != g->current_player(before))
                fail(line, "history ply %zu: seat is not %d", ply, g->current_player(before));
            cJSON *events = rp_events_cjson(g, before, r->moves[ply - 1], viewer, NULL);
            compare(line, "history events", cJSON_GetObjectItemCaseSensitive(fr, "events"),
                    events ? events : cJSON_CreateNull());
        }
        /* The events are held to the secrets of their move, as an update's cause is. */
        cJSON *copy = cJSON_Duplicate(fr, true);
        cJSON *events = cJSON_DetachItemFromObjectCaseSensitive(copy, "events");
        if (events && ply > 0) {
            cJSON *cause = cJSON_AddObjectToObject(copy, "cause");
            cJSON_AddStringToObject(cause, "kind", "move");
            cJSON_AddNumberToObject(cause, "ply", (double)(ply - 1));
            cJSON_AddItemToObject(cause, "events", events);
        } else {
            cJSON_Delete(events);
        }
        check_secrets(line, r, copy, viewer, ply);
        cJSON_Delete(copy);
    }
}

static bool listed(const char *const *fields, const char *key)
{
    for (int i = 1; fields[i]; i++)
        if (strcmp(fields[i], key) == 0)
            return true;
    return false;
}

static void check_inner(long line, const char *name, const cJSON *value)
{
    for (size_t i = 0; i < sizeof inner_fields / sizeof inner_fields[0]; i++) {
        if (strcmp(inner_fields[i][0], name) != 0)
            continue;
        const cJSON *item;
        if (cJSON_IsArray(value)) {
            cJSON_ArrayForEach (item, value)
                check_inner(line, name, item); /* seats: each one */
            return;
        }
        const cJSON *field;
        cJSON_ArrayForEach (field, value) {
            checked++;
            if (!listed(inner_fields[i], field->string))
                fail(line, "an unknown field '%s' in '%s'", field->string, name);
        }
    }
}

static void check_fields(long line, const cJSON *f)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(f, "t");
    if (!cJSON_IsString(t)) {
        fail(line, "a frame without a type");
        return;
    }
    for (size_t i = 0; i < sizeof frame_fields / sizeof frame_fields[0]; i++) {
        if (strcmp(frame_fields[i][0], t->valuestring) != 0)
            continue;
        const cJSON *field;
        cJSON_ArrayForEach (field, f) {
            checked++;
            if (!listed(frame_fields[i], field->string))
                fail(line, "an unknown field '%s' in a '%s' frame", field->string, t->valuestring);
            check_inner(line, field->string, field);
        }
        const cJSON *m;
        cJSON_ArrayForEach (m, cJSON_GetObjectItemCaseSensitive(f, "missed"))
            check_inner(line, "cause", m);
        check_inner(line, "cause", cJSON_GetObjectItemCaseSensitive(f, "last"));
        return;
    }
    fail(line, "a '%s' frame of this game, a message the checker does not know", t->valuestring);
}

/* The `sample` of the seat to act: a state it cannot tell from the real one (its view there is
 * the real view), whose generator is not the real one (so it foretells no draw). That it is
 * drawn from the view alone is the games' determinize property (tests/support.c). */
static void check_sample(long line, const replay *r, const cJSON *sample, int viewer,
                         const rp_state *st, int to_move)
{
    const rp_game *g = rp_match_game(r->m);
    checked++;
    if (to_move < 0 || to_move != viewer) {
        fail(line, "viewer %d is sent a sample, not being the seat to act", viewer);
        return;
    }
    rp_state world;
    rp_error err = {{0}};
    if (!cJSON_IsString(sample) || g->state_from_text(&world, sample->valuestring, &err) < 0) {
        fail(line, "the sample is not a state's notation: %s", err.msg);
        return;
    }
    cJSON *seen = g->json->view(&world, viewer);
    compare(line, "the sample's view", seen, g->json->view(st, viewer));
    cJSON_Delete(seen);
    char real[RP_STATE_TEXT];
    g->state_to_text(st, real, sizeof real);
    if ((g->flags & (RP_CHANCE | RP_HIDDEN_INFO)) && strcmp(real, sample->valuestring) == 0)
        fail(line, "the sample is the real state");
}

static void check_state(long line, const replay *r, const cJSON *f, int viewer, size_t *ply_out)
{
    const rp_game *g = rp_match_game(r->m);
    const cJSON *ply_item = cJSON_GetObjectItemCaseSensitive(f, "ply");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(f, "status");
    if (!cJSON_IsNumber(ply_item) || ply_item->valuedouble < 0 ||
        ply_item->valuedouble > (double)r->num_moves || !cJSON_IsString(status)) {
        fail(line, "a state without a ply of the record or a status");
        return;
    }
    const size_t ply = (size_t)ply_item->valuedouble;
    *ply_out = ply;
    const rp_state *st = &r->states[ply];
    const bool started =
        strcmp(status->valuestring, "live") == 0 || strcmp(status->valuestring, "over") == 0;
    cJSON *you = viewer >= 0 ? cJSON_CreateNumber(viewer) : cJSON_CreateNull();
    compare(line, "you", cJSON_GetObjectItemCaseSensitive(f, "you"), you);
    if (started)
        compare(line, "view", cJSON_GetObjectItemCaseSensitive(f, "view"),
                g->json->view(st, viewer));
    const int to_move = strcmp(status->valuestring, "live") == 0 ? g->current_player(st) : -1;
    compare(line, "to_move", cJSON_GetObjectItemCaseSensitive(f, "to_move"),
            to_move >= 0 ? cJSON_CreateNumber(to_move) : cJSON_CreateNull());
    const cJSON *legal = cJSON_GetObjectItemCaseSensitive(f, "legal");
    if (to_move >= 0 && to_move == viewer)
        compare(line, "legal", legal, rp_legal_cjson(g, st));
    else if (legal)
        fail(line, "viewer %d is sent a legal list at ply %zu, not its turn", viewer, ply);
    const cJSON *sample = cJSON_GetObjectItemCaseSensitive(f, "sample");
    if (sample)
        check_sample(line, r, sample, viewer, st, to_move);
    checked++;
    if (started) {
        const cJSON *hash = cJSON_GetObjectItemCaseSensitive(f, "seed_hash");
        if (!cJSON_IsString(hash) || strcmp(hash->valuestring, r->commitment) != 0)
            fail(line, "seed_hash does not commit to the record's seed");
    }
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(f, "seed");
    checked++;
    if (seed && strcmp(status->valuestring, "over") != 0)
        fail(line, "the seed is sent while the game is %s", status->valuestring);
    char seed_text[24];
    snprintf(seed_text, sizeof seed_text, "%" PRIu64, rp_match_config(r->m)->seed);
    if (seed && (!cJSON_IsString(seed) || strcmp(seed->valuestring, seed_text) != 0))
        fail(line, "the seed is not the record's %s in decimal text", seed_text);
    const cJSON *cause = cJSON_GetObjectItemCaseSensitive(f, "cause");
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(cause, "kind");
    if (cJSON_IsString(kind) && strcmp(kind->valuestring, "move") == 0)
        check_move(line, r, cause, viewer);
    /* A snapshot's last move: the move just before its state, told as its update told it. */
    const cJSON *last = cJSON_GetObjectItemCaseSensitive(f, "last");
    const cJSON *last_ply = cJSON_GetObjectItemCaseSensitive(last, "ply");
    if (last &&
        (!cJSON_IsNumber(last_ply) || ply == 0 || last_ply->valuedouble != (double)(ply - 1)))
        fail(line, "the last move is not the move before ply %zu", ply);
    else if (last)
        check_move(line, r, last, viewer);
    else if (ply > 0 &&
             strcmp(cJSON_GetObjectItemCaseSensitive(f, "t")->valuestring, "snapshot") == 0)
        fail(line, "a snapshot at ply %zu without its last move", ply);
    const cJSON *missed = cJSON_GetObjectItemCaseSensitive(f, "missed");
    const cJSON *m;
    cJSON_ArrayForEach (m, missed)
        check_move(line, r, m, viewer);
}

static int print_secrets(const char *record, const char *viewer_text)
{
    replay r = {0};
    if (load(&r, record) < 0)
        return 1;
    int viewer = (int)strtol(viewer_text, NULL, 10);
    for (size_t ply = 0; rp_match_game(r.m)->secret_names && ply <= r.num_moves; ply++) {
        char *names = secrets_at(&r, ply, viewer);
        printf("%zu%s\n", ply, names ? names : " ?");
        free(names);
    }
    replay_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--secrets") == 0)
        return print_secrets(argv[2], argv[3]);
    if (argc != 3) {
        fprintf(stderr, "usage: server_frames_check RECORD FRAMES\n"
                        "       server_frames_check --secrets RECORD VIEWER\n");
        return 2;
    }
    rs_auth_init();
    replay r = {0};
    if (load(&r, argv[1]) < 0)
        return 1;
    build_vocabulary(&r);
    FILE *in = fopen(argv[2], "r");
    if (!in) {
        fprintf(stderr, "cannot open %s\n", argv[2]);
        replay_free(&r);
        return 1;
    }
    size_t current_ply[RP_MAX_PLAYERS + 3] = {0}; /* per viewer + 2 */
    size_t last_ply[RP_MAX_PLAYERS + 3] = {0};
    bool seen[RP_MAX_PLAYERS + 3] = {false};
    char *buf = NULL;
    size_t cap = 0;
    long line = 0, frames = 0;
    while (getline(&buf, &cap, in) > 0) {
        line++;
        cJSON *entry = cJSON_Parse(buf);
        const cJSON *viewer_item = cJSON_GetObjectItemCaseSensitive(entry, "viewer");
        const cJSON *game_item = cJSON_GetObjectItemCaseSensitive(entry, "game");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(entry, "frame");
        int viewer = cJSON_IsNumber(viewer_item) ? (int)viewer_item->valuedouble : -99;
        cJSON *f = cJSON_IsString(text) ? cJSON_Parse(text->valuestring) : NULL;
        if (!f || !cJSON_IsNumber(game_item) ||
            !rp_viewer_ok(rp_match_game(r.m), &r.states[0], viewer)) {
            fail(line, "not a frame line");
            cJSON_Delete(entry);
            cJSON_Delete(f);
            continue;
        }
        frames++;
        const int slot = viewer + 2;
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(f, "t");
        const cJSON *game = cJSON_GetObjectItemCaseSensitive(f, "game");
        if (cJSON_IsNumber(game) && game->valuedouble == game_item->valuedouble)
            check_fields(line, f);
        if (cJSON_IsString(t) && cJSON_IsNumber(game) &&
            game->valuedouble == game_item->valuedouble &&
            (strcmp(t->valuestring, "snapshot") == 0 || strcmp(t->valuestring, "update") == 0)) {
            check_state(line, &r, f, viewer, &current_ply[slot]);
            seen[slot] = true;
            if (current_ply[slot] > last_ply[slot])
                last_ply[slot] = current_ply[slot];
        }
        if (cJSON_IsString(t) && strcmp(t->valuestring, "history") == 0)
            check_history(line, &r, f, viewer);
        else
            check_secrets(line, &r, f, viewer, current_ply[slot]);
        cJSON_Delete(f);
        cJSON_Delete(entry);
    }
    free(buf);
    fclose(in);
    for (int slot = 0; slot < RP_MAX_PLAYERS + 3; slot++)
        if (seen[slot] && last_ply[slot] != r.num_moves)
            fail(0, "viewer %d never saw the last ply %zu (saw up to %zu)", slot - 2, r.num_moves,
                 last_ply[slot]);
    printf("%s: %ld frames, %ld checks, %d failures, %zu moves\n", rp_match_game(r.m)->id, frames,
           checked, failures, r.num_moves);
    replay_free(&r);
    free(vocabulary_words.words);
    free(engine_keys.words);
    free(number_keys.words);
    free(protocol_number_keys.words);
    return failures ? 1 : 0;
}
