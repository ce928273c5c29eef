/* net.h — the network side of `ramparts serve`: one libwebsockets context serving HTTP and
 * the WebSocket (/ws) on one port, from one service thread. It frames, limits and queues;
 * the core decides everything else, driven through loop.h and api.h (layer 1 of layers.h,
 * the top: nothing in src/server calls it). */
#ifndef RS_NET_H
#define RS_NET_H

#include <signal.h>

#include "forwarded.h"
#include "server.h"

#define RS_NET_MAX_ORIGINS 16
#define RS_NET_KEEPALIVE_DEFAULT_S 15 /* `serve --keepalive`: ping after 15 s, drop after 30 s */

/* The event loop under libwebsockets. Its own loop polls every socket with poll(2) each
 * wake-up, so its cost grows with the open sockets (docs/server.md: 41 us with none, 743 us
 * with 5,000 idle); libuv waits with epoll, whose cost grows with the active ones only. */
typedef enum rs_event_loop {
    RS_LOOP_AUTO,  /* libuv if libwebsockets' libuv plugin loads, else poll (logged) */
    RS_LOOP_LIBUV, /* libuv or fail */
    RS_LOOP_POLL,  /* libwebsockets' own poll(2) loop */
} rs_event_loop;

typedef struct rs_net_config {
    char host[256];                 /* the address to listen on ("127.0.0.1", "::1", "0.0.0.0") */
    int port;                       /* 0: any free port (printed when listening) */
    const char *tls_cert, *tls_key; /* both or neither: HTTPS and WSS */
    const char *allow_origins[RS_NET_MAX_ORIGINS]; /* more Origins allowed to open /ws */
    int num_allow_origins;
    int max_connections_per_ip;
    int http_rate; /* HTTP requests one address may make per 20 s (/healthz aside); 0: any */
    /* Reverse proxies (HAProxy) whose X-Forwarded-For names the client (`--trusted-proxy`);
     * from any other peer the header is ignored. */
    rs_addr trusted_proxies[RS_MAX_TRUSTED_PROXIES];
    int num_trusted_proxies;
    int keepalive_s; /* a connection quiet this long is pinged, twice as long dropped (0: 15) */
    const char *test_clock; /* RS_TEST_CLOCK builds: time is real time plus the ms in it */
    rs_event_loop event_loop;
} rs_net_config;

/* Listen, print "listening on URL" on stdout, and serve until *stop becomes nonzero (a
 * signal handler sets it); then drain: refuse new connections, commit, close every
 * WebSocket with 1001, stop the workers. Returns 0 after a clean drain, 1 on failure. */
int rs_net_run(const rs_net_config *net, rs_server_config *core, volatile sig_atomic_t *stop);

#endif
