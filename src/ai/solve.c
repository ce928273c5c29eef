/* solve.c — exact solving over the game interface (ramparts/solve.h): the whole tree built once
 * with explicit chance into flat arrays, then CFR+, best responses and exploitability walk those
 * arrays, never the game, so an iteration costs no game code at all. */
#include "ramparts/solve.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Chance events one action (or the deal) may set off: the largest shuffle is 52 cards. */
enum { MAX_EVENTS = 256 };
/* The deepest path the builder follows (nodes from the root, chance included). It recurses
 * once per node of a path, about 4 KB of stack a level under AddressSanitizer, so a long game
 * (the whole of King of Danger: hands of 26 cards to 31 points) would overflow the stack
 * before reaching the node limit; small options are far shallower (tens of levels). */
enum { MAX_DEPTH = 600 };

enum { KIND_TERMINAL, KIND_CHANCE, KIND_SEAT0, KIND_SEAT1 };

typedef struct node {
    uint32_t parent; /* UINT32_MAX at the root */
    uint32_t via;    /* the action or chance outcome from the parent */
    uint32_t kids;   /* first child's slot in kid[] (a terminal: its slot in ret[]) */
    uint32_t infoset;
    uint16_t count; /* children */
    uint8_t kind;
} node;

/* What a seat has seen: a 128-bit hash of its rows (rp_information_state's), so that equal keys
 * are equal information states short of a collision of both halves. */
typedef struct key {
    uint64_t a, b;
} key;

typedef struct infoset {
    key k;
    uint32_t first;  /* its actions' slot in act[], regret[], avg[], cur[] */
    uint32_t node;   /* a node of it, whose path is the history written for it */
    uint32_t parent; /* the seat's information state before it, UINT32_MAX at its first */
    uint32_t parent_action;
    uint16_t count;
    uint8_t seat;
    bool broken; /* reached with two different pasts of the seat's own */
} infoset;

struct rp_solver {
    const rp_game *game;
    rp_config cfg;
    node *nodes;
    size_t num_nodes, cap_nodes, max_nodes;
    uint32_t *kid;
    size_t num_kids, cap_kids;
    double *ret; /* two returns per terminal */
    size_t num_ret, cap_ret, terminals;
    infoset *sets;
    size_t num_sets, cap_sets;
    uint32_t *table; /* open addressing over sets: index + 1, 0 empty */
    size_t table_cap;
    rp_action *act;
    double *regret, *avg, *cur, *pol; /* per action slot */
    double *own;                      /* per information state: its seat's own reach */
    size_t num_slots, cap_slots;
    uint32_t *set_nodes, *set_first; /* the nodes of each information state (CSR) */
    double *reach, *memo;            /* per node, for best responses */
    uint32_t *best;                  /* per information state, UINT32_MAX: not yet chosen */
    size_t recall_breaks;
    long iterations;
    int depth; /* of the builder's path now */
    bool too_deep;
    float *obs;
    rp_error *err;
    int failed;
};

/* ---- growth of the flat arrays ---- */

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

static int fail(rp_solver *s, int code, const char *what)
{
    if (!s->failed)
        s->failed = rp_fail(s->err, code, "%s", what);
    return -1;
}

/* ---- keys ---- */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBu;
    return x ^ (x >> 31);
}

static key key_add(key k, uint64_t word)
{
    k.a = mix64(k.a ^ word) + 0x9E3779B97F4A7C15u;
    k.b = mix64(k.b + word * 0xD6E8FEB86659FD93u) ^ 0xA0761D6478BD642Fu;
    return k;
}

/* Add seat's observation of st to k. */
static key key_observe(rp_solver *s, key k, const void *st, int seat)
{
    const rp_game *g = s->game;
    g->observation_tensor(st, seat, s->obs);
    for (uint32_t i = 0; i < g->observation_size; i++) {
        uint32_t bits;
        memcpy(&bits, &s->obs[i], sizeof bits);
        if (bits) /* sparse tensors: hash the place of each non-zero float with it */
            k = key_add(k, ((uint64_t)i << 32) | bits);
    }
    return key_add(k, 0xFFFFFFFFFFFFFFFFu); /* a row ends */
}

