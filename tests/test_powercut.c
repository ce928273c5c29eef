/* test_powercut.c — simulated power cuts under the SQLite store (issue 47), the way SQLite's
 * own tests check durability: a VFS registered over the default one records what each file
 * held at its last sync, and at a cut (a random write or sync under a load of group commits)
 * fails every later write and puts each file back as it was at its last sync. After each cut
 * every commit the store reported done is in the reopened database, which passes
 * PRAGMA integrity_check. */
#include "support.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"

#define MAX_FILES 8
#define GAMES 12
#define MAX_BATCHES 400
#define QUICK_CUTS 8  /* make test */
#define SOAK_CUTS 300 /* make soak (RAMPARTS_SOAK=1) */

/* ---- the VFS: what each file held at its last sync ---- */

/* A database or WAL file as a power cut would leave it: its bytes at the last sync (absent
 * if it was never synced since it was created). */
typedef struct durable_file {
    char path[512];
    bool exists;
    unsigned char *data;
    sqlite3_int64 size;
} durable_file;

static struct {
    sqlite3_vfs *real;
    durable_file files[MAX_FILES];
    int num_files;
    long ops;    /* writes, truncations and syncs since the cut was armed */
    long cut_at; /* the operation the power fails at (0: never) */
    bool cut;    /* the power is off: every write and sync fails */
} power;

typedef struct shim_file {
    sqlite3_file base;
    durable_file *durable; /* NULL: not kept (temporary files) */
    sqlite3_file *real;    /* the default VFS's file, right after this struct */
} shim_file;

static durable_file *durable_of(const char *path)
{
    for (int i = 0; i < power.num_files; i++)
        if (strcmp(power.files[i].path, path) == 0)
            return &power.files[i];
    assert_true(power.num_files < MAX_FILES);
    durable_file *f = &power.files[power.num_files++];
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    return f; /* absent until synced: the files are created by the test */
}

/* The power fails at the armed operation: that one and every one after it fail. */
static bool power_fails(void)
{
    if (!power.cut && power.cut_at > 0 && ++power.ops >= power.cut_at)
        power.cut = true;
    return power.cut;
}

/* What the file holds now becomes what survives a cut. */
static int remember(shim_file *f)
{
    sqlite3_int64 size = 0;
    int rc = f->real->pMethods->xFileSize(f->real, &size);
    if (rc != SQLITE_OK)
        return rc;
    unsigned char *data = malloc(size > 0 ? (size_t)size : 1);
    assert_non_null(data);
    if (size > 0 && (rc = f->real->pMethods->xRead(f->real, data, (int)size, 0)) != SQLITE_OK) {
        free(data);
        return rc;
    }
    free(f->durable->data);
    f->durable->data = data;
    f->durable->size = size;
    f->durable->exists = true;
    return SQLITE_OK;
}

static int shim_close(sqlite3_file *file)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xClose(f->real);
}

static int shim_read(sqlite3_file *file, void *buf, int amount, sqlite3_int64 offset)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xRead(f->real, buf, amount, offset);
}

static int shim_write(sqlite3_file *file, const void *buf, int amount, sqlite3_int64 offset)
{
    shim_file *f = (shim_file *)file;
    if (f->durable && power_fails())
        return SQLITE_IOERR_WRITE;
    return f->real->pMethods->xWrite(f->real, buf, amount, offset);
}

static int shim_truncate(sqlite3_file *file, sqlite3_int64 size)
{
    shim_file *f = (shim_file *)file;
    if (f->durable && power_fails())
        return SQLITE_IOERR_TRUNCATE;
    return f->real->pMethods->xTruncate(f->real, size);
}

static int shim_sync(sqlite3_file *file, int flags)
{
    shim_file *f = (shim_file *)file;
    if (f->durable && power_fails())
        return SQLITE_IOERR_FSYNC;
    const int rc = f->real->pMethods->xSync(f->real, flags);
    return rc == SQLITE_OK && f->durable ? remember(f) : rc;
}

