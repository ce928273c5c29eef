/* ai.c — the table of AI kinds and the spec parser: "kind" or "kind:key=value,key=value".
 * Levels (beginner, easy, medium, hard) are aliases that expand to a search kind with a budget.
 * Everything outside this file sees only include/ramparts/ai.h. */
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "oracle.h"

/* Every kind of AI: its name (the word before ':' in a spec), spaces that pad the name to the
 * help's column, and its line of help. This one list makes the table of kinds, the help text and
 * the names in error messages, all as constants: nothing is filled in at run time, so any
 * thread may create AIs or ask for help at any moment. */
#define AI_KINDS(X)                                                                                \
    X(rp_ai_random, "random", "   ", "a uniformly random legal move")                              \
    X(rp_ai_greedy, "greedy", "   ",                                                               \
      "the move with the best immediate outcome (evaluation or a few playouts); "                  \
      "greedy:rollouts=N")                                                                         \
    X(rp_ai_beginner, "beginner", " ",                                                             \
      "a short-sighted search for new players (budget per game): it misses threats")               \
    X(rp_ai_easy, "easy", "     ",                                                                 \
      "a quick search (budget per game); easy:threads=T etc. override")                            \
    X(rp_ai_medium, "medium", "   ", "a longer search (budget per game)")                          \
    X(rp_ai_hard, "hard", "     ", "the strongest level (budget per game, see docs/ai.md)")        \
    X(rp_ai_mcts, "mcts", "     ",                                                                 \
      "UCT tree search for full-information games; mcts:iters=N or ms=N, iters@P=N (at P "         \
      "players), threads=T, c=X, rollout=D (-1: play out to the end), greedy=P, bias=W, "          \
      "spread=S (with ms=: more time where more moves), nodes=N")                                  \
    X(rp_ai_ismcts, "ismcts", "   ",                                                               \
      "information-set tree search for hidden information; same parameters as mcts")

typedef struct kind_entry {
    const char *name;
    const rp_ai_kind *kind;
} kind_entry;

#define KIND_ENTRY_(kind, name, pad, help) {name, &(kind)},
static const kind_entry kinds[] = {AI_KINDS(KIND_ENTRY_)};
#define NUM_KINDS ((int)(sizeof kinds / sizeof kinds[0]))

#define KIND_HELP_(kind, name, pad, help) "  " name pad help "\n"
static const char help_text[] = AI_KINDS(KIND_HELP_);

/* The kinds' names in one line, short enough for an error message. */
#define KIND_NAME_(kind, name, pad, help) name ", "
static const char names_text[] =
    AI_KINDS(KIND_NAME_) "or a kind with parameters such as ismcts:ms=500,threads=2";

const char *rp_ai_help(void)
{
    return help_text;
}

/* Split "key=value,key=value" into params; refuse malformed pairs. */
static int parse_params(const char *text, rp_ai_params *params, rp_error *err)
{
    memset(params, 0, sizeof *params);
    while (*text) {
        const char *comma = strchr(text, ',');
        size_t len = comma ? (size_t)(comma - text) : strlen(text);
        const char *eq = memchr(text, '=', len);
        if (!eq || eq == text || eq + 1 == text + len)
            return rp_fail(err, RP_EINVAL, "AI parameter '%.*s' is not of the form key=value",
                           (int)len, text);
        if (params->count == RP_AI_MAX_PARAMS)
            return rp_fail(err, RP_EINVAL, "too many AI parameters");
        size_t key_len = (size_t)(eq - text), value_len = len - key_len - 1;
        if (key_len >= sizeof params->key[0] || value_len >= sizeof params->value[0])
            return rp_fail(err, RP_EINVAL, "AI parameter '%.*s' is too long", (int)len, text);
        memcpy(params->key[params->count], text, key_len);
        memcpy(params->value[params->count], eq + 1, value_len);
        params->count++;
        text += len + (comma ? 1 : 0);
        if (comma && !*text)
            return rp_fail(err, RP_EINVAL, "AI spec ends with a comma");
    }
    return RP_OK;
}

