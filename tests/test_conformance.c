/* test_conformance.c — checks every registered game against the interface's contract
 * (as OpenSpiel's basic tests do): random playouts end, legal lists and notations are
 * consistent, full-state notation round-trips, views survive determinizing, the same seed gives
 * the same game, and malformed notation or options are refused without changing anything; and
 * what a game copied from another must make its own (docs/adding-a-game.md), each failure
 * naming the game and the place to change.
 * Games whose rules set no end in turns (Castle Danger outside tournament play, CD-16) are
 * played up to the game's stated tool_turn_cap and counted unfinished there, as the tools do. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/ai.h"
#include "support.h"

/* The size the counts below scale with: `make soak` runs it whole, `make test` at
 * RP_TEST_QUICK_GAMES (support.h), so about a third as many games. */
#define SIZE 1000

/* AddressSanitizer's allocator calls these hooks on every allocation (declared here: gcc ships
 * no <sanitizer/allocator_interface.h>). */
#if defined(__SANITIZE_ADDRESS__)
#define RP_TEST_ALLOCATOR_HOOKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RP_TEST_ALLOCATOR_HOOKS 1
#endif
#endif
#ifdef RP_TEST_ALLOCATOR_HOOKS
int __sanitizer_install_malloc_and_free_hooks(void (*on_malloc)(const volatile void *, size_t),
                                              void (*on_free)(const volatile void *));
#endif

/* The games checked: every registered game, or only those the environment variable
 * RP_CONFORMANCE_GAMES names (ids separated by commas). scripts/mutants.py names the game whose
 * rules.c it mutated: a mutant there cannot change another game, whose property runs were most
 * of each mutant's time. */
#define MAX_CHECKED 32
static const rp_game *checked[MAX_CHECKED];
static int num_checked;

/* Fills checked[] from RP_CONFORMANCE_GAMES (every game when unset or empty); 0, or -1 after
 * saying which name is no game. */
static int choose_checked_games(void)
{
    if (rp_num_games > MAX_CHECKED) {
        fprintf(stderr, "%d games are registered: raise MAX_CHECKED (%d)\n", rp_num_games,
                MAX_CHECKED);
        return -1;
    }
    const char *names = getenv("RP_CONFORMANCE_GAMES");
    if (!names || !*names) {
        for (int g = 0; g < rp_num_games; g++)
            checked[num_checked++] = rp_games[g];
        return 0;
    }
    char copy[512];
    if (strlen(names) >= sizeof copy) {
        fprintf(stderr, "RP_CONFORMANCE_GAMES is too long (at most %zu characters)\n",
                sizeof copy - 1);
        return -1;
    }
    strcpy(copy, names);
    char *save = NULL;
    for (char *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
        const rp_game *game = rp_game_find(id);
        if (!game) {
            fprintf(stderr, "RP_CONFORMANCE_GAMES: no game '%s' (`ramparts list` names them)\n",
                    id);
            return -1;
        }
        if (num_checked == MAX_CHECKED) {
            fprintf(stderr, "RP_CONFORMANCE_GAMES names more than %d games\n", MAX_CHECKED);
            return -1;
        }
        checked[num_checked++] = game;
    }
    return 0;
}

#define MAX_STEPS 200000

/* Past the game's tool_turn_cap: the stated cap at which tests, like the tools, stop a game
 * the rules would let go on (CD-16); never for games whose rules end every game. */
static bool past_turn_cap(const rp_game *game, const void *st)
{
    return game->tool_turn_cap > 0 && game->turn_number(st) > game->tool_turn_cap;
}

/* Still to be played here: not over, and not stopped at the stated turn cap. */
static bool playing(const rp_game *game, const void *st)
{
    return game->current_player(st) != RP_TERMINAL && !past_turn_cap(game, st);
}

/* A random game ended: over by its rules (returns checked), or stopped at the turn cap. */
static void check_ended(const rp_game *game, const void *st)
{
    if (game->current_player(st) != RP_TERMINAL) {
        assert_true(past_turn_cap(game, st));
        return;
    }
    rp_action legal[RP_MAX_LEGAL];
    assert_int_equal(game->legal_actions(st, legal), 0);
    rp_test_check_returns(game, st);
    /* A game that ends drawn (every seat the same share) must say so (RP_CAN_DRAW): the
     * server lets players agree a draw only in such games. */
    double r[RP_MAX_PLAYERS] = {0};
    game->returns(st, r);
    bool drawn = game->num_players(st) > 1; /* alone, a player's whole share is no draw */
    for (int p = 1; p < game->num_players(st); p++)
        drawn &= r[p] == r[0];
    if (drawn && !(game->flags & RP_CAN_DRAW))
        fail_msg("%s ended drawn but lacks the RP_CAN_DRAW trait", game->id);
}

/* The legal actions are distinct ids below num_actions (game.h): the search keys a tree edge
 * by the action itself and gives each legal key one edge, so a repeated action would be two
 * edges of one move. `seen` holds num_actions stamps, `stamp` is new for this state. */
