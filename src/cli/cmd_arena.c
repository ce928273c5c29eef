/* cmd_arena.c — `ramparts arena GAME --ai A,B,... --games N`: every pairing of the listed AIs
 * plays N games on shared deals with seats rotated evenly, then a table of scores with 95%
 * confidence intervals, Elo differences and each side's thinking time (or JSON). This is how AI
 * strength is measured; `--engine NAME=PATH` lets another build (a reference) play `NAME/SPEC`
 * through the engine protocol (engine_client.c), one engine process per game thread. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define MAX_AIS 8
#define MAX_ENGINES 4
#define DEFAULT_ENGINE_TIMEOUT_S 300

/* One pairing: AI a against AI b. With 2 players they swap seats on the same deal; with more,
 * a sits alone against copies of b, its seat rotating over every seat of each deal. */
typedef struct pairing {
    int a, b;
    double score; /* a's total share of the wins */
    long a_wins, b_wins, draws;
    long unfinished;               /* stopped at the turn cap; scored as shared, never a draw */
    unsigned long long a_ns, b_ns; /* thinking time over every game, and the decisions */
    long a_decisions, b_decisions;
} pairing;

/* What one game of a pairing came to. */
typedef struct arena_result {
    double share;                  /* a's share of the win (an equal share when unfinished) */
    bool unfinished;               /* stopped at the turn cap (CD-16) */
    unsigned long long a_ns, b_ns; /* wall-clock time a's seat, b's seats spent deciding */
    long a_decisions, b_decisions;
} arena_result;

/* An engine named by --engine NAME=PATH. */
typedef struct engine_def {
    char name[RP_CLI_ENGINE_NAME];
    const char *path;
} engine_def;

/* A running engine process of the pool: busy while one game (one thread) uses it; kept for
 * the next game of its definition after that, stopped at the end. */
typedef struct engine_slot {
    rp_cli_engine *engine;
    int def;
    bool busy;
} engine_slot;

typedef struct arena_job {
    const rp_game *game;
    rp_config cfg;
    int players;
    const char *specs[MAX_AIS];
    int num_specs;
    pairing pairs[MAX_AIS * MAX_AIS];
    int num_pairs;
    long games;            /* per pairing */
    int turn_cap;          /* 0: none */
    arena_result *results; /* per (pairing, game) */
    /* --engine: definitions, which one plays each spec (-1: in this process) and the spec it
     * is asked for (after NAME/), the pool of processes (one per definition and thread) */
    engine_def engines[MAX_ENGINES];
    int num_engines;
    int engine_timeout_s;
    int engine_of[MAX_AIS];
    const char *engine_spec[MAX_AIS];
    pthread_mutex_t pool_lock;
    engine_slot pool[MAX_ENGINES * RP_CLI_MAX_THREADS];
} arena_job;

/* Which seat the pairing's first AI takes in game g (its deal is seed + g / players). */
static int lone_seat(const arena_job *job, long g)
{
    return (int)(g % job->players);
}

/* ---- the engine pool ---- */

/* An idle process of definition `def` (started now when there is none), marked busy. */
static int pool_acquire(arena_job *job, int def, engine_slot **out, rp_error *err)
{
    engine_slot *slot = NULL;
    /* `busy` first: a busy slot's `engine` belongs to the thread that holds it, which may be
     * starting or stopping its process outside the lock; an idle slot's was last written
     * before the unlock that made it idle. */
    pthread_mutex_lock(&job->pool_lock);
    for (size_t i = 0; !slot && i < sizeof job->pool / sizeof job->pool[0]; i++)
        if (!job->pool[i].busy && job->pool[i].engine && job->pool[i].def == def)
            slot = &job->pool[i];
    for (size_t i = 0; !slot && i < sizeof job->pool / sizeof job->pool[0]; i++)
        if (!job->pool[i].busy && !job->pool[i].engine)
            slot = &job->pool[i];
    if (slot) {
        slot->busy = true;
        slot->def = def;
    }
    pthread_mutex_unlock(&job->pool_lock);
    if (!slot) /* a slot per definition and thread: cannot happen */
        return rp_fail(err, RP_ENOMEM, "no room for another engine process");
    int rc = RP_OK;
    if (!slot->engine)
        rc = rp_cli_engine_start(job->engines[def].name, job->engines[def].path,
                                 job->engine_timeout_s, &slot->engine, err);
    if (rc < 0) {
        pthread_mutex_lock(&job->pool_lock);
        slot->busy = false;
        pthread_mutex_unlock(&job->pool_lock);
        return rc;
    }
    *out = slot;
    return RP_OK;
}

