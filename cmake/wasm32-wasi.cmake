# wasm32-wasi.cmake — the CMake toolchain of the WebAssembly build (src/wasm/CMakeLists.txt):
# Debian's clang and wasm-ld for the target wasm32-wasi over Debian's wasi-libc (headers in
# /usr/include/wasm32-wasi, libraries in /usr/lib/wasm32-wasi) and compiler-rt's wasm32
# builtins. src/wasm/CMakeLists.txt compiles with -nostdlibinc, which keeps the host's
# /usr/include out of the search path.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_C_FLAGS_INIT "-isystem /usr/include/wasm32-wasi")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
