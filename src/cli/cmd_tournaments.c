/* cmd_tournaments.c — `ramparts tournaments [ID]`: an online server's tournaments as tables,
 * read from its read-only HTTP API (/api/v1/tournaments, docs/server-protocol.md): the list,
 * or one tournament's terms, standings and pairings; --json prints the API's answer as is. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define DEFAULT_SERVER "http://127.0.0.1:8080" /* where `ramparts serve` listens */
#define ID_MAX 9007199254740991LL              /* the largest whole number JSON carries */

static void tournaments_help(void)
{
    printf("usage: ramparts tournaments [ID] [--server URL] [--json]\n\n"
           "Lists the tournaments of an online server (the newest 50) or, with ID, prints\n"
           "one: its terms, its standings and its pairings round by round. Reads the\n"
           "server's read-only HTTP API (/api/v1/tournaments).\n\n"
           "  --server URL  the server, http://HOST[:PORT] (default $RAMPARTS_SERVER, else\n"
           "                %s, where `ramparts serve` listens); not https\n"
           "  --json        the API's answer as it is, one JSON object\n\n"
           "Times are local (TZ). Exit status: 0; 1 when the server cannot be reached or has\n"
           "no such tournament; 2 on bad usage (an ID that is not a number, a bad URL).\n",
           DEFAULT_SERVER);
}

typedef struct tour_args {
    const char *server;
    long long id; /* 0: the list */
    bool json;
} tour_args;

static int parse_args(int argc, char **argv, tour_args *a)
{
    const char *env = getenv("RAMPARTS_SERVER");
    a->server = env && *env ? env : DEFAULT_SERVER;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--json") == 0) {
            a->json = true;
        } else if (strcmp(arg, "--server") == 0) {
            if (!(a->server = rp_cli_value("tournaments", argc, argv, &i)))
                return RP_EXIT_USAGE;
        } else if (arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9')) {
            return rp_cli_usage_error("tournaments", "unknown option '%s'", arg);
        } else if (a->id) {
            return rp_cli_usage_error("tournaments", "one tournament at a time ('%s')", arg);
        } else if (!rp_cli_number("tournaments", "ID", arg, 1, ID_MAX, &a->id)) {
            return RP_EXIT_USAGE;
        }
    }
    return RP_EXIT_OK;
}

/* ---- text from the server, shown safely ---- */

/* Every control character (a terminal's escape sequence) in s made '?', in place: a C1
 * control, two bytes in UTF-8, becomes one. */
static void scrub_text(char *s)
{
    char *w = s;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const bool c1 = *p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
        if (*p < 0x20 || *p == 0x7f || c1) {
            *w++ = '?';
            p += c1;
        } else {
            *w++ = (char)*p;
        }
    }
    *w = '\0';
}

/* Every string of the server's answer scrubbed, keys included, once before anything is
 * printed: names are the players' own, and a server could send anything. */
static void scrub(cJSON *node)
{
    for (; node; node = node->next) {
        if (node->string)
            scrub_text(node->string);
        if (cJSON_IsString(node) && node->valuestring)
            scrub_text(node->valuestring);
        scrub(node->child);
    }
}

static const char *text_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "?";
}

static double number_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A heading line, bold only where colour is wanted (rp_cli_color). */
static void bold(bool color, const char *text)
{
    if (color)
        printf("\033[1m%s\033[0m\n", text);
    else
        printf("%s\n", text);
}

/* "2026-12-07 01:00 UTC" in local time. */
static void format_time(double ms, char *buf, size_t size)
{
    const time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M %Z", &tm))
        snprintf(buf, size, "?");
}

/* Whether the tournament waits for its creator's `start`: open with no start time (its
 * starts_ms is its creation's until it starts; then the moment it started). */
static bool by_its_creator(const cJSON *t)
{
    return strcmp(text_of(t, "status"), "open") == 0 &&
           number_of(t, "starts_ms") <= number_of(t, "created_ms");
}

/* ---- the list ---- */

