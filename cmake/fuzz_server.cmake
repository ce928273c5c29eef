# fuzz_server.cmake — the server's message-handler fuzz target (tests/fuzz/fuzz_server_messages.c).
# With RP_FUZZ_SERVER or RP_FUZZ (clang only; `make fuzz` sets RP_FUZZ) it builds fuzz-server-messages, a libFuzzer program, and a
# short CTest run of it; in every build, fuzz_replay_server_messages reruns the committed corpus
# tests/fuzz/corpus/server-messages through the same entry point (under ASan in `make test`).
option(RP_FUZZ_SERVER "Build the libFuzzer target over the server's message handler (clang)" OFF)
set(RP_FUZZ_SERVER_CORPUS ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/server-messages)

add_executable(fuzz_replay_server_messages tests/fuzz/fuzz_server_messages.c
               tests/fuzz/replay_server_messages.c)
target_include_directories(fuzz_replay_server_messages PRIVATE src)
target_link_libraries(fuzz_replay_server_messages PRIVATE ramparts_lib ramparts_server)
# A cheap stand-in for argon2 (see the target's comment): the same in replay and fuzzing.
set(RP_FUZZ_SERVER_WRAP -Wl,--wrap=crypto_pwhash_str -Wl,--wrap=crypto_pwhash_str_verify)
target_link_options(fuzz_replay_server_messages PRIVATE ${RP_FUZZ_SERVER_WRAP})
add_test(NAME fuzz_replay_server_messages
         COMMAND fuzz_replay_server_messages ${RP_FUZZ_SERVER_CORPUS})
set_tests_properties(fuzz_replay_server_messages PROPERTIES TIMEOUT 600)

if(RP_FUZZ_SERVER OR RP_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RP_FUZZ_SERVER needs clang: CC=clang cmake -DRP_FUZZ_SERVER=ON ...")
  endif()
  # Coverage feedback from the engine and the server, not only from the target's own file.
  target_compile_options(ramparts_objects PRIVATE -fsanitize=fuzzer-no-link)
  target_compile_options(ramparts_server PRIVATE -fsanitize=fuzzer-no-link)
  add_executable(fuzz-server-messages tests/fuzz/fuzz_server_messages.c)
  target_include_directories(fuzz-server-messages PRIVATE src)
  target_compile_options(fuzz-server-messages PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz-server-messages PRIVATE -fsanitize=fuzzer ${RP_FUZZ_SERVER_WRAP})
  target_link_libraries(fuzz-server-messages PRIVATE ramparts_lib ramparts_server)
  # scripts/fuzz.sh (make fuzz) runs every fuzz-* program of fuzz-targets on its corpus.
  add_dependencies(fuzz-targets fuzz-server-messages)
  # New inputs go to the build tree; the committed corpus is only read.
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz-corpus/server-messages)
  add_test(NAME fuzz_server_messages
           COMMAND fuzz-server-messages -max_total_time=${RP_FUZZ_SECONDS} -timeout=25 -max_len=8192
                   -print_final_stats=1 ${CMAKE_BINARY_DIR}/fuzz-corpus/server-messages
                   ${RP_FUZZ_SERVER_CORPUS})
  set_tests_properties(fuzz_server_messages PROPERTIES LABELS fuzz TIMEOUT 600)
endif()
