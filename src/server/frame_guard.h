/* frame_guard.h — RFC 6455 5.1, which Debian's libwebsockets 4.1 does not keep: a server closes
 * a connection whose client sends a frame that is not masked. The library reads the mask bit
 * and tells its callbacks nothing, so the server follows each accepted socket's bytes itself
 * (frame_guard.c: recv(2) interposed) and holds back everything from such a frame on. */
#ifndef RS_FRAME_GUARD_H
#define RS_FRAME_GUARD_H

#include <stdbool.h>

/* The calling thread is the service thread: only its reads are followed. */
void rs_frame_guard_attach(void);

/* Follow the socket `fd` from its first byte (net.c: at accept), or no longer (at its close,
 * and for a socket that is not a client's, such as the database's). */
void rs_frame_guard_watch(int fd);
void rs_frame_guard_forget(int fd);

/* True when `fd` is followed into its WebSocket frames (its upgrade request was seen). */
bool rs_frame_guard_in_frames(int fd);

/* A socket that sent an unmasked frame since the last call, or -1: nothing more is read from
 * it (recv answers EAGAIN) until it is forgotten; the caller closes it. */
int rs_frame_guard_next_refused(void);

/* The close frame of a refused socket is on its way (net.c: its close has begun): what the
 * client sends next, its answer to that frame, reads as the end of the connection, which
 * libwebsockets then closes at once rather than after its 5 s wait for an answer it would
 * never see (RFC 6455 7.1.7: nothing more is processed from a failed connection). */
void rs_frame_guard_closing(int fd);

/* Everything freed; no socket followed. */
void rs_frame_guard_free(void);

#endif
