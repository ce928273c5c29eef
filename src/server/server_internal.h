/* server_internal.h — what the core's files share (server.c, loop.c, session.c, api.c): the
 * server and connection structs and the registry of connections and games (server.c).
 * Nothing here is seen by net.c, which uses only server.h. */
#ifndef RS_SERVER_INTERNAL_H
#define RS_SERVER_INTERNAL_H

#include "cluster.h"
#include "fields.h"
#include "idmap.h"
#include "outbox.h"
#include "server.h"
#include "store.h"
#include "table.h"
#include "text.h"
#include "workers.h"

struct cJSON;

#define RS_MAX_WATCH_LIMIT 64

typedef struct rs_conn {
    uint64_t id;
    char peer[64];
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
} rs_listed;

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
    /* The earliest clock deadline, rescanned when a game was touched, added or ticked. */
    bool deadlines_stale;
    int64_t earliest_deadline_us;
    bool draining;
    int64_t started_us, last_heartbeat_us, last_checkpoint_us;
    int64_t next_housekeeping_us; /* when rs_server_tick is due at the latest */
    bool checkpoint_pending;      /* a WAL checkpoint job is queued or running */
    bool checkpoint_tail_due;     /* it ended: finish it after the next commit */
    rs_job job_scratch;           /* big: kept here, not on the stack */
    rs_server_stats stats;
    /* ---- several servers on one database (cluster.c) ---- */
    bool shared;                       /* the store is PostgreSQL: other servers may share it */
    char node[RS_NODE_TEXT];           /* this server's name in leases and announcements */
    char alive_key[RS_NODE_TEXT + 16]; /* its sign of life in meta: alive_ms:NODE */
    char *announce;                    /* lines for the other servers at this iteration's commit */
    size_t announce_len, announce_cap;
    int64_t *locked; /* games whose rows this iteration's transaction holds */
    size_t locked_count, locked_cap;
    struct rs_deferred *deferred; /* requests waiting for a row another server holds */
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
int64_t rs_server_now_us(rs_server *srv);
int64_t rs_server_now_ms(rs_server *srv);
rs_conn *rs_server_conn(rs_server *srv, uint64_t id);
rs_table *rs_server_table(rs_server *srv, int64_t id);
/* The AI spec the seat's next move is searched with (its level, or `hard` with a time budget
 * against a person: cfg.ai_hard_ms). */
void rs_server_ai_seat_spec(const rs_server *srv, const rs_table *t, int seat, char *out,
                            size_t size);
bool rs_server_add_table(rs_server *srv, rs_table *t);
/* Note a game changed in this iteration (for AI scheduling, the lobby, commit failure). */
void rs_server_touch(rs_server *srv, rs_table *t, rs_game_status status_before);
/* Note c for the iteration's end after setting its `asked` or `identity_changed`. */
void rs_server_note(rs_server *srv, rs_conn *c);
void rs_server_schedule_ai(rs_server *srv, rs_table *t);
/* Put fresh in old's place (the same game read again from the store): old's watchers move
 * over and each gets a snapshot with what it missed since version `since` (-1: none). Frees
 * old. */
void rs_server_replace_table(rs_server *srv, rs_table *old, rs_table *fresh, int64_t since);
/* A game held by another server of the cluster, read from the store (NULL on SQLite, or
 * when there is no such game). */
rs_table *rs_cluster_fetch(rs_server *srv, int64_t id);
void rs_server_unwatch_all(rs_server *srv, rs_conn *c);
/* True when some connection is identified as user, on this server or (on a cluster) on
 * another live one. */
bool rs_server_user_online(rs_server *srv, int64_t user);
/* End the games nobody comes back to (rs_table_expirable), once a second. */
void rs_server_expire(rs_server *srv);
/* A connection of `user` closed or logged out: if it was their last, their seats count as gone
 * from now. */
void rs_server_user_left(rs_server *srv, int64_t user);
void rs_reply(rs_server *srv, rs_conn *c, struct cJSON *msg, const struct cJSON *request);
/* Reply with the error e to request (of message type `type`, when known), with the game's
 * version and ply when it names one. */
void rs_server_error(rs_server *srv, rs_conn *c, const rs_err *e, const char *type,
                     const struct cJSON *request);
/* Call visit for each connection noted in this iteration (every one after an overflow). */
void rs_server_visit_noted(rs_server *srv, void (*visit)(rs_server *, rs_conn *));
/* The loop's housekeeping (rs_server_tick) runs at least this often. */
#define RS_HOUSEKEEPING_US 1000000ll

#endif
