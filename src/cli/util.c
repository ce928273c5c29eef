/* util.c — terminal conventions and argument helpers shared by the commands (see cli.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

bool rp_cli_tty(FILE *f)
{
    return isatty(fileno(f)) == 1;
}

bool rp_cli_color(FILE *f)
{
    const char *no_color = getenv("NO_COLOR");
    if (no_color && *no_color)
        return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return false;
    return rp_cli_tty(f);
}

bool rp_cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return true;
    return false;
}

int rp_cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ramparts %s: ", command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'ramparts %s --help')\n", command);
    return RP_EXIT_USAGE;
}

const rp_game *rp_cli_game(const char *command, const char *id)
{
    const rp_game *game = rp_game_find(id);
    if (game)
        return game;
    fprintf(stderr, "ramparts %s: unknown game '%s'; the games are:\n", command, id);
    for (int i = 0; i < rp_num_games; i++)
        fprintf(stderr, "  %s\n", rp_games[i]->id);
    return NULL;
}

const char *rp_cli_value(const char *command, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        rp_cli_usage_error(command, "%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

bool rp_cli_number(const char *command, const char *option, const char *text, long long min,
                   long long max, long long *out)
{
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || v < min || v > max) {
        rp_cli_usage_error(command, "%s %s: expected a whole number from %lld to %lld", option,
                           text, min, max);
        return false;
    }
    *out = v;
    return true;
}

void rp_progress_start(rp_progress *p, const char *label, long total)
{
    p->enabled = rp_cli_tty(stderr) && total > 1;
    p->total = total;
    p->done = 0;
    p->last_width = -1;
    p->label = label;
    rp_progress_update(p, 0);
}

void rp_progress_update(rp_progress *p, long done)
{
    if (!p->enabled)
        return;
    const int width = 30;
    int filled = (int)((double)done / (double)p->total * width);
    if (filled == p->last_width && done != p->total)
        return;
    p->last_width = filled;
    fprintf(stderr, "\r%s [", p->label);
    for (int i = 0; i < width; i++)
        fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %ld/%ld", done, p->total);
    fflush(stderr);
}

void rp_progress_finish(rp_progress *p)
{
    if (!p->enabled)
        return;
    rp_progress_update(p, p->total);
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

unsigned long long rp_cli_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
