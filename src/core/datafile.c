/* datafile.c — the lines, comments and words of a game's data file, with messages that name the
 * file and the line (datafile.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/datafile.h"
#include "core/words.h"

#define MOST_WORDS 8

int(rp__datafile_fail)(const rp_datafile_line *line, rp_error *err, const char *fmt,
                       ...) /* (): not the analyzer's macro */
{
    char msg[RP_ERROR_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rp_fail(err, RP_EPARSE, "%s line %d: %s", line->source, line->number, msg);
}

/* One line (modified): its comment cut, its words to read, unless it has none. */
static int read_line(char *text, const rp_datafile_line *line, int max_words,
                     rp_datafile_reader read, void *ctx, rp_error *err)
{
    char *hash = strchr(text, '#');
    if (hash)
        *hash = '\0';
    char *words[MOST_WORDS + 1];
    const int n = rp__split_words(text, words, max_words);
    if (n > max_words)
        return rp__datafile_fail(line, err, "too many words (expected %d)", max_words);
    return n == 0 ? RP_OK : read(ctx, words, n, line, err);
}

int rp__datafile_read(const char *text, const char *source, int max_words, rp_datafile_reader read,
                      void *ctx, rp_error *err)
{
    if (max_words < 1 || max_words > MOST_WORDS)
        return rp_fail(err, RP_EINVAL, "%s: a data file line holds 1 to %d words", source,
                       MOST_WORDS);
    rp_datafile_line line = {source, 0};
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        const size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char copy[256];
        line.number++;
        if (len >= sizeof copy)
            return rp__datafile_fail(&line, err, "line too long");
        memcpy(copy, p, len);
        copy[len] = '\0';
        const int rc = read_line(copy, &line, max_words, read, ctx, err);
        if (rc < 0)
            return rc;
        p = eol ? eol + 1 : p + len;
    }
    return RP_OK;
}
