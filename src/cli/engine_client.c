/* engine_client.c — the other end of `ramparts engine`: a program speaking its text protocol
 * (docs/protocol.md), run as `PATH engine` in its own process group on a socket pair, asked one
 * command at a time. The arena plays an AI spec `NAME/SPEC` through it (another build of
 * Ramparts, say), sending at each decision a position determinized for the seat to act, never
 * the referee's. Every way an engine can fail (a refusal, nonsense, an illegal move, death,
 * silence past the deadline) is an error naming it, the command and the answer; stopping it
 * kills its whole process group and reaps it, so nothing it started outlives the arena. */
#define _GNU_SOURCE /* waitid's WNOWAIT, MSG_NOSIGNAL */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

/* An answer longer than this is refused (the longest, `state`, is under RP_STATE_TEXT). */
#define ANSWER_MAX (RP_STATE_TEXT + 1024)
/* How long a stopped engine may take to leave after `quit` before it is killed. */
#define QUIT_GRACE_MS 2000
/* How much of a command or an answer an error message quotes. */
#define QUOTE 60

struct rp_cli_engine {
    char name[RP_CLI_ENGINE_NAME];
    char path[RP_CLI_ENGINE_PATH];
    pid_t pid; /* also the process group's id; 0 once reaped */
    int fd;    /* our end of the socket pair; -1 once closed */
    int timeout_s;
    char in[ANSWER_MAX]; /* bytes read and not yet taken as lines */
    size_t in_len;
};

const char *rp_cli_engine_name(const rp_cli_engine *e)
{
    return e->name;
}

int rp_cli_engine_start(const char *name, const char *path, int timeout_s, rp_cli_engine **out,
                        rp_error *err)
{
    rp_cli_engine *e = calloc(1, sizeof *e);
    if (!e)
        return rp_fail(err, RP_ENOMEM, "out of memory for engine '%s'", name);
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->path, sizeof e->path, "%s", path);
    e->timeout_s = timeout_s;
    e->fd = -1;
    int pair[2];
    /* close-on-exec: an engine started later by another thread must not hold this one's end,
     * or closing ours would never give it end-of-file */
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
        free(e);
        return rp_fail(err, RP_EIO, "engine '%s': socketpair: %s", name, strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP); /* its own group, killed whole */
    posix_spawnattr_setpgroup(&attr, 0);
    char *argv[] = {e->path, "engine", NULL};
    const int rc = posix_spawn(&e->pid, e->path, &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(pair[1]);
    if (rc != 0) {
        close(pair[0]);
        free(e);
        return rp_fail(err, RP_EIO, "engine '%s': cannot run '%.100s engine': %s", name, path,
                       strerror(rc));
    }
    e->fd = pair[0];
    *out = e;
    return RP_OK;
}

/* ---- stopping ---- */

