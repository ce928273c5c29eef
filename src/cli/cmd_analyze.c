/* cmd_analyze.c — `ramparts analyze GAME`: plays AI games on every core (and across MPI
 * processes), optionally rule variants on the same seeds, a skill ladder and a judged sample,
 * reads human records, and writes one self-contained HTML report and the same figures as
 * JSON. Every game is a pure function of its index, so the report depends only on the
 * arguments. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ai/oracle.h"
#include "analyze.h"

#define MAX_VARIANTS 6
#define MAX_SWEEP 12 /* values of one --sweep */
#define MAX_LEVELS 8

typedef enum task_kind {
    TASK_MAIN,
    TASK_VARIANT,
    TASK_LADDER,
    TASK_CEILING,
    TASK_JUDGE,
    TASK_LEVEL /* self-play at one skill level: the first mover's advantage by level */
} task_kind;

/* The ceiling's opponents: the weakest and the strongest level of the ladder. */
#define CEILING_PAIRINGS 2

typedef struct analyze_job {
    const rp_game *game;
    rp_config cfg;
    const char *ai_specs[RP_MAX_PLAYERS];
    int num_ai;
    long games;  /* AI games under the base rules (and per variant) */
    bool paired; /* two-player: games 2k, 2k+1 share a deal, the AIs swap seats */
    int turn_cap;
    /* the --vs variants, then the --sweep values: every one played on the base games' seeds */
    rp_config variants[MAX_VARIANTS + MAX_SWEEP];
    const char *variant_text[MAX_VARIANTS + MAX_SWEEP];
    int num_variants; /* both kinds */
    int num_vs;       /* the --vs variants among them (the first ones) */
    const char *sweep_option;
    char sweep_axis[RP_OPTION_TEXT + 64]; /* what the sweep changes: the option, or one part */
    double sweep_x[MAX_SWEEP];            /* the number swept, NaN when a value is not a number */
    char sweep_label[MAX_SWEEP][64];      /* the swept part of the value, as given */
    const char *levels[MAX_LEVELS];
    int num_levels;
    long ladder_games;  /* per pairing of neighbouring levels */
    long ceiling_games; /* per pairing of the oracle with the weakest and the strongest level */
    double detect;      /* --detect: the step between levels the ladder is sized for (a share) */
    const char *judge;
    long judge_games;
    const char *fm_levels[MAX_LEVELS]; /* --first-mover-levels: self-play at each */
    int num_fm_levels;
    long fm_games; /* --first-mover-games: games per level */
    const char *records_dir;
    const char *save_dir; /* write the base games as records here */
    an_game *items;
    long total;
} analyze_job;

/* ---- the tasks: one index space over every game the run plays ---- */

static long ladder_start(const analyze_job *job)
{
    return job->games * (1 + job->num_variants);
}

static long ceiling_start(const analyze_job *job)
{
    return ladder_start(job) + (long)(job->num_levels - 1) * job->ladder_games;
}

static long judge_start(const analyze_job *job)
{
    return ceiling_start(job) + CEILING_PAIRINGS * job->ceiling_games;
}

static long level_start(const analyze_job *job)
{
    return judge_start(job) + job->judge_games;
}

static task_kind task_of(const analyze_job *job, long index, long *k, long *g)
{
    if (index < job->games * (1 + job->num_variants)) {
        *k = index / job->games;
        *g = index % job->games;
        return *k == 0 ? TASK_MAIN : TASK_VARIANT;
    }
    if (index < ceiling_start(job)) {
        *k = (index - ladder_start(job)) / job->ladder_games;
        *g = (index - ladder_start(job)) % job->ladder_games;
        return TASK_LADDER;
    }
    if (index < judge_start(job)) {
        *k = (index - ceiling_start(job)) / job->ceiling_games;
        *g = (index - ceiling_start(job)) % job->ceiling_games;
        return TASK_CEILING;
    }
    if (index < level_start(job)) {
        *k = 0;
        *g = index - judge_start(job);
        return TASK_JUDGE;
    }
    *k = (index - level_start(job)) / job->fm_games;
    *g = (index - level_start(job)) % job->fm_games;
    return TASK_LEVEL;
}

/* SplitMix64's finaliser: a bijection of 64-bit words that spreads neighbours far apart. */
static uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    return x ^ (x >> 31);
}

/* The seed of deal `deal` of the run (issue 46): mixed from the run's seed and the deal's
 * index as a counter-based generator does, so runs with different seeds share no deal (with
 * seed + deal, --seed 2 replayed 1,999 of --seed 1's 2,000 deals), while one seed still
 * gives the same deals, on one process or under MPI. The inputs seed + k * (2^64 / phi) are
 * distinct for any two seeds and counts below 2^32, and mix64 is one to one. */
static uint64_t deal_seed(const analyze_job *job, long deal)
{
    return mix64(job->cfg.seed + 0x9E3779B97F4A7C15u * ((uint64_t)deal + 1u));
}

/* The seed of an AI game's searches: likewise apart between runs; `salt` keeps the base
 * games, the ladder and the ceiling apart within one. */
static uint64_t ai_game_seed(const analyze_job *job, uint64_t salt, long g)
{
    return mix64(deal_seed(job, g) ^ mix64(salt));
}

/* The seeds and seats of base game g (variants and judged games replay the same). */
static void base_setup(const analyze_job *job, long g, rp_config *cfg, const char **specs,
                       uint64_t *ai_seed)
{
    const long deal = job->paired ? g / 2 : g;
    cfg->seed = deal_seed(job, deal);
    for (int p = 0; p < RP_MAX_PLAYERS; p++) {
        int from = p;
        if (job->paired && (g & 1) && p < 2)
            from = 1 - p;
        specs[p] = job->ai_specs[from < job->num_ai ? from : job->num_ai - 1];
    }
    *ai_seed = ai_game_seed(job, 17u, g);
}

/* Ladder pairing k (levels k and k+1), game g: the stronger AI alone on one seat, rotating
 * over the seats of each deal. Returns that seat. */
static int ladder_setup(const analyze_job *job, long k, long g, int players, rp_config *cfg,
                        const char **specs, uint64_t *ai_seed)
{
    const int strong = (int)(g % players);
    cfg->seed = deal_seed(job, g / players);
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        specs[p] = job->levels[p == strong ? k + 1 : k];
    *ai_seed = ai_game_seed(job, 29u + (uint64_t)k * 7919u, g);
    return strong;
}

/* Self-play at first-mover level k, game g: every seat that level, deals as the base games'
 * (two players: each deal twice), its own search seeds. */
static void level_setup(const analyze_job *job, long k, long g, rp_config *cfg, const char **specs,
                        uint64_t *ai_seed)
{
    cfg->seed = deal_seed(job, job->paired ? g / 2 : g);
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        specs[p] = job->fm_levels[k];
    *ai_seed = ai_game_seed(job, 37u + (uint64_t)k * 6151u, g);
}

/* Ceiling pairing k (0: the oracle against the weakest level, 1: against the strongest),
 * game g: the oracle alone on one seat, rotating over the seats of each deal. */
static int ceiling_setup(const analyze_job *job, long k, long g, int players, rp_config *cfg,
                         const char **specs, uint64_t *ai_seed)
{
    const int strong = (int)(g % players);
    const char *level = job->levels[k == 0 ? 0 : job->num_levels - 1];
    cfg->seed = deal_seed(job, g / players);
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        specs[p] = p == strong ? rp_cli_oracle_spec : level;
    *ai_seed = ai_game_seed(job, 31u + (uint64_t)k * 104729u, g);
    return strong;
}

