/* search.c — the Monte Carlo tree search behind `mcts` and `ismcts`: one iteration samples a
 * world consistent with what the searching player knows (determinize), walks the tree by UCB,
 * grows one node, plays out (to the end, or to a depth where the game's evaluate hook takes
 * over) and backs up each player's own return. Root-parallel threads merge their root edges. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng_internal.h"
#include "search.h"
#include "think_time.h"

#define MAX_PATH 1024  /* deeper walks stop growing and play out instead */
#define CLOCK_EVERY 16 /* iterations between looks at the clock under a time budget */
#define DEFAULT_NODES (1u << 22)
#define TIME_BUDGET_NODES (1u << 16) /* first arena size when the budget is in milliseconds */

/* Per key of an action, during the visit of one node: how many legal actions map to it and
 * which of those to play. Valid only for keys marked in that visit (worker.marks); the marks
 * sit apart so that testing one is a single indexed load. */
typedef struct key_slot {
    uint32_t count, pick;
} key_slot;

/* Everything one search thread owns: its arena, rng, scratch and the world being walked. */
typedef struct worker {
    const rp_game *game;
    const rp_search_cfg *cfg;
    const void *root;
    int root_player;
    bool determinize;
    rp_arena arena;
    rp_rng rng;
    key_slot *slots; /* one per action id */
    /* One per action id: the token of the visit that marked the key legal, until the key
     * is found among the node's children (then one less: marked, no longer "without child"). */
    uint32_t *marks;
    uint32_t token;
    long budget; /* iterations for this thread (0: until the deadline) */
    struct timespec started, deadline;
    uint64_t iterations;
    uint32_t path[MAX_PATH];
    int movers[MAX_PATH];
    rp_action legal[RP_MAX_LEGAL];
    rp_action uniq[RP_MAX_LEGAL]; /* the distinct keys at the node being visited */
    /* The node being visited keys its edges by observation (gather_keys): its keys are listed
     * in uniq and a key's action is legal[slots[key].pick]. Otherwise its keys are the legal
     * actions themselves, listed in legal. */
    bool observed;
    /* Its legal children tried before (UCB's pass), as byte offsets in its block: reaching a
     * child is then one add, with no multiply by the node's size. */
    uint32_t tried[RP_MAX_LEGAL];
    rp_state world;
    rp_state scratch; /* a world one move on, for greedy playout moves */
    /* Each seat's total return through each root edge (by its place among the root's
     * children), for the review (rp_search_root_edges); the tree keeps only the mover's. */
    int players;
    double root_returns[RP_MAX_LEGAL][RP_MAX_PLAYERS];
} worker;

typedef struct search_data {
    rp_search_cfg cfg;
    rp_time_bank bank; /* spread=: the game's thinking time (think_time.h) */
    int count;
    worker *workers[];
} search_data;

/* ---- settings ---- */

void rp_search_defaults(const rp_game *game, bool by_observation, rp_search_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->by_observation = by_observation;
    cfg->iters = 10000;
    cfg->threads = 1;
    cfg->explore = 0.4;
    /* With an evaluation, short playouts then a judgment beat long random ones. */
    cfg->rollout = game && game->evaluate ? 8 : -1;
    cfg->nodes = DEFAULT_NODES;
}

/* "iters@P" names the budget at P players: P for such a key (rp__params_only has checked
 * it is one of keys[] below), 0 for any other key. */
static int players_of_budget_key(const char *key)
{
    return strncmp(key, "iters@", 6) == 0 ? key[6] - '0' : 0;
}

