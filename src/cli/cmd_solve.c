/* cmd_solve.c — `ramparts solve GAME(OPTIONS)`: a small configuration of a game solved exactly
 * with CFR+ (ramparts/solve.h), printing the exploitability curve and writing the average
 * policy, for researchers checking an algorithm against the exact answer. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ramparts/solve.h"

#define SOLVE_DEFAULT_NODES 20000000LL

static void solve_help(void)
{
    printf("usage: ramparts solve GAME(key=value,...) [key=value ...] [--iterations N]\n"
           "                      [--every K] [--max-nodes N] [--policy FILE] [--json]\n\n"
           "Builds the whole tree of a two-seat game under small options (chance explicit,\n"
           "information states keyed by what each seat saw), runs N iterations of CFR+\n"
           "(default 1000) and prints the exploitability of the average policy every K\n"
           "iterations (default 100): the sum of both seats' best responses, less 1, halved,\n"
           "in shares of a win (0 at an equilibrium). A tree of more than --max-nodes nodes\n"
           "(default %lld, about 1 GB) is refused: use the games' small options\n"
           "(docs/learning/solve.md), e.g. walls-and-armies(deck=6,turn-cap=2) or\n"
           "king-of-danger(players=2,deal=1+1).\n"
           "--policy FILE writes the average policy as JSON lines, one per information state:\n"
           "{\"seat\", \"history\" (chance outcomes and actions from the start), \"actions\"}.\n"
           "--json prints one JSON object instead of the table.\n"
           "Exit codes: 0 solved, 1 the game cannot be solved so (too big, not two seats), 2\n"
           "bad usage.\n",
           SOLVE_DEFAULT_NODES);
}

/* Options the game refuses to set up (a text option out of shape, such as King of Danger's
 * deal=5+1) are bad usage, as a number out of range is, not a tree that cannot be solved. */
static int options_set_up(const rp_game *game, const rp_config *cfg)
{
    rp_state *st = malloc(sizeof *st);
    if (!st)
        return RP_EXIT_FAIL;
    rp_error err;
    const int init = game->init(st, cfg, &err);
    free(st);
    return init < 0 ? rp_cli_usage_error("solve", "%s", err.msg) : RP_EXIT_OK;
}

/* GAME or GAME(key=value,...): the game, its options set in cfg. */
static int solve_game(const char *spec, const rp_game **game, rp_config *cfg)
{
    char id[128];
    const char *open = strchr(spec, '(');
    const size_t len = open ? (size_t)(open - spec) : strlen(spec);
    if (len >= sizeof id)
        return rp_cli_usage_error("solve", "no game '%s'", spec);
    memcpy(id, spec, len);
    id[len] = '\0';
    if (!(*game = rp_cli_game("solve", id)))
        return RP_EXIT_USAGE;
    rp_config_default(*game, cfg);
    if (!open)
        return RP_EXIT_OK;
    const size_t n = strlen(open + 1);
    if (n == 0 || open[n] != ')')
        return rp_cli_usage_error("solve", "'%s': options go as GAME(key=value,...)", spec);
    char *list = malloc(n);
    if (!list)
        return RP_EXIT_FAIL;
    memcpy(list, open + 1, n - 1);
    list[n - 1] = '\0';
    int rc = RP_EXIT_OK;
    for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv && rc == RP_EXIT_OK;
         kv = strtok_r(NULL, ",", &save))
        rc = rp_cli_set_option("solve", *game, cfg, kv);
    free(list);
    return rc == RP_EXIT_OK ? options_set_up(*game, cfg) : rc;
}

