/* analyze_verdict.c — the verdict at the top of an analysis report: a few sentences a designer
 * reads first (first mover, games stopped at the cap, length, decisiveness, the effects that
 * matter, the sample's size), each with a level, read off the figures already computed. The
 * verdict's own tests are Bonferroni-adjusted together, over every question asked: the first
 * mover's, and each seat's (the most uneven seat is the smallest of k p-values). */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "analyze.h"

static double number_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const cJSON *by_id(const cJSON *list, const char *id)
{
    const cJSON *row;
    cJSON_ArrayForEach (row, list) {
        const cJSON *rid = cJSON_GetObjectItemCaseSensitive(row, "id");
        if (cJSON_IsString(rid) && strcmp(rid->valuestring, id) == 0)
            return row;
    }
    return NULL;
}

static cJSON *add_item(cJSON *list, const char *topic, const char *level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static cJSON *add_item(cJSON *list, const char *topic, const char *level, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "topic", topic);
    cJSON_AddStringToObject(o, "level", level);
    cJSON_AddStringToObject(o, "text", text);
    cJSON_AddItemToArray(list, o);
    return o;
}

/* The seat whose test of "no advantage" has the smallest p-value. */
static const cJSON *most_uneven_seat(const cJSON *seats)
{
    const cJSON *seat, *worst = NULL;
    cJSON_ArrayForEach (seat, seats)
        if (isfinite(number_at(seat, "p")) &&
            (!worst || number_at(seat, "p") < number_at(worst, "p")))
            worst = seat;
    return worst;
}

/* A share against the fair share: its level from the adjusted p-value and the size. */
static const char *share_level(double share, double fair, double p_adjusted)
{
    if (!(p_adjusted < 0.05))
        return "ok";
    return fabs(share - fair) >= 0.05 ? "act" : "note";
}

/* The questions the verdict's tests ask (issue 46: correcting by 2 whatever the seats gave
 * false alarms at 8.2% with 4 players and 11.5% with 5): the first mover's when there is one,
 * and one per seat with 3 or more players (with 2, seat 0's question is seat 1's). */
static int verdict_questions(const cJSON *figs)
{
    const double players = number_at(figs, "players");
    const bool first = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(figs, "first_mover"), "defined"));
    return (first ? 1 : 0) + (players >= 3 ? (int)players : 1);
}

/* The shares of games stopped at the cap and of games drawn or shared: no side won them. */
static void undecided_shares(const cJSON *figs, double *unfinished, double *drawn)
{
    const cJSON *length = cJSON_GetObjectItemCaseSensitive(figs, "length");
    const double stopped = number_at(by_id(length, "unfinished"), "value");
    const double draws = number_at(by_id(length, "draws"), "value");
    *unfinished = isfinite(stopped) ? stopped : 0;
    *drawn = isfinite(draws) ? draws : 0;
}

/* " of all games, F% of the decided ones: U% did not finish and D% were drawn or shared", when
 * some games were not decided (else ""): what a share of all games is fair against. */
static void undecided_note(double fair_decided, double unfinished, double drawn, char *out,
                           size_t size)
{
    *out = '\0';
    if (unfinished + drawn > 0)
        snprintf(out, size,
                 " of all games, %.1f%% of the decided ones: %.1f%% did not finish and %.1f%% "
                 "were drawn or shared",
                 100 * fair_decided, 100 * unfinished, 100 * drawn);
}

/* The test the first mover's line reports, as an_games_to_detect models it. */
static an_advantage_test advantage_test_of(const cJSON *fm, const cJSON *figs, double fair_decided)
{
    const cJSON *test = cJSON_GetObjectItemCaseSensitive(fm, "test");
    an_advantage_test t = {0};
    t.paired = cJSON_IsString(test) && strncmp(test->valuestring, "McNemar", 7) == 0;
    if (t.paired) {
        t.units = (long)number_at(cJSON_GetObjectItemCaseSensitive(fm, "wins"), "deals");
        t.informative =
            (long)(number_at(fm, "deals_won_twice") + number_at(fm, "deals_lost_twice"));
        t.games_per_unit = 2;
    } else {
        t.units = (long)number_at(figs, "games");
        t.informative = (long)number_at(fm, "decided");
        t.games_per_unit = 1;
    }
    t.p0 = fair_decided;
    return t;
}

