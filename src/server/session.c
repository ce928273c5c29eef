/* session.c — the handlers of every client message (docs/server-protocol.md): identity
 * (hello, register, login, logout, password), the lobby (create, join, leave, rematch), watching
 * (open, close) and play (move, resign, draw, takeback, claim, chat). Each checks its fields
 * and either replies or fails with an error code and a sentence; a failed handler changes
 * nothing. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "challenge.h"
#include "chat.h"
#include "cluster.h"
#include "fields.h"
#include "lobby.h"
#include "log.h"
#include "mine.h"
#include "pools.h"
#include "tournaments.h"
#include "ramparts/version.h"
#include "session.h"
#include "table_view.h"

#define VERSION_TEXT "ramparts " RP_VERSION_STRING

/* The error code of a request the store could not take: `unavailable` while the database
 * server is out of reach (PostgreSQL), else `server-error`. */
static const char *store_down_code(const rs_server *srv)
{
    return rs_store_unavailable(srv->store) ? "unavailable" : "server-error";
}

static cJSON *user_json(const rs_conn *c)
{
    if (!c->user)
        return cJSON_CreateNull();
    cJSON *u = cJSON_CreateObject();
    cJSON_AddNumberToObject(u, "id", (double)c->user);
    cJSON_AddStringToObject(u, "name", c->name);
    cJSON_AddBoolToObject(u, "guest", c->guest);
    return u;
}

static cJSON *message(const char *type)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", type);
    return m;
}

/* The direct answer to a request whose effect everyone is told in a broadcast. */
static void done(rs_server *srv, rs_conn *c, const cJSON *msg, const char *type, const rs_table *t)
{
    cJSON *m = message("done");
    cJSON_AddStringToObject(m, "re", type);
    if (t)
        cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    rs_reply(srv, c, m, msg);
}

static void wipe_field(const cJSON *msg, const char *key)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(msg, key);
    if (cJSON_IsString(f) && f->valuestring)
        rs_secret_wipe(f->valuestring, strlen(f->valuestring));
}

/* ---- identity ---- */

static int h_ping(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    (void)e;
    rs_reply(srv, c, message("pong"), msg);
    return 0;
}

static void welcome(rs_server *srv, rs_conn *c, const char *token, const cJSON *request)
{
    cJSON *m = message("welcome");
    cJSON_AddNumberToObject(m, "proto", RS_PROTOCOL_VERSION);
    cJSON_AddStringToObject(m, "server", VERSION_TEXT);
    cJSON_AddItemToObject(m, "user", user_json(c));
    if (token)
        cJSON_AddStringToObject(m, "token", token);
    rs_reply(srv, c, m, request);
}

static void become(rs_server *srv, rs_conn *c, const rs_user *u)
{
    rs_server_note(srv, c);
    c->user = u->id;
    rs_cluster_user_here(srv, u->id, true);
    snprintf(c->name, sizeof c->name, "%s", u->name);
    c->guest = u->guest;
    c->identity_changed = true;
    c->refuses_challenges = 0;
    srv->mine_dirty = true;
}

/* A new token for user: stored hashed, returned in clear once. */
static int issue_token(rs_server *srv, rs_conn *c, int64_t user, char token[RS_TOKEN_TEXT],
                       rs_err *e)
{
    rs_token_new(token);
    uint8_t hash[RS_TOKEN_HASH];
    rs_token_hash(token, strlen(token), hash);
    int64_t now = rs_server_now_ms(srv);
    if (rs_store_begin(srv->store) != RS_STORE_OK ||
        rs_store_token_add(srv->store, hash, user, now, now + srv->cfg.token_days * 86400000LL) !=
            RS_STORE_OK)
        return rs_fail(e, "server-error", "cannot store a token");
    memcpy(c->token_hash, hash, sizeof hash);
    c->has_token = true;
    return 0;
}

static int new_guest(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    /* Each guest is a stored user and a token: one address may make cfg.guests_per_ip an hour
     * (issue 49, finding 6), a browser keeps its own for its token's life. */
    int retry_s;
    if (srv->new_guests &&
        !rs_rate_take(srv->new_guests, c->holder, rs_server_now_us(srv), &retry_s))
        return rs_fail(e, "too-many",
                       "too many new guests from your address: try again in %d min, or log in",
                       (retry_s + 59) / 60);
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_fail(e, store_down_code(srv), "the store is unavailable");
    rs_user u = {0};
    int rc = RS_STORE_CONFLICT;
    for (int attempt = 0; attempt < 5 && rc == RS_STORE_CONFLICT; attempt++) {
        rs_guest_name(u.name);
        rc = rs_store_user_add(srv->store, u.name, true, rs_server_now_ms(srv), &u.id);
    }
    if (rc != RS_STORE_OK)
        return rs_fail(e, "server-error", "cannot create a guest");
    u.guest = true;
    char token[RS_TOKEN_TEXT];
    if (issue_token(srv, c, u.id, token, e) < 0)
        return -1;
    become(srv, c, &u);
    rs_log("conn %llu: new guest %lld", (unsigned long long)c->id, (long long)u.id);
    welcome(srv, c, token, msg);
    return 0;
}

static int h_hello(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t proto;
    const char *token = NULL;
    bool guest = true;
    if (!rs_field_int(msg, "proto", true, 0, 1000, &proto, e) ||
        !rs_field_string(msg, "token", false, 100, &token, e) ||
        !rs_field_bool(msg, "guest", &guest, e))
        return -1;
    if (proto != RS_PROTOCOL_VERSION)
        return rs_fail(e, "version", "this server speaks protocol %d, not %lld",
                       RS_PROTOCOL_VERSION, (long long)proto);
    if (c->user)
        return rs_fail(e, "already-identified", "you are %s already: log out first", c->name);
    c->greeted = true;
    if (!token) {
        if (!guest) { /* the client will log in: make no guest */
            welcome(srv, c, NULL, msg);
            return 0;
        }
        return new_guest(srv, c, msg, e);
    }
    uint8_t hash[RS_TOKEN_HASH];
    rs_token_hash(token, strlen(token), hash);
    int64_t user;
    bool expired;
    if (rs_store_token_user(srv->store, hash, rs_server_now_ms(srv), &user, &expired) !=
        RS_STORE_OK)
        return rs_fail(e, "bad-token",
                       expired ? "this token has expired: log in again, or say "
                                 "hello without a token to play as a new guest"
                               : "unknown token: log in, or say hello without "
                                 "a token to play as a new guest");
    rs_user u;
    if (rs_store_user_get(srv->store, user, &u) != RS_STORE_OK)
        return rs_fail(e, "bad-token", "this token's user no longer exists");
    memcpy(c->token_hash, hash, sizeof hash);
    c->has_token = true;
    become(srv, c, &u);
    c->identity_changed = false; /* nothing new was stored */
    welcome(srv, c, NULL, msg);
    return 0;
}

/* The request's "id" as text, to echo it when a worker's answer comes back. */
static void keep_request_id(const cJSON *msg, char *out, size_t size)
{
    out[0] = '\0';
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    char *text = id ? cJSON_PrintUnformatted(id) : NULL;
    if (text && strlen(text) < size)
        snprintf(out, size, "%s", text);
    free(text);
}

/* Password jobs queued or running for the address `holder` (srv->hashing). */
static int hashing_count(const rs_server *srv, const char *holder)
{
    return (int)(uintptr_t)rs_idmap_get(&srv->hashing, rs_rate_key_hash(holder));
}

