/* cmd_engine.c — `ramparts engine`: the text protocol on stdin/stdout (docs/protocol.md).
 * One command a line; each answer is "= ..." or "? message" and an empty line, as in the Go
 * Text Protocol. Commands live in a table with their arity, checked in one place; a refused
 * command leaves the engine's state as it was. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ramparts/version.h"

#define MAX_LINE (RP_STATE_TEXT + 256)
#define MAX_ARGS 64
#define DEFAULT_GENMOVE_AI "medium"

typedef struct engine {
    rp_match *match; /* NULL until `new` or `loadrecord` */
    bool quit;
    /* Time control (GTP time_settings / time_left), in milliseconds; off until set. */
    bool timed;
    long main_ms, byoyomi_ms;
    int byoyomi_stones;
    long left_ms[RP_MAX_PLAYERS];
    int stones_left[RP_MAX_PLAYERS];
} engine;

/* A growing answer text; out_of_memory once a piece could not be added (the answer is then
 * refused as a whole, never sent cut short). */
typedef struct reply {
    char *text;
    size_t len, cap;
    bool out_of_memory;
} reply;

static void reply_add(reply *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void reply_add(reply *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0 || r->out_of_memory)
        return;
    if (r->len + (size_t)need + 1 > r->cap) {
        size_t cap = (r->len + (size_t)need + 1) * 2;
        char *text = realloc(r->text, cap);
        if (!text) {
            r->out_of_memory = true;
            return;
        }
        r->text = text;
        r->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(r->text + r->len, r->cap - r->len, fmt, ap);
    va_end(ap);
    r->len += (size_t)need;
}

/* A command: argv[0] is its name; `rest` is the text after the name (for notations with
 * spaces). Returns 0 with the answer in out, or < 0 with the message in err. */
typedef int (*command_fn)(engine *e, int argc, char **argv, const char *rest, reply *out,
                          rp_error *err);

typedef struct command {
    const char *name;
    int min_args, max_args; /* arguments after the name; max -1 means any number */
    bool needs_game;
    command_fn run;
    const char *help;
} command;

static int cmd_list(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)e, (void)argc, (void)argv, (void)rest, (void)err;
    for (int i = 0; i < rp_num_games; i++)
        reply_add(out, "%s%s", i ? "\n" : "", rp_games[i]->id);
    return RP_OK;
}

/* Every seat's clock back to the main time. */
static void reset_clocks(engine *e)
{
    for (int p = 0; p < RP_MAX_PLAYERS; p++) {
        e->left_ms[p] = e->main_ms;
        e->stones_left[p] = e->main_ms > 0 ? 0 : e->byoyomi_stones;
    }
}

static int cmd_new(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)rest;
    const rp_game *game = rp_game_find(argv[1]);
    if (!game)
        return rp_fail(err, RP_EINVAL, "unknown game '%s' (try 'list')", argv[1]);
    rp_config cfg;
    rp_config_default(game, &cfg);
    for (int i = 2; i < argc; i++)
        if (rp_config_set(game, &cfg, argv[i], err) < 0)
            return RP_EINVAL;
    rp_match *m = rp_match_new(game, &cfg, err);
    if (!m)
        return RP_EINVAL;
    rp_match_free(e->match);
    e->match = m;
    reset_clocks(e);
    char text[2048];
    rp_config_to_text(game, rp_match_config(m), text, sizeof text);
    reply_add(out, "%s %s", game->id, text);
    return RP_OK;
}

static int cmd_legal(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)rest, (void)err;
    rp_action legal[RP_MAX_LEGAL];
    int n = rp_match_legal(e->match, legal);
    for (int i = 0; i < n; i++) {
        char text[RP_ACTION_TEXT];
        rp_match_action_text(e->match, legal[i], text, sizeof text);
        reply_add(out, "%s%s", i ? "\n" : "", text);
    }
    return RP_OK;
}

static int cmd_play(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)out;
    return rp_match_play_text(e->match, rest, err);
}

static int cmd_undo(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)rest, (void)out;
    return rp_match_undo(e->match, err);
}

static int cmd_state(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)rest;
    char text[RP_STATE_TEXT];
    if (rp_match_position_text(e->match, text, sizeof text, err) < 0)
        return RP_EINVAL;
    reply_add(out, "%s", text);
    return RP_OK;
}

