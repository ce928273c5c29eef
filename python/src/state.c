/* state.c — ramparts._ramparts.State: one game state with OpenSpiel-shaped methods (legal
 * actions, apply, returns, notation, observations, views, events) and its history since its
 * root (history, child, undo_action, the perfect-recall information state). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ramparts_py.h"

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
    if (rp_py_action(s->game, arg, &action) < 0)
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
    if (rp_py_action(s->game, args[nargs - 1], &action) < 0)
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
        return rp_py_viewer(s->game, s->st, arg, "player", spectator_ok, out);
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
    return rp_py_json_from_cjson(game_of(s)->view_json(s->st, viewer));
}

static PyObject *state_resample_from_infostate(PyObject *self, PyObject *args)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg;
    unsigned long long seed;
    int viewer;
    if (!PyArg_ParseTuple(args, "OK", &arg, &seed) ||
        rp_py_viewer(s->game, s->st, arg, "player", true, &viewer) < 0)
        return NULL;
    rp_py_state *copy = rp_py_state_new(s->game, s->st);
    if (!copy)
        return NULL;
    rp_rng rng;
    rp_rng_seed(&rng, seed, 0x5265u);
    game_of(s)->determinize(copy->st, viewer, &rng);
    return (PyObject *)copy;
}

/* reseed(seed): a copy whose future chance is drawn anew (rp_reseed). */
static PyObject *state_reseed(PyObject *self, PyObject *arg)
{
    rp_py_state *s = (rp_py_state *)self;
    const unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred())
        return NULL;
    rp_py_state *copy = rp_py_state_new(s->game, s->st);
    if (!copy)
        return NULL;
    rp_rng rng;
    rp_rng_seed(&rng, seed, 0x7273u);
    rp_error err;
    if (rp_reseed(game_of(s), copy->st, &rng, &err) < 0) {
        Py_DECREF(copy);
        PyErr_Format(PyExc_NotImplementedError, "%s", err.msg);
        return NULL;
    }
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
        rp_py_action(s->game, action_arg, &action) < 0)
        return NULL;
    if (viewer_arg && rp_py_viewer(s->game, s->st, viewer_arg, "viewer", true, &viewer) < 0)
        return NULL;
    rp_error err;
    cJSON *events = rp_events(game_of(s), s->st, action, viewer, &err);
    if (!events) {
        PyErr_Format(PyExc_ValueError, "action %u: %s", (unsigned)action, err.msg);
        return NULL;
    }
    return rp_py_json_from_cjson(events);
}

/* action_data(action): the action as plain data ({"kind", "id", "text", ...}). */
static PyObject *state_action_data(PyObject *self, PyObject *arg)
{
    rp_py_state *s = (rp_py_state *)self;
    rp_action action;
    if (rp_py_action(s->game, arg, &action) < 0)
        return NULL;
    cJSON *json = rp_action_json(game_of(s), s->st, action);
    if (!json) {
        PyErr_Format(PyExc_ValueError, "action %u has no data form here", (unsigned)action);
        return NULL;
    }
    return rp_py_json_from_cjson(json);
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
        rp_py_action(s->game, action_arg, &action) < 0)
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

/* information_state_tensor(player=None, out=None): the perfect-recall tensor of that seat
 * (rp_information_state): its observation at the root, then a row per action of the history. */
static PyObject *state_information_state_tensor(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"player", "out", NULL};
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg = NULL, *out = NULL;
    int player;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", keywords, &arg, &out) ||
        player_arg(s, arg, false, &player) < 0)
        return NULL;
    const char *root = PyBytes_AS_STRING(s->root);
    const size_t size = rp_information_state_size(game_of(s), root);
    if (size == 0) {
        PyErr_Format(PyExc_NotImplementedError, "%s has no information state tensor",
                     game_of(s)->id);
        return NULL;
    }
    PyObject *array =
        out && out != Py_None ? Py_NewRef(out) : new_array((Py_ssize_t)size, "float32");
    if (!array)
        return NULL;
    Py_buffer view;
    if (rp_py_get_buffer(array, &view, "f", (Py_ssize_t)size, true, "out") < 0) {
        Py_DECREF(array);
        return NULL;
    }
    rp_error err;
    const int rc = rp_information_state(game_of(s), root, s->history, (size_t)s->history_len,
                                        player, view.buf, size, &err);
    PyBuffer_Release(&view);
    if (rc < 0) {
        Py_DECREF(array);
        PyErr_Format(rc == RP_ENOSPACE ? PyExc_OverflowError : PyExc_ValueError, "%s: %s",
                     game_of(s)->id, err.msg);
        return NULL;
    }
    return array;
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
    {"reseed", state_reseed, METH_O,
     "reseed(seed) -> a State every seat sees as this one, with what nobody knows (deck orders, "
     "later draws) drawn anew: a search on it cannot see the true game's future draws"},
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
    {"information_state_tensor", (PyCFunction)(void (*)(void))state_information_state_tensor,
     METH_VARARGS | METH_KEYWORDS,
     "information_state_tensor(player=None, out=None) -> float32 numpy array: that seat's "
     "observation at the start, then per action [1, the action as it saw it, its observation "
     "after it] (Game.information_state_tensor_size floats; perfect recall)"},
    {NULL, NULL, 0, NULL},
};

/* PyVarObject_HEAD_INIT ends with its own comma, which clang-format cannot see: */
/* clang-format off */
PyTypeObject rp_py_state_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ramparts._ramparts.State",
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
/* clang-format on */
