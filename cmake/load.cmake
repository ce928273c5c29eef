# load.cmake — the load generator of tests/load (loadgen, libwebsockets' client) and the load,
# fault and abuse tests that drive `ramparts serve` with it (tests/load/test_*.py, in
# `make test` at small sizes); `make bench-server` runs tests/load/bench_server.py at full size.
add_executable(loadgen tests/load/loadgen.c)
# The library only for its registry: the games the pairs play in turn.
target_link_libraries(loadgen PRIVATE ramparts_lib PkgConfig::LWS PkgConfig::LIBUV PkgConfig::CJSON
                      m)
file(GLOB RP_LOAD_TESTS CONFIGURE_DEPENDS tests/load/test_*.py)
foreach(script ${RP_LOAD_TESTS})
  get_filename_component(script_name ${script} NAME_WE)
  add_test(NAME load_${script_name}
           COMMAND /usr/bin/python3 ${script} --ramparts $<TARGET_FILE:ramparts>
                   --checker $<TARGET_FILE:server_frames_check> --loadgen $<TARGET_FILE:loadgen>)
  set_tests_properties(load_${script_name} PROPERTIES TIMEOUT 900
                       ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
endforeach()