/* ---- building the tree ---- */

static int64_t new_node(rp_solver *s, uint32_t parent, uint32_t via, uint8_t kind)
{
    if (s->num_nodes >= s->max_nodes)
        return fail(s, RP_ENOSPACE, "the tree has more nodes than the limit");
    if (!grow((void **)&s->nodes, &s->cap_nodes, s->num_nodes + 1, sizeof *s->nodes))
        return fail(s, RP_ENOMEM, "out of memory");
    node *n = &s->nodes[s->num_nodes];
    *n = (node){.parent = parent, .via = via, .kind = kind, .infoset = UINT32_MAX};
    return (int64_t)s->num_nodes++;
}

/* Reserve `count` child slots for node n. */
static int reserve_kids(rp_solver *s, uint32_t n, uint32_t count)
{
    if (count > UINT16_MAX)
        return fail(s, RP_ENOSPACE, "a node has too many children");
    if (!grow((void **)&s->kid, &s->cap_kids, s->num_kids + count, sizeof *s->kid))
        return fail(s, RP_ENOMEM, "out of memory");
    s->nodes[n].kids = (uint32_t)s->num_kids;
    s->nodes[n].count = (uint16_t)count;
    s->num_kids += count;
    return 0;
}

static bool key_eq(key x, key y)
{
    return x.a == y.a && x.b == y.b;
}

static int64_t find_set(rp_solver *s, key k, int seat, bool *fresh)
{
    if (s->num_sets * 2 >= s->table_cap) {
        const size_t cap = s->table_cap ? s->table_cap * 2 : 4096;
        uint32_t *t = calloc(cap, sizeof *t);
        if (!t)
            return fail(s, RP_ENOMEM, "out of memory");
        for (size_t i = 0; i < s->num_sets; i++) {
            size_t h = (size_t)s->sets[i].k.a & (cap - 1);
            while (t[h])
                h = (h + 1) & (cap - 1);
            t[h] = (uint32_t)i + 1;
        }
        free(s->table);
        s->table = t;
        s->table_cap = cap;
    }
    const key ks = key_add(k, (uint64_t)seat);
    size_t h = (size_t)ks.a & (s->table_cap - 1);
    while (s->table[h]) {
        const uint32_t i = s->table[h] - 1;
        if (key_eq(s->sets[i].k, ks)) {
            *fresh = false;
            return i;
        }
        h = (h + 1) & (s->table_cap - 1);
    }
    if (!grow((void **)&s->sets, &s->cap_sets, s->num_sets + 1, sizeof *s->sets))
        return fail(s, RP_ENOMEM, "out of memory");
    s->sets[s->num_sets] = (infoset){.k = ks, .seat = (uint8_t)seat};
    s->table[h] = (uint32_t)s->num_sets + 1;
    *fresh = true;
    return (int64_t)s->num_sets++;
}

/* What each seat has seen so far, and its own last decision (for the perfect-recall check). */
typedef struct path {
    key k[2];
    uint32_t last_set[2], last_action[2];
} path;

static int64_t build_state(rp_solver *s, const void *st, uint32_t parent, uint32_t via,
                           const path *pa);
static int64_t build_deeper(rp_solver *s, const void *st, uint32_t parent, uint32_t via,
                            const path *pa);