static int shim_file_size(sqlite3_file *file, sqlite3_int64 *size)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xFileSize(f->real, size);
}

static int shim_lock(sqlite3_file *file, int level)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xLock(f->real, level);
}

static int shim_unlock(sqlite3_file *file, int level)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int shim_check_reserved(sqlite3_file *file, int *out)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int shim_file_control(sqlite3_file *file, int op, void *arg)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int shim_sector_size(sqlite3_file *file)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int shim_device(sqlite3_file *file)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

/* The WAL index (-shm) is shared memory, never durable: passed through. */
static int shim_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **out)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xShmMap(f->real, page, size, extend, out);
}

static int shim_shm_lock(sqlite3_file *file, int offset, int n, int flags)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void shim_shm_barrier(sqlite3_file *file)
{
    shim_file *f = (shim_file *)file;
    f->real->pMethods->xShmBarrier(f->real);
}

static int shim_shm_unmap(sqlite3_file *file, int delete_flag)
{
    shim_file *f = (shim_file *)file;
    return f->real->pMethods->xShmUnmap(f->real, delete_flag);
}

/* Version 2: no memory-mapped reads (the store never turns mmap on). */
static const sqlite3_io_methods SHIM_IO = {
    .iVersion = 2,
    .xClose = shim_close,
    .xRead = shim_read,
    .xWrite = shim_write,
    .xTruncate = shim_truncate,
    .xSync = shim_sync,
    .xFileSize = shim_file_size,
    .xLock = shim_lock,
    .xUnlock = shim_unlock,
    .xCheckReservedLock = shim_check_reserved,
    .xFileControl = shim_file_control,
    .xSectorSize = shim_sector_size,
    .xDeviceCharacteristics = shim_device,
    .xShmMap = shim_shm_map,
    .xShmLock = shim_shm_lock,
    .xShmBarrier = shim_shm_barrier,
    .xShmUnmap = shim_shm_unmap,
};

static int shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags,
                     int *out_flags)
{
    (void)vfs;
    shim_file *f = (shim_file *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    const int rc = power.real->xOpen(power.real, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        f->real->pMethods = NULL; /* nothing to close */
        return rc;
    }
    if (name && (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL)))
        f->durable = durable_of(name);
    f->base.pMethods = &SHIM_IO;
    return SQLITE_OK;
}

static int shim_delete(sqlite3_vfs *vfs, const char *name, int sync_dir)
{
    (void)vfs;
    if (power.cut)
        return SQLITE_IOERR_DELETE;
    for (int i = 0; i < power.num_files; i++)
        if (strcmp(power.files[i].path, name) == 0)
            power.files[i].exists = false;
    return power.real->xDelete(power.real, name, sync_dir);
}

static int shim_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
    (void)vfs;
    return power.real->xAccess(power.real, name, flags, out);
}

static int shim_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out)
{
    (void)vfs;
    return power.real->xFullPathname(power.real, name, size, out);
}

static sqlite3_vfs shim_vfs;

/* Registered as the default VFS, over the platform's. */
static void shim_register(void)
{
    power.real = sqlite3_vfs_find(NULL);
    assert_non_null(power.real);
    shim_vfs = *power.real;
    shim_vfs.zName = "powercut";
    shim_vfs.szOsFile = (int)sizeof(shim_file) + power.real->szOsFile;
    shim_vfs.xOpen = shim_open;
    shim_vfs.xDelete = shim_delete;
    shim_vfs.xAccess = shim_access;
    shim_vfs.xFullPathname = shim_full_pathname;
    shim_vfs.pAppData = NULL;
    assert_int_equal(sqlite3_vfs_register(&shim_vfs, 1), SQLITE_OK);
}