static void check_legal_distinct(const rp_game *game, const void *st, uint32_t *seen,
                                 uint32_t stamp)
{
    rp_action legal[RP_MAX_LEGAL];
    const int n = game->legal_actions(st, legal);
    assert_true(n >= 0 && n <= RP_MAX_LEGAL);
    for (int i = 0; i < n; i++) {
        if (legal[i] >= game->num_actions)
            fail_msg("%s: legal action %u is not below num_actions %u", game->id, legal[i],
                     game->num_actions);
        if (seen[legal[i]] == stamp)
            fail_msg("%s: legal action %u is listed twice", game->id, legal[i]);
        seen[legal[i]] = stamp;
    }
}

/* One random game with the generic per-step checks; returns its number of actions. */
static int checked_playout(const rp_game *game, uint64_t seed, const char *options)
{
    rp_state st;
    char opts[256];
    snprintf(opts, sizeof opts, "seed=%llu %s", (unsigned long long)seed, options ? options : "");
    rp_test_init(game, &st, opts);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 99);
    uint32_t *seen = calloc(game->num_actions, sizeof *seen);
    assert_non_null(seen);
    int steps = 0;
    while (playing(game, &st)) {
        assert_true(++steps < MAX_STEPS);
        rp_test_check_step(game, &st, &rng);
        check_legal_distinct(game, &st, seen, (uint32_t)steps);
        rp_test_random_step(game, &st, &rng);
    }
    free(seen);
    check_ended(game, &st);
    return steps;
}

static void test_random_games_follow_the_contract(void **unused)
{
    (void)unused;
    int games = rp_test_games(SIZE) / 50 + 1;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        assert_true(game->state_size <= RP_STATE_MAX_SIZE);
        for (int p = game->min_players; p <= game->max_players; p++) {
            char opts[32];
            snprintf(opts, sizeof opts, "players=%d", p);
            for (int i = 0; i < games; i++)
                checked_playout(game, (uint64_t)i + 1, opts);
        }
    }
}

/* Play a seeded random game and return its final state notation. */
static void final_text(const rp_game *game, uint64_t seed, char *text)
{
    rp_state st;
    char opts[64];
    snprintf(opts, sizeof opts, "seed=%llu", (unsigned long long)seed);
    rp_test_init(game, &st, opts);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 7);
    while (playing(game, &st)) {
        rp_test_random_step(game, &st, &rng);
    }
    game->state_to_text(&st, text, RP_STATE_TEXT);
}

static void test_same_seed_same_game(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        char a[RP_STATE_TEXT], b[RP_STATE_TEXT], c[RP_STATE_TEXT];
        final_text(checked[g], 42, a);
        final_text(checked[g], 42, b);
        assert_string_equal(a, b);
        final_text(checked[g], 43, c);
        assert_string_not_equal(a, c);
    }
}

static void test_garbage_state_text_is_refused(void **unused)
{
    (void)unused;
    static const char *const garbage[] = {
        "", " ", "garbage", "x;y;z", "0", "-1", "\x01\x02\x7f", ";;;;;;;;;;;;;;;;;;;;;;;;;;;;"};
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        rp_state st, before;
        rp_test_init(game, &st, "seed=5");
        rp_state_copy(game, &before, &st);
        for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
            rp_error err = {{0}};
            if (game->state_from_text(&st, garbage[i], &err) >= 0)
                fail_msg("%s accepted garbage state '%s'", game->id, garbage[i]);
            assert_true(strlen(err.msg) > 0);
            assert_memory_equal(&st, &before, game->state_size);
        }
    }
}

/* Flip characters of valid notations: a refused text changes nothing and says why; an
 * accepted one must be a sound state that round-trips and can be played to the end. */
static void test_mutated_state_text_is_refused_or_sound(void **unused)
{
    (void)unused;
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCXYZ;:,.-|/ =";
    rp_rng rng;
    rp_rng_seed(&rng, 2024, 1);
    int rounds = rp_test_games(SIZE) / 20 + 50;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        for (int r = 0; r < rounds; r++) {
            rp_state st;
            char opts[32];
            snprintf(opts, sizeof opts, "seed=%d", r);
            rp_test_init(game, &st, opts);
            int moves = (int)rp_rng_below(&rng, 60);
            for (int m = 0; m < moves && playing(game, &st); m++) {
                rp_test_random_step(game, &st, &rng);
            }
            char text[RP_STATE_TEXT];
            int len = game->state_to_text(&st, text, sizeof text);
            int flips = 1 + (int)rp_rng_below(&rng, 3);
            for (int f = 0; f < flips; f++)
                text[rp_rng_below(&rng, (uint32_t)len)] =
                    alphabet[rp_rng_below(&rng, sizeof alphabet - 1)];
            if (rp_rng_below(&rng, 4) == 0)
                text[rp_rng_below(&rng, (uint32_t)len)] = '\0';
            rp_state loaded, before;
            memset(&loaded, 0x3C, sizeof loaded);
            rp_state_copy(game, &before, &loaded);
            rp_error err = {{0}};
            if (game->state_from_text(&loaded, text, &err) < 0) {
                assert_true(strlen(err.msg) > 0);
                assert_memory_equal(&loaded, &before, game->state_size);
                continue;
            }
            rp_rng play;
            rp_rng_seed(&play, (uint64_t)r, 3);
            int steps = 0;
            while (playing(game, &loaded)) {
                assert_true(++steps < MAX_STEPS);
                rp_test_check_step(game, &loaded, &play);
                rp_test_random_step(game, &loaded, &play);
            }
            check_ended(game, &loaded);
        }
    }
}

