/* ramparts/engine.h — the facade every front end shares (the terminal game, the text protocol,
 * later the server): a match is a game with its options, its starting position and the moves
 * played, so it can undo, be saved as a record and be replayed exactly. */
#ifndef RAMPARTS_ENGINE_H
#define RAMPARTS_ENGINE_H

#include "ramparts/game.h"

#define RP_RECORD_SEAT_TEXT 96

typedef struct rp_match {
    const rp_game *game;
    rp_config config;
    bool from_position;     /* started from a loaded full-state notation */
    char position[RP_STATE_TEXT]; /* that notation, when from_position */
    rp_state start;
    rp_state state;
    rp_action *moves;       /* history, owned */
    size_t num_moves, cap_moves;
    char seats[RP_MAX_PLAYERS][RP_RECORD_SEAT_TEXT]; /* who played each seat, for records */
} rp_match;

/* Start a new match from options. On error nothing is allocated and m is unusable. */
RP_EXTERN int rp_match_new(rp_match *m, const rp_game *game, const rp_config *cfg, rp_error *err);
/* Replace the position by a full-state notation; the history starts again from it.
 * On error the match is unchanged. */
RP_EXTERN int rp_match_load(rp_match *m, const char *notation, rp_error *err);
RP_EXTERN void rp_match_free(rp_match *m);

/* Play a move by notation or by action id; refused (match unchanged) if illegal. */
RP_EXTERN int rp_match_play_text(rp_match *m, const char *text, rp_error *err);
RP_EXTERN int rp_match_play(rp_match *m, rp_action action, rp_error *err);
/* Take back the last move (replays the history from the start). */
RP_EXTERN int rp_match_undo(rp_match *m, rp_error *err);
RP_EXTERN bool rp_match_over(const rp_match *m);
/* "ongoing" or "over" with the result, e.g. "over Blue wins (returns 1 0)". */
RP_EXTERN void rp_match_status(const rp_match *m, char *buf, size_t size);

/* ---- records: a plain-text file of header lines, then one move a line ----
 *   # comments anywhere
 *   [game danger-at-the-walls]
 *   [seed 7]
 *   [options players=2]
 *   [seat 0 human]
 *   [seat 1 greedy]
 *   [position ...]           (only for a game started from a position)
 *   [result ...]             (informational; checked on replay)
 *   archers 1+2 wall 3       (moves in notation, one a line)
 */
RP_EXTERN int rp_record_write(const rp_match *m, FILE *out);
/* Read and replay a record into m (a new match). A record that does not replay is refused with
 * the line number and the reason. */
RP_EXTERN int rp_record_read(rp_match *m, FILE *in, const char *name, rp_error *err);

#endif
