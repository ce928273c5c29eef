/* net.c — libwebsockets for `ramparts serve` (see net.h). One protocol handles HTTP and the
 * WebSocket at /ws on one port, on the one service thread; only lws_cancel_service is called
 * from other threads (the workers' notify). Inbound: text messages are assembled up to
 * RS_MAX_MESSAGE bytes, larger ones are dropped with an error, Origin is checked on every
 * upgrade, connections per address are capped. Outbound: each connection has a bounded queue
 * written one message per WRITEABLE callback; a client that falls behind loses its queue and
 * gets a fresh snapshot once it drains, and is closed (1008) if it falls behind again first.
 * The loop is libuv's (epoll) with libwebsockets as a guest in it, or libwebsockets' own
 * poll(2) loop where its libuv plugin is missing (net.h says why). Either way each iteration
 * ends, before the loop sleeps, with rs_server_flush (commit, then deliver) and the one timer
 * re-armed for the next clock deadline: libuv's prepare hook, or after lws_service. A client
 * frame without a mask is caught under libwebsockets (frame_guard.h) and closed with 1002. */
#include "net.h"

#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "api.h"
#include "frame_guard.h"
#include "grow.h"
#include "idmap.h"
#include "log.h"
#include "ratelimit.h"
#include "loop.h"
#include "store.h"

#define OUT_MAX_MESSAGES 64
/* Reading a connection pauses once this many of its messages wait unanswered or unsent, and
 * goes on when its queue has drained: each request's reply has room in the queue, however
 * fast a client sends (a burst of a hundred pings in one packet gets a hundred pongs). */
#define RX_PAUSE_AT 16
#define OUT_MAX_BYTES ((size_t)1024 * 1024)
#define SLOW_CALLBACK_US 5000       /* log callbacks slower than this */
#define DRAIN_MAX_US 3000000        /* time given to close frames on shutdown */
#define OVERFLOW_WINDOW_US 60000000 /* a second overflow within this closes the client */
#define WS_PATH "/ws"
#define SWEEP_SLICES 5   /* the keepalive sweep looks at a fifth of the connection slots a run */
#define DRAIN_TICK_MS 20 /* while draining, libuv wakes this often to check the deadline */
#define START_RETRY_FIRST_US 500000LL /* a database out of reach at start: first retry */
#define START_RETRY_MAX_US 10000000LL /* and at most this long between two */

typedef struct out_msg {
    struct out_msg *next;
    size_t len;
    unsigned char buf[]; /* LWS_PRE bytes of room, then the text */
} out_msg;

typedef struct ws_conn {
    uint64_t id;
    struct lws *wsi;
    char ip[64];
    char rx[RS_MAX_MESSAGE];
    size_t rx_len;
    size_t rx_dropped; /* bytes of an oversized message being skipped */
    bool rx_binary;
    out_msg *head, *tail;
    int out_count;
    size_t out_bytes;
    bool needs_resync; /* its queue overflowed: a snapshot follows once it drains */
    int rx_burst;      /* messages received since its queue was last empty */
    bool rx_paused;    /* not read until its queue drains (RX_PAUSE_AT) */
    int64_t last_overflow_us;
    int64_t last_rx_us;   /* the last message, fragment or pong received */
    int64_t last_ping_us; /* the last ping sent, or 0 */
    bool ping_due;        /* the sweep asked for a ping */
    bool closing;
    bool close_queued; /* in net.pending_closes */
    int close_code;
    char close_reason[64];
} ws_conn;

typedef struct http_txn {
    rs_http_reply reply;
    size_t sent;
    bool active, head_only;
} http_txn;

/* Per-wsi user space: HTTP transactions and the WebSocket connection after an upgrade. */
typedef struct session {
    http_txn http;
    ws_conn *ws;
} session;

typedef struct ip_count {
    char ip[64];
    int count;
} ip_count;

typedef struct net_state {
    const rs_net_config *cfg;
    struct lws_context *context;
    struct lws_vhost *vhost;
    rs_server *server;
    rs_idmap conns;
    uint64_t next_id;
    lws_sorted_usec_list_t timer;
    int64_t timer_at; /* the instant the timer is armed for, or 0 */
    lws_sorted_usec_list_t sweep_timer;
    size_t sweep_cursor;     /* the next connection slot the keepalive sweep looks at */
    int64_t ping_after_us;   /* a connection quiet this long is pinged (--keepalive) */
    int64_t hangup_after_us; /* and dropped if still quiet this long: twice as long */
    int64_t sweep_every_us;  /* a sweep run each ping_after / 15: each connection is seen
                                every ping_after / 3 (each second and 5 s by default) */
    char origins[RS_NET_MAX_ORIGINS + 4][300];
    int num_origins;
    ip_count *ips;
    size_t num_ips, cap_ips;
    bool draining;
    char starting[600]; /* while there is no server yet: what it waits for (/healthz says) */
    lws_sorted_usec_list_t start_timer; /* wakes the loop for the next attempt to start */
    long long slow_callbacks, dropped_slow_clients;
    uint64_t *pending_closes; /* connections to close at the iteration's end (close_later) */
    size_t num_pending_closes, cap_pending_closes;
    /* libuv, when it runs the loop (net.uv): the loop and the handles this file adds to it */
    bool uv;
    uv_loop_t loop;
    uv_prepare_t before_sleep;   /* the iteration's end: commit and deliver */
    uv_signal_t on_term, on_int; /* SIGTERM and SIGINT stop the loop (serve_loop says why) */
    uv_timer_t drain_tick;
    /* On a cluster (docs/cluster.md): the socket of the other servers' announcements wakes
     * the loop. A duplicate of it is watched, so the core may close its own at any time. */
    uv_poll_t *listen_poll;
    int listen_fd; /* the core's socket being watched, or -1 */
    volatile sig_atomic_t *stop;
    rs_rate_table *http_rate; /* HTTP requests per address (--http-rate), or NULL: no limit */
} net_state;

static net_state net; /* one server per process: lws callbacks reach it through here */

/* ---- time for the core ---- */

