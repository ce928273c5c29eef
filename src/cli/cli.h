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
int rp_cmd_review(int argc, char **argv);
int rp_cmd_bench(int argc, char **argv);
int rp_cmd_engine(int argc, char **argv);

/* The protocol of `ramparts engine` (docs/protocol.md) as a session answering on `answers`,
 * one line at a time: what rp_cmd_engine runs over stdin/stdout, and what tests and the
 * protocol fuzz target (tests/fuzz/fuzz_protocol.c) drive directly. open returns NULL when out
 * of memory; line returns false after `quit`; snapshot copies everything a command may change
 * into buf when it fits and returns the size it needs (a refused command must leave it
 * identical). */
typedef struct rp_engine_session rp_engine_session;
rp_engine_session *rp_engine_open(FILE *answers);
bool rp_engine_line(rp_engine_session *session, char *line);
size_t rp_engine_snapshot(const rp_engine_session *session, void *buf, size_t size);
void rp_engine_close(rp_engine_session *session);
int rp_cmd_arena(int argc, char **argv);
int rp_cmd_serve(int argc, char **argv);
int rp_cmd_watch(int argc, char **argv);
int rp_cmd_analyze(int argc, char **argv);
int rp_cmd_solve(int argc, char **argv);
int rp_cmd_tournaments(int argc, char **argv);

/* Search iterations per second at the start of each game (or only `game` when not NULL), on
 * one thread and on `threads` threads, one line per game on `out`. Returns an exit code. */
int rp_cli_bench_ai(const rp_game *game, int threads, FILE *out);

/* True when `f` is a terminal, NO_COLOR is unset or empty and TERM is not "dumb". */
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
#ifdef __clang_analyzer__
/* As rp_fail in game.h: tell the analyzer (one file at a time) what it returns. */
#define rp_cli_usage_error(...) (rp_cli_usage_error(__VA_ARGS__), RP_EXIT_USAGE)
#endif

/* Find a game by id or report the known ids on stderr. */
const rp_game *rp_cli_game(const char *command, const char *id);

/* Apply one game option "key=value" from the command line, as rp_config_set does, except
 * that key=@FILE on an option with a from_file converter reads FILE (text, at most
 * RP_CLI_OPTION_FILE_MAX bytes), converts it and sets the option to the converted value (so
 * records carry the value, not the path). Reports a problem on stderr as "ramparts COMMAND:
 * ..." and returns RP_EXIT_USAGE for a bad option, RP_EXIT_FAIL for a file that cannot be
 * read or does not convert; RP_EXIT_OK when set. */
#define RP_CLI_OPTION_FILE_MAX 65536
int rp_cli_set_option(const char *command, const rp_game *game, rp_config *cfg,
                      const char *key_value);

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

/* ---- the AI-game runner (run.c), shared by sim, arena and analyze ---- */

/* The turn cap a tool applies (CD-16): max_turns when the user gave one (> 0), else the
 * game's tool_turn_cap; 0 means none. */
int rp_cli_turn_cap(const rp_game *game, long long max_turns);

/* Counts turns as the game does (turn_number), or, for a game without that hook, as the
 * number of times the seat to act has changed, plus one. Feed it every state of a game in
 * order, the first included. */
typedef struct rp_cli_turns {
    int count;
    int last_player;
} rp_cli_turns;
void rp_cli_turns_start(rp_cli_turns *t);
/* The turn in progress in st (the last one once the game is over). */
int rp_cli_turns_at(const rp_game *game, rp_cli_turns *t, const void *st);

/* What one AI game came to. */
typedef struct rp_cli_outcome {
    double returns[RP_MAX_PLAYERS]; /* shares of the win; equal shares when unfinished */
    int players;
    long actions;    /* actions applied */
    int turns;       /* turns played, as rp_cli_turns_at counts them (the cap when stopped) */
    bool unfinished; /* stopped at the turn cap: not a result of the rules (CD-16) */
    /* Each seat's decisions and the wall-clock time they took (asking its AI or its engine
     * for the move): a report, never an input to play. */
    long decisions[RP_MAX_PLAYERS];
    unsigned long long think_ns[RP_MAX_PLAYERS];
} rp_cli_outcome;

