/* helpers.c — the helpers the CPython module's files share (python/src/, ramparts_py.h):
 * numpy and json from C, buffers, and seats, viewers and action ids from Python objects. The
 * bottom of the module's files: it calls none of the others. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ramparts_py.h"

static PyObject *numpy_module;
static PyObject *json_loads;

int rp_py_seed(PyObject *obj, void *out)
{
    if (!PyIndex_Check(obj) || PyBool_Check(obj)) { /* ints and numpy's, not 1.5, "7", True */
        PyErr_Format(PyExc_TypeError, "a seed is a whole number from 0 to 2**64 - 1, not %R", obj);
        return 0;
    }
    PyObject *number = PyNumber_Index(obj);
    const unsigned long long seed = number ? PyLong_AsUnsignedLongLong(number) : 0;
    Py_XDECREF(number);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "a seed is a whole number from 0 to 2**64 - 1, not %R", obj);
        return 0;
    }
    *(uint64_t *)out = seed;
    return 1;
}

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