int rp_search_parse(const rp_ai_params *params, const char *kind, rp_search_cfg *cfg, rp_error *err)
{
    /* keys[P] is iters@P, for each player count P from 1 to RP_MAX_PLAYERS. */
    _Static_assert(RP_MAX_PLAYERS == 6, "list an iters@P key for every player count");
    static const char *const keys[] = {
        "iters",   "iters@1", "iters@2", "iters@3", "iters@4", "iters@5", "iters@6", "ms",
        "threads", "c",       "rollout", "nodes",   "greedy",  "bias",    "spread",  NULL};
    int rc = rp__params_only(params, keys, kind, err);
    long ms = 0, iters = 0, iters_at[RP_MAX_PLAYERS + 1] = {0};
    if (rc == RP_OK)
        rc = rp__param_int(params, "ms", 0, 1, 3600000, &ms, err);
    if (rc == RP_OK)
        rc = rp__param_int(params, "iters", 0, 1, 1000000000, &iters, err);
    for (int players = 1; players <= RP_MAX_PLAYERS && rc == RP_OK; players++)
        rc = rp__param_int(params, keys[players], 0, 1, 1000000000, &iters_at[players], err);
    if (rc == RP_OK)
        rc = rp__param_int(params, "threads", cfg->threads, 1, 64, &cfg->threads, err);
    if (rc == RP_OK)
        rc = rp__param_double(params, "c", cfg->explore, 0, 100, &cfg->explore, err);
    if (rc == RP_OK)
        rc = rp__param_int(params, "rollout", cfg->rollout, -1, 100000, &cfg->rollout, err);
    if (rc == RP_OK)
        rc = rp__param_int(params, "greedy", cfg->greedy, 0, 100, &cfg->greedy, err);
    if (rc == RP_OK)
        rc = rp__param_double(params, "bias", cfg->bias, 0, 100, &cfg->bias, err);
    if (rc == RP_OK)
        rc = rp__param_double(params, "spread", cfg->spread, 0, 4, &cfg->spread, err);
    if (rc == RP_OK)
        rc = rp__param_int(params, "nodes", cfg->nodes, 1000, 1L << 28, &cfg->nodes, err);
    if (rc < 0)
        return rc;
    /* The last of iters= and ms= given decides the budget, and drops any iters@P before it:
     * "hard:iters=5000" means 5000 at every player count, whatever the level's own. */
    for (int i = 0; i < params->count; i++) {
        const char *key = params->key[i];
        const int players = players_of_budget_key(key);
        if (players > 0) {
            cfg->iters_at[players] = iters_at[players];
            continue;
        }
        if (strcmp(key, "iters") != 0 && strcmp(key, "ms") != 0)
            continue;
        memset(cfg->iters_at, 0, sizeof cfg->iters_at);
        if (strcmp(key, "iters") == 0)
            cfg->iters = iters, cfg->ms = 0;
        else
            cfg->ms = ms, cfg->iters = 0;
    }
    return RP_OK;
}

/* log(n) for the small counts UCB meets most, filled once: libm's log was a tenth of the
 * search time. The table's logs are rounded to float (what UCB has always used below
 * LOG_TABLE) and kept as doubles, so a lookup needs no conversion. */
#define LOG_TABLE 65536
static double log_table[LOG_TABLE];
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void fill_log_table(void)
{
    log_table[0] = 0;
    for (int i = 1; i < LOG_TABLE; i++)
        log_table[i] = (double)(float)log((double)i);
}

static inline double log_count(uint32_t n)
{
    return n < LOG_TABLE ? log_table[n] : log((double)n);
}

/* ---- workers ---- */

static void worker_free(worker *w)
{
    if (!w)
        return;
    rp_arena_free(&w->arena);
    free(w->slots);
    free(w->marks);
    free(w);
}

static worker *worker_new(const rp_game *game, const rp_search_cfg *cfg)
{
    worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->game = game;
    w->cfg = cfg;
    w->slots = calloc(game->num_actions ? game->num_actions : 1, sizeof *w->slots);
    w->marks = calloc(game->num_actions ? game->num_actions : 1, sizeof *w->marks);
    uint64_t first =
        cfg->iters ? (uint64_t)(cfg->iters / cfg->threads) * 4 + 1024 : TIME_BUDGET_NODES;
    if (first > (uint64_t)cfg->nodes)
        first = (uint64_t)cfg->nodes;
    if (!w->slots || !w->marks ||
        rp_arena_init(&w->arena, (uint32_t)first, (uint32_t)cfg->nodes) < 0) {
        worker_free(w);
        return NULL;
    }
    return w;
}

