/* pool.h — the "Play now" pairing rule (docs/server-protocol.md, "Play now: seek"), pure: the
 * seeks of one pool in, the groups that make games out, with no server, store or clock of its
 * own, so that a C test checks the rule alone. A leaf of layers.h (pools.c calls it). */
#ifndef RS_POOL_H
#define RS_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RS_POOL_LINKS 16 /* linked users a seek carries */

/* One seek as the rule sees it. */
typedef struct rs_pool_entry {
    int64_t id;   /* the seek's */
    int64_t user; /* who seeks */
    /* Users linked to `user`: the accounts a guest logged into, or an account's guests. */
    int64_t linked[RS_POOL_LINKS];
    int num_linked;
    double rating;    /* the user's rating for the pool's game */
    int64_t since_ms; /* when the seek was made (wall clock) */
} rs_pool_entry;

/* The rating window of a seek that has waited waited_ms: 100 points, 50 more every 5 s. */
int64_t rs_pool_window(int64_t waited_ms);
/* Whether two seeks may sit in one game at now_ms: different users, not linked (directly, or
 * through an account both are linked to), ratings within both windows. */
bool rs_pool_compatible(const rs_pool_entry *a, const rs_pool_entry *b, int64_t now_ms);
/* The games the n seeks of one pool make at now_ms, `size` players each: the longest-waiting
 * seek first, with the compatible seeks nearest to it in rating (ties: the longer-waiting
 * first), each of them compatible with every other of the group. out (room for n) gets the
 * indexes of the first group's seeks, then the next group's...; returns the number of
 * groups. A seek that makes no group waits for its window to widen. Quadratic in n: 1,000
 * seeks of one pool all paired in one call take about 9 ms, 4,000 about 170 ms (-O2); seeks
 * arrive one by one and are paired as they come, so a pool rarely holds many. */
size_t rs_pool_pair(const rs_pool_entry *seeks, size_t n, int size, int64_t now_ms, size_t *out);
/* Shuffle n items (Fisher-Yates) with uniform(k), a fair draw from 0..k-1 (libsodium's
 * randombytes_uniform on the server): which seat each player gets, so the first move. */
void rs_pool_shuffle(size_t *items, size_t n, uint32_t (*uniform)(uint32_t upper));

#endif
