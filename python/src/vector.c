/* vector.c — VectorCore, the C half of ramparts.VectorEnv: many games of one Game stepped in
 * one call. The numpy arrays it writes (observations, legal masks, rewards, terminations,
 * truncations, the player to act) are made by the Python half and held here for the core's
 * life, so a step allocates nothing and writes them in place; finished games start again at
 * once from a seed that depends only on the env's seed, its index and its game count. */
#include <stdlib.h>
#include <string.h>

#include "ramparts_py.h"

/* The arrays a VectorCore writes, in the order its constructor takes them. */
enum { OUT_OBS, OUT_MASK, OUT_REWARDS, OUT_TERMINATED, OUT_TRUNCATED, OUT_PLAYER, OUT_COUNT };

typedef struct {
    PyObject_HEAD
    rp_py_game *game;
    int num_envs, players;
    size_t stride;          /* bytes per state in states, a multiple of 64 */
    unsigned char *states;  /* num_envs states */
    uint64_t *legal_bits;   /* per env, one bit per action: what step accepts */
    size_t words;           /* uint64 words of legal_bits per env */
    uint64_t *games_played; /* per env: finished games, for the next seed */
    rp_action *actions;     /* per env: the action step checked, copied from the caller */
    uint64_t seed;
    uint64_t finished; /* games finished since the last reset */
    rp_rng rng;        /* for sample_actions */
    Py_buffer out[OUT_COUNT];
    int held; /* how many of out[] are held */
    int busy; /* a call is running with the GIL released */
} rp_py_vector;

/* SplitMix64's finaliser: a seed for each (env seed, env index, game count). */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15u;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    return x ^ (x >> 31);
}

static uint64_t game_seed(const rp_py_vector *v, int env)
{
    return mix(mix(v->seed ^ mix((uint64_t)env)) + v->games_played[env]);
}

static void *state_at(const rp_py_vector *v, int env)
{
    return v->states + (size_t)env * v->stride;
}

/* Write env's outputs for its current state: the player to act, its observation, the legal
 * mask and the bits step checks against. */
static void write_outputs(rp_py_vector *v, int env)
{
    const rp_game *game = v->game->game;
    const void *st = state_at(v, env);
    const int player = game->current_player(st);
    rp_action legal[RP_MAX_LEGAL];
    const int n = game->legal_actions(st, legal);
    uint8_t *mask = (uint8_t *)v->out[OUT_MASK].buf + (size_t)env * game->num_actions;
    uint64_t *bits = v->legal_bits + (size_t)env * v->words;
    memset(mask, 0, game->num_actions);
    memset(bits, 0, v->words * sizeof *bits);
    for (int i = 0; i < n; i++) {
        mask[legal[i]] = 1;
        bits[legal[i] >> 6] |= 1ull << (legal[i] & 63);
    }
    ((int32_t *)v->out[OUT_PLAYER].buf)[env] = player;
    float *obs = (float *)v->out[OUT_OBS].buf + (size_t)env * game->observation_size;
    game->observation_tensor(st, player < 0 ? 0 : player, obs);
}

static int start_game(rp_py_vector *v, int env)
{
    rp_config cfg = v->game->cfg;
    cfg.seed = game_seed(v, env);
    rp_error err;
    return v->game->game->init(state_at(v, env), &cfg, &err);
}

static void vector_dealloc(PyObject *self)
{
    rp_py_vector *v = (rp_py_vector *)self;
    for (int i = 0; i < v->held; i++)
        PyBuffer_Release(&v->out[i]);
    free(v->states);
    free(v->legal_bits);
    free(v->games_played);
    free(v->actions);
    Py_XDECREF(v->game);
    Py_TYPE(self)->tp_free(self);
}

