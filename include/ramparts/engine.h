/* ramparts/engine.h — the facade every front end shares (the terminal, the text protocol, the
 * server, the browser's WebAssembly engine): a match is a game with the options in effect, its
 * starting position, who plays each seat, its history and how it ended, so it can undo fairly,
 * let an AI move, end by the rules or otherwise (a resignation, time, abandonment, agreement,
 * adjudication, a decision), be saved as a record and be replayed exactly.
 *
 * A match is opaque, as Lua's lua_State is: the referee's full state (hidden cards, deck
 * orders, the generator) stays inside, and front ends see it only through what a viewer may
 * know — a seat's or the spectator's view, its rendering, the events of each move told to
 * that viewer, the legal moves of the seat to act, the result. The one way to the full state,
 * rp_match_referee, is for the engine's debug verbs, the analysis of finished records
 * and the tests (scripts/check-boundaries.sh keeps everyone else out). A match belongs to one
 * thread at a time; rp_match_clone hands a copy to another. */
#ifndef RAMPARTS_ENGINE_H
#define RAMPARTS_ENGINE_H

#include "ramparts/ai.h"
#include "ramparts/game.h"

#define RP_RECORD_SEAT_TEXT 96
#define RP_HUMAN "human"

typedef struct rp_match rp_match;

/* ---- how a match ends other than by its rules ----
 * Each is an entry of the history, with the seats that lose it; the others share the win
 * (an agreed draw, or an adjudicated or decided one, has no loser: everyone shares). Records
 * write them as [resign S] (a resignation) or [end WORD SEATS] and the result as
 * [result over WORD SEATS returns ...]. */
typedef enum rp_end {
    RP_END_NONE = 0,    /* not over, or over by the rules */
    RP_END_RESIGNED,    /* "resigned": one seat gave up */
    RP_END_TIME,        /* "time": the losers ran out of time */
    RP_END_ABANDONED,   /* "abandoned": the losers left the game */
    RP_END_AGREED,      /* "agreed": every player agreed a draw (games that can end drawn) */
    RP_END_ADJUDICATED, /* "adjudicated": stopped (at a turn cap) and scored by an arbiter */
    RP_END_DECIDED      /* "decided": a tournament's or an administrator's decision */
} rp_end;
#define RP_NUM_ENDS 7

/* The word records and statuses use ("resigned", "time"...), or NULL for RP_END_NONE. */
RP_EXTERN const char *rp_end_word(rp_end reason);
/* The reason a word names, or RP_END_NONE. */
RP_EXTERN rp_end rp_end_from_word(const char *word);

/* ---- one step of the history, as front ends may know it ----
 * Moves change the state; a re-sample replaces what some seats cannot see (after an undo, or on
 * resuming against the AI); an undo note says that `count` moves of `seat`'s were taken back
 * (they are gone from the history); an ending closes the match. */
typedef enum rp_entry_kind {
    RP_ENTRY_MOVE,
    RP_ENTRY_UNDO,
    RP_ENTRY_RESAMPLE,
    RP_ENTRY_END
} rp_entry_kind;

typedef struct rp_entry_info {
    rp_entry_kind kind;
    int seat;       /* MOVE: who moved; UNDO: who took back; RESAMPLE: the lowest seat kept */
    uint64_t count; /* UNDO: how many moves were taken back */
    uint32_t seats; /* RESAMPLE: bit p for each seat whose view was kept; END: the losers */
    rp_end reason;  /* END */
    size_t move;    /* MOVE: its number, 1 for the first move of the history */
} rp_entry_info;

/* ---- making and keeping matches ---- */

/* A new match from options; every seat is RP_HUMAN. The options in effect (derived values
 * included) are what rp_match_config, records and the protocol report. NULL with err filled
 * on bad options or no memory. */
RP_EXTERN rp_match *rp_match_new(const rp_game *game, const rp_config *cfg, rp_error *err);
/* Replace the position by a full-state notation; the history starts again from it and the
 * options in effect become the position's (players included). On error m is unchanged. */
RP_EXTERN int rp_match_load(rp_match *m, const char *notation, rp_error *err);
/* An independent copy (history and all), for another thread: NULL when out of memory. */
RP_EXTERN rp_match *rp_match_clone(const rp_match *m);
RP_EXTERN void rp_match_free(rp_match *m);