/* Records the moves of a game while the collector measures it. */
typedef struct watch_pair {
    an_collector *collector;
    rp_action *moves;
    size_t num_moves, cap_moves;
    bool out_of_memory;
} watch_pair;

static void watch_both(void *ctx, const void *st, int mover, rp_action action, int legal)
{
    watch_pair *w = ctx;
    an_collector_watch(w->collector, st, mover, action, legal);
    if (mover == RP_TERMINAL || w->out_of_memory)
        return;
    if (w->num_moves == w->cap_moves) {
        const size_t cap = w->cap_moves ? 2 * w->cap_moves : 256;
        rp_action *grown = realloc(w->moves, sizeof *grown * cap);
        if (!grown) {
            w->out_of_memory = true;
            return;
        }
        w->moves = grown;
        w->cap_moves = cap;
    }
    w->moves[w->num_moves++] = action;
}

static int save_record(const analyze_job *job, const rp_config *cfg, const char **specs,
                       const watch_pair *w, long g, rp_error *err)
{
    rp_match *m = rp_match_new(job->game, cfg, err);
    if (!m)
        return RP_EINVAL;
    int rc = RP_OK;
    for (size_t i = 0; rc == RP_OK && i < w->num_moves; i++)
        rc = rp_match_play(m, w->moves[i], err);
    for (int p = 0; rc == RP_OK && p < cfg->players; p++)
        rc = rp_match_set_player(m, p, specs[p], err);
    if (rc < 0) {
        rp_match_free(m);
        return rc;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%06ld.rec", job->save_dir, job->game->id, g);
    FILE *out = fopen(path, "w");
    if (!out) {
        rp_match_free(m);
        return rp_fail(err, RP_EIO, "cannot write %s: %s", path, strerror(errno));
    }
    rc = rp_record_write(m, out);
    if (fclose(out) != 0 && rc == RP_OK)
        rc = RP_EIO;
    rp_match_free(m);
    return rc < 0 ? rp_fail(err, rc, "cannot write %s", path) : RP_OK;
}

static int play_measured(const analyze_job *job, const rp_config *cfg, const char **specs,
                         uint64_t ai_seed, long save_as, an_game *item, rp_error *err)
{
    watch_pair w = {an_collector_new(job->game, item), NULL, 0, 0, false};
    if (!w.collector)
        return rp_fail(err, RP_ENOMEM, "out of memory");
    rp_cli_outcome out;
    int rc =
        rp_cli_ai_game(job->game, cfg, specs, ai_seed, job->turn_cap, watch_both, &w, &out, err);
    if (rc == RP_OK && w.out_of_memory)
        rc = rp_fail(err, RP_ENOMEM, "out of memory");
    if (rc == RP_OK)
        rc = an_collector_finish(w.collector, out.returns, out.unfinished, err);
    if (rc == RP_OK)
        item->turns = out.turns; /* the runner's count: the cap for a stopped game */
    if (rc == RP_OK && save_as >= 0)
        rc = save_record(job, cfg, specs, &w, save_as, err);
    an_collector_free(w.collector);
    free(w.moves);
    return rc;
}

static int play_judged(const analyze_job *job, long g, an_game *item, rp_error *err)
{
    rp_config cfg = job->cfg;
    const char *specs[RP_MAX_PLAYERS];
    uint64_t ai_seed;
    base_setup(job, g, &cfg, specs, &ai_seed);
    an_judge *judge;
    int rc = an_judge_new(job->game, job->judge, ai_seed ^ 0x6a75646765ull, item, &judge, err);
    if (rc < 0)
        return rc;
    rp_cli_outcome out;
    rc = rp_cli_ai_game(job->game, &cfg, specs, ai_seed, job->turn_cap, an_judge_watch, judge, &out,
                        err);
    if (rc == RP_OK)
        rc = an_judge_finish(judge, out.returns, out.unfinished, err);
    an_judge_free(judge);
    return rc;
}

static int run_task(void *ctx, long index, void *item, rp_error *err)
{
    const analyze_job *job = ctx;
    long k, g;
    const task_kind kind = task_of(job, index, &k, &g);
    if (kind == TASK_JUDGE)
        return play_judged(job, g, item, err);
    rp_config cfg = kind == TASK_VARIANT ? job->variants[k - 1] : job->cfg;
    const char *specs[RP_MAX_PLAYERS];
    uint64_t ai_seed;
    int strong = -1;
    if (kind == TASK_LADDER)
        strong = ladder_setup(job, k, g, job->cfg.players, &cfg, specs, &ai_seed);
    else if (kind == TASK_CEILING)
        strong = ceiling_setup(job, k, g, job->cfg.players, &cfg, specs, &ai_seed);
    else if (kind == TASK_LEVEL)
        level_setup(job, k, g, &cfg, specs, &ai_seed);
    else
        base_setup(job, g, &cfg, specs, &ai_seed);
    rp_error inner = {{0}};
    const long save_as = kind == TASK_MAIN && job->save_dir ? g : -1;
    int rc = play_measured(job, &cfg, specs, ai_seed, save_as, item, &inner);
    if (rc < 0)
        return rp_fail(err, rc, "game %ld (seed %llu): %s", g, (unsigned long long)cfg.seed,
                       inner.msg);
    ((an_game *)item)->strong_seat = strong;
    return RP_OK;
}

/* ---- human records ---- */

static bool is_record_name(const char *name)
{
    const size_t n = strlen(name);
    return (n > 4 && strcmp(name + n - 4, ".rec") == 0) ||
           (n > 7 && strcmp(name + n - 7, ".record") == 0);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The record files of dir, sorted (so the report does not depend on the directory order). */
static char **list_records(const char *dir, int *count, rp_error *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        rp_fail(err, RP_EIO, "--records %s: %s", dir, strerror(errno));
        return NULL;
    }
    char **names = NULL;
    int n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_record_name(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, sizeof *grown * (size_t)cap);
            if (!grown)
                break;
            names = grown;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    if (names)
        qsort(names, (size_t)n, sizeof *names, compare_names);
    *count = n;
    if (!names)
        names = calloc(1, sizeof *names);
    return names;
}

/* The records of --records DIR: games with a human seat, and games only AIs played (from
 * `watch`, `--save-records`), kept apart: an AI-only record is no evidence of human play. */
typedef struct human_set {
    an_game *games;      /* the human games from the front, the AI-only ones from the back */
    long count, ai_only; /* how many of each */
    long capacity;       /* slots in games */
    long other_games, files;
    cJSON *options_seen; /* options text -> number of human games */
} human_set;

static int read_one_record(const analyze_job *job, const char *path, human_set *h, rp_error *err)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return rp_fail(err, RP_EIO, "cannot open %s: %s", path, strerror(errno));
    rp_match *m = rp_record_read(in, path, err);
    fclose(in);
    if (!m)
        return RP_EPARSE;
    h->files++;
    const rp_game *game = rp_match_game(m);
    if (game != job->game) {
        h->other_games++;
        rp_match_free(m);
        return RP_OK;
    }
    const bool human = rp_match_humans(m) > 0;
    if (human) {
        char options[1024];
        rp_config cfg = *rp_match_config(m);
        cfg.seed = 0;
        rp_config_to_text(game, &cfg, options, sizeof options);
        cJSON *seen = cJSON_GetObjectItemCaseSensitive(h->options_seen, options);
        if (seen)
            cJSON_SetNumberValue(seen, seen->valuedouble + 1);
        else
            cJSON_AddNumberToObject(h->options_seen, options, 1);
    }
    an_game *slot = human ? &h->games[h->count] : &h->games[h->capacity - 1 - h->ai_only];
    int rc = an_measure_match(m, slot, err);
    if (rc == RP_OK && human)
        h->count++;
    else if (rc == RP_OK)
        h->ai_only++;
    rp_match_free(m);
    return rc;
}

