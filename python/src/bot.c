/* bot.c — ramparts.Bot: the project's AIs ("random", "greedy", "beginner", "easy", "medium",
 * "hard", "ismcts:iters=2000"...) from Python. One Bot plays any game: it makes the C AI for a
 * game the first time it meets it. The search runs with the GIL released, on a copy of the state. */
#include <stdlib.h>
#include <string.h>

#include "ramparts_py.h"

#define BOT_SPEC_TEXT 256

typedef struct {
    PyObject_HEAD
    char spec[BOT_SPEC_TEXT];
    uint64_t seed;
    rp_ai **ais; /* per game of the registry, made on first use */
    int busy;
} rp_py_bot;

static void bot_dealloc(PyObject *self)
{
    rp_py_bot *b = (rp_py_bot *)self;
    if (b->ais) {
        for (int i = 0; i < rp_num_games; i++)
            rp_ai_free(b->ais[i]);
        free(b->ais);
    }
    Py_TYPE(self)->tp_free(self);
}

/* Bot(spec="hard", seed=0): the spec is checked at once (against the first game). */
static int bot_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"spec", "seed", NULL};
    rp_py_bot *b = (rp_py_bot *)self;
    const char *spec = "hard";
    uint64_t seed = 0;
    if (b->ais) {
        PyErr_SetString(PyExc_RuntimeError, "Bot is already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|sO&", keywords, &spec, rp_py_seed, &seed))
        return -1;
    if (strlen(spec) >= sizeof b->spec) {
        PyErr_SetString(PyExc_ValueError, "the AI spec is too long");
        return -1;
    }
    rp_ai *probe;
    rp_error err;
    if (rp_ai_create(rp_games[0], spec, seed, &probe, &err) < 0) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return -1;
    }
    b->ais = calloc((size_t)rp_num_games, sizeof(rp_ai *));
    if (!b->ais) {
        rp_ai_free(probe);
        PyErr_NoMemory();
        return -1;
    }
    b->ais[0] = probe;
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    b->seed = seed;
    return 0;
}

/* The AI for the state's game, made on first use. */
static rp_ai *ai_for(rp_py_bot *b, const rp_game *game)
{
    for (int i = 0; i < rp_num_games; i++) {
        if (rp_games[i] != game)
            continue;
        rp_error err;
        if (!b->ais[i] && rp_ai_create(game, b->spec, b->seed, &b->ais[i], &err) < 0) {
            PyErr_Format(PyExc_ValueError, "%s: %s", game->id, err.msg);
            return NULL;
        }
        return b->ais[i];
    }
    PyErr_SetString(PyExc_ValueError, "the state's game is not in the registry");
    return NULL;
}

/* Choose a move for the player to act in a State (GIL released during the search). */
static int choose(rp_py_bot *b, PyObject *arg, rp_action *action, rp_ai_info *info)
{
    if (!b->ais) {
        PyErr_SetString(PyExc_RuntimeError, "Bot was not initialised");
        return -1;
    }
    if (!PyObject_TypeCheck(arg, &rp_py_state_type)) {
        PyErr_Format(PyExc_TypeError, "a Bot plays a State, not %s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    if (b->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Bot is thinking in another thread");
        return -1;
    }
    const rp_py_state *s = (rp_py_state *)arg;
    const rp_game *game = s->game->game;
    if (game->current_player(s->st) == RP_TERMINAL) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no move to choose");
        return -1;
    }
    if (s->next_bound) {
        PyErr_SetString(PyExc_ValueError, "a chance node: apply one of chance_outcomes()");
        return -1;
    }
    rp_ai *ai = ai_for(b, game);
    if (!ai)
        return -1;
    rp_state *copy = malloc(sizeof *copy);
    if (!copy) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(copy, s->st, game->state_size);
    rp_error err;
    int rc;
    b->busy = 1;
    Py_BEGIN_ALLOW_THREADS;
    rc = rp_ai_choose(ai, copy, action, info, &err);
    Py_END_ALLOW_THREADS;
    b->busy = 0;
    free(copy);
    if (rc < 0) {
        PyErr_SetString(PyExc_RuntimeError, err.msg);
        return -1;
    }
    return 0;
}

