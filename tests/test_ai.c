/* test_ai.c — the computer players: spec parsing, determinism of the search, forced wins found,
 * per-player returns in a 3-player game, and that a hidden-information AI chooses the same move
 * in any two states its player cannot tell apart. Two tiny games written here (Nim and a
 * one-card showdown) make the checks exact; the registered games are searched too. */
#include <math.h>
#include <string.h>

#include "ai/oracle.h"
#include "ai/think_time.h"
#include "ramparts/ai.h"
#include "support.h"

/* ---- Nim: take 1-3 stones from one pile, whoever takes the last stone wins ---- */

typedef struct nim {
    int players, to_move, pile, winner;
} nim;

static int nim_players(const void *st)
{
    return ((const nim *)st)->players;
}

static int nim_current(const void *st)
{
    const nim *s = st;
    return s->pile == 0 ? RP_TERMINAL : s->to_move;
}

static int nim_legal(const void *st, rp_action *out)
{
    const nim *s = st;
    int n = 0;
    for (int take = 1; take <= 3 && take <= s->pile; take++)
        out[n++] = (rp_action)(take - 1);
    return n;
}

static void nim_apply(void *st, rp_action action)
{
    nim *s = st;
    s->pile -= (int)action + 1;
    if (s->pile == 0)
        s->winner = s->to_move;
    s->to_move = (s->to_move + 1) % s->players;
}

static void nim_returns(const void *st, double *out)
{
    const nim *s = st;
    for (int p = 0; p < s->players; p++)
        out[p] = p == s->winner ? 1 : 0;
}

/* Nothing is hidden; greedy determinizes anyway. */
static void nim_determinize(void *st, int player, rp_rng *rng)
{
    (void)st, (void)player, (void)rng;
}

static const rp_game nim_game = {
    .id = "test-nim",
    .min_players = 2,
    .max_players = 3,
    .default_players = 2,
    .num_actions = 3,
    .state_size = sizeof(nim),
    .num_players = nim_players,
    .current_player = nim_current,
    .legal_actions = nim_legal,
    .apply = nim_apply,
    .returns = nim_returns,
    .determinize = nim_determinize,
};

/* ---- Showdown: each of two players holds one hidden card of 1..6. Seat 1 first keeps its
 * card or secretly swaps it for a random one from the deck (seat 0 only sees that it moved);
 * then seat 0 folds (and scores 0.4) or calls (the higher card wins, a tie is shared). ---- */

enum { SD_KEEP, SD_SWAP, SD_FOLD, SD_CALL, SD_ACTIONS };

typedef struct showdown {
    uint8_t card[2];
    uint8_t phase; /* 0: seat 1 to move, 1: seat 0 to move, 2: over */
    uint8_t folded;
    rp_rng rng; /* the deck's future: which card a swap draws */
} showdown;

static int sd_players(const void *st)
{
    (void)st;
    return 2;
}

static int sd_current(const void *st)
{
    const showdown *s = st;
    return s->phase == 0 ? 1 : s->phase == 1 ? 0 : RP_TERMINAL;
}

static int sd_legal(const void *st, rp_action *out)
{
    const showdown *s = st;
    if (s->phase == 2)
        return 0;
    out[0] = s->phase == 0 ? SD_KEEP : SD_FOLD;
    out[1] = s->phase == 0 ? SD_SWAP : SD_CALL;
    return 2;
}

static void sd_apply(void *st, rp_action action)
{
    showdown *s = st;
    if (action == SD_SWAP) {
        uint8_t rest[4];
        int n = 0;
        for (uint8_t c = 1; c <= 6; c++)
            if (c != s->card[0] && c != s->card[1])
                rest[n++] = c;
        s->card[1] = rest[rp_rng_below(&s->rng, (uint32_t)n)];
    }
    s->folded = action == SD_FOLD;
    s->phase++;
}

static void sd_returns(const void *st, double *out)
{
    const showdown *s = st;
    if (s->folded) {
        out[0] = 0.4;
        out[1] = 0.6;
        return;
    }
    out[0] = s->card[0] > s->card[1] ? 1 : s->card[0] < s->card[1] ? 0 : 0.5;
    out[1] = 1 - out[0];
}

/* Resample what `player` cannot see, from its view only (its card and the phase). */
static void sd_determinize(void *st, int player, rp_rng *rng)
{
    showdown *s = st;
    uint8_t rest[5];
    int n = 0;
    for (uint8_t c = 1; c <= 6; c++)
        if (c != s->card[player])
            rest[n++] = c;
    s->card[1 - player] = rest[rp_rng_below(rng, (uint32_t)n)];
    rp_rng_seed(&s->rng, rp_rng_next(rng), 17);
}

