/* cmd_play.c — `ramparts play GAME`: a game at the terminal. Each human sees only their own
 * view: what happened since their last turn (the game's events told to them), the board,
 * their hand and a compact prompt. AIs move through the engine facade. Several humans share
 * the terminal with a hand-over screen between them. Undo is fair (see rp_match_undo_fair);
 * the record is written on leaving, on Ctrl-C too, and `--resume FILE` continues it. */
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define DEFAULT_OPPONENT "medium"
#define HINT_AI "hard"
#define MAX_INPUT 200 /* longer lines are refused whole */
#define SHORT_LIST 12 /* legal lists up to this long are shown at the prompt */

typedef struct play_session {
    rp_match *match;
    bool color;
    int screen_seat; /* the human whose screen is up, or -1 */
    /* At a table where nobody holds anything private the turn passes without a hand-over: the
     * human who just moved, who may still take it back at the next one's prompt; or -1. */
    int open_previous;
    /* What each human has not yet been told (their events since their last prompt). */
    char *pending[RP_MAX_PLAYERS];
    size_t pending_len[RP_MAX_PLAYERS];
    /* On a terminal that can: each turn's screen is drawn in place from the top, the log of
     * what each human was told above the board (their own log, kept whole). */
    bool in_place;
    char *log[RP_MAX_PLAYERS];
    size_t log_len[RP_MAX_PLAYERS];
} play_session;

static void turn_help(void)
{
    printf("At your turn: a move's number or its notation, or\n"
           "  moves   the legal moves, numbered    board   show the table again\n"
           "  hint    the AI's suggestion          rules   the rules (through a pager)\n"
           "  undo    take back your last move     resign  give up the game\n"
           "  help    this list                    quit    save and leave (resume later)\n"
           "Commands may be typed in any case. Against the AI, undo takes back your move and\n"
           "the replies and re-shuffles everything you could not see. At a shared table you\n"
           "can take back only your own last move, before anyone else moves.\n");
}

static void play_help(void)
{
    printf("usage: ramparts play GAME [--seat N=WHO ...] [--seed N] [--position TEXT]\n"
           "                     [--record FILE] [--scroll] [key=value ...]\n"
           "       ramparts play --resume FILE [--seat N=WHO ...] [--scroll]\n\n"
           "Plays GAME at the terminal. WHO is 'human' or an AI; by default seat 0 is human\n"
           "and every other seat is '%s'. Two or more humans share the terminal (hot seat):\n"
           "the screen is cleared between them where one holds cards the other may not see.\n"
           "--position starts from a full-state notation. The game is saved as a record when\n"
           "it ends, when you quit and on Ctrl-C: to --record FILE, else to a new file in\n"
           "$RAMPARTS_RECORDS (default ~/.local/share/ramparts/records). --resume continues\n"
           "an unfinished record and saves it back to the same file; against the AI it first\n"
           "deals anew everything you could not see (as undo does), and an AI's seat stays\n"
           "an AI. On a terminal each turn's screen is drawn in place, what happened above\n"
           "the board; --scroll prints each board below the last instead.\n\n",
           DEFAULT_OPPONENT);
    turn_help();
    printf("\nAIs:\n%s", rp_ai_help());
}

/* ---- what each human is told ---- */

static void tell(play_session *s, int seat, const char *text, size_t len)
{
    char *grown = realloc(s->pending[seat], s->pending_len[seat] + len + 1);
    if (!grown) { /* the game goes on; the player is told once that the story has a gap */
        static bool warned;
        if (!warned)
            fprintf(stderr, "ramparts play: out of memory: some of what happened is not shown\n");
        warned = true;
        return;
    }
    memcpy(grown + s->pending_len[seat], text, len);
    s->pending_len[seat] += len;
    grown[s->pending_len[seat]] = '\0';
    s->pending[seat] = grown;
}

static void forget(play_session *s, int seat)
{
    free(s->pending[seat]);
    s->pending[seat] = NULL;
    s->pending_len[seat] = 0;
}

/* Tell every human what the last move did, as they see it. */
static void narrate_to_humans(play_session *s)
{
    const rp_match *m = s->match;
    const size_t last = rp_match_length(m) - 1;
    for (int p = 0; p < rp_match_players(m); p++) {
        if (!rp_match_is_human(m, p))
            continue;
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            continue;
        rp_cli_narrate(m, last, p, mem, NULL, 0);
        fclose(mem);
        tell(s, p, text, len);
        free(text);
    }
}

/* Play a move for the seat to act (by a human), narrating it; false with err when refused. */
static int play_move(play_session *s, rp_action action, rp_error *err)
{
    int rc = rp_match_play(s->match, action, err);
    if (rc < 0)
        return rc;
    narrate_to_humans(s);
    rp_cli_record_snapshot(s->match);
    return RP_OK;
}