static void test_garbage_moves_are_refused(void **unused)
{
    (void)unused;
    static const char *const garbage[] = {"",   "   ",  "fly to the moon",    "99999999999",
                                          "-3", "\x01", "end end end end end"};
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        rp_state st;
        rp_test_init(game, &st, "seed=9");
        for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
            rp_error err = {{0}};
            rp_action a;
            if (rp_parse_move(game, &st, garbage[i], &a, &err) >= 0)
                fail_msg("%s accepted the move '%s'", game->id, garbage[i]);
            assert_true(strlen(err.msg) > 0);
        }
    }
}

static void test_bad_options_are_refused(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        rp_config cfg, before;
        rp_config_default(game, &cfg);
        before = cfg;
        static const char *const bad[] = {"nonsense=1", "players=0", "players=99", "seed=-1",
                                          "seed=abc",   "noequals",  "=5"};
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            rp_error err = {{0}};
            assert_true(rp_config_set(game, &cfg, bad[i], &err) < 0);
            assert_true(strlen(err.msg) > 0);
            assert_memory_equal(&cfg, &before, sizeof cfg);
        }
        for (int o = 0; o < game->num_options; o++) {
            const rp_option_spec *spec = &game->options[o];
            char kv[128];
            rp_error err = {{0}};
            if (spec->kind == RP_OPT_INT) {
                snprintf(kv, sizeof kv, "%s=%lld", spec->name, (long long)spec->max + 1);
                assert_true(rp_config_set(game, &cfg, kv, &err) < 0);
            } else if (spec->kind == RP_OPT_CHOICE) {
                snprintf(kv, sizeof kv, "%s=not-a-choice", spec->name);
                assert_true(rp_config_set(game, &cfg, kv, &err) < 0);
            }
        }
    }
}

/* ---- legal_actions and apply never allocate ----
 * The test is linked with -Wl,--wrap for malloc and its relatives (cmake/checks.cmake), so
 * every allocation the library's code asks for passes through the counters below; in
 * AddressSanitizer builds the allocator's own hooks count the rest too (allocations inside the
 * C library on the library's behalf). Counting is on only around legal_actions and apply. */

static bool counting;
static long allocations;         /* every allocation seen while counting */
static long wrapped_allocations; /* those seen through the --wrap functions */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__real_aligned_alloc(size_t align, size_t size);
int __real_posix_memalign(void **p, size_t align, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t size);
int __wrap_posix_memalign(void **p, size_t align, size_t size);

static void count_allocation(void)
{
    if (counting)
        allocations++;
}

static void count_wrapped(void)
{
    if (counting)
        wrapped_allocations++;
    count_allocation();
}

void *__wrap_malloc(size_t size)
{
    count_wrapped();
    return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    count_wrapped();
    return __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    count_wrapped();
    return __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
    count_wrapped();
    return __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    count_wrapped();
    return __real_strndup(s, n);
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
    count_wrapped();
    return __real_aligned_alloc(align, size);
}

int __wrap_posix_memalign(void **p, size_t align, size_t size)
{
    count_wrapped();
    return __real_posix_memalign(p, align, size);
}

#ifdef RP_TEST_ALLOCATOR_HOOKS
static void on_allocate(const volatile void *p, size_t size)
{
    (void)p, (void)size;
    count_allocation();
}

static void on_free(const volatile void *p)
{
    (void)p;
}
#endif

/* The counters work: an allocation the library makes (rp_ai_create) is seen through the
 * wrapped functions, and in sanitizer builds one inside a shared library (cJSON) through the
 * allocator's hooks. */
static void test_allocation_counter_sees_allocations(void **unused)
{
    (void)unused;
    allocations = wrapped_allocations = 0;
    counting = true;
    rp_ai *ai = NULL;
    rp_error err = {{0}};
    const int rc = rp_ai_create(checked[0], "random", 1, &ai, &err);
    counting = false;
    assert_int_equal(rc, RP_OK);
    rp_ai_free(ai);
    assert_true(wrapped_allocations >= 1);
#ifdef RP_TEST_ALLOCATOR_HOOKS
    allocations = wrapped_allocations = 0;
    counting = true;
    cJSON *object = cJSON_CreateObject();
    counting = false;
    cJSON_Delete(object);
    assert_int_equal(wrapped_allocations, 0);
    assert_true(allocations >= 1);
#endif
}

/* Random games of every game and player count, counting allocations only inside
 * legal_actions and apply: there must be none (game.h: the hot path allocates nothing). */
