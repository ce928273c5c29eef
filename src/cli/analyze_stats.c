/* analyze_stats.c — the intervals of `ramparts analyze`: Wilson intervals for shares, and a
 * seeded percentile bootstrap over deals (pairs of games kept together) for every other figure
 * and for paired differences between a rule variant and the base rules. */
#include <math.h>
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
        long at_or_below = 0, at_or_above = 0, finite = 0;
        for (int s = 0; s < BOOTSTRAP_SAMPLES; s++) {
            const long n = resample(&base, &rng, idx);
            const double d = fig(&other, idx, n, ctx) - fig(&base, idx, n, ctx);
            samples[s] = d;
            if (isfinite(d)) {
                finite++;
                at_or_below += d <= 0;
                at_or_above += d >= 0;
            }
        }
        if (finite > 0) {
            /* two-sided: twice the smaller tail beyond zero, at most 1 */
            const long tail = at_or_below < at_or_above ? at_or_below : at_or_above;
            const double p = 2.0 * (double)tail / (double)finite;
            *p_value = p > 1 ? 1 : p;
        }
        percentiles(samples, BOOTSTRAP_SAMPLES, &r);
    }
    free(all), free(idx), free(samples);
    return r;
}
