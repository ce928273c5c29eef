/* main.c — the `ramparts` tool: a table of commands, each a thin client of the library
 * (the public headers under include/ramparts). The same file is the main of ramparts-mpi
 * (built with Open MPI); `serve` runs the program ramparts-serve (helper.c). */
#include <string.h>

#include "cli.h"
#include "ramparts/version.h"

static const rp_command commands[] = {
    {"list", "list the games", rp_cmd_list},
    {"rules", "print the rules of a game as implemented", rp_cmd_rules},
    {"play", "play a game in the terminal against the AI or each other", rp_cmd_play},
    {"sim", "play AI against AI many times and count the results", rp_cmd_sim},
    {"watch", "watch AIs play, from a seat or as a spectator", rp_cmd_watch},
    {"replay", "replay and verify a game record, or step through it", rp_cmd_replay},
    {"review", "review one seat's moves in a record: marks and better moves", rp_cmd_review},
    {"bench", "measure random-playout speed on a fixed workload", rp_cmd_bench},
    {"arena", "play AIs against each other and measure their strength", rp_cmd_arena},
    {"analyze", "balance report of a game: AI and human games, variants, HTML", rp_cmd_analyze},
    {"solve", "solve a small configuration exactly with CFR+: exploitability, policy",
     rp_cmd_solve},
    {"tournaments", "list a server's tournaments, or print one's standings and pairings",
     rp_cmd_tournaments},
    {"engine", "speak the text protocol on stdin/stdout (docs/protocol.md)", rp_cmd_engine},
    {"serve", "run the online server: play each other and the AI in a browser",
     rp_cmd_serve_elsewhere},
};
#define NUM_COMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void usage(FILE *out)
{
    fprintf(out, "usage: ramparts COMMAND [ARGS...]\n\n"
                 "Ramparts: exact rules, fast simulation and AI for five wall-and-castle games.\n\n"
                 "Commands:\n");
    for (int i = 0; i < NUM_COMMANDS; i++)
        fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'ramparts COMMAND --help' for a command's options.\n"
                 "Example: ramparts play danger-at-the-walls --seat 1=greedy\n");
}

static int run_command(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return RP_EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return RP_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("ramparts %s\n", RP_VERSION_STRING);
        return RP_EXIT_OK;
    }
    for (int i = 0; i < NUM_COMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ramparts: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return RP_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    rp_cli_mpi_start(&argc, &argv);
    int rc = run_command(argc, argv);
    rp_cli_mpi_end();
    return rc;
}
