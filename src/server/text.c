/* text.c — UTF-8 and plain-text checks (see text.h). */
#include "text.h"

#include <stdint.h>
#include <string.h>

/* The code point starting at p (at most `left` bytes), its length in *size; -1 when the bytes
 * there are not UTF-8. */
static int32_t decode(const unsigned char *p, size_t left, int *size)
{
    const unsigned char b = p[0];
    int extra;
    int32_t cp, min;
    if (b < 0x80) {
        *size = 1;
        return b;
    }
    if ((b & 0xE0) == 0xC0) {
        extra = 1, cp = b & 0x1F, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
        extra = 2, cp = b & 0x0F, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
        extra = 3, cp = b & 0x07, min = 0x10000;
    } else {
        return -1;
    }
    if ((size_t)extra >= left)
        return -1;
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *size = extra + 1;
    return cp;
}

bool rs_utf8_valid(const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        int size;
        if (decode(p + i, len - i, &size) < 0)
            return false;
        i += (size_t)size;
    }
    return true;
}

static bool invisible(int32_t cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0x200B && cp <= 0x200D) || cp == 0x2060 ||
           cp == 0xFEFF;
}

size_t rs_strip_invisible(char *text)
{
    unsigned char *p = (unsigned char *)text;
    const size_t len = strlen(text);
    size_t kept = 0;
    for (size_t i = 0; i < len;) {
        int size;
        const int32_t cp = decode(p + i, len - i, &size);
        if (cp < 0) /* not UTF-8: the caller checks first; keep the byte */
            size = 1;
        if (cp < 0 || !invisible(cp)) {
            memmove(p + kept, p + i, (size_t)size);
            kept += (size_t)size;
        }
        i += (size_t)size;
    }
    p[kept] = '\0';
    return kept;
}

bool rs_plain_text(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    const size_t len = strlen(text);
    for (size_t i = 0; i < len;) {
        int size;
        const int32_t cp = decode(p + i, len - i, &size);
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
            return false;
        i += (size_t)size;
    }
    return true;
}
