/* cmd_play.c — `ramparts play GAME`: a game in the terminal. Humans see their own view and the
 * legal moves numbered, and answer by number or notation; AIs move by themselves. Every game
 * is saved as a record when it ends or the player leaves. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

#define HUMAN "human"
#define DEFAULT_OPPONENT "medium"
#define HINT_AI "hard"

typedef struct play_session {
    rp_match match;
    rp_ai *ai[RP_MAX_PLAYERS]; /* NULL for a human seat */
    const char *record_path;
    bool color;
} play_session;

static void turn_help(void)
{
    printf("At your turn: a move's number or its notation, or\n"
           "  help   this list        moves  the legal moves again   rules  the rules\n"
           "  hint   the AI's suggestion with its estimated win chance\n"
           "  undo   take back your last move (and the AI's replies)   quit   save and leave\n");
}

static void play_help(void)
{
    printf("usage: ramparts play GAME [--seat N=WHO ...] [--seed N] [--position TEXT]\n"
           "                     [--record FILE] [key=value ...]\n\n"
           "Plays GAME in the terminal. WHO is 'human' or an AI; by default seat 0 is human\n"
           "and every other seat is '%s'. --position starts from a full-state notation.\n"
           "Each game is saved as a record on exit: to --record FILE, else to the folder\n"
           "$RAMPARTS_RECORDS (default ~/.local/share/ramparts/records).\n\n",
           DEFAULT_OPPONENT);
    turn_help();
    printf("\nAIs:\n%s", rp_ai_help());
}

static bool is_human(const play_session *s, int seat)
{
    return s->ai[seat] == NULL;
}

/* The default record path: $RAMPARTS_RECORDS or ~/.local/share/ramparts/records. */
static int default_record_path(const rp_match *m, char *path, size_t size)
{
    char dir[768];
    const char *env = getenv("RAMPARTS_RECORDS");
    const char *home = getenv("HOME");
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.local/share/ramparts/records", home);
    else
        snprintf(dir, sizeof dir, "ramparts-records");
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        return -1;
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(path, size, "%s/%s-%s-%llu.rec", dir, m->game->id, stamp,
             (unsigned long long)m->config.seed);
    return 0;
}

static void save_record(const play_session *s)
{
    char path[1024];
    if (s->record_path)
        snprintf(path, sizeof path, "%s", s->record_path);
    else if (default_record_path(&s->match, path, sizeof path) < 0) {
        fprintf(stderr, "ramparts play: cannot create a folder for the record\n");
        return;
    }
    FILE *out = fopen(path, "w");
    if (!out || rp_record_write(&s->match, out) < 0) {
        fprintf(stderr, "ramparts play: cannot write the record %s\n", path);
        if (out)
            fclose(out);
        return;
    }
    fclose(out);
    printf("Game saved: %s\n", path);
}

static void list_moves(const play_session *s)
{
    const rp_game *game = s->match.game;
    rp_action legal[RP_MAX_LEGAL];
    int n = game->legal_actions(&s->match.state, legal);
    printf("Your moves:\n");
    for (int i = 0; i < n; i++) {
        char text[RP_ACTION_TEXT];
        game->action_to_text(&s->match.state, legal[i], text, sizeof text);
        printf("  %s%3d%s  %-28s%s", s->color ? "\033[1m" : "", i + 1, s->color ? "\033[0m" : "",
               text, (i % 2 == 1 || i == n - 1) ? "\n" : "");
    }
}

static void show_turn(const play_session *s)
{
    const rp_game *game = s->match.game;
    int p = game->current_player(&s->match.state);
    printf("\n");
    game->render(&s->match.state, p, stdout, s->color);
    list_moves(s);
}

/* Take back moves until a human's own move has been undone and a human is to act again. */
static void undo_to_human(play_session *s)
{
    rp_match *m = &s->match;
    bool undid_human = false;
    while (m->num_moves > 0) {
        rp_error err;
        rp_match_undo(m, &err);
        int p = m->game->current_player(&m->state);
        if (is_human(s, p))
            undid_human = true;
        if (undid_human && is_human(s, p))
            break;
    }
    if (!undid_human)
        printf("Nothing to undo.\n");
}

