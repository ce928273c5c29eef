/* notation.h — internal: the one toolkit every game writes and reads its full-state notation
 * with, so the five notations share one grammar and one set of error messages:
 *
 *     TAG FIELD FIELD ... rng=<16 hex>.<16 hex>
 *
 * TAG names the game and the version of its format ("wa1"): a stored game written in another
 * version is refused by name, so a record can outlive a format change. FIELDs are key=value,
 * in the order the game documents, separated by single spaces; values never contain spaces.
 * Lists separate items with ',' (or a game's own separator) and write an empty list as '-'.
 * Integers are decimal without sign or leading zeros; hex is lower case. The generator, when
 * the game has one, is the last field (rp__put_rng / rp__read_rng).
 *
 * One spelling per state: after parsing and validating, a game calls rp__read_canonical,
 * which writes the parsed state back with the game's own writer and refuses any text that
 * differs, naming the first difference. So text -> state -> text is exact, and parsers may
 * stay simple about what else they would tolerate. */
#ifndef RP_CORE_NOTATION_H
#define RP_CORE_NOTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/text.h"
#include "ramparts/game.h"

/* ---- writing (into an rp_text, which remembers an overflow) ---- */

/* The tag, first: "wa1". */
void rp__put_tag(rp_text *t, const char *tag);
/* " key=": starts a field. */
void rp__put_key(rp_text *t, const char *key);
void rp__put_uint(rp_text *t, uint64_t v);
void rp__put_int(rp_text *t, int64_t v);
/* Exactly 16 lower-case hex digits. */
void rp__put_hex64(rp_text *t, uint64_t v);
/* The generator field " rng=<16 hex>.<16 hex>". */
void rp__put_rng(rp_text *t, const rp_rng *rng);
/* Before each item of a list: writes sep unless *count is 0, then counts the item. */
void rp__put_sep(rp_text *t, int *count, char sep);
/* After a list: writes '-' when it had no items. */
void rp__put_list_end(rp_text *t, int count);
/* The length written, or RP_ENOSPACE if the buffer was too small. */
int rp__text_finish(const rp_text *t);

/* ---- reading ---- */

/* A piece of the text: not NUL-terminated. */
typedef struct rp_span {
    const char *p;
    size_t len;
} rp_span;

typedef struct rp_reader {
    const char *text; /* the whole notation */
    const char *p;    /* the next unread character */
    const char *tag;
    rp_error *err;
} rp_reader;

/* Start reading `text`, whose first word must be `tag`. Refuses NULL, another game's tag and
 * another version of this game's format, by name. */
int rp__read_begin(rp_reader *r, const char *text, const char *tag, rp_error *err);
/* The next field must be `key`: sets *value to its (non-empty) value. */
int rp__read_field(rp_reader *r, const char *key, rp_span *value);
/* The field rng=<16 hex>.<16 hex> (the increment odd, as PCG32 needs). */
int rp__read_rng(rp_reader *r, rp_rng *rng);
/* Nothing may follow the last field. */
int rp__read_end(rp_reader *r);
/* A game's full-state writer: its state_to_text. */
typedef int (*rp_state_writer)(const void *st, char *buf, size_t size);
/* The last step of every state_from_text: the game's writer must give back `r->text` exactly
 * from the parsed state; else the text is refused as non-canonical, showing the canonical
 * spelling around the first difference. The writer is passed, not the rp_game, so a game's
 * text.c needs nothing from its game.c (which sits above it). */
int rp__read_canonical(rp_reader *r, rp_state_writer write, const void *parsed);

/* Refuse with "<what>: <message>" (printf-style) and return RP_EPARSE. */
int rp__read_fail(rp_reader *r, const char *what, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#ifdef __clang_analyzer__
/* As rp_fail in game.h: the analyzer learns that this returns RP_EPARSE. */
#define rp__read_fail(r, what, ...) (rp__read_fail((r), (what), __VA_ARGS__), RP_EPARSE)
#endif

/* ---- values ---- */

/* The span equals word exactly. */
bool rp__span_is(rp_span v, const char *word);
/* A whole number in [min, max], decimal, no sign, no leading zeros. */
int rp__span_uint(rp_reader *r, const char *what, rp_span v, uint64_t min, uint64_t max,
                  uint64_t *out);
/* The same for a signed number ("-3"; no '+', no "-0"). */
int rp__span_int(rp_reader *r, const char *what, rp_span v, int64_t min, int64_t max, int64_t *out);
/* Exactly 16 lower-case hex digits. */
int rp__span_hex64(rp_reader *r, const char *what, rp_span v, uint64_t *out);
/* The index of v among names[0..n) (NULL entries skipped), or -1. No message. */
int rp__span_name(rp_span v, const char *const *names, int n);
/* The same, refusing an unknown word with the list of the known ones. */
int rp__span_choice(rp_reader *r, const char *what, rp_span v, const char *const *names, int n,
                    int *out);
/* Split v at the first `sep`: *head is before it, *tail after it; false if there is none. */
bool rp__span_split(rp_span v, char sep, rp_span *head, rp_span *tail);

/* Items of a list separated by `sep`, '-' being the empty list. */
typedef struct rp_list {
    rp_span rest;
    char sep;
    bool done;
} rp_list;
void rp__list_begin(rp_list *l, rp_span v, char sep);
/* The next item (possibly empty, which item parsers refuse); false after the last. */
bool rp__list_next(rp_list *l, rp_span *item);

#endif
