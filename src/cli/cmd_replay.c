/* cmd_replay.c — `ramparts replay FILE`: reads a game record, replays every entry through the
 * rules and checks its result, refusing a record that does not replay with the line and the
 * reason. --show narrates the game as one viewer saw it; --step walks back and forth. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void replay_help(void)
{
    printf("usage: ramparts replay FILE [--show | --step] [--seat N|spectator]\n\n"
           "Replays a game record move by move and verifies it, its [result] included. Prints\n"
           "the number of moves and the result. Exit status 1 when the record does not replay.\n"
           "  --show   tell the whole game as the viewer saw it, then the final board\n"
           "  --step   step through the game: Enter or 'n' next, 'p' back, a number jumps to\n"
           "           that move, 'q' leaves\n"
           "  --seat   the viewer: a seat number, or 'spectator' (the default: public only)\n"
           "A game against the AI that is not over is shown only as its human seats saw it.\n");
}

/* The number of moves in history entries before i, plus one if i is a move. */
static size_t move_number_at(const rp_match *m, size_t i)
{
    size_t n = 0;
    for (size_t k = 0; k <= i && k < m->length; k++)
        n += m->history[k].kind == RP_ENTRY_MOVE;
    return n;
}

static void show_end(const rp_match *m, int viewer)
{
    char over[RP_ERROR_TEXT];
    rp_cli_over_text(m, viewer, over, sizeof over);
    if (rp_match_over(m))
        rp_cli_result_line(m, over, stdout);
    else
        printf("The game was left unfinished here.\n");
}

static void show_all(const rp_match *m, int viewer, bool color)
{
    for (size_t i = 0; i < m->length; i++)
        rp_cli_show_entry(m, i, move_number_at(m, i), viewer, color, stdout);
    show_end(m, viewer);
}

/* Show the position after `shown` entries (0: the start). */
static void show_position(const rp_match *m, size_t shown, int viewer, bool color)
{
    if (shown == 0) {
        printf("-- The start (%zu entries; Enter or 'n' for the next) --\n\n", m->length);
        rp_state st;
        rp_match_state_at(m, 0, &st);
        m->game->render(&st, viewer, stdout, color);
        return;
    }
    rp_cli_show_entry(m, shown - 1, move_number_at(m, shown - 1), viewer, color, stdout);
    if (shown == m->length)
        show_end(m, viewer);
}

static void step(const rp_match *m, int viewer, bool color)
{
    size_t shown = 0;
    char line[128];
    show_position(m, shown, viewer, color);
    for (;;) {
        int rc = rp_cli_read_line("replay> ", line, sizeof line);
        if (rc == RP_LINE_EOF)
            return;
        if (rc == RP_LINE_REFUSED)
            continue;
        rp_cli_lower(line);
        char *end;
        long jump = strtol(line, &end, 10);
        if (strcmp(line, "q") == 0 || strcmp(line, "quit") == 0)
            return;
        if (!*line || strcmp(line, "n") == 0 || strcmp(line, "next") == 0) {
            if (shown == m->length) {
                printf("That was the end ('p' goes back, 'q' leaves).\n");
                continue;
            }
            shown++;
        } else if (strcmp(line, "p") == 0 || strcmp(line, "b") == 0 || strcmp(line, "back") == 0) {
            if (shown == 0) {
                printf("This is the start.\n");
                continue;
            }
            shown--;
        } else if (end != line && !*end && jump >= 0) {
            size_t target = 0;
            for (size_t moves = 0; target < m->length && moves < (size_t)jump; target++)
                moves += m->history[target].kind == RP_ENTRY_MOVE;
            shown = target;
        } else {
            printf("Enter or 'n' next, 'p' back, a move number, 'q' to leave.\n");
            continue;
        }
        show_position(m, shown, viewer, color);
    }
}

int rp_cmd_replay(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        replay_help();
        return RP_EXIT_OK;
    }
    const char *path = NULL, *seat = NULL;
    bool show = false, stepping = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--show") == 0)
            show = true;
        else if (strcmp(argv[i], "--step") == 0)
            stepping = true;
        else if (strcmp(argv[i], "--seat") == 0) {
            if (!(seat = rp_cli_value("replay", argc, argv, &i)))
                return RP_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1])
            return rp_cli_usage_error("replay", "unknown option '%s'", argv[i]);
        else if (path)
            return rp_cli_usage_error("replay", "one record file at a time");
        else
            path = argv[i];
    }
    if (!path)
        return rp_cli_usage_error("replay", "which record file?");
    if (show && stepping)
        return rp_cli_usage_error("replay", "--show or --step, not both");
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
    int viewer = RP_SPECTATOR;
    if (seat &&
        (viewer = rp_cli_viewer("replay", m.game, m.game->num_players(&m.state), seat)) == -3) {
        rp_match_free(&m);
        return RP_EXIT_USAGE;
    }
    if ((show || stepping) && !rp_match_may_show(&m, viewer)) {
        fprintf(stderr,
                "ramparts replay: %s: the game is not over and %s (seat %d) is played by %s: "
                "until it ends only the human seats' views and the spectator's are shown\n",
                path, rp_seat_name(m.game, viewer), viewer, m.seats[viewer]);
        rp_match_free(&m);
        return RP_EXIT_FAIL;
    }
    const bool color = rp_cli_color(stdout);
    if (show)
        show_all(&m, viewer, color);
    if (stepping)
        step(&m, viewer, color);
    char status[256];
    rp_match_status(&m, status, sizeof status);
    printf("%s: %s, %zu moves, %s\n", path, m.game->id, m.num_moves, status);
    rp_match_free(&m);
    return RP_EXIT_OK;
}
