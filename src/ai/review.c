/* review.c — the review of one seat's game (include/ramparts/review.h, docs/review.md): each
 * decision of the seat judged by one search from the seat's own view at that moment, seeded
 * from that view, so what the seat never saw cannot change a word of it; chance events told
 * apart from moves, as luck. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/json.h"
#include "ramparts/review.h"
#include "search.h"

/* Event kinds that are chance, not anyone's choice: cards drawn or dealt, decks reshuffled,
 * a replenishing flip (Walls and Armies). Each game lists its kinds in docs/rules/<game>.md. */
static const char *const chance_kinds[] = {"draw",      "deal",   "reshuffle",
                                           "replenish", "shield", NULL};

/* Everything one review keeps between decisions: one AI reseeded for each (no allocation per
 * decision beyond what the search does) and the root edges read after each search. */
typedef struct review {
    const rp_match *m;
    const rp_game *game;
    int seat, players;
    rp_ai *ai;
    rp_state st;
    rp_state world; /* a world drawn from the seat's view (best_words) */
    rp_search_edge edges[RP_MAX_LEGAL];
    cJSON *doc, *plies;
    cJSON *last; /* the last entry of plies, or NULL */
} review;

/* The levels a review may search with, in the order of rp_game.ai_levels after beginner's. */
#define REVIEW_LEVELS 3
static const char *const review_levels[REVIEW_LEVELS] = {"easy", "medium", "hard"};

/* The most iterations a decision gets by default: the hard level's own budget where it is
 * smaller, so a whole game's review takes seconds (docs/ai.md, "Reviews"). */
#define REVIEW_ITERS_CAP 10000
#define REVIEW_CAP_TEXT "iters=10000"

const char *rp_review_default_budget(const rp_game *game, const char *level)
{
    for (int k = 0; k < REVIEW_LEVELS; k++) {
        const char *own = game->ai_levels[k + 1]; /* ai_levels[0] is beginner's */
        if (strcmp(level, review_levels[k]) != 0)
            continue;
        if (!own || strncmp(own, "iters=", 6) != 0)
            return ""; /* the generic budgets are all below the cap */
        return strtol(own + 6, NULL, 10) > REVIEW_ITERS_CAP ? REVIEW_CAP_TEXT : "";
    }
    return "";
}

const char *rp_review_mark(double drop)
{
    if (drop >= RP_REVIEW_BLUNDER)
        return "blunder";
    if (drop >= RP_REVIEW_MISTAKE)
        return "mistake";
    if (drop >= RP_REVIEW_INACCURACY)
        return "inaccuracy";
    return NULL;
}

int rp_review_allowed(const rp_match *m, int seat, rp_error *err)
{
    const int players = rp_match_players(m);
    if (seat < 0 || seat >= players)
        return rp_fail(err, RP_EINVAL, "seat %d is not a seat of this game (0 to %d)", seat,
                       players - 1);
    if (rp_match_over(m))
        return RP_OK;
    if (rp_match_is_human(m, seat) && rp_match_humans(m) < players)
        return RP_OK;
    return rp_fail(err, RP_EUNSUPPORTED,
                   "the game is not over: a review now would be a hint for every move (only a "
                   "player's own past moves against the computer may be reviewed before the end)");
}

static bool counted(const rp_match *m, size_t i, size_t moves, rp_entry_info *e)
{
    *e = rp_match_entry(m, i);
    return e->kind == RP_ENTRY_MOVE && (moves == 0 || e->move <= moves);
}

size_t rp_review_decisions(const rp_match *m, int seat, size_t moves)
{
    size_t count = 0;
    rp_entry_info e;
    for (size_t i = 0; i < rp_match_length(m); i++)
        if (counted(m, i, moves, &e) && e.seat == seat)
            count++;
    return count;
}

/* The seed of one decision's search: FNV-1a over the seat's view, then the seat and the ply, so
 * it is a function of what the seat knows then and nothing else. */
static uint64_t decision_seed(const char *view, int seat, size_t ply)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *c = (const unsigned char *)view; *c; c++)
        h = (h ^ *c) * 0x100000001b3u;
    h = (h ^ (uint64_t)(seat + 1)) * 0x100000001b3u;
    return (h ^ (uint64_t)ply) * 0x100000001b3u;
}

