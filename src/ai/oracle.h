/* oracle.h — the analysis-only oracle: the hard level's search run on the true state, so it
 * sees every hidden card (the other hands, the deck's order and so the draws to come). It
 * bounds what skill can win in a game (the ceiling `ramparts analyze` reports). It must never
 * play for a person or on the server: rp_ai_create refuses its name, this header is not
 * installed, and the constructor is not exported from the shared library. */
#ifndef RP_AI_ORACLE_H
#define RP_AI_ORACLE_H

#include "ramparts/ai.h"

/* The AI name rp_ai_create refuses and the oracle reports as its own. */
#define RP_ORACLE_NAME "oracle"

/* Make the oracle for `game`, drawing its randomness from `seed`; params ("" or search
 * parameters such as "iters=500") change the hard level's budget. */
int rp_ai_create_oracle(const rp_game *game, const char *params, uint64_t seed, rp_ai **out,
                        rp_error *err);

#endif