static int read_records(const analyze_job *job, human_set *h, rp_error *err)
{
    int n = 0;
    char **names = list_records(job->records_dir, &n, err);
    if (!names)
        return RP_EIO;
    h->capacity = n + 1;
    h->games = calloc((size_t)h->capacity, sizeof *h->games);
    h->options_seen = cJSON_CreateObject();
    int rc = h->games ? RP_OK : rp_fail(err, RP_ENOMEM, "out of memory");
    for (int i = 0; i < n && rc == RP_OK; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", job->records_dir, names[i]);
        rc = read_one_record(job, path, h, err);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    /* the AI-only games were filled from the back: put them in the files' order */
    for (long a = h->capacity - h->ai_only, b = h->capacity - 1; h->games && a < b; a++, b--) {
        const an_game swap = h->games[a];
        h->games[a] = h->games[b];
        h->games[b] = swap;
    }
    if (rc == RP_OK && h->count + h->ai_only == 0)
        rc = rp_fail(err, RP_EINVAL, "--records %s: no records of %s there (%ld files read)",
                     job->records_dir, job->game->id, h->files);
    return rc;
}

/* ---- the report ---- */

static cJSON *config_json(const analyze_job *job, const rp_config *cfg)
{
    char text[1024];
    rp_config_to_text(job->game, cfg, text, sizeof text);
    return cJSON_CreateString(text);
}

/* How a family of comparisons was corrected (an_holm_rows). */
static cJSON *correction_json(int tests, const char *family)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "method", "holm");
    cJSON_AddNumberToObject(o, "tests", tests);
    cJSON_AddStringToObject(o, "family", family);
    return o;
}

/* The sweep: every value's figures on the same deals, for curves over the value. */
static cJSON *sweep_json(const analyze_job *job)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "option", job->sweep_option);
    cJSON_AddStringToObject(o, "axis", job->sweep_axis);
    bool numeric = true;
    for (int v = job->num_vs; v < job->num_variants; v++)
        numeric = numeric && isfinite(job->sweep_x[v - job->num_vs]);
    cJSON_AddBoolToObject(o, "numeric", numeric);
    cJSON *points = cJSON_AddArrayToObject(o, "points");
    /* Every value is played on the same deals, so each one's difference from the first value
     * (the baseline) is paired: the same deals resampled in both. */
    const an_set baseline = {job->items + (job->num_vs + 1) * job->games, job->games, job->paired};
    cJSON *differences[MAX_SWEEP];
    int compared = 0;
    for (int v = job->num_vs; v < job->num_variants; v++) {
        const an_set set = {job->items + (v + 1) * job->games, job->games, job->paired};
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "setting", job->variant_text[v]);
        cJSON_AddStringToObject(p, "value", job->sweep_label[v - job->num_vs]);
        if (numeric)
            cJSON_AddNumberToObject(p, "x", job->sweep_x[v - job->num_vs]);
        cJSON_AddItemToObject(p, "options", config_json(job, &job->variants[v]));
        cJSON_AddItemToObject(p, "figures", an_figures_json(job->game, &set));
        cJSON_AddBoolToObject(p, "baseline", v == job->num_vs);
        if (v > job->num_vs) {
            differences[compared] = an_compare_json(job->game, &baseline, &set);
            cJSON_AddItemToObject(p, "difference", differences[compared++]);
        }
        cJSON_AddItemToArray(points, p);
    }
    cJSON_AddStringToObject(o, "baseline", job->sweep_label[0]);
    cJSON_AddItemToObject(o, "correction",
                          correction_json(an_holm_rows(differences, compared),
                                          "every figure of every value's "
                                          "difference from the baseline"));
    return o;
}

static double number_in(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Ludii's skill trace from the ladder's steps (an_skill_trace). */
static void add_skill_trace(cJSON *report, const cJSON *ladder)
{
    double scores[MAX_LEVELS];
    int steps = 0;
    const cJSON *step;
    cJSON_ArrayForEach (step, ladder)
        if (steps < MAX_LEVELS)
            scores[steps++] =
                number_in(cJSON_GetObjectItemCaseSensitive(step, "strong_score"), "value");
    cJSON *o = cJSON_AddObjectToObject(report, "skill_trace");
    const double trace = an_skill_trace(scores, steps);
    if (isfinite(trace))
        cJSON_AddNumberToObject(o, "value", trace);
    else
        cJSON_AddNullToObject(o, "value");
    cJSON_AddNumberToObject(o, "steps", steps);
    cJSON_AddStringToObject(
        o, "definition",
        "How results improve with thinking time, from the ladder's steps (each level against the "
        "next): the stronger side's score at each step, fitted by a line over the steps and "
        "predicted one step past the next (clipped to 0-1), plus what that leaves times the "
        "mean squared score. Near 1: more thinking keeps paying. Ludii doubles a UCT search's "
        "iterations at each of 8 steps and sums the squared scores unnormalised; here the "
        "steps are the ladder's levels and the sum is a mean.");
    cJSON_AddStringToObject(
        o, "source", "Ludii (Ludeme/Ludii), Evaluation/src/metrics/designer/SkillTrace.java");
}

static cJSON *build_report(const analyze_job *job, const human_set *human)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "tool", "ramparts analyze");
    cJSON_AddStringToObject(r, "game", job->game->id);
    cJSON_AddStringToObject(r, "title", job->game->title);
    cJSON_AddItemToObject(r, "options", config_json(job, &job->cfg));
    cJSON_AddNumberToObject(r, "seed", (double)job->cfg.seed);
    cJSON_AddStringToObject(r, "deals",
                            "deal i (from 0) is dealt from seed SplitMix64(S + (i + 1) * "
                            "0x9E3779B97F4A7C15), S the run's seed: runs with different seeds "
                            "share no deal, one seed gives the same deals");
    cJSON *ai = cJSON_AddArrayToObject(r, "ai");
    for (int p = 0; p < job->num_ai; p++)
        cJSON_AddItemToArray(ai, cJSON_CreateString(job->ai_specs[p]));
    if (job->turn_cap > 0)
        cJSON_AddNumberToObject(r, "turn_cap", job->turn_cap);
    else
        cJSON_AddNullToObject(r, "turn_cap");
    cJSON_AddBoolToObject(r, "paired", job->paired);
    const an_set base = {job->items, job->games, job->paired};
    cJSON *verdict = NULL;
    if (job->games > 0) {
        cJSON *figs = an_figures_json(job->game, &base);
        verdict = an_verdict_json(figs, job->turn_cap);
        cJSON_AddItemToObject(r, "verdict", verdict);
        cJSON_AddItemToObject(r, "ai_games", figs);
    }
    cJSON *variants = cJSON_AddArrayToObject(r, "variants");
    cJSON *differences[MAX_VARIANTS];
    for (int v = 0; v < job->num_vs; v++) {
        const an_set set = {job->items + (v + 1) * job->games, job->games, job->paired};
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "vs", job->variant_text[v]);
        cJSON_AddItemToObject(o, "options", config_json(job, &job->variants[v]));
        cJSON_AddItemToObject(o, "figures", an_figures_json(job->game, &set));
        differences[v] = an_compare_json(job->game, &base, &set);
        cJSON_AddItemToObject(o, "difference", differences[v]);
        cJSON_AddItemToArray(variants, o);
    }
    /* The variants' figures are one family: Holm over all of them, the verdict's stars too. */
    const int variant_tests = an_holm_rows(differences, job->num_vs);
    cJSON_AddItemToObject(r, "variants_correction",
                          correction_json(variant_tests, "every figure of every --vs variant"));
    if (verdict)
        an_verdict_variants(verdict, variants, variant_tests);
    if (job->sweep_option)
        cJSON_AddItemToObject(r, "sweep", sweep_json(job));
    cJSON *ladder = cJSON_AddArrayToObject(r, "ladder");
    for (int k = 0; k + 1 < job->num_levels && job->ladder_games > 0; k++) {
        const an_set set = {job->items + ladder_start(job) + k * job->ladder_games,
                            job->ladder_games, false};
        cJSON_AddItemToArray(ladder,
                             an_ladder_json(job->levels[k], job->levels[k + 1], &set, job->detect));
    }
    if (job->ceiling_games > 0)
        cJSON_AddStringToObject(r, "oracle", rp_cli_oracle_spec);
    cJSON *ceiling = cJSON_AddArrayToObject(r, "ceiling");
    for (int k = 0; k < CEILING_PAIRINGS && job->ceiling_games > 0; k++) {
        const an_set set = {job->items + ceiling_start(job) + k * job->ceiling_games,
                            job->ceiling_games, false};
        const char *level = job->levels[k == 0 ? 0 : job->num_levels - 1];
        cJSON_AddItemToArray(ceiling, an_ladder_json(level, "oracle", &set, job->detect));
    }
    add_skill_trace(r, ladder);
    cJSON *by_level = cJSON_AddArrayToObject(r, "first_mover_by_level");
    for (int k = 0; k < job->num_fm_levels && job->fm_games > 0; k++) {
        const an_set set = {job->items + level_start(job) + k * job->fm_games, job->fm_games,
                            job->paired};
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "level", job->fm_levels[k]);
        cJSON_AddNumberToObject(o, "games", (double)job->fm_games);
        cJSON_AddItemToObject(o, "first_mover", an_first_mover_json(job->game, &set));
        cJSON_AddItemToArray(by_level, o);
    }
    if (job->judge_games > 0) {
        const an_set set = {job->items + judge_start(job), job->judge_games, false};
        cJSON_AddItemToObject(r, "decisive", an_decisive_json(&set, job->judge));
    }
    if (human && human->count > 0) {
        const an_set set = {human->games, human->count, false};
        cJSON *o = an_figures_json(job->game, &set);
        cJSON_AddStringToObject(o, "directory", job->records_dir);
        cJSON_AddNumberToObject(o, "files", (double)human->files);
        cJSON_AddNumberToObject(o, "other_games", (double)human->other_games);
        cJSON_AddNumberToObject(o, "ai_only_records", (double)human->ai_only);
        cJSON_AddItemToObject(o, "options_seen", cJSON_Duplicate(human->options_seen, true));
        cJSON_AddItemToObject(r, "human_games", o);
    }
    if (human && human->ai_only > 0) {
        const an_set set = {human->games + human->capacity - human->ai_only, human->ai_only, false};
        cJSON *o = an_figures_json(job->game, &set);
        cJSON_AddStringToObject(o, "directory", job->records_dir);
        cJSON_AddItemToObject(r, "ai_records", o);
    }
    return r;
}