/* Four decimals: the same numbers in every front end, and short JSON. */
static double rounded(double x)
{
    return round(x * 10000.0) / 10000.0;
}

static bool is_chance(const cJSON *event)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(event, "kind");
    if (!cJSON_IsString(kind))
        return false;
    for (int k = 0; chance_kinds[k]; k++)
        if (strcmp(kind->valuestring, chance_kinds[k]) == 0)
            return true;
    return false;
}

/* Events that say nothing of the move itself: whose turn it is, the end of the game. */
static bool is_aside(const cJSON *event)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(event, "kind");
    return cJSON_IsString(kind) &&
           (strcmp(kind->valuestring, "turn") == 0 || strcmp(kind->valuestring, "game-over") == 0);
}

/* The sentence of one event, or "" for one that says nothing of the move itself. */
static const char *sentence(const cJSON *event)
{
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(event, "text");
    return cJSON_IsString(text) && !is_aside(event) ? text->valuestring : "";
}

/* The sentences of a move's events, joined by spaces: all of them, or (only_chance) only what
 * chance did, the draws and deals. */
static void join_events(const cJSON *events, bool only_chance, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    const cJSON *event;
    cJSON_ArrayForEach (event, events) {
        const char *text = sentence(event);
        if (!*text || (only_chance && !is_chance(event)))
            continue;
        const int n = snprintf(buf + len, size - len, "%s%s", len ? " " : "", text);
        if (n < 0 || (size_t)n >= size - len)
            return;
        len += (size_t)n;
    }
}

static cJSON *chances_array(const review *r, const rp_search_edge *edge)
{
    cJSON *a = cJSON_CreateArray();
    for (int p = 0; p < r->players && a; p++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(rounded(edge->returns[p] / edge->visits)));
    return a;
}

static const rp_search_edge *find_edge(const review *r, int count, rp_action action)
{
    for (int i = 0; i < count; i++)
        if (r->edges[i].action == action && r->edges[i].visits > 0)
            return &r->edges[i];
    return NULL;
}

/* The words of a move the seat did not play, as the seat would have been told it: the events
 * in BEST_WORLDS worlds drawn from the seat's view alone (the game's determinize, seeded from
 * the decision's seed), as far as every world tells them alike. Never the true state's: what
 * the move would have shown there is not the seat's to know (the page's previews do the same,
 * docs/wasm.md). */
