/* test_server_forwarded.c — the client's address behind a trusted proxy (src/server/
 * forwarded.c): literal addresses parsed and compared by value, and X-Forwarded-For read from
 * its last element, the one the nearest proxy appended (docs/server.md, "Behind a reverse
 * proxy"). */
#include "support.h"

#include "forwarded.h"

static void test_addresses_parse_and_compare_by_value(void **state)
{
    (void)state;
    rs_addr a, b;
    assert_true(rs_addr_parse("10.0.0.5", &a));
    assert_true(rs_addr_parse("::ffff:10.0.0.5", &b)); /* IPv4-mapped: the same address */
    assert_true(rs_addr_equal(&a, &b));
    assert_true(rs_addr_parse("10.0.0.6", &b));
    assert_false(rs_addr_equal(&a, &b));
    assert_true(rs_addr_parse("2001:db8::1", &a));
    assert_true(rs_addr_parse("2001:0db8:0:0:0:0:0:1", &b));
    assert_true(rs_addr_equal(&a, &b));
    char text[RS_ADDR_TEXT];
    rs_addr_format(&b, text, sizeof text);
    assert_string_equal(text, "2001:db8::1");
    const char *refused[] = {
        "",      "proxy.example.org", "10.0.0.0/8", "10.0.0.5:80", " 10.0.0.5", "1.2.3",
        "[::1]", "256.0.0.1"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        assert_false(rs_addr_parse(refused[i], &a));
}

static void test_forwarded_client_is_the_last_element(void **state)
{
    (void)state;
    char out[RS_ADDR_TEXT];
    assert_true(rs_forwarded_client("203.0.113.7", out, sizeof out));
    assert_string_equal(out, "203.0.113.7");
    /* A client's own element first, then the proxy's: the proxy's counts. */
    assert_true(rs_forwarded_client("198.51.100.9, 203.0.113.7", out, sizeof out));
    assert_string_equal(out, "203.0.113.7");
    assert_true(rs_forwarded_client("junk,\t::ffff:203.0.113.7 ", out, sizeof out));
    assert_string_equal(out, "203.0.113.7");
    assert_true(rs_forwarded_client("2001:DB8:0::1", out, sizeof out));
    assert_string_equal(out, "2001:db8::1");
}

static void test_malformed_forwarded_values_are_refused(void **state)
{
    (void)state;
    char out[RS_ADDR_TEXT] = "unchanged";
    const char *refused[] = {"",
                             " ",
                             "203.0.113.7,",
                             "unknown",
                             "_hidden",
                             "203.0.113.7:4000",
                             "[2001:db8::1]:80",
                             "203.0.113.7 198.51.100.9",
                             "2001:db8:0:0:0:0:0:0:1:2:3:4:5:6:7:8"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        assert_false(rs_forwarded_client(refused[i], out, sizeof out));
}

/* Issue 49, finding 11: limits count an IPv6 client by its /64 (one subscriber's network,
 * where it may take any address), an IPv4 one by its address; text that is no address is its
 * own key. */
static void test_limits_count_an_ipv6_client_by_its_64(void **state)
{
    (void)state;
    char a[64], b[64], c[64];
    rs_addr_holder("2001:db8:1:2::1", a, sizeof a);
    rs_addr_holder("2001:db8:1:2:ffff:1:2:3", b, sizeof b);
    rs_addr_holder("2001:db8:1:3::1", c, sizeof c);
    assert_string_equal(a, "2001:db8:1:2::/64");
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    rs_addr_holder("10.0.0.5", a, sizeof a);
    rs_addr_holder("10.0.0.6", b, sizeof b);
    assert_string_equal(a, "10.0.0.5");
    assert_string_not_equal(a, b);
    rs_addr_holder("::ffff:10.0.0.5", b, sizeof b); /* the same client over IPv6 */
    assert_string_equal(a, b);
    rs_addr_holder("?", a, sizeof a);
    assert_string_equal(a, "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_addresses_parse_and_compare_by_value),
        cmocka_unit_test(test_forwarded_client_is_the_last_element),
        cmocka_unit_test(test_malformed_forwarded_values_are_refused),
        cmocka_unit_test(test_limits_count_an_ipv6_client_by_its_64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