int rp_search_create(rp_ai *ai, const rp_search_cfg *cfg, rp_error *err)
{
    pthread_once(&log_once, fill_log_table);
    search_data *data = calloc(1, sizeof *data + (size_t)cfg->threads * sizeof(worker *));
    if (!data)
        return rp_fail(err, RP_ENOMEM, "out of memory for %ld search threads", cfg->threads);
    data->cfg = *cfg;
    ai->data = data;
    for (int t = 0; t < cfg->threads; t++) {
        data->workers[t] = worker_new(ai->game, &data->cfg);
        if (!data->workers[t]) {
            rp_search_destroy(ai);
            ai->data = NULL;
            return rp_fail(err, RP_ENOMEM, "out of memory for %ld search nodes", cfg->nodes);
        }
        data->count++;
    }
    return RP_OK;
}

void rp_search_destroy(rp_ai *ai)
{
    search_data *data = ai->data;
    if (!data)
        return;
    for (int t = 0; t < data->count; t++)
        worker_free(data->workers[t]);
    free(data);
}

/* ---- one iteration ---- */

static uint32_t next_token(worker *w)
{
    if (++w->token == 0) { /* wrapped: old marks could look current again */
        memset(w->marks, 0, (size_t)w->game->num_actions * sizeof *w->marks);
        w->token = 1;
    }
    return w->token;
}

/* The tree key of an opponent's action under ISMCTS: what the root player observes of it,
 * so actions it cannot tell apart share one edge. */
static rp_action observed_key(const worker *w, rp_action action)
{
    const rp_action key = w->game->observe_action(&w->world, action, w->root_player);
    return key < w->game->num_actions ? key : action;
}

/* Each player's estimated share of the win in a world that is not over, from the game's
 * evaluation, scaled to sum to 1 like real returns. */
static void evaluate_all(const rp_game *game, const void *st, double *out)
{
    const int players = game->num_players(st);
    double sum = 0;
    for (int p = 0; p < players; p++) {
        out[p] = game->evaluate(st, p);
        out[p] = out[p] < 0 ? 0 : out[p] > 1 ? 1 : out[p];
        sum += out[p];
    }
    for (int p = 0; p < players; p++)
        out[p] = sum > 0 ? out[p] / sum : 1.0 / players;
}

/* The playout move: usually uniform; with greedy=P, P% of the time the move after which
 * evaluate likes the mover's position best (random playouts rarely find a game's point). */
static rp_action playout_move(worker *w, int n)
{
    const rp_game *game = w->game;
    if (w->cfg->greedy == 0 || !game->evaluate || n == 1 ||
        (long)rp__rng_below(&w->rng, 100) >= w->cfg->greedy)
        return w->legal[rp__rng_below(&w->rng, (uint32_t)n)];
    const int mover = game->current_player(&w->world);
    rp_action best = w->legal[0];
    double best_value = -1;
    uint32_t ties = 0;
    for (int i = 0; i < n; i++) {
        rp_state_copy(game, &w->scratch, &w->world);
        game->apply(&w->scratch, w->legal[i]);
        double v;
        if (game->current_player(&w->scratch) == RP_TERMINAL) {
            double r[RP_MAX_PLAYERS];
            game->returns(&w->scratch, r);
            v = r[mover];
        } else {
            v = game->evaluate(&w->scratch, mover);
        }
        if (v > best_value + 1e-12) {
            best_value = v;
            best = w->legal[i];
            ties = 1;
        } else if (v > best_value - 1e-12 && rp__rng_below(&w->rng, ++ties) == 0) {
            best = w->legal[i];
        }
    }
    return best;
}

/* A draw below `bound`, the same as rp__rng_below: `may_list` is rp__draws_may_be_listed()
 * asked once by the caller for a run of draws, not before each. A thread's draw list is only
 * ever set around one apply or init of rp_apply_explicit's caller, never while it searches, so
 * a search thread's draws come from its generator whatever other threads start meanwhile. */
static inline RP_FORCE_INLINE uint32_t draw_below(worker *w, uint32_t bound, bool may_list)
{
    return may_list ? rp__rng_below(&w->rng, bound) : rp__rng_drawn_below(&w->rng, bound);
}