/* Give a process back after a game; one that failed is stopped (its state is unknown). */
static void pool_release(arena_job *job, engine_slot *slot, bool failed)
{
    if (failed) {
        rp_cli_engine_stop(slot->engine, false);
        slot->engine = NULL;
    }
    pthread_mutex_lock(&job->pool_lock);
    slot->busy = false;
    pthread_mutex_unlock(&job->pool_lock);
}

/* Every process stopped and reaped: at the end, and after an error. */
static void pool_stop_all(arena_job *job, bool graceful)
{
    for (size_t i = 0; i < sizeof job->pool / sizeof job->pool[0]; i++) {
        rp_cli_engine_stop(job->pool[i].engine, graceful);
        job->pool[i].engine = NULL;
    }
}

/* A seat an engine plays in one game. */
typedef struct engine_seat {
    rp_cli_engine *engine;
    const rp_game *game;
    const char *spec;
    rp_rng rng; /* determinizes what the engine is sent (from the arena's seed) */
} engine_seat;

static int engine_seat_choose(void *ctx, const void *st, rp_action *move, rp_error *err)
{
    engine_seat *seat = ctx;
    return rp_cli_engine_move(seat->engine, seat->game, st, seat->spec, &seat->rng, move, err);
}

/* The engines of one game: a process per definition its seats use, started on `new`. */
typedef struct game_engines {
    engine_slot *slots[MAX_ENGINES];
    engine_seat seats[RP_MAX_PLAYERS];
    rp_cli_seat external[RP_MAX_PLAYERS];
} game_engines;

static int engines_for_game(arena_job *job, const rp_config *cfg, const int *spec_of,
                            uint64_t ai_seed, game_engines *ge, rp_error *err)
{
    for (int p = 0; p < job->players; p++) {
        const int def = job->engine_of[spec_of[p]];
        if (def < 0)
            continue;
        if (!ge->slots[def]) {
            if (pool_acquire(job, def, &ge->slots[def], err) < 0)
                return RP_EIO;
            if (rp_cli_engine_new_game(ge->slots[def]->engine, job->game, cfg, err) < 0)
                return RP_EIO;
        }
        ge->seats[p] = (engine_seat){.engine = ge->slots[def]->engine,
                                     .game = job->game,
                                     .spec = job->engine_spec[spec_of[p]]};
        rp_rng_seed(&ge->seats[p].rng, ai_seed + (uint64_t)p, 0x656e67696e65u /* "engine" */);
        ge->external[p] = (rp_cli_seat){engine_seat_choose, &ge->seats[p]};
    }
    return RP_OK;
}

static void engines_release(arena_job *job, game_engines *ge, bool failed)
{
    for (int d = 0; d < MAX_ENGINES; d++)
        if (ge->slots[d])
            pool_release(job, ge->slots[d], failed);
}

/* ---- one game ---- */

/* Thinking time and decisions of a's seat and of b's seats. */
static void add_times(arena_result *res, const rp_cli_outcome *out, int mine)
{
    for (int p = 0; p < out->players; p++) {
        if (p == mine) {
            res->a_ns += out->think_ns[p];
            res->a_decisions += out->decisions[p];
        } else {
            res->b_ns += out->think_ns[p];
            res->b_decisions += out->decisions[p];
        }
    }
}

