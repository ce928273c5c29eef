/* solve.c — ramparts._ramparts.Solver: the exact solver of ramparts/solve.h (CFR+, best
 * responses, exploitability, the average policy) over a Game of small options; the GIL is
 * released while it builds and iterates. ramparts/solve.py wraps it (ramparts.solve). */
#include "ramparts/solve.h"
#include "ramparts_py.h"

typedef struct {
    PyObject_HEAD
    rp_solver *solver;
} rp_py_solver;

static int solver_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"game", "max_nodes", NULL};
    rp_py_solver *s = (rp_py_solver *)self;
    PyObject *game_obj;
    Py_ssize_t max_nodes = 20000000;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!|n", keywords, &rp_py_game_type, &game_obj,
                                     &max_nodes))
        return -1;
    if (s->solver) {
        PyErr_SetString(PyExc_RuntimeError, "a Solver is initialised once");
        return -1;
    }
    if (max_nodes < 1) {
        PyErr_SetString(PyExc_ValueError, "max_nodes must be at least 1");
        return -1;
    }
    const rp_py_game *g = (rp_py_game *)game_obj;
    if (!rp_py_game_ready(g))
        return -1;
    rp_error err;
    int rc;
    rp_solver *solver = NULL;
    Py_BEGIN_ALLOW_THREADS;
    rc = rp_solver_new(g->game, &g->cfg, (size_t)max_nodes, &solver, &err);
    Py_END_ALLOW_THREADS;
    if (rc < 0) {
        PyErr_Format(rc == RP_ENOMEM ? PyExc_MemoryError : PyExc_ValueError, "%s: %s", g->game->id,
                     err.msg);
        return -1;
    }
    s->solver = solver;
    return 0;
}

static void solver_dealloc(PyObject *self)
{
    rp_solver_free(((rp_py_solver *)self)->solver);
    Py_TYPE(self)->tp_free(self);
}

static rp_solver *ready(PyObject *self)
{
    rp_solver *s = ((rp_py_solver *)self)->solver;
    if (!s)
        PyErr_SetString(PyExc_RuntimeError, "the Solver was not initialised");
    return s;
}

/* "average" or "uniform". */
static int policy_arg(const char *name, rp_solve_policy *out)
{
    if (!name || strcmp(name, "average") == 0)
        *out = RP_SOLVE_AVERAGE;
    else if (strcmp(name, "uniform") == 0)
        *out = RP_SOLVE_UNIFORM;
    else {
        PyErr_Format(PyExc_ValueError, "policy %R: 'average' or 'uniform'",
                     PyUnicode_FromString(name));
        return -1;
    }
    return 0;
}

static PyObject *solver_iterate(PyObject *self, PyObject *args)
{
    rp_solver *s = ready(self);
    int n;
    if (!s || !PyArg_ParseTuple(args, "i", &n))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "iterations must be >= 0");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    rp_solver_iterate(s, n);
    Py_END_ALLOW_THREADS;
    return Py_NewRef(Py_None);
}

static PyObject *solver_exploitability(PyObject *self, PyObject *args)
{
    rp_solver *s = ready(self);
    const char *name = NULL;
    rp_solve_policy policy;
    if (!s || !PyArg_ParseTuple(args, "|s", &name) || policy_arg(name, &policy) < 0)
        return NULL;
    return PyFloat_FromDouble(rp_solver_exploitability(s, policy));
}

/* best_response(seat, policy="average") and value(seat, policy="average"). */
static PyObject *seat_figure(PyObject *self, PyObject *args, bool best)
{
    rp_solver *s = ready(self);
    int seat;
    const char *name = NULL;
    rp_solve_policy policy;
    if (!s || !PyArg_ParseTuple(args, "i|s", &seat, &name) || policy_arg(name, &policy) < 0)
        return NULL;
    if (seat < 0 || seat > 1) {
        PyErr_Format(PyExc_ValueError, "seat %d: the seats are 0 and 1", seat);
        return NULL;
    }
    return PyFloat_FromDouble(best ? rp_solver_best_response(s, policy, seat)
                                   : rp_solver_value(s, policy, seat));
}

