/* loadgen.c — the load generator of `make bench-server` and the load tests: N real WebSocket
 * clients (libwebsockets' client, one thread) on loopback against `ramparts serve`. Idle
 * clients say hello and wait; players are paired into games of every kind (the registry's
 * games in turn) and play random legal moves from their own `legal` lists at a set total
 * pace, bounded in time and count.
 * Every acknowledged move is logged (ACKLOG), every game frame a player or spectator received
 * can be logged for the hidden-information checker (FRAMES), and the latency from a move sent
 * to the opponent's update is measured. A summary is printed as one JSON line at the end.
 * It reconnects with its tokens when the server goes away (the kill -9 test). It runs on
 * libuv's epoll loop as the server does: a poll(2) loop over thousands of sockets would cost
 * the load generator more CPU than the server it measures, on the same 2 cores. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <libwebsockets.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

#include "ramparts/game.h"

#define OUTQ 16
#define SENT_RING 8
#define TOKEN_MAX 64
#define MAX_LATENCIES 4000000

/* A stalled client watches the lobby and many games, then never reads again (a frozen tab):
 * the server must drop it without slowing anyone else. */
typedef enum role { ROLE_IDLE, ROLE_PLAYER, ROLE_SPECTATOR, ROLE_STALLED } role;

struct pair;

typedef struct client {
    struct lws *wsi;
    int index;
    role role;
    struct pair *pair;
    int seat; /* in the pair's game; -2 for a spectator */
    bool open, welcomed, want_connect, joined;
    bool rejoining;   /* sent join again after a reconnect: the first may have been taken */
    bool connecting;  /* a connection attempt under way (counted in `connecting`) */
    bool stalled;     /* stopped reading (ROLE_STALLED, once it asked for its games) */
    int64_t saw_over; /* the last of its pair's games it saw end */
    char token[TOKEN_MAX];
    char *rx;
    size_t rx_len, rx_cap;
    char *outq[OUTQ];
    int out_head, out_count;
    bool queued_to_move; /* in the ready queue */
    int64_t move_ply;
    char move_text[160];
    int64_t seen_v; /* last version of its game it saw */
    /* The last moves sent, by request id: the ack echoes the id. Matching by ply was not
     * enough: two states at one ply (a snapshot after a reconnect, say) can send two moves
     * at that ply before the first one's ack arrives, and the ack then named the second. */
    int64_t sent_id[SENT_RING];
    char sent_text[SENT_RING][160];
    int sent_next;
} client;

typedef struct pair {
    client *player[2];
    client *spectator;
    int type;
    int64_t game;
    bool live, over, resigning;
    int64_t sent_ply; /* a move in flight, -1 none */
    double sent_at;
    int mover_seat;
    long games_played;
} pair;

typedef struct options {
    const char *host;
    int port;
    int idle, games, spectate, stalled, stalled_watch;
    double rate; /* moves per second over all games; 0: as fast as updates come */
    double duration, ramp_per_s, ready_timeout;
    long max_moves;
    long min_finished;     /* play on past the duration until this many games have ended */
    double finish_timeout; /* ... for at most this long; then exit 1 */
    const char *acklog_path, *frames_path;
    bool hold;
    unsigned seed;
} options;

static options opt = {.host = "127.0.0.1",
                      .port = 8080,
                      .rate = 100,
                      .duration = 10,
                      .ramp_per_s = 2000,
                      .ready_timeout = 300,
                      .finish_timeout = 600,
                      .max_moves = 0,
                      .seed = 1,
                      .stalled_watch = 40};
static struct lws_context *context;
static client *clients;
static pair *pairs;
static int num_clients, num_pairs;
static client **ready; /* clients holding a move to send, FIFO */
static int ready_head, ready_count;
static FILE *acklog, *frames;
static double started, play_started, tokens_at, tokens;
static int connected_now, connected_max, connecting, welcomed_count;
static long moves_sent, acks, dup_acks, errors, updates, reconnects, games_started, games_finished,
    connect_failures, closes;
