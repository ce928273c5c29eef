/* analyze_check.c — recomputes the figures of a `ramparts analyze --json` report directly from
 * the records of the same games (`--save-records DIR`), replaying each record through the
 * public API with its own straightforward code, and compares them with the report: seat wins
 * and their Wilson intervals, draws, unfinished games, lengths, decisions, branching, forced
 * moves, Ludii's metrics and the win rates behind every kind of action's impact.
 * Usage: analyze_check REPORT.json RECORDS_DIR. Exit 0 when every figure agrees. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/engine.h"
#include "ramparts/game.h"
#include "ramparts/json.h"

#define MAX_GAMES 4096
#define MAX_KINDS 128

typedef struct game_facts {
    int players, winner; /* winner: sole winner or -1 */
    int first;           /* the seat to act at the start; -1 when the rules play at once */
    bool over;
    double returns[RP_MAX_PLAYERS];
    double turns, actions, decisions, forced, legal;
    double lead, stability, drama, decisive; /* NaN when not defined */
    double margin; /* the winner's points minus the best other's; NaN without points or winner */
    char kinds[MAX_KINDS][40];
    unsigned kind_seats[MAX_KINDS];
    int num_kinds;
} game_facts;

static game_facts facts[MAX_GAMES];
static double turn_cap = NAN; /* the report's cap for tools, NaN for none */
static int num_games, checks, failures;
static bool paired; /* the report's games come in pairs: games 2k and 2k+1 share a deal */

/* Student's t 0.975 quantiles for 1 to 30 degrees of freedom, from a printed table (NIST/
 * SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2), for the intervals over deals. */
static const double t975[31] = {NAN,   12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};

static void expect_within(const char *what, double report, double direct, double tolerance)
{
    checks++;
    const bool both_missing = isnan(report) && isnan(direct);
    if (both_missing || fabs(report - direct) <= tolerance * fmax(1, fabs(direct)))
        return;
    failures++;
    fprintf(stderr, "FAIL %s: report %.12g, direct from the records %.12g\n", what, report, direct);
}

static void expect_near(const char *what, double report, double direct)
{
    expect_within(what, report, direct, 1e-9);
}

static double number_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The kind of an action: action_json's "kind", else the first word of its notation when it
 * is a word (letters and hyphens only). */
static void note_kind(game_facts *f, const rp_game *game, const void *st, rp_action a, int seat)
{
    char kind[40] = "";
    cJSON *data = game->json->action ? game->json->action(st, a) : NULL;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(data, "kind");
    if (cJSON_IsString(k)) {
        snprintf(kind, sizeof kind, "%s", k->valuestring);
    } else {
        char text[RP_ACTION_TEXT];
        game->action_to_text(st, a, text, sizeof text);
        size_t n = strcspn(text, " ");
        bool word = n > 0;
        for (size_t i = 0; i < n; i++)
            word = word && ((text[i] >= 'a' && text[i] <= 'z') || text[i] == '-');
        if (word)
            snprintf(kind, sizeof kind, "%.*s", (int)n, text);
    }
    cJSON_Delete(data);
    if (!kind[0])
        return;
    int i = 0;
    while (i < f->num_kinds && strcmp(f->kinds[i], kind) != 0)
        i++;
    if (i == f->num_kinds && f->num_kinds < MAX_KINDS)
        snprintf(f->kinds[f->num_kinds++], sizeof f->kinds[0], "%s", kind);
    if (i < f->num_kinds && seat >= 0 && seat < RP_MAX_PLAYERS)
        f->kind_seats[i] |= 1u << seat;
}