/* A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_field(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

static void csv_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
}

/* One row per game of a set: which set, the deal, who moved first and won, lengths, Ludii's
 * per-game metrics, each seat's share of the win and points. */
static void csv_rows(FILE *out, const analyze_job *job, const char *set_name, const an_game *games,
                     long count, bool deals)
{
    for (long i = 0; i < count; i++) {
        const an_game *g = &games[i];
        int winner = -1;
        for (int p = 0; p < g->players && !g->unfinished; p++)
            winner = g->returns[p] > 0.999 ? p : winner;
        csv_field(out, set_name);
        const long deal = deals ? (job->paired ? i / 2 : i) : -1;
        fprintf(out, ",%ld", i);
        const uint64_t seed = deal_seed(job, deal >= 0 ? deal : 0);
        if (deal >= 0)
            fprintf(out, ",%ld,%llu", deal, (unsigned long long)seed);
        else
            fputs(",,", out);
        fprintf(out, ",%d,%d,%d,%d,%d,%ld,%ld,%ld", g->players, g->first_mover, winner,
                g->unfinished, g->turns, g->actions, g->decisions, g->forced);
        csv_number(out, g->actions ? g->legal_sum / (double)g->actions : NAN);
        csv_number(out, g->lead_change);
        csv_number(out, g->stability);
        csv_number(out, g->drama);
        csv_number(out, g->decisiveness);
        for (int p = 0; p < RP_MAX_PLAYERS; p++)
            csv_number(out, p < g->players ? g->returns[p] : NAN);
        for (int p = 0; p < RP_MAX_PLAYERS; p++)
            csv_number(out, p < g->players && g->scored ? g->scores[p] : NAN);
        fputc('\n', out);
    }
}

/* --csv FILE: the per-game data of the AI games, the variants, the sweep and the records. */
static int write_csv(const analyze_job *job, const human_set *human, const char *path)
{
    FILE *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!out) {
        fprintf(stderr, "ramparts analyze: cannot write %s: %s\n", path, strerror(errno));
        return RP_EXIT_FAIL;
    }
    fputs("set,game,deal,seed,players,first_mover,winner,unfinished,turns,actions,decisions,"
          "forced,branching,lead_changes,stability,drama,decisiveness",
          out);
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        fprintf(out, ",share_%d", p);
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        fprintf(out, ",points_%d", p);
    fputc('\n', out);
    csv_rows(out, job, "base", job->items, job->games, true);
    for (int v = 0; v < job->num_variants; v++) {
        char name[RP_OPTION_TEXT + 80];
        if (v < job->num_vs)
            snprintf(name, sizeof name, "vs %s", job->variant_text[v]);
        else
            snprintf(name, sizeof name, "sweep %s=%s", job->sweep_option,
                     job->sweep_label[v - job->num_vs]);
        csv_rows(out, job, name, job->items + (v + 1) * job->games, job->games, true);
    }
    if (human) {
        csv_rows(out, job, "human records", human->games, human->count, false);
        csv_rows(out, job, "ai-only records", human->games + human->capacity - human->ai_only,
                 human->ai_only, false);
    }
    bool ok = !ferror(out);
    if (out != stdout)
        ok = fclose(out) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "ramparts analyze: cannot write %s\n", path);
        return RP_EXIT_FAIL;
    }
    return RP_EXIT_OK;
}

static int write_outputs(const cJSON *report, const char *html_path, const char *json_path)
{
    if (json_path) {
        char *text = cJSON_Print(report);
        FILE *out = strcmp(json_path, "-") == 0 ? stdout : fopen(json_path, "w");
        bool ok = text && out && fputs(text, out) >= 0 && fputc('\n', out) != EOF;
        if (out && out != stdout)
            ok = fclose(out) == 0 && ok;
        free(text);
        if (!ok) {
            fprintf(stderr, "ramparts analyze: cannot write %s\n", json_path);
            return RP_EXIT_FAIL;
        }
    }
    if (html_path) {
        FILE *out = fopen(html_path, "w");
        bool ok = out && an_write_html(out, report) == RP_OK;
        if (out)
            ok = fclose(out) == 0 && ok;
        if (!ok) {
            fprintf(stderr, "ramparts analyze: cannot write %s\n", html_path);
            return RP_EXIT_FAIL;
        }
    }
    return RP_EXIT_OK;
}