static int64_t mono_us(void *ctx)
{
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t wall_ms(void *ctx)
{
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#ifdef RS_TEST_CLOCK
/* The tests' clock (`--test-clock FILE`, compiled into test builds only): real time plus the
 * whole milliseconds written in FILE, read again when 10 ms of real time have passed, never
 * going back. Tests write days into it to see correspondence clocks run out; every server of a
 * cluster given the same file moves with it. */
static struct {
    const char *path;
    int64_t offset_ms, read_at_us;
} test_clock = {NULL, 0, -1}; /* read_at_us -1: not read yet */

/* With a test clock the loop wakes at least this often, to see the file move time on. */
#define TEST_CLOCK_POLL_US 100000

static int64_t test_offset_ms(void)
{
    const int64_t now = mono_us(NULL);
    if (test_clock.read_at_us >= 0 && now - test_clock.read_at_us < 10000)
        return test_clock.offset_ms;
    test_clock.read_at_us = now;
    FILE *f = fopen(test_clock.path, "r");
    char text[32] = "";
    if (f && fgets(text, sizeof text, f)) {
        char *end;
        const long long ms = strtoll(text, &end, 10);
        if (end != text && ms > test_clock.offset_ms)
            test_clock.offset_ms = ms;
    }
    if (f)
        fclose(f);
    return test_clock.offset_ms;
}

static int64_t test_mono_us(void *ctx)
{
    return mono_us(ctx) + test_offset_ms() * 1000;
}

static int64_t test_wall_ms(void *ctx)
{
    return wall_ms(ctx) + test_offset_ms();
}
#endif

/* The core's clock (its deadlines are in it): the real one, or the tests'. */
static int64_t core_now_us(void)
{
#ifdef RS_TEST_CLOCK
    if (test_clock.path)
        return test_mono_us(NULL);
#endif
    return mono_us(NULL);
}

/* ---- per-address connection counts ---- */

/* The count of connections from the client at `ip`, kept per holder (an IPv6 client by its
 * /64, rs_addr_holder: it could otherwise take a fresh address for each connection). */
static ip_count *ip_entry(const char *ip, bool create)
{
    char holder[sizeof net.ips[0].ip];
    rs_addr_holder(ip, holder, sizeof holder);
    ip = holder;
    for (size_t i = 0; i < net.num_ips; i++)
        if (strcmp(net.ips[i].ip, ip) == 0)
            return &net.ips[i];
    if (!create)
        return NULL;
    if (!RS_GROW(net.ips, net.num_ips, net.cap_ips, 16))
        return NULL;
    ip_count *e = &net.ips[net.num_ips++];
    snprintf(e->ip, sizeof e->ip, "%s", ip);
    e->count = 0;
    return e;
}

static void ip_release(const char *ip)
{
    ip_count *e = ip_entry(ip, false);
    if (e && --e->count <= 0)
        *e = net.ips[--net.num_ips];
}

/* ---- output queues ---- */

static void drop_queue(ws_conn *c)
{
    while (c->head) {
        out_msg *m = c->head;
        c->head = m->next;
        free(m);
    }
    c->tail = NULL;
    c->out_count = 0;
    c->out_bytes = 0;
}

static void request_close(ws_conn *c, int code, const char *reason)
{
    if (c->closing)
        return;
    c->closing = true; /* what is queued still goes out (the last error says why), then the
                        * close frame; nothing more is queued */
    c->close_code = code;
    snprintf(c->close_reason, sizeof c->close_reason, "%s", reason);
    lws_callback_on_writable(c->wsi);
}

static void core_send(void *ctx, uint64_t id, const char *text, size_t len)
{
    (void)ctx;
    ws_conn *c = rs_idmap_get(&net.conns, id);
    if (!c || c->closing)
        return;
    if (c->needs_resync) /* superseded by the snapshot it will get */
        return;
    if (c->out_count >= OUT_MAX_MESSAGES || c->out_bytes + len > OUT_MAX_BYTES) {
        net.dropped_slow_clients++;
        drop_queue(c);
        const int64_t now = mono_us(NULL);
        if (c->last_overflow_us && now - c->last_overflow_us < OVERFLOW_WINDOW_US) {
            rs_log("conn %llu (%s): too slow again, closed", (unsigned long long)id, c->ip);
            request_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too slow");
            return;
        }
        c->last_overflow_us = now;
        c->needs_resync = true;
        rs_log("conn %llu (%s): too slow, its queue dropped; a snapshot follows",
               (unsigned long long)id, c->ip);
        lws_callback_on_writable(c->wsi);
        return;
    }
    out_msg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m)
        return;
    m->next = NULL;
    m->len = len;
    memcpy(m->buf + LWS_PRE, text, len);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->out_count++;
    c->out_bytes += len;
    lws_callback_on_writable(c->wsi);
}

static void core_close(void *ctx, uint64_t id, int code, const char *reason)
{
    (void)ctx;
    ws_conn *c = rs_idmap_get(&net.conns, id);
    if (c)
        request_close(c, code, reason);
}

static void notify(void *ctx)
{
    (void)ctx;
    if (net.context)
        lws_cancel_service(net.context);
}

/* ---- WebSocket ---- */

static bool origin_allowed(const char *origin)
{
    for (int i = 0; i < net.num_origins; i++)
        if (strcmp(origin, net.origins[i]) == 0)
            return true;
    return false;
}

static bool trusted_proxy(const char *peer)
{
    rs_addr addr;
    if (!rs_addr_parse(peer, &addr))
        return false;
    for (int i = 0; i < net.cfg->num_trusted_proxies; i++)
        if (rs_addr_equal(&addr, &net.cfg->trusted_proxies[i]))
            return true;
    return false;
}

/* The address a WebSocket is counted (`--max-per-ip`) and logged under: its peer's, or, when
 * the peer is a trusted proxy (`--trusted-proxy`), the client that its X-Forwarded-For names
 * (the last element: the one the proxy appended). From any other peer the header is ignored:
 * a client could write any address in it. A trusted peer without the header (a program
 * connecting to the node directly) counts as itself; a malformed one is logged (when report)
 * and the proxy's own address used. */
static void client_address(struct lws *wsi, char *out, size_t size, bool report)
{
    char peer[64] = "", header[512] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    snprintf(out, size, "%s", peer);
    if (!net.cfg->num_trusted_proxies || !trusted_proxy(peer))
        return;
    const int len = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    if (len <= 0)
        return;
    if (len < (int)sizeof header &&
        lws_hdr_copy(wsi, header, sizeof header, WSI_TOKEN_X_FORWARDED_FOR) >= 0 &&
        rs_forwarded_client(header, out, size))
        return;
    if (report)
        rs_log("ignored X-Forwarded-For '%.60s' (%d bytes) from proxy %s: its last element is "
               "not an IP address; counted under the proxy's address",
               header, len, peer);
}

/* The upgrade: only to /ws (else 404), only from an allowed Origin (else 403: browsers
 * always send one; other programs may send none), only while the address has fewer than the
 * allowed connections (else 429; the address is the client's, see client_address) and the
 * server is not shutting down (else 503). Returns the HTTP status that refuses it, or 0.
 * report: log a malformed X-Forwarded-For (on the first of the two looks only). */
static unsigned int upgrade_refusal(struct lws *wsi, bool report)
{
    char uri[64] = "", origin[300] = "", ip[64] = "";
    if (net.draining || !net.server) /* shutting down, or still starting */
        return HTTP_STATUS_SERVICE_UNAVAILABLE;
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) < 0 || strcmp(uri, WS_PATH) != 0) {
        rs_log("refused a WebSocket upgrade to %.40s: the socket is at %s", uri, WS_PATH);
        return HTTP_STATUS_NOT_FOUND;
    }
    int n = lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN);
    if (n < 0 || (n > 0 && !origin_allowed(origin))) {
        rs_log("refused a WebSocket upgrade from Origin %.100s", origin);
        return HTTP_STATUS_FORBIDDEN;
    }
    client_address(wsi, ip, sizeof ip, report);
    ip_count *e = ip_entry(ip, false);
    if (e && e->count >= net.cfg->max_connections_per_ip) {
        rs_log("refused a WebSocket from %s: %d connections already", ip, e->count);
        return 429; /* Too Many Requests */
    }
    return 0;
}