static void test_legal_actions_and_apply_never_allocate(void **unused)
{
    (void)unused;
    const int games = rp_test_games(SIZE) / 100 + 2;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        for (int p = game->min_players; p <= game->max_players; p++) {
            for (int i = 0; i < games; i++) {
                rp_state st;
                char opts[64];
                snprintf(opts, sizeof opts, "players=%d seed=%d", p, i + 1);
                rp_test_init(game, &st, opts);
                rp_rng rng;
                rp_rng_seed(&rng, (uint64_t)i, 23);
                rp_action legal[RP_MAX_LEGAL];
                allocations = 0;
                for (int step = 0; step < MAX_STEPS; step++) {
                    counting = true;
                    const int n = game->legal_actions(&st, legal);
                    if (n > 0)
                        game->apply(&st, legal[rp_rng_below(&rng, (uint32_t)n)]);
                    counting = false;
                    if (allocations)
                        fail_msg("%s (%s): %ld allocations in legal_actions or apply at step %d",
                                 game->id, opts, allocations, step);
                    if (n == 0 || past_turn_cap(game, &st))
                        break;
                }
                check_ended(game, &st);
            }
        }
    }
}

/* ---- the optional AI hooks ---- */

/* States along seeded random games of `game`: calls check(game, st, rng) at every `every`th
 * step (not over) of `games` games for each player count. */
static void along_random_games(const rp_game *game, int games, int every,
                               void (*check)(const rp_game *, const void *, rp_rng *))
{
    for (int p = game->min_players; p <= game->max_players; p++) {
        for (int i = 0; i < games; i++) {
            rp_state st;
            char opts[64];
            snprintf(opts, sizeof opts, "players=%d seed=%d", p, 100 + i);
            rp_test_init(game, &st, opts);
            rp_rng rng;
            rp_rng_seed(&rng, (uint64_t)p * 1000 + (uint64_t)i, 31);
            for (int step = 0; playing(game, &st); step++) {
                assert_true(step < MAX_STEPS);
                if (step % every == 0)
                    check(game, &st, &rng);
                rp_test_random_step(game, &st, &rng);
            }
        }
    }
}

/* evaluate: a share of the win in [0, 1] for every seat, and the same in every state the seat
 * cannot tell apart (game.h: it only reads what that player can see). */
static void check_evaluate(const rp_game *game, const void *st, rp_rng *rng)
{
    for (int p = 0; p < game->num_players(st); p++) {
        const double value = game->evaluate(st, p);
        if (!(value >= 0.0 && value <= 1.0))
            fail_msg("%s: evaluate gives %g for seat %d", game->id, value, p);
        for (int k = 0; k < 2; k++) {
            rp_state sample;
            rp_state_copy(game, &sample, st);
            game->determinize(&sample, p, rng);
            const double seen = game->evaluate(&sample, p);
            if (seen != value) {
                char a[RP_STATE_TEXT], b[RP_STATE_TEXT];
                game->state_to_text(st, a, sizeof a);
                game->state_to_text(&sample, b, sizeof b);
                fail_msg("%s: evaluate for seat %d reads hidden parts: %.17g, and %.17g once "
                         "they are resampled\n%s\n%s",
                         game->id, p, value, seen, a, b);
            }
        }
    }
}

static void test_evaluate_is_a_share_the_player_can_know(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++)
        if (checked[g]->evaluate)
            along_random_games(checked[g], rp_test_games(SIZE) / 200 + 2, 3, check_evaluate);
}

/* determinize redraws what a seat cannot see (issue 48): consistency with the seat's view
 * (support.c) is not enough, since keeping the real hands and reordering only the decks is
 * consistent too and hands the AI and the server's `sample` the opponent's real cards. Two
 * counts per game, over many states (late in a game the unseen cards can be forced):
 *  - private: another seat q sees cards p cannot (secret_names of p holds a name q's does
 *    not); the samples for p must, in most such states, show q a view other than q's real
 *    one: q's private cards dealt anew;
 *  - unseen: at least two cards are hidden from p; the samples must, in most such states, not
 *    all be the real state again (the generator, always reseeded, left out). This covers
 *    cards hidden from everyone (Walls and Armies' face-down stacks, WA-8). */
enum { REDRAW_SAMPLES = 8 };
typedef struct {
    long states; /* situations checked */
    long frozen; /* of those, where no sample moved the hidden cards */
} redraw_count;
static redraw_count redraw_private, redraw_unseen;

static bool has_name(const char *names, const char *name)
{
    const size_t len = strlen(name);
    for (const char *at = strstr(names, name); at; at = strstr(at + 1, name))
        if ((at == names || at[-1] == ' ') && (at[len] == ' ' || at[len] == '\0'))
            return true;
    return false;
}

/* How many names `names` holds; with `others`, only those `others` does not hold. */
static int names_not_in(const char *names, const char *others)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", names);
    int n = 0;
    char *save = NULL;
    for (char *name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save))
        n += !others || !has_name(others, name);
    return n;
}

/* The full-state notation without its generator (the last field, "rng=..."). */
static void state_without_rng(const rp_game *game, const void *st, char *text, size_t size)
{
    assert_true(game->state_to_text(st, text, size) > 0);
    char *rng = strstr(text, " rng=");
    assert_non_null(rng);
    *rng = '\0';
}

