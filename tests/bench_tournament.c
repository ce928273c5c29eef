/* bench_tournament.c — how long the tournament pairings take (make bench-tournament): each
 * round of a 9-round Swiss of 1,000 players (1,001: a bye every round), the same at tables of
 * 3 and of 5, and an arena tick with 1,000 waiting. Prints milliseconds; asserts nothing
 * (tests/test_tournament.c checks). */
#define _XOPEN_SOURCE 700 /* lrand48 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tournament.h"

#define PLAYERS 1001
#define ROUNDS 9

/* POSIX's 48-bit generator, seeded: the same event on every run. */
static uint32_t rng_below(uint32_t upper)
{
    return (uint32_t)lrand48() % upper;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int bench_swiss(void)
{
    static rs_tour_entry entries[PLAYERS];
    static rs_tour_game games[PLAYERS * ROUNDS];
    static rs_tour_game out[PLAYERS];
    size_t m = 0;
    for (size_t i = 0; i < PLAYERS; i++)
        entries[i] = (rs_tour_entry){.rating = 1000 + rng_below(1500), .active = true};
    double worst = 0, total = 0;
    for (int r = 1; r <= ROUNDS; r++) {
        bool relaxed;
        char err[128];
        const double t0 = now_ms();
        const int count =
            rs_tour_swiss_pair(entries, PLAYERS, games, m, r, 2, out, &relaxed, err, sizeof err);
        const double took = now_ms() - t0;
        if (count < 0) {
            fprintf(stderr, "round %d: %s\n", r, err);
            return 1;
        }
        printf("swiss %d players, round %d: %d games, %.1f ms%s\n", PLAYERS, r, count, took,
               relaxed ? " (seat balance relaxed)" : "");
        worst = took > worst ? took : worst;
        total += took;
        for (int k = 0; k < count; k++) {
            rs_tour_game g = out[k];
            if (g.n == 2) {
                g.points[0] = (int)rng_below(3);
                g.points[1] = 2 - g.points[0];
            }
            games[m++] = g;
        }
    }
    rs_tour_standing *st = malloc(PLAYERS * sizeof *st);
    if (!st)
        return 1;
    const double t0 = now_ms();
    rs_tour_standings(entries, PLAYERS, games, m, ROUNDS, st);
    printf("swiss: worst round %.1f ms, all %d rounds %.1f ms; standings %.1f ms\n", worst, ROUNDS,
           total, now_ms() - t0);
    free(st);
    return 0;
}

/* 9 rounds of 1,000 players at tables of `size`, each table's places drawn at random. */
static int bench_tables(int size)
{
    enum { TABLE_PLAYERS = 1000 };
    static rs_tour_entry entries[TABLE_PLAYERS];
    static rs_tour_game games[TABLE_PLAYERS * ROUNDS];
    static rs_tour_game out[TABLE_PLAYERS];
    size_t m = 0;
    for (size_t i = 0; i < TABLE_PLAYERS; i++)
        entries[i] = (rs_tour_entry){.rating = 1000 + rng_below(1500), .active = true};
    double worst = 0, total = 0;
    for (int r = 1; r <= ROUNDS; r++) {
        char err[128];
        const double t0 = now_ms();
        const int count =
            rs_tour_tables(entries, TABLE_PLAYERS, games, m, r, size, out, err, sizeof err);
        const double took = now_ms() - t0;
        if (count < 0) {
            fprintf(stderr, "tables of %d, round %d: %s\n", size, r, err);
            return 1;
        }
        worst = took > worst ? took : worst;
        total += took;
        for (int k = 0; k < count; k++) {
            int place[RS_TOUR_TABLE_MAX];
            for (int s = 0; s < out[k].n; s++)
                place[s] = 1 + (int)rng_below((uint32_t)out[k].n);
            rs_tour_place_points(out[k].n, place, out[k].points);
            games[m++] = out[k];
        }
    }
    printf("tables of %d, %d players: worst round %.1f ms, all %d rounds %.1f ms\n", size,
           TABLE_PLAYERS, worst, ROUNDS, total);
    return 0;
}

static int bench_arena(void)
{
    enum { WAITING = 1000 };
    static rs_tour_waiting w[WAITING];
    static int pairs[WAITING / 2][2];
    for (int i = 0; i < WAITING; i++)
        w[i] = (rs_tour_waiting){.entry = i,
                                 .points = (int)rng_below(40),
                                 .rating = 1000 + rng_below(1500),
                                 .last_opponent = (int)rng_below(WAITING),
                                 .first_moves = (int)rng_below(3) - 1};
    double worst = 0;
    for (int tick = 0; tick < 5; tick++) {
        const double t0 = now_ms();
        const int count = rs_tour_arena_pair(w, WAITING, pairs);
        const double took = now_ms() - t0;
        if (count < 0)
            return 1;
        worst = took > worst ? took : worst;
        if (tick == 0)
            printf("arena tick, %d waiting: %d pairs, %.1f ms\n", WAITING, count, took);
    }
    printf("arena: worst of 5 ticks %.1f ms\n", worst);
    return 0;
}

int main(void)
{
    srand48(12345);
    return bench_swiss() || bench_tables(3) || bench_tables(5) || bench_arena();
}
