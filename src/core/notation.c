/* notation.c — the full-state notation toolkit every game uses (grammar in notation.h):
 * writers over rp_text, a reader that walks key=value fields in order, strict value parsers,
 * and the canonical-form check that makes text -> state -> text exact. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/notation.h"

/* ---- writing ---- */

void rp__put_tag(rp_text *t, const char *tag)
{
    rp__text_str(t, tag);
}

void rp__put_key(rp_text *t, const char *key)
{
    rp__text_ch(t, ' ');
    rp__text_str(t, key);
    rp__text_ch(t, '=');
}

void rp__put_uint(rp_text *t, uint64_t v)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        rp__text_ch(t, digits[--n]);
}

void rp__put_int(rp_text *t, int64_t v)
{
    if (v < 0) {
        rp__text_ch(t, '-');
        rp__put_uint(t, (uint64_t)0 - (uint64_t)v);
        return;
    }
    rp__put_uint(t, (uint64_t)v);
}

void rp__put_hex64(rp_text *t, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    for (int shift = 60; shift >= 0; shift -= 4)
        rp__text_ch(t, hex[(v >> shift) & 15]);
}

void rp__put_rng(rp_text *t, const rp_rng *rng)
{
    rp__put_key(t, "rng");
    rp__put_hex64(t, rng->state);
    rp__text_ch(t, '.');
    rp__put_hex64(t, rng->inc);
}

void rp__put_sep(rp_text *t, int *count, char sep)
{
    if ((*count)++ > 0)
        rp__text_ch(t, sep);
}

void rp__put_list_end(rp_text *t, int count)
{
    if (count == 0)
        rp__text_ch(t, '-');
}

int rp__text_finish(const rp_text *t)
{
    return t->overflow ? RP_ENOSPACE : (int)t->len;
}

/* ---- reading ---- */

