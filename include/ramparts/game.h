/* ramparts/game.h — the game interface: one const rp_game per game (traits plus a table of
 * functions over a flat, fixed-size state), the registry of games, options, errors, and the
 * checked entry points that tools use. Every game implements it; every tool and AI uses it.
 *
 * Invariants every game keeps:
 *  - a state is a plain struct with no pointers: cloning is a copy of state_size bytes;
 *  - all randomness after init comes from an rp_rng stored inside the state, so a seed and a
 *    list of actions reproduce a game exactly (chance is sampled inside apply);
 *  - legal_actions and apply allocate nothing and do no string work (the hot path);
 *  - actions are integers below num_actions with a text notation both ways;
 *  - hidden information is explicit: the view of a player (rp_view_text; the hooks of
 *    ramparts/json.h) shows only what that player may know, and determinize(player) resamples
 *    everything else consistently with that view.
 * JSON crosses this interface as text: nothing here ties a caller to a JSON library. */
#ifndef RAMPARTS_GAME_H
#define RAMPARTS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ramparts/export.h"
#include "ramparts/rng.h"

#define RP_MAX_PLAYERS 6
#define RP_MAX_LEGAL 512       /* no state of any game has more legal actions than this */
#define RP_STATE_MAX_SIZE 8192 /* every game's state_size fits in an rp_state */
#define RP_MAX_OPTIONS 8       /* game-specific options per game */
#define RP_OPTION_TEXT 256     /* longest text option value (e.g. a file name), with NUL */
#define RP_ACTION_TEXT 64      /* longest action notation, with NUL */
#define RP_STATE_TEXT 4096     /* longest full-state notation, with NUL */
#define RP_ERROR_TEXT 256

/* current_player() returns a seat >= 0, or this once the game is over. */
#define RP_TERMINAL (-1)

/* A viewer who sees only public information (a spectator). Views, render, events and
 * determinize take it wherever they take a seat. */
#define RP_SPECTATOR (-2)

/* Game trait flags. */
enum {
    RP_CHANCE = 1u << 0,      /* shuffles or draws decide part of the game */
    RP_HIDDEN_INFO = 1u << 1, /* some player cannot see part of the state */
    RP_CAN_DRAW = 1u << 2     /* the rules can end drawn, so players may also agree a draw */
};

/* Return codes of the public calls: 0 is success, errors are negative. */
#define RP_ERRORS(X)                                                                               \
    X(RP_OK, 0, "ok")                                                                              \
    X(RP_EINVAL, -1, "invalid argument")                                                           \
    X(RP_EPARSE, -2, "cannot parse")                                                               \
    X(RP_EILLEGAL, -3, "illegal move")                                                             \
    X(RP_EOVER, -4, "game is over")                                                                \
    X(RP_ENOSPACE, -5, "buffer too small")                                                         \
    X(RP_EIO, -6, "input/output error")                                                            \
    X(RP_EUNSUPPORTED, -7, "not supported by this game")                                           \
    X(RP_ENOMEM, -8, "out of memory")
#define RP_ERROR_ENUM_(name, value, text) name = (value),
enum { RP_ERRORS(RP_ERROR_ENUM_) };
#undef RP_ERROR_ENUM_

/* A human-readable reason, filled by whatever refused something. */
typedef struct rp_error {
    char msg[RP_ERROR_TEXT];
} rp_error;