/* Seat 0 sees that seat 1 moved, not whether it swapped. */
static rp_action sd_observe(const void *st, rp_action action, int observer)
{
    const showdown *s = st;
    return s->phase == 0 && observer == 0 ? SD_KEEP : action;
}

static const rp_game showdown_game = {
    .id = "test-showdown",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = SD_ACTIONS,
    .state_size = sizeof(showdown),
    .num_players = sd_players,
    .current_player = sd_current,
    .legal_actions = sd_legal,
    .apply = sd_apply,
    .returns = sd_returns,
    .determinize = sd_determinize,
    .observe_action = sd_observe,
};

static showdown showdown_at(int mine, int theirs, int phase)
{
    showdown s;
    memset(&s, 0, sizeof s);
    s.card[0] = (uint8_t)mine;
    s.card[1] = (uint8_t)theirs;
    s.phase = (uint8_t)phase;
    rp_rng_seed(&s.rng, (uint64_t)mine * 10 + (uint64_t)theirs, 3);
    return s;
}

/* ---- helpers ---- */

static rp_action choose(const rp_game *game, const char *spec, uint64_t seed, const void *st,
                        rp_ai_info *info)
{
    rp_ai *ai = NULL;
    rp_error err = {{0}};
    if (rp_ai_create(game, spec, seed, &ai, &err) < 0)
        fail_msg("create %s: %s", spec, err.msg);
    rp_action move = RP_NO_ACTION;
    rp_ai_info local;
    if (rp_ai_choose(ai, st, &move, info ? info : &local, &err) < 0)
        fail_msg("choose %s: %s", spec, err.msg);
    assert_true(rp_is_legal(game, st, move));
    rp_ai_free(ai);
    return move;
}

/* ---- tests ---- */

static void test_valid_specs_are_accepted(void **unused)
{
    (void)unused;
    static const char *const specs[] = {
        "random",         "greedy",
        "beginner",       "easy",
        "medium",         "hard",
        "mcts:iters=100", "ismcts:ms=5,threads=2",
        "hard:threads=2", "mcts:iters=50,c=1.4,rollout=-1,nodes=5000",
        "easy:iters=10"};
    nim s = {.players = 2, .pile = 7};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        choose(&nim_game, specs[i], 1, &s, NULL);
}

static void test_bad_specs_are_refused_with_the_valid_ones(void **unused)
{
    (void)unused;
    static const char *const specs[] = {"",
                                        "foo",
                                        "mcts:iters=0",
                                        "mcts:bogus=1",
                                        "mcts:iters",
                                        "ismcts:c=abc",
                                        "hard:threads=0",
                                        "mcts:iters=10,",
                                        "greedy:iters=5",
                                        "MCTS"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        rp_ai *ai = NULL;
        rp_error err = {{0}};
        if (rp_ai_create(&nim_game, specs[i], 1, &ai, &err) >= 0)
            fail_msg("spec '%s' was accepted", specs[i]);
        assert_null(ai);
        assert_true(strlen(err.msg) > 0);
    }
    rp_ai *ai = NULL;
    rp_error err = {{0}};
    assert_int_equal(rp_ai_create(&nim_game, "foo", 1, &ai, &err), RP_EINVAL);
    assert_non_null(strstr(err.msg, "ismcts"));
    assert_non_null(strstr(err.msg, "hard"));
    assert_non_null(strstr(rp_ai_help(), "mcts"));
}

/* The help names every kind of AI, one a line with its description in one column, and each
 * name it gives is a spec that works and is named when an unknown AI is refused. */
static void test_help_lists_every_kind(void **unused)
{
    (void)unused;
    static const char *const kinds[] = {"random", "greedy", "beginner", "easy",
                                        "medium", "hard",   "mcts",     "ismcts"};
    rp_ai *ai = NULL;
    rp_error unknown = {{0}};
    assert_true(rp_ai_create(&nim_game, "no-such-ai", 1, &ai, &unknown) < 0);
    const char *line = rp_ai_help();
    size_t count = 0;
    for (; *line; count++) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        char name[16] = "";
        assert_int_equal(sscanf(line, "  %15s", name), 1);
        assert_true(count < sizeof kinds / sizeof *kinds);
        assert_string_equal(name, kinds[count]);
        assert_true(line[2 + strlen(name)] == ' ' && line[10] == ' ' && line[11] != ' ');
        nim s = {.players = 2, .pile = 5};
        choose(&nim_game, name, 1, &s, NULL);
        assert_non_null(strstr(unknown.msg, name));
        line = end + 1;
    }
    assert_int_equal(count, sizeof kinds / sizeof *kinds);
}