static long stalled_closed; /* stalled clients the server closed */
static long error_codes_after_stop, error_codes_stale, error_codes_other, error_codes_rate;
static long error_codes_rejoin; /* a join repeated after a reconnect, already taken */
static int64_t move_requests;   /* the id of the last move request, unique over all clients */
static bool finished_too_few;   /* fewer than --min-finished games ended in time */
static double *latencies;
static long num_latencies;
static bool ready_printed, stopping, finished;
static volatile sig_atomic_t interrupted;
static unsigned rng_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned next_random(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

/* ---- sending ---- */

static void send_text(client *c, char *text)
{
    if (!c->open || c->out_count == OUTQ) {
        free(text);
        return;
    }
    c->outq[(c->out_head + c->out_count) % OUTQ] = text;
    c->out_count++;
    lws_callback_on_writable(c->wsi);
}

static void send_fmt(client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send_fmt(client *c, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    send_text(c, strdup(buf));
}

static void write_one(client *c)
{
    if (c->out_count == 0)
        return;
    char *text = c->outq[c->out_head];
    const size_t len = strlen(text);
    unsigned char *buf = malloc(LWS_PRE + len + 1);
    memcpy(buf + LWS_PRE, text, len + 1); /* a string, as text was; lws_write sends len bytes */
    lws_write(c->wsi, buf + LWS_PRE, len, LWS_WRITE_TEXT);
    free(buf);
    free(text);
    c->out_head = (c->out_head + 1) % OUTQ;
    c->out_count--;
    if (c->out_count)
        lws_callback_on_writable(c->wsi);
}

static void hello(client *c)
{
    if (c->token[0])
        send_fmt(c, "{\"t\":\"hello\",\"proto\":1,\"token\":\"%s\"}", c->token);
    else
        send_fmt(c, "{\"t\":\"hello\",\"proto\":1}");
}

static void create_game(pair *p)
{
    p->type = (int)((p - pairs) + p->games_played) % rp_num_games;
    p->game = 0;
    p->live = p->over = p->resigning = false;
    p->sent_ply = -1;
    send_fmt(p->player[0], "{\"t\":\"create\",\"type\":\"%s\",\"seats\":[\"me\",\"open\"]}",
             rp_games[p->type]->id);
}

/* ---- the game ---- */

static void log_frame(const client *c, int64_t game, const char *text, size_t len)
{
    if (!frames)
        return;
    cJSON *line = cJSON_CreateObject();
    cJSON_AddNumberToObject(line, "viewer", c->seat);
    cJSON_AddNumberToObject(line, "game", (double)game);
    char *copy = strndup(text, len);
    cJSON_AddStringToObject(line, "frame", copy);
    free(copy);
    char *out = cJSON_PrintUnformatted(line);
    fprintf(frames, "%s\n", out);
    free(out);
    cJSON_Delete(line);
}

static void latency_seen(pair *p, const client *c, int64_t ply)
{
    if (p->sent_ply < 0 || c->seat == p->mover_seat || ply <= p->sent_ply)
        return;
    if (num_latencies < MAX_LATENCIES)
        latencies[num_latencies++] = now_s() - p->sent_at;
    p->sent_ply = -1;
}

static bool moving_allowed(void)
{
    return !stopping && (opt.max_moves == 0 || moves_sent < opt.max_moves);
}

/* A snapshot or update of the client's game: maybe its turn. */
static void on_state(client *c, const cJSON *m, const char *text, size_t len)
{
    pair *p = c->pair;
    const cJSON *game = cJSON_GetObjectItem(m, "game");
    if (!p || !cJSON_IsNumber(game))
        return;
    /* Every frame of every game of its pair is logged: the next game may have begun while
     * the end of the last one is still on its way here. */
    log_frame(c, (int64_t)game->valuedouble, text, len);
    if ((int64_t)game->valuedouble != p->game)
        return;
    updates++;
    const cJSON *v = cJSON_GetObjectItem(m, "v");
    if (cJSON_IsNumber(v))
        c->seen_v = (int64_t)v->valuedouble;
    const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(m, "status"));
    const cJSON *ply = cJSON_GetObjectItem(m, "ply");
    if (!status || !cJSON_IsNumber(ply))
        return;
    latency_seen(p, c, (int64_t)ply->valuedouble);
    if (strcmp(status, "live") == 0 && !p->live) {
        p->live = true;
        games_started++;
    }
    if (strcmp(status, "live") != 0 && strcmp(status, "open") != 0) {
        c->saw_over = p->game;
        if (!p->over) {
            p->over = true;
            games_finished++;
            p->games_played++;
            if (c->role == ROLE_PLAYER && c->seat == 0 && moving_allowed())
                create_game(p);
        }
        return;
    }
    const cJSON *legal = cJSON_GetObjectItem(m, "legal");
    if (c->role != ROLE_PLAYER || !cJSON_IsArray(legal) || cJSON_GetArraySize(legal) == 0)
        return;
    const int n = cJSON_GetArraySize(legal);
    const char *move = cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetArrayItem(legal, (int)(next_random() % (unsigned)n)), "text"));
    if (!move || strlen(move) >= sizeof c->move_text)
        return;
    snprintf(c->move_text, sizeof c->move_text, "%s", move);
    c->move_ply = (int64_t)ply->valuedouble;
    if (!c->queued_to_move) {
        c->queued_to_move = true;
        ready[(ready_head + ready_count) % num_clients] = c;
        ready_count++;
    }
}

