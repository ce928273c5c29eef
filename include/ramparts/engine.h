/* ramparts/engine.h — the facade every front end shares (the terminal game, the text protocol,
 * later the server): a match is a game with the options in effect, its starting position, who
 * plays each seat and its history, so it can undo fairly, let an AI move, be saved as a record
 * and be replayed exactly. */
#ifndef RAMPARTS_ENGINE_H
#define RAMPARTS_ENGINE_H

#include "ramparts/ai.h"
#include "ramparts/game.h"

#define RP_RECORD_SEAT_TEXT 96
#define RP_HUMAN "human"

/* One step of a match's history. Moves change the state; a re-sample replaces what `seat`
 * cannot see (the game's determinize with `seed`), after an undo; an undo entry only notes
 * that `count` moves of `seat`'s were taken back (they are gone from the history); a
 * resignation ends the match. Replaying the moves and re-samples in order gives the state. */
typedef enum rp_entry_kind {
    RP_ENTRY_MOVE,
    RP_ENTRY_UNDO,
    RP_ENTRY_RESAMPLE,
    RP_ENTRY_RESIGN
} rp_entry_kind;

typedef struct rp_entry {
    rp_entry_kind kind;
    int seat;         /* MOVE: who moved; UNDO, RESAMPLE, RESIGN: whose */
    rp_action action; /* MOVE */
    uint64_t value;   /* RESAMPLE: the seed; UNDO: how many moves were taken back */
    /* RESAMPLE for several seats (two or more humans with an AI): bit p for each seat whose
     * view is kept, `seat` the lowest of them (the game's determinize_seats); 0 when the
     * re-sample keeps `seat`'s view alone. */
    uint32_t seats;
} rp_entry;

typedef struct rp_match {
    const rp_game *game;
    rp_config config;             /* the options in effect (rp_config_of), with the seed */
    bool from_position;           /* started from a loaded full-state notation */
    char position[RP_STATE_TEXT]; /* that notation, when from_position */
    rp_state start;
    rp_state state;
    rp_entry *history; /* owned */
    size_t length, cap;
    size_t num_moves; /* MOVE entries in history */
    int resigned;     /* the seat that resigned, or -1 */
    /* Who plays each seat: RP_HUMAN or an AI spec (records write it as [seat N WHO]). */
    char seats[RP_MAX_PLAYERS][RP_RECORD_SEAT_TEXT];
} rp_match;

/* Start a new match from options; every seat is RP_HUMAN. The options in effect (derived
 * values included) are what m->config, records and the protocol report. On error nothing is
 * allocated and m is unusable. */
RP_EXTERN int rp_match_new(rp_match *m, const rp_game *game, const rp_config *cfg, rp_error *err);
/* Replace the position by a full-state notation; the history starts again from it and the
 * options in effect become the position's (players included). On error m is unchanged. */
RP_EXTERN int rp_match_load(rp_match *m, const char *notation, rp_error *err);
RP_EXTERN void rp_match_free(rp_match *m);

/* Seat `seat` is played by `who`: RP_HUMAN or an AI spec, checked by making the AI once.
 * On error the seat is unchanged. */
RP_EXTERN int rp_match_set_player(rp_match *m, int seat, const char *who, rp_error *err);
RP_EXTERN bool rp_match_is_human(const rp_match *m, int seat);
RP_EXTERN int rp_match_humans(const rp_match *m);

/* Play a move by notation or by action id; refused (match unchanged) if illegal, with the
 * game's reason (rp_explain_illegal) when the notation parses. */
RP_EXTERN int rp_match_play_text(rp_match *m, const char *text, rp_error *err);
RP_EXTERN int rp_match_play(rp_match *m, rp_action action, rp_error *err);

/* What an AI move did. */
typedef struct rp_genmove {
    int seat;
    rp_action action;
    char text[RP_ACTION_TEXT]; /* its notation (the referee's: never show it to a player) */
    rp_ai_info info;           /* the AI's estimate and iterations */
} rp_genmove;

/* The AI `spec` (NULL: the AI playing the seat to act) chooses a move for the seat to act and
 * plays it. ms > 0 caps its thinking time (search AIs only). The AI is seeded from the
 * match's seed, the seat and the number of moves played, so a position reached by the same
 * moves gets the same answer. */
RP_EXTERN int rp_match_genmove(rp_match *m, const char *spec, long ms, rp_genmove *out,
                               rp_error *err);

/* Take back the last move (and any undo, re-sample or resignation entries after it) exactly,
 * replaying the history from the start: the referee's undo (the text protocol). */
