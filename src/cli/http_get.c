/* http_get.c — one HTTP GET to a Ramparts server's read-only API (`ramparts tournaments`), over
 * a plain socket: the light tool links no HTTP or TLS library (tests/cli/light.sh), so only
 * http:// addresses are read. A reply ends at its Content-Length, its last chunk or the close,
 * whichever the server gives; every wait is bounded by RP_CLI_HTTP_TIMEOUT_S. */
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "ramparts/version.h"

#define REPLY_MAX (32u << 20) /* a reply larger than this is not the API's */

/* The parts of http://HOST[:PORT][/PREFIX]. */
typedef struct http_url {
    char host[256], port[8], prefix[512];
    bool v6; /* the host was written [V6] */
} http_url;

/* The reason into err; returns rc. */
static int url_error(char *err, size_t size, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int url_error(char *err, size_t size, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return rc;
}

/* The host and port of "HOST[:PORT]" or "[V6][:PORT]" (authority, len bytes) into u. */
static bool parse_authority(const char *authority, size_t len, http_url *u)
{
    const char *host = authority, *port = NULL;
    size_t host_len = len;
    if (len && authority[0] == '[') {
        const char *close = memchr(authority, ']', len);
        if (!close)
            return false;
        host = authority + 1;
        host_len = (size_t)(close - host);
        u->v6 = true;
        if (close + 1 < authority + len) {
            if (close[1] != ':')
                return false;
            port = close + 2;
        }
    } else {
        const char *colon = memchr(authority, ':', len);
        if (colon) {
            host_len = (size_t)(colon - authority);
            port = colon + 1;
        }
    }
    const size_t port_len = port ? (size_t)(authority + len - port) : 0;
    if (host_len == 0 || host_len >= sizeof u->host || (port && (port_len == 0 || port_len > 5)))
        return false;
    for (size_t i = 0; i < port_len; i++)
        if (port[i] < '0' || port[i] > '9')
            return false;
    if (port && strtol(port, NULL, 10) > 65535) /* digits only, at most 5: no error to see */
        return false;
    snprintf(u->host, sizeof u->host, "%.*s", (int)host_len, host);
    snprintf(u->port, sizeof u->port, "%.*s", port ? (int)port_len : 2, port ? port : "80");
    return true;
}

static int parse_url(const char *url, http_url *u, char *err, size_t size)
{
    memset(u, 0, sizeof *u);
    static const char HTTP[] = "http://";
    if (strncasecmp(url, "https://", 8) == 0)
        return url_error(err, size, RP_EXIT_USAGE,
                         "%s: https is not supported (this tool links no TLS library); give "
                         "the server's http:// address",
                         url);
    if (strncasecmp(url, HTTP, sizeof HTTP - 1) != 0)
        return url_error(err, size, RP_EXIT_USAGE,
                         "%s: expected http://HOST[:PORT], e.g. http://127.0.0.1:8080", url);
    const char *authority = url + sizeof HTTP - 1;
    const size_t len = strcspn(authority, "/?#");
    const char *rest = authority + len;
    if (rp_cli_line_has_control(url) || strchr(url, ' ') || *rest == '?' || *rest == '#' ||
        strlen(rest) >= sizeof u->prefix || !parse_authority(authority, len, u))
        return url_error(err, size, RP_EXIT_USAGE,
                         "%s: expected http://HOST[:PORT], e.g. http://127.0.0.1:8080", url);
    snprintf(u->prefix, sizeof u->prefix, "%s", rest);
    const size_t plen = strlen(u->prefix);
    if (plen && u->prefix[plen - 1] == '/')
        u->prefix[plen - 1] = '\0'; /* "http://h:1/" and "http://h:1" are one server */
    return RP_EXIT_OK;
}

/* A connected socket to u, both ways timed out after RP_CLI_HTTP_TIMEOUT_S (connect too:
 * Linux bounds it by the send timeout), or -1 with the reason in err. */
static int connect_to(const http_url *u, const char *url, char *err, size_t size)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *list = NULL;
    const int gai = getaddrinfo(u->host, u->port, &hints, &list);
    if (gai != 0) {
        url_error(err, size, RP_EXIT_FAIL, "cannot reach %s: %s", url, gai_strerror(gai));
        return -1;
    }
    const struct timeval limit = {.tv_sec = RP_CLI_HTTP_TIMEOUT_S};
    int fd = -1, why = 0;
    for (const struct addrinfo *a = list; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            why = errno;
            continue;
        }
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        if (connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
            why = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(list);
    if (fd < 0)
        url_error(err, size, RP_EXIT_FAIL, "cannot reach %s: %s", url,
                  why == EAGAIN || why == EINPROGRESS ? "no answer" : strerror(why));
    return fd;
}

static bool send_all(int fd, const char *data, size_t len)
{
    while (len) {
        const ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* The value of header `name` in the head (up to its blank line) of a reply, or NULL. */
static const char *header(const char *head, const char *name)
{
    const size_t len = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line && line[2] != '\r';
         line = strstr(line + 2, "\r\n"))
        if (strncasecmp(line + 2, name, len) == 0 && line[2 + len] == ':')
            return line + 3 + len + strspn(line + 3 + len, " \t");
    return NULL;
}

/* A chunked body (from `body`, `len` bytes) decoded in place: its length, or -1 while it is
 * incomplete or not chunked as HTTP/1.1 says. */
static long dechunk(char *body, size_t len)
{
    size_t in = 0, out = 0;
    for (;;) {
        char *end;
        const char *crlf = memchr(body + in, '\n', len - in);
        if (!crlf)
            return -1;
        const unsigned long chunk = strtoul(body + in, &end, 16);
        if (end == body + in || chunk > REPLY_MAX)
            return -1;
        in = (size_t)(crlf - body) + 1;
        if (chunk == 0)
            return (long)out;
        if (len - in < chunk + 2)
            return -1;
        memmove(body + out, body + in, chunk);
        out += chunk;
        in += chunk + 2; /* the chunk's CRLF */
    }
}

/* Whether buf (len bytes) holds a whole reply: its head and the body its Content-Length or
 * chunks announce. A reply with neither ends when the server closes. */
static bool reply_whole(const char *buf, size_t len)
{
    const char *blank = strstr(buf, "\r\n\r\n");
    if (!blank)
        return false;
    const size_t body = (size_t)(blank - buf) + 4;
    const char *chunked = header(buf, "Transfer-Encoding");
    if (chunked && strncasecmp(chunked, "chunked", 7) == 0) {
        char *copy = malloc(len - body + 1);
        const bool whole =
            copy && (memcpy(copy, buf + body, len - body), dechunk(copy, len - body) >= 0);
        free(copy);
        return whole;
    }
    const char *length = header(buf, "Content-Length");
    return length && len - body >= strtoul(length, NULL, 10);
}

/* The whole reply into a new NUL-terminated buffer, or NULL with the reason in err. */
static char *receive(int fd, size_t *len, const char *url, char *err, size_t size)
{
    size_t cap = 65536;
    char *buf = malloc(cap + 1);
    *len = 0;
    while (buf) {
        if (*len == cap) {
            char *more = cap < REPLY_MAX ? realloc(buf, cap * 2 + 1) : NULL;
            if (!more) {
                url_error(err, size, RP_EXIT_FAIL, "%s: the reply is too large", url);
                free(buf);
                return NULL;
            }
            buf = more;
            cap *= 2;
        }
        const ssize_t n = recv(fd, buf + *len, cap - *len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            url_error(err, size, RP_EXIT_FAIL, "%s: %s", url,
                      errno == EAGAIN ? "no answer" : strerror(errno));
            free(buf);
            return NULL;
        }
        *len += (size_t)n;
        buf[*len] = '\0';
        if (n == 0 || reply_whole(buf, *len))
            return buf;
    }
    url_error(err, size, RP_EXIT_FAIL, "out of memory");
    return NULL;
}

/* The status and body of a whole reply (buf, len bytes) into out; false when it is not HTTP. */
static bool parse_reply(char *buf, size_t len, rp_cli_http_reply *out)
{
    char *blank = strstr(buf, "\r\n\r\n"), *end = NULL;
    /* "HTTP/1.1 200 OK": the status is the three digits after the version. */
    if (!blank || strncmp(buf, "HTTP/1.", 7) != 0 || (buf[7] != '0' && buf[7] != '1') ||
        buf[8] != ' ')
        return false;
    const long status = strtol(buf + 9, &end, 10);
    if (end != buf + 12 || status < 100 || status > 599)
        return false;
    *blank = '\0'; /* the head ends here: header() reads no further */
    char *body = blank + 4;
    size_t body_len = len - (size_t)(body - buf);
    const char *chunked = header(buf, "Transfer-Encoding");
    const char *length = header(buf, "Content-Length");
    if (chunked && strncasecmp(chunked, "chunked", 7) == 0) {
        const long n = dechunk(body, body_len);
        if (n < 0)
            return false;
        body_len = (size_t)n;
    } else if (length) {
        const unsigned long n = strtoul(length, NULL, 10);
        if (n > body_len)
            return false; /* closed before the end */
        body_len = n;
    }
    memmove(buf, body, body_len);
    buf[body_len] = '\0';
    *out = (rp_cli_http_reply){.status = (int)status, .body = buf, .length = body_len};
    return true;
}

int rp_cli_http_get(const char *url, const char *path, rp_cli_http_reply *out, char *err,
                    size_t err_size)
{
    memset(out, 0, sizeof *out);
    http_url u;
    int rc = parse_url(url, &u, err, err_size);
    if (rc != RP_EXIT_OK)
        return rc;
    const int fd = connect_to(&u, url, err, err_size);
    if (fd < 0)
        return RP_EXIT_FAIL;
    char request[2048];
    const char *open = u.v6 ? "[" : "", *close_ = u.v6 ? "]" : "";
    snprintf(request, sizeof request,
             "GET %s%s HTTP/1.1\r\nHost: %s%s%s:%s\r\nAccept: application/json\r\n"
             "User-Agent: ramparts/%s\r\nConnection: close\r\n\r\n",
             u.prefix, path, open, u.host, close_, u.port, RP_VERSION_STRING);
    size_t len = 0;
    char *buf = NULL;
    if (!send_all(fd, request, strlen(request)))
        url_error(err, err_size, RP_EXIT_FAIL, "%s: %s", url, strerror(errno));
    else
        buf = receive(fd, &len, url, err, err_size);
    close(fd);
    if (!buf)
        return RP_EXIT_FAIL;
    if (!parse_reply(buf, len, out)) {
        free(buf);
        return url_error(err, err_size, RP_EXIT_FAIL, "%s: the answer is not HTTP", url);
    }
    return RP_EXIT_OK;
}