/* "About N games would detect a 5-point edge": the power of the test the line reports, at the
 * level the verdict uses (0.05 over its questions), the share of informative games or deals
 * held as measured (issue 46: Fleiss's formula for independent games gave 783 where the
 * paired test had power 0.47-0.69). */
static void sizing_sentence(cJSON *o, const cJSON *fm, const cJSON *figs, double fair_decided,
                            int tests)
{
    const an_advantage_test t = advantage_test_of(fm, figs, fair_decided);
    const double alpha = 0.05 / tests;
    double power;
    const double need = an_games_to_detect(&t, 0.05, alpha, &power);
    if (!isfinite(need))
        return;
    cJSON_AddNumberToObject(o, "games_to_detect_5_points", need);
    cJSON_AddNumberToObject(o, "power_at_that_size", power);
    cJSON_AddNumberToObject(o, "test_level", alpha);
    cJSON_AddNumberToObject(o, "informative_rate", (double)t.informative / (double)t.units);
    char more[400];
    snprintf(more, sizeof more,
             " About %.0f games would detect a 5-point edge: this test (%s, at the verdict's "
             "level 0.05/%d) finds one %.0f%% of the time at that size, %s as here (%.0f%%).",
             need, t.paired ? "McNemar's over deals" : "the exact binomial over decided games",
             tests, 100 * power,
             t.paired ? "with the share of deals one side won twice" : "with the decided games",
             100.0 * (double)t.informative / (double)t.units);
    cJSON *text = cJSON_GetObjectItemCaseSensitive(o, "text");
    char joined[1000];
    snprintf(joined, sizeof joined, "%s%s", text->valuestring, more);
    cJSON_SetValuestring(text, joined);
}

static void first_mover_item(cJSON *list, const cJSON *figs, int tests)
{
    const cJSON *fm = cJSON_GetObjectItemCaseSensitive(figs, "first_mover");
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fm, "defined"))) {
        add_item(list, "first mover", "ok", "No first mover: %s.",
                 cJSON_GetObjectItemCaseSensitive(fm, "why")->valuestring);
        return;
    }
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(fm, "wins");
    const double share = number_at(w, "value"), fair_decided = number_at(fm, "fair_share");
    const double p = number_at(fm, "p"), adjusted = fmin(1, p * tests);
    /* Like with like (issue 46): the share is of all games, so the fair share is of all games
     * too: the decided games' fair share times the decided games' part. */
    double unfinished, drawn;
    undecided_shares(figs, &unfinished, &drawn);
    const double fair = fair_decided * (1 - unfinished - drawn);
    const char *level = share_level(share, fair, adjusted);
    char undecided[160];
    undecided_note(fair_decided, unfinished, drawn, undecided, sizeof undecided);
    cJSON *o =
        add_item(list, "first mover", level,
                 "The first mover won %.1f%% [%.1f%%, %.1f%%] of %g games (fair: %.1f%%%s); %s, "
                 "p = %.3g adjusted (%s).",
                 100 * share, 100 * number_at(w, "low"), 100 * number_at(w, "high"),
                 number_at(w, "n"), 100 * fair, undecided,
                 strcmp(level, "ok") == 0 ? "no significant advantage either way"
                 : share > fair           ? "an advantage to moving first"
                                          : "a disadvantage to moving first",
                 adjusted, cJSON_GetObjectItemCaseSensitive(fm, "test")->valuestring);
    cJSON_AddNumberToObject(o, "fair_share_of_all_games", fair);
    cJSON_AddNumberToObject(o, "unfinished", unfinished);
    cJSON_AddNumberToObject(o, "p", p);
    cJSON_AddNumberToObject(o, "p_adjusted", adjusted);
    if (strcmp(level, "ok") == 0)
        sizing_sentence(o, fm, figs, fair_decided, tests);
}

