/* test_analyze_stats.c — the statistics of `ramparts analyze` (src/cli/analyze_stats.c) against
 * values computed independently: printed tables of Student's t, R's binom.test, and Python's
 * exact arithmetic (math.comb, statistics.NormalDist), each quoted where it is used. */
#include "support.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "cli/analyze.h"

static void near(double got, double want, double tolerance)
{
    if (!(fabs(got - want) <= tolerance))
        fail_msg("got %.10g, want %.10g (within %g)", got, want, tolerance);
}

/* Student's t, two-sided 95% (the 0.975 quantile), from any printed table (e.g. Fisher and
 * Yates, or NIST/SEMATECH e-Handbook 1.3.6.7.2): 12.706 (1 df), 2.262 (9), 2.045 (29),
 * 1.984 (100); the table's six-digit values for 9 and 29 df are 2.262157 and 2.045230. */
static void test_t_quantiles(void **state)
{
    (void)state;
    near(an_t_quantile(0.975, 1), 12.7062, 5e-4);
    near(an_t_quantile(0.975, 9), 2.262157, 2e-6);
    near(an_t_quantile(0.975, 29), 2.045230, 2e-6);
    near(an_t_quantile(0.975, 100), 1.983972, 2e-6);
    near(an_t_quantile(0.025, 9), -2.262157, 2e-6);
    near(an_t_cdf(0, 5), 0.5, 1e-12);
    /* 1 df is the Cauchy distribution: F(1) = 3/4 exactly */
    near(an_t_cdf(1, 1), 0.75, 1e-12);
}

/* The mean of ten deals' shares with its t interval. Python: statistics.mean and stdev of
 * [0, .5, 1, 1, .5, .5, 1, 0, 1, 1] give 0.65 and 0.4116; 0.65 -+ 2.262157 * sd / sqrt(10) =
 * [0.355533, 0.944467]. */
static void test_mean_t(void **state)
{
    (void)state;
    const double x[] = {0, 0.5, 1, 1, 0.5, 0.5, 1, 0, 1, 1};
    const an_interval r = an_mean_t(x, 10);
    near(r.value, 0.65, 1e-12);
    near(r.low, 0.35553312921, 1e-8);
    near(r.high, 0.94446687079, 1e-8);
    assert_int_equal(r.n, 10);
}

/* Wilson's interval for 45 of 100: [0.3561, 0.5476] (Newcombe, Statistics in Medicine 17
 * (1998) 857-872, method 3; Python gives 0.356145, 0.547554). */
static void test_wilson(void **state)
{
    (void)state;
    const an_interval r = an_wilson(45, 100);
    near(r.low, 0.356145, 2e-6);
    near(r.high, 0.547554, 2e-6);
    const an_interval none = an_wilson(0, 10);
    near(none.low, 0, 1e-12);
    assert_true(none.high > 0.2 && none.high < 0.35); /* 0.2775 */
}

/* Exact binomial tests, two-sided as R's binom.test: binom.test(7, 20) p = 0.2632 (exactly
 * 2 * 137980 / 2^20 = 0.263176); binom.test(10, 20, 0.25) p = 0.01704; binom.test(2, 30,
 * 0.25) p = 0.01878 (Python with math.comb: 0.0170356, 0.0187751). */
static void test_binomial(void **state)
{
    (void)state;
    near(an_binomial_test(7, 20, 0.5), 0.26317596435546875, 1e-12);
    near(an_binomial_test(10, 20, 0.25), 0.017035628882695164, 1e-9);
    near(an_binomial_test(2, 30, 0.25), 0.018775062714801206, 1e-9);
    near(an_binomial_test(10, 20, 0.5), 1, 1e-12);
    assert_true(isnan(an_binomial_test(3, 2, 0.5)));
}

/* McNemar's exact test: 11 pairs one way, 2 the other: 2 * (1 + 13 + 78) / 2^13 = 0.0224609375
 * (Agresti, Categorical Data Analysis, 3rd ed., 11.1.1: the binomial test of b in b + c). */