/* Ludii's metrics from the game's evaluate, normalised so the seats sum to 1. */
static void ludii(game_facts *f, const double *ev, long states)
{
    const int n = f->players;
    f->lead = f->stability = f->drama = f->decisive = NAN;
    if (states == 0)
        return;
    long changes = 0;
    for (long t = 1; t < states; t++) {
        bool same = true;
        double best_a = -1, best_b = -1;
        for (int p = 0; p < n; p++) {
            best_a = fmax(best_a, ev[t * n + p]);
            best_b = fmax(best_b, ev[(t - 1) * n + p]);
        }
        for (int p = 0; p < n; p++)
            same = same && ((fabs(ev[t * n + p] - best_a) <= 1e-12) ==
                            (fabs(ev[(t - 1) * n + p] - best_b) <= 1e-12));
        changes += !same;
    }
    f->lead = (double)changes / (double)states;
    f->stability = 0;
    for (int p = 0; p < n; p++) {
        double mean = 0, var = 0;
        for (long t = 0; t < states; t++)
            mean += ev[t * n + p];
        mean /= (double)states;
        for (long t = 0; t < states; t++)
            var += (ev[t * n + p] - mean) * (ev[t * n + p] - mean);
        f->stability += var / (double)states;
    }
    if (f->winner < 0)
        return;
    double drama = 0, threshold = -1;
    for (long t = 0; t < states; t++) {
        double best = 0;
        for (int p = 0; p < n; p++) {
            best = fmax(best, ev[t * n + p]);
            if (p != f->winner)
                threshold = fmax(threshold, ev[t * n + p]);
        }
        drama += best - ev[t * n + f->winner];
    }
    f->drama = drama / (double)states;
    long first = states;
    for (long t = states - 1; t >= 0; t--)
        if (ev[t * n + f->winner] > threshold)
            first = t;
    f->decisive = (double)first / (double)states;
}

static int measure(const rp_match *m, game_facts *f)
{
    const rp_game *game = rp_match_game(m);
    const size_t length = rp_match_length(m), moves = rp_match_moves(m);
    rp_state st;
    rp_match_referee(m, 0, &st, NULL);
    f->players = game->num_players(&st);
    f->first = game->simultaneous ? -1 : game->current_player(&st);
    /* Zeroed so the analyzer sees what the loop below writes before it reads. */
    double *ev = calloc((moves + 1) * RP_MAX_PLAYERS, sizeof *ev);
    if (!ev)
        return -1;
    int last_player = RP_TERMINAL, turns = 0;
    for (size_t h = 0, i = 0; h < length; h++) {
        rp_action move;
        rp_match_referee(m, h, &st, &move); /* an undo's re-sample included */
        if (move == RP_NO_ACTION)           /* a note or an ending */
            continue;
        rp_action legal[RP_MAX_LEGAL];
        const int n = game->legal_actions(&st, legal), seat = game->current_player(&st);
        if (seat != last_player)
            turns++, last_player = seat;
        f->legal += n;
        f->actions++;
        f->decisions += n > 1;
        f->forced += n == 1;
        double sum = 0;
        for (int p = 0; p < f->players; p++)
            sum += ev[i * (size_t)f->players + (size_t)p] = game->evaluate(&st, p);
        for (int p = 0; p < f->players; p++)
            ev[i * (size_t)f->players + (size_t)p] =
                sum > 0 ? ev[i * (size_t)f->players + (size_t)p] / sum : 1.0 / f->players;
        note_kind(f, game, &st, move, seat);
        i++;
    }
    rp_match_referee(m, length, &st, NULL);
    f->turns = game->turn_number ? game->turn_number(&st) : turns;
    f->over = rp_match_over(m); /* by the rules, or by an ending such as a resignation */
    /* a game the tool stopped as turn cap + 1 began has played cap turns */
    if (!f->over && f->turns > turn_cap)
        f->turns = turn_cap;
    f->winner = -1;
    f->margin = NAN;
    if (f->over) {
        rp_match_returns(m, f->returns);
        for (int p = 0; p < f->players; p++)
            if (f->returns[p] > 0.999)
                f->winner = p;
        if (game->score && f->players == 1)
            f->margin = game->score(&st, 0);
        if (game->score && f->players > 1 && f->winner >= 0) {
            double best = -1e300;
            for (int p = 0; p < f->players; p++)
                if (p != f->winner && game->score(&st, p) > best)
                    best = game->score(&st, p);
            f->margin = game->score(&st, f->winner) - best;
        }
    } else {
        for (int p = 0; p < f->players; p++)
            f->returns[p] = 1.0 / f->players;
    }
    ludii(f, ev, (long)moves);
    free(ev);
    return 0;
}

