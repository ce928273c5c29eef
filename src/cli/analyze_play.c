/* analyze_play.c — the measurements of one game for `ramparts analyze`, taken while an AI game
 * is played (as the runner's watch) or while a record is replayed: lengths and decisions, the
 * cards and kinds of action each seat played or held at the end (from action_json and the
 * seat's view), Ludii's per-game state-evaluation metrics, and a strong search's estimate at
 * every decision ("decided by one move"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ramparts/json.h"

#define MAX_FEATURES 256
#define FEATURE_NAME 48

typedef struct feature {
    char name[FEATURE_NAME]; /* "kind:archers", "card:archer 1" */
    unsigned played, held;   /* seat masks */
    bool last_action;        /* set off by the action being measured (until the next one) */
    bool before_end;         /* seen on an action other than the game's last */
} feature;

struct an_collector {
    const rp_game *game;
    an_game *out;
    rp_cli_turns turns;
    feature features[MAX_FEATURES];
    int num_features;
    bool overflow;
    /* evaluate() of every seat at every state, normalised to sum to 1 */
    double *evals;
    long num_evals, cap_evals;
    /* the seat to act and its legal actions at every state acted in */
    int *movers, *legal;
    long num_states, cap_states;
    /* clarity summed over the decisions whose moves were evaluated */
    double clarity_variance, clarity_narrowness;
    long clarity_states;
    rp_state last; /* the final state, for what each seat holds at the end */
};

an_collector *an_collector_new(const rp_game *game, an_game *out)
{
    an_collector *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->game = game;
    c->out = out;
    memset(out, 0, sizeof *out);
    out->strong_seat = -1;
    out->first_mover = -1;
    rp_cli_turns_start(&c->turns);
    return c;
}

void an_collector_free(an_collector *c)
{
    if (!c)
        return;
    free(c->evals);
    free(c->movers);
    free(c->legal);
    free(c);
}

static void add_feature(an_collector *c, const char *prefix, const char *name, int seat, bool held)
{
    char full[FEATURE_NAME];
    snprintf(full, sizeof full, "%s:%s", prefix, name);
    for (size_t i = 0; full[i]; i++)
        if (full[i] == '\n')
            full[i] = ' ';
    int i = 0;
    while (i < c->num_features && strcmp(c->features[i].name, full) != 0)
        i++;
    if (i == c->num_features) {
        if (i == MAX_FEATURES) {
            c->overflow = true;
            return;
        }
        memcpy(c->features[i].name, full, sizeof full);
        c->num_features++;
    }
    if (held)
        c->features[i].held |= 1u << seat;
    else
        c->features[i].played |= 1u << seat;
    if (!held)
        c->features[i].last_action = true;
}

/* A new action is being measured: what the one before set off was not on the last action. */
static void mark_before_end(an_collector *c)
{
    for (int i = 0; i < c->num_features; i++) {
        c->features[i].before_end = c->features[i].before_end || c->features[i].last_action;
        c->features[i].last_action = false;
    }
}

/* Card names in a JSON value: a string, or strings in an array (nested arrays too). */
static void add_cards(an_collector *c, const cJSON *v, int seat, bool held)
{
    if (cJSON_IsString(v) && v->valuestring[0]) {
        add_feature(c, "card", v->valuestring, seat, held);
        return;
    }
    const cJSON *item;
    if (cJSON_IsArray(v))
        cJSON_ArrayForEach (item, v)
            add_cards(c, item, seat, held);
}

/* What the action set off, as a spectator is told it: each event's kind for the seat it
 * concerns ("event:capture"), and the cards the mover's own events name (a card flipped or
 * played), draws left out (a card drawn is not a card played). */
static void note_events(an_collector *c, const void *st, int mover, rp_action action)
{
    const struct rp_game_json *json = c->game->json;
    if (!json || !json->events)
        return;
    cJSON *events = json->events(st, action, RP_SPECTATOR);
    const cJSON *e;
    cJSON_ArrayForEach (e, events) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(e, "kind");
        const cJSON *seat = cJSON_GetObjectItemCaseSensitive(e, "seat");
        const int who = cJSON_IsNumber(seat) ? seat->valueint : mover;
        if (!cJSON_IsString(kind) || who < 0 || who >= RP_MAX_PLAYERS)
            continue;
        if (strcmp(kind->valuestring, "turn") != 0 && strcmp(kind->valuestring, "game-over") != 0)
            add_feature(c, "event", kind->valuestring, who, false);
        if (who == mover && strcmp(kind->valuestring, "draw") != 0) {
            add_cards(c, cJSON_GetObjectItemCaseSensitive(e, "cards"), who, false);
            add_cards(c, cJSON_GetObjectItemCaseSensitive(e, "card"), who, false);
        }
    }
    cJSON_Delete(events);
}

