/* state.c — ramparts._ramparts.State: one game state with OpenSpiel-shaped methods (legal
 * actions, apply, returns, notation, observations, views, events) and its history since its
 * root (history, child, undo_action, the perfect-recall information state). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ramparts_py.h"
#include "ramparts/json.h"

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
    s->pending = RP_NO_ACTION;
    s->next_bound = 0;
    s->draws = NULL;
    s->draws_len = s->draws_cap = 0;
    s->pending_from = s->deal_draws = s->deal_moves = 0;
    s->began_with_deal = false;
    s->recall = NULL;
    s->recall_seat = -1;
    s->recall_moves = 0;
    s->num_legal = -1;
    memcpy(s->st, st, (size_t)size);
    return s;
}

/* Make the State's present its root (after its bytes were changed in place: a resampled or
 * reseeded copy), so replays of its history start from what it is. */
static int reroot(rp_py_state *s)
{
    PyObject *root =
        PyBytes_FromStringAndSize((const char *)s->st, (Py_ssize_t)s->game->game->state_size);
    if (!root)
        return -1;
    Py_SETREF(s->root, root);
    return 0;
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
    Py_XDECREF(s->recall);
    PyMem_Free(s->history);
    PyMem_Free(s->draws);
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

/* Append a chance outcome to the draws, growing them by doubling. */
static int draws_push(rp_py_state *s, uint32_t value)
{
    if (s->draws_len == s->draws_cap) {
        const Py_ssize_t cap = s->draws_cap ? 2 * s->draws_cap : 64;
        uint32_t *grown = PyMem_Realloc(s->draws, (size_t)cap * sizeof *grown);
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        s->draws = grown;
        s->draws_cap = cap;
    }
    s->draws[s->draws_len++] = value;
    return 0;
}

/* A copy of n items of `size` bytes (NULL for none), or NULL with MemoryError set in *failed. */
static void *copy_items(const void *items, Py_ssize_t n, size_t size, bool *failed)
{
    if (n == 0)
        return NULL;
    void *copy = PyMem_Malloc((size_t)n * size);
    if (!copy) {
        PyErr_NoMemory();
        *failed = true;
        return NULL;
    }
    memcpy(copy, items, (size_t)n * size);
    return copy;
}

/* A copy of s with the same root, history and open chance event. */
static rp_py_state *state_copy(const rp_py_state *s)
{
    rp_py_state *copy = state_alloc(s->game, s->st, s->root);
    if (!copy)
        return NULL;
    bool failed = false;
    copy->history = copy_items(s->history, s->history_len, sizeof *s->history, &failed);
    copy->history_len = copy->history_cap = failed ? 0 : s->history_len;
    copy->draws = copy_items(s->draws, s->draws_len, sizeof *s->draws, &failed);
    copy->draws_len = copy->draws_cap = failed ? 0 : s->draws_len;
    if (failed) {
        Py_DECREF(copy);
        return NULL;
    }
    copy->pending = s->pending;
    copy->next_bound = s->next_bound;
    copy->pending_from = s->pending_from;
    copy->deal_draws = s->deal_draws;
    copy->deal_moves = s->deal_moves;
    copy->began_with_deal = s->began_with_deal;
    copy->recall = Py_XNewRef(s->recall);
    copy->recall_seat = s->recall_seat;
    copy->recall_moves = s->recall_moves;
    return copy;
}

/* ---- explicit chance: the State stops at each chance event (rp_apply_explicit) ---- */

/* Decide the open chance event with the draws made since pending_from: the action (or deal)
 * completes, or next_bound says the next event's outcomes. */
static int settle(rp_py_state *s)
{
    const rp_game *game = s->game->game;
    const uint32_t *values = s->draws ? s->draws + s->pending_from : NULL;
    const size_t count = (size_t)(s->draws_len - s->pending_from);
    uint32_t bound = 0;
    rp_error err;
    const int rc = s->pending == RP_PY_DEAL
                       ? rp_init_explicit(game, s->st, &s->game->cfg, values, count, &bound, &err)
                       : rp_apply_explicit(game, s->st, s->pending, values, count, &bound, &err);
    s->num_legal = -1;
    if (rc < 0) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s", game->id, err.msg);
        return -1;
    }
    s->next_bound = bound;
    if (bound > 0)
        return 0;
    if (s->pending == RP_PY_DEAL) { /* the dealt state is the root of what follows */
        PyObject *root =
            PyBytes_FromStringAndSize((const char *)s->st, (Py_ssize_t)game->state_size);
        if (!root)
            return -1;
        Py_SETREF(s->root, root);
        s->deal_draws = s->draws_len;
        s->deal_moves = s->history_len;
    }
    s->pending = RP_NO_ACTION;
    return 0;
}