static double value_of(const cJSON *interval)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(interval, "value");
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* "Blue 49.0% [42.2%, 55.9%]" for each seat of a set's figures, then the first mover. */
static void print_seats(const cJSON *figs, const char *indent)
{
    const cJSON *seat;
    cJSON_ArrayForEach (seat, cJSON_GetObjectItemCaseSensitive(figs, "seats")) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(seat, "wins");
        printf("%s%-12s wins %5.1f%% [%5.1f%%, %5.1f%%]\n", indent,
               cJSON_GetObjectItemCaseSensitive(seat, "name")->valuestring, 100 * value_of(w),
               100 * cJSON_GetObjectItemCaseSensitive(w, "low")->valuedouble,
               100 * cJSON_GetObjectItemCaseSensitive(w, "high")->valuedouble);
    }
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(figs, "first_mover");
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(first, "defined"))) {
        printf("%sfirst mover  none (the seats decide at once)\n", indent);
        return;
    }
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(first, "wins");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(first, "p");
    printf("%sfirst mover  wins %5.1f%% [%5.1f%%, %5.1f%%], p = %.3g (%s)\n", indent,
           100 * value_of(w), 100 * cJSON_GetObjectItemCaseSensitive(w, "low")->valuedouble,
           100 * cJSON_GetObjectItemCaseSensitive(w, "high")->valuedouble,
           cJSON_IsNumber(p) ? p->valuedouble : NAN,
           cJSON_GetObjectItemCaseSensitive(first, "test")->valuestring);
}

/* The rows of a difference list that stay significant after Holm ("Turns per game +2.10
 * [+0.80, +3.40], Holm p = 0.004"), or a line saying none does. */
static void print_differences(const cJSON *rows, const char *against, int tests, const char *indent)
{
    const cJSON *row;
    int shown = 0;
    cJSON_ArrayForEach (row, rows) {
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "significant")) ||
            cJSON_GetObjectItemCaseSensitive(row, "same_as"))
            continue;
        const bool share = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "share"));
        char p_text[32], diff[160];
        an_format_p(number_in(row, "p_holm"), p_text, sizeof p_text);
        an_format_difference(number_in(row, "value"), number_in(row, "low"), number_in(row, "high"),
                             share ? 100 : 1, share ? " points" : "", diff, sizeof diff);
        printf("%s%s %s against %s, Holm p %s%s\n", indent,
               cJSON_GetObjectItemCaseSensitive(row, "label")->valuestring, diff, against, p_text,
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "relevant"))
                   ? ""
                   : " (smaller than what matters to a designer)");
        shown++;
    }
    if (!shown)
        printf("%sno figure differs significantly from %s (Holm over %d comparisons)\n", indent,
               against, tests);
}

/* Each step of the ladder: the stronger side's score and the games needed to tell the levels
 * apart, as measured and for the --detect step. */
static void print_ladder(const cJSON *ladder)
{
    const cJSON *step;
    cJSON_ArrayForEach (step, ladder) {
        const cJSON *score = cJSON_GetObjectItemCaseSensitive(step, "strong_score");
        printf("  ladder %s over %s: %5.1f%% [%5.1f%%, %5.1f%%] (fair %.0f%%), %s; a %.0f-point "
               "step needs %.0f games (%.0f deals)\n",
               cJSON_GetObjectItemCaseSensitive(step, "strong")->valuestring,
               cJSON_GetObjectItemCaseSensitive(step, "weak")->valuestring,
               100 * number_in(score, "value"), 100 * number_in(score, "low"),
               100 * number_in(score, "high"), 100 * number_in(step, "fair_share"),
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(step, "separated")) ? "separated"
                                                                                 : "not separated",
               100 * number_in(step, "detect"), number_in(step, "games_to_detect_step"),
               number_in(step, "deals_to_detect_step"));
    }
}

/* A few lines on the terminal: where the report is and the headline figures. */
static void print_summary(const analyze_job *job, const cJSON *report, const char *html_path)
{
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(report, "ai_games");
    printf("%s: %ld AI games (%s), seed %llu", job->game->id, job->games, job->ai_specs[0],
           (unsigned long long)job->cfg.seed);
    if (job->turn_cap > 0)
        printf(", games still going after %d turns stopped as unfinished", job->turn_cap);
    printf("\n");
    print_seats(figs, "  ");
    const cJSON *point;
    cJSON_ArrayForEach (point, cJSON_GetObjectItemCaseSensitive(
                                   cJSON_GetObjectItemCaseSensitive(report, "sweep"), "points")) {
        printf("  %s = %s:\n", job->sweep_axis,
               cJSON_GetObjectItemCaseSensitive(point, "value")->valuestring);
        print_seats(cJSON_GetObjectItemCaseSensitive(point, "figures"), "    ");
        const cJSON *diff = cJSON_GetObjectItemCaseSensitive(point, "difference");
        if (diff) {
            char against[sizeof job->sweep_axis + sizeof job->sweep_label[0] + 8];
            snprintf(against, sizeof against, "%s = %s", job->sweep_axis, job->sweep_label[0]);
            const cJSON *sweep = cJSON_GetObjectItemCaseSensitive(report, "sweep");
            print_differences(
                diff, against,
                (int)number_in(cJSON_GetObjectItemCaseSensitive(sweep, "correction"), "tests"),
                "    ");
        }
    }
    const cJSON *variant;
    const int variant_tests =
        (int)number_in(cJSON_GetObjectItemCaseSensitive(report, "variants_correction"), "tests");
    cJSON_ArrayForEach (variant, cJSON_GetObjectItemCaseSensitive(report, "variants")) {
        printf("  vs %s:\n", cJSON_GetObjectItemCaseSensitive(variant, "vs")->valuestring);
        print_differences(cJSON_GetObjectItemCaseSensitive(variant, "difference"), "the base rules",
                          variant_tests, "    ");
    }
    print_ladder(cJSON_GetObjectItemCaseSensitive(report, "ladder"));
    if (html_path)
        printf("report: %s\n", html_path);
}

/* ---- options ---- */