/* Hold the output arrays, checking each one's type and size. */
static int hold_outputs(rp_py_vector *v, PyObject *const *arrays)
{
    const rp_game *game = v->game->game;
    const Py_ssize_t n = v->num_envs;
    const struct {
        const char *formats, *what;
        Py_ssize_t count;
    } want[OUT_COUNT] = {
        {"f", "observations", n * (Py_ssize_t)game->observation_size},
        {"?bB", "legal masks", n * (Py_ssize_t)game->num_actions},
        {"f", "rewards", n * v->players},
        {"?bB", "terminations", n},
        {"?bB", "truncations", n},
        {"i", "players", n},
    };
    for (int i = 0; i < OUT_COUNT; i++) {
        if (rp_py_get_buffer(arrays[i], &v->out[i], want[i].formats, want[i].count, true,
                             want[i].what) < 0)
            return -1;
        v->held++;
        if (v->out[i].itemsize != (i == OUT_OBS || i == OUT_REWARDS || i == OUT_PLAYER ? 4 : 1)) {
            PyErr_Format(PyExc_TypeError, "%s have items of %zd bytes", want[i].what,
                         v->out[i].itemsize);
            return -1;
        }
    }
    return 0;
}

static int reset_all(rp_py_vector *v)
{
    memset(v->games_played, 0, (size_t)v->num_envs * sizeof *v->games_played);
    memset(v->out[OUT_REWARDS].buf, 0, (size_t)v->out[OUT_REWARDS].len);
    memset(v->out[OUT_TERMINATED].buf, 0, (size_t)v->num_envs);
    memset(v->out[OUT_TRUNCATED].buf, 0, (size_t)v->num_envs);
    rp_rng_seed(&v->rng, v->seed, 0x5645u);
    v->finished = 0;
    for (int env = 0; env < v->num_envs; env++) {
        if (start_game(v, env) < 0) {
            PyErr_Format(PyExc_RuntimeError, "%s: cannot start a game", v->game->game->id);
            return -1;
        }
        write_outputs(v, env);
    }
    return 0;
}

/* VectorCore(game, num_envs, seed, observations, masks, rewards, terminations, truncations,
 * players): the arrays as ramparts.VectorEnv makes them. */
static int vector_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    rp_py_vector *v = (rp_py_vector *)self;
    PyObject *game, *arrays[OUT_COUNT];
    int num_envs;
    uint64_t seed;
    (void)kwargs;
    if (v->game) {
        PyErr_SetString(PyExc_RuntimeError, "VectorCore is already initialised");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!iO&OOOOOO", &rp_py_game_type, &game, &num_envs, rp_py_seed,
                          &seed, &arrays[0], &arrays[1], &arrays[2], &arrays[3], &arrays[4],
                          &arrays[5]))
        return -1;
    const rp_py_game *g = (rp_py_game *)game;
    if (!g->game) {
        PyErr_SetString(PyExc_ValueError, "the Game was not initialised");
        return -1;
    }
    if (!g->game->observation_tensor) {
        PyErr_Format(PyExc_ValueError, "%s has no observation tensor", g->game->id);
        return -1;
    }
    if (num_envs < 1 || num_envs > 1 << 22) {
        PyErr_Format(PyExc_ValueError, "num_envs=%d: expected 1..%d", num_envs, 1 << 22);
        return -1;
    }
    v->game = (rp_py_game *)Py_NewRef(game);
    v->num_envs = num_envs;
    v->players = g->players;
    v->seed = seed;
    v->stride = (g->game->state_size + 63) & ~(size_t)63;
    v->words = (g->game->num_actions + 63) / 64;
    v->states = aligned_alloc(64, v->stride * (size_t)num_envs);
    v->legal_bits = calloc((size_t)num_envs * v->words, sizeof *v->legal_bits);
    v->games_played = calloc((size_t)num_envs, sizeof *v->games_played);
    v->actions = calloc((size_t)num_envs, sizeof *v->actions);
    if (!v->states || !v->legal_bits || !v->games_played || !v->actions) {
        PyErr_NoMemory();
        return -1;
    }
    memset(v->states, 0, v->stride * (size_t)num_envs);
    if (hold_outputs(v, arrays) < 0)
        return -1;
    return reset_all(v);
}

