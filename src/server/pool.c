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

/* The order of the rule: the longest-waiting first (ties: the older seek). */
static bool waited_longer(const rs_pool_entry *a, const rs_pool_entry *b)
{
    return a->since_ms != b->since_ms ? a->since_ms < b->since_ms : a->id < b->id;
}

/* Sort indexes by a comparison of their entries (insertion sort: pools are small, and this
 * keeps the rule free of global state that qsort's comparator would need). */
static void sort_by(size_t *idx, size_t n, const rs_pool_entry *seeks, const rs_pool_entry *anchor,
                    bool (*before)(const rs_pool_entry *, const rs_pool_entry *,
                                   const rs_pool_entry *))
{
    for (size_t i = 1; i < n; i++) {
        const size_t x = idx[i];
        size_t j = i;
        while (j > 0 && before(&seeks[x], &seeks[idx[j - 1]], anchor)) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = x;
    }
}

static bool by_wait(const rs_pool_entry *a, const rs_pool_entry *b, const rs_pool_entry *anchor)
{
    (void)anchor;
    return waited_longer(a, b);
}

/* Nearer to the anchor's rating first; ties: the longer-waiting first. */
static bool by_distance(const rs_pool_entry *a, const rs_pool_entry *b, const rs_pool_entry *anchor)
{
    const double da = fabs(a->rating - anchor->rating), db = fabs(b->rating - anchor->rating);
    return da != db ? da < db : waited_longer(a, b);
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

/* The group the anchor makes with the unused seeks (their indexes in `near`, nearest
 * first), into group; true when it is whole. */
static bool gather(const rs_pool_entry *seeks, const size_t *near, size_t count, size_t anchor,
                   int size, int64_t now_ms, size_t *group)
{
    int members = 0;
    group[members++] = anchor;
    for (size_t k = 0; k < count && members < size; k++)
        if (fits(seeks, group, members, near[k], now_ms))
            group[members++] = near[k];
    return members == size;
}

size_t rs_pool_pair(const rs_pool_entry *seeks, size_t n, int size, int64_t now_ms, size_t *out)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t *near = malloc((n ? n : 1) * sizeof *near);
    bool *used = calloc(n ? n : 1, sizeof *used);
    size_t groups = 0;
    if (!order || !near || !used || size < 2)
        goto done;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sort_by(order, n, seeks, NULL, by_wait);
    for (size_t o = 0; o < n; o++) {
        const size_t anchor = order[o];
        if (used[anchor])
            continue;
        size_t count = 0;
        for (size_t j = 0; j < n; j++)
            if (!used[j] && j != anchor)
                near[count++] = j;
        sort_by(near, count, seeks, &seeks[anchor], by_distance);
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
