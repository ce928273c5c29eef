/* analyze_stats.c — the statistics of `ramparts analyze`: Wilson intervals for shares, Student's
 * t interval over deals (the unit of a paired design), exact binomial and McNemar tests, the
 * games needed to detect a difference, and a seeded percentile bootstrap over deals (pairs of
 * games kept together) for every other figure and for paired differences between a rule
 * variant and the base rules. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze.h"
#include "ramparts/rng.h"

#define BOOTSTRAP_SAMPLES 1000
#define BOOTSTRAP_SEED 0x616e616c797a65ull /* fixed: the same games give the same interval */

an_interval an_wilson(double successes, long n)
{
    an_interval r = {NAN, NAN, NAN, n};
    if (n <= 0)
        return r;
    const double z = 1.959964, z2 = z * z, nn = (double)n, p = successes / nn;
    const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    const double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
    r.value = p;
    r.low = centre - half < 0 ? 0 : centre - half;
    r.high = centre + half > 1 ? 1 : centre + half;
    return r;
}

/* Acklam's rational approximation of the inverse normal distribution (relative error below
 * 1.2e-9), enough for interval widths. */
double an_normal_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    const double low = 0.02425;
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    if (p < low) {
        const double q = sqrt(-2 * log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low)
        return -an_normal_quantile(1 - p);
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double an_normal_p(double z)
{
    return erfc(fabs(z) / sqrt(2.0));
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The games of a set in deal order; a deal is one game, or two when paired. */
static long deal_count(const an_set *set)
{
    return set->paired ? (set->count + 1) / 2 : set->count;
}

/* Fill idx with the games of `deals` deals drawn with replacement; returns how many. */
static long resample(const an_set *set, rp_rng *rng, long *idx)
{
    const long deals = deal_count(set);
    long n = 0;
    for (long k = 0; k < deals; k++) {
        const long d = (long)rp_rng_below(rng, (uint32_t)deals);
        const long first = set->paired ? 2 * d : d;
        idx[n++] = first;
        if (set->paired && first + 1 < set->count)
            idx[n++] = first + 1;
    }
    return n;
}

/* The 2.5% and 97.5% points of the finite values among samples (sorted in place). */
static void percentiles(double *samples, long count, an_interval *r)
{
    long finite = 0;
    for (long i = 0; i < count; i++)
        if (isfinite(samples[i]))
            samples[finite++] = samples[i];
    if (finite == 0)
        return;
    qsort(samples, (size_t)finite, sizeof *samples, compare_doubles);
    r->low = samples[(long)floor(0.025 * (double)(finite - 1))];
    r->high = samples[(long)ceil(0.975 * (double)(finite - 1))];
}

an_interval an_bootstrap(const an_set *set, an_figure fig, const void *ctx)
{
    an_interval r = {NAN, NAN, NAN, set->count};
    long *all = malloc(sizeof *all * (size_t)(set->count + 1));
    long *idx = malloc(sizeof *idx * (size_t)(set->count + 2));
    double *samples = malloc(sizeof *samples * BOOTSTRAP_SAMPLES);
    if (all && idx && samples && set->count > 0) {
        for (long i = 0; i < set->count; i++)
            all[i] = i;
        r.value = fig(set, all, set->count, ctx);
        rp_rng rng;
        rp_rng_seed(&rng, BOOTSTRAP_SEED, 1);
        for (int b = 0; b < BOOTSTRAP_SAMPLES; b++) {
            const long n = resample(set, &rng, idx);
            samples[b] = fig(set, idx, n, ctx);
        }
        percentiles(samples, BOOTSTRAP_SAMPLES, &r);
    }
    free(all), free(idx), free(samples);
    return r;
}

an_interval an_bootstrap_diff(const an_set *a, const an_set *b, an_figure fig, const void *ctx,
                              double *p_value)
{
    an_interval r = {NAN, NAN, NAN, a->count < b->count ? a->count : b->count};
    *p_value = NAN;
    const an_set base = {a->games, r.n, a->paired}, other = {b->games, r.n, b->paired};
    long *all = malloc(sizeof *all * (size_t)(r.n + 1));
    long *idx = malloc(sizeof *idx * (size_t)(r.n + 2));
    double *samples = malloc(sizeof *samples * BOOTSTRAP_SAMPLES);
    if (all && idx && samples && r.n > 0) {
        for (long i = 0; i < r.n; i++)
            all[i] = i;
        r.value = fig(&other, all, r.n, ctx) - fig(&base, all, r.n, ctx);
        rp_rng rng;
        rp_rng_seed(&rng, BOOTSTRAP_SEED, 2);
        long finite = 0;
        double sum = 0, sum_sq = 0;
        for (int s = 0; s < BOOTSTRAP_SAMPLES; s++) {
            const long n = resample(&base, &rng, idx);
            const double d = fig(&other, idx, n, ctx) - fig(&base, idx, n, ctx);
            samples[s] = d;
            if (isfinite(d)) {
                finite++;
                sum += d;
                sum_sq += d * d;
            }
        }
        if (finite > 1 && isfinite(r.value)) {
            /* The difference over its bootstrap standard error, two-sided normal (Efron and
             * Tibshirani, An Introduction to the Bootstrap, 1993, 16.4): unlike counting the
             * resamples beyond 0 (whose smallest p is 2/1000), it stays fine enough for a
             * multiple-comparison correction over many figures. */
            const double mean = sum / (double)finite;
            const double var =
                fmax(0, (sum_sq - (double)finite * mean * mean) / (double)(finite - 1));
            const double se = sqrt(var);
            *p_value = se > 0 ? an_normal_p(r.value / se) : (r.value == 0 ? 1 : 0);
        }
        percentiles(samples, BOOTSTRAP_SAMPLES, &r);
    }
    free(all), free(idx), free(samples);
    return r;
}

/* ---- Student's t and exact binomial tests ---- */

/* The continued fraction of the regularized incomplete beta function (modified Lentz's
 * method, as in Press et al., Numerical Recipes, 2nd ed., section 6.4). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
        const double m2 = 2.0 * m;
        for (int half = 0; half < 2; half++) {
            const double aa = half == 0 ? m * (b - m) * x / ((a + m2 - 1) * (a + m2))
                                        : -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + aa * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            if (half == 1 && fabs(d * c - 1) < 1e-15)
                return h;
        }
    }
    return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double incomplete_beta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_fraction(a, b, x) / a;
    return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double an_t_cdf(double t, double df)
{
    const double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
    return t >= 0 ? 1 - tail : tail;
}

double an_t_quantile(double p, double df)
{
    if (!(p > 0 && p < 1) || !(df > 0))
        return NAN;
    /* bisection on the distribution function: monotone, and 200 halvings reach the double's
     * precision from any bracket that holds the answer */
    double lo = -1, hi = 1;
    while (an_t_cdf(lo, df) > p)
        lo *= 2;
    while (an_t_cdf(hi, df) < p)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, fabs(lo)); i++) {
        const double mid = 0.5 * (lo + hi);
        if (an_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

an_interval an_mean_t(const double *x, long n)
{
    an_interval r = {NAN, NAN, NAN, n};
    if (n <= 0)
        return r;
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += x[i];
    r.value = sum / (double)n;
    if (n < 2)
        return r;
    double sq = 0;
    for (long i = 0; i < n; i++)
        sq += (x[i] - r.value) * (x[i] - r.value);
    const double se = sqrt(sq / (double)(n - 1) / (double)n);
    const double half = an_t_quantile(0.975, (double)(n - 1)) * se;
    r.low = r.value - half;
    r.high = r.value + half;
    return r;
}

/* log of the binomial probability P(X = k), X ~ Bin(n, p) */
static double log_binomial(long k, long n, double p)
{
    const double coefficient =
        lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
    if (p <= 0)
        return k == 0 ? 0 : -INFINITY;
    if (p >= 1)
        return k == n ? 0 : -INFINITY;
    return coefficient + (double)k * log(p) + (double)(n - k) * log1p(-p);
}

double an_binomial_test(long k, long n, double p0)
{
    if (n <= 0 || k < 0 || k > n)
        return NAN;
    /* two-sided: the probability of every outcome no more likely than k (the "minlike" rule
     * of R's binom.test and SciPy's binomtest), with a relative tolerance for ties */
    const double observed = log_binomial(k, n, p0);
    double p = 0;
    for (long i = 0; i <= n; i++) {
        const double l = log_binomial(i, n, p0);
        if (l <= observed + 1e-7 * fabs(observed) + 1e-12)
            p += exp(l);
    }
    return p > 1 ? 1 : p;
}

double an_mcnemar_exact(long b, long c)
{
    return b + c > 0 ? an_binomial_test(b, b + c, 0.5) : 1;
}

/* ---- power: one calculation, for the tests the report makes ---- */

/* P(X <= k), X ~ Bin(n, p), by the incomplete beta function (Numerical Recipes 6.4). */
static double binomial_cdf(long k, long n, double p)
{
    if (k < 0)
        return 0;
    if (k >= n)
        return 1;
    return 1 - incomplete_beta((double)k + 1, (double)(n - k), p);
}

/* The most likely outcome of Bin(n, p). */
static long binomial_mode(long n, double p)
{
    const long mode = (long)floor((double)(n + 1) * p);
    return mode > n ? n : mode;
}

/* The unimodal binomial probabilities (and the exact test's p-value, which follows them):
 * a question about outcome x of Bin(n, p0), "at or below the limit" or "rejected". */
typedef struct outcome_question {
    long n;
    double p0, limit; /* limit: a log probability, or the test's level */
    bool by_p_value;  /* ask p(x) < limit, else log P(X = x) <= limit */
} outcome_question;

static double binomial_p_tails(long k, long n, double p0);

static bool answer(const outcome_question *q, long x)
{
    return q->by_p_value ? binomial_p_tails(x, q->n, q->p0) < q->limit
                         : log_binomial(x, q->n, q->p0) <= q->limit;
}

/* Bisection over (lo, hi) where the answer changes once: rising (true up to some x, then
 * false) gives the last true x (lo when none); falling (false, then true) the first true x
 * (hi when none). */
static long bisect(const outcome_question *q, long lo, long hi, bool rising)
{
    while (hi - lo > 1) {
        const long mid = lo + (hi - lo) / 2;
        if (answer(q, mid) == rising)
            lo = mid;
        else
            hi = mid;
    }
    return rising ? lo : hi;
}

/* an_binomial_test's p-value by two tail sums: the outcomes no more likely than k (the same
 * tolerance for ties) are [0, a] and [b, n], the probability rising to the mode and falling
 * after it, so a and b are found by bisection: O(log n) where the direct sum is O(n). */
static double binomial_p_tails(long k, long n, double p0)
{
    const double observed = log_binomial(k, n, p0);
    const outcome_question q = {n, p0, observed + 1e-7 * fabs(observed) + 1e-12, false};
    const long mode = binomial_mode(n, p0);
    if (answer(&q, mode))
        return 1;
    const long a = bisect(&q, -1, mode, true), b = bisect(&q, mode, n + 1, false);
    const double p = binomial_cdf(a, n, p0) + (1 - binomial_cdf(b - 1, n, p0));
    return p > 1 ? 1 : p;
}

/* The outcomes the exact test rejects at `alpha` (p < alpha): k <= *low or k >= *high. The
 * p-value rises towards the mode and falls after it, so each bound is a bisection. */
static void binomial_region(long n, double p0, double alpha, long *low, long *high)
{
    const outcome_question q = {n, p0, alpha, true};
    const long mode = binomial_mode(n, p0);
    *low = bisect(&q, -1, mode, true);
    *high = bisect(&q, mode, n + 1, false);
}

double an_binomial_p_fast(long k, long n, double p0)
{
    return n > 0 && k >= 0 && k <= n ? binomial_p_tails(k, n, p0) : NAN;
}

/* The power with exactly d informative units. */
static double power_given(long d, double p0, double theta, double alpha)
{
    if (d <= 0)
        return 0;
    long low, high;
    binomial_region(d, p0, alpha, &low, &high);
    return binomial_cdf(low, d, theta) + (1 - binomial_cdf(high - 1, d, theta));
}

double an_test_power(long units, double rate, double p0, double theta, double alpha)
{
    if (units <= 0 || !(rate > 0 && rate <= 1) || !(p0 > 0 && p0 < 1) ||
        !(theta >= 0 && theta <= 1) || !(alpha > 0 && alpha < 1))
        return NAN;
    if (rate >= 1)
        return power_given(units, p0, theta, alpha);
    /* D ~ Bin(units, rate): sum over D within 8 standard deviations of its mean (the rest
     * weighs less than 1e-14) */
    const double mean = (double)units * rate, sd = sqrt(mean * (1 - rate));
    const long from = (long)fmax(0, floor(mean - 8 * sd - 1));
    const long to = (long)fmin((double)units, ceil(mean + 8 * sd + 1));
    double power = 0;
    for (long d = from; d <= to; d++)
        power += exp(log_binomial(d, units, rate)) * power_given(d, p0, theta, alpha);
    return power;
}

double an_units_for_power(double rate, double p0, double theta, double alpha, double target,
                          double *power)
{
    *power = NAN;
    if (!(theta != p0) || !(target > 0 && target < 1))
        return NAN;
    /* double until the power is reached, then bisect: the discrete test's power rises in
     * small saw-teeth, so this finds a size that reaches the target, reported with its
     * power (not necessarily the very smallest) */
    long hi = 2;
    double at_hi = an_test_power(hi, rate, p0, theta, alpha);
    while (!(at_hi >= target)) {
        if (!isfinite(at_hi) || hi > AN_MAX_UNITS / 2)
            return NAN;
        hi *= 2;
        at_hi = an_test_power(hi, rate, p0, theta, alpha);
    }
    long lo = hi / 2;
    while (hi - lo > 1) {
        const long mid = lo + (hi - lo) / 2;
        const double at = an_test_power(mid, rate, p0, theta, alpha);
        if (at >= target)
            hi = mid, at_hi = at;
        else
            lo = mid;
    }
    *power = at_hi;
    return (double)hi;
}

double an_games_to_detect(const an_advantage_test *t, double edge, double alpha, double *power)
{
    *power = NAN;
    if (t->units <= 0 || t->informative <= 0)
        return NAN;
    const double rate = (double)t->informative / (double)t->units;
    /* paired: the side's share of the games is 1/2 + (P(won both) - P(lost both)) / 2, so an
     * edge e with the informative deals' rate r held puts P(won both | informative) at
     * 1/2 + e / r; unpaired: the side's share of the decided games is p0 + e */
    const double theta = t->paired ? 0.5 + edge / rate : t->p0 + edge;
    if (!(theta > 0 && theta < 1))
        return NAN;
    const double units =
        an_units_for_power(rate, t->paired ? 0.5 : t->p0, theta, alpha, 0.8, power);
    return units * t->games_per_unit;
}

void an_holm(const double *p, int m, double *adjusted)
{
    int order[AN_MAX_TESTS], tests = 0;
    for (int i = 0; i < m; i++) {
        adjusted[i] = NAN;
        if (isfinite(p[i]) && tests < AN_MAX_TESTS)
            order[tests++] = i;
    }
    /* ascending p (insertion sort: the families are small), ties in input order */
    for (int i = 1; i < tests; i++)
        for (int j = i; j > 0 && p[order[j - 1]] > p[order[j]]; j--) {
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    double running = 0; /* step-down: never below an earlier (smaller) p's adjustment */
    for (int k = 0; k < tests; k++) {
        running = fmax(running, fmin(1, (double)(tests - k) * p[order[k]]));
        adjusted[order[k]] = running;
    }
}

void an_format_p(double p, char *buf, size_t size)
{
    if (!isfinite(p))
        snprintf(buf, size, "n/a");
    else if (p < 0.001)
        snprintf(buf, size, "< 0.001");
    else
        snprintf(buf, size, "= %.2g", p);
}

int an_decimals(double value, double low, double high)
{
    const double width = high - low;
    int d = 1;
    if (isfinite(width) && width > 0)
        d = 1 - (int)floor(log10(width));
    else if (isfinite(value) && value != 0)
        d = 2 - (int)floor(log10(fabs(value)));
    return d < 1 ? 1 : d > 8 ? 8 : d;
}

void an_format_difference(double value, double low, double high, double scale, const char *unit,
                          char *buf, size_t size)
{
    const int d = an_decimals(scale * value, scale * low, scale * high);
    snprintf(buf, size, "%+.*f%s [%+.*f, %+.*f]", d, scale * value, unit, d, scale * low, d,
             scale * high);
}