/* Lists of specs keep each spec's own comma-separated parameters together. */
static void test_spec_lists_split_between_specs(void **unused)
{
    (void)unused;
    char list[] = "hard,ismcts:ms=500,threads=2,greedy,mcts:iters=9";
    char *specs[4];
    assert_int_equal(rp_ai_split_specs(list, specs, 4), 4);
    assert_string_equal(specs[0], "hard");
    assert_string_equal(specs[1], "ismcts:ms=500,threads=2");
    assert_string_equal(specs[2], "greedy");
    assert_string_equal(specs[3], "mcts:iters=9");
    char too_many[] = "a,b,c";
    assert_int_equal(rp_ai_split_specs(too_many, specs, 2), -1);
    char orphan[] = "threads=2,hard";
    assert_int_equal(rp_ai_split_specs(orphan, specs, 4), -1);
}

/* With one thread, a seed and an iteration budget the move and its estimate repeat exactly. */
static void test_search_is_deterministic(void **unused)
{
    (void)unused;
    static const char *const specs[] = {"mcts:iters=3000", "ismcts:iters=3000", "hard"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        for (int pile = 5; pile <= 21; pile += 4) {
            nim s = {.players = 2, .pile = pile};
            rp_ai_info a, b;
            rp_action first = choose(&nim_game, specs[i], 77, &s, &a);
            rp_action second = choose(&nim_game, specs[i], 77, &s, &b);
            assert_int_equal(first, second);
            assert_true(a.win_chance == b.win_chance);
            assert_int_equal(a.iterations, b.iterations);
        }
        showdown sd = showdown_at(3, 5, 1);
        rp_ai_info a, b;
        assert_int_equal(choose(&showdown_game, specs[i], 5, &sd, &a),
                         choose(&showdown_game, specs[i], 5, &sd, &b));
        assert_true(a.win_chance == b.win_chance);
    }
}

/* The analysis-only oracle sees the card its player may not: in Showdown, holding 3, it calls
 * against a 1 (a sure win) and folds against a 5 (0.4 beats a sure loss), and says so in its
 * estimate; rp_ai_create refuses its name, so no player can have it (issue 29). */
static void test_oracle_sees_hidden_cards_and_only_analysis_makes_it(void **unused)
{
    (void)unused;
    const struct {
        int theirs;
        rp_action want;
        double chance;
    } cases[] = {{1, SD_CALL, 1.0}, {5, SD_FOLD, 0.4}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        showdown s = showdown_at(3, cases[i].theirs, 1);
        rp_ai *oracle = NULL;
        rp_error err = {{0}};
        assert_int_equal(rp_ai_create_oracle(&showdown_game, "", 7, &oracle, &err), RP_OK);
        assert_string_equal(rp_ai_name(oracle), RP_ORACLE_NAME);
        rp_action move;
        rp_ai_info info;
        assert_int_equal(rp_ai_choose(oracle, &s, &move, &info, &err), RP_OK);
        assert_int_equal(move, cases[i].want);
        assert_true(fabs(info.win_chance - cases[i].chance) < 0.02);
        rp_ai_free(oracle);
    }
    rp_ai *ai = NULL;
    rp_error err = {{0}};
    assert_true(rp_ai_create(&showdown_game, "oracle", 1, &ai, &err) < 0);
    assert_null(ai);
    assert_non_null(strstr(err.msg, "only inside `ramparts analyze`"));
    assert_true(rp_ai_create(&showdown_game, "oracle:iters=5", 1, &ai, &err) < 0);
    assert_true(rp_ai_create_oracle(&showdown_game, "bogus=1", 1, &ai, &err) < 0);
    assert_null(ai);
}

/* Two-player Nim from `pile` stones to its end, ai[p] choosing for seat p, every move legal;
 * frees both AIs. */
static void play_nim_to_the_end(rp_ai *ai[2], int pile)
{
    rp_error err = {{0}};
    nim s = {.players = 2, .pile = pile};
    while (nim_current(&s) != RP_TERMINAL) {
        rp_action move;
        assert_int_equal(rp_ai_choose(ai[s.to_move], &s, &move, NULL, &err), 0);
        assert_true(rp_is_legal(&nim_game, &s, move));
        nim_apply(&s, move);
    }
    rp_ai_free(ai[0]);
    rp_ai_free(ai[1]);
}

/* The same AI object keeps giving legal, repeatable answers: its arena is reused each move. */
static void test_one_ai_plays_a_whole_game_reusing_its_arena(void **unused)
{
    (void)unused;
    for (int run = 0; run < 2; run++) {
        rp_ai *ai[2];
        rp_error err = {{0}};
        assert_int_equal(rp_ai_create(&nim_game, "mcts:iters=2000,nodes=1000", 9, &ai[0], &err), 0);
        assert_int_equal(rp_ai_create(&nim_game, "ismcts:iters=500", 9, &ai[1], &err), 0);
        play_nim_to_the_end(ai, 40);
    }
}

