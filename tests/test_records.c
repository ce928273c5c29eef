/* test_records.c — matches and records (src/engine) over every game and its option space:
 * a record replays to the same start, the same final state byte for byte and the same result
 * for random option sets (player counts, neutrals, variants, tournament...), starting
 * positions with another player count, fair undos with re-samples, hot-seat undos and
 * resignations (issue 18); a false [result] or any broken line is refused with the line, and
 * nothing is left half-loaded; fair undo keeps the human's view and re-samples the rest. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/internal.h" /* a test may compare the referee's states and history */
#include "ramparts/engine.h"
#include "support.h"

/* A random value for each option (given or left to its default and derived values). */
static void random_config(const rp_game *game, rp_rng *rng, rp_config *cfg)
{
    rp_config_default(game, cfg);
    char kv[RP_OPTION_TEXT + 32];
    snprintf(kv, sizeof kv, "players=%d",
             game->min_players +
                 (int)rp_rng_below(rng, (uint32_t)(game->max_players - game->min_players + 1)));
    if (rp_rng_below(rng, 4))
        assert_int_equal(rp_config_set(game, cfg, kv, NULL), RP_OK);
    cfg->seed = rp_rng_next(rng);
    for (int i = 0; i < game->num_options; i++) {
        const rp_option_spec *o = &game->options[i];
        if (o->kind == RP_OPT_TEXT || rp_rng_below(rng, 2))
            continue;
        int64_t span = o->max - o->min + 1;
        int64_t value = o->min + (int64_t)rp_rng_below(rng, (uint32_t)(span < 40 ? span : 40));
        if (o->kind == RP_OPT_CHOICE) {
            snprintf(kv, sizeof kv, "%s=", o->name);
            const char *p = o->choices;
            for (int64_t k = 0; k < value && p; k++)
                p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL;
            if (!p)
                continue;
            size_t n = strcspn(p, "|");
            strncat(kv, p, n);
        } else {
            snprintf(kv, sizeof kv, "%s=%lld", o->name, (long long)value);
        }
        assert_int_equal(rp_config_set(game, cfg, kv, NULL), RP_OK);
    }
}

/* A new match with random options (retried: some combinations are refused by the rules). */
static rp_match *random_match(const rp_game *game, rp_rng *rng)
{
    for (int tries = 0; tries < 100; tries++) {
        rp_config cfg;
        random_config(game, rng, &cfg);
        rp_match *m = rp_match_new(game, &cfg, NULL);
        if (m)
            return m;
    }
    fail_msg("%s: no random option set was accepted", game->id);
    return NULL;
}

/* A new match with the default options and this seed. */
static rp_match *seeded_match(const rp_game *game, uint64_t seed)
{
    rp_config cfg;
    rp_config_default(game, &cfg);
    cfg.seed = seed;
    rp_match *m = rp_match_new(game, &cfg, NULL);
    assert_non_null(m);
    return m;
}

/* Sometimes: start from a position of another random game (other options, other players). */
static void maybe_position(const rp_game *game, rp_rng *rng, rp_match *m)
{
    if (rp_rng_below(rng, 3))
        return;
    rp_match *other = random_match(game, rng);
    int steps = (int)rp_rng_below(rng, 60);
    for (int i = 0; i < steps && !rp_match_over(other); i++)
        rp_test_random_step(game, &other->state, rng);
    char text[RP_STATE_TEXT];
    assert_true(game->state_to_text(&other->state, text, sizeof text) > 0);
    rp_error err;
    if (rp_match_load(m, text, &err) != RP_OK)
        fail_msg("%s: loading a position: %s", game->id, err.msg);
    assert_int_equal(m->config.players, game->num_players(&m->state));
    rp_match_free(other);
}

/* Now and then an ending other than the rules': a resignation, or any other with losers
 * drawn at random (an agreed draw only where the game can end drawn). */
static void random_ending(const rp_game *game, rp_rng *rng, rp_match *m)
{
    const int players = game->num_players(&m->state);
    if (rp_rng_below(rng, 2) == 0) {
        assert_int_equal(rp_match_resign(m, game->current_player(&m->state), NULL), RP_OK);
        return;
    }
    const rp_end reason = (rp_end)(RP_END_TIME + (int)rp_rng_below(rng, RP_NUM_ENDS - 2));
    uint32_t losers = reason == RP_END_AGREED ? 0 : 1u << rp_rng_below(rng, (uint32_t)players);
    if (players > 2 && reason != RP_END_AGREED && rp_rng_below(rng, 2))
        losers |= 1u << rp_rng_below(rng, (uint32_t)players); /* maybe a second */
    const int rc = rp_match_end(m, reason, losers, NULL);
    const bool allowed = reason != RP_END_AGREED || (game->flags & RP_CAN_DRAW);
    assert_int_equal(rc, allowed && (losers || reason >= RP_END_AGREED) ? RP_OK : RP_EINVAL);
}

