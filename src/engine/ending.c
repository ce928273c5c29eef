/* ending.c — how a match ends and what it gives: the endings that are not the rules'
 * (resignation, time, abandonment, agreement, adjudication, decision) as history entries with
 * their losers, each seat's share of the win, and the status line records carry. The server,
 * the terminal and the offline page end games only through here, so every record says how
 * its game ended the same way. */
#include <string.h>

#include "internal.h"

static const char *const end_words[RP_NUM_ENDS] = {NULL,     "resigned",    "time",   "abandoned",
                                                   "agreed", "adjudicated", "decided"};

const char *rp_end_word(rp_end reason)
{
    return (unsigned)reason < RP_NUM_ENDS ? end_words[reason] : NULL;
}

rp_end rp_end_from_word(const char *word)
{
    for (int r = 1; r < RP_NUM_ENDS; r++)
        if (strcmp(word, end_words[r]) == 0)
            return (rp_end)r;
    return RP_END_NONE;
}

static int count_seats(uint32_t seats)
{
    int n = 0;
    for (; seats; seats &= seats - 1)
        n++;
    return n;
}

/* Whether `reason` may end m with `losers` (rp_match_end's rules), else why not. */
static int check_end(const rp_match *m, rp_end reason, uint32_t losers, rp_error *err)
{
    const int players = rp_match_players(m);
    const uint32_t every = (1u << players) - 1;
    const int count = count_seats(losers);
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    if (reason <= RP_END_NONE || reason >= RP_NUM_ENDS)
        return rp_fail(err, RP_EINVAL, "no such ending (%d)", (int)reason);
    if (losers & ~every)
        return rp_fail(err, RP_EINVAL, "no such seat among the losers: seats are 0 to %d",
                       players - 1);
    switch (reason) {
    case RP_END_RESIGNED:
        if (count != 1)
            return rp_fail(err, RP_EINVAL, "one seat resigns at a time");
        break;
    case RP_END_TIME:
    case RP_END_ABANDONED:
        if (count == 0)
            return rp_fail(err, RP_EINVAL, "'%s' needs the seats that lose", rp_end_word(reason));
        break;
    case RP_END_AGREED:
        if (count != 0)
            return rp_fail(err, RP_EINVAL, "an agreed draw has no loser");
        if (!(m->game->flags & RP_CAN_DRAW))
            return rp_fail(err, RP_EINVAL, "%s always has a winner: no draw can be agreed",
                           m->game->title);
        break;
    default: /* adjudicated, decided: any losers, everyone included */
        break;
    }
    return RP_OK;
}

int rp_match_end(rp_match *m, rp_end reason, uint32_t losers, rp_error *err)
{
    int rc = check_end(m, reason, losers, err);
    if (rc < 0)
        return rc;
    int seat = 0;
    while (losers && !(losers & 1u << seat))
        seat++;
    rp__entry e = {
        .kind = RP_ENTRY_END, .seat = losers ? seat : -1, .seats = losers, .reason = reason};
    rc = rp__push_entry(m, e, err);
    if (rc < 0)
        return rc;
    m->end = reason;
    m->losers = losers;
    return RP_OK;
}

int rp_match_resign(rp_match *m, int seat, rp_error *err)
{
    if (rp_match_over(m))
        return rp_fail(err, RP_EOVER, "the game is over");
    if (seat < 0 || seat >= rp_match_players(m))
        return rp_fail(err, RP_EINVAL, "no seat %d", seat);
    return rp_match_end(m, RP_END_RESIGNED, 1u << seat, err);
}

rp_end rp_match_end_reason(const rp_match *m)
{
    return m->end;
}

uint32_t rp_match_losers(const rp_match *m)
{
    return m->losers;
}

void rp_match_returns(const rp_match *m, double *out)
{
    const int players = rp_match_players(m);
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        out[p] = 0;
    if (m->end == RP_END_NONE) {
        if (m->game->current_player(&m->state) == RP_TERMINAL)
            m->game->returns(&m->state, out);
        return;
    }
    const int others = players - count_seats(m->losers);
    for (int p = 0; p < players; p++)
        out[p] = m->losers & 1u << p ? 0.0 : 1.0 / others;
}

/* "0+2": the seats of a mask, lowest first. */
static int seats_text(uint32_t seats, char *buf, size_t size)
{
    int n = 0;
    buf[0] = '\0';
    for (int p = 0; p < RP_MAX_PLAYERS && n >= 0 && (size_t)n < size; p++)
        if (seats & 1u << p)
            n += snprintf(buf + n, size - (size_t)n, "%s%d", n ? "+" : "", p);
    return n;
}

void rp_match_status(const rp_match *m, char *buf, size_t size)
{
    if (!rp_match_over(m)) {
        snprintf(buf, size, "ongoing");
        return;
    }
    double r[RP_MAX_PLAYERS];
    rp_match_returns(m, r);
    const int players = rp_match_players(m);
    int winners = 0, winner = -1;
    for (int p = 0; p < players; p++)
        if (r[p] > 0) {
            winners++;
            winner = p;
        }
    int n;
    if (m->end != RP_END_NONE) {
        char losers[32];
        seats_text(m->losers, losers, sizeof losers);
        n = snprintf(buf, size, "over %s%s%s returns", rp_end_word(m->end), *losers ? " " : "",
                     losers);
    } else if (winners == 1) {
        n = snprintf(buf, size, "over winner %d returns", winner);
    } else {
        n = snprintf(buf, size, "over shared returns");
    }
    for (int p = 0; p < players && n > 0 && (size_t)n < size; p++)
        n += snprintf(buf + n, size - (size_t)n, " %.4g", r[p]);
}
