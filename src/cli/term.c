/* term.c — the terminal side of the interactive commands (play, watch, replay --step): reading
 * a line with editing and history (libedit on a terminal, plain reads otherwise), refusing
 * over-long lines and control characters whole, clearing the screen between seats, paging
 * long text, and pacing. */
#include <ctype.h>
#include <editline/readline.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

bool rp_cli_line_has_control(const char *line)
{
    for (const unsigned char *p = (const unsigned char *)line; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            return true;
        if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) /* C1 controls in UTF-8 */
            return true;
    }
    return false;
}

/* Trim, and collapse runs of blanks inside to one space, in place. */
static void normalize_blanks(char *line)
{
    char *w = line;
    bool blank = true; /* drops leading blanks */
    for (const char *r = line; *r; r++) {
        if (*r == ' ' || *r == '\t') {
            if (!blank)
                *w++ = ' ';
            blank = true;
        } else {
            *w++ = *r;
            blank = false;
        }
    }
    if (w > line && w[-1] == ' ')
        w--;
    *w = '\0';
}

static bool use_editline(void)
{
    return rp_cli_tty(stdin) && rp_cli_tty(stdout);
}

/* A line from stdin without editing: false at the end of input; *too_long when it was longer
 * than size - 1 (the rest of it is read and dropped). */
static bool read_plain(char *buf, size_t size, bool *too_long)
{
    *too_long = false;
    if (!fgets(buf, (int)size, stdin))
        return false;
    if (!strchr(buf, '\n') && !feof(stdin)) {
        *too_long = true;
        int c;
        while ((c = getchar()) != EOF && c != '\n')
            ;
    }
    buf[strcspn(buf, "\r\n")] = '\0';
    return true;
}

static bool read_edited(const char *prompt, char *buf, size_t size, bool *too_long)
{
    *too_long = false;
    char *line = readline(prompt);
    if (!line)
        return false;
    if (strlen(line) >= size) {
        *too_long = true;
        buf[0] = '\0';
    } else {
        snprintf(buf, size, "%s", line);
        if (*line && !rp_cli_line_has_control(line))
            add_history(line);
    }
    free(line);
    return true;
}

int rp_cli_read_line(const char *prompt, char *buf, size_t size)
{
    bool too_long;
    bool got;
    if (use_editline()) {
        got = read_edited(prompt, buf, size, &too_long);
    } else {
        fputs(prompt, stdout);
        fflush(stdout);
        got = read_plain(buf, size, &too_long);
        /* Typed input is not echoed by a pipe: show it, so a transcript reads as a session
         * (never a refused line: its control characters would reach the terminal). */
        if (got && !too_long && !rp_cli_line_has_control(buf))
            printf("%s\n", buf);
    }
    if (!got)
        return RP_LINE_EOF;
    if (too_long) {
        printf("That line is too long (more than %zu characters); nothing was done.\n", size - 1);
        return RP_LINE_REFUSED;
    }
    if (rp_cli_line_has_control(buf)) {
        printf("That line holds control characters; nothing was done.\n");
        return RP_LINE_REFUSED;
    }
    normalize_blanks(buf);
    return RP_LINE_OK;
}

void rp_cli_lower(char *text)
{
    for (; *text; text++)
        *text = (char)tolower((unsigned char)*text);
}

void rp_cli_clear_screen(void)
{
    const char *term = getenv("TERM");
    const bool dumb = !term || strcmp(term, "dumb") == 0;
    if (rp_cli_tty(stdout) && !dumb) {
        fputs("\033[H\033[2J\033[3J", stdout);
    } else {
        /* A terminal that cannot clear: scroll the last player's screen out of sight. */
        for (int i = 0; rp_cli_tty(stdout) && i < 100; i++)
            fputc('\n', stdout);
        fputs("\n\n-------- the screen is cleared here --------\n\n", stdout);
    }
    fflush(stdout);
}

void rp_cli_page(const char *text)
{
    if (rp_cli_tty(stdout) && rp_cli_tty(stdin)) {
        const char *pager = getenv("PAGER");
        fflush(stdout);
        FILE *p = popen(pager && *pager ? pager : "less -FRX", "w");
        if (p) {
            void (*old)(int) = signal(SIGPIPE, SIG_IGN);
            fputs(text, p);
            int rc = pclose(p);
            signal(SIGPIPE, old);
            if (rc == 0)
                return;
        }
    }
    fputs(text, stdout);
}

void rp_cli_sleep_ms(long ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}
