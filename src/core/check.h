/* check.h — internal: debug checks in two levels, as Lua and Stockfish keep them. rp_assert
 * states an invariant and compiles to nothing in release builds (NDEBUG); RP_DEBUG_STATE_OK
 * runs a game's full state_ok validator after an apply in debug and sanitizer builds, so a
 * rule bug that breaks an invariant stops at the move that broke it: every game's table
 * applies through RP_CHECKED_APPLY, which does so. */
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

/* A game's table (game.c) applies through these, so every apply made through the table is
 * checked in debug builds while the rules (rules.c) never name the table above them:
 * RP_CHECKED_APPLY_DEFINE(wa_apply, rp_walls_and_armies) before the table defines, in debug
 * builds, wa_apply_checked (wa_apply, then RP_DEBUG_STATE_OK); .apply = RP_CHECKED_APPLY(wa_apply)
 * names it, or wa_apply itself in release builds (nothing added to the hot path). */
#ifdef NDEBUG
#define RP_CHECKED_APPLY_DEFINE(apply, game)
#define RP_CHECKED_APPLY(apply) apply
#else
#define RP_CHECKED_APPLY_DEFINE(apply, game)                                                       \
    static void apply##_checked(void *st, rp_action action)                                        \
    {                                                                                              \
        apply(st, action);                                                                         \
        RP_DEBUG_STATE_OK(&(game), st);                                                            \
    }
#define RP_CHECKED_APPLY(apply) apply##_checked
#endif

#endif
