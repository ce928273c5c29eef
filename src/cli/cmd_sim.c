/* cmd_sim.c — `ramparts sim GAME --games N`: AI against AI, many games on several threads.
 * Game i always uses seed S+i and AIs seeded from (S, i, seat), so the totals are the same
 * whatever the number of threads. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* What one game came to. */
typedef struct sim_result {
    int winner;      /* sole winning seat, or -1 for a draw, a shared win or an unfinished game */
    bool unfinished; /* stopped at the turn cap (CD-16) */
    long actions;
} sim_result;

typedef struct sim_job {
    const rp_game *game;
    rp_config cfg;
    const char *ai_specs[RP_MAX_PLAYERS];
    long games;
    int turn_cap; /* 0: none */
    bool paired;  /* games 2k and 2k+1: same deal, the two seats' AIs swapped */
    sim_result *results;
} sim_job;

/* The AI spec sitting at `seat` in game g (swapped on odd games of a pair). */
static const char *spec_at(const sim_job *job, long g, int seat)
{
    if (job->paired && (g & 1) && seat < 2)
        seat = 1 - seat;
    return job->ai_specs[seat];
}

static int play_one(void *ctx, long g, void *item, rp_error *err)
{
    sim_job *job = ctx;
    sim_result *res = item;
    rp_config cfg = job->cfg;
    cfg.seed = job->cfg.seed + (uint64_t)(job->paired ? g / 2 : g);
    const char *specs[RP_MAX_PLAYERS];
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        specs[p] = spec_at(job, g, p);
    rp_cli_outcome out;
    rp_error inner = {{0}};
    int rc = rp_cli_ai_game(job->game, &cfg, specs, cfg.seed * 1000003u, job->turn_cap, NULL, NULL,
                            &out, &inner);
    if (rc < 0)
        return rp_fail(err, rc, "game %ld: %s", g, inner.msg);
    res->winner = -1;
    for (int p = 0; p < out.players && !out.unfinished; p++)
        if (out.returns[p] > 0.999)
            res->winner = p;
    res->unfinished = out.unfinished;
    res->actions = out.actions;
    return RP_OK;
}

static void sim_help(void)
{
    printf("usage: ramparts sim GAME [--games N] [--seed S] [--ai A,B,...] [--threads T]\n"
           "                    [--paired] [--max-turns N] [--json] [key=value ...]\n\n"
           "Plays N games (default 100) AI against AI and prints wins per seat, draws (and\n"
           "shared wins) and the mean number of player actions per game. --ai lists one AI per\n"
           "seat (the last one fills the remaining seats, more than the seats is an error;\n"
           "default random). Game i uses seed S+i (default S=1). --paired plays games in\n"
           "pairs with the first two seats' AIs swapped (on by default for games that declare\n"
           "paired seats, e.g. castle-danger), and reports each of those AIs' wins too.\n"
           "--max-turns N stops a game still going after N turns and counts it unfinished,\n"
           "never as a win or a draw (default: the game's cap for tools, e.g. 100 turns in\n"
           "castle-danger, which has no turn limit outside tournaments: ruling CD-16).\n"
           "A progress bar shows on a terminal. Under mpirun the games are split across\n"
           "the processes and the result is the same as in one process.\n\nAIs:\n%s",
           rp_ai_help());
}

