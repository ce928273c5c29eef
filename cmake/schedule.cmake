# schedule.cmake — how ctest runs the suite on a small machine (`make test`: ctest -j on 2
# cores), included last so that every test exists:
#  - the long tests start first (COST: about their seconds under ASan on an idle 2-core
#    machine; those that mostly wait, such as the keepalive and kill -9 tests, count their
#    waits too), so that none of them starts near the end and keeps the run waiting on it
#    alone; tests that failed last time still go first (ctest's own rule);
#  - every test gets a generous time limit (30 minutes, 40 for the browser test): reaching it
#    means a hang, never a slow or busy machine. No test asserts how fast anything runs (that
#    is what `make bench`, `make bench-server` and `make bench-web` are for).
set(RP_TEST_COSTS
    web_client_browser 220
    load_test_kill9_load 90
    server_test_keepalive 52
    cli_analyze 44
    install_python 40
    test_conformance 35
    cli_leaks 30
    test_rush_the_wall 30
    web_client_offline 30
    cli_undo 30
    python 30
    load_test_load 30
    server_test_soak 25
    test_observation 20)
while(RP_TEST_COSTS)
  list(POP_FRONT RP_TEST_COSTS test cost)
  if(TEST ${test})
    set_tests_properties(${test} PROPERTIES COST ${cost})
  endif()
endwhile()

get_property(RP_ALL_TESTS DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY TESTS)
foreach(test ${RP_ALL_TESTS})
  set(limit 1800)
  if(test STREQUAL "web_client_browser")
    set(limit 2400)
  endif()
  get_test_property(${test} TIMEOUT current)
  if(NOT current OR current LESS limit)
    set_tests_properties(${test} PROPERTIES TIMEOUT ${limit})
  endif()
endforeach()