int rp_ai_create(const rp_game *game, const char *spec, uint64_t seed, rp_ai **out, rp_error *err)
{
    const char *colon = strchr(spec, ':');
    size_t name_len = colon ? (size_t)(colon - spec) : strlen(spec);
    const kind_entry *entry = NULL;
    for (int i = 0; i < NUM_KINDS; i++)
        if (strlen(kinds[i].name) == name_len && strncmp(kinds[i].name, spec, name_len) == 0)
            entry = &kinds[i];
    if (!entry && name_len == strlen(RP_ORACLE_NAME) &&
        strncmp(spec, RP_ORACLE_NAME, name_len) == 0)
        return rp_fail(err, RP_EINVAL,
                       "'%s' sees every hidden card: it exists only inside `ramparts analyze`, "
                       "never as a player; valid AIs: %s",
                       RP_ORACLE_NAME, names_text);
    if (!entry)
        return rp_fail(err, RP_EINVAL, "unknown AI '%s'; valid AIs: %s", spec, names_text);
    rp_ai_params params;
    int rc = parse_params(colon ? colon + 1 : "", &params, err);
    if (rc < 0)
        return rc;
    rp_ai *ai = calloc(1, sizeof *ai);
    if (!ai)
        return rp_fail(err, RP_ENOMEM, "out of memory for the AI '%s'", spec);
    ai->game = game;
    ai->kind = entry->kind;
    ai->kind_name = entry->name;
    rp_rng_seed(&ai->rng, seed, 0x5eed);
    snprintf(ai->name, sizeof ai->name, "%s", spec);
    rc = entry->kind->create(ai, &params, err);
    if (rc < 0) {
        free(ai);
        return rc;
    }
    *out = ai;
    return RP_OK;
}

int rp_ai_create_oracle(const rp_game *game, const char *params, uint64_t seed, rp_ai **out,
                        rp_error *err)
{
    rp_ai_params parsed;
    int rc = parse_params(params, &parsed, err);
    if (rc < 0)
        return rc;
    rp_ai *ai = calloc(1, sizeof *ai);
    if (!ai)
        return rp_fail(err, RP_ENOMEM, "out of memory for the oracle");
    ai->game = game;
    ai->kind = &rp_ai_oracle;
    ai->kind_name = RP_ORACLE_NAME;
    rp_rng_seed(&ai->rng, seed, 0x5eed);
    snprintf(ai->name, sizeof ai->name, "%s", RP_ORACLE_NAME);
    rc = rp_ai_oracle.create(ai, &parsed, err);
    if (rc < 0) {
        free(ai);
        return rc;
    }
    *out = ai;
    return RP_OK;
}

void rp_ai_free(rp_ai *ai)
{
    if (!ai)
        return;
    if (ai->kind->destroy)
        ai->kind->destroy(ai);
    free(ai);
}

const char *rp_ai_name(const rp_ai *ai)
{
    return ai->name;
}

int rp_ai_choose(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info, rp_error *err)
{
    if (ai->game->current_player(st) == RP_TERMINAL)
        return rp_fail(err, RP_EOVER, "the game is over");
    rp_ai_info local = {.win_chance = -1, .iterations = 0};
    int rc = ai->kind->choose(ai, st, out, &local);
    if (info)
        *info = local;
    if (rc < 0)
        return rp_fail(err, rc, "AI %s failed: %s", ai->name, rp_strerror(rc));
    return RP_OK;
}

int rp_ai_split_specs(char *list, char **out, int max)
{
    int n = 0;
    char *piece = list;
    while (piece) {
        char *comma = strchr(piece, ',');
        if (comma)
            *comma = '\0';
        if (strchr(piece, '=') && !strchr(piece, ':')) {
            if (n == 0)
                return -1;
            piece[-1] = ','; /* a parameter of the spec before: glue it back */
        } else if (n == max) {
            return -1;
        } else {
            out[n++] = piece;
        }
        piece = comma ? comma + 1 : NULL;
    }
    return n;
}
