/* test_tournament.c — the tournament rules alone (src/server/tournament.c, matching.c): the
 * matching against brute force, Swiss events of bots (64 over 7 rounds; 9 with a late entry
 * and a withdrawal) checked round by round, standings against a computation of their own
 * here, an arena of 50 bots on a clock the test advances, tables of 3-5 and sets. */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"
#include "ramparts/rng.h"
#include "tournament.h"

/* The engine's seeded generator: the same events on every run. */
static rp_rng rng;

static void rng_seed(uint64_t seed)
{
    rp_rng_seed(&rng, seed, 54);
}

static uint32_t rng_below(uint32_t upper)
{
    return rp_rng_below(&rng, upper);
}

/* ---- the matching ---- */

/* The largest matching of the graph on n <= 12 vertices among those alive, by trying all. */
static int brute_max(const bool adj[12][12], const bool *alive, int n, unsigned used)
{
    int first = -1;
    for (int v = 0; v < n && first < 0; v++)
        if (alive[v] && !(used & (1u << v)))
            first = v;
    if (first < 0)
        return 0;
    /* first stays single, or pairs with someone */
    int best = brute_max(adj, alive, n, used | (1u << first));
    for (int u = first + 1; u < n; u++) {
        if (!alive[u] || (used & (1u << u)) || !adj[first][u])
            continue;
        const int with = 1 + brute_max(adj, alive, n, used | (1u << first) | (1u << u));
        best = with > best ? with : best;
    }
    return best;
}

static void random_graph(bool adj[12][12], int n, int percent, rs_matching *m)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            adj[a][b] = adj[b][a] = (int)rng_below(100) < percent;
            rs_matching_edge(m, (size_t)a, (size_t)b, adj[a][b]);
        }
}

static int matched_pairs(const rs_matching *m, int n, const bool *alive)
{
    int pairs = 0;
    for (int v = 0; v < n; v++) {
        const long u = rs_matching_mate(m, (size_t)v);
        if (!alive[v] || u < 0)
            continue;
        assert_true(alive[u]);
        assert_int_equal(rs_matching_mate(m, (size_t)u), v);
        pairs += u > v;
    }
    return pairs;
}

/* Blossoms need odd cycles: random graphs of every density, sizes odd and even. */
static void test_matching_is_maximum(void **state)
{
    (void)state;
    rng_seed(7);
    for (int trial = 0; trial < 400; trial++) {
        const int n = 2 + (int)rng_below(11);
        rs_matching *m = rs_matching_new((size_t)n);
        assert_non_null(m);
        bool adj[12][12] = {{false}}, alive[12];
        for (int v = 0; v < 12; v++)
            alive[v] = true;
        random_graph(adj, n, 15 + (int)rng_below(70), m);
        const size_t unmatched = rs_matching_maximize(m);
        const int best = brute_max(adj, alive, n, 0);
        assert_int_equal(matched_pairs(m, n, alive), best);
        assert_int_equal((int)unmatched, n - 2 * best);
        rs_matching_free(m);
    }
}

/* take_pair keeps a maximum matching of the rest, and refuses exactly the pairs in no
 * maximum matching. */
static void test_matching_take_pair(void **state)
{
    (void)state;
    rng_seed(11);
    for (int trial = 0; trial < 400; trial++) {
        const int n = 4 + (int)rng_below(9);
        rs_matching *m = rs_matching_new((size_t)n);
        assert_non_null(m);
        bool adj[12][12] = {{false}}, alive[12];
        for (int v = 0; v < 12; v++)
            alive[v] = v < n;
        random_graph(adj, n, 30 + (int)rng_below(60), m);
        rs_matching_maximize(m);
        int best = brute_max(adj, alive, n, 0);
        for (int step = 0; step < 3; step++) {
            const int a = (int)rng_below((uint32_t)n), b = (int)rng_below((uint32_t)n);
            if (a == b || !alive[a] || !alive[b] || !adj[a][b])
                continue;
            alive[a] = alive[b] = false;
            const int rest = brute_max(adj, alive, n, 0);
            const bool possible = rest + 1 == best;
            const bool took = rs_matching_take_pair(m, (size_t)a, (size_t)b);
            assert_int_equal(took, possible);
            if (!took) {
                alive[a] = alive[b] = true;
                assert_int_equal(matched_pairs(m, n, alive), best);
                continue;
            }
            assert_int_equal(rs_matching_mate(m, (size_t)a), b);
            assert_int_equal(matched_pairs(m, n, alive), rest);
            best = rest;
        }
        rs_matching_free(m);
    }
}

