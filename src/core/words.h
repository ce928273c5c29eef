/* words.h — internal: small helpers for reading words a person typed or a data file holds:
 * splitting a line at blanks, finding a word in a table of words, reading a whole number
 * within bounds. No allocation; nothing here keeps state between calls (thread-safe). */
#ifndef RP_CORE_WORDS_H
#define RP_CORE_WORDS_H

#include <stdbool.h>

/* Split text (modified: blanks become NULs) into words at spaces, tabs and carriage returns;
 * returns the count, or max + 1 when there are more than max (unlike strtok, thread-safe). */
int rp__split_words(char *text, char **words, int max);
/* The index of w among the n words, or -1. */
int rp__word_index(const char *const *words, int n, const char *w);
/* A whole decimal number within [lo, hi], the whole text: sets *out and returns true. */
bool rp__parse_long(const char *text, long lo, long hi, long *out);

#endif
