/* check.h — internal: debug checks in two levels, as Lua and Stockfish keep them. rp_assert
 * states an invariant and compiles to nothing in release builds (NDEBUG); RP_DEBUG_STATE_OK
 * runs a game's full state_ok validator after an apply in debug and sanitizer builds, so a
 * rule bug that breaks an invariant stops at the move that broke it. */
#ifndef RP_CORE_CHECK_H
#define RP_CORE_CHECK_H

#include "ramparts/game.h"

/* Print "file:line: message" to stderr and abort. Never returns. */
_Noreturn void rp__panic(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef NDEBUG
#define rp_assert(cond) ((void)0)
#define RP_DEBUG_STATE_OK(game, st) ((void)0)
#else
#define rp_assert(cond)                                                                            \
    ((cond) ? (void)0 : rp__panic(__FILE__, __LINE__, "assertion failed: %s", #cond))
#define RP_DEBUG_STATE_OK(game, st) rp__debug_state_ok((game), (st), __FILE__, __LINE__)
#endif

/* The body of RP_DEBUG_STATE_OK: panics with the broken invariant and the state notation. */
void rp__debug_state_ok(const rp_game *game, const void *st, const char *file, int line);

#endif