/* One game of the run: pairing index / games, deal and seats from index % games. */
static int play_game(void *ctx, long index, void *item, rp_error *err)
{
    arena_job *job = ctx;
    const long pair_index = index / job->games, g = index % job->games;
    const pairing *pr = &job->pairs[pair_index];
    rp_config cfg = job->cfg;
    cfg.seed = job->cfg.seed + (uint64_t)(g / job->players);
    const int mine = lone_seat(job, g);
    const char *specs[RP_MAX_PLAYERS];
    int spec_of[RP_MAX_PLAYERS] = {0};
    for (int p = 0; p < job->players; p++) {
        spec_of[p] = p == mine ? pr->a : pr->b;
        specs[p] = job->specs[spec_of[p]];
    }
    const uint64_t ai_seed = cfg.seed * 1000003u + (uint64_t)index * 7919u;
    rp_cli_outcome out = {0};
    rp_error inner = {{0}};
    game_engines ge = {0};
    int rc = job->num_engines ? engines_for_game(job, &cfg, spec_of, ai_seed, &ge, &inner) : RP_OK;
    if (rc == RP_OK)
        rc = rp_cli_mixed_game(job->game, &cfg, specs, job->num_engines ? ge.external : NULL,
                               ai_seed, job->turn_cap, NULL, NULL, &out, &inner);
    engines_release(job, &ge, rc < 0);
    if (rc < 0)
        return rp_fail(err, rc, "%s vs %s, game %ld: %s", job->specs[pr->a], job->specs[pr->b], g,
                       inner.msg);
    arena_result *res = item;
    res->share = out.returns[mine];
    res->unfinished = out.unfinished;
    add_times(res, &out, mine);
    return RP_OK;
}

/* ---- statistics ---- */

/* Wilson score interval at 95% for a mean share p over n games. */
static void wilson(double p, long n, double *low, double *high)
{
    const double z = 1.959964, z2 = z * z, nn = (double)n;
    double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
    *low = centre - half < 0 ? 0 : centre - half;
    *high = centre + half > 1 ? 1 : centre + half;
}

/* Elo difference for a score, with 0 and 1 pulled in by half a game so it stays finite. */
static double elo(double p, long n)
{
    const double edge = 0.5 / (double)n;
    p = p < edge ? edge : p > 1 - edge ? 1 - edge : p;
    return 400.0 * log10(p / (1 - p));
}

static void tally(arena_job *job)
{
    for (int i = 0; i < job->num_pairs; i++) {
        pairing *pr = &job->pairs[i];
        for (long g = 0; g < job->games; g++) {
            const arena_result *r = &job->results[(long)i * job->games + g];
            const double s = r->share;
            pr->score += s;
            pr->unfinished += r->unfinished;
            pr->a_wins += s > 0.999;
            pr->b_wins += s < 0.001;
            pr->draws += !r->unfinished && s >= 0.001 && s <= 0.999;
            pr->a_ns += r->a_ns;
            pr->b_ns += r->b_ns;
            pr->a_decisions += r->a_decisions;
            pr->b_decisions += r->b_decisions;
        }
    }
}

/* Mean wall-clock milliseconds per decision. */
static double ms_per_move(unsigned long long ns, long decisions)
{
    return decisions > 0 ? (double)ns / 1e6 / (double)decisions : 0.0;
}

static void print_table(const arena_job *job)
{
    const bool two = job->players == 2;
    printf("%s, %d players, %ld games per pairing, seed %llu%s\n", job->game->id, job->players,
           job->games, (unsigned long long)job->cfg.seed,
           two ? ", seats swapped on each deal" : ", A alone against copies of B, every seat");
    if (job->turn_cap > 0)
        printf("games still going after %d turns were stopped and count as shared (a cap of "
               "the tool, not a rule): column 'unfin.'\n",
               job->turn_cap);
    const bool capped = job->turn_cap > 0;
    printf("%-22s %-22s %6s %6s %6s %6s ", "A", "B", "games", "A won", "drawn", "B won");
    if (capped)
        printf("%6s ", "unfin.");
    printf(" %-7s %-15s %-20s %9s %9s\n", "A score", "95% CI",
           two ? "Elo A-B (95% CI)" : "fair share", "A ms/move", "B ms/move");
    for (int i = 0; i < job->num_pairs; i++) {
        const pairing *pr = &job->pairs[i];
        double p = pr->score / (double)job->games, lo, hi;
        wilson(p, job->games, &lo, &hi);
        printf("%-22s %-22s %6ld %6ld %6ld %6ld ", job->specs[pr->a], job->specs[pr->b], job->games,
               pr->a_wins, pr->draws, pr->b_wins);
        if (capped)
            printf("%6ld ", pr->unfinished);
        printf(" %6.1f%% [%5.1f%%, %5.1f%%] ", 100 * p, 100 * lo, 100 * hi);
        char last[64];
        if (two)
            snprintf(last, sizeof last, "%+.0f [%+.0f, %+.0f]", elo(p, job->games),
                     elo(lo, job->games), elo(hi, job->games));
        else
            snprintf(last, sizeof last, "%.1f%%", 100.0 / job->players);
        printf("%-20s %9.2f %9.2f\n", last, ms_per_move(pr->a_ns, pr->a_decisions),
               ms_per_move(pr->b_ns, pr->b_decisions));
    }
}