/* The node after `action` in st, with `count` of its chance events decided by values. */
static int64_t build_action(rp_solver *s, const void *st, rp_action action, uint32_t *values,
                            size_t count, uint32_t parent, uint32_t via, const path *pa)
{
    const rp_game *g = s->game;
    rp_state *next = malloc(sizeof *next);
    if (!next)
        return fail(s, RP_ENOMEM, "out of memory");
    rp_state_copy(g, next, st);
    uint32_t bound = 0;
    if (rp_apply_explicit(g, next, action, values, count, &bound, s->err) < 0) {
        free(next);
        s->failed = RP_EINVAL;
        return -1;
    }
    int64_t n;
    if (bound > 0) {
        if (count + 1 >= MAX_EVENTS) {
            free(next);
            return fail(s, RP_ENOSPACE, "an action sets off too many chance events");
        }
        n = new_node(s, parent, via, KIND_CHANCE);
        if (n >= 0 && reserve_kids(s, (uint32_t)n, bound) == 0) {
            for (uint32_t k = 0; k < bound; k++) {
                values[count] = k;
                const int64_t c =
                    build_action(s, st, action, values, count + 1, (uint32_t)n, k, pa);
                if (c < 0) {
                    n = -1;
                    break;
                }
                s->kid[s->nodes[n].kids + k] = (uint32_t)c;
            }
        } else {
            n = -1;
        }
    } else {
        path after = *pa;
        for (int seat = 0; seat < 2; seat++) {
            const rp_action seen = g->observe_action ? g->observe_action(st, action, seat) : action;
            after.k[seat] = key_observe(s, key_add(after.k[seat], (uint64_t)seen + 1u), next, seat);
        }
        n = build_deeper(s, next, parent, via, &after);
    }
    free(next);
    return n;
}

/* build_state one level deeper, or refused past MAX_DEPTH. */
static int64_t build_deeper(rp_solver *s, const void *st, uint32_t parent, uint32_t via,
                            const path *pa)
{
    if (s->depth >= MAX_DEPTH) {
        s->too_deep = true;
        return fail(s, RP_ENOSPACE, "the tree is too deep");
    }
    s->depth++;
    const int64_t n = build_state(s, st, parent, via, pa);
    s->depth--;
    return n;
}

static int64_t build_state(rp_solver *s, const void *st, uint32_t parent, uint32_t via,
                           const path *pa)
{
    const rp_game *g = s->game;
    const int seat = g->current_player(st);
    if (seat == RP_TERMINAL) {
        const int64_t n = new_node(s, parent, via, KIND_TERMINAL);
        if (n < 0 || !grow((void **)&s->ret, &s->cap_ret, s->num_ret + 2, sizeof *s->ret))
            return n < 0 ? n : fail(s, RP_ENOMEM, "out of memory");
        double r[RP_MAX_PLAYERS];
        g->returns(st, r);
        s->nodes[n].kids = (uint32_t)s->num_ret;
        s->ret[s->num_ret++] = r[0];
        s->ret[s->num_ret++] = r[1];
        s->terminals++;
        return n;
    }
    rp_action legal[RP_MAX_LEGAL];
    const int count = g->legal_actions(st, legal);
    const int64_t n = new_node(s, parent, via, (uint8_t)(KIND_SEAT0 + seat));
    bool fresh = false;
    const int64_t set = n < 0 ? -1 : find_set(s, pa->k[seat], seat, &fresh);
    if (set < 0 || reserve_kids(s, (uint32_t)n, (uint32_t)count) < 0)
        return -1;
    s->nodes[n].infoset = (uint32_t)set;
    infoset *is = &s->sets[set];
    if (fresh) {
        if (!grow((void **)&s->act, &s->cap_slots, s->num_slots + (size_t)count, sizeof *s->act))
            return fail(s, RP_ENOMEM, "out of memory");
        is->first = (uint32_t)s->num_slots;
        is->count = (uint16_t)count;
        is->node = (uint32_t)n;
        is->parent = pa->last_set[seat];
        is->parent_action = pa->last_action[seat];
        memcpy(s->act + s->num_slots, legal, (size_t)count * sizeof *legal);
        s->num_slots += (size_t)count;
    } else {
        if (is->count != count ||
            memcmp(s->act + is->first, legal, (size_t)count * sizeof *legal) != 0)
            return fail(s, RP_EINVAL,
                        "two histories a seat cannot tell apart have different legal actions");
        if (!is->broken &&
            (is->parent != pa->last_set[seat] || is->parent_action != pa->last_action[seat])) {
            is->broken = true;
            s->recall_breaks++;
        }
    }
    for (int a = 0; a < count; a++) {
        path next = *pa;
        next.last_set[seat] = (uint32_t)set;
        next.last_action[seat] = (uint32_t)a;
        uint32_t values[MAX_EVENTS];
        const int64_t c = build_action(s, st, legal[a], values, 0, (uint32_t)n, legal[a], &next);
        if (c < 0)
            return -1;
        s->kid[s->nodes[n].kids + (uint32_t)a] = (uint32_t)c;
    }
    return n;
}