/* Refuse an upgrade with its HTTP status, so the client learns why (a close without an answer
 * says nothing). Returns what LWS_CALLBACK_HTTP_CONFIRM_UPGRADE expects: 1 when refused. */
static int confirm_upgrade(struct lws *wsi)
{
    const unsigned int status = upgrade_refusal(wsi, true);
    if (!status)
        return 0;
    return lws_return_http_status(wsi, status, NULL) ? -1 : 1;
}

static void ws_established(struct lws *wsi, session *s)
{
    ws_conn *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->wsi = wsi;
    c->id = ++net.next_id;
    c->last_rx_us = mono_us(NULL);
    client_address(wsi, c->ip, sizeof c->ip, false);
    if (!rs_idmap_put(&net.conns, c->id, c)) {
        free(c);
        return;
    }
    ip_count *e = ip_entry(c->ip, true);
    if (e)
        e->count++;
    s->ws = c;
    rs_server_connect(net.server, c->id, c->ip);
}

static void ws_closed(session *s)
{
    ws_conn *c = s->ws;
    if (!c)
        return;
    if (net.server)
        rs_server_disconnect(net.server, c->id);
    rs_idmap_del(&net.conns, c->id);
    ip_release(c->ip);
    drop_queue(c);
    free(c);
    s->ws = NULL;
}

static void timed(const char *what, int64_t start)
{
    int64_t took = mono_us(NULL) - start;
    if (took > SLOW_CALLBACK_US) {
        net.slow_callbacks++;
        rs_log("slow: %s took %lld us", what, (long long)took);
    }
}

