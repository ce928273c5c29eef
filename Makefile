# Thin wrapper over CMake: `make` (release build), `make test` (ASan+UBSan build, all tests),
# `make soak` (the same tests at full property-run sizes), `make tsan` (ThreadSanitizer build,
# the threaded tests), `make fuzz` (each libFuzzer target for FUZZ_SECONDS), `make golden`
# (rewrite the golden files after an intended change), `make check` (everything CI runs:
# .ci/run, which makes its builds ahead with `make web-parts`, `tsan-build`, `fuzz-build` and
# `coverage-build`), `make play` (interactive game; built first, the tool alone), `make serve` (the
# online server), `make cluster` (three servers on PostgreSQL behind HAProxy), `make bench`
# (speed figures), `make bench-server` (the server under load), `make bench-cluster` (the same
# on 1 to 3 nodes), `make bench-web` (the browser client's size and first render, the engine's
# speed in WebAssembly), `make install` (the tool, headers, static and shared library and
# pkg-config file under PREFIX), `make python` (the Python package in build/python), `make
# bench-python` (C, Python and VectorEnv speed side by side), `make bench-instructions`
# (instructions per action and per search iteration, callgrind), `make bench-review` (the time
# to review a whole game of each kind), `make ai-ladder` (the AI levels' arena table of
# docs/ai.md, then the beginner ladder), `make beginner-ladder` (the coach follower and easy
# against the beginner level), `make ceiling` (the oracle against random and each level),
# `make reference REF=C` (a Release `ramparts` of commit C in build-ref/, to play against).
# Dependencies install on demand.
GAME ?= danger-at-the-walls
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
LISTEN ?= 127.0.0.1:8080
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 15

.PHONY: all deps sanitize-build web-parts test soak tsan tsan-build fuzz fuzz-build fuzz-seeds \
        golden release-clang check play \
        serve cluster bench bench-instructions bench-review ai-ladder beginner-ladder ceiling \
        bench-server bench-cluster bench-tournament reference \
        bench-web python bench-python install clean coverage coverage-build mutants

all: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DRP_LIGHT_TOOL=OFF $(WEB_FROM_ARG) >/dev/null
	cmake --build build -j $(JOBS)

deps:
	@bash scripts/install-deps.sh

# WEB_FROM=DIR: the builds below take the npm install, report script, WebAssembly engine and
# browser client of build directory DIR (its target web_parts, built first) instead of making
# their own (cmake/web_shared.cmake); CI sets it to build-sanitize, which always makes its own.
# Passed on every configure, so an unset WEB_FROM gives a build its own parts again.
WEB_FROM ?=
WEB_FROM_ARG = -DRP_WEB_FROM=$(WEB_FROM)
SANITIZE_CONFIGURE = cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DRP_SANITIZE=ON \
  -DRP_WEB_FROM= >/dev/null
sanitize-build: deps
	$(SANITIZE_CONFIGURE)
	cmake --build build-sanitize -j $(JOBS)

# The browser-side parts alone, in build-sanitize: CI builds these first (WEB_FROM).
web-parts: deps
	$(SANITIZE_CONFIGURE)
	cmake --build build-sanitize -j $(JOBS) --target web_parts

# Tests that run only in make soak (SOAK_ONLY): each costs more than make test's time allows
# and checks what a smaller test already covers in part (the tournaments' start on a cluster:
# its claim is tested over PostgreSQL in test_server_store), or checks a way of building the
# library rather than the code make test runs (install_python: pip install ./python compiles
# the whole library a second time, at -O2 without the sanitizers, 36 s of processor time and
# about a minute of make test's time; make test's `python` test runs the package built here).
SOAK_ONLY = ^(server_test_tournament_schedule_cluster|install_python|mutants_sample)$$
# make test runs twice as many tests at once as there are cores: its browser, cluster and
# server tests mostly wait (for pages, servers, timers), and with one test a core the two
# cores stood about half idle (measured: user+sys 16 min over a 13.7-minute run of 2 cores).
TEST_JOBS ?= $(shell echo $$(( $(JOBS) * 2 )))
# The order tests start in, longest first, is ctest's cost data (cmake/schedule.cmake):
# tests/test_costs.txt when build-sanitize has recorded none of its own (a clean clone), then
# what ctest records. COSTS_AS_DATA turns a costs file ("test seconds" lines) into that format.
COST_DATA = build-sanitize/Testing/Temporary/CTestCostData.txt
COSTS_AS_DATA = awk '!/^\#/ && NF == 2 { print $$1, 1, $$2 } END { print "---" }'
test: sanitize-build
	@mkdir -p $(dir $(COST_DATA)); [ -f $(COST_DATA) ] || $(COSTS_AS_DATA) tests/test_costs.txt > $(COST_DATA)
	ctest --test-dir build-sanitize --output-on-failure -j $(TEST_JOBS) -E '$(SOAK_ONLY)'

