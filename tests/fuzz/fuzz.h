/* fuzz.h — what the libFuzzer targets of tests/fuzz share: the entry point, a contract check
 * that aborts with the broken promise (libFuzzer keeps the input that did it), the input as a
 * C string, and the game a per-game target was built for (-DRP_FUZZ_GAME="castle-danger").
 * The same targets build without libFuzzer (replay.c) to rerun the corpus inside `make test`. */
#ifndef RP_FUZZ_H
#define RP_FUZZ_H

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/game.h"
#include "ramparts/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs longer than this are skipped: every parser refuses far shorter texts by length. */
#define FUZZ_MAX_INPUT ((size_t)4 * RP_STATE_TEXT)

_Noreturn static inline void fuzz_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

_Noreturn static inline void fuzz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: contract broken: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* Abort with the promise that failed, printf-style, unless cond holds. */
#define FUZZ_CHECK(cond, ...) ((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, __VA_ARGS__))

/* The input as a C string (it ends at the first NUL byte); the caller frees it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL, "out of memory for the input");
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* A generator seeded by the input, so a run depends only on it. */
static inline void fuzz_rng(rp_rng *rng, const uint8_t *data, size_t size)
{
    uint64_t hash = 1469598103934665603u;
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ data[i]) * 1099511628211u;
    rp_rng_seed(rng, hash, 11);
}

#ifdef RP_FUZZ_GAME
/* The game this target was built for. */
static inline const rp_game *fuzz_game(void)
{
    const rp_game *game = rp_game_find(RP_FUZZ_GAME);
    FUZZ_CHECK(game != NULL, "no game %s", RP_FUZZ_GAME);
    return game;
}
#endif

/* The contract every state of a game keeps, whatever way it was reached (loaded from text,
 * from a card file, by play): its invariants hold; its notation is one line that loads back to
 * the same bytes; the legal list is empty exactly when the game is over and every action on it
 * round-trips through its notation and has a data form; every viewer's view is JSON, and
 * determinizing for a viewer keeps that view. */
static inline void fuzz_check_state(const rp_game *game, const void *st, rp_rng *rng)
{
    rp_error err = {{0}};
    if (game->state_ok)
        FUZZ_CHECK(game->state_ok(st, &err) == RP_OK, "%s: state_ok refuses: %s", game->id,
                   err.msg);
    char text[RP_STATE_TEXT];
    const int len = game->state_to_text(st, text, sizeof text);
    FUZZ_CHECK(len > 0 && (size_t)len < sizeof text && !strchr(text, '\n'),
               "%s: the state has no one-line notation", game->id);
    rp_state back;
    memset(&back, 0xA5, sizeof back);
    FUZZ_CHECK(game->state_from_text(&back, text, &err) == RP_OK, "%s: '%s' does not load: %s",
               game->id, text, err.msg);
    FUZZ_CHECK(memcmp(&back, st, game->state_size) == 0, "%s: '%s' loads as another state",
               game->id, text);

    rp_action legal[RP_MAX_LEGAL];
    const int n = game->legal_actions(st, legal);
    const bool over = game->current_player(st) == RP_TERMINAL;
    FUZZ_CHECK(n >= 0 && n <= RP_MAX_LEGAL && (n == 0) == over,
               "%s: %d legal actions in a state that is %s", game->id, n,
               over ? "over" : "not over");
    for (int i = 0; i < n; i++) {
        char move[RP_ACTION_TEXT];
        rp_action again = RP_NO_ACTION;
        FUZZ_CHECK(legal[i] < game->num_actions, "%s: action %u out of range", game->id,
                   (unsigned)legal[i]);
        FUZZ_CHECK(game->action_to_text(st, legal[i], move, sizeof move) > 0 &&
                       game->action_from_text(st, move, &again, &err) == RP_OK && again == legal[i],
                   "%s: the notation of action %u does not read back", game->id,
                   (unsigned)legal[i]);
        if (game->json->action) {
            cJSON *data = game->json->action(st, legal[i]);
            FUZZ_CHECK(data != NULL, "%s: action %u has no data form", game->id,
                       (unsigned)legal[i]);
            cJSON_Delete(data);
        }
    }
    for (int viewer = RP_SPECTATOR; viewer < game->num_players(st); viewer++) {
        if (viewer == RP_TERMINAL)
            continue;
        cJSON *view = game->json->view(st, viewer);
        FUZZ_CHECK(view != NULL, "%s: no view for %d", game->id, viewer);
        rp_state sample;
        rp_state_copy(game, &sample, st);
        game->determinize(&sample, viewer, rng);
        cJSON *seen = game->json->view(&sample, viewer);
        FUZZ_CHECK(cJSON_Compare(view, seen, true), "%s: determinizing for %d changed the view",
                   game->id, viewer);
        cJSON_Delete(view);
        cJSON_Delete(seen);
    }
}

/* Play up to `moves` random legal moves from st (debug builds check state_ok after every one
 * inside apply), then check the state reached, and the returns when the game has ended. */
static inline void fuzz_play(const rp_game *game, void *st, int moves, rp_rng *rng)
{
    rp_action legal[RP_MAX_LEGAL];
    for (int m = 0; m < moves && game->current_player(st) != RP_TERMINAL; m++) {
        const int n = game->legal_actions(st, legal);
        const rp_action action = legal[rp_rng_below(rng, (uint32_t)n)];
        if (m == 0 && game->json->events) {
            cJSON *events = game->json->events(st, action, RP_SPECTATOR);
            FUZZ_CHECK(cJSON_IsArray(events), "%s: no events for a legal action", game->id);
            cJSON_Delete(events);
        }
        game->apply(st, action);
    }
    fuzz_check_state(game, st, rng);
    if (game->current_player(st) == RP_TERMINAL) {
        double returns[RP_MAX_PLAYERS] = {0}, sum = 0;
        game->returns(st, returns);
        for (int p = 0; p < game->num_players(st); p++) {
            FUZZ_CHECK(returns[p] >= 0 && returns[p] <= 1, "%s: a return out of [0, 1]", game->id);
            sum += returns[p];
        }
        FUZZ_CHECK(sum > 1 - 1e-9 && sum < 1 + 1e-9, "%s: returns sum to %g", game->id, sum);
    }
}

#endif
