/* cmd_replay.c — `ramparts replay FILE`: reads a game record, replays every move through the
 * rules, and refuses a record that does not replay with the line and the reason. */
#include <string.h>

#include "cli.h"

int rp_cmd_replay(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        printf("usage: ramparts replay FILE [--show]\n\n"
               "Replays a game record move by move and verifies it. Prints the number of moves\n"
               "and the result; --show also prints each move and the final position.\n"
               "Exit status 1 when the record does not replay.\n");
        return RP_EXIT_OK;
    }
    const char *path = NULL;
    bool show = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--show") == 0)
            show = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return rp_cli_usage_error("replay", "unknown option '%s'", argv[i]);
        else if (path)
            return rp_cli_usage_error("replay", "one record file at a time");
        else
            path = argv[i];
    }
    if (!path)
        return rp_cli_usage_error("replay", "which record file?");
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!in) {
        fprintf(stderr, "ramparts replay: cannot open %s\n", path);
        return RP_EXIT_FAIL;
    }
    rp_match m;
    rp_error err = {{0}};
    int rc = rp_record_read(&m, in, path, &err);
    if (in != stdin)
        fclose(in);
    if (rc < 0) {
        fprintf(stderr, "ramparts replay: %s\n", err.msg);
        return RP_EXIT_FAIL;
    }
    if (show) {
        rp_state st;
        rp_state_copy(m.game, &st, &m.start);
        for (size_t i = 0; i < m.num_moves; i++) {
            char text[RP_ACTION_TEXT];
            m.game->action_to_text(&st, m.moves[i], text, sizeof text);
            printf("%4zu. %-10s %s\n", i + 1, rp_seat_name(m.game, m.game->current_player(&st)),
                   text);
            m.game->apply(&st, m.moves[i]);
        }
        m.game->render(&m.state, 0, stdout, rp_cli_color(stdout));
    }
    char status[256];
    rp_match_status(&m, status, sizeof status);
    printf("%s: %s, %zu moves, %s\n", path, m.game->id, m.num_moves, status);
    rp_match_free(&m);
    return RP_EXIT_OK;
}
