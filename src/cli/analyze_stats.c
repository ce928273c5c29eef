/* analyze_stats.c — the statistics of `ramparts analyze`: Wilson intervals for shares, Student's
 * t interval over deals (the unit of a paired design), exact binomial and McNemar tests, the
 * games needed to detect a difference, and a seeded percentile bootstrap over deals (pairs of
 * games kept together) for every other figure and for paired differences between a rule
 * variant and the base rules. */
#include <math.h>
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

double an_games_to_detect(double p0, double p1)
{
    if (!(p0 > 0 && p0 < 1 && p1 > 0 && p1 < 1) || p0 == p1)
        return NAN;
    const double za = an_normal_quantile(0.975), zb = an_normal_quantile(0.80);
    const double root = za * sqrt(p0 * (1 - p0)) + zb * sqrt(p1 * (1 - p1));
    return ceil(root * root / ((p1 - p0) * (p1 - p0)));
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