/* Cut text at its first blank; true when what is left is a word of letters and hyphens (a
 * kind such as "archers", not a square or a card such as "a1-a2" or "walls-1"). */
static bool is_word(char *text)
{
    text[strcspn(text, " ")] = '\0';
    for (const char *c = text; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || *c == '-'))
            return false;
    return text[0] != '\0';
}

/* The kind of an action and the cards it plays: action_json when the game has it, else the
 * first word of its notation when that is a word. */
static void note_action(an_collector *c, const void *st, int mover, rp_action action)
{
    const struct rp_game_json *json = c->game->json;
    cJSON *data = json && json->action ? json->action(st, action) : NULL;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(data, "kind");
    if (cJSON_IsString(kind)) {
        add_feature(c, "kind", kind->valuestring, mover, false);
        add_cards(c, cJSON_GetObjectItemCaseSensitive(data, "cards"), mover, false);
        add_cards(c, cJSON_GetObjectItemCaseSensitive(data, "card"), mover, false);
    } else {
        char text[RP_ACTION_TEXT];
        if (c->game->action_to_text(st, action, text, sizeof text) > 0 && is_word(text))
            add_feature(c, "kind", text, mover, false);
    }
    cJSON_Delete(data);
    note_events(c, st, mover, action);
}

/* What each seat holds at the end: the "hand" of its own view (an array of card names, or
 * one string of names separated by spaces). */
static void note_hands(an_collector *c, const void *st, int players)
{
    for (int p = 0; p < players; p++) {
        cJSON *view = rp_view_cjson(c->game, st, p);
        const cJSON *hand = cJSON_GetObjectItemCaseSensitive(view, "hand");
        if (cJSON_IsArray(hand)) {
            add_cards(c, hand, p, true);
        } else if (cJSON_IsString(hand)) {
            char names[1024];
            snprintf(names, sizeof names, "%s", hand->valuestring);
            char *save = NULL;
            for (char *w = strtok_r(names, " ,", &save); w; w = strtok_r(NULL, " ,", &save))
                add_feature(c, "card", w, p, true);
        }
        cJSON_Delete(view);
    }
}

static void note_evaluation(an_collector *c, const void *st, int players)
{
    if (!c->game->evaluate)
        return;
    if (c->num_evals + players > c->cap_evals) {
        const long cap = c->cap_evals ? 2 * c->cap_evals : 64L * RP_MAX_PLAYERS;
        double *grown = realloc(c->evals, sizeof *grown * (size_t)cap);
        if (!grown) {
            c->overflow = true;
            return;
        }
        c->evals = grown;
        c->cap_evals = cap;
    }
    double *row = c->evals + c->num_evals, sum = 0;
    for (int p = 0; p < players; p++)
        sum += row[p] = c->game->evaluate(st, p);
    for (int p = 0; p < players; p++)
        row[p] = sum > 0 ? row[p] / sum : 1.0 / players;
    c->num_evals += players;
}

/* Grows an array of ints to cap elements; false (the array untouched) when out of memory. */
static bool grow_ints(int **items, long cap)
{
    int *grown = realloc(*items, sizeof *grown * (size_t)cap);
    if (grown)
        *items = grown;
    return grown != NULL;
}

/* The seat to act and its legal actions at this state. */
static void note_state(an_collector *c, int mover, int legal)
{
    if (c->num_states == c->cap_states) {
        const long cap = c->cap_states ? 2 * c->cap_states : 256;
        if (!grow_ints(&c->movers, cap) || !grow_ints(&c->legal, cap)) {
            c->overflow = true;
            return;
        }
        c->cap_states = cap;
    }
    c->movers[c->num_states] = mover;
    c->legal[c->num_states] = legal;
    c->num_states++;
}

/* Clarity at a decision: each legal move's value for the mover, its normalised evaluation in
 * the state the move leads to (Ludii evaluates each move likewise, with a short search). */
static void note_clarity(an_collector *c, const void *st, int mover, int players)
{
    rp_action moves[RP_MAX_LEGAL];
    const int n = c->game->legal_actions(st, moves);
    if (!c->game->evaluate || n < 2 || mover < 0)
        return;
    double values[RP_MAX_LEGAL];
    rp_state next;
    for (int i = 0; i < n; i++) {
        rp_state_copy(c->game, &next, st);
        c->game->apply(&next, moves[i]);
        double sum = 0, own = 0;
        for (int p = 0; p < players; p++) {
            const double e = c->game->evaluate(&next, p);
            sum += e;
            own = p == mover ? e : own;
        }
        values[i] = sum > 0 ? own / sum : 1.0 / players;
    }
    double variance, narrowness;
    an_clarity(values, n, &variance, &narrowness);
    c->clarity_variance += variance;
    c->clarity_narrowness += narrowness;
    c->clarity_states++;
}