/* ---- a Swiss event run by the test ---- */

#define MAX_PLAYERS 64
#define MAX_GAMES (MAX_PLAYERS * 10)

typedef struct event {
    rs_tour_entry entries[MAX_PLAYERS];
    size_t n;
    rs_tour_game games[MAX_GAMES];
    size_t m;
} event;

/* A game's result from the two seeds: the stronger wins more often; some draws. */
static void play(rs_tour_game *g, const event *ev)
{
    const double a = ev->entries[g->seat[0]].rating, b = ev->entries[g->seat[1]].rating;
    const uint32_t roll = rng_below(100);
    const uint32_t a_wins = a > b ? 60 : 30;
    if (roll < a_wins) {
        g->points[0] = 2;
        g->points[1] = 0;
    } else if (roll < a_wins + 15) {
        g->points[0] = g->points[1] = 1;
    } else {
        g->points[0] = 0;
        g->points[1] = 2;
    }
}

/* What the test keeps itself, round by round, to check each pairing against. */
typedef struct ledger {
    bool met[MAX_PLAYERS][MAX_PLAYERS];
    int byes[MAX_PLAYERS];
    int first[MAX_PLAYERS], second[MAX_PLAYERS];
} ledger;

/* Pairs round r, checks it against the ledger, plays it and records it. */
static void swiss_round(event *ev, ledger *l, int r)
{
    rs_tour_game out[MAX_PLAYERS];
    bool relaxed = true;
    char err[128] = "";
    const int count = rs_tour_swiss_pair(ev->entries, ev->n, ev->games, ev->m, r, 2, out, &relaxed,
                                         err, sizeof err);
    if (count < 0)
        fail_msg("round %d: %s", r, err);
    assert_false(relaxed);
    int seen[MAX_PLAYERS] = {0};
    int active = 0, byes = 0;
    for (size_t i = 0; i < ev->n; i++)
        active += ev->entries[i].active;
    for (int k = 0; k < count; k++) {
        rs_tour_game *g = &out[k];
        assert_int_equal(g->round, r);
        for (int s = 0; s < g->n; s++) {
            assert_true(ev->entries[g->seat[s]].active);
            seen[g->seat[s]]++;
        }
        if (g->n == 1) {
            byes++;
            assert_int_equal(l->byes[g->seat[0]], 0); /* a bye at most once each */
            l->byes[g->seat[0]]++;
            assert_int_equal(g->points[0], 2);
        } else {
            assert_int_equal(g->n, 2);
            const int a = g->seat[0], b = g->seat[1];
            assert_false(l->met[a][b]); /* no repeat pairing */
            l->met[a][b] = l->met[b][a] = true;
            l->first[a]++;
            l->second[b]++;
            play(g, ev);
        }
        ev->games[ev->m++] = *g;
    }
    assert_int_equal(byes, active % 2);
    for (size_t i = 0; i < ev->n; i++) {
        assert_int_equal(seen[i], ev->entries[i].active ? 1 : 0);
        assert_true(abs(l->first[i] - l->second[i]) <= 1); /* seats balanced within one */
    }
}

/* ---- standings computed here, in plain points, straight from the games ---- */

typedef struct mine {
    double points, buchholz, sonneborn, direct;
} mine;

static double points_of(const event *ev, int e, int rounds)
{
    double p = 0;
    for (size_t k = 0; k < ev->m; k++)
        for (int s = 0; s < ev->games[k].n; s++)
            if (ev->games[k].seat[s] == e && ev->games[k].round <= rounds)
                p += ev->games[k].points[s] / 2.0;
    return p;
}

/* FIDE C.07 Art. 8.1 and 9.1, unplayed rounds against a dummy opponent with the player's own
 * points (Art. 16): a bye scores its points against that dummy, an absence nothing. */
static mine reckon(const event *ev, int e, int rounds)
{
    mine r = {.points = points_of(ev, e, rounds)};
    for (int round = 1; round <= rounds; round++) {
        const rs_tour_game *played = NULL;
        double bye = -1;
        for (size_t k = 0; k < ev->m; k++) {
            const rs_tour_game *g = &ev->games[k];
            if (g->round != round)
                continue;
            if (g->n == 1 && g->seat[0] == e)
                bye = g->points[0] / 2.0;
            if (g->n == 2 && (g->seat[0] == e || g->seat[1] == e))
                played = g;
        }
        if (!played) {
            r.buchholz += r.points;
            r.sonneborn += r.points * (bye > 0 ? bye : 0);
            continue;
        }
        const int me = played->seat[0] == e ? 0 : 1;
        const double opp = points_of(ev, played->seat[1 - me], rounds);
        r.buchholz += opp;
        r.sonneborn += opp * played->points[me] / 2.0;
    }
    return r;
}