static PyObject *solver_best_response(PyObject *self, PyObject *args)
{
    return seat_figure(self, args, true);
}

static PyObject *solver_value(PyObject *self, PyObject *args)
{
    return seat_figure(self, args, false);
}

/* infosets() -> [(seat, history, actions, probabilities)]: each information state, a history
 * reaching it and the average policy there. */
static PyObject *solver_infosets(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_solver *s = ready(self);
    if (!s)
        return NULL;
    const size_t n = rp_solver_infosets(s);
    PyObject *list = PyList_New((Py_ssize_t)n);
    uint32_t history[1024];
    rp_action actions[RP_MAX_LEGAL];
    double probs[RP_MAX_LEGAL];
    for (size_t i = 0; list && i < n; i++) {
        int seat;
        size_t len;
        const int count = rp_solver_infoset(s, i, &seat, history, 1024, &len, actions, probs);
        PyObject *h = PyList_New((Py_ssize_t)(len < 1024 ? len : 1024));
        PyObject *a = PyList_New(count), *p = PyList_New(count);
        for (size_t k = 0; h && k < len && k < 1024; k++)
            PyList_SET_ITEM(h, (Py_ssize_t)k, PyLong_FromUnsignedLong(history[k]));
        for (int k = 0; a && p && k < count; k++) {
            PyList_SET_ITEM(a, k, PyLong_FromUnsignedLong(actions[k]));
            PyList_SET_ITEM(p, k, PyFloat_FromDouble(probs[k]));
        }
        PyObject *item = h && a && p ? Py_BuildValue("(iNNN)", seat, h, a, p) : NULL;
        if (!item) {
            Py_XDECREF(h);
            Py_XDECREF(a);
            Py_XDECREF(p);
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    return list;
}

static PyObject *solver_sizes(PyObject *self, void *which)
{
    rp_solver *s = ready(self);
    if (!s)
        return NULL;
    switch ((intptr_t)which) {
    case 0:
        return PyLong_FromSize_t(rp_solver_nodes(s));
    case 1:
        return PyLong_FromSize_t(rp_solver_terminals(s));
    case 2:
        return PyLong_FromSize_t(rp_solver_infosets(s));
    case 3:
        return PyLong_FromSize_t(rp_solver_recall_breaks(s));
    default:
        return PyLong_FromLong(rp_solver_iterations(s));
    }
}

static PyMethodDef solver_methods[] = {
    {"iterate", solver_iterate, METH_VARARGS, "iterate(n): n iterations of CFR+"},
    {"exploitability", solver_exploitability, METH_VARARGS,
     "exploitability(policy='average'): (best responses of both seats - 1) / 2"},
    {"best_response", solver_best_response, METH_VARARGS,
     "best_response(seat, policy='average'): seat's return best responding to policy"},
    {"value", solver_value, METH_VARARGS,
     "value(seat, policy='average'): seat's return when both play policy"},
    {"infosets", solver_infosets, METH_NOARGS,
     "infosets() -> [(seat, history, actions, average probabilities)]"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef solver_getset[] = {
    {"nodes", solver_sizes, NULL, "nodes of the tree", (void *)0},
    {"terminals", solver_sizes, NULL, "terminal nodes", (void *)1},
    {"num_infosets", solver_sizes, NULL, "information states", (void *)2},
    {"recall_breaks", solver_sizes, NULL, "information states with two pasts (0: perfect recall)",
     (void *)3},
    {"iterations", solver_sizes, NULL, "CFR+ iterations run", (void *)4},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject rp_py_solver_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ramparts.Solver",
    .tp_basicsize = sizeof(rp_py_solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Solver(game, max_nodes=20000000): the whole tree of a two-seat game of small "
              "options, solved by CFR+ (docs/learning/solve.md)",
    .tp_new = PyType_GenericNew,
    .tp_init = solver_init,
    .tp_dealloc = solver_dealloc,
    .tp_methods = solver_methods,
    .tp_getset = solver_getset,
};