static void count_private_redraw(const rp_game *game, const void *st, int p, int q, rp_rng *rng)
{
    char *real = rp_view_text(game, st, q, false);
    bool frozen = true;
    for (int k = 0; k < REDRAW_SAMPLES && frozen; k++) {
        rp_state sample;
        rp_state_copy(game, &sample, st);
        game->determinize(&sample, p, rng);
        char *seen = rp_view_text(game, &sample, q, false);
        frozen = strcmp(seen, real) == 0;
        free(seen);
    }
    free(real);
    redraw_private.states++;
    redraw_private.frozen += frozen;
}

static void count_unseen_redraw(const rp_game *game, const void *st, int p, rp_rng *rng)
{
    static char real[RP_STATE_TEXT], seen[RP_STATE_TEXT];
    state_without_rng(game, st, real, sizeof real);
    bool frozen = true;
    for (int k = 0; k < REDRAW_SAMPLES && frozen; k++) {
        rp_state sample;
        rp_state_copy(game, &sample, st);
        game->determinize(&sample, p, rng);
        state_without_rng(game, &sample, seen, sizeof seen);
        frozen = strcmp(seen, real) == 0;
    }
    redraw_unseen.states++;
    redraw_unseen.frozen += frozen;
}

static void check_determinize_redraws(const rp_game *game, const void *st, rp_rng *rng)
{
    const int players = game->num_players(st);
    static char hidden[RP_MAX_PLAYERS][4096];
    for (int p = 0; p < players; p++)
        assert_true(game->secret_names(st, p, hidden[p], sizeof hidden[p]) >= 0);
    for (int p = 0; p < players; p++) {
        if (names_not_in(hidden[p], NULL) >= 2)
            count_unseen_redraw(game, st, p, rng);
        for (int q = 0; q < players; q++)
            if (q != p && names_not_in(hidden[p], hidden[q]) > 0)
                count_private_redraw(game, st, p, q, rng);
    }
}

/* Fails when a count found too little to check (each of these games hides cards), or when
 * more than a quarter of its states kept the hidden cards in every sample. */
static void check_redraw_count(const rp_game *game, const char *what, const redraw_count *c,
                               bool must_occur)
{
    print_message("%s, %s: %ld of %ld states kept the hidden cards in all %d samples\n", game->id,
                  what, c->frozen, c->states, REDRAW_SAMPLES);
    if (must_occur && c->states < 20)
        fail_msg("%s: only %ld states with %s: the redraw check has nothing to check "
                 "(secret_names?)",
                 game->id, c->states, what);
    if (c->frozen * 4 > c->states)
        fail_msg("%s: determinize kept the hidden cards (%s) in %ld of %ld states: it must "
                 "deal what the seat cannot see anew",
                 game->id, what, c->frozen, c->states);
}

static void test_determinize_redraws_what_a_seat_cannot_see(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        if (!(game->flags & RP_HIDDEN_INFO))
            continue;
        redraw_private = redraw_unseen = (redraw_count){0, 0};
        along_random_games(game, rp_test_games(SIZE) / 250 + 1, 4, check_determinize_redraws);
        /* Walls and Armies hides its cards from every seat alike (WA-8): nothing private. */
        check_redraw_count(game, "cards another seat sees", &redraw_private,
                           strcmp(game->id, "walls-and-armies") != 0);
        check_redraw_count(game, "cards unseen", &redraw_unseen, true);
    }
}

/* What `viewer` learns from `action` in st: their view afterwards and the events told them
 * (when the game tells events), as one text (caller frees). */
static char *what_viewer_learns(const rp_game *game, const void *st, rp_action action, int viewer)
{
    rp_state after;
    rp_state_copy(game, &after, st);
    game->apply(&after, action);
    cJSON *both = cJSON_CreateArray();
    cJSON_AddItemToArray(both, game->json->view(&after, viewer));
    cJSON_AddItemToArray(both, game->json->events(st, action, viewer));
    char *text = cJSON_PrintUnformatted(both);
    cJSON_Delete(both);
    assert_non_null(text);
    return text;
}

/* observe_action: an id in range for every legal action and viewer; the player to act sees
 * their own action as it is; and two actions after which a viewer's view and events are
 * the same (the viewer cannot tell them apart) are observed the same. */
