/* ratelimit.h — token buckets per key (a client's address, rs_addr_holder, or an account's
 * name): how many requests a key may make per window, refilled evenly. Fixed memory whatever
 * the number of clients: a leaf (layers.h), used by net.c for HTTP and by session.c for failed
 * logins and new guests. */
#ifndef RS_RATELIMIT_H
#define RS_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

#define RS_RATE_SLOTS 4096 /* keys followed at once */
#define RS_RATE_PROBES 8   /* slots looked at for one key */
#define RS_RATE_KEY 64

typedef struct rs_rate_bucket {
    char key[RS_RATE_KEY]; /* "" when free */
    double tokens;
    int64_t at_us; /* when tokens was last brought up to date */
} rs_rate_bucket;

typedef struct rs_rate_table {
    double per_window; /* requests a key may make per window (the bucket's size) */
    int64_t window_us;
    rs_rate_bucket slots[RS_RATE_SLOTS];
} rs_rate_table;

void rs_rate_init(rs_rate_table *t, double per_window, int64_t window_us);

/* Take one request for `key` at `now_us`: false when its bucket is empty (refuse it), and
 * *retry_s then says in how many seconds a token will be back. A key for which no slot is
 * free (every slot near it holds a busy key) is let through: the table never refuses a
 * client for another's sake. */
bool rs_rate_take(rs_rate_table *t, const char *key, int64_t now_us, int *retry_s);

/* Whether `key` has a token left at `now_us` (one take would succeed), taking none: a failed
 * login takes its token only once it has failed. *retry_s as for rs_rate_take. */
bool rs_rate_check(rs_rate_table *t, const char *key, int64_t now_us, int *retry_s);

/* A nonzero 64-bit hash of a key (FNV-1a), for maps keyed by it (rs_idmap). */
uint64_t rs_rate_key_hash(const char *key);

#endif