static void send_move(client *c)
{
    pair *p = c->pair;
    c->queued_to_move = false;
    if (!c->open || !p->live || p->over || stopping)
        return;
    cJSON *text_json = cJSON_CreateString(c->move_text);
    char *move = cJSON_PrintUnformatted(text_json);
    cJSON_Delete(text_json);
    char buf[512];
    const int64_t id = ++move_requests;
    snprintf(buf, sizeof buf, "{\"t\":\"move\",\"game\":%lld,\"ply\":%lld,\"move\":%s,\"id\":%lld}",
             (long long)p->game, (long long)c->move_ply, move, (long long)id);
    free(move);
    c->sent_id[c->sent_next] = id;
    memcpy(c->sent_text[c->sent_next], c->move_text, sizeof c->move_text);
    c->sent_next = (c->sent_next + 1) % SENT_RING;
    p->sent_ply = c->move_ply;
    p->sent_at = now_s();
    p->mover_seat = c->seat;
    moves_sent++;
    send_text(c, strdup(buf));
}

static void on_ack(client *c, const cJSON *m)
{
    const cJSON *game = cJSON_GetObjectItem(m, "game"), *ply = cJSON_GetObjectItem(m, "ply");
    const cJSON *id = cJSON_GetObjectItem(m, "id");
    const bool dup = cJSON_IsTrue(cJSON_GetObjectItem(m, "dup"));
    acks++;
    if (dup)
        dup_acks++;
    if (acklog && cJSON_IsNumber(game) && cJSON_IsNumber(ply)) {
        const char *text = "?";
        for (int k = 1; k <= SENT_RING && cJSON_IsNumber(id); k++) { /* the move it answers */
            const int i = (c->sent_next - k + SENT_RING) % SENT_RING;
            if (c->sent_id[i] == (int64_t)id->valuedouble && c->sent_text[i][0]) {
                text = c->sent_text[i];
                break;
            }
        }
        cJSON *text_json = cJSON_CreateString(text);
        char *move = cJSON_PrintUnformatted(text_json);
        cJSON_Delete(text_json);
        fprintf(acklog, "{\"game\":%lld,\"ply\":%lld,\"seat\":%d,\"dup\":%s,\"move\":%s}\n",
                (long long)game->valuedouble, (long long)ply->valuedouble, c->seat,
                dup ? "true" : "false", move);
        free(move);
    }
}

