/* ramparts_py.h — internal to the CPython module ramparts._ramparts (python/src/): the object
 * layouts its three files share (Game, State, VectorEnv's core, Bot) and small helpers. The
 * module uses only the public C API of libramparts (include/ramparts/). */
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
} rp_py_game;

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
    int num_legal; /* -1: not computed since the last change */
    rp_action legal[RP_MAX_LEGAL];
    _Alignas(16) unsigned char st[];
} rp_py_state;

extern PyTypeObject rp_py_game_type;
extern PyTypeObject rp_py_state_type;
extern PyTypeObject rp_py_vector_type;
extern PyTypeObject rp_py_bot_type;

/* A new State of `game` holding a copy of st, its own root with an empty history (NULL with
 * an exception set on failure). */
rp_py_state *rp_py_state_new(rp_py_game *game, const void *st);

/* The legal actions of a State, computed once per change. */
int rp_py_state_legal(rp_py_state *s);

/* A seat of the state from a Python int, or -1 with ValueError / TypeError set. `what` names
 * the argument in the message. */
int rp_py_seat(const rp_py_game *game, const void *st, PyObject *arg, const char *what);

/* True when the Game was initialised; else false with RuntimeError set. */
bool rp_py_game_ready(const rp_py_game *g);

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

/* The numpy function or type `name` (cached), or NULL with an exception set. */
PyObject *rp_py_numpy(const char *name);

/* A writable C-contiguous buffer of `count` items of one of the formats in `formats` (struct
 * codes, e.g. "f" or "?B"), with a clear TypeError / ValueError naming `what` otherwise. */
int rp_py_get_buffer(PyObject *obj, Py_buffer *view, const char *formats, Py_ssize_t count,
                     bool writable, const char *what);

#endif