void an_collector_watch(void *collector, const void *st, int mover, rp_action action, int legal)
{
    an_collector *c = collector;
    an_game *g = c->out;
    g->players = c->game->num_players(st);
    g->turns = rp_cli_turns_at(c->game, &c->turns, st);
    if (mover == RP_TERMINAL) {
        rp_state_copy(c->game, &c->last, st);
        return;
    }
    note_evaluation(c, st, g->players);
    note_state(c, mover, legal);
    if (legal > 1)
        note_clarity(c, st, mover, g->players);
    mark_before_end(c);
    if (g->actions == 0 && !c->game->simultaneous)
        g->first_mover = mover; /* the seat to act at the start: the rules' first player */
    g->actions++;
    g->legal_sum += legal;
    if (legal > 1)
        g->decisions++;
    else
        g->forced++;
    note_action(c, st, mover, action);
}

/* ---- Ludii's state-evaluation metrics over the stored evaluations ---- */

static void ludii_metrics(const an_collector *c, an_game *g, int winner)
{
    const an_trace t = {c->game->evaluate ? c->evals : NULL,
                        c->movers,
                        c->legal,
                        c->num_states,
                        g->players,
                        winner};
    an_trace_metrics(&t, g);
    g->clarity_variance = c->clarity_states ? c->clarity_variance / (double)c->clarity_states : NAN;
    g->clarity_narrowness =
        c->clarity_states ? c->clarity_narrowness / (double)c->clarity_states : NAN;
}

static int write_features(const an_collector *c, an_game *g, rp_error *err)
{
    size_t used = 0;
    for (int i = 0; i < c->num_features; i++) {
        const feature *f = &c->features[i];
        int n = snprintf(g->features + used, sizeof g->features - used, "%02x %02x %d %s\n",
                         f->played, f->held, f->before_end, f->name);
        if (n < 0 || (size_t)n >= sizeof g->features - used)
            return rp_fail(err, RP_ENOSPACE,
                           "analyze: a game touched too many cards and kinds "
                           "of action to record (%d)",
                           c->num_features);
        used += (size_t)n;
    }
    return RP_OK;
}

int an_collector_finish(an_collector *c, const double *returns, bool unfinished, rp_error *err)
{
    an_game *g = c->out;
    if (c->overflow)
        return rp_fail(err, RP_ENOMEM,
                       "analyze: more than %d cards and kinds of action in one "
                       "game, or out of memory",
                       MAX_FEATURES);
    g->done = true;
    g->unfinished = unfinished;
    int winner = -1;
    for (int p = 0; p < g->players; p++) {
        g->returns[p] = returns[p];
        if (returns[p] > 0.999 && !unfinished)
            winner = p;
    }
    note_hands(c, &c->last, g->players);
    g->scored = c->game->score != NULL;
    for (int p = 0; p < g->players && g->scored; p++)
        g->scores[p] = c->game->score(&c->last, p);
    if (c->overflow)
        return rp_fail(err, RP_ENOMEM,
                       "analyze: more than %d cards and kinds of action in one "
                       "game",
                       MAX_FEATURES);
    ludii_metrics(c, g, winner);
    return write_features(c, g, err);
}

int an_measure_match(const rp_match *m, an_game *out, rp_error *err)
{
    const rp_game *game = rp_match_game(m);
    an_collector *c = an_collector_new(game, out);
    if (!c)
        return rp_fail(err, RP_ENOMEM, "analyze: out of memory");
    /* A record is read whole after the fact: the designer's measures take every position as
     * the referee had it (rp_match_referee: re-samples after an undo included). */
    rp_state st;
    rp_action action;
    const size_t length = rp_match_length(m);
    for (size_t i = 0; i < length; i++) {
        rp_match_referee(m, i, &st, &action);
        if (action == RP_NO_ACTION)
            continue;
        rp_action legal[RP_MAX_LEGAL];
        const int n = game->legal_actions(&st, legal);
        an_collector_watch(c, &st, game->current_player(&st), action, n);
    }
    rp_match_referee(m, length, &st, NULL);
    an_collector_watch(c, &st, RP_TERMINAL, RP_NO_ACTION, 0);
    /* The match's result: by the rules, or by an ending such as a resignation. */
    double returns[RP_MAX_PLAYERS] = {0};
    const bool over = rp_match_over(m);
    const int players = rp_match_players(m);
    if (over)
        rp_match_returns(m, returns);
    else
        for (int p = 0; p < players; p++)
            returns[p] = 1.0 / players;
    int rc = an_collector_finish(c, returns, !over, err);
    an_collector_free(c);
    return rc;
}

/* ---- "decided by one move" ---- */

