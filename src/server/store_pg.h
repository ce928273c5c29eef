/* store_pg.h — the PostgreSQL backend of the store (store_pg.c), for servers that share one
 * database (docs/cluster.md): its opener, which rs_store_open calls for a postgres:// or
 * postgresql:// address. */
#ifndef RS_STORE_PG_H
#define RS_STORE_PG_H

#include "store_rows.h"

/* A store on the PostgreSQL database at `address` (its schema set up); RS_STORE_OK, or an
 * error with the reason in err. */
int rs_store_pg_open(rs_store **out, const char *address, char *err, size_t err_size);

#endif
