/* test_server_pool.c — the "Play now" pairing rule (src/server/pool.c) alone: the rating
 * window widening with the wait, the nearest rating first, never a user with themselves or a
 * linked user, groups of more than two, and seats shuffled into every order. */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"

#define NOW 1000000 /* the instant of each pairing, in wall milliseconds */

/* A seeded generator of its own (xorshift64): the same pools on every run. */
static uint64_t rng_state = 1;

static void rng_seed(uint64_t seed)
{
    rng_state = seed * 2654435761u + 1;
}

static uint32_t rng_below(uint32_t upper)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 32) % upper);
}

static rs_pool_entry seek(int64_t id, int64_t user, double rating, int64_t waited_ms)
{
    return (rs_pool_entry){.id = id, .user = user, .rating = rating, .since_ms = NOW - waited_ms};
}

static void test_window_widens(void **state)
{
    (void)state;
    assert_int_equal(rs_pool_window(0), 100);
    assert_int_equal(rs_pool_window(4999), 100);
    assert_int_equal(rs_pool_window(5000), 150);
    assert_int_equal(rs_pool_window(12000), 200);
    assert_int_equal(rs_pool_window(60000), 700);
    assert_int_equal(rs_pool_window(-3000), 100); /* a stamp from a clock running ahead */
}

/* 1500 and 1620: too far apart at first (window 100), paired once both windows reach 150;
 * the narrower window decides. */
static void test_pairs_once_both_windows_allow(void **state)
{
    (void)state;
    size_t out[2];
    rs_pool_entry fresh[] = {seek(1, 10, 1500, 0), seek(2, 20, 1620, 0)};
    assert_int_equal(rs_pool_pair(fresh, 2, 2, NOW, out), 0);
    rs_pool_entry one_waited[] = {seek(1, 10, 1500, 9000), seek(2, 20, 1620, 0)};
    assert_false(rs_pool_compatible(&one_waited[0], &one_waited[1], NOW));
    assert_int_equal(rs_pool_pair(one_waited, 2, 2, NOW, out), 0);
    rs_pool_entry both[] = {seek(1, 10, 1500, 9000), seek(2, 20, 1620, 5000)};
    assert_int_equal(rs_pool_pair(both, 2, 2, NOW, out), 1);
    assert_int_equal(out[0], 0); /* the longest-waiting seek leads its group */
    assert_int_equal(out[1], 1);
    rs_pool_entry exact[] = {seek(1, 10, 1500, 0), seek(2, 20, 1600, 0)}; /* 100 is inside */
    assert_int_equal(rs_pool_pair(exact, 2, 2, NOW, out), 1);
}

/* The longest-waiting seek takes the nearest rating, not the longer-waiting of the others;
 * equally near, the longer-waiting one. */
static void test_nearest_first(void **state)
{
    (void)state;
    size_t out[4];
    rs_pool_entry s[] = {seek(1, 10, 1500, 3000), seek(2, 20, 1560, 2000), seek(3, 30, 1510, 1000),
                         seek(4, 40, 1590, 0)};
    assert_int_equal(rs_pool_pair(s, 4, 2, NOW, out), 2);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 2); /* 1510 is nearer 1500 than 1560 */
    assert_int_equal(out[2], 1);
    assert_int_equal(out[3], 3);
    rs_pool_entry tie[] = {seek(1, 10, 1500, 3000), seek(2, 20, 1540, 1000),
                           seek(3, 30, 1460, 2000)};
    assert_int_equal(rs_pool_pair(tie, 3, 2, NOW, out), 1);
    assert_int_equal(out[1], 2); /* 40 points either way: the one waiting since longer */
}

/* A seek no one fits waits; the next-longest-waiting still pairs. */
static void test_unmatched_anchor_waits(void **state)
{
    (void)state;
    size_t out[3];
    rs_pool_entry s[] = {seek(1, 10, 2000, 4000), seek(2, 20, 1500, 2000), seek(3, 30, 1550, 1000)};
    assert_int_equal(rs_pool_pair(s, 3, 2, NOW, out), 1);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 2);
}