/* "swiss: 5 rounds", "sets: 2 games", "arena: 45 min". */
static void format_text(const cJSON *t, char *buf, size_t size)
{
    const char *format = text_of(t, "format");
    const double rounds = number_of(t, "rounds"), games = number_of(t, "games");
    if (strcmp(format, "swiss") == 0)
        snprintf(buf, size, "swiss: %g round%s", rounds, rounds == 1 ? "" : "s");
    else if (strcmp(format, "arena") == 0)
        snprintf(buf, size, "arena: %g min", number_of(t, "minutes"));
    else
        snprintf(buf, size, "%.16s: %g game%s", format, games, games == 1 ? "" : "s");
}

static void list_line(const cJSON *t)
{
    char format[64], round[32], starts[64];
    format_text(t, format, sizeof format);
    if (strcmp(text_of(t, "format"), "swiss") == 0)
        snprintf(round, sizeof round, "%g/%g", number_of(t, "round"), number_of(t, "rounds"));
    else
        snprintf(round, sizeof round, "%g", number_of(t, "round"));
    if (by_its_creator(t))
        snprintf(starts, sizeof starts, "by its creator");
    else
        format_time(number_of(t, "starts_ms"), starts, sizeof starts);
    printf("%-5g %-9s %-5s %7g  %-20s %-16s %-22s ", number_of(t, "id"), text_of(t, "status"),
           round, number_of(t, "entries"), text_of(t, "title"), format, starts);
    fputs(text_of(t, "name"), stdout);
    printf("\n");
}

static int print_list(const cJSON *body, bool color)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(body, "tournaments");
    if (!cJSON_IsArray(list)) {
        fprintf(stderr, "ramparts tournaments: the server's answer has no list of tournaments\n");
        return RP_EXIT_FAIL;
    }
    if (cJSON_GetArraySize(list) == 0) {
        printf("No tournaments.\n");
        return RP_EXIT_OK;
    }
    char head[160];
    snprintf(head, sizeof head, "%-5s %-9s %-5s %7s  %-20s %-16s %-22s %s", "ID", "STATUS", "ROUND",
             "PLAYERS", "GAME", "FORMAT", "START", "NAME");
    bold(color, head);
    const cJSON *t;
    cJSON_ArrayForEach (t, list)
        list_line(t);
    return RP_EXIT_OK;
}

/* ---- one tournament ---- */

/* "live, 5 min + 2 s", "3 days a move", "no clock". */
static void clock_text(const cJSON *clock, char *buf, size_t size)
{
    const char *kind = text_of(clock, "kind");
    if (strcmp(kind, "live") == 0)
        snprintf(buf, size, "live, %g min + %g s", number_of(clock, "initial_ms") / 60000,
                 number_of(clock, "increment_ms") / 1000);
    else if (strcmp(kind, "correspondence") == 0)
        snprintf(buf, size, "%g days a move", number_of(clock, "days"));
    else
        snprintf(buf, size, "no clock");
}

static void print_options(const cJSON *options)
{
    const cJSON *o;
    bool first = true;
    cJSON_ArrayForEach (o, options) {
        printf("%s", first ? " (" : ", ");
        fputs(o->string ? o->string : "?", stdout);
        if (cJSON_IsNumber(o))
            printf("=%g", o->valuedouble);
        if (cJSON_IsString(o)) {
            printf("=");
            fputs(o->valuestring, stdout);
        }
        first = false;
    }
    printf("%s", first ? "" : ")");
}

/* When it starts (by itself, or by its creator), started (and, an arena, ends), or was to. */
static void print_start(const cJSON *t)
{
    const char *status = text_of(t, "status");
    char at[64], ends[64];
    format_time(number_of(t, "starts_ms"), at, sizeof at);
    if (by_its_creator(t)) {
        printf("  Starts: when its creator starts it\n");
    } else if (strcmp(status, "open") == 0) {
        printf("  Starts: %s, by itself\n", at);
    } else if (strcmp(status, "cancelled") == 0) {
        printf("  Cancelled: too few players an hour after its start time, %s\n", at);
    } else if (cJSON_HasObjectItem(t, "ends_ms")) {
        format_time(number_of(t, "ends_ms"), ends, sizeof ends);
        printf("  Started: %s; ends %s\n", at, ends);
    } else {
        printf("  Started: %s\n", at);
    }
}