/* Checks the module's standings line by line and their order against the test's own. */
static void check_standings(const event *ev, int rounds)
{
    rs_tour_standing st[MAX_PLAYERS];
    rs_tour_standings(ev->entries, ev->n, ev->games, ev->m, rounds, st);
    mine own[MAX_PLAYERS];
    for (size_t i = 0; i < ev->n; i++)
        own[i] = reckon(ev, (int)i, rounds);
    bool listed[MAX_PLAYERS] = {false};
    for (size_t i = 0; i < ev->n; i++) {
        const rs_tour_standing *s = &st[i];
        const mine *o = &own[s->entry];
        assert_false(listed[s->entry]);
        listed[s->entry] = true;
        assert_int_equal(s->rank, (int)i + 1);
        assert_true(fabs(s->points / 2.0 - o->points) < 1e-9);
        assert_true(fabs(s->buchholz / 2.0 - o->buchholz) < 1e-9);
        assert_true(fabs(s->sonneborn / 4.0 - o->sonneborn) < 1e-9);
        if (i == 0)
            continue;
        /* Non-increasing in (points, Buchholz, Sonneborn-Berger). */
        const mine *up = &own[st[i - 1].entry];
        const bool ordered = up->points > o->points ||
                             (up->points == o->points &&
                              (up->buchholz > o->buchholz ||
                               (up->buchholz == o->buchholz && up->sonneborn >= o->sonneborn)));
        assert_true(ordered);
    }
}

/* Direct encounter as Art. 6.1 says, checked on every group the tie-breaks leave tied. */
static void check_direct_encounter(const event *ev, int rounds)
{
    rs_tour_standing st[MAX_PLAYERS];
    rs_tour_standings(ev->entries, ev->n, ev->games, ev->m, rounds, st);
    size_t i = 0;
    while (i < ev->n) {
        size_t j = i + 1;
        while (j < ev->n && st[j].points == st[i].points && st[j].buchholz == st[i].buchholz &&
               st[j].sonneborn == st[i].sonneborn)
            j++;
        bool all_met = j - i > 1;
        for (size_t a = i; a < j; a++)
            for (size_t b = i; b < j; b++) {
                if (a == b)
                    continue;
                bool met = false;
                for (size_t k = 0; k < ev->m; k++) {
                    const rs_tour_game *g = &ev->games[k];
                    met |= g->n == 2 && ((g->seat[0] == st[a].entry && g->seat[1] == st[b].entry) ||
                                         (g->seat[1] == st[a].entry && g->seat[0] == st[b].entry));
                }
                all_met &= met;
            }
        for (size_t a = i; a < j; a++) {
            if (!all_met) {
                assert_int_equal(st[a].direct, -1);
                continue;
            }
            int got = 0;
            for (size_t k = 0; k < ev->m; k++) {
                const rs_tour_game *g = &ev->games[k];
                for (size_t b = i; b < j && g->n == 2; b++) {
                    if (b == a)
                        continue;
                    if (g->seat[0] == st[a].entry && g->seat[1] == st[b].entry)
                        got += g->points[0];
                    if (g->seat[1] == st[a].entry && g->seat[0] == st[b].entry)
                        got += g->points[1];
                }
            }
            assert_int_equal(st[a].direct, got);
            if (a > i)
                assert_true(st[a - 1].direct >= st[a].direct);
        }
        i = j;
    }
}

static void seed_event(event *ev, size_t n)
{
    memset(ev, 0, sizeof *ev);
    ev->n = n;
    for (size_t i = 0; i < n; i++)
        ev->entries[i] = (rs_tour_entry){.rating = 1200 + (double)rng_below(800), .active = true};
}

static void test_swiss_64_over_7(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        rng_seed(seed);
        static event ev;
        static ledger l;
        seed_event(&ev, 64);
        memset(&l, 0, sizeof l);
        for (int r = 1; r <= 7; r++) {
            swiss_round(&ev, &l, r);
            check_standings(&ev, r);
            check_direct_encounter(&ev, r);
        }
    }
}