int(rp__read_fail)(rp_reader *r, const char *what, const char *fmt, ...) /* see notation.h */
{
    if (!r->err)
        return RP_EPARSE;
    char msg[RP_ERROR_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rp_fail(r->err, RP_EPARSE, "%s: %s", what, msg);
}

/* Length of the word starting at p: up to a space or the end. */
static size_t word_length(const char *p)
{
    size_t n = 0;
    while (p[n] && p[n] != ' ')
        n++;
    return n;
}

/* The letters of a tag without its version digits: "wa" of "wa1". */
static size_t tag_stem(const char *tag, size_t len)
{
    while (len && tag[len - 1] >= '0' && tag[len - 1] <= '9')
        len--;
    return len;
}

int rp__read_begin(rp_reader *r, const char *text, const char *tag, rp_error *err)
{
    r->text = text;
    r->p = text;
    r->tag = tag;
    r->err = err;
    if (!text)
        return rp_fail(err, RP_EINVAL, "no state text");
    size_t len = word_length(text), want = strlen(tag);
    if (len == want && memcmp(text, tag, len) == 0) {
        r->p = text + len;
        return RP_OK;
    }
    size_t stem = tag_stem(tag, want);
    if (len > stem && tag_stem(text, len) == stem && memcmp(text, tag, stem) == 0)
        return rp_fail(err, RP_EPARSE,
                       "notation version '%.*s' is not read by this build, "
                       "which reads '%s'",
                       (int)(len > 16 ? 16 : len), text, tag);
    return rp_fail(err, RP_EPARSE,
                   "not a '%s' notation: it must start with '%s', not "
                   "'%.*s'",
                   tag, tag, (int)(len > 16 ? 16 : len), text);
}

int rp__read_field(rp_reader *r, const char *key, rp_span *value)
{
    size_t key_len = strlen(key);
    if (*r->p == '\0')
        return rp__read_fail(r, key, "missing (the text ends before it)");
    if (*r->p != ' ' || r->p[1] == ' ')
        return rp__read_fail(r, key, "fields are separated by one space, before '%.20s'", r->p);
    const char *f = r->p + 1;
    if (strncmp(f, key, key_len) != 0 || f[key_len] != '=') {
        size_t n = word_length(f);
        const char *eq = memchr(f, '=', n);
        return rp__read_fail(r, key, "expected the field %s= here, found '%.*s'", key,
                             (int)(eq ? eq - f : (n > 20 ? 20 : (int)n)), f);
    }
    value->p = f + key_len + 1;
    value->len = word_length(value->p);
    if (value->len == 0)
        return rp__read_fail(r, key, "empty value (write '-' for an empty list)");
    r->p = value->p + value->len;
    return RP_OK;
}

int rp__read_rng(rp_reader *r, rp_rng *rng)
{
    rp_span v, state, inc;
    int rc = rp__read_field(r, "rng", &v);
    if (rc < 0)
        return rc;
    if (!rp__span_split(v, '.', &state, &inc))
        return rp__read_fail(r, "rng", "write <16 hex digits>.<16 hex digits>");
    rp_rng out;
    if ((rc = rp__span_hex64(r, "rng", state, &out.state)) < 0 ||
        (rc = rp__span_hex64(r, "rng", inc, &out.inc)) < 0)
        return rc;
    if (!(out.inc & 1))
        return rp__read_fail(r, "rng", "the increment (after the '.') must be odd");
    *rng = out;
    return RP_OK;
}

int rp__read_end(rp_reader *r)
{
    if (*r->p == '\0')
        return RP_OK;
    return rp_fail(r->err, RP_EPARSE, "unexpected text after the last field: '%.20s'", r->p);
}

int rp__read_canonical(rp_reader *r, rp_state_writer write, const void *parsed)
{
    char canonical[RP_STATE_TEXT];
    int len = write(parsed, canonical, sizeof canonical);
    if (len < 0)
        return rp_fail(r->err, RP_EPARSE, "the state cannot be written back");
    if (strcmp(canonical, r->text) == 0)
        return RP_OK;
    size_t at = 0;
    while (canonical[at] && canonical[at] == r->text[at])
        at++;
    size_t from = at > 12 ? at - 12 : 0;
    return rp_fail(r->err, RP_EPARSE,
                   "not the canonical spelling at column %zu: this state is "
                   "written '...%.32s...', the text has '...%.32s...'",
                   at + 1, canonical + from, r->text + from);
}

/* ---- values ---- */

bool rp__span_is(rp_span v, const char *word)
{
    return strlen(word) == v.len && memcmp(v.p, word, v.len) == 0;
}

int rp__span_uint(rp_reader *r, const char *what, rp_span v, uint64_t min, uint64_t max,
                  uint64_t *out)
{
    if (v.len == 0)
        return rp__read_fail(r, what, "a number is missing");
    if (v.len > 1 && v.p[0] == '0')
        return rp__read_fail(r, what, "'%.*s' has a leading zero", (int)v.len, v.p);
    uint64_t n = 0;
    for (size_t i = 0; i < v.len; i++) {
        char c = v.p[i];
        if (c < '0' || c > '9')
            return rp__read_fail(r, what, "'%.*s' is not a whole number",
                                 (int)(v.len > 20 ? 20 : v.len), v.p);
        if (n > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
            return rp__read_fail(r, what, "'%.20s' is too large", v.p);
        n = n * 10 + (uint64_t)(c - '0');
    }
    if (n < min || n > max)
        return rp__read_fail(r, what, "%" PRIu64 " is not in %" PRIu64 "..%" PRIu64, n, min, max);
    *out = n;
    return RP_OK;
}

int rp__span_int(rp_reader *r, const char *what, rp_span v, int64_t min, int64_t max, int64_t *out)
{
    bool negative = v.len > 0 && v.p[0] == '-';
    rp_span digits = {v.p + negative, v.len - negative};
    uint64_t mag;
    int rc = rp__span_uint(r, what, digits, 0, (uint64_t)INT64_MAX + negative, &mag);
    if (rc < 0)
        return rc;
    if (negative && mag == 0)
        return rp__read_fail(r, what, "write 0, not -0");
    int64_t n = negative ? (int64_t)(0 - mag) : (int64_t)mag;
    if (n < min || n > max)
        return rp__read_fail(r, what, "%" PRId64 " is not in %" PRId64 "..%" PRId64, n, min, max);
    *out = n;
    return RP_OK;
}

int rp__span_hex64(rp_reader *r, const char *what, rp_span v, uint64_t *out)
{
    if (v.len != 16)
        return rp__read_fail(r, what, "expected 16 lower-case hex digits, found %zu characters",
                             v.len);
    uint64_t n = 0;
    for (size_t i = 0; i < 16; i++) {
        char c = v.p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return rp__read_fail(r, what, "'%c' is not a lower-case hex digit", c);
        n = n << 4 | (uint64_t)d;
    }
    *out = n;
    return RP_OK;
}

int rp__span_name(rp_span v, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (names[i] && rp__span_is(v, names[i]))
            return i;
    return -1;
}

int rp__span_choice(rp_reader *r, const char *what, rp_span v, const char *const *names, int n,
                    int *out)
{
    int i = rp__span_name(v, names, n);
    if (i >= 0) {
        *out = i;
        return RP_OK;
    }
    char known[RP_ERROR_TEXT / 2];
    size_t len = 0;
    known[0] = '\0';
    for (int k = 0; k < n && len < sizeof known; k++)
        if (names[k])
            len +=
                (size_t)snprintf(known + len, sizeof known - len, "%s%s", len ? "|" : "", names[k]);
    return rp__read_fail(r, what, "'%.*s' is not one of %s", (int)(v.len > 20 ? 20 : v.len), v.p,
                         known);
}

bool rp__span_split(rp_span v, char sep, rp_span *head, rp_span *tail)
{
    const char *at = memchr(v.p, sep, v.len);
    if (!at)
        return false;
    head->p = v.p;
    head->len = (size_t)(at - v.p);
    tail->p = at + 1;
    tail->len = v.len - head->len - 1;
    return true;
}

void rp__list_begin(rp_list *l, rp_span v, char sep)
{
    l->rest = v;
    l->sep = sep;
    l->done = rp__span_is(v, "-");
}

bool rp__list_next(rp_list *l, rp_span *item)
{
    if (l->done)
        return false;
    rp_span tail;
    if (rp__span_split(l->rest, l->sep, item, &tail)) {
        l->rest = tail;
        return true;
    }
    *item = l->rest;
    l->done = true;
    return true;
}
