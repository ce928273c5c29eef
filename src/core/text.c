/* text.c — the bounded text buffer games write their notations and views into (text.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"

void rp__text_init(rp_text *t, char *buf, size_t size)
{
    t->buf = buf;
    t->size = size;
    t->len = 0;
    t->overflow = size == 0;
    if (size)
        buf[0] = '\0';
}

void rp__text_put(rp_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const size_t room = t->len < t->size ? t->size - t->len : 0;
    const int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room)
        t->overflow = true;
    else
        t->len += (size_t)n;
}

void rp__text_ch(rp_text *t, char c)
{
    if (t->len + 1 < t->size) {
        t->buf[t->len++] = c;
        t->buf[t->len] = '\0';
    } else {
        t->overflow = true;
    }
}

void rp__text_str(rp_text *t, const char *str)
{
    const size_t n = strlen(str);
    if (t->len + n < t->size) {
        memcpy(t->buf + t->len, str, n + 1);
        t->len += n;
    } else {
        t->overflow = true;
    }
}