/* The deal, with `count` of its chance events decided. */
static int64_t build_deal(rp_solver *s, uint32_t *values, size_t count, uint32_t parent,
                          uint32_t via)
{
    const rp_game *g = s->game;
    rp_state *st = malloc(sizeof *st);
    if (!st)
        return fail(s, RP_ENOMEM, "out of memory");
    uint32_t bound = 0;
    int64_t n = -1;
    if (rp_init_explicit(g, st, &s->cfg, values, count, &bound, s->err) < 0) {
        s->failed = RP_EINVAL;
    } else if (bound > 0) {
        if (count + 1 >= MAX_EVENTS) {
            fail(s, RP_ENOSPACE, "the deal sets off too many chance events");
        } else if ((n = new_node(s, parent, via, KIND_CHANCE)) >= 0 &&
                   reserve_kids(s, (uint32_t)n, bound) == 0) {
            for (uint32_t k = 0; k < bound && n >= 0; k++) {
                values[count] = k;
                const int64_t c = build_deal(s, values, count + 1, (uint32_t)n, k);
                if (c < 0)
                    n = -1;
                else
                    s->kid[s->nodes[n].kids + k] = (uint32_t)c;
            }
        } else {
            n = -1;
        }
    } else if (g->num_players(st) != 2) {
        fail(s, RP_EUNSUPPORTED, "only games of two seats are solved");
    } else {
        path pa = {.last_set = {UINT32_MAX, UINT32_MAX}, .last_action = {UINT32_MAX, UINT32_MAX}};
        for (int seat = 0; seat < 2; seat++)
            pa.k[seat] = key_observe(s, (key){0x243F6A8885A308D3u, 0x13198A2E03707344u}, st, seat);
        n = build_state(s, st, parent, via, &pa);
    }
    free(st);
    return n;
}

/* The nodes of each information state, for best responses. */
static int index_sets(rp_solver *s)
{
    s->set_first = calloc(s->num_sets + 1, sizeof *s->set_first);
    s->set_nodes = malloc((s->num_nodes + 1) * sizeof *s->set_nodes);
    s->reach = malloc(s->num_nodes * sizeof *s->reach);
    s->memo = malloc(s->num_nodes * sizeof *s->memo);
    s->best = malloc((s->num_sets + 1) * sizeof *s->best);
    s->regret = calloc(s->num_slots + 1, sizeof *s->regret);
    s->avg = calloc(s->num_slots + 1, sizeof *s->avg);
    s->cur = malloc((s->num_slots + 1) * sizeof *s->cur);
    s->pol = malloc((s->num_slots + 1) * sizeof *s->pol);
    s->own = malloc((s->num_sets + 1) * sizeof *s->own);
    if (!s->set_first || !s->set_nodes || !s->reach || !s->memo || !s->best || !s->regret ||
        !s->avg || !s->cur || !s->pol || !s->own)
        return fail(s, RP_ENOMEM, "out of memory");
    for (size_t n = 0; n < s->num_nodes; n++)
        if (s->nodes[n].kind >= KIND_SEAT0)
            s->set_first[s->nodes[n].infoset + 1]++;
    for (size_t i = 0; i < s->num_sets; i++)
        s->set_first[i + 1] += s->set_first[i];
    uint32_t *fill = calloc(s->num_sets + 1, sizeof *fill);
    if (!fill)
        return fail(s, RP_ENOMEM, "out of memory");
    for (size_t n = 0; n < s->num_nodes; n++)
        if (s->nodes[n].kind >= KIND_SEAT0) {
            const uint32_t i = s->nodes[n].infoset;
            s->set_nodes[s->set_first[i] + fill[i]++] = (uint32_t)n;
        }
    free(fill);
    for (size_t i = 0; i < s->num_sets; i++)
        for (uint32_t a = 0; a < s->sets[i].count; a++)
            s->cur[s->sets[i].first + a] = 1.0 / s->sets[i].count;
    return 0;
}