/* The player actions the information state string counts (the open one left out). */
static Py_ssize_t completed_moves(const rp_py_state *s)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t i = s->deal_moves; i < s->history_len; i++)
        n += !(s->history[i] & RP_PY_CHANCE_BIT);
    return n - (s->pending != RP_NO_ACTION && s->pending != RP_PY_DEAL);
}

rp_py_state *rp_py_state_new_deal(rp_py_game *game)
{
    /* Until the deal is decided the State holds the deal every chance event's first outcome
     * makes (so its views are those of a real state), which nothing reports as the game. */
    rp_state placeholder;
    rp_draws zeros = {.values = NULL, .count = 0};
    rp_draws *before = rp_rng_use_draws(&zeros);
    rp_error err;
    const int rc = game->game->init(&placeholder, &game->cfg, &err);
    rp_rng_use_draws(before);
    if (rc < 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s", game->game->id, err.msg);
        return NULL;
    }
    rp_py_state *s = rp_py_state_new(game, &placeholder);
    if (!s)
        return NULL;
    s->pending = RP_PY_DEAL;
    s->began_with_deal = true;
    if (settle(s) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    return s;
}

/* Play `value` in explicit chance: a chance outcome at a chance node, else a legal action
 * (whose chance events then come as chance nodes). */
static int explicit_apply(rp_py_state *s, rp_action value)
{
    if (s->next_bound > 0) {
        if (value >= s->next_bound) {
            PyErr_Format(PyExc_ValueError, "chance outcome %u: this chance node's are 0..%u",
                         (unsigned)value, (unsigned)s->next_bound - 1);
            return -1;
        }
        if (draws_push(s, value) < 0 || history_push(s, value | RP_PY_CHANCE_BIT) < 0)
            return -1;
        return settle(s);
    }
    if (history_push(s, value) < 0)
        return -1;
    s->pending = value;
    s->pending_from = s->draws_len;
    return settle(s);
}

/* Back to the first `moves` entries of the history, replayed from the start (explicit). */
static int rebuild(rp_py_state *s, Py_ssize_t moves)
{
    rp_action *entries = s->history;
    s->history = NULL;
    s->history_len = s->history_cap = 0;
    s->draws_len = 0;
    s->num_legal = -1;
    int rc = 0;
    if (s->began_with_deal) {
        s->pending = RP_PY_DEAL;
        s->pending_from = 0;
        rc = settle(s);
    } else {
        memcpy(s->st, PyBytes_AS_STRING(s->root), s->game->game->state_size);
        s->pending = RP_NO_ACTION;
        s->next_bound = 0;
    }
    for (Py_ssize_t i = 0; i < moves && rc == 0; i++)
        rc = explicit_apply(s, entries[i] & ~RP_PY_CHANCE_BIT);
    PyMem_Free(entries);
    return rc;
}

/* The completed player actions after the deal (explicit chance: the open one left out) and
 * the draws they made, for replays from root: a new array (free with PyMem_Free) and counts. */
static rp_action *decided_actions(const rp_py_state *s, Py_ssize_t *count, Py_ssize_t *draws)
{
    rp_action *out = PyMem_Malloc((size_t)(s->history_len + 1) * sizeof *out);
    if (!out)
        return (rp_action *)PyErr_NoMemory();
    Py_ssize_t n = 0, last_player = -1;
    for (Py_ssize_t i = s->deal_moves; i < s->history_len; i++)
        if (!(s->history[i] & RP_PY_CHANCE_BIT)) {
            out[n++] = s->history[i];
            last_player = n - 1;
        }
    const bool open = s->pending != RP_NO_ACTION && s->pending != RP_PY_DEAL;
    if (open && last_player >= 0)
        n = last_player;
    *count = n;
    *draws = (open ? s->pending_from : s->draws_len) - s->deal_draws;
    return out;
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
    return PyLong_FromLong(s->next_bound ? RP_PY_CHANCE : game_of(s)->current_player(s->st));
}

static PyObject *state_is_terminal(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_state *s = (rp_py_state *)self;
    return PyBool_FromLong(!s->next_bound && game_of(s)->current_player(s->st) == RP_TERMINAL);
}

/* True only under explicit chance, at a chance event; otherwise chance is sampled inside
 * apply_action from the state's own generator. */
static PyObject *state_is_chance_node(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(((rp_py_state *)self)->next_bound > 0);
}

/* chance_outcomes(): [(outcome, probability)] at a chance node, each 1 / count; [] elsewhere. */
static PyObject *state_chance_outcomes(PyObject *self, PyObject *unused)
{
    (void)unused;
    const uint32_t n = ((rp_py_state *)self)->next_bound;
    PyObject *list = PyList_New(n);
    for (uint32_t i = 0; list && i < n; i++) {
        PyObject *pair = Py_BuildValue("(Id)", (unsigned)i, 1.0 / n);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

/* False with ValueError set at a chance node (explicit chance), where `what` has no meaning. */
static bool not_at_chance(const rp_py_state *s, const char *what)
{
    if (!s->next_bound)
        return true;
    PyErr_Format(PyExc_ValueError, "%s: this is a chance node (apply one of chance_outcomes())",
                 what);
    return false;
}

/* range(next_bound) as a list: the legal outcomes of a chance node. */
static PyObject *chance_range(const rp_py_state *s)
{
    PyObject *list = PyList_New(s->next_bound);
    for (uint32_t i = 0; list && i < s->next_bound; i++) {
        PyObject *o = PyLong_FromUnsignedLong(i);
        if (!o) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, o);
    }
    return list;
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
        if (p != (s->next_bound ? RP_PY_CHANCE : game_of(s)->current_player(s->st)))
            return PyList_New(0);
    }
    if (s->next_bound)
        return chance_range(s);
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
    memset(data, 0, game_of(s)->num_actions);
    if (s->next_bound) {
        const uint32_t n =
            s->next_bound < game_of(s)->num_actions ? s->next_bound : game_of(s)->num_actions;
        memset(data, 1, n);
        return;
    }
    const int n = rp_py_state_legal(s);
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
    if (s->next_bound) { /* a chance outcome: any integer below the node's count */
        const long value = PyLong_AsLong(arg);
        if (value == -1 && PyErr_Occurred())
            return NULL;
        if (value < 0 || (unsigned long)value >= s->next_bound) {
            PyErr_Format(PyExc_ValueError, "chance outcome %ld: this chance node's are 0..%u",
                         value, (unsigned)s->next_bound - 1);
            return NULL;
        }
        return explicit_apply(s, (rp_action)value) < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (rp_py_action(s->game, arg, &action) < 0)
        return NULL;
    const int n = rp_py_state_legal(s);
    for (int i = 0; i < n; i++)
        if (s->legal[i] == action) {
            if (s->game->explicit_chance)
                return explicit_apply(s, action) < 0 ? NULL : Py_NewRef(Py_None);
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
    if (s->next_bound) {
        const long value = PyLong_AsLong(args[nargs - 1]);
        if (value == -1 && PyErr_Occurred())
            return NULL;
        return PyUnicode_FromFormat("chance outcome %ld of 0..%u", value,
                                    (unsigned)s->next_bound - 1);
    }
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
    return rp_py_json_from_cjson(game_of(s)->json->view(s->st, viewer));
}

static PyObject *state_resample_from_infostate(PyObject *self, PyObject *args)
{
    rp_py_state *s = (rp_py_state *)self;
    PyObject *arg;
    uint64_t seed;
    int viewer;
    if (!not_at_chance(s, "resample_from_infostate") ||
        !PyArg_ParseTuple(args, "OO&", &arg, rp_py_seed, &seed) ||
        rp_py_viewer(s->game, s->st, arg, "player", true, &viewer) < 0)
        return NULL;
    rp_py_state *copy = rp_py_state_new(s->game, s->st);
    if (!copy)
        return NULL;
    rp_rng rng;
    rp_rng_seed(&rng, seed, 0x5265u);
    game_of(s)->determinize(copy->st, viewer, &rng);
    if (reroot(copy) < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    if (viewer >= 0) { /* the seat recalls the sample as it recalls the truth */
        PyObject *seat = PyLong_FromLong(viewer);
        PyObject *recall =
            seat ? PyObject_CallMethod(self, "information_state_string", "O", seat) : NULL;
        Py_XDECREF(seat);
        if (!recall) {
            Py_DECREF(copy);
            return NULL;
        }
        copy->recall = recall;
        copy->recall_seat = viewer;
        copy->recall_moves = s->recall_moves + completed_moves(s);
    }
    return (PyObject *)copy;
}

/* reseed(seed): a copy whose future chance is drawn anew (rp_reseed). */
static PyObject *state_reseed(PyObject *self, PyObject *arg)
{
    rp_py_state *s = (rp_py_state *)self;
    if (!not_at_chance(s, "reseed"))
        return NULL;
    uint64_t seed;
    if (!rp_py_seed(arg, &seed))
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
    if (reroot(copy) < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    return (PyObject *)copy;
}

static PyObject *state_serialize(PyObject *self, PyObject *unused)
{
    (void)unused;
    rp_py_state *s = (rp_py_state *)self;
    if (!not_at_chance(s, "serialize"))
        return NULL;
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
    cJSON *events = rp_events_cjson(game_of(s), s->st, action, viewer, &err);
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
    cJSON *json = rp_action_cjson(game_of(s), s->st, action);
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

/* str(): the state's notation; at a chance node, where a state is not all decided (and
 * serialize refuses), a line saying which chance is open, so printing a State never raises. */
static PyObject *state_str(PyObject *self)
{
    const rp_py_state *s = (rp_py_state *)self;
    if (s->pending == RP_PY_DEAL)
        return PyUnicode_FromFormat("%s: a chance node, the deal being decided", game_of(s)->id);
    if (s->pending != RP_NO_ACTION)
        return PyUnicode_FromFormat("%s: a chance node, the outcome of action %u being decided",
                                    game_of(s)->id, (unsigned)s->pending);
    return state_serialize(self, NULL);
}

/* ---- history: what the State has been through since its root ---- */

static PyObject *state_history(PyObject *self, PyObject *unused)
{
    (void)unused;
    const rp_py_state *s = (rp_py_state *)self;
    PyObject *list = PyList_New(s->history_len);
    for (Py_ssize_t i = 0; list && i < s->history_len; i++) {
        PyObject *a = PyLong_FromUnsignedLong(s->history[i] & ~RP_PY_CHANCE_BIT);
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

/* undo_action under explicit chance: the last entry (a chance outcome, `player` CHANCE, or an
 * action) is taken back by replaying the others from the start. */
static PyObject *undo_explicit(rp_py_state *s, long player, rp_action action)
{
    if (s->history_len == 0 || (s->history[s->history_len - 1] & ~RP_PY_CHANCE_BIT) != action) {
        PyErr_Format(PyExc_ValueError, "action %u is not the last action of this state's history",
                     (unsigned)action);
        return NULL;
    }
    const bool chance = (s->history[s->history_len - 1] & RP_PY_CHANCE_BIT) != 0;
    if (chance != (player == RP_PY_CHANCE)) {
        PyErr_Format(PyExc_ValueError, "the last action was %s, not by %ld",
                     chance ? "a chance outcome (player CHANCE)" : "a player's", player);
        return NULL;
    }
    if (s->history_len <= s->deal_moves && !s->began_with_deal) {
        PyErr_SetString(PyExc_ValueError, "nothing to take back");
        return NULL;
    }
    return rebuild(s, s->history_len - 1) < 0 ? NULL : Py_NewRef(Py_None);
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
    if (s->game->explicit_chance)
        return undo_explicit(s, player, action);
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
    cJSON *events = rp_events_cjson(game, st, action, viewer, &err);
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

/* True once the deal is decided; else false with ValueError set (explicit chance). */
static bool dealt(const rp_py_state *s)
{
    if (s->pending != RP_PY_DEAL)
        return true;
    PyErr_SetString(PyExc_ValueError,
                    "the deal's chance events are not all decided: no information state yet");
    return false;
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
    Py_ssize_t count, draws;
    rp_action *actions = dealt(s) ? decided_actions(s, &count, &draws) : NULL;
    if (!actions)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) {
        PyMem_Free(actions);
        return PyErr_NoMemory();
    }
    rp_state st;
    replay(s, 0, &st);
    const bool recalled = s->recall && seat == s->recall_seat;
    const char *recall = recalled ? PyUnicode_AsUTF8(s->recall) : NULL;
    if (recall) /* a resampled State: the seat's recall up to the sample, then the sample's */
        fputs(recall, out);
    else
        game_of(s)->render(&st, seat, out, false);
    const Py_ssize_t first = recalled ? s->recall_moves : 0;
    int failed = 0;
    const uint32_t *values = s->draws ? s->draws + s->deal_draws : NULL;
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        fprintf(out, "-- move %zd\n", first + i + 1);
        /* Under explicit chance the events and the move itself draw the same outcomes. */
        rp_draws told = {.values = values, .count = (size_t)draws}, made = told;
        rp_draws *before = rp_rng_use_draws(s->game->explicit_chance ? &told : NULL);
        failed = write_events(game_of(s), &st, actions[i], seat, out) < 0;
        rp_rng_use_draws(s->game->explicit_chance ? &made : NULL);
        game_of(s)->apply(&st, actions[i]);
        rp_rng_use_draws(before);
        values += made.used;
        draws -= (Py_ssize_t)made.used;
    }
    fclose(out);
    PyMem_Free(actions);
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
    Py_ssize_t count, draws;
    rp_action *actions = dealt(s) ? decided_actions(s, &count, &draws) : NULL;
    if (!actions) {
        PyBuffer_Release(&view);
        Py_DECREF(array);
        return NULL;
    }
    rp_draws made = {.values = s->draws ? s->draws + s->deal_draws : NULL, .count = (size_t)draws};
    rp_draws *before = rp_rng_use_draws(s->game->explicit_chance ? &made : NULL);
    rp_error err;
    const int rc = rp_information_state(game_of(s), root, actions, (size_t)count, player, view.buf,
                                        size, &err);
    rp_rng_use_draws(before);
    PyMem_Free(actions);
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
    h = (h ^ s->next_bound) * 1099511628211u;
    for (Py_ssize_t i = s->next_bound ? s->pending_from : s->draws_len; i < s->draws_len; i++)
        h = (h ^ s->draws[i]) * 1099511628211u;
    const Py_hash_t r = (Py_hash_t)h;
    return r == -1 ? -2 : r;
}

static PyObject *state_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &rp_py_state_type) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    const rp_py_state *x = (rp_py_state *)a, *y = (rp_py_state *)b;
    bool same =
        x->game->game == y->game->game && memcmp(x->st, y->st, x->game->game->state_size) == 0;
    /* At chance nodes: the same open event with the same outcomes decided so far. */
    same = same && x->next_bound == y->next_bound && (!x->next_bound || x->pending == y->pending);
    if (same && x->next_bound) {
        const Py_ssize_t n = x->draws_len - x->pending_from;
        same = n == y->draws_len - y->pending_from &&
               (n == 0 || memcmp(x->draws + x->pending_from, y->draws + y->pending_from,
                                 (size_t)n * sizeof *x->draws) == 0);
    }
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyMethodDef state_methods[] = {
    {"current_player", state_current_player, METH_NOARGS,
     "the seat to act, or TERMINAL (-1) once the game is over"},
    {"is_terminal", state_is_terminal, METH_NOARGS, "True once the game is over"},
    {"is_chance_node", state_is_chance_node, METH_NOARGS,
     "True at a chance event of a Game with explicit_chance; otherwise chance is sampled "
     "inside apply_action from the state's generator"},
    {"chance_outcomes", state_chance_outcomes, METH_NOARGS,
     "chance_outcomes() -> [(outcome, probability)] at a chance node ([] elsewhere)"},
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
