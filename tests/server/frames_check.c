/* frames_check.c — the hidden-information check of the server tests: given a finished game's
 * record (as the server publishes it) and every frame each seat and the spectator received
 * (JSON lines {"viewer", "game", "frame"}), replay the record through the engine and check
 * that each frame shows exactly what that viewer may see at that ply: the view is the game's
 * view_json for that viewer, the events of each move are its events_json for that viewer, the
 * legal list goes only to the seat to act, a move's notation only to its player, the seed
 * only once the game is over and matching the commitment; and that no name from the
 * viewer's secret_names at that moment appears as a string value in any frame at all (the
 * events of a move: no name secret both before and after it).
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

/* ---- leaks: secret names in any string value of any frame ---- */

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

typedef struct scan {
    const replay *r;
    long line;
    int viewer;
    size_t ply;
    const cJSON *frame;
} scan;

static void scan_string(const scan *sc, const char *value, const char *secrets)
{
    char copy[16384];
    snprintf(copy, sizeof copy, "%s", secrets);
    char *save = NULL;
    for (char *name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
        checked++;
        const char *at = find_word(value, name, strlen(name));
        if (at)
            fail(sc->line, "viewer %d at ply %zu is sent the secret name '%s': ...%.80s",
                 sc->viewer, sc->ply, name, at > value + 40 ? at - 40 : value);
    }
}

/* Fields whose values are vocabulary (message types, game ids, event and action kinds,
 * statuses), not names of cards: a game id such as "king-of-danger" may also be a card. */
static bool vocabulary(const char *key)
{
    static const char *const keys[] = {"t",  "type", "game",   "title",     "kind", "status",
                                       "re", "code", "reason", "seat_name", NULL};
    for (int i = 0; key && keys[i]; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

/* Every string value under node (object keys and vocabulary fields are not names). The
 * events of a move are held to the secrets of that move. */
static void scan_json(const scan *sc, const cJSON *node, const char *secrets)
{
    if (cJSON_IsString(node)) {
        scan_string(sc, node->valuestring, secrets);
        return;
    }
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
        if (cJSON_IsString(child) && vocabulary(child->string))
            continue;
        if (child->string && strcmp(child->string, "sample") == 0 && node == sc->frame)
            continue; /* a world drawn for the seat: check_sample holds it to the view */
        bool events = is_move && child->string && strcmp(child->string, "events") == 0;
        scan_json(sc, child, events ? move_secrets : secrets);
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
    scan_json(&sc, frame, secrets);
    free(secrets);
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
        if (cJSON_IsString(t) && cJSON_IsNumber(game) &&
            game->valuedouble == game_item->valuedouble &&
            (strcmp(t->valuestring, "snapshot") == 0 || strcmp(t->valuestring, "update") == 0)) {
            check_state(line, &r, f, viewer, &current_ply[slot]);
            seen[slot] = true;
            if (current_ply[slot] > last_ply[slot])
                last_ply[slot] = current_ply[slot];
        }
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
    return failures ? 1 : 0;
}
