/* tournament.c — the rules of tournaments (tournament.h): Swiss pairing over a maximum
 * matching's look-ahead (matching.h), FIDE's tie-breaks, the arena's tick, tables of 3-5,
 * a set's seats. Pure: entries and games in, pairings and standings out. */
#include "tournament.h"

#include "matching.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(char *err, size_t errlen, const char *why)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", why);
    return false;
}

static int failed(char *err, size_t errlen, const char *why)
{
    fail(err, errlen, why);
    return -1;
}

bool rs_tour_spec_check(const rs_tour_spec *spec, char *err, size_t errlen)
{
    if (spec->format != RS_TOUR_SETS && spec->format != RS_TOUR_SWISS &&
        spec->format != RS_TOUR_ARENA)
        return fail(err, errlen, "format: sets, swiss or arena");
    if (spec->format == RS_TOUR_SWISS && (spec->rounds < 1 || spec->rounds > RS_TOUR_ROUNDS_MAX))
        return fail(err, errlen, "rounds: 1 to 50 for a Swiss");
    if (spec->format == RS_TOUR_ARENA && spec->duration_ms <= 0)
        return fail(err, errlen, "duration: more than 0 for an arena");
    if (spec->set_games < 1 || spec->set_games > RS_TOUR_SET_MAX)
        return fail(err, errlen, "set: 1 to 10 games");
    if (spec->table_size != 2 && (spec->table_size < 3 || spec->table_size > RS_TOUR_TABLE_MAX))
        return fail(err, errlen, "table: 2, or 3 to 5 players");
    if (spec->bye_points < 0 || spec->bye_points > 2)
        return fail(err, errlen, "bye: 0 to 2 half-points");
    /* rs_tour_arena_pair pairs two players; tables of 3-5 are paired by rounds (Swiss). */
    if (spec->format == RS_TOUR_ARENA && spec->table_size != 2)
        return fail(err, errlen, "table: 2 for an arena (its pairing is of two players)");
    return true;
}

/* ---- what the games so far say about each entry ---- */

typedef struct history {
    size_t n;
    int *points;      /* half-points of finished games and byes */
    int *balance;     /* first moves minus second moves */
    int *last_seat;   /* +1 moved first last time, -1 second, 0 no game yet */
    bool *had_bye;    /* a pairing-allocated bye already */
    int *first_moves; /* times in seat 0 (tables) */
    uint8_t *met;     /* n x n: times the two sat at one game, capped at 255 */
} history;

static void history_free(history *h)
{
    free(h->points);
    free(h->balance);
    free(h->last_seat);
    free(h->had_bye);
    free(h->first_moves);
    free(h->met);
}

static void history_game(history *h, const rs_tour_game *g)
{
    if (g->n == 1) {
        h->had_bye[g->seat[0]] = true;
        if (g->points[0] > 0)
            h->points[g->seat[0]] += g->points[0];
        return;
    }
    for (int i = 0; i < g->n; i++) {
        const int e = g->seat[i];
        if (g->points[i] > 0)
            h->points[e] += g->points[i];
        for (int j = 0; j < g->n; j++)
            if (j != i && h->met[(size_t)e * h->n + (size_t)g->seat[j]] < 255)
                h->met[(size_t)e * h->n + (size_t)g->seat[j]]++;
    }
    h->first_moves[g->seat[0]]++;
    if (g->n != 2)
        return;
    h->balance[g->seat[0]]++;
    h->balance[g->seat[1]]--;
}