static void seat_item(cJSON *list, const cJSON *figs, int tests)
{
    const cJSON *seat = most_uneven_seat(cJSON_GetObjectItemCaseSensitive(figs, "seats"));
    if (!seat)
        return;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(seat, "wins");
    const double players = number_at(figs, "players"), share = number_at(w, "value");
    const double p = number_at(seat, "p"), adjusted = fmin(1, p * tests);
    double unfinished, drawn;
    undecided_shares(figs, &unfinished, &drawn);
    const double fair = (1 - unfinished - drawn) / players; /* of all games, as the share */
    const char *level = share_level(share, fair, adjusted);
    char undecided[160];
    undecided_note(1 / players, unfinished, drawn, undecided, sizeof undecided);
    cJSON *o = add_item(list, "seats", level,
                        "The most uneven seat, %s, won %.1f%% [%.1f%%, %.1f%%] (fair: %.1f%%%s); "
                        "p = %.3g adjusted over %d questions.",
                        cJSON_GetObjectItemCaseSensitive(seat, "name")->valuestring, 100 * share,
                        100 * number_at(w, "low"), 100 * number_at(w, "high"), 100 * fair,
                        undecided, adjusted, tests);
    cJSON_AddNumberToObject(o, "p", p);
    cJSON_AddNumberToObject(o, "p_adjusted", adjusted);
}

static void length_items(cJSON *list, const cJSON *figs, int turn_cap)
{
    const cJSON *length = cJSON_GetObjectItemCaseSensitive(figs, "length");
    const cJSON *ludii = cJSON_GetObjectItemCaseSensitive(figs, "ludii");
    const double stopped = number_at(by_id(length, "unfinished"), "value");
    if (stopped > 0.10)
        add_item(list, "turn cap", "act",
                 "%.0f%% of the games were stopped unfinished at the cap of %d turns: the seat "
                 "figures rest on the other %.0f%%. Ask again with a stronger --ai, or a turn "
                 "limit among the options.",
                 100 * stopped, turn_cap, 100 * (1 - stopped));
    const cJSON *turns = by_id(length, "turns");
    add_item(list, "length", "note",
             "Games last %.1f turns [%.1f, %.1f] on average (spread: standard deviation %.1f), "
             "%.1f decisions each.",
             number_at(turns, "value"), number_at(turns, "low"), number_at(turns, "high"),
             number_at(by_id(ludii, "duration_sd"), "value"),
             number_at(by_id(length, "decisions"), "value"));
    const double decisive = number_at(by_id(ludii, "decisiveness"), "value");
    const double draws = number_at(by_id(length, "draws"), "value");
    if (isfinite(decisive) && number_at(figs, "players") > 1)
        add_item(list, "decisiveness", draws > 0.10 ? "act" : "note",
                 "The eventual winner is clearly ahead after %.0f%% of a game's moves "
                 "(decisiveness); %.1f%% of games are drawn or shared.",
                 100 * decisive, 100 * draws);
    else if (draws > 0.10)
        add_item(list, "decisiveness", "act", "%.1f%% of games are drawn or shared.", 100 * draws);
}

static void effect_items(cJSON *list, const cJSON *figs)
{
    const cJSON *impact = cJSON_GetObjectItemCaseSensitive(figs, "impact");
    const cJSON *top = cJSON_GetObjectItemCaseSensitive(impact, "top");
    const int tests = (int)number_at(impact, "tests");
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(impact, "significance_shown"))) {
        add_item(list, "effects", "note",
                 "Too few games to call any card, action or event significant (below %g).",
                 number_at(impact, "min_games"));
        return;
    }
    if (cJSON_GetArraySize(top) == 0) {
        add_item(list, "effects", "ok",
                 "No card, action or event goes with a significant difference in the share of "
                 "the win (%d comparisons, Bonferroni).",
                 tests);
        return;
    }
    /* levers first ("act": a designer can change them), then what describes how games go
     * ("note": never to act on, issue 46) */
    const cJSON *row;
    int shown = 0;
    for (int pass = 0; pass < 2; pass++)
        cJSON_ArrayForEach (row, top) {
            const bool lever = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "lever"));
            if (lever != (pass == 0) || shown == 3)
                continue;
            shown++;
            add_item(list, "effects", lever ? "act" : "note",
                     "%s goes with %+.1f points of the share of the win [%+.1f, %+.1f] "
                     "(Bonferroni over %d comparisons; an association, not proof of a cause): %s.",
                     cJSON_GetObjectItemCaseSensitive(row, "label")->valuestring,
                     100 * number_at(row, "diff"), 100 * number_at(row, "low"),
                     100 * number_at(row, "high"), tests,
                     lever ? "a lever a designer can change"
                           : "it describes how games go or end, not a lever to act on");
        }
}