/* Random moves, with fair undos, hot-seat undos and now and then an ending. */
static void random_history(const rp_game *game, rp_rng *rng, rp_match *m)
{
    const int players = game->num_players(&m->state);
    const bool hot_seat = players > 1 && rp_rng_below(rng, 3) == 0;
    for (int p = 1; p < players; p++)
        assert_int_equal(rp_match_set_player(m, p, hot_seat && p == 1 ? RP_HUMAN : "random", NULL),
                         RP_OK);
    const int steps = 20 + (int)rp_rng_below(rng, 300);
    for (int i = 0; i < steps && !rp_match_over(m); i++) {
        const uint32_t roll = rp_rng_below(rng, 100);
        if (roll < 6) {
            rp_match_undo_fair(m, (int)rp_rng_below(rng, hot_seat ? 2 : 1), rp_rng_next(rng), NULL,
                               NULL);
            continue;
        }
        if (roll == 6 && rp_rng_below(rng, 10) == 0) {
            random_ending(game, rng, m);
            if (rp_match_over(m))
                return;
        }
        rp_action legal[RP_MAX_LEGAL];
        int n = game->legal_actions(&m->state, legal);
        assert_int_equal(rp_match_play(m, legal[rp_rng_below(rng, (uint32_t)n)], NULL), RP_OK);
    }
}

static char *record_text(const rp_match *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    assert_int_equal(rp_record_write(m, mem), RP_OK);
    fclose(mem);
    return text;
}

static rp_match *read_text(const char *text, rp_error *err)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    rp_match *m = rp_record_read(in, "rec", err);
    fclose(in);
    return m;
}

static void expect_same_match(const rp_match *a, const rp_match *b, const char *text)
{
    const rp_game *game = a->game;
    assert_ptr_equal(b->game, game);
    if (memcmp(&a->start, &b->start, game->state_size) != 0 ||
        memcmp(&a->state, &b->state, game->state_size) != 0)
        fail_msg("%s: the record replays to other bytes:\n%s", game->id, text);
    char sa[RP_STATE_TEXT], sb[RP_STATE_TEXT];
    game->state_to_text(&a->state, sa, sizeof sa);
    game->state_to_text(&b->state, sb, sizeof sb);
    assert_string_equal(sa, sb);
    rp_match_status(a, sa, sizeof sa);
    rp_match_status(b, sb, sizeof sb);
    assert_string_equal(sa, sb);
    rp_config_to_text(game, &a->config, sa, sizeof sa);
    rp_config_to_text(game, &b->config, sb, sizeof sb);
    assert_string_equal(sa, sb);
    assert_int_equal(a->length, b->length);
    assert_int_equal(a->num_moves, b->num_moves);
    assert_int_equal(a->end, b->end);
    assert_int_equal(a->losers, b->losers);
    for (int p = 0; p < game->num_players(&a->state); p++)
        assert_string_equal(a->seats[p], b->seats[p]);
}

/* Issue 18: write and replay records of random games across every game's option space. */
static void records_replay_exactly(void **unused)
{
    (void)unused;
    const int games = rp_test_games(300);
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_rng rng;
        rp_rng_seed(&rng, 18, (uint64_t)g);
        for (int i = 0; i < games; i++) {
            rp_match *m = random_match(game, &rng);
            maybe_position(game, &rng, m);
            random_history(game, &rng, m);
            char *text = record_text(m);
            rp_error err;
            rp_match *back = read_text(text, &err);
            if (!back)
                fail_msg("%s: a record does not replay: %s\n%s", game->id, err.msg, text);
            expect_same_match(m, back, text);
            /* And the record of the replay is the same text. */
            char *again = record_text(back);
            assert_string_equal(text, again);
            free(again);
            free(text);
            rp_match_free(back);
            rp_match_free(m);
        }
    }
}