/* Append a fragment; at the end of a message hand it to the core. */
static void ws_receive(struct lws *wsi, ws_conn *c, const char *in, size_t len)
{
    c->last_rx_us = mono_us(NULL);
    if (c->closing)
        return;
    if (lws_is_first_fragment(wsi)) {
        c->rx_len = 0;
        c->rx_dropped = 0;
        c->rx_binary = lws_frame_is_binary(wsi) != 0;
    }
    if (c->rx_dropped || c->rx_len + len > sizeof c->rx) {
        c->rx_dropped += c->rx_len + len;
        c->rx_len = 0;
    } else {
        memcpy(c->rx + c->rx_len, in, len);
        c->rx_len += len;
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
        return;
    int64_t start = mono_us(NULL);
    if (++c->rx_burst + c->out_count >= RX_PAUSE_AT && !c->rx_paused) {
        /* Read no more until the replies are out; the writeable callback (after this turn's
         * flush) resumes it as soon as the queue is empty. */
        c->rx_paused = true;
        lws_rx_flow_control(wsi, 0);
        lws_callback_on_writable(wsi);
    }
    if (c->rx_dropped)
        rs_server_too_large(net.server, c->id, c->rx_dropped);
    else if (c->rx_binary)
        rs_server_receive(net.server, c->id, "\x01", 1); /* not JSON: a bad-json error */
    else
        rs_server_receive(net.server, c->id, c->rx, c->rx_len);
    c->rx_len = 0;
    c->rx_dropped = 0;
    timed("a message", start);
}

/* A connection whose queue has drained and whose close is due: closed by close_pending at the
 * iteration's end, outside libwebsockets' callbacks. Returning -1 from the callback would be
 * the usual way, but under libuv Debian's libwebsockets (built with _DEBUG) then closes a
 * second time, cutting the connection before the close frame goes out; closing from inside
 * the callback crashes its poll loop. */
static void close_later(ws_conn *c)
{
    if (!RS_GROW(net.pending_closes, net.num_pending_closes, net.cap_pending_closes, 64)) {
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return; /* no memory to wait politely: drop the connection */
    }
    net.pending_closes[net.num_pending_closes++] = c->id;
}

/* libwebsockets' polite close for each: the close frame with the code and reason, then the
 * client's answer (or a timeout). A connection gone meanwhile is skipped. */
static void close_pending(void)
{
    for (size_t i = 0; i < net.num_pending_closes; i++) {
        ws_conn *c = rs_idmap_get(&net.conns, net.pending_closes[i]);
        if (!c || !c->wsi)
            continue;
        rs_frame_guard_closing(lws_get_socket_fd(c->wsi)); /* one that sent no mask */
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
    }
    net.num_pending_closes = 0;
}

static ws_conn *conn_on_socket(int fd)
{
    for (size_t i = 0; i < net.conns.cap; i++) {
        ws_conn *c = net.conns.slots[i].key ? net.conns.slots[i].value : NULL;
        if (c && lws_get_socket_fd(c->wsi) == fd)
            return c;
    }
    return NULL;
}

/* The sockets that sent a frame without a mask (frame_guard.h): RFC 6455 5.1 has the server
 * close them; 1002 says why. What they sent from that frame on is dropped unread, so nothing
 * in it or after it is acted on. A socket not (or no longer) a WebSocket is shut, and libwebsockets closes
 * it when it sees the hang-up. */
static void close_unmasked(void)
{
    int fd;
    while ((fd = rs_frame_guard_next_refused()) >= 0) {
        ws_conn *c = conn_on_socket(fd);
        if (!c) {
            rs_frame_guard_forget(fd);
            shutdown(fd, SHUT_RDWR);
            continue;
        }
        rs_log("conn %llu (%s): a frame without a mask, closed (1002)", (unsigned long long)c->id,
               c->ip);
        request_close(c, LWS_CLOSE_STATUS_PROTOCOL_ERR, "frame not masked");
    }
}

/* Its queue is empty: read it again. */
static void resume_reading(struct lws *wsi, ws_conn *c)
{
    c->rx_burst = 0;
    if (c->rx_paused && !c->closing) {
        c->rx_paused = false;
        lws_rx_flow_control(wsi, 1);
    }
}

/* One message per WRITEABLE callback. */
static int ws_writeable(struct lws *wsi, ws_conn *c)
{
    if (c->closing && !c->head) {
        if (!c->close_queued) {
            c->close_queued = true;
            lws_close_reason(wsi, (enum lws_close_status)c->close_code,
                             (unsigned char *)c->close_reason, strlen(c->close_reason));
            close_later(c);
        }
        return 0;
    }
    if (c->ping_due) {
        /* One byte for the pong to echo: libwebsockets 4.1 does not report an empty pong. */
        unsigned char ping[LWS_PRE + 1] = {0};
        ping[LWS_PRE] = 'k';
        c->ping_due = false;
        c->last_ping_us = mono_us(NULL);
        if (lws_write(wsi, ping + LWS_PRE, 1, LWS_WRITE_PING) < 0)
            return -1;
        if (c->head || c->needs_resync)
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (!c->head) {
        if (c->needs_resync) {
            c->needs_resync = false;
            rs_server_resync(net.server, c->id); /* delivered by the next flush */
        }
        resume_reading(wsi, c);
        return 0;
    }
    out_msg *m = c->head;
    int n = lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
    if (n < (int)m->len)
        return -1;
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    c->out_count--;
    c->out_bytes -= m->len;
    free(m);
    if (c->head || c->closing)
        lws_callback_on_writable(wsi);
    else
        resume_reading(wsi, c);
    return 0;
}

/* ---- HTTP ---- */

static const char *http_method(struct lws *wsi)
{
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI))
        return "GET";
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI))
        return "HEAD";
    return "OTHER";
}

/* The whole query string "a=1&b=2": libwebsockets keeps each parameter as a fragment of the
 * header (lws_hdr_copy gives only the first), URL-decoded. One too long to hold, or holding
 * an encoded '&' (no value of the API has one), is passed as "&", which the API refuses as
 * malformed. */
static void copy_query(struct lws *wsi, char *query, size_t size)
{
    size_t n = 0;
    query[0] = '\0';
    for (int i = 0; lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, i) > 0; i++) {
        char part[256];
        if (lws_hdr_copy_fragment(wsi, part, sizeof part, WSI_TOKEN_HTTP_URI_ARGS, i) < 0 ||
            strchr(part, '&') || n + strlen(part) + 2 > size) {
            snprintf(query, size, "&");
            return;
        }
        n += (size_t)snprintf(query + n, size - n, "%s%s", n ? "&" : "", part);
    }
}

/* Copies request header token into out; empty when absent or longer than out. */
static void copy_header(struct lws *wsi, enum lws_token_indexes token, char *out, int size)
{
    if (lws_hdr_copy(wsi, out, size, token) < 0)
        out[0] = '\0';
}

/* One extra response header, when value is set. */
static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
                      unsigned char *end)
{
    if (!value || !*value)
        return 0;
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                       (const unsigned char *)value, (int)strlen(value), p, end);
}

/* The security headers of every HTTP reply: libwebsockets' "best practice" set (its
 * LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE), with a policy that also
 * lets the client compile its engine's WebAssembly ('wasm-unsafe-eval': compiling only, no
 * eval of text), start its engine's Web Worker and service worker from the site's own files,
 * and read its web app manifest. connect-src 'self' covers the page's own WebSocket (ws: and
 * wss: to the same host, CSP Level 3) and nothing else: `ws: wss:` let a script open one to
 * any host (issue 49, finding 11). HSTS with TLS only. */
static int add_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end)
{
    static const char *const headers[][2] = {
        {"content-security-policy:",
         "default-src 'none'; img-src 'self' data: ; script-src 'self' 'wasm-unsafe-eval'; "
         "worker-src 'self'; manifest-src 'self'; font-src 'self'; style-src 'self'; "
         "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
         "form-action 'self';"},
        {"x-content-type-options:", "nosniff"},
        {"x-xss-protection:", "1; mode=block"},
        {"x-frame-options:", "deny"},
        {"referrer-policy:", "no-referrer"},
    };
    for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
        if (add_header(wsi, headers[i][0], headers[i][1], p, end))
            return 1;
    const char *hsts = net.cfg->tls_cert ? "max-age=15768000 ; includeSubDomains" : NULL;
    return add_header(wsi, "strict-transport-security:", hsts, p, end);
}

/* An address over its HTTP budget (--http-rate) is answered 429 with when to come back, and
 * nothing is asked of the core: so that a client fetching the API in a loop cannot slow every
 * player's game (issue 49: 4 such clients took WebSocket pings from 0.6 to 337 ms). /healthz is
 * exempt: the proxy's health checks must always be answered. */