static void check_observe_action(const rp_game *game, const void *st, rp_rng *rng)
{
    (void)rng;
    rp_action legal[RP_MAX_LEGAL];
    const int n = game->legal_actions(st, legal);
    const int mover = game->current_player(st);
    char *learned[RP_MAX_LEGAL];
    for (int viewer = RP_SPECTATOR; viewer < game->num_players(st); viewer++) {
        if (viewer == RP_TERMINAL)
            continue;
        for (int i = 0; i < n; i++) {
            const rp_action seen = game->observe_action(st, legal[i], viewer);
            if (seen >= game->num_actions)
                fail_msg("%s: observe_action gives %u, out of range", game->id, (unsigned)seen);
            if (viewer == mover && seen != legal[i])
                fail_msg("%s: the player to act observes their own action %u as %u", game->id,
                         (unsigned)legal[i], (unsigned)seen);
        }
        if (viewer == mover)
            continue;
        for (int i = 0; i < n; i++)
            learned[i] = what_viewer_learns(game, st, legal[i], viewer);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (strcmp(learned[i], learned[j]) == 0 &&
                    game->observe_action(st, legal[i], viewer) !=
                        game->observe_action(st, legal[j], viewer)) {
                    char a[RP_ACTION_TEXT], b[RP_ACTION_TEXT];
                    game->action_to_text(st, legal[i], a, sizeof a);
                    game->action_to_text(st, legal[j], b, sizeof b);
                    fail_msg("%s: %s cannot tell '%s' from '%s' but observe_action tells them "
                             "apart",
                             game->id, rp_viewer_name(game, viewer), a, b);
                }
        for (int i = 0; i < n; i++)
            free(learned[i]);
    }
}

static void test_observe_action_hides_only_what_is_hidden(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++)
        if (checked[g]->observe_action)
            along_random_games(checked[g], rp_test_games(SIZE) / 500 + 1, 7, check_observe_action);
}

/* ---- the fair-play interface: required of every registered game ---- */

/* Every game implements the hooks a fair front end (the protocol, the server) relies on;
 * moves_summary, describe and the AI's evaluate and observe_action stay optional (game.h). */
static void test_every_game_has_the_fair_play_hooks(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        const struct {
            const char *name;
            bool present;
        } hooks[] = {
            {"turn_number", game->turn_number != NULL},
            {"state_ok", game->state_ok != NULL},
            {"config_of", game->config_of != NULL},
            {"json (ramparts/json.h)", game->json != NULL},
            {"json->view", game->json && game->json->view},
            {"determinize", game->determinize != NULL},
            {"render", game->render != NULL},
            {"json->action", game->json && game->json->action},
            {"json->events", game->json && game->json->events},
            {"explain_illegal", game->explain_illegal != NULL},
            {"secret_names", game->secret_names != NULL},
        };
        for (size_t h = 0; h < sizeof hooks / sizeof *hooks; h++)
            if (!hooks[h].present)
                fail_msg("%s has no %s hook", game->id, hooks[h].name);
    }
}

/* The options a state reports (config_of) as text, with a fixed seed. */
static void options_of(const rp_game *game, const void *st, char *text, size_t size)
{
    rp_config base, cfg;
    rp_config_default(game, &base);
    rp_config_of(game, st, &base, &cfg);
    assert_int_equal(cfg.players, game->num_players(st));
    assert_true(rp_config_to_text(game, &cfg, text, size) > 0);
}

/* config_of: a fixed point (a new game under the options a state reports reports the same),
 * and a state loaded from its notation reports what the state itself reports. */
static void check_config_of(const rp_game *game, const void *st)
{
    char reported[512], again[512], loaded_reports[512];
    options_of(game, st, reported, sizeof reported);
    rp_state fresh;
    rp_test_init(game, &fresh, reported);
    options_of(game, &fresh, again, sizeof again);
    assert_string_equal(reported, again);
    char text[RP_STATE_TEXT];
    assert_true(game->state_to_text(st, text, sizeof text) > 0);
    rp_state loaded;
    rp_test_load(game, &loaded, text);
    options_of(game, &loaded, loaded_reports, sizeof loaded_reports);
    assert_string_equal(reported, loaded_reports);
}

/* The string values (not the keys) anywhere inside item, as one space-separated list with
 * a space on each side, so a name is found as " name ". */
static void add_strings(const cJSON *item, char *out, size_t size)
{
    if (cJSON_IsString(item)) {
        const size_t len = strlen(out);
        snprintf(out + len, size - len, "%s ", item->valuestring);
        return;
    }
    for (const cJSON *child = item->child; child; child = child->next)
        add_strings(child, out, size);
}

/* The view names its game: "game" is the game's id (rp__view_new in the game's view.c). */
static void check_view_names_its_game(const rp_game *game, const cJSON *view, int viewer)
{
    const char *named = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(view, "game"));
    if (!named || strcmp(named, game->id) != 0)
        fail_msg("%s: %s's view names the game %s%s%s instead of %s: start it with "
                 "rp__view_new(<PFX>_ID) in src/games/%s/view.c",
                 game->id, rp_viewer_name(game, viewer), named ? "\"" : "",
                 named ? named : "nothing", named ? "\"" : "", game->id, game->id);
}

/* secret_names: no name a viewer may not learn is a value in that viewer's view; the
 * spectator's view is an object like the seats'. The "game" field is the game's name, not a
 * card's (King of Danger has a card of that name): it is checked, then left out. */