static int ai_turn(play_session *s)
{
    rp_match *m = s->match;
    const int seat = rp_match_to_move(m);
    rp_genmove g;
    rp_error err;
    if (rp_match_genmove(m, NULL, 0, &g, &err) < 0) {
        fprintf(stderr, "ramparts play: the AI of %s failed: %s\n",
                rp_seat_name(rp_match_game(m), seat), err.msg);
        return RP_EXIT_FAIL;
    }
    narrate_to_humans(s);
    rp_cli_record_snapshot(m);
    return RP_EXIT_OK;
}

/* A message about the table (an undo): printed now, or, when the screen is redrawn in place,
 * kept for the log above the next board (which would otherwise wipe it). */
static void announce(play_session *s, const char *text)
{
    const int seat = rp_match_to_move(s->match);
    if (s->in_place && seat >= 0 && rp_match_is_human(s->match, seat)) {
        tell(s, seat, text, strlen(text));
        return;
    }
    rp_cli_write_wrapped(stdout, text, rp_cli_width(stdout));
}

/* ---- the screen of a human's turn ---- */

/* The legal moves numbered, in as many columns as the width takes (80 through a pipe). */
static void list_moves(const play_session *s, FILE *out, int width)
{
    rp_action legal[RP_MAX_LEGAL];
    const int n = rp_match_legal(s->match, legal);
    char(*texts)[RP_ACTION_TEXT] = malloc((size_t)(n > 0 ? n : 1) * sizeof *texts);
    if (!texts)
        return;
    int longest = 1;
    for (int i = 0; i < n; i++) {
        if (rp_match_action_text(s->match, legal[i], texts[i], sizeof texts[i]) < 0)
            snprintf(texts[i], sizeof texts[i], "?");
        const int len = (int)strlen(texts[i]);
        longest = len > longest ? len : longest;
    }
    const int cell = 5 + longest + 2; /* "  12 " + the move + a gap */
    const int columns = (width ? width : 80) / cell > 0 ? (width ? width : 80) / cell : 1;
    for (int i = 0; i < n; i++) {
        const bool last = i % columns == columns - 1 || i == n - 1;
        fprintf(out, "%s%4d%s %-*s%s", s->color ? "\033[1m" : "", i + 1, s->color ? "\033[0m" : "",
                last ? 0 : longest + 2, texts[i], last ? "\n" : "");
    }
    free(texts);
}

/* The compact line above the prompt: the game's summary, a short list, or a count. */
static void prompt_moves(const play_session *s, FILE *out, int width)
{
    char summary[512];
    if (rp_match_moves_summary(s->match, summary, sizeof summary) > 0) {
        char line[sizeof summary + 64];
        snprintf(line, sizeof line, "Moves: %s  ('moves' numbers them)\n", summary);
        rp_cli_write_wrapped(out, line, width);
        return;
    }
    rp_action legal[RP_MAX_LEGAL];
    int n = rp_match_legal(s->match, legal);
    if (n <= SHORT_LIST) {
        list_moves(s, out, width);
        return;
    }
    fprintf(out, "%d moves: type one in notation, or 'moves' to see them numbered.\n", n);
}

/* Grow *buf by text (a log); false when out of memory (the text is dropped). */
static bool append_text(char **buf, size_t *len, const char *text, size_t n)
{
    char *grown = realloc(*buf, *len + n + 1);
    if (!grown)
        return false;
    memcpy(grown + *len, text, n);
    *len += n;
    grown[*len] = '\0';
    *buf = grown;
    return true;
}

/* The screen drawn in place: from the top, as much of the seat's log as fits above `bottom`
 * (the board and what follows it), wrapped to the width. */
static void draw_in_place(const play_session *s, int seat, const char *bottom, int width, int rows)
{
    int bottom_lines = 0;
    for (const char *p = bottom; *p; p++)
        bottom_lines += *p == '\n';
    char *log = NULL;
    size_t log_len = 0;
    FILE *mem = open_memstream(&log, &log_len);
    if (mem) {
        if (s->log[seat])
            rp_cli_write_wrapped(mem, s->log[seat], width);
        if (fclose(mem) != 0)
            log_len = 0;
    }
    int room = rows - bottom_lines - 2; /* a blank line between, and the prompt */
    const char *from = log ? log + log_len : "";
    while (log && room > 0 && from > log) {
        from--; /* back over the newline ending the previous line, then to its start */
        while (from > log && from[-1] != '\n')
            from--;
        room--;
    }
    printf("\033[H\033[2J%s\n%s", from, bottom);
    free(log);
}

