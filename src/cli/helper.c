/* helper.c — the heavy parts of the tool live in programs of their own, so that `ramparts`
 * itself links neither libwebsockets, SQLite, libuv, OpenSSL nor Open MPI and starts light:
 * `ramparts serve` runs ramparts-serve and a `ramparts` started by mpirun runs ramparts-mpi,
 * each replacing this process (same pid, arguments and environment). They are looked for
 * where `make install` puts them (RP_LIBEXEC_FROM_BIN, relative to this binary's folder) and
 * beside this binary (the build tree). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef RP_LIBEXEC_FROM_BIN
#define RP_LIBEXEC_FROM_BIN "../libexec/ramparts"
#endif

/* The folder of the running executable into dir ("" when it cannot be found). */
static void own_folder(char *dir, size_t size)
{
    dir[0] = '\0';
    if (size < 2)
        return;
    const ssize_t n = readlink("/proc/self/exe", dir, size - 1);
    if (n <= 0 || (size_t)n >= size - 1) {
        dir[0] = '\0';
        return;
    }
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash) {
        dir[0] = '\0';
        return;
    }
    *slash = '\0';
}

/* The first existing executable among the places a helper may be, into path; false (with
 * both places named in `looked`) when there is none. */
static bool find_helper(const char *helper, char *path, size_t size, char *looked,
                        size_t looked_size)
{
    char dir[PATH_MAX];
    own_folder(dir, sizeof dir);
    if (!dir[0]) {
        snprintf(looked, looked_size, "(the running program's folder is unknown)");
        return false;
    }
    const char *const places[] = {RP_LIBEXEC_FROM_BIN, "."};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        const int n = snprintf(path, size, "%s/%s/%s", dir, places[i], helper);
        if (n > 0 && (size_t)n < size && access(path, X_OK) == 0)
            return true;
    }
    snprintf(looked, looked_size, "%s/%s and %s", dir, RP_LIBEXEC_FROM_BIN, dir);
    return false;
}

int rp_cli_exec_helper(const char *what, const char *helper, int argc, char **argv)
{
    char path[PATH_MAX], looked[3 * PATH_MAX];
    if (!find_helper(helper, path, sizeof path, looked, sizeof looked)) {
        fprintf(stderr,
                "ramparts: %s needs the program %s, which is not installed (looked in %s)\n", what,
                helper, looked);
        return RP_EXIT_FAIL;
    }
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) {
        fprintf(stderr, "ramparts: out of memory\n");
        return RP_EXIT_FAIL;
    }
    args[0] = path;
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    fflush(NULL);
    execv(path, args);
    fprintf(stderr, "ramparts: %s: cannot run %s: %s\n", what, path, strerror(errno));
    free(args);
    return RP_EXIT_FAIL;
}

int rp_cmd_serve_elsewhere(int argc, char **argv)
{
    return rp_cli_exec_helper("serve", "ramparts-serve", argc, argv);
}
