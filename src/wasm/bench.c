/* bench.c — the engine's speed measured inside WebAssembly, with the workloads of the native
 * `ramparts bench` (the library's seeded random playouts from each game's bench position,
 * engine.h, whose action count is the same signature natively) and `ramparts bench --ai`
 * (src/cli/bench_ai.c: one timed search from the bench position), for `make bench-web`. */
#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "request.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

cJSON *rw_op_bench(const cJSON *req, rp_error *err)
{
    const rp_game *game;
    long long games;
    rp_config cfg;
    if (rw_field_game(req, &game, err) < 0 ||
        rw_field_int(req, "games", false, RP_BENCH_GAMES, 1, 100000000, &games, err) < 0 ||
        rp_bench_config(game, &cfg, err) < 0)
        return NULL;
    uint64_t actions;
    const double t0 = now_seconds();
    if (rp_random_playouts(game, &cfg, games, &actions, err) < 0)
        return NULL;
    const double seconds = now_seconds() - t0;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", game->id);
    cJSON_AddNumberToObject(o, "games", (double)games);
    cJSON_AddNumberToObject(o, "games_per_s", (double)games / seconds);
    cJSON_AddNumberToObject(o, "ns_per_action", seconds * 1e9 / (double)actions);
    cJSON_AddNumberToObject(o, "actions", (double)actions);
    return o;
}

cJSON *rw_op_bench_ai(const cJSON *req, rp_error *err)
{
    const rp_game *game;
    long long ms;
    rp_config cfg;
    if (rw_field_game(req, &game, err) < 0 ||
        rw_field_int(req, "ms", false, 1000, 1, 60000, &ms, err) < 0 ||
        rp_bench_config(game, &cfg, err) < 0)
        return NULL;
    rp_state st;
    if (game->init(&st, &cfg, err) < 0)
        return NULL;
    char spec[64];
    const char *kind = rp_bench_ai_kind(game);
    snprintf(spec, sizeof spec, "%s:ms=%lld,threads=1", kind, ms);
    rp_ai *ai;
    if (rp_ai_create(game, spec, RP_BENCH_SEED, &ai, err) < 0)
        return NULL;
    rp_action move;
    rp_ai_info info;
    const double t0 = now_seconds();
    int rc = rp_ai_choose(ai, &st, &move, &info, err);
    const double seconds = now_seconds() - t0;
    rp_ai_free(ai);
    if (rc < 0)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", game->id);
    cJSON_AddStringToObject(o, "ai", kind);
    cJSON_AddNumberToObject(o, "iters_per_s", (double)info.iterations / seconds);
    return o;
}