static void on_message(client *c, const char *text, size_t len)
{
    cJSON *m = cJSON_ParseWithLength(text, len);
    const char *t = cJSON_GetStringValue(cJSON_GetObjectItem(m, "t"));
    if (!t) {
        cJSON_Delete(m);
        return;
    }
    pair *p = c->pair;
    if (strcmp(t, "welcome") == 0) {
        const char *token = cJSON_GetStringValue(cJSON_GetObjectItem(m, "token"));
        if (token)
            snprintf(c->token, sizeof c->token, "%s", token);
        const bool again = c->welcomed;
        if (!c->welcomed)
            welcomed_count++;
        c->welcomed = true;
        if (p && p->game && c->seat == 1 && !c->joined) { /* created before it connected */
            c->rejoining = again;
            send_fmt(c, "{\"t\":\"join\",\"game\":%lld,\"seat\":1}", (long long)p->game);
        } else if (p && p->game) /* a reconnect: open the game again from the last version seen */
            send_fmt(c, "{\"t\":\"open\",\"game\":%lld,\"v\":%lld}", (long long)p->game,
                     (long long)c->seen_v);
        else if (p && c->role == ROLE_PLAYER && c->seat == 0 && moving_allowed())
            create_game(p);
    } else if (strcmp(t, "joined") == 0) {
        c->joined = true;
        c->rejoining = false;
    } else if (strcmp(t, "created") == 0 && p) {
        p->game = (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(m, "game"));
        p->player[1]->joined = false;
        if (p->player[1]->welcomed) /* else it joins once welcomed */
            send_fmt(p->player[1], "{\"t\":\"join\",\"game\":%lld,\"seat\":1}", (long long)p->game);
        if (p->spectator && p->spectator->welcomed)
            send_fmt(p->spectator, "{\"t\":\"open\",\"game\":%lld}", (long long)p->game);
    } else if (strcmp(t, "snapshot") == 0 || strcmp(t, "update") == 0) {
        on_state(c, m, text, len);
    } else if (strcmp(t, "ack") == 0) {
        on_ack(c, m);
    } else if (strcmp(t, "error") == 0) {
        errors++;
        const char *code = cJSON_GetStringValue(cJSON_GetObjectItem(m, "code"));
        const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(m, "re"));
        if (code && strcmp(code, "game-over") == 0 && stopping)
            error_codes_after_stop++; /* a move that crossed the final resignation */
        else if (code && strcmp(code, "not-open") == 0 && re && strcmp(re, "join") == 0 &&
                 c->rejoining && p && p->game) {
            /* The server was killed after it took the first join and before the reply left:
             * the seat is this client's, so open the game (a seat not its own would stall
             * the game, and the run would fail on its unfinished games). */
            error_codes_rejoin++;
            c->rejoining = false;
            c->joined = true;
            send_fmt(c, "{\"t\":\"open\",\"game\":%lld}", (long long)p->game);
        } else if (code && strcmp(code, "stale") == 0)
            error_codes_stale++;
        else if (code && strcmp(code, "rate-limited") == 0)
            error_codes_rate++;
        else {
            error_codes_other++;
            if (error_codes_other <= 5)
                fprintf(stderr, "loadgen: client %d: %.*s\n", c->index, (int)len, text);
        }
        if (code && strcmp(code, "stale") == 0 && p && p->game) /* resynchronize */
            send_fmt(c, "{\"t\":\"open\",\"game\":%lld}", (long long)p->game);
    }
    cJSON_Delete(m);
}

/* ---- connections ---- */

/* libwebsockets' own keepalive off: it re-arms a timer in one sorted list per frame received,
 * a walk over every client each time. The server pings quiet clients; lws answers them. */
static const lws_retry_bo_t no_keepalive = {.secs_since_valid_ping = 0,
                                            .secs_since_valid_hangup = 0};

/* A connection attempt that ended without a connection: try again (unless stopping). Counted
 * once per attempt, whichever way lws reports it: an error callback, a NULL from the connect
 * call, or only the wsi's destruction (an attempt cut off by a kill -9 of the server mid-way
 * may end so); an attempt lost uncounted would keep its client away for good, and enough of
 * them would stop every reconnection (at most 128 attempts at once). */
static void attempt_failed(client *c)
{
    if (c->connecting) {
        c->connecting = false;
        connecting--;
    }
    connect_failures++;
    c->wsi = NULL;
    c->want_connect = !stopping;
}

