/* datafile.h — internal: reading the data files a game takes through a text option (the
 * command line's key=@FILE, e.g. Rush the Wall's card file): lines of a few words, '#'
 * starting a comment, blank lines skipped, every message naming the file and the line. What
 * each line means is the game's: it gets the words of one line at a time. */
#ifndef RP_CORE_DATAFILE_H
#define RP_CORE_DATAFILE_H

#include "ramparts/game.h"

/* Where a line is, for messages. */
typedef struct rp_datafile_line {
    const char *source; /* the file's name as the user gave it */
    int number;         /* 1-based */
} rp_datafile_line;

/* One line's words (1 to max_words of them, modifiable): RP_OK, or < 0 with err filled
 * (rp__datafile_fail says where). */
typedef int (*rp_datafile_reader)(void *ctx, char **words, int count, const rp_datafile_line *line,
                                  rp_error *err);

/* Read every line of text (lines up to 255 characters, at most max_words words, at most 8),
 * calling read for each that has words. Returns RP_OK, or the first refusal: RP_EPARSE for a
 * line too long or with too many words, else what read returned. */
int rp__datafile_read(const char *text, const char *source, int max_words, rp_datafile_reader read,
                      void *ctx, rp_error *err);

/* Refuse with "<source> line <number>: " and the message; returns RP_EPARSE. */
int rp__datafile_fail(const rp_datafile_line *line, rp_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#ifdef __clang_analyzer__
/* As rp_fail in game.h: the analyzer learns that this returns RP_EPARSE. */
#define rp__datafile_fail(line, err, ...) (rp__datafile_fail((line), (err), __VA_ARGS__), RP_EPARSE)
#endif

#endif
