/* outbox.h — where the messages of one loop iteration wait, in order, until its commit:
 * replies, broadcasts and closes addressed by connection id (nothing is sent before the change
 * it tells of is stored; server.h). */
#ifndef RS_OUTBOX_H
#define RS_OUTBOX_H

#include <stddef.h>
#include <stdint.h>

struct cJSON;

typedef struct rs_pending {
    uint64_t conn; /* 0 once that connection closed */
    char *text;    /* NULL for a close, delivered in order after the messages before it */
    int close_code;
} rs_pending;

typedef struct rs_outbox {
    rs_pending *items;
    size_t count, cap;
} rs_outbox;

/* Queue msg (taken over and freed) for conn. */
void rs_outbox_put(rs_outbox *o, uint64_t conn, struct cJSON *msg);
/* The same with the message already printed (copied): one print for many recipients. */
void rs_outbox_put_text(rs_outbox *o, uint64_t conn, const char *text);
/* Close conn with `code` once what is queued before it is delivered. */
void rs_outbox_close(rs_outbox *o, uint64_t conn, int code);
/* Drop every message (the array is kept for the next iteration). */
void rs_outbox_clear(rs_outbox *o);

#endif