# Every property run at its full size (6,000 random games a game and player count:
# RAMPARTS_SOAK=1, RP_TEST_SOAK_GAMES in tests/support.h; make test plays at most 150), the
# command-line harnesses larger (leaks 12 times, hotseat 8 times, undo 4 times, peeking twice), the server's
# five-minute soak (resident set and WAL flat), every option combination played to its end,
# the browser's two-person and guided games of the three games make test does not play to the
# end, the move list's review page and offline list in the three games make test leaves out
# there, the offline games of Rush the Wall and Castle Danger (make test: the three card
# games), the Python searches' ten games and the observation tensors' second seed (only the
# Python tests marked `sized`), the cluster's rolling and PostgreSQL restarts, its fault rounds for three minutes
# (make test: 3 rounds), the tournament cluster test's Swiss of 12 over 4 rounds with two
# kills and a set across nodes (make test: 6 over 3, one), 300 simulated power cuts (make test 8), 20 kill -9s under
# load (make test 10), issue 49's flood benchmark for 60 s (make test 4), and an arena of 50
# bots over 8 waves on the three-node cluster (make test: 10 over 4 on one server): the tests whose size the environment sets (README, Tests and checks), and the SOAK_ONLY tests. The tests of those families whose size nothing
# sets (SOAK_SAME: the same run as make test's) are left out rather than run again; the browser
# and Python suites leave out their own such parts under RAMPARTS_SOAK=1.
SOAK_TESTS = ^(test_|cli_|python$$|install_python$$|mutants_sample$$|web_client_browser|web_client_movelist|web_client_offline|web_client_tournaments|server_test_soak|server_test_tournament_arena|server_test_every_option|server_test_cluster_failover|server_test_cluster_faults|server_test_tournaments_cluster|server_test_tournament_schedule_cluster|load_test_kill9_load|load_test_flood)
SOAK_SAME = ^(test_(ai|core|threads|analyze_stats|wasm_api|server_.*|tournament|review|solve)|cli_(analyze|arena|arena_engine|commands|light|play|protocol|review|solve|terminal|tournaments))$$
# The soak includes make mutants' fixed sample of SOAK_MUTANTS a game (below) as the test
# mutants_sample (cmake/checks.cmake), run beside the others. It runs TEST_JOBS tests at once
# as make test does: its browser and cluster tests mostly wait too. Its tests start longest
# first by the soak's own times (tests/soak_costs.txt, handed to ctest as its cost data for
# this run; make test's is put back after, and kept when an interrupted soak left it aside),
# not by make test's, which started cli_leaks and
# server_test_soak, two of the soak's longest, near its end (measured: 1,109 s).
soak: sanitize-build
	@mkdir -p $(dir $(COST_DATA)); \
	  if [ -f $(COST_DATA) ] && [ ! -f $(COST_DATA).make-test ]; then mv $(COST_DATA) $(COST_DATA).make-test; fi; \
	  $(COSTS_AS_DATA) tests/soak_costs.txt > $(COST_DATA); \
	  RAMPARTS_SOAK=1 RAMPARTS_CLI_GAMES=48 RAMPARTS_CLI_UNDO_SEEDS=160 \
	  RAMPARTS_CLI_HOTSEAT_SEEDS=24 RAMPARTS_CLI_PEEK_SEEDS=4 RAMPARTS_SOAK_MUTANTS=$(SOAK_MUTANTS) \
	  ctest --test-dir build-sanitize --output-on-failure \
	  -j $(TEST_JOBS) -R '$(SOAK_TESTS)' -E '$(SOAK_SAME)'; rc=$$?; \
	  rm -f $(COST_DATA); \
	  if [ -f $(COST_DATA).make-test ]; then mv $(COST_DATA).make-test $(COST_DATA); fi; \
	  exit $$rc

