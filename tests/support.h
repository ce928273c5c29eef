/* support.h — shared helpers for the CTest suite: cmocka includes, property-run sizes, and
 * generic checks every game must pass (notation round trips, views that leak nothing). */
#ifndef RP_TEST_SUPPORT_H
#define RP_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ramparts/game.h"
#include "ramparts/json.h"

#ifdef __clang_analyzer__
/* The static analyzer reads one file at a time and does not know that a failed cmocka check
 * never returns, so it follows paths past a failed assert_non_null(p) and reports p's use. The
 * checks fail through _fail, whose exit_test longjmps out of the running test (or aborts, or
 * exits). Tell the analyzer so, as game.h does for rp_fail: the checks keep their conditions,
 * only the analyzer sees these definitions, and the compiled tests call cmocka as before. */
__attribute__((noreturn)) void _fail(const char *const file, const int line);
#define _assert_true(result, expression, file, line) ((result) ? (void)0 : _fail((file), (line)))
#define _assert_int_equal(a, b, file, line) ((a) == (b) ? (void)0 : _fail((file), (line)))
#define _assert_int_not_equal(a, b, file, line) ((a) != (b) ? (void)0 : _fail((file), (line)))
#endif

/* How many random games a property run plays, given its full size (RP_TEST_SOAK_GAMES for each
 * game's property run, a game and player count): RAMPARTS_PROPERTY_GAMES when set; the full
 * size under RAMPARTS_SOAK=1 (`make soak`, which CI runs too); else at most
 * RP_TEST_QUICK_GAMES, so `make test` stays within minutes on 2 cores. The full size was 10,000
 * until CI had to stay under 45 minutes (issue 40): 6,000 saved about two CPU-minutes. */
#define RP_TEST_QUICK_GAMES 150
#define RP_TEST_SOAK_GAMES 6000
int rp_test_games(int full);

/* A state of `game` set up with `options` ("players=3 seed=4", may be NULL); fails the test
 * on error. */
void rp_test_init(const rp_game *game, void *st, const char *options);

/* The deal of `game` with `options` made twice: as it is, and while a draw list records every
 * draw (the generator's values, one rp_rng_below at a time: a game's fast shuffles, unrolled
 * copies of rp_rng_shuffle_u8, give way to it then). Fails the test unless the two states are
 * byte for byte the same; returns how many draws were recorded (at most 64). */
int rp_test_init_draws_agree(const rp_game *game, const char *options);

/* Load a full-state notation into st; fails the test on error. */
void rp_test_load(const rp_game *game, void *st, const char *text);

/* Play the action written `move` (must parse and be legal); fails the test otherwise. */
void rp_test_play(const rp_game *game, void *st, const char *move);

/* True when `move` parses and is legal in st. */
bool rp_test_is_legal(const rp_game *game, const void *st, const char *move);

/* The cheap half of rp_test_check_step: legal actions distinct, in range, with round-tripping
 * notation and data forms; full-state notation round-tripping to identical bytes; state_ok. */
void rp_test_check_notation(const rp_game *game, const void *st);

/* The costly half: for every player (and the spectator, in games that tell events),
 * determinizing leaves that viewer's view (as JSON) and screen and, for the player to act, the
 * legal actions unchanged, and depends only on that view; events pass rp_test_check_events. */
void rp_test_check_views(const rp_game *game, const void *st, rp_rng *rng);

/* The generic per-step checks of a property run, at state st (not over):
 * legal actions distinct, in range, with round-tripping notation; full-state notation
 * round-trips to identical bytes; for every player, determinizing leaves that player's view
 * and (for the player to act) the legal actions unchanged. */
void rp_test_check_step(const rp_game *game, const void *st, rp_rng *rng);

/* Play one uniformly random legal action in st (not over). */
void rp_test_random_step(const rp_game *game, void *st, rp_rng *rng);

/* Events of a random legal action of st told to viewer (a seat or RP_SPECTATOR): every event
 * has a kind and a text, names only cards the viewer's view shows before or after, and equals
 * the events of the same observed action in `sample` (st determinized for viewer) whenever
 * the viewer's views afterwards are equal too. */
void rp_test_check_events(const rp_game *game, const void *st, const void *sample, int viewer,
                          rp_rng *rng);

/* Every legal action as data has a kind, its id and its notation (when the game has
 * action_json). */
void rp_test_check_actions_json(const rp_game *game, const void *st);

/* state_ok accepts st (when the game has it). */
void rp_test_check_state_ok(const rp_game *game, const void *st);

/* Returns of a finished game are shares in [0,1] summing to 1. */
void rp_test_check_returns(const rp_game *game, const void *st);

#endif
