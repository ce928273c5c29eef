/* legal.h — internal: whether an action is among a state's legal actions, for a game's own
 * files (explain_illegal), which call the game's legal_actions directly: they never use the
 * game's rp_game table, which sits above them (game.c). rp_is_legal is this on the table. */
#ifndef RP_CORE_LEGAL_H
#define RP_CORE_LEGAL_H

#include <stdbool.h>

#include "ramparts/game.h"

/* A game's legal_actions hook. */
typedef int (*rp_legal_lister)(const void *st, rp_action *out);

static inline bool rp__is_legal_by(rp_legal_lister legal_actions, const void *st, rp_action action)
{
    rp_action legal[RP_MAX_LEGAL];
    const int n = legal_actions(st, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == action)
            return true;
    return false;
}

#endif
