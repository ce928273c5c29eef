/* forwarded.h — the client's address behind a reverse proxy (HAProxy, `serve --trusted-proxy`):
 * addresses parsed and compared by value, and the X-Forwarded-For header read the way a proxy
 * that appends to it (HAProxy's `option forwardfor`) means it. */
#ifndef RS_FORWARDED_H
#define RS_FORWARDED_H

#include <stdbool.h>
#include <stddef.h>

#define RS_MAX_TRUSTED_PROXIES 16
#define RS_ADDR_TEXT 46 /* INET6_ADDRSTRLEN */

/* An IPv4 or IPv6 address; an IPv4-mapped IPv6 one (::ffff:1.2.3.4) is held as IPv4. */
typedef struct rs_addr {
    int family; /* AF_INET or AF_INET6 */
    unsigned char bytes[16];
} rs_addr;

/* A literal address ("10.0.0.5", "2001:db8::1", "::ffff:10.0.0.5") into *out; false for
 * anything else (a name, a port, a network, spaces). */
bool rs_addr_parse(const char *text, rs_addr *out);

bool rs_addr_equal(const rs_addr *a, const rs_addr *b);

/* The address in its canonical text ("10.0.0.5", "2001:db8::1") into out (RS_ADDR_TEXT). */
void rs_addr_format(const rs_addr *a, char *out, size_t size);

/* The key one client's limits are counted under, from its address text: an IPv4 address whole,
 * an IPv6 one by its /64 ("2001:db8:1:2::/64"): one subscriber's network, in which a client can
 * take as many addresses as it likes. Text that is no address is its own key. */
void rs_addr_holder(const char *text, char *out, size_t size);

/* The client named by an X-Forwarded-For value: its last (rightmost) element, the one the
 * nearest proxy appended (any earlier ones came from the client and prove nothing). Written
 * canonically into out; false when that element is not one literal address, the value empty
 * or too long. */
bool rs_forwarded_client(const char *header, char *out, size_t size);

#endif
