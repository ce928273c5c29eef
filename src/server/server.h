/* server.h — the server's core, without sockets (server.c; layer 5 of layers.h): what a
 * server is configured with, how it is given time and a way out for its messages, and its
 * statistics. The core's entry points are loop.h (start, connections, the loop) and api.h
 * (HTTP); net.c feeds them bytes and delivers what they send; tests and fuzzers call the same
 * functions with an in-memory store and fake time. */
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
    bool sync_normal;    /* SQLite: synchronous=NORMAL, not FULL (store_sqlite.h) */
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
    int64_t challenge_expiry_ms; /* a challenge expires after this long; 0: 10 min, or 3 days
                                    for a correspondence clock (challenge.c) */
    const char *review_budget;   /* search parameters of a review after the hard level's
                                    ("" or NULL: the review's default, docs/review.md) */
    void (*notify)(void *ctx);   /* a worker result is waiting (from a worker thread) */
    void *notify_ctx;
    /* Unfinished games against the computer one user, and everyone from one address (its /64
     * for IPv6), may have created. */
    int max_ai_games, max_ai_games_per_ip;
    /* The lobby's limits (issue 49, finding 5): games waiting for players one user (above:
     * max_open_games) and one address may have created, seeks and challenges sent waiting of
     * one user and of the users connected from one address (docs/server.md). */
    int max_open_games_per_ip, max_seeks, max_seeks_per_ip, max_challenges, max_challenges_per_ip;
    /* Password hashing (issue 49): threads hashing at once; password jobs (register, login,
     * password) one address may have queued or running, beyond which it is told `busy`; failed
     * logins (and wrong old passwords) allowed per 10 minutes from one address and against one
     * account name, beyond which a login is `rate-limited` until one is back (0: no limit). */
    int hash_threads, hash_per_ip, login_failures_per_ip, login_failures_per_account;
    /* New guests one address may make per hour (0: no limit), and how long a guest that sits in
     * no game lives after its last token expired... (store sweeps, rs_server_tick). */
    int guests_per_ip;
} rs_server_config;

/* Defaults: 60 s grace, 90-day tokens, 100 messages per 20 s, 32 watched games, 10 open
 * games per user and 20 per address, 3 seeks per user and 12 per address, 5 challenges per
 * user and 20 per address, one AI thread, games nobody comes back to ended after 30 min. */
void rs_server_config_default(rs_server_config *cfg);

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
/* The socket the announcements arrive on (rs_server_listen reads them), or -1; it changes
 * when the connection is reopened. */
int rs_server_listen_fd(const rs_server *srv);

#endif
