/* run.c — what `sim`, `arena` and `analyze` share: one AI-against-AI game stopped at the
 * tools' turn cap (CD-16), and many games spread over threads (and MPI processes) with a
 * progress bar. Each game is a pure function of its index, so totals never depend on the
 * number of threads or processes. */
#define _GNU_SOURCE /* sched_getaffinity: under mpirun a process may be bound to one core */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ai/oracle.h"
#include "cli.h"

char rp_cli_oracle_spec[RP_CLI_ORACLE_SPEC] = RP_ORACLE_NAME;

int rp_cli_turn_cap(const rp_game *game, long long max_turns)
{
    if (max_turns > 0)
        return (int)max_turns;
    return game->tool_turn_cap > 0 ? game->tool_turn_cap : 0;
}

void rp_cli_turns_start(rp_cli_turns *t)
{
    t->count = 0;
    t->last_player = RP_TERMINAL;
}

int rp_cli_turns_at(const rp_game *game, rp_cli_turns *t, const void *st)
{
    if (game->turn_number) {
        t->count = game->turn_number(st);
        return t->count;
    }
    const int player = game->current_player(st);
    if (player != RP_TERMINAL && player != t->last_player) {
        t->count++;
        t->last_player = player;
    }
    return t->count;
}

/* Ask the seat to act for its move (its engine, else its AI), timed; the legal count only
 * when someone watches. */
static int next_move(const rp_game *game, rp_ai *const *ais, const rp_cli_seat *external,
                     const void *st, bool count_legal, rp_action *move, int *legal,
                     rp_cli_outcome *out, rp_error *err)
{
    if (count_legal) {
        rp_action buf[RP_MAX_LEGAL];
        *legal = game->legal_actions(st, buf);
    }
    const int seat = game->current_player(st);
    const unsigned long long start = rp_cli_now_ns();
    const int rc = external && external[seat].choose
                       ? external[seat].choose(external[seat].ctx, st, move, err)
                       : rp_ai_choose(ais[seat], st, move, NULL, err);
    out->think_ns[seat] += rp_cli_now_ns() - start;
    out->decisions[seat]++;
    return rc;
}

/* The AI of seat p, unless an engine plays it. */
static int make_ai(const rp_game *game, const char *spec, const rp_cli_seat *external, int p,
                   uint64_t ai_seed, rp_ai **ai, rp_error *err)
{
    if (external && external[p].choose)
        return RP_OK;
    if (spec == rp_cli_oracle_spec) /* this very array: only analyze passes it */
        return rp_ai_create_oracle(game,
                                   rp_cli_oracle_spec + strlen(RP_ORACLE_NAME) +
                                       (strchr(rp_cli_oracle_spec, ':') != NULL),
                                   ai_seed + (uint64_t)p, ai, err);
    return rp_ai_create(game, spec, ai_seed + (uint64_t)p, ai, err);
}

int rp_cli_ai_game(const rp_game *game, const rp_config *cfg, const char *const *specs,
                   uint64_t ai_seed, int turn_cap, rp_cli_watch watch, void *watch_ctx,
                   rp_cli_outcome *out, rp_error *err)
{
    return rp_cli_mixed_game(game, cfg, specs, NULL, ai_seed, turn_cap, watch, watch_ctx, out, err);
}

int rp_cli_mixed_game(const rp_game *game, const rp_config *cfg, const char *const *specs,
                      const rp_cli_seat *external, uint64_t ai_seed, int turn_cap,
                      rp_cli_watch watch, void *watch_ctx, rp_cli_outcome *out, rp_error *err)
{
    rp_state st;
    rp_ai *ais[RP_MAX_PLAYERS] = {0};
    memset(out, 0, sizeof *out);
    int rc = game->init(&st, cfg, err);
    const int players = rc < 0 ? 0 : game->num_players(&st);
    for (int p = 0; rc == RP_OK && p < players; p++)
        rc = make_ai(game, specs[p], external, p, ai_seed, &ais[p], err);
    rp_cli_turns turns;
    rp_cli_turns_start(&turns);
    while (rc == RP_OK && game->current_player(&st) != RP_TERMINAL) {
        const int turn = rp_cli_turns_at(game, &turns, &st); /* every state: see cli.h */
        if (turn_cap > 0 && turn > turn_cap) {
            out->unfinished = true;
            break;
        }
        rp_action move;
        int legal = 0;
        rc = next_move(game, ais, external, &st, watch != NULL, &move, &legal, out, err);
        if (rc == RP_OK) {
            if (watch)
                watch(watch_ctx, &st, game->current_player(&st), move, legal);
            game->apply(&st, move);
            out->actions++;
        }
    }
    for (int p = 0; p < players; p++)
        rp_ai_free(ais[p]);
    if (rc < 0)
        return rc;
    out->players = players;
    /* a game stopped as turn cap + 1 began has played cap turns */
    out->turns = out->unfinished ? turn_cap : rp_cli_turns_at(game, &turns, &st);
    if (out->unfinished) {
        for (int p = 0; p < players; p++)
            out->returns[p] = 1.0 / players;
    } else {
        game->returns(&st, out->returns);
    }
    if (watch)
        watch(watch_ctx, &st, RP_TERMINAL, RP_NO_ACTION, 0);
    return RP_OK;
}

int rp_cli_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The work of one process: its indices are rank, rank + ranks, ... below count. */
typedef struct parallel_run {
    long count, rank, ranks, local; /* local: how many indices this process plays */
    rp_cli_work work;
    void *ctx;
    unsigned char *items;
    size_t item_size;
    atomic_long next, done;
    atomic_int failed;
    rp_error error; /* the first failure's */
} parallel_run;

static void *parallel_worker(void *arg)
{
    parallel_run *run = arg;
    for (;;) {
        const long k = atomic_fetch_add(&run->next, 1);
        if (k >= run->local || atomic_load(&run->failed))
            return NULL;
        const long index = run->rank + k * run->ranks;
        rp_error err = {{0}};
        if (run->work(run->ctx, index, run->items + (size_t)index * run->item_size, &err) < 0 &&
            atomic_exchange(&run->failed, 1) == 0)
            run->error = err;
        atomic_fetch_add(&run->done, 1);
    }
}

int rp_cli_parallel(const char *label, long count, int threads, rp_cli_work work, void *ctx,
                    void *items, size_t item_size, rp_error *err)
{
    /* On this stack: every worker is joined before it returns, and runs on other threads
     * (a server's, say) do not share it. */
    parallel_run run = {0};
    run.count = count;
    run.rank = rp_cli_mpi_rank();
    run.ranks = rp_cli_mpi_ranks();
    run.local = count > run.rank ? (count - run.rank + run.ranks - 1) / run.ranks : 0;
    run.work = work;
    run.ctx = ctx;
    run.items = items;
    run.item_size = item_size;
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
    rp_progress_start(&bar, label, run.local);
    while (started && atomic_load(&run.done) < run.local && !atomic_load(&run.failed)) {
        rp_progress_update(&bar, atomic_load(&run.done));
        struct timespec ts = {0, 50000000L}; /* 50 ms */
        nanosleep(&ts, NULL);
    }
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    rp_progress_finish(&bar);
    const bool failed_here = atomic_load(&run.failed) != 0;
    if (rp_cli_mpi_any(failed_here)) {
        if (err)
            *err = failed_here ? run.error
                               : (rp_error){"a game failed in another MPI process (see its "
                                            "message)"};
        return RP_EINVAL;
    }
    return rp_cli_mpi_gather(items, item_size, count, err);
}