/* playout_to_end for one value of `may_list` (a constant where it is inlined). */
static inline RP_FORCE_INLINE void playout_to_end_as(worker *w, bool may_list)
{
    int (*const legal_actions)(const void *, rp_action *) = w->game->legal_actions;
    void (*const apply)(void *, rp_action) = w->game->apply;
    for (;;) {
        const int n = legal_actions(&w->world, w->legal);
        if (n == 0)
            return;
        apply(&w->world, w->legal[draw_below(w, (uint32_t)n, may_list)]);
    }
}

/* Uniform playout moves to the end: the loop of `rollout=-1` (and of games without evaluate),
 * kept free of the depth and greedy tests, with the game's hooks read once. */
static void playout_to_end(worker *w)
{
    if (rp__draws_may_be_listed())
        playout_to_end_as(w, true);
    else
        playout_to_end_as(w, false);
}

/* Playout moves to the end, or until the rollout depth when the game can evaluate. The game
 * is over where it lists no legal action (game.h), so a move asks for the player to act only
 * at the rollout depth. */
static void playout(worker *w, double *returns)
{
    const rp_game *game = w->game;
    const long limit = game->evaluate ? w->cfg->rollout : -1;
    const bool uniform = w->cfg->greedy == 0 || !game->evaluate;
    if (limit < 0 && uniform) {
        playout_to_end(w);
        game->returns(&w->world, returns);
        return;
    }
    for (long depth = 0;; depth++) {
        if (depth == limit && game->current_player(&w->world) != RP_TERMINAL) {
            evaluate_all(game, &w->world, returns);
            return;
        }
        const int n = game->legal_actions(&w->world, w->legal);
        if (n == 0)
            break;
        game->apply(&w->world,
                    uniform ? w->legal[rp__rng_below(&w->rng, (uint32_t)n)] : playout_move(w, n));
    }
    game->returns(&w->world, returns);
}

/* Mark the keys of the legal actions when they are what the root player observes of them:
 * actions it cannot tell apart share a key, and one of them is drawn uniformly to stand for it.
 * Returns how many distinct keys, listed in worker.uniq. */
static int gather_observed_keys(worker *w, int n)
{
    const uint32_t token = next_token(w);
    uint32_t *const marks = w->marks;
    key_slot *const slots = w->slots;
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        const rp_action key = observed_key(w, w->legal[i]);
        if (marks[key] != token) {
            marks[key] = token;
            slots[key] = (key_slot){.count = 1, .pick = (uint32_t)i};
            w->uniq[distinct++] = key;
        } else if (rp__rng_below(&w->rng, ++slots[key].count) == 0) {
            slots[key].pick = (uint32_t)i; /* a uniform choice among the actions behind one key */
        }
    }
    return distinct;
}

/* Mark the legal actions of the world under their keys; returns how many distinct keys. Keyed
 * by the actions themselves, the keys are the legal list as it is: the actions are distinct
 * (game.h), so no key is shared and no draw is made, and marking them is all there is to do. */
static int gather_keys(worker *w, int mover, int n)
{
    w->observed = w->cfg->by_observation && mover != w->root_player && w->game->observe_action;
    if (w->observed)
        return gather_observed_keys(w, n);
    const uint32_t token = next_token(w);
    uint32_t *const marks = w->marks;
    const rp_action *const legal = w->legal;
    for (int i = 0; i < n; i++)
        marks[legal[i]] = token;
    return n;
}

/* The action behind `key` at the node just visited (see worker.observed). */
static inline rp_action action_of_key(const worker *w, rp_action key)
{
    return w->observed ? w->legal[w->slots[key].pick] : key;
}

/* Progressive bias: how much the chooser likes an edge before trying it, its share by
 * evaluate (scaled like a return) in this world one move on. Computed once, when the edge is
 * added, so it costs nothing per iteration after that. */