cJSON *an_verdict_json(const cJSON *figs, int turn_cap)
{
    cJSON *list = cJSON_CreateArray();
    const double games = number_at(figs, "games"), players = number_at(figs, "players");
    if (players == 1) {
        const cJSON *scores = cJSON_GetObjectItemCaseSensitive(figs, "scores");
        const cJSON *points =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(scores, 0), "points");
        if (points)
            add_item(list, "solo", "note",
                     "One player: no rival seat to balance. Points at the end: %.1f [%.1f, "
                     "%.1f] on average.",
                     number_at(points, "value"), number_at(points, "low"),
                     number_at(points, "high"));
        else
            add_item(list, "solo", "note", "One player: no rival seat to balance.");
    } else {
        const int tests = verdict_questions(figs);
        first_mover_item(list, figs, tests);
        seat_item(list, figs, tests);
    }
    length_items(list, figs, turn_cap);
    effect_items(list, figs);
    if (games < 30)
        add_item(list, "sample", "note",
                 "Only %g games: every interval is wide; --games 2000 narrows a share's to "
                 "about 2 points either way.",
                 games);
    return list;
}

/* One significant variant row: "act" when the difference is at least the size that matters
 * to a designer (its "min_effect", documented in "matters"), else "note". */
static void variant_item(cJSON *verdict, const char *vs, const cJSON *row, int tests)
{
    const bool share = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "share"));
    const bool relevant = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "relevant"));
    const cJSON *matters = cJSON_GetObjectItemCaseSensitive(row, "matters");
    char p_text[32], diff[160], size[160];
    an_format_p(number_at(row, "p_holm"), p_text, sizeof p_text);
    an_format_difference(number_at(row, "value"), number_at(row, "low"), number_at(row, "high"),
                         share ? 100 : 1, share ? " points" : "", diff, sizeof diff);
    const double min_effect = number_at(row, "min_effect");
    snprintf(size, sizeof size, "%s the %.*g that matters (%s)",
             relevant ? "at least" : "smaller than", 3, (share ? 100 : 1) * min_effect,
             cJSON_IsString(matters) ? matters->valuestring : "no size set");
    cJSON *o = add_item(verdict, "variant", relevant ? "act" : "note",
                        "Under %s, %s: %s against the base rules (Holm-adjusted p %s over %d "
                        "comparisons), %s.",
                        vs, cJSON_GetObjectItemCaseSensitive(row, "label")->valuestring, diff,
                        p_text, tests, size);
    cJSON_AddStringToObject(o, "figure", cJSON_GetObjectItemCaseSensitive(row, "id")->valuestring);
}

void an_verdict_variants(cJSON *verdict, const cJSON *variants, int tests)
{
    const cJSON *variant;
    cJSON_ArrayForEach (variant, variants) {
        const char *vs = cJSON_GetObjectItemCaseSensitive(variant, "vs")->valuestring;
        const cJSON *row;
        int shown = 0;
        /* the relevant differences first, then the significant ones too small to matter */
        for (int pass = 0; pass < 2; pass++)
            cJSON_ArrayForEach (row, cJSON_GetObjectItemCaseSensitive(variant, "difference")) {
                const bool relevant =
                    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "relevant"));
                /* a repeat of another row (turns and duration) is said once, by that row */
                if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "significant")) ||
                    cJSON_GetObjectItemCaseSensitive(row, "same_as") || relevant != (pass == 0) ||
                    shown == 3)
                    continue;
                variant_item(verdict, vs, row, tests);
                shown++;
            }
        if (shown == 0)
            add_item(verdict, "variant", "ok",
                     "Under %s, no figure differs significantly from the base rules (Holm over %d "
                     "comparisons).",
                     vs, tests);
    }
}
