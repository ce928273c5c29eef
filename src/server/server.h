/* server.h — the server's core, without sockets: connections by id, identity, the lobby, the
 * JSON protocol of docs/server-protocol.md, the referees (table.h), worker results, timers,
 * the group commit, and the HTTP JSON API. net.c feeds it bytes and delivers what it sends;
 * tests and fuzzers call the same functions with an in-memory store and fake time.
 *
 * The order of one service-loop iteration: any number of rs_server_receive / _tick /
 * _drain_inbox calls, then rs_server_flush, which commits every change of the iteration in
 * one transaction and only then hands the replies and broadcasts to rs_output.send. A
 * message is never sent before the change it reports is committed. */
#ifndef RS_SERVER_H
#define RS_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RS_PROTOCOL_VERSION 1
#define RS_MAX_MESSAGE 4096 /* bytes in one client message */

typedef struct rs_server rs_server;

typedef struct rs_time_source {
    int64_t (*mono_us)(void *ctx); /* monotonic microseconds: clocks and durations */
    int64_t (*wall_ms)(void *ctx); /* wall-clock milliseconds: stored stamps, expiry */
    void *ctx;
} rs_time_source;

typedef struct rs_output {
    /* One text message for a connection; the core keeps no pointer to text. */
    void (*send)(void *ctx, uint64_t conn, const char *text, size_t len);
    /* Close a connection with a WebSocket close code (1008 policy, 1011 error...). */
    void (*close)(void *ctx, uint64_t conn, int code, const char *reason);
    void *ctx;
} rs_output;

typedef struct rs_server_config {
    const char *db_path; /* ":memory:" for tests and fuzzing */
    int ai_threads;      /* 0: jobs run only in rs_server_run_jobs_inline */
    int64_t ai_hard_ms;  /* > 0: the hard AI thinks this long a move against a person in an
                          * untimed game, instead of its iterations (0: its iterations) */
    int64_t grace_ms;    /* a disconnected player's opponent may claim after this */
    int64_t token_days;  /* a login token lives this long */
    int rate_messages;   /* messages per rate window and connection */
    int64_t rate_window_ms;
    int max_watch;      /* games one connection may watch */
    int max_open_games; /* open games one user may have created */
    const char *node;   /* this server's name among several on one database (cluster.h); NULL:
                         the host's name and the process id */
    int64_t lease_ms;   /* how long a game's lease lasts unrenewed (docs/cluster.md) */
    int64_t expire_ms;  /* open games and games against the AI nobody comes back to for this
                           long end (docs/server.md); 0: never */
    void (*notify)(void *ctx); /* a worker result is waiting (from a worker thread) */
    void *notify_ctx;
} rs_server_config;

/* Defaults: 60 s grace, 90-day tokens, 100 messages per 20 s, 32 watched games, 10 open
 * games per user, one AI thread, games nobody comes back to ended after 30 min. */
void rs_server_config_default(rs_server_config *cfg);

/* Open the store, load every unfinished game (charging clocks only up to the last sign of
 * life), start the workers. NULL with a message on failure. */
rs_server *rs_server_new(const rs_server_config *cfg, const rs_time_source *time,
                         const rs_output *out, char *err, size_t err_size);
/* Commit what is pending, stop the workers, free everything. */
void rs_server_free(rs_server *srv);

/* ---- connections (ids are chosen by the caller, never 0) ---- */
void rs_server_connect(rs_server *srv, uint64_t conn, const char *peer);
void rs_server_disconnect(rs_server *srv, uint64_t conn);
/* One complete client message (a WebSocket text message). */
void rs_server_receive(rs_server *srv, uint64_t conn, const char *data, size_t len);
/* The transport dropped a message over RS_MAX_MESSAGE: answer with an error. */
void rs_server_too_large(rs_server *srv, uint64_t conn, size_t len);
/* The connection's output queue overflowed and was dropped: send fresh snapshots. */
void rs_server_resync(rs_server *srv, uint64_t conn);

/* ---- the loop ---- */
/* Apply worker results (AI moves, password checks). */
void rs_server_drain_inbox(rs_server *srv);
/* Time passed: flag clocks, keep the heartbeat, retry AI jobs. */
void rs_server_tick(rs_server *srv);
/* When rs_server_tick must run next, in monotonic microseconds. */
int64_t rs_server_next_tick_us(rs_server *srv);
/* Commit, then deliver. Returns 0, or -1 when the commit failed (the changes of the
 * iteration are undone, their games reloaded, and the clients told). */
int rs_server_flush(rs_server *srv);
/* Inline mode (ai_threads 0): run queued jobs on this thread, then drain. Returns how many. */
int rs_server_run_jobs_inline(rs_server *srv);

/* ---- HTTP: the JSON API, /healthz and the embedded client ---- */
typedef struct rs_http_reply {
    int status;
    const char *content_type;
    char *body; /* malloc'ed, or static when body_static */
    size_t length;
    bool body_static;
    const char *cache_control;    /* the Cache-Control header's value (static text) */
    const char *content_encoding; /* "gzip", "br", or NULL for the bytes as they are */
    char etag[24];                /* a strong ETag ("\"hex\""), or empty */
    bool vary_encoding;           /* the body depends on Accept-Encoding */
    const struct rs_asset *asset; /* the embedded file served, or NULL */
} rs_http_reply;
void rs_server_http(rs_server *srv, const char *method, const char *path, const char *query,
                    rs_http_reply *reply);
/* Fits a reply to the request's headers (either may be NULL or empty): an embedded file is
 * sent Brotli- or gzip-compressed when accept_encoding allows it, and a reply whose ETag
 * matches if_none_match becomes a bodiless 304. */
void rs_http_reply_negotiate(rs_http_reply *reply, const char *accept_encoding,
                             const char *if_none_match);
void rs_http_reply_free(rs_http_reply *reply);

/* ---- operations ---- */
typedef struct rs_server_stats {
    int connections, games_open, games_live;
    long long moves, messages, errors, rate_limited, commits, commit_failures;
    /* On a cluster: another server's moves caught up one by one, and games read again whole
     * (docs/cluster.md). */
    long long caught_up_moves, caught_up_whole;
    /* On a cluster: games unloaded since nobody watched them here and this server held no
     * lease on them (docs/cluster.md). */
    long long unloaded;
} rs_server_stats;
void rs_server_stats_get(rs_server *srv, rs_server_stats *out);
/* Draining (SIGTERM): refuse new games and joins; games in progress go on until close. */
void rs_server_drain(rs_server *srv);

/* ---- several servers on one database (docs/cluster.md) ---- */
/* True when the store is shared with other servers (PostgreSQL). */
bool rs_server_shared(const rs_server *srv);
/* Read what the other servers announced and catch up (call each loop turn, before
 * rs_server_flush; the socket of rs_server_listen_fd wakes the loop for it). */
void rs_server_listen(rs_server *srv);
/* The socket the announcements arrive on, or -1; it changes when the connection is
 * reopened. */
int rs_server_listen_fd(const rs_server *srv);

#endif
