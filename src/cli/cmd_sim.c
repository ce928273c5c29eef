/* cmd_sim.c — `ramparts sim GAME --games N`: AI against AI, many games on several threads.
 * Game i always uses seed S+i and AIs seeded from (S, i, seat), so the totals are the same
 * whatever the number of threads. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct sim_job {
    const rp_game *game;
    rp_config cfg;
    const char *ai_specs[RP_MAX_PLAYERS];
    long games;
    bool paired; /* games 2k and 2k+1: same deal, the two seats' AIs swapped */
    int *winner; /* per game: sole winning seat, or -1 for a draw or shared win */
    long *actions;
} sim_job;

/* The AI spec sitting at `seat` in game g (swapped on odd games of a pair). */
static const char *spec_at(const sim_job *job, long g, int seat)
{
    if (job->paired && (g & 1) && seat < 2)
        seat = 1 - seat;
    return job->ai_specs[seat];
}

static int play_one(void *ctx, long g, rp_error *err)
{
    sim_job *job = ctx;
    rp_config cfg = job->cfg;
    cfg.seed = job->cfg.seed + (uint64_t)(job->paired ? g / 2 : g);
    const char *specs[RP_MAX_PLAYERS];
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        specs[p] = spec_at(job, g, p);
    double r[RP_MAX_PLAYERS] = {0};
    rp_error inner = {{0}};
    int rc = rp_cli_ai_game(job->game, &cfg, specs, cfg.seed * 1000003u, r, &job->actions[g],
                            &inner);
    if (rc < 0)
        return rp_fail(err, rc, "game %ld: %s", g, inner.msg);
    int winner = -1;
    for (int p = 0; p < cfg.players; p++)
        if (r[p] > 0.999)
            winner = p;
    job->winner[g] = winner;
    return RP_OK;
}

static void sim_help(void)
{
    printf("usage: ramparts sim GAME [--games N] [--seed S] [--ai A,B,...] [--threads T]\n"
           "                    [--paired] [--json] [key=value ...]\n\n"
           "Plays N games (default 100) AI against AI and prints wins per seat, draws (and\n"
           "shared wins) and the mean number of player actions per game. --ai lists one AI per\n"
           "seat (the last one fills the remaining seats; default random). Game i uses seed S+i\n"
           "(default S=1). --paired plays games in pairs with the first two seats' AIs swapped\n"
           "(on by default for games that declare paired seats, e.g. castle-danger). A progress bar shows on a terminal.\n\nAIs:\n%s",
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

static void print_results(const sim_job *job, bool json)
{
    int players = job->cfg.players;
    long wins[RP_MAX_PLAYERS] = {0}, draws = 0, total_actions = 0;
    for (long g = 0; g < job->games; g++) {
        if (job->winner[g] < 0)
            draws++;
        else
            wins[job->winner[g]]++;
        total_actions += job->actions[g];
    }
    double mean = (double)total_actions / (double)job->games;
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "game", job->game->id);
        cJSON_AddNumberToObject(o, "games", (double)job->games);
        cJSON *w = cJSON_AddArrayToObject(o, "wins");
        cJSON *ai = cJSON_AddArrayToObject(o, "ai");
        for (int p = 0; p < players; p++) {
            cJSON_AddItemToArray(w, cJSON_CreateNumber((double)wins[p]));
            cJSON_AddItemToArray(ai, cJSON_CreateString(job->ai_specs[p]));
        }
        cJSON_AddNumberToObject(o, "draws", (double)draws);
        cJSON_AddNumberToObject(o, "mean_actions", mean);
        cJSON_AddNumberToObject(o, "seed", (double)job->cfg.seed);
        cJSON_AddBoolToObject(o, "paired", job->paired);
        char *text = cJSON_PrintUnformatted(o);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(o);
        return;
    }
    printf("%s: %ld games, seed %llu%s\n", job->game->id, job->games,
           (unsigned long long)job->cfg.seed, job->paired ? ", paired with seats swapped" : "");
    for (int p = 0; p < players; p++)
        printf("  seat %d %-10s %-16s wins %6ld  (%.1f%%)\n", p, rp_seat_name(job->game, p),
               job->paired && p < 2 ? "(alternating)" : job->ai_specs[p], wins[p],
               100.0 * (double)wins[p] / (double)job->games);
    printf("  draws or shared             %6ld  (%.1f%%)\n", draws,
           100.0 * (double)draws / (double)job->games);
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
    long long games = 100, threads = 1, seed = 1;
    char *ai_list = NULL;
    bool json = false, seed_given = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--paired") == 0) {
            job.paired = true;
        } else if (strcmp(a, "--games") == 0 || strcmp(a, "--threads") == 0 ||
                   strcmp(a, "--seed") == 0) {
            if (!(v = rp_cli_value("sim", argc, argv, &i)))
                return RP_EXIT_USAGE;
            bool ok = strcmp(a, "--games") == 0     ? rp_cli_number("sim", a, v, 1, 100000000, &games)
                      : strcmp(a, "--threads") == 0 ? rp_cli_number("sim", a, v, 1, 256, &threads)
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
    job.winner = calloc((size_t)games, sizeof *job.winner);
    job.actions = calloc((size_t)games, sizeof *job.actions);
    if (!job.winner || !job.actions) {
        fprintf(stderr, "ramparts sim: out of memory\n");
        return RP_EXIT_FAIL;
    }
    rp_error err;
    int rc = RP_EXIT_OK;
    if (rp_cli_parallel("sim", job.games, (int)threads, play_one, &job, &err) < 0) {
        fprintf(stderr, "ramparts sim: %s\n", err.msg);
        rc = RP_EXIT_FAIL;
    } else {
        print_results(&job, json);
    }
    free(job.winner);
    free(job.actions);
    return rc;
}
