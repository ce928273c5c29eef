/* tournament.h — tournaments as data and their rules, pure (no I/O, no clock, no store): the
 * formats (sets, Swiss, arena), Swiss pairing, standings with FIDE's tie-breaks, the arena's
 * pairing tick, tables of 3-5 and a set's seats (docs/tournaments.md). The server stores
 * what these compute. A leaf of layers.h. */
#ifndef RS_TOURNAMENT_H
#define RS_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RS_TOUR_TABLE_MAX 5   /* players at one game: King of Danger and Rush the Wall reach 5 */
#define RS_TOUR_SET_MAX 10    /* games in one set */
#define RS_TOUR_ROUNDS_MAX 50 /* Swiss rounds */

/* Points are kept in half-points throughout (a win 2, a draw 1, a loss 0), so that every sum
 * and every tie-break is an exact integer. */
typedef enum rs_tour_format {
    RS_TOUR_SETS,  /* one set between the same players ("play a set") */
    RS_TOUR_SWISS, /* a fixed number of rounds, pairings by score */
    RS_TOUR_ARENA, /* a fixed duration; a player who finishes is paired again */
} rs_tour_format;

/* A tournament's rules. */
typedef struct rs_tour_spec {
    rs_tour_format format;
    int rounds;          /* Swiss: 1..RS_TOUR_ROUNDS_MAX */
    int64_t duration_ms; /* arena: > 0 */
    int set_games;       /* games per pairing, seats rotated between them: 1..RS_TOUR_SET_MAX */
    int table_size;      /* 2, or 3..5 players at a table */
    int bye_points;      /* half-points a pairing-allocated bye gives: 0..2 (FIDE: a win) */
} rs_tour_spec;

/* Whether spec is whole and in range; on false err names the first field that is not. */
bool rs_tour_spec_check(const rs_tour_spec *spec, char *err, size_t errlen);

/* A player entered, as the rules see them; players are named by their index in the array. */
typedef struct rs_tour_entry {
    double rating; /* the seed: higher first, then the earlier entry */
    bool active;   /* to be paired next (false: withdrawn, or an arena player pausing) */
} rs_tour_entry;

/* One game of a round (a set counts as one: points are its sum), or a bye (n == 1). */
typedef struct rs_tour_game {
    int round;                     /* from 1 */
    int n;                         /* players: 1 for a bye, else 2..RS_TOUR_TABLE_MAX */
    int seat[RS_TOUR_TABLE_MAX];   /* entries in seat order: seat[0] moves first */
    int points[RS_TOUR_TABLE_MAX]; /* half-points each scored; -1 while it is being played */
} rs_tour_game;

/* ---- Swiss ---- */

/* The pairings of Swiss round `round` (from 1) given the m games of the rounds before: every
 * active entry exactly once in out (room for n), never two who met before, a bye (n == 1)
 * only for an odd count and to a player who has had none (the lowest in score, then seed,
 * who can have it), first moves balanced (a player's first moves minus second moves stays
 * within -1..1). Score groups first: the top unpaired player meets the best opponent from
 * the nearest score, Dutch-style (the top half of a group against its bottom half), such
 * that the rest can still be paired (matching.h's look-ahead). Returns the number of games,
 * or -1 with err saying why (no pairing without a repeat or a second bye; the seat
 * balance is given up, and said in *relaxed, before either). */
int rs_tour_swiss_pair(const rs_tour_entry *entries, size_t n, const rs_tour_game *games, size_t m,
                       int round, int bye_points, rs_tour_game *out, bool *relaxed, char *err,
                       size_t errlen);

/* ---- standings ---- */

/* One line of the standings. Tie-breaks per FIDE Handbook C.07 (Tie-Break Regulations, from
 * 1 August 2024): Buchholz (Art. 8.1), Sonneborn-Berger (Art. 9.1), direct encounter
 * (Art. 6), unplayed rounds as a game against a "dummy opponent" with the player's own score
 * (Art. 16); docs/tournaments.md says how they are read here. */
typedef struct rs_tour_standing {
    int entry;
    int rank;      /* 1.. in order; ties the tie-breaks leave go by seed */
    int points;    /* half-points */
    int buchholz;  /* half-points: the opponents' points (a dummy's for an unplayed round) */
    int sonneborn; /* quarter-points: each opponent's points times the player's result */
    int direct;    /* half-points scored among the players tied on the rest; -1: not used */
    int played;    /* games played (byes not counted) */
    int byes;
} rs_tour_standing;

/* The standings after `rounds` rounds (Swiss) from the m games (unfinished ones ignored) of
 * n entries: out (room for n) in rank order. Points, then Buchholz, Sonneborn-Berger,
 * direct encounter, seed. Tables of more than 2 count every other player at the table as an
 * opponent for Buchholz; Sonneborn-Berger and direct encounter are for 2-player games. */
void rs_tour_standings(const rs_tour_entry *entries, size_t n, const rs_tour_game *games, size_t m,
                       int rounds, rs_tour_standing *out);

/* ---- arena ---- */

/* A player waiting in an arena. */
typedef struct rs_tour_waiting {
    int entry;
    int points;        /* half-points so far */
    double rating;     /* the seed */
    int last_opponent; /* the entry met last, or -1 */
    int first_moves;   /* first moves minus second moves so far */
} rs_tour_waiting;

/* One arena tick: pairs the n waiting players, each with a near neighbour in (points,
 * rating), never the opponent either met last, as many pairs as such can be (a maximum
 * matching): after it no two still waiting could meet. out (room for n/2) gets indexes into
 * w, out[k][0] moving first (fewer first moves so far). Returns the number of pairs, or -1
 * out of memory. */
int rs_tour_arena_pair(const rs_tour_waiting *w, size_t n, int (*out)[2]);

/* The standings of an arena from its m games (unfinished ones ignored; the tick numbers in
 * `round` not read): each entry's half-points and games played, ranked by points, then the
 * seed (rating, then the earlier entry). Swiss's tie-breaks are left 0 (direct -1): an
 * arena has no rounds for them to count (docs/tournaments.md, "Arena"). out has room for n. */
void rs_tour_arena_standings(const rs_tour_entry *entries, size_t n, const rs_tour_game *games,
                             size_t m, rs_tour_standing *out);

/* ---- tables of 3 to 5 (King of Danger, Rush the Wall) ---- */

/* The tables of a round for the active entries: by score, `size` players a table (some one
 * fewer, none under 3: 4 players at tables of 3 make one table of 4), as few repeated
 * meetings as a swap between neighbouring tables finds, seats in order of fewest first moves.
 * out has room for n; returns the number of tables, or -1 with err (fewer than 3 active). */
int rs_tour_tables(const rs_tour_entry *entries, size_t n, const rs_tour_game *games, size_t m,
                   int round, int size, rs_tour_game *out, char *err, size_t errlen);

/* Points follow places: at a table of n, place p (1 = best) scores n - p points (2(n - p)
 * half-points); players sharing places share those places' points evenly. place[i] is seat
 * i's place (tied seats share the better place number); points[i] gets its half-points. */
void rs_tour_place_points(int n, const int *place, int *points);

/* ---- sets ---- */

/* The seat in game k (from 0) of a set of the player who sits in `seat` in game 0, for n
 * seats: rotated one place a game, so two players swap sides (Castle Danger's formal play:
 * "in sets of 2 games, with players changing sides between games"). */
int rs_tour_set_seat(int k, int n, int seat);

#endif
