/* analyze_report.c — the figures of `ramparts analyze` as JSON: seat results, length and
 * decisions, Ludii's metrics with their definitions, card and action impact with intervals
 * corrected for many comparisons, the skill ladder, "decided by one move", and paired
 * differences between a rule variant and the base rules. Every figure carries its interval
 * and the number of games behind it. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"

/* ---- per-game helpers ---- */

/* The sole winner of a game, or -1 (a draw, a shared win, or stopped at the cap). */
static int sole_winner(const an_game *g)
{
    if (g->unfinished)
        return -1;
    for (int p = 0; p < g->players; p++)
        if (g->returns[p] > 0.999)
            return p;
    return -1;
}

static void add_number(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *interval_json(an_interval r)
{
    cJSON *o = cJSON_CreateObject();
    add_number(o, "value", r.value);
    add_number(o, "low", r.low);
    add_number(o, "high", r.high);
    cJSON_AddNumberToObject(o, "n", (double)r.n);
    return o;
}

/* ---- figures over a sample of games (idx) ---- */

static double fig_wins(const an_set *s, const long *idx, long n, const void *ctx)
{
    const int seat = *(const int *)ctx;
    long wins = 0;
    for (long i = 0; i < n; i++)
        wins += sole_winner(&s->games[idx[i]]) == seat;
    return n ? (double)wins / (double)n : NAN;
}

static double fig_draws(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    long draws = 0;
    for (long i = 0; i < n; i++)
        draws += !s->games[idx[i]].unfinished && sole_winner(&s->games[idx[i]]) < 0;
    return n ? (double)draws / (double)n : NAN;
}

static double fig_unfinished(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    long stopped = 0;
    for (long i = 0; i < n; i++)
        stopped += s->games[idx[i]].unfinished;
    return n ? (double)stopped / (double)n : NAN;
}

static double fig_completion(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    long decided = 0;
    for (long i = 0; i < n; i++)
        decided += sole_winner(&s->games[idx[i]]) >= 0;
    return n ? (double)decided / (double)n : NAN;
}

/* Ludii's Balance: 1 minus the largest difference between two seats' win rates, over the
 * games that ended by the rules (a game stopped at the cap has no result to balance: with
 * most games stopped, seats that both "win" rarely would look balanced). */
static double fig_balance(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    long wins[RP_MAX_PLAYERS] = {0}, ended = 0;
    int players = 0;
    for (long i = 0; i < n; i++) {
        const an_game *g = &s->games[idx[i]];
        players = g->players > players ? g->players : players;
        ended += !g->unfinished;
        const int w = sole_winner(g);
        if (w >= 0)
            wins[w]++;
    }
    if (ended == 0)
        return NAN;
    double worst = 0;
    for (int a = 0; a < players; a++)
        for (int b = a + 1; b < players; b++)
            worst = fmax(worst, fabs((double)(wins[a] - wins[b])) / (double)ended);
    return 1 - worst;
}

/* The mean of a per-game number (an int, long or double member at an offset), finite values
 * only. */
typedef enum member_type { MEMBER_INT, MEMBER_LONG, MEMBER_DOUBLE } member_type;
typedef struct member {
    size_t offset;
    member_type type;
} member;

static double member_value(const an_game *g, const member *m)
{
    const char *base = (const char *)g + m->offset;
    int i;
    long l;
    double d;
    switch (m->type) {
    case MEMBER_INT:
        memcpy(&i, base, sizeof i);
        return i;
    case MEMBER_LONG:
        memcpy(&l, base, sizeof l);
        return (double)l;
    default:
        memcpy(&d, base, sizeof d);
        return d;
    }
}

static double fig_mean(const an_set *s, const long *idx, long n, const void *ctx)
{
    double sum = 0;
    long count = 0;
    for (long i = 0; i < n; i++) {
        const double v = member_value(&s->games[idx[i]], ctx);
        if (isfinite(v)) {
            sum += v;
            count++;
        }
    }
    return count ? sum / (double)count : NAN;
}

/* The standard deviation of the turns of the sample (n - 1 in the denominator). */
static double fig_turns_sd(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    if (n < 2)
        return NAN;
    double sum = 0, sq = 0;
    for (long i = 0; i < n; i++)
        sum += s->games[idx[i]].turns;
    const double mean = sum / (double)n;
    for (long i = 0; i < n; i++)
        sq += (s->games[idx[i]].turns - mean) * (s->games[idx[i]].turns - mean);
    return sqrt(sq / (double)(n - 1));
}

/* The winner's points minus the best other seat's, over games with a sole winner and points;
 * alone, the player's own points. */
static double fig_score_margin(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    double sum = 0;
    long count = 0;
    for (long i = 0; i < n; i++) {
        const an_game *g = &s->games[idx[i]];
        if (!g->scored || g->unfinished)
            continue;
        if (g->players == 1) {
            sum += g->scores[0], count++;
            continue;
        }
        const int w = sole_winner(g);
        if (w < 0)
            continue;
        double best = -INFINITY;
        for (int p = 0; p < g->players; p++)
            if (p != w)
                best = fmax(best, g->scores[p]);
        sum += g->scores[w] - best, count++;
    }
    return count ? sum / (double)count : NAN;
}

/* A seat's mean points at the end of the games that ended. */
static double fig_points(const an_set *s, const long *idx, long n, const void *ctx)
{
    const int seat = *(const int *)ctx;
    double sum = 0;
    long count = 0;
    for (long i = 0; i < n; i++) {
        const an_game *g = &s->games[idx[i]];
        if (g->scored && !g->unfinished && seat < g->players)
            sum += g->scores[seat], count++;
    }
    return count ? sum / (double)count : NAN;
}

/* Legal actions per state acted in, over all states of the sample. */
static double fig_branching(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    double legal = 0, states = 0;
    for (long i = 0; i < n; i++) {
        legal += s->games[idx[i]].legal_sum;
        states += (double)s->games[idx[i]].actions;
    }
    return states > 0 ? legal / states : NAN;
}

static double fig_forced(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    double forced = 0, states = 0;
    for (long i = 0; i < n; i++) {
        forced += (double)s->games[idx[i]].forced;
        states += (double)s->games[idx[i]].actions;
    }
    return states > 0 ? forced / states : NAN;
}

static const member m_turns = {offsetof(an_game, turns), MEMBER_INT};
static const member m_actions = {offsetof(an_game, actions), MEMBER_LONG};
static const member m_decisions = {offsetof(an_game, decisions), MEMBER_LONG};
static const member m_lead = {offsetof(an_game, lead_change), MEMBER_DOUBLE};
static const member m_stability = {offsetof(an_game, stability), MEMBER_DOUBLE};
static const member m_drama = {offsetof(an_game, drama), MEMBER_DOUBLE};
static const member m_decisive = {offsetof(an_game, decisiveness), MEMBER_DOUBLE};
static const member m_worst_drop = {offsetof(an_game, worst_drop), MEMBER_DOUBLE};
static const member m_clarity_var = {offsetof(an_game, clarity_variance), MEMBER_DOUBLE};
static const member m_clarity_narrow = {offsetof(an_game, clarity_narrowness), MEMBER_DOUBLE};
static const member m_decision_factor = {offsetof(an_game, decision_factor), MEMBER_DOUBLE};
static const member m_comeback = {offsetof(an_game, comeback), MEMBER_DOUBLE};
static const member m_kingmaking = {offsetof(an_game, kingmaking), MEMBER_DOUBLE};
/* a per-game figure of each third of the game (opening, middle, end) */
static const member m_phase_branching[3] = {{offsetof(an_game, phase_branching[0]), MEMBER_DOUBLE},
                                            {offsetof(an_game, phase_branching[1]), MEMBER_DOUBLE},
                                            {offsetof(an_game, phase_branching[2]), MEMBER_DOUBLE}};
static const member m_phase_decision[3] = {{offsetof(an_game, phase_decision[0]), MEMBER_DOUBLE},
                                           {offsetof(an_game, phase_decision[1]), MEMBER_DOUBLE},
                                           {offsetof(an_game, phase_decision[2]), MEMBER_DOUBLE}};
static const member m_phase_lead[3] = {{offsetof(an_game, phase_lead_change[0]), MEMBER_DOUBLE},
                                       {offsetof(an_game, phase_lead_change[1]), MEMBER_DOUBLE},
                                       {offsetof(an_game, phase_lead_change[2]), MEMBER_DOUBLE}};

/* Ludii's OutcomeUniformity: 1 minus the variance of each seat's result over the games
 * (population variance, as Ludii's Stats.varn), averaged over the seats. A seat's result is its
 * share of the win (Ludii's agent utilities run from -1 to 1). */
static double fig_outcome_uniformity(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    int players = 0;
    for (long i = 0; i < n; i++)
        players = s->games[idx[i]].players > players ? s->games[idx[i]].players : players;
    if (n == 0 || players == 0)
        return NAN;
    double variance_sum = 0;
    for (int p = 0; p < players; p++) {
        double mean = 0, var = 0;
        for (long i = 0; i < n; i++)
            mean += s->games[idx[i]].returns[p] / (double)n;
        for (long i = 0; i < n; i++)
            var += pow(s->games[idx[i]].returns[p] - mean, 2) / (double)n;
        variance_sum += var;
    }
    return 1 - variance_sum / players;
}

/* ---- the table of figures: reported for a set and compared between variants ---- */

typedef struct figure_def {
    const char *id, *label;
    an_figure fn;
    const void *ctx;
    bool share; /* a share of games: Wilson interval; otherwise bootstrap */
    const char *ludii_name, *definition, *source;
} figure_def;

static const int seat_ids[RP_MAX_PLAYERS] = {0, 1, 2, 3, 4, 5};

#define LUDII_DIR "Ludii (Ludeme/Ludii), Evaluation/src/metrics/"

static const figure_def ludii_figures[] = {
    {"balance", "Balance", fig_balance, NULL, false, "Balance",
     "Similarity between player win rates: 1 minus the largest difference between two seats' "
     "win rates (here over the games that ended by the rules: games stopped at the turn cap "
     "are left out).",
     LUDII_DIR "single/outcome/Balance.java"},
    {"advantage_p1", "Advantage of seat 0 (Ludii's player 1)", fig_wins, &seat_ids[0], true,
     "AdvantageP1",
     "Percentage of games where player 1 (seat 0) won. Ludii's player 1 is a seat, not "
     "necessarily the player who moves first: see the first mover.",
     LUDII_DIR "single/outcome/AdvantageP1.java"},
    {"drawishness", "Drawishness", fig_draws, NULL, true, "Drawishness",
     "Percentage of games which end in a draw (not including timeouts: games stopped at the "
     "turn cap are not draws).",
     LUDII_DIR "single/outcome/Drawishness.java"},
    {"completion", "Completion", fig_completion, NULL, true, "Completion",
     "Percentage of games which have a winner (not draw or timeout).",
     LUDII_DIR "single/outcome/Completion.java"},
    {"duration", "Duration (turns)", fig_mean, &m_turns, false, "DurationTurns",
     "Number of turns in a game (mean).", LUDII_DIR "single/duration/DurationTurns.java"},
    {"duration_sd", "Length spread (turns)", fig_turns_sd, NULL, false, "DurationTurnsStdDev",
     "Number of turns in a game (standard deviation).",
     LUDII_DIR "single/duration/DurationTurnsStdDev.java"},
    {"decisiveness", "Decisiveness", fig_mean, &m_decisive, false, "DecisivenessMoves",
     "Percentage number of moves after a winning player has a state evaluation above the "
     "decisiveness threshold (the highest evaluation any non-winner reached in that game); "
     "here the share of the game's moves played before that happened. Games with a sole "
     "winner.",
     LUDII_DIR "single/stateEvaluation/decisiveness/DecisivenessMoves.java"},
    {"lead_change", "Lead changes", fig_mean, &m_lead, false, "LeadChange",
     "Average number of times the expected winner changes: the set of seats with the highest "
     "state evaluation changes, per move (Ludii also counts the first position as a change; "
     "here only real changes count).",
     LUDII_DIR "single/stateEvaluation/LeadChange.java"},
    {"stability", "Stability", fig_mean, &m_stability, false, "Stability",
     "Average variance in each player's state evaluation over a game, summed over players "
     "(lower is steadier).",
     LUDII_DIR "single/stateEvaluation/Stability.java"},
    {"drama", "Drama", fig_mean, &m_drama, false, "Drama (average)",
     "Number of moves/severity where the eventual winner was behind: the mean over a game's "
     "positions of the leader's evaluation minus the eventual winner's. Games with a sole "
     "winner.",
     LUDII_DIR "multiple/metrics/Drama.java"},
    {"clarity_variance", "Clarity (variance)", fig_mean, &m_clarity_var, false, "ClarityVariance",
     "How clearly the best move stands out: the variance of the values of the legal moves (each "
     "move's value is the mover's normalised evaluation of the state it leads to), averaged "
     "over a game's decisions, then over games. Higher: the moves differ more. (Ludii averages "
     "over every move, forced ones too, and values moves by a short search.)",
     LUDII_DIR "single/stateEvaluation/clarity/ClarityVariance.java"},
    {"clarity_narrowness", "Clarity (narrowness)", fig_mean, &m_clarity_narrow, false,
     "ClarityNarrowness",
     "The share of legal moves valued above mean + 0.75 (best - mean) at a decision, averaged "
     "over decisions and games: low when one move stands out, high when many are about as good.",
     LUDII_DIR "single/stateEvaluation/clarity/ClarityNarrowness.java"},
    {"decision_factor", "Decision factor", fig_mean, &m_decision_factor, false, "DecisionFactor",
     "The number of legal moves when there are two or more (the branching of real decisions), "
     "averaged over a game's decisions, then over games.",
     LUDII_DIR "multiple/metrics/DecisionFactor.java"},
    {"branching_opening", "Branching, opening third", fig_mean, &m_phase_branching[0], false,
     "BranchingFactor (by third)",
     "Legal moves per move in the first third of each game's moves, averaged over games: with "
     "the middle and end thirds, the branching over the course of a game (Ludii reports its "
     "average, maximum and change).",
     LUDII_DIR "multiple/metrics/BranchingFactor.java"},
    {"branching_middle", "Branching, middle third", fig_mean, &m_phase_branching[1], false,
     "BranchingFactor (by third)", "Legal moves per move in the middle third of each game.",
     LUDII_DIR "multiple/metrics/BranchingFactor.java"},
    {"branching_end", "Branching, end third", fig_mean, &m_phase_branching[2], false,
     "BranchingFactor (by third)", "Legal moves per move in the last third of each game.",
     LUDII_DIR "multiple/metrics/BranchingFactor.java"},
    {"decision_opening", "Decision factor, opening third", fig_mean, &m_phase_decision[0], false,
     "DecisionFactor (by third)",
     "Legal moves per decision (two or more moves) in the first third of each game's moves.",
     LUDII_DIR "multiple/metrics/DecisionFactor.java"},
    {"decision_middle", "Decision factor, middle third", fig_mean, &m_phase_decision[1], false,
     "DecisionFactor (by third)", "Legal moves per decision in the middle third of each game.",
     LUDII_DIR "multiple/metrics/DecisionFactor.java"},
    {"decision_end", "Decision factor, end third", fig_mean, &m_phase_decision[2], false,
     "DecisionFactor (by third)", "Legal moves per decision in the last third of each game.",
     LUDII_DIR "multiple/metrics/DecisionFactor.java"},
    {"lead_change_opening", "Lead changes, opening third", fig_mean, &m_phase_lead[0], false,
     "LeadChange (by third)",
     "LeadChange counted in the first third of each game's moves, per move of that third.",
     LUDII_DIR "single/stateEvaluation/LeadChange.java"},
    {"lead_change_middle", "Lead changes, middle third", fig_mean, &m_phase_lead[1], false,
     "LeadChange (by third)", "LeadChange in the middle third, per move of that third.",
     LUDII_DIR "single/stateEvaluation/LeadChange.java"},
    {"lead_change_end", "Lead changes, end third", fig_mean, &m_phase_lead[2], false,
     "LeadChange (by third)", "LeadChange in the last third, per move of that third.",
     LUDII_DIR "single/stateEvaluation/LeadChange.java"},
    {"comeback", "Comeback rate", fig_mean, &m_comeback, false, "(defined here)",
     "The share of games with a sole winner in which the winner was not among the leaders "
     "(the highest state evaluation) half-way through the game's moves. Ludii has no such "
     "metric; it complements Drama (how far behind the winner was) with how often.",
     "defined here, from the state evaluations Ludii's LeadChange and Drama use"},
    {"kingmaking", "Kingmaking", fig_mean, &m_kingmaking, false, "(defined here)",
     "Three or more players: the share of games with a sole winner in which a seat that did "
     "not win, while its evaluation was the lowest of all (out of contention), chose a move "
     "after which the eventual winner led alone where it had not before. Ludii has no such "
     "metric.",
     "defined here, from the state evaluations Ludii's LeadChange uses"},
    {"outcome_uniformity", "Outcome uniformity", fig_outcome_uniformity, NULL, false,
     "OutcomeUniformity",
     "1 minus the variance of each seat's result over the games, averaged over the seats (a "
     "seat's result here is its share of the win, 0 to 1; Ludii's utilities run from -1 to 1, "
     "so its variances are four times these).",
     LUDII_DIR "single/outcome/OutcomeUniformity.java"},
};
#define NUM_LUDII ((int)(sizeof ludii_figures / sizeof ludii_figures[0]))

static const figure_def length_figures[] = {
    {"turns", "Turns per game", fig_mean, &m_turns, false, NULL, NULL, NULL},
    {"actions", "Actions per game", fig_mean, &m_actions, false, NULL, NULL, NULL},
    {"decisions", "Decisions per game (two or more legal actions)", fig_mean, &m_decisions, false,
     NULL, NULL, NULL},
    {"branching", "Branching factor (legal actions per state)", fig_branching, NULL, false, NULL,
     NULL, NULL},
    {"forced_share", "Share of forced (single-option) decisions", fig_forced, NULL, false, NULL,
     NULL, NULL},
    {"unfinished", "Games stopped at the turn cap", fig_unfinished, NULL, true, NULL, NULL, NULL},
    {"score_margin",
     "Winning margin in points (the winner's minus the best other's; alone, "
     "the points)",
     fig_score_margin, NULL, false, NULL, NULL, NULL},
    {"draws", "Draws (and shared wins)", fig_draws, NULL, true, NULL, NULL, NULL},
};
#define NUM_LENGTH ((int)(sizeof length_figures / sizeof length_figures[0]))

static an_interval share_interval(const an_set *set, an_figure fn, const void *ctx,
                                  const char **method);

static an_interval figure_interval(const an_set *set, const figure_def *f, const char **method)
{
    if (f->share)
        return share_interval(set, f->fn, f->ctx, method);
    *method = "bootstrap over deals";
    return an_bootstrap(set, f->fn, f->ctx);
}

static int set_players(const an_set *set)
{
    int players = 0;
    for (long i = 0; i < set->count; i++)
        players = set->games[i].players > players ? set->games[i].players : players;
    return players;
}

/* ---- seats and the first mover: the deal is the unit of a paired design ---- */

static double fig_first_mover_wins(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    long wins = 0;
    for (long i = 0; i < n; i++) {
        const an_game *g = &s->games[idx[i]];
        wins += g->first_mover >= 0 && sole_winner(g) == g->first_mover;
    }
    return n ? (double)wins / (double)n : NAN;
}

/* A share of games with its 95% interval: Wilson's when the games are independent; when the
 * deals are paired, the two games of a deal share their cards (the same seat often wins
 * both), so the unit is the deal: Student's t interval over the deals' shares. */
static an_interval share_interval(const an_set *set, an_figure fn, const void *ctx,
                                  const char **method)
{
    if (!set->paired || set->count < 2) {
        *method = "wilson";
        long *all = malloc(sizeof *all * (size_t)(set->count + 1));
        if (!all)
            return (an_interval){NAN, NAN, NAN, set->count};
        for (long i = 0; i < set->count; i++)
            all[i] = i;
        const double share = set->count ? fn(set, all, set->count, ctx) : NAN;
        free(all);
        return an_wilson(share * (double)set->count, set->count);
    }
    *method = "t over deals";
    const long deals = (set->count + 1) / 2;
    double *per_deal = malloc(sizeof *per_deal * (size_t)deals);
    if (!per_deal)
        return (an_interval){NAN, NAN, NAN, set->count};
    for (long d = 0; d < deals; d++) {
        const long idx[2] = {2 * d, 2 * d + 1};
        per_deal[d] = fn(set, idx, 2 * d + 1 < set->count ? 2 : 1, ctx);
    }
    an_interval r = an_mean_t(per_deal, deals);
    free(per_deal);
    r.low = fmax(0, r.low);
    r.high = fmin(1, r.high);
    r.n = set->count;
    return r;
}

static cJSON *share_json(const an_set *set, an_figure fn, const void *ctx)
{
    const char *method;
    cJSON *o = interval_json(share_interval(set, fn, ctx, &method));
    cJSON_AddStringToObject(o, "interval", method);
    if (set->paired)
        cJSON_AddNumberToObject(o, "deals", ceil((double)set->count / 2));
    return o;
}

/* The deals of a two-player paired set whose two games were both won by the seat `who` names
 * in each game (the first mover, or a fixed seat): McNemar's b, and c for the other seat. */
typedef int (*seat_of_game)(const an_game *g, int param);
static int fixed_seat(const an_game *g, int seat)
{
    (void)g;
    return seat;
}
static int mover_seat(const an_game *g, int param)
{
    (void)param;
    return g->first_mover;
}

static void concordant_pairs(const an_set *set, seat_of_game who, int param, long *b, long *c)
{
    *b = *c = 0;
    for (long d = 0; 2 * d + 1 < set->count; d++) {
        const an_game *x = &set->games[2 * d], *y = &set->games[2 * d + 1];
        const int sx = who(x, param), sy = who(y, param), wx = sole_winner(x), wy = sole_winner(y);
        if (sx < 0 || sy < 0 || wx < 0 || wy < 0)
            continue;
        if (wx == sx && wy == sy)
            (*b)++;
        else if (wx != sx && wy != sy)
            (*c)++;
    }
}

/* The test of "no advantage": McNemar's exact test over the deals in a paired two-player set
 * (the seats' AIs swap, so a deal won twice by the same side tells about the side); else the
 * exact binomial test of the side's wins among the games with a sole winner against a fair
 * share of one in the number of players. */
static void advantage_test(cJSON *o, const an_set *set, seat_of_game who, int param)
{
    const int players = set_players(set);
    if (set->paired && players == 2) {
        long b, c;
        concordant_pairs(set, who, param, &b, &c);
        cJSON_AddStringToObject(o, "test", "McNemar exact over deals");
        cJSON_AddNumberToObject(o, "deals_won_twice", (double)b);
        cJSON_AddNumberToObject(o, "deals_lost_twice", (double)c);
        add_number(o, "p", an_mcnemar_exact(b, c));
        return;
    }
    long wins = 0, decided = 0;
    for (long i = 0; i < set->count; i++) {
        const an_game *g = &set->games[i];
        const int w = sole_winner(g), side = who(g, param);
        if (w < 0 || side < 0)
            continue;
        decided++;
        wins += w == side;
    }
    cJSON_AddStringToObject(o, "test", "exact binomial against the fair share");
    cJSON_AddNumberToObject(o, "side_wins", (double)wins); /* "wins" is the share's interval */
    cJSON_AddNumberToObject(o, "decided", (double)decided);
    add_number(o, "p", players > 0 ? an_binomial_test(wins, decided, 1.0 / players) : NAN);
}

static cJSON *seats_json(const rp_game *game, const an_set *set)
{
    cJSON *seats = cJSON_CreateArray();
    for (int p = 0; p < set_players(set); p++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "seat", p);
        cJSON_AddStringToObject(row, "name", rp_seat_name(game, p));
        cJSON_AddItemToObject(row, "wins", share_json(set, fig_wins, &seat_ids[p]));
        advantage_test(row, set, fixed_seat, p);
        cJSON_AddItemToArray(seats, row);
    }
    return seats;
}

