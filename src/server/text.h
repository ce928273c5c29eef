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
/* Remove, in place, the invisible characters that reorder or hide text (issue 49): the bidi
 * embeddings, overrides, isolates and marks (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069) and the zero-width ones (U+200B-U+200D, U+2060, U+FEFF). text is valid
 * UTF-8 (rs_plain_text); returns the length left. */
size_t rs_strip_invisible(char *text);

#endif
