# Thin wrapper over CMake: `make` (release build), `make test` (ASan+UBSan build, all tests),
# `make play` (interactive game), `make serve` (the online server), `make bench` (speed
# figures), `make bench-server` (the server under load), `make bench-web` (the browser client's
# size and first render), `make install` (the tool, headers, static and shared library and
# pkg-config file under PREFIX), `make python` (the Python package in build/python), `make
# bench-python` (C, Python and VectorEnv speed side by side). Dependencies install on demand.
GAME ?= danger-at-the-walls
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
LISTEN ?= 127.0.0.1:8080
PREFIX ?= /usr/local

.PHONY: all deps test play serve bench bench-server bench-web python bench-python install clean

all: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build -j $(JOBS)

deps:
	@bash scripts/install-deps.sh

test: deps
	cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DRP_SANITIZE=ON >/dev/null
	cmake --build build-sanitize -j $(JOBS)
	ctest --test-dir build-sanitize --output-on-failure -j $(JOBS)

play: all
	./build/ramparts play $(GAME)

# Build and start the server on loopback; it prints the address to open in a browser.
serve: all
	@echo "Starting the Ramparts server; open the address below in a browser (Ctrl-C stops it)."
	./build/ramparts serve --listen $(LISTEN)

bench: all
	./build/ramparts bench

# The browser client's budgets: shipped size (gzip) and first render of each game's board.
bench-web: all
	node web/client/tests/bench.mjs --ramparts build/ramparts --node-modules build/web/node_modules \
	    --dist build/web/dist

# The package ramparts for /usr/bin/python3, assembled in build/python (PYTHONPATH=build/python).
python: all
	@echo "PYTHONPATH=$(CURDIR)/build/python /usr/bin/python3 -c 'import ramparts'"

bench-python: python
	PYTHONPATH=$(CURDIR)/build/python /usr/bin/python3 python/benchmarks/bench.py

install: all
	cmake --install build --prefix $(PREFIX)

clean:
	rm -rf build build-sanitize

# The server under load (tests/load/bench_server.py): idle sockets, live games at a set pace,
# latency, memory, saturation, with every move checked against the store. Sizes from
# BENCH_IDLE, BENCH_GAMES, BENCH_RATE, BENCH_SECONDS, BENCH_SAT (docs/server.md).
bench-server: all
	cmake --build build --target loadgen server_frames_check -j $(JOBS)
	/usr/bin/python3 tests/load/bench_server.py --ramparts build/ramparts \
		--checker build/server_frames_check --loadgen build/loadgen
