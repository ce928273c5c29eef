/* store_sqlite.h — the SQLite backend of the store (store_sqlite.c): its opener, which
 * rs_store_open calls for a file, "sqlite:FILE" or ":memory:", and what it tells of the
 * process's SQLite heap. */
#ifndef RS_STORE_SQLITE_H
#define RS_STORE_SQLITE_H

#include "store_rows.h"

/* How a commit reaches the disk (docs/server.md, "Durability"): FULL, the default, syncs the
 * WAL at every commit, so an acknowledged move survives a power cut as it does on
 * PostgreSQL; NORMAL syncs only at checkpoints: it survives the process being killed, but a
 * power cut may take the last commits back. */
typedef enum rs_store_sync { RS_SYNC_FULL, RS_SYNC_NORMAL } rs_store_sync;

/* A store on the SQLite database at path (created, or migrated to this server's schema);
 * RS_STORE_OK, or an error with the reason in err (a schema newer than this server's is
 * one). */
int rs_store_sqlite_open(rs_store **out, const char *path, rs_store_sync sync, char *err,
                         size_t err_size);
/* Bytes of heap SQLite holds in this process (its page caches, which fill up to their size as
 * the database grows): part of the heap in use, counted apart so that a leak of the server's
 * own stands out from them. 0 on PostgreSQL. */
long long rs_store_sqlite_heap_bytes(void);

#endif