static void show_turn(play_session *s, int seat)
{
    const int width = rp_cli_width(stdout), rows = rp_cli_rows(stdout);
    if (s->in_place && rows >= 12 && width >= 20) {
        if (s->pending_len[seat])
            append_text(&s->log[seat], &s->log_len[seat], s->pending[seat], s->pending_len[seat]);
        forget(s, seat);
        char *bottom = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&bottom, &len);
        if (mem) {
            rp_cli_render(s->match, rp_match_length(s->match), seat, s->color, width, mem);
            prompt_moves(s, mem, width);
            if (fclose(mem) == 0)
                draw_in_place(s, seat, bottom, width, rows);
        }
        free(bottom);
        return;
    }
    if (s->pending_len[seat])
        rp_cli_write_wrapped(stdout, s->pending[seat], width);
    forget(s, seat);
    printf("\n");
    rp_cli_render(s->match, rp_match_length(s->match), seat, s->color, width, stdout);
    prompt_moves(s, stdout, width);
}

/* ---- commands at a human's prompt ---- */

static uint64_t fresh_seed(void)
{
    uint64_t seed = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &seed, sizeof seed) != (ssize_t)sizeof seed)
            seed = 0;
        close(fd);
    }
    if (!seed)
        seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15u ^ (uint64_t)clock();
    return seed;
}

/* The notation of seat's last move in m ("" when none), as it was played. */
static void last_move_text(const rp_match *m, int seat, char *text, size_t size)
{
    text[0] = '\0';
    for (size_t i = rp_match_length(m); i-- > 0;) {
        const rp_entry_info e = rp_match_entry(m, i);
        if (e.kind != RP_ENTRY_MOVE || e.seat != seat)
            continue;
        if (rp_match_move_text(m, i, seat, text, size, NULL) < 0)
            text[0] = '\0';
        return;
    }
}

/* The seat of the last move in m's history, or -1. */
static int last_mover(const rp_match *m)
{
    for (size_t i = rp_match_length(m); i-- > 0;)
        if (rp_match_entry(m, i).kind == RP_ENTRY_MOVE)
            return rp_match_entry(m, i).seat;
    return -1;
}

static bool undo(play_session *s, int seat)
{
    rp_match *m = s->match;
    const rp_game *game = rp_match_game(m);
    size_t taken = 0;
    rp_error err;
    char move[RP_ACTION_TEXT];
    last_move_text(m, seat, move, sizeof move);
    if (rp_match_undo_fair(m, seat, fresh_seed(), &taken, &err) < 0) {
        if (rp_match_humans(m) > 1)
            printf("%s, you cannot undo: %s.\n", rp_seat_name(game, seat), err.msg);
        else
            printf("Cannot undo: %s.\n", err.msg);
        return false;
    }
    forget(s, seat); /* what was seen after the move no longer holds */
    rp_cli_record_snapshot(m);
    char said[1024];
    const size_t replies = taken - 1;
    int n = 0;
    if (rp_match_humans(m) > 1) {
        n = snprintf(said, sizeof said, "%s took back their last move, '%s'.\n",
                     rp_seat_name(game, seat), move);
    } else {
        n = snprintf(said, sizeof said, "Took back your last move, '%s'%s", move,
                     replies ? ", and the" : "");
        if (replies)
            n += snprintf(said + n, sizeof said - (size_t)n, " %zu repl%s after it", replies,
                          replies == 1 ? "y" : "ies");
        if (game->flags & (RP_HIDDEN_INFO | RP_CHANCE))
            n += snprintf(said + n, sizeof said - (size_t)n,
                          ". Everything you could not see has been shuffled again, so what you "
                          "saw after that move no longer holds");
        n += snprintf(said + n, sizeof said - (size_t)n, ".\n");
    }
    if (last_mover(m) == seat) { /* the same turn: say what one more undo takes back */
        last_move_text(m, seat, move, sizeof move);
        snprintf(said + n, sizeof said - (size_t)n, "('undo' again takes back '%s'.)\n", move);
    }
    announce(s, said);
    return true;
}

static void hint(play_session *s)
{
    rp_genmove g;
    rp_error err;
    if (rp_match_choose(s->match, HINT_AI, 0, fresh_seed(), &g, &err) < 0) {
        printf("No hint: %s\n", err.msg);
        return;
    }
    if (g.info.win_chance >= 0)
        printf("Hint (%s): %s  (estimated win chance %.0f%%)\n", HINT_AI, g.text,
               100.0 * g.info.win_chance);
    else
        printf("Hint (%s): %s\n", HINT_AI, g.text);
}

/* A move's number in the legal list, or -1 if `line` is not a plain number. */
static int move_number(const char *line)
{
    char *end;
    long n = strtol(line, &end, 10);
    if (end == line || *end || *line == '-' || *line == '+')
        return -1;
    return n > 0 && n < 100000 ? (int)n : 0;
}