static void hashing_add(rs_server *srv, const char *holder, int delta)
{
    const uint64_t key = rs_rate_key_hash(holder);
    const int n = hashing_count(srv, holder) + delta;
    if (n > 0)
        rs_idmap_put(&srv->hashing, key, (void *)(uintptr_t)n);
    else
        rs_idmap_del(&srv->hashing, key);
}

/* Hand a password job to the hashing threads; the answer comes when it is done (one job per
 * connection at a time, and at most cfg.hash_per_ip per address, so that one address's
 * sockets cannot fill the queue ahead of everyone else's logins: issue 49, finding 2). The
 * password is copied into the job and wiped here. */
static int submit_password_job(rs_server *srv, rs_conn *c, rs_job *job, const cJSON *msg,
                               const char *password, rs_err *e)
{
    const int from_here = hashing_count(srv, c->holder);
    if (srv->cfg.hash_per_ip > 0 && from_here >= srv->cfg.hash_per_ip)
        return rs_fail(e, "busy",
                       "%d passwords from your address are being checked: try again in a moment",
                       from_here);
    snprintf(job->holder, sizeof job->holder, "%s", c->holder);
    snprintf(job->password, sizeof job->password, "%s", password);
    keep_request_id(msg, job->request_id, sizeof job->request_id);
    bool queued = rs_workers_submit(srv->workers, job);
    rs_secret_wipe(job->password, sizeof job->password);
    if (!queued)
        return rs_fail(e, "busy", "the server is busy: try again in a moment");
    hashing_add(srv, c->holder, 1);
    c->auth_pending = true;
    return 0;
}

/* The key failed logins against an account name count under: the name in lower case, as
 * names are compared (a name nobody has counts as well, so the answer tells nothing). */
