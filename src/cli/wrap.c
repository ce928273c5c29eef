/* wrap.c — long lines broken at words to the terminal's width, so that a move list, a pile of
 * cards or a sentence never splits mid-word: continuation lines hang under the text after a
 * leading "Label: " (or under the line's own indent, two further in). Colour codes take no
 * room; a UTF-8 character takes one column. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

int rp_cli_width(FILE *f)
{
    const char *columns = getenv("COLUMNS");
    if (columns && *columns) {
        char *end;
        long n = strtol(columns, &end, 10);
        if (!*end && n >= 20 && n <= 1000)
            return (int)n;
    }
    struct winsize ws;
    if (rp_cli_tty(f) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return 0;
}

int rp_cli_rows(FILE *f)
{
    struct winsize ws;
    if (rp_cli_tty(f) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0)
        return ws.ws_row;
    return 0;
}

/* Bytes of the colour code at p ("\033[...m"), or 0. */
static size_t escape_length(const char *p, const char *end)
{
    if (p >= end || *p != '\033')
        return 0;
    const char *q = p + 1;
    while (q < end && *q != 'm')
        q++;
    return q < end ? (size_t)(q - p) + 1 : (size_t)(end - p);
}

/* Columns taken by [p, end): colour codes none, each UTF-8 character one. */
static int columns_of(const char *p, const char *end)
{
    int n = 0;
    while (p < end) {
        size_t esc = escape_length(p, end);
        if (esc) {
            p += esc;
            continue;
        }
        n += ((unsigned char)*p & 0xc0) != 0x80;
        p++;
    }
    return n;
}

/* Where continuation lines start: after a "Label: " near the start, else the indent + 2. */
static int hanging_indent(const char *line, const char *end, int width)
{
    int indent = 0;
    while (line + indent < end && line[indent] == ' ')
        indent++;
    const char *colon = NULL;
    for (const char *p = line + indent; p + 1 < end; p++) {
        if (p[0] == ':' && p[1] == ' ') {
            colon = p;
            break;
        }
        if (p[0] == '.' && p[1] == ' ')
            break; /* a sentence came first: no label */
    }
    if (colon) {
        int at = columns_of(line, colon + 2);
        if (at <= width / 2)
            return at;
    }
    return indent + 2 < width / 2 ? indent + 2 : 0;
}

/* One line (without its newline) to out, broken at spaces to fit `width`. */
static void write_line(FILE *out, const char *line, const char *end, int width)
{
    if (width <= 0 || columns_of(line, end) <= width) {
        fprintf(out, "%.*s\n", (int)(end - line), line);
        return;
    }
    const int hang = hanging_indent(line, end, width);
    int indent = 0;
    const char *p = line;
    while (p < end) {
        /* The longest run of whole words from p that fits in width - indent. */
        const char *cut = NULL, *q = p;
        int used = 0;
        while (q < end) {
            size_t esc = escape_length(q, end);
            if (esc) {
                q += esc;
                continue;
            }
            if (*q == ' ' && q > p)
                cut = q;
            used += ((unsigned char)*q & 0xc0) != 0x80;
            if (used > width - indent)
                break;
            q++;
        }
        if (q >= end) {
            fprintf(out, "%*s%.*s\n", indent, "", (int)(end - p), p);
            return;
        }
        if (!cut) { /* one word longer than the line: it goes on a line of its own, whole */
            cut = q;
            while (cut < end && *cut != ' ')
                cut++;
        }
        fprintf(out, "%*s%.*s\n", indent, "", (int)(cut - p), p);
        p = cut;
        while (p < end && *p == ' ')
            p++;
        indent = hang;
    }
}

void rp_cli_write_wrapped(FILE *out, const char *text, int width)
{
    const char *line = text;
    while (*line) {
        const char *end = line + strcspn(line, "\n");
        write_line(out, line, end, width);
        line = *end ? end + 1 : end;
    }
}