# A mutation run over each game's rules.c (scripts/mutants.py: comparisons flipped, && and ||
# swapped, negations dropped, constants moved by one; MUTANTS per game, a seeded sample), each
# mutant built in build-mutants with ASan+UBSan (as make test: a mutant that only overruns an
# array is caught there) and run against its game's test program and test_conformance; fails
# on a surviving mutant docs/testing.md does not list as equivalent, on a listed one that is
# killed, and on a stale entry of that list. make soak runs SOAK_MUTANTS a game, the same
# seeded sample each time (docs/testing.md has its measured time).
MUTANTS ?= 40
SOAK_MUTANTS ?= 6
MUTANT_GAMES ?= castle-danger,danger-at-the-walls,king-of-danger,rush-the-wall,walls-and-armies
MUTANTS_RUN = nice -n 19 /usr/bin/python3 scripts/mutants.py --games $(MUTANT_GAMES) \
  --jobs $(JOBS) --sanitize
mutants: deps
	$(MUTANTS_RUN) --max $(MUTANTS)


# Line and branch coverage of src/ per folder (gcov, gcovr: scripts/coverage.py) by the tests
# matching COVERAGE_TESTS (default: every test of make test but the installs, whose exported
# symbols gcov's runtime would add to), with the floors CI holds
# src/games and src/engine to (COVERAGE_FLOORS; README, Tests and checks, has the figures).
# COVERAGE_BUILD names what is built (default: every target); CI, which runs the engine's own
# tests alone, builds engine-tests (cmake/checks.cmake: the programs those tests start), and
# builds it ahead with `make coverage-build` in the background (.ci/run).
COVERAGE_TESTS ?= .
COVERAGE_BUILD ?= all
COVERAGE_FLOORS ?= --floor src/games=95,85 --floor src/engine=86,75
coverage-build: deps
	cmake -S . -B build-coverage -DCMAKE_BUILD_TYPE=Debug -DRP_COVERAGE=ON $(WEB_FROM_ARG) >/dev/null
	cmake --build build-coverage -j $(JOBS) --target $(COVERAGE_BUILD)

coverage: coverage-build
	find build-coverage -name '*.gcda' -delete
	ctest --test-dir build-coverage --output-on-failure -j $(JOBS) -R '$(COVERAGE_TESTS)' \
	  -E '^install_' --no-tests=error
	python3 scripts/coverage.py build-coverage $(COVERAGE_FLOORS)

# clang's ThreadSanitizer over the tests labelled `threads` (cmake/checks.cmake). The build is
# of every target, so it is also CI's clang build of the whole tree (warnings are errors).
# make tsan-build is the build alone (CI builds it ahead in the background).
tsan-build: deps
	CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DRP_TSAN=ON $(WEB_FROM_ARG) >/dev/null
	cmake --build build-tsan -j $(JOBS)

tsan: tsan-build
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	  ctest --test-dir build-tsan --output-on-failure -j $(JOBS) -L threads

# Each libFuzzer target (clang) for FUZZ_SECONDS on its corpus; a crash fails.
fuzz: deps
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

# The fuzz build alone, as make fuzz makes it (CI builds it ahead in the background).
fuzz-build: deps
	bash scripts/fuzz.sh --build

# Rewrite the seed inputs of tests/fuzz/corpus from seeded games (after a notation change).
fuzz-seeds: sanitize-build
	build-sanitize/fuzz_seeds tests/fuzz/corpus data/rush-the-wall.cards

# Rewrite tests/golden/ from the current behaviour (review `git diff tests/golden` after).
golden: sanitize-build
	cmake --build build-sanitize --target golden

# A Release build with clang (warnings are errors in every build).
release-clang: deps
	CC=clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release $(WEB_FROM_ARG) >/dev/null
	cmake --build build-clang -j $(JOBS)

check:
	bash .ci/run

# The first game comes quickly: a build directory not configured yet gets the light build of
# the library and the tool alone (RP_LIGHT_TOOL), with only the packages that needs; no
# server, WebAssembly, Python package, tests or report script, which `make` adds later. A
# build directory already configured is used as it is.
play:
	@[ -f build/CMakeCache.txt ] || { bash scripts/install-deps.sh play && \
	  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DRP_LIGHT_TOOL=ON >/dev/null; }
	cmake --build build --target ramparts -j $(JOBS)
	./build/ramparts play $(GAME)

# Build and start the server on loopback; it prints the address to open in a browser.
serve: all
	@echo "Starting the Ramparts server; open the address below in a browser (Ctrl-C stops it)."
	./build/ramparts serve --listen $(LISTEN)