#define BEST_WORLDS 8
static void best_words(review *r, rp_action best, uint64_t seed, char *buf, size_t size)
{
    cJSON *told[BEST_WORLDS] = {0};
    rp_rng rng;
    rp_rng_seed(&rng, seed, 0xbe57);
    for (int k = 0; k < BEST_WORLDS; k++) {
        rp_state_copy(r->game, &r->world, &r->st);
        r->game->determinize(&r->world, r->seat, &rng);
        told[k] = rp_events_cjson(r->game, &r->world, best, r->seat, NULL);
    }
    size_t len = 0;
    buf[0] = '\0';
    for (int e = 0; told[0] && e < cJSON_GetArraySize(told[0]); e++) {
        const char *text = sentence(cJSON_GetArrayItem(told[0], e));
        bool alike = true;
        for (int k = 1; k < BEST_WORLDS && alike; k++)
            alike = strcmp(text, told[k] ? sentence(cJSON_GetArrayItem(told[k], e)) : "-") == 0;
        if (!alike)
            break;
        const int n = *text ? snprintf(buf + len, size - len, "%s%s", len ? " " : "", text) : 0;
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    for (int k = 0; k < BEST_WORLDS; k++)
        cJSON_Delete(told[k]);
}

/* Search the seat's decision at history entry i (ply `ply`, the move played `played`) and add
 * the judgment to `entry`; the chances before it go on the entry before, if it has none. */
static int judge(review *r, size_t i, size_t ply, rp_action played, cJSON *previous, cJSON *entry,
                 rp_error *err)
{
    char *view = rp_match_view_at(r->m, i, r->seat, false, err);
    if (!view)
        return RP_ENOMEM;
    const uint64_t seed = decision_seed(view, r->seat, ply);
    free(view);
    rp_rng_seed(&r->ai->rng, seed, 0x5eed);
    rp_action legal[RP_MAX_LEGAL], best;
    const int n = r->game->legal_actions(&r->st, legal);
    rp_ai_info info;
    int rc = rp_ai_choose(r->ai, &r->st, &best, &info, err);
    if (rc < 0)
        return rc;
    const int count = rp_search_root_edges(r->ai, r->edges, RP_MAX_LEGAL);
    const rp_search_edge *top = find_edge(r, count, best), *mine = find_edge(r, count, played);
    if (!top)
        return RP_OK; /* no iteration ran: nothing to say */
    if (previous && !cJSON_GetObjectItemCaseSensitive(previous, "chances"))
        cJSON_AddItemToObject(previous, "chances", chances_array(r, top));
    else if (!previous) /* the seat moves first: its chances at the start, for a chart */
        cJSON_AddItemToObject(r->doc, "start_chances", chances_array(r, top));
    const double before = rounded(top->returns[r->seat] / top->visits);
    cJSON *d = cJSON_CreateObject();
    char text[RP_ACTION_TEXT] = "", words[1024];
    rp_match_move_text(r->m, i, r->seat, text, sizeof text, NULL);
    cJSON_AddStringToObject(d, "move", text);
    const cJSON *said = cJSON_GetObjectItemCaseSensitive(entry, "text");
    cJSON_AddStringToObject(d, "text", cJSON_IsString(said) ? said->valuestring : "");
    cJSON_AddNumberToObject(d, "before", before);
    if (mine) {
        cJSON_AddNumberToObject(d, "after", rounded(mine->returns[r->seat] / mine->visits));
        cJSON_AddItemToObject(entry, "chances", chances_array(r, mine));
    } else {
        cJSON_AddNullToObject(d, "after"); /* never tried by the search (a tiny budget) */
    }
    best_words(r, best, seed, words, sizeof words);
    /* its notation in a world drawn from the seat's view: the seat's own move, named alike in
     * every world it cannot tell apart */
    r->game->action_to_text(&r->world, best, text, sizeof text);
    cJSON_AddStringToObject(d, "best", text);
    cJSON_AddStringToObject(d, "best_text", words);
    cJSON_AddNumberToObject(d, "best_chances", before);
    const double drop = mine ? before - rounded(mine->returns[r->seat] / mine->visits) : 0;
    const char *mark = n > 1 && played != best ? rp_review_mark(drop) : NULL;
    if (mark)
        cJSON_AddStringToObject(d, "mark", mark);
    else
        cJSON_AddNullToObject(d, "mark");
    if (n == 1)
        cJSON_AddBoolToObject(d, "forced", true);
    cJSON_AddItemToObject(entry, "decision", d);
    return RP_OK;
}

static cJSON *add_entry(review *r, size_t ply, int actor, const char *text)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ply", (double)ply);
    if (actor >= 0)
        cJSON_AddNumberToObject(o, "actor", actor);
    else
        cJSON_AddNullToObject(o, "actor");
    cJSON_AddStringToObject(o, "text", text);
    if (actor < 0)
        cJSON_AddBoolToObject(o, "luck", true);
    cJSON_AddItemToArray(r->plies, o);
    r->last = o;
    return o;
}

/* One move of the history: its entry, the whole narration (judged when it is the seat's), then
 * what chance did in it again as a luck entry of the same ply (a draw is both: the seat chose
 * the deck, chance the card). */
static int review_move(review *r, size_t i, const rp_entry_info *e, rp_error *err)
{
    char *said = rp_match_events(r->m, i, r->seat, err);
    cJSON *events = said ? cJSON_Parse(said) : NULL;
    free(said);
    char text[2048];
    join_events(events, false, text, sizeof text);
    const size_t ply = e->move - 1;
    cJSON *previous = r->last, *entry = add_entry(r, ply, e->seat, text);
    int rc = RP_OK;
    if (e->seat == r->seat) {
        rp_action played;
        rp_match_referee(r->m, i, &r->st, &played);
        rc = judge(r, i, ply, played, previous, entry, err);
    }
    join_events(events, true, text, sizeof text);
    if (rc == RP_OK && *text)
        add_entry(r, ply, -1, text);
    cJSON_Delete(events);
    return rc;
}

/* The search's parameters as given to it: the level's own, then the review's budget (the
 * later of two values wins). */