static void check_secrets_stay_out_of_views(const rp_game *game, const void *st)
{
    for (int viewer = RP_SPECTATOR; viewer < game->num_players(st); viewer++) {
        if (viewer == RP_TERMINAL)
            continue;
        char names[4096];
        const int len = game->secret_names(st, viewer, names, sizeof names);
        assert_true(len >= 0);
        cJSON *view = game->json->view(st, viewer);
        assert_true(cJSON_IsObject(view));
        check_view_names_its_game(game, view, viewer);
        cJSON_DeleteItemFromObjectCaseSensitive(view, "game");
        static char values[1 << 16];
        snprintf(values, sizeof values, " ");
        add_strings(view, values, sizeof values);
        assert_true(strlen(values) < sizeof values - 1);
        for (char *save = NULL, *name = strtok_r(names, " ", &save); name;
             name = strtok_r(NULL, " ", &save)) {
            char spaced[128];
            snprintf(spaced, sizeof spaced, " %s ", name);
            if (strstr(values, spaced))
                fail_msg("%s: %s's view shows the secret %s", game->id,
                         rp_viewer_name(game, viewer), name);
        }
        cJSON_Delete(view);
    }
}

/* explain_illegal: an action id that is not legal here gets a reason, never a crash. */
static void check_explain_illegal(const rp_game *game, const void *st, rp_rng *rng)
{
    const rp_action action = (rp_action)rp_rng_below(rng, game->num_actions);
    if (rp_is_legal(game, st, action))
        return;
    char why[256];
    rp_explain_illegal(game, st, action, why, sizeof why);
    assert_true(strlen(why) > 0);
}

/* Along random games of every game and player count: turn_number starts at 1 and never goes
 * back; state_ok holds; config_of, secret_names and explain_illegal as above. */
static void test_fair_play_hooks_along_random_games(void **unused)
{
    (void)unused;
    const int games = rp_test_games(SIZE) / 250 + 1;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        for (int p = game->min_players; p <= game->max_players; p++) {
            for (int i = 0; i < games; i++) {
                rp_state st;
                char opts[64];
                snprintf(opts, sizeof opts, "players=%d seed=%d", p, 300 + i);
                rp_test_init(game, &st, opts);
                rp_rng rng;
                rp_rng_seed(&rng, (uint64_t)p * 7000 + (uint64_t)i, 41);
                assert_int_equal(game->turn_number(&st), 1);
                int turn = 1;
                for (int step = 0; playing(game, &st); step++) {
                    assert_true(step < MAX_STEPS);
                    rp_test_check_state_ok(game, &st);
                    if (step % 5 == 0) {
                        check_config_of(game, &st);
                        check_secrets_stay_out_of_views(game, &st);
                        check_explain_illegal(game, &st, &rng);
                    }
                    rp_test_random_step(game, &st, &rng);
                    const int now = game->turn_number(&st);
                    if (now < turn)
                        fail_msg("%s (%s): turn_number went back from %d to %d", game->id, opts,
                                 turn, now);
                    turn = now;
                }
                rp_test_check_state_ok(game, &st);
                check_config_of(game, &st);
                check_secrets_stay_out_of_views(game, &st);
            }
        }
    }
}

static void test_registry_lookup(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++)
        assert_ptr_equal(rp_game_find(checked[g]->id), checked[g]);
    assert_null(rp_game_find("no-such-game"));
}

/* ---- what a copied game must make its own (docs/adding-a-game.md): each failure names the
 * game and the place to change ---- */

/* Each notation tag is the game's own: a copy that kept another game's tag would read that
 * game's positions as its own (and they as its). The game writes its tag first and refuses
 * every other game's starting position by its tag. */
static void test_each_game_has_its_own_notation_tag(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        const char *tag = game->notation_tag;
        if (!tag || !*tag || strchr(tag, ' '))
            fail_msg("%s has no notation tag: set .notation_tag (<PFX>_NOTATION_TAG in "
                     "src/games/%s/internal.h, used by its text.c)",
                     game->id, game->id);
        for (int h = 0; h < g; h++)
            if (strcmp(checked[h]->notation_tag, tag) == 0)
                fail_msg("%s and %s share the notation tag '%s', so each would read the "
                         "other's positions: give each its own (<PFX>_NOTATION_TAG in "
                         "src/games/%s/internal.h and src/games/%s/internal.h)",
                         checked[h]->id, game->id, tag, checked[h]->id, game->id);
        rp_state st;
        rp_test_init(game, &st, "seed=3");
        char text[RP_STATE_TEXT];
        assert_true(game->state_to_text(&st, text, sizeof text) > 0);
        const size_t len = strlen(tag);
        if (strncmp(text, tag, len) != 0 || text[len] != ' ')
            fail_msg("%s: state_to_text (src/games/%s/text.c) does not start with its notation "
                     "tag '%s': %.40s",
                     game->id, game->id, tag, text);
        for (int h = 0; h < num_checked; h++) {
            const rp_game *other = checked[h];
            rp_state theirs, before;
            rp_test_init(other, &theirs, "seed=3");
            assert_true(other->state_to_text(&theirs, text, sizeof text) > 0);
            rp_state_copy(game, &before, &st);
            rp_error err;
            if (other != game && game->state_from_text(&st, text, &err) == RP_OK)
                fail_msg("%s reads a position of %s (tag '%s'): its state_from_text "
                         "(src/games/%s/text.c) must refuse every tag but its own",
                         game->id, other->id, other->notation_tag, game->id);
            assert_memory_equal(&st, &before, game->state_size);
        }
    }
}