/* True once the engine has exited (not reaped: its process group's id stays ours). */
static bool engine_exited(const rp_cli_engine *e, siginfo_t *info)
{
    memset(info, 0, sizeof *info);
    return waitid(P_PID, (id_t)e->pid, info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info->si_pid == e->pid;
}

/* Kill what is left of the engine's process group, then reap the engine. The group is killed
 * before the reaping, while the unreaped engine still holds its id, so the signal can never
 * reach a stranger that took the id since. */
static void kill_and_reap(rp_cli_engine *e)
{
    if (e->pid <= 0)
        return;
    kill(-e->pid, SIGKILL);
    while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    e->pid = 0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

void rp_cli_engine_stop(rp_cli_engine *e, bool graceful)
{
    if (!e)
        return;
    if (graceful && e->fd >= 0 && e->pid > 0) {
        static const char quit[] = "quit\n";
        (void)!send(e->fd, quit, sizeof quit - 1, MSG_NOSIGNAL);
        shutdown(e->fd, SHUT_WR); /* end of file on its input, for an engine deaf to quit */
        siginfo_t info;
        for (long waited = 0; waited < QUIT_GRACE_MS && !engine_exited(e, &info); waited += 10)
            sleep_ms(10);
    }
    kill_and_reap(e);
    if (e->fd >= 0)
        close(e->fd);
    free(e);
}

/* ---- asking ---- */

/* What became of an engine that stopped answering: "exited with status 3", "killed by signal
 * 9", or "still running". */
static void describe_end(const rp_cli_engine *e, char *buf, size_t size)
{
    siginfo_t info;
    /* it has closed its output, so it is most likely leaving: give it time to (a loaded
     * machine may be slow to), but not for ever */
    for (int i = 0; i < 500 && !engine_exited(e, &info); i++)
        sleep_ms(10);
    if (!engine_exited(e, &info))
        snprintf(buf, size, "still running");
    else if (info.si_code == CLD_EXITED)
        snprintf(buf, size, "exited with status %d", info.si_status);
    else
        snprintf(buf, size, "killed by signal %d", info.si_status);
}

static long long now_ms(void)
{
    return (long long)(rp_cli_now_ns() / 1000000u);
}

/* The next line the engine wrote (without its newline) into line, waiting until deadline_ms. */
static int read_line(rp_cli_engine *e, const char *command, long long deadline_ms, char *line,
                     size_t size, rp_error *err)
{
    for (;;) {
        char *nl = memchr(e->in, '\n', e->in_len);
        if (nl) {
            const size_t len = (size_t)(nl - e->in);
            if (len >= size)
                return rp_fail(err, RP_EPARSE, "engine '%s': an answer to '%.*s' is too long",
                               e->name, QUOTE, command);
            memcpy(line, e->in, len);
            line[len] = '\0';
            if (len && line[len - 1] == '\r')
                line[len - 1] = '\0';
            e->in_len -= len + 1;
            memmove(e->in, nl + 1, e->in_len);
            return RP_OK;
        }
        if (e->in_len == sizeof e->in)
            return rp_fail(err, RP_EPARSE, "engine '%s': an answer to '%.*s' is too long", e->name,
                           QUOTE, command);
        const long long left = deadline_ms - now_ms();
        struct pollfd p = {.fd = e->fd, .events = POLLIN};
        const int ready = left > 0 ? poll(&p, 1, left > 60000 ? 60000 : (int)left) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0 && left > 60000)
            continue;
        if (ready == 0)
            return rp_fail(err, RP_EIO,
                           "engine '%s' did not answer '%.*s' within %d s (--engine-timeout)",
                           e->name, QUOTE, command, e->timeout_s);
        const ssize_t n = read(e->fd, e->in + e->in_len, sizeof e->in - e->in_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            char end[64];
            describe_end(e, end, sizeof end);
            return rp_fail(err, RP_EIO,
                           "engine '%s' closed its output (%s) before answering '%.*s'", e->name,
                           end, QUOTE, command);
        }
        e->in_len += (size_t)n;
    }
}

static int send_all(rp_cli_engine *e, const char *text, size_t len, const char *command,
                    rp_error *err)
{
    while (len > 0) {
        const ssize_t n = send(e->fd, text, len, MSG_NOSIGNAL); /* a dead engine: EPIPE */
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            char end[64];
            describe_end(e, end, sizeof end);
            return rp_fail(err, RP_EIO, "engine '%s' stopped reading (%s) at '%.*s'", e->name, end,
                           QUOTE, command);
        }
        text += n;
        len -= (size_t)n;
    }
    return RP_OK;
}

/* The status line of an answer: "=" or "?", then an optional id, then a space or nothing. */
static const char *answer_body(const char *line, char *kind)
{
    *kind = line[0];
    if (*kind != '=' && *kind != '?')
        return NULL;
    const char *p = line + 1;
    if (*p && *p != ' ')
        return NULL; /* we send no ids: nothing may follow the = but a space */
    return *p ? p + 1 : p;
}

