/* text.h — internal: a bounded text buffer for notations and views. Writers append freely and
 * check once at the end; an overflow is remembered instead of failing every call. */
#ifndef RP_CORE_TEXT_H
#define RP_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rp_text {
    char *buf;
    size_t size, len;
    bool overflow;
} rp_text;

/* Start writing into buf (size bytes, kept NUL-terminated). */
void rp__text_init(rp_text *t, char *buf, size_t size);
/* Append printf-style. */
void rp__text_put(rp_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Append one character / a plain string without printf (the common, cheap cases). */
void rp__text_ch(rp_text *t, char c);
void rp__text_str(rp_text *t, const char *str);

#endif