/* Split "a,b,c" into job->ai_specs, the last repeating; checks each spec. */
static bool parse_ai_list(sim_job *job, char *list, int players)
{
    char *specs[RP_MAX_PLAYERS];
    int n = rp_ai_split_specs(list, specs, RP_MAX_PLAYERS);
    if (n < 0) {
        rp_cli_usage_error("sim", "--ai: more AIs than seats, or a parameter without its AI");
        return false;
    }
    for (int p = 0; p < n; p++)
        job->ai_specs[p] = specs[p];
    if (n == 0) {
        rp_cli_usage_error("sim", "--ai needs at least one AI");
        return false;
    }
    if (n > players) { /* an AI that would never play is a mistake in the command, not a wish */
        rp_cli_usage_error("sim", "--ai lists %d AIs, but %s is played by %d here (players=N)", n,
                           job->game->id, players);
        return false;
    }
    for (int p = n; p < RP_MAX_PLAYERS; p++)
        job->ai_specs[p] = job->ai_specs[n - 1];
    for (int p = 0; p < players; p++) {
        rp_ai *ai;
        rp_error err;
        if (rp_ai_create(job->game, job->ai_specs[p], 1, &ai, &err) < 0) {
            fprintf(stderr, "ramparts sim: %s\n", err.msg);
            return false;
        }
        rp_ai_free(ai);
    }
    return true;
}

/* In paired games the first two seats' AIs swap every other game, so a seat's wins mix both
 * AIs: what a designer wants to know is how often each AI won. by_ai[k]: the wins of
 * ai_specs[k], k < 2. */
static void wins_by_ai(const sim_job *job, long by_ai[2])
{
    by_ai[0] = by_ai[1] = 0;
    for (long g = 0; g < job->games; g++) {
        const int w = job->results[g].winner;
        if (job->results[g].unfinished || w < 0 || w >= 2)
            continue;
        by_ai[(g & 1) ? 1 - w : w]++;
    }
}

static void print_json(const sim_job *job, const long *wins, long draws, long unfinished,
                       double mean)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", job->game->id);
    cJSON_AddNumberToObject(o, "games", (double)job->games);
    cJSON *w = cJSON_AddArrayToObject(o, "wins");
    cJSON *ai = cJSON_AddArrayToObject(o, "ai");
    for (int p = 0; p < job->cfg.players; p++) {
        cJSON_AddItemToArray(w, cJSON_CreateNumber((double)wins[p]));
        cJSON_AddItemToArray(ai, cJSON_CreateString(job->ai_specs[p]));
    }
    cJSON_AddNumberToObject(o, "draws", (double)draws);
    cJSON_AddNumberToObject(o, "unfinished", (double)unfinished);
    if (job->turn_cap > 0)
        cJSON_AddNumberToObject(o, "turn_cap", job->turn_cap);
    else
        cJSON_AddNullToObject(o, "turn_cap");
    cJSON_AddNumberToObject(o, "mean_actions", mean);
    cJSON_AddNumberToObject(o, "seed", (double)job->cfg.seed);
    cJSON_AddBoolToObject(o, "paired", job->paired);
    if (job->paired) {
        long by_ai[2];
        wins_by_ai(job, by_ai);
        cJSON *w2 = cJSON_AddArrayToObject(o, "wins_by_ai");
        for (int k = 0; k < 2; k++)
            cJSON_AddItemToArray(w2, cJSON_CreateNumber((double)by_ai[k]));
    }
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(o);
}

static void print_results(const sim_job *job, bool json)
{
    int players = job->cfg.players;
    long wins[RP_MAX_PLAYERS] = {0}, draws = 0, unfinished = 0, total_actions = 0;
    for (long g = 0; g < job->games; g++) {
        const sim_result *r = &job->results[g];
        if (r->unfinished)
            unfinished++;
        else if (r->winner < 0)
            draws++;
        else
            wins[r->winner]++;
        total_actions += r->actions;
    }
    double mean = (double)total_actions / (double)job->games;
    if (json) {
        print_json(job, wins, draws, unfinished, mean);
        return;
    }
    printf("%s: %ld games, seed %llu%s\n", job->game->id, job->games,
           (unsigned long long)job->cfg.seed, job->paired ? ", paired with seats swapped" : "");
    if (job->turn_cap > 0)
        printf("  games still going after %d turns were stopped (a cap of the tool, not a rule)\n",
               job->turn_cap);
    for (int p = 0; p < players; p++)
        printf("  seat %d %-10s %-16s wins %6ld  (%.1f%%)\n", p, rp_seat_name(job->game, p),
               job->paired && p < 2 ? "(alternating)" : job->ai_specs[p], wins[p],
               100.0 * (double)wins[p] / (double)job->games);
    if (job->paired) {
        long by_ai[2];
        wins_by_ai(job, by_ai);
        for (int k = 0; k < 2; k++)
            printf("  AI %d  %-24s wins %6ld  (%.1f%%)  (%s in odd games, %s in even)\n", k + 1,
                   job->ai_specs[k], by_ai[k], 100.0 * (double)by_ai[k] / (double)job->games,
                   rp_seat_name(job->game, k), rp_seat_name(job->game, 1 - k));
    }
    printf("  draws or shared             %6ld  (%.1f%%)\n", draws,
           100.0 * (double)draws / (double)job->games);
    if (job->turn_cap > 0)
        printf("  unfinished at the turn cap  %6ld  (%.1f%%)\n", unfinished,
               100.0 * (double)unfinished / (double)job->games);
    printf("  mean actions per game       %.1f\n", mean);
}