/* The names of the test programs ctest runs, from CMake's tests/test_*.c (CMakeLists.txt). */
#ifndef RP_TEST_PROGRAMS
#error "CMakeLists.txt defines RP_TEST_PROGRAMS for this test"
#endif

/* Each game has its own tests: tests/test_<id with underscores>.c, built and run by ctest. */
static void test_each_game_has_its_test_program(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        char name[96] = "test_";
        for (size_t i = 0; game->id[i] && i + 6 < sizeof name; i++)
            name[5 + i] = game->id[i] == '-' ? '_' : game->id[i];
        char listed[sizeof name + 2];
        snprintf(listed, sizeof listed, ",%s,", name);
        if (!strstr("," RP_TEST_PROGRAMS ",", listed))
            fail_msg("%s has no tests: write tests/%s.c (one test per rule and ruling, the hooks, "
                     "a property run: docs/adding-a-game.md)",
                     game->id, name);
    }
}

/* Each game has its rules for players, embedded at build time from docs/rules/<id>.md. */
static void test_each_game_has_its_rules_document(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++)
        if (!rp_game_rules(checked[g]))
            fail_msg("%s has no rules document: write docs/rules/%s.md (the rules as played "
                     "here, every ruling in full, the event kinds)",
                     checked[g]->id, checked[g]->id);
}

/* Each view says which game it is, for every seat and the spectator, the same way. */
static void test_each_game_view_names_its_game(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        for (int players = game->min_players; players <= game->max_players; players++) {
            rp_state st;
            char options[32];
            snprintf(options, sizeof options, "players=%d seed=2", players);
            rp_test_init(game, &st, options);
            for (int viewer = RP_SPECTATOR; viewer < players; viewer++) {
                if (viewer == RP_TERMINAL)
                    continue;
                cJSON *view = game->json->view(&st, viewer);
                assert_true(cJSON_IsObject(view));
                check_view_names_its_game(game, view, viewer);
                cJSON_Delete(view);
            }
        }
    }
}

/* Each AI level's budget (ai_levels) is one the search accepts. */
static void test_each_game_ai_levels_are_accepted(void **unused)
{
    (void)unused;
    static const char *const levels[4] = {"beginner", "easy", "medium", "hard"};
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        for (int level = 0; level < 4; level++) {
            rp_ai *ai = NULL;
            rp_error err = {{0}};
            if (rp_ai_create(game, levels[level], 1, &ai, &err) != RP_OK)
                fail_msg("%s: the %s level's budget \"%s\" (ai_levels in src/games/%s/game.c) "
                         "is refused: %s",
                         game->id, levels[level],
                         game->ai_levels[level] ? game->ai_levels[level] : "(generic)", game->id,
                         err.msg);
            rp_ai_free(ai);
        }
    }
}

/* A game with chance says how many outcomes its widest chance event has (explicit chance,
 * Python's OpenSpiel game); a game without says 0. test_explicit_chance.c checks the bound
 * along random games. */
static void test_each_game_states_its_chance_outcomes(void **unused)
{
    (void)unused;
    for (int g = 0; g < num_checked; g++) {
        const rp_game *game = checked[g];
        const bool chance = (game->flags & RP_CHANCE) != 0;
        if (chance != (game->max_chance_outcomes > 0))
            fail_msg("%s: %s but max_chance_outcomes is %u (src/games/%s/game.c): the largest "
                     "shuffle or draw with RP_CHANCE, 0 without",
                     game->id, chance ? "RP_CHANCE" : "no RP_CHANCE",
                     (unsigned)game->max_chance_outcomes, game->id);
    }
}

int main(void)
{
    if (choose_checked_games() < 0)
        return 2;
#ifdef RP_TEST_ALLOCATOR_HOOKS
    __sanitizer_install_malloc_and_free_hooks(on_allocate, on_free);
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocation_counter_sees_allocations),
        cmocka_unit_test(test_legal_actions_and_apply_never_allocate),
        cmocka_unit_test(test_evaluate_is_a_share_the_player_can_know),
        cmocka_unit_test(test_observe_action_hides_only_what_is_hidden),
        cmocka_unit_test(test_determinize_redraws_what_a_seat_cannot_see),
        cmocka_unit_test(test_registry_lookup),
        cmocka_unit_test(test_each_game_has_its_own_notation_tag),
        cmocka_unit_test(test_each_game_has_its_test_program),
        cmocka_unit_test(test_each_game_has_its_rules_document),
        cmocka_unit_test(test_each_game_view_names_its_game),
        cmocka_unit_test(test_each_game_ai_levels_are_accepted),
        cmocka_unit_test(test_each_game_states_its_chance_outcomes),
        cmocka_unit_test(test_every_game_has_the_fair_play_hooks),
        cmocka_unit_test(test_fair_play_hooks_along_random_games),
        cmocka_unit_test(test_bad_options_are_refused),
        cmocka_unit_test(test_garbage_moves_are_refused),
        cmocka_unit_test(test_garbage_state_text_is_refused),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_random_games_follow_the_contract),
        cmocka_unit_test(test_mutated_state_text_is_refused_or_sound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