/* Who moved first as the rules define it (the deal decides in some games), and how often
 * that seat won. */
static cJSON *first_mover_json(const rp_game *game, const an_set *set)
{
    cJSON *o = cJSON_CreateObject();
    const int players = set_players(set);
    cJSON_AddBoolToObject(o, "defined", !game->simultaneous);
    add_number(o, "fair_share", players > 0 ? 1.0 / players : NAN);
    if (game->simultaneous) {
        cJSON_AddStringToObject(o, "why", "the rules have every seat decide at once");
        return o;
    }
    cJSON *by_seat = cJSON_AddArrayToObject(o, "seat_counts");
    for (int p = 0; p < players; p++) {
        long n = 0;
        for (long i = 0; i < set->count; i++)
            n += set->games[i].first_mover == p;
        cJSON_AddItemToArray(by_seat, cJSON_CreateNumber((double)n));
    }
    cJSON_AddItemToObject(o, "wins", share_json(set, fig_first_mover_wins, NULL));
    advantage_test(o, set, mover_seat, 0);
    return o;
}

/* Wins of the seat `position` places after the first mover, in seat order. */
static double fig_position_wins(const an_set *s, const long *idx, long n, const void *ctx)
{
    const int position = *(const int *)ctx;
    long wins = 0;
    for (long i = 0; i < n; i++) {
        const an_game *g = &s->games[idx[i]];
        const int w = sole_winner(g);
        wins += g->first_mover >= 0 && w >= 0 &&
                (w - g->first_mover + g->players) % g->players == position;
    }
    return n ? (double)wins / (double)n : NAN;
}