static int cmd_load(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv;
    int rc = rp_match_load(e->match, rest, err);
    if (rc < 0)
        return rc;
    const rp_game *game = rp_match_game(e->match);
    char text[2048];
    rp_config_to_text(game, rp_match_config(e->match), text, sizeof text);
    reply_add(out, "%s %s", game->id, text);
    return RP_OK;
}

/* A seat number given as text, checked against the game's seats. */
static int parse_seat(const engine *e, const char *text, int *seat, rp_error *err)
{
    char *end;
    long p = strtol(text, &end, 10);
    int players = rp_match_players(e->match);
    if (end == text || *end || p < 0 || p >= players)
        return rp_fail(err, RP_EINVAL, "no player '%.40s': players are 0 to %d", text, players - 1);
    *seat = (int)p;
    return RP_OK;
}

/* A seat number or "spectator". */
static int parse_viewer(const engine *e, const char *text, int *viewer, rp_error *err)
{
    if (strcmp(text, "spectator") == 0) {
        *viewer = RP_SPECTATOR;
        return RP_OK;
    }
    if (parse_seat(e, text, viewer, err) == RP_OK)
        return RP_OK;
    return rp_fail(err, RP_EINVAL, "no viewer '%.40s': a seat from 0 to %d or 'spectator'", text,
                   rp_match_players(e->match) - 1);
}

static int cmd_view(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)rest;
    int seat;
    if (parse_viewer(e, argv[1], &seat, err) < 0)
        return RP_EINVAL;
    char *text = rp_match_view(e->match, seat, false, err);
    if (!text) /* every game has view_json (tests/test_conformance.c): out of memory */
        return RP_ENOMEM;
    reply_add(out, "%s", text);
    free(text);
    return RP_OK;
}

static int cmd_showboard(engine *e, int argc, char **argv, const char *rest, reply *out,
                         rp_error *err)
{
    (void)rest;
    int seat = rp_match_to_move(e->match);
    if (seat < 0)
        seat = 0;
    if (argc > 1 && parse_viewer(e, argv[1], &seat, err) < 0)
        return RP_EINVAL;
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    if (!mem)
        return rp_fail(err, RP_ENOMEM, "out of memory");
    rp_match_render(e->match, seat, false, mem);
    fclose(mem);
    while (size && buf[size - 1] == '\n')
        buf[--size] = '\0';
    /* An empty line would end the answer early: keep blank lines non-empty. */
    reply_add(out, "\n");
    for (char *line = buf, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        reply_add(out, "%s%s", *line ? line : " ", next ? "\n" : "");
    }
    free(buf);
    return RP_OK;
}

static int cmd_status(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)rest, (void)err;
    char status[256];
    rp_match_status(e->match, status, sizeof status);
    reply_add(out, "%s", status);
    return RP_OK;
}

static int cmd_turn(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)rest, (void)err;
    int p = rp_match_to_move(e->match);
    if (p == RP_TERMINAL)
        reply_add(out, "over");
    else
        reply_add(out, "%d", p);
    return RP_OK;
}

/* The thinking time for the seat to act under the time control: a twentieth of what is left
 * of the main time, or a share of the byo-yomi period; 0 when there is no time control. */
static long genmove_budget(const engine *e, int seat)
{
    if (!e->timed)
        return 0;
    long ms;
    if (e->left_ms[seat] > 0)
        ms = e->left_ms[seat] / 20;
    else if (e->byoyomi_stones > 0)
        ms = e->byoyomi_ms * 9 / 10 / (e->stones_left[seat] > 0 ? e->stones_left[seat] : 1);
    else
        ms = 1;
    return ms > 0 ? ms : 1;
}

/* Charge the time a move took to the seat's clock (entering byo-yomi when main time ends). */
static void charge_clock(engine *e, int seat, long spent)
{
    if (!e->timed)
        return;
    if (e->left_ms[seat] > 0) {
        e->left_ms[seat] -= spent;
        if (e->left_ms[seat] <= 0) {
            e->left_ms[seat] = 0;
            e->stones_left[seat] = e->byoyomi_stones;
        }
        return;
    }
    if (e->byoyomi_stones > 0 && --e->stones_left[seat] <= 0)
        e->stones_left[seat] = e->byoyomi_stones;
}

