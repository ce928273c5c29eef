/* table_query.c — what the referee, its messages (table_view.c) and the server ask of a
 * table without changing it (table_query.h): who sits where, whose turn it is, who is
 * connected, whether a takeback or an expiry could happen, the game's traits. */
#include <stdio.h>

#include "table_query.h"

/* Games whose rules can end in a draw, so a draw may also be agreed: the game's trait. */
bool rs_game_can_draw(const rp_game *game)
{
    return (game->flags & RP_CAN_DRAW) != 0;
}

const char *rs_status_word(rs_game_status status)
{
    static const char *const words[] = {"open", "live", "over", "aborted"};
    return status <= RS_GAME_ABORTED ? words[status] : "?";
}

int rs_table_seat_of(const rs_table *t, int64_t user)
{
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_HUMAN && t->row.seat[s].user_id == user)
            return s;
    return -1;
}

int rs_table_to_move(const rs_table *t)
{
    if (t->row.status != RS_GAME_LIVE || !t->match)
        return -1;
    int p = rp_match_to_move(t->match);
    return p >= 0 ? p : -1;
}

bool rs_table_can_take_back(const rs_table *t, int seat)
{
    if (t->row.rated || seat < 0 || t->row.status != RS_GAME_LIVE || !t->match)
        return false;
    return rp_match_takeback_from(t->match, seat, NULL, NULL) == RP_OK;
}

void rs_table_rename(rs_table *t, int64_t user, const char *name)
{
    for (int s = 0; s < t->row.seats; s++)
        if ((t->row.seat[s].kind == RS_SEAT_HUMAN || t->row.seat[s].kind == RS_SEAT_RESERVED) &&
            t->row.seat[s].user_id == user)
            snprintf(t->names[s], sizeof t->names[s], "%s", name);
}

bool rs_table_all_human(const rs_table *t)
{
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_AI)
            return false;
    return true;
}

bool rs_table_seat_connected(const rs_table *t, int seat)
{
    return t->connections[seat] > 0 || (t->remote_seats & (1u << seat));
}

/* ---- expiry of games nobody comes back to ---- */

bool rs_table_expirable(const rs_table *t, int64_t now_us, int64_t after_ms)
{
    const bool open = t->row.status == RS_GAME_OPEN;
    if (!open && (t->row.status != RS_GAME_LIVE || rs_table_all_human(t) ||
                  t->row.clock_kind == RS_CLOCK_CORRESPONDENCE))
        return false;
    if (now_us - t->kept_since_us < after_ms * 1000)
        return false;
    for (int s = 0; s < t->row.seats; s++)
        if (t->row.seat[s].kind == RS_SEAT_HUMAN &&
            (rs_table_seat_connected(t, s) || now_us - t->gone_since_us[s] < after_ms * 1000))
            return false;
    return true;
}