static void account_key(const char *name, char *out, size_t size)
{
    size_t i = 0;
    for (; name[i] && i < RS_NAME_MAX && i + 1 < size; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = '\0';
}

/* 0 when a login for `name` from c may be tried now; else `rate-limited`, with when to try
 * again, after too many failures from c's address or against that name. */
static int login_backoff(rs_server *srv, const rs_conn *c, const char *name, rs_err *e)
{
    const int64_t now = rs_server_now_us(srv);
    char key[RS_RATE_KEY];
    account_key(name, key, sizeof key);
    int retry_s;
    if (srv->login_failures_ip && !rs_rate_check(srv->login_failures_ip, c->holder, now, &retry_s))
        return rs_fail(e, "rate-limited",
                       "too many failed logins from your address: try again in %d s", retry_s);
    if (srv->login_failures_account &&
        !rs_rate_check(srv->login_failures_account, key, now, &retry_s))
        return rs_fail(e, "rate-limited",
                       "too many failed logins to this account: try again in %d s", retry_s);
    return 0;
}

/* A wrong password (a login's, or a password change's old one) counts against the address and
 * the account name it was tried for. */
static void login_failed(rs_server *srv, const rs_job *job)
{
    const int64_t now = rs_server_now_us(srv);
    char key[RS_RATE_KEY];
    account_key(job->name, key, sizeof key);
    int retry_s;
    if (srv->login_failures_ip)
        rs_rate_take(srv->login_failures_ip, job->holder, now, &retry_s);
    if (srv->login_failures_account)
        rs_rate_take(srv->login_failures_account, key, now, &retry_s);
}

static int check_password(const char *password, rs_err *e)
{
    size_t n = strlen(password);
    if (n < RS_PASSWORD_MIN || n > RS_PASSWORD_MAX)
        return rs_fail(e, "bad-password", "a password has %d to %d bytes", RS_PASSWORD_MIN,
                       RS_PASSWORD_MAX);
    return 0;
}

/* Whether a registered user other than c's looks like `name` (the same confusable skeleton,
 * as written or in lower case: "AIice" with a capital i beside "Alice"), into *other. */
static bool lookalike(rs_server *srv, const rs_conn *c, const char *name, rs_user *other)
{
    char lower[RS_NAME_MAX + 1], skeleton[RS_SKELETON_TEXT], lowered[RS_SKELETON_TEXT];
    rs_name_lower(name, lower);
    if (!rs_name_skeleton(name, skeleton) || !rs_name_skeleton(lower, lowered))
        return false;
    return rs_store_user_lookalike(srv->store, skeleton, lowered, c->user, other) == RS_STORE_OK;
}

static int h_register(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    const char *name, *password;
    int rc = -1;
    if (!rs_field_string(msg, "name", true, 64, &name, e) ||
        !rs_field_string(msg, "password", true, 1024, &password, e))
        goto done;
    if (!c->guest) {
        rs_fail(e, "already-registered", "you are already registered as %s", c->name);
        goto done;
    }
    const char *problem = rs_name_problem(name);
    rs_user other;
    if (problem) {
        rs_fail(e, "bad-name", "%s", problem);
    } else if (check_password(password, e) == 0) {
        if (c->auth_pending)
            rs_fail(e, "busy", "a password is already being checked for you");
        else if (rs_store_user_find(srv->store, name, &other) == RS_STORE_OK)
            rs_fail(e, "name-taken", "the name %s is taken", name);
        else if (lookalike(srv, c, name, &other))
            rs_fail(e, "name-taken", "the name %s looks too much like %s, which is taken", name,
                    other.name);
    }
    if (e->code)
        goto done;
    rs_job job = {.kind = RS_JOB_HASH, .conn = c->id, .user_id = c->user};
    snprintf(job.name, sizeof job.name, "%s", name);
    rc = submit_password_job(srv, c, &job, msg, password, e);
done:
    wipe_field(msg, "password");
    return rc;
}

static int h_login(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    const char *name, *password;
    int rc = -1;
    if (!rs_field_string(msg, "name", true, 64, &name, e) ||
        !rs_field_string(msg, "password", true, 1024, &password, e))
        goto done;
    if (!c->greeted) {
        rs_fail(e, "no-identity", "say hello first");
        goto done;
    }
    if (c->auth_pending) {
        rs_fail(e, "busy", "a password is already being checked for you");
        goto done;
    }
    if (login_backoff(srv, c, name, e) < 0)
        goto done;
    rs_user u;
    rs_job job = {.kind = RS_JOB_VERIFY, .conn = c->id};
    snprintf(job.name, sizeof job.name, "%s", name);
    /* An unknown name is answered after as long as a wrong password (the worker hashes
     * the password anyway): the answer does not tell which names exist. */
    if (rs_store_user_find(srv->store, name, &u) == RS_STORE_OK && !u.guest) {
        job.user_id = u.id;
        snprintf(job.stored, sizeof job.stored, "%s", u.pwhash);
    }
    rc = submit_password_job(srv, c, &job, msg, password, e);
done:
    wipe_field(msg, "password");
    return rc;
}

/* A registered player's password change: the old password is checked on the hashing thread
 * (as long as a login), the new one is hashed there, and the account's other tokens are
 * revoked (finish_password). Everything that can be checked here is, first. */
static int h_password(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    const char *old_password, *new_password;
    int rc = -1;
    rs_user u;
    if (!rs_field_string(msg, "old", true, 1024, &old_password, e) ||
        !rs_field_string(msg, "new", true, 1024, &new_password, e))
        goto done;
    if (!c->user || c->guest) {
        rs_fail(e, "not-registered", "only a registered player has a password: register first");
        goto done;
    }
    size_t n = strlen(new_password);
    if (n < RS_PASSWORD_MIN || n > RS_PASSWORD_MAX) {
        rs_fail(e, "bad-password", "the new password has %d to %d bytes", RS_PASSWORD_MIN,
                RS_PASSWORD_MAX);
        goto done;
    }
    if (strcmp(old_password, new_password) == 0) {
        rs_fail(e, "bad-password", "the new password is the same as the old one");
        goto done;
    }
    if (c->auth_pending) {
        rs_fail(e, "busy", "a password is already being checked for you");
        goto done;
    }
    if (login_backoff(srv, c, c->name, e) < 0) /* wrong old passwords count as failed logins */
        goto done;
    if (rs_store_user_get(srv->store, c->user, &u) != RS_STORE_OK) {
        rs_fail(e, store_down_code(srv), "cannot read your account");
        goto done;
    }
    rs_job job = {.kind = RS_JOB_REHASH, .conn = c->id, .user_id = c->user};
    snprintf(job.name, sizeof job.name, "%s", c->name); /* the rule refuses it inside */
    snprintf(job.stored, sizeof job.stored, "%s", u.pwhash);
    snprintf(job.new_password, sizeof job.new_password, "%s", new_password);
    rc = submit_password_job(srv, c, &job, msg, old_password, e);
    rs_job_wipe(&job);
done:
    wipe_field(msg, "old");
    wipe_field(msg, "new");
    return rc;
}

static void reply_to_job(rs_server *srv, rs_conn *c, const rs_job *job, cJSON *m)
{
    cJSON *request = job->request_id[0] ? cJSON_CreateObject() : NULL;
    cJSON *id = job->request_id[0] ? cJSON_Parse(job->request_id) : NULL;
    if (request && id)
        cJSON_AddItemToObject(request, "id", id);
    else
        cJSON_Delete(id);
    rs_reply(srv, c, m, request);
    cJSON_Delete(request);
}

static void job_error(rs_server *srv, rs_conn *c, const rs_job *job, const char *re,
                      const char *code, const char *text)
{
    cJSON *m = message("error");
    cJSON_AddStringToObject(m, "code", code);
    cJSON_AddStringToObject(m, "message", text);
    cJSON_AddStringToObject(m, "re", re);
    reply_to_job(srv, c, job, m);
}

/* A password the rule refused (rs_password_weak): the library's reason, in a sentence. */
static void weak_password(rs_server *srv, rs_conn *c, const rs_job *job, const char *re)
{
    char text[RP_ERROR_TEXT + 64];
    snprintf(text, sizeof text, "this password is too easy to guess (%s): nothing changed",
             job->error);
    job_error(srv, c, job, re, "bad-password", text);
}

static void finish_register(rs_server *srv, rs_conn *c, const rs_job *job)
{
    if (job->weak) {
        weak_password(srv, c, job, "register");
        return;
    }
    if (!job->ok) {
        job_error(srv, c, job, "register", "server-error", "cannot hash the password");
        return;
    }
    if (c->user != job->user_id || !c->guest) {
        job_error(srv, c, job, "register", "already-registered", "your identity changed");
        return;
    }
    int rc = rs_store_begin(srv->store);
    if (rc == RS_STORE_OK)
        rc = rs_store_user_register(srv->store, c->user, job->name, job->stored);
    if (rc == RS_STORE_CONFLICT) {
        job_error(srv, c, job, "register", "name-taken",
                  "that name, or one that looks like it, was just taken");
        return;
    }
    if (rc != RS_STORE_OK) {
        job_error(srv, c, job, "register", "server-error", "cannot store the account");
        return;
    }
    snprintf(c->name, sizeof c->name, "%s", job->name);
    c->guest = false;
    c->identity_changed = true;
    rs_server_note(srv, c);
    for (size_t i = 0; i < srv->tables.cap; i++)
        if (srv->tables.slots[i].key)
            rs_table_rename(srv->tables.slots[i].value, c->user, c->name);
    rs_log("user %lld registered", (long long)c->user);
    cJSON *m = message("registered");
    cJSON_AddItemToObject(m, "user", user_json(c));
    reply_to_job(srv, c, job, m);
}

static void finish_login(rs_server *srv, rs_conn *c, const rs_job *job)
{
    rs_user u;
    if (!job->ok || rs_store_user_get(srv->store, job->user_id, &u) != RS_STORE_OK) {
        job_error(srv, c, job, "login", "bad-login", "wrong name or password");
        return;
    }
    char token[RS_TOKEN_TEXT];
    rs_err e = {0};
    if (issue_token(srv, c, u.id, token, &e) < 0) {
        job_error(srv, c, job, "login", e.code, e.text);
        return;
    }
    rs_server_unwatch_all(srv, c);
    const int64_t before = c->user;
    const bool was_guest = c->user && c->guest;
    become(srv, c, &u);
    if (was_guest && before != u.id) /* never paired with the account it logged into */
        rs_pools_link(srv, before, u.id);
    if (before != u.id)
        rs_session_user_left(srv, before);
    rs_log("conn %llu: user %lld logs in", (unsigned long long)c->id, (long long)u.id);
    cJSON *m = message("welcome");
    cJSON_AddNumberToObject(m, "proto", RS_PROTOCOL_VERSION);
    cJSON_AddStringToObject(m, "server", VERSION_TEXT);
    cJSON_AddItemToObject(m, "user", user_json(c));
    cJSON_AddStringToObject(m, "token", token);
    reply_to_job(srv, c, job, m);
    rs_secret_wipe(token, sizeof token);
}

void rs_session_user_left(rs_server *srv, int64_t user)
{
    if (!user || rs_server_user_connected(srv, user))
        return;
    rs_cluster_user_here(srv, user, false);
    rs_pools_user_left(srv, user);
    rs_ctx ctx = rs_server_ctx(srv);
    for (size_t i = 0; i < srv->tables.cap; i++)
        if (srv->tables.slots[i].key)
            rs_table_user_gone(&ctx, srv->tables.slots[i].value, user);
}

static void forget_identity(rs_server *srv, rs_conn *c);

/* Log out one connection: it loses its identity, told with a logged-out of its own. */
static void log_out(rs_server *srv, rs_conn *c)
{
    forget_identity(srv, c);
    rs_outbox_put(&srv->outbox, c->id, message("logged-out"));
}

int rs_session_revoke_token(rs_server *srv, const uint8_t hash[RS_TOKEN_HASH],
                            const rs_conn *except)
{
    int count = 0;
    for (size_t i = 0; i < srv->conns.cap; i++) {
        rs_conn *other = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (other && other != except && other->has_token &&
            memcmp(other->token_hash, hash, RS_TOKEN_HASH) == 0) {
            log_out(srv, other);
            count++;
        }
    }
    return count;
}

int rs_session_revoke_user(rs_server *srv, int64_t user, const uint8_t *keep, const rs_conn *except)
{
    int count = 0;
    for (size_t i = 0; i < srv->conns.cap; i++) {
        rs_conn *other = srv->conns.slots[i].key ? srv->conns.slots[i].value : NULL;
        if (!other || other == except || other->user != user)
            continue;
        if (keep && other->has_token && memcmp(other->token_hash, keep, RS_TOKEN_HASH) == 0)
            continue;
        log_out(srv, other);
        count++;
    }
    return count;
}

static void finish_password(rs_server *srv, rs_conn *c, const rs_job *job)
{
    if (job->weak) {
        weak_password(srv, c, job, "password");
        return;
    }
    if (job->error[0]) {
        job_error(srv, c, job, "password", "server-error", job->error);
        return;
    }
    if (!job->ok) {
        job_error(srv, c, job, "password", "wrong-password",
                  "the old password is wrong: nothing changed");
        return;
    }
    if (c->user != job->user_id || c->guest) {
        job_error(srv, c, job, "password", "not-registered", "your identity changed");
        return;
    }
    int rc = rs_store_begin(srv->store);
    if (rc == RS_STORE_OK)
        rc = rs_store_user_password(srv->store, c->user, job->stored,
                                    c->has_token ? c->token_hash : NULL);
    if (rc != RS_STORE_OK) {
        job_error(srv, c, job, "password", store_down_code(srv), "cannot store the password");
        return;
    }
    /* The other sessions of the account lose their identity with their token: whoever knew
     * the old password is logged out everywhere but here (on a cluster, the other servers
     * too, by the announcement). Pages of the same browser share this connection's token and
     * stay. */
    const uint8_t *keep = c->has_token ? c->token_hash : NULL;
    const int others = rs_session_revoke_user(srv, c->user, keep, c);
    rs_cluster_note_revoked(srv, c->user, keep, false);
    rs_log("user %lld changed the password (%d other sessions logged out)", (long long)c->user,
           others);
    cJSON *m = message("done");
    cJSON_AddStringToObject(m, "re", "password");
    cJSON_AddNumberToObject(m, "logged_out", others);
    reply_to_job(srv, c, job, m);
}

void rs_session_auth_result(rs_server *srv, const rs_job *job)
{
    hashing_add(srv, job->holder, -1);
    const bool wrong_password = !job->ok && !job->weak && !job->error[0];
    if (wrong_password && (job->kind == RS_JOB_VERIFY || job->kind == RS_JOB_REHASH))
        login_failed(srv, job); /* counted even when the asker has gone */
    rs_conn *c = rs_server_conn(srv, job->conn);
    if (!c) /* it went away while the hash ran */
        return;
    c->auth_pending = false;
    c->asked = true;
    rs_server_note(srv, c);
    if (job->kind == RS_JOB_HASH)
        finish_register(srv, c, job);
    else if (job->kind == RS_JOB_REHASH)
        finish_password(srv, c, job);
    else
        finish_login(srv, c, job);
}

static void forget_identity(rs_server *srv, rs_conn *c)
{
    rs_server_unwatch_all(srv, c);
    const int64_t user = c->user;
    c->user = 0;
    c->has_token = false;
    c->lobby = false;
    c->mine = false;
    rs_session_user_left(srv, user);
}

static int h_logout(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    if (c->has_token) {
        if (rs_store_begin(srv->store) != RS_STORE_OK ||
            rs_store_token_revoke(srv->store, c->token_hash) != RS_STORE_OK)
            return rs_fail(e, "server-error", "cannot revoke the token");
    }
    /* Every connection that said hello with this token loses its identity too (told with a
     * logged-out of its own), here and on the other servers of a cluster: a revoked token
     * must not go on moving and chatting elsewhere. */
    if (c->has_token) {
        rs_session_revoke_token(srv, c->token_hash, c);
        rs_cluster_note_revoked(srv, c->user, c->token_hash, true);
    }
    forget_identity(srv, c);
    rs_reply(srv, c, message("logged-out"), msg);
    return 0;
}

static bool watches(const rs_conn *c, const rs_table *t)
{
    for (int i = 0; i < c->num_watching; i++)
        if (c->watching[i] == t->row.id)
            return true;
    return false;
}

/* True when c watches t or may start to. */
static bool can_watch(const rs_server *srv, const rs_conn *c, const rs_table *t, rs_err *e)
{
    const int limit =
        srv->cfg.max_watch < RS_MAX_WATCH_LIMIT ? srv->cfg.max_watch : RS_MAX_WATCH_LIMIT;
    if (watches(c, t) || c->num_watching < limit)
        return true;
    rs_fail(e, "too-many", "you watch %d games already: close one first", c->num_watching);
    return false;
}

/* Start sending c the game t. */
static int watch(rs_server *srv, rs_conn *c, rs_table *t, int64_t since, const cJSON *request,
                 rs_err *e)
{
    if (!can_watch(srv, c, t, e))
        return -1;
    if (!watches(c, t))
        c->watching[c->num_watching++] = t->row.id;
    rs_ctx ctx = rs_server_ctx(srv);
    const cJSON *id = request ? cJSON_GetObjectItemCaseSensitive(request, "id") : NULL;
    if (rs_table_watch(&ctx, t, c->id, c->user, since, rs_chat_history(srv, t, c->user), id, e) < 0)
        return -1;
    if (srv->shared) /* its seat's presence is stored at the commit (cluster.c) */
        rs_server_touch(srv, t, t->row.status);
    return 0;
}

/* "ai:LEVEL" with a level of the allow-list, never an arbitrary AI spec: a spec could ask
 * for any number of threads or any search time. */
static bool ai_level(const char *word, char out[RS_AI_LEVEL_TEXT])
{
    return strncmp(word, "ai:", 3) == 0 && rs_field_ai_level(word + 3, out);
}

static int parse_seats(rs_conn *c, const cJSON *seats, rs_table_settings *s, rs_err *e)
{
    if (!cJSON_IsArray(seats))
        return rs_fail(e, "bad-message",
                       "field 'seats' must be a list like [\"me\", "
                       "\"ai:medium\"]");
    int n = cJSON_GetArraySize(seats);
    if (n < s->game->min_players || n > s->game->max_players)
        return rs_fail(e, "bad-seats", "%s is for %d to %d players, not %d", s->game->title,
                       s->game->min_players, s->game->max_players, n);
    int me = 0, people = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *item = cJSON_GetArrayItem(seats, i);
        rs_seat_row *seat = &s->seats[i];
        const char *word = cJSON_IsString(item) ? item->valuestring : "";
        if (strcmp(word, "me") == 0) {
            seat->kind = RS_SEAT_HUMAN;
            seat->user_id = c->user;
            me++;
        } else if (strcmp(word, "open") == 0) {
            seat->kind = RS_SEAT_OPEN;
        } else if (strcmp(word, "invite") == 0) {
            seat->kind = RS_SEAT_INVITE;
            rs_invite_new(seat->invite);
        } else if (ai_level(word, seat->ai_level)) {
            seat->kind = RS_SEAT_AI;
        } else {
            return rs_fail(e, "bad-seats",
                           "seat %d: expected \"me\", \"open\", \"invite\" or "
                           "\"ai:LEVEL\" (random, greedy, beginner, easy, medium, hard)",
                           i);
        }
        people += seat->kind != RS_SEAT_AI;
    }
    if (me > 1)
        return rs_fail(e, "bad-seats", "you can take one seat of a game");
    if (people == 0)
        return rs_fail(e, "bad-seats", "a game needs at least one seat for a person");
    s->config.players = n;
    return 0;
}

