/* ramparts/export.h — RP_EXTERN marks the library's public functions and data. The library is
 * built with hidden visibility by default, so the shared libramparts exports exactly what the
 * public headers declare with RP_EXTERN and nothing of its internals (as libuv's UV_EXTERN). */
#ifndef RAMPARTS_EXPORT_H
#define RAMPARTS_EXPORT_H

#if defined(_WIN32)
/* RP_BUILDING_SHARED while building the DLL, RP_USING_SHARED when linking against it. */
#if defined(RP_BUILDING_SHARED)
#define RP_EXTERN __declspec(dllexport)
#elif defined(RP_USING_SHARED)
#define RP_EXTERN __declspec(dllimport)
#else
#define RP_EXTERN /* a static library */
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define RP_EXTERN __attribute__((visibility("default")))
#else
#define RP_EXTERN
#endif

#endif