int rp_cmd_sim(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        sim_help();
        return RP_EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return rp_cli_usage_error("sim", "which game? (ramparts list)");
    static sim_job job;
    memset(&job, 0, sizeof job);
    if (!(job.game = rp_cli_game("sim", argv[1])))
        return RP_EXIT_USAGE;
    rp_config_default(job.game, &job.cfg);
    long long games = 100, threads = 1, seed = 1, max_turns = 0;
    char *ai_list = NULL;
    bool json = false, seed_given = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--paired") == 0) {
            job.paired = true;
        } else if (strcmp(a, "--games") == 0 || strcmp(a, "--threads") == 0 ||
                   strcmp(a, "--seed") == 0 || strcmp(a, "--max-turns") == 0) {
            if (!(v = rp_cli_value("sim", argc, argv, &i)))
                return RP_EXIT_USAGE;
            bool ok = strcmp(a, "--games") == 0 ? rp_cli_number("sim", a, v, 1, 100000000, &games)
                      : strcmp(a, "--threads") == 0 ? rp_cli_number("sim", a, v, 1, 256, &threads)
                      : strcmp(a, "--max-turns") == 0
                          ? rp_cli_number("sim", a, v, 1, 1000000, &max_turns)
                          : rp_cli_number("sim", a, v, 0, INT64_MAX, &seed);
            if (!ok)
                return RP_EXIT_USAGE;
            seed_given = seed_given || strcmp(a, "--seed") == 0;
        } else if (strcmp(a, "--ai") == 0) {
            if (!(ai_list = (char *)rp_cli_value("sim", argc, argv, &i)))
                return RP_EXIT_USAGE;
        } else if (a[0] == '-') {
            return rp_cli_usage_error("sim", "unknown option '%s'", a);
        } else {
            int rc = rp_cli_set_option("sim", job.game, &job.cfg, a);
            if (rc != RP_EXIT_OK)
                return rc;
        }
    }
    if (seed_given)
        job.cfg.seed = (uint64_t)seed;
    char default_ai[] = "random";
    if (!parse_ai_list(&job, ai_list ? ai_list : default_ai, job.cfg.players))
        return RP_EXIT_USAGE;
    if (job.game->paired_seats && job.cfg.players == 2)
        job.paired = true;
    job.games = (long)games;
    job.turn_cap = rp_cli_turn_cap(job.game, max_turns);
    job.results = calloc((size_t)games, sizeof *job.results);
    if (!job.results) {
        fprintf(stderr, "ramparts sim: out of memory\n");
        return RP_EXIT_FAIL;
    }
    rp_error err;
    int rc = RP_EXIT_OK;
    if (rp_cli_parallel("sim", job.games, (int)threads, play_one, &job, job.results,
                        sizeof *job.results, &err) < 0) {
        fprintf(stderr, "ramparts sim: %s\n", err.msg);
        rc = RP_EXIT_FAIL;
    } else if (rp_cli_mpi_root()) {
        print_results(&job, json);
    }
    free(job.results);
    return rc;
}