static bool confirm(const char *question)
{
    char line[MAX_INPUT + 1];
    printf("%s (yes/no)\n", question);
    if (rp_cli_read_line("> ", line, sizeof line) != RP_LINE_OK)
        return false;
    rp_cli_lower(line);
    return strcmp(line, "yes") == 0 || strcmp(line, "y") == 0;
}

/* The action's data (rp_match_action_json), parsed; NULL when the game says nothing. */
static cJSON *action_data(const rp_match *m, rp_action action)
{
    char *text = rp_match_action_json(m, action, NULL);
    cJSON *json = text ? cJSON_Parse(text) : NULL;
    free(text);
    return json;
}

/* The action's data: its number `field` (0 when absent). */
static int action_number(const rp_match *m, rp_action action, const char *field)
{
    cJSON *json = action_data(m, action);
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(json, field);
    const int number = cJSON_IsNumber(value) ? value->valueint : 0;
    cJSON_Delete(json);
    return number;
}

/* Whether the action's data names it a draw. */
static bool action_is_draw(const rp_match *m, rp_action action)
{
    cJSON *json = action_data(m, action);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(json, "kind");
    const bool draw = cJSON_IsString(kind) && strcmp(kind->valuestring, "draw") == 0;
    cJSON_Delete(json);
    return draw;
}

/* Play a typed move; an action that gives up moves (Castle Danger's early `end`, perhaps typed
 * after the turn had already ended by itself) asks first. *drew: it was a draw. */
static void play_typed(play_session *s, rp_action action, bool *drew)
{
    const rp_match *m = s->match;
    const int forfeit = action_number(m, action, "forfeit");
    if (forfeit > 0) {
        char question[128];
        snprintf(question, sizeof question,
                 "This ends your turn with %d move%s left unused. End it?", forfeit,
                 forfeit == 1 ? "" : "s");
        if (!confirm(question)) {
            printf("Not played.\n");
            return;
        }
    }
    const bool draw = action_is_draw(m, action);
    rp_error err = {{0}};
    if (play_move(s, action, &err) < 0) {
        printf("Not played: %s.\n", err.msg);
        return;
    }
    *drew = draw;
}

/* A move typed as a number or in notation (as typed, else in lower case). */
static void typed_move(play_session *s, const char *line, bool *drew)
{
    const rp_match *m = s->match;
    rp_action legal[RP_MAX_LEGAL];
    int n = rp_match_legal(m, legal);
    rp_error err = {{0}};
    int number = move_number(line);
    if (number >= 0) {
        if (number < 1 || number > n)
            printf("There is no move %s: choose 1 to %d ('moves' lists them).\n", line, n);
        else
            play_typed(s, legal[number - 1], drew);
        return;
    }
    rp_action action;
    int rc = rp_match_parse(m, line, &action, &err);
    char lower[MAX_INPUT + 1];
    snprintf(lower, sizeof lower, "%s", line);
    rp_cli_lower(lower);
    if (rc < 0 && rc != RP_EILLEGAL && strcmp(lower, line) != 0) {
        /* Typed in capitals: the lower-case notation, when that reads as a move. */
        rp_error err2 = {{0}};
        const int rc2 = rp_match_parse(m, lower, &action, &err2);
        if (rc2 == RP_OK || rc2 == RP_EILLEGAL) {
            rc = rc2;
            err = err2;
        }
    }
    if (rc == RP_OK) {
        play_typed(s, action, drew);
        return;
    }
    printf("Not played: %s. ('moves' lists the legal moves, 'help' the commands.)\n", err.msg);
}

typedef enum { STAY, REDRAW, LEAVE } turn_outcome;

