/* bench_ai.c — `ramparts bench --ai`: how many search iterations per second the AI runs in
 * each game, on one thread and on several (root-parallel), from the game's bench position.
 * Information-set MCTS for games with hidden information, UCT for the others. */
#include "cli.h"

#define BENCH_AI_MS 1000

/* Iterations per second of one timed search with `threads` threads from st. */
static int measure(const rp_game *game, const void *st, int threads, double *per_s)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%s:ms=%d,threads=%d", rp_bench_ai_kind(game), BENCH_AI_MS,
             threads);
    rp_ai *ai;
    rp_error err;
    if (rp_ai_create(game, spec, RP_BENCH_SEED, &ai, &err) < 0) {
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

/* The bench position: the start of a game with the bench options and seed (engine.h). */
static int bench_position(const rp_game *game, rp_state *st)
{
    rp_config cfg;
    rp_error err;
    if (rp_bench_config(game, &cfg, &err) >= 0 && game->init(st, &cfg, &err) >= 0)
        return RP_EXIT_OK;
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
        fprintf(out, "%s ai=%s iters_per_s_1=%.0f", g->id, rp_bench_ai_kind(g), one);
        if (threads > 1)
            fprintf(out, " iters_per_s_%d=%.0f speedup=%.2f", threads, many, many / one);
        fprintf(out, "\n");
        fflush(out);
    }
    return RP_EXIT_OK;
}