static void print_terms(const cJSON *t)
{
    char format[64], clock[64];
    fputs(text_of(t, "name"), stdout);
    printf(" (tournament %g)\n  Game: ", number_of(t, "id"));
    fputs(text_of(t, "title"), stdout);
    print_options(cJSON_GetObjectItemCaseSensitive(t, "options"));
    clock_text(cJSON_GetObjectItemCaseSensitive(t, "clock"), clock, sizeof clock);
    printf("; %g players a game; %s; %s\n", number_of(t, "table"), clock,
           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "rated")) ? "rated" : "unrated");
    format_text(t, format, sizeof format);
    printf("  Format: %s; %g game%s a pairing\n", format, number_of(t, "games"),
           number_of(t, "games") == 1 ? "" : "s");
    if (cJSON_HasObjectItem(t, "computer")) {
        printf("  House player: the computer (");
        fputs(text_of(t, "computer"), stdout);
        printf("), in each round whose people are an odd number\n");
    }
    char of[32] = "";
    if (strcmp(text_of(t, "format"), "swiss") == 0)
        snprintf(of, sizeof of, " of %g", number_of(t, "rounds"));
    printf("  Status: %s, round %g%s; %g players\n", text_of(t, "status"), number_of(t, "round"),
           of, number_of(t, "entries"));
    print_start(t);
}

/* A standings figure, or "-" where the line has none (direct encounter undecided; an arena's
 * lines have no Swiss tie-breaks). */
static void figure(const cJSON *line, const char *key, char *buf, size_t size)
{
    if (cJSON_HasObjectItem(line, key))
        snprintf(buf, size, "%g", number_of(line, key));
    else
        snprintf(buf, size, "-");
}

static void print_standings(const cJSON *standings, bool color)
{
    char head[160];
    snprintf(head, sizeof head, "%4s %7s %9s %9s %7s %7s %5s  %s", "RANK", "POINTS", "BUCHHOLZ",
             "SONN-BER", "DIRECT", "PLAYED", "BYES", "NAME");
    printf("\n");
    bold(color, "Standings");
    bold(color, head);
    const cJSON *line;
    cJSON_ArrayForEach (line, standings) {
        char buchholz[16], sonneborn[16], direct[16], byes[16];
        figure(line, "buchholz", buchholz, sizeof buchholz);
        figure(line, "sonneborn_berger", sonneborn, sizeof sonneborn);
        figure(line, "direct", direct, sizeof direct);
        figure(line, "byes", byes, sizeof byes);
        printf("%4g %7g %9s %9s %7s %7g %5s  ", number_of(line, "rank"), number_of(line, "points"),
               buchholz, sonneborn, direct, number_of(line, "played"), byes);
        fputs(text_of(line, "name"), stdout);
        printf("%s\n", cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(line, "active"))
                           ? " (withdrawn)"
                           : "");
    }
}

/* Items of a JSON array joined with sep: names as text, numbers with %g. */
static void print_joined(const cJSON *array, const char *sep)
{
    const cJSON *v;
    bool first = true;
    cJSON_ArrayForEach (v, array) {
        printf("%s", first ? "" : sep);
        if (cJSON_IsNumber(v))
            printf("%g", v->valuedouble);
        else
            fputs(cJSON_IsString(v) ? v->valuestring : "?", stdout);
        first = false;
    }
}