/* Nim is won by leaving a multiple of four: the search must find that move. */
static void test_search_finds_the_winning_nim_move(void **unused)
{
    (void)unused;
    static const char *const specs[] = {"mcts:iters=4000", "ismcts:iters=4000"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        for (int pile = 5; pile <= 11; pile++) {
            if (pile % 4 == 0)
                continue;
            for (uint64_t seed = 1; seed <= 3; seed++) {
                nim s = {.players = 2, .pile = pile};
                rp_ai_info info;
                rp_action move = choose(&nim_game, specs[i], seed, &s, &info);
                if ((pile - (int)move - 1) % 4 != 0)
                    fail_msg("%s took %d from %d", specs[i], (int)move + 1, pile);
                assert_true(info.win_chance > 0.6);
            }
        }
}

/* A Nim evaluation that knows the theory: the player to move with a multiple of four left
 * loses, so leaving one is worth 0.9 to whoever did it and anything else 0.1. */
static double nim_evaluate(const void *st, int player)
{
    const nim *s = st;
    const bool mover_loses = s->pile % 4 == 0;
    return (player == s->to_move) != mover_loses ? 0.9 : 0.1;
}

/* Progressive bias (bias=W): a new edge carries the chooser's evaluation one move on, so the
 * first edge tried is the one evaluate likes best (leaving 8 of 9: take 1), where without the
 * bias it is drawn uniformly; a weight that is not a number from 0 to 100 is refused by name. */
static void test_bias_tries_the_evaluated_best_edge_first(void **unused)
{
    (void)unused;
    rp_game game = nim_game;
    game.evaluate = nim_evaluate;
    int unbiased_other = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        nim s = {.players = 2, .pile = 9};
        assert_int_equal(choose(&game, "mcts:iters=1,bias=1", seed, &s, NULL), 0);
        assert_int_equal(choose(&game, "ismcts:iters=1,bias=0.5", seed, &s, NULL), 0);
        unbiased_other += choose(&game, "mcts:iters=1", seed, &s, NULL) != 0;
    }
    assert_true(unbiased_other > 0); /* the check above could fail without the bias */
    static const char *const bad[] = {"mcts:bias=-1", "ismcts:bias=abc", "hard:bias=101",
                                      "mcts:bias=nan"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rp_ai *ai = NULL;
        rp_error err = {{0}};
        if (rp_ai_create(&game, bad[i], 1, &ai, &err) != RP_EINVAL)
            fail_msg("spec '%s' was not refused", bad[i]);
        assert_null(ai);
        assert_non_null(strstr(err.msg, "bias="));
    }
}

/* spread=S (think_time.c): a game's thinking time goes where the choice is wide. Decisions
 * alternating between 2 and 31 moves, each spending what it was given: the 31 think longer
 * than ms and the 2 shorter, nothing is ever spent ahead of what the bank accrued, and over
 * a game almost all of ms a decision is spent. spread=0 always gives ms. */
static void test_spread_shares_the_time_by_the_moves_offered(void **unused)
{
    (void)unused;
    rp_time_bank plain = {0};
    assert_true(rp_time_allot(&plain, 50, 0, 2) == 50 && rp_time_allot(&plain, 50, 0, 31) == 50);
    rp_time_bank bank = {0};
    double spent = 0, wide = 0, narrow = 0;
    const int decisions = 200;
    for (int d = 0; d < decisions; d++) {
        const int legal = d % 2 ? 31 : 2;
        const double ms = rp_time_allot(&bank, 50, 1, legal);
        assert_true(ms >= 0 && spent + ms <= 50.0 * (d + 1) + 1e-9); /* never ahead */
        rp_time_spend(&bank, ms);
        spent += ms;
        if (d >= 20) /* past the first turns, while the mean weight settles */
            *(legal == 31 ? &wide : &narrow) += ms;
    }
    assert_true(wide / (decisions - 20) * 2 > 50 * 1.5);
    assert_true(narrow / (decisions - 20) * 2 < 50 * 0.5);
    assert_true(spent > 0.98 * 50 * decisions);
}

/* A bank starts empty, so an AI made for one move (the server makes one per move) thinks ms
 * whatever the moves offered; a decision that overran its time is paid back by the next. */
