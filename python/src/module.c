/* module.c — the CPython module ramparts._ramparts: Game (a game with resolved options) and
 * State (one game state, OpenSpiel-shaped methods), the module's helpers and its init. Built
 * on the public C API only; bad input raises ValueError / TypeError naming what was wrong and
 * changes nothing. VectorEnv's core is vector.c, Bot is bot.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ramparts/version.h"
#include "ramparts_py.h"

/* ---- helpers ---- */

static PyObject *numpy_module;
static PyObject *json_loads;

PyObject *rp_py_numpy(const char *name)
{
    if (!numpy_module && !(numpy_module = PyImport_ImportModule("numpy")))
        return NULL;
    return PyObject_GetAttrString(numpy_module, name);
}

PyObject *rp_py_json(const char *text)
{
    if (!json_loads) {
        PyObject *json = PyImport_ImportModule("json");
        if (!json)
            return NULL;
        json_loads = PyObject_GetAttrString(json, "loads");
        Py_DECREF(json);
        if (!json_loads)
            return NULL;
    }
    return PyObject_CallFunction(json_loads, "s", text);
}

/* JSON made by the library as a Python object; frees it. */
static PyObject *json_to_python(cJSON *json)
{
    if (!json)
        return PyErr_NoMemory();
    char *text = cJSON_PrintUnformatted(json);
    cJSON_Delete(json);
    if (!text)
        return PyErr_NoMemory();
    PyObject *obj = rp_py_json(text);
    free(text);
    return obj;
}

int rp_py_get_buffer(PyObject *obj, Py_buffer *view, const char *formats, Py_ssize_t count,
                     bool writable, const char *what)
{
    const int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a %sC-contiguous array", what,
                     writable ? "writable " : "");
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    if (strlen(f) != 1 || !strchr(formats, *f)) {
        PyErr_Format(PyExc_TypeError, "%s has items of format '%s'; expected one of '%s'", what,
                     view->format ? view->format : "B", formats);
        PyBuffer_Release(view);
        return -1;
    }
    if (view->len / view->itemsize != count) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd items; expected %zd", what,
                     view->len / view->itemsize, count);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* A viewer from a Python int: a seat of st, or (when allowed) SPECTATOR. */
static int viewer_of(const rp_py_game *g, const void *st, PyObject *arg, const char *what,
                     bool spectator_ok, int *out)
{
    const long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    const int players = g->game->num_players(st);
    if ((v >= 0 && v < players) || (spectator_ok && v == RP_SPECTATOR)) {
        *out = (int)v;
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "%s %ld: the seats are 0..%d%s", what, v, players - 1,
                 spectator_ok ? " (or SPECTATOR, -2)" : "");
    return -1;
}

int rp_py_seat(const rp_py_game *game, const void *st, PyObject *arg, const char *what)
{
    int seat;
    return viewer_of(game, st, arg, what, false, &seat) < 0 ? -1 : seat;
}

/* An action id from a Python int within the game's range (legality is checked elsewhere). */
static int action_of(const rp_py_game *g, PyObject *arg, rp_action *out)
{
    /* Any integer (numpy's too) through __index__; a float is refused, never truncated. */
    if (!PyIndex_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "an action is an int, not %s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    PyObject *index = PyNumber_Index(arg);
    if (!index)
        return -1;
    int overflow = 0;
    const long long a = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (a == -1 && PyErr_Occurred())
        return -1;
    if (overflow) {
        PyErr_Format(PyExc_ValueError, "action out of range: %s's actions are 0..%u", g->game->id,
                     (unsigned)g->game->num_actions - 1);
        return -1;
    }
    if (a < 0 || a >= (long long)g->game->num_actions) {
        PyErr_Format(PyExc_ValueError, "action %lld: %s's actions are 0..%u", a, g->game->id,
                     (unsigned)g->game->num_actions - 1);
        return -1;
    }
    *out = (rp_action)a;
    return 0;
}

/* ---- Game ---- */

/* The options of Game(): a list of "key=value", or one string of them separated by spaces or
 * commas (as options_text writes them). A new list, or NULL with TypeError set. */
static PyObject *options_list(PyObject *options)
{
    if (!options || options == Py_None)
        return PyList_New(0);
    if (!PyUnicode_Check(options))
        return PySequence_Fast(options, "options must be a list of 'key=value' or one string");
    PyObject *comma = PyUnicode_FromString(","), *space = PyUnicode_FromString(" ");
    PyObject *spaced = comma && space ? PyUnicode_Replace(options, comma, space, -1) : NULL;
    Py_XDECREF(comma);
    Py_XDECREF(space);
    if (!spaced)
        return NULL;
    PyObject *list = PyUnicode_Split(spaced, NULL, -1);
    Py_DECREF(spaced);
    return list;
}

static int game_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"game_id", "options", NULL};
    rp_py_game *g = (rp_py_game *)self;
    const char *id;
    PyObject *options = NULL;
    if (g->game) {
        /* States and envs of this Game hold its bytes: it never becomes another game. */
        PyErr_SetString(PyExc_RuntimeError, "Game is already initialised: make a new one");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|O", keywords, &id, &options))
        return -1;
    const rp_game *game = rp_game_find(id);
    if (!game) {
        char names[512] = "";
        for (int i = 0; i < rp_num_games; i++) {
            strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
            strncat(names, rp_games[i]->id, sizeof names - strlen(names) - 1);
        }
        PyErr_Format(PyExc_ValueError, "no game '%s'; the games are %s", id, names);
        return -1;
    }
    rp_config cfg;
    rp_config_default(game, &cfg);
    PyObject *seq = options_list(options);
    if (!seq)
        return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        const char *kv = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        rp_error err;
        if (!kv || rp_config_set(game, &cfg, kv, &err) < 0) {
            if (kv)
                PyErr_Format(PyExc_ValueError, "%s: %s", game->id, err.msg);
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    /* Refuse options the game itself refuses (players out of range, a bad combination) now,
     * not at the first new_initial_state. */
    rp_state probe;
    rp_error err;
    if (game->init(&probe, &cfg, &err) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s", game->id, err.msg);
        return -1;
    }
    g->game = game;
    g->cfg = cfg;
    rp_config_of(game, &probe, &cfg, &g->played);
    g->players = game->num_players(&probe);
    return 0;
}

static bool game_ready(const rp_py_game *g)
{
    if (g->game)
        return true;
    PyErr_SetString(PyExc_RuntimeError, "Game was not initialised");
    return false;
}

static PyObject *game_new_initial_state(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"seed", NULL};
    rp_py_game *g = (rp_py_game *)self;
    PyObject *seed = Py_None;
    if (!game_ready(g) || !PyArg_ParseTupleAndKeywords(args, kwargs, "|O", keywords, &seed))
        return NULL;
    rp_config cfg = g->cfg;
    if (seed != Py_None) {
        cfg.seed = PyLong_AsUnsignedLongLongMask(seed);
        if (PyErr_Occurred())
            return NULL;
    }
    rp_state st;
    rp_error err;
    if (g->game->init(&st, &cfg, &err) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s", g->game->id, err.msg);
        return NULL;
    }
    return (PyObject *)rp_py_state_new(g, &st);
}

