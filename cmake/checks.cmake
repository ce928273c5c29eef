# checks.cmake — the checks beyond the unit tests, included at the end of CMakeLists.txt:
#  - test labels: `threads` marks the tests that run work on several threads (the
#    ThreadSanitizer build runs exactly those: `make tsan`);
#  - the fuzz targets of tests/fuzz: with RP_FUZZ (clang) libFuzzer programs fuzz-NAME and a
#    short CTest run of each (label fuzz, RP_FUZZ_SECONDS each); otherwise, in every build,
#    fuzz_replay_NAME tests rerun each target over its committed corpus
#    (tests/fuzz/corpus/NAME), so `make test` keeps every input that ever broke a contract;
#    targets: state-GAME and action-GAME for every game, options, ai-spec, record, cards (option
#    files such as Rush the Wall's cards=@FILE) and protocol (`ramparts engine` lines);
#  - the no-allocation check of test_conformance (malloc and friends wrapped at link time);
#  - the golden files of tests/golden (the test golden; `make golden` rewrites them);
#  - the check for circles between files (scripts/check-circles.py), tested on a fixture.

# ---- labels ----
# server_test_ai_game runs `ramparts serve` with its worker pool (AI and hashing threads
# beside the network loop) through whole games against the AI.
foreach(threaded test_threads test_ai cli_arena cli_arena_engine cli_commands
                 server_test_ai_game)
  if(TEST ${threaded})
    set_tests_properties(${threaded} PROPERTIES LABELS threads)
  endif()
endforeach()

# ---- allocation counting ----
# legal_actions and apply must never allocate: test_conformance counts every call of these
# while it plays (its __wrap_* functions), for the code of the library linked into it.
if(TARGET test_conformance)
  target_link_options(test_conformance PRIVATE
    -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=strdup
    -Wl,--wrap=strndup -Wl,--wrap=aligned_alloc -Wl,--wrap=posix_memalign)
endif()

# ---- fuzz targets ----
set(RP_FUZZ_SECONDS 10 CACHE STRING "Seconds each fuzz target runs in the fuzz tests")
set(RP_FUZZ_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz)
# Every fuzz program (or corpus replayer): `cmake --build B --target fuzz-targets`.
add_custom_target(fuzz-targets)

# rp_fuzz_target(NAME SOURCE [GAME id]): the target NAME from tests/fuzz/SOURCE, for one game
# when GAME is given. EXTRA_SOURCES and LIBS add to it (the protocol target needs the CLI).
function(rp_fuzz_target name source)
  cmake_parse_arguments(FUZZ "" "GAME" "EXTRA_SOURCES;LIBS;DEFINITIONS" ${ARGN})
  if(RP_FUZZ)
    set(exe fuzz-${name})
    add_executable(${exe} ${RP_FUZZ_DIR}/${source} ${FUZZ_EXTRA_SOURCES})
    target_link_options(${exe} PRIVATE -fsanitize=fuzzer)
  else()
    set(exe fuzz_replay_${name})
    add_executable(${exe} ${RP_FUZZ_DIR}/${source} ${RP_FUZZ_DIR}/replay.c ${FUZZ_EXTRA_SOURCES})
  endif()
  add_dependencies(fuzz-targets ${exe})
  target_include_directories(${exe} PRIVATE src tests/fuzz)
  target_link_libraries(${exe} PRIVATE ramparts_lib ${FUZZ_LIBS})
  if(FUZZ_GAME)
    target_compile_definitions(${exe} PRIVATE RP_FUZZ_GAME="${FUZZ_GAME}")
  endif()
  if(FUZZ_DEFINITIONS)
    target_compile_definitions(${exe} PRIVATE ${FUZZ_DEFINITIONS})
  endif()
  set(corpus ${RP_FUZZ_DIR}/corpus/${name})
  if(RP_FUZZ)
    # New inputs go to the build tree; the committed corpus is only read.
    set(work ${CMAKE_BINARY_DIR}/fuzz-corpus/${name})
    file(MAKE_DIRECTORY ${work})
    add_test(NAME fuzz_${name}
             COMMAND ${exe} -max_total_time=${RP_FUZZ_SECONDS} -timeout=25 -rss_limit_mb=2560
                     -max_len=8192 -print_final_stats=1 ${work} ${corpus})
    set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz TIMEOUT 600)
  else()
    add_test(NAME fuzz_replay_${name} COMMAND ${exe} ${corpus})
    set_tests_properties(fuzz_replay_${name} PROPERTIES LABELS fuzz-replay TIMEOUT 600)
  endif()
endfunction()