static void test_spread_first_decision_and_overruns(void **unused)
{
    (void)unused;
    rp_time_bank one = {0}, other = {0};
    assert_true(rp_time_allot(&one, 40, 1, 2) == 40);
    assert_true(rp_time_allot(&other, 40, 2, 60) == 40);
    rp_time_bank steady = {0}, overrun = {0};
    for (int d = 0; d < 4; d++) {
        rp_time_spend(&steady, rp_time_allot(&steady, 40, 1, 10));
        const double given = rp_time_allot(&overrun, 40, 1, 10);
        rp_time_spend(&overrun, d == 2 ? given * 3 : given);
    }
    assert_true(overrun.ms < steady.ms);
    assert_true(rp_time_allot(&overrun, 40, 1, 10) < rp_time_allot(&steady, 40, 1, 10));
}

/* A search stops early only when the runner-up could not catch the leader in the iterations
 * left at the pace so far; a tie or a lead within reach goes on. */
static void test_choice_settled_only_when_the_lead_cannot_be_caught(void **unused)
{
    (void)unused;
    assert_false(rp_choice_settled(600, 100, 1000, 2e6, 1e6)); /* 500 left: a lead of 500 */
    assert_true(rp_choice_settled(601, 100, 1000, 2e6, 1e6));
    assert_true(rp_choice_settled(301, 100, 400, 2e6, 1e6));  /* 200 left at this pace */
    assert_false(rp_choice_settled(301, 100, 400, 1e6, 1e6)); /* 400 left */
    assert_false(rp_choice_settled(50, 50, 100, 1e9, 1));
    assert_false(rp_choice_settled(10, 0, 10, 0, 1e6)); /* no time measured yet */
}

/* spread= is a search setting: a number from 0 to 4, refused by name otherwise; an AI with it
 * plays a whole game with legal moves under a time budget. */
static void test_spread_spec_and_a_whole_game(void **unused)
{
    (void)unused;
    static const char *const bad[] = {"ismcts:spread=-1", "mcts:spread=5", "hard:spread=x",
                                      "ismcts:spread=nan"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rp_ai *ai = NULL;
        rp_error err = {{0}};
        if (rp_ai_create(&nim_game, bad[i], 1, &ai, &err) != RP_EINVAL)
            fail_msg("spec '%s' was not refused", bad[i]);
        assert_null(ai);
        assert_non_null(strstr(err.msg, "spread="));
    }
    rp_ai *ai[2];
    rp_error err = {{0}};
    assert_int_equal(rp_ai_create(&nim_game, "mcts:ms=2,spread=1", 3, &ai[0], &err), 0);
    assert_int_equal(rp_ai_create(&nim_game, "ismcts:ms=2,spread=0.5", 4, &ai[1], &err), 0);
    play_nim_to_the_end(ai, 30);
}

/* In 3-player Nim each seat backs up its own return. With 1-3 stones the mover takes them
 * all. With 6, taking 2 or 3 lets the next seat win at once or be the one who cannot lose;
 * taking 1 leaves 5 to a seat that cannot win, one of whose replies hands the win back to
 * the first seat: the only move worth anything to it. */
static void test_each_player_backs_up_its_own_return(void **unused)
{
    (void)unused;
    for (int to_move = 0; to_move < 3; to_move++) {
        for (int pile = 1; pile <= 3; pile++) {
            nim s = {.players = 3, .to_move = to_move, .pile = pile};
            rp_ai_info info;
            assert_int_equal(choose(&nim_game, "mcts:iters=500", 3, &s, &info),
                             (rp_action)(pile - 1));
            assert_true(info.win_chance > 0.99);
        }
    }
    nim s = {.players = 3, .pile = 6};
    assert_int_equal(choose(&nim_game, "mcts:iters=3000", 3, &s, NULL), 0);
}

/* Seat 0 holding a 4 should call (it beats three of the five other cards) whatever seat 1
 * really holds; and any two states seat 0 cannot tell apart give the very same search. */
static void test_hidden_information_is_not_read(void **unused)
{
    (void)unused;
    static const char *const specs[] = {"ismcts:iters=2000", "mcts:iters=2000", "hard", "greedy"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        for (int theirs = 1; theirs <= 6; theirs++) {
            if (theirs == 4)
                continue;
            showdown a = showdown_at(4, theirs, 1);
            rp_rng rng;
            rp_rng_seed(&rng, (uint64_t)theirs, 8);
            for (int k = 0; k < 3; k++) {
                showdown b = a;
                sd_determinize(&b, 0, &rng);
                rp_ai_info ia, ib;
                rp_action ma = choose(&showdown_game, specs[i], 11, &a, &ia);
                rp_action mb = choose(&showdown_game, specs[i], 11, &b, &ib);
                assert_int_equal(ma, mb);
                assert_true(ia.win_chance == ib.win_chance);
                if (strcmp(specs[i], "greedy") != 0)
                    assert_int_equal(ma, SD_CALL);
            }
        }
        /* Holding a 2 (beats one card in five) folding is better. */
        showdown low = showdown_at(2, 1, 1);
        if (strcmp(specs[i], "greedy") != 0)
            assert_int_equal(choose(&showdown_game, specs[i], 11, &low, NULL), SD_FOLD);
    }
}

