/* cli.h — what the `ramparts` commands share: the command table entry, terminal conventions
 * (colour only on a terminal and never with NO_COLOR, progress bars only on a terminal), and
 * parsing of the arguments every command takes (a game id, key=value options). */
#ifndef RP_CLI_H
#define RP_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ramparts/ai.h"
#include "ramparts/engine.h"
#include "ramparts/game.h"

/* Exit codes: 0 success, 1 the work failed (an invalid record, a failed game), 2 bad usage. */
enum { RP_EXIT_OK = 0, RP_EXIT_FAIL = 1, RP_EXIT_USAGE = 2 };

typedef struct rp_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} rp_command;

int rp_cmd_list(int argc, char **argv);
int rp_cmd_rules(int argc, char **argv);
int rp_cmd_play(int argc, char **argv);
int rp_cmd_sim(int argc, char **argv);
int rp_cmd_replay(int argc, char **argv);
int rp_cmd_bench(int argc, char **argv);
int rp_cmd_engine(int argc, char **argv);
int rp_cmd_arena(int argc, char **argv);
int rp_cmd_serve(int argc, char **argv);

/* Search iterations per second at the start of each game (or only `game` when not NULL), on
 * one thread and on `threads` threads, one line per game on `out`. Returns an exit code. */
int rp_cli_bench_ai(const rp_game *game, int threads, FILE *out);

/* True when `f` is a terminal and NO_COLOR is unset or empty. */
bool rp_cli_color(FILE *f);
/* True when `f` is a terminal. */
bool rp_cli_tty(FILE *f);

/* "-h" or "--help" among the arguments. */
bool rp_cli_wants_help(int argc, char **argv);

/* Report a usage error on stderr ("ramparts CMD: message") and return RP_EXIT_USAGE. */
int rp_cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Find a game by id or report the known ids on stderr. */
const rp_game *rp_cli_game(const char *command, const char *id);

/* Value of an option that takes one argument ("--games N"), advancing *i; NULL (after a
 * message) when it is missing. */
const char *rp_cli_value(const char *command, int argc, char **argv, int *i);
/* A whole number in [min, max] or a message; false on error. */
bool rp_cli_number(const char *command, const char *option, const char *text, long long min,
                   long long max, long long *out);

/* A progress bar on stderr, drawn only on a terminal. */
typedef struct rp_progress {
    bool enabled;
    long total, done;
    int last_width;
    const char *label;
} rp_progress;
void rp_progress_start(rp_progress *p, const char *label, long total);
void rp_progress_update(rp_progress *p, long done);
void rp_progress_finish(rp_progress *p);

/* Play one game from cfg, the AI specs[p] on each seat p (seeded ai_seed + p); write the
 * returns and (if not NULL) the number of actions. */
int rp_cli_ai_game(const rp_game *game, const rp_config *cfg, const char *const *specs,
                   uint64_t ai_seed, double *returns, long *actions, rp_error *err);

/* Run work(ctx, i, err) for every i in [0, count) on `threads` threads, with a progress bar
 * labelled `label` on a terminal. The first failure stops the run and is copied to err. */
#define RP_CLI_MAX_THREADS 256
typedef int (*rp_cli_work)(void *ctx, long index, rp_error *err);
int rp_cli_parallel(const char *label, long count, int threads, rp_cli_work work, void *ctx,
                    rp_error *err);

/* Nanoseconds from a monotonic clock. */
unsigned long long rp_cli_now_ns(void);

#endif
