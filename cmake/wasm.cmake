# wasm.cmake — the engine compiled to WebAssembly for the browser client's offline play
# (docs/wasm.md): Debian's cJSON source fetched once into the build tree
# (scripts/cjson-source.sh), then src/wasm/CMakeLists.txt built as an external project with
# clang for wasm32-wasi (cmake/wasm32-wasi.cmake). The result is RP_WASM_FILE.
include(ExternalProject)
set(RP_WASM_DIR ${CMAKE_BINARY_DIR}/wasm)
set(RP_WASM_FILE ${RP_WASM_DIR}/build/ramparts.wasm)
set(RP_CJSON_SOURCE ${RP_WASM_DIR}/cjson-source/cjson/cJSON.c)
add_custom_command(OUTPUT ${RP_CJSON_SOURCE}
  COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/cjson-source.sh ${RP_WASM_DIR}/cjson-source
  DEPENDS ${CMAKE_SOURCE_DIR}/scripts/cjson-source.sh
  COMMENT "Fetching Debian's cJSON source for the WebAssembly build")
add_custom_target(ramparts_wasm_inputs DEPENDS ${RP_CJSON_SOURCE} ${RP_RULES_C} ${RP_RTW_CARDS_C})
ExternalProject_Add(ramparts_wasm
  SOURCE_DIR ${CMAKE_SOURCE_DIR}/src/wasm
  BINARY_DIR ${RP_WASM_DIR}/build
  CMAKE_ARGS -DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/cmake/wasm32-wasi.cmake
             -DCMAKE_BUILD_TYPE=Release -DRP_SOURCE_DIR=${CMAKE_SOURCE_DIR}
             -DRP_GENERATED_DIR=${CMAKE_BINARY_DIR}/generated
             -DRP_CJSON_DIR=${RP_WASM_DIR}/cjson-source
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${RP_WASM_FILE}
  DEPENDS ramparts_wasm_inputs)
