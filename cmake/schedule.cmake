# schedule.cmake — how ctest runs the suite on a small machine (`make test`: ctest -j on 2
# cores), included last so that every test exists:
#  - the long tests start first: the Makefile hands ctest the order as its cost data
#    (Testing/Temporary/CTestCostData.txt), tests/test_costs.txt for make test when the build
#    has recorded none of its own, tests/soak_costs.txt for make soak, whose longest tests are
#    others. Not a COST property here: ctest lets a test's COST outrank its cost data, so one
#    fixed order would serve both runs. Tests that failed last time still go first (ctest's own
#    rule);
#  - every test gets a generous time limit (30 minutes, 40 for the browser test): reaching it
#    means a hang, never a slow or busy machine. No test asserts how fast anything runs (that
#    is what `make bench`, `make bench-server` and `make bench-web` are for).
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
