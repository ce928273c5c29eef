/* frame_guard.c — the unmasked-frame check (frame_guard.h). The server's executable defines
 * recv(2), so libwebsockets' reads of a plain socket come here first; the real recv is the
 * next definition (RTLD_NEXT: the C library's, or a sanitizer's wrapper of it). For each
 * socket net.c accepted, a small reader follows the stream: HTTP request heads (and bodies by
 * Content-Length) up to a head that asks for the WebSocket upgrade, then each frame's header,
 * skipping payloads by their length. A frame whose mask bit is clear stops the stream there:
 * the bytes before it are returned, the frame and what follows are never handed over, and the
 * socket is listed for net.c to close with 1002. With TLS the same reader follows what
 * SSL_read decrypts (also interposed). close(2) is interposed too, so that a socket number
 * that comes back (as another client's, or as the database's) starts afresh. What the reader
 * does not follow (HTTP/2, a chunked body, another Upgrade) ends the following of that
 * socket: it never refuses what it does not understand. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "frame_guard.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include "grow.h"

#define LINE_KEEP                                                                                  \
    48 /* the start of each head line, white space left out: enough for the
                      * names and short values the reader looks at */
#define MASK_KEY_BYTES 4

typedef enum phase {
    PHASE_NONE,    /* not followed */
    PHASE_HEAD,    /* an HTTP request head */
    PHASE_BODY,    /* a request body of Content-Length bytes */
    PHASE_FRAMES,  /* after an upgrade request: WebSocket frames */
    PHASE_REFUSED, /* an unmasked frame came: nothing more is read */
    PHASE_CLOSING, /* and its close frame is on its way: what comes next ends it */
} phase;

typedef struct watch {
    unsigned char phase;
    /* request heads */
    bool head_started, upgrade, chunked;
    unsigned char line_len;
    char line[LINE_KEEP];
    uint64_t content_length;
    /* frames */
    unsigned char header_seen; /* bytes of the current frame's header read so far */
    unsigned char header_len;  /* its length, known from its second byte */
    uint64_t left;             /* bytes of a body or of a frame's payload still to skip */
} watch;

static watch *watches; /* indexed by descriptor */
static size_t num_watches;
static int *refused;
static size_t num_refused, cap_refused;
static _Thread_local bool service_thread;

/* OpenSSL's reader, interposed like recv: with --tls-cert libwebsockets reads the plain text
 * through it (OpenSSL itself reads the socket with read(2), which is not followed). Declared
 * here rather than from <openssl/ssl.h>: the server does not link OpenSSL itself. */
struct ssl_st;
int SSL_read(struct ssl_st *ssl, void *buf, int num);

typedef ssize_t (*recv_fn)(int, void *, size_t, int);
typedef int (*close_fn)(int);
typedef int (*ssl_read_fn)(struct ssl_st *, void *, int);
typedef int (*ssl_get_fd_fn)(const struct ssl_st *);

/* The next definition of `name` after this executable's: the C library's, or a sanitizer's
 * wrapper of it. Looked up once; every thread may ask. */
static void *next_definition(void **cache, const char *name)
{
    void *sym = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (!sym) {
        sym = dlsym(RTLD_NEXT, name);
        __atomic_store_n(cache, sym, __ATOMIC_RELEASE);
    }
    return sym;
}

/* A sanitizer linked into the executable itself (clang's are) defines its wrappers of recv
 * and close there too, weakly, so this file's win and RTLD_NEXT would skip them: when they
 * exist they are called by name, and the sanitizer still sees each call. */
extern ssize_t __interceptor_recv(int fd, void *buf, size_t len, int flags) /* NOLINT */
    __attribute__((weak));
extern int __interceptor_close(int fd) __attribute__((weak)); /* NOLINT */

static recv_fn next_recv(void)
{
    if (__interceptor_recv)
        return __interceptor_recv;
    static void *cache;
    void *sym = next_definition(&cache, "recv");
    recv_fn f;
    memcpy(&f, &sym, sizeof f); /* POSIX: a data pointer that holds a function's address */
    return f;
}

static close_fn next_close(void)
{
    if (__interceptor_close)
        return __interceptor_close;
    static void *cache;
    void *sym = next_definition(&cache, "close");
    close_fn f;
    memcpy(&f, &sym, sizeof f);
    return f;
}

static ssl_read_fn next_ssl_read(void)
{
    static void *cache;
    void *sym = next_definition(&cache, "SSL_read");
    ssl_read_fn f;
    memcpy(&f, &sym, sizeof f);
    return f;
}