/* The board as `seat` sees it now (NULL when out of memory). */
static char *board_text(const play_session *s, int seat)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return NULL;
    rp_cli_render(s->match, rp_match_length(s->match), seat, s->color, 0, mem);
    if (fclose(mem) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* After a draw when the same seat goes on (Danger at the Walls' refill): what happened and the
 * board's lines that changed, not the whole board again; REDRAW when that cannot be told. */
static turn_outcome show_changes(play_session *s, int seat, const char *before)
{
    if (s->in_place)
        return REDRAW; /* the screen is drawn in place: nothing scrolls */
    char *after = board_text(s, seat);
    if (!before || !after) {
        free(after);
        return REDRAW;
    }
    if (s->pending_len[seat])
        rp_cli_write_wrapped(stdout, s->pending[seat], rp_cli_width(stdout));
    forget(s, seat);
    const char *old_line = before, *new_line = after;
    while (*new_line) {
        const size_t old_len = strcspn(old_line, "\n"), new_len = strcspn(new_line, "\n");
        if (old_len != new_len || memcmp(old_line, new_line, new_len) != 0)
            printf("%.*s\n", (int)new_len, new_line);
        old_line += old_len + (old_line[old_len] != '\0');
        new_line += new_len + (new_line[new_len] != '\0');
    }
    free(after);
    prompt_moves(s, stdout, rp_cli_width(stdout));
    return STAY;
}

/* One line from the human at `seat`: a command or a move. */
static turn_outcome human_input(play_session *s, int seat, const char *line)
{
    rp_match *m = s->match;
    char command[MAX_INPUT + 1];
    snprintf(command, sizeof command, "%s", line);
    rp_cli_lower(command);
    if (!*command)
        return STAY; /* nothing typed: the prompt again, the board stays where it is */
    if (strcmp(command, "board") == 0)
        return REDRAW;
    if (strcmp(command, "quit") == 0 || strcmp(command, "exit") == 0)
        return LEAVE;
    if (strcmp(command, "help") == 0 || strcmp(command, "?") == 0) {
        turn_help();
    } else if (strcmp(command, "moves") == 0) {
        list_moves(s, stdout, rp_cli_width(stdout));
    } else if (strcmp(command, "rules") == 0) {
        const char *rules = rp_game_rules(rp_match_game(m));
        rp_cli_page(rules ? rules : "No rules document.\n");
    } else if (strcmp(command, "hint") == 0) {
        hint(s);
    } else if (strcmp(command, "undo") == 0) {
        /* At an open table the one who just moved may take it back at the next one's prompt. */
        const int previous = s->open_previous;
        const bool theirs = previous >= 0 && rp_match_may_undo(m, seat, NULL) < 0;
        return undo(s, theirs ? previous : seat) ? REDRAW : STAY;
    } else if (strcmp(command, "resign") == 0) {
        if (confirm("Resign the game?")) {
            rp_error err;
            rp_match_resign(m, seat, &err);
            rp_cli_record_snapshot(m);
        }
    } else {
        size_t before = rp_match_moves(m);
        char *board = board_text(s, seat);
        bool drew = false;
        typed_move(s, line, &drew);
        turn_outcome outcome = STAY;
        if (rp_match_moves(m) != before && rp_match_to_move(m) == seat)
            outcome = drew ? show_changes(s, seat, board) : REDRAW; /* the same seat again */
        free(board);
        return outcome;
    }
    return STAY;
}

/* Between two humans: clear the screen, wait for the next one; the one who just moved may
 * still take their move back. Returns false to leave. */
static bool hand_over(play_session *s, int next)
{
    const rp_game *game = rp_match_game(s->match);
    const int previous = s->screen_seat;
    rp_cli_clear_screen();
    for (;;) {
        printf("Pass the terminal to %s (seat %d). %s: press Enter when ready.\n",
               rp_seat_name(game, next), next, rp_seat_name(game, next));
        if (previous >= 0 && rp_match_may_undo(s->match, previous, NULL) == RP_OK)
            printf("(%s: type 'undo' first to take back your move.)\n",
                   rp_seat_name(game, previous));
        char line[MAX_INPUT + 1];
        int rc = rp_cli_read_line("", line, sizeof line);
        if (rc == RP_LINE_EOF)
            return false;
        if (rc == RP_LINE_REFUSED)
            continue;
        rp_cli_lower(line);
        if (strcmp(line, "quit") == 0)
            return false;
        if (strcmp(line, "undo") == 0 && previous >= 0) {
            if (undo(s, previous)) {
                s->screen_seat = -1;
                rp_cli_clear_screen();
                return true; /* the loop shows whoever acts now */
            }
            continue;
        }
        if (!*line)
            break;
    }
    s->screen_seat = next;
    rp_cli_clear_screen();
    return true;
}

/* A view as data without the key naming its viewer, or NULL. */
static cJSON *view_without_viewer(const rp_match *m, int viewer)
{
    char *text = rp_match_view(m, viewer, false, NULL);
    cJSON *view = text ? cJSON_Parse(text) : NULL;
    free(text);
    static const char *const viewer_keys[] = {"seat", "viewer"};
    for (size_t k = 0; view && k < sizeof viewer_keys / sizeof viewer_keys[0]; k++)
        cJSON_DeleteItemFromObjectCaseSensitive(view, viewer_keys[k]);
    return view;
}

/* Whether `seat` sees anything the spectator does not (a hand, face-down cards): its view,
 * but for the key naming the viewer, differs from the spectator's. */
static bool sees_private(const rp_match *m, int seat)
{
    if (seat < 0 || !(rp_match_game(m)->flags & RP_HIDDEN_INFO))
        return false;
    cJSON *mine = view_without_viewer(m, seat);
    cJSON *public = view_without_viewer(m, RP_SPECTATOR);
    const bool differ = !mine || !public || !cJSON_Compare(mine, public, true);
    cJSON_Delete(mine);
    cJSON_Delete(public);
    return differ;
}

/* The turn passes between humans who hold nothing private: no hand-over, the same screen. */
static void open_turn_change(play_session *s, int next)
{
    const rp_game *game = rp_match_game(s->match);
    const int previous = s->screen_seat;
    printf("\n%s (seat %d) to play.", rp_seat_name(game, next), next);
    if (previous >= 0 && previous != next && rp_match_may_undo(s->match, previous, NULL) == RP_OK)
        printf(" (%s: 'undo' takes back your move.)", rp_seat_name(game, previous));
    printf("\n");
    s->open_previous = previous;
}

static void game_over_screen(play_session *s)
{
    const rp_match *m = s->match;
    const bool shared = rp_match_humans(m) != 1;
    int viewer = RP_SPECTATOR;
    for (int p = 0; !shared && p < rp_match_players(m); p++)
        if (rp_match_is_human(m, p))
            viewer = p;
    const int width = rp_cli_width(stdout), rows = rp_cli_rows(stdout);
    if (!shared && s->in_place && rows >= 12 && width >= 20) {
        if (s->pending_len[viewer])
            append_text(&s->log[viewer], &s->log_len[viewer], s->pending[viewer],
                        s->pending_len[viewer]);
        char *bottom = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&bottom, &len);
        if (mem) {
            rp_cli_render(m, rp_match_length(m), viewer, s->color, width, mem);
            char over[RP_ERROR_TEXT];
            rp_cli_over_text(m, viewer, over, sizeof over);
            rp_cli_result_line(m, over, mem);
            if (fclose(mem) == 0)
                draw_in_place(s, viewer, bottom, width, rows);
        }
        free(bottom);
        return;
    }
    if (shared) {
        rp_cli_clear_screen();
    } else if (s->pending_len[viewer]) {
        rp_cli_write_wrapped(stdout, s->pending[viewer], rp_cli_width(stdout));
    }
    printf("\n");
    rp_cli_render(m, rp_match_length(m), viewer, s->color, rp_cli_width(stdout), stdout);
    char over[RP_ERROR_TEXT];
    rp_cli_over_text(m, viewer, over, sizeof over);
    rp_cli_result_line(m, over, stdout);
}

/* What Tab completes at a prompt: the commands and the legal moves' notations. */
static char **prompt_lines(void *ctx, size_t *count)
{
    const play_session *s = ctx;
    static const char *const commands[] = {"moves", "board",  "hint", "rules",
                                           "undo",  "resign", "help", "quit"};
    const size_t ncommands = sizeof commands / sizeof commands[0];
    rp_action legal[RP_MAX_LEGAL];
    const int n = rp_match_legal(s->match, legal);
    char **lines = calloc(ncommands + (size_t)n, sizeof *lines);
    *count = 0;
    if (!lines)
        return NULL;
    for (size_t i = 0; i < ncommands; i++)
        lines[(*count)++] = strdup(commands[i]);
    for (int i = 0; i < n; i++) {
        char text[RP_ACTION_TEXT];
        if (rp_match_action_text(s->match, legal[i], text, sizeof text) >= 0)
            lines[(*count)++] = strdup(text);
    }
    size_t kept = 0; /* drop any strdup that failed */
    for (size_t i = 0; i < *count; i++)
        if (lines[i])
            lines[kept++] = lines[i];
    *count = kept;
    return lines;
}

static int game_loop(play_session *s)
{
    rp_cli_set_completions(prompt_lines, s);
    rp_match *m = s->match;
    const rp_game *game = rp_match_game(m);
    bool redraw = true;
    char line[MAX_INPUT + 1];
    while (!rp_match_over(m)) {
        int p = rp_match_to_move(m);
        if (!rp_match_is_human(m, p)) {
            if (ai_turn(s) != RP_EXIT_OK)
                return RP_EXIT_FAIL;
            continue;
        }
        if (p != s->screen_seat) {
            if (rp_match_humans(m) > 1 && (sees_private(m, s->screen_seat) || sees_private(m, p))) {
                s->open_previous = -1;
                if (!hand_over(s, p))
                    return RP_EXIT_OK;
                if (rp_match_to_move(m) != p)
                    continue; /* the hand-over took a move back */
            } else if (rp_match_humans(m) > 1) {
                open_turn_change(s, p);
            }
            s->screen_seat = p;
            redraw = true;
        }
        if (redraw)
            show_turn(s, p);
        redraw = false;
        char prompt[64];
        snprintf(prompt, sizeof prompt, "%s> ", rp_seat_name(game, p));
        int rc = rp_cli_read_line(prompt, line, sizeof line);
        if (rc == RP_LINE_EOF) {
            printf("\n");
            return RP_EXIT_OK;
        }
        if (rc == RP_LINE_REFUSED)
            continue;
        turn_outcome outcome = human_input(s, p, line);
        if (outcome == LEAVE)
            return RP_EXIT_OK;
        redraw = outcome == REDRAW;
        if (rp_match_to_move(m) != p)
            redraw = true;
    }
    game_over_screen(s);
    return RP_EXIT_OK;
}

/* ---- setting up ---- */

typedef struct play_args {
    const rp_game *game;
    rp_config cfg;
    char who[RP_MAX_PLAYERS][RP_RECORD_SEAT_TEXT];
    const char *position, *record, *resume;
    bool scroll; /* --scroll: boards one below the other, never redrawn in place */
} play_args;

/* "N=WHO": WHO for seat N. */
static bool parse_seat(const char *arg, play_args *a)
{
    char *end;
    long seat = strtol(arg, &end, 10);
    if (end == arg || *end != '=' || seat < 0 || seat >= RP_MAX_PLAYERS || !end[1]) {
        rp_cli_usage_error("play", "--seat %s: expected N=WHO, e.g. --seat 1=greedy", arg);
        return false;
    }
    snprintf(a->who[seat], sizeof a->who[seat], "%s", end + 1);
    return true;
}

static int parse_args(int argc, char **argv, play_args *a)
{
    int first = 1;
    if (argc >= 2 && argv[1][0] != '-') {
        a->game = rp_cli_game("play", argv[1]);
        if (!a->game)
            return RP_EXIT_USAGE;
        rp_config_default(a->game, &a->cfg);
        a->cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
        first = 2;
    }
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i], *v;
        rp_error err;
        if (strcmp(arg, "--seat") == 0 || strcmp(arg, "--seed") == 0 ||
            strcmp(arg, "--position") == 0 || strcmp(arg, "--record") == 0 ||
            strcmp(arg, "--resume") == 0) {
            if (!(v = rp_cli_value("play", argc, argv, &i)))
                return RP_EXIT_USAGE;
            if (strcmp(arg, "--seat") == 0 && !parse_seat(v, a))
                return RP_EXIT_USAGE;
            if (strcmp(arg, "--position") == 0)
                a->position = v;
            if (strcmp(arg, "--record") == 0)
                a->record = v;
            if (strcmp(arg, "--resume") == 0)
                a->resume = v;
            if (strcmp(arg, "--seed") == 0 && a->game) {
                char kv[64];
                snprintf(kv, sizeof kv, "seed=%.40s", v);
                if (rp_config_set(a->game, &a->cfg, kv, &err) < 0)
                    return rp_cli_usage_error("play", "%s", err.msg);
            }
        } else if (strcmp(arg, "--scroll") == 0) {
            a->scroll = true;
        } else if (arg[0] == '-') {
            return rp_cli_usage_error("play", "unknown option '%s'", arg);
        } else if (!a->game) {
            return rp_cli_usage_error("play", "'%s': the game comes first (or --resume FILE)", arg);
        } else {
            int rc = rp_cli_set_option("play", a->game, &a->cfg, arg);
            if (rc != RP_EXIT_OK)
                return rc;
        }
    }
    if (a->resume && (a->game || a->position || a->record))
        return rp_cli_usage_error("play", "--resume FILE takes the game, options and record "
                                          "from FILE; only --seat may be added");
    if (!a->resume && !a->game)
        return rp_cli_usage_error("play", "which game? (ramparts list)");
    return RP_EXIT_OK;
}

