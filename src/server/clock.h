/* clock.h — a game's clocks as time used plus one start stamp (never a ticking counter), in
 * monotonic microseconds that the caller passes in, so tests drive time by hand. Live games
 * have initial time plus an increment per turn; correspondence games a fixed time per move. */
#ifndef RS_CLOCK_H
#define RS_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "ramparts/game.h"

typedef enum rs_clock_kind {
    RS_CLOCK_NONE,          /* untimed */
    RS_CLOCK_LIVE,          /* initial + increment, Fischer style */
    RS_CLOCK_CORRESPONDENCE /* a fixed time for each move */
} rs_clock_kind;

typedef struct rs_clock {
    rs_clock_kind kind;
    int64_t initial_ms;   /* LIVE: each seat's starting time */
    int64_t increment_ms; /* LIVE: added when a seat ends its turn in time */
    int64_t per_move_ms;  /* CORRESPONDENCE: the time for each turn */
    int seats;
    int64_t remaining_ms[RP_MAX_PLAYERS]; /* at the last stamp */
    int running;                          /* the seat whose time runs, or -1 */
    int64_t stamp_us;                     /* when `running` last started or was charged */
} rs_clock;

#define RS_CLOCK_NEVER INT64_MAX

/* Set up stopped clocks with every seat's full time. */
void rs_clock_init(rs_clock *c, rs_clock_kind kind, int64_t initial_ms, int64_t increment_ms,
                   int64_t per_move_ms, int seats);

/* Start `seat`'s time at now (a new turn: correspondence clocks get their full time). */
void rs_clock_start(rs_clock *c, int seat, int64_t now_us);

/* Charge the running seat for the time since its stamp. When `turn_over`, its turn ended
 * with this action: it gets the increment if still in time, and the clock stops until the
 * next rs_clock_start; otherwise it keeps running from now. Returns false (charging the time
 * anyway) when the seat was already out of time. */
bool rs_clock_charge(rs_clock *c, int64_t now_us, bool turn_over);

/* Stop the clock at now, charging the running seat (the game is over). */
void rs_clock_stop(rs_clock *c, int64_t now_us);

/* A seat's time left at now (negative once out of time); the full time when untimed. */
int64_t rs_clock_remaining_ms(const rs_clock *c, int seat, int64_t now_us);

/* The seat out of time at now, or -1. */
int rs_clock_flagged(const rs_clock *c, int64_t now_us);

/* When the running seat runs out, in the same microseconds; RS_CLOCK_NEVER when untimed or
 * stopped. */
int64_t rs_clock_deadline_us(const rs_clock *c);

/* After a restart: charge the running seat `charged_ms` (the time it used between its stamp
 * and the server's last sign of life, which the stored stamp did not yet include) and restart
 * its stamp at now. The downtime itself is charged to nobody. */
void rs_clock_resume(rs_clock *c, int64_t charged_ms, int64_t now_us);

#endif