/* Called before every action with the state, the seat to act, the action chosen and how many
 * actions were legal; and once more at the end with the final state, seat RP_TERMINAL (also
 * when the game was stopped at the cap) and RP_NO_ACTION. */
typedef void (*rp_cli_watch)(void *ctx, const void *st, int mover, rp_action action, int legal);

/* The analysis-only oracle's spec (src/ai/oracle.h), "oracle" or "oracle:PARAMS" (analyze
 * writes its --oracle parameters here before any game starts): rp_cli_ai_game makes the
 * oracle for a seat whose spec is this very array (compared by address), so text a user
 * types ("oracle" in `sim --ai`) never makes one; only `analyze` passes it. */
#define RP_CLI_ORACLE_SPEC 96
extern char rp_cli_oracle_spec[RP_CLI_ORACLE_SPEC];

/* Play one game from cfg, the AI specs[p] on each seat p (seeded ai_seed + p). A game still
 * going when turn turn_cap + 1 would begin (turn_cap > 0) is stopped and reported
 * unfinished. watch may be NULL. */
int rp_cli_ai_game(const rp_game *game, const rp_config *cfg, const char *const *specs,
                   uint64_t ai_seed, int turn_cap, rp_cli_watch watch, void *watch_ctx,
                   rp_cli_outcome *out, rp_error *err);

/* A seat played from outside this process (an engine program: rp_cli_engine_move): choose is
 * asked for the move of the seat to act in st, the referee's state, and answers a legal one
 * or fails with err. */
typedef struct rp_cli_seat {
    int (*choose)(void *ctx, const void *st, rp_action *move, rp_error *err);
    void *ctx;
} rp_cli_seat;

/* rp_cli_ai_game with some seats played from outside: external[p].choose (when external is
 * not NULL and it is) plays seat p in place of the AI specs[p]. */
int rp_cli_mixed_game(const rp_game *game, const rp_config *cfg, const char *const *specs,
                      const rp_cli_seat *external, uint64_t ai_seed, int turn_cap,
                      rp_cli_watch watch, void *watch_ctx, rp_cli_outcome *out, rp_error *err);

/* Run work(ctx, i, item_i, err) for every i in [0, count) on `threads` threads, with a
 * progress bar labelled `label` on a terminal; item_i is items + i * item_size, the result
 * of game i. Under MPI (mpirun) each process plays the indices i with i % ranks == rank and
 * the root process receives every item, so it ends with exactly the items one process
 * would have made. The first failure stops the run and is copied to err (on every process:
 * where it did not happen, err says so). */
#define RP_CLI_MAX_THREADS 256
typedef int (*rp_cli_work)(void *ctx, long index, void *item, rp_error *err);
int rp_cli_parallel(const char *label, long count, int threads, rp_cli_work work, void *ctx,
                    void *items, size_t item_size, rp_error *err);

/* The number of threads to use by default: the cores this process may run on. */
int rp_cli_cores(void);

/* ---- external engines (engine_client.c) ---- */

/* A program speaking `ramparts engine`'s protocol (docs/protocol.md), run as `PATH engine` in
 * its own process group; `ramparts arena --engine NAME=PATH` plays the specs NAME/SPEC on it.
 * One engine answers one command at a time: one thread uses it at once. */
#define RP_CLI_ENGINE_NAME 32
#define RP_CLI_ENGINE_PATH 1024
#define RP_CLI_ENGINE_SPEC 256
typedef struct rp_cli_engine rp_cli_engine;
/* Start it; every later answer must come within timeout_s seconds of its command. */
int rp_cli_engine_start(const char *name, const char *path, int timeout_s, rp_cli_engine **out,
                        rp_error *err);
