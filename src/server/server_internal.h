/* server_internal.h — what the core's files share (server.c, session.c, api.c): the server
 * and connection structs, the command table, and field readers. Nothing here is seen by
 * net.c, which uses only server.h. */
#ifndef RS_SERVER_INTERNAL_H
#define RS_SERVER_INTERNAL_H

#include "idmap.h"
#include "server.h"
#include "store.h"
#include "table.h"
#include "text.h"
#include "workers.h"

struct cJSON;

#define RS_MAX_WATCH_LIMIT 64

typedef struct rs_pending {
    uint64_t conn; /* 0 once that connection closed */
    char *text;    /* NULL for a close, delivered in order after the messages before it */
    int close_code;
} rs_pending;

struct rs_outbox {
    rs_pending *items;
    size_t count, cap;
};

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

struct rs_server {
    rs_server_config cfg;
    rs_time_source time;
    rs_output out;
    rs_store *store;
    rs_workers *workers;
    rs_idmap conns, tables;
    struct rs_outbox outbox;
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
};

/* A client message type: its handler, whether it needs an identity, and its rate cost. */
typedef struct rs_command {
    const char *name;
    int (*handler)(rs_server *srv, rs_conn *c, const struct cJSON *msg, rs_err *e);
    bool needs_user;
    int cost;
} rs_command;
extern const rs_command rs_commands[]; /* session.c; ends with a NULL name */
/* The AI levels a seat may have (session.c; ends with NULL): never an arbitrary AI spec,
 * which could ask for any number of threads or any search time. */
extern const char *const rs_ai_levels[];

rs_ctx rs_server_ctx(rs_server *srv);
int64_t rs_server_now_us(rs_server *srv);
int64_t rs_server_now_ms(rs_server *srv);
rs_conn *rs_server_conn(rs_server *srv, uint64_t id);
rs_table *rs_server_table(rs_server *srv, int64_t id);
bool rs_server_add_table(rs_server *srv, rs_table *t);
/* Note a game changed in this iteration (for AI scheduling, the lobby, commit failure). */
void rs_server_touch(rs_server *srv, rs_table *t, rs_game_status status_before);
/* Note c for the iteration's end after setting its `asked` or `identity_changed`. */
void rs_server_note(rs_server *srv, rs_conn *c);
void rs_server_schedule_ai(rs_server *srv, rs_table *t);
void rs_server_unwatch_all(rs_server *srv, rs_conn *c);
/* A connection of `user` closed or logged out: if it was their last, their seats count as gone
 * from now. */
void rs_server_user_left(rs_server *srv, int64_t user);
void rs_reply(rs_server *srv, rs_conn *c, struct cJSON *msg, const struct cJSON *request);

/* True when d is a whole number that an int64_t holds (then *out is it): the only safe way to
 * convert a client's number, since converting a double out of range (or NaN) is undefined. */
static inline bool rs_whole_int64(double d, int64_t *out)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != (double)(int64_t)d)
        return false;
    *out = (int64_t)d;
    return true;
}

bool rs_field_int(const struct cJSON *msg, const char *key, bool required, int64_t min, int64_t max,
                  int64_t *out, rs_err *e);
bool rs_field_string(const struct cJSON *msg, const char *key, bool required, size_t max,
                     const char **out, rs_err *e);
bool rs_field_bool(const struct cJSON *msg, const char *key, bool *out, rs_err *e);
rs_table *rs_field_table(rs_server *srv, const struct cJSON *msg, rs_err *e);

/* session.c */
void rs_session_auth_result(rs_server *srv, const rs_job *job);
/* A hint computed on an AI thread, answered to the connection that asked (if still there). */
void rs_session_hint_result(rs_server *srv, const rs_job *job);
/* The lobby to one connection (answering request), or to every subscriber when c is NULL. */
void rs_session_send_lobby(rs_server *srv, rs_conn *c, const struct cJSON *request);

#endif