/* The socket under a TLS connection, or -1. */
static int ssl_socket(const struct ssl_st *ssl)
{
    static void *cache;
    void *sym = next_definition(&cache, "SSL_get_fd");
    ssl_get_fd_fn f;
    memcpy(&f, &sym, sizeof f);
    return f ? f(ssl) : -1;
}

static watch *watch_of(int fd)
{
    if (!service_thread || fd < 0 || (size_t)fd >= num_watches)
        return NULL;
    watch *w = &watches[fd];
    return w->phase == PHASE_NONE ? NULL : w;
}

/* ---- request heads ---- */

static bool line_starts(const watch *w, const char *prefix)
{
    size_t n = strlen(prefix);
    return w->line_len >= n && memcmp(w->line, prefix, n) == 0;
}

static bool line_has(const watch *w, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= w->line_len; i++)
        if (memcmp(w->line + i, word, n) == 0)
            return true;
    return false;
}

static void start_head(watch *w)
{
    w->phase = PHASE_HEAD;
    w->head_started = w->upgrade = w->chunked = false;
    w->line_len = 0;
    w->content_length = 0;
}

static void start_frames(watch *w)
{
    w->phase = PHASE_FRAMES;
    w->header_seen = 0;
    w->header_len = 0;
    w->left = 0;
}

/* The blank line that ends a head: the frames, the body or the next request follow. */
static void end_head(watch *w)
{
    if (w->upgrade) {
        start_frames(w);
    } else if (w->chunked) {
        w->phase = PHASE_NONE; /* a chunked body: not followed */
    } else if (w->content_length) {
        w->phase = PHASE_BODY;
        w->left = w->content_length;
    } else {
        start_head(w);
    }
}

static void end_line(watch *w)
{
    if (w->line_len == 0) {
        if (w->head_started) /* blank lines before a request line are allowed */
            end_head(w);
        return;
    }
    if (!w->head_started) {
        w->head_started = true;
        if (line_starts(w, "pri*http/2")) /* HTTP/2's preface */
            w->phase = PHASE_NONE;
    } else if (line_starts(w, "upgrade:")) {
        w->upgrade = line_has(w, "websocket");
        if (!w->upgrade)
            w->phase = PHASE_NONE; /* another protocol follows */
    } else if (line_starts(w, "content-length:")) {
        uint64_t n = 0;
        for (size_t i = strlen("content-length:");
             i < w->line_len && isdigit((unsigned char)w->line[i]); i++)
            n = n * 10 + (uint64_t)(w->line[i] - '0');
        w->content_length = n;
    } else if (line_starts(w, "transfer-encoding:")) {
        w->chunked = true;
    }
    w->line_len = 0;
}

static void head_byte(watch *w, unsigned char c)
{
    if (c == '\n') {
        end_line(w);
        return;
    }
    if (c == '\r' || c == ' ' || c == '\t' || w->line_len >= LINE_KEEP)
        return;
    w->line[w->line_len++] = (char)tolower(c);
}

/* ---- frames ---- */

/* One byte of a frame header; false when it is the second byte and its mask bit is clear. */
static bool header_byte(watch *w, unsigned char c)
{
    const unsigned char at = w->header_seen++;
    if (at == 0)
        return true; /* FIN, RSV and the opcode: libwebsockets checks them */
    if (at == 1) {
        if (!(c & 0x80))
            return false;
        const unsigned char len7 = c & 0x7f;
        const unsigned char extended = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
        w->header_len = (unsigned char)(2 + extended + MASK_KEY_BYTES);
        w->left = len7 < 126 ? len7 : 0;
    } else if (at < w->header_len - MASK_KEY_BYTES) {
        w->left = w->left << 8 | c; /* the extended length, most significant byte first */
    }
    if (w->header_seen == w->header_len)
        w->header_seen = 0; /* the payload (w->left bytes), then the next frame */
    return true;
}

/* Follow `n` bytes read from the socket; returns how many of them may be handed over: all,
 * or those before the frame whose mask bit is clear (the socket is then refused). */
static size_t follow(watch *w, const unsigned char *bytes, size_t n)
{
    size_t i = 0, frame_start = 0;
    while (i < n) {
        switch (w->phase) {
        case PHASE_HEAD:
            head_byte(w, bytes[i++]);
            break;
        case PHASE_BODY: {
            const size_t skip = w->left < n - i ? (size_t)w->left : n - i;
            i += skip;
            w->left -= skip;
            if (!w->left)
                start_head(w);
            break;
        }
        case PHASE_FRAMES:
            if (w->header_seen == 0 && w->left > 0) {
                const size_t skip = w->left < n - i ? (size_t)w->left : n - i;
                i += skip;
                w->left -= skip;
                break;
            }
            if (w->header_seen == 0)
                frame_start = i;
            if (!header_byte(w, bytes[i])) {
                w->phase = PHASE_REFUSED;
                return frame_start; /* 0 when the frame began in an earlier read */
            }
            i++;
            break;
        default:
            return n;
        }
    }
    return n;
}