/* True when st is played under g's options; else false with ValueError naming both. */
static bool same_options(const rp_py_game *g, const void *st)
{
    rp_config of_state;
    rp_config_of(g->game, st, &g->cfg, &of_state);
    char mine[RP_MAX_OPTIONS * (RP_OPTION_TEXT + 32) + 64];
    char theirs[sizeof mine];
    if (rp_config_to_text(g->game, &g->played, mine, sizeof mine) < 0 ||
        rp_config_to_text(g->game, &of_state, theirs, sizeof theirs) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "options do not fit their text");
        return false;
    }
    if (strcmp(mine, theirs) == 0)
        return true;
    PyErr_Format(PyExc_ValueError,
                 "%s: the state was saved under the options '%s'; this game has '%s'", g->game->id,
                 theirs, mine);
    return false;
}

static PyObject *game_deserialize_state(PyObject *self, PyObject *arg)
{
    rp_py_game *g = (rp_py_game *)self;
    const char *text = PyUnicode_AsUTF8(arg);
    if (!game_ready(g) || !text)
        return NULL;
    rp_state st;
    rp_error err;
    if (g->game->state_from_text(&st, text, &err) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s", g->game->id, err.msg);
        return NULL;
    }
    if (g->game->num_players(&st) != g->players) {
        PyErr_Format(PyExc_ValueError, "%s: the state is for %d players; this game has %d",
                     g->game->id, g->game->num_players(&st), g->players);
        return NULL;
    }
    if (!same_options(g, &st))
        return NULL;
    return (PyObject *)rp_py_state_new(g, &st);
}

/* A list of `count` items item(game, i), or NULL with an exception set. */
static PyObject *game_list(const rp_py_game *g, int count,
                           PyObject *(*item)(const rp_game *game, int i))
{
    if (!game_ready(g))
        return NULL;
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        PyObject *x = item(g->game, i);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* (name, offset, shape, meaning) of field i of the observation tensor; the shape leaves out
 * trailing dimensions of 1. */
static PyObject *observation_field(const rp_game *game, int i)
{
    const rp_obs_field *f = &game->observation_fields[i];
    int rank = 3;
    while (rank > 1 && f->dims[rank - 1] == 1)
        rank--;
    PyObject *shape = PyTuple_New(rank);
    for (int d = 0; shape && d < rank; d++)
        PyTuple_SET_ITEM(shape, d, PyLong_FromLong(f->dims[d]));
    return shape ? Py_BuildValue("(sINs)", f->name, (unsigned)f->offset, shape, f->meaning) : NULL;
}

static PyObject *game_observation_fields(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return game_list(g, g->game ? g->game->num_observation_fields : 0, observation_field);
}

/* {"name", "kind", "default", "min", "max", "choices", "help"} of option i. */
static PyObject *option_spec(const rp_game *game, int i)
{
    static const char *const kinds[] = {"int", "choice", "text"};
    const rp_option_spec *o = &game->options[i];
    return Py_BuildValue("{s:s,s:s,s:L,s:L,s:L,s:z,s:s}", "name", o->name, "kind", kinds[o->kind],
                         "default", (long long)o->def, "min", (long long)o->min, "max",
                         (long long)o->max, "choices", o->choices, "help", o->help);
}

static PyObject *game_option_specs(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return game_list(g, g->game ? g->game->num_options : 0, option_spec);
}

/* The options in effect, "players=2 seed=7 ...", as the library writes them. */
static PyObject *game_options_text(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_game *g = (rp_py_game *)self;
    char text[RP_MAX_OPTIONS * (RP_OPTION_TEXT + 32) + 64];
    if (!game_ready(g))
        return NULL;
    if (rp_config_to_text(g->game, &g->cfg, text, sizeof text) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "options do not fit their text");
        return NULL;
    }
    return PyUnicode_FromString(text);
}

static PyObject *game_rules(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_game *g = (rp_py_game *)self;
    if (!game_ready(g))
        return NULL;
    const char *rules = rp_game_rules(g->game);
    return rules ? PyUnicode_FromString(rules) : Py_NewRef(Py_None);
}

