/* store_sqlite.h — the SQLite backend of the store (store_sqlite.c): its opener, which
 * rs_store_open calls for a file, "sqlite:FILE" or ":memory:", and what it tells of the
 * process's SQLite heap. */
#ifndef RS_STORE_SQLITE_H
#define RS_STORE_SQLITE_H

#include "store_rows.h"

/* A store on the SQLite database at path (created and migrated); RS_STORE_OK, or an error
 * with the reason in err. */
int rs_store_sqlite_open(rs_store **out, const char *path, char *err, size_t err_size);
/* Bytes of heap SQLite holds in this process (its page caches, which fill up to their size as
 * the database grows): part of the heap in use, counted apart so that a leak of the server's
 * own stands out from them. 0 on PostgreSQL. */
long long rs_store_sqlite_heap_bytes(void);

#endif
