/* ramparts/ai.h — computer players, generic over the game interface. An AI is made from a
 * spec string ("random", "greedy", "hard", "ismcts:ms=500,threads=2") and asked for a move in
 * a state. It sees the full state but only reads what the player to act may know: every AI
 * determinizes for that player before looking at anything hidden. */
#ifndef RAMPARTS_AI_H
#define RAMPARTS_AI_H

#include "ramparts/game.h"

typedef struct rp_ai rp_ai;

/* What an AI can say about its choice (fields it cannot fill stay at their defaults). */
typedef struct rp_ai_info {
    double win_chance;   /* estimated share of the win for the player to act, or -1 */
    uint64_t iterations; /* search iterations or rollouts spent */
} rp_ai_info;

/* Create an AI from a spec for `game`, drawing its randomness from `seed`.
 * A bad spec is refused with a message that lists the valid ones. */
RP_EXTERN int rp_ai_create(const rp_game *game, const char *spec, uint64_t seed, rp_ai **out,
                           rp_error *err);
RP_EXTERN void rp_ai_free(rp_ai *ai);
/* The spec as given, e.g. "greedy". */
RP_EXTERN const char *rp_ai_name(const rp_ai *ai);

/* Choose a legal move for the player to act in st (which must not be over). info may be NULL. */
RP_EXTERN int rp_ai_choose(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info,
                           rp_error *err);

/* Split a comma-separated list of specs in place ("hard,ismcts:ms=500,threads=2,greedy"):
 * a piece with '=' and no ':' continues the spec before it. Returns how many specs were put
 * in out, or -1 when there are more than max or the list starts with a parameter. */
RP_EXTERN int rp_ai_split_specs(char *list, char **out, int max);

/* The valid specs, one per line, for help and error messages. */
RP_EXTERN const char *rp_ai_help(void);

#endif