static PyObject *game_reduce(PyObject *self, PyObject *unused)
{
    PyObject *text = game_options_text(self, unused);
    if (!text)
        return NULL;
    PyObject *options = PyUnicode_Split(text, NULL, -1);
    Py_DECREF(text);
    if (!options)
        return NULL;
    PyObject *r = Py_BuildValue("(O(sN))", Py_TYPE(self), ((rp_py_game *)self)->game->id, options);
    return r;
}

static PyObject *game_repr(PyObject *self)
{
    rp_py_game *g = (rp_py_game *)self;
    if (!g->game)
        return PyUnicode_FromString("<Game (not initialised)>");
    PyObject *text = game_options_text(self, NULL);
    if (!text)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("<Game %s %U>", g->game->id, text);
    Py_DECREF(text);
    return r;
}

static PyObject *game_get_str(const char *s)
{
    return PyUnicode_FromString(s);
}

static PyObject *game_id(PyObject *self, void *unused)
{
    (void)unused;
    return game_ready((rp_py_game *)self) ? game_get_str(((rp_py_game *)self)->game->id) : NULL;
}

static PyObject *game_title(PyObject *self, void *unused)
{
    (void)unused;
    return game_ready((rp_py_game *)self) ? game_get_str(((rp_py_game *)self)->game->title) : NULL;
}

static PyObject *game_int(PyObject *self, long long value)
{
    return game_ready((rp_py_game *)self) ? PyLong_FromLongLong(value) : NULL;
}

static PyObject *game_num_players(PyObject *self, PyObject *unused)
{
    (void)unused;
    return game_int(self, ((rp_py_game *)self)->players);
}

static PyObject *game_num_distinct_actions(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return game_int(self, g->game ? g->game->num_actions : 0);
}

static PyObject *game_observation_shape(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    if (!game_ready(g))
        return NULL;
    return Py_BuildValue("(I)", (unsigned)g->game->observation_size);
}

static PyObject *game_seed(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return game_ready(g) ? PyLong_FromUnsignedLongLong(g->cfg.seed) : NULL;
}

static PyObject *game_flag(PyObject *self, unsigned flag)
{
    const rp_py_game *g = (rp_py_game *)self;
    return game_ready(g) ? PyBool_FromLong((g->game->flags & flag) != 0) : NULL;
}

static PyObject *game_has_chance(PyObject *self, void *unused)
{
    (void)unused;
    return game_flag(self, RP_CHANCE);
}

static PyObject *game_has_hidden(PyObject *self, void *unused)
{
    (void)unused;
    return game_flag(self, RP_HIDDEN_INFO);
}

static PyObject *game_turn_cap(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return game_int(self, g->game ? g->game->tool_turn_cap : 0);
}

static PyObject *game_bench_options(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    if (!game_ready(g))
        return NULL;
    return PyUnicode_FromString(g->game->bench_options ? g->game->bench_options : "");
}

static PyObject *game_seat_names(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    if (!game_ready(g))
        return NULL;
    PyObject *names = PyTuple_New(g->players);
    for (int p = 0; names && p < g->players; p++)
        PyTuple_SET_ITEM(names, p, PyUnicode_FromString(rp_seat_name(g->game, p)));
    return names;
}

static PyObject *game_observation_size(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return game_int(self, g->game ? g->game->observation_size : 0);
}

/* The returns are shares of the win: a sole winner 1, losers 0, shares summing to 1. */
static PyObject *game_min_utility(PyObject *self, PyObject *unused)
{
    (void)unused;
    return game_ready((rp_py_game *)self) ? PyFloat_FromDouble(0.0) : NULL;
}

static PyObject *game_max_utility(PyObject *self, PyObject *unused)
{
    (void)unused;
    return game_ready((rp_py_game *)self) ? PyFloat_FromDouble(1.0) : NULL;
}

