/* util.c — terminal conventions and argument helpers shared by the commands (see cli.h). */
#include <errno.h>
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

int(rp_cli_usage_error)(const char *command, const char *fmt, ...)
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

/* The text of an option's file, NUL-terminated (caller frees), or NULL after a message. */
static char *read_option_file(const char *command, const char *key, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ramparts %s: %s=@%s: %s\n", command, key, path, strerror(errno));
        return NULL;
    }
    char *text = malloc(RP_CLI_OPTION_FILE_MAX + 1);
    size_t n = text ? fread(text, 1, RP_CLI_OPTION_FILE_MAX + 1, f) : 0;
    const char *problem = !text                        ? "out of memory"
                          : ferror(f)                  ? "read error"
                          : n > RP_CLI_OPTION_FILE_MAX ? "larger than 65536 bytes"
                          : memchr(text, '\0', n)      ? "not a text file"
                                                       : NULL;
    fclose(f);
    if (problem) {
        fprintf(stderr, "ramparts %s: %s=@%s: %s\n", command, key, path, problem);
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

int rp_cli_set_option(const char *command, const rp_game *game, rp_config *cfg,
                      const char *key_value)
{
    rp_error err;
    const char *eq = strchr(key_value, '=');
    const rp_option_spec *spec = NULL;
    for (int i = 0; eq && i < game->num_options; i++)
        if (strlen(game->options[i].name) == (size_t)(eq - key_value) &&
            strncmp(game->options[i].name, key_value, (size_t)(eq - key_value)) == 0)
            spec = &game->options[i];
    if (!spec || eq[1] != '@') {
        if (rp_config_set(game, cfg, key_value, &err) < 0)
            return rp_cli_usage_error(command, "%s", err.msg);
        return RP_EXIT_OK;
    }
    if (!spec->from_file)
        return rp_cli_usage_error(command, "%s: %s does not take a file", key_value, spec->name);
    if (!eq[2])
        return rp_cli_usage_error(command, "%s: a file name must follow the @", key_value);
    char *text = read_option_file(command, spec->name, eq + 2);
    if (!text)
        return RP_EXIT_FAIL;
    char value[RP_OPTION_TEXT], setting[RP_OPTION_TEXT + 64];
    int rc = spec->from_file(text, eq + 2, value, sizeof value, &err);
    free(text);
    if (rc < 0) {
        fprintf(stderr, "ramparts %s: %s\n", command, err.msg);
        return RP_EXIT_FAIL;
    }
    snprintf(setting, sizeof setting, "%s=%s", spec->name, value);
    if (rp_config_set(game, cfg, setting, &err) < 0) {
        fprintf(stderr, "ramparts %s: %s=@%s: %s\n", command, spec->name, eq + 2, err.msg);
        return RP_EXIT_FAIL;
    }
    return RP_EXIT_OK;
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
    errno = 0; /* strtoll clamps an overflow to LLONG_MAX: that must be refused, not used */
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno || v < min || v > max) {
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
