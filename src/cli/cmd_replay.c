/* cmd_replay.c — `ramparts replay FILE`: reads a game record, replays every entry through the
 * rules and checks its result, refusing a record that does not replay with the line and the
 * reason. --show narrates the game as one viewer saw it; --step walks back and forth. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void replay_help(void)
{
    printf("usage: ramparts replay FILE [--show | --step] [--seat N|spectator] [--json]\n\n"
           "Replays a game record move by move and verifies it, its [result] included. Says\n"
           "who played, how many moves, and who won and why (or who was to play). Exit status\n"
           "1 when the record does not replay.\n"
           "  --show   tell the whole game as the viewer saw it, then the final board\n"
           "  --step   step through the game: Enter or 'n' next, 'p' back, a number jumps to\n"
           "           that move, 'q' leaves\n"
           "  --seat   the viewer: a seat number, or 'spectator' (the default: public only)\n"
           "  --json   the summary as one JSON object: file, game, moves, status (the\n"
           "           record's [result] notation), result (in words)\n"
           "A game against the AI that is not over is shown only as its human seats saw it.\n");
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
    for (size_t i = 0; i < rp_match_length(m); i++)
        rp_cli_show_entry(m, i, viewer, color, stdout);
    show_end(m, viewer);
}

/* Show the position after `shown` entries (0: the start). */
static void show_position(const rp_match *m, size_t shown, int viewer, bool color)
{
    if (shown == 0) {
        const size_t moves = rp_match_moves(m);
        printf("-- The start (%zu move%s; Enter or 'n' for the next) --\n\n", moves,
               moves == 1 ? "" : "s");
        rp_cli_render(m, 0, viewer, color, rp_cli_width(stdout), stdout);
        return;
    }
    rp_cli_show_entry(m, shown - 1, viewer, color, stdout);
    if (shown == rp_match_length(m))
        show_end(m, viewer);
}

static void step(const rp_match *m, int viewer, bool color)
{
    const size_t length = rp_match_length(m), moves = rp_match_moves(m);
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
            if (shown == length) {
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
            if ((unsigned long)jump > moves)
                printf("The game has %zu move%s: here is the last.\n", moves,
                       moves == 1 ? "" : "s");
            /* Just after the jump-th move (the end when there is none). */
            const size_t at = jump ? rp_match_move_index(m, (size_t)jump - 1) : 0;
            shown = jump && at < length ? at + 1 : jump ? length : 0;
        } else {
            printf("Enter or 'n' next, 'p' back, a move number, 'q' to leave.\n");
            continue;
        }
        show_position(m, shown, viewer, color);
    }
}

/* The result in words: who won and why, or who was to play. */
static void result_words(const rp_match *m, FILE *out)
{
    if (rp_match_over(m)) {
        char over[RP_ERROR_TEXT];
        rp_cli_over_text(m, RP_SPECTATOR, over, sizeof over);
        rp_cli_result_line(m, over, out);
        return;
    }
    const int next = rp_match_to_move(m);
    fprintf(out, "Unfinished: %s (seat %d) was to play.\n", rp_seat_name(rp_match_game(m), next),
            next);
}

/* The record in words: the game, who played, how long, the result; and what else to ask. */
/* The record's summary; `told_result`: --show has just ended on the result line, which is not
 * said twice (--step may be left anywhere, so it still gets it). */
static void summary(const rp_match *m, const char *path, bool hints, bool told_result)
{
    const rp_game *game = rp_match_game(m);
    const size_t moves = rp_match_moves(m);
    printf("%s: %s, %zu move%s, verified.\n", path, game->title, moves, moves == 1 ? "" : "s");
    const int players = rp_match_players(m);
    printf("Players:");
    for (int p = 0; p < players; p++)
        printf("%s %s (seat %d) %s", p ? "," : "", rp_seat_name(game, p), p, rp_match_player(m, p));
    printf(".\n");
    if (!told_result)
        result_words(m, stdout);
    if (hints)
        printf("'--show' tells the whole game as one seat saw it (--seat N, or the spectator by "
               "default); '--step' steps through it.\n");
}

static int summary_json(const rp_match *m, const char *path)
{
    char status[256], *words = NULL;
    size_t len = 0;
    rp_match_status(m, status, sizeof status);
    FILE *mem = open_memstream(&words, &len);
    if (mem) {
        result_words(m, mem);
        fclose(mem);
    }
    while (words && len && words[len - 1] == '\n')
        words[--len] = '\0';
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", path);
    cJSON_AddStringToObject(o, "game", rp_match_game(m)->id);
    cJSON_AddNumberToObject(o, "moves", (double)rp_match_moves(m));
    cJSON_AddStringToObject(o, "status", status);
    cJSON_AddStringToObject(o, "result", words ? words : "");
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    free(words);
    if (!text) {
        fprintf(stderr, "ramparts replay: out of memory\n");
        return RP_EXIT_FAIL;
    }
    printf("%s\n", text);
    free(text);
    return RP_EXIT_OK;
}

int rp_cmd_replay(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        replay_help();
        return RP_EXIT_OK;
    }
    const char *path = NULL, *seat = NULL;
    bool show = false, stepping = false, json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--show") == 0)
            show = true;
        else if (strcmp(argv[i], "--json") == 0)
            json = true;
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
    if (json && (show || stepping))
        return rp_cli_usage_error("replay", "--json prints the summary only, not with %s",
                                  show ? "--show" : "--step");
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!in) {
        fprintf(stderr, "ramparts replay: cannot open %s\n", path);
        return RP_EXIT_FAIL;
    }
    rp_error err = {{0}};
    rp_match *m = rp_record_read(in, path, &err);
    if (in != stdin)
        fclose(in);
    if (!m) {
        fprintf(stderr, "ramparts replay: %s\n", err.msg);
        return RP_EXIT_FAIL;
    }
    const rp_game *game = rp_match_game(m);
    int viewer = RP_SPECTATOR;
    if (seat && (viewer = rp_cli_viewer("replay", game, rp_match_players(m), seat)) == -3) {
        rp_match_free(m);
        return RP_EXIT_USAGE;
    }
    if ((show || stepping) && !rp_match_may_show(m, viewer)) {
        fprintf(stderr,
                "ramparts replay: %s: the game is not over and %s (seat %d) is played by %s: "
                "until it ends only the human seats' views and the spectator's are shown\n",
                path, rp_seat_name(game, viewer), viewer, rp_match_player(m, viewer));
        rp_match_free(m);
        return RP_EXIT_FAIL;
    }
    const bool color = rp_cli_color(stdout);
    if (show)
        show_all(m, viewer, color);
    if (stepping)
        step(m, viewer, color);
    int rc = json ? summary_json(m, path) : RP_EXIT_OK;
    if (!json)
        summary(m, path, !show && !stepping, show);
    rp_match_free(m);
    return rc;
}