static PyMethodDef game_methods[] = {
    {"observation_tensor_size", game_observation_size, METH_NOARGS,
     "floats in State.observation_tensor"},
    {"min_utility", game_min_utility, METH_NOARGS, "the least a seat's return can be: 0"},
    {"max_utility", game_max_utility, METH_NOARGS, "the most a seat's return can be: 1"},
    {"utility_sum", game_max_utility, METH_NOARGS,
     "what the returns of all seats add up to: 1 (shares of the win)"},
    {"new_initial_state", (PyCFunction)(void (*)(void))game_new_initial_state,
     METH_VARARGS | METH_KEYWORDS,
     "new_initial_state(seed=None) -> State: a new game, dealt from the game's seed or this one"},
    {"deserialize_state", game_deserialize_state, METH_O,
     "deserialize_state(text) -> State: a state from its full-state notation (State.serialize)"},
    {"num_players", game_num_players, METH_NOARGS, "seats in this game"},
    {"num_distinct_actions", game_num_distinct_actions, METH_NOARGS,
     "every action id is below this; legal action masks have this length"},
    {"observation_tensor_shape", game_observation_shape, METH_NOARGS,
     "the shape of State.observation_tensor: (size,)"},
    {"observation_fields", game_observation_fields, METH_NOARGS,
     "[(name, offset, shape, meaning)]: the named slices of the observation tensor"},
    {"option_specs", game_option_specs, METH_NOARGS, "the game's own options and their ranges"},
    {"options_text", game_options_text, METH_NOARGS,
     "the options in effect as 'players=2 seed=7 ...'"},
    {"rules", game_rules, METH_NOARGS, "the rules as implemented (docs/rules/<game>.md)"},
    {"__reduce__", game_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef game_getset[] = {
    {"id", game_id, NULL, "the game's id, e.g. 'danger-at-the-walls'", NULL},
    {"title", game_title, NULL, "the game's name for people", NULL},
    {"seed", game_seed, NULL, "the seed new_initial_state() deals from", NULL},
    {"has_chance", game_has_chance, NULL, "shuffles or draws decide part of the game", NULL},
    {"has_hidden_information", game_has_hidden, NULL, "some player cannot see everything", NULL},
    {"turn_cap", game_turn_cap, NULL,
     "tools stop a game still going after this many turns (0: every game ends by its rules)", NULL},
    {"seat_names", game_seat_names, NULL, "the seats' names, e.g. ('Blue', 'Red')", NULL},
    {"bench_options", game_bench_options, NULL,
     "the options of `ramparts bench`'s workload for this game, e.g. 'tournament=1'", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject rp_py_game_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ramparts._ramparts.Game",
    .tp_basicsize = sizeof(rp_py_game),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Game(game_id, options=['players=2', 'seed=7', ...]): a game with its options "
              "resolved; ramparts.load_game is the friendly way to make one",
    .tp_new = PyType_GenericNew,
    .tp_init = game_init,
    .tp_repr = game_repr,
    .tp_methods = game_methods,
    .tp_getset = game_getset,
};

/* ---- State ---- */

/* A new State holding a copy of st, with root as its root (a new reference is taken) and no
 * history yet. */
static rp_py_state *state_alloc(rp_py_game *game, const void *st, PyObject *root)
{
    const Py_ssize_t size = (Py_ssize_t)game->game->state_size;
    rp_py_state *s = PyObject_NewVar(rp_py_state, &rp_py_state_type, size);
    if (!s)
        return NULL;
    s->game = (rp_py_game *)Py_NewRef((PyObject *)game);
    s->root = Py_NewRef(root);
    s->history = NULL;
    s->history_len = s->history_cap = 0;
    s->num_legal = -1;
    memcpy(s->st, st, (size_t)size);
    return s;
}

rp_py_state *rp_py_state_new(rp_py_game *game, const void *st)
{
    PyObject *root = PyBytes_FromStringAndSize(st, (Py_ssize_t)game->game->state_size);
    if (!root)
        return NULL;
    rp_py_state *s = state_alloc(game, st, root);
    Py_DECREF(root);
    return s;
}

static void state_dealloc(PyObject *self)
{
    rp_py_state *s = (rp_py_state *)self;
    Py_XDECREF(s->game);
    Py_XDECREF(s->root);
    PyMem_Free(s->history);
    PyObject_Free(self);
}

/* Append an action to the history, growing it by doubling. */
static int history_push(rp_py_state *s, rp_action action)
{
    if (s->history_len == s->history_cap) {
        const Py_ssize_t cap = s->history_cap ? 2 * s->history_cap : 64;
        rp_action *grown = PyMem_Realloc(s->history, (size_t)cap * sizeof *grown);
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        s->history = grown;
        s->history_cap = cap;
    }
    s->history[s->history_len++] = action;
    return 0;
}

/* A copy of s with the same root and history. */
static rp_py_state *state_copy(const rp_py_state *s)
{
    rp_py_state *copy = state_alloc(s->game, s->st, s->root);
    if (!copy || s->history_len == 0)
        return copy;
    copy->history = PyMem_Malloc((size_t)s->history_len * sizeof *copy->history);
    if (!copy->history) {
        Py_DECREF(copy);
        return (rp_py_state *)PyErr_NoMemory();
    }
    memcpy(copy->history, s->history, (size_t)s->history_len * sizeof *copy->history);
    copy->history_len = copy->history_cap = s->history_len;
    return copy;
}

int rp_py_state_legal(rp_py_state *s)
{
    if (s->num_legal < 0)
        s->num_legal = s->game->game->legal_actions(s->st, s->legal);
    return s->num_legal;
}

static const rp_game *game_of(const rp_py_state *s)
{
    return s->game->game;
}

static PyObject *state_current_player(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_state *s = (rp_py_state *)self;
    return PyLong_FromLong(game_of(s)->current_player(s->st));
}

static PyObject *state_is_terminal(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_state *s = (rp_py_state *)self;
    return PyBool_FromLong(game_of(s)->current_player(s->st) == RP_TERMINAL);
}

static PyObject *state_is_chance_node(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    Py_RETURN_FALSE; /* chance is sampled inside apply_action from the state's own generator */
}

/* legal_actions(player=None): the legal action ids, ascending as the game lists them; [] when
 * `player` is given and is not the player to act (as OpenSpiel). */
static PyObject *state_legal_actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    rp_py_state *s = (rp_py_state *)self;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "legal_actions(player=None) takes at most 1 argument");
        return NULL;
    }
    if (nargs == 1 && args[0] != Py_None) {
        const long p = PyLong_AsLong(args[0]);
        if (p == -1 && PyErr_Occurred())
            return NULL;
        if (p != game_of(s)->current_player(s->st))
            return PyList_New(0);
    }
    const int n = rp_py_state_legal(s);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *a = PyLong_FromUnsignedLong(s->legal[i]);
        if (!a) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, a);
    }
    return list;
}

/* A new 1-D numpy array of `count` items of dtype `dtype` (a numpy attribute name). */
static PyObject *new_array(Py_ssize_t count, const char *dtype)
{
    PyObject *zeros = rp_py_numpy("zeros"), *type = rp_py_numpy(dtype);
    PyObject *array = zeros && type ? PyObject_CallFunction(zeros, "nO", count, type) : NULL;
    Py_XDECREF(zeros);
    Py_XDECREF(type);
    return array;
}

