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

#define MAX_GAMES 4096
#define MAX_KINDS 128

typedef struct game_facts {
    int players, winner; /* winner: sole winner or -1 */
    bool over;
    double returns[RP_MAX_PLAYERS];
    double turns, actions, decisions, forced, legal;
    double lead, stability, drama, decisive; /* NaN when not defined */
    char kinds[MAX_KINDS][40];
    unsigned kind_seats[MAX_KINDS];
    int num_kinds;
} game_facts;

static game_facts facts[MAX_GAMES];
static double turn_cap = NAN; /* the report's cap for tools, NaN for none */
static int num_games, checks, failures;

static void expect_near(const char *what, double report, double direct)
{
    checks++;
    const bool both_missing = isnan(report) && isnan(direct);
    if (both_missing || fabs(report - direct) <= 1e-9 * fmax(1, fabs(direct)))
        return;
    failures++;
    fprintf(stderr, "FAIL %s: report %.12g, direct from the records %.12g\n", what, report, direct);
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
    cJSON *data = game->action_json ? game->action_json(st, a) : NULL;
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
    const rp_game *game = m->game;
    rp_state st;
    rp_state_copy(game, &st, &m->start);
    f->players = game->num_players(&st);
    /* Zeroed so the analyzer sees what the loop below writes before it reads. */
    double *ev = calloc((m->num_moves + 1) * RP_MAX_PLAYERS, sizeof *ev);
    if (!ev)
        return -1;
    int last_player = RP_TERMINAL, turns = 0;
    for (size_t h = 0, i = 0; h < m->length; h++) {
        if (m->history[h].kind != RP_ENTRY_MOVE) { /* an undo's re-sample, or a note */
            rp_match_apply_entry(m, &m->history[h], &st);
            continue;
        }
        const rp_action move = m->history[h].action;
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
        game->apply(&st, move);
        i++;
    }
    f->turns = game->turn_number ? game->turn_number(&st) : turns;
    f->over = game->current_player(&st) == RP_TERMINAL;
    /* a game the tool stopped as turn cap + 1 began has played cap turns */
    if (!f->over && f->turns > turn_cap)
        f->turns = turn_cap;
    f->winner = -1;
    if (f->over) {
        game->returns(&st, f->returns);
        for (int p = 0; p < f->players; p++)
            if (f->returns[p] > 0.999)
                f->winner = p;
    } else {
        for (int p = 0; p < f->players; p++)
            f->returns[p] = 1.0 / f->players;
    }
    ludii(f, ev, (long)m->num_moves);
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
        rp_match m;
        rp_error err;
        if (!in || rp_record_read(&m, in, path, &err) < 0) {
            fprintf(stderr, "%s: does not replay\n", path);
            return -1;
        }
        fclose(in);
        measure(&m, &facts[num_games++]);
        rp_match_free(&m);
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

static void check_seats(const cJSON *figs, int players)
{
    int wins[RP_MAX_PLAYERS] = {0};
    for (int g = 0; g < num_games; g++)
        if (facts[g].winner >= 0)
            wins[facts[g].winner]++;
    const cJSON *seat;
    int p = 0;
    cJSON_ArrayForEach (seat, cJSON_GetObjectItemCaseSensitive(figs, "seats")) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(seat, "wins");
        const double share = (double)wins[p] / num_games;
        double low, high;
        wilson(share, num_games, &low, &high);
        expect_near("seat wins", number_of(w, "value"), share);
        expect_near("seat wins low", number_of(w, "low"), low);
        expect_near("seat wins high", number_of(w, "high"), high);
        expect_near("seat wins n", number_of(w, "n"), num_games);
        p++;
    }
    expect_near("seats listed", p, players);
    double worst = 0;
    for (int a = 0; a < players; a++)
        for (int b = a + 1; b < players; b++)
            worst = fmax(worst, fabs((double)(wins[a] - wins[b])) / num_games);
    const cJSON *ludii_list = cJSON_GetObjectItemCaseSensitive(figs, "ludii");
    const cJSON *m;
    cJSON_ArrayForEach (m, ludii_list) {
        const char *id = cJSON_GetObjectItemCaseSensitive(m, "id")->valuestring;
        if (strcmp(id, "balance") == 0)
            expect_near("balance", number_of(m, "value"), 1 - worst);
        if (strcmp(id, "advantage_p1") == 0)
            expect_near("advantage_p1", number_of(m, "value"), (double)wins[0] / num_games);
    }
}

static void check_length_and_ludii(const cJSON *figs)
{
    double draws = 0, stopped = 0, decided = 0, turns = 0, actions = 0, decisions = 0, forced = 0,
           legal = 0;
    for (int g = 0; g < num_games; g++) {
        const game_facts *f = &facts[g];
        draws += f->over && f->winner < 0;
        stopped += !f->over;
        decided += f->winner >= 0;
        turns += f->turns, actions += f->actions, decisions += f->decisions;
        forced += f->forced, legal += f->legal;
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

/* Every kind of action in the report's impact table: its win rate when played and without. */
static void check_impact(const cJSON *figs)
{
    const cJSON *row;
    int kinds = 0;
    cJSON_ArrayForEach (row, cJSON_GetObjectItemCaseSensitive(
                                 cJSON_GetObjectItemCaseSensitive(figs, "impact"), "rows")) {
        const char *feature = cJSON_GetObjectItemCaseSensitive(row, "feature")->valuestring;
        const char *when = cJSON_GetObjectItemCaseSensitive(row, "when")->valuestring;
        if (strncmp(feature, "kind:", 5) != 0 || strcmp(when, "played") != 0)
            continue;
        kinds++;
        double with = 0, without = 0;
        int n_with = 0, n_without = 0;
        for (int g = 0; g < num_games; g++) {
            const game_facts *f = &facts[g];
            unsigned seats = 0;
            for (int k = 0; k < f->num_kinds; k++)
                if (strcmp(f->kinds[k], feature + 5) == 0)
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
    int distinct = 0;
    char seen[512][40];
    for (int g = 0; g < num_games; g++)
        for (int k = 0; k < facts[g].num_kinds; k++) {
            int i = 0;
            while (i < distinct && strcmp(seen[i], facts[g].kinds[k]) != 0)
                i++;
            if (i == distinct && distinct < 512)
                snprintf(seen[distinct++], sizeof seen[0], "%s", facts[g].kinds[k]);
        }
    expect_near("kinds of action in the impact table", kinds, distinct);
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
