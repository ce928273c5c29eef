/* analyze.h — what the parts of `ramparts analyze` share: one game's measurements (the unit
 * that threads and MPI processes hand back), the statistics with their intervals, and the
 * figures computed over a set of games. */
#ifndef RP_CLI_ANALYZE_H
#define RP_CLI_ANALYZE_H

#include <cjson/cJSON.h>

#include "cli.h"

/* Cards and kinds of action a game touched, as text lines "PP HH E name\n": PP the hex mask of
 * the seats that played it, HH of the seats holding it at the end, E 1 when an action other
 * than the game's last set it off (0: only the last action did, as the event that ends a
 * game). */
#define AN_FEATURE_TEXT 4096

/* The measurements of one game (fixed size, no pointers: MPI gathers them as bytes). */
typedef struct an_game {
    bool done; /* this slot holds a game */
    int players;
    bool unfinished; /* stopped at the tools' turn cap (CD-16) */
    double returns[RP_MAX_PLAYERS];
    bool scored;                   /* the game keeps points (its score hook) */
    double scores[RP_MAX_PLAYERS]; /* each seat's points at the end */
    int strong_seat;               /* ladder games: the seat of the stronger AI (-1 otherwise) */
    int first_mover; /* the seat that moved first (the rules' first player), -1 when the
                      * rules have none (simultaneous play) */
    int turns;
    long actions;     /* every action applied */
    long decisions;   /* actions chosen among two or more legal ones */
    long forced;      /* actions that were the only legal one */
    double legal_sum; /* legal actions summed over every state someone acted in */
    /* Ludii's state-evaluation metrics of this game (NaN without an evaluate hook, or
     * without a sole winner where the metric needs one) */
    double lead_change, stability, drama, decisiveness;
    /* over the game's thirds (opening, middle, end): legal actions per state acted in, per
     * decision (2+ legal), lead changes per state; NaN in a third without any */
    double phase_branching[3], phase_decision[3], phase_lead_change[3];
    double decision_factor;    /* legal actions per decision (Ludii's DecisionFactor) */
    double clarity_variance;   /* mean over decisions of the variance of the moves' values */
    double clarity_narrowness; /* mean share of moves near the best (Ludii's Narrowness) */
    double comeback;           /* 1: the winner did not lead half-way; NaN without a winner */
    double kingmaking;         /* 1: a seat out of contention handed the win (3+ players) */
    /* "Decided by one move" (judged games only): the largest fall in a mover's estimate
     * over one of its own moves, and the loser's worst move */
    bool judged;
    double worst_drop, loser_drop;
    int worst_drop_action; /* the action index (from 0) of the worst drop */
    bool loser_swung;      /* the loser's worst move took it from >= even to below */
    char features[AN_FEATURE_TEXT];
} an_game;

/* A set of games analysed together; deals come in pairs when paired (games 2k, 2k+1). */
typedef struct an_set {
    const an_game *games;
    long count;
    bool paired;
} an_set;

/* ---- statistics (analyze_stats.c) ---- */

typedef struct an_interval {
    double value, low, high;
    long n; /* the games (or observations) behind it */
} an_interval;

/* 95% Wilson interval of a share `successes`/n (successes may be fractional: shares). */
an_interval an_wilson(double successes, long n);
/* The standard normal quantile. */
double an_normal_quantile(double p);
/* Two-sided p-value of a normal z. */
double an_normal_p(double z);
/* Student's t distribution with df degrees of freedom: its distribution function and its
 * quantile (the regularized incomplete beta function, Numerical Recipes 6.4). */
double an_t_cdf(double t, double df);
double an_t_quantile(double p, double df);
/* The mean of x with its 95% Student t interval (n - 1 degrees of freedom): in a paired
 * design each x is one deal's figure, so the two games of a deal count once together. */
an_interval an_mean_t(const double *x, long n);
/* Exact two-sided binomial test of k successes in n against p0: the probability of every
 * outcome no more likely than k (as R's binom.test). */
double an_binomial_test(long k, long n, double p0);
/* McNemar's exact test on a paired binary outcome: b and c the two kinds of discordant
 * pairs; the binomial test of b in b + c against one half. */