static void print_json(const arena_job *job)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", job->game->id);
    cJSON_AddNumberToObject(o, "players", job->players);
    cJSON_AddNumberToObject(o, "games_per_pairing", (double)job->games);
    cJSON_AddNumberToObject(o, "seed", (double)job->cfg.seed);
    if (job->turn_cap > 0)
        cJSON_AddNumberToObject(o, "turn_cap", job->turn_cap);
    else
        cJSON_AddNullToObject(o, "turn_cap");
    cJSON *list = cJSON_AddArrayToObject(o, "pairings");
    for (int i = 0; i < job->num_pairs; i++) {
        const pairing *pr = &job->pairs[i];
        double p = pr->score / (double)job->games, lo, hi;
        wilson(p, job->games, &lo, &hi);
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "a", job->specs[pr->a]);
        cJSON_AddStringToObject(row, "b", job->specs[pr->b]);
        cJSON_AddNumberToObject(row, "games", (double)job->games);
        cJSON_AddNumberToObject(row, "a_wins", (double)pr->a_wins);
        cJSON_AddNumberToObject(row, "draws", (double)pr->draws);
        cJSON_AddNumberToObject(row, "b_wins", (double)pr->b_wins);
        cJSON_AddNumberToObject(row, "unfinished", (double)pr->unfinished);
        cJSON_AddNumberToObject(row, "a_score", p);
        cJSON_AddNumberToObject(row, "ci_low", lo);
        cJSON_AddNumberToObject(row, "ci_high", hi);
        if (job->players == 2) {
            cJSON_AddNumberToObject(row, "elo", elo(p, job->games));
            cJSON_AddNumberToObject(row, "elo_low", elo(lo, job->games));
            cJSON_AddNumberToObject(row, "elo_high", elo(hi, job->games));
        }
        cJSON_AddNumberToObject(row, "a_ms_per_move", ms_per_move(pr->a_ns, pr->a_decisions));
        cJSON_AddNumberToObject(row, "b_ms_per_move", ms_per_move(pr->b_ns, pr->b_decisions));
        cJSON_AddItemToArray(list, row);
    }
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(o);
}

/* ---- options ---- */

static void arena_help(void)
{
    printf("usage: ramparts arena GAME --ai A,B,... [--games N] [--seed S] [--threads T]\n"
           "                      [--max-turns N] [--json] [--engine NAME=PATH ...]\n"
           "                      [--engine-timeout S] [key=value ...]\n\n"
           "Plays every pairing of the listed AIs, N games each (default 100), and prints a\n"
           "table of A's score (its share of the wins, draws counting by share) with a 95%%\n"
           "Wilson confidence interval and the Elo difference. In 2-player games each deal\n"
           "(seed S+k, default S=1) is played twice with the seats swapped; with more players\n"
           "(players=4) A sits alone against copies of B, on every seat of each deal in turn.\n"
           "--threads plays games in parallel; results do not depend on it, nor on running\n"
           "under mpirun, which splits the games across processes. A progress bar shows on a\n"
           "terminal. --max-turns N stops a game still going after N turns: it counts as\n"
           "shared and unfinished, never as a draw (default: the game's cap for tools, e.g.\n"
           "100 turns in castle-danger: ruling CD-16). Game options (players=4 ...) follow\n"
           "as key=value. The last columns give each side's mean thinking time per move.\n\n"
           "--engine NAME=PATH (up to %d) names a program speaking the protocol of `ramparts\n"
           "engine` (PATH engine is run: another build of ramparts, say); the AI NAME/SPEC\n"
           "is played by it (genmove SPEC), e.g. --engine ref=build-ref/7f41760/ramparts\n"
           "--ai hard:ms=100,ref/hard:ms=100. It is sent each position determinized for the\n"
           "seat to act (what that seat cannot see drawn at random), never the referee's.\n"
           "An engine that refuses, answers nonsense or an illegal move, dies, or is silent\n"
           "for --engine-timeout seconds (default %d) stops the arena with an error.\n\n"
           "AIs:\n%s",
           MAX_ENGINES, DEFAULT_ENGINE_TIMEOUT_S, rp_ai_help());
}

