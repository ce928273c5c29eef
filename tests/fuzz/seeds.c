/* seeds.c — writes the seed inputs of the fuzz corpora (tests/fuzz/corpus/<target>/seed-*):
 * states and moves of seeded random games of every game, options, AI specs, records, card
 * files and protocol sessions, so each fuzz target starts from inputs that reach deep into its
 * parser. Run by `make fuzz-seeds`; inputs the fuzzer found later sit beside them under other
 * names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ramparts/ai.h"
#include "ramparts/engine.h"
#include "ramparts/game.h"

static const char *root;

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "fuzz_seeds: cannot make %s\n", path);
        exit(1);
    }
}

/* Write `size` bytes as corpus/<target>/seed-<name>. */
static void write_seed(const char *target, const char *name, const void *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, target);
    make_dir(path);
    snprintf(path, sizeof path, "%s/%s/seed-%s", root, target, name);
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(data, 1, size, out) != size || fclose(out) != 0) {
        fprintf(stderr, "fuzz_seeds: cannot write %s\n", path);
        exit(1);
    }
}

/* A one-byte selector followed by text. */
static void write_selected(const char *target, const char *name, unsigned selector,
                           const char *text)
{
    char buf[8192];
    buf[0] = (char)selector;
    size_t len = strlen(text);
    if (len > sizeof buf - 1)
        len = sizeof buf - 1;
    memcpy(buf + 1, text, len); /* NOLINT(bugprone-not-null-terminated-result): bytes, no NUL */
    write_seed(target, name, buf, len + 1);
}

static void play_random(const rp_game *game, void *st, int moves, rp_rng *rng)
{
    rp_action legal[RP_MAX_LEGAL];
    for (int m = 0; m < moves && game->current_player(st) != RP_TERMINAL; m++) {
        const int n = game->legal_actions(st, legal);
        game->apply(st, legal[rp_rng_below(rng, (uint32_t)n)]);
    }
}

static void init_game(const rp_game *game, void *st, int players, uint64_t seed)
{
    rp_config cfg;
    rp_config_default(game, &cfg);
    cfg.players = players;
    cfg.seed = seed;
    rp_error err;
    if (game->init(st, &cfg, &err) < 0) {
        fprintf(stderr, "fuzz_seeds: %s: %s\n", game->id, err.msg);
        exit(1);
    }
}

/* States of several player counts at several depths, including the end. */
static void state_seeds(const rp_game *game)
{
    char target[128];
    snprintf(target, sizeof target, "state-%s", game->id);
    int k = 0;
    for (int players = game->min_players; players <= game->max_players; players++) {
        for (int depth = 0; depth <= 3; depth++) {
            rp_state st;
            init_game(game, &st, players, (uint64_t)players * 10 + (uint64_t)depth);
            rp_rng rng;
            rp_rng_seed(&rng, (uint64_t)k, 1);
            play_random(game, &st, depth == 3 ? 1000000 : depth * depth * 9, &rng);
            char text[RP_STATE_TEXT], name[32];
            game->state_to_text(&st, text, sizeof text);
            snprintf(name, sizeof name, "%d", k++);
            write_seed(target, name, text, strlen(text));
        }
    }
}

/* For each of fuzz_action.c's positions: its first legal moves, and a word it refuses. The
 * positions are remade here exactly as fuzz_action.c makes them. */
static void action_seeds(const rp_game *game)
{
    char target[128];
    snprintf(target, sizeof target, "action-%s", game->id);
    for (unsigned i = 0; i < 16; i++) {
        rp_state st;
        init_game(game, &st,
                  game->min_players + (int)i % (game->max_players - game->min_players + 1), i + 1);
        rp_rng rng;
        rp_rng_seed(&rng, i, 5);
        play_random(game, &st, (int)(i * 7), &rng);
        rp_action legal[RP_MAX_LEGAL];
        const int n = game->legal_actions(&st, legal);
        for (int a = 0; a < n && a < 3; a++) {
            char text[RP_ACTION_TEXT], name[32];
            game->action_to_text(&st, legal[(size_t)a * (size_t)n / 3], text, sizeof text);
            snprintf(name, sizeof name, "%u-%d", i, a);
            write_selected(target, name, i, text);
        }
    }
}

static void option_seeds(void)
{
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_config cfg;
        rp_config_default(game, &cfg);
        cfg.players = game->max_players;
        char text[2048], name[32];
        rp_config_to_text(game, &cfg, text, sizeof text);
        snprintf(name, sizeof name, "%d", g);
        write_selected("options", name, (unsigned)g, text);
        if (game->bench_options) {
            snprintf(name, sizeof name, "%d-bench", g);
            write_selected("options", name, (unsigned)g, game->bench_options);
        }
    }
}

static void ai_spec_seeds(void)
{
    static const char *const specs[] = {"random",
                                        "greedy:rollouts=4",
                                        "easy",
                                        "medium:threads=2",
                                        "hard:iters=50",
                                        "mcts:iters=100,c=1.4,rollout=-1,nodes=5000,greedy=10",
                                        "ismcts:ms=5,threads=2",
                                        "hard,ismcts:ms=500,threads=2,greedy",
                                        "easy:iters@3=300,ms=4,iters@5=90"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        char name[32];
        snprintf(name, sizeof name, "%zu", i);
        write_selected("ai-spec", name, (unsigned)(i % (size_t)rp_num_games), specs[i]);
    }
}

