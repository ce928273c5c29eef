/* cmd_watch.c — `ramparts watch GAME`: AIs play every seat while one viewer (a seat, or a
 * spectator who sees only public information) watches at a chosen pace: each move's events as
 * that viewer is told them, then the board as that viewer sees it. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define DEFAULT_AI "easy"

static void watch_help(void)
{
    printf("usage: ramparts watch GAME [--seat N|spectator] [--ai A,B,...] [--pace MS]\n"
           "                      [--seed N] [--record FILE] [key=value ...]\n\n"
           "AIs play every seat (the list in seat order, the last repeated; default %s)\n"
           "while you watch from a seat (you see that seat's hand) or as a spectator (the\n"
           "default: public information only). --pace is the pause after each move in\n"
           "milliseconds (default 800 on a terminal, 0 otherwise). --record saves the game.\n",
           DEFAULT_AI);
}

typedef struct watch_args {
    const rp_game *game;
    rp_config cfg;
    char ai_list[512];
    const char *seat, *record;
    long pace;
} watch_args;

static int parse_args(int argc, char **argv, watch_args *a)
{
    if (argc < 2 || argv[1][0] == '-')
        return rp_cli_usage_error("watch", "which game? (ramparts list)");
    if (!(a->game = rp_cli_game("watch", argv[1])))
        return RP_EXIT_USAGE;
    rp_config_default(a->game, &a->cfg);
    a->cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
    snprintf(a->ai_list, sizeof a->ai_list, "%s", DEFAULT_AI);
    a->pace = rp_cli_tty(stdout) ? 800 : 0;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *v;
        rp_error err;
        if (arg[0] != '-') {
            int rc = rp_cli_set_option("watch", a->game, &a->cfg, arg);
            if (rc != RP_EXIT_OK)
                return rc;
            continue;
        }
        if (strcmp(arg, "--seat") != 0 && strcmp(arg, "--ai") != 0 && strcmp(arg, "--pace") != 0 &&
            strcmp(arg, "--seed") != 0 && strcmp(arg, "--record") != 0)
            return rp_cli_usage_error("watch", "unknown option '%s'", arg);
        if (!(v = rp_cli_value("watch", argc, argv, &i)))
            return RP_EXIT_USAGE;
        long long n;
        if (strcmp(arg, "--seat") == 0)
            a->seat = v;
        else if (strcmp(arg, "--record") == 0)
            a->record = v;
        else if (strcmp(arg, "--ai") == 0)
            snprintf(a->ai_list, sizeof a->ai_list, "%s", v);
        else if (strcmp(arg, "--pace") == 0) {
            if (!rp_cli_number("watch", "--pace", v, 0, 60000, &n))
                return RP_EXIT_USAGE;
            a->pace = (long)n;
        } else {
            char kv[64];
            snprintf(kv, sizeof kv, "seed=%.40s", v);
            if (rp_config_set(a->game, &a->cfg, kv, &err) < 0)
                return rp_cli_usage_error("watch", "%s", err.msg);
        }
    }
    return RP_EXIT_OK;
}

/* Seat every player with the AI list (the last spec repeats). */
static int seat_ais(rp_match *m, char *list)
{
    char *specs[RP_MAX_PLAYERS];
    int n = rp_ai_split_specs(list, specs, RP_MAX_PLAYERS);
    if (n <= 0)
        return rp_cli_usage_error("watch", "--ai: a list of AIs, e.g. easy,greedy");
    for (int p = 0; p < rp_match_players(m); p++) {
        rp_error err;
        const char *spec = specs[p < n ? p : n - 1];
        if (strcmp(spec, RP_HUMAN) == 0 || rp_match_set_player(m, p, spec, &err) < 0)
            return rp_cli_usage_error("watch", "--ai %s: %s", spec,
                                      strcmp(spec, RP_HUMAN) == 0 ? "AIs only" : err.msg);
    }
    return RP_EXIT_OK;
}

static int watch_game(rp_match *m, int viewer, long pace, bool color)
{
    const rp_game *game = rp_match_game(m);
    printf("%s, watched as %s.\n\n", game->title, rp_viewer_name(game, viewer));
    rp_cli_render(m, rp_match_length(m), viewer, color, rp_cli_width(stdout), stdout);
    while (!rp_match_over(m)) {
        rp_genmove g;
        rp_error err;
        if (rp_match_genmove(m, NULL, 0, &g, &err) < 0) {
            fprintf(stderr, "ramparts watch: %s\n", err.msg);
            return RP_EXIT_FAIL;
        }
        if (game->tool_turn_cap && rp_match_turn(m) > game->tool_turn_cap) {
            printf("Stopped after %d turns (the tools' cap): unfinished.\n", game->tool_turn_cap);
            return RP_EXIT_OK;
        }
        printf("\n");
        rp_cli_show_entry(m, rp_match_length(m) - 1, viewer, color, stdout);
        fflush(stdout);
        rp_cli_sleep_ms(pace);
    }
    char over[RP_ERROR_TEXT];
    rp_cli_over_text(m, viewer, over, sizeof over);
    rp_cli_result_line(m, over, stdout);
    return RP_EXIT_OK;
}

int rp_cmd_watch(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        watch_help();
        return RP_EXIT_OK;
    }
    watch_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc != RP_EXIT_OK)
        return rc;
    rp_error err;
    rp_match *m = rp_match_new(a.game, &a.cfg, &err);
    if (!m)
        return rp_cli_usage_error("watch", "%s", err.msg);
    const int players = rp_match_players(m);
    int viewer = a.seat ? rp_cli_viewer("watch", a.game, players, a.seat) : RP_SPECTATOR;
    rc = viewer == -3 ? RP_EXIT_USAGE : seat_ais(m, a.ai_list);
    if (rc == RP_EXIT_OK && a.record && rp_cli_record_open(m, a.record, &err) < 0) {
        fprintf(stderr, "ramparts watch: %s\n", err.msg);
        rc = RP_EXIT_FAIL;
    }
    if (rc == RP_EXIT_OK) {
        rc = watch_game(m, viewer, a.pace, rp_cli_color(stdout));
        if (a.record) {
            int saved = rp_cli_record_save(m);
            rc = rc == RP_EXIT_OK ? saved : rc;
        }
    }
    rp_match_free(m);
    return rc;
}
