/* rules.c — finds a game's rules document in the table generated from the docs/rules documents. */
#include <string.h>

#include "ramparts/game.h"

struct rp_rules_entry {
    const char *id;
    const char *text;
};
extern const struct rp_rules_entry rp_rules_table[];

const char *rp_game_rules(const rp_game *game)
{
    for (const struct rp_rules_entry *e = rp_rules_table; e->id; e++)
        if (strcmp(e->id, game->id) == 0)
            return e->text;
    return NULL;
}