/* 9 players over 5 rounds (a Swiss of 9 has room for about that many; test_swiss_refuses_
 * only_the_impossible covers a field run to exhaustion), a 10th from round 2, one withdrawing after round 3 and one after round 4: a bye
 * exactly when the count is odd; the late entry's missed round and the withdrawn players'
 * missed rounds count as unplayed. */
static void test_swiss_9_late_entry_and_withdrawal(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        rng_seed(seed * 31);
        static event ev;
        static ledger l;
        seed_event(&ev, 10);
        memset(&l, 0, sizeof l);
        ev.entries[9].active = false; /* enters in round 2 */
        int byes_given = 0;
        for (int r = 1; r <= 5; r++) {
            if (r == 2)
                ev.entries[9].active = true;
            if (r == 5)
                ev.entries[4].active = false; /* withdrew after round 4 */
            if (r == 4)
                ev.entries[2].active = false; /* withdrew after round 3 */
            const size_t before = ev.m;
            swiss_round(&ev, &l, r);
            for (size_t k = before; k < ev.m; k++)
                byes_given += ev.games[k].n == 1;
            check_standings(&ev, r);
            check_direct_encounter(&ev, r);
        }
        /* 9 in round 1, 10 in rounds 2-3, 9 in round 4, 8 after: byes in rounds 1 and 4 */
        assert_int_equal(byes_given, 2);
    }
}

/* A small event worked by hand: A 1-0 B, C 1/2 D in round 1; A 1-0 C, D 1-0 B in round 2.
 * Points: A 2, D 1.5, C 0.5, B 0. Buchholz: A = B 0 + C 0.5 = 0.5; D = C 0.5 + B 0 = 0.5;
 * C = D 1.5 + A 2 = 3.5; B = A 2 + D 1.5 = 3.5. Sonneborn-Berger: A = 0*1 + 0.5*1 = 0.5;
 * D = 0.5*0.5 + 0*1 = 0.25; C = 1.5*0.5 + 2*0 = 0.75; B = 0. */
static void test_tie_breaks_by_hand(void **state)
{
    (void)state;
    const rs_tour_entry e[4] = {{1500, true}, {1500, true}, {1500, true}, {1500, true}};
    const rs_tour_game g[4] = {
        {.round = 1, .n = 2, .seat = {0, 1}, .points = {2, 0}},
        {.round = 1, .n = 2, .seat = {2, 3}, .points = {1, 1}},
        {.round = 2, .n = 2, .seat = {0, 2}, .points = {2, 0}},
        {.round = 2, .n = 2, .seat = {3, 1}, .points = {2, 0}},
    };
    rs_tour_standing st[4];
    rs_tour_standings(e, 4, g, 4, 2, st);
    const int want_entry[4] = {0, 3, 2, 1};
    const int want_points[4] = {4, 3, 1, 0}, want_bh[4] = {1, 1, 7, 7}, want_sb[4] = {2, 1, 3, 0};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(st[i].entry, want_entry[i]);
        assert_int_equal(st[i].points, want_points[i]);
        assert_int_equal(st[i].buchholz, want_bh[i]);
        assert_int_equal(st[i].sonneborn, want_sb[i]);
        assert_int_equal(st[i].direct, -1); /* nobody tied on points */
    }
}

/* Two tied on points, Buchholz and Sonneborn-Berger who met: the winner of their game first
 * (Art. 6.1), though the loser's seed is higher. Six players, three rounds; entries 2 and 4
 * end on 1 point, Buchholz 4.5, Sonneborn-Berger 1 (in half- and quarter-points: 2, 9, 4), and
 * 4 beat 2 in round 2. */
