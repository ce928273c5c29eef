/* internal.h — what the engine's files share and front ends do not see: the match itself (its
 * referee's state and history) and the steps that read or change it. */
#ifndef RP_ENGINE_INTERNAL_H
#define RP_ENGINE_INTERNAL_H

#include "ramparts/engine.h"

/* One step of the history as the referee keeps it: rp_entry_info plus the action of a move
 * and the seed of a re-sample. Replaying the moves and re-samples in order from the start gives
 * the state; undo notes and endings change nothing in it. */
typedef struct rp__entry {
    rp_entry_kind kind;
    int seat;         /* MOVE: who moved; UNDO, RESAMPLE: whose */
    rp_action action; /* MOVE */
    uint64_t value;   /* RESAMPLE: the seed; UNDO: how many moves were taken back */
    /* RESAMPLE for several seats (two or more humans with an AI): bit p for each seat whose
     * view is kept, `seat` the lowest of them (the game's determinize_seats); 0 when the
     * re-sample keeps `seat`'s view alone. END: the losers. */
    uint32_t seats;
    rp_end reason; /* END */
} rp__entry;

struct rp_match {
    const rp_game *game;
    rp_config config;             /* the options in effect (rp_config_of), with the seed */
    bool from_position;           /* started from a loaded full-state notation */
    char position[RP_STATE_TEXT]; /* that notation, when from_position */
    rp_state start;
    rp_state state;
    rp__entry *history; /* owned */
    size_t length, cap;
    size_t num_moves; /* MOVE entries in history */
    rp_end end;       /* the ending entry's reason once ended other than by the rules */
    uint32_t losers;  /* and its losers */
    /* Who plays each seat: RP_HUMAN or an AI spec (records write it as [seat N WHO]). */
    char seats[RP_MAX_PLAYERS][RP_RECORD_SEAT_TEXT];
    /* The state before entry `cursor_at` (valid when cursor_ok): reads of the history in order
     * (a replay, a reconnect's missed moves, each watcher's events of the last move) walk on
     * from it instead of replaying from the start each time. Changed by const reads: a match
     * belongs to one thread at a time. */
    bool cursor_ok;
    size_t cursor_at;
    rp_state cursor;
};

/* Apply history entry e to st (a move, or a re-sample with its seed; undo notes and endings
 * change nothing). */
void rp__apply_entry(const rp_match *m, const rp__entry *e, void *st);
/* The state before entry i (0 <= i <= length), walked on from the cursor when it can be. */
const void *rp__state_at(const rp_match *m, size_t i);
/* Room for `want` history entries, and one entry appended (room reserved or not). */
int rp__reserve(rp_match *m, size_t want, rp_error *err);
int rp__push_entry(rp_match *m, rp__entry entry, rp_error *err);

#endif