static float edge_prior(worker *w, int mover, rp_action action)
{
    const rp_game *game = w->game;
    double share[RP_MAX_PLAYERS];
    rp_state_copy(game, &w->scratch, &w->world);
    game->apply(&w->scratch, action);
    if (game->current_player(&w->scratch) == RP_TERMINAL)
        game->returns(&w->scratch, share);
    else
        evaluate_all(game, &w->scratch, share);
    return (float)share[mover];
}

/* The choice among a node's legal children, in two passes. The first scans the block in order
 * (so the draws come in one fixed order): it counts each legal child available, picks among
 * the untried ones and lists the tried ones in worker.tried. An untried child is always
 * chosen before any tried one, so only when there is none does the second pass score the
 * listed ones by UCB (scoring draws nothing, so skipping it changes no draw). Places are in
 * the block plus one (0: none yet), which stay right when the block moves. */
typedef struct child_choice {
    float fresh_prior;
    uint32_t fresh, fresh_count;
    uint32_t tried; /* how many children worker.tried lists */
} child_choice;

/* The child `offset` bytes into a block. */
static inline rp_node *child_at(rp_node *block, uint32_t offset)
{
    return (rp_node *)(void *)((unsigned char *)block + offset);
}

/* Count the legal child `offset` bytes into its block available and weigh it: an untried one
 * joins the uniform pick among untried ones (when biased, the best prior, ties uniformly), a
 * tried one is listed for UCB. `biased` is a constant at each call: the unbiased scan never
 * tests it. */
static inline RP_FORCE_INLINE void weigh_child(worker *w, child_choice *ch, rp_node *child,
                                               uint32_t offset, bool biased, bool may_list)
{
    child->avail++;
    if (child->visits != 0) {
        w->tried[ch->tried++] = offset;
        return;
    }
    const uint32_t place = offset / (uint32_t)sizeof *child;
    if (biased && child->prior > ch->fresh_prior) {
        ch->fresh_prior = child->prior;
        ch->fresh = place + 1;
        ch->fresh_count = 1;
    } else if ((!biased || child->prior == ch->fresh_prior) &&
               draw_below(w, ++ch->fresh_count, may_list) == 0) {
        ch->fresh = place + 1;
    }
}

/* The place plus one of the listed tried child of `block` with the best UCB, the first on
 * ties (0: none listed). ISMCTS counts availability rather than the parent's visits, and
 * when biased, bias=W adds W * prior / (visits + 1) (progressive bias, Chaslot et al. 2008).
 * `biased` is a constant where it is inlined. */
static inline RP_FORCE_INLINE uint32_t best_by_ucb(const worker *w, rp_node *block, uint32_t count,
                                                   bool biased)
{
    const double explore = w->cfg->explore, bias = w->cfg->bias;
    double best_value = -1;
    uint32_t best = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t offset = w->tried[i];
        const rp_node *child = child_at(block, offset);
        const double inv = 1.0 / child->visits;
        double value = child->reward * inv + explore * sqrt(log_count(child->avail) * inv);
        if (biased)
            value += bias * child->prior / (child->visits + 1.0);
        if (value > best_value) {
            best_value = value;
            best = offset / (uint32_t)sizeof *child + 1;
        }
    }
    return best;
}

/* Room in node's block for `missing` more children: the block itself, or a bigger one it is
 * moved to (the old block is left unused until the next move). False when there is none. */
static bool make_room(worker *w, uint32_t node, uint32_t missing)
{
    rp_node *nodes = w->arena.nodes;
    const uint32_t have = nodes[node].nchild;
    if (have + missing <= nodes[node].cap)
        return true;
    uint32_t cap = have + missing;
    if (cap < 2u * nodes[node].cap)
        cap = 2u * nodes[node].cap;
    if (cap > UINT16_MAX)
        cap = UINT16_MAX;
    if (cap < have + missing)
        return false;
    const uint32_t block = rp_arena_block(&w->arena, cap);
    if (!block)
        return false;
    nodes = w->arena.nodes; /* may have moved while growing */
    memcpy(&nodes[block], &nodes[nodes[node].child], have * sizeof *nodes);
    nodes[node].child = block;
    nodes[node].cap = (uint16_t)cap;
    return true;
}

/* expand_and_select for one value of `biased` and of `may_list` (draw_below), constants where
 * it is inlined. */