/* Games in round order give the last seat; the caller's order within a round is kept. */
static bool history_build(history *h, size_t n, const rs_tour_game *games, size_t m)
{
    memset(h, 0, sizeof *h);
    h->n = n;
    const size_t cells = n ? n : 1;
    h->points = calloc(cells, sizeof *h->points);
    h->balance = calloc(cells, sizeof *h->balance);
    h->last_seat = calloc(cells, sizeof *h->last_seat);
    h->had_bye = calloc(cells, sizeof *h->had_bye);
    h->first_moves = calloc(cells, sizeof *h->first_moves);
    h->met = calloc(cells * cells, 1);
    if (!h->points || !h->balance || !h->last_seat || !h->had_bye || !h->first_moves || !h->met) {
        history_free(h);
        return false;
    }
    int *last_round = calloc(cells, sizeof *last_round);
    if (!last_round) {
        history_free(h);
        return false;
    }
    for (size_t k = 0; k < m; k++) {
        const rs_tour_game *g = &games[k];
        history_game(h, g);
        if (g->n != 2)
            continue;
        for (int s = 0; s < 2; s++) {
            if (g->round < last_round[g->seat[s]])
                continue;
            last_round[g->seat[s]] = g->round;
            h->last_seat[g->seat[s]] = s == 0 ? 1 : -1;
        }
    }
    free(last_round);
    return true;
}

static bool met(const history *h, int a, int b)
{
    return h->met[(size_t)a * h->n + (size_t)b] != 0;
}

/* ---- the order of play: score, then seed ---- */

/* A player with the keys of the order beside it (qsort has no context to look them up). */
typedef struct ranked {
    int points;
    double rating;
    int index;
} ranked;