static bool http_over_budget(struct lws *wsi, const char *path, rs_http_reply *r, char *retry,
                             size_t size)
{
    if (!net.http_rate || strcmp(path, "/healthz") == 0)
        return false;
    char ip[64], holder[64];
    client_address(wsi, ip, sizeof ip, false);
    rs_addr_holder(ip, holder, sizeof holder);
    int retry_s;
    if (rs_rate_take(net.http_rate, holder, mono_us(NULL), &retry_s))
        return false;
    static char body[] = "{\"error\":\"rate-limited\",\"message\":\"too many requests from "
                         "your address: wait a moment (Retry-After)\"}";
    r->status = 429;
    r->content_type = "application/json";
    r->body = body;
    r->body_static = true;
    r->length = sizeof body - 1;
    snprintf(retry, size, "%d", retry_s);
    return true;
}

static int http_request(struct lws *wsi, session *s, const char *path)
{
    unsigned char headers[LWS_PRE + 2048], *start = headers + LWS_PRE, *p = start,
                                           *end = headers + sizeof headers - 1;
    char query[1024], accept_encoding[256] = "", if_none_match[256] = "";
    rs_http_reply_free(&s->http.reply);
    memset(&s->http, 0, sizeof s->http);
    copy_query(wsi, query, sizeof query);
    copy_header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, accept_encoding, sizeof accept_encoding);
    copy_header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, if_none_match, sizeof if_none_match);
    const char *method = http_method(wsi);
    int64_t t0 = mono_us(NULL);
    char retry_after[16] = "";
    if (!http_over_budget(wsi, path, &s->http.reply, retry_after, sizeof retry_after)) {
        if (net.server)
            rs_server_http(net.server, method, path, query, &s->http.reply);
        else
            rs_http_starting(path, net.starting, &s->http.reply);
        rs_http_reply_negotiate(&s->http.reply, accept_encoding, if_none_match);
    }
    timed("an HTTP request", t0);
    rs_http_reply *r = &s->http.reply;
    s->http.active = true;
    s->http.head_only = strcmp(method, "HEAD") == 0;
    const char *cache = r->cache_control ? r->cache_control : "no-store";
    if (lws_add_http_common_headers(wsi, (unsigned int)r->status, r->content_type,
                                    (lws_filepos_t)r->length, &p, end) ||
        add_header(wsi, "cache-control:", cache, &p, end) ||
        add_header(wsi, "content-encoding:", r->content_encoding, &p, end) ||
        add_header(wsi, "vary:", r->vary_encoding ? "Accept-Encoding" : NULL, &p, end) ||
        add_header(wsi, "etag:", r->etag, &p, end) ||
        add_header(wsi, "retry-after:", retry_after, &p, end) ||
        add_security_headers(wsi, &p, end) || lws_finalize_write_http_header(wsi, start, &p, end))
        return 1;
    lws_callback_on_writable(wsi);
    return 0;
}

static int http_writeable(struct lws *wsi, session *s)
{
    http_txn *h = &s->http;
    if (!h->active)
        return 0;
    size_t left = h->head_only ? 0 : h->reply.length - h->sent;
    size_t chunk = left > 8192 ? 8192 : left;
    unsigned char *buf = malloc(LWS_PRE + chunk + 1);
    if (!buf)
        return -1;
    if (chunk)
        memcpy(buf + LWS_PRE, h->reply.body + h->sent, chunk);
    const bool final = chunk == left;
    int n = lws_write(wsi, buf + LWS_PRE, chunk, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP);
    free(buf);
    if (n < (int)chunk)
        return -1;
    h->sent += chunk;
    if (!final) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    rs_http_reply_free(&h->reply);
    h->active = false;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ---- the one protocol ---- */

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    session *s = user;
    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        if (net.draining)
            return 1;
        rs_frame_guard_watch((int)(intptr_t)in); /* its bytes are followed from the first */
        return 0;
    case LWS_CALLBACK_HTTP:
        return http_request(wsi, s, in ? (const char *)in : "/");
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return http_writeable(wsi, s);
    case LWS_CALLBACK_CLOSED_HTTP:
        if (s)
            rs_http_reply_free(&s->http.reply);
        break;
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return confirm_upgrade(wsi);
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: /* checked above; a second look costs little */
        return upgrade_refusal(wsi, false) ? 1 : 0;
    case LWS_CALLBACK_ESTABLISHED:
        ws_established(wsi, s);
        break;
    case LWS_CALLBACK_RECEIVE:
        if (s && s->ws)
            ws_receive(wsi, s->ws, in, len);
        break;
    case LWS_CALLBACK_RECEIVE_PONG:
        if (s && s->ws)
            s->ws->last_rx_us = mono_us(NULL);
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return s && s->ws ? ws_writeable(wsi, s->ws) : 0;
    case LWS_CALLBACK_CLOSED:
        if (s)
            ws_closed(s);
        break;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (net.server)
            rs_server_drain_inbox(net.server);
        break;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"ramparts", callback, sizeof(session), RS_MAX_MESSAGE, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* libwebsockets' own keepalive is off (a policy of zeros): it re-arms a per-connection timer
 * in one sorted list on every frame received, a walk over every connection each time (with
 * 7,000 sockets, 39% of the server's time in perf). The sweep below pings and drops instead. */
static const lws_retry_bo_t retry_policy = {
    .secs_since_valid_ping = 0,
    .secs_since_valid_hangup = 0,
};

/* ---- keepalive: ping a quiet connection after 15 s, drop it after 30 s (--keepalive) ---- */

static void set_keepalive(const rs_net_config *cfg)
{
    const int seconds = cfg->keepalive_s > 0 ? cfg->keepalive_s : RS_NET_KEEPALIVE_DEFAULT_S;
    net.ping_after_us = seconds * 1000000LL;
    net.hangup_after_us = 2 * net.ping_after_us;
    net.sweep_every_us = net.ping_after_us / 3 / SWEEP_SLICES;
}

static void keepalive(ws_conn *c, int64_t now)
{
    const int64_t quiet = now - c->last_rx_us;
    if (quiet >= net.hangup_after_us && c->rx_paused && !c->closing) {
        /* It sends but does not read: its replies cannot go out, so it is not read either. */
        rs_log("conn %llu (%s): sends without reading its replies for %lld s, closed (1008)",
               (unsigned long long)c->id, c->ip, (long long)(quiet / 1000000));
        request_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "not reading");
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 5);
        return;
    }
    if (quiet >= net.hangup_after_us && !c->rx_paused) {
        rs_log("conn %llu (%s): no answer for %lld s, dropped", (unsigned long long)c->id, c->ip,
               (long long)(quiet / 1000000));
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return;
    }
    if (quiet >= net.ping_after_us && c->last_ping_us <= c->last_rx_us && !c->closing) {
        c->ping_due = true;
        lws_callback_on_writable(c->wsi);
    }
}

