/* analyze_metrics.c — the metrics of `ramparts analyze` computed from plain arrays, so a test
 * can check each against a hand-computed case: Ludii's state-evaluation metrics of one game and
 * their course over its thirds (lead changes, branching, decision factor), the clarity of a
 * position's moves, comebacks, kingmaking, and the skill trace over a ladder's steps. */
#include <math.h>

#include "analyze.h"

/* The seats sharing the highest evaluation in a row, as a mask. */
static unsigned leaders(const double *row, int players)
{
    double best = -1;
    unsigned mask = 0;
    for (int p = 0; p < players; p++) {
        if (row[p] > best + 1e-12) {
            best = row[p];
            mask = 1u << p;
        } else if (fabs(row[p] - best) <= 1e-12) {
            mask |= 1u << p;
        }
    }
    return mask;
}

/* The third of the game (0 opening, 1 middle, 2 end) that state t of `states` falls in. */
static int phase_of(long t, long states)
{
    const long phase = 3 * t / states;
    return phase > 2 ? 2 : (int)phase;
}

/* Ludii's LeadChange, Stability, Drama and DecisivenessMoves (analyze_report.c's table gives
 * their definitions), and the lead changes of each third. */
static void evaluation_metrics(const an_trace *t, an_game *g)
{
    const int n = t->players;
    long changes = 0, phase_changes[3] = {0}, phase_states[3] = {0};
    for (long s = 0; s < t->states; s++) {
        const int phase = phase_of(s, t->states);
        phase_states[phase]++;
        if (s > 0 && leaders(t->evals + s * n, n) != leaders(t->evals + (s - 1) * n, n)) {
            changes++;
            phase_changes[phase]++;
        }
    }
    g->lead_change = (double)changes / (double)t->states;
    for (int k = 0; k < 3; k++)
        g->phase_lead_change[k] =
            phase_states[k] ? (double)phase_changes[k] / (double)phase_states[k] : NAN;
    double variance_sum = 0;
    for (int p = 0; p < n; p++) {
        double mean = 0, var = 0;
        for (long s = 0; s < t->states; s++)
            mean += t->evals[s * n + p] / (double)t->states;
        for (long s = 0; s < t->states; s++)
            var += pow(t->evals[s * n + p] - mean, 2) / (double)t->states;
        variance_sum += var;
    }
    g->stability = variance_sum;
}

/* Drama, decisiveness and the comeback: the ones that need a sole winner. */
static void winner_metrics(const an_trace *t, an_game *g)
{
    const int n = t->players, w = t->winner;
    double drama = 0, threshold = -1;
    for (long s = 0; s < t->states; s++) {
        const double *row = t->evals + s * n;
        double best = row[0];
        for (int p = 0; p < n; p++) {
            best = row[p] > best ? row[p] : best;
            if (p != w && row[p] > threshold)
                threshold = row[p];
        }
        drama += (best - row[w]) / (double)t->states;
    }
    g->drama = drama;
    long first_above = t->states;
    for (long s = 0; s < t->states && first_above == t->states; s++)
        if (t->evals[s * n + w] > threshold)
            first_above = s;
    g->decisiveness = (double)first_above / (double)t->states;
    /* a comeback: the eventual winner was not among the leaders half-way through */
    g->comeback = (leaders(t->evals + (t->states / 2) * n, n) >> w & 1u) ? 0 : 1;
}

/* Kingmaking (three or more players): a decision by a seat that did not win, made while its
 * evaluation was the lowest of all (out of contention), after which the eventual winner leads
 * alone where it did not before (the game's end counts as the winner leading). */
static void kingmaking(const an_trace *t, an_game *g)
{
    const int n = t->players, w = t->winner;
    g->kingmaking = 0;
    for (long s = 0; s < t->states; s++) {
        const double *row = t->evals + s * n;
        const int m = t->movers[s];
        if (m == w || t->legal[s] < 2 || m < 0 || m >= n)
            continue;
        bool lowest = true;
        for (int p = 0; p < n; p++)
            lowest = lowest && (p == m || row[p] > row[m]);
        const unsigned before = leaders(row, n);
        const unsigned after = s + 1 < t->states ? leaders(row + n, n) : 1u << w;
        if (lowest && before != 1u << w && after == 1u << w) {
            g->kingmaking = 1;
            return;
        }
    }
}

void an_trace_metrics(const an_trace *t, an_game *g)
{
    g->lead_change = g->stability = g->drama = g->decisiveness = NAN;
    g->comeback = g->kingmaking = g->decision_factor = NAN;
    double legal_sum[3] = {0}, decision_sum[3] = {0}, all_decisions = 0;
    long states[3] = {0}, decisions[3] = {0}, decision_count = 0;
    for (long s = 0; s < t->states; s++) {
        const int phase = phase_of(s, t->states);
        legal_sum[phase] += t->legal[s];
        states[phase]++;
        if (t->legal[s] > 1) {
            decision_sum[phase] += t->legal[s];
            decisions[phase]++;
            all_decisions += t->legal[s];
            decision_count++;
        }
    }
    for (int k = 0; k < 3; k++) {
        g->phase_branching[k] = states[k] ? legal_sum[k] / (double)states[k] : NAN;
        g->phase_decision[k] = decisions[k] ? decision_sum[k] / (double)decisions[k] : NAN;
        g->phase_lead_change[k] = NAN;
    }
    if (decision_count)
        g->decision_factor = all_decisions / (double)decision_count;
    if (!t->evals || t->states == 0)
        return;
    evaluation_metrics(t, g);
    if (t->winner < 0)
        return;
    winner_metrics(t, g);
    if (t->players >= 3)
        kingmaking(t, g);
}

void an_clarity(const double *values, int n, double *variance, double *narrowness)
{
    *variance = *narrowness = NAN;
    if (n <= 0)
        return;
    double mean = 0, best = values[0];
    for (int i = 0; i < n; i++) {
        mean += values[i] / n;
        best = values[i] > best ? values[i] : best;
    }
    double var = 0;
    int above = 0;
    const double threshold = mean + 0.75 * (best - mean);
    for (int i = 0; i < n; i++) {
        var += (values[i] - mean) * (values[i] - mean) / n;
        above += values[i] > threshold;
    }
    *variance = var;
    *narrowness = (double)above / n;
}

double an_skill_trace(const double *score, int steps)
{
    if (steps < 2)
        return NAN;
    double mx = 0, my = 0, area = 0;
    for (int k = 0; k < steps; k++) {
        if (!isfinite(score[k]))
            return NAN;
        mx += (double)k / steps;
        my += score[k] / steps;
        area += pow(fmax(score[k], 0), 2) / steps;
    }
    double sxy = 0, sxx = 0;
    for (int k = 0; k < steps; k++) {
        sxy += (k - mx) * (score[k] - my);
        sxx += (k - mx) * (k - mx);
    }
    /* Ludii predicts the regression line one step past the next (x = steps + 1) */
    const double next = fmin(1, fmax(0, my + sxy / sxx * (steps + 1 - mx)));
    return next + (1 - next) * area;
}