static inline RP_FORCE_INLINE uint32_t expand_and_choose(worker *w, uint32_t node, int mover,
                                                         int distinct, bool biased, bool may_list)
{
    child_choice ch = {.fresh_prior = -1};
    rp_node *nodes = w->arena.nodes;
    const uint32_t first = nodes[node].child;
    rp_node *const block = &nodes[first], *const end = block + nodes[node].nchild;
    uint32_t *const marks = w->marks;
    const uint32_t token = w->token;
    uint32_t missing = (uint32_t)distinct;
    /* Most children of a block are not legal in this world: unrolled, passing one costs little
     * more than its key's test. */
#pragma GCC unroll 4
    for (rp_node *child = block; child < end; child++) {
        if (marks[child->key] != token)
            continue;
        const uint32_t offset = (uint32_t)((unsigned char *)child - (unsigned char *)block);
        marks[child->key] = token - 1; /* found: it needs no new child */
        missing--;
        weigh_child(w, &ch, child, offset, biased, may_list);
    }
    if (missing && make_room(w, node, missing)) {
        nodes = w->arena.nodes;
        const rp_action *const keys = w->observed ? w->uniq : w->legal;
        for (int i = 0; i < distinct; i++) {
            const rp_action key = keys[i];
            if (marks[key] != token)
                continue; /* found in the block */
            const uint32_t at = nodes[node].nchild++, c = nodes[node].child + at;
            nodes[c] = (rp_node){.key = key}; /* the arena hands out blocks unzeroed */
            if (biased)
                nodes[c].prior = edge_prior(w, mover, action_of_key(w, key));
            weigh_child(w, &ch, &nodes[c], at * (uint32_t)sizeof *nodes, biased, may_list);
        }
    }
    if (ch.fresh)
        return nodes[node].child + ch.fresh - 1;
    const uint32_t best = best_by_ucb(w, &nodes[nodes[node].child], ch.tried, biased);
    return best ? nodes[node].child + best - 1 : 0;
}

/* Give every legal key at `node` a child and choose the child to walk into, in one scan of
 * the block: the children there that are legal now are weighed, the legal keys without one
 * get one at the block's end (keys that find no room stay without) and are weighed after
 * them, so the choice and its draws are those of scanning the whole block once it is grown.
 * Returns an untried legal child if any, else the best by UCB; 0 when no legal key has a
 * child. */
static uint32_t expand_and_select(worker *w, uint32_t node, int mover, int distinct)
{
    const bool may_list = rp__draws_may_be_listed();
    if (w->cfg->bias > 0 && w->game->evaluate)
        return may_list ? expand_and_choose(w, node, mover, distinct, true, true)
                        : expand_and_choose(w, node, mover, distinct, true, false);
    return may_list ? expand_and_choose(w, node, mover, distinct, false, true)
                    : expand_and_choose(w, node, mover, distinct, false, false);
}

static void backup(worker *w, int depth, const double *returns)
{
    rp_node *const nodes = w->arena.nodes;
    nodes[0].visits++;
    const uint32_t edge = depth > 0 ? w->path[0] - nodes[0].child : RP_MAX_LEGAL;
    if (edge < RP_MAX_LEGAL)
        for (int p = 0; p < w->players; p++)
            w->root_returns[edge][p] += returns[p];
    for (int i = 0; i < depth; i++) {
        nodes[w->path[i]].visits++;
        nodes[w->path[i]].reward += returns[w->movers[i]];
    }
}