struct an_judge {
    const rp_game *game;
    an_game *out;
    rp_ai *ai;
    int players;
    int *movers;       /* the seat to act at each state */
    double *estimates; /* the judge's share of the win for that seat (NaN: forced move) */
    long states, cap;
    bool failed;
    int code; /* when failed: the error code (RP_ENOMEM, or the AI's) */
    rp_error error;
};

int an_judge_new(const rp_game *game, const char *judge_spec, uint64_t seed, an_game *out,
                 an_judge **judge, rp_error *err)
{
    an_judge *j = calloc(1, sizeof *j);
    if (!j)
        return rp_fail(err, RP_ENOMEM, "analyze: out of memory");
    int rc = rp_ai_create(game, judge_spec, seed, &j->ai, err);
    if (rc < 0) {
        free(j);
        return rc;
    }
    j->game = game;
    j->out = out;
    memset(out, 0, sizeof *out);
    out->strong_seat = -1;
    out->first_mover = -1;
    *judge = j;
    return RP_OK;
}

void an_judge_free(an_judge *j)
{
    if (!j)
        return;
    rp_ai_free(j->ai);
    free(j->movers);
    free(j->estimates);
    free(j);
}

static bool judge_grow(an_judge *j)
{
    if (j->states < j->cap)
        return true;
    const long cap = j->cap ? 2 * j->cap : 256;
    if (!grow_ints(&j->movers, cap))
        return false;
    double *estimates = realloc(j->estimates, sizeof *estimates * (size_t)cap);
    if (!estimates)
        return false;
    j->estimates = estimates;
    j->cap = cap;
    return true;
}

void an_judge_watch(void *judge, const void *st, int mover, rp_action action, int legal)
{
    an_judge *j = judge;
    (void)action;
    if (mover == RP_TERMINAL || j->failed)
        return;
    j->players = j->game->num_players(st);
    if (!judge_grow(j)) {
        j->failed = true;
        j->code = rp_fail(&j->error, RP_ENOMEM, "analyze: out of memory judging a game");
        return;
    }
    double estimate = NAN;
    if (legal > 1) {
        rp_action move;
        rp_ai_info info = {-1, 0};
        const int rc = rp_ai_choose(j->ai, st, &move, &info, &j->error);
        if (rc < 0) {
            j->failed = true;
            j->code = rc;
        }
        estimate = info.win_chance >= 0 ? info.win_chance : NAN;
    }
    j->movers[j->states] = mover;
    j->estimates[j->states] = estimate;
    j->states++;
}

/* Each seat's estimated share at every state, from the end backwards: the result at the end;
 * a forced move changes nothing; in two-player games the other seat has the rest of the win;
 * with more players only the seat to act is known (NaN for the others). */
static double *judge_values(const an_judge *j, const double *returns)
{
    const int n = j->players;
    double *v = malloc(sizeof *v * (size_t)((j->states + 1) * n));
    if (!v)
        return NULL;
    for (int p = 0; p < n; p++)
        v[j->states * n + p] = returns[p];
    for (long t = j->states - 1; t >= 0; t--) {
        double *row = v + t * n;
        const double w = j->estimates[t];
        const int m = j->movers[t];
        for (int p = 0; p < n; p++)
            row[p] = isnan(w) ? row[n + p] : n == 2 ? 1 - w : NAN;
        if (!isnan(w))
            row[m] = w;
    }
    return v;
}

int an_judge_finish(an_judge *j, const double *returns, bool unfinished, rp_error *err)
{
    an_game *g = j->out;
    if (j->failed) {
        if (err)
            *err = j->error;
        return j->code;
    }
    const int n = j->players;
    double *v = judge_values(j, returns);
    if (!v)
        return rp_fail(err, RP_ENOMEM, "analyze: out of memory judging a game");
    g->done = g->judged = true;
    g->players = n;
    g->unfinished = unfinished;
    g->actions = j->states;
    int winner = -1;
    for (int p = 0; p < n; p++) {
        g->returns[p] = returns[p];
        if (returns[p] > 0.999 && !unfinished)
            winner = p;
    }
    g->worst_drop = g->loser_drop = 0;
    g->worst_drop_action = -1;
    const double even = 1.0 / n;
    for (long t = 0; t < j->states; t++) {
        const int m = j->movers[t];
        long next = t + 1; /* the next state where the mover's share is known */
        while (next < j->states && isnan(v[next * n + m]))
            next++;
        const double before = v[t * n + m], after = v[next * n + m];
        if (isnan(before) || isnan(after))
            continue;
        const double drop = before - after;
        if (drop > g->worst_drop) {
            g->worst_drop = drop;
            g->worst_drop_action = (int)t;
        }
        if (winner >= 0 && m != winner && drop > g->loser_drop) {
            g->loser_drop = drop;
            g->loser_swung = before >= even && after < even;
        }
    }
    free(v);
    return RP_OK;
}