/* ---- facts anyone at the table may know ---- */

RP_EXTERN const rp_game *rp_match_game(const rp_match *m);
/* The options in effect, with the seed (which the server keeps secret until the end). */
RP_EXTERN const rp_config *rp_match_config(const rp_match *m);
RP_EXTERN int rp_match_players(const rp_match *m);
/* The seat to act, or RP_TERMINAL once the match is over (by its rules or an ending). */
RP_EXTERN int rp_match_to_move(const rp_match *m);
/* The turn in progress as the rulebook counts turns (the game's turn_number; 0 without). */
RP_EXTERN int rp_match_turn(const rp_match *m);
/* Moves in the history (the ply), and history entries of every kind. */
RP_EXTERN size_t rp_match_moves(const rp_match *m);
RP_EXTERN size_t rp_match_length(const rp_match *m);
/* Entry i (< rp_match_length) without what only the referee knows (the action, the seed). */
RP_EXTERN rp_entry_info rp_match_entry(const rp_match *m, size_t i);
/* The history index of the n-th move (0-based), or rp_match_length when there is none. */
RP_EXTERN size_t rp_match_move_index(const rp_match *m, size_t n);
/* Started from a loaded full-state notation (rp_match_load). */
RP_EXTERN bool rp_match_from_position(const rp_match *m);

/* ---- who plays each seat ---- */

/* Seat `seat` is played by `who`: RP_HUMAN or an AI spec, checked by making the AI once.
 * On error the seat is unchanged. */
RP_EXTERN int rp_match_set_player(rp_match *m, int seat, const char *who, rp_error *err);
/* RP_HUMAN or the AI spec playing the seat ("" for no such seat). */
RP_EXTERN const char *rp_match_player(const rp_match *m, int seat);
RP_EXTERN bool rp_match_is_human(const rp_match *m, int seat);
RP_EXTERN int rp_match_humans(const rp_match *m);

/* ---- what a viewer may know (a seat, or RP_SPECTATOR) ----
 * The text calls return JSON as new text (free() it), or NULL with err filled (err may be
 * NULL). "at" takes a history index i from 0 to rp_match_length: the position before entry i
 * (i == length: now). Reading entries in order is cheap: the match keeps the last position it
 * walked to. A front end must still decide who may be shown what: rp_match_may_show. */

/* The view_json of the viewer now, or before entry i. */
RP_EXTERN char *rp_match_view(const rp_match *m, int viewer, bool pretty, rp_error *err);
RP_EXTERN char *rp_match_view_at(const rp_match *m, size_t i, int viewer, bool pretty,
                                 rp_error *err);
/* The game's drawing for a terminal of what the viewer sees now, or before entry i. */
RP_EXTERN int rp_match_render(const rp_match *m, int viewer, bool color, FILE *out);
RP_EXTERN int rp_match_render_at(const rp_match *m, size_t i, int viewer, bool color, FILE *out);
/* What move entry i did, told to the viewer: the game's events (a JSON array), or, for a game
 * that tells none, one event of kind "move" saying who moved and, when the viewer could see
 * it, the move's notation. NULL when entry i is not a move. */
RP_EXTERN char *rp_match_events(const rp_match *m, size_t i, int viewer, rp_error *err);
/* The notation of move entry i as its player typed it; refused (RP_EINVAL) for anyone else
 * while something of the game is hidden (a notation can name a hidden card). Returns the
 * length written or < 0. */
RP_EXTERN int rp_match_move_text(const rp_match *m, size_t i, int viewer, char *buf, size_t size,
                                 rp_error *err);

/* ---- the seat to act: what it may know of its own choice ---- */

/* Its legal moves (at most RP_MAX_LEGAL); 0 once over. */
RP_EXTERN int rp_match_legal(const rp_match *m, rp_action *out);
/* The same as a JSON array of action objects (rp_action_json: "id", "text", the parts). */
RP_EXTERN char *rp_match_legal_json(const rp_match *m, rp_error *err);
/* Whether `action` is one of those legal moves. */
RP_EXTERN bool rp_match_is_legal(const rp_match *m, rp_action action);
/* One legal action as a JSON object, or NULL when not legal or the game says nothing. */
RP_EXTERN char *rp_match_action_json(const rp_match *m, rp_action action, rp_error *err);
/* A legal action's notation; the length written, or < 0. */
RP_EXTERN int rp_match_action_text(const rp_match *m, rp_action action, char *buf, size_t size);
/* A move typed in notation, checked: RP_OK and *out when legal; else RP_EPARSE when the text
 * is no move here, RP_EILLEGAL with the game's reason (rp_explain_illegal) when it is one but
 * not legal, *out untouched. */
