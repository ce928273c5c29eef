/* fuzz_server_messages.c — libFuzzer target over the server's message handler: the path from
 * the bytes of a WebSocket message to the replies (rs_server_receive, then rs_server_flush:
 * parse, dispatch, referee, group commit, delivery), with an in-memory store and fake time.
 *
 * An input is a script of lines. A line's first byte picks what happens:
 *   '0'..'3'  the rest of the line is one message from that connection (ids 1..4)
 *   '+'       time passes (the next byte times 250 ms) and the timers run
 *   '-'       the connection named by the next byte disconnects, then comes back
 *   '*'       queued worker jobs (AI moves, password checks) run, at most twice per input
 *   other     the whole line is one message from connection 1
 * Every message the server sends must be one JSON object with a string "t"; anything else
 * (and any sanitizer report or leak) is a finding. */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"
#include "loop.h"

#define FUZZ_CONNS 4
#define FUZZ_MAX_JOB_RUNS 2

typedef struct fuzz_clock {
    int64_t mono_us, wall_ms;
} fuzz_clock;

static int64_t fuzz_mono(void *ctx)
{
    return ((fuzz_clock *)ctx)->mono_us;
}

static int64_t fuzz_wall(void *ctx)
{
    return ((fuzz_clock *)ctx)->wall_ms;
}

/* The server's secrets (seeds, tokens, invitation codes) come from libsodium: here from a
 * generator reset at each input, so an input replays exactly (game seeds decide the deals). */
static uint64_t fuzz_random_state;

static uint32_t fuzz_random(void)
{
    fuzz_random_state = fuzz_random_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(fuzz_random_state >> 32);
}

static void fuzz_random_buf(void *const buf, const size_t size)
{
    unsigned char *out = buf;
    for (size_t i = 0; i < size; i++)
        out[i] = (unsigned char)(fuzz_random() >> 24);
}

static const char *fuzz_random_name(void)
{
    return "fuzz-deterministic";
}

static randombytes_implementation fuzz_randombytes = {
    .implementation_name = fuzz_random_name,
    .random = fuzz_random,
    .buf = fuzz_random_buf,
};

/* Argon2 at the interactive cost takes 64 MiB and, under sanitizers on a busy machine, tens
 * of seconds: libFuzzer would call each register or login a timeout. The target is linked
 * with --wrap for these two (cmake/fuzz_server.cmake), so the server's code around them
 * (jobs, results, replies) is fuzzed with a cheap stand-in; the hash is libsodium's. */
int __wrap_crypto_pwhash_str(char out[crypto_pwhash_STRBYTES], const char *const passwd,
                             unsigned long long passwdlen, unsigned long long opslimit,
                             size_t memlimit);
int __wrap_crypto_pwhash_str_verify(const char *str, const char *const passwd,
                                    unsigned long long passwdlen);

int __wrap_crypto_pwhash_str(char out[crypto_pwhash_STRBYTES], const char *const passwd,
                             unsigned long long passwdlen, unsigned long long opslimit,
                             size_t memlimit)
{
    (void)opslimit;
    (void)memlimit;
    unsigned char digest[16];
    crypto_generichash(digest, sizeof digest, (const unsigned char *)passwd, passwdlen, NULL, 0);
    char hex[33];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    snprintf(out, crypto_pwhash_STRBYTES, "$fuzz$%s", hex);
    return 0;
}

int __wrap_crypto_pwhash_str_verify(const char *str, const char *const passwd,
                                    unsigned long long passwdlen)
{
    char expected[crypto_pwhash_STRBYTES];
    __wrap_crypto_pwhash_str(expected, passwd, passwdlen, 0, 0);
    return strcmp(str, expected) == 0 ? 0 : -1;
}

/* With RS_FUZZ_ECHO set, every message sent is printed as "CONN TEXT" (to write seeds). */
static bool echo;

/* The server's output contract: one JSON object per message, with its type in "t". */
static void fuzz_send(void *ctx, uint64_t conn, const char *text, size_t len)
{
    (void)ctx;
    if (conn == 0 || conn > FUZZ_CONNS)
        abort();
    if (echo)
        printf("%llu %.*s\n", (unsigned long long)conn, (int)len, text);
    cJSON *msg = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsObject(msg) || !cJSON_IsString(cJSON_GetObjectItem(msg, "t"))) {
        fprintf(stderr, "fuzz_server_messages: the server sent a malformed message: %.*s\n",
                (int)len, text);
        abort();
    }
    cJSON_Delete(msg);
}

static void fuzz_close(void *ctx, uint64_t conn, int code, const char *reason)
{
    (void)ctx;
    (void)reason;
    if (conn == 0 || conn > FUZZ_CONNS || code < 1000 || code > 4999)
        abort();
}

static void connect_all(rs_server *srv)
{
    for (uint64_t c = 1; c <= FUZZ_CONNS; c++)
        rs_server_connect(srv, c, "127.0.0.1");
}

static void run_line(rs_server *srv, fuzz_clock *clock, const uint8_t *line, size_t len,
                     int *job_runs)
{
    if (len == 0)
        return;
    const uint8_t op = line[0];
    if (op >= '0' && op <= '3') {
        rs_server_receive(srv, (uint64_t)(op - '0') + 1, (const char *)line + 1, len - 1);
    } else if (op == '+') {
        const int64_t steps = len > 1 ? line[1] : 1;
        clock->mono_us += steps * 250000;
        clock->wall_ms += steps * 250;
        rs_server_tick(srv);
    } else if (op == '-') {
        const uint64_t conn = (len > 1 ? line[1] % FUZZ_CONNS : 0) + 1;
        rs_server_disconnect(srv, conn);
        rs_server_connect(srv, conn, "127.0.0.1");
    } else if (op == '*') {
        if (*job_runs < FUZZ_MAX_JOB_RUNS) {
            (*job_runs)++;
            rs_server_run_jobs_inline(srv);
        }
    } else {
        rs_server_receive(srv, 1, (const char *)line, len);
    }
    rs_server_flush(srv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        rs_log_quiet(true);
        randombytes_set_implementation(&fuzz_randombytes);
        if (sodium_init() < 0) /* now, so its own first draws precede every input's reset */
            abort();
        echo = getenv("RS_FUZZ_ECHO") != NULL;
        ready = true;
    }
    fuzz_random_state = 0x5eed;
    fuzz_clock clock = {.mono_us = 1000000, .wall_ms = 1700000000000};
    rs_server_config cfg;
    rs_server_config_default(&cfg);
    cfg.db_path = ":memory:";
    cfg.ai_threads = 0;
    cfg.review_budget = "iters=20"; /* a review's searches: short, so inputs stay fast */
    rs_time_source time = {fuzz_mono, fuzz_wall, &clock};
    rs_output out = {fuzz_send, fuzz_close, NULL};
    char err[256];
    rs_server *srv = rs_server_new(&cfg, &time, &out, err, sizeof err);
    if (!srv) {
        fprintf(stderr, "fuzz_server_messages: %s\n", err);
        abort();
    }
    connect_all(srv);
    int job_runs = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != '\n')
            continue;
        run_line(srv, &clock, data + start, i - start, &job_runs);
        start = i + 1;
    }
    for (uint64_t c = 1; c <= FUZZ_CONNS; c++)
        rs_server_disconnect(srv, c);
    rs_server_flush(srv);
    rs_server_free(srv);
    return 0;
}