/* A finished game of `game` with random AIs, as a record. */
static char *finished_record(const rp_game *game, uint64_t seed)
{
    rp_match *m = seeded_match(game, seed);
    rp_rng rng;
    rp_rng_seed(&rng, seed, 5);
    for (int i = 0; i < 3000 && !rp_match_over(m); i++) {
        rp_action legal[RP_MAX_LEGAL];
        int n = game->legal_actions(&m->state, legal);
        assert_int_equal(rp_match_play(m, legal[rp_rng_below(&rng, (uint32_t)n)], NULL), RP_OK);
    }
    char *text = record_text(m);
    rp_match_free(m);
    return text;
}

static void expect_refused(const char *text, const char *want, const char *game)
{
    rp_error err = {{0}};
    rp_match *m = read_text(text, &err);
    if (m) /* nothing half-loaded: no match at all */
        fail_msg("%s: a broken record replays:\n%s", game, text);
    if (!strstr(err.msg, want))
        fail_msg("%s: '%s' does not say '%s'", game, err.msg, want);
}

/* Replace line `n` (1-based) of text by `line` (NULL: delete it). */
static char *with_line(const char *text, int n, const char *line)
{
    size_t size = strlen(text) + (line ? strlen(line) : 0) + 2;
    char *out = malloc(size);
    assert_non_null(out);
    out[0] = '\0';
    const char *p = text;
    for (int k = 1; *p; k++) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) + 1 : strlen(p);
        if (k != n)
            strncat(out, p, len);
        else if (line)
            strcat(strcat(out, line), "\n");
        p += len;
    }
    return out;
}

static int line_of(const char *text, const char *prefix)
{
    int k = 1;
    for (const char *p = text; *p; k++) {
        if (strncmp(p, prefix, strlen(prefix)) == 0)
            return k;
        const char *end = strchr(p, '\n');
        if (!end)
            break;
        p = end + 1;
    }
    return -1;
}

/* Issue 11: [result] is checked; broken records name the line; nothing is half-loaded. */
static void broken_records_are_refused(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        char *text = finished_record(game, 40 + (uint64_t)g);
        const int result = line_of(text, "[result ");
        char want[64];
        snprintf(want, sizeof want, "rec:%d: [result ongoing] but the record replays", result);
        char *t = with_line(text, result, "[result ongoing]");
        expect_refused(t, want, game->id);
        free(t);
        t = with_line(text, result, "[result over winner 5 returns 1 0]");
        snprintf(want, sizeof want, "rec:%d: [result over winner 5", result);
        expect_refused(t, want, game->id);
        free(t);
        const int first_move = result + 1;
        t = with_line(text, first_move, "no such move at all");
        snprintf(want, sizeof want, "rec:%d: move 'no such move at all' (move 1)", first_move);
        expect_refused(t, want, game->id);
        free(t);
        t = with_line(text, first_move + 1, "[options players=2]");
        snprintf(want, sizeof want, "rec:%d: header [options] after the moves", first_move + 1);
        expect_refused(t, want, game->id);
        free(t);
        const char *bad[][2] = {
            {"[resample 0]", "[resample SEAT[+SEAT...] SEED] expected"},
            {"[resample 0+0 1]", "[resample SEAT[+SEAT...] SEED] expected"},
            {"[undo 0+1 1]", "[undo SEAT MOVES] expected"},
            {"[resample 5 1]", "no seat 5"},
            {"[undo 0 0]", "at least one move"},
            {"[resign x]", "[resign SEAT] expected"},
            {"[seed 7]", "header [seed] after the moves"},
            {"[frobnicate]", "unknown header [frobnicate]"},
            {"[game castle-danger", "does not end with ']'"},
        };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            t = with_line(text, first_move + 1, bad[k][0]);
            snprintf(want, sizeof want, "rec:%d: ", first_move + 1);
            expect_refused(t, want, game->id);
            expect_refused(t, bad[k][1], game->id);
            free(t);
        }
        t = with_line(text, line_of(text, "[game "), "[game no-such-game]");
        expect_refused(t, "rec:2: unknown game 'no-such-game'", game->id);
        free(t);
        t = with_line(text, line_of(text, "[options "), "[options players=99]");
        expect_refused(t, "rec:4: players=99", game->id);
        free(t);
        /* [seat N WHO]: N a seat number in range, then a space (strtol: an overlong number is
         * refused, never undefined behaviour). */
        const char *bad_seats[] = {"[seat 0human]", "[seat 99999999999999999999 human]",
                                   "[seat -1 human]", "[seat +0 human]", "[seat 0]"};
        const int seat_line = line_of(text, "[seat 0 ");
        for (size_t k = 0; k < sizeof bad_seats / sizeof *bad_seats; k++) {
            t = with_line(text, seat_line, bad_seats[k]);
            expect_refused(t, "[seat N WHO] expected", game->id);
            free(t);
        }
        free(text);
    }
    expect_refused("", "no [game ...] line", "empty");
    expect_refused("archers 1 wall 1\n", "rec:1: no [game ...] line", "no game");
}