# Each game's state and action notation: one target per game, named from its folder
# (src/games/castle-danger/ is the game castle-danger).
file(GLOB RP_GAME_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/games/*/game.c)
foreach(game_source ${RP_GAME_SOURCES})
  get_filename_component(game_dir ${game_source} DIRECTORY)
  get_filename_component(game ${game_dir} NAME)
  rp_fuzz_target(state-${game} fuzz_state.c GAME ${game})
  rp_fuzz_target(action-${game} fuzz_action.c GAME ${game})
endforeach()
rp_fuzz_target(options fuzz_options.c)
rp_fuzz_target(ai-spec fuzz_ai_spec.c)
rp_fuzz_target(record fuzz_record.c)
rp_fuzz_target(cards fuzz_cards.c)
# The protocol session of `ramparts engine` and the command-line helpers it uses.
rp_fuzz_target(protocol fuzz_protocol.c
               EXTRA_SOURCES ${CMAKE_SOURCE_DIR}/src/cli/cmd_engine.c
                             ${CMAKE_SOURCE_DIR}/src/cli/util.c)

# The seed inputs of the corpora (`make fuzz-seeds` writes them into tests/fuzz/corpus).
add_executable(fuzz_seeds ${RP_FUZZ_DIR}/seeds.c)
target_link_libraries(fuzz_seeds PRIVATE ramparts_lib)

# ---- golden files (tests/golden/golden.sh) ----
# The bench signature, fixed-seed searches and one playthrough per game, compared by the test
# `golden`; `make golden` (the target golden) rewrites them after an intended change.
add_executable(golden_gen ${CMAKE_SOURCE_DIR}/tests/golden_gen.c)
target_link_libraries(golden_gen PRIVATE ramparts_lib)
if(TARGET ramparts)
  add_test(NAME golden COMMAND bash ${CMAKE_SOURCE_DIR}/tests/golden/golden.sh check
                               $<TARGET_FILE:ramparts> $<TARGET_FILE:golden_gen>)
  set_tests_properties(golden PROPERTIES TIMEOUT 600)
  add_custom_target(golden
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/golden/golden.sh write $<TARGET_FILE:ramparts>
            $<TARGET_FILE:golden_gen>
    DEPENDS ramparts golden_gen
    COMMENT "Rewriting tests/golden")
endif()

# ---- circles between files (scripts/check-circles.py) ----
# The check itself, on a tiny tree it compiles: it finds and names loops of calls, includes
# and imports, and passes the same tree with the loops cut. The check of this tree reads a
# build's objects: `python3 scripts/check-circles.py build`.
add_test(NAME check_circles_fixture
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/circles/test_check_circles.py
                 ${CMAKE_SOURCE_DIR}/scripts/check-circles.py)
set_tests_properties(check_circles_fixture PROPERTIES TIMEOUT 120)

# ---- make mutants' list of equivalent mutants (scripts/mutants.py) ----
# Every entry of docs/testing.md names a mutant of today's rules.c (a stale one fails here,
# before make soak's mutation run would), and the check itself refuses stale and malformed
# entries on a tiny tree.
add_test(NAME check_mutants_list
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/mutants/test_mutants_list.py
                 ${CMAKE_SOURCE_DIR}/scripts/mutants.py)
set_tests_properties(check_mutants_list PROPERTIES TIMEOUT 120)

# ---- the programs the engine's own tests start ----
# engine-tests builds what the tests test_*, cli_* and golden run: each C unit test, the tool
# with its helpers, golden_gen, analyze_check (tests/cli/analyze.sh) and the shared library
# (analyze.sh reads its exported symbols; play.sh installs it). CI's coverage step runs those
# tests alone and builds this target instead of every one (Makefile COVERAGE_BUILD): not the
# fuzz replayers, the Python module, the load generator or the benchmarks, none of which it runs.
add_custom_target(engine-tests)
file(GLOB RP_UNIT_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/test_*.c)
foreach(test_source ${RP_UNIT_TEST_SOURCES})
  get_filename_component(test_name ${test_source} NAME_WE)
  add_dependencies(engine-tests ${test_name})
endforeach()
add_dependencies(engine-tests ramparts golden_gen analyze_check ramparts_shared)

# ---- make soak's seeded mutant sample (scripts/mutants.py) ----
# RAMPARTS_SOAK_MUTANTS mutants of every game's rules.c (make soak sets SOAK_MUTANTS), in a tree
# and build of its own under this build directory. A test rather than a step after the soak's
# ctest, so that it runs beside the soak's waiting tests (servers, timers, pages) on the cores
# they leave idle. At the normal priority: its verdict on a mutant that hangs is a time limit
# (ten times the unmutated programs' time, and a minute), which a starved run could reach.
# Only in make soak (Makefile SOAK_ONLY and SOAK_TESTS); the sanitizer build only, as before.
if(RP_SANITIZE)
  add_test(NAME mutants_sample
           COMMAND bash -c "exec \"$0\" \"$1\" --jobs 2 --sanitize --max \"\${RAMPARTS_SOAK_MUTANTS:-6}\" --dir \"$2\""
                   ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/mutants.py
                   ${CMAKE_BINARY_DIR}/mutants-soak)
  # Its own limit: 585 s beside the soak's other tests (session 61), more than its listed cost.
  set_tests_properties(mutants_sample PROPERTIES LABELS soak TIMEOUT 7200)
  # The orders make test and make soak hand ctest (tests/test_costs.txt, tests/soak_costs.txt)
  # name tests of this build, the one with every test: a renamed test would drop out silently.
  add_test(NAME check_cost_files
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/schedule/test_cost_files.py
                   ${CMAKE_CTEST_COMMAND} ${CMAKE_BINARY_DIR}
                   ${CMAKE_SOURCE_DIR}/tests/test_costs.txt ${CMAKE_SOURCE_DIR}/tests/soak_costs.txt)
  set_tests_properties(check_cost_files PROPERTIES TIMEOUT 120)
endif()
