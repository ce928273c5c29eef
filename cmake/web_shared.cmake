# web_shared.cmake — with RP_WEB_FROM (a build directory that built its target web_parts), this
# build takes that directory's npm install, report script, WebAssembly engine and browser
# client instead of making its own: CI's five build directories would otherwise each run
# `npm ci`, fetch cJSON's source and build the same WebAssembly engine and bundles again
# (about 3 minutes of processor time in all). Nothing here writes into RP_WEB_FROM, so builds
# sharing it may run at once. Sets what CMakeLists.txt's own web rules set: RP_NPM_STAMP,
# RP_REPORT_JS, RP_WASM_FILE, RP_CLIENT_DIST, RP_CLIENT_STAMP, and the targets web_npm_ci and
# ramparts_wasm (empty here). The Makefile passes RP_WEB_FROM on every configure, empty unless
# WEB_FROM is set, so a build directory never keeps a shared copy by accident.
get_filename_component(RP_WEB_FROM_DIR "${RP_WEB_FROM}" ABSOLUTE)
if(RP_WEB_FROM_DIR STREQUAL CMAKE_BINARY_DIR)
  message(FATAL_ERROR "RP_WEB_FROM names this build directory: it must make its own web parts")
endif()
set(RP_NPM_STAMP ${RP_WEB_FROM_DIR}/web/npm-ci.stamp)
set(RP_REPORT_JS ${RP_WEB_FROM_DIR}/web/report.js)
set(RP_WASM_FILE ${RP_WEB_FROM_DIR}/wasm/build/ramparts.wasm)
set(RP_CLIENT_DIST ${RP_WEB_FROM_DIR}/web/dist)
set(RP_CLIENT_STAMP ${RP_WEB_FROM_DIR}/web/client.stamp)
foreach(part ${RP_NPM_STAMP} ${RP_REPORT_JS} ${RP_WASM_FILE} ${RP_CLIENT_STAMP})
  if(NOT EXISTS ${part})
    message(FATAL_ERROR "RP_WEB_FROM=${RP_WEB_FROM}: ${part} is missing "
                        "(build that directory's target web_parts first)")
  endif()
endforeach()
# The tests and tests/cli/analyze.sh find the npm packages in this build's web/node_modules
# (a build directory that made its own before keeps them no longer).
if(IS_DIRECTORY ${RP_WEB_BUILD}/node_modules AND NOT IS_SYMLINK ${RP_WEB_BUILD}/node_modules)
  file(REMOVE_RECURSE ${RP_WEB_BUILD}/node_modules)
endif()
file(CREATE_LINK ${RP_WEB_FROM_DIR}/web/node_modules ${RP_WEB_BUILD}/node_modules SYMBOLIC)
add_custom_target(web_npm_ci)
add_custom_target(ramparts_wasm)
