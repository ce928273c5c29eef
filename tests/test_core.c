/* test_core.c — the pieces under every game: the PCG32 generator (against the reference
 * output, so sequences are the same everywhere), error texts, and the notation toolkit every
 * game's full-state notation is written and read with (src/core/notation.h). */
#include <string.h>

#include "core/notation.h"
#include "core/rng_internal.h"
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

/* The plain reference of every shuffle: Fisher-Yates from the end, one rp_rng_below a step. */
static void plain_shuffle(rp_rng *rng, uint8_t *items, int n)
{
    for (int i = n - 1; i > 0; i--) {
        const uint32_t j = rp_rng_below(rng, (uint32_t)i + 1);
        const uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* The inline shuffle (rp__rng_shuffle_u8 at a constant size, as the games' deals call it, and
 * at a size the compiler does not know, as a reshuffle) and rp_rng_shuffle_u8 and _u16 against
 * the plain reference: the same items and the same generator state after. */
static void check_shuffles_agree(const rp_rng *start, int n)
{
    uint8_t plain[64], fast[64], called[64];
    uint16_t wide[64];
    for (int i = 0; i < 64; i++)
        plain[i] = fast[i] = called[i] = (uint8_t)(i * 7 + 1), wide[i] = plain[i];
    rp_rng a = *start, b = *start, c = *start, d = *start;
    plain_shuffle(&a, plain, n);
    switch (n) { /* the constant sizes the games shuffle at, unrolled in an optimized build */
    case 8:
        rp__rng_shuffle_u8(&b, fast, 8);
        break;
    case 31:
        rp__rng_shuffle_u8(&b, fast, 31);
        break;
    case 52:
        rp__rng_shuffle_u8(&b, fast, 52);
        break;
    default:
        rp__rng_shuffle_u8(&b, fast, n);
    }
    rp_rng_shuffle_u8(&c, called, n);
    rp_rng_shuffle_u16(&d, wide, n);
    assert_memory_equal(plain, fast, sizeof plain);
    assert_memory_equal(plain, called, sizeof plain);
    for (int i = 0; i < 64; i++)
        assert_int_equal(wide[i], plain[i]);
    assert_memory_equal(&a, &b, sizeof a);
    assert_memory_equal(&a, &c, sizeof a);
    assert_memory_equal(&a, &d, sizeof a);
}

/* Every size to 64 from many seeds, and from generator state 0, whose first output is 0: the
 * first draw takes the rare redraw path (rp__rng_redrawn_below), which the fast loops leave
 * through the generator in memory. */
static void test_inline_shuffle_matches_plain_draws(void **unused)
{
    (void)unused;
    for (int n = 0; n <= 64; n++) {
        for (uint64_t seed = 0; seed < 40; seed++) {
            rp_rng rng;
            rp_rng_seed(&rng, seed, (uint64_t)n);
            check_shuffles_agree(&rng, n);
        }
        const rp_rng zero = {0, 0x5741u * 2 + 1};
        check_shuffles_agree(&zero, n);
    }
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

/* Bad input gets a clear error: one printable line even when the refused text held newlines
 * or a terminal escape, since messages quote it (terminal, protocol and network all show it). */
static void test_errors_quote_input_as_one_printable_line(void **unused)
{
    (void)unused;
    const char *hostile[] = {"a1\nplay x", "\x1b[2J\x1b[31mred", "c1\r-c2", "fire\td2:4\x7f"};
    for (int g = 0; g < rp_num_games; g++) {
        const rp_game *game = rp_games[g];
        rp_config cfg;
        rp_config_default(game, &cfg);
        rp_state st;
        assert_int_equal(game->init(&st, &cfg, NULL), RP_OK);
        for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
            rp_error err = {{0}};
            rp_action a;
            assert_true(game->action_from_text(&st, hostile[i], &a, &err) < 0);
            assert_true(err.msg[0] != '\0');
            for (const char *c = err.msg; *c; c++)
                assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
            assert_true(game->state_from_text(&st, hostile[i], &err) < 0);
            for (const char *c = err.msg; *c; c++)
                assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
        }
    }
}

/* ---- the notation toolkit ---- */

static rp_span span(const char *text)
{
    return (rp_span){text, strlen(text)};
}

static void test_notation_writes_the_one_grammar(void **unused)
{
    (void)unused;
    char buf[128];
    rp_text t;
    rp__text_init(&t, buf, sizeof buf);
    rp__put_tag(&t, "xx1");
    rp__put_key(&t, "n");
    rp__put_uint(&t, 1234567890123ULL);
    rp__put_key(&t, "neg");
    rp__put_int(&t, -42);
    rp__put_key(&t, "list");
    int count = 0;
    for (int i = 0; i < 3; i++) {
        rp__put_sep(&t, &count, ',');
        rp__put_uint(&t, (uint64_t)i);
    }
    rp__put_list_end(&t, count);
    rp__put_key(&t, "empty");
    rp__put_list_end(&t, 0);
    rp_rng rng = {0x0123456789abcdefULL, 0xfedcba9876543211ULL};
    rp__put_rng(&t, &rng);
    assert_int_equal(rp__text_finish(&t), (int)strlen(buf));
    assert_string_equal(buf, "xx1 n=1234567890123 neg=-42 list=0,1,2 empty=- "
                             "rng=0123456789abcdef.fedcba9876543211");

    char tiny[8];
    rp__text_init(&t, tiny, sizeof tiny);
    rp__put_tag(&t, "a-long-tag");
    assert_int_equal(rp__text_finish(&t), RP_ENOSPACE);
}

static void test_notation_reads_fields_in_order(void **unused)
{
    (void)unused;
    rp_error err = {{0}};
    rp_reader r;
    rp_span v;
    assert_int_equal(
        rp__read_begin(&r, "xx1 a=5 b=x,y,z rng=0000000000000001.0000000000000003", "xx1", &err),
        RP_OK);
    uint64_t n;
    assert_int_equal(rp__read_field(&r, "a", &v), RP_OK);
    assert_int_equal(rp__span_uint(&r, "a", v, 0, 9, &n), RP_OK);
    assert_int_equal(n, 5);
    assert_int_equal(rp__read_field(&r, "b", &v), RP_OK);
    rp_list list;
    rp_span item;
    rp__list_begin(&list, v, ',');
    int items = 0;
    while (rp__list_next(&list, &item))
        items++;
    assert_int_equal(items, 3);
    rp_rng rng;
    assert_int_equal(rp__read_rng(&r, &rng), RP_OK);
    assert_true(rng.state == 1 && rng.inc == 3);
    assert_int_equal(rp__read_end(&r), RP_OK);

    rp__list_begin(&list, span("-"), ',');
    assert_false(rp__list_next(&list, &item));
}

/* Each refusal names what was wrong. */
static void expect_refused(int rc, const rp_error *err, const char *words)
{
    assert_true(rc < 0);
    if (!strstr(err->msg, words))
        fail_msg("expected a message with '%s', got '%s'", words, err->msg);
}

static void test_notation_refuses_everything_else(void **unused)
{
    (void)unused;
    rp_error err = {{0}};
    rp_reader r;
    rp_span v;
    uint64_t n;
    int64_t i;
    expect_refused(rp__read_begin(&r, NULL, "xx1", &err), &err, "no state text");
    expect_refused(rp__read_begin(&r, "xx2 a=1", "xx1", &err), &err, "version 'xx2'");
    expect_refused(rp__read_begin(&r, "yy1 a=1", "xx1", &err), &err, "must start with 'xx1'");
    expect_refused(rp__read_begin(&r, "xx1a=1", "xx1", &err), &err, "must start with");

    const char *bad_fields[] = {"xx1  a=1", "xx1 b=1", "xx1 a=", "xx1", "xx1 a"};
    for (size_t k = 0; k < sizeof bad_fields / sizeof *bad_fields; k++) {
        assert_int_equal(rp__read_begin(&r, bad_fields[k], "xx1", &err), RP_OK);
        assert_true(rp__read_field(&r, "a", &v) < 0);
        assert_true(strncmp(err.msg, "a: ", 3) == 0);
    }
    assert_int_equal(rp__read_begin(&r, "xx1 a=1 junk", "xx1", &err), RP_OK);
    assert_int_equal(rp__read_field(&r, "a", &v), RP_OK);
    expect_refused(rp__read_end(&r), &err, "unexpected text");

    expect_refused(rp__span_uint(&r, "n", span("007"), 0, 100, &n), &err, "leading zero");
    expect_refused(rp__span_uint(&r, "n", span("+7"), 0, 100, &n), &err, "not a whole number");
    expect_refused(rp__span_uint(&r, "n", span("101"), 0, 100, &n), &err, "not in 0..100");
    expect_refused(rp__span_uint(&r, "n", span("99999999999999999999"), 0, 100, &n), &err,
                   "too large");
    expect_refused(rp__span_int(&r, "i", span("-0"), -5, 5, &i), &err, "not -0");
    expect_refused(rp__span_int(&r, "i", span("-6"), -5, 5, &i), &err, "not in -5..5");
    assert_int_equal(rp__span_int(&r, "i", span("-5"), -5, 5, &i), RP_OK);
    assert_int_equal(i, -5);
    expect_refused(rp__span_hex64(&r, "h", span("ABCDEF0123456789"), &n), &err, "lower-case");
    expect_refused(rp__span_hex64(&r, "h", span("abc"), &n), &err, "16 lower-case");

    static const char *const words[] = {"attack", "defend", "over"};
    int k;
    expect_refused(rp__span_choice(&r, "phase", span("Attack"), words, 3, &k), &err,
                   "attack|defend|over");
    assert_int_equal(rp__span_choice(&r, "phase", span("over"), words, 3, &k), RP_OK);
    assert_int_equal(k, 2);

    rp_rng rng;
    assert_int_equal(rp__read_begin(&r, "xx1 rng=0000000000000001.0000000000000002", "xx1", &err),
                     RP_OK);
    expect_refused(rp__read_rng(&r, &rng), &err, "odd");
    assert_int_equal(rp__read_begin(&r, "xx1 rng=01:03", "xx1", &err), RP_OK);
    expect_refused(rp__read_rng(&r, &rng), &err, "rng:");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcg32_matches_reference),
        cmocka_unit_test(test_rng_below_stays_in_range_and_covers_it),
        cmocka_unit_test(test_shuffle_is_a_permutation),
        cmocka_unit_test(test_inline_shuffle_matches_plain_draws),
        cmocka_unit_test(test_error_texts),
        cmocka_unit_test(test_errors_quote_input_as_one_printable_line),
        cmocka_unit_test(test_notation_writes_the_one_grammar),
        cmocka_unit_test(test_notation_reads_fields_in_order),
        cmocka_unit_test(test_notation_refuses_everything_else),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