static PyObject *bot_step(PyObject *self, PyObject *arg)
{
    rp_action action;
    if (choose((rp_py_bot *)self, arg, &action, NULL) < 0)
        return NULL;
    return PyLong_FromUnsignedLong(action);
}

/* hint(state) -> {"action", "text", "win_chance", "iterations"} as `ramparts play`'s hint. */
static PyObject *bot_hint(PyObject *self, PyObject *arg)
{
    rp_action action;
    rp_ai_info info = {-1.0, 0};
    if (choose((rp_py_bot *)self, arg, &action, &info) < 0)
        return NULL;
    const rp_py_state *s = (rp_py_state *)arg;
    char text[RP_ACTION_TEXT];
    if (s->game->game->action_to_text(s->st, action, text, sizeof text) < 0)
        text[0] = '\0';
    PyObject *chance =
        info.win_chance < 0 ? Py_NewRef(Py_None) : PyFloat_FromDouble(info.win_chance);
    return Py_BuildValue("{s:k,s:s,s:N,s:K}", "action", (unsigned long)action, "text", text,
                         "win_chance", chance, "iterations", (unsigned long long)info.iterations);
}

static PyObject *bot_spec(PyObject *self, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(((rp_py_bot *)self)->spec);
}

static PyObject *bot_repr(PyObject *self)
{
    return PyUnicode_FromFormat("Bot('%s')", ((rp_py_bot *)self)->spec);
}

/* Bot.specs(): {name: description} of the AI kinds, from the help text's lines "  NAME  what
 * it is" (a dict, so `"hard" in Bot.specs()` and listing them both work). */
static PyObject *bot_specs(PyObject *cls, PyObject *unused)
{
    (void)cls;
    (void)unused;
    PyObject *specs = PyDict_New();
    for (const char *line = rp_ai_help(); specs && *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *name = line;
        while (name < line + len && *name == ' ')
            name++;
        const char *gap = name;
        while (gap < line + len && *gap != ' ')
            gap++;
        const char *text = gap;
        while (text < line + len && *text == ' ')
            text++;
        if (name > line && gap > name && text < line + len) { /* an indented "name  text" */
            PyObject *key = PyUnicode_FromStringAndSize(name, gap - name);
            PyObject *value = PyUnicode_FromStringAndSize(text, line + len - text);
            if (!key || !value || PyDict_SetItem(specs, key, value) < 0)
                Py_CLEAR(specs);
            Py_XDECREF(key);
            Py_XDECREF(value);
        }
        line += len + (end ? 1 : 0);
    }
    return specs;
}

static PyMethodDef bot_methods[] = {
    {"step", bot_step, METH_O, "step(state) -> the AI's move (an action id) for the player to act"},
    {"hint", bot_hint, METH_O,
     "hint(state) -> {'action', 'text', 'win_chance', 'iterations'}: the move with the AI's "
     "estimate of the mover's share of the win (None when it has none)"},
    {"specs", bot_specs, METH_NOARGS | METH_CLASS,
     "the AI kinds as {name: description} (parameters: see each description)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef bot_getset[] = {
    {"spec", bot_spec, NULL, "the AI spec, e.g. 'hard'", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* PyVarObject_HEAD_INIT ends with its own comma, which clang-format cannot see: */
/* clang-format off */
PyTypeObject rp_py_bot_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ramparts.Bot",
    .tp_basicsize = sizeof(rp_py_bot),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Bot(spec='hard', seed=0): one of the project's AIs (see Bot.specs())",
    .tp_new = PyType_GenericNew,
    .tp_init = bot_init,
    .tp_dealloc = bot_dealloc,
    .tp_repr = bot_repr,
    .tp_methods = bot_methods,
    .tp_getset = bot_getset,
};
/* clang-format on */
