/* registry.c — the explicit table of every game Ramparts knows, in the order `ramparts list`
 * shows them. A game is added by writing one line here (no static constructors). */
#include <string.h>

#include "ramparts/game.h"

extern const rp_game rp_danger_at_the_walls;
extern const rp_game rp_king_of_danger;
extern const rp_game rp_rush_the_wall;
extern const rp_game rp_castle_danger;
extern const rp_game rp_walls_and_armies;

const rp_game *const rp_games[] = {
    /* danger-at-the-walls */
    &rp_danger_at_the_walls,

    /* king-of-danger */
    &rp_king_of_danger,

    /* rush-the-wall */
    &rp_rush_the_wall,

    /* castle-danger */
    &rp_castle_danger,

    /* walls-and-armies */
    &rp_walls_and_armies,

    NULL,
};

const int rp_num_games = (int)(sizeof rp_games / sizeof rp_games[0]) - 1;

const rp_game *rp_game_find(const char *id)
{
    for (int i = 0; i < rp_num_games; i++)
        if (strcmp(rp_games[i]->id, id) == 0)
            return rp_games[i];
    return NULL;
}