static void note_refused(int fd)
{
    if (RS_GROW(refused, num_refused, cap_refused, 8))
        refused[num_refused++] = fd;
}

/* A refused socket's bytes are read and dropped, not left unread: closing a socket with
 * unread bytes sends a reset, which may discard the close frame before it leaves. */
static ssize_t discard(recv_fn real, int fd)
{
    unsigned char sink[4096];
    while (real(fd, sink, sizeof sink, MSG_DONTWAIT) > 0)
        ;
    errno = EAGAIN; /* libwebsockets finds nothing and waits; net.c closes it meanwhile */
    return -1;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    const recv_fn real = next_recv();
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    watch *w = watch_of(fd);
    if (w && w->phase == PHASE_CLOSING)
        return 0;
    if (w && w->phase == PHASE_REFUSED)
        return discard(real, fd);
    const ssize_t n = real(fd, buf, len, flags);
    if (!w || n <= 0 || (flags & MSG_PEEK))
        return n;
    const size_t keep = follow(w, buf, (size_t)n);
    if (keep == (size_t)n)
        return n;
    note_refused(fd);
    if (keep == 0)
        return discard(real, fd);
    return (ssize_t)keep;
}

/* The same over TLS: what OpenSSL decrypted is followed. A refused connection's records are
 * read and dropped until OpenSSL has no more, whose answer (wanting to read, or the end of
 * the connection) libwebsockets then reads from SSL_get_error as usual. */
static int discard_tls(ssl_read_fn real, struct ssl_st *ssl)
{
    unsigned char sink[4096];
    int n;
    while ((n = real(ssl, sink, (int)sizeof sink)) > 0)
        ;
    return n;
}

int SSL_read(struct ssl_st *ssl, void *buf, int num)
{
    const ssl_read_fn real = next_ssl_read();
    if (!real)
        return -1;
    watch *w = service_thread ? watch_of(ssl_socket(ssl)) : NULL;
    if (w && w->phase == PHASE_CLOSING)
        return 0;
    if (w && w->phase == PHASE_REFUSED)
        return discard_tls(real, ssl);
    const int n = real(ssl, buf, num);
    if (!w || n <= 0)
        return n;
    const size_t keep = follow(w, buf, (size_t)n);
    if (keep == (size_t)n)
        return n;
    note_refused(ssl_socket(ssl));
    return keep ? (int)keep : discard_tls(real, ssl);
}

/* A closed descriptor is no longer followed: its number may come back as another socket
 * (the database's, say) that is not a client's. */
int close(int fd)
{
    if (service_thread && fd >= 0 && (size_t)fd < num_watches)
        watches[fd].phase = PHASE_NONE;
    const close_fn real = next_close();
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    return real(fd);
}

/* ---- the interface ---- */

void rs_frame_guard_attach(void)
{
    service_thread = true;
}

void rs_frame_guard_watch(int fd)
{
    if (fd < 0)
        return;
    if ((size_t)fd >= num_watches) {
        size_t cap = num_watches ? num_watches : 64;
        while (cap <= (size_t)fd)
            cap *= 2;
        watch *grown = realloc(watches, cap * sizeof *grown);
        if (!grown)
            return; /* not followed: as without the check */
        memset(grown + num_watches, 0, (cap - num_watches) * sizeof *grown);
        watches = grown;
        num_watches = cap;
    }
    memset(&watches[fd], 0, sizeof watches[fd]);
    start_head(&watches[fd]);
}

void rs_frame_guard_forget(int fd)
{
    if (fd >= 0 && (size_t)fd < num_watches)
        watches[fd].phase = PHASE_NONE;
}

void rs_frame_guard_closing(int fd)
{
    if (fd >= 0 && (size_t)fd < num_watches && watches[fd].phase == PHASE_REFUSED)
        watches[fd].phase = PHASE_CLOSING;
}

bool rs_frame_guard_in_frames(int fd)
{
    return fd >= 0 && (size_t)fd < num_watches && watches[fd].phase == PHASE_FRAMES;
}

int rs_frame_guard_next_refused(void)
{
    while (num_refused > 0) {
        const int fd = refused[--num_refused];
        if ((size_t)fd < num_watches && watches[fd].phase == PHASE_REFUSED)
            return fd;
    }
    return -1;
}

void rs_frame_guard_free(void)
{
    free(watches);
    watches = NULL;
    num_watches = 0;
    free(refused);
    refused = NULL;
    num_refused = cap_refused = 0;
}
