/* matching.c — Edmonds' blossom algorithm for a maximum matching in a general graph
 * (matching.h): a search from an unmatched vertex for an augmenting path, shrinking each odd
 * cycle (blossom) it meets to its base, as in Edmonds, "Paths, trees, and flowers" (1965).
 * Written here because no packaged C library does it: igraph's matching is bipartite only
 * when weighted, LEMON is C++ (docs/tournaments.md, "Pairing"). */
#include "matching.h"

#include <stdlib.h>
#include <string.h>

#define WORD_BITS 64

struct rs_matching {
    size_t n, words;
    uint64_t *adj;   /* n rows of `words` words: bit b of row a is the edge a-b */
    uint64_t *alive; /* the vertices still in play */
    long *mate;      /* partner or -1 */
    /* The search's own state, kept to spare an allocation per search. */
    long *parent, *base, *queue;
    bool *in_tree, *on_path, *in_blossom;
};

static bool bit(const uint64_t *row, size_t b)
{
    return (row[b / WORD_BITS] >> (b % WORD_BITS)) & 1u;
}

static void set_bit(uint64_t *row, size_t b, bool on)
{
    const uint64_t mask = (uint64_t)1 << (b % WORD_BITS);
    if (on)
        row[b / WORD_BITS] |= mask;
    else
        row[b / WORD_BITS] &= ~mask;
}

#define VERTICES_MAX ((size_t)1 << 20) /* far past any tournament; keeps n * n in range */

rs_matching *rs_matching_new(size_t n)
{
    if (n > VERTICES_MAX)
        return NULL;
    rs_matching *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    /* One word more than needed at a multiple of 64: never a row of 0 words. */
    const size_t words = n / WORD_BITS + 1, cells = n + 1;
    m->n = n;
    m->words = words;
    m->adj = calloc(cells, words * sizeof(uint64_t));
    m->alive = calloc(words, sizeof(uint64_t));
    m->mate = malloc(cells * sizeof *m->mate);
    m->parent = malloc(cells * sizeof *m->parent);
    m->base = malloc(cells * sizeof *m->base);
    m->queue = malloc(cells * sizeof *m->queue);
    m->in_tree = malloc(cells * sizeof *m->in_tree);
    m->on_path = malloc(cells * sizeof *m->on_path);
    m->in_blossom = malloc(cells * sizeof *m->in_blossom);
    if (!m->adj || !m->alive || !m->mate || !m->parent || !m->base || !m->queue || !m->in_tree ||
        !m->on_path || !m->in_blossom) {
        rs_matching_free(m);
        return NULL;
    }
    for (size_t v = 0; v < n; v++) {
        m->mate[v] = -1;
        set_bit(m->alive, v, true);
    }
    return m;
}

void rs_matching_free(rs_matching *m)
{
    if (!m)
        return;
    free(m->adj);
    free(m->alive);
    free(m->mate);
    free(m->parent);
    free(m->base);
    free(m->queue);
    free(m->in_tree);
    free(m->on_path);
    free(m->in_blossom);
    free(m);
}

void rs_matching_edge(rs_matching *m, size_t a, size_t b, bool present)
{
    if (a == b)
        return;
    set_bit(m->adj + a * m->words, b, present);
    set_bit(m->adj + b * m->words, a, present);
}

bool rs_matching_has_edge(const rs_matching *m, size_t a, size_t b)
{
    return a != b && bit(m->adj + a * m->words, b);
}

long rs_matching_mate(const rs_matching *m, size_t v)
{
    return m->mate[v];
}

void rs_matching_join(rs_matching *m, size_t a, size_t b)
{
    m->mate[a] = (long)b;
    m->mate[b] = (long)a;
}

/* The nearest common ancestor of a and b's blossoms in the alternating tree. */
static long common_base(rs_matching *m, long a, long b)
{
    memset(m->on_path, 0, m->n * sizeof *m->on_path);
    for (;;) {
        a = m->base[a];
        m->on_path[a] = true;
        if (m->mate[a] == -1)
            break;
        a = m->parent[m->mate[a]];
    }
    for (;;) {
        b = m->base[b];
        if (m->on_path[b])
            return b;
        b = m->parent[m->mate[b]];
    }
}

/* Marks the blossom's vertices from v down to its base b, pointing the parents back across
 * the edge that closed it (child) so that a path through the blossom can be unwound. */
static void mark_blossom(rs_matching *m, long v, long b, long child)
{
    while (m->base[v] != b) {
        m->in_blossom[m->base[v]] = true;
        m->in_blossom[m->base[m->mate[v]]] = true;
        m->parent[v] = child;
        child = m->mate[v];
        v = m->parent[m->mate[v]];
    }
}