/* Fill `out` (a given writable array) or a new numpy array through fill(). */
typedef void (*fill_fn)(rp_py_state *s, int player, void *data);

static PyObject *fill_array(rp_py_state *s, int player, PyObject *out, Py_ssize_t count,
                            const char *dtype, const char *formats, const char *what, fill_fn fill)
{
    PyObject *array = out && out != Py_None ? Py_NewRef(out) : new_array(count, dtype);
    if (!array)
        return NULL;
    Py_buffer view;
    if (rp_py_get_buffer(array, &view, formats, count, true, what) < 0) {
        Py_DECREF(array);
        return NULL;
    }
    fill(s, player, view.buf);
    PyBuffer_Release(&view);
    return array;
}

static void fill_mask(rp_py_state *s, int player, void *data)
{
    (void)player;
    const int n = rp_py_state_legal(s);
    memset(data, 0, game_of(s)->num_actions);
    for (int i = 0; i < n; i++)
        ((uint8_t *)data)[s->legal[i]] = 1;
}

static PyObject *state_legal_actions_mask(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"out", NULL};
    rp_py_state *s = (rp_py_state *)self;
    PyObject *out = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", keywords, &out))
        return NULL;
    return fill_array(s, 0, out, (Py_ssize_t)game_of(s)->num_actions, "bool_", "?bB", "the mask",
                      fill_mask);
}

/* Apply a legal action; an illegal one raises ValueError with the game's reason. */
static PyObject *state_apply_action(PyObject *self, PyObject *arg)
{
    rp_py_state *s = (rp_py_state *)self;
    rp_action action;
    if (action_of(s->game, arg, &action) < 0)
        return NULL;
    const int n = rp_py_state_legal(s);
    for (int i = 0; i < n; i++)
        if (s->legal[i] == action) {
            if (history_push(s, action) < 0)
                return NULL;
            game_of(s)->apply(s->st, action);
            s->num_legal = -1;
            Py_RETURN_NONE;
        }
    char why[RP_ERROR_TEXT];
    rp_explain_illegal(game_of(s), s->st, action, why, sizeof why);
    PyErr_Format(PyExc_ValueError, "action %u is not legal here: %s", (unsigned)action, why);
    return NULL;
}

static PyObject *returns_list(rp_py_state *s, bool only_when_over)
{
    double r[RP_MAX_PLAYERS] = {0};
    const int players = game_of(s)->num_players(s->st);
    if (!only_when_over || game_of(s)->current_player(s->st) == RP_TERMINAL)
        game_of(s)->returns(s->st, r);
    PyObject *list = PyList_New(players);
    for (int p = 0; list && p < players; p++)
        PyList_SET_ITEM(list, p, PyFloat_FromDouble(r[p]));
    return list;
}

static PyObject *state_returns(PyObject *self, PyObject *unused)
{
    (void)unused;
    return returns_list((rp_py_state *)self, true);
}

static PyObject *state_clone(PyObject *self, PyObject *unused)
{
    (void)unused;
    return (PyObject *)state_copy((rp_py_state *)self);
}

static PyObject *state_deepcopy(PyObject *self, PyObject *memo)
{
    (void)memo;
    return state_clone(self, NULL);
}

/* action_to_string(action) or action_to_string(player, action), as OpenSpiel spells both. */
static PyObject *state_action_to_string(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    rp_py_state *s = (rp_py_state *)self;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "action_to_string([player,] action)");
        return NULL;
    }
    rp_action action;
    if (action_of(s->game, args[nargs - 1], &action) < 0)
        return NULL;
    char text[RP_ACTION_TEXT];
    if (game_of(s)->action_to_text(s->st, action, text, sizeof text) < 0) {
        PyErr_Format(PyExc_ValueError, "action %u has no notation here", (unsigned)action);
        return NULL;
    }
    return PyUnicode_FromString(text);
}

/* string_to_action(text) or string_to_action(player, text): a legal move's id. */
static PyObject *state_string_to_action(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    rp_py_state *s = (rp_py_state *)self;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "string_to_action([player,] text)");
        return NULL;
    }
    const char *text = PyUnicode_AsUTF8(args[nargs - 1]);
    if (!text)
        return NULL;
    rp_action action;
    rp_error err;
    if (rp_parse_move(game_of(s), s->st, text, &action, &err) < 0) {
        PyErr_Format(PyExc_ValueError, "'%s': %s", text, err.msg);
        return NULL;
    }
    return PyLong_FromUnsignedLong(action);
}

/* The player named by an optional argument: given, else the player to act (seat 0 once over). */
static int player_arg(rp_py_state *s, PyObject *arg, bool spectator_ok, int *out)
{
    if (arg && arg != Py_None)
        return viewer_of(s->game, s->st, arg, "player", spectator_ok, out);
    const int p = game_of(s)->current_player(s->st);
    *out = p < 0 ? 0 : p;
    return 0;
}

static PyObject *state_observation_string(PyObject *self, PyObject *args)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg = NULL;
    int viewer;
    if (!PyArg_ParseTuple(args, "|O", &arg) || player_arg(s, arg, true, &viewer) < 0)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return PyErr_NoMemory();
    game_of(s)->render(s->st, viewer, out, false);
    fclose(out);
    PyObject *r = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    free(text);
    return r;
}

static void fill_observation(rp_py_state *s, int player, void *data)
{
    game_of(s)->observation_tensor(s->st, player, data);
}