static int resume_match(play_session *s, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "ramparts play: cannot open %s\n", path);
        return RP_EXIT_FAIL;
    }
    rp_error err;
    s->match = rp_record_read(in, path, &err);
    fclose(in);
    if (!s->match) {
        fprintf(stderr, "ramparts play: %s\n", err.msg);
        return RP_EXIT_FAIL;
    }
    if (rp_match_over(s->match)) {
        char status[256];
        rp_match_status(s->match, status, sizeof status);
        fprintf(stderr, "ramparts play: the game in %s is over (%s): nothing to resume\n", path,
                status);
        rp_match_free(s->match);
        s->match = NULL;
        return RP_EXIT_FAIL;
    }
    return RP_EXIT_OK;
}

static int new_match(play_session *s, const play_args *a)
{
    rp_error err;
    s->match = rp_match_new(a->game, &a->cfg, &err);
    if (!s->match)
        return rp_cli_usage_error("play", "%s", err.msg);
    if (a->position && rp_match_load(s->match, a->position, &err) < 0) {
        rp_match_free(s->match);
        s->match = NULL;
        return rp_cli_usage_error("play", "--position: %s", err.msg);
    }
    const int players = rp_match_players(s->match);
    for (int p = 0; p < players; p++)
        rp_match_set_player(s->match, p, p == 0 ? RP_HUMAN : DEFAULT_OPPONENT, NULL);
    return RP_EXIT_OK;
}