static void analyze_help(void)
{
    printf("usage: ramparts analyze GAME [key=value ...] [--games N] [--ai A,B,...]\n"
           "                        [--vs key=value[,key=value]] ... [--records DIR]\n"
           "                        [--sweep OPTION=a..b[:step]] [--out report.html]\n"
           "                        [--json FILE|-] [--csv FILE|-] [options]\n\n"
           "Plays AI games and writes a balance report a designer can act on: one self-contained\n"
           "HTML file (plots drawn by Vega-Lite, works offline) and the same figures as JSON.\n"
           "Every figure has a 95%% interval and the number of games behind it.\n\n"
           "  --games N          AI games under the base rules (default 200); two-player games\n"
           "                     are played in pairs on one deal with the seats swapped\n"
           "  --ai A,B,...       the AI of each seat, the last filling the rest (default greedy)\n"
           "  --vs key=value     a rule variant played on the same seeds and compared, figure\n"
           "                     by figure, with a paired interval; Holm-adjusted over every\n"
           "                     figure of every variant (repeatable, up to %d)\n"
           "  --sweep OPTION=a..b[:step] | OPTION=x,y,z | OPTION=text{a..b}text\n"
           "                     every value played on the same seeds: wins by seat and of the\n"
           "                     first mover, length, decisiveness and each feature's impact as\n"
           "                     curves over the value, and each value's paired difference\n"
           "                     from the first (up to %d values)\n"
           "  --records DIR      also report human games: the records (*.rec) in DIR\n"
           "  --ladder A,B,...   the skill ladder, weakest first (default\n"
           "                     random,greedy,easy,medium,hard); --ladder-games N per\n"
           "                     neighbouring pair (default 40; 0 leaves it out)\n"
           "  --detect POINTS    size the ladder for a step of POINTS (1-49) of the stronger\n"
           "                     side's score: the games a 5%% test with 80%% power needs\n"
           "                     beside each step (default 5)\n"
           "  --ceiling-games N  games of the oracle (the hard search seeing every hidden card,\n"
           "                     analysis only) against the ladder's weakest and strongest AI:\n"
           "                     the ceiling of what skill can win (default 20, with the ladder;\n"
           "                     0 leaves it out); --oracle PARAMS changes its search budget\n"
           "                     (e.g. iters=500; default: the hard level's)\n"
           "  --first-mover-games N  self-play games at each of --first-mover-levels (default\n"
           "                     random,easy,medium,hard): the first mover's share at each skill\n"
           "                     level (default 0: left out; 20 gives a first look)\n"
           "  --judge SPEC       the strong search for \"decided by one move\" (default hard);\n"
           "                     --judge-games N games judged (default 4; 0 leaves it out)\n"
           "  --max-turns N      stop games still going after N turns as unfinished (default:\n"
           "                     the game's cap for tools, e.g. 100 in castle-danger: CD-16)\n"
           "  --seed S           the first deal's seed (default 1)\n"
           "  --threads T        threads (default: every core)\n"
           "  --save-records DIR write the base AI games as records\n"
           "  --out FILE         the HTML report;  --json FILE  the figures (- for stdout)\n"
           "  --csv FILE         one row per game (AI games, variants, sweep values, records)\n"
           "                     for spreadsheets (- for stdout)\n\n"
           "Under mpirun (mpirun -n 8 ramparts analyze ...) the games are split across the\n"
           "processes and the report is the same as from one process. See docs/analysis.md.\n\n"
           "AIs:\n%s",
           MAX_VARIANTS, MAX_SWEEP, rp_ai_help());
}

static bool check_ai(const rp_game *game, const char *spec)
{
    rp_ai *ai;
    rp_error err;
    if (rp_ai_create(game, spec, 1, &ai, &err) < 0) {
        fprintf(stderr, "ramparts analyze: %s\n%s", err.msg, rp_ai_help());
        return false;
    }
    rp_ai_free(ai);
    return true;
}

/* A list of AI specs: at least one, each valid. */
static int parse_specs(const rp_game *game, char *list, const char **out, int max, const char *what)
{
    char *specs[MAX_LEVELS];
    const int n = rp_ai_split_specs(list, specs, max < MAX_LEVELS ? max : MAX_LEVELS);
    if (n <= 0)
        return rp_cli_usage_error("analyze", "%s: a list of AIs such as greedy,hard (at most %d)",
                                  what, max),
               -1;
    for (int i = 0; i < n; i++) {
        if (!check_ai(game, specs[i]))
            return -1;
        out[i] = specs[i];
    }
    return n;
}

/* Whether text starts with "KEY=" for an option of game (players and seed too). */
static bool starts_option(const rp_game *game, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq)
        return false;
    const size_t len = (size_t)(eq - text);
    if ((len == 7 && strncmp(text, "players", 7) == 0) ||
        (len == 4 && strncmp(text, "seed", 4) == 0))
        return true;
    for (int i = 0; i < game->num_options; i++)
        if (strlen(game->options[i].name) == len && strncmp(game->options[i].name, text, len) == 0)
            return true;
    return false;
}

/* Split "key=value,key=value" in place at the commas that start another option, so a value
 * may hold commas itself (cards=1,2,3,...). Returns how many settings were put in out. */
static int split_settings(const rp_game *game, char *text, char **out, int max)
{
    int n = 0;
    out[n++] = text;
    for (char *c = strchr(text, ','); c && n < max; c = strchr(c + 1, ',')) {
        if (starts_option(game, c + 1)) {
            *c = '\0';
            out[n++] = c + 1;
        }
    }
    return n;
}

/* --vs "key=value,key=value": the base options with these changed. */
static bool parse_variant(analyze_job *job, char *text)
{
    if (job->num_variants == MAX_VARIANTS)
        return rp_cli_usage_error("analyze", "at most %d --vs variants", MAX_VARIANTS), false;
    job->variant_text[job->num_variants] = strdup(text);
    if (!job->variant_text[job->num_variants]) {
        fprintf(stderr, "ramparts analyze: out of memory\n");
        return false;
    }
    rp_config *v = &job->variants[job->num_variants];
    *v = job->cfg;
    char *settings[RP_MAX_OPTIONS + 2];
    const int n = split_settings(job->game, text, settings, RP_MAX_OPTIONS + 2);
    for (int i = 0; i < n; i++) {
        if (strncmp(settings[i], "seed=", 5) == 0)
            return rp_cli_usage_error("analyze",
                                      "--vs %s: a variant is played on the same "
                                      "seeds; change the rules, not the seed",
                                      settings[i]),
                   false;
        if (rp_cli_set_option("analyze", job->game, v, settings[i]) != RP_EXIT_OK)
            return false;
    }
    job->num_variants++;
    return true;
}

/* One value of a sweep: "OPTION=prefix VALUE suffix" played on the base games' seeds. */
static bool add_sweep_value(analyze_job *job, const char *option, const char *prefix,
                            const char *value, size_t value_len, const char *suffix)
{
    if (job->num_variants - job->num_vs == MAX_SWEEP)
        return rp_cli_usage_error("analyze", "--sweep: at most %d values", MAX_SWEEP), false;
    char setting[RP_OPTION_TEXT + 64];
    snprintf(setting, sizeof setting, "%s=%s%.*s%s", option, prefix, (int)value_len, value, suffix);
    char *number = job->sweep_label[job->num_variants - job->num_vs];
    snprintf(number, sizeof job->sweep_label[0], "%.*s", (int)value_len, value);
    char *end = NULL;
    const double x = strtod(number, &end);
    job->sweep_x[job->num_variants - job->num_vs] = end && *end == '\0' && end != number ? x : NAN;
    rp_config *v = &job->variants[job->num_variants];
    *v = job->cfg;
    if (rp_cli_set_option("analyze", job->game, v, setting) != RP_EXIT_OK)
        return false;
    if (!(job->variant_text[job->num_variants] = strdup(setting))) {
        fprintf(stderr, "ramparts analyze: out of memory\n");
        return false;
    }
    job->num_variants++;
    return true;
}

/* A whole number of a range, its end at *end. */
static bool range_number(const char *text, char **end, long *out)
{
    errno = 0;
    *out = strtol(text, end, 10);
    return errno == 0 && *end != text;
}

/* The values of a sweep: "a..b" or "a..b:step" (whole numbers), else a list "x,y,z". */
static bool sweep_values(analyze_job *job, const char *option, const char *prefix,
                         const char *inner, size_t inner_len, const char *suffix)
{
    char text[RP_OPTION_TEXT];
    snprintf(text, sizeof text, "%.*s", (int)inner_len, inner);
    const char *dots = strstr(text, "..");
    if (dots) {
        long a, b, step = 1;
        char *end;
        if (!range_number(text, &end, &a) || end != dots || !range_number(dots + 2, &end, &b) ||
            (*end == ':' && !range_number(end + 1, &end, &step)) || *end != '\0' || step <= 0 ||
            b < a)
            return rp_cli_usage_error("analyze",
                                      "--sweep: '%s' is not a range a..b or a..b:step of whole "
                                      "numbers (a <= b, step > 0)",
                                      text),
                   false;
        if ((b - a) / step + 1 > MAX_SWEEP)
            return rp_cli_usage_error("analyze", "--sweep %s: %ld values, at most %d", text,
                                      (b - a) / step + 1, MAX_SWEEP),
                   false;
        for (long x = a; x <= b; x += step) {
            char number[24];
            const int n = snprintf(number, sizeof number, "%ld", x);
            if (!add_sweep_value(job, option, prefix, number, (size_t)n, suffix))
                return false;
        }
        return true;
    }
    for (const char *item = text; *item;) {
        const size_t len = strcspn(item, ",");
        if (len == 0)
            return rp_cli_usage_error("analyze", "--sweep: an empty value in '%s'", text), false;
        if (!add_sweep_value(job, option, prefix, item, len, suffix))
            return false;
        item += len + (item[len] == ',');
    }
    return true;
}