static int compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_records(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char *names[MAX_GAMES];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < MAX_GAMES;)
        if (strstr(e->d_name, ".rec"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, compare);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *in = fopen(path, "r");
        rp_error err;
        rp_match *m = in ? rp_record_read(in, path, &err) : NULL;
        if (in)
            fclose(in);
        if (!m) {
            fprintf(stderr, "%s: does not replay\n", path);
            return -1;
        }
        measure(m, &facts[num_games++]);
        rp_match_free(m);
        free(names[i]);
    }
    return 0;
}

static void wilson(double p, int n, double *low, double *high)
{
    const double z = 1.959964;
    const double c = (p + z * z / (2.0 * n)) / (1 + z * z / n);
    const double h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
    *low = fmax(0, c - h);
    *high = fmin(1, c + h);
}

static double mean_of(size_t offset)
{
    double sum = 0;
    int count = 0;
    for (int g = 0; g < num_games; g++) {
        const double v = *(const double *)((const char *)&facts[g] + offset);
        if (!isnan(v))
            sum += v, count++;
    }
    return count ? sum / count : NAN;
}

/* A share of games and its interval as the report must give it: Wilson's over the games, or,
 * when the games are paired, Student's t over the deals' shares (the table's three decimals,
 * so compared to 1e-3). won(g) says whether game g counts. */
static void check_share(const char *what, const cJSON *o, bool (*won)(int g, int param), int param)
{
    double share = 0;
    for (int g = 0; g < num_games; g++)
        share += won(g, param);
    share /= num_games;
    expect_near(what, number_of(o, "value"), share);
    expect_near("n", number_of(o, "n"), num_games);
    double low, high, tolerance = 1e-9;
    if (!paired) {
        wilson(share, num_games, &low, &high);
    } else {
        const int deals = num_games / 2;
        if (deals < 2 || deals > 31) {
            expect_near("deals within the printed t table (2 to 31)", deals, 2);
            return;
        }
        double sq = 0;
        for (int d = 0; d < deals; d++) {
            const double x = (won(2 * d, param) + won(2 * d + 1, param)) / 2.0;
            sq += (x - share) * (x - share);
        }
        const double half = t975[deals - 1] * sqrt(sq / (deals - 1) / deals);
        low = fmax(0, share - half);
        high = fmin(1, share + half);
        tolerance = 1e-3;
    }
    expect_within(what, number_of(o, "low"), low, tolerance);
    expect_within(what, number_of(o, "high"), high, tolerance);
}

static bool seat_won(int g, int seat)
{
    return facts[g].winner == seat;
}

static bool first_won(int g, int param)
{
    (void)param;
    return facts[g].first >= 0 && facts[g].winner == facts[g].first;
}