static int seat_players(play_session *s, const play_args *a)
{
    const int players = rp_match_players(s->match);
    /* A resumed game against the AI: an AI's seat holds what no human saw, so it stays an AI. */
    const bool sealed = a->resume && rp_match_keeps_secrets(s->match);
    for (int p = 0; p < RP_MAX_PLAYERS; p++) {
        if (!a->who[p][0])
            continue;
        rp_error err;
        if (p >= players)
            return rp_cli_usage_error("play", "--seat %d: this game has seats 0 to %d", p,
                                      players - 1);
        if (sealed && !rp_match_is_human(s->match, p) && strcmp(a->who[p], RP_HUMAN) == 0)
            return rp_cli_usage_error("play",
                                      "--seat %d=%s: %s (seat %d) was played by %s, whose cards "
                                      "no human has seen: it stays an AI until the game ends",
                                      p, a->who[p], rp_seat_name(rp_match_game(s->match), p), p,
                                      rp_match_player(s->match, p));
        if (rp_match_set_player(s->match, p, a->who[p], &err) < 0)
            return rp_cli_usage_error("play", "--seat %d=%s: %s", p, a->who[p], err.msg);
    }
    return RP_EXIT_OK;
}

static void greet(const play_session *s, bool resumed, bool dealt, FILE *out)
{
    const rp_match *m = s->match;
    const rp_game *game = rp_match_game(m);
    const size_t moves = rp_match_moves(m);
    fprintf(out, "%s", game->title);
    if (resumed)
        fprintf(out, ", resumed after %zu move%s", moves, moves == 1 ? "" : "s");
    const int players = rp_match_players(m);
    const int humans = rp_match_humans(m);
    if (humans > 1)
        fprintf(out, ": %d players at one terminal (%s)", humans,
                game->flags & RP_HIDDEN_INFO
                    ? "the screen is cleared between them whenever one holds something private"
                    : "nothing is hidden: the turn passes on the same screen");
    for (int p = 0; p < players && humans == 1; p++)
        if (rp_match_is_human(m, p))
            fprintf(out, ": you are %s (seat %d)", rp_seat_name(game, p), p);
    fprintf(out, ". Type 'help' for commands.\n");
    if (dealt)
        fprintf(out,
                "Everything %s has been dealt anew on resuming, so nothing read from the "
                "record holds.\n",
                humans > 1 ? "none of you could see" : "you could not see");
}