/* The power comes back: each kept file as at its last sync; the WAL index is rebuilt. */
static void restore_after_cut(const char *shm_path)
{
    for (int i = 0; i < power.num_files; i++) {
        durable_file *f = &power.files[i];
        if (!f->exists) {
            unlink(f->path);
        } else {
            const int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            assert_true(fd >= 0);
            assert_true(write(fd, f->data, (size_t)f->size) == (ssize_t)f->size);
            close(fd);
        }
        free(f->data);
    }
    memset(power.files, 0, sizeof power.files);
    power.num_files = 0;
    power.cut = false;
    power.cut_at = 0;
    power.ops = 0;
    unlink(shm_path);
}

/* ---- the load and the check ---- */

typedef struct acked_move {
    int64_t game, ply;
    uint32_t action;
} acked_move;

static rs_game_row live_game(void)
{
    rs_game_row row;
    memset(&row, 0, sizeof row);
    snprintf(row.game, sizeof row.game, "castle-danger");
    snprintf(row.options, sizeof row.options, "players=2");
    row.status = RS_GAME_LIVE;
    row.seats = 2;
    row.seat[0] = (rs_seat_row){RS_SEAT_HUMAN, 1, "", "", -1};
    row.seat[1] = (rs_seat_row){RS_SEAT_HUMAN, 2, "", "", -1};
    return row;
}

/* Group commits of 1 to 8 moves over GAMES games, with checkpoints now and then as the server
 * runs them, until a commit fails (the cut) or MAX_BATCHES; returns the moves acknowledged. */
static size_t play_until_cut(rs_store *st, int64_t *games, acked_move *acked, unsigned *seed)
{
    int64_t next_ply[GAMES] = {0};
    size_t n = 0;
    for (int batch = 0; batch < MAX_BATCHES; batch++) {
        if (rs_store_begin(st) != RS_STORE_OK)
            return n;
        const int moves = 1 + (int)(rand_r(seed) % 8);
        acked_move pending[8];
        for (int m = 0; m < moves; m++) {
            const int g = (int)(rand_r(seed) % GAMES);
            const rs_move_row move = {next_ply[g], (int)(next_ply[g] % 2), (uint32_t)rand_r(seed),
                                      next_ply[g] + 1, batch};
            rs_store_move_add(st, games[g], &move);
            pending[m] = (acked_move){games[g], next_ply[g]++, move.action};
        }
        if (rs_store_commit(st) != RS_STORE_OK)
            return n; /* not acknowledged: the plies are never reused (the run ends) */
        memcpy(acked + n, pending, (size_t)moves * sizeof pending[0]);
        n += (size_t)moves;
        if (batch % 25 == 24 && rs_store_checkpoint(st) == RS_STORE_OK)
            rs_store_checkpoint_tail(st);
    }
    return n;
}

static int integrity(const char *path, char *verdict, size_t size)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL);
    if (rc == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        snprintf(verdict, size, "%s", (const char *)sqlite3_column_text(s, 0));
    else
        snprintf(verdict, size, "cannot check: %s", sqlite3_errmsg(db));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return strcmp(verdict, "ok") == 0 ? 0 : -1;
}

/* How many acknowledged moves the reopened database lacks (or holds with another action). */
static size_t count_lost(rs_store *st, const acked_move *acked, size_t n)
{
    size_t lost = 0;
    for (size_t i = 0; i < n; i++) {
        rs_move_row *moves = NULL;
        size_t count = 0;
        assert_int_equal(rs_store_moves_since(st, acked[i].game, acked[i].ply, &moves, &count),
                         RS_STORE_OK);
        if (count == 0 || moves[0].ply != acked[i].ply || moves[0].action != acked[i].action)
            lost++;
        free(moves);
    }
    return lost;
}

/* One run: a fresh database, the cut armed at a random operation, the load, the cut, the
 * power back, the check. Returns the acknowledged moves lost. */