static void test_direct_encounter_decides(void **state)
{
    (void)state;
    const rs_tour_entry e[6] = {{1500, true}, {1500, true}, {1900, true},
                                {1500, true}, {1400, true}, {1500, true}};
    const rs_tour_game g[9] = {
        {.round = 1, .n = 2, .seat = {5, 4}, .points = {2, 0}},
        {.round = 1, .n = 2, .seat = {1, 0}, .points = {0, 2}},
        {.round = 1, .n = 2, .seat = {3, 2}, .points = {2, 0}},
        {.round = 2, .n = 2, .seat = {1, 5}, .points = {1, 1}},
        {.round = 2, .n = 2, .seat = {3, 0}, .points = {2, 0}},
        {.round = 2, .n = 2, .seat = {4, 2}, .points = {2, 0}},
        {.round = 3, .n = 2, .seat = {1, 4}, .points = {2, 0}},
        {.round = 3, .n = 2, .seat = {3, 5}, .points = {1, 1}},
        {.round = 3, .n = 2, .seat = {2, 0}, .points = {2, 0}},
    };
    rs_tour_standing st[6];
    rs_tour_standings(e, 6, g, 9, 3, st);
    const int want[6] = {3, 5, 1, 0, 4, 2};
    for (int i = 0; i < 6; i++)
        assert_int_equal(st[i].entry, want[i]);
    assert_int_equal(st[4].points, 2);
    assert_int_equal(st[4].buchholz, 9);
    assert_int_equal(st[4].sonneborn, 4);
    assert_int_equal(st[4].direct, 2);
    assert_int_equal(st[5].direct, 0);
    assert_int_equal(st[3].direct, -1); /* alone on its tie-breaks */
    /* A group that did not all meet keeps no direct encounter: A 1-0 B, C 1-0 D, then
     * B 1-0 C, D 1-0 A: all on 1 point and equal tie-breaks, A-C and B-D never played. */
    const rs_tour_game cycle[4] = {
        {.round = 1, .n = 2, .seat = {0, 1}, .points = {2, 0}},
        {.round = 1, .n = 2, .seat = {2, 3}, .points = {2, 0}},
        {.round = 2, .n = 2, .seat = {1, 2}, .points = {2, 0}},
        {.round = 2, .n = 2, .seat = {3, 0}, .points = {2, 0}},
    };
    rs_tour_standings(e, 4, cycle, 4, 2, st);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(st[i].points, 2);
        assert_int_equal(st[i].direct, -1);
    }
    assert_int_equal(st[0].entry, 2); /* the highest seed */
}

/* ---- arena ---- */

#define ARENA_BOTS 50

typedef struct bot {
    bool playing, paused;
    int64_t busy_until; /* game end, or pause end */
    int opponent, last_opponent;
    int points, first_moves;
} bot;

static void arena_check_tick(const bot *bots, const rs_tour_waiting *w, size_t n,
                             const int (*pairs)[2], int count)
{
    bool paired[ARENA_BOTS] = {false};
    for (int k = 0; k < count; k++) {
        const int a = w[pairs[k][0]].entry, b = w[pairs[k][1]].entry;
        assert_int_not_equal(a, b);
        assert_false(paired[a] || paired[b]);
        paired[a] = paired[b] = true;
        /* never the same opponent twice in a row */
        assert_int_not_equal(bots[a].last_opponent, b);
        assert_int_not_equal(bots[b].last_opponent, a);
    }
    /* every player paired whenever two who may meet wait */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const int a = w[i].entry, b = w[j].entry;
            if (paired[a] || paired[b])
                continue;
            assert_true(bots[a].last_opponent == b || bots[b].last_opponent == a);
        }
}