/* The axis of a sweep of one part of a longer value (issue 46: the axis said "cards" where
 * one card's value changed): the item around the braces, the swept part as x, "t{x} in
 * cards". An item ends at a comma, a slash or a blank. */
static void sweep_axis_of_part(analyze_job *job, const char *option, const char *value,
                               const char *open, const char *close)
{
    const char *from = open, *to = close + 1;
    while (from > value && !strchr(",/ ", from[-1]))
        from--;
    to += strcspn(to, ",/ ");
    snprintf(job->sweep_axis, sizeof job->sweep_axis, "%.*s{x}%.*s in %s", (int)(open - from), from,
             (int)(to - close - 1), close + 1, option);
}

/* --sweep OPTION=a..b[:step], OPTION=x,y,z, or OPTION=text{a..b}text (the braces mark the
 * part of a longer value that is swept, such as one fort of Rush the Wall's card set). */
static bool parse_sweep(analyze_job *job, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1])
        return rp_cli_usage_error("analyze",
                                  "--sweep %s: expected OPTION=a..b[:step], "
                                  "OPTION=x,y,z or OPTION=text{a..b}text",
                                  text),
               false;
    static char option[64];
    snprintf(option, sizeof option, "%.*s", (int)(eq - text), text);
    if (strcmp(option, "seed") == 0)
        return rp_cli_usage_error("analyze", "--sweep seed: the values are played on the same "
                                             "seeds; sweep a rule, not the seed"),
               false;
    job->sweep_option = option;
    snprintf(job->sweep_axis, sizeof job->sweep_axis, "%s", option);
    const char *value = eq + 1, *open = strchr(value, '{');
    if (!open)
        return sweep_values(job, option, "", value, strlen(value), "");
    const char *close = strchr(open, '}');
    if (!close)
        return rp_cli_usage_error("analyze", "--sweep %s: a '{' without its '}'", text), false;
    sweep_axis_of_part(job, option, value, open, close);
    char prefix[RP_OPTION_TEXT];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(open - value), value);
    return sweep_values(job, option, prefix, open + 1, (size_t)(close - open - 1), close + 1);
}

/* --oracle PARAMS: the oracle's search parameters, checked by making one. */
static bool set_oracle(const rp_game *game, const char *params)
{
    rp_ai *ai;
    rp_error err;
    if (strlen(params) + sizeof RP_ORACLE_NAME + 1 > RP_CLI_ORACLE_SPEC ||
        rp_ai_create_oracle(game, params, 1, &ai, &err) < 0)
        return rp_cli_usage_error("analyze", "--oracle %s: %s", params,
                                  strlen(params) + sizeof RP_ORACLE_NAME + 1 > RP_CLI_ORACLE_SPEC
                                      ? "too long"
                                      : err.msg),
               false;
    rp_ai_free(ai);
    snprintf(rp_cli_oracle_spec, RP_CLI_ORACLE_SPEC, "%s:%s", RP_ORACLE_NAME, params);
    return true;
}

typedef struct analyze_args {
    long long games, seed, threads, max_turns, ladder_games, judge_games, ceiling_games, detect;
    long long fm_games;
    char *ai, *ladder, *fm_levels, *vs[MAX_VARIANTS];
    int num_vs;
    const char *sweep;
    const char *oracle; /* the oracle's search parameters */
    const char *html, *json, *csv;
} analyze_args;

static bool number_option(const char *a, const char *v, analyze_args *args)
{
    if (strcmp(a, "--games") == 0)
        return rp_cli_number("analyze", a, v, 0, 10000000, &args->games);
    if (strcmp(a, "--seed") == 0)
        return rp_cli_number("analyze", a, v, 0, INT64_MAX, &args->seed);
    if (strcmp(a, "--threads") == 0)
        return rp_cli_number("analyze", a, v, 1, RP_CLI_MAX_THREADS, &args->threads);
    if (strcmp(a, "--max-turns") == 0)
        return rp_cli_number("analyze", a, v, 1, 1000000, &args->max_turns);
    if (strcmp(a, "--ladder-games") == 0)
        return rp_cli_number("analyze", a, v, 0, 1000000, &args->ladder_games);
    if (strcmp(a, "--ceiling-games") == 0)
        return rp_cli_number("analyze", a, v, 0, 1000000, &args->ceiling_games);
    if (strcmp(a, "--detect") == 0)
        return rp_cli_number("analyze", a, v, 1, 49, &args->detect);
    if (strcmp(a, "--first-mover-games") == 0)
        return rp_cli_number("analyze", a, v, 0, 1000000, &args->fm_games);
    return rp_cli_number("analyze", a, v, 0, 1000000, &args->judge_games);
}

static int parse_args(analyze_job *job, analyze_args *args, int argc, char **argv)
{
    static const char *const numbers[] = {
        "--games",       "--seed",          "--threads", "--max-turns",        "--ladder-games",
        "--judge-games", "--ceiling-games", "--detect",  "--first-mover-games"};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        bool is_number = false;
        for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++)
            is_number = is_number || strcmp(a, numbers[k]) == 0;
        if (a[0] != '-') {
            const int rc = rp_cli_set_option("analyze", job->game, &job->cfg, a);
            if (rc != RP_EXIT_OK)
                return rc;
            continue;
        }
        const char *v = rp_cli_value("analyze", argc, argv, &i);
        if (!v)
            return RP_EXIT_USAGE;
        if (is_number) {
            if (!number_option(a, v, args))
                return RP_EXIT_USAGE;
        } else if (strcmp(a, "--ai") == 0) {
            args->ai = argv[i];
        } else if (strcmp(a, "--ladder") == 0) {
            args->ladder = argv[i];
        } else if (strcmp(a, "--first-mover-levels") == 0) {
            args->fm_levels = argv[i];
        } else if (strcmp(a, "--vs") == 0) {
            if (args->num_vs == MAX_VARIANTS)
                return rp_cli_usage_error("analyze", "at most %d --vs variants", MAX_VARIANTS);
            args->vs[args->num_vs++] = argv[i];
        } else if (strcmp(a, "--sweep") == 0) {
            if (args->sweep)
                return rp_cli_usage_error("analyze", "one --sweep at a time");
            args->sweep = v;
        } else if (strcmp(a, "--oracle") == 0) {
            args->oracle = v;
        } else if (strcmp(a, "--judge") == 0) {
            job->judge = v;
        } else if (strcmp(a, "--records") == 0) {
            job->records_dir = v;
        } else if (strcmp(a, "--save-records") == 0) {
            job->save_dir = v;
        } else if (strcmp(a, "--out") == 0) {
            args->html = v;
        } else if (strcmp(a, "--json") == 0) {
            args->json = v;
        } else if (strcmp(a, "--csv") == 0) {
            args->csv = v;
        } else {
            return rp_cli_usage_error("analyze", "unknown option '%s'", a);
        }
    }
    return RP_EXIT_OK;
}