static void test_mcnemar(void **state)
{
    (void)state;
    near(an_mcnemar_exact(11, 2), 0.0224609375, 1e-12);
    near(an_mcnemar_exact(2, 11), 0.0224609375, 1e-12);
    near(an_mcnemar_exact(0, 0), 1, 0);
}

/* Games to detect 60% against 50% at 5% two-sided with 80% power: 193.85, so 194 (Fleiss
 * 2.5; Python: ((1.959964 * 0.5 + 0.841621 * sqrt(0.24)) / 0.1)^2 = 193.847); 35% against 25%:
 * 156.28, so 157. */
static void test_games_to_detect(void **state)
{
    (void)state;
    near(an_games_to_detect(0.5, 0.6), 194, 0);
    near(an_games_to_detect(0.25, 0.35), 157, 0);
    assert_true(isnan(an_games_to_detect(0.5, 0.5)));
}

/* Holm's adjustment, as R computes it: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives
 * 0.03 0.06 0.06 0.02 (by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03,
 * 0.06, 0.04, the last raised to the 0.06 before it); a NaN is left out of the count, and
 * nothing goes past 1 (p.adjust(c(0.5, 0.6), "holm") = 1 1). */
static void test_holm(void **state)
{
    (void)state;
    const double p[] = {0.01, 0.04, 0.03, 0.005};
    double adj[4];
    an_holm(p, 4, adj);
    near(adj[0], 0.03, 1e-12);
    near(adj[1], 0.06, 1e-12);
    near(adj[2], 0.06, 1e-12);
    near(adj[3], 0.02, 1e-12);
    const double q[] = {0.01, NAN, 0.04};
    double adj_q[3];
    an_holm(q, 3, adj_q);
    near(adj_q[0], 0.02, 1e-12);
    assert_true(isnan(adj_q[1]));
    near(adj_q[2], 0.04, 1e-12);
    const double r[] = {0.5, 0.6};
    double adj_r[2];
    an_holm(r, 2, adj_r);
    near(adj_r[0], 1, 0);
    near(adj_r[1], 1, 0);
}

/* The mean of seat 0's share over the games picked. */
static double mean_share(const an_set *set, const long *idx, long n, const void *ctx)
{
    (void)ctx;
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += set->games[idx[i]].returns[0];
    return n ? sum / (double)n : NAN;
}

/* The paired difference's test: the difference over its bootstrap standard error. The
 * bootstrap's standard error of a mean of n paired differences d is the plug-in sd(d) /
 * sqrt(n) (Efron and Tibshirani 1993, 5.2: sqrt(sum (d - mean)^2) / n), so its z is known
 * without resampling; 1000 resamples give it within a few percent. Here 200 deals: d = 1 in
 * 50, -1 in 20, 0 in 130: mean 0.15, plug-in sd sqrt(0.35 - 0.0225) = 0.572276, z = 3.70681,
 * p = 2.0988e-4 (Python: 2 * (1 - NormalDist().cdf(3.70681))). The interval is the paired one:
 * it lies around 0.15 and leaves out 0. */
static void test_paired_difference(void **state)
{
    (void)state;
    enum { N = 200 };
    static an_game a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i].done = b[i].done = true;
        a[i].players = b[i].players = 2;
        const double base = i % 3 == 0 ? 1 : 0; /* shared by both: the pairing removes it */
        a[i].returns[0] = base;
        b[i].returns[0] = base + (i < 50 ? 1 : i < 70 ? -1 : 0);
    }
    const an_set sa = {a, N, false}, sb = {b, N, false};
    double p;
    const an_interval d = an_bootstrap_diff(&sa, &sb, mean_share, NULL, &p);
    near(d.value, 0.15, 1e-12);
    assert_true(d.low > 0.05 && d.low < 0.15 && d.high > 0.15 && d.high < 0.25);
    const double z_exact = 3.70681;
    /* p within the z range of a 5% error in the bootstrap's standard error */
    assert_true(p > an_normal_p(z_exact * 1.05) && p < an_normal_p(z_exact * 0.95));
    near(an_normal_p(z_exact), 2.0988e-4, 2e-7);
}

/* ---- the verdict's tests under the null (issue 46) ---- */