static int parse_clock(const cJSON *clock, rs_table_settings *s, rs_err *e)
{
    return rs_field_clock(clock, s, e);
}

/* Games waiting for players one user, and everyone from one address, may have created
 * (issue 49, finding 5: twelve guests with ten each filled the lobby). Counted by this server
 * alone, as the games against the computer are. */
static int check_open_games(rs_server *srv, const rs_conn *c, rs_err *e)
{
    int by_user = 0, by_address = 0;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (!t || t->row.status != RS_GAME_OPEN)
            continue;
        by_user += t->row.creator == c->user;
        by_address += strcmp(t->creator_holder, c->holder) == 0;
    }
    if (by_user >= srv->cfg.max_open_games)
        return rs_fail(e, "too-many", "you have %d games waiting for players already", by_user);
    if (by_address >= srv->cfg.max_open_games_per_ip)
        return rs_fail(e, "too-many", "%d games waiting for players were made from your address",
                       by_address);
    return 0;
}

static bool has_ai_seat(const rs_seat_row *seats, int n)
{
    for (int i = 0; i < n; i++)
        if (seats[i].kind == RS_SEAT_AI)
            return true;
    return false;
}

/* A game against the computer costs the server a search at every one of its moves, and one
 * left running costs memory until it expires: how many unfinished ones one user, and everyone
 * from one address, may have created (docs/server.md, "Limits and defences"). Counted by this
 * server alone: on a cluster each node holds its own. */
