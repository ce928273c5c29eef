/* text.h — checks on the text clients send: UTF-8 that RFC 3629 allows (no overlong forms, no
 * surrogates, nothing above U+10FFFF), and plain text for people (chat): no control
 * characters, C1 included. */
#ifndef RS_TEXT_H
#define RS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

bool rs_utf8_valid(const char *text, size_t len);
/* Valid UTF-8 (NUL-terminated) without a control character: U+0000-U+001F, U+007F-U+009F. */
bool rs_plain_text(const char *text);

#endif
