/* pool.c — the "Play now" pairing rule (pool.h): rating windows widening with the wait,
 * the nearest rating first, never a user with themselves or a linked user, fair seats. */
#include "pool.h"

#include <math.h>
#include <stdlib.h>

#define WINDOW_BASE 100
#define WINDOW_STEP 50
#define WINDOW_EVERY_MS 5000

int64_t rs_pool_window(int64_t waited_ms)
{
    if (waited_ms < 0) /* a seek stamped by a node whose clock runs ahead */
        waited_ms = 0;
    return WINDOW_BASE + WINDOW_STEP * (waited_ms / WINDOW_EVERY_MS);
}

static bool links_to(const rs_pool_entry *a, int64_t user)
{
    for (int i = 0; i < a->num_linked; i++)
        if (a->linked[i] == user)
            return true;
    return false;
}

/* Same person: the same user, one linked to the other, or both linked to one account. */
static bool same_person(const rs_pool_entry *a, const rs_pool_entry *b)
{
    if (a->user == b->user || links_to(a, b->user) || links_to(b, a->user))
        return true;
    for (int i = 0; i < a->num_linked; i++)
        if (links_to(b, a->linked[i]))
            return true;
    return false;
}

bool rs_pool_compatible(const rs_pool_entry *a, const rs_pool_entry *b, int64_t now_ms)
{
    if (same_person(a, b))
        return false;
    const int64_t wa = rs_pool_window(now_ms - a->since_ms);
    const int64_t wb = rs_pool_window(now_ms - b->since_ms);
    return fabs(a->rating - b->rating) <= (double)(wa < wb ? wa : wb);
}

/* A seek as the sorts see it: its distance in rating from the anchor (0 for the order of
 * waiting), then how long it waited, then its id; idx is its place in the pool. */
typedef struct ranked {
    double distance;
    int64_t since_ms, id;
    size_t idx;
} ranked;

/* Nearer first; equally near, the longer-waiting (the older seek) first. */
static int by_rank(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->distance != y->distance)
        return x->distance < y->distance ? -1 : 1;
    if (x->since_ms != y->since_ms)
        return x->since_ms < y->since_ms ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static ranked rank(const rs_pool_entry *seeks, size_t idx, const rs_pool_entry *anchor)
{
    const rs_pool_entry *e = &seeks[idx];
    return (ranked){anchor ? fabs(e->rating - anchor->rating) : 0.0, e->since_ms, e->id, idx};
}

/* Whether seek x is compatible with every member of the group. */
static bool fits(const rs_pool_entry *seeks, const size_t *group, int members, size_t x,
                 int64_t now_ms)
{
    for (int m = 0; m < members; m++)
        if (!rs_pool_compatible(&seeks[group[m]], &seeks[x], now_ms))
            return false;
    return true;
}

/* The group the anchor makes with the unused seeks compatible with it (near, nearest
 * first), into group; true when it is whole. */
static bool gather(const rs_pool_entry *seeks, const ranked *near, size_t count, size_t anchor,
                   int size, int64_t now_ms, size_t *group)
{
    int members = 0;
    group[members++] = anchor;
    for (size_t k = 0; k < count && members < size; k++)
        if (fits(seeks, group, members, near[k].idx, now_ms))
            group[members++] = near[k].idx;
    return members == size;
}

size_t rs_pool_pair(const rs_pool_entry *seeks, size_t n, int size, int64_t now_ms, size_t *out)
{
    ranked *order = malloc((n ? n : 1) * sizeof *order);
    ranked *near = malloc((n ? n : 1) * sizeof *near);
    bool *used = calloc(n ? n : 1, sizeof *used);
    size_t groups = 0;
    if (!order || !near || !used || size < 2)
        goto done;
    for (size_t i = 0; i < n; i++)
        order[i] = rank(seeks, i, NULL);
    qsort(order, n, sizeof *order, by_rank); /* the longest-waiting first */
    for (size_t o = 0; o < n; o++) {
        const size_t anchor = order[o].idx;
        if (used[anchor])
            continue;
        /* Only seeks compatible with the anchor can join it: a few in a pool of many. */
        size_t count = 0;
        for (size_t j = 0; j < n; j++)
            if (!used[j] && j != anchor && rs_pool_compatible(&seeks[anchor], &seeks[j], now_ms))
                near[count++] = rank(seeks, j, &seeks[anchor]);
        qsort(near, count, sizeof *near, by_rank);
        size_t *group = out + groups * (size_t)size;
        if (!gather(seeks, near, count, anchor, size, now_ms, group))
            continue;
        for (int m = 0; m < size; m++)
            used[group[m]] = true;
        groups++;
    }
done:
    free(order);
    free(near);
    free(used);
    return groups;
}

void rs_pool_shuffle(size_t *items, size_t n, uint32_t (*uniform)(uint32_t upper))
{
    for (size_t i = n; i > 1; i--) {
        const size_t j = uniform((uint32_t)i);
        const size_t x = items[i - 1];
        items[i - 1] = items[j];
        items[j] = x;
    }
}
