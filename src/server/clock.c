/* clock.c — see clock.h. Remaining time is stored minus the running seat's pending time, as a
 * chess clock's state is (scalachess Clock): one stamp, no ticking. */
#include "clock.h"

#include <string.h>

void rs_clock_init(rs_clock *c, rs_clock_kind kind, int64_t initial_ms, int64_t increment_ms,
                   int64_t per_move_ms, int seats)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->initial_ms = initial_ms;
    c->increment_ms = increment_ms;
    c->per_move_ms = per_move_ms;
    c->seats = seats;
    c->running = -1;
    for (int s = 0; s < seats && s < RP_MAX_PLAYERS; s++)
        c->remaining_ms[s] = kind == RS_CLOCK_CORRESPONDENCE ? per_move_ms : initial_ms;
}

void rs_clock_start(rs_clock *c, int seat, int64_t now_us)
{
    if (c->kind == RS_CLOCK_NONE || seat < 0 || seat >= c->seats)
        return;
    c->running = seat;
    c->stamp_us = now_us;
    if (c->kind == RS_CLOCK_CORRESPONDENCE)
        c->remaining_ms[seat] = c->per_move_ms;
}

static int64_t elapsed_ms(const rs_clock *c, int64_t now_us)
{
    int64_t us = now_us - c->stamp_us;
    return us > 0 ? us / 1000 : 0;
}

bool rs_clock_charge(rs_clock *c, int64_t now_us, bool turn_over)
{
    if (c->kind == RS_CLOCK_NONE || c->running < 0)
        return true;
    const int seat = c->running;
    int64_t left = c->remaining_ms[seat] - elapsed_ms(c, now_us);
    bool in_time = left > 0;
    if (turn_over && in_time && c->kind == RS_CLOCK_LIVE)
        left += c->increment_ms;
    c->remaining_ms[seat] = left;
    c->stamp_us = now_us;
    if (turn_over)
        c->running = -1;
    return in_time;
}

void rs_clock_stop(rs_clock *c, int64_t now_us)
{
    rs_clock_charge(c, now_us, false);
    c->running = -1;
}

int64_t rs_clock_remaining_ms(const rs_clock *c, int seat, int64_t now_us)
{
    if (seat < 0 || seat >= c->seats)
        return 0;
    if (seat != c->running)
        return c->remaining_ms[seat];
    return c->remaining_ms[seat] - elapsed_ms(c, now_us);
}

int rs_clock_flagged(const rs_clock *c, int64_t now_us)
{
    if (c->kind == RS_CLOCK_NONE || c->running < 0)
        return -1;
    return rs_clock_remaining_ms(c, c->running, now_us) <= 0 ? c->running : -1;
}

int64_t rs_clock_deadline_us(const rs_clock *c)
{
    if (c->kind == RS_CLOCK_NONE || c->running < 0)
        return RS_CLOCK_NEVER;
    return c->stamp_us + c->remaining_ms[c->running] * 1000;
}

void rs_clock_resume(rs_clock *c, int64_t charged_ms, int64_t now_us)
{
    if (c->kind == RS_CLOCK_NONE || c->running < 0)
        return;
    if (charged_ms > 0)
        c->remaining_ms[c->running] -= charged_ms;
    c->stamp_us = now_us;
}