static void pairing_line(const cJSON *p, double games)
{
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(p, "players");
    const bool bye = cJSON_GetArraySize(players) == 1;
    printf("%5g  ", number_of(p, "board"));
    if (bye)
        printf("%-5s", "bye");
    else
        printf("%2g/%-2g", number_of(p, "games_done"), games);
    printf("  ");
    char points[64] = "";
    const cJSON *v;
    cJSON_ArrayForEach (v, cJSON_GetObjectItemCaseSensitive(p, "points")) {
        const size_t used = strlen(points);
        snprintf(points + used, sizeof points - used, "%s%g", used ? "-" : "", v->valuedouble);
    }
    printf("%-11s ", points);
    print_joined(players, " - ");
    if (cJSON_HasObjectItem(p, "game"))
        printf("  (game %g being played)", number_of(p, "game"));
    printf("\n");
}

static void print_pairings(const cJSON *pairings, double games, bool color)
{
    char head[96];
    snprintf(head, sizeof head, "%5s  %-5s  %-11s %s", "BOARD", "GAMES", "POINTS", "PLAYERS");
    double round = 0;
    const cJSON *p;
    cJSON_ArrayForEach (p, pairings) {
        if (number_of(p, "round") != round) {
            round = number_of(p, "round");
            char title[32];
            snprintf(title, sizeof title, "Round %g", round);
            printf("\n");
            bold(color, title);
            bold(color, head);
        }
        pairing_line(p, games);
    }
    if (round == 0)
        printf("\nNo pairings yet.\n");
}

static int print_one(const cJSON *t, bool color)
{
    const cJSON *standings = cJSON_GetObjectItemCaseSensitive(t, "standings");
    const cJSON *pairings = cJSON_GetObjectItemCaseSensitive(t, "pairings");
    if (!cJSON_IsArray(standings) || !cJSON_IsArray(pairings)) {
        fprintf(stderr, "ramparts tournaments: the server's answer has no standings\n");
        return RP_EXIT_FAIL;
    }
    print_terms(t);
    print_standings(standings, color);
    print_pairings(pairings, number_of(t, "games"), color);
    return RP_EXIT_OK;
}

/* ---- the command ---- */

/* A reply that is not 200 said in words: exit 1. */
static int refused(const tour_args *a, const rp_cli_http_reply *r)
{
    cJSON *body = cJSON_Parse(r->body);
    scrub(body);
    const char *message = body ? text_of(body, "message") : "?";
    if (r->status == 404 && a->id)
        fprintf(stderr, "ramparts tournaments: %s has no tournament %lld\n", a->server, a->id);
    else
        fprintf(stderr, "ramparts tournaments: %s answered %d: %s\n", a->server, r->status,
                strcmp(message, "?") == 0 ? "not the Ramparts API" : message);
    cJSON_Delete(body);
    return RP_EXIT_FAIL;
}

static int show(const tour_args *a, const rp_cli_http_reply *r)
{
    if (r->status != 200)
        return refused(a, r);
    if (a->json) {
        fputs(r->body, stdout);
        if (!r->length || r->body[r->length - 1] != '\n')
            putchar('\n');
        return RP_EXIT_OK;
    }
    cJSON *body = cJSON_Parse(r->body);
    if (!body) {
        fprintf(stderr, "ramparts tournaments: %s answered something that is not JSON\n",
                a->server);
        return RP_EXIT_FAIL;
    }
    scrub(body);
    const bool color = rp_cli_color(stdout);
    const int rc = a->id ? print_one(body, color) : print_list(body, color);
    cJSON_Delete(body);
    return rc;
}

int rp_cmd_tournaments(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        tournaments_help();
        return RP_EXIT_OK;
    }
    tour_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc != RP_EXIT_OK)
        return rc;
    char path[64], err[512];
    if (a.id)
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld", a.id);
    else
        snprintf(path, sizeof path, "/api/v1/tournaments");
    rp_cli_http_reply reply;
    rc = rp_cli_http_get(a.server, path, &reply, err, sizeof err);
    if (rc == RP_EXIT_USAGE)
        return rp_cli_usage_error("tournaments", "--server %s", err);
    if (rc != RP_EXIT_OK) {
        fprintf(stderr, "ramparts tournaments: %s\n", err);
        return rc;
    }
    rc = show(&a, &reply);
    free(reply.body);
    return rc;
}