int rp_cli_engine_ask(rp_cli_engine *e, const char *command, char *answer, size_t size,
                      rp_error *err)
{
    if (send_all(e, command, strlen(command), command, err) < 0 ||
        send_all(e, "\n", 1, command, err) < 0)
        return RP_EIO;
    const long long deadline = now_ms() + (long long)e->timeout_s * 1000;
    char line[ANSWER_MAX];
    if (read_line(e, command, deadline, line, sizeof line, err) < 0)
        return RP_EIO;
    char kind;
    const char *body = answer_body(line, &kind);
    if (!body)
        return rp_fail(err, RP_EPARSE, "engine '%s' answered '%.*s' to '%.*s' (not the protocol)",
                       e->name, QUOTE, line, QUOTE, command);
    size_t len = (size_t)snprintf(answer, size, "%s", body);
    /* the rest of a multi-line answer, up to its empty line (a refusal's too: the next
     * command must not read it as its own answer) */
    for (;;) {
        if (read_line(e, command, deadline, line, sizeof line, err) < 0)
            return RP_EIO;
        if (!line[0])
            break;
        if (len < size)
            len += (size_t)snprintf(answer + len, size - len, "\n%s", line);
    }
    if (kind == '?')
        return rp_fail(err, RP_EINVAL, "engine '%s' refused '%.*s': %.*s", e->name, QUOTE, command,
                       2 * QUOTE, answer);
    return RP_OK;
}

/* ---- playing ---- */

int rp_cli_engine_new_game(rp_cli_engine *e, const rp_game *game, const rp_config *cfg,
                           rp_error *err)
{
    char command[2200];
    int n = snprintf(command, sizeof command, "new %s ", game->id);
    if (n < 0 || rp_config_to_text(game, cfg, command + n, sizeof command - (size_t)n) < 0)
        return rp_fail(err, RP_ENOSPACE, "engine '%s': the game's options are too long", e->name);
    char answer[2048];
    return rp_cli_engine_ask(e, command, answer, sizeof answer, err);
}

/* Load `seen` into the engine and check that it holds exactly that position (another build's
 * notation could read it differently). */
static int load_position(rp_cli_engine *e, const rp_game *game, const void *seen, rp_error *err)
{
    static const char verb[] = "load ";
    char command[sizeof verb - 1 + RP_STATE_TEXT];
    memcpy(command, verb, sizeof verb - 1);
    const char *notation = command + sizeof verb - 1;
    if (game->state_to_text(seen, command + sizeof verb - 1, RP_STATE_TEXT) < 0)
        return rp_fail(err, RP_ENOSPACE, "engine '%s': the position's notation is too long",
                       e->name);
    char answer[ANSWER_MAX];
    if (rp_cli_engine_ask(e, command, answer, sizeof answer, err) < 0 ||
        rp_cli_engine_ask(e, "state", answer, sizeof answer, err) < 0)
        return RP_EIO;
    if (strcmp(answer, notation) != 0)
        return rp_fail(err, RP_EPARSE,
                       "engine '%s' loaded a position differently: 'state' answered '%.*s' "
                       "after 'load %.*s'",
                       e->name, QUOTE, answer, QUOTE, notation);
    return RP_OK;
}

int rp_cli_engine_move(rp_cli_engine *e, const rp_game *game, const void *referee, const char *spec,
                       rp_rng *rng, rp_action *move, rp_error *err)
{
    const int seat = game->current_player(referee);
    rp_state seen; /* all the engine learns: the seat's view, the rest drawn from rng */
    rp_state_copy(game, &seen, referee);
    game->determinize(&seen, seat, rng);
    if (load_position(e, game, &seen, err) < 0)
        return RP_EIO;
    char command[RP_CLI_ENGINE_SPEC + 16], answer[ANSWER_MAX];
    snprintf(command, sizeof command, "genmove %s", spec);
    if (rp_cli_engine_ask(e, command, answer, sizeof answer, err) < 0)
        return RP_EIO;
    answer[strcspn(answer, "\n")] = '\0'; /* the move; the info line after it is not needed */
    rp_error why = {{0}};
    if (rp_parse_move(game, referee, answer, move, &why) < 0)
        return rp_fail(err, RP_EILLEGAL, "engine '%s' answered '%.*s' to '%s': %s", e->name, QUOTE,
                       answer, command, why.msg);
    return RP_OK;
}