/* Seat order: each place in the order of play (the first mover, the next seat, ...) and how
 * often it won, which at three to five players says whether sitting after the first mover
 * helps, whoever holds the seat. */
static cJSON *seat_order_json(const rp_game *game, const an_set *set)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(
        o, "definition",
        "Wins by place in the order of play: place 1 is the first mover, place 2 the seat after "
        "it in seat order, and so on (Ludii's AdvantageP1 asks this of seat 0 alone). Shares of "
        "all games; fair: one in the number of players of the decided games.");
    cJSON_AddStringToObject(o, "source", LUDII_DIR "single/outcome/AdvantageP1.java, by place");
    cJSON *places = cJSON_AddArrayToObject(o, "places");
    if (game->simultaneous)
        return o;
    for (int k = 0; k < set_players(set); k++) {
        cJSON *row = share_json(set, fig_position_wins, &seat_ids[k]);
        cJSON_AddNumberToObject(row, "place", k + 1);
        cJSON_AddItemToArray(places, row);
    }
    return o;
}

cJSON *an_first_mover_json(const rp_game *game, const an_set *set)
{
    return first_mover_json(game, set);
}

static cJSON *per_game_json(const an_set *set)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *turns = cJSON_AddArrayToObject(o, "turns");
    cJSON *actions = cJSON_AddArrayToObject(o, "actions");
    cJSON *winner = cJSON_AddArrayToObject(o, "winner");
    cJSON *stopped = cJSON_AddArrayToObject(o, "unfinished");
    cJSON *first = cJSON_AddArrayToObject(o, "first_mover");
    for (long i = 0; i < set->count; i++) {
        const an_game *g = &set->games[i];
        cJSON_AddItemToArray(first, cJSON_CreateNumber(g->first_mover));
        cJSON_AddItemToArray(turns, cJSON_CreateNumber(g->turns));
        cJSON_AddItemToArray(actions, cJSON_CreateNumber((double)g->actions));
        cJSON_AddItemToArray(winner, cJSON_CreateNumber(sole_winner(g)));
        cJSON_AddItemToArray(stopped, cJSON_CreateBool(g->unfinished));
    }
    return o;
}

