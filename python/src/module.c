/* module.c — the CPython module ramparts._ramparts: the helpers its files share (numpy, JSON,
 * buffers, seats and action ids from Python) and the module's init. Game is game.c, State is
 * state.c, VectorEnv's core vector.c, Bot bot.c. Built on the public C API only; bad input
 * raises ValueError / TypeError naming what was wrong and changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ramparts/engine.h"
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
PyObject *rp_py_json_from_cjson(cJSON *json)
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
int rp_py_viewer(const rp_py_game *g, const void *st, PyObject *arg, const char *what,
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
    return rp_py_viewer(game, st, arg, what, false, &seat) < 0 ? -1 : seat;
}

/* An action id from a Python int within the game's range (legality is checked elsewhere). */
int rp_py_action(const rp_py_game *g, PyObject *arg, rp_action *out)
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
    if (!rp_py_game_ready(g))
        return NULL;
    rp_config cfg = g->cfg;
    cfg.seed = seed;
    uint64_t actions = 0;
    rp_error err;
    int failed;
    Py_BEGIN_ALLOW_THREADS;
    failed = rp_random_playouts(g->game, &cfg, games, &actions, &err) < 0;
    Py_END_ALLOW_THREADS;
    if (failed) {
        PyErr_Format(PyExc_ValueError, "%s: cannot start a game", g->game->id);
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
        PyModule_AddIntConstant(m, "CHANCE", RP_PY_CHANCE) < 0 ||
        PyModule_AddIntConstant(m, "SPECTATOR", RP_SPECTATOR) < 0 ||
        PyModule_AddIntConstant(m, "MAX_LEGAL", RP_MAX_LEGAL) < 0 ||
        PyModule_AddStringConstant(m, "__version__", RP_VERSION_STRING) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