static int check_ai_games(rs_server *srv, const rs_conn *c, rs_err *e)
{
    int by_user = 0, by_address = 0;
    for (size_t i = 0; i < srv->tables.cap; i++) {
        const rs_table *t = srv->tables.slots[i].key ? srv->tables.slots[i].value : NULL;
        if (!t || (t->row.status != RS_GAME_OPEN && t->row.status != RS_GAME_LIVE) ||
            !has_ai_seat(t->row.seat, t->row.seats))
            continue;
        by_user += t->row.creator == c->user;
        by_address += strcmp(t->creator_holder, c->holder) == 0;
    }
    if (by_user >= srv->cfg.max_ai_games)
        return rs_fail(e, "too-many",
                       "you have %d games against the computer going already: finish or "
                       "resign one first",
                       by_user);
    if (by_address >= srv->cfg.max_ai_games_per_ip)
        return rs_fail(e, "too-many",
                       "%d games against the computer are going from your address already",
                       by_address);
    return 0;
}

static void reply_created(rs_server *srv, rs_conn *c, const rs_table *t, const cJSON *msg)
{
    cJSON *m = message("created");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddItemToObject(m, "invites", rs_table_invites_json(t));
    rs_reply(srv, c, m, msg);
}

/* Create the table of checked settings, reply, and let the creator watch it. */
static int create_table(rs_server *srv, rs_conn *c, const rs_table_settings *s, const cJSON *msg,
                        rs_table **out, rs_err *e)
{
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_fail(e, store_down_code(srv), "the store is unavailable");
    rs_ctx ctx = rs_server_ctx(srv);
    rs_table *t = rs_table_create(&ctx, s, e);
    if (!t)
        return -1;
    if (!rs_server_add_table(srv, t)) {
        rs_table_free(t);
        return rs_fail(e, "server-error", "out of memory");
    }
    snprintf(t->creator_holder, sizeof t->creator_holder, "%s", c->holder);
    rs_rating_row rating;
    t->creator_rating =
        rs_store_rating_get(srv->store, c->user, t->game->id, &rating) == RS_STORE_OK
            ? rating.rating
            : RS_DEFAULT_RATING;
    rs_server_touch(srv, t, RS_GAME_OPEN);
    srv->lobby_dirty = true;
    reply_created(srv, c, t, msg);
    rs_err ignored;
    watch(srv, c, t, -1, NULL, &ignored);
    if (out)
        *out = t;
    return 0;
}

static int h_create(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    if (srv->draining)
        return rs_fail(e, "draining", "the server is shutting down: no new games");
    const char *type;
    if (!rs_field_string(msg, "type", true, 64, &type, e))
        return -1;
    rs_table_settings s = {0};
    s.game = rp_game_find(type);
    if (!s.game)
        return rs_fail(e, "bad-game", "unknown game '%.40s' (see /api/v1/types)", type);
    rp_config_default(s.game, &s.config);
    bool rated = false;
    if (parse_seats(c, cJSON_GetObjectItemCaseSensitive(msg, "seats"), &s, e) < 0 ||
        rs_field_options(cJSON_GetObjectItemCaseSensitive(msg, "options"), &s, e) < 0 ||
        parse_clock(cJSON_GetObjectItemCaseSensitive(msg, "clock"), &s, e) < 0 ||
        !rs_field_bool(msg, "rated", &rated, e))
        return -1;
    s.rated = rated;
    for (int i = 0; rated && i < s.config.players; i++)
        if (s.seats[i].kind == RS_SEAT_AI)
            return rs_fail(e, "not-allowed", "rated games are between people only");
    if (rated && rs_server_rated_refused(c, e) < 0)
        return -1;
    rp_state trial;
    rp_error err = {{0}};
    if (s.game->init(&trial, &s.config, &err) < 0) /* refuse options the game refuses */
        return rs_fail(e, "bad-option", "%s", err.msg);
    if (check_open_games(srv, c, e) < 0)
        return -1;
    if (has_ai_seat(s.seats, s.config.players) && check_ai_games(srv, c, e) < 0)
        return -1;
    s.creator = c->user;
    return create_table(srv, c, &s, msg, NULL, e);
}

static int h_join(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t seat = -1;
    const char *invite = NULL;
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t || !rs_field_int(msg, "seat", false, INT32_MIN, INT32_MAX, &seat, e) ||
        !rs_field_string(msg, "invite", false, 64, &invite, e))
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(msg, "seat") && (seat < 0 || seat >= t->row.seats))
        return rs_fail(e, "bad-seat", "game %lld has seats 0 to %d", (long long)t->row.id,
                       t->row.seats - 1);
    if (t->row.rated && rs_server_rated_refused(c, e) < 0)
        return -1;
    if (srv->draining)
        return rs_fail(e, "draining", "the server is shutting down: no new games");
    if (rs_store_begin(srv->store) != RS_STORE_OK)
        return rs_fail(e, store_down_code(srv), "the store is unavailable");
    if (!(t = rs_cluster_lock(srv, t, e)))
        return -1;
    if (!can_watch(srv, c, t, e)) /* a player watches the game joined */
        return -1;
    rs_ctx ctx = rs_server_ctx(srv);
    int chosen;
    rs_game_status before = t->row.status;
    if (rs_table_join(&ctx, t, c->user, c->name, c->id, (int)seat, invite, &chosen, e) < 0)
        return -1;
    rs_server_touch(srv, t, before);
    cJSON *m = message("joined");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddNumberToObject(m, "seat", chosen);
    rs_reply(srv, c, m, msg);
    rs_err ignored;
    watch(srv, c, t, -1, NULL, &ignored);
    return 0;
}

static int h_leave(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t || rs_store_begin(srv->store) != RS_STORE_OK)
        return t ? rs_fail(e, store_down_code(srv), "the store is unavailable") : -1;
    if (!(t = rs_cluster_lock(srv, t, e)))
        return -1;
    rs_ctx ctx = rs_server_ctx(srv);
    rs_game_status before = t->row.status;
    if (rs_table_leave(&ctx, t, c->user, e) < 0)
        return -1;
    rs_server_touch(srv, t, before);
    cJSON *m = message("left");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    rs_reply(srv, c, m, msg);
    return 0;
}