static bool vector_ready(rp_py_vector *v)
{
    if (!v->game) {
        PyErr_SetString(PyExc_RuntimeError, "VectorCore was not initialised");
        return false;
    }
    if (v->busy) {
        PyErr_SetString(PyExc_RuntimeError, "VectorCore is busy in another thread");
        return false;
    }
    return true;
}

/* reset(seed=None): every env starts a new game; a seed replaces the env's seed. */
static PyObject *vector_reset(PyObject *self, PyObject *args)
{
    rp_py_vector *v = (rp_py_vector *)self;
    PyObject *seed = Py_None;
    if (!vector_ready(v) || !PyArg_ParseTuple(args, "|O", &seed))
        return NULL;
    if (seed != Py_None && !rp_py_seed(seed, &v->seed))
        return NULL;
    if (reset_all(v) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* The action of env i from an actions buffer of 4- or 8-byte integers. */
static int64_t action_at(const Py_buffer *a, int i)
{
    const char f = a->format[strspn(a->format, "<=@")];
    if (a->itemsize == 8)
        return f == 'Q' || f == 'L' ? (int64_t)((const uint64_t *)a->buf)[i]
                                    : ((const int64_t *)a->buf)[i];
    return f == 'I' || f == 'L' ? (int64_t)((const uint32_t *)a->buf)[i]
                                : ((const int32_t *)a->buf)[i];
}

static bool is_legal(const rp_py_vector *v, int env, int64_t a)
{
    if (a < 0 || a >= (int64_t)v->game->game->num_actions)
        return false;
    return (v->legal_bits[(size_t)env * v->words + (uint64_t)a / 64] >> ((uint64_t)a % 64)) & 1;
}

/* One step of one env: the action, then the result, and a new game when this one ended. */
static int step_env(rp_py_vector *v, int env, rp_action action)
{
    const rp_game *game = v->game->game;
    void *st = state_at(v, env);
    float *rewards = (float *)v->out[OUT_REWARDS].buf + (size_t)env * (size_t)v->players;
    uint8_t *terminated = (uint8_t *)v->out[OUT_TERMINATED].buf + env;
    uint8_t *truncated = (uint8_t *)v->out[OUT_TRUNCATED].buf + env;
    game->apply(st, action);
    *terminated = game->current_player(st) == RP_TERMINAL;
    *truncated = !*terminated && game->tool_turn_cap && game->turn_number(st) > game->tool_turn_cap;
    if (*terminated) {
        double r[RP_MAX_PLAYERS];
        game->returns(st, r);
        for (int p = 0; p < v->players; p++)
            rewards[p] = (float)r[p];
    } else {
        memset(rewards, 0, (size_t)v->players * sizeof *rewards);
    }
    if (*terminated || *truncated) {
        v->games_played[env]++;
        v->finished++;
        if (start_game(v, env) < 0)
            return -1;
    }
    write_outputs(v, env);
    return 0;
}

/* step(actions): one action per env (int32 or int64 array), all checked before any is played,
 * so an illegal one raises ValueError naming the env and changes nothing. The checked actions
 * are copied before the GIL is released: another thread writing the caller's array meanwhile
 * cannot slip an unchecked action in. */
static PyObject *vector_step(PyObject *self, PyObject *arg)
{
    rp_py_vector *v = (rp_py_vector *)self;
    Py_buffer actions;
    if (!vector_ready(v) ||
        rp_py_get_buffer(arg, &actions, "iIlLqQ", v->num_envs, false, "actions") < 0)
        return NULL;
    if (actions.itemsize != 4 && actions.itemsize != 8) {
        PyBuffer_Release(&actions);
        PyErr_SetString(PyExc_TypeError, "actions must be 32- or 64-bit integers");
        return NULL;
    }
    for (int env = 0; env < v->num_envs; env++) {
        const int64_t a = action_at(&actions, env);
        if (!is_legal(v, env, a)) {
            PyBuffer_Release(&actions);
            PyErr_Format(PyExc_ValueError, "env %d: action %lld is not legal there", env,
                         (long long)a);
            return NULL;
        }
        v->actions[env] = (rp_action)a;
    }
    PyBuffer_Release(&actions);
    int failed = -1;
    v->busy = 1;
    Py_BEGIN_ALLOW_THREADS;
    for (int env = 0; env < v->num_envs && failed < 0; env++)
        if (step_env(v, env, v->actions[env]) < 0)
            failed = env;
    Py_END_ALLOW_THREADS;
    v->busy = 0;
    if (failed >= 0) {
        PyErr_Format(PyExc_RuntimeError, "env %d: cannot start a new game", failed);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* sample_actions(out): a uniformly random legal action for every env into out (int32 or
 * int64), from the core's own generator (seeded by reset). */
static PyObject *vector_sample_actions(PyObject *self, PyObject *arg)
{
    rp_py_vector *v = (rp_py_vector *)self;
    Py_buffer out;
    if (!vector_ready(v) || rp_py_get_buffer(arg, &out, "ilq", v->num_envs, true, "out") < 0)
        return NULL;
    const rp_game *game = v->game->game;
    for (int env = 0; env < v->num_envs; env++) {
        rp_action legal[RP_MAX_LEGAL];
        const int n = game->legal_actions(state_at(v, env), legal);
        const rp_action a = n ? legal[rp_rng_below(&v->rng, (uint32_t)n)] : 0;
        if (out.itemsize == 8)
            ((int64_t *)out.buf)[env] = a;
        else
            ((int32_t *)out.buf)[env] = (int32_t)a;
    }
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* state(env): a copy of that env's current state as a State. */
static PyObject *vector_state(PyObject *self, PyObject *arg)
{
    rp_py_vector *v = (rp_py_vector *)self;
    const long env = PyLong_AsLong(arg);
    if (!vector_ready(v) || (env == -1 && PyErr_Occurred()))
        return NULL;
    if (env < 0 || env >= v->num_envs) {
        PyErr_Format(PyExc_IndexError, "env %ld: the envs are 0..%d", env, v->num_envs - 1);
        return NULL;
    }
    return (PyObject *)rp_py_state_new(v->game, state_at(v, (int)env));
}

static PyObject *vector_finished(PyObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(((rp_py_vector *)self)->finished);
}

static PyObject *vector_seed(PyObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(((rp_py_vector *)self)->seed);
}

static PyMethodDef vector_methods[] = {
    {"reset", vector_reset, METH_VARARGS, "reset(seed=None): every env starts a new game"},
    {"step", vector_step, METH_O, "step(actions): one legal action per env"},
    {"sample_actions", vector_sample_actions, METH_O,
     "sample_actions(out): a uniformly random legal action per env"},
    {"state", vector_state, METH_O, "state(env) -> a copy of that env's State"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef vector_getset[] = {
    {"finished_games", vector_finished, NULL, "games finished since the last reset", NULL},
    {"seed", vector_seed, NULL, "the seed every env's games are dealt from", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* PyVarObject_HEAD_INIT ends with its own comma, which clang-format cannot see: */
/* clang-format off */
PyTypeObject rp_py_vector_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ramparts._ramparts.VectorCore",
    .tp_basicsize = sizeof(rp_py_vector),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The C core of ramparts.VectorEnv (use that)",
    .tp_new = PyType_GenericNew,
    .tp_init = vector_init,
    .tp_dealloc = vector_dealloc,
    .tp_methods = vector_methods,
    .tp_getset = vector_getset,
};
/* clang-format on */