int rp_solver_new(const rp_game *game, const rp_config *cfg, size_t max_nodes, rp_solver **out,
                  rp_error *err)
{
    *out = NULL;
    if (!game->observation_tensor || game->observation_size == 0)
        return rp_fail(err, RP_EUNSUPPORTED,
                       "%s has no observation tensor to key its information states", game->id);
    if (cfg->players != 2)
        return rp_fail(err, RP_EUNSUPPORTED, "only games of two seats are solved, not %d",
                       cfg->players);
    rp_solver *s = calloc(1, sizeof *s);
    if (!s || !(s->obs = malloc(game->observation_size * sizeof *s->obs))) {
        free(s);
        return rp_fail(err, RP_ENOMEM, "out of memory");
    }
    s->game = game;
    s->cfg = *cfg;
    s->max_nodes = max_nodes < UINT32_MAX ? max_nodes : UINT32_MAX - 1;
    s->err = err;
    uint32_t values[MAX_EVENTS];
    if (build_deal(s, values, 0, UINT32_MAX, 0) < 0 || index_sets(s) < 0) {
        const int code = s->failed ? s->failed : RP_EINVAL;
        if (code == RP_ENOSPACE && s->num_nodes >= s->max_nodes)
            rp_fail(err, code, "%s: the tree has more than %zu nodes: use smaller options",
                    game->id, s->max_nodes);
        else if (s->too_deep)
            rp_fail(err, code, "%s: a path of the tree has more than %d moves: use smaller options",
                    game->id, MAX_DEPTH);
        s->err = NULL;
        rp_solver_free(s);
        return code;
    }
    s->err = NULL;
    *out = s;
    return RP_OK;
}

void rp_solver_free(rp_solver *s)
{
    if (!s)
        return;
    free(s->nodes);
    free(s->kid);
    free(s->ret);
    free(s->sets);
    free(s->table);
    free(s->act);
    free(s->regret);
    free(s->avg);
    free(s->cur);
    free(s->pol);
    free(s->own);
    free(s->set_nodes);
    free(s->set_first);
    free(s->reach);
    free(s->memo);
    free(s->best);
    free(s->obs);
    free(s);
}

size_t rp_solver_nodes(const rp_solver *s)
{
    return s->num_nodes;
}

size_t rp_solver_terminals(const rp_solver *s)
{
    return s->terminals;
}

size_t rp_solver_infosets(const rp_solver *s)
{
    return s->num_sets;
}

size_t rp_solver_recall_breaks(const rp_solver *s)
{
    return s->recall_breaks;
}

long rp_solver_iterations(const rp_solver *s)
{
    return s->iterations;
}

/* ---- CFR+ ---- */

/* The value for seat i of node n under the current strategies, updating i's regrets on the way
 * (reach_i: i's own reach; reach_o: the opponent's and chance's). Where the opponent plays an
 * action with probability 0 the subtree is skipped: i's regrets there would gain reach_o = 0.
 * The average policy is not updated here but per information state (add_average), since a
 * skipped subtree still holds i's information states, reached by i's own play. */