static int cmd_genmove(engine *e, int argc, char **argv, const char *rest, reply *out,
                       rp_error *err)
{
    (void)rest;
    if (rp_match_over(e->match))
        return rp_fail(err, RP_EOVER, "the game is over");
    const int seat = rp_match_to_move(e->match);
    const long budget = genmove_budget(e, seat);
    const unsigned long long start = rp_cli_now_ns();
    rp_genmove g;
    int rc = rp_match_genmove(e->match, argc > 1 ? argv[1] : DEFAULT_GENMOVE_AI, budget, &g, err);
    if (rc < 0)
        return rc;
    charge_clock(e, seat, (long)((rp_cli_now_ns() - start) / 1000000u));
    reply_add(out, "%s\ninfo seat=%d", g.text, g.seat);
    if (g.info.win_chance >= 0)
        reply_add(out, " win_chance=%.3f", g.info.win_chance);
    reply_add(out, " iterations=%llu budget_ms=%ld", (unsigned long long)g.info.iterations, budget);
    return RP_OK;
}

/* A whole number of seconds in [0, 10^7], as milliseconds. */
static int parse_seconds(const char *text, long *ms, rp_error *err)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < 0 || v > 10000000)
        return rp_fail(err, RP_EINVAL, "'%.40s': expected whole seconds from 0 to 10000000", text);
    *ms = v * 1000;
    return RP_OK;
}

static int cmd_time_settings(engine *e, int argc, char **argv, const char *rest, reply *out,
                             rp_error *err)
{
    (void)argc, (void)rest, (void)out;
    long main_ms, byo_ms, stones;
    if (parse_seconds(argv[1], &main_ms, err) < 0 || parse_seconds(argv[2], &byo_ms, err) < 0 ||
        parse_seconds(argv[3], &stones, err) < 0)
        return RP_EINVAL;
    stones /= 1000;
    if (stones > 100000 || (byo_ms > 0) != (stones > 0))
        return rp_fail(err, RP_EINVAL, "byo-yomi needs both a time and a number of moves");
    e->main_ms = main_ms;
    e->byoyomi_ms = byo_ms;
    e->byoyomi_stones = (int)stones;
    e->timed = main_ms > 0 || byo_ms > 0;
    reset_clocks(e);
    return RP_OK;
}

static int cmd_time_left(engine *e, int argc, char **argv, const char *rest, reply *out,
                         rp_error *err)
{
    (void)argc, (void)rest, (void)out;
    int seat;
    long left, stones;
    if (parse_seat(e, argv[1], &seat, err) < 0 || parse_seconds(argv[2], &left, err) < 0 ||
        parse_seconds(argv[3], &stones, err) < 0)
        return RP_EINVAL;
    if (!e->timed)
        return rp_fail(err, RP_EINVAL, "no time control: send time_settings first");
    stones /= 1000;
    if (stones > 100000)
        return rp_fail(err, RP_EINVAL, "too many moves");
    e->left_ms[seat] = stones > 0 ? 0 : left;
    e->stones_left[seat] = (int)stones;
    if (stones > 0)
        e->byoyomi_ms = left; /* GTP: in byo-yomi, the time left for those moves */
    return RP_OK;
}

/* The events of the last move told to a viewer, as one line of JSON. */
static int cmd_events(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)rest;
    int viewer;
    if (parse_viewer(e, argv[1], &viewer, err) < 0)
        return RP_EINVAL;
    const rp_match *m = e->match;
    size_t i = rp_match_length(m);
    while (i > 0 && rp_match_entry(m, i - 1).kind != RP_ENTRY_MOVE)
        i--;
    if (i == 0)
        return rp_fail(err, RP_EINVAL, "no move has been played yet");
    char *text = rp_match_events(m, i - 1, viewer, err);
    if (!text)
        return RP_EUNSUPPORTED;
    reply_add(out, "%s", text);
    free(text);
    return RP_OK;
}

/* Debug verb: the names the viewer may not learn now, from the referee's state. */
static int cmd_secrets(engine *e, int argc, char **argv, const char *rest, reply *out,
                       rp_error *err)
{
    (void)argc, (void)rest;
    int viewer;
    if (parse_viewer(e, argv[1], &viewer, err) < 0)
        return RP_EINVAL;
    const rp_game *game = rp_match_game(e->match);
    if (!game->secret_names)
        return rp_fail(err, RP_EUNSUPPORTED, "%s does not name its secrets", game->id);
    rp_state referee; /* a debug verb: the one named way to the referee's state */
    rp_match_referee(e->match, rp_match_length(e->match), &referee, NULL);
    char names[RP_STATE_TEXT];
    if (game->secret_names(&referee, viewer, names, sizeof names) < 0)
        return rp_fail(err, RP_ENOSPACE, "too many secrets to list");
    reply_add(out, "%s", names);
    return RP_OK;
}