/* Whether `path` (an output named on the command line; "-" is standard output) can be written:
 * an existing file we may write, or a new name in a directory we may write. Checked before the
 * games are played, which can take minutes, so that a typo fails at once. */
static bool output_writable(const char *option, const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return true;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode) || access(path, W_OK) != 0) {
            fprintf(stderr, "ramparts analyze: %s %s: %s\n", option, path,
                    S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
            return false;
        }
        return true;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "ramparts analyze: %s %s: cannot write in %s: %s\n", option, path, dir,
                strerror(errno));
        return false;
    }
    return true;
}

static int settle(analyze_job *job, analyze_args *args)
{
    if (!args->html && !args->json && !args->csv)
        return rp_cli_usage_error("analyze",
                                  "where to? --out report.html, --json FILE and/or --csv FILE");
    if (args->json && args->csv && strcmp(args->json, "-") == 0 && strcmp(args->csv, "-") == 0)
        return rp_cli_usage_error("analyze", "--json - and --csv - would both write to standard "
                                             "output, and neither would parse: give one a file");
    if (args->html && !an_html_report_built()) {
        fprintf(stderr, "ramparts analyze: this is the light build of make play, without the "
                        "report's script: run make for the whole tool (--json and --csv work "
                        "here)\n");
        return RP_EXIT_FAIL;
    }
    if (!output_writable("--out", args->html) || !output_writable("--json", args->json) ||
        !output_writable("--csv", args->csv))
        return RP_EXIT_USAGE; /* a bad path given as an option, like any bad option value */
    job->cfg.seed = (uint64_t)args->seed;
    static char default_ai[] = "greedy", default_ladder[] = "random,greedy,easy,medium,hard";
    job->num_ai = parse_specs(job->game, args->ai ? args->ai : default_ai, job->ai_specs,
                              RP_MAX_PLAYERS, "--ai");
    if (job->num_ai < 0)
        return RP_EXIT_USAGE;
    if (args->ladder_games > 0) {
        job->num_levels = parse_specs(job->game, args->ladder ? args->ladder : default_ladder,
                                      job->levels, MAX_LEVELS, "--ladder");
        if (job->num_levels < 0)
            return RP_EXIT_USAGE;
        if (job->num_levels < 2)
            return rp_cli_usage_error("analyze", "--ladder needs at least two AIs");
    }
    job->ladder_games = job->num_levels >= 2 ? args->ladder_games : 0;
    static char default_fm_levels[] = "random,easy,medium,hard";
    /* off by default: self-play at the hard level costs as much as the ladder's hard games
     * (the default run would take about 70% longer); --first-mover-games N asks for them */
    if (args->fm_games < 0)
        args->fm_games = 0;
    if (args->fm_games > 0) {
        job->num_fm_levels =
            parse_specs(job->game, args->fm_levels ? args->fm_levels : default_fm_levels,
                        job->fm_levels, MAX_LEVELS, "--first-mover-levels");
        if (job->num_fm_levels < 0)
            return RP_EXIT_USAGE;
    }
    job->fm_games = job->num_fm_levels > 0 ? args->fm_games : 0;
    job->ceiling_games = job->ladder_games > 0 ? args->ceiling_games : 0; /* beside the ladder */
    job->detect = (double)args->detect / 100;
    if (args->oracle && !set_oracle(job->game, args->oracle))
        return RP_EXIT_USAGE;
    if (!job->judge)
        job->judge = "hard";
    if (args->judge_games > 0 && !check_ai(job->game, job->judge))
        return RP_EXIT_USAGE;
    job->judge_games = args->judge_games < args->games ? args->judge_games : args->games;
    for (int v = 0; v < args->num_vs; v++)
        if (!parse_variant(job, args->vs[v]))
            return RP_EXIT_USAGE;
    job->num_vs = job->num_variants;
    if (args->sweep && !parse_sweep(job, args->sweep))
        return RP_EXIT_USAGE;
    job->games = (long)args->games;
    if (job->games == 0 && !job->records_dir)
        return rp_cli_usage_error("analyze", "--games 0 needs --records DIR");
    job->paired = job->cfg.players == 2;
    job->turn_cap = rp_cli_turn_cap(job->game, args->max_turns);
    if (job->save_dir && mkdir(job->save_dir, 0777) < 0 && errno != EEXIST)
        return fprintf(stderr, "ramparts analyze: cannot create %s: %s\n", job->save_dir,
                       strerror(errno)),
               RP_EXIT_FAIL;
    return RP_EXIT_OK;
}

/* Human records first, so a bad record stops the run before any game is played; then every
 * AI game. */
static int run_all(analyze_job *job, int threads, human_set *human, bool *have_human)
{
    rp_error err = {{0}};
    *have_human = false;
    bool failed = false;
    if (job->records_dir && rp_cli_mpi_root()) {
        failed = read_records(job, human, &err) < 0;
        if (failed)
            fprintf(stderr, "ramparts analyze: %s\n", err.msg);
        *have_human = !failed;
    }
    if (rp_cli_mpi_any(failed))
        return RP_EXIT_FAIL;
    job->total = level_start(job) + (long)job->num_fm_levels * job->fm_games;
    job->items = calloc((size_t)job->total + 1, sizeof *job->items);
    if (!job->items) {
        fprintf(stderr, "ramparts analyze: out of memory for %ld games\n", job->total);
        return RP_EXIT_FAIL;
    }
    if (job->total > 0 && rp_cli_parallel("analyze", job->total, threads, run_task, job, job->items,
                                          sizeof *job->items, &err) < 0) {
        fprintf(stderr, "ramparts analyze: %s\n", err.msg);
        return RP_EXIT_FAIL;
    }
    return RP_EXIT_OK;
}

int rp_cmd_analyze(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        analyze_help();
        return RP_EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return rp_cli_usage_error("analyze", "which game? (ramparts list)");
    static analyze_job job;
    memset(&job, 0, sizeof job);
    if (!(job.game = rp_cli_game("analyze", argv[1])))
        return RP_EXIT_USAGE;
    rp_config_default(job.game, &job.cfg);
    analyze_args args = {.games = 200,
                         .seed = 1,
                         .threads = rp_cli_cores(),
                         .ladder_games = 40,
                         .judge_games = 4,
                         .ceiling_games = 20,
                         .detect = 5,
                         .fm_games = -1};
    int rc = parse_args(&job, &args, argc, argv);
    if (rc == RP_EXIT_OK)
        rc = settle(&job, &args);
    human_set human = {0};
    bool have_human = false;
    if (rc == RP_EXIT_OK)
        rc = run_all(&job, (int)args.threads, &human, &have_human);
    if (rc == RP_EXIT_OK && rp_cli_mpi_root()) {
        cJSON *report = build_report(&job, have_human ? &human : NULL);
        rc = write_outputs(report, args.html, args.json);
        if (rc == RP_EXIT_OK && args.csv)
            rc = write_csv(&job, have_human ? &human : NULL, args.csv);
        const bool to_stdout =
            (args.json && strcmp(args.json, "-") == 0) || (args.csv && strcmp(args.csv, "-") == 0);
        if (rc == RP_EXIT_OK && !to_stdout && job.games > 0)
            print_summary(&job, report, args.html);
        cJSON_Delete(report);
    }
    for (int v = 0; v < job.num_variants; v++)
        free((char *)job.variant_text[v]);
    free(job.items);
    free(human.games);
    cJSON_Delete(human.options_seen);
    return rc;
}