static int by_score_then_seed(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    if (a->rating != b->rating)
        return a->rating > b->rating ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The active entries in order of score then seed into out (room for n); returns their count,
 * or (size_t)-1 out of memory. */
static size_t active_in_order(const rs_tour_entry *entries, size_t n, const history *h, int *out)
{
    ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return (size_t)-1;
    size_t a = 0;
    for (size_t i = 0; i < n; i++)
        if (entries[i].active)
            r[a++] = (ranked){h->points[i], entries[i].rating, (int)i};
    qsort(r, a, sizeof *r, by_score_then_seed);
    for (size_t i = 0; i < a; i++)
        out[i] = r[i].index;
    free(r);
    return a;
}

/* ---- Swiss ---- */

/* Two may meet without either's first-move balance leaving -1..1 (the one with the lower
 * balance moves first): not both ahead, not both behind. */
static bool seats_fit(const history *h, int a, int b)
{
    const int x = h->balance[a], y = h->balance[b];
    return !(x > 0 && y > 0) && !(x < 0 && y < 0);
}

/* Whether a moves first against b: the lower balance, then the one who moved second last
 * time, then the higher-placed (earlier in the order, pa < pb) in odd rounds. */
static bool moves_first(const history *h, int a, int b, bool a_higher, int round)
{
    if (h->balance[a] != h->balance[b])
        return h->balance[a] < h->balance[b];
    if (h->last_seat[a] != h->last_seat[b])
        return h->last_seat[a] < h->last_seat[b];
    return a_higher == (round % 2 == 1);
}

/* A seat preference both get: opposite balances, or opposite last seats. */
static int seat_wish_cost(const history *h, int a, int b)
{
    if (h->balance[a] != h->balance[b])
        return 0;
    if (h->last_seat[a] != 0 && h->last_seat[a] == -h->last_seat[b])
        return 0;
    return h->balance[a] == 0 && h->last_seat[a] == 0 ? 0 : 1;
}

typedef struct candidate {
    int group_gap; /* score distance in half-points */
    int dutch_gap; /* distance from the ideal place in the group (top half against bottom) */
    int seat_cost; /* 1: one of them does not get the seat they would like */
    int pos;       /* place in the order */
} candidate;

static int by_candidate(const void *pa, const void *pb)
{
    const candidate *a = pa, *b = pb;
    if (a->group_gap != b->group_gap)
        return a->group_gap < b->group_gap ? -1 : 1;
    if (a->dutch_gap != b->dutch_gap)
        return a->dutch_gap < b->dutch_gap ? -1 : 1;
    if (a->seat_cost != b->seat_cost)
        return a->seat_cost < b->seat_cost ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

typedef struct swiss_work {
    const history *h;
    const int *order; /* active entries, score then seed */
    size_t a;
    bool *taken;      /* by place in the order */
    int *group_index; /* a place's index in its score group among those not taken */
    candidate *cands;
} swiss_work;

/* Each untaken player's index within its score group (the order keeps groups together). */
static void index_groups(swiss_work *w)
{
    int run = 0, score = -1;
    for (size_t i = 0; i < w->a; i++) {
        if (w->taken[i])
            continue;
        const int s = w->h->points[w->order[i]];
        run = s == score ? run + 1 : 0;
        score = s;
        w->group_index[i] = run;
    }
}

static int group_size(const swiss_work *w, size_t top)
{
    int size = 0;
    const int s = w->h->points[w->order[top]];
    for (size_t i = top; i < w->a && w->h->points[w->order[i]] == s; i++)
        size += !w->taken[i];
    return size;
}

/* The opponents the top untaken player (place p) may meet, best first. */
static size_t candidates(swiss_work *w, const rs_matching *g, size_t p)
{
    index_groups(w);
    const int top = w->order[p], half = group_size(w, p) / 2;
    size_t c = 0;
    for (size_t q = p + 1; q < w->a; q++) {
        if (w->taken[q] || !rs_matching_has_edge(g, p, q))
            continue;
        const int other = w->order[q];
        const int gap = w->h->points[top] - w->h->points[other];
        w->cands[c++] = (candidate){
            .group_gap = gap < 0 ? -gap : gap,
            .dutch_gap = gap == 0 ? abs(w->group_index[q] - half) : w->group_index[q],
            .seat_cost = seat_wish_cost(w->h, top, other),
            .pos = (int)q,
        };
    }
    qsort(w->cands, c, sizeof *w->cands, by_candidate);
    return c;
}

static rs_matching *swiss_graph(const history *h, const int *order, size_t a, bool seats)
{
    rs_matching *g = rs_matching_new(a);
    if (!g)
        return NULL;
    for (size_t i = 0; i < a; i++)
        for (size_t j = i + 1; j < a; j++)
            if (!met(h, order[i], order[j]) && (!seats || seats_fit(h, order[i], order[j])))
                rs_matching_edge(g, i, j, true);
    /* A start near the answer: neighbours in the order, so the search has little to do. */
    for (size_t i = 0; i < a; i++) {
        if (rs_matching_mate(g, i) != -1)
            continue;
        for (size_t j = i + 1; j < a && j < i + 8; j++) {
            if (rs_matching_mate(g, j) == -1 && rs_matching_has_edge(g, i, j)) {
                rs_matching_join(g, i, j);
                break;
            }
        }
    }
    return g;
}

/* The bye: the lowest in the order who has had none and whose absence leaves the rest
 * perfectly matched; -1 if nobody. */
static long pick_bye(rs_matching *g, const swiss_work *w)
{
    for (size_t i = w->a; i-- > 0;)
        if (!w->h->had_bye[w->order[i]] && rs_matching_take_single(g, i))
            return (long)i;
    return -1;
}

typedef struct swiss_out {
    rs_tour_game *games;
    int count;
    int round, bye_points;
} swiss_out;

static void emit_pair(swiss_out *o, const swiss_work *w, size_t p, size_t q)
{
    const int a = w->order[p], b = w->order[q];
    const bool a_first = moves_first(w->h, a, b, p < q, o->round);
    o->games[o->count++] = (rs_tour_game){
        .round = o->round,
        .n = 2,
        .seat = {a_first ? a : b, a_first ? b : a},
        .points = {-1, -1},
    };
}

/* One attempt at the round with or without the seat rule; false: no full pairing under it. */
static bool swiss_try(swiss_work *w, swiss_out *o, bool seats, bool *oom)
{
    rs_matching *g = swiss_graph(w->h, w->order, w->a, seats);
    if (!g) {
        *oom = true;
        return false;
    }
    memset(w->taken, 0, w->a * sizeof *w->taken);
    o->count = 0;
    const size_t unmatched = rs_matching_maximize(g);
    bool ok = unmatched == w->a % 2;
    if (ok && w->a % 2 == 1) {
        const long bye = pick_bye(g, w);
        ok = bye != -1;
        if (ok) {
            w->taken[bye] = true;
            o->games[o->count++] = (rs_tour_game){
                .round = o->round, .n = 1, .seat = {w->order[bye]}, .points = {o->bye_points}};
        }
    }
    for (size_t p = 0; ok && p < w->a; p++) {
        if (w->taken[p])
            continue;
        const size_t c = candidates(w, g, p);
        size_t k = 0;
        while (k < c && !rs_matching_take_pair(g, p, (size_t)w->cands[k].pos))
            k++;
        if (k == c) { /* cannot happen while the matching is perfect; kept as a guard */
            ok = false;
            break;
        }
        const size_t q = (size_t)w->cands[k].pos;
        w->taken[p] = w->taken[q] = true;
        emit_pair(o, w, p, q);
    }
    rs_matching_free(g);
    return ok;
}

int rs_tour_swiss_pair(const rs_tour_entry *entries, size_t n, const rs_tour_game *games, size_t m,
                       int round, int bye_points, rs_tour_game *out, bool *relaxed, char *err,
                       size_t errlen)
{
    *relaxed = false;
    history h;
    if (!history_build(&h, n, games, m))
        return failed(err, errlen, "out of memory");
    swiss_work w = {.h = &h};
    const size_t cells = n ? n : 1;
    int *order = malloc(cells * sizeof *order);
    w.taken = malloc(cells * sizeof *w.taken);
    w.group_index = malloc(cells * sizeof *w.group_index);
    w.cands = malloc(cells * sizeof *w.cands);
    int result = -1;
    bool oom = !order || !w.taken || !w.group_index || !w.cands;
    if (!oom) {
        w.order = order;
        w.a = active_in_order(entries, n, &h, order);
        oom = w.a == (size_t)-1;
    }
    if (!oom) {
        swiss_out o = {.games = out, .round = round, .bye_points = bye_points};
        bool paired = false;
        if (w.a < 2) {
            fail(err, errlen, "fewer than 2 active players");
        } else {
            paired = swiss_try(&w, &o, true, &oom);
            if (!paired && !oom) {
                *relaxed = true; /* the seat balance gives way before a repeat or a bye */
                paired = swiss_try(&w, &o, false, &oom);
            }
            if (!paired && !oom)
                fail(err, errlen, "no pairing without a repeated game or a second bye");
        }
        if (paired)
            result = o.count;
    }
    if (oom)
        fail(err, errlen, "out of memory");
    free(order);
    free(w.taken);
    free(w.group_index);
    free(w.cands);
    history_free(&h);
    return result;
}

/* ---- standings ---- */

typedef struct standing_work {
    const rs_tour_entry *entries;
    const rs_tour_game *games;
    size_t n, m;
    int rounds;
    int *round_game; /* n x rounds: the finished game (index) each played, -1: none */
    int *bye;        /* n x rounds: half-points of a bye that round, -1: no bye */
} standing_work;

static bool finished(const rs_tour_game *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->points[i] < 0)
            return false;
    return true;
}

static int seat_of(const rs_tour_game *g, int entry)
{
    for (int i = 0; i < g->n; i++)
        if (g->seat[i] == entry)
            return i;
    return -1;
}

static void tally_points(const standing_work *sw, rs_tour_standing *out)
{
    for (size_t k = 0; k < sw->m; k++) {
        const rs_tour_game *g = &sw->games[k];
        if (!finished(g) || g->round < 1 || g->round > sw->rounds)
            continue;
        for (int i = 0; i < g->n; i++) {
            rs_tour_standing *s = &out[g->seat[i]];
            s->points += g->points[i];
            const size_t cell = (size_t)g->seat[i] * (size_t)sw->rounds + (size_t)g->round - 1;
            if (g->n == 1) {
                s->byes++;
                sw->bye[cell] = g->points[0];
            } else {
                s->played++;
                sw->round_game[cell] = (int)k;
            }
        }
    }
}

/* Buchholz and Sonneborn-Berger of entry e, the points of all known. */
static void tie_breaks(const standing_work *sw, int e, rs_tour_standing *out)
{
    rs_tour_standing *s = &out[e];
    for (int r = 0; r < sw->rounds; r++) {
        const size_t cell = (size_t)e * (size_t)sw->rounds + (size_t)r;
        const int k = sw->round_game[cell];
        if (k < 0) {
            /* Unplayed (a bye, late entry, withdrawal): a dummy opponent with e's own
             * points (FIDE C.07 Art. 16), who scores what e did not. */
            const int got = sw->bye[cell] > 0 ? sw->bye[cell] : 0;
            s->buchholz += s->points;
            s->sonneborn += s->points * got;
            continue;
        }
        const rs_tour_game *g = &sw->games[k];
        const int mine = g->points[seat_of(g, e)];
        for (int i = 0; i < g->n; i++) {
            if (g->seat[i] == e)
                continue;
            const int theirs = out[g->seat[i]].points;
            s->buchholz += theirs;
            if (g->n == 2)
                s->sonneborn += theirs * mine;
        }
    }
}

/* A line with its seed beside it, for the sort. */
typedef struct seeded {
    rs_tour_standing s;
    double rating;
} seeded;

static int by_standing(const void *pa, const void *pb)
{
    const rs_tour_standing *a = &((const seeded *)pa)->s, *b = &((const seeded *)pb)->s;
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    if (a->buchholz != b->buchholz)
        return a->buchholz > b->buchholz ? -1 : 1;
    if (a->sonneborn != b->sonneborn)
        return a->sonneborn > b->sonneborn ? -1 : 1;
    if (a->direct != b->direct)
        return a->direct > b->direct ? -1 : 1;
    const double ra = ((const seeded *)pa)->rating, rb = ((const seeded *)pb)->rating;
    if (ra != rb)
        return ra > rb ? -1 : 1;
    return a->entry < b->entry ? -1 : a->entry > b->entry;
}

/* Sorts the n lines of out into rank order. */
static void rank_lines(const rs_tour_entry *entries, rs_tour_standing *out, size_t n)
{
    seeded *lines = malloc((n ? n : 1) * sizeof *lines);
    if (!lines)
        return; /* left in entry order: complete, only unranked */
    for (size_t i = 0; i < n; i++)
        lines[i] = (seeded){out[i], entries[out[i].entry].rating};
    qsort(lines, n, sizeof *lines, by_standing);
    for (size_t i = 0; i < n; i++)
        out[i] = lines[i].s;
    free(lines);
}

static bool tied(const rs_tour_standing *a, const rs_tour_standing *b)
{
    return a->points == b->points && a->buchholz == b->buchholz && a->sonneborn == b->sonneborn;
}

/* Points e scored in finished 2-player games against members of the group; *all_met says
 * whether e met every other member. */
static int points_within(const standing_work *sw, int e, const rs_tour_standing *group, size_t size,
                         bool *all_met)
{
    int got = 0;
    *all_met = true;
    for (size_t j = 0; j < size; j++) {
        const int other = group[j].entry;
        if (other == e)
            continue;
        bool seen = false;
        for (size_t k = 0; k < sw->m; k++) {
            const rs_tour_game *g = &sw->games[k];
            if (g->n != 2 || !finished(g) || g->round > sw->rounds)
                continue;
            const int se = seat_of(g, e), so = seat_of(g, other);
            if (se < 0 || so < 0)
                continue;
            seen = true;
            got += g->points[se];
        }
        *all_met = *all_met && seen;
    }
    return got;
}

/* Direct encounter (FIDE C.07 Art. 6.1) in each group tied on points, Buchholz and
 * Sonneborn-Berger: used when every member met every other; else left at -1. */
static void direct_encounters(const standing_work *sw, rs_tour_standing *sorted)
{
    size_t i = 0;
    while (i < sw->n) {
        size_t j = i + 1;
        while (j < sw->n && tied(&sorted[i], &sorted[j]))
            j++;
        bool everyone_met = j - i > 1;
        for (size_t k = i; k < j && everyone_met; k++) {
            bool all_met;
            sorted[k].direct = points_within(sw, sorted[k].entry, sorted + i, j - i, &all_met);
            everyone_met = all_met;
        }
        for (size_t k = i; k < j && !everyone_met; k++)
            sorted[k].direct = -1;
        i = j;
    }
}

void rs_tour_standings(const rs_tour_entry *entries, size_t n, const rs_tour_game *games, size_t m,
                       int rounds, rs_tour_standing *out)
{
    const size_t cells = (n ? n : 1) * (size_t)(rounds > 0 ? rounds : 1);
    standing_work sw = {.entries = entries, .games = games, .n = n, .m = m, .rounds = rounds};
    sw.round_game = calloc(cells, sizeof *sw.round_game);
    sw.bye = calloc(cells, sizeof *sw.bye);
    for (size_t i = 0; i < n; i++)
        out[i] = (rs_tour_standing){.entry = (int)i, .direct = -1};
    if (sw.round_game && sw.bye && rounds > 0) {
        for (size_t c = 0; c < cells; c++)
            sw.round_game[c] = sw.bye[c] = -1;
        tally_points(&sw, out);
        for (size_t i = 0; i < n; i++)
            tie_breaks(&sw, (int)i, out);
    }
    rank_lines(entries, out, n);
    if (sw.round_game && sw.bye && rounds > 0) {
        direct_encounters(&sw, out);
        rank_lines(entries, out, n);
    }
    for (size_t i = 0; i < n; i++)
        out[i].rank = (int)i + 1;
    free(sw.round_game);
    free(sw.bye);
}

/* ---- arena ---- */

void rs_tour_arena_standings(const rs_tour_entry *entries, size_t n, const rs_tour_game *games,
                             size_t m, rs_tour_standing *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (rs_tour_standing){.entry = (int)i, .direct = -1};
    for (size_t k = 0; k < m; k++) {
        if (!finished(&games[k]))
            continue;
        for (int s = 0; s < games[k].n; s++) {
            const int e = games[k].seat[s];
            if (e < 0 || (size_t)e >= n)
                continue;
            out[e].points += games[k].points[s];
            out[e].played++;
        }
    }
    /* No Buchholz nor Sonneborn-Berger (left 0): points, then the seed. */
    rank_lines(entries, out, n);
    for (size_t i = 0; i < n; i++)
        out[i].rank = (int)i + 1;
}

static bool just_met(const rs_tour_waiting *a, const rs_tour_waiting *b)
{
    return a->entry == b->entry || a->last_opponent == b->entry || b->last_opponent == a->entry;
}

int rs_tour_arena_pair(const rs_tour_waiting *w, size_t n, int (*out)[2])
{
    int *order = malloc((n ? n : 1) * sizeof *order);
    rs_matching *g = rs_matching_new(n);
    if (!order || !g) {
        free(order);
        rs_matching_free(g);
        return -1;
    }
    ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r) {
        free(order);
        rs_matching_free(g);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        r[i] = (ranked){w[i].points, w[i].rating, (int)i};
    qsort(r, n, sizeof *r, by_score_then_seed);
    for (size_t i = 0; i < n; i++)
        order[i] = r[i].index;
    free(r);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (!just_met(&w[order[i]], &w[order[j]]))
                rs_matching_edge(g, i, j, true);
    /* Nearest neighbours in (points, rating) first; the matching then pairs whoever that
     * left alone where it can. */
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n && rs_matching_mate(g, i) == -1; j++)
            if (rs_matching_mate(g, j) == -1 && rs_matching_has_edge(g, i, j))
                rs_matching_join(g, i, j);
    }
    rs_matching_maximize(g);
    int pairs = 0;
    for (size_t i = 0; i < n; i++) {
        const long j = rs_matching_mate(g, i);
        if (j < (long)i)
            continue;
        const int a = order[i], b = order[j];
        const bool a_first = w[a].first_moves <= w[b].first_moves;
        out[pairs][0] = a_first ? a : b;
        out[pairs][1] = a_first ? b : a;
        pairs++;
    }
    free(order);
    rs_matching_free(g);
    return pairs;
}

