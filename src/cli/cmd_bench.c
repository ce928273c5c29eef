/* cmd_bench.c — `ramparts bench [GAME]`: a fixed workload of seeded random playouts per game,
 * timed. Like Stockfish's bench, the workload never changes, so the action count doubles as a
 * signature: a different count means the rules or the generator changed. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

typedef struct bench_result {
    double games_per_s, ns_per_action;
    uint64_t actions;
} bench_result;

/* Play `games` games of the bench workload (engine.h), timed. */
static int bench_game(const rp_game *game, long long games, bench_result *out)
{
    rp_config cfg;
    rp_error err;
    if (rp_bench_config(game, &cfg, &err) < 0) {
        fprintf(stderr, "ramparts bench: %s: %s\n", game->id, err.msg);
        return RP_EXIT_FAIL;
    }
    const unsigned long long t0 = rp_cli_now_ns();
    if (rp_random_playouts(game, &cfg, games, &out->actions, &err) < 0) {
        fprintf(stderr, "ramparts bench: %s: %s\n", game->id, err.msg);
        return RP_EXIT_FAIL;
    }
    const double seconds = (double)(rp_cli_now_ns() - t0) / 1e9;
    out->games_per_s = (double)games / seconds;
    out->ns_per_action = seconds * 1e9 / (double)out->actions;
    return RP_EXIT_OK;
}

int rp_cmd_bench(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        printf("usage: ramparts bench [GAME] [--games N] [--json]\n"
               "       ramparts bench [GAME] --ai [--threads T]\n\n"
               "Times a fixed workload of %d seeded random playouts per game (all games, or\n"
               "GAME) on one core and prints one line per game:\n"
               "  GAME games_per_s=X ns_per_action=Y actions=Z\n"
               "actions is the workload's total number of actions: a fixed signature that changes\n"
               "only when the rules or the generator change.\n"
               "With --ai it prints instead the AI's search iterations per second from each\n"
               "game's start, on one thread and on T threads (default 2).\n",
               RP_BENCH_GAMES);
        return RP_EXIT_OK;
    }
    const rp_game *only = NULL;
    long long games = RP_BENCH_GAMES;
    long long threads = 2;
    bool json = false, ai = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--ai") == 0) {
            ai = true;
        } else if (strcmp(argv[i], "--threads") == 0) {
            const char *v = rp_cli_value("bench", argc, argv, &i);
            if (!v || !rp_cli_number("bench", "--threads", v, 1, 64, &threads))
                return RP_EXIT_USAGE;
        } else if (strcmp(argv[i], "--games") == 0) {
            const char *v = rp_cli_value("bench", argc, argv, &i);
            if (!v || !rp_cli_number("bench", "--games", v, 1, 100000000, &games))
                return RP_EXIT_USAGE;
        } else if (argv[i][0] == '-') {
            return rp_cli_usage_error("bench", "unknown option '%s'", argv[i]);
        } else if (only) {
            return rp_cli_usage_error("bench", "one game at a time");
        } else if (!(only = rp_cli_game("bench", argv[i]))) {
            return RP_EXIT_USAGE;
        }
    }
    if (ai)
        return rp_cli_bench_ai(only, (int)threads, stdout);
    if (json)
        printf("[");
    int printed = 0;
    for (int i = 0; i < rp_num_games; i++) {
        const rp_game *game = rp_games[i];
        if (only && game != only)
            continue;
        bench_result r;
        if (bench_game(game, games, &r) != RP_EXIT_OK)
            return RP_EXIT_FAIL;
        if (json)
            printf("%s{\"game\":\"%s\",\"games\":%lld,\"games_per_s\":%.0f,"
                   "\"ns_per_action\":%.1f,\"actions\":%" PRIu64 "}",
                   printed ? "," : "", game->id, games, r.games_per_s, r.ns_per_action, r.actions);
        else
            printf("%s games_per_s=%.0f ns_per_action=%.1f actions=%" PRIu64 "\n", game->id,
                   r.games_per_s, r.ns_per_action, r.actions);
        fflush(stdout);
        printed++;
    }
    if (json)
        printf("]\n");
    return RP_EXIT_OK;
}