/* A short seeded match of every game as a record, and one started from a position. */
static void record_seeds(void)
{
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        for (int kind = 0; kind < 2; kind++) {
            rp_config cfg;
            rp_config_default(game, &cfg);
            cfg.seed = (uint64_t)g + 3;
            rp_error err;
            rp_match *m = rp_match_new(game, &cfg, &err);
            if (!m) {
                fprintf(stderr, "fuzz_seeds: %s: %s\n", game->id, err.msg);
                exit(1);
            }
            rp_rng rng;
            rp_rng_seed(&rng, (uint64_t)g, 9);
            if (kind == 1) {
                rp_state st;
                rp_match_referee(m, 0, &st, NULL);
                play_random(game, &st, 12, &rng);
                char text[RP_STATE_TEXT];
                game->state_to_text(&st, text, sizeof text);
                if (rp_match_load(m, text, &err) < 0) {
                    fprintf(stderr, "fuzz_seeds: %s: %s\n", game->id, err.msg);
                    exit(1);
                }
            }
            rp_action legal[RP_MAX_LEGAL];
            for (int step = 0; step < 8 && !rp_match_over(m); step++) {
                const int n = rp_match_legal(m, legal);
                rp_match_play(m, legal[rp_rng_below(&rng, (uint32_t)n)], &err);
            }
            char *text = NULL;
            size_t len = 0;
            FILE *out = open_memstream(&text, &len);
            if (!out || rp_record_write(m, out) < 0) {
                fprintf(stderr, "fuzz_seeds: %s: no record\n", game->id);
                exit(1);
            }
            fclose(out);
            char name[64];
            snprintf(name, sizeof name, "%s-%d", game->id, kind);
            write_seed("record", name, text, len);
            free(text);
            rp_match_free(m);
        }
    }
}

/* The default card file of every option that reads files (given as the only argument after
 * the corpus root, for Rush the Wall), and a set with other values. */
static void card_seeds(const char *card_file)
{
    FILE *in = fopen(card_file, "rb");
    if (!in) {
        fprintf(stderr, "fuzz_seeds: cannot read %s\n", card_file);
        exit(1);
    }
    char text[8192];
    const size_t len = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[len] = '\0';
    write_selected("cards", "default", 0, text);
    char *five = strstr(text, "archr 5");
    if (five) {
        five[6] = '7';
        write_selected("cards", "archer-7", 0, text);
    }
}

/* Protocol sessions (fuzz_protocol.c): for every game, a new game, moves, every query command
 * and a load of a later position; then the commands without a game, refusals, ids, comments
 * and a quit in the middle. */
static void protocol_seeds(void)
{
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        char script[8192], *w = script;
        const char *end = script + sizeof script;
        w += snprintf(w, (size_t)(end - w), "new %s seed=%d players=%d\n", game->id, g + 1,
                      game->max_players);
        rp_state st;
        init_game(game, &st, game->max_players, (uint64_t)g + 1);
        rp_rng rng;
        rp_rng_seed(&rng, (uint64_t)g, 17);
        for (int m = 0; m < 4 && game->current_player(&st) != RP_TERMINAL; m++) {
            rp_action legal[RP_MAX_LEGAL];
            const int n = game->legal_actions(&st, legal);
            const rp_action a = legal[rp_rng_below(&rng, (uint32_t)n)];
            char move[RP_ACTION_TEXT];
            game->action_to_text(&st, a, move, sizeof move);
            game->apply(&st, a);
            w += snprintf(w, (size_t)(end - w), "%d play %s\n", m + 1, move);
        }
        w += snprintf(w, (size_t)(end - w),
                      "legal\nstate\nview 0\nview spectator\nevents 1\nevents spectator\n"
                      "showboard spectator\nstatus\nturn\nsecrets 0\nrecord\nundo\n"
                      "time_settings 60 5 1\ntime_left 0 30 0\nplay nonsense\n");
        play_random(game, &st, 20, &rng);
        char text[RP_STATE_TEXT];
        game->state_to_text(&st, text, sizeof text);
        w += snprintf(w, (size_t)(end - w), "load %s\nlegal\nstate\n", text);
        char name[64];
        snprintf(name, sizeof name, "%s", game->id);
        write_seed("protocol", name, script, (size_t)(w - script));
    }
    static const char no_game[] =
        "name\nversion\nprotocol_version\nlist_commands\nknown_command play\n"
        "known_command fly\nlist\nhelp\n# a comment\n\n7 legal\n8\nfly away\n"
        "new no-such-game\nnew castle-danger nonsense=1\nnew castle-danger players=9\n"
        "time_settings -1 0 0\nquit\nlist\n";
    write_seed("protocol", "no-game", no_game, sizeof no_game - 1);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_seeds CORPUS_DIR CARD_FILE\n");
        return 2;
    }
    root = argv[1];
    make_dir(root);
    for (int g = 0; g < rp_num_games; g++) {
        state_seeds(rp_games[g]);
        action_seeds(rp_games[g]);
    }
    option_seeds();
    ai_spec_seeds();
    record_seeds();
    card_seeds(argv[2]);
    protocol_seeds();
    return 0;
}
