/* cli_ai.h — the commands of the AI work: `ramparts arena` and the search speed figures of
 * `ramparts bench --ai`. */
#ifndef RP_CLI_AI_H
#define RP_CLI_AI_H

#include <stdio.h>

#include "ramparts/game.h"

int rp_cmd_arena(int argc, char **argv);

/* Search iterations per second at the start of each game (or only `game` when not NULL), on
 * one thread and on `threads` threads, one line per game on `out`. Returns an exit code. */
int rp_cli_bench_ai(const rp_game *game, int threads, FILE *out);

#endif