# A local cluster (docs/cluster.md): PostgreSQL in a temporary directory (as `nobody` when
# run as root), three nodes on one database and HAProxy in front on CLUSTER_PORT; it prints
# the address. Ctrl-C stops it all.
CLUSTER_PORT ?= 8080
cluster: all
	/usr/bin/python3 tests/server/clusterlib.py --ramparts build/ramparts --port $(CLUSTER_PORT)

bench: all
	./build/ramparts bench

# The tournament pairings: each round of a 9-round Swiss of 1,001 players, the same at tables
# of 3 and of 5, an arena tick with 1,000 waiting (tests/bench_tournament.c; figures in
# docs/tournaments.md).
bench-tournament:
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DRP_LIGHT_TOOL=OFF $(WEB_FROM_ARG) >/dev/null
	cmake --build build --target bench_tournament -j $(JOBS)
	./build/bench_tournament

# Load-independent speed: valgrind's instruction counts per action of bench's workload and per
# search iteration, every game (scripts/instructions.sh; docs/ai.md, Measured speed).
bench-instructions: all
	bash scripts/instructions.sh build/ramparts

# The processor time to review a whole game of each kind at the default budget, one core
# (scripts/bench-review.sh; docs/ai.md, Reviews).
bench-review: all
	bash scripts/bench-review.sh build/ramparts

# docs/ai.md's tables: each level against the one below in every game and player count
# (scripts/ai-ladder.sh, GAMES per pairing, default 400; hours of processor time), and the
# analysis-only oracle against random and each level (scripts/ceiling.sh). Both keep each
# run's JSON in build/ and resume where they stopped. The beginner ladder (issue 43,
# scripts/beginner-ladder.sh; minutes) is the coach's hint search and easy against beginner.
ai-ladder: all
	bash scripts/ai-ladder.sh build/ramparts build/ai-ladder
	bash scripts/beginner-ladder.sh build/ramparts build/beginner-ladder

# A Release `ramparts` of another commit in build-ref/<short hash>/ramparts, built from `git
# archive` without touching the work tree (scripts/build-reference.sh), to measure this build
# against it at equal thinking time: `ramparts arena GAME --engine ref=PATH --ai
# hard:ms=100,ref/hard:ms=100` (docs/ai.md, "Measuring"). REF is required (a commit, main...).
reference:
	@bash scripts/build-reference.sh "$(REF)"

beginner-ladder: all
	bash scripts/beginner-ladder.sh build/ramparts build/beginner-ladder

ceiling: all
	bash scripts/ceiling.sh build/ramparts build/ceiling

# The browser client's budgets: shipped size (gzip) and first render of each game's board;
# then the engine in WebAssembly beside native (playouts, search iterations) and the whole
# offline client's download size (web/client/tests/bench_wasm.mjs).
bench-web: all
	node web/client/tests/bench.mjs --ramparts build/ramparts --node-modules build/web/node_modules \
	    --dist build/web/dist
	node web/client/tests/bench_wasm.mjs --ramparts build/ramparts --wasm build/wasm/build/ramparts.wasm \
	    --dist build/web/dist --node-modules build/web/node_modules

# The package ramparts for /usr/bin/python3, assembled in build/python (PYTHONPATH=build/python).
python: all
	@echo "PYTHONPATH=$(CURDIR)/build/python /usr/bin/python3 -c 'import ramparts'"

bench-python: python
	PYTHONPATH=$(CURDIR)/build/python /usr/bin/python3 python/benchmarks/bench.py

install: all
	cmake --install build --prefix $(PREFIX)

clean:
	rm -rf build build-sanitize build-tsan build-fuzz build-clang build-tidy

# The server under load (tests/load/bench_server.py): idle sockets, live games at a set pace,
# latency, memory, saturation, with every move checked against the store. Sizes from
# BENCH_IDLE, BENCH_GAMES, BENCH_RATE, BENCH_SECONDS, BENCH_SAT (docs/server.md).
bench-server: all
	cmake --build build --target loadgen server_frames_check -j $(JOBS)
	/usr/bin/python3 tests/load/bench_server.py --ramparts build/ramparts \
		--checker build/server_frames_check --loadgen build/loadgen

# The same load on SQLite and on 1, 2 and 3 nodes on PostgreSQL behind HAProxy, as one table
# (tests/load/bench_cluster.py; BENCH_CONFIGS picks the columns; docs/cluster.md).
bench-cluster: all
	cmake --build build --target loadgen server_frames_check -j $(JOBS)
	/usr/bin/python3 tests/load/bench_cluster.py --ramparts build/ramparts \
		--checker build/server_frames_check --loadgen build/loadgen