const char *rp_cli_engine_name(const rp_cli_engine *e);
/* Send one command line and read its answer: RP_OK with the text after "= " (lines joined by
 * newlines, cut to size) in answer. A "? message", an answer outside the protocol, silence
 * past the deadline, or the engine's end are errors naming it, the command and the answer. */
int rp_cli_engine_ask(rp_cli_engine *e, const char *command, char *answer, size_t size,
                      rp_error *err);
/* `new GAME options` with cfg's options (the deal's seed included). */
int rp_cli_engine_new_game(rp_cli_engine *e, const rp_game *game, const rp_config *cfg,
                           rp_error *err);
/* The engine's move as `spec` for the seat to act in `referee`: it is sent the position
 * determinized for that seat from rng (never the referee's state) by `load`, checked back with
 * `state`, then `genmove spec`; its answer must be a legal move of the referee's state. */
int rp_cli_engine_move(rp_cli_engine *e, const rp_game *game, const void *referee, const char *spec,
                       rp_rng *rng, rp_action *move, rp_error *err);
/* End it (NULL: nothing): with graceful, `quit` and end of file, then a moment to leave; in
 * every case its process group is killed and it is reaped. */
void rp_cli_engine_stop(rp_cli_engine *e, bool graceful);

/* ---- the programs beside the tool (helper.c) ---- */

/* Replace this process with the program `helper` (ramparts-serve, ramparts-mpi), found in the
 * installed libexec folder or beside this binary, given argv[1..argc) as its arguments. Returns
 * (an exit code, after a message naming `what` and where it looked) only when it cannot. */
int rp_cli_exec_helper(const char *what, const char *helper, int argc, char **argv);
/* `ramparts serve` in the light tool: runs ramparts-serve (whose main is rp_cmd_serve). */
int rp_cmd_serve_elsewhere(int argc, char **argv);

/* ---- a server's read-only HTTP API (http_get.c) ---- */

/* Seconds any one wait (connect, send, each read) may take before the server is given up. */
#define RP_CLI_HTTP_TIMEOUT_S 30
typedef struct rp_cli_http_reply {
    int status; /* the HTTP status */
    char *body; /* NUL-terminated, malloc'ed */
    size_t length;
} rp_cli_http_reply;
/* GET url + path, url being http://HOST[:PORT][/PREFIX]. RP_EXIT_OK with out filled (the
 * caller frees out->body) whatever the status; RP_EXIT_USAGE for an address it cannot read
 * (https included: the tool links no TLS), RP_EXIT_FAIL when the server cannot be reached or
 * answers no HTTP; the reason in err. */
int rp_cli_http_get(const char *url, const char *path, rp_cli_http_reply *out, char *err,
                    size_t err_size);

/* ---- MPI (mpi.c): sim, arena and analyze split their games across processes ---- */

/* Start MPI when the process was launched by mpirun (else nothing): call first in main. */
void rp_cli_mpi_start(int *argc, char ***argv);
void rp_cli_mpi_end(void);
int rp_cli_mpi_rank(void);  /* 0 without MPI */
int rp_cli_mpi_ranks(void); /* 1 without MPI */
/* True on the process that prints and writes files (rank 0, or the only one). */
bool rp_cli_mpi_root(void);
/* Whether any process failed (all processes call it with their own flag). */
bool rp_cli_mpi_any(bool mine);
/* Bring every process's items (index i lives on process i % ranks) to the root process. */
int rp_cli_mpi_gather(void *items, size_t item_size, long count, rp_error *err);

/* ---- the interactive terminal (term.c) ---- */

/* Read one line for `prompt`: with editing and history (libedit) when stdin and stdout are
 * terminals, plain reads otherwise. A line longer than size - 1 or holding control
 * characters is refused whole (a message says so); an accepted line is trimmed, with runs of
 * blanks inside made one space. */
enum { RP_LINE_OK = 0, RP_LINE_EOF = -1, RP_LINE_REFUSED = -2 };
/* Tab completion (libedit): `list` gives the whole lines that may be typed now (commands and
 * moves; matched in any case), as a new array of new strings and their count; Tab completes the word
 * under the cursor from those that start with what is typed. NULL: none. */
