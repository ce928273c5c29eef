/* glicko2.c — Glickman's Glicko-2 algorithm, steps 1 to 8 of "Example of the Glicko-2
 * system", with the Illinois algorithm for the new volatility (step 5). Pure arithmetic. */
#include "glicko2.h"

#include <math.h>

#define PI 3.14159265358979323846
#define SCALE 173.7178   /* Glicko-2 scale factor (step 2) */
#define EPSILON 0.000001 /* convergence tolerance of step 5 */
#define MAX_ITERATIONS 100

rs_rating rs_glicko2_default(void)
{
    return (rs_rating){RS_GLICKO2_DEFAULT_RATING, RS_GLICKO2_DEFAULT_RD, RS_GLICKO2_DEFAULT_VOL};
}

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* f(x) of step 5.2. */
static double vol_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility by the Illinois (regula falsi) iteration. */
static double new_volatility(double sigma, double phi, double v, double delta, double tau)
{
    const double a = log(sigma * sigma);
    double big_a = a, big_b;
    if (delta * delta > phi * phi + v) {
        big_b = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (vol_f(a - k * tau, delta, phi, v, a, tau) < 0 && k < MAX_ITERATIONS)
            k++;
        big_b = a - k * tau;
    }
    double f_a = vol_f(big_a, delta, phi, v, a, tau);
    double f_b = vol_f(big_b, delta, phi, v, a, tau);
    for (int i = 0; fabs(big_b - big_a) > EPSILON && i < MAX_ITERATIONS; i++) {
        double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        double f_c = vol_f(big_c, delta, phi, v, a, tau);
        if (f_c * f_b <= 0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    return exp(big_a / 2.0);
}

rs_rating rs_glicko2_update(rs_rating player, const rs_glicko2_game *games, int n, double tau)
{
    const double mu = (player.rating - 1500.0) / SCALE;
    const double phi = player.rd / SCALE;
    if (n <= 0) {
        /* Step 6 alone: a period without games widens the deviation. */
        double phi_star = sqrt(phi * phi + player.vol * player.vol);
        double rd = fmin(phi_star * SCALE, RS_GLICKO2_DEFAULT_RD);
        return (rs_rating){player.rating, rd, player.vol};
    }
    double v_inv = 0.0, sum = 0.0;
    for (int j = 0; j < n; j++) {
        double mu_j = (games[j].opponent.rating - 1500.0) / SCALE;
        double phi_j = games[j].opponent.rd / SCALE;
        double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        v_inv += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    const double v = 1.0 / v_inv;
    const double delta = v * sum;
    const double sigma = new_volatility(player.vol, phi, v, delta, tau);
    const double phi_star = sqrt(phi * phi + sigma * sigma);
    const double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new = mu + phi_new * phi_new * sum;
    return (rs_rating){mu_new * SCALE + 1500.0, fmin(phi_new * SCALE, RS_GLICKO2_DEFAULT_RD),
                       sigma};
}