static int h_rematch(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t)
        return -1;
    int seat = rs_table_seat_of(t, c->user);
    if (seat < 0)
        return rs_fail(e, "not-seated", "you did not play game %lld", (long long)t->row.id);
    if (t->row.status != RS_GAME_OVER)
        return rs_fail(e, "not-over", "game %lld is not over", (long long)t->row.id);
    /* On a cluster the old game's row is locked, so that two servers asked at once create
     * one rematch, and the store tells whether another server created it already. */
    if (srv->shared) {
        if (rs_store_begin(srv->store) != RS_STORE_OK)
            return rs_fail(e, store_down_code(srv), "the store is unavailable");
        if (!(t = rs_cluster_lock(srv, t, e)))
            return -1;
        int64_t found;
        if (!t->rematch_id && rs_store_rematch_find(srv->store, t->row.id, &found) == RS_STORE_OK)
            t->rematch_id = found;
    }
    rs_table *existing = rs_cluster_table(srv, t->rematch_id);
    if (existing) {
        reply_created(srv, c, existing, msg);
        rs_err ignored;
        return watch(srv, c, existing, -1, NULL, &ignored), 0;
    }
    if (srv->draining)
        return rs_fail(e, "draining", "the server is shutting down: no new games");
    rs_table_settings s = {.game = t->game,
                           .config = t->config,
                           .rated = t->row.rated,
                           .clock_kind = (rs_clock_kind)t->row.clock_kind,
                           .initial_ms = t->row.initial_ms,
                           .increment_ms = t->row.increment_ms,
                           .per_move_ms = t->row.per_move_ms,
                           .creator = c->user,
                           .rematch_of = t->row.id};
    const int n = t->row.seats;
    for (int i = 0; i < n; i++) { /* everyone moves one seat on: Blue plays Red next */
        rs_seat_row *to = &s.seats[(i + 1) % n];
        const rs_seat_row *from = &t->row.seat[i];
        *to = *from;
        if (from->kind == RS_SEAT_HUMAN && from->user_id != c->user)
            to->kind = RS_SEAT_RESERVED;
    }
    if ((s.rated && rs_server_rated_refused(c, e) < 0) ||
        (has_ai_seat(s.seats, n) && check_ai_games(srv, c, e) < 0))
        return -1;
    rs_table *fresh = NULL;
    if (create_table(srv, c, &s, msg, &fresh, e) < 0 || !fresh)
        return -1;
    t->rematch_id = fresh->row.id;
    cJSON *m = message("rematch");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddNumberToObject(m, "rematch", (double)fresh->row.id);
    cJSON_AddStringToObject(m, "by", c->name);
    rs_ctx ctx = rs_server_ctx(srv);
    rs_table_broadcast(&ctx, t, m);
    rs_cluster_note_rematch(srv, t->row.id, fresh->row.id, m);
    cJSON_Delete(m);
    return 0;
}

/* ---- watching ---- */

/* Game `id` to look at: a table in play (on a cluster perhaps one just created elsewhere), or
 * a finished game brought back from the store while someone looks at it (*loaded: the caller
 * touches it afterwards so that it is unloaded again at the flush if nobody watches it). */
static rs_table *viewable_table(rs_server *srv, int64_t id, bool *loaded, rs_err *e)
{
    *loaded = false;
    rs_table *t = rs_cluster_table(srv, id);
    if (t)
        return t;
    rs_ctx ctx = rs_server_ctx(srv);
    rs_game_row row;
    if (rs_store_game_get(srv->store, id, &row) != RS_STORE_OK ||
        (row.status != RS_GAME_OVER && row.status != RS_GAME_ABORTED)) {
        rs_fail(e, "not-found", "no game %lld", (long long)id);
        return NULL;
    }
    t = rs_table_load(&ctx, id, 0, e);
    if (!t || !rs_server_add_table(srv, t)) {
        if (t)
            rs_fail(e, "server-error", "out of memory");
        rs_table_free(t);
        return NULL;
    }
    *loaded = true;
    return t;
}

static int h_open(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t id, since = -1;
    if (!rs_field_int(msg, "game", true, 1, INT64_MAX / 2, &id, e) ||
        !rs_field_int(msg, "v", false, 0, INT64_MAX / 2, &since, e))
        return -1;
    bool loaded;
    rs_table *t = viewable_table(srv, id, &loaded, e);
    if (!t)
        return -1;
    int rc = watch(srv, c, t, since, msg, e);
    if (loaded)
        rs_server_touch(srv, t, t->row.status);
    return rc;
}

/* The frames a `history` reply carries at most: a long game is fetched in pages, so that one
 * request never fills the connection's bounded output buffer. */
#define HISTORY_PAGE 100

/* The game so far as the sender was shown it, ply by ply (the move list of docs/web.md): their
 * seat's views, or the spectator's. In a live game too: every frame is one they already got. */
static int h_history(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t id, from = 0;
    if (!rs_field_int(msg, "game", true, 1, INT64_MAX / 2, &id, e) ||
        !rs_field_int(msg, "from", false, 0, INT64_MAX / 2, &from, e))
        return -1;
    bool loaded;
    rs_table *t = viewable_table(srv, id, &loaded, e);
    if (!t)
        return -1;
    const int64_t ply = (int64_t)rs_table_ply(t);
    if (from > ply) {
        if (loaded)
            rs_server_touch(srv, t, t->row.status);
        return rs_fail(e, "bad-message", "field 'from' is a ply from 0 to %lld", (long long)ply);
    }
    const int seat = rs_table_seat_of(t, c->user);
    const int viewer = seat >= 0 ? seat : RP_SPECTATOR;
    cJSON *m = message("history");
    cJSON_AddNumberToObject(m, "game", (double)id);
    cJSON_AddItemToObject(m, "viewer",
                          seat >= 0 ? cJSON_CreateNumber(seat) : cJSON_CreateString("spectator"));
    cJSON_AddNumberToObject(m, "ply", (double)ply);
    cJSON_AddNumberToObject(m, "from", (double)from);
    cJSON_AddItemToObject(m, "frames", rs_table_frames_json(t, viewer, (size_t)from, HISTORY_PAGE));
    cJSON_AddBoolToObject(m, "more", t->match && ply - from + 1 > HISTORY_PAGE);
    rs_reply(srv, c, m, msg);
    if (loaded)
        rs_server_touch(srv, t, t->row.status);
    return 0;
}

static int h_close(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t id;
    if (!rs_field_int(msg, "game", true, 1, INT64_MAX / 2, &id, e))
        return -1;
    int k = -1;
    for (int i = 0; i < c->num_watching; i++)
        if (c->watching[i] == id)
            k = i;
    if (k < 0)
        return rs_fail(e, "not-watching", "you are not watching game %lld", (long long)id);
    c->watching[k] = c->watching[--c->num_watching];
    rs_table *t = rs_server_table(srv, id);
    if (t) {
        rs_ctx ctx = rs_server_ctx(srv);
        rs_table_unwatch(&ctx, t, c->id);
        rs_server_touch(srv, t, t->row.status);
    }
    cJSON *m = message("closed");
    cJSON_AddNumberToObject(m, "game", (double)id);
    rs_reply(srv, c, m, msg);
    return 0;
}

/* ---- play ---- */

/* The AI level that suggests moves: quick, so a hint never keeps an AI seat waiting long. */
#define HINT_LEVEL "easy"

/* The table and the caller's seat in it, with the transaction open and (on a cluster) the
 * game's row locked. */
static rs_table *seated(rs_server *srv, rs_conn *c, const cJSON *msg, int *seat, rs_err *e)
{
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t)
        return NULL;
    if (rs_table_seat_of(t, c->user) >= 0 && rs_store_begin(srv->store) == RS_STORE_OK &&
        !(t = rs_cluster_lock(srv, t, e)))
        return NULL;
    *seat = rs_table_seat_of(t, c->user);
    if (*seat < 0) {
        rs_fail(e, "not-seated", "you have no seat in game %lld", (long long)t->row.id);
        return NULL;
    }
    if (rs_store_begin(srv->store) != RS_STORE_OK) {
        rs_fail(e, store_down_code(srv), "the store is unavailable");
        return NULL;
    }
    return t;
}

static int h_move(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t ply;
    const char *move;
    int seat;
    rs_table *t = seated(srv, c, msg, &seat, e);
    if (!t || !rs_field_int(msg, "ply", true, 0, INT64_MAX / 2, &ply, e) ||
        !rs_field_string(msg, "move", true, RP_ACTION_TEXT - 1, &move, e))
        return -1;
    rs_ctx ctx = rs_server_ctx(srv);
    bool duplicate;
    rs_game_status before = t->row.status;
    int rc = rs_table_move(&ctx, t, seat, ply, move, &duplicate, e);
    rs_server_touch(srv, t, before); /* a refused move may still have flagged a clock */
    if (rc < 0)
        return -1;
    if (!duplicate)
        srv->stats.moves++;
    cJSON *m = message("ack");
    cJSON_AddNumberToObject(m, "game", (double)t->row.id);
    cJSON_AddNumberToObject(m, "ply", (double)ply);
    cJSON_AddBoolToObject(m, "dup", duplicate);
    rs_reply(srv, c, m, msg);
    return 0;
}

