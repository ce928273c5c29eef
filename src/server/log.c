/* log.c — see log.h. One fprintf per line, so lines from threads never interleave. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static bool quiet_logs;

void rs_log_quiet(bool quiet)
{
    quiet_logs = quiet;
}

/* Copy `in` to `out` with C0 controls, DEL and C1 controls (U+0080-U+009F, as UTF-8) written
 * as \xNN (issue 49: a client's Origin reached the log with its escape sequences and line
 * breaks); a backslash is doubled so an escape cannot be faked either. */
static void escape_controls(const char *in, char *out, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 9 < size; p++) {
        const bool c1 = p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
        if (*p < 0x20 || *p == 0x7F || c1) {
            for (int k = 0; k <= (c1 ? 1 : 0); k++) {
                out[n++] = '\\';
                out[n++] = 'x';
                out[n++] = hex[p[k] >> 4];
                out[n++] = hex[p[k] & 15];
            }
            p += c1;
        } else if (*p == '\\') {
            out[n++] = '\\';
            out[n++] = '\\';
        } else {
            out[n++] = (char)*p;
        }
    }
    out[n] = '\0';
}

void rs_log(const char *fmt, ...)
{
    if (quiet_logs)
        return;
    char text[1024], line[4200];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    size_t n = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%SZ ", &tm);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    escape_controls(text, line + n, sizeof line - n);
    fprintf(stderr, "%s\n", line);
}
