/* loop.h — the core's entry points (loop.c; layer 2 of layers.h): its start and stop, the
 * connections net.c hands it, and one turn of the service loop. net.c, the tests and the
 * fuzzers drive the core through these and api.h.
 *
 * The order of one service-loop iteration: any number of rs_server_receive / _tick /
 * _drain_inbox / _listen calls, then rs_server_flush, which commits every change of the
 * iteration in one transaction and only then hands the replies and broadcasts to
 * rs_output.send. A message is never sent before the change it reports is committed. */
#ifndef RS_LOOP_H
#define RS_LOOP_H

#include "server.h"

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
/* On several servers on one database (docs/cluster.md): read what the other servers
 * announced and catch up (call each loop turn, before rs_server_flush; the socket of
 * rs_server_listen_fd wakes the loop for it). */
void rs_server_listen(rs_server *srv);
/* Commit, then deliver. Returns 0, or -1 when the commit failed (the changes of the
 * iteration are undone, their games reloaded, and the clients told). */
int rs_server_flush(rs_server *srv);
/* Inline mode (ai_threads 0): run queued jobs on this thread, then drain. Returns how many. */
int rs_server_run_jobs_inline(rs_server *srv);

#endif