static void test_arena_50_bots(void **state)
{
    (void)state;
    rng_seed(99);
    bot bots[ARENA_BOTS];
    double rating[ARENA_BOTS];
    for (int i = 0; i < ARENA_BOTS; i++) {
        bots[i] = (bot){.opponent = -1, .last_opponent = -1};
        rating[i] = 1200 + rng_below(800);
    }
    static rs_tour_game games[ARENA_BOTS * 400];
    size_t m = 0;
    int ticks_with_pairs = 0;
    /* Two hours of arena, a tick every second of the test's own clock. */
    for (int64_t now = 0; now < 2 * 3600 * 1000; now += 1000) {
        rs_tour_waiting w[ARENA_BOTS];
        size_t n = 0;
        for (int i = 0; i < ARENA_BOTS; i++) {
            bot *b = &bots[i];
            if (b->playing && now >= b->busy_until && b->opponent > i) {
                /* the game ends: one result for both, recorded once */
                bot *o = &bots[b->opponent];
                rs_tour_game g = {.round = 1, .n = 2, .seat = {i, b->opponent}};
                g.points[0] = rating[i] > rating[b->opponent] ? 2 : (int)rng_below(3);
                g.points[1] = 2 - g.points[0];
                b->points += g.points[0];
                o->points += g.points[1];
                games[m++] = g;
                b->playing = o->playing = false;
                b->last_opponent = b->opponent;
                o->last_opponent = i;
            }
        }
        for (int i = 0; i < ARENA_BOTS; i++) {
            bot *b = &bots[i];
            if (b->paused && now >= b->busy_until)
                b->paused = false;
            if (!b->playing && !b->paused && rng_below(200) == 0) {
                b->paused = true; /* a player may pause and come back */
                b->busy_until = now + 30000;
            }
            if (!b->playing && !b->paused)
                w[n++] =
                    (rs_tour_waiting){i, b->points, rating[i], b->last_opponent, b->first_moves};
        }
        int pairs[ARENA_BOTS / 2][2];
        const int count = rs_tour_arena_pair(w, n, pairs);
        assert_true(count >= 0);
        arena_check_tick(bots, w, n, (const int(*)[2])pairs, count);
        ticks_with_pairs += count > 0;
        for (int k = 0; k < count; k++) {
            const int a = w[pairs[k][0]].entry, b = w[pairs[k][1]].entry;
            const int64_t length = 20000 + rng_below(280000);
            bots[a] = (bot){true,
                            false,
                            now + length,
                            b,
                            bots[a].last_opponent,
                            bots[a].points,
                            bots[a].first_moves + 1};
            bots[b] = (bot){true,
                            false,
                            now + length,
                            a,
                            bots[b].last_opponent,
                            bots[b].points,
                            bots[b].first_moves - 1};
        }
    }
    assert_true(m > 500);
    assert_true(ticks_with_pairs > 100);
    /* Standings: points per game, each bot's sum and games as the test kept them, ranked by
     * points, then rating; a game still being played (-1) not counted. */
    games[m++] = (rs_tour_game){.round = 1, .n = 2, .seat = {0, 1}, .points = {-1, -1}};
    rs_tour_entry e[ARENA_BOTS];
    for (int i = 0; i < ARENA_BOTS; i++)
        e[i] = (rs_tour_entry){rating[i], true};
    rs_tour_standing st[ARENA_BOTS];
    rs_tour_arena_standings(e, ARENA_BOTS, games, m, st);
    for (int i = 0; i < ARENA_BOTS; i++) {
        int played = 0;
        for (size_t k = 0; k + 1 < m; k++)
            played += games[k].seat[0] == st[i].entry || games[k].seat[1] == st[i].entry;
        assert_int_equal(st[i].points, bots[st[i].entry].points);
        assert_int_equal(st[i].played, played);
        assert_int_equal(st[i].rank, i + 1);
        if (i > 0)
            assert_true(st[i - 1].points > st[i].points ||
                        (st[i - 1].points == st[i].points &&
                         rating[st[i - 1].entry] >= rating[st[i].entry]));
    }
}

/* The seats go to the one with fewer first moves; a pair that just met waits. */
static void test_arena_two_waiting(void **state)
{
    (void)state;
    rs_tour_waiting w[3] = {{.entry = 5, .last_opponent = 7, .first_moves = 1},
                            {.entry = 7, .last_opponent = 5, .first_moves = -1}};
    int pairs[2][2];
    assert_int_equal(rs_tour_arena_pair(w, 2, pairs), 0);
    w[1].last_opponent = 9;
    w[0].last_opponent = 9;
    assert_int_equal(rs_tour_arena_pair(w, 2, pairs), 1);
    assert_int_equal(pairs[0][0], 1);
    assert_int_equal(pairs[0][1], 0);
    /* three waiting, two of whom just met: the third meets one of them */
    w[0].last_opponent = 7;
    w[1].last_opponent = 5;
    w[2] = (rs_tour_waiting){.entry = 8, .last_opponent = -1};
    assert_int_equal(rs_tour_arena_pair(w, 3, pairs), 1);
}

/* ---- tables of 3-5 ---- */

static int seat_of_test(const rs_tour_game *g, int entry)
{
    for (int s = 0; s < g->n; s++)
        if (g->seat[s] == entry)
            return s;
    return -1;
}

static void test_place_points(void **state)
{
    (void)state;
    int points[5];
    rs_tour_place_points(4, (const int[]){2, 1, 4, 3}, points); /* 3, 2, 1, 0 points */
    assert_int_equal(points[0], 4);
    assert_int_equal(points[1], 6);
    assert_int_equal(points[2], 0);
    assert_int_equal(points[3], 2);
    rs_tour_place_points(3, (const int[]){1, 1, 3}, points); /* the first two share 2 + 1 */
    assert_int_equal(points[0], 3);
    assert_int_equal(points[1], 3);
    assert_int_equal(points[2], 0);
    rs_tour_place_points(5, (const int[]){1, 2, 2, 2, 5}, points); /* 3+2+1 shared: 2 each */
    assert_int_equal(points[0], 8);
    assert_int_equal(points[1], 4);
    assert_int_equal(points[2], 4);
    assert_int_equal(points[3], 4);
    assert_int_equal(points[4], 0);
}

