/* cmd_arena.c — `ramparts arena GAME --ai A,B,... --games N`: every pairing of the listed AIs
 * plays N games on shared deals with seats rotated evenly, then a table of scores with 95%
 * confidence intervals and Elo differences (or JSON). This is how AI strength is measured. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_AIS 8

/* One pairing: AI a against AI b. With 2 players they swap seats on the same deal; with more,
 * a sits alone against copies of b, its seat rotating over every seat of each deal. */
typedef struct pairing {
    int a, b;
    double score; /* a's total share of the wins */
    long a_wins, b_wins, draws;
    long unfinished; /* stopped at the turn cap; scored as shared, never a draw */
} pairing;

/* What one game of a pairing came to. */
typedef struct arena_result {
    double share;    /* a's share of the win (an equal share when unfinished) */
    bool unfinished; /* stopped at the turn cap (CD-16) */
} arena_result;

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
} arena_job;

/* Which seat the pairing's first AI takes in game g (its deal is seed + g / players). */
static int lone_seat(const arena_job *job, long g)
{
    return (int)(g % job->players);
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
    for (int p = 0; p < job->players; p++)
        specs[p] = job->specs[p == mine ? pr->a : pr->b];
    rp_cli_outcome out;
    rp_error inner = {{0}};
    int rc = rp_cli_ai_game(job->game, &cfg, specs, cfg.seed * 1000003u + (uint64_t)index * 7919u,
                            job->turn_cap, NULL, NULL, &out, &inner);
    if (rc < 0)
        return rp_fail(err, rc, "%s vs %s, game %ld: %s", job->specs[pr->a], job->specs[pr->b], g,
                       inner.msg);
    arena_result *res = item;
    res->share = out.returns[mine];
    res->unfinished = out.unfinished;
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
        }
    }
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
    printf(" %-7s %-15s %s\n", "A score", "95% CI", two ? "Elo A-B (95% CI)" : "fair share");
    for (int i = 0; i < job->num_pairs; i++) {
        const pairing *pr = &job->pairs[i];
        double p = pr->score / (double)job->games, lo, hi;
        wilson(p, job->games, &lo, &hi);
        printf("%-22s %-22s %6ld %6ld %6ld %6ld ", job->specs[pr->a], job->specs[pr->b], job->games,
               pr->a_wins, pr->draws, pr->b_wins);
        if (capped)
            printf("%6ld ", pr->unfinished);
        printf(" %6.1f%% [%5.1f%%, %5.1f%%] ", 100 * p, 100 * lo, 100 * hi);
        if (two)
            printf("%+.0f [%+.0f, %+.0f]\n", elo(p, job->games), elo(lo, job->games),
                   elo(hi, job->games));
        else
            printf("%.1f%%\n", 100.0 / job->players);
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
           "                      [--max-turns N] [--json] [key=value ...]\n\n"
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
           "as key=value.\n\nAIs:\n%s",
           rp_ai_help());
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
    long long games = 100, seed = 1, max_turns = 0;
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
    if (rp_cli_parallel("arena", total, (int)threads, play_game, &job, job.results,
                        sizeof *job.results, &err) < 0) {
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
