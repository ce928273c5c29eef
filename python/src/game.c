/* game.c — ramparts._ramparts.Game: a game with its options resolved (the factory of States),
 * its traits, options and observation layout. Immutable once initialised. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts_py.h"

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
    bool explicit_chance = false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        const char *kv = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        rp_error err;
        /* Not an option of the game but of the Python States: chance nodes (explicit). */
        if (kv && (strcmp(kv, "explicit-chance=1") == 0 || strcmp(kv, "explicit-chance=0") == 0)) {
            explicit_chance = kv[strlen(kv) - 1] == '1';
            continue;
        }
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
    g->explicit_chance = explicit_chance;
    rp_config_of(game, &probe, &cfg, &g->played);
    g->players = game->num_players(&probe);
    return 0;
}

bool rp_py_game_ready(const rp_py_game *g)
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
    if (!rp_py_game_ready(g) || !PyArg_ParseTupleAndKeywords(args, kwargs, "|O", keywords, &seed))
        return NULL;
    rp_config cfg = g->cfg;
    if (seed != Py_None && !rp_py_seed(seed, &cfg.seed))
        return NULL;
    if (g->explicit_chance) /* the deal is chance nodes; a seed has nothing to decide */
        return (PyObject *)rp_py_state_new_deal(g);
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
    if (!rp_py_game_ready(g) || !text)
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
    if (!rp_py_game_ready(g))
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
    if (!rp_py_game_ready(g))
        return NULL;
    if (rp_config_to_text(g->game, &g->cfg, text, sizeof text) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "options do not fit their text");
        return NULL;
    }
    return PyUnicode_FromFormat("%s%s", text, g->explicit_chance ? " explicit-chance=1" : "");
}

static PyObject *game_rules(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_game *g = (rp_py_game *)self;
    if (!rp_py_game_ready(g))
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
    return rp_py_game_ready((rp_py_game *)self) ? game_get_str(((rp_py_game *)self)->game->id)
                                                : NULL;
}

static PyObject *game_title(PyObject *self, void *unused)
{
    (void)unused;
    return rp_py_game_ready((rp_py_game *)self) ? game_get_str(((rp_py_game *)self)->game->title)
                                                : NULL;
}

static PyObject *game_int(PyObject *self, long long value)
{
    return rp_py_game_ready((rp_py_game *)self) ? PyLong_FromLongLong(value) : NULL;
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
    if (!rp_py_game_ready(g))
        return NULL;
    return Py_BuildValue("(I)", (unsigned)g->game->observation_size);
}

static PyObject *game_seed(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return rp_py_game_ready(g) ? PyLong_FromUnsignedLongLong(g->cfg.seed) : NULL;
}

static PyObject *game_flag(PyObject *self, unsigned flag)
{
    const rp_py_game *g = (rp_py_game *)self;
    return rp_py_game_ready(g) ? PyBool_FromLong((g->game->flags & flag) != 0) : NULL;
}

static PyObject *game_has_chance(PyObject *self, void *unused)
{
    (void)unused;
    return game_flag(self, RP_CHANCE);
}

static PyObject *game_explicit_chance(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return rp_py_game_ready(g) ? PyBool_FromLong(g->explicit_chance) : NULL;
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

static PyObject *game_max_chance_outcomes(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return game_int(self, g->game ? g->game->max_chance_outcomes : 0);
}

static PyObject *game_bench_options(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    if (!rp_py_game_ready(g))
        return NULL;
    return PyUnicode_FromString(g->game->bench_options ? g->game->bench_options : "");
}

static PyObject *game_seat_names(PyObject *self, void *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    if (!rp_py_game_ready(g))
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
    return rp_py_game_ready((rp_py_game *)self) ? PyFloat_FromDouble(0.0) : NULL;
}

static PyObject *game_max_utility(PyObject *self, PyObject *unused)
{
    (void)unused;
    return rp_py_game_ready((rp_py_game *)self) ? PyFloat_FromDouble(1.0) : NULL;
}

/* A state of g's options, for the traits that depend on them (max_game_length). */
static int game_sample_state(const rp_py_game *g, rp_state *st)
{
    rp_error err;
    if (g->game->init(st, &g->cfg, &err) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s", g->game->id, err.msg);
        return -1;
    }
    return 0;
}

static PyObject *game_max_game_length(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    rp_state st;
    if (!rp_py_game_ready(g) || game_sample_state(g, &st) < 0)
        return NULL;
    const int length = rp_max_game_length(g->game, &st);
    if (length < 0) {
        PyErr_Format(PyExc_NotImplementedError, "%s sets no bound on its length", g->game->id);
        return NULL;
    }
    return PyLong_FromLong(length);
}

static PyObject *game_information_state_size(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    rp_state st;
    if (!rp_py_game_ready(g) || game_sample_state(g, &st) < 0)
        return NULL;
    const size_t size = rp_information_state_size(g->game, &st);
    if (size == 0) {
        PyErr_Format(PyExc_NotImplementedError, "%s has no information state tensor", g->game->id);
        return NULL;
    }
    return PyLong_FromSize_t(size);
}

static PyObject *game_information_state_shape(PyObject *self, PyObject *unused)
{
    PyObject *size = game_information_state_size(self, unused);
    return size ? Py_BuildValue("(N)", size) : NULL;
}

static PyObject *game_information_state_row_size(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_game *g = (rp_py_game *)self;
    return rp_py_game_ready(g) ? PyLong_FromSize_t(rp_information_state_row_size(g->game)) : NULL;
}

static PyMethodDef game_methods[] = {
    {"max_game_length", game_max_game_length, METH_NOARGS,
     "the most actions a game under these options can take (the rules' bound; see docs)"},
    {"information_state_tensor_size", game_information_state_size, METH_NOARGS,
     "floats in State.information_state_tensor"},
    {"information_state_tensor_shape", game_information_state_shape, METH_NOARGS,
     "the shape of State.information_state_tensor: (size,)"},
    {"information_state_row_size", game_information_state_row_size, METH_NOARGS,
     "floats of one action's row in the information state tensor (after the first "
     "observation_tensor_size floats)"},
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
    {"explicit_chance", game_explicit_chance, NULL,
     "loaded with explicit_chance=True: its States stop at chance nodes (chance_outcomes)", NULL},
    {"turn_cap", game_turn_cap, NULL,
     "tools stop a game still going after this many turns (0: every game ends by its rules)", NULL},
    {"max_chance_outcomes", game_max_chance_outcomes, NULL,
     "the most outcomes one chance event has under explicit chance (0 without chance)", NULL},
    {"seat_names", game_seat_names, NULL, "the seats' names, e.g. ('Blue', 'Red')", NULL},
    {"bench_options", game_bench_options, NULL,
     "the options of `ramparts bench`'s workload for this game, e.g. 'tournament=1'", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* PyVarObject_HEAD_INIT ends with its own comma, which clang-format cannot see: */
/* clang-format off */
PyTypeObject rp_py_game_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ramparts._ramparts.Game",
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
/* clang-format on */