double an_mcnemar_exact(long b, long c);
/* an_binomial_test's p-value computed by tail sums (O(log n)); equal to it within rounding. */
double an_binomial_p_fast(long k, long n, double p0);
/* The power of the exact two-sided binomial test (an_binomial_test, rejecting when p < alpha)
 * that the report's tests of an advantage make: among `units` units (games, or deals), each
 * informative with probability `rate` (a game with a sole winner; in paired deals, a deal
 * one side won twice), the informative units' successes X ~ Bin(D, theta) tested against p0
 * (McNemar's test is p0 = 1/2). Exact: the rejection region of every D, weighted by D's
 * binomial probability. NaN on arguments out of range. */
double an_test_power(long units, double rate, double p0, double theta, double alpha);
/* The units at which an_test_power first reaches `target` (found by doubling then bisection,
 * so a size that reaches it and about the smallest), with that power in *power; NaN when
 * none below AN_MAX_UNITS does. */
#define AN_MAX_UNITS 10000000L
double an_units_for_power(double rate, double p0, double theta, double alpha, double target,
                          double *power);

/* The report's test of an advantage (a seat's, the first mover's, a ladder step's): McNemar's
 * exact test over deals when two-player deals are played twice (the informative deals are
 * those one side won twice), else the exact binomial test of the side's wins among the games
 * with a sole winner against p0. */
typedef struct an_advantage_test {
    bool paired;
    long units;         /* deals (paired), or games */
    long informative;   /* deals one side won twice, or games with a sole winner */
    double p0;          /* the fair share among decided games (unpaired) */
    int games_per_unit; /* 2 for a paired deal, 1 for a game */
} an_advantage_test;
/* The games that test needs to detect `edge` (the side's share of the games above its fair
 * share, e.g. 0.05) with 80% power at level alpha, the informative units' rate held as
 * measured: one power calculation (an_test_power) for the verdict and the ladder alike. *power
 * is the power at that size; NaN when the edge cannot happen at the rate measured. */
double an_games_to_detect(const an_advantage_test *t, double edge, double alpha, double *power);

/* Holm's step-down adjustment (Holm, Scand. J. Statist. 6 (1979) 65-70; R's p.adjust "holm")
 * of the m p-values: sorted ascending, the k-th (from 0) becomes max over j <= k of
 * min(1, (tests - j) p_(j)), tests the finite ones (at most AN_MAX_TESTS); NaN stays NaN.
 * It controls the chance of any false "significant" in the family at 5%, as Bonferroni does,
 * and calls at least as many. */
#define AN_MAX_TESTS 4096
/* A p-value for people: "< 0.001", "= 0.012", "n/a" (not "0.000"). */
void an_format_p(double p, char *buf, size_t size);
void an_holm(const double *p, int m, double *adjusted);
/* Decimals enough for an interval's width to show two significant digits (at least 1, at
 * most 8; from the value when the interval has no width), and a difference printed with
 * them: "+1.23 points [+0.45, +2.01]" (issue 46: "-0.00 [-0.00, -0.00]" said nothing). The
 * numbers are multiplied by scale (100 for shares in points). */
int an_decimals(double value, double low, double high);
void an_format_difference(double value, double low, double high, double scale, const char *unit,
                          char *buf, size_t size);

/* A figure computed over the games of a set picked by idx (indices into set->games, repeats
 * allowed: bootstrap samples). ctx carries a parameter such as a seat. */
typedef double (*an_figure)(const an_set *set, const long *idx, long n, const void *ctx);

/* The figure over all games with a 95% percentile bootstrap interval: deals resampled (a
 * pair of games together when paired) with a fixed seed, so the same games always give the
 * same interval. */
an_interval an_bootstrap(const an_set *set, an_figure fig, const void *ctx);
/* The paired difference fig(b) - fig(a) over the same deals (a and b played on the same
 * seeds), with its 95% paired bootstrap interval; *p_value the two-sided normal test of the
 * difference over its bootstrap standard error. */
an_interval an_bootstrap_diff(const an_set *a, const an_set *b, an_figure fig, const void *ctx,
                              double *p_value);

/* ---- metrics from plain arrays (analyze_metrics.c) ---- */

/* One game's course: per state acted in, the seats' evaluations (players values each,
 * normalised to sum to 1; NULL without an evaluate hook), the seat to act and its legal
 * actions; and the sole winner (-1 when none). */