static void hint(play_session *s)
{
    rp_ai *ai;
    rp_error err;
    if (rp_ai_create(s->match.game, HINT_AI, (uint64_t)time(NULL), &ai, &err) < 0) {
        printf("No hint: %s\n", err.msg);
        return;
    }
    rp_action a;
    rp_ai_info info;
    if (rp_ai_choose(ai, &s->match.state, &a, &info, &err) == RP_OK) {
        char text[RP_ACTION_TEXT];
        s->match.game->action_to_text(&s->match.state, a, text, sizeof text);
        if (info.win_chance >= 0)
            printf("Hint (%s): %s  (estimated win chance %.0f%%)\n", HINT_AI, text,
                   100.0 * info.win_chance);
        else
            printf("Hint (%s): %s\n", HINT_AI, text);
    }
    rp_ai_free(ai);
}

/* A move's number in the legal list, or -1 if `line` is not a plain number. */
static int move_number(const char *line)
{
    char *end;
    long n = strtol(line, &end, 10);
    if (end == line || *end)
        return -1;
    return n > 0 && n < 100000 ? (int)n : 0;
}

/* One line from a human: a command or a move. Returns false to leave the game. */
static bool human_input(play_session *s, char *line)
{
    rp_match *m = &s->match;
    if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0)
        return false;
    if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0) {
        turn_help();
        return true;
    }
    if (strcmp(line, "moves") == 0 || strcmp(line, "board") == 0 || !*line) {
        show_turn(s);
        return true;
    }
    if (strcmp(line, "rules") == 0) {
        const char *rules = rp_game_rules(m->game);
        fputs(rules ? rules : "No rules document.\n", stdout);
        return true;
    }
    if (strcmp(line, "hint") == 0) {
        hint(s);
        return true;
    }
    if (strcmp(line, "undo") == 0) {
        undo_to_human(s); /* the game loop redraws the position it returns to */
        return true;
    }
    rp_error err = {{0}};
    int number = move_number(line);
    int rc;
    if (number >= 0) {
        rp_action legal[RP_MAX_LEGAL];
        int n = m->game->legal_actions(&m->state, legal);
        if (number < 1 || number > n) {
            printf("There is no move %s: choose 1 to %d (or type 'help').\n", line, n);
            return true;
        }
        rc = rp_match_play(m, legal[number - 1], &err);
    } else {
        rc = rp_match_play_text(m, line, &err);
    }
    if (rc < 0)
        printf("Not played: %s. Type a number from the list, or 'help'.\n", err.msg);
    return true;
}

static void announce(const play_session *s, int seat, const char *who, const char *move)
{
    printf("%s%s%s (%s) plays %s\n", s->color ? "\033[1m" : "",
           rp_seat_name(s->match.game, seat), s->color ? "\033[0m" : "", who, move);
}

static int ai_turn(play_session *s, int p)
{
    rp_match *m = &s->match;
    rp_action a;
    rp_error err;
    if (rp_ai_choose(s->ai[p], &m->state, &a, NULL, &err) < 0) {
        fprintf(stderr, "ramparts play: %s\n", err.msg);
        return -1;
    }
    char text[RP_ACTION_TEXT];
    m->game->action_to_text(&m->state, a, text, sizeof text);
    if (rp_match_play(m, a, &err) < 0) {
        fprintf(stderr, "ramparts play: the AI chose an illegal move: %s\n", err.msg);
        return -1;
    }
    announce(s, p, rp_ai_name(s->ai[p]), text);
    return 0;
}

static int game_loop(play_session *s)
{
    rp_match *m = &s->match;
    int last_human = -1;
    char line[512];
    while (!rp_match_over(m)) {
        int p = m->game->current_player(&m->state);
        if (!is_human(s, p)) {
            if (ai_turn(s, p) < 0)
                return RP_EXIT_FAIL;
            continue;
        }
        if (last_human != (int)m->num_moves) {
            show_turn(s);
            last_human = (int)m->num_moves;
        }
        printf("%s> ", rp_seat_name(m->game, p));
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\n");
            return RP_EXIT_OK;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *start = line;
        while (*start == ' ' || *start == '\t')
            start++;
        if (!human_input(s, start))
            return RP_EXIT_OK;
    }
    int viewer = 0;
    while (viewer < m->game->num_players(&m->state) - 1 && !is_human(s, viewer))
        viewer++;
    printf("\n");
    m->game->render(&m->state, viewer, stdout, s->color);
    char status[256];
    rp_match_status(m, status, sizeof status);
    double r[RP_MAX_PLAYERS] = {0};
    m->game->returns(&m->state, r);
    printf("Game over:");
    for (int q = 0; q < m->game->num_players(&m->state); q++)
        printf(" %s %s;", rp_seat_name(m->game, q),
               r[q] > 0.999 ? "wins" : r[q] > 0 ? "shares the win" : "loses");
    printf("\n");
    return RP_EXIT_OK;
}