static void check_seats(const cJSON *figs, int players)
{
    int wins[RP_MAX_PLAYERS] = {0}, ended = 0;
    for (int g = 0; g < num_games; g++) {
        ended += facts[g].over;
        if (facts[g].winner >= 0)
            wins[facts[g].winner]++;
    }
    const cJSON *seat;
    int p = 0;
    cJSON_ArrayForEach (seat, cJSON_GetObjectItemCaseSensitive(figs, "seats")) {
        check_share("seat wins", cJSON_GetObjectItemCaseSensitive(seat, "wins"), seat_won, p);
        p++;
    }
    expect_near("seats listed", p, players);
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(figs, "first_mover");
    const bool defined = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(first, "defined"));
    expect_near("first mover defined", defined, facts[0].first >= 0);
    if (defined)
        check_share("first mover wins", cJSON_GetObjectItemCaseSensitive(first, "wins"), first_won,
                    0);
    double worst = 0;
    for (int a = 0; a < players; a++)
        for (int b = a + 1; b < players; b++)
            worst = fmax(worst, fabs((double)(wins[a] - wins[b])) / ended);
    const cJSON *ludii_list = cJSON_GetObjectItemCaseSensitive(figs, "ludii");
    const cJSON *m;
    cJSON_ArrayForEach (m, ludii_list) {
        const char *id = cJSON_GetObjectItemCaseSensitive(m, "id")->valuestring;
        if (strcmp(id, "balance") == 0)
            expect_near("balance", number_of(m, "value"), ended ? 1 - worst : NAN);
        if (strcmp(id, "advantage_p1") == 0)
            expect_near("advantage_p1", number_of(m, "value"), (double)wins[0] / num_games);
    }
}

static void check_length_and_ludii(const cJSON *figs)
{
    double draws = 0, stopped = 0, decided = 0, turns = 0, actions = 0, decisions = 0, forced = 0,
           legal = 0, turns_sq = 0;
    for (int g = 0; g < num_games; g++) {
        const game_facts *f = &facts[g];
        draws += f->over && f->winner < 0;
        stopped += !f->over;
        decided += f->winner >= 0;
        turns += f->turns, actions += f->actions, decisions += f->decisions;
        forced += f->forced, legal += f->legal;
        turns_sq += f->turns * f->turns;
    }
    const struct {
        const char *list, *id;
        double direct;
    } want[] = {
        {"length", "turns", turns / num_games},
        {"length", "actions", actions / num_games},
        {"length", "decisions", decisions / num_games},
        {"length", "branching", legal / actions},
        {"length", "forced_share", forced / actions},
        {"length", "unfinished", stopped / num_games},
        {"length", "draws", draws / num_games},
        {"ludii", "drawishness", draws / num_games},
        {"ludii", "completion", decided / num_games},
        {"ludii", "duration", turns / num_games},
        {"ludii", "duration_sd", sqrt((turns_sq - turns * turns / num_games) / (num_games - 1))},
        {"length", "score_margin", mean_of(offsetof(game_facts, margin))},
        {"ludii", "lead_change", mean_of(offsetof(game_facts, lead))},
        {"ludii", "stability", mean_of(offsetof(game_facts, stability))},
        {"ludii", "drama", mean_of(offsetof(game_facts, drama))},
        {"ludii", "decisiveness", mean_of(offsetof(game_facts, decisive))},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cJSON *row, *found = NULL;
        cJSON_ArrayForEach (row, cJSON_GetObjectItemCaseSensitive(figs, want[i].list))
            if (strcmp(cJSON_GetObjectItemCaseSensitive(row, "id")->valuestring, want[i].id) == 0)
                found = row;
        expect_near(want[i].id, found ? number_of(found, "value") : NAN, want[i].direct);
        expect_near("n", found ? number_of(found, "n") : NAN, num_games);
    }
}

/* The rows of the impact table that stand for feature (played): its own row, or the row whose
 * statistic it repeats (listed under that row's same_as). */
static const cJSON *impact_row_of(const cJSON *rows, const char *feature)
{
    const cJSON *row, *other;
    cJSON_ArrayForEach (row, rows) {
        const char *when = cJSON_GetObjectItemCaseSensitive(row, "when")->valuestring;
        if (strcmp(cJSON_GetObjectItemCaseSensitive(row, "feature")->valuestring, feature) == 0 &&
            strcmp(when, "played") == 0)
            return row;
        cJSON_ArrayForEach (other, cJSON_GetObjectItemCaseSensitive(row, "same_as"))
            if (strcmp(cJSON_GetObjectItemCaseSensitive(other, "feature")->valuestring, feature) ==
                    0 &&
                strcmp(cJSON_GetObjectItemCaseSensitive(other, "when")->valuestring, "played") == 0)
                return row;
    }
    return NULL;
}