static double cfr(rp_solver *s, uint32_t n, int i, double reach_o)
{
    const node *nd = &s->nodes[n];
    if (nd->kind == KIND_TERMINAL)
        return s->ret[nd->kids + (uint32_t)i];
    const uint32_t *kids = s->kid + nd->kids;
    double v = 0;
    if (nd->kind == KIND_CHANCE) {
        const double p = 1.0 / nd->count;
        for (uint32_t k = 0; k < nd->count; k++)
            v += p * cfr(s, kids[k], i, reach_o * p);
        return v;
    }
    const infoset *is = &s->sets[nd->infoset];
    const double *sigma = s->cur + is->first;
    if (nd->kind - KIND_SEAT0 != i) {
        for (uint32_t a = 0; a < nd->count; a++)
            if (sigma[a] > 0)
                v += sigma[a] * cfr(s, kids[a], i, reach_o * sigma[a]);
        return v;
    }
    double va[RP_MAX_LEGAL];
    for (uint32_t a = 0; a < nd->count; a++) {
        va[a] = cfr(s, kids[a], i, reach_o);
        v += sigma[a] * va[a];
    }
    double *regret = s->regret + is->first;
    for (uint32_t a = 0; a < nd->count; a++)
        regret[a] += reach_o * (va[a] - v);
    return v;
}

/* Add the current policy of seat i's information states to the average, each weighted by the
 * iteration and by i's own reach of it: the product of i's probabilities of its own actions on
 * the way, the same for every history of the state (perfect recall), taken from its parent
 * state (information states are numbered parents first: the builder meets a parent before its
 * children). Once per information state, as CFR's average is defined; a walk adding once per
 * history weights each state by how many of its histories the walk visits, which pruning
 * changes from one iteration to the next. */
static void add_average(rp_solver *s, int i, double weight)
{
    for (size_t k = 0; k < s->num_sets; k++) {
        const infoset *is = &s->sets[k];
        if (is->seat != i)
            continue;
        s->own[k] =
            is->parent == UINT32_MAX
                ? 1.0
                : s->own[is->parent] * s->cur[s->sets[is->parent].first + is->parent_action];
        double *avg = s->avg + is->first;
        const double *sigma = s->cur + is->first;
        for (uint32_t a = 0; a < is->count; a++)
            avg[a] += weight * s->own[k] * sigma[a];
    }
}

/* Regret matching+ for seat i's information states: clamp the regrets, then play in proportion
 * to them (uniformly when none is positive). */
static void match_regrets(rp_solver *s, int i)
{
    for (size_t k = 0; k < s->num_sets; k++) {
        const infoset *is = &s->sets[k];
        if (is->seat != i)
            continue;
        double *regret = s->regret + is->first, *cur = s->cur + is->first, sum = 0;
        for (uint32_t a = 0; a < is->count; a++) {
            if (regret[a] < 0)
                regret[a] = 0;
            sum += regret[a];
        }
        for (uint32_t a = 0; a < is->count; a++)
            cur[a] = sum > 0 ? regret[a] / sum : 1.0 / is->count;
    }
}

void rp_solver_iterate(rp_solver *s, int iterations)
{
    for (int t = 0; t < iterations; t++) {
        s->iterations++;
        for (int i = 0; i < 2; i++) {
            add_average(s, i, (double)s->iterations);
            cfr(s, 0, i, 1.0);
            match_regrets(s, i);
        }
    }
}

/* ---- policies, values and best responses ---- */

/* Fill s->pol with `policy`. */
static void load_policy(rp_solver *s, rp_solve_policy policy)
{
    for (size_t k = 0; k < s->num_sets; k++) {
        const infoset *is = &s->sets[k];
        const double *avg = s->avg + is->first;
        double sum = 0;
        for (uint32_t a = 0; a < is->count; a++)
            sum += avg[a];
        for (uint32_t a = 0; a < is->count; a++)
            s->pol[is->first + a] =
                policy == RP_SOLVE_AVERAGE && sum > 0 ? avg[a] / sum : 1.0 / is->count;
    }
}