static size_t one_cut(const char *dir, rs_store_sync sync, unsigned *seed, size_t *acked_total,
                      int *struck)
{
    char path[512], wal[520], shm[520];
    snprintf(path, sizeof path, "%s/server.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", path);
    snprintf(shm, sizeof shm, "%s-shm", path);
    unlink(path);
    unlink(wal);
    unlink(shm);
    rs_store *st;
    char err[256];
    assert_int_equal(rs_store_open_synced(&st, path, sync, err, sizeof err), RS_STORE_OK);
    int64_t games[GAMES];
    assert_int_equal(rs_store_begin(st), RS_STORE_OK);
    for (int g = 0; g < GAMES; g++) {
        rs_game_row row = live_game();
        assert_int_equal(rs_store_game_insert(st, &row), RS_STORE_OK);
        games[g] = row.id;
    }
    assert_int_equal(rs_store_commit(st), RS_STORE_OK);
    power.ops = 0;
    power.cut_at = 1 + (long)(rand_r(seed) % 900);
    acked_move *acked = malloc(MAX_BATCHES * 8 * sizeof *acked);
    assert_non_null(acked);
    const size_t n = play_until_cut(st, games, acked, seed);
    *struck += power.cut; /* the cut came under the load */
    power.cut = true;     /* a run that outlasted its cut point loses power now */
    rs_store_close(st);
    restore_after_cut(shm);
    assert_int_equal(rs_store_open_synced(&st, path, sync, err, sizeof err), RS_STORE_OK);
    const size_t lost = count_lost(st, acked, n);
    rs_store_close(st);
    char verdict[256];
    if (integrity(path, verdict, sizeof verdict) != 0)
        fail_msg("after a cut the database fails PRAGMA integrity_check: %s", verdict);
    free(acked);
    *acked_total += n;
    return lost;
}

static int cuts(void)
{
    const char *soak = getenv("RAMPARTS_SOAK");
    return soak && *soak && strcmp(soak, "0") != 0 ? SOAK_CUTS : QUICK_CUTS;
}

/* synchronous=FULL (the default): no acknowledged move is lost at any cut. */
static void test_full_sync_loses_nothing(void **state)
{
    const char *dir = *state;
    unsigned seed = 47;
    size_t acked = 0, lost = 0;
    int struck = 0;
    const int n = cuts();
    for (int i = 0; i < n; i++)
        lost += one_cut(dir, RS_SYNC_FULL, &seed, &acked, &struck);
    printf("synchronous=FULL: %d cuts (%d under the load), %zu moves acknowledged, %zu lost\n", n,
           struck, acked, lost);
    assert_true(acked > 0);
    assert_true(struck > n / 2);
    assert_int_equal(lost, 0);
}

/* The shim sees a loss where there is one: synchronous=NORMAL (the default before issue 47,
 * `--sync normal`) syncs only at checkpoints, and the same cuts take acknowledged moves back. */
static void test_normal_sync_can_lose(void **state)
{
    const char *dir = *state;
    unsigned seed = 47;
    size_t acked = 0, lost = 0;
    int struck = 0;
    for (int i = 0; i < QUICK_CUTS; i++)
        lost += one_cut(dir, RS_SYNC_NORMAL, &seed, &acked, &struck);
    printf("synchronous=NORMAL: %d cuts, %zu moves acknowledged, %zu lost\n", QUICK_CUTS, acked,
           lost);
    assert_true(lost > 0);
}

static int make_dir(void **state)
{
    static char dir[] = "/tmp/ramparts-powercut-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    *state = dir;
    return 0;
}

static int remove_dir(void **state)
{
    const char *dir = *state;
    const char *names[] = {"server.db", "server.db-wal", "server.db-shm"};
    for (int i = 0; i < 3; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    return rmdir(dir);
}

int main(void)
{
    shim_register();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_sync_loses_nothing),
        cmocka_unit_test(test_normal_sync_can_lose),
    };
    return cmocka_run_group_tests_name("powercut", tests, make_dir, remove_dir);
}
