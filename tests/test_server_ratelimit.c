/* test_server_ratelimit.c — the token buckets that bound each address's HTTP requests (src/
 * server/ratelimit.c; issue 49, finding 1): a full bucket's worth goes through, then refusals
 * with the wait until the next token, refilled evenly; keys apart; a full table never refuses
 * a key for another's sake. Times are given, so nothing here depends on the machine. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

#include "ratelimit.h"

#define SECOND INT64_C(1000000)

static rs_rate_table *table(double per_window, int64_t window_us)
{
    rs_rate_table *t = malloc(sizeof *t);
    assert_non_null(t);
    rs_rate_init(t, per_window, window_us);
    return t;
}

static void test_a_bucket_then_refusals_then_refill(void **state)
{
    (void)state;
    rs_rate_table *t = table(10, 20 * SECOND);
    int retry = -1;
    for (int i = 0; i < 10; i++)
        assert_true(rs_rate_take(t, "10.0.0.1", 0, &retry));
    assert_false(rs_rate_take(t, "10.0.0.1", 0, &retry));
    assert_int_equal(retry, 3); /* a token every 2 s: "in 3 s" rounds the 2 s up */
    assert_true(rs_rate_take(t, "10.0.0.2", 0, &retry)); /* another address is apart */
    assert_false(rs_rate_take(t, "10.0.0.1", SECOND, &retry));
    assert_true(rs_rate_take(t, "10.0.0.1", 2 * SECOND + 1, &retry)); /* one token back */
    assert_false(rs_rate_take(t, "10.0.0.1", 2 * SECOND + 2, &retry));
    for (int i = 0; i < 10; i++) /* a whole window later: a whole bucket, no more */
        assert_true(rs_rate_take(t, "10.0.0.1", 100 * SECOND, &retry));
    assert_false(rs_rate_take(t, "10.0.0.1", 100 * SECOND, &retry));
    free(t);
}

static void test_a_full_table_lets_new_keys_through(void **state)
{
    (void)state;
    rs_rate_table *t = table(1, 1000 * SECOND);
    int retry;
    char key[32];
    for (int i = 0; i < 3 * RS_RATE_SLOTS;
         i++) { /* every slot taken by a key with an empty bucket */
        snprintf(key, sizeof key, "k%d", i);
        rs_rate_take(t, key, 0, &retry);
    }
    int refused = 0;
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof key, "new%d", i);
        refused += !rs_rate_take(t, key, 0, &retry);
    }
    assert_int_equal(refused, 0);
    /* Once buckets fill again their slots are reused, and new keys are followed again. */
    assert_true(rs_rate_take(t, "late", 5000 * SECOND, &retry));
    assert_false(rs_rate_take(t, "late", 5000 * SECOND, &retry));
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_bucket_then_refusals_then_refill),
        cmocka_unit_test(test_a_full_table_lets_new_keys_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
