# schedule.cmake — how ctest runs the suite on a small machine (`make test`: ctest -j on 2
# cores), included last so that every test exists:
#  - the long tests start first (COST: their mean seconds in make test, ctest -j4 on 2 cores,
#    as ctest's own Testing/Temporary/CTestCostData.txt recorded them over three runs on
#    2026-12-07, waits included; cli_peeking, cli_hotseat and cli_leaks halved with their
#    sizes since), so that none of them starts near the end and keeps the run waiting on it
#    alone. A clean clone (CI) has no cost data of its own, so a test missing here would start
#    in no particular order: every test of 5 s or more is listed. Tests that failed last time
#    still go first (ctest's own rule);
#  - every test gets a generous time limit (30 minutes, 40 for the browser test): reaching it
#    means a hang, never a slow or busy machine. No test asserts how fast anything runs (that
#    is what `make bench`, `make bench-server` and `make bench-web` are for).
set(RP_TEST_COSTS
    web_client_browser 243 python 201 cli_commands 100 web_client_movelist 86
    fuzz_replay_server_messages 80 server_test_full_games 78 server_test_every_option 76
    server_test_endings 74 web_client_offline 71 cli_peeking 67 load_test_kill9_load 55
    cli_play 54 cli_protocol 53 install_python 52 web_client_players 52 cli_analyze 51
    server_test_cluster_faults 42 server_test_cluster 38 cli_solve 37
    server_test_pools_cluster 35 test_server_core 34 cli_undo 28 web_client_tournaments 28
    cli_hotseat 27 load_test_load 25 server_test_tournaments 25
    server_test_challenges_cluster 24 wasm_parity 22 server_test_soak 21
    server_test_tournament_schedule_cluster 21 server_test_cluster_presence 20
    server_test_pools 20 test_conformance 20 load_test_abuse 19 cli_arena_engine 18
    web_client_check 18 server_test_cluster_failover 17 cli_leaks 16 test_rush_the_wall 16
    server_test_postgres 15 server_test_slow_client 15 load_test_flood 13
    server_test_tournament_arena 13 server_test_tournaments_players 13 cli_light 12
    server_test_correspondence_cluster 12 server_test_protocol_doc 12 test_king_of_danger 12
    cli_tournaments 11 server_test_cluster_mine 11 server_test_review 11
    server_test_tournaments_cluster 11 server_test_tournaments_late 11
    server_test_tournament_schedule 10 test_observation 10 server_test_correspondence 9
    server_test_crash 9 install_example 8 server_test_expiry 8 server_test_keepalive 8
    server_test_login_flood 8 server_test_tournaments_tables 8 test_castle_danger 8
    web_client_coach 8 server_test_challenges 7 server_test_lobby 7 test_powercut 7 test_solve 7
    test_walls_and_armies 7 cli_review 6 server_test_accounts_http 6 server_test_commit_cut 6
    server_test_password 5 server_test_protocol_edges 5 test_review 3 check_mutants_list 1
    test_tournament 1)
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