int rp_cmd_solve(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        solve_help();
        return RP_EXIT_OK;
    }
    const rp_game *game = NULL;
    rp_config cfg;
    long long iterations = 1000, every = 100, max_nodes = SOLVE_DEFAULT_NODES;
    const char *policy = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--iterations") == 0) {
            if (!(v = rp_cli_value("solve", argc, argv, &i)) ||
                !rp_cli_number("solve", "--iterations", v, 1, 100000000, &iterations))
                return RP_EXIT_USAGE;
        } else if (strcmp(argv[i], "--every") == 0) {
            if (!(v = rp_cli_value("solve", argc, argv, &i)) ||
                !rp_cli_number("solve", "--every", v, 1, 100000000, &every))
                return RP_EXIT_USAGE;
        } else if (strcmp(argv[i], "--max-nodes") == 0) {
            if (!(v = rp_cli_value("solve", argc, argv, &i)) ||
                !rp_cli_number("solve", "--max-nodes", v, 1, 4000000000LL, &max_nodes))
                return RP_EXIT_USAGE;
        } else if (strcmp(argv[i], "--policy") == 0) {
            if (!(policy = rp_cli_value("solve", argc, argv, &i)))
                return RP_EXIT_USAGE;
        } else if (argv[i][0] == '-') {
            return rp_cli_usage_error("solve", "unknown option '%s'", argv[i]);
        } else if (!game) {
            const int rc = solve_game(argv[i], &game, &cfg);
            if (rc != RP_EXIT_OK)
                return rc;
        } else {
            const int rc = rp_cli_set_option("solve", game, &cfg, argv[i]);
            if (rc != RP_EXIT_OK)
                return rc;
        }
    }
    if (!game)
        return rp_cli_usage_error("solve", "which game? (ramparts solve --help)");

    rp_error err;
    rp_solver *s = NULL;
    const unsigned long long t0 = rp_cli_now_ns();
    if (rp_solver_new(game, &cfg, (size_t)max_nodes, &s, &err) < 0) {
        fprintf(stderr, "ramparts solve: %s\n", err.msg);
        return RP_EXIT_FAIL;
    }
    const double build_s = (double)(rp_cli_now_ns() - t0) / 1e9;
    char options[512];
    if (rp_config_to_text(game, &cfg, options, sizeof options) < 0)
        options[0] = '\0';
    if (json)
        printf("{\"game\":\"%s\",\"options\":\"%s\",\"nodes\":%zu,\"terminals\":%zu,"
               "\"infosets\":%zu,\"recall_breaks\":%zu,\"build_s\":%.3f,"
               "\"uniform_exploitability\":%.9f,\"curve\":[",
               game->id, options, rp_solver_nodes(s), rp_solver_terminals(s), rp_solver_infosets(s),
               rp_solver_recall_breaks(s), build_s, rp_solver_exploitability(s, RP_SOLVE_UNIFORM));
    else
        printf("%s %s: %zu nodes, %zu terminal, %zu information states%s (built in %.2f s)\n"
               "uniform policy: exploitability %.6f\n%10s %14s %12s\n",
               game->id, options, rp_solver_nodes(s), rp_solver_terminals(s), rp_solver_infosets(s),
               rp_solver_recall_breaks(s) ? ", NOT perfect recall" : ", perfect recall", build_s,
               rp_solver_exploitability(s, RP_SOLVE_UNIFORM), "iterations", "exploitability",
               "seat 0 value");
    rp_progress bar;
    rp_progress_start(&bar, "CFR+", (long)iterations);
    double run_ns = 0;
    for (long long done = 0; done < iterations;) {
        const long long step = every < iterations - done ? every : iterations - done;
        const unsigned long long a = rp_cli_now_ns();
        rp_solver_iterate(s, (int)step);
        run_ns += (double)(rp_cli_now_ns() - a);
        done += step;
        rp_progress_update(&bar, (long)done);
        const double e = rp_solver_exploitability(s, RP_SOLVE_AVERAGE);
        const double v = rp_solver_value(s, RP_SOLVE_AVERAGE, 0);
        if (json)
            printf("%s{\"iterations\":%lld,\"exploitability\":%.9f,\"value0\":%.9f}",
                   done == step ? "" : ",", done, e, v);
        else
            printf("%10lld %14.9f %12.6f\n", done, e, v);
    }
    rp_progress_finish(&bar);
    const double per_s = run_ns > 0 ? (double)iterations / (run_ns / 1e9) : 0;
    int rc = RP_EXIT_OK;
    if (policy) {
        FILE *f = fopen(policy, "w");
        if (!f || rp_solver_write_policy(s, f, &err) < 0) {
            fprintf(stderr, "ramparts solve: cannot write %s\n", policy);
            rc = RP_EXIT_FAIL;
        }
        if (f && fclose(f) != 0 && rc == RP_EXIT_OK) {
            fprintf(stderr, "ramparts solve: cannot write %s\n", policy);
            rc = RP_EXIT_FAIL;
        }
    }
    if (json)
        printf("],\"iterations_per_s\":%.1f}\n", per_s);
    else
        printf("%.1f iterations/s%s%s\n", per_s, policy && rc == RP_EXIT_OK ? "; policy in " : "",
               policy && rc == RP_EXIT_OK ? policy : "");
    rp_solver_free(s);
    return rc;
}
