/* run.c — what `sim` and `arena` share: one AI-against-AI game, and many of them spread over
 * threads with a progress bar. Each game is a pure function of its index, so totals never
 * depend on the number of threads. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "cli.h"

int rp_cli_ai_game(const rp_game *game, const rp_config *cfg, const char *const *specs,
                   uint64_t ai_seed, double *returns, long *actions, rp_error *err)
{
    rp_state st;
    rp_ai *ais[RP_MAX_PLAYERS] = {0};
    int rc = game->init(&st, cfg, err);
    const int players = rc < 0 ? 0 : game->num_players(&st);
    for (int p = 0; rc == RP_OK && p < players; p++)
        rc = rp_ai_create(game, specs[p], ai_seed + (uint64_t)p, &ais[p], err);
    long played = 0;
    while (rc == RP_OK && game->current_player(&st) != RP_TERMINAL) {
        rp_action move;
        rc = rp_ai_choose(ais[game->current_player(&st)], &st, &move, NULL, err);
        if (rc == RP_OK) {
            game->apply(&st, move);
            played++;
        }
    }
    for (int p = 0; p < players; p++)
        rp_ai_free(ais[p]);
    if (rc < 0)
        return rc;
    game->returns(&st, returns);
    if (actions)
        *actions = played;
    return RP_OK;
}

typedef struct parallel_run {
    long count;
    rp_cli_work work;
    void *ctx;
    atomic_long next, done;
    atomic_int failed;
    rp_error error; /* the first failure's */
} parallel_run;

static void *parallel_worker(void *arg)
{
    parallel_run *run = arg;
    for (;;) {
        const long index = atomic_fetch_add(&run->next, 1);
        if (index >= run->count || atomic_load(&run->failed))
            return NULL;
        rp_error err = {{0}};
        if (run->work(run->ctx, index, &err) < 0 && atomic_exchange(&run->failed, 1) == 0)
            run->error = err;
        atomic_fetch_add(&run->done, 1);
    }
}

int rp_cli_parallel(const char *label, long count, int threads, rp_cli_work work, void *ctx,
                    rp_error *err)
{
    /* On this stack: every worker is joined before it returns, and runs on other threads
     * (a server's, say) do not share it. */
    parallel_run run = {0};
    run.count = count;
    run.work = work;
    run.ctx = ctx;
    atomic_store(&run.next, 0);
    atomic_store(&run.done, 0);
    atomic_store(&run.failed, 0);
    pthread_t tids[RP_CLI_MAX_THREADS];
    int started = 0;
    for (int t = 0; t < threads && t < RP_CLI_MAX_THREADS; t++)
        if (pthread_create(&tids[started], NULL, parallel_worker, &run) == 0)
            started++;
    if (started == 0)
        parallel_worker(&run);
    rp_progress bar;
    rp_progress_start(&bar, label, count);
    while (started && atomic_load(&run.done) < count && !atomic_load(&run.failed)) {
        rp_progress_update(&bar, atomic_load(&run.done));
        struct timespec ts = {0, 50000000L}; /* 50 ms */
        nanosleep(&ts, NULL);
    }
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    rp_progress_finish(&bar);
    if (!atomic_load(&run.failed))
        return RP_OK;
    if (err)
        *err = run.error;
    return RP_EINVAL;
}