/* Every kind of action the games played is in the report's impact table (its own row, or one
 * it repeats exactly), with its win rate when played and without; no label appears twice. */
static void check_impact(const cJSON *figs)
{
    const cJSON *impact = cJSON_GetObjectItemCaseSensitive(figs, "impact");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(impact, "rows");
    int distinct = 0;
    static char seen[512][40];
    for (int g = 0; g < num_games; g++)
        for (int k = 0; k < facts[g].num_kinds; k++) {
            int i = 0;
            while (i < distinct && strcmp(seen[i], facts[g].kinds[k]) != 0)
                i++;
            if (i == distinct && distinct < 512)
                snprintf(seen[distinct++], sizeof seen[0], "%s", facts[g].kinds[k]);
        }
    for (int i = 0; i < distinct; i++) {
        char feature[64];
        snprintf(feature, sizeof feature, "kind:%.39s", seen[i]);
        const cJSON *row = impact_row_of(rows, feature);
        expect_near("kind of action in the impact table", row != NULL, 1);
        double with = 0, without = 0;
        int n_with = 0, n_without = 0;
        for (int g = 0; g < num_games; g++) {
            const game_facts *f = &facts[g];
            unsigned seats = 0;
            for (int k = 0; k < f->num_kinds; k++)
                if (strcmp(f->kinds[k], seen[i]) == 0)
                    seats = f->kind_seats[k];
            for (int p = 0; p < f->players; p++) {
                if (seats & (1u << p))
                    with += f->returns[p], n_with++;
                else
                    without += f->returns[p], n_without++;
            }
        }
        expect_near(feature, number_of(row, "n_with"), n_with);
        expect_near(feature, number_of(row, "n_without"), n_without);
        expect_near(feature, number_of(row, "rate_with"), n_with ? with / n_with : NAN);
        expect_near(feature, number_of(row, "rate_without"), n_without ? without / n_without : NAN);
    }
    const cJSON *a, *b;
    int repeated = 0;
    cJSON_ArrayForEach (a, rows)
        for (b = a->next; b; b = b->next)
            repeated += strcmp(cJSON_GetObjectItemCaseSensitive(a, "label")->valuestring,
                               cJSON_GetObjectItemCaseSensitive(b, "label")->valuestring) == 0;
    expect_near("labels that appear twice", repeated, 0);
    /* Bonferroni both ways: significant exactly when the interval leaves out 0 */
    const double tests = number_of(impact, "tests");
    cJSON_ArrayForEach (a, rows) {
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "tested")))
            continue;
        const double low = number_of(a, "low"), high = number_of(a, "high");
        const bool excludes_zero = low > 0 || high < 0;
        expect_near("p_adjusted = p * tests", number_of(a, "p_adjusted"),
                    fmin(1, number_of(a, "p") * tests));
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(impact, "significance_shown")))
            expect_near("significant exactly when the interval leaves out 0",
                        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "significant")),
                        excludes_zero);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: analyze_check REPORT.json RECORDS_DIR\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    static char text[1 << 24];
    const size_t len = in ? fread(text, 1, sizeof text - 1, in) : 0;
    if (in)
        fclose(in);
    text[len] = '\0';
    cJSON *report = cJSON_Parse(text);
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(report, "ai_games");
    turn_cap = number_of(report, "turn_cap");
    paired = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(report, "paired"));
    if (!figs || read_records(argv[2]) < 0 || num_games == 0) {
        fprintf(stderr, "analyze_check: cannot read %s or the records in %s\n", argv[1], argv[2]);
        return 1;
    }
    expect_near("games", number_of(figs, "games"), num_games);
    check_seats(figs, facts[0].players);
    check_length_and_ludii(figs);
    check_impact(figs);
    cJSON_Delete(report);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