/* Set err->msg printf-style (err may be NULL) and return code, for "return rp_fail(...)". */
RP_EXTERN int rp_fail(rp_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#ifdef __clang_analyzer__
/* The static analyzer reads one file at a time: tell it that rp_fail returns its code, or it
 * follows "errors" that return >= 0 and reports what happens on those impossible paths. */
#define rp_fail(err, code, ...) (rp_fail((err), (code), __VA_ARGS__), (code))
#endif

RP_EXTERN const char *rp_strerror(int code);

typedef uint32_t rp_action;
#define RP_NO_ACTION UINT32_MAX

/* Storage big enough and aligned for any game's state; generic code keeps states in these. */
typedef union rp_state {
    long double align_;
    uint64_t align64_;
    unsigned char bytes[RP_STATE_MAX_SIZE];
} rp_state;

/* ---- options: key=value, declared by each game, checked in one place ---- */

typedef enum rp_option_kind {
    RP_OPT_INT,    /* an integer within [min, max] */
    RP_OPT_CHOICE, /* one word of choices ("a|b|c"); value is its index */
    RP_OPT_TEXT    /* free text such as a file name */
} rp_option_kind;

typedef struct rp_option_spec {
    const char *name;
    rp_option_kind kind;
    int64_t min, max, def; /* INT: range and default; CHOICE: def is the default index */
    const char *choices;   /* CHOICE only */
    const char *help;
    /* TEXT only, optional: the value may come from a file, written key=@FILE. The library
     * never opens a path a caller supplies: a front end that reads files (the command line)
     * reads FILE itself and passes its text here, which checks it and writes the one-word
     * value the option takes (what records and the protocol carry). Network front ends
     * refuse @FILE. Returns RP_OK or < 0 with the reason. */
    int (*from_file)(const char *file_text, const char *file_name, char *value, size_t size,
                     rp_error *err);
} rp_option_spec;

/* The resolved options of one game. players and seed exist for every game; the rest are
 * indexed like the game's option table. */
typedef struct rp_config {
    int players;
    uint64_t seed;
    int64_t value[RP_MAX_OPTIONS];
    char text[RP_MAX_OPTIONS][RP_OPTION_TEXT];
    bool given[RP_MAX_OPTIONS];
    bool seed_given;
    bool players_given;
} rp_config;

/* One named slice of a game's observation tensor (see observation_tensor below): the floats
 * [offset, offset + dims[0] * dims[1] * dims[2]) in row-major order; unused trailing dims
 * are 1. The slices of a game tile its whole tensor in order. */
typedef struct rp_obs_field {
    const char *name;    /* "hand" */
    uint32_t offset;     /* its first float */
    uint16_t dims[3];    /* its shape: {26, 1, 1}, {5, 26, 1}, {12, 9, 7} */
    const char *meaning; /* what a value says, e.g. "1 where the card is in your hand" */
} rp_obs_field;

/* ---- the game: traits and operations ---- */

typedef struct rp_game {
    const char *id;      /* "danger-at-the-walls" */
    const char *title;   /* "Danger at the Walls" */
    const char *summary; /* one line for `ramparts list` */
    int min_players, max_players, default_players;
    unsigned flags;       /* RP_CHANCE | RP_HIDDEN_INFO | RP_CAN_DRAW */
    uint32_t num_actions; /* every action id is < num_actions */
    size_t state_size;    /* <= RP_STATE_MAX_SIZE */
    const rp_option_spec *options;
    int num_options;
    const char *const *seat_names; /* optional, max_players names: "Blue", "Red"... */
    const char *bench_options;     /* optional: options of `ramparts bench`'s workload */

    /* ---- traits the tools read (instead of tables keyed by game id) ---- */

    /* Search budgets of the AI levels beginner, easy, medium and hard, as AI parameters
     * ("iters=2000,rollout=-1"; "iters@5=120000" for five players only); NULL uses the
     * generic default of that level. The search kind follows from flags: information-set
     * MCTS with RP_HIDDEN_INFO, plain MCTS without. */
    const char *ai_levels[4];
    /* Fair comparisons (sim, arena, analyze) play each deal twice with the seats swapped:
     * set where the seat itself weighs much (moving first in a game without chance). */
    bool paired_seats;
    /* Tools that must finish every game (sim, arena, analyze) stop a game still going after
     * this many turns and report it as unfinished, never as a result of the rules (CD-16);
     * 0 when every game ends by its rules. */
    int tool_turn_cap;
    /* The rules have every seat decide at once (the engine only asks them in seat order), so
     * no seat moves first. Otherwise the seat to act in the starting state is the one the
     * rules (or the deal, as in Walls and Armies) name to move first; analyses report it. */
    bool simultaneous;
    /* How much the AI level matters in this game, one sentence from the measured ladder
     * (docs/ai.md: each level against the one below), shown in the lobby; NULL when not
     * measured. */
    const char *ai_level_note;
    /* The version tag of the full-state notation ("wa1", see state_to_text): state_to_text
     * writes it first and state_from_text refuses any other, another game's tag or another
     * version of this game's. Unique among the games (the conformance suite checks), so no
     * game reads another's positions; changed only with the format (records, golden files
     * and fuzz corpora hold it). */
    const char *notation_tag;
    /* The most outcomes one chance event can have under explicit chance (rp_apply_explicit's
     * largest *next_bound: the largest pile shuffled or the widest choice drawn), what
     * OpenSpiel calls max_chance_outcomes; 0 without RP_CHANCE. */
    uint32_t max_chance_outcomes;

    /* Set up a new game from resolved options. On failure fill err and return < 0. */
    int (*init)(void *st, const rp_config *cfg, rp_error *err);
    int (*num_players)(const void *st);
    /* The seat to act, or RP_TERMINAL. */
    int (*current_player)(const void *st);
    /* The turn in progress, 1-based, as the rulebook counts turns (a player's turn, a trick,
     * a round); once over, the last turn. For tools that measure or cap games in turns. */
    int (*turn_number)(const void *st);
    /* Write the legal actions (distinct, at most RP_MAX_LEGAL) and return their count; 0 only
     * when the game is over. Allocation-free. out has room for RP_MAX_LEGAL actions: a game
     * may write past its count (Rush the Wall copies a whole row of a table). */
    int (*legal_actions)(const void *st, rp_action *out);
    /* Apply a legal action (the caller guarantees legality: see rp_apply_checked).
     * Allocation-free. */
    void (*apply)(void *st, rp_action action);
    /* When over: each seat's share of the win. A sole winner gets 1, losers 0, and k seats
     * sharing a win (or a draw) get 1/k each; the shares sum to 1. */
    void (*returns)(const void *st, double *out);

    /* Notation of an action in the state before it is played; the two are exact inverses
     * for legal actions. to_text returns the length written or < 0. */
    int (*action_to_text)(const void *st, rp_action action, char *buf, size_t size);
    int (*action_from_text)(const void *st, const char *text, rp_action *out, rp_error *err);

    /* Full-state (referee's) notation, one line, hidden cards and deck orders included, in
     * the one grammar of src/core/notation.h: a version tag ("wa1"), then key=value fields
     * separated by single spaces, the generator last as rng=<16 hex>.<16 hex>.
     * state_from_text(state_to_text(s)) reproduces s exactly, and state_from_text accepts
     * only the canonical text (what state_to_text writes), so text -> state -> text is exact
     * too. A malformed or non-canonical text is refused with the reason and leaves st
     * untouched. */
    int (*state_to_text)(const void *st, char *buf, size_t size);
    int (*state_from_text)(void *st, const char *text, rp_error *err);

    /* Every invariant of a state (the checks state_from_text makes after parsing): RP_OK, or
     * < 0 with the first broken one in err. Debug builds assert it after every apply
     * (RP_DEBUG_STATE_OK in src/core/check.h). */
    int (*state_ok)(const void *st, rp_error *err);

    /* The options this state is played under, derived values included (e.g. the neutral
     * clan solo Rush the Wall gets, Castle Danger's limit under tournament=1), as records,
     * the protocol and views report them: sets cfg->players and every game option (and
     * given[] for text options in use); leaves the seed alone. A state loaded from notation
     * reports the options its notation implies. */
    void (*config_of)(const void *st, rp_config *cfg);

    /* Replace everything `viewer` (a seat, or RP_SPECTATOR) cannot see by a random assignment
     * consistent with that viewer's view (including the rng that drives future chance). */
    void (*determinize)(void *st, int viewer, rp_rng *rng);
    /* The same for several seats at once (bit p of `viewers` for seat p): replace everything
     * none of them can see, consistently with each one's view, and reseed the rng. Needed
     * where two humans can share a table with an AI (games of three or more seats with
     * hidden information or chance: rp_match_deal_unseen); NULL in two-seat games. */
    void (*determinize_seats)(void *st, uint32_t viewers, rp_rng *rng);
    /* Draw the view of `viewer` (a seat, or RP_SPECTATOR) for a terminal; colour only when
     * asked. Shows exactly what the view (rp_view_text) shows. */
    void (*render)(const void *st, int viewer, FILE *out, bool color);

    /* What a viewer may know, what an action is and what it did, as data: the game's JSON
     * hooks (ramparts/json.h, for callers that build on cJSON; everyone else reads the JSON
     * as text: rp_view_text, rp_action_json, rp_legal_json, rp_events_json). */
    const struct rp_game_json *json;

    /* Optional: print the numbers the rules take from options or data files (e.g. Rush the
     * Wall's card values), for `ramparts rules GAME key=value`. */
    void (*describe)(const void *st, FILE *out);

    /* Optional: why `action` is not legal in st, in the game's terms ("you must follow
     * Cannons: you hold cannons-1, cannons-5"; "c2 holds a Wall"), written to buf; returns
     * the length, or < 0 when there is nothing better to say than "not legal here". */
    int (*explain_illegal)(const void *st, rp_action action, char *buf, size_t size);

    /* Optional: the legal moves of st in a few words for a prompt, where the list is long
     * ("archers <1-3 values> wall <1-5>; cannon <5-9> wall <1-5>; flag wall <1-5>"); returns
     * the length, or < 0 to show the numbered list. */
    int (*moves_summary)(const void *st, char *buf, size_t size);

    /* Optional, for leak tests: the names of the cards `viewer` may not learn in st (hidden
     * from them and not also visible elsewhere), separated by single spaces, as view_json
     * and events would spell them. Returns the length, or < 0 on a small buffer. */
    int (*secret_names)(const void *st, int viewer, char *buf, size_t size);

    /* Optional: a seat's points as the rulebook counts them now (fort points in Rush the Wall,
     * the game score in King of Danger), for tools that report scores and winning margins;
     * NULL when the game keeps no points. */
    double (*score)(const void *st, int seat);

    /* ---- optional hooks for the AI (NULL when absent) ---- */

    /* A heuristic estimate in [0, 1] of `player`'s share of the win; only reads what
     * `player` can see. */
    double (*evaluate)(const void *st, int player);
    /* How `observer` (a seat, or RP_SPECTATOR) sees `action` taken by the player to act: the
     * action itself when fully visible, else a canonical id standing for everything observer
     * cannot tell apart. NULL means every action is visible to everyone. */
    rp_action (*observe_action)(const void *st, rp_action action, int observer);

    /* ---- optional: observations for learning agents (0 / NULL when absent) ---- */

    /* Floats in every observation of this game, whatever its options and players. */
    uint32_t observation_size;
    /* The named slices of the tensor, in order, tiling [0, observation_size). */
    const rp_obs_field *observation_fields;
    int num_observation_fields;
    /* Write the observation_size floats that encode what `player` (a seat of st; not the
     * spectator) may see in st: a function of that player's view alone, so two states the
     * player cannot tell apart give the same floats, and an encoding of all of it, so two
     * views that differ give different floats. Seats are relative: slot 0 is `player`, then
     * the seats after it in seat order. Values are exact small numbers (flags 0/1, counts
     * and sizes scaled as each field says). Allocation-free: learning loops call it at every
     * step. */
    void (*observation_tensor)(const void *st, int player, float *out);

    /* Optional: an upper bound on the actions of a game played from its start under st's
     * options (what OpenSpiel calls max_game_length), derived from the rules: turns at most
     * times actions a turn at most. Where the rules set no bound it counts up to the tools'
     * cap (tool_turn_cap) or says which assumption it makes (King of Danger's tie hands);
     * the information state (rp_information_state) holds this many actions. */
    int (*max_game_length)(const void *st);

    /* Optional in a game without RP_CHANCE, required with it for rp_reseed: redraw what no
     * seat and no spectator knows, drawing it anew from rng (deck orders nobody has seen,
     * cards nobody has seen, the generator of every later draw), so that every seat's view and
     * legal actions stay as they are but the future draws are no longer the true game's. A
     * search on the referee's state reseeds its copies so it cannot see what will be drawn. */
    void (*reseed)(void *st, rp_rng *rng);
} rp_game;

/* The name of a seat for people ("Blue", or "player 2"): constant text, safe from any thread. */
RP_EXTERN const char *rp_seat_name(const rp_game *game, int seat);

/* ---- registry ---- */

RP_EXTERN extern const rp_game *const rp_games[];
RP_EXTERN extern const int rp_num_games;
RP_EXTERN const rp_game *rp_game_find(const char *id);
/* The rules as implemented (docs/rules/<id>.md, embedded at build time), or NULL. */
RP_EXTERN const char *rp_game_rules(const rp_game *game);

/* Which document lists the games (src/core/describe.c): the server's GET /api/v1/types
 * (docs/server-protocol.md) or the WebAssembly API's `games` (docs/wasm.md). */
typedef enum rp_describe_shape {
    /* "type"; can_draw; the options but those of kind text, a choice's default as its word;
     * ai_levels (the caller's) and ai_level_note */
    RP_DESCRIBE_SERVER,
    /* "id"; every option with min, max and its default as a number */
    RP_DESCRIBE_ENGINE
} rp_describe_shape;
/* Every game described as an unformatted JSON array: id, title, summary, players, traits, seat
 * names and options, in the document's shape. ai_levels (NULL-terminated) are the AI levels a
 * server offers, written in RP_DESCRIBE_SERVER only. Text the caller frees with free(), or
 * NULL when out of memory. */
RP_EXTERN char *rp_games_describe(rp_describe_shape shape, const char *const *ai_levels);

/* ---- options ---- */

/* Defaults: players = default_players, seed = 1, every option at its default. */
RP_EXTERN void rp_config_default(const rp_game *game, rp_config *cfg);
/* Apply one "key=value" (players, seed, or a game option); refuses unknown keys and
 * out-of-range values with a message, leaving cfg unchanged. */
RP_EXTERN int rp_config_set(const rp_game *game, rp_config *cfg, const char *key_value,
                            rp_error *err);
/* "players=2 seed=7 variant=vogel": every option, for records and the protocol. */
RP_EXTERN int rp_config_to_text(const rp_game *game, const rp_config *cfg, char *buf, size_t size);
/* The value of a game option by name (INT value or CHOICE index); def if absent. */
RP_EXTERN int64_t rp_config_int(const rp_game *game, const rp_config *cfg, const char *name);
RP_EXTERN const char *rp_config_text(const rp_game *game, const rp_config *cfg, const char *name);

/* ---- checked entry points for tools (not the hot path) ---- */

RP_EXTERN void rp_state_copy(const rp_game *game, void *dst, const void *src);
RP_EXTERN bool rp_is_legal(const rp_game *game, const void *st, rp_action action);
/* Apply if legal, else RP_EILLEGAL (or RP_EOVER) with a message and st unchanged. */
RP_EXTERN int rp_apply_checked(const rp_game *game, void *st, rp_action action, rp_error *err);
/* Parse a move given by notation and check that it is legal here. */
RP_EXTERN int rp_parse_move(const rp_game *game, const void *st, const char *text, rp_action *out,
                            rp_error *err);
/* What `player` (a seat, or RP_SPECTATOR) may know in st, as JSON text (the caller frees it
 * with free()), or NULL: plain data a client renders without parsing text (lists are arrays,
 * cards are their names, hidden cards are null or counted; ramparts/json.h's view hook). */
RP_EXTERN char *rp_view_text(const rp_game *game, const void *st, int player, bool pretty);

/* A seat of st or RP_SPECTATOR. */
RP_EXTERN bool rp_viewer_ok(const rp_game *game, const void *st, int viewer);
/* The name of a viewer for people: a seat's name, or "spectator". */
RP_EXTERN const char *rp_viewer_name(const rp_game *game, int viewer);

/* The events of a legal action told to a viewer, as JSON text (an array; the caller frees
 * it; ramparts/json.h's events hook says what they hold), or NULL with err filled when the
 * action is not legal, the viewer is not valid, or the game does not tell events. */
RP_EXTERN char *rp_events_json(const rp_game *game, const void *before, rp_action action,
                               int viewer, rp_error *err);
/* True when some event of the action (as the spectator is told it) reveals something hidden
 * or decided by chance: such a move can never be taken back in fair play. */
RP_EXTERN bool rp_action_reveals(const rp_game *game, const void *before, rp_action action);
/* An action as data, as JSON text (the caller frees it): the game's action hook
 * (ramparts/json.h) with "id" and "text" first; NULL when the game has no such hook. */
RP_EXTERN char *rp_action_json(const rp_game *game, const void *st, rp_action action);
/* The legal actions of st as JSON text: an array of rp_action_json objects (empty when over). */
RP_EXTERN char *rp_legal_json(const rp_game *game, const void *st);
/* The observation of `player` (a seat of st) into out[0 .. size), which must hold the game's
 * observation_size floats: RP_OK, or RP_EUNSUPPORTED / RP_EINVAL / RP_ENOSPACE with err
 * filled and out untouched. */
RP_EXTERN int rp_observation(const rp_game *game, const void *st, int player, float *out,
                             size_t size, rp_error *err);
/* The game's bound on the actions of a game under st's options (max_game_length), or
 * RP_EUNSUPPORTED when it has none. */
RP_EXTERN int rp_max_game_length(const rp_game *game, const void *st);
/* Floats of a perfect-recall information state under st's options (0 when the game has no
 * observation tensor or no max_game_length): the observation at the start, then one row per
 * action up to max_game_length, each [1, the action as the player observed it (its id, or
 * observe_action's canonical id, plus 1, over num_actions), the player's observation after
 * it]; the observation part of the rows is left out in a game without chance or hidden
 * information, where the actions alone fix every later observation. Rows past the actions
 * played are 0. */
RP_EXTERN size_t rp_information_state_size(const rp_game *game, const void *st);
/* Floats of one row of that tensor (2 + the observation, or 2). */
RP_EXTERN size_t rp_information_state_row_size(const rp_game *game);
/* The information state of `player` after `actions` (count of them, each legal in turn) played
 * from `root`, into out[0 .. size): RP_OK; RP_EINVAL for a bad seat or an illegal action,
 * RP_ENOSPACE when out is too small or the actions outnumber max_game_length, RP_EUNSUPPORTED
 * without an observation tensor or a bound; err says which, and out is then unspecified. Two
 * histories the player cannot tell apart give the same floats; two it can, different ones. */
RP_EXTERN int rp_information_state(const rp_game *game, const void *root, const rp_action *actions,
                                   size_t count, int player, float *out, size_t size,
                                   rp_error *err);
/* Redraw what nobody knows in st (the reseed hook) from rng: RP_OK (nothing to do in a game
 * without chance), or RP_EUNSUPPORTED with err filled when a game with chance lacks it. */
RP_EXTERN int rp_reseed(const rp_game *game, void *st, rp_rng *rng, rp_error *err);
/* Explicit chance (rp_draws in ramparts/rng.h): the games draw only through rp_rng_below, so
 * the chance events an action (or the deal) sets off are uniform choices in [0, bound), which a
 * caller may decide one by one instead of sampling them. rp_apply_explicit applies the legal
 * `action` to st with its chance events decided by values[0 .. count): when those were all it
 * needed, st becomes the result and *next_bound is 0; when it needs more, st is left as it was
 * and *next_bound is the number of outcomes of the next chance event (each of probability
 * 1 / *next_bound). RP_EINVAL (st unchanged) for an illegal action, a value not below its
 * event's bound or more values than events; RP_EUNSUPPORTED if the game drew otherwise. */
RP_EXTERN int rp_apply_explicit(const rp_game *game, void *st, rp_action action,
                                const uint32_t *values, size_t count, uint32_t *next_bound,
                                rp_error *err);
/* The same for the deal: init st from cfg with its chance events decided by values. */
RP_EXTERN int rp_init_explicit(const rp_game *game, void *st, const rp_config *cfg,
                               const uint32_t *values, size_t count, uint32_t *next_bound,
                               rp_error *err);
/* The legal actions of st as num_actions bytes: 1 where legal, else 0 (all 0 when over). */
RP_EXTERN void rp_legal_mask(const rp_game *game, const void *st, uint8_t *mask);
/* The options st is played under (config_of), with the seed of base; games without
 * config_of report base unchanged. */
RP_EXTERN void rp_config_of(const rp_game *game, const void *st, const rp_config *base,
                            rp_config *out);
/* Why action is not legal in st, in the game's words when it has them: always fills buf. */
RP_EXTERN void rp_explain_illegal(const rp_game *game, const void *st, rp_action action, char *buf,
                                  size_t size);

#endif