/* Seat 1 holding a 1 should swap (any new card is better), holding a 6 keep. */
static void test_search_through_hidden_actions_and_chance(void **unused)
{
    (void)unused;
    showdown s = showdown_at(4, 1, 0);
    assert_int_equal(choose(&showdown_game, "ismcts:iters=3000", 2, &s, NULL), SD_SWAP);
    s = showdown_at(4, 6, 0);
    assert_int_equal(choose(&showdown_game, "ismcts:iters=3000", 2, &s, NULL), SD_KEEP);
}

/* Time budgets and threads give legal moves (no timing is asserted). */
static void test_time_budget_and_threads(void **unused)
{
    (void)unused;
    nim s = {.players = 2, .pile = 9};
    rp_ai_info info;
    choose(&nim_game, "mcts:ms=20,threads=2", 1, &s, &info);
    assert_true(info.iterations > 0);
    assert_int_equal(choose(&nim_game, "mcts:iters=8000,threads=2", 1, &s, &info), 0);
    assert_int_equal(info.iterations, 8000);
    showdown sd = showdown_at(4, 2, 1);
    choose(&showdown_game, "ismcts:ms=10,threads=3", 1, &sd, NULL);
}

/* iters@P=N is the budget at P players only (issue 31: a level may need more search at one
 * player count). A later iters= or ms= drops it, so "hard:iters=N" is N at every count, and a
 * later iters@P sets it again; a P that is not a player count, or an N out of range, is
 * refused by name. Nim with 30 stones has three moves, so none is forced. */
static void test_budget_per_player_count(void **unused)
{
    (void)unused;
    const struct {
        const char *spec;
        long at_two, at_three; /* iterations searched; 0: a time budget, any count */
    } cases[] = {
        {"ismcts:iters=1000,iters@3=500", 1000, 500},
        {"mcts:iters@3=500,iters=700", 700, 700},
        {"mcts:iters@3=500,iters=700,iters@2=300", 300, 700},
        {"easy:iters@3=250", 200, 250}, /* easy's generic budget is 200 */
        {"mcts:iters@2=400,ms=2,iters@3=600", 0, 600},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        nim two = {.players = 2, .pile = 30}, three = {.players = 3, .pile = 30};
        rp_ai_info info;
        choose(&nim_game, cases[i].spec, 1, &two, &info);
        if (cases[i].at_two)
            assert_int_equal(info.iterations, cases[i].at_two);
        assert_true(info.iterations > 0);
        choose(&nim_game, cases[i].spec, 1, &three, &info);
        assert_int_equal(info.iterations, cases[i].at_three);
    }
    const struct {
        const char *spec, *named;
    } bad[] = {{"mcts:iters@7=100", "iters@7"}, {"mcts:iters@0=100", "iters@0"},
               {"hard:iters@=100", "iters@"},   {"ismcts:iters@23=5", "iters@23"},
               {"mcts:iters@3=0", "iters@3=0"}, {"mcts:iters@3=many", "iters@3=many"},
               {"ismcts:iters@x=9", "iters@x"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rp_ai *ai = NULL;
        rp_error err = {{0}};
        if (rp_ai_create(&nim_game, bad[i].spec, 1, &ai, &err) != RP_EINVAL)
            fail_msg("spec '%s' was not refused", bad[i].spec);
        assert_null(ai);
        if (!strstr(err.msg, bad[i].named))
            fail_msg("'%s': the error '%s' does not name %s", bad[i].spec, err.msg, bad[i].named);
    }
}

/* King of Danger's hard searches 120000 iterations a move with five players and its 30000
 * with fewer: at five, 30000 did not beat medium over 400 games and 120000 did over 800
 * (docs/ai.md, "King of Danger as it is now"). Medium keeps 1000 at five; hard:iters=N is N
 * there too. Beginner searches less with five (5, against 20 with fewer). */
static void test_king_of_danger_hard_searches_more_with_five(void **unused)
{
    (void)unused;
    const rp_game *game = rp_game_find("king-of-danger");
    assert_non_null(game);
    const struct {
        const char *options, *spec;
        uint64_t iterations;
    } cases[] = {{"players=5 seed=3", "hard", 120000},
                 {"players=4 seed=3", "hard", 30000},
                 {"players=5 seed=3", "medium", 1000},
                 {"players=5 seed=3", "beginner", 5}, /* docs/ai.md, "The beginner level" */
                 {"players=2 seed=3", "beginner", 20},
                 {"players=5 seed=3", "hard:iters=2000", 2000}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rp_state st;
        rp_test_init(game, &st, cases[i].options);
        rp_ai_info info;
        choose(game, cases[i].spec, 1, &st, &info);
        if (info.iterations != cases[i].iterations)
            fail_msg("%s with %s: %llu iterations, not %llu", cases[i].spec, cases[i].options,
                     (unsigned long long)info.iterations, (unsigned long long)cases[i].iterations);
    }
}

/* The registered games with hidden information: at positions along a random game, the state
 * and a determinized copy of it (the same to the player to act) get the same move and the same
 * estimate from the same seed and budget. */
static void test_registered_games_hidden_information_is_not_read(void **unused)
{
    (void)unused;
    static const char *const specs[] = {"ismcts:iters=400", "easy", "greedy"};
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        if (!(game->flags & RP_HIDDEN_INFO))
            continue;
        rp_state st;
        rp_test_init(game, &st, "seed=11");
        rp_rng rng;
        rp_rng_seed(&rng, 5, 5);
        for (int step = 0; step < 60 && game->current_player(&st) != RP_TERMINAL; step++) {
            if (step % 6 == 0) {
                rp_state twin;
                rp_state_copy(game, &twin, &st);
                game->determinize(&twin, game->current_player(&st), &rng);
                for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
                    rp_ai_info a, b;
                    rp_action ma = choose(game, specs[i], 21, &st, &a);
                    rp_action mb = choose(game, specs[i], 21, &twin, &b);
                    if (ma != mb || a.win_chance != b.win_chance)
                        fail_msg("%s, %s at step %d: different choices in twin states", game->id,
                                 specs[i], step);
                }
            }
            rp_test_random_step(game, &st, &rng);
        }
    }
}

