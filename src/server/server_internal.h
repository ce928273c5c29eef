/* server_internal.h — the core's shared state (server.c; layer 5 of layers.h): the server and
 * connection structs, and the registry of connections and games the layers above (loop.c,
 * session.c, cluster.c, api.c) work on. Nothing here calls up: the cluster's state is held
 * here as plain data, which cluster.c alone reads and writes. net.c never sees this file. */
#ifndef RS_SERVER_INTERNAL_H
#define RS_SERVER_INTERNAL_H

#include "idmap.h"
#include "outbox.h"
#include "ratelimit.h"
#include "server.h"
#include "store.h"
#include "table.h"
#include "text.h"
#include "workers.h"

struct cJSON;

#define RS_MAX_WATCH_LIMIT 64
#define RS_RATED_GAMES 16        /* games whose ratings a connection keeps for the lobby */
#define RS_DEFAULT_RATING 1500.0 /* a rating before any rated game (Glicko-2's start) */

typedef struct rs_conn {
    uint64_t id;
    char peer[64];
    /* The key its address's limits count under (rs_addr_holder). */
    char holder[64];
    bool greeted; /* said hello */
    int64_t user; /* 0 before hello */
    char name[RS_NAME_MAX + 1];
    bool guest;
    uint8_t token_hash[RS_TOKEN_HASH];
    bool has_token;
    double credits; /* rate limit: messages it may still send */
    int64_t credits_at_us;
    int refused;              /* rate-limited messages in this rate window */
    int64_t refused_since_us; /* when that window began */
    bool lobby;               /* receives lobby updates */
    /* Its ratings per game (rp_games' order) as read at its last lobby request, and whether
     * any differs from the default (lobby.c ranks the open games nearest them first). */
    double ratings[RS_RATED_GAMES];
    bool rated;
    bool mine;              /* receives its "my games" again when it changes (mine.c) */
    uint64_t mine_sig;      /* the signature of the list it was last sent */
    int refuses_challenges; /* its user's setting as last read: 0 unknown, 1 no, 2 yes */
    int64_t watching[RS_MAX_WATCH_LIMIT];
    int num_watching;
    bool auth_pending;     /* a password job is running for it */
    bool identity_changed; /* in this iteration (undone if the commit fails) */
    bool asked;            /* sent a request in this iteration */
    bool noted;            /* in srv->noted: the two flags above are cleared at its end */
    bool closing;
} rs_conn;

/* On a cluster: an unfinished game of the lobby this server does not hold, as the server
 * that changed it last announced it (cluster.c). */
typedef struct rs_listed {
    int64_t v;
    bool open;             /* listed among the open games, else among the live ones */
    struct cJSON *summary; /* rs_table_summary, as of version v */
    int64_t at_ms;         /* when this server heard of version v (its clock's time left) */
} rs_listed;

/* On a cluster: a client's request kept until the game's row another server holds is free
 * (cluster.c). */
typedef struct rs_deferred {
    uint64_t conn;
    char *data;
    size_t len;
} rs_deferred;

#define RS_REVIEWS_MAX 4

struct rs_server {
    rs_server_config cfg;
    rs_time_source time;
    rs_output out;
    rs_store *store;
    rs_workers *workers;
    rs_idmap conns, tables;
    rs_outbox outbox;
    int64_t *touched; /* games changed in this iteration */
    size_t touched_count, touched_cap;
    /* Connections with per-iteration flags set (rs_server_note): the iteration's end clears
     * those, not every connection, whose count grows with idle clients. */
    uint64_t *noted;
    size_t noted_count, noted_cap;
    bool noted_overflow; /* the list could not grow: the iteration's end visits them all */
    bool lobby_dirty;
    int64_t next_lobby_push_us; /* the lobby waits for this instant to be pushed again */
    bool mine_dirty;            /* some user's "my games" may have changed (mine.c) */
    int64_t next_mine_push_us;  /* they wait for this instant to be pushed again */
    /* The earliest clock deadline, rescanned when a game was touched, added or ticked. */
    bool deadlines_stale;
    int64_t earliest_deadline_us;
    bool draining;
    int64_t started_us, last_heartbeat_us, last_checkpoint_us;
    int64_t next_housekeeping_us; /* when rs_server_tick is due at the latest */
    bool checkpoint_pending;      /* a WAL checkpoint job is queued or running */
    bool checkpoint_tail_due;     /* it ended: finish it after the next commit */
    rs_job job_scratch;           /* big: kept here, not on the stack */
    /* Reviews being made (session.c): whose, at most one a user and RS_REVIEWS_MAX in all, so
     * reviews never fill the AI threads' queue ahead of the AI seats' moves for long. */
    int64_t review_users[RS_REVIEWS_MAX];
    int reviews_pending;
    rs_server_stats stats;
    /* Account defences (issue 49; session.c): password jobs queued or running per address
     * (keyed by rs_rate_key_hash of its holder; the value is the count), failed logins per
     * address and per account name, new guests per address (NULL: that limit is off). */
    rs_idmap hashing;
    int64_t next_sweep_us; /* the next sweep of expired tokens and unused guests (loop.c) */
    rs_rate_table *login_failures_ip, *login_failures_account, *new_guests;
    /* ---- several servers on one database: cluster.c's state, which the core only holds ---- */
    bool shared;                       /* the store is PostgreSQL: other servers may share it */
    char node[RS_NODE_TEXT];           /* this server's name in leases and announcements */
    char alive_key[RS_NODE_TEXT + 16]; /* its sign of life in meta: alive_ms:NODE */
    char *announce;                    /* lines for the other servers at this iteration's commit */
    size_t announce_len, announce_cap;
    int64_t *locked; /* games whose rows this iteration's transaction holds */
    size_t locked_count, locked_cap;
    rs_deferred *deferred; /* requests waiting for a row another server holds */
    size_t deferred_count, deferred_cap;
    int64_t deferred_due_us;
    rs_ai_result *ai_waiting; /* AI results waiting for such a row */
    size_t ai_waiting_count, ai_waiting_cap;
    bool listen_down; /* the announcements cannot be heard (logged once) */
    bool resync_due;  /* the resync after hearing them again failed: tried again each second */
    char *live_nodes; /* the live servers as last read: presence is read again when it changes */
    bool republish;   /* a commit failed: this server's presence rows are written again */
    rs_idmap listed;  /* the lobby's games held by other servers or none (rs_listed) */
};

