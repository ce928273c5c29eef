/* think_time.h — how a search under a time budget (ms=) spends it: spread=S shares a game's
 * thinking time among its decisions by how many moves each offers, from a bank that is never
 * spent ahead, and a search may stop once its choice can no longer change. */
#ifndef RP_AI_THINK_TIME_H
#define RP_AI_THINK_TIME_H

#include <stdbool.h>
#include <stdint.h>

/* The time kept over one game's decisions (an AI plays one game; the server makes one per
 * move, whose bank never holds more than that move's ms). */
typedef struct rp_time_bank {
    double ms;         /* accrued and not yet spent (negative after an overrun) */
    double weight_sum; /* the weights of every decision with a choice so far */
    long decisions;
} rp_time_bank;

/* The thinking time of a decision among `legal` moves (2 or more) when each such decision
 * brings ms: with spread 0, ms; else ms (plus a quarter of what earlier decisions left)
 * times this decision's weight, (legal - 1)^spread, over the mean weight so far, and never
 * more than the bank holds. Counts the decision into the bank. */
double rp_time_allot(rp_time_bank *bank, double ms, double spread, int legal);

/* A decision took used_ms: the bank pays it (an overrun is paid back by later decisions). */
void rp_time_spend(rp_time_bank *bank, double used_ms);

/* The most visited root edge (first visits) leads the next (second) by more than the
 * iterations left at this pace could add to the next: the move played cannot change. */
bool rp_choice_settled(uint32_t first, uint32_t second, uint64_t iterations, double elapsed_ns,
                       double left_ns);

#endif
