/* test_core.c — the pieces under every game: the PCG32 generator (against the reference
 * output, so sequences are the same everywhere) and error texts. */
#include <string.h>

#include "support.h"

/* Reference: pcg32-demo from pcg-c-basic, seeded with (42, 54). */
static void test_pcg32_matches_reference(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 42u, 54u);
    const uint32_t expected[6] = {0xa15c02b7, 0x7b47f409, 0xba1d3330,
                                  0x83d2f293, 0xbfa4784b, 0xcbed606e};
    for (int i = 0; i < 6; i++)
        assert_int_equal(rp_rng_next(&rng), expected[i]);
}

static void test_rng_below_stays_in_range_and_covers_it(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 1, 1);
    int seen[7] = {0};
    for (int i = 0; i < 7000; i++) {
        uint32_t v = rp_rng_below(&rng, 7);
        assert_true(v < 7);
        seen[v]++;
    }
    for (int i = 0; i < 7; i++)
        assert_true(seen[i] > 800 && seen[i] < 1200);
}

static void test_shuffle_is_a_permutation(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 3, 1);
    uint8_t items[20];
    for (int i = 0; i < 20; i++)
        items[i] = (uint8_t)i;
    rp_rng_shuffle_u8(&rng, items, 20);
    int seen[20] = {0};
    for (int i = 0; i < 20; i++)
        seen[items[i]]++;
    for (int i = 0; i < 20; i++)
        assert_int_equal(seen[i], 1);
}

static void test_error_texts(void **unused)
{
    (void)unused;
    assert_string_equal(rp_strerror(RP_OK), "ok");
    assert_string_equal(rp_strerror(RP_EILLEGAL), "illegal move");
    rp_error err;
    assert_int_equal(rp_fail(&err, RP_EPARSE, "bad %d", 3), RP_EPARSE);
    assert_string_equal(err.msg, "bad 3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcg32_matches_reference),
        cmocka_unit_test(test_rng_below_stays_in_range_and_covers_it),
        cmocka_unit_test(test_shuffle_is_a_permutation),
        cmocka_unit_test(test_error_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