/* "N=WHO": WHO for seat N. */
static bool parse_seat(const char *arg, char specs[][96])
{
    char *end;
    long seat = strtol(arg, &end, 10);
    if (end == arg || *end != '=' || seat < 0 || seat >= RP_MAX_PLAYERS || !end[1]) {
        rp_cli_usage_error("play", "--seat %s: expected N=WHO, e.g. --seat 1=greedy", arg);
        return false;
    }
    snprintf(specs[seat], sizeof specs[seat], "%s", end + 1);
    return true;
}

int rp_cmd_play(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        play_help();
        return RP_EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return rp_cli_usage_error("play", "which game? (ramparts list)");
    const rp_game *game = rp_cli_game("play", argv[1]);
    if (!game)
        return RP_EXIT_USAGE;
    rp_config cfg;
    rp_config_default(game, &cfg);
    cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
    char specs[RP_MAX_PLAYERS][96] = {{0}};
    const char *position = NULL;
    play_session s = {.color = rp_cli_color(stdout)};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        rp_error err;
        if (strcmp(a, "--seat") == 0 || strcmp(a, "--seed") == 0 ||
            strcmp(a, "--position") == 0 || strcmp(a, "--record") == 0) {
            if (!(v = rp_cli_value("play", argc, argv, &i)))
                return RP_EXIT_USAGE;
            if (strcmp(a, "--seat") == 0 && !parse_seat(v, specs))
                return RP_EXIT_USAGE;
            if (strcmp(a, "--position") == 0)
                position = v;
            if (strcmp(a, "--record") == 0)
                s.record_path = v;
            if (strcmp(a, "--seed") == 0) {
                char kv[64];
                snprintf(kv, sizeof kv, "seed=%s", v);
                if (rp_config_set(game, &cfg, kv, &err) < 0)
                    return rp_cli_usage_error("play", "%s", err.msg);
            }
        } else if (a[0] == '-') {
            return rp_cli_usage_error("play", "unknown option '%s'", a);
        } else {
            int rc = rp_cli_set_option("play", game, &cfg, a);
            if (rc != RP_EXIT_OK)
                return rc;
        }
    }
    rp_error err;
    if (rp_match_new(&s.match, game, &cfg, &err) < 0)
        return rp_cli_usage_error("play", "%s", err.msg);
    if (position && rp_match_load(&s.match, position, &err) < 0) {
        rp_match_free(&s.match);
        return rp_cli_usage_error("play", "--position: %s", err.msg);
    }
    int players = game->num_players(&s.match.state);
    int rc = RP_EXIT_OK;
    for (int p = 0; p < RP_MAX_PLAYERS; p++) {
        if (specs[p][0] && p >= players) {
            rc = rp_cli_usage_error("play", "--seat %d: this game has seats 0 to %d", p,
                                    players - 1);
            break;
        }
        if (p >= players)
            continue;
        const char *who = specs[p][0] ? specs[p] : p == 0 ? HUMAN : DEFAULT_OPPONENT;
        snprintf(s.match.seats[p], sizeof s.match.seats[p], "%.*s", RP_RECORD_SEAT_TEXT - 1, who);
        if (strcmp(who, HUMAN) == 0)
            continue;
        if (rp_ai_create(game, who, cfg.seed + (uint64_t)p, &s.ai[p], &err) < 0) {
            rc = rp_cli_usage_error("play", "--seat %d=%s: %s", p, who, err.msg);
            break;
        }
    }
    if (rc == RP_EXIT_OK) {
        printf("%s — seed %llu. Type 'help' for commands.\n", game->title,
               (unsigned long long)cfg.seed);
        rc = game_loop(&s);
        save_record(&s);
    }
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        rp_ai_free(s.ai[p]);
    rp_match_free(&s.match);
    return rc;
}