RP_EXTERN int rp_match_undo(rp_match *m, rp_error *err);

/* Fair undo for `seat` (a human at a table). With one human seat: take back that seat's last
 * move and everything after it, then re-sample everything that seat cannot see with `seed`
 * (games with hidden information or chance), so nothing learned by peeking holds. With
 * several human seats (hot seat): only `seat`'s own last move, only when it is the last move
 * and revealed nothing (rp_action_reveals). Refused with the reason, the match unchanged.
 * *taken (may be NULL) is set to the number of moves taken back. */
RP_EXTERN int rp_match_undo_fair(rp_match *m, int seat, uint64_t seed, size_t *taken,
                                 rp_error *err);
/* Whether rp_match_undo_fair(m, seat, ...) would take a move back (RP_OK), or why not. */
RP_EXTERN int rp_match_may_undo(const rp_match *m, int seat, rp_error *err);

/* ---- records of unfinished games against the AI (docs/terminal.md) ----
 * A record holds the seed, so whoever opens it could see what the AI holds and what comes
 * next. Until such a game ends the tools show it only as its human seats saw it, and resuming
 * it deals anew what the human could not see (as a fair undo does), so nothing read from the
 * record holds. */

/* True while m keeps secrets from its table: not over, the game has hidden information or
 * chance, and humans and AIs both play it. */
RP_EXTERN bool rp_match_keeps_secrets(const rp_match *m);
/* Whether `viewer` (a seat or RP_SPECTATOR) may be shown m now: always, except an AI's seat
 * while m keeps secrets. */
RP_EXTERN bool rp_match_may_show(const rp_match *m, int viewer);
/* When m keeps secrets: re-sample with `seed` everything no human seat can see (a [resample]
 * entry: the game's determinize for a single human, determinize_seats for several) and set
 * *dealt (may be NULL); else nothing changes. */
RP_EXTERN int rp_match_deal_unseen(rp_match *m, uint64_t seed, bool *dealt, rp_error *err);

/* `seat` resigns: the match is over and that seat loses (the others share the win). */
RP_EXTERN int rp_match_resign(rp_match *m, int seat, rp_error *err);

/* Over by the rules or by a resignation. */
RP_EXTERN bool rp_match_over(const rp_match *m);
/* The shares of the win once over (see returns in game.h; a resigned seat gets 0). */
RP_EXTERN void rp_match_returns(const rp_match *m, double *out);
/* "ongoing", or "over winner N returns R0 R1 ..." / "over shared returns ..." /
 * "over resigned N returns ...": what records' [result] carries and replay checks. */
RP_EXTERN void rp_match_status(const rp_match *m, char *buf, size_t size);
/* Apply history entry e of m to st (a move, or a re-sample with its seed; the undo and
 * resignation notes change nothing): walking the history from m->start gives every state. */
RP_EXTERN void rp_match_apply_entry(const rp_match *m, const rp_entry *e, void *st);
/* The state before history entry i (0 <= i <= length), replayed from the start. */
RP_EXTERN void rp_match_state_at(const rp_match *m, size_t i, void *st);

/* ---- records: a plain-text file of header lines, then the history, one entry a line ----
 *   # comments anywhere
 *   [game danger-at-the-walls]
 *   [seed 7]
 *   [options players=2 ...]  every option in effect (rp_config_of of the start)
 *   [seat 0 human]
 *   [seat 1 medium]
 *   [position ...]           only for a game started from a position: it decides the
 *                            options, which must agree with [options]
 *   [result ...]             rp_match_status at the end; replay refuses a record whose moves
 *                            give another result
 *   archers 1+2 wall 3       moves in notation, one a line
 *   [undo 0 2]               seat 0 took back 2 moves here (they are not in the record)
 *   [resample 0 SEED]        then everything seat 0 could not see was re-sampled with SEED
 *   [resample 0+2 SEED]      everything neither seat 0 nor seat 2 could see (determinize_seats)
 *   [resign 1]               seat 1 resigned (last line)
 * Headers come before the history; every line is checked, and a record that does not parse or
 * replay is refused with the file, the line number and the reason.
 */
RP_EXTERN int rp_record_write(const rp_match *m, FILE *out);
/* Read and replay a record into m (a new match, seats as the record names them). On error m
 * holds nothing (nothing half-loaded) and err names the line. */
RP_EXTERN int rp_record_read(rp_match *m, FILE *in, const char *name, rp_error *err);

#endif