static void start_connect(client *c)
{
    struct lws_client_connect_info info;
    memset(&info, 0, sizeof info);
    info.context = context;
    info.address = opt.host;
    info.port = opt.port;
    info.path = "/ws";
    info.host = opt.host;
    info.protocol = NULL;
    info.userdata = c;
    info.pwsi = &c->wsi;
    info.retry_and_idle_policy = &no_keepalive;
    c->want_connect = false;
    c->connecting = true;
    connecting++;
    if (!lws_client_connect_via_info(&info) && c->connecting) /* no error callback came */
        attempt_failed(c);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    client *c = user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (c->connecting) {
            c->connecting = false;
            connecting--;
        }
        c->wsi = wsi;
        c->open = true;
        connected_now++;
        if (connected_now > connected_max)
            connected_max = connected_now;
        hello(c);
        break;
    /* Either ends the attempt under way, never a newer one (c->wsi is the newest). */
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (c && (c->wsi == wsi || !c->wsi))
            attempt_failed(c);
        break;
    case LWS_CALLBACK_WSI_DESTROY:
        if (c && c->connecting && !c->open && c->wsi == wsi)
            attempt_failed(c);
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (c->rx_len + len + 1 > c->rx_cap) {
            c->rx_cap = (c->rx_len + len + 1) * 2;
            c->rx = realloc(c->rx, c->rx_cap);
        }
        memcpy(c->rx + c->rx_len, in, len);
        c->rx_len += len;
        if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
            on_message(c, c->rx, c->rx_len);
            c->rx_len = 0;
        }
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        write_one(c);
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (c) {
            closes++;
            connected_now--;
            c->open = false;
            c->wsi = NULL;
            for (; c->out_count; c->out_count--, c->out_head = (c->out_head + 1) % OUTQ)
                free(c->outq[c->out_head]);
            if (c->role == ROLE_STALLED) { /* dropped by the server, as it should be */
                stalled_closed += c->stalled;
                break;
            }
            if (!stopping) {
                c->want_connect = true;
                reconnects++;
            }
        }
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    {"ramparts-load", callback, 0, 8192, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- the pace ---- */

static void pace(double now)
{
    if (num_clients == 0) /* --games 0 --idle 0: no client, no move */
        return;
    if (opt.rate <= 0) {
        while (ready_count) {
            client *c = ready[ready_head];
            ready_head = (ready_head + 1) % num_clients;
            ready_count--;
            send_move(c);
        }
        return;
    }
    tokens += (now - tokens_at) * opt.rate;
    tokens_at = now;
    if (tokens > opt.rate * 0.05 + 1)
        tokens = opt.rate * 0.05 + 1; /* at most 50 ms of burst */
    while (ready_count && tokens >= 1 && moving_allowed()) {
        client *c = ready[ready_head];
        ready_head = (ready_head + 1) % num_clients;
        ready_count--;
        tokens -= 1;
        send_move(c);
    }
}

/* How many clients wait to (re)connect, recounted at most every 100 ms: scanning thousands
 * of clients at every turn of the loop would cost more than the load it makes. */
static int want_connect_count(void)
{
    static double counted_at;
    static int count = -1;
    const double now = now_s();
    if (now - counted_at < 0.1)
        return count;
    counted_at = now;
    count = 0;
    for (int i = 0; i < num_clients; i++)
        count += clients[i].want_connect;
    return count;
}

/* Open connections at the ramp rate, with few handshakes in flight at once. */
static void ramp(double now)
{
    static double credit, credit_at;
    if (credit_at == 0)
        credit_at = now;
    credit += (now - credit_at) * opt.ramp_per_s;
    credit_at = now;
    if (credit > 200)
        credit = 200;
    static int cursor; /* where the last scan stopped: each client is looked at once a round */
    if (want_connect_count() == 0)
        return;
    for (int n = 0; n < num_clients && credit >= 1 && connecting < 128; n++) {
        const int i = cursor;
        cursor = (cursor + 1) % num_clients;
        if (!clients[i].want_connect)
            continue;
        credit -= 1;
        start_connect(&clients[i]);
    }
}

/* Each stalled client watches the lobby and up to stalled_watch games, then stops reading:
 * libwebsockets leaves its socket unread, the kernel's buffers fill, and the server's queue
 * for it grows until the server drops it. */
static void stall_clients(void)
{
    int next_pair = 0;
    for (int i = 0; i < num_clients; i++) {
        client *c = &clients[i];
        if (c->role != ROLE_STALLED || !c->open || c->stalled)
            continue;
        send_fmt(c, "{\"t\":\"lobby\",\"watch\":true}");
        for (int k = 0; k < opt.stalled_watch && num_pairs > 0; k++) {
            const pair *p = &pairs[next_pair++ % num_pairs];
            if (p->game)
                send_fmt(c, "{\"t\":\"open\",\"game\":%lld}", (long long)p->game);
        }
        c->stalled = true;
        lws_rx_flow_control(c->wsi, 0);
    }
}

static bool everyone_ready(void)
{
    if (welcomed_count < num_clients)
        return false;
    for (int i = 0; i < num_pairs; i++)
        if (!pairs[i].live && !pairs[i].over)
            return false;
    return true;
}

static int live_games(void)
{
    int n = 0;
    for (int i = 0; i < num_pairs; i++)
        n += pairs[i].live && !pairs[i].over;
    return n;
}

static void resign_all(void)
{
    for (int i = 0; i < num_pairs; i++) {
        pair *p = &pairs[i];
        if (p->game && p->live && !p->over && !p->resigning && p->player[0]->open) {
            p->resigning = true;
            send_fmt(p->player[0], "{\"t\":\"resign\",\"game\":%lld}", (long long)p->game);
        }
    }
}

/* Every game over, and seen to end by each of its players and its spectator (so each has
 * every frame of it). */
static bool all_over(void)
{
    for (int i = 0; i < num_pairs; i++) {
        const pair *p = &pairs[i];
        if (!p->game || !p->live) /* never started: its partner never came */
            continue;
        if (!p->over || p->player[0]->saw_over != p->game || p->player[1]->saw_over != p->game ||
            (p->spectator && p->spectator->saw_over != p->game))
            return false;
    }
    return true;
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double q)
{
    if (num_latencies == 0)
        return -1;
    const long i = (long)ceil(q * (double)num_latencies) - 1;
    return latencies[i < 0 ? 0 : i] * 1000;
}

static void summary(double play_seconds)
{
    qsort(latencies, (size_t)num_latencies, sizeof *latencies, compare_doubles);
    printf("{\"clients\":%d,\"idle\":%d,\"games\":%d,\"sockets_max\":%d,\"games_started\":%ld,"
           "\"games_finished\":%ld,\"moves_sent\":%ld,\"acks\":%ld,\"dup_acks\":%ld,"
           "\"updates\":%ld,\"errors\":%ld,\"errors_stale\":%ld,\"errors_rate\":%ld,"
           "\"errors_other\":%ld,\"errors_after_stop\":%ld,\"errors_rejoin\":%ld,"
           "\"reconnects\":%ld,\"connect_failures\":%ld,"
           "\"stalled\":%d,\"stalled_closed\":%ld,\"play_seconds\":%.3f,\"moves_per_s\":%.1f,"
           "\"latency_samples\":%ld,"
           "\"latency_p50_ms\":%.3f,\"latency_p99_ms\":%.3f,\"latency_max_ms\":%.3f}\n",
           num_clients, opt.idle, opt.games, connected_max, games_started, games_finished,
           moves_sent, acks, dup_acks, updates, errors, error_codes_stale, error_codes_rate,
           error_codes_other, error_codes_after_stop, error_codes_rejoin, reconnects,
           connect_failures, opt.stalled, stalled_closed, play_seconds,
           play_seconds > 0 ? (double)acks / play_seconds : 0, num_latencies, percentile(0.5),
           percentile(0.99), percentile(1.0));
    fflush(stdout);
}

/* What each game still going waits for, for the failure's message. */
static void report_stuck_games(void)
{
    fprintf(stderr, "loadgen: %d connection attempts under way, %d clients connected\n", connecting,
            connected_now);
    for (int i = 0; i < num_pairs; i++) {
        const pair *p = &pairs[i];
        if (p->over)
            continue;
        fprintf(stderr, "loadgen: pair %d: game %lld %s, move in flight at ply %lld\n", i,
                (long long)p->game, p->live ? "live" : "not started", (long long)p->sent_ply);
        for (int s = 0; s < 2; s++) {
            const client *c = p->player[s];
            fprintf(stderr,
                    "loadgen:   seat %d: %s%s%s%s, queued %d, last version %lld, move for ply "
                    "%lld\n",
                    s,
                    c->open         ? "open"
                    : c->connecting ? "connecting"
                                    : "closed",
                    c->want_connect ? ", to reconnect" : "", c->welcomed ? ", welcomed" : "",
                    c->joined ? ", joined" : "", c->queued_to_move, (long long)c->seen_v,
                    (long long)c->move_ply);
        }
    }
}

/* The run's time is up: the duration is over and --min-finished games have ended, or they
 * have not --finish-timeout seconds later (a failure: the run exits 1). */
static bool time_is_up(double now, double stop_at)
{
    if (now < stop_at)
        return false;
    if (games_finished >= opt.min_finished)
        return true;
    if (now < stop_at + opt.finish_timeout)
        return false;
    fprintf(stderr, "loadgen: only %ld of %ld games ended %.0f s after the duration\n",
            games_finished, opt.min_finished, opt.finish_timeout);
    report_stuck_games();
    finished_too_few = true;
    return true;
}

/* The loop waits for the next event: a timer wakes it often enough to keep the pace and to
 * notice the end or a signal (libuv retries an interrupted wait). Holding after the run,
 * only pings need answers: it wakes rarely then. */
#define WAKE_PLAYING_MS 1
#define WAKE_HOLDING_MS 100
static uv_loop_t loop;
static uv_timer_t wake_timer;

static void wake(uv_timer_t *timer)
{
    (void)timer; /* waking the loop is all it does */
}

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: loadgen [--host H] [--port P] [--idle N] [--games N] [--spectate]\n"
            "               [--rate MOVES/S] [--duration S] [--max-moves N] [--ramp CONN/S]\n"
            "               [--acklog FILE] [--frames FILE] [--hold] [--seed N]\n"
            "               [--ready-timeout S] [--stalled N] [--stalled-watch GAMES]\n"
            "               [--min-finished N] [--finish-timeout S]\n"
            "Opens N idle clients and 2 per game (plus a spectator each with --spectate), plays\n"
            "random legal moves at RATE moves/s in total (0: as fast as updates come) for S\n"
            "seconds once every game has started (or after --ready-timeout, 300 s, with the games\n"
            "that have), resigns the games still live, and prints a\n"
            "JSON summary. --hold: print READY when everyone is connected and playing, and\n"
            "keep every client open after the run until SIGTERM or SIGINT. --stalled: N more\n"
            "clients that, once play starts, watch the lobby and GAMES games each (default 40)\n"
            "and never read again; the summary counts those the server closed.\n"
            "--min-finished: play on past the duration until N games have ended (a count, not a\n"
            "pace, whatever the machine's speed), for at most --finish-timeout S more (600);\n"
            "exit 1 if fewer ended by then.\n");
}