/* Shrinks the blossom closed by the edge v-to into its base, queueing its new outer vertices. */
static void shrink(rs_matching *m, long v, long to, size_t *tail)
{
    const long b = common_base(m, v, to);
    memset(m->in_blossom, 0, m->n * sizeof *m->in_blossom);
    mark_blossom(m, v, b, to);
    mark_blossom(m, to, b, v);
    for (size_t i = 0; i < m->n; i++) {
        if (!bit(m->alive, i) || !m->in_blossom[m->base[i]])
            continue;
        m->base[i] = b;
        if (!m->in_tree[i]) {
            m->in_tree[i] = true;
            m->queue[(*tail)++] = (long)i;
        }
    }
}

/* The end of an augmenting path from root (an unmatched alive vertex), or -1. */
static long find_path(rs_matching *m, size_t root)
{
    for (size_t i = 0; i < m->n; i++) {
        m->parent[i] = -1;
        m->base[i] = (long)i;
        m->in_tree[i] = false;
    }
    size_t head = 0, tail = 0;
    m->in_tree[root] = true;
    m->queue[tail++] = (long)root;
    while (head < tail) {
        const long v = m->queue[head++];
        const uint64_t *row = m->adj + (size_t)v * m->words;
        for (size_t w = 0; w < m->words; w++) {
            for (uint64_t bits = row[w] & m->alive[w]; bits; bits &= bits - 1) {
                const long to = (long)(w * WORD_BITS + (size_t)__builtin_ctzll(bits));
                if (m->base[v] == m->base[to] || m->mate[v] == to)
                    continue;
                if (to == (long)root || (m->mate[to] != -1 && m->parent[m->mate[to]] != -1)) {
                    shrink(m, v, to, &tail);
                } else if (m->parent[to] == -1) {
                    m->parent[to] = v;
                    if (m->mate[to] == -1)
                        return to;
                    m->in_tree[m->mate[to]] = true;
                    m->queue[tail++] = m->mate[to];
                }
            }
        }
    }
    return -1;
}

static void augment(rs_matching *m, long end)
{
    while (end != -1) {
        const long p = m->parent[end], next = m->mate[p];
        m->mate[end] = p;
        m->mate[p] = end;
        end = next;
    }
}

/* An augmenting path from v, taken if there is one. */
static bool augment_from(rs_matching *m, size_t v)
{
    const long end = find_path(m, v);
    if (end == -1)
        return false;
    augment(m, end);
    return true;
}

size_t rs_matching_maximize(rs_matching *m)
{
    size_t unmatched = 0;
    for (size_t v = 0; v < m->n; v++) {
        if (!bit(m->alive, v) || m->mate[v] != -1)
            continue;
        if (!augment_from(m, v))
            unmatched++;
    }
    return unmatched;
}

bool rs_matching_take_pair(rs_matching *m, size_t a, size_t b)
{
    if (!rs_matching_has_edge(m, a, b) || !bit(m->alive, a) || !bit(m->alive, b))
        return false;
    const long ma = m->mate[a], mb = m->mate[b];
    set_bit(m->alive, a, false);
    set_bit(m->alive, b, false);
    if (ma == (long)b || ma == -1 || mb == -1) {
        /* Already a pair, or one of them was spare: the rest loses at most one pair, and a
         * partner left alone looks for another (the matching stays maximum). */
        const long widowed = ma != -1 && ma != (long)b ? ma : mb != -1 && mb != (long)a ? mb : -1;
        rs_matching_join(m, a, b);
        if (widowed != -1) {
            m->mate[widowed] = -1;
            augment_from(m, (size_t)widowed);
        }
        return true;
    }
    /* Both matched elsewhere: their partners must find each other, or others left spare,
     * again. No path from either means none at all: one between two vertices that were
     * spare before would have been augmenting then, and the matching was maximum. */
    m->mate[ma] = -1;
    m->mate[mb] = -1;
    if (augment_from(m, (size_t)ma) || augment_from(m, (size_t)mb)) {
        rs_matching_join(m, a, b);
        return true;
    }
    set_bit(m->alive, a, true);
    set_bit(m->alive, b, true);
    rs_matching_join(m, a, (size_t)ma);
    rs_matching_join(m, b, (size_t)mb);
    return false;
}

bool rs_matching_take_single(rs_matching *m, size_t v)
{
    if (!bit(m->alive, v))
        return false;
    const long mv = m->mate[v];
    set_bit(m->alive, v, false);
    if (mv == -1)
        return true;
    m->mate[mv] = -1;
    m->mate[v] = -1;
    if (augment_from(m, (size_t)mv))
        return true;
    set_bit(m->alive, v, true);
    rs_matching_join(m, v, (size_t)mv);
    return false;
}