static cJSON *figure_list_json(const an_set *set, const figure_def *defs, int count)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < count; i++) {
        const figure_def *f = &defs[i];
        const char *method;
        cJSON *row = interval_json(figure_interval(set, f, &method));
        cJSON_AddStringToObject(row, "id", f->id);
        cJSON_AddStringToObject(row, "label", f->label);
        cJSON_AddStringToObject(row, "interval", method);
        cJSON_AddBoolToObject(row, "share", f->share || f->fn == fig_balance);
        if (f->definition) {
            cJSON_AddStringToObject(row, "ludii_name", f->ludii_name);
            cJSON_AddStringToObject(row, "definition", f->definition);
            cJSON_AddStringToObject(row, "source", f->source);
        }
        cJSON_AddItemToArray(list, row);
    }
    return list;
}

/* ---- card and action impact ---- */

typedef struct impact_row {
    char name[64];
    bool held;       /* held at the end, else played */
    bool before_end; /* some game saw it on an action other than its last */
    double with_sum, with_sq, without_sum, without_sq;
    long with_n, without_n;
    uint64_t pattern; /* a hash of which seats had it in every game: equal rows are one test */
    int same_as;      /* the row whose statistic this one repeats, or -1 */
    double diff, se, p, p_adjusted;
} impact_row;

typedef struct impact_table {
    impact_row *rows;
    int count, cap;
} impact_table;

static int compare_key(bool held_a, const char *name_a, bool held_b, const char *name_b)
{
    if (held_a != held_b)
        return held_a ? 1 : -1;
    return strcmp(name_a, name_b);
}

/* The place of (name, held) in the rows, kept sorted by when then name: its index when found,
 * else -(the index to insert at) - 1. */
static int impact_search(const impact_table *t, const char *name, bool held)
{
    int lo = 0, hi = t->count;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        const int c = compare_key(t->rows[mid].held, t->rows[mid].name, held, name);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -lo - 1;
}

static impact_row *impact_add(impact_table *t, const char *name, bool held)
{
    int at = impact_search(t, name, held);
    if (at >= 0)
        return &t->rows[at];
    at = -at - 1;
    if (t->count == t->cap) {
        const int cap = t->cap ? 2 * t->cap : 64;
        impact_row *grown = realloc(t->rows, sizeof *grown * (size_t)cap);
        if (!grown)
            return NULL;
        t->rows = grown;
        t->cap = cap;
    }
    memmove(&t->rows[at + 1], &t->rows[at], sizeof *t->rows * (size_t)(t->count - at));
    t->count++;
    impact_row *r = &t->rows[at];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->held = held;
    r->same_as = -1;
    return r;
}

/* Call fn for every feature line "PP HH E name" of a game. */
typedef void (*feature_fn)(void *ctx, const char *name, unsigned played, unsigned held,
                           bool before_end);
static void each_feature(const an_game *g, feature_fn fn, void *ctx)
{
    for (const char *line = g->features; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            return;
        unsigned played, held;
        int before_end = 1, used = 0;
        /* hex the program wrote itself (write_features), never outside input */
        if (sscanf(line, "%x %x %d %n", &played, &held, &before_end, /* NOLINT(cert-err34-c) */
                   &used) == 3 &&
            used > 0) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(end - line - used), line + used);
            fn(ctx, name, played, held, before_end != 0);
        }
        line = end + 1;
    }
}