static PyObject *state_observation_tensor(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"player", "out", NULL};
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg = NULL, *out = NULL;
    int player;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", keywords, &arg, &out) ||
        player_arg(s, arg, false, &player) < 0)
        return NULL;
    if (!game_of(s)->observation_tensor) {
        PyErr_Format(PyExc_NotImplementedError, "%s has no observation tensor", game_of(s)->id);
        return NULL;
    }
    return fill_array(s, player, out, (Py_ssize_t)game_of(s)->observation_size, "float32", "f",
                      "out", fill_observation);
}

/* view(player=None): what that seat (or SPECTATOR) may know, as plain data. */
static PyObject *state_view(PyObject *self, PyObject *args)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg = NULL;
    int viewer;
    if (!PyArg_ParseTuple(args, "|O", &arg) || player_arg(s, arg, true, &viewer) < 0)
        return NULL;
    return json_to_python(game_of(s)->view_json(s->st, viewer));
}

static PyObject *state_resample_from_infostate(PyObject *self, PyObject *args)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg;
    unsigned long long seed;
    int viewer;
    if (!PyArg_ParseTuple(args, "OK", &arg, &seed) ||
        viewer_of(s->game, s->st, arg, "player", true, &viewer) < 0)
        return NULL;
    rp_py_state *copy = rp_py_state_new(s->game, s->st);
    if (!copy)
        return NULL;
    rp_rng rng;
    rp_rng_seed(&rng, seed, 0x5265u);
    game_of(s)->determinize(copy->st, viewer, &rng);
    return (PyObject *)copy;
}

static PyObject *state_serialize(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_state *s = (rp_py_state *)self;
    char text[RP_STATE_TEXT];
    if (game_of(s)->state_to_text(s->st, text, sizeof text) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the state does not fit its notation");
        return NULL;
    }
    return PyUnicode_FromString(text);
}

/* events(action, viewer=SPECTATOR): what playing `action` here would tell that viewer. */
static PyObject *state_events(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"action", "viewer", NULL};
    rp_py_state *s = (rp_py_state *)self;
    PyObject *action_arg, *viewer_arg = NULL;
    rp_action action;
    int viewer = RP_SPECTATOR;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", keywords, &action_arg, &viewer_arg) ||
        action_of(s->game, action_arg, &action) < 0)
        return NULL;
    if (viewer_arg && viewer_of(s->game, s->st, viewer_arg, "viewer", true, &viewer) < 0)
        return NULL;
    rp_error err;
    cJSON *events = rp_events(game_of(s), s->st, action, viewer, &err);
    if (!events) {
        PyErr_Format(PyExc_ValueError, "action %u: %s", (unsigned)action, err.msg);
        return NULL;
    }
    return json_to_python(events);
}

/* action_data(action): the action as plain data ({"kind", "id", "text", ...}). */
static PyObject *state_action_data(PyObject *self, PyObject *arg)
{
    rp_py_state *s = (rp_py_state *)self;
    rp_action action;
    if (action_of(s->game, arg, &action) < 0)
        return NULL;
    cJSON *json = rp_action_json(game_of(s), s->st, action);
    if (!json) {
        PyErr_Format(PyExc_ValueError, "action %u has no data form here", (unsigned)action);
        return NULL;
    }
    return json_to_python(json);
}

static PyObject *state_turn_number(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_state *s = (rp_py_state *)self;
    return PyLong_FromLong(game_of(s)->turn_number(s->st));
}

static PyObject *state_num_players(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_state *s = (rp_py_state *)self;
    return PyLong_FromLong(game_of(s)->num_players(s->st));
}

static PyObject *state_get_game(PyObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef((PyObject *)((rp_py_state *)self)->game);
}

static PyObject *state_reduce(PyObject *self, PyObject *unused)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *text = state_serialize(self, unused);
    if (!text)
        return NULL;
    PyObject *loader = PyObject_GetAttrString((PyObject *)s->game, "deserialize_state");
    PyObject *r = loader ? Py_BuildValue("(N(N))", loader, text) : NULL;
    if (!loader)
        Py_DECREF(text);
    return r;
}

static PyObject *state_str(PyObject *self)
{
    return state_serialize(self, NULL);
}

/* ---- history: what the State has been through since its root ---- */

static PyObject *state_history(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_state *s = (rp_py_state *)self;
    PyObject *list = PyList_New(s->history_len);
    for (Py_ssize_t i = 0; list && i < s->history_len; i++) {
        PyObject *a = PyLong_FromUnsignedLong(s->history[i]);
        if (!a) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, a);
    }
    return list;
}

static PyObject *state_move_number(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromSsize_t(((rp_py_state *)self)->history_len);
}

/* child(action): a copy with the action applied (ValueError if it is not legal). */
static PyObject *state_child(PyObject *self, PyObject *arg)
{
    rp_py_state *copy = state_copy((rp_py_state *)self);
    if (!copy)
        return NULL;
    PyObject *r = state_apply_action((PyObject *)copy, arg);
    if (!r) {
        Py_DECREF(copy);
        return NULL;
    }
    Py_DECREF(r);
    return (PyObject *)copy;
}

/* The state after the first `moves` actions of s's history, into st. */
static void replay(const rp_py_state *s, Py_ssize_t moves, void *st)
{
    memcpy(st, PyBytes_AS_STRING(s->root), game_of(s)->state_size);
    for (Py_ssize_t i = 0; i < moves; i++)
        game_of(s)->apply(st, s->history[i]);
}

/* undo_action(player, action): take back the last action, which `player` played (as
 * OpenSpiel); the state before it is replayed from the root. */
