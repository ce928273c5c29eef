# schedule.cmake — how ctest runs the suite on a small machine (`make test`: ctest -j on 2
# cores), included last so that every test exists:
#  - the long tests start first: the Makefile hands ctest the order as its cost data
#    (Testing/Temporary/CTestCostData.txt), tests/test_costs.txt for make test when the build
#    has recorded none of its own, tests/soak_costs.txt for make soak, whose longest tests are
#    others. Not a COST property here: ctest lets a test's COST outrank its cost data, so one
#    fixed order would serve both runs. Tests that failed last time still go first (ctest's own
#    rule);
#  - every test gets a generous time limit (30 minutes, 40 for the browser test, and at least
#    ten times its time in make soak, tests/soak_costs.txt: cli_leaks took 438 s there in one
#    order and 752 s in another, so a machine five times slower would pass 30 minutes):
#    reaching it means a hang, never a slow or busy machine. No test asserts how fast anything
#    runs (that is what `make bench`, `make bench-server` and `make bench-web` are for).
file(STRINGS ${CMAKE_SOURCE_DIR}/tests/soak_costs.txt RP_SOAK_COST_LINES REGEX "^[a-z0-9_]+ [0-9]+$")
foreach(line ${RP_SOAK_COST_LINES})
  string(REPLACE " " ";" fields "${line}")
  list(GET fields 0 test)
  list(GET fields 1 seconds)
  math(EXPR RP_SOAK_LIMIT_${test} "10 * ${seconds}")
endforeach()
get_property(RP_ALL_TESTS DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY TESTS)
foreach(test ${RP_ALL_TESTS})
  set(limit 1800)
  if(test STREQUAL "web_client_browser")
    set(limit 2400)
  endif()
  if(DEFINED RP_SOAK_LIMIT_${test} AND RP_SOAK_LIMIT_${test} GREATER limit)
    set(limit ${RP_SOAK_LIMIT_${test}})
  endif()
  get_test_property(${test} TIMEOUT current)
  if(NOT current OR current LESS limit)
    set_tests_properties(${test} PROPERTIES TIMEOUT ${limit})
  endif()
endforeach()
