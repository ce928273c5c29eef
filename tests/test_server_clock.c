/* test_server_clock.c — the server's game clocks (src/server/clock.c) on fake time: live
 * clocks with increments, flagging, correspondence clocks, resuming after a restart. */
#include "support.h"

#include "clock.h"

#define MS INT64_C(1000) /* microseconds */

static void test_live_clock_charges_and_increments(void **state)
{
    (void)state;
    rs_clock c;
    rs_clock_init(&c, RS_CLOCK_LIVE, 1000, 500, 0, 2);
    rs_clock_start(&c, 0, 0);
    assert_int_equal(rs_clock_remaining_ms(&c, 0, 400 * MS), 600);
    assert_int_equal(rs_clock_remaining_ms(&c, 1, 400 * MS), 1000); /* not running */
    assert_true(rs_clock_charge(&c, 400 * MS, true));
    assert_int_equal(c.remaining_ms[0], 1100); /* 600 left plus the 500 increment */
    assert_int_equal(c.running, -1);
    rs_clock_start(&c, 1, 400 * MS);
    assert_int_equal(rs_clock_deadline_us(&c), 1400 * MS);
    assert_int_equal(rs_clock_flagged(&c, 1399 * MS), -1);
    assert_int_equal(rs_clock_flagged(&c, 1400 * MS), 1);
}

/* A turn of several actions: the clock keeps running between them and the increment comes
 * once, when the turn ends. */
static void test_increment_once_per_turn(void **state)
{
    (void)state;
    rs_clock c;
    rs_clock_init(&c, RS_CLOCK_LIVE, 10000, 1000, 0, 2);
    rs_clock_start(&c, 0, 0);
    assert_true(rs_clock_charge(&c, 2000 * MS, false));
    assert_int_equal(c.running, 0);
    assert_int_equal(c.remaining_ms[0], 8000);
    assert_true(rs_clock_charge(&c, 3000 * MS, true));
    assert_int_equal(c.remaining_ms[0], 8000);
}

/* Out of time: no increment, and the charge says so. */
static void test_late_move_gets_no_increment(void **state)
{
    (void)state;
    rs_clock c;
    rs_clock_init(&c, RS_CLOCK_LIVE, 1000, 5000, 0, 2);
    rs_clock_start(&c, 0, 0);
    assert_false(rs_clock_charge(&c, 1500 * MS, true));
    assert_true(c.remaining_ms[0] <= 0);
}

static void test_correspondence_resets_each_move(void **state)
{
    (void)state;
    rs_clock c;
    const int64_t day = 86400000;
    rs_clock_init(&c, RS_CLOCK_CORRESPONDENCE, 0, 0, 2 * day, 2);
    rs_clock_start(&c, 0, 0);
    assert_true(rs_clock_charge(&c, day * MS, true));
    rs_clock_start(&c, 1, day * MS);
    rs_clock_start(&c, 0, (int64_t)(1.5 * (double)day) * MS);
    assert_int_equal(c.remaining_ms[0], 2 * day); /* a full two days for the new move */
    assert_int_equal(rs_clock_flagged(&c, (int64_t)(3.5 * (double)day) * MS), 0);
}

static void test_untimed_never_flags(void **state)
{
    (void)state;
    rs_clock c;
    rs_clock_init(&c, RS_CLOCK_NONE, 0, 0, 0, 3);
    rs_clock_start(&c, 2, 0);
    assert_int_equal(rs_clock_flagged(&c, INT64_MAX / 2), -1);
    assert_true(rs_clock_deadline_us(&c) == RS_CLOCK_NEVER);
}

/* After a restart only what the seat used before the server went down is charged. */
static void test_resume_charges_only_the_time_seen(void **state)
{
    (void)state;
    rs_clock c;
    rs_clock_init(&c, RS_CLOCK_LIVE, 60000, 0, 0, 2);
    c.remaining_ms[1] = 30000;
    c.running = 1;
    rs_clock_resume(&c, 4000, 777 * MS);
    assert_int_equal(c.remaining_ms[1], 26000);
    assert_int_equal(c.stamp_us, 777 * MS);
    assert_int_equal(rs_clock_remaining_ms(&c, 1, 1777 * MS), 25000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_clock_charges_and_increments),
        cmocka_unit_test(test_increment_once_per_turn),
        cmocka_unit_test(test_late_move_gets_no_increment),
        cmocka_unit_test(test_correspondence_resets_each_move),
        cmocka_unit_test(test_untimed_never_flags),
        cmocka_unit_test(test_resume_charges_only_the_time_seen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
