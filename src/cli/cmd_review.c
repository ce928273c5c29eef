/* cmd_review.c — `ramparts review RECORD --seat N`: the review of one seat's game
 * (include/ramparts/review.h, docs/review.md) as a list of moves with marks and the better
 * move, or with --json the very JSON the server and the browser get. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ramparts/review.h"

static void review_help(void)
{
    printf("usage: ramparts review FILE --seat N [--json] [--level L] [--budget PARAMS]\n\n"
           "Reviews one seat's moves in a game record: each of its decisions is judged by one\n"
           "search from that seat's own view at that moment (what it could know then, never\n"
           "the cards revealed later). Prints every move in the words the seat was told, the\n"
           "seat's winning chances before and after its own moves, the move the search\n"
           "preferred, and marks: inaccuracy, mistake, blunder by the drop in winning chances\n"
           "(docs/review.md). Draws and deals are shown as luck, nobody's error.\n"
           "  --seat N      the seat to review (required)\n"
           "  --json        the review as one JSON object (docs/review.md), as the server's\n"
           "  --level L     the search that judges: easy, medium or hard (the default)\n"
           "  --budget P    search parameters after the level's, e.g. iters=2000 (default:\n"
           "                the review's budget per decision, docs/ai.md)\n"
           "A game against the AI that is not over is reviewed only for a human seat, up to\n"
           "the moves played so far. Exit status 1 when the record does not replay or may not\n"
           "be reviewed, 2 on bad usage. A progress bar shows on a terminal.\n");
}

typedef struct review_args {
    const char *path, *level, *budget;
    long long seat;
    bool json, has_seat;
} review_args;

static int parse_args(int argc, char **argv, review_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value;
        if (strcmp(arg, "--json") == 0) {
            a->json = true;
        } else if (strcmp(arg, "--seat") == 0) {
            if (!(value = rp_cli_value("review", argc, argv, &i)) ||
                !rp_cli_number("review", "--seat", value, 0, RP_MAX_PLAYERS - 1, &a->seat))
                return RP_EXIT_USAGE;
            a->has_seat = true;
        } else if (strcmp(arg, "--level") == 0) {
            if (!(a->level = rp_cli_value("review", argc, argv, &i)))
                return RP_EXIT_USAGE;
        } else if (strcmp(arg, "--budget") == 0) {
            if (!(a->budget = rp_cli_value("review", argc, argv, &i)))
                return RP_EXIT_USAGE;
        } else if (arg[0] == '-' && arg[1]) {
            return rp_cli_usage_error("review", "unknown option '%s'", arg);
        } else if (a->path) {
            return rp_cli_usage_error("review", "one record file at a time");
        } else {
            a->path = arg;
        }
    }
    if (!a->path)
        return rp_cli_usage_error("review", "which record file?");
    if (!a->has_seat)
        return rp_cli_usage_error("review", "which seat? --seat N");
    return RP_EXIT_OK;
}

static void show_progress(void *arg, size_t done, size_t total)
{
    (void)total;
    rp_progress_update(arg, (long)done);
}

/* "52%" */
static int percent(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? (int)(v->valuedouble * 100.0 + 0.5) : -1;
}

static const char *mark_colour(const char *mark)
{
    if (strcmp(mark, "blunder") == 0)
        return "\033[1;31m";
    return strcmp(mark, "mistake") == 0 ? "\033[33m" : "\033[36m";
}

/* One decision of the reviewed seat: chances before and after, the mark, the better move. */
static void print_decision(const cJSON *d, bool color, int marks[3])
{
    const cJSON *mark = cJSON_GetObjectItemCaseSensitive(d, "mark");
    const cJSON *best = cJSON_GetObjectItemCaseSensitive(d, "best_text");
    const cJSON *best_move = cJSON_GetObjectItemCaseSensitive(d, "best");
    printf("       chances %d%% -> ", percent(d, "before"));
    const int after = percent(d, "after");
    if (after < 0)
        printf("?");
    else
        printf("%d%%", after);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "forced")))
        printf("  (forced: the only legal move)");
    if (cJSON_IsString(mark)) {
        const char *m = mark->valuestring;
        marks[strcmp(m, "blunder") == 0 ? 2 : strcmp(m, "mistake") == 0 ? 1 : 0]++;
        printf("  %s%s%s; better: %s", color ? mark_colour(m) : "", m, color ? "\033[0m" : "",
               best_move->valuestring);
        if (cJSON_IsString(best) && *best->valuestring)
            printf(" (%s)", best->valuestring);
        printf(", %d%%", percent(d, "best_chances"));
    }
    printf("\n");
}