static void collect_one(void *ctx, const char *name, unsigned played, unsigned held,
                        bool before_end)
{
    if (played) {
        impact_row *r = impact_add(ctx, name, false);
        if (r)
            r->before_end = r->before_end || before_end;
    }
    if (held) {
        impact_row *r = impact_add(ctx, name, true);
        if (r)
            r->before_end = true;
    }
}

typedef struct mask_pass {
    const impact_table *t;
    unsigned *masks; /* per row: the seats that played or held it in this game */
} mask_pass;

static void mask_one(void *ctx, const char *name, unsigned played, unsigned held, bool before_end)
{
    (void)before_end;
    mask_pass *m = ctx;
    const int a = impact_search(m->t, name, false), b = impact_search(m->t, name, true);
    if (a >= 0)
        m->masks[a] = played;
    if (b >= 0)
        m->masks[b] = held;
}

/* Each row's share of the win with and without it, over every seat of every game, and the
 * pattern of seats that had it (FNV-1a over the games' masks). */
static void impact_measure(impact_table *t, const an_set *set)
{
    unsigned *masks = calloc((size_t)t->count + 1, sizeof *masks);
    if (!masks)
        return;
    for (int k = 0; k < t->count; k++)
        t->rows[k].pattern = 0xcbf29ce484222325ull;
    mask_pass pass = {t, masks};
    for (long i = 0; i < set->count; i++) {
        const an_game *g = &set->games[i];
        memset(masks, 0, sizeof *masks * (size_t)t->count);
        each_feature(g, mask_one, &pass);
        for (int k = 0; k < t->count; k++) {
            impact_row *r = &t->rows[k];
            r->pattern = (r->pattern ^ masks[k]) * 0x100000001b3ull;
            for (int p = 0; p < g->players; p++) {
                const double x = g->returns[p];
                if (masks[k] & (1u << p))
                    r->with_sum += x, r->with_sq += x * x, r->with_n++;
                else
                    r->without_sum += x, r->without_sq += x * x, r->without_n++;
            }
        }
    }
    free(masks);
}

static double sample_variance(double sum, double sq, long n)
{
    if (n < 2)
        return 0;
    const double mean = sum / (double)n;
    const double v = (sq - (double)n * mean * mean) / (double)(n - 1);
    return v > 0 ? v : 0;
}

#define IMPACT_MIN 5        /* observations needed on each side for a test */
#define IMPACT_MIN_GAMES 30 /* games a set needs before anything is called significant */

/* A feature for people, one label per feature: "played card cannon-9", "held card cannon-9
 * at the end", "action pay", "event tax". */
static void feature_label(const impact_row *r, char *out, size_t size)
{
    const char *colon = strchr(r->name, ':');
    const char *name = colon ? colon + 1 : r->name;
    if (r->held)
        snprintf(out, size, "held %s at the end", name);
    else if (strncmp(r->name, "card:", 5) == 0)
        snprintf(out, size, "played %s", name);
    else if (strncmp(r->name, "kind:", 5) == 0)
        snprintf(out, size, "action %s", name);
    else
        snprintf(out, size, "%.*s %s", colon ? (int)(colon - r->name) : 0, r->name, name);
}

/* An event that no game saw before its last action is how games end (a three-Legion win),
 * not something a seat does on the way: it is left out of the tests. */
static bool outcome_event(const impact_row *r)
{
    return strncmp(r->name, "event:", 6) == 0 && !r->before_end;
}

static bool testable(const impact_row *r)
{
    return r->same_as < 0 && !outcome_event(r) && r->with_n >= IMPACT_MIN &&
           r->without_n >= IMPACT_MIN;
}

/* A lever is what a designer can change or a player choose: a card played (its value, its
 * count) or a kind of action (a choice of play). An event describes what happened (a wall
 * fell, a card flipped) and a card held at the end describes the ending: neither is a lever
 * (issue 46: "act: event wall-falls" named how Walls and Armies is lost). */
static bool is_lever(const impact_row *r)
{
    return !r->held && (strncmp(r->name, "card:", 5) == 0 || strncmp(r->name, "kind:", 5) == 0);
}

static bool same_seats(const impact_row *q, const impact_row *r)
{
    return q->pattern == r->pattern && q->with_n == r->with_n && q->without_n == r->without_n &&
           q->with_sum == r->with_sum;
}

/* Rows that had exactly the same seats in every game measure one statistic: one of them
 * stands for all (kind:flag and card:flag, an action and the event it always sets off), a
 * lever when the group has one, so the row is read as what a designer can change. */
static void mark_repeats(impact_table *t)
{
    for (int i = 0; i < t->count; i++) {
        impact_row *r = &t->rows[i];
        if (r->same_as >= 0 || outcome_event(r))
            continue;
        int stand = i; /* the group's first lever, else its first row */
        for (int j = i + 1; j < t->count && !is_lever(&t->rows[stand]); j++)
            if (t->rows[j].same_as < 0 && !outcome_event(&t->rows[j]) &&
                same_seats(r, &t->rows[j]) && is_lever(&t->rows[j]))
                stand = j;
        for (int j = i; j < t->count; j++)
            if (j != stand && t->rows[j].same_as < 0 && !outcome_event(&t->rows[j]) &&
                same_seats(r, &t->rows[j]))
                t->rows[j].same_as = stand;
    }
}

static cJSON *impact_row_json(const impact_table *t, int index, bool tested, bool may_signal,
                              double z)
{
    const impact_row *r = &t->rows[index];
    cJSON *o = cJSON_CreateObject();
    const char *colon = strchr(r->name, ':');
    char label[160];
    feature_label(r, label, sizeof label);
    cJSON_AddStringToObject(o, "feature", r->name);
    cJSON_AddStringToObject(o, "label", label);
    cJSON_AddStringToObject(o, "type",
                            colon ? (strncmp(r->name, "card", 4) == 0    ? "card"
                                     : strncmp(r->name, "event", 5) == 0 ? "event"
                                                                         : "kind")
                                  : "kind");
    cJSON_AddStringToObject(o, "name", colon ? colon + 1 : r->name);
    cJSON_AddStringToObject(o, "when", r->held ? "held at the end" : "played");
    cJSON_AddBoolToObject(o, "lever", is_lever(r));
    cJSON_AddStringToObject(o, "role",
                            is_lever(r) ? "lever: a card played or a kind of action, which a "
                                          "designer can change or a player choose"
                            : r->held   ? "outcome: what a seat held at the end describes the "
                                          "ending"
                                        : "outcome: an event describes what happened, not a "
                                          "choice");
    cJSON *same = cJSON_AddArrayToObject(o, "same_as");
    for (int j = 0; j < t->count; j++)
        if (t->rows[j].same_as == index) {
            cJSON *other = cJSON_CreateObject();
            feature_label(&t->rows[j], label, sizeof label);
            cJSON_AddStringToObject(other, "feature", t->rows[j].name);
            cJSON_AddStringToObject(other, "when", t->rows[j].held ? "held at the end" : "played");
            cJSON_AddStringToObject(other, "label", label);
            cJSON_AddItemToArray(same, other);
        }
    add_number(o, "rate_with", r->with_n ? r->with_sum / (double)r->with_n : NAN);
    cJSON_AddNumberToObject(o, "n_with", (double)r->with_n);
    add_number(o, "rate_without", r->without_n ? r->without_sum / (double)r->without_n : NAN);
    cJSON_AddNumberToObject(o, "n_without", (double)r->without_n);
    cJSON_AddBoolToObject(o, "tested", tested);
    if (tested) {
        add_number(o, "diff", r->diff);
        /* a difference of shares lies in [-1, 1]; the normal interval may not */
        add_number(o, "low", fmax(-1, r->diff - z * r->se));
        add_number(o, "high", fmin(1, r->diff + z * r->se));
        add_number(o, "p", r->p);
        add_number(o, "p_adjusted", r->p_adjusted);
        cJSON_AddBoolToObject(o, "significant", may_signal && r->p_adjusted < 0.05);
    }
    return o;
}

