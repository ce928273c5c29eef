/* assets.h — the browser client, embedded in the binary at build time from the build's
 * web/dist when that directory exists (cmake/embed_web.cmake writes the table), so the server
 * needs no files at run time. Without a built client the table is empty. */
#ifndef RS_ASSETS_H
#define RS_ASSETS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rs_asset {
    const char *path;         /* "/index.html", "/app.js" ... */
    const char *content_type; /* from the file's extension */
    const unsigned char *data;
    size_t size;
    const unsigned char *gzip; /* the same bytes gzipped at build time, or NULL */
    size_t gzip_size;
    const unsigned char *brotli; /* ... and compressed with Brotli, or NULL */
    size_t brotli_size;
    bool immutable; /* its name carries a hash of its content: cacheable for ever */
} rs_asset;

extern const rs_asset rs_web_assets[]; /* ends with a NULL path */

#endif