typedef struct an_trace {
    const double *evals;
    const int *movers, *legal;
    long states;
    int players, winner;
} an_trace;
/* Fills g's lead changes, stability, drama, decisiveness (Ludii's), their thirds, the
 * branching and decision factor by third, the comeback and kingmaking (NaN where undefined). */
void an_trace_metrics(const an_trace *t, an_game *g);
/* Clarity of one position: the population variance of its n moves' values (Ludii's
 * ClarityVariance) and the share of them above mean + 0.75 (max - mean) (ClarityNarrowness). */
void an_clarity(const double *values, int n, double *variance, double *narrowness);
/* Ludii's skill trace over a ladder's steps (score[k]: the stronger side's share of the win in
 * step k): the regression of the scores on the step predicted at step `steps` + 1, clipped to
 * [0, 1], plus what it leaves times the mean squared score. NaN below two steps. */
double an_skill_trace(const double *score, int steps);

/* ---- one game's measurements (analyze_play.c) ---- */

/* Collects an_game while a game is played (an rp_cli_watch) or replayed from a record. */
typedef struct an_collector an_collector;
an_collector *an_collector_new(const rp_game *game, an_game *out);
void an_collector_watch(void *collector, const void *st, int mover, rp_action action, int legal);
/* Finish: the returns and whether the game was stopped (from the runner or the record).
 * Returns RP_OK, or < 0 when the features did not fit. */
int an_collector_finish(an_collector *c, const double *returns, bool unfinished, rp_error *err);
void an_collector_free(an_collector *c);

/* Replay a match's moves into out (records: --records). */
int an_measure_match(const rp_match *m, an_game *out, rp_error *err);

/* "Decided by one move": a strong search (judge_spec) estimates the share of the win of the
 * seat to act at every decision of a game as it is played (an rp_cli_watch); finish turns the
 * estimates into each move's fall for its mover. */
typedef struct an_judge an_judge;
int an_judge_new(const rp_game *game, const char *judge_spec, uint64_t seed, an_game *out,
                 an_judge **judge, rp_error *err);
void an_judge_watch(void *judge, const void *st, int mover, rp_action action, int legal);
int an_judge_finish(an_judge *j, const double *returns, bool unfinished, rp_error *err);
void an_judge_free(an_judge *j);

/* ---- figures (analyze_report.c) ---- */

/* The figures of a set as JSON: seats, length, Ludii's metrics, impact. */
cJSON *an_figures_json(const rp_game *game, const an_set *set);
/* Who moved first and how often that seat won, with the test of no advantage (the first
 * mover's part of an_figures_json): for the self-play games of one skill level. */
cJSON *an_first_mover_json(const rp_game *game, const an_set *set);
/* Every figure of `variant` minus `base` on the same deals, with intervals. */
cJSON *an_compare_json(const rp_game *game, const an_set *base, const an_set *variant);
/* Holm over every row of `lists` (arrays of an_compare_json rows) as one family: each row
 * gets "p_holm", and "significant" becomes p_holm < 0.05 with its 95% interval leaving out 0.
 * Returns the number of tests (rows with a p-value). */
int an_holm_rows(cJSON *const *lists, int count);
/* The ladder row of a pairing: the stronger side's score and the weaker side's wins, and the
 * deals and games needed to tell the levels apart (for the score measured, and for a step of
 * `detect` above the fair share). */
cJSON *an_ladder_json(const char *weak, const char *strong, const an_set *set, double detect);
/* "Decided by one move" over the judged games of a set. */
cJSON *an_decisive_json(const an_set *set, const char *judge_spec);

/* The verdict of a set's figures (an_figures_json): first mover, length, decisiveness and the
 * effects that matter, each with its level ("ok", "note", "act") and the tests' p-values
 * Bonferroni-adjusted over the verdict's own tests. */
cJSON *an_verdict_json(const cJSON *figures, int turn_cap);

/* Verdict lines for the --vs variants (their "difference" rows already Holm-adjusted as one
 * family of `tests`): per variant, the figures that differ significantly, or that none does. */
void an_verdict_variants(cJSON *verdict, const cJSON *variants, int tests);

/* The HTML report: the figures as data and the plotting bundle, one file. */
int an_write_html(FILE *out, const cJSON *report);
/* False in the light build of `make play` (RP_LIGHT_TOOL), which leaves the report's script
 * out: no HTML report can be written. */
bool an_html_report_built(void);

#endif
