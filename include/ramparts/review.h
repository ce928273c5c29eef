/* ramparts/review.h — the review of a game for one seat (issue 42, docs/review.md): every
 * decision of that seat judged by one search from its own view at that moment, the better move
 * and each seat's winning chances, marks for the moves that lost much, chance events as luck.
 * The terminal (`ramparts review`), the server and the WebAssembly engine all call this. */
#ifndef RAMPARTS_REVIEW_H
#define RAMPARTS_REVIEW_H

#include "ramparts/engine.h"

/* Drops in the seat's winning chances (before - after, in [0, 1]) that earn each mark; the
 * reasons are in docs/review.md. */
#define RP_REVIEW_INACCURACY 0.10
#define RP_REVIEW_MISTAKE 0.20
#define RP_REVIEW_BLUNDER 0.30

/* How to review. Zeroed fields take the defaults. */
typedef struct rp_review_opts {
    /* The AI level whose search judges ("hard" when NULL): easy, medium or hard. */
    const char *level;
    /* Search parameters after the level's own ("iters=2000"; NULL or "": the review's default
     * budget per decision, rp_review_default_budget). */
    const char *budget;
    /* Review only the first `moves` moves of the history (0: all of them). */
    size_t moves;
    /* Called after each decision searched (done of total), e.g. for a progress bar. */
    void (*progress)(void *arg, size_t done, size_t total);
    void *progress_arg;
} rp_review_opts;

/* The review's budget per decision at a level of a game when none is given, as search
 * parameters after the level's own: "" (the level's own budget) or a cap on its iterations
 * where that is larger, so a whole game's review takes seconds (docs/ai.md). */
RP_EXTERN const char *rp_review_default_budget(const rp_game *game, const char *level);

/* The mark a drop in winning chances earns: "inaccuracy", "mistake", "blunder", or NULL. */
RP_EXTERN const char *rp_review_mark(double drop);

/* The review of `seat`'s moves in m as one unformatted JSON object (docs/review.md, the same
 * text for the terminal, the server and the browser): text the caller frees, or NULL with err
 * filled (a seat that is not one of m's, a bad level or budget, no memory). It reads every
 * state only to search from `seat`'s view: each search is seeded from that view's text, the
 * seat and the ply, so two records that differ only in what the seat never saw give the same
 * review. The caller decides whether the review may be shown (a live game: only a human
 * seat's own past moves against the computer). */
RP_EXTERN char *rp_review_json(const rp_match *m, int seat, const rp_review_opts *opts,
                               rp_error *err);

/* Whether `seat` may be reviewed in m now: RP_OK once m is over; while it goes on, only for a
 * human seat of a game against the computer (its own past moves, where hints are allowed; the
 * review covers the moves played so far), else RP_EOVER's opposite, RP_EUNSUPPORTED, with the
 * reason in err ("the game is not over"). RP_EINVAL when seat is not one of m's. */
RP_EXTERN int rp_review_allowed(const rp_match *m, int seat, rp_error *err);

/* Whether opts' level and budget make a search for `game`: RP_OK, or RP_EINVAL with the
 * reason (an unknown level, a malformed or unknown parameter). */
RP_EXTERN int rp_review_check(const rp_game *game, const rp_review_opts *opts, rp_error *err);

/* How many decisions rp_review_json would search for `seat` (for a progress bar). */
RP_EXTERN size_t rp_review_decisions(const rp_match *m, int seat, size_t moves);

#endif
