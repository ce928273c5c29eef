/* store_faults.c — test builds only (RS_STORE_FAULT_INJECTION, set for Debug builds): an
 * SQLite VFS over the default one whose writes, syncs and truncations fail as on a file that
 * became read-only while the file named by RAMPARTS_TEST_STORE_READONLY exists. A running
 * server's database cannot be made read-only by the system (Linux refuses to remount a file
 * system read-only under a writer), so tests/load/test_disk_faults.py plays it this way. */
#include "store_faults.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef RS_STORE_FAULT_INJECTION

#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

typedef struct fault_file {
    sqlite3_file base;  /* its methods forward to `real`, failing writes on demand */
    sqlite3_file *real; /* the default VFS's file, right after this struct */
} fault_file;

static sqlite3_vfs *real_vfs;
static sqlite3_vfs fault_vfs;
static char flag_path[1024];

static sqlite3_file *real(sqlite3_file *f)
{
    return ((fault_file *)f)->real;
}

/* What the unix VFS reports when the file refuses writes (EROFS, EACCES). */
static bool writes_fail(void)
{
    return access(flag_path, F_OK) == 0;
}

static int f_close(sqlite3_file *f)
{
    return real(f)->pMethods->xClose(real(f));
}

static int f_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 at)
{
    return real(f)->pMethods->xRead(real(f), buf, n, at);
}

static int f_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 at)
{
    if (writes_fail())
        return SQLITE_IOERR_WRITE;
    return real(f)->pMethods->xWrite(real(f), buf, n, at);
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    if (writes_fail())
        return SQLITE_IOERR_TRUNCATE;
    return real(f)->pMethods->xTruncate(real(f), size);
}

static int f_sync(sqlite3_file *f, int flags)
{
    if (writes_fail())
        return SQLITE_IOERR_FSYNC;
    return real(f)->pMethods->xSync(real(f), flags);
}

static int f_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return real(f)->pMethods->xFileSize(real(f), size);
}

static int f_lock(sqlite3_file *f, int level)
{
    return real(f)->pMethods->xLock(real(f), level);
}

static int f_unlock(sqlite3_file *f, int level)
{
    return real(f)->pMethods->xUnlock(real(f), level);
}

static int f_reserved(sqlite3_file *f, int *out)
{
    return real(f)->pMethods->xCheckReservedLock(real(f), out);
}

static int f_control(sqlite3_file *f, int op, void *arg)
{
    return real(f)->pMethods->xFileControl(real(f), op, arg);
}

static int f_sector(sqlite3_file *f)
{
    return real(f)->pMethods->xSectorSize(real(f));
}

static int f_device(sqlite3_file *f)
{
    return real(f)->pMethods->xDeviceCharacteristics(real(f));
}

/* The WAL index is shared memory, not the file: it is left to work. */
static int f_shm_map(sqlite3_file *f, int page, int size, int extend, void volatile **out)
{
    return real(f)->pMethods->xShmMap(real(f), page, size, extend, out);
}

static int f_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
    return real(f)->pMethods->xShmLock(real(f), offset, n, flags);
}

static void f_shm_barrier(sqlite3_file *f)
{
    real(f)->pMethods->xShmBarrier(real(f));
}

static int f_shm_unmap(sqlite3_file *f, int delete_flag)
{
    return real(f)->pMethods->xShmUnmap(real(f), delete_flag);
}

/* No memory-mapped reads (version 2 methods): every page goes through f_read. */
static const sqlite3_io_methods fault_io = {
    .iVersion = 2,
    .xClose = f_close,
    .xRead = f_read,
    .xWrite = f_write,
    .xTruncate = f_truncate,
    .xSync = f_sync,
    .xFileSize = f_size,
    .xLock = f_lock,
    .xUnlock = f_unlock,
    .xCheckReservedLock = f_reserved,
    .xFileControl = f_control,
    .xSectorSize = f_sector,
    .xDeviceCharacteristics = f_device,
    .xShmMap = f_shm_map,
    .xShmLock = f_shm_lock,
    .xShmBarrier = f_shm_barrier,
    .xShmUnmap = f_shm_unmap,
};

static int f_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags,
                  int *out_flags)
{
    (void)vfs;
    fault_file *ff = (fault_file *)f;
    ff->real = (sqlite3_file *)(ff + 1);
    const int rc = real_vfs->xOpen(real_vfs, name, ff->real, flags, out_flags);
    /* SQLite closes a file only when its methods are set: not after a failed open. */
    ff->base.pMethods = rc == SQLITE_OK && ff->real->pMethods ? &fault_io : NULL;
    return rc;
}

bool rs_store_faults_install(const char *flag, char *err, size_t err_size)
{
    if (real_vfs)
        return true;
    sqlite3_vfs *base = sqlite3_vfs_find(NULL);
    if (!base || snprintf(flag_path, sizeof flag_path, "%s", flag) >= (int)sizeof flag_path) {
        snprintf(err, err_size, "cannot install the read-only fault VFS");
        return false;
    }
    real_vfs = base;
    fault_vfs = *base;
    fault_vfs.zName = "ramparts-faults";
    fault_vfs.szOsFile = (int)sizeof(fault_file) + base->szOsFile;
    fault_vfs.xOpen = f_open;
    if (sqlite3_vfs_register(&fault_vfs, 1) != SQLITE_OK) {
        real_vfs = NULL;
        snprintf(err, err_size, "cannot register the read-only fault VFS");
        return false;
    }
    return true;
}

#else

bool rs_store_faults_install(const char *flag, char *err, size_t err_size)
{
    (void)flag;
    snprintf(err, err_size, "RAMPARTS_TEST_STORE_READONLY is for test builds (Debug) only");
    return false;
}

#endif
