/* ramparts_py.h — internal to the CPython module ramparts._ramparts (python/src/): the object
 * layouts its files share (Game, State, VectorEnv's core, Bot) and the helpers of helpers.c.
 * The module uses only the public C API of libramparts (include/ramparts/). */
#ifndef RAMPARTS_PY_H
#define RAMPARTS_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ramparts/ai.h"
#include "ramparts/game.h"

/* A game with its options resolved: what load_game returns. Immutable. */
typedef struct {
    PyObject_HEAD
    const rp_game *game;
    rp_config cfg;
    rp_config played; /* the options its states report (config_of), derived values included */
    int players;
    bool explicit_chance; /* its States stop at chance nodes (explicit_chance=1) */
} rp_py_game;

/* current_player() at a chance node (explicit chance): RP_TERMINAL is -1 and RP_SPECTATOR -2
 * in ramparts' own ids; ramparts.openspiel reports pyspiel's CHANCE (-1). */
#define RP_PY_CHANCE (-3)
/* A chance outcome in a State's history (explicit chance) carries this bit. */
#define RP_PY_CHANCE_BIT 0x80000000u
/* State.pending while the deal's chance events are decided. */
#define RP_PY_DEAL (RP_NO_ACTION - 1u)

/* One game state, sized to its game: st holds the game's state_size bytes (ob_size). The legal
 * actions are cached between legal_actions() and apply_action(), so the usual loop computes
 * them once a step. The actions applied since `root` (the state the State was made as: a new
 * deal, a deserialized or an env's state) are kept for history(), undo_action and the
 * information states, which replay them from root. */
typedef struct {
    PyObject_VAR_HEAD
    rp_py_game *game;   /* strong reference */
    PyObject *root;     /* bytes of the state history() starts from (shared) */
    rp_action *history; /* the actions applied since root */
    Py_ssize_t history_len, history_cap;
    /* Explicit chance (game->explicit_chance). history holds the chance outcomes too (with
     * RP_PY_CHANCE_BIT); root is the dealt state, after the deal's deal_moves entries. */
    rp_action pending;   /* RP_NO_ACTION, RP_PY_DEAL, or the action whose chance is open */
    uint32_t next_bound; /* > 0 at a chance node: its outcomes are 0 .. next_bound - 1 */
    uint32_t *draws;     /* every chance outcome since the State was made, in order */
    Py_ssize_t draws_len, draws_cap;
    Py_ssize_t pending_from; /* the draws of the open chance event start here */
    Py_ssize_t deal_draws;   /* draws and history entries of the deal (0 without one) */
    Py_ssize_t deal_moves;
    bool began_with_deal;
    /* A State made by resample_from_infostate(seat): that seat's information state string up
     * to then (it cannot tell the sample from the truth, so its recall is the same), of
     * recall_moves moves; NULL otherwise. */
    PyObject *recall;
    int recall_seat;
    Py_ssize_t recall_moves;
    int num_legal; /* -1: not computed since the last change */
    rp_action legal[RP_MAX_LEGAL];
    _Alignas(16) unsigned char st[];
} rp_py_state;

extern PyTypeObject rp_py_game_type;
extern PyTypeObject rp_py_state_type;
extern PyTypeObject rp_py_vector_type;
extern PyTypeObject rp_py_bot_type;
extern PyTypeObject rp_py_solver_type;

/* game.c: true when the Game was initialised; else false with RuntimeError set. */
bool rp_py_game_ready(const rp_py_game *g);

/* ---- state.c ---- */

/* A new State of `game` holding a copy of st, its own root with an empty history (NULL with
 * an exception set on failure). */
rp_py_state *rp_py_state_new(rp_py_game *game, const void *st);

/* A new State of `game` (explicit chance) at the first chance node of its deal. */
rp_py_state *rp_py_state_new_deal(rp_py_game *game);

/* The legal actions of a State, computed once per change. */
int rp_py_state_legal(rp_py_state *s);

/* ---- helpers.c ---- */

/* A seat of the state from a Python int, or -1 with ValueError / TypeError set. `what` names
 * the argument in the message. */
int rp_py_seat(const rp_py_game *game, const void *st, PyObject *arg, const char *what);

/* A viewer from a Python int: a seat of st, or (when spectator_ok) SPECTATOR; else -1 with
 * TypeError / ValueError naming `what`. */
int rp_py_viewer(const rp_py_game *g, const void *st, PyObject *arg, const char *what,
                 bool spectator_ok, int *out);

/* An action id from any Python integer (__index__) within the game's range (legality is
 * checked elsewhere); else -1 with TypeError / ValueError. */
int rp_py_action(const rp_py_game *g, PyObject *arg, rp_action *out);

/* JSON made by the library as a Python object; frees it. NULL with an exception set. */
struct cJSON;
PyObject *rp_py_json_from_cjson(struct cJSON *json);

/* A Python object from JSON text (json.loads), or NULL with an exception set. */
PyObject *rp_py_json(const char *text);

/* One rule for every seed the module takes (issue 45): an integer (a Python or numpy int; not
 * a bool, a float or a string) from 0 to 2**64 - 1; else TypeError or ValueError naming the value. A
 * PyArg "O&" converter: returns 1 with *out (a uint64_t) set, or 0 with the exception set. */
int rp_py_seed(PyObject *obj, void *out);

/* The numpy function or type `name` (cached), or NULL with an exception set. */
PyObject *rp_py_numpy(const char *name);

/* A writable C-contiguous buffer of `count` items of one of the formats in `formats` (struct
 * codes, e.g. "f" or "?B"), with a clear TypeError / ValueError naming `what` otherwise. */
int rp_py_get_buffer(PyObject *obj, Py_buffer *view, const char *formats, Py_ssize_t count,
                     bool writable, const char *what);

#endif
