/* inline.h — RP_FORCE_INLINE: inline a function at every call, whatever the optimisation (the
 * games' narrated functions, inlined into apply with no story, so the narration leaves the hot
 * path). Coverage builds (RP_COVERAGE_BUILD, -O0: CMakeLists.txt) keep one copy of each, whose
 * branches are counted against the source as written. */
#ifndef RAMPARTS_CORE_INLINE_H
#define RAMPARTS_CORE_INLINE_H

#if defined(__GNUC__) && !defined(RP_COVERAGE_BUILD)
#define RP_FORCE_INLINE __attribute__((always_inline))
#else
#define RP_FORCE_INLINE
#endif

#endif