static double expected(const rp_solver *s, uint32_t n, int seat)
{
    const node *nd = &s->nodes[n];
    if (nd->kind == KIND_TERMINAL)
        return s->ret[nd->kids + (uint32_t)seat];
    const uint32_t *kids = s->kid + nd->kids;
    double v = 0;
    for (uint32_t k = 0; k < nd->count; k++) {
        const double p =
            nd->kind == KIND_CHANCE ? 1.0 / nd->count : s->pol[s->sets[nd->infoset].first + k];
        if (p > 0)
            v += p * expected(s, kids[k], seat);
    }
    return v;
}

double rp_solver_value(rp_solver *s, rp_solve_policy policy, int seat)
{
    load_policy(s, policy);
    return expected(s, 0, seat);
}

/* The reach of each node by chance and the seat other than `seat` (seat's own moves count 1). */
static void fill_reach(rp_solver *s, uint32_t n, int seat, double r)
{
    const node *nd = &s->nodes[n];
    s->reach[n] = r;
    s->memo[n] = NAN;
    if (nd->kind == KIND_TERMINAL)
        return;
    const uint32_t *kids = s->kid + nd->kids;
    for (uint32_t k = 0; k < nd->count; k++) {
        double p = 1.0;
        if (nd->kind == KIND_CHANCE)
            p = 1.0 / nd->count;
        else if (nd->kind - KIND_SEAT0 != seat)
            p = s->pol[s->sets[nd->infoset].first + k];
        fill_reach(s, kids[k], seat, r * p);
    }
}

static double br_value(rp_solver *s, uint32_t n, int seat);

/* The action of information state k that is best for its seat against the loaded policy: the
 * one with the highest value summed over its nodes, each weighted by its reach. */
static uint32_t best_action(rp_solver *s, uint32_t k, int seat)
{
    if (s->best[k] != UINT32_MAX)
        return s->best[k];
    const infoset *is = &s->sets[k];
    double best = -INFINITY;
    uint32_t choice = 0;
    for (uint32_t a = 0; a < is->count; a++) {
        double q = 0;
        for (uint32_t j = s->set_first[k]; j < s->set_first[k + 1]; j++) {
            const uint32_t h = s->set_nodes[j];
            q += s->reach[h] * br_value(s, s->kid[s->nodes[h].kids + a], seat);
        }
        if (q > best) {
            best = q;
            choice = a;
        }
    }
    s->best[k] = choice;
    return choice;
}

static double br_value(rp_solver *s, uint32_t n, int seat)
{
    if (!isnan(s->memo[n]))
        return s->memo[n];
    const node *nd = &s->nodes[n];
    double v = 0;
    if (nd->kind == KIND_TERMINAL) {
        v = s->ret[nd->kids + (uint32_t)seat];
    } else if (nd->kind - KIND_SEAT0 == seat) {
        v = br_value(s, s->kid[nd->kids + best_action(s, nd->infoset, seat)], seat);
    } else {
        const uint32_t *kids = s->kid + nd->kids;
        for (uint32_t k = 0; k < nd->count; k++) {
            const double p =
                nd->kind == KIND_CHANCE ? 1.0 / nd->count : s->pol[s->sets[nd->infoset].first + k];
            if (p > 0)
                v += p * br_value(s, kids[k], seat);
        }
    }
    s->memo[n] = v;
    return v;
}

double rp_solver_best_response(rp_solver *s, rp_solve_policy policy, int seat)
{
    load_policy(s, policy);
    fill_reach(s, 0, seat, 1.0);
    for (size_t k = 0; k < s->num_sets; k++)
        s->best[k] = UINT32_MAX;
    return br_value(s, 0, seat);
}

double rp_solver_exploitability(rp_solver *s, rp_solve_policy policy)
{
    return (rp_solver_best_response(s, policy, 0) + rp_solver_best_response(s, policy, 1) - 1.0) /
           2.0;
}

/* ---- the policy out ---- */