/* ---- tables ---- */

static int table_cost(const history *h, const int *seat, int n)
{
    int cost = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            cost += h->met[(size_t)seat[i] * h->n + (size_t)seat[j]];
    return cost;
}

/* Each swap of a player of x with one of y that lowers the two tables' repeated meetings;
 * whether there was one. */
static bool swap_between(const history *h, rs_tour_game *x, rs_tour_game *y)
{
    bool changed = false;
    for (int i = 0; i < x->n; i++) {
        for (int j = 0; j < y->n; j++) {
            const int before = table_cost(h, x->seat, x->n) + table_cost(h, y->seat, y->n);
            const int a = x->seat[i];
            x->seat[i] = y->seat[j];
            y->seat[j] = a;
            if (table_cost(h, x->seat, x->n) + table_cost(h, y->seat, y->n) < before) {
                changed = true;
                continue;
            }
            y->seat[j] = x->seat[i];
            x->seat[i] = a;
        }
    }
    return changed;
}

/* Swaps between tables while one lowers their repeated meetings: between neighbours first,
 * so that players stay near their score where they can, then tables further apart (with
 * neighbours only, the top and the bottom of 3 tables of 3 never trade, and 9 players met
 * again in a round that could seat each with new faces). */
static void spread_repeats(const history *h, rs_tour_game *t, int tables)
{
    for (int pass = 0; pass < 8; pass++) {
        bool changed = false;
        for (int apart = 1; apart < tables; apart++)
            for (int k = 0; k + apart < tables; k++)
                changed |= swap_between(h, &t[k], &t[k + apart]);
        if (!changed)
            return;
    }
}