static PyObject *state_undo_action(PyObject *self, PyObject *args)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *player_arg, *action_arg;
    rp_action action;
    long player;
    if (!PyArg_ParseTuple(args, "OO", &player_arg, &action_arg) ||
        action_of(s->game, action_arg, &action) < 0)
        return NULL;
    if ((player = PyLong_AsLong(player_arg)) == -1 && PyErr_Occurred())
        return NULL;
    if (s->history_len == 0 || s->history[s->history_len - 1] != action) {
        PyErr_Format(PyExc_ValueError, "action %u is not the last action of this state's history",
                     (unsigned)action);
        return NULL;
    }
    rp_state before;
    replay(s, s->history_len - 1, &before);
    if (game_of(s)->current_player(&before) != player) {
        PyErr_Format(PyExc_ValueError, "the last action was played by seat %d, not %ld",
                     game_of(s)->current_player(&before), player);
        return NULL;
    }
    memcpy(s->st, &before, game_of(s)->state_size);
    s->history_len--;
    s->num_legal = -1;
    Py_RETURN_NONE;
}

static PyObject *state_player_return(PyObject *self, PyObject *arg)
{
    rp_py_state *s = (rp_py_state *)self;
    const int seat = rp_py_seat(s->game, s->st, arg, "player");
    if (seat < 0)
        return NULL;
    PyObject *all = returns_list(s, true);
    if (!all)
        return NULL;
    PyObject *r = Py_NewRef(PyList_GET_ITEM(all, seat));
    Py_DECREF(all);
    return r;
}

/* The events of `action` in st as `viewer` is told them, one line of text each, into out. */
static int write_events(const rp_game *game, const void *st, rp_action action, int viewer,
                        FILE *out)
{
    rp_error err;
    cJSON *events = rp_events(game, st, action, viewer, &err);
    if (!events) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s", game->id, err.msg);
        return -1;
    }
    const cJSON *event;
    cJSON_ArrayForEach (event, events) {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(event, "text");
        fprintf(out, "%s\n", cJSON_IsString(text) ? text->valuestring : "?");
    }
    cJSON_Delete(events);
    return 0;
}

/* information_state_string(player=None): everything that seat has been told, in order (perfect
 * recall): its screen at the root, then each action's events as that seat is told them. */
static PyObject *state_information_state_string(PyObject *self, PyObject *args)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg = NULL;
    int seat;
    if (!PyArg_ParseTuple(args, "|O", &arg) || player_arg(s, arg, false, &seat) < 0)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return PyErr_NoMemory();
    rp_state st;
    replay(s, 0, &st);
    game_of(s)->render(&st, seat, out, false);
    int failed = 0;
    for (Py_ssize_t i = 0; i < s->history_len && !failed; i++) {
        fprintf(out, "-- move %zd\n", i + 1);
        failed = write_events(game_of(s), &st, s->history[i], seat, out) < 0;
        game_of(s)->apply(&st, s->history[i]);
    }
    fclose(out);
    PyObject *r = failed ? NULL : PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    free(text);
    return r;
}

/* By the full state (as ==): FNV-1a over its bytes. */
static Py_hash_t state_hash(PyObject *self)
{
    const rp_py_state *s = (rp_py_state *)self;
    uint64_t h = 14695981039346656037u ^ (uint64_t)(uintptr_t)game_of(s);
    for (size_t i = 0; i < game_of(s)->state_size; i++)
        h = (h ^ s->st[i]) * 1099511628211u;
    const Py_hash_t r = (Py_hash_t)h;
    return r == -1 ? -2 : r;
}