static int compare_effect(const void *a, const void *b)
{
    const impact_row *x = *(impact_row *const *)a, *y = *(impact_row *const *)b;
    const double dx = fabs(x->diff), dy = fabs(y->diff);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return strcmp(x->name, y->name);
}

static cJSON *impact_json(const an_set *set)
{
    impact_table t = {0};
    for (long i = 0; i < set->count; i++)
        each_feature(&set->games[i], collect_one, &t);
    impact_measure(&t, set);
    mark_repeats(&t);
    /* an array of pointers to rows: sizeof *tested is a pointer's size on purpose */
    impact_row **tested =
        malloc(sizeof *tested * (size_t)(t.count + 1)); /* NOLINT(bugprone-sizeof-expression) */
    int m = 0;
    for (int i = 0; i < t.count && tested; i++) {
        impact_row *r = &t.rows[i];
        if (!testable(r))
            continue;
        const double a = r->with_sum / (double)r->with_n;
        const double b = r->without_sum / (double)r->without_n;
        r->diff = a - b;
        r->se = sqrt(sample_variance(r->with_sum, r->with_sq, r->with_n) / (double)r->with_n +
                     sample_variance(r->without_sum, r->without_sq, r->without_n) /
                         (double)r->without_n);
        r->p = r->se > 0 ? an_normal_p(r->diff / r->se) : (r->diff == 0 ? 1 : 0);
        tested[m++] = r;
    }
    /* Bonferroni, both ways: each interval at level 1 - 0.05 / m and each p-value times m, so a
     * row is significant exactly when its interval leaves out 0, and all hold together at 95% */
    for (int k = 0; k < m; k++)
        tested[k]->p_adjusted = fmin(1, tested[k]->p * m);
    const double z = m > 0 ? an_normal_quantile(1 - 0.025 / m) : 1.959964;
    const bool may_signal = set->count >= IMPACT_MIN_GAMES;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "tests", m);
    cJSON_AddStringToObject(o, "unit", "a seat in a game: its share of the win");
    cJSON_AddStringToObject(o, "correction",
                            "Bonferroni: each interval at 1 - 0.05/tests (jointly 95%) and each "
                            "p-value times the tests; significant when p_adjusted < 0.05, that "
                            "is when the interval leaves out 0");
    cJSON_AddNumberToObject(o, "min_each_side", IMPACT_MIN);
    cJSON_AddNumberToObject(o, "min_games", IMPACT_MIN_GAMES);
    cJSON_AddBoolToObject(o, "significance_shown", may_signal);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    cJSON *outcome = cJSON_AddArrayToObject(o, "outcome_events");
    for (int i = 0; i < t.count; i++) {
        const impact_row *r = &t.rows[i];
        if (outcome_event(r)) {
            char label[160];
            feature_label(r, label, sizeof label);
            cJSON_AddItemToArray(outcome, cJSON_CreateString(label));
        } else if (r->same_as < 0) {
            cJSON_AddItemToArray(rows, impact_row_json(&t, i, testable(r), may_signal, z));
        }
    }
    /* the ones that matter most: significant, by the size of the difference */
    if (m > 1)
        qsort(tested, (size_t)m, sizeof *tested, /* NOLINT(bugprone-sizeof-expression) */
              compare_effect);
    cJSON *top = cJSON_AddArrayToObject(o, "top");
    for (int k = 0; k < m && cJSON_GetArraySize(top) < 10; k++)
        if (may_signal && tested[k]->p_adjusted < 0.05)
            cJSON_AddItemToArray(top,
                                 impact_row_json(&t, (int)(tested[k] - t.rows), true, true, z));
    free(tested);
    free(t.rows);
    return o;
}

/* ---- the report parts ---- */

/* Each seat's mean points at the end (games that keep points), with a bootstrap interval. */
static cJSON *scores_json(const rp_game *game, const an_set *set)
{
    cJSON *list = cJSON_CreateArray();
    for (int p = 0; p < set_players(set); p++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "seat", p);
        cJSON_AddStringToObject(row, "name", rp_seat_name(game, p));
        cJSON_AddItemToObject(row, "points",
                              interval_json(an_bootstrap(set, fig_points, &seat_ids[p])));
        cJSON_AddItemToArray(list, row);
    }
    return list;
}

cJSON *an_figures_json(const rp_game *game, const an_set *set)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "games", (double)set->count);
    cJSON_AddBoolToObject(o, "paired", set->paired);
    cJSON_AddNumberToObject(o, "players", set_players(set));
    cJSON_AddItemToObject(o, "seats", seats_json(game, set));
    cJSON_AddItemToObject(o, "first_mover", first_mover_json(game, set));
    cJSON_AddItemToObject(o, "seat_order", seat_order_json(game, set));
    if (game->score)
        cJSON_AddItemToObject(o, "scores", scores_json(game, set));
    cJSON_AddItemToObject(o, "length", figure_list_json(set, length_figures, NUM_LENGTH));
    cJSON_AddItemToObject(o, "ludii", figure_list_json(set, ludii_figures, NUM_LUDII));
    cJSON_AddBoolToObject(o, "state_evaluation", game->evaluate != NULL);
    cJSON_AddItemToObject(o, "impact", impact_json(set));
    cJSON_AddItemToObject(o, "per_game", per_game_json(set));
    return o;
}

/* ---- how large a difference matters to a designer (issue 46: "act" on any significant
 * difference printed "-0.00 [-0.00, -0.00]") ---- */

/* The smallest difference between a variant and the base rules worth a designer's action:
 * the larger of `absolute` and `relative` times the base value, with the reason. Matched by
 * id, or by the id's start when it ends in '_' (every seat). */
typedef struct relevance_def {
    const char *id;
    double absolute, relative;
    const char *matters;
} relevance_def;

static const relevance_def relevance[] = {
    {"wins_seat_", 0.03, 0, "3 points of a seat's share of the games: a player notices it"},
    {"first_mover_wins", 0.03, 0, "3 points of the first mover's share of the games"},
    {"advantage_p1", 0.03, 0, "3 points of seat 0's share of the games"},
    {"turns", 0, 0.05, "5% of the base rules' length"},
    {"duration", 0, 0.05, "5% of the base rules' length"},
    {"actions", 0, 0.05, "5% of the base rules' actions per game"},
    {"decisions", 0, 0.05, "5% of the base rules' decisions per game"},
    {"branching", 0, 0.05, "5% of the base rules' choices per move"},
    {"forced_share", 0.02, 0, "2 points of the moves forced"},
    {"unfinished", 0.02, 0, "2 points of the games left unfinished"},
    {"draws", 0.02, 0, "2 points of the games drawn"},
    {"drawishness", 0.02, 0, "2 points of the games drawn"},
    {"completion", 0.02, 0, "2 points of the games with a winner"},
    {"score_margin", 0, 0.10, "10% of the base rules' winning margin"},
    {"balance", 0.05, 0, "0.05 of balance: a 5-point gap between two seats' wins"},
    {"duration_sd", 0, 0.10, "10% of the base rules' spread of lengths"},
    {"decisiveness", 0.05, 0, "5 points of a game's moves before the winner is clear"},
    {"lead_change", 0, 0.10, "10% of the base rules' lead changes"},
    {"stability", 0, 0.10, "10% of the base rules' swings in evaluation"},
    {"drama", 0, 0.10, "10% of the base rules' drama"},
    {"clarity_", 0, 0.10, "10% of the base rules' clarity"},
    {"decision_", 0, 0.05, "5% of the base rules' choices per decision"},
    {"branching_", 0, 0.05, "5% of the base rules' choices per move"},
    {"lead_change_", 0, 0.10, "10% of the base rules' lead changes"},
    {"comeback", 0.03, 0, "3 points of the games won from behind"},
    {"kingmaking", 0.02, 0, "2 points of the games handed to the winner"},
    {"outcome_uniformity", 0.02, 0, "0.02 of outcome uniformity"},
};