/* Each second, a fifth of the connection slots: each connection is seen every 5 s at a cost
 * that does not depend on the traffic (at the default keepalive; a shorter one sweeps as much
 * more often). */
static void on_sweep(lws_sorted_usec_list_t *sul)
{
    const int64_t now = mono_us(NULL);
    const size_t cap = net.conns.cap;
    for (size_t n = 0; n < cap / SWEEP_SLICES + 1 && cap > 0; n++) {
        if (net.sweep_cursor >= cap)
            net.sweep_cursor = 0;
        const rs_idmap_entry *e = &net.conns.slots[net.sweep_cursor++];
        if (e->key)
            keepalive(e->value, now);
    }
    lws_sul_schedule(net.context, 0, sul, on_sweep, net.sweep_every_us);
}

static void end_iteration(void);

/* Timers run inside lws_service before its poll: flush here, or what the tick produced
 * would wait for the next network event. */
static void on_timer(lws_sorted_usec_list_t *sul)
{
    (void)sul;
    net.timer_at = 0;
    if (core_now_us() >= rs_server_next_tick_us(net.server))
        rs_server_tick(net.server);
    end_iteration();
}

/* Without libuv nothing watches the announcements' socket: on a cluster the loop wakes this
 * often to read them. */
#define LISTEN_POLL_US 10000

/* Arm the one timer for the core's next deadline, unless it is armed for that instant
 * already: re-arming every iteration would push a due timer forever into the future. */
static void arm_timer(void)
{
    const int64_t now = core_now_us();
    int64_t next = rs_server_next_tick_us(net.server);
    if (!net.uv && rs_server_shared(net.server) && next > now + LISTEN_POLL_US)
        next = now + LISTEN_POLL_US;
#ifdef RS_TEST_CLOCK
    if (test_clock.path && next > now + TEST_CLOCK_POLL_US) /* see a jump of the file soon */
        next = now + TEST_CLOCK_POLL_US;
#endif
    if (net.timer_at == next)
        return;
    int64_t delay = next - now;
    net.timer_at = next;
    lws_sul_schedule(net.context, 0, &net.timer, on_timer, delay > 0 ? delay : 0);
}

static void lws_log_line(int level, const char *line)
{
    (void)level;
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        n--;
    rs_log("lws: %.*s", (int)n, line);
}

static void add_origin(const char *origin)
{
    if (net.num_origins < (int)(sizeof net.origins / sizeof net.origins[0]))
        snprintf(net.origins[net.num_origins++], sizeof net.origins[0], "%s", origin);
}

static void set_origins(const rs_net_config *cfg, int port)
{
    const char *scheme = cfg->tls_cert ? "https" : "http";
    char o[300];
    bool v6 = strchr(cfg->host, ':') != NULL;
    snprintf(o, sizeof o, v6 ? "%s://[%s]:%d" : "%s://%s:%d", scheme, cfg->host, port);
    add_origin(o);
    if (strcmp(cfg->host, "127.0.0.1") == 0 || strcmp(cfg->host, "::1") == 0 ||
        strcmp(cfg->host, "localhost") == 0) {
        snprintf(o, sizeof o, "%s://localhost:%d", scheme, port);
        add_origin(o);
        snprintf(o, sizeof o, "%s://127.0.0.1:%d", scheme, port);
        add_origin(o);
        snprintf(o, sizeof o, "%s://[::1]:%d", scheme, port);
        add_origin(o);
    }
    for (int i = 0; i < cfg->num_allow_origins; i++)
        add_origin(cfg->allow_origins[i]);
}

static void on_listen_readable(uv_poll_t *handle, int status, int events)
{
    (void)handle;
    (void)status;
    (void)events; /* before_sleep reads the announcements (rs_server_listen) */
}

static void free_poll(uv_handle_t *handle)
{
    free(handle);
}

/* Watch the core's announcement socket, following it when it is reopened. */
static void watch_listen_fd(void)
{
    const int fd = rs_server_listen_fd(net.server);
    if (!net.uv || fd == net.listen_fd)
        return;
    if (net.listen_poll) {
        uv_os_fd_t dup_fd = -1;
        uv_fileno((uv_handle_t *)net.listen_poll, &dup_fd);
        uv_poll_stop(net.listen_poll);
        uv_close((uv_handle_t *)net.listen_poll, free_poll);
        close(dup_fd);
        net.listen_poll = NULL;
    }
    net.listen_fd = fd;
    const int dup_fd = fd >= 0 ? dup(fd) : -1;
    if (dup_fd < 0)
        return;
    net.listen_poll = malloc(sizeof *net.listen_poll);
    if (!net.listen_poll || uv_poll_init(&net.loop, net.listen_poll, dup_fd) != 0) {
        free(net.listen_poll);
        net.listen_poll = NULL;
        close(dup_fd);
        return;
    }
    uv_poll_start(net.listen_poll, UV_READABLE, on_listen_readable);
}

/* The iteration's end: what the other servers announced, commit, deliver, re-arm. */
static void end_iteration(void)
{
    if (!net.server) /* still starting: nothing to commit or deliver */
        return;
    int64_t start = mono_us(NULL);
    rs_server_listen(net.server);
    rs_server_flush(net.server);
    timed("a commit", start);
    watch_listen_fd();
    arm_timer();
}

/* The end of a turn of the loop, outside libwebsockets' callbacks: the iteration's end, then
 * the closes that were waiting for it. */
static void end_loop_turn(void)
{
    close_unmasked();
    end_iteration();
    close_pending();
}

/* Options the context and the vhost share (TLS is per vhost). */
static uint64_t base_options(const rs_net_config *cfg)
{
    /* VALIDATE_UTF8: a text message that is not UTF-8 is closed with 1007 (RFC 6455 8.1). The
     * security headers are this file's own (add_security_headers), not libwebsockets'. */
    uint64_t options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_VALIDATE_UTF8;
    if (cfg->tls_cert)
        options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    return options;
}

