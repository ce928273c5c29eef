#!/usr/bin/env bash
# check-tidy.sh — runs clang-tidy with the committed .clang-tidy over the files given, or
# every tracked C source under src/ and tests/ (what ships, and the tests, fuzzers and load
# generator that check it; tests/.clang-tidy lists what the tests leave out), one process
# per file (the analyzer keeps state between the files of one process), two at a time.
# Needs a build's compile_commands.json: it configures build-tidy for that (no build). Exits 1 if any file has a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-tidy >/dev/null || { echo "check-tidy: clang-tidy is not installed" >&2; exit 1; }
jobs=${JOBS:-2}
# Debug: the code only test builds compile (store_faults.c) is analyzed too.
cmake -S . -B build-tidy -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_C_COMPILER=clang >/dev/null
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files 'src/*.c' 'tests/*.c')
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# One file a process; -quiet leaves only the findings; xargs exits 123 if any process failed.
if printf '%s\n' "${files[@]}" |
   xargs -P "$jobs" -n 1 clang-tidy -p build-tidy --quiet >"$log" 2>&1; then
  echo "check-tidy: ${#files[@]} files clean"
else
  grep -E -A8 "(warning|error):" "$log" | grep -v "warnings\? generated\|treated as error" >&2 || cat "$log" >&2
  echo "check-tidy: findings above (.clang-tidy lists the checks and why some are left out)" >&2
  exit 1
fi