static const relevance_def *relevance_of(const char *id)
{
    for (size_t i = 0; i < sizeof relevance / sizeof relevance[0]; i++) {
        const size_t len = strlen(relevance[i].id);
        const bool prefix = relevance[i].id[len - 1] == '_';
        if (prefix ? strncmp(id, relevance[i].id, len) == 0 : strcmp(id, relevance[i].id) == 0)
            return &relevance[i];
    }
    return NULL;
}

/* "base", "min_effect" and "matters" of a comparison row, from the base rules' value. */
static void add_relevance(cJSON *row, const char *id, double base_value)
{
    add_number(row, "base", base_value);
    const relevance_def *r = relevance_of(id);
    if (!r)
        return;
    add_number(row, "min_effect", fmax(r->absolute, r->relative * fabs(base_value)));
    cJSON_AddStringToObject(row, "matters", r->matters);
}

/* A figure over every game of a set. */
static double figure_of_all(const an_set *set, an_figure fn, const void *ctx)
{
    long *all = malloc(sizeof *all * (size_t)(set->count + 1));
    if (!all)
        return NAN;
    for (long i = 0; i < set->count; i++)
        all[i] = i;
    const double v = set->count ? fn(set, all, set->count, ctx) : NAN;
    free(all);
    return v;
}

static void compare_rows(cJSON *list, const an_set *base, const an_set *variant,
                         const figure_def *defs, int count)
{
    for (int i = 0; i < count; i++) {
        double p;
        const an_interval d = an_bootstrap_diff(base, variant, defs[i].fn, defs[i].ctx, &p);
        cJSON *row = interval_json(d);
        cJSON_AddStringToObject(row, "id", defs[i].id);
        cJSON_AddStringToObject(row, "label", defs[i].label);
        add_number(row, "p", p);
        cJSON_AddBoolToObject(row, "share", defs[i].share);
        add_relevance(row, defs[i].id, figure_of_all(base, defs[i].fn, defs[i].ctx));
        cJSON_AddBoolToObject(row, "significant",
                              isfinite(d.low) && isfinite(d.high) && (d.low > 0 || d.high < 0));
        cJSON_AddItemToArray(list, row);
    }
}

cJSON *an_compare_json(const rp_game *game, const an_set *base, const an_set *variant)
{
    (void)game;
    cJSON *list = cJSON_CreateArray();
    const int players =
        set_players(base) < set_players(variant) ? set_players(base) : set_players(variant);
    /* the first mover's question first: where one seat always moves first, that seat's
     * wins repeat it (an_holm_rows counts it once) */
    if (!game->simultaneous && players > 1) {
        const figure_def f = {"first_mover_wins",
                              "Wins of the first mover",
                              fig_first_mover_wins,
                              NULL,
                              true,
                              NULL,
                              NULL,
                              NULL};
        compare_rows(list, base, variant, &f, 1);
    }
    for (int p = 0; p < players; p++) {
        char id[32], label[64];
        snprintf(id, sizeof id, "wins_seat_%d", p);
        snprintf(label, sizeof label, "Wins of seat %d (%s)", p, rp_seat_name(game, p));
        const figure_def f = {id, label, fig_wins, &seat_ids[p], true, NULL, NULL, NULL};
        compare_rows(list, base, variant, &f, 1);
    }
    compare_rows(list, base, variant, length_figures, NUM_LENGTH);
    compare_rows(list, base, variant, ludii_figures, NUM_LUDII);
    return list;
}

/* Interval bound `key` of a row, NaN when absent. */
static double row_number(const cJSON *row, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

/* Whether two rows of one comparison answer the same question: the same paired bootstrap
 * (every figure is resampled on the same deals) gives the same p-value and the same or the
 * mirrored interval exactly when one figure is the other, or the other's complement (turns
 * and Ludii's duration; seat 0's wins and the first mover's when seat 0 always moves first;
 * one seat's wins and the other's when no game is drawn or unfinished). */
static bool same_question(const cJSON *a, const cJSON *b)
{
    const double pa = row_number(a, "p"), pb = row_number(b, "p");
    const double la = row_number(a, "low"), ha = row_number(a, "high");
    const double lb = row_number(b, "low"), hb = row_number(b, "high");
    if (!close_to(pa, pb) || !close_to(fabs(row_number(a, "value")), fabs(row_number(b, "value"))))
        return false;
    return (close_to(la, lb) && close_to(ha, hb)) || (close_to(la, -hb) && close_to(ha, -lb));
}

/* A figure that did not vary: zero difference in every resample, no question asked. */
static bool no_variation(const cJSON *row)
{
    return row_number(row, "value") == 0 && row_number(row, "low") == 0 &&
           row_number(row, "high") == 0;
}

/* Marks the rows of one comparison that ask no question of their own ("family": false, with
 * "same_as" the id of the row they repeat, or "no_variation"); returns the row each repeats
 * (or NULL) in `repeats`. */
static void mark_family(cJSON *list, cJSON **rows, cJSON **repeats, int *m)
{
    const int first = *m;
    cJSON *row;
    cJSON_ArrayForEach (row, list) {
        if (*m == AN_MAX_TESTS)
            return;
        cJSON_DeleteItemFromObjectCaseSensitive(row, "family");
        cJSON_DeleteItemFromObjectCaseSensitive(row, "same_as");
        cJSON_DeleteItemFromObjectCaseSensitive(row, "no_variation");
        rows[*m] = row;
        repeats[*m] = NULL;
        const bool flat = no_variation(row);
        for (int j = first; j < *m && !flat && !repeats[*m]; j++)
            if (!repeats[j] && !no_variation(rows[j]) && same_question(rows[j], row))
                repeats[*m] = rows[j];
        cJSON_AddBoolToObject(row, "family", !flat && !repeats[*m]);
        if (repeats[*m])
            cJSON_AddStringToObject(
                row, "same_as", cJSON_GetObjectItemCaseSensitive(repeats[*m], "id")->valuestring);
        if (flat)
            cJSON_AddTrueToObject(row, "no_variation");
        (*m)++;
    }
}

int an_holm_rows(cJSON *const *lists, int count)
{
    static double p[AN_MAX_TESTS], adjusted[AN_MAX_TESTS];
    static cJSON *rows[AN_MAX_TESTS], *repeats[AN_MAX_TESTS];
    int m = 0;
    for (int l = 0; l < count; l++)
        mark_family(lists[l], rows, repeats, &m);
    /* each question once (issue 46): repeats and rows without variation stay out */
    for (int i = 0; i < m; i++)
        p[i] = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rows[i], "family"))
                   ? row_number(rows[i], "p")
                   : NAN;
    an_holm(p, m, adjusted);
    int tests = 0;
    for (int i = 0; i < m; i++) {
        tests += isfinite(adjusted[i]);
        cJSON_DeleteItemFromObjectCaseSensitive(rows[i], "p_holm");
        cJSON_DeleteItemFromObjectCaseSensitive(rows[i], "significant");
        cJSON_DeleteItemFromObjectCaseSensitive(rows[i], "relevant");
        add_number(rows[i], "p_holm", adjusted[i]);
        /* significant: the family-wise test rejects and the row's own interval agrees */
        const double low = row_number(rows[i], "low"), high = row_number(rows[i], "high");
        const bool significant = adjusted[i] < 0.05 && (low > 0 || high < 0);
        cJSON_AddBoolToObject(rows[i], "significant", significant);
        /* relevant: significant and at least the size that matters to a designer */
        const double size = fabs(row_number(rows[i], "value"));
        cJSON_AddBoolToObject(rows[i], "relevant",
                              significant && size >= row_number(rows[i], "min_effect"));
    }
    /* a repeat reads its question's adjusted p and verdict */
    for (int i = 0; i < m; i++) {
        if (!repeats[i])
            continue;
        const cJSON *of = repeats[i];
        const double low = row_number(rows[i], "low"), high = row_number(rows[i], "high");
        const double adj = row_number(of, "p_holm");
        cJSON_ReplaceItemInObjectCaseSensitive(
            rows[i], "p_holm", isfinite(adj) ? cJSON_CreateNumber(adj) : cJSON_CreateNull());
        const bool significant = adj < 0.05 && (low > 0 || high < 0);
        cJSON_ReplaceItemInObjectCaseSensitive(rows[i], "significant",
                                               cJSON_CreateBool(significant));
        cJSON_ReplaceItemInObjectCaseSensitive(
            rows[i], "relevant",
            cJSON_CreateBool(significant && fabs(row_number(rows[i], "value")) >=
                                                row_number(rows[i], "min_effect")));
    }
    return tests;
}