/* The context, on libuv's loop when `uv`: false if libwebsockets cannot run on it (its
 * libuv plugin, libwebsockets-evlib-uv, missing). */
static bool create_context(const rs_net_config *cfg, bool uv)
{
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = base_options(cfg);
    void *foreign_loops[1] = {&net.loop};
    if (uv) {
        info.options |= LWS_SERVER_OPTION_LIBUV;
        info.foreign_loops = foreign_loops;
    }
    info.server_string = "ramparts";
    net.context = lws_create_context(&info);
    return net.context != NULL;
}

static int create_vhost(const rs_net_config *cfg)
{
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = base_options(cfg);
    const bool any = strcmp(cfg->host, "0.0.0.0") == 0 || strcmp(cfg->host, "::") == 0;
    info.port = cfg->port;
    info.iface = any ? NULL : cfg->host;
    if (!strchr(cfg->host, ':'))
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.protocols = protocols;
    info.vhost_name = "ramparts";
    info.retry_and_idle_policy = &retry_policy;
    info.max_http_header_data = 4096;
    info.timeout_secs = 20;
    if (cfg->tls_cert) {
        info.ssl_cert_filepath = cfg->tls_cert;
        info.ssl_private_key_filepath = cfg->tls_key;
    }
    net.vhost = lws_create_vhost(net.context, &info);
    return net.vhost ? 0 : -1;
}

/* ---- the loop ---- */

static void before_sleep(uv_prepare_t *handle)
{
    (void)handle;
    end_loop_turn();
}

static void on_stop_signal(uv_signal_t *handle, int signum)
{
    (void)signum;
    *net.stop = 1;
    uv_stop(handle->loop);
}

static void on_drain_tick(uv_timer_t *handle)
{
    (void)handle; /* only wakes the loop so the drain sees its deadline */
}

/* libuv's loop with its hooks, or false (logged) when libuv cannot start. */
static bool start_uv_loop(void)
{
    int rc = uv_loop_init(&net.loop);
    if (rc < 0) {
        rs_log("cannot start libuv: %s", uv_strerror(rc));
        return false;
    }
    uv_prepare_init(&net.loop, &net.before_sleep);
    uv_signal_init(&net.loop, &net.on_term);
    uv_signal_init(&net.loop, &net.on_int);
    uv_timer_init(&net.loop, &net.drain_tick);
    net.uv = true;
    return true;
}

static void close_handle(uv_handle_t *handle)
{
    if (!uv_is_closing(handle))
        uv_close(handle, NULL);
}

/* After lws_context_destroy: close this file's handles, let libuv finish every close (its
 * own and libwebsockets'), free the loop. Bounded: a handle left open is logged, not waited
 * for forever. */
static void stop_uv_loop(void)
{
    if (net.listen_poll) {
        uv_os_fd_t dup_fd = -1;
        uv_fileno((uv_handle_t *)net.listen_poll, &dup_fd);
        uv_close((uv_handle_t *)net.listen_poll, free_poll);
        close(dup_fd);
        net.listen_poll = NULL;
    }
    close_handle((uv_handle_t *)&net.before_sleep);
    close_handle((uv_handle_t *)&net.on_term);
    close_handle((uv_handle_t *)&net.on_int);
    close_handle((uv_handle_t *)&net.drain_tick);
    for (int i = 0; i < 1000 && uv_run(&net.loop, UV_RUN_NOWAIT) != 0; i++)
        ;
    if (uv_loop_close(&net.loop) != 0)
        rs_log("libuv: handles still open at exit");
    net.uv = false;
}

/* Listen on the chosen loop. With RS_LOOP_AUTO a missing libuv plugin falls back to poll. */
static bool listen_on_loop(const rs_net_config *cfg)
{
    if (cfg->event_loop != RS_LOOP_POLL && start_uv_loop()) {
        if (create_context(cfg, true))
            return create_vhost(cfg) == 0;
        stop_uv_loop();
        if (cfg->event_loop == RS_LOOP_LIBUV) {
            rs_log("cannot run libwebsockets on libuv (is libwebsockets-evlib-uv installed?)");
            return false;
        }
        rs_log("libwebsockets' libuv plugin did not load: using its poll(2) loop, whose cost "
               "grows with the open sockets (install libwebsockets-evlib-uv)");
    } else if (cfg->event_loop == RS_LOOP_LIBUV) {
        return false;
    }
    return create_context(cfg, false) && create_vhost(cfg) == 0;
}

/* One turn of the loop, ending with end_loop_turn; false when libwebsockets' loop fails. */
static bool service_once(void)
{
    if (net.uv) {
        uv_run(&net.loop, UV_RUN_ONCE); /* before_sleep ends each turn */
        return true;
    }
    if (lws_service(net.context, 0) < 0)
        return false;
    end_loop_turn();
    return true;
}

/* Serve until *stop. Under libuv a signal reaches the loop through its watchers: libuv
 * retries an interrupted epoll_wait, so the handler's flag alone would not wake it. */
static void serve_loop(void)
{
    if (net.uv) {
        uv_prepare_start(&net.before_sleep, before_sleep);
        uv_signal_start(&net.on_term, on_stop_signal, SIGTERM);
        uv_signal_start(&net.on_int, on_stop_signal, SIGINT);
    }
    while (!*net.stop && service_once())
        ;
}

/* The context, then libuv's loop once libwebsockets has left it. */
static void destroy_context(void)
{
    if (net.context)
        lws_context_destroy(net.context);
    net.context = NULL;
    if (net.uv)
        stop_uv_loop();
    free(net.http_rate);
    net.http_rate = NULL;
}

static void on_start_timer(lws_sorted_usec_list_t *sul)
{
    (void)sul; /* only wakes the loop: start_server sees its deadline */
}

/* Serves HTTP (every request answered 503, /healthz saying why) for wait_us, or until a
 * stop is asked. */