static void test_tables(void **state)
{
    (void)state;
    rng_seed(5);
    static event ev;
    seed_event(&ev, 17);
    int repeats = 0;
    for (int r = 1; r <= 5; r++) {
        rs_tour_game out[MAX_PLAYERS];
        char err[128];
        const int tables =
            rs_tour_tables(ev.entries, ev.n, ev.games, ev.m, r, 4, out, err, sizeof err);
        assert_int_equal(tables, 5); /* 17 at tables of 4: 4 + 4 + 3 + 3 + 3 */
        int seen[MAX_PLAYERS] = {0};
        for (int k = 0; k < tables; k++) {
            assert_true(out[k].n == 3 || out[k].n == 4);
            int firsts[RS_TOUR_TABLE_MAX] = {0};
            for (int s = 0; s < out[k].n; s++) {
                seen[out[k].seat[s]]++;
                for (size_t g = 0; g < ev.m; g++)
                    firsts[s] += ev.games[g].seat[0] == out[k].seat[s];
                for (int t = 0; t < s; t++)
                    for (size_t g = 0; g < ev.m; g++)
                        repeats += seat_of_test(&ev.games[g], out[k].seat[s]) >= 0 &&
                                   seat_of_test(&ev.games[g], out[k].seat[t]) >= 0;
            }
            for (int s = 1; s < out[k].n; s++)
                assert_true(firsts[0] <= firsts[s]); /* seat 0 to the fewest first moves */
            int place[RS_TOUR_TABLE_MAX];
            for (int s = 0; s < out[k].n; s++)
                place[s] = 1 + (int)rng_below((uint32_t)out[k].n);
            rs_tour_place_points(out[k].n, place, out[k].points);
            ev.games[ev.m++] = out[k];
        }
        for (size_t i = 0; i < ev.n; i++)
            assert_int_equal(seen[i], 1);
    }
    /* 17 players at tables of 3-4 over 5 rounds must meet again sometimes; the swaps keep it
     * down (measured with this seed: 2 repeated meetings; 18 when only neighbouring tables
     * traded players, 43 with a plain split by score). */
    assert_true(repeats <= 6);
    char err[128];
    rs_tour_game out[4];
    const rs_tour_entry two[2] = {{1500, true}, {1500, true}};
    assert_int_equal(rs_tour_tables(two, 2, NULL, 0, 1, 3, out, err, sizeof err), -1);
    assert_non_null(strstr(err, "3 active players"));
    const rs_tour_entry four[4] = {{1, true}, {2, true}, {3, true}, {4, true}};
    assert_int_equal(rs_tour_tables(four, 4, NULL, 0, 1, 3, out, err, sizeof err), 1);
    assert_int_equal(out[0].n, 4);
}

/* ---- sets and the spec ---- */

static void test_set_seats(void **state)
{
    (void)state;
    /* Castle Danger's formal set: 2 games, sides swapped. */
    assert_int_equal(rs_tour_set_seat(0, 2, 0), 0);
    assert_int_equal(rs_tour_set_seat(1, 2, 0), 1);
    assert_int_equal(rs_tour_set_seat(1, 2, 1), 0);
    /* 3 seats over 3 games: each player in each seat once. */
    for (int seat = 0; seat < 3; seat++) {
        int in[3] = {0};
        for (int k = 0; k < 3; k++)
            in[rs_tour_set_seat(k, 3, seat)]++;
        assert_true(in[0] == 1 && in[1] == 1 && in[2] == 1);
    }
}

static void test_spec_check(void **state)
{
    (void)state;
    char err[128];
    rs_tour_spec s = {
        .format = RS_TOUR_SWISS, .rounds = 7, .set_games = 1, .table_size = 2, .bye_points = 2};
    assert_true(rs_tour_spec_check(&s, err, sizeof err));
    s.rounds = 0;
    assert_false(rs_tour_spec_check(&s, err, sizeof err));
    assert_non_null(strstr(err, "rounds"));
    s = (rs_tour_spec){.format = RS_TOUR_ARENA, .set_games = 1, .table_size = 6};
    s.duration_ms = 1;
    assert_false(rs_tour_spec_check(&s, err, sizeof err));
    assert_non_null(strstr(err, "table"));
    s.table_size = 4; /* an arena's tick pairs two players */
    assert_false(rs_tour_spec_check(&s, err, sizeof err));
    assert_non_null(strstr(err, "arena"));
    s.table_size = 2;
    assert_true(rs_tour_spec_check(&s, err, sizeof err));
    s.set_games = 11;
    assert_false(rs_tour_spec_check(&s, err, sizeof err));
    assert_non_null(strstr(err, "set"));
}