static void iterate(worker *w)
{
    const rp_game *game = w->game;
    rp_state_copy(game, &w->world, w->root);
    if (w->determinize)
        game->determinize(&w->world, w->root_player, &w->rng);
    uint32_t node = 0;
    int depth = 0;
    double returns[RP_MAX_PLAYERS];
    for (;;) {
        const int mover = game->current_player(&w->world);
        if (mover == RP_TERMINAL) {
            game->returns(&w->world, returns);
            break;
        }
        if (depth == MAX_PATH) {
            playout(w, returns);
            break;
        }
        const int n = game->legal_actions(&w->world, w->legal);
        const uint32_t next = expand_and_select(w, node, mover, gather_keys(w, mover, n));
        if (!next) { /* arena full and nothing here yet: judge by a playout */
            playout(w, returns);
            break;
        }
        const rp_node *chosen = &w->arena.nodes[next];
        const bool fresh = chosen->visits == 0;
        game->apply(&w->world, action_of_key(w, chosen->key));
        w->path[depth] = next;
        w->movers[depth++] = mover;
        node = next;
        if (fresh) {
            playout(w, returns);
            break;
        }
    }
    backup(w, depth, returns);
    w->iterations++;
}

/* ---- running the workers ---- */

static long long ns_between(const struct timespec *from, const struct timespec *to)
{
    return (long long)(to->tv_sec - from->tv_sec) * 1000000000LL + (to->tv_nsec - from->tv_nsec);
}

/* Has the root's most visited edge a lead the time left cannot overturn (think_time.h)? */
static bool choice_settled(const worker *w, const struct timespec *now)
{
    const rp_node *nodes = w->arena.nodes;
    uint32_t first = 0, second = 0;
    for (uint32_t c = nodes[0].child, end = c + nodes[0].nchild; c < end; c++) {
        const uint32_t v = nodes[c].visits;
        if (v > first)
            second = first, first = v;
        else if (v > second)
            second = v;
    }
    return rp_choice_settled(first, second, w->iterations, (double)ns_between(&w->started, now),
                             (double)ns_between(now, &w->deadline));
}

static bool time_is_up(const worker *w)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (ns_between(&w->deadline, &now) >= 0)
        return true;
    /* spread=: end early once the root's choice cannot change (the rest stays in the bank) */
    return w->cfg->spread > 0 && choice_settled(w, &now);
}

static void *worker_run(void *arg)
{
    worker *w = arg;
    w->iterations = 0;
    if (w->budget > 0) {
        for (long i = 0; i < w->budget; i++)
            iterate(w);
    } else {
        do {
            for (int i = 0; i < CLOCK_EVERY; i++)
                iterate(w);
        } while (!time_is_up(w));
    }
    return NULL;
}

/* Sum the root edges of every worker by key and take the most visited (ties: the better
 * mean, then the lower key, so one thread is fully deterministic). */
static rp_action merge_roots(search_data *data, double *win_chance)
{
    rp_action best = RP_NO_ACTION;
    double best_visits = 0, best_reward = 0;
    const rp_node *first = data->workers[0]->arena.nodes;
    for (uint32_t ch = first[0].child, end = ch + first[0].nchild; ch < end; ch++) {
        const rp_action key = first[ch].key;
        double visits = 0, reward = 0;
        for (int t = 0; t < data->count; t++) {
            const rp_node *nodes = data->workers[t]->arena.nodes;
            for (uint32_t c = nodes[0].child, e = c + nodes[0].nchild; c < e; c++)
                if (nodes[c].key == key) {
                    visits += nodes[c].visits;
                    reward += nodes[c].reward;
                }
        }
        bool better = visits > best_visits ||
                      (visits == best_visits && visits > 0 &&
                       (reward > best_reward || (reward == best_reward && key < best)));
        if (better) {
            best = key;
            best_visits = visits;
            best_reward = reward;
        }
    }
    *win_chance = best_visits > 0 ? best_reward / best_visits : -1;
    return best;
}

static struct timespec deadline_after(const struct timespec *start, double ms)
{
    const long long ns = (long long)(ms * 1e6);
    struct timespec deadline = *start;
    deadline.tv_sec += (time_t)(ns / 1000000000LL);
    deadline.tv_nsec += (long)(ns % 1000000000LL);
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    return deadline;
}

/* Point every worker at the root with its share of the budget, a fresh generator drawn from
 * the AI's own (so one seed gives one sequence of moves) and an emptied arena. */
