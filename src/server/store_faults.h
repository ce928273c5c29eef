/* store_faults.h — fault injection for the store's tests: writes that fail as on a database
 * file turned read-only while the server runs (store_faults.c says why and how). */
#ifndef RS_STORE_FAULTS_H
#define RS_STORE_FAULTS_H

#include <stdbool.h>
#include <stddef.h>

/* Make SQLite's default VFS one whose writes fail while the file `flag` exists. Test builds
 * only; elsewhere (and on failure) false with a message in err. */
bool rs_store_faults_install(const char *flag, char *err, size_t err_size);

#endif