/* Seats by fewest first moves so far (then as they were), so seat 0 goes round. */
static void seat_table(const history *h, rs_tour_game *t)
{
    for (int i = 1; i < t->n; i++) {
        const int e = t->seat[i];
        int j = i;
        while (j > 0 && h->first_moves[t->seat[j - 1]] > h->first_moves[e]) {
            t->seat[j] = t->seat[j - 1];
            j--;
        }
        t->seat[j] = e;
    }
}

int rs_tour_tables(const rs_tour_entry *entries, size_t n, const rs_tour_game *games, size_t m,
                   int round, int size, rs_tour_game *out, char *err, size_t errlen)
{
    history h;
    if (!history_build(&h, n, games, m))
        return failed(err, errlen, "out of memory");
    int *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        history_free(&h);
        return failed(err, errlen, "out of memory");
    }
    const size_t a = active_in_order(entries, n, &h, order);
    if (a == (size_t)-1) {
        free(order);
        history_free(&h);
        return failed(err, errlen, "out of memory");
    }
    int tables = -1;
    size_t count = size > 0 ? (a + (size_t)size - 1) / (size_t)size : 0;
    while (count > 1 && a / count < 3)
        count--;
    if (a < 3 || size < 3 || size > RS_TOUR_TABLE_MAX) {
        fail(err, errlen, "tables need 3 to 5 players a table and 3 active players");
    } else if (a / count + (a % count != 0) > RS_TOUR_TABLE_MAX) {
        fail(err, errlen, "too few players for more than one table of 5");
    } else {
        size_t next = 0;
        for (size_t k = 0; k < count; k++) {
            const int seats = (int)(a / count) + (k < a % count);
            out[k] = (rs_tour_game){.round = round, .n = seats};
            for (int s = 0; s < seats; s++) {
                out[k].seat[s] = order[next++];
                out[k].points[s] = -1;
            }
        }
        tables = (int)count;
        spread_repeats(&h, out, tables);
        for (int k = 0; k < tables; k++)
            seat_table(&h, &out[k]);
    }
    free(order);
    history_free(&h);
    return tables;
}

void rs_tour_place_points(int n, const int *place, int *points)
{
    for (int i = 0; i < n; i++) {
        int better = 0, ties = 0;
        for (int j = 0; j < n; j++) {
            better += place[j] < place[i];
            ties += place[j] == place[i];
        }
        /* The mean of 2(n - p) over the places p = better+1 .. better+ties. */
        points[i] = 2 * n - 2 * better - (ties + 1);
    }
}

/* ---- sets ---- */

int rs_tour_set_seat(int k, int n, int seat)
{
    return n > 0 ? (seat + k) % n : 0;
}
