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
    const double need = an_games_to_detect(fair_decided, fmin(0.99, fair_decided + 0.05));
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
    if (strcmp(level, "ok") != 0 || !isfinite(need))
        return;
    /* as for independent games (Fleiss 2.5); where the deal decides much, pairs need more */
    cJSON_AddNumberToObject(o, "games_to_detect_5_points", need);
    char more[160];
    snprintf(more, sizeof more,
             " About %.0f games would detect a 5-point edge (two-sided 5%% test, 80%% power).",
             need);
    cJSON *text = cJSON_GetObjectItemCaseSensitive(o, "text");
    char joined[700];
    snprintf(joined, sizeof joined, "%s%s", text->valuestring, more);
    cJSON_SetValuestring(text, joined);
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
    const cJSON *row;
    int shown = 0;
    cJSON_ArrayForEach (row, top) {
        if (shown++ == 3)
            break;
        add_item(list, "effects", "act",
                 "%s goes with %+.1f points of the share of the win [%+.1f, %+.1f] (Bonferroni "
                 "over %d comparisons; an association, not proof of a cause).",
                 cJSON_GetObjectItemCaseSensitive(row, "label")->valuestring,
                 100 * number_at(row, "diff"), 100 * number_at(row, "low"),
                 100 * number_at(row, "high"), tests);
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

void an_verdict_variants(cJSON *verdict, const cJSON *variants, int tests)
{
    const cJSON *variant;
    cJSON_ArrayForEach (variant, variants) {
        const char *vs = cJSON_GetObjectItemCaseSensitive(variant, "vs")->valuestring;
        const cJSON *row;
        int shown = 0;
        cJSON_ArrayForEach (row, cJSON_GetObjectItemCaseSensitive(variant, "difference")) {
            if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "significant")) || shown++ == 3)
                continue;
            const bool share = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "share"));
            const double scale = share ? 100 : 1;
            char p_text[32];
            an_format_p(number_at(row, "p_holm"), p_text, sizeof p_text);
            add_item(verdict, "variant", "act",
                     "Under %s, %s: %+.*f%s [%+.*f, %+.*f] against the base rules (Holm-adjusted "
                     "p %s over %d comparisons).",
                     vs, cJSON_GetObjectItemCaseSensitive(row, "label")->valuestring, share ? 1 : 2,
                     scale * number_at(row, "value"), share ? " points" : "", share ? 1 : 2,
                     scale * number_at(row, "low"), share ? 1 : 2, scale * number_at(row, "high"),
                     p_text, tests);
        }
        if (shown == 0)
            add_item(verdict, "variant", "ok",
                     "Under %s, no figure differs significantly from the base rules (Holm over %d "
                     "comparisons).",
                     vs, tests);
    }
}
