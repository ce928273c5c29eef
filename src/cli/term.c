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
#include <strings.h>
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

/* ---- Tab completion: the words of whole lines the caller lists (commands, moves) ---- */

static rp_cli_completions completions_of;
static void *completions_ctx;

void rp_cli_set_completions(rp_cli_completions list, void *ctx)
{
    completions_of = list;
    completions_ctx = ctx;
}

/* The candidates for the word being typed: for every listed line that starts with what is
 * typed so far, its word at this place (each once). */
static char **candidate_words(const char *line_before, const char *word)
{
    size_t count = 0;
    char **lines = completions_of ? completions_of(completions_ctx, &count) : NULL;
    char **words = calloc(count + 2, sizeof *words);
    size_t n = 1; /* words[0]: the common prefix, filled by readline's convention below */
    const size_t before = strlen(line_before), typed = strlen(word);
    for (size_t i = 0; words && i < count; i++) {
        const char *c = lines[i];
        if (strncasecmp(c, line_before, before) != 0 || strncasecmp(c + before, word, typed) != 0)
            continue;
        const size_t len = strcspn(c + before, " ");
        bool seen = false;
        for (size_t k = 1; k < n && !seen; k++)
            seen = strlen(words[k]) == len && strncmp(words[k], c + before, len) == 0;
        if (!seen)
            words[n++] = strndup(c + before, len);
    }
    for (size_t i = 0; i < count; i++)
        free(lines[i]);
    free(lines);
    if (!words || n == 1) {
        free(words);
        return NULL;
    }
    /* words[0]: the longest prefix the candidates share, which readline puts in the line. */
    size_t common = strlen(words[1]);
    for (size_t k = 2; k < n; k++) {
        size_t j = 0;
        while (j < common && words[k][j] == words[1][j])
            j++;
        common = j;
    }
    words[0] = strndup(words[1], common);
    if (n == 2) { /* one candidate: it alone, as readline expects */
        free(words[0]);
        words[0] = words[1];
        words[1] = NULL;
    }
    return words;
}

static char **complete_word(const char *word, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1; /* never file names */
    char line_before[512];
    const int keep = start < (int)sizeof line_before ? start : (int)sizeof line_before - 1;
    snprintf(line_before, sizeof line_before, "%.*s", keep, rl_line_buffer);
    return candidate_words(line_before, word);
}

static bool read_edited(const char *prompt, char *buf, size_t size, bool *too_long)
{
    *too_long = false;
    rl_attempted_completion_function = complete_word;
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
        /* $PAGER is a command line by convention (as git and man run it) */
        FILE *p = popen(pager && *pager ? pager : "less -FRX", "w"); /* NOLINT(cert-env33-c) */
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