/* --engine NAME=PATH: a new name of letters, digits, - and _, and a program we may run. */
static int parse_engine(arena_job *job, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq)
        return rp_cli_usage_error("arena", "--engine takes NAME=PATH, e.g. ref=build-ref/%s",
                                  "7f41760/ramparts");
    const size_t len = (size_t)(eq - text);
    if (len == 0 || len >= RP_CLI_ENGINE_NAME)
        return rp_cli_usage_error("arena", "--engine %s: a NAME of 1 to %d characters", text,
                                  RP_CLI_ENGINE_NAME - 1);
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)text[i]) && text[i] != '-' && text[i] != '_')
            return rp_cli_usage_error("arena", "--engine %s: a NAME of letters, digits, - and _",
                                      text);
    if (!eq[1] || strlen(eq + 1) >= RP_CLI_ENGINE_PATH)
        return rp_cli_usage_error("arena", "--engine %s: which program? (NAME=PATH)", text);
    if (access(eq + 1, X_OK) != 0)
        return rp_cli_usage_error("arena", "--engine %s: cannot run '%s': %s", text, eq + 1,
                                  strerror(errno));
    for (int i = 0; i < job->num_engines; i++)
        if (strlen(job->engines[i].name) == len && strncmp(job->engines[i].name, text, len) == 0)
            return rp_cli_usage_error("arena", "--engine %.*s is named twice", (int)len, text);
    if (job->num_engines == MAX_ENGINES)
        return rp_cli_usage_error("arena", "at most %d --engine", MAX_ENGINES);
    engine_def *def = &job->engines[job->num_engines++];
    snprintf(def->name, sizeof def->name, "%.*s", (int)len, text);
    def->path = eq + 1;
    return RP_EXIT_OK;
}

/* NAME/SPEC (a slash before any colon): the engine NAME plays SPEC; checked here only for its
 * NAME, since the engine is the judge of its own specs. Returns false after a message. */
static bool parse_engine_spec(arena_job *job, int i, bool *is_engine)
{
    const char *spec = job->specs[i];
    const char *slash = strchr(spec, '/'), *colon = strchr(spec, ':');
    job->engine_of[i] = -1;
    *is_engine = slash && (!colon || slash < colon);
    if (!*is_engine)
        return true;
    const size_t len = (size_t)(slash - spec);
    for (int d = 0; d < job->num_engines; d++)
        if (strlen(job->engines[d].name) == len && strncmp(job->engines[d].name, spec, len) == 0)
            job->engine_of[i] = d;
    if (job->engine_of[i] < 0) {
        rp_cli_usage_error("arena", "%s: no engine named '%.*s' (--engine %.*s=PATH names one)",
                           spec, (int)len, spec, (int)len, spec);
        return false;
    }
    job->engine_spec[i] = slash + 1;
    if (!slash[1] || strlen(slash + 1) >= RP_CLI_ENGINE_SPEC) {
        rp_cli_usage_error("arena", "%s: an AI spec must follow the engine's name", spec);
        return false;
    }
    return true;
}

/* Split the AI list and check every spec; pairings are every (i, j) with i < j. */
static bool parse_ais(arena_job *job, char *list)
{
    char *specs[MAX_AIS];
    job->num_specs = rp_ai_split_specs(list, specs, MAX_AIS);
    if (job->num_specs < 0) {
        rp_cli_usage_error("arena", "--ai takes 2 to %d AIs, e.g. --ai hard,greedy", MAX_AIS);
        return false;
    }
    for (int i = 0; i < job->num_specs; i++)
        job->specs[i] = specs[i];
    if (job->num_specs < 2) {
        rp_cli_usage_error("arena", "--ai needs at least two AIs, e.g. --ai hard,greedy");
        return false;
    }
    for (int i = 0; i < job->num_specs; i++) {
        bool is_engine;
        if (!parse_engine_spec(job, i, &is_engine))
            return false;
        if (is_engine)
            continue;
        rp_ai *ai;
        rp_error err;
        if (rp_ai_create(job->game, job->specs[i], 1, &ai, &err) < 0) {
            fprintf(stderr, "ramparts arena: %s\n%s", err.msg, rp_ai_help());
            return false;
        }
        rp_ai_free(ai);
    }
    for (int i = 0; i < job->num_specs; i++)
        for (int j = i + 1; j < job->num_specs; j++)
            job->pairs[job->num_pairs++] = (pairing){.a = i, .b = j};
    return true;
}