static void print_review(const rp_match *m, const cJSON *doc, int seat, bool color)
{
    const rp_game *game = rp_match_game(m);
    const cJSON *budget = cJSON_GetObjectItemCaseSensitive(doc, "budget");
    const cJSON *level = cJSON_GetObjectItemCaseSensitive(doc, "level");
    printf("Review of %s (seat %d) in %s, by the %s search (%s) from %s's view at each move.\n"
           "Chances: %s's estimated share of the win (docs/review.md).\n\n",
           rp_seat_name(game, seat), seat, game->title, level->valuestring, budget->valuestring,
           rp_seat_name(game, seat), rp_seat_name(game, seat));
    int marks[3] = {0};
    const cJSON *entry;
    cJSON_ArrayForEach (entry, cJSON_GetObjectItemCaseSensitive(doc, "plies")) {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(entry, "text");
        const cJSON *actor = cJSON_GetObjectItemCaseSensitive(entry, "actor");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(entry, "decision");
        if (cJSON_IsNull(actor)) {
            printf("       %sluck: %s%s\n", color ? "\033[2m" : "", text->valuestring,
                   color ? "\033[0m" : "");
            continue;
        }
        const cJSON *ply = cJSON_GetObjectItemCaseSensitive(entry, "ply");
        printf("%5d. %s\n", (int)ply->valuedouble + 1, text->valuestring);
        if (d)
            print_decision(d, color, marks);
    }
    printf("\n%s: %d inaccurac%s, %d mistake%s, %d blunder%s.\n", rp_seat_name(game, seat),
           marks[0], marks[0] == 1 ? "y" : "ies", marks[1], marks[1] == 1 ? "" : "s", marks[2],
           marks[2] == 1 ? "" : "s");
}

static rp_match *read_record(const char *path)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!in) {
        fprintf(stderr, "ramparts review: cannot open %s\n", path);
        return NULL;
    }
    rp_error err = {{0}};
    rp_match *m = rp_record_read(in, path, &err);
    if (in != stdin)
        fclose(in);
    if (!m)
        fprintf(stderr, "ramparts review: %s\n", err.msg);
    return m;
}

static int run_review(const rp_match *m, const review_args *a)
{
    rp_error err = {{0}};
    const int seat = (int)a->seat;
    if (rp_review_allowed(m, seat, &err) < 0) {
        fprintf(stderr, "ramparts review: %s: %s\n", a->path, err.msg);
        return seat >= rp_match_players(m) ? RP_EXIT_USAGE : RP_EXIT_FAIL;
    }
    rp_progress bar;
    const rp_review_opts opts = {
        .level = a->level, .budget = a->budget, .progress = show_progress, .progress_arg = &bar};
    if (rp_review_check(rp_match_game(m), &opts, &err) < 0)
        return rp_cli_usage_error("review", "%s", err.msg);
    rp_progress_start(&bar, "review", (long)rp_review_decisions(m, seat, 0));
    char *text = rp_review_json(m, seat, &opts, &err);
    rp_progress_finish(&bar);
    if (!text) {
        fprintf(stderr, "ramparts review: %s\n", err.msg);
        return RP_EXIT_FAIL;
    }
    if (a->json) {
        printf("%s\n", text);
        free(text);
        return RP_EXIT_OK;
    }
    cJSON *doc = cJSON_Parse(text);
    free(text);
    if (!doc) {
        fprintf(stderr, "ramparts review: out of memory\n");
        return RP_EXIT_FAIL;
    }
    print_review(m, doc, seat, rp_cli_color(stdout));
    cJSON_Delete(doc);
    return RP_EXIT_OK;
}

int rp_cmd_review(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        review_help();
        return RP_EXIT_OK;
    }
    review_args a;
    const int usage = parse_args(argc, argv, &a);
    if (usage != RP_EXIT_OK)
        return usage;
    rp_match *m = read_record(a.path);
    if (!m)
        return RP_EXIT_FAIL;
    const int rc = run_review(m, &a);
    rp_match_free(m);
    return rc;
}