typedef char **(*rp_cli_completions)(void *ctx, size_t *count);
void rp_cli_set_completions(rp_cli_completions list, void *ctx);
int rp_cli_read_line(const char *prompt, char *buf, size_t size);
/* A byte below 32, DEL, or a C1 control in UTF-8. */
bool rp_cli_line_has_control(const char *line);
void rp_cli_lower(char *text);
/* Clear the terminal (between the seats of a shared table); on a terminal that cannot
 * (TERM=dumb) scroll it away; through a pipe, a marked break. */
void rp_cli_clear_screen(void);
/* The width to wrap to: $COLUMNS when set (20 to 1000), else the terminal's when `f` is one,
 * else 0 (through a pipe lines stay whole). */
int rp_cli_width(FILE *f);
/* Text to out, each line longer than width (> 0) broken at spaces: continuation lines hang
 * under the text after a leading "Label: ", else two past the line's indent (wrap.c). */
void rp_cli_write_wrapped(FILE *out, const char *text, int width);
/* Long text through $PAGER (or less) on a terminal, else straight to stdout. */
void rp_cli_page(const char *text);
void rp_cli_sleep_ms(long ms);

/* ---- the record file of an interactive game (record_file.c) ---- */

/* Open the record file before the game starts: `path`, or (NULL) a new name under
 * $RAMPARTS_RECORDS (default ~/.local/share/ramparts/records) that no other game has. */
int rp_cli_record_open(const rp_match *m, const char *path, rp_error *err);
const char *rp_cli_record_path(void);
/* Keep the record of m current in memory; from the first call on, Ctrl-C (and SIGTERM,
 * SIGHUP) writes it, says where, and ends the program. */
void rp_cli_record_snapshot(const rp_match *m);
/* Write the record now and close it, saying where; returns an exit code. */
int rp_cli_record_save(const rp_match *m);

/* ---- narration (narrate.c) ---- */

/* The events of move entry i of m told to `viewer`, one indented line each, on out (NULL:
 * only look for the game-over sentence). A game without events gets "Red plays X." or, when
 * viewer could not see the move, "Red makes a move you cannot see." (rp_match_events). The
 * text of a "game-over" event is copied to over (may be NULL). */
void rp_cli_narrate(const rp_match *m, size_t i, int viewer, FILE *out, char *over,
                    size_t over_size);
/* The board as `viewer` sees it before entry i of m (i == rp_match_length: now), without the
 * game's own game-over line once the game is over (the one end-of-game line,
 * rp_cli_result_line, says it), its long lines broken at words to `width` (0: whole). */
void rp_cli_render(const rp_match *m, size_t i, int viewer, bool color, int width, FILE *out);
/* The number of rows of the terminal `f` is, or 0 when unknown or not a terminal. */
int rp_cli_rows(FILE *f);
/* The one end-of-game line: an ending other than the rules' (a resignation, time, ...), else
 * the game's own "game-over" sentence (over_text), else who won. */
void rp_cli_result_line(const rp_match *m, const char *over_text, FILE *out);
/* The "game-over" sentence of the match's last move for viewer ("" when none). */
void rp_cli_over_text(const rp_match *m, int viewer, char *buf, size_t size);
/* History entry i of m as `viewer` sees it: a header line ("-- Move 12: Red --"), the events
 * (a move's, indented) or a note (an undo, a re-sample, an ending), then an empty line and the
 * board after it. */
void rp_cli_show_entry(const rp_match *m, size_t i, int viewer, bool color, FILE *out);
/* A viewer named on the command line: a seat number or "spectator"; -3 (after a message)
 * when neither. */
int rp_cli_viewer(const char *command, const rp_game *game, int players, const char *text);

/* Nanoseconds from a monotonic clock. */
unsigned long long rp_cli_now_ns(void);

#endif