RP_EXTERN int rp_match_parse(const rp_match *m, const char *text, rp_action *out, rp_error *err);
/* The game's few words on the legal moves for a prompt (moves_summary), or < 0 when it has
 * none to give. */
RP_EXTERN int rp_match_moves_summary(const rp_match *m, char *buf, size_t size);
/* One world `viewer` cannot tell from the real one, as full-state notation: everything the
 * viewer cannot see drawn again from `seed` (the game's determinize, its generator new too),
 * so it tells nothing beyond the view and foretells no draw. Length written, or < 0. */
RP_EXTERN int rp_match_sample(const rp_match *m, int viewer, uint64_t seed, char *buf, size_t size,
                              rp_error *err);

/* ---- playing ---- */

/* Play a move by notation or by action id; refused (match unchanged) if illegal, with the
 * game's reason (rp_explain_illegal) when the notation parses. */
RP_EXTERN int rp_match_play_text(rp_match *m, const char *text, rp_error *err);
RP_EXTERN int rp_match_play(rp_match *m, rp_action action, rp_error *err);
/* Whether move entry `i` was `seat` playing the move `text` (a retry of a move already made:
 * the server answers it without playing it twice). */
RP_EXTERN bool rp_match_same_move(const rp_match *m, size_t i, int seat, const char *text);

/* What an AI's choice was. */
typedef struct rp_genmove {
    int seat;
    rp_action action;
    char text[RP_ACTION_TEXT]; /* its notation (the referee's: never show it to a player) */
    rp_ai_info info;           /* the AI's estimate and iterations */
} rp_genmove;

/* The AI `spec` (NULL: the AI playing the seat to act) chooses a move for the seat to act, from
 * what that seat may know (every AI determinizes first), without playing it. Reads m only, so
 * it may run on a clone on another thread. ms > 0 caps its thinking time (search AIs only). */
RP_EXTERN int rp_match_choose(const rp_match *m, const char *spec, long ms, uint64_t seed,
                              rp_genmove *out, rp_error *err);
/* rp_match_choose, then play the move. The AI is seeded from the match's seed, the seat and
 * the number of moves played, so a position reached by the same moves gets the same answer. */
RP_EXTERN int rp_match_genmove(rp_match *m, const char *spec, long ms, rp_genmove *out,
                               rp_error *err);

/* ---- taking moves back ---- */

/* Take back the last move (and any undo, re-sample or ending entries after it) exactly,
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

/* A takeback agreed between players (the server's): `seat`'s last move and every move after
 * it, taken back exactly, with no re-sample. Possible only when none of those moves showed
 * something hidden or left to chance (rp_action_reveals); *from (may be NULL) gets the number
 * of moves that stay. rp_match_takeback_from says whether it would be allowed. */
RP_EXTERN int rp_match_takeback_from(const rp_match *m, int seat, size_t *from, rp_error *err);
RP_EXTERN int rp_match_takeback(rp_match *m, int seat, rp_error *err);

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
/* The referee's full-state notation now, for the referee's own tools (the text protocol's
 * `state`, the offline worker's saves): refused while m keeps secrets. Length, or < 0. */
RP_EXTERN int rp_match_position_text(const rp_match *m, char *buf, size_t size, rp_error *err);

/* ---- the end ---- */

/* End the match other than by its rules: `losers` (bit p for seat p) lose, the others share
 * the win; when every seat loses (a solo player resigns, a double forfeit) nobody wins and
 * every share is 0. RESIGNED takes one seat, TIME and ABANDONED at least one, AGREED none
 * (and a game that can end drawn: RP_CAN_DRAW), ADJUDICATED and DECIDED any. Refused (the
 * match unchanged) once over. */
