/* table_query.c — what the referee, its messages (table_view.c) and the server ask of a
 * table without changing it: who sits where, whose turn it is, the game's traits. */
#include <stdio.h>

#include "table.h"

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
    if (t->row.status != RS_GAME_LIVE)
        return -1;
    int p = t->game->current_player(&t->match.state);
    return p >= 0 ? p : -1;
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