/* A record of the match so far, one line per record line (never an empty one). */
static int cmd_record(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)rest;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return rp_fail(err, RP_ENOMEM, "out of memory");
    int rc = rp_record_write(e->match, mem);
    fclose(mem);
    if (rc == RP_OK) {
        while (len && text[len - 1] == '\n')
            text[--len] = '\0';
        reply_add(out, "\n%s", text);
    } else {
        rp_fail(err, rc, "cannot write the record");
    }
    free(text);
    return rc;
}

static int cmd_loadrecord(engine *e, int argc, char **argv, const char *rest, reply *out,
                          rp_error *err)
{
    (void)argc, (void)argv;
    FILE *in = fopen(rest, "r");
    if (!in)
        return rp_fail(err, RP_EIO, "cannot open '%.100s'", rest);
    rp_match *m = rp_record_read(in, rest, err);
    fclose(in);
    if (!m)
        return RP_EPARSE;
    if (rp_match_keeps_secrets(m)) { /* the referee's commands would show the AI's cards */
        rp_match_free(m);
        return rp_fail(err, RP_EINVAL,
                       "'%.100s' is an unfinished game against the AI: what no human seat saw "
                       "stays hidden until it ends (continue it with ramparts play --resume)",
                       rest);
    }
    rp_match_free(e->match);
    e->match = m;
    reset_clocks(e);
    char status[256];
    rp_match_status(m, status, sizeof status);
    reply_add(out, "%s %zu moves %s", rp_match_game(m)->id, rp_match_moves(m), status);
    return RP_OK;
}

static int cmd_name(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)e, (void)argc, (void)argv, (void)rest, (void)err;
    reply_add(out, "Ramparts");
    return RP_OK;
}

static int cmd_version(engine *e, int argc, char **argv, const char *rest, reply *out,
                       rp_error *err)
{
    (void)e, (void)argc, (void)argv, (void)rest, (void)err;
    reply_add(out, "%s", RP_VERSION_STRING);
    return RP_OK;
}

static int cmd_protocol_version(engine *e, int argc, char **argv, const char *rest, reply *out,
                                rp_error *err)
{
    (void)e, (void)argc, (void)argv, (void)rest, (void)err;
    reply_add(out, "2");
    return RP_OK;
}

static int cmd_quit(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)argc, (void)argv, (void)rest, (void)out, (void)err;
    e->quit = true;
    return RP_OK;
}

static int cmd_help(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err);
static int cmd_list_commands(engine *e, int argc, char **argv, const char *rest, reply *out,
                             rp_error *err);
static int cmd_known_command(engine *e, int argc, char **argv, const char *rest, reply *out,
                             rp_error *err);

static const command commands[] = {
    {"name", 0, 0, false, cmd_name, "name            the engine's name"},
    {"version", 0, 0, false, cmd_version, "version         the engine's version"},
    {"protocol_version", 0, 0, false, cmd_protocol_version,
     "protocol_version  2 (GTP 2's envelope)"},
    {"list_commands", 0, 0, false, cmd_list_commands, "list_commands   the commands, one a line"},
    {"known_command", 1, 1, false, cmd_known_command, "known_command C true or false"},
    {"list", 0, 0, false, cmd_list, "list            the games"},
    {"new", 1, -1, false, cmd_new, "new GAME [k=v]  start a game with options"},
    {"legal", 0, 0, true, cmd_legal, "legal           the legal moves, one a line"},
    {"play", 1, -1, true, cmd_play, "play MOVE       play a move in notation"},
    {"undo", 0, 0, true, cmd_undo, "undo            take back the last move"},
    {"state", 0, 0, true, cmd_state, "state           the full-state notation"},
    {"load", 1, -1, true, cmd_load, "load NOTATION   set the position from a full-state notation"},
    {"view", 1, 1, true, cmd_view,
     "view VIEWER     what a seat (or 'spectator') may know, as JSON"},
    {"showboard", 0, 1, true, cmd_showboard,
     "showboard [V]   the board as a seat (or 'spectator') sees it"},
    {"events", 1, 1, true, cmd_events, "events VIEWER   what the last move showed VIEWER, as JSON"},
    {"status", 0, 0, true, cmd_status, "status          ongoing, or over and the result"},
    {"turn", 0, 0, true, cmd_turn, "turn            the player to act, or over"},
    {"genmove", 0, 1, true, cmd_genmove,
     "genmove [AI]    the AI (default medium) plays a move: the move, then its estimate"},
    {"time_settings", 3, 3, false, cmd_time_settings,
     "time_settings M B S  main time M s, then B s for every S moves"},
    {"time_left", 3, 3, true, cmd_time_left,
     "time_left P T S  seat P has T s left (for S moves in byo-yomi)"},
    {"record", 0, 0, true, cmd_record, "record          the game so far as a record"},
    {"loadrecord", 1, -1, false, cmd_loadrecord,
     "loadrecord FILE replay a record file and continue from its end"},
    {"secrets", 1, 1, true, cmd_secrets,
     "secrets VIEWER  debug: the card names VIEWER may not learn now"},
    {"help", 0, 0, false, cmd_help, "help            this list"},
    {"quit", 0, 0, false, cmd_quit, "quit            leave"},
};
#define NUM_COMMANDS ((int)(sizeof commands / sizeof commands[0]))