RP_EXTERN int rp_match_end(rp_match *m, rp_end reason, uint32_t losers, rp_error *err);
/* `seat` resigns: rp_match_end(m, RP_END_RESIGNED, 1u << seat, err). */
RP_EXTERN int rp_match_resign(rp_match *m, int seat, rp_error *err);
/* Over by the rules or by an ending. */
RP_EXTERN bool rp_match_over(const rp_match *m);
/* How it ended when not by its rules (RP_END_NONE otherwise), and who lost that way. */
RP_EXTERN rp_end rp_match_end_reason(const rp_match *m);
RP_EXTERN uint32_t rp_match_losers(const rp_match *m);
/* Each seat's share of the win once over (see returns in game.h; losers of an ending get 0,
 * the others share 1, nobody anything when every seat lost), all 0 before. */
RP_EXTERN void rp_match_returns(const rp_match *m, double *out);
/* "ongoing", or "over winner N returns R0 R1 ..." / "over shared returns ..." (the rules), or
 * "over resigned N returns ...", "over time N returns ...", "over abandoned 0+2 returns ...",
 * "over agreed returns ...", "over adjudicated returns ..." (an ending: its word, then its
 * losers when it has any): what records' [result] carries and replay checks. */
RP_EXTERN void rp_match_status(const rp_match *m, char *buf, size_t size);

/* ---- the referee's state: debug verbs, finished records' analysis and tests only ---- */

/* The full state before history entry i (i == rp_match_length: now) into *state, and the
 * action entry i plays into *action (RP_NO_ACTION when it is not a move); either may be NULL. */
RP_EXTERN void rp_match_referee(const rp_match *m, size_t i, rp_state *state, rp_action *action);

/* ---- the bench workload (src/engine/bench.c) ----
 * `ramparts bench`, the WebAssembly build's `bench` and the Python module's random_playouts
 * play the same workload, so the action count is one signature of the rules everywhere. */

#define RP_BENCH_GAMES 20000    /* games per game of `ramparts bench` */
#define RP_BENCH_SEED 20261121u /* the first game's seed, and the move generator's */
/* The bench position's options: the game's defaults with its bench_options, seed
 * RP_BENCH_SEED. */
RP_EXTERN int rp_bench_config(const rp_game *game, rp_config *cfg, rp_error *err);
/* Play `games` games dealt from cfg with seeds cfg->seed, cfg->seed + 1, ..., every move
 * uniformly random from one generator seeded (cfg->seed, 1), and set *actions to the number
 * of actions played. No allocation: time it around the call. */
RP_EXTERN int rp_random_playouts(const rp_game *game, const rp_config *cfg, long long games,
                                 uint64_t *actions, rp_error *err);
/* The search `ramparts bench --ai` times: "ismcts" for games with hidden information, else
 * "mcts". */
RP_EXTERN const char *rp_bench_ai_kind(const rp_game *game);

/* ---- records: a plain-text file of header lines, then the history, one entry a line ----
 *   # comments anywhere
 *   [game danger-at-the-walls]
 *   [seed 7]
 *   [options players=2 ...]  every option in effect (rp_config_of of the start)
 *   [seat 0 human]
 *   [seat 1 medium]
 *   [position ...]           only for a game started from a position: it decides the
 *                            options, which must agree with [options]
 *   [result ...]             rp_match_status at the end; replay refuses a record whose history
 *                            gives another result
 *   archers 1+2 wall 3       moves in notation, one a line
 *   [undo 0 2]               seat 0 took back 2 moves here (they are not in the record)
 *   [resample 0 SEED]        then everything seat 0 could not see was re-sampled with SEED
 *   [resample 0+2 SEED]      everything neither seat 0 nor seat 2 could see (determinize_seats)
 *   [resign 1]               seat 1 resigned (last line)
 *   [end time 1]             seat 1 ran out of time; [end abandoned 0+2], [end agreed],
 *                            [end adjudicated], [end decided 0]: the other endings (last line)
 * Headers come before the history; every line is checked, and a record that does not parse or
 * replay is refused with the file, the line number and the reason.
 */
RP_EXTERN int rp_record_write(const rp_match *m, FILE *out);
/* Read and replay a record into a new match (seats as the record names them); NULL with err
 * naming the line when it does not parse or replay (nothing half-loaded). */
RP_EXTERN rp_match *rp_record_read(FILE *in, const char *name, rp_error *err);

#endif