static int parse_options(int argc, char **argv)
{
    static const struct option longs[] = {
        {"host", 1, 0, 'h'},           {"port", 1, 0, 'p'},
        {"idle", 1, 0, 'i'},           {"games", 1, 0, 'g'},
        {"spectate", 0, 0, 's'},       {"rate", 1, 0, 'r'},
        {"duration", 1, 0, 'd'},       {"max-moves", 1, 0, 'm'},
        {"ramp", 1, 0, 'R'},           {"acklog", 1, 0, 'a'},
        {"frames", 1, 0, 'f'},         {"hold", 0, 0, 'H'},
        {"seed", 1, 0, 'S'},           {"ready-timeout", 1, 0, 'T'},
        {"help", 0, 0, '?'},           {"stalled", 1, 0, 'x'},
        {"stalled-watch", 1, 0, 'w'},  {"min-finished", 1, 0, 'n'},
        {"finish-timeout", 1, 0, 'F'}, {0, 0, 0, 0}};
    for (int ch; (ch = getopt_long(argc, argv, "", longs, NULL)) != -1;) {
        switch (ch) {
        case 'h':
            opt.host = optarg;
            break;
        case 'p':
            opt.port = atoi(optarg);
            break;
        case 'i':
            opt.idle = atoi(optarg);
            break;
        case 'g':
            opt.games = atoi(optarg);
            break;
        case 's':
            opt.spectate = 1;
            break;
        case 'r':
            opt.rate = atof(optarg);
            break;
        case 'd':
            opt.duration = atof(optarg);
            break;
        case 'm':
            opt.max_moves = atol(optarg);
            break;
        case 'R':
            opt.ramp_per_s = atof(optarg);
            break;
        case 'a':
            opt.acklog_path = optarg;
            break;
        case 'f':
            opt.frames_path = optarg;
            break;
        case 'H':
            opt.hold = true;
            break;
        case 'S':
            opt.seed = (unsigned)atol(optarg);
            break;
        case 'T':
            opt.ready_timeout = atof(optarg);
            break;
        case 'x':
            opt.stalled = atoi(optarg);
            break;
        case 'w':
            opt.stalled_watch = atoi(optarg);
            break;
        case 'n':
            opt.min_finished = atol(optarg);
            break;
        case 'F':
            opt.finish_timeout = atof(optarg);
            break;
        case '?':
            if (optopt == 0 && strcmp(argv[optind - 1], "--help") == 0) {
                usage(stdout);
                exit(0);
            }
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc || opt.idle < 0 || opt.games < 0 || opt.stalled < 0 ||
        opt.stalled_watch < 0 || opt.port <= 0 || opt.duration < 0 || opt.min_finished < 0 ||
        opt.finish_timeout < 0) {
        usage(stderr);
        return 2;
    }
    return 0;
}

static void make_clients(void)
{
    num_pairs = opt.games;
    num_clients = opt.idle + opt.games * (2 + opt.spectate) + opt.stalled;
    clients = calloc((size_t)num_clients + 1, sizeof *clients);
    pairs = calloc((size_t)num_pairs + 1, sizeof *pairs);
    ready = calloc((size_t)num_clients + 1, sizeof(client *)); /* a queue of pointers */
    latencies = malloc(MAX_LATENCIES * sizeof *latencies);
    int k = 0;
    for (int i = 0; i < num_pairs; i++) {
        pair *p = &pairs[i];
        p->sent_ply = -1;
        for (int s = 0; s < 2 + opt.spectate; s++) {
            client *c = &clients[k++];
            c->role = s < 2 ? ROLE_PLAYER : ROLE_SPECTATOR;
            c->seat = s < 2 ? s : -2;
            c->pair = p;
            if (s < 2)
                p->player[s] = c;
            else
                p->spectator = c;
        }
    }
    for (int i = 0; i < opt.idle; i++)
        clients[k++].role = ROLE_IDLE;
    for (int i = 0; i < opt.stalled; i++)
        clients[k++].role = ROLE_STALLED;
    for (int i = 0; i < num_clients; i++) {
        clients[i].index = i;
        clients[i].want_connect = true;
    }
}

int main(int argc, char **argv)
{
    const int bad = parse_options(argc, argv);
    if (bad)
        return bad;
    rng_state = opt.seed;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    lws_set_log_level(LLL_ERR, NULL);
    make_clients();
    if (opt.acklog_path && !(acklog = fopen(opt.acklog_path, "w"))) {
        fprintf(stderr, "loadgen: %s: %s\n", opt.acklog_path, strerror(errno));
        return 1;
    }
    if (opt.frames_path && !(frames = fopen(opt.frames_path, "w"))) {
        fprintf(stderr, "loadgen: %s: %s\n", opt.frames_path, strerror(errno));
        return 1;
    }
    if (uv_loop_init(&loop) < 0) {
        fprintf(stderr, "loadgen: cannot start libuv\n");
        return 1;
    }
    void *foreign_loops[1] = {&loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.fd_limit_per_thread = (unsigned)num_clients + 64;
    info.options = LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = foreign_loops;
    context = lws_create_context(&info);
    if (!context) {
        fprintf(stderr, "loadgen: cannot create the libwebsockets context on libuv (is "
                        "libwebsockets-evlib-uv installed?)\n");
        return 1;
    }
    started = now_s();
    uv_timer_init(&loop, &wake_timer);
    uv_timer_start(&wake_timer, wake, WAKE_PLAYING_MS, WAKE_PLAYING_MS);
    double stop_at = 0, end_wait = 0;
    bool stalled_done = false;
    while (!finished && !interrupted) {
        uv_run(&loop, UV_RUN_ONCE);
        const double now = now_s();
        ramp(now);
        const bool late = now - started > opt.ready_timeout;
        if (late && play_started == 0)
            fprintf(stderr,
                    "loadgen: only %d of %d clients ready after %.0f s: playing with "
                    "those\n",
                    welcomed_count, num_clients, opt.ready_timeout);
        if (play_started == 0 && (everyone_ready() || late)) {
            play_started = tokens_at = now;
            stop_at = now + opt.duration;
            if (opt.hold && !ready_printed) {
                printf("READY %d sockets, %d live games\n", connected_now, live_games());
                fflush(stdout);
                ready_printed = true;
            }
        }
        if (play_started > 0 && !stalled_done) {
            stall_clients();
            stalled_done = true;
        }
        if (play_started > 0)
            pace(now);
        if (play_started > 0 && !stopping &&
            (time_is_up(now, stop_at) || (opt.max_moves && moves_sent >= opt.max_moves))) {
            stopping = true;
            end_wait = now + 60;
            resign_all();
        }
        if (stopping && (all_over() || now > end_wait))
            finished = true;
    }
    if (play_started == 0)
        fprintf(stderr, "loadgen: interrupted before every client was ready\n");
    summary(stop_at > 0 ? (stop_at < now_s() ? stop_at : now_s()) - play_started : 0);
    if (acklog)
        fclose(acklog);
    if (frames)
        fclose(frames);
    acklog = frames = NULL;
    uv_timer_start(&wake_timer, wake, WAKE_HOLDING_MS, WAKE_HOLDING_MS);
    while (opt.hold && !interrupted) /* keep every socket open (and answering pings) */
        uv_run(&loop, UV_RUN_ONCE);
    stopping = true;
    lws_context_destroy(context);
    uv_close((uv_handle_t *)&wake_timer, NULL);
    for (int i = 0; i < 1000 && uv_run(&loop, UV_RUN_NOWAIT) != 0; i++)
        ; /* let libuv finish closing libwebsockets' handles */
    uv_loop_close(&loop);
    return finished && !finished_too_few ? 0 : 1;
}