static int search_spec(const rp_game *game, const rp_review_opts *opts, char *spec, size_t size,
                       char *params, size_t params_size, rp_error *err)
{
    const char *level = opts->level && *opts->level ? opts->level : "hard";
    int index = -1;
    for (int k = 0; k < REVIEW_LEVELS; k++)
        if (strcmp(level, review_levels[k]) == 0)
            index = k + 1; /* ai_levels[0] is beginner's */
    if (index < 0)
        return rp_fail(err, RP_EINVAL, "the review's level must be easy, medium or hard, not '%s'",
                       level);
    const char *budget =
        opts->budget && *opts->budget ? opts->budget : rp_review_default_budget(game, level);
    const char *own = game->ai_levels[index] ? game->ai_levels[index] : "";
    snprintf(spec, size, "%s%s%s", level, *budget ? ":" : "", budget);
    snprintf(params, params_size, "%s%s%s", own, *own && *budget ? "," : "", budget);
    return RP_OK;
}

int rp_review_check(const rp_game *game, const rp_review_opts *opts, rp_error *err)
{
    char spec[160], params[160];
    int rc = search_spec(game, opts, spec, sizeof spec, params, sizeof params, err);
    rp_ai *ai = NULL;
    if (rc == RP_OK)
        rc = rp_ai_create(game, spec, 1, &ai, err);
    rp_ai_free(ai);
    return rc;
}

static cJSON *review_header(const review *r, const char *level, const char *params)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", r->game->id);
    cJSON_AddNumberToObject(o, "seat", r->seat);
    cJSON_AddStringToObject(o, "level", level);
    cJSON_AddStringToObject(o, "budget", params);
    cJSON *t = cJSON_AddObjectToObject(o, "thresholds");
    cJSON_AddNumberToObject(t, "inaccuracy", RP_REVIEW_INACCURACY);
    cJSON_AddNumberToObject(t, "mistake", RP_REVIEW_MISTAKE);
    cJSON_AddNumberToObject(t, "blunder", RP_REVIEW_BLUNDER);
    cJSON_AddBoolToObject(o, "over", rp_match_over(r->m));
    return o;
}

static int review_all(review *r, const rp_review_opts *opts, rp_error *err)
{
    const size_t total = rp_review_decisions(r->m, r->seat, opts->moves);
    size_t done = 0;
    rp_entry_info e;
    for (size_t i = 0; i < rp_match_length(r->m); i++) {
        if (!counted(r->m, i, opts->moves, &e))
            continue;
        const int rc = review_move(r, i, &e, err);
        if (rc < 0)
            return rc;
        if (e.seat == r->seat && opts->progress)
            opts->progress(opts->progress_arg, ++done, total);
    }
    return RP_OK;
}

char *rp_review_json(const rp_match *m, int seat, const rp_review_opts *opts, rp_error *err)
{
    const rp_review_opts none = {0};
    opts = opts ? opts : &none;
    const rp_game *game = rp_match_game(m);
    if (seat < 0 || seat >= rp_match_players(m)) {
        rp_fail(err, RP_EINVAL, "seat %d is not a seat of this game (0 to %d)", seat,
                rp_match_players(m) - 1);
        return NULL;
    }
    char spec[160], params[160];
    if (search_spec(game, opts, spec, sizeof spec, params, sizeof params, err) < 0)
        return NULL;
    review *r = calloc(1, sizeof *r);
    if (!r) {
        rp_fail(err, RP_ENOMEM, "out of memory for a review");
        return NULL;
    }
    r->m = m;
    r->game = game;
    r->seat = seat;
    r->players = rp_match_players(m);
    char *text = NULL;
    if (rp_ai_create(game, spec, 1, &r->ai, err) == RP_OK) {
        cJSON *doc = review_header(r, opts->level && *opts->level ? opts->level : "hard", params);
        r->doc = doc;
        r->plies = cJSON_AddArrayToObject(doc, "plies");
        if (review_all(r, opts, err) == RP_OK) {
            text = cJSON_PrintUnformatted(doc);
            if (!text)
                rp_fail(err, RP_ENOMEM, "out of memory for a review");
        }
        cJSON_Delete(doc);
        rp_ai_free(r->ai);
    }
    free(r);
    return text;
}
