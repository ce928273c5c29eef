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

void rs_log(const char *fmt, ...)
{
    if (quiet_logs)
        return;
    char line[1024];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    size_t n = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%SZ ", &tm);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}