/* A suggested move for the seat to act, in a game with an AI seat (never in a game between
 * people only, so a hint can never help one person against another). The search runs on an
 * AI thread from the seat's own view of the position (the AI determinizes for the seat to
 * act) and is answered to this connection only, as `hint`, if the game is still at that ply. */
static int h_hint(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    rs_table *t = rs_cluster_table_named(srv, msg, e);
    if (!t)
        return -1;
    int seat = rs_table_seat_of(t, c->user);
    if (seat < 0)
        return rs_fail(e, "not-seated", "you have no seat in game %lld", (long long)t->row.id);
    if (t->row.status != RS_GAME_LIVE)
        return rs_fail(e, t->row.status == RS_GAME_OPEN ? "not-started" : "game-over",
                       "game %lld is not being played", (long long)t->row.id);
    bool against_ai = false;
    for (int s = 0; s < t->row.seats; s++)
        against_ai |= t->row.seat[s].kind == RS_SEAT_AI;
    if (!against_ai)
        return rs_fail(e, "not-allowed", "hints are given only in games against the computer");
    if (rs_table_to_move(t) != seat)
        return rs_fail(e, "not-your-turn", "a hint is for the seat to move");
    int64_t ply = (int64_t)rs_table_ply(t);
    if (!rs_field_int(msg, "ply", false, 0, INT64_MAX / 2, &ply, e))
        return -1;
    if (ply != (int64_t)rs_table_ply(t))
        return rs_fail(e, "stale", "the game is at ply %lld", (long long)rs_table_ply(t));
    rs_job *job = &srv->job_scratch;
    memset(job, 0, sizeof *job);
    job->kind = RS_JOB_HINT;
    job->conn = c->id;
    job->game_id = t->row.id;
    job->ply = (int64_t)rs_table_ply(t);
    job->seat = seat;
    job->match = rp_match_clone(t->match);
    snprintf(job->level, sizeof job->level, "%s", HINT_LEVEL);
    job->seed = rs_seed_new();
    keep_request_id(msg, job->request_id, sizeof job->request_id);
    if (!rs_workers_submit(srv->workers, job))
        return rs_fail(e, "busy", "the computer players are busy: ask again in a moment");
    return 0;
}

void rs_session_hint_result(rs_server *srv, const rs_job *job)
{
    rs_conn *c = rs_server_conn(srv, job->conn);
    if (!c) /* it went away while the search ran */
        return;
    rs_table *t = rs_server_table(srv, job->game_id);
    if (!t || t->row.status != RS_GAME_LIVE || (int64_t)rs_table_ply(t) != job->ply) {
        job_error(srv, c, job, "hint", "stale", "the game moved on before the hint was ready");
        return;
    }
    if (!job->ok || !job->move[0]) {
        job_error(srv, c, job, "hint", "server-error", "no hint could be found");
        return;
    }
    cJSON *m = message("hint");
    cJSON_AddNumberToObject(m, "game", (double)job->game_id);
    cJSON_AddNumberToObject(m, "ply", (double)job->ply);
    cJSON_AddStringToObject(m, "move", job->move);
    reply_to_job(srv, c, job, m);
}

/* ---- reviews (docs/review.md) ---- */

/* The game's row and, for a live game, its table (in memory, or taken on a cluster). */
static int review_game(rs_server *srv, int64_t id, rs_game_row *row, rs_table **live, rs_err *e)
{
    *live = rs_server_table(srv, id);
    if (*live) {
        *row = (*live)->row;
        return 0;
    }
    if (rs_store_game_get(srv->store, id, row) != RS_STORE_OK)
        return rs_fail(e, "no-such-game", "there is no game %lld", (long long)id);
    if (row->status == RS_GAME_LIVE && !(*live = rs_cluster_table(srv, id)))
        return rs_fail(e, "no-such-game", "game %lld cannot be read now", (long long)id);
    return 0;
}

/* The seat to review: the field, else the sender's own. */
static int review_seat(const rs_game_row *row, int64_t user, const cJSON *msg, int *seat, rs_err *e)
{
    int64_t asked = -1;
    if (!rs_field_int(msg, "seat", false, -1, INT64_MAX / 2, &asked, e))
        return -1;
    for (int s = 0; s < row->seats && asked < 0; s++)
        if (row->seat[s].kind == RS_SEAT_HUMAN && row->seat[s].user_id == user)
            asked = s;
    if (asked < 0 || asked >= row->seats)
        return rs_fail(e, "bad-seat", "say which seat to review: 0 to %d", row->seats - 1);
    *seat = (int)asked;
    return 0;
}

/* A live game is reviewed only for the sender's own seat in a game against the computer (the
 * moves so far: a hint was allowed at each), never between people (issue 42). */
static int review_allowed_live(const rs_game_row *row, int64_t user, int seat, rs_err *e)
{
    bool against_ai = false;
    for (int s = 0; s < row->seats; s++)
        against_ai |= row->seat[s].kind == RS_SEAT_AI;
    const bool own = row->seat[seat].kind == RS_SEAT_HUMAN && row->seat[seat].user_id == user;
    if (row->status == RS_GAME_LIVE && against_ai && own)
        return 0;
    return rs_fail(e, "not-over",
                   "a game is reviewed once it is over (before that, only your own past moves "
                   "against the computer)");
}

static void reply_review(rs_server *srv, rs_conn *c, const cJSON *msg, const rs_job *job,
                         int64_t game, int seat, const char *text)
{
    cJSON *m = message("review");
    cJSON_AddNumberToObject(m, "game", (double)game);
    cJSON_AddNumberToObject(m, "seat", seat);
    cJSON *review = cJSON_Parse(text);
    if (review)
        cJSON_AddItemToObject(m, "review", review);
    else
        cJSON_AddNullToObject(m, "review");
    if (job)
        reply_to_job(srv, c, job, m);
    else
        rs_reply(srv, c, m, msg);
}

/* The review bounds (server_internal.h): one pending review a user, RS_REVIEWS_MAX in all. */
static bool review_slot_take(rs_server *srv, int64_t user)
{
    if (srv->reviews_pending == RS_REVIEWS_MAX)
        return false;
    for (int i = 0; i < srv->reviews_pending; i++)
        if (srv->review_users[i] == user)
            return false;
    srv->review_users[srv->reviews_pending++] = user;
    return true;
}

static void review_slot_give(rs_server *srv, int64_t user)
{
    for (int i = 0; i < srv->reviews_pending; i++)
        if (srv->review_users[i] == user) {
            srv->review_users[i] = srv->review_users[--srv->reviews_pending];
            return;
        }
}

