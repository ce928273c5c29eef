/* api.h — HTTP for `ramparts serve`, without sockets (api.c; layer 2 of layers.h, beside
 * loop.h): /healthz, the read-only JSON API under /api/v1/ and the embedded browser client.
 * net.c calls these for every HTTP request. */
#ifndef RS_API_H
#define RS_API_H

#include "server.h"

struct rs_asset;

typedef struct rs_http_reply {
    int status;
    const char *content_type;
    char *body; /* malloc'ed, or static when body_static */
    size_t length;
    bool body_static;
    const char *cache_control;    /* the Cache-Control header's value (static text) */
    const char *content_encoding; /* "gzip", "br", or NULL for the bytes as they are */
    char etag[24];                /* a strong ETag ("\"hex\""), or empty */
    bool vary_encoding;           /* the body depends on Accept-Encoding */
    const struct rs_asset *asset; /* the embedded file served, or NULL */
} rs_http_reply;
void rs_server_http(rs_server *srv, const char *method, const char *path, const char *query,
                    rs_http_reply *reply);
/* The reply to any request while the server is still starting (no rs_server yet: it waits
 * for its database, `why`): 503, and on /healthz the JSON {"ok":false,"starting":why,...}
 * that tells a load balancer to send it nothing yet (docs/server.md, "Starting"). */
void rs_http_starting(const char *path, const char *why, rs_http_reply *reply);
/* Fits a reply to the request's headers (either may be NULL or empty): an embedded file is
 * sent Brotli- or gzip-compressed when accept_encoding allows it, and a reply whose ETag
 * matches if_none_match becomes a bodiless 304. */
void rs_http_reply_negotiate(rs_http_reply *reply, const char *accept_encoding,
                             const char *if_none_match);
void rs_http_reply_free(rs_http_reply *reply);

#endif
