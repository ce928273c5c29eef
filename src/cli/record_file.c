/* record_file.c — the record file of an interactive game: opened before the game starts (so
 * a bad path fails at once), named so that two games never share a name, kept current in
 * memory after every change and written on leaving — also on Ctrl-C, from the signal handler,
 * with only async-signal-safe calls (the text is ready in memory, the file already open). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static int record_fd = -1;
static char record_path[1024];
/* Two snapshots: the handler reads the current one while the other is rebuilt. */
static char *snapshot_text[2];
static size_t snapshot_len[2];
static volatile sig_atomic_t snapshot_current = -1;
static char interrupt_message[1200];
static size_t interrupt_message_len;

/* mkdir -p; false when the folder cannot be made. */
static bool make_folders(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
    return mkdir(dir, 0755) == 0 || errno == EEXIST;
}

/* $RAMPARTS_RECORDS/GAME-DATE-TIME-SEED.rec, with -2, -3... until the name is new. */
static int open_default(const rp_match *m, rp_error *err)
{
    char dir[768];
    const char *env = getenv("RAMPARTS_RECORDS");
    const char *home = getenv("HOME");
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.local/share/ramparts/records", home);
    else
        snprintf(dir, sizeof dir, "ramparts-records");
    if (!make_folders(dir))
        return rp_fail(err, RP_EIO, "cannot make the record folder %s: %s", dir, strerror(errno));
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 1; n < 10000; n++) {
        char suffix[16] = "";
        if (n > 1)
            snprintf(suffix, sizeof suffix, "-%d", n);
        snprintf(record_path, sizeof record_path, "%s/%s-%s-%llu%s.rec", dir, rp_match_game(m)->id,
                 stamp, (unsigned long long)rp_match_config(m)->seed, suffix);
        record_fd = open(record_path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (record_fd >= 0)
            return RP_OK;
        if (errno != EEXIST)
            break;
    }
    return rp_fail(err, RP_EIO, "cannot create a record in %s: %s", dir, strerror(errno));
}

int rp_cli_record_open(const rp_match *m, const char *path, rp_error *err)
{
    if (!path)
        return open_default(m, err);
    snprintf(record_path, sizeof record_path, "%s", path);
    record_fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (record_fd < 0)
        return rp_fail(err, RP_EIO, "cannot write the record %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(record_fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        close(record_fd);
        record_fd = -1;
        return rp_fail(err, RP_EIO, "the record %s is not a regular file", path);
    }
    return RP_OK;
}

const char *rp_cli_record_path(void)
{
    return record_path;
}

static void on_interrupt(int sig)
{
    (void)sig;
    const int i = snapshot_current;
    if (record_fd >= 0 && i >= 0 && ftruncate(record_fd, 0) == 0 &&
        pwrite(record_fd, snapshot_text[i], snapshot_len[i], 0) == (ssize_t)snapshot_len[i])
        (void)!write(STDOUT_FILENO, interrupt_message, interrupt_message_len);
    _exit(130);
}

void rp_cli_record_snapshot(const rp_match *m)
{
    const int next = snapshot_current == 0 ? 1 : 0;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    bool ok = mem != NULL;
    ok = ok && rp_record_write(m, mem) == RP_OK;
    if (mem && fclose(mem) != 0)
        ok = false;
    if (!ok) { /* out of memory: Ctrl-C keeps the last snapshot; say so once */
        static bool warned;
        if (!warned)
            fprintf(stderr, "ramparts: out of memory: Ctrl-C would save the game as of an "
                            "earlier move\n");
        warned = true;
        free(text);
        return;
    }
    free(snapshot_text[next]);
    snapshot_text[next] = text;
    snapshot_len[next] = len;
    if (snapshot_current < 0) {
        int n = snprintf(interrupt_message, sizeof interrupt_message,
                         "\nInterrupted. Game saved: %s\n(continue it with: ramparts play "
                         "--resume %s)\n",
                         record_path, record_path);
        interrupt_message_len = n > 0 ? strlen(interrupt_message) : 0;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
    }
    snapshot_current = next;
}

int rp_cli_record_save(const rp_match *m)
{
    rp_cli_record_snapshot(m);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    const int i = snapshot_current;
    bool ok = record_fd >= 0 && i >= 0 && ftruncate(record_fd, 0) == 0 &&
              pwrite(record_fd, snapshot_text[i], snapshot_len[i], 0) == (ssize_t)snapshot_len[i];
    if (record_fd >= 0 && close(record_fd) != 0)
        ok = false;
    record_fd = -1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    for (int k = 0; k < 2; k++) {
        free(snapshot_text[k]);
        snapshot_text[k] = NULL;
    }
    snapshot_current = -1;
    if (!ok) {
        fprintf(stderr, "ramparts: cannot write the record %s\n", record_path);
        return RP_EXIT_FAIL;
    }
    printf("Game saved: %s\n", record_path);
    return RP_EXIT_OK;
}
