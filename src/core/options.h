/* options.h — internal: what the core's files share about the games' option tables (game.c
 * checks and writes options; describe.c lists them for the server and the browser). */
#ifndef RP_CORE_OPTIONS_H
#define RP_CORE_OPTIONS_H

#include "ramparts/game.h"

/* The index-th word of a choice's words "a|b|c" copied into buf ("?" past the last). */
void rp__choice_word(const char *choices, int64_t index, char *buf, size_t size);

#endif