/* The stronger AI's share of the win, over idx. */
static double fig_strong_score(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += s->games[idx[i]].returns[s->games[idx[i]].strong_seat];
    return n ? sum / (double)n : NAN;
}

/* Games a weaker AI won outright. */
static double fig_weak_wins(const an_set *s, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    long wins = 0;
    for (long i = 0; i < n; i++) {
        const int w = sole_winner(&s->games[idx[i]]);
        wins += w >= 0 && w != s->games[idx[i]].strong_seat;
    }
    return n ? (double)wins / (double)n : NAN;
}

/* Wilson's interval for a share measured over `games` games in `deals` deals, the deal the
 * unit; n stays the games. */
static an_interval deal_wilson(double share, long deals, long games)
{
    an_interval r = an_wilson(share * (double)deals, deals);
    r.value = share;
    r.n = games;
    return r;
}

/* The test of a ladder step, the same kind as the verdict's (an_advantage_test): two
 * players, McNemar's exact test over the deals (the stronger side won both games of a deal
 * against the weaker side won both); more players, the exact binomial test of the stronger
 * side's wins among the games with a sole winner against its fair share. */
static an_advantage_test ladder_test(const an_set *set, int players, long *side_wins)
{
    an_advantage_test t = {0};
    t.paired = players == 2;
    t.p0 = players > 0 ? 1.0 / players : NAN;
    t.games_per_unit = t.paired ? 2 : 1;
    *side_wins = 0;
    if (t.paired) {
        for (long d = 0; 2 * d + 1 < set->count; d++) {
            const an_game *x = &set->games[2 * d], *y = &set->games[2 * d + 1];
            const int wx = sole_winner(x), wy = sole_winner(y);
            t.units++;
            if (wx < 0 || wy < 0)
                continue;
            const bool strong_x = wx == x->strong_seat, strong_y = wy == y->strong_seat;
            if (strong_x == strong_y) {
                t.informative++;
                *side_wins += strong_x;
            }
        }
        return t;
    }
    for (long i = 0; i < set->count; i++) {
        const int w = sole_winner(&set->games[i]);
        t.units++;
        if (w < 0)
            continue;
        t.informative++;
        *side_wins += w == set->games[i].strong_seat;
    }
    return t;
}

/* The games this step's test needs for 80% power at 5% to detect `edge` above the fair share:
 * "games_KEY", "deals_KEY" (the games over the players) and "power_KEY". */
static void add_sizing(cJSON *o, const char *key, const an_advantage_test *t, double edge,
                       int players)
{
    char name[64];
    double power;
    const double games = an_games_to_detect(t, edge, 0.05, &power);
    snprintf(name, sizeof name, "games_%s", key);
    add_number(o, name, games);
    snprintf(name, sizeof name, "deals_%s", key);
    add_number(o, name, games / players);
    snprintf(name, sizeof name, "power_%s", key);
    add_number(o, name, power);
}

cJSON *an_ladder_json(const char *weak, const char *strong, const an_set *set, double detect)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "weak", weak);
    cJSON_AddStringToObject(o, "strong", strong);
    cJSON_AddNumberToObject(o, "games", (double)set->count);
    /* the stronger side sits alone against copies of the weaker: its fair share */
    const double fair = set_players(set) ? 1.0 / set_players(set) : NAN;
    cJSON_AddNumberToObject(o, "fair_share", fair);
    long *all = malloc(sizeof *all * (size_t)(set->count + 1));
    if (!all)
        return o;
    for (long i = 0; i < set->count; i++)
        all[i] = i;
    const double score = fig_strong_score(set, all, set->count, NULL);
    const double weak_wins = fig_weak_wins(set, all, set->count, NULL);
    free(all);
    /* The games of a deal (the stronger side on each seat in turn) share their cards, so
     * the deal is the unit: Wilson's interval over the deals, each deal's share one
     * observation (conservative when the games of a deal agree less than fully). */
    const int players = set_players(set);
    const long deals = players > 0 ? (set->count + players - 1) / players : 0;
    cJSON_AddNumberToObject(o, "deals", (double)deals);
    cJSON_AddStringToObject(o, "interval", "wilson over deals");
    const an_interval s = deal_wilson(score, deals, set->count);
    cJSON_AddItemToObject(o, "strong_score", interval_json(s));
    /* separated: the step's test (one question per step, at 5%) finds the stronger side
     * above its fair share; its sizing below is the power of this same test */
    long side_wins;
    const an_advantage_test t = ladder_test(set, players, &side_wins);
    const double p = t.paired ? an_mcnemar_exact(side_wins, t.informative - side_wins)
                              : an_binomial_test(side_wins, t.informative, t.p0);
    cJSON_AddStringToObject(
        o, "test", t.paired ? "McNemar exact over deals" : "exact binomial against the fair share");
    cJSON_AddNumberToObject(o, "informative", (double)t.informative);
    cJSON_AddNumberToObject(o, "side_wins", (double)side_wins);
    add_number(o, "p", p);
    cJSON_AddBoolToObject(o, "separated", p < 0.05 && s.value > fair);
    /* How many games this step needs to tell the levels apart with 80% power: for the score
     * as measured, and for a step of `detect` above the fair share (--detect: sizing the
     * ladder before running it) */
    add_sizing(o, "to_detect", &t, s.value - fair, players);
    cJSON_AddNumberToObject(o, "detect", detect);
    add_sizing(o, "to_detect_step", &t, detect, players);
    const an_interval w = deal_wilson(weak_wins, deals, set->count);
    cJSON_AddItemToObject(o, "weak_wins", interval_json(w));
    /* If a game is either decided by skill (the stronger side wins) or by the deal (a coin
     * flip between the sides), the weaker side wins half the deal-decided games. */
    if (set_players(set) == 2) {
        const an_interval luck = {fmin(1, 2 * w.value), fmin(1, 2 * w.low), fmin(1, 2 * w.high),
                                  w.n};
        cJSON_AddItemToObject(o, "deal_decides", interval_json(luck));
    }
    return o;
}

cJSON *an_decisive_json(const an_set *set, const char *judge_spec)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "judge", judge_spec);
    cJSON_AddNumberToObject(o, "games", (double)set->count);
    cJSON_AddItemToObject(o, "mean_worst_drop",
                          interval_json(an_bootstrap(set, fig_mean, &m_worst_drop)));
    long decided = 0, swung = 0;
    double largest = 0;
    cJSON *per = cJSON_AddArrayToObject(o, "per_game");
    for (long i = 0; i < set->count; i++) {
        const an_game *g = &set->games[i];
        largest = fmax(largest, g->worst_drop);
        if (sole_winner(g) >= 0) {
            decided++;
            swung += g->loser_swung;
        }
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "game", (double)i);
        cJSON_AddNumberToObject(row, "worst_drop", g->worst_drop);
        cJSON_AddNumberToObject(row, "at_action", g->worst_drop_action);
        cJSON_AddNumberToObject(row, "loser_drop", g->loser_drop);
        cJSON_AddBoolToObject(row, "loser_swung", g->loser_swung);
        cJSON_AddNumberToObject(row, "winner", sole_winner(g));
        cJSON_AddItemToArray(per, row);
    }
    cJSON_AddNumberToObject(o, "largest_drop", largest);
    cJSON_AddItemToObject(o, "loser_swung", interval_json(an_wilson((double)swung, decided)));
    return o;
}
