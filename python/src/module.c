/* module.c — the CPython module ramparts._ramparts: its functions and its init, on top of its
 * other files (Game is game.c, State state.c, VectorEnv's core vector.c, Bot bot.c, Solver
 * solve.c; the helpers they share helpers.c), which never call back into it. Built on the public C API
 * only; bad input raises ValueError / TypeError naming what was wrong and changes nothing. */
#include "ramparts/engine.h"
#include "ramparts/version.h"
#include "ramparts_py.h"

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
    uint64_t seed;
    if (!PyArg_ParseTuple(args, "O!lO&", &rp_py_game_type, &game_obj, &games, rp_py_seed, &seed))
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
                             &rp_py_bot_type, &rp_py_solver_type};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    static const char *const names[] = {"Game", "State", "VectorCore", "Bot", "Solver"};
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