/* Fair undo against an AI keeps the human's view and replaces what they cannot see; in a
 * game with hidden cards the re-sampled state differs from the one taken back to (over many
 * seeds, all but rarely). */
static void fair_undo_keeps_the_view(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        int changed = 0, tries = 0;
        for (uint64_t seed = 1; seed <= 30; seed++) {
            rp_match *m = seeded_match(game, seed);
            for (int p = 1; p < game->num_players(&m->state); p++)
                assert_int_equal(rp_match_set_player(m, p, "random", NULL), RP_OK);
            while (!rp_match_is_human(m, game->current_player(&m->state)))
                assert_int_equal(rp_match_genmove(m, NULL, 0, NULL, NULL), RP_OK);
            rp_state before;
            rp_state_copy(game, &before, &m->state);
            char *view_before = rp_view_text(game, &before, 0, false);
            rp_action legal[RP_MAX_LEGAL];
            game->legal_actions(&m->state, legal);
            assert_int_equal(rp_match_play(m, legal[0], NULL), RP_OK);
            while (!rp_match_over(m) && !rp_match_is_human(m, game->current_player(&m->state)))
                assert_int_equal(rp_match_genmove(m, NULL, 0, NULL, NULL), RP_OK);
            size_t taken = 0;
            assert_int_equal(rp_match_undo_fair(m, 0, seed * 77, &taken, NULL), RP_OK);
            assert_true(taken >= 1);
            char *view_after = rp_view_text(game, &m->state, 0, false);
            assert_string_equal(view_before, view_after);
            tries++;
            changed += memcmp(&before, &m->state, game->state_size) != 0;
            const bool hidden = game->flags & (RP_HIDDEN_INFO | RP_CHANCE);
            assert_int_equal(m->history[m->length - 1].kind,
                             hidden ? RP_ENTRY_RESAMPLE : RP_ENTRY_UNDO);
            free(view_before);
            free(view_after);
            rp_match_free(m);
        }
        if (game->flags & RP_HIDDEN_INFO)
            assert_true(changed * 10 >= tries * 9);
        else if (!(game->flags & RP_CHANCE))
            assert_int_equal(changed, 0);
    }
}

/* Hot seat: only your own last move, and never one that revealed something. */
static void hot_seat_undo_rules(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_config cfg;
        rp_config_default(game, &cfg);
        rp_match *m = rp_match_new(game, &cfg, NULL);
        assert_non_null(m);
        rp_error err;
        const int first = game->current_player(&m->state);
        const int other = (first + 1) % game->num_players(&m->state);
        assert_int_equal(rp_match_undo_fair(m, first, 1, NULL, &err), RP_EINVAL);
        assert_non_null(strstr(err.msg, "no move to take back"));
        rp_action legal[RP_MAX_LEGAL];
        game->legal_actions(&m->state, legal);
        const bool reveals = rp_action_reveals(game, &m->state, legal[0]);
        assert_int_equal(rp_match_play(m, legal[0], NULL), RP_OK);
        assert_int_equal(rp_match_undo_fair(m, other, 1, NULL, &err), RP_EINVAL);
        int rc = rp_match_undo_fair(m, first, 1, NULL, &err);
        if (reveals && (game->flags & (RP_HIDDEN_INFO | RP_CHANCE))) {
            assert_int_equal(rc, RP_EINVAL);
            assert_non_null(strstr(err.msg, "cannot be taken back at a shared table"));
        } else {
            assert_int_equal(rc, RP_OK);
            assert_int_equal(m->num_moves, 0);
            assert_int_equal(m->history[m->length - 1].kind, RP_ENTRY_UNDO); /* no re-sample */
        }
        rp_match_free(m);
    }
}