static void serve_while_starting(int64_t wait_us)
{
    const int64_t deadline = mono_us(NULL) + wait_us;
    lws_sul_schedule(net.context, 0, &net.start_timer, on_start_timer, wait_us);
    if (net.uv) {
        uv_signal_start(&net.on_term, on_stop_signal, SIGTERM);
        uv_signal_start(&net.on_int, on_stop_signal, SIGINT);
    }
    while (!*net.stop && mono_us(NULL) < deadline && service_once())
        ;
    lws_sul_schedule(net.context, 0, &net.start_timer, on_start_timer, LWS_SET_TIMER_USEC_CANCEL);
}

/* The core, once its database can be reached: until then the server waits and tries again,
 * 0.5 s after the first failure and twice as long after each (at most START_RETRY_MAX_US),
 * logging each attempt and answering /healthz with 503 and why (a load balancer sends it
 * nothing meanwhile). Any other failure (a schema newer than this server's, a file that
 * cannot be opened) ends the start at once. 1: started; 0: stopped (SIGTERM) while
 * waiting; -1: cannot start (logged). */
static int start_server(rs_server_config *core, const rs_time_source *time, const rs_output *out)
{
    char err[512];
    int64_t wait_us = START_RETRY_FIRST_US;
    for (;;) {
        net.server = rs_server_new(core, time, out, err, sizeof err);
        if (net.server && net.starting[0])
            rs_log("the database answered: started");
        if (net.server)
            return 1;
        if (!strstr(err, "unavailable: ") || *net.stop) {
            rs_log("cannot start: %s", err);
            return -1;
        }
        snprintf(net.starting, sizeof net.starting, "waiting for the database: %s", err);
        rs_log("cannot reach the database; trying again in %.1f s: %s", (double)wait_us / 1e6, err);
        serve_while_starting(wait_us);
        if (*net.stop) {
            rs_log("stopped while waiting for the database");
            return 0;
        }
        wait_us = wait_us * 2 > START_RETRY_MAX_US ? START_RETRY_MAX_US : wait_us * 2;
    }
}

/* SIGTERM: stop accepting, commit, close every WebSocket with 1001, then stop. */
static void drain(volatile sig_atomic_t *stop)
{
    (void)stop;
    rs_log("draining: no new connections; closing the others");
    net.draining = true;
    rs_server_drain(net.server);
    end_iteration();
    for (size_t i = 0; i < net.conns.cap; i++) {
        ws_conn *c = net.conns.slots[i].key ? net.conns.slots[i].value : NULL;
        if (c)
            request_close(c, LWS_CLOSE_STATUS_GOINGAWAY, "server shutting down");
    }
    int64_t deadline = mono_us(NULL) + DRAIN_MAX_US;
    if (net.uv)
        uv_timer_start(&net.drain_tick, on_drain_tick, DRAIN_TICK_MS, DRAIN_TICK_MS);
    while (net.conns.count > 0 && mono_us(NULL) < deadline && service_once())
        ;
}

int rs_net_run(const rs_net_config *cfg, rs_server_config *core, volatile sig_atomic_t *stop)
{
    memset(&net, 0, sizeof net);
    net.listen_fd = -1;
    rs_frame_guard_attach();
    net.cfg = cfg;
    set_keepalive(cfg);
    if (cfg->http_rate > 0 && (net.http_rate = malloc(sizeof *net.http_rate)))
        rs_rate_init(net.http_rate, cfg->http_rate, 20 * 1000000);
    net.stop = stop;
    lws_set_log_level(LLL_ERR | LLL_WARN, lws_log_line);
    if (!listen_on_loop(cfg)) {
        rs_log("cannot listen on %s:%d%s", cfg->host, cfg->port,
               cfg->tls_cert ? " with TLS (check --tls-cert and --tls-key)" : "");
        destroy_context();
        return 1;
    }
    int port = lws_get_vhost_listen_port(net.vhost);
    set_origins(cfg, port);
    core->notify = notify;
    core->notify_ctx = NULL;
    rs_time_source time = {mono_us, wall_ms, NULL};
#ifdef RS_TEST_CLOCK
    if (cfg->test_clock) {
        test_clock.path = cfg->test_clock;
        time = (rs_time_source){test_mono_us, test_wall_ms, NULL};
        rs_log("test clock: real time plus the milliseconds in %s", cfg->test_clock);
    }
#endif
    rs_output out = {core_send, core_close, NULL};
    const int started = start_server(core, &time, &out);
    if (started <= 0) {
        destroy_context();
        return started < 0 ? 1 : 0;
    }
    bool v6 = strchr(cfg->host, ':') != NULL;
    printf(v6 ? "listening on %s://[%s]:%d/\n" : "listening on %s://%s:%d/\n",
           cfg->tls_cert ? "https" : "http", cfg->host, port);
    fflush(stdout);
    char database[512]; /* never the password of a postgres:// address */
    rs_store_address_for_log(core->db_path, database, sizeof database);
    rs_log("listening on %s port %d (database %s, %s event loop)", cfg->host, port, database,
           net.uv ? "libuv" : "poll(2)");
    if (net.ping_after_us != RS_NET_KEEPALIVE_DEFAULT_S * 1000000LL)
        rs_log("keepalive: a connection quiet for %lld s is pinged, for %lld s dropped",
               (long long)(net.ping_after_us / 1000000),
               (long long)(net.hangup_after_us / 1000000));
    arm_timer();
    lws_sul_schedule(net.context, 0, &net.sweep_timer, on_sweep, net.sweep_every_us);
    serve_loop();
    drain(stop);
    lws_sul_schedule(net.context, 0, &net.timer, on_timer, LWS_SET_TIMER_USEC_CANCEL);
    lws_sul_schedule(net.context, 0, &net.sweep_timer, on_sweep, LWS_SET_TIMER_USEC_CANCEL);
    rs_server_stats stats;
    rs_server_stats_get(net.server, &stats);
    rs_server_free(net.server);
    net.server = NULL;
    destroy_context();
    rs_idmap_free(&net.conns);
    free(net.ips);
    free(net.pending_closes);
    rs_frame_guard_free();
    rs_log("stopped: %lld messages, %lld moves, %lld commits (%lld failed), %lld slow "
           "callbacks, %lld slow clients resynced",
           stats.messages, stats.moves, stats.commits, stats.commit_failures, net.slow_callbacks,
           net.dropped_slow_clients);
    return 0;
}
