/* words.c — splitting at blanks, finding a word in a table, bounded whole numbers (words.h). */
#include <stdlib.h>
#include <string.h>

#include "core/words.h"

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

int rp__split_words(char *text, char **words, int max)
{
    int n = 0;
    for (char *p = text;;) {
        while (is_blank(*p))
            *p++ = '\0';
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        words[n++] = p;
        while (*p && !is_blank(*p))
            p++;
    }
}

int rp__word_index(const char *const *words, int n, const char *w)
{
    for (int i = 0; i < n; i++)
        if (strcmp(words[i], w) == 0)
            return i;
    return -1;
}

bool rp__parse_long(const char *text, long lo, long hi, long *out)
{
    if (!*text)
        return false;
    char *end = NULL;
    const long v = strtol(text, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}
