#!/usr/bin/env bash
# install-deps.sh — installs the Debian packages the build needs, only those missing, so
# `make` and `make test` work on a fresh machine. Uses apt-get as root or through sudo.
# Open MPI runs sim/arena/analyze across processes; Node.js and npm bundle the analysis
# report's plotting script (web/, `npm ci` at build time); Chromium opens the report in the
# tests. clang (with its sanitizer and libFuzzer runtimes), clang-format and clang-tidy serve
# the checks of .ci/run: the clang and ThreadSanitizer builds, the fuzz targets, the format and
# lint checks. Node.js counts as present when `node` and `npm` run (another install may provide
# them); otherwise Debian's nodejs and npm are installed. The Python package (python/) is built
# for Debian's own /usr/bin/python3 and tested with its numpy and pytest; python3-venv and
# setuptools let the tests install it with pip the way a user does. The server runs
# libwebsockets on libuv's epoll loop: libuv1-dev and libwebsockets' libuv plugin. The engine's
# WebAssembly build (src/wasm) uses clang and lld for wasm32-wasi over wasi-libc and
# compiler-rt's wasm32 builtins; dpkg-dev unpacks Debian's cJSON source for it
# (scripts/cjson-source.sh). The server's PostgreSQL store links libpq (libpq-dev); its tests
# start a PostgreSQL server of their own (postgresql's initdb and postgres, docs/cluster.md);
# the cluster's tests and `make cluster` put HAProxy (haproxy) in front of the servers. The
# Python package's learning baseline (python/examples/train_ppo.py, run short by its test)
# trains with PyTorch on CPU (python3-torch) and plots with matplotlib (python3-matplotlib).
# `make coverage` reports line and branch coverage with gcovr.
# The server's account rules: libpwquality-dev judges new passwords against cracklib's
# dictionary (cracklib-runtime builds it; without it every password is refused), libicu-dev's
# spoof checker refuses names that look like a taken one (issue 49).
# `install-deps.sh play`: only what make play's first, light build needs (RP_LIGHT_TOOL in
# CMakeLists.txt: the library and the tool, over cJSON and libedit).
set -euo pipefail
light_packages=(gcc make cmake pkg-config libcjson-dev libedit-dev)
packages=(gcc make cmake pkg-config libcmocka-dev libcjson-dev libedit-dev libwebsockets-dev
          libwebsockets-evlib-uv libuv1-dev
          libsqlite3-dev libpq-dev postgresql haproxy libsodium-dev libpwquality-dev cracklib-runtime
          libicu-dev python3 python3-websockets openssl openmpi-bin
          libopenmpi-dev chromium python3-dev python3-numpy python3-pytest python3-setuptools
          python3-venv clang libclang-rt-dev clang-format clang-tidy lld wasi-libc
          libclang-rt-14-dev-wasm32 dpkg-dev python3-torch python3-matplotlib gcovr)
if [ "${1:-}" = play ]; then
  packages=("${light_packages[@]}")
elif ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing build dependencies: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
