/* bench.c — the workload of `ramparts bench` (src/cli/cmd_bench.c, bench_ai.c), of the
 * WebAssembly build's bench operations (src/wasm/bench.c) and of the Python module's
 * random_playouts: seeded random playouts from each game's bench options. It never changes,
 * so its action count is a signature: a different count means the rules or the generator did. */
#include <string.h>

#include "core/rng_internal.h"
#include "ramparts/engine.h"

int rp_bench_config(const rp_game *game, rp_config *cfg, rp_error *err)
{
    rp_config_default(game, cfg);
    cfg->seed = RP_BENCH_SEED;
    if (!game->bench_options)
        return RP_OK;
    char options[256];
    if (strlen(game->bench_options) >= sizeof options)
        return rp_fail(err, RP_EINVAL, "%s: the bench options are too long", game->id);
    snprintf(options, sizeof options, "%s", game->bench_options);
    char *save = NULL;
    for (char *tok = strtok_r(options, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        const int rc = rp_config_set(game, cfg, tok, err);
        if (rc < 0)
            return rc;
    }
    return RP_OK;
}

int rp_random_playouts(const rp_game *game, const rp_config *cfg, long long games,
                       uint64_t *actions, rp_error *err)
{
    rp_config deal = *cfg;
    rp_rng rng;
    rp_rng_seed(&rng, cfg->seed, 1);
    rp_state st;
    rp_action legal[RP_MAX_LEGAL];
    uint64_t played = 0; /* a local: the calls below cannot be seen not to change *actions */
    for (long long g = 0; g < games; g++) {
        deal.seed = cfg->seed + (uint64_t)g;
        const int rc = game->init(&st, &deal, err);
        if (rc < 0)
            return rc;
        while (game->current_player(&st) != RP_TERMINAL) {
            const int n = game->legal_actions(&st, legal);
            game->apply(&st, legal[rp__rng_below(&rng, (uint32_t)n)]);
            played++;
        }
    }
    *actions = played;
    return RP_OK;
}

const char *rp_bench_ai_kind(const rp_game *game)
{
    return game->flags & RP_HIDDEN_INFO ? "ismcts" : "mcts";
}