static PyObject *state_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &rp_py_state_type) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    const rp_py_state *x = (rp_py_state *)a, *y = (rp_py_state *)b;
    const bool same =
        x->game->game == y->game->game && memcmp(x->st, y->st, x->game->game->state_size) == 0;
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyMethodDef state_methods[] = {
    {"current_player", state_current_player, METH_NOARGS,
     "the seat to act, or TERMINAL (-1) once the game is over"},
    {"is_terminal", state_is_terminal, METH_NOARGS, "True once the game is over"},
    {"is_chance_node", state_is_chance_node, METH_NOARGS,
     "always False: chance is sampled inside apply_action from the state's generator"},
    {"legal_actions", (PyCFunction)(void (*)(void))state_legal_actions, METH_FASTCALL,
     "legal_actions(player=None) -> [int]: the legal action ids ([] when over, or when player "
     "is not the one to act)"},
    {"legal_actions_mask", (PyCFunction)(void (*)(void))state_legal_actions_mask,
     METH_VARARGS | METH_KEYWORDS,
     "legal_actions_mask(out=None) -> numpy bool array of num_distinct_actions, True where "
     "legal (written into out when given)"},
    {"apply_action", state_apply_action, METH_O,
     "apply_action(action): play a legal action (ValueError with the reason if not legal)"},
    {"returns", state_returns, METH_NOARGS,
     "each seat's share of the win once over (1 to a sole winner), zeros before"},
    {"rewards", state_returns, METH_NOARGS,
     "the same as returns(): the games pay out only at the end"},
    {"clone", state_clone, METH_NOARGS, "an independent copy"},
    {"__copy__", state_clone, METH_NOARGS, NULL},
    {"__deepcopy__", state_deepcopy, METH_O, NULL},
    {"action_to_string", (PyCFunction)(void (*)(void))state_action_to_string, METH_FASTCALL,
     "action_to_string([player,] action) -> the move in the game's notation"},
    {"string_to_action", (PyCFunction)(void (*)(void))state_string_to_action, METH_FASTCALL,
     "string_to_action([player,] text) -> the id of that legal move (ValueError if not)"},
    {"observation_string", state_observation_string, METH_VARARGS,
     "observation_string(player=None) -> the screen of that seat (or SPECTATOR): only what "
     "it may see"},
    {"observation_tensor", (PyCFunction)(void (*)(void))state_observation_tensor,
     METH_VARARGS | METH_KEYWORDS,
     "observation_tensor(player=None, out=None) -> float32 numpy array of what that seat may "
     "see (written into out when given); layout: Game.observation_fields()"},
    {"view", state_view, METH_VARARGS,
     "view(player=None) -> dict: what that seat (or SPECTATOR) may know, as plain data"},
    {"resample_from_infostate", state_resample_from_infostate, METH_VARARGS,
     "resample_from_infostate(player, seed) -> a State that player cannot tell from this one, "
     "everything hidden from them drawn at random"},
    {"serialize", state_serialize, METH_NOARGS,
     "the full-state notation (hidden cards included): Game.deserialize_state reads it"},
    {"events", (PyCFunction)(void (*)(void))state_events, METH_VARARGS | METH_KEYWORDS,
     "events(action, viewer=SPECTATOR) -> [dict]: what playing action here would tell viewer"},
    {"action_data", state_action_data, METH_O,
     "action_data(action) -> dict: the action as plain data with its id and text"},
    {"turn_number", state_turn_number, METH_NOARGS, "the turn in progress, as the rules count"},
    {"num_players", state_num_players, METH_NOARGS, "seats in this game"},
    {"get_game", state_get_game, METH_NOARGS, "the Game this state belongs to"},
    {"__reduce__", state_reduce, METH_NOARGS, NULL},
    {"history", state_history, METH_NOARGS,
     "the actions applied since this State was made (a new deal, deserialize_state, an env)"},
    {"move_number", state_move_number, METH_NOARGS, "len(history())"},
    {"child", state_child, METH_O, "child(action) -> a copy with action applied"},
    {"undo_action", state_undo_action, METH_VARARGS,
     "undo_action(player, action): take back the last action (replayed from the start)"},
    {"player_return", state_player_return, METH_O, "player_return(player) -> returns()[player]"},
    {"information_state_string", state_information_state_string, METH_VARARGS,
     "information_state_string(player=None) -> everything that seat has been told, in order "
     "(perfect recall): its screen at the start, then every action's events as told to it"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject rp_py_state_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ramparts._ramparts.State",
    .tp_basicsize = sizeof(rp_py_state),
    .tp_itemsize = 1,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game state (Game.new_initial_state makes one)",
    .tp_hash = state_hash,
    .tp_dealloc = state_dealloc,
    .tp_str = state_str,
    .tp_richcompare = state_richcompare,
    .tp_methods = state_methods,
};

/* ---- the module ---- */

static PyObject *module_games(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(rp_num_games);
    for (int i = 0; list && i < rp_num_games; i++)
        PyList_SET_ITEM(list, i, PyUnicode_FromString(rp_games[i]->id));
    return list;
}

/* random_playouts(game, games, seed): the workload of `ramparts bench`, in C: `games` games
 * dealt from seed, seed + 1, ..., each move uniformly random from a generator seeded (seed, 1).
 * Returns the number of actions played (a signature of the rules); time it from Python. */
static PyObject *module_random_playouts(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *game_obj;
    long games;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!lK", &rp_py_game_type, &game_obj, &games, &seed))
        return NULL;
    const rp_py_game *g = (rp_py_game *)game_obj;
    if (!game_ready(g))
        return NULL;
    const rp_game *game = g->game;
    rp_rng rng;
    rp_rng_seed(&rng, seed, 1);
    rp_config cfg = g->cfg;
    unsigned long long actions = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (long i = 0; i < games && !failed; i++) {
        rp_state st;
        rp_action legal[RP_MAX_LEGAL];
        rp_error err;
        cfg.seed = seed + (uint64_t)i;
        failed = game->init(&st, &cfg, &err) < 0;
        while (!failed && game->current_player(&st) != RP_TERMINAL) {
            const int n = game->legal_actions(&st, legal);
            game->apply(&st, legal[rp_rng_below(&rng, (uint32_t)n)]);
            actions++;
        }
    }
    Py_END_ALLOW_THREADS;
    if (failed) {
        PyErr_Format(PyExc_ValueError, "%s: cannot start a game", game->id);
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(actions);
}

static PyMethodDef module_methods[] = {
    {"games", module_games, METH_NOARGS, "the ids of every game"},
    {"random_playouts", module_random_playouts, METH_VARARGS,
     "random_playouts(game, games, seed) -> actions: `ramparts bench`'s workload in C"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ramparts._ramparts",
    .m_doc = "The Ramparts C library from Python (use the package ramparts).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__ramparts(void);

PyMODINIT_FUNC PyInit__ramparts(void)
{
    PyTypeObject *types[] = {&rp_py_game_type, &rp_py_state_type, &rp_py_vector_type,
                             &rp_py_bot_type};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    static const char *const names[] = {"Game", "State", "VectorCore", "Bot"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyModule_AddObjectRef(m, names[i], (PyObject *)types[i]) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    if (PyModule_AddIntConstant(m, "TERMINAL", RP_TERMINAL) < 0 ||
        PyModule_AddIntConstant(m, "SPECTATOR", RP_SPECTATOR) < 0 ||
        PyModule_AddIntConstant(m, "MAX_LEGAL", RP_MAX_LEGAL) < 0 ||
        PyModule_AddStringConstant(m, "__version__", RP_VERSION_STRING) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