static int cmd_list_commands(engine *e, int argc, char **argv, const char *rest, reply *out,
                             rp_error *err)
{
    (void)e, (void)argc, (void)argv, (void)rest, (void)err;
    for (int i = 0; i < NUM_COMMANDS; i++)
        reply_add(out, "%s%s", i ? "\n" : "", commands[i].name);
    return RP_OK;
}

static int cmd_known_command(engine *e, int argc, char **argv, const char *rest, reply *out,
                             rp_error *err)
{
    (void)e, (void)argc, (void)rest, (void)err;
    bool known = false;
    for (int i = 0; i < NUM_COMMANDS; i++)
        known = known || strcmp(argv[1], commands[i].name) == 0;
    reply_add(out, "%s", known ? "true" : "false");
    return RP_OK;
}

static int cmd_help(engine *e, int argc, char **argv, const char *rest, reply *out, rp_error *err)
{
    (void)e, (void)argc, (void)argv, (void)rest, (void)err;
    for (int i = 0; i < NUM_COMMANDS; i++)
        reply_add(out, "%s%s", i ? "\n" : "", commands[i].help);
    return RP_OK;
}

/* GTP's preprocessing: control characters other than tab go, tabs become spaces. */
static void clean_line(char *line)
{
    char *w = line;
    for (const char *r = line; *r; r++) {
        unsigned char c = (unsigned char)*r;
        if (c == '\t')
            *w++ = ' ';
        else if (c >= 32 && c != 127)
            *w++ = (char)c;
    }
    *w = '\0';
}

static int run_command(engine *e, char *line, reply *out, rp_error *err)
{
    char *args_text = line;
    while (*args_text == ' ')
        args_text++;
    char *copy = strdup(args_text);
    if (!copy)
        return rp_fail(err, RP_ENOMEM, "out of memory");
    char *argv[MAX_ARGS];
    int argc = 0;
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        if (argc == MAX_ARGS) {
            free(copy);
            return rp_fail(err, RP_EINVAL, "too many arguments");
        }
        argv[argc++] = tok;
    }
    if (argc == 0) { /* handle_line passes a line with a command; stay safe without one */
        free(copy);
        return rp_fail(err, RP_EINVAL, "no command");
    }
    const command *cmd = NULL;
    for (int i = 0; i < NUM_COMMANDS; i++)
        if (strcmp(argv[0], commands[i].name) == 0)
            cmd = &commands[i];
    int rc;
    const char *rest = args_text + strlen(argv[0]);
    while (*rest == ' ')
        rest++;
    if (!cmd)
        rc = rp_fail(err, RP_EINVAL, "unknown command '%.40s' (try 'help')", argv[0]);
    else if (argc - 1 < cmd->min_args || (cmd->max_args >= 0 && argc - 1 > cmd->max_args))
        rc = rp_fail(err, RP_EINVAL, "wrong number of arguments: %s", cmd->help);
    else if (cmd->needs_game && !e->match)
        rc = rp_fail(err, RP_EINVAL, "no game: start one with 'new GAME'");
    else
        rc = cmd->run(e, argc, argv, rest, out, err);
    free(copy);
    return rc;
}

