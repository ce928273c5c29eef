/* think_time.c — a game's thinking time shared among its decisions (spread=S under ms=), and
 * the test that ends a search whose choice is settled; see think_time.h. A choice between
 * two draws thinks a little and a choice among thirty plays much longer, while over the game
 * the time stays ms a decision with a choice, as for a search that thinks ms every time. */
#include "think_time.h"

#include <math.h>

/* What earlier decisions left comes back this fast: a quarter at each decision, so a game
 * ends with little unspent and no one decision takes it all. */
#define LEFTOVER_SHARE 4.0

double rp_time_allot(rp_time_bank *bank, double ms, double spread, int legal)
{
    if (spread <= 0)
        return ms;
    const double weight = pow((double)(legal > 1 ? legal - 1 : 1), spread);
    const double leftover = bank->ms;
    bank->ms += ms;
    bank->weight_sum += weight;
    bank->decisions++;
    const double mean_weight = bank->weight_sum / (double)bank->decisions;
    const double want = (ms + leftover / LEFTOVER_SHARE) * weight / mean_weight;
    if (want > bank->ms)
        return bank->ms > 0 ? bank->ms : 0;
    return want > 0 ? want : 0;
}

void rp_time_spend(rp_time_bank *bank, double used_ms)
{
    bank->ms -= used_ms;
}

bool rp_choice_settled(uint32_t first, uint32_t second, uint64_t iterations, double elapsed_ns,
                       double left_ns)
{
    if (elapsed_ns <= 0 || first <= second)
        return false;
    return (double)(first - second) > (double)iterations * left_ns / elapsed_ns;
}
