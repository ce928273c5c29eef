/* kind.h — how AI kinds plug into rp_ai: each kind parses its own parameters and chooses
 * moves, with the helpers of kind.c; ai.c, above every kind, keeps the table of kinds and the
 * spec parser. */
#ifndef RP_AI_KIND_H
#define RP_AI_KIND_H

#include "ramparts/ai.h"

/* Parsed "key=value" parameters of a spec ("mcts:iters=2000,threads=2"). */
#define RP_AI_MAX_PARAMS 8
typedef struct rp_ai_params {
    int count;
    char key[RP_AI_MAX_PARAMS][24];
    char value[RP_AI_MAX_PARAMS][40];
} rp_ai_params;

/* A kind of AI; its name and help line are in the table of kinds in ai.c. */
typedef struct rp_ai_kind {
    /* Build kind-specific data into ai->data from params; refuse unknown keys. */
    int (*create)(rp_ai *ai, const rp_ai_params *params, rp_error *err);
    int (*choose)(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info);
    void (*destroy)(rp_ai *ai);
} rp_ai_kind;

struct rp_ai {
    const rp_game *game;
    const rp_ai_kind *kind;
    const char *kind_name; /* the word before ':' in the spec: "mcts" */
    rp_rng rng;
    char name[96];
    void *data; /* owned by the kind */
};

extern const rp_ai_kind rp_ai_random;
extern const rp_ai_kind rp_ai_greedy;
extern const rp_ai_kind rp_ai_mcts;
extern const rp_ai_kind rp_ai_ismcts;
extern const rp_ai_kind rp_ai_beginner;
extern const rp_ai_kind rp_ai_easy;
extern const rp_ai_kind rp_ai_medium;
extern const rp_ai_kind rp_ai_hard;
extern const rp_ai_kind rp_ai_oracle; /* analysis only: see oracle.h */

/* ---- kind.c ---- */

/* A uniformly random legal action of st (not over). */
rp_action rp__random_action(const rp_game *game, const void *st, rp_rng *rng);

/* Play uniformly random actions from st to the end; st is consumed. */
void rp__random_playout(const rp_game *game, void *st, rp_rng *rng);

/* Value of an integer parameter, or def when absent; RP_EINVAL with a message when malformed. */
int rp__param_int(const rp_ai_params *params, const char *key, long def, long min, long max,
                  long *out, rp_error *err);
/* The same for a decimal number. */
int rp__param_double(const rp_ai_params *params, const char *key, double def, double min,
                     double max, double *out, rp_error *err);
/* Refuse parameters other than the listed keys (NULL-terminated). */
int rp__params_only(const rp_ai_params *params, const char *const *keys, const char *kind,
                    rp_error *err);

#endif