/* An unfinished game against the AI keeps its secrets (docs/terminal.md): only the human seats
 * and the spectator may be shown, and a new deal keeps the human's view; a shared table, an
 * all-AI game, a finished one and a game with nothing hidden keep none. */
static void unfinished_games_against_the_ai_keep_secrets(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        const bool secretive = game->flags & (RP_HIDDEN_INFO | RP_CHANCE);
        rp_config cfg;
        rp_config_default(game, &cfg);
        cfg.seed = 11;
        rp_match *m = rp_match_new(game, &cfg, NULL);
        assert_non_null(m);
        assert_false(rp_match_keeps_secrets(m)); /* a shared table */
        for (int p = 1; p < game->num_players(&m->state); p++)
            assert_int_equal(rp_match_set_player(m, p, "random", NULL), RP_OK);
        assert_int_equal(rp_match_keeps_secrets(m), secretive);
        assert_true(rp_match_may_show(m, 0));
        assert_true(rp_match_may_show(m, RP_SPECTATOR));
        assert_int_equal(rp_match_may_show(m, 1), !secretive);
        rp_state before;
        rp_state_copy(game, &before, &m->state);
        char *view_before = rp_view_text(game, &m->state, 0, false);
        bool dealt = false;
        const size_t length = m->length;
        assert_int_equal(rp_match_deal_unseen(m, 99, &dealt, NULL), RP_OK);
        assert_int_equal(dealt, secretive);
        assert_int_equal(m->length, length + (secretive ? 1 : 0));
        char *view_after = rp_view_text(game, &m->state, 0, false);
        assert_string_equal(view_before, view_after);
        if (game->flags & RP_HIDDEN_INFO)
            assert_true(memcmp(&before, &m->state, game->state_size) != 0);
        free(view_before);
        free(view_after);
        assert_int_equal(rp_match_set_player(m, 0, "random", NULL), RP_OK);
        assert_false(rp_match_keeps_secrets(m)); /* nobody at the table */
        assert_int_equal(rp_match_set_player(m, 0, RP_HUMAN, NULL), RP_OK);
        assert_int_equal(rp_match_resign(m, 0, NULL), RP_OK);
        assert_false(rp_match_keeps_secrets(m)); /* over */
        assert_true(rp_match_may_show(m, 1));
        rp_match_free(m);
    }
}

/* Up to `moves` random legal moves, fewer when the game ends. */
static void play_random(rp_match *m, rp_rng *rng, int moves)
{
    for (int i = 0; i < moves && !rp_match_over(m); i++) {
        rp_action legal[RP_MAX_LEGAL];
        const int n = m->game->legal_actions(&m->state, legal);
        assert_int_equal(rp_match_play(m, legal[rp_rng_below(rng, (uint32_t)n)], NULL), RP_OK);
    }
}

/* The views of the seats in `seats`, one text (caller frees). */
static char *views_of(const rp_game *game, const void *st, uint32_t seats)
{
    char *all = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&all, &len);
    assert_non_null(mem);
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        if (seats & 1u << p) {
            char *view = rp_view_text(game, st, p, false);
            fprintf(mem, "%s\n", view);
            free(view);
        }
    fclose(mem);
    return all;
}

/* Two humans with an AI (docs/terminal.md, "Records"): resuming deals anew what neither human
 * could see (a [resample 0+2 SEED] entry), keeping both humans' views; the record reads back
 * to the same state, and a re-sample for several seats is refused where it cannot be made. */
