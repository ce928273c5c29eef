/* bench_ai.c — `ramparts bench --ai`: how many search iterations per second the AI runs in
 * each game, on one thread and on several (root-parallel), from the game's bench position.
 * Information-set MCTS for games with hidden information, UCT for the others. */
#include <string.h>

#include "cli.h"

#define BENCH_AI_MS 1000
#define BENCH_AI_SEED 20261121u

/* Iterations per second of one timed search with `threads` threads from st. */
static int measure(const rp_game *game, const void *st, int threads, double *per_s)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%s:ms=%d,threads=%d",
             game->flags & RP_HIDDEN_INFO ? "ismcts" : "mcts", BENCH_AI_MS, threads);
    rp_ai *ai;
    rp_error err;
    if (rp_ai_create(game, spec, BENCH_AI_SEED, &ai, &err) < 0) {
        fprintf(stderr, "ramparts bench: %s: %s\n", game->id, err.msg);
        return RP_EXIT_FAIL;
    }
    rp_action move;
    rp_ai_info info;
    unsigned long long t0 = rp_cli_now_ns();
    int rc = rp_ai_choose(ai, st, &move, &info, &err);
    double seconds = (double)(rp_cli_now_ns() - t0) / 1e9;
    rp_ai_free(ai);
    if (rc < 0) {
        fprintf(stderr, "ramparts bench: %s: %s\n", game->id, err.msg);
        return RP_EXIT_FAIL;
    }
    *per_s = (double)info.iterations / seconds;
    return RP_EXIT_OK;
}

/* The bench position: the start of a game with the bench options and a fixed seed. */
static int bench_position(const rp_game *game, rp_state *st)
{
    rp_config cfg;
    rp_error err;
    rp_config_default(game, &cfg);
    if (game->bench_options) {
        char opts[256];
        snprintf(opts, sizeof opts, "%s", game->bench_options);
        for (char *tok = strtok(opts, " "); tok; tok = strtok(NULL, " "))
            if (rp_config_set(game, &cfg, tok, &err) < 0)
                goto fail;
    }
    cfg.seed = BENCH_AI_SEED;
    if (game->init(st, &cfg, &err) >= 0)
        return RP_EXIT_OK;
fail:
    fprintf(stderr, "ramparts bench: %s: %s\n", game->id, err.msg);
    return RP_EXIT_FAIL;
}

int rp_cli_bench_ai(const rp_game *game, int threads, FILE *out)
{
    for (int i = 0; i < rp_num_games; i++) {
        const rp_game *g = rp_games[i];
        if (game && g != game)
            continue;
        rp_state st;
        double one, many = 0;
        if (bench_position(g, &st) != RP_EXIT_OK || measure(g, &st, 1, &one) != RP_EXIT_OK)
            return RP_EXIT_FAIL;
        if (threads > 1 && measure(g, &st, threads, &many) != RP_EXIT_OK)
            return RP_EXIT_FAIL;
        fprintf(out, "%s ai=%s iters_per_s_1=%.0f", g->id,
                g->flags & RP_HIDDEN_INFO ? "ismcts" : "mcts", one);
        if (threads > 1)
            fprintf(out, " iters_per_s_%d=%.0f speedup=%.2f", threads, many, many / one);
        fprintf(out, "\n");
        fflush(out);
    }
    return RP_EXIT_OK;
}