static int prepare_workers(rp_ai *ai, const void *st, long total, const struct timespec *start,
                           double ms)
{
    search_data *data = ai->data;
    const rp_game *game = ai->game;
    const struct timespec deadline = deadline_after(start, ms);
    for (int t = 0; t < data->count; t++) {
        worker *w = data->workers[t];
        w->root = st;
        w->root_player = game->current_player(st);
        w->players = game->num_players(st);
        memset(w->root_returns, 0, sizeof w->root_returns);
        /* the oracle walks the true state: the hidden cards and the deck's order as they are */
        w->determinize = !data->cfg.sees_all && (game->flags & (RP_HIDDEN_INFO | RP_CHANCE)) != 0;
        w->budget = total ? total / data->count + (t < total % data->count) : 0;
        w->started = *start;
        w->deadline = deadline;
        w->iterations = 0;
        const uint64_t high = rp_rng_next(&ai->rng), low = rp_rng_next(&ai->rng);
        rp_rng_seed(&w->rng, high << 32 | low, (uint64_t)t + 1);
        uint64_t want = total ? (uint64_t)w->budget * 4 + 1024 : TIME_BUDGET_NODES;
        if (want > (uint64_t)data->cfg.nodes)
            want = (uint64_t)data->cfg.nodes;
        if (rp_arena_reset(&w->arena, (uint32_t)want) < 0)
            return RP_ENOMEM;
    }
    return RP_OK;
}

int rp_search_choose(rp_ai *ai, const void *st, rp_action *out, rp_ai_info *info)
{
    search_data *data = ai->data;
    rp_action legal[RP_MAX_LEGAL];
    const int n = ai->game->legal_actions(st, legal);
    const int players = ai->game->num_players(st);
    long total = data->cfg.iters;
    if (players >= 1 && players <= RP_MAX_PLAYERS && data->cfg.iters_at[players] > 0)
        total = data->cfg.iters_at[players];
    /* A forced move needs no thought beyond an estimate of its value. */
    if (n == 1 && (total == 0 || total > 100))
        total = 100;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    const double ms =
        total ? 0 : rp_time_allot(&data->bank, (double)data->cfg.ms, data->cfg.spread, n);
    const int rc = prepare_workers(ai, st, total, &start, ms);
    if (rc < 0)
        return rc;
    pthread_t threads[64];
    int started = 0;
    for (int t = 1; t < data->count; t++) {
        if (data->workers[t]->budget == 0 && total)
            continue;
        if (pthread_create(&threads[started], NULL, worker_run, data->workers[t]) != 0)
            break; /* the threads that did start still give a sound answer */
        started++;
    }
    worker_run(data->workers[0]);
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    if (data->cfg.spread > 0 && total == 0) {
        struct timespec end;
        clock_gettime(CLOCK_MONOTONIC, &end);
        rp_time_spend(&data->bank, (double)ns_between(&start, &end) / 1e6);
    }
    info->iterations = 0;
    for (int t = 0; t < data->count; t++)
        info->iterations += data->workers[t]->iterations;
    *out = merge_roots(data, &info->win_chance);
    if (*out == RP_NO_ACTION) /* no iteration ran: still a legal move */
        *out = legal[0];
    return RP_OK;
}

int rp_search_root_edges(const rp_ai *ai, rp_search_edge *out, int max)
{
    if (ai->kind->choose != rp_search_choose)
        return RP_EINVAL;
    const search_data *data = ai->data;
    const rp_node *first = data->workers[0]->arena.nodes;
    int count = 0;
    for (uint32_t ch = first[0].child, end = ch + first[0].nchild; ch < end && count < max; ch++) {
        rp_search_edge *e = &out[count++];
        memset(e, 0, sizeof *e);
        e->action = first[ch].key;
        for (int t = 0; t < data->count; t++) {
            const worker *w = data->workers[t];
            const rp_node *nodes = w->arena.nodes;
            for (uint32_t c = nodes[0].child, n = c + nodes[0].nchild; c < n; c++) {
                const uint32_t edge = c - nodes[0].child;
                if (nodes[c].key != e->action || edge >= RP_MAX_LEGAL)
                    continue;
                e->visits += nodes[c].visits;
                for (int p = 0; p < w->players; p++)
                    e->returns[p] += w->root_returns[edge][p];
            }
        }
    }
    return count;
}