static int parse_args(arena_job *job, int argc, char **argv, bool *json, long long *threads)
{
    long long games = 100, seed = 1, max_turns = 0, timeout = DEFAULT_ENGINE_TIMEOUT_S;
    char *ai_list = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--json") == 0) {
            *json = true;
        } else if (strcmp(a, "--games") == 0 || strcmp(a, "--threads") == 0 ||
                   strcmp(a, "--seed") == 0 || strcmp(a, "--max-turns") == 0) {
            if (!(v = rp_cli_value("arena", argc, argv, &i)))
                return RP_EXIT_USAGE;
            bool ok = strcmp(a, "--games") == 0 ? rp_cli_number("arena", a, v, 1, 10000000, &games)
                      : strcmp(a, "--threads") == 0 ? rp_cli_number("arena", a, v, 1, 256, threads)
                      : strcmp(a, "--max-turns") == 0
                          ? rp_cli_number("arena", a, v, 1, 1000000, &max_turns)
                          : rp_cli_number("arena", a, v, 0, INT64_MAX, &seed);
            if (!ok)
                return RP_EXIT_USAGE;
            if (strcmp(a, "--seed") == 0)
                job->cfg.seed = (uint64_t)seed;
        } else if (strcmp(a, "--engine") == 0) {
            if (!(v = rp_cli_value("arena", argc, argv, &i)))
                return RP_EXIT_USAGE;
            int rc = parse_engine(job, v);
            if (rc != RP_EXIT_OK)
                return rc;
        } else if (strcmp(a, "--engine-timeout") == 0) {
            if (!(v = rp_cli_value("arena", argc, argv, &i)) ||
                !rp_cli_number("arena", a, v, 1, 86400, &timeout))
                return RP_EXIT_USAGE;
        } else if (strcmp(a, "--ai") == 0) {
            if (!(ai_list = (char *)rp_cli_value("arena", argc, argv, &i)))
                return RP_EXIT_USAGE;
        } else if (a[0] == '-') {
            return rp_cli_usage_error("arena", "unknown option '%s'", a);
        } else {
            int rc = rp_cli_set_option("arena", job->game, &job->cfg, a);
            if (rc != RP_EXIT_OK)
                return rc;
        }
    }
    if (!ai_list)
        return rp_cli_usage_error("arena", "--ai A,B,... is required");
    job->games = (long)games;
    job->players = job->cfg.players;
    job->turn_cap = rp_cli_turn_cap(job->game, max_turns);
    job->engine_timeout_s = (int)timeout;
    return parse_ais(job, ai_list) ? RP_EXIT_OK : RP_EXIT_USAGE;
}

int rp_cmd_arena(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        arena_help();
        return RP_EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return rp_cli_usage_error("arena", "which game? (ramparts list)");
    static arena_job job;
    memset(&job, 0, sizeof job);
    pthread_mutex_init(&job.pool_lock, NULL);
    if (!(job.game = rp_cli_game("arena", argv[1])))
        return RP_EXIT_USAGE;
    rp_config_default(job.game, &job.cfg);
    bool json = false;
    long long threads = 1;
    int rc = parse_args(&job, argc, argv, &json, &threads);
    if (rc != RP_EXIT_OK)
        return rc;
    const long total = job.games * job.num_pairs;
    job.results = calloc((size_t)total, sizeof *job.results);
    if (!job.results) {
        fprintf(stderr, "ramparts arena: out of memory\n");
        return RP_EXIT_FAIL;
    }
    rp_error err;
    rc = rp_cli_parallel("arena", total, (int)threads, play_game, &job, job.results,
                         sizeof *job.results, &err);
    pool_stop_all(&job, rc == RP_OK);
    if (rc < 0) {
        fprintf(stderr, "ramparts arena: %s\n", err.msg);
        free(job.results);
        return RP_EXIT_FAIL;
    }
    tally(&job);
    if (rp_cli_mpi_root() && json)
        print_json(&job);
    else if (rp_cli_mpi_root())
        print_table(&job);
    free(job.results);
    return RP_EXIT_OK;
}