/* The greeting: printed, or, when screens are drawn in place, the first line of every
 * human's log (the first screen would wipe it). */
static void welcome(play_session *s, bool resumed, bool dealt)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        greet(s, resumed, dealt, stdout);
        return;
    }
    greet(s, resumed, dealt, mem);
    if (fclose(mem) == 0 && !s->in_place)
        rp_cli_write_wrapped(stdout, text, rp_cli_width(stdout)); /* broken at words */
    else if (text)
        for (int p = 0; p < rp_match_players(s->match); p++)
            if (rp_match_is_human(s->match, p))
                tell(s, p, text, len);
    free(text);
}

int rp_cmd_play(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        play_help();
        return RP_EXIT_OK;
    }
    play_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc != RP_EXIT_OK)
        return rc;
    play_session s = {.color = rp_cli_color(stdout), .screen_seat = -1, .open_previous = -1};
    const char *term = getenv("TERM");
    s.in_place = !a.scroll && rp_cli_tty(stdin) && rp_cli_tty(stdout) && term && *term &&
                 strcmp(term, "dumb") != 0;
    rc = a.resume ? resume_match(&s, a.resume) : new_match(&s, &a);
    if (rc != RP_EXIT_OK)
        return rc;
    rc = seat_players(&s, &a);
    rp_error err;
    if (rc == RP_EXIT_OK && rp_cli_record_open(s.match, a.resume ? a.resume : a.record, &err) < 0) {
        fprintf(stderr, "ramparts play: %s\n", err.msg);
        rc = RP_EXIT_FAIL;
    }
    bool dealt = false;
    if (rc == RP_EXIT_OK && a.resume &&
        rp_match_deal_unseen(s.match, fresh_seed(), &dealt, &err) < 0) {
        fprintf(stderr, "ramparts play: %s\n", err.msg);
        rc = RP_EXIT_FAIL;
    }
    if (rc == RP_EXIT_OK) {
        rp_cli_record_snapshot(s.match);
        welcome(&s, a.resume != NULL, dealt);
        rc = game_loop(&s);
        rp_cli_set_completions(NULL, NULL);
        int saved = rp_cli_record_save(s.match);
        if (rc == RP_EXIT_OK)
            rc = saved;
    }
    for (int p = 0; p < RP_MAX_PLAYERS; p++) {
        forget(&s, p);
        free(s.log[p]);
    }
    rp_match_free(s.match);
    return rc;
}
