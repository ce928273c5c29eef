/* ratelimit.c — token buckets per key in a fixed table (ratelimit.h). A slot is reused once
 * its bucket has filled up again: a full bucket is what a key that never came would have, so
 * forgetting it loses nothing. */
#include "ratelimit.h"

#include <stdio.h>
#include <string.h>

void rs_rate_init(rs_rate_table *t, double per_window, int64_t window_us)
{
    memset(t, 0, sizeof *t);
    t->per_window = per_window;
    t->window_us = window_us > 0 ? window_us : 1;
}

static uint64_t hash_key(const char *key)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 1099511628211ull;
    return h;
}

/* The bucket's tokens brought up to `now_us` (at most a full bucket). */
static void refill(const rs_rate_table *t, rs_rate_bucket *b, int64_t now_us)
{
    if (now_us > b->at_us) {
        b->tokens += t->per_window * (double)(now_us - b->at_us) / (double)t->window_us;
        if (b->tokens > t->per_window)
            b->tokens = t->per_window;
    }
    b->at_us = now_us;
}

/* The slot of `key`, or a free or forgettable one claimed for it; NULL when none is near. */
static rs_rate_bucket *slot_for(rs_rate_table *t, const char *key, int64_t now_us)
{
    const uint64_t h = hash_key(key);
    rs_rate_bucket *spare = NULL;
    for (int i = 0; i < RS_RATE_PROBES; i++) {
        rs_rate_bucket *b = &t->slots[(h + (uint64_t)i) % RS_RATE_SLOTS];
        if (b->key[0] && strcmp(b->key, key) == 0)
            return b;
        if (!spare && !b->key[0])
            spare = b;
        if (!spare) {
            refill(t, b, now_us);
            if (b->tokens >= t->per_window)
                spare = b;
        }
    }
    if (spare) {
        snprintf(spare->key, sizeof spare->key, "%s", key);
        spare->tokens = t->per_window;
        spare->at_us = now_us;
    }
    return spare;
}

/* The bucket of `key` brought up to now, or NULL (let through) when no slot is near. */
static rs_rate_bucket *bucket_now(rs_rate_table *t, const char *key, int64_t now_us)
{
    rs_rate_bucket *b = slot_for(t, key, now_us);
    if (b)
        refill(t, b, now_us);
    return b;
}

static int seconds_to_token(const rs_rate_table *t, const rs_rate_bucket *b)
{
    const double wait_us = (1 - b->tokens) * (double)t->window_us / t->per_window;
    return (int)(wait_us / 1e6) + 1;
}

bool rs_rate_take(rs_rate_table *t, const char *key, int64_t now_us, int *retry_s)
{
    *retry_s = 0;
    rs_rate_bucket *b = bucket_now(t, key, now_us);
    if (!b)
        return true;
    if (b->tokens >= 1) {
        b->tokens -= 1;
        return true;
    }
    *retry_s = seconds_to_token(t, b);
    return false;
}

bool rs_rate_check(rs_rate_table *t, const char *key, int64_t now_us, int *retry_s)
{
    *retry_s = 0;
    const rs_rate_bucket *b = bucket_now(t, key, now_us);
    if (!b || b->tokens >= 1)
        return true;
    *retry_s = seconds_to_token(t, b);
    return false;
}

uint64_t rs_rate_key_hash(const char *key)
{
    const uint64_t h = hash_key(key);
    return h ? h : 1;
}