/* Castle Danger (full information): Red's King on f7 stands in the open. Blue's Cannon can
 * reach it this turn, directly from f4 (fire f4:3), or from e4 after stepping to f4 first. The
 * search must play its turn through to the hit, whatever it does on the way. */
static void play_turn_and_expect_a_win(const char *position, const char *spec, uint64_t seed)
{
    const rp_game *game = rp_game_find("castle-danger");
    rp_state st;
    rp_test_load(game, &st, position);
    const int me = game->current_player(&st);
    rp_ai *ai = NULL;
    rp_error err = {{0}};
    if (rp_ai_create(game, spec, seed, &ai, &err) < 0)
        fail_msg("%s: %s", spec, err.msg);
    for (int step = 0; step < 30 && game->current_player(&st) == me; step++) {
        rp_action move;
        assert_int_equal(rp_ai_choose(ai, &st, &move, NULL, &err), RP_OK);
        game->apply(&st, move);
    }
    rp_ai_free(ai);
    if (game->current_player(&st) != RP_TERMINAL)
        fail_msg("%s (seed %llu) let the exposed King go in %s", spec, (unsigned long long)seed,
                 position);
    double r[RP_MAX_PLAYERS];
    game->returns(&st, r);
    assert_true(r[me] > 0.99);
}

static void test_castle_danger_exposed_king_is_hit(void **unused)
{
    (void)unused;
    assert_non_null(rp_game_find("castle-danger"));
    static const char *const positions[] = {
        /* fire f4:3 at once */
        "cd1 board=2w4/2#1#2/5k1/7/7/5C1/7/2#1#2/2K1W2 side=blue moves=6 add=open turn=1 "
        "limit=none tournament=0 result=ongoing supply=W7B2C3F5/w7b2c4f5/#16",
        /* e4-f4, then fire */
        "cd1 board=2w4/2#1#2/5k1/7/7/4C2/7/2#1#2/2K1W2 side=blue moves=6 add=open turn=1 "
        "limit=none tournament=0 result=ongoing supply=W7B2C3F5/w7b2c4f5/#16",
        /* Red: fire b6:3 */
        "cd1 board=2w1k2/2#1#2/7/1c5/7/7/1K5/2#1#2/4W2 side=red moves=6 add=open turn=1 "
        "limit=none tournament=0 result=ongoing supply=W7B2C4F5/w7b2c3f5/#16",
    };
    static const char *const specs[] = {"mcts:iters=3000", "hard"};
    for (size_t p = 0; p < sizeof positions / sizeof *positions; p++)
        for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
            for (uint64_t seed = 1; seed <= 2; seed++)
                play_turn_and_expect_a_win(positions[p], specs[i], seed);
}

