/* forwarded.c — the client's address behind a trusted reverse proxy: literal addresses
 * parsed with inet_pton and compared by value, and X-Forwarded-For's last element (see
 * forwarded.h). */
#include "forwarded.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static const unsigned char V4_MAPPED_PREFIX[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

bool rs_addr_parse(const char *text, rs_addr *out)
{
    memset(out, 0, sizeof *out);
    if (inet_pton(AF_INET, text, out->bytes) == 1) {
        out->family = AF_INET;
        return true;
    }
    if (inet_pton(AF_INET6, text, out->bytes) != 1)
        return false;
    out->family = AF_INET6;
    if (memcmp(out->bytes, V4_MAPPED_PREFIX, sizeof V4_MAPPED_PREFIX) == 0) {
        memmove(out->bytes, out->bytes + 12, 4);
        memset(out->bytes + 4, 0, 12);
        out->family = AF_INET;
    }
    return true;
}

bool rs_addr_equal(const rs_addr *a, const rs_addr *b)
{
    const size_t len = a->family == AF_INET ? 4 : 16;
    return a->family == b->family && memcmp(a->bytes, b->bytes, len) == 0;
}

void rs_addr_format(const rs_addr *a, char *out, size_t size)
{
    char text[RS_ADDR_TEXT] = "";
    if (!inet_ntop(a->family, a->bytes, text, sizeof text))
        snprintf(text, sizeof text, "?");
    snprintf(out, size, "%s", text);
}

void rs_addr_holder(const char *text, char *out, size_t size)
{
    rs_addr a;
    if (!rs_addr_parse(text, &a)) {
        snprintf(out, size, "%s", text);
        return;
    }
    if (a.family == AF_INET6)
        memset(a.bytes + 8, 0, 8);
    char canonical[RS_ADDR_TEXT];
    rs_addr_format(&a, canonical, sizeof canonical);
    snprintf(out, size, "%s%s", canonical, a.family == AF_INET6 ? "/64" : "");
}

bool rs_forwarded_client(const char *header, char *out, size_t size)
{
    const char *last = strrchr(header, ',');
    last = last ? last + 1 : header;
    while (*last == ' ' || *last == '\t')
        last++;
    size_t len = strlen(last);
    while (len > 0 && (last[len - 1] == ' ' || last[len - 1] == '\t'))
        len--;
    char element[RS_ADDR_TEXT];
    if (len == 0 || len >= sizeof element)
        return false;
    memcpy(element, last, len);
    element[len] = '\0';
    rs_addr addr;
    if (!rs_addr_parse(element, &addr))
        return false;
    rs_addr_format(&addr, out, size);
    return true;
}