static void two_humans_with_an_ai_get_a_new_deal(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        if (game->max_players < 3 || !(game->flags & (RP_HIDDEN_INFO | RP_CHANCE)))
            continue;
        const int players = game->max_players >= 4 ? 4 : 3;
        const uint32_t humans = 1u << 0 | 1u << 2;
        int ai_changed = 0;
        for (uint64_t seed = 1; seed <= 6; seed++) {
            rp_config cfg;
            rp_config_default(game, &cfg);
            char kv[32];
            snprintf(kv, sizeof kv, "players=%d", players);
            assert_int_equal(rp_config_set(game, &cfg, kv, NULL), RP_OK);
            cfg.seed = seed;
            rp_match *m = rp_match_new(game, &cfg, NULL);
            assert_non_null(m);
            for (int p = 0; p < players; p++)
                if (!(humans & 1u << p))
                    assert_int_equal(rp_match_set_player(m, p, "random", NULL), RP_OK);
            rp_rng rng;
            rp_rng_seed(&rng, seed, 5);
            play_random(m, &rng, (int)(seed * 3));
            if (!rp_match_keeps_secrets(m)) {
                rp_match_free(m);
                continue;
            }
            rp_state before;
            rp_state_copy(game, &before, &m->state);
            char *seen = views_of(game, &m->state, humans);
            char *ai_view = rp_view_text(game, &m->state, 1, false);
            bool dealt = false;
            assert_int_equal(rp_match_deal_unseen(m, 1000 + seed, &dealt, NULL), RP_OK);
            assert_true(dealt);
            const rp__entry *last = &m->history[m->length - 1];
            assert_int_equal(last->kind, RP_ENTRY_RESAMPLE);
            assert_int_equal(last->seats, humans);
            char *still = views_of(game, &m->state, humans);
            assert_string_equal(seen, still);
            assert_true(memcmp(&before, &m->state, game->state_size) != 0);
            char *ai_after = rp_view_text(game, &m->state, 1, false);
            ai_changed += strcmp(ai_view, ai_after) != 0;
            char *text = record_text(m);
            char want[64];
            snprintf(want, sizeof want, "\n[resample 0+2 %" PRIu64 "]\n", 1000 + seed);
            assert_non_null(strstr(text, want));
            rp_error err;
            rp_match *back = read_text(text, &err);
            if (!back)
                fail_msg("%s: %s", game->id, err.msg);
            assert_memory_equal(&back->state, &m->state, game->state_size);
            rp_match_free(back);
            const size_t at = (size_t)(strstr(text, want) - text) + 1;
            char *reordered = strdup(text);
            reordered[at + 10] = '2'; /* "[resample 0+2" becomes "[resample 2+0" */
            reordered[at + 12] = '0';
            assert_null(read_text(reordered, &err));
            assert_non_null(strstr(err.msg, "lowest first"));
            free(reordered);
            free(text);
            free(seen);
            free(still);
            free(ai_view);
            free(ai_after);
            rp_match_free(m);
        }
        /* The AI's cards are dealt anew (not only what is still to come) in some of the games. */
        if (game->flags & RP_HIDDEN_INFO && ai_changed == 0)
            fail_msg("%s: no new deal changed what the AI at seat 1 holds", game->id);
    }
}

/* A two-seat game re-samples for one seat at a time: "[resample 0+1 SEED]" is refused. */
static void two_seat_games_refuse_a_resample_for_several(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        if (game->determinize_seats || !(game->flags & (RP_HIDDEN_INFO | RP_CHANCE)))
            continue;
        char text[512];
        snprintf(text, sizeof text, "[game %s]\n[seed 3]\n[resample 0+1 9]\n", game->id);
        rp_error err;
        assert_null(read_text(text, &err));
        assert_non_null(strstr(err.msg, "one seat at a time"));
    }
}

/* Issue 40: every ending that is not a rules ending is an entry of the match with its reason and
 * its losers: each reason's rules, the shares it gives, the [end ...] line and [result] it
 * writes, and a record that says otherwise refused. */