rs_ctx rs_server_ctx(rs_server *srv);
/* 0 when c may create, join or seek a rated game (a registered player), else -1 with e set
 * (`not-registered`). */
int rs_server_rated_refused(const rs_conn *c, rs_err *e);
int64_t rs_server_now_us(rs_server *srv);
int64_t rs_server_now_ms(rs_server *srv);
rs_conn *rs_server_conn(rs_server *srv, uint64_t id);
rs_table *rs_server_table(rs_server *srv, int64_t id);
/* The users (at most max, each once) with a connection here from the address `holder`
 * (rs_addr_holder), for the limits per address; how many were written. */
size_t rs_server_users_from(const rs_server *srv, const char *holder, int64_t *users, size_t max);
/* The most users rs_server_users_from is asked for: more than --max-per-ip allows by default. */
#define RS_USERS_FROM_MAX 256
/* The AI spec the seat's next move is searched with (its level, or `hard` with a time budget
 * against a person: cfg.ai_hard_ms). */
void rs_server_ai_seat_spec(const rs_server *srv, const rs_table *t, int seat, char *out,
                            size_t size);
/* The AI seat of t whose move is to be searched now (it is to move and no search for this
 * ply is running, or the last one went unanswered too long), or -1. Where it is searched is
 * the caller's to decide (on a cluster: the server holding the game's lease). */
int rs_server_ai_due(rs_server *srv, const rs_table *t);
/* Queue the search of AI seat `seat`'s move in t on the AI threads. */
void rs_server_submit_ai(rs_server *srv, rs_table *t, int seat);
bool rs_server_add_table(rs_server *srv, rs_table *t);
/* Note a game changed in this iteration (for AI scheduling, the lobby, commit failure). */
void rs_server_touch(rs_server *srv, rs_table *t, rs_game_status status_before);
/* Note c for the iteration's end after setting its `asked` or `identity_changed`. */
void rs_server_note(rs_server *srv, rs_conn *c);
/* Put fresh in old's place (the same game read again from the store): old's watchers move
 * over and each gets a snapshot with what it missed since version `since` (-1: none). Frees
 * old. */
void rs_server_replace_table(rs_server *srv, rs_table *old, rs_table *fresh, int64_t since);
void rs_server_unwatch_all(rs_server *srv, rs_conn *c);
/* True when some connection to this server is identified as user (rs_cluster_user_online
 * also asks the other servers of a cluster). */
bool rs_server_user_connected(const rs_server *srv, int64_t user);
void rs_reply(rs_server *srv, rs_conn *c, struct cJSON *msg, const struct cJSON *request);
/* A new message {"t": type} (challenge.c's and tournaments.c's). */
struct cJSON *rs_server_message(const char *type);
/* rs_fail with `unavailable` when the database is out of reach, else `server-error`. */
int rs_server_store_down(rs_server *srv, rs_err *e, const char *what);
/* Reply with the error e to request (of message type `type`, when known), with the game's
 * version and ply when it names one. */
void rs_server_error(rs_server *srv, rs_conn *c, const rs_err *e, const char *type,
                     const struct cJSON *request);
/* Call visit for each connection noted in this iteration (every one after an overflow). */
void rs_server_visit_noted(rs_server *srv, void (*visit)(rs_server *, rs_conn *));
/* Open the store and make the core's state around it: no game loaded, no worker started
 * (rs_server_new does both). NULL with a message on failure. */
rs_server *rs_server_open(const rs_server_config *cfg, const rs_time_source *time,
                          const rs_output *out, char *err, size_t err_size);
/* Free the connections, the games and the store, and srv (the workers stopped before). */
void rs_server_close(rs_server *srv);

#endif