/* Never a user with themselves, with a linked user, or two guests of one account. */
static void test_no_self_or_linked(void **state)
{
    (void)state;
    size_t out[4];
    rs_pool_entry self[] = {seek(1, 10, 1500, 0), seek(2, 10, 1500, 0)};
    assert_int_equal(rs_pool_pair(self, 2, 2, NOW, out), 0);
    rs_pool_entry guest = seek(1, 11, 1500, 0), account = seek(2, 12, 1500, 0);
    guest.linked[guest.num_linked++] = 12; /* the guest logged into the account */
    assert_false(rs_pool_compatible(&guest, &account, NOW));
    assert_false(rs_pool_compatible(&account, &guest, NOW)); /* whichever side knows it */
    rs_pool_entry other_guest = seek(3, 13, 1500, 0);
    other_guest.linked[other_guest.num_linked++] = 12;
    assert_false(rs_pool_compatible(&guest, &other_guest, NOW));
    /* With a stranger in the pool, each of them is paired with the stranger, never together. */
    rs_pool_entry s[] = {guest, account, seek(4, 99, 1500, 0)};
    s[0].since_ms -= 10; /* the guest waited longest */
    assert_int_equal(rs_pool_pair(s, 3, 2, NOW, out), 1);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 2);
}

/* Groups of four: every pair of the group within its windows; one seek too far for one member
 * is passed over for the next nearest. */
static void test_groups_of_four(void **state)
{
    (void)state;
    size_t out[8];
    rs_pool_entry s[] = {seek(1, 1, 1500, 5000), seek(2, 2, 1560, 4000), seek(3, 3, 1440, 3000),
                         seek(4, 4, 1520, 2000), seek(5, 5, 1580, 1000), seek(6, 6, 1700, 0)};
    const size_t groups = rs_pool_pair(s, 6, 4, NOW, out);
    assert_int_equal(groups, 1);
    /* Nearest 1500: 1520, then 1560 and 1440 (60 each: 1560 waited longer), then 1580; 1440
     * is 120 from 1560, more than both windows (100), so it is passed over for 1580. */
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 3);
    assert_int_equal(out[2], 1);
    assert_int_equal(out[3], 4);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = i + 1; j < 4; j++)
            assert_true(rs_pool_compatible(&s[out[i]], &s[out[j]], NOW));
}

/* Many seeks at random: each in at most one group, every pair of a group compatible. */
static void test_random_pools_hold_the_rule(void **state)
{
    (void)state;
    enum { N = 60 };
    rng_seed(7);
    for (int round = 0; round < 50; round++) {
        rs_pool_entry s[N];
        size_t out[N];
        for (int i = 0; i < N; i++)
            s[i] = seek(i + 1, 100 + rng_below(40), 1200 + rng_below(600), rng_below(30000));
        const int size = 2 + round % 3;
        const size_t groups = rs_pool_pair(s, N, size, NOW, out);
        bool used[N] = {false};
        for (size_t g = 0; g < groups; g++)
            for (int i = 0; i < size; i++) {
                const size_t x = out[g * (size_t)size + (size_t)i];
                assert_false(used[x]);
                used[x] = true;
                for (int j = i + 1; j < size; j++)
                    assert_true(
                        rs_pool_compatible(&s[x], &s[out[g * (size_t)size + (size_t)j]], NOW));
            }
        assert_true(groups > 0);
    }
}

static uint32_t lowest(uint32_t upper)
{
    (void)upper;
    return 0;
}

static uint32_t draw(uint32_t upper)
{
    return rng_below(upper);
}

/* Shuffling keeps the players and, drawn fairly, puts each one in each seat. */
static void test_shuffle(void **state)
{
    (void)state;
    size_t items[3] = {7, 8, 9};
    rs_pool_shuffle(items, 3, lowest);
    assert_int_equal(items[0] + items[1] + items[2], 24);
    int first[3] = {0};
    rng_seed(11);
    for (int i = 0; i < 3000; i++) {
        size_t order[3] = {0, 1, 2};
        rs_pool_shuffle(order, 3, draw);
        assert_int_equal(order[0] + order[1] + order[2], 3);
        first[order[0]]++;
    }
    for (int i = 0; i < 3; i++)
        assert_true(first[i] > 800 && first[i] < 1200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_widens),
        cmocka_unit_test(test_pairs_once_both_windows_allow),
        cmocka_unit_test(test_nearest_first),
        cmocka_unit_test(test_unmatched_anchor_waits),
        cmocka_unit_test(test_no_self_or_linked),
        cmocka_unit_test(test_groups_of_four),
        cmocka_unit_test(test_random_pools_hold_the_rule),
        cmocka_unit_test(test_shuffle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