static void endings_belong_to_the_match(void **unused)
{
    (void)unused;
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_error err;
        rp_match *m = seeded_match(game, 40);
        const int players = rp_match_players(m);
        /* What each reason takes. */
        assert_int_equal(rp_match_end(m, RP_END_TIME, 0, &err), RP_EINVAL);
        assert_non_null(strstr(err.msg, "needs the seats that lose"));
        assert_int_equal(rp_match_end(m, RP_END_AGREED, 1, &err), RP_EINVAL);
        assert_non_null(strstr(err.msg, "no loser"));
        assert_int_equal(rp_match_end(m, RP_END_ABANDONED, 1u << players, &err), RP_EINVAL);
        assert_int_equal(rp_match_end(m, RP_END_RESIGNED, 3, &err), RP_EINVAL);
        assert_int_equal(rp_match_end(m, RP_NUM_ENDS, 1, &err), RP_EINVAL);
        assert_false(rp_match_over(m)); /* every refusal left it as it was */
        const bool draws = game->flags & RP_CAN_DRAW;
        assert_int_equal(rp_match_end(m, RP_END_AGREED, 0, &err), draws ? RP_OK : RP_EINVAL);
        if (!draws) {
            assert_non_null(strstr(err.msg, "always has a winner"));
            assert_int_equal(rp_match_end(m, RP_END_TIME, 1u << (players - 1), &err), RP_OK);
        }
        /* Over: nothing more is played or ended, and the shares are the ending's. */
        assert_true(rp_match_over(m));
        assert_int_equal(rp_match_to_move(m), RP_TERMINAL);
        rp_action legal[RP_MAX_LEGAL];
        assert_int_equal(rp_match_legal(m, legal), 0);
        assert_int_equal(rp_match_resign(m, 0, &err), RP_EOVER);
        double r[RP_MAX_PLAYERS];
        rp_match_returns(m, r);
        char status[240], want[256];
        if (draws) {
            for (int p = 0; p < players; p++)
                assert_true(r[p] == 1.0 / players);
            assert_int_equal(rp_match_end_reason(m), RP_END_AGREED);
            rp_match_status(m, status, sizeof status);
            assert_int_equal(strncmp(status, "over agreed returns", 19), 0);
        } else {
            assert_true(r[players - 1] == 0.0);
            for (int p = 0; p < players - 1; p++)
                assert_true(r[p] == 1.0 / (players - 1));
            assert_int_equal(rp_match_losers(m), 1u << (players - 1));
            rp_match_status(m, status, sizeof status);
            snprintf(want, sizeof want, "over time %d returns", players - 1);
            assert_int_equal(strncmp(status, want, strlen(want)), 0);
        }
        /* The record ends with the ending's line and replays to the same result. */
        char *text = record_text(m);
        assert_non_null(strstr(text, draws ? "\n[end agreed]\n" : "\n[end time "));
        snprintf(want, sizeof want, "[result %s]", status);
        assert_non_null(strstr(text, want));
        rp_match *back = read_text(text, &err);
        if (!back)
            fail_msg("%s: %s\n%s", game->id, err.msg, text);
        expect_same_match(m, back, text);
        rp_match_free(back);
        /* An [end] line that does not hold is refused with its line. */
        const char *bad[][2] = {
            {"[end bogus 1]", "[end WORD] or [end WORD SEAT[+SEAT...]] expected"},
            {"[end time]", "needs the seats that lose"},
            {"[end agreed 0]", "no loser"},
            {"[end resigned 0+1]", "one seat resigns at a time"},
            {"[end time 9]", "[end WORD] or [end WORD SEAT[+SEAT...]] expected"},
        };
        const int end_line = line_of(text, draws ? "[end agreed]" : "[end time ");
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            char *t = with_line(text, end_line, bad[k][0]);
            expect_refused(t, bad[k][1], game->id);
            free(t);
        }
        free(text);
        rp_match_free(m);
    }
}

/* A solo player may resign too: then every seat has lost and nobody wins (Rush the Wall with
 * one clan and a neutral, where the rules would give the player the whole win, RTW-P6). */
static void a_solo_resignation_leaves_no_winner(void **unused)
{
    (void)unused;
    const rp_game *game = rp_game_find("rush-the-wall");
    assert_non_null(game);
    rp_config cfg;
    rp_config_default(game, &cfg);
    assert_int_equal(rp_config_set(game, &cfg, "players=1", NULL), RP_OK);
    rp_match *m = rp_match_new(game, &cfg, NULL);
    assert_non_null(m);
    assert_int_equal(rp_match_players(m), 1);
    assert_int_equal(rp_match_resign(m, 0, NULL), RP_OK);
    double r[RP_MAX_PLAYERS];
    rp_match_returns(m, r);
    assert_true(r[0] == 0.0);
    char status[128];
    rp_match_status(m, status, sizeof status);
    assert_string_equal(status, "over resigned 0 returns 0");
    char *text = record_text(m);
    rp_error err;
    rp_match *back = read_text(text, &err);
    if (!back)
        fail_msg("%s\n%s", err.msg, text);
    expect_same_match(m, back, text);
    rp_match_free(back);
    free(text);
    rp_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_replay_exactly),
        cmocka_unit_test(endings_belong_to_the_match),
        cmocka_unit_test(a_solo_resignation_leaves_no_winner),
        cmocka_unit_test(broken_records_are_refused),
        cmocka_unit_test(two_humans_with_an_ai_get_a_new_deal),
        cmocka_unit_test(two_seat_games_refuse_a_resample_for_several),
        cmocka_unit_test(fair_undo_keeps_the_view),
        cmocka_unit_test(hot_seat_undo_rules),
        cmocka_unit_test(unfinished_games_against_the_ai_keep_secrets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