/* Every registered game: the levels and searches give legal moves through a whole game. */
static void test_search_plays_every_registered_game(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_state st;
        rp_test_init(game, &st, "seed=3");
        rp_ai *ai = NULL;
        rp_error err = {{0}};
        const char *spec = game->flags & RP_HIDDEN_INFO ? "ismcts:iters=60" : "mcts:iters=60";
        if (rp_ai_create(game, spec, 4, &ai, &err) < 0)
            fail_msg("%s: %s", game->id, err.msg);
        for (int step = 0; step < 100000 && game->current_player(&st) != RP_TERMINAL; step++) {
            rp_action move;
            if (rp_ai_choose(ai, &st, &move, NULL, &err) < 0)
                fail_msg("%s: %s", game->id, err.msg);
            assert_true(rp_is_legal(game, &st, move));
            game->apply(&st, move);
        }
        assert_int_equal(game->current_player(&st), RP_TERMINAL);
        rp_ai_free(ai);
    }
}

/* The moves of one game in which `spec` plays every seat from the seat's own AI seeded `seed`
 * (at most max moves); returns how many were played. */
static int play_with(const rp_game *game, const char *spec, uint64_t seed, rp_action *moves,
                     int max, uint64_t *iterations)
{
    rp_state st;
    rp_test_init(game, &st, "seed=8");
    rp_ai *ai = NULL;
    rp_error err = {{0}};
    if (rp_ai_create(game, spec, seed, &ai, &err) < 0)
        fail_msg("%s: %s: %s", game->id, spec, err.msg);
    int n = 0;
    for (; n < max && game->current_player(&st) != RP_TERMINAL; n++) {
        rp_ai_info info;
        if (rp_ai_choose(ai, &st, &moves[n], &info, &err) < 0)
            fail_msg("%s: %s", game->id, err.msg);
        assert_true(rp_is_legal(game, &st, moves[n]));
        *iterations = info.iterations;
        game->apply(&st, moves[n]);
    }
    rp_ai_free(ai);
    return n;
}

/* Issue 43: the beginner level exists in every game, searches less than easy (the game's own
 * budget: docs/ai.md, "The beginner level"), and plays the same game from the same seed. */
static void test_beginner_level_in_every_game(void **unused)
{
    (void)unused;
    enum { MAX_MOVES = 300 };
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_action first[MAX_MOVES], second[MAX_MOVES];
        uint64_t beginner_iters = 0, again_iters = 0, easy_iters = 0;
        const int n = play_with(game, "beginner", 21, first, MAX_MOVES, &beginner_iters);
        assert_int_equal(play_with(game, "beginner", 21, second, MAX_MOVES, &again_iters), n);
        assert_true(n > 0);
        assert_memory_equal(first, second, (size_t)n * sizeof *first);
        play_with(game, "easy", 21, second, 1, &easy_iters);
        if (beginner_iters == 0 || beginner_iters >= easy_iters)
            fail_msg("%s: beginner searched %llu iterations a move, easy %llu", game->id,
                     (unsigned long long)beginner_iters, (unsigned long long)easy_iters);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_specs_are_accepted),
        cmocka_unit_test(test_bad_specs_are_refused_with_the_valid_ones),
        cmocka_unit_test(test_help_lists_every_kind),
        cmocka_unit_test(test_spec_lists_split_between_specs),
        cmocka_unit_test(test_oracle_sees_hidden_cards_and_only_analysis_makes_it),
        cmocka_unit_test(test_search_is_deterministic),
        cmocka_unit_test(test_one_ai_plays_a_whole_game_reusing_its_arena),
        cmocka_unit_test(test_search_finds_the_winning_nim_move),
        cmocka_unit_test(test_bias_tries_the_evaluated_best_edge_first),
        cmocka_unit_test(test_each_player_backs_up_its_own_return),
        cmocka_unit_test(test_hidden_information_is_not_read),
        cmocka_unit_test(test_search_through_hidden_actions_and_chance),
        cmocka_unit_test(test_time_budget_and_threads),
        cmocka_unit_test(test_budget_per_player_count),
        cmocka_unit_test(test_king_of_danger_hard_searches_more_with_five),
        cmocka_unit_test(test_registered_games_hidden_information_is_not_read),
        cmocka_unit_test(test_castle_danger_exposed_king_is_hit),
        cmocka_unit_test(test_search_plays_every_registered_game),
        cmocka_unit_test(test_beginner_level_in_every_game),
        cmocka_unit_test(test_spread_shares_the_time_by_the_moves_offered),
        cmocka_unit_test(test_spread_first_decision_and_overruns),
        cmocka_unit_test(test_choice_settled_only_when_the_lead_cannot_be_caught),
        cmocka_unit_test(test_spread_spec_and_a_whole_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