/* When no pairing avoids a repeat, the round is refused with the reason, not repeated. */
static void test_swiss_refuses_a_repeat(void **state)
{
    (void)state;
    const rs_tour_entry e[2] = {{1500, true}, {1400, true}};
    const rs_tour_game g[1] = {{.round = 1, .n = 2, .seat = {0, 1}, .points = {1, 1}}};
    rs_tour_game out[2];
    bool relaxed = false;
    char err[128] = "";
    assert_int_equal(rs_tour_swiss_pair(e, 2, g, 1, 2, 2, out, &relaxed, err, sizeof err), -1);
    assert_non_null(strstr(err, "repeated"));
    /* Three players, two rounds: everybody's bye used up by round 4. */
    const rs_tour_entry three[3] = {{3, true}, {2, true}, {1, true}};
    event ev = {.n = 3};
    memcpy(ev.entries, three, sizeof three);
    for (int r = 1; r <= 3; r++) {
        rs_tour_game o[3];
        const int count =
            rs_tour_swiss_pair(ev.entries, 3, ev.games, ev.m, r, 2, o, &relaxed, err, sizeof err);
        assert_int_equal(count, 2);
        for (int k = 0; k < count; k++) {
            if (o[k].n == 2)
                o[k].points[0] = 2, o[k].points[1] = 0;
            ev.games[ev.m++] = o[k];
        }
    }
    rs_tour_game o[3];
    assert_int_equal(
        rs_tour_swiss_pair(ev.entries, 3, ev.games, ev.m, 4, 2, o, &relaxed, err, sizeof err), -1);
}

/* Small fields run until no round can be paired: the refusal comes only when no pairing
 * without a repeat (and with a bye to someone who has had none) exists, checked by trying
 * every matching. */
static void test_swiss_refuses_only_the_impossible(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        rng_seed(seed * 7 + 3);
        static event ev;
        seed_event(&ev, 5 + seed % 4);
        for (int r = 1; r <= 12; r++) {
            rs_tour_game out[MAX_PLAYERS];
            bool relaxed;
            char err[128];
            const int count = rs_tour_swiss_pair(ev.entries, ev.n, ev.games, ev.m, r, 2, out,
                                                 &relaxed, err, sizeof err);
            bool adj[12][12] = {{false}}, alive[12] = {false}, had_bye[12] = {false};
            for (size_t a = 0; a < ev.n; a++) {
                alive[a] = true;
                for (size_t b = 0; b < ev.n; b++)
                    adj[a][b] = a != b;
            }
            for (size_t k = 0; k < ev.m; k++) {
                const rs_tour_game *g = &ev.games[k];
                if (g->n == 1)
                    had_bye[g->seat[0]] = true;
                else
                    adj[g->seat[0]][g->seat[1]] = adj[g->seat[1]][g->seat[0]] = false;
            }
            bool possible = false;
            if (ev.n % 2 == 0)
                possible = brute_max(adj, alive, (int)ev.n, 0) == (int)ev.n / 2;
            for (size_t b = 0; b < ev.n && ev.n % 2 == 1 && !possible; b++) {
                if (had_bye[b])
                    continue;
                alive[b] = false;
                possible = brute_max(adj, alive, (int)ev.n, 0) == (int)ev.n / 2;
                alive[b] = true;
            }
            assert_int_equal(count >= 0, possible);
            if (count < 0)
                break;
            for (int k = 0; k < count; k++) {
                if (out[k].n == 2)
                    play(&out[k], &ev);
                ev.games[ev.m++] = out[k];
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matching_is_maximum),
        cmocka_unit_test(test_matching_take_pair),
        cmocka_unit_test(test_swiss_64_over_7),
        cmocka_unit_test(test_swiss_9_late_entry_and_withdrawal),
        cmocka_unit_test(test_tie_breaks_by_hand),
        cmocka_unit_test(test_direct_encounter_decides),
        cmocka_unit_test(test_arena_50_bots),
        cmocka_unit_test(test_arena_two_waiting),
        cmocka_unit_test(test_place_points),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_set_seats),
        cmocka_unit_test(test_spec_check),
        cmocka_unit_test(test_swiss_refuses_a_repeat),
        cmocka_unit_test(test_swiss_refuses_only_the_impossible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