/* The path from the root to node n (outcomes and actions), into history; its length. */
static size_t path_to(const rp_solver *s, uint32_t n, uint32_t *history, size_t cap)
{
    size_t len = 0;
    for (uint32_t m = n; s->nodes[m].parent != UINT32_MAX; m = s->nodes[m].parent)
        len++;
    size_t i = len;
    for (uint32_t m = n; s->nodes[m].parent != UINT32_MAX; m = s->nodes[m].parent)
        if (--i < cap)
            history[i] = s->nodes[m].via;
    return len;
}

int rp_solver_infoset(const rp_solver *s, size_t i, int *seat, uint32_t *history, size_t cap,
                      size_t *count, rp_action *actions, double *probs)
{
    if (i >= s->num_sets)
        return RP_EINVAL;
    const infoset *is = &s->sets[i];
    *seat = is->seat;
    *count = path_to(s, is->node, history, cap);
    double sum = 0;
    for (uint32_t a = 0; a < is->count; a++)
        sum += s->avg[is->first + a];
    for (uint32_t a = 0; a < is->count; a++) {
        actions[a] = s->act[is->first + a];
        probs[a] = sum > 0 ? s->avg[is->first + a] / sum : 1.0 / is->count;
    }
    return is->count;
}

/* The state at node n (a decision node), replayed from its path. */
static int replay(const rp_solver *s, uint32_t n, rp_state *st, rp_error *err)
{
    uint32_t chain[1024];
    size_t len = 0;
    for (uint32_t m = n; s->nodes[m].parent != UINT32_MAX && len < 1024; m = s->nodes[m].parent)
        chain[len++] = m;
    uint32_t values[MAX_EVENTS];
    size_t count = 0, i = len;
    uint32_t bound;
    /* the deal: the outcomes of chance nodes before the first decision */
    while (i > 0 && s->nodes[s->nodes[chain[i - 1]].parent].kind == KIND_CHANCE)
        values[count++] = s->nodes[chain[--i]].via;
    int rc = rp_init_explicit(s->game, st, &s->cfg, values, count, &bound, err);
    while (rc == RP_OK && i > 0) {
        const rp_action action = s->nodes[chain[--i]].via;
        for (count = 0; i > 0 && s->nodes[s->nodes[chain[i - 1]].parent].kind == KIND_CHANCE;)
            values[count++] = s->nodes[chain[--i]].via;
        rc = rp_apply_explicit(s->game, st, action, values, count, &bound, err);
    }
    return rc;
}

int rp_solver_write_policy(const rp_solver *s, FILE *out, rp_error *err)
{
    rp_state st;
    uint32_t history[1024];
    for (size_t i = 0; i < s->num_sets; i++) {
        const infoset *is = &s->sets[i];
        if (replay(s, is->node, &st, err) < 0)
            return RP_EINVAL;
        const size_t len = path_to(s, is->node, history, 1024);
        fprintf(out, "{\"seat\":%d,\"history\":[", is->seat);
        for (size_t k = 0; k < len && k < 1024; k++)
            fprintf(out, "%s%u", k ? "," : "", (unsigned)history[k]);
        fprintf(out, "],\"actions\":{");
        double sum = 0;
        for (uint32_t a = 0; a < is->count; a++)
            sum += s->avg[is->first + a];
        for (uint32_t a = 0; a < is->count; a++) {
            char text[RP_ACTION_TEXT];
            if (s->game->action_to_text(&st, s->act[is->first + a], text, sizeof text) < 0)
                snprintf(text, sizeof text, "%u", (unsigned)s->act[is->first + a]);
            /* notation is words, digits and signs: nothing JSON must escape */
            fprintf(out, "%s\"%s\":%.6f", a ? "," : "", text,
                    sum > 0 ? s->avg[is->first + a] / sum : 1.0 / is->count);
        }
        fprintf(out, "}}\n");
    }
    if (ferror(out))
        return rp_fail(err, RP_EIO, "cannot write the policy");
    return RP_OK;
}