/* The figures the verdict reads for `players` seats and `games` games won by seats drawn
 * uniformly (no seat favoured: the null), as analyze_report.c builds them: each seat's wins
 * and exact binomial p against 1/players; seat 0 moves first. */
static cJSON *null_figures(int players, int games, rp_rng *rng)
{
    long wins[RP_MAX_PLAYERS] = {0};
    for (int g = 0; g < games; g++)
        wins[rp_rng_below(rng, (uint32_t)players)]++;
    cJSON *figs = cJSON_CreateObject();
    cJSON_AddNumberToObject(figs, "players", players);
    cJSON_AddNumberToObject(figs, "games", games);
    cJSON *seats = cJSON_AddArrayToObject(figs, "seats");
    for (int p = 0; p < players; p++) {
        cJSON *seat = cJSON_CreateObject();
        char name[32];
        snprintf(name, sizeof name, "seat %d", p);
        cJSON_AddStringToObject(seat, "name", name);
        cJSON *w = cJSON_AddObjectToObject(seat, "wins");
        cJSON_AddNumberToObject(w, "value", (double)wins[p] / games);
        cJSON_AddNumberToObject(w, "low", 0);
        cJSON_AddNumberToObject(w, "high", 1);
        cJSON_AddNumberToObject(w, "n", games);
        cJSON_AddNumberToObject(seat, "p", an_binomial_test(wins[p], games, 1.0 / players));
        cJSON_AddItemToArray(seats, seat);
    }
    cJSON *fm = cJSON_AddObjectToObject(figs, "first_mover");
    cJSON_AddTrueToObject(fm, "defined");
    cJSON_AddNumberToObject(fm, "fair_share", 1.0 / players);
    cJSON_AddNumberToObject(fm, "p", an_binomial_test(wins[0], games, 1.0 / players));
    cJSON_AddStringToObject(fm, "test", "exact binomial");
    cJSON_AddItemToObject(
        fm, "wins",
        cJSON_Duplicate(cJSON_GetObjectItem(cJSON_GetArrayItem(seats, 0), "wins"), true));
    return figs;
}

/* Over simulated nulls, the verdict raises an alarm (a level other than "ok") on the first
 * mover or the seats at most about as often as its 5% level allows: the most uneven of k seats
 * is the least of k p-values, so its test must be corrected for k (corrected by 2, false alarms
 * were 8.2% with 4 players and 11.5% with 5). */
static void test_verdict_false_alarms_within_the_level(void **state)
{
    (void)state;
    enum { NULLS = 1000, GAMES = 300 };
    for (int players = 3; players <= 5; players++) {
        rp_rng rng;
        rp_rng_seed(&rng, 46, (uint64_t)players);
        int alarms = 0;
        for (int k = 0; k < NULLS; k++) {
            cJSON *figs = null_figures(players, GAMES, &rng);
            cJSON *verdict = an_verdict_json(figs, 0);
            bool alarm = false;
            const cJSON *item;
            cJSON_ArrayForEach (item, verdict) {
                const char *topic = cJSON_GetObjectItem(item, "topic")->valuestring;
                if (strcmp(topic, "seats") == 0 || strcmp(topic, "first mover") == 0)
                    alarm |= strcmp(cJSON_GetObjectItem(item, "level")->valuestring, "ok") != 0;
            }
            alarms += alarm;
            cJSON_Delete(verdict);
            cJSON_Delete(figs);
        }
        /* the family's level is 5%: allow the simulation's own error (sd 0.7 points) */
        print_message("%d players: %d false alarms in %d nulls\n", players, alarms, NULLS);
        if (alarms > NULLS * 65 / 1000)
            fail_msg("%d players: %d false alarms in %d null runs, above the 5%% level", players,
                     alarms, NULLS);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_mean_t),
        cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_binomial),
        cmocka_unit_test(test_mcnemar),
        cmocka_unit_test(test_games_to_detect),
        cmocka_unit_test(test_holm),
        cmocka_unit_test(test_paired_difference),
        cmocka_unit_test(test_verdict_false_alarms_within_the_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
