# schedule.cmake — how ctest runs the suite on a small machine (`make test`: ctest -j on 2
# cores), included last so that every test exists:
#  - the long tests start first (COST: about their seconds under ASan on an idle 2-core
#    machine at make test's sizes; those that mostly wait, such as the kill -9 tests, count
#    their waits too), so that none of them starts near the end and keeps the
#    run waiting on it alone; tests that failed last time still go first (ctest's own rule);
#  - every test gets a generous time limit (30 minutes, 40 for the browser test): reaching it
#    means a hang, never a slow or busy machine. No test asserts how fast anything runs (that
#    is what `make bench`, `make bench-server` and `make bench-web` are for).
set(RP_TEST_COSTS
    web_client_browser 170
    python 60
    web_client_offline 44
    web_client_players 40
    web_client_movelist 40
    web_client_tournaments 25
    web_client_coach 10
    install_python 33
    cli_analyze 30
    load_test_kill9_load 28
    server_test_cluster 25
    server_test_endings 37
    server_test_soak 21
    server_test_cluster_failover 20
    server_test_cluster_faults 45
    server_test_commit_cut 8
    server_test_cluster_presence 20
    test_conformance 20
    test_rush_the_wall 19
    load_test_abuse 19
    cli_leaks 15
    cli_arena_engine 16
    cli_undo 12
    test_observation 10
    test_review 3
    test_tournament 1
    cli_review 6
    server_test_review 15
    server_test_postgres 10
    test_powercut 8
    server_test_protocol_doc 10
    server_test_login_flood 10
    server_test_pools 20
    server_test_pools_cluster 30
    server_test_correspondence_cluster 15
    server_test_challenges 8
    server_test_tournaments 30
    server_test_tournaments_cluster 12
    server_test_tournaments_late 10
    server_test_tournaments_players 15
    server_test_tournaments_tables 8
    server_test_tournament_arena 15
    server_test_tournament_schedule 12
    cli_tournaments 11
    server_test_tournament_schedule_cluster 21
    server_test_challenges_cluster 20
    server_test_cluster_mine 10
    check_mutants_list 1)
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