/* Answer one line on `answers`; returns false when the engine should stop. */
static bool handle_line(engine *e, char *line, FILE *answers)
{
    clean_line(line);
    char *p = line;
    while (*p == ' ')
        p++;
    if (!*p || *p == '#')
        return true;
    char id[24] = "";
    if (isdigit((unsigned char)*p)) {
        size_t n = 0;
        while (isdigit((unsigned char)p[n]) && n < sizeof id - 1)
            n++;
        if (p[n] == ' ' || !p[n]) {
            memcpy(id, p, n);
            id[n] = '\0';
            p += n;
        }
    }
    while (*p == ' ')
        p++;
    reply out = {0};
    rp_error err = {{0}};
    int rc =
        *p ? run_command(e, p, &out, &err) : rp_fail(&err, RP_EINVAL, "an id without a command");
    if (rc >= 0 && out.out_of_memory)
        rc = rp_fail(&err, RP_ENOMEM, "out of memory (the answer is too long)");
    if (rc < 0)
        fprintf(answers, "?%s %s\n\n", id, err.msg[0] ? err.msg : rp_strerror(rc));
    else
        fprintf(answers, "=%s%s%s\n\n", id, out.len ? " " : "", out.len ? out.text : "");
    fflush(answers);
    free(out.text);
    return !e->quit;
}

/* ---- sessions (cli.h): the protocol without stdin, for tests and the fuzz target ---- */

struct rp_engine_session {
    engine e;
    FILE *answers;
};

rp_engine_session *rp_engine_open(FILE *answers)
{
    rp_engine_session *session = calloc(1, sizeof *session);
    if (session)
        session->answers = answers;
    return session;
}

bool rp_engine_line(rp_engine_session *session, char *line)
{
    return handle_line(&session->e, line, session->answers);
}

/* The match as text: its record (options, seats, history, result), then the referee's
 * full-state notation now. */
static char *match_text(const rp_match *m, size_t *len)
{
    char *text = NULL;
    FILE *mem = open_memstream(&text, len);
    if (!mem)
        return NULL;
    rp_record_write(m, mem);
    rp_state referee; /* a debug view of the engine: the one named way to the referee's state */
    rp_match_referee(m, rp_match_length(m), &referee, NULL);
    char state[RP_STATE_TEXT];
    if (rp_match_game(m)->state_to_text(&referee, state, sizeof state) >= 0)
        fprintf(mem, "%s\n", state);
    if (fclose(mem) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Everything a command may change: the engine's fields (the clocks, the match's address)
 * byte for byte, then the match as text (match_text). */
size_t rp_engine_snapshot(const rp_engine_session *session, void *buf, size_t size)
{
    const engine *e = &session->e;
    size_t len = 0;
    char *text = e->match ? match_text(e->match, &len) : NULL;
    const size_t need = sizeof *e + len;
    if (need <= size) {
        memcpy(buf, e, sizeof *e);
        if (text)
            memcpy((char *)buf + sizeof *e, text, len);
    }
    free(text);
    return need;
}

void rp_engine_close(rp_engine_session *session)
{
    if (!session)
        return;
    rp_match_free(session->e.match);
    free(session);
}

int rp_cmd_engine(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        printf("usage: ramparts engine\n\nSpeaks the Ramparts text protocol on stdin/stdout "
               "(see docs/protocol.md).\nCommands:\n");
        for (int i = 0; i < NUM_COMMANDS; i++)
            printf("  %s\n", commands[i].help);
        return RP_EXIT_OK;
    }
    if (argc > 1)
        return rp_cli_usage_error("engine", "unknown argument '%s'", argv[1]);
    rp_engine_session *session = rp_engine_open(stdout);
    if (!session) {
        fprintf(stderr, "ramparts engine: out of memory\n");
        return RP_EXIT_FAIL;
    }
    char line[MAX_LINE];
    bool running = true;
    while (running && fgets(line, sizeof line, stdin)) {
        if (!strchr(line, '\n') && !feof(stdin)) {
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
            printf("? line too long (at most %d characters)\n\n", MAX_LINE - 2);
            fflush(stdout);
            continue;
        }
        line[strcspn(line, "\r\n")] = '\0';
        running = rp_engine_line(session, line);
    }
    rp_engine_close(session);
    return RP_EXIT_OK;
}