static int submit_review(rs_server *srv, rs_conn *c, const cJSON *msg, rs_table *live,
                         const rs_game_row *row, int seat, rs_err *e)
{
    rs_job *job = &srv->job_scratch;
    memset(job, 0, sizeof *job);
    job->kind = RS_JOB_REVIEW;
    job->conn = c->id;
    job->user_id = c->user;
    job->game_id = row->id;
    job->seat = seat;
    job->ply = row->status == RS_GAME_OVER ? -1 : 0; /* -1: over, so the review is stored */
    snprintf(job->budget, sizeof job->budget, "%s",
             srv->cfg.review_budget ? srv->cfg.review_budget : "");
    keep_request_id(msg, job->request_id, sizeof job->request_id);
    if (live) {
        job->match = rp_match_clone(live->match);
    } else {
        rs_ctx ctx = rs_server_ctx(srv);
        rs_table *loaded = rs_table_load(&ctx, row->id, 0, e); /* finished: nothing written */
        if (!loaded)
            return -1;
        job->match = rp_match_clone(loaded->match);
        rs_table_free(loaded);
    }
    if (!job->match)
        return rs_fail(e, "server-error", "out of memory for a review");
    if (!review_slot_take(srv, c->user)) {
        rp_match_free(job->match);
        job->match = NULL;
        return rs_fail(e, "busy",
                       "a review of yours is still being made, or the server is "
                       "making all the reviews it can: ask again in a moment");
    }
    if (!rs_workers_submit(srv->workers, job)) {
        review_slot_give(srv, c->user);
        return rs_fail(e, "busy", "the computer players are busy: ask again in a moment");
    }
    return 0;
}

/* One seat's review: a finished game's from the store when it was made before (on any
 * server), else made on an AI thread, stored and answered as `review`. */
static int h_review(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int64_t id = 0;
    rs_game_row row;
    rs_table *live = NULL;
    int seat = -1;
    if (!rs_field_int(msg, "game", true, 1, INT64_MAX / 2, &id, e) ||
        review_game(srv, id, &row, &live, e) < 0 || review_seat(&row, c->user, msg, &seat, e) < 0)
        return -1;
    if (row.status != RS_GAME_OVER)
        return review_allowed_live(&row, c->user, seat, e) < 0
                   ? -1
                   : submit_review(srv, c, msg, live, &row, seat, e);
    char *stored = NULL;
    if (rs_store_review_get(srv->store, id, seat, &stored) == RS_STORE_OK) {
        reply_review(srv, c, msg, NULL, id, seat, stored);
        free(stored);
        return 0;
    }
    return submit_review(srv, c, msg, live, &row, seat, e);
}

void rs_session_review_result(rs_server *srv, const rs_job *job)
{
    review_slot_give(srv, job->user_id);
    if (job->ok && job->ply < 0 && rs_store_begin(srv->store) == RS_STORE_OK &&
        rs_store_review_put(srv->store, job->game_id, job->seat, job->review) != RS_STORE_OK)
        rs_log("game %lld: the review of seat %d was not stored: %s", (long long)job->game_id,
               job->seat, rs_store_error(srv->store));
    rs_conn *c = rs_server_conn(srv, job->conn);
    if (!c) /* it went away while the review was made: stored all the same */
        return;
    if (!job->ok) {
        job_error(srv, c, job, "review", "server-error", "the review could not be made");
        return;
    }
    reply_review(srv, c, NULL, job, job->game_id, job->seat, job->review);
}

typedef int (*offer_fn)(rs_ctx *ctx, rs_table *t, int seat, const char *op, rs_err *e);

static int offer(rs_server *srv, rs_conn *c, const cJSON *msg, offer_fn fn, rs_err *e)
{
    int seat;
    const char *op;
    rs_table *t = seated(srv, c, msg, &seat, e);
    if (!t || !rs_field_string(msg, "op", true, 16, &op, e))
        return -1;
    if (strcmp(op, "offer") != 0 && strcmp(op, "accept") != 0 && strcmp(op, "decline") != 0)
        return rs_fail(e, "bad-message", "field 'op' is offer, accept or decline");
    rs_ctx ctx = rs_server_ctx(srv);
    rs_game_status before = t->row.status;
    if (fn(&ctx, t, seat, op, e) < 0)
        return -1;
    rs_server_touch(srv, t, before);
    done(srv, c, msg, cJSON_GetObjectItemCaseSensitive(msg, "t")->valuestring, t);
    return 0;
}

static int h_draw(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    return offer(srv, c, msg, rs_table_draw, e);
}

static int h_takeback(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    return offer(srv, c, msg, rs_table_takeback, e);
}

/* An action of the sender's seat that ends the game: resign, claim. */
typedef int (*seat_fn)(rs_ctx *ctx, rs_table *t, int seat, rs_err *e);

static int seat_action(rs_server *srv, rs_conn *c, const cJSON *msg, seat_fn fn, const char *type,
                       rs_err *e)
{
    int seat;
    rs_table *t = seated(srv, c, msg, &seat, e);
    if (!t)
        return -1;
    rs_ctx ctx = rs_server_ctx(srv);
    rs_game_status before = t->row.status;
    if (fn(&ctx, t, seat, e) < 0)
        return -1;
    rs_server_touch(srv, t, before);
    done(srv, c, msg, type, t);
    return 0;
}

static int h_resign(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    return seat_action(srv, c, msg, rs_table_resign, "resign", e);
}

/* A claim wins only against people with no connection to the server at all (a player online
 * elsewhere, or between two tabs, has not left). */
static int h_claim(rs_server *srv, rs_conn *c, const cJSON *msg, rs_err *e)
{
    int seat;
    rs_table *t = seated(srv, c, msg, &seat, e);
    if (!t)
        return -1;
    uint32_t online = 0;
    for (int s = 0; s < t->row.seats; s++)
        if (s != seat && t->row.seat[s].kind == RS_SEAT_HUMAN && !rs_table_seat_connected(t, s) &&
            rs_cluster_user_online(srv, t->row.seat[s].user_id))
            online |= 1u << s;
    rs_ctx ctx = rs_server_ctx(srv);
    rs_game_status before = t->row.status;
    if (rs_table_claim(&ctx, t, seat, online, e) < 0)
        return -1;
    rs_server_touch(srv, t, before);
    done(srv, c, msg, "claim", t);
    return 0;
}

const rs_command rs_commands[] = {
    {"ping", h_ping, false, 0, NULL},
    {"hello", h_hello, false, 1, NULL},
    {"register", h_register, true, 3, NULL},
    {"login", h_login, false, 3, NULL},
    {"logout", h_logout, true, 1, NULL},
    {"password", h_password, true, 3, NULL},
    {"lobby", rs_lobby_handle, true, 1, NULL},
    {"create", h_create, true, 5, NULL},
    {"join", h_join, true, 2, NULL},
    {"leave", h_leave, true, 1, NULL},
    {"rematch", h_rematch, true, 2, NULL},
    {"open", h_open, true, 1, NULL},
    {"history", h_history, true, 2, NULL},
    {"close", h_close, true, 1, NULL},
    {"move", h_move, true, 1, NULL},
    {"resign", h_resign, true, 1, NULL},
    {"draw", h_draw, true, 1, NULL},
    {"takeback", h_takeback, true, 1, NULL},
    {"claim", h_claim, true, 1, NULL},
    {"chat", rs_chat_handle, true, 1, NULL},
    {"mute", rs_chat_mute_handle, true, 1, NULL},
    {"chat-switch", rs_chat_switch_handle, true, 1, NULL},
    {"hint", h_hint, true, 3, NULL},
    {"review", h_review, true, 3, NULL},
    {"seek", rs_pools_seek, true, 2, NULL},
    {"unseek", rs_pools_unseek, true, 1, NULL},
    {"mine", rs_mine_handle, true, 1, NULL},
    {"challenge", rs_challenge_handle, true, 1, rs_challenge_cost},
    {"settings", rs_challenge_settings, true, 1, NULL},
    {"tournament", rs_tournaments_handle, true, 1, rs_tournaments_cost},
    {NULL, NULL, false, 0, NULL},
};
